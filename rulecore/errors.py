"""Every error rulecore raises, in one hierarchy.

    RulecoreError
    ├── CardsetError        bad card data: carries every Problem found, each located
    ├── OptionError         a game option or player count that the cardset does not allow
    ├── IllegalActionError  an action that is not legal now (the state is unchanged)
    ├── RuleError           a rule that cannot be carried out at run time (names card and effect)
    └── StateError          a saved state that cannot be loaded
"""

from __future__ import annotations

from typing import Any, Sequence

import attrs

__all__ = [
    "RulecoreError",
    "CardsetError",
    "OptionError",
    "IllegalActionError",
    "RuleError",
    "StateError",
    "Problem",
    "Span",
]


@attrs.frozen
class Span:
    """Where a piece of card data or effect text came from."""

    file: str = "<string>"
    line: int = 0  # 1-based; 0 when unknown
    column: int = 0  # 1-based; 0 when unknown
    card: str | None = None  # the card (or procedure, phase) the text belongs to
    source_line: str | None = None  # the text of that line, for a caret

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file


_SHOWN = 160  # characters of a source line shown under a problem


def doc_ref(path: str) -> str:
    """A pointer to one of rulecore's documents, for a hint: its path in the repository, and the
    command that prints it where only the package is installed ('rulecore docs TOPIC', the topic
    being the file's name without its folder and extension).

    >>> doc_ref("docs/untrusted.md")
    "docs/untrusted.md ('rulecore docs untrusted' prints it)"
    """
    topic = path.rsplit("/", 1)[-1].split(".", 1)[0]
    return f"{path} ('rulecore docs {topic}' prints it)"


def yaml_words(value: Any, width: int = 60) -> str:
    """A value read from YAML as a message shows it, in YAML's words, not Python's: ``true``,
    ``false``, ``null``, 'text', [a, b], {key: value}; cut to ``width`` characters.

    >>> yaml_words(True), yaml_words(None), yaml_words(["x", 1, False]), yaml_words({"n": 2})
    ('true', 'null', "['x', 1, false]", '{n: 2}')
    """
    def words(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if v is None:
            return "null"
        if isinstance(v, str):
            return repr(v)
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(words(i) for i in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k if isinstance(k, str) else words(k)}: {words(i)}" for k, i in v.items()) + "}"
        return str(v)

    text = words(value)
    return text if len(text) <= width else text[: width - 4] + " ..."


@attrs.frozen
class Problem:
    """One thing wrong with card data, with its location and a hint."""

    message: str
    span: Span = attrs.field(factory=Span)
    hint: str | None = None
    code: str = "invalid"
    severity: str = "error"  # "error": the cardset does not load; "warning": it loads, but look again

    def render(self) -> str:
        """``file:line:column: message``, the source line with a caret, and the hint."""
        label = "warning: " if self.severity == "warning" else ""
        out = [f"{self.span}: {label}{self.message}"]
        if self.span.source_line is not None and self.span.line:
            text = self.span.source_line.rstrip("\n").expandtabs(1)
            column = max(self.span.column - 1, 0)
            if len(text) > _SHOWN:  # a very long line: the part around the caret
                start = max(0, min(column - _SHOWN // 2, len(text) - _SHOWN))
                text = ("..." if start else "") + text[start:start + _SHOWN] + "..."
                column = column - start + (3 if start else 0)
            out.append("    " + text)
            out.append("    " + " " * column + "^")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        # a lone surrogate (from text given to the loader) cannot be written out: shown as an escape
        return "\n".join(out).encode("utf-8", "backslashreplace").decode("utf-8")

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "card": self.span.card,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


class RulecoreError(Exception):
    """Base of every error rulecore raises on purpose."""


class CardsetError(RulecoreError):
    """Card data that cannot be loaded. ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems: list[Problem] = list(problems)
        count = len(self.problems)
        head = "1 problem" if count == 1 else f"{count} problems"
        body = "\n".join(p.render() for p in self.problems)
        super().__init__(f"{head} in card data:\n{body}")


class OptionError(RulecoreError):
    """A player count or game option the cardset does not allow."""


class IllegalActionError(RulecoreError):
    """An action that is not among ``state.legal_actions()``; the state is unchanged."""


class RuleError(RulecoreError):
    """A rule that cannot be carried out at run time, naming the card and the effect."""

    def __init__(self, message: str, span: Span | None = None):
        self.span = span
        where = ""
        if span is not None:
            card = f" (in {span.card})" if span.card else ""
            where = f"{span}{card}: "
        super().__init__(where + message)


class StateError(RulecoreError):
    """A saved state that is corrupt or belongs to another game."""
