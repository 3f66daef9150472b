"""What each player may know (engine/views.py): views, the view key the bots remember decisions by,
zone visibility and the filtered event log."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulecore
from rulecore.cardset.loader import load_cardset_text
from table_helpers import TABLE_IDS, TABLES, finish, play, random_play


def test_view_shows_own_hand_and_hides_others(wh):
    """view(p) lists p's hand, only counts of other hands and hidden zones, and everything public."""
    s = rulecore.Game(wh, 3).new_game(seed=17)
    rules = s.rules
    for p in range(3):
        zones = s.view(p)["zones"]
        assert zones[f"hand/{p}"]["cards"] == [rules.instance_type[c] for c in s.zones[f"hand/{p}"]]
        for q in range(3):
            if q != p:
                assert "cards" not in zones[f"hand/{q}"]
                assert zones[f"hand/{q}"]["count"] == len(s.zones[f"hand/{q}"])
            assert "cards" not in zones[f"hex/{q}"]
        assert "cards" not in zones["discard"] and "cards" not in zones["deck"]
        assert zones["attack"]["cards"] == []


def test_view_is_json_ready_and_names_the_player(wh):
    """A view is plain JSON data and says whose it is."""
    s = play(rulecore.Game(wh, 3).new_game(seed=18), 9)
    v = s.view(2)
    assert json.loads(json.dumps(v)) == v
    assert v["player"] == 2 and v["players"] == 3 and v["game"] == "witching-hour"
    assert v["current_player"] == s.current_player


def test_view_shows_the_decision_only_to_the_chooser(wh):
    """Everyone sees who is deciding; only the chooser's view has the prompt, kind and options."""
    s = rulecore.Game(wh, 3).new_game(seed=19)
    chooser = s.current_player
    for p in range(3):
        d = s.view(p)["decision"]
        assert d["player"] == chooser
        if p == chooser:
            assert d["prompt"] == s.decision.prompt and d["kind"] == s.decision.kind
            assert d["options"] == [o.label for o in s.decision.options]
        else:
            assert d == {"player": chooser}


def test_view_of_a_player_not_in_the_game(wh):
    """view() of a seat that does not exist raises a RulecoreError."""
    s = rulecore.Game(wh, 3).new_game(seed=20)
    for bad in (3, -1, "0"):
        with pytest.raises(rulecore.RulecoreError):
            s.view(bad)  # type: ignore[arg-type]


def test_view_counters_follow_their_visibility(tiny):
    """'everyone' counters are listed for all seats, 'owner' ones only the viewer's own value."""
    s = tiny.run("add 1 to score of 1\nadd 4 to secret of 0\nadd 2 to secret of 1")
    assert s.view(0)["counters"]["score"] == [0, 1]
    assert s.view(0)["counters"]["secret"] == {"0": 4}
    assert s.view(1)["counters"]["secret"] == {"1": 2}
    assert s.view(1)["counters"]["pool"] == 5
    secret_events_0 = [e for e in s.events(0) if e["type"] == "counter" and e["counter"] == "secret"]
    assert [e["value"] for e in secret_events_0] == [4]


def test_view_leaves_out_variables_seen_by_nobody(tiny):
    """A var declared 'visibility: nobody' is in the state (and saves) but in no player's view."""
    text = tiny.text("set pack to [1, 2]\nset x to 3").replace(
        "  word: hello\n", "  word: hello\n  pack: {value: none, visibility: nobody, description: cards left}\n")
    cs = load_cardset_text(text, "inline.yaml")
    assert cs.vars["pack"] is None and cs.hidden_vars == {"pack"}
    state = rulecore.Game(cs, 2).new_game(1)
    assert state.vars["pack"] == (1, 2) and '"pack"' in state.to_json()
    for seat in (0, 1):
        assert state.view(seat)["vars"] == {"x": 3, "word": "hello"}


