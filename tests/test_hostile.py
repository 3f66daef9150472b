"""Cardsets and saves from strangers (tests/hostile/): confined files, caps, bounded work, checked saves."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import rulecore
from rulecore import Limits
from rulecore.cardset.loader import load_cardset_text
from rulecore.cli import app
from rulecore.cli.validate import validate_file
from rulecore.simulate import simulate

HOSTILE = Path(__file__).resolve().parent / "hostile"
FILES = sorted((HOSTILE / "files").glob("*.yaml"))
SECRET = ("secret_card", "SECRET LINE", "root:")  # words of the files the corpus tries to read (tests/hostile/secret.yaml, /etc/passwd)


def refusals(problems: list[rulecore.Problem]) -> list[rulecore.Problem]:
    return [p for p in problems if p.code == "refused"]


def assert_nothing_shown(*texts: str) -> None:
    for text in texts:
        for word in SECRET:
            assert word not in text


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("case", FILES, ids=lambda p: p.name)
def test_a_file_out_of_bounds_is_refused_by_name_and_never_shown(case: Path) -> None:
    """include:/extends: of a path outside the tree, a device or a folder: one 'refused' problem, no content."""
    report = validate_file(case, games=False)
    assert len(refusals(list(report.problems))) == 1
    problem = refusals(list(report.problems))[0]
    assert problem.span.file == str(case) and problem.span.line >= 2
    with pytest.raises(rulecore.CardsetError) as err:
        rulecore.load_cardset(case)
    out = CliRunner().invoke(app, ["validate", "--no-games", "--format", "json", str(case)])
    text = CliRunner().invoke(app, ["validate", "--no-games", str(case)])
    assert out.exit_code == 1 and text.exit_code == 1
    assert_nothing_shown(str(err.value), out.stdout, text.stdout, json.dumps([p.to_dict() for p in report.problems]))


def test_roots_and_allow_path_widen_what_a_cardset_may_read() -> None:
    """load_cardset(roots=[DIR]) and --allow-path DIR let a file outside the tree be read."""
    case = HOSTILE / "files" / "include-outside.yaml"
    cs = rulecore.load_cardset(case, roots=[HOSTILE])
    assert "secret_card_key" in cs.cards
    result = CliRunner().invoke(app, ["validate", "--no-games", "--allow-path", str(HOSTILE), str(case)])
    assert "refused" not in result.stdout


def test_a_symlink_is_followed_and_then_checked(tmp_path: Path) -> None:
    """A symlink in the tree that points outside it is refused; one that stays inside is read."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tmp_path / "outside.yaml").write_text("cards:\n  secret_x: {count: 1}\n", encoding="utf-8")
    (tree / "inside.yaml").write_text("cards:\n  broom: {count: 1}\n", encoding="utf-8")
    os.symlink(tmp_path / "outside.yaml", tree / "out-link.yaml")
    os.symlink(tree / "inside.yaml", tree / "in-link.yaml")
    main = tree / "cardset.yaml"
    main.write_text("extends: witching-hour\ninclude: [out-link.yaml]\n", encoding="utf-8")
    with pytest.raises(rulecore.CardsetError) as err:
        rulecore.load_cardset(main)
    assert [p.code for p in err.value.problems] == ["refused"] and "secret_x" not in str(err.value)
    main.write_text("extends: witching-hour\ninclude: [in-link.yaml]\n", encoding="utf-8")
    assert "broom" in rulecore.load_cardset(main).cards


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    """An included FIFO (and a FIFO given as the cardset) is refused, never opened: no hang."""
    os.mkfifo(tmp_path / "pipe.yaml")
    main = tmp_path / "cardset.yaml"
    main.write_text("extends: witching-hour\ninclude: [pipe.yaml]\n", encoding="utf-8")
    with pytest.raises(rulecore.CardsetError) as err:
        rulecore.load_cardset(main)
    assert "'pipe.yaml' is refused: it is not a regular file" in str(err.value)
    with pytest.raises(rulecore.CardsetError, match="not a regular file"):
        rulecore.load_cardset(tmp_path / "pipe.yaml")


def test_size_caps_per_file_and_per_cardset(tmp_path: Path) -> None:
    """A file over Limits.file_bytes, or files together over Limits.cardset_bytes, are refused by name."""
    (tmp_path / "more.yaml").write_text("cards:\n  broom: {count: 1}\n" + "# padding\n" * 50, encoding="utf-8")
    main = tmp_path / "cardset.yaml"
    main.write_text("include: [more.yaml]\n", encoding="utf-8")  # not a whole cardset: only the refusal matters
    size = (tmp_path / "more.yaml").stat().st_size
    with pytest.raises(rulecore.CardsetError) as err:
        rulecore.load_cardset(main, limits=Limits(file_bytes=size - 1))
    assert f"'more.yaml' is refused: it is larger than {size - 1} bytes" in str(err.value)
    with pytest.raises(rulecore.CardsetError, match="together are larger than"):
        rulecore.load_cardset(main, limits=Limits(cardset_bytes=size + 10))
    with pytest.raises(rulecore.CardsetError, match="the cardset file '.*cardset.yaml' is refused: it is larger"):
        rulecore.load_cardset(main, limits=Limits(file_bytes=10))
    with pytest.raises(rulecore.CardsetError) as err:
        rulecore.load_cardset(main)
    assert "refused" not in str(err.value)


