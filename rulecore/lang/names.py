"""The names effect text may use: the built-in names (``you``, ``this``, ``round``, ...), the
language's reserved words, and ``Symbols``, the names a cardset declares (zones, counters,
variables, functions) that the builder resolves effect text against."""

from __future__ import annotations

import difflib
from types import MappingProxyType
from typing import Any, Mapping

import attrs

#: Each built-in name and what it stands for.
BUILTIN_NAMES: Mapping[str, str] = MappingProxyType({
    "you": "the player carrying out the effect",
    "this": "the card whose ability runs",
    "it": "the item a 'where' condition is looking at",
    "players": "every player, in seat order",
    "opponents": "every player except you, clockwise from your left",
    "round": "the number of the current round, from 1",
    "player_count": "how many players are in the game",
    "turn_player": "the player whose turn it is (or was last)",
    "phase": "the name of the phase being played",
    "can_pass": "whether the running part of an 'in any order' may pass (another player still acts)",
})

#: The words of the language's statements and expressions: never a name.
KEYWORDS = frozenset(
    """let set to add subtract from move at face shuffle reveal hide look if elif else for each in
    while repeat break call return use choose exactly up by option label when take another turn turns
    skipping until end game say where signal rotate always answers mark unmark simultaneously pass fail sort as or and not true false none left right of clockwise
    counterclockwise top bottom random player players card cards number value""".split()
)


@attrs.frozen
class Symbols:
    """The names effect text may refer to, from the cardset."""

    player_zones: frozenset[str] = frozenset()  # zones read as 'NAME of X': one per player, or numbered slots
    shared_zones: frozenset[str] = frozenset()
    player_counters: frozenset[str] = frozenset()
    game_counters: frozenset[str] = frozenset()
    game_vars: frozenset[str] = frozenset()
    functions: Mapping[str, int] = attrs.field(factory=dict)  # user functions: name -> number of params

    def guess(self, name: str, pool: Any) -> str | None:
        found = difflib.get_close_matches(name, sorted(pool), n=1, cutoff=0.6)
        return found[0] if found else None
        """The name of ``pool`` closest to ``name`` (a likely misspelling of it), or None."""

