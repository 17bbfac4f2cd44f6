"""The balance profile (``raspis.analysis.measures``, ``profile``) on datasets whose answers are
known: a seat or a dealer that always wins, places decided by the cards alone or by the
strategies alone, a shared first place, identical strategies (no skill may be measurable), every
score multiplied by ten (no profile value may move), and rule changes of the scoring, the deal
kinds and the schedule, after which no statistic in points may lead the answer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from raspis.analysis import run_from_frames
from raspis.analysis.compare import answer, compare
from raspis.analysis.profile import run_profile
from raspis.analysis.synthetic import (
    HASH,
    DealEffects,
    deal_stats_from_deals,
    synthetic_deal_stats,
    synthetic_games,
)
from raspis.tournament.schema import GAMES_SCHEMA

OTHER = "0" * 16


def _values(run, variant: str = "synthetic") -> dict[str, dict]:  # noqa: ANN001
    """The single-run profile of a variant, by measure."""
    frame = run_profile([run]).filter(pl.col("variant") == variant)
    return {row["measure"]: row for row in frame.iter_rows(named=True)}


def _with_places(games: pl.DataFrame, places: np.ndarray) -> pl.DataFrame:
    """``games`` with each seat-game's place (and winner, and a score that ranks so) replaced."""
    flat = places.ravel()
    return games.with_columns(pl.Series("place", flat, dtype=pl.Int32),
                              pl.Series("winner", flat == 1),
                              pl.Series("score", 100 - 10 * flat, dtype=pl.Int64))


def _pair(first: pl.DataFrame, stats_a: pl.DataFrame, second: pl.DataFrame,
          stats_b: pl.DataFrame, options: tuple[dict, dict] | None = None,
          deals: pl.DataFrame | None = None):  # noqa: ANN202
    """Two variants of one run (synthetic and other), their games numbered apart, with the rule
    options of each in the manifest when given."""
    second = second.with_columns(pl.lit("other").alias("variant"),
                                 pl.lit(OTHER).alias("variant_hash"),
                                 pl.col("game_id") + first["game_id"].max() + 1)
    stats_b = stats_b.with_columns(pl.lit(OTHER).alias("variant_hash"))
    run = run_from_frames(pl.concat([first, second]), pl.concat([stats_a, stats_b]), deals)
    if options is None:
        return run
    manifest = {"config": {"strategies": ["a", "b", "c", "d"]},
                "variants": [{"hash": HASH, "name": "synthetic",
                              "options": {**options[0], "name": "synthetic"}},
                             {"hash": OTHER, "name": "other",
                              "options": {**options[1], "name": "other"}}]}
    return replace(run, manifest=manifest)


# -- measures with known answers ----------------------------------------------------------------


def test_a_seat_and_a_dealer_that_always_win_are_unfair_in_every_measure() -> None:
    """Position 0 wins every game (its score far above the others') and the dealer scores the
    most in every deal: their chances are 1 where a fair game gives 1/4, the largest seat edge is
    3/4, and each is measurably away from its fair value."""
    games = synthetic_games(40, duplicate=True, position_effect=[10_000, 0, 0, 0], seed=1)
    stats, _ = synthetic_deal_stats(160, effects=DealEffects(dealer_effect=10_000), seed=1)
    values = _values(run_from_frames(games, stats))
    assert values["win_chance[0]"]["value"] == 1.0 and values["win_chance[0]"]["measurable"]
    assert values["win_chance[1]"]["value"] == 0.0 and values["win_chance[1]"]["reference"] == 0.25
    assert values["seat_edge"]["value"] == pytest.approx(0.75)
    assert values["dealer_top"]["value"] == 1.0 and values["dealer_top"]["measurable"]


