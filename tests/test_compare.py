"""rulecore.simulate.compare and `rulecore compare`: paired games, the figures and their intervals, the
per-decision metrics, --json's shape, --until-clear, workers, Ctrl-C and the worked example of docs/compare.md."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulecore
from rulecore.cli import app

from cli_helpers import flat

np = pytest.importorskip("numpy", reason="rulecore compare needs numpy (rulecore[compare])")

from rulecore.simulate import Comparison, compare, simulate  # noqa: E402
from rulecore.simulate.paired.figures import look_level, margin, spent, wilson  # noqa: E402
from rulecore.simulate.paired.games import _lead_figures  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "docs" / "examples"
TALK = str(EXAMPLES / "witty-witches-table-talk.yaml")
QUIET = str(EXAMPLES / "witty-witches-quiet-dealer.yaml")
KEYS = ["name", "seat", "base", "variant", "difference", "low", "high", "clear"]


def _by_name(c: Comparison) -> dict[tuple[str, int | None], object]:
    return {(f.name, f.seat): f for f in c.figures}


def test_wilson_interval_matches_the_textbook() -> None:
    """Wilson's interval for 8 of 10 is [0.490, 0.943] (Newcombe 1998), and None for no games."""
    low, high = wilson(8, 10)  # type: ignore[misc]
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson(0, 0) is None


def test_margin_follows_the_winning_end_of_the_totals() -> None:
    """The margin is between the best two totals: the lowest two where the lowest total wins."""
    assert margin((10, 3, 7), "lowest") == 4
    assert margin((10, 3, 7), "highest") == 3
    assert margin((10, 3, 7), None) == 3
    assert math.isnan(margin((5,), None))


def test_lead_figures_from_the_leaders_after_each_decision() -> None:
    """Lead changes count changes of the sole leader; decisiveness, drama and the curve follow the winner."""
    a, b, both = 1, 2, 3  # masks: seat 0 leads, seat 1 leads, tied
    masks = [a, a, both, b, b, a, b, b, b, b]  # seat 1 wins, leading alone from decision 6 (index 6) on
    changes, decisive, drama, curve = _lead_figures(masks, (1,))
    assert changes == 3  # a -> b, b -> a, a -> b (the tie is skipped)
    assert decisive == pytest.approx(1 - 6 / 10)
    assert drama == pytest.approx(3 / 10)  # seat 1 behind after decisions 1, 2 and 6
    assert curve == (0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0)
    assert _lead_figures(masks, (0, 1))[1:] == (None, None, None)  # no single winner


def test_alpha_spending_spends_alpha_over_the_looks() -> None:
    """The looks' levels spend exactly alpha in all (Pocock-type spending), the most at the first look."""
    looks = [0, 20, 40, 60, 80, 100]
    spends = [1 - look_level(a, b, 100, 0.05) for a, b in zip(looks, looks[1:])]
    assert sum(spends) == pytest.approx(0.05)
    assert spends == sorted(spends, reverse=True)
    assert spent(1.0, 0.05) == pytest.approx(0.05)


def test_a_variant_cardset_is_compared_game_for_game() -> None:
    """compare() plays the same seeds on both sides: every figure has both values and a difference interval."""
    c = compare("witty-witches", TALK, games=12, players=2, seed=3, workers=1)
    assert c.games == 12 and c.base == "witty-witches" and c.variant == "witty-witches-table-talk"
    figures = _by_name(c)
    for key in (("win_rate", 0), ("win_rate", 1), ("first_player_advantage", None), ("ties", None),
                ("unfinished", None), ("decisions", None), ("turns", None), ("branching_factor", None),
                ("lead_changes", None), ("decisiveness", None), ("drama", None)):
        assert key in figures, key
    decisions = figures[("decisions", None)]
    assert decisions.low <= decisions.difference <= decisions.high  # type: ignore[attr-defined]


