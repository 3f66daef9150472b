"""``simulate``: check the arguments, build the game once (bad cardsets, player counts and options
fail here, cleanly), seat the bots, hand the games to a backend and count their records as they
arrive (a ``Tally``) into a ``SimulationResult``, or raise the lowest failing game as a
``SimulationError``."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal

import rulecore
from rulecore.bots import BOT_NAMES, make_bot

from .backends import ProgressCallback, report, run_dask, run_local_inprocess, run_local_pool, run_ray
from .games import Failure, GameFactory, Job, Outcome, build_game, default_factory, pickled
from .results import DEFAULT_MAX_DECISIONS, GameRecord, SimulationResult, Tally

Backend = Literal["local", "ray", "dask"]
#: Backends accepted by :func:`simulate`.
BACKENDS: tuple[str, ...] = ("local", "ray", "dask")


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
    keep_records: bool = False,
    on_record: Callable[[GameRecord], None] | None = None,
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

    The games are counted as they finish (in game order) and their records dropped, so
    memory stays flat at any number of games. ``on_record(record)`` is called with each
    game's :class:`GameRecord`, in game order (e.g. to write them to a file as they
    come); ``keep_records=True`` also keeps them all in ``result.records`` (memory grows
    with the games).

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

    job = Job(
        cardset=_resolve_cardset(cardset),
        players=players,
        options=dict(options or {}),
        bots=(),
        seed=seed,
        max_decisions=max_decisions,
        factory=game_factory or (functools.partial(default_factory, roots=tuple(os.path.abspath(r) for r in roots))
                                 if roots else default_factory),
    )
    # Build once here: bad cardsets, player counts and options fail fast and cleanly,
    # before the bots are matched to the seats (a bad player count is not a bot problem).
    game = build_game(job)
    job = dataclasses.replace(job, bots=_resolve_bots(bots, players))
    game_cardset = getattr(game, "cardset", None)
    name = getattr(game_cardset, "name", None) or str(cardset)
    in_force = getattr(game, "options", None)
    in_force = dict(in_force) if isinstance(in_force, Mapping) else dict(job.options)

    started = time.perf_counter()
    report(progress, 0, games)
    outcomes: Generator[Outcome, None, None]
    if backend == "local":
        count = min(workers or os.cpu_count() or 1, games)
        if count <= 1:
            outcomes = run_local_inprocess(game, job, games, progress)
        else:
            outcomes = run_local_pool(pickled(job), games, count, progress)
    elif backend == "ray":
        outcomes = run_ray(pickled(job), games, progress)
    else:
        outcomes = run_dask(pickled(job), games, progress, workers)
    tally = Tally(players)
    kept: list[GameRecord] = []
    with contextlib.closing(outcomes):
        try:
            for outcome in outcomes:  # in game order, up to the first failure
                if isinstance(outcome, Failure):
                    raise outcome.error()
                tally.add(outcome)
                if keep_records:
                    kept.append(outcome)
                if on_record is not None:
                    on_record(outcome)
        except BrokenProcessPool as exc:
            raise rulecore.RulecoreError(
                "a simulation worker process died. Workers are started with 'spawn', "
                "so a script that calls simulate() must guard its entry point with "
                "`if __name__ == '__main__':` (and cannot be read from stdin); "
                "or run with workers=1"
            ) from exc
    wall = time.perf_counter() - started
    if tally.games != games:  # pragma: no cover - defensive
        raise rulecore.RulecoreError(f"simulation lost games: {tally.games} of {games} finished")
    return SimulationResult(
        cardset=str(name),
        players=players,
        seed=seed,
        bots=job.bots,
        options=dict(job.options),
        records=tuple(kept),
        max_decisions=max_decisions,
        wall_time=wall,
        options_in_force=in_force,
        round_label=str(getattr(game_cardset, "round_label", None) or "round"),
        summary=tally.summary(),
    )


def _resolve_bots(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    """One bot name per seat (a single name fills every seat); an error naming the valid bots."""
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
            make_bot(name, 0, user_bots=True)  # raises the error listing the valid names
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
