"""Checked cardsets kept between loads (rulecore.cardset.stored): given back only when nothing changed,
and never fooled: a damaged, foreign, stale or planted cache file is passed over and the cardset built anew."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import pytest

import rulecore
from rulecore.cardset import loader, stored

TINY = Path(rulecore.__file__).resolve().parent.parent / "docs/examples/tiny-game.yaml"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A cache folder of this test, an empty memo, and a count of the cardsets built."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(stored.ENV, str(folder))
    stored.forget()
    builds: list[str] = []
    real = loader._builder.build

    def build(document: Any, **kwargs: Any) -> Any:
        builds.append(str(document.files[0]))
        return real(document, **kwargs)

    monkeypatch.setattr(loader, "_builder", SimpleNamespace(build=build))
    yield SimpleNamespace(folder=folder, builds=builds)
    stored.forget()


def _game(tmp_path: Path) -> Path:
    """A cardset of two files: main.yaml includes part.yaml."""
    (tmp_path / "part.yaml").write_text("procedures:\n  beat: say 1\n", encoding="utf-8")
    main = tmp_path / "main.yaml"
    main.write_text("include: [part.yaml]\n" + TINY.read_text(encoding="utf-8"), encoding="utf-8")
    return main


def _entry(folder: Path) -> Path:
    (entry,) = folder.glob("*.cardset")
    return entry


def _same_everywhere(a: Any, b: Any) -> bool:
    """Equal field by field, spans and every field attrs equality leaves out included."""
    if type(a) is not type(b):
        return False
    if attrs.has(type(a)):
        return all(_same_everywhere(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a)))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same_everywhere(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same_everywhere(x, y) for x, y in zip(a, b))
    return bool(a == b)


def test_a_cardset_loaded_again_in_a_new_process_comes_from_the_disk(cache: Any):
    """A second load after the memo is gone (as in a new process) builds nothing and gives the same cardset."""
    for name in rulecore.builtin_cardsets():
        first = rulecore.load_cardset(name)
        stored.forget()
        again = rulecore.load_cardset(name)
        assert again is not first and _same_everywhere(again, first)
    assert len(cache.builds) == len(rulecore.builtin_cardsets())


def test_a_load_in_the_same_process_gives_the_kept_cardset(cache: Any, tmp_path: Path):
    """With no argument, a file loaded before and unchanged gives the very same cardset (the memo)."""
    main = _game(tmp_path)
    first = rulecore.load_cardset(main)
    assert rulecore.load_cardset(main) is first
    assert len(cache.builds) == 1


def test_a_changed_include_file_is_read_again(cache: Any, tmp_path: Path):
    """A change to an included file (same size, same time) gives a cardset built anew, in memo and on disk."""
    main = _game(tmp_path)
    first = rulecore.load_cardset(main)
    part = tmp_path / "part.yaml"
    stat = part.stat()
    part.write_text("procedures:\n  beat: say 2\n", encoding="utf-8")
    os.utime(part, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    second = rulecore.load_cardset(main)
    assert second is not first and second.procedures != first.procedures
    stored.forget()
    assert rulecore.load_cardset(main).procedures == second.procedures
    assert len(cache.builds) == 2


def test_the_memo_is_bounded(cache: Any, tmp_path: Path):
    """The memo keeps at most MEMO_SIZE cardsets, the oldest going first."""
    for i in range(stored.MEMO_SIZE + 3):
        folder = tmp_path / f"g{i}"
        folder.mkdir()
        rulecore.load_cardset(_game(folder))
    assert len(stored._memo) == stored.MEMO_SIZE


def test_cache_false_and_off_keep_nothing(cache: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """cache=False builds every time and writes nothing; RULECORE_CACHE=off writes nothing to disk."""
    main = _game(tmp_path)
    assert rulecore.load_cardset(main, cache=False) is not rulecore.load_cardset(main, cache=False)
    assert not cache.folder.exists()
    monkeypatch.setenv(stored.ENV, "off")
    rulecore.load_cardset(main)
    assert not cache.folder.exists() and stored.cache_folder() is None


def test_the_default_folder_is_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Without RULECORE_CACHE, entries go to $XDG_CACHE_HOME/rulecore/cardsets (Linux)."""
    monkeypatch.delenv(stored.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert stored.cache_folder() == tmp_path / "rulecore" / "cardsets"


def test_the_folder_key_and_entries_are_private(cache: Any, tmp_path: Path):
    """The folder is 0700, the secret key and each entry 0600."""
    rulecore.load_cardset(_game(tmp_path))
    assert cache.folder.stat().st_mode & 0o777 == 0o700
    assert (cache.folder / "key").stat().st_mode & 0o777 == 0o600
    assert _entry(cache.folder).stat().st_mode & 0o777 == 0o600


def _reload(main: Path) -> Any:
    stored.forget()  # as in a new process
    return rulecore.load_cardset(main)


@pytest.mark.parametrize("where", ["magic", "mac", "header", "payload", "end"])
def test_a_corrupted_cache_file_is_never_trusted(cache: Any, tmp_path: Path, where: str):
    """One byte changed anywhere in an entry (or the end cut off): the cardset is built anew, and right."""
    main = _game(tmp_path)
    first = rulecore.load_cardset(main)
    entry = _entry(cache.folder)
    data = bytearray(entry.read_bytes())
    at = {"magic": 3, "mac": len(stored.MAGIC) + 5, "header": len(stored.MAGIC) + 40,
          "payload": len(data) - 200, "end": None}[where]
    if at is None:
        data = data[:-100]
    else:
        data[at] ^= 0x01
    entry.write_bytes(bytes(data))
    again = _reload(main)
    assert _same_everywhere(again, first)
    assert len(cache.builds) == 2
    assert _reload(main) is not None and len(cache.builds) == 2  # written anew


def test_a_cache_file_of_another_version_is_never_used(cache: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An entry made by other rulecore code (another version), put under this version's name, is passed over."""
    main = _game(tmp_path)
    monkeypatch.setattr(stored, "code_digest", lambda: "another version")
    rulecore.load_cardset(main)
    old = _entry(cache.folder)
    monkeypatch.undo()
    monkeypatch.setattr(loader, "_builder", SimpleNamespace(build=_counting(cache)))
    monkeypatch.setenv(stored.ENV, str(cache.folder))
    stored.forget()
    key = stored.key_of(main, (), rulecore.Limits())
    old.rename(cache.folder / f"{key}.cardset")
    rulecore.load_cardset(main)
    assert len(cache.builds) == 2


def _counting(cache: Any) -> Any:
    real = loader._builder.build

    def build(document: Any, **kwargs: Any) -> Any:
        cache.builds.append(str(document.files[0]))
        return real(document, **kwargs)
    return build


@pytest.mark.parametrize("what", ["entry group-writable", "entry another user's", "key readable by others",
                                  "key another user's", "folder writable by others", "entry a symbolic link"])
def test_a_cache_file_another_user_could_write_is_never_trusted(cache: Any, tmp_path: Path, what: str,
                                                                monkeypatch: pytest.MonkeyPatch):
    """An entry, key or folder that is not the user's own, or that others may write or read, is passed over."""
    main = _game(tmp_path)
    rulecore.load_cardset(main)
    entry, key = _entry(cache.folder), cache.folder / "key"
    if what == "entry group-writable":
        entry.chmod(0o664)
    elif what == "key readable by others":
        key.chmod(0o644)
    elif what == "folder writable by others":
        cache.folder.chmod(0o777)
    elif what == "entry a symbolic link":
        moved = tmp_path / "elsewhere.cardset"
        entry.rename(moved)
        entry.symlink_to(moved)
    else:
        mine = os.getuid()
        owner = {"entry another user's": entry, "key another user's": key}[what]
        real_fstat = os.fstat

        def fstat(fd: int) -> Any:  # the file as if another user owned it
            result = real_fstat(fd)
            if (result.st_dev, result.st_ino) == (owner.stat().st_dev, owner.stat().st_ino):
                values = list(result)
                values[4] = mine + 1
                return os.stat_result(values)
            return result
        monkeypatch.setattr(stored.os, "fstat", fstat)
    _reload(main)
    assert len(cache.builds) == 2


class _Planted:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self) -> Any:
        return (open, (str(self.marker), "w"))


@pytest.mark.parametrize("how", ["bare pickle", "pickle after the magic", "pickle with a valid mac"])
def test_a_pickle_planted_in_the_cache_folder_is_never_run(cache: Any, tmp_path: Path, how: str):
    """A pickle that would run code, put in the cache folder under the entry's name, runs nothing: without
    the user's secret its MAC is wrong; with it (a leaked key), the unpickler makes no function at all."""
    main = _game(tmp_path)
    first = rulecore.load_cardset(main)
    entry = _entry(cache.folder)
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Planted(marker))
    if how == "bare pickle":
        data = payload
    else:
        files = json.loads(entry.read_bytes()[len(stored.MAGIC) + 32:].split(b"\n", 1)[0])
        body = json.dumps(files).encode() + b"\n" + payload
        secret = (cache.folder / "key").read_bytes() if how == "pickle with a valid mac" else b"guess" * 8
        data = stored.MAGIC + hmac.new(secret, body, hashlib.sha256).digest() + body
    entry.write_bytes(data)
    again = _reload(main)
    assert not marker.exists()
    assert _same_everywhere(again, first) and len(cache.builds) == 2


