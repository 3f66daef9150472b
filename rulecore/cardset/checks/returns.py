"""Checks of procedure results: ``return`` only inside a procedure (and not inside a player's part
of ``simultaneously`` / ``in any order`` or a ``take turns``, which it would leave half done), and
``let x = call p(...)`` only of a procedure that returns a value."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ...errors import Problem
from ...lang import nodes as n
from .walking import one_per_family

if TYPE_CHECKING:
    from ..model import Cardset

_PARTS = (n.Simultaneously, n.InAnyOrder, n.Turns)


def returns_value(body: Any) -> bool:
    """Whether a procedure body gives a value: some ``return EXPR`` in it."""
    return any(isinstance(s, n.Return) and s.value is not None for s in n.walk(body))


def _returns(node: Any, inside: type | None = None) -> Iterator[tuple[n.Return, type | None]]:
    """Every ``return`` under ``node``, with the kind of player part or turns around it (None: none)."""
    if isinstance(node, n.Return):
        yield node, inside
        return
    if isinstance(node, n.Expr):
        return
    for child in n.children(node):
        yield from _returns(child, type(node) if isinstance(node, _PARTS) and inside is None else inside)


_PART_WORDS = {n.Simultaneously: "a 'simultaneously' part", n.InAnyOrder: "an 'in any order' part",
               n.Turns: "'take turns'"}


def check_returns(cs: "Cardset") -> list[Problem]:
    """Located problems of ``return`` and ``let x = call ...`` in every effect of the cardset."""
    out: list[Problem] = []
    outside: list[tuple[Any, str]] = [(cs.program, "the flow")]
    for card in one_per_family(cs):
        for ability in card.abilities.values():
            outside.append((ability.body, f"card '{card.name}'s ability '{ability.name}'"))
    for body, where in outside:
        for ret, _ in _returns(body):
            out.append(Problem(f"'return' outside a procedure (in {where})", ret.span,
                               "only a procedure (under 'procedures:') returns; end an ability or the flow with 'if'",
                               "return"))
    for proc in cs.procedures.values():
        for ret, part in _returns(proc.body):
            if part is not None:
                out.append(Problem(f"'return' inside {_PART_WORDS[part]} in procedure '{proc.name}'", ret.span,
                                   "it would leave the other players' parts or turns half done: set a local there "
                                   "and return after it", "return"))
    for body, _ in outside + [(p.body, "") for p in cs.procedures.values()]:
        for node in n.walk(body):
            if isinstance(node, n.CallProc) and node.result is not None:
                called = cs.procedures.get(node.name)
                if called is not None and not returns_value(called.body):
                    out.append(Problem(
                        f"procedure '{node.name}' returns nothing, so 'let {node.result} = call {node.name}(...)' "
                        "has no value to bind", node.span,
                        f"end '{node.name}' with 'return EXPR', or write 'call {node.name}(...)' without 'let'",
                        "return"))
    return out
