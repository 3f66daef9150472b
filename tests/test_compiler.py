"""The compiled engine (rulecore/engine/compiler.py): generated code for expressions, menus and runs of
statements, its fallbacks to closures and handlers, and where its errors are reported."""

from __future__ import annotations

import pytest

import rulecore
from rulecore.engine.compiler import CodeGen


def test_an_error_inside_generated_code_names_the_expression_that_raised_it(tiny):
    """A Python error raised by a generated line is a RuleError at that expression's file:line:column."""
    body = 'let t = "nozone"\nsay 1\nsay 2 + count(deck where 1 in t)'
    line, col = tiny.line_of(tiny.text(body), "1 in t")
    with pytest.raises(rulecore.RuleError) as info:
        tiny.run(body)
    assert str(info.value).startswith(f"inline.yaml:{line}:{col} (in phase main): cannot carry this out: KeyError")


@pytest.mark.parametrize("missing", ["g_Seat", "g_Where", "g_Attr", "g_UserCall"])
def test_an_expression_kind_the_writer_does_not_know_runs_through_its_closure(tiny, monkeypatch, missing):
    """Without its writer method a node kind is compiled as a closure and gives the same results."""
    body = ("say left of 1\nsay count(deck where it.power > 1 and left of 0 == 1)\n"
            "for each c in deck where it.type == \"apple\" { say c.power }")
    expected = tiny.says(tiny.run(body))
    monkeypatch.delattr(CodeGen, missing)
    assert tiny.says(tiny.run(body)) == expected


@pytest.mark.parametrize("missing", ["s_Let", "s_Move", "s_CounterOp"])
def test_a_statement_the_writer_does_not_know_runs_through_its_handler(tiny, monkeypatch, missing):
    """Without its writer method a statement that never pauses calls its interpreter handler instead."""
    body = "let a = 2\nmove top(deck, a) to table\nadd a to pool\nsay count(table)\nsay pool"
    expected = tiny.says(tiny.run(body))
    monkeypatch.delattr(CodeGen, missing)
    assert tiny.says(tiny.run(body)) == expected


def test_generated_code_is_written_only_for_what_runs(tiny):
    """A game compiles an effect the first time it runs: a fresh game holds no generated pieces."""
    game = tiny.game("say 1")
    assert game.rules.generated.pieces == {}
    game.new_game(0)
    assert game.rules.generated.pieces
    assert "def " in game.rules.generated.source
