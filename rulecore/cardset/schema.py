"""The JSON Schema of cardset files: used to check structure at load, printed for editors.

``SCHEMA`` describes a cardset file (``rulecore schema``); a file with ``extends:`` (a
variant) needs none of the otherwise required keys, since it is merged over its base.
``PART_SCHEMA`` describes a file named under ``include:`` (``rulecore schema --part``).
"""

from __future__ import annotations

from typing import Any

from ..errors import doc_ref

EFFECT = {"type": "string", "description": "Effect-language text (statements)."}
EXPR = {
    "description": "An effect-language expression.",
    "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}],
}
NAME = {"type": "string", "pattern": "^[a-z_][a-z0-9_]*$"}
MAX_COUNT = 10_000  # copies of one card type
MAX_PLAYERS = 100
MAX_SLOTS = 1_000
INCLUDABLE = ("cards", "families", "procedures", "functions", "zones", "counters", "vars", "options", "marks",
              "player_marks")
REMOVABLE = ("cards", "families", "zones", "counters", "vars", "options", "procedures", "functions", "phases", "keys",
             "marks", "player_marks")
VISIBILITY = {"enum": ["owner", "everyone", "nobody"]}

VAR_VALUE: dict[str, Any] = {
    "description": "A starting value: text, a whole number, true/false, none (or null), or a list.",
    "anyOf": [
        {"type": ["string", "integer", "boolean", "null"]},
        {"type": "array", "items": {"type": ["string", "integer"]}},
    ],
}

ABILITY = {
    "description": "An ability: effect text, or a mapping with a 'when' condition and the effect under 'do'.",
    "anyOf": [
        EFFECT,
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["do"],
            "properties": {
                "when": EXPR,
                "do": EFFECT,
                "text": {"type": "string"},
                "on": {**NAME, "description": "Answer the event of this name ('signal \"NAME\" for P')."},
                "from": {**NAME, "description": "With 'on': the zone of the signalled player the card must be in."},
                "optional": {"type": "boolean", "description": "With 'on': the player may decline (default true)."},
                "instead": {"type": "boolean", "description": "With 'on': replaces what the signal would do."},
                "label": {"type": "string", "description": "With 'on': the option text offered to the player."},
                "params": {
                    "type": "array",
                    "items": NAME,
                    "description": "With 'on': the names the signal passes ('with a, b').",
                },
            },
        },
    ],
}

CARD: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["count"],
    "properties": {
        "name": {"type": "string", "description": "Display name (default: the id, capitalised)."},
        "count": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT, "description": "Copies in the deck."},
        "include_if": {**EXPR, "description": "Only in the game when this holds (e.g. player_count > 2)."},
        "tags": {"type": "array", "items": NAME, "uniqueItems": True},
        "props": {
            "type": "object",
            "description": "Further properties, read as c.<name>.",
            "propertyNames": NAME,
            "additionalProperties": {
                "anyOf": [
                    {"type": ["string", "integer", "boolean", "null"]},
                    {"type": "array", "items": {"type": ["string", "integer"]}},
                ]
            },
        },
        "scoring": {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": 1,
            "description": "Points for 1, 2, 3, ... copies; the last value holds for larger counts.",
        },
        "text": {"type": "string", "description": "Rules text as printed, for people."},
        "abilities": {"type": "object", "propertyNames": NAME, "additionalProperties": ABILITY},
    },
}

SCALAR = {"type": ["string", "integer", "boolean"]}

FAMILY = {
    "type": "object",
    "additionalProperties": False,
    "required": ["each"],
    "description": "A family of card types: one for each combination of the values under 'each' (suit x rank).",
    "properties": {
        "each": {
            "type": "object",
            "minProperties": 1,
            "propertyNames": NAME,
            "description": "The properties that vary, each with its list of values; the family has a card type "
            "for every combination, the first property outermost.  A value may be a mapping of several "
            "properties ({rank: 14, rank_name: Ace}).",
            "additionalProperties": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "anyOf": [
                        SCALAR,
                        {"type": "object", "minProperties": 1, "propertyNames": NAME, "additionalProperties": SCALAR},
                    ]
                },
            },
        },
        "id": {"type": "string", "description": "The id of each card type, with {property} filled in (default: "
               "the family's name and the values, e.g. suited_spades_2)."},
        "name": {"type": "string", "description": "Display name with {property} filled in, e.g. '{rank_name} of {suit}'."},
        "count": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT, "description": "Copies of each (default 1)."},
        "include_if": CARD["properties"]["include_if"],
        "tags": CARD["properties"]["tags"],
        "props": {**CARD["properties"]["props"], "description": "Properties every card of the family has."},
        "scoring": CARD["properties"]["scoring"],
        "text": {"type": "string", "description": "Rules text, with {property} filled in."},
        "abilities": CARD["properties"]["abilities"],
        "description": {"type": "string"},
    },
}

