"""Observation vectors: a fixed-length list of floats per game, built from ``state.view(player)`` alone.

The layout (``Observer.slots`` describes every slot) is read from the cardset and the table when the
game is made, and seats are counted relative to the observer (``+0`` is the observer, ``+1`` the
next seat), so one layout serves every seat:

- the game: round, terminal, the observer's seat is deciding, the current and turn player (one-hot
  relative seats), the decision kind (one-hot, only when the observer decides);
- per zone key (a player's zone once per relative seat): its size, the number of face-down cards
  shown, and per card type the cards of that type the observer sees there (all of them in a zone
  they may see, the face-up ones elsewhere);
- per counter: its value per relative seat (or once for a game-wide counter); 0 where hidden;
- per game variable that holds a number or a truth value: its value (text variables and lists are
  left out, and variables declared ``visibility: nobody`` are not in the view);
- per relative seat and per mark word the effect text can write (a literal, or a literal joined
  with ``+`` to a text of the cards or the effect text): 1.0 when the seat carries that mark.

Because only the view is read, two states the observer cannot tell apart give the same vector.
"""

from __future__ import annotations

from typing import Any

from ...lang import nodes as n
from ...lang.nodes import walk

KINDS = ("option", "trigger", "player", "players", "card", "cards", "set", "number", "value")


class Layout:
    """What both observation layouts have: their slots, and where the counters, variables and player
    marks are (set by ``table_slots``, filled by ``fill_table``)."""

    slots: tuple[str, ...]
    players: int
    counters: list[tuple[str, bool, int]]
    vars: list[tuple[str, int]]
    marks: list[str]
    mark_index: dict[str, int]
    marks_at: int


class Observer(Layout):
    """The full observation layout of one game."""

    def __init__(self, rules: Any, texts: set[str]):
        cardset = rules.cardset
        players = rules.players
        self.players = players
        self.types = list(dict.fromkeys(rules.instance_type))
        self.type_index = {t: i for i, t in enumerate(self.types)}
        slots: list[str] = ["round", "terminal", "observer is deciding"]
        slots += [f"current player is seat +{k}" for k in range(players)]
        slots += [f"turn player is seat +{k}" for k in range(players)]
        slots += [f"decision kind is {kind}" for kind in KINDS]
        self.zones: list[tuple[str, int, int | None]] = []  # (zone name or key, first slot, owner offset)
        for name, z in cardset.zones.items():
            places = [(name, k) for k in range(players)] if z.per_player else [(key, None) for key in rules.zone_keys[name]]
            for key, k in places:
                where = f"{key} of seat +{k}" if k is not None else key
                self.zones.append((key, len(slots), k))
                slots += [f"{where}: cards", f"{where}: face-down cards shown"]
                slots += [f"{where}: {t} seen" for t in self.types]
        table_slots(self, rules, slots, _mark_words(rules, texts))
        self.slots = tuple(slots)

    def observe(self, view: dict[str, Any]) -> list[float]:
        players = self.players
        me = view["player"]
        out = [0.0] * len(self.slots)
        out[0] = float(view["round"] or 0)
        out[1] = 1.0 if view["terminal"] else 0.0
        decision = view.get("decision") or {}
        if decision.get("player") == me:
            out[2] = 1.0
            kind = decision.get("kind")
            if kind in KINDS:
                out[3 + 2 * players + KINDS.index(kind)] = 1.0
        current = view.get("current_player")
        if type(current) is int:
            out[3 + (current - me) % players] = 1.0
        turn = view.get("turn_player")
        if type(turn) is int:
            out[3 + players + (turn - me) % players] = 1.0
        zones = view["zones"]
        index = self.type_index
        for key, at, k in self.zones:
            zone = zones[f"{key}/{(me + k) % players}" if k is not None else key]
            out[at] = float(zone["count"])
            shown = zone.get("cards")
            if shown is None:
                shown = zone.get("face_up", ())
            for t in shown:
                if t is None:
                    out[at + 1] += 1.0
                elif t in index:
                    out[at + 2 + index[t]] += 1.0
        fill_table(self, view, out)
        return out


def table_slots(layout: Any, rules: Any, slots: list[str], mark_words: set[str]) -> None:
    """Append the slots of the counters, the number and truth variables and the player marks to ``slots``
    and say where they are on ``layout`` (see ``fill_table``)."""
    cardset = rules.cardset
    players = rules.players
    layout.counters = []
    for name, c in cardset.counters.items():
        layout.counters.append((name, c.per_player, len(slots)))
        slots += [f"counter {name} of seat +{k}" for k in range(players)] if c.per_player else [f"counter {name}"]
    hidden = set(cardset.hidden_vars)
    layout.vars = []
    for name, value in cardset.vars.items():
        if name not in hidden and type(value) in (int, float, bool):
            layout.vars.append((name, len(slots)))
            slots.append(f"var {name}")
    layout.marks = sorted(mark_words)
    layout.mark_index = {m: i for i, m in enumerate(layout.marks)}
    layout.marks_at = len(slots)
    slots += [f"seat +{k} has mark {m}" for k in range(players) for m in layout.marks]


def fill_table(layout: Any, view: dict[str, Any], out: list[float]) -> None:
    """The counters, variables and player marks of ``view`` into ``out``, where ``layout`` (an observer)
    says: ``counters`` (name, per player, first slot), ``vars`` (name, slot), ``marks`` (the words),
    ``mark_index`` and ``marks_at``."""
    players = layout.players
    me = view["player"]
    counters = view["counters"]
    for name, per_player, at in layout.counters:
        value = counters.get(name)
        if value is None:
            continue
        if not per_player:
            out[at] = _number(value)
        elif type(value) is dict:  # owner visibility: the observer's own value
            out[at] = _number(value.get(str(me), value.get(me, 0)))
        else:
            for k in range(players):
                out[at + k] = _number(value[(me + k) % players])
    variables = view["vars"]
    for name, at in layout.vars:
        out[at] = _number(variables.get(name))
    width = len(layout.marks)
    for seat, words in enumerate(view.get("player_marks") or []):
        base = layout.marks_at + ((seat - me) % players) * width
        for word in words:
            i = layout.mark_index.get(word)
            if i is not None:
                out[base + i] = 1.0


def _number(value: Any) -> float:
    if type(value) in (int, float, bool):
        return float(value)
    return 0.0


def _mark_words(rules: Any, texts: set[str]) -> set[str]:
    """The words ``mark player`` can write: literals, and a literal prefix joined to any known text."""
    words: set[str] = set()
    for node in rules.nodes:
        for sub in walk(node):
            if isinstance(sub, n.Mark) and sub.target_kind == "player":
                mark = sub.mark
                if isinstance(mark, n.Literal) and type(mark.value) is str:
                    words.add(mark.value)
                elif (isinstance(mark, n.BinOp) and mark.op == "+" and isinstance(mark.left, n.Literal)
                      and type(mark.left.value) is str):
                    words.update(mark.left.value + t for t in texts)
    return words
