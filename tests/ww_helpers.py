"""Shared helpers for the Witty Witches rule tests (tests/test_witty_witches.py).

Scenarios are laid out with ``State.arrange`` (through ``layout``) and driven by the option
labels a player sees.  Zones are compared as lists of card type ids (``witch_broom_blue``),
so a test reads like the rulebook rather than like card instance ids.

``layout`` names every zone that matters: the hands, the discard pile, every spell zone and,
unless the test gives it, the draw pile (filled with all the character cards not placed
elsewhere, in a fixed order).  Cards pushed out of the named zones go to the box, so a spell
never lands in the character draw pile.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

import rulecore
from table_helpers import options, events  # noqa: F401  (re-exported for the tests)

CARDSET = rulecore.load_cardset("witty-witches")

FEATURES = ("character", "object", "color")
CHARACTERS = ("witch", "wizard", "dragon")
OBJECTS = ("broom", "cauldron", "spellbook")
COLORS = ("yellow", "blue", "red")

CHARACTER_TYPES = [t for t, c in CARDSET.cards.items() if "spell" not in c.tags]
SPELL_TYPES = [t for t, c in CARDSET.cards.items() if "spell" in c.tags]
CURSES = [f"curse_{v}" for v in CHARACTERS + OBJECTS]
BLESSINGS = [f"blessing_{v}" for v in CHARACTERS + OBJECTS]

# menu labels (the actions a player applies)
TURN = "Your turn"
SPEAK = "Speak"
DRAW = "Draw a card"
KEEP = "Keep it"
DRAWN = "Discard the card you drew?"
TOO = "Play its doppelganger too?"
NOT_NOW = "Not now"
BONUS = "Doppelganger: take an extra turn or witch?"
EXTRA = "Take an extra turn"
WITCH = "Witch a spell"
NEITHER = "Neither"
WHICH_SPELL = "Witch which spell?"
PLACE = "Place the spell where?"
CAST_OFFER = "Cast a spell?"
CAST = "Cast a spell"
NO_CAST = "Do not cast"
TORNADO = "Tornado: pass every spell which way?"
CW = "Clockwise"
CCW = "Counterclockwise"
TO_SPELL_DISCARD = "On the spell discard pile"
ABRACADABRA = "Abracadabra: play your whole hand"


def card(character: str, obj: str, color: str) -> str:
    """The type id of a character card: ``card("witch", "broom", "yellow")`` -> 'witch_broom_blue'."""
    return f"{character}_{obj}_{color}"


def features(t: str) -> tuple[str, str, str]:
    props = CARDSET.cards[t].props
    return tuple(props[f] for f in FEATURES)  # type: ignore[return-value]


def shared(a: str, b: str) -> int:
    """How many of the three features two character types share."""
    return sum(x == y for x, y in zip(features(a), features(b)))


def feature_number_sum(t: str) -> int:
    ch, ob, co = features(t)
    return CHARACTERS.index(ch) + OBJECTS.index(ob) + COLORS.index(co)


def name(t: str) -> str:
    return CARDSET.cards[t].name


def discard_label(t: str) -> str:
    return "Discard " + name(t)


def twin_label(t: str) -> str:
    return "Play the doppelganger " + name(t)


def on(p: int) -> str:
    return f"On Player {p}"


def new_game(
    players: int = 3, mode: str = "master", table_talk: bool = True, seed: int = 1
) -> tuple[rulecore.Game, rulecore.State]:
    """A fresh game waiting for seat 0's first "Your turn" (seeds are tried from ``seed`` up until
    no dealer's cast and no automatic first move came in between)."""
    game = rulecore.Game(CARDSET, players=players, options={"mode": mode, "table_talk": table_talk})
    for s in range(seed, seed + 200):
        state = game.new_game(s)
        d = state.decision
        if d is not None and d.player == 0 and d.prompt == TURN and state.turns == 1 and not state.history:
            top = state.rules.instance_type[state.zones["discard"][0]]
            if "star" not in CARDSET.cards[top].tags or mode == "apprentice":
                return game, state
    raise AssertionError("no suitable seed")


def types_of(state: rulecore.State, cards: Iterable[int]) -> list[str]:
    itype = state.rules.instance_type
    return [itype[c] for c in cards]


def zone(state: rulecore.State, key: str) -> list[str]:
    """A zone as card type ids, top first (the order matters for piles)."""
    return types_of(state, state.zones[key])


