"""Witching Hour: one or more tests per rule of the rulebook (shared/rules/witching-hour.txt).

Every scenario is laid out with ``State.arrange`` (through ``wh_helpers.layout``)
and driven by the option labels a player sees.  Corner cases the rulebook leaves
open are pinned as the cardset decides them (see the comments in cardset.yaml).
"""

from __future__ import annotations

from collections import Counter

import pytest

import rulecore
from wh_helpers import (
    BLOCK,
    CARDSET,
    FAMILIAR,
    REFERENCE,
    TAKE,
    assert_defence_looks_the_same_to_others,
    defence_options,
    defend,
    end_round,
    events,
    hand,
    hand_sizes,
    hex_pile,
    layout,
    n,
    new_game,
    options,
    play_round_with_hexes,
    reveals,
    take_forced,
    zone,
)

# --------------------------------------------------------------------------- components and setup


def test_reference_deck_has_56_cards_of_ten_types() -> None:
    """The cardset's deck matches the reference data: 56 cards, 10 types, copies and ladders as printed."""
    assert sum(c.count for c in CARDSET.cards.values()) == 56
    assert {t: (c.count, list(c.scoring)) for t, c in CARDSET.cards.items()} == REFERENCE


@pytest.mark.parametrize("players, hand_size", [(2, 13), (3, 13), (4, 13), (5, 10)])
def test_deal_sizes_and_rest_to_discard(players: int, hand_size: int) -> None:
    """2-4 players are dealt 13 cards each, 5 players 10 each; the rest forms the discard pile."""
    game, state = new_game(players)
    deck = 52 if players == 2 else 56
    assert hand_sizes(state) == [hand_size] * players
    assert len(state.zones["discard"]) == deck - hand_size * players
    assert state.zones["deck"] == []
    for p in range(players):
        assert state.zones[f"hex/{p}"] == []
    assert state.zones["attack"] == [] and state.zones["block"] == []


def test_books_removed_with_two_players() -> None:
    """A two-player game uses 52 cards: the four Books are removed."""
    game, state = new_game(2)
    types = Counter(game.rules.instance_type)
    assert len(game.rules.instance_type) == 52
    assert "book" not in types
    assert types == Counter({t: c for t, (c, _) in REFERENCE.items() if t != "book"})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_books_kept_with_three_or_more_players(players: int) -> None:
    """With three or more players all 56 cards, the four Books included, are used."""
    game, _ = new_game(players)
    assert len(game.rules.instance_type) == 56
    assert Counter(game.rules.instance_type)["book"] == 4


def test_deal_is_deterministic_per_seed_and_seed_matters() -> None:
    """The same seed deals the same hands; different seeds deal differently."""
    _, a = new_game(3, seed=11)
    _, b = new_game(3, seed=11)
    _, c = new_game(3, seed=12)
    assert a.zones == b.zones
    assert a.zones != c.zones


def test_youngest_player_seat_zero_starts() -> None:
    """Seat 0 (the youngest player) takes the first turn of the game."""
    _, state = new_game(4)
    assert state.decision.player == 0
    assert state.decision.prompt == "Your turn"
    assert state.round == 1


# --------------------------------------------------------------------------- a turn


def test_turn_is_attack_or_play_a_card() -> None:
    """A turn offers Attack or playing one of the cards with a 'play into a Hex pile' ability."""
    _, state = new_game(3)
    all_types = list(REFERENCE)
    layout(state, hands={0: all_types, 1: ["bell"], 2: ["bell"]})
    assert state.decision.prompt == "Your turn"
    assert options(state) == {
        "Attack",
        "Play Book",
        "Play Cauldron",
        "Play Chalice",
        "Play Hourglass",
        "Play Skull",
    }


def test_attack_only_option_when_no_playable_card() -> None:
    """With no playable card in hand "Your turn" is still asked, with "Attack" alone, so nobody learns the hand."""
    _, state = new_game(3)
    layout(state, hands={0: ["bell", "bell", "mirror"], 1: ["bell"], 2: ["bell"]}, attack=False)
    assert state.decision.prompt == "Your turn" and state.decision.actions == ["Attack"]
    assert state.view(1)["decision"] == {"player": 0}
    state.apply("Attack")
    assert state.decision.prompt == "Attack whom?"


def test_turns_pass_to_the_left() -> None:
    """After a turn, play passes to the next seat."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=2), 1: n(bell=2), 2: n(bell=2)})
    state.apply("Player 1")
    state.apply("1 Bell")
    take_forced(state, 1)  # Player 1 cannot block with a Bell: takes it
    assert state.decision.player == 1 and state.decision.prompt == "Attack whom?"


# --------------------------------------------------------------------------- make an attack


def test_attack_only_opponents_with_cards_in_hand() -> None:
    """The Defender is chosen among opponents who still have cards in hand."""
    _, state = new_game(4)
    layout(state, hands={0: n(bell=2), 1: ["bell"], 2: [], 3: ["bell"]})
    assert state.decision.prompt == "Attack whom?"
    assert options(state) == {"Player 1", "Player 3"}


def test_attack_single_eligible_defender_is_chosen_automatically() -> None:
    """With one opponent holding cards, that opponent is the Defender without a decision."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=3), 1: [], 2: n(bell=2)})
    assert state.decision.player == 0 and state.decision.prompt == "Attack with which cards?"
    state.apply("2 Bell")
    take_forced(state, 2)
    assert hex_pile(state, 2) == n(bell=2)


def test_attack_sets_one_type_plus_optional_single_candle() -> None:
    """Attack sets: any number of one type, optionally plus exactly one Candle, or Candles alone."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=2, candle=2, mirror=1), 1: ["bell"], 2: ["bell"]})
    state.apply("Player 1")
    assert state.decision.prompt == "Attack with which cards?"
    assert options(state) == {
        "1 Bell",
        "2 Bell",
        "1 Bell + 1 Candle",
        "2 Bell + 1 Candle",
        "1 Mirror",
        "1 Mirror + 1 Candle",
        "1 Candle",
        "2 Candle",
    }


def test_attack_cards_leave_hand_for_the_table() -> None:
    """The attack cards are played from the Attacker's hand (the Candle counts one more card)."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=3, candle=1, skull=1), 1: n(familiar=4, toadstool=4), 2: ["bell"]})
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("3 Bell + 1 Candle")
    assert hand(state, 0) == ["skull"]
    assert zone(state, "attack") == n(bell=3, candle=1)
    assert state.decision.player == 1
    # a block must match the four cards
    assert defence_options(state) == {
        "Take the cards",
        FAMILIAR,
        "Block with 4 Familiar",
        "Block with 4 Toadstool",
    }


def test_attack_with_candles_alone() -> None:
    """Candles alone may make an attack of any number of cards."""
    _, state = new_game(3)
    layout(state, hands={0: n(candle=3, bell=1), 1: n(bell=2), 2: ["bell"]})
    state.apply("Player 1")
    state.apply("3 Candle")
    take_forced(state, 1)
    assert hex_pile(state, 1) == n(candle=3)


def test_block_same_count_one_type_plus_optional_candle() -> None:
    """A block plays as many cards as the attack, all of one type, optionally with one Candle."""
    _, state = new_game(3)
    layout(
        state,
        hands={0: n(bell=3, mirror=1), 1: n(toadstool=3, candle=1, familiar=2, chalice=1, skull=1, bell=3), 2: ["bell"]},
    )
    state.apply("Player 1")
    state.apply("3 Bell")
    assert state.decision.player == 1
    # not the Bells, not mixed types, not two Candles, not fewer or more cards than the attack
    assert defence_options(state) == {
        "Take the cards",
        FAMILIAR,
        "Block with 3 Toadstool",
        "Block with 2 Toadstool + 1 Candle",
        "Block with 2 Familiar + 1 Candle",
    }
    defend(state, "Block with 2 Familiar + 1 Candle")
    assert hand(state, 1) == n(toadstool=3, chalice=1, skull=1, bell=3)
    assert state.zones["block"] == [] and state.zones["attack"] == []


