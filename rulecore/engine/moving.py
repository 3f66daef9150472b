"""Cards changing place and how they lie: ``move``, ``flip`` and ``rotate``, the methods of ``State``
that the interpreter moves cards with, and what every player can tell of each change (noted for
``knowing/knowledge.py``, and for ``knowing/sealed.py`` inside sealed parts).

``move`` takes one of three ways, each giving the same state: ``_move_plain`` when no card lies face
up or down and nothing is revealed, sealed or logged (random play, most of the bots' look-ahead);
``_move_lying`` when some cards lie face up or down (or the move turns them) but nothing is revealed,
sealed or logged; else the general way, which also notes sealed moves, hides revealed zones and logs
the move.  Zone lists are changed through ``State._zone_w`` (copy on write, see ``state.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .knowing import knowledge, sealed

if TYPE_CHECKING:
    from .state import State


def move(state: "State", cards: Iterable[int], dest: str, position: str, face: str | None, actor: Any,
         by_kind: int = 0, pool: Sequence[int] | None = None) -> None:
    """Move cards; ``by_kind``: how the rules picked them (``knowledge.how_picked``: by place, by a
    property, a whole zone);
    ``pool``: the cards of a kind they were picked from (what every player can tell of the pick)."""
    if not (state.record_events or state.sealing is not None or state.revealed or state.sealed_cards):
        if face or state.faceup or state.facedown:
            return _move_lying(state, cards, dest, position, face, by_kind, pool)
        return _move_plain(state, cards, dest, position, by_kind, pool)
    where = state.where
    target = state._zone_w(dest)
    zone_w = state._zone_w
    cards = list(cards)
    events = state.record_events
    # seen face up by everyone as it left (only the event log needs it)
    was_up = {c for c in cards if c in state.faceup} if events and state.faceup else frozenset()
    before = knowledge.masks(state, cards)
    sources: dict[str, list[int]] = {}
    # how the cards lie: nothing to do when no card lies face up or down and none is turned
    lying = face is not None or state.faceup or state.facedown
    sealing = state.sealing if face != "up" else None
    noting: list[Any] | None = [] if state.sealing is not None else None  # inside sealed parts: sealed.note
    for c in cards:
        src = where[c]
        if noting is not None:
            row = zone_w(src)
            noting.append((c, src, row.index(c), sealed.lie(state, c)))
        zone_w(src).remove(c)
        sources.setdefault(src, []).append(c)
        where[c] = dest
        if lying:
            lie(state, c, face)
        if sealing is not None:
            # moved in a sealed part: only its player sees it until all parts are done
            state.sealed_cards[c] = sealing
    _place(state, target, cards, position)
    if noting is not None:  # a move face up is no one's: everyone sees it at once
        for c, src, index, lay in noting:
            sealed.note(state, ("move", sealing, c, src, index, dest, target.index(c), lay, sealed.lie(state, c)))
    if state.revealed:
        # a reveal shows a zone as it is; once cards move in or out it is hidden again
        for key in (dest, *sources):
            if key in state.revealed:
                knowledge.remember(state, (c for c in state.zones[key] if c not in cards))
                state.revealed.discard(key)
    knowledge.moved(state, cards, before, list(sources), dest, position, by_kind, pool)
    if events:
        for src, moved in sources.items():
            state._move_event(src, dest, moved, actor, was_up)


def _move_plain(state: "State", cards: Iterable[int], dest: str, position: str, by_kind: int,
                pool: Sequence[int] | None) -> None:
    """``move`` with nothing face up or down, revealed or sealed and no event log (random play, the
    bots' look-ahead): every card is seen as its zone shows it, worked out once per move."""
    where, zone_seers = state.where, state.rules.zone_seers
    target = state._zone_w(dest)
    cards = list(cards)
    before = tuple([zone_seers[where[c]] for c in cards])
    sources = _lift(state, cards, dest)
    _place(state, target, cards, position)
    knowledge.moved(state, cards, before, sources, dest, position, by_kind, pool)


def _move_lying(state: "State", cards: Iterable[int], dest: str, position: str, face: str | None, by_kind: int,
                pool: Sequence[int] | None) -> None:
    """``move`` where cards lie face up or down (or the move turns them), with nothing revealed or sealed
    and no event log: who sees each card is read from how it lies and its zone (``knowledge.masks``
    without what a reveal or a sealed part would change), before and after the move."""
    where, zone_seers = state.where, state.rules.zone_seers
    everyone = state.rules.everyone
    faceup, facedown = state.faceup, state.facedown
    target = state._zone_w(dest)
    cards = list(cards)
    before = tuple([everyone if c in faceup else 0 if c in facedown else zone_seers[where[c]] for c in cards])
    sources = _lift(state, cards, dest)
    for c in cards:
        if face is not None:
            lie(state, c, face)
        else:  # as the zone shows it (``lie`` with no face)
            faceup.discard(c)
            facedown.discard(c)
    _place(state, target, cards, position)
    shown = zone_seers[dest]
    after = tuple([everyone if c in faceup else 0 if c in facedown else shown for c in cards])
    knowledge.moved(state, cards, before, sources, dest, position, by_kind, pool, after)


def _lift(state: "State", cards: list[int], dest: str) -> list[str]:
    """Take ``cards`` out of their zones' lists and note them in ``dest`` (``where``); the zones they
    left, in order (``_place`` puts them into ``dest``'s list)."""
    where, zone_w = state.where, state._zone_w
    sources: dict[str, None] = {}
    for c in cards:
        src = where[c]
        zone_w(src).remove(c)
        sources[src] = None
        where[c] = dest
    return list(sources)


def _place(state: "State", target: list[int], cards: list[int], position: str) -> None:
    """Put moved cards into their zone's list: at the top, the bottom or random places."""
    if position == "bottom":
        target.extend(cards)
    elif position == "random":
        for c in cards:
            target.insert(state.rng.below(len(target) + 1), c)
    else:
        target[0:0] = cards


def lie(state: "State", card: int, face: str | None) -> None:
    """How a card lies: face "up" (shown to everyone, even from a sealed part), "down"
    (hidden even in a zone others see), or None (as its zone shows it)."""
    if face == "up":
        state.faceup.add(card)
        state.facedown.discard(card)
        state.sealed_cards.pop(card, None)
    elif face == "down":
        state.faceup.discard(card)
        state.facedown.add(card)
    else:
        state.faceup.discard(card)
        state.facedown.discard(card)


def flip(state: "State", cards: Sequence[int], up: bool) -> None:
    """Turn cards face up (shown to everyone wherever they are) or face down (hidden from everyone)."""
    changed = [c for c in cards if (c in state.faceup) != up or (not up and c not in state.facedown)]
    if not up:
        knowledge.remember(state, changed)
    for c in changed:
        before = sealed.lie(state, c) if state.sealing is not None else None
        lie(state, c, "up" if up else "down")
        if before is not None:  # face up, everyone sees it at once; face down, only the part's player
            sealed.note(state, ("lie", None if up else state.sealing, c, before, sealed.lie(state, c)))
    if changed and up and state.record_events:
        names = ", ".join(state.rules.card_name(c) for c in changed)
        state.emit("flip", f"{names} turned face up", cards=[state.rules.instance_type[c] for c in changed],
                   private_text=f"{names} turned face up")
    elif changed:
        state.emit("flip", f"{len(changed)} card(s) turned face down")


def rotate(state: "State", zone: str, step: int, actor: Any) -> None:
    """Every player's ``zone`` passes its cards to the player ``step`` seats on, all at once."""
    keys = state.rules.zone_keys[zone]
    players = len(keys)
    contents = [state.zones[k] for k in keys]
    for cards in contents:
        knowledge.remember(state, cards)  # everyone sees the piles change hands
    state.owned_zones.difference_update(keys)  # the lists changed places: copy them before a change
    for p, cards in enumerate(contents):
        dest = keys[(p + step) % players]
        state.zones[dest] = cards
        for c in cards:
            state.where[c] = dest
        state.revealed.discard(keys[p])
    direction = "clockwise" if step > 0 else "counterclockwise"
    state.emit("rotate", f"Every {zone} passes one seat {direction}", zone=zone, step=step, actor=actor)
