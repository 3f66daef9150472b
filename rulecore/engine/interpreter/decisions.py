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


Asking = tuple[int, str, tuple[str, ...], str, tuple[str, ...]]
"""A pending question as a state keeps it: (player, prompt, actions, kind, labels)."""


def decision_of(asking: Asking | None) -> Decision | None:
    """The ``Decision`` of a pending question kept as tuples (None: no question)."""
    if asking is None:
        return None
    player, prompt, actions, kind, labels = asking
    return Decision(player, prompt, tuple(map(Option, actions, labels)), kind)


def asking_of(decision: Decision | None) -> Asking | None:
    """A ``Decision`` as the tuples a state keeps."""
    if decision is None:
        return None
    options = decision.options
    return (decision.player, decision.prompt, tuple(o.action for o in options), decision.kind,
            tuple(o.label for o in options))
