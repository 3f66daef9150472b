"""The code writer for blocks that can pause: ``FrameWriter`` writes a block whose statements can
stop for a decision as one *block function* ``xK(state, E, pc)`` for its frame ``(block, pc,
None, E)``.

The function is a chain of ``if pc <= K:`` sections, one per run of statements that never pause
(written out inline, ``StatementWriter``) and one per statement that can. Before a statement that
can pause, the frame is left exactly as the interpreter's ``h_block`` leaves it (``pc`` past the
statement, or popped when the statement is the last: tail position), and the statement's frame is
pushed; then the statement runs at once, in this Python call, instead of going back round the
interpreter's loop: a procedure call or an 'if' calls the block function of the body it enters, a
'while' its own frame function (``loop``: the interpreter's ``h_while`` with the body run at once and
the next turn taken in the same call), a choice or a menu is written out up to its question
(``ChoiceWriter``), and any other statement is
run by the interpreter's ``drive`` (its frame and those it pushes, until it is done or a question
is pending). When that returns with no question asked and this frame on top again, the block goes
on; otherwise it returns and the frames on the stack are what the interpreter would have left (so
a pending decision, clone, to_json and resample see the same frames). ``State.nested`` bounds the
nesting of these Python calls (past it the run loop takes over); each frame entered counts as a
step of the run.
"""

from __future__ import annotations

from typing import Any

from ...lang import nodes as n
from .choices import ChoiceWriter
from .nesting import MAX_STATEMENT
from .statements import StatementWriter
from .writer import Scope, effect_scope


class FrameWriter(StatementWriter, ChoiceWriter):
    """Writes the block functions of blocks that can pause (see the module's docstring)."""

    def frame_function(self, node: Any) -> tuple[str, int]:
        """Write the first lines of ``def xK(state, E, pc)``, the frame function of ``node``: its name,
        and the line that reads the step limit (for ``drop_unread_limit``)."""
        self._roots += 1
        name = f"x{self._roots}"
        w = self.w
        w.span = node.span
        w.line(f"def {name}(state, E, pc):")
        w.indent()
        w.line("S = state")
        limit = self.read_limit()
        w.line("ctx = S.ctx")
        w.line("ctx.env = E")
        w.line("stack = S.stack")
        return name, limit

    def block(self, block: Any) -> str:
        """Write ``def xK(state, E, pc)``, the frame of ``block`` run from ``pc`` (see the module docstring)."""
        name, limit = self.frame_function(block)
        w = self.w
        scope = effect_scope()
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
                w.once = {}  # statements that never pause: a variable is read once until one sets it
                while k < len(body) and not pauses(body[k]):
                    self.stmt(body[k], scope)
                    k += 1
                w.once = None
            w.dedent()
        w.span = block.span
        w.line("stack.pop()")
        self.drop_unread_limit(limit)
        w.dedent()
        return name

    def loop(self, node: n.While) -> str:
        """Write ``def xK(state, E, pc)``, the frame of a 'while' that can pause, its turn ``pc`` done:
        as the interpreter's ``h_while`` (its frame on top with the turns taken, the body's frame pushed
        above it), with each body run at once in this Python call and the next turn taken here when
        it ends with no question asked (its frame counted as a step of the run, as ``drive`` counts it)."""
        name, _ = self.frame_function(node)  # its limit is read: each turn counts its step
        w = self.w
        wnode = self.node_const(node)
        w.line("while True:")
        w.indent()
        cond = self.ex(node.cond, effect_scope())
        w.line(f"if not {cond}: break")
        w.span = node.span
        w.line(f"if pc >= S.rules.loop_limit: _while_limit({wnode}, pc)")
        w.line("pc += 1")
        frame = self.tmp()
        w.line(f"{frame} = ({wnode}, pc, None, E)")
        w.line(f"stack[-1] = {frame}")
        self.enter(node.body, "E")
        w.line(f"if S._asking is not None or stack[-1] is not {frame}: return")
        w.line("ctx.env = E")
        w.line("S.steps += 1")  # the loop's frame is on top again: a step, as ``drive`` handling it would count
        w.line("if S.steps > SL or len(stack) > S.game.depth_limit: "
               f"{self.const('Q', 'ran_away', self.compiler.machine['ran_away'])}(S, {frame}, S.steps > SL)")
        w.dedent()
        w.line("stack.pop()")
        w.dedent()
        return name

    def pausing(self, stmt: Any, bnode: str, k: int, tail: bool, sc: Scope) -> None:
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
            w.line(f"if S._asking is not None or not stack or stack[-1] is not {frame}: return")
            w.line("ctx.env = E")

    def run_pausing(self, stmt: Any, sc: Scope) -> None:
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
            if stmt.result is None:
                self.enter(proc.body, env)
                return
            # 'let x = call ...': the call's frame waits under the body, as the interpreter's h_call
            w.line(f'{env}["$returns"] = True')
            waiting = self.tmp()
            w.line(f"{waiting} = ({self.node_const(stmt)}, 1, None, E)")
            w.line(f"stack.append({waiting})")
            self.count_frame()
            self.enter(proc.body, env)
            w.line(f"if S._asking is None and stack and stack[-1] is {waiting}:")  # ended without 'return'
            w.line(f"    E[{stmt.result!r}] = None")
            w.line("    stack.pop()")
        elif kind is n.If and len(stmt.branches) > MAX_STATEMENT:
            self.drive(stmt)  # each elif would nest one level deeper: the interpreter picks the branch
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
        elif kind is n.While and n.While in self.compiler.framed:  # its frame function run at once, as a block's
            self.enter(stmt, "E")
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
        from here (``interpreter.driver.drive``) until it is done or a question is pending."""
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
        w.line("if S.steps > SL or len(stack) > S.game.depth_limit: "
               f"{self.const('Q', 'ran_away', self.compiler.machine['ran_away'])}(S, stack[-1], S.steps > SL)")

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
