"""`rulecore validate`: every problem of card files, located, with a hint; never a traceback.

The corpus in tests/bad_cardsets/ holds broken files for all three games and every kind of
mistake; tests/bad_cardsets/expected.txt says, for each, the exact problems (line, column,
message, hint) that validation must report.  Property tests feed random mutations of the
built-in files to validation and check that it only ever reports problems.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import rulecore
from rulecore.cardset.loader import load_cardset_text
from rulecore._resources import data_dir
from rulecore.cli.validate import FileReport, targets, validate_file, validate_paths, validate_text
from rulecore.cli import app

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path("tests") / "bad_cardsets"  # relative: messages name files as they were given
EXPECTED = yaml.safe_load((REPO / CORPUS / "expected.txt").read_text(encoding="utf-8"))
GAMES = ("witching-hour", "witty-witches", "approaching-dawn")


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def describe(case: Path, problem: rulecore.Problem) -> str | None:
    """A problem as expected.txt writes it; None for one outside the corpus (in a built-in base)."""
    where = Path(problem.span.file).resolve()
    if (REPO / CORPUS).resolve() not in where.parents:
        return None
    text = f"{problem.span.line}:{problem.span.column}: "
    if where != (REPO / case).resolve():
        text = os.path.relpath(where, (REPO / case).parent.resolve()) + ":" + text
    text += ("warning: " if problem.severity == "warning" else "") + problem.message
    return text + (f" | hint: {problem.hint}" if problem.hint else "")


# --------------------------------------------------------------------------- the corpus


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_gives_the_exact_problems(name: str) -> None:
    """Each broken file gives exactly the listed problems, at the listed line and column, with the hint."""
    case = CORPUS / name
    report = validate_file(case, games=False)
    found = [d for d in (describe(case, p) for p in report.problems) if d is not None]
    assert found == (EXPECTED[name] or [])
    assert all(p.code != "internal" for p in report.problems)


def test_the_corpus_is_complete() -> None:
    """Well over 50 broken files, all listed, across all three games and files for any game."""
    cases = {str(p.relative_to(CORPUS)) for p, _folder in targets([str(CORPUS)])}
    assert cases == set(EXPECTED)
    assert len(cases) > 80
    for folder in GAMES + ("any",):
        assert sum(1 for c in cases if c.startswith(folder + "/")) >= 15
    kinds = {p.split("/")[1].split("-")[0] for p in cases}
    assert {"yaml", "effect", "extends", "include", "remove", "duplicate", "unknown"} <= kinds


def test_every_case_has_a_problem_with_a_place() -> None:
    """No case passes clean, and every problem listed names a line and a column."""
    for name, expected in EXPECTED.items():
        assert expected, name
        for line in expected:
            place = line.split(": ")[0].split(":")
            assert all(part.isdigit() and int(part) > 0 for part in place[-2:]), (name, line)


@pytest.mark.slow
def test_validating_the_corpus_folder_reports_every_file() -> None:
    """A folder validates every cardset in it; files only included by others are checked with them."""
    reports = validate_paths([str(CORPUS)], games=False)
    files = {str(Path(r.file).relative_to(CORPUS)) for r in reports}
    assert files == set(EXPECTED)
    assert "approaching-dawn/parts/lantern.yaml" not in files
    assert sum(r.errors for r in reports) > 90


# --------------------------------------------------------------------------- built-ins and examples


@pytest.mark.parametrize("name", rulecore.builtin_cardsets())
def test_every_builtin_cardset_validates_without_errors(name: str) -> None:
    """The built-in cardsets have no errors (warnings are reported, but do not fail validation)."""
    (report,) = validate_paths([str(data_dir("cardsets") / name)])
    assert report.errors == 0, [p.render() for p in report.problems]
    assert report.cardset == name


@pytest.mark.parametrize("name", ["witching-hour", "witty-witches"])
def test_finished_builtins_have_no_warnings_either(name: str) -> None:
    (report,) = validate_paths([name])
    assert report.problems == (), [p.render() for p in report.problems]


def test_docs_examples_validate_clean() -> None:
    reports = validate_paths([str(REPO / "docs" / "examples")])
    assert len(reports) >= 4
    for report in reports:
        assert report.errors == 0, [p.render() for p in report.problems]


# --------------------------------------------------------------------------- one run, every stage


def test_structure_and_effect_problems_come_in_one_run(tiny) -> None:
    """A schema mistake does not hide the effect mistakes: the rest of the file is still checked."""
    text = tiny.text("move top(deck) to discrad").replace("  bean: {count: 2,", "  bean: {count: two,")
    found = [p.message for p in validate_text(text, "inline.yaml")]
    assert found == ["'count' must be an integer (got 'two')", "unknown name 'discrad' in the flow"]


def test_a_misspelt_key_is_read_as_the_key_it_resembles(tiny) -> None:
    """'cuont: 2' is reported once, and the card still counts as declared (no follow-up problems)."""
    text = tiny.text('say count(cards(deck) where it.type == "bean")').replace("  bean: {count: 2,", "  bean: {cuont: 2,")
    messages = [p.message for p in validate_text(text, "inline.yaml")]
    assert messages == ["unknown key 'cuont' in card 'bean'"]


def test_a_broken_zone_does_not_make_every_use_of_it_a_problem(tiny) -> None:
    """A zone whose owner is misspelt is reported once; text using it is checked without follow-ups."""
    text = tiny.text("move top(deck) to hand of you\nmove top(deck) to table").replace(
        "hand: {owner: player,", "hand: {owner: playr,")
    problems = validate_text(text, "inline.yaml")
    assert [p.message for p in problems] == ["'owner' must be one of 'player', 'none' (got 'playr')"]
    assert problems[0].hint == "did you mean 'player'?"


def test_a_broken_section_stops_before_the_effects(tiny) -> None:
    """When a whole section (zones) is unusable, effect text is not checked against it."""
    text = tiny.text("move top(deck) to discrad")
    start = text.index("zones:\n")
    end = text.index("counters:\n")
    problems = validate_text(text[:start] + "zones: [deck, discard]\n" + text[end:], "inline.yaml")
    assert [p.message for p in problems] == ["'zones' must be a mapping (key: value lines) (got ['deck', 'discard'])"]


def test_warnings_do_not_stop_a_load(tiny) -> None:
    """A procedure nothing calls is a warning: the cardset loads and carries it."""
    cs = tiny.cardset("say 1", procedures="lonely: say 2")
    messages = [w.message for w in cs.warnings]
    assert "procedure 'lonely' is never called" in messages
    assert all(w.severity == "warning" for w in cs.warnings)
    assert cs.warnings[0].render().split(": ", 2)[1] == "warning"


def test_a_text_that_nearly_is_a_card_name_is_a_warning(tiny) -> None:
    """Texts compared with card names, or kept in a list, that nearly match a card name warn with the name meant."""
    body = ('for each c in deck where it.name in ["Gold Cion", "Apple"] { say 1 }\n'
            'let names = ["Bena"]\nif "Aple" in names { say "Gold" }')
    cs = tiny.cardset(body)
    found = [(w.span.line, w.span.column, w.message, w.hint) for w in cs.warnings if w.code == "card-name"]
    text = tiny.text(body)
    assert found == [
        (*tiny.line_of(text, '"Gold Cion"'), "'Gold Cion' is not a card name, but nearly is",
         "did you mean 'Gold Coin'? a misspelt name never matches c.name"),
        (*tiny.line_of(text, '"Bena"'), "'Bena' is not a card name, but nearly is",
         "did you mean 'Bean'? a misspelt name never matches c.name"),
        (*tiny.line_of(text, '"Aple"'), "'Aple' is not a card name, but nearly is",
         "did you mean 'Apple'? a misspelt name never matches c.name"),
    ]


# --------------------------------------------------------------------------- hints that name the real cause


def _errors(text: str) -> list[tuple[str, str | None]]:
    return [(p.message, p.hint) for p in validate_text(text, "inline.yaml") if p.severity == "error"]


FUNCS = "functions:\n  top_card: first(deck)\n  heavy:\n    params: [c]\n    value: c.power > limit\nend:\n"


def test_a_function_used_without_brackets_says_so(tiny) -> None:
    """'top_card.power' for a function top_card says to call it, not 'did you mean' a similar name."""
    text = tiny.text("say top_card.power\nsay heavy(first(deck))").replace("end:\n", FUNCS)
    assert ("'top_card' is a function: call it with brackets, top_card()", "write top_card().power") in _errors(text)


def test_a_callers_local_in_a_function_says_functions_see_only_their_parameters(tiny) -> None:
    """A name a function does not have points at its params, not at 'it'."""
    text = tiny.text("say heavy(first(deck))\nsay top_card()").replace("end:\n", FUNCS)
    assert _errors(text) == [("unknown name 'limit' in function 'heavy'",
                              "a function sees only its parameters (c) and the cardset's names, not the caller's "
                              "locals: add 'limit' to its 'params' and pass it")]


def test_owner_of_a_card_is_refused_at_load_and_at_run_time(tiny) -> None:
    """owner(c) of a card is a load error pointing at zone_of; one the text hides is a plain RuleError."""
    text = tiny.text("let c = choose card from deck by 0\nsay owner(c)")
    assert _errors(text) == [("owner() needs a zone, got a card",
                              "owner(zone_of(c)) is the player whose zone holds card c")]
    with pytest.raises(rulecore.RuleError, match=r"owner\(\) needs a zone, got a number \(0\)"):
        tiny.run("let xs = cards(deck)\nsay owner(item(xs, 0))")


def test_text_after_a_quoted_text_is_not_called_an_indentation_error(tiny) -> None:
    """'value: "out" not in xs' says the quoted text is taken as the whole value."""
    text = tiny.text("say 1").replace("end:\n", 'functions:\n  f:\n    value: "out" not in [1]\nend:\n')
    (problem,) = validate_text(text, "inline.yaml")
    assert problem.message == 'YAML syntax error: more text after the quoted text "out"'
    assert problem.hint.startswith('YAML reads "out" as the whole value: put the whole value in quotes')
    assert (problem.span.line, problem.span.column) == tiny.line_of(text, "not in [1]")


def test_a_comma_in_a_flow_mapping_text_is_named_as_the_cause(tiny) -> None:
    """'{description: cards, face down}' says the comma cut the text, not 'unknown key'."""
    text = tiny.text("say 1").replace("  pile: {owner: player, visibility: nobody}",
                                      "  pile: {owner: player, visibility: nobody, description: cards, face down}")
    assert _errors(text) == [("'face down' is read as a key of zone 'pile': a ',' inside {...} ends the text "
                              "before it", 'put the text that holds the comma in quotes: description: "..., ..."')]


def test_a_heuristic_that_is_no_number_is_a_load_error(tiny) -> None:
    """The heuristic is checked at load like effect text: a zone where a number is wanted is an error."""
    text = tiny.text("say 1") + "heuristic: hand of you\n"
    assert _errors(text) == [("the heuristic must give a number, got a zone: hand of you",
                              "e.g. points of you - max_of(opponents, points of it); count(ZONE) for a zone")]


def test_validate_works_out_the_heuristic_in_a_smoke_game(tiny, tmp_path: Path) -> None:
    """validate plays a short random game and works out the heuristic for every seat, as search bots do."""
    path = tmp_path / "h.yaml"
    text = tiny.text("move top(deck, 5) to hand of 0\nlet c = choose card from hand of 0 by 0\nmove c to table")
    path.write_text(text + "heuristic: max_of(hand of you, it.power) + 1\n", encoding="utf-8")
    found = [p for p in validate_file(path).problems if p.code == "heuristic"]
    assert [p.message for p in found] == [
        f"the heuristic cannot be worked out for seat 1 in a {n}-player game after 0 random decisions: "
        "'+' needs numbers, got nothing (none) and a number (1)" for n in (2, 4)]
    assert found[0].span.line == text.count("\n") + 1
    assert validate_file(path, games=False).problems == validate_file(path, games=False).problems
    assert not [p for p in validate_file(path, games=False).problems if p.code == "heuristic"]




def test_a_lone_value_spelt_like_another_is_a_warning(tiny) -> None:
    """A lone, untested tag or property text spelt like a tested or common value is a warning; others are not."""
    cards = """\
    plum: {count: 1, tags: [fruti], scoring: [1]}
    pear: {count: 1, tags: [green], scoring: [1]}
    fig: {count: 1, tags: [ripe], scoring: [1]}
    kiwi: {count: 1, props: {power: 1, taste: sour}, scoring: [1]}
    lime: {count: 1, props: {power: 1, taste: sour}, scoring: [1]}
    date: {count: 1, props: {power: 1, taste: souer}, scoring: [1]}
    """
    cs = tiny.cardset('say count(table where "ripe" in it.tags or "fruit" in it.tags)', cards=cards)
    spelling = [(w.message, w.hint, w.severity) for w in cs.warnings if w.code == "spelling"]
    assert spelling == [
        ("tag 'fruti' of card 'plum' is on no other card and no effect tests it", "did you mean 'fruit'?", "warning"),
        ("'taste: souer' of card 'date' is on no other card and no effect tests it", "did you mean 'sour'?", "warning"),
    ]


def test_a_missing_ladder_warns_only_when_every_other_card_has_one(tiny) -> None:
    """A 'scoring' ladder on one card type among many is no warning; one type without one among laddered ones is."""
    plain = """\
    plum: {count: 1}
    pear: {count: 1}
    fig: {count: 1}
    """
    text = tiny.text("say ladder_score(table)", cards=plain).replace(", scoring: [1, 3, 6]", "")
    cs = load_cardset_text(text, "inline.yaml")
    assert [w.message for w in cs.warnings if w.code == "scoring"] == []  # only bean has one
    ladders = plain.replace("{count: 1}", "{count: 1, scoring: [1]}")
    (w,) = [w for w in tiny.cardset("say ladder_score(table)", cards=ladders).warnings if w.code == "scoring"]
    assert w.message.startswith("card 'coin' has no 'scoring' ladder, but all 5 other cards have one")


# --------------------------------------------------------------------------- the command


runner = CliRunner()


def test_cli_exit_codes() -> None:
    """0 clean, 1 problems, 2 usage errors."""
    assert runner.invoke(app, ["validate", "witching-hour"]).exit_code == 0
    bad = runner.invoke(app, ["validate", str(CORPUS / "witching-hour" / "card-unknown-key.yaml")])
    assert bad.exit_code == 1
    assert "card-unknown-key.yaml:5:5: unknown key 'cuont' in card 'skull'" in bad.output
    assert "    ^" in bad.output and "hint: did you mean 'count'?" in bad.output
    assert runner.invoke(app, ["validate", "no/such/file.yaml"]).exit_code == 2
    assert runner.invoke(app, ["validate", "--format", "xml", "witching-hour"]).exit_code == 2
    assert runner.invoke(app, ["validate"]).exit_code == 2


@pytest.mark.slow
def test_cli_reports_every_problem_of_several_files() -> None:
    result = runner.invoke(app, ["validate", str(CORPUS / "witching-hour"), str(CORPUS / "witty-witches")])
    assert result.exit_code == 1
    assert result.output.count("tests/bad_cardsets/") >= 60
    assert "errors," in result.output.splitlines()[-1]


def test_cli_json_for_ci_and_editors() -> None:
    result = runner.invoke(app, ["validate", "--format", "json", str(CORPUS / "witching-hour" / "effect-several-mistakes.yaml")])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["ok"] is False and data["errors"] == 3
    (entry,) = data["files"]
    assert [(p["line"], p["column"], p["severity"]) for p in entry["problems"]] == [(5, 12, "error"), (10, 41, "error"),
                                                                                  (13, 5, "error")]
    assert entry["problems"][1]["hint"] == "did you mean 'opponents'?"


def test_cli_strict_fails_on_warnings() -> None:
    case = str(CORPUS / "witty-witches" / "unused-procedure.yaml")
    assert runner.invoke(app, ["validate", case]).exit_code == 0
    assert runner.invoke(app, ["validate", "--strict", case]).exit_code == 1


def test_cli_never_shows_a_traceback(tmp_path: Path) -> None:
    for name, data in {"a.yaml": b"\xff\xfe\x00junk", "b.yaml": b"- [1, {", "c.yaml": b"x: !!binary AAA=\n"}.items():
        (tmp_path / name).write_bytes(data)
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --------------------------------------------------------------------------- never a crash

BUILTIN_FILES = sorted(p for p in data_dir("cardsets").rglob("*.yaml"))
JUNK = ["count", "owner", "none", "player", "-1", "99999999999999999999", "[]", "{}", "~", "'x'", '"', "&a", "*a",
        "!!binary x", "\t", ":", "- ", "on:", "do:", "hand", "discard", "if", "{", "}", "(", ")", "move", "let",
        "choose", "3.5", "true", "é", "\x00", "extends: witching-hour", "include: [x.yaml]", "remove: {cards: [x]}"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        op = rng.randrange(7)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rng.choice(JUNK) + lines[i][j + 1:]
        elif op == 3:
            lines[i] = " " * rng.randrange(6) + lines[i].lstrip()
        elif op == 4 and lines[i]:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(JUNK)
            lines[i] = " ".join(words)
        elif op == 5:
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
        elif op == 6 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + lines[i][j + 1:]
        if not lines:
            lines = [""]
    return "\n".join(lines)


def only_problems(report: FileReport) -> None:
    for p in report.problems:
        assert isinstance(p, rulecore.Problem)
        assert p.code != "internal", p.render()
        assert p.span.file and p.message
        p.render()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(BUILTIN_FILES) - 1))
def test_mutated_builtin_files_only_ever_give_problems(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                                       which: int) -> None:
    """Random edits of a built-in file (lines dropped, doubled, swapped, re-indented, junk in words)."""
    source = BUILTIN_FILES[which]
    work = tmp_path_factory.mktemp("mutant") / source.parent.name
    shutil.copytree(source.parent, work)
    (work / source.name).write_text(mutate(source.read_text(encoding="utf-8"), random.Random(seed)), encoding="utf-8")
    only_problems(validate_file(work / "cardset.yaml"))


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_only_ever_give_problems(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "junk.yaml"
        path.write_bytes(data)
        only_problems(validate_file(path))


yaml_scalars = st.one_of(st.integers(-10**30, 10**30), st.booleans(), st.none(), st.text(max_size=12),
                         st.sampled_from(["deck", "hand", "player", "none", "everyone", "count(deck)", "say 1"]))
yaml_values = st.recursive(yaml_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(string.ascii_lowercase + "_", max_size=8), inner, max_size=4)),
    max_leaves=20)
KEYS = ["name", "players", "zones", "cards", "flow", "end", "setup", "counters", "vars", "options", "procedures",
        "functions", "heuristic", "extends", "remove", "include"]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), yaml_values, max_size=8))
def test_any_data_of_the_right_keys_only_ever_gives_problems(data: dict) -> None:
    """Garbage under the real keys (any nesting, huge numbers, wrong types) is reported, never raised as a crash."""
    text = yaml.safe_dump(data, allow_unicode=True)
    try:
        load_cardset_text(text, "generated.yaml")
    except rulecore.CardsetError as exc:
        for p in exc.problems:
            assert p.code != "internal"
            p.render()


def test_deeply_nested_effect_text_is_a_problem(tiny) -> None:
    deep = "say " + "(" * 400 + "1" + ")" * 400
    long_sum = "say " + " + ".join(["1"] * 3000)
    for body in (deep, long_sum):
        text = tiny.text("say 1").replace("        say 1", "        " + body)
        try:
            load_cardset_text(text, "inline.yaml")
        except rulecore.CardsetError as exc:
            assert all(p.code != "internal" for p in exc.problems)


# --------------------------------------------------------------------------- kinds at load (issue 22)


@pytest.mark.parametrize("body, needle, message", [
    ("set x to x + table", "x + table", "'+' adds numbers, got a zone: table"),
    ("let b = table\nset pool to pool + b", "b\n", "'+' adds numbers, got a zone: b"),
    ('if score of 0 < "10" { say 1 }', 'score of 0 < "10"', "'<' compares a number with a text"),
    ('let s = "3"\nif pool == s { say 1 }', 'pool == s', "'==' compares a number with a text"),
    ("let firsts = players where score of it > 0\nfor each p in players { add firsts to score of p }",
     "firsts to", "'add' needs a number, got players: firsts"),
    ("let n = hand of 0\nsay n * 2", "n * 2", "'*' needs numbers, got a zone: n"),
    ('let q = choose player from players by 0 count(deck)', "count(deck)", "a prompt must be a text, got a number"),
    ("let z = deck\nrepeat z { say 1 }", "z {", "'repeat' needs a number, got a zone: z"),
])
def test_a_value_of_the_wrong_kind_is_a_located_load_error(tiny, body: str, needle: str, message: str) -> None:
    """Kind mistakes the text shows (a number plus a zone, a number compared with a text, a collection added to a
    counter, ...) are errors at load at their own line and column, before anything runs."""
    text = tiny.text(body)
    found = [(p.span.line, p.span.column, p.message) for p in validate_text(text, "inline.yaml")
             if p.severity == "error"]
    line, column = tiny.line_of(text, needle)
    assert found == [(line, column + (4 if needle == "x + table" else 0), message)]


def test_a_number_plus_a_zone_the_text_hides_is_a_rule_error_not_a_text(tiny) -> None:
    """At run time '+' of a number and a zone is a located RuleError, never the text '1table'."""
    for body in ("let b = item([table], 0)\nsay 1 + b", "let b = item([table], 0)\nsay b + 1"):
        with pytest.raises(rulecore.RuleError, match=r"'\+' cannot add a number \(1\) and the zone 'table'"):
            tiny.run(body)


@pytest.mark.parametrize("old, new, message", [
    ("apple: {count: 3,", "apple: {count: true,", "'count' must be an integer (got true)"),
    ("pile: {owner: player,", "pile: {owner: true,", "'owner' must be one of 'player', 'none' (got true)"),
    ("apple: {count: 3, tags: [red, fruit]", "apple: {count: 3, tags: [red, null]",
     "item 2 of 'tags' must be a text (got null)"),
    ("apple: {count: 3, tags: [red, fruit]", "apple: {count: 3, tags: {a: true}", "'tags' must be a list (got {a: true})"),
])
def test_yaml_values_in_load_messages_are_in_yamls_words(tiny, old: str, new: str, message: str) -> None:
    """A YAML value in a load message is written as YAML writes it (true, null, {a: true}), never Python's True/None."""
    text = tiny.text("say 1")
    assert old in text
    messages = [p.message for p in validate_text(text.replace(old, new), "inline.yaml")]
    assert message in messages, messages


