"""Sealed parts (``simultaneously``): until the reveal the others see the table as it was when the parts
began (where cards went, how many, counters, variables, marks), in views, view keys, observations and
resamples; then everything.  The tiny cardset of conftest.py: apple 0, 1, 2; bean 3, 4; coin 5."""

from __future__ import annotations

import json

import pytest


# Chopsticks: each seat draws a hand of two, then picks one card, or two, face down, in secret; on the
# way it changes a counter, a variable, a card's and its own marks.
CHOPSTICKS = """
shuffle deck
for each p in players { move top(deck, 2) to hand of p }
simultaneously for each p in players {
  let c = choose card from hand of p by p "Pick"
  move c to pile of p face down
  choose by p "Chopsticks?" {
    option "Another" {
      let d = choose card from hand of p by p "Pick again"
      move d to pile of p face down
      add 1 to score of p
      add 1 to pool
      set x to x + 1
      mark card c "doubled"
      mark player p "greedy"
    }
    option "Done" { }
  }
}
say "revealed"
"""


def _chopsticks(tiny, players=2):
    return tiny.run(CHOPSTICKS, players=players, seed=3)


def test_a_seat_picking_two_is_not_seen_picking_two_while_the_others_pick(tiny):
    """Seat 0 picks two (chopsticks); seat 1's view, while it picks, shows hand/0 and pile/0 as they were
    when the parts began (2 and 0 cards), the counters, variable and player marks unchanged."""
    s = _chopsticks(tiny)
    before = s.view(1)
    s.apply(s.legal_actions()[0])
    s.apply("Another")  # (the second pick, of the one card left, is taken at once)
    assert s.current_player == 1
    seen = s.view(1)
    assert seen["zones"]["hand/0"]["count"] == 2 and seen["zones"]["pile/0"]["count"] == 0
    for key in ("counters", "vars", "player_marks"):
        assert seen[key] == before[key]
    assert seen["zones"] == before["zones"]
    assert s.view(0)["zones"]["pile/0"]["count"] == 2 and s.view(0)["player_marks"][0] == ["greedy"]
    assert s.public_view()["zones"]["pile/0"]["count"] == 0


def test_a_seat_picking_one_and_a_seat_picking_two_look_alike_to_the_other(tiny):
    """Seat 1's view, view key, observation and resamples are the same whether seat 0 picked one card or
    two (before seat 1 chose anything)."""
    one, two = _chopsticks(tiny), _chopsticks(tiny)
    one.apply(one.legal_actions()[0])
    one.apply("Done")
    two.apply(two.legal_actions()[0])
    two.apply("Another")
    assert one.current_player == two.current_player == 1
    assert one.view(1) == two.view(1)
    assert one._view_key(1) == two._view_key(1)
    assert one.observation(1) == two.observation(1)
    for seed in range(4):
        a, b = json.loads(one.resample(1, seed).to_json()), json.loads(two.resample(1, seed).to_json())
        for key in ("zones", "counters", "vars", "marks", "player_marks", "faceup", "facedown", "sealed_cards"):
            assert a[key] == b[key], key


def test_the_seat_itself_sees_its_own_part_and_not_the_earlier_ones(tiny):
    """Seat 1, picking after seat 0 picked two, sees its own pick at once but still none of seat 0's."""
    s = _chopsticks(tiny)
    s.apply(s.legal_actions()[0])
    s.apply("Another")  # (the second pick, of the one card left, is taken at once)
    s.apply(s.legal_actions()[0])  # seat 1 picks one
    assert s.current_player == 1 and s.decision.prompt == "Chopsticks?"
    seen = s.view(1)
    assert seen["zones"]["hand/1"]["count"] == 1 and seen["zones"]["pile/1"]["count"] == 1
    assert seen["zones"]["pile/0"]["count"] == 0 and seen["counters"]["pool"] == 5
    assert s.seen_by(1).zones["pile/1"] == s.zones["pile/1"]


