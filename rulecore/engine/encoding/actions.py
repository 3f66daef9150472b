"""Stable action ids: every answer a game can ask for, numbered once when the ``Game`` is made.

An id names what an answer *is* (a card type, a seat relative to the chooser, a menu option, a
number, a multiset of card types, done / decline), never its place in one state's list, so the
same id means the same thing in every state.  The id space is read from the effect trees and the
cards when the game is built, not learned from play.  docs/ai.md describes the encoding.

A key is a tuple; ids are positions in ``ActionCodec.keys``:

- ``("done",)``, ``("decline",)``: finish a ``choose up to``; decline a signal offer;
- ``("option", label)``: a static menu option, by its label (every ``option "..."``);
- ``("card", type)`` and ``("card", type, zone, seat)``: a card of a ``choose card(s)``, by type,
  and by type and the zone it lies in (zone name, owner relative to the chooser or ``None``) when
  cards of that type lie in several zones;
- ``("seat", k)``: the player ``k`` seats after the chooser (``choose player(s)``);
- ``("number", v)`` for ``v`` in ``NUMBERS``, ``("text", s)`` for every text literal and text card
  property: a ``choose number / value``;
- ``("set", types)``: a multiset of card types (sorted in card order), up to ``SET_SIZE`` cards,
  for games that ``choose set``;
- ``("item", node, sub)``: a value of an ``option each`` menu item (``node`` numbers the item),
  ``sub`` as above: ``("card", type)``, ``("seat", k)``, ``("number", v)``, ``("set", types)``, by
  what the item's text shows its values to be; a number from an item whose text does not show it
  takes the fallback (it could be a card, and a card's number would tell hidden cards apart);
- ``("answer", event, type)``: use a card of that type answering the event (signal offers and
  ``option answers``);
- ``("position", node, i)``: the fallback, the ``i``-th option (``i < POSITIONS``) of the question
  asked by statement ``node``, for an answer none of the above can name (a number out of range, a
  bigger set, two options of one item with the same key).
"""

from __future__ import annotations

import itertools
from typing import Any, Iterable

from ...errors import IllegalActionError
from ...lang import nodes as n
from ...lang.kinds import static_kind
from ...lang.nodes import walk

NUMBERS = range(-8, 65)
SET_SIZE = 8
POSITIONS = 64
_CARDISH = ("card", "cards")
_PLAYERISH = ("player", "players")

Key = tuple[Any, ...]


