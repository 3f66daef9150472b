"""What every command shares: the consoles, clean error exits, loading GAME, the player count and the
options that several commands take (``--option``, ``--allow-path``)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook, RenderResult
from rich.segment import Segment
from rich.text import Text

import rulecore

#: The width of tables written to a pipe or file: wide enough that nothing is cut off.
_PIPE_WIDTH = 500

_ALLOW_HELP = ("A folder the cardset's include: and extends: may also read (repeatable; by default only its own "
               "folder tree and the built-in cardsets).")
AllowPath = Annotated[
    list[str] | None, typer.Option("--allow-path", metavar="FOLDER", show_default=False, help=_ALLOW_HELP)
]
GameOptions = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE", show_default=False, help="A game option (repeatable)."),
]
GameArgument = Annotated[
    str, typer.Argument(metavar="GAME", show_default=False, help="Built-in cardset name or path to a cardset YAML.")
]


def stdout_console(*, wide_when_piped: bool = False) -> Console:
    """A console on sys.stdout (built per call, so that a redirected sys.stdout is honoured).

    ``wide_when_piped``: when stdout is not a terminal (and COLUMNS is not set), tables are as
    wide as their contents instead of being squeezed, and card names cut off, to 80 columns.
    """
    console = _console()
    if wide_when_piped and not console.is_terminal and "COLUMNS" not in os.environ:
        console = _console(width=_PIPE_WIDTH)
    return console


def stderr_console() -> Console:
    return _console(stderr=True)


# ---------------------------------------------------------------------- text from cardsets on the terminal

#: control characters: C0 (ESC, BEL, CR, ...) but newline and tab, DEL and C1 (CSI U+009B, ...)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain(text: str) -> str:
    """Text of a cardset (or of anyone) as the terminal may show it: every control character written as
    an escape (ESC as ``\\x1b``), so that no card name, label or message can move the cursor, clear the
    screen, set the window title or colour what follows."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class _Plain:
    """A renderable drawn as ``inner`` is, with ``plain`` applied to the text of every segment (rich's
    own styles and cursor controls are not text and pass untouched)."""

    def __init__(self, inner: Any):
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control or not _CONTROL.search(segment.text):
                yield segment
            else:
                yield Segment(plain(segment.text), segment.style)


class _PlainHook(RenderHook):
    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Plain(r) for r in renderables]  # type: ignore[misc]


def _console(**settings: Any) -> Console:
    """A console that never reads markup (a label '[/]' is text) and never writes a control character
    that came in text (see ``plain``): every command prints through one of these."""
    console = Console(highlight=False, markup=False, **settings)
    console.push_render_hook(_PlainHook())
    return console


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code`` (1: a rulecore error, 2: a usage error)."""
    stderr_console().print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def counted(number: int, word: str) -> str:
    """'1 game', '8 games': a number and its noun, plural unless the number is 1."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def builtin_names() -> str:
    return ", ".join(rulecore.builtin_cardsets())


@contextlib.contextmanager
def clean_errors() -> Iterator[None]:
    """Turn library errors into a one-line message and exit code 1."""
    try:
        yield
    except rulecore.CardsetError as exc:
        only = exc.problems[0] if len(exc.problems) == 1 else None
        if only is not None and only.code == "unknown-cardset" and not only.span.line:
            # a name that is neither built in nor a file: not a problem *in* card data
            guess = f"; {only.hint}" if only.hint and only.hint.startswith("did you mean") else ""
            fail(f"{only.message}{guess} (built-in cardsets: {builtin_names()}; or give a path to a cardset YAML)")
        fail(str(exc))
    except rulecore.RulecoreError as exc:
        fail(str(exc) or type(exc).__name__)


def load_game(game: str, allow: Sequence[str] | None = None) -> Any:
    """The cardset named or found at ``game``: a built-in name, a YAML file, or a folder with cardset.yaml."""
    if os.path.isdir(game):
        if not os.path.isfile(os.path.join(game, "cardset.yaml")):
            raise rulecore.RulecoreError(
                f"{game!r} is a folder without a cardset.yaml; give a cardset YAML file, a folder holding "
                f"cardset.yaml, or a built-in name ({builtin_names()})"
            )
        game = str(Path(game) / "cardset.yaml")
    return rulecore.load_cardset(game, roots=allow) if allow else rulecore.load_cardset(game)


def players_or_default(players: int | None, cardset: Any) -> int:
    """``--players``, checked against the cardset's range; the cardset's minimum when not given."""
    low, high = getattr(cardset, "min_players", None), getattr(cardset, "max_players", None)
    if players is None:
        return int(low or 2)
    if players < 1 or (isinstance(low, int) and isinstance(high, int) and not low <= players <= high):
        allowed = f"{getattr(cardset, 'name', 'this game')} is for {low} to {high} players" if isinstance(
            low, int) and isinstance(high, int) else "give a positive number"
        raise rulecore.RulecoreError(f"--players {players} is out of range: {allowed}")
    return players
