"""What a simulation gives back: one ``GameRecord`` per game, added to a ``Tally`` (running
totals, so a run's memory does not grow with its number of games) as it arrives, and the
statistics read from the totals (``SimulationResult``: wins, ties, means; ``CardStats``: how each
card type was used and how often its users won).  Fed in game order, the sums are the same
whatever the backend or the number of workers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: A game still running after this many decisions is stopped and counted as unfinished
#: (bots can find loops that the rules allow, e.g. an ability that gives a card back).
DEFAULT_MAX_DECISIONS = 10_000


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one simulated game."""

    index: int
    seed: int
    winners: tuple[int, ...]
    totals: tuple[float, ...] | None
    rounds: int | None  # None: the game has no rounds (its result says 0 or nothing)
    decisions: int
    finished: bool = True  # False: stopped at the decision limit (no winners, totals, rounds)
    #: ``(card type, uses per seat)`` pairs sorted by card type, from ``result()["card_uses"]``;
    #: None when the game does not report card uses (or did not finish).
    card_uses: tuple[tuple[str, tuple[int, ...]], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "winners": list(self.winners),
            "totals": None if self.totals is None else list(self.totals),
            "rounds": self.rounds,
            "decisions": self.decisions,
            "finished": self.finished,
            "card_uses": None
            if self.card_uses is None
            else {card: list(uses) for card, uses in self.card_uses},
        }


@dataclass(frozen=True)
class CardStats:
    """How one card type was used over the games that report card uses.

    ``uses_per_game``: abilities of the card used, by all seats, per game.
    ``used_share``: share of games in which some seat used it.
    ``win_rate_when_used``: over every (game, seat) where that seat used the card,
    how often that seat won the game. ``usual_win_rate``: the same seats' overall
    win rates (over the same games), weighted the same way -- the rate to expect
    if using the card made no difference; compare the two.
    """

    card: str
    uses_per_game: float
    used_share: float
    games_used: int  # games in which some seat used it
    seat_games_used: int  # (game, seat) pairs in which that seat used it
    win_rate_when_used: float
    usual_win_rate: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "uses_per_game": self.uses_per_game,
            "used_share": self.used_share,
            "games_used": self.games_used,
            "seat_games_used": self.seat_games_used,
            "win_rate_when_used": self.win_rate_when_used,
            "usual_win_rate": self.usual_win_rate,
        }


@dataclass(frozen=True)
class Summary:
    """The statistics of a run, read from its running totals (see ``SimulationResult``)."""

    games: int
    wins: tuple[int, ...]
    ties: int
    no_winner: int
    unfinished: int
    cooperative: bool
    team_win_rate: float | None
    mean_totals: tuple[float, ...] | None
    mean_rounds: float | None
    mean_decisions: float
    card_stats: tuple[CardStats, ...]


class _CardTotals:
    """How one card type was used so far: uses, games, and (game, seat) pairs per seat."""

    __slots__ = ("uses", "games", "pairs", "pair_wins", "seat_pairs")

    def __init__(self, players: int) -> None:
        self.uses = 0
        self.games = 0
        self.pairs = 0
        self.pair_wins = 0
        self.seat_pairs = [0] * players


