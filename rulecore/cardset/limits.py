"""Limits for card data that may come from strangers, and the guard that reads their files.

``Limits`` holds the caps (file sizes, cards, effect text); ``Files`` reads the files of one
cardset: only regular files, only inside the allowed folders (the cardset's own folder tree,
the built-in cardsets and what the caller adds), and no more bytes than the caps allow.  A file
it refuses is never opened for reading, so nothing of it can reach a problem message.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

import attrs

from .._resources import data_dir
from ..errors import Problem, Span


@attrs.frozen
class Limits:
    """Caps on card data; each may be raised (or lowered) by whoever loads.

    ``file_bytes`` and ``cardset_bytes``: the size of one file and of all the files of a
    cardset (includes and bases too); ``cards``: cards in a game (every count added up);
    ``effect_chars`` and ``effect_total``: characters of one piece of effect text and of all
    of them.  (An integer of more than 4300 digits, in the YAML or the effect text, is always a
    problem: Python does not read one.)
    """

    file_bytes: int = 2_000_000
    cardset_bytes: int = 10_000_000
    cards: int = 100_000
    effect_chars: int = 50_000
    effect_total: int = 2_000_000


DEFAULT_LIMITS = Limits()

WIDEN_HINT = ("a cardset reads only files in its own folder tree and the built-in cardsets; to allow more, pass "
              "load_cardset(..., roots=[DIR]) or 'rulecore validate --allow-path DIR'")


class Refused(Exception):
    """Internal: why ``Files`` will not read a path (the words name the path, never its content)."""


def _resolved(path: Path) -> Path:
    try:
        try:
            return path.resolve(strict=False)
        except (OSError, RuntimeError):  # a symlink loop, an unreadable folder
            return Path(os.path.abspath(path))
    except ValueError:  # a NUL character in the name
        raise Refused("it is not a valid path") from None


class Files:
    """Reads the files of one cardset load, confined to ``roots`` and within ``limits``."""

    def __init__(self, main: str | Path | None, roots: Iterable[str | Path] = (), limits: Limits = DEFAULT_LIMITS):
        self.limits = limits
        folders = [data_dir("cardsets")]
        if main is not None:
            folders.append(Path(main).parent)
        folders.extend(Path(r) for r in roots)
        self.roots = tuple(_resolved(f) for f in folders)
        self.total = 0

    def allowed(self, path: Path) -> bool:
        try:
            real = _resolved(path)
        except Refused:
            return False
        return any(real.is_relative_to(root) for root in self.roots)

    def check(self, path: Path) -> Path:
        """The real path (symlinks resolved) of ``path``; ``Refused`` when it may not be read (outside the
        roots, not a regular file, too big)."""
        real = _resolved(path)
        if not any(real.is_relative_to(root) for root in self.roots):
            raise Refused("it is outside the folders this cardset may read")
        info = os.stat(real)  # OSError (no such file, ...) is the caller's to word
        if not stat.S_ISREG(info.st_mode):
            raise Refused("it is a folder" if stat.S_ISDIR(info.st_mode) else "it is not a regular file")
        self._size(info.st_size)
        return real

    def _size(self, size: int) -> None:
        if size > self.limits.file_bytes:
            raise Refused(f"it is larger than {self.limits.file_bytes} bytes (the limit for one file)")
        if self.total + size > self.limits.cardset_bytes:
            raise Refused(f"the cardset's files together are larger than {self.limits.cardset_bytes} bytes "
                          "(the limit for one cardset)")

    def read_bytes(self, path: Path) -> bytes:
        """The bytes of a file that passes ``check``; raises ``Refused`` (or ``OSError``) otherwise."""
        real = self.check(path)
        # the checked path itself, not following a symlink put there since, and non-blocking: a file
        # swapped for a FIFO after the check cannot hang
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(real, flags)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise Refused("it is not a regular file")
            raw = fh.read(self.limits.file_bytes + 1)
        self._size(len(raw))
        self.total += len(raw)
        return raw


def refused(what: str, name: str, why: str, span: Span) -> Problem:
    """The problem of a file that may not be read: its name as written, and why; never its content."""
    hint = WIDEN_HINT if "outside" in why else ("card files are regular files" if "regular" in why or "folder" in why
                                                else "the limits can be raised: see docs/untrusted.md")
    return Problem(f"{what} '{name}' is refused: {why}", span, hint, "refused")
