"""What a `rulecore compare` costs: the paired run of benchmarks/README.md's "rulecore compare" section.

Runs one comparison with rulecore.simulate.compare and prints its wall time, paired games per second and
seconds per paired game, next to a plain loop in the same run: `simulate` of the same games on each side
(the same bots, seeds and workers), so the overhead of measuring (the heuristic of every seat after every
decision, the legal-action counts, the bootstrap) is read off as a ratio, whatever else the machine runs.

    python benchmarks/bench_compare.py approaching-dawn docs/examples/approaching-dawn-short-night.yaml \\
        --games 200 --players 2 --bots greedy --workers 2
    python benchmarks/bench_compare.py witching-hour docs/examples/witching-hour-broom.yaml \\
        --games 4 --players 3 --bots ismcts,random,random --workers 2
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rulecore.simulate import compare, simulate  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (the workers, once the pool is shut down):
    on a machine shared with other jobs this says what the run costs better than the wall time."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("variant")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-baseline", action="store_true", help="skip the two plain simulate runs")
    args = parser.parse_args()
    bots = [b for b in args.bots.split(",") if b]
    roots = [os.path.dirname(os.path.abspath(args.variant))]

    started, cpu = time.perf_counter(), cpu_seconds()
    c = compare(args.base, args.variant, games=args.games, players=args.players, bots=bots, workers=args.workers,
                seed=args.seed, roots=roots)
    wall, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    print(f"compare  {c.base} vs {c.variant}: {c.games} paired games, bots {','.join(bots)}, "
          f"{args.workers} workers: {wall:.1f} s wall ({wall / c.games:.2f} s per paired game, "
          f"{c.games / wall:.2f} paired games/s); {cpu:.1f} CPU s ({cpu / c.games:.2f} CPU s per paired game)")
    if args.no_baseline:
        return
    started, cpu_plain = time.perf_counter(), cpu_seconds()
    for cardset in (args.base, args.variant):
        simulate(cardset, games=args.games, players=args.players, bots=bots, workers=args.workers, seed=args.seed,
                 roots=roots)
    plain, cpu_plain = time.perf_counter() - started, cpu_seconds() - cpu_plain
    print(f"simulate of both sides, same games: {plain:.1f} s wall, {cpu_plain:.1f} CPU s; "
          f"compare / simulate = {wall / plain:.2f} (wall), {cpu / cpu_plain:.2f} (CPU)")


if __name__ == "__main__":
    main()
