"""Observation vectors (rulecore/engine/encoding/observation.py): fixed length, plain floats, from the view only."""

from __future__ import annotations

import random

import pytest

import rulecore

TABLES = [("witching-hour", 3, {}), ("witty-witches", 4, {"mode": "master"}), ("approaching-dawn", 2, {})]


@pytest.mark.parametrize("name,players,options", TABLES)
def test_observations_have_the_game_shape_and_hide_what_the_view_hides(name, players, options):
    """Every observation has the game's length of floats, and a resample the seat cannot tell apart
    gives the same one."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    (length,) = game.observation_shape
    assert len(game.observation_slots) == length
    rng = random.Random(0)
    seen = set()
    for seed in range(2):
        state = game.new_game(seed)
        for step in range(120):
            if state.is_terminal():
                break
            for seat in range(players):
                obs = state.observation(seat)
                assert len(obs) == length and all(type(x) is float for x in obs)
                seen.add(tuple(obs))
            if step % 20 == 0:
                seat = rng.randrange(players)
                assert state.resample(seat, step).observation(seat) == state.observation(seat)
            state.apply(rng.choice(state.legal_actions()))
    assert len(seen) > 10


def test_observation_counts_own_hand_by_type():
    """The observer's own hand shows up as counts by card type, another's hand only as its size."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    state = game.new_game(4)
    obs = state.observation(1)
    slots = game.observation_slots
    hand = state.view(1)["zones"]["hand/1"]["cards"]
    for t in set(hand):
        assert obs[slots.index(f"hand of seat +0: {t} seen")] == hand.count(t)
    other = slots.index("hand of seat +1: cards")
    assert obs[other] == state.view(1)["zones"]["hand/2"]["count"]
    assert sum(obs[other + 2: other + 2 + 10]) == 0.0
