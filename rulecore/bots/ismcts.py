"""The ``ismcts`` bot and its search: information-set Monte Carlo tree search over resampled states
(single-observer IS-MCTS).

Before searching, ``worlds`` worlds are dealt with ``state.resample(me, seed)`` (the seat's
knowledge only: never the true state); each iteration plays on a clone of the next of them, in
turn, and walks one tree shared by all iterations.  A node is the seat's view of the play so far
from the root: the path of actions taken since.  At each node the actions legal in this world are
considered; an action never tried there is tried first, else the one with the best UCB value,
where each action's exploration term counts the iterations in which it was available (not the
node's visits), since which actions are legal differs from world to world.  Below the tree the
world is played out for at most ``depth`` decisions (0: judged at once), each taking the best
of ``width`` of its actions one ply ahead for its chooser (0: one at random).  A finished game
is worth ``returns()``; a cut-off one is worth each seat's lead (``_margins``: its heuristic
plus its margin over the best other seat's).  Every node adds up, for each action, the value
for the seat that chose it, as two sums: finished games' returns and cut-offs' raw leads; a
mean is read with the cut-offs scaled to ``[0.1, 0.9]`` by the lowest and highest lead of that
seat met so far in this search, so that every cut-off is scaled alike whenever it was met (and
a won game outweighs any guess).  The most tried action at the root is chosen; the search ends
before its last iteration once that action leads every other by more than ``stop`` times the
iterations left: with ``stop=1`` no iteration could change the pick, so the pick is the whole
search's, at a fraction of its cost; a lower ``stop`` bets that a leader that far ahead stays ahead
(as "smart pruning" in Go programs does), and saves more.

Where an iteration went through a tree action (not one it tried for the first time), the action keeps
that world's state there (``_Stats.states``, by the world's index): a later iteration on the same world
starts from the deepest kept state on its path instead of playing the tree's actions again, and copies it
before playing on (kept states are never played on).  The search is the same, with fewer engine steps.

A search leaves its tree and worlds to the bot's next decision (``_Kept``): when that decision comes
right after the bot's own actions and every one of the worlds, played on by those actions, shows the
seat exactly what the table shows it (same view, same legal actions, its turn to decide), the
worlds are worlds of the new decision and the subtree below those actions is what a search from
there would have built on them, so the new search starts from it: its iterations count toward
``iterations`` and no world is dealt (where the tree kept a world's state below those actions, that
state is the world).  Otherwise (another seat acted, the actions showed the seat something the worlds
disagree on, such as a card drawn, or the no-repeat memory narrowed the choice) it starts afresh.

See Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012).
"""

from __future__ import annotations

import math
import random
from typing import Callable, Sequence

from ..errors import RuleError, RulecoreError
from .memory import Memory, MemoryBot
from .protocol import GameState, every_heuristic, worlds as worlds_of


