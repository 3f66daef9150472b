"""Sanity checks for the plain hand-written Witching Hour baseline (benchmarks/)."""

import importlib.util
import pathlib

import pytest

_PATH = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "plain_witching_hour.py"
_spec = importlib.util.spec_from_file_location("plain_witching_hour", _PATH)
pw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pw)

GAMES = 40


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_games_terminate_with_winner_and_conserve_cards(players):
    """Random games end, name the unique lowest total as winner, keep totals >= 0, conserve cards every action."""
    for seed in range(GAMES):
        r = pw.play_game(players, seed, check=True)  # check=True raises on any lost/duplicated card
        totals = r["totals"]
        assert len(totals) == players
        assert all(t >= 0 for t in totals)
        assert r["rounds"] >= 3
        assert r["decisions"] > 0
        low = min(totals)
        assert totals.count(low) == 1
        assert totals[r["winner"]] == low


def test_same_seed_same_game():
    """play_game is deterministic for a given (players, seed) and differs across seeds."""
    a = [pw.play_game(4, s) for s in range(5)]
    b = [pw.play_game(4, s) for s in range(5)]
    assert a == b
    assert len({(tuple(r["totals"]), r["decisions"]) for r in a}) > 1


def test_deck_and_deal_sizes():
    """56 cards (52 without Books for 2 players); deal 13 for 2-4 players, 10 for 5, rest to discard."""
    assert sum(pw.deck_counts(3)) == 56 and pw.deck_counts(3)[pw.BOOK] == 4
    assert sum(pw.deck_counts(2)) == 52 and pw.deck_counts(2)[pw.BOOK] == 0
    for players, deal in [(2, 13), (3, 13), (4, 13), (5, 10)]:
        g = pw.WitchingHour(players, seed=1, check=True)
        g.start_round()
        assert g.hand_n == [deal] * players
        assert [sum(h) for h in g.hands] == [deal] * players
        assert len(g.discard) == sum(pw.deck_counts(players)) - deal * players


def test_scoring_ladders():
    """Rulebook example scores 8, a lone Chalice -3, and the last ladder value holds for larger counts."""
    hx = [0] * pw.NTYPES
    hx[pw.BELL], hx[pw.CANDLE], hx[pw.BOOK], hx[pw.MIRROR] = 4, 1, 1, 2
    assert pw.score_hex(hx) == 8
    lone = [0] * pw.NTYPES
    lone[pw.CHALICE] = 1
    assert pw.score_hex(lone) == -3
    many = [0] * pw.NTYPES
    many[pw.TOADSTOOL] = 8
    assert pw.score_hex(many) == 10


def test_round_score_rules():
    """Round 1 negative counts 0; later negatives subtract; totals never drop below 0."""
    totals = [0, 0, 0]
    assert pw.apply_round_scores(totals, [-3, 5, 2], 1) == [0, 5, 2]
    assert totals == [0, 5, 2]
    assert pw.apply_round_scores(totals, [-3, -3, 4], 2) == [-3, -3, 4]
    assert totals == [0, 2, 6]


def test_totals_match_booked_round_scores():
    """Totals equal the per-round booked scores replayed through the scoring rules."""
    for seed in range(20):
        r = pw.play_game(5, seed)
        assert len(r["round_scores"]) == r["rounds"]
        totals = [0] * 5
        for i, scores in enumerate(r["round_scores"], start=1):
            pw.apply_round_scores(totals, scores, i)
        assert totals == r["totals"]


def test_round_ends_with_all_hands_empty():
    """After a round every hand is empty (the last holder's hand went to their Hex pile)."""
    g = pw.WitchingHour(4, seed=3, check=True)
    nxt = g.play_round(0)
    assert 0 <= nxt < 4
    assert g.hand_n == [0, 0, 0, 0] and all(sum(h) == 0 for h in g.hands)
    assert sum(map(sum, g.hexes)) + len(g.discard) == 56


def test_invariant_check_detects_lost_card():
    """The debug check function raises when a card disappears."""
    g = pw.WitchingHour(3, seed=0)
    g.start_round()
    g.check()
    g.discard.pop()
    with pytest.raises(pw.InvariantError):
        g.check()
