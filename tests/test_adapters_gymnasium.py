"""The Gymnasium adapter (rulecore/adapters/gymnasium.py): one seat against opponents, masks, forced
decisions played for the agent, seeded resets; Gymnasium's own check_env accepts it."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import pathlib
import re
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import rulecore  # noqa: E402
from rulecore import IllegalActionError, OptionError  # noqa: E402
from rulecore.adapters import gymnasium as rg  # noqa: E402
from rulecore.bots import make_bot  # noqa: E402

TABLES = [("witching-hour", 3, {}), ("witty-witches", 2, {"mode": "master"}), ("approaching-dawn", 2, {})]


def _play(env, seed: int, limit: int = 400) -> tuple[list[float], list[int]]:
    """Masked random steps to the end of one episode: the observations' sums and the actions."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    sums, actions = [float(obs.sum())], []
    for _ in range(limit):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        sums.append(float(obs.sum()))
        actions.append(action)
        if terminated or truncated:
            break
    return sums, actions


@pytest.mark.parametrize("name,players,options", TABLES, ids=str)
def test_check_env_passes(name, players, options):
    """gymnasium's check_env accepts the environment of every built-in game."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns about an unbounded Box, which counters need
        check_env(rg.RulecoreGymEnv(name, players, options), skip_render_check=True)


@pytest.mark.parametrize("name,players,options", TABLES, ids=str)
def test_an_episode_ends_with_the_seats_return(name, players, options):
    """Masked random steps reach the end; the last reward is the seat's return, every earlier one 0; the
    mask is the legal ids of the seat's decision and info carries it too."""
    env = rg.RulecoreGymEnv(name, players, options, seat=1)
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    for _ in range(5000):
        mask = env.action_masks()
        assert env.game_state.current_player == 1
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(env.game_state.legal_action_ids())
        assert (info["action_mask"] == mask).all()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
        assert reward == 0.0
    assert terminated and reward == env.game_state.returns()[1]
    assert not env.action_masks().any()


def test_forced_decisions_are_played_for_the_agent():
    """With skip_forced (the default) every step offers two or more ids and info counts the decisions
    played for the agent; without it, steps with one legal id reach the agent."""
    forced = single = 0
    for skip in (True, False):
        env = rg.RulecoreGymEnv("witty-witches", 2, skip_forced=skip)
        env.reset(seed=1)
        rng = np.random.default_rng(1)
        for _ in range(300):
            mask = env.action_masks()
            if skip:
                assert mask.sum() >= 2
            else:
                single += mask.sum() == 1
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            forced += info["forced"] if skip else 0
            if terminated or truncated:
                env.reset()
    assert forced > 0 and single > 0


def test_resets_are_seeded():
    """reset(seed=s) plays new_game(s) and repeats exactly; resets without a seed follow the first seed."""
    env = rg.RulecoreGymEnv("witching-hour", 3, seat=None)
    env.reset(seed=11)
    assert env.game_state.seed == 11
    assert _play(env, 4) == _play(env, 4)
    again = rg.RulecoreGymEnv("witching-hour", 3, seat=None)
    env.reset(seed=7)
    again.reset(seed=7)
    seeds = [(env.reset()[1]["seat"], env.game_state.seed) for _ in range(5)]
    assert seeds == [(again.reset()[1]["seat"], again.game_state.seed) for _ in range(5)]
    assert len({seat for seat, _ in seeds}) > 1


def test_opponents_by_name_bot_or_policy():
    """Opponents may be a bot name, a Bot, a policy(observation, mask) or one of those per other seat; a
    policy sees its own seat's observation and mask."""
    calls = []

    def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        calls.append((obs.shape, int(mask.sum())))
        return int(np.flatnonzero(mask)[0])

    for opponents in ("greedy", make_bot("random", 1), first_legal, ["random", first_legal]):
        env = rg.RulecoreGymEnv("witty-witches", 3, opponents=opponents)
        _, actions = _play(env, 2)
        assert actions
    assert calls and all(shape == env.observation_space.shape and legal >= 1 for shape, legal in calls)
    with pytest.raises(OptionError):
        rg.RulecoreGymEnv("witty-witches", 3, opponents=["random"])
    with pytest.raises(rulecore.RulecoreError, match="unknown bot"):
        rg.RulecoreGymEnv("witty-witches", 3, opponents="no-such-bot")


def test_an_illegal_id_ends_the_episode_or_raises():
    """An illegal id ends the episode with illegal_reward and leaves the game as it was; with
    illegal_reward=None it raises IllegalActionError."""
    env = rg.RulecoreGymEnv("witching-hour", 3)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.game_state.to_json()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True) and env.game_state.to_json() == before
    strict = rg.RulecoreGymEnv("witching-hour", 3, illegal_reward=None)
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_built_ins_are_registered_with_gymnasium_and_render():
    """gymnasium.make('rulecore/<name>-v0', players=...) makes the environment; 'ansi' renders the legal ids."""
    env = gymnasium.make("rulecore/witty-witches-v0", players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "you are Player 0" in text and "[" in text
    with contextlib.redirect_stdout(io.StringIO()) as out:
        human = rg.RulecoreGymEnv("witty-witches", 2, render_mode="human")
        human.reset(seed=0)
        assert human.render() is None
    assert "round" in out.getvalue()
    assert isinstance(env.unwrapped.game, rulecore.Game)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="sb3-contrib is not installed")
def test_the_docs_training_example_runs():
    """The MaskablePPO example of docs/ai.md trains (on fewer steps here) and predicts a legal id."""
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    code = next(block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "MaskablePPO" in block)
    code = code.replace('MaskablePPO("MlpPolicy", env, seed=0)', 'MaskablePPO("MlpPolicy", env, seed=0, n_steps=64)')
    code = code.replace("total_timesteps=50_000", "total_timesteps=64")
    scope: dict = {}
    exec(compile(code, "docs/ai.md", "exec"), scope)
    assert scope["env"].action_masks()[int(scope["action"])]
