"""Copying, saving and loading a state: ``clone`` copies it in memory, ``to_json`` writes everything
there is, ``state_from_json`` reads it back.

A save is JSON (format ``rulecore-state/1``): the zones, counters, variables, the interpreter's
frames and their locals, the pending decision, the history and the event log.  Saves may come
from strangers, so reading checks every field (``_Reader``): each value that does not fit is a
``StateError`` naming its place in the JSON, what it must be and what it is, never a Python
exception; and unless the caller trusts the save, its history is replayed from its seed and must
give the saved state exactly.  ``State`` takes ``clone`` and ``to_json`` as its methods; ``Game.load_state``
calls ``state_from_json``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable

from .knowing import knowledge, sealed
from .interpreter.driver import RESUMERS
from .interpreter.frames import own_ctx
from .rng import Rng
from ..errors import IllegalActionError, RuleError, StateError

if TYPE_CHECKING:
    from .game import Game
    from .state import State

FORMAT = "rulecore-state/1"


def clone(state: "State") -> "State":
    """``State.clone``: an independent copy (cheap: card data is shared, not copied)."""
    asking = state.asking  # a question a look-ahead left unbuilt is built first: copies are played on
    new = type(state).__new__(type(state))
    new.game = state.game
    new.rules = state.rules
    new.record_events = state.record_events
    new.ctx = own_ctx(state.rules)
    new.seed = state.seed
    new.rng = state.rng.copy()
    # zones and counters are shared, copied on write: neither state owns any list now
    new.zones = state.zones.copy()
    new.owned_zones = set()
    state.owned_zones = set()
    new.where = state.where[:]
    new.counters = state.counters.copy()
    new.owned_counters = set()
    state.owned_counters = set()
    new.vars = dict(state.vars)
    new.round = state.round
    new.phase = state.phase
    new.turn_player = state.turn_player
    new.turns = state.turns
    new.extra_turns = state.extra_turns[:]
    new.revealed = set(state.revealed)
    new.faceup = set(state.faceup)
    new.facedown = set(state.facedown)
    envs: dict[int, dict] = {}
    stack = []
    for node, pc, data, env in state.stack:
        copy = envs.get(id(env))
        if copy is None:
            copy = envs[id(env)] = env.copy()
        stack.append((node, pc, data, copy))
    new.stack = stack
    new.asking = asking
    new.looking_ahead = False
    new.pending_values = state.pending_values
    new.picking = state.picking
    new.history = state.history[:]
    new.log = state.log[:] if state.log else []  # empty when events are off
    new.terminal = state.terminal
    new.round_log = state.round_log[:]
    new.winners = state.winners
    new.uses = state.uses.copy()  # its lists are replaced, never changed (count_use)
    new.arranged = state.arranged
    new.marks = dict(state.marks)
    new.player_marks = state.player_marks[:]
    new.sealing = state.sealing
    new.sealed_cards = dict(state.sealed_cards)
    new.sealed_ops = state.sealed_ops  # a tuple: replaced, never changed
    # classes are shared, copied on write (knowledge.writable): neither state owns any now
    new.classes = state.classes[:]
    new.class_links = state.class_links[:]
    new.owned_classes = state.owned_classes = 0
    new.class_seq = state.class_seq
    new.loose = state.loose  # replaced, never changed, once shared (knowledge.settle)
    new.notes = state.notes  # tuples: never changed
    return new


def to_json(state: "State") -> str:
    """The whole state as JSON text; ``game.load_state`` reads it back exactly."""
    rules = state.rules
    knowledge.settle(state)
    env_ids: dict[int, int] = {}
    envs: list[dict] = []
    frames = []
    for node, pc, data, env in state.stack:
        if id(env) not in env_ids:
            env_ids[id(env)] = len(envs)
            envs.append(env)
        frames.append([rules.node_id[id(node)], pc, data, env_ids[id(env)]])
    payload = {
        "format": FORMAT,
        "game": rules.cardset.name,
        "fingerprint": state.game.fingerprint,
        "players": rules.players,
        "options": rules.options,
        "seed": state.seed,
        "rng": state.rng.state,
        "zones": state.zones,
        "counters": state.counters,
        "vars": state.vars,
        "round": state.round,
        "phase": state.phase,
        "turn_player": state.turn_player,
        "turns": state.turns,
        "extra_turns": state.extra_turns,
        "revealed": sorted(state.revealed),
        "faceup": sorted(state.faceup),
        "facedown": sorted(state.facedown),
        "frames": frames,
        "envs": envs,
        "decision": None
        if state.asking is None
        else {
            "player": state.asking[0],
            "prompt": state.asking[1],
            "kind": state.asking[3],
            "options": [[a, lbl] for a, lbl in zip(state.asking[2], state.asking[4])],
            "values": list(state.pending_values),
        },
        **({"picking": list(state.picking)} if state.picking else {}),
        "history": state.history,
        "log": state.log,
        "terminal": state.terminal,
        "round_log": state.round_log,
        "winners": list(state.winners),
        "uses": state.uses,
        "arranged": state.arranged,
        "marks": {str(c): list(m) for c, m in state.marks.items()},
        "player_marks": state.player_marks,
        "sealing": state.sealing,
        "sealed_cards": {str(c): p for c, p in state.sealed_cards.items()},
        **({"sealed_ops": sealed.to_json(state.sealed_ops)} if state.sealed_ops else {}),
        "classes": [{str(c): k for c, k in knowledge.resolved(cls, links).items()}
                    for cls, links in zip(state.classes, state.class_links)],
        "class_seq": state.class_seq,
        "loose": {str(c): m for c, m in state.loose.items()},
    }
    return json.dumps(payload, separators=(",", ":"))


def state_from_json(blank: "State", text: str, *, trusted: bool = False) -> "State":
    """Rebuild a state saved by ``to_json`` in ``blank`` (a new ``State(game)`` of the game to load
    it in); anything inconsistent raises ``StateError``.

    Every refusal names the place in the JSON that is wrong, what it should be and what it is
    (``'history' must be a list of actions (texts) (got "x")``), never a Python exception.
    Unless ``trusted``, the state is re-derived: its history is replayed from its seed and the
    replayed state must give the saved JSON exactly; the replayed state is returned."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise StateError(f"a saved state is JSON text (got {_shown(text)})")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise StateError(f"not a saved state: the bytes are not UTF-8 text (byte {exc.start:,} is not)") from None
    try:
        data = json.loads(text, parse_int=_parse_int)
    except StateError:
        raise
    except RecursionError:
        raise StateError("not a saved state: the JSON is nested too deeply") from None
    except ValueError as exc:  # json's own message says where: "Expecting value: line 1 column 1 (char 0)"
        raise StateError(f"not a saved state: the text is not JSON ({exc})") from None
    try:
        state = _from_dict(blank, data)
    except RecursionError:
        raise StateError("not a saved state: its values are nested too deeply") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):  # a check _from_dict lacks: still for people
        raise StateError(_UNCHECKED) from None
    if trusted:
        return state
    if state.arranged:
        raise StateError("this state was laid out with arrange(), so its history cannot confirm it; load it with "
                         "load_state(text, trusted=True), and only from a source you trust")
    return _rederived(blank.game, state, data)