class Tally:
    """The running totals of a run's records; ``add`` them in game order, ``summary()`` at the end."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self._wins = [0] * players
        self._ties = 0
        self._no_winner = 0
        self._unfinished = 0
        self._finished = 0
        self._finished_decisions = 0
        self._all_decisions = 0
        self._team_wins = 0  # finished games with winners
        self._together = True  # every finished game so far won by every seat or by none
        self._totals: list[float] = [0] * players
        self._scored = 0
        self._rounds = 0
        self._rounded = 0
        self._tracked = 0  # games that report card uses
        self._tracked_wins = [0] * players
        self._cards: dict[str, _CardTotals] = {}

    def add(self, record: GameRecord) -> None:
        """Count one game's record."""
        self.games += 1
        for seat in record.winners:
            self._wins[seat] += 1
        if len(record.winners) > 1:
            self._ties += 1
        self._all_decisions += record.decisions
        if not record.finished:
            self._unfinished += 1
        else:
            self._finished += 1
            self._finished_decisions += record.decisions
            if record.winners:
                self._team_wins += 1
                if set(record.winners) != set(range(self.players)):
                    self._together = False
            else:
                self._no_winner += 1
        if record.totals is not None:
            self._scored += 1
            for seat in range(self.players):
                self._totals[seat] += record.totals[seat]
        if record.rounds is not None:
            self._rounded += 1
            self._rounds += record.rounds
        if record.card_uses is not None:
            self._add_card_uses(record)

    def add_all(self, records: Iterable[GameRecord]) -> Tally:
        """Count every record of ``records`` (in their order); returns this tally."""
        for record in records:
            self.add(record)
        return self

    def _add_card_uses(self, record: GameRecord) -> None:
        self._tracked += 1
        for seat in record.winners:
            self._tracked_wins[seat] += 1
        for card, uses in record.card_uses or ():
            totals = self._cards.get(card)
            if totals is None:
                totals = self._cards[card] = _CardTotals(self.players)
            totals.uses += sum(uses)
            if any(uses):
                totals.games += 1
            for seat, count in enumerate(uses):
                if count > 0 and seat < self.players:
                    totals.pairs += 1
                    totals.pair_wins += seat in record.winners
                    totals.seat_pairs[seat] += 1

    def _card_stats(self) -> tuple[CardStats, ...]:
        tracked = self._tracked
        if not tracked:
            return ()
        stats = []
        for card, t in self._cards.items():
            # the seats' overall win rates over the tracked games, weighted by their (game, seat) pairs
            expected = sum(n * w for n, w in zip(t.seat_pairs, self._tracked_wins))
            stats.append(
                CardStats(
                    card=card,
                    uses_per_game=t.uses / tracked,
                    used_share=t.games / tracked,
                    games_used=t.games,
                    seat_games_used=t.pairs,
                    win_rate_when_used=t.pair_wins / t.pairs if t.pairs else 0.0,
                    usual_win_rate=expected / (tracked * t.pairs) if t.pairs else 0.0,
                )
            )
        stats.sort(key=lambda c: (-c.uses_per_game, c.card))
        return tuple(stats)

    def summary(self) -> Summary:
        """What the totals say so far."""
        cooperative = self.players > 1 and self._finished > 0 and self._together
        if self._finished:
            mean_decisions = self._finished_decisions / self._finished
        else:
            mean_decisions = self._all_decisions / self.games if self.games else 0.0
        return Summary(
            games=self.games,
            wins=tuple(self._wins),
            ties=self._ties,
            no_winner=self._no_winner,
            unfinished=self._unfinished,
            cooperative=cooperative,
            team_win_rate=self._team_wins / self.games if cooperative and self.games else None,
            mean_totals=tuple(t / self._scored for t in self._totals) if self._scored else None,
            mean_rounds=self._rounds / self._rounded if self._rounded else None,
            mean_decisions=mean_decisions,
            card_stats=self._card_stats(),
        )


