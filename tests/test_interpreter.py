"""Effect-language semantics, statement by statement and expression by expression.

Each test writes a tiny cardset inline (see ``conftest.Tiny``: apple x3 with tags red/fruit and
power 2, bean x2 with power 5, one Gold Coin with abilities 'play' and 'grab'), runs the phase
body under test and reads the outcome from 'say' events, zones, counters, vars and decisions.
"""

from __future__ import annotations

import re
import signal
from contextlib import contextmanager
from typing import Iterator

import pytest

import rulecore
from rulecore.cardset.loader import load_cardset_text
from rulecore.lang.functions import FUNCTIONS


def rejected(tiny, body: str, match: str | None = None) -> rulecore.RulecoreError:
    """``body`` is refused with a rulecore error: at load (CardsetError) when the checker can see the
    mistake, else when it runs (RuleError); never a bare Python exception.  ``match`` must be in the message."""
    try:
        game = tiny.game(body)
    except rulecore.CardsetError as exc:
        assert match is None or re.search(match, str(exc)), str(exc)
        return exc
    with pytest.raises(rulecore.RuleError) as info:
        game.new_game(1)
    assert match is None or re.search(match, str(info.value)), str(info.value)
    return info.value


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise TimeoutError in the main thread if the block runs longer than ``seconds``."""

    def handler(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# --------------------------------------------------------------------------- let / set


def test_let_binds_a_local_and_let_again_rebinds_it(tiny):
    """'let' binds a local variable; a second 'let' of the same name replaces its value."""
    s = tiny.run("let a = 3\nsay a\nlet a = a + 1\nsay a")
    assert tiny.says(s) == ["3", "4"]


def test_set_changes_a_game_variable(tiny):
    """'set NAME to' changes a variable declared under vars:, visible in every view."""
    s = tiny.run('set x to 41 + 1\nset word to "bye"')
    assert s.vars == {"x": 42, "word": "bye"}
    assert s.view(1)["vars"] == {"x": 42, "word": "bye"}


def test_set_on_a_game_counter_sets_the_counter(tiny):
    """'set pool to N' on a shared counter is a counter assignment (clamped like one)."""
    s = tiny.run("set pool to 7\nsay pool")
    assert s.counters["pool"] == [7]
    assert tiny.says(s) == ["7"]


def test_local_used_before_let_is_a_located_rule_error(tiny):
    """Reading a local that was never bound on this path raises a RuleError naming it."""
    with pytest.raises(rulecore.RuleError, match=r"'later' has no value here"):
        tiny.run("if false { let later = 1 }\nsay later")


def test_game_variables_start_from_their_declared_values(tiny):
    """vars: gives each new game its initial variable values."""
    s = tiny.run("say x\nsay word")
    assert tiny.says(s) == ["0", "hello"]


# --------------------------------------------------------------------------- counters


def test_none_and_null_in_yaml_start_a_variable_as_none(tiny):
    """'vars: {pack: none}' and 'gone: null' start as the language's none, not as the text "none"."""
    text = tiny.text('if pack == none and gone == none { say "none" }\nsay count(pack)\nmove pack to table')
    text = text.replace("  word: hello\n", "  word: hello\n  pack: none\n  gone: null\n")
    cs = load_cardset_text(text, "inline.yaml")
    assert cs.vars["pack"] is None and cs.vars["gone"] is None
    s = rulecore.Game(cs, 2).new_game(1)
    assert tiny.says(s) == ["none", "0"]


def test_text_used_as_a_zone_is_a_rule_error_in_plain_words(tiny):
    """A text that is no zone, used where cards are read, names the problem and shows no Python error text."""
    for body in ("for each c in word { say 1 }", "say count(word)", "move word to table", "say top(word)",
                 "say sum(word, it.power)", 'say in_zones(word)', 'for each c in "none" { say 1 }'):
        err = rejected(tiny, body)
        text = str(err)
        assert "is not a zone" in text, text
        assert not any(word in text for word in ("KeyError", "TypeError", "Error:", "Traceback")), text


def test_a_prompt_may_be_text_joined_with_more(tiny):
    """A choice's or a menu's prompt "text" + EXPR is worked out when the question is asked."""
    s = tiny.run('move top(deck, 4) to hand of 0\nlet dir = 1\n'
                 'let pick = choose card from hand of 0 by 0 "Pass three cards " + item(["left", "right"], dir)')
    assert s.decision.prompt == "Pass three cards right"
    s = tiny.run('choose by 0 "Round " + round + ": go on?" always { option "Yes" { say 1 } }')
    assert s.decision.prompt == "Round 0: go on?"


def test_a_prompt_may_be_any_text_expression(tiny):
    """A prompt may start with a name, a call or a property, not only a quoted text (issue 22)."""
    s = tiny.run('move top(deck, 2) to hand of 0\nlet msg = "Pick one"\nlet c = choose card from hand of 0 by 0 msg always')
    assert s.decision.prompt == "Pick one"
    s = tiny.run('choose by 1 player_name(1) + ", go on?" always { option "Yes" { say 1 } }')
    assert s.decision.prompt == "Player 1, go on?"
    s = tiny.run('move top(deck, 3) to hand of 0\nlet n = 2\nlet cs = choose exactly n cards from hand of 0 by 0 '
                 'player_name(0) always\ntake turns from 0 counterclockwise until true { say 1 }')
    assert s.decision.prompt.startswith("Player 0")


def test_sort_orders_a_zone_by_a_value_of_each_card(tiny):
    """'sort ZONE by EXPR' orders the cards, lowest first, ties in their order; a list sorts by several values."""
    s = tiny.run("move deck to hand of 0\nsort hand of 0 by 0 - it.power\nsay cards(hand of 0)\n"
                 "sort hand of 0 by [it.sweet == true, it.power]\nsay cards(hand of 0)")
    assert tiny.says(s) == ["1 Gold Coin + 2 Bean + 3 Apple", "2 Bean + 1 Gold Coin + 3 Apple"]
    assert s.zones["hand/0"] == [3, 4, 5, 0, 1, 2]  # the beans keep their order, then the coin, then the apples
    assert [e["text"] for e in s.events(1) if e["type"] == "sort"] == ["Player 0's hand is sorted"] * 2
    assert s.view(1)["zones"]["hand/0"] == {"count": 6}  # sorting shows nothing of a hidden hand


def test_sorted_gives_a_collection_in_order(tiny):
    """sorted(COLLECTION, value of it) gives the items in order, none last, and leaves the zone as it was."""
    s = tiny.run("say sorted(deck, it.power)\nsay sorted([3, 1, 2], it)\nsay sorted(deck, it.sweet)\n"
                 "say cards(deck)")
    assert tiny.says(s) == ["3 Apple + 2 Bean + 1 Gold Coin", "1, 2, 3", "3 Apple + 2 Bean + 1 Gold Coin",
                            "3 Apple + 2 Bean + 1 Gold Coin"]


def test_sort_by_values_of_different_kinds_is_a_rule_error(tiny):
    """Values that have no order between them (numbers and texts) are a RuleError naming the problem."""
    err = rejected(tiny, 'sort deck by if_else(it.power > 4, "high", 1)', "cannot put a number and a zone or text")
    assert "TypeError" not in str(err)
    rejected(tiny, "say sorted(deck, if_else(it.power > 4, true, [1]))", "cannot put")


def test_sort_needs_a_zone_and_knows_it_only_in_its_key(tiny):
    """'sort 3 by ...' and 'it' outside the key are load errors."""
    rejected(tiny, "sort 3 by it.power", "'sort' needs a zone here")
    rejected(tiny, "sort deck by it.power\nsay it", "'it' is only known")


def test_a_multi_pick_choice_asks_one_card_at_a_time_and_leaves_them_in_the_zone(tiny):
    """'choose 2 cards' asks twice; the picked cards stay where they are until the choice ends and the text moves them."""
    s = tiny.run('move top(deck, 4) to hand of 0\nlet xs = choose 2 cards from hand of 0 by 0 "Pass two"\n'
                 "say count(hand of 0)\nmove xs to table")
    assert (s.decision.prompt, s.legal_actions()) == ("Pass two (1 of 2)", ["Apple", "Bean"])
    s.apply("Apple")
    assert s.decision.prompt == "Pass two (2 of 2)" and s.view(0)["zones"]["hand/0"]["count"] == 4
    s.apply("Bean")
    assert tiny.says(s) == ["4"] and s.view(0)["zones"]["table"]["cards"] == ["apple", "bean"]


def test_the_start_zone_placement_is_not_in_the_event_log(tiny):
    """Every card starts in setup.cards_in without a move event; the log begins with the first phase."""
    s = tiny.run("say count(deck)")
    assert [e["type"] for e in s.events()][:2] == ["phase", "say"]
    assert tiny.says(s) == ["6"]


def test_add_and_subtract_change_a_players_counter(tiny):
    """'add N to c of p' and 'subtract N from c of p' change only that player's counter."""
    s = tiny.run("add 5 to score of 1\nsubtract 2 from score of 1\nadd 1 to score of 0")
    assert s.counters["score"] == [1, 3]


def test_set_counter_of_a_player(tiny):
    """'set c of p to N' assigns a per-player counter."""
    s = tiny.run("set score of 1 to 9\nsay score of 1\nsay score of 0")
    assert tiny.says(s) == ["9", "0"]


def test_counter_initial_value(tiny):
    """A counter starts at its 'initial' value."""
    s = tiny.run("say pool")
    assert tiny.says(s) == ["5"]


@pytest.mark.parametrize(
    "body, expected",
    [
        ("add 100 to energy of 1", 5),
        ("subtract 100 from energy of 1", 0),
        ("set energy of 1 to 6", 5),
        ("set energy of 1 to -1", 0),
        ("add 3 to energy of 1", 5),
        ("subtract 2 from energy of 1", 0),
        ("add 2 to energy of 1\nsubtract 1 from energy of 1", 3),
    ],
)
def test_player_counter_is_clamped_to_min_and_max(tiny, body, expected):
    """A per-player counter with min/max never leaves them, whether added to, subtracted from or set."""
    s = tiny.run(body)
    assert s.counters["energy"] == [2, expected]


@pytest.mark.parametrize(
    "body, expected",
    [("set pool to 11", 10), ("set pool to -1", 0), ("set pool to pool + 100", 10), ("set pool to pool - 3", 2)],
)
def test_shared_counter_is_clamped_to_min_and_max(tiny, body, expected):
    """A shared counter with min/max is clamped when set."""
    s = tiny.run(body)
    assert s.counters["pool"] == [expected]


def test_add_and_subtract_on_a_shared_counter(tiny):
    """'add N to pool' / 'subtract N from pool' change a shared counter, clamped to its bounds."""
    s = tiny.run("add 3 to pool\nsubtract 1 from pool")
    assert s.counters["pool"] == [7]
    assert tiny.run("add 30 to pool").counters["pool"] == [10]
    with pytest.raises(rulecore.CardsetError, match="'score' is a counter of each player: say whose"):
        tiny.cardset("add 3 to score")


def test_counter_without_bounds_goes_negative(tiny):
    """A counter with no 'min' may go below zero."""
    s = tiny.run("subtract 4 from score of 0")
    assert s.counters["score"] == [-4, 0]


def test_counter_needs_a_number(tiny):
    """Adding text to a counter is refused (at load or run time) with a message naming the operation."""
    rejected(tiny, 'add "two" to score of 0', r"'add' needs a number")
    rejected(tiny, 'let t = word\nadd t to score of 0', r"'add' needs a number")


def test_counter_of_a_non_player_is_a_rule_error(tiny):
    """'score of 7' in a 2-player game is a RuleError naming the counter."""
    with pytest.raises(rulecore.RuleError, match=r"'score of \.\.\.' needs a player"):
        tiny.run("add 1 to score of 7")


def test_counter_change_is_logged(tiny):
    """A counter change emits a 'counter' event with old and new values."""
    s = tiny.run("add 3 to score of 1")
    events = [e for e in s.events() if e["type"] == "counter"]
    assert events and events[0]["text"] == "Player 1's score: 0 -> 3"


# --------------------------------------------------------------------------- move


def test_setup_puts_every_card_in_the_start_zone(tiny):
    """setup.cards_in holds every card instance, in card order, before the flow runs."""
    s = tiny.run("say count(deck)")
    assert tiny.says(s) == ["6"]
    assert s.zones["deck"] == [0, 1, 2, 3, 4, 5]


def test_move_puts_cards_on_top_by_default(tiny):
    """'move X to Z' places the cards on top of Z (first in the zone list), keeping their order."""
    s = tiny.run("move bottom(deck, 2) to table\nmove top(deck) to table")
    assert s.zones["table"] == [0, 4, 5]