def test_identical_games_differ_by_exactly_zero() -> None:
    """Two sides that play the same games (an option nobody reads changed to its default) differ by 0, never clear."""
    c = compare("witty-witches", games=8, players=2, workers=1, base_bots="random", variant_bots=["random", "random"],
                base_options={}, variant_options={"mode": "master"}, options={"table_talk": False})
    for figure in c.figures:
        assert figure.difference in (0.0, None) and not figure.clear, figure


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    """One worker and two worker processes give the same figures and intervals, bit for bit."""
    one = compare("witty-witches", TALK, games=10, players=2, seed=5, workers=1)
    two = compare("witty-witches", TALK, games=10, players=2, seed=5, workers=2)
    assert one.to_json() == two.to_json()


def test_options_and_bots_are_sides_too() -> None:
    """Two option settings, or two bot line-ups, of one cardset compare like two cardsets, labelled by what differs."""
    by_option = compare("witty-witches", games=6, players=2, workers=1, variant_options={"table_talk": True})
    assert by_option.variant == "witty-witches (table_talk=True)" and by_option.base == "witty-witches (default options)"
    by_bots = compare("witty-witches", games=4, players=2, workers=1, variant_bots=["greedy", "random"])
    assert by_bots.variant == "witty-witches (bots greedy,random)"


def test_the_same_side_twice_is_refused() -> None:
    """Comparing a game with itself is an error that says what to give."""
    with pytest.raises(rulecore.RulecoreError, match="give a VARIANT cardset, variant options or variant bots"):
        compare("witty-witches", games=2, players=2, workers=1)


def test_bad_arguments_are_refused_cleanly() -> None:
    """Bad games, workers and backends are RulecoreErrors naming the argument."""
    with pytest.raises(rulecore.RulecoreError, match="games must be"):
        compare("witty-witches", TALK, games=0, players=2)
    with pytest.raises(rulecore.RulecoreError, match="unknown backend"):
        compare("witty-witches", TALK, games=2, players=2, backend="spark")


def test_the_lowest_total_wins_side_says_which_way_is_better() -> None:
    """Witching Hour's winners are the lowest totals: its score figures say lower is better; others say nothing."""
    c = compare("witching-hour", str(EXAMPLES / "witching-hour-broom.yaml"), games=2, players=3, workers=1,
                roots=[str(EXAMPLES)])
    assert {f.better for f in c.figures if f.name == "score"} == {"lower"}
    assert {f.better for f in c.figures if f.name != "score"} == {None}
    assert any(f.name == "card_uses:broom" for f in c.figures) and any(f.name == "score_margin" for f in c.figures)


def test_cards_without_abilities_count_the_cards_the_seats_chose() -> None:
    """In a cardset whose cards have no abilities (Witty Witches), a seat's choice of a card is its use, counted as
    simulate counts it: the base side's card_uses are simulate's uses per game, and card lifts appear."""
    c = compare("witty-witches", TALK, games=12, players=2, seed=3, workers=1)
    uses = {f.name.removeprefix("card_uses:"): f.base for f in c.figures if f.name.startswith("card_uses:") and f.base}
    same = simulate("witty-witches", games=12, players=2, seed=3, workers=1)
    played = {stats.card: stats.uses_per_game for stats in same.card_stats if stats.uses_per_game}
    assert played and uses == pytest.approx(played)
    assert any(f.name.startswith("card_lift:") and f.difference is not None for f in c.figures)


def test_cooperative_games_report_the_team_win_rate() -> None:
    """In a game all seats win or lose together, the team win rate replaces the per-seat win rates."""
    c = compare("approaching-dawn", games=3, players=2, workers=1, variant_options={"scene": "training-day"})
    names = {f.name for f in c.figures}
    assert "team_win_rate" in names and "win_rate" not in names


