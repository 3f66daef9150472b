"""Stable action ids: a small fixed vocabulary of answers, numbered once when the ``Game`` is made.

An id names a *part* of an answer -- a card type, the zone a card lies in, a seat relative to the
chooser, a number, a text, "k cards of type t" for a set, a static menu option, done / decline --
never a place in one state's list, so the same id means the same thing in every state.  The id
space is read from the cardset (its card types and copies, zones, seats, static labels, texts and
the statements that ask) when the game is built, not learned from play.  docs/ai.md lists the
figures of the built-in games.

Each option of a pending question has a *path*: the sequence of parts that names it (see
``paths``).  The id interface asks a question one part at a time: the legal ids are the parts
that come next among the options still open, skipping every part in which they all agree; an id
that leaves one option applies it (``State.apply`` of its label, so the history holds labels
only), any other id is kept in ``State.picking`` (plain data, saved and cloned with the state) and
the next parts are asked.  So a set of cards is asked as its card types with their counts, one type
at a time in card order, then "done" when a larger set could still follow; a card that lies in
several zones is asked by type, then by zone; most answers are one id.

A key is a tuple; ids are positions in ``ActionCodec.keys``:

- ``("done",)``, ``("decline",)``: finish (a ``choose up to``, a set), decline a signal offer;
- ``("option", label)``: a static menu option, by its label;
- ``("answer", event, type)``: use a card of that type answering the event;
- ``("card", type)``: a card of that type (a ``choose card``, or an ``option each`` over cards);
- ``("zone", name, seat)``: the card lies in the zone ``name`` of the player ``seat`` seats after
  the chooser; ``("zone", key, None)`` for a zone of nobody (``key`` names a slot: ``row/2``);
- ``("seat", k)``: the player ``k`` seats after the chooser;
- ``("number", v)`` for ``v`` in ``NUMBERS``; ``("text", s)`` for every text of the effect text and
  the cards' properties;
- ``("take", type, k)``: ``k`` cards of that type in a set (only in games that choose sets);
- ``("item", node)``: the ``option each`` item of statement ``node``, asked when a value alone
  does not tell two items apart (or the item's values cannot be named);
- ``("other", j)``: the ``j``-th (``j < POSITIONS``) of the options that the parts above leave
  alike (two options of one item with the same card type in one zone, a number out of range, an
  item value the text does not show the kind of: a card's number would tell hidden cards apart);
  past ``POSITIONS`` such options, ``j`` is written in base ``POSITIONS``, one part per digit.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...errors import IllegalActionError
from ...lang import nodes as n
from ...lang.kinds import static_kind
from ...lang.nodes import walk

NUMBERS = range(-8, 65)
POSITIONS = 64
_CARDISH = ("card", "cards")
_PLAYERISH = ("player", "players")
DONE: tuple[str] = ("done",)

Key = tuple[Any, ...]
Path = tuple[Key, ...]


class ActionCodec:
    """The stable id space of one game (see the module docstring)."""

    def __init__(self, rules: Any):
        self.rules = rules
        cardset = rules.cardset
        types = list(dict.fromkeys(rules.instance_type))  # card types in play, in cardset order
        self.types = types
        self.type_order = {t: i for i, t in enumerate(types)}
        copies: dict[str, int] = {}
        for t in rules.instance_type:
            copies[t] = copies.get(t, 0) + 1
        players = rules.players
        menus = [node for node in rules.nodes if isinstance(node, n.Menu)]
        chooses = [node for node in rules.nodes if isinstance(node, n.Choose)]
        dynamic = [item for m in menus for item in m.items if isinstance(item, n.DynamicOption)]
        self.item_kind: dict[int, str | None] = {}
        sets = any(c.kind == "set" for c in chooses)
        for item in dynamic:
            kind = self._kind(item.source, cardset.functions) or self._reads_as_card(item)
            self.item_kind[id(item)] = kind
            sets = sets or kind == "set"
        keys: list[Key] = [DONE, ("decline",)]
        statics = sorted({item.label for m in menus for item in m.items if isinstance(item, n.StaticOption)})
        keys += [("option", label) for label in statics]
        answers = sorted({(event, t) for event, by_zone in rules.triggers.items()
                          for by_type in by_zone.values() for t in by_type if t in self.type_order})
        keys += [("answer", event, t) for event, t in answers]
        keys += [("card", t) for t in types]
        for name, z in cardset.zones.items():
            if z.per_player:
                keys += [("zone", name, k) for k in range(players)]
            else:
                keys += [("zone", key, None) for key in rules.zone_keys[name]]
        keys += [("seat", k) for k in range(players)]
        keys += [("number", v) for v in NUMBERS]
        keys += [("text", s) for s in sorted(self.texts(rules))]
        if sets:
            keys += [("take", t, k) for t in types for k in range(1, copies[t] + 1)]
        keys += [("item", rules.node_id[id(item)]) for item in dynamic]
        keys += [("other", j) for j in range(POSITIONS)]
        self.keys: tuple[Key, ...] = tuple(keys)
        self.index: dict[Key, int] = {key: i for i, key in enumerate(keys)}
        self._words: list[str] | None = None

    # ---- the id space, read from the cardset
    @staticmethod
    def texts(rules: Any) -> set[str]:
        """Every text of the effect text (literals) and of the cards' properties."""
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

    # ---- the paths of a state's options
    def paths(self, state: Any) -> list[Path]:
        """The path of each of ``state.legal_actions()``, in that order: the parts that name it."""
        asking = state.asking
        if asking is None:
            return []
        node, _, data, _ = state.stack[-1]
        chooser = asking[0]
        labels = asking[2]
        values = state.pending_values
        base: list[Path]
        if isinstance(node, n.Choose):
            base = [(DONE,) if i < 0 else self._value_path(state, node.kind, data[0][i], chooser) for i in values]
        elif isinstance(node, n.Menu):
            base = [self._menu_path(state, node, data[i], chooser) for i in values]
        elif isinstance(node, n.Signal):
            types = self.rules.instance_type
            base = [(("answer", node.event, types[e[1]]),) for e in data[0]] + [(("decline",),)]
        else:  # pragma: no cover - every question is asked by one of the three
            base = []
        if len(base) != len(labels):  # pragma: no cover - a question asked some other way: by position
            base = [()] * len(labels)
        return self._settle(base)

    def _settle(self, base: list[Path]) -> list[Path]:
        """Options whose path is empty or shared with another end in ``("other", j)``: ``j`` counts them
        in the order of the options (every one of them, so that the meaning of a path never depends on
        its neighbours). More than ``POSITIONS`` alike options (``choose number from`` 70 values the
        vocabulary has no number for) count in base ``POSITIONS``, one ``("other", digit)`` part per
        digit, the first digit first: every option of the group has as many parts, so no path is the
        start of another."""
        seen: dict[Path, int] = {}
        for path in base:
            seen[path] = seen.get(path, 0) + 1
        rank: dict[Path, int] = {}
        out = []
        for path in base:
            if not path or seen[path] > 1:
                j = rank[path] = rank.get(path, -1) + 1
                digits = 1
                while POSITIONS ** digits < seen[path]:
                    digits += 1
                path = path + tuple(("other", j // POSITIONS ** k % POSITIONS) for k in reversed(range(digits)))
            out.append(path)
        return out

    def _value_path(self, state: Any, kind: str | None, value: Any, chooser: int) -> Path:
        rules = self.rules
        if kind in _CARDISH and type(value) is int:
            return (("card", rules.instance_type[value]), self._zone_key(state.where[value], chooser))
        if kind in _PLAYERISH:
            return (("seat", (value - chooser) % rules.players),) if type(value) is int else ()
        if kind == "set":
            counts: dict[str, int] = {}
            for c in value if type(value) is tuple else (value,):
                t = rules.instance_type[c]
                counts[t] = counts.get(t, 0) + 1
            order = self.type_order
            return tuple(("take", t, counts[t]) for t in sorted(counts, key=order.__getitem__)) + (DONE,)
        if kind is not None and type(value) is int and value in NUMBERS:
            return (("number", value),)
        if type(value) is str and ("text", value) in self.index:
            return (("text", value),)
        return ()

    def _zone_key(self, key: str, chooser: int) -> Key:
        rules = self.rules
        owner = rules.zone_owner[key]
        if owner is None:
            return ("zone", key, None)
        return ("zone", key.split("/")[0], (owner - chooser) % rules.players)

    def _menu_path(self, state: Any, node: n.Menu, entry: tuple[str, int, Any], chooser: int) -> Path:
        _, idx, value = entry
        item = node.items[idx]
        if isinstance(item, n.StaticOption):
            return (("option", item.label),)
        if isinstance(item, n.AnswerOption):
            return (("answer", item.event, self.rules.instance_type[value]),)
        kind = self.item_kind.get(id(item))
        return self._value_path(state, kind, value, chooser) + (("item", self.rules.node_id[id(item)]),)

    # ---- one part at a time
    def _walk(self, paths: Sequence[Path], picked: Sequence[int]) -> tuple[list[int], int]:
        """The options still open after the parts ``picked`` (ids), and how many parts of their paths
        are settled (every part in which the open options agree is skipped)."""
        keys = self.keys
        live = list(range(len(paths)))
        depth = _agree(paths, live, 0)
        for i in picked:
            key = keys[i] if 0 <= i < len(keys) else None
            live = [j for j in live if _part(paths[j], depth) == key]
            if not live:
                raise IllegalActionError(f"the ids picked so far ({', '.join(map(str, picked))}) are no answer "
                                         "to the pending question")
            depth = _agree(paths, live, depth + 1)
        return live, depth

    def legal_ids(self, state: Any) -> list[int]:
        """The ids legal now: the next part of each option still open (see the module docstring)."""
        return self._legal(self.paths(state), state.picking)

    def _legal(self, paths: list[Path], picked: tuple[int, ...]) -> list[int]:
        if not paths:
            return []
        live, depth = self._walk(paths, picked)  # one option open: a question with one option
        index = self.index
        return list(dict.fromkeys(index[_part(paths[j], depth)] for j in live))

    def apply(self, state: Any, action_id: int) -> None:
        """Take the part ``action_id``: apply the option it leaves, or keep it in ``state.picking``."""
        paths = self.paths(state)
        ids = self._legal(paths, state.picking)
        if type(action_id) is not int or action_id not in ids:
            shown = ", ".join(map(str, ids[:12]))
            raise IllegalActionError(f"action id {action_id!r} is not legal now (legal ids: {shown}"
                                     f"{', ...' if len(ids) > 12 else ''})")
        picked = state.picking + (action_id,)
        live, _ = self._walk(paths, picked)
        if len(live) == 1:
            state.apply_index(live[0])
        else:
            state.picking = picked

    def options_of(self, state: Any, action_id: int) -> list[str]:
        """The labels of the options that the legal id ``action_id`` leaves open (one: the id applies it)."""
        if action_id not in self.legal_ids(state):
            raise IllegalActionError(f"action id {action_id!r} is not legal now")
        paths = self.paths(state)
        live, _ = self._walk(paths, state.picking + (action_id,))
        labels = state.asking[2]
        return [labels[j] for j in live]

    def check_picking(self, state: Any, picked: Sequence[int]) -> None:
        """Raise ``IllegalActionError`` unless ``picked`` is a partial answer to the pending question."""
        paths = self.paths(state)
        if picked and len(paths) < 2:
            raise IllegalActionError("a question with one option has no partial answer")
        live, _ = self._walk(paths, picked)
        if len(live) < 2:
            raise IllegalActionError("the ids picked so far already make a whole answer")

    def describe(self, action_id: int) -> str:
        """What an id means, in words (different words for every id of the game)."""
        if type(action_id) is not int or not 0 <= action_id < len(self.keys):
            raise IllegalActionError(f"no action id {action_id!r} in this game (ids are 0 .. {len(self.keys) - 1})")
        if self._words is None:
            self._words = self._all_words()
        return self._words[action_id]

    def _all_words(self) -> list[str]:
        """``describe_key`` of every key; words two keys share say the kind of each, then the card type."""
        words = [describe_key(key, self.rules) for key in self.keys]
        for qualify in (lambda key: _KIND_WORDS.get(key[0], key[0]), lambda key: str(key[1])):
            count: dict[str, int] = {}
            for w in words:
                count[w] = count.get(w, 0) + 1
            words = [f"{w} ({qualify(key)})" if count[w] > 1 else w for w, key in zip(words, self.keys)]
        return words


_KIND_WORDS = {"option": "menu option", "done": "finish", "text": "text", "number": "number", "card": "card",
               "answer": "answer", "seat": "seat", "take": "set part", "item": "item", "zone": "zone"}


def _part(path: Path, depth: int) -> Key:
    """The part of ``path`` at ``depth``; a path that ends there reads as Done."""
    return path[depth] if depth < len(path) else DONE


def _agree(paths: Sequence[Path], live: list[int], depth: int) -> int:
    """``depth`` moved past every part in which the open options (two or more) agree."""
    if len(live) < 2:
        return depth
    while all(depth < len(paths[j]) for j in live) and len({paths[j][depth] for j in live}) == 1:
        depth += 1
    return depth


def _seat(k: int) -> str:
    return "the chooser" if k == 0 else f"the player {k} after the chooser"


def describe_key(key: Key, rules: Any) -> str:
    tag = key[0]
    names = rules.defs
    if tag == "done":
        return rules.done_label
    if tag == "decline":
        return rules.decline_label
    if tag == "option":
        return key[1]
    if tag == "answer":
        return f"use {names[key[2]].name} answering '{key[1]}'"
    if tag == "card":
        return names[key[1]].name
    if tag == "zone":
        return f"in {key[1]}" if key[2] is None else f"in {key[1]} of {_seat(key[2])}"
    if tag == "seat":
        return _seat(key[1])
    if tag == "number":
        return str(key[1])
    if tag == "text":
        return f'"{key[1]}"'
    if tag == "take":
        return f"{key[2]} {names[key[1]].name}"
    if tag == "item":
        node = rules.nodes[key[1]]
        return f"option each {node.var} (line {node.span.line})"
    return f"the option {key[1] + 1} of those alike"
