"""The statement interpreter: one generic machine for every game.

Execution state is data in the ``State``: a stack of frames
``(node, pc, data, env)`` where ``node`` is the running statement, ``pc`` how
far it got, ``data`` a tuple it keeps (the items of a ``for each``, the options
of a choice) and ``env`` the local variables of the running effect (shared by
the frames of one call).  A choice stores a ``Decision`` in the state and the
machine stops; ``resume`` records the answer and runs on.  There is no Python
call stack to save, so a state can be cloned, saved and loaded at any point.

Handlers are looked up by node class in ``HANDLERS``; the machine never sees
a lark tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import attrs

from ..lang import nodes as n
from ..lang.nodes import children
from ..lang.functions import Unfit, cards_of, describe_value, in_words, items_of, ordered
from ..errors import RuleError

if TYPE_CHECKING:
    from .state import State

Frame = tuple[Any, int, Any, dict]


@attrs.frozen(slots=True)
class Option:
    """One choice: ``action`` is what ``apply`` takes, ``label`` what a person reads."""

    action: str
    label: str


@attrs.frozen(slots=True)
class Decision:
    """A pending choice: who chooses, what they are asked, the labelled options."""

    player: int
    prompt: str
    options: tuple[Option, ...]
    kind: str

    @property
    def actions(self) -> list[str]:
        return [o.action for o in self.options]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "prompt": self.prompt,
            "kind": self.kind,
            "options": [o.label for o in self.options],
        }


class Ctx:
    """What an expression sees: the state, the game's rules and the local variables."""

    __slots__ = ("state", "rules", "env", "memo")

    def __init__(self, state: "State", env: dict):
        self.state = state
        self.rules = state.rules
        self.env = env
        self.memo: dict | None = None  # during a menu pass: results of reads without arguments


def _ctx(state: "State", env: dict) -> Ctx:
    ctx = state.ctx
    ctx.env = env
    return ctx


def ev(state: "State", node: Any, env: dict) -> Any:
    """Evaluate an expression node in the given locals."""
    ctx = state.ctx
    ctx.env = env
    fn = state.rules.compiler.cache.get(id(node))
    if fn is None:  # a part of an expression a statement reads on its own (a counter's owner)
        fn = state.rules.compiler(node)
    return fn(ctx)


# --------------------------------------------------------------------------- the machine


def run(state: "State") -> None:
    """Run until a decision is pending or the game is over.

    At most ``game.step_limit`` steps (frames handled, and the turns of loops run by generated
    code) per run, that is per ``apply`` or
    ``new_game``, and at most ``game.depth_limit`` frames on the stack: past either, a
    ``RuleError`` at the statement that ran away (a loop that does not end, a procedure that
    calls itself)."""
    state.steps = 0  # generated loops add their iterations (see compiler.CodeGen)
    state.nested = 0
    drive(state, 0)
    if not state.stack and not state.terminal:
        state.finish()


def drive(state: "State", height: int) -> None:
    """Handle the frames above the first ``height`` of the stack until they are all done or a
    question is pending: ``run``'s loop, and what a block function calls for a statement that
    can pause (so the frames it pushes run in the same Python call)."""
    stack = state.stack
    handlers = HANDLERS
    game = state.game
    limit = game.step_limit
    depth = game.depth_limit
    compiler = state.rules.compiler
    blocks = compiler.blocks
    while len(stack) > height and state.asking is None:
        frame = stack[-1]
        state.steps += 1
        if state.steps > limit or len(stack) > depth:
            ran_away(state, frame, state.steps > limit)
        try:
            node = frame[0]
            if type(node) is n.Block:  # h_block, without the call
                (blocks.get(id(node)) or compiler.block_fn(node))(state, frame[3], frame[1])
            else:
                handlers[type(node)](state, frame)
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as exc:
            # effect text the checker could not rule out at load time; name where it happened
            raise RuleError(f"cannot carry this out: {_in_words(state, exc)}",
                            _span_of(state, exc, frame[0])) from exc


