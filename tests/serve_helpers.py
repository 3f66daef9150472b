"""Shared by the tests of `rulecore serve` (tests/test_serve_*.py): a real server, started as the
command a person runs (`python -m rulecore serve ...`) on a free port of 127.0.0.1, and stopped
(or killed) by the test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
pytest.importorskip("starlette", reason="the serve extra is not installed: pip install '.[serve]'")
pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install '.[serve]'")
httpx = pytest.importorskip("httpx", reason="the serve tests need httpx (the test extra)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`rulecore serve ARGS` on a free port, with its database in ``db``."""

    def __init__(self, db: Path, *args: str, port: int | None = None):
        self.db, self.args = db, args
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self, timeout: float = 90.0) -> "Server":
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "rulecore", "serve", *self.args, "--port", str(self.port), "--db", str(self.db)],
                cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start-up:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/api/games", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """kill -9, as a crash would (its bot workers too: the whole process group)."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(30)

    def client(self) -> Any:
        return httpx.Client(base_url=self.url, timeout=30)


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def wait_for(client: Any, match_id: str, token: str | None, done: Any, timeout: float = 60.0) -> dict[str, Any]:
    """GET the match (as the token's seat) until ``done(payload)``."""
    deadline = time.monotonic() + timeout
    while True:
        payload = client.get(f"/api/matches/{match_id}", headers=auth(token) if token else {}).json()
        if done(payload) or time.monotonic() > deadline:
            return payload  # type: ignore[no-any-return]
        time.sleep(0.02)
