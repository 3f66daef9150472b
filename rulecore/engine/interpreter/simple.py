"""The statements that never pause and never push a frame: ``let``, ``set``, counters, ``move``,
``shuffle``, ``sort``, ``turn ... face``, ``rotate``, marks, ``reveal``/``hide``/``look``, ``take
another turn``, ``say`` and ``fail``.

Each ``s_*`` handler carries out its statement at once (``SIMPLE``); generated block functions
call them for the statements the code writer does not write itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...lang import nodes as n
from ...lang.functions import Unfit, cards_of, describe_value, items_of, ordered
from ...lang.work import MAX_SAID, text_bytes
from ...errors import RuleError
from .frames import Frame, actor, ctx_for, ev

if TYPE_CHECKING:
    from ..state import State


def _you(env: dict) -> Any:
    return env.get("$you")


def s_let(state: "State", node: n.Let, env: dict) -> None:
    env[node.name] = ev(state, node.value, env)


def s_setvar(state: "State", node: n.SetVar, env: dict) -> None:
    state.set_var(node.name, ev(state, node.value, env))


def s_counter(state: "State", node: n.CounterOp, env: dict) -> None:
    target = node.target
    value = ev(state, node.value, env)
    if type(value) is not int:
        raise RuleError(f"'{node.op}' needs a number, got {describe_value(value)}", node.span)
    idx = 0
    if target.owner is not None:
        idx = ev(state, target.owner, env)
        if type(idx) is not int or not 0 <= idx < state.rules.players:
            raise RuleError(f"'{target.counter} of ...' needs a player, got {describe_value(idx)}", node.span)
    state.change_counter(target.counter, idx, node.op, value)


def s_move(state: "State", node: n.Move, env: dict) -> None:
    cards = ev(state, node.cards, env)
    dest = ev(state, node.dest, env)
    if type(dest) is not str or dest not in state.zones:
        raise RuleError(f"'move ... to' needs a zone, got {describe_value(dest)}", node.span)
    try:
        ids = cards_of(ctx_for(state, env), cards)
    except TypeError as exc:
        raise RuleError(f"'move' {exc}", node.span) from None
    if ids:
        state.move_by_rule(node, ids, dest, env)


def s_shuffle(state: "State", node: n.Shuffle, env: dict) -> None:
    state.shuffle(_zone(state, node, node.zone, env, "shuffle"))


def s_sort(state: "State", node: n.Sort, env: dict) -> None:
    zone = _zone(state, node, node.zone, env, "sort")
    cards = state._zone_w(zone)
    key = state.rules.compiler.cache[id(node.key)]
    ctx = ctx_for(state, env)
    had, old = "$it" in env, env.get("$it")
    pairs = []
    for card in cards:
        env["$it"] = card
        pairs.append((card, key(ctx)))
    if had:
        env["$it"] = old
    else:
        env.pop("$it", None)
    try:
        cards[:] = ordered(pairs)
    except Unfit as exc:
        raise RuleError(f"'sort' {exc}", node.span) from None
    state.emit("sort", f"{state.zone_label(zone)} is sorted", zone=zone)


def s_fail(state: "State", node: n.Fail, env: dict) -> None:
    raise RuleError(str(ev(state, node.message, env)), node.span)


def s_flip(state: "State", node: n.Flip, env: dict) -> None:
    try:
        cards = cards_of(ctx_for(state, env), ev(state, node.cards, env))
    except TypeError as exc:
        raise RuleError(f"'turn ... face' {exc}", node.span) from None
    state.flip(cards, node.face == "up")


def s_rotate(state: "State", node: n.Rotate, env: dict) -> None:
    state.rotate(node.zone, node.step, actor(env))


def s_mark(state: "State", node: n.Mark, env: dict) -> None:
    target = ev(state, node.target, env)
    mark = ev(state, node.mark, env)
    if type(mark) is not str:
        raise RuleError(f"a mark is a text, got {describe_value(mark)}", node.span)
    if node.target_kind == "player":
        if type(target) is not int or not 0 <= target < state.rules.players:
            raise RuleError(f"'mark player' needs a player, got {describe_value(target)}", node.span)
        state.mark_player(target, mark, node.remove)
        return
    try:
        cards = cards_of(ctx_for(state, env), target)
    except TypeError as exc:
        raise RuleError(f"'mark card' {exc}", node.span) from None
    for card in cards:
        state.mark_card(card, mark, node.remove)


def s_reveal(state: "State", node: n.Reveal, env: dict) -> None:
    zone = _zone(state, node, node.zone, env, "reveal")
    state.reveal(zone)


def s_hide(state: "State", node: n.Hide, env: dict) -> None:
    state.hide(_zone(state, node, node.zone, env, "hide"))


def s_look(state: "State", node: n.Look, env: dict) -> None:
    who = ev(state, node.who, env) if node.who is not None else _you(env)
    value = ev(state, node.cards, env)
    ids = cards_of(ctx_for(state, env), value)
    state.look(who, ids, value if type(value) is str else None)


def s_extra_turn(state: "State", node: n.ExtraTurn, env: dict) -> None:
    who = ev(state, node.player, env) if node.player is not None else _you(env)
    if type(who) is not int:
        raise RuleError(f"'take another turn' needs a player, got {describe_value(who)}", node.span)
    state.extra_turns[who] += 1
    state.emit("extra-turn", f"{state.player_label(who)} will take another turn", actor=who)


def s_say(state: "State", node: n.Say, env: dict) -> None:
    said(state, node, ev(state, node.text, env), env)


def said(state: "State", node: n.Say, text: Any, env: dict) -> None:
    """A 'say' of ``text`` (worked out already): checked, its players worked out, and written into the
    event log.  Generated code calls this too, where events are recorded or the text might fail."""
    if type(text) is not str:
        text = state.rules.text(text, node.kind)
    if text_bytes(text) > MAX_SAID:
        raise RuleError(f"'say' would write a text of {text_bytes(text):,} bytes into the event log; "
                        f"a text said is at most {MAX_SAID:,} bytes", node.span)
    to = None
    if node.to is not None:
        target = ev(state, node.to, env)
        to = tuple(items_of(ctx_for(state, env), target))
    state.emit("say", str(text), to=to, actor=actor(env))


def _zone(state: "State", node: Any, expr: Any, env: dict, what: str) -> str:
    zone = ev(state, expr, env)
    if type(zone) is not str or zone not in state.zones:
        raise RuleError(f"'{what}' needs a zone, got {describe_value(zone)}", node.span)
    return zone


SIMPLE: dict[type, Callable[["State", Any, dict], None]] = {
    n.Let: s_let,
    n.SetVar: s_setvar,
    n.CounterOp: s_counter,
    n.Move: s_move,
    n.Shuffle: s_shuffle,
    n.Sort: s_sort,
    n.Rotate: s_rotate,
    n.Flip: s_flip,
    n.Fail: s_fail,
    n.Mark: s_mark,
    n.Reveal: s_reveal,
    n.Hide: s_hide,
    n.Look: s_look,
    n.ExtraTurn: s_extra_turn,
    n.Say: s_say,
}


def h_simple(state: "State", frame: Frame) -> None:
    """A statement that never pauses, in a frame of its own: carried out, its frame popped."""
    node, _, _, env = frame
    SIMPLE[type(node)](state, node, env)
    state.stack.pop()
