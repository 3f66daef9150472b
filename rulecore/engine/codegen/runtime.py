"""What the compiled code calls while a game runs: the helpers of its rare and error paths (each
raises a ``RuleError`` at the node it is given), ``binop_slow`` for the operands the inline fast
paths do not cover, and ``RUNTIME``, the names every generated module starts with.

The closures (``closures``) call the same helpers, so both ways of running an expression fail
with the same words.
"""

from __future__ import annotations

import operator
from typing import Any

from ...errors import RuleError
from ...lang import nodes as n
from ...lang.functions import MAX_BUILT, TooMuchWork, Unfit, cards_of, describe_value, in_words, items_of
from ...lang.work import steps_message

MAX_TEXT = 1_000_000  # characters of a text built with '+'
MAX_NUMBER = 10**1000  # numbers beyond this (in size) are refused: work on them would grow without bound

MISSING = object()  # "no value": an unset variable, an 'it' to restore, a memo not yet worked out

_ARITH = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.floordiv,
    "%": operator.mod,
}


def located(node: Any, message: str) -> RuleError:
    """A ``RuleError`` with ``message`` at the span of ``node``."""
    return RuleError(message, getattr(node, "span", None))


def can_pass(state: Any) -> bool:
    """Whether the part running in the innermost 'in any order' may pass now."""
    for frame in reversed(state.stack):
        if type(frame[0]) is n.InAnyOrder:
            return frame[2] is not None and n.may_pass(frame[2])
    return False


def _text(ctx: Any, value: Any, kind: str | None = None) -> str:
    if type(value) is str:
        return value
    return ctx.rules.text(value, kind)


def binop_slow(ctx: Any, node: Any, a: Any, b: Any, left_kind: str | None, right_kind: str | None) -> Any:
    """``a OP b`` of a BinOp: numbers, joined collections or zones, or text (the operands' kinds
    as the effect text shows them decide how a collection reads as text)."""
    sym = node.op
    if sym == "+":
        zones = ctx.state.zones
        a_cards = type(a) is tuple or (type(a) is str and a in zones)
        b_cards = type(b) is tuple or (type(b) is str and b in zones)
        if a_cards and b_cards:  # collections (and zones, as their cards) join
            joined = items_of(ctx, a) + items_of(ctx, b)
            if len(joined) > MAX_BUILT:
                raise located(node, f"'+' would make a collection of more than {MAX_BUILT:,} items")
            return joined
        if (a_cards and type(b) is int) or (b_cards and type(a) is int):  # a zone's key is no text to join to
            cards, number = (a, b) if a_cards else (b, a)
            what = f"the zone '{cards}'" if type(cards) is str else describe_value(cards)
            raise located(node, f"'+' cannot add a number ({number}) and {what}: a zone's cards are no number")
        if type(a) is str or type(b) is str:
            text = _text(ctx, a, left_kind) + _text(ctx, b, right_kind)
            if len(text) > MAX_TEXT:
                too_long(node)
            return text
    if type(a) is not int or type(b) is not int:
        raise located(node, f"'{sym}' needs numbers, got {describe_value(a)} and {describe_value(b)}")
    if sym in "/%" and b == 0:
        raise located(node, "division by zero")
    result = _ARITH[sym](a, b)
    if not -MAX_NUMBER <= result <= MAX_NUMBER:
        too_big(node)
    return result


# ---- the rare and error paths: each raises at ``node``


def no_option(node: Any) -> None:
    raise located(node, "no option of this choice is available")


def no_value(node: Any, name: str) -> Any:
    raise located(node, f"'{name}' has no value here (it was never set on this path)")


def no_opponents(node: Any) -> None:
    raise located(node, "'opponents' needs a player as 'you'; here there is none")


def bad_owner(node: Any, who: Any, base: int, size: int) -> None:
    what = "a player" if base == 0 else f"a slot number from 1 to {size}"
    raise located(node, f"'{node.zone} of ...' needs {what}, got {describe_value(who)}")


def needs(node: Any, message: str, value: Any) -> None:
    raise located(node, f"{message}, got {describe_value(value)}")


def failed(node: Any, prefix: str, exc: Exception) -> None:
    if isinstance(node, n.Call):
        raise call_error(node, (), exc) from None
    raise located(node, f"{prefix}{in_words(exc)}") from None


def div_zero(node: Any) -> None:
    raise located(node, "division by zero")


def too_many_steps(node: Any, state: Any) -> None:
    raise located(node, steps_message(state.game.step_limit))


def spend(node: Any, state: Any, steps: int) -> None:
    """Count ``steps`` of an expression's work (a function call, the items of a 'where' or of a
    per-item function) against the run's budget: a ``RuleError`` at ``node`` past it."""
    state.steps += steps
    if state.steps > state.game.step_limit:
        too_many_steps(node, state)


def too_long(node: Any) -> None:
    raise located(node, f"'+' would make a text of more than {MAX_TEXT:,} characters")


def too_big(node: Any) -> None:
    raise located(node, f"'{node.op}' would make a number of more than 1000 digits")


def cannot_compare(node: Any, a: Any, b: Any) -> None:
    raise located(node, f"cannot compare {describe_value(a)} with {describe_value(b)}")


def call_error(node: Any, values: tuple[Any, ...], exc: Exception) -> Any:
    """The ``RuleError`` of a built-in call that failed, in words: what the function says of the
    argument that does not fit, the step budget, or (never Python's text) what went wrong."""
    fname = node.func
    if isinstance(exc, TooMuchWork):
        return located(node, f"{fname}(): {exc}")
    words = in_words(exc)
    if isinstance(exc, Unfit) and words.startswith(fname + "()"):
        return located(node, words)
    if not values:
        return located(node, f"{fname}(): {words}")
    return located(node, f"{fname}() cannot use {', '.join(describe_value(v) for v in values)}: {words}")


def call_failed(node: Any, values: tuple[Any, ...], exc: Exception) -> None:
    raise call_error(node, values, exc) from None


def while_limit(node: Any, k: int) -> None:
    raise located(node, f"'while' ran {k} times; is its condition ever false?")


# The names every generated module starts with. Each begins with '_', so no name the writer makes
# up (temporaries t1, constants N0, functions e1, ...) can meet one.
RUNTIME: dict[str, Any] = {
    "_needs": needs,
    "_can_pass": can_pass,
    "_too_long": too_long,
    "_too_many_steps": too_many_steps,
    "_spend": spend,
    "_too_big": too_big,
    "_MAX_TEXT": MAX_TEXT,
    "_MAX_NUMBER": MAX_NUMBER,
    "_failed": failed,
    "_while_limit": while_limit,
    "_cards_of": cards_of,
    "_items_of": items_of,
    "_MISSING": MISSING,
    "_no_value": no_value,
    "_no_option": no_option,
    "_no_opponents": no_opponents,
    "_bad_owner": bad_owner,
    "_div_zero": div_zero,
    "_binop_slow": binop_slow,
    "_cannot_compare": cannot_compare,
    "_call_failed": call_failed,
}
