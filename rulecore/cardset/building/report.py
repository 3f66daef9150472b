"""The problems of one build, and what the repair of broken structure made up.

Every stage of the building step reports into one ``Report``: a problem is located through the
document's ``Sources``, and nothing is reported under a path that the repair made up (it would
only follow from a problem already reported).  ``fail`` raises them all together.
"""

from __future__ import annotations

import difflib
from typing import Any, Mapping

from ...errors import CardsetError, Problem
from ..reading.document import Sources

Path = tuple[Any, ...]


class Report:
    """The problems found so far while building one cardset, and what is known to be unsure."""

    def __init__(self, sources: Sources, problems: list[Problem]) -> None:
        self.sources = sources
        self.problems = list(problems)
        # after structure problems: the paths the repaired data made up (nothing is reported under them)
        self.repaired: set[Path] = set()
        self.skip_effects = False  # a whole section was broken: effect text cannot be checked
        self.meaning_unsure = False  # names were refused: the meaning checks would report what follows from it

    def problem(self, path: Path, message: str, hint: str | None = None, code: str = "invalid",
                key: bool = False) -> None:
        """A problem at the value (or with ``key``, the key) at ``path``, unless the repair made that up."""
        if self.repaired and self.is_repaired(path):
            return
        self.problems.append(Problem(message, self.sources.span(path, key=key), hint, code))

    def is_repaired(self, path: Path) -> bool:
        """Whether ``path`` or a value holding it was made up by the repair."""
        return any(path[:i] in self.repaired for i in range(len(path) + 1))

    def unknown(self, path: Path, kind: str, name: str, pool: Mapping[str, Any]) -> None:
        """'unknown zone 'x'' and the like, with a guess among ``pool``."""
        if self.skip_effects:  # the section of those names was broken: every name would seem unknown
            return
        guess = difflib.get_close_matches(name, sorted(pool), n=1)
        hint = f"did you mean '{guess[0]}'?" if guess else f"known: {', '.join(sorted(pool)) or 'none'}"
        self.problem(path, f"unknown {kind} '{name}'", hint, "unknown-name")

    def fail(self) -> None:
        """Raise every problem so far, in the order of the files, as one ``CardsetError``."""
        if self.problems:
            self.problems.sort(key=lambda p: (p.span.file, p.span.line, p.span.column))
            raise CardsetError(self.problems)
