"""Bots: legal choices, seeded determinism, and sensible greedy/search play (on a fake game)."""

from __future__ import annotations

import inspect
import random
from pathlib import Path

import pytest

import fakegame
import rulecore
from rulecore import bots
from rulecore.bots import BOT_NAMES, Bot, GreedyBot, RandomBot, SearchBot, make_bot


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


def test_greedy_follows_the_heuristic() -> None:
    """Without a win in reach, GreedyBot maximises heuristic(me) (here: leave a multiple of 4)."""
    state = new_state(players=2, seed=0, heap=9, max_take=3)
    assert GreedyBot(0).choose(state) == "take:1"


def test_search_takes_an_immediate_win() -> None:
    """SearchBot prefers the action whose every playout is a win."""
    state = new_state(players=2, seed=0, heap=2, max_take=3)
    for seed in range(5):
        assert SearchBot(seed).choose(state) == "take:2"


def test_search_uses_heuristic_when_depth_runs_out() -> None:
    """With depth 0 SearchBot ranks actions by the normalised heuristic."""
    state = new_state(players=2, seed=0, heap=9, max_take=3)
    assert SearchBot(0, playouts=2, depth=0).choose(state) == "take:1"


def test_search_bot_parameters_are_validated() -> None:
    """SearchBot rejects non-positive playout counts with a RulecoreError."""
    with pytest.raises(rulecore.RulecoreError):
        SearchBot(0, playouts=0)


def test_make_bot_builds_each_named_bot() -> None:
    """make_bot returns an object of the named kind that satisfies the Bot protocol."""
    kinds = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
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
def test_real_game_search_bot_is_legal_and_seeded() -> None:
    """A (small) SearchBot picks a legal action on a real state, the same one for the same seed."""
    state = real_state()
    history = list(state.history)
    first = SearchBot(5, playouts=2, depth=15).choose(state)
    again = SearchBot(5, playouts=2, depth=15).choose(state)
    assert first == again
    assert first in state.legal_actions()
    assert list(state.history) == history


def test_api_docs_list_every_bot_with_its_signature():
    """docs/api.md's bot section names every bot, with the constructor signature the code has."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("## Bots (`rulecore.bots`)"):text.index("## Save and load")]
    for cls in (bots.RandomBot, bots.GreedyBot, bots.SearchBot):
        params = ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default}"
                           for p in inspect.signature(cls).parameters.values())
        assert f"`{cls.__name__}({params})`" in section, cls.__name__
    for name in bots.BOT_NAMES:
        assert f'`"{name}"`' in section, name
    assert "make_bot(name, seed)" in section and "playouts" in section and "depth" in section
