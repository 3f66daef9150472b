"""Environment steps per second for learning agents: rulecore's built-in games next to PettingZoo's own
classic card environments and OpenSpiel's C++ card games, in one process run.

Every environment is played the same way: at each step the acting agent's observation and legal
actions are read (PettingZoo: ``env.last()``, the observation vector and the action mask;
OpenSpiel: ``observation_tensor`` and ``legal_actions``) and a uniformly random legal action is
taken; chance nodes are sampled (OpenSpiel games without an observation tensor read the information
state tensor).  A step is one decision of one player.  rulecore runs as the
PettingZoo AEC environment (ids one part at a time, as the adapter gives them) and as the
single-agent Gymnasium environment (a step is a real decision of the agent; the random opponents'
decisions and the forced ones are played inside the step).

    python benchmarks/bench_rl.py                # about 5 s per environment
    python benchmarks/bench_rl.py --seconds 10

PettingZoo's classic card games need rlcard (``pip install rlcard``); an environment whose package
is missing is skipped with a note.  Figures: benchmarks/README.md ("Learning agents").
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from typing import Any, Callable

import numpy as np
import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # measure the checkout this script lives in

from rulecore.adapters import pettingzoo as rz  # noqa: E402
from rulecore.adapters.gymnasium import RulecoreGymEnv  # noqa: E402


def pettingzoo_steps(make: Callable[[], Any], seconds: float) -> tuple[float, int]:
    """(steps per second, episodes) of masked random play of an AEC environment."""
    env = make()
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episodes)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        episodes += 1
    return steps / (time.perf_counter() - start), episodes


def openspiel_steps(name: str, params: dict[str, Any], seconds: float) -> tuple[float, int]:
    """(steps per second, episodes) of random play of a pyspiel game, reading the observation tensor."""
    game = pyspiel.load_game(name, params)
    observe = "observation_tensor" if game.get_type().provides_observation_tensor else "information_state_tensor"
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            player = state.current_player()
            getattr(state, observe)(player)
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        episodes += 1
    return steps / (time.perf_counter() - start), episodes


def gym_steps(game: str, players: int, options: dict[str, Any], seconds: float) -> tuple[float, int]:
    """(agent steps per second, episodes) of the single-agent environment against random bots."""
    env = RulecoreGymEnv(game, players, options, opponents="random")
    rng = np.random.default_rng(0)
    steps = episodes = 0
    env.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        steps += 1
        if terminated or truncated:
            episodes += 1
            env.reset(seed=episodes)
    return steps / (time.perf_counter() - start), episodes


RULECORE = [("witching-hour", 4, {}), ("witty-witches", 2, {}), ("witty-witches", 4, {"mode": "master"}),
            ("approaching-dawn", 2, {})]
PETTINGZOO = ["texas_holdem_v4", "leduc_holdem_v4", "texas_holdem_no_limit_v6"]  # rlcard card games
OPENSPIEL = [("crazy_eights", {}), ("gin_rummy", {}), ("hearts", {}), ("leduc_poker", {}),
             ("euchre", {})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per environment")
    args = parser.parse_args()
    rows: list[tuple[str, str, float, int]] = []
    for game, players, options in RULECORE:
        label = f"{game} {players}p {options or ''}".strip()
        rate, episodes = pettingzoo_steps(lambda: rz.env(game, players, options), args.seconds)
        rows.append(("rulecore (PettingZoo AEC)", label, rate, episodes))
        rate, episodes = gym_steps(game, players, options, args.seconds)
        rows.append(("rulecore (Gymnasium, agent steps)", label, rate, episodes))
    for name in PETTINGZOO:
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        except Exception as exc:  # a missing optional package (rlcard): skip with a note
            print(f"skipped PettingZoo {name}: {type(exc).__name__}: {exc}")
            continue
        rate, episodes = pettingzoo_steps(module.env, args.seconds)
        rows.append(("PettingZoo classic", name, rate, episodes))
    for name, params in OPENSPIEL:
        rate, episodes = openspiel_steps(name, params, args.seconds)
        rows.append(("OpenSpiel C++", name, rate, episodes))
    print(f"{'environment':36} {'game':34} {'steps/s':>9} {'episodes':>9}")
    for kind, name, rate, episodes in rows:
        print(f"{kind:36} {name:34} {rate:9,.0f} {episodes:9,}")


if __name__ == "__main__":
    main()
