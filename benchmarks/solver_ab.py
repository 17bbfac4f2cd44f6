"""Benchmark (not a test): the open-hand solver's search against another copy of it, side by side.

    git show HEAD~1:engine/core/solve.py > /tmp/solve_before.py
    .venv/bin/python -m benchmarks.solver_ab /tmp/solve_before.py --rounds 7

Records the calls ``strategies.players.solver.OpenHandSolver`` makes to ``solve_moves`` and
``solve_moves_maxn`` when it values every first lead of random deals (as
``benchmarks/solver_speed.py`` does) of a few variants, then replays each call on this checkout's
``engine/core/solve.py`` and on the other copy (loaded as a module of ``raspis.engine.core``, so
it runs on this checkout's rules; it must take the same arguments: the ``solve.Position`` and
``solve.Table`` records), each call on both one after the other, which first alternating,
each with a fresh transposition table. Checks that both give the same values and search the
same nodes, and prints each model's CPU time on each copy: the median of the rounds, the
fastest and slowest round, and the ratio of the medians. The first replay of each copy loads (or
compiles) its code and is not counted.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from types import ModuleType
from typing import Any

import numpy as np
from raspis.engine import load_variant
from raspis.engine.core import solve
from raspis.strategies.players.solver import MODELS, OpenHandSolver

from benchmarks.solver_speed import first_lead

#: the searches recorded
SEARCHES = ("solve_moves", "solve_moves_maxn")
#: the calls' arguments (the same for both searches): the position (its hands are scratch), the
#: values or outcomes, the transposition table and the stats (fresh for each replay)
POSITION, RESULTS, TABLE, STATS = 3, 6, 7, 8


def load_copy(path: str) -> ModuleType:
    """``path`` (a copy of ``engine/core/solve.py``) as a module beside the real one."""
    name = "raspis.engine.core._solve_other"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def record(variants: list[str], models: list[str], players: int, hand: int, deals: int,
           seed: int, through: ModuleType) -> list[tuple[str, tuple[Any, ...]]]:
    """The calls the solver makes on ``deals`` random deals of each variant with each of
    ``models`` (searched by ``through``'s copy): (function name, its arguments as copies)."""
    calls: list[tuple[str, tuple[Any, ...]]] = []
    originals = {name: getattr(solve, name) for name in SEARCHES}
    searches = {name: getattr(through, name) for name in SEARCHES}

    def recorder(name: str) -> Any:
        def call(*arguments: Any) -> None:
            calls.append((name, tuple(
                None if index in (TABLE, STATS)  # fresh at each replay
                else arguments[POSITION]._replace(hands=np.copy(arguments[POSITION].hands))
                if index == POSITION
                else np.copy(value) if isinstance(value, np.ndarray) else value
                for index, value in enumerate(arguments))))
            searches[name](*arguments)
        return call

    for name in SEARCHES:
        setattr(solve, name, recorder(name))
    try:
        for variant_name in variants:
            variant = load_variant(variant_name).for_player_count(players)
            for model in models:
                rng = random.Random(seed)
                solver = OpenHandSolver(budget=10**9, model=model)
                for _ in range(deals):
                    game = first_lead(variant, players, hand, rng)
                    solver.values(game, game.to_move, list(game.legal_action_tuple()))
    finally:
        for name, function in originals.items():
            setattr(solve, name, function)
    return calls


def replay(module: ModuleType, name: str, arguments: tuple[Any, ...],
           table: solve.Table) -> tuple[int, list[int], int]:
    """One recorded call on ``module``'s copy: (CPU nanoseconds, its results, nodes searched)."""
    values = list(arguments)
    for value in table:
        value[:] = 0
    table.move[:] = -1
    values[TABLE] = table
    position = arguments[POSITION]
    values[POSITION] = position._replace(hands=np.copy(position.hands))  # hands: scratch
    values[RESULTS] = np.zeros_like(arguments[RESULTS])
    stats = np.zeros(2, dtype=np.int64)
    values[STATS] = stats
    function = getattr(module, name)
    started = time.process_time_ns()
    function(*values)
    spent = time.process_time_ns() - started
    return spent, [int(value) for value in values[RESULTS]], int(stats[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="another copy of engine/core/solve.py")
    parser.add_argument("--variant", action="append",
                        help="variants (default: oh-hell, classic, joker)")
    parser.add_argument("--model", choices=MODELS, action="append",
                        help="models (default: both)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hand", type=int, default=6, help="cards a player")
    parser.add_argument("--deals", type=int, default=10, help="deals of each variant")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--table-bits", type=int, default=18)
    parser.add_argument("--other-first", action="store_true",
                        help="load (or compile) the other copy's code before this one's")
    arguments = parser.parse_args(argv)
    other = load_copy(arguments.other)
    copies = {"this": solve, "other": other}
    variants = arguments.variant or ["oh-hell", "classic", "joker"]
    # the same machine code may run faster or slower where it lands: which copy is loaded
    # first (the recording runs on it) is a choice
    first = other if arguments.other_first else solve
    calls = record(variants, arguments.model or list(MODELS), arguments.players, arguments.hand,
                   arguments.deals, arguments.seed, first)
    table = solve.new_table(arguments.table_bits)
    times = {(label, name): [0] * arguments.rounds for label in copies for name in SEARCHES}
    counts = dict.fromkeys(SEARCHES, 0)
    nodes = dict.fromkeys(SEARCHES, 0)
    names = sorted({name for name, _ in calls})
    for name in names:  # load or compile each copy's code
        call = next(call for called, call in calls if called == name)
        for module in (first, other if first is solve else solve):
            replay(module, name, call, table)
    for round_index in range(arguments.rounds):
        for number, (name, call) in enumerate(calls):
            order = list(copies.items())
            if (number + round_index) % 2:
                order.reverse()
            answers = {}
            for label, module in order:
                spent, results, searched = replay(module, name, call, table)
                times[label, name][round_index] += spent
                answers[label] = (results, searched)
            if answers["this"] != answers["other"]:
                print(f"different answers, call {number} ({name}): {answers}")
                return 1
            if round_index == 0:
                counts[name] += 1
                nodes[name] += answers["this"][1]
    print(f"{', '.join(variants)}; {arguments.players} players x {arguments.hand} cards, "
          f"{arguments.deals} deals each; {arguments.rounds} rounds; the same answers")
    for name in names:
        medians = {}
        for label in copies:
            spent = [value / 1e9 for value in times[label, name]]
            medians[label] = statistics.median(spent)
            print(f"  {name:17} {label:5}: {medians[label]:.3f} s CPU a round (median; "
                  f"{min(spent):.3f}-{max(spent):.3f}), {counts[name]} calls, "
                  f"{nodes[name]:,} nodes")
        print(f"  {name:17} this / other: {medians['this'] / medians['other']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
