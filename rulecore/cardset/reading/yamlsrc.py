"""YAML reading that remembers where every value came from.

``read_yaml`` returns plain Python data (dicts, lists, scalars) and a ``Source``
that maps each path (a tuple of keys and indexes) to the line and column of its
value and of its key, so later stages can point at the exact spot of a mistake.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import yaml

from ...errors import Problem, Span

Path = tuple[Any, ...]


@attrs.define
class Source:
    """Positions of values in one YAML file."""

    file: str
    lines: list[str]
    values: dict[Path, tuple[int, int, str | None]] = attrs.field(factory=dict)
    keys: dict[Path, tuple[int, int]] = attrs.field(factory=dict)

    def _spans_lines(self, vline: int, text: str) -> bool:
        first = self.line_text(vline) or ""
        return len(text.strip()) > len(first)

    def _search(self, vline: int, text: str, line: int, column: int, card: str | None) -> Span | None:
        """Find the words at (line, column) of the parsed text in the file, from the value on."""
        at = _offset(text, line, column)
        if at >= len(text.rstrip()):
            # the end of the text: the last non-blank character of the value's last line
            for n in range(min(vline + text.count(" ") + 2, len(self.lines)), vline - 1, -1):
                if (self.line_text(n) or "").strip():
                    last = self.line_text(n) or ""
                    return Span(self.file, n, len(last.rstrip()) + 1, card, last)
            return None
        word = text[at:].split(None, 1)[0][:16] if text[at:].strip() else ""
        if not word:
            return None
        before = text[:at].split()
        occurrence = " ".join(before).count(word)
        seen = 0
        for n in range(vline, len(self.lines) + 1):
            source = self.line_text(n) or ""
            start = 0
            while True:
                hit = source.find(word, start)
                if hit < 0:
                    break
                if seen == occurrence:
                    return Span(self.file, n, hit + 1, card, source)
                seen += 1
                start = hit + 1
        return None

    def line_text(self, line: int) -> str | None:
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return None

    def span(self, path: Path, *, key: bool = False, card: str | None = None) -> Span:
        """The span of the value at ``path`` (or of its key), falling back to its parents."""
        probe = tuple(path)
        while True:
            pos: tuple[int, ...] | None = None
            if key and probe in self.keys:
                pos = self.keys[probe]
            elif probe in self.values:
                pos = self.values[probe][:2]  # type: ignore[assignment]
            elif probe in self.keys:
                pos = self.keys[probe]
            if pos is not None:
                line, col = pos[0], pos[1]
                return Span(self.file, line, col, card, self.line_text(line))
            if not probe:
                return Span(self.file, 0, 0, card)
            probe = probe[:-1]

    def text_span(
        self, path: Path, line: int, column: int, card: str | None = None, text: str | None = None
    ) -> Span:
        """The span of a position (1-based line/column) inside the string value at ``path``.

        ``text`` is the value as parsed; for folded (``>``) and multi-line plain or
        quoted scalars, whose lines YAML joins, the spot is found by searching the
        file for the words at that position.
        """
        if path not in self.values:
            return self.span(path, card=card)
        vline, vcol, style = self.values[path]
        quoted_escapes = style == '"' and "\\" in (self.line_text(vline) or "")
        if text is not None and (
            style == ">" or quoted_escapes or (style != "|" and "\n" not in text and self._spans_lines(vline, text))
        ):
            found = self._search(vline, text, line, column, card)
            if found is not None:
                return found
        if style in ("|", ">"):
            # block scalar: content starts on the next line, at its indentation
            first = vline + 1
            indent = 0
            header = (self.line_text(vline) or "")[vcol - 1 :]
            digits = [ch for ch in header[1:3] if ch.isdigit()]
            if digits:  # an explicit indentation indicator: '|2' is two more than the key's line
                key_line = self.line_text(vline) or ""
                indent = len(key_line) - len(key_line.lstrip(" ")) + int(digits[0])
            else:
                for n in range(first, len(self.lines) + 1):
                    line_text = self.lines[n - 1]
                    if line_text.strip():
                        indent = len(line_text) - len(line_text.lstrip(" "))
                        break
            fl = first + line - 1
            return Span(self.file, fl, indent + column, card, self.line_text(fl))
        offset = 1 if style in ("'", '"') else 0
        if line == 1:
            return Span(self.file, vline, vcol + offset + column - 1, card, self.line_text(vline))
        fl = vline + line - 1
        return Span(self.file, fl, column, card, self.line_text(fl))


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: max(line - 1, 0)]) + max(column - 1, 0)


MAX_DEPTH = 100  # nesting of mappings and lists
MAX_VALUES = 200_000  # values in one file, aliases expanded
MAX_DIGITS = 4300  # digits of an integer (Python's own limit for reading one)


_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")

# PyYAML's words for common mistakes, and what they mean to an author
_YAML_WORDS = [
    (re.compile(r"expected <block end>, but found '<block (mapping|sequence) start>'"),
     "this line is indented differently from the lines around it"),
    (re.compile(r"expected <block end>, but found '(.*)'"), "this line is indented differently from the lines around it"),
    (re.compile(r"mapping values are not allowed here"), "a ':' where no key may start (text with ': ' needs quotes)"),
    (re.compile(r"found character '\\t' that cannot start any token"), "a tab character: indent with spaces"),
    (re.compile(r"expected ',' or '\]', but got '<stream end>'"), "a '[' list is never closed with ']'"),
    (re.compile(r"expected ',' or '}', but got '<stream end>'"), "a '{' mapping is never closed with '}'"),
    (re.compile(r"could not find expected ':'"), "a key without ':' (or plain text that runs over several lines)"),
    (re.compile(r"found undefined alias '(.*)'"), r"'*\1' refers to an anchor '&\1' that is not defined before it"),
    (re.compile(r"found unexpected end of stream"), "the file ends inside a quoted text (a quote is not closed)"),
]


def _author_words(message: str) -> str:
    for pattern, words in _YAML_WORDS:
        if pattern.search(message):
            return pattern.sub(words, message) if "\\1" in words else words
    return message


class _TooBig(Exception):
    def __init__(self, node: yaml.Node, message: str, hint: str | None = None):
        super().__init__(message)
        self.node = node
        self.message = message
        self.hint = hint


def _construct(node: yaml.Node, path: Path, src: Source) -> Any:
    mark = node.start_mark
    if len(path) > MAX_DEPTH:
        raise _TooBig(node, f"the data is nested more than {MAX_DEPTH} levels deep (or an alias refers to itself)")
    if len(src.values) > MAX_VALUES:
        raise _TooBig(node, f"the file holds more than {MAX_VALUES} values (aliases expanded)")
    style = getattr(node, "style", None) or None  # libyaml says '' for a plain scalar
    src.values[path] = (mark.line + 1, mark.column + 1, style)
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
        raise yaml.constructor.ConstructorError(None, None, f"the tag '{node.tag.replace('tag:yaml.org,2002:', '!!')}' is not allowed in card files",
                                                node.start_mark)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for knode, vnode in node.value:
            key = _Loader.construct_object(_LOADER, knode, deep=True)  # type: ignore[arg-type]
            if not isinstance(key, (str, int, float, bool, type(None))):
                key = str(key)  # a list, mapping, set or date as a key: kept as text
            kpath = path + (key,)
            if key in out:
                src.keys.setdefault(kpath + ("<duplicate>",), (knode.start_mark.line + 1, knode.start_mark.column + 1))
            src.keys[kpath] = (knode.start_mark.line + 1, knode.start_mark.column + 1)
            out[key] = _construct(vnode, kpath, src)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, path + (i,), src) for i, item in enumerate(node.value)]
    if style is None and len(node.value) > MAX_DIGITS and node.value.lstrip("+-").replace("_", "").isdigit():
        raise _TooBig(node, f"a number with more than {MAX_DIGITS} digits", "card games need small numbers")
    value = _Loader.construct_object(_LOADER, node, deep=True)  # type: ignore[arg-type]
    if isinstance(value, str) and _unprintable(value):
        raise _TooBig(node, f"the text {ascii(value)[:60]} holds a character that cannot be printed (a lone "
                            "surrogate)", "write the character itself, or a \\U escape of a real character")
    return value


def _unprintable(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (from a \\ud800 escape): it cannot be written out as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class _Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans: only true/false (so a key 'on:' stays the text 'on')."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for _first in "tTfF":
    _Loader.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), [_first]
    )

_LOADER = _Loader("")
_FAILED = object()

if getattr(yaml, "__with_libyaml__", False):

    class _CLoader(yaml.CSafeLoader):  # type: ignore[misc]
        """libyaml's parser with the same resolvers as _Loader (only true/false are booleans)."""

    _CLoader.yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers
else:  # pragma: no cover - PyYAML built without libyaml
    _CLoader = None  # type: ignore[assignment,misc]


def _fast_compose(text: str, lines: list[str]) -> Any:
    """The node tree by libyaml (several times faster), or _FAILED: then the Python parser reads the
    text again and words the problem.  Only for text that cannot nest deeply enough to overflow
    libyaml's C stack (it has no recursion limit)."""
    if _CLoader is None or text.count("[") + text.count("{") + max(map(len, lines), default=0) > 4000:
        return _FAILED
    try:
        loader = _CLoader(text)
        try:
            return loader.get_single_node()
        finally:
            loader.dispose()
    except Exception:  # noqa: BLE001 - any trouble: the Python parser reports it properly
        return _FAILED


def _at(mark: Any) -> tuple[int, int]:
    """1-based line and column of a PyYAML mark (0, 0 when there is none)."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)


def _syntax(src: Source, message: str, line: int, col: int, hint: str | None = None) -> "YamlSyntaxProblem":
    """The located problem of a file that cannot be read as YAML."""
    span = Span(src.file, line, col, None, src.line_text(line)) if line else Span(src.file)
    return YamlSyntaxProblem(Problem(message, span, hint=hint, code="yaml-syntax"))


def _text_after_quotes(line: str, col: int) -> str | None:
    """The quoted text a value starts with, when the problem is text after it on the same line
    ('value: "out" not in xs'); None otherwise."""
    before = line[: max(col - 1, 0)].rstrip()
    match = re.search(r""":\s+(("(?:[^"\\]|\\.)*")|('(?:[^']|'')*'))$""", before)
    if match is None or not line[max(col - 1, 0):].strip():
        return None
    return match.group(1)