class ISMCTSBot(MemoryBot):
    """Information-set Monte Carlo tree search over worlds its seat cannot tell apart.

    ``worlds`` worlds are dealt with ``state.resample(me, seed)`` (0: a new one every
    iteration) and ``iterations`` iterations search them in turn with one shared tree (see
    ``search`` below): UCB with exploration constant ``c``, playouts of at most
    ``depth`` decisions below the tree, each taking the best of ``width`` actions one ply
    ahead for its chooser (0: at random), cut-offs valued by each seat's heuristic lead over
    its best rival (so a cardset without a heuristic wants a long random playout).
    With ``keep`` (the default) a search leaves its tree and worlds to the bot's next decision,
    which goes on from them when it comes right after the bot's own actions and every kept world
    still shows the seat what the table does; ``keep=0`` searches every decision afresh.
    A search ends once its most tried action leads every other by more than ``stop`` (0 to 1)
    times the iterations left: at 1 only when no iteration left could change the pick.
    Its choice depends only on what its seat may know, its seed and, with ``keep``, its own
    earlier searches in this game.
    """

    name = "ismcts"

    def __init__(self, seed: int, iterations: int = 200, c: float = 0.1, depth: int = 2, worlds: int = 20,
                 width: int = 8, keep: int = 1, stop: float = 1.0) -> None:
        if iterations < 1 or worlds < 0:
            raise RulecoreError(
                f"ismcts needs iterations >= 1 and worlds >= 0, got iterations={iterations}, worlds={worlds}")
        if depth < 0 or not c >= 0:
            raise RulecoreError(f"ismcts needs depth >= 0 and c >= 0, got depth={depth}, c={c}")
        if keep not in (0, 1):
            raise RulecoreError(f"ismcts needs keep 0 (search every decision afresh) or 1, got keep={keep}")
        if not 0 <= stop <= 1:
            raise RulecoreError(f"ismcts needs stop from 0 to 1 (1: only once no iteration left can change the pick), "
                                f"got stop={stop}")
        self.seed = seed
        self.iterations = iterations
        self.c = c
        self.depth = depth
        self.worlds = worlds
        self.width = width
        self.keep = bool(keep)
        self.stop = float(stop)
        self.rng = random.Random(seed)
        self.memory = Memory()
        self.kept: _Kept | None = None  # what the last search left for the next decision

    def _pick(self, state: GameState, me: int, untried: list[str], actions: list[str]) -> str:
        if len(untried) == 1:
            self._lone(state, untried[0])
            return untried[0]
        allowed = untried if len(untried) < len(actions) else None
        # a kept tree was searched over all the actions: with the choice narrowed by the no-repeat memory
        # (a decision met before) its visits would not be those of this search, so it starts afresh
        kept = self.kept.take(state, me, actions) if self.kept is not None and allowed is None else None
        self.kept = None
        action, left = search_kept(state, me, len(state.returns()), self.iterations, self.c, self.depth,
                                   self.rng, allowed, self.worlds, self.width, kept=kept, stop=self.stop)
        self.kept = left if self.keep else None
        return action

    def _lone(self, state: GameState, action: str) -> None:
        if self.kept is not None:
            self.kept = self.kept.then(state.current_player, action)

    def __repr__(self) -> str:
        return (f"ISMCTSBot(seed={self.seed}, iterations={self.iterations}, c={self.c}, depth={self.depth}, "
                f"worlds={self.worlds}, width={self.width}, keep={int(self.keep)}, stop={self.stop:g})")


class _Stats:
    """One action at one node: how often it was legal and tried, and what it was worth to its chooser."""

    __slots__ = ("available", "visits", "ended", "cut", "heuristic", "who", "child", "states")

    def __init__(self, who: int) -> None:
        self.available = 0  # iterations in which it was legal here
        self.visits = 0  # times chosen here
        self.ended = 0.0  # summed returns of the finished games it led to
        self.cut = 0  # playouts it led to that were cut off
        self.heuristic = 0.0  # summed raw heuristics of those
        self.who = who  # the seat choosing here
        self.child: _Node | None = None
        # world (its index among the dealt ones) -> that world after the actions down to and with this one,
        # kept once an iteration went through: never played on, only copied
        self.states: dict[int, GameState] | None = None


_Node = dict  # action -> _Stats


class _Scale:
    """The lowest and highest heuristic met per seat in one search, to scale cut-offs by."""

    def __init__(self, players: int) -> None:
        self.low = [math.inf] * players
        self.high = [-math.inf] * players

    def meet(self, heuristics: Sequence[float]) -> None:
        low, high = self.low, self.high
        for p, h in enumerate(heuristics):
            if h < low[p]:
                low[p] = h
            if h > high[p]:
                high[p] = h

    def mean(self, s: _Stats) -> float:
        """The mean value of ``s`` for its chooser."""
        value = s.ended
        if s.cut:
            span = self.high[s.who] - self.low[s.who]
            if span <= 0 or not math.isfinite(span):
                value += 0.5 * s.cut
            else:
                value += 0.1 * s.cut + 0.8 * (s.heuristic - s.cut * self.low[s.who]) / span
        return value / s.visits