def test_illegal_block_is_rejected_and_changes_nothing() -> None:
    """A block of the wrong size is not a legal action; trying it leaves the state unchanged."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=3, mirror=1), 1: n(toadstool=2, familiar=1), 2: ["bell"]})
    state.apply("Player 1")
    state.apply("3 Bell")
    before = state.to_json()
    with pytest.raises(rulecore.IllegalActionError):
        state.apply("Block with 2 Toadstool")
    assert state.to_json() == before


def test_bell_cannot_block() -> None:
    """Bells cannot block: a Defender holding only Bells is asked, but may only take the attack.

    The others see only that Player 1 decides, just as when a block is possible.
    """
    _, state = new_game(3)
    layout(state, hands={0: n(mirror=2, skull=1), 1: n(bell=5), 2: ["bell"]})
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("2 Mirror")
    assert state.decision.player == 1 and state.decision.prompt == BLOCK
    assert options(state) == {TAKE}
    assert state.view(0)["decision"] == {"player": 1} and state.view(2)["decision"] == {"player": 1}
    state.apply(TAKE)
    assert hex_pile(state, 1) == n(mirror=2)
    assert hand(state, 1) == n(bell=5)
    assert state.decision.player == 1  # Player 1's own turn now


def test_bell_plus_candle_cannot_block() -> None:
    """Bells do not block even together with a Candle; the Candle alone may block one card."""
    _, state = new_game(3)
    layout(state, hands={0: n(mirror=2, skull=1), 1: n(bell=3, candle=1), 2: ["bell"]})
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("2 Mirror")
    take_forced(state, 1)  # no "Block with 1 Bell + 1 Candle"
    assert hex_pile(state, 1) == n(mirror=2)
    state2 = new_game(3)[1]
    layout(state2, hands={0: n(mirror=1, skull=1), 1: n(bell=3, candle=1), 2: ["bell"]})
    state2.apply("Attack")
    state2.apply("Player 1")
    state2.apply("1 Mirror")
    assert options(state2) == {"Take the cards", "Block with 1 Candle"}


def test_bell_attack_is_allowed() -> None:
    """Bells may be used to attack (they only cannot block)."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=4), 1: n(candle=4), 2: ["bell"]})
    state.apply("Player 1")
    state.apply("4 Bell")
    assert options(state) == {"Take the cards", "Block with 4 Candle"}


def test_blocked_attack_all_cards_to_discard() -> None:
    """A blocked attack: the attack and block cards all go to the discard pile."""
    _, state = new_game(3)
    layout(
        state,
        hands={0: n(bell=3, skull=1), 1: n(candle=3, mirror=1), 2: ["bell"]},
        discard=["chalice"],
    )
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("3 Bell")
    state.apply("Block with 3 Candle")
    assert zone(state, "discard") == n(bell=3, candle=3, chalice=1)
    assert hex_pile(state, 0) == [] and hex_pile(state, 1) == []
    assert hand(state, 0) == ["skull"] and hand(state, 1) == ["mirror"]
    assert state.zones["attack"] == [] and state.zones["block"] == []


def test_the_defenders_block_is_logged_as_the_defenders_move() -> None:
    """The moves of a block name the defender who chose it, not the attacker whose turn it is."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=3, skull=1), 1: n(candle=3, mirror=1), 2: ["bell"]})
    start = len(state.events(None))
    for action in ("Attack", "Player 1", "3 Bell", "Block with 3 Candle"):
        state.apply(action)
    moves = [e for e in state.events(None)[start:] if e["type"] == "move"]
    assert [(e["from"], e["to_zone"], e["actor"]) for e in moves] == [
        ("hand/0", "attack", 0), ("hand/1", "block", 1), ("attack", "discard", 1), ("block", "discard", 1)]
    assert moves[1]["text"] == "Player 1: Candle, Candle, Candle from Player 1's hand to block"


def test_unblocked_attack_goes_to_defenders_hex() -> None:
    """An unblocked attack: the attack cards go into the Defender's Hex pile."""
    _, state = new_game(3)
    layout(state, hands={0: n(familiar=2, candle=1, bell=1), 1: n(toadstool=3), 2: ["bell"]})
    state.apply("Player 1")
    state.apply("2 Familiar + 1 Candle")
    assert options(state) == {"Take the cards", "Block with 3 Toadstool"}
    state.apply("Take the cards")
    assert hex_pile(state, 1) == n(familiar=2, candle=1)
    assert hand(state, 1) == n(toadstool=3)
    assert state.zones["attack"] == []


def test_defender_may_decline_to_block() -> None:
    """The Defender may choose not to block even when able to."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=2, candle=1), 1: n(candle=2, mirror=2), 2: ["bell"]})
    state.apply("Player 1")
    state.apply("2 Bell")
    assert "Take the cards" in options(state)
    state.apply("Take the cards")
    assert hex_pile(state, 1) == n(bell=2)


# --------------------------------------------------------------------------- Familiar


def test_familiar_block_into_own_hex_discards_attack() -> None:
    """Familiar block: one Familiar into the Defender's Hex pile, the attack cards discarded."""
    _, state = new_game(3)
    layout(state, hands={0: n(mirror=3, bell=1), 1: n(familiar=2, bell=1), 2: ["bell"]}, discard=[])
    state.apply("Player 1")
    state.apply("3 Mirror")
    assert state.decision.player == 1 and state.decision.prompt == BLOCK
    assert options(state) == {TAKE, FAMILIAR}  # one Familiar option, however many Familiars are held
    state.apply(FAMILIAR)
    assert hex_pile(state, 1) == ["familiar"]
    assert hand(state, 1) == n(familiar=1, bell=1)
    assert zone(state, "discard") == n(mirror=3)
    assert hex_pile(state, 0) == []
    assert state.zones["attack"] == []


def test_familiar_block_is_optional() -> None:
    """The Familiar block is optional: the Defender may take the cards (or block otherwise) and keep the Familiar."""
    _, state = new_game(3)
    layout(state, hands={0: n(mirror=3, bell=1), 1: n(familiar=1, candle=3), 2: ["bell"]}, discard=[])
    state.apply("Player 1")
    state.apply("3 Mirror")
    assert state.decision.player == 1 and state.decision.prompt == BLOCK
    assert options(state) == {TAKE, FAMILIAR, "Block with 3 Candle"}
    state.apply(TAKE)
    assert hex_pile(state, 1) == n(mirror=3)
    assert hand(state, 1) == n(familiar=1, candle=3)
    assert state.decision.player == 1 and state.decision.prompt == "Your turn"  # nothing more was asked


def test_familiar_not_used_and_no_block_possible_takes_the_cards() -> None:
    """With a Familiar but no ordinary block, the choice is the Familiar or taking the attack."""
    _, state = new_game(3)
    layout(state, hands={0: n(mirror=3, bell=1), 1: n(familiar=1, bell=3), 2: ["bell"]}, discard=[])
    state.apply("Player 1")
    state.apply("3 Mirror")
    assert defence_options(state) == {TAKE, FAMILIAR}
    defend(state, TAKE)
    assert hex_pile(state, 1) == n(mirror=3)
    assert hand(state, 1) == n(familiar=1, bell=3)


