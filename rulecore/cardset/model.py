"""What a loaded cardset is: ``Cardset`` and its parts, frozen attrs classes.

The building step (``rulecore.cardset.building``) makes them; the engine, the checks and
``explain`` read them.  Nothing here reads files or checks anything.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import attrs

from ..errors import Problem, Span
from ..lang import nodes as n


@attrs.frozen
class Ability:
    """One ability of a card: its effect, and when (or on which signal) it may be used."""

    name: str
    when: Optional[n.Expr]
    body: n.Block
    text: Optional[str] = None
    on: Optional[str] = None  # the signalled event it answers
    zone: Optional[str] = None  # with on: the zone the card must be in
    optional: bool = True
    instead: bool = False
    label: Optional[str] = None
    params: tuple[str, ...] = ()


@attrs.frozen
class CardDef:
    """One card type: how many copies, its tags, properties, scoring ladder and abilities."""

    id: str
    name: str
    count: int
    tags: tuple[str, ...]
    props: Mapping[str, Any]
    scoring: tuple[int, ...]
    abilities: Mapping[str, Ability]
    include_if: Optional[n.Expr]
    text: str
    span: Span
    family: Optional[str] = None  # the family under 'families:' it was made from


@attrs.frozen
class ZoneDef:
    """A zone: one per player or shared, and who may see the cards in it."""

    name: str
    per_player: bool
    visibility: str  # owner | everyone | nobody
    description: str = ""
    slots: int = 0  # a shared row of numbered zones (1..slots), or 0
    label: str = ""  # what people call it ('label:'); "" reads as its name


@attrs.frozen
class CounterDef:
    """A counter: one per player or one for the game, its start value and bounds."""

    name: str
    per_player: bool
    initial: int = 0
    min: Optional[int] = None
    max: Optional[int] = None
    visibility: str = "everyone"
    per_round: bool = False


@attrs.frozen
class OptionSpec:
    """A game option a table may choose (``Game(..., options=...)``), its default and choices."""

    name: str
    default: Any
    choices: Optional[tuple[Any, ...]]
    description: str = ""


@attrs.frozen
class Procedure:
    """A named block of statements that effect text may ``call``."""

    name: str
    params: tuple[str, ...]
    body: n.Block


@attrs.frozen
class UserFunction:
    """A function the cardset defines: an expression of its parameters."""

    name: str
    params: tuple[str, ...]
    body: n.Expr


@attrs.frozen
class Cardset:
    """A loaded, checked cardset: everything a ``Game`` needs, immutable."""

    name: str
    title: str
    file: str
    min_players: int
    max_players: int
    zones: Mapping[str, ZoneDef]
    counters: Mapping[str, CounterDef]
    vars: Mapping[str, Any]
    options: Mapping[str, OptionSpec]
    cards: Mapping[str, CardDef]
    procedures: Mapping[str, Procedure]
    functions: Mapping[str, UserFunction]
    start_zone: str
    program: n.Block
    winners: n.Expr
    totals: Optional[str]
    round_scores: Optional[str]
    heuristic: Optional[n.Expr]
    description: str = ""
    hidden_vars: frozenset[str] = frozenset()  # game variables no view shows ('visibility: nobody')
    round_label: str = "round"  # what a round is called in events and tables (flow.rounds.label)
    marks: Optional[Mapping[str, str]] = None  # declared card marks ('marks:'), word -> meaning; None: not declared
    player_marks: Optional[Mapping[str, str]] = None  # declared player marks ('player_marks:')
    warnings: tuple[Problem, ...] = ()  # things that load but look like mistakes (``rulecore validate`` shows them)

    def __repr__(self) -> str:
        return f"<Cardset {self.name!r}: {len(self.cards)} card types, {self.min_players}-{self.max_players} players>"
