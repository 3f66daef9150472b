"""The code writer for questions: ``ChoiceWriter`` writes a menu's entries function ``mK(ctx,
chooser)`` (``menu``) and, for a block function, the start of a choice or a menu up to its
question (``choose``, ``offer``), which the interpreter then asks.

A menu of static and dynamic options becomes one function: a loop per option source with its
condition and label inlined, labels de-duplicated through a dict, in the interpreter's order. A
menu pass changes nothing, so user functions without arguments that only read are worked out once
per pass (``ctx.memo``, see ``ExpressionWriter.user_function``).
"""

from __future__ import annotations

from typing import Any

from ...lang import nodes as n
from .calls import CallWriter
from .writer import Scope


class ChoiceWriter(CallWriter):
    """Writes menus' entries and the questions of choices and menus."""

    def menu(self, node: n.Menu) -> str:
        """Write ``def mK(ctx, chooser)``: the (label, item index, value) entries of a menu of static and
        dynamic options, in the interpreter's order, labels de-duplicated through a dict."""
        self._roots += 1
        name = f"m{self._roots}"
        w = self.w
        w.span = node.span
        w.line(f"def {name}(ctx, chooser, enough=0):")
        w.indent()
        w.line("S = ctx.state")
        w.line("E = ctx.env")
        limit = self.read_limit()
        at = len(w.lines)
        scope = self.seat_locals()
        w.line("out = {}")
        # a menu pass changes nothing, so reads without arguments are kept for the pass
        w.line("ctx.memo = {}")
        w.line("try:")
        w.indent()
        w.line("pass")
        w.once = {}  # nothing changes the locals ``E`` of a menu pass: each variable is read once
        for idx, item in enumerate(node.items):
            w.span = item.span
            if isinstance(item, n.StaticOption):
                if item.cond is None:
                    self._entry(f"{item.label!r} not in out", repr(item.label), idx, "None")
                    continue
                cond = self.ex(item.cond, scope)
                self._entry(f"{cond} and {item.label!r} not in out", repr(item.label), idx, "None")
                continue
            if isinstance(item, n.AnswerOption):  # the chooser's cards that answer the event
                answers = self.const("A", "answers", self.compiler.answers)
                passed = "{" + ", ".join(f"{k!r}: E.get({k!r})" for k in item.passes) + "}"
                label, card = self.tmp(), self.tmp()
                w.line(f"for {label}, {card} in {answers}(S, {item.event!r}, chooser, {passed}):")
                w.indent()
                self._entry(f"{label} not in out", label, idx, card)
                w.dedent()
                continue
            # a dynamic option
            source = self.ex(item.source, scope)
            items = self._items(source, copy=False)  # conditions and labels never change zones
            value = self.tmp()
            if self.holds_numbers(source):
                self.known(value, "int")
            inner = scope.with_name(item.var, value)
            w.line(f"for {value} in {items}:")
            w.indent()
            if item.cond is not None:
                cond = self.ex(item.cond, inner)
                w.line(f"if {cond}:")
                w.indent()
            if item.label is not None:
                text = self.ex(item.label, inner)
                label = text if self.kind(text) == "str" and text.isidentifier() else self.store(f"str({text})")
            elif item.kind is not None:
                label = self.store(f"str({self.const('R', 'label_for', self.rules.label_for)}({item.kind!r}, {value}))")
            else:
                label = self.store(f"str({self.const('R', 'label_value', self.rules.label_value)}({value}))")
            self._entry(f"{label} not in out", label, idx, value)
            if item.cond is not None:
                w.dedent()
            w.dedent()
        w.once = None
        w.dedent()
        w.line("finally:")
        w.line("    ctx.memo = None")
        w.line("return tuple(out.values())")
        self.drop_unread_seat(at)
        self.drop_unread_limit(limit)
        w.dedent()
        return name

    def _entry(self, test: str, label: str, idx: int, value: str) -> None:
        """Write: if ``test``, add the entry (label, item index, value); with ``enough`` entries (a
        look-ahead asking only whether the menu asks, see ``offer``) return None at once."""
        w = self.w
        w.line(f"if {test}:")
        w.line(f"    out[{label}] = ({label}, {idx}, {value})")
        w.line("    if len(out) == enough: return None")

    def chooser(self, node: Any, sc: Scope) -> str:
        """Who makes the choice ``node``: its 'by', else 'you' (as the interpreter's ``_chooser``)."""
        who = self.ex(node.chooser, sc) if node.chooser is not None else self.store(sc.you)
        self.need_int(who, node, "a choice needs a player to make it", f"0 <= {who} < {self.rules.players}")
        return who

    def choose(self, node: n.Choose, sc: Scope) -> None:
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

    def offer(self, node: n.Menu, sc: Scope) -> None:
        """Write a menu (its frame pushed): its entries (the menu's generated function), then ``offer``."""
        w = self.w
        who = self.chooser(node, sc)
        menus = self.const("C", "menus", self.compiler.menus)
        w.line("ctx.env = E")
        # in a look-ahead, only as far as shows that the menu asks (two options, or one where it is
        # asked 'always'): its options are built when the question is read (``wait_unbuilt``)
        steps, entries = self.tmp(), self.tmp()
        w.line(f"{steps} = S.steps")
        w.line(f"{entries} = {menus}[{id(node)}](ctx, {who}, {1 if node.always else 2} if S.looking_ahead else 0)")
        w.line(f"if {entries} is None: "
               f"{self.const('Q', 'wait_unbuilt', self.compiler.machine['wait_unbuilt'])}"
               f"(S, {self.node_const(node)}, E, {who}, {steps})")
        w.line("else:")
        w.line(f"    if not {entries}: _no_option({self.node_const(node)})")
        w.line(f"    {self.const('Q', 'offer', self.compiler.machine['offer'])}(S, {self.node_const(node)}, E, {who}, {entries})")
