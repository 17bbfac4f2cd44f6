"""Benchmark of ``raspis verify`` (not a test): seconds to prove a large run whole.

    .venv/bin/python benchmarks/verify_speed.py --games 1000000 --run /tmp/verify-1m

Plays the run once into ``--run`` if it is not there yet (classic, four ``random`` players on the
batch engine), then times ``raspis verify RUN`` as a user runs it (a fresh process: imports,
every shard read in full, its games compared with the plan, its checksums recomputed)
``--repeat`` times and prints the median wall and CPU seconds (CPU of the child process, which is
what to quote on a busy machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from raspis.tournament import TournamentConfig, run_tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--run", type=Path, default=Path("/tmp/raspis-verify-speed"))
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    if not (arguments.run / "manifest.json").is_file():
        config = TournamentConfig(variants=("classic",), players=4, strategies=("random",) * 4,
                                  games=arguments.games, seed=1, engine="batch")
        run_tournament(config, arguments.run, workers=os.cpu_count() or 1)
    walls, cpus = [], []
    for _ in range(arguments.repeat):
        before = os.times()
        started = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "raspis.cli.main", "verify",
                                 str(arguments.run)], capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - started)
        after = os.times()
        cpus.append(after.children_user + after.children_system
                    - before.children_user - before.children_system)
        if result.returncode != 0:
            sys.exit(f"verify failed: {result.stdout}{result.stderr}")
    print(result.stdout.strip())
    print(f"raspis verify: median {statistics.median(walls):.2f} s wall, "
          f"{statistics.median(cpus):.2f} s CPU over {arguments.repeat} runs "
          f"(load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
