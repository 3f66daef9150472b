"""The State API: decisions and actions, illegal actions, results, clones and replay (engine/state.py)."""

from __future__ import annotations

import gc
import json
import random
import weakref

import attrs
import pytest

import rulecore
from rulecore.engine.rules import Rules
from rulecore.lang.functions import FUNCTIONS
from table_helpers import finish, play


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


@pytest.mark.parametrize("name,players", [("witching-hour", 3), ("witching-hour", 4), ("witty-witches", 3),
                                          ("approaching-dawn", 2)])
def test_heuristics_is_every_seats_heuristic(name, players):
    """heuristics() gives heuristic(p) of every seat, in seat order, all along a random game."""
    s = rulecore.Game(rulecore.load_cardset(name), players, record_events=False).new_game(seed=3)
    rng = random.Random(3)
    while not s.is_terminal() and len(s.history) < 120:
        assert s.heuristics() == [s.heuristic(p) for p in range(players)]
        s.apply(rng.choice(s.legal_actions()))


def test_heuristics_reads_each_seats_pile_once(wh, monkeypatch):
    """heuristics() works a built-in that reads only zones (Witching Hour's ladder_score of each hex)
    out once per seat's pile, not once per seat judging it; heuristic(p) alone reads every pile."""
    calls = []
    sig = FUNCTIONS["ladder_score"]

    def counting(ctx, cards):
        calls.append(cards)
        return sig.impl(ctx, cards)

    monkeypatch.setitem(FUNCTIONS, "ladder_score", attrs.evolve(sig, impl=counting))
    s = play(rulecore.Game(wh, 4).new_game(seed=6), 10)  # a new Game writes its code with the counting one
    calls.clear()
    values = s.heuristics()
    assert len(calls) == 4 and len(set(calls)) == 4
    calls.clear()
    assert [s.heuristic(p) for p in range(4)] == values
    assert len(calls) == 16


def test_heuristics_works_a_heuristic_that_reads_no_seat_out_once(monkeypatch):
    """heuristics() works out once a heuristic no seat changes (Approaching Dawn's, a cooperative game's)
    and gives every seat that value; Witching Hour's, which reads 'you', is worked out per seat."""
    game = rulecore.Game(rulecore.load_cardset("approaching-dawn"), 3)
    assert game.rules.heuristic_seatless
    s = play(game.new_game(seed=4), 6)
    calls = []
    evaluate = Rules.evaluate

    def counting(self, expr, ctx):
        calls.append(ctx.env["$you"])
        return evaluate(self, expr, ctx)

    monkeypatch.setattr(Rules, "evaluate", counting)
    values = s.heuristics()
    assert calls == [0] and len(values) == 3 and len(set(values)) == 1  # worked out once, for seat 0
    assert [s.heuristic(p) for p in range(3)] == values
    assert not rulecore.Game(rulecore.load_cardset("witching-hour"), 3).rules.heuristic_seatless


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


@pytest.mark.parametrize("name,players", [("witching-hour", 3), ("approaching-dawn", 2), ("witty-witches", 2)])
def test_a_state_dropped_is_freed_at_once(name, players):
    """A state at rest is in no reference cycle (its context holds it only while its effects run), so a
    copy played on and dropped is freed at once, not left to the cycle collector."""
    s = play(rulecore.Game(rulecore.load_cardset(name), players).new_game(seed=5), 12)
    gc.disable()
    try:
        for index in range(s.legal_count()):
            c = s.clone()
            c.apply_index(index)
            seen = weakref.ref(c)
            del c
            assert seen() is None
        assert not hasattr(s.ctx, "state")
    finally:
        gc.enable()


def test_a_state_whose_action_the_rules_refused_is_as_it_was_and_freed_at_once(tiny):
    """After a rule error in the middle of its effects, the state is as before the action, its context
    holds it no longer, and dropped it is freed at once."""
    game = rulecore.Game(tiny.cardset("let c = choose card from deck by 0 always\nwhile true { say 1 }"), 2,
                         step_limit=500)
    s = game.new_game(1)
    before = s.to_json()
    gc.disable()
    try:
        c = s.clone()
        with pytest.raises(rulecore.RuleError, match="more than 500 steps"):
            c.apply("Apple")
        assert c.to_json() == before and not hasattr(c.ctx, "state")
        seen = weakref.ref(c)
        del c
        assert seen() is None
    finally:
        gc.enable()


def test_clone_continues_identically(wh):
    """A clone and its original reach identical states under the same actions (the generator is copied)."""
    s = play(rulecore.Game(wh, 4).new_game(seed=11), 30)
    c = s.clone()
    play(s, 60, seed=3)
    play(c, 60, seed=3)
    assert s.to_json() == c.to_json()



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


def test_apply_index_takes_the_same_action_as_apply_by_label() -> None:
    """apply_index(i) records and carries out legal_actions()[i]; a bad index changes nothing."""
    import random

    from rulecore.errors import IllegalActionError

    game = rulecore.Game(rulecore.load_cardset("witching-hour"), players=3)
    by_label, by_index = game.new_game(seed=5), game.new_game(seed=5)
    rng = random.Random(5)
    while not by_label.is_terminal():
        assert by_index.legal_count() == len(by_label.legal_actions())
        i = rng.randrange(by_label.legal_count())
        by_label.apply(by_label.legal_actions()[i])
        by_index.apply_index(i)
    assert by_index.history == by_label.history and by_index.to_json() == by_label.to_json()
    assert by_index.legal_count() == 0
    fresh = game.new_game(seed=5)
    for bad in (-1, fresh.legal_count(), True, "0"):
        with pytest.raises(IllegalActionError):
            fresh.apply_index(bad)  # type: ignore[arg-type]
    assert fresh.history == []


