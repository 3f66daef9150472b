"""`rulecore explain` (rulecore/cardset/explain.py, rulecore/cli/explain.py): effect trees shown as nodes with
their places, cards, families and whole games summarised."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

import rulecore
from rulecore.cardset.explain import best_total, explain_card, explain_game, tree_lines
from rulecore.cli import app

runner = CliRunner()


def test_tree_lines_show_nodes_and_places() -> None:
    """A tree is a line per node, indented under its parent, each with the @line:column of its text."""
    cs = rulecore.load_cardset("witching-hour")
    ability = cs.cards["chalice"].abilities["play"]
    lines = tree_lines(ability.body, file=ability.body.span.file)
    assert lines[0].startswith("Block  @")
    assert any(line.strip().startswith("Choose var=target kind=player") for line in lines)
    assert any("dest: ZoneRef zone=hex" in line for line in lines)
    line, col = ability.body.body[0].span.line, ability.body.body[0].span.column
    assert f"@{line}:{col}" in lines[1]


def test_explain_card_shows_tree_and_text() -> None:
    """A card shows its facts, each ability as effect tree and as text, and its scoring ladder."""
    cs = rulecore.load_cardset("witching-hour")
    text = explain_card(cs, "familiar")
    assert text.splitlines()[0].startswith("Familiar (card 'familiar' of witching-hour)")
    assert "answers 'attacked' from hand; optional" in text
    assert "effect tree:" in text and "as text:" in text
    assert "      move attack to discard" in text
    assert "scoring (copies: points): 1: 1, 2: 2, 3: 4, 4: 6, 5: 8" in text


def test_explain_game_summarises_phases_procedures_and_cards() -> None:
    """The game summary names the flow, its phases, the procedures and the cards."""
    cs = rulecore.load_cardset("witching-hour")
    text = explain_game(cs)
    assert text.startswith("Witching Hour (witching-hour), 2-5 players")
    for piece in ("flow: rounds of 3 phases", "1. deal", "2. play", "3. score", "procedures:",
                  "defend(attacker, defender, size)", "cards: 10 types, 56 cards", "familiar", "abilities block(on attacked)"):
        assert piece in text


@pytest.mark.parametrize("name", rulecore.builtin_cardsets())
def test_explain_every_builtin_card_and_game(name: str) -> None:
    """Every built-in game and every card of it can be explained."""
    cs = rulecore.load_cardset(name)
    assert explain_game(cs)
    for cid in cs.cards:
        assert explain_card(cs, cid)


def test_cli_explain() -> None:
    """`rulecore explain` prints a card, the game, a procedure or a phase; a typo gets a did-you-mean."""
    result = runner.invoke(app, ["explain", "witching-hour", "Cauldron"])
    assert result.exit_code == 0
    assert "let drawn = random(discard, 2)" in result.output and "Let name=drawn" in result.output
    result = runner.invoke(app, ["explain", "witching-hour"])
    assert result.exit_code == 0 and "cards: 10 types" in result.output
    result = runner.invoke(app, ["explain", "witching-hour", "defend"])
    assert result.exit_code == 0 and result.output.startswith("procedure defend(attacker, defender, size)")
    result = runner.invoke(app, ["explain", "witching-hour", "score"])
    assert result.exit_code == 0 and result.output.startswith("phase score")
    result = runner.invoke(app, ["explain", "witching-hour", "bel"])
    assert result.exit_code == 1 and "did you mean 'bell'?" in " ".join(result.output.split())
    assert runner.invoke(app, ["explain", "no-such-game"]).exit_code == 1


def test_explain_writes_property_values_in_the_languages_words() -> None:
    """A prop written 'none' in YAML is none, and explain shows it as 'none', not Python's None."""
    cs = rulecore.load_cardset("approaching-dawn")
    cid = next(k for k, card in cs.cards.items() if "icon" in card.props and card.props["icon"] is None)
    assert "  icon: none" in explain_card(cs, cid).splitlines()



@pytest.mark.parametrize("game, best", [
    ("witching-hour", "lowest"),  # lowest(players, total of it), totals: total
    ("witty-witches", None),  # lowest(players, count(hand of it)): not the totals
    ("approaching-dawn", None),  # players where not lost
    ("docs/examples/tiny-game.yaml", "highest"),  # highest(players, points of it), totals: points
])
def test_best_total_reads_how_the_winners_are_declared(game: str, best: str | None) -> None:
    """best_total says which end of the totals wins only when the winners are the lowest or highest of them."""
    assert best_total(rulecore.load_cardset(game)) == best


@pytest.mark.parametrize("game", [*rulecore.builtin_cardsets(), "docs/examples/tiny-game.yaml"])
def test_explain_game_counts_in_words(game: str) -> None:
    """The summary writes '1 phase', '1 statement', never '1 phases'; option values in the language's words."""
    text = explain_game(rulecore.load_cardset(game))
    assert not re.search(r"(?<![\d.])1 (phases|statements|types|cards|card types)\b", text), text
    assert re.search(r"\b\d+ (phase|statement)s?\b", text)
    assert not re.search(r"default (True|False|None|')", text)


def test_explain_game_of_one_phase() -> None:
    """A game of one phase says 'flow: 1 phase' and the lowest-total winner rule says which end wins."""
    assert "flow: 1 phase, once each" in explain_game(rulecore.load_cardset("witty-witches"))
    assert "  table_talk       default false:" in explain_game(rulecore.load_cardset("witty-witches"))
    assert "(the lowest total wins)" in explain_game(rulecore.load_cardset("witching-hour"))
