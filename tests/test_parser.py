"""Effect text -> effect nodes: every statement and expression form, name resolution, problems.

``parse_effect`` is called directly with a small ``Symbols`` table; nodes are compared with
``==`` (attrs equality ignores spans), and spans are checked where they matter.
"""

from __future__ import annotations

import pytest

from rulecore.lang import nodes as n
from rulecore.lang import parser as parser_module
from rulecore.lang.names import KEYWORDS, Symbols
from rulecore.lang.parser import _lark, parse_effect
from rulecore.errors import Span

SYM = Symbols(
    player_zones=frozenset({"hand", "hex"}),
    shared_zones=frozenset({"deck", "discard", "attack"}),
    player_counters=frozenset({"score", "total"}),
    game_counters=frozenset({"pool"}),
    game_vars=frozenset({"starter", "hand_size"}),
    functions={"double": 1, "nothing": 0},
)


def make_span(line: int, column: int) -> Span:
    return Span("t.yaml", line, column, "card", None)


def parse(text: str) -> n.Block:
    """Parse statements that must have no problems."""
    node, problems = parse_effect(text, SYM, make_span)
    assert problems == [], [p.render() for p in problems]
    assert isinstance(node, n.Block)
    return node


def stmt(text: str) -> n.Stmt:
    """The only statement of ``text``."""
    block = parse(text)
    assert len(block.body) == 1, block
    return block.body[0]


def expr(text: str) -> n.Expr:
    """Parse a lone expression that must have no problems."""
    node, problems = parse_effect(text, SYM, make_span, expression=True)
    assert problems == [], [p.render() for p in problems]
    return node


def problems(text: str, *, expression: bool = False):
    node, found = parse_effect(text, SYM, make_span, expression=expression)
    assert found, f"expected problems in {text!r}"
    return found



L = n.Literal
YOU = n.Builtin("you")
IT = n.Builtin("it")
DECK = n.ZoneRef("deck", None)
DISCARD = n.ZoneRef("discard", None)


def hand(owner: n.Expr = YOU) -> n.ZoneRef:
    return n.ZoneRef("hand", owner)


# --------------------------------------------------------------------------- statements


