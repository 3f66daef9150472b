"""The figures of a comparison and how sure they are.

A comparison keeps, per game and side, one row of scalars (:class:`Layout` says which: a win per
seat, ties, length, score margin, card uses, the heuristic metrics...; NaN where a figure does not
apply to that game, e.g. the length of an unfinished game). :class:`PairedTally` fills the rows as
paired games arrive, in any order, and never holds a game record. :func:`figures` reads them:

- each side's value: a mean over the games where the figure applies (a rate is a mean of 0/1);
  the card lift is a difference of two ratios;
- each side's 95% interval: Wilson's score interval for rates, the percentile bootstrap otherwise;
- the difference (variant - base) and its interval: the paired bootstrap: game pairs are drawn
  with replacement (the same draws for both sides), 2,000 times, with a generator seeded from
  the run's seed, so the same run gives the same intervals; percentile interval.
  With ``sequential`` levels (``--until-clear``) the interval is the difference plus or minus
  ``z`` bootstrap standard errors instead, ``z`` for the (small) level the look may spend.

A figure is *clear* when its difference interval excludes zero (a per-card figure also needs
``MIN_SUPPORT`` games or pairs behind it).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import rulecore

from .games import LEAD_BINS, Measured


#: Bootstrap replicates, drawn in blocks of this many (memory stays a few MB at 10,000 games).
REPLICATES = 2000
_BLOCK = 250
#: A per-card figure is marked clear only with this much behind it: a lift, this many (game, seat)
#: pairs that used the card and as many that did not, on each side; a use count, this many games
#: (both sides together) in which the card was used.  Below it a bootstrap over a handful of pairs
#: gives intervals that exclude zero by accident (even past -100%).
MIN_SUPPORT = 10


def need_numpy() -> Any:
    """numpy, or a clear error saying how to install it.  Imported on first use (not with
    ``rulecore.simulate``), so that every other command starts without paying for numpy."""
    try:
        return importlib.import_module("numpy")
    except ImportError as exc:  # pragma: no cover - numpy comes with rulecore[compare]
        raise rulecore.RulecoreError(
            "comparing needs the optional package 'numpy': pip install 'rulecore[compare]' (or pip install numpy)"
        ) from exc


def margin(totals: Sequence[float] | None, best: str | None) -> float:
    """Score margin between first and second place (>= 0), by the game's winning end of the totals."""
    if totals is None or len(totals) < 2:
        return math.nan
    ordered = sorted(totals, reverse=best != "lowest")
    return abs(ordered[0] - ordered[1])


class Layout:
    """Which column of a game's row holds what, for ``players`` seats and the card types ``cards``."""

    def __init__(self, players: int, cards: Sequence[str], best: str | None) -> None:
        self.players, self.cards, self.best = players, tuple(cards), best
        names = [f"win{s}" for s in range(players)] + ["fpa", "team", "no_winner", "tie", "unfinished", "finished",
                                                       "decisions", "turns", "rounds", "margin"]
        names += [f"score{s}" for s in range(players)]
        names += ["branching", "lead_changes", "decisiveness", "drama"]
        names += [f"lead{b}" for b in range(LEAD_BINS)]
        for card in self.cards:
            names += [f"uses:{card}", f"un:{card}", f"uw:{card}", f"nn:{card}", f"nw:{card}"]
        self.names = tuple(names)
        self.index = {name: i for i, name in enumerate(names)}

    def row(self, m: Measured) -> list[float]:
        """The scalars of one measured game (NaN where a figure does not apply)."""
        nan, p = math.nan, self.players
        r = [nan] * len(self.names)
        put = self.index
        won = [1.0 if s in m.winners else 0.0 for s in range(p)]
        for s in range(p):
            r[put[f"win{s}"]] = won[s]
        r[put["fpa"]] = won[0] - sum(won) / p
        r[put["team"]] = 1.0 if m.finished and len(m.winners) == p else 0.0
        r[put["no_winner"]] = 1.0 if m.finished and not m.winners else 0.0
        r[put["tie"]] = 1.0 if len(m.winners) > 1 else 0.0
        r[put["unfinished"]] = 0.0 if m.finished else 1.0
        r[put["finished"]] = 1.0 if m.finished else 0.0
        if m.finished:
            r[put["decisions"]] = m.decisions
            r[put["turns"]] = nan if m.turns is None else m.turns
            r[put["rounds"]] = nan if m.rounds is None else m.rounds
            r[put["margin"]] = margin(m.totals, self.best)
            for s in range(p):
                r[put[f"score{s}"]] = nan if m.totals is None else m.totals[s]
        for key in ("branching", "lead_changes", "decisiveness", "drama"):
            value = getattr(m, key)
            r[put[key]] = nan if value is None else float(value)
        for b, share in enumerate(m.winner_leads or ()):
            r[put[f"lead{b}"]] = nan if share is None else share
        uses = dict(m.card_uses or ())
        for card in self.cards:
            zero = 0.0
            r[put[f"un:{card}"]] = r[put[f"uw:{card}"]] = r[put[f"nn:{card}"]] = r[put[f"nw:{card}"]] = zero
            if not m.finished or m.card_uses is None:
                continue
            per_seat = uses.get(card, (0,) * p)
            r[put[f"uses:{card}"]] = float(sum(per_seat))
            for s in range(p):
                used = s < len(per_seat) and per_seat[s] > 0
                r[put[f"un:{card}" if used else f"nn:{card}"]] += 1.0
                r[put[f"uw:{card}" if used else f"nw:{card}"]] += won[s]
        return r


