"""State.resample: a state one player cannot tell from the real one, with what is hidden from them dealt anew.

Property tests over every built-in game and mode play a random game to a random point and
resample it for a random player; scenario tests pin what the player is taken to know.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rulecore
from rulecore.engine.knowing import knowledge
from table_helpers import TABLE_IDS, TABLES, random_play

SETTINGS = settings(
    max_examples=6,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
PLAYOUT_CAP = 20_000


@functools.lru_cache(maxsize=None)
def game_for(name: str, players: int, options: str) -> rulecore.Game:
    return rulecore.Game(rulecore.load_cardset(name), players, json.loads(options))


def played(table: tuple, seed: int, steps: int) -> rulecore.State:
    """A game of ``table`` from ``seed`` after up to ``steps`` random actions (stopping before the end)."""
    name, players, options = table
    return random_play(game_for(name, players, json.dumps(options, sort_keys=True)), seed, steps)


def parsed(state: rulecore.State) -> dict:
    return json.loads(state.to_json())


def frames(state: rulecore.State) -> list:
    return [(id(node), pc) for node, pc, _, _ in state.stack]


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), who=st.integers(0, 5), rs=st.integers(0, 2**32))
def test_resample_cannot_be_told_apart(table, seed, steps, who, rs):
    """Same view, events and (when theirs) legal actions; every card, zone size, counter, var and frame kept
    (as the player sees them: inside sealed parts, with the others' parts taken back)."""
    real = played(table, seed, steps)
    player = who % real.rules.players
    before = real.to_json()
    new = real.resample(player, rs)
    assert real.to_json() == before, "resample changed the state it was asked about"
    assert new.view(player) == real.view(player)
    state = real.seen_by(player)
    assert new.view(player) == state.view(player)
    assert new.events(player) == state.events(player)
    if state.current_player == player:
        assert new.legal_actions() == state.legal_actions()
    assert sorted(c for cards in new.zones.values() for c in cards) == list(range(len(state.where)))
    assert {k: len(v) for k, v in new.zones.items()} == {k: len(v) for k, v in state.zones.items()}
    for key, cards in new.zones.items():
        assert all(new.where[c] == key for c in cards)
    assert new.counters == state.counters
    assert new.vars == state.vars
    assert frames(new) == frames(state)
    assert new.current_player == state.current_player


def resampled(table: tuple, seed: int, steps: int, who: int, rs: int) -> tuple[rulecore.State, int, rulecore.State]:
    """A game of ``table`` played to a point, a player (``who`` modulo the players) and its resample with ``rs``."""
    state = played(table, seed, steps)
    player = who % state.rules.players
    return state, player, state.resample(player, rs)


def place(state: rulecore.State, card: int) -> tuple[str, int]:
    """The zone and index where ``card`` lies."""
    key = state.where[card]
    return key, state.zones[key].index(card)


def held_places(state: rulecore.State, new: rulecore.State) -> list[tuple[object, object]]:
    """(place in ``state``, place in ``new``) of every card the pending frames' card variables hold."""
    pairs = []
    for (node, _, _, env), (_, _, _, new_env) in zip(state.stack, new.stack):
        for name in state.rules.card_locals.get(id(node), ()):
            old_cards = [c for c in _flat(env.get(name))]
            new_cards = [c for c in _flat(new_env.get(name))]
            assert len(old_cards) == len(new_cards)
            pairs += [(place(state, a), place(new, b)) for a, b in zip(old_cards, new_cards)]
    return pairs


def _flat(value: object) -> list[int]:
    if type(value) is int:
        return [value]
    if isinstance(value, (tuple, list)):
        return [c for v in value for c in _flat(v)]
    return []


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), who=st.integers(0, 5), rs=st.integers(0, 2**32))
def test_cards_held_by_pending_frames_follow_the_deal(table, seed, steps, who, rs):
    """Each card a pending frame's variable holds becomes the card dealt at its place, hidden or not."""
    state, player, new = resampled(table, seed, steps, who, rs)
    for old_place, new_place in held_places(state.seen_by(player), new):
        assert new_place == old_place


