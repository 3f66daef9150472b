"""A player's view as text (rulecore/cli/view.py)."""

from __future__ import annotations

from rulecore.cli import render_view


def test_render_view_is_readable() -> None:
    """render_view shows scalars, zones as counts/cards by name, per-seat numbers, no decision."""
    view = {
        "round": 2,
        "zones": {"hand/0": {"count": 2, "cards": ["bell", "book"]}, "hex/1": {"count": 3}},
        "counters": {"total": [4, 7]},
        "players": [{"name": "Ann", "score": 4}],
        "decision": {"prompt": "hidden from the view text"},
        "card_names": {"bell": "Bell", "book": "Book"},
    }
    text = render_view(view, seat=0, players=2)
    assert "round: 2" in text
    assert "hand/0 (you) (2): Bell, Book" in text
    assert "hex/1 (3)" in text
    assert "total: you 4, seat 1 7" in text
    assert "players (1): Ann" in text
    assert "hidden from the view text" not in text and "card names" not in text


def test_render_view_leaves_out_empty_entries() -> None:
    """Top-level entries with nothing in them (no vars, no marks on anyone) are not shown; zeros are."""
    view = {"round": 0, "vars": {}, "marks": [[], [], []], "flags": {"a": [], "b": {}}, "zones": {"deck": {"count": 0}}}
    text = render_view(view, seat=0, players=3)
    assert "round: 0" in text and "deck (0)" in text
    assert "vars" not in text and "marks" not in text and "flags" not in text
