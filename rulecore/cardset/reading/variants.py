"""Merging a variant over its base: what ``extends: BASE`` and ``remove:`` do to the data.

A variant is a cardset file that says ``extends: BASE``.  The reader reads the base (with its own
includes and, in turn, its own ``extends``) and the variant; ``merge_variant`` then takes out of
the base what the variant's ``remove:`` names, and merges the variant over it:

- mappings merge key by key, at any depth: ``cards: {apple: {count: 10}}`` changes
  the apple's count and keeps the rest of the apple;
- everything else (text, numbers, truth values, lists) replaces the base's value,
  so ``scoring: [1, 2, 3]`` is a whole new ladder;
- the phases of the flow (a list) merge by ``name``: a phase of the base's name
  merges into it, a new name is added after the base's phases.

Problems in the variant's own entries point at the variant's lines; problems in what
it inherits point at the base's files (``Sources`` keeps a route per merged entry).
Nothing here reads a file.
"""

from __future__ import annotations

import difflib
from typing import Any

from ...errors import Problem, yaml_words
from ..schema import REMOVABLE
from .document import Sources

Path_ = tuple[Any, ...]
PHASE_LISTS = (("flow", "rounds", "phases"), ("flow", "phases"))
_KIND = {"cards": "card", "families": "family", "zones": "zone", "counters": "counter", "vars": "variable", "options": "option",
         "procedures": "procedure", "functions": "function", "phases": "phase", "keys": "key"}


def merge_variant(bdata: dict[Any, Any], bsrc: Sources, vdata: dict[Any, Any], vsrc: Sources, remove: Any,
                  base_name: str) -> tuple[dict[Any, Any], Sources, list[Problem]]:
    """The base's data with what ``remove`` names taken out and the variant's data merged over it (both in
    place of ``bdata``), where each value of it came from, and the problems of ``remove``."""
    merged = Sources(vsrc.main)
    merged.default = bsrc.default
    merged.exact = dict(bsrc.exact)
    merged.routes = dict(bsrc.routes)
    problems = _remove(bdata, remove, merged, vsrc, base_name) if remove is not None else []
    _merge_mapping(bdata, vdata, (), (), vsrc, merged)
    return bdata, merged, problems


def stray_remove(data: dict[Any, Any], sources: Sources) -> list[Problem]:
    """A 'remove:' in a file that extends nothing: the problem, and the key taken out."""
    if "remove" not in data:
        return []
    del data["remove"]
    return [Problem("'remove' only works in a variant (a file with 'extends: BASE')", sources.span(("remove",), key=True),
                    "add 'extends: NAME' naming the cardset to take things out of", "variant")]


# --------------------------------------------------------------------------- routes


def _drop(sources: Sources, path: Path_) -> None:
    """Forget the routes at and under ``path``."""
    n = len(path)
    for table in (sources.exact, sources.routes):
        for p in [p for p in table if p[:n] == path]:
            del table[p]


def _take(sources: Sources, path: Path_) -> list[tuple[Path_, bool, Any]]:
    """The routes of the value at ``path`` (and under it), relative to it, to put back elsewhere."""
    n = len(path)
    saved: list[tuple[Path_, bool, Any]] = [((), False, sources.resolve_subtree(path))]
    for exact, table in ((True, sources.exact), (False, sources.routes)):
        saved.extend((p[n:], exact, r) for p, r in table.items() if p[:n] == path and (exact or len(p) > n))
    return saved


def _put(sources: Sources, path: Path_, saved: list[tuple[Path_, bool, Any]]) -> None:
    for rel, exact, route in saved:
        (sources.exact if exact else sources.routes)[path + rel] = route


def _graft(merged: Sources, mpath: Path_, vsrc: Sources, vpath: Path_) -> None:
    """The value at ``mpath`` now comes from the variant's ``vpath`` (with whatever routes are under it)."""
    _drop(merged, mpath)
    _put(merged, mpath, _take(vsrc, vpath))


def _reindex(merged: Sources, list_path: Path_, old_indexes: list[int]) -> None:
    """The list at ``list_path`` was rebuilt: its item k is the old item ``old_indexes[k]``."""
    saved = {i: _take(merged, list_path + (i,)) for i in set(old_indexes)}
    n = len(list_path)
    for table in (merged.exact, merged.routes):
        for p in [p for p in table if p[:n] == list_path and len(p) > n]:
            del table[p]
    for k, i in enumerate(old_indexes):
        _put(merged, list_path + (k,), saved[i])


# --------------------------------------------------------------------------- merging


def _merge_mapping(base: dict[Any, Any], over: dict[Any, Any], mpath: Path_, vpath: Path_, vsrc: Sources,
                   merged: Sources) -> None:
    merged.exact[mpath] = vsrc.resolve(vpath)
    for key, value in over.items():
        mp, vp = mpath + (key,), vpath + (key,)
        old = base.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            _merge_mapping(old, value, mp, vp, vsrc, merged)
        elif mp in PHASE_LISTS and isinstance(old, list) and isinstance(value, list):
            _merge_phases(old, value, mp, vp, vsrc, merged)
        else:
            base[key] = value
            _graft(merged, mp, vsrc, vp)


def _phase_name(phase: Any) -> Any:
    return phase.get("name") if isinstance(phase, dict) else None


