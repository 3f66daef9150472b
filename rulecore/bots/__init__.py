"""Game-agnostic bots that play any rulecore game through the public State API.

Every bot is built with an integer seed and draws all of its randomness from its
own :class:`random.Random`, so a bot's choice is a pure function of its seed, the
sequence of states it has been asked about, and what those states let it know.

Fair bots (``random``, ``greedy``, ``ismcts``) only look at the seat they play:
``current_player``, ``legal_actions()``, ``view()`` and worlds dealt by
``state.resample(seat, seed)``, never the true state's hidden cards.  The
``oracle`` bot clones the *full* state, so in games with hidden information it
sees what its seat could not (other hands, face-down piles, future shuffles): it
gives upper bounds for balance work, not a fair opponent.  See docs/bots.md.

No bot repeats an action that led back to the same decision without change: each
remembers, per decision it met (its own view of the table, the question included), the
actions it took there.  Meeting that exact view again means those actions changed nothing
it can see (a "Not now" back to the same menu, two cards taking each other back), so it
picks among the others, and repeats one only when every action has been tried.  A rulecore
state gives that view as a compact key (``State._view_key``) without building it.

May import: rulecore's public API (and so engine, cardset, lang, errors); never simulate or cli.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol, runtime_checkable

import rulecore
from . import ismcts as _ismcts

__all__ = [
    "BOT_NAMES",
    "Bot",
    "GameState",
    "GreedyBot",
    "ISMCTSBot",
    "OracleBot",
    "RandomBot",
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

    def events(self, player: int) -> Sequence[Mapping[str, object]]: ...

    @property
    def history(self) -> Sequence[str]: ...

    def resample(self, player: int, seed: int) -> GameState: ...


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
    """The actions a bot took at the decisions it met lately: per decision, its key (the seat, the legal
    actions and what the seat sees: ``State._view_key``, equal exactly when the seat's view is; a state
    without one is known by its ``view``) and what the bot took there.

    A cycle without change is short, so the last ``RECENT`` decisions are enough: ``recent`` holds
    them by key, the one met longest ago first."""

    RECENT = 64

    def __init__(self) -> None:
        self.recent: dict[tuple[object, ...], set[str]] = {}

    def untried(self, state: GameState, me: int, actions: list[str]) -> tuple[list[str], set[str]]:
        """The actions not yet taken at this decision (all of them when every one has been),
        and the set to record the choice in."""
        view_key = getattr(state, "_view_key", None)
        seen = view_key(me) if view_key is not None else state.view(me)
        key: tuple[object, ...] = (me, tuple(actions), seen)
        recent = self.recent
        try:
            taken = recent.get(key)
        except TypeError:  # a view that is no key (it holds a list or dict): found by comparing
            key = (me, key[1], _Unhashable(seen))
            taken = recent.get(key)
        if taken is not None:
            del recent[key]
            recent[key] = taken  # met again: now the latest
            fresh = [a for a in actions if a not in taken]
            return fresh or actions, taken
        taken = recent[key] = set()
        if len(recent) > self.RECENT:
            del recent[next(iter(recent))]
        return actions, taken


class _Unhashable:
    """A value that cannot be hashed, as a dict key: all share one hash, so they are told apart by ``==``."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unhashable) and self.value == other.value


def _key(state: GameState, me: int, actions: list[str]) -> tuple[object, ...]:
    """What a decision looks like at a glance, from the seat's view only (its legal actions and,
    for a rulecore state, the size of every zone): two decisions with different keys have
    different views."""
    zones = getattr(state, "zones", None)
    return (me, tuple(actions), tuple(map(len, zones.values())) if isinstance(zones, Mapping) else ())


def _best(
    actions: Sequence[str], values: Sequence[float], rng: random.Random
) -> str:
    """The highest-valued action; ties (within float noise) broken by ``rng``."""
    top = max(values)
    tolerance = 1e-9 * max(1.0, abs(top))
    best = [a for a, v in zip(actions, values) if v >= top - tolerance]
    return best[0] if len(best) == 1 else rng.choice(best)


class _MemoryBot:
    """What every built-in bot does at a decision: answer a lone action at once, else leave out
    the actions already taken at this very decision (``_Memory``) and let ``_pick`` choose among
    the rest (all of them when every one has been tried)."""

    memory: _Memory

    def choose(self, state: GameState) -> str:
        me = _deciding_seat(state)
        actions = _legal(state)
        if len(actions) == 1:
            self._lone(state, actions[0])
            return actions[0]
        untried, taken = self.memory.untried(state, me, actions)
        action = self._pick(state, me, untried, actions)
        taken.add(action)
        return action

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        raise NotImplementedError

    def _lone(self, state: GameState, action: str) -> None:
        """Told of a decision with one legal action (``action``), answered without ``_pick``."""


