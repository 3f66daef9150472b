"""The wheel's build hook: ship the built-in cardsets already checked.

When a (non-editable) wheel is built, every built-in cardset is read, built and checked by this
source tree's rulecore and written as ``rulecore/_data/shipped/<name>.cardset``
(``rulecore.cardset.loader.ship_builtins``), so that an installed rulecore loads a built-in game
the first time without building it (``rulecore.cardset.shipped`` says when such a file is used:
only for the code, limits and files it was made from). An editable install reads the checkout
and has none: its first load builds, and the user's cache folder keeps the result.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class ShipCheckedCardsets(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._folder = tempfile.mkdtemp(prefix="rulecore-shipped-")
        sys.path.insert(0, self.root)  # this source tree's rulecore, not one installed elsewhere
        try:
            import rulecore
            from rulecore.cardset.loader import ship_builtins

            if Path(rulecore.__file__).resolve().parent != Path(self.root).resolve() / "rulecore":
                raise RuntimeError(f"imported the rulecore at {rulecore.__file__}, not this source tree's")
            written = ship_builtins(Path(self._folder))
        except Exception as exc:
            raise RuntimeError(
                f"rulecore's build hook (hatch_build.py) could not check the built-in cardsets: {exc!r}; it runs "
                "this source tree's loader, which needs lark, attrs, pyyaml and jsonschema where the wheel is built"
            ) from exc
        finally:
            sys.path.remove(self.root)
        if not written:
            raise RuntimeError("rulecore's build hook (hatch_build.py): no built-in cardset could be shipped checked")
        self.app.display_info(f"shipped checked: {', '.join(written)}")
        build_data["force_include"][self._folder] = "rulecore/_data/shipped"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