def test_familiar_block_works_whatever_the_attack_size() -> None:
    """A single Familiar blocks an attack of any size (here five cards)."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=4, candle=1, skull=1), 1: n(familiar=1, mirror=1), 2: ["bell"]})
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("4 Bell + 1 Candle")
    assert defence_options(state) == {TAKE, FAMILIAR}
    state.apply(FAMILIAR)
    assert hex_pile(state, 1) == ["familiar"]
    assert hand(state, 1) == ["mirror"]


def test_familiar_cannot_block_toadstool_attack() -> None:
    """Attacks involving Toadstools cannot be blocked, not even by a Familiar (no decision is asked)."""
    _, state = new_game(3)
    layout(
        state,
        hands={0: n(toadstool=1, bell=1, skull=1), 1: n(familiar=2, mirror=2, candle=1), 2: ["bell"]},
        discard=["chalice", "chalice"],
    )
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("1 Toadstool")
    assert hex_pile(state, 1) == ["toadstool"]
    assert hand(state, 1) == n(familiar=2, mirror=2, candle=1)
    assert hex_pile(state, 0) == ["chalice"]  # the Attacker's Toadstool draw
    assert state.decision.player == 1


@pytest.mark.parametrize(
    "hands, hexes, attack, offered",
    [
        # a Familiar in the Defender's hand, no Toadstool in the attack: offered
        ({0: n(bell=2, skull=1), 1: n(familiar=1, mirror=2)}, {}, "2 Bell", {TAKE, FAMILIAR, "Block with 2 Mirror"}),
        # Familiars only in the Attacker's hand, a third player's hand and the Defender's Hex pile: not offered
        (
            {0: n(bell=2, familiar=1, skull=1), 1: n(mirror=2, bell=1), 2: n(familiar=2)},
            {1: n(familiar=1)},
            "2 Bell",
            {TAKE, "Block with 2 Mirror"},
        ),
        # no Familiar anywhere and no block: only taking, but still asked
        ({0: n(bell=2, skull=1), 1: n(bell=2)}, {}, "2 Bell", {TAKE}),
        # a Familiar in the Defender's hand against a Toadstool attack: nothing is asked at all
        ({0: n(toadstool=1, candle=1, skull=1), 1: n(familiar=2, mirror=2)}, {}, "1 Toadstool + 1 Candle", None),
        ({0: n(toadstool=2, skull=1), 1: n(familiar=1, toadstool=2)}, {}, "2 Toadstool", None),
    ],
    ids=["familiar-in-hand", "familiar-elsewhere", "no-familiar", "toadstool-and-candle", "toadstools"],
)
def test_familiar_option_only_with_a_familiar_in_hand_and_no_toadstool(hands, hexes, attack, offered) -> None:
    """The Familiar option appears only when the Defender holds a Familiar in hand and the attack has no Toadstool."""
    _, state = new_game(3)
    hands = {2: ["bell"], **hands}
    layout(state, hands=hands, hexes=hexes, discard=[])
    attacker_hand = Counter(hand(state, 0))
    state.apply("Attack")
    state.apply("Player 1")
    state.apply(attack)
    if offered is None:
        # unblockable: straight into the Defender's Hex pile, nothing asked; the Familiars stay in hand
        assert FAMILIAR not in state.history and TAKE not in state.history
        assert hex_pile(state, 1) == sorted((attacker_hand - Counter(hand(state, 0))).elements())
        assert hand(state, 1) == sorted(hands[1])
        assert state.decision.player == 1 and state.decision.prompt != BLOCK  # Player 1's own turn
    else:
        assert state.decision.player == 1 and state.decision.prompt == BLOCK
        assert defence_options(state) == offered
        assert_defence_looks_the_same_to_others(state)


def test_familiar_and_ordinary_blocks_offered_in_one_decision() -> None:
    """A Defender holding a Familiar and able to block otherwise sees all of it in one decision, and answering it ends the defence."""
    _, state = new_game(3)
    layout(
        state,
        hands={0: n(bell=3, skull=1), 1: n(familiar=1, toadstool=3, mirror=2, candle=1), 2: ["bell"]},
        discard=[],
    )
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("3 Bell")
    assert state.decision.player == 1 and state.decision.prompt == BLOCK
    everything = {TAKE, FAMILIAR, "Block with 3 Toadstool", "Block with 2 Toadstool + 1 Candle", "Block with 2 Mirror + 1 Candle"}
    assert options(state) == everything
    assert set(state.view(1)["decision"]["options"]) == everything
    assert_defence_looks_the_same_to_others(state)
    asked = len(state.history)

    # the Familiar: no second question follows
    with_familiar = state.clone()
    with_familiar.apply(FAMILIAR)
    assert len(with_familiar.history) == asked + 1
    assert hex_pile(with_familiar, 1) == ["familiar"]
    assert zone(with_familiar, "discard") == n(bell=3)
    assert hand(with_familiar, 1) == n(toadstool=3, mirror=2, candle=1)
    assert with_familiar.decision.player == 1 and with_familiar.decision.prompt != BLOCK  # Player 1's own turn

    # an ordinary block: the Familiar is not offered afterwards, it stays in hand
    with_toadstools = state.clone()
    with_toadstools.apply("Block with 3 Toadstool")
    assert len(with_toadstools.history) == asked + 1
    assert hex_pile(with_toadstools, 1) == []
    assert zone(with_toadstools, "discard") == n(bell=3, toadstool=3)
    assert hand(with_toadstools, 1) == n(familiar=1, mirror=2, candle=1)
    assert with_toadstools.decision.player == 1 and with_toadstools.decision.prompt != BLOCK

    # taking the cards: likewise one answer
    state.apply(TAKE)
    assert len(state.history) == asked + 1
    assert hex_pile(state, 1) == n(bell=3)
    assert hand(state, 1) == n(familiar=1, toadstool=3, mirror=2, candle=1)
    assert state.decision.player == 1 and state.decision.prompt != BLOCK


# --------------------------------------------------------------------------- Mirror


def test_mirror_reflection_taken_by_attacker() -> None:
    """Mirrors reflect: they are discarded, the Attacker must block or take the attack into their own Hex pile."""
    _, state = new_game(3)
    layout(state, hands={0: n(familiar=2, candle=2), 1: n(mirror=2, bell=1), 2: ["bell"]}, discard=[])
    state.apply("Player 1")
    state.apply("2 Familiar")
    state.apply("Block with 2 Mirror")
    assert state.decision.player == 0 and state.decision.prompt == "Block the attack?"
    assert options(state) == {"Take the cards", "Block with 2 Candle"}
    state.apply("Take the cards")
    assert hex_pile(state, 0) == n(familiar=2)
    assert hex_pile(state, 1) == []
    assert zone(state, "discard") == n(mirror=2)
    assert hand(state, 1) == ["bell"]


def test_mirror_reflection_attacker_who_cannot_block_is_asked_only_to_take() -> None:
    """When the Attacker cannot block a reflected attack, they are still asked "Block the attack?",
    with "Take the cards" as the only option; the others see only who decides."""
    _, state = new_game(3)
    layout(state, hands={0: n(familiar=2, bell=3), 1: n(mirror=2, bell=1), 2: ["bell"]}, discard=[])
    state.apply("Player 1")
    state.apply("2 Familiar")
    state.apply("Block with 2 Mirror")
    assert state.decision.player == 0 and state.decision.prompt == BLOCK
    assert options(state) == {TAKE}
    assert state.view(1)["decision"] == {"player": 0} and state.view(2)["decision"] == {"player": 0}
    state.apply(TAKE)
    assert hex_pile(state, 0) == n(familiar=2)
    assert hand(state, 0) == n(bell=3)
    assert zone(state, "discard") == n(mirror=2)
    assert state.decision.player == 1  # the attack is over: Player 1's turn


def test_mirror_with_candle_reflects_and_candle_is_discarded() -> None:
    """Mirrors plus one Candle also reflect; the Candle is discarded with the Mirrors."""
    _, state = new_game(3)
    layout(state, hands={0: n(skull=3, bell=1), 1: n(mirror=2, candle=1, bell=1), 2: ["bell"]}, discard=[])
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("3 Skull")
    assert "Block with 2 Mirror + 1 Candle" in options(state)
    state.apply("Block with 2 Mirror + 1 Candle")
    # Player 0 holds one Bell: cannot block, takes the three Skulls
    take_forced(state, 0)
    assert zone(state, "discard") == n(mirror=2, candle=1)
    assert hex_pile(state, 0) == n(skull=3)
    assert hand(state, 1) == ["bell"]


def test_mirror_chain_reflects_back_and_forth() -> None:
    """Mirrors against a reflected attack reflect it again; the chain ends when someone does not reflect."""
    _, state = new_game(3)
    layout(
        state,
        hands={0: n(bell=2, mirror=1, candle=1, chalice=1), 1: n(mirror=4, toadstool=1), 2: ["bell"]},
        discard=[],
    )
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("2 Bell")
    state.apply("Block with 2 Mirror")  # reflected to Player 0
    assert state.decision.player == 0
    state.apply("Block with 1 Mirror + 1 Candle")  # reflected to Player 1
    assert state.decision.player == 1
    assert options(state) == {"Take the cards", "Block with 2 Mirror"}
    state.apply("Block with 2 Mirror")  # reflected to Player 0 again: one Chalice left, cannot block
    take_forced(state, 0)
    assert hex_pile(state, 0) == n(bell=2)
    assert hex_pile(state, 1) == []
    assert zone(state, "discard") == n(mirror=5, candle=1)
    assert hand(state, 0) == ["chalice"] and hand(state, 1) == ["toadstool"]
    assert state.zones["attack"] == [] and state.zones["block"] == []


def test_reflected_attack_blocked_normally_is_discarded() -> None:
    """A reflected attack blocked with non-Mirror cards ends with everything discarded."""
    _, state = new_game(3)
    layout(state, hands={0: n(book=2, toadstool=2, bell=1), 1: n(mirror=2, bell=1), 2: ["bell"]}, discard=[])
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("2 Book")
    state.apply("Block with 2 Mirror")
    state.apply("Block with 2 Toadstool")
    assert zone(state, "discard") == n(book=2, mirror=2, toadstool=2)
    assert hex_pile(state, 0) == [] and hex_pile(state, 1) == []


def test_familiar_blocks_reflected_attack() -> None:
    """The original Attacker may block a reflected attack with a Familiar into their own Hex pile."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=3, familiar=1), 1: n(mirror=3, bell=2), 2: ["bell"]}, discard=[])
    state.apply("Player 1")
    state.apply("3 Bell")
    state.apply("Block with 3 Mirror")
    assert state.decision.player == 0 and state.decision.prompt == BLOCK
    assert defence_options(state) == {TAKE, FAMILIAR}
    state.apply(FAMILIAR)
    assert hex_pile(state, 0) == ["familiar"]
    assert zone(state, "discard") == n(bell=3, mirror=3)


