"""The checks only a whole cardset allows, run by every load.

Two parts:

- :func:`check_references` (errors, run by every load): names written as text that
  must exist (``option("mode")`` and its choices, ``phase == "score"``,
  ``in_zones("hand")``, ``usable(c, "play")``, ``prop(c, "colour")``, card names),
  and values of the wrong kind where the text alone shows it (a zone where a number
  is expected, a number where cards are).
- :func:`lint` (warnings, kept on ``Cardset.warnings``): things that load but look
  like mistakes: a phase never reached, statements after ``end game``, a procedure,
  function, ability, zone, counter, variable or option nothing uses, a signal no
  card answers, a card without a scoring ladder among cards that have one, two
  cards with one display name, a text compared with card names that nearly is one, a tag or
  property value only one card carries and no effect tests that is spelt like another.

Checking files and folders for ``rulecore validate`` (which also makes games) is in
``rulecore.cli.validate``.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from ..errors import Problem, Span
from ..lang import nodes as n
from ..lang.kinds import KIND_WORDS, kind_of
from ..lang.nodes import walk
from .checker import CARD_ATTRS, card_path, one_per_family
from .explain import render_expr

if TYPE_CHECKING:
    from .loader import Cardset

SpanOf = Callable[..., Span]

# ----------------------------------------------------------------------------- walking


def _trees(cs: "Cardset") -> Iterator[tuple[Any, str]]:
    """Every effect tree of the cardset, with a word for where it is."""
    for card in one_per_family(cs):  # the cards of a family share their trees
        who = card.name if card.family is None else f"family {card.family}"
        if card.include_if is not None:
            yield card.include_if, f"card '{card.name}'" if card.family is None else who
        for ability in card.abilities.values():
            where = f"{who}'s '{ability.name}'"
            yield ability.body, where
            if ability.when is not None:
                yield ability.when, where
    for proc in cs.procedures.values():
        yield proc.body, f"procedure '{proc.name}'"
    for func in cs.functions.values():
        yield func.body, f"function '{func.name}'"
    yield cs.program, "the flow"
    if cs.winners is not None:
        yield cs.winners, "end.winners"
    if cs.heuristic is not None:
        yield cs.heuristic, "heuristic"


def _nodes(cs: "Cardset") -> Iterator[Any]:
    for tree, _ in _trees(cs):
        yield from walk(tree)


def _text(e: Any) -> str | None:
    return e.value if isinstance(e, n.Literal) and isinstance(e.value, str) else None


def _guess(name: str, pool: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(name, sorted(set(pool)), n=1, cutoff=0.6)
    return found[0] if found else None


def _did_you_mean(name: str, pool: Iterable[str], otherwise: str) -> str:
    guess = _guess(name, pool)
    return f"did you mean '{guess}'?" if guess else otherwise


def phase_names(cs: "Cardset") -> list[str]:
    names: list[str] = []
    for node in walk(cs.program):
        if isinstance(node, n.Phase):
            names.append(node.name)
    return names


# ----------------------------------------------------------------------------- kinds

_KIND_HINTS = {
    "zone": "count(ZONE) is the number of cards in a zone",
    "players": "count(players) is the number of players",
    "list": "count([...]) is the number of items",
    "truth": "if_else(CONDITION, 1, 0) turns a condition into a number",
    "text": "numbers are written without quotes",
    "number": "a number is not a card; top(ZONE, n) gives the top n cards",
}


# ----------------------------------------------------------------------------- errors


class _References:
    def __init__(self, cs: "Cardset", span_of: SpanOf | None = None):
        self.cs = cs
        self.span_of = span_of
        self.problems: list[Problem] = []
        self.props = set(CARD_ATTRS)
        self.abilities: set[str] = set()
        for card in cs.cards.values():
            self.props.update(card.props)
            self.abilities.update(card.abilities)
        self.phases = set(phase_names(cs)) | {"setup"}
        self.card_names = {card.name for card in cs.cards.values()}

    def problem(self, span: Span, message: str, hint: str | None, code: str) -> None:
        self.problems.append(Problem(message, span, hint, code))

    def run(self) -> list[Problem]:
        signals: set[str] = set()
        for node in _nodes(self.cs):
            if isinstance(node, n.Call):
                self.call(node)
            elif isinstance(node, n.Compare) and node.op in ("==", "!="):
                self.equals(node.left, node.right)
                self.equals(node.right, node.left)
            elif isinstance(node, (n.Signal, n.AnswerOption)):
                signals.add(node.event)
            self.kinds(node)
        self.triggers(signals)
        if self.cs.heuristic is not None:
            self.expect(self.cs.heuristic, {"zone", "players", "player", "list", "text", "nothing"},
                        "the heuristic must give a number, got {got}: {text}",
                        "e.g. points of you - max_of(opponents, points of it); count(ZONE) for a zone")
        return self.problems

    def triggers(self, signals: set[str]) -> None:
        """A card ability answering ('on:') an event that no effect signals."""
        for card in one_per_family(self.cs):
            for ability in card.abilities.values():
                if ability.on is None or ability.on in signals:
                    continue
                span = card.span
                if self.span_of is not None:
                    span = self.span_of(card_path(card) + ("abilities", ability.name, "on"))
                hint = _did_you_mean(ability.on, signals, f"no effect says 'signal \"{ability.on}\" for ...'")
                self.problem(span, f"{card.name}'s '{ability.name}' answers '{ability.on}', which nothing signals",
                             hint, "trigger")

    # ---- names written as text
    def call(self, node: n.Call) -> None:
        args = node.args
        if node.func == "option" and args and _text(args[0]) is not None:
            option = _text(args[0]) or ""
            if option not in self.cs.options:
                self.problem(args[0].span, f"unknown option '{option}'",
                             _did_you_mean(option, self.cs.options, "declare it under 'options:'"), "unknown-name")
        elif node.func == "in_zones":
            for arg in args:
                name = _text(arg)
                if name is not None and name not in self.cs.zones:
                    self.problem(arg.span, f"unknown zone '{name}'",
                                 _did_you_mean(name, self.cs.zones, f"zones: {', '.join(self.cs.zones)}"), "unknown-name")
        elif node.func == "usable" and len(args) >= 2 and _text(args[1]) is not None:
            ability = _text(args[1]) or ""
            if ability not in self.abilities:
                self.problem(args[1].span, f"no card has an ability '{ability}'",
                             _did_you_mean(ability, self.abilities, "no card has an ability of that name"), "unknown-name")
        else:
            first_prop = {"prop": 1, "sets": 1, "shared_props": 2, "chain": 3}.get(node.func)
            if first_prop is None:
                return
            for arg in args[first_prop:]:
                name = _text(arg)
                if name is not None and name not in self.props:
                    self.problem(arg.span, f"cards have no property '{name}'",
                                 _did_you_mean(name, self.props, f"cards have: {', '.join(sorted(self.props))}"),
                                 "unknown-name")

    def equals(self, a: Any, b: Any) -> None:
        """``option("x") == "v"``, ``phase == "p"``, ``c.name == "Apple"``: the text must be one of them."""
        value = b.value if isinstance(b, n.Literal) else None
        if isinstance(a, n.Call) and a.func == "option" and a.args and _text(a.args[0]) in self.cs.options:
            spec = self.cs.options[_text(a.args[0])]  # type: ignore[index]
            if spec.choices is not None and isinstance(b, n.Literal) and value not in spec.choices:
                choices = ", ".join(repr(c) for c in spec.choices)
                guess = _guess(str(value), [str(c) for c in spec.choices])
                self.problem(b.span, f"option '{spec.name}' has no choice {value!r}",
                             f"did you mean '{guess}'?" if guess else f"its choices: {choices}", "unknown-name")
        elif isinstance(a, n.Builtin) and a.name == "phase" and isinstance(value, str) and value not in self.phases:
            self.problem(b.span, f"unknown phase '{value}'",
                         _did_you_mean(value, self.phases, f"phases: {', '.join(sorted(self.phases))}"), "unknown-name")
        elif isinstance(a, n.Attr) and a.name == "name" and isinstance(value, str) and value not in self.card_names:
            self.problem(b.span, f"no card is named '{value}'",
                         _did_you_mean(value, self.card_names, "card names are the 'name:' of each card"),
                         "unknown-name")

    # ---- kinds
    def expect(self, e: Any, bad: set[str], message: str, hint: str | None = None) -> None:
        kind = kind_of(e)
        if kind in bad:
            self.problem(e.span, message.format(got=KIND_WORDS[kind], text=shorten(render_expr(e))),
                         hint or _KIND_HINTS.get(kind), "kind")

    def kinds(self, node: Any) -> None:
        not_number = {"zone", "players", "list", "text", "truth"}
        if isinstance(node, n.BinOp):
            if node.op in "-*/%":
                for side in (node.left, node.right):
                    self.expect(side, not_number, f"'{node.op}' needs numbers, got {{got}}: {{text}}")
            else:
                left, right = kind_of(node.left), kind_of(node.right)
                if "number" in (left, right):
                    other = node.right if left == "number" else node.left
                    self.expect(other, {"zone", "players", "truth"}, "'+' adds numbers, got {got}: {text}")
        elif isinstance(node, n.Compare) and node.op in ("<", "<=", ">", ">="):
            for side in (node.left, node.right):
                self.expect(side, {"zone", "players", "list", "truth"}, f"'{node.op}' compares numbers, got {{got}}: {{text}}")
        elif isinstance(node, n.Neg):
            self.expect(node.operand, not_number, "'-' needs a number, got {got}: {text}")
        elif isinstance(node, n.CounterOp):
            self.expect(node.value, not_number, f"'{node.op}' needs a number, got {{got}}: {{text}}")
        elif isinstance(node, n.Repeat):
            self.expect(node.count, not_number, "'repeat' needs a number, got {got}: {text}")
        elif isinstance(node, n.Choose) and node.count is not None:
            self.expect(node.count, not_number, "how many to choose must be a number, got {got}: {text}")
        elif isinstance(node, n.Move):
            self.expect(node.cards, {"number", "truth", "text"}, "'move' needs cards or a zone, got {got}: {text}")
        elif isinstance(node, n.ForEach):
            self.expect(node.items, {"number", "truth"}, "'for each' needs a collection, got {got}: {text}",
                        "to do something N times, write 'repeat N { ... }'")
        elif isinstance(node, n.Call):
            if node.func == "count" and node.args:
                self.expect(node.args[0], {"number", "truth"}, "count() needs cards, a zone or a collection, got {got}: {text}")
            elif node.func in ("top", "bottom", "random") and len(node.args) == 2:
                self.expect(node.args[1], not_number, f"the second argument of {node.func}() is how many, got {{got}}: {{text}}")


def shorten(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def check_references(cs: "Cardset", span_of: SpanOf | None = None) -> list[Problem]:
    """Errors: names written as text that do not exist, answers to events nothing signals, values of the wrong kind."""
    return _References(cs, span_of).run()


# ----------------------------------------------------------------------------- warnings


def warning(span: Span, message: str, hint: str | None, code: str) -> Problem:
    return Problem(message, span, hint, code, "warning")


def lint(cs: "Cardset", span_of: SpanOf | None = None) -> list[Problem]:
    """Warnings: what loads but looks like a mistake."""

    def at(path: tuple[Any, ...], fallback: Span | None = None) -> Span:
        if span_of is not None:
            return span_of(path, key=True)
        return fallback or Span(cs.file)

    out: list[Problem] = []
    out.extend(_unreachable(cs))
    out.extend(_unused(cs, at))
    out.extend(_ladders(cs))
    out.extend(_near_card_names(cs))
    out.extend(_lone_spellings(cs, at))
    out.extend(_telling_menus(cs))
    names: dict[str, str] = {}
    for cid, card in cs.cards.items():
        if card.name in names:
            out.append(warning(card.span, f"cards '{names[card.name]}' and '{cid}' are both named '{card.name}'",
                             "players tell cards apart by name: give one of them another 'name:'", "duplicate"))
        names.setdefault(card.name, cid)
    return out


def _ends(stmt: Any) -> bool:
    return isinstance(stmt, (n.EndGame, n.Fail))


def _unreachable(cs: "Cardset") -> list[Problem]:
    out: list[Problem] = []
    # statements after 'end game', 'fail' or 'break' in the same block
    for tree, where in _trees(cs):
        for node in walk(tree):
            if isinstance(node, n.Block):
                for i, stmt in enumerate(node.body[:-1]):
                    if _ends(stmt) or isinstance(stmt, n.Break):
                        word = "break" if isinstance(stmt, n.Break) else ("end game" if isinstance(stmt, n.EndGame) else "fail")
                        nxt = node.body[i + 1]
                        if not isinstance(nxt, n.Phase):
                            out.append(warning(nxt.span, f"this statement in {where} is never run: it follows '{word}'",
                                             f"move it before the '{word}', or remove it", "unreachable"))
                        break
    # phases after one that always ends the game
    phases = [node for node in walk(cs.program) if isinstance(node, n.Phase)]
    for i, phase in enumerate(phases[:-1]):
        if any(_ends(stmt) for stmt in phase.body.body):
            for later in phases[i + 1:]:
                out.append(warning(later.span, f"phase '{later.name}' is never reached: phase '{phase.name}' always ends "
                                 "the game", "put the 'end game' inside an 'if', or remove the phase", "unreachable"))
            break
    return out


def _unused(cs: "Cardset", at: Callable[..., Span]) -> list[Problem]:
    called: set[str] = set()
    functions: set[str] = set()
    abilities: set[str] = set()
    zones: set[str] = {cs.start_zone}
    counters: set[str] = {c for c in (cs.totals, cs.round_scores) if c}
    variables: set[str] = set()
    options: set[str] = set()
    texts: set[str] = set()
    signals: set[str] = set()
    answered: set[str] = set()
    answers_menus: set[str] = set()
    every_ability = every_zone = every_option = False
    for node in _nodes(cs):
        if isinstance(node, n.CallProc):
            called.add(node.name)
        elif isinstance(node, n.UserCall):
            functions.add(node.func)
        elif isinstance(node, n.UseAbility):
            abilities.add(node.ability)
        elif isinstance(node, n.ZoneRef):
            zones.add(node.zone)
        elif isinstance(node, n.Rotate):
            zones.add(node.zone)
        elif isinstance(node, n.CounterRef):
            counters.add(node.counter)
        elif isinstance(node, (n.GameVar, n.SetVar)):
            variables.add(node.name)
        elif isinstance(node, n.Signal):
            signals.add(node.event)
        elif isinstance(node, n.AnswerOption):
            answers_menus.add(node.event)
        elif isinstance(node, n.Literal) and isinstance(node.value, str):
            texts.add(node.value)
        elif isinstance(node, n.Call):
            if node.func == "usable" and len(node.args) >= 2:
                name = _text(node.args[1])
                every_ability |= name is None
                abilities.add(name or "")
            elif node.func == "in_zones":
                every_zone |= any(_text(a) is None for a in node.args)
            elif node.func == "option" and node.args:
                name = _text(node.args[0])
                every_option |= name is None
                options.add(name or "")
    for card in cs.cards.values():
        for ability in card.abilities.values():
            if ability.on is not None:
                answered.add(ability.on)
                abilities.add(ability.name)
                if ability.zone:
                    zones.add(ability.zone)
    out: list[Problem] = []
    for name in cs.procedures:
        if name not in called:
            out.append(warning(at(("procedures", name)), f"procedure '{name}' is never called",
                             f"nothing says 'call {name}': remove it, or call it", "unused"))
    for name in cs.functions:
        if name not in functions:
            out.append(warning(at(("functions", name)), f"function '{name}' is never used",
                             f"no effect text calls {name}(...)", "unused"))
    if not every_ability:
        for card in one_per_family(cs):
            for aname in card.abilities:
                if aname not in abilities:
                    whose = f"card '{card.id}'" if card.family is None else f"family '{card.family}'"
                    out.append(warning(at(card_path(card) + ("abilities", aname), card.span),
                                     f"ability '{aname}' of {whose} is never used",
                                     _did_you_mean(aname, abilities - {""},
                                                   f"nothing says 'use \"{aname}\" of ...' or usable(c, \"{aname}\"), "
                                                   "and it has no 'on:'"), "unused"))
    if not every_zone:
        for name in cs.zones:
            if name not in zones and name not in texts:
                out.append(warning(at(("zones", name)), f"zone '{name}' is never used",
                                 "no effect text moves cards to it or reads it", "unused"))
    for name in cs.counters:
        if name not in counters:
            out.append(warning(at(("counters", name)), f"counter '{name}' is never used",
                             "no effect text changes or reads it", "unused"))
    for name in cs.vars:
        if name not in variables:
            out.append(warning(at(("vars", name)), f"variable '{name}' is never used",
                             "no effect text sets or reads it", "unused"))
    if not every_option:
        for name in cs.options:
            if name not in options:
                out.append(warning(at(("options", name)), f"option '{name}' is never read",
                                 f"no effect text says option(\"{name}\"), so it changes nothing", "unused"))
    for event in sorted(signals - answered):
        spans = [node.span for node in _nodes(cs) if isinstance(node, n.Signal) and node.event == event]
        out.append(warning(spans[0], f"no card answers the signal '{event}'",
                         _did_you_mean(event, answered, f"a card ability with 'on: {event}' would answer it"),
                         "trigger"))
    for event in sorted(answers_menus - answered):
        spans = [node.span for node in _nodes(cs) if isinstance(node, n.AnswerOption) and node.event == event]
        out.append(warning(spans[0], f"'option answers \"{event}\"' offers nothing: no card answers '{event}'",
                         _did_you_mean(event, answered, f"give a card an ability with 'on: {event}'"), "trigger"))
    return out


def _compared_texts(node: Any) -> Iterator[n.Literal]:
    """Text literals that a condition compares or looks up (sides of ==/!=, items and lists of 'in'),
    and the texts of every list, which is where names to compare with are kept."""
    if isinstance(node, n.ListExpr):
        sides: tuple[Any, ...] = (node,)
    elif isinstance(node, n.Compare) and node.op in ("==", "!="):
        sides = (node.left, node.right)
    elif isinstance(node, n.Contains):
        sides = (node.item, node.collection)
    else:
        return
    for side in sides:
        for item in side.items if isinstance(side, n.ListExpr) else (side,):
            if isinstance(item, n.Literal) and isinstance(item.value, str):
                yield item


def _near_card_names(cs: "Cardset") -> list[Problem]:
    """A text compared with something that is not a card name but nearly is one: a misspelt name never matches."""
    names = {card.name for card in cs.cards.values()}
    known = names | set(cs.cards) | {t for card in cs.cards.values() for t in card.tags}
    known |= {str(v) for card in cs.cards.values() for v in card.props.values() if not isinstance(v, tuple)}
    out = []
    seen: set[int] = set()
    for node in _nodes(cs):
        for literal in _compared_texts(node):
            if id(literal) in seen or literal.value in known:
                continue
            seen.add(id(literal))
            found = difflib.get_close_matches(literal.value, sorted(names), n=1, cutoff=0.75)
            if found:
                out.append(warning(literal.span, f"'{literal.value}' is not a card name, but nearly is",
                                   f"did you mean '{found[0]}'? a misspelt name never matches c.name", "card-name"))
    return out


def _near(name: str, pool: Iterable[str]) -> str | None:
    """A close spelling of ``name`` in ``pool`` (stricter than _guess: short words differ by little)."""
    found = difflib.get_close_matches(name, sorted(set(pool) - {name}), n=1, cutoff=0.8)
    return found[0] if found else None


def _lone_spellings(cs: "Cardset", at: Callable[..., Span]) -> list[Problem]:
    """A tag, or a text value of a property, that one card carries and no effect tests, spelt like another.

    Such a value is read by nothing, so the card does not do what it seems to: most likely
    a misspelling of a value that several cards carry or an effect tests. (Two values on one
    card each, neither tested, are not told apart: which one would be the typo?)
    """
    tested = {node.value for node in _nodes(cs) if isinstance(node, n.Literal) and isinstance(node.value, str)}
    tags: dict[str, list[tuple[str, int]]] = {}
    values: dict[tuple[str, str], list[tuple[str, tuple[Any, ...]]]] = {}
    for cid, card in cs.cards.items():
        for i, tag in enumerate(card.tags):
            tags.setdefault(tag, []).append((cid, i))
        for key, value in card.props.items():
            items = value if isinstance(value, tuple) else (value,)
            for i, item in enumerate(items):
                if isinstance(item, str):
                    path = ("cards", cid, "props", key) + ((i,) if isinstance(value, tuple) else ())
                    values.setdefault((key, item), []).append((cid, path))
    out: list[Problem] = []
    for tag, on_cards in tags.items():
        common = {t for t, cards in tags.items() if len(cards) > 1}
        guess = _near(tag, common | tested) if len(on_cards) == 1 and tag not in tested else None
        if guess is not None:
            cid, i = on_cards[0]
            out.append(warning(at(("cards", cid, "tags", i), cs.cards[cid].span),
                               f"tag '{tag}' of card '{cid}' is on no other card and no effect tests it",
                               f"did you mean '{guess}'?", "spelling"))
    for (key, value), holders in values.items():
        if len(holders) != 1 or value in tested:
            continue
        guess = _near(value, {v for (k, v), cards in values.items() if k == key and len(cards) > 1} | tested)
        if guess is not None:
            cid, where = holders[0]
            out.append(warning(at(where, cs.cards[cid].span),
                               f"'{key}: {value}' of card '{cid}' is on no other card and no effect tests it",
                               f"did you mean '{guess}'?", "spelling"))
    return out


def _ladders(cs: "Cardset") -> list[Problem]:
    with_ladder = [c for c in cs.cards.values() if c.scoring]
    if not with_ladder:
        return []
    out = []
    for card in one_per_family(cs):
        if not card.scoring:
            out.append(warning(card.span, f"card '{card.id}' has no 'scoring' ladder, but {len(with_ladder)} other cards "
                             "have one: ladder_score() counts it as 0 points",
                             "add 'scoring: [...]' (points for 1, 2, 3, ... copies), or 'scoring: [0]' if it scores "
                             "nothing", "scoring"))
    return out


# ----------------------------------------------------------------------------- menus that tell


def _hidden_zones(cs: "Cardset") -> set[str]:
    return {name for name, z in cs.zones.items() if z.visibility != "everyone"}


def _reads_hidden(e: Any, cs: "Cardset", hidden: set[str], seen: set[str], tainted: frozenset[str] = frozenset(),
                  counted: frozenset[str] = frozenset()) -> bool:
    """Whether the value of ``e`` can depend on cards others cannot see (a hidden zone's count alone is public).

    ``tainted``: local variables bound to such values; ``counted``: those whose count alone is public."""
    if e is None:
        return False
    if isinstance(e, n.Var):
        return e.name in tainted
    if isinstance(e, n.Call) and e.func == "count" and len(e.args) == 1 and isinstance(e.args[0], n.ZoneRef):
        return _reads_hidden(e.args[0].owner, cs, hidden, seen, tainted)
    if isinstance(e, n.Attr) and e.name == "face_up" and _at_a_place(e.obj):
        # whether the card at a place (a zone's top, a local) lies face up is seen by everyone
        many = e.obj.args[1] if isinstance(e.obj, n.Call) and len(e.obj.args) > 1 else None
        return _reads_hidden(many, cs, hidden, seen, tainted)
    if isinstance(e, n.Call) and e.func == "count" and len(e.args) == 1 and isinstance(e.args[0], n.Var) \
            and e.args[0].name in counted:
        return False
    if isinstance(e, n.ZoneRef) and e.zone in hidden:
        return True
    if isinstance(e, n.Call) and e.func == "in_zones" and any(_text(a) in hidden for a in e.args):
        return True
    if isinstance(e, n.Call) and e.func in ("usable", "playable") and len(e.args) > 1 and _text(e.args[1]):
        name = _text(e.args[1])
        for card in cs.cards.values():
            ability = card.abilities.get(name or "")
            if ability is not None and _reads_hidden(ability.when, cs, hidden, seen):
                return True
    if isinstance(e, n.UserCall) and e.func not in seen:
        func = cs.functions.get(e.func)
        seen.add(e.func)
        if func is not None and _reads_hidden(func.body, cs, hidden, seen):
            return True
    return any(_reads_hidden(child, cs, hidden, seen, tainted, counted) for child in n.children(e))


def _at_a_place(e: Any) -> bool:
    """A card named by where it lies: a local, or first/last/top/bottom of a zone (whose owner is public)."""
    if isinstance(e, n.Var):
        return True
    return (isinstance(e, n.Call) and e.func in ("first", "last", "top", "bottom") and 1 <= len(e.args) <= 2
            and isinstance(e.args[0], n.ZoneRef))


def _public_count(value: Any, cs: "Cardset", hidden: set[str]) -> bool:
    """Whether the number of cards in ``value`` is public: a zone, ``cards(zone)``, or ``random``, ``top`` or
    ``bottom`` of a zone with a public N (the count of a zone is public, and each of these takes as many
    as it can)."""
    if isinstance(value, n.ZoneRef):
        return not _reads_hidden(value.owner, cs, hidden, set())
    if isinstance(value, n.Call) and value.func in ("cards", "random", "top", "bottom") and 1 <= len(value.args) <= 2:
        zone = value.args[0]
        many = value.args[1] if len(value.args) == 2 else None
        return (isinstance(zone, n.ZoneRef) and not _reads_hidden(zone.owner, cs, hidden, set())
                and (value.func != "cards" or many is None) and not _reads_hidden(many, cs, hidden, set()))
    return False


def _counted(tree: Any, cs: "Cardset", hidden: set[str]) -> frozenset[str]:
    """Local variables whose count is public: each 'let' of the name binds one (see _public_count)."""
    lets: dict[str, bool] = {}
    for node in walk(tree):
        if isinstance(node, n.Let):
            lets[node.name] = lets.get(node.name, True) and _public_count(node.value, cs, hidden)
        elif isinstance(node, (n.Choose, n.ForEach, n.DynamicOption, n.SetVar)):
            lets[node.name if isinstance(node, n.SetVar) else node.var] = False
    return frozenset(name for name, public in lets.items() if public)


def _shown(tree: Any, hidden: set[str]) -> dict[int, frozenset[str]]:
    """For each node inside a block: the locals that block shows everyone whatever happens (a top-level
    ``move x to`` a zone everyone sees or ``face up``, ``turn x face up``). Asking about such a card
    before it is shown tells nothing its showing does not."""
    out: dict[int, frozenset[str]] = {}
    for node in walk(tree):
        if not isinstance(node, n.Block):
            continue
        names = frozenset(
            s.cards.name for s in node.body
            if isinstance(s, (n.Move, n.Flip)) and isinstance(s.cards, n.Var) and (
                s.face == "up" or (isinstance(s, n.Move) and isinstance(s.dest, n.ZoneRef) and s.dest.zone not in hidden)))
        if names:
            for stmt in node.body:
                for inner in walk(stmt):
                    out[id(inner)] = out.get(id(inner), frozenset()) | names
    return out


def _tainted(tree: Any, cs: "Cardset", hidden: set[str]) -> frozenset[str]:
    """Local variables of a tree bound (by let, choose, for each or an option) to values that read hidden cards."""
    names: set[str] = set()
    for _ in range(3):  # a variable bound from another: a few rounds reach the usual chains
        before = len(names)
        for node in walk(tree):
            bound = {n.Let: "value", n.Choose: "source", n.ForEach: "items", n.DynamicOption: "source"}
            field = next((f for t, f in bound.items() if isinstance(node, t)), None)
            if field is not None and _reads_hidden(getattr(node, field), cs, hidden, set(), frozenset(names)):
                names.add(node.name if isinstance(node, n.Let) else node.var)
        if len(names) == before:
            break
    return frozenset(names)


def _telling(item: Any, cs: "Cardset", hidden: set[str], tainted: frozenset[str]) -> bool:
    """Whether the offering of ``item`` can depend on hidden cards."""
    if isinstance(item, n.AnswerOption):
        return any(a.on == item.event and a.zone in hidden for c in cs.cards.values() for a in c.abilities.values())
    if isinstance(item, n.DynamicOption) and _reads_hidden(item.source, cs, hidden, set(), tainted):
        return True
    return _reads_hidden(item.cond, cs, hidden, set(), tainted)


_ALWAYS_HINT = "add 'always' after the prompt (choose by P \"...\" always { ... }) so that it is asked every time"
_PICK_HINT = "add 'always' after the prompt (let x = choose card from ... by P \"...\" always) so that it is asked every time"


def _every_branch_asks(node: n.If) -> bool:
    """Whether each way through the 'if' (the missing 'else' too) holds a menu: then others see a question either way."""
    bodies = [body for _, body in node.branches] + [node.orelse]
    return all(body is not None and any(isinstance(x, (n.Menu, n.Choose)) for x in walk(body)) for body in bodies)


def _menu_name(menu: "n.Menu | n.Choose") -> str:
    """A menu or pick as a warning names it: 'the menu' or 'the choice', then its prompt (a computed one as
    written), else the chosen variable (of a pick) or 'this menu'."""
    what = "the menu" if isinstance(menu, n.Menu) else "the choice"
    if menu.prompt is None or menu.prompt == "":
        return "this menu" if isinstance(menu, n.Menu) else f"the choice of '{menu.var}'"
    return f"{what} " + (f"'{menu.prompt}'" if isinstance(menu.prompt, str) else render_expr(menu.prompt))


def _telling_menus(cs: "Cardset") -> list[Problem]:
    """Menus whose asking depends on hidden cards: without 'always' one that can shrink to one option
    (then it is not asked), and any menu asked only under an 'if' on hidden cards."""
    hidden = _hidden_zones(cs)
    out: list[Problem] = []
    for tree, _where in _trees(cs):
        tainted, counted = _tainted(tree, cs, hidden), _counted(tree, cs, hidden)
        shown = _shown(tree, hidden)
        guarded: set[int] = set()
        for node in walk(tree):
            if isinstance(node, n.If) and any(_reads_hidden(c, cs, hidden, set(), tainted - shown.get(id(node), frozenset()),
                                                            counted) for c, _ in node.branches) \
                    and not _every_branch_asks(node):
                for inner in walk(node):
                    if isinstance(inner, (n.Menu, n.Choose)) and id(inner) not in guarded:
                        guarded.add(id(inner))
                        out.append(warning(inner.span, f"{_menu_name(inner)} is asked only when an 'if' on cards "
                                           "others cannot see holds: they learn about those cards from being asked "
                                           "or not", "ask it every time ('always'), and leave out the options that "
                                           "do not apply with 'when'", "telling"))
            if not isinstance(node, (n.Menu, n.Choose)) or node.always or id(node) in guarded:
                continue
            known = tainted - shown.get(id(node), frozenset())
            if isinstance(node, n.Menu) and any(_telling(item, cs, hidden, known) for item in node.items):
                out.append(warning(node.span, f"{_menu_name(node)} is not asked when only one option is left, and "
                                   "which options there are depends on cards others cannot see: they learn about "
                                   "them", _ALWAYS_HINT, "telling"))
            elif isinstance(node, n.Choose) and _reads_hidden(node.source, cs, hidden, set(), known):
                out.append(warning(node.span, f"{_menu_name(node)} is not asked when only one answer is left, and "
                                   "which answers there are depends on cards others cannot see: they learn about "
                                   "them", _PICK_HINT, "telling"))
    return out
