"""The built-in cardsets shipped already checked inside an installed rulecore: a first load that
builds nothing, even before the user's cache folder holds anything.

A wheel of rulecore carries, beside the built-in cardsets, each of them checked and written by
``write`` when the wheel is built (``hatch_build.py`` calls ``loader.ship_builtins``), as
``_data/shipped/<name>.cardset``::

    MAGIC, a JSON line (the name, rulecore's code digest, the limits, every file read relative to
    the cardsets folder with its sha256, the sha256 of the pickle), the pickle

Such a file lies among the package's own modules, so it is as trusted as they are: whoever can
change it can change the code. It is still never taken on trust alone. ``read`` gives it back
only for a load with no ``roots`` and the default limits, when its code digest is this
rulecore's (``stored.code_digest``: the same modules, grammar and version), when every file it
was made from still has its sha256 and when the pickle has its own (a damaged or stale file is
passed over and the cardset built as in a checkout). The pickle is read by ``stored``'s
unpickler, which makes nothing but rulecore's own attrs classes.

Beside each one lies ``<name>.parsed``: the built-in's effect text as parsed, keyed as ``EffectText``
keys its parse cache (the text, its place, the sha256 of its file's content, the names the cardset
declares), with the same header checks (``ParsedTexts``). A variant that extends a built-in game
and keeps its names then parses only the text it changes or moves.

Paths: every text of the cardset that names a file under the cardsets folder (a span's file) is
written relative to that folder and read back under the folder the package has now, so an error
names the installed file, not the folder the wheel was built in.  A checkout has no shipped
files: there the first load builds, and the user's cache (``stored``) keeps the result.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable

from .._resources import data_dir
from . import stored
from .limits import DEFAULT_LIMITS, Limits
from .model import Cardset

#: the first bytes of a shipped entry (bumped when its layout changes)
MAGIC = b"rulecore-shipped-cardset 1\n"
#: the first bytes of a built-in's parsed effect text (``write_parsed``)
PARSED_MAGIC = b"rulecore-shipped-parsed 1\n"
#: the folder of the package that holds them, beside ``_data/cardsets``
FOLDER = "shipped"


def shipped_folder() -> Path | None:
    """Where an installed rulecore keeps its checked built-in cardsets (None in a checkout)."""
    folder = Path(__file__).resolve().parent.parent / "_data" / FOLDER
    return folder if folder.is_dir() else None


def write(folder: Path, name: str, cardset: Cardset, files: stored.Files) -> bool:
    """Write the checked built-in cardset ``name``, read from ``files`` (real paths and their sha256),
    into ``folder``; False (nothing written) when a file lies outside the cardsets folder."""
    root = data_dir("cardsets").resolve()
    relative = []
    for file, digest in files:
        rel = _relative(Path(file).resolve(), root)
        if rel is None:
            return False
        relative.append((rel, digest))
    header = {"name": name, "code": stored.code_digest(), "limits": repr(DEFAULT_LIMITS), "files": relative}
    _write_file(folder / f"{name}.cardset", MAGIC, header, cardset, root)
    return True


def read(path: Path, roots: tuple[str, ...], limits: Limits,
         folder: Path | None = None) -> tuple[stored.Files, Cardset] | None:
    """The shipped checked cardset for the built-in file ``path`` with the files it was read from,
    or None when there is none to use (see the module docstring)."""
    folder = folder if folder is not None else shipped_folder()
    if folder is None or roots or limits != DEFAULT_LIMITS:
        return None
    root = data_dir("cardsets").resolve()
    rel = _relative(path.resolve(), root)
    if rel is None or len(PurePosixPath(rel).parts) != 2 or not rel.endswith("/cardset.yaml"):
        return None
    name = PurePosixPath(rel).parts[0]
    try:
        found = _read_file(folder / f"{name}.cardset", MAGIC, name, root,
                           lambda header: header.get("limits") == repr(limits))
        if found is None:
            return None
        header, cardset = found
        files = tuple((str(_under(root, str(file))), str(digest)) for file, digest in header["files"])
        if not files or not stored.unchanged(files, limits):
            return None
    except Exception:  # noqa: BLE001 - whatever the file holds, the answer is to build anew
        return None
    return (files, cardset) if isinstance(cardset, Cardset) else None


def write_parsed(folder: Path, name: str, entries: Iterable[tuple[tuple[Any, ...], tuple[Any, list[Any]]]]) -> int:
    """Write the effect text of the built-in ``name`` as parsed while it was built (``entries`` of its
    ``ParseCache``: the key ``EffectText`` makes, and the tree), for variants of it (``ParsedTexts``):
    only text of files under the cardsets folder that parsed without a problem; how many."""
    root = data_dir("cardsets").resolve()
    kept = []
    for key, (tree, problems) in entries:
        text, expression, context, file, skey, spath, symbols = key
        rel = _relative(Path(file).resolve(), root)
        if tree is not None and not problems and rel is not None:
            kept.append(((text, expression, context, rel, skey, spath, symbols), tree))
    _write_file(folder / f"{name}.parsed", PARSED_MAGIC, {"name": name, "code": stored.code_digest()}, kept, root)
    return len(kept)


class ParsedTexts:
    """The effect text of the built-in cardsets as parsed when the wheel was built, looked up by the key
    ``EffectText`` makes (the text, where it stands, the sha256 of its file's content, the names the
    cardset declares): a variant that extends a built-in game parses only the text it changes or
    moves. Each built-in's file is read when a key of it is first asked for; one that is damaged,
    of other code or unreadable counts as empty (the text is parsed)."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._root = data_dir("cardsets").resolve()
        self._relative: dict[str, str | None] = {}  # a source file -> relative to the cardsets folder
        self._memos: dict[str, dict[tuple[Any, ...], Any]] = {}  # a built-in's name -> its texts

    def __call__(self, key: tuple[Any, ...]) -> tuple[Any, list[Any]] | None:
        text, expression, context, file, skey, spath, symbols = key
        rel = self._relative.get(file, "")
        if rel == "":
            rel = self._relative[file] = _relative(Path(file).resolve(), self._root)
        if rel is None:
            return None
        name = PurePosixPath(rel).parts[0]
        memo = self._memos.get(name)
        if memo is None:
            memo = self._memos[name] = self._read(name)
        tree = memo.get((text, expression, context, rel, skey, spath, symbols))
        return None if tree is None else (tree, [])

    def _read(self, name: str) -> dict[tuple[Any, ...], Any]:
        try:
            found = _read_file(self._folder / f"{name}.parsed", PARSED_MAGIC, name, self._root)
            if found is None:
                return {}
            return {key: tree for key, tree in found[1] if type(key) is tuple and len(key) == 7}
        except Exception:  # noqa: BLE001 - whatever the file holds, the text is parsed instead
            return {}


