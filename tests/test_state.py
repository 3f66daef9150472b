"""The State API: decisions and actions, illegal actions, clones, save/load, corrupt saves, replay, views, events."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulecore
from rulecore.cardset.loader import load_cardset_text
from table_helpers import TABLE_IDS, TABLES, random_play


@pytest.fixture(scope="module")
def wh() -> rulecore.Cardset:
    return rulecore.load_cardset("witching-hour")


def play(state: rulecore.State, steps: int, seed: int = 0) -> rulecore.State:
    """Apply up to ``steps`` random legal actions (fewer if the game ends)."""
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rnd.choice(state.legal_actions()))
    return state


def finish(state: rulecore.State, seed: int = 0) -> rulecore.State:
    return play(state, 10_000, seed)


# --------------------------------------------------------------------------- decisions and actions


def test_new_game_stops_at_the_first_decision(wh):
    """new_game() runs set-up and stops at a decision whose player is current_player."""
    s = rulecore.Game(wh, 3).new_game(seed=7)
    assert not s.is_terminal()
    assert s.decision is not None
    assert s.current_player == s.decision.player == 0
    assert s.legal_actions() == [o.action for o in s.decision.options] == s.decision.actions
    assert all(isinstance(a, str) for a in s.legal_actions())
    assert s.history == [] and s.seed == 7
    assert s.decision.to_dict()["options"] == [o.label for o in s.decision.options]


def test_apply_records_history_and_moves_on(wh):
    """apply() of a legal action appends it to history and reaches the next decision."""
    s = rulecore.Game(wh, 3).new_game(seed=1)
    action = s.legal_actions()[0]
    s.apply(action)
    assert s.history == [action]


def test_illegal_action_raises_and_leaves_state_unchanged(wh):
    """An action not in legal_actions() raises IllegalActionError naming the legal ones; nothing changes."""
    s = play(rulecore.Game(wh, 3).new_game(seed=2), 5)
    before = s.to_json()
    legal = s.legal_actions()
    for bad in ("Fly away", "", "attack", legal[0] + " "):
        with pytest.raises(rulecore.IllegalActionError) as info:
            s.apply(bad)
        assert repr(bad) in str(info.value)
        assert repr(legal[0]) in str(info.value)
    assert s.to_json() == before
    assert s.legal_actions() == legal


def test_non_string_action_is_illegal(wh):
    """An action index or None is not an action: IllegalActionError, state unchanged."""
    s = rulecore.Game(wh, 2).new_game(seed=3)
    before = s.to_json()
    for bad in (0, None):
        with pytest.raises(rulecore.IllegalActionError):
            s.apply(bad)  # type: ignore[arg-type]
    assert s.to_json() == before


def test_terminal_state_accepts_no_action(wh):
    """A finished game has no decision, no current player, no legal actions, and apply() raises."""
    s = finish(rulecore.Game(wh, 2).new_game(seed=4))
    assert s.is_terminal()
    assert s.decision is None and s.current_player is None and s.legal_actions() == []
    before = s.to_json()
    with pytest.raises(rulecore.IllegalActionError, match="the game is over"):
        s.apply("Attack")
    assert s.to_json() == before


def test_returns_and_result(wh):
    """returns() is all 0.0 before the end, then 1.0 for each winner; result() reports totals and rounds."""
    s = rulecore.Game(wh, 3).new_game(seed=5)
    assert s.returns() == [0.0, 0.0, 0.0]
    assert s.result()["winners"] == [] and s.result()["terminal"] is False
    finish(s, seed=5)
    result = s.result()
    assert result["terminal"] is True and result["winners"]
    assert s.returns() == [1.0 if p in result["winners"] else 0.0 for p in range(3)]
    assert len(result["totals"]) == 3
    assert result["rounds"] >= 3 and len(result["round_scores"]) == result["rounds"]
    assert result["decisions"] == len(s.history)
    assert all(len(v) == 3 for v in result["card_uses"].values())
    assert min(result["totals"]) == min(result["totals"][w] for w in result["winners"])


def test_heuristic(wh, tiny):
    """heuristic(player) is the cardset's evaluation as a float, 0.0 for a cardset without one."""
    s = play(rulecore.Game(wh, 3).new_game(seed=6), 10)
    assert all(isinstance(s.heuristic(p), float) for p in range(3))
    assert tiny.run("let c = choose card from deck by 0").heuristic(0) == 0.0


