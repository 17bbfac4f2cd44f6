"""Speed of the compiled ``strong`` policy in the batch engine (a script, not a test): whole games
in the compiled loop, every seat ``strong`` (or ``--strategy``), decisions a second of CPU time.

    .venv/bin/python benchmarks/strong_speed.py --variant classic --games 4096 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from raspis.engine import load_variant
from raspis.engine.batch import play_batch
from raspis.strategies.batch import load_batch_strategy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strategy", default="strong")
    arguments = parser.parse_args(argv)
    variant = load_variant(arguments.variant)
    strategy = load_batch_strategy(arguments.strategy, adapter=False)
    play_batch(variant, arguments.players, np.arange(8, dtype=np.uint64), [strategy])  # compile
    rates = []
    for repeat in range(arguments.repeats):
        seeds = np.arange(arguments.games, dtype=np.uint64) + 1_000_000 * (repeat + 1)
        started = time.process_time()
        result = play_batch(variant, arguments.players, seeds, [strategy])
        spent = time.process_time() - started
        rates.append(result.decisions / spent)
        print(f"  run {repeat + 1}: {result.decisions:,} decisions in {spent:.2f} s of CPU: "
              f"{result.decisions / spent / 1e6:.2f} M decisions/s, "
              f"{arguments.games / spent:,.0f} games/s")
    print(f"{arguments.variant}, {arguments.players} players, {arguments.strategy} x"
          f"{arguments.players}, {arguments.games} games a run: median "
          f"{statistics.median(rates) / 1e6:.2f} M decisions/s per core (CPU time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