def _write_file(path: Path, magic: bytes, header: dict[str, Any], value: Any, root: Path) -> None:
    """Write ``magic``, ``header`` with the sha256 of the pickle as one JSON line, and ``value``'s pickle
    (file names under ``root`` relative to it) as ``path``."""
    out = io.BytesIO()
    _Pickler(out, root).dump(value)
    payload = out.getvalue()
    line = json.dumps({**header, "payload": hashlib.sha256(payload).hexdigest()}).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(magic + line + b"\n" + payload)


def _read_file(path: Path, magic: bytes, name: str, root: Path,
               accept: Callable[[dict[str, Any]], bool] = lambda header: True) -> tuple[dict[str, Any], Any] | None:
    """The header and the value of a file ``_write_file`` wrote, or None unless it starts with ``magic``,
    names ``name`` and this rulecore's code digest, is ``accept``ed and its pickle has its sha256 (any
    other failure raises)."""
    with open(path, "rb") as handle:
        data = handle.read(stored.MAX_ENTRY_BYTES + 1)
    if not data.startswith(magic) or len(data) > stored.MAX_ENTRY_BYTES:
        return None
    line, _, payload = data[len(magic):].partition(b"\n")
    header = json.loads(line)
    if not isinstance(header, dict) or header.get("name") != name or header.get("code") != stored.code_digest() \
            or not accept(header) or header.get("payload") != hashlib.sha256(payload).hexdigest():
        return None
    return header, stored.unpickle(payload, lambda handle: _Unpickler(handle, root))


def _relative(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root`` in POSIX form, or None when it lies outside."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def _under(root: Path, rel: str) -> Path:
    """``root / rel`` for a relative path that stays inside ``root`` (else a ``ValueError``)."""
    parts = PurePosixPath(rel).parts
    if not parts or PurePosixPath(rel).is_absolute() or ".." in parts or any(os.sep in p for p in parts):
        raise ValueError(f"not a path inside the cardsets folder: {rel!r}")
    return root.joinpath(*parts)


class _Pickler(stored.Pickler):
    """``stored``'s pickler, writing each text that names a file under ``root`` as that file's path
    relative to it (a persistent id, which the unpickler puts back under the folder it has then)."""

    def __init__(self, handle: Any, root: Path) -> None:
        super().__init__(handle, protocol=pickle.HIGHEST_PROTOCOL)
        self._root = root.resolve()
        self._prefix = str(self._root) + os.sep

    def persistent_id(self, obj: Any) -> Any:
        if type(obj) is str and obj.startswith(self._prefix):
            rel = _relative(Path(obj).resolve(), self._root)
            if rel is not None:
                return ("cardsets", rel)
        return None


class _Unpickler(stored.Unpickler):
    """``stored``'s unpickler, reading a file relative to the cardsets folder back under ``root``
    (one text per file, as when the cardset was built)."""

    def __init__(self, handle: Any, root: Path) -> None:
        super().__init__(handle)
        self._root = root
        self._names: dict[str, str] = {}

    def persistent_load(self, pid: Any) -> str:
        if type(pid) is not tuple or len(pid) != 2 or pid[0] != "cardsets" or type(pid[1]) is not str:
            raise pickle.UnpicklingError(f"{pid!r} is not a file of the cardsets folder")
        name = self._names.get(pid[1])
        if name is None:
            name = self._names[pid[1]] = str(_under(self._root, pid[1]))
        return name
