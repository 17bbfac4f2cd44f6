"""Benchmark (not a test): the compiled core's first-run compile time against a loaded cache.

    rm -rf /tmp/coldcache
    RASPIS_CACHE_DIR=/tmp/coldcache .venv/bin/python -m benchmarks.compile_time cold --functions
    RASPIS_CACHE_DIR=/tmp/coldcache .venv/bin/python -m benchmarks.compile_time warm

Imports the engine, plays one classic game on the reference engine (``engine.Game``), then a
``play_batch`` of 64 games with the lineup of ``make run``'s study (``strong`` x2,
``fastheuristic``, ``lowest``: the compiled loop ``play_games``) and one with ``fastheuristic`` at
every seat (its loop of its own, ``play_games_fast``), so every rule function and compiled policy
such games use is compiled (with an empty cache) or loaded (once the cache is there); prints the
wall and CPU time of each part. The study's lineup is what ``make run`` compiles (``--batch-only``
measures it alone, as ``make run`` meets it: first, in an empty cache). ``--functions``
also lists the functions numba compiled that took longest, by the CPU time spent in each one itself
(its own type inference and code generation; the callees it compiled on the way are counted apart).

``--game-only`` stops after the game on ``engine.Game``: what ``raspis play`` compiles; with
``--beside`` the game's ``step`` compiles in a child process beside its start, as ``raspis play``
does (``engine.game.compile_ahead``). Side by side, each with an empty cache:

    for mode in "" --beside "" --beside; do RASPIS_CACHE_DIR=$(mktemp -d) \
        .venv/bin/python -m benchmarks.compile_time cold --game-only $mode; done
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from raspis.engine import Variant

started = time.perf_counter(), time.process_time()


def main() -> None:
    """Print the time of each part, and with ``--functions`` the slowest compiled functions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", nargs="?", default="run")
    parser.add_argument("--functions", type=int, nargs="?", const=15, default=0,
                        help="list this many of the slowest compiled functions (default 15)")
    parser.add_argument("--game-only", action="store_true",
                        help="stop after the game on engine.Game (what `raspis play` compiles)")
    parser.add_argument("--batch-only", action="store_true",
                        help="skip the game on engine.Game: what `make run` compiles first")
    parser.add_argument("--beside", action="store_true",
                        help="compile the game's step beside its start, as `raspis play` does "
                        "(engine.game.compile_ahead)")
    options = parser.parse_args()
    compiled = _record_compiles() if options.functions else None
    mark = list(started)

    def part(name: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        print(f"{options.label}: {name}: wall {wall - mark[0]:.1f} s, CPU {cpu - mark[1]:.1f} s")
        mark[:] = [wall, cpu]

    import numpy as np
    from raspis.engine import load_variant
    from raspis.engine.batch import play_batch
    from raspis.strategies.batch import load_batch_strategy

    part("import")
    variant = load_variant("classic")
    if not options.batch_only:
        _one_game(variant, options)
        part("one game on engine.Game" + (", step compiled beside" if options.beside else ""))
        if options.game_only:
            _summary(options, compiled)
            return
    seeds = np.arange(64, dtype=np.uint64)
    study = ["strong", "strong", "fastheuristic", "lowest"]
    play_batch(variant, 4, seeds, [load_batch_strategy(spec) for spec in study])
    part("play_batch, the study's lineup (strong x2, fastheuristic, lowest)")
    play_batch(variant, 4, seeds, [load_batch_strategy("fastheuristic")])
    part("play_batch, fastheuristic x4")
    _summary(options, compiled)


def _one_game(variant: Variant, options: argparse.Namespace) -> None:
    """One classic game on ``engine.Game`` (first legal actions), its ``step`` compiled beside its
    start with ``--beside``."""
    from raspis.engine import Game

    if options.beside:
        from raspis.engine.game import compile_ahead

        compile_ahead(variant, 4)
    game = Game(variant, 4, 1, log=False)
    while not game.is_over():
        game.apply_unchecked(game.legal_actions()[0])


def _summary(options: argparse.Namespace, compiled: list[tuple[float, float, str]] | None) -> None:
    """The wall and CPU time in all (this process's CPU: a child compiling beside is not in it),
    and with ``--functions`` the slowest compiled functions."""
    wall, cpu = time.perf_counter() - started[0], time.process_time() - started[1]
    print(f"{options.label}: in all: wall {wall:.1f} s, CPU {cpu:.1f} s")
    if compiled is not None:
        compiled.sort(reverse=True)
        print(f"numba compiled {len(compiled)} functions, {sum(c[0] for c in compiled):.1f} s of "
              "CPU in all; the slowest (own CPU s, with callees):")
        for own, total, name in compiled[:options.functions]:
            print(f"  {own:6.2f} {total:6.2f}  {name}")


def _record_compiles() -> list[tuple[float, float, str]]:
    """Note each function numba compiles: (own CPU s, CPU s with callees compiled inside, name)."""
    from numba.core import event

    compiled: list[tuple[float, float, str]] = []

    class Listener(event.Listener):
        def __init__(self) -> None:
            self.stack: list[list[float]] = []

        def on_start(self, started_event: event.Event) -> None:
            self.stack.append([time.process_time(), 0.0])

        def on_end(self, ended_event: event.Event) -> None:
            began, inner = self.stack.pop()
            total = time.process_time() - began
            if self.stack:
                self.stack[-1][1] += total
            function = ended_event.data["dispatcher"].py_func
            name = f"{function.__module__.removeprefix('raspis.')}.{function.__name__}"
            compiled.append((total - inner, total, name))

    event.register("numba:compile", Listener())
    return compiled


if __name__ == "__main__":
    main()