@pytest.mark.slow
def test_a_new_process_gets_a_kept_cardset_without_lark_yaml_or_the_engine(tmp_path: Path):
    """In a new process, a cardset found in the cache is given back with lark, YAML and the engine never imported."""
    root = Path(rulecore.__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), stored.ENV: str(tmp_path / "cache")}
    first = "import rulecore; print(rulecore.load_cardset('approaching-dawn').title)"
    title = subprocess.run([sys.executable, "-c", first], env=env, check=True, capture_output=True, text=True).stdout
    blocked = ("import sys\nfor name in ('lark', 'yaml', 'rulecore.engine'):\n    sys.modules[name] = None\n"
               + first + "\nprint(sorted(m for m in sys.modules if m.startswith(('lark', 'yaml', 'rulecore.engine'))))")
    out = subprocess.run([sys.executable, "-c", blocked], env=env, check=True, capture_output=True, text=True).stdout
    assert out.splitlines() == [title.strip(), "['lark', 'rulecore.engine', 'yaml']"]


def test_the_key_is_made_where_hard_links_are_not_allowed(cache: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """On a file system without hard links the secret key is still made (0600) and the cardset kept."""
    def no_links(*_: Any) -> None:
        raise PermissionError("no hard links here")
    monkeypatch.setattr(stored.os, "link", no_links)
    main = _game(tmp_path)
    rulecore.load_cardset(main)
    assert (cache.folder / "key").stat().st_mode & 0o777 == 0o600 and len((cache.folder / "key").read_bytes()) == 32
    _reload(main)
    assert len(cache.builds) == 1
