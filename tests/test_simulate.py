"""simulate(): seeding, aggregation, worker-count independence, backends and failures (fake game)."""

from __future__ import annotations

import json
import multiprocessing
import re
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import fakegame
import rulecore
from rulecore.simulate import GameRecord, SimulationError, SimulationResult, bot_seed, simulate


def run(**kwargs: Any) -> SimulationResult:
    args: dict[str, Any] = dict(
        cardset=fakegame.NAME,
        games=12,
        players=3,
        seed=5,
        bots=("random", "greedy", "oracle"),
        workers=1,
        game_factory=fakegame.make_game,
        keep_records=True,
    )
    args.update(kwargs)
    return simulate(**args)


def test_results_identical_for_one_and_two_workers() -> None:
    """A run gives the same deterministic results in-process and in a 2-process pool."""
    one = run(workers=1)
    two = run(workers=2)
    assert one.to_dict() == two.to_dict()
    assert one == two  # timings are excluded from comparison


def test_same_seed_same_result_and_seeds_matter() -> None:
    """Repeating a run reproduces it; a different base seed changes the games."""
    assert run().to_dict() == run().to_dict()
    assert run().to_dict()["records"] != run(seed=500).to_dict()["records"]


def test_game_i_uses_seed_plus_i() -> None:
    """Record i was played with game seed seed + i."""
    result = run(games=6, seed=100)
    assert [r.seed for r in result.records] == list(range(100, 106))
    assert [r.index for r in result.records] == list(range(6))


def test_bot_seeds_are_derived_per_game_and_seat() -> None:
    """Bot seeds are stable functions of (game seed, seat) and differ between seats."""
    assert bot_seed(7, 0) == bot_seed(7, 0)
    assert len({bot_seed(7, s) for s in range(4)} | {bot_seed(8, 0)}) == 5


def test_aggregates_match_records() -> None:
    """Wins, mean totals, rounds and decisions are computed from the per-game records."""
    result = run(games=20, bots="random", options={"heap": 15})
    assert result.games == 20
    assert sum(result.wins) == 20 and result.ties == 0  # Nim has exactly one winner
    for seat in range(3):
        assert result.wins[seat] == sum(1 for r in result.records if seat in r.winners)
    assert result.mean_totals is not None
    assert sum(result.mean_totals) == pytest.approx(15.0)
    assert result.mean_decisions == pytest.approx(sum(r.decisions for r in result.records) / 20)
    assert result.mean_rounds == pytest.approx(sum(r.rounds or 0 for r in result.records) / 20)
    assert result.games_per_second > 0


def test_to_dict_is_json_and_excludes_timings_by_default() -> None:
    """to_dict() is JSON-serialisable, deterministic, and adds timings only on request."""
    result = run(games=3)
    plain = result.to_dict()
    json.dumps(plain)
    assert "games_per_second" not in plain and "wall_time" not in plain
    assert plain["ties_counted_as"] == "a win for every tied winner"
    timed = result.to_dict(include_timings=True, include_records=False)
    assert "games_per_second" in timed and "records" not in timed


def test_progress_reports_every_game() -> None:
    """The progress callback starts at 0 and ends at (games, games)."""
    calls: list[tuple[int, int]] = []
    run(games=4, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 4) and calls[-1] == (4, 4)


