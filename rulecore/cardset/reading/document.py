"""What the reading step hands to the building step: one ``Document``.

A ``Document`` is a cardset as read: its data with every include merged in and every base it
``extends:`` merged under it, ``Sources`` saying which file and line each value came from, the
problems found while reading, and the files read (for a cache to tell when they change).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from ...errors import Problem, Span
from .yamlsrc import Source


@attrs.define
class Document:
    """One cardset read from its files, ready to be built and checked."""

    data: Any  # plain data (dicts, lists, scalars): what the schema and the builder read
    sources: "Sources"  # where each value came from
    problems: list[Problem]  # found while reading (an include that cannot be read, a 'remove:' of nothing, ...)
    files: tuple[Path, ...] = ()  # every file read, the main one first


Route = tuple[Source, tuple[Any, ...]]


class Sources:
    """Positions of a cardset spread over files.

    Entries from included files, and the entries a variant merges over its base, point
    into their own file.  ``routes`` maps a path to the file (and the path in that file)
    holding the value there and everything under it; ``exact`` maps a mapping that a
    variant merged into its base's to the variant's file for that path only (what is
    under it may still come from the base).  Other paths are in ``default``: the file
    itself, or for a variant, its base's main file.
    """

    def __init__(self, main: Source):
        self.main = main
        self.file = main.file
        self.default = main
        self.exact: dict[tuple[Any, ...], Route] = {}
        self.routes: dict[tuple[Any, ...], Route] = {}

    def route(self, path: tuple[Any, ...], source: Source, source_path: tuple[Any, ...] | None = None) -> None:
        self.routes[tuple(path)] = (source, tuple(path if source_path is None else source_path))

    def resolve(self, path: tuple[Any, ...]) -> Route:
        """The file holding the value at ``path``, and its path in that file."""
        path = tuple(path)
        hit = self.exact.get(path)
        return hit if hit is not None else self.resolve_subtree(path)

    def resolve_subtree(self, path: tuple[Any, ...]) -> Route:
        if self.routes:
            for i in range(len(path), -1, -1):
                hit = self.routes.get(path[:i])
                if hit is not None:
                    return hit[0], hit[1] + path[i:]
        return self.default, path

    def span(self, path: tuple[Any, ...], *, key: bool = False, card: str | None = None) -> Span:
        source, spath = self.resolve(path)
        return source.span(spath, key=key, card=card)

    def text_span(
        self, path: tuple[Any, ...], line: int, column: int, card: str | None = None, text: str | None = None
    ) -> Span:
        source, spath = self.resolve(path)
        return source.text_span(spath, line, column, card, text)

    @property
    def all(self) -> list[Source]:
        found = [self.main, self.default] + [r[0] for r in self.exact.values()] + [r[0] for r in self.routes.values()]
        return list({id(s): s for s in found}.values())
