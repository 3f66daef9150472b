"""``Rules``: everything about one game that never changes while it is played (card instances,
zone keys, compiled expressions, the node table used to save frames); every ``State`` of the
game shares it, so cloning never copies it.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..cardset.model import Cardset
from ..lang import nodes as n
from ..errors import RuleError
from ..lang.functions import Unfit, describe_value, in_words, spend
from ..lang.kinds import same_for_every_seat
from ..lang.work import KeptScores
from ..lang.nodes import children, walk
from .codegen.compiler import Compiler
from .interpreter.driver import MACHINE
from .interpreter.frames import Ctx
from .interpreter.signals import menu_answers
from .interpreter.simple import SIMPLE
from .knowing.held import card_locals
from .knowing.knowledge import how_picked, kind_pools, zone_seers


class _NoState:
    """Stands in for a state while card inclusion is decided, before any state exists: its
    ``include_if`` conditions together get one run's step budget (``steps`` against ``game.step_limit``)."""

    round = 0
    turn_player = None
    phase = None
    zones: dict[str, list[int]] = {}

    def __init__(self, step_limit: int) -> None:
        self.steps = 0
        self.game = self  # what the budget reads: state.game.step_limit
        self.step_limit = step_limit


class Rules:
    """The unchanging part of one game: shared by all its states."""

    loop_limit = 10_000
    done_label = "Done"
    decline_label = "Decline"

    def __init__(self, cardset: Cardset, players: int, options: Mapping[str, Any],
                 player_names: tuple[str, ...] | None = None, step_limit: int = 1_000_000):
        self.cardset = cardset
        self.ladder_scores = KeptScores()  # ladder_score() of the cards given, for every state of the game
        self.player_names = player_names  # shown for the seats in labels and events; None: "Player N"
        self.players = players
        self.options = dict(options)
        self.seats = tuple(range(players))
        self.opponents = tuple(tuple((p + k) % players for k in range(1, players)) for p in range(players))
        self.defs = cardset.cards
        self.compiler = Compiler(cardset.functions, SIMPLE, cardset.procedures, menu_answers, MACHINE)
        self.fn = self.compiler
        self._labellers: dict[str, Any] = {}  # kind -> its labeller (see ``labeller``)

        # zones
        self.zone_keys: dict[str, tuple[str, ...]] = {}
        self.zone_visibility: dict[str, str] = {}
        self.zone_owner: dict[str, int | None] = {}
        self.zone_base: dict[str, int] = {}  # what 'NAME of X' counts from: seat 0, or slot 1
        for name, z in cardset.zones.items():
            if z.per_player:
                keys = tuple(f"{name}/{p}" for p in range(players))
                for p, key in enumerate(keys):
                    self.zone_visibility[key] = z.visibility
                    self.zone_owner[key] = p
                self.zone_base[name] = 0
            elif z.slots:
                keys = tuple(f"{name}/{i}" for i in range(1, z.slots + 1))
                for key in keys:
                    self.zone_visibility[key] = z.visibility
                    self.zone_owner[key] = None
                self.zone_base[name] = 1
            else:
                keys = (name,)
                self.zone_visibility[name] = z.visibility
                self.zone_owner[name] = None
            self.zone_keys[name] = keys

        self.everyone = (1 << players) - 1  # every seat, as a bitmask
        self.zone_seers = zone_seers(self.zone_visibility, self.zone_owner, players)  # zone key -> who sees it
        # card instances
        types: list[str] = []
        ctx = Ctx.__new__(Ctx)
        ctx.state = _NoState(step_limit)  # type: ignore[assignment]
        ctx.rules = self  # type: ignore[assignment]
        ctx.env = {"$you": None, "$this": None}
        ctx.memo = None
        for cid, card in cardset.cards.items():
            if card.include_if is not None and not self.evaluate(card.include_if, ctx):
                continue
            types.extend([cid] * card.count)
        self.instance_type: tuple[str, ...] = tuple(types)
        self._names = tuple(self.defs[t].name for t in types)
        # the view's card names (type -> name), once: State._view_key compares this very object
        self.card_names = frozenset((t, d.name) for t, d in self.defs.items())
        # static card facts as tables indexed by instance id: property name -> value per card
        prop_names = {p for d in self.defs.values() for p in d.props}
        self.prop_tables: dict[str, tuple[Any, ...]] = {
            p: tuple(self.defs[t].props.get(p) for t in types) for p in sorted(prop_names)
        }
        self.prop_tables["type"] = self.instance_type
        self.prop_tables["name"] = self._names
        self.prop_tables["tags"] = tuple(self.defs[t].tags for t in types)
        self._group_labels: dict[tuple[str, ...], str] = {}  # a memo of pure labels, never part of a state

        # triggers: event -> zone -> card type -> ability
        self.triggers: dict[str, dict[str, dict[str, Any]]] = {}
        for cid, card in cardset.cards.items():
            for ability in card.abilities.values():
                if ability.on is not None and ability.zone is not None:
                    self.triggers.setdefault(ability.on, {}).setdefault(ability.zone, {})[cid] = ability

        # node table, so frames can be saved as numbers
        self.nodes: list[Any] = []
        self.picked_by_kind: dict[int, int] = {}  # move statement -> how it picks its cards (knowledge.how_picked)
        self.kind_pools: dict[int, Any] = {}  # move statement -> the cards of a kind it picks some of
        self.node_id: dict[int, int] = {}
        roots: list[Any] = [cardset.program]
        roots += [p.body for _, p in sorted(cardset.procedures.items())]
        for cid, card in cardset.cards.items():
            roots += [a.body for _, a in sorted(card.abilities.items())]
        exprs = [cardset.winners, cardset.heuristic] + [f.body for f in cardset.functions.values()]
        for card in cardset.cards.values():
            exprs += [card.include_if] + [a.when for a in card.abilities.values()]
        for root in roots:
            self.kind_pools.update(kind_pools(root, walk))
        # statement -> its effect's variables that hold cards; game variables that do (re-dealt by resample)
        self.card_locals, self.card_vars = card_locals(cardset, walk)
        # the expressions statements evaluate: compiled to Python source, one module per game
        expr_roots: list[Any] = [e for e in exprs if e is not None]
        for root in roots + exprs:
            if root is None:
                continue
            for node in walk(root):
                if isinstance(node, n.Expr):
                    continue
                expr_roots.extend(c for c in children(node) if isinstance(c, n.Expr))
                if isinstance(node, n.CounterOp) and node.target.owner is not None:
                    expr_roots.append(node.target.owner)  # the interpreter reads the owner on its own
                if id(node) not in self.node_id and isinstance(node, (n.Stmt, n.StaticOption, n.DynamicOption)):
                    self.node_id[id(node)] = len(self.nodes)
                    self.nodes.append(node)
                    if isinstance(node, n.Move):
                        self.picked_by_kind[id(node)] = how_picked(node.cards)
        unique = list({id(e): e for e in expr_roots}.values())
        menus = [node for node in self.nodes if type(node) is n.Menu]
        # a heuristic no seat changes (a cooperative game's) is worked out once for every seat (``judge``)
        self.heuristic_seatless = cardset.heuristic is not None and same_for_every_seat(
            cardset.heuristic, cardset.functions)
        self.generated = self.compiler.generate(unique, menus, self, f"effects of {cardset.name}")

    # ---- cards
    def trigger_ability(self, event: str, card: int) -> Any:
        t = self.instance_type[card]
        for abilities in self.triggers.get(event, {}).values():
            if t in abilities:
                return abilities[t]
        raise KeyError(event)

    def card_name(self, card: int) -> str:
        return self._names[card]

    def card_prop(self, card: int, prop: str) -> Any:
        table = self.prop_tables.get(prop)
        if table is None:
            self.instance_type[card]  # an unknown card still fails as before
            return None
        return table[card]

    def usable(self, ctx: Any, card: int, ability: str, *user: Any) -> bool:
        if type(card) is not int:
            raise Unfit(f"usable() needs a card, got {describe_value(card)}")
        a = self.defs[self.instance_type[card]].abilities.get(ability)
        if a is None:
            return False
        if a.when is None:
            return True
        you = user[0] if user else ctx.env.get("$you")
        sub = Ctx(ctx.state, {"$you": you, "$this": card})
        spend(ctx, 1)  # asking a 'when' is a step, like a call of a function
        return bool(self.fn(a.when)(sub))

    def evaluate(self, expr: Any, ctx: Any) -> Any:
        """The value of a root expression that no statement runs (``include_if``, ``end.winners``,
        the heuristic): what Python raises on the way (a ``usable()`` whose ``when`` leads back to
        itself goes past Python's recursion limit) becomes a ``RuleError`` at the effect text."""
        try:
            return self.fn(expr)(ctx)
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as exc:
            generated = getattr(self, "generated", None)  # not yet while include_if is worked out
            span = generated.span_of_traceback(exc.__traceback__) if generated is not None else None
            words = in_words(exc)
            if isinstance(exc, RecursionError):
                words += " (does a 'when' lead back to itself through usable()?)"
            raise RuleError(f"cannot work this out: {words}", span or getattr(expr, "span", None)) from None

    def judge(self, state: Any, players: Iterable[int]) -> list[float]:
        """The cardset's heuristic (0.0 without one) for each of ``players`` in ``state``, worked out
        together: a built-in that only reads zones (the scoring ladder of a seat's pile) is read once
        for all of them, since nothing changes the state in between, and a heuristic that reads no
        seat (``heuristic_seatless``) is worked out once.  Each seat's evaluation has a step budget
        of its own (see ``Game.step_limit``)."""
        expr = self.cardset.heuristic
        if expr is None:
            return [0.0 for _ in players]
        ctx = Ctx(state, {})
        ctx.memo = {}
        out: list[float] = []
        for player in players:
            if out and self.heuristic_seatless:
                out.append(out[0])  # the same text and state give the same value
                continue
            state.steps = 0
            ctx.env = {"$you": player, "$this": None}
            value = self.evaluate(expr, ctx)
            if type(value) not in (int, bool):
                raise RuleError(f"the heuristic must give a number, got {describe_value(value)}",
                                getattr(expr, "span", None))
            out.append(float(value))
        return out

    # ---- labels
    def player_label(self, player: Any) -> str:
        if type(player) is not int:
            return "the game"
        names = self.player_names
        return names[player] if names is not None and 0 <= player < len(names) else f"Player {player}"

    def zone_label(self, key: str | None) -> str:
        """A zone key as people read it: the owner's name and the zone's 'label:' (else its name)."""
        if key is None:
            return "cards"
        owner = self.zone_owner.get(key)
        name, _, slot = key.partition("/")
        zone = self.cardset.zones.get(name)
        label = zone.label or name if zone is not None else name
        if owner is not None:
            return f"{self.player_label(owner)}'s {label}"
        return f"{label} {slot}" if slot else label

    def group_label(self, cards: Iterable[int]) -> str:
        key = tuple(map(self.instance_type.__getitem__, cards))
        label = self._group_labels.get(key)
        if label is None:
            label = self._group_labels[key] = self._make_group_label(key)
        return label

    def _make_group_label(self, types: tuple[str, ...]) -> str:
        cards = [self.instance_type.index(t) for t in types]
        counts: dict[str, int] = {}
        for c in cards:
            name = self._names[c]
            counts[name] = counts.get(name, 0) + 1
        if not counts:
            return "nothing"
        return " + ".join(f"{k} {name}" for name, k in counts.items())

    def labeller(self, kind: str) -> Any:
        """``label_for`` with the kind fixed: a function of the value (the common kinds without a dispatch)."""
        fn = self._labellers.get(kind)
        if fn is None:
            fn = self._labellers[kind] = self._make_labeller(kind)
        return fn

    def _make_labeller(self, kind: str) -> Any:
        if kind in ("card", "cards"):
            return self._names.__getitem__
        if kind in ("player", "players"):
            return self.player_label
        if kind == "set":
            labels, type_of, make = self._group_labels, self.instance_type.__getitem__, self._make_group_label

            def set_label(value: Any) -> str:  # group_label, inline
                key = tuple(map(type_of, value)) if type(value) is tuple else (type_of(value),)
                label = labels.get(key)
                if label is None:
                    label = labels[key] = make(key)
                return label

            return set_label
        return lambda value: self.label_for(kind, value)

    def label_for(self, kind: str, value: Any) -> str:
        if kind in ("player", "players"):
            return self.player_label(value)
        if kind in ("card", "cards"):
            return self._names[value]
        if kind == "set":
            return self.group_label(value if type(value) is tuple else (value,))
        if kind in ("number", "value"):
            return self.text(value)
        return self.label_value(value)

    def text(self, value: Any, kind: str | None = None) -> str:
        """A value as plain text: numbers as numbers, collections joined with commas.

        ``kind`` is what the effect text shows the value to be (see ``static_kind``): a
        collection of players or numbers reads as the numbers; other whole-number
        collections read as cards ("2 Apple").  Use player_name(p) for "Player 2".
        """
        if kind in ("player", "players", "value") and type(value) is tuple:
            return ", ".join(self.text(v) for v in value)  # seats or numbers, not cards
        if type(value) is tuple:
            if value and all(type(v) is int for v in value):
                return self.group_label(value)  # a collection of cards reads as "2 Apple + 1 Pear"
            return ", ".join(self.text(v) for v in value)
        if value is None:
            return "none"
        if value is True or value is False:
            return "true" if value else "false"
        return str(value)

    def label_value(self, value: Any) -> str:
        if type(value) is tuple:
            return self.group_label(value)
        if type(value) is int:
            return self._names[value] if 0 <= value < len(self._names) else str(value)
        if value is None:
            return "none"
        return str(value)
