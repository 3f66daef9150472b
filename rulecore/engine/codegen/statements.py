"""The code writer for statements that never pause (``Compiler.can_pause`` is False for them):
``StatementWriter`` writes each as straight-line code on the effect's locals ``E`` (``stmt`` and
its ``s_`` method per statement kind), ifs, loops and procedure calls made only of such statements
included (a procedure body becomes a run function ``bK(state, E)``, ``block_function``).

Loops count their turns against the run's step limit, as the interpreter does. A statement kind
with no ``s_`` method here calls its interpreter handler (``Compiler.simple``), so a statement
added to the language keeps working before anyone teaches the writer about it.
"""

from __future__ import annotations

from typing import Any

from ...lang import nodes as n
from ...lang.work import MAX_SAID
from .calls import CallWriter
from .writer import Lines, Scope, effect_scope


# statements whose interpreter handler sets no variable of the effect's locals (``sort`` sets ``$it``
# while it runs, and ``it`` is never read once)
_SET_NO_VARIABLE = frozenset({n.SetVar, n.CounterOp, n.Move, n.Shuffle, n.Sort, n.Rotate, n.Flip, n.Fail, n.Mark,
                              n.Reveal, n.Hide, n.Look, n.ExtraTurn, n.Say})


class StatementWriter(CallWriter):
    """Writes statements that never pause."""

    simple: dict[type, Any]  # statement kind -> its interpreter handler (the fallback), set by Compiler

    def stmt(self, stmt: Any, sc: Scope) -> None:
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
            if type(stmt) not in _SET_NO_VARIABLE:
                self.forget()  # it may set any variable
        w.span = saved

    def forget(self, name: str | None = None) -> None:
        """A statement just written sets variable ``name`` (None: it may set any): read it again after."""
        once = self.w.once
        if once is not None:
            if name is None:
                once.clear()
            else:
                once.pop(name, None)

    def set_to(self, name: str, value: str) -> None:
        """A line just written set variable ``name`` to ``value`` (a local, a literal or a constant of the
        module): the lines after it in the block read ``value``."""
        once = self.w.once
        if once is not None:
            once[name] = (value, self.w.level)

    def body(self, block: Any, sc: Scope) -> None:
        """The statements of a block, indented under the line written before (never empty)."""
        self.w.indent()
        self.w.line("pass")
        for stmt in block.body:
            self.stmt(stmt, sc)
        self.w.dedent()

    def s_Block(self, node: n.Block, sc: Scope) -> None:
        self.w.line("if True:")
        self.body(node, sc)

    def s_If(self, node: n.If, sc: Scope) -> None:
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

    def s_ForEach(self, node: n.ForEach, sc: Scope) -> None:
        items = self._items(self.ex(node.items, sc), copy=True)  # the body may move the cards
        item = self.tmp()
        self.count_steps(f"len({items})", node)
        self.forget()  # a turn of the loop may set a variable read at the start of the next one
        self.w.line(f"for {item} in {items}:")
        self.w.indent()
        self.w.line(f"E[{node.var!r}] = {item}")
        self.set_to(node.var, item)
        for stmt in node.body.body:
            self.stmt(stmt, sc)
        self.w.dedent()

    def count_steps(self, turns: str, node: Any) -> None:
        """A loop is about to turn ``turns`` more times: count them against the run's step limit."""
        self.w.line(f"S.steps += {turns}")
        self.check_steps(node)

    def s_Repeat(self, node: n.Repeat, sc: Scope) -> None:
        times = self.ex(node.count, sc)
        self.need_int(times, node, "'repeat' needs a number")
        self.count_steps(f"max({times}, 0)", node)
        self.forget()  # a turn of the loop may set a variable read at the start of the next one
        self.w.line(f"for _ in range({times}):")
        self.body(node.body, sc)

    def s_While(self, node: n.While, sc: Scope) -> None:
        w = self.w
        k = self.tmp()
        w.line(f"{k} = 0")
        self.forget()  # a turn of the loop may set a variable read at the start of the next one
        w.line("while True:")
        w.indent()
        c = self.ex(node.cond, sc)
        w.line(f"if not {c}: break")
        w.line(f"if {k} >= state.rules.loop_limit: _while_limit({self.node_const(node)}, {k})")
        w.line(f"{k} += 1")
        self.count_steps("1", node)
        w.dedent()
        self.body(node.body, sc)

    def s_CallProc(self, node: n.CallProc, sc: Scope) -> None:
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
        if node.result is not None:  # a body that never pauses has no 'return' (it pauses): none
            w.line(f"E[{node.result!r}] = None")
            self.forget(node.result)

    def block_function(self, block: Any) -> str:
        """The name of a generated run function for a whole block that never pauses (written once)."""
        name = self.block_fns.get(id(block))
        if name is not None:
            return name
        self._roots += 1
        name = self.block_fns[id(block)] = f"b{self._roots}"
        outer, self.w = self.w, Lines()
        w = self.w
        w.span = block.span
        w.line(f"def {name}(state, E):")
        w.indent()
        w.line("ctx = state.ctx")
        w.line("ctx.env = E")
        w.line("S = state")
        limit = self.read_limit()
        w.dedent()
        w.once = {}  # a variable is read once until a statement sets it (``forget``)
        self.body(block, effect_scope())
        self.drop_unread_limit(limit)
        inner, self.w = self.w, outer
        self.pending.append(inner)
        return name

    def s_Let(self, node: n.Let, sc: Scope) -> None:
        value = self.ex(node.value, sc)
        self.w.line(f"E[{node.name!r}] = {value}")
        self.forget(node.name)
        self.set_to(node.name, value)

    def s_SetVar(self, node: n.SetVar, sc: Scope) -> None:
        value = self.ex(node.value, sc)
        self.w.line(f"S.set_var({node.name!r}, {value})")

    def s_CounterOp(self, node: n.CounterOp, sc: Scope) -> None:
        w = self.w
        nc = self.node_const(node)
        value = self.ex(node.value, sc)
        self.need_int(value, node, f"'{node.op}' needs a number")
        target = node.target
        idx = "0"
        if target.owner is not None:
            w.span = getattr(target.owner, "span", w.span)
            idx = self.ex(target.owner, sc)
            self.need_int(idx, node, f"'{target.counter} of ...' needs a player", f"0 <= {idx} < {self.rules.players}")
            w.span = node.span
        w.line(f"S.change_counter({target.counter!r}, {idx}, {node.op!r}, {value})")

    def s_Mark(self, node: n.Mark, sc: Scope) -> None:
        w = self.w
        target = self.ex(node.target, sc)
        mark = self.ex(node.mark, sc)
        if self.kind(mark) != "str":
            self.need(f"type({mark}) is not str", node, "a mark is a text", mark)
        if node.target_kind == "player":
            self.need_int(target, node, "'mark player' needs a player", f"0 <= {target} < {self.rules.players}")
            w.line(f"S.mark_player({target}, {mark}, {node.remove!r})")
            return
        cards = self.cards(target, node, "'mark card' ")
        card = self.tmp()
        w.line(f"for {card} in {cards}: S.mark_card({card}, {mark}, {node.remove!r})")

    def cards(self, value: str, node: Any, what: str) -> str:
        """The cards of a value as ``cards_of`` gives them; a value that is not cards fails as ``what ...``."""
        if self.shapes.get(value) in ("tuple", "numbers"):  # a tuple: taken as it is, as the first test below would
            return value
        if self.kind(value) == "int":  # a card
            return self.tuple(f"({value},)")
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

    def s_Move(self, node: n.Move, sc: Scope) -> None:
        w = self.w
        cards = self.ex(node.cards, sc)
        dest = self.ex(node.dest, sc)
        if not self.is_zone(dest):
            self.need(f"type({dest}) is not str or {dest} not in S.zones", node, "'move ... to' needs a zone", dest)
        ids = self.cards(cards, node, "'move' ")
        w.line(f"if {ids}: S.move_by_rule({self.node_const(node)}, {ids}, {dest}, E)")

    def s_Flip(self, node: n.Flip, sc: Scope) -> None:
        ids = self.cards(self.ex(node.cards, sc), node, "'turn ... face' ")
        self.w.line(f"S.flip({ids}, {node.face == 'up'!r})")

    def s_Say(self, node: n.Say, sc: Scope) -> None:
        text = self.ex(node.text, sc)
        said = self.const("Q", "said", self.compiler.machine["said"])
        call = f"{said}(S, {self.node_const(node)}, {text}, E)"
        if node.to is not None:
            self.w.line(call)
            return
        # nothing to record, and a text that short (4 bytes a character at most) is never too long
        odd = "" if self.kind(text) == "str" else f"type({text}) is not str or "
        self.w.line(f"if S.record_events or {odd}len({text}) > {MAX_SAID // 4}: {call}")
