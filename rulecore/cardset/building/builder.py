"""The building step: one ``Document`` in, one checked ``Cardset`` out (or every problem at once).

In order: the structure against the JSON Schema (``structure``), and after structure problems
a repaired copy of the data to go on with (``repair``); the names the cardset declares; its
zones, counters and options; its cards and families (``cards``); procedures and functions; the
flow (``flow``); the setup, the end and the player counts; then the meaning checks over the
built trees (``checks``).  Every problem of every stage is raised together as one
``CardsetError``; a cardset that builds carries its lint warnings.
"""

from __future__ import annotations

from typing import Any

import attrs

from ...errors import Problem, Span, yaml_words
from ...lang import nodes as n
from ...lang.functions import FUNCTIONS
from ...lang.names import BUILTIN_NAMES, KEYWORDS
from ..cache import ParseCache
from ..checks.checker import check_cardset
from ..checks.lint import lint
from ..checks.marks import check_marks
from ..checks.references import check_references
from ..limits import DEFAULT_LIMITS, Limits
from ..model import Cardset, CounterDef, OptionSpec, Procedure, UserFunction, ZoneDef
from ..reading.document import Document
from ..schema import SCHEMA
from .cards import build_cards, start_value
from .effects import EffectText, Parsed
from .flow import build_program
from .repair import repair
from .report import Report
from .structure import structure_problems

_SECTIONS = ("zones", "counters", "vars", "functions", "cards", "families", "procedures", "options")


def build(document: Document, *, cache: ParseCache | None = None, limits: Limits = DEFAULT_LIMITS,
          parsed: Parsed | None = None) -> Cardset:
    """The checked ``Cardset`` of a document; ``CardsetError`` with every problem if it has any.

    ``cache`` keeps effect text already parsed (by default, a new one for this build); ``parsed``
    gives text parsed before this process where it knows it (the built-ins shipped in the wheel)."""
    report = Report(document.sources, document.problems)
    data = document.data
    report.problems.extend(structure_problems(data, document.sources))
    if report.problems:
        data = _mend(data, report)
    effects = EffectText(data, report, ParseCache() if cache is None else cache, limits, parsed)
    before = len(report.problems)
    _check_names(data, report)
    if len(report.problems) > before:
        report.meaning_unsure = True  # a name that cannot be used: text naming it would only seem wrong
    return _Builder(data, report, effects, limits).build()


def _declared_marks(d: Any, section: str) -> dict[str, str] | None:
    """The mark words declared under ``section`` with their descriptions; None when it is not there."""
    words = d.get(section)
    return None if words is None else {str(k): str(v) for k, v in words.items()}


def _mend(data: Any, report: Report) -> Any:
    """After structure problems: a repaired copy of the data to go on with, or stop if it cannot be mended."""
    mended = repair(data, SCHEMA)
    if mended is None:
        report.fail()
        return data  # pragma: no cover - fail() raises: there are problems
    data, report.repaired = mended
    report.skip_effects = any((s,) in report.repaired for s in _SECTIONS)
    report.meaning_unsure = report.skip_effects or any(p[-1:] == ("<names>",) for p in report.repaired)
    return data


def _check_names(d: Any, report: Report) -> None:
    """One name, one meaning: zones, counters and vars may not share names, nor take a reserved one."""
    seen: dict[str, str] = {}
    for section in ("zones", "counters", "vars"):
        for name in d.get(section) or {}:
            if name in seen:
                report.problem((section, name), f"'{name}' is declared as both {seen[name]} and {section[:-1]}",
                               "give them different names", "duplicate", key=True)
            seen.setdefault(name, section[:-1])
    for name in d.get("functions") or {}:
        if name in FUNCTIONS:
            report.problem(("functions", name), f"'{name}' is a built-in function", "pick another name",
                           "reserved", key=True)
    for section in ("zones", "counters", "vars", "procedures", "functions"):
        for name in d.get(section) or {}:
            if name in KEYWORDS or name in BUILTIN_NAMES:
                report.problem((section, name), f"'{name}' is a reserved word of the effect language",
                               "pick another name", "reserved", key=True)


