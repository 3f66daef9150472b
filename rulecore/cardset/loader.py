"""Loading a cardset: the reading step, then the building step.

``load_cardset`` finds the file of a name or path, reads it into one ``Document``
(``reading``) and builds and checks the ``Cardset`` (``building``); ``load_cardset_text`` does
the same for YAML text.  Every problem found is raised together as one ``CardsetError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from .._lazy import lazy_module
from .._resources import builtin_cardsets
from . import shipped, stored
from .cache import ParseCache
from .limits import DEFAULT_LIMITS, Limits
from .model import Cardset
from .reading.files import Files
from .reading.locate import locate_cardset

if TYPE_CHECKING:  # the modules loaded lazily below (declared here for the layer contracts)
    from .building import builder as _builder_module
    from .reading import reader as _reader_module

# what builds a cardset (lark, YAML) is loaded when a cardset is built, not when one kept is given back
_builder: Any = lazy_module("rulecore.cardset.building.builder")
_reader: Any = lazy_module("rulecore.cardset.reading.reader")


def load_cardset(name_or_path: str | Path, *, cache: ParseCache | bool | None = None,
                 roots: Iterable[str | Path] = (), limits: Limits | None = None) -> Cardset:
    """Load a built-in cardset by name, or a cardset YAML file by path; check everything.

    A file that says ``extends: BASE`` is a variant: it is merged over its base (see
    ``reading.variants``).  Every problem found is raised together as one ``CardsetError``.

    A cardset loaded before, whose files (the file, its includes and bases) all read the same, is
    given back without reading them again: from a bounded memo in this process, or from the
    user's cache folder (``stored``: $RULECORE_CACHE names it, ``off`` turns it off), where an
    entry is trusted only when made by this user's rulecore of the same code for files of the
    same content.  ``cache=False`` turns both off for this call.  Loads given the same
    ``ParseCache`` reuse the effect text it already parsed.

    ``include:`` and ``extends:`` may only read regular files in the cardset's own folder
    tree, the built-in cardsets and the folders in ``roots``; ``limits`` caps sizes (see
    ``Limits`` and docs/untrusted.md).
    """
    limits = limits or DEFAULT_LIMITS
    path = locate_cardset(name_or_path)
    root_names = tuple(str(r) for r in roots)
    parse_cache = cache if isinstance(cache, ParseCache) else None
    if parse_cache is not None:
        kept = parse_cache.cardset_for((path, root_names, limits))
        if kept is not None:  # the same files, unchanged since: the same (immutable) cardset
            return kept
    key = stored.key_of(path, root_names, limits) if cache is not False else None
    folder = stored.cache_folder() if key is not None else None
    if key is not None:
        found = stored.recall(key, limits)
        if found is not None:
            return found
        on_disk = stored.read_entry(folder, key, limits) if folder is not None else None
        if on_disk is None:  # an installed rulecore's own built-ins, checked when it was built
            on_disk = shipped.read(path, root_names, limits)
        if on_disk is not None:
            stored.remember(key, *on_disk)
            return on_disk[1]
    cardset, read = _build(path, root_names, limits, parse_cache)
    if key is not None:
        stored.remember(key, read, cardset)
        if folder is not None:
            stored.write_entry(folder, key, read, cardset)
    return cardset


def _build(path: Path, root_names: tuple[str, ...], limits: Limits,
           parse_cache: ParseCache | None) -> tuple[Cardset, stored.Files]:
    """Read, build and check the cardset of ``path``: it and the files read (real path, sha256)."""
    files = Files(path, root_names, limits)
    document = _reader.read_cardset(path, files)
    folder = shipped.shipped_folder()  # an installed rulecore: its built-ins' text parsed already, for variants
    parsed = shipped.ParsedTexts(folder) if folder is not None else None
    cardset: Cardset = _builder.build(document, cache=parse_cache, limits=limits, parsed=parsed)
    if parse_cache is not None:
        parse_cache.keep_cardset((path, root_names, limits), [str(file) for file in document.files], cardset)
    return cardset, tuple(files.digests)


def ship_builtins(folder: Path) -> list[str]:
    """Build and check every built-in cardset and write it into ``folder`` as ``shipped`` reads it, with
    its effect text as parsed (what the wheel's build hook, hatch_build.py, puts in the package); the
    names written."""
    written = []
    for name in builtin_cardsets():
        path = locate_cardset(name)
        texts = ParseCache()
        cardset, read = _build(path, (), DEFAULT_LIMITS, texts)
        if shipped.write(folder, name, cardset, read):
            shipped.write_parsed(folder, name, texts.items())
            written.append(name)
    return written


def load_cardset_text(text: str, file: str = "<string>", *, cache: ParseCache | None = None,
                      roots: Iterable[str | Path] = (), limits: Limits | None = None) -> Cardset:
    """Load a cardset from YAML text; ``file`` names it in problems (and anchors relative paths:
    its folder is the one ``include:`` and ``extends:`` may read, besides ``roots``; with the
    default ``"<string>"``, only the built-in cardsets and ``roots``)."""
    limits = limits or DEFAULT_LIMITS
    files = Files(None if file == "<string>" else file, roots, limits)
    document = _reader.read_cardset_text(text, file, files)
    built: Cardset = _builder.build(document, cache=cache, limits=limits)
    return built
