"""Strangers' arguments at the public API and strangers' saves: every bad value is refused with one
message naming the argument, the kind it must be and the value, shortened (rulecore/arguments.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import rulecore
from rulecore import arguments

# a number too long for Python to turn into text (sys.int_info.default_max_str_digits is 4300)
HUGE = int("9" * 4000) * 10**1000 + 9

PYTHON_WORDS = ("sys.set_int_max_str_digits", "codec", "KeyError", "IndexError", "NoneType", "True", "False",
                "None", "list index", "tuple index", "object has no attribute")


def refused(error: type[Exception], call: Callable[[], Any]) -> str:
    """The message of the error ``call`` raises, checked to be printable and free of Python's words."""
    with pytest.raises(error) as info:
        call()
    text = str(info.value)
    text.encode("utf-8")  # printable
    assert len(text) < 400
    for word in PYTHON_WORDS:
        assert word not in text, text
    return text


@pytest.fixture(scope="module")
def game() -> rulecore.Game:
    return rulecore.Game(rulecore.load_cardset("witching-hour"), 3)


@pytest.fixture()
def state(game: rulecore.Game) -> Any:
    return game.new_game(1)


@pytest.mark.parametrize("call", ["apply_id", "view", "observation", "resample_player", "resample_seed",
                                  "heuristic", "events"])
def test_a_huge_number_is_refused_naming_the_argument(state: Any, call: str) -> None:
    """A 5000-digit int to apply_id, view, observation, resample, heuristic or events: the argument named, the number described."""
    calls: dict[str, Callable[[], Any]] = {
        "apply_id": lambda: state.apply_id(HUGE),
        "view": lambda: state.view(HUGE),
        "observation": lambda: state.observation(HUGE),
        "resample_player": lambda: state.resample(HUGE, 1),
        "resample_seed": lambda: state.resample(0, HUGE),
        "heuristic": lambda: state.heuristic(HUGE),
        "events": lambda: state.events(HUGE),
    }
    text = refused(rulecore.IllegalActionError, calls[call])
    assert "(got a number of about 5,001 digits)" in text
    assert text.startswith(("'action_id' must be", "'player' must be", "'seed' must be"))


def test_new_game_and_game_refuse_huge_numbers(game: rulecore.Game) -> None:
    """new_game(5000 digits) and Game(players=5000 digits) are refused; a seed must fit in 64 bits (a save holds it)."""
    assert refused(rulecore.OptionError, lambda: game.new_game(HUGE)).startswith(
        "'seed' must be a whole number of at most 64 bits (got a number of about")
    refused(rulecore.OptionError, lambda: game.new_game(1 << 64))
    refused(rulecore.OptionError, lambda: rulecore.Game(game.cardset, HUGE))
    refused(rulecore.IllegalActionError, lambda: game.action_label(HUGE))
    assert game.new_game((1 << 64) - 1).to_json()  # the largest seed still saves


def test_seat_arguments_must_be_seat_numbers(state: Any) -> None:
    """heuristic(3) in a 3-player game, events(99), events('0'), events(1.0), events(True): refused, saying the seats."""
    assert refused(rulecore.IllegalActionError, lambda: state.heuristic(3)) == (
        "'player' must be a seat number from 0 to 2 (got 3)")
    for bad, shown in ((99, "99"), ("0", "'0'"), (1.0, "1.0"), (True, "true"), (None, "none")):
        call = state.view if bad is None else state.events
        assert refused(rulecore.IllegalActionError, lambda: call(bad)) == (
            f"'player' must be a seat number from 0 to 2 (got {shown})")
    assert state.events(None) == state.events()  # the referee's log stays open


def test_zone_visible_names_the_zone_argument(state: Any) -> None:
    """zone_visible('nope', 0) says 'key' must be a zone key; a bad seat is a seat error."""
    assert refused(rulecore.IllegalActionError, lambda: state.zone_visible("nope", 0)) == (
        "'key' must be a zone key of the game (got 'nope')")
    refused(rulecore.IllegalActionError, lambda: state.zone_visible("discard", 7))
    assert state.zone_visible("discard", 0) in (True, False)


