"""``python -m rulecore`` and the ``rulecore`` script: the command line.

The command needs typer and rich, which the library itself never imports. ``pip install
rulecore`` installs them; should they be missing (an install with ``--no-deps``, or one
uninstalled later), this says what to install instead of a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

_CLI_PACKAGES = frozenset({"typer", "rich", "click"})

_cli_main: Callable[[Sequence[str] | None], None] | None
_missing: str | None
try:
    from rulecore.cli import main as _cli_main
except ModuleNotFoundError as exc:  # only a missing CLI package; anything else is a bug to show
    if (exc.name or "").partition(".")[0] not in _CLI_PACKAGES:
        raise
    _cli_main, _missing = None, exc.name
else:
    _missing = None


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ``rulecore`` command, or explain how to install it (exit code 1)."""
    if _cli_main is None:
        sys.stderr.write(
            f"error: the rulecore command needs typer and rich ({_missing} is not installed).\n"
            "Install them with: pip install 'typer>=0.16' 'rich>=12.0'  "
            "(or reinstall rulecore with its dependencies: pip install rulecore)\n"
        )
        raise SystemExit(1)
    _cli_main(argv)


if __name__ == "__main__":
    main()
