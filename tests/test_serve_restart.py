"""rulecore/serve: nothing acknowledged is lost. The server is killed (kill -9) in the middle of matches and
started again on the same database; every match goes on where its last acknowledged action left it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecore

from serve_helpers import Server, auth, wait_for

pytestmark = pytest.mark.slow


def _act(client: Any, mid: str, token: str) -> dict[str, Any]:
    """Answer the seat's decision with its last option (waiting for the bot first); the payload after."""
    payload = wait_for(client, mid, token, lambda p: p["decision"] is not None or p["status"] != "playing")
    if payload["decision"] is None:
        return payload
    answer = client.post(f"/api/matches/{mid}/actions", headers=auth(token),
                         json={"action": len(payload["decision"]["options"]) - 1, "version": payload["version"]})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_kill_the_server_mid_match_and_finish_after_a_restart(tmp_path: Path) -> None:
    """After kill -9 and a restart: the same version, view and token for a person's match, which then plays
    to the end and replays exactly; a match of bots alone goes on by itself."""
    db = tmp_path / "matches.sqlite3"
    args = ("witty-witches", "--bot-workers", "1", "--bot-pause", "0", "--rate", "400", "--burst", "800")
    server = Server(db, *args).start()
    try:
        with server.client() as client:
            made = client.post("/api/matches", json={"game": "witty-witches", "players": 2, "seed": 21,
                                                     "seats": ["open", "bot:random"]}).json()
            mid = made["match_id"]
            token = client.post(f"/api/matches/{mid}/seats/0", json={"name": "Ann"}).json()["token"]
            for _ in range(4):
                _act(client, mid, token)
            bots = client.post("/api/matches", json={"game": "witty-witches", "players": 2, "seed": 4,
                                                     "seats": ["bot:ismcts:iterations=25"] * 2}).json()["match_id"]
            before = client.get(f"/api/matches/{mid}", headers=auth(token)).json()
            assert before["status"] == "playing" and before["version"] >= 5
            bots_before = wait_for(client, bots, None, lambda p: p["version"] >= 3)
            assert bots_before["status"] == "playing"
    finally:
        server.kill()
    server = Server(db, *args, port=server.port).start()
    try:
        with server.client() as client:
            after = client.get(f"/api/matches/{mid}", headers=auth(token)).json()
            if before["decision"] is not None:  # the bot may have moved after the last look: then compare less
                assert after["version"] == before["version"] and after["view"] == before["view"]
                assert after["events"] == before["events"] and after["decision"] == before["decision"]
            assert after["seat"] == 0 and after["status"] == "playing"
            for _ in range(500):
                if _act(client, mid, token)["status"] != "playing":
                    break
            final = client.get(f"/api/matches/{mid}", headers=auth(token)).json()
            assert final["status"] == "finished"
            log = client.get(f"/api/matches/{mid}/log").json()
            game = rulecore.Game(rulecore.load_cardset("witty-witches"), 2, log["options"],
                                 player_names=log["player_names"])
            again = game.replay(21, log["history"])
            assert again.result() == final["view"]["result"] and again.view(0) == final["view"]
            resumed = client.get(f"/api/matches/{bots}").json()
            assert resumed["version"] >= bots_before["version"]
            assert wait_for(client, bots, None, lambda p: p["status"] != "playing", timeout=300)["status"] == "finished"
    finally:
        server.stop()
