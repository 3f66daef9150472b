"""The code writer for expressions: ``ExpressionWriter`` writes each expression as straight-line
Python on locals (``ex`` and its ``g_`` method per node kind), a root's function ``eK(ctx)``
(``root``) and the user functions it reaches (``user_function``).

Each value is stored in a temporary before the next is worked out, so random draws and errors
come in the closures' order. ``it`` of a ``where`` or a per-item function is a loop variable, a
user function is a Python function with its parameters (and ``you``/``this``) as arguments (a short
one, no loop and no call in it, is written where it is called), zone
keys and per-property card tables (``Rules.prop_tables``) are module constants, ``in`` and
``where`` read a zone's list without copying it, and arithmetic on two whole numbers is plain
Python. Calls of the built-ins are written by ``CallWriter`` (``calls``). A node kind with no ``g_``
method calls its closure (``Closures``) from the generated code.
"""

from __future__ import annotations

import re
from typing import Any

from ...lang import nodes as n
from ...lang.kinds import static_kind
from ...lang.nodes import walk
from .nesting import MAX_EXPRESSION, nesting
from .writer import Lines, Scope, Writer, is_local

_SIMPLE_LITERALS = (int, str, bool, type(None))


# nodes whose generated code is a few lines with no loop, no call and no step counted: a user function made
# only of them is cheaper to work out again than to look up in a pass's memo (and counts no step either way)
_CHEAP = (n.Literal, n.Var, n.GameVar, n.ZoneRef, n.CounterRef, n.Attr, n.Builtin, n.BinOp, n.Compare, n.Not,
          n.Neg, n.And, n.Or, n.Seat)


def _cheap(body: Any, kinds: tuple[type, ...] = _CHEAP) -> bool:
    return all(isinstance(x, kinds) or (isinstance(x, n.Call) and x.func in ("first", "count") and len(x.args) == 1)
               for x in walk(body))


# a user function whose body is only of these is written where it is called (no loop, no call: a
# membership test of a collection is one 'in')
_IN_LINE = (*_CHEAP, n.Contains)