def search(state: GameState, me: int, players: int, iterations: int, c: float, depth: int,
           rng: random.Random, allowed: Sequence[str] | None = None, worlds: int = 0, width: int = 0) -> str:
    """The action IS-MCTS picks for seat ``me`` (who must be deciding in ``state``), among
    ``allowed`` when given (the bot's untried actions at a decision it met before), over
    ``worlds`` resampled worlds (0: a new one every iteration)."""
    return search_kept(state, me, players, iterations, c, depth, rng, allowed, worlds, width)[0]


def search_kept(state: GameState, me: int, players: int, iterations: int, c: float, depth: int,
                rng: random.Random, allowed: Sequence[str] | None = None, worlds: int = 0, width: int = 0,
                kept: _Found | None = None, stop: float = 1.0) -> tuple[str, _Kept | None]:
    """``search``, started from ``kept`` (a tree and worlds of this very decision, from ``_Kept.take``)
    when given; also what it leaves for the seat's next decision (None when it dealt no worlds)."""
    keep = set(allowed) if allowed is not None else None
    step, judged, count = _stepping(state)
    judge: _Judge = lambda world: every_heuristic(world, players)  # noqa: E731
    if kept is not None:
        root, dealt, scale = kept
        done = sum(s.visits for s in root.values())  # the iterations that passed here in earlier searches
    else:
        root, scale, done = {}, _Scale(players), 0
        dealt = worlds_of(state, me, [rng.getrandbits(63) for _ in range(min(worlds, iterations))])
    candidates = list(allowed) if allowed is not None else state.legal_actions()
    for i in range(done, iterations):
        if i >= len(candidates) and _settled(root, candidates, stop * (iterations - i)):
            break  # the pick is made (at stop=1: no action can overtake the most tried any more)
        if dealt:
            w = i % len(dealt)
            world, own = dealt[w], False  # a kept world: copied before it is played on
        else:
            w, world, own = -1, state.resample(me, rng.getrandbits(63)), True
        path: list[_Stats] = []
        node = root
        ended: Sequence[float] | None = None
        cut: list[float] | None = None
        try:
            while not world.is_terminal():
                actions = world.legal_actions()
                places: Sequence[int] = range(len(actions))
                if keep is not None and node is root:
                    places = [j for j, a in enumerate(actions) if a in keep] or places
                who: int = world.current_player  # type: ignore[assignment]
                fresh: list[int] = []
                for j in places:
                    s = node.get(actions[j])
                    if s is None:
                        s = node[actions[j]] = _Stats(who)
                    s.available += 1
                    if not s.visits:
                        fresh.append(j)
                if fresh:
                    j = fresh[0] if len(fresh) == 1 else rng.choice(fresh)
                else:
                    j = _ucb(node, actions, places, c, scale, rng)
                chosen = node[actions[j]]
                path.append(chosen)
                went = chosen.states.get(w) if chosen.states is not None else None
                if went is not None and not fresh:
                    world = went  # this world went through here before: where it stood then
                else:
                    if not own:
                        world, own = world.clone(), True
                    step(world, j)
                    if fresh:
                        break
                    if w >= 0:  # kept for this world's next pass through here
                        if chosen.states is None:
                            chosen.states = {}
                        chosen.states[w], own = world, False
                if chosen.child is None:
                    chosen.child = {}
                node = chosen.child
            ended, cut = _playout(world if own else world.clone(), depth, width, rng, step, judged, count, judge)
        except RuleError:
            ended = [0.0] * players  # a world the rules could not carry on: worth nothing to anyone
        if cut is not None:
            scale.meet(cut)
        for s in path:
            s.visits += 1
            if ended is not None:
                s.ended += ended[s.who]
            else:
                s.cut += 1
                s.heuristic += cut[s.who]  # type: ignore[index]
    pick = _most_tried(root, candidates, scale, rng)
    return pick, (_Kept(me, root, dealt, scale, [pick]) if dealt else None)


