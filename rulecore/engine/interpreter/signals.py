"""Signals and the abilities that answer them, and the count and log of every use of an ability.

``signal EVENT to PLAYER`` runs the answers of that player's cards that must answer, offers the
ones that may (a ``trigger`` decision, with a way to decline) and runs its ``else`` block unless
an answer replaced it.  A menu's ``option answers EVENT`` offers the same answers
(``menu_answers``).  ``announce_use`` counts a use of a card's ability for the statistics and
logs it (answers, menu answers and ``use``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...lang.functions import describe_value
from ...errors import RuleError
from .frames import Ctx, Frame, ev, step

if TYPE_CHECKING:
    from ..state import State


def h_signal(state: "State", frame: Frame) -> None:
    node, pc, data, env = frame
    if pc == 0:
        _signal_start(state, frame)
    elif pc == 2:  # an answering ability has run; data: replaced?
        if not data and node.orelse is not None:
            state.stack[-1] = (node.orelse, 0, None, env)
        else:
            state.stack.pop()


def _answering(state: "State", event: str, player: int, passed: dict) -> list[tuple[int, Any]]:
    """(card, ability) for each card answering ``event`` for ``player`` whose 'when' holds: cards in
    the player's own zone of the ability's 'from', or in every slot of a shared zone."""
    rules = state.rules
    cache = rules.compiler.cache
    out = []
    for zone_name, abilities in rules.triggers.get(event, {}).items():
        keys = rules.zone_keys[zone_name]
        zone_keys = (keys[player],) if rules.cardset.zones[zone_name].per_player else keys
        for card in tuple(c for key in zone_keys for c in state.zones[key]):
            ability = abilities.get(rules.instance_type[card])
            if ability is None:
                continue
            if ability.when is not None:
                if not cache[id(ability.when)](Ctx(state, {"$you": player, "$this": card, **passed})):
                    continue
            out.append((card, ability))
    return out


def _answer_label(state: "State", card: int, ability: Any) -> str:
    return ability.label or f"Use {state.rules.card_name(card)}"


def menu_answers(state: "State", event: str, player: int, passed: dict) -> list[tuple[str, int]]:
    """(label, card) for each of ``player``'s cards whose ability answers ``event`` and may be used now:
    what a menu's ``option answers EVENT`` offers."""
    return [(_answer_label(state, card, ability), card) for card, ability in _answering(state, event, player, passed)]


def announce_use(state: "State", card: int, user: Any) -> None:
    """A card's ability is used: count it for the statistics and log it."""
    state.count_use(card, user)
    if state.record_events:
        state.emit("use", f"{state.player_label(user)} uses {state.rules.card_name(card)}", actor=user,
                   card=state.rules.instance_type[card])


def _signal_start(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    rules = state.rules
    player = ev(state, node.player, env)
    if type(player) is not int or not 0 <= player < rules.players:
        raise RuleError(f"'signal' needs a player, got {describe_value(player)}", node.span)
    passed = {name: env.get(name) for name in node.passes}
    mandatory: list[tuple[int, Any]] = []
    optional: list[tuple[str, int, Any]] = []
    seen: set[str] = set()
    for card, ability in _answering(state, node.event, player, passed):
        if not ability.optional:
            mandatory.append((card, ability))
            continue
        label = _answer_label(state, card, ability)
        if label not in seen:
            seen.add(label)
            optional.append((label, card, ability))
    stack = state.stack
    replaced = any(a.instead for _, a in mandatory)
    # the frame waits in state 2 for the bodies pushed above it
    waiting = stack[-1] = (node, 2, replaced, env)
    if not mandatory and not optional:  # nothing answers: the frame is done as the run would take it next
        step(state, waiting)
        h_signal(state, waiting)
        return
    for card, ability in reversed(mandatory):
        state.count_use(card, player)
        stack.append((ability.body, 0, None, {"$you": player, "$this": card, **passed}))
    if optional and not replaced:
        entries = tuple((label, card, ability.instead) for label, card, ability in optional)
        stack.append((node, 1, (entries, player, tuple(passed.items())), env))
        labels = [e[0] for e in entries] + [rules.decline_label]
        state.ask(player, f"Respond to '{node.event}'?", tuple(labels), tuple(range(len(labels))), "trigger")


def r_signal(state: "State", frame: Frame, index: int) -> None:
    node, _, (entries, player, passed), env = frame
    stack = state.stack
    stack.pop()  # the offer is answered
    if index >= len(entries):
        return
    label, card, instead = entries[index]
    if instead:  # the waiting signal frame (under any mandatory answers) will skip its else block
        for i in range(len(stack) - 1, -1, -1):
            waiting = stack[i]
            if waiting[0] is node and waiting[1] == 2:
                stack[i] = (node, 2, True, waiting[3])
                break
    ability = state.rules.trigger_ability(node.event, card)
    announce_use(state, card, player)
    stack.append((ability.body, 0, None, {"$you": player, "$this": card, **dict(passed)}))
