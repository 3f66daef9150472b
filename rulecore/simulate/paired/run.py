"""``compare``: play the same games (paired seeds) on a base and a variant side and compare the figures.

A side is a cardset, its options and its bots; the two sides differ in one or more of them. Game
``i`` of both sides is played with seed ``seed + i`` and the same bot seeds, so chance is the same
on both sides and the difference is measured with far less noise than two separate runs.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import rulecore
from rulecore.cardset.explain import best_total

from .figures import Figure, Layout, PairedTally, figures, look_level, need_numpy
from .games import Measured, PairJob, PairOutcome
from .pool import PairRunner, has_failure, worker_count
from ..games import Failure, Job, SimGame, build_game, default_factory
from ..results import DEFAULT_MAX_DECISIONS
from ..runner import BACKENDS, _resolve_bots, _resolve_cardset

#: Figures ``--until-clear`` waits for unless told otherwise: who wins.
DEFAULT_WATCH = ("win_rate", "team_win_rate")

#: ``progress(tally, total)``: called in this process as paired games arrive (it may raise to stop).
CompareProgress = Callable[[PairedTally, int], None]


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a cardset, the options given and the bot of every seat."""

    cardset: Any
    options: Mapping[str, Any]
    bots: tuple[str, ...]

    def label(self, other: Side, name: str) -> str:
        """``name``, and what sets this side apart from ``other`` (options, bots)."""
        parts = [name]
        if dict(self.options) != dict(other.options):
            parts.append(", ".join(f"{k}={v}" for k, v in sorted(self.options.items())) or "default options")
        if self.bots != other.bots:
            parts.append("bots " + ",".join(self.bots))
        return parts[0] if len(parts) == 1 else f"{parts[0]} ({'; '.join(parts[1:])})"


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` measured: the figures and the per-game rows they were read from."""

    base: str
    variant: str
    players: int
    seed: int
    games: int  # paired games measured
    budget: int  # games asked for
    figures: tuple[Figure, ...]
    layout: Layout = field(repr=False, compare=False)
    tally: PairedTally = field(repr=False, compare=False)
    best: str | None = None  # 'lowest' | 'highest': which end of the totals wins, when the game says
    #: figures ``--until-clear`` waited for that stayed unclear (empty without --until-clear)
    unclear: tuple[str, ...] = ()
    watched: tuple[str, ...] = ()
    looks: int = 1
    level: float = 0.95  # confidence level of the difference intervals (smaller looks: --until-clear)
    interrupted: bool = False
    wall_time: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The shape of ``rulecore compare --json`` (docs/compare.md names every figure); with ``--until-clear``
        also ``until_clear``: the budget, the looks, their last level, the watched and the unclear figures."""
        out: dict[str, Any] = {"base": self.base, "variant": self.variant, "games": self.games,
                               "figures": [f.to_json() for f in self.figures]}
        if self.watched:
            out["until_clear"] = {"budget": self.budget, "looks": self.looks, "level": self.level,
                                  "watched": list(self.watched), "unclear": list(self.unclear)}
        return out


class ComparisonInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`compare`: carries the :class:`Comparison` of the games measured so far."""

    def __init__(self, partial: Comparison | None) -> None:
        super().__init__("interrupted")
        self.partial = partial


def _check_int(name: str, value: Any, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise rulecore.RulecoreError(f"{name} must be a whole number of at least {least} (got {value!r})")


def _side_job(side: Side, players: int, seed: int, max_decisions: int, roots: tuple[str, ...]) -> Job:
    factory = functools.partial(default_factory, roots=roots) if roots else default_factory
    return Job(cardset=_resolve_cardset(side.cardset), players=players, options=dict(side.options), bots=(),
               seed=seed, max_decisions=max_decisions, factory=factory)


def compare(
    base: str | os.PathLike[str],
    variant: str | os.PathLike[str] | None = None,
    *,
    games: int,
    players: int,
    seed: int = 0,
    bots: str | Sequence[str] = ("random",),
    base_bots: str | Sequence[str] | None = None,
    variant_bots: str | Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    base_options: Mapping[str, Any] | None = None,
    variant_options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    backend: str = "local",
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    until_clear: bool = False,
    batch: int | None = None,
    watch: Sequence[str] = DEFAULT_WATCH,
    alpha: float = 0.05,
    progress: CompareProgress | None = None,
    roots: Sequence[str | os.PathLike[str]] = (),
) -> Comparison:
    """Play ``games`` paired games of ``base`` and ``variant`` and compare their figures.

    ``variant`` is a second cardset (e.g. a file that ``extends:`` the base), or None for the
    same cardset as ``base`` with other options (``variant_options``) or bots (``variant_bots``).
    ``options`` and ``bots`` apply to both sides; ``base_options``/``variant_options`` are merged
    over ``options`` and ``base_bots``/``variant_bots`` replace ``bots`` on one side.
    ``until_clear``: play batches of ``batch`` games (default: a tenth of ``games``) and stop
    early once every figure named in ``watch`` is clear of zero, spending ``alpha`` over the looks
    (docs/compare.md). Ctrl-C raises :class:`ComparisonInterrupted` with the games measured so far.
    Results do not depend on ``workers`` or ``backend``.
    """
    need_numpy()
    _check_int("games", games, 1)
    _check_int("players", players, 1)
    _check_int("seed", seed, -(2**62))
    _check_int("max_decisions", max_decisions, 1)
    if workers is not None:
        _check_int("workers", workers, 1)
    if batch is not None:
        _check_int("batch", batch, 1)
    if backend not in BACKENDS:
        raise rulecore.RulecoreError(f"unknown backend {backend!r}; valid backends are: {', '.join(BACKENDS)}")
    if not 0 < alpha < 1:
        raise rulecore.RulecoreError(f"alpha must be between 0 and 1 (got {alpha!r})")
    shared = dict(options or {})
    sides = (Side(base, {**shared, **dict(base_options or {})}, ()),
             Side(base if variant is None else variant, {**shared, **dict(variant_options or {})}, ()))
    root_paths = tuple(os.path.abspath(r) for r in roots)
    jobs = [_side_job(s, players, seed, max_decisions, root_paths) for s in sides]
    built: list[SimGame] = [build_game(job) for job in jobs]  # bad cardsets, options, player counts fail here
    sides = (dataclasses.replace(sides[0], bots=_resolve_bots(base_bots or bots, players)),
             dataclasses.replace(sides[1], bots=_resolve_bots(variant_bots or bots, players)))
    jobs = [dataclasses.replace(job, bots=side.bots) for job, side in zip(jobs, sides)]
    if jobs[0] == jobs[1]:
        raise rulecore.RulecoreError(
            "the base and the variant are the same game with the same options and bots: give a VARIANT cardset, "
            "variant options or variant bots")
    names = [str(getattr(getattr(g, "cardset", None), "name", None) or s.cardset) for g, s in zip(built, sides)]
    labels = (sides[0].label(sides[1], names[0]), sides[1].label(sides[0], names[1]))
    if labels[0] == labels[1]:
        labels = (f"{labels[0]} (base)", f"{labels[1]} (variant)")
    cardsets = [getattr(g, "cardset", None) for g in built]
    best = best_total(cardsets[0]) if cardsets[0] is not None else None
    cards: list[str] = []
    for game in built:
        types = getattr(getattr(game, "rules", None), "instance_type", None)
        cards += list(types) if isinstance(types, tuple) else []
    layout = Layout(players, tuple(dict.fromkeys(cards)), best)
    tally = PairedTally(layout, games)
    pair = PairJob(jobs[0], jobs[1])
    count = worker_count(backend, workers, games)
    blob = _pickled(pair) if backend != "local" or count > 1 else b""
    step = batch or (max(1, -(-games // 10)) if until_clear else games)
    watched = tuple(watch) if until_clear else ()
    started = time.perf_counter()
    failure: list[Failure] = []

    def on_chunk(outcomes: list[PairOutcome]) -> bool:
        for index, b, v in outcomes:
            if isinstance(b, Measured) and isinstance(v, Measured):
                tally.add(index, b, v)
            for side in (b, v):
                if isinstance(side, Failure):
                    failure.append(side)
        if progress is not None:
            progress(tally, games)
        return not has_failure(outcomes)

    def result(level: float, looks: int, interrupted: bool = False) -> Comparison:
        figs = tuple(figures(tally, seed, None if level == 0.95 and not until_clear else level))
        unclear = tuple(sorted({f.name for f in figs if _watched(f.name, watched) and not f.clear}))
        return Comparison(labels[0], labels[1], players, seed, tally.done, games, figs, layout, tally, best,
                          unclear, watched, looks, level, interrupted, time.perf_counter() - started)

    done, looks, level = 0, 0, 0.95
    comparison: Comparison | None = None
    try:
        with _SafeCtrlC() as stop, PairRunner(pair, blob, (built[0], built[1]), backend, count) as runner:
            while done < games:
                upto = min(games, done + step)
                runner.play(range(done, upto), on_chunk, stop.check)
                if failure:
                    first = min(failure, key=lambda f: f.index)
                    raise first.error()
                looks += 1
                level = look_level(done, upto, games, alpha) if until_clear else 0.95
                done = upto
                if until_clear:
                    comparison = result(level, looks)
                    if done < games and not comparison.unclear and any(
                            _watched(f.name, watched) for f in comparison.figures):
                        break
    except BrokenProcessPool as exc:
        raise rulecore.RulecoreError(
            "a comparison worker process died. Workers are started with 'spawn', so a script that calls "
            "compare() must guard its entry point with `if __name__ == '__main__':`; or run with workers=1") from exc
    except KeyboardInterrupt:
        partial = result(level, looks, interrupted=True) if tally.done else None
        raise ComparisonInterrupted(partial) from None
    return comparison if comparison is not None else result(level, looks)


def _pickled(pair: PairJob) -> bytes:
    """The two sides as bytes for worker processes; a clear error if they cannot travel."""
    try:
        return pickle.dumps(pair)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise rulecore.RulecoreError(
            f"cannot send this comparison to worker processes ({exc}); run with workers=1") from exc


class _SafeCtrlC:
    """While a comparison runs in the main thread, Ctrl-C only takes note, and the run raises
    KeyboardInterrupt at a safe point (between chunks, at least every quarter second): raised anywhere,
    it could interrupt the process pool while it holds a lock, and stopping the pool would then hang."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def _note(self, signum: int, frame: object) -> None:
        self.requested = True

    def check(self) -> None:
        if self.requested:
            self.requested = False
            raise KeyboardInterrupt

    def __enter__(self) -> _SafeCtrlC:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def _watched(name: str, watched: Sequence[str]) -> bool:
    """Whether figure ``name`` is one ``--until-clear`` waits for (``card_lift`` watches every card's lift)."""
    return any(name == w or name.startswith(f"{w}:") for w in watched)
