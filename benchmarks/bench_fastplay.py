"""Issue 24's play figures in one process: random Witching Hour against the plain loop, and ismcts
decisions per second.

    python benchmarks/bench_fastplay.py                     # --games 150 --rounds 3 --decisions 12
    PYTHONPATH=/work/main python /work/main/../wt/.../bench_fastplay.py   # see below: another checkout

rulecore is imported from ``PYTHONPATH`` when it is set (so the same script measures another
checkout: ``PYTHONPATH=/path/to/checkout python benchmarks/bench_fastplay.py``), else from the
checkout this script lives in.  Figures:

- **Witching Hour engine/plain at 3 and 4 players**: ``--games`` random games through the engine
  (events off, as ``rulecore simulate`` plays; by index with ``State.apply_index`` where the engine
  has it, else ``apply(label)``: the same games either way, see ``choose``) and through
  ``plain_witching_hour.py`` with the same seeds, alternately, ``--rounds`` times; CPU time
  (``time.process_time``) of each, games/s and the ratio of each round; the best and the spread.
- **ismcts at its defaults**: CPU seconds per decision over ``--decisions`` decision states of two
  2-player (``--ismcts-players``) Witching Hour games (the same states in every checkout), each
  decided by a fresh bot seeded by its position; the actions it picks (equal between checkouts when
  the search is the same), and how many states it copied (``clone``) per decision.
- **ismcts in whole games** (``--ismcts-games N``): CPU seconds per decision of one ismcts seat
  playing ``N`` games against greedy seats (game i: seed 700 + i, the ismcts seat i mod players),
  every decision with a choice timed; the games' winners, and (where the bot keeps its tree between
  decisions) how many of its decisions went on from a kept tree.  Here a bot lives through a
  game, as in ``rulecore simulate``, ``compare`` and a served match; the per-state figure above uses
  a fresh bot per decision.  ``--ismcts-against random`` plays the other seats at random instead,
  so that nearly all the work of a run is the ismcts seat's (to count it with valgrind, as
  ``fixed_searches.py`` says, where the machine is too noisy to time it).

Timings are informational only: the machine may be shared, so compare figures of runs made
alternately at the same moment, and ratios rather than rates.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(1, os.path.dirname(HERE))  # measure the checkout this script lives in

import plain_witching_hour  # noqa: E402
import rulecore  # noqa: E402
from rulecore.bots import make_bot  # noqa: E402


def engine_games(game: Any, games: int, seed: int) -> tuple[float, int]:
    """CPU seconds and decisions of ``games`` random games (game i: seed + i)."""
    indexed = hasattr(game.new_game(seed=seed), "apply_index")
    decisions = 0
    t0 = time.process_time()
    for i in range(games):
        state = game.new_game(seed=seed + i)
        rng = random.Random(seed + i)
        if indexed:
            while not state.terminal:
                state.apply_index(rng.choice(range(state.legal_count())))
        else:
            while not state.terminal:
                state.apply(rng.choice(state.legal_actions()))
        decisions += len(state.history)
    return time.process_time() - t0, decisions


def plain_games(players: int, games: int, seed: int) -> float:
    t0 = time.process_time()
    for i in range(games):
        plain_witching_hour.play_game(players, seed + i)
    return time.process_time() - t0


def decision_states(game: Any, count: int, seed: int) -> list[Any]:
    """The first ``count`` states with a real choice of a random game."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal() and len(out) < count:
        actions = state.legal_actions()
        if len(actions) > 1:
            out.append(state.clone())
        state.apply(rng.choice(actions))
    return out


