"""Where card types can lie (rulecore/engine/encoding/reach.py), read from the effect text of the game."""

from __future__ import annotations

import rulecore
from rulecore.engine.encoding.actions import ActionCodec
from rulecore.engine.encoding.reach import Reach
from rulecore.lang import nodes as n


def _reach(name: str, players: int, options: dict | None = None) -> tuple[rulecore.Game, Reach]:
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    return game, Reach(game.rules, ActionCodec.texts(game.rules))


def test_conditions_on_what_a_card_is_keep_types_out():
    """A 'where' on tags keeps other types out of a zone: a Witching Hour block never holds a Bell
    (cannot_block), and Approaching Dawn's facing zone holds only Enemies."""
    game, reach = _reach("witching-hour", 3)
    assert "bell" not in reach.zones["block"] and "bell" in reach.zones["attack"]
    game, reach = _reach("approaching-dawn", 2)
    assert reach.zones["facing"] and all("enemy" in game.rules.defs[t].tags for t in reach.zones["facing"])
    assert reach.zones["box"] == reach.all  # where every card starts


def test_options_are_read_where_a_condition_names_them():
    """`it.key == option("scene")` puts only the chosen Scene card in the scene zone."""
    for scene in ("blood-moon", "training-day"):
        game, reach = _reach("approaching-dawn", 2, {"scene": scene})
        assert [game.rules.defs[t].props.get("key") for t in reach.zones["scene"]] == [scene]


def test_face_up_zones_and_mark_words():
    """Zones where the text turns cards face up are found, and the mark words are literals or a literal
    joined to the values of what follows it (a card property, a game variable, a seat)."""
    game, reach = _reach("approaching-dawn", 3)
    assert {"locus", "lurking", "facing"} <= reach.face_up and "deck" not in reach.face_up
    colours = set(game.rules.cardset.vars["sigils"])
    assert reach.player_marks == {"open_" + c for c in colours}
    assert {"bound", "black", "white"} <= set(reach.marked)
    assert reach.marked["bound"] <= reach.zones["facing"] | reach.zones["guardian"] | reach.zones["lurking"]


def test_a_variable_the_text_never_sets_may_hold_any_card():
    """What the reading cannot tell counts as any card (the over-approximation is safe): the types of an
    unset variable, and of `it` outside a condition, are every type in play."""
    game, reach = _reach("witty-witches", 3)
    assert reach.types_of(n.Var("nobody_sets_this"), 0, frozenset()) == reach.all
    assert reach.types_of(n.Builtin("it"), 0, frozenset()) == reach.all
    assert reach.types_of(n.Literal(3), 0, frozenset()) == frozenset()
