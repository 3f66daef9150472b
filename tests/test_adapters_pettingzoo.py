"""The PettingZoo AEC adapter (rulecore/adapters/pettingzoo.py) passes PettingZoo's own tests."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import rulecore  # noqa: E402
from rulecore.adapters import pettingzoo as pz  # noqa: E402

AD_SCENES = rulecore.load_cardset("approaching-dawn").options["scene"].choices or ()
TABLES = (
    [("witching-hour", 2, {}), ("witching-hour", 5, {})]
    + [("witty-witches", 3, {"mode": mode}) for mode in ("apprentice", "master")]
    + [("approaching-dawn", 2, {"scene": scene}) for scene in AD_SCENES]
)


@pytest.mark.parametrize("name,players,options", TABLES, ids=lambda v: str(v))
def test_pettingzoo_api_seed_and_render_tests_pass(name, players, options):
    """api_test, seed_test and render_test pass for every built-in game and mode."""
    cycles = 40 if name == "approaching-dawn" else 100
    with contextlib.redirect_stdout(io.StringIO()):  # api_test prints, and the "human" mode prints
        api_test(pz.env(name, players, options), num_cycles=cycles)
        seed_test(lambda: pz.env(name, players, options), num_cycles=cycles // 2)
        render_test(lambda render_mode="ansi": pz.env(name, players, options, render_mode=render_mode))


def test_a_whole_game_ends_with_the_returns_as_rewards():
    """Playing masked random actions to the end gives each agent the game's return and terminates all."""
    env = pz.env("witty-witches", 3)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(10_000):
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["observation"].shape == env.game.observation_shape
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal.tolist()) == sorted(env.game_state.legal_action_ids())
        env.step(int(rng.choice(legal)))
    assert env.game_state.is_terminal() and not env.agents
    assert [total[a] for a in env.possible_agents] == env.game_state.returns()


def test_a_game_at_the_action_limit_truncates_every_agent():
    """A game that never ends (tests/hostile/play/endless.yaml) stops at the Game's action_limit: all agents truncated, no error."""
    endless = pathlib.Path(__file__).resolve().parent / "hostile" / "play" / "endless.yaml"
    env = pz.env(str(endless), 2)
    env.game = rulecore.Game(env.game.cardset, 2, record_events=False, action_limit=25)
    env.reset(seed=1)
    for agent in env.agent_iter(1_000):
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert len(env.game_state.history) == 25 and not env.game_state.is_terminal() and not env.agents


def test_reset_seed_is_the_game_seed():
    """reset(seed=s) starts the same game as Game.new_game(s)."""
    env = pz.env("witching-hour", 3)
    env.reset(seed=11)
    assert env.game_state.to_json() == env.game.new_game(11).to_json()


def test_state_is_pettingzoos_every_seats_observation():
    """env.state() is PettingZoo's global state: every seat's observation end to end, in state_space."""
    env = pz.env("witty-witches", 3)
    env.reset(seed=2)
    state = env.state()
    assert state.shape == env.state_space.shape and state.dtype == np.float32
    length = env.game.observation_shape[0]
    for p, agent in enumerate(env.possible_agents):
        assert (state[p * length:(p + 1) * length] == env.observe(agent)["observation"]).all()


def test_skip_forced_leaves_only_real_choices():
    """With skip_forced, PettingZoo's api_test still passes, every agent's decision has two or more legal ids,
    and the game still ends."""
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(pz.env("witching-hour", 3, skip_forced=True), num_cycles=60)
    env = pz.env("witty-witches", 2, skip_forced=True)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter(10_000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].sum() >= 2
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game_state.is_terminal()


def test_self_play_plays_every_seat_with_one_policy():
    """self_play runs whole episodes with one policy in every seat and returns the rewards per seat, which
    are the games' returns (replayed here from the same seeds)."""
    env = pz.env("witty-witches", 3, skip_forced=True)
    first = lambda obs, mask: int(np.flatnonzero(mask)[0])  # noqa: E731
    rewards = pz.self_play(env, first, episodes=3, seed=10)
    assert rewards.shape == (3, 3) and (rewards.sum(axis=1) >= 1).all()
    assert list(rewards[-1]) == env.game_state.returns()


def test_the_docs_example_runs():
    """The PettingZoo example of docs/ai.md plays its episodes."""
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    code = next(block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "adapters import pettingzoo" in block)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "docs/ai.md", "exec"), {})
    assert "wins per seat" in out.getvalue()
