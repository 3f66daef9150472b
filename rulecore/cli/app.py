"""The ``rulecore`` command: simulate bot games, play against bots, validate and explain card files.

Exit codes: 0 success; 1 a :class:`rulecore.RulecoreError` (bad cardset, option,
illegal action...), printed as a clean message without a traceback; 2 usage
errors (unknown flag, malformed ``--option``); 130 interrupted with Ctrl-C;
143 ``simulate`` stopped by SIGTERM (its worker processes are stopped first).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import secrets
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn, cast

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import rulecore
from rulecore.bots import BOT_NAMES, Bot, make_bot
from rulecore.cardset.explain import explain_entry, explain_game, find_entry, render_block, render_expr, suggest
from rulecore.cardset.schema import editor_schema
from rulecore.cli.serve import serve_command
from rulecore.cli.validate import UsageError, validate_paths
from rulecore.simulate import (
    BACKENDS,
    DEFAULT_MAX_DECISIONS,
    Backend,
    SimulationResult,
    bot_seed,
)
from rulecore.simulate import simulate as run_simulation

__all__ = ["app", "main", "parse_options", "render_view"]

HUMAN_SEAT = 0
_TRUE_WORDS = frozenset({"true", "yes", "on", "1", "y"})
_FALSE_WORDS = frozenset({"false", "no", "off", "0", "n"})
_QUIT_WORDS = frozenset({"q", "quit", "exit"})

app = typer.Typer(
    name="rulecore",
    help="Run tabletop card games from YAML data: simulate bot games, play against bots, validate and explain "
    "card files, print the JSON Schema.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"rulecore {rulecore.__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Options that come before the command (``--version``); the help text is the app's."""


# ---------------------------------------------------------------- helpers


#: The width of tables written to a pipe or file: wide enough that nothing is cut off.
_PIPE_WIDTH = 500


def _stdout(*, wide_when_piped: bool = False) -> Console:
    """A console on sys.stdout (built per call, so that a redirected sys.stdout is honoured).

    ``wide_when_piped``: when stdout is not a terminal (and COLUMNS is not set), tables are as
    wide as their contents instead of being squeezed, and card names cut off, to 80 columns.
    """
    console = Console(highlight=False)
    if wide_when_piped and not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=_PIPE_WIDTH)
    return console


def _stderr() -> Console:
    return Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 1) -> NoReturn:
    _stderr().print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def _builtin_names() -> str:
    return ", ".join(rulecore.builtin_cardsets())