def test_text_without_a_file_reads_only_builtins() -> None:
    """load_cardset_text with no file name may extend a built-in, but not include a file of the working folder."""
    assert load_cardset_text("extends: witching-hour\n").name == "witching-hour"
    with pytest.raises(rulecore.CardsetError) as err:
        load_cardset_text("extends: witching-hour\ninclude: [pyproject.toml]\n")
    assert [p.code for p in err.value.problems] == ["refused"]


# --------------------------------------------------------------------------- leaks by the shape of the game


def telling(cs: rulecore.Cardset) -> list[rulecore.Problem]:
    return [w for w in cs.warnings if w.code == "telling"]


def test_a_menu_that_shrinks_on_hidden_cards_is_a_warning(tiny) -> None:
    """A menu whose options depend on a hidden hand, without 'always', warns at the choose with a hint."""
    body = '''
        choose by 0 "Your turn" {
          option "Pass" { say 1 }
          option each c in hand of 0 label "Play " + c.name { say 2 }
        }
    '''
    (w,) = telling(tiny.cardset(body))
    assert w.severity == "warning" and w.span.line > 0 and "Your turn" in w.message and "always" in w.hint
    assert telling(tiny.cardset(body.replace('"Your turn" {', '"Your turn" always {'))) == []


def test_counts_and_public_zones_do_not_warn(tiny) -> None:
    """Options that depend only on public zones or a hidden zone's count tell nothing: no warning."""
    body = '''
        choose by 0 "Go" {
          option "Pass" { say 1 }
          option "Draw" when count(hand of 0) > 0 { say 2 }
          option each c in table label "Take " + c.name { say 3 }
        }
    '''
    assert telling(tiny.cardset(body)) == []


def test_a_menu_asked_only_under_an_if_on_hidden_cards_warns(tiny) -> None:
    """A question asked only when a hidden card fits tells the others that it does; a tainted local counts."""
    body = '''
        let drawn = first(deck)
        if drawn.power > 3 {
          choose by 0 "Keep it?" always {
            option "Yes" { say 1 }
            option "No" { say 2 }
          }
        }
    '''
    (w,) = telling(tiny.cardset(body))
    assert "asked only when an 'if'" in w.message
    both = body.rstrip()[:-len("}")] + '''} else {
          choose by 0 "Other?" always {
            option "A" { say 3 }
            option "B" { say 4 }
          }
        }
    '''
    assert telling(tiny.cardset(both)) == []  # a question either way: nothing told


def test_a_pick_from_hidden_cards_without_always_warns(tiny) -> None:
    """'choose ... from' a hidden zone (or a local bound from one) warns unless it says 'always'; public ones do not."""
    body = '''
        let c = choose card from hand of 0 by 0 "Which card?"
        let drawn = random(deck, 2)
        let d = choose card from drawn by 0
    '''
    first, second = telling(tiny.cardset(body))
    assert "'Which card?'" in first.message and "only one answer" in first.message and "always" in first.hint
    assert "'d'" in second.message
    fixed = body.replace('"Which card?"', '"Which card?" always').replace("by 0\n", "by 0 always\n")
    assert telling(tiny.cardset(fixed)) == []
    assert telling(tiny.cardset('let c = choose card from table by 0 "Which?"')) == []


def test_a_pick_asked_only_under_an_if_on_hidden_cards_warns(tiny) -> None:
    """A pick (even 'always', even from public cards) asked only when a hidden card fits tells that it does."""
    body = '''
        if first(deck).power > 3 {
          let c = choose card from table by 0 "Which?" always
        }
    '''
    (w,) = telling(tiny.cardset(body))
    assert "asked only when an 'if'" in w.message and "'Which?'" in w.message


def test_the_count_of_a_draw_from_a_zone_is_public(tiny) -> None:
    """An 'if' on the count of a local drawn from a zone (random(zone, N), cards(zone)) tells nothing: no warning."""
    body = '''
        let drawn = random(deck, 2)
        let all = cards(hand of 0)
        if count(drawn) == 2 and count(all) > 0 {
          let p = choose player from players by 0 "Whom?"
        }
    '''
    assert telling(tiny.cardset(body)) == []
    sifted = body.replace("random(deck, 2)", "deck where it.power > 3")
    assert len(telling(tiny.cardset(sifted))) == 1  # how many fit is not public


def test_whether_a_top_card_lies_face_up_is_public(tiny) -> None:
    """A menu offering face-up tops of a hidden pile (tested with .face_up) tells nothing; another property does."""
    body = """
        choose by 0 "Buy?" {
          option "Done" { say 1 }
          option "Buy the top" when count(deck) > 0 and first(deck).face_up { say 2 }
        }
    """
    assert telling(tiny.cardset(body)) == []
    assert len(telling(tiny.cardset(body.replace("first(deck).face_up", "first(deck).power > 3")))) == 1


