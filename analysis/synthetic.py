"""Synthetic datasets whose answers are known, in the exact schema of ``raspis.tournament.schema``.

The statistics of ``raspis.analysis`` are tested on these: plant a seat advantage, a strategy
effect, a Joker value or a dealer's cost, and check that the statistic finds it and that its
interval covers it as often as it claims. ``synthetic_games`` and ``synthetic_deal_stats`` return
polars frames; ``write_run`` writes them as a run directory (``manifest.json`` and Parquet shards)
that ``open_run`` and the CLI read like a real run.

The game model: the score of the seat-game is

    base + position_effect[position] + strategy_effect[strategy] + card[deal set, seat] + noise,

with position = (seat - first_dealer) mod players, the first dealer drawn per deal set, ``card``
normal with sd ``card_sd`` (shared by every seating of a deal set, as in a duplicate run) and
``noise`` normal with sd ``noise_sd`` per game. Places rank the scores (ties share the better
place). With ``win_probabilities`` the winner is instead drawn per game from those probabilities
(per strategy) and given the highest score, so the true win rates are known exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from raspis.tournament.schema import (
    DEAL_BLOCKS,
    DEAL_STATS_SCHEMA,
    DEALS_SCHEMA,
    GAMES_SCHEMA,
)

from .measures import top_credit

HASH = "5e7e7e7e7e7e7e7e"


def _places(scores: np.ndarray) -> np.ndarray:
    """1 + the number of seats with a strictly higher score (shared places on ties)."""
    return 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)


def synthetic_games(
    deal_sets: int,
    strategies: Sequence[str] = ("a", "b", "c", "d"),
    *,
    duplicate: bool = False,
    position_effect: Sequence[float] | None = None,
    strategy_effect: Mapping[str, float] | None = None,
    base: float = 0.0,
    card_sd: float = 0.0,
    noise_sd: float = 50.0,
    win_probabilities: Mapping[str, float] | None = None,
    seed: int = 0,
    noise_seed: int | None = None,
    variant: tuple[str, str] = ("synthetic", HASH),
) -> pl.DataFrame:
    """A ``games`` table (schema-exact) from the model of the module doc. ``duplicate`` plays
    every deal set under every rotation of the lineup (like ``--duplicate rotations``); otherwise
    each deal set is one game and the lineup rotates by one seat per game. ``seed`` draws the
    deal sets (first dealers, card luck), ``noise_seed`` (default: ``seed``) the game noise: two
    variants with one ``seed`` and different ``noise_seed`` share their deals, as variants of one
    run do."""
    players = len(strategies)
    generator = np.random.default_rng(seed)
    positions_effect = (
        np.zeros(players) if position_effect is None else np.asarray(position_effect, float)
    )
    effects = dict(strategy_effect or {})
    seatings = players if duplicate else 1
    games = deal_sets * seatings
    deal_set = np.repeat(np.arange(deal_sets), seatings)
    seating = np.tile(np.arange(seatings), deal_sets) if duplicate else deal_set % players
    first_dealer = generator.integers(0, players, deal_sets)[deal_set]
    seat = np.arange(players)
    slot = (seat[None, :] + seating[:, None]) % players  # game x seat -> lineup slot
    names = np.asarray(strategies)[slot]
    position = (seat[None, :] - first_dealer[:, None]) % players
    strategy_values = (
        np.vectorize(lambda name: effects.get(str(name), 0.0))(names)
        if effects
        else np.zeros((games, players))
    )
    card = generator.normal(0.0, card_sd, (deal_sets, players))[deal_set] if card_sd else 0.0
    noise = generator if noise_seed is None else np.random.default_rng([seed, noise_seed])
    scores = (
        base
        + positions_effect[position]
        + strategy_values
        + card
        + noise.normal(0.0, noise_sd, (games, players))
    )
    if win_probabilities is not None:
        lineup = np.array([win_probabilities[name] for name in strategies], dtype=float)
        if not np.isclose(lineup.sum(), 1.0):
            raise ValueError("win probabilities of the lineup must sum to 1")
        winner_slot = noise.choice(players, size=games, p=lineup)
        winner_seat = (winner_slot[:, None] == slot).argmax(axis=1)
        rows = np.arange(games)
        scores[rows, winner_seat] = scores.max(axis=1) + 1.0
    scores = np.round(scores).astype(np.int64)
    places = _places(scores)
    frame = pl.DataFrame(
        {
            "deal_set": np.repeat(deal_set, players),
            "seating": np.repeat(seating, players),
            "game_id": np.repeat(np.arange(games), players),
            "seed": np.repeat(deal_set.astype(np.uint64) * 7919 + 1, players),
            "players": np.full(games * players, players),
            "seat": np.tile(seat, games),
            "first_dealer": np.repeat(first_dealer, players),
            "strategy": names.ravel(),
            "lineup_slot": slot.ravel(),
            "score": scores.ravel(),
            "place": places.ravel(),
            "winner": (places == 1).ravel(),
            "double_loss": np.zeros(games * players, dtype=bool),
            "deals_played": np.full(games * players, 20),
            "lead_changes": np.repeat(noise.poisson(3.0, games), players),
            "comeback": np.repeat(noise.random(games) < 0.2, players),
            "decided_deals_left": np.repeat(noise.integers(0, 3, games), players),
            "errored": np.zeros(games * players, dtype=bool),
        }
    ).with_columns(pl.lit(variant[0]).alias("variant"), pl.lit(variant[1]).alias("variant_hash"),
                   pl.lit(None, dtype=pl.String).alias("error"))
    return frame.cast(GAMES_SCHEMA).select(list(GAMES_SCHEMA))  # type: ignore[arg-type]


@dataclass(frozen=True)
class DealEffects:
    """What a synthetic seat-deal's points are made of (``synthetic_deal_stats``): each Joker's
    value, the dealer's effect, the hook's rate on the dealer's bids, a base, the noise's sd,
    and a per-game effect's sd."""

    joker_values: Sequence[float] = (20.0, 0.0)
    dealer_effect: float = 0.0
    hook_probability: float = 0.0
    base: float = -10.0
    noise_sd: float = 15.0
    game_sd: float = 0.0


