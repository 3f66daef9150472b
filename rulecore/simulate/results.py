"""What a simulation gives back: one ``GameRecord`` per game, and the statistics read from them
(``SimulationResult``: wins, ties, means; ``CardStats``: how each card type was used and how
often its users won)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def _card_stats(records: Sequence[GameRecord], players: int) -> tuple[CardStats, ...]:
    tracked = [r for r in records if r.card_uses is not None]
    if not tracked:
        return ()
    seat_wins = [0] * players
    for record in tracked:
        for seat in record.winners:
            seat_wins[seat] += 1
    seat_rate = [w / len(tracked) for w in seat_wins]
    total: dict[str, int] = {}
    games_used: dict[str, int] = {}
    pairs: dict[str, int] = {}
    pair_wins: dict[str, int] = {}
    expected: dict[str, float] = {}
    for record in tracked:
        for card, uses in record.card_uses or ():
            total[card] = total.get(card, 0) + sum(uses)
            if any(uses):
                games_used[card] = games_used.get(card, 0) + 1
            for seat, count in enumerate(uses):
                if count > 0 and seat < players:
                    pairs[card] = pairs.get(card, 0) + 1
                    pair_wins[card] = pair_wins.get(card, 0) + (seat in record.winners)
                    expected[card] = expected.get(card, 0.0) + seat_rate[seat]
    stats = [
        CardStats(
            card=card,
            uses_per_game=total[card] / len(tracked),
            used_share=games_used.get(card, 0) / len(tracked),
            games_used=games_used.get(card, 0),
            seat_games_used=pairs.get(card, 0),
            win_rate_when_used=pair_wins.get(card, 0) / pairs[card] if pairs.get(card) else 0.0,
            usual_win_rate=expected.get(card, 0.0) / pairs[card] if pairs.get(card) else 0.0,
        )
        for card in total
    ]
    stats.sort(key=lambda c: (-c.uses_per_game, c.card))
    return tuple(stats)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


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
    """

    cardset: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: Mapping[str, Any]
    records: tuple[GameRecord, ...]
    max_decisions: int = DEFAULT_MAX_DECISIONS
    wall_time: float = field(default=0.0, compare=False)
    options_in_force: Mapping[str, Any] = field(default_factory=dict)
    #: what the game calls a round ('hand', 'deal'; flow.rounds.label), for tables
    round_label: str = "round"

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> tuple[int, ...]:
        counts = [0] * self.players
        for record in self.records:
            for seat in record.winners:
                counts[seat] += 1
        return tuple(counts)

    @property
    def win_rates(self) -> tuple[float, ...]:
        return tuple(w / self.games if self.games else 0.0 for w in self.wins)

    @property
    def ties(self) -> int:
        return sum(1 for r in self.records if len(r.winners) > 1)

    @property
    def no_winner(self) -> int:
        return sum(1 for r in self.records if r.finished and not r.winners)

    @property
    def unfinished(self) -> int:
        return sum(1 for r in self.records if not r.finished)

    @property
    def cooperative(self) -> bool:
        """True when every finished game was won by all seats or by none (and one finished).

        Read from the records, not the rules: in such games the seats win or lose
        together, so per-seat win rates say nothing about seat advantages.
        """
        finished = [r for r in self.records if r.finished]
        everyone = set(range(self.players))
        return self.players > 1 and bool(finished) and all(
            not r.winners or set(r.winners) == everyone for r in finished
        )

    @property
    def team_win_rate(self) -> float | None:
        """Share of games that all seats won together, for a cooperative run; else None."""
        if not self.cooperative or not self.games:
            return None
        return sum(1 for r in self.records if r.finished and r.winners) / self.games

    @property
    def card_stats(self) -> tuple[CardStats, ...]:
        """Per-card statistics, most used first; empty if no game reports card uses."""
        return _card_stats(self.records, self.players)

    @property
    def mean_totals(self) -> tuple[float, ...] | None:
        """Mean final total per seat over games that report totals, else None."""
        scored = [r.totals for r in self.records if r.totals is not None]
        if not scored:
            return None
        return tuple(sum(t[s] for t in scored) / len(scored) for s in range(self.players))

    @property
    def mean_rounds(self) -> float | None:
        return _mean([r.rounds for r in self.records if r.rounds is not None])

    @property
    def mean_decisions(self) -> float:
        """Mean decisions per finished game (per game if none finished)."""
        finished = [r.decisions for r in self.records if r.finished]
        return _mean(finished or [r.decisions for r in self.records]) or 0.0

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
        if include_records:
            data["records"] = [r.to_dict() for r in self.records]
        if include_timings:
            data["wall_time"] = self.wall_time
            data["games_per_second"] = self.games_per_second
        return data
