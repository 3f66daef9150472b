"""Reading the effect text of one cardset into effect trees, within the limits, through the cache.

``EffectText`` knows the names the cardset declares (its zones, counters, variables and
functions: the ``Symbols`` the parser checks names against), parses each piece of text once
per place (``ParseCache``), keeps every piece and all of them under the ``Limits``, and reports
what does not parse into the build's ``Report``.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Mapping

import attrs

from ...errors import Problem, Span, doc_ref
from ...lang import nodes as n
from ...lang.names import Symbols
from ...lang.parser import parse_effect
from ..cache import ParseCache
from ..limits import Limits
from .report import Report


#: text parsed before (``key`` as ``EffectText`` makes it -> (tree, problems), or None when not known)
Parsed = Callable[[tuple[Any, ...]], "tuple[Any, list[Problem]] | None"]


class EffectText:
    """Parses the effect text found at paths of the data, reporting into ``report``."""

    def __init__(self, data: Any, report: Report, cache: ParseCache, limits: Limits,
                 parsed: Parsed | None = None) -> None:
        self.data = data
        self.report = report
        self.cache = cache
        self.parsed = parsed  # text parsed before this process: the shipped built-ins' (see cardset.shipped)
        self.limits = limits
        self.chars = 0  # effect text read so far
        self.total_reported = False
        self.symbols = _symbols(data, report.repaired)
        self._symbols_key = _symbols_key(self.symbols)
        self._source_keys: dict[int, str] = {}

    def parse(self, path: tuple[Any, ...], context: str | None, *, expression: bool = False) -> Any:
        """Parse the effect text (or expression) at ``path``; record problems; None on failure."""
        report, sources = self.report, self.report.sources
        value = self._get(path)
        if isinstance(value, bool) and expression:
            return n.Literal(value, sources.span(path, card=context))
        if isinstance(value, int) and expression:
            return n.Literal(value, sources.span(path, card=context))
        text = str(value)

        def make_span(line: int, column: int) -> Span:
            if not line:
                return sources.span(path, card=context)
            return sources.text_span(path, line, column, context, text)

        if report.skip_effects or (report.repaired and report.is_repaired(path)):
            return None
        if len(text) > self.limits.effect_chars:
            report.problem(path, f"the effect text is longer than {self.limits.effect_chars} characters ({len(text)})",
                           "split it into procedures; the limit can be raised: see "
                           f"{doc_ref('docs/untrusted.md')}", "too-big")
            return None
        self.chars += len(text)
        if self.chars > self.limits.effect_total:
            if not self.total_reported:
                self.total_reported = True
                report.problem(path, f"the cardset's effect text is longer than {self.limits.effect_total} characters "
                               "in all (from here on it is not read)",
                               f"the limit can be raised: see {doc_ref('docs/untrusted.md')}", "too-big")
            return None
        node, problems = self._parse_cached(path, text, context, make_span, expression)
        report.problems.extend(problems)
        return node if not problems else None

    def _parse_cached(self, path: tuple[Any, ...], text: str, context: str | None, make_span: Callable[[int, int], Span],
                      expression: bool) -> tuple[Any, list[Problem]]:
        """parse_effect, remembered in the cache for the same text at the same place of the same file."""
        source, spath = self.report.sources.resolve(path)
        skey = self._source_keys.get(id(source))
        if skey is None:  # the file's content, the same in every process (a key of parsed text kept on disk too)
            skey = self._source_keys[id(source)] = hashlib.sha256(
                "\n".join(source.lines).encode("utf-8", "surrogatepass")).hexdigest()
        key = (text, expression, context, source.file, skey, spath, self._symbols_key)
        hit = self.cache.get(key)
        if hit is None and self.parsed is not None:
            hit = self.parsed(key)
            if hit is not None:
                self.cache.put(key, hit)
        if hit is None:
            try:
                hit = parse_effect(text, self.symbols, make_span, expression=expression)
            except RecursionError:
                hit = (None, [Problem("the effect text is nested too deeply to read", make_span(0, 0),
                                      "split it into procedures or functions", "effect-syntax")])
            self.cache.put(key, hit)
        return hit[0], list(hit[1])

    def _get(self, path: tuple[Any, ...]) -> Any:
        value = self.data
        for key in path:
            value = value[key]
        return value


def _symbols(data: Any, repaired: set[tuple[Any, ...]]) -> Symbols:
    """The names the data declares; a zone or counter whose owner the repair made up counts as both kinds."""
    symbols = declared_symbols(data)
    if not repaired:
        return symbols
    # a zone or counter whose owner was made up may be read either way: no follow-up problems
    zones = {p[1] for p in repaired if len(p) in (2, 3) and p[0] == "zones" and p[2:] in ((), ("owner",))}
    counters = {p[1] for p in repaired if len(p) in (2, 3) and p[0] == "counters" and p[2:] in ((), ("owner",))}
    return attrs.evolve(
        symbols,
        player_zones=symbols.player_zones | zones, shared_zones=symbols.shared_zones | zones,
        player_counters=symbols.player_counters | counters, game_counters=symbols.game_counters | counters,
    )


def declared_symbols(d: Any) -> Symbols:
    """The zones, counters, variables and functions the data ``d`` declares, as the parser knows names."""
    zones = d.get("zones", {})
    counters = d.get("counters", {}) or {}
    return Symbols(
        player_zones=frozenset(k for k, v in zones.items() if v.get("owner") == "player" or v.get("slots")),
        shared_zones=frozenset(k for k, v in zones.items() if v.get("owner") == "none" and not v.get("slots")),
        player_counters=frozenset(k for k, v in counters.items() if v.get("owner") == "player"),
        game_counters=frozenset(k for k, v in counters.items() if v.get("owner") == "none"),
        game_vars=frozenset((d.get("vars") or {}).keys()),
        functions={
            k: (len(v.get("params", ())) if isinstance(v, dict) else 0)
            for k, v in (d.get("functions") or {}).items()
        },
    )


def _symbols_key(symbols: Symbols) -> tuple[Any, ...]:
    """The symbols as a hashable key: effect text parsed with other names may parse differently."""
    out = []
    for field in attrs.fields(type(symbols)):
        value = getattr(symbols, field.name)
        out.append(tuple(sorted(value.items())) if isinstance(value, Mapping) else value)
    return tuple(out)