def _most_tried(root: _Node, candidates: list[str], scale: _Scale, rng: random.Random) -> str:
    """The candidate tried most at the root; equal visits: the better mean, then the generator."""
    tried = [a for a in candidates if a in root and root[a].visits]
    if not tried:
        return candidates[0] if len(candidates) == 1 else rng.choice(candidates)
    most = max(root[a].visits for a in tried)
    best = [a for a in tried if root[a].visits == most]
    if len(best) > 1:
        top = max(scale.mean(root[a]) for a in best)
        best = [a for a in best if scale.mean(root[a]) >= top - 1e-12]
    return best[0] if len(best) == 1 else rng.choice(best)


_Found = tuple["_Node", list[GameState], _Scale]  # a kept tree taken: its node, its worlds, their scale


class _Kept:
    """A search's tree and worlds, kept for the seat's next decision, and the seat's actions since
    (``path``: the pick, then any lone actions it was told of)."""

    __slots__ = ("me", "root", "worlds", "scale", "path")

    def __init__(self, me: int, root: _Node, worlds: list[GameState], scale: _Scale, path: list[str]) -> None:
        self.me = me
        self.root = root
        self.worlds = worlds
        self.scale = scale
        self.path = path

    def then(self, seat: object, action: str) -> "_Kept | None":
        """This, with the seat's lone ``action`` taken too (None when another seat took it)."""
        if seat != self.me:
            return None
        self.path.append(action)
        return self

    def take(self, state: GameState, me: int, actions: list[str]) -> _Found | None:
        """The subtree below ``path`` and the worlds played on by it, when they are of ``state``'s decision:
        every world shows ``me`` what ``state`` shows it, with the same legal actions and ``me`` to
        decide; else None."""
        if me != self.me:
            return None
        node = self.root
        for action in self.path:
            s = node.get(action)
            if s is None or s.child is None:
                return None
            node = s.child
        if not any(s.visits for s in node.values()):
            return None
        shown = _shown(state, me)
        worlds = []
        for w, world in enumerate(self.worlds):
            went = _went(self.root, self.path, w)
            if went is not None:
                world = went  # the search kept this world's state below the path: kept as it is, never played on
            else:
                world = world.clone()
                try:
                    for action in self.path:
                        world.apply(action)
                except (RulecoreError, RuleError):
                    return None
            if world.is_terminal() or world.current_player != me or list(world.legal_actions()) != actions \
                    or _shown(world, me) != shown:
                return None
            worlds.append(world)
        return node, worlds, self.scale


def _went(root: _Node, path: list[str], w: int) -> GameState | None:
    """World ``w``'s state after ``path`` from the root, when the tree kept it (an iteration on that
    world went through the whole path), else None."""
    node: _Node | None = root
    went = None
    for action in path:
        s = node.get(action) if node is not None else None
        if s is None or s.states is None:
            return None
        went = s.states.get(w)
        if went is None:
            return None
        node = s.child
    return went


def _shown(state: GameState, me: int) -> object:
    """What ``me`` sees of ``state``: rulecore's compact view key where the state has one, else its view."""
    view_key = getattr(state, "_view_key", None)
    return view_key(me) if view_key is not None else state.view(me)


def _settled(root: _Node, actions: Sequence[str], left: float) -> bool:
    """Whether the most tried of ``actions`` at the root is tried more than ``left`` times more than any
    other of them.  With ``left`` the iterations still to run, no iteration left can change which is
    most tried (nor make a tie), so the search would pick it whatever they do; the search passes a
    share of them when its ``stop`` is below 1."""
    most = second = 0
    for a in actions:
        s = root.get(a)
        v = s.visits if s is not None else 0
        if v > most:
            most, second = v, most
        elif v > second:
            second = v
    return most - second > left


_Step = Callable[[GameState, int], object]
_Count = Callable[[GameState], int]
_Judge = Callable[[GameState], Sequence[float]]


