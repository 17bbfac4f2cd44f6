"""Fitting ``strong``'s bid outcomes by self-play: what its bids came to, counted by bucket, and
shipped beside the presets (``data/strong/NAME-PLAYERS.npz``) or kept for a variant of the user's
own (``fitting.refit``, ``raspis strategies fit``).

``fit_bids`` plays ``strong`` against itself and counts, for each hand size, bucket (the expected
tricks and the pressure of the bids before, ``policies.bids.fit_bucket``) and bid, the tricks
taken; ``save_fit`` writes a preset's counts where ``strong`` finds them, keeping the card model
the file holds (``fitting.distil``). ``python -m raspis.strategies.fitting.bids`` runs ``main``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
from raspis.engine import Variant
from raspis.engine.game import Game, Phase

from ..players.strong import action_of, policy_table
from ..policies import compiled
from ..policies.bids import bid_bucket
from ..policies.fitted import fit_path, write_archive
from ..policies.section import fit_buckets
from ..policies.strong import decide_strong


def fit_bids(variant: Variant, players: int, games: int, seed: int = 1, explore: float = 0.5,
             fitted: bool = False,
             progress: Callable[[int, int], None] | None = None) -> dict[int, np.ndarray]:
    """Count what ``strong``'s bids come to in self-play: ``counts[hand_size][bucket, bid,
    taken]``, the deals of a seat whose expected tricks fell in ``bucket`` (``BUCKETS`` a trick,
    ``policies.bids.fit_bucket``), that bid ``bid`` and took ``taken`` tricks, over ``games``
    games of ``players`` ``strong`` seats (with ``fitted``: the shipped table's bids). A seat with
    a choice bids, with chance ``explore``, a legal bid one off its own, so that the neighbouring
    bids are fitted too; every seat plays its bid out as ``strong`` does. ``progress(done,
    games)`` is called after each game. The same arguments give the same counts."""
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
            if phase == Phase.BID and game.view.order_length == players:
                legal = game.view.legal_first
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


def save_fit(variant: Variant, players: int, counts: dict[int, np.ndarray],
             command: str = "") -> Path:
    """Write ``fit_bids``'s counts where ``strong`` finds them (``policies.fitted.fit_path``),
    with the command that fitted them (``counts_made_by``, where given); the card and bid models
    the file holds (``cards*``, ``bids*`` entries: ``fitting.distil``, ``fitting.bid_values``)
    are kept."""
    path = fit_path(variant.name, players)
    # the deck the game is dealt from at ``players`` (georgian deals 36 cards to 4, 54 to 6)
    arrays: dict[str, np.ndarray] = {"deck": np.int64(variant.for_player_count(players).deck_mask)}
    arrays.update({f"n{size}": block.astype(np.int32) for size, block in sorted(counts.items())})
    if path.is_file():
        with np.load(path) as data:
            arrays.update({key: data[key] for key in data.files
                           if key.startswith(("cards", "bids"))})
    if command:
        arrays["counts_made_by"] = np.array(command)
    write_archive(path, arrays)
    return path


def main(argv: list[str] | None = None) -> int:
    """Fit the bid outcomes of presets and ship them under ``data/strong``::

        .venv/bin/python -m raspis.strategies.fitting.bids --variant classic --games 4000
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
        path = save_fit(variant, arguments.players, counts,
                        f"python -m raspis.strategies.fitting.bids --variant {name} --players "
                        f"{arguments.players} --games {arguments.games} --seed {arguments.seed}")
        bids = sum(int(block.sum()) for block in counts.values())
        print(f"{name}: {bids:,} bids of {arguments.games} games in "
              f"{time.perf_counter() - started:.0f} s -> {path}")
    return 0


__all__ = ["fit_bids", "main", "save_fit"]


if __name__ == "__main__":
    raise SystemExit(main())