def test_move_at_top_and_at_bottom(tiny):
    """'at top' puts the cards first, 'at bottom' last."""
    s = tiny.run("move top(deck) to table\nmove bottom(deck) to table at bottom\nmove top(deck) to table at top")
    assert s.zones["table"] == [1, 0, 5]


def test_move_at_bottom_within_the_same_zone(tiny):
    """Moving the top card of a zone to its own bottom rotates it."""
    s = tiny.run("move top(deck) to deck at bottom")
    assert s.zones["deck"] == [1, 2, 3, 4, 5, 0]


def test_move_at_random_inserts_at_a_seeded_position(tiny):
    """'at random' inserts into the zone at a position drawn from the game's generator."""
    body = "move top(deck, 4) to table\nmove top(deck) to table at random"
    orders = {tuple(tiny.run(body, seed=seed).zones["table"]) for seed in range(30)}
    for order in orders:
        assert sorted(order) == [0, 1, 2, 3, 4]
        assert [c for c in order if c != 4] == [0, 1, 2, 3]
    assert len(orders) > 1
    assert tiny.run(body, seed=3).zones == tiny.run(body, seed=3).zones


def test_move_from_several_zones(tiny):
    """Cards from different zones move together; 'where' of every card follows."""
    s = tiny.run("move top(deck) to hand of 0\nmove top(deck) to table\nmove cards(hand of 0) + cards(table) to pile of 1")
    assert sorted(s.zones["pile/1"]) == [0, 1]
    assert s.zones["hand/0"] == [] and s.zones["table"] == []
    assert s.where[0] == "pile/1" and s.where[1] == "pile/1"


def test_move_whole_zone_and_empty_move(tiny):
    """Moving a zone moves all its cards; moving nothing is a no-op."""
    s = tiny.run("move deck to discard\nmove deck to table\nmove none to table")
    assert len(s.zones["discard"]) == 6
    assert s.zones["table"] == [] and s.zones["deck"] == []


def test_move_to_something_that_is_not_a_zone_is_a_rule_error(tiny):
    """'move ... to' a value that is not a zone raises RuleError at run time."""
    with pytest.raises(rulecore.RuleError, match=r"'move \.\.\. to' needs a zone"):
        tiny.run("let z = 3\nmove top(deck) to z")


def test_move_face_up_into_a_hidden_zone_shows_the_card(tiny):
    """A card moved 'face up' into a hidden zone is shown in views under 'face_up'."""
    s = tiny.run("move top(deck) to discard face up\nmove top(deck) to discard")
    view = s.view(1)["zones"]["discard"]
    assert view == {"count": 2, "face_up": ["apple"]}
    assert 0 in s.faceup and 1 not in s.faceup


def test_moving_without_face_turns_a_face_up_card_down(tiny):
    """Moving a face-up card again without 'face up' turns it back down."""
    s = tiny.run("move top(deck) to discard face up\nmove discard to pile of 0")
    assert s.faceup == set()
    assert "face_up" not in s.view(0)["zones"]["pile/0"]


def test_move_face_down_into_a_hidden_zone_hides_the_card(tiny):
    """'face down' into a hidden zone shows nothing of the card."""
    s = tiny.run("move top(deck) to discard face up\nmove discard to pile of 0 face down")
    assert s.view(0)["zones"]["pile/0"] == {"count": 1}


def test_move_face_down_into_a_public_zone_hides_the_card(tiny):
    """A card moved 'face down' into a public zone is counted but not shown (e.g. a sealed commit)."""
    s = tiny.run("move top(deck) to table face down")
    table = s.view(1)["zones"]["table"]
    assert table["count"] == 1 and table["cards"] == [None]  # there, but face down


def test_turn_face_up_and_down_where_they_lie(tiny):
    """'turn X face up' shows cards wherever they lie (c.face_up is true); 'face down' hides them again."""
    s = tiny.run("move top(deck, 2) to discard\nturn first(discard) face up\nsay first(discard).face_up\n"
                 "say last(discard).face_up")
    assert tiny.says(s) == ["true", "false"]
    assert s.view(1)["zones"]["discard"] == {"count": 2, "face_up": ["apple"]}
    assert s.zones["discard"] == [0, 1]
    (up,) = [e for e in s.events(1) if e["type"] == "flip"]
    assert up["cards"] == ["apple"]
    s = tiny.run("move top(deck) to discard\nturn discard face up\nturn discard face down\nsay first(discard).face_up")
    assert tiny.says(s) == ["false"]
    assert s.view(1)["zones"]["discard"] == {"count": 1}
    assert "cards" not in [e for e in s.events(1) if e["type"] == "flip"][-1]


def test_face_up_of_a_non_card_is_a_rule_error(tiny):
    """'.face_up' of a zone is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"'\.face_up' needs a card"):
        tiny.run("say deck.face_up")


def test_move_is_logged_masked_for_players_who_cannot_see(tiny):
    """A move into a hand names the card only for that hand's owner; others see a count."""
    s = tiny.run("move top(deck) to hand of 0")
    (mine,) = [e for e in s.events(0) if e["type"] == "move"]
    (theirs,) = [e for e in s.events(1) if e["type"] == "move"]
    assert mine["cards"] == ["apple"] and "Apple" in mine["text"]
    assert "cards" not in theirs and "Apple" not in theirs["text"] and "1 card" in theirs["text"]


# --------------------------------------------------------------------------- shuffle / reveal / hide / look


def test_shuffle_permutes_the_zone_deterministically(tiny):
    """'shuffle Z' reorders Z with the game's generator: same seed, same order; cards kept."""
    orders = [tuple(tiny.run("shuffle deck", seed=seed).zones["deck"]) for seed in range(12)]
    assert all(sorted(o) == [0, 1, 2, 3, 4, 5] for o in orders)
    assert len(set(orders)) > 1
    assert tiny.run("shuffle deck", seed=5).zones["deck"] == list(orders[5])


def test_shuffle_is_logged(tiny):
    """A shuffle emits a 'shuffle' event naming the zone."""
    s = tiny.run("shuffle deck")
    assert any(e["type"] == "shuffle" and e["zone"] == "deck" for e in s.events(0))


def test_shuffle_of_a_non_zone_is_a_rule_error(tiny):
    """'shuffle' of a value that is not a zone raises RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"'shuffle' needs a zone"):
        tiny.run("let z = 1\nshuffle z")


def test_reveal_shows_a_hidden_zone_to_everyone_and_hide_hides_it_again(tiny):
    """'reveal Z' makes a hidden zone visible to all players; 'hide Z' undoes it."""
    s = tiny.run("move top(deck, 2) to pile of 0\nreveal pile of 0")
    assert s.view(0)["zones"]["pile/0"]["cards"] == ["apple", "apple"]
    assert s.view(1)["zones"]["pile/0"]["cards"] == ["apple", "apple"]
    assert "pile/0" in s.revealed
    s = tiny.run("move top(deck, 2) to pile of 0\nreveal pile of 0\nhide pile of 0")
    assert "cards" not in s.view(0)["zones"]["pile/0"]
    assert "pile/0" not in s.revealed


def test_reveal_ends_when_the_zone_is_emptied(tiny):
    """A revealed zone stops being revealed once every card has left it."""
    s = tiny.run("move top(deck) to pile of 0\nreveal pile of 0\nmove pile of 0 to discard\nmove top(deck) to pile of 0")
    assert "pile/0" not in s.revealed
    assert "cards" not in s.view(1)["zones"]["pile/0"]


def test_reveal_ends_when_a_card_moves_in_or_out(tiny):
    """A reveal shows a zone as it is: once a card moves in or out, the zone is hidden again."""
    s = tiny.run("move top(deck, 2) to pile of 0\nreveal pile of 0\nmove top(deck) to pile of 0")
    assert "pile/0" not in s.revealed and "cards" not in s.view(1)["zones"]["pile/0"]
    s = tiny.run("move top(deck, 2) to pile of 0\nreveal pile of 0\nmove top(pile of 0) to discard")
    assert "pile/0" not in s.revealed and "cards" not in s.view(1)["zones"]["pile/0"]


def test_reveal_of_a_hand_shows_it_to_opponents(tiny):
    """Revealing a hand (owner-only zone) shows it to the other players too."""
    s = tiny.run("move top(deck) to hand of 1\nreveal hand of 1")
    assert s.view(0)["zones"]["hand/1"]["cards"] == ["apple"]
    assert any(e["type"] == "reveal" and e["revealed"] == ["apple"] for e in s.events(0))


def test_look_shows_cards_only_to_the_looker(tiny):
    """'look at X by p' tells only p which cards they are; others learn that p looked."""
    s = tiny.run("move bottom(deck) to pile of 1\nlook at pile of 1 by 0")
    private0 = [e for e in s.events(0) if e["type"] == "look" and "cards" in e]
    private1 = [e for e in s.events(1) if e["type"] == "look" and "cards" in e]
    assert [e["cards"] for e in private0] == [["coin"]]
    assert "Gold Coin" in private0[0]["text"]
    assert private1 == []
    assert any(e["type"] == "look" and "looks at" in e["text"] for e in s.events(1))
    # the zone itself stays hidden
    assert "cards" not in s.view(0)["zones"]["pile/1"]


def test_look_defaults_to_you(tiny):
    """'look at X' without 'by' is done by the player carrying out the effect."""
    s = tiny.run("take turns from 1 until true { look at top(deck) }")
    assert [e["cards"] for e in s.events(1) if "cards" in e and e["type"] == "look"] == [["apple"]]
    assert [e for e in s.events(0) if "cards" in e and e["type"] == "look"] == []


def test_look_without_a_player_is_a_rule_error(tiny):
    """'look at deck' where there is no 'you' is a RuleError, not a Python traceback."""
    with pytest.raises(rulecore.RuleError):
        tiny.run("look at deck")


# --------------------------------------------------------------------------- control flow


@pytest.mark.parametrize("x, expected", [(1, "one"), (2, "two"), (3, "many"), (0, "many")])
def test_if_elif_else_takes_the_first_true_branch(tiny, x, expected):
    """if/elif/else runs exactly the first branch whose condition holds, else the else block."""
    s = tiny.run(f'let v = {x}\nif v == 1 {{ say "one" }} elif v == 2 {{ say "two" }} elif v > 0 and v < 5 '
                 f'{{ say "many" }} else {{ say "many" }}')
    assert tiny.says(s) == [expected]


def test_if_without_else_does_nothing_when_false(tiny):
    """An if whose condition is false and which has no else runs nothing."""
    s = tiny.run('if 1 > 2 { say "no" }\nsay "after"')
    assert tiny.says(s) == ["after"]


def test_for_each_over_a_list_and_a_zone(tiny):
    """'for each v in X' runs the block once per item, in order, with v bound."""
    s = tiny.run("for each v in [3, 1, 2] { say v }\nfor each c in top(deck, 2) + bottom(deck) { say c.name }")
    assert tiny.says(s) == ["3", "1", "2", "Apple", "Apple", "Gold Coin"]


def test_for_each_reads_the_zone_once(tiny):
    """A for-each over a zone iterates the cards it held at the start, even if the body moves them."""
    s = tiny.run("for each c in deck { move c to table at bottom }\nsay count(table)\nsay count(deck)")
    assert tiny.says(s) == ["6", "0"]
    assert s.zones["table"] == [0, 1, 2, 3, 4, 5]


def test_for_each_over_nothing_runs_nothing(tiny):
    """A for-each over an empty collection runs its block zero times."""
    s = tiny.run('for each c in table { say "x" }\nsay "done"')
    assert tiny.says(s) == ["done"]


def test_while_loops_until_its_condition_fails(tiny):
    """'while' re-checks its condition before each pass."""
    s = tiny.run("let i = 0\nwhile i < 4 { let i = i + 1 }\nsay i")
    assert tiny.says(s) == ["4"]


def test_endless_while_is_stopped_with_a_rule_error(tiny):
    """A while whose condition never becomes false stops with a located RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"'while' ran \d+ times"):
        tiny.run("while true { set x to x + 1 }")


def test_repeat_runs_n_times(tiny):
    """'repeat N' runs its block N times; 0 or a negative number runs it zero times."""
    s = tiny.run('repeat 3 { say "a" }\nrepeat 0 { say "b" }\nrepeat 0 - 2 { say "c" }\nrepeat 1 + 1 { say "d" }')
    assert tiny.says(s) == ["a", "a", "a", "d", "d"]


def test_repeat_needs_a_number(tiny):
    """'repeat' of a non-number is refused with a message naming 'repeat'."""
    rejected(tiny, 'repeat "twice" { say 1 }', r"'repeat' needs a number")


