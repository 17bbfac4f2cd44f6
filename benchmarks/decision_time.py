"""Per-decision time of strategies (not a test): one seat of each strategy against the heuristic.

    .venv/bin/python benchmarks/decision_time.py --games 2 heuristic ev pimc ismcts

For each strategy it plays ``--games`` whole games with the strategy in seat 0 and the heuristic in
the other seats, times every call of ``act`` in seat 0, and prints, per phase, the decisions a
game, the mean, median, 95th percentile and largest time. Decisions with a single legal action
are counted apart ("forced"): every built-in answers them at once.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from raspis.engine import Action, Observation, load_variant
from raspis.strategies import Strategy, load_strategy, play_game


class Timed(Strategy):
    """Wraps a strategy and records how long each of its decisions takes, by phase."""

    def __init__(self, inner: Strategy) -> None:
        super().__init__()
        self.inner = inner
        self.name = inner.name
        self.times: dict[str, list[float]] = defaultdict(list)

    def start_game(self, variant, seat, players, rng) -> None:  # noqa: ANN001
        """Start the wrapped strategy."""
        self.inner.start_game(variant, seat, players, rng)

    def spec(self) -> str:
        """The wrapped strategy's spec."""
        return self.inner.spec()

    def act(self, observation: Observation) -> Action:
        """The wrapped strategy's action, timed."""
        started = time.perf_counter()
        action = self.inner.act(observation)
        elapsed = time.perf_counter() - started
        key = observation.phase.name.lower() if len(observation.legal_actions) > 1 else "forced"
        self.times[key].append(elapsed)
        return action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategies", nargs="+", help="strategy specs to time")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    arguments = parser.parse_args(argv)
    variant = load_variant(arguments.variant)
    for spec in arguments.strategies:
        timed = Timed(load_strategy(spec))
        started = time.perf_counter()
        for seed in range(arguments.games):
            lineup = [timed] + [load_strategy("heuristic") for _ in range(arguments.players - 1)]
            record = play_game(variant, arguments.players, seed, lineup)
            if record.fault is not None:
                raise SystemExit(f"{spec}: {record.fault}")
        total = (time.perf_counter() - started) / arguments.games
        print(f"{spec} on {arguments.variant}, {arguments.players} players, "
              f"{arguments.games} games: {total:.2f} s a game in all")
        for phase, values in sorted(timed.times.items()):
            values.sort()
            print(f"  {phase:7s} {len(values) / arguments.games:5.0f} a game   mean "
                  f"{statistics.fmean(values) * 1e3:8.3f} ms   median "
                  f"{values[len(values) // 2] * 1e3:8.3f} ms   p95 "
                  f"{values[int(len(values) * 0.95)] * 1e3:8.3f} ms   max "
                  f"{values[-1] * 1e3:8.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
