"""Shared by tests/golden/record.py (which writes the golden games) and tests/test_golden.py (which replays them).

A golden game is a seeded game played by a random player whose choices come from
``random.Random(seed)``, independent of the engine: at every decision it picks
``legal_actions()[rng.randrange(len(legal))]`` (a few Approaching Dawn games are played by
the greedy bot instead, see ``chooser``).  What is kept of it (see record.py):
the history, ``result()``, and sha256 hashes of ``to_json()`` at a few checkpoints and
at the end, so the files stay small.

Two hashes are kept per checkpoint:

- ``json``: of the exact ``to_json()`` text; pins the save format too, including the
  interpreter's frames ("frames", "envs"), which a new engine may lay out differently.
- ``observable``: of the same payload without "frames" and "envs", keys sorted; pins
  everything a player, a UI or a bot can tell apart (zones, counters, vars, the random
  generator's state, the pending decision with its prompt and labels, the event log ...).

The final state of a finished game has no frames, so both final hashes must hold.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import random
from typing import Any, Callable, Iterator

import rulecore
from rulecore.bots import make_bot

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
ENGINE_INTERNALS = ("frames", "envs")  # the only to_json keys left out of the observable hash


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def observable_sha(state_json: str) -> str:
    """The hash of a saved state without the interpreter's own frames, keys sorted."""
    data = json.loads(state_json)
    for key in ENGINE_INTERNALS:
        data.pop(key, None)
    return sha(json.dumps(data, sort_keys=True, separators=(",", ":")))


def state_hashes(state: Any) -> dict[str, str]:
    text = state.to_json()
    return {"json": sha(text), "observable": observable_sha(text)}


def checkpoints(total: int) -> list[int]:
    """After how many decisions a game's state is hashed on the way (a quarter, half, three quarters)."""
    return sorted({total // 4, total // 2, (3 * total) // 4} - {0, total})


def chooser(kind: str, seed: int, players: int) -> Callable[[Any], str]:
    """Who picks the actions of golden game ``seed``: state -> action.

    "random": ``legal_actions()[rng.randrange(len(legal))]`` with ``random.Random(seed)``,
    independent of the engine's generator.  "greedy": rulecore's greedy bot in every seat,
    seat ``s`` seeded ``1000 * seed + s`` (it reaches the later hours of a cooperative game
    that random play loses early).
    """
    if kind == "random":
        rng = random.Random(seed)
        return lambda state: pick(rng, state.legal_actions())
    if kind == "greedy":
        seats = [make_bot("greedy", 1000 * seed + seat) for seat in range(players)]
        return lambda state: seats[state.current_player].choose(state)
    raise ValueError(f"unknown chooser {kind!r}")


def pick(rng: random.Random, legal: list[str]) -> str:
    return legal[rng.randrange(len(legal))]


@functools.lru_cache(maxsize=None)
def cardset(name: str) -> Any:
    return rulecore.load_cardset(name)


@functools.lru_cache(maxsize=None)
def _game(name: str, players: int, options: str) -> Any:
    return rulecore.Game(cardset(name), players=players, options=json.loads(options))


def game_for(name: str, players: int, options: dict[str, Any]) -> Any:
    """The Game for a recorded game (cached: building one compiles the cardset's rules)."""
    return _game(name, players, json.dumps(options, sort_keys=True))


def golden_files() -> list[str]:
    return sorted(os.path.join(GOLDEN_DIR, f) for f in os.listdir(GOLDEN_DIR) if f.endswith(".json"))


def load_golden(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def golden_games() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(file name, the file's data, one game) for every recorded game."""
    for path in golden_files():
        data = load_golden(path)
        for g in data["games"]:
            yield os.path.basename(path), data, g


def history_of(data: dict[str, Any], g: dict[str, Any]) -> list[str]:
    """A recorded game's actions (stored as indices into the file's list of distinct actions)."""
    vocab = data["actions"]
    return [vocab[i] for i in g["history"]]
