"""Benchmark of the tournament runner (not a test): games per second, and the runner's overhead.

    .venv/bin/python benchmarks/runner_speed.py --strategies random --games 400 --workers 1 2

For each worker count it runs the same tournament ``--repeat`` times into a fresh directory and
prints the median games per second. ``--overhead`` also times the bare games (``play_game`` in a
loop, no shards, rows or Parquet) to show what the runner adds on top of the engine.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from raspis.engine import load_variant
from raspis.strategies import load_strategy, play_game
from raspis.tournament import TournamentConfig, run_tournament
from raspis.tournament.shard import game_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strategies", default="random")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--overhead", action="store_true")
    parser.add_argument("--engine", default="auto", choices=["auto", "scalar", "batch"])
    arguments = parser.parse_args()
    specs = arguments.strategies.split(",")
    specs = specs * arguments.players if len(specs) == 1 else specs
    config = TournamentConfig(variants=(arguments.variant,), players=arguments.players,
                              strategies=tuple(specs), games=arguments.games, seed=1,
                              engine=arguments.engine)
    print(f"{arguments.variant}, {arguments.players} players, {','.join(specs)}, "
          f"{arguments.games} games, {config.resolved_engine()} engine, "
          f"median of {arguments.repeat}")
    for workers in arguments.workers:
        rates = []
        for _ in range(arguments.repeat):
            out = Path(tempfile.mkdtemp()) / "run"
            started = time.perf_counter()
            run_tournament(config, out, workers=workers)
            rates.append(arguments.games / (time.perf_counter() - started))
            shutil.rmtree(out.parent)
        print(f"  workers={workers}: {statistics.median(rates):8.1f} games/s "
              f"(runs: {', '.join(f'{rate:.1f}' for rate in rates)})")
    if arguments.overhead:
        variant = load_variant(arguments.variant)
        strategies = [load_strategy(spec) for spec in specs]
        rates = []
        for _ in range(arguments.repeat):
            started = time.perf_counter()
            for deal_set in range(arguments.games):
                play_game(variant, arguments.players, game_seed(1, deal_set), strategies)
            rates.append(arguments.games / (time.perf_counter() - started))
        print(f"  bare games, one process: {statistics.median(rates):8.1f} games/s")


if __name__ == "__main__":
    main()