def test_a_shared_first_place_splits_the_win() -> None:
    """Every game: seats 0 and 1 share first place, so each wins half a game: position and
    strategy chances sum to 1 a game, and the weakest (d, always last) never wins."""
    games = synthetic_games(8, duplicate=True, seed=2)
    count = games["game_id"].n_unique()
    places = np.tile([1, 1, 3, 4], (count, 1))
    values = _values(run_from_frames(_with_places(games, places),
                                     synthetic_deal_stats(4, seed=2)[0]))
    chances = [values[f"win_chance[{p}]"]["value"] for p in range(4)]
    # the first dealer varies by deal set: positions 0..3 each hold seats 0 and 1 equally often
    assert sum(chances) == pytest.approx(1.0)
    assert values["tie_share"]["value"] == 1.0


def test_places_decided_by_the_cards_alone_or_by_the_strategies_alone() -> None:
    """Duplicate deal sets: when a seat's cards decide its place (the same place under every
    rotation, whoever sits there), the cards explain all of the variance of places and the
    strategies none; when the strategy decides it (a always first, d always last), the reverse,
    and a finishes ahead of d in every game."""
    games = synthetic_games(30, strategies=("a", "b", "c", "d"), duplicate=True, seed=3)
    count = games["game_id"].n_unique()
    rng = np.random.default_rng(3)
    by_cards = np.repeat(np.array([rng.permutation(4) + 1 for _ in range(30)]), 4, axis=0)
    stats = synthetic_deal_stats(4, seed=3)[0]
    cards = _values(run_from_frames(_with_places(games, by_cards), stats))
    assert cards["cards_share"]["value"] == pytest.approx(1.0)
    assert cards["place_share"]["value"] == pytest.approx(0.0, abs=1e-12)
    strength = {"a": 1, "b": 2, "c": 3, "d": 4}
    by_strategy = np.array([strength[name] for name in games["strategy"]]).reshape(count, 4)
    skill = _values(run_from_frames(_with_places(games, by_strategy), stats))
    assert skill["place_share"]["value"] == pytest.approx(1.0)
    assert skill["cards_share"]["value"] == pytest.approx(0.0, abs=1e-12)
    assert skill["ahead[a>d]"]["value"] == 1.0 and skill["ahead[a>d]"]["measurable"]
    assert skill["weakest_wins"]["value"] == 0.0 and skill["weakest_wins"]["label"].startswith(
        "d's chance")


def test_comebacks_and_decided_games_are_the_shares_their_games_recorded() -> None:
    games = synthetic_games(50, duplicate=True, seed=4)
    per_game = games.group_by("game_id").agg(pl.col("comeback").first(),
                                             (pl.col("decided_deals_left").first() > 0))
    values = _values(run_from_frames(games, synthetic_deal_stats(4, seed=4)[0]))
    assert values["comeback_share"]["value"] == pytest.approx(per_game["comeback"].mean())
    assert values["decided_share"]["value"] == pytest.approx(
        per_game["decided_deals_left"].mean())


def test_a_run_written_before_the_outcome_columns_leaves_those_measures_out() -> None:
    games = synthetic_games(20, duplicate=True, seed=5).with_columns(
        pl.lit(None, dtype=pl.Boolean).alias("comeback"),
        pl.lit(None, dtype=pl.Int32).alias("decided_deals_left"))
    stats = synthetic_deal_stats(80, seed=5)[0].with_columns(
        pl.lit(None, dtype=pl.Int64).alias("top_credit"))
    values = _values(run_from_frames(games, stats))
    assert values["comeback_share"]["value"] is None and values["dealer_top"]["value"] is None
    assert values["win_chance[0]"]["value"] is not None


# -- no skill where there is none ----------------------------------------------------------------


