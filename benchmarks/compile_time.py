"""Benchmark (not a test): the compiled core's first-run compile time against a loaded cache.

    rm -rf /tmp/coldcache
    RASPIS_CACHE_DIR=/tmp/coldcache .venv/bin/python benchmarks/compile_time.py cold
    RASPIS_CACHE_DIR=/tmp/coldcache .venv/bin/python benchmarks/compile_time.py warm

Imports the engine and plays one classic game on each engine (``engine.Game`` and a
``play_batch`` of 64 games), so every rule function and batch kernel such a game uses is compiled
(with an empty cache) or loaded (once the cache is there); prints wall and CPU time.
"""

from __future__ import annotations

import sys
import time

started, cpu = time.perf_counter(), time.process_time()

import numpy as np  # noqa: E402
from raspis.engine import Game, load_variant  # noqa: E402
from raspis.engine.batch import play_batch  # noqa: E402
from raspis.strategies.batch import load_batch_strategy  # noqa: E402

variant = load_variant("classic")
game = Game(variant, 4, 1, log=False)
while not game.is_over():
    game.apply_unchecked(game.legal_actions()[0])
play_batch(variant, 4, np.arange(64, dtype=np.uint64), [load_batch_strategy("fastheuristic")])
label = sys.argv[1] if len(sys.argv) > 1 else "run"
print(f"{label}: wall {time.perf_counter() - started:.2f} s, "
      f"CPU {time.process_time() - cpu:.2f} s (import, one game on each engine)")
