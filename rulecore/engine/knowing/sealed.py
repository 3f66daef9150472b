"""Sealed parts (``simultaneously``): the table as each seat sees it until the reveal.

While a sealed part runs (``State.sealing``), every change it makes to the table is noted in
``State.sealed_ops``, oldest first, with whose part made it and what it replaced: a card moved
(where it lay and how it lay, where it went and how), a counter, a game variable, the marks of a
card or of a player.  A move face up shows the card to everyone at once: it is noted as no
one's.  The rules never read the notes: they see the table as it is.

``seen(state, player)`` is the table as ``player`` sees it: every noted change taken back, newest
first (the table as it was when the parts began), then the changes of ``player``'s own part and
those of no one's made again, oldest first.  Views, view keys (hence observations) and resamples
are built from it, so the others learn nothing of a part (which cards went where, how many, the
counters, variables and marks it changed) until every part is done; then ``State.unseal`` drops
the notes and everyone sees the table as it is.

A note is a tuple (kind, owner, ...):

- ``("move", owner, card, from, index, to, index, (up, down, sealer) before, ... after)``;
- ``("lie", owner, card, (up, down, sealer) before, ... after)``: a card turned face down in a part
  (turned face up, it is no one's: everyone sees it at once);
- ``("counter", owner, name, index, old, new)``, made again as ``new - old`` added;
- ``("var", owner, name, old, new)``; ``("mark", owner, card, old, new)`` (``None``: no marks);
  ``("pmark", owner, player, old, new)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from ..state import State

Op = tuple[Any, ...]


def lie(state: "State", card: int) -> tuple[bool, bool, int | None]:
    """How ``card`` lies: (face up, face down, whose sealed part moved it)."""
    return card in state.faceup, card in state.facedown, state.sealed_cards.get(card)


def note(state: "State", op: Op) -> None:
    state.sealed_ops = state.sealed_ops + (op,)  # a new tuple: clones share the old one


def others_in(ops: Sequence[Op], player: int | None) -> bool:
    """Do these notes hold a change hidden from ``player`` (None: a spectator)?"""
    return any(op[1] is not None and op[1] != player for op in ops)


def seen(state: "State", player: int | None) -> "State":
    """The table as ``player`` (None: every seat) sees it inside sealed parts: ``state`` itself when
    nothing is hidden from them, else a clone with the others' sealed changes taken back."""
    ops = state.sealed_ops
    if not ops or not others_in(ops, player):
        return state
    new = state.clone()
    for op in reversed(ops):
        _undo(new, op)
    new.sealed_ops = tuple([_redo(new, op) for op in ops if op[1] is None or op[1] == player])
    return new


def _place(state: "State", card: int, key: str, index: int) -> int:
    """Put ``card`` (wherever it lies) into zone ``key`` at ``index`` (or its end); the index it took."""
    where = state.where
    row = state._zone_w(where[card])
    row.remove(card)
    row = state._zone_w(key)
    index = min(max(index, 0), len(row))
    row.insert(index, card)
    where[card] = key
    return index


def _lie(state: "State", card: int, how: Sequence[Any]) -> None:
    up, down, sealer = how
    (state.faceup.add if up else state.faceup.discard)(card)
    (state.facedown.add if down else state.facedown.discard)(card)
    if sealer is None:
        state.sealed_cards.pop(card, None)
    else:
        state.sealed_cards[card] = sealer


def _set_marks(table: dict[int, tuple[str, ...]], card: int, marks: tuple[str, ...] | None) -> None:
    if marks:
        table[card] = marks
    else:
        table.pop(card, None)


def _undo(state: "State", op: Op) -> None:
    kind = op[0]
    if kind == "move":
        _, _, card, src, src_i, _, _, before, _ = op
        _place(state, card, src, src_i)
        _lie(state, card, before)
    elif kind == "lie":
        _lie(state, op[2], op[3])
    elif kind == "counter":
        _, _, name, index, old, _ = op
        state._counter_w(name)[index] = old
    elif kind == "var":
        state.vars[op[2]] = op[3]
    elif kind == "mark":
        _set_marks(state.marks, op[2], op[3])
    else:
        state.player_marks[op[2]] = op[3]


