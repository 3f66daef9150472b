"""Shared helpers for the Approaching Dawn rule and example tests.

Scenarios are laid out with ``State.arrange`` and driven by the option labels a
player sees.  Zone contents are compared as lists of card type ids (sorted,
unless a test cares about the order), so tests read like the rulebook.

``arrange`` sets zones, counters and game variables but not marks, so the two
helpers ``set_marks`` and ``open_sigils`` write the marks of a card (bound, an
orientation) and a witch's open Sigils straight into the state.  They are only
used on a table that is about to be arranged or before the effect that reads
the marks runs, and every test that uses them says so.

Seats: the witch on a seat's left is the next seat (seat + 1); the Coven
Leader starts on seat 0.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

import rulecore
from table_helpers import types_of, zone, options, events  # noqa: F401  (re-exported for the tests)

CARDSET = rulecore.load_cardset("approaching-dawn")

WITCHES = ("addie", "dianne", "lily", "minora", "nancy", "paz", "shara", "ward")
SIGILS = ("red", "orange", "yellow", "green", "blue", "violet")
SCENES = ("training-day", "all-hallows-eve", "winter-solstice", "blood-moon", "spring-revival",
          "dawn-of-the-overlord")
LOCI = (1, 2, 3, 4, 5, 6)
# the Cards per Locus chart
PENTAGRAM = {2: [9, 9, 9, 9, 6, 3], 3: [9, 9, 9, 9, 6, 3], 4: [12, 12, 12, 12, 8, 4],
             5: [12, 12, 12, 12, 8, 4], 6: [15, 15, 15, 15, 10, 5]}

ACQUIRE = "Acquire spells from the Pentagram?"
DONE_ACQUIRING = "Done acquiring"
INSIGHT = "Insight: orient your spells, move Familiars, reveal Insight cards"
READY = "Ready"
WAIT = "Wait for the other witches"
BATTLE = "Battle: bind and banish, use your spells, share White Magic"
END_BATTLE = "End your Battle turn"
ADD_WHITE = "Add your White Magic to the Pool"
POOL = "White Magic is left in the Pool: keep it for the next Hour?"
TIE = "Several Demons tie: which one attacks first?"


def new_game(players: int = 3, seed: int = 1, **options: Any) -> tuple[rulecore.Game, rulecore.State]:
    """A fresh game, set up and waiting for the Coven Leader's first Acquire Spells decision."""
    game = rulecore.Game(CARDSET, players=players, options=options)
    return game, game.new_game(seed=seed)


def ordered(state: rulecore.State, key: str) -> list[str]:
    """A zone's card type ids, top first."""
    itype = state.rules.instance_type
    return [itype[c] for c in state.zones[key]]


def card(state: rulecore.State, key: str, type_id: str, nth: int = 0) -> int:
    """The instance id of the ``nth`` card of type ``type_id`` in zone ``key``."""
    found = [c for c in state.zones[key] if state.rules.instance_type[c] == type_id]
    assert len(found) > nth, (key, type_id, ordered(state, key))
    return found[nth]


def marks_of(state: rulecore.State, key: str, type_id: str, nth: int = 0) -> set[str]:
    return set(state.marks.get(card(state, key, type_id, nth), ()))


def set_marks(state: rulecore.State, key: str, type_id: str, marks: Sequence[str], nth: int = 0) -> None:
    """Give a card exactly these marks (``arrange`` cannot set marks)."""
    c = card(state, key, type_id, nth)
    if marks:
        state.marks[c] = tuple(marks)
    else:
        state.marks.pop(c, None)


def open_sigils(state: rulecore.State, seat: int, colours: Iterable[str]) -> None:
    """Open exactly these Sigils on a witch's Mat (``arrange`` cannot set player marks)."""
    others = tuple(m for m in state.player_marks[seat] if not m.startswith("open_"))
    state.player_marks[seat] = others + tuple("open_" + c for c in colours)


def open_of(state: rulecore.State, seat: int) -> set[str]:
    """The Sigils open on a witch's Mat."""
    return {m[len("open_"):] for m in state.player_marks[seat] if m.startswith("open_")}


def witch(state: rulecore.State, seat: int) -> str:
    """The witch (addie, dianne, ...) playing a seat."""
    (mat,) = state.zones[f"mat/{seat}"]
    return state.rules.defs[state.rules.instance_type[mat]].props["witch"]


def corruption(state: rulecore.State) -> list[int]:
    return list(state.counters["corruption"])


def prompt(state: rulecore.State) -> str | None:
    return state.decision.prompt if state.decision is not None else None


def arrange(state: rulecore.State, zones: Mapping[str, Sequence[str]] | None = None, *, rest: str = "box",
            counters: Mapping[str, Any] | None = None, vars: Mapping[str, Any] | None = None) -> None:
    """``state.arrange`` with the pushed-out cards going to the box (cards this Scene does not use)."""
    state.arrange(dict(zones or {}), rest=rest, counters=counters, vars=vars)


def quiet_table(state: rulecore.State, *, keep_facing: bool = False) -> dict[str, list[str]]:
    """Zones that empty every witch's facing Enemies (the Starter Demons go to the box)."""
    if keep_facing:
        return {}
    return {f"facing/{p}": [] for p in range(state.rules.players)}