def test_break_leaves_only_the_innermost_loop(tiny):
    """'break' ends the innermost for/while/repeat; the outer loop continues."""
    s = tiny.run(
        """
        for each a in [1, 2] {
          for each b in [10, 20, 30] {
            if b == 20 { break }
            say a * 100 + b
          }
          say a
        }
        say "end"
        """
    )
    assert tiny.says(s) == ["110", "1", "210", "2", "end"]


def test_break_in_while_and_repeat(tiny):
    """'break' ends a while and a repeat loop early."""
    s = tiny.run(
        """
        let i = 0
        while true {
          let i = i + 1
          if i == 3 { break }
        }
        say i
        repeat 10 { say "r"
          break
          say "never" }
        """
    )
    assert tiny.says(s) == ["3", "r"]


def test_break_across_a_decision(tiny):
    """A break taken after a decision inside a loop still ends just that loop."""
    s = tiny.run(
        """
        repeat 5 {
          choose by 0 "Go on?" {
            option "yes" { say "on" }
            option "no" { break }
          }
        }
        say "out"
        """
    )
    s.apply("yes")
    s.apply("no")
    assert tiny.says(s) == ["on", "out"]
    assert s.is_terminal()


def test_call_passes_parameters_and_keeps_locals_apart(tiny):
    """'call p(a, b)' binds the parameters; the procedure's lets do not leak to the caller."""
    s = tiny.run(
        "let n = 1\ncall show(n + 1, \"two\")\nsay n",
        procedures="""
        show:
          params: [a, b]
          do: |
            let n = 100
            say a
            say b
            say n
        """,
    )
    assert tiny.says(s) == ["2", "two", "100", "1"]


def test_call_without_arguments_and_you_passes_through(tiny):
    """A string-only procedure runs with the caller's 'you'."""
    s = tiny.run(
        "take turns from 1 until true { call who }",
        procedures="""
        who: |
          say you
        """,
    )
    assert tiny.says(s) == ["1"]


def test_call_can_recurse_through_procedures(tiny):
    """Procedures may call procedures (here recursively, with a parameter)."""
    s = tiny.run(
        "call down(3)",
        procedures="""
        down:
          params: [k]
          do: |
            say k
            if k > 0 { call down(k - 1) }
        """,
    )
    assert tiny.says(s) == ["3", "2", "1", "0"]


def test_use_of_a_collection_is_a_rule_error(tiny):
    """'use' needs one card: a collection is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"'use' needs a card"):
        tiny.run('take turns from 0 until true { use "play" of bottom(deck, 1) }')


def test_use_ability_of_a_card(tiny):
    """'use "play" of c' runs the card's effect: the Gold Coin moves itself to the table."""
    s = tiny.run('take turns from 0 until true { for each c in deck where it.type == "coin" { use "play" of c } }')
    assert s.zones["table"] == [5]
    assert tiny.says(s) == ["played Gold Coin"]
    assert any(e["type"] == "use" for e in s.events(1))


def test_use_by_another_player(tiny):
    """'use "a" of c by P' runs the ability with 'you' = P."""
    s = tiny.run('for each c in deck where it.type == "coin" { use "play" of c by 1 }')
    assert s.zones["table"] == [5]
    assert [e["actor"] for e in s.events(0) if e["type"] == "use"] == [1]


def test_usable_for_a_given_player(tiny):
    """usable(c, "a", p) tests the 'when' condition with 'you' = p."""
    s = tiny.run(
        'for each c in deck where it.type == "coin" { say usable(c, "grab", 1)\nmove top(deck) to hand of 1\n'
        'say usable(c, "grab", 1)\nsay usable(c, "grab", 0) }'
    )
    assert tiny.says(s) == ["false", "true", "false"]


def test_fail_stops_with_a_located_rule_error(tiny):
    """'fail TEXT' raises a RuleError with that text and the place of the statement."""
    text = tiny.text('say 1\nfail "no more cards: " + count(table)')
    line, col = tiny.line_of(text, "fail")
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run('say 1\nfail "no more cards: " + count(table)')
    assert str(info.value) == f"inline.yaml:{line}:{col} (in phase main): no more cards: 0"


def test_phase_is_the_running_phase(tiny):
    """'phase' is the name of the phase being played."""
    assert tiny.says(tiny.run("say phase")) == ["main"]


def test_use_of_a_card_without_that_ability_is_a_rule_error(tiny):
    """Using an ability the card does not have is a RuleError naming the card."""
    with pytest.raises(rulecore.RuleError, match=r"Apple has no ability 'play'"):
        tiny.run('take turns from 0 until true { for each c in top(deck) { use "play" of c } }')


def test_usable_checks_the_abilitys_when_condition(tiny):
    """usable(c, "grab") follows the 'when' condition with 'you' the asking player."""
    s = tiny.run(
        """
        take turns from 0 until true {
          let coin = bottom(deck)
          for each c in coin { say usable(c, "grab") }
          move top(deck) to hand of you
          for each c in coin { say usable(c, "grab") }
          for each c in top(deck) { say usable(c, "play") }
        }
        """
    )
    assert tiny.says(s) == ["false", "true", "false"]


def test_usable_of_an_ability_no_card_has_is_a_load_error(tiny):
    """usable(c, "fly") when no card has a 'fly' ability is a load error with a hint."""
    with pytest.raises(rulecore.CardsetError, match="no card has an ability 'fly'"):
        tiny.cardset('for each c in deck { say usable(c, "fly") }')


# --------------------------------------------------------------------------- choices


def test_choose_player_asks_with_player_labels(tiny):
    """'choose player from opponents by you' asks you, labelled 'Player N', and binds the seat."""
    s = tiny.run('take turns from 0 until true { let p = choose player from players by you "Whom?"\nsay p }', players=3)
    d = s.decision
    assert d.player == 0 and d.prompt == "Whom?" and d.kind == "player"
    assert s.legal_actions() == ["Player 0", "Player 1", "Player 2"]
    assert [o.label for o in d.options] == ["Player 0", "Player 1", "Player 2"]
    assert s.current_player == 0
    s.apply("Player 2")
    assert tiny.says(s) == ["2"]


def test_choose_with_one_option_is_resolved_automatically(tiny):
    """A choice with a single option is made without asking anyone."""
    s = tiny.run("take turns from 0 until true { let p = choose player from opponents\nsay p }")
    assert s.is_terminal() and s.history == []
    assert tiny.says(s) == ["1"]


def test_choose_card_collapses_identical_labels(tiny):
    """Cards with the same name are one option; choosing it takes the first such card."""
    s = tiny.run("let c = choose card from deck by 1\nsay c")
    assert s.legal_actions() == ["Apple", "Bean", "Gold Coin"]
    assert s.current_player == 1 and s.decision.kind == "card"
    assert s.decision.prompt == "Choose card"
    s.apply("Bean")
    assert tiny.says(s) == ["3"]


def test_choose_from_nothing_is_a_rule_error(tiny):
    """Choosing one item from an empty collection is a RuleError naming the variable."""
    with pytest.raises(rulecore.RuleError, match=r"nothing to choose from for 'c'"):
        tiny.run("let c = choose card from table by 0")


def test_choose_exactly_n_cards(tiny):
    """'choose 2 cards' asks twice (prompts count the picks) and binds a collection of 2."""
    s = tiny.run('let cs = choose 2 cards from deck by 0 "Pick"\nsay label(cs)\nsay count(cs)')
    assert s.decision.prompt == "Pick (1 of 2)"
    assert "Done" not in s.legal_actions()
    s.apply("Bean")
    assert s.decision.prompt == "Pick (2 of 2)"
    assert s.legal_actions() == ["Apple", "Bean", "Gold Coin"]
    s.apply("Bean")
    assert tiny.says(s) == ["2 Bean", "2"]


def test_choose_exactly_expression(tiny):
    """'choose exactly EXPR cards' takes the number from an expression."""
    s = tiny.run("let cs = choose exactly 1 + 1 cards from top(deck, 3) by 0\nsay count(cs)")
    # all three are apples, so each pick has one option and is made automatically
    assert s.is_terminal()
    assert tiny.says(s) == ["2"]


def test_choose_exactly_more_than_available_is_a_rule_error(tiny):
    """Asking for exactly N items out of fewer than N is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"cannot choose 7 from 6"):
        tiny.run("let cs = choose exactly 7 cards from deck by 0")


def test_choose_up_to_n_offers_done(tiny):
    """'choose up to N' offers 'Done' at every step and stops after N picks."""
    s = tiny.run('let cs = choose up to 2 cards from deck by 0 "Take"\nsay count(cs)')
    assert s.legal_actions() == ["Apple", "Bean", "Gold Coin", "Done"]
    assert s.decision.prompt == "Take (1 of up to 2)"
    s.apply("Apple")
    s.apply("Gold Coin")
    assert tiny.says(s) == ["2"]
    s = tiny.run("let cs = choose up to 2 cards from deck by 0\nsay count(cs)")
    s.apply("Done")
    assert tiny.says(s) == ["0"]


def test_choose_up_to_more_than_available_takes_at_most_all(tiny):
    """'up to N' with fewer than N items lets the chooser take all of them."""
    s = tiny.run("let cs = choose up to 9 cards from bottom(deck, 2) by 0\nsay count(cs)")
    assert s.legal_actions() == ["Bean", "Gold Coin", "Done"]
    s.apply("Bean")
    assert s.legal_actions() == ["Gold Coin", "Done"]
    s.apply("Gold Coin")
    assert tiny.says(s) == ["2"]


def test_choose_plural_without_count_means_any_number(tiny):
    """'choose players from X' (plural, no count) lets the chooser pick any of them, then Done."""
    s = tiny.run("let ps = choose players from players by 1\nsay count(ps)", players=3)
    assert s.legal_actions() == ["Player 0", "Player 1", "Player 2", "Done"]
    assert s.decision.kind == "players"
    s.apply("Player 2")
    assert s.legal_actions() == ["Player 0", "Player 1", "Done"]
    s.apply("Done")
    assert tiny.says(s) == ["1"]


def test_choose_plural_from_nothing_binds_an_empty_collection(tiny):
    """'choose cards from' an empty zone asks nothing and binds an empty collection."""
    s = tiny.run("let cs = choose cards from table by 0\nsay count(cs)")
    assert s.is_terminal()
    assert tiny.says(s) == ["0"]


def test_choose_set(tiny):
    """'choose set from sets(...)' offers each set labelled by its contents and binds its cards."""
    s = tiny.run("let st = choose set from sets(deck) by 0\nsay count(st)\nsay label(st)")
    assert s.legal_actions() == ["1 Apple", "2 Apple", "3 Apple", "1 Bean", "2 Bean", "1 Gold Coin"]
    assert s.decision.kind == "set"
    s.apply("2 Bean")
    assert tiny.says(s) == ["2", "2 Bean"]


def test_choose_value_from_texts(tiny):
    """'choose value from [...]' offers text values as they are."""
    s = tiny.run('let v = choose value from ["red", "blue"] by 0 "Colour?"\nsay v')
    assert s.legal_actions() == ["red", "blue"]
    s.apply("blue")
    assert tiny.says(s) == ["blue"]


def test_choose_number_offers_the_numbers(tiny):
    """'choose number from [0, 1, 2]' offers the three numbers, labelled as numbers (not as card ids)."""
    s = tiny.run("let n = choose number from [0, 1, 2] by 0\nsay n")
    assert s.legal_actions() == ["0", "1", "2"]
    s.apply("2")
    assert tiny.says(s) == ["2"]


def test_choose_number_above_card_ids(tiny):
    """'choose number' offers numbers that are not card ids labelled as digits and binds the number."""
    s = tiny.run("let n = choose number from [7, 8, 9] by 0\nsay n * 2")
    assert s.legal_actions() == ["7", "8", "9"]
    assert s.decision.kind == "number"
    s.apply("8")
    assert tiny.says(s) == ["16"]


def test_choose_by_another_player(tiny):
    """'by EXPR' makes that player choose, even during someone else's turn."""
    s = tiny.run("take turns from 0 until true { let c = choose card from deck by right of you }", players=3)
    assert s.current_player == 2


