"""Witty Witches: one or more tests per rule of the rulebook (shared/rules/witty-witches.txt).

Scenarios are laid out with ``State.arrange`` (through ``ww_helpers.layout``) and driven by the
option labels a player sees.  The points the rulebook leaves open are pinned as the cardset
decides them; docs/witty-witches.md lists those decisions.

Reference cards used again and again (features: character, object, colour):

- ``witch_broom_blue`` (WBB) is a doppelganger type (two copies), the usual top card;
- it matches (exactly two shared features) ``witch_broom_yellow``, ``witch_spellbook_blue``,
  ``dragon_broom_blue`` and the star cards ``witch_broom_red``, ``witch_cauldron_blue``,
  ``wizard_broom_blue``;
- ``dragon_spellbook_yellow`` and ``wizard_cauldron_red`` share no feature with it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulecore
from ww_helpers import (
    discard,
    not_now_if_only,
    answer_only,
    keep,
    ABRACADABRA,
    BLESSINGS,
    BONUS,
    CARDSET,
    CAST,
    CAST_OFFER,
    CCW,
    CHARACTER_TYPES,
    CURSES,
    CW,
    DRAW,
    DRAWN,
    EXTRA,
    KEEP,
    NEITHER,
    NO_CAST,
    NOT_NOW,
    PLACE,
    SPEAK,
    SPELL_TYPES,
    TO_SPELL_DISCARD,
    TOO,
    TORNADO,
    TURN,
    WHICH_SPELL,
    WITCH,
    card,
    check_cards_conserved,
    discard_label,
    events,
    feature_number_sum,
    hand,
    hand_sizes,
    layout,
    name,
    new_game,
    non_matching,
    on,
    options,
    shared,
    spells,
    top,
    twin_label,
    zone,
)

WBB = "witch_broom_blue"
MATCH = "witch_broom_yellow"  # shares witch + broom with WBB, no star, one copy
MATCH2 = "dragon_broom_blue"  # shares broom + blue with WBB
MATCH3 = "witch_spellbook_blue"  # shares witch + blue with WBB
STAR = "wizard_broom_blue"  # a star card sharing broom + blue with WBB
DSY = "dragon_spellbook_yellow"  # shares nothing with WBB (a doppelganger type)
WCR = "wizard_cauldron_red"  # shares nothing with WBB (a doppelganger type)
# hands for seats that take no part in a test (they only must not be empty)
FILLS = {
    1: ["dragon_spellbook_red", "wizard_cauldron_yellow"],
    2: ["wizard_spellbook_yellow", "dragon_cauldron_blue"],
    3: ["witch_cauldron_red", "wizard_cauldron_blue"],
    4: ["dragon_broom_yellow", "wizard_spellbook_blue"],
}


def others(players: int) -> dict[int, list[str]]:
    """Filler hands for seats 1..players-1."""
    return {p: list(FILLS[p]) for p in range(1, players)}


# =========================================================================== the cards


def test_character_deck_is_27_combinations_plus_9_doppelgangers() -> None:
    """Reference deck: 36 character cards, every combination once, those whose feature numbers sum to 1 mod 3 twice."""
    assert len(CHARACTER_TYPES) == 27
    assert sum(CARDSET.cards[t].count for t in CHARACTER_TYPES) == 36
    for t in CHARACTER_TYPES:
        expected = 2 if feature_number_sum(t) % 3 == 1 else 1
        assert CARDSET.cards[t].count == expected, t
        assert t == card(*(CARDSET.cards[t].props[f] for f in ("character", "object", "color")))


def test_two_blue_witches_with_a_broom_are_doppelgangers() -> None:
    """Game Material: "The 2 blue witches with a broom are doppelgangers": two identical copies, no star."""
    assert CARDSET.cards["witch_broom_blue"].count == 2
    assert "star" not in CARDSET.cards["witch_broom_blue"].tags


def test_nine_star_cards_are_the_combinations_summing_to_two_mod_three() -> None:
    """Reference deck: the star border is on exactly the nine combinations whose feature numbers sum to 2 mod 3."""
    stars = [t for t in CHARACTER_TYPES if "star" in CARDSET.cards[t].tags]
    assert len(stars) == 9
    assert all(feature_number_sum(t) % 3 == 2 and CARDSET.cards[t].count == 1 for t in stars)


def test_sixteen_spells_of_four_kinds() -> None:
    """16 spells: a curse and a blessing per character and object, two Abracadabra, two Tornado."""
    counts = {t: CARDSET.cards[t].count for t in SPELL_TYPES}
    assert sum(counts.values()) == 16
    assert counts == {**{t: 1 for t in CURSES + BLESSINGS}, "abracadabra": 2, "tornado": 2}
    for t in CURSES + BLESSINGS:
        props = CARDSET.cards[t].props
        kind, value = t.split("_")
        assert props["kind"] == kind and props["value"] == value
        assert props["feature"] == ("character" if value in ("witch", "wizard", "dragon") else "object")


# =========================================================================== setup


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", ["apprentice", "master"])
def test_setup_six_cards_each_and_first_discard(players: int, mode: str) -> None:
    """Each player gets 6 character cards, one card starts the discard pile, the rest is the draw pile."""
    # table talk on: the first turn waits for a decision, so nothing is played before the checks
    game = rulecore.Game(CARDSET, players=players, options={"mode": mode, "table_talk": True})
    for seed in range(3):
        state = game.new_game(seed)
        assert hand_sizes(state) == [6] * players
        assert len(state.zones["discard"]) == 1
        assert len(state.zones["deck"]) == 36 - 6 * players - 1
        characters = zone(state, "deck") + zone(state, "discard") + [t for p in range(players) for t in hand(state, p)]
        assert Counter(characters) == Counter({t: CARDSET.cards[t].count for t in CHARACTER_TYPES})


@pytest.mark.parametrize("players", [2, 5])
def test_apprentice_sets_the_spells_aside(players: int) -> None:
    """The practice game uses only the character cards: all 16 spells are in the box."""
    game = rulecore.Game(CARDSET, players=players, options={"mode": "apprentice"})
    state = game.new_game(4)
    assert state.zones["spell_deck"] == []
    assert Counter(zone(state, "box")) == Counter({t: CARDSET.cards[t].count for t in SPELL_TYPES})


@pytest.mark.parametrize("players", [2, 5])
def test_master_has_sixteen_spells_in_the_spell_pile(players: int) -> None:
    """The master game puts all 16 spells, shuffled, in their own draw pile."""
    game = rulecore.Game(CARDSET, players=players, options={"mode": "master"})
    state = game.new_game(4)
    assert Counter(zone(state, "spell_deck")) == Counter({t: CARDSET.cards[t].count for t in SPELL_TYPES})
    assert state.zones["box"] == []
    assert zone(state, "spell_deck") != zone(game.new_game(5), "spell_deck")


def test_master_is_the_default_mode_and_table_talk_is_off() -> None:
    """Options: without options the game is the master game, and the spoken-word (table talk) rule is off."""
    game = rulecore.Game(CARDSET, players=3)
    assert game.options == {"mode": "master", "table_talk": False}
    with pytest.raises(rulecore.OptionError):
        rulecore.Game(CARDSET, players=3, options={"mode": "wizard"})
    with pytest.raises(rulecore.OptionError):
        rulecore.Game(CARDSET, players=6)


def test_no_speak_action_by_default() -> None:
    """Options: with default options no turn menu offers "Speak" (table talk is off unless asked for)."""
    game = rulecore.Game(CARDSET, players=3)
    for seed in range(5):
        state = game.new_game(seed)
        for _ in range(20):
            if state.is_terminal():
                break
            assert SPEAK not in state.legal_actions()
            state.apply(state.legal_actions()[0])


def test_seat_zero_takes_the_first_turn() -> None:
    """Seat 0 plays first; turns then pass clockwise (seat + 1)."""
    _, state = new_game(3)
    assert state.decision.player == 0 and state.decision.prompt == TURN and state.turn_player == 0
    layout(state, {0: [MATCH, DSY], 1: [DSY, WCR], 2: [WCR, "dragon_cauldron_yellow"]}, [WBB])
    discard(state, MATCH)
    assert state.turn_player == 1 and state.decision.player == 1


# =========================================================================== the 2-of-3 rule


def test_exactly_two_shared_features_may_be_discarded() -> None:
    """Cards sharing exactly two of the three features with the top card may be discarded (any two)."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, MATCH2, MATCH3, DSY, "witch_cauldron_red"], **others(3)}, [WBB])
    assert state.decision.prompt == TURN
    # witch+broom, broom+blue, witch+blue; not DSY (0 shared) nor the Red Witch with Cauldron (1 shared)
    assert options(state) == {discard_label(MATCH), discard_label(MATCH2), discard_label(MATCH3), SPEAK}
    discard(state, MATCH2)
    assert zone(state, "discard") == [MATCH2, WBB]
    assert hand(state, 0) == sorted([MATCH, MATCH3, DSY, "witch_cauldron_red"])
    assert state.decision.player == 1


