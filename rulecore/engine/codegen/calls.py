"""The code writer for calls of the built-in functions: ``CallWriter.g_Call``.

A call is the built-in's function called from the generated code (``I...`` constants), inside a
``try`` that turns what it raises into the ``RuleError`` of the call (``_call_failed``). Where the
writer knows more, it writes less, always with the same result and, where the call can fail, the
same error:

- a call that reads only the game's rules, on constant arguments (``split(option("mats"))``), is
  worked out once, when it is written, and becomes a constant (``_fold``); one that would fail is
  written as a call, so that it fails where it runs;
- the built-ins that read a table (``prop``, ``shared_props``, ``usable``, ``zone_of``, ``owner``,
  ``player_name``) read it in line when the argument is what the table is keyed by, and those that
  take numbers (``min``, ``max``, ``item`` of a tuple, ``top`` of a zone) work in line on whole numbers;
  otherwise they call the built-in, which then works out the same value or the same error;
- ``count``, ``first``, ``if_else``, ``sum`` (a loop) and ``in_zones`` of zone names are written as the
  Python they amount to;
- a call that reads zones only is kept for the pass in a pass's memo (a menu's, every seat's
  heuristic at once).
"""

from __future__ import annotations

from typing import Any, Callable

from ...lang import nodes as n
from ...lang.functions import FUNCTIONS
from ...lang.work import PER_ITEM_CALL, adds_numbers
from .expressions import ExpressionWriter
from .writer import Scope, is_local

# built-ins that read nothing but their arguments and the game's rules: on constant arguments, worked
# out when written
_FOLDED = frozenset({"option", "split", "player_name", "min", "max", "abs"})
_SIMPLE = (int, str, bool, type(None))


def _frozen(value: Any) -> bool:
    """Whether a value can be a constant of the generated code: a number, text, truth value, none, or
    a tuple of them (what no effect can change)."""
    return type(value) in _SIMPLE or (type(value) is tuple and all(_frozen(v) for v in value))


class _RulesOnly:
    """What a folded built-in is given as ``ctx`` when it is written: the rules, and no state."""

    __slots__ = ("rules",)

    def __init__(self, rules: Any) -> None:
        self.rules = rules


