"""Hostile cardsets of issue 25 (items 1, 2 and 4): how long until each is stopped, and how much memory it takes.

Each case runs in a child process of its own (so that peak memories do not mix) at the default
limits (``step_limit`` 1,000,000), and reports:

- **outcome**: the located ``RuleError``/``CardsetError`` it ends with (its first words), or "runs"
  for the cases that must now play to the end;
- **seconds**: from the start of the step that is stopped (``Game()``, ``new_game``, ``heuristic``,
  the load) to the error;
- **peak MB**: the child's peak resident memory less what it held before that step (``ru_maxrss``).

For scale, the same run times a plain Python loop of 1,000,000 rounds (``x += i``): the step budget
is a million steps, each of which does at least that much.

    python benchmarks/bench_bounds.py
    python benchmarks/bench_bounds.py --case sum30 --json
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import rulecore  # noqa: E402
from rulecore.cardset.loader import load_cardset_text  # noqa: E402

from bounds_cases import (  # noqa: E402
    chain_cards, elifs, many_cards, nested_ands, nested_ifs, nested_loops, nested_sum, nested_where, user_functions,
)
from conftest import Tiny  # noqa: E402

TINY = Tiny()


def _text(body: str, **kw: Any) -> str:
    return TINY.text(body, **kw)


def _load(text: str) -> rulecore.Cardset:
    return load_cardset_text(text, "inline.yaml")


def _play(cs: rulecore.Cardset) -> Callable[[], Any]:
    def run() -> Any:
        state = rulecore.Game(cs, 2).new_game(0)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        return state
    return run


def _heuristic(text: str) -> Callable[[], Callable[[], Any]]:
    def prepare() -> Callable[[], Any]:
        state = rulecore.Game(_load(text), 2).new_game(0)
        return lambda: state.heuristic(0)
    return prepare


# name -> (what it is, prepare: made before the clock starts, returns the step that is timed)
CASES: dict[str, tuple[str, Callable[[], Callable[[], Any]]]] = {
    "sum30": ("sum(players, ...) nested 30 deep (2^30 values)",
              lambda: _play(_load(_text(f"say {nested_sum(30)}")))),
    "functions24": ("f_i = f_(i+1)() + f_(i+1)(), 24 deep (16M calls)",
                    lambda: _play(_load(_text("say f0()") + user_functions(24)))),
    "where3x3000": ("where nested 3 deep over 3,000 cards (2.7e10 visits)",
                    lambda: _play(_load(_text(f"say count({nested_where(3)})", cards=many_cards(3000))))),
    "include_if": ("include_if with sums nested 30 deep (in Game())",
                   lambda: (lambda cs: lambda: rulecore.Game(cs, 2))(
                       _load(_text("say 1", cards=f"big: {{count: 1, include_if: '{nested_sum(30)} > 0'}}")))),
    "winners": ("end.winners with sums nested 30 deep",
                lambda: _play(_load(_text("say 1", winners=f"players where {nested_sum(30)} > 0")))),
    "menu_labels": ("menu labels with sums nested 30 deep",
                    lambda: _play(_load(_text(f'choose by 0 "Pick" {{ option each c in top(deck, 2) label "x" + '
                                              f'{nested_sum(30)} {{ say c }} }}')))),
    "heuristic": ("heuristic: where nested 3 deep over 3,000 cards",
                  _heuristic(_text("say 1", cards=many_cards(3000)) + f"heuristic: count({nested_where(3)})\n")),
    "chain10000": ("chain() over 10,000 cards (was 935 MB)",
                   lambda: _play(_load(_text('say count(chain(deck, none, 1, "g"))', cards=chain_cards(10_000))))),
    "say512k": ("3,000 'say' of distinct 512K texts (was MemoryError at 1.5 GB)",
                lambda: _play(_load(_text('let s = "ab"\nrepeat 18 { let s = s + s }\nrepeat 3000 { say s + round }')))),
    "marks": ("a new mark on every card again and again (was 1.3 GB)",
              lambda: _play(_load(_text('let i = 0\nwhile i < 10000 { mark card deck as "m" + i\nlet i = i + 1 }',
                                        cards=many_cards(3000))))),
    "family_format": ('families: name: "{p0:>1000000000}" (was 1.9 GB)',
                      lambda: lambda: _load(_text("say 1") + 'families:\n  f:\n    each:\n      p0: [a, b]\n'
                                            '    name: "{p0:>1000000000}"\n')),
    "usable_loop": ("usable() -> when -> function -> usable() in end.winners (was RecursionError)",
                    lambda: _play(_load(_text("say 1", winners='players where any(deck, usable(it, "spin"))',
                                              cards='loop:\n  count: 1\n  abilities:\n    spin:\n      when: again(this)'
                                                    '\n      do: say 1')
                                        + 'functions:\n  again:\n    params: [c]\n    value: usable(c, "spin")\n'))),
    "loops21": ("21 nested loops (was SyntaxError)", lambda: _play(_load(_text(nested_loops(21))))),
    "ifs98": ("98 nested ifs (was IndentationError)", lambda: _play(_load(_text(nested_ifs(98))))),
    "elifs97": ("97 elifs (was IndentationError)", lambda: _play(_load(_text(elifs(97))))),
    "and99": ("and nested 99 deep (was IndentationError)", lambda: _play(_load(_text(f"say {nested_ands(99)}")))),
    "number70": ("choose number from [100..169], played by ids (was KeyError)",
                 lambda: (lambda g: lambda: _by_ids(g))(rulecore.Game(_load(_text(
                     "let n = choose number from [" + ", ".join(str(100 + i) for i in range(70)) + '] by 0 "Pick"\nsay n')),
                     2))),
}


def _by_ids(game: rulecore.Game) -> Any:
    state = game.new_game(0)
    while not state.is_terminal():
        state.apply_id(state.legal_action_ids()[-1])
    return state


def run_case(name: str) -> dict[str, Any]:
    step = CASES[name][1]()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    try:
        step()
        outcome = "runs"
    except rulecore.RulecoreError as exc:
        text = str(exc).splitlines()[0]
        outcome = f"{type(exc).__name__}: {text[:110]}"
    except BaseException as exc:  # noqa: BLE001 - a Python exception is what this benchmark looks for
        outcome = f"PYTHON {type(exc).__name__}: {str(exc)[:80]}"
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"case": name, "outcome": outcome, "seconds": round(seconds, 3), "peak_mb": round((peak - before) / 1024, 1)}


def plain_loop() -> float:
    start = time.perf_counter()
    x = 0
    for i in range(1_000_000):
        x += i
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=list(CASES), help="run only this case, in this process")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a case may take before it counts as hung")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case)))
        return
    print(f"plain Python loop, 1,000,000 rounds: {plain_loop():.3f} s")
    for name, (what, _) in CASES.items():
        try:
            out = subprocess.run([sys.executable, __file__, "--case", name], capture_output=True, text=True,
                                 timeout=args.timeout, check=False)
            row = json.loads(out.stdout.strip().splitlines()[-1]) if out.stdout.strip() else \
                {"case": name, "outcome": f"crashed: {out.stderr.strip().splitlines()[-1:]}", "seconds": None,
                 "peak_mb": None}
        except subprocess.TimeoutExpired:
            row = {"case": name, "outcome": f"still running after {args.timeout:.0f} s", "seconds": None, "peak_mb": None}
        if args.json:
            print(json.dumps(row))
        else:
            print(f"{name:14} {what}\n{'':14} {row['seconds']} s, peak {row['peak_mb']} MB: {row['outcome']}")


if __name__ == "__main__":
    main()
