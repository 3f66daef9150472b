"""Where the paired games of a comparison are played: in this process, on a local pool of spawned
worker processes, on Dask's distributed scheduler or on Ray. Unlike ``backends`` (which hands back
a run's outcomes at the end), a :class:`PairRunner` gives each chunk's outcomes to a callback as it
arrives, so the comparison aggregates as it goes, and it stays open between the batches of
``--until-clear`` (the workers load the cardsets once)."""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any

from ..backends import _import_backend
from .games import PairJob, PairOutcome, init_pair_worker, play_pairs, run_pair_chunk
from ..games import Failure, SimGame

#: ``on_chunk(outcomes)``: called in this process with each chunk's paired outcomes, in arrival order;
#: it returns False to stop the batch (a failure), and may raise (Ctrl-C) to stop everything.
OnChunk = Callable[[list[PairOutcome]], bool]


def _chunks(indices: Sequence[int], size: int) -> list[list[int]]:
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]


def has_failure(outcomes: Sequence[PairOutcome]) -> bool:
    return any(isinstance(side, Failure) for _, b, v in outcomes for side in (b, v))


class PairRunner:
    """Plays batches of paired games on one backend; a context manager that owns its workers."""

    def __init__(self, job: PairJob, blob: bytes, games: tuple[SimGame, SimGame], backend: str,
                 workers: int) -> None:
        self.job, self.blob, self.games, self.backend, self.workers = job, blob, games, backend, workers
        self._executor: ProcessPoolExecutor | None = None
        self._client: Any = None
        self._cluster: Any = None
        self._ray: Any = None

    def __enter__(self) -> PairRunner:
        if self.backend == "local" and self.workers > 1:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=init_pair_worker, initargs=(self.blob,))
        elif self.backend == "dask":
            distributed = _import_backend("dask")
            try:
                self._client = distributed.get_client()
            except ValueError:
                self._cluster = distributed.LocalCluster(
                    n_workers=self.workers, threads_per_worker=1, processes=True)
                self._client = distributed.Client(self._cluster)
        elif self.backend == "ray":
            self._ray = _import_backend("ray")
            if not self._ray.is_initialized():
                self._ray.init()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._executor is not None:
            if isinstance(exc, KeyboardInterrupt):
                for process in list((getattr(self._executor, "_processes", None) or {}).values()):
                    process.terminate()  # stop now, not after the queued chunks
            self._executor.shutdown(wait=True, cancel_futures=True)
        if self._cluster is not None:
            self._client.close()
            self._cluster.close()

    def play(self, indices: Sequence[int], on_chunk: OnChunk, check: Callable[[], None] = lambda: None) -> None:
        """Play the paired games ``indices``, handing each chunk's outcomes to ``on_chunk``; ``check()`` is
        called between chunks (and every quarter second on a local pool) and may raise to stop."""
        if self._executor is not None:
            size = max(1, min(4, math.ceil(len(indices) / (self.workers * 16))))  # small: Ctrl-C keeps more
            self._play_futures(
                {self._executor.submit(run_pair_chunk, self.blob, chunk) for chunk in _chunks(indices, size)},
                on_chunk, check)
        elif self._client is not None:
            self._play_dask(indices, on_chunk, check)
        elif self._ray is not None:
            self._play_ray(indices, on_chunk, check)
        else:
            base, variant = self.games
            for index in indices:
                check()
                if not on_chunk(play_pairs(self.job, base, variant, [index])):
                    return

    def _play_futures(self, pending: set[Future[list[PairOutcome]]], on_chunk: OnChunk,
                      check: Callable[[], None]) -> None:
        try:
            while pending:
                check()
                # a timeout: the main thread wakes up for Ctrl-C even while a long chunk runs
                done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                for future in done:
                    if not on_chunk(future.result()):
                        return
        finally:
            for future in pending:
                future.cancel()

    def _play_dask(self, indices: Sequence[int], on_chunk: OnChunk, check: Callable[[], None]) -> None:
        distributed = _import_backend("dask")
        data = self._client.scatter(self.blob, broadcast=True)
        size = max(1, min(64, math.ceil(len(indices) / 256)))
        futures = [self._client.submit(run_pair_chunk, data, chunk, pure=False) for chunk in _chunks(indices, size)]
        try:
            for future in distributed.as_completed(futures):
                check()
                if not on_chunk(future.result()):
                    return
        finally:
            for future in futures:
                future.cancel()

    def _play_ray(self, indices: Sequence[int], on_chunk: OnChunk, check: Callable[[], None]) -> None:
        task = self._ray.remote(run_pair_chunk)
        size = max(1, min(64, math.ceil(len(indices) / 256)))
        pending = [task.remote(self.blob, chunk) for chunk in _chunks(indices, size)]
        try:
            while pending:
                check()
                ready, pending = self._ray.wait(pending, num_returns=1, timeout=0.25)
                for ref in ready:
                    if not on_chunk(self._ray.get(ref)):
                        return
        finally:
            for ref in pending:
                self._ray.cancel(ref)


def worker_count(backend: str, workers: int | None, games: int) -> int:
    """Processes to use: ``workers`` or every core, never more than the games."""
    return max(1, min(workers or os.cpu_count() or 1, games)) if backend == "local" else (workers or os.cpu_count() or 1)
