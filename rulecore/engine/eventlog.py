"""The event log: what happened, in words, and to whom (``State.emit`` and the log of a move).

Each event is a dict: ``type``, ``text`` and its fields; ``to`` (the seats it is for), ``seen`` and
``private_text``/``cards`` (what the seats that see the cards read), ``sealed`` (held back inside a
sealed part). ``views.events`` filters the log for a seat. ``State`` takes these functions as its
methods (``State.emit``, ``State._move_event``, ``State._record``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Any, Sequence

if TYPE_CHECKING:
    from .state import State


def move_event(state: "State", src: str, dest: str, moved: list[int], actor: Any,
               was_up: AbstractSet[int] = frozenset()) -> None:
    """Log a move: the card names for the seats that see them, a count for the others."""
    rules = state.rules
    seen = []
    everyone = True
    for p in range(rules.players):
        shown_src = state.zone_visible(src, p) and not any(c in state.facedown for c in moved)
        shown_dest = state.zone_visible(dest, p) and not any(c in state.facedown for c in moved)
        if shown_src or shown_dest or all(c in state.faceup or c in was_up for c in moved):
            seen.append(p)
        else:
            everyone = False
    names = [rules.card_name(c) for c in moved]
    count = len(moved)
    noun = "card" if count == 1 else "cards"
    who = f"{state.player_label(actor)}: " if actor is not None else ""
    masked = f"{who}{count} {noun} from {state.zone_label(src)} to {state.zone_label(dest)}"
    full = f"{who}{', '.join(names)} from {state.zone_label(src)} to {state.zone_label(dest)}"
    event = {
        "type": "move", "actor": actor, "from": src, "to_zone": dest, "count": count,
        "text": masked, "private_text": full, "cards": [rules.instance_type[c] for c in moved],
        "seen": None if everyone else seen,
    }
    if state.sealing is not None and not all(c in state.faceup for c in moved):
        event["sealed"] = state.sealing
    state._record(event)


def emit(state: "State", kind: str, text: str, to: Sequence[int] | None = None, **fields: Any) -> None:
    """Log an event (for the seats ``to``, else everyone), held back inside a sealed part."""
    if not state.record_events:
        return
    event = {"type": kind, "text": text, **fields}
    if to is not None:
        event["to"] = list(to)
    if state.sealing is not None:
        event["sealed"] = state.sealing
    state._record(event)


def record(state: "State", event: dict[str, Any]) -> None:
    """Add an event to the log.  The log holds at most ``Game.event_limit`` entries: the last one then
    says that it is full, and later events are dropped (play goes on; docs/untrusted.md)."""
    log = state.log
    room = state.game.event_limit - len(log)
    if room > 1:
        log.append(event)
    elif room == 1:
        full = {"type": "log-full", "text": f"The event log is full ({len(log) + 1:,} entries): later events "
                                            "are not recorded"}
        if "sealed" in event:  # filled inside a sealed part: the others see it once the parts are done
            full["sealed"] = event["sealed"]
        log.append(full)
