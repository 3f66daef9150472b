"""The parser tables of the effect grammar, shipped with rulecore beside the grammar.

Building lark's LALR tables from ``grammar/effects.lark`` takes most of a second.  They are built
once, by whoever changes the grammar, into ``grammar/effects-tables.json.gz`` (package data, like
the grammar), with::

    python -m rulecore.lang.tables

and read back as JSON: plain data, never pickle, so nothing read can run code (lark's own
``cache=`` unpickles a file in the user's cache folder, which is why rulecore does not use it).
The file says which grammar text (sha256), which lark version and which options it was built
from; when any of them differs, or the file is missing or unreadable, the parser is built in memory
from the grammar instead (slow, never wrong).  ``tests/test_tables.py`` fails while the shipped
tables do not match the grammar, naming the command above.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from .._resources import data_dir, grammar_path

#: bumped when the layout of the tables file changes
FORMAT = 1

TABLES_FILE = "effects-tables.json.gz"
REGENERATE = "python -m rulecore.lang.tables"

#: how the parser is built (the same options whether built here or loaded from the tables)
OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "start": ["start", "expr_start"],
    "propagate_positions": True,
    "maybe_placeholders": True,
}


def tables_path() -> Path:
    """Where the shipped tables are: ``grammar/effects-tables.json.gz`` beside the grammar."""
    return data_dir("grammar") / TABLES_FILE


def grammar_digest(grammar: str) -> str:
    """What the tables are built from: the grammar text, lark's version and the options."""
    digest = hashlib.sha256()
    digest.update(f"format {FORMAT}\nlark {lark.__version__}\n".encode())
    digest.update(json.dumps(OPTIONS, sort_keys=True).encode() + b"\n")
    digest.update(grammar.encode("utf-8"))
    return digest.hexdigest()


def build_parser(grammar: str) -> lark.Lark:
    """The parser built from the grammar text (no cache of any kind)."""
    return lark.Lark(grammar, **OPTIONS)


def tables_of(parser: lark.Lark, grammar: str) -> dict[str, Any]:
    """The JSON document of a built parser: its serialised tables and what they were built from."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    return {
        "format": FORMAT,
        "grammar": grammar_digest(grammar),
        "lark": lark.__version__,
        "data": _encode(data),
        "memo": _encode(memo),
    }


def load_parser() -> lark.Lark:
    """The parser from the shipped tables when they were built from this grammar, else built anew."""
    grammar = grammar_path().read_text(encoding="utf-8")
    parser = parser_from_tables(read_tables(tables_path()), grammar)
    return parser if parser is not None else build_parser(grammar)


def read_tables(path: Path) -> Any:
    """The JSON document in ``path``, or None when it is missing or not gzipped JSON."""
    try:
        return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"), object_hook=_object)
    except (OSError, EOFError, ValueError, UnicodeDecodeError):
        return None


def parser_from_tables(document: Any, grammar: str) -> lark.Lark | None:
    """The parser of a tables document, or None unless it was built from exactly this grammar,
    lark version and options (then the caller builds from the grammar: a stale file is never used)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return None
    if document.get("grammar") != grammar_digest(grammar) or document.get("lark") != lark.__version__:
        return None
    try:
        return lark.Lark._load_from_dict(document["data"], document["memo"])
    except Exception:  # a damaged file lark cannot read: build from the grammar instead  # noqa: BLE001
        return None


def write_tables(path: Path | None = None) -> Path:
    """Build the parser from the grammar and write its tables (``python -m rulecore.lang.tables``)."""
    path = path or tables_path()
    grammar = grammar_path().read_text(encoding="utf-8")
    document = tables_of(build_parser(grammar), grammar)
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return path


def automaton(parser: lark.Lark) -> Any:
    """What the parser does, comparable between two builds of it: its terminals, and its LALR
    automaton with the states numbered in the order a walk from the start states reaches them
    (lark numbers them differently from one build to the next)."""
    terminals = sorted((t.name, repr(t.pattern), t.priority) for t in parser.terminals)
    table = parser.parser.parser.parser.parse_table
    numbers: dict[Any, int] = {}
    queue = [table.start_states[start] for start in sorted(table.start_states)]
    for state in queue:
        numbers.setdefault(state, len(numbers))
    described = []
    position = 0
    while position < len(queue):
        state = queue[position]
        position += 1
        row: list[tuple[Any, ...]] = []
        for token in sorted(table.states[state]):
            action, arg = table.states[state][token]
            if action.name == "Shift":
                if arg not in numbers:
                    numbers[arg] = len(numbers)
                    queue.append(arg)
                row.append((token, "shift", numbers[arg]))
            else:
                row.append((token, "reduce", str(arg.origin.name), [str(s) for s in arg.expansion],
                            arg.alias, repr(arg.options)))
        described.append(row)
    ends = sorted((start, numbers.get(state)) for start, state in table.end_states.items())
    return {"terminals": terminals, "ignore": sorted(parser.lexer_conf.ignore), "states": described,
            "ends": ends}


# lark's serialised form has dicts with number keys, which JSON has not: they are written as
# {"#d": [[key, value], ...]} and read back by ``_object`` as JSON is read.  Its tuples are written
# as lists (lark only unpacks them).

def _encode(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        if all(isinstance(key, str) and key != "#d" for key in value):
            return {key: _encode(item) for key, item in value.items()}
        return {"#d": [[_encode(key), _encode(item)] for key, item in value.items()]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot write {type(value).__name__} into the parser tables")


def _object(value: dict[str, Any]) -> Any:
    """A JSON object as read: a dict with number keys where it was written as {"#d": pairs}."""
    pairs = value.get("#d")
    return {key: item for key, item in pairs} if pairs is not None and len(value) == 1 else value


def main() -> None:
    print(f"wrote {write_tables()}")


if __name__ == "__main__":
    main()
