"""The work an expression does, counted against the game's step budget, and the words of a
built-in function's complaint about one of its arguments.

Every call of a cardset function, every item a ``where`` or a per-item function (``sum``,
``lowest``, ``sorted``, ...) visits, and the items a built-in walks in Python (``chain``, ``sets``,
``ladder_score``, ...) are steps of the run they happen in, as statements and loop rounds are
(``Game.step_limit``, docs/untrusted.md). The generated code and the closures count the same
steps at the same places; a built-in counts its own through ``spend``.  Work saved across the states of
a game is bounded here too (``KeptScores``: the scores ``ladder_score`` keeps).
"""

from __future__ import annotations

from typing import Any


PER_ITEM_CALL = 10  # steps a call of a per-item function (sum, lowest, sorted, ...) counts, besides one per item:
# it costs about as much as ten rounds of a loop, so the budget stops it in about the same time
MAX_SAID = 10_000  # bytes (UTF-8) of one text a 'say' writes into the event log
MAX_MARK = 200  # bytes (UTF-8) of one mark
MAX_MARKS = 32  # marks one card or one player holds at once


def text_bytes(text: str) -> int:
    """The size of a text in bytes (UTF-8; a lone surrogate counts as 3)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


KEPT_CARDS = 200_000  # cards in the keys of a game's KeptScores at most


class KeptScores:
    """``ladder_score`` of the cards it was given, kept for every state of one game
    (``Rules.ladder_scores``): the score depends only on the cards and the game's card data, and the
    bots judge piles that did not change again and again (every copy a look-ahead makes).  A key is
    the cards as given, once they are known to be cards.  Bounded by the cards its keys hold: full, it
    starts afresh; cards of more than an eighth of that are not kept."""

    __slots__ = ("scores", "cards")

    def __init__(self) -> None:
        self.scores: dict[tuple[int, ...], int] = {}
        self.cards = 0

    def get(self, cards: tuple[int, ...]) -> int | None:
        return self.scores.get(cards)

    def keep(self, cards: tuple[int, ...], score: int) -> int:
        if len(cards) <= KEPT_CARDS // 8:
            if self.cards + len(cards) > KEPT_CARDS:
                self.scores.clear()
                self.cards = 0
            self.scores[cards] = score
            self.cards += len(cards)
        return score


class TooMuchWork(ValueError):
    """A built-in went past the step budget; the call that raised it turns it into a located ``RuleError``."""


def steps_message(limit: int) -> str:
    """What a run past ``limit`` steps is told (the same words in every way of running effects)."""
    return (f"the effects ran more than {limit:,} steps without a decision (Game(step_limit=...) sets the "
            "limit; each statement, loop round, function call and item a 'where', 'sum', 'chain', ... "
            "visits is a step); does a loop ever end, or does an expression do too much work?")


def spend(ctx: Any, steps: int) -> None:
    """Count ``steps`` of work against the budget of the running effects: a ``TooMuchWork`` past it."""
    state = ctx.state
    state.steps += steps
    if state.steps > state.game.step_limit:
        raise TooMuchWork(steps_message(state.game.step_limit))


class Unfit(TypeError):
    """A value that does not fit where it is used, said in the language's words (the message is for people)."""


def describe_value(value: Any) -> str:
    if isinstance(value, bool):
        return f"a truth value ({'true' if value else 'false'})"
    if isinstance(value, int):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a zone or text ({value!r})"
    if isinstance(value, tuple):
        return f"a collection of {len(value)}"
    if value is None:
        return "nothing (none)"
    return "a value of another kind"


def card_of(ctx: Any, fname: str, value: Any, what: str = "a card") -> int:
    """``value`` as a card of this game, or an ``Unfit`` saying which argument is wrong and why."""
    cards = len(ctx.rules.instance_type)
    if type(value) is not int:
        raise Unfit(f"{fname}() needs {what}, got {describe_value(value)}")
    if not 0 <= value < cards:
        raise Unfit(f"{fname}() needs {what}, got {describe_value(value)}: this game's cards are "
                    f"numbered 0 to {cards - 1}")
    return value


def cards_checked(ctx: Any, fname: str, cards: tuple[Any, ...]) -> tuple[int, ...]:
    """Every item of ``cards`` a card of this game (an ``Unfit`` naming the first that is not)."""
    total = len(ctx.rules.instance_type)
    for i, card in enumerate(cards):
        if type(card) is not int or not 0 <= card < total:
            raise Unfit(f"{fname}() needs cards, but item {i + 1} is {describe_value(card)}")
    return cards


def number_of(fname: str, value: Any, what: str) -> int:
    """``value`` as a whole number, or an ``Unfit`` naming the argument (``what``)."""
    if type(value) is not int:
        raise Unfit(f"{fname}() needs a whole number as {what}, got {describe_value(value)}")
    return value


def adds_numbers(fname: str, index: int, value: Any) -> Unfit:
    """The error of a function adding values whose value for item ``index`` (from 0) is no number."""
    return Unfit(f"{fname}() adds numbers, but the value for item {index + 1} is {describe_value(value)}")


def comparable(fname: str, values: list[Any], what: str) -> list[Any]:
    """``values`` when they can be put in one order (numbers, or texts, or lists of them): else an
    ``Unfit`` naming the first that does not fit with the first."""
    if len(values) < 2:
        return values
    kind = _order_kind(values[0])
    for i, v in enumerate(values):
        if kind is None or _order_kind(v) != kind:
            bad = values[0] if kind is None else v
            at = 1 if kind is None else i + 1
            raise Unfit(f"{fname}() compares numbers (or texts): {what} {at} is {describe_value(bad)}"
                        + ("" if at == 1 else f", and {what} 1 is {describe_value(values[0])}"))
    return values


def _order_kind(value: Any) -> Any:
    if type(value) in (int, bool):
        return int
    if type(value) is str:
        return str
    if type(value) is tuple:
        return tuple
    return None


def player_of(ctx: Any, fname: str, value: Any) -> int:
    """``value`` as a seat of this game, or an ``Unfit`` naming the argument."""
    players = ctx.rules.players
    if type(value) is not int or not 0 <= value < players:
        raise Unfit(f"{fname}() needs a player (0 to {players - 1}), got {describe_value(value)}")
    return value


def text_of(fname: str, value: Any, what: str) -> str:
    """``value`` as a text, or an ``Unfit`` naming the argument (``what``)."""
    if type(value) is not str:
        raise Unfit(f"{fname}() needs a text as {what}, got {describe_value(value)}")
    return value


def check_mark(mark: str, marks: tuple[str, ...], holder: str) -> None:
    """A mark may join ``marks``: at most ``MAX_MARK`` bytes, and at most ``MAX_MARKS`` on one holder
    (an ``Unfit``, located at the 'mark' statement by whoever runs it)."""
    if text_bytes(mark) > MAX_MARK:
        raise Unfit(f"a mark is at most {MAX_MARK} bytes (this one has {text_bytes(mark):,})")
    if len(marks) >= MAX_MARKS and mark not in marks:
        raise Unfit(f"{holder} holds at most {MAX_MARKS} marks at once (remove some with 'unmark')")
