"""Effect-language nodes: frozen attrs classes, each with the source span it came from.

Expressions compute values and never pause; statements change the state and may
pause for a decision.  The parser builds these, the checker reads them, the
engine's compiler turns them into generated Python (closures as a fallback) and
its interpreter steps through the statements that can pause.  No node refers to lark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Union

import attrs

from ..errors import Span

NOSPAN = Span()


def _span() -> Any:
    return attrs.field(default=NOSPAN, eq=False, repr=False)


# --------------------------------------------------------------------------- expressions


@attrs.frozen
class Expr:
    """Base of expressions."""

    if TYPE_CHECKING:  # every expression has one (each subclass declares the field last)
        span: Span


@attrs.frozen
class Literal(Expr):
    value: Any
    span: Span = _span()


@attrs.frozen
class ListExpr(Expr):
    items: tuple[Expr, ...]
    span: Span = _span()


@attrs.frozen
class Var(Expr):
    """A local variable bound by let, for each, choose or an option."""

    name: str
    span: Span = _span()


@attrs.frozen
class Builtin(Expr):
    """A name the engine provides: you, this, it, players, opponents, round, ..."""

    name: str
    span: Span = _span()


@attrs.frozen
class GameVar(Expr):
    """A game-wide variable declared under ``vars:``."""

    name: str
    span: Span = _span()


@attrs.frozen
class ZoneRef(Expr):
    """A zone: shared (owner None) or one player's (``hand of you``)."""

    zone: str
    owner: Optional[Expr]
    span: Span = _span()


@attrs.frozen
class CounterRef(Expr):
    """A counter: game-wide (owner None) or one player's (``score of you``)."""

    counter: str
    owner: Optional[Expr]
    span: Span = _span()


@attrs.frozen
class Attr(Expr):
    """A property of a card: ``c.name``, ``c.type``, ``c.tags``, or one declared under ``props``."""

    obj: Expr
    name: str
    span: Span = _span()


@attrs.frozen
class Where(Expr):
    """Items of a collection for which the condition holds, with ``it`` bound to each."""

    source: Expr
    cond: Expr
    span: Span = _span()


@attrs.frozen
class BinOp(Expr):
    op: str  # + - * / %
    left: Expr
    right: Expr
    span: Span = _span()


@attrs.frozen
class Compare(Expr):
    op: str  # == != < <= > >=
    left: Expr
    right: Expr
    span: Span = _span()


@attrs.frozen
class Contains(Expr):
    item: Expr
    collection: Expr
    negate: bool
    span: Span = _span()


@attrs.frozen
class And(Expr):
    left: Expr
    right: Expr
    span: Span = _span()


@attrs.frozen
class Or(Expr):
    left: Expr
    right: Expr
    span: Span = _span()


@attrs.frozen
class Not(Expr):
    operand: Expr
    span: Span = _span()


@attrs.frozen
class Neg(Expr):
    operand: Expr
    span: Span = _span()


@attrs.frozen
class Seat(Expr):
    """The player ``step`` seats clockwise (1, to the left) or counterclockwise (-1)."""

    player: Expr
    step: int
    span: Span = _span()


@attrs.frozen
class UserCall(Expr):
    """A call of a function declared under ``functions:`` in the cardset."""

    func: str
    args: tuple[Expr, ...]
    span: Span = _span()


@attrs.frozen
class Call(Expr):
    """A call of a built-in function: ``count(hand of you)``."""

    func: str
    args: tuple[Expr, ...]
    span: Span = _span()


# --------------------------------------------------------------------------- statements


@attrs.frozen
class Stmt:
    """Base of statements."""

    if TYPE_CHECKING:  # every statement has one (each subclass declares the field last)
        span: Span


@attrs.frozen
class Block(Stmt):
    body: tuple[Stmt, ...]
    span: Span = _span()


@attrs.frozen
class Let(Stmt):
    name: str
    value: Expr
    span: Span = _span()


@attrs.frozen
class SetVar(Stmt):
    name: str
    value: Expr
    span: Span = _span()


@attrs.frozen
class CounterOp(Stmt):
    op: str  # add | subtract | set
    target: CounterRef
    value: Expr
    span: Span = _span()


@attrs.frozen
class Move(Stmt):
    cards: Expr
    dest: Expr
    position: str  # top | bottom | random
    face: Optional[str]  # up | down | None (keeps the zone's rule)
    span: Span = _span()


@attrs.frozen
class Flip(Stmt):
    """``turn CARDS face up|down``: change how cards lie without moving them."""

    cards: Expr
    face: str
    span: Span = _span()


