"""An OpenSpiel game for any cardset: ``register(cardset, players, options) -> name`` for
``pyspiel.load_game(name)``.

- Chance is explicit and happens once: the first move of every game is a chance node that picks one
  of ``DEALS`` seeds, uniformly; the rulecore game ``new_game(seed)`` then runs from that seed, and
  all its later randomness (shuffles, random draws) comes from the state's own seeded generator, so
  the whole game is a function of the chance outcome and the players' actions.  Replaying a history
  (OpenSpiel's serialisation) rebuilds the state exactly.  Nobody observes the chance outcome.
- Actions are the game's stable action ids (``Game.num_distinct_actions``), sorted ascending.
- Returns are the game's ``returns()``: 1.0 for each winner, 0.0 otherwise, at the end only.
- The information-state string of a seat is its view and its event log (what it saw happen); the
  observation string is its view.  Both tensors are the observation vector (``State.observation``),
  which is not perfect recall.
- ``resample_from_infostate(player, sampler)`` is ``State.resample(player, seed)`` with a seed drawn
  from ``sampler``; the resampled state plays on like any other, but its action history is not the
  real one, so it is not for serialising.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

import numpy as np
import pyspiel

from .. import Cardset, Game, load_cardset

DEALS = 1024


def register(cardset: Cardset | str, players: int, options: Mapping[str, Any] | None = None) -> str:
    """Registers the game with pyspiel (once per cardset, table and options) and returns its name."""
    if isinstance(cardset, str):
        cardset = load_cardset(cardset)
    game = Game(cardset, players, options)
    digest = hashlib.sha256(
        json.dumps([str(cardset.file), cardset.name, players, game.options], sort_keys=True, default=str).encode()
    ).hexdigest()[:10]
    name = f"rulecore_{cardset.name.replace('-', '_')}_{players}p_{digest}"
    if name in pyspiel.registered_names():
        return name
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"rulecore {cardset.title or cardset.name} ({players} players)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions,
        max_chance_outcomes=DEALS,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        max_game_length=game.action_limit,  # apply refuses more actions in one game
    )

    class RegisteredGame(RulecoreSpielGame):
        def __init__(self, params: Mapping[str, Any] | None = None):
            super().__init__(game_type, info, params or {}, game)

    pyspiel.register_game(game_type, RegisteredGame)
    return name


class RulecoreSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A rulecore ``Game`` as a pyspiel game."""

    def __init__(self, game_type: Any, info: Any, params: Mapping[str, Any], game: Game):
        super().__init__(game_type, info, dict(params))
        self.rc_game = game

    def new_initial_state(self) -> "RulecoreSpielState":
        return RulecoreSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "RulecoreObserver":
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return RulecoreObserver(self.rc_game, perfect_recall)


class _Own:
    """Holds a rulecore ``State`` in a pyspiel state's ``__dict__``, which OpenSpiel copies with
    ``copy.deepcopy`` (here ``State.clone()``, sharing the game) and serialises with ``pickle`` (here
    ``State.to_json()``, loaded again with the game on first use)."""

    def __init__(self, value: Any = None, text: str | None = None):
        self.value = value
        self.text = text

    def get(self, game: Game) -> Any:
        if self.text is not None:
            self.value, self.text = game.load_state(self.text), None
        return self.value

    def __deepcopy__(self, memo: Any) -> "_Own":
        if self.value is None:
            return _Own(None, self.text)
        return _Own(self.value.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Own, (None, self.value.to_json() if self.value is not None else self.text))


class RulecoreSpielState(pyspiel.State):  # type: ignore[misc]
    """A rulecore ``State`` (after the chance node that picks its seed) as a pyspiel state."""

    def __init__(self, game: RulecoreSpielGame):
        super().__init__(game)
        self._rc = _Own()

    @property
    def rc_game(self) -> Game:
        return self.get_game().rc_game  # type: ignore[no-any-return]

    @property
    def rc(self) -> Any:
        """The rulecore State, once dealt (None before the chance node)."""
        return self._rc.get(self.rc_game)

    @rc.setter
    def rc(self, value: Any) -> None:
        self._rc = _Own(value)

    def current_player(self) -> int:
        if self.rc is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.rc.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.rc.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        if self.rc is None or self.rc.current_player != player:
            return []
        return sorted(self.rc.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(seed, 1.0 / DEALS) for seed in range(DEALS)]

    def _apply_action(self, action: int) -> None:
        if self.rc is None:
            self.rc = self.rc_game.new_game(int(action))
        else:
            self.rc.apply_id(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {action}"
        return self.rc_game.action_label(int(action))

    def is_terminal(self) -> bool:
        return self.rc is not None and self.rc.is_terminal()

    def returns(self) -> list[float]:
        if self.rc is None:
            return [0.0] * self.rc_game.players
        return [float(x) for x in self.rc.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "RulecoreSpielState":
        clone = self.clone()
        if self.rc is not None:
            seed = int(probability_sampler() * 2**31)
            clone.rc = self.rc.resample(player_id, seed)
        return clone

    def __str__(self) -> str:
        if self.rc is None:
            return "(not dealt)"
        return self.rc.to_json()


class RulecoreObserver:
    """OpenSpiel's python observer: the observation vector as the tensor, the view (and, with perfect
    recall, the seat's event log) as the string."""

    def __init__(self, game: Game, perfect_recall: bool):
        (length,) = game.observation_shape
        self.tensor = np.zeros(length, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: RulecoreSpielState, player: int) -> None:
        if state.rc is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state.rc.observation(player)

    def string_from(self, state: RulecoreSpielState, player: int) -> str:
        if state.rc is None:
            return "(not dealt)"
        text = json.dumps(state.rc.view(player), sort_keys=True, default=str)
        if self.perfect_recall:
            text += "\n" + "\n".join(e["text"] for e in state.rc.events(player))
        return text
