"""The batch engine's lockstep path (numpy batch strategies) in decisions a second (not a test).

    .venv/bin/python -m benchmarks.lockstep_rate --games 8192 --runs 3

Classic with ``joker.as_card = false`` (numpy batch seats refuse a Joker declared as any card,
which the classic preset plays: their batch observation does not show it; ``--variant`` names
another preset or TOML file), 4 players, CPU time of ``play_batch`` only (the compile is loaded
or done first), best of ``--runs``. Two lineups, each played through the lockstep path (a seat
whose strategy is not a compiled policy):

- ``numpy x4``: ``strategies.players.batch_basic``'s numpy ``lowest`` at two seats and numpy
``random``
  at two (subclasses, which are not compiled policies, so every decision goes to numpy);
- ``numpy + 3 fastheuristic``: one numpy ``lowest`` seat and three ``fastheuristic`` seats.

It uses only the public API, so it also measures another checkout: run it as a script with that
checkout first on ``PYTHONPATH`` (see ``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def lineups() -> dict[str, list[object]]:
    """The lineups measured, by name."""
    from raspis.strategies.batch import load_batch_strategy
    from raspis.strategies.players.batch_basic import BatchLowest, BatchRandom

    class NumpyLowest(BatchLowest):
        """``lowest`` decided by its numpy methods (a subclass is no compiled policy)."""

    class NumpyRandom(BatchRandom):
        """``random`` decided by its numpy methods."""

    fast = load_batch_strategy("fastheuristic")
    return {"numpy x4": [NumpyLowest(), NumpyRandom(), NumpyLowest(), NumpyRandom()],
            "numpy + 3 fastheuristic": [NumpyLowest(), fast, fast, fast]}


def main() -> None:
    """Print the best rate of each lineup in millions of decisions a second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8192)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variant", default=None,
                        help="preset or TOML file (default: classic without joker.as_card)")
    options = parser.parse_args()
    from raspis.engine import load_variant
    from raspis.engine.batch import play_batch
    from raspis.engine.variant import variant_from_dict

    if options.variant is None:
        variant = variant_from_dict({"name": "classic-no-as-card", "extends": "classic",
                                     "joker": {"as_card": False}})
    else:
        variant = load_variant(options.variant)
    print(f"variant {variant.name}, 4 players, {options.games} games, best of {options.runs}")
    for name, lineup in lineups().items():
        play_batch(variant, 4, np.arange(10**9, 10**9 + 64, dtype=np.uint64), lineup)
        best = 0.0
        for _ in range(options.runs):
            started = time.process_time()
            result = play_batch(variant, 4, np.arange(options.games, dtype=np.uint64), lineup)
            best = max(best, result.decisions / (time.process_time() - started))
        print(f"{name}: {best / 1e6:.2f} M decisions/s")


if __name__ == "__main__":
    main()
