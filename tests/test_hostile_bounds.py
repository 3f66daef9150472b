"""Strangers' cardsets that try to exhaust time, memory or Python itself (issue 25, items 1, 2, 4 and
the built-ins' messages of item 5): every one ends in a located RuleError or a located load problem."""

from __future__ import annotations

import tracemalloc

import pytest

import rulecore
from rulecore.cardset.loader import load_cardset_text
from rulecore.cli.validate import validate_file
from rulecore.engine.codegen.calls import CallWriter
from rulecore.engine.codegen.expressions import ExpressionWriter

from bounds_cases import (
    PYTHON_WORDS, chain_cards, elifs, many_cards, nested_ands, nested_ifs, nested_loops, nested_sum, nested_where,
    user_functions,
)


@pytest.fixture(params=["generated", "closures"])
def way(request, monkeypatch) -> str:
    """Each case runs twice: as generated code, and with the writer's expression methods removed
    (so that wheres, calls and user functions run as the interpreter's closures)."""
    if request.param == "closures":
        for writer, name in ((ExpressionWriter, "g_Where"), (CallWriter, "g_Call"), (ExpressionWriter, "g_UserCall")):
            monkeypatch.delattr(writer, name)
    return request.param


def stopped(make, limit: int = 20_000) -> rulecore.RuleError:
    """The RuleError of ``make(step_limit)``: a game made and started, at that step budget."""
    with pytest.raises(rulecore.RuleError) as err:
        make(limit)
    return err.value


def assert_budget(err: rulecore.RuleError, limit: int = 20_000) -> None:
    assert f"ran more than {limit:,} steps" in str(err), str(err)
    assert err.span is not None and err.span.line > 0 and err.span.file == "inline.yaml"


# --------------------------------------------------------------------------- item 1: work is counted


def test_sums_nested_30_deep_stop_at_the_step_limit(tiny, way) -> None:
    """sum(players, sum(players, ...)) 30 deep (2^30 values) ends with a located RuleError at step_limit."""
    cs = tiny.cardset(f"say {nested_sum(30)}")
    assert_budget(stopped(lambda limit: rulecore.Game(cs, 2, step_limit=limit).new_game(0)))


def test_functions_calling_each_other_twice_24_deep_stop_at_the_step_limit(tiny, way) -> None:
    """f_i = f_{i+1}() + f_{i+1}(), 24 deep (16M calls): every call is a step."""
    cs = load_cardset_text(tiny.text("say f0()") + user_functions(24), "inline.yaml")
    assert_budget(stopped(lambda limit: rulecore.Game(cs, 2, step_limit=limit).new_game(0)))


def test_wheres_nested_3_deep_over_3000_cards_stop_at_the_step_limit(tiny, way) -> None:
    """A where inside a where inside a where over 3,000 cards (2.7e10 visits): every item is a step."""
    cs = tiny.cardset(f"say count({nested_where(3)})", cards=many_cards(3000))
    assert_budget(stopped(lambda limit: rulecore.Game(cs, 2, step_limit=limit).new_game(0)))


def test_per_item_functions_count_their_items(tiny, way) -> None:
    """lowest/sorted/any over 3,000 cards inside a where over them: stopped by the budget."""
    for inner in ("count(lowest(deck, it.power))", "count(sorted(deck, it.power))", "if_else(any(deck, it == 1), 1, 0)"):
        cs = tiny.cardset(f"say count(deck where {inner} > 0)", cards=many_cards(3000))
        assert_budget(stopped(lambda limit: rulecore.Game(cs, 2, step_limit=limit).new_game(0)))


def test_include_if_is_bounded_when_the_game_is_made(tiny, way) -> None:
    """An include_if that nests sums 30 deep: Game() ends with a RuleError naming the card."""
    cs = tiny.cardset("say 1", cards=f"big: {{count: 1, include_if: '{nested_sum(30)} > 0'}}")
    err = stopped(lambda limit: rulecore.Game(cs, 2, step_limit=limit))
    assert_budget(err)
    assert err.span.card == "Big"


