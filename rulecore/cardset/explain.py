"""What the engine understood: effect trees shown as indented nodes, and rendered back to text.

``render_expr`` / ``render_block`` turn effect nodes back into effect-language text
that parses to an equal tree (the round trip is tested for every built-in ability).
``tree_lines`` lists a tree's nodes, indented, each with the place of its source
text.  ``explain_card`` and ``explain_game`` are what ``rulecore explain`` prints.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Iterator

import attrs

from ..errors import Span
from ..lang import nodes as n
from ..lang.nodes import walk

if TYPE_CHECKING:
    from .model import Ability, CardDef, Cardset

__all__ = ["render_expr", "render_block", "render_stmt", "tree_lines", "explain_card", "explain_family", "explain_game",
           "find_entry"]

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
        return [f"{pad}call {s.name}{args}"]
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


# --------------------------------------------------------------------------- trees


def _is_node(value: Any) -> bool:
    return isinstance(value, (n.Expr, n.Stmt, n.StaticOption, n.DynamicOption, n.AnswerOption))


def _where(span: Span, file: str | None) -> str:
    if not span.line:
        return ""
    if file is not None and span.file == file:
        return f"@{span.line}:{span.column}"
    return f"@{span.file}:{span.line}:{span.column}"


def _summary(node: Any) -> str:
    """The node's name and its plain fields, on one line."""
    name = type(node).__name__
    if isinstance(node, n.Literal):
        return f"{name} {render_expr(node)}"
    if isinstance(node, (n.Var, n.Builtin, n.GameVar)):
        return f"{name} {node.name}"
    parts = []
    for field in attrs.fields(type(node)):
        if field.name == "span":
            continue
        value = getattr(node, field.name)
        if _is_node(value) or value is None:
            continue
        if isinstance(value, tuple) and (not value or not all(isinstance(v, str) for v in value)):
            continue
        if isinstance(value, tuple):
            value = ", ".join(value)
        if isinstance(value, str) and (field.name in ("label", "prompt", "event", "ability") or not value.isidentifier()):
            shown: Any = quote(value)
        else:
            shown = value
        parts.append(f"{field.name}={shown}")
    return name + (" " + " ".join(parts) if parts else "")


def _children(node: Any) -> Iterator[tuple[str, Any]]:
    for field in attrs.fields(type(node)):
        if field.name == "span":
            continue
        value = getattr(node, field.name)
        if _is_node(value):
            yield field.name, value
        elif isinstance(value, tuple):
            for i, item in enumerate(value):
                if _is_node(item):
                    yield f"{field.name}[{i}]", item
                elif isinstance(item, tuple):
                    for j, sub in enumerate(item):
                        if _is_node(sub):
                            yield f"{field.name}[{i}].{'cond' if j == 0 else 'then'}" if isinstance(node, n.If) \
                                else f"{field.name}[{i}][{j}]", sub


def tree_lines(node: Any, indent: int = 0, label: str = "", file: str | None = None) -> list[str]:
    """The tree under ``node``: a line per node, indented, with the place of its text (@line:column)."""
    pad = INDENT * indent
    where = _where(getattr(node, "span", Span()), file)
    head = f"{pad}{label + ': ' if label else ''}{_summary(node)}"
    out = [f"{head}  {where}" if where else head]
    for name, child in _children(node):
        if isinstance(node, n.Block):
            out.extend(tree_lines(child, indent + 1, "", file))
        else:
            out.extend(tree_lines(child, indent + 1, name, file))
    return out


# --------------------------------------------------------------------------- explain


def find_entry(cs: "Cardset", name: str) -> tuple[str, str] | None:
    """('card' | 'procedure' | 'function' | 'phase', id) for a card id or name, or another named entry."""
    if name in cs.cards:
        return "card", name
    lowered = name.strip().lower()
    for cid, card in cs.cards.items():
        if card.name.lower() == lowered or cid.replace("_", " ") == lowered:
            return "card", cid
    if any(card.family == name for card in cs.cards.values()):
        return "family", name
    if name in cs.procedures:
        return "procedure", name
    if name in cs.functions:
        return "function", name
    if name in _phases(cs):
        return "phase", name
    return None


def suggest(cs: "Cardset", name: str) -> str | None:
    pool = list(cs.cards) + [c.name for c in cs.cards.values()] + list(cs.procedures) + list(cs.functions)
    pool += sorted({c.family for c in cs.cards.values() if c.family})
    pool += list(_phases(cs))
    found = difflib.get_close_matches(name, pool, n=1, cutoff=0.5)
    return found[0] if found else None


