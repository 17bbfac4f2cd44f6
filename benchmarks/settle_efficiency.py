"""Benchmark of ``raspis settle``'s stopping rule (not a test): the deal sets a sequential
decision takes against a fixed-size design, on simulated per-deal-set differences.

    .venv/bin/python -m benchmarks.settle_efficiency --budget 2000 --sequences 4000

The differences of a question are simulated per deal set (normal, sd 1; the sd only sets the
scale) with a true effect of 0.5, 1 and 2 times the margin; the margin is set so that the
fixed-size design ``compare`` recommends for it (its "games needed": a two-sided test at 5% with
power 80%, ((z₀.₉₇₅ + z₀.₈)·sd/effect)² deal sets) is a quarter of the budget. settle's stopping
rule (``analysis.sequential``, the rounds ``raspis settle`` plays for that budget) runs on each
sequence. Printed per effect: the median deal sets at the stop, how often the sequence decided
'different', 'equivalent' or nothing, and two fixed designs: the one ``compare`` recommends for
that effect at power 80%, and the one with the power the sequential test reached (its share of
decisions: 'different', or at half the margin also 'equivalent', the right answer there too),
which is the like-for-like comparison.
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from raspis.analysis.intervals import normal_ppf
from raspis.analysis.sequential import DIFFERENT, EQUIVALENT, Family, schedule, simulate


def fixed_design(effect: float, power: float, level: float = 0.95) -> float:
    """Deal sets a fixed-size two-sided test at ``1 - level`` needs for ``power`` against
    ``effect`` (sd 1): compare's ``needed_deal_sets`` formula, at any power."""
    power = min(max(power, 0.5), 0.999)
    return math.ceil(((normal_ppf(0.5 + level / 2) + normal_ppf(power)) / effect) ** 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--sequences", type=int, default=4000)
    parser.add_argument("--growth", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    budget = arguments.budget
    step = max(10, math.ceil(budget / 80))
    rounds = schedule(budget, max(50, 2 * step), step, arguments.growth)
    margin = (normal_ppf(0.975) + normal_ppf(0.8)) / math.sqrt(budget / 4)
    rng = np.random.default_rng(arguments.seed)
    print(f"budget {budget:,} deal sets, rounds {rounds}, margin {margin:.4f} sd "
          f"(compare's fixed design for it: {fixed_design(margin, 0.8):,} deal sets)")
    print("| effect | median deal sets | different | equivalent | undecided | fixed, power 80% "
          "| fixed, the same power | median / fixed (same power) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    family = Family(0.05, 1, max(2, budget // 4), margin)
    for times in (0.5, 1.0, 2.0):
        effect = times * margin
        data = rng.normal(effect, 1.0, (arguments.sequences, budget))
        result = simulate(data, rounds, family)
        different = float(np.mean(result["decision"] == DIFFERENT))
        equivalent = float(np.mean(result["decision"] == EQUIVALENT))
        median = float(np.median(result["units"]))
        same = fixed_design(effect, different + equivalent if times < 1 else different)
        print(f"| {times}x margin | {median:,.0f} | {different:.1%} | {equivalent:.1%} | "
              f"{1 - different - equivalent:.1%} | {fixed_design(effect, 0.8):,} | {same:,} | "
              f"{median / same:.2f} |")


if __name__ == "__main__":
    main()
