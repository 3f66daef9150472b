"""Cards held by the rules: which variables of the effect text hold cards (``card_locals``), read once
per game, so that ``resample`` can deal them anew with the cards they name (``remap_cards``)."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ...lang import nodes as n


_CARD_PICKS = ("top", "bottom", "cards", "random", "first", "last", "chain", "lowest", "highest", "sorted")
_CARD = object()  # a binding that always holds cards (a choice of cards)
_OTHER = object()  # a binding that holds something else (players, numbers)


def card_locals(cardset: Any, walk: Callable[[Any], Iterable[Any]]) -> tuple[dict[int, frozenset[str]], frozenset[str]]:
    """Which variables hold cards, read from the effect text: statement (by id) -> the local variables
    of its effect that hold a card, a collection of cards or none wherever they are set; and the game
    variables that do.  A variable set once to anything else (a player, a number, something the text
    does not show) is left out.  ``resample`` re-deals the cards these hold."""
    roots: list[Any] = [cardset.program]
    proc_root: dict[str, int] = {}
    for name, proc in sorted(cardset.procedures.items()):
        proc_root[name] = len(roots)
        roots.append(proc.body)
    answering: dict[str, list[int]] = {}  # event -> the roots of the abilities that answer it
    for _, card in sorted(cardset.cards.items()):
        for _, ability in sorted(card.abilities.items()):
            if ability.on is not None:
                answering.setdefault(ability.on, []).append(len(roots))
            roots.append(ability.body)
    binds: dict[tuple[int, str], list[Any]] = {}
    var_binds: dict[str, list[Any]] = {name: [(None, n.Literal(value))] for name, value in cardset.vars.items()}
    root_of: dict[int, set[int]] = {}
    for r, root in enumerate(roots):
        for node in walk(root):
            root_of.setdefault(id(node), set()).add(r)
            t = type(node)
            if t is n.Let:
                binds.setdefault((r, node.name), []).append((r, node.value))
            elif t is n.Choose:
                binds.setdefault((r, node.var), []).append(_CARD if node.kind in ("card", "cards", "set") else _OTHER)
            elif t is n.ForEach:
                binds.setdefault((r, node.var), []).append((r, node.items))
            elif t is n.DynamicOption:
                binds.setdefault((r, node.var), []).append(_CARD if node.kind == "set" else (r, node.source))
            elif t in (n.Simultaneously, n.InAnyOrder):
                binds.setdefault((r, node.var), []).append(_OTHER)
            elif t is n.SetVar:
                var_binds.setdefault(node.name, []).append((r, node.value))
            elif t is n.CallProc and node.name in proc_root:
                params = cardset.procedures[node.name].params
                for param, arg in zip(params, node.args):
                    binds.setdefault((proc_root[node.name], param), []).append((r, arg))
                if node.result is not None:  # 'let x = call p()': x holds what p's returns give
                    returns = [s for s in walk(cardset.procedures[node.name].body) if type(s) is n.Return]
                    binds.setdefault((r, node.result), []).extend(
                        (proc_root[node.name], s.value if s.value is not None else n.Literal(None)) for s in returns)
                    binds[(r, node.result)].append((r, n.Literal(None)))  # a body that ends without one
            elif t in (n.Signal, n.AnswerOption):
                for target in answering.get(node.event, ()):
                    for name in node.passes:
                        binds.setdefault((target, name), []).append((r, n.Var(name)))
    cards: set[tuple[int, str]] = set()
    card_vars: set[str] = set()

    def cardish(src: Any) -> bool | None:
        if src is _CARD:
            return True
        if src is _OTHER:
            return False
        r, expr = src
        return _cardish(expr, r, cards, card_vars)

    def holds(srcs: list[Any]) -> bool:
        kinds = [cardish(s) for s in srcs]
        return False not in kinds and True in kinds

    changed = True
    while changed:  # the least fixed point: a variable counts once each value it is set to is known to hold cards
        changed = False
        for key, srcs in binds.items():
            if key not in cards and holds(srcs):
                cards.add(key)
                changed = True
        for name, srcs in var_binds.items():
            if name not in card_vars and holds(srcs):
                card_vars.add(name)
                changed = True
    per_root = [frozenset(name for r2, name in cards if r2 == r) for r in range(len(roots))]
    out: dict[int, frozenset[str]] = {}
    for node_id, rs in root_of.items():
        names = frozenset.intersection(*(per_root[r] for r in rs))
        if names:
            out[node_id] = names
    return out, frozenset(card_vars)


def _cardish(e: Any, r: int | None, cards: set[tuple[int, str]], card_vars: set[str]) -> bool | None:
    """True: ``e`` gives a card or cards; None: nothing (none, an empty list); False: anything else or unknown."""
    t = type(e)
    if t is n.Literal:
        empty = e.value is None or (type(e.value) in (list, tuple) and not e.value)
        return None if empty else False
    if t is n.ListExpr:
        return _joined([_cardish(i, r, cards, card_vars) for i in e.items]) if e.items else None
    if t is n.Var:
        return (r, e.name) in cards
    if t is n.GameVar:
        return e.name in card_vars
    if t is n.ZoneRef:
        return True  # a zone key (text): nothing to re-deal, but it reads as cards
    if t is n.Builtin:
        return e.name == "this"
    if t is n.Where:
        return _cardish(e.source, r, cards, card_vars)
    if t is n.Call:
        return e.func in _CARD_PICKS and bool(e.args) and _cardish(e.args[0], r, cards, card_vars) is True
    if t is n.BinOp and e.op == "+":
        return _joined([_cardish(e.left, r, cards, card_vars), _cardish(e.right, r, cards, card_vars)])
    return False


def _joined(kinds: list[bool | None]) -> bool | None:
    if False in kinds:
        return False
    return True if True in kinds else None


def remap_cards(value: Any, perm: dict[int, int]) -> Any:
    """``value`` with every card in it replaced by ``perm`` (a card, a collection of cards, nested)."""
    t = type(value)
    if t is int:
        return perm.get(value, value)
    if t is tuple:
        return tuple(remap_cards(v, perm) for v in value)
    if t is list:
        return [remap_cards(v, perm) for v in value]
    return value