@pytest.mark.parametrize(
    "text, expected",
    [
        ("let a = 1", n.Let("a", L(1))),
        ("set starter to 2", n.SetVar("starter", L(2))),
        ("set pool to 3", n.CounterOp("set", n.CounterRef("pool", None), L(3))),
        ("add 2 to score of you", n.CounterOp("add", n.CounterRef("score", YOU), L(2))),
        ("subtract 1 from total of p", n.CounterOp("subtract", n.CounterRef("total", n.Var("p")), L(1))),
        ("set score of you to 0", n.CounterOp("set", n.CounterRef("score", YOU), L(0))),
        ("add 2 to pool", n.CounterOp("add", n.CounterRef("pool", None), L(2))),
        ("subtract 1 from pool", n.CounterOp("subtract", n.CounterRef("pool", None), L(1))),
        ('mark card c "bent"', n.Mark("card", n.Var("c"), L("bent"), False)),
        ("turn c face up", n.Flip(n.Var("c"), "up")),
        ("turn hand of you face down", n.Flip(hand(), "down")),
        ('unmark card c "bent"', n.Mark("card", n.Var("c"), L("bent"), True)),
        ('mark player you "hero"', n.Mark("player", YOU, L("hero"), False)),
        ('mark player p as "open_" + s', n.Mark("player", n.Var("p"), n.BinOp("+", L("open_"), n.Var("s")), False)),
        ('use "play" of c by p', n.UseAbility("play", n.Var("c"), n.Var("p"))),
        ('fail "no cards"', n.Fail(L("no cards"))),
        ('unmark player left of you "hero"', n.Mark("player", n.Seat(YOU, 1), L("hero"), True)),
        ("move c to discard", n.Move(n.Var("c"), DISCARD, "top", None)),
        ("move c to discard at bottom", n.Move(n.Var("c"), DISCARD, "bottom", None)),
        ("move c to discard at top face up", n.Move(n.Var("c"), DISCARD, "top", "up")),
        ("move c to hand of you at random face down", n.Move(n.Var("c"), hand(), "random", "down")),
        ("move c to discard face up", n.Move(n.Var("c"), DISCARD, "top", "up")),
        ("shuffle deck", n.Shuffle(DECK)),
        ("sort hand of you by it.rank", n.Sort(hand(), n.Attr(IT, "rank"))),
        ("sort deck by [it.suit, 0 - it.rank]", n.Sort(DECK, n.ListExpr((n.Attr(IT, "suit"),
                                                                         n.BinOp("-", L(0), n.Attr(IT, "rank")))))),
        ("rotate hand", n.Rotate("hand", 1)),
        ("rotate hex clockwise", n.Rotate("hex", 1)),
        ("rotate hand counterclockwise", n.Rotate("hand", -1)),
        ("reveal hex of you", n.Reveal(n.ZoneRef("hex", YOU))),
        ("hide hex of you", n.Hide(n.ZoneRef("hex", YOU))),
        ("look at deck", n.Look(DECK, None)),
        ("look at hand of p by you", n.Look(hand(n.Var("p")), YOU)),
        ("break", n.Break()),
        ("call attack", n.CallProc("attack", ())),
        ("call attack()", n.CallProc("attack", ())),
        ("call defend(you, 2)", n.CallProc("defend", (YOU, L(2)))),
        ("let best = call rank(you)", n.CallProc("rank", (YOU,), "best")),
        ("let best = call rank", n.CallProc("rank", (), "best")),
        ("return", n.Return(None)),
        ("return count(deck) + 1", n.Return(n.BinOp("+", n.Call("count", (DECK,)), L(1)))),
        ('use "play" of c', n.UseAbility("play", n.Var("c"), None)),
        ("take another turn", n.ExtraTurn(None)),
        ("take another turn by p", n.ExtraTurn(n.Var("p"))),
        ("end game", n.EndGame()),
        ('say "hi"', n.Say(L("hi"), None)),
        ('say "hi" to you', n.Say(L("hi"), YOU)),
    ],
)
def test_simple_statements(text, expected):
    """Each simple statement form parses to its node with the documented defaults."""
    assert stmt(text) == expected


def test_if_elif_else():
    """if/elif/else becomes one If with ordered branches and an else block."""
    node = stmt("if a { say 1 } elif b { say 2 } elif c { say 3 } else { say 4 }")
    assert isinstance(node, n.If)
    assert [c for c, _ in node.branches] == [n.Var("a"), n.Var("b"), n.Var("c")]
    assert [b.body for _, b in node.branches] == [(n.Say(L(i), None),) for i in (1, 2, 3)]
    assert node.orelse == n.Block((n.Say(L(4), None),))
    bare = stmt("if a { }")
    assert bare.orelse is None and bare.branches == ((n.Var("a"), n.Block(())),)


def test_loops():
    """for each, while and repeat carry their variable, condition/count and body."""
    assert stmt("for each p in players { say p }") == n.ForEach(
        "p", n.Builtin("players"), n.Block((n.Say(n.Var("p"), None),))
    )
    assert stmt("while x < 3 { break }") == n.While(n.Compare("<", n.Var("x"), L(3)), n.Block((n.Break(),)))
    assert stmt("repeat 2 + 1 { }") == n.Repeat(n.BinOp("+", L(2), L(1)), n.Block(()))


@pytest.mark.parametrize(
    "text, kind, mode, count",
    [
        ("let x = choose player from players", "player", "one", None),
        ("let x = choose card from deck", "card", "one", None),
        ("let x = choose set from deck", "set", "one", None),
        ("let x = choose number from [1, 2]", "number", "one", None),
        ("let x = choose value from [1, 2]", "value", "one", None),
        ("let x = choose players from players", "players", "upto", None),
        ("let x = choose cards from deck", "cards", "upto", None),
        ("let x = choose 2 cards from deck", "cards", "exactly", L(2)),
        pytest.param(
            "let x = choose exactly hand_size cards from deck", "cards", "exactly", n.GameVar("hand_size")
        ),
        ("let x = choose up to 3 cards from deck", "cards", "upto", L(3)),
        pytest.param(
            "let x = choose up to 1 + 1 players from players", "players", "upto", n.BinOp("+", L(1), L(1))
        ),
    ],
)
def test_choose_quantities_and_kinds(text, kind, mode, count):
    """choose [N | exactly E | up to E] KIND: one of a singular kind, any number of a plural one."""
    node = stmt(text)
    assert isinstance(node, n.Choose)
    assert (node.var, node.kind, node.mode, node.count) == ("x", kind, mode, count)
    assert node.chooser is None and node.prompt is None


