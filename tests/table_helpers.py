"""Helpers every game's scenario tests use to read the table, and to play a game on at random."""

from __future__ import annotations

import random
from typing import Any, Iterable

import rulecore

# (cardset, players, options): every built-in game and mode
TABLES = [
    ("witching-hour", 2, {}),
    ("witching-hour", 3, {}),
    ("witching-hour", 4, {}),
    ("witching-hour", 5, {}),
    ("witty-witches", 2, {}),
    ("witty-witches", 4, {}),
    ("witty-witches", 3, {"mode": "apprentice"}),
    ("approaching-dawn", 2, {"scene": "training-day"}),
    ("approaching-dawn", 3, {"scene": "all-hallows-eve"}),
    ("approaching-dawn", 2, {"scene": "winter-solstice"}),
    ("approaching-dawn", 4, {"scene": "blood-moon"}),
    ("approaching-dawn", 2, {"scene": "spring-revival"}),
    ("approaching-dawn", 3, {"scene": "dawn-of-the-overlord"}),
]
TABLE_IDS = [f"{n}-{p}p-{'-'.join(map(str, o.values())) or 'default'}" for n, p, o in TABLES]


def types_of(state: rulecore.State, cards: Iterable[int]) -> list[str]:
    """Sorted card type ids of some card instances."""
    itype = state.rules.instance_type
    return sorted(itype[c] for c in cards)


def zone(state: rulecore.State, key: str) -> list[str]:
    """A zone as a sorted list of card type ids."""
    return types_of(state, state.zones[key])


def options(state: rulecore.State) -> set[str]:
    """The labels of the pending decision."""
    return set(state.legal_actions())


def random_play(game: rulecore.Game, seed: int, steps: int) -> rulecore.State:
    """The game from ``seed`` after up to ``steps`` random actions (seeded by ``seed``), stopping before the end."""
    state = game.new_game(seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        after = state.clone()
        after.apply(rnd.choice(after.legal_actions()))
        if after.is_terminal():
            break
        state = after
    return state


def events(state: rulecore.State, kind: str, player: int | None = None) -> list[dict[str, Any]]:
    """The events of one type, as ``player`` sees them (None: all)."""
    return [e for e in state.events(player) if e["type"] == kind]


def play(state: rulecore.State, steps: int, seed: int = 0) -> rulecore.State:
    """Apply up to ``steps`` random legal actions (fewer if the game ends)."""
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


def finish(state: rulecore.State, seed: int = 0) -> rulecore.State:
    """Play ``state`` on at random (seeded by ``seed``) to its end."""
    return play(state, 10_000, seed)