# --------------------------------------------------------------------------- Toadstool


def test_toadstool_attack_unblockable_and_attacker_draws_per_toadstool() -> None:
    """A Toadstool attack cannot be blocked; the Attacker adds one random discard card per Toadstool to their own Hex."""
    _, state = new_game(3)
    layout(
        state,
        hands={0: n(toadstool=2, candle=1, bell=1), 1: n(mirror=3, candle=1, toadstool=3), 2: ["bell"]},
        discard=n(chalice=4),
    )
    state.apply("Player 1")
    state.apply("2 Toadstool + 1 Candle")
    assert hex_pile(state, 1) == n(toadstool=2, candle=1)
    assert hex_pile(state, 0) == n(chalice=2)
    assert zone(state, "discard") == n(chalice=2)
    assert hand(state, 1) == n(mirror=3, candle=1, toadstool=3)
    assert state.decision.player == 1


def test_toadstool_draws_are_random_and_hidden() -> None:
    """The Toadstool draws are random cards from the discard pile, and nobody sees which."""
    drawn = set()
    for seed in range(12):
        _, state = new_game(3, seed=seed)
        layout(state, hands={0: n(toadstool=1, bell=1), 1: n(bell=2), 2: ["bell"]}, discard=["chalice", "skull", "book", "cauldron"])
        state.apply("Player 1")
        state.apply("1 Toadstool")
        assert len(hex_pile(state, 0)) == 1
        drawn.add(hex_pile(state, 0)[0])
        move = [e for e in state.events(None) if e["type"] == "move" and e["from"] == "discard"][-1]
        assert move["to_zone"] == "hex/0"
        for p in range(3):
            seen = [e for e in state.events(p) if e["type"] == "move" and e.get("from") == "discard"][-1]
            assert "cards" not in seen
    assert len(drawn) > 1


def test_toadstool_draws_only_what_discard_holds() -> None:
    """Decision: with fewer discard cards than Toadstools, the Attacker draws only what there is."""
    _, state = new_game(3)
    layout(state, hands={0: n(toadstool=3, bell=1), 1: n(bell=2), 2: ["bell"]}, discard=["chalice"])
    state.apply("Player 1")
    state.apply("3 Toadstool")
    assert hex_pile(state, 1) == n(toadstool=3)
    assert hex_pile(state, 0) == ["chalice"]
    assert state.zones["discard"] == []


def test_toadstool_with_empty_discard_draws_nothing() -> None:
    """Decision: with an empty discard pile a Toadstool attack adds nothing to the Attacker's Hex."""
    _, state = new_game(3)
    layout(state, hands={0: n(toadstool=2, bell=1), 1: n(bell=2), 2: ["bell"]}, discard=[])
    state.apply("Player 1")
    state.apply("2 Toadstool")
    assert hex_pile(state, 1) == n(toadstool=2)
    assert hex_pile(state, 0) == []


def test_toadstool_used_to_block_has_no_special_effect() -> None:
    """Toadstools used to block are an ordinary block: discarded, nothing drawn."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=2, mirror=1), 1: n(toadstool=2, bell=1), 2: ["bell"]}, discard=n(chalice=2))
    state.apply("Player 1")
    state.apply("2 Bell")
    state.apply("Block with 2 Toadstool")
    assert zone(state, "discard") == n(bell=2, chalice=2, toadstool=2)
    assert hex_pile(state, 0) == [] and hex_pile(state, 1) == []


# --------------------------------------------------------------------------- play a card: Book


def test_book_takes_random_card_from_opponent_and_gives_another_turn() -> None:
    """Book: into your Hex pile, take a random card from an opponent's hand, then another turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(book=1, bell=1), 1: n(mirror=2), 2: n(chalice=1, bell=1)})
    state.apply("Play Book")
    assert state.decision.prompt == "Take a random card from whose hand?"
    assert options(state) == {"Player 1", "Player 2"}
    state.apply("Player 1")
    assert hex_pile(state, 0) == ["book"]
    assert hand(state, 0) == n(bell=1, mirror=1)
    assert hand(state, 1) == ["mirror"]
    assert state.decision.player == 0 and state.decision.prompt in ("Your turn", "Attack whom?")


def test_book_victims_must_have_cards() -> None:
    """Book: only an opponent with cards in hand can be the victim (chosen automatically when only one)."""
    _, state = new_game(3)
    layout(state, hands={0: n(book=1, bell=1), 1: [], 2: n(chalice=1, skull=1)})
    state.apply("Play Book")
    assert hex_pile(state, 0) == ["book"]
    assert len(hand(state, 0)) == 2 and len(hand(state, 2)) == 1
    assert state.decision.player == 0


def test_book_card_is_random() -> None:
    """Book: the card taken from the victim's hand is random (seeded)."""
    taken = set()
    for seed in range(12):
        _, state = new_game(3, seed=seed)
        layout(state, hands={0: n(book=1, bell=1), 1: ["mirror", "chalice", "skull", "cauldron"], 2: []})
        state.apply("Play Book")
        taken.add(next(t for t in hand(state, 0) if t != "bell"))
    assert len(taken) > 1


def test_book_look_and_steal_are_private() -> None:
    """Book: only the player who plays it sees the victim's hand; the third player sees neither hand nor card."""
    _, state = new_game(3)
    layout(state, hands={0: n(book=1, bell=1), 1: n(mirror=2, candle=1), 2: n(chalice=1, bell=1)})
    state.apply("Play Book")
    state.apply("Player 1")
    look0 = [e for e in events(state, "look", 0) if "cards" in e]
    assert look0 and sorted(look0[-1]["cards"]) == n(mirror=2, candle=1)
    assert not [e for e in events(state, "look", 2) if "cards" in e]
    assert not [e for e in events(state, "look", 1) if "cards" in e]
    steal = [e for e in state.events(None) if e["type"] == "move" and e["from"] == "hand/1"][-1]
    for p in (0, 1):
        assert "cards" in [e for e in state.events(p) if e["type"] == "move" and e["from"] == "hand/1"][-1]
    assert "cards" not in [e for e in state.events(2) if e["type"] == "move" and e["from"] == "hand/1"][-1]
    assert steal["to_zone"] == "hand/0"


# --------------------------------------------------------------------------- Cauldron


