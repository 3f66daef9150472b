"""Effect trees back to effect-language text: the inverse of the parser.

``render_expr`` and ``render_block`` write expression and statement nodes as text that parses
to an equal tree (tests/test_render.py round-trips every built-in ability and random
expressions), with brackets only where the grammar's precedence needs them; ``quote`` writes a
"quoted text". ``rulecore explain``, the linter's messages and ``rulecore play``'s card texts
show trees this way.
"""

from __future__ import annotations

from typing import Any

from . import nodes as n

__all__ = ["INDENT", "quote", "render_block", "render_expr", "render_stmt"]

INDENT = "  "

# --------------------------------------------------------------------------- expressions -> text

# how tightly each form binds (higher: tighter), after the grammar's precedence
_WHERE, _OR, _AND, _NOT, _COMPARE, _SUM, _PRODUCT, _UNARY, _POSTFIX, _ATOM = range(1, 11)
_BINOP_LEVEL = {"+": _SUM, "-": _SUM, "*": _PRODUCT, "/": _PRODUCT, "%": _PRODUCT}


def quote(text: str) -> str:
    """A "quoted text" of the effect language."""
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return f'"{body}"'


def _level(e: Any) -> int:
    if isinstance(e, n.Where):
        return _WHERE
    if isinstance(e, n.Or):
        return _OR
    if isinstance(e, n.And):
        return _AND
    if isinstance(e, n.Not):
        return _NOT
    if isinstance(e, (n.Compare, n.Contains)):
        return _COMPARE
    if isinstance(e, n.BinOp):
        return _BINOP_LEVEL[e.op]
    if isinstance(e, n.Neg):
        return _UNARY
    if isinstance(e, n.Literal) and isinstance(e.value, int) and not isinstance(e.value, bool) and e.value < 0:
        return _UNARY
    if isinstance(e, n.Attr) or _is_of_form(e):
        return _POSTFIX
    return _ATOM


def _is_of_form(e: Any) -> bool:
    """'NAME of X', 'left of X': their operand runs on to the right, so they need brackets before '.name'."""
    return isinstance(e, n.Seat) or (isinstance(e, (n.ZoneRef, n.CounterRef)) and e.owner is not None)


def _at(e: Any, level: int) -> str:
    text = render_expr(e)
    return f"({text})" if _level(e) < level else text


def render_expr(e: Any) -> str:
    """Effect-language text for an expression node."""
    if isinstance(e, n.Literal):
        v = e.value
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return quote(v)
        if isinstance(v, (tuple, list)):
            return "[" + ", ".join(render_expr(n.Literal(x)) for x in v) + "]"
        return repr(v)
    if isinstance(e, n.ListExpr):
        return "[" + ", ".join(render_expr(i) for i in e.items) + "]"
    if isinstance(e, (n.Var, n.Builtin, n.GameVar)):
        return e.name
    if isinstance(e, n.ZoneRef):
        return e.zone if e.owner is None else f"{e.zone} of {_at(e.owner, _POSTFIX)}"
    if isinstance(e, n.CounterRef):
        return e.counter if e.owner is None else f"{e.counter} of {_at(e.owner, _POSTFIX)}"
    if isinstance(e, n.Attr):
        obj = _at(e.obj, _POSTFIX)
        if _is_of_form(e.obj):
            obj = f"({obj})"
        return f"{obj}.{e.name}"
    if isinstance(e, n.Where):
        return f"{_at(e.source, _WHERE)} where {_at(e.cond, _OR)}"
    if isinstance(e, n.BinOp):
        level = _BINOP_LEVEL[e.op]
        return f"{_at(e.left, level)} {e.op} {_at(e.right, level + 1)}"
    if isinstance(e, n.Compare):
        return f"{_at(e.left, _SUM)} {e.op} {_at(e.right, _SUM)}"
    if isinstance(e, n.Contains):
        word = "not in" if e.negate else "in"
        return f"{_at(e.item, _SUM)} {word} {_at(e.collection, _SUM)}"
    if isinstance(e, n.And):
        return f"{_at(e.left, _AND)} and {_at(e.right, _NOT)}"
    if isinstance(e, n.Or):
        return f"{_at(e.left, _OR)} or {_at(e.right, _AND)}"
    if isinstance(e, n.Not):
        return f"not {_at(e.operand, _NOT)}"
    if isinstance(e, n.Neg):
        return f"-{_at(e.operand, _UNARY)}"
    if isinstance(e, n.Seat):
        return f"{'left' if e.step == 1 else 'right'} of {_at(e.player, _POSTFIX)}"
    if isinstance(e, (n.Call, n.UserCall)):
        return f"{e.func}(" + ", ".join(render_expr(a) for a in e.args) + ")"
    return f"<{type(e).__name__}>"


