"""The reading step of loading (rulecore.cardset.reading): files in, one finished Document out.

The reader resolves every file (the main one, its includes, the base it extends and the base's
includes) and hands over one merged document with positions; checking it is the building step's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulecore
from rulecore.cardset.loader import load_cardset_text
from rulecore.cardset.reading.files import Files
from rulecore.cardset.reading.reader import read_cardset, read_cardset_text

BASE = """\
include: [part.yaml]
name: base
players: {min: 2, max: 3}
zones:
  deck: {owner: none, visibility: nobody}
setup: {cards_in: deck}
cards:
  apple: {count: 3}
flow:
  phases:
    - {name: main, do: say 1}
end: {winners: players}
"""
PART = "cards:\n  pear: {count: 2}\n"
VARIANT = "extends: base.yaml\ncards:\n  apple: {count: 5}\n"


@pytest.fixture
def variant(tmp_path: Path) -> Path:
    """A variant that extends a base which includes a part, each in its own file."""
    (tmp_path / "base.yaml").write_text(BASE, encoding="utf-8")
    (tmp_path / "part.yaml").write_text(PART, encoding="utf-8")
    (tmp_path / "variant.yaml").write_text(VARIANT, encoding="utf-8")
    return tmp_path / "variant.yaml"


def test_a_variant_its_base_and_their_includes_are_read_into_one_document(variant: Path) -> None:
    """One document: the variant merged over its base, the base's include merged in, every file read listed."""
    doc = read_cardset(variant, Files(variant))
    assert doc.problems == []
    assert doc.data["cards"] == {"apple": {"count": 5}, "pear": {"count": 2}}
    assert "extends" not in doc.data and "include" not in doc.data
    folder = variant.parent.resolve()
    assert doc.files == (folder / "variant.yaml", folder / "base.yaml", folder / "part.yaml")


def test_the_document_says_which_file_and_line_each_value_came_from(variant: Path) -> None:
    """The variant's count points into the variant, the included card into the part, the rest into the base."""
    sources = read_cardset(variant, Files(variant)).sources
    count = sources.span(("cards", "apple", "count"))
    assert (Path(count.file).name, count.line) == ("variant.yaml", 3)
    pear = sources.span(("cards", "pear"), key=True)
    assert (Path(pear.file).name, pear.line, pear.column) == ("part.yaml", 2, 3)
    zone = sources.span(("zones", "deck"), key=True)
    assert (Path(zone.file).name, zone.line) == ("base.yaml", 5)


def test_reading_does_not_check_the_structure(tmp_path: Path) -> None:
    """An unknown key and a missing section are the building step's to report: the document carries none."""
    doc = read_cardset_text("name: x\ncolour: red\n", str(tmp_path / "x.yaml"), Files(tmp_path / "x.yaml"))
    assert doc.problems == [] and doc.data == {"name": "x", "colour": "red"}
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text("name: x\ncolour: red\n", str(tmp_path / "x.yaml"))
    assert any(p.code == "unknown-key" for p in info.value.problems)


def test_an_include_that_cannot_be_read_is_kept_as_a_problem_of_the_document(tmp_path: Path) -> None:
    """A missing included file does not stop the reading: the problem rides on the document, at the include line."""
    main = tmp_path / "main.yaml"
    doc = read_cardset_text("include: [gone.yaml]\nname: x\n", str(main), Files(main))
    assert [(p.code, p.span.line) for p in doc.problems] == [("io", 1)]
    assert doc.data == {"name": "x"}
