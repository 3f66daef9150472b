"""Resampling: a state one player cannot tell from the real one, with what is hidden from them dealt anew.

What the player is taken to know (everything else is re-dealt at random):

- every card they see now (``_knowledge.masks``): in a zone shown to them, face up anywhere, or
  moved in their own sealed part; these stay in place;
- every card they saw and followed since (a class of its own): it stays in place, or, when its
  place in the zone was lost to a shuffle or a random insertion (``State.loose``), in its zone at
  a random place among those holding such a card or a card of a class of several;
- the shape of the table: every zone's size, which places hold a face-down card or a card of
  another player's sealed part, the marks on every place, counters, variables, round, phase,
  turn and the rules' pending frames;
- the events shown to them (``State.events(player)``); events hidden from them are dropped,
  and card names they were not shown are taken out of the events they were.

The cards not known are dealt over the places not known, class by class: the places the player
does not see are numbered in zone order (*slots*), the cards of each class are named in card
order, every card draws a random 64-bit key (all keys from one ``shake_128`` call), and each
class's cards go to its slots in the order of their keys (a class of one card stays where it
is); cards known only by zone are then shuffled over their zone's lost places the same way.
Nothing of the world is laid out from the true cards: classes are numbered by their lowest card
(``_canonical``), and the tables keyed by card (``loose``, ``marks``, ``sealed_cards``) are in card
order, so that the world, its saved JSON included, is a function of what the player knows.
The keys and the new generator come from a hash of the seed and of what the player knows: the
cards they see where they see them, the classes of the others and the lost places, the rest of
the table as ``view`` shows it (round, phase, turn, counters, shown variables, marks, their own
pending question) and how many events they were shown.  Any part of what the player knows would
keep the promise (two states they cannot tell apart resample alike for one seed); these parts
are hashed so that one seed deals other worlds in other situations, and neither the whole view
nor the events need to be built.  The result is marked as arranged (its history is not a real
game's: every action reads ``"?"``).  All of this but the deal is read once per state and player
(``Dealer``), so the worlds of many seeds (``State.resample_many``) share it.

Cards the rules hold follow the deal: each card a pending frame's variable, loop, choice or menu
holds, or a game variable, becomes the card dealt at its place (``_remap_held``; which variables
hold cards is read from the effect text once per game, ``held.card_locals``).  When the
pending decision is another player's plain choice it is asked again for the new layout, so its
options do not name the true hidden cards; a deal on which it would not be asked the same way
is drawn again, and after ``ASK_AGAIN_DEALS`` deals ``resample`` raises ``RuleError`` rather than
return the question as it was.
"""

from __future__ import annotations

import hashlib
import json
import struct
from bisect import bisect_left
from collections import Counter
from typing import TYPE_CHECKING, Any

from . import held, knowledge, sealed
from ...lang import nodes as n
from ..interpreter.driver import run
from ..rng import Rng
from ...errors import RuleError

if TYPE_CHECKING:
    from ..state import State

HIDDEN_ACTION = "?"
ASK_AGAIN_DEALS = 16  # deals tried for another player's pending question before resample gives up (RuleError)