class ExpressionWriter(Writer):
    """Writes expressions: each ``g_`` method writes lines and returns a Python expression (a local,
    a literal or a constant of the module) that holds the value."""

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
        limit = self.read_limit()
        at = len(w.lines)
        w.once = {}  # nothing changes the locals ``E`` of a root: each variable is read once (``g_Var``)
        result = self.ex(node, self.seat_locals())
        w.line(f"return {result}")
        w.once = None
        self.drop_unread_seat(at)
        self.drop_unread_limit(limit)
        w.dedent()
        return name

    def seat_locals(self) -> Scope:
        """Write ``you = E.get("$you")`` and ``this = ...``: in a function that only works out values
        (a root, a menu) nothing changes its locals ``E``, so they are read once, not at each use
        (``drop_unread_seat`` takes back those the function never reads)."""
        self.w.line('you = E.get("$you")')
        self.w.line('this = E.get("$this")')
        return Scope(None, "you", "this", None)

    def drop_unread_seat(self, at: int) -> None:
        """Take back the lines ``seat_locals`` wrote at line ``at`` whose name the lines after never read."""
        w = self.w
        after = "\n".join(w.lines[at + 2:])
        for k, name in ((1, "this"), (0, "you")):
            if not re.search(rf"\b{name}\b", after):
                del w.lines[at + k], w.spans[at + k]

    def pure(self, fname: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a user function only reads: no random() in it or in what it calls, and every
        node of it known to this writer (so its result depends on the state, you and this only).
        Worked out once per function (a function calling another twice, 24 deep, is walked once)."""
        known = self.__dict__.setdefault("_pure", {})
        if fname not in known:
            known[fname] = self._pure_now(fname, seen)
        return bool(known[fname])

    def _pure_now(self, fname: str, seen: frozenset[str]) -> bool:
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
        outer, self.w = self.w, Lines()
        w = self.w
        w.span = getattr(func.body, "span", None)
        params = {p: f"p{i}" for i, p in enumerate(func.params)}
        w.line(f"def {name}(ctx, you, this{''.join(', ' + v for v in params.values())}):")
        w.indent()
        memo = not params and self.pure(fname) and not _cheap(func.body)
        if memo:
            # a read of the state with no arguments: worked out once per menu pass (see ``ChoiceWriter.menu``),
            # unless it costs less than looking it up
            w.line("memo = ctx.memo")
            w.line("if memo is not None:")
            w.line(f"    known = memo.get(({name!r}, you, this), _MISSING)")
            w.line("    if known is not _MISSING: return known")
        w.line("S = ctx.state")
        limit = self.read_limit()
        result = self.ex(func.body, Scope(None, "you", "this", params))
        if memo:
            w.line(f"if memo is not None: memo[({name!r}, you, this)] = {result}")
        w.line(f"return {result}")
        self.returns[fname] = (self.kind(result), self.shapes.get(result))  # (a call inside it knew nothing yet)
        self.drop_unread_limit(limit)
        w.dedent()
        inner, self.w = self.w, outer
        self.pending.append(inner)
        return name

    # ---- expressions: each writes lines and returns a Python expression (a local or a constant)
    def ex(self, node: Any, sc: Scope) -> str:
        method = getattr(self, "g_" + type(node).__name__, None)
        saved = self.w.span
        self.w.span = getattr(node, "span", saved)
        try:
            if method is not None and nesting(node, self.compiler.nests) > MAX_EXPRESSION:
                method = None  # its code would nest deeper than Python allows: its closure (see ``nesting``)
            if method is None:  # not known here: the closure compiler's function, called with ctx
                fn = self.const("F", id(node), self.compiler.closure(node))
                plain = sc.it is None and sc.params is None and not sc.names
                return self.store(f"{fn}(ctx)") if plain else self._fallback(node, fn, sc)
            return method(node, sc)
        finally:
            self.w.span = saved

    def _fallback(self, node: Any, fn: str, sc: Scope) -> str:
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

    def g_Literal(self, node: n.Literal, sc: Scope) -> str:
        v = node.value
        if type(v) in _SIMPLE_LITERALS:
            return repr(v)
        return self.const("L", id(node), v)

    def g_ListExpr(self, node: n.ListExpr, sc: Scope) -> str:
        items = [self.ex(i, sc) for i in node.items]
        t = self.tuple("(" + "".join(i + ", " for i in items) + ")")
        if items and all(self.kind(i) == "int" for i in items):
            self.shapes[t] = "numbers"  # ([1, 2, 3]: a loop over it or what a 'where' keeps of it holds numbers)
        return t

    def g_Var(self, node: n.Var, sc: Scope) -> str:
        if node.name in sc.names:
            return sc.names[node.name]
        if sc.params is not None:
            local = sc.params.get(node.name)
            if local is not None:
                return local
            return self.store(f"_no_value({self.node_const(node)}, {node.name!r})")
        once = self.w.once
        if once is not None and node.name in once:  # read before, in this block or one it lies in
            return once[node.name][0]
        t = self.tmp()
        self.w.line(f"{t} = E.get({node.name!r}, _MISSING)")
        self.w.line(f"if {t} is _MISSING: _no_value({self.node_const(node)}, {node.name!r})")
        if once is not None:
            once[node.name] = (t, self.w.level)
        return t

    def g_Builtin(self, node: n.Builtin, sc: Scope) -> str:
        name = node.name
        if name == "you":
            return sc.you if is_local(sc.you) else self.store(sc.you)
        if name == "this":
            return sc.this if is_local(sc.this) else self.store(sc.this)
        if name == "it":
            if sc.it is not None:
                return sc.it
            if sc.params is not None:
                return self.store('{}["$it"]')  # a user function has no 'it' of its caller
            return self.store('E["$it"]')
        if name == "players":
            seats = self.const("C", "seats", self.rules.seats)
            self.shapes[seats] = "numbers"  # (a tuple of the seats)
            return seats
        if name == "opponents":
            you = sc.you if is_local(sc.you) else self.store(sc.you)
            opp = self.const("C", "opponents", self.rules.opponents)
            if self.kind(you) != "int":
                self.w.line(f"if type({you}) is not int: _no_opponents({self.node_const(node)})")
            t = self.store(f"{opp}[{you}]")
            self.shapes[t] = "numbers"  # (a tuple of the other seats)
            return t
        if name == "round":
            return self.known(self.store("S.round"), "int")
        if name == "player_count":
            return repr(self.rules.players)
        if name == "turn_player":
            return self.store("S.turn_player")
        if name == "phase":
            return self.store("S.phase")
        if name == "can_pass":
            return self.store("_can_pass(S)")
        raise AssertionError(name)

    def g_GameVar(self, node: n.GameVar, sc: Scope) -> str:
        return self.store(f"S.vars[{node.name!r}]")

    def g_ZoneRef(self, node: n.ZoneRef, sc: Scope) -> str:
        if node.owner is None:
            return repr(node.zone)
        who = self.ex(node.owner, sc)
        keys = self.rules.zone_keys[node.zone]
        base = self.rules.zone_base[node.zone]
        k = self.const("K", node.zone, keys)
        idx = who if base == 0 else f"{who} - {base}"
        self.check_int(who, f"0 <= {idx} < {len(keys)}",
                       lambda: f"_bad_owner({self.node_const(node)}, {who}, {base}, {len(keys)})")
        t = self.store(f"{k}[{idx}]")
        self.shapes[t] = "zone"
        return t

    def g_CounterRef(self, node: n.CounterRef, sc: Scope) -> str:
        name = node.counter
        if node.owner is None:  # a counter holds whole numbers (``State.change_counter``)
            return self.known(self.store(f"S.counters[{name!r}][0]"), "int")
        who = self.ex(node.owner, sc)
        t = self.store(f"S.counters[{name!r}]")
        self.need_int(who, node, f"'{name} of ...' needs a player", f"0 <= {who} < len({t})")
        return self.known(self.store(f"{t}[{who}]"), "int")

    def g_Attr(self, node: n.Attr, sc: Scope) -> str:
        card = self.ex(node.obj, sc)
        name = node.name
        nc = self.node_const(node)
        if name == "face_up":
            self.need_int(card, node, "'.face_up' needs a card")
            return self.known(self.store(f"{card} in S.faceup"), "bool")
        if name == "marks":
            self.need_int(card, node, "'.marks' needs a card")
            return self.tuple(f"S.marks.get({card}, ())")  # (``State.marks`` holds tuples)
        self.need_int(card, node, f"'.{name}' needs a card")
        table = self.rules.prop_tables.get(name)
        if table is None:
            it = self.const("C", "instance_type", self.rules.instance_type)
            self.w.line(f"{it}[{card}]")
            return "None"
        value = self.store(f"{self.const('P', name, table)}[{card}]")
        if all(type(v) is tuple for v in table):
            self.shapes[value] = "tuple"
        for kind, of in (("int", int), ("str", str), ("bool", bool)):
            if all(type(v) is of for v in table):
                self.known(value, kind)
        return value

    def is_zone(self, value: str) -> bool:
        """Whether generated text is sure to be a zone's key: a local known as one, or a literal key."""
        if self.shapes.get(value) == "zone":
            return True
        return value[:1] in "'\"" and value[1:-1] in self.zone_keys and repr(value[1:-1]) == value

    def _items(self, value: str, copy: bool) -> str:
        """The items of a value as items_of sees them; a zone's own list when ``copy`` is False."""
        shape = self.shapes.get(value)
        if shape == "tuple" or shape == "numbers":
            return value
        if shape == "zone":
            return self.store(f"tuple(S.zones[{value}])" if copy else f"S.zones[{value}]")
        if not is_local(value):  # a constant: a zone key, none, a number
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

    def g_Where(self, node: n.Where, sc: Scope) -> str:
        source = self.ex(node.source, sc)
        items = self._items(source, copy=False)  # conditions never change zones
        out = self.tmp()
        it = self.tmp()
        numbers = self.holds_numbers(source)
        if numbers:
            self.known(it, "int")
        w = self.w
        w.line(f"{out} = []")
        w.line(f"S.steps += len({items})")  # each item visited is a step (see lang.work)
        self.check_steps(node)
        w.line(f"for {it} in {items}:")
        w.indent()
        cond = self.ex(node.cond, sc.with_it(it))
        w.line(f"if {cond}: {out}.append({it})")
        w.dedent()
        t = self.tuple(f"tuple({out})")
        if numbers:
            self.shapes[t] = "numbers"
        return t

    def holds_numbers(self, value: str) -> bool:
        """Whether generated text is sure to be a collection of whole numbers: a zone (cards are whole
        numbers), a built-in's tuple of them (cards or players), or what a ``where`` kept of either."""
        return self.is_zone(value) or self.shapes.get(value) == "numbers"


    def g_BinOp(self, node: n.BinOp, sc: Scope) -> str:
        a = self.ex(node.left, sc)
        b = self.ex(node.right, sc)
        t = self.tmp()
        w = self.w
        nc = self.node_const(node)
        op = node.op
        pyop = "//" if op == "/" else op
        ka, kb = self.kind(a), self.kind(b)

        def test(x: str, kx: str | None, want: str) -> str | None:
            # the test that x is a ``want``: "" when the writer knows it is, None when it knows it is not
            return f"type({x}) is {want}" if kx is None else "" if kx == want else None

        # (tests, lines, the type they give), in order; the last resort is _binop_slow
        branches: list[tuple[list[str | None], list[str], str]] = []
        text = [type(x) is n.Literal and type(x.value) is str and x.value not in self.zone_keys
                for x in (node.left, node.right)]
        if op == "+" and any(text):  # a text that is no zone's key, and something
            other, ko = (b, kb) if text[0] else (a, ka)
            branches.append(([test(other, ko, "str")], [f"{t} = {a} + {b}", f"if len({t}) > _MAX_TEXT: _too_long({nc})"],
                             "str"))
            branches.append(([test(other, ko, "int")], [f"{t} = {a} + str({b})" if text[0] else f"{t} = str({a}) + {b}"],
                             "str"))
        else:
            number = [f"if {b} == 0: _div_zero({nc})"] if op in "/%" else []
            number.append(f"{t} = {a} {pyop} {b}")
            if op == "*":  # repeated products grow without bound: numbers are capped
                number.append(f"if not -_MAX_NUMBER <= {t} <= _MAX_NUMBER: _too_big({nc})")
            branches.append(([test(a, ka, "int"), test(b, kb, "int")], number, "int"))
            if op == "+":  # two texts that are not both zones (zones would join their cards) concatenate
                branches.append(([test(a, ka, "str"), test(b, kb, "str"), f"not ({a} in S.zones and {b} in S.zones)"],
                                 [f"{t} = {a} + {b}", f"if len({t}) > _MAX_TEXT: _too_long({nc})"], "str"))
                # a text and a number: the number as text (a zone's key and a number: _binop_slow says no)
                branches.append(([test(a, ka, "str"), test(b, kb, "int"), f"{a} not in S.zones"],
                                 [f"{t} = {a} + str({b})"], "str"))
                branches.append(([test(a, ka, "int"), test(b, kb, "str"), f"{b} not in S.zones"],
                                 [f"{t} = str({a}) + {b}"], "str"))
        word = "if"
        for tests, lines, gives in branches:
            if None in tests:
                continue  # the writer knows a value is not of this branch's type
            cond = " and ".join(x for x in tests if x)
            if not cond:  # the writer knows this branch is taken
                if word == "if":
                    for line in lines:
                        w.line(line)
                    return self.known(t, gives)
                w.line("else:")
                for line in lines:
                    w.line("    " + line)
                return t
            w.line(f"{word} {cond}:")
            for line in lines:
                w.line("    " + line)
            word = "elif"
        kinds = f"{static_kind(node.left)!r}, {static_kind(node.right)!r}"
        if word == "if":  # no branch can be taken
            w.line(f"{t} = _binop_slow(ctx, {nc}, {a}, {b}, {kinds})")
            return t
        w.line("else:")
        w.line(f"    {t} = _binop_slow(ctx, {nc}, {a}, {b}, {kinds})")
        return t

    def g_Compare(self, node: n.Compare, sc: Scope) -> str:
        a = self.ex(node.left, sc)
        b = self.ex(node.right, sc)
        if node.op in ("==", "!="):
            return self.known(self.store(f"{a} {node.op} {b}"), "bool")
        if self.kind(a) == "int" and self.kind(b) == "int":  # two whole numbers always compare
            return self.known(self.store(f"{a} {node.op} {b}"), "bool")
        t = self.known(self.tmp(), "bool")
        w = self.w
        w.line("try:")  # an order of the language's values (numbers, texts, tuples of them) is a truth value
        w.line(f"    {t} = {a} {node.op} {b}")
        w.line("except TypeError:")
        w.line(f"    _cannot_compare({self.node_const(node)}, {a}, {b})")
        return t

    def g_Contains(self, node: n.Contains, sc: Scope) -> str:
        item = self.ex(node.item, sc)
        coll = self.ex(node.collection, sc)
        items = self._items(coll, copy=False)
        return self.known(self.store(f"{item} {'not in' if node.negate else 'in'} {items}"), "bool")

    def _short(self, node: Any, sc: Scope, on: str) -> str:
        a = self.ex(node.left, sc)
        t = self.known(self.store(a if self.kind(a) == "bool" else f"bool({a})"), "bool")
        self.w.line(f"if {on}{t}:")
        self.w.indent()
        b = self.ex(node.right, sc)
        self.w.line(f"{t} = {b if self.kind(b) == 'bool' else f'bool({b})'}")
        self.w.dedent()
        return t

    def g_And(self, node: n.And, sc: Scope) -> str:
        return self._short(node, sc, "")

    def g_Or(self, node: n.Or, sc: Scope) -> str:
        return self._short(node, sc, "not ")

    def g_Not(self, node: n.Not, sc: Scope) -> str:
        return self.known(self.store(f"not {self.ex(node.operand, sc)}"), "bool")

    def g_Neg(self, node: n.Neg, sc: Scope) -> str:
        v = self.ex(node.operand, sc)
        self.need_int(v, node, "'-' needs a number")
        return self.known(self.store(f"-{v}"), "int")

    def g_Seat(self, node: n.Seat, sc: Scope) -> str:
        p = self.ex(node.player, sc)
        self.need_int(p, node, "'left of'/'right of' needs a player")
        return self.known(self.store(f"({p} + {node.step}) % {self.rules.players}"), "int")

    def g_UserCall(self, node: n.UserCall, sc: Scope) -> str:
        func = self.compiler.functions[node.func]
        # a body of a few lines with no loop and no call is written where it is called (it nests at most
        # two levels deeper than the call, within Python's limits: see ``nesting``)
        inline = _cheap(func.body, _IN_LINE) and nesting(func.body, self.compiler.nests) <= 2
        fname = None if inline else self.user_function(node.func)
        you = sc.you if is_local(sc.you) else self.store(sc.you)
        this = sc.this if is_local(sc.this) else self.store(sc.this)
        args = [self.ex(a, sc) for a in node.args]
        params = func.params
        args = args[: len(params)] + ["None"] * (len(params) - len(args))
        self.w.line("S.steps += 1")  # each call is a step (``_spend`` written out: it runs in loops)
        self.check_steps(node)
        if fname is None:
            return self.ex(func.body, Scope(None, you, this, dict(zip(params, args))))
        t = self.store(f"{fname}(ctx, {you}, {this}{''.join(', ' + a for a in args)})")
        kind, shape = self.returns.get(node.func, (None, None))
        if kind is not None:
            self.known(t, kind)
        if shape is not None:
            self.shapes[t] = shape
        return t
