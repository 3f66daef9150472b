"""Names and modules loaded on first use, so that ``import rulecore`` and a cardset found in the
cache do not pay for what they do not use (the engine, lark, YAML).

``package_getattr`` is rulecore's module ``__getattr__`` (PEP 562): ``rulecore.Game`` imports
``rulecore.engine.game`` the first time it is asked for.  ``lazy_module`` gives a module whose code
runs when one of its names is first used (``importlib.util.LazyLoader``): the loader builds a
cardset with it only when no checked cardset was kept.  Neither dodges a cycle: the modules named
lie below their users, as the [tool.importlinter] contracts say.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType
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


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, its code run when one of its names is first used (at once if it is loaded)."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
