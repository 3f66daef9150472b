"""Bots: legal choices, seeded determinism, and sensible greedy/ismcts/oracle play (on a fake game)."""

from __future__ import annotations

import inspect
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import fakegame
import ismcts_cases
import rulecore
from rulecore import bots
from rulecore.bots import BOT_NAMES, Bot, GreedyBot, ISMCTSBot, OracleBot, RandomBot, make_bot
from table_helpers import random_play


def new_state(players: int = 3, seed: int = 1, **options: object) -> fakegame.FakeState:
    return fakegame.make_game(fakegame.NAME, players, options).new_game(seed=seed)


def play_out(bots: dict[int, Bot], state: fakegame.FakeState) -> list[str]:
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    return list(state.history)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_only_picks_legal_actions(name: str) -> None:
    """Each named bot plays whole games choosing only from legal_actions()."""
    for seed in range(5):
        state = new_state(players=3, seed=seed)
        bots = {s: make_bot(name, seed * 10 + s) for s in range(3)}
        play_out(bots, state)
        assert state.is_terminal()


@pytest.mark.parametrize("name", BOT_NAMES)
def test_same_seed_same_choices(name: str) -> None:
    """Two bots built with the same seed make the same choices in the same games."""
    first = play_out({s: make_bot(name, 42 + s) for s in range(2)}, new_state(players=2, seed=3))
    second = play_out({s: make_bot(name, 42 + s) for s in range(2)}, new_state(players=2, seed=3))
    assert first == second


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_ignore_the_global_random_module(name: str) -> None:
    """Bots draw randomness only from their own generator, not the random module."""
    random.seed(1)
    first = play_out({s: make_bot(name, 7 + s) for s in range(2)}, new_state(players=2, seed=5))
    random.seed(999)
    second = play_out({s: make_bot(name, 7 + s) for s in range(2)}, new_state(players=2, seed=5))
    assert first == second


def test_random_bot_seeds_differ() -> None:
    """Different seeds give a RandomBot different choice sequences."""
    state = new_state(players=2, seed=0, heap=40, max_take=4)
    runs = {
        tuple(RandomBot(seed).choose(state) for _ in range(20)) for seed in range(5)
    }
    assert len(runs) > 1


@pytest.mark.parametrize("name", BOT_NAMES)
def test_choose_does_not_change_the_state(name: str) -> None:
    """Choosing (including lookahead on clones) leaves the given state untouched."""
    state = new_state(players=3, seed=2)
    state.apply("take:2")
    before = (state.heap, list(state.taken), list(state.history), state.current_player)
    make_bot(name, 1).choose(state)
    assert (state.heap, list(state.taken), list(state.history), state.current_player) == before


def test_greedy_takes_an_immediate_win() -> None:
    """GreedyBot takes the action that ends the game in its favour."""
    state = new_state(players=2, seed=0, heap=3, max_take=3)
    for seed in range(10):
        assert GreedyBot(seed).choose(state) == "take:3"


@pytest.mark.parametrize("name,players", [("witching-hour", 3), ("approaching-dawn", 2), ("witty-witches", 2)])
def test_greedy_looks_ahead_by_position_and_picks_as_with_apply(name, players, monkeypatch) -> None:
    """greedy judges each action on a copy taken by position (no undo snapshot, the next question left
    unbuilt): through whole games it picks exactly what it picks when every look-ahead uses apply."""
    game = rulecore.Game(rulecore.load_cardset(name), players, record_events=False)

    def play() -> list[str]:
        s = game.new_game(41)
        seats = [make_bot("greedy", 5 + p) for p in range(players)]
        while not s.is_terminal() and len(s.history) < 150:
            s.apply(seats[s.current_player].choose(s))
        return s.history

    by_position = play()
    taken = []
    real = rulecore.State._apply_index_discarding
    monkeypatch.setattr(rulecore.State, "_apply_index_discarding", lambda s, i: taken.append(i) or real(s, i))
    assert play() == by_position and taken  # the look-ahead did go by position
    monkeypatch.delattr(rulecore.State, "_apply_index_discarding")
    assert play() == by_position  # without it, greedy applies each action by its label


def test_ismcts_builds_the_question_of_a_world_it_plays_on_and_leaves_a_judged_ones_unbuilt() -> None:
    """ismcts steps a world it plays on (the tree's actions, forced and random playout moves) so that
    its next question is built at once, and a world it only judges (a greedy playout option) so that
    the question waits unbuilt; both give the same state."""
    from rulecore.bots import ismcts

    s = rulecore.Game(rulecore.load_cardset("approaching-dawn"), 2).new_game(3)
    step, judged, count = ismcts._stepping(s)
    waited = 0
    for i in range(count(s)):
        played, looked = s.clone(), s.clone()
        step(played, i)
        judged(looked, i)
        assert played.unbuilt is None
        waited += looked.unbuilt is not None
        assert looked.legal_actions() == played.legal_actions() and looked.to_json() == played.to_json()
    assert waited


def test_greedy_follows_the_heuristic() -> None:
    """Without a win in reach, GreedyBot maximises heuristic(me) (here: leave a multiple of 4)."""
    state = new_state(players=2, seed=0, heap=9, max_take=3)
    assert GreedyBot(0).choose(state) == "take:1"