def ran_away(state: "State", frame: Frame, steps: bool) -> None:
    node = frame[0]
    if steps:
        raise RuleError(f"the effects ran more than {state.game.step_limit:,} steps without a decision "
                        "(Game(step_limit=...) sets the limit); does a loop ever end?", getattr(node, "span", None))
    # the innermost call or ability on the stack is the one that went too deep
    span = next((f[0].span for f in reversed(state.stack) if isinstance(f[0], (n.CallProc, n.UseAbility))),
                getattr(node, "span", None))
    raise RuleError(f"calls nested more than {state.game.depth_limit:,} deep (Game(depth_limit=...) sets the "
                    "limit); does a procedure call itself without end?", span)


def _in_words(state: "State", exc: BaseException) -> str:
    """``in_words``, knowing the table: generated code reads a zone by its key, so a text that is no
    zone's key fails there as a missing key."""
    if type(exc) is KeyError and exc.args and type(exc.args[0]) is str and exc.args[0] not in state.zones:
        return f"the text {exc.args[0]!r} is not a zone, and only a zone holds cards"
    return in_words(exc)


def _span_of(state: "State", exc: BaseException, node: Any) -> Any:
    """Where an error happened: the effect text of the generated line that raised it, else the statement's."""
    span = state.rules.generated.span_of_traceback(exc.__traceback__)
    return span if span is not None else getattr(node, "span", None)


def resume(state: "State", index: int) -> None:
    """Answer the pending decision with option ``index`` and run on."""
    frame = state.stack[-1]
    state.asking = None
    state.steps = state.nested = 0
    RESUMERS[type(frame[0])](state, frame, index)
    run(state)


def _you(env: dict) -> Any:
    return env.get("$you")


def actor(env: dict) -> Any:
    """Who carries out what the running code does, as the event log names it: the player who chose
    the option whose body is running (``$by``, set by ``_take_option``), else the effect's ``you``."""
    return env["$by"] if "$by" in env else env.get("$you")


def _leave_option(frame: Frame) -> None:
    """A menu frame waiting under an option's body (pc 2) is left: the actor before the option
    comes back (its data: (1, the old ``$by``), or (0, None) when there was none)."""
    env = frame[3]
    had, old = frame[2]
    if had:
        env["$by"] = old
    else:
        env.pop("$by", None)


def _unwind(frame: Frame) -> None:
    """A frame is dropped without running to its end (``break``, ``pass``): undo what it holds."""
    if type(frame[0]) is n.Menu and frame[1] == 2:
        _leave_option(frame)


# ---- asking a pending question again (State.arrange)


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
    for let in reversed(redo):
        env[let.name] = ev(state, let.value, env)


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


# ---- simple statements: never pause, never push


def s_let(state: "State", node: n.Let, env: dict) -> None:
    env[node.name] = ev(state, node.value, env)


def s_setvar(state: "State", node: n.SetVar, env: dict) -> None:
    state.vars[node.name] = ev(state, node.value, env)


def s_counter(state: "State", node: n.CounterOp, env: dict) -> None:
    target = node.target
    value = ev(state, node.value, env)
    if type(value) is not int:
        raise RuleError(f"'{node.op}' needs a number, got {describe_value(value)}", node.span)
    idx = 0
    if target.owner is not None:
        idx = ev(state, target.owner, env)
        if type(idx) is not int or not 0 <= idx < state.rules.players:
            raise RuleError(f"'{target.counter} of ...' needs a player, got {describe_value(idx)}", node.span)
    state.change_counter(target.counter, idx, node.op, value)


