"""Choices and menus: the statements that ask a player.

``choose`` picks values (one, exactly N, up to N, any number), one question per pick; a menu
offers labelled options (fixed, one per item of a collection, or a card's answer to an event)
and runs the chosen option's body for its chooser.  ``h_*`` asks (or takes the only answer
there is), ``r_*`` carries out the answer given to ``resume``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...lang import nodes as n
from ...lang.functions import cards_of, describe_value, items_of
from ...errors import RuleError
from .frames import Frame, actor, ctx_for, enter, ev, leave_option, step
from .signals import announce_use, menu_answers

if TYPE_CHECKING:
    from ..state import State


def _chooser(state: "State", node: Any, env: dict) -> int:
    who = ev(state, node.chooser, env) if node.chooser is not None else env.get("$you")
    if type(who) is not int or not 0 <= who < state.rules.players:
        raise RuleError(f"a choice needs a player to make it, got {describe_value(who)}", node.span)
    return who


def _prompt(state: "State", node: Any, env: dict) -> str | None:
    """The prompt of a choice: its literal text, or the text it joins with '+' worked out now."""
    prompt = node.prompt
    if prompt is None or type(prompt) is str:
        return prompt
    value = ev(state, prompt, env)
    return value if type(value) is str else state.rules.text(value, None)


def h_choose(state: "State", frame: Frame) -> None:
    node, pc, data, env = frame
    if data is None:
        data = choice_data(state, node, env)
    ask_choice(state, node, pc, data, env)


def choice_data(state: "State", node: n.Choose, env: dict) -> tuple[Any, ...]:
    """What a choice picks from, before the first pick: (values, picked, how many, may stop early)."""
    source = ev(state, node.source, env)
    values = items_of(ctx_for(state, env), source)
    if node.kind in ("set",) and type(source) is tuple:
        values = tuple(cards_of(ctx_for(state, env), v) for v in values)
    count = None
    if node.count is not None:
        count = ev(state, node.count, env)
    return choice_counts(node, values, count)


def choice_counts(node: n.Choose, values: tuple[Any, ...], count: Any) -> tuple[Any, ...]:
    """``choice_data`` from the values and the number asked for (None: as many as there are)."""
    if count is not None and type(count) is not int:
        raise RuleError(f"'choose' needs a number of items, got {describe_value(count)}", node.span)
    if node.mode == "one":
        if not values:
            raise RuleError(f"nothing to choose from for '{node.var}'", node.span)
        return (values, (), 1, False)
    need = len(values) if count is None else count
    if node.mode == "exactly" and need > len(values):
        raise RuleError(f"cannot choose {need} from {len(values)}", node.span)
    return (values, (), min(need, len(values)), node.mode == "upto")


def ask_choice(state: "State", node: n.Choose, pc: int, data: tuple[Any, ...], env: dict,
               chooser: int | None = None) -> None:
    """The choice's frame on top of the stack with its progress ``data``: ask for the next pick, take
    the only one there is, or end the choice (its variable set, the frame popped).  ``chooser``: who
    chooses, when it is known already (``build_question``)."""
    values, picked, need, optional = data
    if len(picked) >= need or (not values):
        env[node.var] = picked if node.mode != "one" else picked[0]
        state.stack.pop()
        return
    rules = state.rules
    kind = node.kind
    labeller = rules.labeller(kind)
    if state.looking_ahead and (node.always or optional or _two_labels(labeller, values)):
        # it asks (more than one option, or 'always'): a look-ahead builds the labels when they are read
        _leave_unbuilt(state, (node, pc, data, env), _chooser(state, node, env), state.steps)
        return
    plain = list(map(labeller, values))
    if len(set(plain)) == len(plain):
        labels = dict(zip(plain, range(len(plain))))
    else:
        if kind in ("card", "cards"):
            # same-looking cards in different zones are different choices: say where each is
            zones_of: dict[str, set[str]] = {}
            for label, value in zip(plain, values):
                zones_of.setdefault(label, set()).add(state.where[value])
            plain = [
                f"{label} ({state.zone_label(state.where[value])})" if len(zones_of[label]) > 1 else label
                for label, value in zip(plain, values)
            ]
        labels = {}
        for i, label in enumerate(plain):
            if label not in labels:  # the first value of each label
                labels[label] = i
    if optional:
        labels[rules.done_label] = -1
    if len(labels) == 1 and not node.always:
        _pick(state, (node, pc, data, env), node, data, next(iter(labels.values())))
        return
    if chooser is None:
        chooser = _chooser(state, node, env)
    prompt = _prompt(state, node, env) or f"Choose {kind}"
    if node.mode != "one" and need > 1:
        prompt = f"{prompt} ({len(picked) + 1} of {'up to ' if optional else ''}{need})"
    state.stack[-1] = (node, pc, data, env)
    state.ask(chooser, prompt, tuple(labels), tuple(labels.values()), kind)


def _two_labels(labeller: Any, values: tuple[Any, ...]) -> bool:
    """Whether the values show at least two labels (then the choice asks)."""
    first = labeller(values[0])
    return any(labeller(v) != first for v in values[1:])


def _pick(state: "State", frame: Frame, node: n.Choose, data: Any, index: int) -> None:
    values, picked, need, optional = data
    env = frame[3]
    if index < 0:  # done
        values = ()
    else:
        picked = picked + (values[index],)
        if len(picked) < need:  # more to pick: from the values left
            values = values[:index] + values[index + 1 :]
    if len(picked) >= need or not values:  # the choice is made: as h_choose would finish it next
        env[node.var] = picked if node.mode != "one" else picked[0]
        state.stack.pop()
        return
    state.stack[-1] = (node, 1, (values, picked, need, optional), env)


def r_choose(state: "State", frame: Frame, index: int) -> None:
    node = frame[0]
    _pick(state, frame, node, frame[2], state.pending_values[index])


def h_menu(state: "State", frame: Frame) -> None:
    node, pc, _, env = frame
    if pc == 2:  # the chosen option's body has run
        leave_option(frame)
        state.stack.pop()
        return
    rules = state.rules
    ctx = ctx_for(state, env)
    chooser = _chooser(state, node, env)
    generated = rules.compiler.menus.get(id(node))
    if generated is not None:
        ctx.env = env
        entries = generated(ctx, chooser)
        if not entries:
            raise RuleError("no option of this choice is available", node.span)
        offer(state, node, env, chooser, entries)
        return
    fn = rules.compiler.cache
    entries: list[tuple[str, int, Any]] = []  # type: ignore[no-redef]
    seen: set[str] = set()
    for idx, item in enumerate(node.items):
        if isinstance(item, n.AnswerOption):
            for label, card in menu_answers(state, item.event, chooser, {k: env.get(k) for k in item.passes}):
                if label not in seen:
                    seen.add(label)
                    entries.append((label, idx, card))
            continue
        if isinstance(item, n.StaticOption):
            if item.cond is None or fn[id(item.cond)](ctx):
                if item.label not in seen:
                    seen.add(item.label)
                    entries.append((item.label, idx, None))
            continue
        had = item.var in env
        old = env.get(item.var)
        cond = fn[id(item.cond)] if item.cond is not None else None
        label_fn = fn[id(item.label)] if item.label is not None else None
        for value in items_of(ctx, fn[id(item.source)](ctx)):
            env[item.var] = value
            if cond is not None and not cond(ctx):
                continue
            if label_fn is not None:
                label = label_fn(ctx)
            elif item.kind is not None:
                label = rules.label_for(item.kind, value)
            else:
                label = rules.label_value(value)
            label = str(label)
            if label not in seen:
                seen.add(label)
                entries.append((label, idx, value))
        if had:
            env[item.var] = old
        else:
            env.pop(item.var, None)
    if not entries:
        raise RuleError("no option of this choice is available", node.span)
    offer(state, node, env, chooser, tuple(entries))


def offer(state: "State", node: n.Menu, env: dict, chooser: int, data: tuple[tuple[str, int, Any], ...]) -> None:
    """Ask ``chooser`` for one of a menu's available options ``data`` (label, item, value), or take
    the only one there is (unless the menu says ``always``)."""
    if len(data) == 1 and not node.always:
        _take_option(state, (node, 1, data, env), 0)
        return
    state.stack[-1] = (node, 1, data, env)
    state.ask(chooser, _prompt(state, node, env) or "Choose", next(zip(*data)), tuple(range(len(data))), "option")


def wait_unbuilt(state: "State", node: n.Menu, env: dict, chooser: int, steps: int) -> None:
    """Pause a look-ahead at a menu without building its options: enough of them were seen (two, or
    one where the menu is asked ``always``) to know it asks ``chooser``, so that is all the look-ahead
    and a heuristic need now; ``build_question`` builds them when the question is read.  ``steps``: what
    the run had spent before the menu, so that building it later has the budget it had here."""
    _leave_unbuilt(state, (node, 1, None, env), chooser, steps)


def _leave_unbuilt(state: "State", frame: Frame, chooser: int, steps: int) -> None:
    """Pause at the question of ``frame`` (on top of the stack) for ``chooser``, its options not built
    (``build_question`` builds them); only the chooser is read before that."""
    state.stack[-1] = frame
    state._asking = (chooser, "", (), "", ())
    state.unbuilt = steps


def build_question(state: "State") -> None:
    """Build the options of the question a look-ahead left unbuilt (a menu, ``wait_unbuilt``, or a
    choice, ``ask_choice``) as if the run had built them when it paused (the state has not changed
    since: it was only read), and ask them."""
    steps, state.unbuilt = state.unbuilt, None
    node, pc, data, env = state.stack[-1]
    chooser = state._asking[0]  # type: ignore[index]
    state._asking = None
    state.steps = steps or 0
    ahead, state.looking_ahead = state.looking_ahead, False  # built in full, whoever reads it
    ctx = state.ctx
    ctx.state = state  # as a run binds it (see driver.run)
    try:
        if type(node) is n.Choose:
            ask_choice(state, node, pc, data, env, chooser)
        else:
            ctx.env = env
            offer(state, node, env, chooser, state.rules.compiler.menus[id(node)](ctx, chooser))
    finally:
        del ctx.state
        state.looking_ahead = ahead


def _take_option(state: "State", frame: Frame, index: int, answered: bool = False) -> int:
    """Run option ``index`` of a menu's frame (``answered``: the answer to its question, given to
    ``resume``, else its only option taken at once).  When the option's body acts for the chooser and
    ends with no question, the menu's frame under it is done at once, as the run would do next
    (``h_menu``): returns the steps the run then starts from (see ``driver.resume``)."""
    node, _, entries, env = frame
    label, idx, value = entries[index]
    item = node.items[idx]
    if isinstance(item, n.AnswerOption):
        chooser = _chooser(state, node, env)
        ability = state.rules.trigger_ability(item.event, value)
        announce_use(state, value, chooser)
        state.stack.pop()
        enter(state, (ability.body, 0, None, {"$you": chooser, "$this": value, **{k: env.get(k) for k in item.passes}}))
        return 0
    chooser = _chooser(state, node, env)
    if isinstance(item, n.DynamicOption):
        env[item.var] = value
    if chooser == actor(env):
        state.stack.pop()
        enter(state, (item.body, 0, None, env))
        return 0
    # the body acts for its chooser: the menu frame waits under it (pc 2) to put the actor back
    waiting = state.stack[-1] = (node, 2, (1, env["$by"]) if "$by" in env else (0, None), env)
    env["$by"] = chooser
    enter(state, (item.body, 0, None, env))
    stack = state.stack
    if state._asking is not None or not stack or stack[-1] is not waiting:
        return 0
    # the body is done: the frame is taken as the run takes it next, a step of the run (the first of
    # the run that follows an answer: ``driver.resume`` starts it from this one)
    if answered:
        state.steps = 0
    step(state, waiting)
    leave_option(waiting)
    stack.pop()
    return state.steps if answered else 0


def r_menu(state: "State", frame: Frame, index: int) -> int:
    return _take_option(state, frame, state.pending_values[index], True)
