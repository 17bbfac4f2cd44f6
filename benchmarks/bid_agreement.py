"""Benchmark (not a test): where a strategy's bids differ from ``strong``'s, position by position.

    .venv/bin/python -m benchmarks.bid_agreement --variant oh-hell --games 30 --spec mc:samples=100

Four ``strong`` seats play ``--games`` games of the variant (game seeds ``--seed`` on); at every
bid with a choice, the strategy of ``--spec`` is asked too, on the same observation (its answer
is not played: the games stay ``strong``'s). Prints how often the two agree, the difference of the
bids (the spec's minus ``strong``'s) overall, and its split by the seat's place in the bidding
order, the hand size and the pressure of ``strong``'s fitted table (the bids before the seat
below, about or above their share: ``strong_policy.fit_bucket``). A difference that one of these
explains is a bias a table could correct; one that none does needs what the spec sees and the
table does not (the exact hand). Deterministic: the same arguments print the same counts.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from dataclasses import dataclass

from raspis.engine import load_variant
from raspis.engine.game import Game, Phase
from raspis.strategies import compiled, load_strategy
from raspis.strategies.strong import action_of, policy_table
from raspis.strategies.strong_policy import BUCKETS, bid_bucket, decide_strong


@dataclass(frozen=True)
class BidPair:
    """One bid with a choice: where it was made and what each side bids."""

    hand_size: int
    position: int
    pressure: int
    strong: int
    other: int


def bid_pairs(variant_name: str, players: int, games: int, spec: str, seed: int) -> list[BidPair]:
    """Every bid with a choice in ``games`` games of ``strong`` seats, with ``spec``'s bid."""
    variant = load_variant(variant_name)
    pairs = []
    for number in range(games):
        game_seed = seed + number
        game = Game(variant, players, game_seed, log=False)
        table = policy_table(game.tables, game.plan)
        at = int(table[compiled.T_STRONG_AT])
        plan = game.tables.plan
        others = [load_strategy(spec) for _ in range(players)]
        for seat, strategy in enumerate(others):
            strategy.start_game(game.variant, seat, players, random.Random(game_seed * 16 + seat))
        while not game.is_over():
            state, phase = game.state, game.phase
            code = int(decide_strong(state, plan, table, at))
            legal = game.fields.legal_first if phase == Phase.BID else 0
            if legal & (legal - 1):
                seat = game.to_move
                other = others[seat].act(game.observation(seat)).tricks  # type: ignore[union-attr]
                hand_size = game.deal.hand_size
                pressure = int(bid_bucket(state, plan, table, at)) // (BUCKETS * hand_size + 1)
                pairs.append(BidPair(hand_size, list(game.order).index(seat), pressure, code,
                                     other))
            game.apply_unchecked(action_of(code, phase))
    return pairs


def _line(label: str, pairs: list[BidPair]) -> str:
    count = len(pairs)
    lower = sum(pair.other < pair.strong for pair in pairs) / count
    higher = sum(pair.other > pair.strong for pair in pairs) / count
    mean = sum(pair.other - pair.strong for pair in pairs) / count
    return (f"  {label:<18} {count:>6}  same {1 - lower - higher:4.0%}  lower {lower:4.0%}  "
            f"higher {higher:4.0%}  mean {mean:+.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="oh-hell", help="preset name or variant file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--spec", default="mc:samples=100", help="the strategy asked beside")
    parser.add_argument("--seed", type=int, default=777_000, help="the first game's seed")
    arguments = parser.parse_args(argv)
    started = time.process_time()
    pairs = bid_pairs(arguments.variant, arguments.players, arguments.games, arguments.spec,
                      arguments.seed)
    if not pairs:
        print("no bid with a choice in these games", file=sys.stderr)
        return 1
    print(f"{arguments.variant}, {arguments.players} players, {arguments.games} games of strong: "
          f"{len(pairs)} bids with a choice, {arguments.spec} asked beside "
          f"({time.process_time() - started:.0f} s of CPU)")
    differences = collections.Counter(pair.other - pair.strong for pair in pairs)
    print("  its bid minus strong's: "
          + ", ".join(f"{step:+d}: {count}" for step, count in sorted(differences.items())))
    print(_line("all", pairs))
    for name in ("position", "hand_size", "pressure"):
        for value in sorted({getattr(pair, name) for pair in pairs}):
            print(_line(f"{name} {value}", [p for p in pairs if getattr(p, name) == value]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
