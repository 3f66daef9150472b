"""What problems tell people (rulecore.errors): pointers to the docs that an installed user can follow."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rulecore
from rulecore.cardset.loader import load_cardset_text
from rulecore.errors import doc_ref

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "rulecore"


def _doc_ref_paths_and_stray_mentions() -> tuple[list[str], list[str]]:
    """The paths given to doc_ref(...) in rulecore/, and every other text (docstrings aside) that names docs/."""
    paths: list[str] = []
    stray: list[str] = []
    for file in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        referred: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "doc_ref":
                assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), f"{file}:{node.lineno}"
                paths.append(node.args[0].value)
                referred.add(id(node.args[0]))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "docs/" in node.value \
                    and id(node) not in docstrings and id(node) not in referred:
                stray.append(f"{file.relative_to(REPO)}:{node.lineno}: {node.value[:60]!r}")
    return paths, stray


def test_a_doc_ref_names_the_file_and_the_command_that_prints_it() -> None:
    """doc_ref gives the repository path and 'rulecore docs TOPIC', the topic being the file's bare name."""
    assert doc_ref("docs/untrusted.md") == "docs/untrusted.md ('rulecore docs untrusted' prints it)"
    assert doc_ref("docs/examples/tiny-game.yaml") == \
        "docs/examples/tiny-game.yaml ('rulecore docs tiny-game' prints it)"


def test_every_doc_a_message_points_to_exists_and_its_topic_names_one_file() -> None:
    """Each doc_ref(...) in the package names a file of docs/, and no other doc has that bare name."""
    paths, _ = _doc_ref_paths_and_stray_mentions()
    assert paths, "no doc_ref(...) found: the scan is broken"
    stems: dict[str, list[str]] = {}
    for doc in sorted((REPO / "docs").rglob("*")):
        if doc.is_file() and doc.suffix in (".md", ".yaml"):
            stems.setdefault(doc.name.split(".", 1)[0], []).append(str(doc.relative_to(REPO)))
    for path in paths:
        assert (REPO / path).is_file(), path
        assert stems[Path(path).name.split(".", 1)[0]] == [path]


def test_no_message_names_a_doc_without_the_command() -> None:
    """A text of the package that names docs/... goes through doc_ref (docstrings aside), so an installed user can read it."""
    _, stray = _doc_ref_paths_and_stray_mentions()
    assert stray == []


def test_a_hint_that_points_to_a_doc_names_the_command() -> None:
    """An empty file's hint names the example and 'rulecore docs tiny-game'; a limit's, 'rulecore docs untrusted'."""
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text("", "inline.yaml")
    assert [p.hint for p in info.value.problems] == [
        "start from the example docs/examples/tiny-game.yaml ('rulecore docs tiny-game' prints it)"]
    with pytest.raises(rulecore.CardsetError) as info:
        load_cardset_text("name: x\n" * 10, "inline.yaml", limits=rulecore.Limits(file_bytes=20))
    assert [p.hint for p in info.value.problems] == [
        "the limits can be raised: see docs/untrusted.md ('rulecore docs untrusted' prints it)"]