@contextlib.contextmanager
def _clean_errors() -> Iterator[None]:
    """Turn library errors into a one-line message and exit code 1."""
    try:
        yield
    except rulecore.CardsetError as exc:
        only = exc.problems[0] if len(exc.problems) == 1 else None
        if only is not None and only.code == "unknown-cardset" and not only.span.line:
            # a name that is neither built in nor a file: not a problem *in* card data
            guess = f"; {only.hint}" if only.hint and only.hint.startswith("did you mean") else ""
            _fail(f"{only.message}{guess} (built-in cardsets: {_builtin_names()}; or give a path to a cardset YAML)")
        _fail(str(exc))
    except rulecore.RulecoreError as exc:
        _fail(str(exc) or type(exc).__name__)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt so that the same clean-up runs."""


@dataclass
class _StopOnSigterm:
    """While active, SIGTERM (``kill PID``) asks the run to stop; ``check()`` then raises _Terminated.

    Without it, SIGTERM ends only the main process, and its worker processes and
    multiprocessing's resource tracker live on, holding stdout open. The handler only
    takes note: raising from it could interrupt the process pool while it holds a
    future's lock, and the pool's clean-up would then wait for that lock forever. The
    run raises from ``check()``, which simulate() calls through its progress callback
    at safe points (at least every quarter second while a pool runs).
    """

    requested: bool = False

    def check(self) -> None:
        if self.requested:
            raise _Terminated()

    def _note(self, signum: int, frame: object) -> None:
        self.requested = True

    @contextlib.contextmanager
    def active(self) -> Iterator[_StopOnSigterm]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = signal.signal(signal.SIGTERM, self._note)
        try:
            yield self
            self.check()  # a SIGTERM that came after the last check
        finally:
            signal.signal(signal.SIGTERM, previous)


def _split_names(raw: str) -> list[str]:
    """Comma-separated bot names; a part like ``depth=30`` continues the settings of the bot before it."""
    names: list[str] = []
    for part in (p.strip() for p in raw.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and names:
            names[-1] = f"{names[-1]},{part}"
        else:
            names.append(part)  # not lowercased: module:attr of a user's bot keeps its case
    return names


def _option_specs(cardset: Any) -> Mapping[str, Any]:
    specs = getattr(cardset, "options", None)
    return specs if isinstance(specs, Mapping) else {}


def _coerce_bool(key: str, value: str) -> bool:
    word = value.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise rulecore.RulecoreError(f"option {key!r} expects true or false, got {value!r}")


def _coerce_guess(value: str) -> Any:
    word = value.strip()
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    for kind in (int, float):
        try:
            return kind(word)
        except ValueError:
            pass
    return word


def _coerce(key: str, value: str, spec: Any) -> Any:
    """Turn the text of ``--option key=value`` into the type the option expects."""
    choices = getattr(spec, "choices", None)
    if choices:
        for choice in choices:
            if isinstance(choice, bool):
                if value.strip().lower() in (_TRUE_WORDS if choice else _FALSE_WORDS):
                    return choice
            elif str(choice) == value.strip():
                return choice
        raise rulecore.RulecoreError(
            f"option {key!r} must be one of {', '.join(str(c) for c in choices)}; got {value!r}"
        )
    default = getattr(spec, "default", None)
    if isinstance(default, bool):
        return _coerce_bool(key, value)
    if isinstance(default, int):
        try:
            return int(value.strip())
        except ValueError:
            raise rulecore.RulecoreError(
                f"option {key!r} expects a whole number, got {value!r}"
            ) from None
    if isinstance(default, float):
        try:
            return float(value.strip())
        except ValueError:
            raise rulecore.RulecoreError(f"option {key!r} expects a number, got {value!r}") from None
    if isinstance(default, str):
        return value
    return _coerce_guess(value)


def parse_options(pairs: Sequence[str], specs: Mapping[str, Any]) -> dict[str, Any]:
    """Parse ``key=value`` strings against a cardset's option specs.

    A pair without ``=`` is a usage error (:class:`typer.BadParameter`); an
    unknown key or a value of the wrong type is a :class:`rulecore.RulecoreError`.
    """
    options: dict[str, Any] = {}
    for raw in pairs:
        key, sep, value = raw.partition("=")
        key = key.strip()
        if not sep or not key:
            raise typer.BadParameter(
                f"expected key=value, got {raw!r}", param_hint="'--option'"
            )
        if specs and key not in specs:
            raise rulecore.RulecoreError(
                f"unknown option {key!r}; this cardset's options are: "
                f"{', '.join(sorted(specs)) or '(none)'}"
            )
        options[key] = _coerce(key, value, specs.get(key))
    return options


_ALLOW_HELP = ("A folder the cardset's include: and extends: may also read (repeatable; by default only its own "
               "folder tree and the built-in cardsets).")
AllowPath = Annotated[list[str] | None, typer.Option("--allow-path", help=_ALLOW_HELP)]
GameOptions = Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option key=value (repeatable).")]


def _load(game: str, allow: Sequence[str] | None = None) -> Any:
    """The cardset named or found at ``game``: a built-in name, a YAML file, or a folder with cardset.yaml."""
    if os.path.isdir(game):
        if not os.path.isfile(os.path.join(game, "cardset.yaml")):
            raise rulecore.RulecoreError(
                f"{game!r} is a folder without a cardset.yaml; give a cardset YAML file, a folder holding "
                f"cardset.yaml, or a built-in name ({_builtin_names()})"
            )
        game = str(Path(game) / "cardset.yaml")
    return rulecore.load_cardset(game, roots=allow) if allow else rulecore.load_cardset(game)


def _players_or_default(players: int | None, cardset: Any) -> int:
    """``--players``, checked against the cardset's range; the cardset's minimum when not given."""
    low, high = getattr(cardset, "min_players", None), getattr(cardset, "max_players", None)
    if players is None:
        return int(low or 2)
    if players < 1 or (isinstance(low, int) and isinstance(high, int) and not low <= players <= high):
        allowed = f"{getattr(cardset, 'name', 'this game')} is for {low} to {high} players" if isinstance(
            low, int) and isinstance(high, int) else "give a positive number"
        raise rulecore.RulecoreError(f"--players {players} is out of range: {allowed}")
    return players


# ---------------------------------------------------------------- simulate


def _option_value(value: Any) -> str:
    """An option value as it would be typed after ``--option key=``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "":
        return '""'
    return str(value)


def _options_text(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_option_value(v)}" for k, v in options.items())


