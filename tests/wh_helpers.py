"""Shared helpers for the Witching Hour rule and example tests.

Scenarios are laid out with ``State.arrange`` and driven by option labels.
Zone contents are compared as sorted lists of card type ids, so tests read like
the rulebook ("three Bells and a Candle") rather than like card instance ids.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

import rulecore
from table_helpers import types_of, zone, options, events  # noqa: F401  (re-exported for the tests)

CARDSET = rulecore.load_cardset("witching-hour")

# The reference deck (shared/rules/witching-hour-cards.md): copies and scoring ladder per type.
REFERENCE = {
    "bell": (8, [1, 3, 4, 5, 7, 9]),
    "book": (4, [0, 2, 5, 8]),
    "candle": (8, [1, 2, 3, 5, 7, 9]),
    "cauldron": (4, [1, 3, 6, 10]),
    "chalice": (4, [-3, 2, 5, 8]),
    "familiar": (6, [1, 2, 4, 6, 8]),
    "hourglass": (4, [0, 2, 5, 9]),
    "mirror": (6, [1, 2, 4, 6, 8]),
    "skull": (4, [0, 3, 6, 10]),
    "toadstool": (8, [2, 3, 4, 6, 8, 10]),
}

PLAYABLE = ("book", "cauldron", "chalice", "hourglass", "skull")

# The defence is one decision, "Block the attack?", asked even when "Take the cards" is its only
# option (the menu says 'always'), so that nobody learns from the speed of play what the Defender
# holds.  A Familiar in the Defender's hand answers "attacked" as one more option of that same
# decision.  Toadstool attacks are unblockable and ask nothing.
FAMILIAR = "Block with a Familiar (it goes into your Hex pile)"
TAKE = "Take the cards"
BLOCK = "Block the attack?"

def new_game(players: int = 3, seed: int = 1) -> tuple[rulecore.Game, rulecore.State]:
    """A fresh game, dealt and waiting for seat 0's first turn."""
    game = rulecore.Game(CARDSET, players=players)
    return game, game.new_game(seed=seed)


def hand(state: rulecore.State, p: int) -> list[str]:
    return zone(state, f"hand/{p}")


def hex_pile(state: rulecore.State, p: int) -> list[str]:
    return zone(state, f"hex/{p}")


def hand_sizes(state: rulecore.State) -> list[int]:
    return [len(state.zones[f"hand/{p}"]) for p in range(state.rules.players)]


def n(**counts: int) -> list[str]:
    """``n(bell=3, candle=1)`` -> ['bell', 'bell', 'bell', 'candle'] (sorted like ``zone``)."""
    return sorted(t for t, k in counts.items() for _ in range(k))


def layout(
    state: rulecore.State,
    hands: Mapping[int, Sequence[str]] | None = None,
    hexes: Mapping[int, Sequence[str]] | None = None,
    discard: Sequence[str] | None = None,
    counters: Mapping[str, Any] | None = None,
    vars: Mapping[str, Any] | None = None,
    attack: bool = True,
) -> None:
    """Arrange every hand and Hex pile (unnamed ones empty) and optionally the exact discard pile.

    Without ``discard`` the unused cards go to the discard pile; with it, the
    discard pile is exactly ``discard`` and the unused cards wait in the deck
    (which is only gathered at the next deal).  With ``attack``, a "Your turn" whose only option is
    "Attack" is answered (see ``attack_if_only_choice``).
    """
    players = state.rules.players
    zones: dict[str, list[str]] = {}
    for p in range(players):
        zones[f"hand/{p}"] = list((hands or {}).get(p, []))
        zones[f"hex/{p}"] = list((hexes or {}).get(p, []))
    if discard is not None:
        zones["discard"] = list(discard)
    state.arrange(zones, rest="deck" if discard is not None else "discard", counters=counters, vars=vars)
    if attack:
        attack_if_only_choice(state)


