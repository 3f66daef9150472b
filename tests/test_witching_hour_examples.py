"""The Witching Hour rulebook's worked examples, replayed as scripted scenarios.

Seats: the rulebook's players sit in turn order from seat 0.  Hands are laid out
so that each example's choices are possible and the choices it rules out are
not (Abby cannot block Bob's four-card attack, Sarah cannot block the second
reflection), and every other card is chosen so as not to change the story.
"""

from __future__ import annotations

from collections import Counter

from wh_helpers import (
    BLOCK,
    FAMILIAR,
    REFERENCE,
    TAKE,
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
    reveals,
    take_forced,
    zone,
)

ABBY, BOB, CANDY = 0, 1, 2


def round_of_play_table():
    """Abby, Bob and Candy after the deal of 13 cards each, laid out for the example."""
    game, state = new_game(3)
    # the deal itself: 13 cards each, the rest (17) face down as the discard pile
    assert hand_sizes(state) == [13, 13, 13]
    assert len(state.zones["discard"]) == 56 - 39
    layout(
        state,
        hands={
            # no Familiar and, after the Bells are gone, no four of a kind nor three and a Candle
            ABBY: n(bell=3, mirror=2, toadstool=2, hourglass=2, cauldron=1, book=1, skull=1, candle=1),
            BOB: n(skull=1, chalice=3, candle=1, mirror=3, bell=2, book=1, cauldron=1, hourglass=1),
            CANDY: n(candle=4, familiar=3, toadstool=2, bell=1, book=1, cauldron=1, hourglass=1),
        },
    )
    assert hand_sizes(state) == [13, 13, 13]
    assert len(state.zones["discard"]) == 17
    return game, state


def test_round_of_play_example() -> None:
    """Round of Play Example: Abby's blocked Bells, Bob's Skull and Chalice attack, Candy's reflected Familiars."""
    _, state = round_of_play_table()

    # Abby starts (the youngest). She may attack either Bob or Candy.
    assert state.decision.player == ABBY and state.decision.prompt == "Your turn"
    state.apply("Attack")
    assert options(state) == {"Player 1", "Player 2"}
    state.apply("Player 2")
    state.apply("3 Bell")
    # Candy blocks with three Candles (she could also have used a Familiar: both are in the one decision)
    assert state.decision.player == CANDY
    assert {TAKE, FAMILIAR, "Block with 3 Candle"} <= defence_options(state)
    discard_before = Counter(zone(state, "discard"))
    defend(state, "Block with 3 Candle")
    # "The three Bells and three Candles are placed facedown in the discard pile."
    assert Counter(zone(state, "discard")) == discard_before + Counter(bell=3, candle=3)
    assert hand_sizes(state) == [10, 13, 10]  # "Abby and Candy now have 10 cards in hand. Bob still has 13."
    assert all(hex_pile(state, p) == [] for p in range(3))

    # Bob's turn (to Abby's left): he plays a Skull and takes a Candle from the discard pile
    assert state.decision.player == BOB and state.decision.prompt == "Your turn"
    state.apply("Play Skull")
    assert state.decision.player == BOB and state.decision.prompt == "Take which card from the discard pile?"
    assert "Candle" in options(state) and "Bell" in options(state)
    state.apply("Candle")
    assert hex_pile(state, BOB) == ["skull"]  # the Skull went into his Hex pile
    assert hand_sizes(state)[BOB] == 13  # "he still has 13 cards in hand because his Skull was replaced with a Candle"
    assert hand(state, BOB).count("candle") == 2
    assert len(state.zones["discard"]) == 17 + 6 - 1

    # The Skull gives Bob another turn immediately: three Chalices and one Candle at Abby
    assert state.decision.player == BOB and state.decision.prompt == "Your turn"
    state.apply("Attack")
    state.apply("Player 0")
    assert "3 Chalice + 1 Candle" in options(state)
    assert "3 Chalice + 2 Candle" not in options(state)  # exactly one Candle may be added
    state.apply("3 Chalice + 1 Candle")
    # Abby has neither four of a kind nor three and a Candle: she must accept.  She is still asked,
    # with "Take the cards" alone, and Bob and Candy see only that she decides.
    take_forced(state, ABBY)
    assert hex_pile(state, ABBY) == n(chalice=3, candle=1)
    assert hand_sizes(state) == [10, 9, 10]  # "he has 9 cards in hand. Abby and Candy still have 10."

    # Candy's turn: three Familiars at Bob, who reflects them with three Mirrors
    assert state.decision.player == CANDY and state.decision.prompt == "Your turn"
    state.apply("Attack")
    state.apply("Player 1")
    state.apply("3 Familiar")
    assert state.decision.player == BOB and state.decision.prompt == BLOCK  # Bob holds no Familiar
    assert options(state) == {TAKE, "Block with 3 Mirror", "Block with 2 Mirror + 1 Candle"}
    before = len(state.zones["discard"])
    state.apply("Block with 3 Mirror")
    # the Mirrors are discarded at once and the attack comes back to Candy
    assert len(state.zones["discard"]) == before + 3
    assert zone(state, "attack") == n(familiar=3)
    assert state.decision.player == CANDY and state.decision.prompt == BLOCK
    assert "Block with 2 Toadstool + 1 Candle" in options(state)
    state.apply("Block with 2 Toadstool + 1 Candle")
    # "The Familiars, Toadstools, and Candle are all placed facedown in the discard pile."
    assert len(state.zones["discard"]) == before + 3 + 3 + 3
    assert state.zones["attack"] == [] and state.zones["block"] == []
    assert hand_sizes(state) == [10, 6, 4]  # "Candy now has 4 cards in hand. Abby still has 10, and Bob has 6."
    assert hex_pile(state, ABBY) == n(chalice=3, candle=1)
    assert hex_pile(state, BOB) == ["skull"]
    assert hex_pile(state, CANDY) == []

    # It is now Abby's turn.
    assert state.decision.player == ABBY and state.decision.prompt == "Your turn"
    assert state.round == 1


