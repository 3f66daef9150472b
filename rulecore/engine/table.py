"""What a table program (a game server, a UI) needs beside the play API: what each option of the
pending decision refers to (``State.option_refs``), and the cards of a game as data
(``Game.card_catalogue``).

A reference tells no more than the chooser's own ``view``: a card is placed (its zone and its index
in that zone's ``cards``) only where the view shows it there, a face-up card in a zone the chooser
cannot see gets its zone alone, and any other card only its type (which its option's label names
anyway); a value whose meaning the effect text does not show is not described at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang import nodes as n
from .encoding.actions import ActionCodec
from .knowing import sealed

if TYPE_CHECKING:
    from .rules import Rules
    from .state import State

Ref = dict[str, Any]
_CARDS = ("card", "cards")
_PLAYERS = ("player", "players")


def option_refs(state: "State") -> list[Ref]:
    """What each of ``state.legal_actions()`` refers to, in that order (see docs/api.md)."""
    asking = state.asking
    if asking is None:
        return []
    chooser = asking[0]
    state = sealed.seen(state, chooser)  # places as the chooser sees them (others' sealed parts taken back)
    node, _, data, _ = state.stack[-1]
    picks = state.pending_values
    if isinstance(node, n.Choose):
        values = data[0]
        refs = [{"kind": "done"} if i < 0 else _value_ref(state, node.kind, values[i], chooser) for i in picks]
    elif isinstance(node, n.Menu):
        refs = [_menu_ref(state, node, data[i], chooser) for i in picks]
    elif isinstance(node, n.Signal):
        refs = [{**_card_ref(state, entry[1], chooser), "answers": node.event} for entry in data[0]]
        refs.append({"kind": "decline"})
    else:  # pragma: no cover - every question is asked by one of the three
        refs = []
    if len(refs) != len(asking[2]):  # pragma: no cover - a question of another shape: say nothing wrong
        refs = [{"kind": "option"} for _ in asking[2]]
    return refs


def _menu_ref(state: "State", node: n.Menu, entry: tuple[str, int, Any], chooser: int) -> Ref:
    _, idx, value = entry
    item = node.items[idx]
    if isinstance(item, n.AnswerOption):
        return {**_card_ref(state, value, chooser), "answers": item.event}
    if isinstance(item, n.DynamicOption):
        functions = state.rules.cardset.functions
        kind = item.kind or ActionCodec._kind(item.source, functions) or ActionCodec._reads_as_card(item)
        if kind is not None or type(value) is str:
            return _value_ref(state, kind, value, chooser)
    return {"kind": "option"}


def _value_ref(state: "State", kind: str | None, value: Any, chooser: int) -> Ref:
    if kind in _CARDS and type(value) is int:
        return _card_ref(state, value, chooser)
    if kind == "set" or kind in _CARDS:
        cards = value if type(value) is tuple else (value,)
        if all(type(c) is int for c in cards):
            return {"kind": "cards", "cards": [_card_ref(state, c, chooser) for c in cards]}
    if kind in _PLAYERS and type(value) is int:
        return {"kind": "player", "seat": value}
    if kind in ("number", "value") and type(value) is int:
        return {"kind": "number", "value": value}
    if type(value) is str:
        return {"kind": "text", "value": value}
    return {"kind": "option"}  # a number of unknown meaning could be a card: it would tell hidden cards apart


def _card_ref(state: "State", card: int, chooser: int) -> Ref:
    rules = state.rules
    ref: Ref = {"kind": "card", "card": rules.instance_type[card]}
    zone = state.where[card]
    hidden = card in state.facedown or state.sealed_cards.get(card, chooser) != chooser
    if state.zone_visible(zone, chooser) and not hidden:
        ref["zone"] = zone
        ref["index"] = state.zones[zone].index(card)
    elif card in state.faceup:
        ref["zone"] = zone  # shown to everyone, but the zone's order is not
    return ref


def card_catalogue(rules: "Rules") -> list[dict[str, Any]]:
    """Every card type in play (after ``include_if``), in cardset order, as JSON-ready data."""
    counts: dict[str, int] = {}
    for t in rules.instance_type:
        counts[t] = counts.get(t, 0) + 1
    out = []
    for cid, count in counts.items():
        card = rules.defs[cid]
        out.append({
            "id": cid,
            "name": card.name,
            "count": count,
            "text": card.text,
            "tags": list(card.tags),
            "props": {k: _plain(v) for k, v in card.props.items()},
            "scoring": list(card.scoring),
            "family": card.family,
            "abilities": [{"name": a.name, "label": a.label, "text": a.text} for a in card.abilities.values()],
        })
    return out


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, (tuple, list)) else value
