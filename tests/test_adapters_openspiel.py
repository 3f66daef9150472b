"""The OpenSpiel adapter (rulecore/adapters/openspiel.py): OpenSpiel's own checks and bots accept it."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from rulecore.adapters import openspiel as osp  # noqa: E402

TABLES = [("witching-hour", 3, {}), ("witty-witches", 3, {"mode": "apprentice"}),
          ("witty-witches", 4, {"mode": "master"}), ("approaching-dawn", 2, {})]


@pytest.mark.parametrize("name,players,options", TABLES, ids=str)
def test_random_sim_test_passes_with_serialisation(name, players, options):
    """pyspiel.random_sim_test plays random games, cloning and serialising at every step."""
    game = pyspiel.load_game(osp.register(name, players, options))
    assert game.num_distinct_actions() > 0 and game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_register_is_idempotent_and_names_the_table():
    """The same cardset, table and options give the same name; other options another."""
    a = osp.register("witty-witches", 3, {"mode": "apprentice"})
    assert osp.register("witty-witches", 3, {"mode": "apprentice"}) == a
    assert osp.register("witty-witches", 3, {"mode": "master"}) != a
    assert a in pyspiel.registered_names()


def _deal(game, seed: int):
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == osp.DEALS
    state.apply_action(seed)
    return state


def test_resample_keeps_what_the_seat_knows():
    """resample_from_infostate gives a state with the same information state and legal actions."""
    game = pyspiel.load_game(osp.register("witching-hour", 3))
    state = _deal(game, 7)
    rng = np.random.RandomState(0)
    for _ in range(15):
        me = state.current_player()
        world = state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(me) == state.information_state_string(me)
        assert world.information_state_tensor(me) == state.information_state_tensor(me)
        assert world.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_ismcts_bot_plays():
    """OpenSpiel's own ISMCTSBot chooses legal actions for a seat, over resampled worlds."""
    game = pyspiel.load_game(osp.register("witty-witches", 3, {"mode": "apprentice"}))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(1))
    rng = np.random.RandomState(2)
    state = _deal(game, 3)
    moves = by_bot = 0
    while not state.is_terminal() and moves < 40:
        if state.current_player() == 0:
            action = bot.step(state)
            by_bot += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert by_bot > 0


def test_the_docs_example_runs():
    """The OpenSpiel example of docs/ai.md plays a game to the end with the ISMCTS bot."""
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", text, re.S)[1]
    assert "ISMCTSBot" in code
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "docs/ai.md", "exec"), scope)
    assert scope["state"].is_terminal()
