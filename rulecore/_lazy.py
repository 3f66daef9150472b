"""Names and modules loaded on first use, so that ``import rulecore`` and a cardset found in the
cache do not pay for what they do not use (the engine, lark, YAML).

``package_getattr`` is rulecore's module ``__getattr__`` (PEP 562): ``rulecore.Game`` imports
``rulecore.engine.game`` the first time it is asked for.  ``lazy_module`` gives a module whose code
is imported when one of its names is first used: the loader builds a
cardset with it only when no checked cardset was kept.  Neither dodges a cycle: the modules named
lie below their users, as the [tool.importlinter] contracts say.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

#: rulecore's public names that are loaded on first use, and the module each comes from
LAZY_NAMES: dict[str, str] = {
    "load_cardset": "rulecore.cardset.loader",
    "Cardset": "rulecore.cardset.model",
    "Limits": "rulecore.cardset.limits",
    "Game": "rulecore.engine.game",
    "State": "rulecore.engine.state",
    "Decision": "rulecore.engine.interpreter.decisions",
    "Option": "rulecore.engine.interpreter.decisions",
}


def package_getattr(name: str) -> Any:
    """A public name of rulecore not loaded yet (``module.__getattr__`` of the package)."""
    module = LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'rulecore' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    setattr(sys.modules["rulecore"], name, value)  # asked once: later uses do not come here
    return value


def package_dir() -> list[str]:
    """The names of the package, those not loaded yet included."""
    return sorted(set(vars(sys.modules["rulecore"])) | set(LAZY_NAMES))


class LazyModule:
    """A module imported (``importlib.import_module``, under the import lock, so also from many
    threads at once) when one of its names is first asked for."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported on first use>"


def lazy_module(name: str) -> Any:
    """The module ``name``, imported when one of its names is first used."""
    return sys.modules.get(name) or LazyModule(name)
