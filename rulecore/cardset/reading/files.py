"""Reading the files of one cardset, guarded: confinement to the allowed folders and the size caps.

``Files`` reads only regular files, only inside the allowed folders (the cardset's own folder
tree, the built-in cardsets and what the caller adds), and no more bytes than the ``Limits``
allow; ``read_text_file`` gives a file's UTF-8 text or the problem that stops it.  A file that
is refused is never opened for reading, so nothing of it can reach a problem message.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Iterable

from ..._resources import data_dir
from ...errors import Problem, Span, doc_ref
from ..limits import DEFAULT_LIMITS, Limits

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
        self.total = 0  # bytes read so far
        self.read: list[Path] = []  # the real path of every file read so far, in order
        self.digests: list[tuple[str, str]] = []  # (real path, sha256 of the bytes read), for a cache

    def allowed(self, path: Path) -> bool:
        """Whether ``path`` lies inside the folders this load may read (it need not exist)."""
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
        self.read.append(real)
        self.digests.append((str(real), hashlib.sha256(raw).hexdigest()))
        return raw


def refused(what: str, name: str, why: str, span: Span) -> Problem:
    """The problem of a file that may not be read: its name as written, and why; never its content."""
    hint = WIDEN_HINT if "outside" in why else ("card files are regular files" if "regular" in why or "folder" in why
                                                else f"the limits can be raised: see {doc_ref('docs/untrusted.md')}")
    return Problem(f"{what} '{name}' is refused: {why}", span, hint, "refused")


def read_text_file(path: Path, files: Files | None = None) -> tuple[str | None, Problem | None]:
    """The text of a UTF-8 file (a byte-order mark dropped), or None and the problem.

    With ``files``, only a file that guard allows is read; a refused one gives a problem of code
    'refused' whose message says why (never anything of the file)."""
    try:
        raw = (files or Files(path)).read_bytes(path)
    except Refused as exc:
        return None, Problem(str(exc), Span(str(path)), None, "refused")
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        return None, Problem(why.lower() if why[:1].isupper() and why[1:2].islower() else why, Span(str(path)), None,
                             "io")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        shown = before.split(b"\n")[-1].decode("utf-8", "replace") + raw[exc.start : exc.end].decode("utf-8", "replace")
        return None, Problem(
            f"the file is not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be read",
            Span(str(path), line, column, None, shown),
            "save the file as UTF-8 (card files are plain UTF-8 text)",
            "encoding",
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None
