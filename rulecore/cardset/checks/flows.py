"""Card names and types written as text that reach a comparison through a name: ``c.name == who``
where ``who`` is a local set by ``let``, a parameter of a procedure (``call challenge(you, "Duk")``)
or of a function of the cardset (``named(c, "Duk")``).  Each quoted text that can flow there must
be a card's name (or, for ``.type``, a card id): else a located error at the text, with a guess.

(A text written in the comparison itself, ``c.name == "Duk"``, is checked by ``references``.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ...errors import Problem
from ...lang import nodes as n
from .walking import did_you_mean, one_per_family

if TYPE_CHECKING:
    from ..model import Cardset

Root = tuple[str, str]  # ("proc" | "fn" | "other", name): an effect tree and what calls it


class _Flows:
    """Where the locals and parameters of each effect tree get their values."""

    def __init__(self, cs: "Cardset"):
        self.cs = cs
        self.trees: list[tuple[Root, Any]] = [(("other", "flow"), cs.program)]
        for card in one_per_family(cs):
            for ability in card.abilities.values():
                self.trees.append((("other", f"{card.id}.{ability.name}"), ability.body))
                if ability.when is not None:
                    self.trees.append((("other", f"{card.id}.{ability.name}.when"), ability.when))
            if card.include_if is not None:
                self.trees.append((("other", f"{card.id}.include_if"), card.include_if))
        for proc in cs.procedures.values():
            self.trees.append((("proc", proc.name), proc.body))
        for func in cs.functions.values():
            self.trees.append((("fn", func.name), func.body))
        if cs.winners is not None:
            self.trees.append((("other", "winners"), cs.winners))
        self.params: dict[Root, tuple[str, ...]] = {("proc", p.name): tuple(p.params) for p in cs.procedures.values()}
        self.params.update({("fn", f.name): tuple(f.params) for f in cs.functions.values()})
        self.lets: dict[tuple[Root, str], list[Any]] = {}
        self.args: dict[tuple[Root, str], list[tuple[Root, Any]]] = {}  # a parameter -> (caller, argument)
        for root, tree in self.trees:
            for node in n.walk(tree):
                if isinstance(node, n.Let):
                    self.lets.setdefault((root, node.name), []).append(node.value)
                elif isinstance(node, (n.CallProc, n.UserCall)):
                    callee: Root = ("proc", node.name) if isinstance(node, n.CallProc) else ("fn", node.func)
                    for param, arg in zip(self.params.get(callee, ()), node.args):
                        self.args.setdefault((callee, param), []).append((root, arg))

    def texts(self, root: Root, e: Any, seen: set[Any]) -> Iterator[tuple[n.Literal, str]]:
        """The quoted texts that can be the value of ``e`` in tree ``root``, each with how it got there."""
        if isinstance(e, n.Literal) and isinstance(e.value, str):
            yield e, ""
        elif isinstance(e, n.Var) and (root, e.name) not in seen:
            seen.add((root, e.name))
            if e.name in self.params.get(root, ()):
                what = "procedure" if root[0] == "proc" else "function"
                for caller, arg in self.args.get((root, e.name), ()):
                    for literal, way in self.texts(caller, arg, seen):
                        yield literal, way or f"passed to {what} '{root[1]}' as '{e.name}'"
            else:
                for value in self.lets.get((root, e.name), ()):
                    for literal, way in self.texts(root, value, seen):
                        yield literal, way or f"set to '{e.name}' by 'let'"


def check_flows(cs: "Cardset") -> list[Problem]:
    """A located error for each quoted text that reaches ``X.name`` / ``X.type`` through a name and is no
    card's name / id."""
    flows = _Flows(cs)
    names = {card.name for card in cs.cards.values()}
    out: list[Problem] = []
    reported: set[int] = set()
    for root, tree in flows.trees:
        for node in n.walk(tree):
            if not (isinstance(node, n.Compare) and node.op in ("==", "!=")):
                continue
            for a, b in ((node.left, node.right), (node.right, node.left)):
                if not (isinstance(a, n.Attr) and a.name in ("name", "type") and isinstance(b, n.Var)):
                    continue
                pool = names if a.name == "name" else set(cs.cards)
                for literal, way in flows.texts(root, b, set()):
                    if literal.value in pool or id(literal) in reported:
                        continue
                    reported.add(id(literal))
                    what = f"no card is named '{literal.value}'" if a.name == "name" else \
                        f"unknown card type '{literal.value}'"
                    otherwise = ("card names are the 'name:' of each card" if a.name == "name"
                                 else "card types are the ids under 'cards:'")
                    hint = did_you_mean(literal.value, pool, otherwise)
                    out.append(Problem(f"{what} ({way}, compared with a card's {a.name})", literal.span, hint,
                                       "unknown-name"))
    return out
