"""Reading cardset files: includes, and variants that extend another cardset.

A variant is a cardset file that says ``extends: BASE`` (a built-in name, or a path
relative to the variant's folder).  Loading it reads the base (with its own includes
and, in turn, its own ``extends``), takes out what the variant's ``remove:`` names,
and merges the variant over it:

- mappings merge key by key, at any depth: ``cards: {apple: {count: 10}}`` changes
  the apple's count and keeps the rest of the apple;
- everything else (text, numbers, truth values, lists) replaces the base's value,
  so ``scoring: [1, 2, 3]`` is a whole new ladder;
- the phases of the flow (a list) merge by ``name``: a phase of the base's name
  merges into it, a new name is added after the base's phases.

Problems in the variant's own entries point at the variant's lines; problems in what
it inherits point at the base's files (``Sources`` keeps a route per merged entry).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

from .._resources import builtin_cardsets, builtin_path
from ..errors import CardsetError, Problem
from .includes import Sources, merge_includes, read_text_file
from .limits import Files, refused
from .schema import REMOVABLE
from .yamlsrc import YamlSyntaxProblem, read_yaml

Path_ = tuple[Any, ...]
PHASE_LISTS = (("flow", "rounds", "phases"), ("flow", "phases"))
MAX_EXTENDS = 16
_KIND = {"cards": "card", "families": "family", "zones": "zone", "counters": "counter", "vars": "variable", "options": "option",
         "procedures": "procedure", "functions": "function", "phases": "phase", "keys": "key"}


# --------------------------------------------------------------------------- reading files


def read_cardset_file(path: Path, files: Files | None = None) -> tuple[Any, Sources, list[Problem]]:
    """The merged data of a cardset file, where each value came from, and the problems found so far.

    ``files`` guards what may be read (by default: the file's own folder tree and the built-ins)."""
    files = files or Files(path)
    text, problem = read_text_file(path, files)
    if text is None:
        assert problem is not None
        if problem.code == "refused":
            problem = refused("the cardset file", str(path), problem.message, problem.span)
        elif problem.code == "io":
            problem = Problem(f"cannot read cardset file: {problem.message}", problem.span,
                              "give a built-in name or a .yaml path", "io")
        raise CardsetError([problem])
    return read_cardset_text(text, str(path), files)


def read_cardset_text(text: str, file: str, files: Files,
                      chain: tuple[Any, ...] = ()) -> tuple[Any, Sources, list[Problem]]:
    try:
        data, src = read_yaml(text, file)
    except YamlSyntaxProblem as exc:
        raise CardsetError([exc.problem]) from None
    sources = Sources(src)
    problems = merge_includes(data, sources, files)
    if isinstance(data, dict):
        if "extends" in data:
            data, sources, more = _extend(data, sources, file, chain, files)
            problems = more + problems
        elif "remove" in data:
            problems.append(Problem("'remove' only works in a variant (a file with 'extends: BASE')",
                                    sources.span(("remove",), key=True),
                                    "add 'extends: NAME' naming the cardset to take things out of", "variant"))
            del data["remove"]
    return data, sources, problems


# --------------------------------------------------------------------------- extends


def _identity(file: str) -> Any:
    path = Path(file)
    try:
        return path.resolve() if path.is_file() else file
    except OSError:  # pragma: no cover - unusual file systems
        return file


def _display(ident: Any, here: Any) -> str:
    """A file of an 'extends' chain, relative to the folder of the file that reports it."""
    if isinstance(ident, Path) and isinstance(here, Path):
        try:
            return os.path.relpath(ident, here.parent)
        except ValueError:  # pragma: no cover - another drive on Windows
            return str(ident)
    return str(ident)


def _resolve_base(name: str, file: str, vsrc: Sources, files: Files) -> Path:
    here = Path(file).parent
    span = vsrc.span(("extends",))
    if "/" not in name and "\\" not in name and not name.endswith((".yaml", ".yml")):
        builtin = builtin_path(name)
        if builtin is not None:
            return builtin
        local = here / name
        if files.allowed(local) and (local / "cardset.yaml").is_file():
            return local / "cardset.yaml"
        names = builtin_cardsets()
        guess = difflib.get_close_matches(name, names, n=1)
        hint = (f"did you mean '{guess[0]}'?" if guess else
                f"give a built-in name ({', '.join(names)}) or a path such as ../base/cardset.yaml")
        raise CardsetError([Problem(f"'extends' names an unknown cardset '{name}'", span, hint, "unknown-cardset")])
    path = here / name
    if not files.allowed(path):
        raise CardsetError([refused("the base", name, "it is outside the folders this cardset "
                                    "may read", span)])
    if path.is_dir():
        path = path / "cardset.yaml"
    if not path.is_file():
        raise CardsetError([Problem(f"'extends' names a file that does not exist: '{name}'", span,
                                    "paths are relative to the folder of this file", "unknown-cardset")])
    return path


def _extend(vdata: dict[Any, Any], vsrc: Sources, file: str, chain: tuple[Any, ...],
            files: Files) -> tuple[Any, Sources, list[Problem]]:
    base_name = vdata.pop("extends")
    remove = vdata.pop("remove", None)
    if not isinstance(base_name, str) or not base_name.strip():
        raise CardsetError([Problem(f"'extends' must name a cardset, got {base_name!r}", vsrc.span(("extends",)),
                                    "a built-in name or a path relative to this file", "type")])
    here = _identity(file)
    chain = chain + (here,)
    if len(chain) > MAX_EXTENDS:
        raise CardsetError([Problem(f"'extends' goes more than {MAX_EXTENDS} cardsets deep",
                                    vsrc.span(("extends",)), "extend the base directly", "extends-loop")])
    base_path = _resolve_base(base_name.strip(), file, vsrc, files)
    ident = base_path.resolve()
    if ident in chain:
        loop = list(chain[chain.index(ident):]) + [ident]
        raise CardsetError([Problem("'extends' makes a loop: " + " -> ".join(_display(x, here) for x in loop),
                                    vsrc.span(("extends",)), "a cardset cannot extend itself, directly or through others",
                                    "extends-loop")])
    text, problem = read_text_file(base_path, files)
    if text is None:
        assert problem is not None
        if problem.code == "refused":
            problem = refused("the base", base_name.strip(), problem.message, vsrc.span(("extends",)))
        raise CardsetError([problem])
    bdata, bsrc, problems = read_cardset_text(text, str(base_path), files, chain)
    if not isinstance(bdata, dict):
        raise CardsetError(problems + [Problem(f"'{base_name}' is not a cardset (its file is not a mapping of keys)",
                                               vsrc.span(("extends",)), None, "unknown-cardset")])
    merged = Sources(vsrc.main)
    merged.default = bsrc.default
    merged.exact = dict(bsrc.exact)
    merged.routes = dict(bsrc.routes)
    if remove is not None:
        problems = problems + _remove(bdata, remove, merged, vsrc, base_name)
    _merge_mapping(bdata, vdata, (), (), vsrc, merged)
    return bdata, merged, problems


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
                problem((section, i), f"'remove: {section}' holds {entry!r}, which is not a name",
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
