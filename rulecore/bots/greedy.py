"""The ``greedy`` bot: one action ahead on the cardset's heuristic, over worlds its seat cannot tell
apart, keeping those worlds from one decision to the next while only its own actions came between."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from ..errors import RuleError, RulecoreError
from .memory import Memory, MemoryBot
from .protocol import TERMINAL_SCALE, GameState, best_action, worlds as worlds_of


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

    Inside a sealed part (``simultaneously``) a choice kept sealed until the reveal looks like
    every other one action ahead; when the actions tied for the best each end the seat's part
    for now, they are judged again on the table at the reveal (``_tie_break_at_reveal``).
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
        worlds += worlds_of(state, me, [self.rng.getrandbits(63) for _ in range(self.samples - len(worlds))])
        return worlds

    def _at_reveal(self, child: GameState, me: int) -> GameState:
        """``child`` as it will be when the sealed part (``simultaneously``) that ``me`` just chose in is
        revealed: the other seats' parts still to come are played (in a copy, each decision with its
        first legal action, so that every action judged meets the same guess) until the reveal, or
        until ``me`` decides again.  A choice kept sealed (a card marked, to be moved at the
        reveal) then counts; outside a sealed part ``child`` itself is judged."""
        if not self._sealed_ahead(child, me):
            return child
        ahead = child.clone()
        for _ in range(_REVEAL_STEPS):
            if not self._sealed_ahead(ahead, me):
                break
            try:
                ahead.apply(ahead.legal_actions()[0])  # a fixed guess: the same for every action judged
            except RuleError:
                return child  # the rules cannot carry a part out here: judge the table as it is
            self.applies += 1
        return ahead

    def _tie_break_at_reveal(self, me: int, values: list[float], played: list[list[GameState]],
                             worlds: int) -> list[float]:
        """The values, with the actions tied for the best judged again at the reveal when each of them
        ends the seat's sealed part: inside a ``simultaneously`` part, a choice kept sealed (a card
        marked, moved when all parts are done) changes nothing the heuristic reads until the reveal,
        so every such choice looks alike one action ahead."""
        top = max(values)
        tied = [i for i, v in enumerate(values) if v >= top - 1e-9 * max(1.0, abs(top))]  # as best_action
        # judged again only when every tied action ends the seat's part for now (each world then waits on
        # another seat's sealed part), so that all of them are judged at the same point: the reveal
        ahead = [c for i in tied for c in played[i]]
        if len(tied) < 2 or not ahead or not all(self._sealed_ahead(c, me) for c in ahead):
            return values
        out = [v if i in tied else float("-inf") for i, v in enumerate(values)]  # only the tied stay in the running
        for i in tied:
            failed = worlds - len(played[i])
            out[i] = (sum(self.evaluate(self._at_reveal(c, me), me) for c in played[i])
                      - failed * TERMINAL_SCALE) / worlds
        return out

    @staticmethod
    def _sealed_ahead(child: GameState, me: int) -> bool:
        """Whether ``child`` waits on another seat's sealed part (its choice not yet revealed)."""
        return (getattr(child, "sealing", None) is not None and not child.is_terminal()
                and child.current_player != me)

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        if len(untried) == 1:
            self._kept = []
            return untried[0]
        worlds = self._worlds(state, me)
        self.judged += 1
        self.applies += len(worlds) * len(untried)
        values: list[float] = []
        children: list[list[GameState]] = []
        played: list[list[GameState]] = []  # every world the action could be carried out in
        steps = [_stepping(world) for world in worlds]
        for action in untried:
            total = 0.0
            after: list[GameState] = []
            done: list[GameState] = []
            for world, step in zip(worlds, steps):
                child = world.clone()
                try:
                    step(child, action)
                except RuleError:
                    total -= TERMINAL_SCALE  # a world where the rules cannot carry it out
                    continue
                total += self.evaluate(child, me)
                done.append(child)
                if not child.is_terminal():
                    after.append(child)
            values.append(total / len(worlds))
            children.append(after)
            played.append(done)
        values = self._tie_break_at_reveal(me, values, played, len(worlds))
        best = best_action(untried, values, self.rng)
        self._kept = children[untried.index(best)]
        self._at = _length(state) + 1
        return best

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed}, samples={self.samples})"


def _stepping(world: GameState) -> Callable[[GameState, str], object]:
    """How to carry out an action on a copy of ``world`` that is dropped if the rules fail: by its
    position, without the snapshot ``apply`` keeps to undo an error (a resampled world keeps one on
    every action) and leaving the next question unbuilt until it is read, where the state can
    (rulecore's ``State._apply_index_discarding``); else, and for an action ``world`` does not offer
    (``apply`` says why), with ``apply``."""
    discarding = getattr(type(world), "_apply_index_discarding", None)
    if discarding is None:
        return lambda child, action: child.apply(action)
    position = {action: i for i, action in enumerate(world.legal_actions())}

    def step(child: GameState, action: str) -> object:
        i = position.get(action)
        return child.apply(action) if i is None else discarding(child, i)

    return step


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

