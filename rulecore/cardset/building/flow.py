"""The flow of a cardset as one statement tree: setup, then rounds of phases (or the phases once).

``flow:`` holds either ``rounds:`` (phases played round after round ``until`` a condition) or
``phases:`` (played once); each phase's effect text becomes an ``n.Phase`` of the tree, and
``setup: do:`` a phase of its own before them.
"""

from __future__ import annotations

from typing import Any

from ...lang import nodes as n
from .effects import EffectText
from .report import Report


def build_program(d: Any, report: Report, effects: EffectText) -> n.Block:
    """The whole game as one statement tree: setup, then rounds of phases (or phases once)."""
    parts: list[n.Stmt] = []
    setup = d.get("setup") or {}
    if "do" in setup:
        body = effects.parse(("setup", "do"), "setup")
        if body is not None:
            parts.append(n.Phase("setup", body, report.sources.span(("setup",), key=True, card="setup")))
    flow = d["flow"]
    if "rounds" in flow and "phases" in flow:
        report.problem(("flow",), "the flow has both 'rounds' and 'phases'", "put the phases under 'rounds:'",
                       "flow", key=True)
    if "rounds" not in flow and "phases" not in flow:
        report.problem(("flow",), "the flow needs 'rounds' or 'phases'", None, "missing-key", key=True)
    phases_path = ("flow", "rounds", "phases") if "rounds" in flow else ("flow", "phases")
    phases: list[n.Stmt] = []
    names: set[str] = set()
    listed = flow["rounds"]["phases"] if "rounds" in flow else flow.get("phases", [])
    for i, ph in enumerate(listed):
        if ph["name"] in names:
            report.problem(phases_path + (i, "name"), f"duplicate phase '{ph['name']}'", None, "duplicate")
        names.add(ph["name"])
        body = effects.parse(phases_path + (i, "do"), f"phase {ph['name']}")
        phases.append(n.Phase(ph["name"], body or n.Block(()), report.sources.span(phases_path + (i,), card=ph["name"])))
    block = n.Block(tuple(phases), report.sources.span(phases_path))
    if "rounds" in flow:
        until = effects.parse(("flow", "rounds", "until"), "rounds", expression=True)
        parts.append(n.Rounds(until or n.Literal(True), block, report.sources.span(("flow", "rounds"), key=True)))
    else:
        parts.append(block)
    return n.Block(tuple(parts), report.sources.span(("flow",), key=True))
