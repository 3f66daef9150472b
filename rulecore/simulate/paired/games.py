"""Playing the paired games of a comparison, in whatever process a backend runs them: game ``i`` of
the base side and game ``i`` of the variant side, both with seed ``seed + i`` and the same bot seeds
(:func:`rulecore.simulate.bot_seed`), each measured while it is played and reduced to a few scalars
(:class:`Measured`): who won, how long it took, the score margin, card uses, and the per-decision
figures (legal actions, the leader by the cardset's heuristic) boiled down to branching factor,
lead changes, decisiveness, drama and the winner's lead over time. Nothing per decision leaves the
worker.
"""

from __future__ import annotations

import functools
import pickle
import signal
from collections.abc import Sequence
from dataclasses import dataclass

import rulecore
from rulecore.bots import make_bot
from rulecore.bots.protocol import every_heuristic

from ..games import Failure, Job, SimGame, bot_seed, build_game, card_uses, take_turn
from ..picks import pick_counter

#: The lead-over-time curve: the share of decisions at which the eventual winner leads, in this many
#: equal slices of the game (by decisions).
LEAD_BINS = 10


@dataclass(frozen=True)
class Measured:
    """One game of one side, reduced to the scalars a comparison aggregates."""

    finished: bool
    winners: tuple[int, ...]
    decisions: int
    turns: int | None
    rounds: int | None
    totals: tuple[float, ...] | None
    #: ``(card type, uses per seat)``, sorted by card type; None when the game reports no card uses
    card_uses: tuple[tuple[str, tuple[int, ...]], ...] | None
    branching: float | None  # mean legal actions per decision
    lead_changes: int | None  # None: no heuristic, or the game did not finish
    decisiveness: float | None  # None: no single winner, or no heuristic
    drama: float | None
    winner_leads: tuple[float | None, ...] | None  # LEAD_BINS shares (None for an empty slice)


@dataclass(frozen=True)
class PairJob:
    """The two sides of a comparison, sent to worker processes as bytes."""

    base: Job
    variant: Job


#: One paired game: its index and each side's measurement (or how it failed).
PairOutcome = tuple[int, "Measured | Failure", "Measured | Failure"]


def _leaders(values: Sequence[float]) -> int:
    """Bit mask of the seats with the highest heuristic value."""
    top = max(values)
    mask = 0
    for seat, value in enumerate(values):
        if value >= top:
            mask |= 1 << seat
    return mask


def _lead_figures(
    masks: Sequence[int], winners: tuple[int, ...]
) -> tuple[int, float | None, float | None, tuple[float | None, ...] | None]:
    """Lead changes, decisiveness, drama and the lead curve from the leader masks after each decision."""
    changes, last = 0, -1
    for mask in masks:
        if mask & (mask - 1) == 0:  # one sole leader
            if last >= 0 and mask != last:
                changes += 1
            last = mask
    if len(winners) != 1 or not masks:
        return changes, None, None, None
    won = 1 << winners[0]
    n = len(masks)
    start = n  # the first decision from which the winner leads alone to the end
    for j in range(n - 1, -1, -1):
        if masks[j] != won:
            break
        start = j
    decisiveness = 1.0 - start / n
    drama = sum(1 for mask in masks if not mask & won) / n
    curve: list[float | None] = []
    for b in range(LEAD_BINS):
        part = masks[b * n // LEAD_BINS : (b + 1) * n // LEAD_BINS]
        curve.append(sum(1 for mask in part if mask == won) / len(part) if part else None)
    return changes, decisiveness, drama, tuple(curve)


def _has_heuristic(game: SimGame) -> bool:
    cardset = getattr(getattr(game, "rules", None), "cardset", None)
    return getattr(cardset, "heuristic", None) is not None


def play_measured(game: SimGame, job: Job, index: int) -> Measured | Failure:
    """Game ``index`` of ``job`` played as ``simulate`` plays it, measured decision by decision."""
    seed = job.seed + index
    state = None
    heuristic = _has_heuristic(game)
    try:
        state = game.new_game(seed=seed)
        bots = [make_bot(name, bot_seed(seed, seat), user_bots=True) for seat, name in enumerate(job.bots)]
        picks = pick_counter(game, job.players)  # cards without abilities: a choice of a card is its use
        limit = getattr(game, "action_limit", None)
        stop = job.max_decisions if limit is None else min(job.max_decisions, limit - len(state.history))
        legal = 0
        masks: list[int] = []
        decisions = 0
        while not state.is_terminal():
            if decisions >= stop:
                return Measured(False, (), len(state.history), None, None, None, None,
                                legal / decisions if decisions else None, None, None, None, None)
            seat = state.current_player
            if seat is None:
                raise rulecore.RulecoreError("no seat to move in an unfinished game")
            legal += len(state.legal_actions())
            take_turn(state, bots[seat], job.bots[seat], seat, picks)
            decisions += 1
            if heuristic:
                masks.append(_leaders(every_heuristic(state, job.players)))
        result = state.result()
        winners = result.get("winners")
        if winners is None:
            winners = [s for s, r in enumerate(state.returns()) if r >= 1.0]
        won = tuple(int(w) for w in winners)
        totals = result.get("totals")
        rounds = result.get("rounds")
        turns = result.get("turns")
        changes, decisive, drama, curve = _lead_figures(masks, won) if heuristic else (None, None, None, None)
        return Measured(
            finished=True,
            winners=won,
            decisions=len(state.history),
            turns=int(turns) if turns is not None else None,
            rounds=int(rounds) if rounds else None,
            totals=None if totals is None else tuple(float(t) for t in totals),
            card_uses=card_uses(game, job.players, result.get("card_uses"), picks),
            branching=legal / decisions if decisions else None,
            lead_changes=changes,
            decisiveness=decisive,
            drama=drama,
            winner_leads=curve,
        )
    except rulecore.RulecoreError as exc:
        actions = tuple(state.history) if state is not None else ()
        return Failure(index, seed, f"{type(exc).__name__}: {exc}", type(exc).__name__, actions)


@functools.lru_cache(maxsize=2)
def cached_pair(blob: bytes) -> tuple[PairJob, SimGame, SimGame]:
    """Per-process cache: each worker builds both games (loads both cardsets) once."""
    job: PairJob = pickle.loads(blob)
    return job, build_game(job.base), build_game(job.variant)


def init_pair_worker(blob: bytes) -> None:
    """Worker-pool initializer: build both games before the first chunk. Ctrl-C at a terminal reaches the
    whole process group: a worker ignores it, and the main process stops the workers itself (no traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    cached_pair(blob)


def play_pairs(job: PairJob, base: SimGame, variant: SimGame, indices: Sequence[int]) -> list[PairOutcome]:
    """The paired games ``indices``, in order, stopping after the first pair with a failure."""
    out: list[PairOutcome] = []
    for index in indices:
        pair = (index, play_measured(base, job.base, index), play_measured(variant, job.variant, index))
        out.append(pair)
        if isinstance(pair[1], Failure) or isinstance(pair[2], Failure):
            break
    return out


def run_pair_chunk(blob: bytes, indices: Sequence[int]) -> list[PairOutcome]:
    """Task body for worker processes and distributed backends."""
    job, base, variant = cached_pair(blob)
    return play_pairs(job, base, variant, list(indices))