def test_json_has_exactly_the_documented_shape() -> None:
    """--json prints base, variant, games and one entry per figure with exactly the documented keys."""
    result = CliRunner().invoke(app, ["compare", "witty-witches", TALK, "-n", "6", "-w", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["base", "variant", "games", "figures"] and data["games"] == 6
    assert all(list(entry) == KEYS for entry in data["figures"])
    assert {"win_rate", "decisions", "turns", "branching_factor", "drama"} <= {e["name"] for e in data["figures"]}


def test_the_table_marks_clear_differences() -> None:
    """The terminal table has both values, the difference, its interval and a star where it excludes zero."""
    result = CliRunner().invoke(app, ["compare", "witty-witches", "--variant-option", "table_talk=true", "-n", "40",
                                      "-w", "1", "--seed", "1"])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.startswith("│ decisions"))
    assert "*" in row
    assert "win_rate (seat 0)" in result.stdout and "95% interval" in result.stdout


def test_until_clear_stops_early_when_the_watched_figure_is_clear() -> None:
    """--until-clear stops at the first look where every watched figure is clear, and says none stayed unclear."""
    c = compare("witty-witches", TALK, games=400, players=2, seed=1, workers=1, until_clear=True, batch=40,
                watch=["decisions"])
    assert c.games < 400 and c.looks == c.games // 40 and c.unclear == ()
    assert next(f for f in c.figures if f.name == "decisions").clear


def test_until_clear_names_the_figures_that_stayed_unclear() -> None:
    """When the budget runs out first, the watched figures still unclear are named."""
    c = compare("witty-witches", QUIET, games=40, players=2, seed=1, workers=1, until_clear=True, batch=20,
                watch=["win_rate"])
    assert c.games == 40 and c.looks == 2 and c.unclear == ("win_rate",)


def _until_clear(variant: str, games: int, watch: str, *extra: str) -> str:
    """`rulecore compare witty-witches VARIANT --until-clear` in batches of 20 games, seed 1, in this process."""
    result = CliRunner().invoke(app, ["compare", "witty-witches", variant, "-n", str(games), "--seed", "1", "-w", "1",
                                      "--until-clear", "--batch", "20", "--watch", watch, *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_until_clear_on_the_command_line_names_the_figures_that_stayed_unclear() -> None:
    """`compare --until-clear` prints its looks, the games played of the budget, what it watched and what stayed
    unclear, and the table's intervals are at the level of the last look, not 95%."""
    out = flat(_until_clear(QUIET, 40, "win_rate"))
    assert "--until-clear: 2 looks at 40 of 40 games; watched: win_rate" in out
    assert "stayed unclear: win_rate" in out and "every watched figure is clear" not in out
    assert f"{100 * look_level(20, 40, 40, 0.05):.3g}% interval" in out and "95% interval" not in out


def test_until_clear_on_the_command_line_says_when_it_stopped_early() -> None:
    """`compare --until-clear` stops at the first batch after which the watched figure is clear, and says so."""
    out = flat(_until_clear(TALK, 400, "decisions"))
    looks, games = map(int, re.findall(r"--until-clear: (\d+) looks? at (\d+) of 400 games; watched: decisions",
                                       out)[0])
    assert games < 400 and games == 20 * looks
    assert "every watched figure is clear" in out and "stayed unclear" not in out


def test_until_clear_json_adds_the_looks_and_the_unclear_figures() -> None:
    """`compare --until-clear --json` prints the documented keys and an until_clear entry: budget, looks, the level
    of the last look, the watched figures and those that stayed unclear."""
    data = json.loads(_until_clear(QUIET, 40, "win_rate", "--json"))
    assert list(data) == ["base", "variant", "games", "figures", "until_clear"] and data["games"] == 40
    assert all(list(entry) == KEYS for entry in data["figures"])
    assert data["until_clear"] == {"budget": 40, "looks": 2, "level": pytest.approx(look_level(20, 40, 40, 0.05)),
                                   "watched": ["win_rate"], "unclear": ["win_rate"]}
    assert {e["name"] for e in data["figures"] if not e["clear"]} >= {"win_rate"}


def test_a_missing_variant_file_is_a_clean_error() -> None:
    """A VARIANT that is no cardset exits 1 with a one-line message, no traceback."""
    result = CliRunner().invoke(app, ["compare", "witty-witches", "no-such-game.yaml", "-n", "2"])
    assert result.exit_code == 1 and "error:" in result.stderr and "Traceback" not in result.output


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "killpg") or not hasattr(os, "openpty"), reason="needs process groups and a pty")
def test_ctrl_c_prints_what_was_measured_so_far() -> None:
    """Ctrl-C (SIGINT to the process group) stops the workers and prints the table of the games measured so far."""
    master, slave = os.openpty()  # a terminal: the progress bar says when games are done
    proc = subprocess.Popen([sys.executable, "-m", "rulecore", "compare", "witty-witches", TALK, "-n", "100000",
                             "-w", "2"], stdout=slave, stderr=subprocess.PIPE, cwd=REPO, start_new_session=True)
    os.close(slave)
    out = b""

    def read(seconds: float) -> bool:
        nonlocal out
        ready, _, _ = select.select([master], [], [], seconds)
        if not ready:
            return True
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            return False
        out += chunk
        return bool(chunk)

    try:
        deadline = time.monotonic() + 240
        while not re.search(rb"seat 0: ", out) and time.monotonic() < deadline and read(0.5):
            pass
        assert re.search(rb"seat 0: ", out), out
        os.killpg(proc.pid, signal.SIGINT)
        while read(1.0) and proc.poll() is None:
            pass
        _, err = proc.communicate(timeout=60)
        while read(0.1):
            pass
        assert proc.returncode == 130, err
        assert b"paired games (seed 0" in out and b"decisions" in out, out + err
        assert b"interrupted after" in err and b"of 100000" in err and b"Traceback" not in err
    finally:
        os.close(master)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.mark.slow
def test_worked_example_of_the_guide() -> None:
    """docs/compare.md: at 200 games, seed 1, table talk moves decisions clearly and the quiet dealer does not."""
    talk = compare("witty-witches", TALK, games=200, players=2, seed=1, workers=2)
    quiet = compare("witty-witches", QUIET, games=200, players=2, seed=1, workers=2)
    talk_d = next(f for f in talk.figures if f.name == "decisions")
    quiet_d = next(f for f in quiet.figures if f.name == "decisions")
    assert talk_d.clear and talk_d.low > 100  # type: ignore[operator]
    assert not quiet_d.clear
    assert not any(f.clear for f in quiet.figures if f.name in ("win_rate", "turns", "drama", "decisiveness"))
    # the numbers the guide quotes
    assert (round(talk_d.base), round(talk_d.variant)) == (149, 303)  # type: ignore[arg-type]
    # the per-card figures it quotes (Witty Witches' cards have no abilities: a use is a seat's choice of the card)
    talk_uses = [f for f in talk.figures if f.name.startswith("card_uses:")]
    assert len(talk_uses) == 40 and sum(f.clear for f in talk_uses) == 32
    cauldron = next(f for f in talk_uses if f.name == "card_uses:witch_cauldron_yellow")
    assert (round(cauldron.base, 2), round(cauldron.variant, 2)) == (2.04, 3.58)  # type: ignore[arg-type]
    assert {f.name for f in talk.figures if f.name.startswith("card_lift:") and f.clear} == {
        "card_lift:witch_spellbook_yellow"}
    # a curse's lift excludes zero (past -100%) over a handful of pairs: not marked (MIN_SUPPORT)
    curse = next(f for f in talk.figures if f.name == "card_lift:curse_cauldron")
    assert curse.high < 0 and curse.low < -1 and not curse.clear  # type: ignore[operator]
    assert {f.name for f in quiet.figures if f.name.startswith("card_") and f.clear} == {
        "card_lift:dragon_cauldron_yellow"}


@pytest.mark.slow
def test_dask_gives_the_same_figures_as_the_local_backend() -> None:
    """--backend dask (a LocalCluster started for the run) gives the local backend's figures, bit for bit."""
    pytest.importorskip("distributed", reason="needs dask[distributed] (rulecore[dask])")
    local = compare("witty-witches", TALK, games=6, players=2, seed=2, workers=1)
    dask = compare("witty-witches", TALK, games=6, players=2, seed=2, workers=1, backend="dask")
    assert local.to_json() == dask.to_json()