def test_oracle_takes_an_immediate_win() -> None:
    """OracleBot prefers the action whose every playout is a win."""
    state = new_state(players=2, seed=0, heap=2, max_take=3)
    for seed in range(5):
        assert OracleBot(seed).choose(state) == "take:2"


def test_oracle_uses_heuristic_when_depth_runs_out() -> None:
    """With depth 0 OracleBot ranks actions by the normalised heuristic."""
    state = new_state(players=2, seed=0, heap=9, max_take=3)
    assert OracleBot(0, playouts=2, depth=0).choose(state) == "take:1"


def test_oracle_bot_parameters_are_validated() -> None:
    """OracleBot rejects non-positive playout counts with a RulecoreError."""
    with pytest.raises(rulecore.RulecoreError):
        OracleBot(0, playouts=0)


def test_make_bot_builds_each_named_bot() -> None:
    """make_bot returns an object of the named kind that satisfies the Bot protocol."""
    kinds = {"random": RandomBot, "greedy": GreedyBot, "ismcts": ISMCTSBot, "oracle": OracleBot}
    for name in BOT_NAMES:
        bot = make_bot(name, 3)
        assert isinstance(bot, kinds[name])
        assert isinstance(bot, Bot)
        assert bot.name == name


def test_make_bot_unknown_name_lists_valid_names() -> None:
    """An unknown bot name raises RulecoreError naming every valid bot."""
    with pytest.raises(rulecore.RulecoreError) as info:
        make_bot("smart", 1)
    for name in BOT_NAMES:
        assert name in str(info.value)


def test_bot_refuses_a_finished_game() -> None:
    """Asking a bot to choose in a terminal state is a RulecoreError, not a crash."""
    state = new_state(players=2, seed=0, heap=1, max_take=3)
    state.apply("take:1")
    with pytest.raises(rulecore.RulecoreError):
        RandomBot(0).choose(state)


# ---------------------------------------------------------------- the real engine

REAL = "witching-hour"
needs_real = pytest.mark.skipif(
    REAL not in rulecore.builtin_cardsets(), reason="built-in cardset not available"
)


def real_state(players: int = 3, seed: int = 11) -> rulecore.State:
    return rulecore.Game(rulecore.load_cardset(REAL), players=players).new_game(seed=seed)


@needs_real
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_real_game_bots_play_legal_moves_to_the_end(name: str) -> None:
    """Random and greedy bots finish a real Witching Hour game with legal actions only."""
    state = real_state()
    bots = {s: make_bot(name, s) for s in range(3)}
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.result()["winners"]


@needs_real
def test_real_game_oracle_bot_is_legal_and_seeded() -> None:
    """A (small) OracleBot picks a legal action on a real state, the same one for the same seed."""
    state = real_state()
    history = list(state.history)
    first = OracleBot(5, playouts=2, depth=15).choose(state)
    again = OracleBot(5, playouts=2, depth=15).choose(state)
    assert first == again
    assert first in state.legal_actions()
    assert list(state.history) == history


CYCLE = """
let going = true
while going {
  choose by 0 "Menu" {
    option "Look" {
      choose by 0 "Sub" {
        option "Back" { }
        option "Stop" { let going = false }
      }
    }
    option "Stop" { let going = false }
  }
}
"""


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_never_repeat_an_action_that_led_back_to_the_same_decision(name: str, tiny) -> None:
    """A bot that comes back to a decision it met, with nothing changed, does not take the action it took there again."""
    # stopping loses, so greedy and search bots would rather "Look" and go "Back" for ever
    game = tiny.game(CYCLE, winners="players where it == 1")
    for seed in range(5):
        state = game.new_game(seed)
        bot = make_bot(name, seed)
        for _ in range(4):
            if state.is_terminal():
                break
            state.apply(bot.choose(state))
        assert state.is_terminal(), state.history
        assert state.history.count("Look") <= 1


# ---------------------------------------------------------------- fair play

def test_ismcts_takes_an_immediate_win() -> None:
    """ISMCTSBot takes the action that wins at once."""
    for seed in range(3):
        state = new_state(players=2, seed=0, heap=3, max_take=3)
        assert ISMCTSBot(seed, iterations=60).choose(state) == "take:3"


#: What ismcts picked on main before its playouts went by position (tests/ismcts_cases.py, 2026-12-02)
ISMCTS_PICKS = {
    'wh3-0': 'Book',
    'wh3-1': 'Player 2',
    'wh3-2': 'Play Chalice',
    'wh3-3': 'Play Skull',
    'wh3-4': 'Toadstool',
    'wh3-5': 'Attack',
    'wh3-6': 'Player 1',
    'wh3-7': 'Play Chalice',
    'wh3-8': 'Block with 1 Skull',
    'wh3-9': 'Play Chalice',
    'wh3-10': 'Candle',
    'wh3-11': 'Play Chalice',
    'wh3-12': 'Player 0',
    'wh3-13': 'Play Hourglass',
    'wh2-0': 'Block with 2 Cauldron',
    'wh2-1': 'Play Hourglass',
    'wh2-2': '2 Toadstool',
    'wh3-width0-0': 'Player 1',
    'wh3-worlds0-0': 'Player 2',
    'wh3-width0-1': 'Play Chalice',
    'wh3-worlds0-1': 'Play Chalice',
    'ad2-0': 'Done acquiring',
    'ad2-1': 'Done acquiring',
    'ad2-2': 'Wait for the other witches',
    'ad2-3': 'Wait for the other witches',
    'ad2-4': 'Play Short Order as White Magic (1)',
    'ad2-5': 'Play Short Order as White Magic (1)',
}


