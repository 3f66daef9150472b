"""Golden games: every game recorded by tests/golden/record.py still plays out exactly as recorded.

Each game is replayed from its seed with the same chooser (a random player with its own
seeded generator, or the greedy bot); at every step the chooser must pick the recorded action,
and the states on the way, the final state and ``result()`` must hash and compare equal.  On
top of that, ``Game.replay`` must reach the same final state, and a copy taken half-way
must continue to the same end (saved with ``to_json`` and loaded back for even seeds, a
``clone`` for odd ones).

If one of these fails after an engine change, the engine changed behaviour.  Re-record
(``python tests/golden/record.py``) only for an intended change, and explain it in the commit;
see that script's docstring.
"""

from __future__ import annotations

from typing import Any

import pytest

import rulecore
from golden_helpers import chooser, game_for, golden_games, history_of, observable_sha, sha

pytestmark = pytest.mark.slow  # the whole module: run by CI, skipped by -m "not slow"

GAMES = list(golden_games())


def _id(entry: tuple[str, dict[str, Any], dict[str, Any]]) -> str:
    file, _, g = entry
    opts = ",".join(f"{k}={v}" for k, v in sorted(g["options"].items()))
    return f"{file[:-5]}-{g['players']}p{'-' + opts if opts else ''}-seed{g['seed']}"


def _check_state(state: Any, want: dict[str, str], where: str) -> None:
    """The state's to_json hashes as recorded; the observable hash (the costly one) only when the text differs."""
    text = state.to_json()
    if sha(text) == want["json"]:
        return  # the observable hash is a function of the text
    assert observable_sha(text) == want["observable"], f"the state differs ({where})"
    assert sha(text) == want["json"], f"only the saved frames/envs differ: the save format changed ({where})"


def _where(g: dict[str, Any], step: int) -> str:
    return f"seed {g['seed']}, {g['players']} players, options {g['options']}, after {step} decisions"


def test_golden_games_cover_every_builtin_game_and_scene() -> None:
    """Golden games exist for every built-in cardset and, where a cardset has a scene option, every scene."""
    recorded = {data["cardset"] for _, data, _ in GAMES}
    assert recorded == set(rulecore.builtin_cardsets())
    for name in recorded:
        spec = rulecore.load_cardset(name).options.get("scene")
        if spec is not None:
            scenes = {g["options"].get("scene", spec.default) for _, data, g in GAMES if data["cardset"] == name}
            assert scenes == set(spec.choices)


@pytest.mark.parametrize("entry", GAMES, ids=[_id(e) for e in GAMES])
def test_golden_game_plays_out_as_recorded(entry: tuple[str, dict[str, Any], dict[str, Any]]) -> None:
    """The same seed and chooser give the same decisions, states, result, replay and save/load/clone continuation."""
    _, data, g = entry
    game = game_for(data["cardset"], g["players"], g["options"])
    history = history_of(data, g)
    mid = len(history) // 2
    state = game.new_game(g["seed"])
    choose = chooser(data["chooser"], g["seed"], g["players"])
    copies: list[tuple[str, Any]] = []
    for step in range(len(history) + 1):
        if step == mid:
            saved = state.to_json()
            loaded = game.load_state(saved)
            assert loaded.to_json() == saved, f"to_json/load_state does not round-trip ({_where(g, step)})"
            # every other game continues a loaded copy, the rest a clone (keeps the test fast)
            copies = [("load_state", loaded) if g["seed"] % 2 == 0 else ("clone", state.clone())]
        if str(step) in g["checkpoints"]:
            _check_state(state, g["checkpoints"][str(step)], _where(g, step))
        if step == len(history):
            break
        assert not state.is_terminal(), f"the game ended early ({_where(g, step)})"
        expected = history[step]
        legal = state.legal_actions()
        assert expected in legal, f"recorded action {expected!r} is not legal ({_where(g, step)}); legal: {legal}"
        action = choose(state)
        assert action == expected, (
            f"the chooser picks {action!r}, recorded {expected!r}: legal actions changed order ({_where(g, step)})"
        )
        state.apply(action)

    assert state.is_terminal() == g["terminal"]
    assert state.result() == g["result"]
    _check_state(state, g["final"], f"final state, {_where(g, len(history))}")

    _check_state(game.replay(g["seed"], history), g["final"], "Game.replay")
    for how, copy in copies:
        for action in history[mid:]:
            copy.apply(action)
        _check_state(copy, g["final"], f"a {how} copy taken after {mid} decisions, continued to the end")
