"""OpenSpiel games for any cardset.

``import rulecore.adapters.openspiel`` registers every built-in cardset with pyspiel, so that
``pyspiel.load_game("rulecore_" + name.replace("-", "_"), {"players": 3, ...options})`` works, and so do
``pickle`` and ``pyspiel.deserialize_game_and_state`` in a new process once this module is imported.
The parameters are ``players`` and the cardset's options (their defaults: the fewest players, the
options' defaults).  ``register(cardset, players, options) -> name`` registers any other cardset (a
loaded one, a built-in name or a path): the name is made from the cardset's content, the table and
the options (``Game.fingerprint``), never from where the file lies, so a checkout and an install
give the same name; in a new process, ``register`` the same cardset again before loading or
unpickling its games.

- Chance is explicit and happens once: the first move of every game is a chance node that picks one
  of ``DEALS`` seeds, uniformly; the rulecore game ``new_game(seed)`` then runs from that seed, and
  all its later randomness (shuffles, random draws) comes from the state's own seeded generator, so
  the whole game is a function of the chance outcome and the players' actions.  Replaying a history
  (OpenSpiel's serialisation) rebuilds the state exactly.  Nobody observes the chance outcome.
- Actions are the game's stable action ids (``Game.num_distinct_actions``), sorted ascending; an id
  may be one part of an answer (a card type of a set), so one rulecore action can take a few
  OpenSpiel actions by the same player.
- Returns are the game's ``returns()``: 1.0 for each winner, 0.0 otherwise, at the end only.
- The information-state string of a seat is its view and its event log (what it saw happen); the
  observation string is its view.  Both tensors are the observation vector (``State.observation``,
  the compact layout unless the ``observation`` parameter says "full"), which is not perfect recall.
- ``resample_from_infostate(player, sampler)`` is ``State.resample(player, seed)`` with a seed drawn
  from ``sampler``; the resampled state plays on like any other, but its action history is not the
  real one, so it is not for serialising.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Mapping

import numpy as np
import pyspiel

from .. import Cardset, Game, load_cardset
from .._resources import builtin_cardsets

DEALS = 1024
_PARAM_TYPES = (bool, int, float, str)


def register(cardset: Cardset | str, players: int | None = None, options: Mapping[str, Any] | None = None) -> str:
    """Registers ``cardset`` at this table with pyspiel (once) and returns the game's name, for
    ``pyspiel.load_game(name)``; ``players`` and the options stay parameters of it."""
    if isinstance(cardset, str):
        cardset = load_cardset(cardset)
    players = cardset.min_players if players is None else players
    game = Game(cardset, players, options)
    name = f"rulecore_{cardset.name.replace('-', '_')}_{game.fingerprint[:12]}"
    return _register(name, cardset, players, game.options)


def _register(name: str, cardset: Cardset, players: int, options: Mapping[str, Any]) -> str:
    if name in pyspiel.registered_names():
        return name
    defaults: dict[str, Any] = {"players": players, "observation": "compact"}
    defaults.update({key: value for key, value in options.items() if type(value) in _PARAM_TYPES})
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"rulecore {cardset.title or cardset.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cardset.max_players,
        min_num_players=cardset.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=defaults,
    )
    # a class per registered game, at module level under its own name, so that pickle finds it
    cls = type(_class_name(name), (RulecoreSpielGame,), {"game_type": game_type, "cardset": cardset,
                                                         "__module__": __name__})
    setattr(sys.modules[__name__], cls.__name__, cls)
    pyspiel.register_game(game_type, cls)
    return name


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + "Game"


class RulecoreSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A rulecore ``Game`` as a pyspiel game (one subclass per registered cardset)."""

    game_type: Any
    cardset: Cardset

    def __init__(self, params: Mapping[str, Any] | None = None):
        params = {**self.game_type.parameter_specification, **(params or {})}
        players = int(params["players"])
        options = {key: value for key, value in params.items() if key not in ("players", "observation")}
        game = Game(self.cardset, players, options, observation=str(params["observation"]))
        codec = game.action_codec
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            max_chance_outcomes=DEALS,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            # apply refuses more than action_limit actions, and each takes at most a few ids
            max_game_length=game.action_limit * (len(codec.types) + 3),
        )
        super().__init__(self.game_type, info, params)
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


def _register_builtins() -> None:
    """Every built-in cardset as ``rulecore_<name>``, its parameters at their defaults (the fewest players)."""
    for name in builtin_cardsets():
        cardset = load_cardset(name)
        _register(f"rulecore_{name.replace('-', '_')}", cardset, cardset.min_players,
                  {key: spec.default for key, spec in cardset.options.items()})


_register_builtins()
