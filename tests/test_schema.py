"""`rulecore schema`: the JSON Schema of card files, for an editor's YAML language server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from rulecore._resources import data_dir
from rulecore.cardset.schema import PART_SCHEMA, SCHEMA, editor_schema
from rulecore.cardset.reading.yamlsrc import _Loader
from rulecore.cli import app

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()


def read(path: Path) -> object:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 - a SafeLoader


def errors(schema: dict, data: object) -> list[str]:
    return [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(data)]


def test_cli_prints_the_editor_schema() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    printed = json.loads(result.output)
    assert printed == editor_schema()
    jsonschema.Draft7Validator.check_schema(printed)
    part = json.loads(runner.invoke(app, ["schema", "--part"]).output)
    assert part == editor_schema(part=True)
    jsonschema.Draft7Validator.check_schema(part)


def test_cli_writes_the_schema_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "cardset.schema.json"
    assert runner.invoke(app, ["schema", "--output", str(out)]).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8")) == editor_schema()
    assert runner.invoke(app, ["schema", "-o", str(tmp_path / "no" / "such" / "dir.json")]).exit_code == 2


def test_the_loader_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator.check_schema(PART_SCHEMA)


@pytest.mark.parametrize("name", ["cardset.schema.json", "cardset-part.schema.json"])
def test_the_schema_files_in_docs_are_up_to_date(name: str) -> None:
    """docs/ ships the schema for editors; regenerate with `rulecore schema -o docs/cardset.schema.json`."""
    shipped = json.loads((REPO / "docs" / name).read_text(encoding="utf-8"))
    assert shipped == editor_schema(part="part" in name)


def test_every_builtin_file_matches_the_editor_schema() -> None:
    """No false alarms in an editor: cardset files match the schema, included files the part schema."""
    schema, part = editor_schema(), editor_schema(part=True)
    for path in sorted(data_dir("cardsets").rglob("*.yaml")):
        data = read(path)
        assert errors(schema if path.name == "cardset.yaml" else part, data) == [], path


def test_variants_and_examples_match_the_editor_schema() -> None:
    """A variant may hold partial entries (only a count, only a ladder): they are merged over the base."""
    schema = editor_schema()
    for path in sorted((REPO / "docs" / "examples").glob("*.yaml")):
        assert errors(schema, read(path)) == [], path
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if first.startswith("# yaml-language-server:"):
            target = first.split("$schema=", 1)[1].strip()
            assert (path.parent / target).is_file()


def test_the_editor_schema_still_catches_mistakes() -> None:
    schema = editor_schema()
    assert errors(schema, {"name": "x"})  # not a variant: the required keys
    assert errors(schema, {"extends": "witching-hour", "cards": {"bell": {"cuont": 3}}})
    assert errors(schema, {"extends": "witching-hour", "zones": {"hand": {"visibility": "evryone"}}})
    assert errors(schema, {"extends": "witching-hour", "remove": {"crads": ["bell"]}})
    assert errors(schema, {"extends": "witching-hour", "cards": {"bell": {"count": 3}}}) == []


def test_docs_describe_every_top_level_key() -> None:
    reference = (REPO / "docs" / "cardset-reference.md").read_text(encoding="utf-8")
    for key in SCHEMA["properties"]:
        assert re.search(rf"`{key}`", reference), key
    assert "yaml-language-server" in reference and "rulecore schema" in reference
