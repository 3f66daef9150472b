"""Cardset files spread over several files: reading a file's text, ``Sources`` (which file
and line each value came from), and merging the files named under ``include:``."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from ..errors import Problem, Span
from .limits import Files, Refused, refused
from .schema import INCLUDABLE
from .yamlsrc import Source, YamlSyntaxProblem, read_yaml


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



Route = tuple[Source, tuple[Any, ...]]


class Sources:
    """Positions of a cardset spread over files.

    Entries from included files, and the entries a variant merges over its base, point
    into their own file.  ``routes`` maps a path to the file (and the path in that file)
    holding the value there and everything under it; ``exact`` maps a mapping that a
    variant merged into its base's to the variant's file for that path only (what is
    under it may still come from the base).  Other paths are in ``default``: the file
    itself, or for a variant, its base's main file.
    """

    def __init__(self, main: Source):
        self.main = main
        self.file = main.file
        self.default = main
        self.exact: dict[tuple[Any, ...], Route] = {}
        self.routes: dict[tuple[Any, ...], Route] = {}

    def route(self, path: tuple[Any, ...], source: Source, source_path: tuple[Any, ...] | None = None) -> None:
        self.routes[tuple(path)] = (source, tuple(path if source_path is None else source_path))

    def resolve(self, path: tuple[Any, ...]) -> Route:
        """The file holding the value at ``path``, and its path in that file."""
        path = tuple(path)
        hit = self.exact.get(path)
        return hit if hit is not None else self.resolve_subtree(path)

    def resolve_subtree(self, path: tuple[Any, ...]) -> Route:
        if self.routes:
            for i in range(len(path), -1, -1):
                hit = self.routes.get(path[:i])
                if hit is not None:
                    return hit[0], hit[1] + path[i:]
        return self.default, path

    def _pick(self, path: tuple[Any, ...]) -> Source:
        return self.resolve(path)[0]

    def span(self, path: tuple[Any, ...], *, key: bool = False, card: str | None = None) -> Span:
        source, spath = self.resolve(path)
        return source.span(spath, key=key, card=card)

    def text_span(
        self, path: tuple[Any, ...], line: int, column: int, card: str | None = None, text: str | None = None
    ) -> Span:
        source, spath = self.resolve(path)
        return source.text_span(spath, line, column, card, text)

    @property
    def all(self) -> list[Source]:
        found = [self.main, self.default] + [r[0] for r in self.exact.values()] + [r[0] for r in self.routes.values()]
        return list({id(s): s for s in found}.values())


def merge_includes(data: Any, sources: Sources, files: Files) -> list[Problem]:
    """Merge the sections of files named under 'include:' into the main data, in place."""
    if not isinstance(data, dict) or "include" not in data:
        return []
    main = sources.main
    problems: list[Problem] = []
    names = data.pop("include")
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not all(isinstance(f, str) for f in names):
        return [Problem("'include' must be a list of file paths", main.span(("include",)), None, "type")]
    base = Path(main.file).parent
    for i, name in enumerate(names):
        path = base / name
        text, why = read_text_file(path, files)
        if text is None:
            assert why is not None
            if why.code == "refused":
                problems.append(refused("included file", name, why.message, main.span(("include", i))))
                continue
            problems.append(Problem(f"cannot read included file '{name}': {why.message}", main.span(("include", i)),
                                    why.hint or "paths are relative to the including file", "io"))
            continue
        try:
            part, src = read_yaml(text, str(path))
        except YamlSyntaxProblem as exc:
            problems.append(exc.problem)
            continue
        if part is None:
            continue
        if not isinstance(part, dict):
            problems.append(Problem("an included file must be a mapping of sections", src.span(()), None, "type"))
            continue
        for section, entries in part.items():
            if section not in INCLUDABLE:
                guess = difflib.get_close_matches(str(section), INCLUDABLE, n=1)
                hint = f"did you mean '{guess[0]}'?" if guess else f"an included file may hold: {', '.join(INCLUDABLE)}"
                problems.append(Problem(f"'{section}' cannot be in an included file", src.span((section,), key=True),
                                        hint, "unknown-key"))
                continue
            if not isinstance(entries, dict):
                problems.append(Problem(f"'{section}' must be a mapping", src.span((section,)), None, "type"))
                continue
            target = data.setdefault(section, {})
            if not isinstance(target, dict):
                continue
            for key, value in entries.items():
                if key in target:
                    where = sources.span((section, key), key=True)
                    problems.append(Problem(f"'{key}' under '{section}' is defined twice", src.span((section, key), key=True),
                                            f"it is also defined at {where}", "duplicate"))
                    continue
                target[key] = value
                sources.route((section, key), src)
    return problems