@attrs.frozen
class Shuffle(Stmt):
    zone: Expr
    span: Span = _span()


@attrs.frozen
class Sort(Stmt):
    """``sort ZONE by KEY``: the zone's cards in order of KEY (worked out with ``it`` = each card), lowest on top."""

    zone: Expr
    key: Expr
    span: Span = _span()


@attrs.frozen
class Rotate(Stmt):
    """``rotate NAME [counterclockwise]``: each player's zone NAME passes to the next player at once."""

    zone: str
    step: int
    span: Span = _span()


@attrs.frozen
class Reveal(Stmt):
    zone: Expr
    span: Span = _span()


@attrs.frozen
class Hide(Stmt):
    zone: Expr
    span: Span = _span()


@attrs.frozen
class Look(Stmt):
    cards: Expr
    who: Optional[Expr]
    span: Span = _span()


@attrs.frozen
class Mark(Stmt):
    """``mark card c "bound"`` / ``unmark player p "shielded"``."""

    target_kind: str  # card | player
    target: Expr
    mark: Expr
    remove: bool
    span: Span = _span()


@attrs.frozen
class Simultaneously(Stmt):
    """``simultaneously for each p in players { ... }``: sealed parts, revealed together."""

    var: str
    items: Expr
    body: Block
    span: Span = _span()


@attrs.frozen
class InAnyOrder(Stmt):
    """``[simultaneously] in any order for each p in players { ... }``: each player's part runs in
    turn; a part that runs ``pass`` comes back after the others.  ``sealed``: as ``simultaneously``."""

    var: str
    items: Expr
    body: Block
    sealed: bool
    span: Span = _span()


def may_pass(progress: Any) -> bool:
    """Whether the running part of an ``in any order`` may pass, from its frame's progress
    ``(queue, current, passed, passes_in_row, log_start)``: some other player still acts, and not
    every one of them has just passed (so the parts always come to an end)."""
    queue, _current, _passed, passes_in_row, _start = progress
    return len(queue) > 1 and passes_in_row < len(queue) - 1


@attrs.frozen
class Pass(Stmt):
    """``pass``: end the running part of an ``in any order``; it comes back after the others."""

    span: Span = _span()


@attrs.frozen
class If(Stmt):
    branches: tuple[tuple[Expr, Block], ...]
    orelse: Optional[Block]
    span: Span = _span()


@attrs.frozen
class ForEach(Stmt):
    var: str
    items: Expr
    body: Block
    span: Span = _span()


@attrs.frozen
class While(Stmt):
    cond: Expr
    body: Block
    span: Span = _span()


@attrs.frozen
class Repeat(Stmt):
    count: Expr
    body: Block
    span: Span = _span()


@attrs.frozen
class Break(Stmt):
    span: Span = _span()


@attrs.frozen
class CallProc(Stmt):
    """``call name(args)``: run a procedure declared under ``procedures:``; ``let x = call name(args)``
    (``result`` "x"): bind what the procedure's ``return`` gives (none when it ends without one)."""

    name: str
    args: tuple[Expr, ...]
    result: Optional[str] = None
    span: Span = _span()


@attrs.frozen
class Return(Stmt):
    """``return [EXPR]``: end the running procedure; its value goes to the ``let x = call ...`` that called it."""

    value: Optional[Expr]
    span: Span = _span()


@attrs.frozen
class UseAbility(Stmt):
    """``use "play" of c``: run the named ability of card ``c`` with ``this`` bound to it."""

    ability: str
    card: Expr
    user: Optional[Expr] = None  # 'by P': who uses it ('you' inside the ability); default: you
    span: Span = _span()


@attrs.frozen
class Choose(Stmt):
    """``let x = choose [N | up to N] KIND from SOURCE [by P] ["prompt"] [always]``.

    A pick with only one possible answer is taken at once, unless it says ``always`` (as Menu).
    """

    var: str
    kind: str  # player players card cards set number value
    mode: str  # one | exactly | upto
    count: Optional[Expr]
    source: Expr
    chooser: Optional[Expr]
    prompt: Union[str, Expr, None]  # a literal text, or a text joined with '+' to more (worked out when asked)
    always: bool = False
    span: Span = _span()


@attrs.frozen
class StaticOption:
    label: str
    cond: Optional[Expr]
    body: Block
    span: Span = _span()


