"""What each player knows about the cards they cannot see.

A player *sees* a card when it lies in a zone shown to them (not face down and
not moved in another player's sealed part) or face up anywhere.  About the
cards they cannot see, a player knows which could be which: ``State.classes``
gives, per player, each card a class (a missing entry is class 0, which every
card starts in, all in the starting zone).  Cards of one class are alike to
that player: a resample may swap them.  ``State.loose`` marks, per card, the
players who know the card but not its place in its zone (it was shuffled, or
went in at a random place).

How classes change:

- a card a player saw and now loses sight of (it moves out of sight, turns face
  down, its zone is hidden again) gets a class of its own for that player;
- a player looking at cards gives each of them a class of its own;
- a move a player cannot follow (a moved card was shown to them neither where
  it was nor where it went) merges, for them, the classes of the moved cards and
  of the unseen cards left behind: they cannot tell which went;
- unless the rules moved a whole zone: then nothing changes for them (the cards
  go together, so they know as much of each as before, and no more: a pile they
  never saw stays in the classes it was in);
- or the rules picked the cards by what they are (the cards of a zone that have
  a property): then the moved cards leave their classes for new ones, since the
  player knows the kind of each card that went;
- or picked some cards of a kind (``first``, ``top``, ``random``... of the cards of a
  zone that have a property, directly or through a ``let``): then those cards of
  that kind, moved or not, leave their classes for new ones together.

How it is kept cheap: a merge links the merged classes to the one they become
(``State.class_links``, followed by ``class_of``; saved and compared with every
link applied, ``resolved``), and the class dicts are shared with clones until one
of them changes (``writable``).  Nothing of this is worked out during play: a move,
a look, a shuffle or a hidden zone only notes who saw what (``State.notes``, nested
triples that clones share), and ``settle`` works the notes into the classes, in
order, when ``resample`` or ``to_json`` reads them.

Which variables of the rules hold cards (for ``resample`` to deal them anew) is
read in ``held``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from ...lang import nodes as n

if TYPE_CHECKING:
    from ..state import State


def zone_seers(visibility: dict[str, str], owner: dict[str, int | None], players: int) -> dict[str, int]:
    """Zone key -> the players (bitmask) its declared visibility shows its cards to (a reveal aside)."""
    everyone = (1 << players) - 1
    out = {}
    for key, vis in visibility.items():
        seat = owner.get(key)
        out[key] = everyone if vis == "everyone" else (1 << seat if vis == "owner" and seat is not None else 0)
    return out


def reset(state: "State") -> None:
    """Nobody has told any card apart yet: every card in class 0, every place known."""
    players = state.rules.players
    state.classes = [{} for _ in range(players)]
    state.class_links = [{} for _ in range(players)]
    state.owned_classes = (1 << players) - 1
    state.class_seq = 0
    state.loose = {}
    state.notes = None


def masks(state: "State", cards: Sequence[int]) -> tuple[int, ...]:
    """Bitmask of the players who see each of these cards now: everyone a card face up, no one a card
    face down, else those its zone is shown to (everyone, while the zone is revealed), and of them only
    the player of a sealed part that moved it there."""
    faceup = state.faceup
    facedown = state.facedown
    revealed = state.revealed
    sealed = state.sealed_cards
    zone_seers = state.rules.zone_seers
    where = state.where
    if faceup or facedown or revealed or sealed:
        everyone = state.rules.everyone
        out = []
        for c in cards:
            if c in faceup:
                out.append(everyone)
            elif c in facedown:
                out.append(0)
            else:
                key = where[c]
                mask = everyone if key in revealed else zone_seers[key]
                if mask and sealed:
                    sealer = sealed.get(c)
                    if sealer is not None:
                        mask &= 1 << sealer
                out.append(mask)
        return tuple(out)
    return tuple([zone_seers[where[c]] for c in cards])  # every card as its zone shows it


def class_of(cls: dict[int, int], links: dict[int, int], card: int) -> int:
    """The class a player puts ``card`` in: its label, followed through the merges since."""
    label = cls.get(card, 0)
    while label in links:
        label = links[label]
    return label


def _root(links: dict[int, int], label: int) -> int:
    while label in links:
        label = links[label]
    return label


def resolved(cls: dict[int, int], links: dict[int, int]) -> dict[int, int]:
    """A player's classes with every merge applied (class 0 left out): what is saved and compared."""
    if not links:
        return dict(cls)
    out = {}
    for card, label in cls.items():
        while label in links:
            label = links[label]
        if label:
            out[card] = label
    return out


