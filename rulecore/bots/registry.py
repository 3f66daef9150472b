"""Bots by name: the built-in bots and their settings (``"ismcts:iterations=200,c=0.2"``), and the
user's own bots (``"module:attr"``, imported from the Python path), built by ``make_bot``."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ..arguments import shown
from ..errors import RulecoreError
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .oracle import OracleBot
from .protocol import Bot
from .random_bot import RandomBot

_FACTORIES: Mapping[str, Callable[..., Bot]] = MappingProxyType(
    {
        "random": RandomBot,
        "greedy": GreedyBot,
        "ismcts": ISMCTSBot,
        "oracle": OracleBot,
    }
)

#: Settings each built-in bot takes, with their types.
_SETTINGS: Mapping[str, Mapping[str, type]] = MappingProxyType(
    {
        "greedy": {"samples": int},
        "ismcts": {"iterations": int, "c": float, "depth": int, "worlds": int, "width": int, "keep": int, "stop": float},
        "oracle": {"playouts": int, "depth": int},
    }
)

#: Names accepted by :func:`make_bot`.
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, seed: int, *, user_bots: bool = False) -> Bot:
    """Build the bot called ``name`` with ``seed``.

    ``name`` is "random", "greedy", "ismcts" or "oracle", optionally with settings
    (``"ismcts:iterations=200,c=0.2"``, ``"oracle:playouts=2,depth=30"``), or, only with
    ``user_bots=True``, ``"module:attr"``: a class or function importable from the Python
    path, called with the seed, that returns an object with ``choose(state) -> action``.

    ``module:attr`` imports and calls any importable callable, so it is for names the user
    gives on their own behalf (their command line, their script: ``rulecore simulate``,
    ``play`` and ``compare`` and :func:`rulecore.simulate.simulate` pass ``user_bots=True``);
    a name that comes from someone else (a client of ``rulecore serve``) must be a built-in
    bot unless the operator listed it. A user's module that fails to import, or a callable
    that raises, is a ``RulecoreError`` of one line naming the bot and what went wrong.
    """
    if not isinstance(name, str):
        raise RulecoreError(f"a bot name must be text (got {shown(name)})")
    key, _, settings = name.strip().partition(":")
    factory = _FACTORIES.get(key.strip().lower())
    if factory is None:
        if settings.strip() and user_bots:
            return _user_bot(key.strip(), settings.strip(), seed)
        own = ", or module:attr for your own" if user_bots else ""
        raise RulecoreError(f"unknown bot {shown(name, 60)}; valid bots are: {', '.join(BOT_NAMES)}{own}")
    key = key.strip().lower()
    kwargs: dict[str, int | float] = {}
    if settings.strip():
        allowed = _SETTINGS.get(key, {})
        for item in settings.split(","):
            field, eq, value = item.partition("=")
            field = field.strip()
            if not eq or field not in allowed:
                hint = f"settings for {key}: {', '.join(allowed)}" if allowed else f"the {key} bot takes no settings"
                raise RulecoreError(f"bad bot setting {item.strip()!r} in {name!r} ({hint})")
            kind = allowed[field]
            try:
                kwargs[field] = kind(value)
            except ValueError:
                noun = "an integer" if kind is int else "a number"
                raise RulecoreError(f"bot setting {field!r} must be {noun} (got {value.strip()!r})") from None
    return factory(seed, **kwargs)


def failure(exc: BaseException) -> str:
    """What a user's bot code raised, in one short line: the exception's kind and its message."""
    message = " ".join(str(exc).split())
    message = message if len(message) <= 200 else message[:197] + "..."
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def choose(bot: Bot, state: Any, name: str) -> str:
    """``bot.choose(state)``; what a bot raises other than a ``RulecoreError`` (a user's bot may raise
    anything) becomes a ``RulecoreError`` of one line naming the bot."""
    try:
        return bot.choose(state)
    except RulecoreError:
        raise
    except Exception as exc:
        raise RulecoreError(f"bot {name!r} failed in choose(): {failure(exc)}") from None


def _user_bot(module: str, attr: str, seed: int) -> Bot:
    """The user's own bot ``module:attr``, built with the seed."""
    where = f"{module}:{attr}"
    try:
        found: object = importlib.import_module(module)
    except ImportError as exc:
        raise RulecoreError(
            f"cannot import the bot module {module!r} for {where!r}: {exc} (is it on the Python path?)"
        ) from None
    except SyntaxError as exc:
        raise RulecoreError(
            f"cannot import the bot module {module!r} for {where!r}: a syntax error in "
            f"{exc.filename or module} line {exc.lineno}: {exc.msg}"
        ) from None
    except Exception as exc:  # the module's own code raised while it was imported
        raise RulecoreError(
            f"cannot import the bot module {module!r} for {where!r}: importing it raised {failure(exc)}"
        ) from None
    for part in attr.split("."):
        if not hasattr(found, part):
            raise RulecoreError(f"the module {module!r} has no {attr!r} (bot {where!r})")
        found = getattr(found, part)
    if not callable(found):
        raise RulecoreError(f"bot {where!r} is not a class or function")
    try:
        bot = found(seed)
    except Exception as exc:  # the user's constructor raised
        raise RulecoreError(f"bot {where!r} could not be made: {attr}(seed) raised {failure(exc)}") from None
    if not callable(getattr(bot, "choose", None)):
        raise RulecoreError(f"bot {where!r} made {type(bot).__name__}, which has no choose(state) method")
    if not hasattr(bot, "name"):
        try:
            bot.name = where
        except AttributeError:
            pass
    return bot
