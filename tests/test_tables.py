"""The parser tables shipped beside the grammar: current, read without pickle, never trusted when stale."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from rulecore._resources import grammar_path
from rulecore.lang import tables
from rulecore.lang.parser import _lark

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = 'if count(hand of you) > 2 { move top of deck to hand of you } else { say "x" }'


STALE = f"the parser tables are stale: run `{tables.REGENERATE}` after changing grammar/effects.lark"


def test_the_shipped_tables_were_built_from_the_grammar_as_it_is():
    """grammar/effects-tables.json.gz names the sha256 of grammar/effects.lark as it is now (else: regenerate)."""
    grammar = grammar_path().read_text(encoding="utf-8")
    document = tables.read_tables(tables.tables_path())
    assert document is not None and document.get("grammar") == tables.grammar_digest(grammar), STALE


@pytest.mark.slow
def test_the_shipped_tables_parse_as_the_grammar_does():
    """The parser read from the shipped tables has the automaton of one built from the grammar now."""
    grammar = grammar_path().read_text(encoding="utf-8")
    shipped = tables.parser_from_tables(tables.read_tables(tables.tables_path()), grammar)
    assert shipped is not None, STALE
    assert tables.automaton(shipped) == tables.automaton(tables.build_parser(grammar)), STALE


def test_the_parser_in_use_comes_from_the_shipped_tables():
    """The process's parser is the one read from the tables (not built: lark's source path says so)."""
    assert _lark().source_path == "<deserialized>"
    assert _lark().parse(SAMPLE, start="start").data == "start"


def test_stale_tables_are_never_used(tmp_path, monkeypatch):
    """Tables built from another grammar text are refused, and the parser is built from the grammar."""
    grammar = grammar_path().read_text(encoding="utf-8")
    document = tables.read_tables(tables.tables_path())
    assert tables.parser_from_tables(document, grammar + "\n// changed\n") is None
    assert tables.parser_from_tables({**document, "lark": "0.0.1"}, grammar) is None
    assert tables.parser_from_tables({**document, "format": 0}, grammar) is None
    stale = tmp_path / tables.TABLES_FILE
    stale.write_bytes(gzip.compress(json.dumps({**document, "grammar": "0" * 64}).encode()))
    monkeypatch.setattr(tables, "tables_path", lambda: stale)
    parser = tables.load_parser()
    assert parser.source_path != "<deserialized>"  # built from the grammar
    assert parser.parse(SAMPLE, start="start").data == "start"


@pytest.mark.parametrize("content", [b"", b"not gzip", gzip.compress(b"{not json"), gzip.compress(b"[1, 2]"),
                                     pickle.dumps({"format": 1})])
def test_damaged_tables_are_never_used(tmp_path, monkeypatch, content):
    """A tables file that is empty, not gzip, not JSON or a pickle is ignored: the parser is built instead."""
    bad = tmp_path / tables.TABLES_FILE
    bad.write_bytes(content)
    assert tables.read_tables(bad) is None or tables.parser_from_tables(tables.read_tables(bad), "") is None
    monkeypatch.setattr(tables, "tables_path", lambda: bad)
    assert tables.load_parser().parse(SAMPLE, start="start").data == "start"


def test_tables_with_the_right_digest_but_damaged_data_are_never_used():
    """Tables that claim this grammar but whose data lark cannot read give None, not an exception."""
    grammar = grammar_path().read_text(encoding="utf-8")
    document = tables.read_tables(tables.tables_path())
    assert tables.parser_from_tables({**document, "data": {"parser": 1}}, grammar) is None


@pytest.mark.slow
def test_a_pickle_planted_in_the_users_cache_folder_is_never_run(tmp_path):
    """lark's cache files ($XDG_CACHE_HOME/rulecore/*.lark-cache) are never read: a pickle there runs nothing."""
    cache = tmp_path / "cache"
    marker = tmp_path / "ran"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT),
           "RULECORE_CACHE": str(cache / "cardsets")}
    script = ("from rulecore.lang.parser import _lark; "
              f"_lark().parse({SAMPLE!r}, start=\"start\")")
    subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=ROOT)
    folder = cache / "rulecore"
    folder.mkdir(parents=True, exist_ok=True)
    planted = sorted(folder.glob("*.lark-cache")) or [folder / "effects-grammar-1.3.1.lark-cache"]

    class Boom:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    for file in planted:  # keep lark's first line (its hash of the grammar), then the payload
        first = file.read_bytes().split(b"\n", 1)[0] if file.exists() else b"0"
        file.write_bytes(first + b"\n" + pickle.dumps(Boom()) + pickle.dumps(Boom()))
    subprocess.run([sys.executable, "-c", script], env=env, check=False, cwd=ROOT)
    assert not marker.exists()
