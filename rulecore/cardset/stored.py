"""Checked cardsets kept between loads: a bounded memo in the process, and files in the user's cache folder.

A loaded cardset is kept under a key: the sha256 of rulecore's code (the modules that read, build
and check a cardset, the grammar and the version) with the cardset's path, roots and limits.
Beside it go the sha256 of the content of every file it was read from (the file, its includes,
its bases): it is given back only while every one of those files reads the same.

On disk (``cache_folder()``) one entry is one file, ``<key>.cardset``::

    MAGIC, HMAC-SHA256 of the rest (32 bytes), a JSON line (key, files and their sha256), a pickle

It is used only when the folder and the file belong to the user and no one else may write them,
when the HMAC, made with the secret in the folder's ``key`` file (32 random bytes, mode 0600,
the user's own), is right, when it names this key and every file still has its sha256.  Only
then is the pickle read, by an unpickler that can make nothing but rulecore's own attrs classes
(by calling them, so their validators run): no function of any module, whatever the bytes say.
Anything else (a damaged, foreign, stale or planted file) is passed over and the cardset built
anew, then written again.  docs/untrusted.md says why this design.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import hmac
import io
import json
import os
import pickle
import stat
import sys
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import attrs

from .._resources import data_dir, grammar_path
from .limits import Limits
from .model import Cardset

#: the first bytes of an entry (bumped when its layout changes)
MAGIC = b"rulecore-cardset 1\n"
#: the environment variable that names the cache folder, or turns the cache off ("off", "0", "")
ENV = "RULECORE_CACHE"
#: entries kept on disk (the oldest go first) and in the process
MAX_ENTRIES = 64
MEMO_SIZE = 16
#: an entry larger than this is not read (a built-in cardset's entry is well under 1 MB)
MAX_ENTRY_BYTES = 64 * 1024 * 1024
#: the modules whose classes an entry may hold
_CLASS_MODULES = ("rulecore.lang.nodes", "rulecore.cardset.model", "rulecore.errors")

Files = tuple[tuple[str, str], ...]  # (real path, sha256 of its content), in the order read

# the bounded memo of immutable results keyed by a hash of their input (see the house rules)
_memo: OrderedDict[str, tuple[Files, Cardset]] = OrderedDict()
_memo_lock = threading.Lock()


def cache_folder() -> Path | None:
    """Where checked cardsets are kept: $RULECORE_CACHE (None when it says off), else the user's
    cache folder (XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches, %LOCALAPPDATA%), then
    rulecore/cardsets."""
    value = os.environ.get(ENV)
    if value is not None:
        return None if value.strip().lower() in ("", "0", "off", "false", "no") else Path(value)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
        return base / "rulecore" / "Cache" / "cardsets"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "rulecore" / "cardsets"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "rulecore" / "cardsets"


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """The sha256 of what a checked cardset depends on besides its files: the source of the modules
    that read, build and check it (and of rulecore/__init__.py, which holds the version), the grammar."""
    package = Path(__file__).resolve().parent.parent
    sources = [package / "__init__.py", package / "errors.py", package / "_resources.py", grammar_path()]
    for folder in ("lang", "cardset"):
        sources += sorted((package / folder).rglob("*.py"))
    digest = hashlib.sha256(MAGIC)
    for source in sources:
        content = source.read_bytes()
        digest.update(f"{source.name} {len(content)}\n".encode())
        digest.update(content)
    return digest.hexdigest()


def key_of(path: Path, roots: Iterable[str], limits: Limits) -> str:
    """The key a cardset is kept under: rulecore's code, the file's real path, the roots, the limits."""
    what = [code_digest(), str(path.resolve()), [str(root) for root in roots], repr(limits),
            str(data_dir("cardsets"))]
    return hashlib.sha256(json.dumps(what).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- the memo


def recall(key: str, limits: Limits) -> Cardset | None:
    """The cardset kept in this process under ``key``, if its files all read the same."""
    with _memo_lock:
        kept = _memo.get(key)
    if kept is None:
        return None
    files, cardset = kept
    if not unchanged(files, limits):
        return None
    with _memo_lock:
        if key in _memo:
            _memo.move_to_end(key)
    return cardset


def remember(key: str, files: Files, cardset: Cardset) -> None:
    """Keep ``cardset`` in this process (the oldest of more than MEMO_SIZE goes)."""
    with _memo_lock:
        _memo[key] = (files, cardset)
        _memo.move_to_end(key)
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)


def forget() -> None:
    """Empty the memo of this process (the disk cache stays)."""
    with _memo_lock:
        _memo.clear()


# --------------------------------------------------------------------------- the disk


def read_entry(folder: Path, key: str, limits: Limits) -> tuple[Files, Cardset] | None:
    """The cardset kept on disk under ``key`` with its files, or None when there is none to trust."""
    try:
        if not _own_folder(folder, create=False):
            return None
        secret = _secret(folder, create=False)
        data = _own_file(folder / f"{key}.cardset", MAX_ENTRY_BYTES, 0o022)
        if secret is None or data is None or not data.startswith(MAGIC):
            return None
        mac, body = data[len(MAGIC): len(MAGIC) + 32], data[len(MAGIC) + 32:]
        if not hmac.compare_digest(mac, hmac.new(secret, body, hashlib.sha256).digest()):
            return None
        line, _, payload = body.partition(b"\n")
        header = json.loads(line)
        if not isinstance(header, dict) or header.get("key") != key:
            return None
        files = tuple((str(file), str(digest)) for file, digest in header["files"])
        if not files or not unchanged(files, limits):
            return None
        cardset = unpickle(payload)
    except Exception:  # noqa: BLE001 - whatever the file holds, the answer is to build anew
        return None
    return (files, cardset) if isinstance(cardset, Cardset) else None


def write_entry(folder: Path, key: str, files: Files, cardset: Cardset) -> None:
    """Keep ``cardset`` on disk under ``key`` (nothing is written where the folder is not the user's own)."""
    try:
        if not _own_folder(folder, create=True):
            return
        secret = _secret(folder, create=True)
        if secret is None:
            return
        out = io.BytesIO()
        Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(cardset)
        body = json.dumps({"key": key, "files": files}).encode("utf-8") + b"\n" + out.getvalue()
        data = MAGIC + hmac.new(secret, body, hashlib.sha256).digest() + body
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, folder / f"{key}.cardset")
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        _prune(folder)
    except (OSError, pickle.PicklingError, RecursionError, ValueError, TypeError):
        return  # a cache that cannot be written is no cache: the load itself went well


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob("*.cardset"), key=lambda p: p.stat().st_mtime_ns)
    for old in entries[: max(0, len(entries) - MAX_ENTRIES)]:
        old.unlink(missing_ok=True)


