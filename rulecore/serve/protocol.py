"""What each connection is sent: the payloads of the protocol built from a match's state, each holding
only what its seat (or, for a spectator, every seat) may see. docs/serve.md describes them; their
schemas are in ``schemas.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .matches import Match


class ApiError(Exception):
    """An answer with an error status: ``code`` is the stable word clients test, ``message`` for people."""

    def __init__(self, status: int, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


def seats_info(match: "Match") -> list[dict[str, Any]]:
    """Who sits where: public (names and bots are shown to everyone at the table)."""
    out = []
    for i, seat in enumerate(match.record.seats):
        entry: dict[str, Any] = {"seat": i, "kind": seat.kind, "name": seat.name,
                                 "taken": seat.kind == "bot" or seat.token_hash is not None}
        if seat.bot is not None:
            entry["bot"] = seat.bot
        out.append(entry)
    return out


def match_payload(match: "Match", seat: int | None, since: int) -> dict[str, Any]:
    """The payload of GET /api/matches/{id} and of the WebSocket, for ``seat`` (None: a spectator)."""
    record = match.record
    state, version = match.shown  # a clone taken after the last change: never changed again, safe from any thread
    payload: dict[str, Any] = {
        "type": "match",
        "match_id": record.match_id,
        "game": record.game,
        "players": record.players,
        "options": match.options,
        "version": version,
        "status": record.status,
        "seat": seat,
        "seats": seats_info(match),
        "view": None,
        "decision": None,
        "events": [],
        "next_event": 0,
    }
    if record.reason:
        payload["reason"] = record.reason
    if state is None:
        return payload
    if seat is None:
        payload["view"] = state.public_view()
        payload["events"] = state.public_events(since, numbered=True)
        payload["next_event"] = state.event_cursor(None)
    else:
        payload["view"] = state.view(seat)
        payload["events"] = state.events(seat, since, numbered=True)
        payload["next_event"] = state.event_cursor(seat)
        decision = state.decision
        if decision is not None and decision.player == seat:
            payload["decision"] = {
                "player": seat, "prompt": decision.prompt, "kind": decision.kind,
                "options": [{"id": i, "action": o.action, "label": o.label, "ref": ref}
                            for i, (o, ref) in enumerate(zip(decision.options, state.option_refs()))],
            }
    return payload


def log_payload(match: "Match") -> dict[str, Any]:
    """GET /api/matches/{id}/log: a finished match's seed, options, names and history (``Game.replay``
    rebuilds it); before the end only the public events."""
    record = match.record
    state = match.shown[0]
    finished = record.status == "finished" and state is not None
    out: dict[str, Any] = {"match_id": record.match_id, "game": record.game, "players": record.players,
                           "options": match.options, "status": record.status, "finished": finished}
    if finished and state is not None:
        out.update(seed=record.seed, player_names=[s.name for s in record.seats], history=list(state.history),
                   result=state.result())
    else:
        out["events"] = state.public_events(numbered=True) if state is not None else []
    return out


def created_payload(match: "Match") -> dict[str, Any]:
    record = match.record
    return {"match_id": record.match_id, "game": record.game, "players": record.players, "options": match.options,
            "version": record.version, "status": record.status, "seats": seats_info(match)}