def test_a_question_about_a_card_the_block_shows_anyway_tells_nothing(tiny) -> None:
    """Asking about a hidden card that the same block then shows everyone (moved face up) is no tell."""
    body = """
        choose by 0 "Reveal?" always {
          option "No" { say 0 }
          option each c in hand of 0 {
            if c.power > 3 {
              choose by 0 "High?" { option "Yes" { say 1 } option "No" when c.power < 9 { say 2 } }
            }
            move c to table face up
          }
        }
    """
    assert telling(tiny.cardset(body)) == []
    kept = body.replace("move c to table face up", "move c to discard")
    assert len(telling(tiny.cardset(kept))) == 1  # only an 'if'-warning: the question is under it


def test_a_pick_whose_answers_stay_many_does_not_warn(tiny) -> None:
    """A pick from a whole hidden zone of cards that all look different (or 'up to' N) is asked whenever its public count allows: no warning."""
    unique = "\n".join(f"c{i}: {{count: 1, name: Card {i}}}" for i in range(13))
    body = """
        move top(deck, 13) to hand of 1
        let passed = choose 3 cards from hand of 1 by 1 "Pass which three?"
        let kept = choose card from hand of 1 by 1 "Keep which?"
    """
    text = tiny.text(body, cards=unique)
    for word in ("apple: {count: 3", "bean: {count: 2"):
        text = text.replace(word, word.split(":")[0] + ": {count: 1")
    assert telling(load_cardset_text(text, "inline.yaml")) == []
    assert len(telling(tiny.cardset(body, cards=unique))) == 2  # three apples look alike: one answer may be left
    upto = body.replace("choose 3 cards", "choose up to 3 cards").replace("let kept = choose card", "let kept = choose up to 1 cards")
    assert telling(tiny.cardset(upto, cards=unique)) == []  # 'Done' is an answer beside every card
    sifted = upto.replace("from hand of 1 by 1 \"Pass", "from hand of 1 where it.power > 3 by 1 \"Pass")
    assert len(telling(tiny.cardset(sifted, cards=unique))) == 1  # how many fit is not public


@pytest.mark.parametrize("game", rulecore.builtin_cardsets())
def test_every_builtin_cardset_validates_without_a_warning(game: str) -> None:
    """`rulecore validate` of each built-in cardset (its menus and picks included) reports no problem, not even a warning."""
    result = CliRunner().invoke(app, ["validate", "--format", "json", game])
    assert result.exit_code == 0 and json.loads(result.stdout)["files"][0]["problems"] == []


def test_the_count_of_top_or_bottom_of_a_zone_is_public(tiny) -> None:
    """A pick from top(zone, N) asked (always) only when count() of it is over 1 tells nothing: how many were drawn is public."""
    body = """
        let drawn = top(deck, 2)
        let c = first(drawn)
        if count(drawn) > 1 {
          let c = choose card from drawn by 0 "Which one?" always
        }
    """
    assert telling(tiny.cardset(body)) == []
    assert telling(tiny.cardset(body.replace("top(deck, 2)", "bottom(deck, 2)"))) == []
    assert len(telling(tiny.cardset(body.replace(" always", "")))) == 1  # alike cards would leave one answer
    assert len(telling(tiny.cardset(body.replace("top(deck, 2)", "top(deck where it.power > 3, 2)")))) == 1


# --------------------------------------------------------------------------- sizes and numbers

SIZES = {
    "huge-int-yaml.yaml": "a number with more than 4300 digits",
    "huge-int-effect.yaml": "a number with more than 4300 digits",
    "lone-surrogate-name.yaml": "cannot be printed (a lone surrogate)",
    "lone-surrogate-text.yaml": "cannot be printed (a lone surrogate)",
    "too-many-cards.yaml": "the cards add up to 200056, more than the limit of 100000",
}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_huge_numbers_cards_and_unprintable_text_are_located_problems(name: str) -> None:
    """Each file of tests/hostile/sizes gives its one located error, never a raw ValueError or a crash."""
    case = HOSTILE / "sizes" / name
    errors = [p for p in validate_file(case, games=False).problems if p.severity == "error"]
    assert [p.message for p in errors if SIZES[name] in p.message] and len(errors) == 1
    assert errors[0].span.line > 0 and errors[0].code != "internal"
    errors[0].render().encode("utf-8")  # printable


def test_the_corpus_of_sizes_is_complete() -> None:
    """Every file of tests/hostile/sizes is listed with its expected problem."""
    assert {p.name for p in (HOSTILE / "sizes").glob("*.yaml")} == set(SIZES)


@pytest.mark.parametrize("command", [["validate"], ["explain"], ["simulate", "-n", "1", "-w", "1"], ["play"]])
def test_no_command_crashes_on_an_unprintable_name(command: list[str]) -> None:
    """validate, explain, simulate and play report the lone surrogate as a problem (exit 1), no traceback."""
    case = str(HOSTILE / "sizes" / "lone-surrogate-name.yaml")
    result = CliRunner().invoke(app, [*command, case], input="q\n")
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert "lone surrogate" in " ".join(result.output.split())


