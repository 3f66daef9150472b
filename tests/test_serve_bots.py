"""rulecore/serve/bots.py: bots play in worker processes, keep a match between decisions, and a decision past
its time budget or a bot that fails is reported (the worker started again), never a hang or a traceback."""

from __future__ import annotations

from typing import Iterator

import pytest

import rulecore
from rulecore.serve.bots import BotFailed, BotJob, BotPool, BotTimeout
from rulecore.serve.config import GameSource

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pool() -> Iterator[BotPool]:
    running = BotPool([GameSource("witty-witches", "witty-witches")], 1, 20.0)
    yield running
    running.close()


def _job(state: rulecore.State, match_id: str, bot: str, seed: int = 3) -> BotJob:
    return BotJob(match_id, "witty-witches", 2, {}, None, seed, tuple(state.history), state.current_player or 0, bot)


def test_a_bot_plays_a_whole_game_through_its_worker(pool: BotPool) -> None:
    """Each decision is legal and the game ends; the worker follows the history it is sent."""
    state = rulecore.Game(rulecore.load_cardset("witty-witches"), 2).new_game(3)
    for _ in range(1000):
        if state.is_terminal():
            break
        action = pool.decide(_job(state, "whole-game", "greedy"))
        assert action in state.legal_actions()
        state.apply(action)
    assert state.is_terminal()


def test_a_history_the_worker_did_not_see_is_replayed(pool: BotPool) -> None:
    """A job whose history is not what the worker kept (another line of play) is answered for that history."""
    game = rulecore.Game(rulecore.load_cardset("witty-witches"), 2)
    state = game.new_game(5)
    pool.decide(_job(state, "branching", "random", 5))
    other = game.new_game(5)
    other.apply(other.legal_actions()[-1])
    assert pool.decide(_job(other, "branching", "random", 5)) in other.legal_actions()


def test_past_the_budget_the_decision_fails_and_the_worker_restarts(pool: BotPool) -> None:
    """A search that takes longer than the budget raises BotTimeout; the next decision works again."""
    state = rulecore.Game(rulecore.load_cardset("witty-witches"), 2).new_game(4)
    while len(state.legal_actions()) < 2:  # a search with one answer ends at once
        state.apply(state.legal_actions()[0])
    restarts = pool.restarts
    pool.budget = 0.05
    try:
        with pytest.raises(BotTimeout):
            pool.decide(_job(state, "slow", "ismcts:iterations=5000", 4))
    finally:
        pool.budget = 20.0
    assert pool.restarts == restarts + 1
    assert pool.decide(_job(state, "slow", "random", 4)) in state.legal_actions()


def test_a_bot_that_fails_is_reported_in_words(pool: BotPool) -> None:
    """A bot name the worker cannot build gives BotFailed with the reason, not a traceback."""
    state = rulecore.Game(rulecore.load_cardset("witty-witches"), 2).new_game(4)
    with pytest.raises(BotFailed, match="unknown bot"):
        pool.decide(_job(state, "bad-bot", "no-such-bot", 4))


def test_module_attr_bots_only_where_the_operator_listed_them(pool: BotPool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module:attr bot name in a job is refused by a pool that was not given it (os:_exit never runs); listed, it plays."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "docs" / "examples"))
    state = rulecore.Game(rulecore.load_cardset("witty-witches"), 2).new_game(4)
    for name in ("os:_exit", "mybots:first_choice"):
        with pytest.raises(BotFailed, match="unknown bot"):
            pool.decide(_job(state, "not-listed", name, 4))
    listed = BotPool([GameSource("witty-witches", "witty-witches")], 1, 20.0, user_bots=("mybots:first_choice",))
    try:
        assert listed.decide(_job(state, "listed", "mybots:first_choice", 4)) == state.legal_actions()[0]
    finally:
        listed.close()