def test_progress_may_stop_a_pool_run() -> None:
    """A progress callback that raises stops a run on a process pool, and no worker process is left."""
    calls: list[int] = []

    def stop_on_third_call(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(games=20_000, workers=2, progress=stop_on_third_call)
    assert len(calls) == 3
    assert not multiprocessing.active_children()


@pytest.mark.parametrize(
    "kwargs, text",
    [
        ({"bots": ("random", "random")}, "2 bots given for 3 players"),
        ({"bots": ("random", "clever", "random")}, "clever"),
        ({"games": 0}, "games"),
        ({"backend": "spark"}, "valid backends"),
        ({"options": {"nosuch": 1}}, "nosuch"),
        ({"players": 9}, "players"),
    ],
)
def test_bad_arguments_raise_rulecore_error(kwargs: dict[str, Any], text: str) -> None:
    """Bad bots, counts, backends, options and player counts raise a RulecoreError."""
    with pytest.raises(rulecore.RulecoreError, match=text):
        run(**kwargs)


def test_unpicklable_factory_with_workers_is_a_clear_error() -> None:
    """A lambda game_factory cannot reach worker processes: RulecoreError says so."""
    with pytest.raises(rulecore.RulecoreError, match="picklable"):
        run(workers=2, game_factory=lambda c, p, o: fakegame.make_game(c, p, o))


@pytest.mark.parametrize("workers", [1, 2])
def test_failing_game_names_the_lowest_failing_seed(workers: int) -> None:
    """A rule error in a game becomes a SimulationError with that game's seed and actions."""
    with pytest.raises(SimulationError) as info:
        run(games=10, seed=0, bots="random", workers=workers, options={"broken_seed": 6})
    error = info.value
    assert error.seed == 6 and error.game_index == 6
    assert len(error.actions) == 2 and error.cause == "RuleError"
    assert "seed 6" in str(error)


def test_endless_game_is_cut_off_and_counted() -> None:
    """A game still running after max_decisions is stopped and counted as unfinished."""
    result = run(games=3, bots="random", max_decisions=2, options={"heap": 30})
    assert result.unfinished == 3 and sum(result.wins) == 0
    assert all(not r.finished and r.decisions == 2 for r in result.records)
    assert result.mean_totals is None and result.to_dict()["unfinished"] == 3


def _record(index: int, winners: tuple[int, ...], uses: dict[str, tuple[int, ...]] | None,
            finished: bool = True) -> GameRecord:
    return GameRecord(index=index, seed=index, winners=winners, totals=None, rounds=1,
                      decisions=5, finished=finished,
                      card_uses=None if uses is None else tuple(sorted(uses.items())))


def test_card_stats_aggregate_hand_made_records() -> None:
    """Uses per game, share of games used, win % when used and the users' usual win % add up by hand."""
    records = (
        _record(0, (0,), {"a": (2, 0), "b": (0, 1)}),
        _record(1, (1,), {"a": (1, 1), "b": (0, 0)}),
        _record(2, (1,), {"a": (0, 0), "b": (3, 0)}),
        _record(3, (), None, finished=False),  # no card uses: left out of every card statistic
    )
    result = SimulationResult(cardset="t", players=2, seed=0, bots=("random",) * 2,
                              options={}, records=records)
    a, b = result.card_stats
    assert (a.card, b.card) == ("a", "b")  # equal uses per game: by name
    assert a.uses_per_game == pytest.approx(4 / 3) and b.uses_per_game == pytest.approx(4 / 3)
    assert a.used_share == pytest.approx(2 / 3) and a.games_used == 2
    # a: used by seat 0 in games 0 (won) and 1 (lost), by seat 1 in game 1 (won)
    assert a.seat_games_used == 3 and a.win_rate_when_used == pytest.approx(2 / 3)
    assert a.usual_win_rate == pytest.approx((1 / 3 + 1 / 3 + 2 / 3) / 3)
    # b: used by seat 1 in game 0 (lost) and seat 0 in game 2 (lost)
    assert b.win_rate_when_used == 0.0 and b.usual_win_rate == pytest.approx((2 / 3 + 1 / 3) / 2)
    assert result.to_dict()["card_stats"][0]["card"] == "a"


def test_card_stats_from_a_game_reporting_card_uses() -> None:
    """The fake game's card_uses reach the records and the per-card statistics, most used first."""
    result = run(games=15, bots="random", options={"cards": True})
    for record in result.records:
        assert record.card_uses is not None
        assert sum(sum(uses) for _, uses in record.card_uses) == record.decisions
    stats = result.card_stats
    assert [c.uses_per_game for c in stats] == sorted((c.uses_per_game for c in stats), reverse=True)
    assert sum(c.uses_per_game for c in stats) == pytest.approx(result.mean_decisions)
    assert all(0.0 <= c.used_share <= 1.0 and 0.0 <= c.win_rate_when_used <= 1.0 for c in stats)
    plain = run(games=3)
    assert plain.card_stats == () and plain.to_dict()["card_stats"] == []


def test_card_stats_list_every_card_type_in_play() -> None:
    """Per-card statistics cover every card type in the game, those without abilities (never used) too."""
    result = simulate("docs/examples/tiny-game.yaml", games=4, players=2, seed=3, workers=1)
    in_play = {"one", "two", "three", "four", "five", "spy"}  # the thief is only in games of 3 or more
    assert {c.card for c in result.card_stats} == in_play
    unused = {c.card: c for c in result.card_stats if c.card != "spy"}
    assert all(c.uses_per_game == 0 and c.used_share == 0 for c in unused.values())


def test_card_stats_count_chosen_cards_when_no_card_has_abilities() -> None:
    """In a cardset whose cards have no abilities, each card a seat chose (a card played from a menu) counts as its use."""
    result = simulate("docs/examples/trick-taking.yaml", games=2, players=4, seed=1, workers=1)
    for record in result.records:  # every decision of this game is a card played; 52 cards, 13 tricks
        assert record.card_uses is not None and len(record.card_uses) == 52
        assert sum(sum(uses) for _, uses in record.card_uses) == record.decisions == 104  # two hands
        assert all(sum(uses) == 2 for _, uses in record.card_uses)  # each card played once a hand
    assert len(result.card_stats) == 52 and all(c.uses_per_game == 2 for c in result.card_stats)


def test_card_stats_same_seed_same_numbers_any_workers() -> None:
    """Card statistics repeat for the same seed, with one worker or two."""
    first = run(options={"cards": True}).to_dict()
    assert first["card_stats"]
    assert first == run(options={"cards": True}).to_dict()
    assert first == run(options={"cards": True}, workers=2).to_dict()
    assert first["card_stats"] != run(options={"cards": True}, seed=77).to_dict()["card_stats"]


def test_cooperative_run_is_detected_from_the_records() -> None:
    """All-or-nobody winners in every finished game make a run cooperative with a team win rate."""
    coop = run(games=20, bots="random", options={"coop": True})
    assert coop.cooperative
    won = sum(1 for r in coop.records if r.winners)
    assert 0 < won < 20  # both outcomes occur, so the check is not vacuous
    assert coop.team_win_rate == pytest.approx(won / 20)
    assert coop.to_dict()["cooperative"] is True
    normal = run(games=20, bots="random")
    assert not normal.cooperative and normal.team_win_rate is None


def test_options_in_force_include_defaults() -> None:
    """options are the ones given; options_in_force add the game's defaults."""
    result = run(games=2, options={"heap": 7})
    assert result.options == {"heap": 7}
    assert result.options_in_force == {
        "heap": 7, "max_take": 3, "bonus": False, "broken_seed": -1, "cards": False, "coop": False
    }
    assert result.to_dict()["options_in_force"]["max_take"] == 3


@pytest.mark.parametrize("backend", ["ray", "dask"])
def test_missing_distributed_backend_is_a_clear_error(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asking for ray/dask when it is not installed raises RulecoreError naming the extra to install."""
    monkeypatch.setitem(sys.modules, backend, None)  # makes `import backend` fail
    if backend == "dask":
        monkeypatch.setitem(sys.modules, "distributed", None)  # the dask backend runs on distributed
    with pytest.raises(rulecore.RulecoreError, match=re.escape(f"pip install 'rulecore[{backend}]'")):
        run(backend=backend)


def test_missing_dask_advice_brings_the_distributed_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dask backend's install advice brings `distributed` (the extra and 'dask[distributed]'), never a bare dask."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(rulecore.RulecoreError) as caught:
        run(backend="dask")
    message = str(caught.value)
    assert "pip install 'dask[distributed]'" in message
    assert not re.search(r"pip install '?dask'?(?![\[\w])", message)
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dask = \[[^\]]*"dask\[distributed\]', pyproject, re.MULTILINE)  # the extra it names


def _fake_ray() -> types.ModuleType:
    module = types.ModuleType("ray")

    class Remote:
        def __init__(self, fn: Callable[..., Any]) -> None:
            self.fn = fn

        def remote(self, *args: Any) -> Any:
            return ("ref", self.fn(*args))

    module.is_initialized = lambda: False  # type: ignore[attr-defined]
    module.init = lambda **kw: None  # type: ignore[attr-defined]
    module.remote = Remote  # type: ignore[attr-defined]
    module.get = lambda ref: ref[1]  # type: ignore[attr-defined]
    module.cancel = lambda ref: None  # type: ignore[attr-defined]
    return module


class _FakeFuture:
    def __init__(self, value: Any) -> None:
        self.value = value
        self.cancelled = False

    def result(self) -> Any:
        return self.value

    def cancel(self) -> None:
        self.cancelled = True


def _fake_distributed(connected: bool, made: list[str]) -> types.ModuleType:
    """A stand-in for dask.distributed: a Client runs tasks at once, finished in reverse order."""
    module = types.ModuleType("distributed")

    class Client:
        def __init__(self, cluster: Any = None) -> None:
            made.append("client")

        def scatter(self, data: Any, broadcast: bool = False) -> Any:
            return data

        def submit(self, fn: Callable[..., Any], *args: Any, pure: bool = True) -> _FakeFuture:
            return _FakeFuture(fn(*args))

        def close(self) -> None:
            made.append("client closed")

    class LocalCluster:
        def __init__(self, n_workers: int, threads_per_worker: int, processes: bool) -> None:
            made.append(f"cluster of {n_workers}")

        def close(self) -> None:
            made.append("cluster closed")

    def get_client() -> Client:
        if not connected:
            raise ValueError("No clients found")
        return Client()

    module.get_client = get_client  # type: ignore[attr-defined]
    module.Client = Client  # type: ignore[attr-defined]
    module.LocalCluster = LocalCluster  # type: ignore[attr-defined]
    module.as_completed = lambda futures: list(reversed(futures))  # type: ignore[attr-defined]
    return module


def test_ray_backend_gives_local_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ray code path produces the same results as the local backend."""
    monkeypatch.setitem(sys.modules, "ray", _fake_ray())
    assert run(backend="ray").to_dict() == run().to_dict()


@pytest.mark.parametrize("connected", [True, False])
def test_dask_backend_gives_local_results_on_a_client_or_its_own_local_cluster(
    connected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """backend='dask' uses the connected distributed Client, else starts and closes a LocalCluster;
    results equal the local backend's whatever order chunks finish in."""
    made: list[str] = []
    monkeypatch.setitem(sys.modules, "distributed", _fake_distributed(connected, made))
    assert run(backend="dask", games=40, workers=2).to_dict() == run(games=40).to_dict()
    if connected:
        assert made == ["client"]
    else:
        assert made == ["cluster of 2", "client", "client closed", "cluster closed"]


# ---------------------------------------------------------------- the real engine

REAL = "witching-hour"
needs_real = pytest.mark.skipif(
    REAL not in rulecore.builtin_cardsets(), reason="built-in cardset not available"
)


@pytest.mark.slow
@needs_real
def test_real_game_identical_for_one_and_two_workers() -> None:
    """A few real Witching Hour games give identical results in-process and with 2 workers."""
    args: dict[str, Any] = dict(games=4, players=3, seed=9, bots=("random", "greedy", "random"))
    one = simulate(REAL, workers=1, keep_records=True, **args)
    two = simulate(REAL, workers=2, keep_records=True, **args)
    assert one.to_dict() == two.to_dict()
    assert one.cardset == REAL
    assert one.mean_totals is not None and one.mean_rounds is not None
    assert all(r.decisions > 0 and r.winners for r in one.records)


@needs_real
def test_real_game_reports_card_stats() -> None:
    """Witching Hour reports card uses, so a run has per-card statistics."""
    result = simulate(REAL, games=3, players=3, seed=2, workers=1, keep_records=True)
    assert result.card_stats and not result.cooperative
    assert all(r.card_uses is not None for r in result.records)


@needs_real
def test_real_game_records_keep_their_game_index() -> None:
    """A real game played by index (apply_index) records its own game index, not a bot's last choice."""
    result = simulate(REAL, games=3, players=3, seed=2, workers=1, keep_records=True)
    assert [(r.index, r.seed) for r in result.records] == [(0, 2), (1, 3), (2, 4)]


@needs_real
def test_real_game_bad_player_count_is_a_rulecore_error() -> None:
    """The engine's player-count check reaches the caller as a RulecoreError."""
    with pytest.raises(rulecore.RulecoreError, match="players"):
        simulate(REAL, games=1, players=9, workers=1)


def test_simulate_takes_a_users_bot(tmp_path, monkeypatch) -> None:
    """simulate(bots=...) builds module:attr bots with each seat's seed and records their name."""
    (tmp_path / "sim_user_bots.py").write_text(
        "def last_choice(seed):\n"
        "    class Last:\n"
        "        def choose(self, state):\n"
        "            return state.legal_actions()[-1]\n"
        "    return Last()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = run(bots=("sim_user_bots:last_choice", "random", "random"))
    assert result.to_dict()["bots"][0] == "sim_user_bots:last_choice"
    assert result.games == 12


def test_dask_backend_reports_a_failing_game_as_the_local_backend_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing game on the dask backend is the same SimulationError (seed, actions) as on the local one,
    even when the chunks after it finish first."""
    monkeypatch.setitem(sys.modules, "distributed", _fake_distributed(True, []))
    with pytest.raises(SimulationError) as info:
        run(backend="dask", games=10, seed=0, bots="random", options={"broken_seed": 6})
    with pytest.raises(SimulationError) as local:
        run(games=10, seed=0, bots="random", options={"broken_seed": 6})
    assert info.value.seed == local.value.seed == 6
    assert info.value.actions == local.value.actions


def test_records_are_not_kept_unless_asked_and_stream_in_game_order() -> None:
    """By default a result keeps no per-game records; on_record gets each one, in game order, the same at 1 and 2 workers."""
    seen: dict[int, list[GameRecord]] = {1: [], 2: []}
    plain = {w: run(games=40, workers=w, keep_records=False, on_record=seen[w].append) for w in (1, 2)}
    kept = run(games=40)
    assert plain[1].records == () and plain[2].records == ()
    assert seen[1] == seen[2] == list(kept.records)
    assert [r.index for r in seen[1]] == list(range(40))
    assert plain[1].to_dict() == plain[2].to_dict() == kept.to_dict(include_records=False)


class _Stop(Exception):
    """Raised by a progress callback to end a run early."""


def test_a_pool_queues_a_few_chunks_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of many games on a pool submits a few chunks per worker, not every chunk up front (memory flat at -n 10^9)."""
    import concurrent.futures

    import rulecore.simulate.backends as backends

    submitted: list[int] = []

    class Counting(concurrent.futures.ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            submitted.append(1)
            return super().submit(*args, **kwargs)

    def stop(done: int, total: int) -> None:
        if done > 0:
            raise _Stop()

    monkeypatch.setattr(backends, "ProcessPoolExecutor", Counting)
    with pytest.raises(_Stop):
        run(games=100_000, workers=2, progress=stop, keep_records=False)
    assert 0 < len(submitted) <= 2 * 4 + 2 * 4  # the window, refilled once or twice before the first report
