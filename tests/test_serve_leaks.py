"""rulecore/serve: a connection only ever receives what its seat may see. Every payload the server would send
to each seat and to a spectator, after every action of a few hundred bot matches of every built-in game,
holds nothing that the seat's view (or the public view) does not."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rulecore

pytest.importorskip("starlette", reason="the serve extra is not installed: pip install '.[serve]'")
from rulecore.serve.matches import Match  # noqa: E402  (after the skip)
from rulecore.serve.protocol import match_payload  # noqa: E402
from rulecore.serve.storage import MatchRecord, SeatRecord  # noqa: E402

pytestmark = pytest.mark.slow

# (game, players, options, matches): a few hundred matches in all, every game and mode
TABLES = [
    ("witching-hour", 3, {}, 30), ("witching-hour", 5, {}, 10), ("witching-hour", 2, {}, 20),
    ("witty-witches", 3, {}, 40), ("witty-witches", 2, {"mode": "apprentice"}, 40), ("witty-witches", 5, {}, 10),
    ("approaching-dawn", 2, {}, 50), ("approaching-dawn", 4, {}, 30), ("approaching-dawn", 3, {"scene": "blood-moon"}, 30),
]


def _card_refs(ref: dict[str, Any]) -> list[dict[str, Any]]:
    return ref["cards"] if ref["kind"] == "cards" else [ref] if ref["kind"] == "card" else []


def _check_seat(payload: dict[str, Any], state: rulecore.State, seat: int) -> None:
    view = state.view(seat)
    assert payload["view"] == view
    decision = state.decision
    if decision is None or decision.player != seat:
        assert payload["decision"] is None
        return
    options = payload["decision"]["options"]
    assert [o["label"] for o in options] == list(view["decision"]["options"])
    assert payload["decision"]["prompt"] == view["decision"]["prompt"]
    for option in options:
        for card in _card_refs(option["ref"]):
            zone = view["zones"].get(card.get("zone"), {})
            if "index" in card:
                assert zone["cards"][card["index"]] == card["card"]
            elif "zone" in card:
                assert card["card"] in zone["face_up"]


def _check_spectator(payload: dict[str, Any], state: rulecore.State) -> None:
    public = state.public_view()
    assert payload["view"] == public and payload["decision"] is None
    own = {op[1] for op in state.sealed_ops}  # those seats see their own sealed part; the public does not
    for p in range(state.game.players):
        if p in own:
            continue
        view = state.view(p)
        for key, zone in public["zones"].items():
            for i, card in enumerate(zone.get("cards", [])):
                if card is not None:  # a card a seat sees in its own sealed part is hidden from the public
                    assert view["zones"][key]["cards"][i] == card
        assert {k: v for k, v in view["counters"].items() if k in public["counters"]} == public["counters"]


def _play(game: rulecore.Game, seed: int) -> int:
    cardset, players, options = game.cardset, game.players, game.options
    record = MatchRecord("leaktest0", cardset.name, players, options, seed, [SeatRecord("bot", "random")] * players,
                         0.0, status="playing")
    match = Match(record, dict(game.options))
    state = game.new_game(seed)
    rng = random.Random(seed)
    since: dict[int | None, int] = {p: 0 for p in [*range(players), None]}
    seen: dict[int | None, dict[int, dict[str, Any]]] = {p: {} for p in since}
    payloads = 0
    for _ in range(600):
        match.shown = (state.clone(), len(state.history))
        for viewer in since:
            payload = match_payload(match, viewer, since[viewer])
            json.dumps(payload)
            payloads += 1
            (_check_spectator(payload, state) if viewer is None else _check_seat(payload, state, viewer))
            for event in payload["events"]:
                seen[viewer][event["index"]] = event
            since[viewer] = payload["next_event"]
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    for viewer, events in seen.items():  # the pushes add up to the viewer's log, nothing more
        whole = state.public_events(numbered=True) if viewer is None else state.events(viewer, numbered=True)
        assert [events[i] for i in sorted(events)] == whole
    return payloads


@pytest.mark.parametrize("name, players, options, matches", TABLES)
def test_payloads_hold_only_what_the_seat_may_see(name: str, players: int, options: dict[str, Any],
                                                  matches: int) -> None:
    """Each seat's payload is its view, its events and (when it decides) its decision with references inside
    its view; the spectator's is the public view; the events pushed add up to exactly the viewer's log."""
    game = rulecore.Game(rulecore.load_cardset(name), players, options)
    assert sum(_play(game, seed) for seed in range(matches)) > matches
