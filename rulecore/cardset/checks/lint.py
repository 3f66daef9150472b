"""Warnings, run by every load and kept on ``Cardset.warnings``: what loads but looks like a mistake.

A phase never reached, statements after ``end game``; a procedure, function, ability, zone,
counter, variable or option nothing uses; a signal no card answers; a card without a scoring
ladder among cards that have one; two cards with one display name; a text compared with card
names that nearly is one; a tag or property value only one card carries and no effect tests that
is spelt like another; and menus that tell what others cannot see (``telling``).

Checking files and folders for ``rulecore validate`` (which also makes games) is in
``rulecore.cli.validate``.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from ...errors import Problem, Span
from ...lang import nodes as n
from ...lang.nodes import walk
from .marks import mark_warnings
from .telling import telling_menus
from .walking import SpanOf, card_path, did_you_mean, nodes, one_per_family, text_of, trees, warning

if TYPE_CHECKING:
    from ..model import Cardset


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
    out.extend(telling_menus(cs))
    out.extend(mark_warnings(cs, at))
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
    for tree, where in trees(cs):
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
    for node in nodes(cs):
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
                name = text_of(node.args[1])
                every_ability |= name is None
                abilities.add(name or "")
            elif node.func == "in_zones":
                every_zone |= any(text_of(a) is None for a in node.args)
            elif node.func == "option" and node.args:
                name = text_of(node.args[0])
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
                                     did_you_mean(aname, abilities - {""},
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
        spans = [node.span for node in nodes(cs) if isinstance(node, n.Signal) and node.event == event]
        out.append(warning(spans[0], f"no card answers the signal '{event}'",
                         did_you_mean(event, answered, f"a card ability with 'on: {event}' would answer it"),
                         "trigger"))
    for event in sorted(answers_menus - answered):
        spans = [node.span for node in nodes(cs) if isinstance(node, n.AnswerOption) and node.event == event]
        out.append(warning(spans[0], f"'option answers \"{event}\"' offers nothing: no card answers '{event}'",
                         did_you_mean(event, answered, f"give a card an ability with 'on: {event}'"), "trigger"))
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
    for node in nodes(cs):
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
    tested = {node.value for node in nodes(cs) if isinstance(node, n.Literal) and isinstance(node.value, str)}
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
    """A card type without a scoring ladder when every other card type has one (a family counts once): then
    it was most likely forgotten. Several types without one are a choice (markers, other ways to score)."""
    types = one_per_family(cs)
    without = [card for card in types if not card.scoring]
    if len(without) != 1 or len(types) < 2:
        return []
    card = without[0]
    others = sum(1 for c in cs.cards.values() if c.scoring)
    return [warning(card.span, f"card '{card.id}' has no 'scoring' ladder, but all {others} other cards "
                    "have one: ladder_score() counts it as 0 points",
                    "add 'scoring: [...]' (points for 1, 2, 3, ... copies), or 'scoring: [0]' if it scores "
                    "nothing", "scoring")]
