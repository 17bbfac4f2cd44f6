"""Benchmark of the batch engine (not a test): decisions per second, games per second against the
batch size and the player count, a figure of both curves, and a million-game tournament.

    .venv/bin/python benchmarks/batch_speed.py decisions --repeat 5
    .venv/bin/python benchmarks/batch_speed.py curves --repeat 3 --figure docs/batch_speed.png
    /usr/bin/time -v .venv/bin/python benchmarks/batch_speed.py million --games 1000000 --workers 2

``decisions``: bids and card plays per second on one core, fastheuristic at every seat (CPU time
of the process, so another job on the machine slows it less than wall time; wall time is shown
too). ``curves``: games per second against the batch size (classic, 4 players) and against the
player count (classic, batch of ``--batch`` games); medians of ``--repeat`` runs; ``--figure``
saves them as a PNG. ``million``: a tournament of ``--games`` games through the real runner
(``run_tournament``: shards, worker processes, atomic Parquet files, manifest) with every shard
played by ``tournament.batch_shard.run_shard_batch`` (``engine="batch"``; with a runner that
predates the engine choice, this script points its ``run_shard`` at the batch shard); it prints
the time and the peak memory of the parent and of the largest worker.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from raspis.engine import load_variant
from raspis.engine.batch import play_batch
from raspis.strategies import registry
from raspis.strategies.batch import load_batch_strategy

#: The scalar twins, so that the runner's spec checks accept them (until the registry has them).
SCALAR_TWINS = {"fastheuristic": "raspis.strategies.players.fast:FastHeuristicStrategy",
                "fastrandom": "raspis.strategies.players.fast:HashRandomStrategy",
                "lowest": "raspis.strategies.players.fast:LowestStrategy"}


def run_once(variant_name: str, players: int, games: int, first_seed: int,
             spec: str) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, decisions) of one batch."""
    variant = load_variant(variant_name)
    strategy = load_batch_strategy(spec)
    seeds = np.arange(first_seed, first_seed + games, dtype=np.uint64)
    cpu, wall = time.process_time(), time.perf_counter()
    result = play_batch(variant, players, seeds, [strategy])
    return time.process_time() - cpu, time.perf_counter() - wall, result.decisions


def decisions(arguments: argparse.Namespace) -> None:
    """Decisions per second per core."""
    run_once(arguments.variant, arguments.players, 256, 10**9, arguments.strategy)  # warm up
    runs = [run_once(arguments.variant, arguments.players, arguments.batch, index * arguments.batch,
                     arguments.strategy) for index in range(arguments.repeat)]
    count = runs[0][2]
    cpu = [count / run[0] for run in runs]
    wall = [count / run[1] for run in runs]
    print(f"{arguments.variant}, {arguments.players} players, {arguments.strategy} at every seat, "
          f"batch of {arguments.batch} games, {count / arguments.batch:.0f} decisions a game")
    print(f"  decisions/s per core (CPU time): median {statistics.median(cpu) / 1e6:.2f} M "
          f"(runs: {', '.join(f'{rate / 1e6:.2f}' for rate in cpu)})")
    print(f"  decisions/s (wall time):         median {statistics.median(wall) / 1e6:.2f} M")
    print(f"  games/s per core (CPU time):     median "
          f"{statistics.median(cpu) / (count / arguments.batch):,.0f}")


def _games_per_second(variant: str, players: int, batch: int, repeat: int,
                      spec: str) -> float:
    rates = []
    for index in range(repeat):
        cpu, _, _ = run_once(variant, players, batch, 7 + index * batch, spec)
        rates.append(batch / cpu)
    return statistics.median(rates)


