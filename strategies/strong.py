"""``strong``: the heuristic's rules as a compiled policy of the batch engine, and its scalar twin.

``BatchStrong`` (batch spec ``strong``) is a compiled policy (``strategies.strong_policy``, code
``compiled.STRONG``): when every seat of a batch is compiled, whole games are played in one numba
loop (``engine.batch.compiled``), at millions of decisions a second. What it plays is described
in ``strategies.strong_policy``: the scalar ``heuristic``'s bidding (card chances, calibrated, the
bid with the best expected points under the deal's own score table) and card play (keepers,
cheapest holding winner, ducking with the most dangerous loser, the Joker kept for when it
counts), plus the premium of a span kept in reach (002; as ``heuristic:premium=true``).

``StrongStrategy`` (scalar spec ``strong``) is its twin in ``engine.Game``
(``strategies.twin.CompiledTwin``): it runs the same compiled function on the state of the game
the observation was taken from, so the two engines play the very same games. Where an observation
carries no state (a strategy in its own process, or seated in the numpy lockstep loop), the twin
rebuilds the deal from the observation with the hidden hands guessed: the policy never reads
them, but such a rebuilt deal knows nothing of the premium span and of tricks the memory rule
hides, so there the twin plays as ``strong`` without the premium.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
from raspis.engine import Variant
from raspis.engine.core.plan import MachineTables, RulePlan
from raspis.engine.game import Game, Phase

from . import compiled
from .base import Parameter
from .batch import BatchStrategy, ScalarAdapter
from .strong_policy import decide_strong
from .twin import CompiledTwin, action_of


def policy_table(tables: MachineTables, plan: RulePlan, fitted: bool = True) -> np.ndarray:
    """The policies' table with ``strong``'s section (``compiled.policy_table``, made once);
    ``fitted``: with the shipped fitted bid outcomes."""
    return compiled.policy_table(tables, plan, fitted)


def fit_bids(variant: Variant, players: int, games: int, seed: int = 1, explore: float = 0.5,
             fitted: bool = False,
             progress: Callable[[int, int], None] | None = None) -> dict[int, np.ndarray]:
    """Count what ``strong``'s bids come to in self-play: ``counts[hand_size][bucket, bid,
    taken]``, the deals of a seat whose expected tricks fell in ``bucket`` (``BUCKETS`` a trick,
    ``strong_policy.fit_bucket``), that bid ``bid`` and took ``taken`` tricks, over ``games``
    games of ``players`` ``strong`` seats (with ``fitted``: the shipped table's bids). A seat with
    a choice bids, with chance ``explore``, a legal bid one off its own, so that the neighbouring
    bids are fitted too; every seat plays its bid out as ``strong`` does. ``progress(done,
    games)`` is called after each game. The same arguments give the same counts."""
    from .strong_policy import bid_bucket, fit_buckets

    generator = random.Random(seed)
    counts: dict[int, np.ndarray] = {}
    for number in range(games):
        game = Game(variant, players, seed * 1_000_003 + number, log=False)
        table = policy_table(game.tables, game.plan, fitted)
        at = int(table[compiled.T_STRONG_AT])
        plan = game.tables.plan
        pending: list[tuple[int, int, int, int]] = []
        deals = 0
        while not game.is_over():
            state = game.state
            phase = game.phase
            code = int(decide_strong(state, plan, table, at))
            if phase == Phase.BID and game.fields.order_length == players:
                legal = game.fields.legal_first
                if legal & (legal - 1):
                    if generator.random() < explore:
                        near = [bid for bid in (code - 1, code + 1)
                                if bid >= 0 and legal >> bid & 1]
                        if near:
                            code = generator.choice(near)
                    hand_size = game.deal.hand_size
                    pending.append((game.to_move, hand_size,
                                    int(bid_bucket(state, plan, table, at)), code))
            game.apply_unchecked(action_of(code, phase))
            results = game.results
            if len(results) > deals:
                deals = len(results)
                taken = results[-1].taken
                for seat, hand_size, bucket, bid in pending:
                    block = counts.get(hand_size)
                    if block is None:
                        block = counts[hand_size] = np.zeros(
                            (fit_buckets(hand_size), hand_size + 1, hand_size + 1),
                            dtype=np.int64)
                    block[bucket, bid, taken[seat]] += 1
                pending = []
        if progress is not None:
            progress(number + 1, games)
    return counts


def save_fit(variant: Variant, players: int, counts: dict[int, np.ndarray]) -> Path:
    """Write ``fit_bids``'s counts where ``strong`` finds them (``strong_policy.fit_path``); the
    card model the file holds (``cards*`` entries, ``strategies.distil``) is kept."""
    from .strong_fit import write_archive
    from .strong_policy import fit_path

    path = fit_path(variant.name, players)
    # the deck the game is dealt from at ``players`` (georgian deals 36 cards to 4, 54 to 6)
    arrays: dict[str, np.ndarray] = {"deck": np.int64(variant.for_player_count(players).deck_mask)}
    arrays.update({f"n{size}": block.astype(np.int32) for size, block in sorted(counts.items())})
    if path.is_file():
        with np.load(path) as data:
            arrays.update({key: data[key] for key in data.files if key.startswith("cards")})
    write_archive(path, arrays)
    return path


class StrongStrategy(CompiledTwin):
    """The heuristic's rules, compiled (``strategies.strong_policy``); twin of batch ``strong``
    (``strategies.twin``: the same compiled function on the observation's game)."""

    name = "strong"
    description = ("the heuristic's bidding and card play compiled on the rules core, with the "
                   "premium kept in reach (twin of the batch engine's compiled strong)")
    policy = compiled.STRONG
    parameters = {
        "model": Parameter(bool, True, "play cards with the fitted card model where the "
                           "variant's table has one (strategies.distil); false: the card play's "
                           "rules alone, as strong played before the model (to measure what it "
                           "adds)"),
    }


class BatchStrong(BatchStrategy):
    """``strong`` in the batch engine: a compiled policy (whole games in one numba loop); in the
    numpy lockstep loop (seated with strategies that are not compiled) it plays through its
    scalar twin."""

    name = StrongStrategy.name
    description = ("the heuristic's rules compiled on the rules core, with the premium in reach "
                   "(batch engine; twin: scalar strong)")
    scalar_twin = StrongStrategy.name
    compiled_policy = compiled.STRONG
    compiled_runner = staticmethod(compiled.run_games)
    needs_history = True

    def start(self, variant, players: int, seeds: np.ndarray) -> None:  # noqa: ANN001
        """Start the scalar path too (used only in the lockstep loop)."""
        super().start(variant, players, seeds)
        self._adapter = ScalarAdapter(StrongStrategy.name)
        self._adapter.start(variant, players, seeds)

    def name_trump(self, observation):  # noqa: ANN001, ANN201
        """Through the scalar twin."""
        return self._adapter.name_trump(observation)

    def bid(self, observation):  # noqa: ANN001, ANN201
        """Through the scalar twin."""
        return self._adapter.bid(observation)

    def play(self, observation):  # noqa: ANN001, ANN201
        """Through the scalar twin."""
        return self._adapter.play(observation)


def main(argv: list[str] | None = None) -> int:
    """Fit the bid outcomes of presets and ship them under ``data/strong``::

        .venv/bin/python -m raspis.strategies.strong --variant classic --games 4000
    """
    import argparse
    import time

    from raspis.engine import load_variant

    parser = argparse.ArgumentParser(description="fit strong's bid outcomes by self-play")
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    for name in arguments.variant:
        started = time.perf_counter()
        variant = load_variant(name)
        counts = fit_bids(variant, arguments.players, arguments.games, arguments.seed)
        path = save_fit(variant, arguments.players, counts)
        bids = sum(int(block.sum()) for block in counts.values())
        print(f"{name}: {bids:,} bids of {arguments.games} games in "
              f"{time.perf_counter() - started:.0f} s -> {path}")
    return 0


__all__ = ["BatchStrong", "StrongStrategy", "action_of", "fit_bids", "save_fit"]


if __name__ == "__main__":
    raise SystemExit(main())