def test_options_must_be_a_mapping_of_values_of_the_right_kind(game: rulecore.Game) -> None:
    """Game(options=[1]) and an option of the wrong kind (table_talk=2 for a truth value) are refused."""
    cardset = game.cardset
    assert refused(rulecore.OptionError, lambda: rulecore.Game(cardset, 3, options=[1])) == (  # type: ignore[arg-type]
        "'options' must be a mapping of option names to values (got a list of 1)")
    ww = rulecore.load_cardset("witty-witches")
    assert refused(rulecore.OptionError, lambda: rulecore.Game(ww, 3, options={"table_talk": 2})) == (
        "option 'table_talk' must be true or false (got 2)")
    assert rulecore.Game(ww, 3, options={"table_talk": "yes"}).options["table_talk"] is True
    refused(rulecore.OptionError, lambda: rulecore.Game(ww, 3, options={"table_talk": None}))


def test_a_text_option_with_half_a_character_is_refused_printably() -> None:
    """Approaching Dawn witches='\\ud800' is an OptionError that prints (the lone surrogate escaped), not a RuleError."""
    ad = rulecore.load_cardset("approaching-dawn")
    text = refused(rulecore.OptionError, lambda: rulecore.Game(ad, 3, options={"witches": "\ud800"}))
    assert text == "option 'witches' must be text without half characters (lone surrogates) (got '\\ud800')"
    refused(rulecore.OptionError, lambda: rulecore.Game(ad, 3, options={"witches": "x" * 100_000}))
    refused(rulecore.OptionError, lambda: rulecore.Game(ad, 3, options={"witches": 5}))


def test_shown_never_raises_and_stays_short() -> None:
    """arguments.shown: huge numbers, half characters, escapes, long texts and odd objects, all short and printable."""
    class Odd:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    for value in (HUGE, -HUGE, "\ud800", "\x1b[31mred", "x" * 10_000, b"\xff" * 9, [1] * 5, {"a": 1}, Odd(), 1.5,
                  float("nan"), None, True):
        text = arguments.shown(value)
        text.encode("utf-8")
        assert len(text) <= 45 and text.isprintable(), text
    assert arguments.shown("\x1b[31m") == "'\\x1b[31m'"


# --------------------------------------------------------------------------- saves


def test_a_save_with_a_5000_digit_number_is_refused(game: rulecore.Game, state: Any) -> None:
    """A number of thousands of digits in a save: a StateError saying so, not Python's int-to-text limit."""
    text = state.to_json()
    assert '"seed":1,' in text
    for digits in (5000, 4000, 50):
        message = refused(rulecore.StateError, lambda: game.load_state(text.replace('"seed":1,', f'"seed":{"9" * digits},')))
        assert f"{digits:,} digits" in message
    refused(rulecore.StateError, lambda: game.load_state(text.replace('"seed":1,', f'"seed":{"9" * 25},')))


def test_a_save_that_is_not_utf8_is_refused(game: rulecore.Game, state: Any) -> None:
    """Bytes that are not UTF-8 (UTF-16, a stray 0xff): 'the bytes are not UTF-8 text', never a codec's message."""
    text = state.to_json()
    for data in (text.encode("utf-16"), b"\xff\xfe\x00\xd8", text.encode("utf-8")[:20] + b"\xff" + text.encode()[20:]):
        assert "not UTF-8 text" in refused(rulecore.StateError, lambda: game.load_state(data))
    assert game.load_state(text.encode("utf-8")).to_json() == text  # UTF-8 bytes still load


def _edited(state: Any, edit: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(state.to_json())
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize("edit", ["no_frames", "wrong_top", "values", "data"])
def test_trusted_saves_with_crafted_frames_fail_for_people(game: rulecore.Game, edit: str) -> None:
    """trusted=True with crafted frames: refused at load (no frame that asks) or a RuleError when answered, never KeyError/IndexError."""
    state = game.new_game(1)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    edits: dict[str, Callable[[dict[str, Any]], None]] = {
        "no_frames": lambda d: d.update(frames=[]),
        "wrong_top": lambda d: [f.__setitem__(0, 5) for f in d["frames"]],
        "values": lambda d: d["decision"].update(values=[99] * len(d["decision"]["values"])),
        "data": lambda d: [f.__setitem__(2, [1, 2, 3]) for f in d["frames"]],
    }
    text = _edited(state, edits[edit])
    if edit in ("no_frames", "wrong_top"):
        assert "must be the statement that asks the pending question" in refused(
            rulecore.StateError, lambda: game.load_state(text, trusted=True))
        return
    loaded = game.load_state(text, trusted=True)
    refused(rulecore.RuleError, lambda: loaded.apply(loaded.legal_actions()[0]))
