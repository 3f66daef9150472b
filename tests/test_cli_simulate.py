"""`rulecore simulate` (rulecore/cli/simulate.py), driven through typer's CliRunner against a fake game
and the real engine: the tables, determinism, JSON, bad input, a user's bot, SIGTERM."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulecore
from cli_helpers import REAL, REPO, SIM, flat, lowest_wins_game, needs_real, numbers, use_fake_game
from rulecore.cli import app


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A CliRunner whose rulecore.load_cardset/Game are the fake game's."""
    use_fake_game(monkeypatch)
    return CliRunner()


def test_simulate_prints_the_results_table(runner: CliRunner) -> None:
    """simulate prints wins and mean score per seat, rounds, decisions and speed."""
    result = runner.invoke(app, SIM + ["--bots", "random,greedy,oracle"])
    assert result.exit_code == 0, result.output
    for text in ("Seat", "Wins", "Win %", "Mean score", "Mean rounds", "Decisions per game",
                 "Games per second", "greedy", "oracle", "tied winner"):
        assert text in result.stdout


def test_simulate_table_uses_the_games_name_for_rounds(tmp_path: Path) -> None:
    """A cardset whose rounds are called hands gets 'Mean hands' in the table and 'Hand 1 begins' in its log."""
    text = Path("docs/examples/tiny-game.yaml").read_text(encoding="utf-8")
    path = tmp_path / "hands.yaml"
    path.write_text(text.replace("  rounds:\n", "  rounds:\n    label: hand\n", 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", str(path), "--games", "3", "--players", "2", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "Mean hands" in result.stdout and "Mean rounds" not in result.stdout
    state = rulecore.Game(rulecore.load_cardset(path), 2).new_game(1)
    assert [e["text"] for e in state.events() if e["type"] == "round"] == ["Hand 1 begins"]


def test_simulate_counts_the_cards_played_when_no_card_has_abilities() -> None:
    """A game whose cards have no abilities gets a Cards table of the cards the players chose (played)."""
    result = CliRunner().invoke(app, ["simulate", "docs/examples/trick-taking.yaml", "--games", "2", "--players", "4",
                                      "--workers", "1", "--cards", "5"])
    assert result.exit_code == 0, result.output
    assert "Cards (top 5 of 52, by uses per game)" in result.stdout and "Mean hands" in result.stdout
    assert "player's choice" in " ".join(result.stdout.split())


def test_simulate_same_seed_same_numbers(runner: CliRunner) -> None:
    """Two runs with the same seed print the same numbers (timings aside)."""
    first = runner.invoke(app, SIM)
    second = runner.invoke(app, SIM)
    other = runner.invoke(app, SIM[:-4] + ["--seed", "99", "--workers", "1"])
    assert first.exit_code == second.exit_code == other.exit_code == 0
    assert numbers(first.stdout) == numbers(second.stdout)
    assert numbers(first.stdout) != numbers(other.stdout)


def test_simulate_json_is_deterministic(runner: CliRunner) -> None:
    """--json prints parseable JSON whose non-timing fields repeat for the same seed."""
    first = json.loads(runner.invoke(app, SIM + ["--json"]).stdout)
    second = json.loads(runner.invoke(app, SIM + ["--json"]).stdout)
    for data in (first, second):
        data.pop("wall_time")
        data.pop("games_per_second")
    assert first == second
    assert first["games"] == 8 and "records" not in first


def test_simulate_cards_table(runner: CliRunner) -> None:
    """A game reporting card uses gets a Cards table; --cards N limits it and --cards 0 hides it."""
    full = runner.invoke(app, SIM + ["-o", "cards=true"])
    assert full.exit_code == 0, full.output
    assert "Cards (all 3, by uses per game)" in full.stdout
    for text in ("Uses/game", "Used in %", "Win % when used", "Usual win %", "take-1", "take-3"):
        assert text in full.stdout
    top = runner.invoke(app, SIM + ["-o", "cards=true", "--cards", "1"])
    assert "Cards (top 1 of 3" in top.stdout and top.stdout.count("take-") == 1
    hidden = runner.invoke(app, SIM + ["-o", "cards=true", "--cards", "0"])
    assert hidden.exit_code == 0 and "Cards (" not in hidden.stdout and "take-" not in hidden.stdout
    plain = runner.invoke(app, SIM)
    assert "Cards (" not in plain.stdout  # no card_uses: no table


def test_simulate_cards_same_seed_same_numbers(runner: CliRunner) -> None:
    """The Cards table prints the same numbers for the same seed and others for another seed."""
    args = SIM + ["-o", "cards=true"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    other = runner.invoke(app, args + ["--seed", "99"])
    assert numbers(first.stdout) == numbers(second.stdout)
    assert numbers(first.stdout) != numbers(other.stdout)


def test_simulate_cooperative_prints_team_win_rate(runner: CliRunner) -> None:
    """When all seats win or lose together, one team win rate replaces per-seat wins and ties."""
    coop = runner.invoke(app, SIM + ["--games", "20", "-o", "coop=true"])
    assert coop.exit_code == 0, coop.output
    assert re.search(r"Team win rate: \d+\.\d% \(all players win or lose together\)", coop.stdout)
    assert "Win %" not in coop.stdout and "Tied games" not in coop.stdout
    data = json.loads(runner.invoke(app, SIM + ["--games", "20", "-o", "coop=true", "--json"]).stdout)
    assert data["cooperative"] is True and data["team_win_rate"] is not None
    normal = runner.invoke(app, SIM)
    assert "Team win rate" not in normal.stdout and "Win %" in normal.stdout


def test_simulate_header_names_the_options_in_force(runner: CliRunner) -> None:
    """The header line names every option in force, given or default, so runs can be compared."""
    result = runner.invoke(app, SIM + ["--option", "heap=7", "-o", "coop=true"])
    assert result.exit_code == 0, result.output
    assert (
        "fake-nim: 8 games, 3 players, seed 4; heap=7, max_take=3, bonus=false, "
        "broken_seed=-1, cards=false, coop=true"
    ) in flat(result.stdout)


def test_simulate_reports_unfinished_games(runner: CliRunner) -> None:
    """Games stopped by --max-decisions are reported in the table."""
    result = runner.invoke(app, SIM + ["--max-decisions", "1", "--option", "heap=30"])
    assert result.exit_code == 0, result.output
    assert "Unfinished games" in result.stdout and "stopped after 1 decision)" in result.stdout


def test_simulate_options_are_typed(runner: CliRunner) -> None:
    """--option values are converted to the option's type before reaching the game."""
    result = runner.invoke(app, SIM + ["--option", "heap=7", "-o", "bonus=yes", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["options"] == {"heap": 7, "bonus": True}


@pytest.mark.parametrize(
    "args, code, text",
    [
        (["--option", "heap"], 2, "key=value"),
        (["--option", "nosuch=1"], 1, "unknown option 'nosuch'"),
        (["--option", "heap=lots"], 1, "whole number"),
        (["--option", "max_take=9"], 1, "must be one of"),
        (["--bots", "wizard"], 1, "valid bots are"),
        (["--backend", "spark"], 1, "valid backends"),
    ],
)
def test_simulate_bad_input_is_a_clean_error(
    runner: CliRunner, args: list[str], code: int, text: str
) -> None:
    """Bad --option/--bots/--backend exit 1 (data) or 2 (usage) with a message, no traceback."""
    result = runner.invoke(app, SIM + args)
    assert result.exit_code == code
    assert text in result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, (KeyError, ValueError, TypeError))


REAL_SIM = ["simulate", REAL, "--games", "3", "--players", "4", "--seed", "1", "--workers", "1"]


@needs_real
def test_real_game_simulate_same_seed_same_numbers() -> None:
    """simulate on the real game prints the table, with the same numbers for the same seed."""
    first = CliRunner().invoke(app, REAL_SIM)
    second = CliRunner().invoke(app, REAL_SIM)
    assert first.exit_code == 0, first.output
    assert "Mean score" in first.stdout and "witching-hour: 3 games" in first.stdout
    assert numbers(first.stdout) == numbers(second.stdout)


@needs_real
def test_real_game_without_rounds_has_no_mean_rounds_line() -> None:
    """A game whose flow has no rounds gets no 'Mean rounds' line; one with rounds does."""
    without = CliRunner().invoke(app, ["simulate", "witty-witches", "--games", "2", "--players", "3", "--workers", "1"])
    with_rounds = CliRunner().invoke(app, REAL_SIM)
    assert without.exit_code == 0, without.output
    assert "Decisions per game" in without.stdout and "Mean rounds" not in without.stdout
    assert "Mean rounds" in with_rounds.stdout


@needs_real
def test_piped_output_does_not_cut_card_names() -> None:
    """Without a terminal the cards table is as wide as its contents: long card names are whole."""
    result = CliRunner().invoke(
        app, ["simulate", "approaching-dawn", "--games", "3", "--players", "2", "--workers", "1"], env={"COLUMNS": None}
    )
    assert result.exit_code == 0, result.output
    assert "scene_all_hallows_eve" in result.stdout
    assert "…" not in result.stdout


@needs_real
def test_real_game_bad_option_is_a_clean_error() -> None:
    """An option the real cardset does not have exits 1 with a message and no traceback."""
    result = CliRunner().invoke(app, REAL_SIM + ["--option", "colour=red"])
    assert result.exit_code == 1
    assert "colour" in result.stderr and "Traceback" not in result.output


def test_simulate_plays_a_users_bot_named_module_attr(runner: CliRunner, tmp_path, monkeypatch) -> None:
    """--bots accepts module:attr (its case kept) for a bot of the user's own, beside built-in bots."""
    (tmp_path / "cli_user_bots.py").write_text(
        "class FirstChoice:\n"
        "    def __init__(self, seed):\n"
        "        pass\n"
        "    def choose(self, state):\n"
        "        return state.legal_actions()[0]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, SIM + ["--bots", "random,cli_user_bots:FirstChoice,greedy"])
    assert result.exit_code == 0, result.output
    assert "cli_user_bots:FirstChoice" in result.stdout
    missing = runner.invoke(app, SIM + ["--bots", "random,cli_user_bots:Nope,greedy"])
    assert missing.exit_code != 0 and "Nope" in missing.output


def _group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of a process group, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rpartition(")")[2].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry))
    return found


def _wait_for(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


@needs_real
@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc") or not hasattr(os, "killpg"), reason="needs /proc")
def test_sigterm_ends_workers_and_closes_stdout() -> None:
    """SIGTERM to `rulecore simulate --workers 2` leaves no process of its group alive and closes stdout."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulecore", "simulate", REAL, "--games", "100000", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: pgid == pid
    )
    try:
        # the main process, two workers and the resource tracker
        assert _wait_for(lambda: len(_group_members(proc.pid)) >= 4, 60), "workers did not start"
        time.sleep(1.0)  # let the workers finish starting up and take games
        proc.terminate()
        _, err = proc.communicate(timeout=30)  # returns only once every holder of stdout is gone
        assert proc.returncode == 143, err
        assert b"terminated" in err and b"Traceback" not in err
        assert _wait_for(lambda: not _group_members(proc.pid), 10), _group_members(proc.pid)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def test_records_go_to_a_file_as_json_lines(runner: CliRunner, tmp_path: Path) -> None:
    """--records FILE writes one JSON line per game in game order (with or without --json); the figures do not change."""
    path = tmp_path / "games.jsonl"
    plain = json.loads(runner.invoke(app, SIM + ["--json"]).stdout)
    result = runner.invoke(app, SIM + ["--json", "--records", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for figures in (plain, data):
        figures.pop("wall_time")
        figures.pop("games_per_second")
    assert data == plain
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["index"] for r in lines] == list(range(8))
    assert sum(1 for r in lines if 0 in r["winners"]) == data["wins"][0]
    table = runner.invoke(app, SIM + ["--records", str(tmp_path / "again.jsonl")])
    assert table.exit_code == 0 and (tmp_path / "again.jsonl").read_text(encoding="utf-8") == path.read_text(
        encoding="utf-8")


def test_records_file_that_cannot_be_written_is_one_error_line(runner: CliRunner, tmp_path: Path) -> None:
    """--records into a missing folder: one error line naming the file, exit 1, no game played."""
    result = runner.invoke(app, SIM + ["--records", str(tmp_path / "no" / "such.jsonl")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "error: cannot write the records to" in flat(result.stderr) and result.stdout == ""


def test_results_table_says_when_the_lowest_score_wins(tmp_path: Path) -> None:
    """A game whose winners are the lowest totals heads the score column 'Mean score (lowest wins)'; others do not."""
    tiny = str(REPO / "docs" / "examples" / "tiny-game.yaml")
    args = ["--games", "2", "--players", "2", "--workers", "1"]
    lowest = CliRunner().invoke(app, ["simulate", str(lowest_wins_game(tmp_path)), *args])
    highest = CliRunner().invoke(app, ["simulate", tiny, *args])
    assert lowest.exit_code == highest.exit_code == 0, lowest.output + highest.output
    assert "Mean score (lowest wins)" in lowest.stdout
    assert "Mean score" in highest.stdout and "lowest" not in highest.stdout


def test_counts_of_one_are_singular(runner: CliRunner) -> None:
    """The header and the summary say '1 game' and '1 decision', not '1 games' and '1 decisions'."""
    result = runner.invoke(app, SIM + ["--games", "1", "--max-decisions", "1", "--option", "heap=30"])
    assert result.exit_code == 0, result.output
    assert "fake-nim: 1 game, 3 players, seed 4" in flat(result.stdout)
    assert "(stopped after 1 decision)" in flat(result.stdout)
