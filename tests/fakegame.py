"""A tiny deterministic game implementing the rulecore public State API.

"Race Nim" for 2-4 players: a heap of stones, the seat to move takes 1..max_take,
whoever takes the last stone wins; totals are the stones each seat took. The
starting seat is drawn from the game's seed, so seeds matter. It lets the bots,
the simulator and the CLI be tested without depending on the real engine.

Option ``cards``: result() also reports ``card_uses`` as if each "take n" were a
use of a card "take-n" ({"take-1": [uses per seat], ...}, every take-n up to
max_take listed). Option ``coop``: all seats win together when seat 0 takes the
last stone and all lose otherwise (a cooperative game's winners).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

import rulecore

NAME = "fake-nim"


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    choices: tuple[Any, ...] | None
    description: str


@dataclass(frozen=True)
class Option:
    action: str
    label: str


@dataclass(frozen=True)
class Decision:
    player: int
    prompt: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class FakeCardset:
    name: str = NAME
    min_players: int = 2
    max_players: int = 4
    options: Mapping[str, OptionSpec] = field(
        default_factory=lambda: {
            "heap": OptionSpec("heap", 15, None, "stones in the heap"),
            "max_take": OptionSpec("max_take", 3, (1, 2, 3, 4), "most stones one turn may take"),
            "bonus": OptionSpec("bonus", False, (True, False), "unused flag"),
            "broken_seed": OptionSpec(
                "broken_seed", -1, None, "the game with this seed raises RuleError on move 3"
            ),
            "cards": OptionSpec("cards", False, (True, False), "report card_uses in result()"),
            "coop": OptionSpec("coop", False, (True, False), "everyone wins iff seat 0 ends it"),
        }
    )


def load_cardset(name_or_path: str | PathLike[str]) -> FakeCardset:
    """Stand-in for rulecore.load_cardset: knows only 'fake-nim'."""
    if str(name_or_path) != NAME:
        raise rulecore.RulecoreError(f"unknown cardset {str(name_or_path)!r}")
    return FakeCardset()


class FakeState:
    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        rng = random.Random(seed)
        self.heap: int = int(game.options["heap"])
        self.taken: list[int] = [0] * game.players
        most = int(game.options["max_take"])
        self.uses: dict[str, list[int]] = {f"take-{n}": [0] * game.players for n in range(1, most + 1)}
        self._current: int | None = rng.randrange(game.players)
        self.turns = 0
        self.history: list[str] = []
        self._events: list[dict[str, Any]] = [
            {"type": "start", "text": f"Seat {self._current} starts; heap {self.heap}."}
        ]
        self.winner: int | None = None

    @property
    def current_player(self) -> int | None:
        return self._current

    @property
    def decision(self) -> Decision | None:
        if self._current is None:
            return None
        return Decision(
            player=self._current,
            prompt=f"Heap has {self.heap} stones. Take how many?",
            options=tuple(
                Option(a, f"Take {a.split(':')[1]} stone(s)") for a in self.legal_actions()
            ),
        )

    def legal_actions(self) -> list[str]:
        if self._current is None:
            return []
        most = min(int(self.game.options["max_take"]), self.heap)
        return [f"take:{n}" for n in range(1, most + 1)]

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise rulecore.IllegalActionError(f"illegal action {action!r}")
        seat = self._current
        assert seat is not None
        if self.seed == int(self.game.options["broken_seed"]) and self.turns == 2:
            raise rulecore.RuleError("the fake game broke on purpose")
        n = int(action.split(":")[1])
        self.heap -= n
        self.taken[seat] += n
        self.uses[f"take-{n}"][seat] += 1
        self.turns += 1
        self.history.append(action)
        self._events.append(
            {"type": "take", "text": f"Seat {seat} takes {n}; heap {self.heap}."}
        )
        if self.heap == 0:
            self.winner = seat
            self._current = None
            self._events.append({"type": "end", "text": f"Seat {seat} wins."})
        else:
            self._current = (seat + 1) % self.game.players

    def is_terminal(self) -> bool:
        return self._current is None

    def winners(self) -> list[int]:
        if self.winner is None:
            return []
        if self.game.options["coop"]:
            return list(range(self.game.players)) if self.winner == 0 else []
        return [self.winner]

    def returns(self) -> list[float]:
        won = self.winners()
        return [1.0 if p in won else 0.0 for p in range(self.game.players)]

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winners": self.winners(),
            "totals": list(self.taken),
            "rounds": -(-self.turns // self.game.players),
            "round_scores": [],
        }
        if self.game.options["cards"]:
            out["card_uses"] = {card: list(v) for card, v in self.uses.items()}
        return out

    def heuristic(self, player: int) -> float:
        # good for the mover: leave a multiple of (max_take + 1)
        return float(self.taken[player]) + (
            5.0 if self.heap % (int(self.game.options["max_take"]) + 1) == 0 else 0.0
        )

    def view(self, player: int) -> dict[str, Any]:
        return {
            "you": player,
            "current_player": self._current,
            "heap": self.heap,
            "players": [{"seat": p, "taken": t} for p, t in enumerate(self.taken)],
        }

    def events(self, player: int) -> list[dict[str, Any]]:
        return list(self._events)

    def clone(self) -> FakeState:
        other = FakeState.__new__(FakeState)
        other.__dict__.update(self.__dict__)
        other.taken = list(self.taken)
        other.uses = {card: list(v) for card, v in self.uses.items()}
        other.history = list(self.history)
        other._events = list(self._events)
        return other

    def resample(self, player: int, seed: int) -> FakeState:
        """Nim hides nothing: every world a seat cannot tell from this one is this one."""
        return self.clone()

    def to_json(self) -> str:
        return json.dumps({"seed": self.seed, "history": self.history})


class Game:
    """Stand-in for rulecore.Game."""

    def __init__(
        self,
        cardset: FakeCardset,
        players: int,
        options: Mapping[str, Any] | None = None,
        *,
        record_events: bool = True,
    ) -> None:
        if not cardset.min_players <= players <= cardset.max_players:
            raise rulecore.RulecoreError(
                f"{cardset.name} takes {cardset.min_players}-{cardset.max_players} players, not {players}"
            )
        merged = {k: spec.default for k, spec in cardset.options.items()}
        for key, value in (options or {}).items():
            if key not in cardset.options:
                raise rulecore.RulecoreError(f"unknown option {key!r}")
            merged[key] = value
        self.cardset = cardset
        self.players = players
        self.options = merged

    def new_game(self, seed: int) -> FakeState:
        return FakeState(self, seed)

    def replay(self, seed: int, actions: list[str]) -> FakeState:
        state = self.new_game(seed)
        for action in actions:
            state.apply(action)
        return state


def make_game(
    cardset: str | PathLike[str], players: int, options: Mapping[str, Any] | None
) -> Game:
    """A picklable game factory for rulecore.simulate.simulate(game_factory=...)."""
    return Game(load_cardset(cardset), players=players, options=options)
