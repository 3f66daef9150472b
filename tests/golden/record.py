"""Record the golden games: seeded random games of every built-in game and mode, kept as outcomes.

    python tests/golden/record.py            # (re)write tests/golden/*.json
    python tests/golden/record.py --check    # record again in memory; exit 1 if anything differs

What it is for: tests/test_golden.py replays every game recorded here and checks that the
engine still asks the same decisions (same actions, same order), reaches the same result and
the same saved state, and that replay, save/load and clone continue identically.  It pins
today's behaviour so that an engine rewrite (compiled execution, issue 9) can prove it changed
nothing a player could tell.

Each game is played by a random player with its own generator, ``random.Random(seed)``,
independent of the engine's: at each decision it takes ``legal_actions()[randrange(len)]``
(tests/golden_helpers.py); approaching-dawn-greedy.json has games of the greedy bot in every
seat, which reach the later hours that random play never sees.  Per game the file keeps the history (as indices into the file's
list of distinct actions), ``result()``, and sha256 hashes of ``to_json()`` at a quarter, half
and three quarters of the game and at the end: ``json`` (the exact text) and ``observable``
(without the interpreter's "frames" and "envs"; see golden_helpers).  Approaching Dawn games
stop after ``max_decisions`` if they have not ended ("terminal": false); the partial state is
what is hashed.  Games are made with the default ``record_events=True``, so the event log is
part of every hash.

When to re-record: only when behaviour changes on purpose -- a rule fixed, a label reworded,
options offered in another order, a card added, the save format changed.  Then run this
script, look at which games changed (``git diff --stat tests/golden``), and explain in the
commit message why each change is intended.  A change that only moves "frames"/"envs" (the
``json`` hashes of checkpoints mid-game) while every ``observable`` hash holds is a change of
the save format, not of play; say so.  Never re-record to make a failing test pass without
knowing why it failed.

Determinism: ``--check`` records everything again and compares; run it also under another
``PYTHONHASHSEED`` (``PYTHONHASHSEED=123 python tests/golden/record.py --check``) to show
nothing depends on set or dict hashing order.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, TESTS)
sys.path.insert(0, os.path.dirname(TESTS))  # this checkout's rulecore, not an installed one

import golden_helpers as gh  # noqa: E402

SCENES = ["training-day", "all-hallows-eve", "winter-solstice", "blood-moon", "spring-revival", "dawn-of-the-overlord"]
AD_MAX_DECISIONS = 400  # Approaching Dawn games are slow: a cap, the partial state is recorded
# greedy bots in some scenes repeat one menu step (a scene objective offered, then 'Not now')
# until the cap; 250 keeps every finished greedy game whole (the longest takes 159 decisions)
GREEDY_MAX_DECISIONS = 250


def _configs() -> list[dict[str, Any]]:
    """One output file each: cardset, (players, options, number of games) rows, decision cap."""
    files: list[dict[str, Any]] = [
        {"file": "witching-hour.json", "cardset": "witching-hour", "chooser": "random", "cap": None,
         "rows": [(p, {}, 20) for p in (2, 3, 4, 5)]},
        {"file": "witty-witches-master.json", "cardset": "witty-witches", "chooser": "random", "cap": None,
         "rows": [(p, {}, 12) for p in (2, 3, 4, 5)] + [(3, {"table_talk": False}, 4)]},
        {"file": "witty-witches-apprentice.json", "cardset": "witty-witches", "chooser": "random", "cap": None,
         "rows": [(p, {"mode": "apprentice"}, 10) for p in (2, 3, 4, 5)]},
    ]
    for scene in SCENES:
        files.append({
            "file": f"approaching-dawn-{scene}.json", "cardset": "approaching-dawn", "chooser": "random",
            "cap": AD_MAX_DECISIONS,
            "rows": [
                (2, {"scene": scene}, 4),
                (4, {"scene": scene}, 4),
                (3, {"scene": scene, "difficulty": "hard"}, 2),
                (5, {"scene": scene, "difficulty": "easy"}, 2),
            ],
        })
    files.append({
        "file": "approaching-dawn-greedy.json", "cardset": "approaching-dawn", "chooser": "greedy",
        "cap": GREEDY_MAX_DECISIONS, "rows": [(p, {"scene": scene}, 1) for scene in SCENES for p in (2, 3)],
    })
    return files


def play(name: str, kind: str, players: int, options: dict[str, Any], seed: int, cap: int | None) -> dict[str, Any]:
    """One game: its history, result and state hashes."""
    game = gh.game_for(name, players, options)
    state = game.new_game(seed)
    choose = gh.chooser(kind, seed, players)
    while not state.is_terminal() and (cap is None or len(state.history) < cap):
        state.apply(choose(state))
    history = list(state.history)
    final = gh.state_hashes(state)
    result = state.result()
    # a second pass from the seed, to hash the states on the way
    marks = gh.checkpoints(len(history))
    points: dict[str, dict[str, str]] = {}
    again = game.new_game(seed)
    for k, action in enumerate(history, 1):
        again.apply(action)
        if k in marks:
            points[str(k)] = gh.state_hashes(again)
    return {
        "players": players, "options": options, "seed": seed,
        "terminal": state.is_terminal(), "decisions": len(history),
        "history": history, "result": result, "checkpoints": points, "final": final,
    }


def record_file(cfg: dict[str, Any]) -> dict[str, Any]:
    games = []
    for players, options, count in cfg["rows"]:
        for seed in range(count):
            games.append(play(cfg["cardset"], cfg["chooser"], players, options, seed, cfg["cap"]))
    vocab: dict[str, int] = {}
    for g in games:
        g["history"] = [vocab.setdefault(a, len(vocab)) for a in g["history"]]
    return {
        "about": "golden games: see tests/golden/record.py; replayed by tests/test_golden.py",
        "cardset": cfg["cardset"],
        "chooser": cfg["chooser"],
        "record_events": True,
        "max_decisions": cfg["cap"],
        "actions": list(vocab),
        "games": games,
    }


def dump(data: dict[str, Any]) -> str:
    """One game per line: small diffs when a few games change."""
    head = {k: v for k, v in data.items() if k not in ("actions", "games")}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"{json.dumps(k)}: {json.dumps(v)},")
    lines.append(f'"actions": {json.dumps(data["actions"], ensure_ascii=False)},')
    lines.append('"games": [')
    rows = [json.dumps(g, separators=(",", ":"), ensure_ascii=False) for g in data["games"]]
    lines.append(",\n".join(rows))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="record in memory and compare with the files; write nothing")
    ap.add_argument("--only", default="", help="only files whose name contains this text")
    args = ap.parse_args(argv)
    differ = 0
    for cfg in _configs():
        if args.only not in cfg["file"]:
            continue
        t0 = time.perf_counter()
        text = dump(record_file(cfg))
        path = os.path.join(HERE, cfg["file"])
        if args.check:
            try:
                with open(path, encoding="utf-8") as fh:
                    old = fh.read()
            except FileNotFoundError:
                old = None
            same = old == text
            differ += not same
            print(f"{cfg['file']:<44} {'same' if same else 'DIFFERS'}  ({time.perf_counter() - t0:.1f} s)")
        else:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            print(f"{cfg['file']:<44} {len(text) / 1000:7.1f} kB  ({time.perf_counter() - t0:.1f} s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
