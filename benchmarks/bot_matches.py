"""Win counts of bots against each other, with every bot in every seat: how docs/bots.md's tables are made.

    python benchmarks/bot_matches.py witching-hour 3 ismcts,greedy,random --games 60
    python benchmarks/bot_matches.py witty-witches 2 ismcts,greedy --games 60 --option mode=apprentice
    python benchmarks/bot_matches.py approaching-dawn 2 ismcts,greedy --games 20

The line-up (one bot per seat, comma-separated; a bot's own settings after a colon, separated by
``/`` here so the commas stay free: ``ismcts:iterations=100/c=0.3``) is played in every
ordering of its seats (every permutation when the bots differ), ``--games`` games in all,
split evenly between the orderings; game ``i`` uses seed ``--seed + i`` (so each ordering
meets different deals). Each bot's wins are counted over the games (a tie counts as a win
for every tied winner, as ``rulecore simulate`` does), with a 95% Wilson interval of its
win rate. In a cooperative game (every winner wins together) the count is of games the
table won. Games run through ``rulecore.simulate.simulate`` with ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # measure the checkout this script lives in

from rulecore.simulate import simulate  # noqa: E402


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of ``wins`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def orderings(lineup: list[str]) -> list[tuple[str, ...]]:
    """Every distinct ordering of the line-up's seats, in a fixed order."""
    return sorted(set(itertools.permutations(lineup)), key=lambda p: [lineup.index(b) for b in p])


def play(cardset: str, players: int, lineup: list[str], games: int, seed: int,
         options: dict[str, Any], workers: int) -> dict[str, Any]:
    """Play the line-up in every ordering; wins per bot name and per seat, and the time taken."""
    if len(lineup) != players:
        raise SystemExit(f"the line-up names {len(lineup)} bots for {players} players")
    orders = orderings(lineup)
    share = [games // len(orders) + (k < games % len(orders)) for k in range(len(orders))]
    wins = {bot: 0 for bot in lineup}
    table = played = unfinished = 0
    start = time.perf_counter()
    first = seed
    for order, count in zip(orders, share):
        if count == 0:
            continue
        result = simulate(cardset, games=count, players=players, seed=first, bots=list(order),
                          options=options, workers=workers, keep_records=True)
        first += count
        played += count
        unfinished += result.unfinished
        for record in result.records:
            won = {order[w] for w in record.winners}
            for bot in won:
                wins[bot] += 1
            table += bool(record.winners)
    return {"games": played, "wins": wins, "table_wins": table, "unfinished": unfinished,
            "orderings": len(orders), "seconds": time.perf_counter() - start}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cardset")
    ap.add_argument("players", type=int)
    ap.add_argument("lineup", help="one bot per seat, comma-separated; settings after ':' separated by '/'")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], help="key=value, as rulecore simulate --option")
    args = ap.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    lineup = [b.replace("/", ",") for b in args.lineup.split(",")]
    r = play(args.cardset, args.players, lineup, args.games, args.seed, options, args.workers)
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    print(f"{args.cardset} {opts} {args.players} players, {r['games']} games over {r['orderings']} orderings "
          f"(seeds {args.seed}..{args.seed + r['games'] - 1}), {r['seconds']:.0f} s, "
          f"{r['unfinished']} unfinished, {r['table_wins']} with a winner")
    for bot in dict.fromkeys(lineup):
        w = r["wins"][bot]
        low, high = wilson(w, r["games"])
        print(f"  {bot:<40} {w:>4} of {r['games']:<4} {100 * w / r['games']:5.1f}%  (95% CI {100 * low:.0f}-{100 * high:.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
