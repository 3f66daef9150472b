"""The ``rulecore`` command: simulate, play, validate, explain, schema, docs, serve.

``app.py`` holds the typer app and ``main`` and names the commands; each command is a module of
its own (``simulate``, ``play``, ``validate``, ``explain``, ``schema``, ``docs``, ``serve``: the
server itself is ``rulecore.serve``, imported when the command runs). What they share:
``common`` (consoles, clean error exits, loading GAME), ``options`` (``--option key=value`` and
``--bots`` parsed), ``view`` (a player's view as text, for ``play``).

May import anything in rulecore; nothing in rulecore imports it.
"""

from .app import app, main
from .options import parse_options
from .view import render_view

__all__ = ["app", "main", "parse_options", "render_view"]