def writable(state: "State", player: int) -> tuple[dict[int, int], dict[int, int]]:
    """``player``'s classes and merges, to change: this state's own copies (clones share them until then)."""
    bit = 1 << player
    if state.owned_classes & bit:
        return state.classes[player], state.class_links[player]
    cls = state.classes[player] = dict(state.classes[player])
    links = state.class_links[player] = dict(state.class_links[player])
    state.owned_classes |= bit
    return cls, links


def _set(cls: dict[int, int], links: dict[int, int], card: int, label: int) -> None:
    # a card whose class was merged into class 0 has no entry as far as anyone can tell (see ``resolved``):
    # it takes its new one at the end, as if the merge had removed it
    if links and card in cls and not class_of(cls, links, card):
        del cls[card]
    cls[card] = label


def _fresh(state: "State") -> int:
    state.class_seq += 1
    return state.class_seq


def _own_class(state: "State", card: int, players: int) -> None:
    label = _fresh(state)
    p = 0
    while players:
        if players & 1:
            cls, links = writable(state, p)
            _set(cls, links, card, label)
        players >>= 1
        p += 1


# What a move, a look or a shuffle lets each player tell is noted when it happens, as a few plain
# facts (the masks of who saw what, the cards left where the moved ones came from), and worked into
# the classes only when they are read (``settle``: by ``resample`` and ``to_json``).  A game played
# without resampling or saving never works them out.  The notes are immutable, so clones share
# them: (earlier notes, fact, depth) triples, the chain folded into one flat block of facts every
# ``_FLAT`` notes so that it never nests deeply (comparing, printing or pickling it recurses).
_MOVE, _REMEMBER, _LOOKED, _LOSE, _BLOCK = range(5)
_FLAT = 64


def _note(state: "State", fact: tuple[Any, ...]) -> None:
    notes = state.notes
    if notes is None:
        state.notes = (None, fact, 1)
    elif notes[2] < _FLAT:
        state.notes = (notes, fact, notes[2] + 1)
    else:
        state.notes = (None, (_BLOCK, _facts(notes) + (fact,)), 1)


def _facts(notes: Any) -> tuple[Any, ...]:
    """The facts noted, oldest first (blocks opened)."""
    chain = []
    while notes is not None:
        notes, fact, _ = notes
        chain.append(fact)
    out: list[Any] = []
    for fact in reversed(chain):
        if fact[0] == _BLOCK:
            out += fact[1]
        else:
            out.append(fact)
    return tuple(out)


def settle(state: "State") -> None:
    """Work the noted facts into ``state.classes``, ``class_seq`` and ``loose``, in the order they happened."""
    notes = state.notes
    if notes is None:
        return
    state.notes = None
    state.loose = dict(state.loose)  # shared with clones until now
    for fact in _facts(notes):
        kind = fact[0]
        if kind == _MOVE:
            _fold_move(state, *fact[1:])
        elif kind == _REMEMBER:
            for c, m in fact[1]:
                _own_class(state, c, m)
        elif kind == _LOOKED:
            _fold_looked(state, fact[1], fact[2])
        else:
            _lose(state, fact[1])


def remember(state: "State", cards: Iterable[int]) -> None:
    """Whoever sees these cards now keeps knowing each of them (their sight is about to be lost)."""
    cards = list(cards)
    seen = [(c, m) for c, m in zip(cards, masks(state, cards)) if m]
    if seen:
        _note(state, (_REMEMBER, seen))


def lose_places(state: "State", cards: Iterable[int]) -> None:
    """Nobody knows where in their zone these cards lie any more."""
    _note(state, (_LOSE, tuple(cards)))


def _left_behind(state: "State", sources: Sequence[str], blind: int) -> list[tuple[tuple[int, ...], int, Any]]:
    """The cards left in each zone the moved cards came from, the players none of that zone is shown to,
    and (when some of the ``blind`` players may see part of it) who sees each card."""
    zone_seers = state.rules.zone_seers
    everyone = state.rules.everyone
    revealed = state.revealed
    faceup = state.faceup
    out = []
    for src in sources:
        cards = tuple(state.zones[src])
        shown = everyone if src in revealed or (faceup and not faceup.isdisjoint(cards)) else zone_seers[src]
        hidden = everyone & ~shown
        out.append((cards, hidden, None if not blind & ~hidden else masks(state, cards)))
    return out


# How the rules picked the cards of a move (``how_picked``): what a player who cannot follow it can tell
BY_PLACE, BY_KIND, WHOLE_ZONE = 0, 1, 2


