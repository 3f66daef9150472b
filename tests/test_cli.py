"""The rulecore command (simulate, play) driven through typer's CliRunner against a fake game."""

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
from typing import Any
from pathlib import Path

import pytest
from typer.testing import CliRunner

import fakegame
import rulecore
from rulecore.cli import app, parse_options, render_view


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A CliRunner whose rulecore.load_cardset/Game are the fake game's."""
    monkeypatch.setattr(rulecore, "load_cardset", fakegame.load_cardset, raising=False)
    monkeypatch.setattr(rulecore, "Game", fakegame.Game, raising=False)
    return CliRunner()


def numbers(text: str) -> list[str]:
    """Every number in the output, except on the timing lines."""
    kept = [
        line for line in text.splitlines() if "per second" not in line and "Wall time" not in line
    ]
    return re.findall(r"\d+(?:\.\d+)?", "\n".join(kept))


SIM = ["simulate", fakegame.NAME, "--games", "8", "--players", "3", "--seed", "4", "--workers", "1"]


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


def test_simulate_leaves_out_the_cards_table_when_no_card_was_used() -> None:
    """A game whose cards have no abilities prints no table of zeros."""
    result = CliRunner().invoke(app, ["simulate", "docs/examples/trick-taking.yaml", "--games", "2", "--players", "4",
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "Cards (" not in result.stdout and "Mean hands" in result.stdout


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
    first = json.loads(runner.invoke(app, SIM + ["--json", "--records"]).stdout)
    second = json.loads(runner.invoke(app, SIM + ["--json", "--records"]).stdout)
    for data in (first, second):
        data.pop("wall_time")
        data.pop("games_per_second")
    assert first == second
    assert first["games"] == 8 and len(first["records"]) == 8


def flat(text: str) -> str:
    """The output with line wrapping undone."""
    return " ".join(text.split())


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
    assert "Unfinished games" in result.stdout and "stopped after 1 decisions" in result.stdout


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


def test_unknown_cardset_is_a_clean_error(runner: CliRunner) -> None:
    """A cardset that does not load exits 1 with the library's message."""
    result = runner.invoke(app, ["simulate", "no-such-game", "--games", "1"])
    assert result.exit_code == 1
    assert "error: unknown cardset 'no-such-game'" in result.stderr
    assert "Traceback" not in result.output


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


def test_unknown_builtin_name_lists_the_builtin_cardsets() -> None:
    """A misspelt game name is an unknown cardset with a guess and the built-in names, not a data problem."""
    result = CliRunner().invoke(app, ["simulate", "witchin-hour", "--games", "1"])
    assert result.exit_code == 1
    err = flat(result.stderr)
    assert "error: unknown cardset 'witchin-hour'; did you mean 'witching-hour'?" in err
    assert "built-in cardsets: " + ", ".join(rulecore.builtin_cardsets()) in err
    assert "problem in card data" not in err


def play_args(*extra: str) -> list[str]:
    return ["play", fakegame.NAME, "--players", "2", "--seed", "3", "--bots", "random", *extra]


def test_play_with_scripted_input(runner: CliRunner) -> None:
    """play re-asks on bad input, applies numbered choices, shows bot moves and the result."""
    script = "abc\n0\n\n99\n" + "1\n" * 30
    result = runner.invoke(app, play_args(), input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "you are seat 0 of 2" in out
    assert "'abc' is neither an option's number" in out
    assert "0 is out of range" in out
    assert "Please type a number" in out
    assert "99 is out of range" in out
    assert "1. Take 1 stone(s)" in out
    assert "heap:" in out  # the view is rendered
    assert "Seat 1 takes" in out  # the bot's move is shown through events
    assert "Game over" in out and "Winner" in out
    assert "Total" in out and "Scores" in out  # the score table of result()


def test_play_takes_an_option_by_name(runner: CliRunner) -> None:
    """An option may be typed by an unambiguous, case-insensitive start of its name; an ambiguous one re-asks."""
    by_number = runner.invoke(app, play_args(), input="3\n" + "1\n" * 30)
    by_name = runner.invoke(app, play_args(), input="take 3\n" + "1\n" * 30)
    shouted = runner.invoke(app, play_args(), input="TAKE 3 STONE(S)\n" + "1\n" * 30)
    ambiguous = runner.invoke(app, play_args(), input="take\nq\n")
    assert by_name.exit_code == 0, by_name.output
    strip = lambda text: text.replace("take 3", "3").replace("TAKE 3 STONE(S)", "3")  # noqa: E731
    assert strip(by_name.stdout) == strip(shouted.stdout) == by_number.stdout
    assert "'take' fits 3 options (Take 1 stone(s), Take 2 stone(s), Take 3 stone(s))" in ambiguous.stdout


def test_play_shows_changes_and_the_table_on_request(runner: CliRunner) -> None:
    """The table is shown whole once, then only its changed lines; t shows it whole again."""
    quiet = runner.invoke(app, play_args(), input="1\n1\n1\nq\n")
    asked = runner.invoke(app, play_args(), input="1\nt\n1\nq\n")
    assert quiet.stdout.count("Your view (seat 0)") == 1
    assert "Changed (t: the whole table):" in quiet.stdout and "heap:" in quiet.stdout.split("Changed")[1]
    assert asked.stdout.count("Your view (seat 0)") == 2


def test_play_help_lists_the_commands(runner: CliRunner) -> None:
    """? alone explains what may be typed; ? CARD on a game without card texts says so."""
    result = runner.invoke(app, play_args(), input="?\n? stone\nq\n")
    out = flat(result.stdout)
    assert "t or table: the whole table" in out and "? CARD" in out
    assert "this game has no card texts" in out


def test_play_same_seed_same_game(runner: CliRunner) -> None:
    """The same seed and the same input replay the same game."""
    first = runner.invoke(app, play_args(), input="1\n" * 30)
    second = runner.invoke(app, play_args(), input="1\n" * 30)
    assert first.stdout == second.stdout


def test_play_eof_exits_cleanly(runner: CliRunner) -> None:
    """End of input leaves the game with a message and exit code 0."""
    result = runner.invoke(app, play_args(), input="")
    assert result.exit_code == 0
    assert "Input closed; game abandoned" in result.stdout
    assert "Traceback" not in result.output


def test_play_quit(runner: CliRunner) -> None:
    """Typing q leaves the game with a message."""
    result = runner.invoke(app, play_args(), input="q\n")
    assert result.exit_code == 0
    assert "You left the game" in result.stdout


def test_play_bot_count_must_fit(runner: CliRunner) -> None:
    """Giving more bots than other seats is a clean error."""
    result = runner.invoke(app, play_args("--bots", "random,greedy"), input="1\n")
    assert result.exit_code == 1
    assert "2 bots given for 1 other seats" in result.stderr


def test_parse_options_converts_by_spec() -> None:
    """parse_options converts ints, bools and choices using the cardset's option specs."""
    specs = fakegame.FakeCardset().options
    assert parse_options(["heap=12", "max_take=2", "bonus=false"], specs) == {
        "heap": 12,
        "max_take": 2,
        "bonus": False,
    }


def test_render_view_is_readable() -> None:
    """render_view shows scalars, zones as counts/cards by name, per-seat numbers, no decision."""
    view = {
        "round": 2,
        "zones": {"hand/0": {"count": 2, "cards": ["bell", "book"]}, "hex/1": {"count": 3}},
        "counters": {"total": [4, 7]},
        "players": [{"name": "Ann", "score": 4}],
        "decision": {"prompt": "hidden from the view text"},
        "card_names": {"bell": "Bell", "book": "Book"},
    }
    text = render_view(view, seat=0, players=2)
    assert "round: 2" in text
    assert "hand/0 (you) (2): Bell, Book" in text
    assert "hex/1 (3)" in text
    assert "total: you 4, seat 1 7" in text
    assert "players (1): Ann" in text
    assert "hidden from the view text" not in text and "card names" not in text


def test_render_view_leaves_out_empty_entries() -> None:
    """Top-level entries with nothing in them (no vars, no marks on anyone) are not shown; zeros are."""
    view = {"round": 0, "vars": {}, "marks": [[], [], []], "flags": {"a": [], "b": {}}, "zones": {"deck": {"count": 0}}}
    text = render_view(view, seat=0, players=3)
    assert "round: 0" in text and "deck (0)" in text
    assert "vars" not in text and "marks" not in text and "flags" not in text


def test_no_command_prints_help() -> None:
    """Running rulecore without a command shows usage and lists every command."""
    result = CliRunner().invoke(app, [])
    assert "simulate" in result.output and "play" in result.output
    assert "validate" in result.output and "explain" in result.output and "schema" in result.output


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

REAL = "witching-hour"
needs_real = pytest.mark.skipif(
    REAL not in rulecore.builtin_cardsets(), reason="built-in cardset not available"
)
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


@needs_real
def test_real_game_play_scripted() -> None:
    """play on the real game: bad input re-asks, numbers play, EOF ends cleanly."""
    script = "zero\n0\n\n" + "1\n" * 25
    result = CliRunner().invoke(
        app, ["play", REAL, "--players", "3", "--seed", "2", "--bots", "random,greedy"], input=script
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'zero' is neither an option's number" in out and "0 is out of range" in out
    assert "Your view (seat 0)" in out and "hand/0 (you)" in out
    assert "Input closed; game abandoned" in out  # 25 answers do not finish a game
    assert "Traceback" not in result.output


@needs_real
def test_real_game_play_shows_a_cards_text() -> None:
    """? CARD and help CARD show the card's text and its abilities rendered as effect text."""
    result = CliRunner().invoke(
        app, ["play", REAL, "--players", "2", "--seed", "2"], input="? chalice\nhelp Familiar\n? chalic\n? zzz\nq\n"
    )
    assert result.exit_code == 0, result.output
    out = flat(result.stdout)
    assert "Chalice (x4) Play into any player's Hex pile" in out
    assert "move this to hex of target" in out  # the ability, rendered back from its effect tree
    assert "Familiar (x6)" in out and "answers 'attacked'" in out
    assert out.count("Chalice (x4)") == 2  # an unambiguous start of a name is enough
    assert "no card 'zzz'" in out


@pytest.mark.slow
@needs_real
def test_real_game_play_to_the_end() -> None:
    """A person always answering 1 plays a real game to the end and sees the score table."""
    result = CliRunner().invoke(
        app, ["play", REAL, "--players", "2", "--seed", "4"], input="1\n" * 600
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout and "Total" in result.stdout


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
