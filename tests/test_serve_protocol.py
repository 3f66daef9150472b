"""rulecore/serve: the JSON protocol, spoken by a real HTTP and WebSocket client to a running server."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import rulecore

from serve_helpers import Server, auth, httpx, wait_for

websockets = pytest.importorskip("websockets", reason="the serve tests need websockets (the serve extra)")
from rulecore.serve import schemas  # noqa: E402  (after the skip: it needs the serve extra)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("serve") / "matches.sqlite3"
    running = Server(db, "witty-witches", "witching-hour", "--bot-workers", "1", "--bot-pause", "0", "--rate", "400", "--burst", "800")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def client(server: Server) -> Iterator[Any]:
    with server.client() as c:
        yield c


def valid(name: str, data: Any) -> Any:
    """``data``, checked against the protocol's schema ``name``."""
    problem = schemas.problem(schemas.ALL[name], data)
    assert problem is None, problem
    return data


def new_match(client: Any, seats: list[str], game: str = "witty-witches", **more: Any) -> dict[str, Any]:
    answer = client.post("/api/matches", json={"game": game, "players": len(seats), "seats": seats, **more})
    assert answer.status_code == 201, answer.text
    return valid("MatchCreated", answer.json())  # type: ignore[no-any-return]


def join(client: Any, match_id: str, seat: int, name: str) -> str:
    answer = client.post(f"/api/matches/{match_id}/seats/{seat}", json={"name": name})
    assert answer.status_code == 201, answer.text
    return valid("Joined", answer.json())["token"]  # type: ignore[no-any-return]


def two_people(client: Any, seed: int = 3) -> tuple[str, list[str]]:
    match = new_match(client, ["open", "open"], seed=seed)
    return match["match_id"], [join(client, match["match_id"], 0, "Ann"), join(client, match["match_id"], 1, "Bob")]


