"""Compiled execution: effect trees compiled per game to Python source, one piece at a time,
``compile()``d the first time the effect runs and kept in the game's ``Rules``.

What each module holds, in the order they build on one another:

- ``runtime``: what the compiled code calls while a game runs (error and slow paths, ``RUNTIME``).
- ``closures``: ``Closures``, expression nodes -> Python closures (the fallback).
- ``writer``: the base of the code writer: ``Lines`` (lines, indentation and, per line, the span
  of the node it was written for), ``Scope`` and ``Writer`` (constants, temporaries).
- ``expressions``: ``ExpressionWriter``, expressions as straight-line code.
- ``calls``: ``CallWriter``, calls of the built-ins (some worked out when written, some read in line).
- ``statements``: ``StatementWriter``, statements that never pause.
- ``choices``: ``ChoiceWriter``, menus' entries and the questions of choices and menus.
- ``frames``: ``FrameWriter``, block functions for blocks that can pause.
- ``generated``: ``CodeGen`` (all of the writer) compiles one root at a time into the game's
  ``Generated`` pieces.
- ``compiler``: ``Compiler``, what ``Rules`` asks: the function of each node, ``can_pause``.

How effects run
---------------
- **Expressions** become straight-line code on Python locals: each value is stored in a
  temporary before the next is worked out, so random draws and errors come in the closures'
  order. ``it`` of a ``where`` or a per-item function is a loop variable, a user function is a
  Python function with its parameters (and ``you``/``this``) as arguments, zone keys and
  per-property card tables (``Rules.prop_tables``) are module constants, ``count``/``first``/
  ``in``/``where`` read a zone's list without copying it, ``usable``, ``prop`` and
  ``shared_props`` read tables, and arithmetic on two whole numbers is plain Python.
- **What the writer is sure of** is not checked again: the Python type of what it wrote
  (``Writer.kinds``: ``len``, counters, comparisons, cards of a zone or of a built-in's tuple of
  whole numbers, text joined to text, built-ins' annotated results), what a check made sure of,
  for the lines after it in its block (``Lines.facts``: a card's type, an owner in range), and a
  variable's value, read once in a root, a menu or a run of statements until a statement may set
  it (``Lines.once``, ``StatementWriter.forget``). Every check that can fail is still written
  where it can fail, so errors are the same; the step limit is read once per function (``SL``).
- **Menus** of static and dynamic options become one function per menu: a loop per option
  source with its condition and label inlined, labels de-duplicated through a dict. A menu
  pass changes nothing, so user functions without arguments that only read are worked out once
  per pass (``Ctx.memo``), unless working one out again costs less than looking it up (no loop,
  no call in it: ``expressions._cheap``).
- **Statements**: ``Compiler.can_pause`` marks what may stop for a decision (choices, menus,
  signals, turns, rounds, phases, ``use``, ``break``, ``end game``, and any statement kind it
  does not know). Everything else -- plain statements and the ifs, loops and procedure calls
  made only of them -- runs as generated straight-line code. Each block runs as one generated
  *block function* ``(state, locals, pc)``: ``if pc <= K`` sections, plain statements inline;
  before a statement that can pause it leaves its frame as the interpreter would (pc past the
  statement, or popped in tail position), pushes the statement's frame and runs it in the same
  Python call (procedure calls and ifs through the entered block's function, choices and menus
  written inline up to the question, anything else through its interpreter handler), going on
  when it comes back with no question pending. A 'while' that can pause has a *frame function*
  of its own, in the same shape (``FrameWriter.loop``): it tests the condition, runs the body's
  block function and takes the next turn in the same call, also when the run loop resumes it
  after a decision. The frames ``(node, pc, data, env)`` on the
  stack at a decision are the interpreter's, so ``clone``, ``to_json``/``load_state``,
  ``replay``, ``resample``, sealed ``simultaneously`` parts and ``State.arrange`` work exactly.
- **Fallbacks**: an expression kind the writer does not know is compiled by the closure
  compiler (``Compiler.closure``) and called from the generated code; a statement that never
  pauses but that the writer does not know calls its interpreter handler (``Compiler.simple``).
  New statements added to the language keep working before anyone teaches the writer about them.
- **Errors**: a ``RuleError`` raised by generated code carries its node's span; any other
  Python error is turned into a ``RuleError`` at the span of the generated line that raised it
  (``Generated.span_of_traceback``), so it names the card file, line and column.

May import: rulecore.lang, rulecore.errors; nothing else of the engine: what it calls of the
interpreter (statement handlers, ``drive``, asking) comes in through ``Compiler``'s arguments.
"""

from .compiler import Compiler
from .generated import CodeGen, Generated

__all__ = ["CodeGen", "Compiler", "Generated"]
