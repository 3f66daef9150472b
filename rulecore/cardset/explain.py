"""What the engine understood of a cardset: what ``rulecore explain`` prints.

``tree_lines`` lists an effect tree's nodes, indented, each with the place of its source
text; ``explain_card`` shows a card's abilities as trees and as text rendered back (by
``lang.render``); ``explain_game`` summarises a whole game. ``find_entry`` and ``suggest``
look up what a person typed: a card, family, procedure, function or phase.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Iterator

import attrs

from ..errors import Span
from ..lang import nodes as n
from ..lang.nodes import walk
from ..lang.render import INDENT, quote, render_block, render_expr

if TYPE_CHECKING:
    from .model import Ability, CardDef, Cardset

__all__ = ["tree_lines", "explain_card", "explain_family", "explain_entry", "explain_game", "find_entry", "suggest",
           "best_total", "plain_value"]

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


def plain_value(value: Any) -> str:
    """A property value in the language's words: none, true/false, a list joined with ', '."""
    if isinstance(value, tuple):
        return ", ".join(plain_value(v) for v in value)
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
    out = [f"family '{fam}' of {cs.name}: {_count(len(members), 'card type')}, x{first.count} each  {first.span}"]
    if varying:
        out.append(f"  varies in: {', '.join(varying)}")
    width = max(len(c.id) for c in members)
    for c in members:
        out.append(f"  {c.id:<{width}}  {c.name}" + "".join(f"; {k} {plain_value(c.props.get(k))}" for k in varying))
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
        out.append(f"  {key}: {plain_value(value)}")
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


def best_total(cs: Any) -> str | None:
    """``'lowest'`` or ``'highest'``: which end of the totals wins, when the winners are
    ``lowest(players, T of it)`` or ``highest(players, T of it)`` of the counter T named under
    ``end: totals``; None when the winners are decided some other way (or there are no totals)."""
    winners, totals = getattr(cs, "winners", None), getattr(cs, "totals", None)
    if not (totals and isinstance(winners, n.Call) and winners.func in ("lowest", "highest") and len(winners.args) == 2):
        return None
    key = winners.args[1]
    if isinstance(key, n.CounterRef) and key.counter == totals and key.owner == n.Builtin("it"):
        return winners.func
    return None


def _count(number: int, word: str) -> str:
    """'1 phase', '3 phases'."""
    return f"{number} {word}{'' if number == 1 else 's'}"


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
            choices = f" of {', '.join(map(plain_value, o.choices))}" if o.choices else ""
            out.append(f"  {o.name:<16} default {plain_value(o.default)}{choices}"
                       + (f": {_first_line(o.description)}" if o.description else ""))
    out.append("")
    out.append(f"set-up: every card starts in '{cs.start_zone}'")
    phases = _phases(cs)
    for stmt in cs.program.body:
        if isinstance(stmt, n.Phase) and stmt.name == "setup":
            calls = _calls(stmt.body)
            out.append(f"  then runs the set-up effect ({_count(len(stmt.body.body), 'statement')})"
                       + (f", calling {', '.join(calls)}" if calls else ""))
        elif isinstance(stmt, n.Rounds):
            called = f" (called {cs.round_label}s)" if cs.round_label != "round" else ""
            phases_text = _count(len(stmt.body.body), "phase")
            out.append(f"flow: rounds{called} of {phases_text}, until {render_expr(stmt.until)}")
        elif isinstance(stmt, n.Block):
            out.append(f"flow: {_count(len(stmt.body), 'phase')}, once each")
    for i, phase in enumerate(p for p in phases.values() if p.name != "setup"):
        calls = _calls(phase.body)
        out.append(f"  {i + 1}. {phase.name:<14} {_count(len(phase.body.body), 'statement')}"
                   + (f", calls {', '.join(calls)}" if calls else "") + f"  {_where(phase.span, cs.file)}")
    best = best_total(cs)
    out.append("end: (no winners)" if cs.winners is None else f"end: winners are {render_expr(cs.winners)}"
               + (f" (the {best} total wins)" if best else ""))
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
    out.append(f"cards: {_count(len(cs.cards), 'type')}, {_count(total, 'card')}")
    width = max(len(cid) for cid in cs.cards)
    shown: set[str] = set()
    for cid, card in cs.cards.items():
        if card.family is not None:  # a family is one line: 'rulecore explain FILE FAMILY' lists its cards
            if card.family in shown:
                continue
            shown.add(card.family)
            members = [c for c in cs.cards.values() if c.family == card.family]
            span = f"{members[0].id} .. {members[-1].id}" if len(members) > 1 else members[0].id
            kinds = _count(len(members), "card type")
            out.append(f"  {card.family:<{width}}  family of {kinds}, x{card.count} each: {span}")
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
