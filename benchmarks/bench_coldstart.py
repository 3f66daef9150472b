"""Cold start: `import rulecore` and the first `load_cardset` of each built-in game, in fresh processes.

For each built-in game and each checkout given (this one, and by default /work/main, the start of
the round, run the same way in the same run), each repeat runs two new Python processes with an
empty cache folder of their own (RULECORE_CACHE for the cardset cache, XDG_CACHE_HOME for what
older checkouts kept there):

    cold   import rulecore, then load_cardset(game) with the cache empty, then load_cardset(game) again
    warm   a second process on the same cache folder: import rulecore, then load_cardset(game)

and prints the median of each figure in milliseconds: `import`, `first load (cold)`, `first load
(warm disk cache)`, `later load (same process)`, with the start-up of a bare `python -c pass` (the
floor any process pays) measured in the same run.  Usage:

    PYTHONPATH=. python benchmarks/bench_coldstart.py [--repeat 5] [--against /work/main] [--games a,b]

``--installed PYTHON`` (repeatable) measures, besides the checkouts, the rulecore installed for that
interpreter (a venv's ``bin/python`` after ``pip install rulecore-*.whl``), run from an empty folder:
an installed wheel ships its built-in cardsets checked (``rulecore.cardset.shipped``), a checkout
does not, so only there does the ``cold`` column show what a new install's first load costs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
t0 = time.perf_counter()
import rulecore
t1 = time.perf_counter()
rulecore.load_cardset(sys.argv[1])
t2 = time.perf_counter()
rulecore.load_cardset(sys.argv[1])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t2 - t1, "later": t3 - t2}))
"""


def _run(tree: Path | str, game: str, folder: str) -> dict[str, float]:
    """One process: a checkout (a folder: through PYTHONPATH) or an installed rulecore (an interpreter)."""
    env = {**os.environ, "RULECORE_CACHE": os.path.join(folder, "cardsets"), "XDG_CACHE_HOME": folder}
    if isinstance(tree, Path):
        env["PYTHONPATH"] = str(tree)
        python, cwd = sys.executable, str(tree)
    else:
        env.pop("PYTHONPATH", None)
        python, cwd = tree, folder
    out = subprocess.run([python, "-c", CHILD, game], env=env, cwd=cwd, check=True,
                         capture_output=True, text=True).stdout
    return {k: v * 1000 for k, v in json.loads(out.strip().splitlines()[-1]).items()}


def _bare() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - start) * 1000


def measure(tree: Path | str, game: str, repeat: int) -> dict[str, float]:
    rows: dict[str, list[float]] = {"import": [], "cold": [], "warm": [], "later": []}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="rulecore-bench-") as folder:
            cold = _run(tree, game, folder)
            warm = _run(tree, game, folder)
        rows["import"] += [cold["import"], warm["import"]]
        rows["cold"].append(cold["first"])
        rows["warm"].append(warm["first"])
        rows["later"] += [cold["later"], warm["later"]]
    return {name: statistics.median(values) for name, values in rows.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", default="/work/main", help="another checkout to run the same way ('' for none)")
    parser.add_argument("--games", default="", help="comma-separated built-in games (default: all)")
    parser.add_argument("--installed", action="append", default=[], metavar="PYTHON",
                        help="also measure the rulecore installed for this interpreter (repeatable)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from rulecore import builtin_cardsets

    games = [g for g in args.games.split(",") if g] or builtin_cardsets()
    trees: list[tuple[str, Path | str]] = [("this", HERE)] + ([("start", Path(args.against))] if args.against else [])
    trees += [(f"wheel{i + 1}", python) for i, python in enumerate(args.installed)]
    bare = statistics.median(_bare() for _ in range(max(3, args.repeat)))
    print(f"python -c pass: {bare:.0f} ms (median of {max(3, args.repeat)}); figures are medians of "
          f"{args.repeat} repeats, in ms")
    print(f"{'game':<18}{'checkout':<8}{'import':>9}{'cold':>9}{'warm':>9}{'later':>9}")
    for i, python in enumerate(args.installed):
        print(f"wheel{i + 1}: {python}")
    for game in games:
        for label, tree in trees:
            row = measure(tree, game, args.repeat)
            print(f"{game:<18}{label:<8}{row['import']:>9.1f}{row['cold']:>9.1f}{row['warm']:>9.1f}"
                  f"{row['later']:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
