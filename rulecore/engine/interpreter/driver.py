"""The machine's loop: ``run`` handles frames until a decision is pending or the game is over,
``resume`` answers the pending decision and runs on, ``drive`` is the loop itself (also called by
generated block functions for a statement that can pause).

``HANDLERS`` maps each statement kind to the handler that takes its frame, ``RESUMERS`` each kind
that asks to the one that takes the answer, and ``MACHINE`` lists what generated block functions
call of the interpreter.  The machine never sees a lark tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...lang import nodes as n
from ...lang.functions import in_words
from ...errors import RuleError
from . import choices, control, signals
from .frames import DIRECT_DEPTH, Frame, h_block, ran_away
from .simple import SIMPLE, h_simple, said

if TYPE_CHECKING:
    from ..state import State


def run(state: "State", steps: int = 0) -> None:
    """Run until a decision is pending or the game is over.

    At most ``game.step_limit`` steps (frames handled, and the turns of loops run by generated
    code) per run, that is per ``apply`` or
    ``new_game``, and at most ``game.depth_limit`` frames on the stack: past either, a
    ``RuleError`` at the statement that ran away (a loop that does not end, a procedure that
    calls itself).  ``steps``: those the run has taken already (``resume``)."""
    state.steps = steps  # generated loops add their iterations (see codegen.statements)
    state.nested = 0
    ctx = state.ctx
    ctx.state = state  # only while effects run (see frames.Ctx)
    try:
        drive(state, 0)
        if not state.stack and not state.terminal:
            state.finish()
    finally:
        del ctx.state


def drive(state: "State", height: int) -> None:
    """Handle the frames above the first ``height`` of the stack until they are all done or a
    question is pending: ``run``'s loop, and what a block function calls for a statement that
    can pause (so the frames it pushes run in the same Python call)."""
    stack = state.stack
    handlers = HANDLERS
    game = state.game
    limit = game.step_limit
    depth = game.depth_limit
    compiler = state.rules.compiler
    blocks = compiler.blocks
    framed = compiler.framed
    while len(stack) > height and state._asking is None:  # not the property: a look-ahead's question stays unbuilt
        frame = stack[-1]
        state.steps += 1
        if state.steps > limit or len(stack) > depth:
            ran_away(state, frame, state.steps > limit)
        try:
            node = frame[0]
            if type(node) in framed:  # its frame function (h_block, without the call)
                (blocks.get(id(node)) or compiler.block_fn(node))(state, frame[3], frame[1])
            else:
                handlers[type(node)](state, frame)
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as exc:
            # effect text the checker could not rule out at load time; name where it happened
            raise RuleError(f"cannot carry this out: {_in_words(state, exc)}",
                            _span_of(state, exc, frame[0])) from exc


def _in_words(state: "State", exc: BaseException) -> str:
    """``in_words``, knowing the table: generated code reads a zone by its key, so a text that is no
    zone's key fails there as a missing key."""
    if type(exc) is KeyError and exc.args and type(exc.args[0]) is str and exc.args[0] not in state.zones:
        return f"the text {exc.args[0]!r} is not a zone, and only a zone holds cards"
    return in_words(exc)


def _span_of(state: "State", exc: BaseException, node: Any) -> Any:
    """Where an error happened: the effect text of the generated line that raised it, else the statement's."""
    span = state.rules.generated.span_of_traceback(exc.__traceback__)
    return span if span is not None else getattr(node, "span", None)


def resume(state: "State", index: int) -> None:
    """Answer the pending decision with option ``index`` and run on."""
    frame = state.stack[-1]
    state.asking = None
    state.steps = state.nested = 0
    ctx = state.ctx
    ctx.state = state  # only while effects run (see frames.Ctx)
    try:
        # an answer may do the first frame of the run that follows it (a menu's option: ``_take_option``)
        taken = RESUMERS[type(frame[0])](state, frame, index) or 0
    except RuleError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # only a state loaded with trusted=True whose frames were edited gets here
        raise RuleError(f"cannot carry this answer out: {_in_words(state, exc)}",
                        getattr(frame[0], "span", None)) from exc
    finally:
        del ctx.state
    run(state, taken)


HANDLERS: dict[type, Callable[["State", Frame], None]] = {
    n.Signal: signals.h_signal,
    n.Block: h_block,
    n.If: control.h_if,
    n.ForEach: control.h_for,
    n.Simultaneously: control.h_simultaneously,
    n.InAnyOrder: control.h_any_order,
    n.Pass: control.h_pass,
    n.While: control.h_while,
    n.Repeat: control.h_repeat,
    n.Break: control.h_break,
    n.CallProc: control.h_call,
    n.Return: control.h_return,
    n.UseAbility: control.h_use,
    n.Phase: control.h_phase,
    n.Rounds: control.h_rounds,
    n.Turns: control.h_turns,
    n.EndGame: control.h_end_game,
    n.Choose: choices.h_choose,
    n.Menu: choices.h_menu,
    **dict.fromkeys(SIMPLE, h_simple),
}

RESUMERS: dict[type, Callable[["State", Frame, int], Any]] = {
    n.Signal: signals.r_signal,
    n.Choose: choices.r_choose,
    n.Menu: choices.r_menu,
}

# what generated block functions call (see codegen.frames.FrameWriter.block)
MACHINE: dict[str, Any] = {
    "ran_away": ran_away,
    "drive": drive,
    "choice_counts": choices.choice_counts,
    "ask_choice": choices.ask_choice,
    "offer": choices.offer,
    "wait_unbuilt": choices.wait_unbuilt,
    "said": said,
    "direct_depth": DIRECT_DEPTH,
}