def curves(arguments: argparse.Namespace) -> None:
    """Games per second against the batch size and against the player count."""
    run_once(arguments.variant, 4, 256, 10**9, arguments.strategy)
    sizes = [int(size) for size in arguments.sizes.split(",")]
    by_size = []
    print(f"{arguments.variant}, 4 players, {arguments.strategy}: games/s per core against the "
          f"batch size (CPU time, median of {arguments.repeat})")
    for size in sizes:
        rate = _games_per_second(arguments.variant, 4, size, arguments.repeat, arguments.strategy)
        by_size.append(rate)
        print(f"  batch {size:6d}: {rate:9,.0f} games/s")
    variant = load_variant(arguments.variant)
    counts = variant.player_counts()
    by_players = []
    print(f"{arguments.variant}, batch of {arguments.batch}: games/s per core against the players")
    for players in counts:
        rate = _games_per_second(arguments.variant, players, arguments.batch, arguments.repeat,
                                 arguments.strategy)
        by_players.append(rate)
        decisions_per_game = run_once(arguments.variant, players, 64, 1, arguments.strategy)[2] / 64
        print(f"  {players} players: {rate:9,.0f} games/s "
              f"({rate * decisions_per_game / 1e6:.2f} M decisions/s, "
              f"{decisions_per_game:.0f} decisions a game)")
    if arguments.figure:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        left.plot(sizes, by_size, marker="o")
        left.set_xscale("log", base=2)
        left.set_xlabel("games in a batch")
        left.set_ylabel("games / s on one core")
        left.set_title(f"{arguments.variant}, 4 players, {arguments.strategy}")
        left.grid(True, alpha=0.3)
        right.plot(counts, by_players, marker="o")
        right.set_xticks(counts)
        right.set_xlabel("players")
        right.set_ylabel("games / s on one core")
        right.set_title(f"{arguments.variant}, batch of {arguments.batch}")
        right.grid(True, alpha=0.3)
        figure.tight_layout()
        Path(arguments.figure).parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(arguments.figure, dpi=120)
        print(f"figure saved to {arguments.figure}")


def million(arguments: argparse.Namespace) -> None:
    """A tournament through the runner with batch shards, writing Parquet."""
    import polars as pl
    import raspis.tournament.runner as runner
    from raspis.tournament import TournamentConfig, run_tournament
    from raspis.tournament.batch_shard import run_shard_batch

    for name, target in SCALAR_TWINS.items():
        registry.BUILTINS.setdefault(name, target)
    options: dict[str, object] = {}
    if "engine" in TournamentConfig.__dataclass_fields__:
        options["engine"] = "batch"  # the runner picks the batch engine itself
    else:
        runner.run_shard = run_shard_batch  # type: ignore[attr-defined]  # an older runner
    config = TournamentConfig(
        variants=(arguments.variant,), players=arguments.players,
        strategies=(arguments.strategy,) * arguments.players, games=arguments.games,
        seed=arguments.seed, shard_size=arguments.shard_size, **options,  # type: ignore[arg-type]
    )
    out = Path(arguments.out) if arguments.out else Path(tempfile.mkdtemp()) / "run"
    started = time.perf_counter()
    summary = run_tournament(config, out, workers=arguments.workers)
    seconds = time.perf_counter() - started
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    games = pl.scan_parquet(out / "games" / "*.parquet").select(pl.len()).collect().item()
    size = sum(path.stat().st_size for path in out.rglob("*.parquet")) / 2**20
    print(f"{summary.games:,} games ({games:,} game rows), {arguments.variant}, "
          f"{arguments.players} players, {arguments.strategy} x{arguments.players}, "
          f"{arguments.workers} workers, shards of {arguments.shard_size}")
    print(f"  {seconds:.1f} s, {summary.games / seconds:,.0f} games/s; Parquet {size:.0f} MiB")
    print(f"  peak memory: parent {parent:.0f} MiB, largest worker {children:.0f} MiB")
    if not arguments.out:
        shutil.rmtree(out.parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["decisions", "curves", "million"])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strategy", default="fastheuristic")
    parser.add_argument("--batch", type=int, default=16384)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="256,512,1024,2048,4096,8192,16384,32768")
    parser.add_argument("--figure", default="")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shard-size", type=int, default=16384)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="")
    arguments = parser.parse_args()
    {"decisions": decisions, "curves": curves, "million": million}[arguments.what](arguments)


if __name__ == "__main__":
    main()