def hand(state: rulecore.State, p: int) -> list[str]:
    """A hand as sorted card type ids (a hand's order does not matter)."""
    return sorted(zone(state, f"hand/{p}"))


def top(state: rulecore.State) -> str:
    return zone(state, "discard")[0]


def hand_sizes(state: rulecore.State) -> list[int]:
    return [len(state.zones[f"hand/{p}"]) for p in range(state.rules.players)]


def spells(state: rulecore.State, kind: str = "spell") -> list[list[str]]:
    """Per seat, the cards of its ``spell`` (active) or ``incoming`` zone."""
    return [zone(state, f"{kind}/{p}") for p in range(state.rules.players)]


def layout(
    state: rulecore.State,
    hands: Mapping[int, Sequence[str]],
    discard: Sequence[str],
    *,
    deck: Sequence[str] | None = None,
    spell: Mapping[int, str] | None = None,
    incoming: Mapping[int, str] | None = None,
    spell_deck: Sequence[str] | None = None,
    spell_discard: Sequence[str] = (),
    vars: Mapping[str, Any] | None = None,
) -> None:
    """Lay out the table: every hand (all seats must be named), the discard pile (top first), the
    active (``spell``) and waiting (``incoming``) spells per seat, the spell discard pile and,
    optionally, the exact draw pile and spell pile (top first).

    Without ``deck`` the draw pile holds every character card not placed elsewhere, sorted by
    type.  Without ``spell_deck`` the spell pile keeps the spells not placed elsewhere.  Cards
    pushed out of the named zones go to the box.
    """
    players = state.rules.players
    assert set(hands) == set(range(players)), "name every hand"
    zones: dict[str, list[str]] = {f"hand/{p}": list(hands[p]) for p in range(players)}
    zones["discard"] = list(discard)
    for p in range(players):
        zones[f"spell/{p}"] = [spell[p]] if spell and p in spell else []
        zones[f"incoming/{p}"] = [incoming[p]] if incoming and p in incoming else []
        zones[f"casting/{p}"] = []
    zones["spell_discard"] = list(spell_discard)
    if spell_deck is not None:
        zones["spell_deck"] = list(spell_deck)
    if deck is None:
        used = Counter(t for ts in zones.values() for t in ts if t in CHARACTER_TYPES)
        left = Counter({t: CARDSET.cards[t].count for t in CHARACTER_TYPES}) - used
        deck = sorted(left.elements())
    zones["deck"] = list(deck)
    state.arrange(zones, rest="box", vars=vars)


def non_matching(t: str, k: int, exclude: Iterable[str] = ()) -> list[str]:
    """``k`` character types (distinct where possible) sharing at most one feature with ``t``."""
    excl = set(exclude)
    pool = [u for u in CHARACTER_TYPES if shared(u, t) <= 1 and u not in excl]
    out: list[str] = []
    copies: Counter[str] = Counter()
    i = 0
    while len(out) < k:
        u = pool[i % len(pool)]
        if copies[u] < CARDSET.cards[u].count:
            out.append(u)
            copies[u] += 1
        i += 1
    return out


def check_cards_conserved(state: rulecore.State) -> None:
    """Every card instance is in exactly one zone (and the state's index agrees)."""
    total = len(state.rules.instance_type)
    seen = sorted(c for cards in state.zones.values() for c in cards)
    assert seen == list(range(total)), "a card is missing or in two zones"
    for key, cards in state.zones.items():
        for c in cards:
            assert state.where[c] == key


def answer_only(state: rulecore.State, prompt: str, action: str) -> None:
    """Answer a question asked with one option (a menu that says 'always', so that the others cannot
    tell from its being asked what the hand holds)."""
    d = state.decision
    assert d is not None and d.prompt == prompt and d.actions == [action], d
    state.apply(action)


def keep(state: rulecore.State) -> None:
    """The drawn card does not fit: "Discard the card you drew?" is still asked, with "Keep it" alone."""
    answer_only(state, DRAWN, KEEP)


def discard(state: rulecore.State, t: str) -> None:
    """Discard a card of type ``t``; then "Play its doppelganger too?", asked after every discard that
    leaves cards in hand ('always'), is answered "Not now" when that is its only option."""
    state.apply(discard_label(t))
    not_now_if_only(state)


def not_now_if_only(state: rulecore.State) -> None:
    """Answer "Play its doppelganger too?" when "Not now" is all it offers (no doppelganger in hand)."""
    d = state.decision
    if d is not None and d.prompt == TOO and d.actions == [NOT_NOW]:
        state.apply(NOT_NOW)
