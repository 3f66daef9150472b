"""Effect text -> effect nodes: ``parse_effect`` parses one piece of effect text with the lark
grammar (``grammar/effects.lark``; its parser tables are shipped beside it, see ``tables``)
and runs ``builder.Builder`` over the tree.  Text that does not parse is one located problem that
says what was unexpected and what could have come there instead.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import lark

from ..errors import Problem
from .builder import Builder, SpanMaker
from .names import KEYWORDS, Symbols
from .tables import load_parser


def parse_effect(
    text: str, symbols: Symbols, make_span: SpanMaker, *, expression: bool = False
) -> tuple[Any, list[Problem]]:
    """Parse effect text into a Block (or one expression); return it with every problem found."""
    try:
        tree = _lark().parse(text, start="expr_start" if expression else "start")
    except lark.UnexpectedInput as exc:
        return None, [_syntax_problem(exc, text, make_span)]
    builder = Builder(symbols, make_span)
    try:
        block = builder.transform(tree)
    except lark.exceptions.VisitError as exc:  # a bug in a builder method, not in the text
        raise exc.orig_exc from None
    return block, builder.problems


@functools.lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    """The parser, made once per process from the tables shipped beside the grammar (JSON, see
    ``tables``), or built from the grammar when they are stale; it is never mutated."""
    return load_parser()


_EXPECT_NAMES = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": 'a "quoted text"',
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "KIND": "player, players, card, cards, set, number or value",
    "POSITION": "top, bottom or random",
    "FACE": "up or down",
    "ORDER": "clockwise or counterclockwise",
    "ALWAYS": "'always'",
    "COMPARE": "a comparison",
}


_OPERATOR_TERMINALS = {
    "DOT", "MINUS", "PLUS", "STAR", "SLASH", "PERCENT", "LPAR", "RPAR", "LSQB", "RSQB", "COMMA",
    "COMPARE", "AND", "OR", "NOT", "IN", "OF", "WHERE", "MORETHAN", "LESSTHAN", "EQUAL", "SEMICOLON",
}


def _describe_expected(expected: set[str]) -> str:
    """Words that could come next, keywords first; operators that would only continue
    the expression before are summed up, since they are rarely what was missing."""
    words: list[str] = []
    operators = False
    for name in sorted(expected):
        if name in _EXPECT_NAMES and name not in ("LPAR", "RPAR", "COMPARE"):
            words.append(_EXPECT_NAMES[name])
        elif name in _OPERATOR_TERMINALS:
            operators = True
        elif name.isupper() and not name.startswith("__") and name.isalpha():
            words.append(f"'{name.lower()}'")
        elif name.startswith("__") and _word_of(name):  # a word lark named anew (its name was taken: number)
            words.append(f"'{_word_of(name)}'")
        elif name == "RBRACE":
            words.append("'}'")
        elif name == "LBRACE":
            words.append("'{'")
    words = sorted(set(words))
    if "'}'" in words:  # a block left open is the likeliest mistake: say so first
        words.remove("'}'")
        words.insert(0, "'}'")
    if len(words) > 8:
        words = words[:8] + ["..."]
    text = ", ".join(words)
    if operators:
        text = f"{text} (or more of the expression before it)" if text else "more of the expression before it"
    return text


def _word_of(terminal: str) -> str | None:
    """The word a terminal of the grammar stands for, when it is one quoted word."""
    for term in _lark().terminals:
        if term.name == terminal and term.pattern.type == "str" and str(term.pattern.value).isalpha():
            return str(term.pattern.value)
    return None


def _after_choice(text: str, pos: int) -> bool:
    """Whether ``pos`` is right after the chooser or the source of a 'choose' on its line, where a
    prompt may come: the likely mistake is a prompt that is not a quoted text."""
    line = text[text.rfind("\n", 0, max(pos, 0)) + 1: max(pos, 0)]
    return re.search(r"\bchoose\b(?:[^\"{]*\bfrom\b[^\"{]*|\s+by\s+[^\"{]*)$", line) is not None


def _syntax_problem(exc: lark.UnexpectedInput, text: str, make_span: SpanMaker) -> Problem:
    line = getattr(exc, "line", 0) or 0
    column = getattr(exc, "column", 0) or 0
    if isinstance(exc, lark.UnexpectedEOF) or line in (0, -1):
        lines = text.rstrip().splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    span = make_span(line, column)
    if isinstance(exc, lark.UnexpectedCharacters):
        pos = exc.pos_in_stream
        char = text[pos] if pos is not None and pos < len(text) else "end of text"
        hint = "text must be in double quotes" if char in "'`" else None
        if char.isupper():
            hint = "names are lower case (use \"quotes\" for text)"
        return Problem(f"unexpected character {char!r} in effect text", span, hint, "effect-syntax")
    if isinstance(exc, lark.UnexpectedToken):
        tok = exc.token
        got = "end of text" if tok.type == "$END" else repr(str(tok))
        # what this exact parser state takes (lark's 'expected' merges states and says too much)
        accepts = getattr(exc, "accepts", None) or exc.expected
        expected = _describe_expected(set(accepts))
        hint = f"expected {expected}" if expected else None
        if str(tok) in KEYWORDS and "NAME" in accepts:
            hint = f"'{tok}' is a reserved word; pick another name"
        elif tok.type in ("NAME", "LPAR", "NUMBER") and _after_choice(text, exc.pos_in_stream or 0):
            hint = 'a prompt is a text (a quoted text, a name or a call), which may go on with +: "Pick " + name' + (f"; else {hint}" if hint else "")
        return Problem(f"unexpected {got} in effect text", span, hint, "effect-syntax")
    return Problem("effect text ends too early", span, "a '{' or '(' may be missing its closing partner", "effect-syntax")
