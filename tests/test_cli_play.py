"""`rulecore play` (rulecore/cli/play.py), driven through typer's CliRunner with scripted input, against a
fake game and the real engine."""

from __future__ import annotations

import difflib
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

import fakegame
import rulecore
from cli_helpers import REAL, REPO, flat, lowest_wins_game, needs_real, use_fake_game
from rulecore.cli import app


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A CliRunner whose rulecore.load_cardset/Game are the fake game's."""
    use_fake_game(monkeypatch)
    return CliRunner()


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
    assert "2 bots given for 1 other seat;" in result.stderr


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
    assert "The lowest total wins." in result.stdout  # Witching Hour: winners are lowest(players, total of it)


def test_play_says_when_the_lowest_total_wins(tmp_path: Path) -> None:
    """At the end of a game whose winners are the lowest totals, the score table says so; otherwise it does not."""
    tiny = str(REPO / "docs" / "examples" / "tiny-game.yaml")
    lowest = CliRunner().invoke(app, ["play", str(lowest_wins_game(tmp_path)), "--seed", "1"], input="1\n" * 100)
    highest = CliRunner().invoke(app, ["play", tiny, "--seed", "1"], input="1\n" * 100)
    assert "Game over" in lowest.stdout and "Game over" in highest.stdout
    assert "The lowest total wins." in lowest.stdout
    assert "lowest" not in highest.stdout


PROMPT = re.compile(r"(Choose 1-\d+ or a name \(\? help, q quit\): )")


def documented_session(doc: Path) -> list[str]:
    """The example session of a doc: the indented block that starts with `$ rulecore play ...`, unindented."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    $ rulecore play "))
    block: list[str] = []
    for line in lines[start:]:
        if line and not line.startswith("    "):
            break
        block.append(line[4:].rstrip())
    while block and not block[-1]:
        block.pop()
    return block


def screen_of(block: list[str]) -> list[str]:
    """What a terminal shows when the session's command runs and the person types the session's answers."""
    args = shlex.split(block[0].removeprefix("$ rulecore "))
    answers = [PROMPT.split(line)[-1] for line in block if PROMPT.match(line)]
    result = CliRunner().invoke(app, args, input="".join(a + "\n" for a in answers), env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    typed = iter(answers)  # a terminal echoes what is typed after each prompt
    parts = PROMPT.split(result.stdout)
    shown = "".join(part + (next(typed) + "\n" if PROMPT.fullmatch(part) else "") for part in parts)
    return [block[0], *(line.rstrip() for line in shown.splitlines())]


def fits(expected: list[str], actual: list[str]) -> bool:
    """The lines are equal, where a line '...' in the expected ones stands for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(fits(expected[1:], actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and fits(expected[1:], actual[1:])


def test_play_md_shows_what_play_prints() -> None:
    """docs/play.md's example session is what `rulecore play` prints for its command and the answers it shows."""
    block = documented_session(REPO / "docs" / "play.md")
    actual = screen_of(block)
    assert fits(block, actual), "\n".join(difflib.unified_diff(block, actual, "docs/play.md", "rulecore play",
                                                              lineterm=""))


def test_play_card_text_writes_values_in_the_languages_words() -> None:
    """`? CARD` shows a property written 'none' as none (not Python's None)."""
    cs = rulecore.load_cardset("approaching-dawn")
    card = next(c for c in cs.cards.values() if "icon" in c.props and c.props["icon"] is None)
    result = CliRunner().invoke(app, ["play", "approaching-dawn", "--seed", "1"], input=f"? {card.name}\nq\n")
    assert result.exit_code == 0, result.output
    assert "  icon: none" in result.stdout.splitlines()
    assert "None" not in result.stdout