def test_one_shared_feature_is_not_enough() -> None:
    """A card sharing only one feature (or none) is not playable: the only turn is to draw."""
    _, state = new_game(3)
    one = ["witch_cauldron_red", "wizard_broom_red", "wizard_cauldron_blue"]  # witch / broom / yellow only
    assert all(shared(t, WBB) == 1 for t in one)
    layout(state, {0: one + [DSY], **others(3)}, [WBB])
    assert options(state) == {DRAW, SPEAK}


def test_three_shared_features_is_a_doppelganger_not_a_regular_match() -> None:
    """An identical card (all three features) is not a regular discard: it is offered as a doppelganger."""
    _, state = new_game(3)
    layout(state, {0: [WBB, DSY], **others(3)}, [WBB])
    assert options(state) == {twin_label(WBB), DRAW, SPEAK}
    assert discard_label(WBB) not in options(state)


def test_only_one_card_per_regular_turn() -> None:
    """A regular turn discards one card; play then passes even if more cards would match."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, MATCH3], **others(3)}, [WBB])
    discard(state, MATCH)
    assert state.decision.player == 1 and hand(state, 0) == [MATCH3]


# =========================================================================== doppelgangers


def test_doppelganger_of_the_top_card_gives_an_optional_extra_turn() -> None:
    """Playing the top card's doppelganger offers an extra turn; taking it gives the same player another turn."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [WBB, MATCH3, DSY], **others(3)}, [WBB])
    state.apply(twin_label(WBB))
    assert zone(state, "discard") == [WBB, WBB]
    assert state.decision.player == 0 and state.decision.prompt == BONUS
    assert options(state) == {EXTRA, NEITHER}  # no witching in the practice game
    state.apply(EXTRA)
    assert state.decision.player == 0 and state.decision.prompt == TURN
    assert state.turn_player == 0 and state.turns == 2
    discard(state, MATCH3)
    assert state.decision.player == 1


def test_extra_turn_is_never_mandatory() -> None:
    """After a doppelganger the player may decline the extra turn; play passes on."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [WBB, MATCH3], **others(3)}, [WBB])
    state.apply(twin_label(WBB))
    state.apply(NEITHER)
    assert state.decision.player == 1 and state.turn_player == 1
    assert hand(state, 0) == [MATCH3]


def test_bonus_is_asked_even_when_extra_turn_is_the_only_bonus() -> None:
    """The bonus is a decision even with nothing to witch: 'Take an extra turn' or 'Neither'."""
    _, state = new_game(3, mode="master", table_talk=False)
    layout(state, {0: [WBB, DSY], **others(3)}, [WBB])
    assert state.decision.prompt == TURN and options(state) == {"Play the doppelganger " + name(WBB), DRAW}
    state.apply("Play the doppelganger " + name(WBB))
    assert zone(state, "discard") == [WBB, WBB]
    assert state.decision.prompt == BONUS and options(state) == {EXTRA, NEITHER}


def test_doppelganger_right_after_your_own_discard() -> None:
    """After a regular discard, its doppelganger in hand may follow at once, with the same bonus."""
    _, state = new_game(3, mode="apprentice")
    top_card = "witch_broom_red"  # shares witch + broom with WBB
    layout(state, {0: [WBB, WBB, DSY], **others(3)}, [top_card])
    assert options(state) == {discard_label(WBB), SPEAK}
    discard(state, WBB)
    assert state.decision.player == 0 and state.decision.prompt == TOO
    assert options(state) == {twin_label(WBB), NOT_NOW}
    state.apply(twin_label(WBB))
    assert zone(state, "discard") == [WBB, WBB, top_card]
    assert state.decision.prompt == BONUS
    state.apply(EXTRA)
    assert state.decision.player == 0 and state.decision.prompt == TURN
    assert hand(state, 0) == [DSY]


def test_doppelganger_question_is_asked_even_without_one() -> None:
    """After a discard that leaves cards, "Play its doppelganger too?" is asked with "Not now" alone when the
    hand holds no doppelganger, so that the others cannot tell whether it does; not after the last card."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [WBB, DSY], **others(3)}, ["witch_broom_red"])
    state.apply(discard_label(WBB))
    assert state.decision.prompt == TOO and state.decision.actions == [NOT_NOW]
    assert state.view(1)["decision"] == {"player": 0}
    state.apply(NOT_NOW)
    assert state.decision.player == 1


def test_doppelganger_after_own_discard_may_be_kept() -> None:
    """The follow-up doppelganger is optional: 'Not now' keeps it and ends the turn."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [WBB, WBB, DSY], **others(3)}, ["witch_broom_red"])
    discard(state, WBB)
    state.apply(NOT_NOW)
    assert hand(state, 0) == sorted([WBB, DSY])
    assert state.decision.player == 1


def test_extra_turn_is_a_full_turn_on_the_new_top_card() -> None:
    """The extra turn is a whole turn played on the doppelganger just discarded."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [WBB, WBB, MATCH, MATCH3], **others(3)}, ["witch_broom_red"])
    discard(state, WBB)
    state.apply(twin_label(WBB))
    state.apply(EXTRA)
    discard(state, MATCH)  # witch_broom_yellow on WBB
    assert state.decision.player == 1
    assert zone(state, "discard")[:3] == [MATCH, WBB, WBB]


# =========================================================================== drawing


def test_cannot_discard_draw_one_card_and_keep_it() -> None:
    """Without a playable card the player draws the top card of the draw pile; one that does not fit is kept."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=["dragon_cauldron_yellow", MATCH])
    state.apply(DRAW)
    keep(state)
    assert hand(state, 0) == sorted([DSY, WCR, "dragon_cauldron_yellow"])
    assert zone(state, "deck") == [MATCH]
    assert state.decision.player == 1  # nothing more to decide: the turn is over


def test_drawn_card_that_fits_may_be_discarded_at_once() -> None:
    """A drawn card that fits may be discarded immediately."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=[MATCH, "dragon_cauldron_yellow"])
    state.apply(DRAW)
    assert state.decision.player == 0 and state.decision.prompt == DRAWN
    assert options(state) == {discard_label(MATCH), KEEP}
    discard(state, MATCH)
    assert zone(state, "discard") == [MATCH, WBB]
    assert hand(state, 0) == sorted([DSY, WCR])
    assert state.decision.player == 1


