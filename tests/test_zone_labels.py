"""zones: `label:` -- the name people read for a zone in events, choices and tables."""

from __future__ import annotations

import pytest

import rulecore
from rulecore.cardset.fingerprint import fingerprint
from rulecore.cardset.loader import load_cardset_text

from conftest import Tiny

BODY = """
move top(deck) to hand of 0
move top(deck) to row of 2
move top(deck) to discard
"""


def _labelled(tiny: Tiny) -> str:
    text = tiny.text(BODY)
    text = text.replace("  hand: {owner: player, visibility: owner}",
                        "  hand: {owner: player, visibility: owner, label: Hand of cards}")
    text = text.replace("  row: {owner: none, visibility: everyone, slots: 3}",
                        "  row: {owner: none, visibility: everyone, slots: 3, label: Market space}")
    return text.replace("  discard: {owner: none, visibility: nobody}",
                        "  discard: {owner: none, visibility: nobody, label: Discard pile}")


def test_labels_name_zones_in_event_texts(tiny: Tiny) -> None:
    """A labelled zone reads by its label: "Player 0's Hand of cards", "Market space 2", "Discard pile"."""
    cardset = load_cardset_text(_labelled(tiny), tiny.file)
    assert cardset.zones["hand"].label == "Hand of cards" and cardset.zones["deck"].label == ""
    texts = [e["text"] for e in rulecore.Game(cardset, 2).new_game(1).events(None) if e["type"] == "move"]
    assert any(t.endswith("to Player 0's Hand of cards") for t in texts)
    assert any(t.endswith("deck to Market space 2") for t in texts)
    assert any(t.endswith("deck to Discard pile") for t in texts)


def test_without_labels_zones_read_by_their_names(tiny: Tiny) -> None:
    """No label: the zone's name, as before ("Player 0's hand", "row 2")."""
    texts = [e["text"] for e in tiny.run(BODY).events(None) if e["type"] == "move"]
    assert any(t.endswith("to Player 0's hand") for t in texts) and any(t.endswith("to row 2") for t in texts)


def test_a_label_changes_the_fingerprint_only_when_given(tiny: Tiny) -> None:
    """Saves of cardsets without labels keep their fingerprint; a label is part of the game when set."""
    plain = load_cardset_text(tiny.text(BODY), tiny.file)
    assert fingerprint(plain) != fingerprint(load_cardset_text(_labelled(tiny), tiny.file))
    assert fingerprint(plain) == fingerprint(load_cardset_text(tiny.text(BODY), tiny.file))


@pytest.mark.parametrize("label", ['""', "7", "[a]", "x" * 61])
def test_a_label_must_be_a_short_text(tiny: Tiny, label: str) -> None:
    """label: takes a text of 1 to 60 characters; anything else is a located load error."""
    text = tiny.text(BODY).replace("  hand: {owner: player, visibility: owner}",
                                   f"  hand: {{owner: player, visibility: owner, label: {label}}}")
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text(text, tiny.file)
    assert any("label" in p.message or "label" in p.render() for p in info.value.problems)
