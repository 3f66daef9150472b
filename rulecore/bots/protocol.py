"""What a bot is and what it may ask of a game: the ``GameState`` and ``Bot`` protocols, and the
few rules every built-in bot keeps (who is deciding, the legal actions, the best of valued actions
with ties broken by the bot's own generator, what a finished game is worth to a lookahead)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from ..errors import RulecoreError

#: Value a lookahead bot gives a terminal state won by the seat it plays.
TERMINAL_SCALE = 1000.0


def every_heuristic(state: "GameState", players: int) -> Sequence[float]:
    """Every seat's heuristic, in seat order: in one pass where the state can (rulecore's
    ``State.heuristics``: what each seat's heuristic reads of the piles is read once), else seat by seat."""
    together = getattr(state, "heuristics", None)
    if together is not None:
        return together()  # type: ignore[no-any-return]
    return [float(state.heuristic(p)) for p in range(players)]


def worlds(state: "GameState", player: int, seeds: Sequence[int]) -> list["GameState"]:
    """``state.resample(player, seed)`` for each seed: at once where the state can (rulecore's
    ``State.resample_many``: what the seat knows is read once for all the worlds), else one by one."""
    many = getattr(state, "resample_many", None)
    if many is not None:
        return many(player, seeds)  # type: ignore[no-any-return]
    return [state.resample(player, seed) for seed in seeds]


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


def deciding_seat(state: GameState) -> int:
    """The seat that must decide in ``state``; an error if the game is over."""
    seat = state.current_player
    if seat is None or state.is_terminal():
        raise RulecoreError("a bot was asked to choose in a finished game")
    return seat


def legal_choices(state: GameState) -> list[str]:
    """The legal actions of the deciding seat; an error if it has none."""
    actions = list(state.legal_actions())
    if not actions:
        raise RulecoreError(
            f"seat {state.current_player} has to decide but has no legal action"
        )
    return actions


def best_action(
    actions: Sequence[str], values: Sequence[float], rng: random.Random
) -> str:
    """The highest-valued action; ties (within float noise) broken by ``rng``."""
    top = max(values)
    tolerance = 1e-9 * max(1.0, abs(top))
    best = [a for a, v in zip(actions, values) if v >= top - tolerance]
    return best[0] if len(best) == 1 else rng.choice(best)
