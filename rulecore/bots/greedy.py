"""The ``greedy`` bot: one action ahead on the cardset's heuristic, over worlds its seat cannot tell
apart, keeping those worlds from one decision to the next while only its own actions came between."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..errors import RuleError, RulecoreError
from .memory import Memory, MemoryBot
from .protocol import TERMINAL_SCALE, GameState, best_action


class GreedyBot(MemoryBot):
    """One-ply lookahead on the cardset's heuristic, over worlds its seat cannot tell apart.

    The bot deals ``samples`` worlds with ``state.resample(me, seed)`` (never
    looking at the true state's hidden cards), applies each legal action in
    each world and values the result by ``heuristic(me)``, or, when the action
    ends the game, by the final result: ``+1000`` for a win (``returns()[me] ==
    1``) down to ``-1000`` for a loss (``returns()[me] == 0``). A loss is
    negative rather than zero so that ending the game in defeat never looks
    better than a slightly bad ongoing position. An action is worth its mean
    over the worlds; equal values are broken by the bot's own random generator.

    Worlds are kept from one decision to the next while only the bot's own
    actions were taken in between: each world in which it took the same actions
    (its lookahead already did the first) and that shows its seat the same view
    and events as the real state is still a world the seat cannot tell apart, and
    is used again instead of a new resample (``kept``, ``dealt`` count both).
    """

    name = "greedy"

    def __init__(self, seed: int, samples: int = 2) -> None:
        if samples < 1:
            raise RulecoreError(f"greedy samples must be >= 1, got {samples}")
        self.seed = seed
        self.samples = samples
        self.rng = random.Random(seed)
        self.memory = Memory()
        self._kept: list[GameState] = []  # worlds after the bot's last action, to check at its next decision
        self._since: list[str] = []  # lone actions the bot answered since then
        self._at = -1  # the length of the history that keeps the worlds good for the next decision
        # work done, for benchmarks: decisions judged, worlds used again, worlds resampled, look-ahead applies
        self.judged = self.kept = self.dealt = self.applies = 0

    def evaluate(self, state: GameState, me: int) -> float:
        """Value of ``state`` for seat ``me`` (higher is better)."""
        if state.is_terminal():
            return (2.0 * float(state.returns()[me]) - 1.0) * TERMINAL_SCALE
        return float(state.heuristic(me))

    def _lone(self, state: GameState, action: str) -> None:
        if self._kept and _length(state) == self._at:
            self._since.append(action)
            self._at += 1
        else:
            self._kept = []

    def _worlds(self, state: GameState, me: int) -> list[GameState]:
        """The kept worlds the seat still cannot tell from ``state``, then new ones up to ``samples``."""
        worlds: list[GameState] = []
        if self._kept and _length(state) == self._at:
            key = _key(state, me, state.legal_actions())
            view: Mapping[str, object] | None = None
            events: Sequence[Mapping[str, object]] = ()
            for world in self._kept:
                try:
                    for action in self._since:
                        world.apply(action)
                except RulecoreError:
                    continue
                if world.current_player != me or _key(world, me, world.legal_actions()) != key:
                    continue
                if view is None:
                    view, events = state.view(me), state.events(me)
                if world.view(me) == view and world.events(me) == events:
                    worlds.append(world)
        self._kept, self._since = [], []
        self.kept += len(worlds)
        self.dealt += self.samples - len(worlds)
        worlds.extend(state.resample(me, self.rng.getrandbits(63)) for _ in range(self.samples - len(worlds)))
        return worlds

    def _at_reveal(self, child: GameState, me: int) -> GameState:
        """``child`` as it will be when the sealed part (``simultaneously``) that ``me`` just chose in is
        revealed: the other seats' parts still to come are played (at random, in a copy) until the
        reveal, or until ``me`` decides again.  A choice kept sealed (a card marked, to be moved at the
        reveal) then counts; outside a sealed part ``child`` itself is judged."""
        if getattr(child, "sealing", None) is None or child.is_terminal() or child.current_player == me:
            return child
        ahead = child.clone()
        for _ in range(_REVEAL_STEPS):
            if getattr(ahead, "sealing", None) is None or ahead.is_terminal() or ahead.current_player == me:
                break
            try:
                ahead.apply(self.rng.choice(ahead.legal_actions()))
            except RuleError:
                return child  # the rules cannot carry a part out here: judge the table as it is
            self.applies += 1
        return ahead

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        if len(untried) == 1:
            self._kept = []
            return untried[0]
        worlds = self._worlds(state, me)
        self.judged += 1
        self.applies += len(worlds) * len(untried)
        values: list[float] = []
        children: list[list[GameState]] = []
        for action in untried:
            total = 0.0
            after: list[GameState] = []
            for world in worlds:
                child = world.clone()
                try:
                    child.apply(action)
                except RuleError:
                    total -= TERMINAL_SCALE  # a world where the rules cannot carry it out
                    continue
                total += self.evaluate(self._at_reveal(child, me), me)
                if not child.is_terminal():
                    after.append(child)
            values.append(total / len(worlds))
            children.append(after)
        best = best_action(untried, values, self.rng)
        self._kept = children[untried.index(best)]
        self._at = _length(state) + 1
        return best

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed}, samples={self.samples})"


#: at most this many decisions of the other seats are played to reach the reveal of a sealed part
_REVEAL_STEPS = 64


def _length(state: GameState) -> int:
    """How many actions the game has had (each seat sees that many decisions being taken)."""
    return len(state.history)


def _key(state: GameState, me: int, actions: list[str]) -> tuple[object, ...]:
    """What a decision looks like at a glance, from the seat's view only (its legal actions and,
    for a rulecore state, the size of every zone): two decisions with different keys have
    different views."""
    zones = getattr(state, "zones", None)
    return (me, tuple(actions), tuple(map(len, zones.values())) if isinstance(zones, Mapping) else ())

