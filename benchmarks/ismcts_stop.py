"""How often ismcts with a lower ``stop`` picks what the whole search picks, and how many iterations it saves.

    python benchmarks/ismcts_stop.py witching-hour 2 --games 8
    python benchmarks/ismcts_stop.py approaching-dawn 2 --games 6 --stops 1,0.5,0.25

One ismcts seat at its defaults but with its early stop off (every search runs all its iterations)
plays whole games against greedy seats (game i: seed ``--seed`` + i, the ismcts seat i mod players).
At every iteration where the default search checks whether to stop, the visits of the most tried and
the runner-up are noted.  For each ``stop`` s the search would have ended at the first check where the
lead is more than s times the iterations left, picking the most tried there: since the search is the
same up to that point (same seed, same draws), that is exactly what the bot with ``stop=s`` would pick
at that decision.  Printed per s: the decisions where that pick is the whole search's, and the
iterations run (from the first check on) as a share of the whole searches'.  s=1 is the default,
which by construction always agrees.

The later decisions of a game go on from kept trees of whole searches, so they are not the decisions
a bot with ``stop=s`` would meet; the agreement is per decision, not per game.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the checkout this script lives in

import rulecore  # noqa: E402
from rulecore.bots import ismcts, make_bot  # noqa: E402

Check = tuple[float, int, int, Any]  # iterations left, visits of the most tried and the runner-up, the leader


def trajectories(name: str, players: int, games: int, seed: int, spec: str) -> list[tuple[str, list[Check]]]:
    """Per ismcts decision with a choice: its pick and what every stop check saw."""
    checks: list[Check] = []

    def noted(root: dict, actions: Any, left: float) -> bool:
        visits = sorted(((root[a].visits if a in root else 0), a) for a in actions)
        most, leader = visits[-1]
        second = visits[-2][0] if len(visits) > 1 else 0
        checks.append((left, most, second, leader if most > second else None))
        return False

    settled = ismcts._settled
    ismcts._settled = noted  # type: ignore[assignment]
    try:
        game = rulecore.Game(rulecore.load_cardset(name), players=players, record_events=False)
        out = []
        for g in range(games):
            state = game.new_game(seed + g)
            me = g % players
            bots = [make_bot(spec if p == me else "greedy", 1000 * (seed + g) + p) for p in range(players)]
            while not state.is_terminal():
                checks.clear()
                action = bots[state.current_player].choose(state)
                if state.current_player == me and checks:
                    out.append((action, list(checks)))
                state.apply(action)
        return out
    finally:
        ismcts._settled = settled  # type: ignore[assignment]


def agreement(decisions: list[tuple[str, list[Check]]], stop: float) -> tuple[int, int, int]:
    """(decisions where ``stop`` picks as the whole search, iterations it runs, iterations the whole runs)."""
    agree = ran = whole = 0
    for pick, checks in decisions:
        at = next((k for k, (left, most, second, leader) in enumerate(checks)
                   if leader is not None and most - second > stop * left), None)
        ran += len(checks) if at is None else at
        whole += len(checks)
        agree += (pick if at is None else checks[at][3]) == pick
    return agree, ran, whole


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cardset")
    ap.add_argument("players", type=int)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=900)
    ap.add_argument("--ismcts", default="ismcts", help="the ismcts bot and its settings (default: its defaults)")
    ap.add_argument("--stops", default="1,0.75,0.5,0.35,0.25", help="the stop values to compare")
    args = ap.parse_args()
    decisions = trajectories(args.cardset, args.players, args.games, args.seed, args.ismcts)
    print(f"{args.ismcts} in {args.games} {args.cardset} {args.players}p games against greedy: {len(decisions)} decisions")
    for stop in (float(s) for s in args.stops.split(",")):
        agree, ran, whole = agreement(decisions, stop)
        print(f"  stop={stop:g}: picks as the whole search at {agree} of {len(decisions)} decisions "
              f"({agree / max(len(decisions), 1):.1%}); iterations from the first check: {ran / max(whole, 1):.0%}")


if __name__ == "__main__":
    main()
