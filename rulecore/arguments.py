"""The checks of what callers hand to rulecore's public API (``Game(...)``, ``new_game``, ``view``,
``apply_id``, ``resample``, ``events``, ...): one place, one shape of message, in the style of
attrs' validators but in words: the argument, the kind it must be, and the value it got,
shortened so that nothing a caller passes can make the message huge or unprintable::

    'player' must be a seat number from 0 to 2 (got 99)
    'seed' must be a whole number of at most 64 bits (got a number of 5,000 digits)
    'options' must be a mapping of option names to values (got a list of 1)

``shown`` never raises (a 5000-digit number, half a character, a control character, an object
whose ``repr`` fails), and never gives Python's own words (``True``, ``None``, ``NoneType``).
Each check returns the value it let through and raises the ``RulecoreError`` subclass it is
given (the API's documented error for that call).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RulecoreError

#: characters of a value shown in a message
SHOWN = 40

#: what a seed may be: a whole number that fits in 64 bits, signed or not
SEED_LOW, SEED_HIGH = -(1 << 63), (1 << 64) - 1


def shown(value: Any, width: int = SHOWN) -> str:
    """``value`` as a message shows it: short, printable, never raising."""
    if value is None:
        return "none"
    if type(value) is bool:
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 96:  # str() of a huge number is slow, and past 4300 digits refused
            digits = int(value.bit_length() * 0.30103) + 1
            return f"a number of about {digits:,} digits"
        return _cut(str(int(value)), width)
    if isinstance(value, float):
        return _cut(repr(value), width)
    if isinstance(value, str):
        return _cut(repr(value), width)
    if isinstance(value, (bytes, bytearray)):
        return f"{len(value):,} bytes"
    if isinstance(value, (list, tuple, set, frozenset)):
        return f"a {type(value).__name__} of {len(value):,}"
    if isinstance(value, Mapping):
        return f"a mapping of {len(value):,}"
    return f"a {type(value).__name__}"


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, half characters and control characters escaped."""
    text = text if len(text) <= width else text[: width - 3] + "..."
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def bad(name: str, expected: str, value: Any, error: type[RulecoreError] = RulecoreError) -> RulecoreError:
    """The error saying that argument ``name`` must be ``expected`` and what it got (``name`` is quoted
    unless it quotes itself: ``option 'speed'``)."""
    subject = name if "'" in name else f"'{name}'"
    return error(f"{subject} must be {expected} (got {shown(value)})")


def whole(name: str, value: Any, low: int | None = None, high: int | None = None, *,
          error: type[RulecoreError] = RulecoreError, expected: str = "") -> int:
    """``value`` if it is an ``int`` (not a bool) from ``low`` to ``high`` (either may be open)."""
    if type(value) is not int or (low is not None and value < low) or (high is not None and value > high):
        if not expected:
            expected = ("a whole number" if low is None and high is None
                        else f"a whole number from {low:,}" if high is None
                        else f"a whole number from {low:,} to {high:,}" if low is not None
                        else f"a whole number up to {high:,}")
        raise bad(name, expected, value, error)
    return value


def seat(name: str, value: Any, players: int, *, error: type[RulecoreError] = RulecoreError) -> int:
    """``value`` if it is a seat number of a ``players``-player game."""
    return whole(name, value, 0, players - 1, error=error,
                 expected=f"a seat number from 0 to {players - 1}")


def seed(name: str, value: Any, *, error: type[RulecoreError] = RulecoreError) -> int:
    """``value`` if it is a whole number that fits in 64 bits (what a save and the generator hold)."""
    return whole(name, value, SEED_LOW, SEED_HIGH, error=error, expected="a whole number of at most 64 bits")


def text(name: str, value: Any, *, error: type[RulecoreError] = RulecoreError, expected: str = "text") -> str:
    """``value`` if it is text that can be written out (no half characters, which UTF-8 cannot hold)."""
    if type(value) is not str:
        raise bad(name, expected, value, error)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise bad(name, f"{expected} without half characters (lone surrogates)", value, error) from None
    return value


def one_of(name: str, value: Any, choices: Any, *, error: type[RulecoreError] = RulecoreError) -> Any:
    """``value`` if it is one of ``choices`` (compared by type too: 1 is not true)."""
    if not any(type(value) is type(c) and value == c for c in choices):
        raise bad(name, "one of " + ", ".join(shown(c) for c in choices), value, error)
    return value


def mapping(name: str, value: Any, *, error: type[RulecoreError] = RulecoreError,
            expected: str = "a mapping") -> Mapping[Any, Any]:
    """``value`` if it is a mapping whose keys are texts."""
    if not isinstance(value, Mapping) or not all(type(k) is str for k in value):
        raise bad(name, expected, value, error)
    return value
