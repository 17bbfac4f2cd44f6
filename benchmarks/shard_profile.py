"""One batch shard of the classic 4-player ``fastheuristic`` tournament, timed (not a test).

    .venv/bin/python -m benchmarks.shard_profile --games 20000

Plays ``--games`` games with ``play_batch`` (the compiled loop) and builds the shard's tables
with ``tournament.frames.result_frames`` (no per-deal rows, as a ``--quiet`` million-game run
writes), and prints the CPU seconds of each (``process_time``; a warm-up batch loads the
compiled code first), then a cProfile of a second pass.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np
from raspis.engine.batch.game import play_batch
from raspis.engine.variant import load_variant
from raspis.strategies.batch import load_batch_strategy
from raspis.tournament.batch_shard import game_seeds
from raspis.tournament.frames import result_frames


def one_pass(variant, games: int, seeds: np.ndarray, strategies: list) -> None:  # noqa: ANN001
    """Play the games and build their tables, printing the CPU time of each."""
    seatings = np.tile(np.arange(4), (games, 1))
    deal_sets = np.arange(games, dtype=np.int64)
    started = time.process_time()
    result = play_batch(variant.for_player_count(4), 4, seeds, strategies, seatings)
    played = time.process_time()
    result_frames(result, variant=variant, strategies=("fastheuristic",) * 4, seatings=seatings,
                  deal_sets=deal_sets, seating_index=np.zeros(games, dtype=np.int64),
                  game_ids=deal_sets, deal_rows=False, total_deal_sets=games)
    framed = time.process_time()
    print(f"play {played - started:.2f} s ({result.decisions / (played - started) / 1e6:.2f} M "
          f"decisions/s), frames {framed - played:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--variant", default="classic")
    arguments = parser.parse_args()
    variant = load_variant(arguments.variant)
    strategies = [load_batch_strategy("fastheuristic")] * 4
    seeds = game_seeds(1, np.arange(arguments.games, dtype=np.int64))
    one_pass(variant, 100, seeds[:100], strategies)  # warm-up: load or compile the code
    one_pass(variant, arguments.games, seeds, strategies)
    profile = cProfile.Profile()
    profile.runcall(one_pass, variant, arguments.games, seeds, strategies)
    pstats.Stats(profile).sort_stats("cumtime").print_stats(12)


if __name__ == "__main__":
    main()
