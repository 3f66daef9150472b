"""Declared marks: the words of ``mark card``/``mark player`` and of ``"x" in c.marks`` /
``"x" in player_marks(p)`` checked against the cardset's ``marks:`` and ``player_marks:`` lists.

With a list, a word it does not hold is an error (``check_marks``), located, with a guess; a word
worked out with ``+`` is checked by its written start (``"soul_" + p``: some declared word must
start with ``soul_``); a word worked out entirely (``unmark card c as m``) cannot be checked here.
Without a list, the words used are a warning (``mark_warnings``) that asks to declare them; a
declared word that no effect text names is a warning too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, NamedTuple

from ...errors import Problem, Span
from ...lang import nodes as n
from .walking import did_you_mean, nodes, warning

if TYPE_CHECKING:
    from ..model import Cardset

_LIST = {"card": "marks", "player": "player_marks"}


class MarkUse(NamedTuple):
    """A mark word written in effect text: whose (card or player), the word (or its written start) and where."""

    kind: str  # card | player
    word: str
    prefix: bool  # only the start of the word is written ("soul_" + p)
    span: Span


def _word(e: Any) -> tuple[str, bool] | None:
    """The written word of a mark expression: a text, or the text a '+' starts with (a prefix)."""
    if isinstance(e, n.Literal) and isinstance(e.value, str):
        return e.value, False
    if isinstance(e, n.BinOp) and e.op == "+":
        start = _word(e.left)
        if start is not None:
            return start[0], True
    return None


def _marks_of(collection: Any) -> str | None:
    """Whose marks a collection is: 'card' for ``c.marks``, 'player' for ``player_marks(p)``."""
    if isinstance(collection, n.Attr) and collection.name == "marks":
        return "card"
    if isinstance(collection, n.Call) and collection.func == "player_marks":
        return "player"
    return None


def mark_uses(cs: "Cardset") -> Iterator[MarkUse]:
    """Every mark word written in the cardset's effect text, in the order of its trees."""
    for node in nodes(cs):
        kind: str | None = None
        if isinstance(node, n.Mark):
            found, kind = _word(node.mark), node.target_kind
        elif isinstance(node, n.Contains):
            found, kind = _word(node.item), _marks_of(node.collection)
        else:
            continue
        if found is not None and kind in _LIST:
            yield MarkUse(kind, found[0], found[1], node.span)


def _declared(cs: "Cardset", kind: str) -> Mapping[str, str] | None:
    return cs.marks if kind == "card" else cs.player_marks


def _known(use: MarkUse, words: Mapping[str, str]) -> bool:
    return any(w.startswith(use.word) for w in words) if use.prefix else use.word in words


def check_marks(cs: "Cardset") -> list[Problem]:
    """Errors: a mark word that the cardset's declared list (``marks:``/``player_marks:``) does not hold."""
    out: list[Problem] = []
    for use in mark_uses(cs):
        words = _declared(cs, use.kind)
        if words is None or _known(use, words):
            continue
        section = _LIST[use.kind]
        other = _declared(cs, "player" if use.kind == "card" else "card") or {}
        whose = "card" if use.kind == "card" else "player"
        if use.prefix:
            message = f"no {whose} mark declared under '{section}:' starts with '{use.word}'"
        else:
            message = f"{whose} mark '{use.word}' is not declared under '{section}:'"
        if not use.prefix and use.word in other:
            hint = (f"'{use.word}' is a {'player' if use.kind == 'card' else 'card'} mark (under "
                    f"'{_LIST['player' if use.kind == 'card' else 'card']}:'); declare it under '{section}:' too")
        else:
            pool = {w[:i] for w in words for i in range(1, len(w) + 1)} if use.prefix else set(words)
            hint = did_you_mean(use.word, pool, f"declare it under '{section}:' with a description")
        out.append(Problem(message, use.span, hint, "mark"))
    return out


def mark_warnings(cs: "Cardset", at: Callable[..., Span]) -> list[Problem]:
    """Warnings: mark words used without a declared list, and declared words no effect text names."""
    out: list[Problem] = []
    uses = list(mark_uses(cs))
    for kind, section in _LIST.items():
        mine = [u for u in uses if u.kind == kind]
        words = _declared(cs, kind)
        whose = "card" if kind == "card" else "player"
        if words is None:
            if mine:
                shown = ", ".join(sorted({u.word + ("..." if u.prefix else "") for u in mine}))
                out.append(warning(mine[0].span, f"the {whose} marks this cardset uses are not declared: {shown}",
                                   f"list them under '{section}:', each with a description (word: what it means); "
                                   "then a misspelt mark is an error", "mark"))
            continue
        for word in words:
            if not any(u.word == word or (u.prefix and word.startswith(u.word)) for u in mine):
                out.append(warning(at((section, word)), f"{whose} mark '{word}' is declared under '{section}:' but no "
                                   "effect text names it", "remove it, or mark with it", "unused"))
    return out