def test_choice_without_a_chooser_is_a_rule_error(tiny):
    """A choice in the flow with no 'you' and no 'by' is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"a choice needs a player"):
        tiny.run("let c = choose card from deck")


# --------------------------------------------------------------------------- menus


MENU = """
take turns from 0 until true {
  choose by you "Your move" {
    option "Pass" { say "pass" }
    option "Draw" when count(deck) > 0 { move top(deck) to hand of you
      say "draw" }
    option "Never" when false { say "never" }
    option each c in deck where it.type != "apple" label "Take " + c.name { move c to hand of you
      say c.name }
    option each q in [7, 8] { say q }
  }
}
"""


def test_menu_lists_static_and_dynamic_options_in_order(tiny):
    """A menu offers its static options (whose 'when' holds) and one per item of each dynamic option."""
    s = tiny.run(MENU)
    d = s.decision
    assert d.prompt == "Your move" and d.kind == "option" and d.player == 0
    assert s.legal_actions() == ["Pass", "Draw", "Take Bean", "Take Gold Coin", "7", "8"]


def test_menu_static_option_runs_its_block(tiny):
    """Choosing a static option runs that option's block only."""
    s = tiny.run(MENU)
    s.apply("Draw")
    assert tiny.says(s) == ["draw"]
    assert s.zones["hand/0"] == [0]


def test_menu_dynamic_option_binds_its_item(tiny):
    """Choosing a dynamic option runs its block with its variable bound to that item."""
    s = tiny.run(MENU)
    s.apply("Take Gold Coin")
    assert tiny.says(s) == ["Gold Coin"]
    assert s.zones["hand/0"] == [5]
    s = tiny.run(MENU)
    s.apply("8")
    assert tiny.says(s) == ["8"]


def test_menu_when_hides_options(tiny):
    """An option whose 'when' is false is not offered."""
    s = tiny.run(MENU.replace("take turns from 0", "move deck to discard\ntake turns from 0"))
    assert s.legal_actions() == ["Pass", "7", "8"]


def test_menu_with_one_available_option_is_taken_automatically(tiny):
    """A menu with only one available option runs it without asking."""
    s = tiny.run('choose by 0 { option "A" when false { say "a" }\noption "B" { say "b" } }')
    assert s.is_terminal() and s.history == []
    assert tiny.says(s) == ["b"]


def test_menu_with_no_available_option_is_a_rule_error(tiny):
    """A menu in which no option is available is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"no option of this choice is available"):
        tiny.run('choose by 0 { option "A" when false { say "a" } }')


def test_menu_option_labels_are_unique(tiny):
    """Dynamic options with the same label are offered once (the first item wins)."""
    s = tiny.run('choose by 0 { option each c in deck label "Play " + c.name { say c }\noption "Play Bean" { say "x" } }')
    assert s.legal_actions() == ["Play Apple", "Play Bean", "Play Gold Coin"]
    s.apply("Play Bean")
    assert tiny.says(s) == ["3"]


def test_menu_over_players_without_label(tiny):
    """'option each p in players' without a label offers one option per player, labelled 'Player N'."""
    s = tiny.run("choose by 0 { option each p in players { say p } }")
    assert s.legal_actions() == ["Player 0", "Player 1"]
    s.apply("Player 1")
    assert tiny.says(s) == ["1"]


def test_menu_always_asks_even_with_one_option(tiny):
    """A menu marked 'always' asks its chooser even when only one option is available."""
    s = tiny.run('choose by 1 "Go" always { option "Only" { say "only" }\noption "Never" when false { } }')
    assert s.current_player == 1 and s.legal_actions() == ["Only"]
    s.apply("Only")
    assert tiny.says(s) == ["only"]


def test_choose_always_asks_even_with_one_answer(tiny):
    """A pick marked 'always' asks its chooser even when one answer is possible; without it, it is taken at once."""
    s = tiny.run('let c = choose card from top(deck, 1) by 1 "Which?" always\nsay c.name')
    assert s.current_player == 1 and s.decision.prompt == "Which?" and len(s.legal_actions()) == 1
    s.apply(s.legal_actions()[0])
    assert len(tiny.says(s)) == 1
    quiet = tiny.run('let c = choose card from top(deck, 1) by 1 "Which?"\nsay c.name')
    assert len(tiny.says(quiet)) == 1 and (quiet.decision is None or quiet.decision.prompt != "Which?")


def test_choose_always_asks_each_pick_of_several(tiny):
    """'always' on a multi-pick asks every pick, the last one with a single answer too."""
    s = tiny.run('let cs = choose exactly 2 cards from top(deck, 2) by 0 "Which?" always\nsay count(cs)')
    s.apply(s.legal_actions()[0])
    assert s.decision.prompt.startswith("Which?") and len(s.legal_actions()) == 1
    s.apply(s.legal_actions()[0])
    assert tiny.says(s) == ["2"]


def test_menu_variable_does_not_leak(tiny):
    """The variable of a dynamic option is bound only in the block of the chosen option."""
    s = tiny.run(
        'let c = "outer"\nchoose by 0 { option each c in bottom(deck, 2) { say c.name }\noption "x" { say c } }'
    )
    s.apply("x")
    assert tiny.says(s) == ["outer"]


def _move_actors(state: rulecore.State) -> list[object]:
    return [e["actor"] for e in state.events(None) if e["type"] == "move"]


ACTING = """
choose by 1 "Go" always {
  option "Yes" {
    move top(deck, 1) to table
    choose by 0 "Inner" always { option "Ok" { move top(deck, 1) to table } }
    call shift
  }
}
move top(deck, 1) to table
"""


def test_an_options_body_acts_for_its_chooser_until_it_ends(tiny):
    """Moves in an option's body (and procedures it calls, and inner menus) name the option's chooser
    as actor; after the menu the actor is the effect's 'you' again (none in the flow)."""
    s = tiny.run(ACTING, procedures="shift:\n  do: |\n    move top(deck, 1) to table")
    s.apply("Yes")
    s.apply("Ok")
    assert s.is_terminal()
    assert _move_actors(s) == [1, 0, 1, None]


def test_the_chooser_as_actor_survives_save_and_load(tiny):
    """A state saved inside two nested option bodies loads with the same actors to come."""
    game = tiny.game(ACTING, procedures="shift:\n  do: |\n    move top(deck, 1) to table")
    s = game.new_game(1)
    s.apply("Yes")
    loaded = game.load_state(s.to_json())
    assert loaded.to_json() == s.to_json()
    for state in (s, loaded, s.clone()):
        state.apply("Ok")
    assert _move_actors(loaded) == _move_actors(s) == [1, 0, 1, None]


def test_break_out_of_an_options_body_gives_the_actor_back(tiny):
    """'break' from an option's body inside a loop ends its chooser's acting: later moves are the rule's."""
    s = tiny.run("""
        while true {
          choose by 1 "Go" always {
            option "Stop" {
              move top(deck, 1) to table
              break
            }
          }
        }
        move top(deck, 1) to table
    """)
    s.apply("Stop")
    assert _move_actors(s) == [1, None]


# --------------------------------------------------------------------------- turns


def test_take_turns_clockwise_until(tiny):
    """'take turns from P until C' gives turns clockwise from P and checks C after each turn."""
    s = tiny.run("take turns from 1 until x >= 5 { say you\nset x to x + 1 }", players=3)
    assert tiny.says(s) == ["1", "2", "0", "1", "2"]
    assert s.turns == 5


def test_take_turns_counterclockwise(tiny):
    """'counterclockwise' goes to the right instead."""
    s = tiny.run("take turns from 1 counterclockwise until x >= 5 { say you\nset x to x + 1 }", players=3)
    assert tiny.says(s) == ["1", "0", "2", "1", "0"]


def test_take_turns_skipping(tiny):
    """'skipping COND' passes over every player for whom COND holds ('it' is the player)."""
    s = tiny.run("take turns from 1 skipping it == 1 or it == 3 until x >= 4 { say you\nset x to x + 1 }", players=4)
    assert tiny.says(s) == ["2", "0", "2", "0"]


def test_take_turns_when_everyone_is_skipped_ends(tiny):
    """When every player is skipped the turns end without running the body."""
    s = tiny.run('take turns from 0 skipping true until false { say "turn" }\nsay "over"')
    assert tiny.says(s) == ["over"]


def test_turn_player_follows_the_turns(tiny):
    """turn_player is the player whose turn it is, and stays the last one after the turns."""
    s = tiny.run("take turns from 1 until x >= 3 { set x to x + 1\nsay turn_player }\nsay turn_player", players=3)
    assert tiny.says(s) == ["1", "2", "0", "0"]
    assert s.turn_player == 0


def test_take_another_turn(tiny):
    """'take another turn' gives the current player one more turn before play moves on."""
    s = tiny.run(
        "take turns from 0 until x >= 5 { say you\nset x to x + 1\nif x == 1 { take another turn } }", players=3
    )
    assert tiny.says(s) == ["0", "0", "1", "2", "0"]


def test_take_another_turn_twice_gives_two_more(tiny):
    """Two 'take another turn' in one turn give two extra turns."""
    s = tiny.run(
        "take turns from 0 until x >= 4 { say you\nset x to x + 1\nif x == 1 { take another turn\ntake another turn } }"
    )
    assert tiny.says(s) == ["0", "0", "0", "1"]


def test_take_another_turn_by_another_player(tiny):
    """'take another turn by P' gives P an extra turn after their next one."""
    s = tiny.run(
        "take turns from 0 until x >= 5 { say you\nset x to x + 1\nif x == 1 { take another turn by 1 } }", players=3
    )
    assert tiny.says(s) == ["0", "1", "1", "2", "0"]


def test_extra_turn_is_lost_when_the_player_is_skipped(tiny):
    """A player who is now skipped does not get their extra turn."""
    s = tiny.run(
        """
        take turns from 0 skipping it == 0 and x > 0 until x >= 3 {
          say you
          set x to x + 1
          take another turn
        }
        """
    )
    assert tiny.says(s)[:2] == ["0", "1"]


def test_end_game_stops_everything(tiny):
    """'end game' ends the game at once, from inside turns and loops; later statements never run."""
    s = tiny.run("take turns from 0 until false { set x to x + 1\nif x == 3 { end game } }\nsay \"after\"")
    assert s.is_terminal()
    assert s.vars["x"] == 3
    assert tiny.says(s) == []
    assert s.decision is None and s.current_player is None and s.legal_actions() == []


def test_turns_that_never_end_are_stopped_with_a_rule_error(tiny):
    """'take turns from 0 until false { say you }' stops with a RuleError instead of hanging."""
    with time_limit(3), pytest.raises(rulecore.RuleError):
        tiny.run("take turns from 0 until false { say you }")


def test_say_to_some_players_only(tiny):
    """'say X to P' is seen only by P; a plain 'say' by everyone."""
    s = tiny.run('say "all"\nsay "secret" to 1\nsay "both" to players', players=3)
    assert tiny.says(s, 0) == ["all", "both"]
    assert tiny.says(s, 1) == ["all", "secret", "both"]
    assert tiny.says(s, None) == ["all", "secret", "both"]


def test_say_records_the_actor(tiny):
    """A 'say' inside a turn records who said it."""
    s = tiny.run('take turns from 1 until true { say "hi" }')
    (event,) = [e for e in s.events(0) if e["type"] == "say"]
    assert event["actor"] == 1


# --------------------------------------------------------------------------- expressions


@pytest.mark.parametrize(
    "expr, expected",
    [
        ("2 + 3 * 4", "14"),
        ("(2 + 3) * 4", "20"),
        ("1 - 2 - 3", "-4"),
        ("7 / 2", "3"),
        ("-7 / 2", "-4"),
        ("7 % 3", "1"),
        ("-3 + 10", "7"),
        ("- (2 * 3)", "-6"),
        ("10 - 2 * 3 + 1", "5"),
        ('"a" + "b"', "ab"),
        ('"n=" + 3', "n=3"),
        ('"cards: " + top(deck, 2)', "cards: 2 Apple"),
        ("true", "true"),
        ("false", "false"),
        ("none", "none"),
        ("count([1, 2, 3] + [4])", "4"),
        ("1 < 2", "true"),
        ("2 <= 2", "true"),
        ("3 > 4", "false"),
        ("4 >= 5", "false"),
        ("1 == 1", "true"),
        ("1 != 1", "false"),
        ('"a" == "a"', "true"),
        ("1 < 2 and 2 < 1", "false"),
        ("1 < 2 or 2 < 1", "true"),
        ("not 1 < 2", "false"),
        ("not false and false", "false"),
        ("not (false and false)", "true"),
        ("true or false and false", "true"),
        ("(true or false) and false", "false"),
        ("1 + 1 == 2", "true"),
        ("2 in [1, 2]", "true"),
        ("3 in [1, 2]", "false"),
        ("3 not in [1, 2]", "true"),
        ("0 in deck", "true"),
        ("0 in table", "false"),
        ("0 not in table", "true"),
        ("player_count", "2"),
        ("round", "0"),
        ("count(players)", "2"),
        ("turn_player", "none"),
        ("count([])", "0"),
    ],
)
def test_expression_values(tiny, expr, expected):
    """Arithmetic, precedence, comparisons, logic, membership and literals evaluate as documented."""
    s = tiny.run(f"say {expr}")
    assert tiny.says(s) == [expected]