def test_identical_strategies_show_no_skill_and_a_planted_one_does() -> None:
    """Four strategies that play alike (no effect), card luck and noise: no skill measure is
    measurable, neither in either variant's profile (against a coin flip, every pair) nor as a
    difference between the variants. The same data with a planted strategy effect is measured
    (the test can fail)."""
    first = synthetic_games(80, duplicate=True, card_sd=60.0, noise_sd=40.0, seed=6,
                            noise_seed=1)
    second = synthetic_games(80, duplicate=True, card_sd=60.0, noise_sd=40.0, seed=6,
                             noise_seed=2)
    stats = synthetic_deal_stats(4, seed=6)[0]
    run = _pair(first, stats, second, stats)
    profile = run_profile([run])
    skill = profile.filter(pl.col("group") == "skill")
    assert skill.height >= 14 and not skill["measurable"].any()
    comparison = compare([run])
    rows = comparison.table.filter(pl.col("group") == "skill")
    assert rows.height >= 7 and not rows["measurable"].any()
    planted = synthetic_games(80, duplicate=True, card_sd=60.0, noise_sd=40.0, seed=6,
                              noise_seed=2, strategy_effect={"a": 60.0})
    # the baseline's players are alike, so its order of strength is chance: every pair with a
    found = compare([_pair(first, stats, planted, stats)]).table.filter(
        pl.col("statistic").str.contains(r"\[a>|>a\]"))
    assert found.height == 3 and found["measurable"].all()
    assert (found["difference"].abs() > 0.15).all()


