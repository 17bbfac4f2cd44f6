"""The banker's game of seed 002 (RULES §9): the inclusion-exclusion formula against brute-force
enumeration of small decks, against an exact value worked out apart from the engine, and against
a seeded simulation. The rules are 002 l.93 and l.130-136; the seeds give no odds."""

from __future__ import annotations

from fractions import Fraction

import pytest
from raspis.analysis.banker import (
    BankerGame,
    banker_summary,
    brute_force_distribution,
    expected_value,
    first_hit_distribution,
    first_hit_table,
    no_hit_probability,
    simulate,
    standard_game,
)

SMALL_GAMES = [
    BankerGame(deck_size=6, target_sizes=(2, 2, 2), hit_payoffs=(2, 1, 1)),
    BankerGame(deck_size=7, target_sizes=(1, 2, 2, 1), hit_payoffs=(2, 1, 1, 1)),
    BankerGame(deck_size=8, target_sizes=(2, 2, 2), hit_payoffs=(2, 1, 1)),  # odd cards left
    BankerGame(deck_size=8, target_sizes=(0, 3, 1, 2, 2), hit_payoffs=(2, 1, 1, 1, 1)),
    BankerGame(deck_size=9, target_sizes=(2, 3, 3, 1), hit_payoffs=(2, 1, 1, 1)),
]


@pytest.mark.parametrize("game", SMALL_GAMES)
def test_formula_equals_brute_force_enumeration(game: BankerGame) -> None:
    exact = first_hit_distribution(game)
    assert exact == brute_force_distribution(game)
    assert sum(exact) == 1
    assert all(isinstance(p, Fraction) for p in exact)


def test_standard_game_numbers() -> None:
    game = standard_game()
    distribution = first_hit_distribution(game)
    assert game.deck_size == 54 and game.calls == 14 and sum(game.target_sizes) == 54
    assert sum(distribution) == 1
    assert distribution[0] == Fraction(2, 54)  # either Joker turned first
    # first hit on call 2: an ace second, no Joker first: P(ace second) - P(Joker, then ace)
    assert distribution[1] == Fraction(4, 54) - Fraction(2, 54) * Fraction(4, 53)
    no_hit = distribution[-1]
    # worked out apart from the engine (002 l.93: 54 cards, 14 calls, Joker, ace, ..., two):
    # P(no hit) = sum_k (-1)^k r_k / (54 * 53 * ... * (55 - k)), r_k the sum over k calls of the
    # product of their target counts (2 Jokers, 4 of each rank)
    assert no_hit == Fraction(44188895470803668, 123566628628414125)
    value = expected_value(game)
    assert value == 2 * distribution[0] + (1 - no_hit - distribution[0]) - no_hit
    assert float(value) == pytest.approx(0.32181, abs=5e-6)
    assert no_hit_probability(game, 0) == 1


def test_without_jokers_the_first_call_never_hits() -> None:
    game = standard_game(jokers=0)
    distribution = first_hit_distribution(game)
    assert distribution[0] == 0 and game.deck_size == 52 and sum(distribution) == 1


def test_simulation_agrees_with_the_exact_odds() -> None:
    table = banker_summary(simulate_rounds=200_000, seed=3)
    for row in table.iter_rows(named=True):
        assert row["simulated_low"] <= row["exact"] <= row["simulated_high"], row["quantity"]
    result = simulate(standard_game(), 1000, seed=9)
    assert result == simulate(standard_game(), 1000, seed=9)  # seeded: the same counts
    assert sum(result.first_hit_counts) == 1000


def test_simulation_of_a_small_deck_covers_the_brute_force_answer() -> None:
    game = SMALL_GAMES[1]
    exact = brute_force_distribution(game)
    result = simulate(game, 100_000, seed=4)
    for count, p in zip(result.first_hit_counts, exact, strict=True):
        sd = (float(p) * (1 - float(p)) / 100_000) ** 0.5
        assert abs(count / 100_000 - float(p)) < 4 * sd + 1e-12


def test_first_hit_table_lists_every_call() -> None:
    table = first_hit_table()
    assert table["called"].to_list()[:3] == ["Joker", "A", "K"]
    assert table["called"][-1] == "no hit" and table.height == 15
    assert table["probability"].sum() == pytest.approx(1.0)


def test_bad_games_are_refused() -> None:
    with pytest.raises(ValueError):
        BankerGame(deck_size=5, target_sizes=(4, 4), hit_payoffs=(1, 1))
    with pytest.raises(ValueError):
        brute_force_distribution(standard_game())
