"""What a paused game asks: ``Decision`` (who chooses, the prompt, the options) and each ``Option``.

``State.decision`` builds a ``Decision`` from the pending question the state keeps as plain tuples
(``State.asking``), only when it is read.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen(slots=True)
class Option:
    """One choice: ``action`` is what ``apply`` takes, ``label`` what a person reads."""

    action: str
    label: str


@attrs.frozen(slots=True)
class Decision:
    """A pending choice: who chooses, what they are asked, the labelled options."""

    player: int
    prompt: str
    options: tuple[Option, ...]
    kind: str

    @property
    def actions(self) -> list[str]:
        return [o.action for o in self.options]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "prompt": self.prompt,
            "kind": self.kind,
            "options": [o.label for o in self.options],
        }
