"""The game state: plain data, one generic machine, the OpenSpiel-like API.

A ``State`` holds zones (lists of card ids, top first), counters, game
variables, the random generator, the interpreter's frame stack, the pending
decision, the action history and the event log.  Nothing in it is a Python
call stack or a callback, so ``clone`` copies a few lists and ``to_json``
writes everything there is.

Zone and counter lists are copied on write: a clone shares them with its original
until one of the two changes a zone (``_zone_w``) or a counter (``_counter_w``), which
first takes a copy of its own.  So ``state.zones`` and ``state.counters`` are for
reading; every change goes through the methods here (``move``, ``rotate``,
``change_counter``, ``arrange``, ...), and engine code that changes a zone's list in
place must get it from ``_zone_w``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, AbstractSet, Any, Iterable, Mapping, Sequence

import attrs

from . import interpreter as interp
from . import knowledge
from . import resample as _resample
from ..lang import nodes as n
from ..lang.functions import cards_of
from ..lang.functions import describe_value
from .interpreter import Ctx, Decision, Option
from .rng import Rng
from .rules import Rules
from ..errors import IllegalActionError, RuleError, StateError

if TYPE_CHECKING:
    from .game import Game

FORMAT = "rulecore-state/1"


@attrs.define(slots=True, eq=False, repr=False, init=False)
class State:
    """One game in progress: plain data. Create with ``Game.new_game(seed)``."""

    game: "Game"
    rules: "Rules"
    seed: int
    rng: Rng  # the only source of randomness
    zones: dict[str, list[int]]  # zone key ("discard", "hand/2") -> card ids, top first (read-only: see below)
    owned_zones: set[str]  # zone keys whose list this state alone holds (the others it shares with clones)
    where: list[str]  # card id -> its zone key
    counters: dict[str, list[int]]  # per-player counters have one value per seat, game counters one
    owned_counters: set[str]  # counters whose list this state alone holds
    vars: dict[str, Any]
    round: int
    phase: str | None
    turn_player: int | None
    turns: int
    extra_turns: list[int]
    revealed: set[str]  # zones shown to everyone until a card moves in or out
    faceup: set[int]  # cards shown to everyone wherever they are
    facedown: set[int]  # cards hidden from everyone even in a zone others may see
    stack: list[tuple[Any, int, Any, dict]]  # the interpreter's frames: (node, pc, data, env)
    # the pending decision as plain tuples: (player, prompt, actions, kind, labels); ``decision``
    # builds the documented attrs ``Decision`` from it only when it is read
    asking: tuple[int, str, tuple[str, ...], str, tuple[str, ...]] | None
    steps: int  # effect steps in the current run (interpreter.run), against Game.step_limit
    nested: int  # frames running inside one another's Python calls in the current run (interpreter.run)
    pending_values: tuple[int, ...]  # option index -> what the running choice does with it
    picking: tuple[int, ...]  # stable action ids taken toward an answer not yet whole (apply_id); not in history
    history: list[str]  # every action applied, in order
    log: list[dict[str, Any]]  # events
    terminal: bool
    round_log: list[dict[str, Any]]
    winners: tuple[int, ...]
    uses: dict[str, list[int]]  # card type -> abilities of it used, per seat (lists replaced, never changed)
    arranged: bool  # laid out by arrange(): no longer reproducible from the seed alone
    marks: dict[int, tuple[str, ...]]  # card id -> its marks (orientation, bound, ...)
    player_marks: list[tuple[str, ...]]  # seat -> its marks
    sealing: int | None  # inside 'simultaneously': whose sealed part is running
    sealed_cards: dict[int, int]  # card moved in a sealed part -> whose part: hidden from the others until unsealed
    classes: list[dict[int, int]]  # seat -> card -> which cards it cannot tell apart (see engine/knowledge.py)
    class_links: list[dict[int, int]]  # seat -> class -> the class it was merged into (followed by knowledge.class_of)
    owned_classes: int  # seats (bitmask) whose classes and links this state alone holds (the others: copy on write)
    class_seq: int  # the last class number given out
    loose: dict[int, int]  # card -> players (bitmask) who do not know its place in its zone (shared with clones)
    notes: Any  # what moves and looks let each player tell, not yet worked into the above: knowledge.settle
    record_events: bool
    ctx: Ctx  # reusable evaluation context (not saved)

    def __init__(self, game: "Game"):
        self.game = game
        self.rules: Rules = game.rules
        self.record_events = game.record_events
        self.ctx = Ctx(self, {})

    # ------------------------------------------------------------------ API
    @property
    def decision(self) -> Decision | None:
        """The pending choice (who chooses, the prompt, the labelled options); None when the game is over."""
        asking = self.asking
        if asking is None:
            return None
        player, prompt, actions, kind, labels = asking
        return Decision(player, prompt, tuple(map(Option, actions, labels)), kind)

    @decision.setter
    def decision(self, value: Decision | None) -> None:
        self.picking = ()
        if value is None:
            self.asking = None
        else:
            self.asking = (value.player, value.prompt, tuple(o.action for o in value.options), value.kind,
                           tuple(o.label for o in value.options))

    @property
    def current_player(self) -> int | None:
        """The seat whose decision is pending; None when the game is over."""
        asking = self.asking
        return asking[0] if asking is not None else None

    def legal_actions(self) -> list[str]:
        """The actions ``apply`` accepts now (empty when the game is over)."""
        asking = self.asking
        if asking is None:
            return []
        return list(asking[2])

    def legal_action_ids(self) -> list[int]:
        """The stable ids legal now, all different: each one a whole action or the next part of some
        (a card type of a set, then the next type, ...); see ``Game.num_distinct_actions``."""
        return self.game.action_codec.legal_ids(self)

    def observation(self, player: int) -> list[float]:
        """A fixed-length vector (``game.observation_shape``) built from ``view(player)`` alone."""
        return self.game.observer.observe(self.view(player))

    def apply_id(self, action_id: int) -> None:
        """Take the legal stable id ``action_id``: ``apply`` the action it leaves, or, while more than one
        action is still open, keep it in ``picking`` (the game does not change); an id not legal now
        raises ``IllegalActionError``."""
        self.game.action_codec.apply(self, action_id)

    def apply(self, action: str) -> None:
        """Carry out ``action``; an illegal one raises ``IllegalActionError`` and changes nothing."""
        asking = self.asking
        if asking is None:
            raise IllegalActionError(f"the game is over; no action is legal (got {action!r})")
        actions = asking[2]
        try:
            index = actions.index(action)
        except ValueError:
            index = -1
        if index < 0:
            shown = ", ".join(repr(a) for a in actions[:12])
            more = ", ..." if len(actions) > 12 else ""
            raise IllegalActionError(
                f"{action!r} is not legal now; {self.player_label(asking[0])} must choose one of: {shown}{more}"
            ) from None
        limit = self.game.action_limit
        if len(self.history) >= limit:
            raise RuleError(f"this game has reached its limit of {limit:,} actions; to play on, make the Game with a "
                            "higher action_limit (Game(..., action_limit=N))")
        snapshot = self.clone() if self.arranged else None
        picking, self.picking = self.picking, ()
        self.history.append(action)
        try:
            interp.resume(self, index)
        except BaseException:  # anything (a caller's timeout, KeyboardInterrupt too): the state as it was
            self._restore(snapshot if snapshot is not None else self.game.replay(self.seed, self.history[:-1]))
            self.picking = picking
            raise

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> list[float]:
        """Per seat: 1.0 for each winner, 0.0 otherwise (all 0.0 before the end)."""
        if not self.terminal:
            return [0.0] * self.rules.players
        return [1.0 if p in self.winners else 0.0 for p in range(self.rules.players)]

    def result(self) -> dict[str, Any]:
        """The game-level outcome: winners, totals, rounds and per-round scores."""
        cs = self.rules.cardset
        out: dict[str, Any] = {
            "winners": list(self.winners) if self.terminal else [],
            "rounds": self.round,
            "turns": self.turns,
            "decisions": len(self.history),
            "terminal": self.terminal,
        }
        if cs.totals:
            out["totals"] = list(self.counters[cs.totals])
        out["card_uses"] = {t: list(v) for t, v in sorted(self.uses.items())}
        if cs.round_scores:
            out["round_scores"] = [list(r[cs.round_scores]) for r in self.round_log if cs.round_scores in r]
        return out

    def heuristic(self, player: int) -> float:
        """The cardset's evaluation of this state for ``player`` (higher is better); 0.0 without one."""
        expr = self.rules.cardset.heuristic
        if expr is None:
            return 0.0
        value = self.rules.fn(expr)(Ctx(self, {"$you": player, "$this": None}))
        if type(value) not in (int, bool):
            raise RuleError(f"the heuristic must give a number, got {describe_value(value)}",
                            getattr(expr, "span", None))
        return float(value)

    # ------------------------------------------------------------------ information
    def view(self, player: int) -> dict[str, Any]:
        """Everything ``player`` may know now, as JSON-ready data."""
        rules = self.rules
        self._check_player(player)
        zones: dict[str, Any] = {}
        for key, cards in self.zones.items():
            entry: dict[str, Any] = {"count": len(cards)}
            if self.zone_visible(key, player):
                # a card lying face down there shows as null
                down = self.facedown
                sealed = self.sealed_cards
                hidden = [c in down or sealed.get(c, player) != player for c in cards]
                entry["cards"] = [None if h else rules.instance_type[c] for c, h in zip(cards, hidden)]
                if self.marks:
                    marked = {i: list(self.marks[c]) for i, c in enumerate(cards) if c in self.marks and not hidden[i]}
                    if marked:
                        entry["marks"] = marked
            else:
                up = [rules.instance_type[c] for c in cards if c in self.faceup]
                if up:
                    entry["face_up"] = up
            zones[key] = entry
        counters: dict[str, Any] = {}
        for name, cdef in rules.cardset.counters.items():
            values = self.counters[name]
            if cdef.visibility == "everyone":
                counters[name] = list(values) if cdef.per_player else values[0]
            elif cdef.visibility == "owner" and cdef.per_player:
                counters[name] = {str(player): values[player]}
        decision: dict[str, Any] | None = None
        if self.asking is not None:
            chooser, prompt, _, kind, labels = self.asking
            decision = {"player": chooser}
            if chooser == player:
                # others see only who is deciding: the prompt or options could hint at a hidden hand
                decision.update(prompt=prompt, kind=kind, options=list(labels))
                if self.picking:
                    decision["picked"] = list(self.picking)  # the stable ids taken so far (apply_id)
        return {
            "game": rules.cardset.name,
            "player": player,
            "players": rules.players,
            "round": self.round,
            "phase": self.phase,
            "turn_player": self.turn_player,
            "current_player": self.current_player,
            "zones": zones,
            "counters": counters,
            "vars": {k: v for k, v in self.vars.items() if k not in rules.cardset.hidden_vars},
            "player_marks": [list(m) for m in self.player_marks],
            "decision": decision,
            "terminal": self.terminal,
            "result": self.result() if self.terminal else None,
            "card_names": dict(rules.card_names),
        }

    def _view_key(self, player: int) -> tuple[Any, ...]:
        """A key equal for two states of one game exactly when their ``view(player)`` is equal, made
        without building the view: its fields in the same order, as tuples (a zone: the card types the
        seat sees, None for a hidden card, with its marks if any; a zone it cannot see: its count, with
        the face-up types if any).  For the bots' memory of decisions they met; keep it in step with
        ``view`` (tests/test_state.py pins the two together)."""
        rules = self.rules
        self._check_player(player)
        types = rules.instance_type
        bit = 1 << player
        revealed, down, sealed, up, marks = self.revealed, self.facedown, self.sealed_cards, self.faceup, self.marks
        zones, where = self.zones, self.where
        # the zones that hold a face-down, sealed, face-up or marked card: only those need a look at each card
        odd = {where[c] for c in down} | {where[c] for c in sealed} if down or sealed else ()
        shown_up = {where[c] for c in up} if up else ()
        marked_in = {where[c] for c in marks} if marks else ()
        shown: list[Any] = []
        for key, seers in rules.zone_seers.items():  # every zone, in the rules' order whatever that of self.zones
            cards = zones[key]
            if seers & bit or key in revealed:
                hidden = [c in down or sealed.get(c, player) != player for c in cards] if key in odd else None
                seen: tuple[Any, ...] = (tuple(map(types.__getitem__, cards)) if hidden is None
                        else tuple([None if h else types[c] for c, h in zip(cards, hidden)]))
                if key in marked_in:
                    marked = tuple((i, tuple(marks[c])) for i, c in enumerate(cards)
                                   if c in marks and not (hidden and hidden[i]))
                    if marked:
                        seen = (seen, marked)  # told from a bare zone: its first item is a tuple, not a type
                shown.append(seen)
            elif key in shown_up:
                shown.append((len(cards), tuple([types[c] for c in cards if c in up])))
            else:
                shown.append(len(cards))
        counters: list[Any] = []
        for name, cdef in rules.cardset.counters.items():
            if cdef.visibility == "everyone":
                values = self.counters[name]
                counters.append(tuple(values) if cdef.per_player else values[0])
            elif cdef.visibility == "owner" and cdef.per_player:
                counters.append(self.counters[name][player])
        asking = self.asking
        decision: Any = None
        if asking is not None:
            chooser, prompt, _, kind, labels = asking
            decision = (chooser, prompt, kind, tuple(labels), self.picking) if chooser == player else chooser
        hidden_vars = rules.cardset.hidden_vars
        return (
            rules.cardset.name,
            player,
            rules.players,
            self.round,
            self.phase,
            self.turn_player,
            self.current_player,
            tuple(shown),
            tuple(counters),
            tuple(sorted([(k, v) for k, v in self.vars.items() if k not in hidden_vars])),  # names are unique
            tuple(map(tuple, self.player_marks)),
            decision,
            self.terminal,
            _frozen(self.result()) if self.terminal else None,
            rules.card_names,
        )

    def events(self, player: int | None = None) -> list[dict[str, Any]]:
        """The event log as ``player`` may see it (None: the full log, for referees and tests)."""
        out = []
        for event in self.log:
            to = event.get("to")
            if player is not None and to is not None and player not in to:
                continue
            sealed = event.get("sealed")
            if player is not None and sealed is not None and sealed != player:
                continue  # another player's sealed part, until every part is done
            shown = {k: v for k, v in event.items() if k not in ("to", "seen", "private_text", "cards", "sealed")}
            seen = event.get("seen")
            if "cards" in event:
                if player is None or seen is None or player in seen:
                    shown["cards"] = event["cards"]
                    shown["text"] = event["private_text"]
            out.append(shown)
        return out

    def zone_visible(self, key: str, player: int) -> bool:
        vis = self.rules.zone_visibility[key]
        if vis == "everyone" or key in self.revealed:
            return True
        if vis == "owner":
            return self.rules.zone_owner[key] == player
        return False

    # ------------------------------------------------------------------ scenarios
    def arrange(
        self,
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
        named; cards pushed out of named zones go to ``rest``.  The pending
        decision is asked again for the new layout.  An arranged state saves,
        loads and clones as usual, but is no longer reproduced by its seed.
        """
        work = self.clone()
        work._arrange(zones, rest, counters, vars, marks, player_marks)
        self._restore(work)

    def _arrange(
        self,
        zones: Mapping[str, Sequence[str]] | None,
        rest: str | None,
        counters: Mapping[str, Any] | None,
        vars: Mapping[str, Any] | None,
        marks: Mapping[str, Sequence[str]] | None = None,
        player_marks: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        rules = self.rules
        zones = dict(zones or {})
        for key in zones:
            if key not in self.zones:
                raise IllegalActionError(f"no zone {key!r} (zones: {', '.join(self.zones)})")
        if rest is not None and rest not in self.zones:
            raise IllegalActionError(f"no zone {rest!r} for the rest of the cards")
        pool: list[int] = []
        for key in zones:
            pool.extend(self.zones[key])
            self.zones[key] = []
            self.owned_zones.add(key)
        others = [k for k in self.zones if k not in zones]
        for key, types in zones.items():
            for t in types:
                if t not in rules.defs:
                    raise IllegalActionError(f"unknown card type {t!r}")
                card = next((c for c in pool if rules.instance_type[c] == t), None)
                if card is not None:
                    pool.remove(card)
                else:
                    card = next((c for k in others for c in self.zones[k] if rules.instance_type[c] == t), None)
                    if card is None:
                        raise IllegalActionError(f"no {t!r} card left to place in {key!r}")
                    self._zone_w(self.where[card]).remove(card)
                self.zones[key].append(card)
                self.where[card] = key
        if pool:
            if rest is None:
                raise IllegalActionError(f"{len(pool)} cards were pushed out of the named zones; say where with rest=")
            self._zone_w(rest).extend(pool)
            for c in pool:
                self.where[c] = rest
        for name, value in (counters or {}).items():
            if name not in self.counters:
                raise IllegalActionError(f"no counter {name!r}")
            self.counters[name] = list(value) if isinstance(value, (list, tuple)) else [value]
            self.owned_counters.add(name)
        for name, value in (vars or {}).items():
            self.vars[name] = value
        # marks: "zone key/index" (e.g. "hand/0/2", the third card of hand/0) -> its marks
        for where, words in (marks or {}).items():
            zone, _, index = where.rpartition("/")
            if zone not in self.zones or not index.isdigit() or int(index) >= len(self.zones[zone]):
                raise IllegalActionError(f"no card at {where!r} to mark (use 'zone/index')")
            card = self.zones[zone][int(index)]
            if words:
                self.marks[card] = tuple(words)
            else:
                self.marks.pop(card, None)
        for seat, words in (player_marks or {}).items():
            if type(seat) is not int or not 0 <= seat < rules.players:
                raise IllegalActionError(f"no player {seat!r} to mark")
            self.player_marks[seat] = tuple(words)
        self.arranged = True
        self.picking = ()
        knowledge.reset(self)  # a new layout: nobody has followed a card into it
        self.emit("arrange", "The table is arranged for a scenario")
        if self.asking is not None and self.stack:
            node, pc, data, env = self.stack[-1]
            if type(node) is n.Menu or (type(node) is n.Choose and not (data and data[1])):
                # a menu, or a choice with nothing picked yet: ask again for the new layout,
                # with the locals it reads worked out anew (they may name cards that moved)
                self.asking = None
                interp.refresh_locals(self, node, env)
                self.stack[-1] = (node, 0, None, env)
                interp.run(self)

    # ------------------------------------------------------------------ copies
    def clone(self) -> "State":
        """An independent copy (cheap: card data is shared, not copied)."""
        new = State.__new__(State)
        new.game = self.game
        new.rules = self.rules
        new.record_events = self.record_events
        new.ctx = Ctx(new, {})
        new.seed = self.seed
        new.rng = self.rng.copy()
        copy_list = list.copy
        # zones and counters are shared, copied on write: neither state owns any list now
        new.zones = self.zones.copy()
        new.owned_zones = set()
        self.owned_zones = set()
        new.where = self.where[:]
        new.counters = self.counters.copy()
        new.owned_counters = set()
        self.owned_counters = set()
        new.vars = dict(self.vars)
        new.round = self.round
        new.phase = self.phase
        new.turn_player = self.turn_player
        new.turns = self.turns
        new.extra_turns = self.extra_turns[:]
        new.revealed = set(self.revealed)
        new.faceup = set(self.faceup)
        new.facedown = set(self.facedown)
        envs: dict[int, dict] = {}
        stack = []
        for node, pc, data, env in self.stack:
            copy = envs.get(id(env))
            if copy is None:
                copy = envs[id(env)] = env.copy()
            stack.append((node, pc, data, copy))
        new.stack = stack
        new.asking = self.asking
        new.pending_values = self.pending_values
        new.picking = self.picking
        new.history = self.history[:]
        new.log = self.log[:] if self.log else []  # empty when events are off
        new.terminal = self.terminal
        new.round_log = self.round_log[:]
        new.winners = self.winners
        new.uses = self.uses.copy()  # its lists are replaced, never changed (count_use)
        new.arranged = self.arranged
        new.marks = dict(self.marks)
        new.player_marks = self.player_marks[:]
        new.sealing = self.sealing
        new.sealed_cards = dict(self.sealed_cards)
        # classes are shared, copied on write (knowledge.writable): neither state owns any now
        new.classes = self.classes[:]
        new.class_links = self.class_links[:]
        new.owned_classes = self.owned_classes = 0
        new.class_seq = self.class_seq
        new.loose = self.loose  # replaced, never changed, once shared (knowledge.settle)
        new.notes = self.notes  # tuples: never changed
        return new

    def resample(self, player: int, seed: int) -> "State":
        """A state ``player`` cannot tell from this one, with everything hidden from them dealt anew.

        Same ``view(player)``, ``events(player)`` and (when it is theirs) pending decision; the cards
        ``player`` has seen and followed stay where they know them to be; the generator is re-seeded
        from ``seed`` and what ``player`` knows.  See docs/api.md, "Fair play".
        """
        self._check_player(player)
        if type(seed) is not int:
            raise IllegalActionError(f"resample needs an integer seed (got {seed!r})")
        world = _resample.resample(self, player, seed)
        if world.current_player != player:
            world.picking = ()  # another's partial answer (apply_id) is theirs alone
        return world

    def to_json(self) -> str:
        """The whole state as JSON text; ``game.load_state`` reads it back exactly."""
        rules = self.rules
        knowledge.settle(self)
        env_ids: dict[int, int] = {}
        envs: list[dict] = []
        frames = []
        for node, pc, data, env in self.stack:
            if id(env) not in env_ids:
                env_ids[id(env)] = len(envs)
                envs.append(env)
            frames.append([rules.node_id[id(node)], pc, data, env_ids[id(env)]])
        payload = {
            "format": FORMAT,
            "game": rules.cardset.name,
            "fingerprint": self.game.fingerprint,
            "players": rules.players,
            "options": rules.options,
            "seed": self.seed,
            "rng": self.rng.state,
            "zones": self.zones,
            "counters": self.counters,
            "vars": self.vars,
            "round": self.round,
            "phase": self.phase,
            "turn_player": self.turn_player,
            "turns": self.turns,
            "extra_turns": self.extra_turns,
            "revealed": sorted(self.revealed),
            "faceup": sorted(self.faceup),
            "facedown": sorted(self.facedown),
            "frames": frames,
            "envs": envs,
            "decision": None
            if self.asking is None
            else {
                "player": self.asking[0],
                "prompt": self.asking[1],
                "kind": self.asking[3],
                "options": [[a, lbl] for a, lbl in zip(self.asking[2], self.asking[4])],
                "values": list(self.pending_values),
            },
            **({"picking": list(self.picking)} if self.picking else {}),
            "history": self.history,
            "log": self.log,
            "terminal": self.terminal,
            "round_log": self.round_log,
            "winners": list(self.winners),
            "uses": self.uses,
            "arranged": self.arranged,
            "marks": {str(c): list(m) for c, m in self.marks.items()},
            "player_marks": self.player_marks,
            "sealing": self.sealing,
            "sealed_cards": {str(c): p for c, p in self.sealed_cards.items()},
            "classes": [{str(c): k for c, k in knowledge.resolved(cls, links).items()}
                        for cls, links in zip(self.classes, self.class_links)],
            "class_seq": self.class_seq,
            "loose": {str(c): m for c, m in self.loose.items()},
        }
        return json.dumps(payload, separators=(",", ":"))

    def _restore(self, before: "State") -> None:
        """After a rule error, put back the state as it was before the action."""
        for field in attrs.fields(State):
            setattr(self, field.name, getattr(before, field.name, None))  # 'steps' is set by each run
        self.ctx = Ctx(self, {})

    # ------------------------------------------------------------------ used by the interpreter
    def ask(self, player: int, prompt: str, labels: Sequence[str], values: tuple[int, ...], kind: str) -> None:
        labels = tuple(labels)
        self.asking = (player, prompt, labels, kind, labels)  # an option's action is its label
        self.picking = ()
        self.pending_values = values

    def _zone_w(self, key: str) -> list[int]:
        """The list of zone ``key``, to change in place: this state's own copy (see the module docstring)."""
        return _own(self.zones, self.owned_zones, key)

    def _counter_w(self, name: str) -> list[int]:
        """The values of counter ``name``, to change in place: this state's own copy."""
        return _own(self.counters, self.owned_counters, name)

    def move_by_rule(self, node: Any, cards: Sequence[int], dest: str, env: dict) -> None:
        """The cards of a ``move`` statement moved; what every player can tell of how they were picked
        (by kind, from which cards) is read from the statement (see knowledge.py)."""
        rules = self.rules
        pool = rules.kind_pools.get(id(node))
        if pool is not None:
            pool = cards_of(self.ctx, interp.ev(self, pool, env))
        self.move(cards, dest, node.position, node.face, interp.actor(env), rules.picked_by_kind[id(node)], pool)

    def move(self, cards: Iterable[int], dest: str, position: str, face: str | None, actor: Any,
             by_kind: bool = False, pool: Sequence[int] | None = None) -> None:
        """Move cards; ``by_kind``: the rules picked them by what they are (a whole zone, or a property);
        ``pool``: the cards of a kind they were picked from (what every player can tell of the pick)."""
        where = self.where
        target = self._zone_w(dest)
        zone_w = self._zone_w
        cards = list(cards)
        events = self.record_events
        # seen face up by everyone as it left (only the event log needs it)
        was_up = {c for c in cards if c in self.faceup} if events and self.faceup else frozenset()
        before = knowledge.masks(self, cards)
        sources: dict[str, list[int]] = {}
        # how the cards lie: nothing to do when no card lies face up or down and none is turned
        lie = face is not None or self.faceup or self.facedown
        sealing = self.sealing if face != "up" else None
        for c in cards:
            src = where[c]
            zone_w(src).remove(c)
            sources.setdefault(src, []).append(c)
            where[c] = dest
            if lie:
                self._lie(c, face)
            if sealing is not None:
                # moved in a sealed part: only its player sees it until all parts are done
                self.sealed_cards[c] = sealing
        if position == "bottom":
            target.extend(cards)
        elif position == "random":
            for c in cards:
                target.insert(self.rng.below(len(target) + 1), c)
        else:
            target[0:0] = cards
        if self.revealed:
            # a reveal shows a zone as it is; once cards move in or out it is hidden again
            for key in (dest, *sources):
                if key in self.revealed:
                    knowledge.remember(self, (c for c in self.zones[key] if c not in cards))
                    self.revealed.discard(key)
        knowledge.moved(self, cards, before, list(sources), dest, position, by_kind, pool)
        if events:
            for src, moved in sources.items():
                self._move_event(src, dest, moved, actor, was_up)

    def _lie(self, card: int, face: str | None) -> None:
        """How a card lies: face "up" (shown to everyone, even from a sealed part), "down"
        (hidden even in a zone others see), or None (as its zone shows it)."""
        if face == "up":
            self.faceup.add(card)
            self.facedown.discard(card)
            self.sealed_cards.pop(card, None)
        elif face == "down":
            self.faceup.discard(card)
            self.facedown.add(card)
        else:
            self.faceup.discard(card)
            self.facedown.discard(card)

    def flip(self, cards: Sequence[int], up: bool) -> None:
        changed = [c for c in cards if (c in self.faceup) != up or (not up and c not in self.facedown)]
        if not up:
            knowledge.remember(self, changed)
        for c in changed:
            self._lie(c, "up" if up else "down")
        if changed and up and self.record_events:
            names = ", ".join(self.rules.card_name(c) for c in changed)
            self.emit("flip", f"{names} turned face up", cards=[self.rules.instance_type[c] for c in changed],
                      private_text=f"{names} turned face up")
        elif changed:
            self.emit("flip", f"{len(changed)} card(s) turned face down")

    def rotate(self, zone: str, step: int, actor: Any) -> None:
        """Every player's ``zone`` passes its cards to the player ``step`` seats on, all at once."""
        keys = self.rules.zone_keys[zone]
        players = len(keys)
        contents = [self.zones[k] for k in keys]
        for cards in contents:
            knowledge.remember(self, cards)  # everyone sees the piles change hands
        self.owned_zones.difference_update(keys)  # the lists changed places: copy them before a change
        for p, cards in enumerate(contents):
            dest = keys[(p + step) % players]
            self.zones[dest] = cards
            for c in cards:
                self.where[c] = dest
            self.revealed.discard(keys[p])
        direction = "clockwise" if step > 0 else "counterclockwise"
        self.emit("rotate", f"Every {zone} passes one seat {direction}", zone=zone, step=step, actor=actor)

    def _move_event(self, src: str, dest: str, moved: list[int], actor: Any,
                    was_up: AbstractSet[int] = frozenset()) -> None:
        rules = self.rules
        seen = []
        everyone = True
        for p in range(rules.players):
            shown_src = self.zone_visible(src, p) and not any(c in self.facedown for c in moved)
            shown_dest = self.zone_visible(dest, p) and not any(c in self.facedown for c in moved)
            if shown_src or shown_dest or all(c in self.faceup or c in was_up for c in moved):
                seen.append(p)
            else:
                everyone = False
        names = [rules.card_name(c) for c in moved]
        count = len(moved)
        noun = "card" if count == 1 else "cards"
        who = f"{self.player_label(actor)}: " if actor is not None else ""
        masked = f"{who}{count} {noun} from {self.zone_label(src)} to {self.zone_label(dest)}"
        full = f"{who}{', '.join(names)} from {self.zone_label(src)} to {self.zone_label(dest)}"
        event = {
            "type": "move", "actor": actor, "from": src, "to_zone": dest, "count": count,
            "text": masked, "private_text": full, "cards": [rules.instance_type[c] for c in moved],
            "seen": None if everyone else seen,
        }
        if self.sealing is not None and not all(c in self.faceup for c in moved):
            event["sealed"] = self.sealing
        self._record(event)

    def emit(self, kind: str, text: str, to: Sequence[int] | None = None, **fields: Any) -> None:
        if not self.record_events:
            return
        event = {"type": kind, "text": text, **fields}
        if to is not None:
            event["to"] = list(to)
        if self.sealing is not None:
            event["sealed"] = self.sealing
        self._record(event)

    def _record(self, event: dict[str, Any]) -> None:
        """Add an event to the log.  The log holds at most ``Game.event_limit`` entries: the last one then
        says that it is full, and later events are dropped (play goes on; docs/untrusted.md)."""
        log = self.log
        room = self.game.event_limit - len(log)
        if room > 1:
            log.append(event)
        elif room == 1:
            full = {"type": "log-full", "text": f"The event log is full ({len(log) + 1:,} entries): later events "
                                                "are not recorded"}
            if "sealed" in event:  # filled inside a sealed part: the others see it once the parts are done
                full["sealed"] = event["sealed"]
            log.append(full)

    def reveal(self, zone: str) -> None:
        self.revealed.add(zone)
        if self.record_events:
            rules = self.rules
            cards = self.zones[zone]
            names = ", ".join(rules.card_name(c) for c in cards) or "nothing"
            self.emit("reveal", f"{self.zone_label(zone)} is revealed: {names}", zone=zone,
                      revealed=[rules.instance_type[c] for c in cards])

    def shuffle(self, zone: str) -> None:
        self.rng.shuffle(self._zone_w(zone))
        knowledge.lose_places(self, self.zones[zone])
        self.revealed.discard(zone)  # a shuffle hides the new order, as a move ends a reveal
        self.emit("shuffle", f"{self.zone_label(zone)} is shuffled", zone=zone)

    def hide(self, zone: str) -> None:
        if zone in self.revealed:
            knowledge.remember(self, self.zones[zone])
            self.revealed.discard(zone)

    def look(self, who: Any, cards: Sequence[int], zone: str | None) -> None:
        whos = [who] if type(who) is int else list(who)
        knowledge.looked(self, whos, cards)
        if not self.record_events:
            return
        rules = self.rules
        names = ", ".join(rules.card_name(c) for c in cards) or "nothing"
        what = self.zone_label(zone) if zone else "cards"
        self.emit("look", f"{self.player_label(who)} looks at {what}",
                  to=None, actor=who)
        self._record({"type": "look", "text": f"You see {what}: {names}", "to": whos,
                      "cards": [rules.instance_type[c] for c in cards], "seen": whos,
                      "private_text": f"You see {what}: {names}"})

    def count_use(self, card: int, player: Any) -> None:
        if type(player) is int:
            t = self.rules.instance_type[card]
            per = self.uses.get(t)
            # a new list each time: clones share these lists (clone copies the dict only)
            per = per[:] if per is not None else [0] * self.rules.players
            per[player] += 1
            self.uses[t] = per

    def mark_card(self, card: int, mark: str, remove: bool) -> None:
        marks = self.marks.get(card, ())
        if remove:
            if mark in marks:
                rest = tuple(m for m in marks if m != mark)
                if rest:
                    self.marks[card] = rest
                else:
                    del self.marks[card]
        elif mark not in marks:
            self.marks[card] = marks + (mark,)

    def mark_player(self, player: int, mark: str, remove: bool) -> None:
        marks = self.player_marks[player]
        if (mark in marks) != remove:
            return  # nothing changes, so nothing is logged
        if remove:
            self.player_marks[player] = tuple(m for m in marks if m != mark)
        else:
            self.player_marks[player] = marks + (mark,)
        verb = "loses" if remove else "gets"
        self.emit("mark", f"{self.player_label(player)} {verb} '{mark}'", player=player, mark=mark, removed=remove)

    def unseal(self, start: int) -> None:
        """The sealed parts since log entry ``start`` are done: show them to everyone they were meant for."""
        self.sealed_cards.clear()
        log = self.log
        for i in range(start, len(log)):
            if "sealed" in log[i]:  # events are shared with clones: replace, never edit in place
                log[i] = {k: v for k, v in log[i].items() if k != "sealed"}
        self.emit("reveal-all", "Every sealed choice is revealed")

    def change_counter(self, name: str, index: int, op: str, value: int) -> None:
        cdef = self.rules.cardset.counters[name]
        values = self._counter_w(name)
        old = values[index]
        new = old + value if op == "add" else old - value if op == "subtract" else value
        if cdef.min is not None and new < cdef.min:
            new = cdef.min
        if cdef.max is not None and new > cdef.max:
            new = cdef.max
        values[index] = new
        if self.record_events and new != old:
            owner = f"{self.player_label(index)}'s " if cdef.per_player else ""
            self.emit("counter", f"{owner}{name}: {old} -> {new}", counter=name, player=index if cdef.per_player else None,
                      value=new, to=None if cdef.visibility == "everyone" else ([index] if cdef.visibility == "owner" else []))

    def end_round(self) -> None:
        snapshot = {name: self.counters[name][:] for name, c in self.rules.cardset.counters.items() if c.per_round}
        snapshot["round"] = self.round  # type: ignore[assignment]
        self.round_log.append(snapshot)
        self.emit("round-end", f"Round {self.round} ends")

    def finish(self) -> None:
        self.terminal = True
        self.asking = None
        rules = self.rules
        winners = rules.fn(rules.cardset.winners)(Ctx(self, {"$you": None, "$this": None}))
        if type(winners) is int:
            winners = (winners,)
        self.winners = tuple(winners or ())
        names = ", ".join(self.player_label(p) for p in self.winners) or "nobody"
        self.emit("game-end", f"The game ends. Winner: {names}", winners=list(self.winners))

    def player_label(self, player: Any) -> str:
        return self.rules.player_label(player)

    def zone_label(self, key: str | None) -> str:
        if key is None:
            return "cards"
        owner = self.rules.zone_owner.get(key)
        if owner is not None:
            return f"{self.rules.player_label(owner)}'s {key.rsplit('/', 1)[0]}"
        if "/" in key:
            name, slot = key.rsplit("/", 1)
            return f"{name} {slot}"
        return key

    def _check_player(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self.rules.players:
            raise IllegalActionError(f"no player {player!r} in a {self.rules.players}-player game")

    def __repr__(self) -> str:
        status = "over" if self.terminal else f"{self.player_label(self.current_player)} to choose"
        return f"<State {self.rules.cardset.name} round {self.round}, {len(self.history)} actions, {status}>"


def _own(lists: dict[str, list[int]], owned: set[str], key: str) -> list[int]:
    """``lists[key]``, first copied unless this state already holds its own copy (copy on write)."""
    if key in owned:
        return lists[key]
    mine = lists[key] = lists[key][:]
    owned.add(key)
    return mine


def state_from_json(game: "Game", text: str, *, trusted: bool = False) -> State:
    """Rebuild a state saved by ``to_json``; anything inconsistent raises ``StateError``.

    Every refusal names the place in the JSON that is wrong, what it should be and what it is
    (``'history' must be a list of actions (texts) (got "x")``), never a Python exception.
    Unless ``trusted``, the state is re-derived: its history is replayed from its seed and the
    replayed state must give the saved JSON exactly; the replayed state is returned."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise StateError(f"a saved state is JSON text (got {_shown(text)})")
    try:
        data = json.loads(text)
    except RecursionError:
        raise StateError("not a saved state: the JSON is nested too deeply") from None
    except ValueError as exc:  # json's own message says where: "Expecting value: line 1 column 1 (char 0)"
        raise StateError(f"not a saved state: the text is not JSON ({exc})") from None
    try:
        state = _from_dict(game, data)
    except RecursionError:
        raise StateError("not a saved state: its values are nested too deeply") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):  # a check _from_dict lacks: still for people
        raise StateError(_UNCHECKED) from None
    if trusted:
        return state
    if state.arranged:
        raise StateError("this state was laid out with arrange(), so its history cannot confirm it; load it with "
                         "load_state(text, trusted=True), and only from a source you trust")
    return _rederived(game, state, data)


_UNCHECKED = "the saved state does not hang together (edited or corrupt)"


def _rederived(game: "Game", state: State, data: dict[str, Any]) -> State:
    """The state the saved seed and history give, if it is the saved one; else ``StateError``."""
    try:
        again = game.replay(state.seed, state.history)
    except IllegalActionError as exc:
        text = str(exc) if len(str(exc)) <= 300 else str(exc)[:297] + "..."  # an action may be very long
        raise StateError(f"the saved history is not a game of this cardset: {text}") from None
    except RuleError as exc:
        raise StateError(f"the saved history cannot be played again: {exc}") from None
    again.picking = state.picking  # not in the history: checked against the question by _from_dict
    mine = json.loads(again.to_json())
    if mine != data:
        differ = sorted(k for k in set(mine) | set(data) if mine.get(k) != data.get(k))
        also = f"; also {', '.join(differ[1:12])} differ" if len(differ) > 1 else ""
        raise StateError("the saved state is not what its seed and history give (edited or corrupt): "
                         f"{_difference(mine, data, '')}{also}")
    return again


def _difference(mine: Any, saved: Any, path: str) -> str:
    """The first place where the saved JSON differs from the replayed one, and how."""
    if isinstance(mine, dict) and isinstance(saved, dict):
        for key in sorted(set(mine) | set(saved)):
            if key not in mine:
                return f"'{_at(path, key)}' should not be there (got {_shown(saved[key])})"
            if key not in saved:
                return f"'{_at(path, key)}' is missing (it should be {_shown(mine[key])})"
            if mine[key] != saved[key]:
                return _difference(mine[key], saved[key], _at(path, key))
    if isinstance(mine, list) and isinstance(saved, list) and len(mine) == len(saved):
        for i, (a, b) in enumerate(zip(mine, saved)):
            if a != b:
                return _difference(a, b, _at(path, i))
    return f"'{path}' should be {_shown(mine)} (got {_shown(saved)})"


# ---------------------------------------------------------------------- reading a save


def _printable(text: str) -> str:
    """Text from a save cut to 40 characters, a lone surrogate (half a character) written as an escape."""
    text = text if len(text) <= 40 else text[:37] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _shown(value: Any) -> str:
    """A value of a save as its JSON text, cut to 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON at all (load_state was given something else)
        text = f"a {type(value).__name__}"
    return _printable(text)


def _quoted(value: Any) -> str:
    """A name from a save as messages quote names ('my-game'); anything else as JSON."""
    return f"'{_printable(value)}'" if type(value) is str and "'" not in value else _shown(value)


def _at(path: str, key: Any) -> str:
    """The JSON path of ``key`` inside ``path``: history[3], zones["hand/0"][2]."""
    if type(key) is int:
        return f"{path}[{key}]"
    return f'{path}["{_printable(key)}"]' if path else _printable(key)


def _bad(path: str, expected: str, value: Any) -> StateError:
    return StateError(f"'{path}' must be {expected} (got {_shown(value)})")


class _Reader:
    """Reads the fields of a parsed save: each value that does not fit is a ``StateError`` naming its
    place in the JSON, what it must be and what it is."""

    def __init__(self, game: "Game", data: dict[str, Any]):
        self.data = data
        self.players = game.rules.players
        self.cards = len(game.rules.instance_type)

    def field(self, key: str, default: Any = None, *, optional: bool = False) -> Any:
        if key in self.data:
            return self.data[key]
        if optional:
            return default
        raise StateError(f"'{key}' is missing: this is not a whole saved state")

    @staticmethod
    def number(value: Any, path: str, low: int | None = 0, high: int | None = None, what: str = "") -> int:
        if type(value) is not int or (low is not None and value < low) or (high is not None and value > high):
            if not what:
                what = ("an integer" if low is None else f"a whole number from {low}" if high is None
                        else f"an integer from {low} to {high}")
            raise _bad(path, what, value)
        return value

    def card(self, value: Any, path: str) -> int:
        return self.number(value, path, 0, self.cards - 1, f"a card id (an integer from 0 to {self.cards - 1})")

    def player(self, value: Any, path: str) -> int:
        return self.number(value, path, 0, self.players - 1, f"a player (an integer from 0 to {self.players - 1})")

    def card_key(self, key: str, path: str) -> int:
        """A card id written as a key of a JSON object ("12")."""
        if not (key.isascii() and key.isdigit() and len(key) < 12 and int(key) < self.cards):
            raise StateError(f"'{path}' must have card ids for keys (\"0\" to \"{self.cards - 1}\") (got {_shown(key)})")
        return int(key)

    @staticmethod
    def text(value: Any, path: str, what: str = "a text") -> str:
        if type(value) is not str:
            raise _bad(path, what, value)
        return value

    @staticmethod
    def flag(value: Any, path: str) -> bool:
        if type(value) is not bool:
            raise _bad(path, "true or false", value)
        return value

    @staticmethod
    def seq(value: Any, path: str, what: str, size: int | None = None) -> list[Any]:
        if type(value) is not list or (size is not None and len(value) != size):
            raise _bad(path, what, value)
        return value

    @staticmethod
    def obj(value: Any, path: str, what: str) -> dict[str, Any]:
        if type(value) is not dict:
            raise _bad(path, what, value)
        return value

    def texts(self, value: Any, path: str, what: str) -> tuple[str, ...]:
        return tuple(self.text(x, _at(path, i), "a text") for i, x in enumerate(self.seq(value, path, what)))

    def per_card(self, value: Any, path: str, what: str, read: Any) -> dict[int, Any]:
        """An object keyed by card ids; ``read(value, path)`` reads each value."""
        return {self.card_key(k, path): read(v, _at(path, k)) for k, v in self.obj(value, path, what).items()}


def _names(keys: Iterable[str]) -> str:
    return ", ".join(_shown(k) for k in sorted(keys)[:6]) + (", ..." if len(list(keys)) > 6 else "")


def _from_dict(game: "Game", data: Any) -> State:
    rules = game.rules
    if type(data) is not dict:
        raise StateError(f"not a saved state: it must be a JSON object {{...}} (got {_shown(data)})")
    if data.get("format") != FORMAT:
        raise StateError(f"not a saved rulecore state: 'format' must be {FORMAT!r} (got {_shown(data.get('format'))})")
    r = _Reader(game, data)
    players = r.players
    name = r.field("game")
    if name != rules.cardset.name:
        raise StateError(f"this state is of {_quoted(name)}, not '{rules.cardset.name}'")
    if r.field("players") != players:
        raise StateError(f"this state has {_shown(data['players'])} players, the game {players}")
    if r.field("options") != rules.options:
        raise StateError(f"this state was played with options {_shown(data['options'])}, the game has {rules.options}")
    if data.get("fingerprint") != game.fingerprint:
        raise StateError(f"this state was saved with other rules of '{rules.cardset.name}' (another version of the "
                         "cardset, or the save was edited): its fingerprint does not match")
    s = State(game)
    s.history = list(r.texts(r.field("history"), "history", "a list of actions (texts)"))
    if len(s.history) > game.action_limit:
        raise StateError(f"this state holds {len(s.history):,} actions, more than this game's action_limit of "
                         f"{game.action_limit:,} (Game(..., action_limit=N) loads longer games)")
    s.seed = r.number(r.field("seed"), "seed", None)
    s.rng = Rng(r.number(r.field("rng"), "rng", 0, (1 << 64) - 1))
    saved_zones = r.obj(r.field("zones"), "zones", "an object of zones and the card ids in each")
    if set(saved_zones) != set(rules.zone_visibility):
        missing = set(rules.zone_visibility) - set(saved_zones)
        unknown = set(saved_zones) - set(rules.zone_visibility)
        raise StateError("'zones' must hold exactly the cardset's zones"
                         + (f"; missing: {_names(missing)}" if missing else "")
                         + (f"; not in the cardset: {_names(unknown)}" if unknown else ""))
    zones: dict[str, list[int]] = {}
    where = [""] * r.cards
    for key, cards in saved_zones.items():
        path = _at("zones", key)
        zones[key] = [r.card(c, _at(path, i)) for i, c in enumerate(r.seq(cards, path, "a list of card ids"))]
        for i, c in enumerate(zones[key]):
            if where[c]:
                raise StateError(f"'{_at(path, i)}' is card {c}, which is in '{_at('zones', where[c])}' too: "
                                 "every card must be in one zone once")
            where[c] = key
    if "" in where:
        raise StateError(f"'zones' must hold every card of the game once: card {where.index('')} is in none")
    s.zones, s.where = zones, where
    s.owned_zones = set(zones)
    saved_counters = r.obj(r.field("counters"), "counters", "an object of counters and their values")
    if set(saved_counters) != set(rules.cardset.counters):
        missing = set(rules.cardset.counters) - set(saved_counters)
        unknown = set(saved_counters) - set(rules.cardset.counters)
        raise StateError("'counters' must hold exactly the cardset's counters"
                         + (f"; missing: {_names(missing)}" if missing else "")
                         + (f"; not in the cardset: {_names(unknown)}" if unknown else ""))
    s.counters = {}
    for cname, cdef in rules.cardset.counters.items():
        path, size = _at("counters", cname), players if cdef.per_player else 1
        what = f"a list of {size} integers, one per player" if cdef.per_player else "a list of one integer"
        values = r.seq(saved_counters[cname], path, what, size)
        s.counters[cname] = [r.number(x, _at(path, i), None) for i, x in enumerate(values)]
    s.owned_counters = set(s.counters)
    s.vars = _tuples(r.obj(r.field("vars"), "vars", "an object of game variables"))
    s.round = r.number(r.field("round"), "round")
    phase = r.field("phase")
    s.phase = None if phase is None else r.text(phase, "phase", "a phase name or null")
    turn = r.field("turn_player")
    s.turn_player = None if turn is None else r.player(turn, "turn_player")
    s.turns = r.number(r.field("turns"), "turns")
    extra = r.seq(r.field("extra_turns"), "extra_turns", f"a list of {players} integers, one per player", players)
    s.extra_turns = [r.number(x, _at("extra_turns", i)) for i, x in enumerate(extra)]
    revealed = r.texts(r.field("revealed"), "revealed", "a list of zone keys")
    for i, key in enumerate(revealed):
        if key not in zones:
            raise _bad(_at("revealed", i), "a zone key of the cardset", key)
    s.revealed = set(revealed)
    for face in ("faceup", "facedown"):
        listed = r.seq(r.field(face), face, "a list of card ids")
        setattr(s, face, {r.card(c, _at(face, i)) for i, c in enumerate(listed)})
    envs = [_tuples(r.obj(e, _at("envs", i), "an object of local variables"))
            for i, e in enumerate(r.seq(r.field("envs"), "envs", "a list of objects of local variables"))]
    stack = []
    for i, frame in enumerate(r.seq(r.field("frames"), "frames", "a list of frames")):
        path = _at("frames", i)
        node_id, pc, fdata, env_id = r.seq(frame, path, "a frame [statement, step, progress, locals]", 4)
        node = rules.nodes[r.number(node_id, _at(path, 0), 0, len(rules.nodes) - 1,
                                 f"a statement number (an integer from 0 to {len(rules.nodes) - 1})")]
        if not envs:
            raise _bad(_at(path, 3), "an index into 'envs', but 'envs' is empty", env_id)
        env = envs[r.number(env_id, _at(path, 3), 0, len(envs) - 1, f"an index into 'envs' (0 to {len(envs) - 1})")]
        stack.append((node, r.number(pc, _at(path, 1)), _tuples(fdata), env))
    s.stack = stack
    d = r.field("decision")
    if d is None:
        s.asking, s.pending_values = None, ()
    else:
        r.obj(d, "decision", "an object (the pending choice) or null")
        pairs = []
        for i, pair in enumerate(r.seq(d.get("options"), _at("decision", "options"), "a list of [action, label] pairs")):
            path = _at(_at("decision", "options"), i)
            action, label = r.seq(pair, path, "a pair [action, label]", 2)
            pairs.append((r.text(action, _at(path, 0)), r.text(label, _at(path, 1))))
        values = r.seq(d.get("values"), _at("decision", "values"), f"a list of {len(pairs)} integers, one per option",
                        len(pairs))
        chooser = r.player(d.get("player"), _at("decision", "player"))
        prompt = r.text(d.get("prompt"), _at("decision", "prompt"))
        kind = r.text(d.get("kind"), _at("decision", "kind"))
        s.asking = (chooser, prompt, tuple(a for a, _ in pairs), kind, tuple(lbl for _, lbl in pairs))
        s.pending_values = tuple(r.number(v, _at(_at("decision", "values"), i), None) for i, v in enumerate(values))
    log = r.seq(r.field("log"), "log", "a list of events (objects)")
    if len(log) > game.event_limit:
        raise StateError(f"'log' holds {len(log):,} events, more than this game's event_limit of {game.event_limit:,}")
    s.log = [r.obj(e, _at("log", i), "an event (an object)") for i, e in enumerate(log)]
    s.terminal = r.flag(r.field("terminal"), "terminal")
    s.round_log = [r.obj(e, _at("round_log", i), "an object of counters at the end of a round")
                   for i, e in enumerate(r.seq(r.field("round_log"), "round_log", "a list of objects"))]
    s.winners = tuple(r.player(p, _at("winners", i))
                      for i, p in enumerate(r.seq(r.field("winners"), "winners", "a list of players")))
    uses = r.obj(r.field("uses"), "uses", "an object of card types and their uses per player")
    s.uses = {}
    for t, per in uses.items():
        path = _at("uses", t)
        listed = r.seq(per, path, f"a list of {players} integers, one per player", players)
        s.uses[t] = [r.number(x, _at(path, i)) for i, x in enumerate(listed)]
    s.arranged = r.flag(r.field("arranged"), "arranged")
    s.marks = r.per_card(r.field("marks"), "marks", "an object of card ids and their marks",
                         lambda v, path: r.texts(v, path, "a list of marks (texts)"))
    saved_marks = r.seq(r.field("player_marks"), "player_marks", f"a list of {players} lists of marks, one per player",
                         players)
    s.player_marks = [r.texts(m, _at("player_marks", i), "a list of marks (texts)") for i, m in enumerate(saved_marks)]
    sealing = r.field("sealing")
    s.sealing = None if sealing is None else r.player(sealing, "sealing")
    s.sealed_cards = r.per_card(r.field("sealed_cards"), "sealed_cards", "an object of card ids and players", r.player)
    classes = r.seq(r.field("classes", [{}] * players, optional=True), "classes",
                     f"a list of {players} objects, one per player", players)
    s.classes = [r.per_card(cls, _at("classes", i), "an object of card ids and class numbers", r.number)
                 for i, cls in enumerate(classes)]
    s.class_links = [{} for _ in s.classes]
    s.owned_classes = rules.everyone
    s.class_seq = r.number(r.field("class_seq", 0, optional=True), "class_seq")
    s.loose = r.per_card(r.field("loose", {}, optional=True), "loose", "an object of card ids and players (bits)",
                         r.number)
    s.notes = None
    if not s.terminal and s.asking is None:
        raise StateError("the saved state is neither over nor waiting for a decision: 'terminal' is false and "
                         "'decision' is null")
    picking = r.seq(r.field("picking", [], optional=True), "picking", "a list of stable action ids")
    s.picking = tuple(r.number(i, _at("picking", k), 0, game.num_distinct_actions - 1) for k, i in enumerate(picking))
    if s.picking:
        try:
            game.action_codec.check_picking(s, s.picking)
        except IllegalActionError as exc:
            raise StateError(f"'picking' is no partial answer to the pending question: {exc}") from None
    return s


def _frozen(value: Any) -> Any:
    """A JSON-like value (lists, objects with text keys) as tuples, equal exactly when the value is."""
    if isinstance(value, list):
        return tuple(map(_frozen, value))
    if isinstance(value, dict):
        return frozenset((k, _frozen(v)) for k, v in value.items())
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value
