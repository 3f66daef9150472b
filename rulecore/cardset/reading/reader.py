"""The reading step: a cardset's files in, one ``Document`` out.

While loading, this module alone decides what is read.  For one cardset it finds the file (a
built-in name or a path), reads it through ``Files`` (confinement and size caps), parses its
YAML with positions, reads and merges each file under ``include:``, and, for a file that says
``extends: BASE``, reads the base the same way (its includes, its own base) and merges the
variant over it.  The other modules of ``reading`` are called from here and call nothing back.

A problem that leaves nothing to check (a file that cannot be read or parsed, an ``extends:``
that names nothing, a loop of bases) raises ``CardsetError`` at once; the others are kept on the
document for the building step to report with its own.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Any

from ..._resources import builtin_cardsets, builtin_path
from ...errors import CardsetError, Problem, Span, doc_ref, yaml_words
from .document import Document, Sources
from .files import Files, read_text_file, refused
from .locate import locate_cardset
from .includes import include_names, merge_part
from .variants import merge_variant, stray_remove
from .yamlsrc import YamlSyntaxProblem, read_yaml

MAX_EXTENDS = 16  # bases in one chain of 'extends:'


def read_cardset(path: Path, files: Files) -> Document:
    """The cardset file at ``path``, its includes and bases read and merged; ``files`` guards what is read."""
    text, problem = read_text_file(path, files)
    if text is None:
        assert problem is not None
        if problem.code == "refused":
            problem = refused("the cardset file", str(path), problem.message, problem.span)
        elif problem.code == "io":
            problem = Problem(f"cannot read cardset file: {problem.message}", problem.span,
                              "give a built-in name or a .yaml path", "io")
        else:  # not text: nothing of it is quoted
            problem = Problem(problem.message, Span(problem.span.file, problem.span.line, problem.span.column),
                              problem.hint, problem.code)
        raise CardsetError([problem])
    if not _CARDSET_KEY.search(text):
        raise CardsetError([Problem(
            "this file is not a cardset: it has no top-level key of one (name:, players:, zones:, cards:, "
            "extends:, ...), so nothing of it is shown", Span(str(path), 1, 1),
            "give a built-in name or the path of a cardset .yaml; to write one, start from the example "
            + doc_ref("docs/examples/tiny-game.yaml"), "refused")])
    return _document(_read(text, str(path), files, ()), files)


#: a line that starts a top-level key of a cardset: a file with none is not one, and is never quoted
#: (load_cardset("/proc/self/environ") must not print the environment)
_CARDSET_KEY = re.compile(r"^(?:name|title|description|players|zones|cards|counters|vars|options|setup|flow|end|"
                          r"procedures|functions|families|extends|include|remove|heuristic)[ \t]*:", re.MULTILINE)


def read_cardset_text(text: str, file: str, files: Files) -> Document:
    """A cardset given as text (``file`` names it in problems), its includes and bases read and merged."""
    if len(text) > files.limits.file_bytes:
        raise CardsetError([Problem(f"the text is longer than {files.limits.file_bytes} characters (the limit for one "
                                    "file)", Span(file), f"the limits can be raised: see {doc_ref('docs/untrusted.md')}",
                                    "refused")])
    return _document(_read(text, file, files, ()), files)


def _document(read: tuple[Any, Sources, list[Problem]], files: Files) -> Document:
    data, sources, problems = read
    return Document(data, sources, problems, tuple(files.read))


def _read(text: str, file: str, files: Files, chain: tuple[Any, ...]) -> tuple[Any, Sources, list[Problem]]:
    """One file's data with its includes merged in and its base (if it extends one) merged under it."""
    try:
        data, src = read_yaml(text, file)
    except YamlSyntaxProblem as exc:
        raise CardsetError([exc.problem]) from None
    sources = Sources(src)
    problems = _include(data, sources, files)
    if isinstance(data, dict):
        if "extends" in data:
            data, sources, more = _extend(data, sources, file, chain, files)
            problems = more + problems
        else:
            problems += stray_remove(data, sources)
    return data, sources, problems


