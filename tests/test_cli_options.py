"""--option key=value and --bots text (rulecore/cli/options.py)."""

from __future__ import annotations

import fakegame
from rulecore.cli.options import parse_options, split_names


def test_parse_options_converts_by_spec() -> None:
    """parse_options converts ints, bools and choices using the cardset's option specs."""
    specs = fakegame.FakeCardset().options
    assert parse_options(["heap=12", "max_take=2", "bonus=false"], specs) == {
        "heap": 12,
        "max_take": 2,
        "bonus": False,
    }


def test_split_names_keeps_a_bots_settings_together() -> None:
    """--bots text splits at commas, but key=value parts continue the settings of the bot before them."""
    assert split_names("ismcts:iterations=200,c=0.7, random,,greedy") == ["ismcts:iterations=200,c=0.7", "random",
                                                                           "greedy"]
    assert split_names("mybots:Lookahead") == ["mybots:Lookahead"]  # the case of a user's bot is kept
