"""The frame stack that every handler works on, and what they all use to work on it.

A frame is ``(node, pc, data, env)``: the running statement, how far it got, the progress it
keeps and the local variables of the running effect (shared by the frames of one call).  Here:
``Ctx`` and ``ev`` (an expression worked out in a frame's locals), ``actor`` (who the event log
says acts), ``enter`` (a block's frame pushed and run at once), ``step`` and ``ran_away`` (the step
and depth limits), and ``unwind`` (what a frame dropped before its end gives back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...lang import nodes as n
from ...errors import RuleError

if TYPE_CHECKING:
    from ..state import State

Frame = tuple[Any, int, Any, dict]


class Ctx:
    """What an expression sees: the state, the game's rules and the local variables.

    A state keeps one of its own (``own_ctx``), which holds the state only while its effects run
    (``driver.run`` and ``resume`` bind it and let go after, as ``scenarios.refresh_locals`` does for the
    expressions it works out between runs): at rest a state is in no reference cycle,
    so a copy dropped (the bots make and drop thousands a decision) is freed at once, not left to
    Python's cycle collector."""

    __slots__ = ("state", "rules", "env", "memo")

    def __init__(self, state: "State", env: dict):
        self.state = state
        self.rules = state.rules
        self.env = env
        self.memo: dict | None = None  # during a menu pass: results of reads without arguments


def own_ctx(rules: Any) -> Ctx:
    """A state's own context, holding no state until its effects run (see ``Ctx``)."""
    ctx = Ctx.__new__(Ctx)
    ctx.rules = rules
    ctx.env = {}
    ctx.memo = None
    return ctx


def ctx_for(state: "State", env: dict) -> Ctx:
    """The state's reusable context, reading ``env``."""
    ctx = state.ctx
    ctx.env = env
    return ctx


def ev(state: "State", node: Any, env: dict) -> Any:
    """Evaluate an expression node in the given locals (while the state's context is bound, see ``Ctx``)."""
    ctx = state.ctx
    ctx.env = env
    fn = state.rules.compiler.cache.get(id(node))
    if fn is None:  # a part of an expression a statement reads on its own (a counter's owner)
        fn = state.rules.compiler(node)
    return fn(ctx)


def actor(env: dict) -> Any:
    """Who carries out what the running code does, as the event log names it: the player who chose
    the option whose body is running (``$by``, set when a menu's option is taken (``choices``)), else the effect's ``you``."""
    return env["$by"] if "$by" in env else env.get("$you")


def leave_option(frame: Frame) -> None:
    """A menu frame waiting under an option's body (pc 2) is left: the actor before the option
    comes back (its data: (1, the old ``$by``), or (0, None) when there was none)."""
    env = frame[3]
    had, old = frame[2]
    if had:
        env["$by"] = old
    else:
        env.pop("$by", None)


def unwind(frame: Frame) -> None:
    """A frame is dropped without running to its end (``break``, ``pass``): undo what it holds."""
    if type(frame[0]) is n.Menu and frame[1] == 2:
        leave_option(frame)


DIRECT_DEPTH = 40  # frames run inside one another's Python calls (block functions, enter) at most


def enter(state: "State", frame: Frame) -> None:
    """Push a block's frame and run it at once (rather than going back round ``run``'s loop), as a
    step of the run."""
    state.stack.append(frame)
    step(state, frame)
    if state.nested < DIRECT_DEPTH:
        state.nested += 1
        h_block(state, frame)
        state.nested -= 1


def step(state: "State", frame: Frame) -> None:
    """``frame`` (on top of the stack) is taken as a step of the run, as ``driver.drive`` counts each
    frame it handles: past the step or depth limit, ``ran_away``."""
    state.steps += 1
    game = state.game
    if state.steps > game.step_limit or len(state.stack) > game.depth_limit:
        ran_away(state, frame, state.steps > game.step_limit)


def h_block(state: "State", frame: Frame) -> None:
    """A block's frame: its generated block function runs it from the frame's pc (see
    ``CodeGen.block``: statements that never pause inline, the others entered from there)."""
    node, pc, _, env = frame
    compiler = state.rules.compiler
    fn = compiler.blocks.get(id(node))
    if fn is None:
        fn = compiler.block_fn(node)
    fn(state, env, pc)


def ran_away(state: "State", frame: Frame, steps: bool) -> None:
    """Stop a run that went past ``Game.step_limit`` steps (``steps``) or ``Game.depth_limit`` frames:
    a ``RuleError`` at the statement, or the call, that ran away."""
    node = frame[0]
    if steps:
        raise RuleError(f"the effects ran more than {state.game.step_limit:,} steps without a decision "
                        "(Game(step_limit=...) sets the limit); does a loop ever end?", getattr(node, "span", None))
    # the innermost call or ability on the stack is the one that went too deep
    span = next((f[0].span for f in reversed(state.stack) if isinstance(f[0], (n.CallProc, n.UseAbility))),
                getattr(node, "span", None))
    raise RuleError(f"calls nested more than {state.game.depth_limit:,} deep (Game(depth_limit=...) sets the "
                    "limit); does a procedure call itself without end?", span)
