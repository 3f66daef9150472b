"""docs/examples/trick-taking.yaml: a 52-card game made with a card family, sort, a computed prompt,
a none variable and a label for rounds; it validates clean and plays thousands of decisions cleanly."""

from __future__ import annotations

from pathlib import Path

import rulecore
from rulecore.cli.validate import validate_paths
from rulecore.simulate import simulate

EXAMPLE = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "trick-taking.yaml")


def test_the_example_validates_without_errors_or_warnings():
    """validate (with its smoke game and heuristic) finds nothing to say."""
    (report,) = validate_paths([EXAMPLE])
    assert report.problems == (), [p.render() for p in report.problems]


def test_one_family_makes_the_52_cards():
    """The family gives 52 distinct card types, one copy each, named 'Rank of suit'."""
    cs = rulecore.load_cardset(EXAMPLE)
    assert len(cs.cards) == 52 and {c.count for c in cs.cards.values()} == {1}
    assert {c.family for c in cs.cards.values()} == {"playing_card"}
    assert cs.cards["queen_of_spades"].name == "Queen of spades"
    assert (cs.cards["ace_of_hearts"].props["suit"], cs.cards["ace_of_hearts"].props["rank"]) == ("hearts", 14)
    assert cs.vars["led_suit"] is None


def test_hands_are_dealt_sorted_and_play_follows_suit():
    """After the deal every hand is in suit-then-rank order; the prompt says the suit to follow."""
    state = rulecore.Game(rulecore.load_cardset(EXAMPLE), 4).new_game(5)
    defs = state.rules.defs
    for seat in range(4):
        hand = state.view(seat)["zones"][f"hand/{seat}"]["cards"]
        keys = [(defs[c].props["suit"], defs[c].props["rank"]) for c in hand]
        assert len(hand) == 13 and keys == sorted(keys)
    assert state.decision.prompt == "Play a card (you lead)"
    led = state.legal_actions()[0]
    state.apply(led)
    suit = led.split(" of ")[1]
    assert state.decision.prompt == f"Play a card (follow {suit})"
    hand = state.view(1)["zones"]["hand/1"]["cards"]
    if any(defs[c].props["suit"] == suit for c in hand):
        assert all(a.endswith(f"of {suit}") for a in state.legal_actions())
    assert [e["text"] for e in state.events(0) if e["type"] == "round"] == ["Hand 1 begins"]


def test_simulated_games_give_out_13_tricks_a_hand():
    """Random games finish; every hand hands out exactly 13 trick points, and the table calls rounds hands."""
    result = simulate(EXAMPLE, games=30, players=4, seed=2, bots="random", workers=1, keep_records=True)
    assert result.unfinished == 0 and result.round_label == "hand"
    for record in result.records:
        assert record.rounds == 2 and sum(record.totals or ()) == 26
    assert len(result.card_stats) == 52
