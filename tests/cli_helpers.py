"""Helpers of the command-line tests: the fake game in place of the real one, the numbers of an output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import fakegame
import rulecore

#: simulate the fake game: 8 games, 3 players, seed 4, in this process
SIM = ["simulate", fakegame.NAME, "--games", "8", "--players", "3", "--seed", "4", "--workers", "1"]

REPO = Path(__file__).resolve().parent.parent

#: a built-in game for the tests that run the real engine
REAL = "witching-hour"
needs_real = pytest.mark.skipif(REAL not in rulecore.builtin_cardsets(), reason="built-in cardset not available")


def use_fake_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """rulecore.load_cardset and rulecore.Game become the fake game's (tests/fakegame.py)."""
    monkeypatch.setattr(rulecore, "load_cardset", fakegame.load_cardset, raising=False)
    monkeypatch.setattr(rulecore, "Game", fakegame.Game, raising=False)


def numbers(text: str) -> list[str]:
    """Every number in the output, except on the timing lines."""
    kept = [
        line for line in text.splitlines() if "per second" not in line and "Wall time" not in line
    ]
    return re.findall(r"\d+(?:\.\d+)?", "\n".join(kept))


def flat(text: str) -> str:
    """The output with line wrapping undone."""
    return " ".join(text.split())


def lowest_wins_game(folder: Path) -> Path:
    """docs/examples/tiny-game.yaml with its winners turned round: the lowest points win."""
    text = (REPO / "docs" / "examples" / "tiny-game.yaml").read_text(encoding="utf-8")
    assert "winners: highest(players, points of it)" in text
    path = folder / "lowest-wins.yaml"
    path.write_text(text.replace("winners: highest(", "winners: lowest("), encoding="utf-8")
    return path