def test_zone_visible(tiny):
    """zone_visible(key, p) follows the zone's visibility and reveals."""
    s = tiny.run("reveal pile of 1")
    assert s.zone_visible("hand/0", 0) and not s.zone_visible("hand/0", 1)
    assert s.zone_visible("table", 1) and not s.zone_visible("deck", 0)
    assert s.zone_visible("pile/1", 0) and not s.zone_visible("pile/0", 0)
    assert s.zone_visible("shown/0", 1)


def _same_partition(states: list[rulecore.State], player: int) -> None:
    """Among ``states``, two have equal ``_view_key(player)`` exactly when their ``view(player)`` is equal."""
    groups: dict[object, list[dict]] = {}
    for state in states:
        groups.setdefault(state._view_key(player), []).append(state.view(player))
    for views in groups.values():
        assert all(v == views[0] for v in views[1:]), "equal keys, different views"
    firsts = [views[0] for views in groups.values()]
    for i, a in enumerate(firsts):
        assert all(a != b for b in firsts[i + 1:]), "equal views, different keys"


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@settings(max_examples=4, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 200), rs=st.integers(0, 2**32))
def test_view_key_is_equal_exactly_when_the_view_is(table, seed, steps, rs):
    """_view_key(p) of two states is equal iff view(p) is: states along a random game (its end too), their
    resamples for each seat (same view, other hidden cards) and saved-and-loaded copies."""
    name, players, options = table
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    state = game.new_game(seed)
    rnd = random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal() and len(states) <= steps:
        state.apply(rnd.choice(state.legal_actions()))
        states.append(state.clone())
    if not state.is_terminal():
        states.append(finish(state.clone(), seed))
    for i, s in enumerate(states[::7]):
        states.append(game.load_state(s.to_json()))
        if not s.is_terminal():
            states.append(s.resample((rs + i) % players, rs))
    for player in range(players):
        _same_partition(states, player)