def test_drawn_card_that_fits_may_be_kept() -> None:
    """The drawn card that fits may also be kept in hand."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=[MATCH, "dragon_cauldron_yellow"])
    state.apply(DRAW)
    state.apply(KEEP)
    assert hand(state, 0) == sorted([DSY, WCR, MATCH])
    assert zone(state, "discard") == [WBB]
    assert state.decision.player == 1


def test_drawn_doppelganger_may_be_played_with_its_bonus() -> None:
    """A drawn doppelganger of the top card may be played, with the extra-turn bonus."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=[WBB])
    state.apply(DRAW)
    assert options(state) == {twin_label(WBB), KEEP}
    state.apply(twin_label(WBB))
    assert state.decision.prompt == BONUS
    state.apply(EXTRA)
    assert state.decision.player == 0 and state.decision.prompt == TURN


def test_drawn_star_card_discarded_casts_in_master() -> None:
    """A drawn star card that is discarded may cast a spell like any star discard."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=[STAR])
    state.apply(DRAW)
    discard(state, STAR)
    assert state.decision.prompt == CAST_OFFER and state.decision.player == 0


@pytest.mark.parametrize(
    "playable",
    [MATCH, "__blessed__"],
    ids=["a-match", "a-blessed-card"],
)
def test_no_drawing_when_you_could_discard(playable: str) -> None:
    """Drawing is only for a player who cannot discard a matching card (a match or a blessed card)."""
    _, state = new_game(3)
    if playable == "__blessed__":
        layout(state, {0: [DSY, WCR], **others(3)}, [WBB], spell={0: "blessing_dragon"})
        assert discard_label(DSY) in options(state)
    else:
        layout(state, {0: [playable, DSY], **others(3)}, [WBB])
    assert DRAW not in options(state)


def test_draw_is_offered_beside_a_doppelganger() -> None:
    """Rule 3: a doppelganger is identical, not matching, and optional: a player whose only fit is one may draw instead."""
    _, state = new_game(3, table_talk=False)
    layout(state, {0: [WBB, DSY], **others(3)}, [WBB], deck=[WCR])
    assert options(state) == {twin_label(WBB), DRAW}
    state.apply(DRAW)
    keep(state)  # the drawn card does not fit: 'Keep it' alone, still asked
    assert hand(state, 0) == sorted([WBB, DSY, WCR])


def test_draw_alone_is_still_asked_without_table_talk() -> None:
    """With table talk off, a player who can only draw is still asked (the others learn nothing from it)."""
    _, state = new_game(3, table_talk=False)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=["dragon_cauldron_yellow", MATCH])
    assert state.view(1)["decision"] == {"player": 0}
    answer_only(state, TURN, DRAW)
    keep(state)
    assert hand(state, 0) == sorted([DSY, WCR, "dragon_cauldron_yellow"])
    assert state.decision.player == 1
    assert state.history == [DRAW, KEEP]


def test_draw_pile_reforms_from_the_discard_pile_keeping_the_top_card() -> None:
    """An empty draw pile is re-formed from the discard pile, shuffled; its top card stays."""
    _, state = new_game(3)
    old = ["dragon_cauldron_yellow", "wizard_spellbook_red", "dragon_cauldron_red"]
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB] + old, deck=[])
    state.apply(DRAW)
    assert zone(state, "discard") == [WBB]
    drawn = [t for t in hand(state, 0) if t not in (DSY, WCR)]
    assert len(drawn) == 1 and drawn[0] in old
    assert sorted(zone(state, "deck") + drawn) == sorted(old)
    assert any(e["zone"] == "deck" for e in events(state, "shuffle"))


def test_nothing_to_draw_ends_the_turn() -> None:
    """With an empty draw pile and only the top card in the discard pile, drawing takes nothing."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=[])
    state.apply(DRAW)
    assert hand(state, 0) == sorted([DSY, WCR])
    assert state.decision.player == 1


# =========================================================================== winning and stuck games


def test_first_player_without_cards_wins() -> None:
    """The first player to discard their last card wins at once: returns 1.0 for them, 0.0 for the others."""
    _, state = new_game(3)
    layout(state, {0: [MATCH], **others(3)}, [WBB])
    discard(state, MATCH)
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0, 0.0]
    assert state.result()["winners"] == [0]
    assert state.legal_actions() == []


def test_last_card_a_doppelganger_wins_without_a_bonus_question() -> None:
    """A doppelganger as the last card wins; no extra turn or witching is asked after the win."""
    _, state = new_game(3)
    layout(state, {0: [WBB], 1: FILLS[1], 2: FILLS[2]}, [WBB], spell={1: "curse_witch"})
    state.apply(twin_label(WBB))
    assert state.is_terminal() and state.returns() == [1.0, 0.0, 0.0]


def test_last_card_a_star_wins_without_a_cast_question() -> None:
    """A star card as the last card wins; no spell is cast after the win."""
    _, state = new_game(3)
    layout(state, {0: [STAR], **others(3)}, [WBB])
    discard(state, STAR)
    assert state.is_terminal() and state.returns() == [1.0, 0.0, 0.0]
    assert len(state.zones["spell_deck"]) == 16


def test_winning_on_another_players_turn_order() -> None:
    """Whoever empties their hand first wins, whatever their seat."""
    _, state = new_game(4)
    layout(state, {0: [DSY, WCR], 1: [MATCH], 2: FILLS[2], 3: FILLS[3]}, [WBB], deck=["dragon_cauldron_yellow"])
    state.apply(DRAW)
    keep(state)
    discard(state, MATCH)
    assert state.returns() == [0.0, 1.0, 0.0, 0.0]


def stuck_table(state, sizes, stalled=0):
    """Nobody can discard (every card shares at most one feature with WBB) and nothing can be drawn."""
    cards = non_matching(WBB, sum(sizes))
    hands, i = {}, 0
    for p, k in enumerate(sizes):
        hands[p] = cards[i : i + k]
        i += k
    layout(state, hands, [WBB], deck=[], vars={"stalled": stalled})


def test_stuck_game_ends_after_a_full_round_fewest_cards_win() -> None:
    """When nobody can discard or draw for a whole round of turns, the fewest cards win."""
    _, state = new_game(3)
    # seat 0 keeps six cards, as before the layout, so its arranged turn counts as a stuck turn too
    stuck_table(state, [6, 3, 4])
    state.apply(DRAW)
    state.apply(DRAW)
    assert not state.is_terminal() and state.decision.player == 2
    state.apply(DRAW)
    assert state.is_terminal()
    assert state.returns() == [0.0, 1.0, 0.0]


def test_stuck_game_tie_shares_the_win() -> None:
    """A stuck game with a tie for the fewest cards: every tied player wins."""
    _, state = new_game(3)
    stuck_table(state, [6, 4, 4])
    for _ in range(3):
        state.apply(DRAW)
    assert state.returns() == [0.0, 1.0, 1.0]


def test_stuck_counter_resets_when_someone_discards() -> None:
    """A discard in the round shows the game is not stuck: the count of stuck turns starts again."""
    _, state = new_game(3)
    cards = non_matching(WBB, 10)
    layout(state, {0: [MATCH] + cards[:5], 1: cards[5:8], 2: cards[8:10]}, [WBB], deck=[], vars={"stalled": 2})
    discard(state, MATCH)
    assert state.view(0)["vars"]["stalled"] == 0
    assert not state.is_terminal()


def test_drawing_from_a_reformed_pile_is_not_stuck() -> None:
    """Drawing from a re-formed draw pile counts as progress, even when the draw pile ends up empty."""
    _, state = new_game(3)
    cards = non_matching(WBB, 12, exclude=["wizard_spellbook_red"])
    layout(
        state,
        {0: cards[:6], 1: cards[6:9], 2: cards[9:12]},
        [WBB, "wizard_spellbook_red"],
        deck=[],
        vars={"stalled": 2},
    )
    state.apply(DRAW)
    keep(state)
    assert len(hand(state, 0)) == 7 and state.zones["deck"] == []
    assert state.vars["stalled"] == 0 and not state.is_terminal()


