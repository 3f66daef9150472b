"""Profile games with cProfile: where the engine spends its time, per module and per decision.

    python benchmarks/profile_games.py wh          # 200 random Witching Hour games, 4 players
    python benchmarks/profile_games.py ww          # 200 random Witty Witches games (master), 4 players
    python benchmarks/profile_games.py ad          # 30 greedy Approaching Dawn games, 2 players
    python benchmarks/profile_games.py wh --games 50 --top 40

Games are played with ``record_events=False`` (as ``rulecore simulate`` plays them).  It
prints the top functions by own time and by cumulative time, own time grouped by file, and
the functions called most often per decision ("decision" = one ``apply`` of the game itself;
for greedy games the bot's look-ahead applies on clones are counted as work of the decision
they serve).  The findings are in benchmarks/PROFILE.md.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # profile the checkout this script lives in

import rulecore  # noqa: E402
from rulecore.bots import make_bot  # noqa: E402

GAMES = {
    "wh": ("witching-hour", 4, {}, 200, "random"),
    "ww": ("witty-witches", 4, {}, 200, "random"),
    "ad": ("approaching-dawn", 2, {}, 30, "greedy"),
}


def play(name: str, players: int, options: dict[str, Any], games: int, bot: str) -> tuple[cProfile.Profile, int]:
    game = rulecore.Game(rulecore.load_cardset(name), players=players, options=options, record_events=False)
    decisions = 0
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        state = game.new_game(seed)
        if bot == "random":
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))
        else:
            bots = [make_bot(bot, 1000 * seed + p) for p in range(players)]
            while not state.is_terminal() and len(state.history) < 2000:
                state.apply(bots[state.current_player].choose(state))
        decisions += len(state.history)
    prof.disable()
    return prof, decisions


def where(filename: str) -> str:
    return "builtins" if filename == "~" else os.path.basename(filename)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("which", choices=sorted(GAMES))
    ap.add_argument("--games", type=int, default=None, help="number of games (default: 200 wh/ww, 30 ad)")
    ap.add_argument("--top", type=int, default=25, help="rows per table (default 25)")
    args = ap.parse_args(argv)
    name, players, options, games, bot = GAMES[args.which]
    prof, decisions = play(name, players, options, args.games or games, bot)
    stats = pstats.Stats(prof)
    print(f"{name}, {players} players, {args.games or games} games, {bot} bots: {decisions} decisions, "
          f"{stats.total_calls} calls ({stats.total_calls / decisions:.0f} per decision), "
          f"{stats.total_tt:.2f} s profiled")
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)

    by_file: dict[str, list[float]] = {}
    for (filename, _, _), (_, ncalls, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        entry = by_file.setdefault(where(filename), [0.0, 0])
        entry[0] += tottime
        entry[1] += ncalls
    total = sum(v[0] for v in by_file.values()) or 1.0
    print("own time by file:")
    for f, (tt, nc) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[:12]:
        print(f"  {f:<40} {100 * tt / total:5.1f}%  {nc / decisions:8.1f} calls/decision")
    print("most calls per decision:")
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][1])[: args.top]  # type: ignore[attr-defined]
    for (filename, line, func), (_, ncalls, tottime, _, _) in rows:
        print(f"  {where(filename)}:{line}({func})  {ncalls / decisions:8.1f}/decision  own {100 * tottime / total:4.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