def _stepping(state: GameState) -> tuple[_Step, _Step, _Count]:
    """How a search takes option ``i`` of a world, for a world it plays on and for one it only judges
    (most are dropped), and counts the options: by position, without labels, where the state can
    (rulecore's ``State``: without the snapshot an ``apply`` keeps to undo a rule error, since a world
    that fails is dropped; a judged one leaves its next question unbuilt until read), else through
    ``legal_actions()`` and ``apply``.  A draw among positions is the draw among the labels
    (``choice``/``sample`` take the length)."""
    kind = type(state)
    count = getattr(kind, "legal_count", None)
    discarding = getattr(kind, "_apply_index_discarding", None)
    if discarding is not None and count is not None:
        return (lambda world, i: discarding(world, i, False)), discarding, count
    step = getattr(kind, "apply_index", None)
    if step is not None and count is not None:
        return step, step, count
    by_label: _Step = lambda world, i: world.apply(world.legal_actions()[i])  # noqa: E731
    return by_label, by_label, (lambda world: len(world.legal_actions()))


def _ucb(node: _Node, actions: Sequence[str], places: Sequence[int], c: float, scale: _Scale,
         rng: random.Random) -> int:
    """The position (among ``places`` of ``actions``) with the best UCB value; ties by the generator."""
    best: list[int] = []
    top = -math.inf
    for j in places:
        s = node[actions[j]]
        score = scale.mean(s) + c * math.sqrt(math.log(max(s.available, 1)) / s.visits)
        if score > top + 1e-12:
            top, best = score, [j]
        elif score >= top - 1e-12:
            best.append(j)
    return best[0] if len(best) == 1 else rng.choice(best)


def _playout(world: GameState, depth: int, width: int, rng: random.Random, step: _Step, judged: _Step,
             count: _Count, judge: _Judge) -> tuple[Sequence[float] | None, list[float] | None]:
    """Play for at most ``depth`` decisions: (returns, None) when the game ended, else (None,
    every seat's lead, see ``_margins``).  Each decision takes, among ``width`` of its actions drawn
    at random (all when there are no more), the one best for its chooser one action ahead (a won
    game, else the highest lead); ``width`` 0: an action drawn at random.  ``world`` is played on
    in place."""
    leads: list[float] | None = None  # the leads of ``world`` when the last step judged them
    for _ in range(depth):
        if world.is_terminal():
            break
        n = count(world)
        leads = None
        if n == 1:
            step(world, 0)
        elif not width:
            step(world, rng.choice(range(n)))  # the draw ``choice(actions)`` makes
        else:
            world, leads = _greedy_step(world, range(n) if n <= width else rng.sample(range(n), width), rng,
                                        judged, judge)
    if world.is_terminal():
        return [float(v) for v in world.returns()], None
    if leads is None:
        leads = _margins(list(judge(world)))
    return None, leads


def _margins(heuristics: list[float]) -> list[float]:
    """Each seat's heuristic plus its lead over the best of the others (``2h - max(others)``):
    to win, a seat must beat the strongest rival, not the sum of them; where every seat has the
    same heuristic (a cooperative game) this is the heuristic itself."""
    if len(heuristics) < 2:
        return heuristics
    order = sorted(range(len(heuristics)), key=heuristics.__getitem__)
    top, second = heuristics[order[-1]], heuristics[order[-2]]
    return [2 * h - (second if p == order[-1] else top) for p, h in enumerate(heuristics)]


def _greedy_step(world: GameState, options: Sequence[int], rng: random.Random, step: _Step,
                 judge: _Judge) -> tuple[GameState, list[float] | None]:
    """The world after the option of ``options`` (positions) best for its chooser one action ahead
    (a won game, else the best lead over its best rival, see ``_margins``), with every seat's lead
    there (None when the game ended).  The last option is tried on ``world`` itself (it is not
    needed after), the others on copies."""
    who: int = world.current_player  # type: ignore[assignment]
    best: list[tuple[GameState, list[float] | None]] = []
    top = -math.inf
    last = len(options) - 1
    for k, j in enumerate(options):
        child = world.clone() if k < last else world
        try:
            step(child, j)
        except RuleError:
            continue
        if child.is_terminal():
            leads = None
            value = (2.0 * child.returns()[who] - 1.0) * 1e12
        else:
            leads = _margins(list(judge(child)))
            value = leads[who]
        if value > top:
            top, best = value, [(child, leads)]
        elif value == top:
            best.append((child, leads))
    if not best:
        raise RuleError("no action the rules can carry out in this world")
    return best[0] if len(best) == 1 else rng.choice(best)
