"""``Storage`` on one SQLite file: the default of ``rulecore serve --db FILE``.

Each write is one transaction, committed (with ``synchronous=FULL`` in WAL mode: on disk, not just
handed to the system) before the method returns. One connection serves every thread, one call at a
time; the server calls it from worker threads, so the event loop never waits on the disk.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any, Iterator

from .storage import MatchRecord, SeatRecord, StorageConflict

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE INDEX IF NOT EXISTS matches_by_status ON matches(status);
"""


class SQLiteStorage:
    """Matches in one SQLite file (see the module docstring)."""

    def __init__(self, path: str):
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]], expect_one: bool = False) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                for i, (sql, args) in enumerate(statements):
                    changed = db.execute(sql, args).rowcount
                    if expect_one and i == 0 and changed != 1:
                        raise StorageConflict("the row changed meanwhile")
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK")
                raise StorageConflict("already taken") from None
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def create_match(self, match: MatchRecord) -> None:
        statements: list[tuple[str, tuple[Any, ...]]] = [("INSERT INTO matches (id, game, players, options, seed, created, version, status, fingerprint,"
                       " reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (match.match_id, match.game, match.players, json.dumps(match.options), match.seed,
                        match.created, match.version, match.status, match.fingerprint, match.reason))]
        statements += [("INSERT INTO seats (match_id, seat, kind, bot, name, token_hash) VALUES (?, ?, ?, ?, ?, ?)",
                        (match.match_id, i, s.kind, s.bot, s.name, s.token_hash)) for i, s in enumerate(match.seats)]
        self._write(statements)

    def take_seat(self, match_id: str, seat: int, name: str, token_hash: str, version: int, status: str) -> None:
        self._write([
            ("UPDATE seats SET name = ?, token_hash = ? WHERE match_id = ? AND seat = ? AND kind = 'open' "
             "AND token_hash IS NULL", (name, token_hash, match_id, seat)),
            ("UPDATE matches SET version = ?, status = ? WHERE id = ?", (version, status, match_id)),
        ], expect_one=True)

    def append_action(self, match_id: str, seq: int, seat: int, action: str, version: int, status: str) -> None:
        self._write([
            ("INSERT INTO actions (match_id, seq, seat, action) VALUES (?, ?, ?, ?)", (match_id, seq, seat, action)),
            ("UPDATE matches SET version = ?, status = ? WHERE id = ?", (version, status, match_id)),
        ])

    def set_status(self, match_id: str, status: str, reason: str = "") -> None:
        self._write([("UPDATE matches SET status = ?, reason = ? WHERE id = ?", (status, reason, match_id))])

    def _read(self, row: tuple[Any, ...]) -> tuple[MatchRecord, list[str]]:
        match_id, game, players, options, seed, created, version, status, fingerprint, reason = row
        seats = [SeatRecord(kind, bot, name, token_hash) for kind, bot, name, token_hash in self._db.execute(
            "SELECT kind, bot, name, token_hash FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))]
        actions = [a for (a,) in self._db.execute(
            "SELECT action FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))]
        record = MatchRecord(match_id, game, players, json.loads(options), seed, seats, created, version, status,
                             fingerprint, reason)
        return record, actions

    def load(self, match_id: str) -> tuple[MatchRecord, list[str]] | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
            return self._read(row) if row is not None else None

    def unfinished(self) -> Iterator[tuple[MatchRecord, list[str]]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM matches WHERE status IN ('waiting', 'playing') ORDER BY created").fetchall()
            found = [self._read(row) for row in rows]
        yield from found

    def close(self) -> None:
        with self._lock:
            self._db.close()

