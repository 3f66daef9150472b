"""Laying out a scenario with State.arrange (engine/scenarios.py)."""

from __future__ import annotations

import pytest

import rulecore


def test_arrange_works_a_pending_choose_out_anew_with_the_locals_it_reads(wh):
    """State.arrange re-asks a pending choose with its options worked out on the new table, locals it reads included."""
    game = rulecore.Game(wh, players=2)
    state = game.new_game(seed=5)
    if state.decision.prompt == "Your turn":  # asked even when attacking is all there is ('always')
        state.apply("Attack")
    assert state.decision.prompt == "Attack with which cards?"
    # the attack's 'boosters' (Candles in hand) was worked out on the old hand
    state.arrange({"hand/0": ["cauldron", "bell"], "hand/1": ["mirror"]}, rest="discard")
    assert set(state.legal_actions()) == {"1 Cauldron", "1 Bell"}
    assert not hasattr(state.ctx, "state")  # the locals worked out anew let go of the state, as a run does
    state.apply("1 Bell")
    assert sorted(state.rules.instance_type[c] for c in state.zones["attack"] + state.zones["hex/1"]) == ["bell"]
    assert "candle" not in [state.rules.instance_type[c] for c in state.zones["hand/0"]]


def test_arrange_keeps_the_choices_already_made(wh):
    """State.arrange re-asks a pending choose but keeps what earlier choices of the same effect picked."""
    game = rulecore.Game(wh, players=3)
    state = game.new_game(seed=0)
    while state.decision.prompt != "Attack with which cards?":
        state.apply("Attack" if "Attack" in state.legal_actions() else state.legal_actions()[-1])
    defender_before = state.stack[-1][3]["defender"]
    state.arrange({"hand/0": ["bell", "bell"]}, rest="discard")
    assert state.stack[-1][3]["defender"] == defender_before
    assert set(state.legal_actions()) == {"1 Bell", "2 Bell"}


def test_arrange_sets_card_and_player_marks(wh):
    """State.arrange(marks=..., player_marks=...): 'zone/index' sets a card's marks exactly, a seat its player marks."""
    state = rulecore.Game(wh, players=3).new_game(seed=0)
    state.arrange({"hand/0": ["bell", "candle"]}, rest="discard",
                  marks={"hand/0/1": ["lit", "spare"]}, player_marks={2: ["open_red"]})
    candle = state.zones["hand/0"][1]
    assert state.rules.instance_type[candle] == "candle" and state.marks[candle] == ("lit", "spare")
    assert state.player_marks == [(), (), ("open_red",)]
    state.arrange(marks={"hand/0/1": []})
    assert candle not in state.marks
    with pytest.raises(rulecore.IllegalActionError):
        state.arrange(marks={"hand/0/5": ["x"]})
    with pytest.raises(rulecore.IllegalActionError):
        state.arrange(player_marks={3: ["x"]})


@pytest.mark.parametrize(
    "layout, message",
    [
        ({"zones": {"attic": ["apple"]}}, "no zone 'attic'"),
        ({"zones": {"table": ["pear"]}}, "unknown card type 'pear'"),
        ({"zones": {"table": ["coin", "coin"]}}, "no 'coin' card left to place in 'table'"),
        ({"zones": {"deck": ["apple"]}}, "5 cards were pushed out of the named zones; say where with rest="),
        ({"zones": {"deck": ["apple"]}, "rest": "attic"}, "no zone 'attic' for the rest of the cards"),
        ({"zones": {"deck": ["apple"]}, "rest": "deck"}, "rest='deck' is also one of the zones laid out"),
        ({"counters": {"luck": 3}}, "no counter 'luck'"),
        ({"marks": {"deck/9": ["x"]}}, r"no card at 'deck/9' to mark \(use 'zone/index'\)"),
        ({"player_marks": {-1: ["x"]}}, "no player -1 to mark"),
    ],
)
def test_a_refused_layout_says_why_and_changes_nothing(tiny, layout, message):
    """arrange() refuses an unknown zone, card type, counter or seat, a card it has no copy of left, and
    cards pushed out with nowhere to go, with an IllegalActionError that says so; the state stays as it was."""
    state = tiny.run('set x to 1\nlet c = choose card from deck by 0 "Which?"')
    before = state.to_json()
    with pytest.raises(rulecore.IllegalActionError, match=message):
        state.arrange(layout.get("zones"), **{k: v for k, v in layout.items() if k != "zones"})
    assert state.to_json() == before