def _owner_ok(info: os.stat_result, forbidden: int) -> bool:
    """Whether a file or folder is the user's own and has none of the ``forbidden`` mode bits."""
    if not hasattr(os, "getuid"):  # Windows: the folder is under the user's own profile
        return True
    return info.st_uid == os.getuid() and not info.st_mode & forbidden


def _own_folder(folder: Path, *, create: bool) -> bool:
    """Whether ``folder`` is a real folder of the user's that no one else may write (made 0700 if asked)."""
    if create:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _owner_ok(info, 0o022)


def _own_file(path: Path, limit: int, forbidden: int) -> bytes | None:
    """The bytes of a regular file of the user's without the ``forbidden`` mode bits (never
    through a symbolic link, never past ``limit`` bytes), or None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit or not _owner_ok(info, forbidden):
            return None
        return handle.read(limit + 1)


def _secret(folder: Path, *, create: bool) -> bytes | None:
    """The user's secret for this folder: 32 bytes in ``key``, the user's own, readable by no one else.
    A key file that is not so is replaced (``create``) or makes the cache unusable."""
    path = folder / "key"
    secret = _own_file(path, 64, 0o077)
    if secret is not None and len(secret) == 32:
        return secret
    if not create:
        return None
    if os.path.lexists(path):
        os.unlink(path)  # not ours, readable by others or damaged: every entry made with it goes too
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(32))
        try:
            os.link(temporary, path)  # whole, and never over a key another process made meanwhile
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links: made in place, still only if absent
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(os.urandom(32))
    finally:
        os.unlink(temporary)
    secret = _own_file(path, 64, 0o077)
    return secret if secret is not None and len(secret) == 32 else None


def unchanged(files: Files, limits: Limits) -> bool:
    """Whether every file still has the sha256 it had (a file no longer readable has not)."""
    return all(_digest(Path(file), limits.file_bytes) == digest for file, digest in files)


def _digest(path: Path, limit: int) -> str | None:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return hashlib.sha256(handle.read(limit + 1)).hexdigest()
    except OSError:
        return None


def unpickle(payload: bytes, make: Callable[[io.BytesIO], pickle.Unpickler] | None = None) -> Any:
    """The objects of an entry, read by ``make(handle)`` (default: ``Unpickler``), the cyclic
    garbage collector paused meanwhile (thousands of new objects, none of them in a cycle, would
    make it walk the heap again and again)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return (make or Unpickler)(io.BytesIO(payload)).load()
    finally:
        if collecting:
            gc.enable()


class Pickler(pickle.Pickler):
    """Writes each attrs object as a call of its class with its fields, in order."""

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        if attrs.has(kind):
            fields: Sequence[Any] = attrs.fields(kind)
            if all(field.init and field.kw_only is False for field in fields):
                return kind, tuple(getattr(obj, field.name) for field in fields)
            raise pickle.PicklingError(f"{kind.__name__} cannot be written as a call")
        return NotImplemented


class Unpickler(pickle.Unpickler):
    """Makes rulecore's own attrs classes and nothing else (no function, no other class)."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _CLASS_MODULES:
            value = getattr(sys.modules.get(module), name, None)
            if isinstance(value, type) and attrs.has(value):
                return value
        raise pickle.UnpicklingError(f"{module}.{name} is not a class a cardset is made of")
