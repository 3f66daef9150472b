"""Stable action ids (rulecore/engine/actions.py): every legal action has one, unique in its state,
meaning the same everywhere."""

from __future__ import annotations

import random

import pytest

import rulecore
from rulecore import IllegalActionError
from rulecore.lang import nodes as n

TABLES = [
    ("witching-hour", 3, {}),
    ("witching-hour", 5, {}),
    ("witty-witches", 3, {"mode": "apprentice"}),
    ("witty-witches", 4, {"mode": "master"}),
    ("approaching-dawn", 2, {}),
    ("approaching-dawn", 3, {"scene": "blood-moon"}),
]


def _walk(game: rulecore.Game, seeds: range, limit: int):
    """Random decisions of ``game``: yields each state before its action is chosen."""
    for seed in seeds:
        state = game.new_game(seed)
        rng = random.Random(seed)
        for _ in range(limit):
            if state.is_terminal():
                break
            yield state
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,players,options", TABLES)
def test_every_legal_action_has_a_unique_id(name, players, options):
    """In random decisions of every game, each legal action has an id, unique in its state, in range."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    decisions = 0
    for state in _walk(game, range(20), 300):
        ids = state.legal_action_ids()
        assert len(ids) == len(state.legal_actions())
        assert len(set(ids)) == len(ids)
        assert all(0 <= i < game.num_distinct_actions for i in ids)
        decisions += 1
    assert decisions >= 500


@pytest.mark.parametrize("name,players,options", TABLES[::2])
def test_apply_id_is_apply_of_its_label(name, players, options):
    """apply_id(i) leaves the same state as apply() of the action at the same place."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    rng = random.Random(1)
    for state in _walk(game, range(2), 150):
        ids, actions = state.legal_action_ids(), state.legal_actions()
        k = rng.randrange(len(ids))
        by_label = state.clone()
        by_label.apply(actions[k])
        by_id = state.clone()
        by_id.apply_id(ids[k])
        assert by_id.to_json() == by_label.to_json()


@pytest.mark.parametrize("name,players,options", TABLES[::2])
def test_an_id_means_one_thing(name, players, options):
    """Across states, one id stands for one label (or, for relative keys, one meaning in words)."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    codec = game.action_codec
    labels: dict[int, set[str]] = {}
    for state in _walk(game, range(4), 200):
        for i, key, action in zip(state.legal_action_ids(), codec.legal_keys(state), state.legal_actions()):
            assert codec.keys[i] == key
            if key[0] in ("option", "done", "decline"):
                labels.setdefault(i, set()).add(action)
    assert labels and all(len(v) == 1 for v in labels.values())


def test_ids_are_read_from_the_game_not_from_play():
    """Two Games of one cardset, table and options number their actions alike before any play."""
    cardset = rulecore.load_cardset("witty-witches")
    a = rulecore.Game(cardset, 3).action_codec.keys
    b = rulecore.Game(cardset, 3).action_codec.keys
    assert a == b and ("done",) in a and ("decline",) in a
    assert any(k[0] == "card" for k in a) and any(k[0] == "seat" for k in a)


def test_seat_ids_are_relative_to_the_chooser():
    """Choosing the next player has one id whoever chooses."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    codec = game.action_codec
    seen = set()
    for state in _walk(game, range(6), 200):
        if state.decision.kind == "player":
            me = state.current_player
            for i, action in zip(state.legal_action_ids(), state.legal_actions()):
                k = codec.keys[i][1]
                assert action == f"Player {(me + k) % 3}"
                seen.add(k)
    assert seen


def test_action_label_and_bad_ids():
    """action_label describes an id; an id out of range or not legal raises IllegalActionError."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    state = game.new_game(3)
    i = state.legal_action_ids()[0]
    assert isinstance(game.action_label(i), str) and game.action_label(i)
    with pytest.raises(IllegalActionError):
        game.action_label(game.num_distinct_actions)
    illegal = next(j for j in range(game.num_distinct_actions) if j not in state.legal_action_ids())
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_id(illegal)
    assert state.to_json() == before


@pytest.mark.parametrize("name,players,options", TABLES[::2])
def test_ids_survive_save_load_and_resample(name, players, options):
    """A loaded save, and a resample for the chooser, have the same legal ids as the original."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    for k, state in enumerate(_walk(game, range(2), 120)):
        if k % 10:
            continue
        ids = state.legal_action_ids()
        assert game.load_state(state.to_json()).legal_action_ids() == ids
        assert state.resample(state.current_player, k).legal_action_ids() == ids


@pytest.mark.parametrize("name,players,options", TABLES[::2])
def test_an_option_id_names_the_card_type_not_the_card(name, players, options):
    """Swapping the card behind an `option each` option for another card of its type keeps its id, so an
    id never tells same-looking cards apart (a hidden card's identity would leak, and IS-MCTS trees split)."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    codec, types = game.action_codec, game.rules.instance_type
    swapped = 0
    for state in _walk(game, range(30), 200):
        node, pc, entries, env = state.stack[-1]
        if not isinstance(node, n.Menu):
            continue
        for i, (label, idx, value) in enumerate(entries):
            if not isinstance(node.items[idx], n.DynamicOption) or type(value) is not int:
                continue
            twins = [c for c in range(len(types)) if c != value and types[c] == types[value]]
            if not twins or codec.item_kind[id(node.items[idx])] not in (None, "card", "cards"):
                continue
            other = state.clone()
            changed = entries[:i] + ((label, idx, twins[0]),) + entries[i + 1:]
            other.stack[-1] = (node, pc, changed, env)
            assert codec.legal_keys(other) == codec.legal_keys(state)
            swapped += 1
    assert swapped > 0
