"""The base of the code writer: ``Lines`` (lines with indentation and the span of each), ``Scope``
(how names read inside the function being written) and ``Writer``, the state every part of the
writer shares: the module namespace and its constants, temporaries, and what each local holds.

The parts build on it in one line: ``ExpressionWriter`` (expressions), then ``StatementWriter``
(statements that never pause) and ``ChoiceWriter`` (menus and choices), then ``FrameWriter``
(blocks that can pause), and ``CodeGen``, which compiles what they write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .runtime import RUNTIME

if TYPE_CHECKING:
    from .compiler import Compiler


class Lines:
    """A small code writer: lines with indentation, and the node span of each line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: list[Any] = []
        self.level = 0
        self.span: Any = None  # the span of the node being written: given to each line written

    def line(self, text: str) -> None:
        self.lines.append("    " * self.level + text)
        self.spans.append(self.span)

    def indent(self) -> None:
        self.level += 1

    def dedent(self) -> None:
        self.level -= 1


def is_local(expr: str) -> bool:
    """Whether generated text names a Python local (not a literal or a constant of the module)."""
    return expr.isidentifier() and expr not in ("None", "True", "False") and expr[0] in "tpy"  # t1, p0, you, this


class Scope:
    """How names read inside the function being written: ``it``, ``you``, ``this`` and variables."""

    def __init__(self, it: str | None, you: str, this: str, params: dict[str, str] | None,
                 names: dict[str, str] | None = None):
        self.it = it  # the Python local holding ``it``, or None: read it from the locals dict
        self.you = you  # a Python expression for ``you``
        self.this = this
        self.params = params  # inside a user function: parameter name -> Python local; else None
        self.names = names or {}  # variables held in Python locals here (a menu option's item)

    def with_it(self, local: str) -> "Scope":
        return Scope(local, self.you, self.this, self.params, self.names)

    def with_name(self, name: str, local: str) -> "Scope":
        return Scope(self.it, self.you, self.this, self.params, {**self.names, name: local})


def effect_scope() -> Scope:
    """The scope of a function run on an effect's locals ``E`` (not a user function's parameters)."""
    return Scope(None, 'E.get("$you")', 'E.get("$this")', None)


class Writer:
    """What every part of the code writer shares: the lines being written (``w``), the module's
    namespace and constants, temporaries, and the functions still to append (``pending``)."""

    def __init__(self, compiler: "Compiler", rules: Any) -> None:
        self.compiler = compiler
        self.rules = rules
        self.w = Lines()
        self.ns: dict[str, Any] = dict(RUNTIME)  # the generated module's namespace
        self._new_consts: dict[str, Any] = {}  # constants made since the last piece was compiled
        self._consts: dict[Any, str] = {}  # (kind, key) -> name in the namespace
        self._tmp = 0
        self._roots = 0  # functions written: numbers their names (e1, m2, x3, b4)
        self.user_fns: dict[str, str] = {}  # user function name -> Python function name
        self.pending: list[Lines] = []  # functions reached mid-function, appended after it
        self.block_fns: dict[int, str] = {}  # id(Block) -> its run function (procedure bodies)
        # what a local holds when the writer knows it: "tuple" (a collection) or "zone" (a zone key);
        # each local is assigned once, so this holds wherever it is read
        self.shapes: dict[str, str] = {}
        self.zone_keys = frozenset(k for keys in rules.zone_keys.values() for k in keys)

    # ---- names
    def const(self, kind: str, key: Any, value: Any) -> str:
        name = self._consts.get((kind, key))
        if name is None:
            name = self._consts[(kind, key)] = f"{kind}{len(self._consts)}"
            self._new_consts[name] = value
        return name

    def node_const(self, node: Any) -> str:
        return self.const("N", id(node), node)

    def tmp(self) -> str:
        self._tmp += 1
        return f"t{self._tmp}"

    # ---- lines
    def need(self, bad: str, node: Any, message: str, value: str) -> None:
        """Write ``if BAD: raise RuleError("MESSAGE, got <value>")`` at ``node``."""
        self.w.line(f"if {bad}: _needs({self.node_const(node)}, {message!r}, {value})")

    def store(self, expr: str) -> str:
        t = self.tmp()
        self.w.line(f"{t} = {expr}")
        return t

    def tuple(self, expr: str) -> str:
        """``store`` for an expression that gives a tuple."""
        t = self.store(expr)
        self.shapes[t] = "tuple"
        return t
