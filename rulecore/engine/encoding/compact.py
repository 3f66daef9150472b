"""The compact observation: the table as counts per card type and zone, for a network's input.

Built from ``state.view(player)`` alone, like the full observation (``observation.py``), with seats
counted from the observer (``+0``) and a layout fixed per game (``CompactObserver.slots`` names every
slot):

- the game: round, terminal, the observer is deciding, the current and turn player (one-hot
  relative seats), the phase (one-hot), the decision kind (one-hot, only when the observer decides);
- the answer in progress (``State.picking``, only the observer's own): how many ids are taken, and
  the card types (a set's counts), seat, number, text or ``option each`` item they name;
- per zone key (a player's zone once per relative seat): its size and the face-down cards shown;
- per card type and zone, the cards of that type the observer sees there, only where the type can
  ever lie (``reach.py``) and only in zones the observer can see or where cards can lie face up.  A
  player's zone is counted per relative seat when the whole layout stays within ``budget`` floats;
  otherwise the other seats' zones of one name are counted together ("of the others");
- per such zone and card mark word: the cards the observer sees there with that mark (only words
  the text can write on the cards that can lie there);
- counters (per relative seat, or once), number and truth variables, and the marks each relative
  seat carries.
"""

from __future__ import annotations

from typing import Any

from ...lang import nodes as n
from .actions import ActionCodec
from .observation import KINDS, Layout, fill_table, table_slots
from .reach import Reach

BUDGET = 2000
_Region = tuple[dict[str, int], dict[str, int]]  # card type -> slot, mark word -> slot


class CompactObserver(Layout):
    """The compact observation layout of one game."""

    def __init__(self, rules: Any, codec: ActionCodec, reach: Reach, budget: int = BUDGET):
        self.rules = rules
        self.codec = codec
        self.reach = reach
        self.players = rules.players
        self.folded = False
        self._build()
        if len(self.slots) > budget and self.players > 2:
            self.folded = True
            self._build()

    def _build(self) -> None:
        rules, codec, reach = self.rules, self.codec, self.reach
        cardset = rules.cardset
        players = self.players
        slots: list[str] = ["round", "terminal", "observer is deciding"]
        slots += [f"current player is seat +{k}" for k in range(players)]
        slots += [f"turn player is seat +{k}" for k in range(players)]
        phases = list(dict.fromkeys(node.name for node in rules.nodes if type(node) is n.Phase))
        self.phase_at = {name: len(slots) + i for i, name in enumerate(phases)}
        slots += [f"phase is {name}" for name in phases]
        self.kind_at = len(slots)
        slots += [f"decision kind is {kind}" for kind in KINDS]
        # the answer in progress
        self.taken_at = len(slots)
        slots.append("answer: ids taken")
        self.taken: dict[tuple[Any, ...], int] = {}
        for t in codec.types:
            self.taken[("card", t)] = len(slots)
            slots.append(f"answer: {t} taken")
        for k in range(players):
            self.taken[("seat", k)] = len(slots)
            slots.append(f"answer: seat +{k} taken")
        self.taken_number = len(slots)
        slots += ["answer: the number taken", "answer: a text taken"]
        for key in codec.keys:
            if key[0] == "item":
                self.taken[key] = len(slots)
                slots.append(f"answer: {codec.describe(codec.index[key])} taken")
        # zones: every key's size, then per region the card types and marks seen
        self.places: list[tuple[str, int | None, int, _Region | None]] = []  # (name or key, seat, slot, region)
        regions: dict[tuple[str, int | None], _Region | None] = {}
        types = codec.types
        for name, z in cardset.zones.items():
            for seat in (list(range(players)) if z.per_player else [None]):
                if seat is None:
                    region_key: tuple[str, int | None] = (name, None)
                    where = name
                else:
                    region_key = (name, 0 if seat == 0 else seat if not self.folded else -1)
                    where = f"{name} of seat +{seat}" if seat == 0 or not self.folded else f"{name} of the others"
                if region_key not in regions:
                    seen = (z.visibility == "everyone" or (z.visibility == "owner" and seat == 0)
                            or name in reach.face_up)
                    reachable = reach.zones.get(name, frozenset())
                    if seen and reachable:
                        by_type = {}
                        for t in types:
                            if t in reachable:
                                by_type[t] = len(slots)
                                slots.append(f"{where}: {t} seen")
                        by_mark = {}
                        for word, marked in sorted(reach.marked.items()):
                            if marked & reachable:
                                by_mark[word] = len(slots)
                                slots.append(f"{where}: cards marked {word}")
                        regions[region_key] = (by_type, by_mark)
                    else:
                        regions[region_key] = None
                for key in rules.zone_keys[name] if seat is None else (name,):
                    label = f"{name} of seat +{seat}" if seat is not None else key
                    self.places.append((key, seat, len(slots), regions[region_key]))
                    slots += [f"{label}: cards", f"{label}: face-down cards shown"]
        table_slots(self, rules, slots, reach.player_marks)
        self.slots = tuple(slots)

    def observe(self, view: dict[str, Any]) -> list[float]:
        players = self.players
        me = view["player"]
        out = [0.0] * len(self.slots)
        out[0] = float(view["round"] or 0)
        out[1] = 1.0 if view["terminal"] else 0.0
        current = view.get("current_player")
        if type(current) is int:
            out[3 + (current - me) % players] = 1.0
        turn = view.get("turn_player")
        if type(turn) is int:
            out[3 + players + (turn - me) % players] = 1.0
        phase = self.phase_at.get(view.get("phase"))  # type: ignore[arg-type]
        if phase is not None:
            out[phase] = 1.0
        decision = view.get("decision") or {}
        if decision.get("player") == me:
            out[2] = 1.0
            kind = decision.get("kind")
            if kind in KINDS:
                out[self.kind_at + KINDS.index(kind)] = 1.0
            self._taken(out, decision.get("picked") or ())
        zones = view["zones"]
        for key, k, at, region in self.places:
            zone = zones[f"{key}/{(me + k) % players}" if k is not None else key]
            out[at] = float(zone["count"])
            shown = zone.get("cards")
            if shown is None:
                shown = zone.get("face_up", ())
            out[at + 1] = float(shown.count(None))
            if region is None:
                continue
            by_type, by_mark = region
            for t in shown:
                slot = by_type.get(t) if t is not None else None
                if slot is not None:
                    out[slot] += 1.0
            for words in (zone.get("marks") or {}).values():
                for word in words:
                    slot = by_mark.get(word)
                    if slot is not None:
                        out[slot] += 1.0
        fill_table(self, view, out)
        return out

    def _taken(self, out: list[float], picked: Any) -> None:
        keys = self.codec.keys
        out[self.taken_at] = float(len(picked))
        for i in picked:
            key = keys[i]
            tag = key[0]
            if tag == "take":
                out[self.taken[("card", key[1])]] += float(key[2])
            elif tag == "number":
                out[self.taken_number] = float(key[1])
            elif tag == "text":
                out[self.taken_number + 1] = 1.0
            else:
                slot = self.taken.get(key)
                if slot is not None:
                    out[slot] += 1.0
