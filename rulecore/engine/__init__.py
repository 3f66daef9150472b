"""The running game: what never changes in one game (``rules``), effects compiled to Python
(``compiler``), the interpreter of the statements that pause (``interpreter``), the attrs state
model (``state``), its seeded random generator (``rng``), ``Game`` (``game``), and the stable action
ids and observation vectors of game-AI code (``encoding``).

How effects run (compiled execution)
------------------------------------
Effect trees are compiled per game to Python source by ``compiler.CodeGen`` (a small code
writer: lines, indentation and, per line, the span of the node it was written for), one piece
at a time, ``compile()``d the first time the effect runs and kept in the game's ``Rules``:

- **Expressions** become straight-line code on Python locals: each value is stored in a
  temporary before the next is worked out, so random draws and errors come in the closures'
  order. ``it`` of a ``where`` or a per-item function is a loop variable, a user function is a
  Python function with its parameters (and ``you``/``this``) as arguments, zone keys and
  per-property card tables (``Rules.prop_tables``) are module constants, ``count``/``first``/
  ``in``/``where`` read a zone's list without copying it, ``usable``, ``prop`` and
  ``shared_props`` read tables, and arithmetic on two whole numbers is plain Python.
- **Menus** of static and dynamic options become one function per menu: a loop per option
  source with its condition and label inlined, labels de-duplicated through a dict. A menu
  pass changes nothing, so user functions without arguments that only read are worked out once
  per pass (``Ctx.memo``).
- **Statements**: ``Compiler.can_pause`` marks what may stop for a decision (choices, menus,
  signals, turns, rounds, phases, ``use``, ``break``, ``end game``, and any statement kind it
  does not know). Everything else -- plain statements and the ifs, loops and procedure calls
  made only of them -- runs as generated straight-line code. Each block runs as one generated
  *block function* ``(state, locals, pc)``: ``if pc <= K`` sections, plain statements inline;
  before a statement that can pause it leaves its frame as the interpreter would (pc past the
  statement, or popped in tail position), pushes the statement's frame and runs it in the same
  Python call (procedure calls and ifs through the entered block's function, choices and menus
  written inline up to the question, anything else through its interpreter handler), going on
  when it comes back with no question pending. The frames ``(node, pc, data, env)`` on the
  stack at a decision are the interpreter's, so ``clone``, ``to_json``/``load_state``,
  ``replay``, ``resample``, sealed ``simultaneously`` parts and ``State.arrange`` work exactly.
- **Fallbacks**: an expression kind the writer does not know is compiled by the closure
  compiler (``Compiler.closure``) and called from the generated code; a statement that never
  pauses but that the writer does not know calls its interpreter handler (``SIMPLE``). New
  statements added to the language keep working before anyone teaches the writer about them.
- **Errors**: a ``RuleError`` raised by generated code carries its node's span; any other
  Python error is turned into a ``RuleError`` at the span of the generated line that raised it
  (``Generated.span_of_traceback``), so it names the card file, line and column.

The decision path is lean: the pending decision is kept as tuples (``State.asking``) and the
attrs ``Decision`` built only when read; ``apply`` finds the action with ``tuple.index``;
``clone`` shares zone and counter lists copy-on-write (``State._zone_w``/``_counter_w``).

May import: rulecore.cardset, rulecore.lang, rulecore.errors (never bots, simulate or cli).
"""
