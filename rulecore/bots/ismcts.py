"""Information-set Monte Carlo tree search over resampled states (single-observer IS-MCTS).

Each iteration deals a new world with ``state.resample(me, seed)`` (the seat's knowledge only:
never the true state), then walks one tree shared by all iterations.  A node is the seat's
view of the play so far from the root: the path of actions taken since.  At each node the
actions legal in this world are considered; an action never tried there is tried first, else
the one with the best UCB value, where each action's exploration term counts the iterations in
which it was available (not the node's visits), since which actions are legal differs from world
to world.  Below the tree the world is played out at random, for at most ``depth`` decisions.
A finished game is worth ``returns()``; a cut-off one is worth each seat's ``heuristic``,
scaled to ``[0.1, 0.9]`` over the cut-offs seen in this search.  Every node adds up, for each
action, the value for the seat that chose it.  The most tried action at the root is chosen.

See Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012).
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol, Sequence

from ..errors import RuleError


class Searchable(Protocol):
    """What the search asks of a state (rulecore's ``State`` has it all)."""

    @property
    def current_player(self) -> int | None: ...

    def legal_actions(self) -> list[str]: ...

    def apply(self, action: str) -> object: ...

    def clone(self) -> Any: ...

    def resample(self, player: int, seed: int) -> Any: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> Sequence[float]: ...

    def heuristic(self, player: int) -> float: ...


class _Node:
    __slots__ = ("visits", "value", "available", "children")

    def __init__(self) -> None:
        self.visits: dict[str, int] = {}  # action -> times chosen here
        self.value: dict[str, float] = {}  # action -> summed value for the seat that chose it
        self.available: dict[str, int] = {}  # action -> iterations in which it was legal here
        self.children: dict[str, _Node] = {}


class _Scale:
    """Min-max scaling of cut-off heuristics, per seat, over one search."""

    def __init__(self, players: int) -> None:
        self.low = [math.inf] * players
        self.high = [-math.inf] * players

    def values(self, heuristics: Sequence[float]) -> list[float]:
        out = []
        for p, h in enumerate(heuristics):
            self.low[p] = min(self.low[p], h)
            self.high[p] = max(self.high[p], h)
            span = self.high[p] - self.low[p]
            out.append(0.5 if span <= 0 or not math.isfinite(span) else 0.1 + 0.8 * (h - self.low[p]) / span)
        return out


def search(state: Searchable, me: int, players: int, iterations: int, c: float, depth: int,
           rng: random.Random, allowed: Sequence[str] | None = None) -> str:
    """The action IS-MCTS picks for seat ``me`` (who must be deciding in ``state``), among
    ``allowed`` when given (the bot's untried actions at a decision it met before)."""
    keep = set(allowed) if allowed is not None else None
    root = _Node()
    scale = _Scale(players)
    for _ in range(iterations):
        world = state.resample(me, rng.getrandbits(63))
        path: list[tuple[_Node, str, int]] = []  # (node, action, who chose it)
        node = root
        try:
            expanded = False
            while not world.is_terminal():
                actions = world.legal_actions()
                if keep is not None and node is root:
                    actions = [a for a in actions if a in keep] or actions
                who = world.current_player
                for a in actions:
                    node.available[a] = node.available.get(a, 0) + 1
                untried = [a for a in actions if a not in node.visits]
                if untried:
                    action = untried[0] if len(untried) == 1 else rng.choice(untried)
                    expanded = True
                else:
                    action = _ucb(node, actions, c, rng)
                path.append((node, action, who))  # type: ignore[arg-type]
                world.apply(action)
                if expanded:
                    break
                node = node.children.setdefault(action, _Node())
            values = _playout(world, depth, rng, scale, players)
        except RuleError:
            values = [0.0] * players  # a world the rules could not carry on: worth nothing to anyone
        for n, action, who in path:
            n.visits[action] = n.visits.get(action, 0) + 1
            n.value[action] = n.value.get(action, 0.0) + values[who]
            if n is path[-1][0] and action not in n.children:
                n.children[action] = _Node()
    actions = list(allowed) if allowed is not None else state.legal_actions()
    most = max(root.visits.get(a, 0) for a in actions)
    best = [a for a in actions if root.visits.get(a, 0) == most]
    if len(best) > 1:  # equal visits: the better mean, then the generator
        top = max(root.value.get(a, 0.0) / max(root.visits.get(a, 0), 1) for a in best)
        best = [a for a in best if root.value.get(a, 0.0) / max(root.visits.get(a, 0), 1) >= top - 1e-12]
    return best[0] if len(best) == 1 else rng.choice(best)


def _ucb(node: _Node, actions: Sequence[str], c: float, rng: random.Random) -> str:
    best: list[str] = []
    top = -math.inf
    for a in actions:
        n = node.visits[a]
        score = node.value[a] / n + c * math.sqrt(math.log(max(node.available[a], 1)) / n)
        if score > top + 1e-12:
            top, best = score, [a]
        elif score >= top - 1e-12:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)


def _playout(world: Searchable, depth: int, rng: random.Random, scale: _Scale, players: int) -> list[float]:
    for _ in range(depth):
        if world.is_terminal():
            break
        actions = world.legal_actions()
        world.apply(actions[0] if len(actions) == 1 else rng.choice(actions))
    if world.is_terminal():
        return [float(v) for v in world.returns()]
    return scale.values([float(world.heuristic(p)) for p in range(players)])