def test_choose_with_chooser_and_prompt():
    """'by P' and a quoted prompt are kept on the Choose node (escapes decoded)."""
    node = stmt('let c = choose card from hand of you where it != 0 by left of you "Pick \\"one\\""')
    assert node.source == n.Where(hand(), n.Compare("!=", IT, L(0)))
    assert node.chooser == n.Seat(YOU, 1)
    assert node.prompt == 'Pick "one"'


def test_menu_static_and_dynamic_options():
    """A menu holds static options (label, when, body) and dynamic ones (var, source, label, when)."""
    node = stmt(
        'choose by you "Your turn" {\n'
        '  option "Attack" when count(deck) > 0 { call attack }\n'
        '  option "Pass" { }\n'
        '  option each c in hand of you label "Play " + c.name when c != 0 { use "play" of c }\n'
        "  option each q in [1, 2] { say q }\n"
        "}"
    )
    assert isinstance(node, n.Menu)
    assert node.chooser == YOU and node.prompt == "Your turn"
    attack, pass_, play, plain = node.items
    assert attack == n.StaticOption(
        "Attack", n.Compare(">", n.Call("count", (DECK,)), L(0)), n.Block((n.CallProc("attack", ()),))
    )
    assert pass_ == n.StaticOption("Pass", None, n.Block(()))
    assert play == n.DynamicOption(
        "c",
        hand(),
        n.BinOp("+", L("Play "), n.Attr(n.Var("c"), "name")),
        n.Compare("!=", n.Var("c"), L(0)),
        n.Block((n.UseAbility("play", n.Var("c"), None),)),
        "card",
    )
    assert plain.label is None and plain.cond is None and plain.source == n.ListExpr((L(1), L(2)))
    assert plain.kind == "value"


def test_menu_always_and_answer_options():
    """'always' is kept on the menu; 'option answers "e" with a, b' becomes an AnswerOption."""
    node = stmt('choose by you "Go" always { option "Pass" { }\noption answers "bless" with amount, who }')
    assert node.always is True
    assert node.items[1] == n.AnswerOption("bless", ("amount", "who"))
    assert stmt('choose { option answers "bless" }').items[0] == n.AnswerOption("bless", ())
    assert stmt('choose { option "a" { } }').always is False


def test_choose_always():
    """'always' after a pick's prompt (or source) is kept on the Choose node; without it the node says False."""
    node = stmt('let x = choose card from hand of you by you "Which?" always')
    assert isinstance(node, n.Choose) and node.always is True and node.prompt == "Which?"
    assert stmt("let xs = choose up to 2 cards from deck always").always is True
    assert stmt('let x = choose card from deck "Which?"').always is False


def test_simultaneously():
    """'simultaneously for each p in X { ... }' keeps its variable, items and body."""
    node = stmt("simultaneously for each p in players { say p }")
    assert node == n.Simultaneously("p", n.Builtin("players"), n.Block((n.Say(n.Var("p"), None),)))


def test_in_any_order_and_pass():
    """'[simultaneously] in any order for each p in X { ... pass ... }' builds an InAnyOrder (sealed or not) and a Pass."""
    node = stmt("in any order for each p in players { pass }")
    assert node == n.InAnyOrder("p", n.Builtin("players"), n.Block((n.Pass(),)), False)
    node = stmt("simultaneously in any order for each p in players { say can_pass }")
    assert node == n.InAnyOrder("p", n.Builtin("players"), n.Block((n.Say(n.Builtin("can_pass"), None),)), True)


