"""Game-agnostic bots that play any rulecore game through the public State API.

Every bot is built with an integer seed and draws all of its randomness from its
own :class:`random.Random`, so a bot's choice is a pure function of its seed, the
sequence of states it has been asked about, and those states themselves.

The bots only use the public state API: ``current_player``, ``legal_actions()``,
``apply()``, ``clone()``, ``is_terminal()``, ``returns()``, ``heuristic()`` and ``view()``.

No bot repeats an action that led back to the same decision without change: each
remembers, per decision it met (its own view of the table, the question included), the
actions it took there.  Meeting that exact view again means those actions changed nothing
it can see (a "Not now" back to the same menu, two cards taking each other back), so it
picks among the others, and repeats one only when every action has been tried.
Note that the lookahead bots clone the *full* state, so in games with hidden
information they see what the seat they play could not (a perfect-information
"cheating" search); they are meant for balance simulation, not fair play.

May import: rulecore's public API (and so engine, cardset, lang, errors); never simulate or cli.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol, runtime_checkable

import rulecore

__all__ = [
    "BOT_NAMES",
    "Bot",
    "GameState",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
]

#: Value a lookahead bot gives a terminal state won by the seat it plays.
TERMINAL_SCALE = 1000.0


class GameState(Protocol):
    """The part of ``rulecore`` State that bots rely on."""

    @property
    def current_player(self) -> int | None: ...

    def legal_actions(self) -> list[str]: ...

    def apply(self, action: str) -> object: ...

    def clone(self) -> GameState: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> Sequence[float]: ...

    def heuristic(self, player: int) -> float: ...

    def view(self, player: int) -> Mapping[str, object]: ...


@runtime_checkable
class Bot(Protocol):
    """A player: given a state where it must decide, return one legal action."""

    name: str

    def choose(self, state: GameState) -> str:
        """Return one of ``state.legal_actions()`` for ``state.current_player``."""
        ...


def _deciding_seat(state: GameState) -> int:
    seat = state.current_player
    if seat is None or state.is_terminal():
        raise rulecore.RulecoreError("a bot was asked to choose in a finished game")
    return seat


def _legal(state: GameState) -> list[str]:
    actions = list(state.legal_actions())
    if not actions:
        raise rulecore.RulecoreError(
            f"seat {state.current_player} has to decide but has no legal action"
        )
    return actions


class _Memory:
    """The actions a bot took at the decisions it met lately: per decision, the seat, the legal
    actions and the bot's view of the table (the question included), and what it took there.

    A cycle without change is short, so the last ``RECENT`` decisions are enough; comparing the
    actions first keeps the views out of most comparisons."""

    RECENT = 64

    def __init__(self) -> None:
        self.recent: list[tuple[tuple[int, tuple[str, ...]], Mapping[str, object], set[str]]] = []

    def untried(self, state: GameState, me: int, actions: list[str]) -> tuple[list[str], set[str]]:
        """The actions not yet taken at this decision (all of them when every one has been),
        and the set to record the choice in."""
        sig = (me, tuple(actions))
        view = state.view(me)
        recent = self.recent
        for i in range(len(recent) - 1, -1, -1):
            seen_sig, seen_view, taken = recent[i]
            if seen_sig == sig and seen_view == view:
                del recent[i]
                recent.append((sig, view, taken))
                fresh = [a for a in actions if a not in taken]
                return fresh or actions, taken
        taken = set()
        recent.append((sig, view, taken))
        if len(recent) > self.RECENT:
            del recent[0]
        return actions, taken


def _best(
    actions: Sequence[str], values: Sequence[float], rng: random.Random
) -> str:
    """The highest-valued action; ties (within float noise) broken by ``rng``."""
    top = max(values)
    tolerance = 1e-9 * max(1.0, abs(top))
    best = [a for a, v in zip(actions, values) if v >= top - tolerance]
    return best[0] if len(best) == 1 else rng.choice(best)


class RandomBot:
    """Chooses uniformly at random among the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.memory = _Memory()

    def choose(self, state: GameState) -> str:
        me = _deciding_seat(state)
        actions = _legal(state)
        if len(actions) == 1:
            return actions[0]
        actions, taken = self.memory.untried(state, me, actions)
        action = self.rng.choice(actions)
        taken.add(action)
        return action

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