def test_ismcts_picks_as_before_its_playouts_went_by_position() -> None:
    """On a fixed set of Witching Hour and Approaching Dawn decisions ismcts picks what it picked before
    its speed-ups (playouts by position, no undo snapshot, fewer copies, every seat's heuristic at once):
    the same search, the same draws."""
    picks = {name: make_bot(spec, seed).choose(state) for name, state, spec, seed in ismcts_cases.cases()}
    assert picks == ISMCTS_PICKS


def test_ismcts_stops_when_no_action_can_overtake_the_most_tried_and_picks_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search ends once the most tried action leads every other by more than the iterations left
    (it runs fewer playouts), and picks what the whole search picks: the stop changes no choice."""
    from rulecore.bots import ismcts

    playouts = [0]
    playout = ismcts._playout

    def counted(*args: object) -> object:
        playouts[0] += 1
        return playout(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts, "_playout", counted)
    cases = [case for case in ismcts_cases.cases() if not case[0].startswith("wh2")]  # the quick ones
    stopped = {name: make_bot(spec, seed).choose(state.clone()) for name, state, spec, seed in cases}
    early = playouts[0]
    monkeypatch.setattr(ismcts, "_settled", lambda *args: False)
    playouts[0] = 0
    whole = {name: make_bot(spec, seed).choose(state.clone()) for name, state, spec, seed in cases}
    assert stopped == whole
    assert early < 0.9 * playouts[0]


def test_ismcts_with_a_lower_stop_ends_once_the_lead_passes_that_share_of_the_iterations_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``stop=0.25`` ends a search once the most tried action leads by more than a quarter of the iterations
    left (earlier than the default, which waits until no iteration left could change the pick), picks
    that action, and runs fewer playouts; a stop outside 0..1 is refused."""
    from rulecore.bots import ismcts

    with pytest.raises(rulecore.RulecoreError, match="stop from 0 to 1 .* got stop=1.5"):
        make_bot("ismcts:stop=1.5", 5)
    assert "stop=0.25" in repr(make_bot("ismcts:stop=0.25", 5))
    playouts = [0]
    ends: list[tuple[int, float, str]] = []  # (lead of the most tried, the lead it had to pass, the most tried)
    playout, settled = ismcts._playout, ismcts._settled

    def counted(*args: object) -> object:
        playouts[0] += 1
        return playout(*args)  # type: ignore[arg-type]

    def watched(root: dict, actions: list[str], left: float) -> bool:
        done = settled(root, actions, left)
        if done:
            (most, leader), (second, _) = sorted(((root[a].visits if a in root else 0, a) for a in actions),
                                                 reverse=True)[:2]
            ends.append((most - second, left, leader))
        return done

    monkeypatch.setattr(ismcts, "_playout", counted)
    monkeypatch.setattr(ismcts, "_settled", watched)
    cases = [case for case in ismcts_cases.cases() if not case[0].startswith("wh2")]  # the quick ones
    run = {}
    for stop in (1.0, 0.25):
        playouts[0] = 0
        ends.clear()
        for name, state, spec, seed in cases:
            bot = make_bot(f"{spec},stop={stop}", seed)
            assert isinstance(bot, ISMCTSBot) and bot.stop == stop
            before = len(ends)
            pick = bot.choose(state.clone())
            if len(ends) > before:  # it ended early: with the action most tried then
                assert pick == ends[-1][2]
        run[stop] = playouts[0], list(ends)
    assert run[0.25][0] < run[1.0][0]
    # the lead to pass is a quarter of the iterations left: some searches ended on a lead the others could undo
    assert run[0.25][1] and all(left * 4 == int(left * 4) for _, left, _ in run[0.25][1])
    assert any(lead <= 4 * left for lead, left, _ in run[0.25][1])