def test_winners_are_bounded(tiny, way) -> None:
    """end.winners that nests sums 30 deep: new_game ends with a located RuleError."""
    cs = tiny.cardset("say 1", winners=f"players where {nested_sum(30)} > 0")
    assert_budget(stopped(lambda limit: rulecore.Game(cs, 2, step_limit=limit).new_game(0)))


def test_menu_labels_are_bounded(tiny, way) -> None:
    """A menu whose labels nest sums 30 deep stops while the menu is asked."""
    body = f'choose by 0 "Pick" {{ option each c in top(deck, 2) label "x" + {nested_sum(30)} {{ say c }} }}'
    cs = tiny.cardset(body)
    assert_budget(stopped(lambda limit: rulecore.Game(cs, 2, step_limit=limit).new_game(0)))


def test_the_heuristic_is_bounded_and_gets_a_budget_of_its_own(tiny, way) -> None:
    """heuristic() runs with a fresh step budget: a cheap one works after a long run, a runaway one stops."""
    text = tiny.text("repeat 15000 { let y = 1 }") + "heuristic: count(deck)\n"
    state = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2, step_limit=20_000).new_game(0)
    assert state.heuristic(0) == 6.0
    text = tiny.text("say 1", cards=many_cards(3000)) + f"heuristic: count({nested_where(3)})\n"
    state = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2, step_limit=20_000).new_game(0)
    assert_budget(stopped(lambda limit: state.heuristic(0)))


def test_validate_reports_a_runaway_heuristic_instead_of_hanging(tiny, tmp_path) -> None:
    """validate's trial game works the heuristic out: a runaway one is a 'heuristic' problem."""
    text = tiny.text("say 1").replace("max: 4", "max: 2") + f"heuristic: count({nested_where(3)})\n"
    text = text.replace("cards:\n", "cards:\n" + many_cards(3000, indent="  ") + "\n", 1)
    path = tmp_path / "runaway.yaml"
    path.write_text(text, encoding="utf-8")
    problems = [p for p in validate_file(path).problems if p.code == "heuristic"]
    assert len(problems) == 1 and "ran more than 1,000,000 steps" in problems[0].message


def test_chain_over_10000_cards_is_refused_before_it_builds_anything(tiny, way) -> None:
    """chain() over 10,000 cards would compare 10^8 pairs: a RuleError, without building the pairs."""
    cs = tiny.cardset('say count(chain(deck, none, 1, "g"))', cards=chain_cards(10_000))
    game = rulecore.Game(cs, 2)
    tracemalloc.start()
    try:
        with pytest.raises(rulecore.RuleError, match=r"chain\(\): the effects ran more than 1,000,000 steps"):
            game.new_game(0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50_000_000


def test_legal_games_take_the_same_course_under_counting(tiny) -> None:
    """A where, a sum and calls well within the budget give their values as before."""
    text = tiny.text("say count(deck where it.power > 2)\nsay sum(deck, it.power)\nsay twice(3)")
    text += "functions:\n  twice:\n    params: [n]\n    value: n + n\n"
    state = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2).new_game(0)
    assert tiny.says(state) == ["3", "25", "6"]


# --------------------------------------------------------------------------- item 2: sizes in bytes


FAMILY = """families:
  f:
    each:
      p0: [a, b]
    id: "@id@"
    name: "@name@"
"""