def test_everything_shows_at_the_reveal(tiny):
    """Once every part is done, every seat sees the table as it is."""
    s = _chopsticks(tiny)
    s.apply(s.legal_actions()[0])
    s.apply("Another")  # (the second pick, of the one card left, is taken at once)
    s.apply(s.legal_actions()[0])
    s.apply("Done")
    assert s.is_terminal() or s.sealed_ops == ()
    seen = s.view(1)
    assert seen["zones"]["pile/0"]["count"] == 2 and seen["counters"]["pool"] == 6
    assert seen["vars"]["x"] == 1 and seen["player_marks"][0] == ["greedy"]
    assert s.seen_by(1) is s


def test_a_state_in_the_middle_of_sealed_parts_saves_loads_and_shows_the_same(tiny):
    """The sealed changes are saved: a state loaded (checked by replay, and trusted) shows seat 1 the same."""
    s = _chopsticks(tiny)
    s.apply(s.legal_actions()[0])
    s.apply("Another")  # (the second pick, of the one card left, is taken at once)
    for again in (s.game.load_state(s.to_json()), s.game.load_state(s.to_json(), trusted=True)):
        assert again.to_json() == s.to_json()
        assert again.view(1) == s.view(1)


def test_a_resample_inside_sealed_parts_keeps_the_promise(tiny):
    """A world for seat 1 inside the parts shows seat 1 the same view, plays on to the end, and a world of
    that world for the same seed is the same world."""
    s = _chopsticks(tiny, players=3)
    s.apply(s.legal_actions()[0])
    s.apply("Another")  # (the second pick, of the one card left, is taken at once)
    for seed in range(5):
        world = s.resample(1, seed)
        assert world.view(1) == s.view(1)
        assert world.resample(1, 9).to_json() == s.resample(1, 9).to_json()
        while not world.is_terminal():
            world.apply(world.legal_actions()[-1])


def test_a_broken_sealed_note_in_a_trusted_save_is_refused(tiny):
    """A save whose sealed notes name no card is refused with a StateError, not a Python exception."""
    import rulecore

    s = _chopsticks(tiny)
    s.apply(s.legal_actions()[0])
    data = json.loads(s.to_json())
    data["sealed_ops"][0][2] = 999
    with pytest.raises(rulecore.StateError):
        s.game.load_state(json.dumps(data), trusted=True)


def test_a_layout_arranged_inside_sealed_parts_is_seen_by_every_seat(tiny):
    """arrange() while the parts run: every seat sees the new layout (nothing of it is taken back)."""
    s = _chopsticks(tiny)
    s.apply(s.legal_actions()[0])
    s.apply("Another")  # seat 0 picked two, held back from seat 1
    assert s.view(1)["zones"]["pile/0"]["count"] == 0
    s.arrange({"pile/0": ["coin"], "hand/0": []}, rest="deck")
    assert s.view(1)["zones"]["pile/0"]["count"] == 1 and s.view(1)["zones"]["hand/0"]["count"] == 0
    assert s.view(1)["zones"]["deck"] == s.view(0)["zones"]["deck"]


TURNING = """
move top(deck, 2) to shown of 0
move bottom(deck, 2) to shown of 1
simultaneously for each p in players {
  let c = choose card from shown of p by p "Hide"
  turn c face down
}
say "revealed"
"""


def test_a_card_turned_face_down_in_a_part_is_hidden_only_at_the_reveal(tiny):
    """Seat 0 turns one of its two face-up apples face down in its part (taken at once: one choice):
    seat 1, still choosing, sees both apples as before; the card is hidden from seat 1 at the reveal."""
    s = tiny.run(TURNING, players=2, seed=3)
    assert s.current_player == 1
    assert s.view(1)["zones"]["shown/0"] == {"count": 2, "cards": ["apple", "apple"]}
    assert s.public_view()["zones"]["shown/0"] == {"count": 2, "cards": ["apple", "apple"]}
    assert s.view(0)["zones"]["shown/0"]["cards"].count(None) == 1  # the seat itself sees it face down
    loaded = s.game.load_state(s.to_json())  # the note of the turn is saved and read back
    assert loaded.view(1) == s.view(1) and loaded.view(0) == s.view(0)
    s.apply(s.legal_actions()[0])
    assert s.view(1)["zones"]["shown/0"]["cards"].count(None) == 1