def read_yaml(text: str, file: str) -> tuple[Any, Source]:
    """Parse YAML text; raise a located ``Problem`` (as a list) on syntax errors."""
    src = Source(file=file, lines=text.splitlines())
    try:
        node = _fast_compose(text, src.lines)
        if node is _FAILED:
            loader = _Loader(text)
            try:
                node = loader.get_single_node()
            finally:
                loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if exc.context_mark is not None and mark is not None and mark.line >= len(src.lines):
            mark = exc.context_mark  # the end of the file: point at what was left open instead
        line, col = _at(mark)
        quoted = _text_after_quotes((src.line_text(line) or "") if line else "", col)
        if quoted is not None:
            raise _syntax(src, f"YAML syntax error: more text after the quoted text {quoted}", line, col,
                          f"YAML reads {quoted} as the whole value: put the whole value in quotes, with \\\" "
                          "inside, or write it as a block ('value: |' and the text on the next line)") from None
        msg = _author_words(exc.problem or exc.context or "invalid YAML")
        raise _syntax(src, f"YAML syntax error: {msg}", line, col,
                      "check the indentation and that every ':' in text is inside quotes") from None
    except yaml.reader.ReaderError as exc:
        # a character YAML does not allow (a control character, binary data): locate it
        before = text[: max(exc.position, 0)]
        line = before.count("\n") + 1
        col = exc.position - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise _syntax(src, f"YAML error: the character {char!r} is not allowed in a YAML file", line, col,
                      "is this a text file? card files are UTF-8 text") from None
    except RecursionError:
        raise _syntax(src, f"YAML error: the data is nested too deeply (more than {MAX_DEPTH} levels)", 1, 1,
                      "flatten the lists and mappings") from None
    except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors are rare
        raise _syntax(src, f"YAML error: {exc}", 0, 0) from None
    if node is None:
        return None, src
    try:
        data = _construct(node, (), src)
    except _TooBig as exc:
        raise _syntax(src, f"YAML error: {exc.message}", *_at(exc.node.start_mark),
                      exc.hint or "flatten the data, and let no alias (*name) refer to a mapping or list that holds it") from None
    except yaml.constructor.ConstructorError as exc:
        raise _syntax(src, f"YAML error: {exc.problem}", *_at(exc.problem_mark)) from None
    return data, src


class YamlSyntaxProblem(Exception):
    """Internal: carries the Problem of a YAML file that does not parse."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem
