"""A fixed set of decisions for ismcts (tests/test_bots.py pins the actions it picks there, recorded
before its playouts were made cheaper, so that a faster search is shown to be the same search).

``cases()`` gives (name, state, bot spec, seed): the first decisions with a real choice of random
Witching Hour games at 3 and 2 players and of Approaching Dawn at 2 players, each decided by a
fresh bot (small iteration counts, so the test stays quick; a few at the defaults of the time,
iterations=200, depth=2, width=8, written out since the defaults changed)."""

from __future__ import annotations

import random
from typing import Any, Iterator

import rulecore


def decision_states(game: Any, count: int, seed: int, skip: int = 0) -> list[Any]:
    """The first ``count`` states with a real choice of a random game (after ``skip`` of them)."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    out: list[Any] = []
    seen = 0
    while not state.is_terminal() and len(out) < count:
        actions = state.legal_actions()
        if len(actions) > 1:
            if seen >= skip:
                out.append(state.clone())
            seen += 1
        state.apply(rng.choice(actions))
    return out


def cases() -> Iterator[tuple[str, Any, str, int]]:
    wh = rulecore.load_cardset("witching-hour")
    wh3 = rulecore.Game(wh, players=3, record_events=False)
    for i, state in enumerate(decision_states(wh3, 8, 11, skip=2) + decision_states(wh3, 6, 12, skip=6)):
        yield f"wh3-{i}", state, "ismcts:iterations=40,depth=2,width=8", i
    wh2 = rulecore.Game(wh, players=2, record_events=False)
    for i, state in enumerate(decision_states(wh2, 3, 5, skip=1)):
        yield f"wh2-{i}", state, "ismcts:iterations=200,depth=2,width=8", 100 + i  # the defaults until 2026-12-02
    for i, state in enumerate(decision_states(wh3, 2, 13, skip=3)):
        yield f"wh3-width0-{i}", state, "ismcts:iterations=30,width=0,depth=4", 200 + i
        yield f"wh3-worlds0-{i}", state, "ismcts:iterations=30,worlds=0,depth=2,width=8", 300 + i
    ad = rulecore.Game(rulecore.load_cardset("approaching-dawn"), players=2, record_events=False)
    states = [s for seed in (21, 22, 23) for s in decision_states(ad, 2, seed, skip=8)]
    for i, state in enumerate(states):
        yield f"ad2-{i}", state, "ismcts:iterations=25,depth=2,width=8", 400 + i