# --------------------------------------------------------------------------- statements -> text


def render_block(block: Any, indent: int = 0) -> str:
    """Effect-language text for a block (or one statement), one statement a line."""
    return "\n".join(_stmt_lines(block, indent))


def render_stmt(stmt: Any) -> str:
    return render_block(stmt)


def _body(header: str, block: Any, indent: int, closing: str = "}") -> list[str]:
    pad = INDENT * indent
    return [f"{pad}{header} {{"] + _stmt_lines(block, indent + 1) + [f"{pad}{closing}"]


def _by(who: Any) -> str:
    return f" by {_at(who, _POSTFIX)}" if who is not None else ""


def _prompt(prompt: Any) -> str:
    """' "text"', ' "text" + more' or nothing: a prompt as written after a choice."""
    if prompt is None:
        return ""
    return f" {quote(prompt)}" if isinstance(prompt, str) else f" {render_expr(prompt)}"


def _counter_target(target: n.CounterRef) -> str:
    return render_expr(target)


def _stmt_lines(s: Any, indent: int) -> list[str]:
    pad = INDENT * indent
    if isinstance(s, n.Block):
        out: list[str] = []
        for item in s.body:
            out.extend(_stmt_lines(item, indent))
        return out
    if isinstance(s, n.Choose):
        qty = ""
        if s.mode == "exactly" and s.count is not None:
            qty = f" exactly {render_expr(s.count)}"
        elif s.mode == "upto" and s.count is not None:
            qty = f" up to {render_expr(s.count)}"
        prompt = _prompt(s.prompt)
        return [f"{pad}let {s.var} = choose{qty} {s.kind} from {render_expr(s.source)}{_by(s.chooser)}{prompt}{' always' if s.always else ''}"]
    if isinstance(s, n.Let):
        return [f"{pad}let {s.name} = {render_expr(s.value)}"]
    if isinstance(s, n.SetVar):
        return [f"{pad}set {s.name} to {render_expr(s.value)}"]
    if isinstance(s, n.CounterOp):
        target, value = _counter_target(s.target), render_expr(s.value)
        if s.op == "add":
            return [f"{pad}add {value} to {target}"]
        if s.op == "subtract":
            return [f"{pad}subtract {value} from {target}"]
        return [f"{pad}set {target} to {value}"]
    if isinstance(s, n.Move):
        where = f" at {s.position}" if s.position != "top" else ""
        face = f" face {s.face}" if s.face else ""
        return [f"{pad}move {render_expr(s.cards)} to {render_expr(s.dest)}{where}{face}"]
    if isinstance(s, n.Flip):
        return [f"{pad}turn {render_expr(s.cards)} face {s.face}"]
    if isinstance(s, n.Shuffle):
        return [f"{pad}shuffle {render_expr(s.zone)}"]
    if isinstance(s, n.Sort):
        return [f"{pad}sort {render_expr(s.zone)} by {render_expr(s.key)}"]
    if isinstance(s, n.Reveal):
        return [f"{pad}reveal {render_expr(s.zone)}"]
    if isinstance(s, n.Hide):
        return [f"{pad}hide {render_expr(s.zone)}"]
    if isinstance(s, n.Rotate):
        return [f"{pad}rotate {s.zone}{' counterclockwise' if s.step == -1 else ''}"]
    if isinstance(s, n.Look):
        return [f"{pad}look at {render_expr(s.cards)}{_by(s.who)}"]
    if isinstance(s, n.Mark):
        word = "unmark" if s.remove else "mark"
        mark = s.mark
        what = quote(mark.value) if isinstance(mark, n.Literal) and isinstance(mark.value, str) else f"as {render_expr(mark)}"
        return [f"{pad}{word} {s.target_kind} {_at(s.target, _POSTFIX)} {what}"]
    if isinstance(s, n.Simultaneously):
        return _body(f"simultaneously for each {s.var} in {render_expr(s.items)}", s.body, indent)
    if isinstance(s, n.InAnyOrder):
        sealed = "simultaneously " if s.sealed else ""
        return _body(f"{sealed}in any order for each {s.var} in {render_expr(s.items)}", s.body, indent)
    if isinstance(s, n.Pass):
        return [f"{pad}pass"]
    if isinstance(s, n.If):
        out = []
        for i, (cond, block) in enumerate(s.branches):
            head = f"if {render_expr(cond)} {{" if i == 0 else f"}} elif {render_expr(cond)} {{"
            out.append(pad + head)
            out.extend(_stmt_lines(block, indent + 1))
        if s.orelse is not None:
            out.append(pad + "} else {")
            out.extend(_stmt_lines(s.orelse, indent + 1))
        out.append(pad + "}")
        return out
    if isinstance(s, n.ForEach):
        return _body(f"for each {s.var} in {render_expr(s.items)}", s.body, indent)
    if isinstance(s, n.While):
        return _body(f"while {render_expr(s.cond)}", s.body, indent)
    if isinstance(s, n.Repeat):
        return _body(f"repeat {render_expr(s.count)}", s.body, indent)
    if isinstance(s, n.Break):
        return [f"{pad}break"]
    if isinstance(s, n.CallProc):
        args = "(" + ", ".join(render_expr(a) for a in s.args) + ")" if s.args else ""
        return [f"{pad}{f'let {s.result} = ' if s.result is not None else ''}call {s.name}{args}"]
    if isinstance(s, n.Return):
        return [f"{pad}return" + (f" {render_expr(s.value)}" if s.value is not None else "")]
    if isinstance(s, n.UseAbility):
        return [f"{pad}use {quote(s.ability)} of {render_expr(s.card)}{_by(s.user)}"]
    if isinstance(s, n.Menu):
        head = "choose" + _by(s.chooser) + _prompt(s.prompt)
        head += " always" if s.always else ""
        out = [f"{pad}{head} {{"]
        for option in s.items:
            out.extend(_option_lines(option, indent + 1))
        out.append(pad + "}")
        return out
    if isinstance(s, n.Signal):
        passes = f" with {', '.join(s.passes)}" if s.passes else ""
        head = f"signal {quote(s.event)} for {render_expr(s.player)}{passes}"
        if s.orelse is None:
            return [pad + head]
        return _body(f"{head} else", s.orelse, indent)
    if isinstance(s, n.ExtraTurn):
        return [f"{pad}take another turn{_by(s.player)}"]
    if isinstance(s, n.Turns):
        head = f"take turns from {render_expr(s.first)}"
        head += " counterclockwise" if s.step == -1 else ""
        head += f" skipping {render_expr(s.skip)}" if s.skip is not None else ""
        return _body(f"{head} until {render_expr(s.until)}", s.body, indent)
    if isinstance(s, n.EndGame):
        return [f"{pad}end game"]
    if isinstance(s, n.Fail):
        return [f"{pad}fail {render_expr(s.message)}"]
    if isinstance(s, n.Say):
        to = f" to {render_expr(s.to)}" if s.to is not None else ""
        return [f"{pad}say {render_expr(s.text)}{to}"]
    if isinstance(s, n.Phase):
        return [f"{pad}# phase {s.name}"] + _stmt_lines(s.body, indent)
    if isinstance(s, n.Rounds):
        return [f"{pad}# rounds, until {render_expr(s.until)}"] + _stmt_lines(s.body, indent + 1)
    return [f"{pad}# <{type(s).__name__}>"]


def _option_lines(item: Any, indent: int) -> list[str]:
    pad = INDENT * indent
    if isinstance(item, n.AnswerOption):
        passes = f" with {', '.join(item.passes)}" if item.passes else ""
        return [f"{pad}option answers {quote(item.event)}{passes}"]
    cond = f" when {render_expr(item.cond)}" if item.cond is not None else ""
    if isinstance(item, n.StaticOption):
        return _body(f"option {quote(item.label)}{cond}", item.body, indent)
    label = f" label {render_expr(item.label)}" if item.label is not None else ""
    return _body(f"option each {item.var} in {render_expr(item.source)}{label}{cond}", item.body, indent)

