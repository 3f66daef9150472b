"""Random Witching Hour games on a Dask ``LocalCluster`` through ``rulecore.simulate`` (backend "dask").

    python benchmarks/bench_dask.py                          # 100,000 games, 4 players, 2 workers
    python benchmarks/bench_dask.py --games 10000 --workers 2 --players 3

Starts a ``distributed.LocalCluster`` of ``--workers`` processes (one thread each), connects a
``Client`` (so ``simulate(..., backend="dask")`` uses it), plays ``--games`` random games of
Witching Hour (game ``i`` with seed ``--seed + i``), and prints the wall time, games/s, the CPU
time of this process, the load average before and after, and the time 100,000 games would take at
the measured rate (when fewer were played).  The cluster's start is timed apart from the run.
Needs ``pip install 'dask[distributed]'`` (the extra ``rulecore[dask]``).  Timings are
informational only; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)  # measure the checkout this script lives in, in the workers too
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)

import rulecore  # noqa: E402
from rulecore.simulate import simulate  # noqa: E402

FULL = 100_000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=FULL, help=f"games (default {FULL:,})")
    ap.add_argument("--players", type=int, default=4, help="players (default 4)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes of the cluster (default 2)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args(argv)
    try:
        import distributed
    except ImportError:
        print("needs dask's distributed scheduler: pip install 'dask[distributed]'")
        return 2
    print(f"rulecore from {os.path.dirname(rulecore.__file__)}; Python {platform.python_version()}; "
          f"dask distributed {distributed.__version__}; {os.cpu_count()} cores")
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    where = client.run(lambda: os.path.dirname(__import__("rulecore").__file__))
    start = time.perf_counter() - t0
    try:
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        result = simulate("witching-hour", games=args.games, players=args.players, seed=args.seed,
                          backend="dask")
        wall = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
    finally:
        client.close()
        cluster.close()
    load_after = os.getloadavg()
    finished = result.summary.games - result.summary.unfinished
    rate = args.games / wall
    figures = {
        "games": args.games, "players": args.players, "workers": args.workers, "cluster_start_s": start,
        "wall_s": wall, "games_per_s": rate, "client_cpu_s": cpu, "finished": finished,
        "load_before": load_before, "load_after": load_after,
        "extrapolated_100k_s": FULL / rate,
    }
    print(f"cluster of {args.workers} workers started in {start:.1f} s; their rulecore: {sorted(set(where.values()))}")
    print(f"{args.games:,} games, {args.players} players: {wall:.1f} s wall, {rate:.1f} games/s, "
          f"{finished:,} finished; this process used {cpu:.1f} s of CPU")
    if args.games != FULL:
        print(f"100,000 games at this rate: {FULL / rate:.0f} s (extrapolated)")
    print(f"load average (1, 5, 15 min) before {load_before[0]:.1f} {load_before[1]:.1f} {load_before[2]:.1f}, "
          f"after {load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f}")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