def test_single_option_decisions_are_not_in_history(tiny):
    """A decision with one option is made automatically and never appears in history."""
    s = tiny.run("let a = choose card from top(deck) by 0\nlet b = choose card from bottom(deck, 2) by 1")
    assert s.history == [] and s.current_player == 1
    s.apply("Gold Coin")
    assert s.history == ["Gold Coin"] and s.is_terminal()


def test_record_events_off_keeps_no_log(wh):
    """Game(record_events=False) plays the same game without an event log."""
    quiet = rulecore.Game(wh, 3, record_events=False)
    loud = rulecore.Game(wh, 3)
    a = finish(quiet.new_game(seed=8), seed=8)
    b = finish(loud.new_game(seed=8), seed=8)
    assert a.events() == [] and a.events(0) == []
    assert a.history == b.history and a.result() == b.result()


# --------------------------------------------------------------------------- clone


def test_clone_is_independent(wh):
    """Playing on a clone never changes the original (and vice versa)."""
    s = play(rulecore.Game(wh, 3).new_game(seed=9), 20)
    before = s.to_json()
    c = s.clone()
    finish(c, seed=1)
    assert s.to_json() == before
    c2 = s.clone()
    snapshot = c2.to_json()
    finish(s, seed=2)
    assert c2.to_json() == snapshot


def test_clone_shares_no_mutable_containers(wh):
    """clone() copies every list, dict and set of the state (vars, frames, history, log ...); the lists of
    zones and counters are shared copy-on-write, so changing either state takes its own copy first."""
    s = play(rulecore.Game(wh, 3).new_game(seed=10), 15)
    c = s.clone()
    for name in ("zones", "where", "counters", "vars", "extra_turns", "revealed", "faceup", "stack", "history",
                 "log", "round_log"):
        assert getattr(c, name) is not getattr(s, name), name
        assert getattr(c, name) == getattr(s, name), name
    for mine, theirs in zip(s.stack, c.stack):
        assert mine[3] is not theirs[3]  # the locals of each running effect
    assert c.rng is not s.rng and c.rng.state == s.rng.state
    before = json.loads(s.to_json())
    key = next(k for k, cards in c.zones.items() if cards)
    card = c.zones[key][0]
    other = next(k for k in c.zones if k != key)
    c.move([card], other, "top", None, None)
    c.change_counter(next(iter(c.counters)), 0, "add", 1)
    assert json.loads(s.to_json()) == before  # the original's zones and counters are untouched
    assert c.zones[other][0] == card and s.zones[key][0] == card
    s.move([card], other, "bottom", None, None)
    assert c.zones[other][0] == card and s.zones[other][-1] == card  # and the other way round


def test_clone_keeps_shared_locals_shared(tiny):
    """Frames that share one set of locals in the original share one copy in the clone."""
    s = tiny.run("let a = 1\nif true { let c = choose card from deck by 0\nsay a + c }")
    c = s.clone()
    envs = {id(f[3]) for f in c.stack}
    assert len(envs) == len({id(f[3]) for f in s.stack})


def test_clone_of_a_sealed_state_is_independent(tiny):
    """Finishing sealed simultaneous parts on a clone leaves the original's events sealed and its JSON unchanged."""
    s = tiny.run(
        "simultaneously for each p in players {\n  let c = choose card from deck by p\n  say \"picked \" + c.name\n}"
    )
    s.apply("Bean")
    before = s.to_json()
    clone = s.clone()
    clone.apply("Apple")
    assert [e for e in s.events(1) if e["type"] == "say"] == []
    assert s.to_json() == before


