"""The command line facing strangers' files and bots: a file that is no cardset is never quoted, cardset
text never reaches the terminal raw nor as markup, a user's broken bot is one error line, a huge answer
re-asks, and a run of 10^9 games starts without building them all first."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import fakegame
import rulecore
from cli_helpers import REPO, flat, use_fake_game
from rulecore.cli import app
from rulecore.cli.common import plain

ESCAPES = str(REPO / "tests" / "hostile" / "play" / "escapes.yaml")
RAW = ("\x1b", "\x9b", "\x07")


def test_a_file_that_is_no_cardset_is_never_quoted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """load_cardset of /proc/self/environ (or any file without a cardset key): refused, and nothing of the file is in the message."""
    monkeypatch.setenv("RULECORE_TEST_SECRET", "hunter2-environ")
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2-file\nroot:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    paths = [secret] + ([Path("/proc/self/environ")] if Path("/proc/self/environ").exists() else [])
    for path in paths:
        with pytest.raises(rulecore.CardsetError) as info:
            rulecore.load_cardset(path)
        text = str(info.value)
        assert "this file is not a cardset" in text and "nothing of it is shown" in text
        assert "hunter2" not in text and "root:x" not in text and "RULECORE_TEST_SECRET" not in text
        result = CliRunner().invoke(app, ["validate", str(path)])
        assert "hunter2" not in result.output and "root:x" not in result.output


def test_plain_escapes_control_characters() -> None:
    """plain(): ESC, BEL, CR and C1 codes written as escapes; newline, tab and ordinary text kept."""
    assert plain("\x1b[2Jhi\x07\r\x9b1m\tok\n") == "\\x1b[2Jhi\\x07\\r\\x9b1m\tok\n"
    assert plain("Skull [/] é") == "Skull [/] é"


@pytest.mark.parametrize("args", [["explain", ESCAPES], ["explain", ESCAPES, "one"], ["explain", ESCAPES, "two"],
                                  ["simulate", ESCAPES, "-n", "3", "-w", "1"], ["validate", ESCAPES]])
def test_cardset_text_is_neither_raw_nor_markup(args: list[str]) -> None:
    """Card names with ESC/C1 sequences and a round label '[/]': printed escaped, no MarkupError (exit 0)."""
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert not any(code in result.output for code in RAW)
    assert "MarkupError" not in result.output and "Traceback" not in result.output
    if args[0] == "explain" and len(args) == 2:
        assert "\\x1b[2J\\x1b]0;pwned[bold]One[/]" in result.output and "[/]Two\\x9b31m" in result.output


def test_play_shows_cardset_text_escaped() -> None:
    """play over the escapes cardset: the hand and the menu show the names escaped; a '[/]' label does not crash."""
    result = CliRunner().invoke(app, ["play", ESCAPES, "--seed", "3"], input="1\n" * 60, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert not any(code in result.output for code in RAW)
    assert "\\x1b[2J" in result.output and "Traceback" not in result.output


def test_play_answered_with_a_huge_number_re_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 5000-digit answer, or a digit Python cannot read ('²'), is out of range / not an option: play re-asks."""
    use_fake_game(monkeypatch)
    args = ["play", fakegame.NAME, "--players", "2", "--seed", "3", "--bots", "random"]
    result = CliRunner().invoke(app, args, input="9" * 5000 + "\n²\n-" + "9" * 5000 + "\n" + "1\n" * 30)
    assert result.exit_code == 0, result.output
    assert "999999999... (5,000 digits) is out of range; type a number from 1 to" in result.stdout
    assert "'²' is neither an option's number" in result.stdout
    assert "Traceback" not in result.output


@pytest.fixture
def bot_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "boom_on_import.py").write_text("raise RuntimeError('boom at import')\n")
    (tmp_path / "bad_syntax.py").write_text("def broken(:\n")
    (tmp_path / "bad_bots.py").write_text(
        "class Angry:\n    def __init__(self, seed):\n        raise ValueError('no seat for me')\n"
        "class Clumsy:\n    def __init__(self, seed):\n        pass\n"
        "    def choose(self, state):\n        return 1 / 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("bot,words", [
    ("boom_on_import:Bot", "importing it raised RuntimeError: boom at import"),
    ("bad_syntax:Bot", "a syntax error in"),
    ("bad_bots:Angry", "bot 'bad_bots:Angry' could not be made: Angry(seed) raised ValueError: no seat for me"),
    ("bad_bots:Clumsy", "bot 'bad_bots:Clumsy' failed in choose(): ZeroDivisionError: division by zero"),
])
@pytest.mark.parametrize("command", ["simulate", "play"])
def test_a_broken_user_bot_is_one_error_line(bot_modules: Path, monkeypatch: pytest.MonkeyPatch, bot: str,
                                              words: str, command: str) -> None:
    """--bots naming a module that raises on import, has a syntax error, or whose constructor or choose() raises: one line, exit 1."""
    use_fake_game(monkeypatch)
    args = [command, fakegame.NAME, "--players", "2", "--seed", "3", "--bots", bot]
    if command == "simulate":
        args += ["-n", "2", "-w", "1"]
    result = CliRunner().invoke(app, args, input="1\n" * 30)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    assert words in flat(result.stderr)
    assert len([line for line in result.stderr.splitlines() if line.startswith("error:")]) == 1


@pytest.mark.slow
def test_a_billion_games_start_at_once_and_stop_on_sigterm(tmp_path: Path) -> None:
    """simulate -n 1000000000 -w 2: the first records arrive (no MemoryError building the run); SIGTERM stops it (143)."""
    records = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulecore", "simulate", "docs/examples/tiny-game.yaml", "-n", "1000000000",
         "-w", "2", "--json", "--records", str(records)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        for _ in range(600):
            if records.exists() and records.stat().st_size > 0 or proc.poll() is not None:
                break
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()[1]
        assert records.stat().st_size > 0
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    assert proc.returncode == 143 and "MemoryError" not in err and "Traceback" not in err
