"""Effect trees rendered back to text (rulecore/lang/render.py): text that parses to the same tree."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulecore
from rulecore.lang import nodes as n
from rulecore.cardset.building.effects import declared_symbols
from rulecore.cardset.explain import _phases
from rulecore.lang.names import Symbols
from rulecore.lang.parser import parse_effect
from rulecore.lang.render import quote, render_block, render_expr
from rulecore._resources import builtin_path
from rulecore.cardset.reading.files import Files
from rulecore.cardset.reading.reader import read_cardset
from rulecore.errors import Span


def symbols_of(name: str) -> Symbols:
    path = builtin_path(name)
    return declared_symbols(read_cardset(path, Files(path)).data)


def no_span(line: int, column: int) -> Span:
    return Span()


def trees(cs: rulecore.Cardset) -> list[tuple[str, Any, bool]]:
    """Every effect tree of a cardset: (label, tree, is an expression)."""
    out: list[tuple[str, Any, bool]] = []
    for card in cs.cards.values():
        for a in card.abilities.values():
            out.append((f"{card.id}.{a.name}", a.body, False))
            if a.when is not None:
                out.append((f"{card.id}.{a.name}.when", a.when, True))
        if card.include_if is not None:
            out.append((f"{card.id}.include_if", card.include_if, True))
    out += [(f"procedure {p.name}", p.body, False) for p in cs.procedures.values()]
    out += [(f"function {f.name}", f.body, True) for f in cs.functions.values()]
    out += [(f"phase {p.name}", p.body, False) for p in _phases(cs).values()]
    out.append(("winners", cs.winners, True))
    if cs.heuristic is not None:
        out.append(("heuristic", cs.heuristic, True))
    return out


@pytest.mark.parametrize("name", rulecore.builtin_cardsets())
def test_render_round_trips_every_builtin_tree(name: str) -> None:
    """parse(render(tree)) builds an equal tree, for every ability of every card (and every other tree)."""
    cs = rulecore.load_cardset(name)
    symbols = symbols_of(name)
    checked = 0
    for label, tree, expression in trees(cs):
        text = render_expr(tree) if expression else render_block(tree)
        again, found = parse_effect(text, symbols, no_span, expression=expression)
        assert found == [], (label, text, [p.message for p in found])
        assert again == tree, (label, text)
        checked += 1
    assert checked >= len([a for c in cs.cards.values() for a in c.abilities])


def test_rendering_is_readable() -> None:
    """A rendered block is one statement a line, elif chains stay flat, a condition reads as written."""
    cs = rulecore.load_cardset("witching-hour")
    text = render_block(cs.cards["cauldron"].abilities["play"].body)
    assert text.splitlines()[:3] == ["move this to hex of you", "let drawn = random(discard, 2)", "look at drawn by you"]
    assert "} elif count(drawn) == 1 {" in text
    when = cs.cards["book"].abilities["play"].when
    assert render_expr(when) == "count(opponents where count(hand of it) > 0) > 0"


@pytest.mark.parametrize("text", [
    'say "a \\"quoted\\" word, a back\\\\slash, a\\nnew line, Æther"',
    "say (1 + 2) * 3 - -4 % 2",
    "say 1 - (2 - 3)",
    "say not (true and false) or not true",
    "say (players where it != you) where count(hand of it) > 0",
    "say (hand of left of you).name",
    "say top(deck, 2) + [1, 2]",
    "let x = choose up to 2 cards from hand of you by left of you \"Pick\"",
    "let x = choose exactly count(deck) cards from deck",
    "let x = choose 2 cards from deck",
    "mark card top(deck) as \"a\" + \"b\"",
    "unmark player you \"x\"",
    "move deck to hand of you at bottom face up",
    "take turns from 0 counterclockwise skipping it == 1 until round > 2 { say 1 }",
    'choose by you "Go" always { option "A" when true { say 1 } option each c in deck label c.name { say c } }',
    'signal "hit" for you with x, y else { say 1 }',
    'in any order for each p in players { choose by p { option "Wait" when can_pass { pass } option "Go" { say p } } }',
    "simultaneously in any order for each p in opponents { say p }",
    'let x = choose card from deck by you "Pass " + (1 + 2) + item(["a"], 0) + ("b" + x)',
    'choose by you "Round " + round + "?" always { option "A" { say 1 } }',
    'let x = choose card from deck by you "Pass " + round always',
    "let x = choose up to 2 cards from hand of you always",
    "sort hand of you by [it.name, -it.rank] say sorted(deck where it.rank > 1, it.rank)",
])
def test_render_round_trips_tricky_text(text: str) -> None:
    """Quotes, escapes, brackets, choices, menus, signals and turns render to text that parses to the same tree."""
    symbols = symbols_of("witching-hour")
    tree, found = parse_effect(text, symbols, no_span)
    assert found == [], [p.message for p in found]
    again, found = parse_effect(render_block(tree), symbols, no_span)
    assert found == [] and again == tree, render_block(tree)


# random expression trees: whatever the nesting, brackets go where the grammar needs them
names = st.sampled_from(["x", "y"]).map(lambda s: n.Var(s))
atoms = st.one_of(names, st.integers(0, 9).map(n.Literal), st.sampled_from(["a", 'q"uote']).map(n.Literal),
                  st.just(n.Builtin("you")), st.just(n.ZoneRef("deck", None)))


def compound(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.tuples(st.sampled_from("+-*/%"), inner, inner).map(lambda t: n.BinOp(*t)),
        st.tuples(st.sampled_from(["==", "<", ">="]), inner, inner).map(lambda t: n.Compare(*t)),
        st.tuples(inner, inner).map(lambda t: n.And(*t)),
        st.tuples(inner, inner).map(lambda t: n.Or(*t)),
        inner.map(n.Not), inner.map(n.Neg),
        st.tuples(inner, inner).map(lambda t: n.Where(*t)),
        st.tuples(inner, inner, st.booleans()).map(lambda t: n.Contains(*t)),
        inner.map(lambda e: n.Attr(e, "name")),
        inner.map(lambda e: n.ZoneRef("hand", e)),
        inner.map(lambda e: n.Seat(e, 1)),
        st.lists(inner, max_size=3).map(lambda xs: n.Call("max", tuple(xs) or (n.Literal(1),))),
        st.lists(inner, max_size=3).map(lambda xs: n.ListExpr(tuple(xs))),
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.recursive(atoms, compound, max_leaves=12))
def test_render_round_trips_random_expressions(tree: Any) -> None:
    """Any nesting of expressions renders with brackets exactly where the grammar needs them."""
    symbols = symbols_of("witching-hour")
    text = render_expr(tree)
    again, found = parse_effect(text, symbols, no_span, expression=True)
    assert found == [] and again == tree, text


def test_quote() -> None:
    """quote escapes quotes and backslashes so the text reads back as it was."""
    assert quote('say "hi"\\') == '"say \\"hi\\"\\\\"'
