"""rulecore/engine/game.py: Game(..., player_names=[...]): display names in labels, events and saves."""

from __future__ import annotations

import random

import pytest

import rulecore
from rulecore import OptionError, StateError


@pytest.fixture(scope="module")
def witching_hour() -> rulecore.Cardset:
    return rulecore.load_cardset("witching-hour")


def _play(game: rulecore.Game, seed: int) -> rulecore.State:
    state = game.new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_names_replace_player_numbers_in_events_and_labels(witching_hour: rulecore.Cardset) -> None:
    """With player_names, events and option labels name the seats ('Ann's hand'), never 'Player 0'."""
    game = rulecore.Game(witching_hour, 3, player_names=["Ann", "Bob", "Cy"])
    state = _play(game, 5)
    texts = " ".join(e["text"] for e in state.events(None))
    assert "Ann's hand" in texts and "Bob" in texts
    assert "Player 0" not in texts and "Player 1" not in texts
    assert not any(a.startswith("Player ") for a in state.history)


def test_the_same_game_without_names_is_the_same_game(witching_hour: rulecore.Cardset) -> None:
    """Names change words only: the same seed and choices by position give the same result."""
    named, plain = rulecore.Game(witching_hour, 3, player_names=["Ann", "Bob", "Cy"]), rulecore.Game(witching_hour, 3)
    a, b = named.new_game(9), plain.new_game(9)
    rng = random.Random(9)
    while not a.is_terminal():
        i = rng.randrange(len(a.legal_actions()))
        a.apply(a.legal_actions()[i])
        b.apply(b.legal_actions()[i])
    assert a.result() == b.result()


def test_a_save_with_names_loads_only_with_the_same_names(witching_hour: rulecore.Cardset) -> None:
    """Names are part of the game (they are the labels in the history): another naming refuses the save."""
    game = rulecore.Game(witching_hour, 3, player_names=["Ann", "Bob", "Cy"])
    state = _play(game, 2)
    assert rulecore.Game(witching_hour, 3, player_names=["Ann", "Bob", "Cy"]).load_state(state.to_json()).result() \
        == state.result()
    with pytest.raises(StateError):
        rulecore.Game(witching_hour, 3, player_names=["Ann", "Bob", "Dee"]).load_state(state.to_json())
    assert rulecore.Game(witching_hour, 3).fingerprint == rulecore.Game(witching_hour, 3, player_names=None).fingerprint


@pytest.mark.parametrize("names, words", [
    (["Ann", "Bob"], "a list of 3 names"),
    ("Ann", "a list of 3 names"),
    (["Ann", "ann", "Cy"], "is the name of another seat too"),
    (["Ann", "Bell", "Cy"], "also a card or answer"),
    (["Ann", "Done", "Cy"], "also a card or answer"),
    (["Ann", "Attack", "Cy"], "also a card or answer"),
    (["Ann", " Bob", "Cy"], "without spaces at either end"),
    (["Ann", "", "Cy"], "1 to 40 printable characters"),
    (["Ann", "x" * 41, "Cy"], "1 to 40 printable characters"),
    (["Ann", "B\nob", "Cy"], "printable"),
    (["Ann", 7, "Cy"], "printable"),
])
def test_bad_names_are_refused_with_a_reason(witching_hour: rulecore.Cardset, names: object, words: str) -> None:
    """Names that could not tell the seats and answers apart, or are not one short line, raise OptionError."""
    with pytest.raises(OptionError, match=words):
        rulecore.Game(witching_hour, 3, player_names=names)  # type: ignore[arg-type]
