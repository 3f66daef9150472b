"""Loading cardsets: built-ins, paths, and every kind of bad data reported as located problems.

Cardsets are written inline as YAML strings and loaded with
``rulecore.cardset.loader.load_cardset_text(text, "inline.yaml")``; each error test checks the message,
the file:line:column of the mistake inside the YAML file, the caret line and the hint.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulecore
from rulecore.cardset.cache import ParseCache
from rulecore.cardset.loader import load_cardset_text

FILE = "inline.yaml"


def problems_of(text: str) -> list[rulecore.Problem]:
    """The problems of a cardset text that must fail to load."""
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text(text, FILE)
    return info.value.problems


def one_problem(text: str) -> rulecore.Problem:
    found = problems_of(text)
    assert len(found) == 1, [p.render() for p in found]
    return found[0]


def at(problem: rulecore.Problem) -> tuple[int, int]:
    return problem.span.line, problem.span.column


# --------------------------------------------------------------------------- built-ins and paths


@pytest.mark.parametrize("name", rulecore.builtin_cardsets())
def test_every_builtin_cardset_loads(name):
    """Each built-in cardset loads by name without problems and describes its table."""
    cs = rulecore.load_cardset(name)
    assert cs.name == name
    assert 1 <= cs.min_players <= cs.max_players
    assert cs.cards and cs.zones
    assert cs.start_zone in cs.zones
    for spec in cs.options.values():
        assert spec.choices is None or spec.default in spec.choices


def test_witching_hour_is_builtin():
    """The Witching Hour ships as a built-in cardset."""
    assert "witching-hour" in rulecore.builtin_cardsets()
    cs = rulecore.load_cardset("witching-hour")
    assert (cs.min_players, cs.max_players) == (2, 5)


def test_unknown_builtin_name_gets_a_guess():
    """An unknown built-in name raises CardsetError with the closest name."""
    with pytest.raises(rulecore.CardsetError) as info:
        rulecore.load_cardset("witchin-hour")
    (p,) = info.value.problems
    assert p.message == "unknown cardset 'witchin-hour'"
    assert p.hint == "did you mean 'witching-hour'?"


def test_load_by_file_path_and_folder(tmp_path: Path, tiny):
    """A path to a YAML file, or to a folder holding cardset.yaml, loads that file."""
    folder = tmp_path / "mine"
    folder.mkdir()
    path = folder / "cardset.yaml"
    path.write_text(tiny.text("say 1"), encoding="utf-8")
    assert rulecore.load_cardset(str(path)).name == "tiny"
    assert rulecore.load_cardset(path).file == str(path)
    assert rulecore.load_cardset(str(folder)).name == "tiny"


def test_problems_name_the_real_file(tmp_path: Path, tiny):
    """Problems in a cardset loaded from a path carry that path."""
    path = tmp_path / "bad.yaml"
    path.write_text(tiny.text("move top(deck) to discrad"), encoding="utf-8")
    with pytest.raises(rulecore.CardsetError) as info:
        rulecore.load_cardset(str(path))
    assert info.value.problems[0].span.file == str(path)
    assert str(info.value).count(f"{path}:") == 1


def test_missing_file_is_a_cardset_error(tmp_path: Path):
    """A path that does not exist raises CardsetError, not OSError."""
    with pytest.raises(rulecore.CardsetError, match="no such cardset file"):
        rulecore.load_cardset(str(tmp_path / "nope.yaml"))


def test_include_adds_sections_from_other_files(tmp_path: Path, tiny):
    """'include:' adds cards, procedures, functions, ... from files next to the cardset."""
    (tmp_path / "more.yaml").write_text(
        "cards:\n  drum: {count: 2}\nprocedures:\n  beat: say count(deck)\nfunctions:\n  twice:\n"
        "    params: [n]\n    value: n * 2\n",
        encoding="utf-8",
    )
    main = tmp_path / "cardset.yaml"
    main.write_text("include: [more.yaml]\n" + tiny.text("call beat\nsay twice(4)"), encoding="utf-8")
    cs = rulecore.load_cardset(str(main))
    assert cs.cards["drum"].count == 2
    s = rulecore.Game(cs, 2).new_game(0)
    assert [e["text"] for e in s.events() if e["type"] == "say"] == ["8", "8"]


def test_problems_in_an_included_file_point_into_it(tmp_path: Path, tiny):
    """A mistake in an included file is located in that file, at its line and column."""
    more = tmp_path / "more.yaml"
    more_text = "procedures:\n  beat: |\n    say 1\n    move top(deck) to discrad\n"
    more.write_text(more_text, encoding="utf-8")
    main = tmp_path / "cardset.yaml"
    main.write_text("include: [more.yaml]\n" + tiny.text("call beat"), encoding="utf-8")
    with pytest.raises(rulecore.CardsetError) as info:
        rulecore.load_cardset(str(main))
    (p,) = info.value.problems
    assert p.span.file == str(more)
    assert at(p) == tiny.line_of(more_text, "discrad")
    assert p.hint == "did you mean 'discard'?"


def test_include_problems(tmp_path: Path, tiny):
    """A missing included file, a section that cannot be included, and a name defined twice are reported."""
    (tmp_path / "bad.yaml").write_text("flow: {}\ncards:\n  apple: {count: 1}\n", encoding="utf-8")
    main = tmp_path / "cardset.yaml"
    main.write_text("include: [bad.yaml, nowhere.yaml]\n" + tiny.text("say 1"), encoding="utf-8")
    with pytest.raises(rulecore.CardsetError) as info:
        rulecore.load_cardset(str(main))
    messages = [p.message for p in info.value.problems]
    assert "'flow' cannot be in an included file" in messages
    assert "'apple' under 'cards' is defined twice" in messages
    assert any(m.startswith("cannot read included file 'nowhere.yaml'") for m in messages)


def test_include_if_removes_cards_by_player_count():
    """A card with include_if is only in games where the condition holds (Witching Hour's Book needs 3+)."""
    cs = rulecore.load_cardset("witching-hour")
    two = rulecore.Game(cs, 2).rules.instance_type
    three = rulecore.Game(cs, 3).rules.instance_type
    assert "book" not in two and three.count("book") == cs.cards["book"].count
    assert len(three) - len(two) == cs.cards["book"].count


def test_card_defaults(tiny):
    """A card's display name defaults to its id capitalised; props, tags and scoring are kept."""
    cs = tiny.cardset("say 1")
    assert cs.cards["apple"].name == "Apple"
    assert cs.cards["coin"].name == "Gold Coin"
    assert cs.cards["apple"].tags == ("red", "fruit")
    assert cs.cards["apple"].props == {"power": 2, "sweet": True}
    assert cs.cards["bean"].scoring == (2, 5)
    assert set(cs.cards["coin"].abilities) == {"play", "grab"}


# --------------------------------------------------------------------------- YAML and schema


def test_yaml_syntax_error_is_located(tiny):
    """Broken YAML is one problem with the line, a caret and a hint."""
    text = tiny.text("say 1").replace("  bean: {count: 2,", "  bean: {count: 2")
    p = one_problem(text.replace("scoring: [2, 5]}", "scoring: [2, 5]"))
    assert p.message.startswith("YAML syntax error")
    assert p.code == "yaml-syntax"
    assert p.span.file == FILE and p.span.line > 0 and p.hint


def test_empty_file_and_non_mapping():
    """An empty file or a YAML list is reported as 'must be a mapping'."""
    assert "must be a mapping" in one_problem("").message
    p = one_problem("- a\n- b\n")
    assert "must be a mapping" in p.message and at(p) == (1, 1)


def test_a_misspelt_required_key_is_reported_once_as_a_guess(tiny):
    """'cuont' in card 'bean' is one problem: the unknown key (at the key) and 'count' as the guess, not also a missing 'count'."""
    text = tiny.text("say 1").replace("  bean: {count: 2,", "  bean: {cuont: 2,")
    unknown = one_problem(text)
    assert unknown.message == "unknown key 'cuont' in card 'bean'"
    assert unknown.hint == "did you mean 'count'?"
    assert at(unknown) == tiny.line_of(text, "cuont")
    assert unknown.code == "unknown-key"


@pytest.mark.parametrize("before, after, message, hint", [
    ("players: {min: 2, max: 4}", "player: {min: 2, max: 4}", "unknown key 'player' in the cardset",
     "did you mean 'players'?"),
    ("    - name: main\n      do: |", "    - name: main\n      doo: |", "unknown key 'doo' in phase 'main'",
     "did you mean 'do'?"),
])
def test_a_misspelt_required_key_anywhere_is_one_problem(tiny, before, after, message, hint):
    """At the top level and in a phase too, a required key written misspelt is only the unknown key with its guess."""
    text = tiny.text("say 1")
    assert before in text
    p = one_problem(text.replace(before, after))
    assert (p.message, p.hint, p.code) == (message, hint, "unknown-key")


def test_an_unknown_key_that_is_no_missing_key_leaves_both_problems(tiny):
    """'colour' is not 'count' misspelt: the unknown key and the missing 'count' are both reported."""
    text = tiny.text("say 1").replace("  bean: {count: 2,", "  bean: {colour: 2,")
    assert sorted(p.message for p in problems_of(text)) == [
        "card 'bean' is missing the required key 'count'", "unknown key 'colour' in card 'bean'"]


def test_count_must_be_an_integer(tiny):
    """"'count' must be an integer (got 'three')", located at the value."""
    text = tiny.text("say 1").replace("  bean: {count: 2,", "  bean: {count: three,")
    p = one_problem(text)
    assert p.message == "'count' must be an integer (got 'three')"
    assert at(p) == tiny.line_of(text, "three")
    assert p.code == "type"


def test_count_must_not_be_negative(tiny):
    """A negative count is a range problem at the value."""
    text = tiny.text("say 1").replace("  bean: {count: 2,", "  bean: {count: -1,")
    p = one_problem(text)
    assert p.message == "'count' must be at least 0 (got -1)"
    assert at(p) == tiny.line_of(text, "-1")


def test_enum_value_suggests_the_right_one(tiny):
    """A misspelt visibility lists the choices and suggests the closest."""
    text = tiny.text("say 1").replace("table: {owner: none, visibility: everyone}", "table: {owner: none, visibility: evryone}")
    p = one_problem(text)
    assert p.message == "'visibility' must be one of 'owner', 'everyone', 'nobody' (got 'evryone')"
    assert p.hint == "did you mean 'everyone'?"
    assert at(p) == tiny.line_of(text, "evryone")


def test_missing_required_top_level_key(tiny):
    """A cardset without 'name' says which required key is missing."""
    p = one_problem(tiny.text("say 1").replace("name: tiny\n", ""))
    assert p.message == "the cardset is missing the required key 'name'"


def test_invalid_name_is_reported(tiny):
    """A zone name with capitals is not a valid name, with a hint about the allowed letters."""
    text = tiny.text("say 1").replace("  table:", "  Table:")
    p = one_problem(text)
    assert p.message == "'Table' is not a valid name"
    assert "lower case" in p.hint


def test_invalid_name_is_located_at_the_name(tiny):
    """An invalid zone name is reported at the line and column of that name."""
    text = tiny.text("say 1").replace("  table:", "  Table:")
    assert at(one_problem(text)) == tiny.line_of(text, "Table:")


def test_duplicate_key_is_reported_at_the_second_one(tiny):
    """A key written twice in one mapping is a problem at its second occurrence."""
    line = "  table: {owner: none, visibility: everyone}\n"
    text = tiny.text("say 1").replace(line, line + line)
    p = one_problem(text)
    assert p.message == "duplicate key 'table'"
    assert at(p) == tiny.line_of(text, "table:", nth=1)


def test_several_schema_problems_are_reported_at_once_in_file_order(tiny):
    """Every schema problem of the file is in one CardsetError, sorted by position."""
    text = (
        tiny.text("say 1")
        .replace("  bean: {count: 2,", "  bean: {count: two,")
        .replace("table: {owner: none, visibility: everyone}", "table: {owner: none, visibility: all}")
        .replace("  energy: {owner: player,", "  energy: {ownr: player, owner: player,")
    )
    found = problems_of(text)
    assert len(found) == 3
    assert [at(p) for p in found] == sorted(at(p) for p in found)
    assert str(rulecore.CardsetError(found)).startswith("3 problems in card data:\n")


# --------------------------------------------------------------------------- effect text positions


def test_effect_error_in_a_block_scalar_points_into_the_file(tiny):
    """An effect mistake inside a '|' block is located at its own line and column of the YAML file."""
    text = tiny.text("say 1\nmove top(deck) to discrad")
    p = one_problem(text)
    assert at(p) == tiny.line_of(text, "discrad")
    assert p.hint == "did you mean 'discard'?"
    assert p.span.card == "phase main"
    assert p.span.source_line.strip() == "move top(deck) to discrad"


def test_render_shows_location_caret_and_hint(tiny):
    """Problem.render gives 'file:line:col: message', the source line, a caret under the mistake and the hint."""
    text = tiny.text("say 1\nmove top(deck) to discrad")
    p = one_problem(text)
    line, col = tiny.line_of(text, "discrad")
    rendered = p.render().splitlines()
    assert rendered[0] == f"{FILE}:{line}:{col}: unknown name 'discrad' in the flow"
    assert rendered[1] == "    " + text.splitlines()[line - 1]
    assert rendered[2] == "    " + " " * (col - 1) + "^"
    assert rendered[3] == "  hint: did you mean 'discard'?"
    assert p.to_dict() == {
        "file": FILE, "line": line, "column": col, "card": "phase main", "code": "unknown-name",
        "message": "unknown name 'discrad' in the flow", "hint": "did you mean 'discard'?",
    }


@pytest.mark.parametrize(
    "value",
    [
        "move top(deck) to discrad",
        "'move top(deck) to discrad'",
        '"move top(deck) to discrad"',
        "say 1; move top(deck) to discrad",
    ],
)
def test_effect_error_in_an_inline_string_points_into_the_file(tiny, value):
    """Plain, single- and double-quoted one-line effect strings are located at the mistake's column."""
    text = tiny.text("say 1").replace("      do: |\n        say 1", "      do: " + value)
    p = one_problem(text)
    assert at(p) == tiny.line_of(text, "discrad")


@pytest.mark.parametrize(
    "do",
    [
        "|-\n        say 1\n        move top(deck) to discrad",
        "|\n\n        say 1\n\n        move top(deck) to discrad\n",
        "|\n        say 1\n        # a comment\n          move top(deck)\n            to discrad",
    ],
)
def test_effect_error_in_other_block_forms(tiny, do):
    """Strip indicators, blank lines, comments and deeper indentation inside '|' keep positions right."""
    text = tiny.text("say 1").replace("|\n        say 1", do)
    assert at(one_problem(text)) == tiny.line_of(text, "discrad")


def test_effect_error_with_windows_line_ends(tiny):
    """CRLF line ends do not shift reported positions."""
    text = tiny.text("say 1\nmove top(deck) to discrad")
    p = one_problem(text.replace("\n", "\r\n"))
    assert at(p) == tiny.line_of(text, "discrad")


@pytest.mark.parametrize(
    "do",
    [">\n        say 1\n        move top(deck) to discrad", "say 1\n        move top(deck) to discrad"],
    ids=["folded", "plain-multiline"],
)
def test_effect_error_in_folded_and_multiline_plain_strings(tiny, do):
    """Effect text in a folded '>' block or a multi-line plain scalar is located at the right line and column."""
    text = tiny.text("say 1").replace("|\n        say 1", do)
    assert at(one_problem(text)) == tiny.line_of(text, "discrad")


@pytest.mark.parametrize(
    "do",
    ['"say \\"a\\"; move top(deck) to discrad"', "|2\n          say 1\n          move top(deck) to discrad"],
    ids=["double-quoted-escapes", "indentation-indicator"],
)
def test_effect_error_in_escaped_and_indicator_strings(tiny, do):
    """Effect text in escaped double-quoted or indicator-indented scalars is located exactly."""
    text = tiny.text("say 1").replace("|\n        say 1", do)
    assert at(one_problem(text)) == tiny.line_of(text, "discrad")


def test_effect_error_in_an_ability_names_the_card(tiny):
    """A mistake in a card's ability names the card and points at its line in the file."""
    text = tiny.text("say 1").replace('say "played " + this.name', "move this to tabel")
    p = one_problem(text)
    assert at(p) == tiny.line_of(text, "tabel")
    assert p.span.card == "Gold Coin"
    assert p.hint == "did you mean 'table'?"


def test_expression_fields_are_located(tiny):
    """Mistakes in 'when:' and 'end.winners' expressions are located inside those fields."""
    text = tiny.text("say 1").replace("when: count(hand of you) > 0", "when: count(hand of yuo) > 0")
    assert at(one_problem(text)) == tiny.line_of(text, "yuo")
    text = tiny.text("say 1").replace("winners: players", 'winners: "lowest(players, scroe of it)"')
    p = one_problem(text)
    assert at(p) == tiny.line_of(text, "scroe")
    assert p.hint == "did you mean 'score'?"


def test_syntax_error_in_effect_text_is_located_with_a_hint(tiny):
    """A syntax error in effect text is located in the file with a caret and a hint."""
    text = tiny.text("say 1\nsay 'hi'")
    p = one_problem(text)
    assert p.message == "unexpected character \"'\" in effect text"
    assert p.hint == "text must be in double quotes"
    assert at(p) == tiny.line_of(text, "'hi'")


def test_several_effect_problems_are_reported_at_once(tiny):
    """Name problems in different effects (flow, ability, winners) are all in one CardsetError, in file order."""
    text = (
        tiny.text("move top(deck) to discrad")
        .replace('say "played " + this.name', "move this to tabel")
        .replace("winners: players", "winners: playres")
    )
    found = problems_of(text)
    assert [p.message for p in found] == [
        "unknown name 'tabel' in Gold Coin's 'play'",
        "unknown name 'discrad' in the flow",
        "unknown name 'playres' in end.winners",
    ]
    assert [at(p) for p in found] == [
        tiny.line_of(text, "tabel"), tiny.line_of(text, "discrad"), tiny.line_of(text, "playres")
    ]


def test_several_syntax_problems_are_reported_at_once(tiny):
    """Syntax and parse-level problems in different effects are all reported together."""
    text = (
        tiny.text("say 'x'")
        .replace('say "played " + this.name', "say cuont(table)")
        .replace("when: count(hand of you) > 0", "when: count(hand) > 0")
    )
    found = problems_of(text)
    assert [p.code for p in found] == ["unknown-name", "effect", "effect-syntax"]
    assert [at(p) for p in found] == [
        tiny.line_of(text, "cuont"), tiny.line_of(text, "hand)"), tiny.line_of(text, "'x'")
    ]


# --------------------------------------------------------------------------- meaning checks


@pytest.mark.parametrize(
    "body, message, hint",
    [
        ("break", "'break' outside a loop", "use it inside for each, while or repeat"),
        ("call atack", "unknown procedure 'atack'", "did you mean 'attack'?"),
        ("call attack(1, 2)", "procedure 'attack' takes 1 argument(s) (who), got 2", None),
        ('for each c in deck { use "pley" of c }', "no card has an ability 'pley'", "did you mean 'play'?"),
        ("say this", "'this' is only known inside a card's ability", None),
        ("say it", "'it' is only known inside a 'where' condition or a per-item function", None),
        ("move top(deck) to 3", "'move ... to' needs a zone here, got a number", None),
        ("shuffle you", "'shuffle' needs a zone here, got the player value 'you'", None),
        ("let p = choose player from deck by 0", "'choose player' needs players, got the zone 'deck'", None),
        ("let c = choose card from players by 0", "'choose card' needs cards, got the players 'players'", None),
        ("for each c in deck { say c.powr }", "cards have no property 'powr'", "did you mean 'power'?"),
        ('say count(deck where it.type == "aple")', "unknown card type 'aple'", "did you mean 'apple'?"),
        ('say count(deck where "fruti" in it.tags)', "unknown tag 'fruti'", "did you mean 'fruit'?"),
        ("say undefined_thing", "unknown name 'undefined_thing' in the flow", None),
    ],
)
def test_meaning_checks(tiny, body, message, hint):
    """Names, kinds and scopes are checked at load, with a located message and a hint."""
    text = tiny.text(body, procedures="attack:\n  params: [who]\n  do: say who\n")
    p = one_problem(text)
    assert p.message == message
    if hint is not None:
        assert p.hint == hint
    assert p.span.file == FILE and p.span.line > 0


def test_setup_zone_must_exist_and_be_shared(tiny):
    """setup.cards_in must name a shared zone."""
    p = one_problem(tiny.text("say 1").replace("cards_in: deck", "cards_in: dekc"))
    assert p.message == "unknown zone 'dekc'" and p.hint == "did you mean 'deck'?"
    p = one_problem(tiny.text("say 1").replace("cards_in: deck", "cards_in: hand"))
    assert "must start in a shared zone" in p.message


def test_zone_definitions_are_checked(tiny):
    """A player zone with slots, or a shared zone visible to its 'owner', is reported."""
    text = tiny.text("say 1").replace("hand: {owner: player, visibility: owner}",
                                      "hand: {owner: player, visibility: owner, slots: 2}")
    assert any("cannot also have slots" in p.message for p in problems_of(text))
    text = tiny.text("say 1").replace("table: {owner: none, visibility: everyone}", "table: {owner: none, visibility: owner}")
    p = one_problem(text)
    assert p.message == "shared zone 'table' has no owner to be visible to"
    assert at(p) == tiny.line_of(text, "owner}")


def test_list_valued_props(tiny):
    """A card prop may be a list of texts or numbers."""
    text = tiny.text("say count(first(deck).colours)").replace("props: {power: 2, sweet: true}",
                                                             "props: {power: 2, sweet: true, colours: [red, 2]}")
    from rulecore.cardset.loader import load_cardset_text

    s = rulecore.Game(load_cardset_text(text, FILE), 2).new_game(0)
    assert [e["text"] for e in s.events() if e["type"] == "say"] == ["2"]


def test_missing_setup_says_where_cards_start(tiny):
    """A cardset without setup is told to add 'setup: {cards_in: ...}'."""
    p = one_problem(tiny.text("say 1").replace("setup:\n  cards_in: deck\n", ""))
    assert p.message == "the cardset does not say where the cards start"
    assert "cards_in" in p.hint


def test_end_totals_must_be_a_per_player_counter(tiny):
    """end.totals must name a per-player counter."""
    p = one_problem(tiny.text("say 1", winners="players\n  totals: scroe"))
    assert p.message == "unknown counter 'scroe'" and p.hint == "did you mean 'score'?"
    p = one_problem(tiny.text("say 1", winners="players\n  totals: pool"))
    assert p.message == "'pool' must be a per-player counter"


def test_players_min_above_max(tiny):
    """players.min above players.max is reported."""
    p = one_problem(tiny.text("say 1").replace("players: {min: 2, max: 4}", "players: {min: 5, max: 4}"))
    assert p.message == "players min (5) is above max (4)"


def test_option_default_must_be_a_choice(tiny):
    """An option whose default is not among its choices is reported at the default."""
    text = tiny.text("say 1").replace("speed: {default: 2,", "speed: {default: 7,")
    p = one_problem(text)
    assert p.message == "default 7 is not among the choices"
    assert at(p) == tiny.line_of(text, "7")


def test_reserved_words_cannot_name_things(tiny):
    """A zone named like a keyword or a built-in is rejected."""
    text = tiny.text("say 1").replace("  table: {", "  move: {").replace("  pile: {", "  you: {")
    found = problems_of(text)
    assert [p.message for p in found] == [
        "'move' is a reserved word of the effect language",
        "'you' is a reserved word of the effect language",
    ]


def test_one_name_one_meaning(tiny):
    """A name declared both as a zone and as a game variable is reported."""
    text = tiny.text("say 1").replace("  word: hello", "  word: hello\n  table: 3")
    messages = [p.message for p in problems_of(text)]
    assert "'table' is declared as both zone and var" in messages


def test_flow_needs_exactly_one_of_rounds_and_phases(tiny):
    """A flow with both 'rounds' and 'phases' (or neither) is reported."""
    text = tiny.text("say 1").replace(
        "flow:\n", "flow:\n  rounds:\n    until: true\n    phases:\n      - name: r\n        do: say 2\n"
    )
    assert any("both 'rounds' and 'phases'" in p.message for p in problems_of(text))


def test_duplicate_phase_name(tiny):
    """Two phases with the same name are reported."""
    text = tiny.text("say 1").replace("    - name: main\n", "    - name: main\n      do: say 0\n    - name: main\n", 1)
    assert any(p.message == "duplicate phase 'main'" for p in problems_of(text))


# --------------------------------------------------------------------------- game options and players


def test_player_count_outside_the_range_is_an_option_error(tiny):
    """Game() with too few or too many players (or not an int) raises OptionError naming the range."""
    cs = tiny.cardset("say 1")
    for bad in (1, 5, "3", True, None):
        with pytest.raises(rulecore.OptionError, match=r"'tiny' is for 2 to 4 players"):
            rulecore.Game(cs, bad)


def test_game_needs_a_loaded_cardset():
    """Game() with something that is not a Cardset raises OptionError."""
    with pytest.raises(rulecore.OptionError, match="needs a loaded cardset"):
        rulecore.Game("witching-hour", 3)  # type: ignore[arg-type]


def test_options_get_their_defaults(tiny):
    """Options not given take their defaults."""
    g = tiny.game("say 1", options={"speed": 3})
    assert g.options == {"speed": 3, "mode": "easy", "fast": False, "bonus": 3}
    assert tiny.cardset("say 1").options["speed"].choices == (1, 2, 3)


def test_unknown_option_gets_a_guess(tiny):
    """An unknown option name raises OptionError with the closest option."""
    with pytest.raises(rulecore.OptionError, match=r"'tiny' has no option 'sped' -- did you mean 'speed'\?"):
        tiny.game("say 1", options={"sped": 1})


def test_option_value_must_be_a_choice(tiny):
    """A value outside the option's choices raises OptionError listing them."""
    with pytest.raises(rulecore.OptionError, match=r"option 'speed' must be one of 1, 2, 3 \(got 9\)"):
        tiny.game("say 1", options={"speed": 9})
    with pytest.raises(rulecore.OptionError, match=r"option 'mode' must be one of 'easy', 'hard'"):
        tiny.game("say 1", options={"mode": "medium"})


def test_option_text_values_are_converted(tiny):
    """Text values are converted for number and truth-value options (as from a command line)."""
    g = tiny.game("say 1", options={"speed": "3", "bonus": "12", "fast": "true"})
    assert g.options["speed"] == 3 and g.options["bonus"] == 12 and g.options["fast"] is True
    assert tiny.game("say 1", options={"fast": "no"}).options["fast"] is False


def test_option_text_that_is_not_a_number_is_an_option_error(tiny):
    """'five' for a number option, or 'maybe' for a truth-value option, raises OptionError."""
    with pytest.raises(rulecore.OptionError, match=r"option 'bonus' must be an integer \(got 'five'\)"):
        tiny.game("say 1", options={"bonus": "five"})
    with pytest.raises(rulecore.OptionError, match=r"option 'fast' must be true or false \(got 'maybe'\)"):
        tiny.game("say 1", options={"fast": "maybe"})


def test_seed_must_be_an_integer(tiny):
    """new_game() with a seed that is not an int raises OptionError."""
    g = tiny.game("say 1")
    for bad in ("7", 1.5, None):
        with pytest.raises(rulecore.OptionError, match="'seed' must be a whole number of at most 64 bits"):
            g.new_game(bad)  # type: ignore[arg-type]


def test_all_errors_share_one_base():
    """Every rulecore error is a RulecoreError."""
    for cls in (rulecore.CardsetError, rulecore.OptionError, rulecore.IllegalActionError,
                rulecore.RuleError, rulecore.StateError):
        assert issubclass(cls, rulecore.RulecoreError)


def test_a_cache_returns_a_kept_cardset_until_one_of_its_files_changes(tmp_path: Path, tiny):
    """load_cardset(cache=) gives the same cardset again while its files (included ones too) read the same."""
    (tmp_path / "more.yaml").write_text("procedures:\n  beat: say 1\n", encoding="utf-8")
    main = tmp_path / "main.yaml"
    main.write_text("include: [more.yaml]\n" + tiny.text("call beat"), encoding="utf-8")
    cache = ParseCache()
    first = rulecore.load_cardset(str(main), cache=cache)
    assert rulecore.load_cardset(str(main), cache=cache) is first
    (tmp_path / "more.yaml").write_text("procedures:\n  beat: say 2\n", encoding="utf-8")
    second = rulecore.load_cardset(str(main), cache=cache)
    assert second is not first
    assert rulecore.load_cardset(str(main), cache=cache) is second
    assert rulecore.load_cardset(str(main), cache=False) is not second  # cache=False: always read anew


def test_a_cache_sees_a_change_to_an_included_file_whose_entries_a_variant_removed(tmp_path: Path):
    """Every file read counts for the cache, even one whose entries all were removed: a card added there shows."""
    base = (Path(rulecore.__file__).resolve().parent.parent / "docs/examples/tiny-game.yaml").read_text(encoding="utf-8")
    (tmp_path / "part.yaml").write_text("cards:\n  extra: {count: 1}\n", encoding="utf-8")
    (tmp_path / "base.yaml").write_text("include: [part.yaml]\n" + base, encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: base.yaml\nremove: {cards: [extra]}\n", encoding="utf-8")
    cache = ParseCache()
    first = rulecore.load_cardset(str(variant), cache=cache)
    (tmp_path / "part.yaml").write_text("cards:\n  extra: {count: 1}\n  more: {count: 1}\n", encoding="utf-8")
    second = rulecore.load_cardset(str(variant), cache=cache)
    assert "more" not in first.cards and "more" in second.cards

