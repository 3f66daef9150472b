"""Where the games of a run are played: in this process, in a local pool of spawned worker
processes, on Ray, or on Dask's distributed scheduler.  Every backend plays the same chunks of
games and hands back their outcomes in game order up to the lowest failing game, so a run's
results never depend on the backend, the number of workers or scheduling.

``ray`` and ``distributed`` are optional (extras ``rulecore[ray]`` and ``rulecore[dask]``) and
imported only when their backend is asked for.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Generator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import MappingProxyType
from typing import Any

import rulecore

from .games import Failure, Job, Outcome, SimGame, init_worker, play_one, run_chunk_blob

#: ``progress(done, total)``: told how many games of the run are done (it may raise to stop the run).
ProgressCallback = Callable[[int, int], None]


def report(progress: ProgressCallback | None, done: int, total: int) -> None:
    """Tell ``progress`` (if any) that ``done`` of ``total`` games are done."""
    if progress is not None:
        progress(done, total)


def chunked(games: int, size: int) -> list[range]:
    """Game indices ``0 .. games-1`` in consecutive chunks of ``size``."""
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def run_local_inprocess(
    game: SimGame, job: Job, games: int, progress: ProgressCallback | None
) -> Generator[Outcome, None, None]:
    """The games one after another in this process (``workers=1``), up to the first that fails."""
    for index in range(games):
        outcome = play_one(game, job, index)
        yield outcome
        if isinstance(outcome, Failure):
            return
        report(progress, index + 1, games)


def _terminate_workers(executor: ProcessPoolExecutor) -> None:
    """Stop worker processes now (on Ctrl-C) instead of letting queued chunks finish."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14+
    if callable(terminate):
        terminate()
        return
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


def run_local_pool(
    blob: bytes, games: int, workers: int, progress: ProgressCallback | None
) -> Generator[Outcome, None, None]:
    """The games in chunks on a pool of ``workers`` spawned processes, each of which builds the game
    once, handed back in game order up to the first that fails; stops the workers at once on Ctrl-C.

    Only a few chunks per worker are queued or waiting to be handed back at any time, so the
    memory of a run does not grow with its number of games."""
    # small chunks: smooth progress, quick stop on Ctrl-C, little per-task overhead
    size = max(1, min(32, math.ceil(games / (workers * 32))))
    count = math.ceil(games / size)
    window = workers * 4  # chunks queued, running or done but not yet handed back
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=init_worker, initargs=(blob,)
    )
    pending: dict[Future[list[Outcome]], int] = {}
    ready: dict[int, list[Outcome]] = {}
    submitted = handed = done_games = 0
    try:
        while handed < count:
            while submitted < count and len(pending) + len(ready) < window:
                chunk = range(submitted * size, min((submitted + 1) * size, games))
                pending[executor.submit(run_chunk_blob, blob, chunk)] = submitted
                submitted += 1
            done, _ = wait(set(pending), return_when=FIRST_COMPLETED, timeout=0.25)
            for future in done:
                outcomes = ready[pending.pop(future)] = future.result()
                if not any(isinstance(o, Failure) for o in outcomes):
                    done_games += len(outcomes)
            # at least every quarter second, and never while a lock of the pool is held:
            # the place where a caller's progress callback may stop the run by raising
            report(progress, done_games, games)
            # in game order: every chunk before a failing one is handed back whole, so the
            # lowest failure found is deterministic
            while handed in ready:
                outcomes = ready.pop(handed)
                handed += 1
                yield from outcomes
                if any(isinstance(o, Failure) for o in outcomes):
                    return
    except KeyboardInterrupt:
        _terminate_workers(executor)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


#: Per distributed backend: the module it imports, and the package that brings it besides the
#: extra ``rulecore[backend]`` (Dask's scheduler is the ``distributed`` package, which a plain
#: ``pip install dask`` does not bring).
_OPTIONAL: Mapping[str, tuple[str, str]] = MappingProxyType(
    {"ray": ("ray", "ray"), "dask": ("distributed", "'dask[distributed]'")}
)


def _import_backend(backend: str) -> Any:
    """The module ``backend`` runs on; an error saying what to install when it is missing."""
    module, package = _OPTIONAL[backend]
    try:
        return __import__(module)
    except ImportError as exc:
        raise rulecore.RulecoreError(
            f"backend {backend!r} needs the optional package {module!r}, which is not "
            f"installed: pip install 'rulecore[{backend}]' (or pip install {package}); "
            f"or use backend='local'"
        ) from exc


def run_ray(blob: bytes, games: int, progress: ProgressCallback | None) -> Generator[Outcome, None, None]:
    """Chunks of games as Ray tasks (Ray started here unless it already runs), handed back in game
    order up to the first that fails."""
    ray = _import_backend("ray")
    if not ray.is_initialized():
        ray.init()
    task = ray.remote(run_chunk_blob)
    chunks = chunked(games, max(1, min(256, math.ceil(games / 256))))
    refs = [task.remote(blob, list(chunk)) for chunk in chunks]
    done = 0
    for ref in refs:  # in order: the first failure found is the lowest-index one
        chunk_out: list[Outcome] = ray.get(ref)
        yield from chunk_out
        if any(isinstance(o, Failure) for o in chunk_out):
            for rest in refs[refs.index(ref) + 1 :]:
                ray.cancel(rest)
            return
        done += len(chunk_out)
        report(progress, done, games)


def run_dask(
    blob: bytes, games: int, progress: ProgressCallback | None, workers: int | None = None
) -> Generator[Outcome, None, None]:
    """Chunks of games as tasks on Dask's distributed scheduler: the Client this process is
    connected to, or else a LocalCluster of ``workers`` processes (default: every core)
    started for this run and closed after it; handed back in game order up to the first that
    fails, each chunk as soon as the chunks before it are in."""
    distributed = _import_backend("dask")
    cluster = None
    try:
        client = distributed.get_client()
    except ValueError:  # no client connected: a cluster of local worker processes
        cluster = distributed.LocalCluster(
            n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True
        )
        client = distributed.Client(cluster)
    try:
        chunks = chunked(games, max(1, min(256, math.ceil(games / 256))))
        data = client.scatter(blob, broadcast=True)
        futures = [client.submit(run_chunk_blob, data, list(chunk), pure=False) for chunk in chunks]
        position = {id(f): i for i, f in enumerate(futures)}
        per_chunk: dict[int, list[Outcome]] = {}
        failed_at: int | None = None
        handed = done = 0
        for future in distributed.as_completed(futures):
            i = position[id(future)]
            if failed_at is not None and i > failed_at:
                continue  # after a failing chunk: not needed (cancelled)
            chunk_out: list[Outcome] = future.result()
            per_chunk[i] = chunk_out
            if any(isinstance(o, Failure) for o in chunk_out):
                # the lowest failing game is reported: chunks before this one still count
                failed_at = i if failed_at is None else min(failed_at, i)
                for later in futures[failed_at + 1 :]:
                    later.cancel()
                continue
            done += len(chunk_out)
            report(progress, done, games)
            while handed in per_chunk and failed_at is None:
                yield from per_chunk.pop(handed)
                handed += 1
        for i in sorted(per_chunk):  # up to and including the lowest failing chunk
            yield from per_chunk[i]
    finally:
        if cluster is not None:
            client.close()
            cluster.close()