def attack_if_only_choice(state: rulecore.State) -> None:
    """Answer "Your turn" when "Attack" is its only option, and then "Attack with which cards?" when the
    hand makes one attack only: both say 'always' (so that the others cannot tell what the hand holds),
    and the tests go on to the attack itself."""
    d = state.decision
    if d is not None and d.prompt == "Your turn" and d.actions == ["Attack"]:
        state.apply("Attack")
    attack_with_only_set(state)


def attack_with_only_set(state: rulecore.State) -> None:
    """Answer "Attack with which cards?" when it has one option (it is asked anyway: 'always')."""
    d = state.decision
    if d is not None and d.prompt == "Attack with which cards?" and len(d.actions) == 1:
        state.apply(d.actions[0])


def end_round(
    state: rulecore.State,
    hexes: Mapping[int, Sequence[str]] | None = None,
    counters: Mapping[str, Any] | None = None,
) -> int:
    """Finish the current round at once with the Hex piles ``hexes``; returns the seat whose turn ended it.

    The player to move attacks the next seat with one card, which is blocked
    with one card, so every hand is empty and nothing is added to any Hex pile.
    """
    players = state.rules.players
    p = state.decision.player
    assert state.decision.prompt == "Your turn"
    q = (p + 1) % players
    used = Counter(t for cards in (hexes or {}).values() for t in cards)
    spare = {t: copies - used[t] for t, copies in ((t, state.rules.instance_type.count(t)) for t in REFERENCE)}
    attack = next(t for t in ("bell", "candle", "familiar", "mirror") if spare[t] >= 1)
    spare[attack] -= 1
    block = next(t for t in ("candle", "toadstool") if spare[t] >= 1)
    layout(state, hands={p: [attack], q: [block]}, hexes=hexes, counters=counters)
    assert state.decision.player == q, state.decision
    state.apply(f"Block with 1 {CARDSET.cards[block].name}")
    return p


def play_round_with_hexes(state: rulecore.State, hexes: Mapping[int, Sequence[str]]) -> list[int]:
    """End the current round with these Hex piles and return the round's scores."""
    end_round(state, hexes)
    return list(state.round_log[-1]["round_score"])


def reveals(state: rulecore.State) -> list[dict[str, list[str]]]:
    """Per scoring (one per round so far), each Hex pile's revealed contents (sorted types)."""
    out: list[dict[str, list[str]]] = []
    current: dict[str, list[str]] = {}
    for e in state.events(None):
        if e["type"] == "reveal":
            current[e["zone"]] = sorted(e["revealed"])
        elif e["type"] == "round-end":
            out.append(current)
            current = {}
    return out


def defend(state: rulecore.State, action: str) -> None:
    """Answer the pending attack with ``action`` (a block label, TAKE or FAMILIAR): one decision."""
    assert state.decision is not None and state.decision.prompt == BLOCK, state.decision
    state.apply(action)


def defence_options(state: rulecore.State) -> set[str]:
    """Everything the Defender may do against the pending attack: TAKE, FAMILIAR and the blocks, all in one decision."""
    assert state.decision is not None and state.decision.prompt == BLOCK, state.decision
    return options(state)


def assert_defence_looks_the_same_to_others(state: rulecore.State) -> None:
    """A pending defence shows the other players only who decides, never the prompt or the options.

    So a Defender who can only take the cards cannot be told apart from one who could block.
    """
    d = state.decision
    assert d is not None and d.prompt == BLOCK, d
    for viewer in range(state.rules.players):
        seen = state.view(viewer)["decision"]
        if viewer == d.player:
            assert seen == {"player": d.player, "prompt": BLOCK, "kind": d.kind, "options": [o.label for o in d.options]}
        else:
            assert seen == {"player": d.player}, (viewer, seen)


def take_forced(state: rulecore.State, defender: int) -> None:
    """``defender`` cannot block: they are still asked "Block the attack?", with "Take the cards" as the
    only option and the decision looking the same to the others as one with a block; they take the cards."""
    d = state.decision
    assert d is not None and d.player == defender and d.prompt == BLOCK, d
    assert options(state) == {TAKE}
    assert_defence_looks_the_same_to_others(state)
    state.apply(TAKE)
    attack_if_only_choice(state)
