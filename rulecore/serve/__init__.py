"""``rulecore serve``: play any cardset at a table in a browser, with people and bots, and a JSON protocol
(HTTP + WebSocket) that an app in any language can use (docs/serve.md). Needs the ``serve`` extra
(Starlette and uvicorn): ``pip install 'rulecore[serve]'``.

- ``config``: ``ServeConfig`` (games, database, bots, limits) and ``GameSource``;
- ``games``: the configured cardsets, what the lobby is told of them, shared ``Game`` objects;
- ``matches``: seats and tokens, versions, committing actions before acknowledging them, bots' turns;
- ``protocol``: the payloads each connection gets (only what its seat may see); ``schemas``: the JSON
  Schema of every message;
- ``storage``: the one small interface a database implements; ``sqlite``: SQLite behind it;
- ``bots``: bots in worker processes, each decision under a time budget;
- ``limits``: rate limits, size limits, security headers; ``app``: the Starlette routes and ``run``;
- ``static/``: the web table (HTML, CSS and JavaScript; no build step).

May import: rulecore.simulate, rulecore.bots, the engine and below; only rulecore.cli imports it.
"""

from .app import create_app, run
from .config import GameSource, ServeConfig

__all__ = ["create_app", "run", "GameSource", "ServeConfig"]
