"""rulecore/__main__.py: the `rulecore` script and `python -m rulecore`, with and without typer and rich."""

from __future__ import annotations

import subprocess
import sys

CLI_PACKAGES = ("typer", "rich", "click")


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_library_does_not_import_the_cli_packages() -> None:
    """import rulecore (and its simulator and bots) loads none of the command's packages (typer, rich, click)."""
    proc = run_python(
        "import sys, rulecore, rulecore.simulate, rulecore.bots; "
        f"print(sorted(m for m in {CLI_PACKAGES!r} if m in sys.modules))"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_without_typer_the_command_says_what_to_install() -> None:
    """With typer missing, `python -m rulecore` exits 1 with the pip command, not a traceback."""
    proc = run_python(
        "import runpy, sys; sys.modules['typer'] = None; sys.argv = ['rulecore', '--version']; "
        "runpy.run_module('rulecore', run_name='__main__')"
    )
    assert proc.returncode == 1
    assert "the rulecore command needs typer and rich (typer is not installed)" in proc.stderr
    assert "pip install 'typer>=0.16' 'rich>=12.0'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_with_typer_and_rich_the_command_runs() -> None:
    """`python -m rulecore --version` runs the command when its packages are there."""
    proc = subprocess.run(
        [sys.executable, "-m", "rulecore", "--version"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("rulecore ")