class _Builder:
    """Builds the parts of one cardset from data that has passed (or been repaired to) the schema."""

    def __init__(self, d: Any, report: Report, effects: EffectText, limits: Limits) -> None:
        self.d = d
        self.report = report
        self.effects = effects
        self.limits = limits

    def build(self) -> Cardset:
        d, report, effects = self.d, self.report, self.effects
        zones = self.zones()
        counters = {
            k: CounterDef(k, v["owner"] == "player", v.get("initial", 0), v.get("min"), v.get("max"),
                          v.get("visibility", "everyone"), v.get("per_round", False))
            for k, v in (d.get("counters") or {}).items()
        }
        options = {
            k: OptionSpec(k, v["default"], tuple(v["choices"]) if "choices" in v else None, v.get("description", ""))
            for k, v in (d.get("options") or {}).items()
        }
        cards = build_cards(d, report, effects, self.limits)
        procedures, functions = self.procedures(), self.functions()
        program = build_program(d, report, effects)
        winners = effects.parse(("end", "winners"), "end", expression=True)
        heuristic = effects.parse(("heuristic",), "heuristic", expression=True) if "heuristic" in d else None
        start_zone = self.start_zone(zones)
        self.check_end(counters)
        players = d["players"]
        if players["min"] > players["max"] and not report.is_repaired(("players", "min")) \
                and not report.is_repaired(("players", "max")):
            report.problem(("players",), f"players min ({players['min']}) is above max ({players['max']})", None,
                           "range")
        self.check_option_defaults(options)
        end = d["end"]
        cardset = Cardset(
            name=d["name"], title=d.get("title", d["name"]), file=report.sources.file,
            min_players=players["min"], max_players=players["max"], zones=zones, counters=counters,
            vars={k: start_value(v.get("value") if isinstance(v, dict) else v)
                  for k, v in (d.get("vars") or {}).items()}, options=options, cards=cards,
            procedures=procedures, functions=functions,
            start_zone=start_zone, program=program, winners=winners, totals=end.get("totals"),
            round_scores=end.get("round_scores"), heuristic=heuristic, description=d.get("description", ""),
            round_label=str((d["flow"].get("rounds") or {}).get("label") or "round").strip() or "round",
            hidden_vars=frozenset(k for k, v in (d.get("vars") or {}).items()
                                  if isinstance(v, dict) and v.get("visibility") == "nobody"),
            marks=_declared_marks(d, "marks"), player_marks=_declared_marks(d, "player_marks"),
        )
        return self.checked(cardset)

    def zones(self) -> dict[str, ZoneDef]:
        zones = {
            k: ZoneDef(k, v["owner"] == "player", v["visibility"], v.get("description", ""), v.get("slots", 0),
                       v.get("label", ""))
            for k, v in self.d["zones"].items()
        }
        for k, v in self.d["zones"].items():
            if "slots" in v and v["owner"] != "none":
                self.report.problem(("zones", k, "slots"), f"zone '{k}' belongs to players, so it cannot also have "
                                    "slots", "use 'owner: none' for a numbered row of zones", "zone", key=True)
            if v["visibility"] == "owner" and v["owner"] == "none":
                self.report.problem(("zones", k, "visibility"), f"shared zone '{k}' has no owner to be visible to",
                                    "use 'everyone' or 'nobody'", "zone")
        return zones

    def procedures(self) -> dict[str, Procedure]:
        procedures: dict[str, Procedure] = {}
        for pname, p in (self.d.get("procedures") or {}).items():
            ppath = ("procedures", pname)
            if isinstance(p, str):
                body, params = self.effects.parse(ppath, pname), ()
            else:
                body, params = self.effects.parse(ppath + ("do",), pname), tuple(p.get("params", ()))
            procedures[pname] = Procedure(pname, params, body or n.Block(()))
        return procedures

    def functions(self) -> dict[str, UserFunction]:
        functions: dict[str, UserFunction] = {}
        for fname, f in (self.d.get("functions") or {}).items():
            fpath = ("functions", fname)
            if isinstance(f, dict):
                body = self.effects.parse(fpath + ("value",), fname, expression=True)
                params = tuple(f.get("params", ()))
            else:
                body, params = self.effects.parse(fpath, fname, expression=True), ()
            functions[fname] = UserFunction(fname, params, body or n.Literal(None))
        return functions

    def start_zone(self, zones: dict[str, ZoneDef]) -> str:
        """The shared zone the cards start in ('setup: cards_in:')."""
        d, report = self.d, self.report
        start_zone: str = (d.get("setup") or {}).get("cards_in", "")
        if start_zone and start_zone not in zones:
            report.unknown(("setup", "cards_in"), "zone", start_zone, zones)
        elif start_zone and (zones[start_zone].per_player or zones[start_zone].slots):
            report.problem(("setup", "cards_in"), f"cards must start in a shared zone, and '{start_zone}' is per "
                           "player", None, "setup")
        if not start_zone:
            report.problem(("setup",) if "setup" in d else (), "the cardset does not say where the cards start",
                           "add 'setup: {cards_in: deck}'", "missing-key")
        return start_zone

    def check_end(self, counters: dict[str, CounterDef]) -> None:
        """'end: totals:' and 'round_scores:' name per-player counters."""
        end = self.d["end"]
        for key in ("totals", "round_scores"):
            if key in end:
                name = end[key]
                if name not in counters:
                    self.report.unknown(("end", key), "counter", name, counters)
                elif not counters[name].per_player:
                    self.report.problem(("end", key), f"'{name}' must be a per-player counter", None, "end")

    def check_option_defaults(self, options: dict[str, OptionSpec]) -> None:
        """An option's default is one of its choices."""
        for oname, o in options.items():
            if o.choices is not None and o.default not in o.choices:
                words = [c for c in o.choices if isinstance(c, str) and c.lower() in ("yes", "no", "on", "off")]
                hint = (f"{' and '.join(repr(w) for w in words)} are text here: write the truth values as true "
                        "and false" if words and isinstance(o.default, bool)
                        else f"its choices: {', '.join(yaml_words(c) for c in o.choices)}")
                shown = yaml_words(o.default)
                self.report.problem(("options", oname, "default"), f"default {shown} is not among the choices", hint,
                                    "option")

    def checked(self, cardset: Cardset) -> Cardset:
        """The meaning checks over the built trees (unless earlier problems would make them guess), every
        problem raised, and the cardset with its lint warnings."""
        report = self.report
        earlier = bool(report.problems)
        span_of = report.sources.span
        if not report.skip_effects and not report.meaning_unsure:
            try:
                found = check_cardset(cardset) + check_references(cardset, span_of) + check_marks(cardset)
            except RecursionError:
                found = [Problem("the effect text is nested too deeply to check", Span(cardset.file), None, "effect")]
            if earlier:  # what failed to parse signals nothing: a trigger may only seem unanswered
                found = [p for p in found if p.code != "trigger"]
            report.problems.extend(found)
        report.fail()
        try:
            found = lint(cardset, span_of)
        except RecursionError:  # pragma: no cover - the checks above would have failed first
            found = []
        warnings = sorted(found, key=lambda p: (p.span.file, p.span.line, p.span.column))
        return attrs.evolve(cardset, warnings=tuple(warnings))