ZONE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["owner", "visibility"],
    "properties": {
        "owner": {"enum": ["player", "none"], "description": "One per player, or one shared zone."},
        "visibility": {**VISIBILITY, "description": "Who sees the cards (until a 'reveal')."},
        "slots": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_SLOTS,
            "description": "With owner none: a row of N numbered zones, read as 'NAME of 1' .. 'NAME of N'.",
        },
        "label": {
            "type": "string",
            "minLength": 1,
            "maxLength": 60,
            "description": "The zone's name as people read it in events, choices and tables ('Discard pile'); "
                           "default: the zone's name.",
        },
        "description": {"type": "string"},
    },
}

COUNTER = {
    "type": "object",
    "additionalProperties": False,
    "required": ["owner"],
    "properties": {
        "owner": {"enum": ["player", "none"]},
        "initial": {"type": "integer"},
        "min": {"type": "integer"},
        "max": {"type": "integer"},
        "visibility": VISIBILITY,
        "per_round": {"type": "boolean", "description": "Record its value at the end of every round."},
        "description": {"type": "string"},
    },
}

PROCEDURE = {
    "anyOf": [
        EFFECT,
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["do"],
            "properties": {"params": {"type": "array", "items": NAME}, "do": EFFECT, "description": {"type": "string"}},
        },
    ]
}

FUNCTION = {
    "description": "A named expression, called like a built-in function: name(args).",
    "anyOf": [
        EXPR,
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["value"],
            "properties": {
                "params": {"type": "array", "items": NAME},
                "value": EXPR,
                "description": {"type": "string"},
            },
        },
    ],
}

PHASE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "do"],
    "properties": {"name": NAME, "do": EFFECT, "description": {"type": "string"}},
}

OPTION = {
    "type": "object",
    "additionalProperties": False,
    "required": ["default"],
    "properties": {
        "default": {"type": ["string", "integer", "boolean"]},
        "choices": {"type": "array", "items": {"type": ["string", "integer", "boolean"]}, "minItems": 1},
        "description": {"type": "string"},
    },
}

