"""Safe with strangers: a rate limit per client address (HTTP) and per WebSocket (messages), request
bodies capped in bytes, and the headers that keep the page to itself (no framing, no scripts from
elsewhere, no sniffing)."""

from __future__ import annotations

import json
import time
from typing import Any, Awaitable, Callable, MutableMapping

Scope = MutableMapping[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: client addresses remembered by one limiter; past it the idlest are forgotten
ADDRESSES = 10_000

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


class Bucket:
    """A token bucket: ``rate`` per second, up to ``burst`` saved up."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class RateLimiter:
    """One bucket per key (a client address)."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, Bucket] = {}

    def allow(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= ADDRESSES:
                for old in sorted(self.buckets, key=lambda k: self.buckets[k].stamp)[:ADDRESSES // 10]:
                    del self.buckets[old]
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
        return bucket.take()


def client_key(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


class Guard:
    """ASGI middleware: HTTP requests over the client's rate get 429, bodies announced larger than
    ``max_body`` get 413, and every HTTP answer gets the security headers."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter, max_body: int):
        self.app, self.limiter, self.max_body = app, limiter, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self.limiter.allow(client_key(scope)):
            await _refuse(send, 429, "rate-limited", "too many requests; slow down", [(b"retry-after", b"1")])
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send, 413, "too-large", f"a request body may hold at most {self.max_body} bytes")
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refuse(send: Send, status: int, code: str, message: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or []), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})
