"""Observation vectors (rulecore/engine/encoding/): the compact layout (compact.py, with the zones each card
type can reach from reach.py) and the full one (observation.py); fixed length, plain floats, from the view only."""

from __future__ import annotations

import random

import pytest

import rulecore
from rulecore import OptionError

TABLES = [("witching-hour", 3, {}), ("witty-witches", 4, {"mode": "master"}), ("approaching-dawn", 2, {}),
          ("approaching-dawn", 4, {"scene": "blood-moon"})]


@pytest.mark.parametrize("layout", ["compact", "full"])
@pytest.mark.parametrize("name,players,options", TABLES[:3])
def test_observations_have_the_game_shape_and_hide_what_the_view_hides(name, players, options, layout):
    """Every observation has the game's length of floats, every slot has its own name, and a resample the
    seat cannot tell apart gives the same one."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options, observation=layout)
    (length,) = game.observation_shape
    assert len(game.observation_slots) == length == len(set(game.observation_slots))
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


@pytest.mark.parametrize("name", ["witching-hour", "witty-witches", "approaching-dawn"])
def test_the_compact_observation_of_every_built_in_table_is_under_2000_floats(name):
    """At every player count the compact layout is network-sized, and smaller than the full one."""
    cardset = rulecore.load_cardset(name)
    for players in range(cardset.min_players, cardset.max_players + 1):
        compact = rulecore.Game(cardset, players).observation_shape[0]
        assert compact <= 2000
        assert compact < rulecore.Game(cardset, players, observation="full").observation_shape[0]


@pytest.mark.parametrize("name,players,options", TABLES)
def test_every_card_seen_is_counted_where_it_lies(name, players, options):
    """In random play, each card the observer sees in a zone it has type slots for is counted by type there:
    the reading of the effect text (reach.py) never leaves out a zone a card type really reaches."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    observer = game.observer
    rng = random.Random(1)
    counted = 0
    for seed in range(4):
        state = game.new_game(seed)
        for _ in range(300):
            if state.is_terminal():
                break
            me = rng.randrange(players)
            view, obs = state.view(me), state.observation(me)
            per_region: dict[int, list[int]] = {}
            for key, k, at, region in observer.places:
                zone = view["zones"][f"{key}/{(me + k) % players}" if k is not None else key]
                shown = [t for t in zone.get("cards", zone.get("face_up", ())) if t is not None]
                if region is not None:
                    per_region.setdefault(id(region), [0, sum(obs[s] for s in region[0].values())])[0] += len(shown)
                    assert all(t in region[0] for t in shown), (key, shown)
                elif zone.get("cards"):  # a zone without type slots must be one the text never shows
                    assert not shown, key
            for seen, in_slots in per_region.values():
                assert seen == in_slots
                counted += seen
            state.apply(rng.choice(state.legal_actions()))
    assert counted > 100


def test_observation_counts_own_hand_by_type():
    """The observer's own hand shows up as counts by card type, another's hand only as its size."""
    for layout in ("compact", "full"):
        game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3, observation=layout)
        state = game.new_game(4)
        obs = state.observation(1)
        slots = game.observation_slots
        hand = state.view(1)["zones"]["hand/1"]["cards"]
        for t in set(hand):
            assert obs[slots.index(f"hand of seat +0: {t} seen")] == hand.count(t)
        assert obs[slots.index("hand of seat +1: cards")] == state.view(1)["zones"]["hand/2"]["count"]
        assert all(obs[i] == 0.0 for i, slot in enumerate(slots) if slot.startswith("hand of seat +1: ")
                   and slot.endswith(" seen"))


def test_the_compact_observation_shows_the_answer_in_progress():
    """After the first part of a set is taken, the chooser's compact observation counts the card type taken;
    the other seats' observations do not change."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    slots = game.observation_slots
    rng = random.Random(2)
    state = game.new_game(2)
    while True:
        ids = state.legal_action_ids()
        takes = [i for i in ids if game.action_codec.keys[i][0] == "take"]
        if takes and len(state.legal_actions()) > 1:
            after = state.clone()
            after.apply_id(takes[0])
            if after.picking:
                break
        state.apply(rng.choice(state.legal_actions()))
    _, card_type, count = game.action_codec.keys[takes[0]]
    me = state.current_player
    obs = after.observation(me)
    assert obs[slots.index("answer: ids taken")] == 1.0 and obs[slots.index(f"answer: {card_type} taken")] == count
    assert state.observation(me)[slots.index("answer: ids taken")] == 0.0
    for seat in range(3):
        if seat != me:
            assert after.observation(seat) == state.observation(seat)


def test_a_big_table_counts_the_other_seats_together():
    """Approaching Dawn at 6 players would pass 2000 floats per seat, so the others' zones of one name are
    counted together; at 2 players every seat keeps its own."""
    cardset = rulecore.load_cardset("approaching-dawn")
    six = rulecore.Game(cardset, 6).observation_slots
    two = rulecore.Game(cardset, 2).observation_slots
    assert any(s.startswith("facing of the others: ") for s in six)
    assert not any(s.startswith("facing of seat +2: ") and s.endswith(" seen") for s in six)
    assert any(s.startswith("facing of seat +1: ") and s.endswith(" seen") for s in two)


def test_an_unknown_layout_is_refused():
    """Game(observation=...) takes 'compact' or 'full' only."""
    with pytest.raises(OptionError):
        rulecore.Game(rulecore.load_cardset("witching-hour"), 3, observation="pixels")