def _ismcts_game(monkeypatch: pytest.MonkeyPatch, name: str, players: int, iterations: int, seed: int,
                 keep: int = 1) -> list[dict]:
    """A game of an ismcts seat 0 (its early stop off, so that every search runs to ``iterations``) against
    greedy seats: per ismcts decision with a choice, whether it took a kept tree, the visits already in it,
    the playouts and worlds dealt it made, and whether its worlds showed the seat what the table did."""
    from rulecore.bots import ismcts
    from rulecore.engine.state import State

    monkeypatch.setattr(ismcts, "_settled", lambda *args: False)
    counts = {"playouts": 0, "dealt": 0}
    playout, resample_many, take = ismcts._playout, State.resample_many, ismcts._Kept.take

    def counted_playout(*args: object) -> object:
        counts["playouts"] += 1
        return playout(*args)  # type: ignore[arg-type]

    def counted_resample(self: State, player: int, seeds: list[int]) -> list[State]:  # (resample deals through it)
        counts["dealt"] += len(seeds)
        return resample_many(self, player, seeds)

    found: list[tuple[object, int]] = []  # each kept tree taken and the visits below its path then

    def watched_take(self: object, state: State, me: int, actions: list[str]) -> object:
        got = take(self, state, me, actions)  # type: ignore[arg-type]
        found.append((got, sum(s.visits for s in got[0].values()) if got is not None else 0))
        return got

    monkeypatch.setattr(ismcts, "_playout", counted_playout)
    monkeypatch.setattr(State, "resample_many", counted_resample)
    monkeypatch.setattr(ismcts._Kept, "take", watched_take)
    game = rulecore.Game(rulecore.load_cardset(name), players, record_events=False)
    state = game.new_game(seed=seed)
    bots = [ISMCTSBot(seed, iterations=iterations, keep=keep)] + [make_bot("greedy", seed + p)
                                                                  for p in range(1, players)]
    out = []
    only_own = False  # every action since the last ismcts decision was seat 0's
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        only_own = only_own and seat == 0
        if seat == 0 and len(state.legal_actions()) > 1:
            found.clear()
            counts["playouts"] = counts["dealt"] = 0
            action = bots[0].choose(state)
            kept, reused = found[0] if found else (None, 0)
            out.append({"taken": kept is not None, "playouts": counts["playouts"], "dealt": counts["dealt"],
                        "reused": reused,
                        "fits": kept is None or all(w._view_key(0) == state._view_key(0)  # type: ignore[index]
                                                    and w.legal_actions() == state.legal_actions() for w in kept[1]),
                        "after_own": only_own})
            only_own = True
        else:
            action = bots[seat].choose(state)
        state.apply(action)
    return out


@pytest.mark.parametrize("name,players", [("witching-hour", 2), ("approaching-dawn", 2)])
def test_ismcts_goes_on_from_its_tree_after_its_own_action_when_every_world_still_fits(
        monkeypatch: pytest.MonkeyPatch, name: str, players: int) -> None:
    """When the bot decides again right after its own action and every kept world, played on by that
    action, shows its seat what the table shows, the search starts from the subtree below the action:
    the visits there count toward ``iterations`` (only the rest are played) and no world is dealt;
    otherwise it deals its worlds and plays every iteration."""
    decisions = _ismcts_game(monkeypatch, name, players, 30, 5)
    taken = [d for d in decisions if d["taken"]]
    assert taken and len(taken) < len(decisions)
    for d in decisions:
        assert d["fits"]
        if d["taken"]:
            assert d["after_own"] and d["dealt"] == 0 and 0 < d["reused"] <= 30
            assert d["playouts"] == 30 - d["reused"]
        else:
            assert d["dealt"] == 20 and d["playouts"] == 30


def _stored_states(node: dict, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], int, rulecore.State]]:
    """Every world's state the tree keeps: (the actions down to it, the world's index, the state)."""
    out = []
    for action, stats in node.items():
        below = path + (action,)
        out += [(below, w, kept) for w, kept in (stats.states or {}).items()]
        if stats.child is not None:
            out += _stored_states(stats.child, below)
    return out


@pytest.mark.parametrize("name,players", [("witching-hour", 2), ("approaching-dawn", 2)])
def test_ismcts_keeps_each_worlds_state_where_it_went_through_the_tree(name: str, players: int) -> None:
    """Where an iteration went through a tree action (not one it tried for the first time), the tree
    keeps that world's state there, and it is exactly the world dealt with the tree's actions down to
    there applied: later iterations on that world start from it instead of playing those actions
    again. After the bot's own action the kept subtree's states still match its worlds."""
    from rulecore.bots import ismcts

    state = random_play(rulecore.Game(rulecore.load_cardset(name), players), seed=3, steps=6)
    me = state.current_player
    assert me is not None
    _, left = ismcts.search_kept(state, me, players, 120, 0.1, 2, random.Random(3), worlds=6, width=8)
    assert left is not None
    stored = _stored_states(left.root)
    assert stored and max(len(path) for path, _, _ in stored) >= 2
    for path, w, kept in stored:
        expected = left.worlds[w].clone()
        for action in path:
            expected.apply(action)
        assert kept.history == expected.history and kept.to_json() == expected.to_json()
    state.apply(left.path[0])  # on this seed the seat decides again, and every world still fits
    found = left.take(state, me, state.legal_actions())
    assert found is not None
    node, worlds, _ = found
    stored = _stored_states(node)
    assert stored
    for path, w, kept in stored:
        expected = worlds[w].clone()
        for action in path:
            expected.apply(action)
        assert kept.to_json() == expected.to_json()


def test_ismcts_with_keep_0_searches_every_decision_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ismcts:keep=0`` keeps nothing for its next decision: every search deals its worlds and plays every
    iteration, also right after its own actions."""
    bot = make_bot("ismcts:keep=0,iterations=30", 5)
    assert isinstance(bot, ISMCTSBot) and not bot.keep and "keep=0" in repr(bot)
    with pytest.raises(rulecore.RulecoreError, match="keep 0 .* or 1, got keep=2"):
        make_bot("ismcts:keep=2", 5)
    decisions = _ismcts_game(monkeypatch, "witching-hour", 2, 30, 5, keep=0)
    assert any(d["after_own"] for d in decisions)
    assert all(not d["taken"] and d["dealt"] == 20 and d["playouts"] == 30 for d in decisions)


def test_ismcts_takes_no_tree_when_its_memory_narrows_the_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the no-repeat memory leaves only some of the actions (a decision met before), the search starts
    afresh even where a kept tree would fit: that tree was searched over all the actions."""
    from rulecore.bots import ismcts
    from rulecore.bots.memory import Memory

    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 2, record_events=False)
    state = game.new_game(seed=5)
    bot = ISMCTSBot(5, iterations=30)
    given: list[object] = []
    search = ismcts.search_kept

    def watched(*args: object, **kwargs: object) -> object:
        given.append(kwargs["kept"])
        return search(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts, "search_kept", watched)
    fits = 0
    while not state.is_terminal() and fits < 2:
        if state.current_player == 0 and len(state.legal_actions()) > 2 and bot.kept is not None \
                and bot.kept.take(state, 0, state.legal_actions()) is not None:
            fits += 1
        if fits == 2:  # the second time a tree would fit, the memory says the last action was taken here
            monkeypatch.setattr(Memory, "untried", lambda self, st, me, actions: (actions[:-1], set()))
            given.clear()
        state.apply(bot.choose(state) if state.current_player == 0 else state.legal_actions()[0])
    assert fits == 2 and given == [None]