def test_round_of_play_example_is_private_where_the_rules_say() -> None:
    """Round of Play Example: the Skull pick is seen by Bob only; the Hex piles stay hidden from all."""
    _, state = round_of_play_table()
    state.apply("Attack")
    state.apply("Player 2")
    state.apply("3 Bell")
    defend(state, "Block with 3 Candle")
    state.apply("Play Skull")
    # only Bob is shown the discard pile's contents
    assert "options" in state.view(BOB)["decision"]
    for p in (ABBY, CANDY):
        assert "options" not in state.view(p)["decision"]
        assert not [e for e in events(state, "look", p) if "cards" in e]
    state.apply("Candle")
    for p in range(3):
        take = [e for e in state.events(p) if e["type"] == "move" and e["from"] == "discard"][-1]
        assert ("cards" in take) == (p == BOB)
        for q in range(3):
            assert "cards" not in state.view(p)["zones"][f"hex/{q}"]
    assert state.view(ABBY)["zones"]["hex/1"]["count"] == 1


def test_round_of_play_continues_to_the_round_end() -> None:
    """Round of Play Example: play goes on until at most one player holds cards, then the round is scored."""
    _, state = round_of_play_table()
    for action in ("Attack", "Player 2", "3 Bell"):
        state.apply(action)
    defend(state, "Block with 3 Candle")
    for action in ("Play Skull", "Candle", "Attack", "Player 0", "3 Chalice + 1 Candle", TAKE,
                   "Attack", "Player 1", "3 Familiar", "Block with 3 Mirror", "Block with 2 Toadstool + 1 Candle"):
        state.apply(action)
    # play on with the first legal action until the round is over
    steps = 0
    while state.round == 1:
        state.apply(state.legal_actions()[0])
        steps += 1
        assert steps < 200
    assert len(state.round_log) == 1
    # at the round end at most one player still held cards, and that hand went into its owner's Hex pile
    log = state.events(None)
    end = next(i for i, e in enumerate(log) if e["type"] == "phase" and e["phase"] == "score")
    last_turn = max(i for i, e in enumerate(log[:end]) if e["type"] == "turn")
    leftovers = [e for e in log[last_turn:end] if e["type"] == "move" and e["actor"] is None]
    assert len(leftovers) <= 1
    for e in leftovers:
        assert e["from"].startswith("hand/") and e["to_zone"] == "hex/" + e["from"].split("/")[1]
    scored = reveals(state)[0]
    assert set(scored) == {"hex/0", "hex/1", "hex/2"}
    assert sum(len(v) for v in scored.values()) <= 56
    assert hand_sizes(state) == [13, 13, 13]  # the next round is dealt


