"""How deeply the code written for a node nests: Python refuses more than 20 statically nested
blocks (loops, ``try``) and about 100 levels of indentation (``SyntaxError: too many statically
nested blocks``, ``IndentationError``), and any cardset may nest its effects deeper than that.

``nesting(node, memo)`` counts the levels the writer opens for a node: a statement's body (each
``if``/``elif`` branch, each loop), the condition of a ``where`` (a loop), the right side of an
``and``/``or``, the value of a per-item function (a function of its own), a call's ``try``. Each
level counts as a block and as an indentation, so the count bounds both. Past ``MAX_STATEMENT``
a statement runs as the interpreter's frames (``Compiler.can_pause``: each of its blocks becomes a
block function of its own, starting again at the left), past ``MAX_EXPRESSION`` an expression
runs as its closure (``ExpressionWriter.ex``). A short user function written where it is called
(``ExpressionWriter.g_UserCall``) nests at most two levels more, within the margin the two limits
leave. So generated code stays within Python's limits for every cardset, and gives the same results
(the interpreter and the closures are the reference).
"""

from __future__ import annotations

from typing import Any

from ...lang import nodes as n
from ...lang.functions import FUNCTIONS
from ...lang.nodes import children

MAX_STATEMENT = 10  # levels of one statement written inline (with MAX_EXPRESSION, well under Python's 20 blocks)
MAX_EXPRESSION = 8  # levels of one expression written inline


def nesting(node: Any, memo: dict[int, int]) -> int:
    """The levels of Python the writer opens for ``node`` (see the module docstring), kept in ``memo`` by id."""
    known = memo.get(id(node))
    if known is not None:
        return known
    kind = type(node)
    if kind is n.If:
        depth = 0
        for i, (cond, block) in enumerate(node.branches):  # an elif is written inside the else of the one before
            depth = max(depth, i + nesting(cond, memo), i + 1 + nesting(block, memo))
        if node.orelse is not None:
            depth = max(depth, len(node.branches) + nesting(node.orelse, memo))
    elif kind in (n.ForEach, n.Repeat, n.While):
        depth = 2 + max((nesting(c, memo) for c in children(node)), default=0)  # the loop, and a 'try' or 'if' in it
    elif kind is n.Where:
        depth = max(nesting(node.source, memo), 1 + nesting(node.cond, memo))
    elif kind in (n.And, n.Or):
        depth = max(nesting(node.left, memo), 1 + nesting(node.right, memo))
    elif kind is n.Call:
        sig = FUNCTIONS.get(node.func)
        inner = [nesting(a, memo) for a in node.args]
        if sig is not None and sig.per_item and len(inner) == 2:
            inner[1] += 1  # the value of each item is a function of its own (sum's: inside its loop)
        depth = 1 + max(inner, default=0)  # the call's 'try'
    elif kind is n.Compare:
        depth = 1 + max(nesting(node.left, memo), nesting(node.right, memo))
    else:
        depth = max((nesting(c, memo) for c in children(node)), default=0)
    memo[id(node)] = depth
    return depth