# =========================================================================== the spoken-word rule


def test_speak_is_offered_once_per_turn_and_free_with_several_cards() -> None:
    """'Speak' may be used once per turn; with more than one card in hand it costs nothing."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, MATCH3, DSY], **others(3)}, [WBB])
    state.apply(SPEAK)
    assert hand(state, 0) == sorted([MATCH, MATCH3, DSY])
    assert state.decision.player == 0 and state.decision.prompt == TURN
    assert options(state) == {discard_label(MATCH), discard_label(MATCH3)}
    assert any(e["text"] == "Player 0 speaks" for e in events(state, "say", 2))


def test_speaking_with_exactly_one_card_draws_two_penalty_cards() -> None:
    """Speaking with exactly one card in hand draws two penalty cards; the turn then goes on."""
    _, state = new_game(3)
    layout(state, {0: [MATCH], **others(3)}, [WBB], deck=[MATCH3, DSY, "dragon_cauldron_yellow"])
    assert options(state) == {discard_label(MATCH), SPEAK}
    state.apply(SPEAK)
    assert hand(state, 0) == sorted([MATCH, MATCH3, DSY])
    assert zone(state, "deck") == ["dragon_cauldron_yellow"]
    assert state.decision.player == 0 and options(state) == {discard_label(MATCH), discard_label(MATCH3)}
    discard(state, MATCH)
    assert state.decision.player == 1 and hand(state, 0) == sorted([MATCH3, DSY])


def test_speaking_penalty_then_the_only_discard_is_played() -> None:
    """After the penalty 'Speak' is used up; if one discard is left it is the only option of the turn."""
    _, state = new_game(3)
    layout(state, {0: [MATCH], **others(3)}, [WBB], deck=[DSY, WCR, "dragon_cauldron_yellow"])
    state.apply(SPEAK)
    answer_only(state, TURN, discard_label(MATCH))
    not_now_if_only(state)
    assert hand(state, 0) == sorted([DSY, WCR])
    assert zone(state, "discard") == [MATCH, WBB]
    assert state.decision.player == 1


def test_speak_penalty_reforms_the_draw_pile() -> None:
    """Penalty cards come from a re-formed draw pile when the draw pile is empty."""
    _, state = new_game(3)
    layout(state, {0: [MATCH], **others(3)}, [WBB, DSY, WCR], deck=[])
    state.apply(SPEAK)
    # two penalty cards from the re-formed pile; 'Speak' is used up, so the one discard left is all there is
    answer_only(state, TURN, discard_label(MATCH))
    not_now_if_only(state)
    assert hand(state, 0) == sorted([DSY, WCR])
    assert zone(state, "discard") == [MATCH, WBB]
    assert state.zones["deck"] == []
    assert state.decision.player == 1


def test_speak_is_offered_again_on_the_next_turn() -> None:
    """The once-per-turn limit is per turn: the next turn offers 'Speak' again."""
    _, state = new_game(2, mode="apprentice")
    layout(state, {0: [WBB, MATCH3, DSY], 1: FILLS[1]}, [WBB])
    state.apply(SPEAK)
    state.apply(twin_label(WBB))
    state.apply(EXTRA)
    assert SPEAK in options(state)


def test_no_speak_without_table_talk() -> None:
    """With table_talk off there is no 'Speak' action and no penalty."""
    _, state = new_game(3, table_talk=False)
    layout(state, {0: [MATCH, MATCH3], **others(3)}, [WBB])
    assert options(state) == {discard_label(MATCH), discard_label(MATCH3)}


# =========================================================================== casting spells


def test_star_card_discard_offers_a_cast_which_may_be_declined() -> None:
    """In the master game, discarding a star card offers to cast; declining draws no spell."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB])
    discard(state, STAR)
    assert state.decision.player == 0 and state.decision.prompt == CAST_OFFER
    assert options(state) == {CAST, NO_CAST}
    state.apply(NO_CAST)
    not_now_if_only(state)
    assert len(state.zones["spell_deck"]) == 16
    assert state.decision.player == 1


def test_non_star_card_does_not_cast() -> None:
    """A card without stars casts nothing."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, DSY], **others(3)}, [WBB])
    discard(state, MATCH)
    assert state.decision.player == 1 and len(state.zones["spell_deck"]) == 16


def test_apprentice_star_cards_have_no_special_meaning() -> None:
    """In the practice game a star card is an ordinary card: no cast is offered."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB])
    discard(state, STAR)
    assert state.decision.player == 1


def test_caster_alone_sees_the_drawn_spell() -> None:
    """The caster takes the top spell and looks at it: only the caster's view and log show it."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], spell_deck=["curse_dragon", "blessing_witch"])
    discard(state, STAR)
    state.apply(CAST)
    assert state.decision.player == 0 and state.decision.prompt == PLACE
    assert state.view(0)["zones"]["casting/0"] == {"count": 1, "cards": ["curse_dragon"]}
    for viewer in (1, 2):
        assert state.view(viewer)["zones"]["casting/0"] == {"count": 1}
        assert "cards" not in state.view(viewer)["zones"]["spell_deck"]
        assert state.view(viewer)["decision"] == {"player": 0}
    drew = [e for e in events(state, "move", None) if e["to_zone"] == "casting/0"]
    assert drew and drew[-1]["cards"] == ["curse_dragon"]
    assert [e for e in events(state, "move", 0) if e["to_zone"] == "casting/0"][-1]["cards"] == ["curse_dragon"]
    for viewer in (1, 2):
        seen = [e for e in events(state, "move", viewer) if e["to_zone"] == "casting/0"][-1]
        assert "cards" not in seen and "Curse" not in seen["text"]


def test_spell_may_be_placed_on_any_player_or_the_spell_discard_pile() -> None:
    """A cast spell goes, open, in front of any player (the caster too) or onto the spell discard pile."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], spell_deck=["curse_dragon", "blessing_witch"])
    discard(state, STAR)
    state.apply(CAST)
    assert options(state) == {on(0), on(1), on(2), TO_SPELL_DISCARD}
    state.apply(on(2))
    not_now_if_only(state)
    assert spells(state, "incoming") == [[], [], ["curse_dragon"]]
    assert state.zones["casting/0"] == []
    assert state.view(1)["zones"]["incoming/2"]["cards"] == ["curse_dragon"]


def test_cast_spell_may_go_straight_to_the_spell_discard_pile() -> None:
    """Casting onto the spell discard pile puts the spell out of play at once."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], spell_deck=["curse_dragon", "blessing_witch"])
    discard(state, STAR)
    state.apply(CAST)
    state.apply(TO_SPELL_DISCARD)
    not_now_if_only(state)
    assert zone(state, "spell_discard") == ["curse_dragon"]
    assert spells(state, "incoming") == [[], [], []] and spells(state) == [[], [], []]


def test_spell_is_valid_only_from_the_holders_next_turn() -> None:
    """A spell placed on a player waits ('incoming') and becomes active at the start of their next turn."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], 1: [DSY, WCR], 2: FILLS[2]}, [WBB], spell_deck=["blessing_dragon"])
    discard(state, STAR)  # the top is now Blue Wizard with Broom
    state.apply(CAST)
    state.apply(on(1))
    not_now_if_only(state)
    # Player 1's turn has begun: the blessing is active now and lets the Yellow Dragon with Spellbook be discarded
    assert state.decision.player == 1
    assert spells(state) == [[], ["blessing_dragon"], []] and spells(state, "incoming") == [[], [], []]
    assert discard_label(DSY) in options(state)


