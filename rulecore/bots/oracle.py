"""The ``oracle`` bot: flat Monte Carlo search on the TRUE state, hidden cards included (an upper
bound for balance work, never a fair opponent)."""

from __future__ import annotations

import math
import random

from ..errors import RulecoreError
from .memory import Memory, MemoryBot
from .protocol import GameState, best_action


class OracleBot(MemoryBot):
    """Flat Monte Carlo search on the TRUE state: it sees every hidden card (not a fair player).

    It clones the full state, so it knows other players' hands, face-down piles and
    the order of every future shuffle; use it for upper bounds in balance work, never
    as an opponent that plays by the rules of information.

    For each legal action, ``playouts`` random playouts are run from a clone
    with that action applied, for at most ``depth`` further decisions. A playout
    that reaches the end of the game is worth ``returns()[me]`` (0..1). One cut
    off by the depth limit is worth its ``heuristic(me)``, normalised into
    ``[0.1, 0.9]`` by min-max scaling over all cut-off playouts of this
    decision (0.5 when they all agree), so that a finished win or loss always
    outweighs a heuristic guess while heuristics of any scale still rank
    positions. The action with the best mean value is chosen; ties are broken
    by the bot's own random generator, which also drives the playouts.
    """

    name = "oracle"

    def __init__(self, seed: int, playouts: int = 8, depth: int = 200) -> None:
        if playouts < 1:
            raise RulecoreError(f"oracle playouts must be >= 1, got {playouts}")
        if depth < 0:
            raise RulecoreError(f"oracle depth must be >= 0, got {depth}")
        self.seed = seed
        self.playouts = playouts
        self.depth = depth
        self.rng = random.Random(seed)
        self.memory = Memory()

    def _playout(self, state: GameState) -> GameState:
        """Play random moves on ``state`` (mutated) for up to ``depth`` decisions."""
        rng = self.rng
        for _ in range(self.depth):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            if not actions:
                break
            state.apply(actions[0] if len(actions) == 1 else rng.choice(actions))
        return state

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        if len(untried) == 1:
            return untried[0]
        # outcome per playout: ("T", return) for finished games, ("H", heuristic) otherwise
        outcomes: list[list[tuple[bool, float]]] = []
        for action in untried:
            per_action: list[tuple[bool, float]] = []
            for _ in range(self.playouts):
                child = state.clone()
                child.apply(action)
                end = self._playout(child)
                if end.is_terminal():
                    per_action.append((True, float(end.returns()[me])))
                else:
                    per_action.append((False, float(end.heuristic(me))))
            outcomes.append(per_action)
        heuristics = [v for row in outcomes for terminal, v in row if not terminal]
        low = min(heuristics, default=0.0)
        high = max(heuristics, default=0.0)
        span = high - low

        def value(terminal: bool, v: float) -> float:
            if terminal:
                return v
            if span <= 0.0 or not math.isfinite(span):
                return 0.5
            return 0.1 + 0.8 * (v - low) / span

        means = [sum(value(t, v) for t, v in row) / len(row) for row in outcomes]
        return best_action(untried, means, self.rng)

    def __repr__(self) -> str:
        return f"OracleBot(seed={self.seed}, playouts={self.playouts}, depth={self.depth})"

