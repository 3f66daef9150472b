"""Expression nodes -> Python closures, compiled once per game.

Expressions never pause, so each becomes a plain function of the run-time
context ``ctx`` (with ``ctx.state``, ``ctx.rules`` and ``ctx.env``, the local
variables of the running effect, where ``$you``, ``$this`` and ``$it`` live).
Compiling once avoids walking the tree on every evaluation.
"""

from __future__ import annotations

import operator
import threading
from typing import Any, Callable

from ..errors import RuleError
from ..lang import nodes as n
from ..lang.functions import FUNCTIONS, MAX_BUILT, cards_of, describe_value, in_words, items_of
from ..lang.kinds import static_kind
from ..lang.nodes import walk

Fn = Callable[[Any], Any]
BlockFn = Callable[[Any, dict, int], None]  # a block function: (state, locals, pc)

_MISSING = object()


def _located(node: Any, message: str) -> RuleError:
    return RuleError(message, getattr(node, "span", None))


MAX_TEXT = 1_000_000  # characters of a text built with '+'
MAX_NUMBER = 10**1000  # numbers beyond this (in size) are refused: work on them would grow without bound

_ARITH = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.floordiv,
    "%": operator.mod,
}
_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Compiler:
    def __init__(
        self, functions: Any = None, simple: Any = None, procedures: Any = None, answers: Any = None,
        machine: Any = None,
    ) -> None:
        self.functions = functions or {}  # the cardset's user functions: name -> UserFunction
        self.simple = simple or {}  # statement class -> its handler, for statements that never pause
        self.procedures = procedures or {}  # the cardset's procedures: name -> Procedure
        # (state, event, player, passed) -> [(label, card)]: the cards answering an event, for menus
        self.answers = answers
        # what block functions call of the interpreter (see ``interpreter.MACHINE``): "ran_away",
        # "drive", "choice_counts", "ask_choice", "offer"; "direct_depth", how many frames may run
        # inside one another's Python calls
        self.machine = machine or {}
        self._pauses: dict[int, bool] = {}  # id(statement) -> can_pause
        self.blocks: dict[int, BlockFn] = {}  # id(Block) -> its generated block function (see ``block_fn``)
        self.cache: dict[int, Fn] = {}  # id(node) -> its function (generated or a closure)
        self.closures: dict[int, Fn] = {}
        self.menus: dict[int, Callable[..., Any]] = {}  # id(Menu) -> its generated entries function (ctx, chooser)
        self.generated: list[Generated] = []
        self._keep: list[Any] = []  # keeps nodes alive so their ids stay unique

    def __call__(self, node: Any) -> Fn:
        """The function computing ``node``: generated code for the roots ``generate`` was given, a closure otherwise."""
        fn = self.cache.get(id(node))
        if fn is None:
            fn = self.closure(node)
        return fn

    def closure(self, node: Any) -> Fn:
        fn = self.closures.get(id(node))
        if fn is None:
            method = getattr(self, "c_" + type(node).__name__)
            fn = method(node)
            self.closures[id(node)] = fn
            self.cache.setdefault(id(node), fn)
            self._keep.append(node)
        return fn

    def can_pause(self, node: Any) -> bool:
        """Whether running ``node`` may stop for a decision or needs the interpreter's frames.

        False for the statements in ``simple``, and for blocks, ifs, loops over them and calls
        of procedures whose bodies are all such statements; True for choices, menus, signals,
        turns, rounds, phases, 'use', 'break', 'end game', and any kind not known here."""
        key = id(node)
        known = self._pauses.get(key)
        if known is not None:
            return known
        self._pauses[key] = True  # while it is being worked out (a procedure calling itself)
        kind = type(node)
        if kind in self.simple:
            result = False
        elif not hasattr(CodeGen, "s_" + kind.__name__):
            result = True  # a compound statement the writer cannot write: the interpreter runs it
        elif kind is n.Block:
            result = any(self.can_pause(s) for s in node.body)
        elif kind is n.If:
            result = any(self.can_pause(b) for _, b in node.branches) or (
                node.orelse is not None and self.can_pause(node.orelse))
        elif kind in (n.ForEach, n.Repeat, n.While):
            result = self.can_pause(node.body)
        elif kind is n.CallProc:
            proc = self.procedures.get(node.name)
            result = proc is None or self.can_pause(proc.body)
        else:
            result = True
        self._pauses[key] = result
        self._keep.append(node)
        return result

    def block_fn(self, block: Any) -> BlockFn:
        """The generated function ``(state, E, pc)`` that runs the frame of ``block`` from
        position ``pc`` (see ``CodeGen.block``): written and compiled the first time it is asked for."""
        fn = self.blocks.get(id(block))
        if fn is None:
            fn = self.blocks[id(block)] = self.gen.function(("block", block))
            self._keep.append(block)
        return fn

    def generate(self, roots: list[Any], menus: list[Any], rules: Any, name: str) -> "Generated":
        """Install generated functions for ``roots`` (see ``CodeGen``); each is written and compiled
        the first time it runs, so a game pays only for the effects it reaches."""
        gen = self.gen = CodeGen(self, rules, name)
        gen.simple = self.simple
        for node in roots:
            if id(node) not in self.cache:
                self.cache[id(node)] = gen.lazy(node, self.cache)
                self._keep.append(node)
        for menu in menus:
            if self.answers is not None or not any(isinstance(item, n.AnswerOption) for item in menu.items):
                self.menus[id(menu)] = gen.lazy(menu, self.menus)
                self._keep.append(menu)
        self.generated.append(gen.generated)
        return gen.generated

    # ---- leaves
    def c_Literal(self, node: n.Literal) -> Fn:
        value = node.value
        return lambda ctx: value

    def c_ListExpr(self, node: n.ListExpr) -> Fn:
        items = [self(i) for i in node.items]
        return lambda ctx: tuple(f(ctx) for f in items)

    def c_Var(self, node: n.Var) -> Fn:
        name = node.name

        def var(ctx: Any) -> Any:
            try:
                return ctx.env[name]
            except KeyError:
                raise _located(node, f"'{name}' has no value here (it was never set on this path)") from None

        return var

    def c_Builtin(self, node: n.Builtin) -> Fn:
        name = node.name
        if name == "you":
            return lambda ctx: ctx.env.get("$you")
        if name == "this":
            return lambda ctx: ctx.env.get("$this")
        if name == "it":
            return lambda ctx: ctx.env["$it"]
        if name == "players":
            return lambda ctx: ctx.rules.seats
        if name == "opponents":

            def opponents(ctx: Any) -> tuple[int, ...]:
                you = ctx.env.get("$you")
                if type(you) is not int:
                    raise _located(node, "'opponents' needs a player as 'you'; here there is none")
                return ctx.rules.opponents[you]

            return opponents
        if name == "round":
            return lambda ctx: ctx.state.round
        if name == "player_count":
            return lambda ctx: ctx.rules.players
        if name == "turn_player":
            return lambda ctx: ctx.state.turn_player
        if name == "phase":
            return lambda ctx: ctx.state.phase
        if name == "can_pass":
            return lambda ctx: _can_pass(ctx.state)
        raise AssertionError(name)

    def c_GameVar(self, node: n.GameVar) -> Fn:
        name = node.name
        return lambda ctx: ctx.state.vars[name]

    def c_ZoneRef(self, node: n.ZoneRef) -> Fn:
        zone = node.zone
        if node.owner is None:
            return lambda ctx: zone
        owner = self(node.owner)

        def zone_of(ctx: Any) -> str:
            who = owner(ctx)
            rules = ctx.rules
            keys = rules.zone_keys[zone]
            base = rules.zone_base[zone]
            if type(who) is not int or not 0 <= who - base < len(keys):
                what = "a player" if base == 0 else f"a slot number from 1 to {len(keys)}"
                raise _located(node, f"'{zone} of ...' needs {what}, got {describe_value(who)}")
            return keys[who - base]

        return zone_of

    def c_CounterRef(self, node: n.CounterRef) -> Fn:
        name = node.counter
        if node.owner is None:
            return lambda ctx: ctx.state.counters[name][0]
        owner = self(node.owner)

        def counter_of(ctx: Any) -> int:
            who = owner(ctx)
            values = ctx.state.counters[name]
            if type(who) is not int or not 0 <= who < len(values):
                raise _located(node, f"'{name} of ...' needs a player, got {describe_value(who)}")
            return values[who]

        return counter_of

    def c_Attr(self, node: n.Attr) -> Fn:
        obj = self(node.obj)
        name = node.name

        if name == "face_up":

            def face_up(ctx: Any) -> bool:
                card = obj(ctx)
                if type(card) is not int:
                    raise _located(node, f"'.face_up' needs a card, got {describe_value(card)}")
                return card in ctx.state.faceup

            return face_up
        if name == "marks":

            def marks(ctx: Any) -> Any:
                card = obj(ctx)
                if type(card) is not int:
                    raise _located(node, f"'.marks' needs a card, got {describe_value(card)}")
                return ctx.state.marks.get(card, ())

            return marks

        def attr(ctx: Any) -> Any:
            card = obj(ctx)
            if type(card) is not int:
                raise _located(node, f"'.{name}' needs a card, got {describe_value(card)}")
            table = ctx.rules.prop_tables.get(name)
            return table[card] if table is not None else ctx.rules.card_prop(card, name)

        return attr

    def c_Where(self, node: n.Where) -> Fn:
        source = self(node.source)
        cond = self(node.cond)

        def where(ctx: Any) -> tuple[Any, ...]:
            items = items_of(ctx, source(ctx))
            env = ctx.env
            old = env.get("$it", _MISSING)
            out = []
            for item in items:
                env["$it"] = item
                if cond(ctx):
                    out.append(item)
            if old is _MISSING:
                env.pop("$it", None)
            else:
                env["$it"] = old
            return tuple(out)

        return where

    def c_BinOp(self, node: n.BinOp) -> Fn:
        left, right = self(node.left), self(node.right)
        # what the operands are, when the text shows it (collections of players read as numbers)
        left_kind, right_kind = static_kind(node.left), static_kind(node.right)

        def binop(ctx: Any) -> Any:
            return _binop_slow(ctx, node, left(ctx), right(ctx), left_kind, right_kind)

        return binop

    def c_Compare(self, node: n.Compare) -> Fn:
        left, right, op = self(node.left), self(node.right), _COMPARE[node.op]
        if node.op in ("==", "!="):
            return lambda ctx: op(left(ctx), right(ctx))

        def compare(ctx: Any) -> bool:
            a, b = left(ctx), right(ctx)
            try:
                return bool(op(a, b))
            except TypeError:
                raise _located(node, f"cannot compare {describe_value(a)} with {describe_value(b)}") from None

        return compare

    def c_Contains(self, node: n.Contains) -> Fn:
        item, coll, negate = self(node.item), self(node.collection), node.negate

        def contains(ctx: Any) -> bool:
            found = item(ctx) in items_of(ctx, coll(ctx))
            return not found if negate else found

        return contains

    def c_And(self, node: n.And) -> Fn:
        a, b = self(node.left), self(node.right)
        return lambda ctx: bool(a(ctx)) and bool(b(ctx))

    def c_Or(self, node: n.Or) -> Fn:
        a, b = self(node.left), self(node.right)
        return lambda ctx: bool(a(ctx)) or bool(b(ctx))

    def c_Not(self, node: n.Not) -> Fn:
        a = self(node.operand)
        return lambda ctx: not a(ctx)

    def c_Neg(self, node: n.Neg) -> Fn:
        a = self(node.operand)

        def neg(ctx: Any) -> int:
            v = a(ctx)
            if type(v) is not int:
                raise _located(node, f"'-' needs a number, got {describe_value(v)}")
            return -v

        return neg

    def c_Seat(self, node: n.Seat) -> Fn:
        who, step = self(node.player), node.step

        def seat(ctx: Any) -> int:
            p = who(ctx)
            if type(p) is not int:
                raise _located(node, f"'left of'/'right of' needs a player, got {describe_value(p)}")
            return (p + step) % ctx.rules.players

        return seat

    def c_UserCall(self, node: n.UserCall) -> Fn:
        func = self.functions[node.func]
        args = [self(a) for a in node.args]
        params = func.params
        body_cell: list[Fn] = []

        def user_call(ctx: Any) -> Any:
            if not body_cell:  # compiled on first use, so functions may call each other
                body_cell.append(self(func.body))
            env = ctx.env
            local = {"$you": env.get("$you"), "$this": env.get("$this")}
            for param, arg in zip(params, args):
                local[param] = arg(ctx)
            ctx.env = local
            try:
                return body_cell[0](ctx)
            finally:
                ctx.env = env

        return user_call

    def c_Call(self, node: n.Call) -> Fn:
        sig = FUNCTIONS[node.func]
        args = [self(a) for a in node.args]
        impl = sig.impl
        fname = node.func
        if sig.per_item:
            coll, key = args

            def per_item(ctx: Any) -> Any:
                env = ctx.env
                old = env.get("$it", _MISSING)

                def keyfn(item: Any) -> Any:
                    env["$it"] = item
                    return key(ctx)

                try:
                    return impl(ctx, coll(ctx), keyfn)
                except TypeError as exc:
                    raise _located(node, f"{fname}(): {in_words(exc)}") from None
                finally:
                    if old is _MISSING:
                        env.pop("$it", None)
                    else:
                        env["$it"] = old

            return per_item

        def fail(ctx: Any, exc: Exception) -> RuleError:
            values = [a(ctx) for a in args]
            return _located(node, f"{fname}() cannot use {', '.join(describe_value(v) for v in values)}: "
                            f"{in_words(exc)}")

        if len(args) == 1:
            (a0,) = args

            def call1(ctx: Any) -> Any:
                try:
                    return impl(ctx, a0(ctx))
                except (TypeError, ValueError, KeyError, IndexError) as exc:
                    raise fail(ctx, exc) from None

            return call1
        if len(args) == 2:
            a0, a1 = args

            def call2(ctx: Any) -> Any:
                try:
                    return impl(ctx, a0(ctx), a1(ctx))
                except (TypeError, ValueError, KeyError, IndexError) as exc:
                    raise fail(ctx, exc) from None

            return call2

        def call(ctx: Any) -> Any:
            try:
                return impl(ctx, *[a(ctx) for a in args])
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                raise fail(ctx, exc) from None

        return call