class RandomBot(_MemoryBot):
    """Chooses uniformly at random among the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.memory = _Memory()

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        return self.rng.choice(untried)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


class GreedyBot(_MemoryBot):
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
            raise rulecore.RulecoreError(f"greedy samples must be >= 1, got {samples}")
        self.seed = seed
        self.samples = samples
        self.rng = random.Random(seed)
        self.memory = _Memory()
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
                except rulecore.RulecoreError:
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
                except rulecore.RuleError:
                    total -= TERMINAL_SCALE  # a world where the rules cannot carry it out
                    continue
                total += self.evaluate(child, me)
                if not child.is_terminal():
                    after.append(child)
            values.append(total / len(worlds))
            children.append(after)
        best = _best(untried, values, self.rng)
        self._kept = children[untried.index(best)]
        self._at = _length(state) + 1
        return best

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed}, samples={self.samples})"


def _length(state: GameState) -> int:
    """How many actions the game has had (each seat sees that many decisions being taken)."""
    return len(state.history)


class ISMCTSBot(_MemoryBot):
    """Information-set Monte Carlo tree search over worlds its seat cannot tell apart.

    ``worlds`` worlds are dealt with ``state.resample(me, seed)`` (0: a new one every
    iteration) and ``iterations`` iterations search them in turn with one shared tree (see
    :mod:`rulecore.bots.ismcts`): UCB with exploration constant ``c``, playouts of at most
    ``depth`` decisions below the tree, each taking the best of ``width`` actions one ply
    ahead for its chooser (0: at random), cut-offs valued by each seat's heuristic lead over
    its best rival (so a cardset without a heuristic wants a long random playout).
    Its choice depends only on what its seat may know and its seed.
    """

    name = "ismcts"

    def __init__(self, seed: int, iterations: int = 200, c: float = 0.1, depth: int = 2, worlds: int = 20,
                 width: int = 8) -> None:
        if iterations < 1 or worlds < 0:
            raise rulecore.RulecoreError(
                f"ismcts needs iterations >= 1 and worlds >= 0, got iterations={iterations}, worlds={worlds}")
        if depth < 0 or not c >= 0:
            raise rulecore.RulecoreError(f"ismcts needs depth >= 0 and c >= 0, got depth={depth}, c={c}")
        self.seed = seed
        self.iterations = iterations
        self.c = c
        self.depth = depth
        self.worlds = worlds
        self.width = width
        self.rng = random.Random(seed)
        self.memory = _Memory()

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        if len(untried) == 1:
            return untried[0]
        allowed = untried if len(untried) < len(actions) else None
        return _ismcts.search(state, me, len(state.returns()), self.iterations, self.c, self.depth, self.rng,
                              allowed, self.worlds, self.width)

    def __repr__(self) -> str:
        return (f"ISMCTSBot(seed={self.seed}, iterations={self.iterations}, c={self.c}, depth={self.depth}, "
                f"worlds={self.worlds})")


class OracleBot(_MemoryBot):
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
            raise rulecore.RulecoreError(f"oracle playouts must be >= 1, got {playouts}")
        if depth < 0:
            raise rulecore.RulecoreError(f"oracle depth must be >= 0, got {depth}")
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
        return _best(untried, means, self.rng)

    def __repr__(self) -> str:
        return f"OracleBot(seed={self.seed}, playouts={self.playouts}, depth={self.depth})"


_FACTORIES: Mapping[str, Callable[..., Bot]] = MappingProxyType(
    {
        "random": RandomBot,
        "greedy": GreedyBot,
        "ismcts": ISMCTSBot,
        "oracle": OracleBot,
    }
)

#: Settings each built-in bot takes, with their types.
_SETTINGS: Mapping[str, Mapping[str, type]] = MappingProxyType(
    {
        "greedy": {"samples": int},
        "ismcts": {"iterations": int, "c": float, "depth": int, "worlds": int, "width": int},
        "oracle": {"playouts": int, "depth": int},
    }
)

#: Names accepted by :func:`make_bot`.
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, seed: int) -> Bot:
    """Build the bot called ``name`` with ``seed``.

    ``name`` is "random", "greedy", "ismcts" or "oracle", optionally with settings
    (``"ismcts:iterations=200,c=0.2"``, ``"oracle:playouts=2,depth=30"``), or
    ``"module:attr"``: a class or function importable from the Python path, called
    with the seed, that returns an object with ``choose(state) -> action``.
    """
    if not isinstance(name, str):
        raise rulecore.RulecoreError(f"a bot name must be text, got {name!r}")
    key, _, settings = name.strip().partition(":")
    factory = _FACTORIES.get(key.strip().lower())
    if factory is None:
        if settings.strip():
            return _user_bot(key.strip(), settings.strip(), seed)
        raise rulecore.RulecoreError(
            f"unknown bot {name!r}; valid bots are: {', '.join(BOT_NAMES)}, or module:attr for your own"
        )
    key = key.strip().lower()
    kwargs: dict[str, int | float] = {}
    if settings.strip():
        allowed = _SETTINGS.get(key, {})
        for item in settings.split(","):
            field, eq, value = item.partition("=")
            field = field.strip()
            if not eq or field not in allowed:
                hint = f"settings for {key}: {', '.join(allowed)}" if allowed else f"the {key} bot takes no settings"
                raise rulecore.RulecoreError(f"bad bot setting {item.strip()!r} in {name!r} ({hint})")
            kind = allowed[field]
            try:
                kwargs[field] = kind(value)
            except ValueError:
                noun = "an integer" if kind is int else "a number"
                raise rulecore.RulecoreError(f"bot setting {field!r} must be {noun} (got {value.strip()!r})") from None
    return factory(seed, **kwargs)


def _user_bot(module: str, attr: str, seed: int) -> Bot:
    """The user's own bot ``module:attr``, built with the seed."""
    where = f"{module}:{attr}"
    try:
        found: object = importlib.import_module(module)
    except ImportError as exc:
        raise rulecore.RulecoreError(
            f"cannot import the bot module {module!r} for {where!r}: {exc} (is it on the Python path?)"
        ) from None
    for part in attr.split("."):
        if not hasattr(found, part):
            raise rulecore.RulecoreError(f"the module {module!r} has no {attr!r} (bot {where!r})")
        found = getattr(found, part)
    if not callable(found):
        raise rulecore.RulecoreError(f"bot {where!r} is not a class or function")
    bot = found(seed)
    if not callable(getattr(bot, "choose", None)):
        raise rulecore.RulecoreError(f"bot {where!r} made {type(bot).__name__}, which has no choose(state) method")
    if not hasattr(bot, "name"):
        try:
            bot.name = where
        except AttributeError:
            pass
    return bot
