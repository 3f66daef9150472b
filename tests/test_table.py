"""rulecore/engine/table.py and the State/Game API a table program needs: option references, the card
catalogue, the public (spectator) view, public events and events since a log position."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest

import rulecore
from rulecore import IllegalActionError

GAMES = [("witching-hour", 3, {}), ("witty-witches", 3, {}), ("witty-witches", 2, {"mode": "apprentice"}),
         ("approaching-dawn", 3, {})]


@pytest.fixture(scope="module")
def cardsets() -> dict[str, rulecore.Cardset]:
    return {name: rulecore.load_cardset(name) for name in rulecore.builtin_cardsets()}


def _states(cardset: rulecore.Cardset, players: int, options: dict[str, Any], seed: int) -> Iterator[rulecore.State]:
    """Every state of one random game, up to 400 decisions."""
    state = rulecore.Game(cardset, players, options).new_game(seed)
    rng = random.Random(seed)
    for _ in range(400):
        yield state
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.slow
@pytest.mark.parametrize("name, players, options", GAMES)
def test_option_refs_tell_no_more_than_the_choosers_view(cardsets: dict[str, rulecore.Cardset], name: str,
                                                        players: int, options: dict[str, Any]) -> None:
    """A card is placed only where the chooser's view shows that very card; the rest is its type alone."""
    placed = 0
    for seed in range(3):
        for state in _states(cardsets[name], players, options, seed):
            if state.is_terminal():
                break
            refs = state.option_refs()
            assert len(refs) == len(state.legal_actions())
            json.dumps(refs)
            view = state.view(state.current_player)
            for ref in refs:
                for card in ref.get("cards", [ref] if ref["kind"] == "card" else []):
                    assert card["card"] in state.rules.defs
                    zone = view["zones"].get(card.get("zone"), {})
                    if "index" in card:
                        assert zone["cards"][card["index"]] == card["card"]
                        placed += 1
                    elif "zone" in card:
                        assert card["card"] in zone.get("face_up", [])
    assert placed > 0


def test_option_refs_name_seats_numbers_and_the_way_out(cardsets: dict[str, rulecore.Cardset]) -> None:
    """A choice of players refers to seats, 'Done' and 'Decline' say so, a static option is an option."""
    seen: dict[str, dict[str, Any]] = {}
    for state in _states(cardsets["witching-hour"], 3, {}, 4):
        if state.is_terminal():
            break
        for action, ref in zip(state.legal_actions(), state.option_refs()):
            seen.setdefault(ref["kind"], {"action": action, **ref})
    assert seen["player"]["action"] == f"Player {seen['player']['seat']}"
    assert seen["option"]["action"] in ("Attack", "Take the cards", "Pass")
    assert {"card", "cards", "player", "option"} <= set(seen)


def test_card_catalogue_lists_the_cards_in_play(cardsets: dict[str, rulecore.Cardset]) -> None:
    """The catalogue has every card type in play with its text and numbers, JSON-ready; include_if counts."""
    wh = cardsets["witching-hour"]
    two = rulecore.Game(wh, 2).card_catalogue()
    three = rulecore.Game(wh, 3).card_catalogue()
    json.dumps(three)
    by_id = {c["id"]: c for c in three}
    assert by_id["bell"] == {**by_id["bell"], "name": "Bell", "count": 8, "tags": ["cannot_block"],
                             "scoring": [1, 3, 4, 5, 7, 9]}
    assert by_id["bell"]["text"].startswith("This card cannot be used to block")
    assert "book" in by_id and "book" not in {c["id"] for c in two}  # include_if: player_count > 2
    assert sum(c["count"] for c in three) == len(rulecore.Game(wh, 3).rules.instance_type)
    assert any(a["name"] == "play" for a in by_id["book"]["abilities"])