def look(client: Any, match_id: str, token: str | None = None, since: int | None = None) -> dict[str, Any]:
    query = f"?since={since}" if since is not None else ""
    answer = client.get(f"/api/matches/{match_id}{query}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    return valid("Match", answer.json())  # type: ignore[no-any-return]


def error(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    return valid("Error", answer.json())  # type: ignore[no-any-return]


def test_games_lists_the_configured_games_with_their_options(client: Any) -> None:
    """GET /api/games: each configured game (and no other) with players, options and zones; the bots."""
    games = valid("Games", client.get("/api/games").json())
    assert [g["name"] for g in games["games"]] == ["witty-witches", "witching-hour"]
    ww = games["games"][0]
    assert ww["players"] == {"min": 2, "max": 5}
    assert {"name": "mode", "default": "master", "choices": ["apprentice", "master"]}.items() <= \
        next(o for o in ww["options"] if o["name"] == "mode").items()
    assert "hand" in [z["name"] for z in ww["zones"]]
    assert games["bots"] == ["random", "greedy", "ismcts"]


def test_the_card_catalogue_draws_every_card(client: Any) -> None:
    """GET /api/games/{game}/cards: every card in play with name, text, tags and properties."""
    cards = valid("Cards", client.get("/api/games/witching-hour/cards?players=3").json())["cards"]
    expected = rulecore.Game(rulecore.load_cardset("witching-hour"), 3).card_catalogue()
    assert cards == expected
    two = client.get("/api/games/witching-hour/cards?players=2").json()["cards"]
    assert "book" not in [c["id"] for c in two]  # include_if: player_count > 2
    error(client.get("/api/games/approaching-dawn/cards"), 404, "unknown-game")


def test_creating_a_match_checks_every_part(client: Any) -> None:
    """Only configured games, seats open or built-in bots, options the cardset allows; a body in the schema."""
    error(client.post("/api/matches", json={"game": "approaching-dawn", "players": 2, "seats": ["open", "open"]}),
          404, "unknown-game")
    error(client.post("/api/matches", json={"game": "witty-witches", "players": 3, "seats": ["open", "open"]}),
          422, "bad-seats")
    for seat in ("bot:os:_exit", "bot:oracle", "bot:nope", "person", "bot:ismcts:iterations=999999",
                 "bot:ismcts:bogus=1"):
        error(client.post("/api/matches", json={"game": "witty-witches", "players": 2, "seats": ["open", seat]}),
              422, "bad-seat")
    error(client.post("/api/matches", json={"game": "witty-witches", "players": 2, "seats": ["open", "open"],
                                            "options": {"mode": "expert"}}), 422, "bad-options")
    error(client.post("/api/matches", json={"game": "witty-witches", "players": 9, "seats": ["open"] * 9}),
          422, "bad-options")
    error(client.post("/api/matches", json={"game": "witty-witches", "players": 2}), 422, "bad-request")
    error(client.post("/api/matches", content=b"{not json", headers={"content-type": "application/json"}),
          400, "bad-json")
    error(client.post("/api/matches", content=b" " * 20_000, headers={"content-type": "application/json"}),
          413, "too-large")
    made = new_match(client, ["open", "bot:ismcts:iterations=20"], options={"mode": "apprentice"})
    assert made["status"] == "waiting" and made["options"] == {"mode": "apprentice", "table_talk": False}
    assert made["seats"][1] == {"seat": 1, "kind": "bot", "bot": "ismcts:iterations=20", "name": "Ismcts bot 2",
                                "taken": True}


def test_joining_gives_a_token_once_per_seat(client: Any) -> None:
    """A seat's token has at least 256 random bits; a taken seat, a bot's seat or a clashing name is refused."""
    match = new_match(client, ["open", "open", "bot:random"])
    mid = match["match_id"]
    token = join(client, mid, 0, "Ann")
    assert len(token) >= 43
    error(client.post(f"/api/matches/{mid}/seats/0", json={"name": "Cy"}), 409, "seat-taken")
    error(client.post(f"/api/matches/{mid}/seats/2", json={"name": "Cy"}), 409, "seat-taken")
    error(client.post(f"/api/matches/{mid}/seats/1", json={"name": "ann"}), 422, "bad-name")
    error(client.post(f"/api/matches/{mid}/seats/1", json={"name": "Done"}), 422, "bad-name")
    error(client.post(f"/api/matches/{mid}/seats/1", json={"name": ""}), 422, "bad-request")
    error(client.post(f"/api/matches/{mid}/seats/7", json={"name": "Cy"}), 404, "not-found")
    error(client.post("/api/matches/nosuchmatch/seats/0", json={"name": "Cy"}), 404, "not-found")
    assert look(client, mid, token)["status"] == "waiting"
    second = join(client, mid, 1, "Bob")
    assert second != token
    payload = look(client, mid, second)
    assert payload["status"] == "playing" and payload["seat"] == 1
    assert [s["name"] for s in payload["seats"]] == ["Ann", "Bob", "Random bot 3"]


def test_a_seat_sees_its_view_and_its_decision(client: Any) -> None:
    """GET with a token: that seat's view, its decision with every option's id, label and reference."""
    mid, tokens = two_people(client)
    ann = look(client, mid, tokens[0])
    deciding = ann["view"]["decision"]["player"]
    me = look(client, mid, tokens[deciding])
    assert me["decision"]["player"] == deciding
    options = me["decision"]["options"]
    assert [o["id"] for o in options] == list(range(len(options)))
    assert all(o["action"] == o["label"] for o in options)
    hand = me["view"]["zones"][f"hand/{deciding}"]["cards"]
    for option in options:
        ref = option["ref"]
        if ref["kind"] == "card" and "index" in ref:
            assert hand[ref["index"]] == ref["card"] and ref["zone"] == f"hand/{deciding}"
    other = look(client, mid, tokens[1 - deciding])
    assert other["decision"] is None and other["view"]["decision"] == {"player": deciding}
    assert "cards" not in other["view"]["zones"][f"hand/{deciding}"]
    texts = " ".join(e["text"] for e in me["events"])
    assert "Ann's hand" in texts and "Player 0" not in texts


def test_a_spectator_sees_the_public_view(client: Any) -> None:
    """Without a token: every seat's hand hidden, only who decides; a wrong token is refused, not downgraded."""
    mid, tokens = two_people(client)
    watcher = look(client, mid)
    assert watcher["seat"] is None and watcher["decision"] is None
    assert all("cards" not in watcher["view"]["zones"][f"hand/{p}"] for p in (0, 1))
    assert set(watcher["view"]["decision"]) == {"player"}
    seat_events = {e["index"]: e for e in look(client, mid, tokens[0])["events"]}
    for event in watcher["events"]:
        assert "cards" not in event or seat_events[event["index"]].get("cards") == event["cards"]
    error(client.get(f"/api/matches/{mid}", headers=auth("x" * 43)), 401, "bad-token")
    error(client.get("/api/matches/nosuchmatch"), 404, "not-found")


def test_actions_are_checked_version_token_seat_and_legality(client: Any) -> None:
    """409 for a stale version, 422 for an option that is not one (nothing changes), 401 without or with a wrong
    token, 403 for a seat that is not deciding; 200 and a new version otherwise."""
    mid, tokens = two_people(client)
    first = look(client, mid, tokens[0])
    seat = first["view"]["decision"]["player"]
    version = first["version"]
    url = f"/api/matches/{mid}/actions"
    error(client.post(url, json={"action": 0, "version": version}), 401, "no-token")
    error(client.post(url, json={"action": 0, "version": version}, headers=auth("y" * 43)), 401, "bad-token")
    error(client.post(url, json={"action": 0, "version": version}, headers=auth(tokens[1 - seat])), 403,
          "not-your-turn")
    stale = error(client.post(url, json={"action": 0, "version": version - 1}, headers=auth(tokens[seat])), 409,
                  "stale")
    assert stale["version"] == version
    error(client.post(url, json={"action": "Win the game", "version": version}, headers=auth(tokens[seat])), 422,
          "illegal")
    error(client.post(url, json={"action": 99, "version": version}, headers=auth(tokens[seat])), 422, "illegal")
    error(client.post(url, json={"action": 0}, headers=auth(tokens[seat])), 422, "bad-request")
    assert look(client, mid, tokens[seat])["version"] == version  # nothing changed
    label = look(client, mid, tokens[seat])["decision"]["options"][0]["action"]
    done = client.post(url, json={"action": label, "version": version}, headers=auth(tokens[seat]))
    assert done.status_code == 200, done.text
    assert valid("Acted", done.json()) == {"version": version + 1, "status": "playing", "action": label}
    error(client.post(url, json={"action": 0, "version": version}, headers=auth(tokens[seat])), 409, "stale")


def play_out(client: Any, mid: str, tokens: list[str]) -> dict[str, Any]:
    """Both people answer option 0 until the end; the final payload."""
    for _ in range(2000):
        for token in tokens:
            payload = look(client, mid, token)
            if payload["status"] != "playing":
                return payload
            if payload["decision"]:
                answer = client.post(f"/api/matches/{mid}/actions", headers=auth(token),
                                     json={"action": 0, "version": payload["version"]})
                assert answer.status_code == 200, answer.text
    raise AssertionError("the match did not end")


def test_events_since_and_the_log_that_replays_the_match(client: Any) -> None:
    """?since=N gives the events from N on; once over, /log holds what Game.replay needs to rebuild it exactly."""
    mid, tokens = two_people(client, seed=11)
    early = valid("Log", client.get(f"/api/matches/{mid}/log").json())
    assert not early["finished"] and "history" not in early and early["events"]
    final = play_out(client, mid, tokens)
    assert final["status"] == "finished" and final["view"]["terminal"]
    everything = look(client, mid, tokens[0])["events"]
    middle = everything[len(everything) // 2]["index"]
    assert look(client, mid, tokens[0], since=middle)["events"] == [e for e in everything if e["index"] >= middle]
    error(client.get(f"/api/matches/{mid}?since=-1"), 400, "bad-request")
    log = valid("Log", client.get(f"/api/matches/{mid}/log").json())
    assert log["finished"] and log["player_names"] == ["Ann", "Bob"]
    game = rulecore.Game(rulecore.load_cardset("witty-witches"), log["players"], log["options"],
                         player_names=log["player_names"])
    again = game.replay(log["seed"], log["history"])
    assert again.result() == log["result"] == final["view"]["result"]
    assert [{k: v for k, v in e.items() if k != "index"} for e in everything] == again.events(0)


async def _socket_messages(url: str, count: int, hello: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    async with websockets.connect(url) as ws:
        if hello is not None:
            await ws.send(json.dumps(hello))
        return [json.loads(await asyncio.wait_for(ws.recv(), 30)) for _ in range(count)]


def test_the_websocket_pushes_the_payload_after_every_change(server: Server, client: Any) -> None:
    """A seat's socket (token in the URL or in the first message) gets the GET payload now and after a change,
    with only the new events; a spectator's gets the public view."""
    mid, tokens = two_people(client)
    first = look(client, mid, tokens[0])
    seat = first["view"]["decision"]["player"]
    base = server.url.replace("http", "ws") + f"/api/matches/{mid}/ws"

    async def scenario() -> list[list[dict[str, Any]]]:
        async with websockets.connect(f"{base}?token={tokens[seat]}") as mine, websockets.connect(base) as hello, \
                websockets.connect(f"{base}?spectate") as watcher:
            await hello.send(json.dumps({"token": tokens[1 - seat]}))
            got = [[json.loads(await asyncio.wait_for(ws.recv(), 30))] for ws in (mine, hello, watcher)]
            answer = await asyncio.to_thread(client.post, f"/api/matches/{mid}/actions", headers=auth(tokens[seat]),
                                             json={"action": 0, "version": first["version"]})
            assert answer.status_code == 200
            for i, ws in enumerate((mine, hello, watcher)):
                while got[i][-1]["version"] < first["version"] + 1:
                    got[i].append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            await watcher.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(watcher.recv(), 30)) == {"type": "pong"}
            return got

    mine, theirs, watching = asyncio.run(scenario())
    for messages, who in ((mine, tokens[seat]), (theirs, tokens[1 - seat]), (watching, None)):
        for message in messages:
            valid("Match", message)
        assert messages[0] == {**look(client, mid, who), "version": messages[0]["version"]} or \
            messages[0]["version"] == first["version"]
        assert messages[-1]["events"] and messages[-1]["events"][0]["index"] >= messages[0]["next_event"] - 1
    assert mine[0]["seat"] == seat and theirs[0]["seat"] == 1 - seat and watching[0]["seat"] is None
    assert mine[0]["decision"] is not None and watching[-1]["decision"] is None
    assert all("cards" not in watching[-1]["view"]["zones"][f"hand/{p}"] for p in (0, 1))


def test_the_websocket_refuses_bad_tokens_and_messages(server: Server, client: Any) -> None:
    """A wrong token gets an error and the socket closes; a hello that is not one too; a later message that is
    not a ping gets an error."""
    mid, _ = two_people(client)
    base = server.url.replace("http", "ws") + f"/api/matches/{mid}/ws"

    async def refused(url: str, send: str | None = None) -> tuple[dict[str, Any], int | None]:
        async with websockets.connect(url) as ws:
            if send is not None:
                await ws.send(send)
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            try:
                await asyncio.wait_for(ws.recv(), 30)
            except websockets.ConnectionClosed as closed:
                return message, closed.rcvd.code if closed.rcvd else None
            raise AssertionError("the socket stayed open")

    message, code = asyncio.run(refused(f"{base}?token=wrong"))
    assert message["error"] == "bad-token" and code == 4401
    message, code = asyncio.run(refused(base, "not json"))
    assert message["error"] == "bad-message" and code == 4400

    async def chatter() -> dict[str, Any]:
        async with websockets.connect(f"{base}?spectate") as ws:
            await asyncio.wait_for(ws.recv(), 30)
            await ws.send(json.dumps({"type": "act", "action": 0}))
            return json.loads(await asyncio.wait_for(ws.recv(), 30))  # type: ignore[no-any-return]

    assert asyncio.run(chatter())["error"] == "bad-message"


def test_bots_play_their_seats_to_the_end(client: Any) -> None:
    """A match of bots only starts at once and plays to the end on the server."""
    match = new_match(client, ["bot:random", "bot:greedy", "bot:random"], seed=5)
    assert match["status"] == "playing"
    final = wait_for(client, match["match_id"], None, lambda p: p["status"] != "playing", timeout=120)
    assert final["status"] == "finished" and final["view"]["result"]["winners"]
    log = client.get(f"/api/matches/{match['match_id']}/log").json()
    game = rulecore.Game(rulecore.load_cardset("witty-witches"), 3, log["options"], player_names=log["player_names"])
    assert game.replay(log["seed"], log["history"]).result() == log["result"]


def test_safe_defaults_no_cors_security_headers_loopback_only(server: Server, client: Any) -> None:
    """No CORS header for another origin; the page forbids scripts from elsewhere and framing; the server listens
    on 127.0.0.1 only."""
    answer = client.get("/api/games", headers={"origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in answer.headers
    page = client.get("/")
    assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    with socket.socket() as other, pytest.raises(OSError):
        other.settimeout(5)
        other.connect(("127.0.0.2", server.port))


def test_rate_limits_and_cors_when_asked_for(tmp_path: Path) -> None:
    """A client address past its rate and burst gets 429 with Retry-After; a WebSocket sending too fast is
    closed; with --cors-origin that origin (and only it) may call the API."""
    server = Server(tmp_path / "strict.sqlite3", "witty-witches", "--bot-workers", "1", "--rate", "2", "--burst", "5",
                    "--cors-origin", "https://table.example").start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as c:
            answers = [c.get("/api/games", headers={"origin": "https://table.example"}) for _ in range(12)]
            statuses = [a.status_code for a in answers]
            assert statuses[:3] == [200, 200, 200] and 429 in statuses
            refused = answers[statuses.index(429)]
            assert refused.headers["retry-after"] == "1" and refused.json()["error"] == "rate-limited"
            assert answers[0].headers["access-control-allow-origin"] == "https://table.example"
        time.sleep(3)  # the bucket fills again
        with httpx.Client(base_url=server.url, timeout=30) as c:
            other = c.get("/api/games", headers={"origin": "https://elsewhere.example"})
            assert "access-control-allow-origin" not in other.headers
            match = c.post("/api/matches", json={"game": "witty-witches", "players": 2, "seats": ["open", "open"]})
            mid = match.json()["match_id"]

        async def flood() -> int | None:
            async with websockets.connect(server.url.replace("http", "ws") + f"/api/matches/{mid}/ws?spectate") as ws:
                await asyncio.wait_for(ws.recv(), 30)
                try:
                    for _ in range(50):
                        await ws.send(json.dumps({"type": "ping"}))
                    while True:
                        await asyncio.wait_for(ws.recv(), 30)
                except websockets.ConnectionClosed as closed:
                    return closed.rcvd.code if closed.rcvd else None

        assert asyncio.run(flood()) == 1008
    finally:
        server.stop()


def test_every_message_schema_is_in_the_docs() -> None:
    """docs/serve.md shows the JSON Schema of every message exactly as the server checks it."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "serve.md").read_text(encoding="utf-8")
    for name, schema in schemas.ALL.items():
        assert json.dumps(schema, indent=2) in text, f"docs/serve.md lacks the schema {name} as the server has it"
