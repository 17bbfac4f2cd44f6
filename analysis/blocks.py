"""The run's totals per block of deal sets (``tournament.totals``) as the statistics read them: by
strategy, by pair of strategies, and in the wide per-cluster form of ``units`` (columns named by
strategy), so no statistic reads the rows of a run.

A block of deal sets is the cluster of every interval read from here (min(D, 64) blocks of
consecutive deal sets: exactly the deal sets in a run of at most 64). A cluster is named by the
first deal set of its block (``first_deal_set``), so in a run of at most 64 deal sets it is the
deal set itself, whatever the run's size.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from .dataset import Run
from .measures import pair_column, strategy_column

#: Per strategy k, its totals' stems and the names the statistics give them.
STRATEGY_TOTALS = {"n": "seat_games", "g": "games", "s": "score_sum", "q": "score_sq",
                   "w": "wins", "wc": "win_credit", "pl": "place_sum", "e": "errored_games"}


def by_strategy(run: Run) -> pl.DataFrame:
    """One row per (``variant_hash``, ``deal_block``, ``strategy``) with ``STRATEGY_TOTALS`` and
    the block's ``deal_sets``."""
    totals = run.totals()
    frames = []
    for k, name in enumerate(totals.strategies):
        present = [stem for stem in STRATEGY_TOTALS if f"{stem}_k{k}" in totals.games.columns]
        frames.append(totals.games.select(
            "variant_hash", "deal_block", pl.lit(name).alias("strategy"),
            pl.col("deal_sets").fill_null(0),
            *[pl.col(f"{stem}_k{k}").fill_null(0).alias(STRATEGY_TOTALS[stem])
              for stem in present]))
    if not frames:
        return pl.DataFrame(schema={"variant_hash": pl.String(), "deal_block": pl.Int32(),
                                    "strategy": pl.String()})
    return pl.concat(frames, how="diagonal_relaxed")


def by_pair(run: Run) -> pl.DataFrame:
    """One row per (``variant_hash``, ``deal_block``, ``strategy_a``, ``strategy_b``), a before b
    in the lineup: ``deal_sets`` (both sat), ``difference`` and ``difference_sq`` (Σ over deal
    sets of a's mean score minus b's, and of its square), ``games_a`` (a's games in them), and
    per game: ``games`` (both sat), ``ahead`` (a ahead, ties half), ``d_sum`` and ``d_sq`` (Σ of
    a's mean score minus b's in a game, and of its square)."""
    totals = run.totals()
    frames = []
    names = totals.strategies
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            frames.append(totals.games.select(
                "variant_hash", "deal_block", pl.lit(names[a]).alias("strategy_a"),
                pl.lit(names[b]).alias("strategy_b"),
                pl.col(f"dn_k{a}_{b}").alias("deal_sets"),
                pl.col(f"d_k{a}_{b}").alias("difference"),
                pl.col(f"d2_k{a}_{b}").alias("difference_sq"),
                pl.col(f"g_k{a}").alias("games_a"),
                pl.col(f"gn_k{a}_{b}").alias("games"),
                pl.col(f"ga_k{a}_{b}").alias("ahead"),
                pl.col(f"gd_k{a}_{b}").alias("d_sum"),
                pl.col(f"gd2_k{a}_{b}").alias("d_sq")))
    if not frames:
        return pl.DataFrame()
    return pl.concat(frames)