def test_spell_placed_on_yourself_waits_for_your_next_turn() -> None:
    """A spell the caster places on themselves is not active for the rest of that turn."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], 1: [WCR, "dragon_cauldron_yellow"], 2: [WCR, "witch_cauldron_red"]}, [WBB],
           spell_deck=["blessing_dragon"], deck=["dragon_spellbook_red", "witch_cauldron_yellow"])
    discard(state, STAR)
    state.apply(CAST)
    state.apply(on(0))
    not_now_if_only(state)
    assert spells(state, "incoming")[0] == ["blessing_dragon"] and spells(state)[0] == []
    state.apply(DRAW)  # Player 1
    keep(state)
    state.apply(DRAW)  # Player 2
    keep(state)
    assert state.decision.player == 0
    assert spells(state)[0] == ["blessing_dragon"]
    assert discard_label(DSY) in options(state)


def test_curse_placed_during_the_holders_turn_binds_from_their_next_turn() -> None:
    """A curse that arrives during its holder's own turn does not bind for the rest of it, only from the next turn."""
    _, state = new_game(2)
    layout(state, {0: [MATCH2, DSY, "dragon_broom_red"], 1: FILLS[1]}, [WBB], incoming={0: "curse_dragon"},
           deck=["witch_cauldron_yellow"])
    assert discard_label(MATCH2) in options(state)  # Player 0's turn already began: the curse waits
    discard(state, MATCH2)  # the top is now the Blue Dragon with Broom
    state.apply(DRAW)  # Player 1 cannot discard; keeps the Yellow Witch with Cauldron
    keep(state)
    assert state.decision.player == 0 and spells(state)[0] == ["curse_dragon"]
    # the Red Dragon with Broom matches (dragon + broom) but is cursed now
    assert options(state) == {DRAW, SPEAK}


def test_one_spell_per_player_the_old_one_goes_to_the_spell_discard_pile() -> None:
    """A player who receives a new spell loses the old one to the spell discard pile at once."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], spell={1: "curse_witch"}, spell_deck=["blessing_broom"])
    discard(state, STAR)
    state.apply(CAST)
    state.apply(on(1))
    not_now_if_only(state)
    assert zone(state, "spell_discard") == ["curse_witch"]
    assert spells(state)[1] == ["blessing_broom"]  # Player 1's turn has started, so it is active


def test_a_newer_incoming_spell_replaces_a_waiting_one() -> None:
    """Two spells cast on one player before their turn: only the newer stays."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], incoming={2: "curse_witch"}, spell_deck=["blessing_broom"])
    discard(state, STAR)
    state.apply(CAST)
    state.apply(on(2))
    not_now_if_only(state)
    assert spells(state, "incoming")[2] == ["blessing_broom"]
    assert zone(state, "spell_discard") == ["curse_witch"]


# =========================================================================== curses and blessings


def test_curse_forbids_a_character() -> None:
    """A cursed player may not discard a card with the cursed character."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, MATCH2], **others(3)}, [WBB], spell={0: "curse_witch"})
    assert options(state) == {discard_label(MATCH2), SPEAK}


def test_curse_forbids_an_object() -> None:
    """A cursed player may not discard a card with the cursed object."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, MATCH3], **others(3)}, [WBB], spell={0: "curse_broom"})
    assert options(state) == {discard_label(MATCH3), SPEAK}


def test_curse_leaves_only_drawing_and_forbids_the_drawn_card() -> None:
    """A player whose only matches are cursed draws; a drawn card with the cursed feature may not be discarded."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, DSY], **others(3)}, [WBB], spell={0: "curse_witch"}, deck=[MATCH3, WCR])
    assert options(state) == {DRAW, SPEAK}
    state.apply(DRAW)
    keep(state)
    assert hand(state, 0) == sorted([MATCH, DSY, MATCH3])  # kept without a question
    assert state.decision.player == 1


def test_curse_binds_only_its_holder() -> None:
    """A curse in front of one player does not bind the others."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, DSY], **others(3)}, [WBB], spell={1: "curse_witch"})
    assert discard_label(MATCH) in options(state)


def test_curse_does_not_forbid_a_doppelganger_turn() -> None:
    """A doppelganger may be played against a curse on its character or object."""
    _, state = new_game(3)
    layout(state, {0: [WBB, MATCH], **others(3)}, [WBB], spell={0: "curse_witch"})
    assert options(state) == {twin_label(WBB), DRAW, SPEAK}
    state.apply(twin_label(WBB))
    assert state.decision.prompt == BONUS


def test_cursed_drawn_doppelganger_may_still_be_played() -> None:
    """A drawn doppelganger of the top card may be played even though its feature is cursed."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], spell={0: "curse_broom"}, deck=[WBB])
    state.apply(DRAW)
    assert options(state) == {twin_label(WBB), KEEP}


def test_blessing_allows_its_character_whatever_the_top_card() -> None:
    """A blessed player may discard a card with the blessed character even if it shares nothing with the top."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], spell={0: "blessing_dragon"})
    assert options(state) == {discard_label(DSY), SPEAK}
    discard(state, DSY)
    assert top(state) == DSY


def test_blessing_allows_its_object_whatever_the_top_card() -> None:
    """A blessing on an object works the same way."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], spell={0: "blessing_cauldron"})
    assert options(state) == {discard_label(WCR), SPEAK}


def test_blessing_works_for_a_drawn_card() -> None:
    """A drawn card with the blessed feature may be discarded at once."""
    _, state = new_game(3)
    layout(state, {0: [DSY, "dragon_cauldron_yellow"], **others(3)}, [WBB], spell={0: "blessing_wizard"}, deck=[WCR])
    state.apply(DRAW)
    assert options(state) == {discard_label(WCR), KEEP}


def test_blessing_keeps_working_after_use() -> None:
    """A spell stays valid after it has influenced its holder's game."""
    _, state = new_game(2)
    layout(state, {0: [DSY, "dragon_cauldron_blue", WCR], 1: [MATCH, MATCH3, WCR]}, [WBB],
           spell={0: "blessing_dragon"}, deck=["wizard_cauldron_blue"])
    discard(state, DSY)
    state.apply(DRAW)  # Player 1 cannot discard on the Yellow Dragon with Spellbook
    keep(state)
    assert state.decision.player == 0
    assert spells(state)[0] == ["blessing_dragon"]
    # the Blue Dragon with Cauldron shares only 'dragon' with the top: the blessing still works
    assert options(state) == {discard_label("dragon_cauldron_blue"), SPEAK}


