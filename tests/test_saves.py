"""Saving and loading a state (engine/saves.py): round trips at any point, and corrupt or foreign saves
refused with a StateError that says where and why."""

from __future__ import annotations

import json

import pytest

import rulecore
from table_helpers import play


@pytest.mark.parametrize("steps", [0, 1, 17, 60, 10_000])
def test_to_json_round_trips(wh, steps):
    """load_state(to_json()) gives a state that writes the same JSON, at the start, mid-game and at the end."""
    game = rulecore.Game(wh, 3)
    s = play(game.new_game(seed=12), steps, seed=steps)
    text = s.to_json()
    json.loads(text)
    again = game.load_state(text)
    assert again.to_json() == text
    assert again.legal_actions() == s.legal_actions()
    assert again.current_player == s.current_player
    assert again.is_terminal() == s.is_terminal()
    assert [again.view(p) for p in range(3)] == [s.view(p) for p in range(3)]
    assert again.events(1) == s.events(1)


def test_loaded_state_continues_identically(wh):
    """A loaded state and the original reach identical states under the same actions."""
    game = rulecore.Game(wh, 3)
    s = play(game.new_game(seed=13), 25)
    again = game.load_state(s.to_json())
    play(s, 80, seed=4)
    play(again, 80, seed=4)
    assert again.to_json() == s.to_json()


def test_save_in_the_middle_of_an_effect(tiny):
    """A state waiting inside a loop, a procedure and a multi-pick choice saves and continues exactly."""
    body = "for each k in [1, 2] { call pick(k) }"
    procs = """
    pick:
      params: [k]
      do: |
        let cs = choose cards from deck by 0 "Pick"
        say k + count(cs)
    """
    s = tiny.run(body, procedures=procs)
    s.apply("Apple")
    again = s.game.load_state(s.to_json())
    for state in (s, again):
        state.apply("Bean")
        state.apply("Done")
        state.apply("Done")
    assert tiny.says(s) == tiny.says(again) == ["3", "2"]
    assert s.to_json() == again.to_json()


def test_load_state_with_options(tiny):
    """A state saved with options loads in a game with the same options."""
    game = tiny.game("let c = choose card from deck by 0", options={"speed": 3})
    s = game.new_game(0)
    assert game.load_state(s.to_json()).to_json() == s.to_json()


def _mutated(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


@pytest.fixture(scope="module")
def saved(wh):
    game = rulecore.Game(wh, 3)
    s = play(game.new_game(seed=14), 12)
    return game, s.to_json()


def _first_card_key(data):
    return next(k for k, v in data["zones"].items() if v)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(format="something/2"), "not a saved rulecore state"),
        (lambda d: d.update(game="other-game"), "this state is of 'other-game', not 'witching-hour'"),
        (lambda d: d.update(players=4), "this state has 4 players, the game 3"),
        (lambda d: d.update(options={"x": 1}), "this state was played with options"),
        (lambda d: d["zones"][_first_card_key(d)].append(d["zones"][_first_card_key(d)][0]),
         "every card must be in one zone once"),
        (lambda d: d["zones"][_first_card_key(d)].pop(), "'zones' must hold every card of the game once: card"),
        (lambda d: d["zones"][_first_card_key(d)].append(9999), "must be a card id (an integer from 0 to"),
        (lambda d: d["zones"].pop("discard"), "'zones' must hold exactly the cardset's zones; missing: \"discard\""),
        (lambda d: d["counters"]["total"].pop(), "'counters[\"total\"]' must be a list of 3 integers, one per player"),
        (lambda d: d.update(decision=None), "neither over nor waiting for a decision"),
        (lambda d: d["decision"]["values"].pop(), "'decision[\"values\"]' must be a list of"),
        (lambda d: d.pop("rng"), "'rng' is missing"),
        (lambda d: d.update(rng="lots"), "'rng' must be an integer from 0 to 18446744073709551615 (got \"lots\")"),
        (lambda d: d.update(frames=[[99999, 0, None, 0]]), "'frames[0][0]' must be a statement number"),
        (lambda d: d.update(frames=[[0, 0, None, 7]]), "'frames[0][3]' must be an index into 'envs'"),
        (lambda d: d.update(zones=[1, 2]), "'zones' must be an object of zones and the card ids in each (got [1, 2])"),
    ],
)
def test_corrupt_save_is_a_state_error(saved, change, message):
    """A save that is inconsistent or belongs to another game raises StateError with a clear message."""
    game, text = saved
    with pytest.raises(rulecore.StateError) as info:
        game.load_state(_mutated(text, change))
    assert message in str(info.value)


@pytest.mark.parametrize("text", ["", "not json", "{", "[1, 2]", "null", "42"])
def test_text_that_is_not_a_save_is_a_state_error(saved, text):
    """Text that is not JSON, or JSON that is not a save, raises StateError (never a bare exception)."""
    game, _ = saved
    with pytest.raises(rulecore.StateError, match="not a saved"):
        game.load_state(text)


def test_truncated_save_is_a_state_error(saved):
    """A save cut short raises StateError."""
    game, text = saved
    with pytest.raises(rulecore.StateError):
        game.load_state(text[: len(text) // 2])


def test_save_of_another_player_count_is_refused(wh, saved):
    """A Game for a different number of players refuses the save with StateError."""
    _, text = saved
    with pytest.raises(rulecore.StateError, match="players"):
        rulecore.Game(wh, 4).load_state(text)
