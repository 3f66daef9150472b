"""``rulecore docs``: the guides and examples that ship with rulecore, listed, printed or located, so
that an installed copy (a wheel has no docs/ folder to open) can read what its messages point to."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from rulecore._resources import doc_files
from rulecore.cli.common import fail, stdout_console

#: the modeline an editor reads (``# yaml-language-server: $schema=...``): not a description
_MODELINE = "yaml-language-server:"


def _about(path: Path) -> str:
    """One line on what a guide or example is: a guide's title, an example's first comment or docstring line."""
    try:
        with open(path, encoding="utf-8") as fh:
            head = [fh.readline() for _ in range(12)]
    except (OSError, UnicodeDecodeError):
        return ""
    for raw in head:
        line = raw.strip()
        if path.suffix == ".md" and line.startswith("#"):
            return line.lstrip("#").strip().replace("`", "")
        if path.suffix == ".py" and line.startswith(('"""', "'''")):
            return line.strip("\"' ").replace("`", "")
        if path.suffix in (".yaml", ".yml") and line.startswith("#") and _MODELINE not in line and line.strip("# "):
            return line.strip("# ").replace("`", "")
    return ""


def _topic_of(name: str, topics: dict[str, Path]) -> str | None:
    """The topic a person typed: ``tiny-game``, or the file's name or path (``docs/examples/tiny-game.yaml``)."""
    word = name.strip().replace("\\", "/").rsplit("/", 1)[-1]
    stem = word.rsplit(".", 1)[0] if "." in word else word
    for candidate in (word, stem):
        if candidate in topics:
            return candidate
        found = [t for t in topics if t.lower() == candidate.lower()]
        if found:
            return found[0]
    return None


def _listing(topics: dict[str, Path], examples: bool) -> Table:
    """The guides (or the examples): a row each, its topic and what it is."""
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_column("topic", style="bold", no_wrap=True)
    table.add_column("what")
    for topic, path in topics.items():
        if (path.suffix != ".md") == examples:
            table.add_row(f"  {topic}", _about(path))
    return table


def docs_command(
    topic: Annotated[
        str | None,
        typer.Argument(metavar="TOPIC", show_default=False,
                       help="A guide or example, e.g. cardset-reference or tiny-game; none: list them all."),
    ] = None,
    path: Annotated[bool, typer.Option("--path", help="Print where the file is instead of its text.")] = False,
) -> None:
    """Print a guide or an example that ships with rulecore (rulecore docs: the list of them)."""
    try:
        topics = doc_files()
    except FileNotFoundError:
        fail("this copy of rulecore has no documentation installed; read it at "
             "https://github.com/rulecore/rulecore/tree/main/docs")
    if topic is None:
        out = stdout_console()
        out.print(Text("Guides", style="bold"))
        out.print(_listing(topics, examples=False))
        out.print(Text("\nExamples", style="bold"))
        out.print(_listing(topics, examples=True))
        out.print(Text("\nrulecore docs TOPIC prints one; rulecore docs TOPIC --path prints where its file is, e.g. to "
                       "start from an example: cp \"$(rulecore docs tiny-game --path)\" my-game.yaml"))
        return
    found = _topic_of(topic, topics)
    if found is None:
        guess = difflib.get_close_matches(topic, list(topics), n=1, cutoff=0.5)
        hint = f"did you mean '{guess[0]}'? " if guess else ""
        fail(f"no guide or example '{topic}'; {hint}(rulecore docs lists them: {', '.join(topics)})", 2)
    if path:
        typer.echo(str(topics[found]))
        return
    text = topics[found].read_text(encoding="utf-8")
    typer.echo(text, nl=not text.endswith("\n"))
