"""Cardset specs (frozen) and the loader that builds them from YAML.

Loading runs, in order: YAML with positions (``yamlsrc``), the JSON Schema
(``schema``), parsing every piece of effect text (``rulecore.lang.parser``), and the
meaning checks (``checker``, ``lint``).  Every problem from every stage is collected and
raised together as one ``CardsetError``.
"""

from __future__ import annotations

import difflib
import os
import itertools
import re
import string
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional

import attrs

from .._resources import builtin_cardsets, builtin_path
from ..errors import CardsetError, Problem, Span
from ..lang import nodes as n
from ..lang.functions import FUNCTIONS
from ..lang.parser import BUILTIN_NAMES, KEYWORDS, Symbols, parse_effect
from .checker import check_cardset
from .includes import Sources
from .limits import DEFAULT_LIMITS, Files, Limits
from .lint import check_references, lint
from .repair import repair
from .schema import SCHEMA
from .variants import read_cardset_file, read_cardset_text

if TYPE_CHECKING:
    import jsonschema


@attrs.frozen
class Ability:
    name: str
    when: Optional[n.Expr]
    body: n.Block
    text: Optional[str] = None
    on: Optional[str] = None  # the signalled event it answers
    zone: Optional[str] = None  # with on: the zone the card must be in
    optional: bool = True
    instead: bool = False
    label: Optional[str] = None
    params: tuple[str, ...] = ()


@attrs.frozen
class CardDef:
    id: str
    name: str
    count: int
    tags: tuple[str, ...]
    props: Mapping[str, Any]
    scoring: tuple[int, ...]
    abilities: Mapping[str, Ability]
    include_if: Optional[n.Expr]
    text: str
    span: Span
    family: Optional[str] = None  # the family under 'families:' it was made from


@attrs.frozen
class ZoneDef:
    name: str
    per_player: bool
    visibility: str  # owner | everyone | nobody
    description: str = ""
    slots: int = 0  # a shared row of numbered zones (1..slots), or 0
    label: str = ""  # what people call it ('label:'); "" reads as its name


@attrs.frozen
class CounterDef:
    name: str
    per_player: bool
    initial: int = 0
    min: Optional[int] = None
    max: Optional[int] = None
    visibility: str = "everyone"
    per_round: bool = False


@attrs.frozen
class OptionSpec:
    name: str
    default: Any
    choices: Optional[tuple[Any, ...]]
    description: str = ""


@attrs.frozen
class Procedure:
    name: str
    params: tuple[str, ...]
    body: n.Block


@attrs.frozen
class UserFunction:
    name: str
    params: tuple[str, ...]
    body: n.Expr


@attrs.frozen
class Cardset:
    """A loaded, checked cardset: everything a ``Game`` needs, immutable."""

    name: str
    title: str
    file: str
    min_players: int
    max_players: int
    zones: Mapping[str, ZoneDef]
    counters: Mapping[str, CounterDef]
    vars: Mapping[str, Any]
    options: Mapping[str, OptionSpec]
    cards: Mapping[str, CardDef]
    procedures: Mapping[str, Procedure]
    functions: Mapping[str, UserFunction]
    start_zone: str
    program: n.Block
    winners: n.Expr
    totals: Optional[str]
    round_scores: Optional[str]
    heuristic: Optional[n.Expr]
    description: str = ""
    hidden_vars: frozenset[str] = frozenset()
    round_label: str = "round"  # what a round is called in events and tables (flow.rounds.label)  # game variables no view shows ('visibility: nobody')
    warnings: tuple[Problem, ...] = ()  # things that load but look like mistakes (``rulecore validate`` shows them)

    def __repr__(self) -> str:
        return f"<Cardset {self.name!r}: {len(self.cards)} card types, {self.min_players}-{self.max_players} players>"


# --------------------------------------------------------------------------- loading


def load_cardset(name_or_path: str | Path, *, cache: ParseCache | None = None,
                 roots: Iterable[str | Path] = (), limits: Limits | None = None) -> Cardset:
    """Load a built-in cardset by name, or a cardset YAML file by path; check everything.

    A file that says ``extends: BASE`` is a variant: it is merged over its base (see
    ``variants``).  Every problem found is raised together as one ``CardsetError``.
    Loads given the same ``cache`` reuse the effect text it already parsed, and a file
    loaded before with the same roots and limits, whose files are all unchanged, is not
    read again.

    ``include:`` and ``extends:`` may only read regular files in the cardset's own folder
    tree, the built-in cardsets and the folders in ``roots``; ``limits`` caps sizes (see
    ``Limits`` and docs/untrusted.md).
    """
    limits = limits or DEFAULT_LIMITS
    path = _resolve(name_or_path)
    files = Files(path, roots, limits)
    key = (path, tuple(str(r) for r in roots), limits)
    if cache is not None:
        kept = cache.cardset_for(key)
        if kept is not None:  # the same files, unchanged since: the same (immutable) cardset
            return kept
    data, sources, problems = read_cardset_file(path, files)
    cardset = _build(data, sources, problems, cache=cache, limits=limits)
    if cache is not None:
        cache.keep_cardset(key, [s.file for s in sources.all], cardset)
    return cardset