def test_blessing_binds_only_its_holder() -> None:
    """A blessing in front of another player does not help the turn player."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], spell={1: "blessing_dragon"})
    assert options(state) == {DRAW, SPEAK}


# =========================================================================== Abracadabra


def test_abracadabra_plays_the_whole_hand_when_it_chains() -> None:
    """With Abracadabra active, a hand that chains by the 2-of-3 rule is played at once, and wins."""
    _, state = new_game(3)
    chain = ["witch_broom_red", "witch_broom_yellow", "wizard_broom_yellow"]  # WBB -> WBb -> WBr -> ZBr
    layout(state, {0: list(reversed(chain)), **others(3)}, [WBB], spell={0: "abracadabra"})
    assert ABRACADABRA in options(state)
    state.apply(ABRACADABRA)
    assert hand(state, 0) == []
    pile = zone(state, "discard")
    assert pile[:3] == list(reversed(chain)) and pile[3] == WBB  # played in chain order
    assert state.is_terminal() and state.returns() == [1.0, 0.0, 0.0]


def test_abracadabra_without_a_chain_is_a_normal_turn() -> None:
    """If the whole hand does not chain, the Abracadabra holder plays a regular turn."""
    _, state = new_game(3)
    layout(state, {0: [MATCH, DSY], **others(3)}, [WBB], spell={0: "abracadabra"})
    assert options(state) == {discard_label(MATCH), SPEAK}


def test_abracadabra_chain_needs_exactly_two_shared_features_between_neighbours() -> None:
    """Two identical cards (three shared features) do not link in an Abracadabra chain."""
    _, state = new_game(3)
    # Yellow Witch with Broom -> Blue Witch with Broom (2 shared) -> Blue Witch with Broom (3 shared): no chain
    layout(state, {0: [WBB, WBB], **others(3)}, ["witch_broom_yellow"], spell={0: "abracadabra"})
    assert ABRACADABRA not in options(state)
    assert options(state) == {discard_label(WBB), SPEAK}
    # with a Red Witch with Broom between the twins the hand chains: WBy -> WBB -> WBr -> WBB
    _, state = new_game(3)
    layout(state, {0: [WBB, WBB, "witch_broom_red"], **others(3)}, ["witch_broom_yellow"], spell={0: "abracadabra"})
    assert ABRACADABRA in options(state)
    state.apply(ABRACADABRA)
    assert zone(state, "discard") == [WBB, "witch_broom_red", WBB, "witch_broom_yellow"]
    assert state.returns() == [1.0, 0.0, 0.0]


def test_abracadabra_is_valid_only_from_the_next_turn() -> None:
    """An incoming Abracadabra cannot be used in the turn it arrives; it works from the holder's next turn."""
    _, state = new_game(2)
    # after the Blue Wizard with Broom (STAR): Red Wizard with Broom -> Yellow Wizard with Broom chains
    chain = ["wizard_broom_red", "wizard_broom_yellow"]
    layout(state, {0: [STAR] + chain, 1: [DSY, WCR]}, [WBB], spell_deck=["abracadabra"], deck=["dragon_cauldron_yellow"])
    discard(state, STAR)
    state.apply(CAST)
    state.apply(on(0))
    not_now_if_only(state)
    assert spells(state, "incoming")[0] == ["abracadabra"] and spells(state)[0] == []
    state.apply(DRAW)  # seat 1 cannot discard on the Blue Wizard with Broom; keeps the Yellow Dragon with Cauldron
    keep(state)
    assert state.decision.player == 0 and spells(state)[0] == ["abracadabra"]
    assert ABRACADABRA in options(state)
    state.apply(ABRACADABRA)
    assert state.returns() == [1.0, 0.0]


def test_abracadabra_needs_more_than_one_card() -> None:
    """With a single card in hand Abracadabra offers nothing special: a normal discard."""
    _, state = new_game(3)
    layout(state, {0: [MATCH], **others(3)}, [WBB], spell={0: "abracadabra"})
    assert options(state) == {discard_label(MATCH), SPEAK}


class WorkBudgetExceeded(Exception):
    """Raised by the counting wrapper below when a check does far more work than it needs."""


def test_abracadabra_check_of_a_big_hand_that_cannot_chain_is_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding that a 21-card hand cannot chain (one card shares two features with no other) takes little work."""
    _, state = new_game(2)
    lonely = "dragon_spellbook_red"
    rest = [t for t in CHARACTER_TYPES if shared(t, lonely) != 2 and t != lonely]
    assert len(rest) == 20
    calls = 0
    card_prop = state.rules.card_prop

    def counting(card: int, prop: str):
        nonlocal calls
        calls += 1
        if calls > 2_000_000:
            raise WorkBudgetExceeded(calls)
        return card_prop(card, prop)

    monkeypatch.setattr(state.rules, "card_prop", counting)
    layout(state, {0: rest + [lonely], 1: ["wizard_broom_yellow"]}, [WBB], spell={0: "abracadabra"})
    assert ABRACADABRA not in options(state)


# =========================================================================== Tornado


def tornado_table(state, direction: str):
    """Four players: active spells on seats 0 and 1, a waiting one on seat 2, nothing on seat 3;
    seat 0 discards a star card and casts a Tornado in ``direction``."""
    layout(
        state,
        {0: [STAR, DSY], 1: [MATCH2, "wizard_broom_yellow"], 2: FILLS[2], 3: FILLS[3]},
        [WBB],
        spell={0: "curse_dragon", 1: "blessing_wizard"},
        incoming={2: "abracadabra"},
        spell_deck=["tornado", "blessing_witch"],
    )
    discard(state, STAR)
    state.apply(CAST)
    assert state.decision.prompt == TORNADO and options(state) == {CW, CCW}
    assert state.view(0)["zones"]["casting/0"]["cards"] == ["tornado"]
    state.apply(direction)
    not_now_if_only(state)


def test_tornado_passes_every_spell_clockwise_at_once() -> None:
    """Tornado: all spells move one seat in the chosen direction at once (empty seats pass nothing); active stay active."""
    _, state = new_game(4)
    tornado_table(state, CW)
    # seat 1's turn has begun (its incoming is empty, so nothing changes there)
    assert spells(state) == [[], ["curse_dragon"], ["blessing_wizard"], []]
    assert spells(state, "incoming") == [[], [], [], ["abracadabra"]]
    assert zone(state, "spell_discard") == ["tornado"]
    assert state.zones["casting/0"] == []
    assert state.decision.player == 1


def test_tornado_passes_every_spell_counterclockwise() -> None:
    """The caster may choose counterclockwise instead."""
    _, state = new_game(4)
    tornado_table(state, CCW)
    # the Abracadabra waiting on seat 2 now waits on seat 1, whose turn starts at once: it becomes active
    assert spells(state) == [["blessing_wizard"], ["abracadabra"], [], ["curse_dragon"]]
    assert spells(state, "incoming") == [[], [], [], []]
    assert zone(state, "spell_discard") == ["tornado"]


def test_tornado_moved_curse_binds_its_new_holder_at_once() -> None:
    """A spell moved by Tornado stays active: the new holder is bound on their very next turn."""
    _, state = new_game(4)
    tornado_table(state, CW)
    # on the Blue Wizard with Broom both cards of seat 1 match; the curse that came from seat 0 forbids the dragon
    assert state.decision.player == 1
    assert options(state) == {discard_label("wizard_broom_yellow"), SPEAK}


def test_tornado_with_no_spells_in_play_only_goes_to_the_discard_pile() -> None:
    """A Tornado with no spells in front of anyone changes nothing but itself."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], spell_deck=["tornado"])
    discard(state, STAR)
    state.apply(CAST)
    state.apply(CW)
    not_now_if_only(state)
    assert zone(state, "spell_discard") == ["tornado"]
    assert spells(state) == [[], [], []] and spells(state, "incoming") == [[], [], []]


def test_tornado_is_announced_in_the_log() -> None:
    """Everyone's log tells that the spells passed and which way."""
    _, state = new_game(4)
    tornado_table(state, CCW)
    for viewer in range(4):
        rotated = events(state, "rotate", viewer)
        assert {e["zone"] for e in rotated} == {"spell", "incoming"}
        assert all(e["step"] == -1 for e in rotated)


# =========================================================================== witching


def test_witching_is_offered_instead_of_the_extra_turn() -> None:
    """After a doppelganger in the master game the player may witch instead of taking the extra turn."""
    _, state = new_game(3)
    layout(state, {0: [WBB, DSY], 1: FILLS[1], 2: FILLS[2]}, [WBB], spell={1: "blessing_dragon"})
    state.apply(twin_label(WBB))
    assert options(state) == {EXTRA, WITCH, NEITHER}
    state.apply(WITCH)
    # one spell in play: it is chosen without asking; it may go to anyone but its holder
    assert state.decision.prompt == PLACE
    assert options(state) == {on(0), on(2), TO_SPELL_DISCARD}
    state.apply(on(0))
    not_now_if_only(state)
    assert spells(state) == [[], [], []]
    assert spells(state, "incoming") == [["blessing_dragon"], [], []]
    assert state.decision.player == 1  # no extra turn as well


