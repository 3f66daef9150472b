"""Run many bot-vs-bot games of a cardset and aggregate balance statistics.

Determinism: game ``i`` of a run is played with game seed ``seed + i`` and each
seat's bot is seeded with :func:`bot_seed` of that game seed and the seat, so a
run's results (everything except the timing fields) depend only on the
arguments, never on the number of workers, the backend or scheduling.

Parallelism: ``backend="local"`` uses a spawn-safe process pool of ``workers``
processes (default: every core); each worker loads the cardset once, in the
pool initializer. ``backend="ray"`` and ``backend="dask"`` hand the same chunks
of games to an installed distributed engine (imported lazily; a clear
:class:`rulecore.RulecoreError` is raised when it is missing; extras
``rulecore[ray]`` and ``rulecore[dask]``). ``dask`` runs on Dask's distributed
scheduler: the ``distributed.Client`` this process is connected to, or else a
``LocalCluster`` of ``workers`` processes started for the run and closed after it
(Dask's default threaded scheduler would run the games in one process).

May import: rulecore.bots and rulecore's public API (engine and below); never cli.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import multiprocessing
import os
import pickle
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import rulecore
from rulecore.bots import BOT_NAMES, GameState, make_bot

__all__ = [
    "BACKENDS",
    "CardStats",
    "GameRecord",
    "SimulationError",
    "SimulationResult",
    "bot_seed",
    "simulate",
]

Backend = Literal["local", "ray", "dask"]
#: Backends accepted by :func:`simulate`.
BACKENDS: tuple[str, ...] = ("local", "ray", "dask")
#: A game still running after this many decisions is stopped and counted as unfinished
#: (bots can find loops that the rules allow, e.g. an ability that gives a card back).
DEFAULT_MAX_DECISIONS = 10_000

ProgressCallback = Callable[[int, int], None]


class SimState(GameState, Protocol):
    @property
    def history(self) -> Sequence[str]: ...

    def result(self) -> Mapping[str, Any]: ...


class SimGame(Protocol):
    def new_game(self, seed: int) -> SimState: ...


GameFactory = Callable[[Any, int, Mapping[str, Any]], SimGame]


class SimulationError(rulecore.RulecoreError):
    """A simulated game failed; carries what is needed to replay it."""

    def __init__(
        self,
        message: str,
        *,
        game_index: int,
        seed: int,
        actions: Sequence[str] = (),
        cause: str = "",
    ) -> None:
        super().__init__(message)
        self.game_index = game_index
        self.seed = seed
        self.actions = list(actions)
        self.cause = cause

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across processes
        return (
            _rebuild_simulation_error,
            (str(self), self.game_index, self.seed, self.actions, self.cause),
        )


def _rebuild_simulation_error(
    message: str, game_index: int, seed: int, actions: list[str], cause: str
) -> SimulationError:
    return SimulationError(
        message, game_index=game_index, seed=seed, actions=actions, cause=cause
    )


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one simulated game."""

    index: int
    seed: int
    winners: tuple[int, ...]
    totals: tuple[float, ...] | None
    rounds: int | None  # None: the game has no rounds (its result says 0 or nothing)
    decisions: int
    finished: bool = True  # False: stopped at the decision limit (no winners, totals, rounds)
    #: ``(card type, uses per seat)`` pairs sorted by card type, from ``result()["card_uses"]``;
    #: None when the game does not report card uses (or did not finish).
    card_uses: tuple[tuple[str, tuple[int, ...]], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "winners": list(self.winners),
            "totals": None if self.totals is None else list(self.totals),
            "rounds": self.rounds,
            "decisions": self.decisions,
            "finished": self.finished,
            "card_uses": None
            if self.card_uses is None
            else {card: list(uses) for card, uses in self.card_uses},
        }


@dataclass(frozen=True)
class CardStats:
    """How one card type was used over the games that report card uses.

    ``uses_per_game``: abilities of the card used, by all seats, per game.
    ``used_share``: share of games in which some seat used it.
    ``win_rate_when_used``: over every (game, seat) where that seat used the card,
    how often that seat won the game. ``usual_win_rate``: the same seats' overall
    win rates (over the same games), weighted the same way -- the rate to expect
    if using the card made no difference; compare the two.
    """

    card: str
    uses_per_game: float
    used_share: float
    games_used: int  # games in which some seat used it
    seat_games_used: int  # (game, seat) pairs in which that seat used it
    win_rate_when_used: float
    usual_win_rate: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "uses_per_game": self.uses_per_game,
            "used_share": self.used_share,
            "games_used": self.games_used,
            "seat_games_used": self.seat_games_used,
            "win_rate_when_used": self.win_rate_when_used,
            "usual_win_rate": self.usual_win_rate,
        }


