"""The state's own random generator (SplitMix64): exact, portable, copyable."""

from __future__ import annotations

from collections import Counter

import pytest

import rulecore
from rulecore.engine.rng import Rng

MASK = (1 << 64) - 1


def test_splitmix64_reference_values():
    """Rng(0) yields the published SplitMix64 sequence (so games are identical on every platform)."""
    r = Rng(0)
    assert [r.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_state_is_one_64_bit_integer():
    """The generator's whole state is one 64-bit integer; seeds are masked to 64 bits."""
    assert Rng(-1).state == MASK
    assert Rng(1 << 64).state == 0
    r = Rng(5)
    r.next64()
    assert 0 <= r.state <= MASK


def test_same_seed_same_numbers_and_outputs_are_64_bit():
    """Two generators with one seed give the same numbers, all within 64 bits."""
    a, b = Rng(12345), Rng(12345)
    xs = [a.next64() for _ in range(100)]
    assert xs == [b.next64() for _ in range(100)]
    assert all(0 <= x <= MASK for x in xs)
    assert len(set(xs)) == 100
    assert [Rng(12346).next64() for _ in range(1)] != xs[:1]


def test_copy_is_independent():
    """copy() continues identically and does not advance the original."""
    a = Rng(7)
    a.next64()
    b = a.copy()
    assert b.state == a.state
    assert [b.next64() for _ in range(5)] == [a.next64() for _ in range(5)]
    b.next64()
    assert b.state != a.state


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 1000, (1 << 64) - 1])
def test_below_stays_in_range(n):
    """below(n) is always in [0, n)."""
    r = Rng(99)
    assert all(0 <= r.below(n) < n for _ in range(200))


def test_below_one_is_always_zero():
    """below(1) is 0."""
    r = Rng(3)
    assert {r.below(1) for _ in range(20)} == {0}


@pytest.mark.parametrize("n", [0, -3])
def test_below_needs_a_positive_bound(n):
    """below(0) or a negative bound raises ValueError."""
    with pytest.raises(ValueError):
        Rng(1).below(n)


def test_below_is_roughly_uniform():
    """Each of 6 values comes up about equally often (chi-square well under the 0.1% critical value)."""
    r = Rng(2024)
    n, draws = 6, 60_000
    counts = Counter(r.below(n) for _ in range(draws))
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert set(counts) == set(range(n))
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001


def test_shuffle_is_a_seeded_permutation():
    """shuffle() permutes in place; the same seed gives the same order."""
    items = list(range(20))
    a, b = items[:], items[:]
    Rng(4).shuffle(a)
    Rng(4).shuffle(b)
    assert a == b and sorted(a) == items and a != items


def test_shuffle_reaches_every_order_of_three():
    """Shuffling three items from many seeds reaches all 6 orders."""
    orders = set()
    for seed in range(200):
        xs = [0, 1, 2]
        Rng(seed).shuffle(xs)
        orders.add(tuple(xs))
    assert len(orders) == 6


def test_shuffle_of_short_lists():
    """Shuffling an empty or one-item list leaves it as it is and draws nothing."""
    r = Rng(8)
    before = r.state
    empty: list[int] = []
    one = [5]
    r.shuffle(empty)
    r.shuffle(one)
    assert empty == [] and one == [5] and r.state == before


def test_sample_picks_distinct_items():
    """sample(items, k) picks k distinct items; k above the size gives all; the input is not changed."""
    items = list("abcdefgh")
    r = Rng(11)
    pick = r.sample(items, 3)
    assert len(pick) == 3 and len(set(pick)) == 3 and set(pick) <= set(items)
    assert sorted(r.sample(items, 99)) == sorted(items)
    assert r.sample(items, 0) == [] and r.sample([], 2) == []
    assert items == list("abcdefgh")
    assert Rng(11).sample(items, 3) == pick


def test_game_randomness_depends_only_on_the_seed():
    """Two games with the same seed deal the same cards; different seeds deal differently."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 3)
    a, b = game.new_game(seed=42), game.new_game(seed=42)
    assert a.to_json() == b.to_json()
    hands = {tuple(game.new_game(seed=s).zones["hand/0"]) for s in range(5)}
    assert len(hands) == 5


def test_neighbouring_seeds_give_different_games():
    """Seeds 0 and 1 give different games, and each state remembers its seed."""
    game = rulecore.Game(rulecore.load_cardset("witching-hour"), 2)
    states = [game.new_game(seed=s).seed for s in range(3)]
    assert states == [0, 1, 2]
    r0 = game.new_game(seed=0).to_json()
    r1 = game.new_game(seed=1).to_json()
    assert r0 != r1


def test_expressions_use_only_the_states_generator(tiny):
    """random() draws from the state's generator: a clone draws the same, the global random module is not used."""
    import random

    body = "let c = choose card from deck by 0\nsay label(random(deck, 3))"
    s = tiny.run(body, seed=9)
    clone = s.clone()
    random.seed(1)
    s.apply("Apple")
    random.seed(2)
    clone.apply("Apple")
    assert tiny.says(s) == tiny.says(clone)
    assert s.rng.state == clone.rng.state
