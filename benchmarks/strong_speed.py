"""Speed of the compiled ``strong`` policy in the batch engine (a script, not a test): whole games
in the compiled loop, every seat ``strong`` (or ``--strategy``), decisions a second of CPU time.

    .venv/bin/python benchmarks/strong_speed.py --variant classic --games 4096 --repeats 3
    .venv/bin/python -m benchmarks.strong_speed --variant classic --model both

``--model both`` times ``strong`` with its card model (``strategies.fitting.distil``) and with the
rules alone (the table without the model, as ``strong:model=false`` plays), run by run in turn on
the same seeds, and prints the ratio of the medians; ``--model learned`` likewise with what it
learned from ``mc``'s values and without (``linear``: the card model's linear part, the table's
bids, as ``strong:net=false,bid_model=false`` plays).
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time

import numpy as np
from raspis.engine import load_variant
from raspis.engine.batch import play_batch
from raspis.strategies.batch import load_batch_strategy
from raspis.strategies.policies import compiled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strategy", default="strong")
    parser.add_argument("--model", choices=("on", "off", "both", "learned"), default="on",
                        help="strong's card model: on (as shipped), off (the rules alone), both; "
                        "learned: on and linear (no net, no bid model)")
    arguments = parser.parse_args(argv)
    variant = load_variant(arguments.variant)
    strategy = load_batch_strategy(arguments.strategy, adapter=False)
    setups = {"both": ["on", "off"], "learned": ["on", "linear"]}.get(arguments.model,
                                                                      [arguments.model])
    options = {"on": {}, "off": {"cards_on": False},
               "linear": {"net_on": False, "bids_on": False}}
    shipped = compiled.policy_table
    rates: dict[str, list[float]] = {setup: [] for setup in setups}
    for repeat in range(-1, arguments.repeats):  # -1: compile
        for setup in setups:
            compiled.policy_table = functools.partial(shipped, **options[setup])
            count = 8 if repeat < 0 else arguments.games
            seeds = np.arange(count, dtype=np.uint64) + 1_000_000 * (repeat + 1)
            started = time.process_time()
            result = play_batch(variant, arguments.players, seeds, [strategy])
            spent = time.process_time() - started
            compiled.policy_table = shipped
            if repeat < 0:
                continue
            rates[setup].append(result.decisions / spent)
            print(f"  run {repeat + 1}, model {setup}: {result.decisions:,} decisions in "
                  f"{spent:.2f} s of CPU: {result.decisions / spent / 1e6:.2f} M decisions/s, "
                  f"{count / spent:,.0f} games/s")
    medians = {setup: statistics.median(found) for setup, found in rates.items()}
    for setup, median in medians.items():
        print(f"{arguments.variant}, {arguments.players} players, {arguments.strategy} x"
              f"{arguments.players} (card model {setup}), {arguments.games} games a run: median "
              f"{median / 1e6:.2f} M decisions/s per core (CPU time)")
    if len(medians) == 2:
        other = setups[1]
        print(f"on / {other}: {medians['on'] / medians[other]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