def test_text_with_a_raw_surrogate_renders(tiny) -> None:
    """Text given to the loader with a raw lone surrogate: a YAML problem whose rendering can be printed."""
    with pytest.raises(rulecore.CardsetError) as err:
        load_cardset_text(tiny.text("say 1").replace("Gold Coin", "Gold \ud800"), "inline.yaml")
    str(err.value).encode("utf-8")
    assert "not allowed in a YAML file" in str(err.value)


def test_effect_text_caps(tiny) -> None:
    """A piece of effect text over Limits.effect_chars, or all of it over effect_total, is a located problem."""
    body = "say 1\n" * 40
    with pytest.raises(rulecore.CardsetError, match="the effect text is longer than 100 characters"):
        load_cardset_text(tiny.text(body), "inline.yaml", limits=Limits(effect_chars=100))
    with pytest.raises(rulecore.CardsetError, match="effect text is longer than 150 characters in all"):
        load_cardset_text(tiny.text(body), "inline.yaml", limits=Limits(effect_total=150))
    assert load_cardset_text(tiny.text(body), "inline.yaml").name == "tiny"


def test_a_very_long_line_is_cut_around_the_caret() -> None:
    """A problem on a line of thousands of characters shows 160 of them around the caret."""
    (problem,) = [p for p in validate_file(HOSTILE / "sizes" / "huge-int-yaml.yaml", games=False).problems]
    shown = problem.render().splitlines()[1]
    assert len(shown) < 200 and shown.rstrip().endswith("...")


# --------------------------------------------------------------------------- bounded work


def run_away(tiny, body: str, procedures: str = "", **limits: int) -> rulecore.RuleError:
    game = rulecore.Game(tiny.cardset(body, procedures=procedures), 2, **limits)
    with pytest.raises(rulecore.RuleError) as err:
        game.new_game(0)
    return err.value


def test_a_loop_that_does_not_end_hits_the_step_limit(tiny) -> None:
    """'repeat 1000000000 {}' stops at Game(step_limit=...) with a RuleError at the repeat."""
    err = run_away(tiny, "repeat 1000000000 { let y = 1 }", step_limit=5000)
    assert "ran more than 5,000 steps" in str(err) and err.span is not None and err.span.line > 0


def test_a_procedure_calling_itself_hits_the_depth_limit(tiny) -> None:
    """A procedure that calls itself (not in tail position) stops at depth_limit with a RuleError."""
    err = run_away(tiny, "call deep", procedures='deep: |\n  call deep\n  say "never"', depth_limit=500)
    assert "nested more than 500 deep" in str(err) and err.span is not None


def test_text_and_numbers_that_double_are_refused(tiny) -> None:
    """'let s = s + s' and 'let x = x * x' in a loop stop with a RuleError, not MemoryError."""
    err = run_away(tiny, 'let s = "ab"\nrepeat 100 { let s = s + s }')
    assert "a text of more than 1,000,000 characters" in str(err)
    err = run_away(tiny, "let big = 3\nrepeat 100 { let big = big * big }")
    assert "more than 1000 digits" in str(err)


def test_chain_over_many_cards_with_no_order_gives_up(tiny) -> None:
    """chain() over 40 cards with no order (25 and 15 that link only across) stops with a clear RuleError."""
    cards = "\n".join(f"c{i}: {{count: 1, props: {{g: {int(i < 25)}, u: {i}}}}}" for i in range(40))
    game = rulecore.Game(tiny.cardset('say count(chain(deck, none, 0, "g", "u"))', cards=cards), 2)
    with pytest.raises(rulecore.RuleError, match="chain\\(\\).*more than 100,000 steps"):
        game.new_game(0)


def test_sets_over_huge_copies_is_refused(tiny) -> None:
    """sets() over two kinds of 10,000 copies would build 100M cards: a RuleError instead."""
    game = rulecore.Game(tiny.cardset("say count(sets(deck))", cards="x: {count: 10000}\nz: {count: 10000}"), 2)
    with pytest.raises(rulecore.RuleError, match="building these sets would take more than"):
        game.new_game(0)


def test_limits_must_be_positive(tiny) -> None:
    """Game(step_limit=0) is an OptionError."""
    with pytest.raises(rulecore.OptionError):
        rulecore.Game(tiny.cardset("say 1"), 2, step_limit=0)


PLAY = HOSTILE / "play"


def _short_endless(cardset: object, players: int, options: dict) -> rulecore.Game:
    """simulate's game factory: the endless game with an action_limit of 30 (module level: picklable)."""
    return rulecore.Game(rulecore.load_cardset(str(cardset)), players, options, action_limit=30)


def test_a_game_that_never_ends_stops_at_the_action_limit() -> None:
    """tests/hostile/play/endless.yaml: apply past Game(action_limit=N) is a RuleError naming N and how to raise it."""
    game = rulecore.Game(rulecore.load_cardset(PLAY / "endless.yaml"), 2, action_limit=40)
    state = game.new_game(0)
    for _ in range(40):
        state.apply(state.legal_actions()[0])
    before = state.to_json()
    with pytest.raises(rulecore.RuleError) as err:
        state.apply(state.legal_actions()[0])
    assert "limit of 40 actions" in str(err.value) and "action_limit" in str(err.value)
    assert state.to_json() == before and len(state.history) == 40  # refused, nothing changed