@pytest.mark.parametrize("key, template", [
    ("name", "{p0:>1000000000}"), ("id", "x{p0:0>500000000}"), ("name", "{p0!r}{p0:{p0}}"), ("name", "{p0.real}"),
    ("name", "{p0[0]}"), ("id", "{0}"), ("id", "{}"),
])
def test_a_family_template_takes_only_property_names(tiny, key: str, template: str) -> None:
    """families: templates fill in {property} only: a format spec, conversion, index or nested field is
    a located load problem with a hint, refused before anything is built."""
    fields = {"id": "f_{p0}", "name": "F {p0}", key: template}
    text = tiny.text("say 1") + FAMILY.replace("@id@", fields["id"]).replace("@name@", fields["name"])
    tracemalloc.start()
    try:
        with pytest.raises(rulecore.CardsetError) as err:
            load_cardset_text(text, "inline.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    problems = [p for p in err.value.problems if p.code == "template"]
    assert len(problems) == 1 and problems[0].span.line > 0 and "takes only {property}" in problems[0].message
    assert "{property}" in problems[0].hint and peak < 50_000_000


def test_a_family_template_with_properties_fills_them_in(tiny) -> None:
    """{property} and {{ }} still work as before."""
    text = tiny.text("say 1") + FAMILY.replace("@id@", "f_{p0}").replace("@name@", "F {{{p0}}} {family}")
    cs = load_cardset_text(text, "inline.yaml")
    assert cs.cards["f_a"].name == "F {a} f"


def test_texts_said_are_bounded_in_bytes(tiny, way) -> None:
    """3,000 'say' of distinct 512K texts would keep 1.5 GB in the log: a text said is at most 10,000
    bytes (counted in UTF-8: 4,096 four-byte characters are 16,384 bytes), a located RuleError past it."""
    body = 'let s = "ab"\nrepeat 18 { let s = s + s }\nrepeat 3000 { say s + round }'
    with pytest.raises(rulecore.RuleError, match="a text said is at most 10,000 bytes") as err:
        tiny.run(body)
    assert err.value.span is not None and err.value.span.line > 0
    with pytest.raises(rulecore.RuleError, match="16,384 bytes"):
        tiny.run('let s = "\U0001F600"\nrepeat 12 { let s = s + s }\nsay s')
    assert tiny.says(tiny.run('let s = "ab"\nrepeat 12 { let s = s + s }\nsay s'))[0] == "ab" * 4096


@pytest.mark.parametrize("target", ["card c", "player 0"])
def test_marks_are_bounded_in_bytes_and_number(tiny, way, target: str) -> None:
    """A mark is at most 200 bytes and a card or player holds at most 32 marks (512K marks on every card
    took 1.3 GB): a located RuleError; the same mark again, or after an unmark, is fine."""
    pre = "let c = first(deck)\n"
    with pytest.raises(rulecore.RuleError, match="a mark is at most 200 bytes") as err:
        tiny.run(pre + f'let s = "ab"\nrepeat 7 {{ let s = s + s }}\nmark {target} as s')
    assert err.value.span is not None and err.value.span.line > 0
    with pytest.raises(rulecore.RuleError, match="holds at most 32 marks"):
        tiny.run(pre + f'let i = 0\nwhile i < 1000 {{ mark {target} as "m" + i\nlet i = i + 1 }}')
    state = tiny.run(pre + f'let i = 0\nwhile i < 1000 {{ mark {target} as "m" + i\nmark {target} as "m" + i\n'
                     f'unmark {target} as "m" + i\nlet i = i + 1 }}\nsay 1')
    assert tiny.says(state)[-1] == "1"


# --------------------------------------------------------------------------- item 4: Python's own limits


DEEP = {  # the effect text, and what it says last
    "21 loops": (nested_loops(21), "1"), "60 loops": (nested_loops(60), "1"), "98 ifs": (nested_ifs(98), "1"),
    "97 elifs": (elifs(97), "1"), "99-deep and": (f"say {nested_ands(99)}", "true"),
    "99-deep or": (f"say {nested_ands(99, 'or')}", "true"),
    "where 25 deep in 15 loops": (nested_loops(15).replace(
        "say 1", f"say count({nested_where(25).replace('deck', 'top(deck, 1)')})"), "0"),
    "98 ifs around a choice": (nested_ifs(98).replace("say 1", 'let c = choose card from deck by 0 "Pick"\nsay 1'), "1"),
}


@pytest.mark.parametrize("name", list(DEEP))
def test_effects_nested_deeper_than_python_allows_run(tiny, way, name: str) -> None:
    """Loops, ifs, elifs and and/or nested past Python's limits (20 blocks, 100 indentation levels)
    run as the interpreter's frames and closures where generated code would not compile: same result."""
    body, said = DEEP[name]
    state = tiny.game(body).new_game(0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert tiny.says(state)[-1] == said


def test_usable_leading_back_to_itself_in_winners_is_a_rule_error(tiny, way) -> None:
    """usable() -> when -> function -> usable() in end.winners: a located RuleError, not RecursionError."""
    cards = 'loop:\n  count: 1\n  abilities:\n    spin:\n      when: again(this)\n      do: say 1'
    text = tiny.text("say 1", winners='players where any(deck, usable(it, "spin"))', cards=cards)
    text += 'functions:\n  again:\n    params: [c]\n    value: usable(c, "spin")\n'
    game = rulecore.Game(load_cardset_text(text, "inline.yaml"), 2)
    with pytest.raises(rulecore.RuleError, match="too deeply") as err:
        game.new_game(0)
    assert err.value.span is not None and err.value.span.line > 0


@pytest.mark.parametrize("count", [70, 4100])
def test_choose_number_from_many_values_has_stable_ids(tiny, count: int) -> None:
    """choose number from [100, ..., 100+count-1] (numbers the id vocabulary has no word for): every
    option is reached by its own sequence of ids (two 'other' digits past 64 options, three past 4,096)."""
    values = ", ".join(str(100 + i) for i in range(count))
    game = tiny.game(f'let pick = choose number from [{values}] by 0 "Pick"\nsay pick')
    state = game.new_game(0)
    codec = game.action_codec
    for pick in (0, 63, 64, 69, count - 1):
        s = state.clone()
        while not s.is_terminal():
            ids = s.legal_action_ids()
            assert len(ids) <= 64
            # the id whose options still hold the one wanted (option ``pick`` of the question)
            s.apply_id(next(i for i in ids if pick in codec._walk(codec.paths(s), s.picking + (i,))[0]))
        assert tiny.says(s) == [str(100 + pick)]
    assert all(len(codec.keys[i]) == 2 for i in state.legal_action_ids())


# --------------------------------------------------------------------------- item 5: built-ins in words


BAD_CALLS = [
    ('say abs(none)', "abs() needs a whole number as its argument, got nothing (none)"),
    ('say sum(players, "a")', "sum() adds numbers, but the value for item 1 is a zone or text ('a')"),
    ("say zone_of(99999)", "zone_of() needs a card, got a number (99999): this game's cards are numbered 0 to 5"),
    ('say split("a,b", "")', "split() needs a text of at least one character as separator"),
    ("say min(1, none)", "min() compares numbers (or texts): argument 2 is nothing (none)"),
    ("say max(none, 1)", "max() compares numbers (or texts): argument 1 is nothing (none)"),
    ('say min_of(players, if_else(it == 0, 1, "x"))', "min_of() compares numbers (or texts): the value for item 2"),
    ('say lowest(players, if_else(it == 0, 1, none))', "lowest() compares numbers (or texts): the value for item 2"),
    ("say top(deck, none)", "top() needs a whole number as the count, got nothing (none)"),
    ("say bottom(deck, \"2\")", "bottom() needs a whole number as the count"),
    ("say random(deck, none)", "random() needs a whole number as the count"),
    ("say prop(99, \"power\")", "prop() needs a card, got a number (99)"),
    ('say usable(99, "grab")', "usable() needs a card, got a number (99)"),
    ("say ladder_score([1, 99])", "ladder_score() needs cards, but item 2 is a number (99)"),
    ("say types([\"x\"])", "types() needs cards, but item 1 is a zone or text ('x')"),
    ("say sets([1, 99])", "sets() needs cards, but item 2 is a number (99)"),
    ('say chain([1, 2], 99, 1, "power")', "chain() needs a card (or none) to start from, got a number (99)"),
    ("say player_marks(7)", "player_marks() needs a player (0 to 1), got a number (7)"),
    ("say label([0, 99])", "label() needs cards, but item 2 is a number (99)"),
    ('say shared_props(0, 99, "power")', "shared_props() needs cards, got a number (99)"),
]


@pytest.mark.parametrize("body, words", BAD_CALLS, ids=[b for b, _ in BAD_CALLS])
def test_a_builtin_says_which_argument_is_wrong_in_plain_words(tiny, way, body: str, words: str) -> None:
    """A built-in given a value it cannot use names the function, the argument and the value, in the
    language's words, the same from generated code and from closures."""
    try:
        game = tiny.game(body)
    except rulecore.CardsetError:
        pytest.skip("refused at load (the checker sees it)")
    with pytest.raises(rulecore.RuleError) as err:
        game.new_game(0)
    text = str(err.value)
    assert words in text, text
    for python in PYTHON_WORDS:
        assert python not in text, text
