"""Declared marks (cardset/checks/marks.py): 'marks:' and 'player_marks:' make a misspelt mark word a located error."""

from __future__ import annotations

import pytest

import rulecore
from rulecore.cardset.loader import load_cardset_text

DECLARED = """\
marks:
  used: its ability was used this turn
  soul_0: linked to seat 1
  soul_1: linked to seat 2
player_marks:
  shielded: takes no damage this round
"""

BODY = """\
mark card first(deck) "used"
if "used" in first(deck).marks { say 1 }
mark player 0 "shielded"
say count(table where "used" not in it.marks and ("soul_" + 1) in it.marks)
if "shielded" in player_marks(1) { mark card first(deck) as "soul_" + 0 }
"""


def problems(tiny, body: str, declared: str = DECLARED) -> list[rulecore.Problem]:
    with pytest.raises(rulecore.CardsetError) as err:
        load_cardset_text(tiny.text(body) + declared, tiny.file)
    return err.value.problems


def test_declared_marks_load_and_are_kept(tiny) -> None:
    """A cardset whose mark words are all declared loads without a mark warning, its lists on the Cardset."""
    cs = load_cardset_text(tiny.text(BODY) + DECLARED, tiny.file)
    assert cs.marks is not None and cs.marks["used"] == "its ability was used this turn"
    assert cs.player_marks == {"shielded": "takes no damage this round"}
    assert [w for w in cs.warnings if w.code in ("mark", "unused") and "mark" in w.message] == []


@pytest.mark.parametrize("wrong, right, message", [
    ('mark card first(deck) "usd"', "used", "card mark 'usd' is not declared under 'marks:'"),
    ('if "usde" in first(deck).marks { say 1 }', "used", "card mark 'usde' is not declared under 'marks:'"),
    ('say count(table where "usd" not in it.marks)', "used", "card mark 'usd' is not declared under 'marks:'"),
    ('unmark player 1 "shieldd"', "shielded", "player mark 'shieldd' is not declared under 'player_marks:'"),
    ('if "sheilded" in player_marks(0) { say 2 }', "shielded", "player mark 'sheilded' is not declared"),
    ('mark card first(deck) as "sol_" + 1', "soul_", "no card mark declared under 'marks:' starts with 'sol_'"),
])
def test_an_undeclared_mark_word_is_a_located_error_with_a_guess(tiny, wrong: str, right: str, message: str) -> None:
    """With a declared list, a mark word it lacks (marked, unmarked or tested, card or player) is an error at its line, with a did-you-mean."""
    text = tiny.text(BODY + wrong) + DECLARED
    (p,) = problems(tiny, BODY + wrong)
    assert message in p.message and p.code == "mark"
    assert p.hint == f"did you mean '{right}'?"
    assert p.span.line == tiny.line_of(text, wrong)[0]


def test_a_player_mark_used_on_a_card_says_so(tiny) -> None:
    """A word declared only as a player mark, used as a card mark, is an error whose hint says where it is declared."""
    (p,) = problems(tiny, 'mark card first(deck) "shielded"')
    assert p.message == "card mark 'shielded' is not declared under 'marks:'"
    assert "'shielded' is a player mark (under 'player_marks:')" in p.hint


def test_without_a_list_the_marks_used_are_a_warning(tiny) -> None:
    """A cardset without 'marks:' loads (as before), with one warning per kind that names the words and asks to declare them."""
    cs = tiny.cardset(BODY)
    found = [w for w in cs.warnings if w.code == "mark"]
    assert [w.message for w in found] == [
        "the card marks this cardset uses are not declared: soul_..., used",
        "the player marks this cardset uses are not declared: shielded",
    ]
    assert "list them under 'marks:'" in found[0].hint and found[0].severity == "warning"


def test_a_declared_mark_nothing_names_is_a_warning(tiny) -> None:
    """A declared word that no effect text names is an 'unused' warning at its declaration."""
    text = tiny.text(BODY) + DECLARED.replace("player_marks:", "  spare: never used\nplayer_marks:")
    cs = load_cardset_text(text, tiny.file)
    (w,) = [w for w in cs.warnings if "spare" in w.message]
    assert w.message == "card mark 'spare' is declared under 'marks:' but no effect text names it"
    assert w.span.line == tiny.line_of(text, "spare:")[0]


def test_the_builtin_cardsets_declare_their_marks() -> None:
    """Every built-in cardset that uses marks declares them (so none loads with a mark warning)."""
    for name in rulecore.builtin_cardsets():
        cs = rulecore.load_cardset(name)
        assert not [w for w in cs.warnings if w.code == "mark"], name
    assert "used" in (rulecore.load_cardset("approaching-dawn").marks or {})
