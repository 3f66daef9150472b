"""Train a masked agent on a built-in game through rulecore's Gymnasium environment, with no glue code,
and measure its win rate against random players (with a 95% Wilson interval), before and after.

Needs the rl extra, torch and sb3-contrib (not test dependencies):

    pip install '.[rl]' torch sb3-contrib
    python benchmarks/train_example.py                          # Witty Witches, 2 players, 50,000 steps
    python benchmarks/train_example.py --game witching-hour --players 3 --steps 100000

A step is one real decision of the agent (forced ones are played for it).  The agent learns every
seat (``seat=None``: a seat drawn at each reset); the evaluation plays ``--eval`` games on seeds the
training never used, with the seat cycling, against the same random opponents.  Figures are in
benchmarks/README.md ("Learning agents").
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import torch
from gymnasium.wrappers import TimeLimit
from sb3_contrib import MaskablePPO

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # measure the checkout this script lives in


from bot_matches import wilson  # noqa: E402
from rulecore.adapters.gymnasium import RulecoreGymEnv  # noqa: E402


def evaluate(model: MaskablePPO | None, game: str, players: int, options: dict, games: int, seed: int,
             max_steps: int) -> tuple[float, int]:
    """Wins of the agent (the model's most likely id, or a uniformly random legal id without a model) in
    ``games`` games, and how many games it did not finish in ``max_steps`` of its steps (lost: a greedy
    policy can loop, say by playing an Hourglass to take back an Hourglass for ever)."""
    rng = np.random.default_rng(seed)
    envs = [TimeLimit(RulecoreGymEnv(game, players, options, seat=seat, opponents="random"), max_steps)
            for seat in range(players)]
    wins = 0.0
    cut = 0
    for k in range(games):
        env = envs[k % players]
        obs, _ = env.reset(seed=seed + k)
        done = False
        reward = 0.0
        while not done:
            mask = env.unwrapped.action_masks()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += float(reward)
        cut += int(truncated and not terminated)
    return wins, cut


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="witty-witches")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", action="append", default=[], help="key=value, as rulecore simulate")
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--eval", type=int, default=1000, help="evaluation games before and after")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=2000, help="agent steps before an evaluation game is cut")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    torch.set_num_threads(1)  # a small network: threads only contend on a shared machine

    env = RulecoreGymEnv(args.game, args.players, options, seat=None, opponents="random")
    print(f"{args.game}, {args.players} players {options or ''}: {env.action_space.n} action ids, "
          f"{env.observation_space.shape[0]} observation floats")
    eval_seed = 1_000_000 + args.seed
    before, cut = evaluate(None, args.game, args.players, options, args.eval, eval_seed, args.max_steps)
    low, high = wilson(before, args.eval)
    print(f"untrained (random legal ids): win rate {before / args.eval:.3f} [{low:.3f}, {high:.3f}] "
          f"over {args.eval} games ({cut} cut at {args.max_steps} steps)")

    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - start
    print(f"trained {args.steps:,} steps in {took:.0f} s ({args.steps / took:.0f} steps/s with learning)")

    after, cut = evaluate(model, args.game, args.players, options, args.eval, eval_seed, args.max_steps)
    low, high = wilson(after, args.eval)
    print(f"trained: win rate {after / args.eval:.3f} [{low:.3f}, {high:.3f}] over {args.eval} games "
          f"({cut} cut at {args.max_steps} steps; 1/{args.players} = {1 / args.players:.3f} is an even table)")


if __name__ == "__main__":
    main()