def test_a_card_name_passed_through_a_name_is_checked_where_it_is_written(tiny) -> None:
    """A quoted text that reaches 'c.name == n' (or '.type') through a procedure's parameter, a 'let' or a function's
    parameter must be a card's name (id): else an error at the text, with a guess (issue 22: call challenge(you, "Duk"))."""
    procedures = "has:\n  params: [who, n]\n  do: |\n    say count(hand of who where it.name == n)\n"
    body = ('call has(0, "Aple")\ncall has(1, "Bean")\nlet t = "bena"\nsay count(deck where it.type == t)\n'
            'say count(deck where named(it, "Gold Cion"))')
    text = tiny.text(body, procedures=procedures).replace(
        "end:\n", "functions:\n  named:\n    params: [c, m]\n    value: c.name == m\nend:\n")
    found = [(p.span.line, p.span.column, p.message, p.hint) for p in validate_text(text, "inline.yaml")
             if p.severity == "error"]
    assert found == [
        (*tiny.line_of(text, '"Aple"'), "no card is named 'Aple' (passed to procedure 'has' as 'n', compared with a "
         "card's name)", "did you mean 'Apple'?"),
        (*tiny.line_of(text, '"bena"'), "unknown card type 'bena' (set to 't' by 'let', compared with a card's type)",
         "did you mean 'bean'?"),
        (*tiny.line_of(text, '"Gold Cion"'), "no card is named 'Gold Cion' (passed to function 'named' as 'm', "
         "compared with a card's name)", "did you mean 'Gold Coin'?"),
    ]


def test_a_local_named_like_a_game_variable_is_a_load_error(tiny):
    """'let x = 7' where x is a game variable is refused at its line: reading x would give the game variable."""
    with pytest.raises(rulecore.CardsetError) as info:
        tiny.cardset('let x = 7\nsay "" + x')
    (problem,) = info.value.problems
    assert problem.message == "'x' is a game variable and cannot name a local variable"
    assert problem.hint == "pick another name, or 'set x to ...' to change the game variable"
