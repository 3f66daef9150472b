"""The JSON Schema (draft 2020-12) of every message of the protocol, by name. docs/serve.md shows them;
the server checks every request body against its schema, and the tests check every answer."""

from __future__ import annotations

from typing import Any

import jsonschema

from ..errors import doc_ref

Schema = dict[str, Any]

_ID = {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"}
_SEAT = {"type": "integer", "minimum": 0}
_NAME = {"type": "string", "minLength": 1, "maxLength": 40}
_JSONISH: Schema = {}  # any JSON value (a view, an event: see docs/api.md for their fields)

ERROR: Schema = {
    "title": "Error",
    "description": "Any answer with a status of 400 or more.",
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "A stable code: bad-request, not-found, stale, illegal, ..."},
        "message": {"type": "string", "description": "What went wrong, for people."},
        "version": {"type": "integer", "description": "With 'stale': the match's version now."},
    },
}

GAMES: Schema = {
    "title": "Games",
    "description": "GET /api/games",
    "type": "object",
    "required": ["games", "bots"],
    "properties": {
        "bots": {"type": "array", "items": {"type": "string"}, "description": "Bot names a seat may take."},
        "games": {"type": "array", "items": {
            "type": "object",
            "required": ["name", "title", "description", "players", "options", "zones", "counters"],
            "properties": {
                "name": {"type": "string"},
                "title": {"type": "string"},
                "description": {"type": "string"},
                "players": {"type": "object", "required": ["min", "max"],
                            "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}},
                "options": {"type": "array", "items": {
                    "type": "object", "required": ["name", "default", "choices", "description"],
                    "properties": {"name": {"type": "string"}, "default": _JSONISH, "description": {"type": "string"},
                                   "choices": {"type": ["array", "null"]}}}},
                "zones": {"type": "array", "items": {
                    "type": "object", "required": ["name", "label", "owner", "visibility", "slots", "description"],
                    "properties": {"name": {"type": "string"}, "label": {"type": "string"},
                                   "owner": {"enum": ["player", "none"]},
                                   "visibility": {"enum": ["owner", "everyone", "nobody"]},
                                   "slots": {"type": "integer"}, "description": {"type": "string"}}}},
                "counters": {"type": "array", "items": {
                    "type": "object", "required": ["name", "owner", "visibility"],
                    "properties": {"name": {"type": "string"}, "owner": {"enum": ["player", "none"]},
                                   "visibility": {"enum": ["owner", "everyone", "nobody"]}}}},
            },
        }},
    },
}

CARDS: Schema = {
    "title": "Cards",
    "description": "GET /api/games/{game}/cards and GET /api/matches/{id}/cards: Game.card_catalogue().",
    "type": "object",
    "required": ["game", "cards"],
    "properties": {
        "game": {"type": "string"},
        "cards": {"type": "array", "items": {
            "type": "object",
            "required": ["id", "name", "count", "text", "tags", "props", "scoring", "family", "abilities"],
            "properties": {
                "id": {"type": "string"}, "name": {"type": "string"}, "count": {"type": "integer"},
                "text": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
                "props": {"type": "object"}, "scoring": {"type": "array", "items": {"type": "integer"}},
                "family": {"type": ["string", "null"]},
                "abilities": {"type": "array", "items": {
                    "type": "object", "required": ["name", "label", "text"],
                    "properties": {"name": {"type": "string"}, "label": {"type": ["string", "null"]},
                                   "text": {"type": ["string", "null"]}}}},
            },
        }},
    },
}

CREATE_MATCH: Schema = {
    "title": "CreateMatch",
    "description": "POST /api/matches",
    "type": "object",
    "additionalProperties": False,
    "required": ["game", "players", "seats"],
    "properties": {
        "game": {"type": "string", "maxLength": 200},
        "players": {"type": "integer", "minimum": 1, "maximum": 64},
        "options": {"type": "object", "maxProperties": 64,
                    "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "seats": {"type": "array", "minItems": 1, "maxItems": 64, "items": {
            "type": "string", "maxLength": 200,
            "description": "\"open\" (a person joins it) or \"bot:NAME\" / \"bot:NAME:settings\"."}},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2 ** 63 - 1},
    },
}

_SEAT_INFO: Schema = {
    "type": "object",
    "required": ["seat", "kind", "name", "taken"],
    "properties": {
        "seat": _SEAT,
        "kind": {"enum": ["open", "bot"]},
        "bot": {"type": "string"},
        "name": {"type": ["string", "null"]},
        "taken": {"type": "boolean", "description": "An open seat that a person has joined (bots: always)."},
    },
}

MATCH_CREATED: Schema = {
    "title": "MatchCreated",
    "description": "201 answer to POST /api/matches",
    "type": "object",
    "required": ["match_id", "game", "players", "options", "version", "status", "seats"],
    "properties": {
        "match_id": _ID, "game": {"type": "string"}, "players": {"type": "integer"}, "options": {"type": "object"},
        "version": {"type": "integer"}, "status": {"enum": ["waiting", "playing", "finished", "failed"]},
        "seats": {"type": "array", "items": _SEAT_INFO},
    },
}

JOIN: Schema = {
    "title": "Join",
    "description": "POST /api/matches/{id}/seats/{seat}",
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {"name": _NAME},
}

