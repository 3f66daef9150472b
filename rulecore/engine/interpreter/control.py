"""The statements that run other statements: ``if``, loops (``for each``, ``while``, ``repeat``,
``break``), procedure calls and ``use``, the game's flow (phases, rounds, turns, ``end game``)
and the parts of several players (``simultaneously``, ``in any order`` and its ``pass``).

Each ``h_*`` handler takes the frame on top of the stack: it replaces it with the body to run,
pushes the body above it (a loop keeps its frame, with its progress, under the body), or pops it
when the statement is done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lang import nodes as n
from ...lang.functions import describe_value, items_of
from ...errors import RuleError
from .frames import Frame, ctx_for, enter, ev, unwind
from .signals import announce_use

if TYPE_CHECKING:
    from ..state import State


def h_if(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    for cond, body in node.branches:
        if ev(state, cond, env):
            state.stack[-1] = (body, 0, None, env)
            return
    if node.orelse is not None:
        state.stack[-1] = (node.orelse, 0, None, env)
    else:
        state.stack.pop()


def h_for(state: "State", frame: Frame) -> None:
    node, pc, items, env = frame
    if items is None:
        items = tuple(items_of(ctx_for(state, env), ev(state, node.items, env)))
    if pc < len(items):
        env[node.var] = items[pc]
        state.stack[-1] = (node, pc + 1, items, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.stack.pop()


def h_simultaneously(state: "State", frame: Frame) -> None:
    node, pc, data, env = frame
    if data is None:
        items = tuple(items_of(ctx_for(state, env), ev(state, node.items, env)))
        data = (items, len(state.log))
    items, log_start = data
    if pc < len(items):
        player = items[pc]
        state.sealing = player if type(player) is int else None
        env[node.var] = player
        state.stack[-1] = (node, pc + 1, data, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.sealing = None
        state.unseal(log_start)
        state.stack.pop()


def h_any_order(state: "State", frame: Frame) -> None:
    """Each player's part in turn, the first of the queue first; a part that passed goes to the
    back of the queue, one that ended is done.  Progress: (queue, current, passed, passes in a
    row, log start)."""
    node, pc, data, env = frame
    if data is None:
        items = tuple(items_of(ctx_for(state, env), ev(state, node.items, env)))
        data = (items, None, False, 0, len(state.log))
    queue, current, passed, row, log_start = data
    if current is not None:  # a part has just ended
        queue, row = (queue[1:] + queue[:1], row + 1) if passed else (queue[1:], 0)
    if not queue:
        if node.sealed:
            state.sealing = None
            state.unseal(log_start)
        state.stack.pop()
        return
    player = queue[0]
    if node.sealed:
        state.sealing = player if type(player) is int else None
    env[node.var] = player
    state.stack[-1] = (node, pc + 1, (queue, player, False, row, log_start), env)
    state.stack.append((node.body, 0, None, env))


def h_pass(state: "State", frame: Frame) -> None:
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        owner, pc, data, env = stack[i]
        if type(owner) is n.InAnyOrder and data is not None:
            if not n.may_pass(data):
                raise RuleError("'pass' when no other player is left to act first; guard it with 'can_pass'",
                                frame[0].span)
            queue, current, _, row, log_start = data
            stack[i] = (owner, pc, (queue, current, True, row, log_start), env)
            for dropped in reversed(stack[i + 1:]):
                unwind(dropped)
            del stack[i + 1:]
            return
    raise RuleError("'pass' outside the part of a player in an 'in any order'", frame[0].span)


def h_while(state: "State", frame: Frame) -> None:
    node, pc, _, env = frame
    if ev(state, node.cond, env):
        if pc >= state.rules.loop_limit:
            raise RuleError(f"'while' ran {pc} times; is its condition ever false?", node.span)
        state.stack[-1] = (node, pc + 1, None, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.stack.pop()


def h_repeat(state: "State", frame: Frame) -> None:
    node, pc, times, env = frame
    if times is None:
        times = ev(state, node.count, env)
        if type(times) is not int:
            raise RuleError(f"'repeat' needs a number, got {describe_value(times)}", node.span)
    if pc < times:
        state.stack[-1] = (node, pc + 1, times, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.stack.pop()


_LOOPS = (n.ForEach, n.While, n.Repeat)


def h_break(state: "State", frame: Frame) -> None:
    stack = state.stack
    stack.pop()
    while stack:
        top = stack.pop()
        if isinstance(top[0], _LOOPS):
            return
        unwind(top)


def h_call(state: "State", frame: Frame) -> None:
    """``call p(...)``: the frame becomes the body's.  ``let x = call p(...)`` keeps its frame under
    the body (pc 1) for the result: ``h_return`` binds it there, and a body that ends without one
    comes back to it here (``x`` is none)."""
    node, pc, _, env = frame
    if pc == 1:  # the body ended without 'return'
        env[node.result] = None
        state.stack.pop()
        return
    proc = state.rules.cardset.procedures[node.name]
    new_env = {"$you": env.get("$you"), "$this": env.get("$this")}
    if "$by" in env:  # a procedure called from an option's body acts for that option's chooser
        new_env["$by"] = env["$by"]
    for param, arg in zip(proc.params, node.args):
        new_env[param] = ev(state, arg, env)
    if node.result is None:
        state.stack[-1] = (proc.body, 0, None, new_env)
        return
    new_env["$returns"] = True  # 'return' hands its value to the call's frame below the body
    state.stack[-1] = (node, 1, None, env)
    state.stack.append((proc.body, 0, None, new_env))


def h_return(state: "State", frame: Frame) -> None:
    """``return [EXPR]``: drop every frame of the running procedure (they all share its locals);
    when a ``let x = call ...`` waits below them, bind ``x`` to the value there."""
    node, _, _, env = frame
    value = ev(state, node.value, env) if node.value is not None else None
    stack = state.stack
    while stack and stack[-1][3] is env:
        unwind(stack.pop())
    if env.get("$returns") and stack and type(stack[-1][0]) is n.CallProc and stack[-1][1] == 1:
        call, _, _, caller_env = stack.pop()
        caller_env[call.result] = value


def h_use(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    card = ev(state, node.card, env)
    if type(card) is not int:
        raise RuleError(f"'use' needs a card, got {describe_value(card)}", node.span)
    ability = state.rules.defs[state.rules.instance_type[card]].abilities.get(node.ability)
    if ability is None:
        raise RuleError(f"{state.rules.card_name(card)} has no ability '{node.ability}'", node.span)
    user = ev(state, node.user, env) if node.user is not None else env.get("$you")
    if node.user is not None and (type(user) is not int or not 0 <= user < state.rules.players):
        raise RuleError(f"'use ... by' needs a player, got {describe_value(user)}", node.span)
    announce_use(state, card, user)
    state.stack[-1] = (ability.body, 0, None, {"$you": user, "$this": card})


def h_phase(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    state.phase = node.name
    state.emit("phase", f"Phase: {node.name}", phase=node.name)
    state.stack[-1] = (node.body, 0, None, env)


def h_rounds(state: "State", frame: Frame) -> None:
    node, pc, _, env = frame
    if pc == 1:  # a round just ended
        state.end_round()
        if ev(state, node.until, env):
            state.stack.pop()
            return
    state.round += 1
    label = state.rules.cardset.round_label
    state.emit("round", f"{label[:1].upper()}{label[1:]} {state.round} begins", round=state.round)
    state.stack[-1] = (node, 1, None, env)
    state.stack.append((node.body, 0, None, env))


def _skipped(state: "State", node: n.Turns, env: dict, p: int) -> bool:
    """Whether the turns' 'skip' condition holds for player ``p`` (as 'it')."""
    if node.skip is None:
        return False
    skip = state.rules.compiler.cache.get(id(node.skip)) or state.rules.fn(node.skip)
    ctx = ctx_for(state, env)
    old = env.get("$it")
    env["$it"] = p
    try:
        return bool(skip(ctx))
    finally:
        env["$it"] = old