def _text(ctx: Any, value: Any, kind: str | None = None) -> str:
    if type(value) is str:
        return value
    return ctx.rules.text(value, kind)


# =========================================================================== generated source
#
# Expressions are compiled to Python source, one function per expression the statements
# evaluate (a "root"), written into one module per game and ``compile()``d once.  Every
# sub-expression becomes straight-line code on Python locals: ``it`` of a ``where`` or of a
# per-item function is a loop variable, a user function is a Python function whose
# parameters (and ``you``/``this``) are arguments, zone keys and card-property tables are
# constants of the module, and ``count``/``first``/``in`` read a zone's list without copying
# it.  Results are computed in the order the closures above compute them (each value is
# stored in a temporary before the next is worked out), so random draws and errors come in
# the same order.  A node kind this writer does not know is compiled by ``Compiler`` above
# and called from the generated code (the fallback keeps new node kinds working).
#
# ``Generated.spans`` maps each line of the module to the span of the node it came from, so
# an error inside generated code is reported at the effect text that caused it
# (``span_of_traceback``).


class _Writer:
    """A small code writer: lines with indentation, and the node span of each line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: list[Any] = []
        self.level = 0
        self.span: Any = None

    def line(self, text: str) -> None:
        self.lines.append("    " * self.level + text)
        self.spans.append(self.span)

    def indent(self) -> None:
        self.level += 1

    def dedent(self) -> None:
        self.level -= 1


_SIMPLE_LITERALS = (int, str, bool, type(None))


def _is_local(expr: str) -> bool:
    """Whether generated text names a Python local (not a literal or a constant of the module)."""
    return expr.isidentifier() and expr not in ("None", "True", "False") and expr[0] in "tpy"  # t1, p0, you, this


class _Scope:
    """How names read inside the function being written: ``it``, ``you``, ``this`` and variables."""

    def __init__(self, it: str | None, you: str, this: str, params: dict[str, str] | None,
                 names: dict[str, str] | None = None):
        self.it = it  # the Python local holding ``it``, or None: read it from the locals dict
        self.you = you  # a Python expression for ``you``
        self.this = this
        self.params = params  # inside a user function: parameter name -> Python local; else None
        self.names = names or {}  # variables held in Python locals here (a menu option's item)

    def with_it(self, local: str) -> "_Scope":
        return _Scope(local, self.you, self.this, self.params, self.names)

    def with_name(self, name: str, local: str) -> "_Scope":
        return _Scope(self.it, self.you, self.this, self.params, {**self.names, name: local})


class Generated:
    """The generated code of one game: its source pieces and, per piece, the span of each line."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pieces: dict[str, tuple[str, list[Any]]] = {}  # file name -> (source, span per line)

    @property
    def source(self) -> str:
        return "\n".join(src for src, _ in self.pieces.values())

    def span_at(self, filename: str, lineno: int) -> Any:
        """The span of the effect text that line ``lineno`` of the piece ``filename`` was written for."""
        piece = self.pieces.get(filename)
        if piece is None or not 1 <= lineno <= len(piece[1]):
            return None
        return piece[1][lineno - 1]

    def span_of_traceback(self, tb: Any) -> Any:
        """The span of the innermost generated line in a traceback, or None."""
        span = None
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename in self.pieces:
                span = self.span_at(code.co_filename, tb.tb_lineno) or span
            tb = tb.tb_next
        return span