def test_no_witching_without_spells_in_play() -> None:
    """With no spell in front of anybody, the bonus is only the extra turn (or neither)."""
    _, state = new_game(3)
    layout(state, {0: [WBB, DSY], **others(3)}, [WBB])
    state.apply(twin_label(WBB))
    assert options(state) == {EXTRA, NEITHER}


def test_witching_chooses_among_all_spells_in_play() -> None:
    """Witching may take any spell in front of a player, active or still waiting."""
    _, state = new_game(3)
    layout(state, {0: [WBB, DSY], 1: FILLS[1], 2: FILLS[2]}, [WBB], spell={0: "curse_witch", 1: "blessing_dragon"},
           incoming={2: "abracadabra"})
    state.apply(twin_label(WBB))
    state.apply(WITCH)
    assert state.decision.prompt == WHICH_SPELL
    assert options(state) == {name("curse_witch"), name("blessing_dragon"), name("abracadabra")}


def test_witching_tells_identical_spells_apart_by_where_they_lie() -> None:
    """Two Abracadabras in play are two choices, labelled with the zone each lies in."""
    _, state = new_game(3)
    layout(state, {0: [WBB, DSY], 1: FILLS[1], 2: FILLS[2]}, [WBB], spell={1: "abracadabra"},
           incoming={2: "abracadabra"})
    state.apply(twin_label(WBB))
    state.apply(WITCH)
    assert options(state) == {"Abracadabra (Player 1's spell)", "Abracadabra (Player 2's incoming)"}
    state.apply("Abracadabra (Player 2's incoming)")
    assert options(state) == {on(0), on(1), TO_SPELL_DISCARD}
    state.apply(TO_SPELL_DISCARD)
    not_now_if_only(state)
    assert spells(state) == [[], ["abracadabra"], []] and spells(state, "incoming") == [[], [], []]


def test_witching_your_own_curse_onto_someone_else() -> None:
    """Witching moves your own curse onto another player; their old spell goes to the spell discard pile."""
    _, state = new_game(3)
    layout(state, {0: [WBB, DSY], 1: FILLS[1], 2: FILLS[2]}, [WBB], spell={0: "curse_witch", 2: "blessing_broom"})
    state.apply(twin_label(WBB))
    state.apply(WITCH)
    state.apply(name("curse_witch"))
    assert options(state) == {on(1), on(2), TO_SPELL_DISCARD}
    state.apply(on(2))
    not_now_if_only(state)
    assert spells(state) == [[], [], []]
    assert spells(state, "incoming") == [[], [], ["curse_witch"]]
    assert zone(state, "spell_discard") == ["blessing_broom"]


def test_witching_to_the_spell_discard_pile() -> None:
    """Witching may also put the spell on the spell discard pile."""
    _, state = new_game(3)
    layout(state, {0: [WBB, DSY], 1: FILLS[1], 2: FILLS[2]}, [WBB], spell={0: "curse_witch"})
    state.apply(twin_label(WBB))
    state.apply(WITCH)
    state.apply(TO_SPELL_DISCARD)
    not_now_if_only(state)
    assert zone(state, "spell_discard") == ["curse_witch"]
    assert spells(state) == [[], [], []]


def test_witched_blessing_works_for_its_new_holder_from_their_next_turn() -> None:
    """A blessing witched onto a player is theirs from their next turn (and no longer helps the old holder)."""
    _, state = new_game(3)
    layout(
        state,
        {0: [WBB, DSY, "dragon_cauldron_blue"], 1: [DSY, WCR], 2: [WCR, "wizard_spellbook_yellow"]},
        [WBB],
        spell={1: "blessing_dragon"},
        deck=["dragon_cauldron_yellow", "wizard_spellbook_red"],
    )
    state.apply(twin_label(WBB))
    state.apply(WITCH)
    state.apply(on(0))
    not_now_if_only(state)
    # Player 1 lost the blessing: only drawing is left
    assert state.decision.player == 1 and options(state) == {DRAW, SPEAK}
    state.apply(DRAW)  # keeps the Yellow Dragon with Cauldron
    keep(state)
    state.apply(DRAW)  # Player 2 keeps the Red Wizard with Spellbook
    keep(state)
    assert state.decision.player == 0
    assert spells(state)[0] == ["blessing_dragon"]
    assert options(state) == {discard_label(DSY), discard_label("dragon_cauldron_blue"), SPEAK}


def test_witching_is_not_offered_in_the_practice_game() -> None:
    """The apprentice game has no spells and no witching."""
    _, state = new_game(3, mode="apprentice")
    layout(state, {0: [WBB, DSY], **others(3)}, [WBB])
    state.apply(twin_label(WBB))
    assert WITCH not in options(state)


# =========================================================================== the important notes


def star_first_discard_game(players: int, mode: str = "master") -> rulecore.State:
    # table talk on: "Speak" keeps seat 0's first turn a decision, so the test sees it start
    game = rulecore.Game(CARDSET, players=players, options={"mode": mode, "table_talk": True})
    for seed in range(200):
        state = game.new_game(seed)
        if "star" in CARDSET.cards[top(state)].tags:
            return state
    raise AssertionError("no seed with a star card as the first discard")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_star_card_as_first_discard_lets_the_dealer_cast_before_the_first_turn(players: int) -> None:
    """A star card as the first discard: the dealer (seat P-1) may cast before seat 0's first turn."""
    state = star_first_discard_game(players)
    assert state.decision.player == players - 1 and state.decision.prompt == CAST_OFFER
    assert state.turn_player is None and state.turns == 0
    state.arrange({"spell_deck": ["curse_witch", "tornado"]}, rest="box")
    state.apply(CAST)
    assert state.decision.player == players - 1 and state.decision.prompt == PLACE
    state.apply(on(0))
    not_now_if_only(state)
    # seat 0's first turn: the curse is already valid for it
    assert state.turn_player == 0 and state.decision.player == 0
    assert spells(state)[0] == ["curse_witch"]


def test_dealer_may_decline_the_first_cast() -> None:
    """The dealer's cast is optional too."""
    state = star_first_discard_game(3)
    state.apply(NO_CAST)
    not_now_if_only(state)
    assert state.turn_player == 0 and len(state.zones["spell_deck"]) == 16


def test_no_dealer_cast_in_the_practice_game() -> None:
    """In the practice game a star card as the first discard means nothing."""
    state = star_first_discard_game(3, mode="apprentice")
    assert state.turn_player == 0 and state.decision.player == 0 and state.decision.prompt == TURN


def test_spell_pile_reforms_without_curses() -> None:
    """An empty spell pile is re-formed from the spell discard pile; the curses leave the game (box)."""
    _, state = new_game(3)
    discarded = ["curse_witch", "blessing_broom", "curse_dragon", "tornado", "abracadabra"]
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], spell_deck=[], spell_discard=discarded)
    discard(state, STAR)
    assert state.decision.prompt == CAST_OFFER
    assert sorted(zone(state, "spell_deck")) == sorted(["blessing_broom", "tornado", "abracadabra"])
    assert state.zones["spell_discard"] == []
    assert {"curse_witch", "curse_dragon"} <= set(zone(state, "box"))
    assert any(e["zone"] == "spell_deck" for e in events(state, "shuffle"))


