"""Where the grammar, the built-in cardsets and the documentation live, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The ``grammar``, ``cardsets`` or ``docs`` folder: package data in a wheel, the repo folder in a checkout."""
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


#: the kinds of files under docs/examples/ that are examples (not the JSON Schemas beside the guides)
_EXAMPLE_SUFFIXES = (".yaml", ".yml", ".py")


def doc_files() -> dict[str, Path]:
    """The guides (``docs/*.md``) and examples (``docs/examples/*``) shipped with rulecore, by topic: the file's
    name without its suffix (``cardset-reference``, ``tiny-game``). Guides first, each part sorted by name; a guide
    keeps its name if an example has the same one."""
    root = data_dir("docs")
    guides = sorted(p for p in root.glob("*.md") if p.is_file())
    examples = sorted(p for p in (root / "examples").glob("*") if p.is_file() and p.suffix in _EXAMPLE_SUFFIXES)
    topics: dict[str, Path] = {}
    for path in guides + examples:
        topics.setdefault(path.stem, path)
    return topics