class CodeGen:
    """Writes the Python source of a game's expressions (see the comment above)."""

    simple: dict[type, Any]  # statement kind -> its interpreter handler (the fallback), set by Compiler

    def __init__(self, compiler: "Compiler", rules: Any, name: str) -> None:
        self.compiler = compiler
        self.rules = rules
        self.w = _Writer()
        self.ns: dict[str, Any] = dict(_RUNTIME)
        self._new_consts: dict[str, Any] = {}
        self.generated = Generated(name)
        self._consts: dict[Any, str] = {}  # (kind, key) -> name in the namespace
        self._tmp = 0
        self.user_fns: dict[str, str] = {}  # user function name -> Python function name
        self._roots = 0
        self.pending: list[_Writer] = []
        self.block_fns: dict[int, str] = {}  # id(Block) -> its run function (procedure bodies)
        # what a local holds when the writer knows it: "tuple" (a collection) or "zone" (a zone key);
        # each local is assigned once, so this holds wherever it is read
        self.shapes: dict[str, str] = {}
        self.zone_keys = frozenset(k for keys in rules.zone_keys.values() for k in keys)
        self._lock = threading.Lock()

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

    # ---- functions
    def root(self, node: Any) -> str:
        """Write ``def eK(ctx)`` computing ``node``; returns its name."""
        self._roots += 1
        name = f"e{self._roots}"
        w = self.w
        w.span = getattr(node, "span", None)
        w.line(f"def {name}(ctx):")
        w.indent()
        w.line("S = ctx.state")
        w.line("E = ctx.env")
        scope = _Scope(None, 'E.get("$you")', 'E.get("$this")', None)
        result = self.ex(node, scope)
        w.line(f"return {result}")
        w.dedent()
        return name

    def pure(self, fname: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a user function only reads: no random() in it or in what it calls, and every
        node of it known to this writer (so its result depends on the state, you and this only)."""
        for node in walk(self.compiler.functions[fname].body):
            if isinstance(node, n.Call) and node.func == "random":
                return False
            if not hasattr(self, "g_" + type(node).__name__):
                return False
            if isinstance(node, n.UserCall) and node.func not in seen and node.func != fname:
                if not self.pure(node.func, seen | {fname}):
                    return False
        return True

    def user_function(self, fname: str) -> str:
        name = self.user_fns.get(fname)
        if name is not None:
            return name
        func = self.compiler.functions[fname]
        name = self.user_fns[fname] = f"u_{len(self.user_fns)}"
        # written into a writer of its own, then appended: it may be reached mid-function
        outer, self.w = self.w, _Writer()
        w = self.w
        w.span = getattr(func.body, "span", None)
        params = {p: f"p{i}" for i, p in enumerate(func.params)}
        w.line(f"def {name}(ctx, you, this{''.join(', ' + v for v in params.values())}):")
        w.indent()
        memo = not params and self.pure(fname)
        if memo:
            # a read of the state with no arguments: worked out once per menu pass (see ``menu``)
            w.line("memo = ctx.memo")
            w.line("if memo is not None:")
            w.line(f"    known = memo.get(({name!r}, you, this), _MISSING)")
            w.line("    if known is not _MISSING: return known")
        w.line("S = ctx.state")
        result = self.ex(func.body, _Scope(None, "you", "this", params))
        if memo:
            w.line(f"if memo is not None: memo[({name!r}, you, this)] = {result}")
        w.line(f"return {result}")
        w.dedent()
        inner, self.w = self.w, outer
        self.pending.append(inner)
        return name

    # ---- expressions: each writes lines and returns a Python expression (a local or a constant)
    def ex(self, node: Any, sc: _Scope) -> str:
        method = getattr(self, "g_" + type(node).__name__, None)
        saved = self.w.span
        self.w.span = getattr(node, "span", saved)
        try:
            if method is None:  # not known here: the closure compiler's function, called with ctx
                fn = self.const("F", id(node), self.compiler.closure(node))
                plain = sc.it is None and sc.params is None and not sc.names
                return self.store(f"{fn}(ctx)") if plain else self._fallback(node, fn, sc)
            return method(node, sc)
        finally:
            self.w.span = saved

    def _fallback(self, node: Any, fn: str, sc: _Scope) -> str:
        # the closure reads $it, $you, $this and variables from ctx.env: give it those of this place
        t = self.tmp()
        w = self.w
        w.line("_env = ctx.env")
        env = [f'"$you": {sc.you}', f'"$this": {sc.this}']
        if sc.params is None:
            env.insert(0, "**_env")
        else:
            env += [f"{p!r}: {v}" for p, v in sc.params.items()]
        if sc.it is not None:
            env.append(f'"$it": {sc.it}')
        env += [f"{name!r}: {local}" for name, local in sc.names.items()]
        w.line(f"ctx.env = {{{', '.join(env)}}}")
        w.line("try:")
        w.line(f"    {t} = {fn}(ctx)")
        w.line("finally:")
        w.line("    ctx.env = _env")
        return t

    def need(self, bad: str, node: Any, message: str, value: str) -> None:
        """Write ``if BAD: raise RuleError("MESSAGE, got <value>")`` at ``node``."""
        self.w.line(f"if {bad}: _needs({self.node_const(node)}, {message!r}, {value})")

    def store(self, expr: str) -> str:
        t = self.tmp()
        self.w.line(f"{t} = {expr}")
        return t

    def g_Literal(self, node: n.Literal, sc: _Scope) -> str:
        v = node.value
        if type(v) in _SIMPLE_LITERALS:
            return repr(v)
        return self.const("L", id(node), v)

    def g_ListExpr(self, node: n.ListExpr, sc: _Scope) -> str:
        items = [self.ex(i, sc) for i in node.items]
        return self.tuple("(" + "".join(i + ", " for i in items) + ")")

    def g_Var(self, node: n.Var, sc: _Scope) -> str:
        if node.name in sc.names:
            return sc.names[node.name]
        if sc.params is not None:
            local = sc.params.get(node.name)
            if local is not None:
                return local
            return self.store(f"_no_value({self.node_const(node)}, {node.name!r})")
        t = self.tmp()
        self.w.line(f"{t} = E.get({node.name!r}, _MISSING)")
        self.w.line(f"if {t} is _MISSING: _no_value({self.node_const(node)}, {node.name!r})")
        return t

    def g_Builtin(self, node: n.Builtin, sc: _Scope) -> str:
        name = node.name
        if name == "you":
            return self.store(sc.you) if sc.params is None else sc.you
        if name == "this":
            return self.store(sc.this) if sc.params is None else sc.this
        if name == "it":
            if sc.it is not None:
                return sc.it
            if sc.params is not None:
                return self.store('{}["$it"]')  # a user function has no 'it' of its caller
            return self.store('E["$it"]')
        if name == "players":
            return self.const("C", "seats", self.rules.seats)
        if name == "opponents":
            you = self.store(sc.you) if sc.params is None else sc.you
            opp = self.const("C", "opponents", self.rules.opponents)
            self.w.line(f"if type({you}) is not int: _no_opponents({self.node_const(node)})")
            return self.store(f"{opp}[{you}]")
        if name == "round":
            return self.store("S.round")
        if name == "player_count":
            return repr(self.rules.players)
        if name == "turn_player":
            return self.store("S.turn_player")
        if name == "phase":
            return self.store("S.phase")
        if name == "can_pass":
            return self.store("_can_pass(S)")
        raise AssertionError(name)

    def g_GameVar(self, node: n.GameVar, sc: _Scope) -> str:
        return self.store(f"S.vars[{node.name!r}]")

    def g_ZoneRef(self, node: n.ZoneRef, sc: _Scope) -> str:
        if node.owner is None:
            return repr(node.zone)
        who = self.ex(node.owner, sc)
        keys = self.rules.zone_keys[node.zone]
        base = self.rules.zone_base[node.zone]
        k = self.const("K", node.zone, keys)
        idx = who if base == 0 else f"{who} - {base}"
        self.w.line(f"if type({who}) is not int or not 0 <= {idx} < {len(keys)}: "
                    f"_bad_owner({self.node_const(node)}, {who}, {base}, {len(keys)})")
        t = self.store(f"{k}[{idx}]")
        self.shapes[t] = "zone"
        return t

    def g_CounterRef(self, node: n.CounterRef, sc: _Scope) -> str:
        name = node.counter
        if node.owner is None:
            return self.store(f"S.counters[{name!r}][0]")
        who = self.ex(node.owner, sc)
        t = self.store(f"S.counters[{name!r}]")
        self.need(f"type({who}) is not int or not 0 <= {who} < len({t})", node, f"'{name} of ...' needs a player", who)
        return self.store(f"{t}[{who}]")

    def g_Attr(self, node: n.Attr, sc: _Scope) -> str:
        card = self.ex(node.obj, sc)
        name = node.name
        nc = self.node_const(node)
        if name == "face_up":
            self.need(f"type({card}) is not int", node, "'.face_up' needs a card", card)
            return self.store(f"{card} in S.faceup")
        if name == "marks":
            self.need(f"type({card}) is not int", node, "'.marks' needs a card", card)
            return self.store(f"S.marks.get({card}, ())")
        self.need(f"type({card}) is not int", node, f"'.{name}' needs a card", card)
        table = self.rules.prop_tables.get(name)
        if table is None:
            it = self.const("C", "instance_type", self.rules.instance_type)
            self.w.line(f"{it}[{card}]")
            return "None"
        value = self.store(f"{self.const('P', name, table)}[{card}]")
        if all(type(v) is tuple for v in table):
            self.shapes[value] = "tuple"
        return value

    def is_zone(self, value: str) -> bool:
        """Whether generated text is sure to be a zone's key: a local known as one, or a literal key."""
        if self.shapes.get(value) == "zone":
            return True
        return value[:1] in "'\"" and value[1:-1] in self.zone_keys and repr(value[1:-1]) == value

    def _items(self, value: str, copy: bool) -> str:
        """The items of a value as items_of sees them; a zone's own list when ``copy`` is False."""
        shape = self.shapes.get(value)
        if shape == "tuple":
            return value
        if shape == "zone":
            return self.store(f"tuple(S.zones[{value}])" if copy else f"S.zones[{value}]")
        if not _is_local(value):  # a constant: a zone key, none, a number
            return self.store(f"_items_of(ctx, {value})" if copy or value[:1] not in "'\"" else f"S.zones[{value}]")
        t = self.tmp()
        w = self.w
        zone = f"S.zones[{value}]"
        w.line(f"if type({value}) is tuple: {t} = {value}")
        w.line(f"elif type({value}) is str: {t} = {'tuple(' + zone + ')' if copy else zone}")
        w.line(f"elif type({value}) is list: {t} = {'tuple(' + value + ')' if copy else value}")
        w.line(f"elif {value} is None: {t} = ()")
        w.line(f"else: {t} = ({value},)")
        return t

    def g_Where(self, node: n.Where, sc: _Scope) -> str:
        source = self.ex(node.source, sc)
        items = self._items(source, copy=False)  # conditions never change zones
        out = self.tmp()
        it = self.tmp()
        w = self.w
        w.line(f"{out} = []")
        w.line(f"for {it} in {items}:")
        w.indent()
        cond = self.ex(node.cond, sc.with_it(it))
        w.line(f"if {cond}: {out}.append({it})")
        w.dedent()
        return self.tuple(f"tuple({out})")

    def tuple(self, expr: str) -> str:
        """``store`` for an expression that gives a tuple."""
        t = self.store(expr)
        self.shapes[t] = "tuple"
        return t

    def g_BinOp(self, node: n.BinOp, sc: _Scope) -> str:
        a = self.ex(node.left, sc)
        b = self.ex(node.right, sc)
        t = self.tmp()
        w = self.w
        nc = self.node_const(node)
        op = node.op
        pyop = "//" if op == "/" else op
        kinds = f"{static_kind(node.left)!r}, {static_kind(node.right)!r}"
        text = [type(x) is n.Literal and type(x.value) is str and x.value not in self.zone_keys
                for x in (node.left, node.right)]
        if op == "+" and any(text):  # a text that is no zone's key, and something: the first branches below
            other = b if text[0] else a
            w.line(f"if type({other}) is str:")
            w.line(f"    {t} = {a} + {b}")
            w.line(f"    if len({t}) > _MAX_TEXT: _too_long({nc})")
            w.line(f"elif type({other}) is int:")
            w.line(f"    {t} = {a} + str({b})" if text[0] else f"    {t} = str({a}) + {b}")
            w.line("else:")
            w.line(f"    {t} = _binop_slow(ctx, {nc}, {a}, {b}, {kinds})")
            return t
        w.line(f"if type({a}) is int and type({b}) is int:")
        if op in "/%":
            w.line(f"    if {b} == 0: _div_zero({nc})")
        w.line(f"    {t} = {a} {pyop} {b}")
        if op == "*":  # repeated products grow without bound: numbers are capped
            w.line(f"    if not -_MAX_NUMBER <= {t} <= _MAX_NUMBER: _too_big({nc})")
        if op == "+":  # two texts that are not both zones (zones would join their cards) concatenate
            w.line(f"elif type({a}) is str and type({b}) is str and not ({a} in S.zones and {b} in S.zones):")
            w.line(f"    {t} = {a} + {b}")
            w.line(f"    if len({t}) > _MAX_TEXT: _too_long({nc})")
            w.line(f"elif type({a}) is str and type({b}) is int:")  # a text and a number: the number as text
            w.line(f"    {t} = {a} + str({b})")
            w.line(f"elif type({a}) is int and type({b}) is str:")
            w.line(f"    {t} = str({a}) + {b}")
        w.line("else:")
        w.line(f"    {t} = _binop_slow(ctx, {nc}, {a}, {b}, {kinds})")
        return t

    def g_Compare(self, node: n.Compare, sc: _Scope) -> str:
        a = self.ex(node.left, sc)
        b = self.ex(node.right, sc)
        if node.op in ("==", "!="):
            return self.store(f"{a} {node.op} {b}")
        t = self.tmp()
        w = self.w
        w.line("try:")
        w.line(f"    {t} = bool({a} {node.op} {b})")
        w.line("except TypeError:")
        w.line(f"    _cannot_compare({self.node_const(node)}, {a}, {b})")
        return t

    def g_Contains(self, node: n.Contains, sc: _Scope) -> str:
        item = self.ex(node.item, sc)
        coll = self.ex(node.collection, sc)
        items = self._items(coll, copy=False)
        return self.store(f"{item} {'not in' if node.negate else 'in'} {items}")

    def _short(self, node: Any, sc: _Scope, on: str) -> str:
        a = self.ex(node.left, sc)
        t = self.store(f"bool({a})")
        self.w.line(f"if {on}{t}:")
        self.w.indent()
        b = self.ex(node.right, sc)
        self.w.line(f"{t} = bool({b})")
        self.w.dedent()
        return t

    def g_And(self, node: n.And, sc: _Scope) -> str:
        return self._short(node, sc, "")

    def g_Or(self, node: n.Or, sc: _Scope) -> str:
        return self._short(node, sc, "not ")

    def g_Not(self, node: n.Not, sc: _Scope) -> str:
        return self.store(f"not {self.ex(node.operand, sc)}")

    def g_Neg(self, node: n.Neg, sc: _Scope) -> str:
        v = self.ex(node.operand, sc)
        self.need(f"type({v}) is not int", node, "'-' needs a number", v)
        return self.store(f"-{v}")

    def g_Seat(self, node: n.Seat, sc: _Scope) -> str:
        p = self.ex(node.player, sc)
        self.need(f"type({p}) is not int", node, "'left of'/'right of' needs a player", p)
        return self.store(f"({p} + {node.step}) % {self.rules.players}")

    def g_UserCall(self, node: n.UserCall, sc: _Scope) -> str:
        fname = self.user_function(node.func)
        you = self.store(sc.you) if sc.params is None else sc.you
        this = self.store(sc.this) if sc.params is None else sc.this
        args = [self.ex(a, sc) for a in node.args]
        params = self.compiler.functions[node.func].params
        args = args[: len(params)] + ["None"] * (len(params) - len(args))
        return self.store(f"{fname}(ctx, {you}, {this}{''.join(', ' + a for a in args)})")

    def g_Call(self, node: n.Call, sc: _Scope) -> str:
        sig = FUNCTIONS[node.func]
        nc = self.node_const(node)
        w = self.w
        if sig.per_item:
            coll = self.ex(node.args[0], sc)
            key = f"k{self._tmp}"
            self._tmp += 1
            it = self.tmp()
            w.line(f"def {key}({it}):")
            w.indent()
            value = self.ex(node.args[1], sc.with_it(it))
            w.line(f"return {value}")
            w.dedent()
            t = self.tmp()
            impl = self.const("I", node.func, sig.impl)
            w.line("try:")
            w.line(f"    {t} = {impl}(ctx, {coll}, {key})")
            w.line("except TypeError as exc:")
            w.line(f"    _failed({nc}, {node.func + '(): '!r}, exc)")
            return t
        args = [self.ex(a, sc) for a in node.args]
        if node.func == "count" and len(args) == 1 and self.is_zone(args[0]):
            return self.store(f"len(S.zones[{args[0]}])")
        if node.func == "count" and len(args) == 1 and args[0] in self.shapes:
            a = args[0]
            return self.store(f"len({a})" if self.shapes[a] == "tuple" else f"len(S.zones[{a}])")
        if node.func == "count" and len(args) == 1 and _is_local(args[0]):
            a = args[0]
            t = self.tmp()
            w.line(f"if type({a}) is str: {t} = len(S.zones[{a}])")
            w.line(f"elif {a} is None: {t} = 0")
            w.line(f"elif isinstance({a}, (tuple, list)): {t} = len({a})")
            w.line(f"else: {t} = 1")
            return t
        if node.func == "shared_props" and len(args) >= 3 and all(
            type(a) is n.Literal and a.value in self.rules.prop_tables for a in node.args[2:]
        ):
            a, b = args[0], args[1]
            t = self.tmp()
            terms = " + ".join(
                f"({tab}[{a}] == {tab}[{b}])"
                for tab in (self.const("P", v, self.rules.prop_tables[v]) for v in (getattr(p, "value") for p in node.args[2:]))
            )
            w.line(f"if type({a}) is not int or type({b}) is not int: {t} = 0")
            w.line(f"else: {t} = 0 + {terms}")
            return t
        if node.func == "prop" and len(args) == 2:
            card, prop = args
            tables = self.const("C", "prop_tables", self.rules.prop_tables)
            t = self.tmp()
            impl = self.const("I", node.func, sig.impl)
            w.line(f"if type({card}) is int and type({prop}) is str and {prop} in {tables}: "
                   f"{t} = {tables}[{prop}][{card}]")
            w.line("else:")
            w.line("    try:")
            w.line(f"        {t} = {impl}(ctx, {card}, {prop})")
            w.line("    except (TypeError, ValueError, KeyError, IndexError) as exc:")
            w.line(f"        _call_failed({nc}, ({card}, {prop}), exc)")
            return t
        if node.func == "usable" and type(node.args[1]) is n.Literal and type(node.args[1].value) is str:
            # per card: 0 no such ability, 1 an ability without 'when', 2 one whose 'when' must be asked
            ability = node.args[1].value
            defs, itype = self.rules.defs, self.rules.instance_type
            kinds = tuple(
                0 if (a := defs[t].abilities.get(ability)) is None else 1 if a.when is None else 2 for t in itype
            )
            table = self.const("U", ability, kinds)
            card = args[0]
            t = self.tmp()
            impl = self.const("I", node.func, sig.impl)
            values = "".join(", " + a for a in args)
            w.line(f"if type({card}) is int and 0 <= {card} < {len(kinds)} and {table}[{card}] != 2: "
                   f"{t} = {table}[{card}] == 1")
            w.line("else:")
            w.line("    try:")
            w.line(f"        {t} = {impl}(ctx{values})")
            w.line("    except (TypeError, ValueError, KeyError, IndexError) as exc:")
            w.line(f"        _call_failed({nc}, ({''.join(a + ', ' for a in args)}), exc)")
            return t
        if node.func == "first" and len(args) == 1:
            items = self._items(args[0], copy=False)
            return self.store(f"{items}[0] if {items} else None")
        t = self.tmp()
        impl = self.const("I", node.func, sig.impl)
        values = "".join(", " + a for a in args)
        w.line("try:")
        w.line(f"    {t} = {impl}(ctx{values})")
        w.line("except (TypeError, ValueError, KeyError, IndexError) as exc:")
        w.line(f"    _call_failed({nc}, ({''.join(a + ', ' for a in args)}), exc)")
        if str(getattr(sig.impl, "__annotations__", {}).get("return", "")).startswith("tuple"):
            self.shapes[t] = "tuple"  # the built-in says (and mypy checks) that it gives a collection
        return t

    def menu(self, node: n.Menu) -> str:
        """Write ``def mK(ctx)``: the (label, item index, value) entries of a menu of static and
        dynamic options, in the interpreter's order, labels de-duplicated through a dict."""
        self._roots += 1
        name = f"m{self._roots}"
        w = self.w
        w.span = node.span
        w.line(f"def {name}(ctx, chooser):")
        w.indent()
        w.line("S = ctx.state")
        w.line("E = ctx.env")
        w.line("out = {}")
        # a menu pass changes nothing, so reads without arguments are kept for the pass
        w.line("ctx.memo = {}")
        w.line("try:")
        w.indent()
        w.line("pass")
        scope = _Scope(None, 'E.get("$you")', 'E.get("$this")', None)
        for idx, item in enumerate(node.items):
            w.span = item.span
            if isinstance(item, n.StaticOption):
                if item.cond is None:
                    w.line(f"if {item.label!r} not in out: out[{item.label!r}] = ({item.label!r}, {idx}, None)")
                    continue
                cond = self.ex(item.cond, scope)
                w.line(f"if {cond} and {item.label!r} not in out: out[{item.label!r}] = ({item.label!r}, {idx}, None)")
                continue
            if isinstance(item, n.AnswerOption):  # the chooser's cards that answer the event
                answers = self.const("A", "answers", self.compiler.answers)
                passed = "{" + ", ".join(f"{k!r}: E.get({k!r})" for k in item.passes) + "}"
                label, card = self.tmp(), self.tmp()
                w.line(f"for {label}, {card} in {answers}(S, {item.event!r}, chooser, {passed}):")
                w.line(f"    if {label} not in out: out[{label}] = ({label}, {idx}, {card})")
                continue
            # a dynamic option
            source = self.ex(item.source, scope)
            items = self._items(source, copy=False)  # conditions and labels never change zones
            value = self.tmp()
            inner = scope.with_name(item.var, value)
            w.line(f"for {value} in {items}:")
            w.indent()
            if item.cond is not None:
                cond = self.ex(item.cond, inner)
                w.line(f"if {cond}:")
                w.indent()
            if item.label is not None:
                label = self.store(f"str({self.ex(item.label, inner)})")
            elif item.kind is not None:
                label = self.store(f"str({self.const('R', 'label_for', self.rules.label_for)}({item.kind!r}, {value}))")
            else:
                label = self.store(f"str({self.const('R', 'label_value', self.rules.label_value)}({value}))")
            w.line(f"if {label} not in out: out[{label}] = ({label}, {idx}, {value})")
            if item.cond is not None:
                w.dedent()
            w.dedent()
        w.dedent()
        w.line("finally:")
        w.line("    ctx.memo = None")
        w.line("return tuple(out.values())")
        w.dedent()
        return name

    # ---- the frames of statements that can pause
    #
    # A block whose statements can pause runs as one generated function ``xK(state, E, pc)``
    # for its frame ``(block, pc, None, E)``: a chain of ``if pc <= K:`` sections, one per run of
    # statements that never pause (written out inline) and one per statement that can.  Before a
    # statement that can pause, the frame is left exactly as the interpreter's ``h_block`` leaves it
    # (``pc`` past the statement, or popped when the statement is the last: tail position), and the
    # statement's frame is pushed; then the statement runs at once, in this Python call, instead of
    # going back round the interpreter's loop: a procedure call or an 'if' calls the block function
    # of the body it enters, a choice or a menu is written out up to its question, and any other
    # statement is run by the interpreter's ``drive`` (its frame and those it pushes, until it is
    # done or a question is pending).  When that returns with no
    # question asked and this frame on top again, the block goes on; otherwise it returns and the
    # frames on the stack are what the interpreter would have left (so a pending decision, clone,
    # to_json and resample see the same frames).  ``State.nested`` bounds the nesting of these
    # Python calls (past it the run loop takes over); each frame entered counts as a step of the run.

    def block(self, block: Any) -> str:
        """Write ``def xK(state, E, pc)``, the frame of ``block`` run from ``pc`` (see above)."""
        self._roots += 1
        name = f"x{self._roots}"
        w = self.w
        w.span = block.span
        w.line(f"def {name}(state, E, pc):")
        w.indent()
        w.line("S = state")
        w.line("ctx = S.ctx")
        w.line("ctx.env = E")
        w.line("stack = S.stack")
        scope = _Scope(None, 'E.get("$you")', 'E.get("$this")', None)
        body = block.body
        pauses = self.compiler.can_pause
        bnode = self.node_const(block)
        k = 0
        while k < len(body):
            w.span = body[k].span
            w.line(f"if pc <= {k}:")
            w.indent()
            if pauses(body[k]):
                self.pausing(body[k], bnode, k, k + 1 == len(body), scope)
                k += 1
            else:
                while k < len(body) and not pauses(body[k]):
                    self.stmt(body[k], scope)
                    k += 1
            w.dedent()
        w.span = block.span
        w.line("stack.pop()")
        w.dedent()
        return name

    def pausing(self, stmt: Any, bnode: str, k: int, tail: bool, sc: _Scope) -> None:
        """Write the section of a block for its statement ``k``, which can pause (see ``block``)."""
        w = self.w
        frame = self.tmp()
        if tail:
            w.line("stack.pop()")
        else:
            w.line(f"{frame} = ({bnode}, {k + 1}, None, E)")
            w.line(f"stack[-1] = {frame}")
        self.run_pausing(stmt, sc)
        if tail:
            w.line("return")
        else:
            w.line(f"if S.asking is not None or not stack or stack[-1] is not {frame}: return")
            w.line("ctx.env = E")

    def run_pausing(self, stmt: Any, sc: _Scope) -> None:
        """Write: run ``stmt`` (which can pause) now, its frame on the stack while it runs."""
        w = self.w
        kind = type(stmt)
        if kind is n.CallProc and stmt.name in self.compiler.procedures:
            proc = self.compiler.procedures[stmt.name]
            env = self.tmp()
            w.line(f'{env} = {{"$you": E.get("$you"), "$this": E.get("$this")}}')
            w.line(f'if "$by" in E: {env}["$by"] = E["$by"]')  # the procedure acts for an option's chooser
            for param, arg in zip(proc.params, stmt.args):
                value = self.ex(arg, sc)
                w.line(f"{env}[{param!r}] = {value}")
            self.enter(proc.body, env)
        elif kind is n.If:
            opened = 0
            for cond, branch in stmt.branches:
                c = self.ex(cond, sc)
                w.line(f"if {c}:")
                w.indent()
                self.enter(branch, "E")
                w.dedent()
                w.line("else:")
                w.indent()
                w.line("pass")
                opened += 1
            if stmt.orelse is not None:
                self.enter(stmt.orelse, "E")
            for _ in range(opened):
                w.dedent()
        elif kind is n.Choose:
            self.push(stmt)
            self.choose(stmt, sc)
        elif kind is n.Menu and id(stmt) in self.compiler.menus:
            self.push(stmt)
            self.offer(stmt, sc)
        else:
            self.drive(stmt)

    def drive(self, stmt: Any) -> None:
        """Write: push the frame of ``stmt`` and let the interpreter run it, and the frames it pushes,
        from here (``interpreter.drive``) until it is done or a question is pending."""
        w = self.w
        w.line(f"stack.append(({self.node_const(stmt)}, 0, None, E))")
        w.line(f"if S.nested >= {self.compiler.machine['direct_depth']}: return")
        w.line("S.nested += 1")
        w.line(f"{self.const('Q', 'drive', self.compiler.machine['drive'])}(S, len(stack) - 1)")
        w.line("S.nested -= 1")

    def push(self, stmt: Any) -> str:
        """Write: push the frame of ``stmt`` (at its start, in the block's locals); returns its local."""
        pushed = self.tmp()
        self.w.line(f"{pushed} = ({self.node_const(stmt)}, 0, None, E)")
        self.w.line(f"stack.append({pushed})")
        self.count_frame()
        return pushed

    def chooser(self, node: Any, sc: _Scope) -> str:
        """Who makes the choice ``node``: its 'by', else 'you' (as the interpreter's ``_chooser``)."""
        who = self.ex(node.chooser, sc) if node.chooser is not None else self.store(sc.you)
        self.need(f"type({who}) is not int or not 0 <= {who} < {self.rules.players}", node,
                  "a choice needs a player to make it", who)
        return who

    def choose(self, node: n.Choose, sc: _Scope) -> None:
        """Write the start of a choice (its frame pushed): what it picks from, then ask (``ask_choice``)."""
        w = self.w
        machine = self.compiler.machine
        source = self.ex(node.source, sc)
        values = self._items(source, copy=True)  # kept in the frame: never a zone's own list
        if node.kind == "set":
            w.line(f"if type({source}) is tuple: "
                   f"{values} = tuple([v if type(v) is tuple else _cards_of(ctx, v) for v in {values}])")
        count = self.ex(node.count, sc) if node.count is not None else "None"
        data = self.store(f"{self.const('Q', 'choice_counts', machine['choice_counts'])}"
                          f"({self.node_const(node)}, {values}, {count})")
        w.line(f"{self.const('Q', 'ask_choice', machine['ask_choice'])}(S, {self.node_const(node)}, 0, {data}, E)")

    def offer(self, node: n.Menu, sc: _Scope) -> None:
        """Write a menu (its frame pushed): its entries (the menu's generated function), then ``offer``."""
        w = self.w
        who = self.chooser(node, sc)
        menus = self.const("C", "menus", self.compiler.menus)
        w.line("ctx.env = E")
        entries = self.store(f"{menus}[{id(node)}](ctx, {who})")
        w.line(f"if not {entries}: _no_option({self.node_const(node)})")
        w.line(f"{self.const('Q', 'offer', self.compiler.machine['offer'])}(S, {self.node_const(node)}, E, {who}, {entries})")

    def enter(self, block: Any, env: str) -> None:
        """Write: push the frame of ``block`` with locals ``env`` and run it now (see ``block``)."""
        w = self.w
        w.line(f"stack.append(({self.node_const(block)}, 0, None, {env}))")
        self.count_frame()
        w.line(f"if S.nested >= {self.compiler.machine['direct_depth']}: return")  # the run loop goes on from the frames
        w.line("S.nested += 1")
        w.line(f"{self.block_ref(block)}(S, {env}, 0)")
        w.line("S.nested -= 1")

    def count_frame(self) -> None:
        """Write: one more frame handled in this run, against the step and depth limits (as ``run``)."""
        w = self.w
        w.line("S.steps += 1")
        w.line("if S.steps > S.game.step_limit or len(stack) > S.game.depth_limit: "
               f"{self.const('Q', 'ran_away', self.compiler.machine['ran_away'])}(S, stack[-1], S.steps > S.game.step_limit)")

    def block_ref(self, block: Any) -> str:
        """The module name of ``block``'s block function: a stand-in until it is first called, which
        compiles it and puts it in its place."""
        key = ("X", id(block))
        name = self._consts.get(key)
        if name is None:
            name = self._consts[key] = f"X{len(self._consts)}"
            compiler, ns = self.compiler, self.ns

            def first_call(*args: Any) -> Any:
                fn = ns[name] = compiler.block_fn(block)
                return fn(*args)

            self._new_consts[name] = compiler.blocks.get(id(block), first_call)
        return name

    def stmt(self, stmt: Any, sc: _Scope) -> None:
        """Write one statement that never pauses (``Compiler.can_pause`` is False for it)."""
        w = self.w
        saved = w.span
        w.span = stmt.span
        method = getattr(self, "s_" + type(stmt).__name__, None)
        if method is not None:
            method(stmt, sc)
        else:  # a statement of the language this writer does not know: its interpreter handler
            handler = self.const("H", type(stmt).__name__, self.simple[type(stmt)])
            w.line(f"{handler}(state, {self.node_const(stmt)}, E)")
        w.span = saved

    def body(self, block: Any, sc: _Scope) -> None:
        """The statements of a block, indented under the line written before (never empty)."""
        self.w.indent()
        self.w.line("pass")
        for stmt in block.body:
            self.stmt(stmt, sc)
        self.w.dedent()

    def s_Block(self, node: n.Block, sc: _Scope) -> None:
        self.w.line("if True:")
        self.body(node, sc)

    def s_If(self, node: n.If, sc: _Scope) -> None:
        w = self.w
        opened = 0
        for cond, block in node.branches:
            c = self.ex(cond, sc)
            w.line(f"if {c}:")
            self.body(block, sc)
            w.line("else:")
            w.indent()
            w.line("pass")
            opened += 1
        if node.orelse is not None:
            for stmt in node.orelse.body:
                self.stmt(stmt, sc)
        for _ in range(opened):
            w.dedent()

    def s_ForEach(self, node: n.ForEach, sc: _Scope) -> None:
        items = self._items(self.ex(node.items, sc), copy=True)  # the body may move the cards
        item = self.tmp()
        self.count_steps(f"len({items})", node)
        self.w.line(f"for {item} in {items}:")
        self.w.indent()
        self.w.line(f"E[{node.var!r}] = {item}")
        self.w.dedent()
        self.body(node.body, sc)

    def count_steps(self, turns: str, node: Any) -> None:
        """A loop is about to turn ``turns`` more times: count them against the run's step limit."""
        self.w.line(f"S.steps += {turns}")
        self.w.line(f"if S.steps > S.game.step_limit: _too_many_steps({self.node_const(node)}, S)")

    def s_Repeat(self, node: n.Repeat, sc: _Scope) -> None:
        times = self.ex(node.count, sc)
        self.need(f"type({times}) is not int", node, "'repeat' needs a number", times)
        self.count_steps(f"max({times}, 0)", node)
        self.w.line(f"for _ in range({times}):")
        self.body(node.body, sc)

    def s_While(self, node: n.While, sc: _Scope) -> None:
        w = self.w
        k = self.tmp()
        w.line(f"{k} = 0")
        w.line("while True:")
        w.indent()
        c = self.ex(node.cond, sc)
        w.line(f"if not {c}: break")
        w.line(f"if {k} >= state.rules.loop_limit: _while_limit({self.node_const(node)}, {k})")
        w.line(f"{k} += 1")
        self.count_steps("1", node)
        w.dedent()
        self.body(node.body, sc)

    def s_CallProc(self, node: n.CallProc, sc: _Scope) -> None:
        w = self.w
        proc = self.compiler.procedures[node.name]
        env = self.tmp()
        w.line(f'{env} = {{"$you": E.get("$you"), "$this": E.get("$this")}}')
        w.line(f'if "$by" in E: {env}["$by"] = E["$by"]')
        for param, arg in zip(proc.params, node.args):
            value = self.ex(arg, sc)
            w.line(f"{env}[{param!r}] = {value}")
        w.line(f"{self.block_function(proc.body)}(state, {env})")
        w.line("ctx.env = E")

    def block_function(self, block: Any) -> str:
        """The name of a generated run function for a whole block that never pauses (written once)."""
        name = self.block_fns.get(id(block))
        if name is not None:
            return name
        self._roots += 1
        name = self.block_fns[id(block)] = f"b{self._roots}"
        outer, self.w = self.w, _Writer()
        w = self.w
        w.span = block.span
        w.line(f"def {name}(state, E):")
        w.indent()
        w.line("ctx = state.ctx")
        w.line("ctx.env = E")
        w.line("S = state")
        w.dedent()
        self.body(block, _Scope(None, 'E.get("$you")', 'E.get("$this")', None))
        inner, self.w = self.w, outer
        self.pending.append(inner)
        return name

    def s_Let(self, node: n.Let, sc: _Scope) -> None:
        value = self.ex(node.value, sc)
        self.w.line(f"E[{node.name!r}] = {value}")

    def s_SetVar(self, node: n.SetVar, sc: _Scope) -> None:
        value = self.ex(node.value, sc)
        self.w.line(f"S.vars[{node.name!r}] = {value}")

    def s_CounterOp(self, node: n.CounterOp, sc: _Scope) -> None:
        w = self.w
        nc = self.node_const(node)
        value = self.ex(node.value, sc)
        self.need(f"type({value}) is not int", node, f"'{node.op}' needs a number", value)
        target = node.target
        idx = "0"
        if target.owner is not None:
            w.span = getattr(target.owner, "span", w.span)
            idx = self.ex(target.owner, sc)
            self.need(f"type({idx}) is not int or not 0 <= {idx} < {self.rules.players}", node, f"'{target.counter} of ...' needs a player", idx)
            w.span = node.span
        w.line(f"S.change_counter({target.counter!r}, {idx}, {node.op!r}, {value})")

    def s_Mark(self, node: n.Mark, sc: _Scope) -> None:
        w = self.w
        target = self.ex(node.target, sc)
        mark = self.ex(node.mark, sc)
        self.need(f"type({mark}) is not str", node, "a mark is a text", mark)
        if node.target_kind == "player":
            self.need(f"type({target}) is not int or not 0 <= {target} < {self.rules.players}", node,
                      "'mark player' needs a player", target)
            w.line(f"S.mark_player({target}, {mark}, {node.remove!r})")
            return
        cards = self.cards(target, node, "'mark card' ")
        card = self.tmp()
        w.line(f"for {card} in {cards}: S.mark_card({card}, {mark}, {node.remove!r})")

    def cards(self, value: str, node: Any, what: str) -> str:
        """The cards of a value as ``cards_of`` gives them; a value that is not cards fails as ``what ...``."""
        ids = self.tmp()
        w = self.w
        w.line(f"if type({value}) is tuple: {ids} = {value}")
        w.line(f"elif type({value}) is int: {ids} = ({value},)")
        w.line("else:")
        w.line("    try:")
        w.line(f"        {ids} = _cards_of(ctx, {value})")
        w.line("    except TypeError as exc:")
        w.line(f"        _failed({self.node_const(node)}, {what!r}, exc)")
        return ids

    def s_Move(self, node: n.Move, sc: _Scope) -> None:
        w = self.w
        cards = self.ex(node.cards, sc)
        dest = self.ex(node.dest, sc)
        if not self.is_zone(dest):
            self.need(f"type({dest}) is not str or {dest} not in S.zones", node, "'move ... to' needs a zone", dest)
        ids = self.cards(cards, node, "'move' ")
        w.line(f"if {ids}: S.move_by_rule({self.node_const(node)}, {ids}, {dest}, E)")

    # ---- compiling, one root at a time
    def function(self, node: Any) -> Callable[..., Any]:
        """Write and compile the function of the root ``node`` (with any user function it reaches first)."""
        with self._lock:  # states of one game played in several threads share this writer
            return self._function(node)

    def _function(self, node: Any) -> Callable[..., Any]:
        self.w = _Writer()
        self.pending = []
        if type(node) is tuple:
            name = self.block(node[1])
        elif isinstance(node, n.Menu):
            name = self.menu(node)
        else:
            name = self.root(node)
        writers = [self.w]
        while self.pending:  # user functions, and those they reach
            more, self.pending = self.pending, []
            writers.extend(more)
        lines: list[str] = []
        spans: list[Any] = []
        for pw in writers:
            lines += pw.lines
            spans += pw.spans
        source = "\n".join(lines) + "\n"
        filename = f"<rulecore {self.generated.name} #{len(self.generated.pieces)}>"
        self.generated.pieces[filename] = (source, spans)
        self.ns.update(self._new_consts)
        self._new_consts.clear()
        exec(compile(source, filename, "exec"), self.ns)
        return self.ns[name]  # type: ignore[no-any-return]

    def lazy(self, node: Any, cache: dict[int, Fn]) -> Fn:
        """A stand-in that compiles ``node`` the first time it is called and then takes its place."""

        done: list[Fn] = []

        def first_call(*args: Any) -> Any:
            if not done:
                done.append(self.function(node))
                cache[id(node)] = done[0]
            return done[0](*args)

        return first_call


# ---- what generated code calls on its rare and error paths


def _no_option(node: Any) -> None:
    raise _located(node, "no option of this choice is available")


def _no_value(node: Any, name: str) -> Any:
    raise _located(node, f"'{name}' has no value here (it was never set on this path)")


def _no_opponents(node: Any) -> None:
    raise _located(node, "'opponents' needs a player as 'you'; here there is none")


def _bad_owner(node: Any, who: Any, base: int, size: int) -> None:
    what = "a player" if base == 0 else f"a slot number from 1 to {size}"
    raise _located(node, f"'{node.zone} of ...' needs {what}, got {describe_value(who)}")


def _can_pass(state: Any) -> bool:
    """Whether the part running in the innermost 'in any order' may pass now."""
    for frame in reversed(state.stack):
        if type(frame[0]) is n.InAnyOrder:
            return frame[2] is not None and n.may_pass(frame[2])
    return False


def _needs(node: Any, message: str, value: Any) -> None:
    raise _located(node, f"{message}, got {describe_value(value)}")


def _failed(node: Any, prefix: str, exc: Exception) -> None:
    raise _located(node, f"{prefix}{exc}") from None


def _div_zero(node: Any) -> None:
    raise _located(node, "division by zero")


def _binop_slow(ctx: Any, node: Any, a: Any, b: Any, left_kind: str | None, right_kind: str | None) -> Any:
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
                raise _located(node, f"'+' would make a collection of more than {MAX_BUILT:,} items")
            return joined
        if type(a) is str or type(b) is str:
            text = _text(ctx, a, left_kind) + _text(ctx, b, right_kind)
            if len(text) > MAX_TEXT:
                _too_long(node)
            return text
    if type(a) is not int or type(b) is not int:
        raise _located(node, f"'{sym}' needs numbers, got {describe_value(a)} and {describe_value(b)}")
    if sym in "/%" and b == 0:
        raise _located(node, "division by zero")
    result = _ARITH[sym](a, b)
    if not -MAX_NUMBER <= result <= MAX_NUMBER:
        _too_big(node)
    return result


def _too_many_steps(node: Any, state: Any) -> None:
    raise _located(node, f"the effects ran more than {state.game.step_limit:,} steps without a decision "
                   "(Game(step_limit=...) sets the limit); does a loop ever end?")


def _too_long(node: Any) -> None:
    raise _located(node, f"'+' would make a text of more than {MAX_TEXT:,} characters")


def _too_big(node: Any) -> None:
    raise _located(node, f"'{node.op}' would make a number of more than 1000 digits")


def _cannot_compare(node: Any, a: Any, b: Any) -> None:
    raise _located(node, f"cannot compare {describe_value(a)} with {describe_value(b)}")


def _call_failed(node: Any, values: tuple[Any, ...], exc: Exception) -> None:
    raise _located(node, f"{node.func}() cannot use {', '.join(describe_value(v) for v in values)}: {exc}") from None


def _while_limit(node: Any, k: int) -> None:
    raise _located(node, f"'while' ran {k} times; is its condition ever false?")


_RUNTIME: dict[str, Any] = {
    "_needs": _needs,
    "_can_pass": _can_pass,
    "_too_long": _too_long,
    "_too_many_steps": _too_many_steps,
    "_too_big": _too_big,
    "_MAX_TEXT": MAX_TEXT,
    "_MAX_NUMBER": MAX_NUMBER,
    "_failed": _failed,
    "_while_limit": _while_limit,
    "_cards_of": cards_of,
    "_items_of": items_of,
    "_MISSING": _MISSING,
    "_no_value": _no_value,
    "_no_option": _no_option,
    "_no_opponents": _no_opponents,
    "_bad_owner": _bad_owner,
    "_div_zero": _div_zero,
    "_binop_slow": _binop_slow,
    "_cannot_compare": _cannot_compare,
    "_call_failed": _call_failed,
}


__all__ = ["CodeGen", "Compiler", "Generated", "cards_of", "items_of"]
