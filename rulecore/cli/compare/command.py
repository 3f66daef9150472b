"""``rulecore compare BASE [VARIANT]``: the same games (paired seeds) played on two sides -- two cardsets,
two option settings or two bot line-ups -- and a table of every figure with both values, the difference and
its 95% interval; ``--json``, ``--report FILE.html``, ``--until-clear``. Ctrl-C prints what was measured."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from rulecore.cli.common import AllowPath, GameOptions, clean_errors, counted, fail, load_game, players_or_default
from rulecore.cli.common import stderr_console, stdout_console
from rulecore.cli.options import option_specs, parse_options, split_names
from rulecore.errors import doc_ref
from rulecore.cli.simulate import _StopOnSigterm, _Terminated
from rulecore.simulate import BACKENDS, DEFAULT_MAX_DECISIONS, Comparison, ComparisonInterrupted, Figure, compare
from rulecore.simulate.paired.figures import MIN_SUPPORT, PairedTally
from rulecore.simulate.paired.report import write_report
from rulecore.simulate.paired.run import DEFAULT_WATCH

def _value(figure: Figure, x: float | None, signed: bool = False) -> str:
    if x is None or math.isnan(x):
        return "-"
    if figure.kind in ("rate", "lift") or figure.name in ("first_player_advantage", "decisiveness", "drama"):
        return f"{100 * x:+.1f}%" if signed else f"{100 * x:.1f}%"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _label(figure: Figure) -> str:
    return figure.name if figure.seat is None else f"{figure.name} (seat {figure.seat})"


def _direction(figure: Figure) -> str:
    """Whether the change is for the better, only where the game says which way is better."""
    if not figure.clear or figure.better is None or figure.difference is None:
        return ""
    good = figure.difference < 0 if figure.better == "lower" else figure.difference > 0
    return f"better ({figure.better} wins)" if good else f"worse ({figure.better} wins)"


def figures_table(comparison: Comparison, cards: int = 10) -> Table:
    """Every figure: base, variant, difference, its interval, '*' when the interval excludes zero."""
    sequential = comparison.watched and comparison.level != 0.95
    span = f"{100 * comparison.level:.3g}% interval" if sequential else "95% interval"
    table = Table(title=f"{comparison.base}  vs  {comparison.variant}",
                  caption=f"* the interval of the difference excludes zero (a card's: with {MIN_SUPPORT} games or pairs "
                          "behind it). "
                          "Rates: Wilson intervals; differences: "
                          f"paired bootstrap ({doc_ref('docs/compare.md')}).")
    for column, justify in (("Figure", "left"), ("Base", "right"), ("Variant", "right"),
                            ("Difference", "right"), (span, "right"), ("", "left"), ("Better?", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    card_rows: dict[str, list[Figure]] = {"card_uses": [], "card_lift": []}
    for figure in comparison.figures:
        kind = figure.name.split(":")[0]
        if kind in card_rows:
            card_rows[kind].append(figure)
    shown = {f.name for rows in card_rows.values()
             for f in sorted(rows, key=lambda f: -abs(f.difference or 0.0))[:cards]}
    for figure in comparison.figures:
        if figure.name.split(":")[0] in card_rows and figure.name not in shown:
            continue
        interval = "-" if figure.low is None or figure.high is None else \
            f"[{_value(figure, figure.low, True)}, {_value(figure, figure.high, True)}]"
        table.add_row(_label(figure), _value(figure, figure.base), _value(figure, figure.variant),
                      _value(figure, figure.difference, True), interval, "*" if figure.clear else "",
                      _direction(figure), style="bold" if figure.clear else None)
    return table


def print_comparison(out: Console, comparison: Comparison, cards: int) -> None:
    out.print(Text(f"{counted(comparison.games, 'paired game')} (seed {comparison.seed}, game i of both sides "
                   f"with seed {comparison.seed}+i), {counted(comparison.players, 'player')}", style="bold"))
    out.print(figures_table(comparison, cards))
    if comparison.watched:
        out.print(f"--until-clear: {counted(comparison.looks, 'look')} at {comparison.games} of {comparison.budget} "
                  f"games; watched: {', '.join(comparison.watched)}")
        if comparison.unclear:
            out.print(Text(f"stayed unclear: {', '.join(comparison.unclear)}", style="yellow"))
        else:
            out.print(Text("every watched figure is clear", style="green"))


def _quick(tally: PairedTally) -> str:
    """The headline differences so far with a rough 95% interval (normal approximation, for the progress line)."""
    b, v = tally.rows()
    if len(b) < 2:
        return ""
    col = tally.layout.index
    names = {"team": "team"} if tally.cooperative() else {
        f"win{s}": f"seat {s}" for s in range(tally.layout.players)}
    parts = []
    for name, label in names.items():
        d = v[:, col[name]] - b[:, col[name]]
        mean, half = d.mean(), 1.96 * d.std(ddof=1) / math.sqrt(len(d))
        parts.append(f"{label}: {100 * mean:+.1f} [{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]")
    return "  ".join(parts)


def _with_progress(run: Callable[..., Comparison], out: Console, games: int, check: Callable[[], None]) -> Comparison:
    with Progress(TextColumn("[bold]comparing"), BarColumn(bar_width=20), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[now]}"), console=out, transient=True) as bar:
        task = bar.add_task("games", total=games, now="")

        def progress(tally: PairedTally, total: int) -> None:
            bar.update(task, completed=tally.done, now=f"win rate differences {_quick(tally)}" if tally.done > 1 else "")
            check()

        return run(progress=progress)


def compare_command(
    base: Annotated[str, typer.Argument(metavar="BASE", show_default=False,
                                        help="Built-in cardset name or path to a cardset YAML.")],
    variant: Annotated[str | None, typer.Argument(
        metavar="[VARIANT]", show_default=False,
        help="The variant cardset (e.g. a file with extends: BASE); leave out to compare options or bots of BASE.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", min=1, help="Paired games (the budget).")] = 200,
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="P", show_default=False,
                                                help="Players (default: cardset minimum).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="SEED", help="Game i of both sides uses seed SEED+i.")] = 0,
    bots: Annotated[str, typer.Option("--bots", "-b", metavar="BOTS",
                                      help="Bot per seat, or one for all, on both sides (as in simulate).")] = "random",
    base_bots: Annotated[str | None, typer.Option("--base-bots", metavar="BOTS", show_default=False,
                                                  help="Bots of the base side only.")] = None,
    variant_bots: Annotated[str | None, typer.Option("--variant-bots", metavar="BOTS", show_default=False,
                                                     help="Bots of the variant side only.")] = None,
    option: GameOptions = None,
    base_option: Annotated[list[str] | None, typer.Option("--base-option", metavar="KEY=VALUE", show_default=False,
                                                          help="An option of the base side only (repeatable).")] = None,
    variant_option: Annotated[list[str] | None, typer.Option(
        "--variant-option", metavar="KEY=VALUE", show_default=False,
        help="An option of the variant side only (repeatable).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", metavar="W", min=1, show_default=False,
                                                help="Processes (default: all cores).")] = None,
    backend: Annotated[str, typer.Option("--backend", metavar="|".join(BACKENDS),
                                         help=f"Where games run: {', '.join(BACKENDS)}.")] = "local",
    max_decisions: Annotated[int, typer.Option("--max-decisions", metavar="M", min=1,
                                               help="Stop a game after this many decisions.")] = DEFAULT_MAX_DECISIONS,
    until_clear: Annotated[bool, typer.Option(
        "--until-clear", help="Play in batches and stop once every watched figure is clear (alpha spending).")] = False,
    batch: Annotated[int | None, typer.Option("--batch", metavar="B", min=1, show_default=False,
                                              help="Games per batch with --until-clear (default: a tenth).")] = None,
    watch: Annotated[list[str] | None, typer.Option(
        "--watch", metavar="FIGURE", show_default=False,
        help=f"A figure --until-clear waits for (repeatable; default: {', '.join(DEFAULT_WATCH)}).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    report: Annotated[str | None, typer.Option(
        "--report", metavar="FILE", show_default=False,
        help="Write a self-contained HTML page (FILE.html) with the table and plots.")] = None,
    cards: Annotated[int, typer.Option("--cards", metavar="N", min=0,
                                       help="Card rows to show per card figure (largest differences).")] = 10,
    allow_path: AllowPath = None,
) -> None:
    """Play the same games on BASE and VARIANT and show which figures moved, by how much, how surely."""
    out = stdout_console(wide_when_piped=True)
    comparison: Comparison | None = None
    code = 0
    with clean_errors():
        base_cs = load_game(base, allow_path)
        variant_cs = load_game(variant, allow_path) if variant is not None else base_cs
        n_players = players_or_default(players, base_cs)
        run = functools.partial(
            compare, base, variant, games=games, players=n_players, seed=seed, bots=split_names(bots) or ["random"],
            base_bots=split_names(base_bots) if base_bots else None,
            variant_bots=split_names(variant_bots) if variant_bots else None,
            options=parse_options(option or [], option_specs(base_cs)),
            base_options=parse_options(base_option or [], option_specs(base_cs)),
            variant_options=parse_options(variant_option or [], option_specs(variant_cs)),
            workers=workers, backend=backend, max_decisions=max_decisions, until_clear=until_clear, batch=batch,
            watch=tuple(watch) if watch else DEFAULT_WATCH, roots=allow_path or ())
        try:
            with _StopOnSigterm().active() as stop:
                if not as_json and out.is_terminal:
                    comparison = _with_progress(run, out, games, stop.check)
                else:
                    comparison = run(progress=lambda tally, total: stop.check())
        except ComparisonInterrupted as exc:
            comparison, code = exc.partial, 143 if isinstance(exc.__context__, _Terminated) else 130
        except _Terminated:
            fail("terminated", 143)
    if comparison is None:
        fail("interrupted before any game was measured", code or 130)
    if as_json:
        typer.echo(json.dumps(comparison.to_json(), indent=2))
    else:
        print_comparison(out, comparison, cards)
    if report is not None:
        _write_report(comparison, report, stderr_console() if as_json else out)
    if code:
        fail(f"interrupted after {counted(comparison.games, 'paired game')} of {comparison.budget}: "
             "the figures above are what was measured so far", code)


def _write_report(comparison: Comparison, path: str, out: Console) -> None:
    with clean_errors():
        write_report(comparison, path)
    out.print(f"report: {path}")
