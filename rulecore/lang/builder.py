"""Lark tree -> effect nodes: ``Builder``, the lark Transformer that makes the frozen nodes of
``nodes`` from a parsed tree, resolving every name against the cardset's ``Symbols`` (``hand of
you`` becomes a ``ZoneRef`` only if ``hand`` is a zone that belongs to players) and reporting an
unknown name with a guess.  Problems are collected, not raised one at a time."""

from __future__ import annotations

from typing import Any, Callable

from lark import Token, Transformer, v_args

from ..errors import Problem, Span, doc_ref
from . import nodes as n
from .functions import FUNCTIONS
from .kinds import static_kind
from .names import BUILTIN_NAMES, Symbols

MAX_DIGITS = 4300  # digits of an integer in effect text (Python's own limit for reading one)

#: ``make_span(line, column)``: the span in the cardset's file of a place in the effect text.
SpanMaker = Callable[[int, int], Span]


def _unquote(token: str) -> str:
    body = token[1:-1]
    return body.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in body else body


@v_args(meta=True, inline=True)
class Builder(Transformer):  # type: ignore[type-arg]
    """Builds ``nodes`` from the lark tree, resolving names against ``Symbols``."""

    def __init__(self, symbols: Symbols, make_span: SpanMaker):
        super().__init__(visit_tokens=False)
        self.symbols = symbols
        self.make_span = make_span
        self.problems: list[Problem] = []

    # ---- helpers
    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return self.make_span(0, 0)
        return self.make_span(meta.line, meta.column)

    def _tok_span(self, tok: Token) -> Span:
        return self.make_span(tok.line or 0, tok.column or 0)

    def _problem(self, span: Span, message: str, hint: str | None = None, code: str = "effect") -> n.Literal:
        self.problems.append(Problem(message, span, hint, code))
        return n.Literal(None, span)

    @staticmethod
    def _block(items: list[Any], span: Span) -> n.Block:
        return n.Block(tuple(i for i in items if i is not None), span)

    # ---- program structure
    def expr_start(self, meta: Any, expr: n.Expr) -> n.Expr:
        return expr

    def start(self, meta: Any, *stmts: Any) -> n.Block:
        return self._block(list(stmts), self._span(meta))

    def block(self, meta: Any, *stmts: Any) -> n.Block:
        return self._block(list(stmts), self._span(meta))

    def let_stmt(self, meta: Any, name: Token, value: n.Expr) -> n.Let:
        return n.Let(str(name), value, self._span(meta))

    def set_stmt(self, meta: Any, name: Token, value: n.Expr) -> n.Stmt:
        span = self._span(meta)
        sname = str(name)
        if sname in self.symbols.game_vars:
            return n.SetVar(sname, value, span)
        if sname in self.symbols.game_counters:
            return n.CounterOp("set", n.CounterRef(sname, None, span), value, span)
        guess = self.symbols.guess(sname, self.symbols.game_vars | self.symbols.game_counters)
        hint = f"did you mean '{guess}'?" if guess else "declare it under 'vars:' (or use 'let' for a local variable)"
        self._problem(self._tok_span(name), f"unknown game variable '{sname}'", hint, "unknown-name")
        return n.Block((), span)

    def ref(self, meta: Any, name: Token, owner: n.Expr) -> n.Expr:
        return self._of(name, owner, self._span(meta), want_counter=True)

    def game_ref(self, meta: Any, name: Token) -> n.Expr:
        sname = str(name)
        if sname in self.symbols.game_counters:
            return n.CounterRef(sname, None, self._span(meta))
        if sname in self.symbols.player_counters:
            return self._problem(self._tok_span(name), f"'{sname}' is a counter of each player: say whose",
                                 f"write '{sname} of you' or '{sname} of p'")
        guess = self.symbols.guess(sname, self.symbols.game_counters | self.symbols.player_counters)
        hint = f"did you mean '{guess}'?" if guess else "declare it under 'counters:'"
        return self._problem(self._tok_span(name), f"unknown counter '{sname}'", hint, "unknown-name")

    def _counter_stmt(self, op: str, meta: Any, target: n.Expr, value: n.Expr) -> n.Stmt:
        span = self._span(meta)
        if not isinstance(target, n.CounterRef):
            return n.Block((), span)
        return n.CounterOp(op, target, value, span)

    def add_stmt(self, meta: Any, value: n.Expr, target: n.Expr) -> n.Stmt:
        return self._counter_stmt("add", meta, target, value)

    def subtract_stmt(self, meta: Any, value: n.Expr, target: n.Expr) -> n.Stmt:
        return self._counter_stmt("subtract", meta, target, value)

    def set_counter_stmt(self, meta: Any, target: n.Expr, value: n.Expr) -> n.Stmt:
        return self._counter_stmt("set", meta, target, value)

    def move_stmt(self, meta: Any, cards: n.Expr, dest: n.Expr, position: Any, facing: Any) -> n.Move:
        return n.Move(cards, dest, position or "top", facing, self._span(meta))

    def position(self, meta: Any, tok: Token) -> str:
        return str(tok)

    def facing(self, meta: Any, tok: Token) -> str:
        return str(tok)

    def rotate_stmt(self, meta: Any, name: Token, order: Any) -> n.Stmt:
        span = self._span(meta)
        zone = str(name)
        if zone not in self.symbols.player_zones:
            pool = self.symbols.player_zones
            guess = self.symbols.guess(zone, pool)
            hint = f"did you mean '{guess}'?" if guess else "rotate takes the name of a zone each player has"
            self._problem(self._tok_span(name), f"'{zone}' is not a zone of each player", hint, "unknown-name")
            return n.Block((), span)
        step = -1 if order is not None and str(order) == "counterclockwise" else 1
        return n.Rotate(zone, step, span)

    def flip_stmt(self, meta: Any, cards: n.Expr, face: Token) -> n.Flip:
        return n.Flip(cards, str(face), self._span(meta))

    def shuffle_stmt(self, meta: Any, zone: n.Expr) -> n.Shuffle:
        return n.Shuffle(zone, self._span(meta))

    def sort_stmt(self, meta: Any, zone: n.Expr, key: n.Expr) -> n.Sort:
        return n.Sort(zone, key, self._span(meta))

    def reveal_stmt(self, meta: Any, zone: n.Expr) -> n.Reveal:
        return n.Reveal(zone, self._span(meta))

    def hide_stmt(self, meta: Any, zone: n.Expr) -> n.Hide:
        return n.Hide(zone, self._span(meta))

    def look_stmt(self, meta: Any, cards: n.Expr, who: Any) -> n.Look:
        return n.Look(cards, who, self._span(meta))

    def if_stmt(self, meta: Any, cond: n.Expr, body: n.Block, *rest: Any) -> n.If:
        branches = [(cond, body)]
        orelse = None
        for item in rest:
            if item is None:
                continue
            if item[0] == "elif":
                branches.append((item[1], item[2]))
            else:
                orelse = item[1]
        return n.If(tuple(branches), orelse, self._span(meta))

    def elif_clause(self, meta: Any, cond: n.Expr, body: n.Block) -> tuple[str, n.Expr, n.Block]:
        return ("elif", cond, body)

    def else_clause(self, meta: Any, body: n.Block) -> tuple[str, n.Block]:
        return ("else", body)

    def _mark(self, meta: Any, kind: Token, target: n.Expr, mark: n.Expr, remove: bool) -> n.Stmt:
        skind = str(kind)
        if skind not in ("card", "player"):
            self._problem(self._tok_span(kind), f"'mark' takes 'card' or 'player', not '{skind}'",
                          'e.g. mark card c "bound"', "effect")
            return n.Block((), self._span(meta))
        return n.Mark(skind, target, mark, remove, self._span(meta))

    def mark_stmt(self, meta: Any, kind: Token, target: n.Expr, mark: n.Expr) -> n.Stmt:
        return self._mark(meta, kind, target, mark, False)

    def unmark_stmt(self, meta: Any, kind: Token, target: n.Expr, mark: n.Expr) -> n.Stmt:
        return self._mark(meta, kind, target, mark, True)

    def simul_stmt(self, meta: Any, any_order: Token | None, name: Token, items: n.Expr, body: n.Block) -> n.Stmt:
        if any_order is not None:
            return n.InAnyOrder(str(name), items, body, True, self._span(meta))
        return n.Simultaneously(str(name), items, body, self._span(meta))

    def any_order_stmt(self, meta: Any, _any_order: Token, name: Token, items: n.Expr, body: n.Block) -> n.InAnyOrder:
        return n.InAnyOrder(str(name), items, body, False, self._span(meta))

    def pass_stmt(self, meta: Any) -> n.Pass:
        return n.Pass(self._span(meta))

    def for_stmt(self, meta: Any, name: Token, items: n.Expr, body: n.Block) -> n.ForEach:
        return n.ForEach(str(name), items, body, self._span(meta))

    def while_stmt(self, meta: Any, cond: n.Expr, body: n.Block) -> n.While:
        return n.While(cond, body, self._span(meta))

    def repeat_stmt(self, meta: Any, count: n.Expr, body: n.Block) -> n.Repeat:
        return n.Repeat(count, body, self._span(meta))

    def break_stmt(self, meta: Any) -> n.Break:
        return n.Break(self._span(meta))

    def call_stmt(self, meta: Any, name: Token, args: Any) -> n.CallProc:
        return n.CallProc(str(name), tuple(args or ()), span=self._span(meta))

    def let_call_stmt(self, meta: Any, var: Token, name: Token, args: Any) -> n.CallProc:
        return n.CallProc(str(name), tuple(args or ()), str(var), self._span(meta))

    def return_stmt(self, meta: Any, value: Any) -> n.Return:
        return n.Return(value, self._span(meta))

    def args(self, meta: Any, *items: Any) -> tuple[n.Expr, ...]:
        return tuple(i for i in items if i is not None)

    def use_stmt(self, meta: Any, ability: Token, card: n.Expr, user: Any) -> n.UseAbility:
        return n.UseAbility(_unquote(str(ability)), card, user, self._span(meta))

    def choose_stmt(
        self, meta: Any, name: Token, quantity: Any, kind: Token, source: n.Expr, by: Any, prompt: Any, always: Any
    ) -> n.Choose:
        mode, count = ("one", None) if quantity is None else quantity
        skind = str(kind)
        if mode == "one" and skind in ("players", "cards"):
            mode, count = "upto", None
        return n.Choose(str(name), skind, mode, count, source, by, prompt, always is not None, self._span(meta))

    def exactly_n(self, meta: Any, value: Any) -> tuple[str, n.Expr]:
        if isinstance(value, Token):
            value = self._int(value, self._tok_span(value))
        return ("exactly", value)

    def up_to_n(self, meta: Any, value: n.Expr) -> tuple[str, n.Expr]:
        return ("upto", value)

    def kind(self, meta: Any, word: Token) -> Token:
        return word

    def order(self, meta: Any, word: Token) -> Token:
        return word

    def by(self, meta: Any, who: n.Expr) -> n.Expr:
        return who

    def prompt(self, meta: Any, head: n.Expr, *parts: n.Expr) -> str | n.Expr:
        """A quoted text alone stays a str; any other prompt is the expression (the first part, then
        each part joined with '+'), worked out when the question is asked."""
        if not parts and isinstance(head, n.Literal) and isinstance(head.value, str):
            return head.value
        value: n.Expr = head
        for part in parts:
            value = n.BinOp("+", value, part, self._span(meta))
        return value

    def menu_stmt(self, meta: Any, by: Any, prompt: Any, always: Any, *items: Any) -> n.Menu:
        return n.Menu(by, prompt, tuple(items), always is not None, self._span(meta))

    def static_option(self, meta: Any, text: Token, cond: Any, body: n.Block) -> n.StaticOption:
        return n.StaticOption(_unquote(str(text)), cond, body, self._span(meta))

    def dynamic_option(
        self, meta: Any, name: Token, source: n.Expr, label: Any, cond: Any, body: n.Block
    ) -> n.DynamicOption:
        return n.DynamicOption(str(name), source, label, cond, body, static_kind(source), self._span(meta))

    def answer_option(self, meta: Any, event: Token, passes: Any) -> n.AnswerOption:
        return n.AnswerOption(_unquote(str(event)), tuple(passes or ()), self._span(meta))

    def label(self, meta: Any, expr: n.Expr) -> n.Expr:
        return expr

    def condition(self, meta: Any, expr: n.Expr) -> n.Expr:
        return expr

    def signal_stmt(self, meta: Any, event: Token, player: n.Expr, passes: Any, orelse: Any) -> n.Signal:
        return n.Signal(_unquote(str(event)), player, tuple(passes or ()), orelse[1] if orelse else None,
                        self._span(meta))

    def passing(self, meta: Any, *names: Token) -> tuple[str, ...]:
        return tuple(str(x) for x in names)

    def extra_turn_stmt(self, meta: Any, by: Any) -> n.ExtraTurn:
        return n.ExtraTurn(by, self._span(meta))

    def turns_stmt(self, meta: Any, first: n.Expr, order: Any, skip: Any, until: n.Expr, body: n.Block) -> n.Turns:
        step = -1 if order is not None and str(order) == "counterclockwise" else 1
        return n.Turns(first, step, skip, until, body, self._span(meta))

    def skip(self, meta: Any, expr: n.Expr) -> n.Expr:
        return expr

    def fail_stmt(self, meta: Any, message: n.Expr) -> n.Fail:
        return n.Fail(message, self._span(meta))

    def end_game_stmt(self, meta: Any) -> n.EndGame:
        return n.EndGame(self._span(meta))

    def say_stmt(self, meta: Any, text: n.Expr, to: Any = None) -> n.Say:
        return n.Say(text, to, static_kind(text), self._span(meta))

    # ---- expressions
    def where_expr(self, meta: Any, source: n.Expr, cond: n.Expr) -> n.Where:
        return n.Where(source, cond, self._span(meta))

    def or_(self, meta: Any, a: n.Expr, b: n.Expr) -> n.Or:
        return n.Or(a, b, self._span(meta))

    def and_(self, meta: Any, a: n.Expr, b: n.Expr) -> n.And:
        return n.And(a, b, self._span(meta))

    def not_(self, meta: Any, a: n.Expr) -> n.Not:
        return n.Not(a, self._span(meta))

    def compare(self, meta: Any, a: n.Expr, op: Token, b: n.Expr) -> n.Compare:
        return n.Compare(str(op), a, b, self._span(meta))

    def contains(self, meta: Any, item: n.Expr, coll: n.Expr) -> n.Contains:
        return n.Contains(item, coll, False, self._span(meta))

    def not_contains(self, meta: Any, item: n.Expr, coll: n.Expr) -> n.Contains:
        return n.Contains(item, coll, True, self._span(meta))

    def _bin(op: str) -> Callable[..., n.BinOp]:  # type: ignore[misc]
        def method(self: "Builder", meta: Any, a: n.Expr, b: n.Expr) -> n.BinOp:
            return n.BinOp(op, a, b, self._span(meta))

        return method

    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("/")
    mod = _bin("%")

    def neg(self, meta: Any, a: n.Expr) -> n.Neg:
        return n.Neg(a, self._span(meta))

    def attr(self, meta: Any, obj: n.Expr, name: Token) -> n.Attr:
        return n.Attr(obj, str(name), self._span(meta))

    def of_expr(self, meta: Any, name: Token, owner: n.Expr) -> n.Expr:
        return self._of(name, owner, self._span(meta))

    def _of(self, name: Token, owner: n.Expr, span: Span, want_counter: bool = False) -> n.Expr:
        sname = str(name)
        sym = self.symbols
        if sname in sym.player_counters:
            return n.CounterRef(sname, owner, span)
        if sname in sym.player_zones and not want_counter:
            return n.ZoneRef(sname, owner, span)
        tspan = self._tok_span(name)
        if sname in sym.shared_zones or sname in sym.game_counters:
            what = "zone" if sname in sym.shared_zones else "counter"
            return self._problem(
                tspan, f"'{sname}' is a shared {what}, not one per player", f"write '{sname}' without 'of ...'"
            )
        if want_counter:
            pool = sym.player_counters
            if sname in sym.player_zones:
                return self._problem(tspan, f"'{sname}' is a zone, not a counter", "only counters can be added to or set")
            what = "counter"
        else:
            pool = sym.player_zones | sym.player_counters
            what = "zone or counter"
        guess = sym.guess(sname, pool)
        hint = f"did you mean '{guess}'?" if guess else f"known: {', '.join(sorted(pool)) or 'none'}"
        return self._problem(tspan, f"unknown {what} '{sname}'", hint, "unknown-name")

    def left_of(self, meta: Any, who: n.Expr) -> n.Seat:
        return n.Seat(who, 1, self._span(meta))

    def right_of(self, meta: Any, who: n.Expr) -> n.Seat:
        return n.Seat(who, -1, self._span(meta))

    def number(self, meta: Any, tok: Token) -> n.Literal:
        return self._int(tok, self._span(meta))

    def _int(self, tok: Token, span: Span) -> n.Literal:
        """A number of the text; more than MAX_DIGITS digits is a located problem (Python refuses to read it)."""
        if len(tok) > MAX_DIGITS:
            return self._problem(span, f"a number with more than {MAX_DIGITS} digits ({len(tok)})",
                                 "card games need small numbers", "effect-syntax")
        return n.Literal(int(tok), span)

    def string(self, meta: Any, tok: Token) -> n.Literal:
        try:
            text = _unquote(str(tok))
            text.encode("utf-8")
        except UnicodeDecodeError:
            return self._problem(self._span(meta), "a '\\' in text that starts no escape", "write '\\\\' for a "
                                 "backslash", "effect-syntax")
        except UnicodeEncodeError:
            return self._problem(self._span(meta), "the text holds a character that cannot be printed (a lone "
                                 "surrogate)", "write the character itself", "effect-syntax")
        return n.Literal(text, self._span(meta))

    def true(self, meta: Any) -> n.Literal:
        return n.Literal(True, self._span(meta))

    def false(self, meta: Any) -> n.Literal:
        return n.Literal(False, self._span(meta))

    def none(self, meta: Any) -> n.Literal:
        return n.Literal(None, self._span(meta))

    def list_expr(self, meta: Any, *items: Any) -> n.ListExpr:
        return n.ListExpr(tuple(i for i in items if i is not None), self._span(meta))

    def call(self, meta: Any, name: Token, *args: Any) -> n.Expr:
        span = self._span(meta)
        fname = str(name)
        args_t = tuple(a for a in args if a is not None)
        if fname in self.symbols.functions and fname not in FUNCTIONS:
            arity = self.symbols.functions[fname]
            if len(args_t) != arity:
                return self._problem(span, f"{fname}() takes {arity} argument{'s' if arity != 1 else ''} "
                                     f"(got {len(args_t)})", "see its 'params' under 'functions:'", "arity")
            return n.UserCall(fname, args_t, span)
        sig = FUNCTIONS.get(fname)
        if sig is None:
            guess = self.symbols.guess(fname, set(FUNCTIONS) | set(self.symbols.functions))
            hint = f"did you mean '{guess}'?" if guess else f"see {doc_ref('docs/effect-language.md')} for the functions"
            return self._problem(self._tok_span(name), f"unknown function '{fname}'", hint, "unknown-name")
        if not sig.min_args <= len(args_t) <= sig.max_args:
            want = str(sig.min_args) if sig.min_args == sig.max_args else f"{sig.min_args} to {sig.max_args}"
            return self._problem(
                span,
                f"{fname}() takes {want} argument{'s' if sig.max_args != 1 else ''} (got {len(args_t)})",
                f"usage: {sig.usage}",
                "arity",
            )
        return n.Call(fname, args_t, span)

    def name(self, meta: Any, tok: Token) -> n.Expr:
        span = self._span(meta)
        sname = str(tok)
        sym = self.symbols
        if sname in BUILTIN_NAMES:
            return n.Builtin(sname, span)
        if sname in sym.game_vars:
            return n.GameVar(sname, span)
        if sname in sym.game_counters:
            return n.CounterRef(sname, None, span)
        if sname in sym.shared_zones:
            return n.ZoneRef(sname, None, span)
        if sname in sym.player_zones or sname in sym.player_counters:
            what = "zone" if sname in sym.player_zones else "counter"
            return self._problem(
                span, f"'{sname}' is a {what} of each player (or slot): say which", f"write '{sname} of you' or '{sname} of p'"
            )
        return n.Var(sname, span)
