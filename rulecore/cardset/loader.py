"""Loading a cardset: the reading step, then the building step.

``load_cardset`` finds the file of a name or path, reads it into one ``Document``
(``reading``) and builds and checks the ``Cardset`` (``building``); ``load_cardset_text`` does
the same for YAML text.  Every problem found is raised together as one ``CardsetError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from .building.builder import build
from .cache import ParseCache
from .limits import DEFAULT_LIMITS, Limits
from .model import Cardset
from .reading.files import Files
from .reading.reader import locate_cardset, read_cardset, read_cardset_text


def load_cardset(name_or_path: str | Path, *, cache: ParseCache | None = None,
                 roots: Iterable[str | Path] = (), limits: Limits | None = None) -> Cardset:
    """Load a built-in cardset by name, or a cardset YAML file by path; check everything.

    A file that says ``extends: BASE`` is a variant: it is merged over its base (see
    ``reading.variants``).  Every problem found is raised together as one ``CardsetError``.
    Loads given the same ``cache`` reuse the effect text it already parsed, and a file
    loaded before with the same roots and limits, whose files are all unchanged, is not
    read again.

    ``include:`` and ``extends:`` may only read regular files in the cardset's own folder
    tree, the built-in cardsets and the folders in ``roots``; ``limits`` caps sizes (see
    ``Limits`` and docs/untrusted.md).
    """
    limits = limits or DEFAULT_LIMITS
    path = locate_cardset(name_or_path)
    key = (path, tuple(str(r) for r in roots), limits)
    if cache is not None:
        kept = cache.cardset_for(key)
        if kept is not None:  # the same files, unchanged since: the same (immutable) cardset
            return kept
    document = read_cardset(path, Files(path, roots, limits))
    cardset = build(document, cache=cache, limits=limits)
    if cache is not None:
        cache.keep_cardset(key, [str(file) for file in document.files], cardset)
    return cardset


def load_cardset_text(text: str, file: str = "<string>", *, cache: ParseCache | None = None,
                      roots: Iterable[str | Path] = (), limits: Limits | None = None) -> Cardset:
    """Load a cardset from YAML text; ``file`` names it in problems (and anchors relative paths:
    its folder is the one ``include:`` and ``extends:`` may read, besides ``roots``; with the
    default ``"<string>"``, only the built-in cardsets and ``roots``)."""
    limits = limits or DEFAULT_LIMITS
    files = Files(None if file == "<string>" else file, roots, limits)
    return build(read_cardset_text(text, file, files), cache=cache, limits=limits)