@pytest.mark.parametrize("expr", ["1 / count(table)", "5 % count(table)", "3 / (count(deck) - 6)"])
def test_division_by_zero_is_a_rule_error(tiny, expr):
    """Dividing (or taking the remainder) by zero is a RuleError, not a ZeroDivisionError."""
    with pytest.raises(rulecore.RuleError, match="division by zero"):
        tiny.run(f"say {expr}")


@pytest.mark.parametrize(
    "expr, message",
    [
        ('1 + true', r"'\+' (needs|adds) numbers"),
        ('top(deck) * 2', r"'\*' needs numbers"),
        ('- "x"', r"'-' needs a number"),
        ('1 < "a"', r"cannot compare|compares a number with a text"),
    ],
)
def test_type_errors_in_expressions_are_rule_errors(tiny, expr, message):
    """Operators applied to the wrong kinds of value are refused (at load or run time) with a message."""
    rejected(tiny, f"say {expr}", message)


def test_attribute_of_a_non_card_is_a_rule_error(tiny):
    """'.name' of text is a RuleError saying a card was needed."""
    with pytest.raises(rulecore.RuleError, match=r"'\.name' needs a card"):
        tiny.run('let t = "x"\nsay t.name')


@pytest.mark.parametrize("body", ["let n = 99\nsay n.name", "move 99 to table"])
def test_number_used_as_a_card_is_a_rule_error(tiny, body):
    """A number that is no card id used as a card is refused with a rulecore error, not IndexError."""
    rejected(tiny, body)


@pytest.mark.parametrize("body", ['for each q in "abc" { say q }', 'say "a" in "abc"', 'move "x" to table'])
def test_text_used_as_cards_is_a_rule_error(tiny, body):
    """Text where cards are expected is refused with a rulecore error, not a KeyError."""
    rejected(tiny, body)


def test_moving_a_card_listed_twice_is_safe(tiny):
    """'move top(deck) + top(deck) to table' moves the card once (or raises RuleError); no card is lost."""
    try:
        s = tiny.run("move top(deck) + top(deck) to table")
    except rulecore.RuleError:
        return
    assert sorted(c for cards in s.zones.values() for c in cards) == list(range(6))


def test_plus_of_zones_and_collections_joins_their_cards(tiny):
    """'deck + table' (zones) and 'cards(a) + cards(b)' are the cards of both; moving them works."""
    s = tiny.run(
        "move top(deck) to table\nsay count(cards(deck) + cards(table))\nsay count(deck + table)\n"
        "move deck + table to discard\nsay count(discard)"
    )
    assert tiny.says(s) == ["6", "6", "6"]


def test_turn_body_sees_outer_locals_but_its_lets_stay_inside(tiny):
    """A turn body reads the locals bound before the loop; a let inside one turn does not reach the next."""
    s = tiny.run('let greeting = "hi"\ntake turns from 0 until true { say greeting }')
    assert tiny.says(s) == ["hi"]
    s = tiny.run(
        "let n = 1\ntake turns from 0 until x >= 2 { set x to x + 1\nsay n\nlet n = 5 }\nsay n"
    )
    assert tiny.says(s) == ["1", "1", "1"]


def test_flow_locals_persist_across_phases_and_rounds(tiny):
    """The phases of the flow share one set of locals: a let in round 1 is still set in round 2."""
    text = tiny.text("say 0").replace(
        "flow:\n  phases:\n    - name: main\n      do: |\n        say 0",
        "flow:\n  rounds:\n    until: round >= 2\n    phases:\n"
        "      - name: first\n        do: |\n          if round == 1 { let kept = 41 }\n"
        "      - name: second\n        do: say kept + round",
    )
    from rulecore.cardset.loader import load_cardset_text

    s = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2).new_game(0)
    assert tiny.says(s) == ["42", "43"]


@pytest.mark.parametrize("body", ["let round = 5", "for each you in players { }", "let move = 1"])
def test_a_local_cannot_be_named_like_a_builtin_or_keyword(tiny, body):
    """'let round = 5' (a built-in) or 'let move = 1' (a keyword) is a load error."""
    with pytest.raises(rulecore.CardsetError, match="cannot name a variable"):
        tiny.cardset(body)


def test_where_filters_with_it(tiny):
    """'X where COND' keeps the items for which COND holds, with 'it' bound to each."""
    s = tiny.run(
        'say count(deck where it.type == "apple")\n'
        "say count(deck where it.power > 2)\n"
        "say count([1, 2, 3, 4] where it % 2 == 0)\n"
        "say count(players where it != 0)"
    )
    assert tiny.says(s) == ["3", "3", "2", "1"]


def test_where_binds_to_the_loosest_level(tiny):
    """'where' binds looser than 'and'/'or': the whole condition filters."""
    s = tiny.run("say count(deck where it.power > 1 and it.power < 9)")
    assert tiny.says(s) == ["5"]


def test_nested_where_restores_it(tiny):
    """An inner 'where' (inside a function) rebinds 'it' and the outer 'it' comes back after it."""
    s = tiny.run("say count(players where count(deck where it.power == 9) == 1 and it == 1)", players=3)
    assert tiny.says(s) == ["1"]


def test_card_attributes(tiny):
    """.name, .type and .tags of a card, and props declared under 'props' (none when absent)."""
    s = tiny.run(
        "let a = top(deck)\nlet c = bottom(deck)\n"
        "for each k in a + c { say k.name\nsay k.type\nsay count(k.tags)\nsay k.power\nsay k.sweet }"
    )
    assert tiny.says(s) == ["Apple", "apple", "2", "2", "true", "Gold Coin", "coin", "0", "9", "none"]


def test_tags_membership(tiny):
    """'"tag" in c.tags' tests a card's tags."""
    s = tiny.run('say count(deck where "fruit" in it.tags)\nsay count(deck where "red" not in it.tags)')
    assert tiny.says(s) == ["3", "3"]


@pytest.mark.parametrize("players, who, left, right", [(3, 0, 1, 2), (3, 2, 0, 1), (2, 1, 0, 0), (4, 3, 0, 2)])
def test_left_of_and_right_of_wrap_around(tiny, players, who, left, right):
    """'left of p' is the next seat clockwise, 'right of p' the previous one; both wrap."""
    s = tiny.run(f"say left of {who}\nsay right of {who}\nsay left of left of {who}", players=players)
    assert tiny.says(s) == [str(left), str(right), str((who + 2) % players)]


def test_left_of_a_non_player_is_a_rule_error(tiny):
    """'left of' text is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"'left of'/'right of' needs a player"):
        tiny.run('say left of "x"')


def test_builtin_names(tiny):
    """you, players, opponents (clockwise from your left), player_count and turn_player inside a turn."""
    s = tiny.run(
        "take turns from 1 until true { say you\nsay count(players)\nfor each o in opponents { say o }\n"
        "say player_count\nsay turn_player }",
        players=4,
    )
    assert tiny.says(s) == ["1", "4", "2", "3", "0", "4", "1"]


def test_zone_of_a_non_player_is_a_rule_error(tiny):
    """'hand of X' where X is no player is a RuleError naming the zone."""
    with pytest.raises(rulecore.RuleError, match=r"'hand of \.\.\.' needs a player"):
        tiny.run("say count(hand of 5)")


def test_round_counts_rounds(tiny):
    """'round' is the number of the current round, from 1, in a rounds flow."""
    text = tiny.text("say 0").replace(
        "flow:\n  phases:\n    - name: main\n      do: |\n        say 0",
        "flow:\n  rounds:\n    until: round >= 3\n    phases:\n      - name: main\n        do: say round",
    )
    from rulecore.cardset.loader import load_cardset_text

    s = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2).new_game(0)
    assert tiny.says(s) == ["1", "2", "3"]
    assert s.round == 3


# --------------------------------------------------------------------------- functions


def test_count(tiny):
    """count() of a zone, a collection, a single card and none."""
    s = tiny.run("say count(deck)\nsay count([1, 2])\nsay count(top(deck))\nsay count(none)")
    assert tiny.says(s) == ["6", "2", "1", "0"]


def test_top_and_bottom(tiny):
    """top(z, n)/bottom(z, n) give the first/last n cards (fewer if the zone holds fewer; 1 by default)."""
    s = tiny.run(
        "say count(top(deck))\nsay label(top(deck, 4))\nsay label(bottom(deck, 2))\nsay count(top(deck, 99))\n"
        "say count(top(deck, 0))\nsay count(bottom(deck, 0))\nsay count(top(table, 2))"
    )
    assert tiny.says(s) == ["1", "3 Apple + 1 Bean", "1 Bean + 1 Gold Coin", "6", "0", "0", "0"]


def test_random_picks_distinct_items_with_the_games_generator(tiny):
    """random(c, n) picks n distinct items (all if fewer) using the seeded generator."""
    body = "let r = random(deck, 3)\nfor each c in r { say c }\nsay count(random(deck, 10))\nsay count(random(table))"
    picks = []
    for seed in range(10):
        said = tiny.says(tiny.run(body, seed=seed))
        assert said[-2:] == ["6", "0"]
        chosen = said[:3]
        assert len(set(chosen)) == 3
        picks.append(tuple(chosen))
    assert len(set(picks)) > 1
    assert tiny.says(tiny.run(body, seed=4))[:3] == list(picks[4])


def test_sets(tiny):
    """sets(cards) gives 1, 2, ... cards of each type; sets(cards, "prop") groups by a property."""
    s = tiny.run('say count(sets(deck))\nsay count(sets(deck, "power"))\nsay count(sets(bottom(deck, 3), "sweet"))')
    # by type: apple 3 + bean 2 + coin 1 = 6; by power: 2->3, 5->2, 9->1 = 6; sweet: bean, bean, coin all none -> 3
    assert tiny.says(s) == ["6", "6", "3"]


def test_with_one(tiny):
    """with_one(sets, extras) gives each set, and each set plus one extra card of a type not in it."""
    s = tiny.run(
        "let groups = sets(top(deck, 2))\n"  # [apple], [apple, apple]
        "let extras = bottom(deck, 3)\n"  # bean, bean, coin
        "for each g in with_one(groups, extras) { say label(g) }"
    )
    assert tiny.says(s) == [
        "1 Apple",
        "1 Apple + 1 Bean",
        "1 Apple + 1 Gold Coin",
        "2 Apple",
        "2 Apple + 1 Bean",
        "2 Apple + 1 Gold Coin",
    ]


def test_ladder_score(tiny):
    """ladder_score() sums each type's scoring ladder at its count; the last step holds above it."""
    s = tiny.run(
        "say ladder_score(top(deck))\nsay ladder_score(top(deck, 3))\nsay ladder_score(deck)\n"
        "say ladder_score(table)"
    )
    # apple [1,3,6], bean [2,5], coin has no ladder
    assert tiny.says(s) == ["1", "6", "11", "0"]


def test_ladder_score_keeps_its_scores_for_every_state_of_the_game(tiny):
    """ladder_score keeps each score by the cards given, for every state of the game: a second game
    gets the same answers in as many steps, and a pile that changed is scored anew, not from the kept."""
    game = tiny.game("say ladder_score(deck)\nsay ladder_score(top(deck, 3))\nmove top(deck) to table\n"
                     "say ladder_score(deck)")
    first = game.new_game(1)
    kept = dict(game.rules.ladder_scores.scores)
    assert len(kept) == 3 and game.rules.ladder_scores.cards == 6 + 3 + 5
    second = game.new_game(1)
    assert tiny.says(second) == tiny.says(first) == ["11", "6", "8"]  # one apple fewer: 3 + 5
    assert game.rules.ladder_scores.scores == kept and second.steps == first.steps


def test_a_kept_ladder_score_is_never_given_for_a_truth_value_in_place_of_card_1(tiny):
    """The cards given are checked before a kept score is looked for: ladder_score([true]) after
    ladder_score([1]) is still the located complaint about a truth value, not card 1's score."""
    game = tiny.game("say ladder_score([1])\nsay ladder_score([true])")
    with pytest.raises(rulecore.RuleError, match="ladder_score\\(\\) needs cards, but item 1 is a truth value"):
        game.new_game(1)
    assert game.rules.ladder_scores.get((1,)) == 1