def test_any_and_order_stay_free_as_names():
    """'in any order' is one token, so 'any(...)' and a variable called 'order' still parse."""
    node = stmt("let order = any(players, it == you)")
    assert node == n.Let("order", n.Call("any", (n.Builtin("players"), n.Compare("==", n.Builtin("it"), n.Builtin("you")))))


def test_menu_without_chooser_or_prompt():
    """'choose { ... }' is a menu for 'you' with the default prompt."""
    node = stmt('choose { option "a" { } option "b" { } }')
    assert node.chooser is None and node.prompt is None and len(node.items) == 2


def test_take_turns_forms():
    """take turns from P [skipping C] until C { ... }."""
    plain = stmt("take turns from starter until round > 2 { }")
    assert plain == n.Turns(n.GameVar("starter"), 1, None, n.Compare(">", n.Builtin("round"), L(2)), n.Block(()))
    full = stmt("take turns from 0 skipping count(hand of it) == 0 until false { say you }")
    assert full.step == 1
    assert full.skip == n.Compare("==", n.Call("count", (hand(IT),)), L(0))
    assert full.body == n.Block((n.Say(YOU, None),))


def test_take_turns_order():
    """take turns from P clockwise|counterclockwise sets the step +1 / -1."""
    assert stmt("take turns from 0 clockwise until true { }").step == 1
    assert stmt("take turns from p counterclockwise skipping it == 1 until false { }").step == -1


@pytest.mark.parametrize(
    "text",
    [
        "let c = choose exactly 2 cards from deck",
        "let c = choose up to n cards from deck",
        "let c = choose up to 2 players from players",
        "take turns from 1 counterclockwise until true { }",
        "take turns from p clockwise until true { }",
    ],
)
def test_kind_and_order_words_after_an_expression(text):
    """KIND and ORDER words right after an expression parse (a regression of the 'mark' statement once broke them)."""
    parse(text)


def test_statements_are_separated_by_newlines_or_semicolons_and_comments_are_ignored():
    """Newlines are white space, ';' is optional, '#' starts a comment."""
    one = parse("let a = 1; let b = 2;\n# a comment\nsay a # trailing comment\n")
    two = parse("let a = 1 let b = 2 say a")
    assert one == two
    assert len(one.body) == 3


def test_empty_text_is_an_empty_block():
    """An empty effect (or only comments) is an empty Block."""
    assert parse("") == n.Block(())
    assert parse("  # nothing\n") == n.Block(())


# --------------------------------------------------------------------------- expressions


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 + 2 * 3", n.BinOp("+", L(1), n.BinOp("*", L(2), L(3)))),
        ("(1 + 2) * 3", n.BinOp("*", n.BinOp("+", L(1), L(2)), L(3))),
        ("1 - 2 - 3", n.BinOp("-", n.BinOp("-", L(1), L(2)), L(3))),
        ("8 / 2 % 3", n.BinOp("%", n.BinOp("/", L(8), L(2)), L(3))),
        ("-a * 2", n.BinOp("*", n.Neg(n.Var("a")), L(2))),
        ("- -1", n.Neg(n.Neg(L(1)))),
        ("a < b + 1", n.Compare("<", n.Var("a"), n.BinOp("+", n.Var("b"), L(1)))),
        ("not a == b", n.Not(n.Compare("==", n.Var("a"), n.Var("b")))),
        ("not not a", n.Not(n.Not(n.Var("a")))),
        ("a and b or c", n.Or(n.And(n.Var("a"), n.Var("b")), n.Var("c"))),
        ("a or b and c", n.Or(n.Var("a"), n.And(n.Var("b"), n.Var("c")))),
        ("not a and b", n.And(n.Not(n.Var("a")), n.Var("b"))),
        ("a in b", n.Contains(n.Var("a"), n.Var("b"), False)),
        ("a not in b", n.Contains(n.Var("a"), n.Var("b"), True)),
        ('"x" in it.tags', n.Contains(L("x"), n.Attr(IT, "tags"), False)),
        ("deck where it > 1 and it < 3", n.Where(DECK, n.And(n.Compare(">", IT, L(1)), n.Compare("<", IT, L(3))))),
        (
            "deck where it > 1 where it < 3",
            n.Where(n.Where(DECK, n.Compare(">", IT, L(1))), n.Compare("<", IT, L(3))),
        ),
        ("c.name", n.Attr(n.Var("c"), "name")),
        ("c.type", n.Attr(n.Var("c"), "type")),
        ("c.power", n.Attr(n.Var("c"), "power")),
        ("left of you", n.Seat(YOU, 1)),
        ("right of left of you", n.Seat(n.Seat(YOU, 1), -1)),
        ("hand of left of you", n.ZoneRef("hand", n.Seat(YOU, 1))),
        ("score of it", n.CounterRef("score", IT)),
        ("count(hand of you)", n.Call("count", (hand(),))),
        ("top(deck, 2)", n.Call("top", (DECK, L(2)))),
        ("lowest(players, total of it)", n.Call("lowest", (n.Builtin("players"), n.CounterRef("total", IT)))),
        ("double(2)", n.UserCall("double", (L(2),))),
        ("nothing()", n.UserCall("nothing", ())),
        ("[]", n.ListExpr(())),
        ("[1, a, \"b\"]", n.ListExpr((L(1), n.Var("a"), L("b")))),
        ("true", L(True)),
        ("false", L(False)),
        ("none", L(None)),
        ('"say \\"hi\\"\\n"', L('say "hi"\n')),
        ("007", L(7)),
    ],
)
def test_expression_forms_and_precedence(text, expected):
    """Operators bind as the grammar says: where < or < and < not < compare < sum < product < unary < postfix."""
    assert expr(text) == expected


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_every_comparison_operator(op):
    """Each comparison operator parses to a Compare with that op."""
    assert expr(f"a {op} 1") == n.Compare(op, n.Var("a"), L(1))