def test_hidden_cards_a_pending_choice_holds_are_dealt_anew():
    """Two discard cards another player looked at and is choosing between: in a resample for a player
    who never saw them, the frame holds the cards dealt at their places (not the true ones), and the
    choice, asked again, offers those."""
    game = game_for("witching-hour", 3, "{}")
    names = game.rules.card_name
    checked = dealt_anew = 0
    for seed in range(60):
        state = game.new_game(seed)
        rnd = random.Random(seed)
        while not state.is_terminal() and dealt_anew < 6:
            d = state.decision
            if d.prompt == "Which card goes into your own Hex pile?":
                drawn = state.stack[-1][3]["drawn"]
                places = [place(state, c) for c in drawn]
                for player in set(range(3)) - {d.player}:
                    for rs in range(3):
                        new = state.resample(player, rs)
                        held = new.stack[-1][3]["drawn"]
                        assert [place(new, c) for c in held] == places
                        assert set(new.legal_actions()) == {names(c) for c in held}
                        checked += 1
                        dealt_anew += held != drawn
            state.apply(rnd.choice(state.legal_actions()))
    assert checked and dealt_anew


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), who=st.integers(0, 5), rs=st.integers(0, 2**32))
def test_resample_saves_loads_and_plays_to_the_end(table, seed, steps, who, rs):
    """A resampled state round-trips through to_json/load_state and plays to the end with random actions."""
    state, _, new = resampled(table, seed, steps, who, rs)
    loaded = new.game.load_state(new.to_json(), trusted=True)  # a resample is laid out, not played
    assert parsed(loaded) == parsed(new)
    rnd = random.Random(rs)
    for _ in range(PLAYOUT_CAP):
        if loaded.is_terminal():
            break
        loaded.apply(rnd.choice(loaded.legal_actions()))
    assert loaded.is_terminal()
    assert len(loaded.returns()) == state.rules.players


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), who=st.integers(0, 5),
       a=st.integers(0, 2**32), b=st.integers(0, 2**32))
def test_resample_depends_only_on_what_the_player_knows(table, seed, steps, who, a, b):
    """Two states the player cannot tell apart (a state and a resample of it) resample alike for one seed."""
    state = played(table, seed, steps)
    player = who % state.rules.players
    other = state.resample(player, a)
    assert parsed(other.resample(player, b)) == parsed(state.resample(player, b))
    assert parsed(state.resample(player, b)) == parsed(state.resample(player, b))


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), who=st.integers(0, 5), rs=st.integers(0, 2**32))
def test_resample_of_a_saved_and_loaded_state_is_the_same(table, seed, steps, who, rs):
    """The deal comes from what the player knows, not from how the state was built: a state read back
    from its JSON (its knowledge worked out, its zones rebuilt) resamples exactly like the state."""
    state = played(table, seed, steps)
    player = who % state.rules.players
    loaded = state.game.load_state(state.to_json())
    assert parsed(loaded.resample(player, rs)) == parsed(state.resample(player, rs))


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), who=st.integers(0, 5),
       seeds=st.lists(st.integers(0, 2**32), max_size=4))
def test_resample_many_deals_the_worlds_resample_deals(table, seed, steps, who, seeds):
    """resample_many(player, seeds) gives, seed by seed, exactly the worlds resample(player, seed) gives."""
    state = played(table, seed, steps)
    player = who % state.rules.players
    assert [parsed(w) for w in state.resample_many(player, seeds)] == [parsed(state.resample(player, s)) for s in seeds]