def _phases(cs: "Cardset") -> dict[str, n.Phase]:
    out: dict[str, n.Phase] = {}

    def visit(node: Any) -> None:
        if isinstance(node, n.Phase):
            out[node.name] = node
        elif isinstance(node, n.Block):
            for s in node.body:
                visit(s)
        elif isinstance(node, n.Rounds):
            visit(node.body)

    visit(cs.program)
    return out


def _section(title: str, tree: Any, file: str, *, expression: bool = False) -> list[str]:
    text = render_expr(tree) if expression else render_block(tree)
    out = [f"  {title}", "    effect tree:"]
    out.extend(tree_lines(tree, 3, "", file))
    out.append("    as text:")
    out.extend("      " + line for line in (text.splitlines() or ["(nothing)"]))
    return out


def _ability_lines(card: "CardDef", ability: "Ability", file: str) -> list[str]:
    out = [f"ability '{ability.name}'"]
    facts = []
    if ability.on is not None:
        facts.append(f"answers '{ability.on}' from {ability.zone}")
        facts.append("optional" if ability.optional else "always runs")
        if ability.instead:
            facts.append("instead of what the signal would do")
        if ability.label:
            facts.append(f"label {quote(ability.label)}")
        if ability.params:
            facts.append(f"params {', '.join(ability.params)}")
    if facts:
        out.append("  " + "; ".join(facts))
    if ability.text:
        out.append(f"  text: {ability.text.strip()}")
    if ability.when is not None:
        out.extend(_section("when (the condition):", ability.when, file, expression=True))
    out.extend(_section("do:", ability.body, file))
    return out


