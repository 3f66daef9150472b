"""Shared helpers for the engine tests: a tiny inline cardset whose flow is the effect text under test.

The ``tiny`` fixture builds a small YAML cardset around a piece of effect text (the body of
its only phase), loads it with ``load_cardset_text(text, "inline.yaml")`` and runs it.

Card instances of the tiny cardset, in id order: apple 0, 1, 2; bean 3, 4; coin 5.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import textwrap
from typing import Any

import pytest

import rulecore
from rulecore.cardset.loader import load_cardset_text

TINY = """\
name: tiny
title: Tiny
players: {min: 2, max: 4}
options:
  speed: {default: 2, choices: [1, 2, 3]}
  mode: {default: easy, choices: [easy, hard]}
  fast: {default: false}
  bonus: {default: 3}
zones:
  deck: {owner: none, visibility: nobody}
  discard: {owner: none, visibility: nobody}
  table: {owner: none, visibility: everyone}
  hand: {owner: player, visibility: owner}
  pile: {owner: player, visibility: nobody}
  shown: {owner: player, visibility: everyone}
  row: {owner: none, visibility: everyone, slots: 3}
counters:
  score: {owner: player, visibility: everyone}
  secret: {owner: player, visibility: owner}
  energy: {owner: player, initial: 2, min: 0, max: 5}
  pool: {owner: none, initial: 5, min: 0, max: 10}
vars:
  x: 0
  word: hello
cards:
  apple: {count: 3, tags: [red, fruit], props: {power: 2, sweet: true}, scoring: [1, 3, 6]}
  bean: {count: 2, props: {power: 5}, scoring: [2, 5]}
  coin:
    count: 1
    name: Gold Coin
    props: {power: 9}
    abilities:
      play: |
        move this to table
        say "played " + this.name
      grab:
        when: count(hand of you) > 0
        do: |
          say "grab " + this.name
@CARDS@
@PROCEDURES@
setup:
  cards_in: deck
flow:
  phases:
    - name: main
      do: |
@BODY@
end:
  winners: @WINNERS@
"""

CARD_COUNT = 6


class Tiny:
    """Builds, loads and runs the tiny cardset around a phase body."""

    file = "inline.yaml"

    def text(self, body: str, procedures: str = "", winners: str = "players", cards: str = "",
             functions: str = "") -> str:
        """The cardset text: ``body`` is the phase's effect, ``cards`` more entries under cards:,
        ``functions`` the entries under functions:."""
        body_text = textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8) or "        say 0"
        procs = ""
        if procedures:
            procs = "procedures:\n" + textwrap.indent(textwrap.dedent(procedures).strip("\n"), "  ")
        more = textwrap.indent(textwrap.dedent(cards).strip("\n"), "  ") if cards else ""
        funcs = "functions:\n" + textwrap.indent(textwrap.dedent(functions).strip("\n"), "  ") + "\n" if functions else ""
        return (
            TINY.replace("@CARDS@\n", more + "\n" if more else "")
            .replace("@PROCEDURES@", procs)
            .replace("@BODY@", body_text)
            .replace("@WINNERS@", winners)
        ) + funcs

    def cardset(self, body: str, **kw: Any) -> rulecore.Cardset:
        return load_cardset_text(self.text(body, **kw), self.file)

    def game(self, body: str, players: int = 2, options: dict[str, Any] | None = None, **kw: Any) -> rulecore.Game:
        return rulecore.Game(self.cardset(body, **kw), players, options or {})

    def run(self, body: str, players: int = 2, seed: int = 1, **kw: Any) -> rulecore.State:
        return self.game(body, players, **kw).new_game(seed)

    @staticmethod
    def says(state: rulecore.State, player: int | None = None) -> list[str]:
        """The texts of the 'say' events (as ``player`` sees them; None: all)."""
        return [e["text"] for e in state.events(player) if e["type"] == "say"]

    @staticmethod
    def line_of(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
        """1-based (line, column) of the ``nth`` occurrence of ``needle`` in ``text``."""
        pos = -1
        for _ in range(nth + 1):
            pos = text.index(needle, pos + 1)
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        return line, column


@pytest.fixture
def tiny() -> Tiny:
    """The tiny inline cardset builder."""
    return Tiny()


@pytest.fixture(scope="module")
def wh() -> rulecore.Cardset:
    """The built-in Witching Hour cardset."""
    return rulecore.load_cardset("witching-hour")


def pytest_configure(config: pytest.Config) -> None:
    """Checked cardsets are kept in a folder of this test run, never in the user's cache folder."""
    folder = tempfile.mkdtemp(prefix="rulecore-test-cache-")
    config._rulecore_cache = folder  # type: ignore[attr-defined]
    os.environ["RULECORE_CACHE"] = os.path.join(folder, "cardsets")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(getattr(config, "_rulecore_cache", ""), ignore_errors=True)
