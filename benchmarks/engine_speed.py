"""Benchmark of the two engines against OpenSpiel's ``oh_hell`` (not a test): decisions per second.

    .venv/bin/python benchmarks/engine_speed.py --repeat 5
    .venv/bin/python benchmarks/engine_speed.py --repeat 5 --only reference batch

Three measurements, taken in turn in one process, each the median of ``--repeat`` runs, in CPU
time of the process (another job on the machine slows it less than wall time):

- ``reference``: ``engine.Game`` through ``play_game`` (observations, legal actions, the checks a
  tournament makes), classic, 4 players, a trivial Python strategy that returns its first legal
  action: what a user's own strategy costs on top of its own code;
- ``batch``: ``engine.batch.play_batch``, classic, 4 players, ``fastheuristic`` at every seat,
  16,384 games: whole games in the compiled loop of ``engine.batch.compiled``;
- ``lockstep`` (only when asked): the same with ``compiled=False``: the lockstep loop of
  ``engine.batch.game`` (``fastheuristic`` is a compiled policy, decided inside its stepper);
- ``openspiel``: OpenSpiel's ``oh_hell`` driven from Python (``pyspiel``: 4 players, 4 suits of 9
  cards, the number of tricks drawn by chance as the game does), uniformly random legal actions
  (``pip install open_spiel``; skipped when it is not installed). Chance nodes are sampled and not
  counted as decisions;
- ``isolated`` (only when asked: ``--only isolated reference``): the reference engine with every
  seat's ``lowest`` in a process of its own (``isolated+lowest``), in wall time, since the work
  is in the children: the cost of isolation per decision.

The script uses only the public API, so it also measures an older checkout: put a directory whose
``raspis`` package points at that checkout first on ``PYTHONPATH`` (see ``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np


def reference(games: int) -> tuple[float, int]:
    """(CPU seconds, decisions) of ``games`` classic games between first-legal-action players."""
    from raspis.engine import load_variant
    from raspis.strategies.base import Strategy
    from raspis.strategies.play import play_game

    counter = [0]

    class FirstLegal(Strategy):
        name = "first-legal"

        def act(self, observation):  # noqa: ANN001, ANN201
            counter[0] += 1
            return observation.legal_actions[0]

    variant = load_variant("classic")
    players = [FirstLegal() for _ in range(4)]
    play_game(variant, 4, 10**9, players)  # warm up (loads the compiled core)
    counter[0] = 0
    started = time.process_time()
    for seed in range(games):
        play_game(variant, 4, seed, players)
    return time.process_time() - started, counter[0]


def batch(games: int) -> tuple[float, int]:
    """(CPU seconds, decisions) of ``games`` classic games of ``fastheuristic`` in lockstep."""
    from raspis.engine import load_variant
    from raspis.engine.batch import play_batch
    from raspis.strategies.batch import load_batch_strategy

    variant = load_variant("classic")
    strategy = load_batch_strategy("fastheuristic")
    play_batch(variant, 4, np.arange(10**9, 10**9 + 256, dtype=np.uint64), [strategy])
    started = time.process_time()
    result = play_batch(variant, 4, np.arange(games, dtype=np.uint64), [strategy])
    return time.process_time() - started, result.decisions


def lockstep(games: int) -> tuple[float, int]:
    """``batch`` with the whole-game compiled loop turned off: the lockstep loop (for
    comparison; ``benchmarks.lockstep_rate`` measures it with numpy strategies)."""
    from raspis.engine import load_variant
    from raspis.engine.batch import play_batch
    from raspis.strategies.batch import load_batch_strategy

    variant = load_variant("classic")
    strategy = load_batch_strategy("fastheuristic")
    play_batch(variant, 4, np.arange(10**9, 10**9 + 256, dtype=np.uint64), [strategy],
               compiled=False)
    started = time.process_time()
    result = play_batch(variant, 4, np.arange(games, dtype=np.uint64), [strategy],
                        compiled=False)
    return time.process_time() - started, result.decisions


def isolated(games: int) -> tuple[float, int]:
    """(wall seconds, decisions) of classic games of ``lowest`` at every seat, each seat in a
    process of its own (``isolated+lowest``): the cost of isolation, the round trip included."""
    from raspis.engine import load_variant
    from raspis.strategies import load_strategy
    from raspis.strategies.play import play_game

    variant = load_variant("classic")
    players = [load_strategy("isolated+lowest") for _ in range(4)]
    play_game(variant, 4, 10**9, players)  # starts the children
    decisions = 0
    started = time.perf_counter()
    for seed in range(games):
        record = play_game(variant, 4, seed, players)
        decisions += sum(len(result.bids) for result in record.game.results)
        decisions += sum(result.hand_size * len(result.bids) for result in record.game.results)
    seconds = time.perf_counter() - started
    for player in players:
        player.close()
    return seconds, decisions


def openspiel(games: int) -> tuple[float, int] | None:
    """(CPU seconds, decisions) of ``games`` random games of OpenSpiel's ``oh_hell``."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_suits": 4, "num_cards_per_suit": 9})
    chooser = random.Random(1)
    decisions = 0
    started = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chooser.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[chooser.randrange(len(actions))])
                decisions += 1
    return time.process_time() - started, decisions


def main() -> None:
    """Run the measurements and print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--reference-games", type=int, default=200)
    parser.add_argument("--batch-games", type=int, default=16384)
    parser.add_argument("--openspiel-games", type=int, default=2000)
    parser.add_argument("--isolated-games", type=int, default=20)
    parser.add_argument("--only", nargs="+", default=["reference", "batch", "openspiel"],
                        choices=["reference", "batch", "lockstep", "openspiel", "isolated"])
    arguments = parser.parse_args()
    jobs = {"reference": (reference, arguments.reference_games),
            "batch": (batch, arguments.batch_games),
            "lockstep": (lockstep, arguments.batch_games),
            "openspiel": (openspiel, arguments.openspiel_games),
            "isolated": (isolated, arguments.isolated_games)}
    rates: dict[str, list[float]] = {name: [] for name in arguments.only}
    for _ in range(arguments.repeat):  # interleaved, so a busy spell slows every engine alike
        for name in arguments.only:
            function, games = jobs[name]
            measured = function(games)
            if measured is None:
                continue
            seconds, decisions = measured
            rates[name].append(decisions / seconds)
    medians = {name: statistics.median(values) for name, values in rates.items() if values}
    for name, values in rates.items():
        if not values:
            print(f"{name:>10}: skipped (pip install open_spiel to measure it)")
            continue
        runs = ", ".join(f"{value:,.0f}" for value in values)
        print(f"{name:>10}: median {medians[name]:,.0f} decisions/s per core (runs: {runs})")
    if "openspiel" in medians:
        for name in ("reference", "batch", "lockstep"):
            if name in medians:
                print(f"{name:>10} / openspiel: {medians[name] / medians['openspiel']:.2f}x")


if __name__ == "__main__":
    main()