def test_worlds_of_one_reading_are_played_on_independently():
    """Worlds dealt at once share what the player knows, yet playing one on leaves the others as dealt."""
    state = random_play(game_for("approaching-dawn", 2, "{}"), 3, 40)
    player = state.current_player
    first, second = state.resample_many(player, [5, 5])
    before = second.to_json()
    rnd = random.Random(1)
    for _ in range(60):
        if first.is_terminal():
            break
        first.apply(rnd.choice(first.legal_actions()))
    assert second.to_json() == before
    assert parsed(second) == parsed(state.resample(player, 5))
    # what the player can tell apart is shared by the worlds until one changes it: then it is that world's own
    third, fourth = state.resample_many(player, [6, 7])
    classes, _ = knowledge.writable(third, player)
    classes[len(third.rules.instance_type) - 1] = 10**6  # the last card, in a class no deal gives
    assert 10**6 not in fourth.classes[player].values()


def test_resample_many_rejects_a_bad_seed_and_deals_nothing_for_no_seed():
    """Every seed is checked before any world is dealt; no seeds, no worlds."""
    state = game_for("witching-hour", 3, "{}").new_game(1)
    with pytest.raises(rulecore.IllegalActionError):
        state.resample_many(0, [1, "2"])  # type: ignore[list-item]
    assert state.resample_many(0, []) == []
    with pytest.raises(rulecore.IllegalActionError, match="'seeds' must be a list of seeds"):
        state.resample_many(0, 7)  # type: ignore[arg-type]


def test_resample_seed_mixes_in_what_the_player_knows():
    """One seed deals other worlds once the player has seen more: the new generator differs after an action."""
    game = game_for("witching-hour", 3, "{}")
    state = game.new_game(4)
    player = state.current_player
    after = state.clone()
    after.apply(after.legal_actions()[0])
    assert after.view(player) != state.view(player)
    assert after.resample(player, 7).rng.state != state.resample(player, 7).rng.state


def test_resample_deals_hidden_cards_anew_and_keeps_seen_ones():
    """Another player's hand is dealt anew (for some seed), the player's own hand never changes."""
    game = game_for("witching-hour", 3, "{}")
    state = game.new_game(4)
    types = state.rules.instance_type
    own = [types[c] for c in state.zones["hand/0"]]
    theirs = Counter(types[c] for c in state.zones["hand/1"])
    dealt = [state.resample(0, seed) for seed in range(8)]
    assert all([types[c] for c in new.zones["hand/0"]] == own for new in dealt)
    assert any(Counter(types[c] for c in new.zones["hand/1"]) != theirs for new in dealt)


def test_resample_draws_a_new_future():
    """The generator is re-seeded: resamples with different seeds have different generators."""
    state = game_for("witty-witches", 3, "{}").new_game(1)
    states = {state.resample(0, seed).rng.state for seed in range(5)}
    assert len(states) == 5 and state.rng.state not in states


def test_resample_rejects_a_bad_player_or_seed():
    """A player outside the table, or a seed that is not an integer, is an IllegalActionError."""
    state = game_for("witching-hour", 3, "{}").new_game(1)
    with pytest.raises(rulecore.IllegalActionError):
        state.resample(3, 1)
    with pytest.raises(rulecore.IllegalActionError):
        state.resample(0, "1")  # type: ignore[arg-type]


def _first_state_after(table: tuple, seeds: range, found) -> tuple[rulecore.State, object]:
    """The first state (over random games from ``seeds``) where ``found(state)`` gives something."""
    name, players, options = table
    game = game_for(name, players, json.dumps(options, sort_keys=True))
    for seed in seeds:
        state = game.new_game(seed)
        rnd = random.Random(seed)
        while not state.is_terminal():
            state.apply(rnd.choice(state.legal_actions()))
            hit = None if state.is_terminal() else found(state)
            if hit:
                return state, hit
    raise AssertionError("no game reached the situation")


