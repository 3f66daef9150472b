"""The ``rulecore`` command: simulate, play, validate, explain, schema.

May import anything in rulecore; nothing in rulecore imports it.
"""

from .app import app, main, parse_options, render_view

__all__ = ["app", "main", "parse_options", "render_view"]
