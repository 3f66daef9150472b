"""``Game``: a cardset at a table of N players with options; makes, loads and replays states.

Its ``Rules`` (in ``rules.py``) are shared by every ``State`` of the game.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from typing import Any, Iterable, Mapping, Sequence

from .knowing import knowledge
from .. import arguments
from ..cardset.fingerprint import fingerprint
from .encoding.actions import ActionCodec
from .encoding.compact import CompactObserver
from .encoding.observation import Observer
from .encoding.reach import Reach
from ..cardset.model import Cardset
from .rng import Rng
from .rules import Rules
from .interpreter.driver import run
from .saves import state_from_json
from .state import State
from .table import card_catalogue
from ..errors import IllegalActionError, OptionError, RuleError
from ..lang import nodes as n
from ..lang.nodes import walk

_MASK = (1 << 64) - 1
OPTION_TEXT = 1_000  # characters of a text option's value
OBSERVATIONS = ("compact", "full")  # the layouts of state.observation (Game(..., observation=...))


def _mix_seed(seed: int) -> int:
    z = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK
    z = ((z ^ (z >> 33)) * 0xFF51AFD7ED558CCD) & _MASK
    return z ^ (z >> 33)


NAME_LENGTH = 40  # the longest display name of a player, in characters


def _option_value(name: str, default: Any, choices: tuple[Any, ...] | None, value: Any) -> Any:
    """The value of option ``name`` given as ``value`` (or its text, as on a command line), of the kind of
    its default (a truth value, a whole number, a text) and among its choices; else ``OptionError``."""
    where = f"option '{name}'"
    if type(default) is bool:
        if type(value) is str and value.lower() in ("true", "false", "yes", "no", "1", "0"):
            return value.lower() in ("true", "yes", "1")
        if type(value) is not bool:
            raise arguments.bad(where, "true or false", value, OptionError)
    elif type(default) is int:
        if type(value) is str and value.strip().lstrip("+-").isdigit() and len(value) <= 30:
            value = int(value)
        arguments.whole(where, value, -(1 << 62), 1 << 62, error=OptionError, expected="an integer")
    elif type(default) is str:
        arguments.text(where, value, error=OptionError)
        if len(value) > OPTION_TEXT:
            raise arguments.bad(where, f"a text of at most {OPTION_TEXT:,} characters", value, OptionError)
    if choices is not None:
        arguments.one_of(where, value, choices, error=OptionError)
    return value


def check_player_names(names: Sequence[str] | None, players: int, cardset: Cardset) -> tuple[str, ...] | None:
    """``player_names`` checked: one per seat, each a short line of text that no other answer of the game
    shares (a name is the label of its seat in every choice, so it must tell the seats and answers apart)."""
    if names is None:
        return None
    if isinstance(names, str) or not isinstance(names, Sequence) or len(names) != players:
        raise OptionError(f"player_names must be a list of {players} names, one per seat (got {names!r:.60})")
    taken = {"done", "decline", "the game", "none"} | {c.name.casefold() for c in cardset.cards.values()}
    roots = [cardset.program, *(p.body for p in cardset.procedures.values()),
             *(a.body for c in cardset.cards.values() for a in c.abilities.values())]
    taken |= {node.label.casefold() for root in roots for node in walk(root) if isinstance(node, n.StaticOption)}
    seen: set[str] = set()
    for seat, name in enumerate(names):
        if type(name) is not str or not name.strip() or name != name.strip() or len(name) > NAME_LENGTH \
                or not name.isprintable():
            raise OptionError(f"player_names[{seat}] must be a text of 1 to {NAME_LENGTH} printable characters "
                              f"without spaces at either end (got {name!r:.60})")
        key = name.casefold()
        if key in seen:
            raise OptionError(f"player_names[{seat}] ({name!r}) is the name of another seat too: names must differ")
        if key in taken:
            raise OptionError(f"player_names[{seat}] ({name!r}) is also a card or answer of '{cardset.name}': "
                              "choose another name")
        seen.add(key)
    return tuple(names)


class Game:
    """A cardset played by ``players`` players with ``options``.

    ``observation`` picks the layout of ``state.observation(player)``: "compact" (counts per card type
    and zone where the type can lie, under 2,000 floats in the built-in games) or "full" (every zone
    key by every card type); ``observation_slots`` names each slot of either.
    """

    def __init__(
        self,
        cardset: Cardset,
        players: int,
        options: Mapping[str, Any] | None = None,
        *,
        record_events: bool = True,
        step_limit: int = 1_000_000,
        depth_limit: int = 10_000,
        action_limit: int = 100_000,
        event_limit: int = 100_000,
        player_names: Sequence[str] | None = None,
        observation: str = "compact",
    ):
        if not isinstance(cardset, Cardset):
            raise OptionError(f"Game() needs a loaded cardset (rulecore.load_cardset(...)), got {type(cardset).__name__}")
        if type(players) is not int or not cardset.min_players <= players <= cardset.max_players:
            raise OptionError(
                f"'{cardset.name}' is for {cardset.min_players} to {cardset.max_players} players "
                f"(got {arguments.shown(players)})"
            )
        self.cardset = cardset
        self.players = players
        given = {} if options is None else arguments.mapping(
            "options", options, error=OptionError, expected="a mapping of option names to values")
        self.options = self._resolve_options(given)
        self.record_events = record_events
        limits = (("step_limit", step_limit), ("depth_limit", depth_limit), ("action_limit", action_limit),
                  ("event_limit", event_limit))
        for name, value in limits:
            arguments.whole(name, value, 1, 1 << 62, error=OptionError)
        arguments.one_of("observation", observation, OBSERVATIONS, error=OptionError)
        self.observation = observation  # the layout of state.observation: see observation_slots
        self.step_limit = step_limit  # steps of effects per apply / new_game (see interpreter.driver.run)
        self.depth_limit = depth_limit  # frames on the interpreter's stack
        self.action_limit = action_limit  # actions in one game: apply refuses more, load_state a longer history
        self.event_limit = event_limit  # entries of the event log; the last one then says it is full
        self.player_names = check_player_names(player_names, players, cardset)  # None: "Player 0", "Player 1", ...
        self.rules = Rules(cardset, players, self.options, self.player_names, step_limit)
        self._fingerprint: str | None = None
        self._codec: ActionCodec | None = None
        self._observer: Observer | CompactObserver | None = None

    @property
    def fingerprint(self) -> str:
        """What a save of this game must match: the cardset's rules, the player count and the options."""
        if self._fingerprint is None:
            parts: list[Any] = [fingerprint(self.cardset), self.players, self.options]
            if self.player_names is not None:  # names are in labels, so in the history: a save needs the same ones
                parts.append(self.player_names)
            text = json.dumps(parts, sort_keys=True, default=repr)
            self._fingerprint = hashlib.sha256(text.encode()).hexdigest()[:32]
        return self._fingerprint

    # ---- stable action ids (engine/encoding/actions.py) and observations (engine/encoding/observation.py)
    @property
    def action_codec(self) -> ActionCodec:
        """The game's stable action ids, read from its effect trees and cards the first time they are asked for."""
        if self._codec is None:
            self._codec = ActionCodec(self.rules)
        return self._codec

    @property
    def num_distinct_actions(self) -> int:
        """How many stable action ids the game has (ids are 0 .. num_distinct_actions - 1)."""
        return len(self.action_codec.keys)

    @property
    def observer(self) -> Observer | CompactObserver:
        """The game's observation layout (``observation``: "compact" or "full"), read from its cardset the
        first time it is asked for."""
        if self._observer is None:
            texts = ActionCodec.texts(self.rules)
            if self.observation == "full":
                self._observer = Observer(self.rules, texts)
            else:
                self._observer = CompactObserver(self.rules, self.action_codec, Reach(self.rules, texts))
        return self._observer

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of ``state.observation(player)``: one number per slot."""
        return (len(self.observer.slots),)

    @property
    def observation_slots(self) -> tuple[str, ...]:
        """What each slot of an observation holds, in words."""
        return self.observer.slots

    def card_catalogue(self) -> list[dict[str, Any]]:
        """Every card type in play (after ``include_if``), in cardset order, as JSON-ready data: ``id``,
        ``name``, ``count``, ``text``, ``tags``, ``props``, ``scoring``, ``family`` and ``abilities``."""
        return card_catalogue(self.rules)

    def action_label(self, action_id: int) -> str:
        """What a stable action id means, in words (the same in every state)."""
        arguments.whole("action_id", action_id, 0, self.num_distinct_actions - 1, error=IllegalActionError,
                        expected=f"a stable action id from 0 to {self.num_distinct_actions - 1}")
        return self.action_codec.describe(action_id)

    def _resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        specs = self.cardset.options
        resolved = {name: spec.default for name, spec in specs.items()}
        for name, value in given.items():
            spec = specs.get(name)
            if spec is None:
                guess = difflib.get_close_matches(name, list(specs), n=1)
                hint = f" -- did you mean '{guess[0]}'?" if guess else f" (options: {', '.join(specs) or 'none'})"
                raise OptionError(f"'{self.cardset.name}' has no option '{name}'{hint}")
            resolved[name] = _option_value(name, spec.default, spec.choices, value)
        return resolved

    def new_game(self, seed: int = 0) -> State:
        """A new game, set up and run to its first decision."""
        arguments.seed("seed", seed, error=OptionError)
        rules = self.rules
        s = State(self)
        s.seed = seed
        s.rng = Rng(_mix_seed(seed))
        s.zones = {key: [] for key in rules.zone_visibility}
        start = rules.zone_keys[self.cardset.start_zone][0]
        s.zones[start] = list(range(len(rules.instance_type)))
        s.where = [start] * len(rules.instance_type)
        s.owned_zones = set(s.zones)
        s.counters = {
            name: [c.initial] * (rules.players if c.per_player else 1) for name, c in self.cardset.counters.items()
        }
        s.owned_counters = set(s.counters)
        s.vars = dict(self.cardset.vars)
        s.round = 0
        s.phase = None
        s.turn_player = None
        s.turns = 0
        s.extra_turns = [0] * rules.players
        s.revealed = set()
        s.faceup = set()
        s.facedown = set()
        s.stack = [(self.cardset.program, 0, None, {"$you": None, "$this": None})]
        s.asking = None
        s.looking_ahead = False
        s.pending_values = ()
        s.picking = ()
        s.history = []
        s.log = []
        s.terminal = False
        s.round_log = []
        s.winners = ()
        s.uses = {}
        s.arranged = False
        s.marks = {}
        s.player_marks = [()] * rules.players
        s.sealing = None
        s.sealed_cards = {}
        s.sealed_ops = ()
        knowledge.reset(s)
        run(s)
        return s

    def load_state(self, text: str, *, trusted: bool = False) -> State:
        """A state saved with ``State.to_json``.

        Anything that does not fit raises ``StateError``: another game, player count, options or
        version of the cardset (the save's fingerprint), a save that does not parse or hangs
        together, and -- unless ``trusted`` -- one that is not what its own seed and history give:
        the history is replayed and the state returned is the replayed one, so nothing edited in
        a save can reach play.  An arranged state (``State.arrange``) cannot be replayed, so it
        loads only with ``trusted=True``: load such saves only from a source you trust.
        """
        return state_from_json(State(self), text, trusted=trusted)

    def replay(self, seed: int, actions: Iterable[str]) -> State:
        """The state reached from ``seed`` by ``actions``; identical to the original."""
        state = self.new_game(seed)
        for i, action in enumerate(actions):
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise IllegalActionError(f"replay: action {i} ({action!r}) is not legal: {exc}") from None
        return state

    def __repr__(self) -> str:
        return f"<Game {self.cardset.name}, {self.players} players, options={self.options}>"


__all__ = ["Game", "Rules", "RuleError"]
