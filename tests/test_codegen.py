"""The compiled engine (rulecore/engine/codegen/): generated code for expressions, menus and runs of
statements, its fallbacks to closures and handlers, where its errors are reported, and what the
package may import."""

from __future__ import annotations

import re
from typing import Any

import grimp
import pytest

import rulecore
from rulecore.engine.codegen import CodeGen
from rulecore.engine.codegen.calls import CallWriter
from rulecore.engine.codegen.expressions import ExpressionWriter
from rulecore.engine.codegen.frames import FrameWriter
from rulecore.engine.codegen.statements import StatementWriter


def test_an_error_inside_generated_code_names_the_expression_that_raised_it(tiny):
    """A Python error raised by a generated line is a RuleError at that expression's file:line:column, in plain words."""
    body = 'let t = "nozone"\nsay 1\nsay 2 + count(deck where 1 in t)'
    line, col = tiny.line_of(tiny.text(body), "1 in t")
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run(body)
    assert str(info.value).startswith(f"inline.yaml:{line}:{col} (in phase main): cannot carry this out: the text 'nozone' is not a zone")


@pytest.mark.parametrize("missing", ["g_Seat", "g_Where", "g_Attr", "g_UserCall", "g_BinOp", "g_Call"])
def test_an_expression_kind_the_writer_does_not_know_runs_through_its_closure(tiny, monkeypatch, missing):
    """Without its writer method a node kind is compiled as a closure and gives the same results."""
    body = ("say left of 1\nsay count(deck where it.power > 1 and left of 0 == 1)\n"
            'say 3 + count(deck) * 2 - 7 % 4\nsay "n" + 5 + " and " + count(deck)\n'
            "for each c in deck where it.type == \"apple\" { say c.power }")
    expected = tiny.says(tiny.run(body))
    monkeypatch.delattr(CallWriter if missing == "g_Call" else ExpressionWriter, missing)
    assert tiny.says(tiny.run(body)) == expected


@pytest.mark.parametrize("missing", ["s_Let", "s_Move", "s_CounterOp", "s_Mark", "s_If", "s_ForEach", "s_Flip",
                                     "s_Say"])
def test_a_statement_the_writer_does_not_know_runs_through_its_handler(tiny, monkeypatch, missing):
    """Without its writer method a statement that never pauses calls its interpreter handler instead."""
    body = ("let a = 2\nmove top(deck, a) to table\nadd a to pool\nsay count(table)\nsay pool\n"
            'for each c in table { mark card c "seen" }\nif count(table) > 1 { mark player 1 "busy" }\n'
            "say count(table where \"seen\" in it.marks)\nsay player_marks(1)\nturn first(table) face up\n"
            "say first(table).face_up\nsay table to [1]\nturn table face down\nsay count(table where it.face_up)")
    expected = tiny.says(tiny.run(body))
    monkeypatch.delattr(StatementWriter, missing)
    assert tiny.says(tiny.run(body)) == expected


@pytest.mark.parametrize("text", ['"ab" + s', "[1, 2]", "count(deck) + s", "s + s + s + s + s + s"])
def test_a_say_with_events_off_still_works_its_text_out_and_fails_as_it_would(tiny, text):
    """Without events a 'say' records nothing, but its text is still worked out and one too long still fails."""
    body = f'let s = "abcd"\nrepeat 9 {{ let s = s + s }}\nsay {text}\nsay 1'
    recorded = rulecore.Game(tiny.cardset(body), 2)
    quiet = rulecore.Game(tiny.cardset(body), 2, record_events=False)
    try:
        tiny.says(recorded.new_game(1))
    except rulecore.RuleError as exc:
        with pytest.raises(rulecore.RuleError) as info:
            quiet.new_game(1)
        assert str(info.value) == str(exc)
    else:
        assert tiny.says(quiet.new_game(1)) == []


def test_generated_code_is_written_only_for_what_runs(tiny):
    """A game compiles an effect the first time it runs: a fresh game holds no generated pieces."""
    game = tiny.game("say 1")
    assert game.rules.generated.pieces == {}
    game.new_game(0)
    assert game.rules.generated.pieces
    assert "def " in game.rules.generated.source


