"""Built-in functions of the effect language.

Each entry names its arity, a usage line and a doc line (the reference in docs/
is made from them).  ``per_item`` functions evaluate their second argument once
for each item of the first, with ``it`` bound to the item:
``lowest(players, total of it)``.

Implementations take the runtime context first; collections are tuples, cards
and players are ints, a zone is its key (a str) and reads as its cards.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from .work import (TooMuchWork, Unfit, adds_numbers, card_of, cards_checked, comparable, describe_value, number_of,
                   player_of, spend, text_of)

__all__ = ["FUNCTIONS", "Sig", "TooMuchWork", "Unfit", "cards_of", "describe_value", "in_words", "items_of", "order_key",
           "ordered", "spend"]


@attrs.frozen
class Sig:
    min_args: int
    max_args: int
    usage: str
    doc: str
    impl: Callable[..., Any]
    per_item: bool = False


_PLAIN = {
    KeyError: "it names something this game does not have",
    IndexError: "a position past the end of a collection",
    RecursionError: "effects call each other too deeply",
}


def in_words(exc: BaseException) -> str:
    """What went wrong, for people: the message of an ``Unfit``, else a plain sentence (never Python's text)."""
    if isinstance(exc, (Unfit, TooMuchWork)):
        return str(exc)
    for kind, words in _PLAIN.items():
        if isinstance(exc, kind):
            return words
    return "a value here is not of the kind this needs (a number, text, card, player, zone or collection)"


def _zone_cards(ctx: Any, value: str) -> list[int]:
    cards = ctx.state.zones.get(value)
    if cards is None:
        hint = " (write none without quotes for no value)" if value.lower() in ("none", "null", "~") else ""
        raise Unfit(f"the text {value!r} is not a zone, and only a zone holds cards{hint}")
    return cards


CHAIN_STEPS = 100_000  # orders chain() may try before it gives up
MAX_BUILT = 1_000_000  # cards in all the sets that sets() or with_one() may build


def _too_much(what: str, cap: int, hint: str) -> TooMuchWork:
    """The error of a built-in that would do too much work; the interpreter locates it (a RuleError)."""
    return TooMuchWork(f"{what} would take more than {cap:,} steps; {hint}")


def cards_of(ctx: Any, value: Any) -> tuple[int, ...]:
    """Cards of a zone key, a single card, a collection, or none."""
    if type(value) is str:
        return tuple(_zone_cards(ctx, value))
    if type(value) is tuple:
        return value
    if value is None:
        return ()
    if type(value) is int:
        return (value,)
    if type(value) is list:
        return tuple(value)
    raise Unfit(f"expected cards, got {describe_value(value)}")


def items_of(ctx: Any, value: Any) -> tuple[Any, ...]:
    if type(value) is str:
        return tuple(_zone_cards(ctx, value))
    if type(value) is tuple:
        return value
    if type(value) is list:
        return tuple(value)
    if value is None:
        return ()
    return (value,)


def _count(ctx: Any, value: Any) -> int:
    if type(value) is str:
        return len(_zone_cards(ctx, value))
    if value is None:
        return 0
    if isinstance(value, (tuple, list)):
        return len(value)
    return 1


def _top(ctx: Any, zone: Any, count: int = 1) -> tuple[int, ...]:
    return cards_of(ctx, zone)[: max(number_of("top", count, "the count"), 0)]


def _bottom(ctx: Any, zone: Any, count: int = 1) -> tuple[int, ...]:
    cards = cards_of(ctx, zone)
    count = number_of("bottom", count, "the count")
    return cards[len(cards) - max(count, 0) :] if count > 0 else ()


def _random(ctx: Any, source: Any, count: int = 1) -> tuple[Any, ...]:
    items = list(items_of(ctx, source))
    count = number_of("random", count, "the count")
    spend(ctx, len(items))
    return tuple(ctx.state.rng.sample(items, min(max(count, 0), len(items))))


def _sets(ctx: Any, cards: Any, prop: str = "type") -> tuple[tuple[int, ...], ...]:
    """Every non-empty set of cards sharing one value of ``prop``: 1, 2, ... of each value."""
    by_value: dict[Any, list[int]] = {}
    rules = ctx.rules
    table = rules.prop_tables.get(text_of("sets", prop, "the property"))  # per-card values, when the engine has them
    items = cards_checked(ctx, "sets", cards_of(ctx, cards))
    spend(ctx, len(items))
    for card in items:
        value = table[card] if table is not None else rules.card_prop(card, prop)
        group = by_value.get(value)
        if group is None:
            by_value[value] = [card]
        else:
            group.append(card)
    # at most len(items) * (len(items) + 1) / 2 cards are built: count them only when that may be too many
    if len(items) * (len(items) + 1) // 2 > MAX_BUILT and \
            sum(len(g) * (len(g) + 1) // 2 for g in by_value.values()) > MAX_BUILT:
        raise _too_much("building these sets", MAX_BUILT, "give sets() fewer cards of one kind")
    out: list[tuple[int, ...]] = []
    for group in by_value.values():
        if len(group) == 1:
            out.append((group[0],))
        else:
            whole = tuple(group)
            out.extend(whole[:k] for k in range(1, len(whole) + 1))
    return tuple(out)


def _with_one(ctx: Any, groups: Any, extras: Any) -> tuple[tuple[int, ...], ...]:
    """Each group as it is, and each group plus exactly one extra card of a type not in it."""
    itype = ctx.rules.instance_type
    extra_cards = cards_checked(ctx, "with_one", cards_of(ctx, extras))
    # the first extra card of each type, in order: a group takes those of the types it lacks
    # (an extra card in the group has a type in it, so it is never added)
    firsts: dict[str, int] = {}
    for extra in extra_cards:
        if itype[extra] not in firsts:
            firsts[itype[extra]] = extra
    per_group = len(extra_cards) + 1
    out = []
    built = 0
    for group in items_of(ctx, groups):
        group = cards_checked(ctx, "with_one", group if type(group) is tuple else cards_of(ctx, group))
        built += (len(group) + 1) * per_group
        spend(ctx, len(group) + 1)
        if built > MAX_BUILT:
            raise _too_much("building these sets", MAX_BUILT, "give with_one() fewer groups or extras")
        out.append(group)
        types = set(map(itype.__getitem__, group))
        for etype, extra in firsts.items():
            if etype not in types:
                out.append(group + (extra,))
    return tuple(out)


def _ladder_score(ctx: Any, cards: Any) -> int:
    """Sum, over card types, of the type's scoring ladder at the number of copies (kept for the game's
    every state, see ``KeptScores``)."""
    if type(cards) is str:
        items = tuple(_zone_cards(ctx, cards))  # a zone holds nothing but cards
    else:
        items = cards_checked(ctx, "ladder_score", cards_of(ctx, cards))
    spend(ctx, len(items))
    kept = ctx.rules.ladder_scores
    known = kept.get(items)
    if known is not None:
        return known
    counts: dict[str, int] = {}
    itype = ctx.rules.instance_type
    for card in items:
        t = itype[card]
        counts[t] = counts.get(t, 0) + 1
    total = 0
    defs = ctx.rules.defs
    for t, k in counts.items():
        ladder = defs[t].scoring
        if ladder:
            total += ladder[min(k, len(ladder)) - 1]
    return kept.keep(items, total)


def _usable(ctx: Any, card: int, ability: str, *user: Any) -> bool:
    return ctx.rules.usable(ctx, card_of(ctx, "usable", card), text_of("usable", ability, "the ability"), *user)


def _label(ctx: Any, value: Any) -> str:
    return ctx.rules.label_value(cards_checked(ctx, "label", value) if type(value) is tuple else value)


def _min(ctx: Any, *values: Any) -> Any:
    return min(comparable("min", list(values), "argument"))


def _max(ctx: Any, *values: Any) -> Any:
    return max(comparable("max", list(values), "argument"))


def _abs(ctx: Any, value: int) -> int:
    return abs(number_of("abs", value, "its argument"))


def _per_item(reduce: Callable[[list[tuple[Any, Any]]], Any], fname: str = "", check: str = "") -> Callable[..., Any]:
    """A per-item function: ``reduce`` of the (item, value) pairs; when the values do not fit
    (``check``: "numbers" to add, "order" to compare), an ``Unfit`` names the item."""
    def impl(ctx: Any, collection: Any, key: Callable[[Any], Any]) -> Any:
        items = collection if type(collection) is tuple else items_of(ctx, collection)
        pairs = [(item, key(item)) for item in items]
        try:
            return reduce(pairs)
        except Unfit:
            raise
        except TypeError:
            if not check:
                raise
            values = [v for _, v in pairs]
            if check == "numbers":
                bad = next(i for i, v in enumerate(values) if type(v) not in (int, bool))
                raise adds_numbers(fname, bad, values[bad]) from None
            comparable(fname, values, "the value for item")
            raise

    return impl


def order_key(value: Any) -> tuple[int, Any]:
    """How 'sort' and sorted() order values: numbers (or texts) in their order, none after them all."""
    return (1, 0) if value is None else (0, value)


def ordered(pairs: list[tuple[Any, Any]]) -> list[Any]:
    """The items in order of their values (a stable sort); an Unfit when the values cannot be compared."""
    try:
        return [item for item, _ in sorted(pairs, key=lambda pair: order_key(pair[1]))]
    except TypeError:
        kinds = sorted({describe_value(v).split(" (")[0] for _, v in pairs})
        raise Unfit(f"cannot put {' and '.join(kinds)} in one order: sort by numbers, or by texts, "
                    "or by a list of them ([it.suit, it.rank])") from None


def _lowest(pairs: list[tuple[Any, Any]]) -> tuple[Any, ...]:
    if not pairs:
        return ()
    best = min(v for _, v in pairs)
    return tuple(i for i, v in pairs if v == best)


def _highest(pairs: list[tuple[Any, Any]]) -> tuple[Any, ...]:
    if not pairs:
        return ()
    best = max(v for _, v in pairs)
    return tuple(i for i, v in pairs if v == best)


def _types(ctx: Any, cards: Any) -> tuple[str, ...]:
    """The distinct card types among the cards, in order of first appearance."""
    seen: dict[str, None] = {}
    itype = ctx.rules.instance_type
    items = cards_checked(ctx, "types", cards_of(ctx, cards))
    spend(ctx, len(items))
    for card in items:
        seen.setdefault(itype[card], None)
    return tuple(seen)


def _owner(ctx: Any, zone: Any) -> Any:
    if zone is None:
        return None
    if type(zone) is not str or zone not in ctx.rules.zone_owner:
        raise Unfit(f"owner() needs a zone, got {describe_value(zone)}; for a card, owner(zone_of(c))")
    return ctx.rules.zone_owner[zone]


def _cards(ctx: Any, value: Any) -> tuple[int, ...]:
    return cards_of(ctx, value)


def _player_name(ctx: Any, player: Any) -> str:
    return ctx.rules.player_label(player)


def _shared_props(ctx: Any, a: Any, b: Any, *props: str) -> int:
    """How many of the properties two cards have in common."""
    rules = ctx.rules
    if type(a) is not int or type(b) is not int:
        return 0
    card_of(ctx, "shared_props", a, "cards")
    card_of(ctx, "shared_props", b, "cards")
    for p in props:
        text_of("shared_props", p, "each property")
    return sum(1 for p in props if rules.card_prop(a, p) == rules.card_prop(b, p))


def _prop(ctx: Any, card: Any, name: str) -> Any:
    return ctx.rules.card_prop(card_of(ctx, "prop", card), text_of("prop", name, "the property"))


def _first(ctx: Any, value: Any) -> Any:
    items = items_of(ctx, value)
    return items[0] if items else None


def _last(ctx: Any, value: Any) -> Any:
    items = items_of(ctx, value)
    return items[-1] if items else None


def _chain(ctx: Any, cards: Any, start: Any, shared: int, *props: str) -> tuple[int, ...]:
    """An order of all the cards in which each shares exactly ``shared`` properties with the one
    before it (the first with ``start``); the empty collection if there is none."""
    rules = ctx.rules
    pool = list(cards_checked(ctx, "chain", cards_of(ctx, cards)))
    if type(start) is int:
        card_of(ctx, "chain", start, "a card (or none) to start from")
    shared = number_of("chain", shared, "the number of shared properties")
    for p in props:
        text_of("chain", p, "each property")
    if not pool:
        return ()
    spend(ctx, len(pool) * len(pool))  # every pair of cards is looked at once

    def link(a: int, b: int) -> bool:
        return sum(1 for p in props if rules.card_prop(a, p) == rules.card_prop(b, p)) == shared

    # cheap refusals before searching: every card needs a neighbour, and all must be connected
    n = len(pool)
    first_ok = [type(start) is not int or link(start, c) for c in pool]
    links = [[j for j in range(n) if j != i and link(pool[i], pool[j])] for i in range(n)]
    if not any(first_ok) or any(not links[i] and not (n == 1 and first_ok[i]) for i in range(n)):
        return ()
    reach = {i for i in range(n) if first_ok[i]}
    frontier = list(reach)
    while frontier:
        for j in links[frontier.pop()]:
            if j not in reach:
                reach.add(j)
                frontier.append(j)
    if len(reach) < n:
        return ()
    if sum(1 for i in range(n) if len(links[i]) == 1) > 2:
        return ()  # a path has only two ends

    order: list[int] = []
    used = [False] * len(pool)
    failed: set[tuple[int, frozenset[int]]] = set()
    steps = [0]

    def extend(prev: Any) -> bool:
        if len(order) == len(pool):
            return True
        steps[0] += 1
        spend(ctx, 1)
        if steps[0] > CHAIN_STEPS:
            raise _too_much(f"finding an order of these {len(pool)} cards", CHAIN_STEPS,
                            "no order was found so far; chain() suits hands of a few dozen cards")
        key = (prev if prev is not None else -1, frozenset(i for i, u in enumerate(used) if u))
        if key in failed:
            return False
        seen_types: set[str] = set()
        for i, card in enumerate(pool):
            t = rules.instance_type[card]
            if used[i] or t in seen_types:
                continue
            if prev is not None and not link(prev, card):
                continue
            seen_types.add(t)
            used[i] = True
            order.append(card)
            if extend(card):
                return True
            order.pop()
            used[i] = False
        failed.add(key)
        return False

    return tuple(order) if extend(start if type(start) is int else None) else ()


def _in_zones(ctx: Any, *names: str) -> tuple[int, ...]:
    """Every card in the zones of these names: each player's, or the shared one."""
    out: list[int] = []
    zones = ctx.state.zones
    for name in names:
        keys = ctx.rules.zone_keys.get(name)
        if keys is None:
            raise Unfit(f"the text {name!r} is not a zone of this game")
        for key in keys:
            out.extend(zones[key])
    spend(ctx, len(out))
    return tuple(out)


def _zone_of(ctx: Any, card: Any) -> str:
    return ctx.state.where[card_of(ctx, "zone_of", card)]


def _player_marks(ctx: Any, player: Any) -> tuple[str, ...]:
    return ctx.state.player_marks[player_of(ctx, "player_marks", player)]


def _if_else(ctx: Any, cond: Any, a: Any, b: Any) -> Any:
    return a if cond else b


def _clockwise_from(ctx: Any, player: Any) -> tuple[int, ...]:
    if type(player) is not int:
        raise Unfit(f"clockwise_from() needs a player, got {describe_value(player)}")
    n = ctx.rules.players
    return tuple((player + k) % n for k in range(n))


def _split(ctx: Any, text: Any, sep: str = ",") -> tuple[str, ...]:
    if type(text) is not str:
        raise Unfit(f"split() needs a text, got {describe_value(text)}")
    if type(sep) is not str or not sep:
        raise Unfit(f"split() needs a text of at least one character as separator, got {describe_value(sep)}")
    return tuple(part.strip() for part in text.split(sep) if part.strip())


def _item(ctx: Any, collection: Any, index: Any) -> Any:
    items = items_of(ctx, collection)
    if type(index) is not int:
        raise Unfit(f"item() needs a whole number as index, got {describe_value(index)}")
    return items[index] if -len(items) <= index < len(items) else None


def _option(ctx: Any, name: str) -> Any:
    try:
        return ctx.rules.options[name]
    except KeyError:
        raise Unfit(f"there is no option {name!r}") from None


FUNCTIONS: dict[str, Sig] = {
    "shared_props": Sig(
        3,
        99,
        'shared_props(card_a, card_b, "prop", ...)',
        "How many of the named properties two cards have in common.",
        _shared_props,
    ),
    "prop": Sig(2, 2, 'prop(card, "name")', "A card property named by a text value.", _prop),
    "first": Sig(1, 1, "first(collection)", "The first item (the top card of a zone), or none.", _first),
    "last": Sig(1, 1, "last(collection)", "The last item (the bottom card of a zone), or none.", _last),
    "chain": Sig(
        4,
        99,
        'chain(cards, start, n, "prop", ...)',
        "An order of all the cards where each shares exactly n of the properties with the one before "
        "(the first with start); empty if there is none.",
        _chain,
    ),
    "in_zones": Sig(
        1, 99, 'in_zones("zone", ...)', "Every card in the zones of these names (each player's, or the shared one).",
        _in_zones,
    ),
    "player_marks": Sig(1, 1, "player_marks(player)", "The marks on a player ('mark player p \"x\"').",
                        _player_marks),
    "if_else": Sig(3, 3, "if_else(condition, a, b)", "a when the condition holds, else b (both are worked out).",
                   _if_else),
    "clockwise_from": Sig(1, 1, "clockwise_from(player)", "Every player, clockwise, starting with this one.",
                          _clockwise_from),
    "split": Sig(1, 2, 'split(text, ",")', "The parts of a text between separators, trimmed.", _split),
    "item": Sig(2, 2, "item(collection, i)", "The item at position i, counting from 0 (none past the end).", _item),
    "zone_of": Sig(1, 1, "zone_of(card)", "The zone a card is in now.", _zone_of),
    "cards": Sig(
        1, 1, "cards(zone)", "The cards in a zone now, kept as they are even if the zone changes later.", _cards
    ),
    "player_name": Sig(1, 1, "player_name(player)", "The name shown for a player.", _player_name),
    "option": Sig(1, 1, 'option("name")', "The value of a game option.", _option),
    "count": Sig(1, 1, "count(cards | zone | collection)", "How many items.", _count),
    "top": Sig(1, 2, "top(zone, n=1)", "The top n cards of a zone (fewer if it holds fewer).", _top),
    "bottom": Sig(1, 2, "bottom(zone, n=1)", "The bottom n cards of a zone.", _bottom),
    "random": Sig(
        1, 2, "random(collection, n=1)", "n distinct items picked at random by the game's generator.", _random
    ),
    "sets": Sig(
        1,
        2,
        'sets(cards, "type")',
        "Every set of 1, 2, ... cards that share one value of a property (default: type).",
        _sets,
    ),
    "with_one": Sig(
        2,
        2,
        "with_one(sets, extra_cards)",
        "Each set as it is, and each set plus exactly one extra card of a type not already in it.",
        _with_one,
    ),
    "ladder_score": Sig(
        1,
        1,
        "ladder_score(cards)",
        "Points of the cards by their types' scoring ladders (the last step holds for larger counts).",
        _ladder_score,
    ),
    "usable": Sig(
        2,
        3,
        'usable(card, "ability", player=you)',
        "Whether the card has that ability and its 'when' condition holds (for that player as 'you').",
        _usable,
    ),
    "label": Sig(1, 1, "label(value)", "The text a choice shows for a card, player or set.", _label),
    "types": Sig(1, 1, "types(cards)", "The distinct card types among the cards.", _types),
    "owner": Sig(1, 1, "owner(zone)", "The player a zone belongs to (none for a shared zone).", _owner),
    "min": Sig(1, 99, "min(a, b, ...)", "The smallest of the numbers.", _min),
    "max": Sig(1, 99, "max(a, b, ...)", "The largest of the numbers.", _max),
    "abs": Sig(1, 1, "abs(n)", "The absolute value.", _abs),
    "sum": Sig(
        2,
        2,
        "sum(collection, value of it)",
        "The total of the value over the items.",
        _per_item(lambda pairs: sum(v for _, v in pairs), "sum", "numbers"),
        per_item=True,
    ),
    "min_of": Sig(
        2,
        2,
        "min_of(collection, value of it)",
        "The smallest value over the items (none if empty).",
        _per_item(lambda pairs: min((v for _, v in pairs), default=None), "min_of", "order"),
        per_item=True,
    ),
    "max_of": Sig(
        2,
        2,
        "max_of(collection, value of it)",
        "The largest value over the items (none if empty).",
        _per_item(lambda pairs: max((v for _, v in pairs), default=None), "max_of", "order"),
        per_item=True,
    ),
    "lowest": Sig(
        2,
        2,
        "lowest(collection, value of it)",
        "The items whose value is the lowest (all of them on a tie).",
        _per_item(_lowest, "lowest", "order"),
        per_item=True,
    ),
    "highest": Sig(
        2,
        2,
        "highest(collection, value of it)",
        "The items whose value is the highest (all of them on a tie).",
        _per_item(_highest, "highest", "order"),
        per_item=True,
    ),
    "sorted": Sig(
        2,
        2,
        "sorted(collection, value of it)",
        "The items in order of the value, lowest first (ties keep their order; none comes last).",
        _per_item(lambda pairs: tuple(ordered(pairs))),
        per_item=True,
    ),
    "any": Sig(
        2,
        2,
        "any(collection, condition on it)",
        "Whether the condition holds for at least one item.",
        _per_item(lambda pairs: any(v for _, v in pairs)),
        per_item=True,
    ),
    "every": Sig(
        2,
        2,
        "every(collection, condition on it)",
        "Whether the condition holds for every item.",
        _per_item(lambda pairs: all(v for _, v in pairs)),
        per_item=True,
    ),
}