def test_a_card_put_out_of_sight_stays_known():
    """A card a player moved from their hand into a pile hidden even from them stays there in a resample."""

    def put_away(state):
        for i in range(len(state.log) - 1, -1, -1):
            event = state.log[i]
            p = event.get("actor")
            if event.get("type") == "move" and event.get("from") == f"hex/{p}":
                return None
            if event.get("type") == "move" and event.get("from") == f"hand/{p}" and event.get("to_zone") == f"hex/{p}":
                if not any(e.get("from") == f"hex/{p}" for e in state.log[i:]):
                    return p, None, event["cards"]
        return None

    state, (player, pile, cards) = _first_state_after(("witching-hour", 3, {}), range(40), put_away)
    types = state.rules.instance_type
    for seed in range(6):
        new = state.resample(player, seed)
        dealt = Counter(types[c] for c in new.zones[f"hex/{player}"])
        assert all(dealt[t] >= n for t, n in Counter(cards).items())


def test_a_hand_looked_at_stays_known():
    """A hand a player looked at keeps its cards in every resample for them (less the cards they saw leave)."""

    def looked(state):
        types = state.rules.instance_type
        for i in range(len(state.log) - 1, -1, -1):
            event = state.log[i]
            if event.get("type") != "look" or not event.get("to"):
                continue
            player = event["to"][0]
            for key, cards in state.zones.items():
                if not key.startswith("hand/") or key == f"hand/{player}":
                    continue
                left = Counter(event["cards"])
                for later in state.log[i + 1:]:
                    if later.get("type") in ("rotate", "shuffle") or later.get("to_zone") == key:
                        left = None
                        break
                    if later.get("type") == "move" and later.get("from") == key:
                        if later.get("seen") is not None and player not in later["seen"]:
                            left = None
                            break
                        left = left - Counter(later["cards"])
                if left and Counter(types[c] for c in cards) == left:
                    return player, key, left
            return None
        return None

    state, (player, key, seen) = _first_state_after(("witching-hour", 3, {}), range(80), looked)
    types = state.rules.instance_type
    for seed in range(6):
        assert Counter(types[c] for c in state.resample(player, seed).zones[key]) == seen


def test_another_players_pending_choice_is_asked_again_for_the_new_deal():
    """When another player is choosing, their options name cards of their resampled hand, not the true one."""
    checked = 0
    for seed in range(30):
        state = played(("witty-witches", 2, {"mode": "apprentice"}), seed, 2 * seed + 3)
        chooser = state.current_player
        if state.decision is None or state.decision.prompt != "Your turn":
            continue
        new = state.resample(1 - chooser, seed)
        names = {state.rules.card_name(c) for c in new.zones[f"hand/{chooser}"]}
        for action in new.legal_actions():
            if action.startswith("Discard "):
                assert action[len("Discard "):] in names
                checked += 1
    assert checked > 0


def test_resample_never_leaves_a_question_it_could_not_ask_again(monkeypatch):
    """When no deal lets another player's pending question be asked the same way, resample raises RuleError
    (it never returns the last deal with the question, and its true hidden options, left as they were)."""
    from rulecore.engine.knowing import resample as engine_resample

    tried = []
    monkeypatch.setattr(engine_resample, "_ask_again", lambda new, player: tried.append(new) or None)
    state = played(("witty-witches", 2, {"mode": "apprentice"}), 3, 9)
    other = 1 - state.current_player
    with pytest.raises(rulecore.RuleError, match="another seed"):
        state.resample(other, 5)
    assert len(tried) == engine_resample.ASK_AGAIN_DEALS


# --------------------------------------------------------------------------- what a world tells its holder

def _swapped(state: rulecore.State, a: int, b: int) -> rulecore.State:
    """``state`` with cards ``a`` and ``b`` trading places (each place keeps its face-down, sealed and marks,
    and what a sealed part running did there): the same table to any seat that sees neither."""
    from rulecore.engine.knowing import sealed

    twin = state.clone()
    twin.sealed_ops = sealed.remapped(twin.sealed_ops, {a: b, b: a})
    ka, kb = twin.where[a], twin.where[b]
    za, zb = twin._zone_w(ka), twin._zone_w(kb)
    ia, ib = za.index(a), zb.index(b)
    za[ia], zb[ib] = b, a
    twin.where[a], twin.where[b] = kb, ka
    if (a in twin.facedown) != (b in twin.facedown):
        twin.facedown ^= {a, b}
    for table in (twin.marks, twin.sealed_cards):
        va, vb = table.pop(a, None), table.pop(b, None)
        if vb is not None:
            table[a] = vb
        if va is not None:
            table[b] = va
    return twin


