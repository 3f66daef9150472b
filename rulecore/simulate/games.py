"""Playing the games of a run: one game between seated bots to a ``GameRecord`` (or a ``Failure``
that says how to replay it), a chunk of games, and the job that worker processes and distributed
backends receive as bytes and build their game from once per process.

Game ``i`` is played with seed ``seed + i``; the bot in each seat is seeded with ``bot_seed`` of
that game seed and the seat, so a game's outcome depends only on the job and its index.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import rulecore
from rulecore.bots import GameState, make_bot
from rulecore.bots.memory import collector_paused
from rulecore.bots.registry import choose

from .picks import PickCounter, pick_counter
from .results import GameRecord


class SimState(GameState, Protocol):
    """What a run asks of a game state besides what the bots ask: its history and its result."""

    @property
    def history(self) -> Sequence[str]: ...

    def result(self) -> Mapping[str, Any]: ...


class SimGame(Protocol):
    """A game a run can deal: ``rulecore.Game`` or a stand-in with ``new_game(seed)``."""

    def new_game(self, seed: int) -> SimState: ...


#: ``factory(cardset, players, options)``: the game a run plays (``default_factory`` unless given).
GameFactory = Callable[[Any, int, Mapping[str, Any]], SimGame]


class SimulationError(rulecore.RulecoreError):
    """A simulated game failed; carries what is needed to replay it."""

    def __init__(
        self,
        message: str,
        *,
        game_index: int,
        seed: int,
        actions: Sequence[str] = (),
        cause: str = "",
    ) -> None:
        super().__init__(message)
        self.game_index = game_index
        self.seed = seed
        self.actions = list(actions)
        self.cause = cause

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across processes
        return (
            _rebuild_simulation_error,
            (str(self), self.game_index, self.seed, self.actions, self.cause),
        )


def _rebuild_simulation_error(
    message: str, game_index: int, seed: int, actions: list[str], cause: str
) -> SimulationError:
    return SimulationError(
        message, game_index=game_index, seed=seed, actions=actions, cause=cause
    )


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game played with ``game_seed``."""
    digest = hashlib.blake2b(f"rulecore-bot:{game_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def default_factory(cardset: Any, players: int, options: Mapping[str, Any], roots: tuple[str, ...] = ()) -> SimGame:
    """``rulecore.Game`` of the loaded cardset, keeping no event log (a run reads only results)."""
    loaded = rulecore.load_cardset(cardset, roots=roots) if roots else rulecore.load_cardset(cardset)
    return rulecore.Game(loaded, players=players, options=dict(options), record_events=False)


@dataclass(frozen=True)
class Job:
    """Everything a process needs to play any game of the run, sent to workers as bytes."""

    cardset: Any
    players: int
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    seed: int
    max_decisions: int
    factory: GameFactory


@dataclass(frozen=True)
class Failure:
    """A game that raised a rule error: where, why, and the actions that replay it."""

    index: int
    seed: int
    message: str
    cause: str
    actions: tuple[str, ...]

    def error(self) -> SimulationError:
        return SimulationError(
            f"game {self.index} (seed {self.seed}) failed after {len(self.actions)} "
            f"decisions: {self.message}",
            game_index=self.index,
            seed=self.seed,
            actions=self.actions,
            cause=self.cause,
        )


#: What playing one game gives: its record, or how it failed.
Outcome = GameRecord | Failure


def pickled(job: Job) -> bytes:
    """The job as bytes for other processes; a clear error if it cannot travel."""
    try:
        return pickle.dumps(job)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise rulecore.RulecoreError(
            f"cannot send this simulation to worker processes ({exc}); the cardset "
            f"reference, options and game_factory must be picklable (a module-level "
            f"function, not a lambda), or run with workers=1"
        ) from exc


def build_game(job: Job) -> SimGame:
    """The game of ``job``, built by its factory."""
    return job.factory(job.cardset, job.players, job.options)


@functools.lru_cache(maxsize=4)
def cached_game(blob: bytes) -> tuple[Job, SimGame]:
    """Per-process cache: each worker builds the game (loads the cardset) once."""
    job: Job = pickle.loads(blob)
    return job, build_game(job)


def init_worker(blob: bytes) -> None:
    """Worker-pool initializer: build the game of the job once, before the first chunk."""
    cached_game(blob)


def play_one(game: SimGame, job: Job, index: int) -> Outcome:
    """Game ``index`` of the run, played by its seated bots to the end or to the decision limit, with
    Python's cyclic garbage collector paused until it ends (``bots.memory.collector_paused``: the
    collector runs between games, not over each game's thousands of short-lived lists and dicts)."""
    outcome: Outcome = collector_paused(_play_one, game, job, index)
    return outcome


def _play_one(game: SimGame, job: Job, index: int) -> Outcome:
    seed = job.seed + index
    state: SimState | None = None
    try:
        state = game.new_game(seed=seed)
        bots = [make_bot(name, bot_seed(seed, seat), user_bots=True) for seat, name in enumerate(job.bots)]
        picks = pick_counter(game, job.players)  # cards without abilities: a choice of a card is its use
        decisions = 0
        # a rulecore Game refuses actions past its action_limit: such a game is unfinished, as at max_decisions
        limit = getattr(game, "action_limit", None)
        stop = job.max_decisions if limit is None else min(job.max_decisions, limit - len(state.history))
        while not state.is_terminal():
            if decisions >= stop:
                return GameRecord(
                    index=index,
                    seed=seed,
                    winners=(),
                    totals=None,
                    rounds=None,
                    decisions=len(state.history),
                    finished=False,
                )
            seat = state.current_player
            if seat is None:
                raise rulecore.RulecoreError("no seat to move in an unfinished game")
            take_turn(state, bots[seat], job.bots[seat], seat, picks)
            decisions += 1
        result = state.result()
        winners = result.get("winners")
        if winners is None:
            winners = [s for s, r in enumerate(state.returns()) if r >= 1.0]
        totals = result.get("totals")
        rounds = result.get("rounds")
        return GameRecord(
            index=index,
            seed=seed,
            winners=tuple(int(w) for w in winners),
            totals=None if totals is None else tuple(totals),
            rounds=int(rounds) if rounds else None,  # 0: a game without rounds
            decisions=len(state.history),
            card_uses=card_uses(game, job.players, result.get("card_uses"), picks),
        )
    except rulecore.RulecoreError as exc:
        actions = tuple(state.history) if state is not None else ()
        return Failure(index, seed, f"{type(exc).__name__}: {exc}", type(exc).__name__, actions)


def take_turn(state: Any, bot: Any, name: str, seat: int, picks: PickCounter | None) -> None:
    """One decision of ``seat``'s bot applied: by position where both the state and the bot can
    (no label looked up: the same action), else by label; the chosen cards counted in ``picks``."""
    apply_index = getattr(state, "apply_index", None)  # a rulecore State: decisions by position
    if apply_index is not None and hasattr(bot, "choose_index"):
        choice = bot.choose_index(state)
        if picks is not None:
            picks.count_index(state, seat, choice)
        apply_index(choice)
    else:
        action = choose(bot, state, name)  # a user's bot that raises: one line
        if picks is not None:
            picks.count(state, seat, action)
        state.apply(action)


def card_uses(
    game: SimGame, players: int, uses: Mapping[str, Sequence[int]] | None, picks: PickCounter | None
) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    """A finished game's card uses as a record keeps them: ``(card type, uses per seat)`` sorted by card type,
    from the game's own count (``result()["card_uses"]``) with the cards the seats chose (``picks``, for a
    cardset whose cards have no abilities) over it, and every card type in play, those nobody used too.
    None when the game reports no card uses."""
    if uses is None:
        return None
    merged: dict[str, Sequence[int]] = {**{t: [0] * players for t in _card_types(game)}, **uses}
    if picks is not None:
        merged.update(picks.uses)
    return tuple(sorted((str(c), tuple(int(n) for n in v)) for c, v in merged.items()))


def _card_types(game: SimGame) -> tuple[str, ...]:
    """The card types in play in a rulecore game (after include_if), in the cardset's order; () for others."""
    types = getattr(getattr(game, "rules", None), "instance_type", None)  # a rulecore Game's, or a stand-in's
    return tuple(dict.fromkeys(types)) if isinstance(types, tuple) else ()


def _play_chunk(game: SimGame, job: Job, indices: Sequence[int]) -> list[Outcome]:
    """The games ``indices`` in order, stopping after the first that fails."""
    out: list[Outcome] = []
    for index in indices:
        outcome = play_one(game, job, index)
        out.append(outcome)
        if isinstance(outcome, Failure):
            break
    return out


def run_chunk_blob(blob: bytes, indices: Sequence[int]) -> list[Outcome]:
    """Task body for worker processes and distributed backends."""
    job, game = cached_game(blob)
    return _play_chunk(game, job, indices)