def test_mirror_example_peyton_and_sarah() -> None:
    """Mirror example: Peyton's three Books, reflected by Sarah's three Mirrors, reflected again by two Mirrors and a Candle, end in Sarah's Hex pile."""
    peyton, sarah = 0, 1
    _, state = new_game(3)  # Books are not used in a two-player game: a third player looks on
    layout(
        state,
        hands={
            peyton: n(book=3, mirror=2, candle=1, bell=2),
            sarah: n(mirror=3, bell=2, skull=1, chalice=1),
            2: n(bell=3),
        },
        discard=[],
    )
    state.apply("Attack")
    state.apply(f"Player {sarah}")
    state.apply("3 Book")
    # Sarah blocks with three Mirrors: they are discarded and Peyton must block or take the three Books
    assert state.decision.player == sarah
    assert options(state) == {TAKE, "Block with 3 Mirror"}
    state.apply("Block with 3 Mirror")
    assert zone(state, "discard") == n(mirror=3)
    assert zone(state, "attack") == n(book=3)
    assert state.decision.player == peyton and state.decision.prompt == BLOCK
    assert options(state) == {TAKE, "Block with 2 Mirror + 1 Candle"}
    # Peyton blocks with two Mirrors and one Candle: discarded, Sarah must once again block three Books
    state.apply("Block with 2 Mirror + 1 Candle")
    # She cannot (two Bells, a Skull and a Chalice), and takes the three Books into her Hex pile:
    # asked with "Take the cards" alone, which Peyton and the onlooker cannot tell from a real choice
    take_forced(state, sarah)
    assert hex_pile(state, sarah) == n(book=3)
    assert hex_pile(state, peyton) == []
    assert zone(state, "discard") == n(mirror=5, candle=1)
    assert hand(state, peyton) == n(bell=2)
    assert hand(state, sarah) == n(bell=2, skull=1, chalice=1)
    assert state.zones["attack"] == [] and state.zones["block"] == []
    says = [e["text"] for e in events(state, "say", 2)]
    assert says[-1] == "Player 0 attacks Player 1 with 3 Book"
    assert state.decision.player == sarah  # the attack is over: next player's turn


def test_familiar_example_thomas_and_mary() -> None:
    """Familiar example: Thomas attacks Mary with three Mirrors; her Familiar goes into her Hex pile and the Mirrors are discarded."""
    thomas, mary = 0, 1
    _, state = new_game(2)
    layout(state, hands={thomas: n(mirror=3, bell=2), mary: n(familiar=1, candle=2, bell=1)}, discard=[])
    state.apply("3 Mirror")  # a two-player game: Mary is the only opponent, attack is the only kind of turn
    assert state.decision.player == mary and state.decision.prompt == BLOCK
    assert defence_options(state) == {TAKE, FAMILIAR}  # two Candles and a Bell make no block of three
    defend(state, FAMILIAR)
    assert hex_pile(state, mary) == ["familiar"]
    assert zone(state, "discard") == n(mirror=3)
    assert hex_pile(state, thomas) == []
    assert hand(state, mary) == n(candle=2, bell=1)
    assert hand(state, thomas) == n(bell=2)
    assert state.decision.player == mary


def test_scoring_example_lauren() -> None:
    """Scoring example: Lauren's four Bells, one Candle, one Book and two Mirrors score 5 + 1 + 0 + 2 = 8."""
    lauren = 0
    ladder = {t: REFERENCE[t][1] for t in REFERENCE}
    assert (ladder["bell"][3], ladder["candle"][0], ladder["book"][0], ladder["mirror"][1]) == (5, 1, 0, 2)
    _, state = new_game(3)
    end_round(state, hexes={lauren: n(bell=4, candle=1, book=1, mirror=2)})
    assert reveals(state)[0][f"hex/{lauren}"] == n(bell=4, candle=1, book=1, mirror=2)
    assert state.round_log[0]["round_score"][lauren] == 8
    assert state.counters["total"][lauren] == 8
    # the reveal and the points are public
    for viewer in range(3):
        assert state.view(viewer)["counters"]["total"][lauren] == 8
