"""Laying out a scenario: ``State.arrange`` puts chosen cards in chosen zones, and sets counters,
variables and marks, for rulebook examples, puzzles and tests.

The layout is made on a copy (a refusal changes nothing), the players' knowledge of where cards
are starts afresh, and a question that was pending is asked again for the new table, with the
locals it reads worked out anew (``refresh_locals``).  An arranged state is no longer reproduced
by its seed, so its save loads only when trusted.  ``State`` takes ``arrange`` as its method.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .knowing import knowledge
from .interpreter.driver import run
from .interpreter.frames import ev
from ..lang import nodes as n
from ..lang.nodes import children
from ..errors import IllegalActionError

if TYPE_CHECKING:
    from .state import State


def arrange(
    state: "State",
    zones: Mapping[str, Sequence[str]] | None = None,
    *,
    rest: str | None = None,
    counters: Mapping[str, Any] | None = None,
    vars: Mapping[str, Any] | None = None,
    marks: Mapping[str, Sequence[str]] | None = None,
    player_marks: Mapping[int, Sequence[str]] | None = None,
) -> None:
    """Lay out a scenario: set zones to exactly these card types (top first), and counters or vars.

    For rulebook examples, puzzles and tests.  Cards are taken from zones not
    named; cards pushed out of named zones go to ``rest`` (not a named zone).  Every card
    laid out or pushed out loses its marks; ``marks`` then sets marks.  Inside sealed parts, the
    layout is seen by every seat (the parts' changes before it are no longer held back).  The pending
    decision is asked again for the new layout.  An arranged state saves,
    loads and clones as usual, but is no longer reproduced by its seed.
    """
    work = state.clone()
    _lay_out(work, zones, rest, counters, vars, marks, player_marks)
    state._restore(work)


def _lay_out(
    state: "State",
    zones: Mapping[str, Sequence[str]] | None,
    rest: str | None,
    counters: Mapping[str, Any] | None,
    vars: Mapping[str, Any] | None,
    marks: Mapping[str, Sequence[str]] | None = None,
    player_marks: Mapping[int, Sequence[str]] | None = None,
) -> None:
    """The layout itself, made by ``arrange`` on a copy (so that a refusal, an ``IllegalActionError``,
    leaves the state as it was)."""
    rules = state.rules
    zones = dict(zones or {})
    for key in zones:
        if key not in state.zones:
            raise IllegalActionError(f"no zone {key!r} (zones: {', '.join(state.zones)})")
    if rest is not None and rest not in state.zones:
        raise IllegalActionError(f"no zone {rest!r} for the rest of the cards")
    if rest is not None and rest in zones:
        raise IllegalActionError(
            f"rest={rest!r} is also one of the zones laid out, which are set to exactly the cards named: "
            "the cards pushed out need another zone (rest='discard', say), or leave it out of the zones")
    pool: list[int] = []
    for key in zones:
        pool.extend(state.zones[key])
        state.zones[key] = []
        state.owned_zones.add(key)
    others = [k for k in state.zones if k not in zones]
    for key, types in zones.items():
        for t in types:
            if t not in rules.defs:
                raise IllegalActionError(f"unknown card type {t!r}")
            card = next((c for c in pool if rules.instance_type[c] == t), None)
            if card is not None:
                pool.remove(card)
            else:
                card = next((c for k in others for c in state.zones[k] if rules.instance_type[c] == t), None)
                if card is None:
                    raise IllegalActionError(f"no {t!r} card left to place in {key!r}")
                state._zone_w(state.where[card]).remove(card)
            state.zones[key].append(card)
            state.where[card] = key
            state.marks.pop(card, None)  # laid out afresh: its marks are set by marks= only
    if pool:
        if rest is None:
            raise IllegalActionError(f"{len(pool)} cards were pushed out of the named zones; say where with rest=")
        state._zone_w(rest).extend(pool)
        for c in pool:
            state.where[c] = rest
            state.marks.pop(c, None)
    for name, value in (counters or {}).items():
        if name not in state.counters:
            raise IllegalActionError(f"no counter {name!r}")
        state.counters[name] = list(value) if isinstance(value, (list, tuple)) else [value]
        state.owned_counters.add(name)
    for name, value in (vars or {}).items():
        state.vars[name] = value
    # marks: "zone key/index" (e.g. "hand/0/2", the third card of hand/0) -> its marks
    for where, words in (marks or {}).items():
        zone, _, index = where.rpartition("/")
        if zone not in state.zones or not index.isdigit() or int(index) >= len(state.zones[zone]):
            raise IllegalActionError(f"no card at {where!r} to mark (use 'zone/index')")
        card = state.zones[zone][int(index)]
        _check_words(words, rules.cardset.marks, "marks")
        if words:
            state.marks[card] = tuple(words)
        else:
            state.marks.pop(card, None)
    for seat, words in (player_marks or {}).items():
        if type(seat) is not int or not 0 <= seat < rules.players:
            raise IllegalActionError(f"no player {seat!r} to mark")
        _check_words(words, rules.cardset.player_marks, "player_marks")
        state.player_marks[seat] = tuple(words)
    state.arranged = True
    state.picking = ()
    knowledge.reset(state)  # a new layout: nobody has followed a card into it
    state.sealed_ops = ()  # the sealed parts' changes so far are part of the new layout, seen by all
    state.emit("arrange", "The table is arranged for a scenario")
    if state.asking is not None and state.stack:
        node, pc, data, env = state.stack[-1]
        if type(node) is n.Menu or (type(node) is n.Choose and not (data and data[1])):
            # a menu, or a choice with nothing picked yet: ask again for the new layout,
            # with the locals it reads worked out anew (they may name cards that moved)
            state.asking = None
            refresh_locals(state, node, env)
            state.stack[-1] = (node, 0, None, env)
            run(state)


def _check_words(words: Sequence[str], declared: Mapping[str, str] | None, section: str) -> None:
    """With a declared list of mark words (``marks:``/``player_marks:``), a word it lacks is refused."""
    if declared is None:
        return
    for word in words:
        if word not in declared:
            close = difflib.get_close_matches(str(word), sorted(declared), n=1)
            guess = f"; did you mean {close[0]!r}?" if close else ""
            raise IllegalActionError(f"mark {word!r} is not declared under '{section}:' of the cardset{guess}")


# ---- asking the pending question again


def refresh_locals(state: "State", node: Any, env: dict) -> None:
    """Work out again, on the table as it is now, the ``let``s of the running effect that the
    pending choice ``node`` reads (directly or through other ``let``s): those written before it in
    its block and the blocks around it.  Choices already made and loop variables keep their values."""
    cs = state.rules.cardset
    roots = [cs.program] + [p.body for p in cs.procedures.values()]
    roots += [a.body for card in cs.cards.values() for a in card.abilities.values()]
    path = next((found for found in (_path_to(root, node) for root in roots) if found is not None), None)
    if path is None:
        return
    lets = [stmt for block, index in path for stmt in block.body[:index] if type(stmt) is n.Let]
    needed = _reads(node)
    redo = []
    for let in reversed(lets):
        if let.name in needed:
            needed.discard(let.name)
            needed |= _reads(let.value)
            redo.append(let)
    state.steps = 0  # the values worked out again get one run's step budget
    ctx = state.ctx
    ctx.state = state  # bound as a run binds it, and let go after (see frames.Ctx)
    try:
        for let in reversed(redo):
            env[let.name] = ev(state, let.value, env)
    finally:
        del ctx.state


def _path_to(node: Any, target: Any) -> list[tuple[n.Block, int]] | None:
    """The blocks from ``node`` down to the statement ``target``, each with the index of the
    statement of it that holds ``target``; None if ``target`` is not inside ``node``."""
    if node is target:
        return []
    for child in children(node):
        if isinstance(child, n.Expr):
            continue
        inner = _path_to(child, target)
        if inner is not None:
            if type(node) is n.Block:
                index = next(i for i, stmt in enumerate(node.body) if stmt is child)
                return [(node, index)] + inner
            return inner
    return None


def _reads(node: Any) -> set[str]:
    """The local variables an expression, or a choice's own expressions (not its option bodies), reads."""
    names: set[str] = set()
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, n.Var):
            names.add(item.name)
        elif isinstance(item, n.AnswerOption):
            names.update(item.passes)
        todo.extend(c for c in children(item) if not isinstance(c, n.Stmt))
    return names