def test_kept_ladder_scores_are_bounded_by_the_cards_they_hold(monkeypatch):
    """KeptScores holds keys of at most KEPT_CARDS cards; full, it starts afresh; cards of more than an
    eighth of that are not kept at all."""
    from rulecore.lang import work

    monkeypatch.setattr(work, "KEPT_CARDS", 16)
    kept = work.KeptScores()
    assert kept.keep((1, 2, 3), 7) == 7 and kept.get((1, 2, 3)) is None  # 3 cards > 16 // 8
    for i in range(20):
        kept.keep((i, i + 1), i)
        assert kept.cards <= 16 and kept.get((i, i + 1)) == i
    assert len(kept.scores) == 4 and kept.get((0, 1)) is None  # 8 pairs fill it: afresh at the 9th and 17th


def test_usable_without_the_ability(tiny):
    """usable() is false for a card without the ability (see test_usable_checks_the_abilitys_when_condition)."""
    s = tiny.run('for each c in top(deck) { say usable(c, "play") }')
    assert tiny.says(s) == ["false"]


def test_label(tiny):
    """label() gives a card's name and a collection's 'N Name + ...' text."""
    s = tiny.run("say label(top(deck))\nsay label(cards(deck))\nsay label(cards(table))\nsay label(\"txt\")\nsay label(none)")
    assert tiny.says(s) == ["1 Apple", "3 Apple + 2 Bean + 1 Gold Coin", "nothing", "txt", "none"]


def test_types(tiny):
    """types(cards) lists the distinct types in order of first appearance."""
    s = tiny.run("for each t in types(bottom(deck, 4)) { say t }\nsay count(types(table))")
    assert tiny.says(s) == ["apple", "bean", "coin", "0"]


def test_owner(tiny):
    """owner(zone) is the player a zone belongs to, none for a shared zone."""
    s = tiny.run("say owner(hand of 1)\nsay owner(pile of 0)\nsay owner(deck)")
    assert tiny.says(s) == ["1", "0", "none"]


def test_cards_snapshots_a_zone(tiny):
    """cards(z) keeps the cards the zone held when it was read."""
    s = tiny.run("let before = cards(deck)\nlet live = deck\nmove deck to table\nsay count(before)\nsay count(live)")
    assert tiny.says(s) == ["6", "0"]


def test_player_name(tiny):
    """player_name(p) is the name shown for a player."""
    s = tiny.run("say player_name(1)")
    assert tiny.says(s) == ["Player 1"]


def test_option_reads_game_options(tiny):
    """option("name") is the game's value of an option (the default unless given)."""
    body = 'say option("speed")\nsay option("mode")\nsay option("fast")\nsay option("bonus")'
    assert tiny.says(tiny.game(body).new_game(0)) == ["2", "easy", "false", "3"]
    g = tiny.game(body, options={"speed": 3, "mode": "hard", "fast": True, "bonus": 7})
    assert tiny.says(g.new_game(0)) == ["3", "hard", "true", "7"]


def test_option_unknown_name_is_refused(tiny):
    """option() of an undeclared option is refused with a message naming the option."""
    rejected(tiny, 'say option("speeed")', "speeed")


def test_min_max_abs(tiny):
    """min(), max() of any number of arguments, abs()."""
    s = tiny.run("say min(3, 1, 2)\nsay max(3, 1, 2)\nsay min(4)\nsay abs(0 - 5)\nsay abs(5)")
    assert tiny.says(s) == ["1", "3", "4", "5", "5"]


def test_min_of_mixed_values_is_a_rule_error(tiny):
    """min() of values that cannot be compared is a RuleError naming the function."""
    with pytest.raises(rulecore.RuleError, match=r"min\(\)"):
        tiny.run('say min(1, "a")')


def test_sum_min_of_max_of(tiny):
    """sum/min_of/max_of(c, v of it) reduce the per-item value; min_of/max_of of nothing is none."""
    s = tiny.run(
        "say sum(deck, it.power)\nsay min_of(deck, it.power)\nsay max_of(deck, it.power)\n"
        "say sum(table, it.power)\nsay min_of(table, it.power)\nsay max_of([], it)"
    )
    assert tiny.says(s) == [str(3 * 2 + 2 * 5 + 9), "2", "9", "0", "none", "none"]


def test_lowest_and_highest_keep_ties(tiny):
    """lowest/highest(c, v of it) give every item with the extreme value (ties included)."""
    s = tiny.run(
        "add 2 to score of 0\nadd 2 to score of 2\n"
        "for each p in highest(players, score of it) { say p }\n"
        "for each p in lowest(players, score of it) { say p }\n"
        "say count(lowest(table, it))",
        players=3,
    )
    assert tiny.says(s) == ["0", "2", "1", "0"]


def test_any_and_every(tiny):
    """any/every(c, cond on it) test the condition over the items (every of nothing is true)."""
    s = tiny.run(
        "say any(deck, it.power == 9)\nsay any(deck, it.power == 1)\n"
        "say every(deck, it.power > 1)\nsay every(deck, it.power > 2)\nsay every(table, false)\nsay any(table, true)"
    )
    assert tiny.says(s) == ["true", "false", "true", "false", "true", "false"]


def test_per_item_functions_restore_it(tiny):
    """A per-item function inside a 'where' leaves the outer 'it' intact."""
    s = tiny.run("say count(players where sum([1, 2], it) == 3 and it == 1)")
    assert tiny.says(s) == ["1"]


def test_first_and_last(tiny):
    """first()/last() give the first/last item of a collection or zone, none when empty."""
    s = tiny.run("say first(deck)\nsay last(deck)\nsay last([1, 2, 3])\nsay first(table)\nsay first([])")
    assert tiny.says(s) == ["0", "5", "3", "none", "none"]


def test_prop_reads_a_property_named_by_text(tiny):
    """prop(card, "name") reads the property whose name is given as text."""
    s = tiny.run('let k = "power"\nsay prop(last(deck), k)\nsay prop(first(deck), "type")\n'
                 'let nope = "n" + "ope"\nsay prop(first(deck), nope)')
    assert tiny.says(s) == ["9", "apple", "none"]


def test_prop_of_a_non_card_is_a_rule_error(tiny):
    """prop() of something that is not a card is a RuleError naming prop()."""
    with pytest.raises(rulecore.RuleError, match=r"prop\(\)"):
        tiny.run('say prop(deck, "power")')


def test_shared_props(tiny):
    """shared_props(a, b, "p", ...) counts the named properties two cards have in common."""
    s = tiny.run(
        'say shared_props(0, 1, "power", "sweet")\n'
        'say shared_props(0, 3, "power", "sweet")\n'
        'say shared_props(3, 5, "sweet", "power", "type")\n'
        'say shared_props(0, none, "power")'
    )
    assert tiny.says(s) == ["2", "0", "1", "0"]


def test_chain(tiny):
    """chain(cards, start, n, props...) orders all cards so each shares exactly n props with the one before."""
    s = tiny.run(
        'say label(chain(deck, none, 0, "type"))\n'
        'for each c in chain(deck, none, 0, "type") { say c.type }\n'
        'say count(chain(deck, none, 1, "type"))\n'
        'say count(chain(top(deck, 3), none, 1, "type"))\n'
        'for each c in chain(bottom(deck, 2), first(deck), 0, "type") { say c.name }\n'
        'say count(chain(table, none, 0, "type"))'
    )
    said = tiny.says(s)
    order = said[1:7]
    assert sorted(order) == sorted(["apple"] * 3 + ["bean"] * 2 + ["coin"])
    assert all(a != b for a, b in zip(order, order[1:]))
    assert said[7:] == ["0", "3", "Bean", "Gold Coin", "0"]


USER_FUNCTIONS = """
functions:
  double:
    params: [n]
    value: n * 2
  pair:
    params: [a, b]
    value: a * 10 + double(b)
  hand_size: count(hand of you) + 1
"""


def _with_functions(tiny, body: str, functions: str = USER_FUNCTIONS) -> str:
    return tiny.text(body).replace("setup:", functions.strip("\n") + "\nsetup:", 1)


def test_user_functions(tiny):
    """functions: declares named expressions with params; they may call each other and see 'you'."""
    from rulecore.cardset.loader import load_cardset_text

    text = _with_functions(tiny, "say double(3)\nsay pair(2, 5)\ntake turns from 1 until true { move top(deck) to hand of you\nsay hand_size() }")
    s = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2).new_game(0)
    assert tiny.says(s) == ["6", "30", "2"]


def test_user_function_sees_only_its_params(tiny):
    """A user function's body cannot read the caller's locals (a load error names the unknown name)."""
    from rulecore.cardset.loader import load_cardset_text

    text = _with_functions(tiny, "let m = 1\nsay f(2)", "functions:\n  f:\n    params: [n]\n    value: m + n\n")
    with pytest.raises(rulecore.CardsetError, match="unknown name 'm' in function 'f'"):
        load_cardset_text(text, "inline.yaml")


@pytest.mark.parametrize(
    "functions, message",
    [
        ("  loop:\n    params: [n]\n    value: loop(n)\n", "function 'loop' calls itself (directly or through others)"),
        ("  ping: pong()\n  pong: ping()\n", "function 'ping' calls itself (directly or through others)"),
        ("  top: 3\n", "'top' is a built-in function"),
        ("  move: 3\n", "'move' is a reserved word of the effect language"),
    ],
)
def test_user_function_problems(tiny, functions, message):
    """Recursive functions and functions named like built-ins or keywords are load errors."""
    from rulecore.cardset.loader import load_cardset_text

    text = _with_functions(tiny, "say 1", "functions:\n" + functions)
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text(text, "inline.yaml")
    assert message in [p.message for p in info.value.problems]


def test_user_function_arity(tiny):
    """Calling a user function with the wrong number of arguments is a located load error."""
    from rulecore.cardset.loader import load_cardset_text

    text = _with_functions(tiny, "say double(1, 2)")
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text(text, "inline.yaml")
    (p,) = info.value.problems
    assert p.message == "double() takes 1 argument (got 2)"
    assert (p.span.line, p.span.column) == tiny.line_of(text, "double(1, 2)")


def test_in_zones_and_zone_of(tiny):
    """in_zones("z", ...) gathers every player's (or the shared) zone; zone_of(c) is the key of a card's zone."""
    s = tiny.run(
        "move top(deck) to hand of 0\nmove top(deck, 2) to hand of 1\nmove top(deck) to table\n"
        'say count(in_zones("hand"))\nsay count(in_zones("hand", "table", "deck"))\n'
        "say zone_of(first(hand of 1))\nsay zone_of(first(table))"
    )
    assert tiny.says(s) == ["3", "6", "hand/1", "table"]


def test_in_zones_of_an_unknown_zone_is_refused(tiny):
    """in_zones() of a name that is no zone is refused, naming the zone."""
    rejected(tiny, 'say count(in_zones("hnad"))', "hnad")


