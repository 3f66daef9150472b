"""``rulecore validate``: every problem of the card files and folders given, each checked like a
load plus a game made for the fewest and the most players, and a short random game of each in
which the heuristic is worked out at every decision; every problem collected, never a traceback.

The checks (``validate_paths`` and what it calls) come first; the command that prints their
reports as text or JSON and sets the exit code (``validate_command``) is at the end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any, Iterable

import attrs
import typer
from rich.text import Text

from .._resources import builtin_path
from ..cardset.reading.files import read_text_file
from ..cardset.checks.walking import shorten, warning
from ..cardset.cache import ParseCache
from ..cardset.loader import load_cardset, load_cardset_text
from ..cardset.model import Cardset
from ..cardset.schema import INCLUDABLE
from ..cardset.reading.yamlsrc import YamlSyntaxProblem, read_yaml
from ..engine.game import Game
from ..errors import CardsetError, Problem, RulecoreError, Span
from .common import AllowPath, counted, fail, stdout_console


@attrs.frozen
class FileReport:
    """The outcome of checking one cardset file."""

    file: str
    cardset: str | None  # its name, when it loaded
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity != "warning")

    @property
    def warnings(self) -> int:
        return sum(1 for p in self.problems if p.severity == "warning")

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "cardset": self.cardset,
            "ok": self.errors == 0,
            "errors": self.errors,
            "warnings": self.warnings,
            "problems": [dict(p.to_dict(), severity=p.severity) for p in self.problems],
        }


class UsageError(Exception):
    """A path that does not exist (exit code 2)."""


def _is_part(path: Path) -> bool | None:
    """True: a file of sections meant for 'include:'; False: a cardset; None: cannot tell (broken)."""
    if path.name in ("cardset.yaml", "cardset.yml"):
        return False
    text, _ = read_text_file(path)
    if text is None:
        return None
    try:
        data, _src = read_yaml(text, str(path))
    except YamlSyntaxProblem:
        return None
    if isinstance(data, dict) and data and all(k in INCLUDABLE for k in data):
        return True
    return False if isinstance(data, dict) else None


def _included_by(path: Path) -> set[Path]:
    """The files a cardset file names under 'include:' (resolved)."""
    text, _ = read_text_file(path)
    if text is None:
        return set()
    try:
        data, _src = read_yaml(text, str(path))
    except YamlSyntaxProblem:
        return set()
    files = data.get("include") if isinstance(data, dict) else None
    if isinstance(files, str):
        files = [files]
    if not isinstance(files, list):
        return set()
    out = set()
    for name in files:
        if isinstance(name, str):
            try:
                out.add((path.parent / name).resolve())
            except (OSError, ValueError):
                pass
    return out


def targets(paths: Iterable[str]) -> list[tuple[Path, Path | None]]:
    """The cardset files to check: files as given; in folders, every cardset.yaml and *.yaml cardset.

    In a folder, a file that only holds sections for 'include:' (cards:, procedures:, ...)
    is checked as part of the cardset that includes it, not on its own.  Each file comes with
    the folder it was found in (None for a file named itself): its cardset may read that tree.
    """
    found: list[tuple[Path, Path | None]] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            builtin = builtin_path(raw) if "/" not in raw else None
            if builtin is None:
                raise UsageError(f"no such file or folder: {raw}")
            found.append((builtin, None))
            continue
        if not path.is_dir():
            found.append((path, None))
            continue
        files = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
        included: set[Path] = set()
        for p in files:
            included |= _included_by(p)
        # a file another one includes is checked with it; a part nothing includes is reported
        found.extend((p, path) for p in files if p.resolve() not in included)
    unique: dict[Path, tuple[Path, Path | None]] = {}
    for p, folder in found:
        unique.setdefault(p.resolve(), (p, folder))
    return list(unique.values())


def validate_file(path: Path, *, games: bool = True, cache: ParseCache | None = None,
                  roots: Iterable[str | Path] = ()) -> FileReport:
    """Check one file the way a load does, and more; every problem, never an exception."""
    file = str(path)
    part = _is_part(path) if path.name not in ("cardset.yaml", "cardset.yml") else False
    if part:
        return FileReport(file, None, (warning(Span(file, 1, 1, None, _first_line(path)),
                                             "this file holds only sections for 'include:', and no cardset here "
                                             "includes it", "name it under 'include:' in a cardset file, or check "
                                             "that cardset instead", "include"),))
    try:
        cs = load_cardset(path, cache=cache, roots=roots)
    except CardsetError as exc:
        return FileReport(file, None, tuple(exc.problems))
    except RecursionError:
        return FileReport(file, None, (Problem("the data is nested too deeply to check", Span(file), None,
                                               "invalid"),))
    except Exception as exc:  # noqa: BLE001 - a bug in rulecore, not in the file: still no traceback
        return FileReport(file, None, (Problem(
            f"rulecore could not check this file ({type(exc).__name__}: {shorten(str(exc), 200)})", Span(file),
            "this is a bug in rulecore: please report it with this file", "internal"),))
    problems = list(cs.warnings)
    if games:
        problems.extend(_try_games(cs))
    return FileReport(file, cs.name, tuple(problems))


def _first_line(path: Path) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline().rstrip("\n")
    except OSError:
        return None


SMOKE_DECISIONS = 300  # decisions of the smoke game played for each player count


def _try_games(cs: Cardset) -> list[Problem]:
    """Make a game with the fewest and the most players (default options): the set-up data must fit.
    Then play a short seeded game of random moves, working out the heuristic for every seat at
    every decision, as a search bot would."""
    out: list[Problem] = []
    for players in sorted({cs.min_players, cs.max_players}):
        try:
            game = Game(cs, players)
        except RulecoreError as exc:
            out.append(Problem(f"a game for {counted(players, 'player')} cannot be made: {exc}", Span(cs.file), None,
                               "game"))
            continue
        except Exception as exc:  # noqa: BLE001 - reported, never raised
            out.append(Problem(f"a game for {counted(players, 'player')} cannot be made ({type(exc).__name__}: {exc})",
                               Span(cs.file), "this may be a bug in rulecore: please report it", "internal"))
            continue
        problem = _smoke_game(cs, game, players)
        if problem is not None:
            out.append(problem)
    return out


def _smoke_game(cs: Cardset, game: Game, players: int) -> Problem | None:
    """The first problem of a short random game (seed 0), the heuristic worked out at every decision."""
    rng = random.Random(0)
    decisions = 0
    try:
        state = game.new_game(seed=0)
        while True:
            for seat in range(players if cs.heuristic is not None else 0):
                try:
                    state.heuristic(seat)
                except RulecoreError as exc:
                    return Problem(f"the heuristic cannot be worked out for seat {seat} in a {players}-player "
                                   f"game after {decisions} random decisions: {_bare(exc)}", _span_of(exc, cs),
                                   "a search bot would stop here: guard values that may be none "
                                   "(max_of of an empty hand is none), e.g. if_else(count(...) > 0, ..., 0)",
                                   "heuristic")
            if state.is_terminal() or decisions >= SMOKE_DECISIONS:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            decisions += 1
    except RulecoreError as exc:
        return Problem(f"a random {players}-player game (seed 0) failed after {counted(decisions, 'decision')}: "
                       f"{_bare(exc)}",
                       _span_of(exc, cs), "replay it with game.replay(0, actions) to see how it got there", "game")
    except Exception as exc:  # noqa: BLE001 - a bug in rulecore, reported, never raised
        return Problem(f"a random {players}-player game (seed 0) could not be played ({type(exc).__name__})",
                       Span(cs.file), "this is a bug in rulecore: please report it with this file", "internal")
    return None


def _bare(exc: RulecoreError) -> str:
    """The message of an error without the place it starts with (the problem shows the place)."""
    text = str(exc)
    span = getattr(exc, "span", None)
    if isinstance(span, Span) and span.line:
        where = f"{span}" + (f" (in {span.card})" if span.card else "") + ": "
        if text.startswith(where):
            return text[len(where):]
    return text


def _span_of(exc: RulecoreError, cs: Cardset) -> Span:
    span = getattr(exc, "span", None)
    return span if isinstance(span, Span) and span.line else Span(cs.file)


def validate_paths(paths: Iterable[str], *, games: bool = True, roots: Iterable[str | Path] = ()) -> list[FileReport]:
    """Check every cardset file the paths name; raises UsageError for a path that does not exist.

    The files share one parse cache: a variant's base is parsed once, not once per variant.  A
    file found in a folder given may read that whole folder tree (and ``roots``).
    """
    cache = ParseCache()
    roots = tuple(roots)
    return [validate_file(path, games=games, cache=cache, roots=roots + ((folder,) if folder else ()))
            for path, folder in targets(paths)]


def validate_text(text: str, file: str = "<string>") -> list[Problem]:
    """Every problem (errors and warnings) of a cardset given as text."""
    try:
        cs = load_cardset_text(text, file)
    except CardsetError as exc:
        return list(exc.problems)
    return list(cs.warnings)


_FORMATS = ("text", "json")


def validate_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH",
            show_default=False,
            help="Cardset files or folders (every cardset.yaml / *.yaml cardset in a folder), or built-in names.",
        ),
    ],
    output_format: Annotated[
        str, typer.Option("--format", "-f", metavar="|".join(_FORMATS), help="text or json.")
    ] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too (exit 1).")] = False,
    no_games: Annotated[
        bool, typer.Option("--no-games", help="Skip making a game with the fewest and the most players.")
    ] = False,
    allow_path: AllowPath = None,
) -> None:
    """Check card files and report every problem: file:line:column, the line, a caret and a hint.

    Exit code 0 when clean (warnings alone do not fail unless --strict), 1 when a problem was
    found, 2 for a usage error.
    """
    if output_format not in _FORMATS:
        fail(f"--format must be one of {', '.join(_FORMATS)} (got {output_format!r})", 2)
    try:
        reports = validate_paths(paths, games=not no_games, roots=allow_path or ())
    except UsageError as exc:
        fail(str(exc), 2)
    if not reports:
        fail("no cardset files found in " + ", ".join(paths), 2)
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    failed = errors > 0 or (strict and warnings > 0)
    if output_format == "json":
        typer.echo(json.dumps({"ok": not failed, "files": [r.to_dict() for r in reports], "errors": errors,
                               "warnings": warnings}, indent=2))
    else:
        out = stdout_console()
        for report in reports:
            for problem in report.problems:
                out.print(Text(problem.render()), soft_wrap=True)
                out.print()
        files = counted(len(reports), "file")
        if errors or warnings:
            out.print(Text(f"{counted(errors, 'error')}, {counted(warnings, 'warning')} in {files}",
                           style="bold red" if failed else "bold yellow"))
        else:
            names = ", ".join(r.cardset or r.file for r in reports)
            out.print(Text(f"ok: {files} checked ({names}), no problems", style="bold green"))
    if failed:
        raise typer.Exit(1)
