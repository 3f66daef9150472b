"""``rulecore compare``: the command (``command``); docs/compare.md."""

from .command import compare_command

__all__ = ["compare_command"]
