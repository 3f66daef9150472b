"""The base of the code writer: ``Lines`` (lines with indentation and the span of each), ``Scope``
(how names read inside the function being written) and ``Writer``, the state every part of the
writer shares: the module namespace and its constants, temporaries, and what each local holds.

The parts build on it in one line: ``ExpressionWriter`` (expressions), ``CallWriter`` (calls of the
built-ins), then ``StatementWriter``
(statements that never pause) and ``ChoiceWriter`` (menus and choices), then ``FrameWriter``
(blocks that can pause), and ``CodeGen``, which compiles what they write.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from .runtime import RUNTIME

if TYPE_CHECKING:
    from .compiler import Compiler


class Lines:
    """A small code writer: lines with indentation, and the node span of each line.

    It also keeps what the lines written so far make sure of, for the lines after them in the same
    block (a block's lines run in order, and a line at a deeper indentation only inside it): ``facts``,
    local -> (the Python type a check made sure of, the indentation of that check), and, where the
    writer knows what may set the effect's variables (a root or a menu: nothing; statements that never
    pause: those it writes, see ``StatementWriter.forget``), ``once``: variable -> (the local it was read
    into, the indentation of that read).  Both forget what was written deeper when the block ends
    (``dedent``)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: list[Any] = []
        self.level = 0
        self.span: Any = None  # the span of the node being written: given to each line written
        self.facts: dict[str, tuple[str, int]] = {}
        self.once: dict[str, tuple[str, int]] | None = None  # None: every read reads the locals again

    def line(self, text: str) -> None:
        self.lines.append("    " * self.level + text)
        self.spans.append(self.span)

    def indent(self) -> None:
        self.level += 1

    def dedent(self) -> None:
        self.level -= 1
        level = self.level
        for known in (self.facts, self.once or {}):
            for name in [k for k, (_, at) in known.items() if at > level]:
                del known[name]


_INT = re.compile(r"-?[0-9]+")
_TEMP = re.compile(r"t[0-9]+")


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
        # user function name -> what its result is sure to be (its kind, its shape), once it is written
        self.returns: dict[str, tuple[str | None, str | None]] = {}
        self.folded: dict[str, Any] = {}  # temporary -> the constant it holds (a built-in worked out when written)
        self.pending: list[Lines] = []  # functions reached mid-function, appended after it
        self.block_fns: dict[int, str] = {}  # id(Block) -> its run function (procedure bodies)
        # what a local holds when the writer knows it: "tuple" (a collection), "numbers" (a tuple of
        # whole numbers: cards or players, see ``holds_numbers``) or "zone" (a zone key);
        # each local is assigned once, so this holds wherever it is read
        self.shapes: dict[str, str] = {}
        # the Python type a temporary is sure to hold ("int", "bool" or "str"), where the writer knows
        # it, so that the checks and conversions it would need are not written; temporaries are
        # numbered across the whole game and each is given one kind of value, so this holds wherever
        # one is read (what a check makes sure of holds only after it: ``Lines.facts``)
        self.kinds: dict[str, str] = {}
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

    # ---- what values are
    def kind(self, value: str) -> str | None:
        """The Python type generated text is sure to give ("int", "bool", "str"), or None."""
        known = self.kinds.get(value)
        if known is not None:
            return known
        fact = self.w.facts.get(value)
        if fact is not None:
            return fact[0]
        if value in ("True", "False"):
            return "bool"
        if _INT.fullmatch(value):
            return "int"
        if value[:1] in ("'", '"'):  # a text's repr
            return "str"
        return None

    def known(self, value: str, kind: str) -> str:
        """Note that the temporary ``value`` holds a ``kind`` (see ``kinds``); returns it."""
        if _TEMP.fullmatch(value):
            self.kinds[value] = kind
        return value

    def need_int(self, value: str, node: Any, message: str, bounds: str = "") -> None:
        """``need`` a whole number (``bounds``: and that it lies in them, e.g. ``0 <= x < 3``)."""
        self.check_int(value, bounds, lambda: f"_needs({self.node_const(node)}, {message!r}, {value})")

    def check_int(self, value: str, bounds: str, fail: Callable[[], str]) -> None:
        """Write ``if <value is no whole number, or out of bounds>: <fail()>``, leaving out the type test
        where the writer knows the type, and all of it where the same bounds were checked before in this
        block or one it lies in; the lines after it in the block know both (``Lines.facts``)."""
        facts = self.w.facts
        if bounds and bounds in facts:
            return
        sure = self.kind(value) == "int"
        bad = ([] if sure else [f"type({value}) is not int"]) + ([f"not {bounds}"] if bounds else [])
        if bad:
            self.w.line(f"if {' or '.join(bad)}: {fail()}")
        if is_local(value):
            if not sure:
                facts[value] = ("int", self.w.level)
            if bounds:
                facts[bounds] = ("bounds", self.w.level)

    # ---- the step limit
    def read_limit(self) -> int:
        """Write ``SL = S.game.step_limit`` (read once per call, for the step checks after it: see
        ``check_steps``); returns its line, for ``drop_unread_limit``."""
        self.w.line("SL = S.game.step_limit")
        return len(self.w.lines) - 1

    def drop_unread_limit(self, at: int) -> None:
        """Take back the line ``read_limit`` wrote at line ``at`` when no line after it reads ``SL``."""
        w = self.w
        if not re.search(r"\bSL\b", "\n".join(w.lines[at + 1:])):
            del w.lines[at], w.spans[at]

    def check_steps(self, node: Any) -> None:
        """Write: past the run's step limit (``S.steps``, counted by the lines before), a ``RuleError`` at ``node``."""
        self.w.line(f"if S.steps > SL: _too_many_steps({self.node_const(node)}, S)")

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
