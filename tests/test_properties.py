"""Properties of random games of every built-in cardset at every player count (hypothesis).

After every action: every card is in exactly one zone; views never show another player's hand
nor a hidden zone (unless revealed or face up); saving, loading, cloning and replaying give
identical states that continue identically.  Example counts are kept small so that the file
runs in well under a minute.
"""

from __future__ import annotations

import functools
import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rulecore

pytestmark = pytest.mark.slow  # the whole module: run by CI, skipped by -m "not slow"

MAX_ACTIONS = 3000  # a safety cap; built-in games end long before it


def _tables() -> list[tuple[str, int]]:
    """(cardset, players) for every built-in cardset that loads, at every player count.

    A cardset that does not load is left out here (test_loader.py::test_every_builtin_cardset_loads
    reports it), so that it cannot break the collection of this file.
    """
    out = []
    for name in rulecore.builtin_cardsets():
        try:
            cs = rulecore.load_cardset(name)
        except rulecore.RulecoreError:
            continue
        out.extend((name, players) for players in range(cs.min_players, cs.max_players + 1))
    return out


TABLES = _tables()
TABLE_IDS = [f"{name}-{players}p" for name, players in TABLES]

# database=None: no example database is written into the checkout.  No shrink phase: shrinking a
# failing game can take minutes; the falsifying example (seed and choices) is printed as it is.
SETTINGS = settings(
    max_examples=10,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
LEAK_SETTINGS = settings(SETTINGS, max_examples=15)


@functools.lru_cache(maxsize=None)
def game_for(name: str, players: int) -> rulecore.Game:
    return rulecore.Game(rulecore.load_cardset(name), players)


def run(state: rulecore.State, rnd: random.Random, steps: int = MAX_ACTIONS, check=None) -> list[str]:
    """Apply up to ``steps`` random legal actions, calling ``check(state)`` after each; return them."""
    applied = []
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rnd.choice(state.legal_actions())
        state.apply(action)
        applied.append(action)
        if check is not None:
            check(state)
    return applied


def check_cards_accounted_for(state: rulecore.State) -> None:
    """Every card instance is in exactly one zone, and the state's card index agrees."""
    total = len(state.rules.instance_type)
    seen = [c for cards in state.zones.values() for c in cards]
    assert sorted(seen) == list(range(total)), "a card is missing or in two zones"
    for key, cards in state.zones.items():
        for c in cards:
            assert state.where[c] == key


def may_see(state: rulecore.State, key: str, player: int) -> bool:
    """Whether the rules let ``player`` see zone ``key``: its visibility, or a reveal."""
    vis = state.rules.zone_visibility[key]
    if vis == "everyone" or key in state.revealed:
        return True
    return vis == "owner" and state.rules.zone_owner[key] == player


def check_views(state: rulecore.State) -> None:
    """No view shows cards the viewer may not see, nor options of someone else's decision (inside sealed
    parts, of the table as the viewer sees it: the others' parts taken back)."""
    rules = state.rules
    real = state
    for p in range(rules.players):
        state = real.seen_by(p)
        if not real.sealed_ops:
            assert state is real
        view = real.view(p)
        json.dumps(view)
        for key, entry in view["zones"].items():
            assert entry["count"] == len(state.zones[key])
            if may_see(state, key, p):
                # face-down cards, and cards another player moved in a sealed part, show as null
                hidden = [c in state.facedown or state.sealed_cards.get(c, p) != p for c in state.zones[key]]
                assert entry["cards"] == [
                    None if h else rules.instance_type[c] for c, h in zip(state.zones[key], hidden)
                ]
                continue
            assert "cards" not in entry, f"player {p} sees hidden zone {key}"
            assert "marks" not in entry, f"player {p} sees the marks of hidden zone {key}"
            face_up = [rules.instance_type[c] for c in state.zones[key] if c in state.faceup]
            assert entry.get("face_up", []) == face_up
            if rules.zone_visibility[key] == "owner":
                assert rules.zone_owner[key] != p
        if view["decision"] is not None and view["decision"]["player"] != p:
            assert set(view["decision"]) == {"player"}
        for name, cdef in rules.cardset.counters.items():
            if cdef.visibility == "nobody":
                assert name not in view["counters"]
            elif cdef.visibility == "owner" and cdef.per_player:
                assert view["counters"][name] == {str(p): state.counters[name][p]}


def check_events(state: rulecore.State) -> None:
    """A player's log names moved cards only if one of the two zones could be seen by them."""
    rules = state.rules
    revealed_ever = {e["zone"] for e in state.events(None) if e["type"] == "reveal"}
    if state.faceup or any(e["type"] == "flip" for e in state.events(None)):
        return  # face-up cards are shown wherever they go
    for p in range(rules.players):
        for e in state.events(p):
            if e["type"] != "move" or "cards" not in e:
                continue
            ok = False
            for key in (e["from"], e["to_zone"]):
                vis = rules.zone_visibility[key]
                if vis == "everyone" or key in revealed_ever or (vis == "owner" and rules.zone_owner[key] == p):
                    ok = True
            assert ok, f"player {p} was told the cards of a move between hidden zones: {e}"


def check_all(state: rulecore.State) -> None:
    check_cards_accounted_for(state)
    check_views(state)
    assert bool(state.legal_actions()) != state.is_terminal()
    if not state.is_terminal():
        assert state.current_player in range(state.rules.players)


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("name, players", TABLES, ids=TABLE_IDS)
@LEAK_SETTINGS
@given(seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False))
def test_cards_stay_accounted_for_and_views_leak_nothing(name, players, seed, rnd):
    """After every action of a random game: each card in exactly one zone; views and events hide what they must."""
    state = game_for(name, players).new_game(seed)
    check_all(state)
    run(state, rnd, check=check_all)
    check_events(state)
    assert state.is_terminal(), "the game did not end"
    assert state.returns() == [1.0 if p in state.result()["winners"] else 0.0 for p in range(players)]