def moved(state: "State", cards: Sequence[int], before: tuple[int, ...], sources: Sequence[str], dest: str,
          position: str, by_kind: int, pool: Sequence[int] | None, after: tuple[int, ...] | None = None) -> None:
    """Cards seen before the move by the masks ``before`` now lie in ``dest``: note who could follow them
    (``by_kind``: how the rules picked them, ``BY_PLACE``, ``BY_KIND`` or ``WHOLE_ZONE``).  ``after``:
    their masks now, when the mover worked them out (else ``masks``)."""
    rules = state.rules
    if after is None:
        if state.faceup or state.facedown or state.revealed or state.sealed_cards:
            after = masks(state, cards)
        else:  # every moved card as the zone they went to shows it
            after = (rules.zone_seers[dest],) * len(cards)
    follow = rules.everyone  # the players who saw every moved card where it was or where it went
    for b, a in zip(before, after):
        follow &= b | a
    sealing = state.sealing
    if sealing is not None:
        faceup = state.faceup
        if not all(c in faceup for c in cards):
            follow &= 1 << sealing  # another player's sealed part: not shown to them until it is revealed
    left = pool_masks = None
    blind = rules.everyone & ~follow
    if blind:
        if pool is not None:
            pool_masks = tuple(zip(pool, masks(state, pool)))
        elif not by_kind:
            left = _left_behind(state, sources, blind)
    _note(state, (_MOVE, tuple(cards), before, after, follow, left, dest in sources,
                  tuple(state.zones[dest]) if position == "random" else None, by_kind, pool_masks))


def _fold_move(state: "State", cards: tuple[int, ...], before: tuple[int, ...], after: tuple[int, ...], follow: int,
               left: Any, back_in: bool, shuffled_in: tuple[int, ...] | None, by_kind: int, pool_masks: Any) -> None:
    rules = state.rules
    lost = 0  # the players who lose sight of some moved card
    for b, a in zip(before, after):
        lost |= b & ~a
    loose = state.loose
    placed = [c for c in cards if c in loose] if loose and shuffled_in is None else ()
    if follow == rules.everyone and not lost and not placed:
        if shuffled_in is not None:
            _lose(state, shuffled_in)
        return  # everyone saw it all, and kept seeing it: nothing to learn or forget
    own: dict[int, int] = {}  # card -> the class of its own it gets (one number for every player)
    whole = by_kind == WHOLE_ZONE
    for p in range(rules.players):
        bit = 1 << p
        if follow & bit or whole:
            # a whole zone moved: whoever cannot follow it knows each card as before (those they saw go
            # out of sight where they know them to be), and no more: their classes stay as they were
            if lost & bit:
                cls, links = writable(state, p)
                for c, b, a in zip(cards, before, after):
                    if b & bit and not a & bit:
                        label = own.get(c)
                        if label is None:
                            label = own[c] = _fresh(state)
                        _set(cls, links, c, label)
            if follow & bit:
                for c in placed:
                    if c in loose:
                        _drop_bit(loose, c, bit)
        elif by_kind or pool_masks is not None:
            cls, links = writable(state, p)
            renamed: dict[int, int] = {}
            picked = cards if pool_masks is None else sorted({*cards, *(c for c, m in pool_masks if not m & bit)})
            for c in picked:
                old = class_of(cls, links, c)
                new = renamed.get(old)
                if new is None:
                    new = renamed[old] = _fresh(state)
                _set(cls, links, c, new)
        else:
            # they cannot tell which went: the classes of the unseen moved cards and of the unseen cards
            # left behind become one
            cls = state.classes[p]
            if not cls:
                continue  # every card in class 0
            unseen = [c for c, a in zip(cards, after) if not a & bit]
            known = cls.keys()
            told = known & unseen
            count = len(unseen)
            for cards_left, hidden, masks in left:
                if hidden & bit:  # none of the zone is shown to them: no need to look card by card
                    told |= known & cards_left
                    count += len(cards_left)
                else:
                    unseen_left = [c for c, m in zip(cards_left, masks) if not m & bit]
                    told |= known & unseen_left
                    count += len(unseen_left)
            if back_in:
                count -= len(unseen)  # the moved cards lie in their zone again: counted twice
            links = state.class_links[p]
            raw = {cls[c] for c in told}
            group = {_root(links, label) for label in raw} if links else raw
            if len(told) < count:
                group.add(0)
            if len(group) > 1:
                target = 0 if 0 in group else min(group)
                cls, links = writable(state, p)
                for label in group:
                    if label != target:
                        links[label] = target
                # the cards at hand take the class at once (as if merged card by card): the next move
                # from these zones finds them in one class without following the links
                if target:
                    for c in told:
                        cls[c] = target
                else:
                    for c in told:
                        del cls[c]
    if shuffled_in is not None:
        _lose(state, shuffled_in)


