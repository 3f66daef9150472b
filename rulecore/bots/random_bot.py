"""The ``random`` bot: a uniformly random legal action (one not yet tried at the same decision)."""

from __future__ import annotations

import random

from .memory import Memory, MemoryBot
from .protocol import GameState


class RandomBot(MemoryBot):
    """Chooses uniformly at random among the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.memory = Memory()

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        return self.rng.choice(untried)

    def _pick_index(self, state: GameState, me: int, actions: list[str]) -> int:
        return self.rng.choice(range(len(actions)))  # the same draw as ``choice(actions)``

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
