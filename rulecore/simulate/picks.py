"""Card uses for a cardset whose cards have no abilities: a player's choice of a card counts as a use.

A game whose cards have abilities counts their uses itself (``result()["card_uses"]``). When no
card has one (a drafting game, a game of plain number cards), nothing would ever be counted, so a
run counts instead, for each decision, the cards the deciding seat chose: the card of a pick
(``choose card``, ``choose cards``, one per question), each card of a ``choose set`` answer, the
card of a menu option offered per card (``option each c in hand of you``). A pick the engine takes
by itself (only one answer left) is nobody's decision and is not counted.
"""

from __future__ import annotations

from typing import Any


class PickCounter:
    """Counts, per card type and seat, the cards the seats chose in one game."""

    def __init__(self, game: Any, players: int) -> None:
        self.codec = game.action_codec
        self.players = players
        self.uses: dict[str, list[int]] = {}

    def count(self, state: Any, seat: int, action: str) -> None:
        """Before ``state.apply(action)`` by ``seat``: count the cards that action chooses."""
        asking = state.asking
        if asking is None or action not in asking[2]:
            return  # not legal: apply will say so
        self.count_index(state, seat, asking[2].index(action))

    def count_index(self, state: Any, seat: int, index: int) -> None:
        """Before ``state.apply_index(index)`` by ``seat``: count the cards that action chooses."""
        paths = self.codec.paths(state)
        if not 0 <= index < len(paths):
            return  # not legal: apply_index will say so
        for key in paths[index]:
            if key[0] == "card":
                self._add(key[1], seat, 1)
            elif key[0] == "take":
                self._add(key[1], seat, key[2])

    def _add(self, card_type: str, seat: int, many: int) -> None:
        per = self.uses.setdefault(card_type, [0] * self.players)
        per[seat] += many


def pick_counter(game: Any, players: int) -> PickCounter | None:
    """A counter of chosen cards for a rulecore game whose cards have no abilities; None otherwise
    (its cards' abilities are counted by the game, or it is a stand-in game without cards)."""
    cardset = getattr(getattr(game, "rules", None), "cardset", None)
    cards = getattr(cardset, "cards", None)
    if not cards or any(card.abilities for card in cards.values()) or not hasattr(game, "action_codec"):
        return None
    return PickCounter(game, players)