def test_zone_of_a_non_card_is_a_rule_error(tiny):
    """zone_of() of something that is not a card is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"zone_of\(\)"):
        tiny.run("say zone_of(deck)")


def test_marks_on_cards(tiny):
    """'mark card c "m"' adds a mark once, c.marks reads them in order, 'unmark' removes one."""
    s = tiny.run(
        'mark card first(deck) "bent"\nmark card first(deck) "old"\nmark card first(deck) "bent"\n'
        "say count(first(deck).marks)\n"
        'for each m in first(deck).marks { say m }\n'
        'unmark card first(deck) "bent"\nsay count(first(deck).marks)\n'
        'unmark card first(deck) "never"\n'
        'mark card deck "all"\nsay count(deck where "all" in it.marks)\nsay count(last(deck).marks)'
    )
    assert tiny.says(s) == ["2", "bent", "old", "1", "6", "1"]
    assert s.marks[0] == ("old", "all")


def test_marks_on_players(tiny):
    """'mark player p "m"' / 'unmark player p "m"' change player_marks(p), shown in every view and logged."""
    s = tiny.run(
        'mark player 1 "hero"\nmark player 1 "brave"\nsay count(player_marks(1))\nunmark player 1 "hero"\n'
        "for each m in player_marks(1) { say m }\nsay count(player_marks(0))"
    )
    assert tiny.says(s) == ["2", "brave", "0"]
    assert s.view(0)["player_marks"] == [[], ["brave"]]
    assert [e["mark"] for e in s.events(0) if e["type"] == "mark"] == ["hero", "brave", "hero"]


def test_player_mark_that_changes_nothing_logs_nothing(tiny):
    """Unmarking a player of a mark they lack, or marking them again, changes nothing and logs no event."""
    s = tiny.run('unmark player 1 "out"\nmark player 0 "in"\nmark player 0 "in"\nunmark player 0 "in"\n'
                 'unmark player 0 "in"')
    assert [(e["player"], e["mark"], e["removed"]) for e in s.events(0) if e["type"] == "mark"] == [
        (0, "in", False), (0, "in", True)]


def test_mark_as_a_worked_out_text(tiny):
    """'mark ... as EXPR' marks with a text worked out at run time."""
    s = tiny.run('let k = "b"\nmark card first(deck) as "x_" + k\nfor each m in first(deck).marks { say m }\n'
                 'mark player 1 as "p" + 1\nfor each m in player_marks(1) { say m }')
    assert tiny.says(s) == ["x_b", "p1"]


def test_marks_are_shown_only_with_visible_cards(tiny):
    """A view lists the marks of the cards it shows, and none of hidden cards."""
    s = tiny.run('move top(deck) to table\nmark card first(table) "x"\nmove top(deck) to hand of 0\n'
                 'mark card first(hand of 0) "y"')
    assert s.view(1)["zones"]["table"]["marks"] == {0: ["x"]}
    assert s.view(0)["zones"]["hand/0"]["marks"] == {0: ["y"]}
    assert "marks" not in s.view(1)["zones"]["hand/0"]


@pytest.mark.parametrize(
    "body, message",
    [('mark player 7 "x"', "'mark player' needs a player"), ("mark card first(deck) as 3", "a mark is a text")],
)
def test_bad_marks_are_rule_errors(tiny, body, message):
    """Marking a non-player, or with a non-text mark, is a RuleError."""
    with pytest.raises(rulecore.RuleError, match=message):
        tiny.run(body)


def test_slot_zones(tiny):
    """A zone with 'slots: N' is a row of shared zones 'NAME of 1' .. 'NAME of N'."""
    s = tiny.run(
        "move top(deck) to row of 1\nmove top(deck, 2) to row of 3\nsay count(row of 3)\n"
        'say count(in_zones("row"))\nsay zone_of(first(row of 3))\nsay owner(row of 1)'
    )
    assert tiny.says(s) == ["2", "3", "row/3", "none"]
    assert s.zones["row/1"] == [0] and s.zones["row/2"] == []
    assert s.view(1)["zones"]["row/3"]["cards"] == ["apple", "apple"]


@pytest.mark.parametrize("slot", [0, 4])
def test_slot_out_of_range_is_a_rule_error(tiny, slot):
    """A slot number outside 1..N is a RuleError naming the row."""
    with pytest.raises(rulecore.RuleError, match=r"'row of \.\.\.' needs a slot number from 1 to 3"):
        tiny.run(f"say count(row of {slot})")


def test_if_else(tiny):
    """if_else(cond, a, b) is a when the condition holds, else b."""
    s = tiny.run('say if_else(1 > 2, "a", "b")\nsay if_else(count(deck) == 6, 1, 2)')
    assert tiny.says(s) == ["b", "1"]


def test_clockwise_from(tiny):
    """clockwise_from(p) is every player clockwise starting with p."""
    s = tiny.run("for each p in clockwise_from(2) { say p }\nsay count(clockwise_from(0))", players=3)
    assert tiny.says(s) == ["2", "0", "1", "3"]
    with pytest.raises(rulecore.RuleError, match=r"clockwise_from\(\)"):
        tiny.run('say clockwise_from("x")')


def test_split(tiny):
    """split(text, sep) gives the trimmed non-empty parts (',' by default)."""
    s = tiny.run('for each w in split("a, b,,c") { say w }\nfor each w in split("x;y", ";") { say w }')
    assert tiny.says(s) == ["a", "b", "c", "x", "y"]
    with pytest.raises(rulecore.RuleError, match=r"split\(\)"):
        tiny.run("say split(3)")


def test_item(tiny):
    """item(c, i) is the item at position i from 0 (negative counts from the end), none past the end."""
    s = tiny.run("say item([5, 6, 7], 0)\nsay item([5, 6, 7], 2)\nsay item([5, 6, 7], 3)\nsay item([5, 6, 7], -1)\n"
                 "say item(deck, 5)")
    assert tiny.says(s) == ["5", "7", "none", "7", "5"]
    with pytest.raises(rulecore.RuleError, match=r"item\(\)"):
        tiny.run('say item(deck, "x")')


COVERED_FUNCTIONS = {
    "cards", "player_name", "option", "count", "top", "bottom", "random", "sets", "with_one", "ladder_score",
    "usable", "label", "types", "owner", "min", "max", "abs", "sum", "min_of", "max_of", "lowest", "highest",
    "any", "every", "first", "last", "prop", "shared_props", "chain", "in_zones", "zone_of", "player_marks",
    "if_else", "clockwise_from", "split", "item", "sorted",
}


def test_every_builtin_function_has_a_test():
    """Every function of the effect language is exercised by a test in this file."""
    assert set(FUNCTIONS) <= COVERED_FUNCTIONS, f"untested functions: {set(FUNCTIONS) - COVERED_FUNCTIONS}"


def test_function_called_with_wrong_kinds_is_a_rule_error(tiny):
    """A function given values it cannot use is refused with a message naming the function."""
    rejected(tiny, 'say top(deck, "two")', r"top\(\)")
    rejected(tiny, 'let t = word\nsay top(deck, t)', r"top\(\)")


# --------------------------------------------------------------------------- runtime errors are located


def test_rule_error_names_the_phase_and_location(tiny):
    """A RuleError in the flow carries file:line:column of the failing expression and the phase."""
    text = tiny.text('say "ok"\nsay 1 / count(table)')
    line, col = tiny.line_of(text, "1 / count(table)")
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run('say "ok"\nsay 1 / count(table)')
    assert str(info.value).startswith(f"inline.yaml:{line}:{col} (in phase main): ")
    assert info.value.span.line == line and info.value.span.column == col
    assert info.value.span.card == "phase main"


def test_rule_error_names_the_card(tiny):
    """A RuleError inside a card's ability names the card (its display name) and the line in its ability."""
    body = 'take turns from 0 until true { for each c in deck where it.type == "coin" { use "grab" of c } }'
    text = tiny.text(body).replace('say "grab " + this.name', 'say "grab " + this.name\n          say 1 / count(table)')
    from rulecore.cardset.loader import load_cardset_text

    game = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2)
    line, col = tiny.line_of(text, "1 / count(table)")
    with pytest.raises(rulecore.RuleError) as info:
        game.new_game(0)
    assert f"inline.yaml:{line}:{col} (in Gold Coin)" in str(info.value)


def test_rule_error_names_the_procedure(tiny):
    """A RuleError inside a procedure names the procedure and the line in the YAML file."""
    procs = """
    broken:
      params: [k]
      do: |
        say k
        say k / count(table)
    """
    text = tiny.text("call broken(4)", procedures=procs)
    line, col = tiny.line_of(text, "k / count(table)")
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run("call broken(4)", procedures=procs)
    assert f"inline.yaml:{line}:{col} (in broken): division by zero" in str(info.value)


def test_rule_error_during_apply_leaves_the_state_unchanged(tiny):
    """A RuleError raised by an action puts the state back as it was before the action."""
    s = tiny.run("let c = choose card from deck by 0\nmove c to table\nsay 1 / count(discard)")
    before = s.to_json()
    with pytest.raises(rulecore.RuleError, match="division by zero"):
        s.apply("Bean")
    assert s.to_json() == before
    assert s.legal_actions() == ["Apple", "Bean", "Gold Coin"]


def test_rule_error_during_apply_keeps_an_arranged_state(tiny):
    """A failing action on an arranged state leaves the arranged layout in place."""
    s = tiny.run("let c = choose card from deck by 0\nmove c to table\nsay 1 / count(discard)")
    s.arrange({"table": ["bean"]}, rest="deck")
    before = s.to_json()
    with pytest.raises(rulecore.RuleError):
        s.apply("Apple")
    assert s.to_json() == before


# --------------------------------------------------------------------------- signals

SIGNAL_CARDS = """
shield:
  count: 2
  abilities:
    guard:
      on: hit
      from: hand
      instead: true
      label: Raise a shield
      params: [dmg]
      when: count(hand of you) < 3
      do: |
        move this to discard
        say "blocked " + dmg + " for " + player_name(you)
alarm:
  count: 1
  abilities:
    ring:
      on: hit
      from: table
      optional: false
      params: [dmg]
      do: |
        say "ring " + dmg
        say "ring again"
charm:
  count: 1
  abilities:
    luck:
      on: hit
      from: hand
      do: say "lucky " + this.name
"""
# card ids: apple 0-2, bean 3-4, coin 5, shield 6-7, alarm 8, charm 9

HIT = 'let dmg = 3\nsignal "hit" for 0 with dmg else { say "hurt" }\nsay "after"'


def signal_run(tiny, setup: str, players: int = 2) -> rulecore.State:
    return tiny.run(setup + "\n" + HIT, players=players, cards=SIGNAL_CARDS)


def test_signal_without_answers_runs_else(tiny):
    """A signal no card answers runs its else block and asks nothing."""
    s = signal_run(tiny, "")
    assert s.is_terminal() and s.history == []
    assert tiny.says(s) == ["hurt", "after"]


def test_signal_offers_optional_answers_with_decline(tiny):
    """Optional answers are offered to the signalled player with their label and 'Decline'."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 0')
    d = s.decision
    assert d.player == 0 and d.kind == "trigger" and d.prompt == "Respond to 'hit'?"
    # two shields in hand: one offer (equal labels merge), and the offer is never automatic
    assert s.legal_actions() == ["Raise a shield", "Decline"]


def test_signal_instead_answer_replaces_else(tiny):
    """An 'instead' answer runs with you = P, this = its card and the passed locals; else is skipped."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 0')
    s.apply("Raise a shield")
    assert tiny.says(s) == ["blocked 3 for Player 0", "after"]
    assert s.zones["discard"] == [6]


def test_signal_decline_runs_else(tiny):
    """Declining every answer runs the else block."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 0')
    s.apply("Decline")
    assert tiny.says(s) == ["hurt", "after"]


def test_signal_non_instead_answer_then_else(tiny):
    """An optional answer without 'instead' runs, then the else block; its default label is 'Use Card'."""
    s = signal_run(tiny, 'move deck where it.type == "charm" to hand of 0')
    assert s.legal_actions() == ["Use Charm", "Decline"]
    s.apply("Use Charm")
    assert tiny.says(s) == ["lucky Charm", "hurt", "after"]


def test_signal_mandatory_answer_always_runs(tiny):
    """An 'optional: false' answer from a shared zone runs without asking, before the else block."""
    s = signal_run(tiny, 'move deck where it.type == "alarm" to table')
    assert s.is_terminal()
    assert tiny.says(s) == ["ring 3", "ring again", "hurt", "after"]


def test_signal_chosen_answer_runs_before_mandatory_ones(tiny):
    """The chosen optional answer runs first, then the mandatory ones, then else."""
    s = signal_run(tiny, 'move deck where it.type == "charm" to hand of 0\nmove deck where it.type == "alarm" to table')
    s.apply("Use Charm")
    assert tiny.says(s) == ["lucky Charm", "ring 3", "ring again", "hurt", "after"]


def test_signal_answers_only_from_the_signalled_players_zone(tiny):
    """Cards in another player's zone do not answer a signal for P."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 1')
    assert s.is_terminal()
    assert tiny.says(s) == ["hurt", "after"]


def test_signal_when_condition_filters_answers(tiny):
    """An answer whose 'when' is false (here: 3 or more cards in hand) is not offered."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 0\nmove top(deck) to hand of 0')
    assert s.is_terminal()
    assert tiny.says(s) == ["hurt", "after"]


def test_signal_for_a_non_player_is_a_rule_error(tiny):
    """'signal ... for' something that is not a player raises RuleError."""
    with pytest.raises(rulecore.RuleError, match=r"'signal' needs a player"):
        tiny.run('signal "hit" for "x"', cards=SIGNAL_CARDS)


def test_signal_offer_survives_save_and_load(tiny):
    """A state waiting on a signal offer saves and loads, and the answer then runs as usual."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 0')
    again = s.game.load_state(s.to_json())
    assert again.legal_actions() == s.legal_actions()
    again.apply("Raise a shield")
    assert tiny.says(again) == ["blocked 3 for Player 0", "after"]