class Dealer:
    """What ``player`` knows of ``state``, read once, and ``deal``, which deals a world from a seed: the
    worlds of one state for many seeds (a search's) share the reading, the larger part of the work."""

    def __init__(self, state: "State", player: int) -> None:
        # inside sealed parts: the world is dealt from the table as the player sees it (the others' parts that
        # ran are taken back in it: what they did, even how much, is not known)
        state = self.state = sealed.seen(state, player)
        self.player = player
        knowledge.settle(state)  # (the same state: what is known worked out from the notes; once per state)
        bit = self.bit = 1 << player
        # the player's classes numbered canonically (by their lowest card), not by when they were formed: the
        # numbers given out follow every player's knowledge, and the deal and the world must not depend on them
        cls = self.cls = _canonical(knowledge.resolved(state.classes[player], state.class_links[player]))
        loose = state.loose
        zone_keys = sorted(state.zones)
        # What the player knows of the layout: per zone, the cards they see where they see them (the count
        # alone when they see none); the places they do not see are *slots*, numbered in zone order.
        rows, hidden, self.segments = _layout(state, player, zone_keys)
        self.hidden = hidden
        # the class each hidden card is in for the player, and the class each slot is dealt from: its own
        # card's, but the slots of the cards known only by zone ("loose") take those cards' classes in a
        # fixed order, since where in the zone each of them lies says nothing
        labels = [cls.get(c, 0) for c in hidden] if cls else [0] * len(hidden)
        place_labels = labels
        loose_slots: list[list[int]] = []
        lost = {c for c, m in loose.items() if m & bit} if loose else None
        if lost and not lost.isdisjoint(hidden):
            # Which places a card known only by zone may lie at must not come from where it truly lies.  A lost
            # card of a class of several is no better known than its class (the class deal already puts it at
            # random): it is lost no more.  A lost card of a class of its own (the player knows it, and so its
            # zone) may lie at any place of its zone that holds a lost card or a card of a class of several; the
            # cards at those places are shuffled over them, their classes laid out in class order.
            sizes = Counter(labels)
            lost = {c for c in lost if sizes[cls.get(c, 0)] == 1} | (lost - set(hidden))
            lost_slots = [s for s, c in enumerate(hidden) if c in lost]
            if lost_slots:
                place_labels = labels[:]
                for _, start, idx in self.segments:  # the lost slots of each zone
                    a, b = bisect_left(lost_slots, start), bisect_left(lost_slots, start + len(idx))
                    if a < b:
                        spots = [s for s in range(start, start + len(idx))
                                 if hidden[s] in lost or sizes[labels[s]] > 1]
                        for s, label in zip(spots, sorted([labels[s] for s in spots])):
                            place_labels[s] = label
                        loose_slots.append(spots)
        self.lost, self.loose_slots = lost, loose_slots
        self.log, self.index = _filtered_log(state, player)
        # The deal and the new generator come from a digest of the seed and of what the player knows of the
        # layout and of the table: the same for every state they cannot tell apart, and cheap (neither the
        # full view nor the events are hashed: any part of what the player knows keeps that promise).  Its
        # text is ``repr((seed, player, ...))``: all but the seed is written here, once.
        self.known = repr((player, _table(state, player), len(self.log), rows, place_labels, loose_slots))[1:]
        count = self.count = len(hidden)
        draws = count + sum(len(spots) for spots in loose_slots if len(spots) > 1)
        self.unpack = struct.Struct(f"<{draws}Q").unpack
        self.draws = draws
        # the cards as the player can name them, by class then by card; the runs of a class of several cards
        # (a class of one card is dealt as it is); where each slot's card lies in that order (slots by class,
        # then in zone order)
        one_class = place_labels is labels and (not count or labels.count(labels[0]) == count)
        named = sorted(hidden)
        self.order: list[int] | None = None
        if one_class:
            self.runs = [(0, count)]
        else:
            named_labels = [cls.get(c, 0) for c in named]
            named = [named[i] for i in sorted(range(count), key=named_labels.__getitem__)]
            self.runs = _runs(labels)
            # (the inverse of a permutation is the order that sorts it)
            slots = sorted(range(count), key=place_labels.__getitem__)
            self.order = sorted(range(count), key=slots.__getitem__)
        self.named = named

    def deal(self, seed: int) -> "State":
        """A world ``player`` cannot tell from ``state``, dealt from ``seed`` (see the module's docstring)."""
        state, player, hidden, named, order, runs = self.state, self.player, self.hidden, self.named, self.order, self.runs
        digest = hashlib.blake2b(f"({seed!r}, {self.known}".encode(), digest_size=16).digest()
        unmoved = list(range(self.count))
        # Another player's pending question is asked again on the new deal (so its options name no
        # true hidden card); a deal on which it would not be asked the same way (fewer options, another
        # player) contradicts what the player sees, so a fresh deal is drawn, a few times at most.
        for attempt in range(ASK_AGAIN_DEALS):
            # one random 64-bit key per card, all from one call: each class is dealt in the order of its keys
            keys = self.unpack(hashlib.shake_128(digest + bytes([attempt])).digest(8 * self.draws))
            by_key = keys.__getitem__
            picks = unmoved[:]
            for a, b in runs:
                picks[a:b] = sorted(range(a, b), key=by_key)
            dealt = [named[picks[i]] for i in order] if order is not None else [named[i] for i in picks]
            # cards the player knows but not their place in the zone: shuffled over the places they may lie at
            at = self.count
            for spots in self.loose_slots:
                if len(spots) > 1:
                    cards = [dealt[s] for s in spots]
                    for s, i in zip(spots, sorted(range(at, at + len(spots)), key=by_key)):
                        dealt[s] = cards[i - at]
                    at += len(spots)
            new = state.clone()
            where = new.where
            for key, start, idx in self.segments:
                end = start + len(idx)
                part = dealt[start:end]
                if part == hidden[start:end]:
                    continue
                row = new._zone_w(key)
                if type(idx) is range:
                    row[:] = part
                else:
                    for i, c in zip(idx, part):
                        row[i] = c
                for c in part:
                    where[c] = key
            perm = {old: c for old, c in zip(hidden, dealt) if old != c}  # the card at a place -> the card dealt there
            knowledge.reset(new)
            new.classes[player] = self.cls  # one table for every world of this dealer: copied on write
            new.owned_classes &= ~self.bit
            new.class_seq = max(self.cls.values(), default=0)
            # (the places of the cards known only by zone stay so: the cards dealt there are)
            lost = self.lost
            new.loose = dict.fromkeys(sorted(lost), self.bit) if lost else {}  # (each of a class of its own: dealt as it is)
            _move_place_marks(state, new, perm)
            # every table keyed by card in card order: an order built while dealing would follow the true cards
            new.marks = dict(sorted(new.marks.items()))
            new.sealed_cards = dict(sorted(new.sealed_cards.items()))
            new.log = self.log[:]
            index = self.index
            if index is not None:
                new.stack = [
                    (node, pc, (data[0], index[data[1]]) if type(node) is n.Simultaneously and data is not None
                     else data, env)
                    for node, pc, data, env in new.stack
                ]
            _remap_held(new, perm)
            new.sealed_ops = sealed.remapped(new.sealed_ops, perm)
            new.history = [HIDDEN_ACTION] * len(state.history)
            new.seed = seed
            new.rng = Rng(int.from_bytes(digest[8:], "little"))
            new.arranged = True
            asked = _ask_again(new, player)
            if asked is not None:
                if asked.current_player != player:
                    asked.picking = ()  # another's partial answer (apply_id) is theirs alone
                return asked
        # Never the last deal with the question left as it was: its options would name the true hidden cards
        # (and may name cards no longer where the question expects them).  Another seed deals other worlds.
        chooser, prompt = state.asking[:2] if state.asking is not None else (None, "")  # (always a question here)
        raise RuleError(f"resample for {state.player_label(player)}: none of {ASK_AGAIN_DEALS} deals of the cards "
                        f"hidden from them lets {state.player_label(chooser)}'s pending question ({prompt!r}) be "
                        "asked the same way; resample with another seed", getattr(state.stack[-1][0], "span", None))