def _card_stats(records: Sequence[GameRecord], players: int) -> tuple[CardStats, ...]:
    tracked = [r for r in records if r.card_uses is not None]
    if not tracked:
        return ()
    seat_wins = [0] * players
    for record in tracked:
        for seat in record.winners:
            seat_wins[seat] += 1
    seat_rate = [w / len(tracked) for w in seat_wins]
    total: dict[str, int] = {}
    games_used: dict[str, int] = {}
    pairs: dict[str, int] = {}
    pair_wins: dict[str, int] = {}
    expected: dict[str, float] = {}
    for record in tracked:
        for card, uses in record.card_uses or ():
            total[card] = total.get(card, 0) + sum(uses)
            if any(uses):
                games_used[card] = games_used.get(card, 0) + 1
            for seat, count in enumerate(uses):
                if count > 0 and seat < players:
                    pairs[card] = pairs.get(card, 0) + 1
                    pair_wins[card] = pair_wins.get(card, 0) + (seat in record.winners)
                    expected[card] = expected.get(card, 0.0) + seat_rate[seat]
    stats = [
        CardStats(
            card=card,
            uses_per_game=total[card] / len(tracked),
            used_share=games_used.get(card, 0) / len(tracked),
            games_used=games_used.get(card, 0),
            seat_games_used=pairs.get(card, 0),
            win_rate_when_used=pair_wins.get(card, 0) / pairs[card] if pairs.get(card) else 0.0,
            usual_win_rate=expected.get(card, 0.0) / pairs[card] if pairs.get(card) else 0.0,
        )
        for card in total
    ]
    stats.sort(key=lambda c: (-c.uses_per_game, c.card))
    return tuple(stats)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class SimulationResult:
    """Aggregated results of :func:`simulate`.

    ``wins[s]`` counts every game seat ``s`` won; a tied game counts as a win
    for *every* tied winner (as ``returns()`` does), so wins can add up to more
    than ``games``; ``ties`` says how many games were tied and ``no_winner``
    how many finished games had no winner at all (e.g. a lost cooperative
    game). ``unfinished`` games hit the ``max_decisions`` limit; they count in
    ``games`` (so in win rates) but have no winners, totals or rounds and are
    left out of ``mean_decisions`` and ``card_stats``.

    ``options`` are the options given; ``options_in_force`` every option the
    game was played with, defaults included (the game's own ``options``).
    """

    cardset: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: Mapping[str, Any]
    records: tuple[GameRecord, ...]
    max_decisions: int = DEFAULT_MAX_DECISIONS
    wall_time: float = field(default=0.0, compare=False)
    options_in_force: Mapping[str, Any] = field(default_factory=dict)
    #: what the game calls a round ('hand', 'deal'; flow.rounds.label), for tables
    round_label: str = "round"

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> tuple[int, ...]:
        counts = [0] * self.players
        for record in self.records:
            for seat in record.winners:
                counts[seat] += 1
        return tuple(counts)

    @property
    def win_rates(self) -> tuple[float, ...]:
        return tuple(w / self.games if self.games else 0.0 for w in self.wins)

    @property
    def ties(self) -> int:
        return sum(1 for r in self.records if len(r.winners) > 1)

    @property
    def no_winner(self) -> int:
        return sum(1 for r in self.records if r.finished and not r.winners)

    @property
    def unfinished(self) -> int:
        return sum(1 for r in self.records if not r.finished)

    @property
    def cooperative(self) -> bool:
        """True when every finished game was won by all seats or by none (and one finished).

        Read from the records, not the rules: in such games the seats win or lose
        together, so per-seat win rates say nothing about seat advantages.
        """
        finished = [r for r in self.records if r.finished]
        everyone = set(range(self.players))
        return self.players > 1 and bool(finished) and all(
            not r.winners or set(r.winners) == everyone for r in finished
        )

    @property
    def team_win_rate(self) -> float | None:
        """Share of games that all seats won together, for a cooperative run; else None."""
        if not self.cooperative or not self.games:
            return None
        return sum(1 for r in self.records if r.finished and r.winners) / self.games

    @property
    def card_stats(self) -> tuple[CardStats, ...]:
        """Per-card statistics, most used first; empty if no game reports card uses."""
        return _card_stats(self.records, self.players)

    @property
    def mean_totals(self) -> tuple[float, ...] | None:
        """Mean final total per seat over games that report totals, else None."""
        scored = [r.totals for r in self.records if r.totals is not None]
        if not scored:
            return None
        return tuple(sum(t[s] for t in scored) / len(scored) for s in range(self.players))

    @property
    def mean_rounds(self) -> float | None:
        return _mean([r.rounds for r in self.records if r.rounds is not None])

    @property
    def mean_decisions(self) -> float:
        """Mean decisions per finished game (per game if none finished)."""
        finished = [r.decisions for r in self.records if r.finished]
        return _mean(finished or [r.decisions for r in self.records]) or 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.wall_time if self.wall_time > 0 else 0.0

    def to_dict(self, *, include_timings: bool = False, include_records: bool = True) -> dict[str, Any]:
        """A JSON-serialisable summary; deterministic unless ``include_timings``."""
        mean_totals = self.mean_totals
        data: dict[str, Any] = {
            "cardset": self.cardset,
            "players": self.players,
            "seed": self.seed,
            "bots": list(self.bots),
            "options": dict(self.options),
            "options_in_force": dict(self.options_in_force),
            "games": self.games,
            "wins": list(self.wins),
            "win_rates": list(self.win_rates),
            "ties": self.ties,
            "ties_counted_as": "a win for every tied winner",
            "no_winner": self.no_winner,
            "unfinished": self.unfinished,
            "max_decisions": self.max_decisions,
            "mean_totals": None if mean_totals is None else list(mean_totals),
            "mean_rounds": self.mean_rounds,
            "round_label": self.round_label,
            "mean_decisions": self.mean_decisions,
            "cooperative": self.cooperative,
            "team_win_rate": self.team_win_rate,
            "card_stats": [c.to_dict() for c in self.card_stats],
        }
        if include_records:
            data["records"] = [r.to_dict() for r in self.records]
        if include_timings:
            data["wall_time"] = self.wall_time
            data["games_per_second"] = self.games_per_second
        return data


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game played with ``game_seed``."""
    digest = hashlib.blake2b(f"rulecore-bot:{game_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _default_factory(cardset: Any, players: int, options: Mapping[str, Any], roots: tuple[str, ...] = ()) -> SimGame:
    loaded = rulecore.load_cardset(cardset, roots=roots) if roots else rulecore.load_cardset(cardset)
    return rulecore.Game(loaded, players=players, options=dict(options), record_events=False)


@dataclass(frozen=True)
class _Job:
    cardset: Any
    players: int
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    seed: int
    max_decisions: int
    factory: GameFactory


@dataclass(frozen=True)
class _Failure:
    index: int
    seed: int
    message: str
    cause: str
    actions: tuple[str, ...]

    def error(self) -> SimulationError:
        return SimulationError(
            f"game {self.index} (seed {self.seed}) failed after {len(self.actions)} "
            f"decisions: {self.message}",
            game_index=self.index,
            seed=self.seed,
            actions=self.actions,
            cause=self.cause,
        )


_Outcome = GameRecord | _Failure


def _pickled(job: _Job) -> bytes:
    """The job as bytes for other processes; a clear error if it cannot travel."""
    try:
        return pickle.dumps(job)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise rulecore.RulecoreError(
            f"cannot send this simulation to worker processes ({exc}); the cardset "
            f"reference, options and game_factory must be picklable (a module-level "
            f"function, not a lambda), or run with workers=1"
        ) from exc


def _build_game(job: _Job) -> SimGame:
    return job.factory(job.cardset, job.players, job.options)


@functools.lru_cache(maxsize=4)
def _cached_game(blob: bytes) -> tuple[_Job, SimGame]:
    """Per-process cache: each worker builds the game (loads the cardset) once."""
    job: _Job = pickle.loads(blob)
    return job, _build_game(job)


def _init_worker(blob: bytes) -> None:
    _cached_game(blob)


def _play_one(game: SimGame, job: _Job, index: int) -> _Outcome:
    seed = job.seed + index
    state: SimState | None = None
    try:
        state = game.new_game(seed=seed)
        bots = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(job.bots)]
        decisions = 0
        # a rulecore Game refuses actions past its action_limit: such a game is unfinished, as at max_decisions
        limit = getattr(game, "action_limit", None)
        stop = job.max_decisions if limit is None else min(job.max_decisions, limit - len(state.history))
        while not state.is_terminal():
            if decisions >= stop:
                return GameRecord(
                    index=index,
                    seed=seed,
                    winners=(),
                    totals=None,
                    rounds=None,
                    decisions=len(state.history),
                    finished=False,
                )
            seat = state.current_player
            if seat is None:
                raise rulecore.RulecoreError("no seat to move in an unfinished game")
            state.apply(bots[seat].choose(state))
            decisions += 1
        result = state.result()
        winners = result.get("winners")
        if winners is None:
            winners = [s for s, r in enumerate(state.returns()) if r >= 1.0]
        totals = result.get("totals")
        rounds = result.get("rounds")
        uses = result.get("card_uses")
        if uses is not None:  # every card type in play, those nobody used (or that have no ability) too
            uses = {**{t: [0] * job.players for t in _card_types(game)}, **uses}
        return GameRecord(
            index=index,
            seed=seed,
            winners=tuple(int(w) for w in winners),
            totals=None if totals is None else tuple(totals),
            rounds=int(rounds) if rounds else None,  # 0: a game without rounds
            decisions=len(state.history),
            card_uses=None
            if uses is None
            else tuple(sorted((str(c), tuple(int(n) for n in v)) for c, v in uses.items())),
        )
    except rulecore.RulecoreError as exc:
        actions = tuple(state.history) if state is not None else ()
        return _Failure(index, seed, f"{type(exc).__name__}: {exc}", type(exc).__name__, actions)


def _card_types(game: SimGame) -> tuple[str, ...]:
    """The card types in play in a rulecore game (after include_if), in the cardset's order; () for others."""
    types = getattr(getattr(game, "rules", None), "instance_type", None)  # a rulecore Game's, or a stand-in's
    return tuple(dict.fromkeys(types)) if isinstance(types, tuple) else ()


