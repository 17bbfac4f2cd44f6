"""Benchmark (not a test): where another strategy decides otherwise than ``strong``, and when.

    .venv/bin/python -m benchmarks.agreement --variant oh-hell --games 30 --spec mc:samples=100
    .venv/bin/python -m benchmarks.agreement --cards --variant classic --games 4 \
        --spec mc:samples=100

Four ``strong`` seats play ``--games`` games of the variant (game seeds ``--seed`` on); at every
decision with a choice, the strategy of ``--spec`` is asked too, on the same observation (its
answer is not played: the games stay ``strong``'s). Deterministic: the same arguments print the
same counts.

Bids (the default): how often the two agree, the difference of the bids (the spec's minus
``strong``'s) overall, and its split by the seat's place in the bidding order, the hand size and
the pressure of ``strong``'s fitted table (the bids before the seat below, about or above their
share: ``policies.bids.fit_bucket``). A difference that one of these explains is a bias a table
could correct; one that none does needs what the spec sees and the table does not (the exact hand).

Cards (``--cards``): at every card with two or more distinct choices (cards of a suit next to each
other in what is still out count as one; the Joker's calls apart), how often the spec plays
``strong``'s card, split by the seat's place in the trick (leading, between, last), by whether it
still wants tricks (``policies.cards.seat_aims``: need above 0), by the Joker (``strong`` plays
one; the spec plays one where ``strong`` plays a plain card; one is held and both play plain
cards; none may be played) and by the cards left in hand.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from dataclasses import dataclass

from raspis.engine import load_variant
from raspis.engine.cards import JOKER
from raspis.engine.game import Game, Phase
from raspis.strategies import load_strategy
from raspis.strategies.players.search import distinct_plays, representative
from raspis.strategies.players.strong import action_of, policy_table
from raspis.strategies.policies import compiled
from raspis.strategies.policies.bids import bid_bucket
from raspis.strategies.policies.cards import seat_aims
from raspis.strategies.policies.section import BUCKETS
from raspis.strategies.policies.strong import decide_strong


@dataclass(frozen=True)
class BidPair:
    """One bid with a choice: where it was made and what each side bids."""

    hand_size: int
    position: int
    pressure: int
    strong: int
    other: int


@dataclass(frozen=True)
class CardPair:
    """One card decision with a choice: where it was made and whether the two agree."""

    place: str
    wants: str
    in_hand: int
    same: bool
    joker: str


def decision_pairs(variant_name: str, players: int, games: int, spec: str, seed: int,
              cards: bool = False) -> list[BidPair] | list[CardPair]:
    """Every bid (``cards``: every card) with a choice in ``games`` games of ``strong`` seats,
    with ``spec``'s decision beside ``strong``'s."""
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
            if cards and phase == Phase.PLAY:
                observation = game.observation(game.to_move)
                choices = distinct_plays(observation)
                if len(choices) > 1:
                    pairs.append(_card_pair(game, observation, choices, others, code))
                game.apply_unchecked(action_of(code, phase))
                continue
            legal = game.view.legal_first if phase == Phase.BID and not cards else 0
            if legal & (legal - 1):
                seat = game.to_move
                other = others[seat].act(game.observation(seat)).tricks  # type: ignore[union-attr]
                hand_size = game.deal.hand_size
                pressure = int(bid_bucket(state, plan, table, at)) // (BUCKETS * hand_size + 1)
                pairs.append(BidPair(hand_size, list(game.view.order).index(seat), pressure, code,
                                     other))
            game.apply_unchecked(action_of(code, phase))
    return pairs


def _card_pair(game: Game, observation, choices: list, others: list, code: int) -> CardPair:  # noqa: ANN001
    """The spec's card against ``strong``'s (``code``), each as its class of equivalent cards."""
    seat = game.to_move
    other = representative(choices, others[seat].act(observation))
    own = representative(choices, action_of(code, Phase.PLAY))
    in_trick = len(observation.trick)
    place = ("leads" if in_trick == 0 else "last" if in_trick == len(observation.order) - 1
             else "between")
    remaining = observation.hand.bit_count()
    need = seat_aims(game.state, game.tables.plan, seat, remaining, True)[0]
    if own.card >= JOKER:
        joker = "strong plays a Joker"
    elif other.card >= JOKER:
        joker = "the spec plays a Joker"
    elif any(choice.card >= JOKER for choice in choices):
        joker = "a Joker held, both plain"
    else:
        joker = "no Joker to play"
    return CardPair(place, "wants tricks" if need > 0 else "wants none", remaining, other == own,
                    joker)


def _card_line(label: str, pairs: list[CardPair]) -> str:
    count = len(pairs)
    return f"  {label:<26} {count:>6}  same {sum(pair.same for pair in pairs) / count:4.0%}"


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
    parser.add_argument("--cards", action="store_true", help="the cards played, not the bids")
    arguments = parser.parse_args(argv)
    started = time.process_time()
    pairs = decision_pairs(arguments.variant, arguments.players, arguments.games, arguments.spec,
                      arguments.seed, arguments.cards)
    if not pairs:
        print("no decision with a choice in these games", file=sys.stderr)
        return 1
    if arguments.cards:
        print(f"{arguments.variant}, {arguments.players} players, {arguments.games} games of "
              f"strong: {len(pairs)} cards with a choice, {arguments.spec} asked beside "
              f"({time.process_time() - started:.0f} s of CPU)")
        print(_card_line("all", pairs))
        for name in ("place", "wants", "joker"):
            for value in sorted({getattr(pair, name) for pair in pairs}):
                print(_card_line(f"{value}", [p for p in pairs if getattr(p, name) == value]))
        for place in ("leads", "between", "last"):
            for wants in ("wants tricks", "wants none"):
                chosen = [p for p in pairs if p.place == place and p.wants == wants]
                if chosen:
                    print(_card_line(f"{place}, {wants}", chosen))
        for low, high in ((1, 3), (4, 6), (7, 9), (10, 13)):
            chosen = [p for p in pairs if low <= p.in_hand <= high]
            if chosen:
                print(_card_line(f"{low}-{high} cards in hand", chosen))
        return 0
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
