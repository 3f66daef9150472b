"""Time to load and to validate every built-in cardset (and the variant examples in docs/).

For each cardset it reports, in milliseconds (best of --repeat runs):

- **load (cold)**: ``rulecore.load_cardset`` with its parse cache emptied first: YAML,
  schema, effect text, meaning checks;
- **load (warm)**: the same load again with the same ``cache=``: the cache gives back the
  cardset it kept while every file it was read from reads the same;
- **validate**: what ``rulecore validate FILE`` does: a cold load, the warnings, and a
  game made for the fewest and the most players;
- **stages**: of the cold load, the time spent reading YAML and parsing effect text.

    python benchmarks/bench_load.py                 # --repeat 5
    python benchmarks/bench_load.py --repeat 10 --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ["RULECORE_CACHE"] = "off"  # these figures are of building: no cardset kept on disk
import rulecore  # noqa: E402
from rulecore.cardset import stored  # noqa: E402
from rulecore.cardset.building import effects as _effects  # noqa: E402
from rulecore.cardset.cache import ParseCache  # noqa: E402
from rulecore.cardset.reading import reader as _reader, yamlsrc as _yamlsrc  # noqa: E402
from rulecore.lang import parser as _parser  # noqa: E402
from rulecore._resources import builtin_path  # noqa: E402
from rulecore.cli.validate import validate_file  # noqa: E402


def best(fn: Callable[[], Any], repeat: int, before: Callable[[], None] = lambda: None) -> float:
    times = []
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000.0


def stage_times(path: Path) -> tuple[float, float]:
    """(YAML ms, effect-parsing ms) of one cold load, by wrapping the two functions."""
    spent = {"yaml": 0.0, "parse": 0.0}
    real_yaml, real_parse = _yamlsrc.read_yaml, _parser.parse_effect

    def timed(key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[key] += time.perf_counter() - start

        return wrapper

    # the reader is the one caller of read_yaml while loading, the effect text reader of parse_effect
    patches = [(_reader, "read_yaml", timed("yaml", real_yaml)), (_effects, "parse_effect", timed("parse", real_parse))]
    saved = [(mod, name, getattr(mod, name)) for mod, name, _ in patches]
    try:
        for mod, name, fn in patches:
            setattr(mod, name, fn)
        rulecore.load_cardset(str(path), cache=False)  # a load without a cache parses everything
    finally:
        for mod, name, fn in saved:
            setattr(mod, name, fn)
    return spent["yaml"] * 1000.0, spent["parse"] * 1000.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)

    targets: list[tuple[str, Path]] = []
    for name in rulecore.builtin_cardsets():
        path = builtin_path(name)
        assert path is not None
        targets.append((name, path))
    for path in sorted((ROOT / "docs" / "examples").glob("*.yaml")):
        targets.append((f"docs/examples/{path.name}", path))

    rows = []
    for label, path in targets:
        cache = ParseCache()
        cold = best(lambda: rulecore.load_cardset(str(path), cache=cache), args.repeat,
                    lambda: (cache.clear(), stored.forget()))  # nor kept in the process
        stored.forget()
        warm = best(lambda: rulecore.load_cardset(str(path), cache=cache), args.repeat)
        check = best(lambda: validate_file(path), max(1, args.repeat // 2), stored.forget)
        yaml_ms, parse_ms = stage_times(path)
        cs = rulecore.load_cardset(str(path))
        rows.append({"cardset": label, "cards": len(cs.cards), "load_cold_ms": round(cold, 1),
                     "load_warm_ms": round(warm, 1), "validate_ms": round(check, 1), "yaml_ms": round(yaml_ms, 1),
                     "effects_ms": round(parse_ms, 1)})

    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    head = f"{'cardset':<46} {'types':>5} {'load cold':>10} {'load warm':>10} {'validate':>9} {'yaml':>7} {'effects':>8}"
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r['cardset']:<46} {r['cards']:>5} {r['load_cold_ms']:>8.1f}ms {r['load_warm_ms']:>8.1f}ms "
              f"{r['validate_ms']:>7.1f}ms {r['yaml_ms']:>5.1f}ms {r['effects_ms']:>6.1f}ms")
    print(f"(best of {args.repeat}; 'load warm' is a second load with the same ParseCache: the kept cardset "
          f"while its files read the same)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
