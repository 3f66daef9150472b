"""``rulecore simulate --workers N`` scaling: the same random Witching Hour games with 1 and with N workers.

    python benchmarks/bench_workers.py                       # --games 2000 --workers 2 --rounds 2
    python benchmarks/bench_workers.py --games 4000 --players 3

Alternately, ``--rounds`` times: ``simulate("witching-hour", games, players, workers=1)`` (in this
process) and ``workers=N`` (a pool of spawned processes).  For each run: wall time, the CPU time
of this process and of the worker processes (``resource.getrusage``), and the load average.
Printed: the speed-up (wall of 1 / wall of N) of each round, and the CPU the N-worker run spent in
all (its overhead over one worker: starting processes, importing, loading the cardset again,
sending results); ``N * cpu(1) / cpu(N)`` is the speed-up the run would have on N idle cores,
which on a shared machine is the steadier figure.  Timings are informational only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, ROOT)  # measure the checkout this script lives in, in the workers too
    os.environ["PYTHONPATH"] = ROOT

import rulecore  # noqa: E402
from rulecore.simulate import simulate  # noqa: E402


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)  # worker processes, once they have ended
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def one(games: int, players: int, workers: int) -> dict[str, float]:
    load = os.getloadavg()[0]
    c0, t0 = cpu(), time.perf_counter()
    result = simulate("witching-hour", games=games, players=players, workers=workers)
    wall, used = time.perf_counter() - t0, cpu() - c0
    if result.summary.games != games:
        raise SystemExit(f"{result.summary.games} of {games} games came back")
    return {"wall": wall, "cpu": used, "load": load}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    print(f"rulecore from {os.path.dirname(rulecore.__file__)}; {os.cpu_count()} cores; "
          f"{args.games} games, {args.players} players")
    rounds = []
    for _ in range(args.rounds):
        a = one(args.games, args.players, 1)
        b = one(args.games, args.players, args.workers)
        speed_up = a["wall"] / b["wall"]
        idle = args.workers * a["cpu"] / b["cpu"]
        rounds.append({"one": a, "many": b, "speed_up": speed_up, "idle_speed_up": idle})
        print(f"1 worker {a['wall']:.1f} s wall, {a['cpu']:.1f} s CPU (load {a['load']:.1f}); "
              f"{args.workers} workers {b['wall']:.1f} s wall, {b['cpu']:.1f} s CPU (load {b['load']:.1f}): "
              f"speed-up {speed_up:.2f}x, on idle cores {idle:.2f}x")
    if args.json:
        print(json.dumps(rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
