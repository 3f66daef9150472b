"""A fingerprint of a loaded cardset: what a saved state was played with.

Two loads of the same rules give the same fingerprint wherever the files lie (spans, file names
and warnings are left out); any change to cards, counts, zones, options or effect text changes
it.  Order matters: the engine numbers cards and statements in the order they were read.
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping

import attrs

from ..errors import Problem, Span

# (the declared mark words only check the text: play is the same with or without them)
_LEFT_OUT = frozenset({"span", "warnings", "file", "marks", "player_marks"})
# fields added after saves existed, left out while they hold their default, so that a cardset that
# does not use them keeps the fingerprint (and its saves) it had before: (class name, field name)
_LATER = frozenset({("ZoneDef", "label"), ("CallProc", "result")})


def fingerprint(cardset: Any) -> str:
    """A sha256 hex digest of everything in ``cardset`` that play depends on."""
    digest = hashlib.sha256()
    feed = digest.update

    def walk(value: Any) -> None:
        kind = type(value)
        if attrs.has(kind):
            if kind in (Span, Problem):
                return
            feed(kind.__name__.encode() + b"(")
            for field in attrs.fields(kind):
                if (kind.__name__, field.name) in _LATER and getattr(value, field.name) == field.default:
                    continue
                if field.name not in _LEFT_OUT:
                    feed(field.name.encode() + b"=")
                    walk(getattr(value, field.name))
                    feed(b",")
            feed(b")")
        elif isinstance(value, Mapping):
            feed(b"{")
            for key, item in value.items():
                walk(key)
                feed(b":")
                walk(item)
                feed(b",")
            feed(b"}")
        elif isinstance(value, (list, tuple)):
            feed(b"[")
            for item in value:
                walk(item)
                feed(b",")
            feed(b"]")
        else:
            feed(repr(value).encode("utf-8", "backslashreplace"))

    walk(cardset)
    return digest.hexdigest()