def test_the_action_limit_has_a_default_and_bounds_a_save() -> None:
    """The default action_limit is 100,000; a save with more actions than the loading Game allows is a StateError."""
    game = rulecore.Game(rulecore.load_cardset(PLAY / "endless.yaml"), 2)
    assert game.action_limit == 100_000
    state = game.new_game(0)
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    short = rulecore.Game(game.cardset, 2, action_limit=10)
    with pytest.raises(rulecore.StateError, match="12 actions, more than this game's action_limit of 10"):
        short.load_state(state.to_json())
    assert game.load_state(state.to_json()).to_json() == state.to_json()


def test_simulate_reports_a_game_at_the_action_limit_as_unfinished() -> None:
    """simulate over the endless game: each game stops at the Game's action_limit and counts as unfinished, no error."""
    result = simulate(str(PLAY / "endless.yaml"), 3, 2, workers=1, game_factory=_short_endless, keep_records=True)
    assert result.unfinished == 3 and [r.decisions for r in result.records] == [30, 30, 30]


def test_the_event_log_is_bounded_and_ends_with_a_marker() -> None:
    """tests/hostile/play/chatty.yaml: the log stops at Game(event_limit=N) entries, the last saying it is full; play goes on."""
    game = rulecore.Game(rulecore.load_cardset(PLAY / "chatty.yaml"), 2, event_limit=12_000)
    state = game.new_game(0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert len(state.log) == 12_000 and state.result()["rounds"] == 50
    assert state.log[-1]["type"] == "log-full" and "later events are not recorded" in state.log[-1]["text"]
    assert [e["type"] for e in state.events(1)][-1] == "log-full"  # every player is told
    assert game.load_state(state.to_json()).to_json() == state.to_json()
    assert rulecore.Game(game.cardset, 2).event_limit == 100_000


def test_a_log_filled_in_a_sealed_part_tells_the_others_nothing_until_the_parts_are_done(tiny) -> None:
    """The 'log-full' entry written inside a sealed part is hidden from the others like the event it stands for."""
    body = """
        simultaneously for each p in players {
          let c = choose card from deck by p "Pick"
          say "picked " + c.name
          say "again"
        }
    """
    state = rulecore.Game(tiny.cardset(body), 2, event_limit=3).new_game(1)
    state.apply(state.legal_actions()[0])  # player 0's part: one 'say' fits, the second fills the log
    assert [e["type"] for e in state.events(0)] == ["phase", "say", "log-full"]
    assert [e["type"] for e in state.events(1)] == ["phase"]
    state.apply(state.legal_actions()[0])
    assert [e["type"] for e in state.events(1)] == ["phase", "say", "log-full"]


@pytest.mark.parametrize("name", ["action_limit", "event_limit"])
def test_play_limits_must_be_positive(name: str) -> None:
    """Game(action_limit=0) or event_limit=-1 is an OptionError naming the limit."""
    with pytest.raises(rulecore.OptionError, match=name):
        rulecore.Game(rulecore.load_cardset(PLAY / "endless.yaml"), 2, **{name: 0})


# --------------------------------------------------------------------------- saves


@pytest.fixture(scope="module")
def a_save() -> tuple[rulecore.Game, rulecore.State, str]:
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    state = game.new_game(seed=21)
    for _ in range(15):
        state.apply(state.legal_actions()[-1])
    return game, state, state.to_json()


def _edit(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


def _other_frame(d: dict) -> None:
    d["frames"][-1][0] = d["frames"][-1][0] - 1


def _swap_hands(d: dict) -> None:
    d["zones"]["hand/0"], d["zones"]["hand/1"] = d["zones"]["hand/1"], d["zones"]["hand/0"]


TAMPERED = {
    "a hand revealed to all": lambda d: d.update(revealed=["hand/1"]),
    "a card turned face up": lambda d: d.update(faceup=[d["zones"]["hand/1"][0]]),
    "a card turned face down": lambda d: d.update(facedown=[d["zones"]["hand/1"][0]]),
    "an option renamed": lambda d: d["decision"]["options"][0].__setitem__(0, "Play Skull"),
    "option values edited": lambda d: d["decision"].update(values=list(reversed(d["decision"]["values"]))),
    "another chooser": lambda d: d["decision"].update(player=(d["decision"]["player"] + 1) % 3),
    "another prompt": lambda d: d["decision"].update(prompt="Give me your cards"),
    "hands swapped": _swap_hands,
    "a frame pointing elsewhere": _other_frame,
    "a local variable edited": lambda d: d["envs"][-1].update({"$this": 0, "$you": 0}),
    "counters edited": lambda d: d["counters"]["total"].__setitem__(0, 99),
    "the generator edited": lambda d: d.update(rng=d["rng"] + 1),
    "the seed edited": lambda d: d.update(seed=d["seed"] + 1),
    "a history entry edited": lambda d: d["history"].__setitem__(0, "Attack"),
    "the history cut": lambda d: d["history"].pop(),
    "an action added": lambda d: d["history"].append(d["history"][-1]),
    "the log edited": lambda d: d["log"][0].update(text="nothing happened"),
    "a card mark added": lambda d: d["marks"].update({"0": ["bound"]}),
    "the game over": lambda d: d.update(terminal=True),
    "the fingerprint edited": lambda d: d.update(fingerprint="0" * 32),
    "no fingerprint": lambda d: d.pop("fingerprint"),
}


# what a refusal of a save may look like: a place in the JSON ('zones["hand/0"][3]'), what it must or
# should be and what it is; a history the rules refuse; another version of the cardset
FOR_PEOPLE = re.compile(
    r"'[^']+' (must (be|have) .+ \(got .+\)|must hold .+|should be .+ \(got .+\)|should not be there \(got .+\)"
    r"|is missing.*|holds .+ more than this game's \w+_limit .+|is card \d+, which is in .+ too: .+)"
    r"|the saved history is not a game of this cardset: replay: action \d+ .+ is not legal: .+"
    r"|its fingerprint does not match|^this state (is of|has|was played with) .+|^not a saved .+"
    r"|neither over nor waiting for a decision: .+")
PYTHON = re.compile(r"Error\b|Exception|Traceback|NoneType|'(str|int|float|bool|dict|list|tuple)'"
                    r"|\bnot (str|int|float|bool|dict|list|tuple)\b|object has no|unhashable|not subscriptable"
                    r"|index out of range|does not hang together")


def assert_for_people(err: rulecore.StateError) -> None:
    """A refusal that says where and what, in words, with no Python exception in it."""
    text = str(err)
    assert FOR_PEOPLE.search(text), text
    assert not PYTHON.search(text), text
    assert err.__cause__ is None and (err.__context__ is None or err.__suppress_context__)  # no chained traceback


@pytest.mark.parametrize("what", sorted(TAMPERED))
def test_a_tampered_save_is_a_state_error(a_save, what: str) -> None:
    """Every edit of a save (frames, decision, reveals, faces, history, ...) is a StateError for people, never a state."""
    game, _, text = a_save
    with pytest.raises(rulecore.StateError) as err:
        game.load_state(_edit(text, TAMPERED[what]))
    assert_for_people(err.value)


def _set(*path: object, to: object):
    """An edit that sets the value at ``path`` in the save (a key of a list: its index)."""
    def change(d: dict) -> None:
        for key in path[:-1]:
            d = d[key]  # type: ignore[index]
        d[path[-1]] = to  # type: ignore[index]
    return change


def _without(key: str):
    return lambda d: d.pop(key)


# a save whose values are of the wrong shape: each refusal names the place and says what it must be
MALFORMED = {
    "not an object": (lambda d: d.clear(), "not a saved rulecore state: 'format' must be"),
    "a key missing": (_without("turns"), "'turns' is missing"),
    "game not a text": (_set("game", to=[1]), "this state is of [1], not 'witching-hour'"),
    "seed not a number": (_set("seed", to="x"), "'seed' must be a whole number of at most 64 bits (got \"x\")"),
    "seed true": (_set("seed", to=True), "'seed' must be a whole number of at most 64 bits (got true)"),
    "rng negative": (_set("rng", to=-1), "'rng' must be an integer from 0 to 18446744073709551615 (got -1)"),
    "zones a list": (_set("zones", to=[]), "'zones' must be an object of zones and the card ids in each (got [])"),
    "a zone unknown": (lambda d: d["zones"].update(attic=[]), "'zones' must hold exactly the cardset's zones; "
                                                             "not in the cardset: \"attic\""),
    "a zone not a list": (_set("zones", "discard", to=3), "'zones[\"discard\"]' must be a list of card ids (got 3)"),
    "a card a text": (_set("zones", "hand/0", 0, to="x"), "'zones[\"hand/0\"][0]' must be a card id (an integer from 0 to"),
    "a card twice": (lambda d: d["zones"]["discard"].append(d["zones"]["hand/0"][0]),
                     "'zones[\"hand/0\"][0]' is card {card}, which is in 'zones[\"discard\"]' too"),
    "counters a list": (_set("counters", to=[0]), "'counters' must be an object of counters and their values (got [0])"),
    "a counter unknown": (lambda d: d["counters"].update(gold=[1]), "not in the cardset: \"gold\""),
    "a counter value a text": (_set("counters", "total", 1, to="7"), "'counters[\"total\"][1]' must be an integer (got \"7\")"),
    "vars a list": (_set("vars", to=[]), "'vars' must be an object of game variables (got [])"),
    "round negative": (_set("round", to=-2), "'round' must be a whole number from 0 (got -2)"),
    "phase a number": (_set("phase", to=4), "'phase' must be a phase name or null (got 4)"),
    "turn player out of range": (_set("turn_player", to=3), "'turn_player' must be a player (an integer from 0 to 2) (got 3)"),
    "turns a float": (_set("turns", to=1.5), "'turns' must be a whole number from 0 (got 1.5)"),
    "extra turns short": (_set("extra_turns", to=[0]), "'extra_turns' must be a list of 3 integers, one per player (got [0])"),
    "revealed unknown zone": (_set("revealed", to=["attic"]), "'revealed[0]' must be a zone key of the cardset (got \"attic\")"),
    "faceup not cards": (_set("faceup", to=[-1]), "'faceup[0]' must be a card id (an integer from 0 to"),
    "facedown an object": (_set("facedown", to={}), "'facedown' must be a list of card ids (got {})"),
    "envs an object": (_set("envs", to={}), "'envs' must be a list of objects of local variables (got {})"),
    "an env a list": (_set("envs", 0, to=[]), "'envs[0]' must be an object of local variables (got [])"),
    "frames an object": (_set("frames", to={}), "'frames' must be a list of frames (got {})"),
    "a frame of three": (_set("frames", 0, to=[0, 0, None]), "'frames[0]' must be a frame [statement, step, progress, locals]"),
    "a frame step negative": (_set("frames", 0, 1, to=-1), "'frames[0][1]' must be a whole number from 0 (got -1)"),
    "decision a list": (_set("decision", to=[]), "'decision' must be an object (the pending choice) or null (got [])"),
    "decision options not pairs": (_set("decision", "options", to=[["a"]]),
                                   "'decision[\"options\"][0]' must be a pair [action, label] (got [\"a\"])"),
    "decision label a number": (_set("decision", "options", 0, 1, to=5), "'decision[\"options\"][0][1]' must be a text (got 5)"),
    "decision player out of range": (_set("decision", "player", to=9), "'decision[\"player\"]' must be a player"),
    "decision prompt missing": (lambda d: d["decision"].pop("prompt"), "'decision[\"prompt\"]' must be a text (got null)"),
    "decision kind a list": (_set("decision", "kind", to=[]), "'decision[\"kind\"]' must be a text (got [])"),
    "history a text": (_set("history", to="x"), "'history' must be a list of actions (texts) (got \"x\")"),
    "an action a number": (_set("history", 0, to=3), "'history[0]' must be a text (got 3)"),
    "log an object": (_set("log", to={}), "'log' must be a list of events (objects) (got {})"),
    "an event a text": (_set("log", 0, to="boom"), "'log[0]' must be an event (an object) (got \"boom\")"),
    "terminal a number": (_set("terminal", to=0), "'terminal' must be true or false (got 0)"),
    "round log of lists": (_set("round_log", to=[[]]), "'round_log[0]' must be an object of counters at the end of a round"),
    "winners out of range": (_set("winners", to=[5]), "'winners[0]' must be a player (an integer from 0 to 2) (got 5)"),
    "uses of a text": (lambda d: d["uses"].update(bell="x"), "'uses[\"bell\"]' must be a list of 3 integers, one per player"),
    "arranged a text": (_set("arranged", to="no"), "'arranged' must be true or false (got \"no\")"),
    "marks keyed by a name": (lambda d: d["marks"].update(bell=["x"]), "'marks' must have card ids for keys"),
    "marks not texts": (lambda d: d["marks"].update({"3": [1]}), "'marks[\"3\"][0]' must be a text (got 1)"),
    "player marks short": (_set("player_marks", to=[[]]), "'player_marks' must be a list of 3 lists of marks, one per player"),
    "sealing a text": (_set("sealing", to="me"), "'sealing' must be a player (an integer from 0 to 2) (got \"me\")"),
    "sealed cards to a stranger": (lambda d: d["sealed_cards"].update({"3": 7}), "'sealed_cards[\"3\"]' must be a player"),
    "classes short": (_set("classes", to=[]), "'classes' must be a list of 3 objects, one per player (got [])"),
    "class of a name": (lambda d: d["classes"][0].update(bell=1), "'classes[0]' must have card ids for keys"),
    "class seq a text": (_set("class_seq", to="1"), "'class_seq' must be a whole number from 0 (got \"1\")"),
    "loose a list": (_set("loose", to=[]), "'loose' must be an object of card ids and players (bits) (got [])"),
}


@pytest.mark.parametrize("what", sorted(MALFORMED))
def test_a_malformed_save_names_the_place_and_what_it_must_be(a_save, what: str) -> None:
    """A save with a value of the wrong shape: a StateError naming its JSON path, what it must be and what it is."""
    game, _, text = a_save
    change, message = MALFORMED[what]
    if "{card}" in message:
        message = message.format(card=json.loads(text)["zones"]["hand/0"][0])
    with pytest.raises(rulecore.StateError) as err:
        game.load_state(_edit(text, change))
    assert message in str(err.value)
    assert_for_people(err.value)


def test_a_refusal_of_a_save_can_always_be_printed(a_save) -> None:
    """Names and keys of a save with a lone surrogate, or thousands of characters long, are shown short and printable."""
    game, _, text = a_save
    for change in (_set("game", to="\ud800" * 3), lambda d: d["uses"].update({"\udfff" + "x" * 5000: "x"}),
                   _set("history", 0, to=["\ud800"]), _set("history", 0, to="\ud800" + "y" * 5000)):
        with pytest.raises(rulecore.StateError) as err:
            game.load_state(_edit(text, change))
        str(err.value).encode("utf-8")
        assert len(str(err.value)) < 400 and "\\ud" in str(err.value)


def test_every_field_of_a_save_has_a_malformed_case(a_save) -> None:
    """Each top-level field of a save is broken by some case of MALFORMED (a new field needs its case)."""
    _, _, text = a_save
    checked = {"format", "game", "fingerprint", "players", "options"}  # refused by other tests here and in test_saves.py
    named = " ".join(message for _, message in MALFORMED.values())
    assert {key for key in json.loads(text) if f"'{key}" not in named} <= checked


def _leaves(value: object, path: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [path] + [leaf for k, v in value.items() for leaf in _leaves(v, path + (k,))]
    if isinstance(value, list):
        return [path] + [leaf for i, v in enumerate(value) for leaf in _leaves(v, path + (i,))]
    return [path]


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 2**65) | st.floats(allow_nan=False)
                           | st.text(max_size=5), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_value_anywhere_in_a_save_is_refused_for_people(a_save, data) -> None:
    """Any value put anywhere in a save (hypothesis): it loads as its replay, or a StateError for people."""
    game, _, text = a_save
    saved = json.loads(text)
    path = data.draw(st.sampled_from(_leaves(saved)[1:]))
    value = data.draw(JSON_VALUES)
    _set(*path, to=value)(saved)
    try:
        state = game.load_state(json.dumps(saved))
    except rulecore.StateError as err:
        assert_for_people(err)
    else:
        assert json.loads(state.to_json()) == saved


def test_an_untouched_save_loads_as_its_replay(a_save) -> None:
    """An honest save loads (re-derived from its seed and history) and writes the same JSON."""
    game, state, text = a_save
    again = game.load_state(text)
    assert again.to_json() == text and again.legal_actions() == state.legal_actions()


def test_deeply_nested_json_is_a_state_error(a_save) -> None:
    """100,000 nested '[' are a StateError, not a RecursionError."""
    game, _, _ = a_save
    with pytest.raises(rulecore.StateError, match="nested too deeply"):
        game.load_state("[" * 100_000 + "]" * 100_000)


def test_a_save_of_changed_rules_of_the_same_name_is_refused(a_save) -> None:
    """A save from another version of the cardset (same name, other counts) fails its fingerprint."""
    _, _, text = a_save
    changed = rulecore.Game(load_cardset_text("extends: witching-hour\ncards:\n  bell: {count: 7}\n"), 3)
    assert changed.cardset.name == "witching-hour"
    with pytest.raises(rulecore.StateError, match="fingerprint"):
        changed.load_state(text)


def test_the_fingerprint_ignores_where_the_files_lie(tmp_path: Path) -> None:
    """The same rules loaded from another folder have the same fingerprint; other rules another one."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "v.yaml").write_text("extends: witching-hour\ncards:\n  bell: {count: 7}\n",
                                                  encoding="utf-8")
    a, b = (rulecore.Game(rulecore.load_cardset(tmp_path / f / "v.yaml"), 3).fingerprint for f in "ab")
    assert a == b != rulecore.Game(rulecore.load_cardset("witching-hour"), 3).fingerprint


def test_an_arranged_save_loads_only_when_trusted(a_save) -> None:
    """An arranged state cannot be replayed: its save is refused unless load_state(..., trusted=True)."""
    game, _, _ = a_save
    state = game.new_game(seed=3)
    state.arrange({"hand/0": ["bell", "bell"]}, rest="discard")
    with pytest.raises(rulecore.StateError, match="arrange"):
        game.load_state(state.to_json())
    assert game.load_state(state.to_json(), trusted=True).to_json() == state.to_json()


@pytest.mark.parametrize("error", [KeyboardInterrupt, MemoryError, RuntimeError])
def test_apply_is_atomic_whatever_interrupts_it(a_save, monkeypatch: pytest.MonkeyPatch, error: type) -> None:
    """An exception of any kind inside apply (a caller's timeout, Ctrl-C) leaves the state exactly as it was."""
    from rulecore.engine.interpreter import driver

    game, _, text = a_save
    state = game.load_state(text)
    real = driver.resume

    def interrupted(s: rulecore.State, index: int) -> None:
        real(s, index)  # the action has been carried out, then the interruption comes (once)
        monkeypatch.setattr(driver, "resume", real)
        raise error()

    monkeypatch.setattr(driver, "resume", interrupted)
    with pytest.raises(error):
        state.apply(state.legal_actions()[0])
    assert state.to_json() == text


def test_a_shuffle_ends_a_reveal(tiny) -> None:
    """'reveal deck' then 'shuffle deck': the others do not see the new order."""
    state = tiny.run('reveal deck\nshuffle deck\nlet c = choose card from deck by 0')
    assert "cards" not in state.view(1)["zones"]["deck"]


def test_a_procedure_calling_itself_in_tail_position_hits_the_step_limit(tiny) -> None:
    """A procedure whose last statement calls itself keeps the stack flat: it stops at step_limit with a
    RuleError, not at Python's recursion limit (block functions hand over to the run loop when nested)."""
    err = run_away(tiny, "call deep", procedures='deep: |\n  say "again"\n  call deep', step_limit=20_000)
    assert "ran more than 20,000 steps" in str(err) and err.span is not None
