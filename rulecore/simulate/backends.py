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
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
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
) -> Iterator[Outcome]:
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
) -> list[Outcome]:
    """The games in chunks on a pool of ``workers`` spawned processes, each of which builds the game
    once; stops at the first failing chunk, and stops the workers at once on Ctrl-C."""
    # small chunks: smooth progress, quick stop on Ctrl-C, little per-task overhead
    size = max(1, min(32, math.ceil(games / (workers * 32))))
    chunks = chunked(games, size)
    results: dict[int, list[Outcome]] = {}
    done_games = 0
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=init_worker, initargs=(blob,)
    )
    failed = False
    try:
        futures: dict[Future[list[Outcome]], int] = {
            executor.submit(run_chunk_blob, blob, chunk): i for i, chunk in enumerate(chunks)
        }
        pending = set(futures)
        while pending and not failed:
            done, pending = wait(pending, return_when=FIRST_EXCEPTION, timeout=0.25)
            for future in done:
                outcomes = future.result()
                results[futures[future]] = outcomes
                if any(isinstance(o, Failure) for o in outcomes):
                    failed = True
                else:
                    done_games += len(outcomes)
            # at least every quarter second, and never while a lock of the pool is held:
            # the place where a caller's progress callback may stop the run by raising
            report(progress, done_games, games)
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
    ordered: list[Outcome] = []
    for i in sorted(results):
        ordered.extend(results[i])
    return ordered


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


def run_ray(blob: bytes, games: int, progress: ProgressCallback | None) -> list[Outcome]:
    """Chunks of games as Ray tasks (Ray started here unless it already runs), read in game order."""
    ray = _import_backend("ray")
    if not ray.is_initialized():
        ray.init()
    task = ray.remote(run_chunk_blob)
    chunks = chunked(games, max(1, min(256, math.ceil(games / 256))))
    refs = [task.remote(blob, list(chunk)) for chunk in chunks]
    outcomes: list[Outcome] = []
    done = 0
    for ref in refs:  # in order: the first failure found is the lowest-index one
        chunk_out: list[Outcome] = ray.get(ref)
        outcomes.extend(chunk_out)
        if any(isinstance(o, Failure) for o in chunk_out):
            for rest in refs[refs.index(ref) + 1 :]:
                ray.cancel(rest)
            break
        done += len(chunk_out)
        report(progress, done, games)
    return outcomes


def run_dask(
    blob: bytes, games: int, progress: ProgressCallback | None, workers: int | None = None
) -> list[Outcome]:
    """Chunks of games as tasks on Dask's distributed scheduler: the Client this process is
    connected to, or else a LocalCluster of ``workers`` processes (default: every core)
    started for this run and closed after it."""
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
        done = 0
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
        return [o for i in sorted(per_chunk) for o in per_chunk[i]]
    finally:
        if cluster is not None:
            client.close()
            cluster.close()