def test_ifs_loops_and_calls_that_never_pause_are_generated_code_and_choices_stay_frames(tiny):
    """can_pause is False for if/for each/repeat/while over plain statements, True once a choice is inside."""
    game = tiny.game("if true { say 1 }\nfor each c in deck { say c }\nrepeat 2 { say 0 }\n"
                     'choose by 0 "Pick" { option "a" { say 1 } option "b" { say 2 } }')
    compiler = game.rules.compiler
    main = [s for s in rulecore.lang.nodes.walk(game.cardset.program) if type(s).__name__ == "Phase"][0].body
    kinds = {type(s).__name__: compiler.can_pause(s) for s in main.body}
    assert kinds == {"If": False, "ForEach": False, "Repeat": False, "Menu": True}
    assert compiler.can_pause(main)


def test_generated_statements_give_the_interpreters_results(tiny):
    """Nested ifs, loops, while and repeat run as generated code say what the effect text says."""
    s = tiny.run("let n = 0\nwhile n < 3 { let n = n + 1\nif n == 2 { say \"two\" } elif n == 3 { say \"three\" }"
                 " else { say n } }\nrepeat 2 { for each c in top(deck, 2) { move c to table } }\nsay count(table)")
    assert tiny.says(s) == ["1", "two", "three", "4"]


PAUSING_WHILE = (
    'let n = 0\nwhile n < 40 {\n  let n = n + 1\n  if n % 7 == 0 {\n    let who = n % 2\n    choose by who "Go on?" {\n'
    '      option "yes" { say "on " + n }\n      option "stop" when n > 20 { break }\n    }\n  }\n'
    '  if n == 33 { break }\n}\nsay "done " + n\nlet m = 0\nwhile m < 5000 { let m = m + 1\n'
    '  if m == 6000 { choose by 0 "Never" always { option "a" { } } } }\nsay m'
)


def _played(game: rulecore.Game) -> tuple[list[str], list[Any]]:
    """The texts said in a game played by its last option (every third decision its first), and the
    steps of each run (or the error that ended it)."""
    state, steps = None, []
    try:
        state = game.new_game(1)
        while not state.is_terminal():
            steps.append(state.steps)
            state.apply(state.legal_actions()[-1 if len(steps) % 3 else 0])
        steps.append(state.steps)
    except rulecore.RuleError as exc:
        steps.append(str(exc))
    return ([e["text"] for e in state.events() if e["type"] == "say"] if state is not None else []), steps


@pytest.mark.parametrize("limit", [None, 30, 55, 56, 57, 10001, 10002, 10003])
def test_a_while_that_can_pause_runs_as_its_frame_function_as_the_interpreter_runs_it(tiny, monkeypatch, limit):
    """A 'while' with a choice inside has a frame function (FrameWriter.loop): its turns, breaks, the
    steps each run counts and where the step limit stops it are those of the interpreter's h_while."""
    limits = {} if limit is None else {"step_limit": limit}
    framed = _played(rulecore.Game(tiny.cardset(PAUSING_WHILE), 2, **limits))
    monkeypatch.delattr(FrameWriter, "loop")
    assert _played(rulecore.Game(tiny.cardset(PAUSING_WHILE), 2, **limits)) == framed
    if limit is None:
        assert framed[0] == ["on 7", "on 14", "done 21", "5000"], framed


def test_the_run_after_an_answer_counts_its_steps_as_the_frame_machine_would(tiny):
    """A menu answered for another seat: its option's body, then its waiting frame (the first step of the
    run after the answer), the loop's frame and the body up to the next question: [7, 4, 4, 3] steps per
    run, as when every frame went round the run loop (a frame done early must not count twice or not at all)."""
    body = ('let n = 0\nwhile n < 3 {\n  let n = n + 1\n  choose by 1 "Pick" {\n    option "a" { say n }\n'
            '    option "b" { say 0 - n }\n  }\n}\nsay "end"')
    state = rulecore.Game(tiny.cardset(body), 2).new_game(1)
    steps = [state.steps]
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
        steps.append(state.steps)
    assert steps == [7, 4, 4, 3]
    assert tiny.says(state) == ["1", "2", "3", "end"]