@pytest.mark.parametrize(
    "name, expected",
    [
        ("you", n.Builtin("you")),
        ("this", n.Builtin("this")),
        ("it", n.Builtin("it")),
        ("players", n.Builtin("players")),
        ("opponents", n.Builtin("opponents")),
        ("round", n.Builtin("round")),
        ("player_count", n.Builtin("player_count")),
        ("turn_player", n.Builtin("turn_player")),
        ("starter", n.GameVar("starter")),
        ("pool", n.CounterRef("pool", None)),
        ("deck", n.ZoneRef("deck", None)),
        ("anything_else", n.Var("anything_else")),
    ],
)
def test_names_resolve_against_the_cardset(name, expected):
    """A bare name is a builtin, a game variable, a shared counter, a shared zone, or a local."""
    assert expr(name) == expected


def test_spans_point_at_the_text():
    """Nodes carry the (line, column) of their text, from make_span."""
    block = parse("say 1\n  move c to discard\n")
    say, move = block.body
    assert (say.span.line, say.span.column) == (1, 1)
    assert (move.span.line, move.span.column) == (2, 3)
    assert (move.dest.span.line, move.dest.span.column) == (2, 13)
    assert move.span.file == "t.yaml" and move.span.card == "card"


def test_grammar_is_built_once():
    """The lark parser is built once per process and reused."""
    assert _lark() is _lark()


# --------------------------------------------------------------------------- problems


def test_unknown_player_zone_gets_a_guess():
    """'x of p' with a misspelt zone says 'unknown zone or counter' and suggests the right one."""
    (p,) = problems("move c to hnad of you")
    assert p.message == "unknown zone or counter 'hnad'"
    assert p.hint == "did you mean 'hand'?"
    assert (p.span.line, p.span.column) == (1, 11)
    assert p.code == "unknown-name"


def test_unknown_counter_in_a_counter_statement_gets_a_guess():
    """'add 1 to scroe of you' names the unknown counter and suggests 'score'."""
    (p,) = problems("add 1 to scroe of you")
    assert p.message == "unknown counter 'scroe'"
    assert p.hint == "did you mean 'score'?"


def test_zone_used_as_a_counter():
    """Adding to a zone is reported: only counters can be added to."""
    (p,) = problems("add 1 to hand of you")
    assert p.message == "'hand' is a zone, not a counter"


