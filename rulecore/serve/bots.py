"""Bots in seats, played in worker processes so that a bot's search never holds up the server or
another match, each decision under a time budget.

A ``BotPool`` keeps ``workers`` processes (started with ``spawn``). A match always goes to the same
worker (chosen by its id), which keeps the match's state and the seats' bot objects between
decisions (a bot remembers what it tried), so a decision sends only the actions since the last
one. A worker that does not answer within the budget is killed and started again (its matches are
rebuilt from their histories at their next decision) and the decision fails with ``BotTimeout``;
the server then plays a random legal action for the bot. A bot that raises fails with
``BotFailed`` the same way.
"""

from __future__ import annotations

import multiprocessing
import threading
import zlib
from multiprocessing.connection import Connection
from typing import Any, Sequence

import attrs

import rulecore
from rulecore.bots import Bot, make_bot
from rulecore.simulate import bot_seed

from .config import GameSource
from .games import Games

#: matches one worker keeps between decisions; the least recently asked beyond it are rebuilt when needed
WORKER_TABLES = 512


class BotTimeout(Exception):
    """The bot did not decide within its time budget."""


class BotFailed(Exception):
    """The bot raised, or its worker died."""


@attrs.frozen
class BotJob:
    """One decision: the match as it stands (its set-up and history) and the bot of the seat to move."""

    match_id: str
    game: str
    players: int
    options: dict[str, Any]
    names: tuple[str, ...] | None
    seed: int
    history: tuple[str, ...]
    seat: int
    bot: str


def _sync(games: Games, tables: dict[str, Any], job: BotJob) -> tuple[Any, dict[int, Bot]]:
    """The worker's state of the match, brought up to the job's history (replayed when it is not a prefix)."""
    kept = tables.pop(job.match_id, None)
    if kept is not None:
        state, bots = kept
        done = len(state.history)
        if done > len(job.history) or tuple(state.history) != job.history[:done]:
            kept = None
    if kept is None:
        game = games.game(job.game, job.players, job.options, job.names)
        state, bots, done = game.new_game(job.seed), {}, 0
    for action in job.history[done:]:
        state.apply(action)
    tables[job.match_id] = (state, bots)  # the most recently asked last
    while len(tables) > WORKER_TABLES:
        tables.pop(next(iter(tables)))
    return state, bots


def _decide(games: Games, tables: dict[str, Any], job: BotJob, user_bots: frozenset[str] = frozenset()) -> str:
    state, bots = _sync(games, tables, job)
    if state.current_player != job.seat:
        raise BotFailed(f"seat {job.seat} is not deciding")
    bot = bots.get(job.seat)
    if bot is None:
        # module:attr only for the bots the operator listed (--bot); a client's name is a built-in bot's
        bot = bots[job.seat] = make_bot(job.bot, bot_seed(job.seed, job.seat), user_bots=job.bot in user_bots)
    action = bot.choose(state)
    if action not in state.legal_actions():
        raise BotFailed(f"the bot chose {action!r:.60}, which is not legal")
    return action


def worker_main(conn: Connection, sources: Sequence[GameSource], user_bots: Sequence[str] = ()) -> None:
    """A bot worker: answers ("decide", job) with ("ok", action) or ("error", message), forgets a match
    on ("forget", match_id), and stops on None. ``user_bots``: the module:attr bots the operator listed."""
    games = Games(sources)
    tables: dict[str, Any] = {}
    allowed = frozenset(user_bots)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        kind, payload = message
        if kind == "forget":
            tables.pop(payload, None)
            continue
        try:
            conn.send(("ok", _decide(games, tables, payload, allowed)))
        except rulecore.RulecoreError as exc:
            conn.send(("error", str(exc)))
        except Exception as exc:  # a bot of the user's own may raise anything: say what, never a traceback
            conn.send(("error", f"the bot failed ({type(exc).__name__})"))


class _Worker:
    def __init__(self, ctx: Any, sources: Sequence[GameSource], user_bots: Sequence[str] = ()):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=worker_main, args=(child, tuple(sources), tuple(user_bots)), daemon=True,
                                   name="rulecore-bot-worker")
        self.process.start()
        child.close()

    def stop(self, wait: float = 1.0) -> None:
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(wait)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(wait)
        self.conn.close()


class BotPool:
    """Worker processes that play the bots (see the module docstring). ``decide`` blocks: call it from a
    thread of its own (the server keeps an executor with one thread per worker)."""

    def __init__(self, sources: Sequence[GameSource], workers: int, budget: float, user_bots: Sequence[str] = ()):
        self.sources = tuple(sources)
        self.user_bots = tuple(user_bots)  # module:attr bots the operator listed (serve --bot)
        self.budget = budget
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: list[_Worker | None] = [None] * max(1, workers)
        self._locks = [threading.Lock() for _ in self._workers]
        self.restarts = 0

    @property
    def size(self) -> int:
        return len(self._workers)

    def _slot(self, match_id: str) -> int:
        return zlib.crc32(match_id.encode()) % len(self._workers)

    def _worker(self, i: int) -> _Worker:
        worker = self._workers[i]
        if worker is None or not worker.process.is_alive():
            worker = self._workers[i] = _Worker(self._ctx, self.sources, self.user_bots)
        return worker

    def decide(self, job: BotJob) -> str:
        """The bot's action; ``BotTimeout`` past the budget, ``BotFailed`` if it raised or its worker died."""
        i = self._slot(job.match_id)
        with self._locks[i]:
            worker = self._worker(i)
            try:
                worker.conn.send(("decide", job))
                if not worker.conn.poll(self.budget):
                    self._restart(i)
                    raise BotTimeout(f"no decision within {self.budget:g} s")
                kind, answer = worker.conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                self._restart(i)
                raise BotFailed("the bot's worker process stopped") from None
        if kind != "ok":
            raise BotFailed(answer)
        return str(answer)

    def forget(self, match_id: str) -> None:
        """The match is over: its worker may drop it."""
        i = self._slot(match_id)
        with self._locks[i]:
            worker = self._workers[i]
            if worker is not None and worker.process.is_alive():
                try:
                    worker.conn.send(("forget", match_id))
                except (OSError, ValueError):
                    pass

    def _restart(self, i: int) -> None:
        worker = self._workers[i]
        self._workers[i] = None
        self.restarts += 1
        if worker is not None:
            worker.process.kill()
            worker.process.join(5)
            worker.conn.close()

    def close(self) -> None:
        for i, worker in enumerate(self._workers):
            if worker is not None:
                with self._locks[i]:
                    worker.stop()
                    self._workers[i] = None