class PairedTally:
    """The rows of both sides, filled as paired games arrive (in any order), for up to ``capacity`` games."""

    def __init__(self, layout: Layout, capacity: int) -> None:
        np = need_numpy()
        self.layout = layout
        self.capacity = capacity
        size = min(capacity, 1024)  # grows as games arrive: a large budget cut short costs no memory
        self.base = np.full((size, len(layout.names)), np.nan)
        self.variant = np.full((size, len(layout.names)), np.nan)
        self.present = np.zeros(size, dtype=bool)

    def _grow(self, index: int) -> None:
        np = need_numpy()
        size = min(self.capacity, max(index + 1, 2 * len(self.present)))
        extra = size - len(self.present)
        self.base = np.concatenate([self.base, np.full((extra, self.base.shape[1]), np.nan)])
        self.variant = np.concatenate([self.variant, np.full((extra, self.variant.shape[1]), np.nan)])
        self.present = np.concatenate([self.present, np.zeros(extra, dtype=bool)])

    def add(self, index: int, base: Measured, variant: Measured) -> None:
        if index >= len(self.present):
            self._grow(index)
        self.base[index] = self.layout.row(base)
        self.variant[index] = self.layout.row(variant)
        self.present[index] = True

    @property
    def done(self) -> int:
        return int(self.present.sum())

    def rows(self) -> tuple[Any, Any]:
        """Both sides' rows of the games done, in game order (so results never depend on arrival order)."""
        return self.base[self.present], self.variant[self.present]

    def cooperative(self) -> bool:
        """Every finished game (of both sides) won by all seats or by none, and some game finished."""
        np = need_numpy()
        b, v = self.rows()
        col = self.layout.index
        both = np.concatenate([b, v])
        finished = both[:, col["finished"]] > 0
        together = (both[:, col["team"]] + both[:, col["no_winner"]]) > 0
        return self.layout.players > 1 and bool(finished.any()) and bool(together[finished].all())


@dataclass(frozen=True)
class Figure:
    """One compared figure: both values, the difference (variant - base), its interval and whether it is clear."""

    name: str
    seat: int | None
    kind: str  # 'rate' | 'mean' | 'lift'
    base: float | None
    variant: float | None
    difference: float | None
    low: float | None
    high: float | None
    clear: bool
    base_interval: tuple[float, float] | None = None
    variant_interval: tuple[float, float] | None = None
    better: str | None = None  # 'lower' | 'higher' where the game says which way is better, else None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seat": self.seat, "base": self.base, "variant": self.variant,
                "difference": self.difference, "low": self.low, "high": self.high, "clear": self.clear}