def test_reads_without_arguments_are_worked_out_once_per_menu_pass(tiny):
    """A pure user function of no arguments is kept for the menu pass; one that draws from the
    generator (random) is not, so the number of draws and the labels stay as the interpreter's; nor
    is one cheaper to work out again than to look up (no loop, no call: top_card())."""
    body = ('choose by 0 "Pick" { option each c in deck when c == head_card() or c == lucky() or c == top_card() '
            '{ say c } option "none" { say 0 } }')
    functions = "head_card: first(deck where it.power > 1)\nlucky: first(random(deck))\ntop_card: first(deck)"
    game = tiny.game(body, functions=functions)
    state = game.new_game(3)
    source = game.rules.generated.source
    assert source.count("memo.get(") == 1  # head_card() is kept for the pass, lucky() and top_card() are not
    twin = tiny.game(body, functions=functions).new_game(3)
    assert state.legal_actions() == twin.legal_actions() and state.to_json() == twin.to_json()


def test_a_menu_reads_you_and_this_once_and_a_root_that_names_neither_reads_neither(tiny):
    """A menu's function reads 'you' and 'this' from its locals once, not at each option or item
    (nothing changes them during a pass), and the choice it offers is the same; a root expression
    that names neither does not read them at all."""
    body = ('take turns from 0 until round > 1 { choose "Pick" { option each c in deck where it.power > '
            'count(hand of you) label "Take " + c.name + " for " + player_name(you) { say c } '
            'option "none" { say 0 } } }')
    game = tiny.game(body)
    state = game.new_game(3)
    menu = next(src for src, _ in game.rules.generated.pieces.values() if src.startswith("def m"))
    assert menu.count('E.get("$you")') == 1 and 'you = E.get("$you")' in menu
    assert 'E.get("$this")' not in menu  # never read here
    assert all(label.startswith(("Take ", "none")) for label in state.legal_actions())
    plain = tiny.game("say count(deck) + 1").new_game(0)
    roots = [src for src, _ in plain.game.rules.generated.pieces.values() if src.startswith("def e")]
    assert roots and not any("E.get(" in src for src in roots)


def test_a_block_that_can_pause_runs_as_one_block_function_and_leaves_the_interpreters_frames(tiny):
    """A block with a choice in it is one generated xK function; at the question the stack holds the
    frames h_block would have left: the block at the pc past the choice, the choice on top."""
    game = tiny.game('say 1\nlet p = choose player from players by 0 "Who?" always\nsay p\nsay 2')
    state = game.new_game(0)
    assert "def x" in game.rules.generated.source
    block, pc, data, env = state.stack[-2]
    assert type(block).__name__ == "Block" and pc == 2 and data is None
    assert type(state.stack[-1][0]).__name__ == "Choose" and state.stack[-1][3] is env
    state.apply("Player 1")
    assert tiny.says(state)[-2:] == ["1", "2"]


def test_an_error_after_a_question_in_a_block_function_names_its_statement(tiny):
    """A Python error in a block function's inline code, after the block paused, is a RuleError at
    that expression's file:line:column."""
    body = 'let t = "nozone"\nlet p = choose player from players by 0 "Who?" always\nsay count(deck where 1 in t)'
    line, col = tiny.line_of(tiny.text(body), "1 in t")
    state = tiny.run(body)
    with pytest.raises(rulecore.RuleError) as info:
        state.apply("Player 0")
    assert str(info.value).startswith(f"inline.yaml:{line}:{col}")


def test_block_functions_and_the_interpreter_alone_play_the_same_game(tiny, monkeypatch):
    """Procedure calls, ifs, choices and menus entered from block functions give the same questions
    and results as when the generated writer knows none of them (every statement through drive)."""
    procedures = ('pick:\n  params: [n]\n  do: |\n    let q = choose player from players by 1 "Whom?"\n    say q + n\n'
                  '    if q == 0 {\n      choose by q "Go?" { option "yes" { say "yes" } option "no" { say "no" } }\n'
                  '    }\n')
    body = "let q = 9\nfor each p in players { say p }\nrepeat 3 {\n  call pick(5)\n}\nsay q\nsay count(deck)"

    def play() -> tuple[list[str], list[list[str]]]:
        state = tiny.run(body, procedures=procedures)
        asked = []
        while not state.is_terminal():
            actions = state.legal_actions()
            asked.append(actions)
            state.apply(actions[-1])
        return tiny.says(state), asked

    expected = play()
    monkeypatch.setattr(CodeGen, "run_pausing", lambda self, stmt, sc: self.drive(stmt))
    assert play() == expected


