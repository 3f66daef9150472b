"""The cache a caller may keep between loads: effect text already parsed, and whole cardsets.

``load_cardset(..., cache=ParseCache())``: a file loaded again whose files all read the same
gives back the cardset kept for it; otherwise every piece of effect text found again at the
same place of an unchanged file is not parsed again.  Nothing is kept between loads unless
the caller keeps the cache (no process-wide state).
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import Problem
from .model import Cardset


class ParseCache:
    """Effect text already parsed, kept by whoever loads (``load_cardset(..., cache=...)``).

    An entry is the same text at the same place of a file with the same contents, read
    with the same names; a loader given the cache reuses it instead of parsing again.
    Bounded: past ``size`` entries the oldest goes first.
    """

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._entries: dict[Any, tuple[Any, list[Problem]]] = {}
        # whole cardsets loaded from files: (path, roots, limits) -> (the files it was read from, cardset)
        self._cardsets: dict[Any, tuple[list[tuple[str, tuple[int, int, int, int]]], Cardset]] = {}

    def keep_cardset(self, key: Any, files: list[str], cardset: Cardset) -> None:
        """Remember a cardset loaded as ``key`` (path, roots, limits) and the files it came from,
        as they stand now (identity, size and time of change: never their contents again)."""
        stats = []
        for file in files:
            try:
                st = os.lstat(file)
            except OSError:
                return
            stats.append((file, (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)))
        if len(self._cardsets) >= 16:
            self._cardsets.pop(next(iter(self._cardsets)))
        self._cardsets[key] = (stats, cardset)

    def cardset_for(self, key: Any) -> Cardset | None:
        """The cardset kept for ``key`` if every file it was read from is still the same file, unchanged."""
        kept = self._cardsets.get(key)
        if kept is None:
            return None
        stats, cardset = kept
        for file, was in stats:
            try:
                st = os.lstat(file)
            except OSError:
                return None
            if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) != was:
                return None
        return cardset

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Any) -> tuple[Any, list[Problem]] | None:
        return self._entries.get(key)

    def items(self) -> list[tuple[Any, tuple[Any, list[Problem]]]]:
        """Every piece of parsed text kept: (key, (tree, problems))."""
        return list(self._entries.items())

    def put(self, key: Any, value: tuple[Any, list[Problem]]) -> None:
        if len(self._entries) >= self.size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[key] = value

    def clear(self) -> None:
        self._entries.clear()
        self._cardsets.clear()
