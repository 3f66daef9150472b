"""The ASGI app of ``rulecore serve`` (Starlette): the JSON protocol's routes, the WebSocket, and the web
table's static files at ``/``. ``create_app(config)`` builds it; ``run(config, host, port)`` serves it
with uvicorn. The protocol is described in docs/serve.md."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any, AsyncIterator

import anyio
import anyio.to_thread
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import rulecore
from rulecore.bots import BOT_NAMES

from . import schemas
from .bots import BotPool
from .config import ServeConfig
from .games import Games
from .limits import Guard, RateLimiter, client_key
from .matches import Hub, Match
from .protocol import ApiError, created_payload, log_payload, match_payload
from .sqlite import SQLiteStorage

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("rulecore.serve")
#: seconds a WebSocket may take to say who it is (its first message) when the URL does not
HELLO_SECONDS = 10.0


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _since(raw: str | None) -> int:
    if raw is None or raw == "":
        return 0
    if not raw.isdigit() or len(raw) > 12:
        raise ApiError(400, "bad-request", "since must be a whole number (an event index)")
    return int(raw)


class Server:
    """The routes, bound to one hub of matches."""

    def __init__(self, config: ServeConfig):
        self.config = config
        self.games = Games(config.games)
        self.storage = SQLiteStorage(config.db)
        self.pool = BotPool(config.games, config.bot_workers, config.bot_seconds,
                            user_bots=tuple(b for b in config.bots if b not in BOT_NAMES))
        self.hub = Hub(config, self.games, self.storage, self.pool)
        self.socket_limiter = RateLimiter(config.rate, config.burst)
        self.sockets: dict[str, int] = {}

    async def body(self, request: Request, schema: schemas.Schema) -> dict[str, Any]:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > self.config.max_body:
                raise ApiError(413, "too-large", f"a request body may hold at most {self.config.max_body} bytes")
            chunks.append(chunk)
        try:
            data = json.loads(b"".join(chunks) or b"null")
        except (ValueError, RecursionError):
            raise ApiError(400, "bad-json", "the body is not JSON") from None
        wrong = schemas.problem(schema, data)
        if wrong is not None:
            raise ApiError(422, "bad-request", wrong)
        return data  # type: ignore[no-any-return]

    # ---- routes
    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def list_games(self, request: Request) -> Response:
        return JSONResponse({"games": self.games.info(), "bots": list(self.config.bots)})

    async def game_cards(self, request: Request) -> Response:
        name = request.path_params["game"]
        if name not in self.games:
            raise ApiError(404, "unknown-game", f"this server has no game {name[:60]!r}")
        cardset = self.games.cardsets[name]
        raw = request.query_params.get("players", "")
        players = int(raw) if raw.isdigit() and len(raw) < 4 else cardset.min_players
        try:
            options = json.loads(request.query_params.get("options", "{}"))
            if not isinstance(options, dict):
                raise ValueError
        except ValueError:
            raise ApiError(400, "bad-request", "options must be a JSON object") from None
        try:
            game = await anyio.to_thread.run_sync(self.games.game, name, players, options)
        except rulecore.OptionError as exc:
            raise ApiError(422, "bad-options", str(exc)[:300]) from None
        return JSONResponse({"game": name, "cards": game.card_catalogue()})

    async def create_match(self, request: Request) -> Response:
        match = await self.hub.create(await self.body(request, schemas.CREATE_MATCH))
        return JSONResponse(created_payload(match), status_code=201)

    async def _match(self, request: Request) -> Match:
        return await self.hub.get(request.path_params["match_id"])

    async def get_match(self, request: Request) -> Response:
        match = await self._match(request)
        token = _bearer(request)
        seat = match.seat_of(token) if token else None
        if token and seat is None:
            raise ApiError(401, "bad-token", "this token is not a seat of this match")
        since = _since(request.query_params.get("since"))
        payload = await anyio.to_thread.run_sync(match_payload, match, seat, since)
        return JSONResponse(payload)

    async def match_cards(self, request: Request) -> Response:
        match = await self._match(request)
        record = match.record
        game = await anyio.to_thread.run_sync(self.games.game, record.game, record.players, record.options)
        return JSONResponse({"game": record.game, "cards": game.card_catalogue()})

    async def join(self, request: Request) -> Response:
        match = await self._match(request)
        raw = request.path_params["seat"]
        if not raw.isdigit() or len(raw) > 4:
            raise ApiError(404, "not-found", "a seat is a number")
        body = await self.body(request, schemas.JOIN)
        token = await self.hub.join(match, int(raw), body["name"])
        record = match.record
        return JSONResponse({"match_id": record.match_id, "seat": int(raw), "token": token,
                             "version": record.version, "status": record.status}, status_code=201)

    async def act(self, request: Request) -> Response:
        match = await self._match(request)
        body = await self.body(request, schemas.ACTION)
        action = await self.hub.act(match, _bearer(request), body["action"], body["version"])
        return JSONResponse({"version": match.record.version, "status": match.record.status, "action": action})

    async def match_log(self, request: Request) -> Response:
        match = await self._match(request)
        return JSONResponse(await anyio.to_thread.run_sync(log_payload, match))

    # ---- the WebSocket
    async def socket(self, ws: WebSocket) -> None:
        address = client_key(ws.scope)
        if self.sockets.get(address, 0) >= self.config.max_sockets:
            await ws.close(code=1008, reason="too many connections")
            return
        try:
            match = await self.hub.get(ws.path_params["match_id"])
        except ApiError as exc:
            await ws.close(code=4404, reason=exc.message[:100])
            return
        self.sockets[address] = self.sockets.get(address, 0) + 1
        try:
            await ws.accept()
            await self._serve_socket(ws, match)
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets[address] -= 1
            if not self.sockets[address]:
                del self.sockets[address]

    async def _serve_socket(self, ws: WebSocket, match: Match) -> None:
        query = ws.query_params
        token = query.get("token") or None
        since = _socket_since(query.get("since"))
        if token is None and "spectate" not in query:
            hello = await _first_message(ws, self.config.max_body)
            if hello is None:
                return
            token, since = hello.get("token"), hello.get("since", since)
        seat = match.seat_of(token) if token else None
        if token and seat is None:
            await ws.send_json({"type": "error", "error": "bad-token", "message": "this token is not a seat of this "
                                                                                 "match"})
            await ws.close(code=4401)
            return
        event = self.hub.watch(match)
        bucket = RateLimiter(self.config.rate, self.config.burst)
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._socket_reader, ws, bucket, group.cancel_scope)
                while True:
                    await event.wait()
                    event.clear()
                    payload = await anyio.to_thread.run_sync(match_payload, match, seat, since)
                    since = payload["next_event"]
                    await ws.send_text(json.dumps(payload, separators=(",", ":")))
        finally:
            self.hub.unwatch(match, event)

    async def _socket_reader(self, ws: WebSocket, bucket: RateLimiter, scope: anyio.CancelScope) -> None:
        try:
            while True:
                text = await ws.receive_text()
                if not bucket.allow("socket"):
                    await ws.close(code=1008, reason="too many messages")
                    break
                if len(text) > self.config.max_body:
                    await ws.close(code=1009, reason="message too large")
                    break
                try:
                    message = json.loads(text)
                except ValueError:
                    message = None
                if schemas.problem(schemas.SOCKET_PING, message) is None:
                    await ws.send_json({"type": "pong"})
                else:
                    await ws.send_json({"type": "error", "error": "bad-message",
                                        "message": "after the first message, send only {\"type\": \"ping\"}"})
        except (WebSocketDisconnect, RuntimeError):
            pass
        scope.cancel()


def _socket_since(raw: str | None) -> int:
    return int(raw) if raw is not None and raw.isdigit() and len(raw) <= 12 else 0


async def _first_message(ws: WebSocket, limit: int) -> dict[str, Any] | None:
    """The hello message ({"token": ..., "since"?: N}), or None after closing a socket that sent none."""
    try:
        with anyio.fail_after(HELLO_SECONDS):
            text = await ws.receive_text()
    except TimeoutError:
        await ws.close(code=4408, reason="say who you are: {\"token\": ...}")
        return None
    try:
        hello = json.loads(text) if len(text) <= limit else None
    except ValueError:
        hello = None
    wrong = schemas.problem(schemas.SOCKET_HELLO, hello)
    if wrong is not None:
        await ws.send_json({"type": "error", "error": "bad-message", "message": wrong})
        await ws.close(code=4400)
        return None
    return hello  # type: ignore[no-any-return]


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(), status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
    return JSONResponse({"error": code, "message": str(exc.detail)}, status_code=exc.status_code)


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return JSONResponse({"error": "internal", "message": "the server failed on this request (see its log)"},
                        status_code=500)


def create_app(config: ServeConfig) -> Starlette:
    """The app: routes bound to a new ``Server`` (its storage opened, its matches restored at start-up)."""
    server = Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        restored = await server.hub.restore()
        if restored:
            log.info("restored %d unfinished matches", restored)
        try:
            yield
        finally:
            await server.hub.close()
            await asyncio.to_thread(server.pool.close)
            server.storage.close()

    routes = [
        Route("/", server.index),
        Route("/api/games", server.list_games),
        Route("/api/games/{game}/cards", server.game_cards),
        Route("/api/matches", server.create_match, methods=["POST"]),
        Route("/api/matches/{match_id}", server.get_match),
        Route("/api/matches/{match_id}/cards", server.match_cards),
        Route("/api/matches/{match_id}/log", server.match_log),
        Route("/api/matches/{match_id}/seats/{seat}", server.join, methods=["POST"]),
        Route("/api/matches/{match_id}/actions", server.act, methods=["POST"]),
        WebSocketRoute("/api/matches/{match_id}/ws", server.socket),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    middleware = [Middleware(Guard, limiter=RateLimiter(config.rate, config.burst), max_body=config.max_body)]
    if config.cors_origins:
        middleware.append(Middleware(CORSMiddleware, allow_origins=list(config.cors_origins),
                                     allow_methods=["GET", "POST"], allow_headers=["authorization", "content-type"]))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _internal_error})
    app.state.server = server
    return app


def run(config: ServeConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    """Serve ``config`` with uvicorn until interrupted."""
    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level, ws_max_size=config.max_body,
                timeout_graceful_shutdown=5, timeout_keep_alive=30, server_header=False)
