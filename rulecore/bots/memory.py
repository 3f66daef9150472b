"""The no-repeat memory every built-in bot keeps, and ``MemoryBot``, the decision step built on it.

No bot repeats an action that led back to the same decision without change: each remembers, per
decision it met (its own view of the table, the question included), the actions it took there.
Meeting that exact view again means those actions changed nothing it can see (a "Not now" back
to the same menu, two cards taking each other back), so it picks among the others, and repeats
one only when every action has been tried.  A rulecore state gives that view as a compact key
(``State._view_key``) without building it.
"""

from __future__ import annotations

import gc
from typing import Any, Callable

from .protocol import GameState, deciding_seat, legal_choices


class Memory:
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


def collector_paused(pick: Callable[..., Any], *args: Any) -> Any:
    """``pick(*args)`` with Python's cyclic garbage collector paused (``gc.disable``), and started again
    after, unless it was paused already (by the program, or by a bot deciding in another thread).

    A look-ahead makes and drops thousands of state copies, each a few dozen lists, dicts and sets;
    the collector's passes over them and over everything a game keeps alive took a sixth of an
    ismcts search (benchmarks/README.md).  Nothing is lost by the pause: a state holds no reference
    cycle (see ``engine.interpreter.frames.Ctx``), so each copy is freed the moment it is dropped,
    and any cycle the program makes meanwhile is collected once the collector runs again."""
    if not gc.isenabled():
        return pick(*args)
    gc.disable()
    try:
        return pick(*args)
    finally:
        gc.enable()


class MemoryBot:
    """What every built-in bot does at a decision: answer a lone action at once, else leave out
    the actions already taken at this very decision (``Memory``) and let ``_pick`` choose among
    the rest (all of them when every one has been tried), the garbage collector paused while it
    does (``collector_paused``)."""

    memory: Memory

    def choose(self, state: GameState) -> str:
        me = deciding_seat(state)
        actions = legal_choices(state)
        if len(actions) == 1:
            self._lone(state, actions[0])
            return actions[0]
        untried, taken = self.memory.untried(state, me, actions)
        action = collector_paused(self._pick, state, me, untried, actions)
        taken.add(action)
        return action

    def choose_index(self, state: GameState) -> int:
        """``choose``, as the position of the action in ``state.legal_actions()`` (for
        ``State.apply_index``): the same choice, the same generator draws."""
        me = deciding_seat(state)
        actions = legal_choices(state)
        if len(actions) == 1:
            self._lone(state, actions[0])
            return 0
        untried, taken = self.memory.untried(state, me, actions)
        if untried is actions:
            index = collector_paused(self._pick_index, state, me, actions)
            taken.add(actions[index])
            return index
        action = collector_paused(self._pick, state, me, untried, actions)
        taken.add(action)
        return actions.index(action)

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        raise NotImplementedError

    def _pick_index(self, state: GameState, me: int, actions: list[str]) -> int:
        """``_pick`` when nothing has been tried here yet (untried is every action), as a position."""
        return actions.index(self._pick(state, me, actions, actions))

    def _lone(self, state: GameState, action: str) -> None:
        """Told of a decision with one legal action (``action``), answered without ``_pick``."""