def test_shared_zone_with_an_owner():
    """'deck of you' for a shared zone says to drop 'of ...'."""
    (p,) = problems("say count(deck of you)")
    assert p.message == "'deck' is a shared zone, not one per player"
    assert p.hint == "write 'deck' without 'of ...'"
    (p,) = problems("say pool of you")
    assert p.message == "'pool' is a shared counter, not one per player"


def test_player_zone_without_an_owner():
    """A per-player zone or counter named alone says whose it must be."""
    (p,) = problems("move c to hand")
    assert p.message.startswith("'hand' is a zone of each player")
    assert "hand of you" in p.hint
    (p,) = problems("say score")
    assert p.message.startswith("'score' is a counter of each player")


def test_unknown_function_gets_a_guess():
    """An unknown function is reported with the closest known one."""
    (p,) = problems("say cuont(deck)")
    assert p.message == "unknown function 'cuont'"
    assert p.hint == "did you mean 'count'?"
    assert (p.span.line, p.span.column) == (1, 5)


def test_wrong_number_of_arguments():
    """A call with the wrong number of arguments names the arity and shows the usage."""
    (p,) = problems("say count(deck, 2)")
    assert p.message == "count() takes 1 argument (got 2)"
    assert p.hint == "usage: count(cards | zone | collection)"
    (p,) = problems("say top()")
    assert p.message == "top() takes 1 to 2 arguments (got 0)"
    assert p.code == "arity"


def test_set_of_an_undeclared_variable():
    """'set y to ...' of a name not under vars: suggests declaring it or using let."""
    (p,) = problems("set y to 3")
    assert p.message == "unknown game variable 'y'"
    assert "vars:" in p.hint and "let" in p.hint
    (p,) = problems("set startr to 3")
    assert p.hint == "did you mean 'starter'?"


def test_add_to_an_unknown_or_per_player_counter():
    """'add 1 to NAME' needs a shared counter: a per-player one asks whose, an unknown one is guessed."""
    (p,) = problems("add 1 to score")
    assert p.message.startswith("'score' is a counter of each player")
    (p,) = problems("add 1 to pol")
    assert p.message == "unknown counter 'pol'" and p.hint == "did you mean 'pool'?"


def test_rotate_of_a_shared_zone():
    """'rotate' needs a zone each player has."""
    (p,) = problems("rotate deck")
    assert p.message == "'deck' is not a zone of each player"
    (p,) = problems("rotate hnad")
    assert p.hint == "did you mean 'hand'?"


def test_user_function_arity_and_guess():
    """A user function called with the wrong arity is reported; a misspelt one is guessed."""
    (p,) = problems("say double()")
    assert p.message == "double() takes 1 argument (got 0)"
    (p,) = problems("say doubel(1)")
    assert p.hint == "did you mean 'double'?"


def test_several_problems_in_one_text_are_all_reported():
    """Name problems do not stop the parse: every one in the text is returned, in order."""
    found = problems("say cuont(deck)\nsay hand\nmove c to hnad of you")
    assert [(p.span.line, p.span.column) for p in found] == [(1, 5), (2, 5), (3, 11)]


def test_single_quotes_get_a_hint():
    """Text in single quotes is a syntax error hinting at double quotes."""
    (p,) = problems("say 'hi'")
    assert p.message == "unexpected character \"'\" in effect text"
    assert p.hint == "text must be in double quotes"
    assert (p.span.line, p.span.column) == (1, 5)
    assert p.code == "effect-syntax"


def test_upper_case_names_get_a_hint():
    """An upper-case name is a syntax error hinting that names are lower case."""
    (p,) = problems("say 1\nmove Card to deck")
    assert "'C'" in p.message
    assert "lower case" in p.hint
    assert (p.span.line, p.span.column) == (2, 6)


def test_unexpected_token_names_the_word_and_what_was_expected():
    """An unexpected word is named, located, and the hint lists what could come there."""
    (p,) = problems("let x = choose card deck")
    assert p.message == "unexpected 'deck' in effect text"
    assert p.hint == "expected 'from'"
    assert (p.span.line, p.span.column) == (1, 21)
    (p,) = problems("let = 3")
    assert p.hint == "expected a name"