def test_ismcts_takes_no_tree_after_another_seats_action_or_for_another_table() -> None:
    """A kept tree is for the decision right after the bot's own actions: once another seat has acted, or
    when the bot is asked about another table (another deal), it starts afresh."""
    from rulecore.bots import ismcts

    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 2, record_events=False)
    state = game.new_game(seed=3)
    bot = ISMCTSBot(1, iterations=30)
    while not (state.current_player == 0 and len(state.legal_actions()) > 1):
        state.apply(state.legal_actions()[0])
    state.apply(bot.choose(state))
    assert isinstance(bot.kept, ismcts._Kept) and bot.kept.path
    other = game.new_game(seed=4)
    while not (other.current_player == 0 and len(other.legal_actions()) > 1):
        other.apply(other.legal_actions()[0])
    assert bot.kept.take(other, 0, other.legal_actions()) is None
    while state.current_player == 0:
        state.apply(state.legal_actions()[0])  # the seat's turn goes on without the bot
    while not (state.current_player == 0 and len(state.legal_actions()) > 1):
        state.apply(state.legal_actions()[0])  # the other seat acts
    assert bot.kept.take(state, 0, state.legal_actions()) is None
    assert bot.kept.then(1, "anything") is None  # told of another seat's lone action: nothing kept


def test_ismcts_settled_needs_a_lead_larger_than_the_iterations_left() -> None:
    """``_settled``: a lead of more than the iterations left settles the pick; a lead that the runner-up
    could still equal does not; an action never tried counts as 0 visits, one that cannot be picked
    (not legal in the true state, or not among the bot's untried ones) not at all."""
    from rulecore.bots.ismcts import _settled, _Stats

    def node(**visits: int) -> dict:
        out = {}
        for action, v in visits.items():
            out[action] = s = _Stats(0)
            s.visits = v
        return out

    assert _settled(node(a=10, b=4), ["a", "b"], 5)
    assert not _settled(node(a=10, b=4), ["a", "b"], 6)  # b could tie a
    assert _settled(node(a=7), ["a", "b", "c"], 6)  # b and c never tried
    assert _settled(node(a=3, b=9), ["a"], 2)  # only the actions that can be picked count
    assert not _settled(node(a=3, b=9), ["a", "b"], 6)
    assert _settled(node(a=3, b=9), ["a", "b"], 5)  # b leads by 6


def test_make_bot_reads_typed_settings() -> None:
    """Settings are parsed by type (c is a number, iterations an integer); a wrong one is a RulecoreError."""
    bot = make_bot("ismcts:iterations=12,c=1.5,depth=7", 0)
    assert isinstance(bot, ISMCTSBot) and (bot.iterations, bot.c, bot.depth) == (12, 1.5, 7)
    assert make_bot("greedy:samples=2", 0).samples == 2  # type: ignore[attr-defined]
    for bad in ("ismcts:iterations=x", "ismcts:c=fast", "greedy:depth=3", "ismcts:iterations=0", "random:x=1"):
        with pytest.raises(rulecore.RulecoreError):
            make_bot(bad, 0)


USER_BOTS = '''
import random

class Cautious:
    """Always the first legal action."""
    def __init__(self, seed):
        self.seed = seed
    def choose(self, state):
        return state.legal_actions()[0]

def lucky(seed):
    rng = random.Random(seed)
    class _Lucky:
        name = "lucky"
        def choose(self, state):
            return rng.choice(state.legal_actions())
    return _Lucky()

not_a_bot = 3

def no_choose(seed):
    return object()

def raises(seed):
    raise ValueError("no seats for me")

class Clumsy:
    def __init__(self, seed):
        pass
    def choose(self, state):
        return {}["nothing"]
'''