@attrs.frozen
class DynamicOption:
    var: str
    source: Expr
    label: Optional[Expr]
    cond: Optional[Expr]
    body: Block
    kind: Optional[str] = None  # what the items are (player, card, set, value), when the text shows it
    span: Span = _span()


@attrs.frozen
class AnswerOption:
    """``option answers "event" [with a, b]``: the chooser's cards that answer the event, as options."""

    event: str
    passes: tuple[str, ...]
    span: Span = _span()


MenuItem = Union[StaticOption, DynamicOption, AnswerOption]


@attrs.frozen
class Menu(Stmt):
    """``choose by P "prompt" [always] { option ... }``: a labelled choice between branches.

    A menu with one available option is taken at once, unless it says ``always``
    (then the player is asked anyway, so that others cannot tell from the speed
    of play that nothing else was possible).
    """

    chooser: Optional[Expr]
    prompt: Union[str, Expr, None]  # as in Choose
    items: tuple[MenuItem, ...]
    always: bool = False
    span: Span = _span()


@attrs.frozen
class ExtraTurn(Stmt):
    player: Optional[Expr]
    span: Span = _span()


@attrs.frozen
class Turns(Stmt):
    """``take turns from P [counterclockwise] [skipping COND] until COND { turn }``."""

    first: Expr
    step: int  # +1 clockwise, -1 counterclockwise
    skip: Optional[Expr]
    until: Expr
    body: Block
    span: Span = _span()


@attrs.frozen
class EndGame(Stmt):
    span: Span = _span()


@attrs.frozen
class Fail(Stmt):
    """``fail "message"``: the game cannot go on (bad options or data); raises a RuleError here."""

    message: Expr
    span: Span = _span()


@attrs.frozen
class Say(Stmt):
    text: Expr
    to: Optional[Expr]
    # what the text's value is, when the effect text shows it: derived from `text`, so not compared
    kind: Optional[str] = attrs.field(default=None, eq=False)
    span: Span = _span()


@attrs.frozen
class Signal(Stmt):
    """``signal "event" for P [with a, b] [else { ... }]``: let cards answer an event.

    Card abilities declared with ``on: event`` whose card is in the named zone of
    player P (and whose ``when`` holds) answer it: mandatory ones all run,
    optional ones are offered to P (one may be used).  An ability marked
    ``instead`` replaces the ``else`` block.
    """

    event: str
    player: Expr
    passes: tuple[str, ...]
    orelse: Optional[Block]
    span: Span = _span()


# Structural statements made from the YAML flow, not from effect text.


@attrs.frozen
class Phase(Stmt):
    """A named phase of a round; entering it is logged and shown in views."""

    name: str
    body: Block
    span: Span = _span()


@attrs.frozen
class Rounds(Stmt):
    """Play rounds of the phases until the condition holds after a round."""

    until: Expr
    body: Block
    span: Span = _span()


SIMPLE_STMTS = (Fail, Flip, Let, SetVar, CounterOp, Move, Shuffle, Sort, Rotate, Reveal, Hide, Look, ExtraTurn, Say, Mark)
"""Statements that never pause and never push frames: run inline by a block."""


# Walking trees.


def children(node: Any) -> Iterator[Any]:
    """Every node directly inside ``node`` (expressions, statements, options), in field order."""
    return iter(_children(node))


def _children(node: Any) -> list[Any]:
    out: list[Any] = []
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:  # not a node class of this module
        names = tuple(f.name for f in attrs.fields(kind) if f.name != "span")
    for name in names:
        value = getattr(node, name)
        if isinstance(value, _NODE_TYPES):
            out.append(value)
        elif isinstance(value, tuple):
            _nodes_in(value, out)
    return out


def _nodes_in(items: tuple[Any, ...], out: list[Any]) -> None:
    for item in items:
        if isinstance(item, _NODE_TYPES):
            out.append(item)
        elif isinstance(item, tuple):
            _nodes_in(item, out)


def walk(node: Any) -> Iterator[Any]:
    """``node`` and every node inside it, depth first (a node before what it holds, in field order)."""
    stack = [node]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        inside = _children(node)
        if inside:
            inside.reverse()
            extend(inside)


_NODE_TYPES = (Expr, Stmt, StaticOption, DynamicOption, AnswerOption)
# each node class's fields that may hold nodes (all but the span), worked out once at import
_FIELDS: dict[type, tuple[str, ...]] = {
    kind: tuple(f.name for f in attrs.fields(kind) if f.name != "span")
    for kind in list(globals().values())
    if isinstance(kind, type) and attrs.has(kind) and issubclass(kind, _NODE_TYPES)
}