def test_arrange_takes_cards_from_the_zones_not_named_and_sets_counters_and_vars(tiny):
    """Named zones hold exactly the types given (top first), taken from other zones; cards pushed out go to
    rest=; counters and vars are set; the state is marked as arranged and the event log says so."""
    state = tiny.run('let c = choose card from deck by 0 "Which?" always')
    state.arrange({"hand/0": ["coin", "bean"], "deck": ["apple"]}, rest="discard",
                  counters={"score": [4, 7], "pool": 2}, vars={"x": 5})
    types = state.rules.instance_type
    assert [types[c] for c in state.zones["hand/0"]] == ["coin", "bean"]
    assert [types[c] for c in state.zones["deck"]] == ["apple"]
    assert sorted(types[c] for c in state.zones["discard"]) == ["apple", "apple", "bean"]
    assert all(state.where[c] == key for key, cards in state.zones.items() for c in cards)
    assert state.counters["score"] == [4, 7] and state.counters["pool"] == [2] and state.vars["x"] == 5
    assert state.arranged and "arrange" in [e["type"] for e in state.events()]
    assert state.legal_actions() == ["Apple"]  # the pending choice asked again of the deck as it is now


def test_cards_laid_out_lose_their_old_marks(tiny):
    """A card arrange lays out (or pushes out to rest=) starts without marks; marks= sets them; cards left alone keep theirs."""
    state = tiny.run('let c = choose card from deck by 0 "Which?" always')
    state.arrange({"deck": ["apple", "bean", "coin", "apple", "apple", "bean"]},
                  marks={"deck/0": ["used"], "deck/5": ["used"]})
    used_apple, used_bean = state.zones["deck"][0], state.zones["deck"][5]
    state.arrange({"hand/1": ["apple"]})
    assert state.zones["hand/1"] == [used_apple] and used_apple not in state.marks
    assert state.marks == {used_bean: ("used",)}  # the zones not named keep their cards' marks
    state.arrange({"hand/1": ["bean"]}, rest="discard", marks={"hand/1/0": ["fresh"]})
    fresh = state.zones["hand/1"][0]
    assert state.zones["discard"] == [used_apple] and state.marks == {used_bean: ("used",), fresh: ("fresh",)}


def test_arrange_refuses_an_undeclared_mark(tiny):
    """With declared 'marks:'/'player_marks:', arrange(marks=..., player_marks=...) refuses a word the list lacks, with a guess."""
    from rulecore.cardset.loader import load_cardset_text

    text = tiny.text('mark card first(deck) "used"\nmark player 0 "shielded"\nlet c = choose card from deck by 0 "Which?" always')
    cs = load_cardset_text(text + "marks:\n  used: spent\nplayer_marks:\n  shielded: safe\n", tiny.file)
    state = rulecore.Game(cs, 2).new_game(1)
    with pytest.raises(rulecore.IllegalActionError, match="mark 'usd' is not declared under 'marks:' of the cardset; did you mean 'used'"):
        state.arrange(marks={"deck/0": ["usd"]})
    with pytest.raises(rulecore.IllegalActionError, match="mark 'shieldd' is not declared under 'player_marks:'"):
        state.arrange(player_marks={1: ["shieldd"]})
    state.arrange(marks={"deck/0": ["used"]}, player_marks={1: ["shielded"]})
    assert state.player_marks[1] == ("shielded",)
