"""What each player may know: the methods of ``State`` that read the table for one seat.

``view`` (everything a seat may know, as JSON-ready data) and ``public_view`` (what every seat
may know, for spectators), ``view_key`` (a key equal exactly when that view is, built without it,
for the bots' memory), ``events`` / ``public_events`` (the event log filtered for a seat, or for
everyone, from a position on) with ``event_cursor``, ``zone_visible``, and ``result`` (the
outcome, which everyone may know).  Visibility is the cardset's, per zone: ``Rules`` holds it, and
reveals, face-up and face-down cards and sealed parts change what a seat sees.  ``State`` takes
these functions as its methods (``State.view``, ``State._view_key``, ...); nothing here changes
the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import arguments
from .knowing import sealed as _sealed
from ..errors import IllegalActionError

if TYPE_CHECKING:
    from .state import State


def view(state: "State", player: int) -> dict[str, Any]:
    """Everything ``player`` may know now, as JSON-ready data."""
    state._check_player(player)
    return _view(state, player)


def public_view(state: "State") -> dict[str, Any]:
    """What every seat may know now (for spectators): ``view`` with ``"player": None``, the zones every
    seat may see, face-up cards, public counters and vars, and only who is deciding."""
    return _view(state, None)


def _view(state: "State", player: int | None) -> dict[str, Any]:
    state = _sealed.seen(state, player)  # inside sealed parts: the others' changes not shown yet
    rules = state.rules
    seats = rules.seats
    zones: dict[str, Any] = {}
    for key, cards in state.zones.items():
        entry: dict[str, Any] = {"count": len(cards)}
        if zone_visible(state, key, player) if player is not None else \
                all(zone_visible(state, key, p) for p in seats):
            # a card lying face down there shows as null
            down = state.facedown
            sealed = state.sealed_cards
            hidden = [c in down or sealed.get(c, player) != player for c in cards]
            entry["cards"] = [None if h else rules.instance_type[c] for c, h in zip(cards, hidden)]
            if state.marks:
                marked = {i: list(state.marks[c]) for i, c in enumerate(cards) if c in state.marks and not hidden[i]}
                if marked:
                    entry["marks"] = marked
        else:
            up = [rules.instance_type[c] for c in cards if c in state.faceup]
            if up:
                entry["face_up"] = up
        zones[key] = entry
    counters: dict[str, Any] = {}
    for name, cdef in rules.cardset.counters.items():
        values = state.counters[name]
        if cdef.visibility == "everyone":
            counters[name] = list(values) if cdef.per_player else values[0]
        elif cdef.visibility == "owner" and cdef.per_player and player is not None:
            counters[name] = {str(player): values[player]}
    decision: dict[str, Any] | None = None
    if state.asking is not None:
        chooser, prompt, _, kind, labels = state.asking
        decision = {"player": chooser}
        if chooser == player:
            # others see only who is deciding: the prompt or options could hint at a hidden hand
            decision.update(prompt=prompt, kind=kind, options=list(labels))
            if state.picking:
                decision["picked"] = list(state.picking)  # the stable ids taken so far (apply_id)
    return {
        "game": rules.cardset.name,
        "player": player,
        "players": rules.players,
        "round": state.round,
        "phase": state.phase,
        "turn_player": state.turn_player,
        "current_player": state.current_player,
        "zones": zones,
        "counters": counters,
        "vars": {k: v for k, v in state.vars.items() if k not in rules.cardset.hidden_vars},
        "player_marks": [list(m) for m in state.player_marks],
        "decision": decision,
        "terminal": state.terminal,
        "result": state.result() if state.terminal else None,
        "card_names": dict(rules.card_names),
    }


def view_key(state: "State", player: int) -> tuple[Any, ...]:
    """A key equal for two states of one game exactly when their ``view(player)`` is equal, made
    without building the view: its fields in the same order, as tuples (a zone: the card types the
    seat sees, None for a hidden card, with its marks if any; a zone it cannot see: its count, with
    the face-up types if any).  For the bots' memory of decisions they met; keep it in step with
    ``view`` (tests/test_views.py pins the two together)."""
    rules = state.rules
    state._check_player(player)
    state = _sealed.seen(state, player)  # inside sealed parts: the others' changes not shown yet
    types = rules.instance_type
    bit = 1 << player
    revealed, down, sealed, up, marks = state.revealed, state.facedown, state.sealed_cards, state.faceup, state.marks
    zones, where = state.zones, state.where
    # the zones that hold a face-down, sealed, face-up or marked card: only those need a look at each card
    odd = {where[c] for c in down} | {where[c] for c in sealed} if down or sealed else ()
    shown_up = {where[c] for c in up} if up else ()
    marked_in = {where[c] for c in marks} if marks else ()
    shown: list[Any] = []
    for key, seers in rules.zone_seers.items():  # every zone, in the rules' order whatever that of state.zones
        cards = zones[key]
        if seers & bit or key in revealed:
            hidden = [c in down or sealed.get(c, player) != player for c in cards] if key in odd else None
            seen: tuple[Any, ...] = (tuple(map(types.__getitem__, cards)) if hidden is None
                    else tuple([None if h else types[c] for c, h in zip(cards, hidden)]))
            if key in marked_in:
                marked = tuple((i, tuple(marks[c])) for i, c in enumerate(cards)
                               if c in marks and not (hidden and hidden[i]))
                if marked:
                    seen = (seen, marked)  # told from a bare zone: its first item is a tuple, not a type
            shown.append(seen)
        elif key in shown_up:
            shown.append((len(cards), tuple([types[c] for c in cards if c in up])))
        else:
            shown.append(len(cards))
    counters: list[Any] = []
    for name, cdef in rules.cardset.counters.items():
        if cdef.visibility == "everyone":
            values = state.counters[name]
            counters.append(tuple(values) if cdef.per_player else values[0])
        elif cdef.visibility == "owner" and cdef.per_player:
            counters.append(state.counters[name][player])
    asking = state.asking
    decision: Any = None
    if asking is not None:
        chooser, prompt, _, kind, labels = asking
        decision = (chooser, prompt, kind, tuple(labels), state.picking) if chooser == player else chooser
    hidden_vars = rules.cardset.hidden_vars
    return (
        rules.cardset.name,
        player,
        rules.players,
        state.round,
        state.phase,
        state.turn_player,
        state.current_player,
        tuple(shown),
        tuple(counters),
        tuple(sorted([(k, v) for k, v in state.vars.items() if k not in hidden_vars])),  # names are unique
        tuple(map(tuple, state.player_marks)),
        decision,
        state.terminal,
        _frozen(state.result()) if state.terminal else None,
        rules.card_names,
    )


def events(state: "State", player: int | None = None, since: int = 0, *, numbered: bool = False) -> list[dict[str, Any]]:
    """The event log as ``player`` may see it (None: the full log, for referees and tests), from log
    position ``since`` on; ``numbered``: each event also has its ``index`` in the full log."""
    if player is not None:
        state._check_player(player)
    return _events(state, player, since, numbered, False)


def public_events(state: "State", since: int = 0, *, numbered: bool = False) -> list[dict[str, Any]]:
    """The events every seat may see (for spectators), as ``events``."""
    return _events(state, None, since, numbered, True)


def event_cursor(state: "State", player: int | None = None) -> int:
    """Where to ask ``events(player, since=...)`` from next time so that nothing is missed: the log's
    length, or the first event still held from ``player`` in a sealed part (None: from anyone)."""
    log = state.log
    for i in range(len(log)):
        sealed = log[i].get("sealed")
        if sealed is not None and sealed != player:
            return i
    return len(log)


def _events(state: "State", player: int | None, since: int, numbered: bool, public: bool) -> list[dict[str, Any]]:
    if type(since) is not int or since < 0:
        raise IllegalActionError(f"since must be a log position, a whole number (got {since!r:.40})")
    everyone = set(state.rules.seats)
    out = []
    log = state.log
    for index in range(since, len(log)):
        event = log[index]
        to = event.get("to")
        if to is not None and (player is not None and player not in to or public and not everyone <= set(to)):
            continue
        sealed = event.get("sealed")
        if sealed is not None and (player is not None and sealed != player or public):
            continue  # another player's sealed part, until every part is done
        shown = {k: v for k, v in event.items() if k not in ("to", "seen", "private_text", "cards", "sealed")}
        seen = event.get("seen")
        if "cards" in event:
            if seen is None or (player in seen if player is not None else not public or everyone <= set(seen)):
                shown["cards"] = event["cards"]
                shown["text"] = event["private_text"]
        if numbered:
            shown["index"] = index
        out.append(shown)
    return out


def zone_visible(state: "State", key: str, player: int) -> bool:
    """Whether ``player`` sees the cards of the zone ``key`` now."""
    vis = state.rules.zone_visibility.get(key) if type(key) is str else None
    if vis is None:
        raise arguments.bad("key", "a zone key of the game", key, IllegalActionError)
    state._check_player(player)
    if vis == "everyone" or key in state.revealed:
        return True
    if vis == "owner":
        return state.rules.zone_owner[key] == player
    return False


def _frozen(value: Any) -> Any:
    """A JSON-like value (lists, objects with text keys) as tuples, equal exactly when the value is."""
    if isinstance(value, list):
        return tuple(map(_frozen, value))
    if isinstance(value, dict):
        return frozenset((k, _frozen(v)) for k, v in value.items())
    return value


def result(state: "State") -> dict[str, Any]:
    """The game-level outcome: winners, totals, rounds and per-round scores."""
    cs = state.rules.cardset
    out: dict[str, Any] = {
        "winners": list(state.winners) if state.terminal else [],
        "rounds": state.round,
        "turns": state.turns,
        "decisions": len(state.history),
        "terminal": state.terminal,
    }
    if cs.totals:
        out["totals"] = list(state.counters[cs.totals])
    out["card_uses"] = {t: list(v) for t, v in sorted(state.uses.items())}
    if cs.round_scores:
        out["round_scores"] = [list(r[cs.round_scores]) for r in state.round_log if cs.round_scores in r]
    return out
