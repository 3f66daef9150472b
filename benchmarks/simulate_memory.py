"""Parent memory of ``simulate`` against the number of games (issue 25, item 7).

Two measurements, printed:

A. The aggregation alone, fed records shaped like Approaching Dawn's (every card type of the
   cardset with uses per seat): peak memory (tracemalloc) of counting them as they arrive
   (``Tally``, what ``simulate`` does now) against keeping them all (what it did before, and what
   ``keep_records=True`` still does), at ``--games`` and ten times as many.
B. A real run (``simulate`` of ``--cardset`` on a local pool of ``--workers`` processes): the peak
   memory of the parent process (tracemalloc; the workers are other processes) at ``--run-games``
   and ten times as many.

    PYTHONPATH=. python benchmarks/simulate_memory.py
    PYTHONPATH=. python benchmarks/simulate_memory.py --games 2000 --run-games 300 --workers 2
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from collections.abc import Callable

import rulecore
from rulecore.simulate import GameRecord, simulate
from rulecore.simulate.results import Tally




def _record(index: int, cards: tuple[str, ...], players: int, rng: random.Random) -> GameRecord:
    uses = tuple((card, tuple(rng.randrange(3) for _ in range(players))) for card in cards)
    return GameRecord(index=index, seed=index, winners=(rng.randrange(players),), totals=None, rounds=rng.randrange(9),
                      decisions=rng.randrange(200, 400), card_uses=uses)


def _peak(work: Callable[[], object]) -> tuple[float, float]:
    """Peak MB traced while ``work`` runs, and its seconds."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    started = time.perf_counter()
    work()
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6, seconds


def aggregation(games: int, cards: tuple[str, ...], players: int) -> None:
    print(f"A. {len(cards)} card types x {players} seats per record (Approaching Dawn's shape)")
    print(f"   {'games':>8}  {'counted as they arrive':>24}  {'all records kept':>18}")
    for count in (games, games * 10):
        def tally() -> None:
            rng, totals = random.Random(1), Tally(players)
            for i in range(count):
                totals.add(_record(i, cards, players, rng))
            totals.summary()

        def kept() -> None:
            rng = random.Random(1)
            records = [_record(i, cards, players, rng) for i in range(count)]
            Tally(players).add_all(records).summary()

        flat, _ = _peak(tally)
        grown, _ = _peak(kept)
        print(f"   {count:>8,}  {flat:>21.1f} MB  {grown:>15.1f} MB")


def run(cardset: str, players: int, games: int, workers: int) -> None:
    print(f"B. simulate({cardset!r}, players={players}, workers={workers}): the parent's peak")
    simulate(cardset, 1, players, workers=1)  # load and compile the cardset once, outside the measurements
    for count in (games, games * 10):
        peak, seconds = _peak(lambda: simulate(cardset, count, players, seed=1, workers=workers))
        print(f"   {count:>8,} games  {peak:>6.1f} MB  ({seconds:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="records for A (and ten times as many)")
    parser.add_argument("--run-games", type=int, default=300, help="games for B (and ten times as many)")
    parser.add_argument("--cardset", default="docs/examples/tiny-game.yaml")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    dawn = rulecore.Game(rulecore.load_cardset("approaching-dawn"), 3)
    cards = tuple(dict.fromkeys(dawn.rules.instance_type))
    aggregation(args.games, cards, 3)
    if args.run_games:
        run(args.cardset, args.players, args.run_games, args.workers)


if __name__ == "__main__":
    main()
