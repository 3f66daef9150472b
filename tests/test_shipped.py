"""The built-in cardsets shipped checked in a wheel (rulecore.cardset.shipped): a first load that
builds nothing, used only for the code, limits and files it was made from, never fooled by a
stale or damaged file, and naming the files where the package lies now."""

from __future__ import annotations

import hashlib
import io
import json
import pickle
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import rulecore
from rulecore.cardset import loader, shipped, stored
from rulecore.cardset.limits import DEFAULT_LIMITS, Limits

from test_stored import _same_everywhere


@pytest.fixture(scope="module")
def entries(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every built-in written as the wheel's build hook writes it."""
    folder = tmp_path_factory.mktemp("shipped")
    assert loader.ship_builtins(folder) == rulecore.builtin_cardsets()
    return folder


@pytest.fixture
def installed(entries: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A copy of the shipped entries as the package's own, an empty cache folder, an empty memo, and a
    count of the cardsets built."""
    folder = tmp_path / "shipped"
    shutil.copytree(entries, folder)
    monkeypatch.setattr(shipped, "shipped_folder", lambda: folder)
    monkeypatch.setenv(stored.ENV, str(tmp_path / "cache"))
    stored.forget()
    builds: list[str] = []
    real = loader._build

    def build(path: Path, *args: Any) -> Any:
        builds.append(path.parent.name)
        return real(path, *args)

    monkeypatch.setattr(loader, "_build", build)
    yield SimpleNamespace(folder=folder, builds=builds)
    stored.forget()


def _edit_header(entry: Path, **changes: Any) -> None:
    data = entry.read_bytes()
    line, _, payload = data[len(shipped.MAGIC):].partition(b"\n")
    header = json.loads(line)
    header.update(changes)
    entry.write_bytes(shipped.MAGIC + json.dumps(header).encode() + b"\n" + payload)


def _header(entry: Path) -> dict:
    return json.loads(entry.read_bytes()[len(shipped.MAGIC):].partition(b"\n")[0])


def test_a_first_load_of_a_built_in_takes_the_shipped_cardset_and_builds_nothing(installed: Any) -> None:
    """With an empty cache folder every built-in loads from its shipped entry, equal everywhere (spans too)
    to a cardset built from the files."""
    for name in rulecore.builtin_cardsets():
        got = rulecore.load_cardset(name)
        assert _same_everywhere(got, rulecore.load_cardset(name, cache=False))
    assert installed.builds == rulecore.builtin_cardsets()  # only the cache=False loads built
    assert not list((installed.folder.parent / "cache").glob("*.cardset"))  # nothing copied to the user's cache


def test_a_shipped_entry_names_the_files_where_the_package_lies_now(entries: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel built in one folder and installed in another: spans name the installed files, and the files'
    digests are checked there."""
    moved = tmp_path / "site-packages" / "cardsets"
    shutil.copytree(shipped.data_dir("cardsets"), moved)
    monkeypatch.setattr(shipped, "data_dir", lambda name: moved)
    files, cardset = shipped.read(moved / "witching-hour" / "cardset.yaml", (), DEFAULT_LIMITS, entries)
    assert {Path(file).parent for file, _ in files} == {moved / "witching-hour"}
    spans = {card.span.file for card in cardset.cards.values()}
    assert spans == {str(moved / "witching-hour" / "cardset.yaml")}
    (moved / "witching-hour" / "cardset.yaml").write_text("changed", encoding="utf-8")
    assert shipped.read(moved / "witching-hour" / "cardset.yaml", (), DEFAULT_LIMITS, entries) is None


@pytest.mark.parametrize("damage", ["file digest", "code", "payload", "limits", "name", "escape", "magic"])
def test_a_stale_or_damaged_shipped_entry_is_passed_over_and_the_cardset_built(installed: Any, damage: str) -> None:
    """A file changed since the wheel was built, other code, a damaged pickle, other limits, an entry of
    another game, a path out of the cardsets folder or another layout: built anew, never used."""
    entry = installed.folder / "witching-hour.cardset"
    header = _header(entry)
    if damage == "file digest":
        _edit_header(entry, files=[[file, "0" * 64] for file, _ in header["files"]])
    elif damage == "code":
        _edit_header(entry, code=hashlib.sha256(b"another rulecore").hexdigest())
    elif damage == "payload":
        data = bytearray(entry.read_bytes())
        data[-40] ^= 0xFF
        entry.write_bytes(bytes(data))
    elif damage == "limits":
        _edit_header(entry, limits=repr(Limits(file_bytes=1000)))
    elif damage == "name":
        shutil.copyfile(installed.folder / "witty-witches.cardset", entry)
    elif damage == "escape":
        _edit_header(entry, files=[["../" + file, digest] for file, digest in header["files"]])
    else:
        entry.write_bytes(b"rulecore-shipped-cardset 0\n" + entry.read_bytes()[len(shipped.MAGIC):])
    cardset = rulecore.load_cardset("witching-hour")
    assert installed.builds == ["witching-hour"]
    assert _same_everywhere(cardset, rulecore.load_cardset("witching-hour", cache=False))


def test_a_shipped_entry_serves_only_the_default_limits_and_no_roots(installed: Any, tmp_path: Path) -> None:
    """Other limits or extra roots change what a load may read: the cardset is built for them."""
    rulecore.load_cardset("witty-witches", limits=Limits(file_bytes=DEFAULT_LIMITS.file_bytes - 1))
    rulecore.load_cardset("witty-witches", roots=[tmp_path])
    assert installed.builds == ["witty-witches", "witty-witches"]


def test_a_persistent_id_out_of_the_cardsets_folder_is_refused() -> None:
    """The unpickler puts a file back only inside the cardsets folder: '..' or an absolute path is an error."""
    root = Path("/somewhere/cardsets")
    unpickler = shipped._Unpickler(io.BytesIO(), root)
    assert unpickler.persistent_load(("cardsets", "a/cardset.yaml")) == str(root / "a" / "cardset.yaml")
    for bad in (("cardsets", "../a"), ("cardsets", "/etc/passwd"), ("code", "a"), "cardsets/a", ("cardsets", 3)):
        with pytest.raises((pickle.UnpicklingError, ValueError)):
            unpickler.persistent_load(bad)


VARIANT = Path(rulecore.__file__).resolve().parent.parent / "docs/examples/approaching-dawn-short-night.yaml"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The effect text parsed (not found already parsed), in order."""
    from rulecore.cardset.building import effects

    seen: list[str] = []
    real = effects.parse_effect

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(effects, "parse_effect", counted)
    return seen


def test_a_variant_of_a_built_in_parses_only_the_text_it_changes(installed: Any, parses: list[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The wheel ships each built-in's effect text as parsed: a variant that extends it and keeps its names
    parses none of the text it took over unchanged, and builds the same cardset as without."""
    fast = rulecore.load_cardset(VARIANT, cache=False)
    assert parses == []
    monkeypatch.setattr(shipped, "shipped_folder", lambda: None)
    slow = rulecore.load_cardset(VARIANT, cache=False)
    assert len(parses) > 300
    assert _same_everywhere(fast, slow)


def test_shipped_parsed_text_is_found_only_for_the_same_text_file_content_and_names(entries: Path) -> None:
    """A key of other file content, other declared names or a file outside the cardsets folder finds nothing."""
    texts = rulecore.cardset.ParseCache()
    loader._build(loader.locate_cardset("witty-witches"), (), DEFAULT_LIMITS, texts)  # built, never a kept one
    (key, (tree, _)), *_ = [item for item in texts.items() if item[1][0] is not None]
    parsed = shipped.ParsedTexts(entries)
    assert parsed(key) == (tree, [])
    text, expression, context, file, skey, spath, symbols = key
    assert parsed((text, expression, context, file, "0" * 64, spath, symbols)) is None
    assert parsed((text, expression, context, file, skey, spath, symbols[1:])) is None
    assert parsed((text + " ", expression, context, file, skey, spath, symbols)) is None
    assert parsed((text, expression, context, "/elsewhere/cardset.yaml", skey, spath, symbols)) is None


@pytest.mark.parametrize("damage", ["payload", "code"])
def test_damaged_or_stale_shipped_parsed_text_is_parsed_again(installed: Any, parses: list[str], damage: str) -> None:
    """A shipped file of parsed text that is damaged or of other code counts as empty: the text is parsed."""
    entry = installed.folder / "approaching-dawn.parsed"
    data = bytearray(entry.read_bytes())
    if damage == "payload":
        data[-40] ^= 0xFF
    else:
        line, _, payload = bytes(data[len(shipped.PARSED_MAGIC):]).partition(b"\n")
        header = json.loads(line)
        header["code"] = "0" * 64
        data = bytearray(shipped.PARSED_MAGIC + json.dumps(header).encode() + b"\n" + payload)
    entry.write_bytes(bytes(data))
    rulecore.load_cardset(VARIANT, cache=False)
    assert len(parses) > 300
