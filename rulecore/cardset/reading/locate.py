"""Where a cardset's file is: a built-in cardset's name, or a path (a folder means its cardset.yaml).

Apart from the reader so that a cache can find the file without loading what reads YAML.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from ..._resources import builtin_cardsets, builtin_path
from ...errors import CardsetError, Problem, Span


def locate_cardset(name_or_path: str | Path) -> Path:
    """The file of a built-in cardset's name, or of a path (a folder means its cardset.yaml)."""
    if isinstance(name_or_path, str) and "/" not in name_or_path and not name_or_path.endswith((".yaml", ".yml")):
        builtin = builtin_path(name_or_path)
        if builtin is not None:
            return builtin
        names = builtin_cardsets()
        guess = difflib.get_close_matches(name_or_path, names, n=1)
        hint = f"did you mean '{guess[0]}'?" if guess else f"built-in cardsets: {', '.join(names)}"
        raise CardsetError([Problem(f"unknown cardset '{name_or_path}'", Span(name_or_path), hint, "unknown-cardset")])
    path = Path(name_or_path)
    if path.is_dir():
        path = path / "cardset.yaml"
    if path.exists() and not path.is_file():
        raise CardsetError([Problem("the cardset file is refused: it is not a regular file", Span(str(path)),
                                    "card files are regular files", "refused")])
    if not path.is_file():
        raise CardsetError([Problem("no such cardset file", Span(str(path)), "give a built-in name or a .yaml path", "io")])
    return path
