"""Expression nodes -> Python closures: the fallback for what the code writer does not know.

Expressions never pause, so each becomes a plain function of the run-time context ``ctx`` (with
``ctx.state``, ``ctx.rules`` and ``ctx.env``, the local variables of the running effect, where
``$you``, ``$this`` and ``$it`` live), made once per node. The generated code calls one of these
for an expression kind its writer has no ``g_`` method for (``ExpressionWriter.ex``), so a node
kind added to the language runs before anyone teaches the writer about it. They compute values,
draw from the generator and fail in the same order and with the same words as the generated code.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from ...errors import RuleError
from ...lang import nodes as n
from ...lang.functions import FUNCTIONS, describe_value, items_of
from ...lang.kinds import static_kind
from ...lang.work import PER_ITEM_CALL
from .runtime import MISSING, binop_slow, call_error, can_pass, located, spend

Fn = Callable[[Any], Any]  # a compiled expression: ctx -> its value

_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Closures:
    """Makes the closure of each expression node, once (``closure``); a closure reads its
    sub-expressions through ``self(node)``, which answers what ``cache`` holds for them first
    (the generated function of a root, see ``Compiler.generate``)."""

    def __init__(self, functions: Any) -> None:
        self.functions = functions or {}  # the cardset's user functions: name -> UserFunction
        self.cache: dict[int, Fn] = {}  # id(node) -> its function (generated or a closure)
        self.closures: dict[int, Fn] = {}  # id(node) -> its closure
        self._keep: list[Any] = []  # keeps nodes alive so their ids stay unique

    def __call__(self, node: Any) -> Fn:
        """The function computing ``node``: generated code for the roots ``generate`` was given, a closure otherwise."""
        fn = self.cache.get(id(node))
        if fn is None:
            fn = self.closure(node)
        return fn

    def closure(self, node: Any) -> Fn:
        """The closure computing ``node`` (made the first time it is asked for)."""
        fn = self.closures.get(id(node))
        if fn is None:
            method = getattr(self, "c_" + type(node).__name__)
            fn = method(node)
            self.closures[id(node)] = fn
            self.cache.setdefault(id(node), fn)
            self._keep.append(node)
        return fn

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
                raise located(node, f"'{name}' has no value here (it was never set on this path)") from None

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
                    raise located(node, "'opponents' needs a player as 'you'; here there is none")
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
            return lambda ctx: can_pass(ctx.state)
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
                raise located(node, f"'{zone} of ...' needs {what}, got {describe_value(who)}")
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
                raise located(node, f"'{name} of ...' needs a player, got {describe_value(who)}")
            return values[who]

        return counter_of

    def c_Attr(self, node: n.Attr) -> Fn:
        obj = self(node.obj)
        name = node.name

        if name == "face_up":

            def face_up(ctx: Any) -> bool:
                card = obj(ctx)
                if type(card) is not int:
                    raise located(node, f"'.face_up' needs a card, got {describe_value(card)}")
                return card in ctx.state.faceup

            return face_up
        if name == "marks":

            def marks(ctx: Any) -> Any:
                card = obj(ctx)
                if type(card) is not int:
                    raise located(node, f"'.marks' needs a card, got {describe_value(card)}")
                return ctx.state.marks.get(card, ())

            return marks

        def attr(ctx: Any) -> Any:
            card = obj(ctx)
            if type(card) is not int:
                raise located(node, f"'.{name}' needs a card, got {describe_value(card)}")
            table = ctx.rules.prop_tables.get(name)
            return table[card] if table is not None else ctx.rules.card_prop(card, name)

        return attr

    def c_Where(self, node: n.Where) -> Fn:
        source = self(node.source)
        cond = self(node.cond)

        def where(ctx: Any) -> tuple[Any, ...]:
            items = items_of(ctx, source(ctx))
            spend(node, ctx.state, len(items))
            env = ctx.env
            old = env.get("$it", MISSING)
            out = []
            for item in items:
                env["$it"] = item
                if cond(ctx):
                    out.append(item)
            if old is MISSING:
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
            return binop_slow(ctx, node, left(ctx), right(ctx), left_kind, right_kind)

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
                raise located(node, f"cannot compare {describe_value(a)} with {describe_value(b)}") from None

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
                raise located(node, f"'-' needs a number, got {describe_value(v)}")
            return -v

        return neg

    def c_Seat(self, node: n.Seat) -> Fn:
        who, step = self(node.player), node.step

        def seat(ctx: Any) -> int:
            p = who(ctx)
            if type(p) is not int:
                raise located(node, f"'left of'/'right of' needs a player, got {describe_value(p)}")
            return (p + step) % ctx.rules.players

        return seat

    def c_UserCall(self, node: n.UserCall) -> Fn:
        func = self.functions[node.func]
        args = [self(a) for a in node.args]
        params = func.params
        body_cell: list[Fn] = []

        def user_call(ctx: Any) -> Any:
            spend(node, ctx.state, 1)
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
        if sig.per_item:
            coll, key = args

            def per_item(ctx: Any) -> Any:
                env = ctx.env
                old = env.get("$it", MISSING)

                def keyfn(item: Any) -> Any:
                    env["$it"] = item
                    return key(ctx)

                try:
                    items = items_of(ctx, coll(ctx))
                    spend(node, ctx.state, PER_ITEM_CALL + len(items))
                    return impl(ctx, items, keyfn)
                except TypeError as exc:
                    raise call_error(node, (), exc) from None
                finally:
                    if old is MISSING:
                        env.pop("$it", None)
                    else:
                        env["$it"] = old

            return per_item

        def fail(ctx: Any, exc: Exception) -> RuleError:
            return call_error(node, tuple(a(ctx) for a in args), exc)  # type: ignore[no-any-return]

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
