"""Kinds at load: what an expression of one effect tree gives, its locals and the game's variables
included (``TreeKinds``, which ``references`` checks arithmetic, counters and the rest with), and the
checks of this module: a number compared with a text (``coins of you < "10"``: never equal, nor in
order) and a prompt that is not a text.

What an expression gives is read with ``lang.kinds.kind_of``; a local from every place that binds it
in its effect (a ``let`` of a known kind, a choice of players or numbers, a loop over players), and a
game variable from its first value and every ``set`` of it: one bound to values of different or
unknown kinds is not judged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import Problem
from ...lang import nodes as n
from ...lang.kinds import KIND_WORDS, kind_of, static_kind
from .walking import trees

if TYPE_CHECKING:
    from ..model import Cardset

_COLLECTIONS = ("zone", "players", "list")
_UNORDERED = ("zone", "players", "list", "truth", "nothing", "player")


class TreeKinds:
    """What the expressions of one effect tree give, its locals included."""

    def __init__(self, tree: Any, game_vars: dict[str, str] | None = None):
        self.game_vars = game_vars or {}
        self.locals: dict[str, str | None] = {}
        binds: dict[str, list[Any]] = {}
        for node in n.walk(tree) if tree is not None else ():
            if isinstance(node, n.Let):
                binds.setdefault(node.name, []).append(node.value)
            elif isinstance(node, n.Choose):
                binds.setdefault(node.var, []).append({"player": "player", "players": "players",
                                                       "number": "number"}.get(node.kind, ""))
            elif isinstance(node, (n.ForEach, n.DynamicOption)):
                source = node.items if isinstance(node, n.ForEach) else node.source
                item = static_kind(source)
                binds.setdefault(node.var, []).append("player" if item == "player" else "")
            elif isinstance(node, (n.Simultaneously, n.InAnyOrder)):
                binds.setdefault(node.var, []).append("player")
            elif isinstance(node, n.CallProc) and node.result is not None:
                binds.setdefault(node.result, []).append("")
        for _ in range(3):  # a local bound from another: a few rounds reach the usual chains
            for name, values in binds.items():
                kinds = {v if isinstance(v, str) else self.kind(v) for v in values}
                self.locals[name] = kinds.pop() if len(kinds) == 1 and "" not in kinds and None not in kinds else None

    def kind(self, e: Any) -> str | None:
        """What ``e`` gives (a key of ``KIND_WORDS``), when the text shows it."""
        if isinstance(e, n.Var):
            return self.locals.get(e.name) or None
        if isinstance(e, n.GameVar):
            return self.game_vars.get(e.name)
        if isinstance(e, n.Where):
            source = self.kind(e.source)
            return "players" if source in ("players",) else "list" if source in ("zone", "list") else None
        if isinstance(e, n.BinOp):
            if e.op in "-*/%":
                return "number"
            left, right = self.kind(e.left), self.kind(e.right)
            if "text" in (left, right):
                return "text"
            if left == right == "number":
                return "number"
            if left in _COLLECTIONS and right in _COLLECTIONS:
                return "list"
            return None
        return kind_of(e)


def game_var_kinds(cs: "Cardset") -> dict[str, str]:
    """Game variable -> what it holds: the kind of its first value, unless a ``set`` gives it another
    kind the text shows (a seat number and a number are one kind here)."""
    kinds: dict[str, str] = {}
    for name, value in cs.vars.items():
        kind = kind_of(n.Literal(value)) if isinstance(value, (bool, int, str)) else None
        if kind is not None:
            kinds[name] = kind
    plain = TreeKinds(None, kinds)
    for tree, _ in trees(cs):
        for node in n.walk(tree):
            if isinstance(node, n.SetVar) and node.name in kinds:
                kind = plain.kind(node.value)
                if kind is not None and kind != kinds[node.name] and {kind, kinds[node.name]} != {"number", "player"}:
                    del kinds[node.name]
    return kinds


def _word(kind: str) -> str:
    return KIND_WORDS.get(kind, kind)


def check_kinds(cs: "Cardset") -> list[Problem]:
    """Comparisons of a number with a text and prompts that are not texts, located where they are
    written (``references`` checks the kinds of arithmetic, counters and the rest, with ``TreeKinds``)."""
    out: list[Problem] = []
    game_vars = game_var_kinds(cs)
    for tree, _where in trees(cs):
        kinds = TreeKinds(tree, game_vars)
        for node in n.walk(tree):
            problem = _problem(node, kinds)
            if problem is not None:
                out.append(problem)
    return out


def _problem(node: Any, k: "TreeKinds") -> Problem | None:
    if isinstance(node, n.Compare):
        left, right = k.kind(node.left), k.kind(node.right)
        if {left, right} == {"number", "text"}:
            text = node.left if left == "text" else node.right
            digits = isinstance(text, n.Literal) and str(text.value).lstrip("-").isdigit()
            hint = "write the number without quotes" if digits else "a number and a text are never equal, nor in order"
            return Problem(f"'{node.op}' compares a number with a text", node.span, hint, "kind")
        return None
    if isinstance(node, (n.Choose, n.Menu)) and isinstance(node.prompt, n.Expr):
        kind = k.kind(node.prompt)
        if kind is not None and kind != "text":
            return Problem(f"a prompt must be a text, got {_word(kind)}", node.prompt.span,
                           'join it to a text: "Pick " + ...', "kind")
    return None