@pytest.fixture
def user_bots(tmp_path, monkeypatch):
    """A module of user bots on the Python path."""
    (tmp_path / "my_user_bots.py").write_text(USER_BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_user_bots"


def test_make_bot_builds_a_users_bot_from_module_and_attr(user_bots) -> None:
    """module:attr names a class or function called with the seed; its choose() is used as is."""
    cautious = make_bot(f"{user_bots}:Cautious", 4, user_bots=True)
    assert type(cautious).__name__ == "Cautious" and cautious.seed == 4  # type: ignore[attr-defined]
    assert cautious.name == f"{user_bots}:Cautious"
    lucky = make_bot(f"{user_bots}:lucky", 1, user_bots=True)
    assert lucky.name == "lucky"
    state = new_state(players=2, seed=1)
    assert cautious.choose(state) == state.legal_actions()[0]
    assert lucky.choose(state) in state.legal_actions()


@pytest.mark.parametrize("name", ["no_such_module_xyz:Bot", "my_user_bots:Missing", "my_user_bots:not_a_bot",
                                  "my_user_bots:no_choose"])
def test_a_broken_user_bot_is_a_clear_error(user_bots, name: str) -> None:
    """A module that does not import, a missing attribute, or no choose() is a RulecoreError naming the bot."""
    with pytest.raises(rulecore.RulecoreError) as info:
        make_bot(name, 0, user_bots=True)
    assert name.partition(":")[0] in str(info.value)


def test_module_attr_bots_only_where_the_user_names_them(user_bots) -> None:
    """make_bot refuses module:attr by default (names from a client: os:_exit would run), builds it with user_bots=True."""
    for name in ("os:_exit", f"{user_bots}:Cautious", "builtins:print"):
        with pytest.raises(rulecore.RulecoreError) as info:
            make_bot(name, 0)
        assert str(info.value).startswith(f"unknown bot {name!r}; valid bots are: random, greedy")
        assert "module:attr" not in str(info.value)
    assert make_bot(f"{user_bots}:Cautious", 0, user_bots=True).choose  # type: ignore[truthy-function]
    assert type(make_bot("ismcts:iterations=5", 0)).__name__ == "ISMCTSBot"  # built-ins and settings as before


@pytest.mark.parametrize("source,expected", [
    ("raise RuntimeError('boom at import')\n", "importing it raised RuntimeError: boom at import"),
    ("def broken(:\n", "a syntax error in"),
])
def test_a_bot_module_that_fails_to_import_is_one_line(tmp_path, monkeypatch, source: str, expected: str) -> None:
    """A --bots module that raises on import or has a syntax error: one RulecoreError line naming the bot."""
    (tmp_path / "bad_bot_module.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(rulecore.RulecoreError) as info:
        make_bot("bad_bot_module:Bot", 0, user_bots=True)
    text = str(info.value)
    assert "'bad_bot_module:Bot'" in text and expected in text and "\n" not in text


def test_a_bot_whose_constructor_or_choose_raises_is_one_line(user_bots) -> None:
    """A constructor that raises, or a choose() that raises, is a RulecoreError naming the bot and what it raised."""
    from rulecore.bots.registry import choose

    with pytest.raises(rulecore.RulecoreError, match=r"bot 'my_user_bots:raises' could not be made: raises\(seed\) "
                                                    r"raised ValueError: no seats for me"):
        make_bot(f"{user_bots}:raises", 0, user_bots=True)
    clumsy = make_bot(f"{user_bots}:Clumsy", 0, user_bots=True)
    with pytest.raises(rulecore.RulecoreError, match=r"bot 'clumsy' failed in choose\(\): KeyError: 'nothing'"):
        choose(clumsy, new_state(players=2, seed=1), "clumsy")


def _worlds(game: rulecore.Game, seed: int, steps: int) -> tuple[rulecore.State, rulecore.State]:
    """A state at the deciding seat's turn after random play, and a resample of it for that seat."""
    state = random_play(game, seed, steps)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state, state.resample(state.current_player, seed + 1)


FAIR_GAMES = [("witching-hour", 3, {}), ("witty-witches", 3, {}),
              ("approaching-dawn", 2, {"scene": "training-day"})]


@pytest.mark.parametrize("bot", ["ismcts:iterations=25,depth=20", "greedy"])
@pytest.mark.parametrize("name,players,options", FAIR_GAMES)
def test_fair_bots_choose_alike_in_worlds_their_seat_cannot_tell_apart(bot, name, players, options) -> None:
    """The choice of a fair bot is unchanged when the true state is swapped for a resample of it."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    for seed in range(3):
        truth, other = _worlds(game, seed, 15 + 7 * seed)
        assert other.view(truth.current_player) == truth.view(truth.current_player)
        assert make_bot(bot, seed).choose(truth) == make_bot(bot, seed).choose(other)


@pytest.mark.parametrize("name,players,options", FAIR_GAMES)
def test_ismcts_going_on_from_its_tree_stays_fair(monkeypatch: pytest.MonkeyPatch, name, players, options) -> None:
    """Two bots of one seed, one always shown the true state and one a world its seat cannot tell from it,
    choose alike at every decision of a game, each going on from its own kept tree: what a bot keeps
    is only what its seat knew."""
    from rulecore.bots import ismcts

    taken = [0]
    take = ismcts._Kept.take

    def counted(self: object, *args: object) -> object:
        got = take(self, *args)  # type: ignore[arg-type]
        taken[0] += got is not None
        return got

    monkeypatch.setattr(ismcts._Kept, "take", counted)
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    state = game.new_game(seed=2)
    truthful, fooled = ISMCTSBot(7, iterations=20), ISMCTSBot(7, iterations=20)
    others = make_bot("greedy", 0)
    checked = 0
    for _ in range(150):
        if state.is_terminal():
            break
        if state.current_player == 0 and len(state.legal_actions()) > 1:
            action = truthful.choose(state)
            assert fooled.choose(state.resample(0, 99 + checked)) == action
            checked += 1
        else:
            action = others.choose(state)
        state.apply(action)
    assert checked >= 3 and taken[0] >= 2  # both bots went on from a kept tree at least once


def test_the_documented_example_bots_play(monkeypatch) -> None:
    """docs/examples/mybots.py (the worked example of docs/bots.md) builds and plays legal games."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "docs" / "examples"))
    for name in ("mybots:Cautious", "mybots:first_choice"):
        bots = {0: make_bot(name, 1, user_bots=True), 1: make_bot("random", 2)}
        state = new_state(players=2, seed=4)
        play_out(bots, state)
        assert state.is_terminal()


REPO = Path(__file__).resolve().parent.parent
BOTS_DOC = REPO / "docs" / "bots.md"


def _doc_blocks(text: str) -> list[str]:
    """The fenced ```python blocks of a page, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def _doc_session(text: str) -> tuple[str, list[str]]:
    """The command of the page's indented '$ ' session (continued lines joined) and the lines it shows."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("    $ "))
    command, at = lines[at][len("    $ "):], at + 1
    while command.endswith("\\"):
        command, at = command[:-1] + " " + lines[at].strip(), at + 1
    shown = []
    while at < len(lines) and lines[at].startswith("    "):
        shown.append(lines[at][4:].rstrip())
        at += 1
    return command, shown


def _run_as_documented(command: str) -> subprocess.CompletedProcess[str]:
    """Run a documented shell command from the repository root, with this checkout's rulecore for
    ``rulecore`` and its leading ``NAME=value`` words as environment variables."""
    words = shlex.split(command)
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS")}
    while "=" in words[0]:
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    assert words[0] == "rulecore", command
    return subprocess.run([sys.executable, "-m", "rulecore", *words[1:]], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_worked_example_shows_the_code_of_mybots() -> None:
    """docs/bots.md's worked example shows the Cautious bot as docs/examples/mybots.py has it."""
    shown = next(block for block in _doc_blocks(BOTS_DOC.read_text(encoding="utf-8")) if "class Cautious" in block)
    assert shown in (REPO / "docs" / "examples" / "mybots.py").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_worked_example_command_prints_what_the_doc_shows() -> None:
    """docs/bots.md's `$ PYTHONPATH=docs/examples rulecore simulate ...` run from the repository root prints
    the lines the page shows, in a row."""
    command, shown = _doc_session(BOTS_DOC.read_text(encoding="utf-8"))
    proc = _run_as_documented(command)
    assert proc.returncode == 0, proc.stderr
    printed = [line.rstrip() for line in proc.stdout.splitlines()]
    found = any(printed[i:i + len(shown)] == shown for i in range(len(printed) - len(shown) + 1))
    assert found, "docs/bots.md shows:\n" + "\n".join(shown) + "\n\nbut the command prints:\n" + "\n".join(
        printed[:len(shown) + 2])


@pytest.mark.slow
def test_the_worked_example_in_python_prints_what_the_doc_says() -> None:
    """docs/bots.md's Python form of the worked example, run from the repository root, prints what its
    last line's comment says, and the same wins and mean scores as the command's table."""
    text = BOTS_DOC.read_text(encoding="utf-8")
    code = next(block for block in _doc_blocks(text) if "from rulecore.simulate import simulate" in block)
    expected = code.rstrip().splitlines()[-1].split("# ", 1)[1]
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == expected
    rows = [line.split("│")[1:-1] for line in _doc_session(text)[1] if line.startswith("│")]
    wins = tuple(int(cells[2]) for cells in rows)
    scores = tuple(float(cells[4]) for cells in rows)
    assert expected == f"{wins} {scores}"


def test_the_bots_page_commands_give_a_game_count() -> None:
    """Every `rulecore simulate` command of docs/bots.md says --games (1,000 games with search bots take hours)."""
    commands = [line.strip() for line in BOTS_DOC.read_text(encoding="utf-8").splitlines()
                if line.startswith("    ") and "rulecore simulate " in line]
    assert len(commands) >= 4
    for command in commands:
        assert "--games" in command or command.endswith("\\"), command


def test_api_docs_list_every_bot_with_its_signature():
    """docs/api.md's bot section names every bot, with the constructor signature the code has."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("## Bots (`rulecore.bots`)"):text.index("## Save and load")]
    for cls in (bots.RandomBot, bots.GreedyBot, bots.ISMCTSBot, bots.OracleBot):
        params = ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default}"
                           for p in inspect.signature(cls).parameters.values())
        assert f"`{cls.__name__}({params})`" in section, cls.__name__
    for name in bots.BOT_NAMES:
        assert f'`"{name}"`' in section, name
    assert "make_bot(name, seed, *, user_bots=False)" in section and "playouts" in section and "depth" in section
    assert list(inspect.signature(bots.make_bot).parameters) == ["name", "seed", "user_bots"]



def _kept_world_case(game: rulecore.Game, seed: int) -> tuple[GreedyBot, GreedyBot, rulecore.State] | None:
    """Two greedy bots with one seed that chose alike at one decision, and the true state at their
    seat's next decision with a choice when only that seat acted in between (None if not met)."""
    rng = random.Random(seed)
    state = random_play(game, seed, 5)
    while not state.is_terminal():
        me = state.current_player
        if len(state.legal_actions()) > 1:
            pair = (GreedyBot(seed), GreedyBot(seed))
            truth = state.clone()
            action = pair[0].choose(truth)
            assert pair[1].choose(truth.clone()) == action
            truth.apply(action)
            while not truth.is_terminal() and truth.current_player == me and len(truth.legal_actions()) == 1:
                for bot in pair:
                    bot.choose(truth)
                truth.apply(truth.legal_actions()[0])
            if not truth.is_terminal() and truth.current_player == me:
                return pair[0], pair[1], truth
        state.apply(rng.choice(state.legal_actions()))
    return None


@pytest.mark.parametrize("name,players,options", FAIR_GAMES)
def test_greedy_keeps_worlds_only_while_its_seat_cannot_tell_them_apart(name, players, options) -> None:
    """At its next decision (only its own actions in between) greedy, which may keep the worlds it
    dealt, chooses alike on the true state and on a resample of it, and keeps some worlds."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    kept = cases = 0
    for seed in range(4):
        case = _kept_world_case(game, seed)
        if case is None:
            continue
        first, second, truth = case
        me = truth.current_player
        other = truth.resample(me, seed + 7)
        assert other.view(me) == truth.view(me)
        assert first.choose(truth) == second.choose(other)
        assert first.kept == second.kept
        kept += first.kept
        cases += 1
    assert cases and kept, (cases, kept)


SEALED_DRAFT = """\
name: sealed-draft
title: Sealed draft
players: {min: 2, max: 4}
zones:
  deck: {owner: none, visibility: nobody}
  hand: {owner: player, visibility: owner}
  scored: {owner: player, visibility: everyone}
cards:
  one: {count: 4, props: {value: 1}}
  two: {count: 4, props: {value: 2}}
  three: {count: 4, props: {value: 3}}
  five: {count: 4, props: {value: 5}}
  eight: {count: 4, props: {value: 8}}
  thirteen: {count: 4, props: {value: 13}}
marks:
  picked: the card this player keeps, moved to their score at the reveal
setup:
  cards_in: deck
flow:
  rounds:
    until: round >= 5
    phases:
      - name: draft
        do: |
          shuffle deck
          for each q in players { move top(deck, 4) to hand of q }
          simultaneously for each q in players {
            let pick = choose card from hand of q by q "Keep which card?" always
            mark card pick "picked"
          }
          for each q in players {
            for each c in hand of q {
              if "picked" in c.marks {
                unmark card c "picked"
                move c to scored of q
              }
            }
            move hand of q to deck
          }
end:
  winners: highest(players, sum(scored of it, it.value))
heuristic: sum(scored of you, it.value)
"""


def test_greedy_judges_a_sealed_pick_as_it_will_be_at_the_reveal(tmp_path: Path) -> None:
    """A pick kept sealed (a mark, scored at the reveal) is judged after the other parts: greedy in the first part beats random."""
    from rulecore.simulate import simulate

    path = tmp_path / "sealed-draft.yaml"
    path.write_text(SEALED_DRAFT, encoding="utf-8")
    assert rulecore.load_cardset(path).warnings == ()
    result = simulate(str(path), players=2, games=30, seed=0, bots=["greedy", "random"], workers=1)
    assert result.unfinished == 0 and result.win_rates[0] >= 0.8  # 0.5 when the look-ahead saw no change


def test_choose_index_is_the_position_of_what_choose_picks() -> None:
    """MemoryBot.choose_index gives legal_actions().index(choose(...)) with the same generator draws."""
    import random

    import rulecore
    from rulecore.bots import make_bot

    game = rulecore.Game(rulecore.load_cardset("witching-hour"), players=3, record_events=False)
    a, b = game.new_game(seed=9), game.new_game(seed=9)
    by_label = [make_bot("random", s) for s in range(3)]
    by_index = [make_bot("random", s) for s in range(3)]
    while not a.is_terminal():
        action = by_label[a.current_player].choose(a)
        index = by_index[b.current_player].choose_index(b)
        assert b.legal_actions()[index] == action
        a.apply(action)
        b.apply_index(index)
    assert a.history == b.history


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bot_decides_with_the_garbage_collector_paused_and_leaves_it_as_it_found_it(name: str, monkeypatch) -> None:
    """While a built-in bot picks, gc is disabled (its copies hold no cycles); after, it is enabled
    again, also when the pick fails, and a collector the program had disabled stays disabled."""
    import gc

    state = new_state()
    bot = make_bot(name, 3)
    seen: list[bool] = []
    pick = type(bot)._pick

    def watched(self, *args):
        seen.append(gc.isenabled())
        return pick(self, *args)

    monkeypatch.setattr(type(bot), "_pick", watched)
    assert gc.isenabled()
    while not seen:  # a lone action is answered without a pick
        state.apply(bot.choose(state))
    assert seen == [False] and gc.isenabled()

    def failing(self, *args):
        raise RuntimeError("the pick failed")

    monkeypatch.setattr(type(bot), "_pick", failing)
    while len(legal := state.legal_actions()) < 2:
        state.apply(legal[0])
    with pytest.raises(RuntimeError):
        bot.choose(state)
    assert gc.isenabled()
    gc.disable()
    try:
        monkeypatch.setattr(type(bot), "_pick", watched)
        bot.choose(state)
        assert seen[-1] is False and not gc.isenabled()
    finally:
        gc.enable()