def _lose(state: "State", cards: Iterable[int]) -> None:
    everyone = state.rules.everyone
    loose = state.loose
    for c in cards:
        loose[c] = everyone


def _drop_bit(masks: dict[int, int], card: int, bit: int) -> None:
    m = masks[card] & ~bit
    if m:
        masks[card] = m
    else:
        del masks[card]


def looked(state: "State", who: Sequence[int], cards: Iterable[int]) -> None:
    """These players looked at these cards: they know each of them where it lies."""
    bits = 0
    for p in who:
        if type(p) is int and 0 <= p < state.rules.players:
            bits |= 1 << p
    if bits:
        _note(state, (_LOOKED, bits, tuple(cards)))


def _fold_looked(state: "State", bits: int, cards: tuple[int, ...]) -> None:
    loose = state.loose
    for c in cards:
        _own_class(state, c, bits)
        if c in loose:
            m = loose[c] & ~bits
            if m:
                loose[c] = m
            else:
                del loose[c]


def how_picked(expr: object) -> int:
    """How a move's card expression picks its cards: ``WHOLE_ZONE``, ``BY_KIND`` (``picked_by_kind``) or
    ``BY_PLACE``."""
    if isinstance(expr, n.ZoneRef):
        return WHOLE_ZONE
    return BY_KIND if picked_by_kind(expr) else BY_PLACE


def picked_by_kind(expr: object) -> bool:
    """Does this card expression pick cards by what they are (so every player knows the kind of each)?

    A whole zone, or the cards of one with a condition on their properties (``it.tags``,
    ``it.marks``, ...): never ``top``, ``random``, a card held in a variable, or ``it`` itself.
    """
    if isinstance(expr, n.ZoneRef):
        return True
    if isinstance(expr, n.Where):
        return picked_by_kind(expr.source) and _about_kind(expr.cond)
    return False


PICKERS = ("first", "last", "top", "bottom", "random")


def kind_pools(root: object, walk: Callable[[object], Iterable[object]]) -> dict[int, object]:
    """Move statement (by id) -> the cards of a kind its cards were picked from, for the moves of ``root``
    that pick some cards of a kind: ``move first(pile where "x" in it.tags) to ...``, or through ``let``."""
    lets: dict[str, list[object]] = {}
    moves = []
    for node in walk(root):
        if isinstance(node, n.Let):
            lets.setdefault(node.name, []).append(node.value)
        elif isinstance(node, n.Move):
            moves.append(node)
    out: dict[int, object] = {}
    for move in moves:
        defs = lets.get(move.cards.name, []) if isinstance(move.cards, n.Var) else [move.cards]
        pools = [_picked_from(d) for d in defs]
        if pools and pools[0] is not None and all(p == pools[0] for p in pools):
            out[id(move)] = pools[0]
    return out


def _picked_from(expr: object) -> object | None:
    if isinstance(expr, n.Call) and expr.func in PICKERS and expr.args:
        source = expr.args[0]
        if isinstance(source, n.Where) and picked_by_kind(source):
            return source
    return None


def _about_kind(expr: object) -> bool:
    if isinstance(expr, n.Attr):
        if isinstance(expr.obj, n.Builtin) and expr.obj.name == "it":
            return True
        return _about_kind(expr.obj)
    if isinstance(expr, n.Builtin):
        return expr.name != "it"  # the card itself, not one of its properties
    if isinstance(expr, (n.Literal, n.GameVar, n.Var)):
        return True
    if isinstance(expr, n.Call):
        return expr.func == "option" and all(_about_kind(a) for a in expr.args)
    if isinstance(expr, (n.Compare, n.And, n.Or, n.BinOp)):
        return _about_kind(expr.left) and _about_kind(expr.right)
    if isinstance(expr, (n.Not, n.Neg)):
        return _about_kind(expr.operand)
    if isinstance(expr, n.Contains):
        return _about_kind(expr.item) and _about_kind(expr.collection)
    if isinstance(expr, n.ListExpr):
        return all(_about_kind(i) for i in expr.items)
    if isinstance(expr, n.Seat):
        return _about_kind(expr.player)
    return False
