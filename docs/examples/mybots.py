"""Example bots of your own for ``rulecore simulate --bots ...,mybots:Cautious`` (see docs/bots.md).

From the repository root (the folder of this file on PYTHONPATH):

    PYTHONPATH=docs/examples rulecore simulate witching-hour --players 2 --games 200 --bots mybots:Cautious,random
"""

from __future__ import annotations

import random


class Cautious:
    """Looks one action ahead in a few worlds its seat cannot tell from the real one.

    It reads only what its seat may know: its legal actions, and worlds dealt by
    ``state.resample(me, seed)``; it never looks at the state's hidden cards itself.
    """

    name = "cautious"

    def __init__(self, seed: int, worlds: int = 6) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds

    def choose(self, state) -> str:
        me = state.current_player
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        worlds = [state.resample(me, self.rng.getrandbits(63)) for _ in range(self.worlds)]
        best, best_value = actions[0], float("-inf")
        for action in actions:
            value = 0.0
            for world in worlds:
                child = world.clone()
                child.apply(action)
                # a finished game counts by its result; otherwise the cardset's heuristic
                value += 1000.0 * (2 * child.returns()[me] - 1) if child.is_terminal() else child.heuristic(me)
            if value > best_value:
                best, best_value = action, value
        return best


def first_choice(seed: int):
    """A function works too: called with the seed, it returns an object with choose(state)."""

    class FirstChoice:
        name = "first"

        def choose(self, state) -> str:
            return state.legal_actions()[0]

    return FirstChoice()