def _resolve(name_or_path: str | Path) -> Path:
    if isinstance(name_or_path, str) and "/" not in name_or_path and not name_or_path.endswith((".yaml", ".yml")):
        builtin = builtin_path(name_or_path)
        if builtin is not None:
            return builtin
        names = builtin_cardsets()
        guess = difflib.get_close_matches(name_or_path, names, n=1)
        hint = f"did you mean '{guess[0]}'?" if guess else f"built-in cardsets: {', '.join(names)}"
        raise CardsetError([Problem(f"unknown cardset '{name_or_path}'", Span(name_or_path), hint, "unknown-cardset")])
    path = Path(name_or_path)
    if path.is_dir():
        path = path / "cardset.yaml"
    if path.exists() and not path.is_file():
        raise CardsetError([Problem("the cardset file is refused: it is not a regular file", Span(str(path)),
                                    "card files are regular files", "refused")])
    if not path.is_file():
        raise CardsetError([Problem("no such cardset file", Span(str(path)), "give a built-in name or a .yaml path", "io")])
    return path


def load_cardset_text(text: str, file: str = "<string>", *, cache: ParseCache | None = None,
                      roots: Iterable[str | Path] = (), limits: Limits | None = None) -> Cardset:
    """Load a cardset from YAML text; ``file`` names it in problems (and anchors relative paths:
    its folder is the one ``include:`` and ``extends:`` may read, besides ``roots``; with the
    default ``"<string>"``, only the built-in cardsets and ``roots``)."""
    limits = limits or DEFAULT_LIMITS
    if len(text) > limits.file_bytes:
        raise CardsetError([Problem(f"the text is longer than {limits.file_bytes} characters (the limit for one file)",
                                    Span(file), "the limits can be raised: see docs/untrusted.md", "refused")])
    files = Files(None if file == "<string>" else file, roots, limits)
    return _build(*read_cardset_text(text, file, files), cache=cache, limits=limits)


def _build(data: Any, sources: Sources, problems: list[Problem], *, cache: ParseCache | None = None,
           limits: Limits = DEFAULT_LIMITS) -> Cardset:
    loader = _Loader(data, sources, cache, limits)
    loader.problems.extend(problems)
    return loader.build()


class ParseCache:
    """Effect text already parsed, kept by whoever loads (``load_cardset(..., cache=...)``).

    An entry is the same text at the same place of a file with the same contents, read
    with the same names; a loader given the cache reuses it instead of parsing again.
    Bounded: past ``size`` entries the oldest goes first.
    """

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._entries: dict[Any, tuple[Any, list[Problem]]] = {}
        # whole cardsets loaded from files: (path, roots, limits) -> (the files it was read from, cardset)
        self._cardsets: dict[Any, tuple[list[tuple[str, tuple[int, int, int, int]]], Cardset]] = {}

    def keep_cardset(self, key: Any, files: list[str], cardset: Cardset) -> None:
        """Remember a cardset loaded as ``key`` (path, roots, limits) and the files it came from,
        as they stand now (identity, size and time of change: never their contents again)."""
        stats = []
        for file in files:
            try:
                st = os.lstat(file)
            except OSError:
                return
            stats.append((file, (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)))
        if len(self._cardsets) >= 16:
            self._cardsets.pop(next(iter(self._cardsets)))
        self._cardsets[key] = (stats, cardset)

    def cardset_for(self, key: Any) -> Cardset | None:
        """The cardset kept for ``key`` if every file it was read from is still the same file, unchanged."""
        kept = self._cardsets.get(key)
        if kept is None:
            return None
        stats, cardset = kept
        for file, was in stats:
            try:
                st = os.lstat(file)
            except OSError:
                return None
            if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) != was:
                return None
        return cardset

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Any) -> tuple[Any, list[Problem]] | None:
        return self._entries.get(key)

    def put(self, key: Any, value: tuple[Any, list[Problem]]) -> None:
        if len(self._entries) >= self.size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[key] = value

    def clear(self) -> None:
        self._entries.clear()
        self._cardsets.clear()


def _symbols_key(symbols: Symbols) -> tuple[Any, ...]:
    out = []
    for field in attrs.fields(type(symbols)):
        value = getattr(symbols, field.name)
        out.append(tuple(sorted(value.items())) if isinstance(value, Mapping) else value)
    return tuple(out)