def _table(state: "State", player: int) -> tuple[Any, ...]:
    """What ``player`` sees of the table besides the cards (as ``State.view`` shows it, cheaply)."""
    rules = state.rules
    counters: list[Any] = []
    for name, cdef in rules.cardset.counters.items():
        if cdef.visibility == "everyone":
            counters.append(state.counters[name])
        elif cdef.visibility == "owner" and cdef.per_player:
            counters.append(state.counters[name][player])
    hidden_vars = rules.cardset.hidden_vars
    asking = state.asking
    shown_vars = {k: v for k, v in state.vars.items() if k not in hidden_vars}
    return (state.round, state.phase, state.turn_player, state.terminal, counters, state.player_marks,
            json.dumps(shown_vars, sort_keys=True, default=repr) if shown_vars else None,
            None if asking is None else (asking[0], asking[1], asking[3], asking[4]) if asking[0] == player
            else asking[0])


def _canonical(cls: dict[int, int]) -> dict[int, int]:
    """A player's classes (card -> class, class 0 left out) renumbered 1, 2, ... in the order of each class's
    lowest card, in card order: the same for every history that leaves the player knowing the same."""
    label: dict[int, int] = {}
    out = {}
    for card in sorted(cls):
        if cls[card]:
            out[card] = label.setdefault(cls[card], len(label) + 1)
    return out


def _runs(labels: list[int]) -> list[tuple[int, int]]:
    """The (start, end) of each class of two or more cards in the cards sorted by class."""
    out = []
    start = 0
    for label, size in sorted(Counter(labels).items()):
        if size > 1:
            out.append((start, start + size))
        start += size
    return out


def _layout(state: "State", player: int, zone_keys: list[str]) -> tuple[list[Any], list[int], list[Any]]:
    """What ``player`` sees of each zone (its cards, with None for each card hidden from them; the count
    alone for a zone they see nothing of), the cards hidden from them in zone order, and per zone with
    such cards (key, first slot, the cards' places in the zone: a range for the whole zone)."""
    bit = 1 << player
    zone_seers = state.rules.zone_seers
    faceup, facedown, revealed, sealed = state.faceup, state.facedown, state.revealed, state.sealed_cards
    rows: list[Any] = []
    hidden: list[int] = []
    segments: list[Any] = []
    for key in zone_keys:
        cards = state.zones[key]
        if not cards:
            rows.append(0)
            continue
        if key in revealed or zone_seers[key] & bit:
            if (not facedown or facedown.isdisjoint(cards)) and (not sealed or sealed.keys().isdisjoint(cards)):
                rows.append(cards)  # every card of it seen
                continue
            row = [c if c in faceup or (c not in facedown and sealed.get(c, player) == player) else None
                   for c in cards]
        elif not faceup or faceup.isdisjoint(cards):
            rows.append(len(cards))  # none of it seen
            segments.append((key, len(hidden), range(len(cards))))
            hidden += cards
            continue
        else:
            row = [c if c in faceup else None for c in cards]
        rows.append(row)
        idx = [i for i, c in enumerate(row) if c is None]
        if idx:
            segments.append((key, len(hidden), idx))
            hidden += [cards[i] for i in idx]
    return rows, hidden, segments


