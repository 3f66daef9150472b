"""The OpenSpiel adapter (rulecore/adapters/openspiel.py): OpenSpiel's own checks and bots accept it."""

from __future__ import annotations

import contextlib
import io
import pathlib
import pickle
import re
import shutil
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from rulecore._resources import builtin_path  # noqa: E402
from rulecore.adapters import openspiel as osp  # noqa: E402

TABLES = [("witching-hour", 3, {}), ("witty-witches", 3, {"mode": "apprentice"}),
          ("witty-witches", 4, {"mode": "master"}), ("approaching-dawn", 2, {})]


@pytest.mark.parametrize("name,players,options", TABLES, ids=str)
def test_random_sim_test_passes_with_serialisation(name, players, options):
    """pyspiel.random_sim_test plays random games, cloning and serialising at every step."""
    game = pyspiel.load_game(f"rulecore_{name.replace('-', '_')}", {"players": players, **options})
    assert game.num_distinct_actions() > 0 and game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_register_is_idempotent_and_names_the_table():
    """The same cardset, table and options give the same name; other options another."""
    a = osp.register("witty-witches", 3, {"mode": "apprentice"})
    assert osp.register("witty-witches", 3, {"mode": "apprentice"}) == a
    assert osp.register("witty-witches", 3, {"mode": "master"}) != a
    assert a in pyspiel.registered_names()


def test_the_name_follows_the_content_not_the_path(tmp_path):
    """A copy of a cardset in another folder registers under the same name; changed rules under another."""
    source = pathlib.Path(str(builtin_path("witching-hour"))).parent
    copy = tmp_path / "wh"
    shutil.copytree(source, copy)
    assert osp.register(str(copy / "cardset.yaml"), 3) == osp.register("witching-hour", 3)
    text = (copy / "cardset.yaml").read_text(encoding="utf-8").replace("hand_size: 13", "hand_size: 12")
    (copy / "cardset.yaml").write_text(text, encoding="utf-8")
    assert osp.register(str(copy / "cardset.yaml"), 3) != osp.register("witching-hour", 3)


def test_built_ins_load_by_name_with_parameters_and_pickle():
    """Importing the adapter registers the built-ins: load_game takes players and options; games and states
    pickle and come back equal."""
    game = pyspiel.load_game("rulecore_witty_witches", {"players": 3, "mode": "master"})
    assert game.num_players() == 3 and game.get_parameters()["mode"] == "master"
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()
    state = _deal(game, 4)
    rng = np.random.RandomState(0)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and again.legal_actions() == state.legal_actions()
    assert again.information_state_string(0) == state.information_state_string(0)


@pytest.mark.slow
def test_a_new_process_deserialises_a_built_in_game():
    """serialize_game_and_state's text loads in a fresh Python after importing the adapter alone."""
    game = pyspiel.load_game("rulecore_witching_hour", {"players": 4})
    state = _deal(game, 9)
    rng = np.random.RandomState(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    code = ("import sys, pyspiel, rulecore.adapters.openspiel\n"
            "game, state = pyspiel.deserialize_game_and_state(sys.stdin.read())\n"
            "print(game.num_players(), len(state.history()), state.legal_actions())")
    root = str(pathlib.Path(__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, check=True,
                         cwd=root).stdout.split(" ", 2)
    assert out[:2] == ["4", str(len(state.history()))] and out[2].strip() == str(state.legal_actions())


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
    code = next(block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "ISMCTSBot" in block)
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "docs/ai.md", "exec"), scope)
    assert scope["state"].is_terminal()
