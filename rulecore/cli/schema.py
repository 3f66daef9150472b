"""``rulecore schema``: the JSON Schema of cardset files (or of a file named under ``include:``), for an
editor's YAML language server."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from rulecore.cardset.schema import editor_schema
from rulecore.cli.common import fail


def schema_command(
    part: Annotated[
        bool, typer.Option("--part", help="The schema of a file named under 'include:' (cards:, procedures:, ...).")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE", show_default=False, help="Write it to this file, not stdout."),
    ] = None,
) -> None:
    """Print the JSON Schema of cardset files for an editor's YAML language server (rulecore docs cardset-reference)."""
    text = json.dumps(editor_schema(part), indent=2)
    if output is None:
        typer.echo(text)
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror}", 2)