def test_the_code_writer_imports_nothing_of_the_engine_outside_its_package():
    """rulecore.engine.codegen reaches the interpreter only through Compiler's arguments: none of its
    modules imports another engine module (or anything above the engine)."""
    graph = grimp.build_graph("rulecore")
    package = "rulecore.engine.codegen"
    allowed = ("rulecore.engine.codegen", "rulecore.lang", "rulecore.errors")
    outside = {
        f"{module} -> {imported}"
        for module in graph.find_descendants(package) | {package}
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith("rulecore.") and not any(imported == a or imported.startswith(a + ".") for a in allowed)
    }
    assert outside == set()


def test_procedure_results_agree_between_block_functions_and_the_interpreter(tiny, monkeypatch):
    """'let x = call p()' and 'return' (from inside loops, after a question, from a nested call, and a body
    that ends without one) give the same questions and values from block functions as through drive alone."""
    procedures = ('best:\n  params: [n]\n  do: |\n    for each c in deck {\n      if c.power > n { return c.power }\n'
                  '    }\n    return 0 - 1\n'
                  'pick:\n  params: [n]\n  do: |\n    let q = choose player from players by 1 "Whom?"\n'
                  '    if q == 0 { return n * 10 }\n    let r = call best(n)\n    return r + q\n'
                  'tail:\n  do: |\n    if round < 0 { return 1 }\n    call pick(2)\n')
    body = ("let a = call best(1)\nsay a\nrepeat 3 {\n  let c = call pick(3)\n  say c\n}\n"
            "let d = call tail()\nsay d\nsay count(deck)")

    def play() -> tuple[list[str], list[list[str]]]:
        state = tiny.run(body, procedures=procedures)
        asked = []
        while not state.is_terminal():
            actions = state.legal_actions()
            asked.append(actions)
            state.apply(actions[len(asked) % 2])
        return tiny.says(state), asked

    expected = play()
    assert expected[0] == ["2", "6", "30", "6", "none", "6"]
    monkeypatch.setattr(CodeGen, "run_pausing", lambda self, stmt, sc: self.drive(stmt))
    assert play() == expected


def test_a_variable_is_read_once_until_a_statement_sets_it(tiny):
    """Generated statements read a variable once and again only after something may have set it: a
    'let' (in a loop's earlier turn too), a branch, a statement handled by the interpreter."""
    body = ("let q = 1\nsay q + q\nrepeat 3 {\n  say q\n  let q = q * 2\n}\nsay q\n"
            "for each c in top(deck, 2) {\n  let q = q + 1\n}\nsay q\nif q > 0 {\n  let q = 100\n}\nsay q\n"
            "let i = 0\nwhile i < 2 {\n  say i + q\n  let i = i + 1\n}\nsay q + i")
    state = tiny.run(body)
    assert tiny.says(state) == ["2", "1", "2", "4", "8", "10", "100", "100", "101", "102"]
    reads = state.game.rules.generated.source.count("E.get('q', _MISSING)")
    assert 0 < reads < len(re.findall(r"\bq\b", body)) - body.count("let q")


def test_a_check_made_inside_a_branch_does_not_vouch_for_the_lines_after_it(tiny):
    """'hand of v' checked under an 'if' that did not run still fails after it: what a check makes
    sure of holds only for the lines after it in its own block."""
    body = 'let v = "text"\nif round < 0 {\n  say count(hand of v)\n}\nsay count(hand of v)'
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run(body)
    line, col = tiny.line_of(tiny.text(body), "hand of v", 1)
    assert str(info.value).startswith(f"inline.yaml:{line}:")


def test_numbers_the_writer_is_sure_of_are_added_and_compared_without_type_tests(tiny):
    """count() and counters are whole numbers, comparisons truth values, the items of a list of numbers
    numbers: a root of them has no type test and no fallback, and gives what the interpreter gives."""
    state = tiny.run("say count(deck) * 2 + 1 > count(hand of 0) - 1 and not count(deck) < 0 "
                     "and count([1, 2, 3] where it > 1) == 2")
    assert tiny.says(state) == ["true"]
    roots = [src for src, _ in state.game.rules.generated.pieces.values() if src.startswith("def e")]
    assert roots and not any("type(" in src or "_binop_slow" in src or "bool(" in src for src in roots)