REQUIRED = ("name", "players", "zones", "flow", "end")  # and 'cards' or 'families' (checked by the loader)

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "rulecore cardset",
    "type": "object",
    "additionalProperties": False,
    # a variant (a file with 'extends') is merged over its base, so it needs none of these
    "if": {"required": ["extends"]},
    "then": {},
    "else": {"required": list(REQUIRED)},
    "properties": {
        "extends": {
            "type": "string",
            "description": "This file is a variant of another cardset: a built-in name or a "
            "path relative to this file.  Its keys are merged over that cardset's: mappings key by key, "
            f"everything else (text, numbers, lists) replaced.  See {doc_ref('docs/variants.md')}.",
        },
        "remove": {
            "type": "object",
            "additionalProperties": False,
            "description": "In a variant: entries of the base to take out before this file is merged, "
            "e.g. {cards: [book]}; NAME.KEY removes one key of an entry (cards: [book.include_if]); "
            "'keys' takes dotted paths from the top (keys: [heuristic, flow.rounds]).",
            "properties": {
                section: {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
                for section in REMOVABLE
            },
        },
        "name": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "include": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Files (relative paths) whose cards, procedures, functions, zones, counters, vars "
            "and options are added to this cardset.",
        },
        "players": {
            "type": "object",
            "additionalProperties": False,
            "required": ["min", "max"],
            "properties": {
                "min": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
                "max": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
            },
        },
        "zones": {"type": "object", "propertyNames": NAME, "additionalProperties": ZONE, "minProperties": 1},
        "counters": {"type": "object", "propertyNames": NAME, "additionalProperties": COUNTER},
        "vars": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": {
                "anyOf": [
                    VAR_VALUE["anyOf"][0],
                    VAR_VALUE["anyOf"][1],
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "description": "A variable with more to say: its starting value and who sees it.",
                        "properties": {
                            "value": VAR_VALUE,
                            "visibility": {
                                "enum": ["everyone", "nobody"],
                                "description": "everyone (the default): in every view; nobody: in no view.",
                            },
                            "description": {"type": "string"},
                        },
                    },
                ]
            },
        },
        "options": {"type": "object", "propertyNames": NAME, "additionalProperties": OPTION},
        "marks": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": {"type": "string"},
            "description": "The words 'mark card' may put on a card, each with what it means (used: an ability "
            "spent this turn). With this list, a word it does not hold is an error; without it, a warning.",
        },
        "player_marks": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": {"type": "string"},
            "description": "The words 'mark player' may put on a player, each with what it means. With this list, "
            "a word it does not hold is an error; without it, a warning.",
        },
        "cards": {"type": "object", "propertyNames": NAME, "additionalProperties": CARD},
        "families": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": FAMILY,
            "description": "Card types made as a product of properties (suit x rank), added after 'cards:'.",
        },
        "procedures": {"type": "object", "propertyNames": NAME, "additionalProperties": PROCEDURE},
        "functions": {"type": "object", "propertyNames": NAME, "additionalProperties": FUNCTION},
        "setup": {
            "type": "object",
            "additionalProperties": False,
            "required": ["cards_in"],
            "properties": {"cards_in": NAME, "do": EFFECT},
        },
        "flow": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "rounds": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["until", "phases"],
                    "properties": {
                        "until": EXPR,
                        "phases": {"type": "array", "items": PHASE, "minItems": 1},
                        "label": {
                            "type": "string",
                            "description": "What a round is called, e.g. hand: 'Hand 3 begins' in the event log, "
                            "'Mean hands' in simulate's table (default: round).",
                        },
                    },
                },
                "phases": {"type": "array", "items": PHASE, "minItems": 1},
            },
        },
        "end": {
            "type": "object",
            "additionalProperties": False,
            "required": ["winners"],
            "properties": {
                "winners": {**EXPR, "description": "The winning players, evaluated when the game ends."},
                "totals": {**NAME, "description": "The per-player counter reported as totals in result()."},
                "round_scores": {**NAME, "description": "The per_round counter reported per round in result()."},
            },
        },
        "heuristic": {**EXPR, "description": "A number: how good the state is for 'you' (used by bots)."},
    },
}


PART_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "rulecore cardset part (a file named under 'include:')",
    "type": "object",
    "additionalProperties": False,
    "properties": {section: SCHEMA["properties"][section] for section in INCLUDABLE},
}


def _relaxed(schema: Any) -> Any:
    """The schema without 'required' or minimum sizes: what a variant's partial entries must match."""
    if isinstance(schema, dict):
        return {
            k: _relaxed(v)
            for k, v in schema.items()
            if k not in ("required", "minProperties", "if", "then", "else")
        }
    if isinstance(schema, list):
        return [_relaxed(v) for v in schema]
    return schema


def editor_schema(part: bool = False) -> dict[str, Any]:
    """The schema printed by ``rulecore schema`` for editors (JSON Schema draft-07, which YAML
    language servers read).  A file with ``extends:`` is checked against a relaxed copy: a
    variant's entries are merged over its base, so they may leave out keys the base has."""
    draft7 = "http://json-schema.org/draft-07/schema#"
    if part:
        return {**PART_SCHEMA, "$schema": draft7}
    strict = {k: v for k, v in SCHEMA.items() if k not in ("$schema", "title", "if", "then", "else")}
    own = [k for k in REQUIRED if k not in INCLUDABLE]  # what a file with 'include:' must hold itself
    return {
        "$schema": draft7,
        "title": SCHEMA["title"],
        "description": f"A rulecore cardset file (see {doc_ref('docs/cardset-reference.md')}); with 'extends:', a "
        f"variant of another cardset (see {doc_ref('docs/variants.md')}).",
        "type": "object",
        "if": {"type": "object", "required": ["extends"]},
        "then": _relaxed(strict),
        "else": {
            **strict,
            "if": {"type": "object", "required": ["include"]},
            "then": {"required": own},
            "else": {"required": list(REQUIRED), "anyOf": [{"required": ["cards"]}, {"required": ["families"]}]},
        },
    }
