"""Matches: seats and their tokens, the version that refuses a stale action, committing each action to
storage before it is acknowledged, bots taking their turns, and telling the connections that watch.

Concurrency: everything that changes a match holds its ``lock`` (an ``asyncio.Lock``) and runs the
engine and the storage in a worker thread, so the event loop serves other matches meanwhile. After
each change the match publishes ``shown``: a clone of its state that nothing changes again, with the
version it is of (one attribute, so that nobody reads a state with another state's version); payloads
are built from it, from any thread, without the lock.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio.to_thread

import rulecore
from rulecore import OptionError, RuleError
from rulecore.bots import make_bot
from rulecore.cardset.fingerprint import fingerprint

from .bots import BotFailed, BotJob, BotPool, BotTimeout
from .config import BOT_SETTING_MAX, ServeConfig
from .games import Games
from .protocol import ApiError
from .storage import MatchRecord, SeatRecord, Storage, StorageConflict

log = logging.getLogger("rulecore.serve")

#: finished matches kept in memory (older ones are rebuilt from storage when asked for)
FINISHED_KEPT = 256


def token_hash(token: str) -> str:
    """How a token is stored: its SHA-256 (a token has 256 random bits, so no slower hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Match:
    """One match in memory: its record, its state once every seat is taken, and who is watching."""

    def __init__(self, record: MatchRecord, options: dict[str, Any]):
        self.record = record
        self.options = options  # every option, defaults filled in
        self.state: rulecore.State | None = None
        self.shown: tuple[rulecore.State | None, int] = (None, record.version)  # see the module docstring
        self.lock = asyncio.Lock()
        self.watchers: set[asyncio.Event] = set()
        self.bot_task: asyncio.Task[None] | None = None

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (None: no such token). Compared in constant time."""
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for i, seat in enumerate(self.record.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = i
        return found

    def names(self) -> list[str]:
        return [s.name or "" for s in self.record.seats]


class Hub:
    """Every match of one server (see the module docstring)."""

    def __init__(self, config: ServeConfig, games: Games, storage: Storage, pool: BotPool):
        self.config, self.games, self.storage, self.pool = config, games, storage, pool
        self.matches: dict[str, Match] = {}
        self.finished: list[str] = []
        self._bot_threads = ThreadPoolExecutor(max_workers=pool.size, thread_name_prefix="rulecore-bot")
        self._fingerprints = {name: fingerprint(cs) for name, cs in games.cardsets.items()}
        self.closing = False

    # ------------------------------------------------------------------ start and stop
    async def restore(self) -> int:
        """Bring back every unfinished match from storage (after a restart), each where its last committed
        action left it; a match that cannot go on (its cardset changed) is marked failed."""
        found = await anyio.to_thread.run_sync(lambda: list(self.storage.unfinished()))
        for record, actions in found:
            match = Match(record, {})
            try:
                await anyio.to_thread.run_sync(functools.partial(self._rebuild, match, actions))
            except (rulecore.RulecoreError, KeyError) as exc:
                reason = f"this match cannot go on after the restart: {exc}"[:500]
                log.warning("match %s: %s", record.match_id, reason)
                record.status, record.reason = "failed", reason
                await anyio.to_thread.run_sync(self.storage.set_status, record.match_id, "failed", reason)
            self.matches[record.match_id] = match
            self._after_change(match)
        return len(found)

    def _rebuild(self, match: Match, actions: list[str]) -> None:
        record = match.record
        if record.game not in self.games:
            raise KeyError(f"the game '{record.game}' is no longer configured")
        if self._fingerprints[record.game] != record.fingerprint:
            raise OptionError(f"the cardset of '{record.game}' changed since the match began")
        game = self.games.game(record.game, record.players, record.options)
        match.options = dict(game.options)
        if record.status == "playing" or actions:
            game = self.games.game(record.game, record.players, record.options, match.names())
            match.state = game.replay(record.seed, actions)
        match.shown = (match.state.clone() if match.state is not None else None, record.version)

    async def close(self) -> None:
        self.closing = True
        for match in self.matches.values():
            if match.bot_task is not None:
                match.bot_task.cancel()
        self._bot_threads.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ finding matches
    async def get(self, match_id: str) -> Match:
        match = self.matches.get(match_id)
        if match is not None:
            return match
        if not (8 <= len(match_id) <= 64):
            raise ApiError(404, "not-found", "no such match")
        loaded = await anyio.to_thread.run_sync(self.storage.load, match_id)
        if loaded is None:
            raise ApiError(404, "not-found", "no such match")
        record, actions = loaded
        match = Match(record, {})
        try:
            await anyio.to_thread.run_sync(functools.partial(self._rebuild, match, actions))
        except (rulecore.RulecoreError, KeyError) as exc:
            raise ApiError(410, "gone", f"this match can no longer be shown: {exc}"[:300]) from None
        self.matches[match_id] = match
        self._keep_finished(match)
        return match

    def _keep_finished(self, match: Match) -> None:
        if match.record.status in ("finished", "failed"):
            self.finished.append(match.record.match_id)
            while len(self.finished) > FINISHED_KEPT:
                old = self.matches.get(self.finished[0])
                if old is not None and not old.watchers:
                    del self.matches[self.finished[0]]
                self.finished.pop(0)

    # ------------------------------------------------------------------ creating and joining
    def _bot_spec(self, spec: str) -> str:
        """The bot of a seat spec "bot:NAME[:settings]", if this server allows it."""
        name = spec[4:]
        if name in self.config.bots:
            return name
        base, _, settings = name.partition(":")
        if base not in self.config.bots or not settings:
            allowed = ", ".join(self.config.bots)
            raise ApiError(422, "bad-seat", f"unknown bot {name[:60]!r}; this server has: {allowed}")
        for item in settings.split(","):
            key, eq, value = item.partition("=")
            if not eq or not value.strip().lstrip("-").replace(".", "", 1).isdigit() or \
                    not 0 <= float(value) <= BOT_SETTING_MAX:
                raise ApiError(422, "bad-seat", f"bot setting {item[:40]!r} must be key=number, at most "
                                                f"{BOT_SETTING_MAX}")
        try:
            make_bot(name, 0)  # a built-in bot's settings that it does not take are refused here (never module:attr)
        except rulecore.RulecoreError as exc:
            raise ApiError(422, "bad-seat", str(exc)[:300]) from None
        return name

    async def create(self, body: dict[str, Any]) -> Match:
        game_name = body["game"]
        if game_name not in self.games:
            raise ApiError(404, "unknown-game", f"this server has no game {game_name[:60]!r}; "
                                                f"it has: {', '.join(self.games.cardsets)}")
        unfinished = [m for m in self.matches.values() if m.record.status in ("waiting", "playing")]
        if len(unfinished) >= self.config.max_matches:
            unfinished = [m for m in unfinished if not await self._abandon_if_stale(m)]
        if len(unfinished) >= self.config.max_matches:
            raise ApiError(503, "full", "this server has as many matches as it may keep; try again later")
        players, specs = body["players"], body["seats"]
        if len(specs) != players:
            raise ApiError(422, "bad-seats", f"give one seat for each of the {players} players (got {len(specs)})")
        seats = []
        for i, spec in enumerate(specs):
            if spec == "open":
                seats.append(SeatRecord("open"))
            elif spec.startswith("bot:"):
                bot = self._bot_spec(spec)
                seats.append(SeatRecord("bot", bot, f"{bot.partition(':')[0].capitalize()} bot {i + 1}"))
            else:
                raise ApiError(422, "bad-seat", f"seat {i} must be \"open\" or \"bot:NAME\" (got {spec[:40]!r})")
        options = body.get("options", {})
        try:
            game = await anyio.to_thread.run_sync(self.games.game, game_name, players, options)
        except OptionError as exc:
            raise ApiError(422, "bad-options", str(exc)[:300]) from None
        seed = body.get("seed", secrets.randbelow(2 ** 63))
        record = MatchRecord(secrets.token_urlsafe(12), game_name, players, dict(options), seed, seats, time.time(),
                             fingerprint=self._fingerprints[game_name])
        match = Match(record, dict(game.options))
        if all(s.kind == "bot" for s in seats):
            record.status = "playing"
        await anyio.to_thread.run_sync(self.storage.create_match, record)
        self.matches[record.match_id] = match
        if record.status == "playing":
            await self._start(match)
        return match

    async def _abandon_if_stale(self, match: Match) -> bool:
        """A match still waiting for people after ``config.waiting_seconds`` gives its place up (it fails)."""
        record = match.record
        if record.status != "waiting" or time.time() - record.created < self.config.waiting_seconds:
            return False
        async with match.lock:
            if record.status != "waiting":
                return False
            record.status, record.reason = "failed", "nobody took the open seats in time"
            await anyio.to_thread.run_sync(self.storage.set_status, record.match_id, "failed", record.reason)
        self._keep_finished(match)
        self._after_change(match)
        return True

    async def join(self, match: Match, seat: int, name: str) -> str:
        async with match.lock:
            record = match.record
            if not 0 <= seat < record.players:
                raise ApiError(404, "not-found", f"no seat {seat} in this match (seats 0 to {record.players - 1})")
            spot = record.seats[seat]
            if spot.kind != "open":
                raise ApiError(409, "seat-taken", f"seat {seat} is a bot's")
            if spot.token_hash is not None:
                raise ApiError(409, "seat-taken", f"seat {seat} is taken")
            known = [s.name for s in record.seats if s.name is not None] + [name]
            try:
                self.games.check_names(record.game, len(known), known)
            except OptionError as exc:
                raise ApiError(422, "bad-name", str(exc).replace("player_names", "names")[:300]) from None
            token = secrets.token_urlsafe(32)
            digest = token_hash(token)
            full = all(s.token_hash is not None or s.kind == "bot" for i, s in enumerate(record.seats) if i != seat)
            status = "playing" if full else "waiting"
            try:
                await anyio.to_thread.run_sync(self.storage.take_seat, record.match_id, seat, name, digest,
                                               record.version + 1, status)
            except StorageConflict:
                raise ApiError(409, "seat-taken", f"seat {seat} is taken") from None
            spot.name, spot.token_hash = name, digest
            record.version += 1
            record.status = status
            if full:
                await self._start(match, locked=True)
            else:
                match.shown = (match.shown[0], record.version)
        self._after_change(match)
        return token

    async def _start(self, match: Match, locked: bool = False) -> None:
        record = match.record

        def start() -> None:
            game = self.games.game(record.game, record.players, record.options, match.names())
            match.state = game.new_game(record.seed)
            match.shown = (match.state.clone(), record.version)

        try:
            await anyio.to_thread.run_sync(start)
        except RuleError as exc:
            record.status, record.reason = "failed", f"the game could not be set up: {exc}"[:500]
            await anyio.to_thread.run_sync(self.storage.set_status, record.match_id, "failed", record.reason)
        if not locked:
            self._after_change(match)

    # ------------------------------------------------------------------ acting
    async def act(self, match: Match, token: str | None, action: Any, version: int) -> str:
        if not token:
            raise ApiError(401, "no-token", "send the seat's token: Authorization: Bearer TOKEN")
        async with match.lock:
            seat = match.seat_of(token)
            if seat is None:
                raise ApiError(401, "bad-token", "this token is not a seat of this match")
            record = match.record
            if record.status != "playing" or match.state is None:
                raise ApiError(409, "not-playing", f"the match is {record.status}, not playing")
            if version != record.version:
                raise ApiError(409, "stale", f"the match has changed (version {record.version}, not {version})",
                               version=record.version)
            if match.state.current_player != seat:
                raise ApiError(403, "not-your-turn", f"seat {seat} is not deciding now")
            chosen = self._resolve(match.state, action)
            await self._commit(match, seat, chosen)
        self._after_change(match)
        return chosen

    @staticmethod
    def _resolve(state: rulecore.State, action: Any) -> str:
        legal = state.legal_actions()
        if type(action) is int:
            if 0 <= action < len(legal):
                return legal[action]
        elif action in legal:
            return str(action)
        shown = ", ".join(repr(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
        raise ApiError(422, "illegal", f"{str(action)[:60]!r} is not an option now; the options are: {shown}")

    async def _commit(self, match: Match, seat: int, action: str) -> None:
        """Apply ``action`` and commit it to storage before anything is acknowledged (the state is put back
        if the commit fails). Called with the match's lock held."""
        record = match.record
        state = match.state
        assert state is not None

        def commit() -> None:
            before = state.clone()
            state.apply(action)  # atomic: a RuleError leaves the state as it was
            status = "finished" if state.is_terminal() else "playing"
            try:
                self.storage.append_action(record.match_id, len(state.history) - 1, seat, action,
                                           record.version + 1, status)
            except BaseException:
                match.state = before
                raise
            record.version += 1
            record.status = status
            match.shown = (state.clone(), record.version)

        try:
            await anyio.to_thread.run_sync(commit)
        except RuleError as exc:
            raise ApiError(422, "rule-error", f"the rules could not carry this out: {exc}"[:500]) from None
        except StorageConflict:
            raise ApiError(409, "stale", "another server committed this action first") from None
        if record.status == "finished":
            self._keep_finished(match)
            self.pool.forget(record.match_id)

    # ------------------------------------------------------------------ bots and watchers
    def _after_change(self, match: Match) -> None:
        for event in match.watchers:
            event.set()
        state = match.shown[0]
        if self.closing or match.record.status != "playing" or state is None or state.is_terminal():
            return
        seat = match.record.seats[state.current_player] if state.current_player is not None else None
        if seat is not None and seat.kind == "bot" and (match.bot_task is None or match.bot_task.done()):
            match.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(match))

    async def _bot_turn(self, match: Match) -> None:
        record = match.record
        state, version = match.shown
        if state is None or state.current_player is None:
            return
        seat = state.current_player
        spec = record.seats[seat].bot or "random"
        job = BotJob(record.match_id, record.game, record.players, record.options, tuple(match.names()),
                     record.seed, tuple(state.history), seat, spec)
        if any(s.kind == "open" for s in record.seats):
            await asyncio.sleep(self.config.bot_pause)  # people at the table see the bots' moves one by one
        try:
            action = await asyncio.get_running_loop().run_in_executor(self._bot_threads, self.pool.decide, job)
        except (BotTimeout, BotFailed) as exc:
            legal = state.legal_actions()
            action = random.Random(f"{record.seed}:{len(state.history)}").choice(legal)
            log.warning("match %s seat %d (%s): %s; it plays %r instead", record.match_id, seat, spec, exc, action)
        except RuntimeError:  # the executor is shut down: the server is stopping
            return
        async with match.lock:
            if record.version != version or record.status != "playing":
                return
            try:
                await self._commit(match, seat, action)
            except ApiError as exc:
                log.warning("match %s: the bot's action failed: %s", record.match_id, exc.message)
                record.status, record.reason = "failed", exc.message
                await anyio.to_thread.run_sync(self.storage.set_status, record.match_id, "failed", exc.message)
        match.bot_task = None
        self._after_change(match)

    @staticmethod
    def watch(match: Match) -> asyncio.Event:
        """An event set now and after every change of the match, until ``unwatch``."""
        event = asyncio.Event()
        match.watchers.add(event)
        event.set()
        return event

    @staticmethod
    def unwatch(match: Match, event: asyncio.Event) -> None:
        match.watchers.discard(event)
