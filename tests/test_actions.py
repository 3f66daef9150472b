"""Stable action ids (rulecore/engine/encoding/actions.py): a small vocabulary, each id one part of an
answer, meaning the same everywhere; every legal action is reached by exactly one sequence of ids."""

from __future__ import annotations

import json
import random

import pytest

import rulecore
from rulecore import IllegalActionError, StateError
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


def _reached(state: rulecore.State) -> dict[str, list[int]]:
    """Every sequence of legal ids from ``state`` until an action is applied: the action -> the ids."""
    out: dict[str, list[int]] = {}
    seen = len(state.history)

    def visit(s: rulecore.State, ids: list[int]) -> None:
        legal = s.legal_action_ids()
        assert len(set(legal)) == len(legal) and legal
        for i in legal:
            after = s.clone()
            after.apply_id(i)
            if len(after.history) > seen:
                assert after.history[seen] not in out, "an action reached by two sequences of ids"
                out[after.history[seen]] = ids + [i]
            else:
                assert after.picking == s.picking + (i,)
                visit(after, ids + [i])

    visit(state, [])
    return out


@pytest.mark.parametrize("name,players,options", TABLES)
def test_every_legal_action_is_reached_by_one_sequence_of_ids(name, players, options):
    """In random decisions of every game, the ids reach each legal action exactly once, and applying
    the ids leaves the same state as applying the action."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    decisions = longer = 0
    for k, state in enumerate(_walk(game, range(12), 250)):
        reached = _reached(state)
        assert sorted(reached) == sorted(state.legal_actions())
        assert all(0 <= i < game.num_distinct_actions for ids in reached.values() for i in ids)
        longer += any(len(ids) > 1 for ids in reached.values())
        if k % 7 == 0:
            action, ids = random.Random(k).choice(sorted(reached.items()))
            by_label, by_ids = state.clone(), state.clone()
            by_label.apply(action)
            for i in ids:
                by_ids.apply_id(i)
            assert by_ids.to_json() == by_label.to_json()
        decisions += 1
    assert decisions >= 200
    assert longer > 0 or name == "witty-witches"


@pytest.mark.parametrize("name", ["witching-hour", "witty-witches", "approaching-dawn"])
def test_every_built_in_game_has_at_most_2000_ids(name):
    """At every player count and option value, a built-in game has a network-sized id space."""
    cardset = rulecore.load_cardset(name)
    variants = [{}] + [{key: value} for key, spec in cardset.options.items() for value in spec.choices or ()]
    for players in range(cardset.min_players, cardset.max_players + 1):
        for options in variants:
            assert rulecore.Game(cardset, players, options).num_distinct_actions <= 2000


def _words(game: rulecore.Game, key: tuple) -> list[str]:
    """What the labels of the options an id leaves open must all say, by the id's key."""
    names = game.rules.defs
    if key[0] == "card":
        return [names[key[1]].name]
    if key[0] == "take":
        return [f"{key[2]} {names[key[1]].name}"]
    if key[0] == "option":
        return [key[1]]
    return []


@pytest.mark.parametrize("name,players,options", TABLES[::2])
def test_an_id_means_one_thing(name, players, options):
    """Across states, the options an id leaves open all say what its key says (the card's name, the
    count and name of a set's part, the static label); a seat id is one seat relative to the chooser."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    codec = game.action_codec
    checked = 0
    for state in _walk(game, range(6), 200):
        for i in state.legal_action_ids():
            key = codec.keys[i]
            left = codec.options_of(state, i)
            for word in _words(game, key):
                assert all(word in label for label in left), (key, left)
                checked += 1
            if key[0] == "option":
                assert left == [key[1]]
    assert checked > 100


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
            for i in state.legal_action_ids():
                k = codec.keys[i][1]
                assert codec.options_of(state, i) == [f"Player {(me + k) % 3}"]
                seen.add(k)
    assert seen


def test_a_set_is_asked_one_card_type_at_a_time():
    """Witching Hour's 'Attack with which cards?' offers each card type with a count, in card order, then
    the next type or Done: fewer ids than sets, and a set's path is its types with their counts."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    codec = game.action_codec
    asked = fewer = 0
    for state in _walk(game, range(10), 200):
        if state.decision.kind != "set":
            continue
        ids = state.legal_action_ids()
        assert len(ids) <= len(state.legal_actions())
        fewer += len(ids) < len(state.legal_actions())
        actions, paths = state.legal_actions(), codec.paths(state)
        for action, path in zip(actions, paths):
            parts = {f"{key[2]} {game.rules.defs[key[1]].name}" for key in path if key[0] == "take"}
            assert parts == set(action.split(" + ")) and path[-1] == ("done",)
        for action, ids in _reached(state).items():
            path = iter(paths[actions.index(action)])
            assert all(codec.keys[i] in path for i in ids)  # the ids taken are parts of its path, in order
        asked += 1
    assert asked > 5 and fewer > 0


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


