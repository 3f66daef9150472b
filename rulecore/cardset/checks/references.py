"""The errors only a whole cardset shows, run by every load: names written as text that must exist
(``option("mode")`` and its choices, ``phase == "score"``, ``in_zones("hand")``,
``usable(c, "play")``, ``prop(c, "colour")``, card names), answers to signals nothing sends, and
values of the wrong kind where the text alone shows it (a zone where a number is expected, a
number where cards are).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...errors import Problem, Span, yaml_words
from ...lang import nodes as n
from ...lang.kinds import KIND_WORDS, kind_of
from ...lang.render import render_expr
from .checker import CARD_ATTRS
from .types import TreeKinds, game_var_kinds
from .walking import SpanOf, card_path, did_you_mean, guess, one_per_family, phase_names, shorten, text_of, trees

if TYPE_CHECKING:
    from ..model import Cardset

# what to write instead, by the kind of value that was given
_KIND_HINTS = {
    "zone": "count(ZONE) is the number of cards in a zone",
    "players": "count(players) is the number of players",
    "list": "count([...]) is the number of items",
    "truth": "if_else(CONDITION, 1, 0) turns a condition into a number",
    "text": "numbers are written without quotes",
    "number": "a number is not a card; top(ZONE, n) gives the top n cards",
}


class _References:
    """One pass over every node of a cardset's trees, collecting the problems."""

    def __init__(self, cs: "Cardset", span_of: SpanOf | None = None):
        self.cs = cs
        self.span_of = span_of
        self.problems: list[Problem] = []
        self.props = set(CARD_ATTRS)
        self.abilities: set[str] = set()
        for card in cs.cards.values():
            self.props.update(card.props)
            self.abilities.update(card.abilities)
        self.phases = set(phase_names(cs)) | {"setup"}
        self.card_names = {card.name for card in cs.cards.values()}
        self.kind_of: Callable[[Any], str | None] = kind_of  # what an expression gives (see ``run``)

    def problem(self, span: Span, message: str, hint: str | None, code: str) -> None:
        self.problems.append(Problem(message, span, hint, code))

    def run(self) -> list[Problem]:
        signals: set[str] = set()
        game_vars = game_var_kinds(self.cs)
        for tree, _ in trees(self.cs):
            self.kind_of = TreeKinds(tree, game_vars).kind  # what the tree's locals and the game's variables hold
            for node in n.walk(tree):
                self.node(node, signals)
        self.kind_of = kind_of
        self.triggers(signals)
        if self.cs.heuristic is not None:
            self.expect(self.cs.heuristic, {"zone", "players", "player", "list", "text", "nothing"},
                        "the heuristic must give a number, got {got}: {text}",
                        "e.g. points of you - max_of(opponents, points of it); count(ZONE) for a zone")
        return self.problems

    def node(self, node: Any, signals: set[str]) -> None:
        if isinstance(node, n.Call):
            self.call(node)
        elif isinstance(node, n.Compare) and node.op in ("==", "!="):
            self.equals(node.left, node.right)
            self.equals(node.right, node.left)
        elif isinstance(node, (n.Signal, n.AnswerOption)):
            signals.add(node.event)
        self.kinds(node)

    def triggers(self, signals: set[str]) -> None:
        """A card ability answering ('on:') an event that no effect signals."""
        for card in one_per_family(self.cs):
            for ability in card.abilities.values():
                if ability.on is None or ability.on in signals:
                    continue
                span = card.span
                if self.span_of is not None:
                    span = self.span_of(card_path(card) + ("abilities", ability.name, "on"))
                hint = did_you_mean(ability.on, signals, f"no effect says 'signal \"{ability.on}\" for ...'")
                self.problem(span, f"{card.name}'s '{ability.name}' answers '{ability.on}', which nothing signals",
                             hint, "trigger")

    # ---- names written as text
    def call(self, node: n.Call) -> None:
        args = node.args
        if node.func == "option" and args and text_of(args[0]) is not None:
            option = text_of(args[0]) or ""
            if option not in self.cs.options:
                self.problem(args[0].span, f"unknown option '{option}'",
                             did_you_mean(option, self.cs.options, "declare it under 'options:'"), "unknown-name")
        elif node.func == "in_zones":
            for arg in args:
                name = text_of(arg)
                if name is not None and name not in self.cs.zones:
                    self.problem(arg.span, f"unknown zone '{name}'",
                                 did_you_mean(name, self.cs.zones, f"zones: {', '.join(self.cs.zones)}"), "unknown-name")
        elif node.func == "usable" and len(args) >= 2 and text_of(args[1]) is not None:
            ability = text_of(args[1]) or ""
            if ability not in self.abilities:
                self.problem(args[1].span, f"no card has an ability '{ability}'",
                             did_you_mean(ability, self.abilities, "no card has an ability of that name"), "unknown-name")
        else:
            first_prop = {"prop": 1, "sets": 1, "shared_props": 2, "chain": 3}.get(node.func)
            if first_prop is None:
                return
            for arg in args[first_prop:]:
                name = text_of(arg)
                if name is not None and name not in self.props:
                    self.problem(arg.span, f"cards have no property '{name}'",
                                 did_you_mean(name, self.props, f"cards have: {', '.join(sorted(self.props))}"),
                                 "unknown-name")

    def equals(self, a: Any, b: Any) -> None:
        """``option("x") == "v"``, ``phase == "p"``, ``c.name == "Apple"``: the text must be one of them."""
        value = b.value if isinstance(b, n.Literal) else None
        if isinstance(a, n.Call) and a.func == "option" and a.args and text_of(a.args[0]) in self.cs.options:
            spec = self.cs.options[text_of(a.args[0])]  # type: ignore[index]
            if spec.choices is not None and isinstance(b, n.Literal) and value not in spec.choices:
                choices = ", ".join(yaml_words(c) for c in spec.choices)
                guessed = guess(str(value), [str(c) for c in spec.choices])
                self.problem(b.span, f"option '{spec.name}' has no choice {yaml_words(value)}",
                             f"did you mean '{guessed}'?" if guessed else f"its choices: {choices}", "unknown-name")
        elif isinstance(a, n.Builtin) and a.name == "phase" and isinstance(value, str) and value not in self.phases:
            self.problem(b.span, f"unknown phase '{value}'",
                         did_you_mean(value, self.phases, f"phases: {', '.join(sorted(self.phases))}"), "unknown-name")
        elif isinstance(a, n.Attr) and a.name == "name" and isinstance(value, str) and value not in self.card_names:
            self.problem(b.span, f"no card is named '{value}'",
                         did_you_mean(value, self.card_names, "card names are the 'name:' of each card"),
                         "unknown-name")

    # ---- kinds
    def expect(self, e: Any, bad: set[str], message: str, hint: str | None = None) -> None:
        kind = self.kind_of(e)
        if kind in bad:
            self.problem(e.span, message.format(got=KIND_WORDS[kind], text=shorten(render_expr(e))),
                         hint or _KIND_HINTS.get(kind), "kind")

    def kinds(self, node: Any) -> None:
        not_number = {"zone", "players", "list", "text", "truth"}
        if isinstance(node, n.BinOp):
            if node.op in "-*/%":
                for side in (node.left, node.right):
                    self.expect(side, not_number, f"'{node.op}' needs numbers, got {{got}}: {{text}}")
            else:
                left, right = self.kind_of(node.left), self.kind_of(node.right)
                if "number" in (left, right):
                    other = node.right if left == "number" else node.left
                    self.expect(other, {"zone", "players", "list", "truth"}, "'+' adds numbers, got {got}: {text}")
        elif isinstance(node, n.Compare) and node.op in ("<", "<=", ">", ">="):
            for side in (node.left, node.right):
                self.expect(side, {"zone", "players", "list", "truth"}, f"'{node.op}' compares numbers, got {{got}}: {{text}}")
        elif isinstance(node, n.Neg):
            self.expect(node.operand, not_number, "'-' needs a number, got {got}: {text}")
        elif isinstance(node, n.CounterOp):
            self.expect(node.value, not_number, f"'{node.op}' needs a number, got {{got}}: {{text}}")
        elif isinstance(node, n.Repeat):
            self.expect(node.count, not_number, "'repeat' needs a number, got {got}: {text}")
        elif isinstance(node, n.Choose) and node.count is not None:
            self.expect(node.count, not_number, "how many to choose must be a number, got {got}: {text}")
        elif isinstance(node, n.Move):
            self.expect(node.cards, {"number", "truth", "text"}, "'move' needs cards or a zone, got {got}: {text}",
                        "a text is not a zone: name the zone itself, e.g. 'table' or 'hand of you'"
                        if self.kind_of(node.cards) == "text" else None)
        elif isinstance(node, n.ForEach):
            self.expect(node.items, {"number", "truth"}, "'for each' needs a collection, got {got}: {text}",
                        "to do something N times, write 'repeat N { ... }'")
        elif isinstance(node, n.Call):
            if node.func == "count" and node.args:
                self.expect(node.args[0], {"number", "truth"}, "count() needs cards, a zone or a collection, got {got}: {text}")
            elif node.func in ("top", "bottom", "random") and len(node.args) == 2:
                self.expect(node.args[1], not_number, f"the second argument of {node.func}() is how many, got {{got}}: {{text}}")



def check_references(cs: "Cardset", span_of: SpanOf | None = None) -> list[Problem]:
    """Errors: names written as text that do not exist, answers to events nothing signals, values of the wrong kind."""
    return _References(cs, span_of).run()
