"""Card families: a product of properties (suit x rank) made into ordinary card types at load.

Each test writes a small cardset with a family and reads what the loader made of it: the card
types, their ids, names, props and order, the problems (at the family's lines), what
``rulecore explain`` shows, and variants and includes of families.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import rulecore
from rulecore.cardset.explain import explain_entry, explain_game, find_entry
from rulecore.cardset.loader import load_cardset_text

BASE = """\
name: fams
players: {min: 2, max: 2}
zones:
  deck: {owner: none, visibility: nobody}
  hand: {owner: player, visibility: owner}
@CARDS@
families:
  suited:
    each:
      suit: [spades, hearts]
      rank:
        - {rank: 2, rank_name: Two}
        - {rank: 14, rank_name: Ace}
    id: "{rank_name}_of_{suit}"
    name: "{rank_name} of {suit}"
    text: "Worth {rank}; {family}."
    count: 2
    props: {kind: plain}
    abilities:
      play: |
        move this to hand of you
setup: {cards_in: deck}
flow:
  phases:
    - name: main
      do: |
        move deck to hand of 0
        use "play" of first(hand of 0) by 1
        say count(hand of 1)
        say cards(hand of 0)
end: {winners: players}
"""


def text(cards: str = "", family: str | None = None) -> str:
    out = BASE.replace("@CARDS@\n", f"cards:\n{textwrap.indent(cards, '  ')}" if cards else "")
    if family is not None:
        start = out.index("families:")
        end = out.index("setup:")
        out = out[:start] + family + out[end:]
    return out


def problems(body: str) -> list[tuple[int, int, str, str | None]]:
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text(body, "fams.yaml")
    return [(p.span.line, p.span.column, p.message, p.hint) for p in info.value.problems]


def line_col(body: str, needle: str) -> tuple[int, int]:
    pos = body.index(needle)
    return body.count("\n", 0, pos) + 1, pos - (body.rfind("\n", 0, pos) + 1) + 1


def test_a_family_becomes_one_card_type_per_combination():
    """suit x rank gives 4 card types, first property outermost, with ids, names, texts and props filled in."""
    cs = load_cardset_text(text(), "fams.yaml")
    assert list(cs.cards) == ["two_of_spades", "ace_of_spades", "two_of_hearts", "ace_of_hearts"]
    ace = cs.cards["ace_of_hearts"]
    assert (ace.name, ace.count, ace.text, ace.family) == ("Ace of hearts", 2, "Worth 14; suited.", "suited")
    assert dict(ace.props) == {"kind": "plain", "suit": "hearts", "rank": 14, "rank_name": "Ace"}
    assert ace.span.line == line_col(text(), "suited:")[0]


def test_family_cards_play_like_any_card():
    """The cards start in the order of the combinations and share the family's ability."""
    cs = load_cardset_text(text(), "fams.yaml")
    state = rulecore.Game(cs, 2).new_game(1)
    says = [e["text"] for e in state.events() if e["type"] == "say"]
    assert says == ["1", "1 Two of spades + 2 Ace of spades + 2 Two of hearts + 2 Ace of hearts"]
    assert state.result()["card_uses"] == {"two_of_spades": [0, 1]}


def test_family_cards_come_after_the_cards_and_default_ids_name_the_family():
    """Without an id template the id is the family's name and the values; family cards follow 'cards:'."""
    family = "families:\n  pip:\n    each:\n      colour: [red, blue]\n      size: [1, 2]\n"
    cs = load_cardset_text(text(cards="joker: {count: 1}\n", family=family).replace(
        'use "play" of first(hand of 0) by 1\n', ""), "fams.yaml")
    assert list(cs.cards) == ["joker", "pip_red_1", "pip_red_2", "pip_blue_1", "pip_blue_2"]
    assert cs.cards["pip_blue_2"].name == "Pip Blue 2"


@pytest.mark.parametrize(
    "change, needle, message, hint",
    [
        (('name: "{rank_name} of {suit}"', 'name: "{rank_nam} of {suit}"'), '"{rank_nam}',
         "'name' names '{rank_nam}', which is no property of the family", "did you mean '{rank_name}'?"),
        (('id: "{rank_name}_of_{suit}"', 'id: "{suit}"'), '"{suit}"',
         "family 'suited' makes the card id 'spades' twice",
         "put every property that varies into the 'id' template, e.g. id: \"{rank}_of_{suit}\""),
        (('id: "{rank_name}_of_{suit}"', 'id: "{rank}_{suit}"'), '"{rank}_{suit}"',
         "family 'suited' makes the card id '2_spades', which is not a valid name",
         "ids are lower case letters, digits and '_', starting with a letter: e.g. id: \"card_{rank}_{suit}\""),
        (('text: "Worth {rank}; {family}."', 'text: "Worth {rank"'), '"Worth {rank"',
         "'text' has a '{' or '}' without its partner",
         "write {property} to fill in a property, {{ and }} for the braces themselves"),
    ],
)
def test_template_problems_are_located_at_the_familys_line(change, needle, message, hint):
    """A bad template is one problem at its line, with no follow-up problems about the missing cards."""
    body = text().replace(*change)
    assert problems(body) == [(*line_col(body, needle), message, hint)]