def _mid_pick(game: rulecore.Game, seeds: range):
    """States of ``game`` with a partial answer taken (``picking`` not empty)."""
    for k, state in enumerate(_walk(game, seeds, 300)):
        for i in state.legal_action_ids():
            after = state.clone()
            after.apply_id(i)
            if after.picking:
                yield k, state, after
                break


def test_a_partial_answer_changes_nothing_of_the_game():
    """Taking the first part of a set leaves the history, the table and the other seats' views as they
    were; the chooser's view and key show the ids taken; apply() of any action still works."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    found = 0
    for _, before, after in _mid_pick(game, range(4)):
        saved, now = json.loads(before.to_json()), json.loads(after.to_json())
        assert now.pop("picking") == list(after.picking) and now == saved
        me = after.current_player
        for seat in range(3):
            if seat != me:
                assert after.view(seat) == before.view(seat)
                assert after._view_key(seat) == before._view_key(seat)
        assert after.view(me)["decision"]["picked"] == list(after.picking)
        assert after._view_key(me) != before._view_key(me)
        action = after.legal_actions()[-1]
        after.apply(action)
        before.apply(action)
        assert after.to_json() == before.to_json() and not after.picking
        found += 1
    assert found > 3


def test_a_partial_answer_survives_clone_save_load_and_the_choosers_resample():
    """A state mid-answer clones, saves and loads (checked against its history and question) with the
    same ids taken and the same legal ids; the chooser's resample keeps them, another seat's drops them."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    found = 0
    for k, _, state in _mid_pick(game, range(3)):
        ids = state.legal_action_ids()
        assert state.clone().legal_action_ids() == ids
        loaded = game.load_state(state.to_json())
        assert loaded.picking == state.picking and loaded.legal_action_ids() == ids
        assert loaded.to_json() == state.to_json()
        me = state.current_player
        assert state.resample(me, k).legal_action_ids() == ids
        other = state.resample((me + 1) % 3, k)
        assert other.picking == () and other.view((me + 1) % 3) == state.view((me + 1) % 3)
        found += 1
    assert found > 3


def test_a_save_with_a_bad_partial_answer_is_refused():
    """A saved 'picking' that is no partial answer to the pending question raises StateError."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    _, _, state = next(_mid_pick(game, range(3)))
    data = json.loads(state.to_json())
    for bad in ([game.num_distinct_actions + 5], [state.legal_action_ids()[0]] * 40, "x"):
        data["picking"] = bad
        with pytest.raises(StateError):
            game.load_state(json.dumps(data))


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
    """Swapping the card behind an `option each` option for another card of its type in the same zone keeps
    its ids, so an id never tells same-looking cards apart (a hidden card's identity would leak, and
    IS-MCTS trees split)."""
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
            if codec.item_kind[id(node.items[idx])] not in (None, "card", "cards"):
                continue
            twins = [c for c in range(len(types))
                     if c != value and types[c] == types[value] and state.where[c] == state.where[value]]
            if not twins:
                continue
            other = state.clone()
            changed = entries[:i] + ((label, idx, twins[0]),) + entries[i + 1:]
            other.stack[-1] = (node, pc, changed, env)
            assert codec.paths(other) == codec.paths(state)
            assert other.legal_action_ids() == state.legal_action_ids()
            swapped += 1
    assert swapped > 0


@pytest.mark.parametrize("name", ["witching-hour", "witty-witches", "approaching-dawn"])
def test_every_id_says_what_it_means(name):
    """action_label gives words for every id of a game, all different, and a set's part says its count
    and card name."""
    game = rulecore.Game(rulecore.load_cardset(name), 3)
    labels = [game.action_label(i) for i in range(game.num_distinct_actions)]
    assert all(labels) and len(set(labels)) == len(labels)
    for i, key in enumerate(game.action_codec.keys):
        if key[0] == "take":
            assert labels[i] == f"{key[2]} {game.rules.defs[key[1]].name}"