def test_no_cast_when_no_spell_is_left() -> None:
    """With the spell pile empty and only curses discarded, nothing can be cast: no offer."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], **others(3)}, [WBB], spell_deck=[], spell_discard=["curse_witch"])
    discard(state, STAR)
    assert state.decision.player == 1
    assert "curse_witch" in zone(state, "box") and state.zones["spell_deck"] == []


# =========================================================================== information


def test_views_show_spells_to_everyone_and_hands_only_to_their_owner() -> None:
    """Spells in front of players and the piles are public; hands, the draw piles and casting are private."""
    _, state = new_game(3)
    layout(state, {0: [STAR, DSY], 1: FILLS[1], 2: [WCR]}, [WBB], spell={1: "curse_witch"}, incoming={2: "abracadabra"},
           spell_discard=["tornado"])
    for viewer in range(3):
        zones = state.view(viewer)["zones"]
        assert zones["spell/1"]["cards"] == ["curse_witch"]
        assert zones["incoming/2"]["cards"] == ["abracadabra"]
        assert zones["spell_discard"]["cards"] == ["tornado"]
        assert zones["discard"]["cards"] == [WBB]
        for key in ("deck", "spell_deck", "box"):
            assert "cards" not in zones[key]
        for p in range(3):
            assert ("cards" in zones[f"hand/{p}"]) == (p == viewer)
            assert zones[f"hand/{p}"]["count"] == len(state.zones[f"hand/{p}"])
            assert ("cards" in zones[f"casting/{p}"]) == (p == viewer)


def test_drawn_cards_are_named_only_to_the_drawer() -> None:
    """The log names a drawn card only to the player who drew it."""
    _, state = new_game(3)
    layout(state, {0: [DSY, WCR], **others(3)}, [WBB], deck=["dragon_cauldron_yellow"])
    state.apply(DRAW)
    mine = [e for e in events(state, "move", 0) if e["to_zone"] == "hand/0"][-1]
    assert mine["cards"] == ["dragon_cauldron_yellow"]
    for viewer in (1, 2):
        theirs = [e for e in events(state, "move", viewer) if e["to_zone"] == "hand/0"][-1]
        assert "cards" not in theirs and "Dragon" not in theirs["text"]


def test_decision_options_shown_only_to_the_chooser() -> None:
    """Only the deciding player's view holds the prompt and options."""
    _, state = new_game(3)
    assert state.view(0)["decision"]["options"]
    assert state.view(1)["decision"] == {"player": 0} and state.view(2)["decision"] == {"player": 0}


# =========================================================================== properties (hypothesis)

TABLES = [(mode, players) for mode in ("apprentice", "master") for players in (2, 3, 4, 5)]
TABLE_IDS = [f"{mode}-{players}p" for mode, players in TABLES]
SETTINGS = settings(max_examples=8, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 3000

_GAMES: dict[tuple[str, int, bool], rulecore.Game] = {}


def game_for(mode: str, players: int, table_talk: bool = True) -> rulecore.Game:
    key = (mode, players, table_talk)
    if key not in _GAMES:
        _GAMES[key] = rulecore.Game(CARDSET, players=players, options={"mode": mode, "table_talk": table_talk})
    return _GAMES[key]


def check_table(state: rulecore.State) -> None:
    """Rules invariants after every action: cards conserved, at most one spell per player, spells
    only in spell zones, character cards never there, casting empty unless a cast is pending."""
    check_cards_conserved(state)
    players = state.rules.players
    itype = state.rules.instance_type
    for p in range(players):
        assert len(state.zones[f"spell/{p}"]) + len(state.zones[f"incoming/{p}"]) <= 1
        assert len(state.zones[f"casting/{p}"]) <= 1
    for key, cards in state.zones.items():
        kinds = {"spell" in CARDSET.cards[itype[c]].tags for c in cards}
        base = key.split("/")[0]
        if base in ("deck", "discard", "hand"):
            assert kinds <= {False}, key
        elif base in ("spell_deck", "spell_discard", "spell", "incoming", "casting"):
            assert kinds <= {True}, key
    assert bool(state.legal_actions()) != state.is_terminal()


def check_views(state: rulecore.State) -> None:
    """Each view shows its own hand and casting zone, no other hand or casting zone, and every spell in play."""
    players = state.rules.players
    for viewer in range(players):
        zones = state.view(viewer)["zones"]
        for p in range(players):
            for kind in ("hand", "casting"):
                assert ("cards" in zones[f"{kind}/{p}"]) == (p == viewer)
            for kind in ("spell", "incoming"):
                assert zones[f"{kind}/{p}"]["cards"] == zone(state, f"{kind}/{p}")
        for key in ("deck", "spell_deck", "box"):
            assert "cards" not in zones[key]


def play(state: rulecore.State, rnd: random.Random, steps: int = MAX_ACTIONS, check=None) -> list[str]:
    applied = []
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rnd.choice(state.legal_actions())
        state.apply(action)
        applied.append(action)
        if check is not None:
            check(state)
    return applied


class RuleWatch:
    """Checks after each action of a random game: the table invariants, the views, that an extra turn
    goes to the same player, and that once the spell pile has been re-formed it never holds a curse."""

    def __init__(self, state: rulecore.State, views: bool) -> None:
        self.views = views
        self.seen = 0
        self.spell_shuffles = 0
        self.turn_player = state.turn_player
        self.observe(state)

    def observe(self, state: rulecore.State) -> None:
        new = state.log[self.seen :]
        self.seen = len(state.log)
        # the first shuffle of the spell pile is the setup's; any later one re-forms it
        self.spell_shuffles += sum(1 for e in new if e["type"] == "shuffle" and e["zone"] == "spell_deck")
        if self.spell_shuffles > 1:
            assert not any(t.startswith("curse_") for t in zone(state, "spell_deck"))
        if state.history and state.history[-1] == EXTRA and not state.is_terminal():
            # the next turn (which may have been played out at once if it had one option) is the same player's
            turns = [e["actor"] for e in new if e["type"] == "turn"]
            assert turns and turns[0] == self.turn_player, (turns, self.turn_player)
        self.turn_player = state.turn_player

    def __call__(self, state: rulecore.State) -> None:
        check_table(state)
        if self.views:
            check_views(state)
        self.observe(state)


@pytest.mark.parametrize("mode, players", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False), talk=st.booleans())
def test_random_games_end_and_conserve_cards(mode, players, seed, rnd, talk):
    """Random games end; after every action each card is in exactly one zone and the spell rules hold."""
    state = game_for(mode, players, talk).new_game(seed)
    check_table(state)
    play(state, rnd, check=RuleWatch(state, views=True))
    assert state.is_terminal(), "the game did not end"
    sizes = hand_sizes(state)
    winners = state.result()["winners"]
    assert winners == [p for p in range(players) if sizes[p] == min(sizes)]
    assert state.returns() == [1.0 if p in winners else 0.0 for p in range(players)]
    if min(sizes) > 0:  # a stuck game: nothing was left to draw
        assert state.zones["deck"] == [] and len(state.zones["discard"]) == 1
    if min(sizes) == 0:  # the first player to empty their hand ended the game at once
        assert sizes.count(0) == 1
    if mode == "apprentice":
        assert len(state.zones["box"]) == 16 and not any(state.zones[k] for k in state.zones if "spell" in k)


@pytest.mark.slow
@pytest.mark.parametrize("mode, players", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False), cut=st.integers(0, 400))
def test_replay_and_save_load_are_exact(mode, players, seed, rnd, cut):
    """replay(seed, history) and to_json/load_state rebuild the state exactly, and both continue identically."""
    game = game_for(mode, players)
    state = game.new_game(seed)
    play(state, rnd, steps=cut)
    text = state.to_json()
    assert game.replay(seed, state.history).to_json() == text
    loaded = game.load_state(text)
    assert loaded.to_json() == text
    assert loaded.legal_actions() == state.legal_actions()
    actions = play(state, random.Random(rnd.random()), steps=200)
    for action in actions:
        loaded.apply(action)
    assert loaded.to_json() == state.to_json()
    assert game.replay(seed, state.history).to_json() == state.to_json()