JOINED: Schema = {
    "title": "Joined",
    "description": "201 answer to POST /api/matches/{id}/seats/{seat}: the seat's token, shown once.",
    "type": "object",
    "required": ["match_id", "seat", "token", "version", "status"],
    "properties": {"match_id": _ID, "seat": _SEAT, "token": {"type": "string", "minLength": 43},
                   "version": {"type": "integer"}, "status": {"type": "string"}},
}

_OPTION: Schema = {
    "type": "object",
    "required": ["id", "action", "label", "ref"],
    "properties": {
        "id": {"type": "integer", "description": "Its place in 'options' (0 first); POST it as 'action'."},
        "action": {"type": "string", "description": "What the engine takes (State.apply); POST it as 'action'."},
        "label": {"type": "string"},
        "ref": {"type": "object", "required": ["kind"],
                "description": "What the option refers to: State.option_refs(), see " + doc_ref("docs/api.md"),
                "properties": {"kind": {"enum": ["card", "cards", "player", "number", "text", "done", "decline",
                                                 "option"]}}},
    },
}

MATCH: Schema = {
    "title": "Match",
    "description": "GET /api/matches/{id}[?since=N], and every message the WebSocket pushes.",
    "type": "object",
    "required": ["type", "match_id", "game", "players", "options", "version", "status", "seat", "seats", "view",
                 "decision", "events", "next_event"],
    "properties": {
        "type": {"const": "match"},
        "match_id": _ID,
        "game": {"type": "string"},
        "players": {"type": "integer"},
        "options": {"type": "object"},
        "version": {"type": "integer", "description": "Changes with every join and action; send it with actions."},
        "status": {"enum": ["waiting", "playing", "finished", "failed"]},
        "reason": {"type": "string", "description": "With 'failed': why the match cannot go on."},
        "seat": {"type": ["integer", "null"], "description": "Your seat; null for a spectator."},
        "seats": {"type": "array", "items": _SEAT_INFO},
        "view": {"type": ["object", "null"],
                 "description": "state.view(seat), or state.public_view() for a spectator; null while waiting."},
        "decision": {
            "type": ["object", "null"],
            "description": "Your pending decision (null when another seat is deciding: view.decision says who).",
            "required": ["player", "prompt", "kind", "options"],
            "properties": {"player": _SEAT, "prompt": {"type": "string"}, "kind": {"type": "string"},
                           "options": {"type": "array", "items": _OPTION}},
        },
        "events": {"type": "array", "items": {"type": "object", "required": ["type", "text", "index"],
                                              "properties": {"index": {"type": "integer"}}},
                   "description": "Events since ?since=N, each with its index; one with an index you have replaces it."},
        "next_event": {"type": "integer", "description": "Ask ?since= this next time."},
    },
}

ACTION: Schema = {
    "title": "Action",
    "description": "POST /api/matches/{id}/actions (Authorization: Bearer TOKEN)",
    "type": "object",
    "additionalProperties": False,
    "required": ["action", "version"],
    "properties": {
        "action": {"type": ["string", "integer"], "maxLength": 1000,
                   "description": "An option's action text or its id."},
        "version": {"type": "integer", "description": "The version the choice was made on."},
    },
}

ACTED: Schema = {
    "title": "Acted",
    "description": "200 answer to POST /api/matches/{id}/actions",
    "type": "object",
    "required": ["version", "status", "action"],
    "properties": {"version": {"type": "integer"}, "status": {"type": "string"}, "action": {"type": "string"}},
}

LOG: Schema = {
    "title": "Log",
    "description": "GET /api/matches/{id}/log: once finished, all Game.replay needs; before, public events.",
    "type": "object",
    "required": ["match_id", "game", "players", "options", "status", "finished"],
    "properties": {
        "match_id": _ID, "game": {"type": "string"}, "players": {"type": "integer"}, "options": {"type": "object"},
        "status": {"type": "string"}, "finished": {"type": "boolean"},
        "seed": {"type": "integer"}, "player_names": {"type": "array", "items": {"type": "string"}},
        "history": {"type": "array", "items": {"type": "string"}}, "result": {"type": "object"},
        "events": {"type": "array", "items": {"type": "object"}},
    },
}

SOCKET_HELLO: Schema = {
    "title": "SocketHello",
    "description": "The first WebSocket message, when the URL has neither ?token= nor ?spectate.",
    "type": "object",
    "additionalProperties": False,
    "required": ["token"],
    "properties": {"token": {"type": ["string", "null"], "maxLength": 200,
                             "description": "The seat's token, or null to watch."},
                   "since": {"type": "integer", "minimum": 0}},
}

SOCKET_PING: Schema = {
    "title": "SocketPing",
    "description": "Any later WebSocket message: {\"type\": \"ping\"}, answered {\"type\": \"pong\"}.",
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"const": "ping"}},
}

ALL: dict[str, Schema] = {s["title"]: s for s in (GAMES, CARDS, CREATE_MATCH, MATCH_CREATED, JOIN, JOINED, MATCH,
                                                  ACTION, ACTED, LOG, ERROR, SOCKET_HELLO, SOCKET_PING)}


def problem(schema: Schema, data: Any) -> str | None:
    """The first way ``data`` breaks ``schema``, in words (None: it fits)."""
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where or 'the body'}: {error.message}"[:300]
