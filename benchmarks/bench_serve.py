"""`rulecore serve` under load, on loopback only: many concurrent bot matches, WebSocket clients that play a
seat each, and the figures benchmarks/README.md reports (a benchmark, not a test: nothing is asserted about
speed).

    python benchmarks/bench_serve.py                       # 200 matches, 50 of them with a WebSocket player
    python benchmarks/bench_serve.py --matches 40 --clients 10 --game witty-witches

It starts `python -m rulecore serve GAME` on a free port of 127.0.0.1 with a fresh database, creates
``--matches`` matches at once: ``--clients`` of them with one open seat that a WebSocket client takes and
plays (it answers each decision pushed to it with a random option over HTTP), the rest bots only (random
bots, so that the server's own work is what is measured). It reports actions per second (all matches,
from the first creation to the last end), the latency of the clients' actions (POST to 200, and POST to
the WebSocket push of the new version: p50 and p99), the server's peak memory (its process and its bot
workers), and checks that no action was lost or doubled: every match's stored actions are numbered 0..n-1
without a gap, its history replays to the result the server shows, and every action a client had
acknowledged is in it, in order. Every loop is bounded in count and time; it stops the server at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # measure the checkout this script lives in

import rulecore  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def peak_memory_mb(pid: int) -> float:
    """Peak resident memory (VmHWM) of a process and its children, in MB."""
    total = 0
    for p in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _children(pid: int) -> list[int]:
    """Every descendant (children started by any thread of the process)."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids + [g for k in kids for g in _children(k)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def play_seat(url: str, client: httpx.AsyncClient, match_id: str, seed: int, deadline: float,
                    post_ms: list[float], push_ms: list[float], acked: dict[str, list[str]]) -> None:
    """Take seat 0 and play it over the WebSocket until the match ends."""
    joined = (await client.post(f"/api/matches/{match_id}/seats/0", json={"name": f"Client {seed}"})).json()
    token = joined["token"]
    rng = random.Random(seed)
    mine: list[str] = []
    sent_at: dict[int, float] = {}
    ws_url = url.replace("http", "ws") + f"/api/matches/{match_id}/ws?token={token}"
    async with websockets.connect(ws_url, max_size=2 ** 24) as ws:
        while time.monotonic() < deadline:
            payload = json.loads(await asyncio.wait_for(ws.recv(), max(1.0, deadline - time.monotonic())))
            version = payload["version"]
            if version in sent_at:
                push_ms.append((time.perf_counter() - sent_at.pop(version)) * 1000)
            if payload["status"] != "playing":
                break
            decision = payload["decision"]
            if decision is None:
                continue
            option = rng.choice(decision["options"])
            start = time.perf_counter()
            for attempt in range(3):  # a keep-alive connection the server closed just then: send it again
                try:   # (safe: an action that went through the first time is refused as stale the second)
                    answer = await client.post(f"/api/matches/{match_id}/actions",
                                               headers={"authorization": f"Bearer {token}"},
                                               json={"action": option["id"], "version": version})
                    break
                except (httpx.ReadError, httpx.RemoteProtocolError):
                    if attempt == 2:
                        raise
            if answer.status_code == 200:
                post_ms.append((time.perf_counter() - start) * 1000)
                sent_at[answer.json()["version"]] = start
                mine.append(option["action"])
    acked[match_id] = mine


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    db = Path(tempfile.mkdtemp(prefix="rulecore-bench-")) / "serve.sqlite3"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    server_log = open(db.with_suffix(".log"), "wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "rulecore", "serve", args.game, "--port", str(port), "--db", str(db),
         "--bot-pause", "0", "--rate", "100000", "--burst", "100000", "--bot-workers", str(args.bot_workers)],
        cwd=REPO, env=env, stdout=server_log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=120,
                                     limits=httpx.Limits(max_connections=args.clients + 20)) as client:
            for _ in range(600):
                try:
                    if (await client.get("/api/games")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            deadline = time.monotonic() + args.seconds
            start = time.perf_counter()
            seats = [["open"] + ["bot:random"] * (args.players - 1)] * args.clients + \
                [["bot:random"] * args.players] * (args.matches - args.clients)
            made = await asyncio.gather(*[
                client.post("/api/matches", json={"game": args.game, "players": args.players, "seats": s, "seed": i})
                for i, s in enumerate(seats)])
            ids = [m.json()["match_id"] for m in made]
            post_ms: list[float] = []
            push_ms: list[float] = []
            acked: dict[str, list[str]] = {}
            await asyncio.gather(*[play_seat(url, client, ids[i], i, deadline, post_ms, push_ms, acked)
                                   for i in range(args.clients)])
            finals: dict[str, dict[str, Any]] = {}
            while time.monotonic() < deadline:
                for mid in ids:
                    if mid not in finals:
                        payload = (await client.get(f"/api/matches/{mid}")).json()
                        if payload["status"] != "playing":
                            finals[mid] = payload
                if len(finals) == len(ids):
                    break
                await asyncio.sleep(0.2)
            elapsed = time.perf_counter() - start
            memory = peak_memory_mb(server.pid)
            logs = {mid: (await client.get(f"/api/matches/{mid}/log")).json() for mid in finals}
    except BaseException:
        sys.stderr.write(f"the server's log ({db.with_suffix('.log')}) ends:\n"
                         + db.with_suffix(".log").read_text(errors="replace")[-4000:])
        raise
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(60)
        server_log.close()
    # nothing lost, nothing doubled
    problems = []
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT match_id, COUNT(*), COUNT(DISTINCT seq), MIN(seq), MAX(seq) FROM actions "
                           "GROUP BY match_id").fetchall()
    stored = {mid: (n, distinct, low, high) for mid, n, distinct, low, high in rows}
    game_of: dict[tuple[str, ...], rulecore.Game] = {}
    cardset = rulecore.load_cardset(args.game)
    actions = 0
    for mid, log in logs.items():
        n, distinct, low, high = stored.get(mid, (0, 0, 0, -1))
        history = log.get("history", [])
        actions += len(history)
        if not (n == distinct == len(history) and low == 0 and high == n - 1):
            problems.append(f"{mid}: stored actions {n} ({distinct} distinct, {low}..{high}), history {len(history)}")
        names = tuple(log["player_names"])
        game = game_of.get(names) or game_of.setdefault(names, rulecore.Game(cardset, args.players, log["options"],
                                                                               player_names=list(names)))
        if game.replay(log["seed"], history).result() != log["result"]:
            problems.append(f"{mid}: the history does not replay to the result shown")
        it = iter(history)
        if mid in acked and not all(any(a == h for h in it) for a in acked[mid]):
            problems.append(f"{mid}: an acknowledged action is missing from the history")
    return {
        "game": args.game, "players": args.players, "matches": args.matches, "finished": len(finals),
        "websocket_clients": args.clients, "bot_workers": args.bot_workers, "seconds": round(elapsed, 1),
        "actions": actions, "actions_per_second": round(actions / elapsed, 1),
        "client_actions": len(post_ms),
        "post_ms_p50": round(percentile(post_ms, 0.5), 1), "post_ms_p99": round(percentile(post_ms, 0.99), 1),
        "push_ms_p50": round(percentile(push_ms, 0.5), 1), "push_ms_p99": round(percentile(push_ms, 0.99), 1),
        "peak_memory_mb": round(memory, 1), "lost_or_doubled": problems,
        "mean_actions_per_match": round(statistics.mean([len(log.get("history", [])) for log in logs.values()]), 1)
        if logs else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="witty-witches")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=900, help="stop after this long whatever happens")
    args = parser.parse_args()
    if not 0 <= args.clients <= args.matches:
        parser.error("--clients must be between 0 and --matches")
    print(json.dumps(asyncio.run(main_async(args)), indent=2))


if __name__ == "__main__":
    main()
