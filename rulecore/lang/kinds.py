"""What an expression is, read from its text alone (before any game runs).

``kind_of`` tells what an expression gives (a number, a condition, a zone, players, ...)
for the checks and their messages; ``static_kind`` tells what the items of a collection
are (cards, players, values, sets) for the parser and compiler.  Both answer None when
the text does not show it.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import nodes as n

_NUMBER_FUNCS = {"count", "sum", "min", "max", "abs", "ladder_score", "min_of", "max_of", "shared_props"}
_TRUTH_FUNCS = {"usable", "any", "every"}
_TEXT_FUNCS = {"player_name", "label"}


def kind_of(e: Any) -> str | None:
    """What an expression gives, when the text alone shows it (a key of ``KIND_WORDS``), else None."""
    if isinstance(e, n.Literal):
        v = e.value
        if isinstance(v, bool):
            return "truth"
        if isinstance(v, int):
            return "number"
        if isinstance(v, str):
            return "text"
        return "nothing" if v is None else None
    if isinstance(e, n.ListExpr):
        return "list"
    if isinstance(e, n.ZoneRef):
        return "zone"
    if isinstance(e, (n.CounterRef, n.Neg)):
        return "number"
    if isinstance(e, (n.Compare, n.Contains, n.And, n.Or, n.Not)):
        return "truth"
    if isinstance(e, n.Builtin):
        return {"you": "player", "turn_player": "player", "players": "players", "opponents": "players",
                "round": "number", "player_count": "number", "phase": "text"}.get(e.name)
    if isinstance(e, n.Seat):
        return "player"
    if isinstance(e, n.BinOp):
        if e.op in "-*/%":
            return "number"
        left, right = kind_of(e.left), kind_of(e.right)
        if "text" in (left, right):
            return "text"
        if left == right == "number":
            return "number"
        return None
    if isinstance(e, n.Call):
        if e.func in _NUMBER_FUNCS:
            return "number"
        if e.func in _TRUTH_FUNCS:
            return "truth"
        if e.func in _TEXT_FUNCS:
            return "text"
    return None


KIND_WORDS = {
    "number": "a number", "truth": "a condition (true or false)", "text": "a text", "zone": "a zone",
    "players": "players", "player": "a player", "list": "a list", "nothing": "nothing",
}
"""How a message names each kind ``kind_of`` gives."""


_CARD_FUNCS = {"top", "bottom", "cards", "random", "first", "last", "chain"}


def static_kind(expr: Any) -> str | None:
    """What the items of a collection are, when the text alone shows it (else None)."""
    if isinstance(expr, n.Where):
        return static_kind(expr.source)
    if isinstance(expr, n.Builtin) and expr.name in ("players", "opponents", "you", "turn_player"):
        return "player"
    if isinstance(expr, n.Call) and expr.func in ("clockwise_from",):
        return "player"
    if isinstance(expr, n.Literal) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return "value"
    if isinstance(expr, n.Seat):
        return "player"
    if isinstance(expr, n.ZoneRef):
        return "card"
    if isinstance(expr, n.Call):
        if expr.func in ("sets", "with_one"):
            return "set"
        if expr.func in _CARD_FUNCS and expr.args:
            return static_kind(expr.args[0]) or ("card" if expr.func != "random" else None)
        if expr.func in ("lowest", "highest", "sorted") and expr.args:
            return static_kind(expr.args[0])
    if isinstance(expr, n.ListExpr) and expr.items:
        kinds = {static_kind(i) for i in expr.items}
        if all(isinstance(i, n.Literal) for i in expr.items):
            return "value"
        return kinds.pop() if len(kinds) == 1 else None
    if isinstance(expr, n.BinOp) and expr.op == "+":
        return static_kind(expr.left) or static_kind(expr.right)
    return None


def same_for_every_seat(expr: Any, functions: Mapping[str, Any]) -> bool:
    """Whether ``expr`` gives the same value whichever player is 'you' and draws nothing at random:
    neither it nor a function it calls (``functions``: name -> a definition with a ``body``, followed
    to the end) names ``you`` or ``opponents``, asks ``usable()`` (its 'when' reads 'you') or calls
    ``random()``.  Then working it out for one seat is working it out for every seat."""
    todo, seen = [expr], set()
    while todo:
        for node in n.walk(todo.pop()):
            if isinstance(node, n.Builtin) and node.name in ("you", "opponents"):
                return False
            if isinstance(node, n.Call) and node.func in ("usable", "random"):
                return False
            if isinstance(node, n.UserCall) and node.func not in seen:
                seen.add(node.func)
                func = functions.get(node.func)
                if func is None:  # not a function of this cardset: nothing is known of it
                    return False
                todo.append(func.body)
    return True
