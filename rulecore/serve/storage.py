"""Where matches are kept: one small interface (``Storage``), so that another database (a PostgreSQL
shared by several server processes) can stand in for SQLite, and the records it stores.

The contract: every method either does all it says, durably, before it returns, or raises and
changes nothing. ``append_action`` is called before an action is acknowledged, so that a crash
never loses an acknowledged action, and it refuses a sequence number that is already taken (two
servers can never both commit action N of one match).
"""

from __future__ import annotations

from typing import Any, Iterator, Protocol

import attrs


@attrs.define
class SeatRecord:
    """One seat: ``kind`` "open" (a person's, ``name`` and ``token_hash`` once taken) or "bot" (``bot`` its
    name, settings included)."""

    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None


@attrs.define
class MatchRecord:
    """A match as stored: what it was created with, its seats, and where it stands."""

    match_id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[SeatRecord]
    created: float
    version: int = 0
    status: str = "waiting"  # waiting (open seats), playing, finished, failed
    fingerprint: str = ""  # of the cardset it was created with: a changed cardset cannot go on
    reason: str = ""  # why it failed


class StorageConflict(Exception):
    """A write lost a race: the seat is no longer open, or the action number is taken."""


class Storage(Protocol):
    """What the server needs of a database."""

    def create_match(self, match: MatchRecord) -> None:
        """Store a new match (with its seats)."""

    def take_seat(self, match_id: str, seat: int, name: str, token_hash: str, version: int, status: str) -> None:
        """Give an open seat a person; raises ``StorageConflict`` if it was taken meanwhile."""

    def append_action(self, match_id: str, seq: int, seat: int, action: str, version: int, status: str) -> None:
        """Commit action number ``seq`` (0-based) of a match and its new version and status; raises
        ``StorageConflict`` if that number is taken."""

    def set_status(self, match_id: str, status: str, reason: str = "") -> None:
        """Mark a match failed (it cannot go on) or finished."""

    def load(self, match_id: str) -> tuple[MatchRecord, list[str]] | None:
        """A match and its actions in order, or None."""

    def unfinished(self) -> Iterator[tuple[MatchRecord, list[str]]]:
        """Every match still waiting or playing, with its actions, oldest first."""

    def close(self) -> None:
        """Release the database."""
