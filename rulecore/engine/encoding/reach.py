"""Where the cards of each type can ever lie, read from the effect text once per game.

``Reach(rules)`` follows every ``move`` statement from the zone the cards start in: the card types an
expression can hold are worked out from the zones it reads, its ``where`` conditions on what a card
*is* (``"x" in it.tags``, ``it.kind == "y"``, ``it.key == option("scene")``: decided per card type,
anything else keeps the type), and the variables, parameters and signal values it passes through,
until nothing changes.  It over-approximates: a type the text might move to a zone counts there,
and whatever the text does not show (a variable nobody sets) may hold any card.  It also reads the
zones where a card can lie face up (``move ... face up``, ``turn ... face up``) or be revealed, and
the words ``mark`` can write on cards and on players.

The compact observation (``compact.py``) keeps a count per card type only where the type can lie.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...lang import nodes as n
from ...lang.nodes import walk

_UNKNOWN = object()
Root = Any  # an int (an effect: the game's program, a procedure, an ability) or ("fn", name)


class Reach:
    """The zones each card type can reach, the zones that can show cards, the mark words (see the module)."""

    def __init__(self, rules: Any, texts: set[str]):
        cardset = rules.cardset
        self.rules = rules
        self.all = frozenset(rules.instance_type)
        self.texts = texts
        roots: list[Any] = [cardset.program]
        self.this: dict[Root, frozenset[str]] = {}
        proc_root: dict[str, int] = {}
        for name, proc in sorted(cardset.procedures.items()):
            proc_root[name] = len(roots)
            roots.append(proc.body)
        answering: dict[str, list[int]] = {}
        for cid, card in sorted(cardset.cards.items()):
            for _, ability in sorted(card.abilities.items()):
                if ability.on is not None:
                    answering.setdefault(ability.on, []).append(len(roots))
                self.this[len(roots)] = frozenset((cid,)) & self.all
                roots.append(ability.body)
        functions = cardset.functions
        all_roots: list[tuple[Root, Any]] = list(enumerate(roots))
        all_roots += [(("fn", name), f.body) for name, f in sorted(functions.items())]
        self.binds: dict[tuple[Root, str], list[Any]] = {}
        self.var_binds: dict[str, list[Any]] = {name: [] for name in cardset.vars}
        moves: list[tuple[Root, n.Move]] = []
        up: list[tuple[Root, Any]] = []
        self.player_marks: set[str] = set()
        marks: list[tuple[Root, n.Mark]] = []
        for r, root in all_roots:
            for node in walk(root):
                t = type(node)
                if t is n.Let:
                    self._bind(r, node.name, (r, node.value))
                elif t is n.Choose:
                    self._bind(r, node.var, (r, node.source))
                elif t is n.ForEach:
                    self._bind(r, node.var, (r, node.items))
                elif t is n.DynamicOption:
                    self._bind(r, node.var, (r, node.source))
                elif t in (n.Simultaneously, n.InAnyOrder):
                    self._bind(r, node.var, None)
                elif t is n.CallProc and node.result is not None and node.name in proc_root:
                    for ret in walk(cardset.procedures[node.name].body):  # 'let x = call p()': what p returns
                        if type(ret) is n.Return and ret.value is not None:
                            self._bind(r, node.result, (proc_root[node.name], ret.value))
                elif t is n.SetVar:
                    self.var_binds.setdefault(node.name, []).append((r, node.value))
                elif t is n.CallProc and node.name in proc_root:
                    for param, arg in zip(cardset.procedures[node.name].params, node.args):
                        self._bind(proc_root[node.name], param, (r, arg))
                elif t is n.UserCall and node.func in functions:
                    for param, arg in zip(functions[node.func].params, node.args):
                        self._bind(("fn", node.func), param, (r, arg))
                elif t in (n.Signal, n.AnswerOption):
                    for target in answering.get(node.event, ()):
                        for name in node.passes:
                            self._bind(target, name, (r, n.Var(name)))
                elif t is n.Move:
                    moves.append((r, node))
                    if node.face == "up":
                        up.append((r, node.dest))
                elif t is n.Flip and node.face == "up":
                    up.append((r, node.cards))
                elif t is n.Reveal:
                    up.append((r, node.zone))
                elif t is n.Mark:
                    marks.append((r, node))
        self.zones: dict[str, frozenset[str]] = {name: frozenset() for name in cardset.zones}
        self.zones[cardset.start_zone] = self.all
        changed = True
        while changed:  # the least fixed point of the moves
            changed = False
            for r, move in moves:
                types = self.types_of(move.cards, r, frozenset())
                if not types:
                    continue
                dest = move.dest
                for zone in self._zone_names(dest, r, 0) if type(dest) is not n.ZoneRef else (dest.zone,):
                    if not types <= self.zones[zone]:
                        self.zones[zone] = self.zones[zone] | types
                        changed = True
        self.face_up: frozenset[str] = frozenset(z for r, expr in up for z in self._zone_names(expr, r, 0))
        self.marked: dict[str, frozenset[str]] = {}  # card mark word -> the card types it can be on
        for r, mark in marks:
            if mark.remove:
                continue
            words = self._words(mark.mark, r)
            if mark.target_kind != "card":
                self.player_marks.update(words)
                continue
            types = self.types_of(mark.target, r, frozenset())
            for word in words:
                self.marked[word] = self.marked.get(word, frozenset()) | types

    def _bind(self, root: Root, name: str, source: Any) -> None:
        self.binds.setdefault((root, name), []).append(source)

    # ---- what an expression holds
    def types_of(self, e: Any, r: Root, visiting: frozenset[Any]) -> frozenset[str]:
        """The card types the cards of expression ``e`` (in effect ``r``) can be."""
        t = type(e)
        if e is None or t in (n.Literal, n.Attr, n.Compare, n.Contains, n.And, n.Or, n.Not, n.Neg, n.CounterRef,
                              n.Seat):
            return frozenset()
        if t is n.ZoneRef:
            return self.zones.get(e.zone, frozenset())
        if t is n.Where:
            return frozenset(x for x in self.types_of(e.source, r, visiting) if self._holds(e.cond, x) is not False)
        if t is n.BinOp:
            left = self.types_of(e.left, r, visiting)
            return left | self.types_of(e.right, r, visiting) if e.op == "+" else left if e.op == "-" else frozenset()
        if t is n.ListExpr:
            return self._union((self.types_of(x, r, visiting) for x in e.items))
        if t is n.Builtin:
            return self.this.get(r, self.all) if e.name == "this" else self.all if e.name == "it" else frozenset()
        if t is n.Var:
            return self._sources(self.binds.get((r, e.name)), (r, e.name), visiting)
        if t is n.GameVar:
            return self._sources(self.var_binds.get(e.name), ("var", e.name), visiting)
        if t is n.Call and e.func == "in_zones":
            if all(isinstance(a, n.Literal) for a in e.args):
                return self._union(self.zones.get(a.value, frozenset()) for a in e.args)
            return self.all
        if t is n.Call:
            return self._union(self.types_of(a, r, visiting) for a in e.args)
        if t is n.UserCall:
            fn = self.rules.cardset.functions.get(e.func)
            key = ("fn", e.func)
            if fn is None or key in visiting:
                return frozenset()
            return self.types_of(fn.body, key, visiting | {key})
        return self.all  # an expression the reading does not know: any card

    def _sources(self, sources: list[Any] | None, key: Any, visiting: frozenset[Any]) -> frozenset[str]:
        if sources is None:
            return self.all if key[0] != "var" else frozenset()
        if key in visiting:  # a variable set from itself (let x = x + [y]): the rest of its sources say it
            return frozenset()
        inner = visiting | {key}
        return self._union(self.types_of(s[1], s[0], inner) for s in sources if s is not None)

    @staticmethod
    def _union(parts: Iterable[frozenset[str]]) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for part in parts:
            out = out | part
        return out

    # ---- conditions on what a card is
    def _holds(self, cond: Any, card_type: str) -> bool | None:
        """Does ``cond`` hold for a card of this type (None: it depends on more than the type)?"""
        t = type(cond)
        if t is n.And:
            a, b = self._holds(cond.left, card_type), self._holds(cond.right, card_type)
            return False if a is False or b is False else True if a and b else None
        if t is n.Or:
            a, b = self._holds(cond.left, card_type), self._holds(cond.right, card_type)
            return True if a or b else False if a is False and b is False else None
        if t is n.Not:
            a = self._holds(cond.operand, card_type)
            return None if a is None else not a
        if t is n.Contains:
            item, values = self._constant(cond.item), self._property(cond.collection, card_type)
            if item is _UNKNOWN or values is _UNKNOWN or type(values) is not tuple:
                return None
            return (item in values) != cond.negate
        if t is n.Compare and cond.op in ("==", "!="):
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                value, constant = self._property(a, card_type), self._constant(b)
                if value is not _UNKNOWN and constant is not _UNKNOWN:
                    return (value == constant) == (cond.op == "==")
        return None

    def _property(self, e: Any, card_type: str) -> Any:
        """The value of ``it.NAME`` for a card of this type, if it is a static fact of the card."""
        if not (type(e) is n.Attr and type(e.obj) is n.Builtin and e.obj.name == "it"):
            return _UNKNOWN
        card = self.rules.defs[card_type]
        if e.name == "tags":
            return card.tags
        if e.name == "name":
            return card.name
        if e.name in ("type", "id"):
            return card_type
        return card.props.get(e.name) if e.name in self.rules.prop_tables else _UNKNOWN

    def _constant(self, e: Any) -> Any:
        if type(e) is n.Literal:
            return e.value
        if type(e) is n.Call and e.func == "option" and len(e.args) == 1 and type(e.args[0]) is n.Literal:
            return self.rules.options.get(e.args[0].value, _UNKNOWN)
        return _UNKNOWN

    # ---- zones and words named by the text
    def _zone_names(self, e: Any, r: Root, depth: int) -> set[str]:
        """The zones (names) of the cards an expression names, or of the zone it is; every zone when the
        text does not show them."""
        zones = self.rules.cardset.zones
        if type(e) is n.ZoneRef:
            return {e.zone}
        found: set[str] = set()
        stack = [e]
        while stack and depth <= 8:
            node = stack.pop()
            t = type(node)
            if t is n.ZoneRef:
                found.add(node.zone)  # not its owner: a seat or a slot number
            elif t is n.Call and node.func == "in_zones":
                found.update(a.value for a in node.args if type(a) is n.Literal and a.value in zones)
            elif t is n.Var:
                for source in self.binds.get((r, node.name)) or ():
                    if source is not None:
                        found |= self._zone_names(source[1], source[0], depth + 1) if depth < 8 else set(zones)
            elif t is n.Where:
                stack.append(node.source)
            elif t in (n.Call, n.UserCall, n.BinOp, n.ListExpr):
                stack.extend(getattr(node, "args", None) or getattr(node, "items", None) or
                             [x for x in (getattr(node, "left", None), getattr(node, "right", None)) if x is not None])
        return found or (set(zones) if depth == 0 else set())

    def _words(self, mark: Any, r: Root) -> set[str]:
        """The words a ``mark`` can write: a literal, or a literal joined to a text the variable after it
        takes from a card property, a game variable or a list (else any text of the game)."""
        if type(mark) is n.Literal and type(mark.value) is str:
            return {mark.value}
        if type(mark) is n.BinOp and mark.op == "+" and type(mark.left) is n.Literal and type(mark.left.value) is str:
            return {mark.left.value + str(t) for t in self._texts_of(mark.right, r, 0)}
        return set()

    def _texts_of(self, e: Any, r: Root, depth: int) -> set[Any]:
        rules = self.rules
        if depth > 8:
            return set(self.texts)
        if type(e) is n.Literal:
            return set(e.value) if type(e.value) is tuple else {e.value}
        if type(e) is n.Where:
            return self._texts_of(e.source, r, depth + 1)
        if type(e) is n.Builtin and e.name in ("players", "opponents"):
            return set(range(rules.players))
        if type(e) is n.ListExpr:
            return {x for item in e.items for x in self._texts_of(item, r, depth + 1)}
        if type(e) is n.GameVar and e.name in rules.cardset.vars:
            value = rules.cardset.vars[e.name]
            return set(value) if type(value) is tuple else {value}
        if type(e) is n.Attr and e.name in rules.prop_tables:  # a card property: each value it takes
            out: set[Any] = set()
            for value in rules.prop_tables[e.name]:
                out.update(value if type(value) is tuple else (value,))
            return out - {None}
        if type(e) is n.Var and (r, e.name) in self.binds:
            out = set()
            for source in self.binds[(r, e.name)]:
                if source is None:
                    return set(self.texts)
                out |= self._texts_of(source[1], source[0], depth + 1)
            return out
        return set(self.texts)
