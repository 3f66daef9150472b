"""`rulecore docs` (rulecore/cli/docs.py) and where it finds the docs (rulecore/_resources.py): in a checkout
and in a wheel's package data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulecore._resources as resources
from cli_helpers import REPO, flat
from rulecore._resources import doc_files
from rulecore.errors import doc_ref
from test_errors import _doc_ref_paths_and_stray_mentions as doc_ref_paths_and_stray_mentions
from rulecore.cli import app

GUIDES = sorted(p.stem for p in (REPO / "docs").glob("*.md"))
EXAMPLES = sorted(p.stem for p in (REPO / "docs" / "examples").iterdir() if p.suffix in (".yaml", ".py"))


def docs(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["docs", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def test_docs_lists_every_guide_and_example() -> None:
    """`rulecore docs` lists each guide of docs/ and each example of docs/examples/ by topic, with its title."""
    code, out, _ = docs()
    assert code == 0
    assert GUIDES and EXAMPLES
    for topic in GUIDES + EXAMPLES:
        assert f"  {topic} " in out, topic
    assert "Cardset reference" in out and "High Card: a tiny trick-taking game" in out
    assert "cardset.schema" not in out  # the JSON Schemas beside the guides: `rulecore schema` prints them


@pytest.mark.parametrize("topic, file", [
    ("cardset-reference", "docs/cardset-reference.md"),
    ("effect-language", "docs/effect-language.md"),
    ("tiny-game", "docs/examples/tiny-game.yaml"),
    ("docs/examples/tiny-game.yaml", "docs/examples/tiny-game.yaml"),  # a path as a message names it
    ("mybots.py", "docs/examples/mybots.py"),
])
def test_docs_topic_prints_the_file(topic: str, file: str) -> None:
    """`rulecore docs TOPIC` prints the guide or example exactly as it is; --path prints where it is."""
    code, out, _ = docs(topic)
    assert code == 0
    assert out == (REPO / file).read_text(encoding="utf-8")
    code, out, _ = docs(topic, "--path")
    assert code == 0 and Path(out.strip()).resolve() == (REPO / file).resolve()


def test_docs_unknown_topic_is_a_usage_error() -> None:
    """A misspelt topic exits 2 with a did-you-mean and the topics there are."""
    code, out, err = docs("cardset-refrence")
    assert code == 2 and out == ""
    assert "no guide or example 'cardset-refrence'; did you mean 'cardset-reference'?" in flat(err)
    assert "tiny-game" in err


def test_docs_are_found_in_a_wheels_package_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Installed from a wheel (docs/ under rulecore/_data/docs, no checkout beside it), the docs are found there."""
    package = tmp_path / "site-packages" / "rulecore"
    shutil.copytree(REPO / "docs", package / "_data" / "docs")
    monkeypatch.setattr(resources, "_PACKAGE", package)
    found = doc_files()
    assert sorted(found) == sorted(GUIDES + EXAMPLES)
    assert found["tiny-game"] == package / "_data" / "docs" / "examples" / "tiny-game.yaml"
    code, out, _ = docs("tiny-game", "--path")
    assert code == 0 and out.strip() == str(found["tiny-game"])


def test_the_wheel_ships_the_docs() -> None:
    """pyproject.toml puts docs/ into the wheel as rulecore/_data/docs, where _resources looks for it."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]["docs"] == "rulecore/_data/docs"


def test_every_doc_a_message_points_to_is_printed_by_the_command_it_names() -> None:
    """Each doc_ref(...) hint in the package names a topic that `rulecore docs TOPIC` really prints: that file."""
    paths, _ = doc_ref_paths_and_stray_mentions()
    assert paths
    for path in paths:
        topic = doc_ref(path).split("'rulecore docs ", 1)[1].split("'", 1)[0]
        code, out, _ = docs(topic)
        assert code == 0, topic
        assert out == (REPO / path).read_text(encoding="utf-8"), topic