def _move_place_marks(state: "State", new: "State", perm: dict[int, int]) -> None:
    """Face-down, sealed and marked belong to the place: the card dealt there takes them on.

    ``perm``: the card that lay at a place -> the card dealt there (the cards dealt are the cards whose
    places they take, in another order)."""
    if not perm:
        return
    hit = state.facedown & perm.keys()
    if hit:
        down = new.facedown
        down -= hit
        down.update([perm[c] for c in hit])
    _move_entries(state.sealed_cards, new.sealed_cards, perm)
    _move_entries(state.marks, new.marks, perm)


def _move_entries(old: dict[int, Any], new: dict[int, Any], perm: dict[int, int]) -> None:
    """``new`` (a copy of ``old``) with each entry of a card in ``perm`` moved to the card dealt at its place."""
    hit = sorted(old.keys() & perm.keys())
    if hit:
        moved = [(perm[c], old[c]) for c in hit]
        for c in hit:
            del new[c]
        new.update(moved)


def _remap_held(new: "State", perm: dict[int, int]) -> None:
    """The cards the rules hold (pending frames' variables and loop items, cards offered by a pending
    choice, game variables) follow the deal: each becomes the card dealt at its place."""
    if not perm:
        return
    rules = new.rules
    remap = held.remap_cards
    for name in rules.card_vars:
        if name in new.vars:
            new.vars[name] = remap(new.vars[name], perm)
    done: set[int] = set()  # envs are shared by the frames of one call (clone copied them already)
    stack = new.stack
    for i, (node, pc, data, env) in enumerate(stack):
        names = rules.card_locals.get(id(node), ())
        if id(env) not in done:
            done.add(id(env))
            for name in names:
                if name in env:
                    env[name] = remap(env[name], perm)
        if data is None:
            continue
        t = type(node)
        if t is n.ForEach and node.var in names:
            data = remap(data, perm)
        elif t is n.Choose and node.kind in ("card", "cards", "set"):
            data = (remap(data[0], perm), remap(data[1], perm)) + tuple(data[2:])
        elif t is n.Menu and pc == 1:
            data = tuple((label, idx, remap(value, perm))
                         if type(node.items[idx]) is n.DynamicOption and node.items[idx].var in names
                         else (label, idx, value) for label, idx, value in data)
        stack[i] = (node, pc, data, env)


def _filtered_log(state: "State", player: int) -> tuple[list[dict[str, Any]], list[int] | None]:
    """The events ``player`` may see, without card names they were not shown; old index -> new index
    (None when no pending frame keeps an index into the log)."""
    log: list[dict[str, Any]] = []
    keep = log.append
    index: list[int] | None = None
    if any(type(node) is n.Simultaneously and data is not None for node, _, data, _ in state.stack):
        index = []
    for event in state.log:
        if index is not None:
            index.append(len(log))
        to = event.get("to")
        if to is not None and player not in to:
            continue
        sealed = event.get("sealed")
        if sealed is not None and sealed != player:
            continue
        if "cards" in event:
            seen = event.get("seen")
            if seen is not None and player not in seen:
                event = {k: v for k, v in event.items() if k not in ("cards", "private_text", "seen")}
        keep(event)
    if index is not None:
        index.append(len(log))
    return log, index


def _ask_again(new: "State", player: int) -> "State | None":
    """Another player's pending plain choice asked again, so its options come from the new deal;
    None when this deal would not ask it the same way."""
    asking = new.asking
    if asking is None or asking[0] == player or not new.stack:
        return new
    node, pc, data, env = new.stack[-1]
    if not (type(node) is n.Menu or (type(node) is n.Choose and not (data and data[1]))):
        return new
    trial = new.clone()
    trial.asking = None
    trial.stack[-1] = (node, 0, None, trial.stack[-1][3])
    try:
        run(trial)
    except RuleError:
        return None
    if trial.asking is None or trial.asking[0] != asking[0] or len(trial.log) != len(new.log):
        return None
    if trial.stack[-1][0] is not node:  # on this deal the question would not have been asked at all
        return None
    if not _same_table(trial, new) and trial.view(player) != new.view(player):
        return None
    return trial


def _same_table(a: "State", b: "State") -> bool:
    """Is everything ``State.view`` shows of the table the same in both (the pending question aside)?
    A cheap test first: when it holds, the views of anyone the question is not asked of are equal."""
    return (a.zones == b.zones and a.facedown == b.facedown and a.faceup == b.faceup and a.revealed == b.revealed
            and a.sealed_cards == b.sealed_cards and a.marks == b.marks and a.counters == b.counters
            and a.vars == b.vars and a.player_marks == b.player_marks and a.round == b.round
            and a.phase == b.phase and a.turn_player == b.turn_player and a.terminal == b.terminal)
