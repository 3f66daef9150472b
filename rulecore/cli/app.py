"""The ``rulecore`` command: the typer app, its commands (each in a module of its own) and ``main``.

Exit codes: 0 success; 1 a :class:`rulecore.RulecoreError` (bad cardset, option,
illegal action...), printed as a clean message without a traceback; 2 usage
errors (unknown flag, malformed ``--option``); 130 interrupted with Ctrl-C;
143 ``simulate`` stopped by SIGTERM (its worker processes are stopped first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

import rulecore
from rulecore.cli.explain import explain_command
from rulecore.cli.play import play_command
from rulecore.cli.schema import schema_command
from rulecore.cli.simulate import simulate_command
from rulecore.cli.validate import validate_command

__all__ = ["app", "main"]

app = typer.Typer(
    name="rulecore",
    help="Run tabletop card games from YAML data: simulate bot games, play against bots, validate and explain "
    "card files, print the JSON Schema.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"rulecore {rulecore.__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Options that come before the command (``--version``); the help text is the app's."""


app.command("simulate")(simulate_command)
app.command("play")(play_command)
app.command("validate")(validate_command)
app.command("explain")(explain_command)
app.command("schema")(schema_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point (``rulecore`` / ``python -m rulecore``)."""
    app(args=list(argv) if argv is not None else None, prog_name="rulecore")


if __name__ == "__main__":  # pragma: no cover
    main()