def test_cauldron_two_cards_one_to_own_hex_other_to_another_player() -> None:
    """Cauldron: into your Hex, two random discard cards: one to your Hex, the other to any other player's; no extra turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(cauldron=1, bell=1), 1: n(bell=2), 2: []}, discard=["chalice", "mirror"])
    state.apply("Play Cauldron")
    assert state.decision.prompt == "Which card goes into your own Hex pile?"
    assert options(state) == {"Chalice", "Mirror"}
    state.apply("Mirror")
    # any other player's Hex pile, even one with no cards in hand; not your own
    assert options(state) == {"Player 1", "Player 2"}
    state.apply("Player 2")
    assert hex_pile(state, 0) == n(cauldron=1, mirror=1)
    assert hex_pile(state, 2) == ["chalice"]
    assert state.zones["discard"] == []
    assert state.decision.player == 1  # the Cauldron gives no extra turn


def test_cauldron_player_looks_at_drawn_cards_privately() -> None:
    """Cauldron: the player looks at the two drawn cards; the others do not see them."""
    _, state = new_game(3)
    layout(state, hands={0: n(cauldron=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, discard=["chalice", "mirror"])
    state.apply("Play Cauldron")
    assert sorted([e for e in events(state, "look", 0) if "cards" in e][-1]["cards"]) == ["chalice", "mirror"]
    for p in (1, 2):
        assert not [e for e in events(state, "look", p) if "cards" in e]
        assert "options" not in state.view(p)["decision"]


def test_cauldron_two_player_other_card_goes_to_opponent() -> None:
    """Cauldron in a two-player game: the other card goes to the only opponent without a decision."""
    _, state = new_game(2)
    layout(state, hands={0: n(cauldron=1, bell=1), 1: n(bell=2)}, discard=n(skull=1, chalice=1))
    state.apply("Play Cauldron")
    state.apply("Skull")
    assert hex_pile(state, 0) == n(cauldron=1, skull=1)
    assert hex_pile(state, 1) == ["chalice"]


def test_cauldron_with_one_discard_card_puts_it_in_own_hex() -> None:
    """Decision: Cauldron with a single discard card puts that card into your own Hex pile."""
    _, state = new_game(3)
    layout(state, hands={0: n(cauldron=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, discard=["skull"])
    state.apply("Play Cauldron")
    assert hex_pile(state, 0) == n(cauldron=1, skull=1)
    assert hex_pile(state, 1) == [] and hex_pile(state, 2) == []
    assert state.decision.player == 1


def test_cauldron_with_empty_discard_does_nothing_else() -> None:
    """Decision: Cauldron with an empty discard pile only goes into your Hex pile."""
    _, state = new_game(3)
    layout(state, hands={0: n(cauldron=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, discard=[])
    state.apply("Play Cauldron")
    assert hex_pile(state, 0) == ["cauldron"]
    assert hex_pile(state, 1) == [] and hex_pile(state, 2) == []
    assert state.decision.player == 1


def test_cauldron_draws_randomly_from_larger_discard() -> None:
    """Cauldron: the two cards are drawn at random from the whole discard pile."""
    seen = set()
    for seed in range(10):
        _, state = new_game(3, seed=seed)
        layout(state, hands={0: n(cauldron=1, bell=1), 1: n(bell=2), 2: n(bell=1)},
               discard=["chalice", "mirror", "skull", "book", "hourglass"])
        state.apply("Play Cauldron")
        offered = frozenset(options(state))
        assert len(offered) == 2
        seen.add(offered)
        assert len(state.zones["discard"]) == 5  # nothing moves before the choice
    assert len(seen) > 1


# --------------------------------------------------------------------------- Chalice


def test_chalice_into_any_players_hex_including_own_and_empty_handed() -> None:
    """Chalice: into any player's Hex pile -- your own, or a player with no cards in hand; no extra turn."""
    for target in (0, 1, 2):
        _, state = new_game(3)
        layout(state, hands={0: n(chalice=1, bell=1), 1: n(bell=2), 2: []})
        state.apply("Play Chalice")
        assert state.decision.prompt == "Whose Hex pile gets the Chalice?"
        assert options(state) == {"Player 0", "Player 1", "Player 2"}
        state.apply(f"Player {target}")
        for p in range(3):
            assert hex_pile(state, p) == (["chalice"] if p == target else [])
        assert hand(state, 0) == ["bell"]
        assert state.decision.player == 1  # no extra turn; Player 2 has no cards


# --------------------------------------------------------------------------- Hourglass


def test_hourglass_takes_a_hex_card_back_and_gives_another_turn() -> None:
    """Hourglass: into your Hex, look at it, take one of its cards into your hand, then another turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(hourglass=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, hexes={0: ["mirror", "chalice"]})
    state.apply("Play Hourglass")
    assert state.decision.prompt == "Take which card from your Hex pile?"
    assert options(state) == {"Mirror", "Chalice"}  # not the Hourglass itself
    state.apply("Chalice")
    assert hex_pile(state, 0) == n(hourglass=1, mirror=1)
    assert hand(state, 0) == n(bell=1, chalice=1)
    assert state.decision.player == 0 and state.decision.prompt == "Your turn"


def test_hourglass_cannot_take_itself_back() -> None:
    """Decision: the Hourglass picks from the Hex pile as it was before it went in, never itself."""
    _, state = new_game(3)
    layout(state, hands={0: n(hourglass=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, hexes={0: ["skull"]})
    state.apply("Play Hourglass")
    # a single candidate is still asked ('always'): the others must not learn the pile holds one kind
    assert state.decision.prompt == "Take which card from your Hex pile?"
    assert options(state) == {"Skull"}
    state.apply("Skull")
    assert hex_pile(state, 0) == ["hourglass"]
    assert hand(state, 0) == n(bell=1, skull=1)


def test_hourglass_may_take_back_an_older_hourglass() -> None:
    """Hourglass: "Look at your Hex pile, take a card from it": an older Hourglass may be taken back too."""
    _, state = new_game(3, seed=0)
    state.arrange({"hand/0": ["hourglass", "bell"], "hand/1": ["mirror"], "hand/2": ["bell"],
                   "hex/0": ["hourglass", "skull"], "hex/1": [], "hex/2": []}, rest="discard")
    state.apply("Play Hourglass")
    assert state.decision.prompt == "Take which card from your Hex pile?"
    assert options(state) == {"Hourglass", "Skull"}
    state.apply("Hourglass")
    assert hex_pile(state, 0) == n(hourglass=1, skull=1)
    assert hand(state, 0) == n(bell=1, hourglass=1)
    assert state.decision.player == 0 and state.decision.prompt == "Your turn"


def test_hourglass_player_looks_at_the_whole_hex_pile() -> None:
    """Hourglass: "Look at your Hex pile": the player sees every card of it, not only those it may take."""
    _, state = new_game(3, seed=0)
    state.arrange({"hand/0": ["hourglass", "bell"], "hand/1": ["mirror"], "hand/2": ["bell"],
                   "hex/0": ["hourglass", "skull"], "hex/1": [], "hex/2": []}, rest="discard")
    state.apply("Play Hourglass")
    seen = [e for e in events(state, "look", 0) if "cards" in e][-1]["cards"]
    assert sorted(seen) == n(hourglass=2, skull=1)


def test_hourglass_with_only_its_own_card_in_hex_takes_nothing() -> None:
    """Decision: an Hourglass played into an empty Hex pile has nothing to take back, but still gives another turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(hourglass=1, bell=1), 1: n(bell=2), 2: n(bell=1)})
    state.apply("Play Hourglass")
    assert hex_pile(state, 0) == ["hourglass"]
    assert state.decision.player == 0


def test_hourglass_with_empty_hex_still_gives_another_turn() -> None:
    """Decision: Hourglass with an empty Hex pile takes nothing back but still gives another turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(hourglass=1, bell=1), 1: n(bell=2), 2: n(bell=1)})
    state.apply("Play Hourglass")
    assert hex_pile(state, 0) == ["hourglass"]
    assert hand(state, 0) == ["bell"]
    assert state.decision.player == 0


def test_hourglass_look_is_private() -> None:
    """Hourglass: the owner looks at their Hex pile; nobody else sees it."""
    _, state = new_game(3)
    layout(state, hands={0: n(hourglass=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, hexes={0: ["mirror", "chalice"]})
    state.apply("Play Hourglass")
    assert sorted([e for e in events(state, "look", 0) if "cards" in e][-1]["cards"]) == ["chalice", "hourglass", "mirror"]
    assert not [e for e in events(state, "look", 1) if "cards" in e]
    assert "cards" not in state.view(0)["zones"]["hex/0"]


# --------------------------------------------------------------------------- Skull


def test_skull_takes_chosen_discard_card_and_gives_another_turn() -> None:
    """Skull: into your Hex, look at the discard pile, take a card of your choice, then another turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(skull=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, discard=["chalice", "candle", "mirror"])
    state.apply("Play Skull")
    assert state.decision.prompt == "Take which card from the discard pile?"
    assert options(state) == {"Chalice", "Candle", "Mirror"}
    state.apply("Candle")
    assert hex_pile(state, 0) == ["skull"]
    assert hand(state, 0) == n(bell=1, candle=1)
    assert zone(state, "discard") == n(chalice=1, mirror=1)
    assert state.decision.player == 0 and state.decision.actions == ["Attack"]  # the other turn: attacking only