@pytest.mark.parametrize("name, players", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False), cut=st.integers(0, 400))
def test_save_and_load_round_trip_and_continue_identically(name, players, seed, rnd, cut):
    """to_json/load_state at a random point gives the same JSON, and both states continue identically."""
    game = game_for(name, players)
    state = game.new_game(seed)
    run(state, rnd, steps=cut)
    text = state.to_json()
    loaded = game.load_state(text)
    assert loaded.to_json() == text
    assert loaded.legal_actions() == state.legal_actions()
    future = random.Random(rnd.random())
    actions = run(state, future, steps=200)
    for action in actions:
        loaded.apply(action)
    assert loaded.to_json() == state.to_json()


@pytest.mark.parametrize("name, players", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False), cut=st.integers(0, MAX_ACTIONS))
def test_replay_gives_identical_json(name, players, seed, rnd, cut):
    """replay(seed, history) rebuilds exactly the same state (same to_json), mid-game or at the end."""
    game = game_for(name, players)
    state = game.new_game(seed)
    run(state, rnd, steps=cut)
    assert game.replay(seed, state.history).to_json() == state.to_json()


@pytest.mark.parametrize("name, players", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False), cut=st.integers(0, 300))
def test_clone_continues_identically_and_independently(name, players, seed, rnd, cut):
    """A clone taken at a random point continues like the original, and playing it leaves the original alone."""
    game = game_for(name, players)
    state = game.new_game(seed)
    run(state, rnd, steps=cut)
    before = state.to_json()
    clone = state.clone()
    assert clone.to_json() == before
    other = clone.clone()
    run(other, random.Random(1), steps=100)
    assert state.to_json() == before and clone.to_json() == before
    future = random.Random(rnd.random())
    actions = run(state, future, steps=150)
    for action in actions:
        clone.apply(action)
    assert clone.to_json() == state.to_json()
