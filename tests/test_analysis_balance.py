"""Deal-level balance statistics on synthetic deal_stats with planted answers: the Joker's value,
the dealer's cost and the hook, bid outcomes, dealer offsets, the duplicate design effect; and the
outcome shape and special deals on small known or real datasets."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from raspis.analysis import (
    bidding_outcomes,
    dealer_offset_effects,
    hook_cost,
    joker_value,
    open_run,
    outcome_shape,
    run_from_frames,
    score_histogram,
    special_contribution,
)
from raspis.analysis.synthetic import DealEffects, synthetic_deal_stats, synthetic_games, write_run
from raspis.tournament import TournamentConfig, run_tournament, scan_table

HANDS = (1, 3, 5, 9)


def _run(
    deal_stats: pl.DataFrame, deals: pl.DataFrame | None = None, games: pl.DataFrame | None = None
):  # noqa: ANN202
    return run_from_frames(
        games if games is not None else synthetic_games(20, seed=0), deal_stats, deals
    )


def test_planted_joker_values_are_recovered_per_hand_size() -> None:
    stats, _ = synthetic_deal_stats(6000, hand_sizes=HANDS,
                                    effects=DealEffects(joker_values=(25.0, 10.0)), seed=1)
    table = joker_value(_run(stats), by=("hand_size",))
    truth = {"joker1": 25.0, "joker2": 10.0, "both": 35.0}
    for row in table.iter_rows(named=True):
        half = (row["value_high"] - row["value_low"]) / 2
        assert abs(row["value"] - truth[row["joker"]]) < 2 * half, row  # within ~4 standard errors
    nine = table.filter(hand_size=9, joker="joker1")
    assert nine["value_low"][0] <= 25.0 <= nine["value_high"][0]
    assert set(table["joker"]) == {"joker1", "joker2", "both"}


def test_joker_value_interval_covers_by_simulation() -> None:
    repeats, covered = 150, 0
    for seed in range(repeats):
        stats, _ = synthetic_deal_stats(300, hand_sizes=(5,),
                                        effects=DealEffects(joker_values=(25.0, 0.0)), seed=seed)
        row = joker_value(_run(stats), by=("hand_size",)).filter(joker="joker1")
        covered += row["value_low"][0] <= 25.0 <= row["value_high"][0]
    assert 0.91 <= covered / repeats <= 0.99


def test_one_joker_variant_shows_only_joker1() -> None:
    stats, _ = synthetic_deal_stats(500, effects=DealEffects(joker_values=(25.0,)), seed=2)
    assert set(joker_value(_run(stats))["joker"]) == {"joker1"}


def test_planted_dealer_cost_and_hook_rate_are_recovered() -> None:
    stats, _ = synthetic_deal_stats(
        3000,
        hand_sizes=HANDS,
        effects=DealEffects(dealer_effect=-8.0, hook_probability=0.3, joker_values=(0.0, 0.0)),
        seed=3,
    )
    # eight 99% intervals (a 95% one misses 5% of the time; coverage is tested below)
    table = hook_cost(_run(stats), by=("hand_size",), level=0.99)
    assert table.height == len(HANDS)
    for row in table.iter_rows(named=True):
        assert row["dealer_minus_others_low"] <= -8.0 <= row["dealer_minus_others_high"]
        assert row["forced_share_low"] <= 0.3 <= row["forced_share_high"]
    offsets = dealer_offset_effects(_run(stats))
    assert offsets["unequal"].all() and offsets["anova_p"][0] < 1e-10
    means = dict(zip(offsets["dealer_offset"], offsets["mean_points"], strict=True))
    assert means[0] == pytest.approx(-18.0, abs=1.0) and means[2] == pytest.approx(-10.0, abs=1.0)


def test_equal_offsets_are_not_flagged_more_than_the_level() -> None:
    flagged = 0
    for seed in range(100):
        stats = synthetic_deal_stats(200, seed=100 + seed)[0]
        flagged += dealer_offset_effects(_run(stats))["unequal"][0]
    assert flagged <= 12  # 5 expected at level 0.05


def test_bid_outcomes_are_the_counted_shares(tmp_path: Path) -> None:
    stats, deals = synthetic_deal_stats(400, hand_sizes=HANDS,
                                        effects=DealEffects(hook_probability=0.25), seed=4)
    table = bidding_outcomes(_run(stats), by=("hand_size",))
    for row in table.iter_rows(named=True):
        rows = deals.filter(hand_size=row["hand_size"])
        bid, tricks = rows["bid"].to_numpy(), rows["tricks"].to_numpy()
        assert row["bids"] == rows.height
        assert row["made_share"] == pytest.approx(np.mean(bid == tricks))
        assert row["over_share"] == pytest.approx(np.mean(tricks > bid))
        assert row["under_share"] == pytest.approx(np.mean(tricks < bid))
        assert row["pass_share"] == pytest.approx(np.mean(bid == 0))
        assert row["mean_bid"] == pytest.approx(bid.mean())
        assert row["overbid"] == pytest.approx(bid.mean() * 4 - row["hand_size"])
        dealer = rows.filter(dealer_offset=0)
        assert row["hook_forced_share"] == pytest.approx(dealer["hook_forced"].mean())
        assert row["made_share_low"] <= row["made_share"] <= row["made_share_high"]
    # uniform bids and tricks on 0..h: P(made) = 1/(h+1)
    one = table.filter(hand_size=1)
    assert one["made_share_low"][0] <= 0.5 <= one["made_share_high"][0]


def test_duplicate_runs_without_blocks_widen_deal_level_intervals_by_the_replays() -> None:
    """A run written before deal blocks (no ``deal_block``): seat-deals with the design effect."""
    from raspis.analysis.synthetic import deal_stats_from_deals

    stats = deal_stats_from_deals(synthetic_deal_stats(2000, hand_sizes=(5,), seed=5)[1],
                                  blocks=False)
    plain = joker_value(_run(stats, games=synthetic_games(40, seed=1)), by=("hand_size",))
    replayed = joker_value(
        _run(stats, games=synthetic_games(10, duplicate=True, seed=1)), by=("hand_size",)
    )
    plain, replayed = plain.filter(joker="joker1"), replayed.filter(joker="joker1")
    width = (plain["value_high"] - plain["value_low"]).to_numpy()
    wider = (replayed["value_high"] - replayed["value_low"]).to_numpy()
    assert wider == pytest.approx(2 * width, rel=0.01)  # 4 seatings: sqrt(4) wider
    assert set(plain["intervals"]) == {"seat-deals"}


def test_outcome_shape_counts_negative_totals_ties_and_lead_changes() -> None:
    games = synthetic_games(300, base=-10.0, noise_sd=100.0, seed=6)
    table = outcome_shape(_run(synthetic_deal_stats(2, seed=0)[0], games=games)).row(0, named=True)
    scores = games["score"].to_numpy()
    assert table["games"] == 300 and table["seat_games"] == 1200
    assert table["negative_share"] == pytest.approx(np.mean(scores < 0))
    assert table["negative_share_low"] <= 0.5398 <= table["negative_share_high"]  # P(N(-10,100)<0)
    assert table["score_sd"] == pytest.approx(scores.std(ddof=1))
    assert table["score_q50"] == pytest.approx(np.quantile(scores, 0.5))
    per_game = games.group_by("game_id").agg(
        pl.col("lead_changes").first(), (pl.col("place") == 1).sum().alias("first")
    )
    assert table["lead_changes_mean"] == pytest.approx(per_game["lead_changes"].mean())
    assert table["tie_share"] == pytest.approx((per_game["first"] > 1).mean())
    histogram = score_histogram(_run(synthetic_deal_stats(2, seed=0)[0], games=games), bins=20)
    assert histogram["seat_games"].sum() == 1200 and histogram["share"].sum() == pytest.approx(1.0)


@pytest.fixture(scope="module")
def classic_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = TournamentConfig(
        variants=("classic",), players=4, strategies=("random",) * 4, games=12, seed=2
    )
    out = tmp_path_factory.mktemp("classic") / "run"
    run_tournament(config, out, workers=1)
    return out


def test_special_deals_add_up_on_a_real_run(classic_run: Path) -> None:
    run = open_run(classic_run)
    table = special_contribution(run)
    games = scan_table(classic_run, "games").collect()
    assert set(table["kind"]) == {"normal", "dark", "golden", "misere", "no_trump"}
    # the kinds' mean points per game add up to the mean final score (no premiums in classic)
    assert table["mean_per_game"].sum() == pytest.approx(games["score"].mean())
    # their covariance shares add up to the whole variance of final scores
    assert table["variance_share"].sum() == pytest.approx(1.0)
    # how often each special kind changed the winner, by hand: the seats' final scores less the
    # kind's points, and whether a final winner is among the leaders of those
    changed = dict(zip(table["kind"], table["winner_changed_share"], strict=True))
    assert changed["normal"] is None
    deals = scan_table(classic_run, "deals").collect()
    for kind in ("dark", "golden", "misere", "no_trump"):
        flips = []
        for game_id in games["game_id"].unique().to_list():
            seats = games.filter(pl.col("game_id") == game_id).sort("seat")
            points = deals.filter((pl.col("game_id") == game_id) & (pl.col("kind") == kind))
            own = {seat: 0 for seat in seats["seat"]}
            for seat, value in zip(points["seat"], points["points"], strict=True):
                own[seat] += value
            less = {s: score - own[s] for s, score in zip(seats["seat"], seats["score"],
                                                          strict=True)}
            top = max(less.values())
            winners = set(seats.filter(pl.col("winner"))["seat"])
            flips.append(not any(less[s] == top for s in winners))
        assert changed[kind] == pytest.approx(sum(flips) / len(flips)), kind
    # golden deals pay every trick: 9 tricks x 10 x 2 shared by the table
    golden = table.filter(kind="golden")
    assert golden["mean_per_deal"][0] == pytest.approx(45.0)


def test_deal_stats_only_run_still_gives_every_deal_level_table(
    classic_run: Path, tmp_path: Path
) -> None:
    games = scan_table(classic_run, "games").collect()
    stats = scan_table(classic_run, "deal_stats").collect()
    folder = write_run(tmp_path / "nodeals", games, stats)
    run = open_run(folder)
    assert not run.has_deals
    table = special_contribution(run)
    assert table["variance_share"].is_null().all() and table["mean_per_game"].is_not_null().all()
    assert joker_value(run).height > 0 and hook_cost(run).height > 0


def _lucky_runs(deal_sets: int, seed: int, luck_sd: float, dealer_luck_sd: float,
                sources: tuple[str, ...]) -> dict:
    """A duplicate run (four seatings a deal set) whose deal sets run hot or cold: every seat-deal
    of deal set s gets u_s ~ N(0, luck_sd), the dealer's seat-deals also v_s ~ N(0,
    dealer_luck_sd) (a deal set's cards favour or punish the dealer). Truth: mean deal points
    -10 away from the dealer, -18 for the dealer (dealer_effect -8). The same games, as read
    from each of ``sources``: ``rows`` (with per-deal rows), ``blocks`` (deal_stats per block of
    deal sets only) or ``none`` (deal_stats of a run written before blocks)."""
    from raspis.analysis.synthetic import deal_stats_from_deals

    _, deals = synthetic_deal_stats(deal_sets * 4, hand_sizes=tuple(range(1, 9)),
                                    effects=DealEffects(joker_values=(0.0, 0.0),
                                                        dealer_effect=-8.0), seed=seed)
    generator = np.random.default_rng([seed, 3])
    u = generator.normal(0.0, luck_sd, deal_sets)
    v = generator.normal(0.0, dealer_luck_sd, deal_sets)
    deals = deals.with_columns((pl.col("game_id") // 4).alias("deal_set"))
    index = deals["deal_set"].to_numpy()
    dealer = deals["dealer_offset"].to_numpy() == 0
    luck = np.round(u[index] + dealer * v[index]).astype(np.int64)
    deals = deals.with_columns(pl.col("points") + pl.Series(luck))
    games = synthetic_games(deal_sets, duplicate=True, seed=seed)
    return {source: run_from_frames(games,
                                    deal_stats_from_deals(deals, deal_sets,
                                                          blocks=source != "none"),
                                    deals if source == "rows" else None)
            for source in sources}


def test_deal_level_intervals_cluster_by_deal_set_and_cover() -> None:
    """Deal sets that run hot or cold make the seat-deals of a deal set dependent. With per-deal
    rows the intervals are clustered over deal sets and cover as often as they claim; from the
    deal_stats sums alone (seat-deals, design effect) they are too narrow."""
    repeats = 100
    covered = {"mean": 0, "cost": 0}
    naive = {"mean": 0, "cost": 0}
    tallies = {"rows": covered, "none": naive}
    for seed in range(repeats):
        mean_runs = _lucky_runs(30, 700 + seed, 20.0, 0.0, tuple(tallies))
        cost_runs = _lucky_runs(30, 700 + seed, 0.0, 20.0, tuple(tallies))
        for source, tally in tallies.items():
            offsets = dealer_offset_effects(mean_runs[source]).filter(dealer_offset=2).row(
                0, named=True)
            assert offsets["intervals"] == ("deal sets" if source == "rows" else "seat-deals")
            tally["mean"] += offsets["mean_points_low"] <= -10.0 <= offsets["mean_points_high"]
            cost = hook_cost(cost_runs[source], by=()).row(0, named=True)
            tally["cost"] += (
                cost["dealer_minus_others_low"] <= -8.0 <= cost["dealer_minus_others_high"]
            )
    for name in covered:
        assert 0.90 <= covered[name] / repeats <= 0.99, (name, covered, naive)
        assert naive[name] / repeats < 0.8, (name, naive)


def test_without_deal_rows_intervals_cluster_by_blocks_of_deal_sets_and_cover() -> None:
    """The same hot and cold deal sets, 150 of them in a run without per-deal rows: deal_stats
    kept per block of deal sets (64 blocks of 2 or 3 deal sets) give intervals that cover the
    planted dealer-offset mean and dealer's cost at about 95%; the same sums without blocks
    (seat-deals, design effect) do not."""
    repeats = 200
    covered = {"mean": 0, "cost": 0}
    naive = {"mean": 0, "cost": 0}
    tallies = {"blocks": covered, "none": naive}
    for seed in range(repeats):
        mean_runs = _lucky_runs(150, 900 + seed, 20.0, 0.0, tuple(tallies))
        cost_runs = _lucky_runs(150, 900 + seed, 0.0, 20.0, tuple(tallies))
        for source, tally in tallies.items():
            run = mean_runs[source]
            assert run.collect(run.deal_stats.select(pl.col("deal_block").n_unique())).item() == (
                64 if source == "blocks" else 1
            )
            offsets = dealer_offset_effects(run).filter(dealer_offset=2).row(0, named=True)
            assert offsets["intervals"] == (
                "blocks of deal sets" if source == "blocks" else "seat-deals"
            )
            tally["mean"] += offsets["mean_points_low"] <= -10.0 <= offsets["mean_points_high"]
            cost = hook_cost(cost_runs[source], by=()).row(0, named=True)
            tally["cost"] += (
                cost["dealer_minus_others_low"] <= -8.0 <= cost["dealer_minus_others_high"]
            )
    for name in covered:
        assert 0.90 <= covered[name] / repeats <= 0.99, (name, covered, naive)
        assert naive[name] / repeats < 0.8, (name, naive)


def test_block_clustering_matches_deal_set_clustering_on_a_run_without_deal_rows(
    tmp_path: Path,
) -> None:
    """A real batch run of 1,000 deal sets under four rotations (4,000 games) with per-deal rows,
    and the same run without them (its games and deal_stats only): the intervals clustered over
    64 blocks of deal sets are about as wide as those clustered over the 1,000 deal sets, around
    the same estimates (both come from the deal_stats sums)."""
    config = TournamentConfig(
        variants=("classic",), players=4,
        strategies=("fastheuristic", "lowest", "random", "random"), games=1000, seed=11,
        duplicate="rotations", deal_rows=True, engine="batch",
    )
    run_tournament(config, tmp_path / "run", workers=1)
    full = open_run(tmp_path / "run")
    games = scan_table(tmp_path / "run", "games").collect()
    stats = scan_table(tmp_path / "run", "deal_stats").collect()
    assert stats["deal_block"].n_unique() == 64
    lean = open_run(write_run(tmp_path / "lean", games, stats))
    assert full.has_deals and not lean.has_deals

    def widths(table: pl.DataFrame, prefix: str) -> np.ndarray:
        return (table[f"{prefix}_high"] - table[f"{prefix}_low"]).to_numpy()

    pairs = [
        (lambda run: dealer_offset_effects(run), "mean_points"),
        (lambda run: dealer_offset_effects(run), "made_share"),
        (lambda run: hook_cost(run, by=()), "dealer_minus_others"),
        (lambda run: hook_cost(run, by=("kind",)), "dealer_minus_others"),
        (lambda run: joker_value(run, by=()), "value"),
        (lambda run: bidding_outcomes(run, by=("kind",)), "made_share"),
    ]
    ratios = []
    for statistic, prefix in pairs:
        by_deal_set, by_block = statistic(full), statistic(lean)
        assert set(by_deal_set["intervals"]) == {"deal sets"}
        assert set(by_block["intervals"]) == {"blocks of deal sets"}
        assert by_block.height == by_deal_set.height > 0
        ratio = widths(by_block, prefix) / widths(by_deal_set, prefix)
        ratios += ratio.tolist()
        assert by_block[prefix].to_list() == pytest.approx(by_deal_set[prefix].to_list())
    ratios = np.array(ratios)
    # 64 clusters estimate a variance to about ±18% (sd of a chi-square over 63 df), so a width
    # to about ±9%; the t quantile with 63 degrees of freedom is 2% wider than with 999
    assert 0.75 <= float(np.median(ratios)) <= 1.3, ratios
    assert ratios.min() > 0.55 and ratios.max() < 1.6, ratios


def test_clustered_joker_value_and_made_share_recover_the_truth() -> None:
    stats, deals = synthetic_deal_stats(1200, hand_sizes=(5,),
                                        effects=DealEffects(joker_values=(25.0, 10.0)), seed=8)
    games = synthetic_games(300, duplicate=True, seed=8)
    deals = deals.with_columns((pl.col("game_id") // 4).alias("deal_set"))
    run = run_from_frames(games, stats, deals)
    table = joker_value(run, by=("hand_size",))
    assert set(table["intervals"]) == {"deal sets"}
    for name, truth in (("joker1", 25.0), ("joker2", 10.0)):
        row = table.filter(joker=name).row(0, named=True)
        assert row["value_low"] <= truth <= row["value_high"]
    bids = bidding_outcomes(run, by=("hand_size",)).row(0, named=True)
    assert bids["made_share_low"] <= 1 / 6 <= bids["made_share_high"]  # uniform on 0..5