def _plain(value: Any) -> str:
    """A property value in the language's words: none, true/false, a list joined with ', '."""
    if isinstance(value, tuple):
        return ", ".join(_plain(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def explain_family(cs: "Cardset", fam: str) -> str:
    """A family: its card types (id, name, the properties that vary), then its first card in full."""
    members = [c for c in cs.cards.values() if c.family == fam]
    first = members[0]
    varying = [k for k in first.props if any(c.props.get(k) != first.props.get(k) for c in members)]
    out = [f"family '{fam}' of {cs.name}: {len(members)} card types, x{first.count} each  {first.span}"]
    if varying:
        out.append(f"  varies in: {', '.join(varying)}")
    width = max(len(c.id) for c in members)
    for c in members:
        out.append(f"  {c.id:<{width}}  {c.name}" + "".join(f"; {k} {_plain(c.props.get(k))}" for k in varying))
    out.append("")
    out.append(explain_card(cs, first.id))
    return "\n".join(out)


def explain_card(cs: "Cardset", cid: str) -> str:
    card = cs.cards[cid]
    file = card.span.file
    out = [f"{card.name} (card '{cid}' of {cs.name})  {card.span}"]
    if card.family:
        out.append(f"  of the family '{card.family}' (every card of it has the abilities below)")
    out.append(f"  count: {card.count}")
    if card.tags:
        out.append(f"  tags: {', '.join(card.tags)}")
    for key, value in card.props.items():
        out.append(f"  {key}: {_plain(value)}")
    if card.scoring:
        ladder = ", ".join(f"{i}: {v}" for i, v in enumerate(card.scoring, 1))
        out.append(f"  scoring (copies: points): {ladder}" + (" (the last value holds beyond)" if len(card.scoring) > 1 else ""))
    if card.include_if is not None:
        out.append(f"  in the game only if: {render_expr(card.include_if)}")
    if card.text:
        out.append(f"  text: {' '.join(card.text.split())}")
    if not card.abilities:
        out.append("  no abilities")
    for ability in card.abilities.values():
        out.append("")
        out.extend(_ability_lines(card, ability, file))
    return "\n".join(out)


def explain_entry(cs: "Cardset", kind: str, name: str) -> str:
    """explain_card, or the same for a procedure, function or phase."""
    if kind == "card":
        return explain_card(cs, name)
    if kind == "family":
        return explain_family(cs, name)
    file = cs.file
    if kind == "procedure":
        proc = cs.procedures[name]
        params = f"({', '.join(proc.params)})" if proc.params else ""
        return "\n".join([f"procedure {name}{params} of {cs.name}"] + _section("do:", proc.body, proc.body.span.file or file))
    if kind == "function":
        func = cs.functions[name]
        return "\n".join([f"function {name}({', '.join(func.params)}) of {cs.name}"]
                         + _section("value:", func.body, func.body.span.file or file, expression=True))
    phase = _phases(cs)[name]
    return "\n".join([f"phase {name} of {cs.name}  {phase.span}"] + _section("do:", phase.body, phase.span.file or file))


def _first_line(text: str, width: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 3] + "..."


def _calls(tree: Any) -> list[str]:
    found: list[str] = []
    if tree is None:
        return found
    for node in walk(tree):
        if isinstance(node, n.CallProc) and node.name not in found:
            found.append(node.name)
    return found


def explain_game(cs: "Cardset") -> str:
    """A summary: players, zones, counters, options, set-up, phases, procedures, cards, the end."""
    out = [f"{cs.title} ({cs.name}), {cs.min_players}-{cs.max_players} players  {cs.file}"]
    if cs.description:
        out.append("  " + " ".join(cs.description.split()))
    out.append("")
    out.append("zones:")
    for z in cs.zones.values():
        whose = "one per player" if z.per_player else (f"a row of {z.slots}" if z.slots else "shared")
        out.append(f"  {z.name:<16} {whose}, seen by {z.visibility}" + (f"  ({z.description})" if z.description else ""))
    if cs.counters:
        out.append("counters:")
        for c in cs.counters.values():
            bounds = "".join([f", min {c.min}" if c.min is not None else "", f", max {c.max}" if c.max is not None else ""])
            whose = "per player" if c.per_player else "game"
            extra = ", recorded each round" if c.per_round else ""
            out.append(f"  {c.name:<16} {whose}, starts at {c.initial}{bounds}{extra}")
    if cs.vars:
        out.append("vars: " + ", ".join(f"{k} = {render_expr(n.Literal(v))}"
                                        + (" (seen by nobody)" if k in cs.hidden_vars else "")
                                        for k, v in cs.vars.items()))
    if cs.options:
        out.append("options:")
        for o in cs.options.values():
            choices = f" of {', '.join(map(str, o.choices))}" if o.choices else ""
            out.append(f"  {o.name:<16} default {o.default!r}{choices}" + (f": {_first_line(o.description)}" if o.description else ""))
    out.append("")
    out.append(f"set-up: every card starts in '{cs.start_zone}'")
    phases = _phases(cs)
    for stmt in cs.program.body:
        if isinstance(stmt, n.Phase) and stmt.name == "setup":
            calls = _calls(stmt.body)
            out.append(f"  then runs the set-up effect ({len(stmt.body.body)} statements)"
                       + (f", calling {', '.join(calls)}" if calls else ""))
        elif isinstance(stmt, n.Rounds):
            called = f" (called {cs.round_label}s)" if cs.round_label != "round" else ""
            out.append(f"flow: rounds{called} of {len(stmt.body.body)} phases, until {render_expr(stmt.until)}")
        elif isinstance(stmt, n.Block):
            out.append(f"flow: {len(stmt.body)} phases, once each")
    for i, phase in enumerate(p for p in phases.values() if p.name != "setup"):
        calls = _calls(phase.body)
        out.append(f"  {i + 1}. {phase.name:<14} {len(phase.body.body)} statements"
                   + (f", calls {', '.join(calls)}" if calls else "") + f"  {_where(phase.span, cs.file)}")
    out.append(f"end: winners are {render_expr(cs.winners)}" if cs.winners is not None else "end: (no winners)")
    if cs.totals:
        out.append(f"  totals: {cs.totals}" + (f"; round scores: {cs.round_scores}" if cs.round_scores else ""))
    if cs.procedures:
        out.append("")
        out.append("procedures:")
        for proc in cs.procedures.values():
            params = f"({', '.join(proc.params)})" if proc.params else ""
            calls = _calls(proc.body)
            out.append(f"  {proc.name}{params}" + (f"  calls {', '.join(calls)}" if calls else ""))
    if cs.functions:
        out.append("functions: " + ", ".join(f"{f.name}({', '.join(f.params)})" for f in cs.functions.values()))
    out.append("")
    total = sum(c.count for c in cs.cards.values())
    out.append(f"cards: {len(cs.cards)} types, {total} cards")
    width = max(len(cid) for cid in cs.cards)
    shown: set[str] = set()
    for cid, card in cs.cards.items():
        if card.family is not None:  # a family is one line: 'rulecore explain FILE FAMILY' lists its cards
            if card.family in shown:
                continue
            shown.add(card.family)
            members = [c for c in cs.cards.values() if c.family == card.family]
            span = f"{members[0].id} .. {members[-1].id}" if len(members) > 1 else members[0].id
            out.append(f"  {card.family:<{width}}  family of {len(members)} card types, x{card.count} each: {span}")
            continue
        bits = [f"x{card.count}"]
        if card.name != cid.replace("_", " ").title():
            bits.append(card.name)
        if card.tags:
            bits.append("tags " + ",".join(card.tags))
        if card.scoring:
            bits.append("scoring " + ",".join(map(str, card.scoring)))
        if card.abilities:
            bits.append("abilities " + ",".join(
                a.name + (f"(on {a.on})" if a.on else "") for a in card.abilities.values()))
        if card.include_if is not None:
            bits.append(f"only if {render_expr(card.include_if)}")
        out.append(f"  {cid:<{width}}  " + "; ".join(bits))
    return "\n".join(out)
