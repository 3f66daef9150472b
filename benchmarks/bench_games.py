"""Benchmark every built-in game in one run: speed against the plain loop, games/s, per-call costs.

    python benchmarks/bench_games.py                 # about a minute
    python benchmarks/bench_games.py --scale 3       # three times the games, steadier figures
    python benchmarks/bench_games.py --json          # the figures as JSON too

It prints, from one process (rulecore imported from this checkout):

- **Witching Hour engine/plain** at 3 and at 4 players: N random games through the public
  API (``record_events=False``, as ``rulecore simulate`` plays) against
  ``plain_witching_hour.py``, the same rules as a hand-written loop, with the same seeds;
  games/s of each and their ratio (``bench_witching_hour.bench_engine`` / ``bench_plain``),
  each side the best of ``--repeat`` runs.  Engine and plain "decisions" differ in
  granularity (an engine attack is three prompts), so compare games/s.
- **games/s** of random Witty Witches (master and apprentice modes, 4 players) and of
  Approaching Dawn (2 players, default scene) with random bots and with greedy bots
  (``rulecore.bots.make_bot("greedy", seed)`` in every seat, then with ``greedy:samples=1``),
  with the greedy bot's work per decision it judged: resamples, worlds kept from its
  previous decision, look-ahead applies.
- **per-call costs** in microseconds of ``State.apply``, ``clone``, ``to_json``,
  ``Game.load_state`` and ``resample``, on mid-game states (half-way through random games) of
  each game: the median over the sampled states of the mean of ``--calls`` calls on each
  (``apply``: one random legal action applied to a fresh clone, the clone not timed;
  ``resample``: for the player to move, as the bots call it, with seeds 0, 1, ...; the first
  call on a state, which works out its knowledge notes, not timed).

Game *i* of every row uses seed ``seed + i``.  Timings are informational only: the machine
may be shared, so run twice and keep the better figure of each row.
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
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))  # measure the checkout this script lives in

import rulecore  # noqa: E402
from bench_witching_hour import bench_engine, bench_plain  # noqa: E402
from rulecore.bots import make_bot  # noqa: E402

MAX_DECISIONS = 5_000  # per game; a guard against a runaway game, not a rule


def play_games(game: Any, games: int, seed: int, bot: str) -> dict[str, Any]:
    """``games`` games with ``bot`` in every seat; seconds, decisions and unfinished games."""
    decisions = unfinished = 0
    work = {"judged": 0, "kept": 0, "dealt": 0, "applies": 0}
    t0 = time.perf_counter()
    for i in range(games):
        s = seed + i
        state = game.new_game(seed=s)
        if bot == "random":
            rng = random.Random(s)
            while not state.is_terminal() and len(state.history) < MAX_DECISIONS:
                state.apply(rng.choice(state.legal_actions()))
        else:
            bots = [make_bot(bot, 1000 * s + seat) for seat in range(game.players)]
            while not state.is_terminal() and len(state.history) < MAX_DECISIONS:
                state.apply(bots[state.current_player].choose(state))
            for b in bots:  # the greedy bot's work counters
                for name in work:
                    work[name] += getattr(b, name, 0)
        decisions += len(state.history)
        unfinished += not state.is_terminal()
    return {"games": games, "seconds": time.perf_counter() - t0, "decisions": decisions, "unfinished": unfinished,
            "work": work}


def mid_game_states(game: Any, count: int, seed: int) -> list[Any]:
    """States half-way through ``count`` random games (half of each game's own length)."""
    out = []
    for i in range(count):
        s = seed + i
        rng = random.Random(s)
        state = game.new_game(seed=s)
        while not state.is_terminal() and len(state.history) < MAX_DECISIONS:
            state.apply(rng.choice(state.legal_actions()))
        half = len(state.history) // 2
        out.append(game.replay(s, state.history[:half]))
    return out


def per_call_us(states: list[Any], game: Any, calls: int) -> dict[str, float]:
    """Median over ``states`` of the mean cost (us) of one apply / clone / to_json / load_state / resample."""

    def timed(fn: Callable[[], Any]) -> float:
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        return (time.perf_counter() - t0) / calls * 1e6

    costs: dict[str, list[float]] = {"apply": [], "clone": [], "to_json": [], "load_state": [], "resample": []}
    for k, state in enumerate(states):
        rng = random.Random(k)
        actions = [rng.choice(state.legal_actions()) for _ in range(calls)]
        copies = [state.clone() for _ in range(calls)]
        t0 = time.perf_counter()
        for copy, action in zip(copies, actions):
            copy.apply(action)
        costs["apply"].append((time.perf_counter() - t0) / calls * 1e6)
        costs["clone"].append(timed(state.clone))
        costs["to_json"].append(timed(state.to_json))
        text = state.to_json()
        costs["load_state"].append(timed(lambda: game.load_state(text)))
        seeds = iter(range(calls))
        state.resample(state.current_player, -1)  # (works out the knowledge notes once, as to_json did)
        costs["resample"].append(timed(lambda: state.resample(state.current_player, next(seeds))))
    return {name: statistics.median(v) for name, v in costs.items()}


def rate(r: dict[str, Any]) -> tuple[float, float]:
    return r["games"] / r["seconds"], r["decisions"] / r["seconds"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every number of games (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--calls", type=int, default=50, help="calls per state for the per-call costs (default 50)")
    ap.add_argument("--repeat", type=int, default=2, help="Witching Hour runs per side, the best kept (default 2)")
    ap.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    args = ap.parse_args(argv)
    if args.scale <= 0 or args.calls < 1 or args.repeat < 1:
        ap.error("--scale must be > 0, --calls and --repeat >= 1")

    def n(base: int) -> int:
        return max(1, round(base * args.scale))

    seed = args.seed
    out: dict[str, Any] = {"python": platform.python_version(), "scale": args.scale, "seed": seed}
    print(f"rulecore games benchmark, Python {platform.python_version()} on {platform.machine()}, "
          f"rulecore from {os.path.dirname(rulecore.__file__)}")
    print()

    # --- Witching Hour against the plain loop
    print(f"{'Witching Hour, random':<38} {'games':>6} {'engine g/s':>11} {'plain g/s':>10} {'ratio':>7} "
          f"{'engine us/dec':>14} {'plain us/dec':>13}")
    out["witching_hour"] = {}
    for players in (3, 4):
        games = n(500)
        # best of --repeat for each side: the plain loop runs for a fraction of a second
        eng = min((bench_engine(rulecore, games, players, seed) for _ in range(args.repeat)), key=lambda r: r["seconds"])
        plain = min((bench_plain(games, players, seed) for _ in range(args.repeat)), key=lambda r: r["seconds"])
        (eg, ed), (pg, pd) = rate(eng), rate(plain)
        print(f"{f'  {players} players':<38} {games:>6} {eg:>11.1f} {pg:>10.1f} {eg / pg:>7.4f} "
              f"{1e6 / ed:>14.1f} {1e6 / pd:>13.2f}")
        out["witching_hour"][players] = {"games": games, "engine_gps": eg, "plain_gps": pg, "ratio": eg / pg,
                                         "engine_us_per_decision": 1e6 / ed, "plain_us_per_decision": 1e6 / pd}
    print()

    # --- games/s of the other games
    rows = [
        ("Witty Witches master, random", "witty-witches", 4, {}, "random", n(250)),
        ("Witty Witches apprentice, random", "witty-witches", 4, {"mode": "apprentice"}, "random", n(250)),
        ("Approaching Dawn, random", "approaching-dawn", 2, {}, "random", n(250)),
        ("Approaching Dawn, greedy", "approaching-dawn", 2, {}, "greedy", n(50)),
        ("Approaching Dawn, greedy:samples=1", "approaching-dawn", 2, {}, "greedy:samples=1", n(50)),
    ]
    print(f"{'game (players)':<38} {'games':>6} {'games/s':>11} {'decisions/s':>12} {'dec/game':>9} {'unfinished':>10}")
    out["games"] = {}
    for label, name, players, options, bot, games in rows:
        game = rulecore.Game(rulecore.load_cardset(name), players=players, options=options, record_events=False)
        r = play_games(game, games, seed, bot)
        g, d = rate(r)
        print(f"{f'  {label} ({players})':<38} {games:>6} {g:>11.1f} {d:>12.1f} {r['decisions'] / games:>9.1f} "
              f"{r['unfinished']:>10}")
        out["games"][label] = {"cardset": name, "players": players, "options": options, "bot": bot,
                               "games": games, "games_per_s": g, "decisions_per_s": d}
        judged = r["work"]["judged"]
        if judged:
            per = {k: v / judged for k, v in r["work"].items() if k != "judged"}
            print(f"{'':<38} per judged decision ({judged / games:.1f} a game): {per['dealt']:.2f} resamples, "
                  f"{per['kept']:.2f} worlds kept, {per['applies']:.2f} look-ahead applies")
            out["games"][label]["per_judged_decision"] = per
    print()

    # --- per-call costs on mid-game states
    print(f"{'per call, us (mid-game)':<38} {'states':>6} {'apply':>9} {'clone':>9} {'to_json':>9} {'load_state':>10} "
          f"{'resample':>9}")
    out["per_call_us"] = {}
    for label, name, players, options in [
        ("Witching Hour", "witching-hour", 4, {}),
        ("Witty Witches master", "witty-witches", 4, {}),
        ("Approaching Dawn", "approaching-dawn", 2, {}),
    ]:
        game = rulecore.Game(rulecore.load_cardset(name), players=players, options=options, record_events=False)
        states = mid_game_states(game, n(30), seed)
        c = per_call_us(states, game, args.calls)
        print(f"{f'  {label} ({players})':<38} {len(states):>6} {c['apply']:>9.1f} {c['clone']:>9.1f} "
              f"{c['to_json']:>9.1f} {c['load_state']:>10.1f} {c['resample']:>9.1f}")
        out["per_call_us"][label] = c
    print()
    print("Timings are informational; on a shared machine run twice and keep the better figure.")
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
