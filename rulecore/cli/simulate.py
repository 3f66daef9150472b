"""``rulecore simulate``: bots play GAME many times; a progress bar, then the results table, the
summary and the most used cards (or the results as JSON). SIGTERM and Ctrl-C stop the worker
processes before the command exits."""

from __future__ import annotations

import contextlib
import functools
import json
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, cast

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

from rulecore.bots import BOT_NAMES
from rulecore.cardset.explain import best_total
from rulecore.cli.common import (
    AllowPath,
    GameArgument,
    GameOptions,
    clean_errors,
    counted,
    fail,
    load_game,
    players_or_default,
    stdout_console,
)
from rulecore.cli.options import option_specs, options_text, parse_options, split_names
from rulecore.simulate import BACKENDS, DEFAULT_MAX_DECISIONS, Backend, GameRecord, SimulationResult
from rulecore.simulate import simulate as run_simulation


def _results_table(result: SimulationResult, best: str | None = None) -> Table:
    """Wins, win rate and mean score per seat; ``best == 'lowest'``: the lowest score wins, and the table says so."""
    mean_totals = result.mean_totals
    cooperative = result.cooperative
    table = Table()
    table.add_column("Seat", justify="right")
    table.add_column("Bot")
    if not cooperative:  # everyone wins or loses together: per-seat wins say nothing
        table.add_column("Wins", justify="right")
        table.add_column("Win %", justify="right")
    table.add_column("Mean score (lowest wins)" if best == "lowest" else "Mean score", justify="right")
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
    text = f"{result.cardset}: {counted(result.games, 'game')}, {counted(result.players, 'player')}, seed {result.seed}"
    if result.options_in_force:
        text += f"; {options_text(result.options_in_force)}"
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
            f"{result.unfinished} (stopped after {counted(result.max_decisions, 'decision')})",
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
        return None  # (nothing counted: every row would be 0)
    shown = stats[:limit]
    which = f"top {len(shown)} of {len(stats)}" if len(shown) < len(stats) else f"all {len(stats)}"
    table = Table(
        title=f"Cards ({which}, by uses per game)",
        caption="A use: an ability of the card run, or, where no card has abilities, a player's choice of "
        "the card. Used in: % of games where some seat used it. Win % when used: how often a "
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


@contextlib.contextmanager
def _records_file(path: Path | None) -> Iterator[Callable[[GameRecord], None] | None]:
    """A writer of one JSON line per game record to ``path`` (None: no records are written)."""
    if path is None:
        yield None
        return
    try:
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        fail(f"cannot write the records to {str(path)!r}: {exc.strerror or exc}")
    with handle:

        def write(record: GameRecord) -> None:
            handle.write(json.dumps(record.to_dict()) + "\n")

        yield write


def simulate_command(
    game: GameArgument,
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", min=1, help="Number of games.")] = 1000,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", metavar="P", show_default=False, help="Players (default: cardset minimum)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="SEED", help="Game i uses seed SEED+i.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOTS",
            help=f"Comma-separated bot per seat, or one for all ({', '.join(BOT_NAMES)}, or module:attr "
            "for your own). ismcts takes settings: ismcts:iterations=200,c=0.7. The oracle bot sees "
            "every hidden card (upper bounds only).",
        ),
    ] = "random",
    option: GameOptions = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", metavar="W", min=1, show_default=False, help="Processes (default: all cores)."),
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", metavar="|".join(BACKENDS), help=f"Where games run: {', '.join(BACKENDS)}.")
    ] = "local",
    max_decisions: Annotated[
        int,
        typer.Option("--max-decisions", metavar="M", min=1, help="Stop a game after this many decisions."),
    ] = DEFAULT_MAX_DECISIONS,
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON.")] = False,
    records: Annotated[
        Path | None,
        typer.Option(
            "--records",
            metavar="FILE",
            show_default=False,
            help="Write every game's record to FILE as JSON lines, one per game in game order, as they finish.",
        ),
    ] = None,
    cards: Annotated[
        int,
        typer.Option("--cards", metavar="N", min=0, help="Show the N most used cards (0: hide the table)."),
    ] = 15,
    allow_path: AllowPath = None,
) -> None:
    """Let bots play GAME many times and print balance statistics."""
    out = stdout_console(wide_when_piped=True)
    with clean_errors(), _records_file(records) as on_record:
        cardset = load_game(game, allow_path)
        options = parse_options(option or [], option_specs(cardset))
        n_players = players_or_default(players, cardset)
        bot_names = split_names(bots) or ["random"]
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
            on_record=on_record,
        )
        try:
            with _StopOnSigterm().active() as stop:
                result = (
                    _run_with_progress(run, out, games, stop.check)
                    if show_progress
                    else run(progress=lambda done, total: stop.check())
                )
        except _Terminated:
            fail("terminated", 143)
        except KeyboardInterrupt:
            fail("interrupted", 130)
    if as_json:
        typer.echo(json.dumps(result.to_dict(include_timings=True), indent=2))
        return
    out.print(_header(result))
    out.print(_results_table(result, best_total(cardset)))
    team = _team_line(result)
    if team is not None:
        out.print(team)
    out.print(_summary_table(result))
    card_table = _cards_table(result, cards)
    if card_table is not None:
        out.print(card_table)
