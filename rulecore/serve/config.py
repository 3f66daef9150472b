"""What one server is configured with: its games, where it stores matches, its bots and its limits."""

from __future__ import annotations

import os
from typing import Mapping

import attrs

from rulecore.bots import BOT_NAMES

#: settings a client may give a built-in bot ("bot:ismcts:iterations=50"): whole numbers up to this
BOT_SETTING_MAX = 5_000


@attrs.frozen
class GameSource:
    """A configured game: its name at this server, and what ``load_cardset`` reads (a built-in name or a
    path), with the extra folders its ``include:``/``extends:`` may read."""

    name: str
    source: str
    roots: tuple[str, ...] = ()


@attrs.frozen
class ServeConfig:
    """Everything ``create_app`` needs; the defaults are those of ``rulecore serve``.

    - ``games``: the games that may be played (matches of any other game are refused);
    - ``db``: the SQLite file that keeps every match (``":memory:"`` keeps nothing across restarts);
    - ``bots``: the bot names clients may put in seats (built-in names by default; a ``module:attr``
      of your own only when listed here); ``bot_seconds``: the time budget of one bot decision (past
      it the decision is a random legal action and the bot's worker process is restarted);
      ``bot_workers``: processes that run bots; ``bot_pause``: seconds a bot waits before it moves when
      people sit at the table (so that they can follow);
    - ``max_body``: bytes of one request body or WebSocket message; ``rate`` and ``burst``: requests
      per second (and the burst above it) of one client address, and messages of one WebSocket;
    - ``max_matches``: matches kept at once (unfinished ones): when they are all taken, a match still
      waiting for people after ``waiting_seconds`` gives its place up; ``cors_origins``: origins allowed to
      call the API from another site (none by default).
    """

    games: tuple[GameSource, ...]
    db: str = "rulecore-serve.sqlite3"
    bots: tuple[str, ...] = tuple(b for b in BOT_NAMES if b != "oracle")
    bot_seconds: float = 10.0
    bot_pause: float = 0.4
    bot_workers: int = attrs.field(factory=lambda: max(1, min(4, (os.cpu_count() or 2) - 1)))
    max_body: int = 16_384
    rate: float = 20.0
    burst: int = 60
    max_matches: int = 1_000
    waiting_seconds: float = 3_600.0
    max_sockets: int = 64
    cors_origins: tuple[str, ...] = ()

    def game_names(self) -> Mapping[str, GameSource]:
        return {g.name: g for g in self.games}
