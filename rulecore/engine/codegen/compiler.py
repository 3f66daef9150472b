"""``Compiler``: per game, the function that runs each effect node: generated code for the
expressions, menus and blocks the game holds (written by ``CodeGen`` the first time each runs),
a closure (``Closures``) for anything else; and which statements can pause (``can_pause``).
"""

from __future__ import annotations

from typing import Any, Callable

from ...lang import nodes as n
from .closures import Closures
from .generated import CodeGen, Generated
from .nesting import MAX_STATEMENT, nesting

BlockFn = Callable[[Any, dict, int], None]  # a block function: (state, locals, pc)


class Compiler(Closures):
    """What ``Rules`` asks for a node's function (``compiler(node)``), a block's function
    (``block_fn``) or a menu's entries (``menus``); ``generate`` installs the generated code."""

    def __init__(
        self, functions: Any = None, simple: Any = None, procedures: Any = None, answers: Any = None,
        machine: Any = None,
    ) -> None:
        super().__init__(functions)
        self.simple = simple or {}  # statement class -> its handler, for statements that never pause
        self.procedures = procedures or {}  # the cardset's procedures: name -> Procedure
        # (state, event, player, passed) -> [(label, card)]: the cards answering an event, for menus
        self.answers = answers
        # what block functions call of the interpreter (see ``interpreter.driver.MACHINE``): "ran_away",
        # "drive", "choice_counts", "ask_choice", "offer"; "direct_depth", how many frames may run
        # inside one another's Python calls
        self.machine = machine or {}
        self._pauses: dict[int, bool] = {}  # id(statement) -> can_pause
        self.nests: dict[int, int] = {}  # id(node) -> how deeply its generated code nests (see ``nesting``)
        # id(Block), id(While) -> its generated frame function (see ``block_fn``)
        self.blocks: dict[int, BlockFn] = {}
        self.framed: frozenset[type] = frozenset({n.Block})  # the statements whose frames run as frame functions
        self.menus: dict[int, Callable[..., Any]] = {}  # id(Menu) -> its generated entries function (ctx, chooser)
        self.generated: list[Generated] = []

    def can_pause(self, node: Any) -> bool:
        """Whether running ``node`` may stop for a decision or needs the interpreter's frames.

        False for the statements in ``simple``, and for blocks, ifs, loops over them and calls
        of procedures whose bodies are all such statements; True for choices, menus, signals,
        turns, rounds, phases, 'use', 'break', 'end game', and any kind not known here; True also
        for a statement whose code would nest deeper than Python allows (``codegen.nesting``)."""
        key = id(node)
        known = self._pauses.get(key)
        if known is not None:
            return known
        self._pauses[key] = True  # while it is being worked out (a procedure calling itself)
        kind = type(node)
        if kind in self.simple:
            result = False
        elif nesting(node, self.nests) > MAX_STATEMENT:
            result = True  # run as frames: each of its blocks is written on its own
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
        """The generated function ``(state, E, pc)`` that runs the frame of ``block`` (a block, or a
        'while' that can pause) from position ``pc`` (see ``FrameWriter.block`` and ``loop``): written
        and compiled the first time it is asked for."""
        fn = self.blocks.get(id(block))
        if fn is None:
            fn = self.blocks[id(block)] = self.gen.function(("block", block))
            self._keep.append(block)
        return fn

    def generate(self, roots: list[Any], menus: list[Any], rules: Any, name: str) -> Generated:
        """Install generated functions for ``roots`` (see ``CodeGen``); each is written and compiled
        the first time it runs, so a game pays only for the effects it reaches."""
        gen = self.gen = CodeGen(self, rules, name)
        gen.simple = self.simple
        if hasattr(gen, "loop"):  # else the interpreter's ``h_while`` takes the frame of a 'while' that can pause
            self.framed = frozenset({n.Block, n.While})
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
