"""Where the grammar and the built-in cardsets live, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The ``grammar`` or ``cardsets`` folder: package data in a wheel, the repo folder in a checkout."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"rulecore data folder {name!r} not found (looked in {installed} and {checkout})")


def grammar_path() -> Path:
    return data_dir("grammar") / "effects.lark"


def builtin_cardsets() -> list[str]:
    """Names of the cardsets shipped with rulecore."""
    root = data_dir("cardsets")
    return sorted(p.name for p in root.iterdir() if (p / "cardset.yaml").is_file())


def builtin_path(name: str) -> Path | None:
    path = data_dir("cardsets") / name / "cardset.yaml"
    return path if path.is_file() else None
