"""Speed of the open-hand solver (not a test): whole deals solved from their first card.

    .venv/bin/python benchmarks/solver_speed.py --variant oh-hell --hand 5 --deals 50

For ``--deals`` random deals of ``--hand`` cards a player (a random trump suit, random legal bids),
it solves the value of every legal first lead of the first player with all hands open
(``strategies.players.solver.OpenHandSolver.values``, both models unless ``--model`` is given) and
prints the mean and largest time and search nodes a deal. The first deal also loads (or compiles)
the compiled search and is left out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from raspis.engine import Variant, load_variant
from raspis.engine.game import Game, Phase
from raspis.strategies.players.solver import MODELS, OpenHandSolver


def first_lead(variant: Variant, players: int, hand: int, rng: random.Random) -> Game:
    """A one-deal game of ``variant`` at its first card: ``hand`` cards a player dealt at random,
    a random trump suit, random legal bids."""
    deck = list(variant.deck_cards)
    rng.shuffle(deck)
    hands = [sum(1 << card for card in deck[seat * hand:(seat + 1) * hand])
             for seat in range(players)]
    game = Game.single_deal(variant, hands, rng.randrange(4), dealer=0, log=False)
    while game.phase != Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="oh-hell")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hand", type=int, default=5, help="cards a player")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--model", choices=MODELS, action="append")
    parser.add_argument("--seed", type=int, default=5)
    arguments = parser.parse_args(argv)
    variant = load_variant(arguments.variant).for_player_count(arguments.players)
    for model in arguments.model or MODELS:
        rng = random.Random(arguments.seed)
        solver = OpenHandSolver(budget=10**9, model=model)
        times: list[float] = []
        nodes: list[int] = []
        for index in range(arguments.deals + 1):
            game = first_lead(variant, arguments.players, arguments.hand, rng)
            actions = list(game.legal_action_tuple())
            before = solver.nodes
            started = time.perf_counter()
            solver.values(game, game.to_move, actions)
            if index:  # the first deal loads the compiled code
                times.append(time.perf_counter() - started)
                nodes.append(solver.nodes - before)
        print(f"{arguments.variant}, {arguments.players} players x {arguments.hand} cards, "
              f"{model}: {statistics.fmean(times) * 1e3:.1f} ms a deal on average (median "
              f"{statistics.median(times) * 1e3:.1f}, largest {max(times) * 1e3:.1f}), "
              f"{statistics.fmean(nodes):,.0f} nodes on average (largest {max(nodes):,})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