def _next_turn(state: "State", node: n.Turns, env: dict, p: int, include: bool) -> int | None:
    """The next player from ``p`` (``p`` itself when ``include``) in the turns' direction who is not skipped."""
    players = state.rules.players
    for k in range(0 if include else 1, players + (0 if include else 1)):
        q = (p + node.step * k) % players
        if node.skip is None or not _skipped(state, node, env, q):
            return q
    return None


def h_turns(state: "State", frame: Frame) -> None:
    node, pc, current, env = frame
    rules = state.rules
    players = rules.players
    if pc == 0:
        first = ev(state, node.first, env)
        if type(first) is not int:
            raise RuleError(f"'take turns from' needs a player, got {describe_value(first)}", node.span)
        nxt = _next_turn(state, node, env, first, True)
        idle = 0
    else:
        current, asked_before, idle = current
        idle = idle + 1 if len(state.history) == asked_before else 0
        if idle >= rules.loop_limit:
            raise RuleError(f"{idle} turns in a row asked nothing; does 'until' ever hold?", node.span)
        if ev(state, node.until, env):
            state.extra_turns = [0] * players
            state.stack.pop()
            return
        if state.extra_turns[current] > 0 and not _skipped(state, node, env, current):
            state.extra_turns[current] -= 1
            nxt = current
        else:
            state.extra_turns[current] = 0
            nxt = _next_turn(state, node, env, current, False)
    if nxt is None:
        state.extra_turns = [0] * players
        state.stack.pop()
        return
    state.turn_player = nxt
    state.turns += 1
    if state.record_events:
        state.emit("turn", f"{state.player_label(nxt)}'s turn", actor=nxt)
    state.stack[-1] = (node, 1, (nxt, len(state.history), idle), env)
    turn_env = {**env, "$you": nxt, "$this": None}
    turn_env.pop("$by", None)  # the turn player acts in their turn
    enter(state, (node.body, 0, None, turn_env))


def h_end_game(state: "State", frame: Frame) -> None:
    state.stack.clear()