# -- scale ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real tournament: classic and classic with a tripled dark deal, on the same deal sets,
    with per-deal rows (the deal-level measures from the rows) and without (from the sums)."""
    from raspis.tournament import TournamentConfig, run_tournament

    folder = tmp_path_factory.mktemp("scale")
    (folder / "dark.toml").write_text('name = "dark-x3"\nextends = "classic"\n'
                                      'kinds.dark.multiplier = 3\n', encoding="utf-8")
    config = TournamentConfig(
        variants=("classic", str(folder / "dark.toml")), players=4,
        strategies=("fastheuristic", "lowest", "fastheuristic", "lowest"), games=24, seed=8,
        duplicate="rotations", deal_rows=True)
    run_tournament(config, folder / "run", workers=1)
    return folder / "run"


def _scaled(run, factor: int):  # noqa: ANN001, ANN202
    """The run with every score and deal point multiplied by ``factor``."""
    games = run.collect(run.games).with_columns(pl.col("score") * factor)
    deals = None if run.deals is None else run.collect(run.deals).with_columns(
        pl.col("points") * factor, pl.col("premium") * factor)
    stats = run.collect(run.deal_stats).with_columns(pl.col("points_sum") * factor,
                                                     pl.col("points_sq_sum") * factor**2)
    return run_from_frames(games.select(list(GAMES_SCHEMA)), stats, deals,
                           manifest=run.manifest, label=run.label)


@pytest.mark.parametrize("rows", [True, False])
def test_multiplying_every_score_moves_no_profile_value(played: Path, rows: bool) -> None:
    """Every score and deal point times ten: every profile value, difference and interval is
    unchanged (with per-deal rows and from the sums alone), and every statistic in points is
    multiplied by ten (the transformation did reach the data)."""
    from raspis.analysis import open_run

    run = open_run(played)
    if not rows:
        run = replace(run, deals=None)
    tenfold = _scaled(run, 10)
    before, after = compare([run]).table, compare([tenfold]).table
    columns = ["value", "baseline_value", "difference", "shown_low", "shown_high"]
    profile = pl.col("group").is_not_null()
    left, right = before.filter(profile), after.filter(profile)
    assert left.height >= 18 and left["statistic"].to_list() == right["statistic"].to_list()
    for column in columns:
        assert np.allclose(left[column].to_numpy(), right[column].to_numpy(), rtol=1e-9,
                           atol=1e-12, equal_nan=True), column
    assert left["measurable"].to_list() == right["measurable"].to_list()
    points = pl.col("in_points") & pl.col("statistic").is_in(["points_per_deal", "dealer_cost"])
    assert np.allclose(10 * before.filter(points)["value"].to_numpy(),
                       after.filter(points)["value"].to_numpy())
    single, scaled = run_profile([run]), run_profile([tenfold])
    for column in ("value", "value_low", "value_high"):
        assert np.allclose(single[column].fill_null(np.nan).to_numpy(),
                           scaled[column].fill_null(np.nan).to_numpy(), rtol=1e-9,
                           equal_nan=True), column


# -- what leads the answer -------------------------------------------------------------------------


SCALE_CHANGES = [
    ({"scoring": {"exact_per_trick": 10}}, {"scoring": {"exact_per_trick": 20}},
     "Does the scoring table matter?"),
    ({"kinds": {"dark": {"multiplier": 1}}}, {"kinds": {"dark": {"multiplier": 2}}},
     "Do the special deals matter?"),
    ({"schedule": {"deals": ["1..max"]}}, {"schedule": {"deals": ["1..max", "max*4"]}},
     "Does the schedule of deals matter?"),
    ({"bidding": {"hook": "always"}, "scoring": {"exact_per_trick": 10}},
     {"bidding": {"hook": "off"}, "scoring": {"exact_per_trick": 20}},
     "Does the dealer's hook matter?"),
]


@pytest.mark.parametrize(("baseline", "variant", "question"), SCALE_CHANGES)
def test_no_points_statistic_leads_after_a_change_of_what_a_point_is(
        baseline: dict, variant: dict, question: str) -> None:
    """The scoring table, the deal kinds or the schedule changed (alone, or with the hook): the
    answer's first sentence comes from the profile, never from a statistic in points, although
    the points moved (a planted dealer's edge and strategy gap) and the hook's question would
    otherwise lead with the dealer's points."""
    first = synthetic_games(60, duplicate=True, strategy_effect={"a": 30.0}, seed=9,
                            noise_seed=1)
    second = synthetic_games(60, duplicate=True, strategy_effect={"a": 90.0}, seed=9,
                             noise_seed=2)
    stats_a, deals_a = synthetic_deal_stats(240,
                                            effects=DealEffects(dealer_effect=0.0),
                                            seed=9, noise_seed=1)
    stats_b, deals_b = synthetic_deal_stats(240,
                                            effects=DealEffects(dealer_effect=20.0),
                                            seed=9, noise_seed=2,
                                            variant_hash=OTHER)
    deals_b = deals_b.with_columns(pl.col("game_id") + 240)
    deals = pl.concat([deals_a, deals_b])
    run = _pair(first, deal_stats_from_deals(deals_a), second, deal_stats_from_deals(deals_b),
                (baseline, variant), deals.with_columns((pl.col("game_id") % 240 // 4)
                                                        .alias("deal_set")))
    comparison = compare([run])
    table = comparison.table
    assert table.filter(pl.col("in_points") & (pl.col("role") == "question")).height == 0
    assert table.filter(pl.col("in_points") & pl.col("measurable")).height > 0
    lines = answer(comparison)
    assert lines[0].startswith(question)
    assert "points a game" not in lines[0] and "points a deal" not in lines[0]
    assert "points of probability" in lines[0]  # a profile measure, in chances
    said = [row for row in table.filter(pl.col("points_differ")).iter_rows(named=True)]
    assert said and all("each in its own variant's points" in row["verdict"] for row in said
                        if row["measurable"])


def test_the_hook_alone_still_leads_with_the_dealers_edge_and_says_it_in_chances() -> None:
    first = synthetic_games(60, duplicate=True, seed=10, noise_seed=1)
    second = synthetic_games(60, duplicate=True, seed=10, noise_seed=2)
    stats_a, deals_a = synthetic_deal_stats(240, seed=10, noise_seed=1)
    stats_b, deals_b = synthetic_deal_stats(240,
                                            effects=DealEffects(dealer_effect=20.0),
                                            seed=10, noise_seed=2,
                                            variant_hash=OTHER)
    deals_b = deals_b.with_columns(pl.col("game_id") + 240)
    deals = pl.concat([deals_a, deals_b]).with_columns(
        (pl.col("game_id") % 240 // 4).alias("deal_set"))
    run = _pair(first, deal_stats_from_deals(deals_a), second, deal_stats_from_deals(deals_b),
                ({"bidding": {"hook": "always"}}, {"bidding": {"hook": "off"}}), deals)
    lines = answer(compare([run]))
    assert lines[0].startswith("Does the dealer's hook matter? Yes: against synthetic, the "
                               "dealer's deal points minus the other seats' is higher")
    chances = next(line for line in lines if line.startswith("In chances: "))
    assert "the dealer scores the most in a deal" in chances and "more often" in chances