# --------------------------------------------------------------------------- include:


def _include(data: Any, sources: Sources, files: Files) -> list[Problem]:
    """Read each file under 'include:' (paths relative to the including file) and merge it into ``data``."""
    main = sources.main
    names, problems = include_names(data, main)
    folder = Path(main.file).parent
    for i, name in enumerate(names):
        path = folder / name
        text, why = read_text_file(path, files)
        if text is None:
            assert why is not None
            at = main.span(("include", i))
            problems.append(refused("included file", name, why.message, at) if why.code == "refused" else
                            Problem(f"cannot read included file '{name}': {why.message}", at,
                                    why.hint or "paths are relative to the including file", "io"))
            continue
        try:
            part, src = read_yaml(text, str(path))
        except YamlSyntaxProblem as exc:
            problems.append(exc.problem)
            continue
        problems += merge_part(data, sources, part, src)
    return problems


# --------------------------------------------------------------------------- extends:


def _extend(vdata: dict[Any, Any], vsrc: Sources, file: str, chain: tuple[Any, ...],
            files: Files) -> tuple[Any, Sources, list[Problem]]:
    """Read the base a variant names (``chain``: the files extending it, to find a loop) and merge the variant over it."""
    base_name = vdata.pop("extends")
    remove = vdata.pop("remove", None)
    at = vsrc.span(("extends",))
    if not isinstance(base_name, str) or not base_name.strip():
        raise CardsetError([Problem(f"'extends' must name a cardset, got {yaml_words(base_name)}", at,
                                    "a built-in name or a path relative to this file", "type")])
    here = _identity(file)
    chain = chain + (here,)
    if len(chain) > MAX_EXTENDS:
        raise CardsetError([Problem(f"'extends' goes more than {MAX_EXTENDS} cardsets deep", at,
                                    "extend the base directly", "extends-loop")])
    base_path = _locate_base(base_name.strip(), file, at, files)
    ident = base_path.resolve()
    if ident in chain:
        loop = list(chain[chain.index(ident):]) + [ident]
        raise CardsetError([Problem("'extends' makes a loop: " + " -> ".join(_display(x, here) for x in loop), at,
                                    "a cardset cannot extend itself, directly or through others", "extends-loop")])
    text, problem = read_text_file(base_path, files)
    if text is None:
        assert problem is not None
        if problem.code == "refused":
            problem = refused("the base", base_name.strip(), problem.message, at)
        raise CardsetError([problem])
    bdata, bsrc, problems = _read(text, str(base_path), files, chain)
    if not isinstance(bdata, dict):
        raise CardsetError(problems + [Problem(f"'{base_name}' is not a cardset (its file is not a mapping of keys)",
                                               at, None, "unknown-cardset")])
    data, sources, more = merge_variant(bdata, bsrc, vdata, vsrc, remove, base_name)
    return data, sources, problems + more


def _locate_base(name: str, file: str, at: Span, files: Files) -> Path:
    """The file an 'extends:' names: a built-in cardset, a folder beside the variant, or a path from its folder."""
    here = Path(file).parent
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
        raise CardsetError([Problem(f"'extends' names an unknown cardset '{name}'", at, hint, "unknown-cardset")])
    path = here / name
    if not files.allowed(path):
        raise CardsetError([refused("the base", name, "it is outside the folders this cardset may read", at)])
    if path.is_dir():
        path = path / "cardset.yaml"
    if not path.is_file():
        raise CardsetError([Problem(f"'extends' names a file that does not exist: '{name}'", at,
                                    "paths are relative to the folder of this file", "unknown-cardset")])
    return path


def _identity(file: str) -> Any:
    """What tells two files of an 'extends' chain apart: the real path of a file, else the name given."""
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