def synthetic_deal_stats(
    games: int,
    players: int = 4,
    hand_sizes: Sequence[int] = (1, 3, 5, 9),
    *,
    deck_size: int = 36,
    effects: DealEffects | None = None,
    strategy: str = "a",
    kind: str = "normal",
    seed: int = 0,
    noise_seed: int | None = None,
    variant_hash: str = HASH,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``deal_stats`` (per-shard sums, schema-exact) and the ``deals`` rows they sum, for
    ``games`` games of one deal per hand size. Each Joker of ``joker_values`` is in play with
    probability players·hand/deck and then held by a uniform seat; a seat-deal's points are
    base + Σ value of the Jokers it holds + ``dealer_effect`` for the dealer + noise. Bids and
    tricks are uniform on 0..hand; the dealer's ``hook_forced`` is drawn with
    ``hook_probability``. ``game_sd`` adds a per-game normal effect shared by every seat-deal of
    the game (a deal set that runs hot or cold: the correlation a clustered interval must see).
    ``seed`` draws the deals (dealers, Jokers, the game effect), ``noise_seed`` (default
    ``seed``) the noise, bids and tricks: one ``seed`` gives two variants the same deals."""
    effects = effects or DealEffects()
    joker_values, dealer_effect = effects.joker_values, effects.dealer_effect
    hook_probability, base, noise_sd = effects.hook_probability, effects.base, effects.noise_sd
    game_sd = effects.game_sd
    generator = np.random.default_rng(seed)
    noise = generator if noise_seed is None else np.random.default_rng([seed, noise_seed])
    game_effect = generator.normal(0.0, game_sd, games) if game_sd else np.zeros(games)
    rows: dict[str, list[np.ndarray]] = {name: [] for name in DEALS_SCHEMA}
    for index, hand in enumerate(hand_sizes):
        shape = (games, players)
        dealer = generator.integers(0, players, games)
        offset = (np.arange(players)[None, :] - dealer[:, None]) % players
        held = []
        for _ in range(2):
            in_play = generator.random(games) < min(1.0, players * hand / deck_size)
            holder = generator.integers(0, players, games)
            held.append(in_play[:, None] & (np.arange(players)[None, :] == holder[:, None]))
        if len(joker_values) < 2 or joker_values[1] is None:
            held[1] = np.zeros(shape, dtype=bool)
        value = sum(v * h for v, h in zip(joker_values, held, strict=False))
        points = np.round(
            base
            + value
            + dealer_effect * (offset == 0)
            + game_effect[:, None]
            + noise.normal(0.0, noise_sd, shape)
        ).astype(np.int64)
        bids = noise.integers(0, hand + 1, shape)
        tricks = noise.integers(0, hand + 1, shape)
        forced = (offset == 0) & (noise.random(shape) < hook_probability)
        size = games * players
        columns = {
            "game_id": np.repeat(np.arange(games), players),
            "deal_set": np.repeat(np.arange(games), players),
            "seating": np.zeros(size),
            "deal_index": np.full(size, index),
            "block": np.zeros(size),
            "special": np.zeros(size, dtype=bool),
            "hand_size": np.full(size, hand),
            "seat": np.tile(np.arange(players), games),
            "dealer_offset": offset.ravel(),
            "trump": np.zeros(size),
            "bid": bids.ravel(),
            "tricks": tricks.ravel(),
            "points": points.ravel(),
            "premium": np.zeros(size),
            "jokers_held": (held[0].astype(int) + held[1]).ravel(),
            "held_joker1": held[0].ravel(),
            "held_joker2": held[1].ravel(),
            "hook_forced": forced.ravel(),
        }
        for name, values in columns.items():
            rows[name].append(values)
    # the text columns are one value each: added as literals (a numpy array of strings costs
    # polars more to take in than every other column together)
    deals = pl.DataFrame({name: np.concatenate(parts) for name, parts in rows.items() if parts})
    deals = deals.with_columns(pl.lit(variant_hash).alias("variant_hash"),
                               pl.lit(kind).alias("kind"), pl.lit(strategy).alias("strategy"))
    deals = deals.cast(DEALS_SCHEMA).select(list(DEALS_SCHEMA))  # type: ignore[arg-type]
    return deal_stats_from_deals(deals), deals


def deal_stats_from_deals(
    deals: pl.DataFrame, total_deal_sets: int | None = None, *, blocks: bool = True
) -> pl.DataFrame:
    """Sum ``deals`` rows into ``deal_stats`` rows exactly as a tournament shard does: per block
    of deal sets (``deal_block`` of a run of ``total_deal_sets`` deal sets, by default one more
    than the largest ``deal_set``), or with ``blocks=False`` as a run written before blocks (the
    ``deal_block`` column left out)."""
    if total_deal_sets is None:
        total_deal_sets = int(deals["deal_set"].max() or 0) + 1
    block = pl.col("deal_set") * DEAL_BLOCKS // max(1, total_deal_sets)
    deals = deals.with_columns((block if blocks else pl.lit(0)).alias("deal_block"),
                               top_credit())
    keys = [
        "variant_hash",
        "deal_block",
        "strategy",
        "dealer_offset",
        "deal_index",
        "kind",
        "special",
        "hand_size",
        "held_joker1",
        "held_joker2",
    ]
    bid = pl.col("bid")
    has_bid = bid.is_not_null()
    stats = deals.group_by(keys).agg(
        pl.len().alias("count"),
        pl.col("points").sum().alias("points_sum"),
        (pl.col("points") ** 2).sum().alias("points_sq_sum"),
        has_bid.sum().alias("bids"),
        bid.sum().alias("bid_sum"),
        pl.col("tricks").sum().alias("tricks_sum"),
        (has_bid & (bid == pl.col("tricks"))).sum().alias("made"),
        (has_bid & (pl.col("tricks") > bid)).sum().alias("over"),
        (has_bid & (pl.col("tricks") < bid)).sum().alias("under"),
        (has_bid & (bid == 0)).sum().alias("passes"),
        (has_bid & (bid == 0) & (pl.col("tricks") == 0)).sum().alias("passes_made"),
        pl.col("hook_forced").sum().alias("hook_forced"),
        pl.col("top_credit").sum().alias("top_credit"),
    )
    stats = stats.cast(DEAL_STATS_SCHEMA).select(list(DEAL_STATS_SCHEMA))  # type: ignore[arg-type]
    return stats if blocks else stats.drop("deal_block")


def write_run(
    folder: str | Path,
    games: pl.DataFrame,
    deal_stats: pl.DataFrame,
    deals: pl.DataFrame | None = None,
    shards: int = 2,
    manifest: Mapping[str, object] | None = None,
) -> Path:
    """Write frames as a run directory: ``shards`` Parquet files per table and a manifest."""
    out = Path(folder)
    for table, frame in (("games", games), ("deal_stats", deal_stats), ("deals", deals)):
        if frame is None:
            continue
        (out / table).mkdir(parents=True, exist_ok=True)
        size = max(1, -(-frame.height // shards))
        for index in range(shards):
            part = frame.slice(index * size, size)
            if part.height or index == 0:
                part.write_parquet(out / table / f"s{index:03d}.parquet")
    strategies = (
        games.select("lineup_slot", "strategy").unique().sort("lineup_slot")["strategy"].to_list()
    )
    duplicate = games["game_id"].n_unique() > games["deal_set"].n_unique()
    data = {
        "format": 1,
        "fingerprint": "synthetic",
        "status": "complete",
        "config": {
            "strategies": strategies,
            "players": int(games["players"][0]),
            "duplicate": "rotations" if duplicate else "none",
            "seed": 0,
            "games": int(games["deal_set"].n_unique()),
        },
        "games": int(games["game_id"].n_unique()),
    }
    data.update(manifest or {})
    (out / "manifest.json").write_text(json.dumps(data, indent=2))
    return out