_UNCHECKED = "the saved state does not hang together (edited or corrupt)"
_DIGITS = 40  # digits of the longest number a save may hold (every number of a save fits in 64 bits)


def _parse_int(digits: str) -> int:
    """A JSON integer of a save: no more than ``_DIGITS`` digits (Python refuses to read numbers of
    thousands of digits, and no field of a save needs more than 20)."""
    if len(digits) > _DIGITS:
        raise StateError(f"not a saved state: it holds a number of {len(digits.lstrip('-')):,} digits, "
                         f"and no value of a save has more than 20")
    return int(digits)


def _rederived(game: "Game", state: "State", data: dict[str, Any]) -> "State":
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


def _from_dict(s: "State", data: Any) -> "State":
    """``s`` (a new state) filled from the parsed save ``data``, every field checked."""
    game = s.game
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
    s.history = list(r.texts(r.field("history"), "history", "a list of actions (texts)"))
    if len(s.history) > game.action_limit:
        raise StateError(f"this state holds {len(s.history):,} actions, more than this game's action_limit of "
                         f"{game.action_limit:,} (Game(..., action_limit=N) loads longer games)")
    s.seed = r.number(r.field("seed"), "seed", -(1 << 63), (1 << 64) - 1, "a whole number of at most 64 bits")
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
    s.looking_ahead = False
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
    s.sealed_ops = sealed.from_json(s, r.field("sealed_ops", [], optional=True))
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
    if s.asking is not None and (not s.stack or type(s.stack[-1][0]) not in RESUMERS):
        frames = r.field("frames")
        last = _at("frames", len(frames) - 1) if frames else "frames"
        raise _bad(last, "the statement that asks the pending question (a choice or a menu), last of the frames",
                   frames[-1] if frames else frames)
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


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value