def test_what_a_user_function_gives_is_known_where_it_is_called(tiny):
    """A user function whose result is a truth value, or a collection, is called without bool() or a type
    test around its result; it gives what the interpreter gives."""
    body = ("say unmarked(first(deck)) and count(deck) > 0\nmark card first(deck) \"seen\"\n"
            "say unmarked(first(deck)) or false\nsay count(heavy())\nmove heavy() to table\nsay count(table)")
    game = tiny.game(body, functions="unmarked:\n  params: [c]\n  value: 'not (\"seen\" in c.marks)'\n"
                                     "heavy: deck where it.power > 4")
    state = game.new_game(3)
    assert tiny.says(state) == ["true", "false", "3", "3"]
    source = game.rules.generated.source
    assert "bool(" not in source  # around unmarked(...) in 'and' / 'or'
    assert re.search(r"(t\d+) = u_\d+\(ctx, \S+, \S+\)\n +if \1: S\.move_by_rule\(", source)  # heavy(): a tuple


def test_if_else_is_written_in_line_and_both_values_are_still_worked_out(tiny):
    """if_else(c, a, b) is written as Python's conditional, not a call; both values are worked out, as
    the built-in says, so an error in the one not taken is still raised at its place."""
    state = tiny.run("say if_else(count(deck) > 2, count(deck), 0) + 1")
    assert tiny.says(state) == ["7"]
    assert "if_else" not in "".join(src for src, _ in state.game.rules.generated.pieces.values())
    body = 'say if_else(true, 1, count(hand of "x"))'
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run(body)
    line, _ = tiny.line_of(tiny.text(body), 'hand of "x"')
    assert str(info.value).startswith(f"inline.yaml:{line}:")


def _pieces(game: rulecore.Game) -> str:
    return "".join(src for src, _ in game.rules.generated.pieces.values())


def test_a_call_of_the_rules_alone_on_constants_is_worked_out_once_when_written(tiny):
    """split(option("mode") + ",x") reads only the game's rules: it is a constant of the generated code,
    with the game's own option; a call that would fail (split of a number) is still written and fails
    where it runs, as before."""
    body = 'say count(split(option("mode") + ",x")) + max(option("speed"), 1)\nsay item(split(option("mode")), 0)'
    game = tiny.game(body, options={"mode": "hard"})
    assert tiny.says(game.new_game(1)) == ["4", "hard"]
    assert "option" not in _pieces(game) and "split" not in _pieces(game)
    bad = 'say 1\nsay split(option("speed"))'
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run(bad)
    line, col = tiny.line_of(tiny.text(bad), "split(")
    assert str(info.value).startswith(f"inline.yaml:{line}:{col} ") and "split() needs a text" in str(info.value)


def test_zone_of_owner_and_in_zones_read_the_table_in_line_with_the_built_ins_errors(tiny, monkeypatch):
    """owner(zone_of(c)) and in_zones("hand") of a card and a zone name read the game's tables in line (no
    call of the built-in on the way that works); a value that is no card fails with the built-in's words,
    and in_zones past the step limit with in_zones()'s."""
    body = ('move top(deck) to hand of 1\nsay owner(zone_of(first(hand of 1)))\n'
            'say count(in_zones("hand")) + min(count(deck), 9)')
    game = tiny.game(body)
    state = game.new_game(1)
    cards = len(state.zones["hand/0"]) + len(state.zones["hand/1"]) + len(state.zones["deck"])
    assert tiny.says(state) == ["1", str(cards)]
    source = _pieces(game)
    assert re.search(r"if type\((t\d+)\) is int and 0 <= \1 < \d+: t\d+ = S\.where\[\1\]", source)
    assert "= (*S.zones['hand/0'], *S.zones['hand/1'], )" in source and " = min(" in source
    with pytest.raises(rulecore.RuleError, match=r"zone_of\(\) needs a card, got"):
        tiny.run('say zone_of("deck")')
    cs = tiny.cardset('say count(in_zones("deck", "deck", "deck", "deck", "deck"))')
    with pytest.raises(rulecore.RuleError, match=r"in_zones\(\): the effects ran more than 20 steps") as info:
        rulecore.Game(cs, 2, step_limit=20).new_game(1)
    monkeypatch.delattr(CallWriter, "g_Call")  # the built-in called by its closure: the same error
    with pytest.raises(rulecore.RuleError) as closure:
        rulecore.Game(tiny.cardset('say count(in_zones("deck", "deck", "deck", "deck", "deck"))'), 2,
                      step_limit=20).new_game(1)
    assert str(closure.value) == str(info.value)


