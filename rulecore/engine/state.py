"""The game state: plain data, one generic machine, the OpenSpiel-like API, and the play methods.

A ``State`` holds zones (lists of card ids, top first), counters, game
variables, the random generator, the interpreter's frame stack, the pending
decision, the action history and the event log.  Nothing in it is a Python
call stack or a callback, so ``clone`` copies a few lists and ``to_json``
writes everything there is.

This module holds the API of play (``apply``, ``legal_actions``, ``returns``, ...), copies
(``clone``, ``resample``) and what the interpreter changes the table with (``move``, ``flip``,
``change_counter``, ``emit``, ...).  ``State`` takes its other methods from the modules of their
jobs: what a player may know (``view``, ``events``, ...) from ``views``, ``to_json`` from
``saves`` and ``arrange`` from ``scenarios``.

Zone and counter lists are copied on write: a clone shares them with its original
until one of the two changes a zone (``_zone_w``) or a counter (``_counter_w``), which
first takes a copy of its own.  So ``state.zones`` and ``state.counters`` are for
reading; every change goes through the methods here (``move``, ``rotate``,
``change_counter``, ``arrange``, ...), and engine code that changes a zone's list in
place must get it from ``_zone_w``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import attrs

from .knowing import knowledge, sealed
from .knowing import resample as _resample
from . import eventlog, moving, saves, scenarios, table, views
from ..lang.functions import cards_of
from ..lang.work import check_mark
from .interpreter import choices, driver
from .interpreter.decisions import Asking, Decision, asking_of, decision_of
from .interpreter.frames import Ctx, actor, ev, own_ctx
from .rules import Rules
from .rng import Rng
from .. import arguments
from ..errors import IllegalActionError, RuleError

if TYPE_CHECKING:
    from .game import Game

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
    # the pending decision as tuples (player, prompt, actions, kind, labels), read through ``asking``
    _asking: Asking | None
    # a look-ahead's question left unbuilt (only ``_asking[0]`` is known): its run's steps, else None
    unbuilt: int | None
    looking_ahead: bool  # in a bots' look-ahead step (``_apply_index_discarding``): questions may wait unbuilt
    steps: int  # effect steps in the current run (interpreter.driver.run), against Game.step_limit
    nested: int  # frames running inside one another's Python calls in the current run (interpreter.driver.run)
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
    sealed_ops: tuple[Any, ...]  # what the sealed parts running changed, to show each seat its own (engine/sealed.py)
    classes: list[dict[int, int]]  # seat -> card -> which cards it cannot tell apart (see engine/knowing/knowledge.py)
    class_links: list[dict[int, int]]  # seat -> class -> the class it was merged into (followed by knowledge.class_of)
    owned_classes: int  # seats (bitmask) whose classes and links this state alone holds (the others: copy on write)
    class_seq: int  # the last class number given out
    loose: dict[int, int]  # card -> players (bitmask) who do not know its place in its zone (shared with clones)
    notes: Any  # what moves and looks let each player tell, not yet worked into the above: knowledge.settle
    record_events: bool
    ctx: Ctx  # reusable evaluation context (not saved), holding the state only while effects run

    def __init__(self, game: "Game"):
        self.game = game
        self.rules: Rules = game.rules
        self.record_events = game.record_events
        self.ctx = own_ctx(game.rules)

    # ------------------------------------------------------------------ API
    @property
    def decision(self) -> Decision | None:
        """The pending choice (who chooses, the prompt, the labelled options); None when the game is over."""
        return decision_of(self.asking)

    @decision.setter
    def decision(self, value: Decision | None) -> None:
        self.picking = ()
        self.asking = asking_of(value)

    @property
    def asking(self) -> Asking | None:
        """The pending decision as tuples (``_asking``), built first if a look-ahead left it unbuilt."""
        if self.unbuilt is not None:
            choices.build_question(self)
        return self._asking

    @asking.setter
    def asking(self, value: Asking | None) -> None:
        self._asking = value
        self.unbuilt = None

    @property
    def current_player(self) -> int | None:
        """The seat whose decision is pending; None when the game is over."""
        asking = self._asking  # the chooser is known even while a look-ahead's menu is unbuilt
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
        if type(action_id) is not int or not 0 <= action_id < self.game.num_distinct_actions:
            arguments.whole("action_id", action_id, 0, self.game.num_distinct_actions - 1, error=IllegalActionError,
                            expected=f"a stable action id from 0 to {self.game.num_distinct_actions - 1}")
        self.game.action_codec.apply(self, action_id)

    def apply(self, action: str) -> None:
        """Carry out ``action``; an illegal one raises ``IllegalActionError`` and changes nothing."""
        asking = self.asking
        if asking is None:
            raise IllegalActionError(f"the game is over; no action is legal (got {arguments.shown(action)})")
        actions = asking[2]
        try:
            index = actions.index(action)
        except ValueError:
            index = -1
        if index < 0:
            shown = ", ".join(arguments.shown(a, 80) for a in actions[:12])
            more = ", ..." if len(actions) > 12 else ""
            raise IllegalActionError(
                f"{arguments.shown(action, 80)} is not legal now; {self.player_label(asking[0])} must choose one of: "
                f"{shown}{more}"
            ) from None
        self._take(index, action)

    def legal_count(self) -> int:
        """How many actions are legal now (0 when the game is over): ``apply_index`` takes 0 to this - 1."""
        asking = self.asking
        return 0 if asking is None else len(asking[2])

    def apply_index(self, index: int) -> None:
        """``apply(legal_actions()[index])`` without the label looked up (simulate, bots, adapters)."""
        asking = self.asking
        if asking is None:
            raise IllegalActionError(f"the game is over; no action is legal (got index {index!r})")
        actions = asking[2]
        if type(index) is not int or not 0 <= index < len(actions):
            raise IllegalActionError(f"action index {index!r} is not legal now; {self.player_label(asking[0])} "
                                     f"must choose an index from 0 to {len(actions) - 1}")
        self._take(index, actions[index])

    def _apply_index_discarding(self, index: int, unbuilt: bool = True) -> None:
        """``apply_index`` on a copy thrown away when the rules fail (the bots' look-ahead): no snapshot
        is kept to restore, so after an error this state is in pieces and must not be used again.
        ``unbuilt``: the question it stops at may wait unbuilt until read (for a position that is
        likely judged and dropped); False builds it at once (one that is played on)."""
        asking = self.asking
        if asking is None or type(index) is not int or not 0 <= index < len(asking[2]):
            return self.apply_index(index)  # the error it gives
        self._take(index, asking[2][index], False, unbuilt)

    def _take(self, index: int, action: str, keep: bool = True, unbuilt: bool = False) -> None:
        """Option ``index`` of the pending decision, whose action is ``action``: recorded and carried out."""
        limit = self.game.action_limit
        if len(self.history) >= limit:
            raise RuleError(f"this game has reached its limit of {limit:,} actions; to play on, make the Game with a "
                            "higher action_limit (Game(..., action_limit=N))")
        snapshot = self.clone() if self.arranged and keep else None
        picking, self.picking = self.picking, ()
        self.history.append(action)
        if not keep:  # a look-ahead: the question it ends at may wait unbuilt (``asking`` builds it when read)
            self.looking_ahead = unbuilt
            try:
                return driver.resume(self, index)
            finally:
                self.looking_ahead = False
        try:
            driver.resume(self, index)
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

    def heuristic(self, player: int) -> float:
        """The cardset's evaluation of this state for ``player`` (higher is better); 0.0 without one."""
        self._check_player(player)
        return self.rules.judge(self, (player,))[0]

    def heuristics(self) -> list[float]:
        """Every seat's ``heuristic``, in seat order: what each reads of the piles is read once."""
        return self.rules.judge(self, self.rules.seats)

    # ------------------------------------------------------------------ information (views.py)
    view = views.view
    public_view = views.public_view
    _view_key = views.view_key
    events = views.events
    public_events = views.public_events
    event_cursor = views.event_cursor
    zone_visible = views.zone_visible
    result = views.result  # the outcome: winners, totals, rounds and per-round scores
    option_refs = table.option_refs  # what each of legal_actions() refers to, as far as the chooser sees

    # ------------------------------------------------------------------ scenarios (scenarios.py)
    arrange = scenarios.arrange

    # ------------------------------------------------------------------ saving (saves.py; Game.load_state reads it)
    to_json = saves.to_json

    # ------------------------------------------------------------------ the event log (eventlog.py)
    _move_event = eventlog.move_event
    emit = eventlog.emit
    _record = eventlog.record

    # ------------------------------------------------------------------ copies (saves.py)
    clone = saves.clone  # an independent copy (cheap: card data is shared, not copied)

    def resample(self, player: int, seed: int) -> "State":
        """A state ``player`` cannot tell from this one, with everything hidden from them dealt anew.

        Same ``view(player)``, ``events(player)`` and (when it is theirs) pending decision; the cards
        ``player`` has seen and followed stay where they know them to be; the generator is re-seeded
        from ``seed`` and what ``player`` knows.  See docs/api.md, "Fair play".
        """
        return self.resample_many(player, [seed])[0]

    def resample_many(self, player: int, seeds: Sequence[int]) -> "list[State]":
        """``[resample(player, seed) for seed in seeds]``, the same worlds, reading what ``player`` knows once."""
        self._check_player(player)
        if not isinstance(seeds, (list, tuple, range)):
            raise arguments.bad("seeds", "a list of seeds", seeds, IllegalActionError)
        for seed in seeds:
            arguments.seed("seed", seed, error=IllegalActionError)
        if not seeds:
            return []
        dealer = _resample.Dealer(self, player)
        return [dealer.deal(seed) for seed in seeds]

    def seen_by(self, player: int) -> "State":
        """The table as ``player`` sees it: while sealed parts run (``simultaneously``), a copy with what
        the other seats' parts changed taken back (where cards went and how many, counters, variables,
        marks), their own part's changes kept; otherwise this state itself.  ``view``, ``view_key``,
        observations and ``resample`` for ``player`` read it.  Read only: apply actions to the state."""
        self._check_player(player)
        return sealed.seen(self, player)

    def _restore(self, before: "State") -> None:
        """After a rule error, put back the state as it was before the action."""
        for field in attrs.fields(State):
            setattr(self, field.name, getattr(before, field.name, None))  # 'steps' is set by each run
        self.ctx = own_ctx(self.rules)

    # ------------------------------------------------------------------ used by the interpreter
    def ask(self, player: int, prompt: str, labels: Sequence[str], values: tuple[int, ...], kind: str) -> None:
        labels = tuple(labels)
        self._asking = (player, prompt, labels, kind, labels)  # an option's action is its label
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
        (by kind, from which cards) is read from the statement (see knowing/knowledge.py)."""
        rules = self.rules
        pool = rules.kind_pools.get(id(node))
        if pool is not None:
            pool = cards_of(self.ctx, ev(self, pool, env))
        self.move(cards, dest, node.position, node.face, actor(env), rules.picked_by_kind[id(node)], pool)

    # ------------------------------------------------------------------ moving cards (moving.py)
    move = moving.move
    flip = moving.flip
    rotate = moving.rotate

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

    def set_var(self, name: str, value: Any) -> None:
        """Set a game variable (``set NAME to ...``)."""
        if self.sealing is not None:
            sealed.note(self, ("var", self.sealing, name, self.vars.get(name), value))
        self.vars[name] = value

    def mark_card(self, card: int, mark: str, remove: bool) -> None:
        marks = self.marks.get(card, ())
        if not remove:
            check_mark(mark, marks, "a card")
        if self.sealing is not None and (mark in marks) == remove:
            sealed.note(self, ("mark", self.sealing, card, self.marks.get(card),
                               tuple(m for m in marks if m != mark) or None if remove else marks + (mark,)))
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
        if not remove:
            check_mark(mark, marks, "a player")
        if self.sealing is not None:
            sealed.note(self, ("pmark", self.sealing, player, marks,
                               tuple(m for m in marks if m != mark) if remove else marks + (mark,)))
        if remove:
            self.player_marks[player] = tuple(m for m in marks if m != mark)
        else:
            self.player_marks[player] = marks + (mark,)
        verb = "loses" if remove else "gets"
        self.emit("mark", f"{self.player_label(player)} {verb} '{mark}'", player=player, mark=mark, removed=remove)

    def unseal(self, start: int) -> None:
        """The sealed parts since log entry ``start`` are done: show them to everyone they were meant for."""
        self.sealed_cards.clear()
        self.sealed_ops = ()
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
        if self.sealing is not None and new != old:
            sealed.note(self, ("counter", self.sealing, name, index, old, new))
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
        winners = rules.evaluate(rules.cardset.winners, Ctx(self, {"$you": None, "$this": None}))
        if type(winners) is int:
            winners = (winners,)
        self.winners = tuple(winners or ())
        names = ", ".join(self.player_label(p) for p in self.winners) or "nobody"
        self.emit("game-end", f"The game ends. Winner: {names}", winners=list(self.winners))

    def player_label(self, player: Any) -> str:
        return self.rules.player_label(player)

    def zone_label(self, key: str | None) -> str:
        return self.rules.zone_label(key)

    def _check_player(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self.rules.players:
            arguments.seat("player", player, self.rules.players, error=IllegalActionError)

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

