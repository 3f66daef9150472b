"""lang/kinds.py: what an expression is, read from its text alone (here: whether any seat changes it)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rulecore.errors import Span
from rulecore.lang.kinds import same_for_every_seat
from rulecore.lang.names import Symbols
from rulecore.lang.parser import parse_effect

SYM = Symbols(
    player_zones=frozenset({"hand", "hex"}),
    shared_zones=frozenset({"deck", "discard"}),
    player_counters=frozenset({"score"}),
    game_counters=frozenset({"pool"}),
    game_vars=frozenset({"lost"}),
    functions={"mine": 0, "theirs": 1, "plain": 1, "loop": 1, "deep": 0},
)


def expr(text: str):
    node, problems = parse_effect(text, SYM, lambda line, col: Span("t.yaml", line, col, "card", None),
                                  expression=True)
    assert problems == [], [p.render() for p in problems]
    return node


FUNCTIONS = {
    "mine": SimpleNamespace(body=expr("count(hand of you)")),
    "theirs": SimpleNamespace(body=expr("count(hand of 0) + 1")),
    "plain": SimpleNamespace(body=expr("sum(players, score of it)")),
    "loop": SimpleNamespace(body=expr("loop(1) + plain(2)")),  # calls itself: walked once
    "deep": SimpleNamespace(body=expr("loop(3) + mine()")),
}


@pytest.mark.parametrize("text", [
    "count(deck) - 2 * sum(players, score of it)",
    "count(discard where it.type == \"x\") - 100 * if_else(lost, 1, 0)",
    "theirs(4) + plain(1)",
    "loop(1)",
    "count(hand of turn_player) + player_count + round",
])
def test_an_expression_that_names_no_seat_is_the_same_for_every_seat(text):
    """No 'you' or 'opponents' in it or in the functions it calls, no usable() or random(): one value for every seat."""
    assert same_for_every_seat(expr(text), FUNCTIONS)


@pytest.mark.parametrize("text", [
    "count(hand of you)",
    "sum(opponents, score of it)",
    "count(deck) + mine()",
    "deep()",  # reaches 'you' two calls down, past a function that calls itself
    "count(deck where usable(it, \"play\"))",
    "count(random(deck))",
])
def test_an_expression_that_reads_the_seat_or_draws_is_not(text):
    """'you', 'opponents' (also inside a called function, however deep), usable() and random() make it seat-bound."""
    assert not same_for_every_seat(expr(text), FUNCTIONS)


def test_a_call_of_a_function_not_given_is_not_taken_as_the_same():
    """A function whose body is not known may read the seat: the answer is no."""
    assert not same_for_every_seat(expr("plain(1)"), {})
