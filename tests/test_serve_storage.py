"""rulecore/serve/sqlite.py behind rulecore/serve/storage.py: matches, seats and actions kept durably; a write
that lost a race changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecore.serve.sqlite import SQLiteStorage
from rulecore.serve.storage import MatchRecord, SeatRecord, StorageConflict


def _record(match_id: str, created: float = 1.0) -> MatchRecord:
    return MatchRecord(match_id, "witty-witches", 2, {"mode": "master"}, 7, [SeatRecord("open"), SeatRecord("bot", "greedy",
                       "Greedy bot 2")], created, fingerprint="f" * 64)


def test_a_match_its_seats_and_actions_survive_closing_the_file(tmp_path: Path) -> None:
    """What was written is read back after the database is closed and opened again, actions in order."""
    db = str(tmp_path / "m.sqlite3")
    store = SQLiteStorage(db)
    store.create_match(_record("match-one"))
    store.take_seat("match-one", 0, "Ann", "h" * 64, 1, "playing")
    for seq, action in enumerate(["Discard A", "Discard B", "Draw"]):
        store.append_action("match-one", seq, seq % 2, action, 2 + seq, "playing")
    store.close()
    again = SQLiteStorage(db)
    loaded = again.load("match-one")
    assert loaded is not None
    record, actions = loaded
    assert actions == ["Discard A", "Discard B", "Draw"]
    assert record.version == 4 and record.status == "playing" and record.options == {"mode": "master"}
    assert record.seats[0] == SeatRecord("open", None, "Ann", "h" * 64) and record.seats[1].bot == "greedy"
    assert again.load("no-such-match") is None
    again.close()


def test_a_lost_race_is_a_conflict_and_changes_nothing(tmp_path: Path) -> None:
    """A seat taken twice, or an action number written twice, raises StorageConflict; the first write stays."""
    store = SQLiteStorage(str(tmp_path / "m.sqlite3"))
    store.create_match(_record("match-two"))
    store.take_seat("match-two", 0, "Ann", "a" * 64, 1, "playing")
    with pytest.raises(StorageConflict):
        store.take_seat("match-two", 0, "Bob", "b" * 64, 2, "playing")
    with pytest.raises(StorageConflict):
        store.take_seat("match-two", 1, "Bob", "b" * 64, 2, "playing")  # a bot's seat
    store.append_action("match-two", 0, 0, "Draw", 2, "playing")
    with pytest.raises(StorageConflict):
        store.append_action("match-two", 0, 0, "Pass", 3, "playing")
    loaded = store.load("match-two")
    assert loaded is not None
    record, actions = loaded
    assert actions == ["Draw"] and record.version == 2 and record.seats[0].name == "Ann"
    store.close()


def test_unfinished_lists_waiting_and_playing_matches_oldest_first(tmp_path: Path) -> None:
    """Finished and failed matches are not restored; the others come in the order they were made."""
    store = SQLiteStorage(str(tmp_path / "m.sqlite3"))
    for i, status in enumerate(["playing", "finished", "waiting", "failed"]):
        store.create_match(_record(f"match-{i}", created=10.0 - i))
        store.set_status(f"match-{i}", status)
    assert [r.match_id for r, _ in store.unfinished()] == ["match-2", "match-0"]
    store.close()
