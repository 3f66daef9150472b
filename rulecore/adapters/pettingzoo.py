"""A PettingZoo AEC environment for any cardset: ``env(cardset, players, options, render_mode, ...)``.

Agents are ``"player_0"`` .. ``"player_{n-1}"``; the agent to act is the game's current player (one
seat may act several times in a row).  Actions are the game's stable action ids (``Discrete``);
``observe(agent)`` gives ``{"observation": float32 vector, "action_mask": int8 vector}``, the mask
all zero for an agent not deciding.  Rewards are the game's ``returns()`` at the end (1.0 per
winner), and every agent then terminates; a game that reaches the Game's ``action_limit`` truncates
every agent.  ``render()`` gives the table and the decision as text (``"ansi"``) or prints it
(``"human"``).  ``reset(seed=...)`` starts ``new_game(seed)``; a reset without a seed takes the next
seed from a generator seeded by the last seed given.  ``skip_forced=True`` plays every decision
with one legal id by itself, so agents see only real choices.  ``state()`` is every seat's
observation end to end (a global state for centralised critics); the rulecore ``State`` is
``env.game_state``.  ``self_play(env, policy, episodes)`` plays whole games with one policy in every
seat.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import Cardset, Game, load_cardset


class RulecoreEnv(AECEnv):  # type: ignore[misc]
    """One rulecore game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "rulecore_v0", "is_parallelizable": False}

    def __init__(self, cardset: Cardset | str, players: int, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, *, skip_forced: bool = False, observation: str = "compact"):
        super().__init__()
        if isinstance(cardset, str):
            cardset = load_cardset(cardset)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None (got {render_mode!r})")
        self.game = Game(cardset, players, options, record_events=False, observation=observation)
        self.render_mode = render_mode
        self.skip_forced = skip_forced
        self.metadata = {**self.metadata, "name": f"rulecore_{cardset.name}_v0"}
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        n = self.game.num_distinct_actions
        (length,) = self.game.observation_shape
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(length,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        })
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.state_space = spaces.Box(low=-np.inf, high=np.inf, shape=(players * length,), dtype=np.float32)
        self._seeds = random.Random(0)
        self.game_state: Any = None  # the rulecore State of the episode

    def state(self) -> np.ndarray:
        """Every seat's observation, seat 0 first: what all the agents know together."""
        return np.concatenate([np.asarray(self.game_state.observation(p), dtype=np.float32)
                               for p in range(self.game.players)])

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**31)
        self.game_state = self.game.new_game(game_seed)
        self._skip()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self._select()
        self._finish_if_over()

    def _skip(self) -> None:
        """With ``skip_forced``: play each decision with one legal id, until a real choice or the end."""
        state = self.game_state
        while self.skip_forced and not state.is_terminal() and len(state.history) < self.game.action_limit:
            ids = state.legal_action_ids()
            if len(ids) != 1:
                return
            state.apply_id(ids[0])

    def _select(self) -> None:
        player = self.game_state.current_player
        if player is not None:
            self.agent_selection = self.possible_agents[player]

    def _finish_if_over(self) -> None:
        if self.game_state.is_terminal():
            for agent, value in zip(self.possible_agents, self.game_state.returns()):
                self.rewards[agent] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        elif len(self.game_state.history) >= self.game.action_limit:  # apply would refuse: the episode is cut short
            self.truncations = dict.fromkeys(self.agents, True)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if self.game_state.current_player == seat:
            mask[self.game_state.legal_action_ids()] = 1
        return {"observation": np.asarray(self.game_state.observation(seat), dtype=np.float32), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.game_state.apply_id(int(action))
        self._skip()
        self._select()
        self._finish_if_over()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.game_state
        if state is None:
            return ""
        lines = [f"{self.game.cardset.title or self.game.cardset.name}: round {state.round}, phase {state.phase}"]
        if state.is_terminal():
            lines.append(f"game over, winners: {state.result()['winners']}")
        else:
            decision = state.decision
            lines.append(f"Player {decision.player}: {decision.prompt}")
            lines += [f"  [{i}] {label}" for i, label in zip(state.legal_action_ids(), state.legal_actions())]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(cardset: Cardset | str, players: int, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, *, skip_forced: bool = False, observation: str = "compact") -> RulecoreEnv:
    """A PettingZoo AEC environment of ``cardset`` (a loaded cardset or a built-in name / path)."""
    return RulecoreEnv(cardset, players, options, render_mode, skip_forced=skip_forced, observation=observation)


def self_play(env: RulecoreEnv, policy: Callable[[np.ndarray, np.ndarray], int], episodes: int,
              seed: int = 0) -> np.ndarray:
    """Plays ``episodes`` whole games (seeds ``seed``, ``seed + 1``, ...) with ``policy(observation,
    action_mask) -> id`` in every seat; returns each episode's rewards per seat (episodes x players)."""
    out = np.zeros((episodes, env.game.players), dtype=np.float64)
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            out[episode, env.possible_agents.index(agent)] += reward
            env.step(None if terminated or truncated else int(policy(obs["observation"], obs["action_mask"])))
    return out
