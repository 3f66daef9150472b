"""Merging the files a cardset names under ``include:`` into its data.

An included file holds sections of entries (``cards:``, ``zones:``, ``procedures:``, ...);
each entry is added to the including file's section of the same name, and ``Sources`` routes it
to the included file, so that problems in it point there.  The reader reads the files; this
module only checks the ``include:`` list and merges what was read.
"""

from __future__ import annotations

import difflib
from typing import Any

from ...errors import Problem
from ..schema import INCLUDABLE
from .document import Sources
from .yamlsrc import Source


def include_names(data: Any, main: Source) -> tuple[list[str], list[Problem]]:
    """The file names under ``include:`` (taken out of ``data``), or the problem of a list that is not one."""
    if not isinstance(data, dict) or "include" not in data:
        return [], []
    names = data.pop("include")
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not all(isinstance(f, str) for f in names):
        return [], [Problem("'include' must be a list of file paths", main.span(("include",)), None, "type")]
    return names, []


def merge_part(data: Any, sources: Sources, part: Any, src: Source) -> list[Problem]:
    """Merge the sections of one included file (``part``, read from ``src``) into ``data``, in place."""
    if part is None:
        return []
    if not isinstance(part, dict):
        return [Problem("an included file must be a mapping of sections", src.span(()), None, "type")]
    problems: list[Problem] = []
    for section, entries in part.items():
        if section not in INCLUDABLE:
            guess = difflib.get_close_matches(str(section), INCLUDABLE, n=1)
            hint = f"did you mean '{guess[0]}'?" if guess else f"an included file may hold: {', '.join(INCLUDABLE)}"
            problems.append(Problem(f"'{section}' cannot be in an included file", src.span((section,), key=True),
                                    hint, "unknown-key"))
            continue
        if not isinstance(entries, dict):
            problems.append(Problem(f"'{section}' must be a mapping", src.span((section,)), None, "type"))
            continue
        target = data.setdefault(section, {})
        if not isinstance(target, dict):
            continue
        for key, value in entries.items():
            if key in target:
                where = sources.span((section, key), key=True)
                problems.append(Problem(f"'{key}' under '{section}' is defined twice", src.span((section, key), key=True),
                                        f"it is also defined at {where}", "duplicate"))
                continue
            target[key] = value
            sources.route((section, key), src)
    return problems
