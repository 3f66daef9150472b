"""``rulecore serve [GAME ...]``: a table in the browser and the JSON protocol (docs/serve.md).

The server lives in ``rulecore.serve``, which needs the ``serve`` extra (Starlette, uvicorn); it is
imported when the command runs, so that every other command works without the extra.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

import rulecore

SERVE_PACKAGES = frozenset({"starlette", "uvicorn", "anyio", "websockets", "h11", "httptools", "wsproto"})


def _fail(message: str, code: int = 1) -> None:
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(code)


def serve_command(
    games: Annotated[Optional[list[str]], typer.Argument(
        metavar="[GAME]...", help="Cardsets to serve (built-in names or paths); default: every built-in game.", show_default=False)] = None,
    host: Annotated[str, typer.Option(metavar="HOST", help="Address to listen on. Another address than 127.0.0.1 lets other "
                                           "machines in: do it only on a network you trust, or behind a proxy.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option("--db", metavar="FILE", help="SQLite file that keeps every match across "
                                                                 "restarts.")] = "rulecore-serve.sqlite3",
    allow_path: Annotated[Optional[list[str]], typer.Option(
        "--allow-path", metavar="DIR", help="A folder the cardsets' include: and extends: may also read "
                                            "(repeatable).", show_default=False)] = None,
    bot: Annotated[Optional[list[str]], typer.Option(
        "--bot", metavar="MODULE:ATTR", help="Also let clients seat this bot of your own (repeatable); "
                                             "the built-in bots are always there.", show_default=False)] = None,
    bot_seconds: Annotated[float, typer.Option(metavar="SECONDS", help="Time budget of one bot decision, in seconds.")] = 10.0,
    bot_pause: Annotated[float, typer.Option(metavar="SECONDS", help="How long a bot waits before it moves when "
                                                                     "people sit at the table.")] = 0.4,
    bot_workers: Annotated[Optional[int], typer.Option(metavar="N", help="Processes that run bots (default: cores - 1, "
                                                            "at least 1).", show_default=False)] = None,
    rate: Annotated[float, typer.Option(metavar="N", help="Requests per second one client address may make "
                                                          "(and messages one WebSocket may send).")] = 20.0,
    burst: Annotated[int, typer.Option(metavar="N", help="Requests a client may make at once above --rate.")] = 60,
    cors_origin: Annotated[Optional[list[str]], typer.Option(
        "--cors-origin", metavar="URL", help="Let pages of this origin call the API (repeatable); none by "
                                             "default.", show_default=False)] = None,
) -> None:
    """Serve GAMEs at a table in the browser (http://HOST:PORT/) and over the JSON protocol."""
    try:
        from rulecore.serve.app import run
        from rulecore.serve.config import GameSource, ServeConfig
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in SERVE_PACKAGES:
            raise
        _fail(f"rulecore serve needs the serve extra ({exc.name} is not installed): "
              "pip install 'rulecore[serve]'")
        return
    roots = tuple(str(Path(p).resolve()) for p in allow_path or ())
    sources, seen = [], set()
    for given in games or rulecore.builtin_cardsets():
        try:
            name = rulecore.load_cardset(given, roots=roots).name
        except rulecore.RulecoreError as exc:
            _fail(f"cannot serve {given!r}:\n{exc}")
            return
        if name in seen:
            _fail(f"two cardsets are called '{name}'; serve one of them")
        seen.add(name)
        source = given if "/" not in given and not given.endswith((".yaml", ".yml")) else str(Path(given).resolve())
        sources.append(GameSource(name, source, roots))
    if not 0 < port < 65536:
        _fail("--port must be from 1 to 65535", 2)
    if bot_seconds <= 0 or (bot_workers is not None and bot_workers < 1) or rate <= 0 or burst < 1:
        _fail("--bot-seconds and --rate must be above 0, --bot-workers and --burst at least 1", 2)
    defaults = ServeConfig(games=())
    config = ServeConfig(games=tuple(sources), db=db, bots=defaults.bots + tuple(bot or ()), bot_seconds=bot_seconds, bot_pause=max(0.0, bot_pause),
                         bot_workers=bot_workers or defaults.bot_workers, rate=rate, burst=burst, cors_origins=tuple(cors_origin or ()))
    where = f"http://{host}:{port}/" if ":" not in host else f"http://[{host}]:{port}/"
    sys.stderr.write(f"rulecore serve: {', '.join(seen)} at {where} (matches kept in {os.path.abspath(db)}; "
                     "Ctrl-C stops)\n")
    run(config, host, port)