def test_clone_continues_identically(wh):
    """A clone and its original reach identical states under the same actions (the generator is copied)."""
    s = play(rulecore.Game(wh, 4).new_game(seed=11), 30)
    c = s.clone()
    play(s, 60, seed=3)
    play(c, 60, seed=3)
    assert s.to_json() == c.to_json()


# --------------------------------------------------------------------------- save and load


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


# --------------------------------------------------------------------------- replay


@pytest.mark.parametrize("players", [2, 3, 5])
def test_replay_gives_an_identical_state(wh, players):
    """game.replay(seed, history) reproduces the state exactly, mid-game and at the end."""
    game = rulecore.Game(wh, players)
    for steps in (7, 10_000):
        s = play(game.new_game(seed=15), steps, seed=steps)
        assert game.replay(s.seed, s.history).to_json() == s.to_json()


def test_replay_with_an_illegal_action_says_which(wh):
    """replay() names the index and action that is not legal."""
    game = rulecore.Game(wh, 3)
    s = play(game.new_game(seed=16), 3)
    with pytest.raises(rulecore.IllegalActionError, match=r"replay: action 3 \('Nonsense'\) is not legal"):
        game.replay(s.seed, s.history + ["Nonsense"])


# --------------------------------------------------------------------------- views and events


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


def test_arrange_works_a_pending_choose_out_anew_with_the_locals_it_reads(wh):
    """State.arrange re-asks a pending choose with its options worked out on the new table, locals it reads included."""
    game = rulecore.Game(wh, players=2)
    state = game.new_game(seed=5)
    if state.decision.prompt == "Your turn":  # asked even when attacking is all there is ('always')
        state.apply("Attack")
    assert state.decision.prompt == "Attack with which cards?"
    # the attack's 'boosters' (Candles in hand) was worked out on the old hand
    state.arrange({"hand/0": ["cauldron", "bell"], "hand/1": ["mirror"]}, rest="discard")
    assert set(state.legal_actions()) == {"1 Cauldron", "1 Bell"}
    state.apply("1 Bell")
    assert sorted(state.rules.instance_type[c] for c in state.zones["attack"] + state.zones["hex/1"]) == ["bell"]
    assert "candle" not in [state.rules.instance_type[c] for c in state.zones["hand/0"]]


def test_arrange_keeps_the_choices_already_made(wh):
    """State.arrange re-asks a pending choose but keeps what earlier choices of the same effect picked."""
    game = rulecore.Game(wh, players=3)
    state = game.new_game(seed=0)
    while state.decision.prompt != "Attack with which cards?":
        state.apply("Attack" if "Attack" in state.legal_actions() else state.legal_actions()[-1])
    defender_before = state.stack[-1][3]["defender"]
    state.arrange({"hand/0": ["bell", "bell"]}, rest="discard")
    assert state.stack[-1][3]["defender"] == defender_before
    assert set(state.legal_actions()) == {"1 Bell", "2 Bell"}


def test_arrange_sets_card_and_player_marks(wh):
    """State.arrange(marks=..., player_marks=...): 'zone/index' sets a card's marks exactly, a seat its player marks."""
    state = rulecore.Game(wh, players=3).new_game(seed=0)
    state.arrange({"hand/0": ["bell", "candle"]}, rest="discard",
                  marks={"hand/0/1": ["lit", "spare"]}, player_marks={2: ["open_red"]})
    candle = state.zones["hand/0"][1]
    assert state.rules.instance_type[candle] == "candle" and state.marks[candle] == ("lit", "spare")
    assert state.player_marks == [(), (), ("open_red",)]
    state.arrange(marks={"hand/0/1": []})
    assert candle not in state.marks
    with pytest.raises(rulecore.IllegalActionError):
        state.arrange(marks={"hand/0/5": ["x"]})
    with pytest.raises(rulecore.IllegalActionError):
        state.arrange(player_marks={3: ["x"]})