def test_a_family_id_that_a_card_has_is_an_error():
    """A family may not make an id that a card under 'cards:' already has."""
    body = text(cards="ace_of_hearts: {count: 1}\n")
    assert problems(body) == [(*line_col(body, '"{rank_name}_of_{suit}"'),
                               "family 'suited' makes the card id 'ace_of_hearts', which card 'ace_of_hearts' "
                               "already has",
                               "put every property that varies into the 'id' template, e.g. id: \"{rank}_of_{suit}\"")]


def test_effect_problems_in_a_family_are_reported_once_at_its_lines():
    """A mistake in the family's ability is one problem (not one per card), at the family's text."""
    body = text().replace("move this to hand of you", "move this to hadn of you\n        say ranq")
    found = problems(body)
    assert [(line, col, msg) for line, col, msg, _ in found] == [
        (*line_col(body, "hadn"), "unknown zone or counter 'hadn'"),
    ]
    body = text().replace("move this to hand of you", "say this.rnk")
    assert problems(body) == [(*line_col(body, "this.rnk"), "cards have no property 'rnk'", "did you mean 'rank'?")]


def test_a_card_needs_cards_or_families():
    """A cardset with neither 'cards' nor 'families' says the cards are missing."""
    body = text(family="")
    assert [m for _, _, m, _ in problems(body)] == ["the cardset is missing the required key 'cards'"]


def test_explain_shows_a_family_and_its_cards():
    """'rulecore explain FILE FAMILY' lists its card types; a card says its family; the summary too."""
    cs = load_cardset_text(text(), "fams.yaml")
    assert find_entry(cs, "suited") == ("family", "suited")
    shown = explain_entry(cs, "family", "suited")
    assert shown.splitlines()[0].startswith("family 'suited' of fams: 4 card types, x2 each")
    assert "varies in: suit, rank, rank_name" in shown
    assert "  ace_of_hearts  Ace of hearts; suit hearts; rank 14; rank_name Ace" in shown
    assert "of the family 'suited'" in explain_entry(cs, "card", "ace_of_spades")
    assert "  suited         family of 4 card types, x2 each: two_of_spades .. ace_of_hearts" in explain_game(cs)


def test_a_variant_changes_or_removes_a_family(tmp_path: Path):
    """Variants merge into a family like into a card, and 'remove: {families: [...]}' takes it out."""
    (tmp_path / "base.yaml").write_text(text(cards="joker: {count: 1}\n"), encoding="utf-8")
    (tmp_path / "more.yaml").write_text("extends: base.yaml\nname: more\nfamilies:\n  suited: {count: 3}\n",
                                        encoding="utf-8")
    assert rulecore.load_cardset(tmp_path / "more.yaml").cards["ace_of_hearts"].count == 3
    (tmp_path / "less.yaml").write_text(
        "extends: base.yaml\nname: less\nremove: {families: [suited]}\nflow:\n  phases:\n    - name: main\n"
        "      do: say 1\n", encoding="utf-8")
    assert list(rulecore.load_cardset(tmp_path / "less.yaml").cards) == ["joker"]


def test_a_family_in_an_included_file(tmp_path: Path):
    """A family may come from an included file; its problems point into that file."""
    full = text()
    start, end = full.index("families:"), full.index("setup:")
    (tmp_path / "deck.yaml").write_text(full[start:end].replace("{rank_name} of", "{rank_nme} of"), encoding="utf-8")
    (tmp_path / "main.yaml").write_text(full[:start] + "include: [deck.yaml]\n" + full[end:], encoding="utf-8")
    with pytest.raises(rulecore.CardsetError) as info:
        rulecore.load_cardset(tmp_path / "main.yaml")
    (problem,) = info.value.problems
    assert problem.span.file.endswith("deck.yaml") and "'{rank_nme}'" in problem.message


@pytest.mark.parametrize(
    "change, message",
    [
        (("      suit: [spades, hearts]\n", "      suit: []\n"), "'suit' must list at least 1 item (it is empty)"),
        (("families:\n  suited:", "families:\n  - suited:"), "'families' must be a mapping (key: value lines)"),
        (('    id: "{rank_name}_of_{suit}"\n', '    id: 3\n'), "'id' must be a text (got 3)"),
    ],
)
def test_a_family_of_the_wrong_shape_is_one_problem(change, message):
    """A family the schema refuses is reported once, without follow-ups about the cards it would have made."""
    found = problems(text().replace(*change))
    assert len(found) == 1 and found[0][2].startswith(message), found

