"""Benchmark (not a test): what ``strong``'s bid table for a variant is worth, against none or
against the nearest other preset's.

    .venv/bin/python -m benchmarks.nearest_table --variant odessa --deal-sets 1000
    .venv/bin/python -m benchmarks.nearest_table --variant odessa --against nearest

A variant without a fitted table of its own bids with the nearest preset's table
(``strategies.policies.fitted.find_fit``); before, it bid from the model alone. Two setups play the
same deal sets: two ``strong`` seats and two ``fastheuristic`` seats in the four rotations of
the seats (each hand played by both), ``strong`` with the table it finds in one, and in the other
(``--against``) with none, or with the nearest preset's table other than the variant's own (each
setup in a process of its own). A deal set's value is ``strong``'s mean final total minus
``fastheuristic``'s over its four games; the script prints the mean of the difference between
the setups, with a 95% Student t interval over the deal sets (paired: the same deals). The
setups differ only in the table, so the difference is what the table is worth, measured against
the same opponent.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import numpy as np


def margins(variant_name: str, deal_sets: int, setup: str) -> np.ndarray:
    """Per deal set: ``strong``'s mean total minus ``fastheuristic``'s, over the four rotations
    of strong, fastheuristic, strong, fastheuristic; ``setup``: ``table`` (the table ``strong``
    finds), ``none`` or ``nearest`` (the nearest preset's other than the variant's own)."""
    from raspis.engine import load_variant
    from raspis.engine.batch import play_batch
    from raspis.strategies.batch import load_batch_strategy
    from raspis.strategies.policies import compiled, fitted

    variant = load_variant(variant_name)
    if setup == "none":
        compiled.find_fit = lambda variant, players: fitted.Fit("none")
    elif setup == "nearest":
        own = fitted.fit_source(variant, 4)
        compiled.find_fit = lambda variant, players: fitted.nearest_fit(
            variant.for_player_count(players), players, skip=(own,) if own else ())
    seeds = np.repeat(np.arange(1, deal_sets + 1, dtype=np.uint64) * np.uint64(7919), 4)
    base = np.array([0, 1, 0, 1])
    seatings = np.stack([np.roll(base, turn) for turn in range(4)] * deal_sets)
    result = play_batch(variant, 4, seeds, [load_batch_strategy("strong"),
                                            load_batch_strategy("fastheuristic")], seatings)
    strong = seatings == 0
    margin = (np.where(strong, result.scores, 0).sum(1)
              - np.where(~strong, result.scores, 0).sum(1)) / 2
    return margin.reshape(deal_sets, 4).mean(1)


def main() -> int:
    """Run both setups, each in a fresh process, and print the difference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--deal-sets", type=int, default=1000)
    parser.add_argument("--against", choices=("none", "nearest"), default="none",
                        help="strong without a table (default), or with the nearest other "
                        "preset's")
    parser.add_argument("--setup", choices=("table", "none", "nearest"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.setup:  # one setup, in this process
        print(json.dumps(margins(options.variant, options.deal_sets, options.setup).tolist()))
        return 0
    values = {}
    for setup in ("table", options.against):
        done = subprocess.run([sys.executable, "-m", "benchmarks.nearest_table", "--variant",
                               options.variant, "--deal-sets", str(options.deal_sets),
                               "--setup", setup], capture_output=True, text=True, check=True)
        values[setup] = np.array(json.loads(done.stdout.splitlines()[-1]))
    from raspis.engine import load_variant
    from raspis.strategies.policies.fitted import find_fit
    from scipy import stats

    difference = values["table"] - values[options.against]
    count = len(difference)
    half = stats.t.ppf(0.975, count - 1) * difference.std(ddof=1) / np.sqrt(count)
    fit = find_fit(load_variant(options.variant), 4)
    other = "without" if options.against == "none" else "with the nearest other preset's"
    print(f"{options.variant}: strong with {fit.kind} table ({fit.source}) minus strong {other}: "
          f"{difference.mean():+.1f} [{difference.mean() - half:+.1f}, "
          f"{difference.mean() + half:+.1f}] points a game against fastheuristic, "
          f"{count} deal sets x 4 rotations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