def _results_table(result: SimulationResult) -> Table:
    mean_totals = result.mean_totals
    cooperative = result.cooperative
    table = Table()
    table.add_column("Seat", justify="right")
    table.add_column("Bot")
    if not cooperative:  # everyone wins or loses together: per-seat wins say nothing
        table.add_column("Wins", justify="right")
        table.add_column("Win %", justify="right")
    table.add_column("Mean score", justify="right")
    for seat in range(result.players):
        wins = [] if cooperative else [
            str(result.wins[seat]),
            f"{100.0 * result.win_rates[seat]:.1f}",
        ]
        table.add_row(
            str(seat),
            result.bots[seat],
            *wins,
            "-" if mean_totals is None else f"{mean_totals[seat]:.2f}",
        )
    return table


def _header(result: SimulationResult) -> Text:
    """The line above the results: cardset, games, players, seed and every option in force."""
    text = f"{result.cardset}: {result.games} games, {result.players} players, seed {result.seed}"
    if result.options_in_force:
        text += f"; {_options_text(result.options_in_force)}"
    return Text(text, style="bold")


def _team_line(result: SimulationResult) -> Text | None:
    rate = result.team_win_rate
    if rate is None:
        return None
    return Text(f"Team win rate: {100.0 * rate:.1f}% (all players win or lose together)", style="bold")


def _summary_table(result: SimulationResult) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_column("what")
    table.add_column("value")
    rounds = result.mean_rounds
    if not result.cooperative:
        table.add_row("Tied games", f"{result.ties} (a tie counts as a win for every tied winner)")
        if result.no_winner:
            table.add_row("Games without a winner", str(result.no_winner))
    if result.unfinished:
        table.add_row(
            "Unfinished games",
            f"{result.unfinished} (stopped after {result.max_decisions} decisions)",
        )
    if rounds is not None:  # a game without rounds gets no line, not "0.00"
        table.add_row(f"Mean {result.round_label}s", f"{rounds:.2f}")
    table.add_row("Decisions per game", f"{result.mean_decisions:.1f}")
    table.add_row("Games per second", f"{result.games_per_second:.1f}")
    table.add_row("Wall time (s)", f"{result.wall_time:.2f}")
    return table


def _cards_table(result: SimulationResult, limit: int) -> Table | None:
    """The most used cards (``limit`` of them); None if hidden or no game reports card uses."""
    stats = result.card_stats
    if limit <= 0 or not stats or not any(card.uses_per_game for card in stats):
        return None  # (a game whose cards have no abilities: every row would be 0)
    shown = stats[:limit]
    which = f"top {len(shown)} of {len(stats)}" if len(shown) < len(stats) else f"all {len(stats)}"
    table = Table(
        title=f"Cards ({which}, by uses per game)",
        caption="Used in: % of games where some seat used it. Win % when used: how often a "
        "seat won the games in which it used the card; usual: those seats' win % over all games.",
    )
    table.add_column("Card")
    table.add_column("Uses/game", justify="right")
    table.add_column("Used in %", justify="right")
    table.add_column("Win % when used", justify="right")
    table.add_column("Usual win %", justify="right")
    table.add_column("Diff", justify="right")
    for card in shown:
        used = card.seat_games_used > 0
        table.add_row(
            card.card,
            f"{card.uses_per_game:.2f}",
            f"{100.0 * card.used_share:.1f}",
            f"{100.0 * card.win_rate_when_used:.1f}" if used else "-",
            f"{100.0 * card.usual_win_rate:.1f}" if used else "-",
            # (+ 0.0 turns a rounded -0.0 into 0.0)
            f"{round(100.0 * (card.win_rate_when_used - card.usual_win_rate), 1) + 0.0:+.1f}"
            if used
            else "-",
        )
    return table


def _run_with_progress(
    run: Callable[..., SimulationResult], out: Console, games: int, check: Callable[[], None]
) -> SimulationResult:
    with Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=out,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done)
            check()

        return run(progress=progress)


