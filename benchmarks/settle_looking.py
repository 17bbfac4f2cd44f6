"""Benchmark of the cost of looking in ``raspis settle`` (not a test): how long each round's
update (reading the round's new shards, adding their per-deal-set totals, the sequences of every
difference) takes against the round's play, up to 10,000 deal sets.

    .venv/bin/python -m benchmarks.settle_looking --budget 10000 --out /tmp/raspis-looking

Settles an A/A pair (classic and a copy of it under another name, the fairness group and the
dealer's edge: it never decides 'different', so it plays to the budget) between fastheuristic x2
and lowest x2, then prints each round's deal sets, the seconds of play and of update (wall and
CPU: the play's CPU counts the workers'), and the update's share of the play. Quote CPU on a busy
machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from raspis.analysis.settle import SettlePlan, settle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=Path("/tmp/raspis-settle-looking"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--question", default="dealer_cost")
    arguments = parser.parse_args()
    shutil.rmtree(arguments.out, ignore_errors=True)
    arguments.out.mkdir(parents=True)
    copy = arguments.out.parent / f"{arguments.out.name}-copy.toml"
    copy.write_text('name = "classic-copy"\nextends = "classic"\n', encoding="utf-8")
    step = max(10, -(-arguments.budget // 80))
    plan = SettlePlan("classic", (str(copy),),
                      (("fastheuristic", "fastheuristic", "lowest", "lowest"),),
                      question=arguments.question, budget=arguments.budget, seed=1,
                      first=max(50, 2 * step), step=step)
    settle(plan, arguments.out / "settle", workers=arguments.workers)
    log = json.loads((arguments.out / "settle" / "settle.json").read_text())
    print("| round | deal sets | play s (CPU) | update s (CPU) | update / play (CPU) |")
    print("| --- | --- | --- | --- | --- |")
    for entry in log["rounds"]:
        share = entry["update_cpu_seconds"] / max(entry["play_cpu_seconds"], 1e-9)
        print(f"| {entry['round']} | {entry['deal_sets']:,} | {entry['play_seconds']:.2f} "
              f"({entry['play_cpu_seconds']:.2f}) | {entry['update_seconds']:.2f} "
              f"({entry['update_cpu_seconds']:.2f}) | {share:.1%} |")


if __name__ == "__main__":
    main()
