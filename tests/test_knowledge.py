"""engine/knowledge.py: what each player can tell of the cards they cannot see, noted in play and worked out when read."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulecore
from test_resample import TABLES, TABLE_IDS, game_for


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@settings(max_examples=4, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 150), every=st.integers(1, 40))
def test_knowledge_worked_out_late_is_the_same_as_at_every_step(table, seed, steps, every):
    """Classes, class numbers and lost places read after many moves equal those read after each one (and a clone's)."""
    name, players, options = table
    game = game_for(name, players, json.dumps(options, sort_keys=True))
    often = game.new_game(seed)
    rarely = often.clone()
    rnd = random.Random(seed)
    for step in range(steps):
        if often.is_terminal():
            break
        action = rnd.choice(often.legal_actions())
        often.apply(action)
        rarely.apply(action)
        often.to_json()  # works the notes out at every step
        if step % every == 0:
            rarely = rarely.clone()  # clones share the notes not yet worked out
    a, b = json.loads(often.to_json()), json.loads(rarely.to_json())
    assert (a["classes"], a["class_seq"], a["loose"]) == (b["classes"], b["class_seq"], b["loose"])


def test_a_merge_keeps_the_saved_classes_free_of_links():
    """Saved classes name each card's class after every merge; a loaded state saves the same text."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 4)
    state = game.new_game(2)
    rnd = random.Random(2)
    for _ in range(120):
        state.apply(rnd.choice(state.legal_actions()))
    text = state.to_json()
    assert any(state.class_links), "no merge happened: the test needs another seed"
    loaded = game.load_state(text, trusted=True)
    assert not any(loaded.class_links)
    assert loaded.to_json() == text