class ActionCodec:
    """The stable id space of one game (see the module docstring)."""

    def __init__(self, rules: Any):
        self.rules = rules
        cardset = rules.cardset
        types = list(dict.fromkeys(rules.instance_type))  # card types in play, in cardset order
        self.type_order = {t: i for i, t in enumerate(types)}
        players = rules.players
        zone_places: list[tuple[str, int | None]] = []
        for name, z in cardset.zones.items():
            if z.per_player:
                zone_places += [(name, k) for k in range(players)]
            else:
                zone_places += [(key, None) for key in rules.zone_keys[name]]
        keys: list[Key] = [("done",), ("decline",)]
        menus = [node for node in rules.nodes if isinstance(node, n.Menu)]
        chooses = [node for node in rules.nodes if isinstance(node, n.Choose)]
        statics = sorted({item.label for m in menus for item in m.items if isinstance(item, n.StaticOption)})
        keys += [("option", label) for label in statics]
        keys += [("card", t) for t in types]
        keys += [("card", t, z, k) for t in types for z, k in zone_places]
        seats = [("seat", k) for k in range(players)]
        numbers = [("number", v) for v in NUMBERS]
        texts = [("text", s) for s in sorted(self.texts(rules))]
        keys += seats + numbers + texts
        self.item_kind: dict[int, str | None] = {}
        dynamic = [item for m in menus for item in m.items if isinstance(item, n.DynamicOption)]
        set_kinds = any(c.kind == "set" for c in chooses)
        for item in dynamic:
            kind = self._kind(item.source, cardset.functions) or self._reads_as_card(item)
            self.item_kind[id(item)] = kind
            set_kinds = set_kinds or kind == "set"
        sets = [("set", s) for s in self._multisets(rules.instance_type, types)] if set_kinds else []
        keys += sets
        for item in dynamic:
            node = rules.node_id[id(item)]
            kind = self.item_kind[id(item)]
            if kind in _CARDISH:
                subs: list[Key] = [("card", t) for t in types]
            elif kind in _PLAYERISH:
                subs = seats
            elif kind == "set":
                subs = sets
            elif kind is None:
                subs = texts  # a number of unknown meaning could be a card: it takes the fallback
            else:
                subs = numbers + texts
            keys += [("item", node, sub) for sub in subs]
        answers = sorted({(event, t) for event, by_zone in rules.triggers.items()
                          for by_type in by_zone.values() for t in by_type if t in self.type_order})
        keys += [("answer", event, t) for event, t in answers]
        asking = [node for node in rules.nodes if isinstance(node, (n.Menu, n.Choose, n.Signal))]
        keys += [("position", rules.node_id[id(node)], i) for node in asking for i in range(POSITIONS)]
        self.keys: tuple[Key, ...] = tuple(keys)
        self.index: dict[Key, int] = {key: i for i, key in enumerate(keys)}

    # ---- the id space
    @staticmethod
    def texts(rules: Any) -> set[str]:
        cardset = rules.cardset
        out: set[str] = set()
        roots: list[Any] = list(rules.nodes) + [f.body for f in cardset.functions.values()]
        for root in roots:
            for node in walk(root):
                if isinstance(node, n.Literal) and type(node.value) is str:
                    out.add(node.value)
        for card in cardset.cards.values():
            for value in card.props.values():
                for v in value if type(value) is tuple else (value,):
                    if type(v) is str:
                        out.add(v)
        return out

    @staticmethod
    def _kind(expr: Any, functions: Any, depth: int = 0) -> str | None:
        kind = static_kind(expr)
        if kind is None and isinstance(expr, n.Where):
            return ActionCodec._kind(expr.source, functions, depth)
        if kind is None and isinstance(expr, n.Call) and expr.func == "in_zones":
            return "card"
        if kind is None and isinstance(expr, n.UserCall) and depth < 8 and expr.func in functions:
            return ActionCodec._kind(functions[expr.func].body, functions, depth + 1)
        return kind

    @staticmethod
    def _reads_as_card(item: n.DynamicOption) -> str | None:
        """'card' when the item's label or condition reads a property of its value (``d.name``): only
        cards have properties."""
        for expr in (item.label, item.cond):
            for node in walk(expr) if expr is not None else ():
                if isinstance(node, n.Attr) and isinstance(node.obj, (n.Var, n.Builtin)) and \
                        node.obj.name in (item.var, "it"):
                    return "card"
        return None

    @staticmethod
    def _multisets(instances: Iterable[str], types: list[str]) -> list[tuple[str, ...]]:
        """Every multiset of at most SET_SIZE cards that the game's cards can make, smallest first."""
        copies: dict[str, int] = {}
        for t in instances:
            copies[t] = copies.get(t, 0) + 1
        out: list[tuple[str, ...]] = []
        for size in range(1, SET_SIZE + 1):
            for combo in itertools.combinations_with_replacement(types, size):
                if all(combo.count(t) <= copies[t] for t in set(combo)):
                    out.append(combo)
        return out

    # ---- a state's answers
    def legal_keys(self, state: Any) -> list[Key]:
        """The key of each of ``state.legal_actions()``, in that order."""
        asking = state.asking
        if asking is None:
            return []
        frame = state.stack[-1]
        node = frame[0]
        chooser = asking[0]
        labels = asking[2]
        values = state.pending_values
        if isinstance(node, n.Choose):
            keys = self._choose_keys(state, node, frame[2][0], values, chooser)
        elif isinstance(node, n.Menu):
            keys = self._menu_keys(state, node, frame[2], values, chooser)
        elif isinstance(node, n.Signal):
            entries = frame[2][0]
            keys = [("answer", node.event, self.rules.instance_type[e[1]]) for e in entries] + [("decline",)]
        else:  # pragma: no cover - every question is asked by one of the three
            keys = []
        if len(keys) != len(labels):
            keys = [None] * len(labels)  # type: ignore[list-item]
        return self._settle(keys, self.rules.node_id[id(node)])

    def _settle(self, keys: list[Any], node: int) -> list[Key]:
        """Unknown or repeated keys become the fallback position keys (every repeat of a key, so that
        the meaning of a key never depends on its neighbours)."""
        seen: dict[Any, int] = {}
        for key in keys:
            seen[key] = seen.get(key, 0) + 1
        out = []
        for i, key in enumerate(keys):
            if key is None or key not in self.index or seen[key] > 1:
                key = ("position", node, i)
            out.append(key)
        return out

    def _value_key(self, kind: str | None, value: Any, chooser: int) -> Any:
        rules = self.rules
        if kind in _CARDISH:
            return ("card", rules.instance_type[value])
        if kind in _PLAYERISH:
            return ("seat", (value - chooser) % rules.players) if type(value) is int else None
        if kind == "set":
            cards = value if type(value) is tuple else (value,)
            order = self.type_order
            return ("set", tuple(sorted((rules.instance_type[c] for c in cards), key=order.__getitem__)))
        if type(value) is int:
            return ("number", value)
        if type(value) is str:
            return ("text", value)
        return None

    def _choose_keys(self, state: Any, node: n.Choose, values: tuple[Any, ...], picks: tuple[int, ...],
                     chooser: int) -> list[Any]:
        rules = self.rules
        keys: list[Any] = [("done",) if i < 0 else self._value_key(node.kind, values[i], chooser) for i in picks]
        if node.kind in _CARDISH:
            counts: dict[Any, int] = {}
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
            for j, (key, i) in enumerate(zip(keys, picks)):
                if counts[key] > 1 and i >= 0:  # the engine tells these apart by their zone
                    zone = state.where[values[i]]
                    name = zone.split("/")[0]
                    owner = rules.zone_owner[zone]
                    if owner is not None:
                        keys[j] = ("card", key[1], name, (owner - chooser) % rules.players)
                    else:
                        keys[j] = ("card", key[1], zone, None)
        return keys

    def _menu_keys(self, state: Any, node: n.Menu, entries: Any, picks: tuple[int, ...],
                   chooser: int) -> list[Any]:
        rules = self.rules
        keys: list[Any] = []
        for i in picks:
            label, idx, value = entries[i]
            item = node.items[idx]
            if isinstance(item, n.StaticOption):
                keys.append(("option", item.label))
            elif isinstance(item, n.AnswerOption):
                keys.append(("answer", item.event, rules.instance_type[value]))
            else:
                kind = self.item_kind.get(id(item))
                sub = self._value_key(kind, value, chooser) if kind is not None or type(value) is str else None
                keys.append(("item", rules.node_id[id(item)], sub) if sub is not None else None)
        return keys

    # ---- the API
    def legal_ids(self, state: Any) -> list[int]:
        return [self.index[key] for key in self.legal_keys(state)]

    def action_for(self, state: Any, action_id: int) -> str:
        """The label ``state.apply`` takes for ``action_id``."""
        ids = self.legal_ids(state)
        if type(action_id) is not int or action_id not in ids:
            shown = ", ".join(map(str, ids[:12]))
            raise IllegalActionError(f"action id {action_id!r} is not legal now (legal ids: {shown}"
                                     f"{', ...' if len(ids) > 12 else ''})")
        return state.legal_actions()[ids.index(action_id)]

    def describe(self, action_id: int) -> str:
        """What an id means, in words."""
        if type(action_id) is not int or not 0 <= action_id < len(self.keys):
            raise IllegalActionError(f"no action id {action_id!r} in this game (ids are 0 .. {len(self.keys) - 1})")
        return describe_key(self.keys[action_id], self.rules)


def describe_key(key: Key, rules: Any) -> str:
    tag = key[0]
    names = rules.defs
    if tag == "done":
        return rules.done_label
    if tag == "decline":
        return rules.decline_label
    if tag == "option":
        return key[1]
    if tag == "card":
        text = names[key[1]].name
        if len(key) > 2:
            text += f" in {key[2]}" + (f" of the player {key[3]} after the chooser" if key[3] else
                                       " of the chooser" if key[3] == 0 else "")
        return text
    if tag == "seat":
        return "the chooser" if key[1] == 0 else f"the player {key[1]} after the chooser"
    if tag in ("number", "text"):
        return str(key[1])
    if tag == "set":
        counts: dict[str, int] = {}
        for t in key[1]:
            counts[names[t].name] = counts.get(names[t].name, 0) + 1
        return " + ".join(f"{k} {name}" for name, k in counts.items())
    if tag == "item":
        node = rules.nodes[key[1]]
        return f"option each {node.var} (line {node.span.line}): {describe_key(key[2], rules)}"
    if tag == "answer":
        return f"use {names[key[2]].name} answering '{key[1]}'"
    node = rules.nodes[key[1]]
    return f"option {key[2] + 1} of the question at line {node.span.line}"