def test_skull_with_empty_discard_still_gives_another_turn() -> None:
    """Decision: Skull with an empty discard pile takes nothing but still gives another turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(skull=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, discard=[])
    state.apply("Play Skull")
    assert hex_pile(state, 0) == ["skull"]
    assert hand(state, 0) == ["bell"]
    assert state.decision.player == 0


def test_skull_discard_choice_is_private() -> None:
    """Skull: only its player sees the discard pile (look event and the choice's options)."""
    _, state = new_game(3)
    layout(state, hands={0: n(skull=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, discard=["chalice", "candle"])
    state.apply("Play Skull")
    assert state.view(0)["decision"]["options"]
    for p in (1, 2):
        assert "options" not in state.view(p)["decision"]
        assert not [e for e in events(state, "look", p) if "cards" in e]


# --------------------------------------------------------------------------- extra turns and skipping


def test_extra_turns_chain() -> None:
    """Another turn follows right away; several cards giving another turn can be chained."""
    _, state = new_game(3)
    layout(state, hands={0: n(skull=1, hourglass=1, bell=1), 1: n(bell=2), 2: n(bell=1)}, discard=[])
    state.apply("Play Skull")
    assert state.decision.player == 0
    state.apply("Play Hourglass")
    state.apply("Skull")  # the only card in the Hex before the Hourglass, asked anyway ('always')
    assert hand(state, 0) == n(bell=1, skull=1)
    assert hex_pile(state, 0) == ["hourglass"]
    assert state.decision.player == 0
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("1 Bell")
    assert state.decision.player == 1  # an attack gives no extra turn


def test_attack_gives_no_extra_turn() -> None:
    """After an attack play passes to the next player with cards."""
    _, state = new_game(3)
    layout(state, hands={0: n(bell=2), 1: n(bell=2), 2: n(bell=2)})
    state.apply("Player 2")
    state.apply("1 Bell")
    take_forced(state, 2)
    assert state.decision.player == 1


def test_players_without_cards_are_skipped() -> None:
    """A player with no cards in hand is skipped when turns pass."""
    _, state = new_game(4)
    layout(state, hands={0: n(bell=3), 1: [], 2: [], 3: n(bell=2)})
    state.apply("1 Bell")  # the only possible attack: Player 3
    take_forced(state, 3)  # then Player 3's "Your turn" (attacking only) is answered
    assert state.decision.player == 3
    state.apply("1 Bell")  # attacks Player 0 (only one with cards)
    take_forced(state, 0)
    assert state.decision.player == 0
    log = state.events(None)
    start = max(i for i, e in enumerate(log) if e["type"] == "arrange")
    assert [e["actor"] for e in log[start:] if e["type"] == "turn"] == [3, 0]


def test_extra_turn_lost_without_cards() -> None:
    """A player who gets another turn but has no cards left is skipped."""
    _, state = new_game(3)
    layout(state, hands={0: ["skull"], 1: n(bell=2), 2: n(bell=1)}, discard=[])
    state.apply("Play Skull")  # empty discard: nothing taken, hand now empty
    assert hand(state, 0) == []
    assert state.decision.player == 1


# --------------------------------------------------------------------------- round end


def test_round_ends_when_one_player_has_cards_they_go_to_hex_and_that_player_starts() -> None:
    """Round end: only one player with cards at the end of a turn; that hand goes into their Hex; they start the next round."""
    _, state = new_game(3)
    layout(state, hands={0: ["bell"], 1: n(bell=1, candle=1), 2: ["bell"]})
    state.apply("Player 2")  # attack with the only card, a Bell: Player 2 cannot block with a Bell
    state.apply("1 Bell")  # asked though it is the only attack ('always')
    take_forced(state, 2)
    assert state.round == 1 and state.decision.player == 1
    state.apply("1 Bell + 1 Candle")  # the only defender is Player 2, takes them
    take_forced(state, 2)
    # Players 0 and 1 are out of cards: the round is over
    assert state.round == 2
    revealed = reveals(state)[0]
    assert revealed["hex/2"] == n(bell=3, candle=1)  # two attacks + the Bell left in hand
    assert revealed["hex/0"] == [] and revealed["hex/1"] == []
    assert state.round_log[0]["round_score"] == [0, 0, 4 + 1]
    assert state.decision.player == 2 and state.decision.prompt == "Your turn"
    assert state.vars["starter"] == 2


def test_round_ends_before_an_owed_extra_turn() -> None:
    """The round ends at the end of the turn in which only one player is left with cards, even if that player was owed another turn."""
    _, state = new_game(3)
    layout(state, hands={0: n(book=1, bell=1), 1: ["mirror"], 2: []})
    state.apply("Play Book")  # the only victim, Player 1, loses its last card
    assert state.round == 2
    assert reveals(state)[0]["hex/0"] == n(book=1, bell=1, mirror=1)
    assert state.decision.player == 0


def test_round_does_not_end_while_two_players_hold_cards() -> None:
    """The round goes on while two or more players hold cards."""
    _, state = new_game(3)
    layout(state, hands={0: ["bell"], 1: n(bell=2), 2: n(bell=1)})
    state.apply("Player 1")
    state.apply("1 Bell")  # Player 0 plays its last card; Players 1 and 2 still hold cards
    assert hand_sizes(state) == [0, 2, 1]
    assert state.round == 1
    assert state.decision.player == 1


def test_round_ends_with_nobody_holding_cards_last_to_empty_starts_next() -> None:
    """Round end: "The player who last had cards in their hand" starts: with no cards left, the one who emptied their hand last."""
    _, state = new_game(3)
    layout(state, hands={0: ["candle"], 1: n(bell=1), 2: ["candle"]})
    state.apply("Player 1")
    state.apply("1 Candle")
    take_forced(state, 1)  # Candle into Player 1's Hex (a Bell cannot block); Player 1 attacks
    # Player 1's turn: it must attack Player 2 (the only one with cards) with its Bell
    assert state.decision.player == 2 and state.decision.prompt == "Block the attack?"
    assert options(state) == {"Take the cards", "Block with 1 Candle"}
    state.apply("Block with 1 Candle")
    assert state.round == 2
    # Player 1 emptied its hand by attacking, Player 2 after it by blocking
    assert state.decision.player == 2
    assert state.round_log[0]["round_score"] == [0, 1, 0]


def test_defender_who_empties_last_starts_next_round_two_players() -> None:
    """Round end: the defender who blocks with their last card had cards last, so starts the next round."""
    _, state = new_game(2, seed=0)
    state.arrange({"hand/0": ["bell"], "hand/1": ["candle"], "hex/0": [], "hex/1": []}, rest="discard")
    state.apply("Attack")  # 'Your turn' is asked even when attacking is all there is
    state.apply("1 Bell")  # and 'Attack with which cards?' even when one attack is all there is
    state.apply("Block with 1 Candle")
    assert state.round == 2
    assert state.decision.player == 1 and state.decision.prompt == "Your turn"


def test_mirror_blocker_with_last_card_starts_next_round_after_reflection() -> None:
    """Round end: a defender who reflects with their last Mirror had cards after the attacker, who then takes the reflected attack."""
    _, state = new_game(2, seed=0)
    state.arrange({"hand/0": ["mirror"], "hand/1": ["mirror"], "hex/0": [], "hex/1": []}, rest="discard")
    state.apply("Attack")
    state.apply("1 Mirror")  # Player 0 attacks with its last card
    state.apply("Block with 1 Mirror")  # Player 1 reflects with its last card
    # the attack comes back to Player 0, who has no card to block with
    assert state.decision.player == 0 and state.decision.prompt == "Block the attack?"
    state.apply("Take the cards")
    assert state.round == 2
    assert state.decision.player == 1 and state.decision.prompt == "Your turn"


def test_book_victim_who_empties_last_starts_next_round() -> None:
    """Round end: a player whose last card a Book steals had cards after the Book player emptied their hand."""
    _, state = new_game(3)
    layout(state, hands={0: ["book"], 1: ["bell"], 2: []})
    state.apply("Play Book")
    # the Book player now holds the Bell: it is the only one with cards and puts it into its Hex pile
    assert state.round == 2
    assert state.decision.player == 0


def test_next_round_redeals_all_cards() -> None:
    """After scoring all cards are gathered, shuffled and dealt again with the same hand size."""
    _, state = new_game(5)
    end_round(state, hexes={1: n(bell=2)})
    assert state.round == 2
    assert hand_sizes(state) == [10] * 5
    assert len(state.zones["discard"]) == 6
    assert all(state.zones[f"hex/{p}"] == [] for p in range(5))
    assert state.zones["deck"] == []


def test_hex_piles_hidden_again_after_an_empty_reveal() -> None:
    """A Hex pile that was empty at scoring is hidden again in the next round."""
    _, state = new_game(3)
    end_round(state, hexes={0: ["bell"]})  # Hex piles 1 and 2 are revealed empty
    assert state.round == 2
    p = state.decision.player
    layout(state, hands={p: n(mirror=2, bell=1), (p + 1) % 3: n(bell=3), (p + 2) % 3: n(bell=3)})
    target = (p + 1) % 3
    state.apply(f"Player {target}")
    state.apply("2 Mirror")
    take_forced(state, target)
    assert hex_pile(state, target) == n(mirror=2)
    for viewer in range(3):
        entry = state.view(viewer)["zones"][f"hex/{target}"]
        assert entry["count"] == 2
        assert "cards" not in entry


def test_hex_pile_revealed_empty_stays_hidden_while_still_empty() -> None:
    """Hiding: a Hex pile revealed empty at scoring is hidden again at the next deal, before any card goes in."""
    _, state = new_game(3)
    end_round(state, hexes={0: ["bell"]})  # Hex piles 1 and 2 are revealed empty
    assert state.round == 2
    for viewer in range(3):
        for p in range(3):
            assert "cards" not in state.view(viewer)["zones"][f"hex/{p}"]


# --------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("card", sorted(REFERENCE))
def test_scoring_ladders_last_value_holds(card: str) -> None:
    """A type scores its ladder value for the number of copies; the last value holds for larger counts."""
    copies, ladder = REFERENCE[card]
    for count in range(1, copies + 1):
        _, state = new_game(3)
        end_round(state)  # score in round 2: round 1 floors a negative score at 0
        scores = play_round_with_hexes(state, {0: [card] * count})
        assert scores[0] == ladder[min(count, len(ladder)) - 1], (card, count)


def test_scoring_ladder_beyond_its_length() -> None:
    """Counts past the end of a ladder score its last value (7 and 8 Bells, Candles, Toadstools)."""
    _, state = new_game(3)
    scores = play_round_with_hexes(state, {0: n(bell=7), 1: n(toadstool=8), 2: n(candle=7)})
    assert scores == [9, 10, 9]


def test_scoring_rulebook_example() -> None:
    """Scoring example: four Bells, one Candle, one Book and two Mirrors score 5 + 1 + 0 + 2 = 8."""
    _, state = new_game(3)
    scores = play_round_with_hexes(state, {0: n(bell=4, candle=1, book=1, mirror=2)})
    assert scores[0] == 8
    assert state.counters["total"][0] == 8


def test_scoring_each_type_scores_once_and_adds_up() -> None:
    """Each type scores once for its count; the types' points are summed."""
    _, state = new_game(3)
    scores = play_round_with_hexes(state, {1: n(toadstool=3, familiar=2, skull=1, chalice=2, hourglass=2, cauldron=1)})
    assert scores[1] == 4 + 2 + 0 + 2 + 2 + 1


def test_lone_chalice_scores_minus_three() -> None:
    """A lone Chalice in a Hex pile scores -3 for the round (two Chalices score 2); seen in round 2, as round 1 floors at 0."""
    _, state = new_game(3)
    end_round(state)
    end_round(state, hexes={0: ["chalice"], 1: n(chalice=2), 2: n(chalice=1, bell=2)})
    assert state.round_log[1]["round_score"] == [-3, 2, 0]


def test_negative_first_round_counts_zero() -> None:
    """Scoring: "If your score for the first round is negative, you score zero points" (total and recorded round score)."""
    _, state = new_game(3)
    end_round(state, hexes={0: ["chalice"]})
    assert state.round_log[0]["round_score"][0] == 0
    assert state.counters["total"] == [0, 0, 0]


def test_negative_first_round_recorded_as_zero_in_result() -> None:
    """Scoring: a negative first round shows as 0 in round_score and result()['round_scores']."""
    _, state = new_game(3, seed=0)
    state.arrange({"hand/0": ["bell"], "hand/1": ["bell"], "hand/2": [],
                   "hex/0": ["chalice"], "hex/1": [], "hex/2": []}, rest="discard")
    state.apply("Attack")  # 'Your turn' is asked even when attacking is all there is
    state.apply("1 Bell")  # and 'Attack with which cards?' even when one attack is all there is
    state.apply("Take the cards")
    assert state.counters["round_score"][0] == 0
    assert state.result()["round_scores"][0][0] == 0


def test_negative_later_round_is_subtracted() -> None:
    """A negative score in a later round is subtracted from the total."""
    _, state = new_game(3)
    end_round(state, hexes={0: n(bell=4)})
    assert state.counters["total"] == [5, 0, 0]
    end_round(state, hexes={0: ["chalice"]})
    assert state.round_log[1]["round_score"][0] == -3
    assert state.counters["total"] == [2, 0, 0]


def test_total_never_below_zero() -> None:
    """A total never goes below zero."""
    _, state = new_game(3)
    end_round(state, hexes={0: n(bell=1)})
    assert state.counters["total"][0] == 1
    end_round(state, hexes={0: ["chalice"]})
    assert state.counters["total"][0] == 0


def test_round_scores_public_and_recorded_per_round() -> None:
    """Round scores are public information and recorded per round in the result."""
    _, state = new_game(3)
    end_round(state, hexes={0: n(bell=2), 1: n(mirror=1), 2: []})
    end_round(state, hexes={0: [], 1: n(candle=3), 2: n(skull=2)})
    for p in range(3):
        assert state.view(p)["counters"]["total"] == [3, 4, 3]
        assert state.view(p)["counters"]["round_score"] == [0, 3, 3]
    assert state.result()["round_scores"] == [[3, 1, 0], [0, 3, 3]]


# --------------------------------------------------------------------------- end of the game


def test_game_lasts_three_rounds_and_lowest_total_wins() -> None:
    """After three rounds the player with the lowest total wins; returns are 1.0 for the winner, 0.0 otherwise."""
    _, state = new_game(3)
    end_round(state, hexes={0: n(bell=2), 1: n(bell=1), 2: n(toadstool=1)})  # totals 3, 1, 2
    end_round(state, hexes={0: n(bell=1), 1: n(bell=1), 2: n(bell=1)})  # totals 4, 2, 3
    assert not state.is_terminal()
    end_round(state, hexes={0: [], 1: n(candle=1), 2: []})  # totals 4, 3, 3: Players 1 and 2 tie for lowest
    assert not state.is_terminal()
    assert state.round == 4
    end_round(state, hexes={0: [], 1: n(bell=1), 2: []})  # totals 4, 4, 3: Player 2 alone lowest
    assert state.is_terminal()
    assert state.result()["winners"] == [2]
    assert state.result()["totals"] == [4, 4, 3]
    assert state.result()["rounds"] == 4
    assert state.returns() == [0.0, 0.0, 1.0]
    assert state.legal_actions() == []
    assert state.decision is None


def test_three_rounds_with_a_clear_winner() -> None:
    """With a single lowest total after round three the game ends there."""
    _, state = new_game(4)
    for _ in range(3):
        end_round(state, hexes={0: n(bell=1), 1: n(bell=2), 2: [], 3: n(mirror=1)})
    assert state.is_terminal()
    assert state.result()["rounds"] == 3
    assert state.result()["totals"] == [3, 9, 0, 3]
    assert state.result()["winners"] == [2]
    assert state.returns() == [0.0, 0.0, 1.0, 0.0]


def test_tie_for_lowest_plays_extra_rounds_and_non_tied_player_may_win() -> None:
    """While two or more players tie for the lowest total, extra rounds are played; a previously non-tied player may win."""
    _, state = new_game(3)
    end_round(state, hexes={}, counters={"total": [5, 5, 6]})
    end_round(state, hexes={})
    end_round(state, hexes={})
    assert state.round == 4 and not state.is_terminal()
    end_round(state, hexes={0: n(bell=2), 1: n(bell=2)})  # 8, 8, 6
    assert state.is_terminal()
    assert state.result()["winners"] == [2]
    assert state.result()["rounds"] == 4
    assert state.returns() == [0.0, 0.0, 1.0]


def test_extra_rounds_continue_while_still_tied() -> None:
    """A tie that persists after an extra round forces yet another round."""
    _, state = new_game(2)
    for _ in range(3):
        end_round(state, hexes={})
    assert state.round == 4
    end_round(state, hexes={0: n(bell=1), 1: n(candle=1)})
    assert state.round == 5 and not state.is_terminal()
    end_round(state, hexes={0: n(bell=1)})
    assert state.is_terminal()
    assert state.result()["winners"] == [1]
    assert state.returns() == [0.0, 1.0]


def test_tie_not_for_lowest_does_not_extend_the_game() -> None:
    """Only a tie for the lowest total extends the game; a tie among higher totals does not."""
    _, state = new_game(3)
    end_round(state, hexes={0: n(bell=2), 1: n(bell=2)})
    end_round(state, hexes={})
    end_round(state, hexes={})
    assert state.is_terminal()
    assert state.result()["rounds"] == 3
    assert state.result()["winners"] == [2]


# --------------------------------------------------------------------------- information


def test_hex_piles_hidden_from_everyone_including_owner() -> None:
    """A Hex pile's cards are hidden from every player, its owner included, during the round (only its size shows)."""
    _, state = new_game(3)
    layout(state, hands={0: n(mirror=2, bell=1), 1: n(bell=3), 2: n(bell=1)}, hexes={1: ["chalice"]})
    state.apply("Player 1")
    state.apply("2 Mirror")
    take_forced(state, 1)
    for viewer in range(3):
        for p in range(3):
            entry = state.view(viewer)["zones"][f"hex/{p}"]
            assert "cards" not in entry and "face_up" not in entry
        assert state.view(viewer)["zones"]["hex/1"]["count"] == 3


def test_hex_piles_revealed_at_scoring() -> None:
    """At scoring every Hex pile is revealed to all players (public reveal events; visible in the final view)."""
    _, state = new_game(3)
    end_round(state, hexes={0: n(bell=2), 1: ["chalice"], 2: n(mirror=1, candle=1)})
    for viewer in range(3):
        shown = {e["zone"]: sorted(e["revealed"]) for e in events(state, "reveal", viewer)}
        assert shown == {"hex/0": n(bell=2), "hex/1": ["chalice"], "hex/2": n(mirror=1, candle=1)}
    end_round(state, hexes={0: ["skull"]})
    end_round(state, hexes={1: n(familiar=2), 2: n(book=1, bell=1)})  # totals 3, 2, 3
    assert state.is_terminal()
    for viewer in range(3):
        zones = state.view(viewer)["zones"]
        assert sorted(zones["hex/1"]["cards"]) == n(familiar=2)
        assert sorted(zones["hex/2"]["cards"]) == n(book=1, bell=1)


def test_hands_private_in_views() -> None:
    """A hand is seen by its owner only; the others see its size."""
    _, state = new_game(3)
    for viewer in range(3):
        zones = state.view(viewer)["zones"]
        for p in range(3):
            entry = zones[f"hand/{p}"]
            assert entry["count"] == 13
            if p == viewer:
                assert sorted(entry["cards"]) == hand(state, p)
            else:
                assert "cards" not in entry
        assert "cards" not in zones["discard"]


def test_hands_private_in_events() -> None:
    """The deal events show each hand's cards only to its owner."""
    _, state = new_game(3)
    for viewer in range(3):
        deals = [e for e in state.events(viewer) if e["type"] == "move" and e["to_zone"].startswith("hand/")]
        assert len(deals) == 3
        for e in deals:
            owner = int(e["to_zone"].split("/")[1])
            if owner == viewer:
                assert sorted(e["cards"]) == hand(state, owner)
            else:
                assert "cards" not in e
                for name in ("Bell", "Candle", "Mirror", "Skull", "Toadstool", "Familiar", "Chalice"):
                    assert name not in e["text"]


def test_round_end_hand_to_hex_is_private_until_reveal() -> None:
    """The cards put from the last hand into the Hex pile at round end are not shown to the others before the reveal."""
    _, state = new_game(3)
    # Player 0 must attack Player 2 with its Bell; Player 2 cannot block and is the only one left with cards
    layout(state, hands={0: ["bell"], 1: [], 2: n(bell=2)})
    take_forced(state, 2)
    assert state.round == 2
    assert reveals(state)[0]["hex/2"] == n(bell=3)
    for viewer in (0, 1):
        move = [e for e in state.events(viewer) if e["type"] == "move" and e["from"] == "hand/2"][-1]
        assert move["to_zone"] == "hex/2" and "cards" not in move


def test_attack_cards_are_public() -> None:
    """Attack cards are played faceup: every player sees them in the attack zone and in the events."""
    _, state = new_game(3)
    layout(state, hands={0: n(mirror=2, bell=1), 1: n(candle=2), 2: n(bell=1)})
    state.apply("Player 1")
    state.apply("2 Mirror")
    assert state.decision.player == 1
    for viewer in range(3):
        assert state.view(viewer)["zones"]["attack"]["cards"] == ["mirror", "mirror"]
        assert any("2 Mirror" in e["text"] for e in events(state, "say", viewer))


def test_decision_options_shown_only_to_chooser() -> None:
    """A player's view shows the options of a decision only when it is theirs."""
    _, state = new_game(3)
    assert state.view(0)["decision"]["options"]
    assert "options" not in state.view(1)["decision"]
    assert "options" not in state.view(2)["decision"]


def test_pending_defence_does_not_reveal_a_familiar_in_hand() -> None:
    """Another player's view of a pending defence is the same whether the Defender holds a Familiar,
    can only block otherwise, or cannot block at all."""
    seen = []
    for defender_hand in (n(familiar=1, candle=2), n(mirror=1, candle=2), n(bell=3)):
        _, state = new_game(3)
        layout(state, hands={0: n(bell=2), 1: defender_hand, 2: n(bell=2)})
        state.apply("Player 1")
        state.apply("1 Bell")
        assert state.decision.player == 1 and state.decision.prompt == BLOCK
        assert_defence_looks_the_same_to_others(state)
        seen.append((state.view(2)["decision"], state.view(0)["decision"]))
    assert seen[0] == seen[1] == seen[2] == ({"player": 1}, {"player": 1})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_the_rules_invariants(players: int) -> None:
    """Random play: Hex piles stay hidden until scoring, totals stay >= 0, at least three rounds, one lowest winner."""
    import random

    game, _ = new_game(players)
    for seed in range(3):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for viewer in range(players):
                zones = state.view(viewer)["zones"]
                for p in range(players):
                    assert "cards" not in zones[f"hex/{p}"], (seed, state.round, viewer, p)
                    assert ("cards" in zones[f"hand/{p}"]) == (p == viewer)
            if state.zones["attack"]:
                # every pending defence is the one "Block the attack?" decision, hidden from the others
                assert_defence_looks_the_same_to_others(state)
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        assert result["rounds"] >= 3
        assert len(result["round_scores"]) == result["rounds"]
        assert all(t >= 0 for t in result["totals"])
        expected = [0] * players
        for r, scores in enumerate(result["round_scores"]):
            for p in range(players):
                expected[p] = max(expected[p] + (max(scores[p], 0) if r == 0 else scores[p]), 0)
        assert result["totals"] == expected
        low = min(result["totals"])
        assert result["winners"] == [p for p, t in enumerate(result["totals"]) if t == low]
        assert len(result["winners"]) == 1
        assert sorted(state.returns()) == [0.0] * (players - 1) + [1.0]
        assert sum(len(cards) for cards in state.zones.values()) == len(game.rules.instance_type)