def _redo(state: "State", op: Op) -> Op:
    """Make a noted change again on ``state``; the note as made there (the places it took)."""
    kind = op[0]
    if kind == "move":
        _, owner, card, _, _, dest, dest_i, _, after = op
        src = state.where[card]
        src_i = state.zones[src].index(card)
        before = lie(state, card)
        dest_i = _place(state, card, dest, dest_i)
        _lie(state, card, after)
        return ("move", owner, card, src, src_i, dest, dest_i, before, after)
    if kind == "lie":
        before = lie(state, op[2])
        _lie(state, op[2], op[4])
        return op[:3] + (before, op[4])
    if kind == "counter":
        _, owner, name, index, old, new = op
        values = state._counter_w(name)
        now = values[index]
        values[index] = now + new - old
        return ("counter", owner, name, index, now, values[index])
    if kind == "var":
        old = state.vars[op[2]]
        state.vars[op[2]] = op[4]
        return op[:3] + (old, op[4])
    if kind == "mark":
        old = state.marks.get(op[2])
        _set_marks(state.marks, op[2], op[4])
        return op[:3] + (old, op[4])
    old = state.player_marks[op[2]]
    state.player_marks[op[2]] = op[4]
    return op[:3] + (old, op[4])


def remapped(ops: tuple[Op, ...], perm: dict[int, int]) -> tuple[Op, ...]:
    """The notes with each card replaced by the card a resample dealt at its place."""
    if not perm or not ops:
        return ops
    return tuple([op[:2] + (perm.get(op[2], op[2]),) + op[3:] if op[0] in ("move", "lie", "mark") else op for op in ops])


# --------------------------------------------------------------------------- saved and loaded

def to_json(ops: tuple[Op, ...]) -> list[list[Any]]:
    return [[list(v) if type(v) is tuple else v for v in op] for op in ops]


def from_json(state: "State", data: Any) -> tuple[Op, ...]:
    """The notes of a save, checked against the game (``ValueError``, ``TypeError``, ``KeyError`` or
    ``IndexError`` for anything that does not fit: ``saves`` words it for people)."""
    rules = state.rules
    cards = len(state.where)
    players = rules.players

    def owner(v: Any) -> int | None:
        if v is not None and not (type(v) is int and 0 <= v < players):
            raise ValueError("owner")
        return v

    def card(v: Any) -> int:
        if not (type(v) is int and 0 <= v < cards):
            raise ValueError("card")
        return v

    def zone(v: Any) -> str:
        if v not in state.zones:
            raise KeyError(v)
        return v

    def num(v: Any) -> int:
        if type(v) is not int:
            raise TypeError("number")
        return v

    def how(v: Any) -> tuple[bool, bool, int | None]:
        up, down, sealer = v
        if type(up) is not bool or type(down) is not bool:
            raise TypeError("lie")
        return up, down, owner(sealer)

    def words(v: Any) -> tuple[str, ...] | None:
        if v is None:
            return None
        if not all(type(w) is str for w in v):
            raise TypeError("marks")
        return tuple(v)

    out: list[Op] = []
    for op in data:
        kind = op[0]
        if kind == "move":
            _, o, c, src, i, dest, j, before, after = op
            out.append(("move", owner(o), card(c), zone(src), num(i), zone(dest), num(j), how(before), how(after)))
        elif kind == "lie":
            _, o, c, before, after = op
            out.append(("lie", owner(o), card(c), how(before), how(after)))
        elif kind == "counter":
            _, o, name, index, old, new = op
            state.counters[name][num(index)]  # an existing counter and seat
            out.append(("counter", owner(o), name, index, num(old), num(new)))
        elif kind == "var":
            _, o, name, old, new = op
            state.vars[name]  # an existing variable
            out.append(("var", owner(o), name, old, new))
        elif kind == "mark":
            _, o, c, old, new = op
            out.append(("mark", owner(o), card(c), words(old), words(new)))
        elif kind == "pmark":
            _, o, p, old, new = op
            if owner(p) is None:
                raise ValueError("player")
            out.append(("pmark", owner(o), p, words(old) or (), words(new) or ()))
        else:
            raise ValueError(kind)
    return tuple(out)