def s_move(state: "State", node: n.Move, env: dict) -> None:
    cards = ev(state, node.cards, env)
    dest = ev(state, node.dest, env)
    if type(dest) is not str or dest not in state.zones:
        raise RuleError(f"'move ... to' needs a zone, got {describe_value(dest)}", node.span)
    try:
        ids = cards_of(_ctx(state, env), cards)
    except TypeError as exc:
        raise RuleError(f"'move' {exc}", node.span) from None
    if ids:
        state.move_by_rule(node, ids, dest, env)


def s_shuffle(state: "State", node: n.Shuffle, env: dict) -> None:
    state.shuffle(_zone(state, node, node.zone, env, "shuffle"))


def s_sort(state: "State", node: n.Sort, env: dict) -> None:
    zone = _zone(state, node, node.zone, env, "sort")
    cards = state._zone_w(zone)
    key = state.rules.compiler.cache[id(node.key)]
    ctx = _ctx(state, env)
    had, old = "$it" in env, env.get("$it")
    pairs = []
    for card in cards:
        env["$it"] = card
        pairs.append((card, key(ctx)))
    if had:
        env["$it"] = old
    else:
        env.pop("$it", None)
    try:
        cards[:] = ordered(pairs)
    except Unfit as exc:
        raise RuleError(f"'sort' {exc}", node.span) from None
    state.emit("sort", f"{state.zone_label(zone)} is sorted", zone=zone)


def s_fail(state: "State", node: n.Fail, env: dict) -> None:
    raise RuleError(str(ev(state, node.message, env)), node.span)


def s_flip(state: "State", node: n.Flip, env: dict) -> None:
    try:
        cards = cards_of(_ctx(state, env), ev(state, node.cards, env))
    except TypeError as exc:
        raise RuleError(f"'turn ... face' {exc}", node.span) from None
    state.flip(cards, node.face == "up")


def s_rotate(state: "State", node: n.Rotate, env: dict) -> None:
    state.rotate(node.zone, node.step, actor(env))


def s_mark(state: "State", node: n.Mark, env: dict) -> None:
    target = ev(state, node.target, env)
    mark = ev(state, node.mark, env)
    if type(mark) is not str:
        raise RuleError(f"a mark is a text, got {describe_value(mark)}", node.span)
    if node.target_kind == "player":
        if type(target) is not int or not 0 <= target < state.rules.players:
            raise RuleError(f"'mark player' needs a player, got {describe_value(target)}", node.span)
        state.mark_player(target, mark, node.remove)
        return
    try:
        cards = cards_of(_ctx(state, env), target)
    except TypeError as exc:
        raise RuleError(f"'mark card' {exc}", node.span) from None
    for card in cards:
        state.mark_card(card, mark, node.remove)


def s_reveal(state: "State", node: n.Reveal, env: dict) -> None:
    zone = _zone(state, node, node.zone, env, "reveal")
    state.reveal(zone)


def s_hide(state: "State", node: n.Hide, env: dict) -> None:
    state.hide(_zone(state, node, node.zone, env, "hide"))


def s_look(state: "State", node: n.Look, env: dict) -> None:
    who = ev(state, node.who, env) if node.who is not None else _you(env)
    value = ev(state, node.cards, env)
    ids = cards_of(_ctx(state, env), value)
    state.look(who, ids, value if type(value) is str else None)


def s_extra_turn(state: "State", node: n.ExtraTurn, env: dict) -> None:
    who = ev(state, node.player, env) if node.player is not None else _you(env)
    if type(who) is not int:
        raise RuleError(f"'take another turn' needs a player, got {describe_value(who)}", node.span)
    state.extra_turns[who] += 1
    state.emit("extra-turn", f"{state.player_label(who)} will take another turn", actor=who)


def s_say(state: "State", node: n.Say, env: dict) -> None:
    text = ev(state, node.text, env)
    if type(text) is not str:
        text = state.rules.text(text, node.kind)
    to = None
    if node.to is not None:
        target = ev(state, node.to, env)
        to = tuple(items_of(_ctx(state, env), target))
    state.emit("say", str(text), to=to, actor=actor(env))