def finish_acquire(state: rulecore.State) -> None:
    """Every witch still to acquire is done acquiring."""
    while state.phase == "acquire_spells" and prompt(state) == ACQUIRE:
        state.apply(DONE_ACQUIRING)


def play_until(state: rulecore.State, done: Callable[[rulecore.State], bool],
               policy: Callable[[rulecore.State], str] | None = None, limit: int = 2000) -> None:
    """Apply ``policy`` (default: the first legal action) until ``done(state)`` or the game ends."""
    steps = 0
    while not state.is_terminal() and not done(state):
        state.apply(policy(state) if policy else state.legal_actions()[0])
        steps += 1
        assert steps < limit, (state.phase, state.decision)


def passive(state: rulecore.State) -> str:
    """A witch who does as little as possible: acquires nothing, plays Black first, ends Battle at once."""
    acts = state.legal_actions()
    for pick in (DONE_ACQUIRING, READY, END_BATTLE, "Keep it", "Decline", "Done", "Not now"):
        if pick in acts:
            return pick
    for a in acts:
        if a.endswith(")") and " as Black Magic (" in a:
            return a
    return acts[0]


def to_insight(state: rulecore.State, zones: Mapping[str, Sequence[str]] | None = None,
               counters: Mapping[str, Any] | None = None, vars: Mapping[str, Any] | None = None,
               marks: Sequence[tuple[str, str, Sequence[str]]] = ()) -> None:
    """From the first Acquire Spells decision of Hour 1: lay out the table with nobody able to summon
    (every witch at 0 Corruption), acquire nothing, run the Summon Demons phase (nothing manifests) and
    stop at the first Insight decision.  ``counters`` are then set for the Insight phase."""
    assert state.round == 1 and prompt(state) == ACQUIRE
    layout = quiet_table(state)
    layout.update(zones or {})
    arrange(state, layout, counters={"corruption": [0] * state.rules.players})
    for key, type_id, m in marks:
        set_marks(state, key, type_id, m)
    finish_acquire(state)
    assert state.phase == "insight", (state.phase, state.decision)
    if counters or vars:
        state.arrange({}, counters=counters, vars=vars)


def orient(state: rulecore.State, seat: int, black: Sequence[str] = (), white: Sequence[str] = ()) -> None:
    """Seat ``seat`` (whose Insight decision is pending) plays the named spells Black or White and is Ready."""
    assert state.decision.player == seat and prompt(state) == INSIGHT, state.decision
    names = state.rules.defs
    for t in black:
        label = f"Play {names[t].name} as Black Magic ({names[t].props['black']})"
        state.apply(label)
    for t in white:
        label = f"Play {names[t].name} as White Magic ({names[t].props['white']})"
        state.apply(label)
    if state.decision is not None and state.decision.player == seat and prompt(state) == INSIGHT:
        state.apply(READY)


def ready_while_nothing_left(state: rulecore.State) -> None:
    """Answer each Insight menu whose only option is Ready: it is asked anyway ('always'), so that the
    others cannot tell that the witch holds nothing to orient or reveal."""
    while state.decision is not None and prompt(state) == INSIGHT and state.legal_actions() == [READY]:
        state.apply(READY)


def total_cards(state: rulecore.State) -> int:
    return sum(len(v) for v in state.zones.values())


def says(state: rulecore.State, player: int | None = None) -> list[str]:
    return [e["text"] for e in events(state, "say", player)]


def counter_changes(state: rulecore.State, counter: str, seat: int, since: int = 0) -> list[int]:
    """The values the counter of a seat took, in order, from log entry ``since``."""
    out = []
    for e in state.events(None)[since:]:
        if e["type"] == "counter" and e["counter"] == counter and e["player"] == seat:
            out.append(e["value"])
    return out


def to_battle(state: rulecore.State, zones: Mapping[str, Sequence[str]] | None = None,
              counters: Mapping[str, Any] | None = None,
              marks: Sequence[tuple[str, str, Sequence[str]]] = ()) -> None:
    """From the first Acquire Spells decision of Hour 1: a quiet Hour (nobody summons, everyone plays
    Black) up to the Coven Leader's first Battle decision; then lay out ``zones`` (the revealed hands
    and the Leader's play area are empty unless named), set ``counters`` (Magic left to use, the Pool,
    Corruption, ...) and card ``marks``, and ask the Battle menu again.

    So that the Leader has a Battle decision at all, Mr. Patterson (a Familiar whose Battle ability
    is always usable) is put on top of her deck; he stays in her play area unless ``zones`` names it."""
    leader = state.vars["leader"]
    to_insight(state, zones={f"deck/{leader}": ["mr_patterson"] + ordered(state, f"deck/{leader}")})
    play_until(state, lambda s: s.phase == "battle", passive)
    assert state.decision.player == leader, state.decision
    players = state.rules.players
    base = {"black_left": [0] * players, "white_left": [0] * players, "white_pool": 0,
            "corruption": [0] * players}
    base.update(counters or {})
    layout = {f"revealed/{p}": [] for p in range(players)}
    layout.update(zones or {})
    arrange(state, layout, counters=base)
    for key, type_id, m in marks:
        set_marks(state, key, type_id, m)
    arrange(state)
