"""``rulecore compare --report FILE.html``: one self-contained HTML page (no script, no link, no network)
with the figures table and plots drawn by matplotlib and embedded as inline SVG: win rate by seat with
the intervals of both sides, game-length distributions overlaid, per-card lift, and the lead-over-time
curves. matplotlib is optional (``rulecore[report]``) and imported only when a report is written."""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Sequence
from typing import Any

import rulecore

from .figures import MIN_SUPPORT, Figure
from .games import LEAD_BINS
from .run import Comparison

_COLOURS = ("#4c72b0", "#dd8452")  # base, variant

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.clear td { font-weight: bold; }
figure { display: inline-block; margin: 1em; vertical-align: top; }
figcaption { font-size: 0.9em; color: #555; max-width: 36em; }
"""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as exc:
        raise rulecore.RulecoreError(
            "--report needs the optional package 'matplotlib': pip install 'rulecore[report]' "
            "(or pip install matplotlib)") from exc
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "path"  # text as shapes: no font to fetch
    matplotlib.rcParams["svg.hashsalt"] = "rulecore-compare"  # the same page for the same figures
    import matplotlib.pyplot as plt

    return plt


def _svg(plt: Any, fig: Any) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.DOTALL)  # matplotlib's RDF credits
    return text[text.index("<svg"):]  # inline: without the XML prologue and DOCTYPE


def _errors(value: float | None, interval: tuple[float, float] | None) -> tuple[float, float]:
    if value is None or interval is None:
        return 0.0, 0.0
    return max(0.0, value - interval[0]), max(0.0, interval[1] - value)


def _win_rates(plt: Any, c: Comparison) -> str:
    rows = [f for f in c.figures if f.name in ("win_rate", "team_win_rate")]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    labels = [f"seat {f.seat}" if f.seat is not None else "team" for f in rows]
    for side, (name, colour, offset) in enumerate(((c.base, _COLOURS[0], -0.15), (c.variant, _COLOURS[1], 0.15))):
        values = [(f.base if side == 0 else f.variant) or 0.0 for f in rows]
        errs = [_errors(f.base if side == 0 else f.variant, f.base_interval if side == 0 else f.variant_interval)
                for f in rows]
        ax.errorbar([i + offset for i in range(len(rows))], values, yerr=list(zip(*errs)) if errs else None,
                    fmt="o", color=colour, capsize=4, label=name)
    ax.set_xticks(range(len(rows)), labels)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    return _svg(plt, fig)


def _lengths(plt: Any, c: Comparison) -> str:
    b, v = c.tally.rows()
    keys = [k for k in ("decisions", "turns", "rounds") if not all(math.isnan(x) for x in b[:, c.layout.index[k]])]
    fig, axes = plt.subplots(1, len(keys), figsize=(4 * len(keys), 3), squeeze=False)
    for ax, key in zip(axes[0], keys):
        column = c.layout.index[key]
        data = [rows[:, column][~(rows[:, column] != rows[:, column])] for rows in (b, v)]
        both = [x for d in data for x in d]
        if both:
            bins = min(30, max(1, int(max(both) - min(both)) + 1))
            for d, name, colour in zip(data, (c.base, c.variant), _COLOURS):
                ax.hist(d, bins=bins, range=(min(both), max(both) + 1), alpha=0.5, color=colour, label=name)
        ax.set_xlabel(f"{key} per finished game")
        ax.set_ylabel("games")
    axes[0][0].legend(fontsize=8)
    return _svg(plt, fig)


def _lifts(plt: Any, c: Comparison) -> str | None:
    rows = [f for f in c.figures if f.name.startswith("card_lift:")]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(6, 0.35 * len(rows) + 1.2))
    for side, (name, colour, offset) in enumerate(((c.base, _COLOURS[0], -0.15), (c.variant, _COLOURS[1], 0.15))):
        values = [(f.base if side == 0 else f.variant) for f in rows]
        errs = [_errors(x, f.base_interval if side == 0 else f.variant_interval) for x, f in zip(values, rows)]
        ys = [i + offset for i, x in enumerate(values) if x is not None]
        xs = [x for x in values if x is not None]
        xerr = [e for e, x in zip(errs, values) if x is not None]
        if xs:
            ax.errorbar(xs, ys, xerr=list(zip(*xerr)), fmt="o", color=colour, capsize=3, label=name)
    ax.axvline(0, color="#999", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [f.name.split(":", 1)[1] for f in rows])
    ax.set_xlabel("win-rate lift of using the card (95% bootstrap interval)")
    ax.legend(fontsize=8)
    return _svg(plt, fig)


def _lead(plt: Any, c: Comparison) -> str | None:
    b, v = c.tally.rows()
    columns = [c.layout.index[f"lead{i}"] for i in range(LEAD_BINS)]
    curves = []
    for rows in (b, v):
        curve = []
        for column in columns:
            values = [x for x in rows[:, column] if not math.isnan(x)]
            curve.append(sum(values) / len(values) if values else math.nan)
        curves.append(curve)
    if all(math.isnan(x) for curve in curves for x in curve):
        return None
    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [(i + 0.5) / LEAD_BINS for i in range(LEAD_BINS)]
    for curve, name, colour in zip(curves, (c.base, c.variant), _COLOURS):
        ax.plot(xs, curve, marker="o", color=colour, label=name)
    ax.set_xlabel("share of the game played (decisions)")
    ax.set_ylabel("eventual winner leads (heuristic)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    return _svg(plt, fig)


def _number(figure: Figure, x: float | None, signed: bool = False) -> str:
    if x is None:
        return "-"
    percent = figure.kind in ("rate", "lift") or figure.name in ("first_player_advantage", "decisiveness", "drama")
    if percent:
        return f"{100 * x:+.1f}%" if signed else f"{100 * x:.1f}%"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _table(figures: Sequence[Figure], level: float) -> str:
    head = ("figure", "seat", "base", "variant", "difference", f"{100 * level:.3g}% interval", "clear")
    rows = ["<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for f in figures:
        interval = "-" if f.low is None or f.high is None else f"[{_number(f, f.low, True)}, {_number(f, f.high, True)}]"
        cells = (f.name, "" if f.seat is None else str(f.seat), _number(f, f.base), _number(f, f.variant),
                 _number(f, f.difference, True), interval, "*" if f.clear else "")
        rows.append(f"<tr class=\"{'clear' if f.clear else ''}\">"
                    + "".join(f"<td>{html.escape(x)}</td>" for x in cells) + "</tr>")
    return "<table id=\"figures\">\n" + "\n".join(rows) + "\n</table>"


def render_report(comparison: Comparison) -> str:
    """The page as text."""
    plt = _pyplot()
    c = comparison
    plots = [("Win rate by seat, with 95% Wilson intervals.", _win_rates(plt, c)),
             ("Game length: distributions of both sides overlaid.", _lengths(plt, c)),
             ("Per-card lift: win rate of the seats that used the card minus that of the seats that did not.",
              _lifts(plt, c)),
             ("Lead over time: how often the eventual winner leads by the game's heuristic, by share of the game "
              "played (games with one winner).", _lead(plt, c))]
    parts = [f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"
             for caption, svg in plots if svg is not None]
    title = f"{c.base} vs {c.variant}"
    note = (f"{c.games} paired games (seed {c.seed}: game i of both sides with seed {c.seed}+i), {c.players} players."
            " * marks a difference whose interval excludes zero (a per-card figure: with at least "
            f"{MIN_SUPPORT} games or (game, seat) pairs behind it). Rates: Wilson intervals; differences: paired "
            "bootstrap (2,000 resamples of the game pairs, seeded).")
    if c.watched:
        note += (f" --until-clear: {c.looks} looks, alpha spent Pocock-style; "
                 f"unclear: {', '.join(c.unclear) or 'none'}.")
    if c.interrupted:
        note += f" Interrupted: {c.games} of {c.budget} games measured."
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>\n"
            f"<h1>{html.escape(title)}</h1>\n<p>{html.escape(note)}</p>\n{_table(c.figures, c.level)}\n"
            + "\n".join(parts) + "\n</body></html>\n")


def write_report(comparison: Comparison, path: str) -> None:
    """Write the page of ``comparison`` to ``path``."""
    page = render_report(comparison)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
    except OSError as exc:
        raise rulecore.RulecoreError(f"cannot write the report to {path!r}: {exc.strerror or exc}") from exc