def _said(tiny, game: rulecore.Game) -> str:
    """What a game of ``game`` says when it starts, or the error it stops with."""
    try:
        return str(tiny.says(game.new_game(1)))
    except rulecore.RuleError as exc:
        return str(exc)


@pytest.mark.parametrize("body", [
    "say sum(deck, it.power) + sum(players, sum(players, it + 1))",
    'say sum(deck, if_else(it == first(deck), "x", it.power))',
    'say sum(deck, if_else(it == first(deck), "x", count(hand of it)))',
    "say sum(7, 1)",
])
def test_sum_is_a_loop_with_the_built_ins_value_and_error(tiny, monkeypatch, body):
    """sum() is written as a loop (no function per item, no call of the built-in); every value is still
    worked out before one that is no number fails it, so its value, or its error, is the built-in's."""
    game = tiny.game(body)
    inline = _said(tiny, game)
    assert "sum(" in _pieces(game) and "def k" not in _pieces(game)
    monkeypatch.delattr(CallWriter, "g_Call")
    assert _said(tiny, tiny.game(body)) == inline


def _unknown(value: str) -> str:
    """``value`` as a variable whose kind is not known when the cardset is checked (so it reaches the run)."""
    return f"let v = if_else(round < 100, {value}, 0)\n"


@pytest.mark.parametrize("body", [
    'say item(split(option("mode") + ",a,b"), round) + item(split("x"), -1)\nsay item(split("x"), 5)',
    _unknown('"0"') + 'say item(split("x"), v)', _unknown("none") + 'say item(split("x"), v)',
    "say count(top(deck, 2)) + count(top(deck, -1)) + count(top(deck))", _unknown('"2"') + "say top(deck, v)",
    _unknown('"nowhere"') + "say top(v, 1)", "say player_name(1) + player_name(round)",
    _unknown("7") + "say player_name(v)", _unknown('"x"') + "say player_name(v)",
    "say max(count(deck), round, 2) - min(first(deck), 3)", _unknown('"x"') + "say max(count(deck), first(deck), v)",
    _unknown("none") + "say min(round, v)", "say owner(zone_of(first(deck))) == none",
    _unknown("99") + "say zone_of(v)", _unknown('"x"') + "say owner(v)",
])
def test_built_ins_written_in_line_give_the_built_ins_value_or_error(tiny, monkeypatch, body):
    """item, top, player_name, min, max, zone_of and owner read in line where the arguments are what they
    take, else call the built-in: the value, or the error, is the built-in's (the call through its closure)."""
    inline = _said(tiny, tiny.game(body))
    monkeypatch.delattr(CallWriter, "g_Call")
    assert _said(tiny, tiny.game(body)) == inline


@pytest.mark.parametrize("body,limit", [
    ("say stronger(first(deck), 1) and not stronger(first(deck), 99)\nsay stronger(first(deck), none)", None),
    ('say stronger("x", 1)', None), ("say twice(count(deck)) + twice(1)", None),
    ("say sum(deck, twice(it))", 16),
])
def test_a_short_user_function_is_written_where_it_is_called_with_the_same_value_steps_and_errors(
        tiny, monkeypatch, body, limit):
    """A user function of a few lines with no loop and no call is written in line at each call (no Python
    call), still counting its step; its value, or the error its body raises (located in the function's
    text), or the step limit's error, is what calling it through its closure gives."""
    functions = "stronger:\n  params: [c, n]\n  value: c.power > n or n == none\ntwice:\n  params: [x]\n  value: x + x"
    kw = {} if limit is None else {"step_limit": limit}

    def game() -> rulecore.Game:
        return rulecore.Game(tiny.cardset(body, functions=functions), 2, **kw)

    inline = game()
    said = _said(tiny, inline)
    assert "def u_" not in _pieces(inline)
    monkeypatch.delattr(ExpressionWriter, "g_UserCall")
    assert _said(tiny, game()) == said