class CallWriter(ExpressionWriter):
    """Writes calls of the built-in functions (see the module's docstring)."""

    def g_Call(self, node: n.Call, sc: Scope) -> str:
        if FUNCTIONS[node.func].per_item:
            return self._per_item(node, sc)
        args = [self.ex(a, sc) for a in node.args]
        if node.func in _FOLDED:
            folded = self._fold(node, args)
            if folded is not None:
                return folded
        special: Callable[[n.Call, list[str]], str | None] | None = getattr(self, "_b_" + node.func, None)
        if special is not None:
            t = special(node, args)
            if t is not None:
                return t
        return self._call(node, args)

    # ---- the general call
    def _call(self, node: n.Call, args: list[str], t: str | None = None) -> str:
        """Write the built-in's call in a ``try`` (into ``t`` when given); what its annotation says it
        gives is noted."""
        sig = FUNCTIONS[node.func]
        w = self.w
        t = t or self.tmp()
        impl = self.const("I", node.func, sig.impl)
        values = "".join(", " + a for a in args)
        w.line("try:")
        if args and node.func != "random" and all(self.is_zone(a) for a in args):
            # a read of zones only: worked out once per pass that keeps a memo (a menu pass, every
            # seat's heuristic at once), where no zone changes; the key is the built-in and its zones
            key = f"({node.func!r}{values},)"
            w.line("    memo = ctx.memo")
            w.line(f"    {t} = _MISSING if memo is None else memo.get({key}, _MISSING)")
            w.line(f"    if {t} is _MISSING:")
            w.line(f"        {t} = {impl}(ctx{values})")
            w.line(f"        if memo is not None: memo[{key}] = {t}")
        else:
            w.line(f"    {t} = {impl}(ctx{values})")
        w.line("except (TypeError, ValueError, KeyError, IndexError) as exc:")
        w.line(f"    _call_failed({self.node_const(node)}, ({''.join(a + ', ' for a in args)}), exc)")
        returns = str(getattr(sig.impl, "__annotations__", {}).get("return", ""))
        if returns.startswith("tuple"):  # the built-in says (and mypy checks) that it gives a collection
            self.shapes[t] = "numbers" if returns == "tuple[int, ...]" else "tuple"
        elif returns in ("int", "bool", "str"):  # ... or one value of this type
            self.known(t, returns)
        return t

    def _else_call(self, node: n.Call, args: list[str], t: str) -> None:
        """Write ``else:`` and the general call into ``t`` under it (after an ``if`` that read a table)."""
        w = self.w
        w.line("else:")
        w.indent()
        self._call(node, args, t)
        w.dedent()

    def _in_line(self, node: n.Call, args: list[str], test: str, value: str, kind: str | None = None) -> str:
        """Write ``if TEST: t = VALUE`` and, else, the general call into ``t``; ``kind``: what ``t`` holds
        both ways."""
        t = self.tmp()
        self.w.line(f"if {test}: {t} = {value}")
        self._else_call(node, args, t)
        return self.known(t, kind) if kind is not None else t

    def _per_item(self, node: n.Call, sc: Scope) -> str:
        """A per-item built-in (``highest``, ...): its value of ``it`` as a local function; ``sum`` a loop."""
        coll = self.ex(node.args[0], sc)
        if node.func == "sum":
            return self._sum(node, coll, sc)
        sig = FUNCTIONS[node.func]
        nc = self.node_const(node)
        w = self.w
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
        items = self.tmp()
        w.line("try:")
        w.line(f"    {items} = _items_of(ctx, {coll})")
        w.line(f"    _spend({nc}, S, {PER_ITEM_CALL} + len({items}))")  # each item visited is a step
        w.line(f"    {t} = {impl}(ctx, {items}, {key})")
        w.line("except TypeError as exc:")
        w.line(f"    _failed({nc}, {node.func + '(): '!r}, exc)")
        return t

    def _sum(self, node: n.Call, coll: str, sc: Scope) -> str:
        """``sum(collection, value of it)`` as a loop: every value is worked out (and its steps counted)
        before a value that is no number fails the call, as in the built-in, with its error."""
        nc = self.node_const(node)
        w = self.w
        items, total, it = self.tmp(), self.known(self.tmp(), "int"), self.tmp()
        w.line("try:")
        w.indent()
        known = self.shapes.get(coll) in ("tuple", "numbers") or self.is_zone(coll)  # (no value changes a zone)
        w.line(f"{items} = {self._items(coll, copy=False) if known else f'_items_of(ctx, {coll})'}")
        w.line(f"_spend({nc}, S, {PER_ITEM_CALL} + len({items}))")  # each item visited is a step
        w.line(f"{total} = 0")
        if self.holds_numbers(coll):
            self.known(it, "int")
        inner = sc.with_it(it)
        at, odd = self.tmp(), self.tmp()
        w.line(f"{odd} = None")
        loop = len(w.lines)
        w.line(f"for {at}, {it} in enumerate({items}):")
        w.indent()
        value = self.ex(node.args[1], inner)
        if self.kind(value) in ("int", "bool"):  # no value can fail: no count of the items, no odd one
            w.line(f"{total} += {value}")
            w.lines[loop] = w.lines[loop].replace(f"{at}, {it} in enumerate({items})", f"{it} in {items}")
            del w.lines[loop - 1], w.spans[loop - 1]
            w.dedent()
        else:
            w.line(f"if type({value}) is int or type({value}) is bool: {total} += {value}")
            w.line(f"elif {odd} is None: {odd} = ({at}, {value})")
            w.dedent()
            w.line(f"if {odd} is not None: raise {self.const('C', 'adds_numbers', adds_numbers)}('sum', *{odd})")
        w.dedent()
        w.line("except TypeError as exc:")
        w.line(f"    _failed({nc}, 'sum(): ', exc)")
        return total

    # ---- worked out when written
    def _fold(self, node: n.Call, args: list[str]) -> str | None:
        """The built-in's value on constant arguments, as a constant (None: not every argument is one,
        or the call would fail, or its value is no constant)."""
        values = []
        for arg, text in zip(node.args, args):
            if type(arg) is n.Literal and type(arg.value) in _SIMPLE:
                values.append(arg.value)
            elif text in self.folded:
                values.append(self.folded[text])
            else:
                return None
        try:
            value = FUNCTIONS[node.func].impl(_RulesOnly(self.rules), *values)
        except Exception:  # it fails where it runs, with its error there
            return None
        if not _frozen(value):
            return None
        t = self.store(self.const("C", ("folded", node.func, tuple(values)), value))
        self.folded[t] = value
        if type(value) is tuple:
            self.shapes[t] = "numbers" if all(type(v) is int for v in value) else "tuple"
        elif type(value) in (int, bool, str):
            self.known(t, type(value).__name__)
        return t

    # ---- built-ins written in line (each returns None to leave it to the general call)
    def _b_count(self, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 1:
            return None
        a = args[0]
        if self.is_zone(a):
            return self.known(self.store(f"len(S.zones[{a}])"), "int")
        if a in self.shapes:
            return self.known(self.store(f"len({a})" if self.shapes[a] != "zone" else f"len(S.zones[{a}])"), "int")
        if not is_local(a):
            return None
        t = self.tmp()
        w = self.w
        w.line(f"if type({a}) is str: {t} = len(S.zones[{a}])")
        w.line(f"elif {a} is None: {t} = 0")
        w.line(f"elif isinstance({a}, (tuple, list)): {t} = len({a})")
        w.line(f"else: {t} = 1")
        return self.known(t, "int")

    def _b_shared_props(self, node: n.Call, args: list[str]) -> str | None:
        props = node.args[2:]
        if len(args) < 3 or not all(type(p) is n.Literal and p.value in self.rules.prop_tables for p in props):
            return None
        a, b = args[0], args[1]
        t = self.tmp()
        tables = (self.const("P", p.value, self.rules.prop_tables[p.value])  # type: ignore[attr-defined]
                  for p in props)
        terms = " + ".join(f"({tab}[{a}] == {tab}[{b}])" for tab in tables)
        n_cards = len(self.rules.instance_type)
        w = self.w
        w.line(f"if type({a}) is not int or type({b}) is not int: {t} = 0")
        w.line(f"elif 0 <= {a} < {n_cards} and 0 <= {b} < {n_cards}: {t} = 0 + {terms}")
        self._else_call(node, args, t)
        return t

    def _b_prop(self, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 2:
            return None
        card, prop = args
        tables = self.const("C", "prop_tables", self.rules.prop_tables)
        return self._in_line(node, args, f"type({card}) is int and 0 <= {card} < {len(self.rules.instance_type)} "
                             f"and type({prop}) is str and {prop} in {tables}", f"{tables}[{prop}][{card}]")

    def _b_usable(self, node: n.Call, args: list[str]) -> str | None:
        ability = node.args[1]
        if type(ability) is not n.Literal or type(ability.value) is not str:
            return None
        # per card: 0 no such ability, 1 an ability without 'when', 2 one whose 'when' must be asked
        defs, itype = self.rules.defs, self.rules.instance_type
        kinds = tuple(
            0 if (a := defs[t].abilities.get(ability.value)) is None else 1 if a.when is None else 2 for t in itype
        )
        table = self.const("U", ability.value, kinds)
        card = args[0]
        return self._in_line(node, args, f"type({card}) is int and 0 <= {card} < {len(kinds)} and {table}[{card}] != 2",
                             f"{table}[{card}] == 1", "bool")  # (``_usable`` says bool)

    def _b_zone_of(self, node: n.Call, args: list[str]) -> str | None:
        card = args[0]
        return self._in_line(node, args, f"type({card}) is int and 0 <= {card} < {len(self.rules.instance_type)}",
                             f"S.where[{card}]", "str")  # (``_zone_of`` says str)

    def _b_owner(self, node: n.Call, args: list[str]) -> str | None:
        zone = args[0]
        owners = self.const("C", "zone_owner", self.rules.zone_owner)
        return self._in_line(node, args, f"type({zone}) is str and {zone} in {owners}", f"{owners}[{zone}]")

    def _b_in_zones(self, node: n.Call, args: list[str]) -> str | None:
        names = [a.value for a in node.args if type(a) is n.Literal]
        if len(names) != len(args) or not all(type(v) is str and v in self.rules.zone_keys for v in names):
            return None
        keys = [k for v in names for k in self.rules.zone_keys[v]]
        t = self.tmp()
        w = self.w
        w.line(f"{t} = ({''.join(f'*S.zones[{k!r}], ' for k in keys)})")
        # each card is a step, as in the built-in; past the limit, the built-in itself says so
        w.line(f"if S.steps + len({t}) <= S.game.step_limit: S.steps += len({t})")
        self._else_call(node, args, t)
        self.shapes[t] = "numbers"
        return t

    def _b_if_else(self, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 3:
            return None
        cond, a, b = args  # (both values are worked out, as the built-in's)
        t = self.store(f"{a} if {cond} else {b}")
        kind = self.kind(a)
        if kind is not None and kind == self.kind(b):
            self.known(t, kind)
        if a in self.shapes and self.shapes[a] == self.shapes.get(b):
            self.shapes[t] = self.shapes[a]
        return t

    def _b_min(self, node: n.Call, args: list[str]) -> str | None:
        if len(args) < 2:
            return None
        unsure = [a for a in args if self.kind(a) != "int"]
        value = f"{node.func}({', '.join(args)})"  # whole numbers always compare
        if not unsure:
            return self.known(self.store(value), "int")
        return self._in_line(node, args, " and ".join(f"type({a}) is int" for a in unsure), value)

    _b_max = _b_min

    def _b_item(self, node: n.Call, args: list[str]) -> str | None:
        coll, index = args
        if self.shapes.get(coll) not in ("tuple", "numbers"):
            return None
        return self._in_line(node, args, f"type({index}) is int",
                             f"{coll}[{index}] if -len({coll}) <= {index} < len({coll}) else None")

    def _b_player_name(self, node: n.Call, args: list[str]) -> str | None:
        names = self.const("C", "player_names", tuple(map(self.rules.player_label, range(self.rules.players))))
        who = args[0]
        return self._in_line(node, args, f"type({who}) is int and 0 <= {who} < {self.rules.players}",
                             f"{names}[{who}]", "str")  # (``_player_name`` says str)

    def _b_top(self, node: n.Call, args: list[str]) -> str | None:
        zone = args[0]
        count = args[1] if len(args) == 2 else "1"
        if not (self.is_zone(zone) or self.shapes.get(zone) == "zone"):
            return None
        t = self._in_line(node, args, f"type({count}) is int",
                          f"tuple(S.zones[{zone}][:{count} if {count} > 0 else 0])")
        self.shapes[t] = "numbers"
        return t

    def _b_first(self, node: n.Call, args: list[str]) -> str | None:
        if len(args) != 1:
            return None
        items = self._items(args[0], copy=False)
        return self.store(f"{items}[0] if {items} else None")