def first_deal_set(run: Run) -> pl.Expr:
    """``deal_block`` as the first deal set of the block (module doc)."""
    from raspis.tournament.schema import DEAL_BLOCKS

    basis = run.deal_set_basis
    return ((pl.col("deal_block").cast(pl.Int64) * basis + DEAL_BLOCKS - 1) // DEAL_BLOCKS)


def unit_blocks(run: Run, variant_hash: str, per_deal_set: bool = False) -> pl.DataFrame:
    """A variant's game-level totals per block, ``cluster`` the block, columns named as the
    statistics of ``units`` and ``measures`` read them (``n_{strategy}``, ``s_p0``, ...; a pair's
    stem ``A__B`` in both orders). ``per_deal_set``: per deal set instead, read from the rows
    (``settle``, whose sequences grow deal set by deal set, on runs of its size)."""
    names = tuple(run.seated())
    if per_deal_set:
        from raspis.tournament.totals import deal_set_totals

        frame = run.collect(deal_set_totals(
            run.games.filter(pl.col("variant_hash") == variant_hash), names, run.players,
            run.deal_set_basis)).drop("deal_block").rename({"deal_set": "cluster"})
    else:
        frame = run.totals().games.filter(pl.col("variant_hash") == variant_hash).with_columns(
            first_deal_set(run).alias("cluster")).drop("deal_block")
    frame = frame.fill_null(0)
    renames: dict[str, str] = {}
    extra: list[pl.Expr] = []
    for k, name in enumerate(names):
        column = strategy_column(name)
        for stem in ("n", "s", "q", "w", "wc", "pl", "g", "e", "cm"):
            renames[f"{stem}_k{k}"] = f"{stem}_{column}"
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            forward, backward = pair_column(names[a], names[b]), pair_column(names[b], names[a])
            pairs = f"k{a}_{b}"
            for stem in ("pg", "ah", "gn", "ga", "gd", "gd2", "dn", "d", "d2"):
                renames[f"{stem}_{pairs}"] = f"{stem}_{forward}"
            extra += [
                pl.col(f"pg_{pairs}").alias(f"pg_{backward}"),
                (pl.col(f"pg_{pairs}") - pl.col(f"ah_{pairs}")).alias(f"ah_{backward}"),
                pl.col(f"gn_{pairs}").alias(f"gn_{backward}"),
                (pl.col(f"gn_{pairs}") - pl.col(f"ga_{pairs}")).alias(f"ga_{backward}"),
                pl.col(f"dn_{pairs}").alias(f"dn_{backward}"),
                (-pl.col(f"d_{pairs}")).alias(f"d_{backward}"),
                pl.col(f"d2_{pairs}").alias(f"d2_{backward}"),
                (-pl.col(f"gd_{pairs}")).alias(f"gd_{backward}"),
                pl.col(f"gd2_{pairs}").alias(f"gd2_{backward}"),
            ]
    if extra:
        frame = frame.with_columns(extra)
    frame = frame.rename({old: new for old, new in renames.items() if old in frame.columns})
    return frame.drop("variant_hash").filter(pl.col("deal_sets") > 0).sort(
        "cluster").with_columns(pl.exclude("cluster").cast(pl.Float64))


def unit_deal_blocks(run: Run, variant_hash: str,
                     per_deal_set: bool = False) -> pl.DataFrame | None:
    """A variant's deal-level totals per block (``game_sums`` summed), ``cluster`` the block
    (``per_deal_set``: per deal set, from the ``game_sums`` rows); None for a run written before
    ``game_sums``."""
    if per_deal_set:
        from raspis.tournament.totals import deal_totals

        if run.game_sums is None:
            return None
        frame = run.collect(deal_totals(
            run.game_sums.filter(pl.col("variant_hash") == variant_hash), run.deal_set_basis,
            ("deal_set",)).drop("deal_sets").rename({"deal_set": "cluster"}))
    else:
        deals = run.totals().deals
        if deals is None:
            return None
        frame = (deals.filter(pl.col("variant_hash") == variant_hash)
                 .with_columns(first_deal_set(run).alias("cluster"))
                 .drop("variant_hash", "deal_sets", "deal_block"))
    if frame.height == 0:
        return None
    return frame.sort("cluster").with_columns(pl.exclude("cluster").cast(pl.Float64))


def strategies_of(run: Run, variant_hash: str) -> list[str]:
    """The strategies that sat in a variant's finished games, in lineup order."""
    totals = run.totals()
    frame = totals.games.filter(pl.col("variant_hash") == variant_hash)
    return [name for k, name in enumerate(totals.strategies)
            if f"n_k{k}" in frame.columns and float(frame[f"n_k{k}"].fill_null(0).sum()) > 0]


def means_of(run: Run, variant_hash: str, stem: str,
             strategies: Sequence[str]) -> dict[str, float]:
    """Each of ``strategies``' mean of a total per seat-game (``stem``: ``s`` score, ``pl``
    place) in a variant's finished games."""
    totals = run.totals()
    frame = totals.games.filter(pl.col("variant_hash") == variant_hash)
    means = {}
    for k, name in enumerate(totals.strategies):
        if name in strategies and f"n_k{k}" in frame.columns:
            seats = float(frame[f"n_k{k}"].fill_null(0).sum())
            if seats > 0:
                means[name] = float(frame[f"{stem}_k{k}"].fill_null(0).sum()) / seats
    return means


def block_seeds(run: Run, variant_hash: str) -> pl.DataFrame:
    """Per cluster (``first_deal_set``) of a variant: its ``deal_sets``, ``seed_check`` (the sum
    of its deal sets' seeds mod 2^31: the same deals give the same) and ``players`` (summed over
    its deal sets)."""
    frame = run.totals().games.filter(pl.col("variant_hash") == variant_hash)
    return frame.select(first_deal_set(run).alias("cluster"), pl.col("deal_sets").fill_null(0),
                        pl.col("seed_check").fill_null(0), pl.col("players").fill_null(0),
                        pl.col("games").fill_null(0)).filter(pl.col("deal_sets") > 0).sort(
        "cluster")
