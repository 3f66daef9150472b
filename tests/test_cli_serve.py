"""rulecore/cli/serve.py: the `rulecore serve` command's arguments, and its word when the serve extra is missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)


def test_without_the_serve_extra_it_says_what_to_install() -> None:
    """With Starlette missing, `rulecore serve` exits 1 with the pip command, not a traceback."""
    proc = run_python("import sys; sys.modules['starlette'] = None\n"
                      "from rulecore.cli import main\n"
                      "main(['serve', 'witty-witches'])")
    assert proc.returncode == 1
    assert "pip install 'rulecore[serve]'" in proc.stderr and "Traceback" not in proc.stderr


def test_a_bad_cardset_is_refused_before_serving() -> None:
    """A cardset that does not load stops the command with its located problems (exit 1)."""
    proc = run_python("from rulecore.cli import main\n"
                      "main(['serve', 'tests/bad_cardsets/witching-hour/enum-typo.yaml'])")
    assert proc.returncode == 1
    assert "cannot serve" in proc.stderr and "enum-typo.yaml:" in proc.stderr and "Traceback" not in proc.stderr


def test_help_lists_the_options_with_safe_defaults() -> None:
    """`rulecore serve --help` names every option; the host defaults to 127.0.0.1."""
    proc = subprocess.run([sys.executable, "-m", "rulecore", "serve", "--help"], capture_output=True, text=True,
                          timeout=120, cwd=REPO, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin",
                                                      "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    for option in ("--host", "--port", "--db", "--allow-path", "--bot", "--bot-seconds", "--rate", "--cors-origin"):
        assert option in proc.stdout
    assert "127.0.0.1" in proc.stdout
