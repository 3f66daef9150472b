"""Walking a built cardset, for the checks: every effect tree with a word for where it is, one card
per family, and the small helpers of the checks' messages (a guess, a shortened text, a warning).
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from ...errors import Problem, Span
from ...lang import nodes as n
from ...lang.nodes import walk

if TYPE_CHECKING:
    from ..model import Cardset

SpanOf = Callable[..., Span]  # the span of a path of the data: (path, *, key=False) -> Span


def trees(cs: "Cardset") -> Iterator[tuple[Any, str]]:
    """Every effect tree of the cardset, with a word for where it is."""
    for card in one_per_family(cs):  # the cards of a family share their trees
        who = card.name if card.family is None else f"family {card.family}"
        if card.include_if is not None:
            yield card.include_if, f"card '{card.name}'" if card.family is None else who
        for ability in card.abilities.values():
            where = f"{who}'s '{ability.name}'"
            yield ability.body, where
            if ability.when is not None:
                yield ability.when, where
    for proc in cs.procedures.values():
        yield proc.body, f"procedure '{proc.name}'"
    for func in cs.functions.values():
        yield func.body, f"function '{func.name}'"
    yield cs.program, "the flow"
    if cs.winners is not None:
        yield cs.winners, "end.winners"
    if cs.heuristic is not None:
        yield cs.heuristic, "heuristic"


def nodes(cs: "Cardset") -> Iterator[Any]:
    """Every node of every effect tree of the cardset."""
    for tree, _ in trees(cs):
        yield from walk(tree)


def text_of(e: Any) -> str | None:
    """The text of a text literal ("hand"), else None."""
    return e.value if isinstance(e, n.Literal) and isinstance(e.value, str) else None


def guess(name: str, pool: Iterable[str]) -> str | None:
    """The name of ``pool`` closest to ``name``, if one is close."""
    found = difflib.get_close_matches(name, sorted(set(pool)), n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(name: str, pool: Iterable[str], otherwise: str) -> str:
    """A hint: "did you mean 'x'?" with the closest name of ``pool``, else ``otherwise``."""
    found = guess(name, pool)
    return f"did you mean '{found}'?" if found else otherwise


def phase_names(cs: "Cardset") -> list[str]:
    """The names of the cardset's phases, in the order of the flow."""
    names: list[str] = []
    for node in walk(cs.program):
        if isinstance(node, n.Phase):
            names.append(node.name)
    return names


def card_path(card: Any) -> tuple[str, str]:
    """Where a card type is written in the data: under 'cards:', or as its family under 'families:'."""
    return ("families", card.family) if card.family is not None else ("cards", card.id)


def one_per_family(cs: "Cardset") -> list[Any]:
    """Every card type, but only the first of each family (the others share its text and trees)."""
    seen: set[str] = set()
    out = []
    for card in cs.cards.values():
        if card.family is None or card.family not in seen:
            out.append(card)
            if card.family is not None:
                seen.add(card.family)
    return out


def shorten(text: str, width: int = 40) -> str:
    """``text``, cut to ``width`` characters with '...'."""
    return text if len(text) <= width else text[: width - 3] + "..."


def warning(span: Span, message: str, hint: str | None, code: str) -> Problem:
    """A problem that does not stop the load: the cardset carries it in ``Cardset.warnings``."""
    return Problem(message, span, hint, code, "warning")