#: A figure's statistic from column sums: ``f(sums, counts)``, both indexed [..., column].
Statistic = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class _Spec:
    name: str
    seat: int | None
    kind: str
    stat: Statistic
    column: int  # the column whose count says whether the figure applies (rates: Wilson's n)
    better: str | None = None
    support: tuple[int, ...] = ()  # a lift's columns of pairs that used and did not use the card


def _mean(c: int) -> Statistic:
    np = need_numpy()
    def stat(s: Any, d: Any) -> Any:
        with np.errstate(invalid="ignore", divide="ignore"):
            return s[..., c] / d[..., c]
    return stat


def _lift(un: int, uw: int, nn: int, nw: int) -> Statistic:
    np = need_numpy()
    def stat(s: Any, d: Any) -> Any:
        with np.errstate(invalid="ignore", divide="ignore"):
            return s[..., uw] / s[..., un] - s[..., nw] / s[..., nn]
    return stat


def _specs(layout: Layout, cooperative: bool) -> list[_Spec]:
    col, p = layout.index, layout.players
    out: list[_Spec] = []
    if not cooperative:
        out += [_Spec("win_rate", s, "rate", _mean(col[f"win{s}"]), col[f"win{s}"]) for s in range(p)]
        if p > 1:
            out.append(_Spec("first_player_advantage", None, "mean", _mean(col["fpa"]), col["fpa"]))
        out.append(_Spec("ties", None, "rate", _mean(col["tie"]), col["tie"]))
    else:
        out.append(_Spec("team_win_rate", None, "rate", _mean(col["team"]), col["team"]))
    out.append(_Spec("no_winner", None, "rate", _mean(col["no_winner"]), col["no_winner"]))
    out.append(_Spec("unfinished", None, "rate", _mean(col["unfinished"]), col["unfinished"]))
    for key in ("decisions", "turns", "rounds"):
        out.append(_Spec(key, None, "mean", _mean(col[key]), col[key]))
    better = {"lowest": "lower", "highest": "higher"}.get(layout.best or "")
    out += [_Spec("score", s, "mean", _mean(col[f"score{s}"]), col[f"score{s}"], better) for s in range(p)]
    out.append(_Spec("score_margin", None, "mean", _mean(col["margin"]), col["margin"]))
    for key, name in (("branching", "branching_factor"), ("lead_changes", "lead_changes"),
                      ("decisiveness", "decisiveness"), ("drama", "drama")):
        out.append(_Spec(name, None, "mean", _mean(col[key]), col[key]))
    for card in layout.cards:
        out.append(_Spec(f"card_uses:{card}", None, "mean", _mean(col[f"uses:{card}"]), col[f"uses:{card}"]))
    for card in layout.cards:
        out.append(_Spec(f"card_lift:{card}", None, "lift",
                         _lift(col[f"un:{card}"], col[f"uw:{card}"], col[f"nn:{card}"], col[f"nw:{card}"]),
                         col[f"un:{card}"], support=(col[f"un:{card}"], col[f"nn:{card}"])))
    return out


def wilson(successes: float, n: float, level: float = 0.95) -> tuple[float, float] | None:
    """Wilson's score interval for a rate of ``successes`` in ``n``; None when n is 0."""
    if n <= 0:
        return None
    z = NormalDist().inv_cdf(0.5 + level / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))


def _sums(x: Any) -> tuple[Any, Any]:
    np = need_numpy()
    mask = ~np.isnan(x)
    return np.where(mask, x, 0.0), mask.astype(float)


def _replicates(b: Any, v: Any, specs: Sequence[_Spec], seed: int) -> tuple[Any, Any]:
    """Per spec, ``REPLICATES`` bootstrap values of each side (arrays [replicate, spec]), from paired draws."""
    np = need_numpy()
    n = len(b)
    bx, bm = _sums(b)
    vx, vm = _sums(v)
    rng = np.random.default_rng([seed, n, 21])
    out_b, out_v = [], []
    for start in range(0, REPLICATES, _BLOCK):
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=min(_BLOCK, REPLICATES - start)).astype(float)
        sb, db, sv, dv = weights @ bx, weights @ bm, weights @ vx, weights @ vm
        out_b.append(np.stack([spec.stat(sb, db) for spec in specs], axis=1))
        out_v.append(np.stack([spec.stat(sv, dv) for spec in specs], axis=1))
    return np.concatenate(out_b), np.concatenate(out_v)


