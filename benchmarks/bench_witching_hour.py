"""Benchmark: rulecore engine vs. a plain hand-written loop, Witching Hour.

Runs N uniformly random games through the rulecore public API and N random
games of the plain loop (benchmarks/plain_witching_hour.py) in one process, and
reports games/sec, decisions/sec and the engine/plain ratio. Also times
``rulecore.load_cardset`` for every built-in cardset.

    python benchmarks/bench_witching_hour.py --games 200 --players 4 --seed 0

If rulecore cannot be imported or the cardset cannot be loaded, the engine part
is skipped with a message and the plain-loop numbers are still reported.
Timings are informational only; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# measure the checkout this script lives in (repo root right after benchmarks/)
sys.path.insert(1, os.path.dirname(HERE))
import plain_witching_hour  # noqa: E402

CARDSET = "witching-hour"
MAX_STEPS = 200_000  # per engine game; a guard against a runaway engine, not a rule


def bench_plain(games: int, players: int, seed: int) -> dict:
    decisions = rounds = 0
    t0 = time.perf_counter()
    for i in range(games):
        r = plain_witching_hour.play_game(players, seed + i)
        decisions += r["decisions"]
        rounds += r["rounds"]
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": dt, "decisions": decisions, "rounds": rounds}


def bench_engine(rulecore, games: int, players: int, seed: int) -> dict:
    cs = rulecore.load_cardset(CARDSET)
    game = rulecore.Game(cs, players=players, record_events=False)  # as simulate runs it: no event log
    decisions = rounds = 0
    t0 = time.perf_counter()
    for i in range(games):
        s = seed + i
        state = game.new_game(seed=s)
        rng = random.Random(s)
        steps = 0
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
            if steps > MAX_STEPS:
                raise RuntimeError(f"engine game with seed {s} exceeded {MAX_STEPS} actions")
        decisions += steps
        rounds += int(state.result().get("rounds", 0))
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": dt, "decisions": decisions, "rounds": rounds}


def time_loads(rulecore, repeats: int = 3) -> list[tuple[str, float | None, str]]:
    """(name, best load time in ms or None, error text) for every built-in cardset."""
    rows = []
    for name in rulecore.builtin_cardsets():
        best, err = None, ""
        for _ in range(repeats):
            t0 = time.perf_counter()
            try:
                rulecore.load_cardset(name)
            except Exception as exc:  # report, do not abort the benchmark
                err = f"{type(exc).__name__}: {exc}".splitlines()[0][:70]
                break
            ms = (time.perf_counter() - t0) * 1000.0
            best = ms if best is None else min(best, ms)
        rows.append((name, best, err))
    return rows


def line(label: str, r: dict) -> str:
    gps = r["games"] / r["seconds"] if r["seconds"] else float("inf")
    dps = r["decisions"] / r["seconds"] if r["seconds"] else float("inf")
    return (f"{label:<8} {r['games']:>6} {r['seconds']:>9.3f} {gps:>11.1f} "
            f"{dps:>14.1f} {r['decisions'] / r['games']:>11.1f} {r['rounds'] / r['games']:>8.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per implementation (default 200)")
    ap.add_argument("--players", type=int, default=4, help="players, 2..5 (default 4)")
    ap.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed+i (default 0)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be >= 1")
    if not 2 <= args.players <= 5:
        ap.error("--players must be between 2 and 5")

    print(f"Witching Hour benchmark: {args.games} random games, {args.players} players, "
          f"seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}")
    print()

    engine = None
    engine_note = ""
    rulecore = None
    try:
        import rulecore  # type: ignore[no-redef]
    except Exception as exc:
        engine_note = f"engine skipped: cannot import rulecore ({type(exc).__name__}: {exc})"
    if rulecore is not None:
        print(f"rulecore from {getattr(rulecore, '__file__', None) or list(getattr(rulecore, '__path__', []))}")
        print()
        try:
            engine = bench_engine(rulecore, args.games, args.players, args.seed)
        except Exception as exc:
            engine_note = f"engine skipped: {type(exc).__name__}: {exc}"
            engine = None

    plain = bench_plain(args.games, args.players, args.seed)

    print(f"{'impl':<8} {'games':>6} {'seconds':>9} {'games/sec':>11} {'decisions/sec':>14} "
          f"{'dec/game':>11} {'rnd/game':>8}")
    if engine is not None:
        print(line("engine", engine))
    print(line("plain", plain))
    print()
    if engine is not None:
        e_gps = engine["games"] / engine["seconds"]
        p_gps = plain["games"] / plain["seconds"]
        e_dps = engine["decisions"] / engine["seconds"]
        p_dps = plain["decisions"] / plain["seconds"]
        how = (f"engine is {p_gps / e_gps:.1f}x slower" if e_gps <= p_gps
               else f"engine is {e_gps / p_gps:.1f}x faster")
        print(f"ratio engine/plain, games/sec:     {e_gps / p_gps:.4f}  ({how})")
        print(f"ratio engine/plain, decisions/sec: {e_dps / p_dps:.4f}")
        print("note: decisions = engine apply() calls vs. plain-loop random choices with >1 option;"
              " their granularity may differ.")
    else:
        print(engine_note)
    print()

    if rulecore is not None:
        try:
            rows = time_loads(rulecore)
        except Exception as exc:
            print(f"cardset load times skipped: {type(exc).__name__}: {exc}")
        else:
            print(f"{'cardset':<24} {'load ms (best of 3)':>20}")
            for name, ms, err in rows:
                print(f"{name:<24} {('%.2f' % ms) if ms is not None else 'FAILED':>20}  {err}")
            if not rows:
                print("(rulecore.builtin_cardsets() returned no cardsets)")
    else:
        print("cardset load times skipped: rulecore not importable")
    return 0


if __name__ == "__main__":
    sys.exit(main())
