"""The same ismcts searches and random games on any checkout: CPU time, and a digest of every pick.

    python benchmarks/fixed_searches.py                                   # the three games, 2 players
    python benchmarks/fixed_searches.py witching-hour:2 --rounds 5
    python /other/checkout/benchmarks/fixed_searches.py witching-hour:2   # the same searches there
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$(python -c 'import sys; print(sys.executable)')" benchmarks/fixed_searches.py \
        approaching-dawn:2 --searches 12 --searched 12 --rounds 1 --random 0      # and --searched 0

For an engine change meant to keep play exact: run it on main and on the change in turn.  The states
are taken from greedy games (game i: seed ``--seed`` + i, every seventh decision with a choice, at most
``--searches``), and each is searched by a fresh ismcts bot at its defaults (bot i: seed 1000 + i), so
both checkouts search the very same states with the very same seeds: the digests of the picks (and of
the random games' results) must be equal, and then only the times may differ.  Each line gives the
best of ``--rounds`` (the CPU time of a round spreads by 15% or more on a shared machine; the digest
is the same every round).  Unlike ``bench_fastplay.py --ismcts-games``, no search goes on from a kept
tree, so these are fresh searches, dearer than the average decision of a whole game.  Where the
machine is too noisy to time a change of a few per cent, valgrind counts the instructions instead
(about 45 times slower; the same count every run): the searches' are the "Collected" of a run with
``--searched N`` less that of one with ``--searched 0`` (the same states built, none searched).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the checkout this script lives in

import rulecore  # noqa: E402
from rulecore.bots import make_bot  # noqa: E402


def states_of(name: str, players: int, games: int, seed: int, searches: int) -> list[rulecore.State]:
    """Every seventh decision with a choice of ``games`` greedy games, at most ``searches`` of them."""
    game = rulecore.Game(rulecore.load_cardset(name), players=players, record_events=False)
    out: list[rulecore.State] = []
    for g in range(games):
        state = game.new_game(seed + g)
        bots = [make_bot("greedy", 77 * g + p) for p in range(players)]
        k = 0
        while not state.is_terminal() and len(out) < searches:
            if k % 7 == 0 and state.legal_count() > 1:
                out.append(state.clone())
            who = state.current_player
            assert who is not None  # the game goes on: a seat decides
            state.apply(bots[who].choose(state))
            k += 1
    return out


def searched(states: list[rulecore.State]) -> tuple[float, str]:
    """CPU seconds of one ismcts search of each state, and the digest of the picks."""
    digest = hashlib.sha256()
    start = time.process_time()
    for i, state in enumerate(states):
        digest.update(make_bot("ismcts", 1000 + i).choose(state).encode())
    return time.process_time() - start, digest.hexdigest()[:12]


def random_games(games: int, players: int) -> tuple[float, str]:
    """CPU seconds of ``games`` random Witching Hour games by index, and the digest of their results."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), players=players, record_events=False)
    digest = hashlib.sha256()
    start = time.process_time()
    for g in range(games):
        state = game.new_game(g)
        rng = random.Random(g)
        while not state.is_terminal():
            state.apply_index(rng.randrange(state.legal_count()))
        digest.update(repr(state.returns()).encode())
    return time.process_time() - start, digest.hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=["witching-hour:2", "approaching-dawn:2", "witty-witches:2"],
                        help="GAME:PLAYERS to search")
    parser.add_argument("--searches", type=int, default=30, help="states taken per game")
    parser.add_argument("--searched", type=int, default=None,
                        help="how many of them to search (default: all); with valgrind, the instructions of N "
                             "searches are a run with N less one with 0")
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--random", type=int, default=400, help="random 3-player Witching Hour games (0: none)")
    args = parser.parse_args()
    print(f"rulecore from {os.path.dirname(rulecore.__file__)}; best of {args.rounds} rounds (CPU s)")
    for spec in args.games:
        name, _, players = spec.partition(":")
        states = states_of(name, int(players or 2), 3, args.seed, args.searches)[:args.searched]
        runs = [searched(states) for _ in range(args.rounds)]
        best = min(t for t, _ in runs)
        print(f"{spec:22s} {len(states)} searches {best:7.2f} s  {1000 * best / max(len(states), 1):6.1f} ms a search  "
              f"picks {runs[0][1]}{'' if len({d for _, d in runs}) == 1 else ' (NOT THE SAME EVERY ROUND)'}")
    if args.random:
        runs = [random_games(args.random, 3) for _ in range(args.rounds)]
        best = min(t for t, _ in runs)
        print(f"random witching-hour:3 {args.random} games {best:7.2f} s  {args.random / best:6.1f} games/s  "
              f"results {runs[0][1]}")


if __name__ == "__main__":
    main()