@pytest.mark.parametrize("name,players", [("witching-hour", 4), ("witty-witches", 3), ("approaching-dawn", 2)])
def test_moves_without_an_event_log_leave_the_same_state(name: str, players: int) -> None:
    """A game without an event log (moves take the plain path) is, log aside, the game with one:
    zones, knowledge classes, generator and resampled worlds the same after every action."""
    import random

    cardset = rulecore.load_cardset(name)
    with_log = rulecore.Game(cardset, players=players)
    without = rulecore.Game(cardset, players=players, record_events=False)
    for seed in range(3):
        a, b = with_log.new_game(seed=seed), without.new_game(seed=seed)
        rng = random.Random(seed)
        while not a.is_terminal() and len(a.history) < 400:
            action = rng.choice(a.legal_actions())
            a.apply(action)
            b.apply(action)
            saved_a, saved_b = json.loads(a.to_json()), json.loads(b.to_json())
            for part in ("log", "frames"):  # a frame may hold a place in the log ('simultaneously')
                saved_a.pop(part)
                saved_b.pop(part)
            assert saved_a == saved_b
        seat = a.current_player if a.current_player is not None else 0
        assert a.resample(seat, 7)._view_key(seat) == b.resample(seat, 7)._view_key(seat)


def test_apply_index_discarding_plays_as_apply_index_without_a_snapshot(monkeypatch: pytest.MonkeyPatch) -> None:
    """_apply_index_discarding (the bots' look-ahead) leaves the state apply_index leaves, on a resampled
    (arranged) world too, without the copy apply keeps there to undo a rule error; a bad index is refused."""
    import random

    from rulecore.engine import saves
    from rulecore.errors import IllegalActionError

    game = rulecore.Game(rulecore.load_cardset("witching-hour"), players=3, record_events=False)
    world = play(game.new_game(seed=8), 4).resample(0, 3)
    kept, thrown = world.clone(), world.clone()
    clones = []
    monkeypatch.setattr(type(world), "clone", lambda s: clones.append(1) or saves.clone(s))
    rng = random.Random(8)
    while not kept.is_terminal():
        i = rng.randrange(kept.legal_count())
        kept.apply_index(i)
        copies = len(clones)
        thrown._apply_index_discarding(i)
        assert len(clones) == copies
    assert len(clones) > 0 and thrown.to_json() == kept.to_json()
    for bad in (-1, 0, True):
        with pytest.raises(IllegalActionError):
            thrown._apply_index_discarding(bad)


@pytest.mark.parametrize("name,players", [("witching-hour", 2), ("witching-hour", 3), ("approaching-dawn", 2),
                                          ("witty-witches", 2)])
def test_a_look_ahead_leaves_the_next_question_unbuilt_and_reading_it_gives_what_apply_gives(name, players):
    """After _apply_index_discarding, a question known to ask (two options seen, or 'always') waits
    unbuilt: the seat to choose and the heuristics are as after apply_index, and reading the question
    (a copy, legal_count, legal_actions, the saved state) builds exactly what apply_index built."""
    import random

    game = rulecore.Game(rulecore.load_cardset(name), players, record_events=False)
    rng = random.Random(11)
    unbuilt = 0
    for seed in range(3):
        s = game.new_game(seed)
        while not s.is_terminal():
            i = rng.randrange(s.legal_count())
            eager, lazy = s.clone(), s.clone()
            eager.apply_index(i)
            lazy._apply_index_discarding(i)
            if lazy.unbuilt is not None:
                unbuilt += 1
                assert lazy.current_player == eager.current_player and not lazy.is_terminal()
                assert lazy.heuristics() == eager.heuristics() and lazy.unbuilt is not None  # judging reads no question
                copy = lazy.clone()  # a copy is to be played on: the question is built first, once
                assert copy.unbuilt is None is lazy.unbuilt and copy.legal_actions() == eager.legal_actions()
            assert lazy.legal_count() == eager.legal_count() and lazy.unbuilt is None
            assert lazy.to_json() == eager.to_json() and lazy.decision == eager.decision
            s = eager
    assert unbuilt > 20


def test_an_unbuilt_menu_that_fails_when_built_raises_where_the_question_is_read(tiny):
    """A menu left unbuilt is built with the step budget its run had: one that runs past it only after
    the two options a look-ahead saw raises, when its question is read, the RuleError apply raises."""
    body = ('take turns from 0 until round > 2 { choose "Pick" { option "a" { set x to 1 } option "b" { say 2 } '
            'option each c in deck where x > 0 and count(deck where count(deck where true) > 0) > 0 { say c } } }')
    s = rulecore.Game(tiny.cardset(body), 2, step_limit=40).new_game(1)
    with pytest.raises(rulecore.RuleError, match="more than 40 steps") as eager:
        s.clone().apply("a")
    lazy = s.clone()
    lazy._apply_index_discarding(s.legal_actions().index("a"))
    assert lazy.unbuilt is not None and lazy.current_player == 1
    with pytest.raises(rulecore.RuleError) as read:
        lazy.legal_count()
    assert str(read.value) == str(eager.value)