@app.command("simulate")
def simulate_command(
    game: Annotated[str, typer.Argument(help="Built-in cardset name or path to a cardset YAML.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 1000,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players (default: cardset minimum).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Game i uses seed SEED+i.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=f"Comma-separated bot per seat, or one for all ({', '.join(BOT_NAMES)}, or module:attr "
            "for your own). ismcts takes settings: ismcts:iterations=200,c=0.7. The oracle bot sees "
            "every hidden card (upper bounds only).",
        ),
    ] = "random",
    option: GameOptions = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Processes (default: all cores).")
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", help=f"Where games run: {', '.join(BACKENDS)}.")
    ] = "local",
    max_decisions: Annotated[
        int,
        typer.Option("--max-decisions", min=1, help="Stop a game after this many decisions."),
    ] = DEFAULT_MAX_DECISIONS,
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON.")] = False,
    records: Annotated[
        bool, typer.Option("--records", help="With --json, include every game's record.")
    ] = False,
    cards: Annotated[
        int,
        typer.Option("--cards", min=0, help="Show the N most used cards (0: hide the table)."),
    ] = 15,
    allow_path: AllowPath = None,
) -> None:
    """Let bots play GAME many times and print balance statistics."""
    out = _stdout(wide_when_piped=True)
    with _clean_errors():
        cardset = _load(game, allow_path)
        options = parse_options(option or [], _option_specs(cardset))
        n_players = _players_or_default(players, cardset)
        bot_names = _split_names(bots) or ["random"]
        show_progress = not as_json and out.is_terminal and games > 1
        run = functools.partial(
            run_simulation,
            game,
            games=games,
            players=n_players,
            seed=seed,
            bots=bot_names,
            options=options,
            workers=workers,
            backend=cast(Backend, backend),  # checked by simulate()
            max_decisions=max_decisions,
            roots=allow_path or (),
        )
        try:
            with _StopOnSigterm().active() as stop:
                result = (
                    _run_with_progress(run, out, games, stop.check)
                    if show_progress
                    else run(progress=lambda done, total: stop.check())
                )
        except _Terminated:
            _fail("terminated", 143)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
    if as_json:
        typer.echo(json.dumps(result.to_dict(include_timings=True, include_records=records), indent=2))
        return
    out.print(_header(result))
    out.print(_results_table(result))
    team = _team_line(result)
    if team is not None:
        out.print(team)
    out.print(_summary_table(result))
    card_table = _cards_table(result, cards)
    if card_table is not None:
        out.print(card_table)


# ---------------------------------------------------------------- play


_VIEW_HIDDEN = frozenset({"decision", "card_names", "terminal", "result"})


@dataclass(frozen=True)
class _Look:
    """How to show a view: display names of ids, whose view it is, how many seats."""

    names: Mapping[str, str]
    seat: int | None
    players: int | None


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fmt(value: Any, look: _Look) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return look.names.get(value, value)
    return str(value)


def _label(key: Any, look: _Look) -> str:
    text = str(key).replace("_", " ")
    if look.seat is not None and text.endswith(f"/{look.seat}"):
        text += " (you)"
    return text


def _seat_name(seat: int, look: _Look) -> str:
    return "you" if seat == look.seat else f"seat {seat}"


def _per_seat(values: Sequence[Any], look: _Look) -> str:
    return ", ".join(f"{_seat_name(i, look)} {_fmt(v, look)}" for i, v in enumerate(values))


def _item_name(item: Mapping[str, Any], look: _Look) -> str | None:
    for key in ("name", "label", "title", "card", "id"):
        value = item.get(key)
        if _is_scalar(value) and value is not None:
            return _fmt(value, look)
    return None


def _render(value: Any, indent: int, lines: list[str], look: _Look) -> None:
    if isinstance(value, Mapping):
        for key, sub in value.items():
            _render_entry(_label(key, look), sub, indent, lines, look)
    elif isinstance(value, (list, tuple)):
        for i, sub in enumerate(value):
            _render_entry(f"[{i}]", sub, indent, lines, look)
    else:
        lines.append("  " * indent + _fmt(value, look))


def _render_entry(name: str, value: Any, indent: int, lines: list[str], look: _Look) -> None:
    pad = "  " * indent
    if _is_scalar(value):
        lines.append(f"{pad}{name}: {_fmt(value, look)}")
    elif isinstance(value, Mapping):
        _render_mapping(name, value, indent, lines, look)
    elif isinstance(value, (list, tuple)):
        _render_list(name, value, indent, lines, look)
    else:
        lines.append(f"{pad}{name}: {value!r}")


def _render_mapping(
    name: str, value: Mapping[str, Any], indent: int, lines: list[str], look: _Look
) -> None:
    pad = "  " * indent
    count = value.get("count")
    lists = [v for k, v in value.items() if k != "count"]
    if not value:
        lines.append(f"{pad}{name}: (empty)")
    elif _is_number(count) and len(lists) <= 1 and all(
        isinstance(v, (list, tuple)) and all(_is_scalar(x) for x in v) for v in lists
    ):
        # a zone-like {"count": n, "cards": [...]}: one line, contents only if visible
        shown = f": {', '.join(_fmt(x, look) for x in lists[0]) or '(none)'}" if lists else ""
        lines.append(f"{pad}{name} ({_fmt(count, look)}){shown}")
    elif all(_is_scalar(v) for v in value.values()) and len(value) <= 6:
        inline = ", ".join(f"{_label(k, look)} {_fmt(v, look)}" for k, v in value.items())
        lines.append(f"{pad}{name}: {inline}")
    else:
        lines.append(f"{pad}{name}:")
        _render(value, indent + 1, lines, look)