def _num(x: Any) -> float | None:
    value = float(x)
    return None if math.isnan(value) else value


def _percentiles(values: Any, level: float) -> tuple[float, float] | None:
    np = need_numpy()
    finite = values[~np.isnan(values)]
    if len(finite) < REPLICATES // 2:
        return None
    lo, hi = np.percentile(finite, [50 * (1 - level), 50 * (1 + level)])
    return float(lo), float(hi)


def figures(tally: PairedTally, seed: int, sequential_level: float | None = None) -> list[Figure]:
    """Every figure that applies to the games done; ``sequential_level``: the difference intervals are
    normal intervals at that level (from the bootstrap standard error), for a look of ``--until-clear``."""
    np = need_numpy()
    b, v = tally.rows()
    if len(b) == 0:
        return []
    specs = _specs(tally.layout, tally.cooperative())
    bx, bm = _sums(b)
    vx, vm = _sums(v)
    sb, db, sv, dv = bx.sum(0), bm.sum(0), vx.sum(0), vm.sum(0)
    rep_b, rep_v = _replicates(b, v, specs, seed)
    out = []
    for i, spec in enumerate(specs):
        if db[spec.column] == 0 and dv[spec.column] == 0:
            continue  # applies to no game of either side (no totals, no heuristic, ...)
        base, variant = _num(spec.stat(sb, db)), _num(spec.stat(sv, dv))
        if spec.name.startswith("card_") and (base is None and variant is None if spec.kind == "lift"
                                              else not base and not variant):
            continue  # a card nobody used on either side (e.g. one without abilities): nothing to say
        diff = None if base is None or variant is None else variant - base
        deltas = rep_v[:, i] - rep_b[:, i]
        if sequential_level is None:
            interval = _percentiles(deltas, 0.95)
        else:
            finite = deltas[~np.isnan(deltas)]
            se = float(np.std(finite, ddof=1)) if len(finite) > 1 else math.nan
            z = NormalDist().inv_cdf(0.5 + sequential_level / 2)
            interval = None if diff is None or math.isnan(se) else (diff - z * se, diff + z * se)
        if spec.kind == "rate":
            c = spec.column
            sides = wilson(sb[c], db[c]), wilson(sv[c], dv[c])
        else:
            sides = _percentiles(rep_b[:, i], 0.95), _percentiles(rep_v[:, i], 0.95)
        low, high = interval if interval is not None else (None, None)
        clear = low is not None and high is not None and (low > 0 or high < 0) and _supported(spec, b, v, sb, sv)
        out.append(Figure(spec.name, spec.seat, spec.kind, base, variant, diff, low, high, clear,
                          sides[0], sides[1], spec.better))
    return out


def _supported(spec: _Spec, b: Any, v: Any, sb: Any, sv: Any) -> bool:
    """Whether a per-card figure has ``MIN_SUPPORT`` behind it (every other figure has)."""
    if spec.kind == "lift":
        return bool(min(min(sb[c], sv[c]) for c in spec.support) >= MIN_SUPPORT)
    if spec.name.startswith("card_uses:"):
        c = spec.column
        return int((b[:, c] > 0).sum() + (v[:, c] > 0).sum()) >= MIN_SUPPORT
    return True


def spent(fraction: float, alpha: float) -> float:
    """Alpha spent by information fraction ``fraction`` (Lan-DeMets, Pocock type): alpha ln(1 + (e-1) t)."""
    return alpha * math.log(1 + (math.e - 1) * min(1.0, max(0.0, fraction)))


def look_level(done_before: int, done: int, budget: int, alpha: float) -> float:
    """The confidence level of a look after ``done`` of ``budget`` games (the last look after ``done_before``):
    1 minus the alpha this look may spend. Testing each look at its own share of alpha holds the chance of
    ever calling a figure clear by mistake at ``alpha`` (a union bound over the looks, so conservative)."""
    return 1.0 - (spent(done / budget, alpha) - spent(done_before / budget, alpha))
