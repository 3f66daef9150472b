"""The text of ``--option key=value`` and ``--bots a,b,c``: parsed against the cardset's option specs
into typed values, and option values written back as they would be typed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import typer

import rulecore

_TRUE_WORDS = frozenset({"true", "yes", "on", "1", "y"})
_FALSE_WORDS = frozenset({"false", "no", "off", "0", "n"})


def split_names(raw: str) -> list[str]:
    """Comma-separated bot names; a part like ``depth=30`` continues the settings of the bot before it."""
    names: list[str] = []
    for part in (p.strip() for p in raw.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and names:
            names[-1] = f"{names[-1]},{part}"
        else:
            names.append(part)  # not lowercased: module:attr of a user's bot keeps its case
    return names


def option_specs(cardset: Any) -> Mapping[str, Any]:
    specs = getattr(cardset, "options", None)
    return specs if isinstance(specs, Mapping) else {}


def _coerce_bool(key: str, value: str) -> bool:
    word = value.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise rulecore.RulecoreError(f"option {key!r} expects true or false, got {value!r}")


def _coerce_guess(value: str) -> Any:
    word = value.strip()
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    for kind in (int, float):
        try:
            return kind(word)
        except ValueError:
            pass
    return word


def _coerce(key: str, value: str, spec: Any) -> Any:
    """Turn the text of ``--option key=value`` into the type the option expects."""
    choices = getattr(spec, "choices", None)
    if choices:
        for choice in choices:
            if isinstance(choice, bool):
                if value.strip().lower() in (_TRUE_WORDS if choice else _FALSE_WORDS):
                    return choice
            elif str(choice) == value.strip():
                return choice
        raise rulecore.RulecoreError(
            f"option {key!r} must be one of {', '.join(str(c) for c in choices)}; got {value!r}"
        )
    default = getattr(spec, "default", None)
    if isinstance(default, bool):
        return _coerce_bool(key, value)
    if isinstance(default, int):
        try:
            return int(value.strip())
        except ValueError:
            raise rulecore.RulecoreError(
                f"option {key!r} expects a whole number, got {value!r}"
            ) from None
    if isinstance(default, float):
        try:
            return float(value.strip())
        except ValueError:
            raise rulecore.RulecoreError(f"option {key!r} expects a number, got {value!r}") from None
    if isinstance(default, str):
        return value
    return _coerce_guess(value)


def parse_options(pairs: Sequence[str], specs: Mapping[str, Any]) -> dict[str, Any]:
    """Parse ``key=value`` strings against a cardset's option specs.

    A pair without ``=`` is a usage error (:class:`typer.BadParameter`); an
    unknown key or a value of the wrong type is a :class:`rulecore.RulecoreError`.
    """
    options: dict[str, Any] = {}
    for raw in pairs:
        key, sep, value = raw.partition("=")
        key = key.strip()
        if not sep or not key:
            raise typer.BadParameter(
                f"expected key=value, got {raw!r}", param_hint="'--option'"
            )
        if specs and key not in specs:
            raise rulecore.RulecoreError(
                f"unknown option {key!r}; this cardset's options are: "
                f"{', '.join(sorted(specs)) or '(none)'}"
            )
        options[key] = _coerce(key, value, specs.get(key))
    return options


def option_value(value: Any) -> str:
    """An option value as it would be typed after ``--option key=``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "":
        return '""'
    return str(value)


def options_text(options: Mapping[str, Any]) -> str:
    """Options as they would be typed: ``key=value, key=value``."""
    return ", ".join(f"{k}={option_value(v)}" for k, v in options.items())
