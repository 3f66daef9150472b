"""Warnings about menus that tell: a menu or choice whose asking (or not) depends on cards others
cannot see, so that being asked tells them about those cards.  Part of ``lint``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import Problem
from ...lang import nodes as n
from ...lang.nodes import walk
from ...lang.render import render_expr
from .walking import text_of, trees, warning

if TYPE_CHECKING:
    from ..model import Cardset


def _hidden_zones(cs: "Cardset") -> set[str]:
    return {name for name, z in cs.zones.items() if z.visibility != "everyone"}


def _reads_hidden(e: Any, cs: "Cardset", hidden: set[str], seen: set[str], tainted: frozenset[str] = frozenset(),
                  counted: frozenset[str] = frozenset()) -> bool:
    """Whether the value of ``e`` can depend on cards others cannot see (a hidden zone's count alone is public).

    ``tainted``: local variables bound to such values; ``counted``: those whose count alone is public."""
    if e is None:
        return False
    if isinstance(e, n.Var):
        return e.name in tainted
    if isinstance(e, n.Call) and e.func == "count" and len(e.args) == 1 and isinstance(e.args[0], n.ZoneRef):
        return _reads_hidden(e.args[0].owner, cs, hidden, seen, tainted)
    if isinstance(e, n.Attr) and e.name == "face_up" and _at_a_place(e.obj):
        # whether the card at a place (a zone's top, a local) lies face up is seen by everyone
        many = e.obj.args[1] if isinstance(e.obj, n.Call) and len(e.obj.args) > 1 else None
        return _reads_hidden(many, cs, hidden, seen, tainted)
    if isinstance(e, n.Call) and e.func == "count" and len(e.args) == 1 and isinstance(e.args[0], n.Var) \
            and e.args[0].name in counted:
        return False
    if isinstance(e, n.ZoneRef) and e.zone in hidden:
        return True
    if isinstance(e, n.Call) and e.func == "in_zones" and any(text_of(a) in hidden for a in e.args):
        return True
    if isinstance(e, n.Call) and e.func in ("usable", "playable") and len(e.args) > 1 and text_of(e.args[1]):
        name = text_of(e.args[1])
        for card in cs.cards.values():
            ability = card.abilities.get(name or "")
            if ability is not None and _reads_hidden(ability.when, cs, hidden, seen):
                return True
    if isinstance(e, n.UserCall) and e.func not in seen:
        func = cs.functions.get(e.func)
        seen.add(e.func)
        if func is not None and _reads_hidden(func.body, cs, hidden, seen):
            return True
    return any(_reads_hidden(child, cs, hidden, seen, tainted, counted) for child in n.children(e))


def _at_a_place(e: Any) -> bool:
    """A card named by where it lies: a local, or first/last/top/bottom of a zone (whose owner is public)."""
    if isinstance(e, n.Var):
        return True
    return (isinstance(e, n.Call) and e.func in ("first", "last", "top", "bottom") and 1 <= len(e.args) <= 2
            and isinstance(e.args[0], n.ZoneRef))


def _public_count(value: Any, cs: "Cardset", hidden: set[str]) -> bool:
    """Whether the number of cards in ``value`` is public: a zone, ``cards(zone)``, or ``random``, ``top`` or
    ``bottom`` of a zone with a public N (the count of a zone is public, and each of these takes as many
    as it can)."""
    if isinstance(value, n.ZoneRef):
        return not _reads_hidden(value.owner, cs, hidden, set())
    if isinstance(value, n.Call) and value.func in ("cards", "random", "top", "bottom") and 1 <= len(value.args) <= 2:
        zone = value.args[0]
        many = value.args[1] if len(value.args) == 2 else None
        return (isinstance(zone, n.ZoneRef) and not _reads_hidden(zone.owner, cs, hidden, set())
                and (value.func != "cards" or many is None) and not _reads_hidden(many, cs, hidden, set()))
    return False


def _counted(tree: Any, cs: "Cardset", hidden: set[str]) -> frozenset[str]:
    """Local variables whose count is public: each 'let' of the name binds one (see _public_count)."""
    lets: dict[str, bool] = {}
    for node in walk(tree):
        if isinstance(node, n.Let):
            lets[node.name] = lets.get(node.name, True) and _public_count(node.value, cs, hidden)
        elif isinstance(node, (n.Choose, n.ForEach, n.DynamicOption, n.SetVar)):
            lets[node.name if isinstance(node, n.SetVar) else node.var] = False
        elif isinstance(node, n.CallProc) and node.result is not None:  # what a procedure returns
            lets[node.result] = False
    return frozenset(name for name, public in lets.items() if public)


def _shown(tree: Any, hidden: set[str]) -> dict[int, frozenset[str]]:
    """For each node inside a block: the locals that block shows everyone whatever happens (a top-level
    ``move x to`` a zone everyone sees or ``face up``, ``turn x face up``). Asking about such a card
    before it is shown tells nothing its showing does not."""
    out: dict[int, frozenset[str]] = {}
    for node in walk(tree):
        if not isinstance(node, n.Block):
            continue
        names = frozenset(
            s.cards.name for s in node.body
            if isinstance(s, (n.Move, n.Flip)) and isinstance(s.cards, n.Var) and (
                s.face == "up" or (isinstance(s, n.Move) and isinstance(s.dest, n.ZoneRef) and s.dest.zone not in hidden)))
        if names:
            for stmt in node.body:
                for inner in walk(stmt):
                    out[id(inner)] = out.get(id(inner), frozenset()) | names
    return out


def _tainted(tree: Any, cs: "Cardset", hidden: set[str]) -> frozenset[str]:
    """Local variables of a tree bound (by let, choose, for each or an option) to values that read hidden cards."""
    names: set[str] = set()
    for _ in range(3):  # a variable bound from another: a few rounds reach the usual chains
        before = len(names)
        for node in walk(tree):
            bound = {n.Let: "value", n.Choose: "source", n.ForEach: "items", n.DynamicOption: "source"}
            field = next((f for t, f in bound.items() if isinstance(node, t)), None)
            if field is not None and _reads_hidden(getattr(node, field), cs, hidden, set(), frozenset(names)):
                names.add(node.name if isinstance(node, n.Let) else node.var)
        if len(names) == before:
            break
    return frozenset(names)


def _telling(item: Any, cs: "Cardset", hidden: set[str], tainted: frozenset[str]) -> bool:
    """Whether the offering of ``item`` can depend on hidden cards."""
    if isinstance(item, n.AnswerOption):
        return any(a.on == item.event and a.zone in hidden for c in cs.cards.values() for a in c.abilities.values())
    if isinstance(item, n.DynamicOption) and _reads_hidden(item.source, cs, hidden, set(), tainted):
        return True
    return _reads_hidden(item.cond, cs, hidden, set(), tainted)


_ALWAYS_HINT = "add 'always' after the prompt (choose by P \"...\" always { ... }) so that it is asked every time"
_PICK_HINT = "add 'always' after the prompt (let x = choose card from ... by P \"...\" always) so that it is asked every time"


def _every_branch_asks(node: n.If) -> bool:
    """Whether each way through the 'if' (the missing 'else' too) holds a menu: then others see a question either way."""
    bodies = [body for _, body in node.branches] + [node.orelse]
    return all(body is not None and any(isinstance(x, (n.Menu, n.Choose)) for x in walk(body)) for body in bodies)


def _menu_name(menu: "n.Menu | n.Choose") -> str:
    """A menu or pick as a warning names it: 'the menu' or 'the choice', then its prompt (a computed one as
    written), else the chosen variable (of a pick) or 'this menu'."""
    what = "the menu" if isinstance(menu, n.Menu) else "the choice"
    if menu.prompt is None or menu.prompt == "":
        return "this menu" if isinstance(menu, n.Menu) else f"the choice of '{menu.var}'"
    return f"{what} " + (f"'{menu.prompt}'" if isinstance(menu.prompt, str) else render_expr(menu.prompt))


def _answers_stay_many(node: n.Choose, cs: "Cardset", hidden: set[str], counted: frozenset[str]) -> bool:
    """Whether how many answers a pick offers depends only on public things, so that whether it is asked tells
    nothing: its source's count is public (a whole zone, ``cards(zone)``, ``top``/``bottom``/``random`` of one,
    or a local bound from one) and either the pick is ``up to`` (then 'Done' is an answer beside every card,
    so it is asked whenever a card is left) or no two cards look alike (every card name is on one card only,
    as in a deck of 52 different cards), so that the answers are as many as the cards."""
    source = node.source
    public = _public_count(source, cs, hidden) or (isinstance(source, n.Var) and source.name in counted)
    if not public or node.kind not in ("card", "cards"):
        return False
    if node.mode == "upto":
        return True
    names: dict[str, int] = {}
    for card in cs.cards.values():
        names[card.name] = names.get(card.name, 0) + card.count
    return all(copies <= 1 for copies in names.values())


def telling_menus(cs: "Cardset") -> list[Problem]:
    """Menus whose asking depends on hidden cards: without 'always' one that can shrink to one option
    (then it is not asked), and any menu asked only under an 'if' on hidden cards."""
    hidden = _hidden_zones(cs)
    out: list[Problem] = []
    for tree, _where in trees(cs):
        tainted, counted = _tainted(tree, cs, hidden), _counted(tree, cs, hidden)
        shown = _shown(tree, hidden)
        guarded: set[int] = set()
        for node in walk(tree):
            if isinstance(node, n.If) and any(_reads_hidden(c, cs, hidden, set(), tainted - shown.get(id(node), frozenset()),
                                                            counted) for c, _ in node.branches) \
                    and not _every_branch_asks(node):
                for inner in walk(node):
                    if isinstance(inner, (n.Menu, n.Choose)) and id(inner) not in guarded:
                        guarded.add(id(inner))
                        out.append(warning(inner.span, f"{_menu_name(inner)} is asked only when an 'if' on cards "
                                           "others cannot see holds: they learn about those cards from being asked "
                                           "or not", "ask it every time ('always'), and leave out the options that "
                                           "do not apply with 'when'", "telling"))
            if not isinstance(node, (n.Menu, n.Choose)) or node.always or id(node) in guarded:
                continue
            known = tainted - shown.get(id(node), frozenset())
            if isinstance(node, n.Menu) and any(_telling(item, cs, hidden, known) for item in node.items):
                out.append(warning(node.span, f"{_menu_name(node)} is not asked when only one option is left, and "
                                   "which options there are depends on cards others cannot see: they learn about "
                                   "them", _ALWAYS_HINT, "telling"))
            elif isinstance(node, n.Choose) and _reads_hidden(node.source, cs, hidden, set(), known) \
                    and not _answers_stay_many(node, cs, hidden, counted):
                out.append(warning(node.span, f"{_menu_name(node)} is not asked when only one answer is left, and "
                                   "which answers there are depends on cards others cannot see: they learn about "
                                   "them", _PICK_HINT, "telling"))
    return out