def _merge_phases(base: list[Any], over: list[Any], mpath: Path_, vpath: Path_, vsrc: Sources,
                  merged: Sources) -> None:
    """Phases merge by name; a phase with a new name is added after the others."""
    index = {_phase_name(ph): i for i, ph in enumerate(base) if isinstance(_phase_name(ph), str)}
    merges: list[tuple[int, int]] = []
    added: list[int] = []
    for j, phase in enumerate(over):
        name = _phase_name(phase)
        if isinstance(name, str) and name in index and isinstance(phase, dict):
            merges.append((index[name], j))
        else:
            added.append(j)
    old_count = len(base)
    base.extend(over[j] for j in added)
    # the added phases come from the variant: route them there
    _reindex(merged, mpath, list(range(old_count)))
    merged.exact[mpath] = vsrc.resolve(vpath)
    for k, j in enumerate(added):
        _graft(merged, mpath + (old_count + k,), vsrc, vpath + (j,))
    for i, j in merges:
        _merge_mapping(base[i], over[j], mpath + (i,), vpath + (j,), vsrc, merged)


# --------------------------------------------------------------------------- remove


def _remove(bdata: dict[Any, Any], remove: Any, merged: Sources, vsrc: Sources, base_name: str) -> list[Problem]:
    """Take out of the base what the variant's 'remove:' names."""
    problems: list[Problem] = []

    def problem(path: Path_, message: str, hint: str | None = None, code: str = "variant", key: bool = False) -> None:
        problems.append(Problem(message, vsrc.span(("remove",) + path, key=key), hint, code))

    if not isinstance(remove, dict):
        problem((), "'remove' must be a mapping of sections to lists of names, e.g. {cards: [book]}", None, "type")
        return problems
    for section, names in remove.items():
        if section not in REMOVABLE:
            guess = difflib.get_close_matches(str(section), REMOVABLE, n=1)
            hint = f"did you mean '{guess[0]}'?" if guess else f"'remove' may name: {', '.join(REMOVABLE)}"
            problem((section,), f"unknown key '{section}' in 'remove'", hint, "unknown-key", key=True)
            continue
        if not isinstance(names, list):
            problem((section,), f"'remove: {section}' must be a list of names, e.g. [{'book' if section == 'cards' else 'name'}]",
                    None, "type")
            continue
        for i, entry in enumerate(names):
            if not isinstance(entry, str) or not entry or any(not part for part in entry.split(".")):
                problem((section, i), f"'remove: {section}' holds {yaml_words(entry)}, which is not a name",
                        "write a name, or NAME.KEY to remove one key of an entry", "type")
                continue
            found = _locate(bdata, section, entry.split("."))
            if isinstance(found, str):
                problem((section, i), found.replace("@BASE@", f"'{base_name}'"), _hint(bdata, section, entry), "variant")
                continue
            container, key, path = found
            if isinstance(container, list):
                del container[key]
                _drop(merged, path)
                rest = [k for k in range(len(container) + 1) if k != key]
                _reindex(merged, path[:-1], rest)
            else:
                del container[key]
                _drop(merged, path)
    return problems


def _phase_list(bdata: dict[Any, Any]) -> tuple[Path_, list[Any]] | None:
    for path in PHASE_LISTS:
        value: Any = bdata
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, list):
            return path, value
    return None


def _locate(bdata: dict[Any, Any], section: str, parts: list[str]) -> tuple[Any, Any, Path_] | str:
    """The container, key and path of what ``parts`` names in ``section``; or why it cannot be found."""
    kind = _KIND[section]
    if section == "phases":
        found = _phase_list(bdata)
        names = [_phase_name(ph) for ph in found[1]] if found else []
        if parts[0] not in names:
            return f"cannot remove phase '{parts[0]}': @BASE@ has no such phase"
        assert found is not None
        path: Path_ = found[0] + (names.index(parts[0]),)
        container: Any = found[1]
        key: Any = names.index(parts[0])
    elif section == "keys":
        path, container, key = (parts[0],), bdata, parts[0]
        if parts[0] not in bdata:
            return f"cannot remove '{parts[0]}': @BASE@ has no key '{parts[0]}'"
    else:
        entries = bdata.get(section)
        if not isinstance(entries, dict) or parts[0] not in entries:
            return f"cannot remove {kind} '{parts[0]}': @BASE@ has no such {kind}"
        path, container, key = (section, parts[0]), entries, parts[0]
    for part in parts[1:]:
        value = container[key]
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            container, key, path = value, int(part), path + (int(part),)
        elif isinstance(value, dict) and part in value:
            container, key, path = value, part, path + (part,)
        else:
            shown = ".".join(str(p) for p in path[1:] if not isinstance(p, int)) or str(path[0])
            return f"cannot remove '{'.'.join(parts)}': {shown} has no key '{part}'"
    return container, key, path


def _hint(bdata: dict[Any, Any], section: str, entry: str) -> str | None:
    parts = entry.split(".")
    if section == "phases":
        found = _phase_list(bdata)
        pool = [str(_phase_name(ph)) for ph in found[1]] if found else []
    elif section == "keys":
        pool = [str(k) for k in bdata]
    else:
        entries = bdata.get(section)
        pool = [str(k) for k in entries] if isinstance(entries, dict) else []
    if parts[0] not in pool:
        guess = difflib.get_close_matches(parts[0], pool, n=1)
        return f"did you mean '{guess[0]}'?" if guess else None
    return "write NAME.KEY with a key the entry has"