@pytest.mark.slow
@pytest.mark.parametrize("name, players, options", GAMES)
def test_public_view_is_what_every_seat_sees(cardsets: dict[str, rulecore.Cardset], name: str, players: int,
                                             options: dict[str, Any]) -> None:
    """Each zone's cards, counters and vars in the public view are the same in every seat's view (but the
    view of a seat whose own sealed part changed them), and the public view has no prompt nor options."""
    for state in _states(cardsets[name], players, options, 1):
        public = state.public_view()
        # a seat whose own sealed part changed the table sees that part; the public sees what the others do
        own = {op[1] for op in state.sealed_ops}
        views = [state.view(p) for p in range(players) if p not in own]
        assert public["player"] is None and set(public["decision"] or {}) <= {"player"}
        for key, zone in public["zones"].items():
            for view in views:
                mine = view["zones"][key]
                assert mine["count"] == zone["count"]
                for i, card in enumerate(zone.get("cards", [])):
                    if card is not None:  # a seat sees its own sealed cards, the public does not
                        assert mine["cards"][i] == card
                for card in zone.get("face_up", []):
                    assert card in mine.get("cards", []) + mine.get("face_up", [])
        for counter, value in public["counters"].items():
            assert all(view["counters"][counter] == value for view in views)
        assert all(view["vars"] == public["vars"] for view in views)


def test_public_view_hides_every_hand(cardsets: dict[str, rulecore.Cardset]) -> None:
    """No hand's cards are in the public view, and owner-only counters are left out."""
    state = rulecore.Game(cardsets["witching-hour"], 3).new_game(2)
    public = state.public_view()
    assert all("cards" not in public["zones"][f"hand/{p}"] for p in range(3))
    assert public["zones"]["attack"]["cards"] == []


@pytest.mark.slow
@pytest.mark.parametrize("name, players, options", GAMES)
def test_public_events_are_in_every_seats_events(cardsets: dict[str, rulecore.Cardset], name: str, players: int,
                                                 options: dict[str, Any]) -> None:
    """Each public event appears in every seat's numbered events, the same or with more (a seat may see
    the names of cards that moved where the public may not), never with less."""
    for state in _states(cardsets[name], players, options, 3):
        pass
    per_seat = [{e["index"]: e for e in state.events(p, numbered=True)} for p in range(players)]
    public = state.public_events(numbered=True)
    assert public
    for event in public:
        for seat in per_seat:
            mine = seat[event["index"]]
            assert mine == event or ("cards" in mine and "cards" not in event and
                                     {k: v for k, v in mine.items() if k not in ("cards", "text")} ==
                                     {k: v for k, v in event.items() if k != "text"})


def test_events_since_and_numbered(cardsets: dict[str, rulecore.Cardset]) -> None:
    """events(p, since=N) is the tail of events(p) from log position N; numbered events carry that index."""
    state = next(s for i, s in enumerate(_states(cardsets["witching-hour"], 3, {}, 5)) if i == 30)
    everything = state.events(1, numbered=True)
    middle = everything[len(everything) // 2]["index"]
    assert state.events(1, since=middle, numbered=True) == [e for e in everything if e["index"] >= middle]
    assert [{k: v for k, v in e.items() if k != "index"} for e in everything] == state.events(1)
    assert state.events(1, since=len(state.log)) == []
    assert state.event_cursor(1) == len(state.log)
    for bad in (-1, "0", 1.0):
        with pytest.raises(IllegalActionError):
            state.events(1, since=bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.events(7)


def test_the_cursor_waits_at_events_held_in_a_sealed_part(cardsets: dict[str, rulecore.Cardset]) -> None:
    """While another seat's sealed part is held, the cursor stays before it; asked again from there after
    the reveal, the held events come (so no event is missed)."""
    checked = 0
    for seed in range(6):
        cursors = [0, 0, 0]
        known: list[dict[int, dict[str, Any]]] = [{}, {}, {}]
        for state in _states(cardsets["approaching-dawn"], 3, {}, seed):
            for p in range(3):
                for event in state.events(p, since=cursors[p], numbered=True):
                    known[p][event["index"]] = event
                cursors[p] = state.event_cursor(p)
                assert cursors[p] <= len(state.log)
                if cursors[p] < len(state.log):
                    checked += 1
        for p in range(3):
            assert [known[p][i] for i in sorted(known[p])] == state.events(p, numbered=True)
    assert checked > 0