@dataclass(frozen=True)
class SimulationResult:
    """Aggregated results of :func:`simulate`.

    ``wins[s]`` counts every game seat ``s`` won; a tied game counts as a win
    for *every* tied winner (as ``returns()`` does), so wins can add up to more
    than ``games``; ``ties`` says how many games were tied and ``no_winner``
    how many finished games had no winner at all (e.g. a lost cooperative
    game). ``unfinished`` games hit the ``max_decisions`` limit; they count in
    ``games`` (so in win rates) but have no winners, totals or rounds and are
    left out of ``mean_decisions`` and ``card_stats``.

    ``options`` are the options given; ``options_in_force`` every option the
    game was played with, defaults included (the game's own ``options``).

    The statistics come from ``summary``, running totals kept as the games finished.
    ``records`` holds the per-game records only when asked for (``simulate(...,
    keep_records=True)``); built by hand from ``records`` alone, the summary is
    computed from them.
    """

    cardset: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: Mapping[str, Any]
    records: tuple[GameRecord, ...] = ()
    max_decisions: int = DEFAULT_MAX_DECISIONS
    wall_time: float = field(default=0.0, compare=False)
    options_in_force: Mapping[str, Any] = field(default_factory=dict)
    #: what the game calls a round ('hand', 'deal'; flow.rounds.label), for tables
    round_label: str = "round"
    summary: Summary | None = None

    def __post_init__(self) -> None:
        if self.summary is None:
            object.__setattr__(self, "summary", Tally(self.players).add_all(self.records).summary())

    @property
    def _summary(self) -> Summary:
        assert self.summary is not None  # set in __post_init__
        return self.summary

    @property
    def games(self) -> int:
        return self._summary.games

    @property
    def wins(self) -> tuple[int, ...]:
        return self._summary.wins

    @property
    def win_rates(self) -> tuple[float, ...]:
        return tuple(w / self.games if self.games else 0.0 for w in self.wins)

    @property
    def ties(self) -> int:
        return self._summary.ties

    @property
    def no_winner(self) -> int:
        return self._summary.no_winner

    @property
    def unfinished(self) -> int:
        return self._summary.unfinished

    @property
    def cooperative(self) -> bool:
        """True when every finished game was won by all seats or by none (and one finished).

        Read from the games, not the rules: in such games the seats win or lose
        together, so per-seat win rates say nothing about seat advantages.
        """
        return self._summary.cooperative

    @property
    def team_win_rate(self) -> float | None:
        """Share of games that all seats won together, for a cooperative run; else None."""
        return self._summary.team_win_rate

    @property
    def card_stats(self) -> tuple[CardStats, ...]:
        """Per-card statistics, most used first; empty if no game reports card uses."""
        return self._summary.card_stats

    @property
    def mean_totals(self) -> tuple[float, ...] | None:
        """Mean final total per seat over games that report totals, else None."""
        return self._summary.mean_totals

    @property
    def mean_rounds(self) -> float | None:
        return self._summary.mean_rounds

    @property
    def mean_decisions(self) -> float:
        """Mean decisions per finished game (per game if none finished)."""
        return self._summary.mean_decisions

    @property
    def games_per_second(self) -> float:
        return self.games / self.wall_time if self.wall_time > 0 else 0.0

    def to_dict(self, *, include_timings: bool = False, include_records: bool = True) -> dict[str, Any]:
        """A JSON-serialisable summary; deterministic unless ``include_timings``."""
        mean_totals = self.mean_totals
        data: dict[str, Any] = {
            "cardset": self.cardset,
            "players": self.players,
            "seed": self.seed,
            "bots": list(self.bots),
            "options": dict(self.options),
            "options_in_force": dict(self.options_in_force),
            "games": self.games,
            "wins": list(self.wins),
            "win_rates": list(self.win_rates),
            "ties": self.ties,
            "ties_counted_as": "a win for every tied winner",
            "no_winner": self.no_winner,
            "unfinished": self.unfinished,
            "max_decisions": self.max_decisions,
            "mean_totals": None if mean_totals is None else list(mean_totals),
            "mean_rounds": self.mean_rounds,
            "round_label": self.round_label,
            "mean_decisions": self.mean_decisions,
            "cooperative": self.cooperative,
            "team_win_rate": self.team_win_rate,
            "card_stats": [c.to_dict() for c in self.card_stats],
        }
        if include_records and self.records:
            data["records"] = [r.to_dict() for r in self.records]
        if include_timings:
            data["wall_time"] = self.wall_time
            data["games_per_second"] = self.games_per_second
        return data
