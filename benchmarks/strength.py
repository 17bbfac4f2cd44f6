"""Strength benchmark (not a test): duplicate matches between two strategies, with a confidence
interval on the mean score difference.

    .venv/bin/python benchmarks/strength.py --variant classic --a ev --b heuristic --deal-sets 200

Design: one seat of A against ``players - 1`` copies of B. A deal set is one game seed; it is
played ``players`` times with A moved round every seat while the deals stay the same (the seed fixes
every shuffle and the first dealer), so each hand is played once by A and ``players - 1`` times by
B: the card luck cancels. For each game the difference is A's final total minus the mean total of
the B seats; a deal set's value is the mean over its ``players`` games. The script prints the mean
difference per game with a 95% confidence interval (Student t over the deal sets, which are
independent; the games within a set are paired by construction), the mean totals, and how long it
took. Deal sets run in parallel on ``--workers`` processes (``multiprocess``); the result does not
depend on the worker count.

``--a-bid SPEC`` splits A: it bids (and names trump, and keeps or declines) as ``SPEC`` and plays
its cards as ``--a`` (``Split``), which says how much of a gap between two strategies lies in
the bidding and how much in the card play:

    .venv/bin/python -m benchmarks.strength --variant oh-hell --a strong --a-bid mc --b strong

A strategy that faults (raises, plays an illegal action) stops its game; such games are counted and
reported, and their deal sets are left out of the interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass

from raspis.engine import load_variant
from raspis.engine.game import Phase
from raspis.engine.rng import mix
from raspis.strategies import Strategy, load_strategy, play_game


@dataclass
class DealSetResult:
    """The games of one deal set: A's and the B seats' mean totals per rotation."""

    deal_set: int
    difference: float
    a_points: float
    b_points: float
    faults: list[str]
    seconds: float


class Split(Strategy):
    """Bids (every decision but a card) as one strategy, plays cards as another; each sees every
    observation of the game, so a search keeps whatever it reads from the play."""

    name = "split"

    def __init__(self, bidder: Strategy, player: Strategy) -> None:
        super().__init__()
        self.bidder, self.player = bidder, player

    def start_game(self, variant, seat, players, rng) -> None:  # noqa: ANN001
        super().start_game(variant, seat, players, rng)
        # each its own generator, drawn from the seat's (the same seed, the same games)
        self.bidder.start_game(variant, seat, players, random.Random(rng.getrandbits(64)))
        self.player.start_game(variant, seat, players, random.Random(rng.getrandbits(64)))

    def act(self, observation):  # noqa: ANN001, ANN201
        if observation.phase == Phase.PLAY:
            return self.player.act(observation)
        return self.bidder.act(observation)


def load_side(spec: str, bid_spec: str | None) -> Strategy:
    """The strategy of ``spec``, bidding as ``bid_spec`` where one is given."""
    if not bid_spec:
        return load_strategy(spec)
    return Split(load_strategy(bid_spec), load_strategy(spec))


def deal_set_seed(base: int, deal_set: int) -> int:
    """The game seed of a deal set."""
    return mix(base, 0x5EED, deal_set) & 0x7FFFFFFF


def play_deal_set(task: tuple[str, int, str, str, int, int, str | None]) -> DealSetResult:
    """Play one deal set: ``players`` games with A at each seat in turn."""
    variant_name, players, spec_a, spec_b, base, deal_set, bid_a = task
    variant = load_variant(variant_name)
    seed = deal_set_seed(base, deal_set)
    started = time.perf_counter()
    differences, a_points, b_points, faults = [], [], [], []
    for seat_a in range(players):
        strategies = [load_side(spec_a, bid_a) if seat == seat_a else load_strategy(spec_b)
                      for seat in range(players)]
        record = play_game(variant, players, seed, strategies)
        if record.fault is not None:
            faults.append(str(record.fault))
            continue
        scores = record.game.scores
        others = [scores[seat] for seat in range(players) if seat != seat_a]
        a_points.append(scores[seat_a])
        b_points.append(statistics.fmean(others))
        differences.append(scores[seat_a] - statistics.fmean(others))
    mean = statistics.fmean
    return DealSetResult(deal_set, mean(differences) if differences and not faults else math.nan,
                         mean(a_points) if a_points else math.nan,
                         mean(b_points) if b_points else math.nan, faults,
                         time.perf_counter() - started)


def t_quantile(probability: float, degrees: int) -> float:
    """Student t quantile (scipy when available, else the Cornish-Fisher expansion)."""
    try:
        from scipy.stats import t

        return float(t.ppf(probability, degrees))
    except ImportError:  # pragma: no cover - scipy is a dependency, kept for minimal installs
        z = statistics.NormalDist().inv_cdf(probability)
        g1 = (z ** 3 + z) / 4
        g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
        g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
        return z + g1 / degrees + g2 / degrees ** 2 + g3 / degrees ** 3


def summarize(results: list[DealSetResult]) -> dict[str, float]:
    """Mean difference per game, its 95% interval, and the mean totals."""
    values = [result.difference for result in results if not math.isnan(result.difference)]
    count = len(values)
    mean = statistics.fmean(values) if values else math.nan
    half = math.nan
    if count > 1:
        half = t_quantile(0.975, count - 1) * statistics.stdev(values) / math.sqrt(count)
    return {
        "deal_sets": count,
        "mean_difference": mean,
        "ci_low": mean - half,
        "ci_high": mean + half,
        "a_points": statistics.fmean(r.a_points for r in results if not math.isnan(r.a_points)),
        "b_points": statistics.fmean(r.b_points for r in results if not math.isnan(r.b_points)),
        "faults": sum(len(result.faults) for result in results),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", help="preset name or variant file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--a", required=True, help="spec of the strategy in one seat")
    parser.add_argument("--a-bid", help="spec A bids with (and names trump with); its cards "
                        "are --a's")
    parser.add_argument("--b", required=True, help="spec of the strategy in the other seats")
    parser.add_argument("--deal-sets", type=int, default=100, help="game seeds, each played "
                        "once per seat")
    parser.add_argument("--seed", type=int, default=1, help="base of the deal-set seeds")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", help="also write the per-deal-set results to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    arguments = parser.parse_args(argv)
    tasks = [(arguments.variant, arguments.players, arguments.a, arguments.b, arguments.seed, index,
              arguments.a_bid)
             for index in range(arguments.deal_sets)]
    started = time.perf_counter()
    results: list[DealSetResult] = []
    if arguments.workers > 1:
        from multiprocess import Pool

        with Pool(arguments.workers) as pool:
            for result in pool.imap_unordered(play_deal_set, tasks):
                results.append(result)
                _progress(arguments, results, started)
    else:
        for task in tasks:
            results.append(play_deal_set(task))
            _progress(arguments, results, started)
    if not arguments.quiet:
        print(file=sys.stderr)
    results.sort(key=lambda result: result.deal_set)
    summary = summarize(results)
    elapsed = time.perf_counter() - started
    games = arguments.deal_sets * arguments.players
    a_name = arguments.a + (f" (bidding as {arguments.a_bid})" if arguments.a_bid else "")
    print(f"{arguments.variant}, {arguments.players} players: A = {a_name} in one seat, "
          f"B = {arguments.b} in the others; {arguments.deal_sets} deal sets x "
          f"{arguments.players} rotations = {games} games, {elapsed:.0f} s on "
          f"{arguments.workers} workers")
    print(f"  A - B per game: {summary['mean_difference']:+.1f}  95% CI "
          f"[{summary['ci_low']:+.1f}, {summary['ci_high']:+.1f}]   mean totals A "
          f"{summary['a_points']:.1f}, B {summary['b_points']:.1f}"
          + (f"   faults: {summary['faults']}" if summary["faults"] else ""))
    for result in results:
        for fault in result.faults:
            print(f"  fault in deal set {result.deal_set}: {fault}")
    if arguments.json:
        with open(arguments.json, "w") as handle:
            json.dump({"arguments": vars(arguments), "summary": summary, "seconds": elapsed,
                       "deal_sets": [asdict(result) for result in results]}, handle, indent=1)
    return 0


def _progress(arguments: argparse.Namespace, results: list[DealSetResult], started: float) -> None:
    if arguments.quiet:
        return
    done = len(results)
    values = [r.difference for r in results if not math.isnan(r.difference)]
    mean = statistics.fmean(values) if values else math.nan
    print(f"\r  {done}/{arguments.deal_sets} deal sets, {time.perf_counter() - started:.0f} s, "
          f"A - B so far {mean:+.1f}", end="", file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