class GreedyBot:
    """One-ply lookahead on the cardset's heuristic.

    Each legal action is applied to a clone; the clone is valued by
    ``heuristic(me)``, or, when the action ends the game, by the final result:
    ``+1000`` for a win (``returns()[me] == 1``) down to ``-1000`` for a loss
    (``returns()[me] == 0``). A loss is negative rather than zero so that ending
    the game in defeat never looks better than a slightly bad ongoing position.
    Equal values are broken by the bot's own random generator.
    """

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.memory = _Memory()

    def evaluate(self, state: GameState, me: int) -> float:
        """Value of ``state`` for seat ``me`` (higher is better)."""
        if state.is_terminal():
            return (2.0 * float(state.returns()[me]) - 1.0) * TERMINAL_SCALE
        return float(state.heuristic(me))

    def choose(self, state: GameState) -> str:
        me = _deciding_seat(state)
        actions = _legal(state)
        if len(actions) == 1:
            return actions[0]
        actions, taken = self.memory.untried(state, me, actions)
        if len(actions) == 1:
            taken.add(actions[0])
            return actions[0]
        values: list[float] = []
        for action in actions:
            child = state.clone()
            child.apply(action)
            values.append(self.evaluate(child, me))
        action = _best(actions, values, self.rng)
        taken.add(action)
        return action

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"


class SearchBot:
    """Flat Monte Carlo search.

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

    name = "search"

    def __init__(self, seed: int, playouts: int = 8, depth: int = 200) -> None:
        if playouts < 1:
            raise rulecore.RulecoreError(f"SearchBot playouts must be >= 1, got {playouts}")
        if depth < 0:
            raise rulecore.RulecoreError(f"SearchBot depth must be >= 0, got {depth}")
        self.seed = seed
        self.playouts = playouts
        self.depth = depth
        self.rng = random.Random(seed)
        self.memory = _Memory()

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

    def choose(self, state: GameState) -> str:
        me = _deciding_seat(state)
        actions = _legal(state)
        if len(actions) == 1:
            return actions[0]
        actions, taken = self.memory.untried(state, me, actions)
        if len(actions) == 1:
            taken.add(actions[0])
            return actions[0]
        # outcome per playout: ("T", return) for finished games, ("H", heuristic) otherwise
        outcomes: list[list[tuple[bool, float]]] = []
        for action in actions:
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
        action = _best(actions, means, self.rng)
        taken.add(action)
        return action

    def __repr__(self) -> str:
        return f"SearchBot(seed={self.seed}, playouts={self.playouts}, depth={self.depth})"


_FACTORIES: Mapping[str, Callable[[int], Bot]] = MappingProxyType(
    {
        "random": RandomBot,
        "greedy": GreedyBot,
        "search": SearchBot,
    }
)

#: Names accepted by :func:`make_bot`.
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, seed: int) -> Bot:
    """Build the bot called ``name`` with ``seed``.

    ``name`` is "random", "greedy" or "search", optionally with settings:
    ``"search:playouts=2,depth=30"``.
    """
    if not isinstance(name, str):
        raise rulecore.RulecoreError(f"a bot name must be text, got {name!r}")
    key, _, settings = name.strip().partition(":")
    key = key.strip().lower()
    factory = _FACTORIES.get(key)
    if factory is None:
        raise rulecore.RulecoreError(
            f"unknown bot {name!r}; valid bots are: {', '.join(BOT_NAMES)}"
        )
    kwargs: dict[str, int] = {}
    if settings.strip():
        allowed = {"search": ("playouts", "depth")}.get(key, ())
        for item in settings.split(","):
            field, eq, value = item.partition("=")
            field = field.strip()
            if not eq or field not in allowed:
                hint = f"settings for {key}: {', '.join(allowed)}" if allowed else f"the {key} bot takes no settings"
                raise rulecore.RulecoreError(f"bad bot setting {item.strip()!r} in {name!r} ({hint})")
            try:
                kwargs[field] = int(value)
            except ValueError:
                raise rulecore.RulecoreError(f"bot setting {field!r} must be an integer (got {value.strip()!r})") from None
    return factory(seed, **kwargs)  # type: ignore[call-arg]
