"""The ``rulecore`` command: the typer app, its commands (each in a module of its own) and ``main``.

Exit codes: 0 success; 1 a :class:`rulecore.RulecoreError` (bad cardset, option,
illegal action...), printed as a clean message without a traceback; 2 usage
errors (unknown flag, malformed ``--option``); 130 interrupted with Ctrl-C;
143 ``simulate`` stopped by SIGTERM (its worker processes are stopped first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, cast

import typer
import typer.core

import rulecore
from rulecore.cli.compare import compare_command
from rulecore.cli.docs import docs_command
from rulecore.cli.explain import explain_command
from rulecore.cli.play import play_command
from rulecore.cli.schema import schema_command
from rulecore.cli.serve import serve_command
from rulecore.cli.simulate import simulate_command
from rulecore.cli.validate import validate_command

__all__ = ["app", "main"]


class _BareFlags:
    """For a typer command or group: its flags (``--json``, ``--help``) show no value in the help, not
    ``--json <bool>`` as if they took one (typer 0.29 prints a type for every option)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cast(Any, super()).__init__(*args, **kwargs)
        _bare(getattr(self, "params", ()))

    def get_help_option(self, ctx: Any) -> Any:
        option = cast(Any, super()).get_help_option(ctx)
        _bare([option])
        return option


def _bare(params: Iterable[Any]) -> None:
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", "") is None:
            param.metavar = ""


class _Command(_BareFlags, typer.core.TyperCommand):
    """A command of the app."""


class _Group(_BareFlags, typer.core.TyperGroup):
    """The app itself (its options: ``--version``, ``--help``)."""


app = typer.Typer(
    name="rulecore",
    cls=_Group,
    help="Run tabletop card games from YAML data: simulate bot games, play against bots, validate and explain "
    "card files, print the JSON Schema, read the guides and examples.",
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


app.command("simulate", cls=_Command)(simulate_command)
app.command("compare", cls=_Command)(compare_command)
app.command("play", cls=_Command)(play_command)
app.command("validate", cls=_Command)(validate_command)
app.command("explain", cls=_Command)(explain_command)
app.command("schema", cls=_Command)(schema_command)
app.command("docs", cls=_Command)(docs_command)
app.command("serve", cls=_Command)(serve_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point (``rulecore`` / ``python -m rulecore``)."""
    app(args=list(argv) if argv is not None else None, prog_name="rulecore")


if __name__ == "__main__":  # pragma: no cover
    main()