def _play_chunk(game: SimGame, job: _Job, indices: Sequence[int]) -> list[_Outcome]:
    out: list[_Outcome] = []
    for index in indices:
        outcome = _play_one(game, job, index)
        out.append(outcome)
        if isinstance(outcome, _Failure):
            break
    return out


def _run_chunk_blob(blob: bytes, indices: Sequence[int]) -> list[_Outcome]:
    """Task body for worker processes and distributed backends."""
    job, game = _cached_game(blob)
    return _play_chunk(game, job, indices)


def _chunks(games: int, size: int) -> list[range]:
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def _resolve_bots(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    names = tuple(b.strip() for b in ((bots,) if isinstance(bots, str) else bots))
    if not names:
        names = ("random",)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise rulecore.RulecoreError(
            f"{len(names)} bots given for {players} players; give one bot for every "
            f"seat or a single bot for all of them"
        )
    for name in names:
        if name not in BOT_NAMES:
            make_bot(name, 0)  # raises the error listing the valid names
    return names


def _resolve_cardset(cardset: Any) -> Any:
    """Make a cardset path absolute (workers may run elsewhere); keep built-in names."""
    if isinstance(cardset, os.PathLike):
        return os.path.abspath(os.fspath(cardset))
    if isinstance(cardset, str):
        try:
            builtin = set(rulecore.builtin_cardsets())
        except Exception:  # engine without built-ins: treat as a path if it exists
            builtin = set()
        if cardset not in builtin and os.path.exists(cardset):
            return os.path.abspath(cardset)
    return cardset


def _report(progress: ProgressCallback | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def _run_local_inprocess(
    game: SimGame, job: _Job, games: int, progress: ProgressCallback | None
) -> Iterator[_Outcome]:
    for index in range(games):
        outcome = _play_one(game, job, index)
        yield outcome
        if isinstance(outcome, _Failure):
            return
        _report(progress, index + 1, games)


def _terminate_workers(executor: ProcessPoolExecutor) -> None:
    """Stop worker processes now (on Ctrl-C) instead of letting queued chunks finish."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14+
    if callable(terminate):
        terminate()
        return
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


def _run_local_pool(
    blob: bytes, games: int, workers: int, progress: ProgressCallback | None
) -> list[_Outcome]:
    # small chunks: smooth progress, quick stop on Ctrl-C, little per-task overhead
    size = max(1, min(32, math.ceil(games / (workers * 32))))
    chunks = _chunks(games, size)
    results: dict[int, list[_Outcome]] = {}
    done_games = 0
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(blob,)
    )
    failed = False
    try:
        futures: dict[Future[list[_Outcome]], int] = {
            executor.submit(_run_chunk_blob, blob, chunk): i for i, chunk in enumerate(chunks)
        }
        pending = set(futures)
        while pending and not failed:
            done, pending = wait(pending, return_when=FIRST_EXCEPTION, timeout=0.25)
            for future in done:
                outcomes = future.result()
                results[futures[future]] = outcomes
                if any(isinstance(o, _Failure) for o in outcomes):
                    failed = True
                else:
                    done_games += len(outcomes)
            # at least every quarter second, and never while a lock of the pool is held:
            # the place where a caller's progress callback may stop the run by raising
            _report(progress, done_games, games)
        if failed:
            # Chunks are queued in order, so every chunk before the failing one has
            # started and is not cancelled: the lowest failure found is deterministic.
            executor.shutdown(wait=True, cancel_futures=True)
            for future, i in futures.items():
                if future.done() and not future.cancelled() and i not in results:
                    results[i] = future.result()
    except KeyboardInterrupt:
        _terminate_workers(executor)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    ordered: list[_Outcome] = []
    for i in sorted(results):
        ordered.extend(results[i])
    return ordered


def _import_backend(module: str, backend: str | None = None) -> Any:
    backend = backend or module
    try:
        return __import__(module)
    except ImportError as exc:
        raise rulecore.RulecoreError(
            f"backend {backend!r} needs the optional package {module!r}, which is not "
            f"installed (pip install {backend} or pip install 'rulecore[{backend}]'); "
            f"or use backend='local'"
        ) from exc


def _run_ray(blob: bytes, games: int, progress: ProgressCallback | None) -> list[_Outcome]:
    ray = _import_backend("ray")
    if not ray.is_initialized():
        ray.init()
    task = ray.remote(_run_chunk_blob)
    chunks = _chunks(games, max(1, min(256, math.ceil(games / 256))))
    refs = [task.remote(blob, list(chunk)) for chunk in chunks]
    outcomes: list[_Outcome] = []
    done = 0
    for ref in refs:  # in order: the first failure found is the lowest-index one
        chunk_out: list[_Outcome] = ray.get(ref)
        outcomes.extend(chunk_out)
        if any(isinstance(o, _Failure) for o in chunk_out):
            for rest in refs[refs.index(ref) + 1 :]:
                ray.cancel(rest)
            break
        done += len(chunk_out)
        _report(progress, done, games)
    return outcomes


def _run_dask(
    blob: bytes, games: int, progress: ProgressCallback | None, workers: int | None = None
) -> list[_Outcome]:
    """Chunks of games as tasks on Dask's distributed scheduler: the Client this process is
    connected to, or else a LocalCluster of ``workers`` processes (default: every core)
    started for this run and closed after it."""
    distributed = _import_backend("distributed", "dask")
    cluster = None
    try:
        client = distributed.get_client()
    except ValueError:  # no client connected: a cluster of local worker processes
        cluster = distributed.LocalCluster(
            n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True
        )
        client = distributed.Client(cluster)
    try:
        chunks = _chunks(games, max(1, min(256, math.ceil(games / 256))))
        data = client.scatter(blob, broadcast=True)
        futures = [client.submit(_run_chunk_blob, data, list(chunk), pure=False) for chunk in chunks]
        position = {id(f): i for i, f in enumerate(futures)}
        per_chunk: dict[int, list[_Outcome]] = {}
        failed_at: int | None = None
        done = 0
        for future in distributed.as_completed(futures):
            i = position[id(future)]
            if failed_at is not None and i > failed_at:
                continue  # after a failing chunk: not needed (cancelled)
            chunk_out: list[_Outcome] = future.result()
            per_chunk[i] = chunk_out
            if any(isinstance(o, _Failure) for o in chunk_out):
                # the lowest failing game is reported: chunks before this one still count
                failed_at = i if failed_at is None else min(failed_at, i)
                for later in futures[failed_at + 1 :]:
                    later.cancel()
                continue
            done += len(chunk_out)
            _report(progress, done, games)
        return [o for i in sorted(per_chunk) for o in per_chunk[i]]
    finally:
        if cluster is not None:
            client.close()
            cluster.close()


def simulate(
    cardset: str | os.PathLike[str],
    games: int,
    players: int,
    seed: int = 0,
    bots: str | Sequence[str] = ("random",),
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    progress: ProgressCallback | None = None,
    *,
    backend: Backend = "local",
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    game_factory: GameFactory | None = None,
    roots: Sequence[str | os.PathLike[str]] = (),
) -> SimulationResult:
    """Play ``games`` games of ``cardset`` between bots and aggregate the results.

    ``cardset`` is a built-in cardset name or a path to a cardset YAML (with a
    distributed backend a path must exist on the workers). ``bots`` names one
    bot per seat, or a single bot for every seat (see
    :data:`rulecore.bots.BOT_NAMES`, or ``module:attr`` for a bot of your own:
    see :func:`rulecore.bots.make_bot`). Game ``i`` uses seed ``seed + i``.
    ``workers`` (local backend only) defaults to ``os.cpu_count()``; ``1`` runs
    in this process. ``progress(done, total)`` is called as games finish (with a local
    pool also at least every quarter second); it may raise, e.g. KeyboardInterrupt, to
    stop the run: the worker processes are then stopped before the exception goes on.
    ``game_factory(cardset, players, options)`` replaces the default
    ``rulecore.Game(rulecore.load_cardset(cardset), players=..., options=...)``;
    for worker processes it must be picklable (a module-level function).
    ``roots`` are folders the default factory's ``load_cardset`` may read besides the
    cardset's own folder tree (see ``rulecore.load_cardset``).

    Raises :class:`rulecore.RulecoreError` for bad arguments, cardsets or options,
    and :class:`SimulationError` (a subclass) if a game fails; it names the
    lowest failing game, its seed and the actions played so it can be replayed.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise rulecore.RulecoreError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise rulecore.RulecoreError(f"seed must be an integer, got {seed!r}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise rulecore.RulecoreError(f"players must be an integer, got {players!r}")
    if backend not in BACKENDS:
        raise rulecore.RulecoreError(
            f"unknown backend {backend!r}; valid backends are: {', '.join(BACKENDS)}"
        )
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise rulecore.RulecoreError(f"workers must be a positive integer, got {workers!r}")
    if max_decisions < 1:
        raise rulecore.RulecoreError(f"max_decisions must be >= 1, got {max_decisions!r}")

    job = _Job(
        cardset=_resolve_cardset(cardset),
        players=players,
        options=dict(options or {}),
        bots=(),
        seed=seed,
        max_decisions=max_decisions,
        factory=game_factory or (functools.partial(_default_factory, roots=tuple(os.path.abspath(r) for r in roots))
                                 if roots else _default_factory),
    )
    # Build once here: bad cardsets, player counts and options fail fast and cleanly,
    # before the bots are matched to the seats (a bad player count is not a bot problem).
    game = _build_game(job)
    job = dataclasses.replace(job, bots=_resolve_bots(bots, players))
    game_cardset = getattr(game, "cardset", None)
    name = getattr(game_cardset, "name", None) or str(cardset)
    in_force = getattr(game, "options", None)
    in_force = dict(in_force) if isinstance(in_force, Mapping) else dict(job.options)

    started = time.perf_counter()
    _report(progress, 0, games)
    outcomes: list[_Outcome]
    if backend == "local":
        count = min(workers or os.cpu_count() or 1, games)
        if count <= 1:
            outcomes = list(_run_local_inprocess(game, job, games, progress))
        else:
            try:
                outcomes = _run_local_pool(_pickled(job), games, count, progress)
            except BrokenProcessPool as exc:
                raise rulecore.RulecoreError(
                    "a simulation worker process died. Workers are started with 'spawn', "
                    "so a script that calls simulate() must guard its entry point with "
                    "`if __name__ == '__main__':` (and cannot be read from stdin); "
                    "or run with workers=1"
                ) from exc
    elif backend == "ray":
        outcomes = _run_ray(_pickled(job), games, progress)
    else:
        outcomes = _run_dask(_pickled(job), games, progress, workers)
    wall = time.perf_counter() - started

    failures = [o for o in outcomes if isinstance(o, _Failure)]
    if failures:
        raise min(failures, key=lambda f: f.index).error()
    records = tuple(sorted((o for o in outcomes if isinstance(o, GameRecord)), key=lambda r: r.index))
    if len(records) != games:  # pragma: no cover - defensive
        raise rulecore.RulecoreError(f"simulation lost games: {len(records)} of {games} finished")
    return SimulationResult(
        cardset=str(name),
        players=players,
        seed=seed,
        bots=job.bots,
        options=dict(job.options),
        records=records,
        max_decisions=max_decisions,
        wall_time=wall,
        options_in_force=in_force,
        round_label=str(getattr(game_cardset, "round_label", None) or "round"),
    )