def _held(state: rulecore.State) -> set[int]:
    """Every card a pending frame or a game variable holds (a pair to swap must hold none of them)."""
    out: set[int] = set()
    for _, _, data, env in state.stack:
        out.update(_flat(list(env.values())), _flat(data))
    out.update(_flat(list(state.vars.values())))
    return out


def _unseen_pair(state: rulecore.State, player: int, rnd: random.Random) -> tuple[int, int] | None:
    """Two cards of different types in different zones, both hidden from ``player`` and alike to them (one
    class), held by no rule: None when there is no such pair."""
    state.to_json()  # (what is known worked out)
    view = state.view(player)
    types = state.rules.instance_type
    held = _held(state)
    hidden = []
    for key, cards in state.zones.items():
        shown = view["zones"][key].get("cards")
        for i, c in enumerate(cards):
            if (shown is None or shown[i] is None) and c not in state.faceup and c not in held:
                hidden.append(c)
    cls = state.classes[player]
    links = state.class_links[player]
    from rulecore.engine.knowing.knowledge import class_of
    rnd.shuffle(hidden)
    for a in hidden:
        for b in hidden:
            if (state.where[a] != state.where[b] and types[a] != types[b]
                    and class_of(cls, links, a) == class_of(cls, links, b)):
                return a, b
    return None


@pytest.mark.parametrize("table", [TABLES[1], TABLES[5], TABLES[8]], ids=[TABLE_IDS[1], TABLE_IDS[5], TABLE_IDS[8]])
def test_a_world_is_the_same_when_only_unseen_cards_differ(table):
    """Two states that differ only by two unseen cards trading places give the same world, to_json byte for
    byte (the order of 'loose', 'marks', class numbers included), for one seed."""
    compared = 0
    for seed in range(30):
        state = played(table, seed, 4 + seed % 20)
        player = (seed + 1) % state.rules.players
        pair = _unseen_pair(state, player, random.Random(seed))
        if pair is None:
            continue
        twin = _swapped(state, *pair)
        assert twin.view(player) == state.view(player)
        for rs in (123, seed):
            assert twin.resample(player, rs).to_json() == state.resample(player, rs).to_json()
            compared += 1
    assert compared >= 20


def test_the_face_down_discard_after_the_deal_is_dealt_anew():
    """Witching Hour, 3 players, after the deal: the deck goes face down to the discard unseen, so a
    resample for seat 0 deals the discard from every card it cannot see (not the true pile), and an
    unseen discard card trading places with an unseen card of another type in hand/1 changes no world."""
    state = game_for("witching-hour", 3, "{}").new_game(4)
    types = state.rules.instance_type
    pile = Counter(types[c] for c in state.zones["discard"])
    worlds = [state.resample(0, k) for k in range(100)]
    assert sum(Counter(types[c] for c in w.zones["discard"]) == pile for w in worlds) < 10
    a = state.zones["discard"][0]
    b = next(c for c in state.zones["hand/1"] if types[c] != types[a])
    twin = _swapped(state, a, b)
    for k in range(5):
        assert twin.resample(0, k).to_json() == worlds[k].to_json()


def test_loose_keys_do_not_name_the_true_cards():
    """The issue's rebuild: 3 players, new_game(4), 12 random actions from random.Random(4), a world for
    seat 1 with seed 123: its 'loose' keys are in card order (their order tells nothing)."""
    for name, options in (("witching-hour", {}), ("witty-witches", {}), ("approaching-dawn", {"scene": "all-hallows-eve"})):
        state = played((name, 3, options), 4, 12)
        keys = [int(k) for k in parsed(state.resample(1, 123))["loose"]]
        assert keys == sorted(keys)