def _nudged(state: rulecore.State, rnd: random.Random) -> rulecore.State:
    """A copy of ``state`` with one thing changed at random: two cards swapped, a card turned face down,
    face up, sealed or marked, a zone revealed, a var or counter set, a seat marked."""
    new = state.clone()
    cards = len(new.where)
    card, other = rnd.randrange(cards), rnd.randrange(cards)
    what = rnd.randrange(8)
    if what == 0:
        a, b = new.where[card], new.where[other]
        za, zb = new._zone_w(a), new._zone_w(b)
        ia, ib = za.index(card), zb.index(other)
        za[ia], zb[ib] = other, card
        new.where[card], new.where[other] = b, a
    elif what == 1:
        new.facedown = new.facedown | {card}
    elif what == 2:
        new.faceup = new.faceup | {card}
    elif what == 3:
        new.sealed_cards = {**new.sealed_cards, card: rnd.randrange(new.rules.players)}
    elif what == 4:
        new.marks = {**new.marks, card: ("nudged",)}
    elif what == 5:
        new.revealed = new.revealed | {rnd.choice(sorted(new.zones))}
    elif what == 6 and new.vars:
        new.vars[rnd.choice(sorted(new.vars))] = rnd.choice([0, 1, "nudged", None, (1, 2)])
    elif what == 7 and new.counters:
        name = rnd.choice(sorted(new.counters))
        values = new._counter_w(name)
        values[rnd.randrange(len(values))] += 1
    else:
        new.player_marks = [m + ("nudged",) if seat == other % len(new.player_marks) else m
                            for seat, m in enumerate(new.player_marks)]
    return new


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
@settings(max_examples=3, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_view_key_follows_every_change_the_view_shows(table, seed, steps):
    """A state with one thing changed (a card moved, turned, sealed or marked, a zone revealed, a var or
    counter set) has another _view_key(p) exactly when it has another view(p)."""
    name, players, options = table
    state = random_play(rulecore.Game(rulecore.load_cardset(name), players, options), seed, steps)
    rnd = random.Random(seed)
    for _ in range(60):
        new = _nudged(state, rnd)
        for player in range(players):
            assert (new._view_key(player) == state._view_key(player)) == (new.view(player) == state.view(player))


def test_view_key_follows_reveals_owner_counters_and_marks(tiny):
    """_view_key follows a reveal, shows only the seat's own 'owner' counter and the marks of the cards
    the seat sees, exactly as view does."""
    plain = tiny.run("add 2 to secret of 1")
    revealed = tiny.run("add 2 to secret of 1\nreveal pile of 1")
    other = tiny.run("add 3 to secret of 1")
    laid = plain.clone()
    laid.arrange({"table": ["apple", "bean"]})
    marked, hidden_mark = laid.clone(), laid.clone()
    marked.arrange(marks={"table/1": ["tapped"]})
    hidden_mark.arrange(marks={"deck/0": ["tapped"]})  # a mark on a card nobody sees shows nowhere
    states = [plain, revealed, other, laid, marked, hidden_mark, plain.clone()]
    for player in (0, 1):
        _same_partition(states, player)
    assert plain._view_key(0) == other._view_key(0) and plain._view_key(1) != other._view_key(1)
    assert revealed._view_key(0) != plain._view_key(0)
    assert marked._view_key(0) != laid._view_key(0) == hidden_mark._view_key(0)
    assert hash(plain._view_key(0)) == hash(plain.clone()._view_key(0))


@pytest.mark.parametrize("table", TABLES[::3], ids=TABLE_IDS[::3])
def test_view_key_has_a_field_for_every_field_of_the_view(table):
    """The key holds the view's fields one by one, and the view's zones and decision no field the key does
    not model: a field added to view() must be added to _view_key() too."""
    name, players, options = table
    state = rulecore.Game(rulecore.load_cardset(name), players, options).new_game(3)
    rnd = random.Random(3)
    for _ in range(60):
        for player in range(players):
            view = state.view(player)
            assert len(state._view_key(player)) == len(view)
            for entry in view["zones"].values():
                assert set(entry) <= {"count", "cards", "marks", "face_up"}
            assert set(view["decision"] or {}) <= {"player", "prompt", "kind", "options"}
        state.apply(rnd.choice(state.legal_actions()))
        if state.is_terminal():
            break


def test_events_hide_cards_dealt_to_other_players(wh):
    """A deal into a hand shows card names to its owner only; the full log (None) shows everything."""
    s = rulecore.Game(wh, 3).new_game(seed=21)
    deals = lambda p: [e for e in s.events(p) if e["type"] == "move" and e["to_zone"].startswith("hand/")]  # noqa: E731
    for p in range(3):
        for e in deals(p):
            if e["to_zone"] == f"hand/{p}":
                assert "cards" in e
            else:
                assert "cards" not in e
                for name in ("Bell", "Candle", "Skull", "Mirror"):
                    assert name not in e["text"]
    assert all("cards" in e for e in deals(None))


def test_events_are_json_ready_and_typed(wh):
    """Every event is JSON data with a 'type' and a human 'text'."""
    s = play(rulecore.Game(wh, 3).new_game(seed=22), 30)
    for p in (None, 0, 1, 2):
        events = s.events(p)
        assert events
        assert json.loads(json.dumps(events)) == events
        assert all(isinstance(e["type"], str) and isinstance(e["text"], str) for e in events)
        assert all("to" not in e and "seen" not in e and "private_text" not in e for e in events)


def test_events_of_a_player_are_a_subsequence_of_the_full_log(wh):
    """A player's events are the full log with some events left out (and some card names masked)."""
    s = play(rulecore.Game(wh, 3).new_game(seed=23), 40)
    full = s.events(None)
    for p in range(3):
        mine = s.events(p)
        assert len(mine) <= len(full)
        types = [e["type"] for e in mine]
        it = iter(e["type"] for e in full)
        assert all(t in it for t in types)
