"""Resampling: a state one player cannot tell from the real one, with what is hidden from them dealt anew.

What the player is taken to know (everything else is re-dealt at random):

- every card they see now (``_knowledge.seers``): in a zone shown to them, face up anywhere, or
  moved in their own sealed part; these stay in place;
- every card they saw and followed since (``State.known``): it stays in place, or, when its
  place in the zone was lost to a shuffle or a random insertion (``State.loose``), in its zone at
  a random free place;
- the shape of the table: every zone's size, which places hold a face-down card or a card of
  another player's sealed part, the marks on every place, counters, variables, round, phase,
  turn and the rules' pending frames;
- the events shown to them (``State.events(player)``); events hidden from them are dropped,
  and card names they were not shown are taken out of the events they were.

The cards not known are shuffled together and dealt over the places not known, zone by zone;
the deal and the new generator come from a hash of the seed and of the above, so two states the
player cannot tell apart give the same resample for the same seed.  The result is marked as
arranged (its history is not a real game's: every action reads ``"?"``).

Cards the rules hold follow the deal: each card a pending frame's variable, loop, choice or menu
holds, or a game variable, becomes the card dealt at its place (``_remap_held``; which variables
hold cards is read from the effect text once per game, ``knowledge.card_locals``).  When the
pending decision is another player's plain choice it is asked again for the new layout, so its
options do not name the true hidden cards; a deal on which it would not be asked the same way
is drawn again, and after ``ASK_AGAIN_DEALS`` deals ``resample`` raises ``RuleError`` rather than
return the question as it was.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from . import interpreter as interp
from . import knowledge
from ..lang import nodes as n
from .rng import Rng
from ..errors import RuleError

if TYPE_CHECKING:
    from .state import State

HIDDEN_ACTION = "?"
ASK_AGAIN_DEALS = 16  # deals tried for another player's pending question before resample gives up (RuleError)


def resample(state: "State", player: int, seed: int) -> "State":
    knowledge.settle(state)  # (the same state: what is known worked out from the notes)
    bit = 1 << player
    seen = [bool(m & bit) for m in knowledge.masks(state, range(len(state.where)))]
    cls = knowledge.resolved(state.classes[player], state.class_links[player])
    loose = state.loose
    zone_keys = sorted(state.zones)
    # what the player knows of the layout: the cards they see, and which unseen cards they can tell apart
    classes: dict[int, list[tuple[str, int]]] = {}  # class -> its unseen places, in zone order
    members: dict[int, list[int]] = {}  # class -> its unseen cards
    layout = []
    for key in zone_keys:
        row: list[Any] = []
        loose_places: list[int] = []
        loose_labels: list[int] = []
        for i, c in enumerate(state.zones[key]):
            if seen[c]:
                row.append(c)
                continue
            label = cls.get(c, 0)
            same = members.get(label)
            if same is None:
                members[label] = [c]
            else:
                same.append(c)
            if loose and loose.get(c, 0) & bit:
                loose_places.append(i)
                loose_labels.append(label)
                row.append(None)
            else:
                classes.setdefault(label, []).append((key, i))
                row.append(label)
        # the places of cards known only by zone say nothing: give them their classes in a fixed order
        loose_labels.sort()
        for i, label in zip(loose_places, loose_labels):
            classes.setdefault(label, []).append((key, i))
        layout.append([key, row, loose_labels])
    payload = json.dumps([seed, player, state.view(player), state.events(player), layout],
                         sort_keys=True, default=repr)
    digest = hashlib.blake2b(payload.encode(), digest_size=16).digest()
    log, index = _filtered_log(state, player)
    # Another player's pending question is asked again on the new deal (so its options name no
    # true hidden card); a deal on which it would not be asked the same way (fewer options, another
    # player) contradicts what the player sees, so a fresh deal is drawn, a few times at most.
    zones = state.zones
    plan = [(classes[label], sorted(members[label])) for label in sorted(classes)]
    loose_at = [(key, [i for i, c in enumerate(zones[key]) if not seen[c] and loose.get(c, 0) & bit])
                for key in zone_keys]
    loose_at = [(key, spots) for key, spots in loose_at if len(spots) > 1]
    for attempt in range(ASK_AGAIN_DEALS):
        deal = Rng(int.from_bytes(hashlib.blake2b(digest + bytes([attempt]), digest_size=8).digest(), "little"))
        new = state.clone()
        where = new.where
        rows: dict[str, list[int]] = {}
        slot_of: dict[int, int] = {}  # card dealt -> the card whose place it takes
        for places, members_of in plan:
            cards = members_of[:]
            if len(cards) > 1:
                deal.shuffle(cards)  # (a shuffle of one card draws nothing)
            for (key, i), c in zip(places, cards):
                old = slot_of[c] = zones[key][i]
                if c == old:
                    continue
                target = rows.get(key)
                if target is None:
                    target = rows[key] = new._zone_w(key)
                target[i] = c
                where[c] = key
        # cards the player knows but not their place in the zone: shuffled over those places
        for key, spots in loose_at:
            row = new._zone_w(key)
            cards = [row[i] for i in spots]
            deal.shuffle(cards)
            for i, c in zip(spots, cards):
                slot_of[c] = zones[key][i]
                row[i] = c
        knowledge.reset(new)
        new.classes[player] = dict(cls)
        new.class_seq = state.class_seq
        new.loose = {c: bit for c, m in loose.items() if m & bit}
        _move_place_marks(state, new, {c: old for c, old in slot_of.items() if c != old})
        new.log = list(log)
        new.stack = [
            (node, pc, (data[0], index[data[1]]) if type(node) is n.Simultaneously and data is not None else data, env)
            for node, pc, data, env in new.stack
        ]
        _remap_held(new, {old: c for c, old in slot_of.items() if c != old})
        new.history = [HIDDEN_ACTION] * len(state.history)
        new.seed = seed
        new.rng = Rng(int.from_bytes(digest[8:], "little"))
        new.arranged = True
        asked = _ask_again(new, player)
        if asked is not None:
            return asked
    # Never the last deal with the question left as it was: its options would name the true hidden cards
    # (and may name cards no longer where the question expects them).  Another seed deals other worlds.
    chooser, prompt = state.asking[:2] if state.asking is not None else (None, "")  # (always a question here)
    raise RuleError(f"resample for {state.player_label(player)}: none of {ASK_AGAIN_DEALS} deals of the cards "
                    f"hidden from them lets {state.player_label(chooser)}'s pending question ({prompt!r}) be asked "
                    "the same way; resample with another seed", getattr(state.stack[-1][0], "span", None))


def _move_place_marks(state: "State", new: "State", slot_of: dict[int, int]) -> None:
    """Face-down, sealed, marked and not-known-where belong to the place: the card dealt there takes them on."""
    if not slot_of:
        return
    down, sealed, marked = state.facedown, state.sealed_cards, state.marks
    if down or sealed or marked:
        for c in slot_of:
            new.facedown.discard(c)
            new.sealed_cards.pop(c, None)
            new.marks.pop(c, None)
    # the cards dealt are the cards whose places they take, in another order
    loose = new.loose
    place_loose = {c: loose.pop(c) for c in slot_of if c in loose} if loose else {}
    for c, old in slot_of.items():
        if place_loose and old in place_loose:
            loose[c] = place_loose[old]
        if down and old in down:
            new.facedown.add(c)
        if sealed:
            sealer = sealed.get(old)
            if sealer is not None:
                new.sealed_cards[c] = sealer
        if marked:
            marks = marked.get(old)
            if marks:
                new.marks[c] = marks


def _remap_held(new: "State", perm: dict[int, int]) -> None:
    """The cards the rules hold (pending frames' variables and loop items, cards offered by a pending
    choice, game variables) follow the deal: each becomes the card dealt at its place."""
    if not perm:
        return
    rules = new.rules
    remap = knowledge.remap_cards
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


def _filtered_log(state: "State", player: int) -> tuple[list[dict[str, Any]], list[int]]:
    """The events ``player`` may see, without card names they were not shown; old index -> new index."""
    log: list[dict[str, Any]] = []
    index: list[int] = []
    for event in state.log:
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
        log.append(event)
    index.append(len(log))
    return log, index


def _ask_again(new: "State", player: int) -> "State | None":
    """Another player's pending plain choice asked again, so its options come from the new deal;
    None when this deal would not ask it the same way."""
    d = new.decision
    if d is None or d.player == player or not new.stack:
        return new
    node, pc, data, env = new.stack[-1]
    if not (type(node) is n.Menu or (type(node) is n.Choose and not (data and data[1]))):
        return new
    trial = new.clone()
    trial.decision = None
    trial.stack[-1] = (node, 0, None, trial.stack[-1][3])
    try:
        interp.run(trial)
    except RuleError:
        return None
    if trial.decision is None or trial.decision.player != d.player or len(trial.log) != len(new.log):
        return None
    if trial.stack[-1][0] is not node:  # on this deal the question would not have been asked at all
        return None
    if trial.view(player) != new.view(player):
        return None
    return trial