def test_signal_instead_answer_with_a_mandatory_answer(tiny):
    """With a mandatory answer present, choosing an 'instead' answer still runs the mandatory one and skips else."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 0\nmove deck where it.type == "alarm" to table')
    s.apply("Raise a shield")
    assert tiny.says(s) == ["blocked 3 for Player 0", "ring 3", "ring again", "after"]


def test_arrange_during_a_signal_offer_does_not_repeat_answers(tiny):
    """Re-asking a pending signal offer after arrange() runs each answer and the else block once."""
    s = signal_run(tiny, 'move deck where it.type == "shield" to hand of 0\nmove deck where it.type == "alarm" to table')
    s.arrange({"table": ["alarm"]}, rest="deck")
    s.apply("Decline")
    assert tiny.says(s) == ["ring 3", "ring again", "hurt", "after"]


def test_signal_answer_without_from_is_a_load_error(tiny):
    """An ability with 'on' but no 'from' is a located load error with a hint."""
    cards = "bell:\n  count: 1\n  abilities:\n    a:\n      on: hit\n      do: say 1\n"
    with pytest.raises(rulecore.CardsetError) as info:
        tiny.cardset('signal "hit" for 0', cards=cards)
    (p,) = info.value.problems
    assert "does not say from which zone" in p.message and "from:" in p.hint


def test_trigger_keys_without_on_are_a_load_error(tiny):
    """'from', 'optional', 'instead', 'label' or 'params' without 'on' is a load error."""
    cards = "bell:\n  count: 1\n  abilities:\n    a:\n      from: hand\n      do: say 1\n"
    with pytest.raises(rulecore.CardsetError) as info:
        tiny.cardset("say 1", cards=cards)
    (p,) = info.value.problems
    assert p.message == "'from' only makes sense with 'on'"


def test_answer_to_an_event_nobody_signals_is_a_load_error(tiny):
    """An 'on' event that no effect signals is a load error suggesting the signalled one."""
    cards = "bell:\n  count: 1\n  abilities:\n    a:\n      on: hitt\n      from: hand\n      do: say 1\n"
    with pytest.raises(rulecore.CardsetError) as info:
        tiny.cardset('signal "hit" for 0', cards=cards)
    (p,) = info.value.problems
    assert "'hitt', which nothing signals" in p.message
    assert p.hint == "did you mean 'hit'?"


def test_answer_from_an_unknown_zone_is_a_load_error(tiny):
    """A 'from' zone that does not exist is a load error with a guess."""
    cards = "bell:\n  count: 1\n  abilities:\n    a:\n      on: hit\n      from: hnad\n      do: say 1\n"
    with pytest.raises(rulecore.CardsetError) as info:
        tiny.cardset('signal "hit" for 0', cards=cards)
    (p,) = info.value.problems
    assert p.message == "unknown zone 'hnad'" and p.hint == "did you mean 'hand'?"


def test_answer_when_condition_may_read_passed_locals(tiny):
    """An answer's 'when' may read the locals the signal passes ('with dmg')."""
    cards = SIGNAL_CARDS.replace("when: count(hand of you) < 3", "when: dmg < 5")
    s = tiny.run('move deck where it.type == "shield" to hand of 0\n' + HIT, cards=cards)
    assert s.legal_actions() == ["Raise a shield", "Decline"]


# --------------------------------------------------------------------------- menus answering events

ANSWER_CARDS = """
charm:
  count: 2
  abilities:
    luck:
      on: bless
      from: hand
      label: Bless with a charm
      params: [amount]
      do: |
        move this to discard
        say "blessed " + amount + " by " + player_name(you)
"""
# card ids: apple 0-2, bean 3-4, coin 5, charm 6-7

ANSWER_MENU = (
    "let amount = 2\n@SETUP@\ntake turns from 1 until true { choose { option \"Pass\" { say \"pass\" }\n"
    'option answers "bless" with amount } }'
)


def test_option_answers_offers_the_choosers_answering_cards(tiny):
    """'option answers "event" with x' offers each of the chooser's cards answering the event, once per label."""
    s = tiny.run(ANSWER_MENU.replace("@SETUP@", 'move deck where it.type == "charm" to hand of 1'), cards=ANSWER_CARDS)
    assert s.current_player == 1
    assert s.legal_actions() == ["Pass", "Bless with a charm"]
    s.apply("Bless with a charm")
    assert tiny.says(s) == ["blessed 2 by Player 1"]
    assert s.zones["discard"] == [6]
    assert any(e["type"] == "use" and e["actor"] == 1 for e in s.events(0))


def test_option_answers_without_answering_cards_adds_nothing(tiny):
    """Without answering cards the menu has only its other options (here one, taken at once)."""
    s = tiny.run(ANSWER_MENU.replace("@SETUP@", 'move deck where it.type == "charm" to hand of 0'), cards=ANSWER_CARDS)
    assert s.is_terminal()
    assert tiny.says(s) == ["pass"]


# --------------------------------------------------------------------------- simultaneous sealed parts

SIMUL = """
simultaneously for each p in players {
  let c = choose card from deck by p "Pick"
  move c to pile of p
  say "picked " + c.name
}
say "done"
"""


def test_simultaneously_asks_each_player_in_turn(tiny):
    """'simultaneously for each p in players' runs each player's part in seat order, then goes on."""
    s = tiny.run(SIMUL)
    assert s.current_player == 0 and s.decision.prompt == "Pick"
    s.apply("Bean")
    assert s.current_player == 1
    s.apply("Gold Coin")
    assert s.is_terminal()
    assert s.zones["pile/0"] == [3] and s.zones["pile/1"] == [5]
    assert tiny.says(s, 0) == ["picked Bean", "picked Gold Coin", "done"]


def test_simultaneous_parts_are_sealed_until_all_are_done(tiny):
    """While the others still choose, one player's part is hidden from them; after the last part all is shown."""
    s = tiny.run(SIMUL)
    s.apply("Bean")
    assert tiny.says(s, 1) == []
    assert tiny.says(s, 0) == ["picked Bean"]
    s.apply("Apple")
    assert tiny.says(s, 1) == ["picked Bean", "picked Apple", "done"]
    assert any(e["type"] == "reveal-all" for e in s.events(1))


def test_simultaneous_sealed_state_saves_and_loads(tiny):
    """A state in the middle of sealed parts saves, loads and continues with the seal intact."""
    s = tiny.run(SIMUL)
    s.apply("Bean")
    again = s.game.load_state(s.to_json())
    assert again.to_json() == s.to_json()
    assert tiny.says(again, 1) == []
    again.apply("Apple")
    s.apply("Apple")
    assert again.to_json() == s.to_json()


def test_simultaneous_parts_are_sealed_in_views(tiny):
    """Player 1's view does not show what player 0's sealed part put on the table until every part is done:
    not the card, not even that one went (the table as it was when the parts began)."""
    s = tiny.run(SIMUL.replace("move c to pile of p", "move c to shown of p"))
    s.apply("Bean")
    assert s.current_player == 1
    assert s.view(1)["zones"]["shown/0"] == {"count": 0, "cards": []}
    assert s.view(1)["zones"]["deck"]["count"] == 6
    assert s.view(0)["zones"]["shown/0"]["cards"] == ["bean"]
    s.apply(s.legal_actions()[0])  # the last part is done: everything is revealed together
    assert s.view(1)["zones"]["shown/0"]["cards"] == ["bean"]


# --------------------------------------------------------------------------- in any order

ANY_ORDER = """
@KIND@ for each p in players {
  let c = choose card from deck by p "Pick"
  choose by p "Act" {
    option "Wait" when can_pass {
      move c to deck
      pass
    }
    option "Go" {
      move c to pile of p
      say "go " + player_name(p)
    }
  }
}
say "done"
"""


def test_in_any_order_a_player_who_passes_comes_back_after_the_others(tiny):
    """'in any order': a part that passes goes after the others still to act; a part that ends is done."""
    s = tiny.run(ANY_ORDER.replace("@KIND@", "in any order"), players=3)
    assert s.current_player == 0
    s.apply("Bean")
    s.apply("Wait")
    assert s.current_player == 1
    s.apply("Apple")
    s.apply("Go")
    assert s.current_player == 2
    s.apply("Apple")
    s.apply("Go")
    assert s.current_player == 0  # back after the others
    s.apply("Bean")  # alone now: "Wait" is not offered, "Go" is taken at once
    assert s.is_terminal()
    assert tiny.says(s) == ["go Player 1", "go Player 2", "go Player 0", "done"]


def test_in_any_order_nobody_may_pass_once_every_other_player_has_just_passed(tiny):
    """'can_pass' is false for the last of a row of passes, so every 'in any order' comes to an end."""
    s = tiny.run(ANY_ORDER.replace("@KIND@", "in any order"), players=3)
    s.apply("Bean")
    s.apply("Wait")
    s.apply("Bean")
    assert set(s.legal_actions()) == {"Wait", "Go"}
    s.apply("Wait")
    s.apply("Bean")  # Player 2: both others have just passed, so "Go" alone is left and taken at once
    assert tiny.says(s) == ["go Player 2"]
    assert s.current_player == 0 and s.decision.prompt == "Pick"


def test_sealed_in_any_order_hides_each_part_until_all_are_done(tiny):
    """'simultaneously in any order': a part's events reach the others only when every part is done."""
    s = tiny.run(ANY_ORDER.replace("@KIND@", "simultaneously in any order"), players=2)
    s.apply("Bean")
    s.apply("Go")
    assert tiny.says(s, 1) == []
    s.apply("Apple")
    assert s.is_terminal()
    assert tiny.says(s, 1) == ["go Player 0", "go Player 1", "done"]


def test_in_any_order_saves_and_loads_between_parts(tiny):
    """A state between the parts of an 'in any order' (after a pass) saves, loads and continues identically."""
    s = tiny.run(ANY_ORDER.replace("@KIND@", "simultaneously in any order"), players=3)
    s.apply("Bean")
    s.apply("Wait")
    again = s.game.load_state(s.to_json())
    for action in ("Apple", "Go", "Apple", "Go", "Bean"):
        s.apply(action)
        again.apply(action)
    assert again.to_json() == s.to_json()


def test_pass_outside_in_any_order_is_a_rule_error(tiny):
    """'pass' outside a player's part of an 'in any order' is a located RuleError."""
    with pytest.raises(rulecore.RuleError, match="outside"):
        tiny.run("pass")


def test_pass_when_it_may_not_is_a_rule_error(tiny):
    """'pass' unguarded by 'can_pass' when every other player has just passed is a RuleError, not an endless loop."""
    with pytest.raises(rulecore.RuleError, match="can_pass"):
        tiny.run("in any order for each p in players { pass }")


# --------------------------------------------------------------------------- procedure results

_RETURNING = '''best:
  params: [n]
  do: |
    for each c in deck {
      if c.power > n { return c.power }
    }
    return 0 - 1
pick:
  params: [n]
  do: |
    let q = choose player from players by 1 "Whom?"
    if q == 0 { return n * 10 }
    let r = call best(n)
    return r + q
tail:
  do: |
    if round < 0 { return 1 }
    call pick(2)
'''


def test_a_procedure_returns_a_value_to_let_call(tiny):
    """'return EXPR' ends the procedure (inside loops too) and 'let x = call p(...)' binds its value."""
    s = tiny.run("let a = call best(1)\nsay a\nlet b = call best(9)\nsay b", procedures=_RETURNING)
    assert tiny.says(s) == ["2", "-1"]


def test_a_returning_procedure_may_pause_and_its_result_survives_save_and_clone(tiny):
    """A procedure that asks a question returns after the answer, also from a saved or cloned state; a
    procedure that ends without 'return' (its last statement a call of another) gives none, not the inner result."""
    body = "repeat 2 {\n  let c = call pick(3)\n  say c\n}\nlet d = call tail()\nsay d"
    state = tiny.run(body, procedures=_RETURNING)
    assert any(type(f[0]).__name__ == "CallProc" and f[1] == 1 for f in state.stack)
    copies = [state, state.game.load_state(state.to_json()), state.clone()]
    for st in copies:
        answers = iter(["Player 1", "Player 0", "Player 1"])
        while not st.is_terminal():
            st.apply(next(answers))
    assert [tiny.says(st) for st in copies] == [["6", "30", "none"]] * 3


@pytest.mark.parametrize("body, procedures, match", [
    ("return 1", "", r"inline.yaml:\d+:9: 'return' outside a procedure \(in the flow\)"),
    ("let x = call p()\nsay x", "p:\n  do: say 1\n", "procedure 'p' returns nothing, so 'let x = call p"),
    ("let x = call p(1)\nsay x", "p:\n  do: return 1\n", r"procedure 'p' takes 0 argument\(s\)"),
    ("call p()", "p:\n  do: |\n    simultaneously for each q in players { return q }\n",
     "'return' inside a 'simultaneously' part in procedure 'p'"),
    ("let return = 1", "", "reserved word"),
])
def test_return_and_let_call_mistakes_are_located_at_load(tiny, body, procedures, match):
    """A 'return' outside a procedure or inside a player's part, a result taken from a procedure that returns
    nothing, a wrong number of arguments: each a located load error."""
    with pytest.raises(rulecore.CardsetError) as info:
        tiny.game(body, procedures=procedures)
    assert re.search(match, str(info.value)), str(info.value)