def _zone(state: "State", node: Any, expr: Any, env: dict, what: str) -> str:
    zone = ev(state, expr, env)
    if type(zone) is not str or zone not in state.zones:
        raise RuleError(f"'{what}' needs a zone, got {describe_value(zone)}", node.span)
    return zone


SIMPLE: dict[type, Callable[["State", Any, dict], None]] = {
    n.Let: s_let,
    n.SetVar: s_setvar,
    n.CounterOp: s_counter,
    n.Move: s_move,
    n.Shuffle: s_shuffle,
    n.Sort: s_sort,
    n.Rotate: s_rotate,
    n.Flip: s_flip,
    n.Fail: s_fail,
    n.Mark: s_mark,
    n.Reveal: s_reveal,
    n.Hide: s_hide,
    n.Look: s_look,
    n.ExtraTurn: s_extra_turn,
    n.Say: s_say,
}


# ---- frames


def h_simple(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    SIMPLE[type(node)](state, node, env)
    state.stack.pop()


def h_block(state: "State", frame: Frame) -> None:
    """A block's frame: its generated block function runs it from the frame's pc (see
    ``CodeGen.block``: statements that never pause inline, the others entered from there)."""
    node, pc, _, env = frame
    compiler = state.rules.compiler
    fn = compiler.blocks.get(id(node))
    if fn is None:
        fn = compiler.block_fn(node)
    fn(state, env, pc)


def h_if(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    for cond, body in node.branches:
        if ev(state, cond, env):
            state.stack[-1] = (body, 0, None, env)
            return
    if node.orelse is not None:
        state.stack[-1] = (node.orelse, 0, None, env)
    else:
        state.stack.pop()


def h_for(state: "State", frame: Frame) -> None:
    node, pc, items, env = frame
    if items is None:
        items = tuple(items_of(_ctx(state, env), ev(state, node.items, env)))
    if pc < len(items):
        env[node.var] = items[pc]
        state.stack[-1] = (node, pc + 1, items, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.stack.pop()


def h_simultaneously(state: "State", frame: Frame) -> None:
    node, pc, data, env = frame
    if data is None:
        items = tuple(items_of(_ctx(state, env), ev(state, node.items, env)))
        data = (items, len(state.log))
    items, log_start = data
    if pc < len(items):
        player = items[pc]
        state.sealing = player if type(player) is int else None
        env[node.var] = player
        state.stack[-1] = (node, pc + 1, data, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.sealing = None
        state.unseal(log_start)
        state.stack.pop()


def h_any_order(state: "State", frame: Frame) -> None:
    """Each player's part in turn, the first of the queue first; a part that passed goes to the
    back of the queue, one that ended is done.  Progress: (queue, current, passed, passes in a
    row, log start)."""
    node, pc, data, env = frame
    if data is None:
        items = tuple(items_of(_ctx(state, env), ev(state, node.items, env)))
        data = (items, None, False, 0, len(state.log))
    queue, current, passed, row, log_start = data
    if current is not None:  # a part has just ended
        queue, row = (queue[1:] + queue[:1], row + 1) if passed else (queue[1:], 0)
    if not queue:
        if node.sealed:
            state.sealing = None
            state.unseal(log_start)
        state.stack.pop()
        return
    player = queue[0]
    if node.sealed:
        state.sealing = player if type(player) is int else None
    env[node.var] = player
    state.stack[-1] = (node, pc + 1, (queue, player, False, row, log_start), env)
    state.stack.append((node.body, 0, None, env))


def h_pass(state: "State", frame: Frame) -> None:
    stack = state.stack
    for i in range(len(stack) - 1, -1, -1):
        owner, pc, data, env = stack[i]
        if type(owner) is n.InAnyOrder and data is not None:
            if not n.may_pass(data):
                raise RuleError("'pass' when no other player is left to act first; guard it with 'can_pass'",
                                frame[0].span)
            queue, current, _, row, log_start = data
            stack[i] = (owner, pc, (queue, current, True, row, log_start), env)
            for dropped in reversed(stack[i + 1:]):
                _unwind(dropped)
            del stack[i + 1:]
            return
    raise RuleError("'pass' outside the part of a player in an 'in any order'", frame[0].span)


def h_while(state: "State", frame: Frame) -> None:
    node, pc, _, env = frame
    if ev(state, node.cond, env):
        if pc >= state.rules.loop_limit:
            raise RuleError(f"'while' ran {pc} times; is its condition ever false?", node.span)
        state.stack[-1] = (node, pc + 1, None, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.stack.pop()


def h_repeat(state: "State", frame: Frame) -> None:
    node, pc, times, env = frame
    if times is None:
        times = ev(state, node.count, env)
        if type(times) is not int:
            raise RuleError(f"'repeat' needs a number, got {describe_value(times)}", node.span)
    if pc < times:
        state.stack[-1] = (node, pc + 1, times, env)
        state.stack.append((node.body, 0, None, env))
    else:
        state.stack.pop()


_LOOPS = (n.ForEach, n.While, n.Repeat)


def h_break(state: "State", frame: Frame) -> None:
    stack = state.stack
    stack.pop()
    while stack:
        top = stack.pop()
        if isinstance(top[0], _LOOPS):
            return
        _unwind(top)


def h_call(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    proc = state.rules.cardset.procedures[node.name]
    new_env = {"$you": env.get("$you"), "$this": env.get("$this")}
    if "$by" in env:  # a procedure called from an option's body acts for that option's chooser
        new_env["$by"] = env["$by"]
    for param, arg in zip(proc.params, node.args):
        new_env[param] = ev(state, arg, env)
    state.stack[-1] = (proc.body, 0, None, new_env)


def h_use(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    card = ev(state, node.card, env)
    if type(card) is not int:
        raise RuleError(f"'use' needs a card, got {describe_value(card)}", node.span)
    ability = state.rules.defs[state.rules.instance_type[card]].abilities.get(node.ability)
    if ability is None:
        raise RuleError(f"{state.rules.card_name(card)} has no ability '{node.ability}'", node.span)
    user = ev(state, node.user, env) if node.user is not None else env.get("$you")
    if node.user is not None and (type(user) is not int or not 0 <= user < state.rules.players):
        raise RuleError(f"'use ... by' needs a player, got {describe_value(user)}", node.span)
    _announce_use(state, card, user)
    state.stack[-1] = (ability.body, 0, None, {"$you": user, "$this": card})


def h_phase(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    state.phase = node.name
    state.emit("phase", f"Phase: {node.name}", phase=node.name)
    state.stack[-1] = (node.body, 0, None, env)


def h_rounds(state: "State", frame: Frame) -> None:
    node, pc, _, env = frame
    if pc == 1:  # a round just ended
        state.end_round()
        if ev(state, node.until, env):
            state.stack.pop()
            return
    state.round += 1
    label = state.rules.cardset.round_label
    state.emit("round", f"{label[:1].upper()}{label[1:]} {state.round} begins", round=state.round)
    state.stack[-1] = (node, 1, None, env)
    state.stack.append((node.body, 0, None, env))


def _skipped(state: "State", node: n.Turns, env: dict, p: int) -> bool:
    """Whether the turns' 'skip' condition holds for player ``p`` (as 'it')."""
    if node.skip is None:
        return False
    skip = state.rules.compiler.cache.get(id(node.skip)) or state.rules.fn(node.skip)
    ctx = _ctx(state, env)
    old = env.get("$it")
    env["$it"] = p
    try:
        return bool(skip(ctx))
    finally:
        env["$it"] = old


def _next_turn(state: "State", node: n.Turns, env: dict, p: int, include: bool) -> int | None:
    """The next player from ``p`` (``p`` itself when ``include``) in the turns' direction who is not skipped."""
    players = state.rules.players
    for k in range(0 if include else 1, players + (0 if include else 1)):
        q = (p + node.step * k) % players
        if node.skip is None or not _skipped(state, node, env, q):
            return q
    return None


def h_turns(state: "State", frame: Frame) -> None:
    node, pc, current, env = frame
    rules = state.rules
    players = rules.players
    if pc == 0:
        first = ev(state, node.first, env)
        if type(first) is not int:
            raise RuleError(f"'take turns from' needs a player, got {describe_value(first)}", node.span)
        nxt = _next_turn(state, node, env, first, True)
        idle = 0
    else:
        current, asked_before, idle = current
        idle = idle + 1 if len(state.history) == asked_before else 0
        if idle >= rules.loop_limit:
            raise RuleError(f"{idle} turns in a row asked nothing; does 'until' ever hold?", node.span)
        if ev(state, node.until, env):
            state.extra_turns = [0] * players
            state.stack.pop()
            return
        if state.extra_turns[current] > 0 and not _skipped(state, node, env, current):
            state.extra_turns[current] -= 1
            nxt = current
        else:
            state.extra_turns[current] = 0
            nxt = _next_turn(state, node, env, current, False)
    if nxt is None:
        state.extra_turns = [0] * players
        state.stack.pop()
        return
    state.turn_player = nxt
    state.turns += 1
    if state.record_events:
        state.emit("turn", f"{state.player_label(nxt)}'s turn", actor=nxt)
    state.stack[-1] = (node, 1, (nxt, len(state.history), idle), env)
    turn_env = {**env, "$you": nxt, "$this": None}
    turn_env.pop("$by", None)  # the turn player acts in their turn
    _enter(state, (node.body, 0, None, turn_env))


DIRECT_DEPTH = 40  # frames run inside one another's Python calls (block functions, _enter) at most


def _enter(state: "State", frame: Frame) -> None:
    """Push a block's frame and run it at once (rather than going back round ``run``'s loop), as a
    step of the run."""
    stack = state.stack
    stack.append(frame)
    state.steps += 1
    game = state.game
    if state.steps > game.step_limit or len(stack) > game.depth_limit:
        ran_away(state, frame, state.steps > game.step_limit)
    if state.nested < DIRECT_DEPTH:
        state.nested += 1
        h_block(state, frame)
        state.nested -= 1


def h_end_game(state: "State", frame: Frame) -> None:
    state.stack.clear()


# ---- choices


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
    values = items_of(_ctx(state, env), source)
    if node.kind in ("set",) and type(source) is tuple:
        values = tuple(cards_of(_ctx(state, env), v) for v in values)
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


def ask_choice(state: "State", node: n.Choose, pc: int, data: tuple[Any, ...], env: dict) -> None:
    """The choice's frame on top of the stack with its progress ``data``: ask for the next pick, take
    the only one there is, or end the choice (its variable set, the frame popped)."""
    values, picked, need, optional = data
    if len(picked) >= need or (not values):
        env[node.var] = picked if node.mode != "one" else picked[0]
        state.stack.pop()
        return
    rules = state.rules
    kind = node.kind
    plain = list(map(rules.labeller(kind), values))
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
    chooser = _chooser(state, node, env)
    prompt = _prompt(state, node, env) or f"Choose {kind}"
    if node.mode != "one" and need > 1:
        prompt = f"{prompt} ({len(picked) + 1} of {'up to ' if optional else ''}{need})"
    state.stack[-1] = (node, pc, data, env)
    state.ask(chooser, prompt, tuple(labels), tuple(labels.values()), kind)


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
        _leave_option(frame)
        state.stack.pop()
        return
    rules = state.rules
    ctx = _ctx(state, env)
    chooser = _chooser(state, node, env)
    generated = rules.compiler.menus.get(id(node))
    if generated is not None:
        ctx.env = env
        entries = generated(ctx, chooser)
        if not entries:
            raise RuleError("no option of this choice is available", node.span)
        _offer(state, node, env, chooser, entries)
        return
    fn = rules.compiler.cache
    entries: list[tuple[str, int, Any]] = []  # type: ignore[no-redef]
    seen: set[str] = set()
    for idx, item in enumerate(node.items):
        if isinstance(item, n.AnswerOption):
            for label, card in _answers(state, item.event, chooser, {k: env.get(k) for k in item.passes}):
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
    _offer(state, node, env, chooser, tuple(entries))


def _offer(state: "State", node: n.Menu, env: dict, chooser: int, data: tuple[tuple[str, int, Any], ...]) -> None:
    if len(data) == 1 and not node.always:
        _take_option(state, (node, 1, data, env), 0)
        return
    state.stack[-1] = (node, 1, data, env)
    state.ask(chooser, _prompt(state, node, env) or "Choose", next(zip(*data)), tuple(range(len(data))), "option")


def _take_option(state: "State", frame: Frame, index: int) -> None:
    node, _, entries, env = frame
    label, idx, value = entries[index]
    item = node.items[idx]
    if isinstance(item, n.AnswerOption):
        chooser = _chooser(state, node, env)
        ability = state.rules.trigger_ability(item.event, value)
        _announce_use(state, value, chooser)
        state.stack.pop()
        _enter(state, (ability.body, 0, None, {"$you": chooser, "$this": value, **{k: env.get(k) for k in item.passes}}))
        return
    chooser = _chooser(state, node, env)
    if isinstance(item, n.DynamicOption):
        env[item.var] = value
    if chooser == actor(env):
        state.stack.pop()
        _enter(state, (item.body, 0, None, env))
        return
    # the body acts for its chooser: the menu frame waits under it (pc 2) to put the actor back
    state.stack[-1] = (node, 2, (1, env["$by"]) if "$by" in env else (0, None), env)
    env["$by"] = chooser
    _enter(state, (item.body, 0, None, env))


def r_menu(state: "State", frame: Frame, index: int) -> None:
    _take_option(state, frame, state.pending_values[index])


# ---- triggers


def h_signal(state: "State", frame: Frame) -> None:
    node, pc, data, env = frame
    if pc == 0:
        _signal_start(state, frame)
    elif pc == 2:  # an answering ability has run; data: replaced?
        if not data and node.orelse is not None:
            state.stack[-1] = (node.orelse, 0, None, env)
        else:
            state.stack.pop()


def _answering(state: "State", event: str, player: int, passed: dict) -> list[tuple[int, Any]]:
    """(card, ability) for each card answering ``event`` for ``player`` whose 'when' holds: cards in
    the player's own zone of the ability's 'from', or in every slot of a shared zone."""
    rules = state.rules
    cache = rules.compiler.cache
    out = []
    for zone_name, abilities in rules.triggers.get(event, {}).items():
        keys = rules.zone_keys[zone_name]
        zone_keys = (keys[player],) if rules.cardset.zones[zone_name].per_player else keys
        for card in tuple(c for key in zone_keys for c in state.zones[key]):
            ability = abilities.get(rules.instance_type[card])
            if ability is None:
                continue
            if ability.when is not None:
                if not cache[id(ability.when)](Ctx(state, {"$you": player, "$this": card, **passed})):
                    continue
            out.append((card, ability))
    return out


def _answer_label(state: "State", card: int, ability: Any) -> str:
    return ability.label or f"Use {state.rules.card_name(card)}"


def _answers(state: "State", event: str, player: int, passed: dict) -> list[tuple[str, int]]:
    """(label, card) for each of ``player``'s cards whose ability answers ``event`` and may be used now."""
    return [(_answer_label(state, card, ability), card) for card, ability in _answering(state, event, player, passed)]


def menu_answers(state: "State", event: str, player: int, passed: dict) -> list[tuple[str, int]]:
    """What a generated menu offers for ``option answers EVENT``: as ``_answers``."""
    return _answers(state, event, player, passed)


def _announce_use(state: "State", card: int, user: Any) -> None:
    """A card's ability is used: count it for the statistics and log it."""
    state.count_use(card, user)
    if state.record_events:
        state.emit("use", f"{state.player_label(user)} uses {state.rules.card_name(card)}", actor=user,
                   card=state.rules.instance_type[card])


def _signal_start(state: "State", frame: Frame) -> None:
    node, _, _, env = frame
    rules = state.rules
    player = ev(state, node.player, env)
    if type(player) is not int or not 0 <= player < rules.players:
        raise RuleError(f"'signal' needs a player, got {describe_value(player)}", node.span)
    passed = {name: env.get(name) for name in node.passes}
    mandatory: list[tuple[int, Any]] = []
    optional: list[tuple[str, int, Any]] = []
    seen: set[str] = set()
    for card, ability in _answering(state, node.event, player, passed):
        if not ability.optional:
            mandatory.append((card, ability))
            continue
        label = _answer_label(state, card, ability)
        if label not in seen:
            seen.add(label)
            optional.append((label, card, ability))
    stack = state.stack
    replaced = any(a.instead for _, a in mandatory)
    # the frame waits in state 2 for the bodies pushed above it
    stack[-1] = (node, 2, replaced, env)
    for card, ability in reversed(mandatory):
        state.count_use(card, player)
        stack.append((ability.body, 0, None, {"$you": player, "$this": card, **passed}))
    if optional and not replaced:
        entries = tuple((label, card, ability.instead) for label, card, ability in optional)
        stack.append((node, 1, (entries, player, tuple(passed.items())), env))
        labels = [e[0] for e in entries] + [rules.decline_label]
        state.ask(player, f"Respond to '{node.event}'?", tuple(labels), tuple(range(len(labels))), "trigger")


def r_signal(state: "State", frame: Frame, index: int) -> None:
    node, _, (entries, player, passed), env = frame
    stack = state.stack
    stack.pop()  # the offer is answered
    if index >= len(entries):
        return
    label, card, instead = entries[index]
    if instead:  # the waiting signal frame (under any mandatory answers) will skip its else block
        for i in range(len(stack) - 1, -1, -1):
            waiting = stack[i]
            if waiting[0] is node and waiting[1] == 2:
                stack[i] = (node, 2, True, waiting[3])
                break
    ability = state.rules.trigger_ability(node.event, card)
    _announce_use(state, card, player)
    stack.append((ability.body, 0, None, {"$you": player, "$this": card, **dict(passed)}))


HANDLERS: dict[type, Callable[["State", Frame], None]] = {
    n.Signal: h_signal,
    n.Block: h_block,
    n.If: h_if,
    n.ForEach: h_for,
    n.Simultaneously: h_simultaneously,
    n.InAnyOrder: h_any_order,
    n.Pass: h_pass,
    n.While: h_while,
    n.Repeat: h_repeat,
    n.Break: h_break,
    n.CallProc: h_call,
    n.UseAbility: h_use,
    n.Phase: h_phase,
    n.Rounds: h_rounds,
    n.Turns: h_turns,
    n.EndGame: h_end_game,
    n.Choose: h_choose,
    n.Menu: h_menu,
}
for _cls in SIMPLE:
    HANDLERS[_cls] = h_simple

RESUMERS: dict[type, Callable[["State", Frame, int], None]] = {
    n.Signal: r_signal,
    n.Choose: r_choose,
    n.Menu: r_menu,
}

# what generated block functions call (see compiler.CodeGen.block)
MACHINE: dict[str, Any] = {
    "ran_away": ran_away,
    "drive": drive,
    "choice_counts": choice_counts,
    "ask_choice": ask_choice,
    "offer": _offer,
    "direct_depth": DIRECT_DEPTH,
}
