"""The rulecore command as a whole (rulecore/cli/app.py, common.py): help, version, `python -m`, and the
clean errors every command shares for a GAME that does not load or a player count out of range."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

import fakegame
import rulecore
from cli_helpers import flat, use_fake_game
from rulecore.cli import app


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A CliRunner whose rulecore.load_cardset/Game are the fake game's."""
    use_fake_game(monkeypatch)
    return CliRunner()


def test_no_command_prints_help() -> None:
    """Running rulecore without a command shows usage and lists every command."""
    result = CliRunner().invoke(app, [])
    assert "simulate" in result.output and "play" in result.output
    assert "validate" in result.output and "explain" in result.output and "schema" in result.output
    assert "docs" in result.output


def test_version_prints_the_package_version() -> None:
    """`rulecore --version` prints rulecore's __version__ and exits 0 without a command."""
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"rulecore {rulecore.__version__}"


def test_python_dash_m_works() -> None:
    """`python -m rulecore --help` runs the same CLI."""
    proc = subprocess.run(
        [sys.executable, "-m", "rulecore", "--help"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert "simulate" in proc.stdout and "rulecore" in proc.stdout


# ---------------------------------------------------------------- the real engine


def test_unknown_cardset_is_a_clean_error(runner: CliRunner) -> None:
    """A cardset that does not load exits 1 with the library's message."""
    result = runner.invoke(app, ["simulate", "no-such-game", "--games", "1"])
    assert result.exit_code == 1
    assert "error: unknown cardset 'no-such-game'" in result.stderr
    assert "Traceback" not in result.output


def test_unknown_builtin_name_lists_the_builtin_cardsets() -> None:
    """A misspelt game name is an unknown cardset with a guess and the built-in names, not a data problem."""
    result = CliRunner().invoke(app, ["simulate", "witchin-hour", "--games", "1"])
    assert result.exit_code == 1
    err = flat(result.stderr)
    assert "error: unknown cardset 'witchin-hour'; did you mean 'witching-hour'?" in err
    assert "built-in cardsets: " + ", ".join(rulecore.builtin_cardsets()) in err
    assert "problem in card data" not in err


@pytest.mark.parametrize("players", ["-3", "0", "9"])
def test_simulate_player_count_out_of_range(runner: CliRunner, players: str) -> None:
    """--players outside the cardset's range says so, not that the bots do not fit."""
    result = runner.invoke(app, ["simulate", fakegame.NAME, "--games", "1", "--players", players])
    assert result.exit_code == 1
    assert f"--players {players} is out of range: fake-nim is for 2 to 4 players" in flat(result.stderr)
    assert "bots given" not in result.stderr


def test_simulate_folder_without_cardset_yaml(runner: CliRunner, tmp_path: Any) -> None:
    """A folder without cardset.yaml is reported as such, not as an unknown cardset name."""
    result = runner.invoke(app, ["simulate", str(tmp_path), "--games", "1"])
    assert result.exit_code == 1
    assert f"'{tmp_path}' is a folder without a cardset.yaml" in flat(result.stderr)


def _option_rows(*command: str) -> dict[str, list[str]]:
    """The rows of the Options panel of `rulecore [command] --help`, by first name: the cells after the names."""
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows: dict[str, list[str]] = {}
    for line in result.stdout.splitlines():
        cells = re.split(r"\s{2,}", line.strip("│ \n"))
        if cells and cells[0].startswith("--"):
            names = [c for c in cells if re.fullmatch(r"-{1,2}[\w-]+", c)]
            rows[cells[0]] = cells[len(names):]
    return rows


@pytest.mark.parametrize("command", ["", *typer.main.get_command(app).commands])
def test_help_shows_flags_bare_and_values_by_name(command: str) -> None:
    """--help shows a flag with no value (`--json`, not `--json <bool>`) and a value by name (KEY=VALUE), not a type."""
    group = typer.main.get_command(app)
    params = group.params if not command else group.commands[command].params
    rows = _option_rows(*([command] if command else []))
    assert rows["--help"] == ["Show this message and exit."]
    options = [p for p in params if p.param_type_name == "option"]
    assert {p.opts[0] for p in options} <= set(rows)
    for param in options:
        cells = rows[param.opts[0]]
        shown = cells[:-1]  # before the help text: the value's name (and its range)
        assert not any("<" in cell or "list[" in cell for cell in shown), (param.opts, cells)
        if param.is_flag:
            assert cells == [cells[-1]] and cells[-1].startswith(param.help[:20]), (param.opts, cells)
        else:
            assert shown and re.fullmatch(r"[A-Z][A-Z=:]*|[a-z]+(\|[a-z]+)+", shown[0].split(" [")[0]), cells
    if command in ("simulate", "play"):
        assert rows["--option"][0] == "KEY=VALUE"
