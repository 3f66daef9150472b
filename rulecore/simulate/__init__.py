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

The modules, in the order a run goes through them:

- ``runner``: :func:`simulate` itself: checks the arguments, builds the game once, seats the
  bots, picks the backend and gathers the outcomes;
- ``backends``: where the games are played (this process, a local pool, Ray, Dask);
- ``games``: playing one game, or a chunk of them, from a job that travels to other processes;
  :func:`bot_seed` and :class:`SimulationError`;
- ``paired``: :func:`compare`, paired games of a base and a variant side, streamed from the workers, and their
  figures with intervals (docs/compare.md);
- ``results``: :class:`GameRecord`, :class:`SimulationResult` and :class:`CardStats`, the
  statistics read from the records.

May import: rulecore.bots and rulecore's public API (engine and below); never cli.
"""

from .paired import Comparison, ComparisonInterrupted, Figure, compare
from .games import SimulationError, bot_seed
from .results import DEFAULT_MAX_DECISIONS, CardStats, GameRecord, SimulationResult
from .runner import BACKENDS, Backend, simulate

__all__ = [
    "BACKENDS",
    "Backend",
    "CardStats",
    "Comparison",
    "ComparisonInterrupted",
    "Figure",
    "DEFAULT_MAX_DECISIONS",
    "GameRecord",
    "SimulationError",
    "SimulationResult",
    "bot_seed",
    "compare",
    "simulate",
]
