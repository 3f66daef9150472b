"""A single-agent Gymnasium environment for any cardset: one seat against given opponents.

``env = RulecoreGymEnv(CARDSET, players=2, opponents="random")`` (CARDSET: a built-in name or a path);
the agent plays ``seat`` (0 by default; ``None``: a seat drawn at each reset), every other seat is
played by its opponent:

- a rulecore bot by name (``"random"``, ``"greedy"``, ``"ismcts:iterations=50"``, ...: see
  docs/bots.md), made anew at each reset with a seed drawn from the episode's seed; ``module:attr``
  names a bot of your own (``make_bot(..., user_bots=True)``: the opponents are named by the
  program that makes the environment, never by someone else);
- a ``Bot`` object (anything with ``choose(state) -> action``);
- a callable ``policy(observation, action_mask) -> id`` over the seat's own observation and mask, for
  instance a trained model (``lambda obs, mask: model.predict(obs, action_masks=mask)[0]``), which
  makes self-play a one-liner.

One name, bot or callable serves every other seat; a list gives one per other seat, in seat order.

Observations are the game's observation vectors (``Box`` of float32, the compact layout unless
``observation="full"``), actions its stable action ids (``Discrete``); ``action_masks()`` gives the
legal ids as booleans (sb3-contrib's ``MaskablePPO`` reads it), and so does ``info["action_mask"]``.
With ``skip_forced`` (the default) a decision of the agent's with one legal id is played for it, so
every step is a real choice; ``info["forced"]`` counts the decisions played so since the last
step.  The reward is the seat's ``returns()`` at the end (1.0 for a win), 0.0 before; an id that is
not legal ends the episode with ``illegal_reward`` (-1.0; ``None``: raise ``IllegalActionError``),
as PettingZoo's classic games do.  A game that reaches the Game's ``action_limit`` is truncated.
``reset(seed=s)`` plays the rulecore game ``new_game(s)`` (``s + 1``, ... if a game ends before the
agent's first choice); a reset without a seed draws the game's seed from the environment's seeded
generator (``np_random``), so runs repeat.  Importing this module registers every built-in cardset
with Gymnasium as ``rulecore/<name>-v0``: ``gymnasium.make("rulecore/" + name + "-v0", players=2)``.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import Cardset, Game, load_cardset
from .._resources import builtin_cardsets
from ..bots import Bot, make_bot
from ..errors import IllegalActionError, OptionError

_DEALS_AGAIN = 100
Policy = Callable[[np.ndarray, np.ndarray], Any]
Opponent = Union[str, Bot, Policy]


class RulecoreGymEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of a rulecore game as a Gymnasium environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}

    def __init__(self, cardset: Cardset | str, players: int, options: Mapping[str, Any] | None = None, *,
                 seat: int | None = 0, opponents: Opponent | Sequence[Opponent] = "random",
                 skip_forced: bool = True, illegal_reward: float | None = -1.0, observation: str = "compact",
                 render_mode: str | None = None):
        if isinstance(cardset, str):
            cardset = load_cardset(cardset)
        self.game = Game(cardset, players, options, record_events=False, observation=observation)
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise OptionError(f"seat must be a seat of the table (0 to {players - 1}) or None (got {seat!r})")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be one of {self.metadata['render_modes']} or None "
                              f"(got {render_mode!r})")
        if isinstance(opponents, (list, tuple)):
            if len(opponents) != players - 1:
                raise OptionError(f"opponents: one for each of the other {players - 1} seats (got {len(opponents)})")
            self._opponents = list(opponents)
        else:
            self._opponents = [opponents] * (players - 1)
        for opponent in self._opponents:
            if isinstance(opponent, str):
                make_bot(opponent, 0, user_bots=True)  # a bad name fails here, not at the first reset
            elif not (callable(opponent) or hasattr(opponent, "choose")):
                raise OptionError(f"an opponent is a bot name, a Bot or a policy(observation, mask) (got {opponent!r})")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.skip_forced = skip_forced
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        (length,) = self.game.observation_shape
        self.observation_space = spaces.Box(low=-np.inf, high=np.inf, shape=(length,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.game_state: Any = None  # the rulecore State of the episode
        self._players: dict[int, Any] = {}
        self._forced = 0

    # ---- gymnasium.Env
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = seed if seed is not None else int(rng.integers(2**31))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.game.players))
        others = [p for p in range(self.game.players) if p != self.seat]
        self._players = {}
        for k, (p, opponent) in enumerate(zip(others, self._opponents)):
            self._players[p] = make_bot(opponent, game_seed * 31 + k, user_bots=True) if isinstance(opponent, str) else opponent
        for again in range(_DEALS_AGAIN):  # a game over before the agent's first choice: the next seed
            self.game_state = self.game.new_game(game_seed + again)
            self._forced = 0
            self._advance()
            if not self.game_state.is_terminal():
                break
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        state = self.game_state
        if state is None or state.is_terminal():
            raise IllegalActionError("the episode is over: call reset() first")
        if int(action) not in state.legal_action_ids():
            penalty = self.illegal_reward
            if penalty is None:
                state.apply_id(int(action))  # raises IllegalActionError, saying what is legal
                penalty = 0.0  # (not reached)
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), float(penalty), True, False, info
        self._forced = 0
        state.apply_id(int(action))
        self._advance()
        terminated = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and len(state.history) >= self.game.action_limit
        return self._observe(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal ids now, as booleans (all False once the game is over)."""
        mask = np.zeros(self.game.num_distinct_actions, dtype=bool)
        if self.game_state is not None and not self.game_state.is_terminal():
            mask[self.game_state.legal_action_ids()] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode is None or self.game_state is None:
            return None
        state = self.game_state
        lines = [f"{self.game.cardset.title or self.game.cardset.name}: round {state.round}, phase {state.phase}, "
                 f"you are Player {self.seat}"]
        if state.is_terminal():
            lines.append(f"game over, winners: {state.result()['winners']}")
        else:
            lines.append(f"Player {state.current_player}: {state.decision.prompt}")
            codec = self.game.action_codec
            for i in state.legal_action_ids():
                lines.append(f"  [{i}] {self.game.action_label(i)}: {' | '.join(codec.options_of(state, i)[:4])}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ---- the others' turns
    def _advance(self) -> None:
        """Play the opponents, and the agent's forced decisions, until the agent has a real choice."""
        state = self.game_state
        limit = self.game.action_limit
        while not state.is_terminal() and len(state.history) < limit:
            player = state.current_player
            if player == self.seat:
                ids = state.legal_action_ids()
                if not (self.skip_forced and len(ids) == 1):
                    return
                state.apply_id(ids[0])
                self._forced += 1
                continue
            opponent = self._players[player]
            if hasattr(opponent, "choose"):
                state.apply(opponent.choose(state))
            else:
                mask = np.zeros(self.game.num_distinct_actions, dtype=bool)
                mask[state.legal_action_ids()] = True
                obs = np.asarray(state.observation(player), dtype=np.float32)
                state.apply_id(int(opponent(obs, mask)))

    def _observe(self) -> np.ndarray:
        return np.asarray(self.game_state.observation(self.seat), dtype=np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "forced": self._forced, "seat": self.seat}


def env(cardset: Cardset | str, players: int, options: Mapping[str, Any] | None = None,
        **kwargs: Any) -> RulecoreGymEnv:
    """``RulecoreGymEnv(cardset, players, options, **kwargs)``."""
    return RulecoreGymEnv(cardset, players, options, **kwargs)


def _register_builtins() -> None:
    for name in builtin_cardsets():
        env_id = f"rulecore/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:RulecoreGymEnv", kwargs={"cardset": name})


_register_builtins()