def _render_list(
    name: str, value: Sequence[Any], indent: int, lines: list[str], look: _Look
) -> None:
    pad = "  " * indent
    if not value:
        lines.append(f"{pad}{name}: (none)")
    elif look.players and len(value) == look.players and all(_is_number(v) for v in value):
        lines.append(f"{pad}{name}: {_per_seat(value, look)}")
    elif all(_is_scalar(v) for v in value):
        lines.append(f"{pad}{name} ({len(value)}): {', '.join(_fmt(v, look) for v in value)}")
    elif all(isinstance(v, Mapping) and _item_name(v, look) is not None for v in value):
        names = ", ".join(_item_name(v, look) or "?" for v in value)
        lines.append(f"{pad}{name} ({len(value)}): {names}")
    else:
        lines.append(f"{pad}{name} ({len(value)}):")
        _render(value, indent + 1, lines, look)


def _is_empty(value: Any) -> bool:
    """An empty mapping or list, or one holding only empty ones (e.g. no marks on any player)."""
    if isinstance(value, Mapping):
        return all(_is_empty(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_is_empty(v) for v in value)
    return False


def _look_for(view: Mapping[str, Any], seat: int | None, players: int | None) -> _Look:
    names = view.get("card_names")
    return _Look(
        names={str(k): str(v) for k, v in names.items()} if isinstance(names, Mapping) else {},
        seat=seat,
        players=players,
    )


def render_view(
    view: Mapping[str, Any], seat: int | None = None, players: int | None = None
) -> str:
    """Render a JSON-like ``state.view(seat)`` as indented readable text.

    Generic: nested mappings are indented, ``{"count": n, "cards": [...]}``
    entries become one line, ids found in a ``card_names`` table are shown by
    name, lists of one number per seat are labelled by seat, and the parts a
    prompt shows anyway (``decision``, ``card_names``, ...) and top-level
    entries with nothing in them (``vars: {}``, no marks on anyone) are left out.
    """
    look = _look_for(view, seat, players)
    shown = {k: v for k, v in view.items() if k not in _VIEW_HIDDEN and v is not None and not _is_empty(v)}
    lines: list[str] = []
    _render(shown, 0, lines, look)
    return "\n".join(lines)


def _event_text(event: Any) -> str:
    if isinstance(event, Mapping):
        text = event.get("text")
        if text:
            return str(text)
        return ", ".join(f"{k}={v}" for k, v in event.items())
    return str(event)


def _choices(state: Any) -> tuple[str, list[tuple[str, str]]]:
    """The prompt and (action, label) pairs of the human's decision."""
    decision = state.decision
    if decision is not None and getattr(decision, "options", None):
        pairs = [(str(o.action), str(o.label)) for o in decision.options]
        return str(getattr(decision, "prompt", "") or "Your choice"), pairs
    return "Your choice", [(a, a) for a in state.legal_actions()]


_TABLE_WORDS = frozenset({"t", "table"})
_HELP_WORDS = frozenset({"?", "help"})
_COMMANDS_HELP = (
    "Type an option's number or the start of its name (any case); t or table: the whole table; "
    "? CARD or help CARD: a card's text; q: quit."
)


def _match_option(raw: str, pairs: Sequence[tuple[str, str]]) -> tuple[int | None, str]:
    """The index of the option typed as a number or a name (an unambiguous prefix, any case).

    Returns (index, "") or (None, a message saying what is wrong).
    """
    count = len(pairs)
    if raw.isdigit() or (raw.startswith("-") and raw[1:].isdigit()):
        number = int(raw)
        if 1 <= number <= count:
            return number - 1, ""
        return None, f"{number} is out of range; type a number from 1 to {count}."
    word = " ".join(raw.split()).casefold()
    exact = [i for i, (_, label) in enumerate(pairs) if " ".join(label.split()).casefold() == word]
    found = exact or [i for i, (_, label) in enumerate(pairs) if label.casefold().startswith(word)]
    if len({pairs[i][1] for i in found}) == 1:
        return found[0], ""
    if not found:
        return None, f"{raw!r} is neither an option's number (1 to {count}) nor the start of its name."
    names = ", ".join(pairs[i][1] for i in found[:6]) + (", ..." if len(found) > 6 else "")
    return None, f"{raw!r} fits {len(found)} options ({names}); type more of the name, or its number."


def _card_lookup(cardset: Any, name: str) -> tuple[str | None, str]:
    """(card id, "") for a card typed by id, name or an unambiguous name prefix; else (None, why)."""
    cards = getattr(cardset, "cards", None)
    if not isinstance(cards, Mapping) or not cards:
        return None, "this game has no card texts to show."
    found = find_entry(cardset, name)
    if found is not None and found[0] == "card":
        return found[1], ""
    word = name.casefold()
    starts = [cid for cid, card in cards.items() if str(getattr(card, "name", cid)).casefold().startswith(word)]
    if len(starts) == 1:
        return starts[0], ""
    guess = suggest(cardset, name)
    hint = f"did you mean '{guess}'?" if guess else "its cards: " + ", ".join(
        str(getattr(c, "name", cid)) for cid, c in cards.items()
    )
    return None, f"no card {name!r}; {hint}"


def _card_text(cardset: Any, cid: str) -> str:
    """A card as a player reads it: name, copies, tags, text, scoring and each ability's effect text."""
    card = cardset.cards[cid]
    lines = [f"{card.name} (x{card.count})" + (f"  tags: {', '.join(card.tags)}" if card.tags else "")]
    if card.text:
        lines.append("  " + " ".join(card.text.split()))
    for key, value in card.props.items():
        lines.append(f"  {key}: {', '.join(map(str, value)) if isinstance(value, tuple) else value}")
    if card.scoring:
        lines.append("  scores for copies: " + ", ".join(f"{i}: {v}" for i, v in enumerate(card.scoring, 1)))
    for ability in card.abilities.values():
        head = f"  {ability.label or ability.name}"
        if ability.on is not None:
            head += f" (answers '{ability.on}' from {ability.zone})"
        lines.append(head + (f": {' '.join(ability.text.split())}" if ability.text else ""))
        if ability.when is not None:
            lines.append(f"    when {render_expr(ability.when)}")
        lines.extend("    " + line for line in render_block(ability.body).splitlines())
    return "\n".join(lines)


@dataclass
class _Screen:
    """What the person at seat 0 has been shown: events read so far and the last table."""

    out: Console
    cardset: Any
    players: int
    events: int = 0
    table: list[str] | None = None

    def show_events(self, state: Any) -> None:
        events = list(state.events(HUMAN_SEAT))
        for event in events[self.events:]:
            self.out.print(Text(f"  • {_event_text(event)}"))
        self.events = len(events)

    def show_table(self, lines: list[str]) -> None:
        self.out.rule(f"Your view (seat {HUMAN_SEAT})")
        self.out.print(Text("\n".join(lines)), soft_wrap=True)

    def show_changes(self, state: Any) -> None:
        """The whole table the first time; after that only its lines that changed."""
        lines = render_view(state.view(HUMAN_SEAT), HUMAN_SEAT, self.players).splitlines()
        if self.table is None:
            self.show_table(lines)
        else:
            changed = _changed_lines(self.table, lines)
            if changed:
                self.out.print(Text("Changed (t: the whole table):", style="dim"))
                self.out.print(Text("\n".join("  " + line for line in changed)), soft_wrap=True)
        self.table = lines

    def ask(self, prompt: str, pairs: Sequence[tuple[str, str]]) -> str | None:
        """Ask until an option is chosen by number or name; None when the person quits."""
        self.out.print(Text(prompt, style="bold"))
        for number, (_, label) in enumerate(pairs, 1):
            self.out.print(Text(f"  {number:>2}. {label}"))
        while True:
            raw = " ".join(self.out.input(f"Choose 1-{len(pairs)} or a name (? help, q quit): ").split())
            word, _, rest = raw.partition(" ")
            if raw.lower() in _QUIT_WORDS:
                return None
            if not raw:
                self.out.print(Text(f"Please type a number from 1 to {len(pairs)}, or an option's name."))
            elif raw.lower() in _TABLE_WORDS:
                self.show_table(self.table or [])
            elif raw.lower() in _HELP_WORDS:
                self.out.print(Text(_COMMANDS_HELP))
            elif word.lower() in _HELP_WORDS or raw.startswith("?"):
                name = rest if word.lower() in _HELP_WORDS else raw[1:].strip()
                cid, why = _card_lookup(self.cardset, name)
                self.out.print(Text(_card_text(self.cardset, cid) if cid is not None else why), soft_wrap=True)
            else:
                index, why = _match_option(raw, pairs)
                if index is not None:
                    return pairs[index][0]
                self.out.print(Text(why))


def _changed_lines(old: Sequence[str], new: Sequence[str]) -> list[str]:
    """The lines of the new table that are not in the old one, each under its (indented) headings."""

    def keyed(lines: Sequence[str]) -> list[tuple[tuple[str, ...], str]]:
        out: list[tuple[tuple[str, ...], str]] = []
        parents: list[tuple[int, str]] = []
        for line in lines:
            indent = len(line) - len(line.lstrip(" "))
            while parents and parents[-1][0] >= indent:
                parents.pop()
            out.append((tuple(p for _, p in parents), line))
            parents.append((indent, line))
        return out

    before = set(keyed(old))
    shown: list[str] = []
    printed: set[tuple[str, ...]] = set()
    for path, line in keyed(new):
        if (path, line) in before:
            continue
        for depth in range(len(path)):  # the headings above it, once each
            if path[: depth + 1] not in printed:
                printed.add(path[: depth + 1])
                shown.append(path[depth])
        printed.add(path + (line,))
        shown.append(line)
    return shown


def _score_table(result: Mapping[str, Any], players: int, round_label: str = "round") -> Table | None:
    """Round-by-round scores and totals per seat, when the result has them."""
    totals = result.get("totals")
    rounds = result.get("round_scores")
    if not isinstance(totals, (list, tuple)) and not isinstance(rounds, (list, tuple)):
        return None
    look = _Look(names={}, seat=HUMAN_SEAT, players=players)
    table = Table(title="Scores")
    table.add_column("")
    for seat in range(players):
        table.add_column(_seat_name(seat, look), justify="right")
    for number, row in enumerate(rounds if isinstance(rounds, (list, tuple)) else [], 1):
        if isinstance(row, (list, tuple)):
            table.add_row(f"{round_label[:1].upper()}{round_label[1:]} {number}", *(_fmt(v, look) for v in row))
    if isinstance(totals, (list, tuple)):
        table.add_row("Total", *(_fmt(v, look) for v in totals), style="bold")
    return table


def _show_result(out: Console, state: Any, players: int) -> None:
    result = state.result()
    out.rule("Game over")
    winners = list(result.get("winners", []))
    if winners:
        names = ", ".join("you" if w == HUMAN_SEAT else f"seat {w}" for w in winners)
        out.print(Text(f"Winner{'s' if len(winners) > 1 else ''}: {names}", style="bold"))
    else:
        out.print(Text("No winner.", style="bold"))
    label = getattr(getattr(getattr(state, "rules", None), "cardset", None), "round_label", "round")
    table = _score_table(result, players, str(label))
    if table is not None:
        out.print(table)
    shown = {"totals", "round_scores", "winners"} if table is not None else {"winners"}
    extra = {k: v for k, v in result.items() if k not in shown}
    if extra:
        out.print(Text(render_view(extra, HUMAN_SEAT, players)))


def _play_loop(screen: _Screen, state: Any, bots: Mapping[int, Bot]) -> bool:
    """Run the game to the end; False if the person quit."""
    while not state.is_terminal():
        seat = state.current_player
        if seat == HUMAN_SEAT:
            screen.show_events(state)
            screen.show_changes(state)
            prompt, pairs = _choices(state)
            action = screen.ask(prompt, pairs)
            if action is None:
                return False
            state.apply(action)
        elif seat in bots:
            state.apply(bots[seat].choose(state))
        else:
            raise rulecore.RulecoreError(f"the game asked seat {seat!r} to decide, which has no player")
    screen.show_events(state)
    _show_result(screen.out, state, screen.players)
    return True


@app.command("play")
def play_command(
    game: Annotated[str, typer.Argument(help="Built-in cardset name or path to a cardset YAML.")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players including you (default: cardset minimum).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Game seed (default: random).")] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=f"Comma-separated bot for each other seat, or one for all ({', '.join(BOT_NAMES)}, or "
            "module:attr for your own; oracle sees every hidden card).",
        ),
    ] = "random",
    option: GameOptions = None,
    allow_path: AllowPath = None,
) -> None:
    """Play GAME in the terminal as seat 0 against bots."""
    out = _stdout()
    with _clean_errors():
        cardset = _load(game, allow_path)
        options = parse_options(option or [], _option_specs(cardset))
        n_players = _players_or_default(players, cardset)
        game_obj = rulecore.Game(cardset, players=n_players, options=options)
        names = _split_names(bots) or ["random"]
        others = list(range(1, n_players))
        if len(names) == 1:
            names = names * len(others)
        if len(names) != len(others):
            raise rulecore.RulecoreError(
                f"{len(names)} bots given for {len(others)} other seats; give one bot "
                f"for each other seat or a single bot for all of them"
            )
        game_seed = secrets.randbelow(2**31) if seed is None else seed
        bot_map: dict[int, Bot] = {
            s: make_bot(name, bot_seed(game_seed, s)) for s, name in zip(others, names)
        }
        state = game_obj.new_game(seed=game_seed)
        out.print(
            Text(
                f"{getattr(cardset, 'name', game)}: you are seat {HUMAN_SEAT} of {n_players}; "
                f"seed {game_seed}; bots: "
                + ", ".join(f"seat {s} {bot_map[s].name}" for s in others),
                style="bold",
            )
        )
        try:
            finished = _play_loop(_Screen(out, cardset, n_players), state, bot_map)
        except EOFError:
            out.print(Text(f"\nInput closed; game abandoned (seed {game_seed})."))
            return
        except KeyboardInterrupt:
            out.print(Text(f"\nInterrupted; game abandoned (seed {game_seed})."))
            raise typer.Exit(130) from None
        if not finished:
            out.print(Text(f"You left the game (seed {game_seed})."))


# ---------------------------------------------------------------- validate, explain, schema


_FORMATS = ("text", "json")


@app.command("validate")
def validate_command(
    paths: Annotated[
        list[str],
        typer.Argument(help="Cardset files or folders (every cardset.yaml / *.yaml cardset in a folder), or built-in names."),
    ],
    output_format: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
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
        _fail(f"--format must be one of {', '.join(_FORMATS)} (got {output_format!r})", 2)
    try:
        reports = validate_paths(paths, games=not no_games, roots=allow_path or ())
    except UsageError as exc:
        _fail(str(exc), 2)
    if not reports:
        _fail("no cardset files found in " + ", ".join(paths), 2)
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    failed = errors > 0 or (strict and warnings > 0)
    if output_format == "json":
        typer.echo(json.dumps({"ok": not failed, "files": [r.to_dict() for r in reports], "errors": errors,
                               "warnings": warnings}, indent=2))
    else:
        out = _stdout()
        for report in reports:
            for problem in report.problems:
                out.print(Text(problem.render()), soft_wrap=True)
                out.print()
        files = f"{len(reports)} file{'s' if len(reports) != 1 else ''}"
        if errors or warnings:
            word = lambda k, w: f"{k} {w}{'s' if k != 1 else ''}"  # noqa: E731
            out.print(Text(f"{word(errors, 'error')}, {word(warnings, 'warning')} in {files}",
                           style="bold red" if failed else "bold yellow"))
        else:
            names = ", ".join(r.cardset or r.file for r in reports)
            out.print(Text(f"ok: {files} checked ({names}), no problems", style="bold green"))
    if failed:
        raise typer.Exit(1)


@app.command("explain")
def explain_command(
    game: Annotated[str, typer.Argument(help="Built-in cardset name or path to a cardset YAML.")],
    card: Annotated[
        str | None,
        typer.Argument(help="A card (id or name), or a procedure, function or phase; none: the whole game."),
    ] = None,
    allow_path: AllowPath = None,
) -> None:
    """Show what the engine understood: a card's effect tree and its text rendered back, or a game summary."""
    out = _stdout()
    with _clean_errors():
        cardset = _load(game, allow_path)
        if card is None:
            out.print(Text(explain_game(cardset)), soft_wrap=True)
            return
        found = find_entry(cardset, card)
        if found is None:
            guess = suggest(cardset, card)
            hint = f"; did you mean '{guess}'?" if guess else f"; its cards: {', '.join(cardset.cards)}"
            raise rulecore.RulecoreError(f"'{cardset.name}' has no card, procedure, function or phase '{card}'{hint}")
        out.print(Text(explain_entry(cardset, *found)), soft_wrap=True)


@app.command("schema")
def schema_command(
    part: Annotated[
        bool, typer.Option("--part", help="The schema of a file named under 'include:' (cards:, procedures:, ...).")
    ] = False,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write to this file instead of printing.")
    ] = None,
) -> None:
    """Print the JSON Schema of cardset files, for an editor's YAML language server (see docs/cardset-reference.md)."""
    text = json.dumps(editor_schema(part), indent=2)
    if output is None:
        typer.echo(text)
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror}", 2)


app.command("serve")(serve_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point (``rulecore`` / ``python -m rulecore``)."""
    app(args=list(argv) if argv is not None else None, prog_name="rulecore")


if __name__ == "__main__":  # pragma: no cover
    main()
