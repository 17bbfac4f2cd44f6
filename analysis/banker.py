"""The banker's guessing game of RULES §9 (seed 002): exact odds and a seeded simulation.

The deck is 52 cards and two Jokers (54). The banker turns 14 cards one at a time calling Joker,
ace, king, queen, jack, 10, 9, ..., 2 in that order; call i *hits* when the i-th turned card has the
called rank (either Joker answers the first call). The first hit ends the round and wins every stake
(a hit on the first call, the Joker, wins double stakes); with no hit in 14 calls the banker pays
every stake and the bank passes left.

Exact odds (``first_hit_distribution``): the target sets of the calls are disjoint (2 Jokers, then
4 cards of each rank), so the chance that a given set S of calls all hit is Π_{i∈S} t_i /
N(N-1)...(N-|S|+1) (t_i the size of call i's target set, N the deck). By inclusion-exclusion, with
e_m the elementary symmetric polynomial of degree m of t_1..t_k,

    P(no hit in the first k calls) = Σ_m (-1)^m · e_m(t_1..t_k) / (N)_m,

and P(first hit at call k) = P(no hit in k-1 calls) - P(no hit in k calls). Everything is an exact
``Fraction``. ``brute_force_distribution`` enumerates every ordering of a small deck to check the
formula independently; ``simulate`` deals shuffled decks with numpy.

The banker's value per unit staked by each player: +2 on a Joker hit at the first call, +1 on any
other hit, -1 when no call hits. A banker keeps the bank until a round without a hit, so the
expected number of rounds he banks is 1 / P(no hit).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import polars as pl

from .intervals import LEVEL, normal_quantile, wilson_interval

CALL_NAMES = ("Joker", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


@dataclass(frozen=True)
class BankerGame:
    """A banker's game: the deck size, the size of each call's target set (in call order) and the
    payoff of a hit per call (the banker's gain per unit stake); a round without a hit pays
    ``miss_payoff``."""

    deck_size: int
    target_sizes: tuple[int, ...]
    hit_payoffs: tuple[int, ...]
    miss_payoff: int = -1

    def __post_init__(self) -> None:
        if len(self.hit_payoffs) != len(self.target_sizes):
            raise ValueError("one hit payoff per call")
        if sum(self.target_sizes) > self.deck_size or len(self.target_sizes) > self.deck_size:
            raise ValueError("the calls' target sets do not fit in the deck")
        if any(size < 0 for size in self.target_sizes):
            raise ValueError("target sizes must be >= 0")

    @property
    def calls(self) -> int:
        """Number of calls (cards turned at most)."""
        return len(self.target_sizes)

    def deck(self) -> np.ndarray:
        """The deck as call labels: card -> the call it answers (0-based), or -1 for none."""
        labels = [call for call, size in enumerate(self.target_sizes) for _ in range(size)]
        return np.array(labels + [-1] * (self.deck_size - len(labels)), dtype=np.int16)


def standard_game(jokers: int = 2, double_joker: bool = True) -> BankerGame:
    """The game of seed 002: 52 cards + ``jokers`` Jokers, 14 calls Joker, A, K, ..., 2; a Joker
    hit pays double (``double_joker``), any other hit the stake, no hit costs the stake."""
    if jokers < 0:
        raise ValueError("jokers must be >= 0")
    sizes = (jokers,) + (4,) * 13
    payoffs = (2 if double_joker else 1,) + (1,) * 13
    return BankerGame(deck_size=52 + jokers, target_sizes=sizes, hit_payoffs=payoffs)


def _elementary_symmetric(values: Sequence[int]) -> list[int]:
    coefficients = [1]
    for value in values:
        coefficients = [
            a + value * b for a, b in zip(coefficients + [0], [0] + coefficients, strict=True)
        ]
    return coefficients


def _falling(n: int, m: int) -> int:
    return math.perm(n, m)


def no_hit_probability(game: BankerGame, calls: int | None = None) -> Fraction:
    """Exact P(no hit in the first ``calls`` calls) by inclusion-exclusion (module doc)."""
    k = game.calls if calls is None else calls
    e = _elementary_symmetric(game.target_sizes[:k])
    return sum(
        (Fraction((-1) ** m * e[m], _falling(game.deck_size, m)) for m in range(len(e))),
        Fraction(0),
    )


def first_hit_distribution(game: BankerGame) -> list[Fraction]:
    """Exact P(first hit at call i) for each call, then P(no hit) last (they sum to 1)."""
    survival = [no_hit_probability(game, k) for k in range(game.calls + 1)]
    return [survival[k] - survival[k + 1] for k in range(game.calls)] + [survival[-1]]


def expected_value(game: BankerGame, distribution: Sequence[Fraction] | None = None) -> Fraction:
    """The banker's exact expected gain per unit staked by each player."""
    probabilities = list(distribution) if distribution is not None else first_hit_distribution(game)
    payoffs = [*game.hit_payoffs, game.miss_payoff]
    return sum(
        (Fraction(payoff) * p for payoff, p in zip(payoffs, probabilities, strict=True)),
        Fraction(0),
    )


def brute_force_distribution(game: BankerGame) -> list[Fraction]:
    """The distribution of ``first_hit_distribution`` by enumerating every ordering of the deck
    (cards told apart), for small decks only (at most 10 cards)."""
    if game.deck_size > 10:
        raise ValueError("brute force is for decks of at most 10 cards")
    labels = game.deck().tolist()
    counts = [0] * (game.calls + 1)
    total = 0
    for order in itertools.permutations(range(game.deck_size)):
        total += 1
        for call in range(game.calls):
            if labels[order[call]] == call:
                counts[call] += 1
                break
        else:
            counts[-1] += 1
    return [Fraction(count, total) for count in counts]


@dataclass(frozen=True)
class Simulation:
    """A seeded simulation's counts: rounds, rounds by first-hit call (last: no hit), and the
    banker's gain summed and squared-summed."""

    rounds: int
    first_hit_counts: tuple[int, ...]
    gain_sum: int
    gain_sq_sum: int


def simulate(game: BankerGame, rounds: int, seed: int = 0, batch: int = 200_000) -> Simulation:
    """Shuffle the deck ``rounds`` times (numpy, seeded) and count where the first hit falls."""
    if rounds < 1:
        raise ValueError("simulate at least one round")
    generator = np.random.default_rng(seed)
    deck = game.deck()
    calls = np.arange(game.calls)
    payoffs = np.array([*game.hit_payoffs, game.miss_payoff], dtype=np.int64)
    counts = np.zeros(game.calls + 1, dtype=np.int64)
    done = 0
    while done < rounds:
        size = min(batch, rounds - done)
        shuffled = generator.permuted(np.broadcast_to(deck, (size, deck.size)), axis=1)
        hits = shuffled[:, : game.calls] == calls
        first = np.where(hits.any(axis=1), hits.argmax(axis=1), game.calls)
        counts += np.bincount(first, minlength=game.calls + 1)
        done += size
    gains = payoffs * counts
    return Simulation(
        rounds=rounds,
        first_hit_counts=tuple(int(c) for c in counts),
        gain_sum=int(gains.sum()),
        gain_sq_sum=int((payoffs * payoffs * counts).sum()),
    )


def banker_summary(
    game: BankerGame | None = None, simulate_rounds: int = 0, seed: int = 0, level: float = LEVEL
) -> pl.DataFrame:
    """The headline numbers, exact and (with ``simulate_rounds``) simulated with ``level``
    intervals: P(at least one hit), P(no hit), P(Joker hit on the first call), the banker's expected
    value per unit stake, and the expected rounds a banker keeps the bank."""
    game = game or standard_game()
    distribution = first_hit_distribution(game)
    no_hit = distribution[-1]
    first = distribution[0]
    value = expected_value(game, distribution)
    rows: list[dict[str, object]] = [
        {"quantity": "P(at least one hit)", "exact": 1 - no_hit},
        {"quantity": "P(no hit)", "exact": no_hit},
        {"quantity": f"P(hit on call 1, {CALL_NAMES[0] if game.calls else ''})", "exact": first},
        {"quantity": "banker EV per unit stake", "exact": value},
        {"quantity": "expected rounds banked", "exact": 1 / no_hit if no_hit else None},
    ]
    simulated: list[tuple[float, float, float]] = [(math.nan,) * 3] * len(rows)  # type: ignore[list-item]
    if simulate_rounds:
        result = simulate(game, simulate_rounds, seed)
        n = result.rounds
        misses = result.first_hit_counts[-1]
        firsts = result.first_hit_counts[0]
        intervals = []
        for successes in (n - misses, misses, firsts):
            low, high = wilson_interval([successes], [n], level)
            intervals.append((successes / n, float(low[0]), float(high[0])))
        mean = result.gain_sum / n
        sd = math.sqrt(max(result.gain_sq_sum / n - mean * mean, 0.0) * n / max(n - 1, 1))
        half = normal_quantile(level) * sd / math.sqrt(n)
        intervals.append((mean, mean - half, mean + half))
        p, p_low, p_high = intervals[1]
        intervals.append(
            (
                1 / p if p else math.inf,
                1 / p_high if p_high else math.inf,
                1 / p_low if p_low else math.inf,
            )
        )
        simulated = intervals
    return pl.DataFrame(
        {
            "quantity": [row["quantity"] for row in rows],
            "exact_fraction": [str(row["exact"]) for row in rows],
            "exact": [float(row["exact"]) if row["exact"] is not None else None for row in rows],  # type: ignore[arg-type]
            "simulated": [s[0] for s in simulated],
            "simulated_low": [s[1] for s in simulated],
            "simulated_high": [s[2] for s in simulated],
            "rounds_simulated": [simulate_rounds] * len(rows),
        }
    )


def first_hit_table(game: BankerGame | None = None) -> pl.DataFrame:
    """Per call (Joker, A, K, ..., 2, then "no hit"): the exact probability that the round ends
    there, as a fraction and a float, and the banker's payoff."""
    game = game or standard_game()
    distribution = first_hit_distribution(game)
    names = [CALL_NAMES[i] if i < len(CALL_NAMES) else str(i + 1) for i in range(game.calls)]
    return pl.DataFrame(
        {
            "call": [*range(1, game.calls + 1), None],
            "called": [*names, "no hit"],
            "probability_fraction": [str(p) for p in distribution],
            "probability": [float(p) for p in distribution],
            "banker_payoff": [*game.hit_payoffs, game.miss_payoff],
        },
        schema_overrides={"call": pl.Int64()},
    )
