"""Meaning checks over built effect trees: names bound, references real, kinds sensible.

Runs after parsing, over every ability, procedure, phase and expression of a
cardset, and returns every problem it finds (it never stops at the first).
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Iterable

import attrs

from ...errors import Problem, Span
from ...lang import nodes as n
from ...lang.functions import FUNCTIONS
from ...lang.kinds import KIND_WORDS, kind_of, static_kind
from ...lang.nodes import children, walk
from ...lang.names import BUILTIN_NAMES, KEYWORDS
from .flows import check_flows
from .returns import check_returns
from .types import check_kinds
from .walking import one_per_family

if TYPE_CHECKING:
    from ..model import Cardset

CARD_ATTRS = ("name", "type", "tags", "marks", "face_up")


def bound_names(body: Any) -> set[str]:
    names: set[str] = set()
    for node in walk(body):
        if isinstance(node, (n.Let, n.Choose)):
            names.add(node.name if isinstance(node, n.Let) else node.var)
        elif isinstance(node, (n.ForEach, n.DynamicOption, n.Simultaneously, n.InAnyOrder)):
            names.add(node.var)
        elif isinstance(node, n.CallProc) and node.result is not None:
            names.add(node.result)
    return names


def card_names(body: Any) -> set[str]:
    """Locals that only ever hold cards: bound by 'choose card(s)', or by a loop or an option over cards."""
    cards: set[str] = set()
    other: set[str] = set()
    for node in walk(body):
        if isinstance(node, n.Choose):
            (cards if node.kind in ("card", "cards") else other).add(node.var)
        elif isinstance(node, (n.ForEach, n.DynamicOption)):
            kind = node.kind if isinstance(node, n.DynamicOption) else static_kind(node.items)
            (cards if kind == "card" else other).add(node.var)
        elif isinstance(node, (n.Let, n.Simultaneously)):
            other.add(node.name if isinstance(node, n.Let) else node.var)
        elif isinstance(node, n.CallProc) and node.result is not None:
            other.add(node.result)
    return cards - other


@attrs.define
class _Context:
    scope: set[str]
    has_this: bool
    where: str
    function: tuple[str, ...] | None = None  # in a function of the cardset: its parameters
    cards: set[str] = attrs.Factory(set)  # locals that only hold cards


class Checker:
    def __init__(self, cardset: "Cardset"):
        self.cs = cardset
        self.problems: list[Problem] = []
        self.props = set(CARD_ATTRS)
        self.tags: set[str] = set()
        self.abilities: set[str] = set()
        self._attrs_of: dict[int, str] = {}  # id of an object whose property is read -> the property
        for card in cardset.cards.values():
            self.props.update(card.props)
            self.tags.update(card.tags)
            self.abilities.update(card.abilities)

    def problem(self, span: Span, message: str, hint: str | None = None, code: str = "effect") -> None:
        self.problems.append(Problem(message, span, hint, code))

    @staticmethod
    def guess(name: str, pool: Iterable[str]) -> str | None:
        found = difflib.get_close_matches(name, sorted(pool), n=1, cutoff=0.6)
        return found[0] if found else None

    # ---- entry points
    def check_body(self, body: Any, params: Iterable[str], has_this: bool, where: str) -> None:
        if body is None:
            return
        for node in walk(body):
            name = None
            if isinstance(node, (n.Let, n.Choose)):
                name = node.name if isinstance(node, n.Let) else node.var
            elif isinstance(node, (n.ForEach, n.DynamicOption, n.Simultaneously, n.InAnyOrder)):
                name = node.var
            elif isinstance(node, n.CallProc):
                name = node.result
            if name is not None and (name in KEYWORDS or name in BUILTIN_NAMES):
                what = "a built-in name" if name in BUILTIN_NAMES else "a reserved word"
                self.problem(node.span, f"'{name}' is {what} and cannot name a variable", "pick another name",
                             "reserved")
            elif name is not None and name in self.cs.vars:
                # reading NAME gives the game variable, so a local of that name would never be read
                self.problem(node.span, f"'{name}' is a game variable and cannot name a local variable",
                             f"pick another name, or 'set {name} to ...' to change the game variable", "reserved")
        ctx = _Context(bound_names(body) | set(params), has_this, where, cards=card_names(body))
        self.stmt(body, ctx, loops=0)

    def check_expr(self, expr: Any, has_this: bool, where: str, extra: Iterable[str] = (),
                   function: bool = False) -> None:
        if expr is None:
            return
        extra = tuple(extra)
        self.expr(expr, _Context(set(extra), has_this, where, extra if function else None), it=0)

    def check_function_cycles(self) -> None:
        calls = {
            f.name: {node.func for node in walk(f.body) if isinstance(node, n.UserCall)}
            for f in self.cs.functions.values()
        }
        for start in calls:
            stack, seen = [start], set()
            while stack:
                for callee in calls.get(stack.pop(), ()):
                    if callee == start:
                        f = self.cs.functions[start]
                        self.problem(f.body.span, f"function '{start}' calls itself (directly or through others)",
                                     "functions cannot recurse; use a procedure with a loop", "recursion")
                        stack = []
                        break
                    if callee not in seen:
                        seen.add(callee)
                        stack.append(callee)

    # ---- statements
    def stmt(self, node: Any, ctx: _Context, loops: int) -> None:
        if isinstance(node, n.Block):
            for s in node.body:
                self.stmt(s, ctx, loops)
            return
        if isinstance(node, (n.Simultaneously, n.InAnyOrder)):
            self.expr(node.items, ctx, 0)
            self.stmt(node.body, ctx, 0)  # no 'break' out of a player's part
            return
        if isinstance(node, (n.ForEach, n.While, n.Repeat)):
            for child in children(node):
                if isinstance(child, n.Stmt):
                    self.stmt(child, ctx, loops + 1)
                else:
                    self.expr(child, ctx, 0)
            return
        if isinstance(node, n.Sort):
            self.expect_zone(node.zone, "sort")
            self.expr(node.zone, ctx, 0)
            self.expr(node.key, ctx, 1)
            return
        if isinstance(node, n.Turns):
            self.expr(node.first, ctx, 0)
            if node.skip is not None:
                self.expr(node.skip, ctx, 1)
            self.expr(node.until, ctx, 0)
            self.stmt(node.body, ctx, 0)
            return
        if isinstance(node, n.Break):
            if loops == 0:
                self.problem(node.span, "'break' outside a loop", "use it inside for each, while or repeat", "break")
            return
        if isinstance(node, n.CallProc):
            proc = self.cs.procedures.get(node.name)
            if proc is None:
                guess = self.guess(node.name, self.cs.procedures)
                hint = f"did you mean '{guess}'?" if guess else "declare it under 'procedures:'"
                self.problem(node.span, f"unknown procedure '{node.name}'", hint, "unknown-name")
            elif len(proc.params) != len(node.args):
                self.problem(node.span, f"procedure '{node.name}' takes {len(proc.params)} argument(s) "
                             f"({', '.join(proc.params) or 'none'}), got {len(node.args)}", None, "arity")
        if isinstance(node, n.UseAbility) and node.ability not in self.abilities:
            guess = self.guess(node.ability, self.abilities)
            hint = f"did you mean '{guess}'?" if guess else "no card has an ability of that name"
            self.problem(node.span, f"no card has an ability '{node.ability}'", hint, "unknown-name")
        if isinstance(node, n.Move):
            self.expect_zone(node.dest, "move ... to")
        if isinstance(node, (n.Shuffle, n.Reveal, n.Hide)):
            self.expect_zone(node.zone, type(node).__name__.lower())
        if isinstance(node, n.Choose):
            self.check_choose(node)
        for child in children(node):
            if isinstance(child, (n.Stmt, n.StaticOption, n.DynamicOption, n.AnswerOption)):
                self.stmt(child, ctx, loops)
            else:
                self.expr(child, ctx, 0)

    def expect_zone(self, expr: Any, what: str) -> None:
        kind = kind_of(expr)
        if kind == "zone" or (kind is None and not isinstance(expr, n.BinOp)):
            return
        hint = "name a zone, e.g. 'discard' or 'hand of you'"
        if isinstance(expr, n.Builtin):
            got = f"the {'player ' if kind in ('player', 'players') else ''}value '{expr.name}'"
            hint = "name a zone, e.g. 'hand of you'"
        elif isinstance(expr, n.CounterRef):
            got = f"the counter '{expr.counter}'"
        else:
            got = KIND_WORDS.get(kind or "", "a number or a list")  # a '+' whose sides the text does not show
        self.problem(expr.span, f"'{what}' needs a zone here, got {got}", hint, "kind")

    def unknown_name(self, node: n.Var, ctx: _Context, it: int) -> None:
        """An unknown local, with the hint that points at the real cause."""
        name = node.name
        if name in self.cs.functions or name in FUNCTIONS:
            call = (f"{name}({', '.join(self.cs.functions[name].params)})" if name in self.cs.functions
                    else FUNCTIONS[name].usage)
            self.problem(node.span, f"'{name}' is a function: call it with brackets, {call}",
                         f"write {call}" + (f".{self._attr_after(node)}" if self._attr_after(node) else ""),
                         "unknown-name")
            return
        builtins = set(BUILTIN_NAMES) - ({"it"} if it == 0 else set()) - ({"this"} if not ctx.has_this else set())
        if ctx.function is not None:
            guess = self.guess(name, ctx.function)
            hint = f"did you mean '{guess}'?" if guess else (
                f"a function sees only its parameters ({', '.join(ctx.function) or 'none'}) and the cardset's "
                f"names, not the caller's locals: add '{name}' to its 'params' and pass it")
        else:
            pool = set(ctx.scope) | builtins | set(self.cs.zones) | set(self.cs.counters) | set(self.cs.vars)
            guess = self.guess(name, pool)
            hint = f"did you mean '{guess}'?" if guess else "bind it first with 'let'"
        self.problem(node.span, f"unknown name '{name}' in {ctx.where}", hint, "unknown-name")

    def _attr_after(self, node: n.Var) -> str:
        """The property read right after ``node`` ('lead_card.suit' gives 'suit'), if any."""
        return self._attrs_of.get(id(node), "")

    def expect_zone_of_owner(self, arg: Any, ctx: _Context) -> None:
        """owner() takes a zone: a card, a player or a number there is a mistake the text shows."""
        kind = kind_of(arg)
        got = KIND_WORDS.get(kind or "")
        is_card = static_kind(arg) == "card" and not isinstance(arg, n.ZoneRef) or (
            isinstance(arg, n.Var) and arg.name in ctx.cards) or (isinstance(arg, n.Builtin) and arg.name == "this")
        if is_card:
            got = "a card"
        if kind in ("zone", None, "nothing") and not is_card:
            return
        self.problem(arg.span, f"owner() needs a zone, got {got}",
                     "owner(zone_of(c)) is the player whose zone holds card c" if is_card
                     else "e.g. owner(zone_of(c)) or owner(hand of p)", "kind")

    def check_choose(self, node: n.Choose) -> None:
        src = node.source
        wants_players = node.kind in ("player", "players")
        if wants_players and isinstance(src, n.ZoneRef):
            self.problem(src.span, f"'choose {node.kind}' needs players, got the zone '{src.zone}'",
                         f"did you mean 'choose card from {src.zone} ...'?", "kind")
        if node.kind in ("card", "cards") and isinstance(src, n.Builtin) and src.name in ("players", "opponents"):
            self.problem(src.span, f"'choose {node.kind}' needs cards, got the players '{src.name}'",
                         f"did you mean 'choose player from {src.name}'?", "kind")
        if node.kind == "number" and isinstance(src, n.ZoneRef):
            self.problem(src.span, "'choose number' needs numbers, got a zone", "e.g. 'choose number from [1, 2, 3]'",
                         "kind")

    # ---- expressions
    def expr(self, node: Any, ctx: _Context, it: int) -> None:
        if node is None:
            return
        if isinstance(node, n.Var):
            if node.name not in ctx.scope:
                self.unknown_name(node, ctx, it)
            return
        if isinstance(node, n.Builtin):
            if node.name == "this" and not ctx.has_this:
                self.problem(node.span, "'this' is only known inside a card's ability", None, "scope")
            if node.name == "it" and it == 0:
                self.problem(node.span, "'it' is only known inside a 'where' condition or a per-item function",
                             "e.g. 'opponents where count(hand of it) > 0'", "scope")
            return
        if isinstance(node, n.Where):
            self.expr(node.source, ctx, it)
            self.expr(node.cond, ctx, it + 1)
            return
        if isinstance(node, n.Call):
            if node.func == "owner" and node.args:
                self.expect_zone_of_owner(node.args[0], ctx)
            sig = FUNCTIONS[node.func]
            for i, arg in enumerate(node.args):
                self.expr(arg, ctx, it + 1 if (sig.per_item and i == 1) else it)
            return
        if isinstance(node, n.Attr):
            self._attrs_of[id(node.obj)] = node.name
            if node.name not in self.props:
                guess = self.guess(node.name, self.props)
                hint = f"did you mean '{guess}'?" if guess else f"cards have: {', '.join(sorted(self.props))}"
                self.problem(node.span, f"cards have no property '{node.name}'", hint, "unknown-name")
        if isinstance(node, n.Compare) and node.op in ("==", "!="):
            for a, b in ((node.left, node.right), (node.right, node.left)):
                if isinstance(a, n.Attr) and a.name == "type" and isinstance(b, n.Literal) and isinstance(b.value, str):
                    if b.value not in self.cs.cards:
                        guess = self.guess(b.value, self.cs.cards)
                        hint = f"did you mean '{guess}'?" if guess else "card types are the ids under 'cards:'"
                        self.problem(b.span, f"unknown card type '{b.value}'", hint, "unknown-name")
        if isinstance(node, n.Contains):
            if (isinstance(node.collection, n.Attr) and node.collection.name == "tags"
                    and isinstance(node.item, n.Literal) and isinstance(node.item.value, str)
                    and node.item.value not in self.tags):
                guess = self.guess(node.item.value, self.tags)
                hint = f"did you mean '{guess}'?" if guess else "no card has that tag"
                self.problem(node.item.span, f"unknown tag '{node.item.value}'", hint, "unknown-name")
        for child in children(node):
            self.expr(child, ctx, it)


def check_cardset(cs: "Cardset") -> list[Problem]:
    """Every meaning problem in the cardset's effect trees."""
    ch = Checker(cs)
    for card in one_per_family(cs):  # the cards of a family share their trees: check them once
        who = card.name if card.family is None else f"family {card.family}"
        ch.check_expr(card.include_if, False, f"card '{card.name}'" if card.family is None else who)
        for ability in card.abilities.values():
            ch.check_body(ability.body, ability.params, True, f"{who}'s '{ability.name}'")
            ch.check_expr(ability.when, True, f"{who}'s '{ability.name}' condition", extra=ability.params)
    for proc in cs.procedures.values():
        ch.check_body(proc.body, proc.params, False, f"procedure '{proc.name}'")
    ch.check_body(cs.program, (), False, "the flow")
    for func in cs.functions.values():
        ch.check_expr(func.body, False, f"function '{func.name}'", extra=func.params, function=True)
    ch.check_function_cycles()
    ch.check_expr(cs.winners, False, "end.winners")
    ch.check_expr(cs.heuristic, False, "heuristic")
    return ch.problems + check_returns(cs) + check_kinds(cs) + check_flows(cs)