def ismcts_figures(decisions: int, players: int = 2, spec: str = "ismcts", cardset: str = "witching-hour") -> dict[str, Any]:
    game = rulecore.Game(rulecore.load_cardset(cardset), players=players, record_events=False)
    states = decision_states(game, decisions // 2, 3) + decision_states(game, decisions - decisions // 2, 4)
    made = [0]
    clone = type(states[0]).clone

    def counting(self: Any) -> Any:
        made[0] += 1
        return clone(self)

    make_bot(spec, 10_000).choose(states[0].clone())  # warm up: the game's code is written the first time it runs
    picks = []
    t0 = time.process_time()
    for i, state in enumerate(states):
        picks.append(make_bot(spec, i).choose(state.clone()))
    cpu = time.process_time() - t0
    type(states[0]).clone = counting  # count the states made, in a second pass (not timed)
    try:
        for i, state in enumerate(states):
            make_bot(spec, i).choose(state.clone())
    finally:
        type(states[0]).clone = clone
    return {"decisions": len(states), "cpu_s_per_decision": cpu / len(states),
            "decisions_per_cpu_s": len(states) / cpu, "clones_per_decision": made[0] / len(states) - 1,
            "picks": picks}


def ismcts_game_figures(games: int, players: int, spec: str, cardset: str, against: str = "greedy") -> dict[str, Any]:
    """CPU per decision of an ismcts seat through whole games against ``against`` seats (see the docstring)."""
    from rulecore.bots import ismcts

    game = rulecore.Game(rulecore.load_cardset(cardset), players=players, record_events=False)
    kept = getattr(ismcts, "_Kept", None)  # a checkout whose bot keeps its tree between decisions
    taken = [0]
    if kept is not None:
        take = kept.take

        def counted(self: Any, *args: Any) -> Any:
            got = take(self, *args)
            taken[0] += got is not None
            return got

        kept.take = counted
    cpu, decisions, winners = 0.0, 0, []
    try:
        for g in range(games):
            state = game.new_game(seed=700 + g)
            seat = g % players
            bots = [make_bot(spec if p == seat else against, 100 * g + p) for p in range(players)]
            while not state.is_terminal():
                p = state.current_player
                if p == seat and len(state.legal_actions()) > 1:
                    t0 = time.process_time()
                    action = bots[p].choose(state)
                    cpu += time.process_time() - t0
                    decisions += 1
                else:
                    action = bots[p].choose(state)
                state.apply(action)
            winners.append(sorted(state.winners))
    finally:
        if kept is not None:
            kept.take = take
    return {"games": games, "decisions": decisions, "cpu_s_per_decision": cpu / decisions,
            "went_on": taken[0] if kept is not None else None,
            "ismcts_won": sum(g % players in w for g, w in enumerate(winners)), "winners": winners}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=150, help="random games per round (0: skip)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=12, help="ismcts decisions (0: skip)")
    ap.add_argument("--ismcts-players", type=int, default=2, help="players of the ismcts decisions' games")
    ap.add_argument("--ismcts", default="ismcts", help="the ismcts bot and its settings (default: its defaults)")
    ap.add_argument("--ismcts-game", default="witching-hour", help="the built-in game of the ismcts decisions")
    ap.add_argument("--ismcts-games", type=int, default=0, help="whole games of one ismcts seat against greedy (0: skip)")
    ap.add_argument("--ismcts-against", default="greedy", choices=["greedy", "random"],
                    help="the bot of the other seats in those games")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    print(f"rulecore from {os.path.dirname(rulecore.__file__)}; Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.1f}")
    out: dict[str, Any] = {"rulecore": os.path.dirname(rulecore.__file__), "load_before": os.getloadavg()}
    cardset = rulecore.load_cardset("witching-hour")
    for players in (3, 4) if args.games else ():
        game = rulecore.Game(cardset, players=players, record_events=False)
        engine_games(game, 5, 10_000)  # warm up
        ratios, e_rates, p_rates = [], [], []
        for _ in range(args.rounds):
            e_cpu, decisions = engine_games(game, args.games, args.seed)
            p_cpu = plain_games(players, args.games, args.seed)
            e_rates.append(args.games / e_cpu)
            p_rates.append(args.games / p_cpu)
            ratios.append(p_cpu / e_cpu)
        us = 1e6 * e_cpu / decisions
        print(f"Witching Hour {players}p: engine {max(e_rates):.1f} games/s (rounds {min(e_rates):.1f}-"
              f"{max(e_rates):.1f}), plain {max(p_rates):.0f} ({min(p_rates):.0f}-{max(p_rates):.0f}); ratio "
              f"best {max(ratios):.4f}, median {statistics.median(ratios):.4f}, rounds "
              f"{', '.join(f'{r:.4f}' for r in ratios)}; {us:.1f} us CPU per decision")
        out[f"wh{players}"] = {"engine_gps": e_rates, "plain_gps": p_rates, "ratios": ratios,
                               "us_per_decision": us}
    if args.decisions:
        figures = ismcts_figures(args.decisions, args.ismcts_players, args.ismcts, args.ismcts_game)
        print(f"{args.ismcts}, {args.ismcts_game} {args.ismcts_players}p: {figures['cpu_s_per_decision']:.3f} CPU s "
              "per decision "
              f"({figures['decisions_per_cpu_s']:.2f} decisions/s) over {figures['decisions']} decisions; "
              f"{figures['clones_per_decision']:.0f} states made per decision")
        print(f"  picks: {figures['picks']}")
        out["ismcts"] = figures
    if args.ismcts_games:
        figures = ismcts_game_figures(args.ismcts_games, args.ismcts_players, args.ismcts, args.ismcts_game,
                                      args.ismcts_against)
        went_on = "" if figures["went_on"] is None else f"; {figures['went_on']} went on from a kept tree"
        print(f"{args.ismcts} in {figures['games']} whole {args.ismcts_game} {args.ismcts_players}p games against "
              f"{args.ismcts_against}: {figures['cpu_s_per_decision']:.3f} CPU s per decision over {figures['decisions']} "
              f"decisions{went_on}; ismcts won {figures['ismcts_won']}")
        out["ismcts_games"] = figures
    out["load_after"] = os.getloadavg()
    print(f"load average after {os.getloadavg()[0]:.1f}")
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