@pytest.mark.parametrize(
    "text, word",
    [
        ("move c discard", "'to'"),
        ("move c to deck at middle", "top"),
        ("if true {\n  say 1\n", "'}'"),
    ],
)
def test_hint_names_the_missing_word(text, word):
    """The hint of a syntax error names the word that would fix it."""
    (p,) = problems(text)
    assert word in (p.hint or "")


def test_text_ending_too_early_points_at_the_last_line():
    """A missing closing brace is reported as the end of the text, on its last line."""
    (p,) = problems("if true {\n  say 1\n")
    assert p.message == "unexpected end of text in effect text"
    assert p.span.line == 2 and p.span.column in (7, 8)


def test_expression_mode_rejects_statements():
    """An expression field (when:, until:) does not accept statements."""
    (p,) = problems("say 1", expression=True)
    assert p.code == "effect-syntax"


def test_expression_mode():
    """Expression fields parse to one expression node."""
    assert expr("count(opponents where count(hand of it) > 0) > 0") == n.Compare(
        ">",
        n.Call("count", (n.Where(n.Builtin("opponents"), n.Compare(">", n.Call("count", (hand(IT),)), L(0))),)),
        L(0),
    )


def test_keywords_list_covers_statement_words():
    """KEYWORDS holds the words of the grammar's statements."""
    assert {"let", "move", "if", "choose", "take", "turns", "where", "of", "end", "game"} <= KEYWORDS


def test_keywords_are_accepted_as_local_names_where_a_name_is_expected():
    """The contextual lexer accepts a reserved word after 'let' (documented: 'let cards = ...')."""
    assert stmt("let cards = 3") == n.Let("cards", L(3))


def test_signal_statement():
    """signal "EVENT" for P [with a, b] [else { ... }] keeps the event, player, passed names and else block."""
    assert stmt('signal "attacked" for p') == n.Signal("attacked", n.Var("p"), (), None)
    node = stmt('signal "attacked" for defender with attacker, size else { say 1 }')
    assert node == n.Signal(
        "attacked", n.Var("defender"), ("attacker", "size"), n.Block((n.Say(L(1), None),))
    )


@pytest.mark.parametrize("text, prompt", [
    ('let x = choose card from deck by you msg', n.Var("msg")),
    ('let x = choose card from deck player_name(you) + "?"',
     n.BinOp("+", n.Call("player_name", (YOU,)), L("?"))),
    ('let x = choose exactly n cards from deck by you c.name', n.Attr(n.Var("c"), "name")),
    ('let x = choose card from deck by you "Pick"', "Pick"),
])
def test_a_prompt_is_any_text_expression(text, prompt):
    """A prompt may start with a name, a call or a property, not only a quoted text (a quoted text alone stays a str)."""
    assert stmt(text).prompt == prompt


def test_a_missing_kind_word_lists_every_kind():
    """After a quantity, the hint names every kind word ('number' too, whose terminal lark names anew)."""
    (problem,) = problems("let x = choose 2 foo from deck")
    assert problem.hint == "expected 'card', 'cards', 'number', 'player', 'players', 'set', 'value'"


def test_walk_gives_each_node_before_the_nodes_inside_it_in_field_order() -> None:
    """``walk`` is a depth-first pre-order over ``children`` (fields in declaration order, tuples
    flattened): the order the engine numbers statements in, so saves depend on it."""
    import attrs
    import rulecore

    def fields_in(value: object) -> list:
        if isinstance(value, (n.Expr, n.Stmt, n.StaticOption, n.DynamicOption, n.AnswerOption)):
            return [value]
        if isinstance(value, tuple):
            return [node for item in value for node in fields_in(item)]
        return []

    def reference(node: object) -> list:
        inside = [c for f in attrs.fields(type(node)) if f.name != "span" for c in fields_in(getattr(node, f.name))]
        assert list(n.children(node)) == inside
        return [node] + [x for c in inside for x in reference(c)]

    for name in rulecore.builtin_cardsets():
        cardset = rulecore.load_cardset(name)
        roots = [cardset.program] + [p.body for p in cardset.procedures.values()]
        roots += [a.body for card in cardset.cards.values() for a in card.abilities.values()]
        for root in roots:
            assert [id(x) for x in n.walk(root)] == [id(x) for x in reference(root)]
