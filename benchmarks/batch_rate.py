"""The batch engine's rate for one strategy at every seat, best of a few runs (not a test).

    .venv/bin/python -m benchmarks.batch_rate fastheuristic --games 8192 --runs 3

Classic, 4 players, CPU time of ``play_batch`` only (the compile is loaded or done first). Best
of ``--runs``: on a shared machine the best run is the one least slowed by other jobs, which makes
it the figure to compare between two checkouts run in turn (interleave them, see
``docs/benchmarks.md``). Run it with ``-m`` from the checkout to measure: then ``raspis`` is that
checkout's (a script's own folder comes first on ``sys.path``, and the virtual environment's
editable install points at the main checkout).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    """Print the best rate in millions of decisions a second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategy", nargs="?", default="fastheuristic")
    parser.add_argument("--games", type=int, default=8192)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    from raspis.engine import load_variant
    from raspis.engine.batch import play_batch
    from raspis.strategies.batch import load_batch_strategy

    variant = load_variant("classic")
    strategy = load_batch_strategy(options.strategy)
    play_batch(variant, 4, np.arange(10**9, 10**9 + 256, dtype=np.uint64), [strategy])
    best = 0.0
    for _ in range(options.runs):
        started = time.process_time()
        result = play_batch(variant, 4, np.arange(options.games, dtype=np.uint64), [strategy])
        best = max(best, result.decisions / (time.process_time() - started))
    print(f"{best / 1e6:.2f}")


if __name__ == "__main__":
    main()
