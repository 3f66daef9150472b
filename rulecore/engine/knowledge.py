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
- unless the rules picked the cards by what they are (a whole zone, or the cards
  of a zone that have a property): then the moved cards leave their classes for
  new ones, since the player knows the kind of each card that went;
- or picked some cards of a kind (``first``, ``top``, ``random``... of the cards of a
  zone that have a property, directly or through a ``let``): then those cards of
  that kind, moved or not, leave their classes for new ones together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ..lang import nodes as n

if TYPE_CHECKING:
    from .state import State


def seers(state: "State", card: int) -> int:
    """Bitmask of the players who see ``card`` now."""
    if card in state.faceup:
        return (1 << state.rules.players) - 1
    if card in state.facedown:
        return 0
    key = state.where[card]
    rules = state.rules
    vis = rules.zone_visibility[key]
    if vis == "everyone" or key in state.revealed:
        mask = (1 << rules.players) - 1
    elif vis == "owner":
        owner = rules.zone_owner[key]
        mask = 0 if owner is None else 1 << owner
    else:
        return 0
    sealer = state.sealed_cards.get(card)
    if sealer is not None:
        mask &= 1 << sealer
    return mask


def _fresh(state: "State") -> int:
    state.class_seq += 1
    return state.class_seq


def _own_class(state: "State", card: int, players: int) -> None:
    label = _fresh(state)
    for p, cls in enumerate(state.classes):
        if players >> p & 1:
            cls[card] = label


def remember(state: "State", cards: Iterable[int]) -> None:
    """Whoever sees these cards now keeps knowing each of them (their sight is about to be lost)."""
    for c in cards:
        m = seers(state, c)
        if m:
            _own_class(state, c, m)


def lose_places(state: "State", cards: Iterable[int]) -> None:
    """Nobody knows where in their zone these cards lie any more."""
    everyone = (1 << state.rules.players) - 1
    loose = state.loose
    for c in cards:
        loose[c] = everyone


def moved(state: "State", cards: Sequence[int], before: Sequence[int], sources: Sequence[str], dest: str,
          position: str, by_kind: bool, pool: Sequence[int] | None) -> None:
    """Cards seen before the move by the masks ``before`` now lie in ``dest``: who could follow them?"""
    after = [seers(state, c) for c in cards]
    faceup = state.faceup
    sealing = state.sealing
    zones = state.zones
    loose = state.loose
    own: dict[int, int] = {}  # card -> the class of its own it gets (one number for every player)
    left: list[tuple[int, int]] | None = None  # the cards left where the moved ones came from, and who sees them
    for p, cls in enumerate(state.classes):
        bit = 1 << p
        if sealing is not None and sealing != p and not all(c in faceup for c in cards):
            blind = True  # another player's sealed part: not shown to p until it is revealed
        else:
            blind = not all((b | a) & bit for b, a in zip(before, after))
        if not blind:
            for c, b, a in zip(cards, before, after):
                if b & bit and not a & bit:
                    label = own.get(c)
                    if label is None:
                        label = own[c] = _fresh(state)
                    cls[c] = label
                if position != "random" and c in loose:
                    _drop_bit(loose, c, bit)
        elif by_kind or pool is not None:
            renamed: dict[int, int] = {}
            picked = cards if pool is None else sorted({*cards, *(c for c in pool if not seers(state, c) & bit)})
            for c in picked:
                old = cls.get(c, 0)
                new = renamed.get(old)
                if new is None:
                    new = renamed[old] = _fresh(state)
                cls[c] = new
        else:
            if left is None:
                left = [(c, seers(state, c)) for src in sources for c in zones[src]]
            group = {cls.get(c, 0) for c, a in zip(cards, after) if not a & bit}
            group.update(cls.get(c, 0) for c, m in left if not m & bit)
            if len(group) > 1:
                target = 0 if 0 in group else min(group)
                for c, label in list(cls.items()):
                    if label in group:
                        if target:
                            cls[c] = target
                        else:
                            del cls[c]
    if position == "random":
        lose_places(state, zones[dest])


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
    if not bits:
        return
    loose = state.loose
    for c in cards:
        _own_class(state, c, bits)
        if c in loose:
            m = loose[c] & ~bits
            if m:
                loose[c] = m
            else:
                del loose[c]


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