_TYPE_WORDS = {
    "integer": "an integer",
    "string": "a text",
    "boolean": "true or false",
    "object": "a mapping (key: value lines)",
    "array": "a list",
    "null": "nothing",
}


def _what(path: tuple[Any, ...]) -> str:
    """'card 'apple'' and the like, for messages."""
    if len(path) >= 2 and path[0] in ("cards", "families", "zones", "counters", "procedures", "options", "vars"):
        kind = {"cards": "card", "families": "family", "zones": "zone", "counters": "counter", "procedures": "procedure",
                "options": "option", "vars": "variable"}[path[0]]
        return f"{kind} '{path[1]}'"
    if path and path[0] == "flow":
        return "the flow"
    if path:
        return f"'{path[0]}'"
    return "the cardset"


def _start_value(value: Any) -> Any:
    """A value written in YAML as the language reads it: a list is a collection, null and none are none."""
    if isinstance(value, list):
        return tuple(value)
    if value is None or value == "none":
        return None
    return value


def _show(value: Any) -> str:
    """A value for a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:56] + " ..."


class _Loader:
    def __init__(self, data: Any, src: "Sources", cache: ParseCache | None = None, limits: Limits = DEFAULT_LIMITS):
        self.limits = limits
        self.effect_chars = 0  # effect text read so far
        self.effect_total_reported = False
        self.data = data
        self.src = src
        self.cache = ParseCache() if cache is None else cache
        self.problems: list[Problem] = []
        # after schema problems: the paths the repaired data made up (nothing is reported under them)
        self.repaired: set[tuple[Any, ...]] = set()
        self.skip_effects = False  # a whole section was broken: effect text cannot be checked
        self.meaning_unsure = False  # names were refused: the meaning checks would report what follows from it
        self._source_keys: dict[int, int] = {}

    # ---- problems
    def problem(self, path: tuple[Any, ...], message: str, hint: str | None = None, code: str = "invalid",
                key: bool = False) -> None:
        if self.repaired and self.is_repaired(path):
            return
        self.problems.append(Problem(message, self.src.span(path, key=key), hint, code))

    def is_repaired(self, path: tuple[Any, ...]) -> bool:
        return any(path[:i] in self.repaired for i in range(len(path) + 1))

    def mend(self) -> None:
        """After schema problems: go on with a repaired copy of the data, or stop if it cannot be mended."""
        mended = repair(self.data, SCHEMA)
        if mended is None:
            self.fail()
            return
        self.data, self.repaired = mended
        sections = ("zones", "counters", "vars", "functions", "cards", "families", "procedures", "options")
        self.skip_effects = any((s,) in self.repaired for s in sections)
        self.meaning_unsure = self.skip_effects or any(p[-1:] == ("<names>",) for p in self.repaired)

    def fail(self) -> None:
        if self.problems:
            self.problems.sort(key=lambda p: (p.span.file, p.span.line, p.span.column))
            raise CardsetError(self.problems)

    # ---- stage 1: structure
    def check_schema(self) -> None:
        if not isinstance(self.data, dict):
            main = self.src.main
            span = main.span(())
            if not span.line:
                span = Span(main.file, 1, 1, None, main.line_text(1))
            self.problems.append(Problem("a cardset file must be a mapping of keys (name:, players:, zones:, cards:, ...)",
                                         span,
                                         "start from docs/examples/tiny-game.yaml", "schema"))
            return
        import jsonschema  # imported when a file is first validated, not by 'import rulecore'

        validator = jsonschema.Draft202012Validator(SCHEMA)
        for err in sorted(validator.iter_errors(self.data), key=lambda e: list(map(str, e.absolute_path))):
            self._schema_problem(err)
        for source in self.src.all:
            for path, pos in source.keys.items():
                if path and path[-1] == "<duplicate>":
                    self.problems.append(Problem(f"duplicate key '{path[-2]}'", Span(source.file, pos[0], pos[1], None,
                                                 source.line_text(pos[0])), "each key may appear once", "duplicate"))

    def _schema_problem(self, err: jsonschema.ValidationError) -> None:
        path = tuple(err.absolute_path)
        validator = err.validator
        where = _what(path)
        if validator == "additionalProperties":
            allowed = sorted(err.schema.get("properties", {}))
            extra = [k for k in err.instance if k not in allowed] if isinstance(err.instance, dict) else []
            for key in extra:
                if self._cut_at_comma(path, key, err.instance):
                    continue
                guess = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
                hint = f"did you mean '{guess[0]}'?" if guess else f"allowed keys: {', '.join(allowed)}"
                self.problem(path + (key,), f"unknown key '{key}' in {where}", hint, "unknown-key", key=True)
            return
        if validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else err.message
            if len(path) >= 3 and path[-2] == "phases" and isinstance(err.instance, dict):
                name = err.instance.get("name")
                where = f"phase '{name}'" if isinstance(name, str) else f"phase {path[-1] + 1} of the flow"
            self.problem(path, f"{where} is missing the required key '{missing}'", None, "missing-key", key=True)
            return
        if validator == "type":
            want = err.validator_value
            wants = [want] if isinstance(want, str) else list(want)
            words = " or ".join(_TYPE_WORDS.get(w, w) for w in wants)
            field = f"'{path[-1]}'" if path else "the value"
            if path and isinstance(path[-1], int) and len(path) >= 2:  # an item of a list
                field = f"item {path[-1] + 1} of '{path[-2]}'"
            self.problem(path, f"{field} must be {words} (got {_show(err.instance)})", None, "type")
            return
        if validator == "enum":
            field = path[-1] if path else "value"
            choices = ", ".join(repr(c) for c in err.validator_value)
            guess = difflib.get_close_matches(str(err.instance), [str(c) for c in err.validator_value], n=1)
            hint = f"did you mean '{guess[0]}'?" if guess else f"one of {choices}"
            self.problem(path, f"'{field}' must be one of {choices} (got {_show(err.instance)})", hint, "enum")
            return
        if validator in ("minimum", "maximum"):
            field = path[-1] if path else "value"
            bound = "at least" if validator == "minimum" else "at most"
            self.problem(path, f"'{field}' must be {bound} {err.validator_value} (got {_show(err.instance)})", None, "range")
            return
        if validator == "pattern":
            # a key that is not a valid name is reported by jsonschema at the mapping holding it
            if "propertyNames" in err.schema_path and not isinstance(err.instance, (dict, list)):
                path = path + (err.instance,)
            self.problem(path, f"{_show(err.instance)} is not a valid name", "use lower case letters, digits and '_'",
                         "name", key=True)
            return
        if validator == "propertyNames":
            bad = err.instance if not isinstance(err.instance, dict) else None
            # point at the offending key itself, not at the mapping holding it
            at = path + (bad,) if bad is not None else path
            self.problem(at, f"{bad!r} is not a valid name" if bad else err.message,
                         "use lower case letters, digits and '_'", "name", key=True)
            return
        if validator == "anyOf" and err.context:
            # report the alternative that matches the value's shape (a mapping vs a text)
            # (an alternative whose own type fits: its problem is deeper, or not about the type)
            same_shape = [e for e in err.context if e.validator != "type" or e.relative_path]
            if same_shape:
                import jsonschema.exceptions  # loaded by check_schema already

                self._schema_problem(jsonschema.exceptions.best_match(same_shape))
                return
        if validator == "anyOf":
            field = path[-1] if path else "value"
            self.problem(path, f"'{field}' has the wrong form in {where} (got {_show(err.instance)})",
                         "see docs/cardset-reference.md", "type")
            return
        if validator == "minItems" and path:
            self.problem(path, f"'{path[-1]}' must list at least {err.validator_value} item"
                         f"{'s' if err.validator_value != 1 else ''} (it is empty)", None, "range")
            return
        if validator == "uniqueItems" and path:
            self.problem(path, f"'{path[-1]}' lists the same value twice", "each value may appear once", "duplicate")
            return
        self.problem(path, f"{where}: {err.message}", None, "schema")

    def _cut_at_comma(self, path: tuple[Any, ...], key: Any, mapping: Any) -> bool:
        """An unknown key without a value right after ', ' inside {...}: the rest of a text cut at a comma
        ('{description: cards, face down}').  Reported as that; True if so."""
        if mapping.get(key) is not None:
            return False
        span = self.src.span(path + (key,), key=True)
        before = (span.source_line or "")[: max(span.column - 1, 0)]
        if "{" not in before or not before.rstrip().endswith(","):
            return False
        self.problem(path + (key,), f"'{key}' is read as a key of {_what(path)}: a ',' inside {{...}} ends the "
                     "text before it", "put the text that holds the comma in quotes: description: \"..., ...\"",
                     "unknown-key", key=True)
        return True

    # ---- stage 2: effects
    def symbols(self) -> Symbols:
        symbols = self._symbols_of_data()
        if not self.repaired:
            return symbols
        # a zone or counter whose owner was made up may be read either way: no follow-up problems
        zones = {p[1] for p in self.repaired if len(p) in (2, 3) and p[0] == "zones" and p[2:] in ((), ("owner",))}
        counters = {p[1] for p in self.repaired if len(p) in (2, 3) and p[0] == "counters" and p[2:] in ((), ("owner",))}
        return attrs.evolve(
            symbols,
            player_zones=symbols.player_zones | zones, shared_zones=symbols.shared_zones | zones,
            player_counters=symbols.player_counters | counters, game_counters=symbols.game_counters | counters,
        )

    def _symbols_of_data(self) -> Symbols:
        d = self.data
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

    def parse(self, path: tuple[Any, ...], context: str | None, *, expression: bool = False) -> Any:
        """Parse the effect text (or expression) at ``path``; record problems; None on failure."""
        value = self._get(path)
        if isinstance(value, bool) and expression:
            return n.Literal(value, self.src.span(path, card=context))
        if isinstance(value, int) and expression:
            return n.Literal(value, self.src.span(path, card=context))
        text = str(value)

        def make_span(line: int, column: int) -> Span:
            if not line:
                return self.src.span(path, card=context)
            return self.src.text_span(path, line, column, context, text)

        if self.skip_effects or (self.repaired and self.is_repaired(path)):
            return None
        if len(text) > self.limits.effect_chars:
            self.problem(path, f"the effect text is longer than {self.limits.effect_chars} characters ({len(text)})",
                         "split it into procedures; the limit can be raised: see docs/untrusted.md", "too-big")
            return None
        self.effect_chars += len(text)
        if self.effect_chars > self.limits.effect_total:
            if not self.effect_total_reported:
                self.effect_total_reported = True
                self.problem(path, f"the cardset's effect text is longer than {self.limits.effect_total} characters "
                             "in all (from here on it is not read)",
                             "the limit can be raised: see docs/untrusted.md", "too-big")
            return None
        node, problems = self._parse_cached(path, text, context, make_span, expression)
        self.problems.extend(problems)
        return node if not problems else None

    def _parse_cached(self, path: tuple[Any, ...], text: str, context: str | None, make_span: Any,
                      expression: bool) -> tuple[Any, list[Problem]]:
        """parse_effect, remembered in the loader's cache for the same text at the same place of the same file."""
        source, spath = self.src.resolve(path)
        skey = self._source_keys.get(id(source))
        if skey is None:
            skey = self._source_keys[id(source)] = hash(tuple(source.lines))
        key = (text, expression, context, source.file, skey, spath, self._symbols_key)
        hit = self.cache.get(key)
        if hit is None:
            try:
                hit = parse_effect(text, self._symbols, make_span, expression=expression)
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

    # ---- build
    def build(self) -> Cardset:
        self.check_schema()
        if self.problems:
            self.mend()
        d = self.data
        self._symbols = self.symbols()
        self._symbols_key = _symbols_key(self._symbols)
        before = len(self.problems)
        self.check_names()
        if len(self.problems) > before:
            self.meaning_unsure = True  # a name that cannot be used: text naming it would only seem wrong

        zones = {
            k: ZoneDef(k, v["owner"] == "player", v["visibility"], v.get("description", ""), v.get("slots", 0),
                       v.get("label", ""))
            for k, v in d["zones"].items()
        }
        for k, v in d["zones"].items():
            if "slots" in v and v["owner"] != "none":
                self.problem(("zones", k, "slots"), f"zone '{k}' belongs to players, so it cannot also have slots",
                             "use 'owner: none' for a numbered row of zones", "zone", key=True)
            if v["visibility"] == "owner" and v["owner"] == "none":
                self.problem(("zones", k, "visibility"), f"shared zone '{k}' has no owner to be visible to",
                             "use 'everyone' or 'nobody'", "zone")
        counters = {
            k: CounterDef(k, v["owner"] == "player", v.get("initial", 0), v.get("min"), v.get("max"),
                          v.get("visibility", "everyone"), v.get("per_round", False))
            for k, v in (d.get("counters") or {}).items()
        }
        options = {
            k: OptionSpec(k, v["default"], tuple(v["choices"]) if "choices" in v else None, v.get("description", ""))
            for k, v in (d.get("options") or {}).items()
        }
        cards: dict[str, CardDef] = {}
        total = sum(c["count"] for c in (d.get("cards") or {}).values() if isinstance(c.get("count"), int))
        for f in (d.get("families") or {}).values():  # a family makes every combination of its values
            if isinstance(f, dict) and isinstance(f.get("each"), dict):
                combos = 1
                for values in f["each"].values():
                    combos *= len(values) if isinstance(values, list) else 1
                count = f.get("count", 1)
                total += combos * (count if isinstance(count, int) else 1)
        if total > self.limits.cards:
            self.problem(("cards",), f"the cards add up to {total}, more than the limit of {self.limits.cards}",
                         "the limit can be raised: see docs/untrusted.md", "too-big", key=True)
            self.fail()
        for cid, c in (d.get("cards") or {}).items():
            cname = c.get("name", cid.replace("_", " ").title())
            abilities = self.abilities(("cards", cid), c, cname, f"card '{cid}'")
            include_if = (
                self.parse(("cards", cid, "include_if"), cname, expression=True) if "include_if" in c else None
            )
            cards[cid] = CardDef(
                cid, cname, c["count"], tuple(c.get("tags", ())),
                {k: _start_value(v) for k, v in (c.get("props") or {}).items()},
                tuple(c.get("scoring", ())), abilities, include_if, c.get("text", ""),
                self.src.span(("cards", cid), key=True, card=cname),
            )
        for fam, f in (d.get("families") or {}).items():
            before = len(self.problems)
            self.family(fam, f, cards)
            if len(self.problems) > before:
                self.meaning_unsure = True  # its cards are missing: effect text naming them would only seem wrong
        if not cards and not d.get("families") and not self.is_repaired(("cards",)) \
                and not self.is_repaired(("families",)):
            self.problem((), "the cardset is missing the required key 'cards'" if "cards" not in d
                         else "the cardset has no cards", "list them under 'cards:' (or 'families:')",
                         "missing-key", key=True)
            self.meaning_unsure = True  # every card name and ability would seem unknown

        procedures: dict[str, Procedure] = {}
        for pname, p in (d.get("procedures") or {}).items():
            ppath = ("procedures", pname)
            if isinstance(p, str):
                body, params = self.parse(ppath, pname), ()
            else:
                body, params = self.parse(ppath + ("do",), pname), tuple(p.get("params", ()))
            procedures[pname] = Procedure(pname, params, body or n.Block(()))

        functions: dict[str, UserFunction] = {}
        for fname, f in (d.get("functions") or {}).items():
            fpath = ("functions", fname)
            if isinstance(f, dict):
                body = self.parse(fpath + ("value",), fname, expression=True)
                params = tuple(f.get("params", ()))
            else:
                body, params = self.parse(fpath, fname, expression=True), ()
            functions[fname] = UserFunction(fname, params, body or n.Literal(None))

        program = self.build_program()
        winners = self.parse(("end", "winners"), "end", expression=True)
        heuristic = self.parse(("heuristic",), "heuristic", expression=True) if "heuristic" in d else None

        setup = d.get("setup") or {}
        start_zone = setup.get("cards_in", "")
        if start_zone and start_zone not in zones:
            self._unknown(("setup", "cards_in"), "zone", start_zone, zones)
        elif start_zone and (zones[start_zone].per_player or zones[start_zone].slots):
            self.problem(("setup", "cards_in"), f"cards must start in a shared zone, and '{start_zone}' is per player",
                         None, "setup")
        if not start_zone:
            self.problem(("setup",) if "setup" in d else (), "the cardset does not say where the cards start",
                         "add 'setup: {cards_in: deck}'", "missing-key")
        end = d["end"]
        for key in ("totals", "round_scores"):
            if key in end:
                cname_ = end[key]
                if cname_ not in counters:
                    self._unknown(("end", key), "counter", cname_, counters)
                elif not counters[cname_].per_player:
                    self.problem(("end", key), f"'{cname_}' must be a per-player counter", None, "end")
        players = d["players"]
        if players["min"] > players["max"] and not self.is_repaired(("players", "min")) \
                and not self.is_repaired(("players", "max")):
            self.problem(("players",), f"players min ({players['min']}) is above max ({players['max']})", None, "range")
        for oname, o in options.items():
            if o.choices is not None and o.default not in o.choices:
                words = [c for c in o.choices if isinstance(c, str) and c.lower() in ("yes", "no", "on", "off")]
                hint = (f"{' and '.join(repr(w) for w in words)} are text here: write the truth values as true "
                        "and false" if words and isinstance(o.default, bool)
                        else f"its choices: {', '.join(repr(c) for c in o.choices)}")
                shown = {True: "true", False: "false"}.get(o.default, o.default) if isinstance(o.default, bool) \
                    else repr(o.default)
                self.problem(("options", oname, "default"), f"default {shown} is not among the choices", hint,
                             "option")
        earlier = bool(self.problems)

        cardset = Cardset(
            name=d["name"], title=d.get("title", d["name"]), file=self.src.file,
            min_players=players["min"], max_players=players["max"], zones=zones, counters=counters,
            vars={k: _start_value(v.get("value") if isinstance(v, dict) else v)
                  for k, v in (d.get("vars") or {}).items()}, options=options, cards=cards,
            procedures=procedures, functions=functions,
            start_zone=start_zone, program=program, winners=winners, totals=end.get("totals"),
            round_scores=end.get("round_scores"), heuristic=heuristic, description=d.get("description", ""),
            round_label=str((d["flow"].get("rounds") or {}).get("label") or "round").strip() or "round",
            hidden_vars=frozenset(k for k, v in (d.get("vars") or {}).items()
                                  if isinstance(v, dict) and v.get("visibility") == "nobody"),
        )
        if not self.skip_effects and not self.meaning_unsure:
            try:
                # the trigger check is check_references' own (it points at the 'on:' line)
                found = [p for p in check_cardset(cardset) if p.code != "trigger"]
                found += check_references(cardset, self.src.span)
            except RecursionError:
                found = [Problem("the effect text is nested too deeply to check", Span(self.src.file), None, "effect")]
            if earlier:  # what failed to parse signals nothing: a trigger may only seem unanswered
                found = [p for p in found if p.code != "trigger"]
            self.problems.extend(found)
        self.fail()
        try:
            found = lint(cardset, self.src.span)
        except RecursionError:  # pragma: no cover - the checks above would have failed first
            found = []
        warnings = sorted(found, key=lambda p: (p.span.file, p.span.line, p.span.column))
        return attrs.evolve(cardset, warnings=tuple(warnings))

    def abilities(self, path: tuple[Any, ...], c: Mapping[str, Any], context: str, what: str) -> dict[str, Ability]:
        """The abilities of a card (or of every card of a family) at ``path``, parsed once."""
        zones = self.data["zones"]
        abilities = {}
        for aname, a in (c.get("abilities") or {}).items():
            apath = path + ("abilities", aname)
            if isinstance(a, str):
                abilities[aname] = Ability(aname, None, self.parse(apath, context) or n.Block(()))
                continue
            body = self.parse(apath + ("do",), context)
            when = self.parse(apath + ("when",), context, expression=True) if "when" in a else None
            trigger_keys = [k for k in ("from", "optional", "instead", "label", "params") if k in a]
            if trigger_keys and "on" not in a:
                self.problem(apath + (trigger_keys[0],), f"'{trigger_keys[0]}' only makes sense with 'on'",
                             "add 'on: EVENT' to make this ability answer a signal", "trigger", key=True)
            zone = a.get("from")
            if "on" in a and zone is None:
                self.problem(apath, f"ability '{aname}' of {what} answers '{a['on']}' but does not say "
                             "from which zone", "add 'from: hand' (or another zone of the signalled player)",
                             "trigger", key=True)
            elif zone is not None and zone not in zones:
                self._unknown(apath + ("from",), "zone", zone, zones)
            abilities[aname] = Ability(
                aname, when, body or n.Block(()), a.get("text"), a.get("on"), zone, a.get("optional", True),
                a.get("instead", False), a.get("label"), tuple(a.get("params", ())),
            )
        return abilities

    def family(self, fam: str, f: Mapping[str, Any], cards: dict[str, CardDef]) -> None:
        """Add the card types of a family (one per combination of the values under 'each') to ``cards``.
        Problems point at the family's lines; its effect text is parsed once, for every card."""
        path = ("families", fam)
        each = f.get("each")
        if self.is_repaired(path) or any(p[:2] == path for p in self.repaired) or not isinstance(each, dict) \
                or not each or not all(isinstance(v, list) and v for v in each.values()):
            self.meaning_unsure = True  # its shape was already reported: its cards cannot be made
            return
        common = {k: _start_value(v) for k, v in (f.get("props") or {}).items()}
        dims = []
        for dim, values in f["each"].items():
            dims.append([{k: _start_value(x) for k, x in v.items()} if isinstance(v, dict) else {dim: _start_value(v)}
                         for v in values])
        context = f"family {fam}"
        abilities = self.abilities(path, f, context, f"family '{fam}'")
        include_if = self.parse(path + ("include_if",), context, expression=True) if "include_if" in f else None
        seen: dict[str, str] = {}
        for combo in itertools.product(*dims):
            props = dict(common)
            for part in combo:
                props.update(part)
            fields = {"family": fam, **props}
            default_id = "_".join([fam] + [str(next(iter(part.values()))) for part in combo])
            raw_id = self._fill(path + ("id",), f["id"], fields) if "id" in f else default_id
            if raw_id is None:
                return
            cid = re.sub(r"[\s\-']+", "_", raw_id.strip().lower())
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", cid):
                self.problem(path + ("id",) if "id" in f else path, f"family '{fam}' makes the card id '{cid}', "
                             "which is not a valid name", "ids are lower case letters, digits and '_', starting "
                             "with a letter: e.g. id: \"card_{rank}_{suit}\"", "name", key="id" not in f)
                return
            if cid in cards or cid in seen:
                other = seen.get(cid) or f"card '{cid}'"
                self.problem(path + ("id",) if "id" in f else path,
                             f"family '{fam}' makes the card id '{cid}' twice" if cid in seen
                             else f"family '{fam}' makes the card id '{cid}', which {other} already has",
                             "put every property that varies into the 'id' template, e.g. id: \"{rank}_of_{suit}\"",
                             "duplicate", key="id" not in f)
                return
            seen[cid] = f"family '{fam}'"
            name = self._fill(path + ("name",), f["name"], fields) if "name" in f else cid.replace("_", " ").title()
            text = self._fill(path + ("text",), f["text"], fields) if "text" in f else ""
            if name is None or text is None:
                return
            cards[cid] = CardDef(
                cid, name, f.get("count", 1), tuple(f.get("tags", ())), props, tuple(f.get("scoring", ())),
                abilities, include_if, text, self.src.span(path, key=True, card=name), fam,
            )

    def _fill(self, path: tuple[Any, ...], template: str, fields: Mapping[str, Any]) -> str | None:
        """A family's template with {property} filled in; None (and a problem) if it names no property."""
        def shown(value: Any) -> str:
            return {True: "true", False: "false"}.get(value, str(value)) if isinstance(value, bool) else str(value)

        try:
            names = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
        except ValueError:
            self.problem(path, f"'{path[-1]}' has a '{{' or '}}' without its partner",
                         "write {property} to fill in a property, {{ and }} for the braces themselves", "template")
            return None
        for name in names:
            if name not in fields:
                guess = difflib.get_close_matches(name, list(fields), n=1)
                hint = ("did you mean '{" + guess[0] + "}'?") if guess else f"the family's properties: {', '.join(fields)}"
                self.problem(path, f"'{path[-1]}' names '{{{name}}}', which is no property of the family", hint,
                             "template")
                return None
        return template.format_map({k: shown(v) for k, v in fields.items()})

    def _unknown(self, path: tuple[Any, ...], kind: str, name: str, pool: Mapping[str, Any]) -> None:
        if self.skip_effects:  # the section of those names was broken: every name would seem unknown
            return
        guess = difflib.get_close_matches(name, sorted(pool), n=1)
        hint = f"did you mean '{guess[0]}'?" if guess else f"known: {', '.join(sorted(pool)) or 'none'}"
        self.problem(path, f"unknown {kind} '{name}'", hint, "unknown-name")

    def check_names(self) -> None:
        """One name, one meaning: zones, counters, vars and procedures may not share names."""
        d = self.data
        seen: dict[str, str] = {}
        for section in ("zones", "counters", "vars"):
            for name in d.get(section) or {}:
                if name in seen:
                    self.problem((section, name), f"'{name}' is declared as both {seen[name]} and {section[:-1]}",
                                 "give them different names", "duplicate", key=True)
                seen.setdefault(name, section[:-1])
        for name in d.get("functions") or {}:
            if name in FUNCTIONS:
                self.problem(("functions", name), f"'{name}' is a built-in function", "pick another name",
                             "reserved", key=True)
        for section in ("zones", "counters", "vars", "procedures", "functions"):
            for name in d.get(section) or {}:
                if name in KEYWORDS or name in BUILTIN_NAMES:
                    self.problem((section, name), f"'{name}' is a reserved word of the effect language",
                                 "pick another name", "reserved", key=True)

    def build_program(self) -> n.Block:
        """The whole game as one statement tree: setup, then rounds of phases (or phases once)."""
        d = self.data
        parts: list[n.Stmt] = []
        setup = d.get("setup") or {}
        if "do" in setup:
            body = self.parse(("setup", "do"), "setup")
            if body is not None:
                parts.append(n.Phase("setup", body, self.src.span(("setup",), key=True, card="setup")))
        flow = d["flow"]
        if "rounds" in flow and "phases" in flow:
            self.problem(("flow",), "the flow has both 'rounds' and 'phases'", "put the phases under 'rounds:'",
                         "flow", key=True)
        if "rounds" not in flow and "phases" not in flow:
            self.problem(("flow",), "the flow needs 'rounds' or 'phases'", None, "missing-key", key=True)
        phases_path = ("flow", "rounds", "phases") if "rounds" in flow else ("flow", "phases")
        phases: list[n.Stmt] = []
        names: set[str] = set()
        listed = flow["rounds"]["phases"] if "rounds" in flow else flow.get("phases", [])
        for i, ph in enumerate(listed):
            if ph["name"] in names:
                self.problem(phases_path + (i, "name"), f"duplicate phase '{ph['name']}'", None, "duplicate")
            names.add(ph["name"])
            body = self.parse(phases_path + (i, "do"), f"phase {ph['name']}")
            phases.append(n.Phase(ph["name"], body or n.Block(()), self.src.span(phases_path + (i,), card=ph["name"])))
        block = n.Block(tuple(phases), self.src.span(phases_path))
        if "rounds" in flow:
            until = self.parse(("flow", "rounds", "until"), "rounds", expression=True)
            parts.append(n.Rounds(until or n.Literal(True), block, self.src.span(("flow", "rounds"), key=True)))
        else:
            parts.append(block)
        return n.Block(tuple(parts), self.src.span(("flow",), key=True))
