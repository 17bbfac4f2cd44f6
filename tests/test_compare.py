"""``raspis.analysis.compare`` on synthetic datasets with planted differences between variants: the
paired difference recovers a planted effect and pairing removes the card luck the variants share;
Welch is used (and said) when the deals differ; intervals cover by simulation, paired and
unpaired, game-level and deal-level; and the CLI prints, writes and fails clearly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from raspis.analysis import run_from_frames
from raspis.analysis.compare import compare, display_table, findings, needed_deal_sets
from raspis.analysis.synthetic import (
    DealEffects,
    deal_stats_from_deals,
    synthetic_deal_stats,
    synthetic_games,
    write_run,
)
from raspis.cli.main import cli

BASE = {"a": 30.0, "b": 10.0, "c": -10.0, "d": -30.0}
MORE = {"a": 40.0, "b": 10.0, "c": -10.0, "d": -40.0}  # a +10, d -10 in the second variant
OTHER = "0" * 16


def _two_variants(deal_sets: int, seed: int, *, same_deals: bool = True, card_sd: float = 100.0,
                  noise_sd: float = 40.0, dealer_effect: float = 0.0,
                  deal_rows: bool = False, game_sd: float = 0.0,
                  set_sd: float = 0.0):  # noqa: ANN202
    first = synthetic_games(deal_sets, strategy_effect=BASE, duplicate=True, card_sd=card_sd,
                            noise_sd=noise_sd, seed=seed, noise_seed=1)
    second = synthetic_games(deal_sets, strategy_effect=MORE, duplicate=True, card_sd=card_sd,
                             noise_sd=noise_sd, seed=seed if same_deals else seed + 10_000,
                             noise_seed=2, variant=("other", OTHER))
    second = second.with_columns(pl.col("game_id") + first["game_id"].max() + 1)
    if not same_deals:
        second = second.with_columns(pl.col("seed") + 1)
    stats_a, deals_a = synthetic_deal_stats(deal_sets * 4, hand_sizes=(3, 5),
                                            effects=DealEffects(game_sd=game_sd),
                                            seed=seed, noise_seed=1)
    stats_b, deals_b = synthetic_deal_stats(deal_sets * 4, hand_sizes=(3, 5),
                                            effects=DealEffects(game_sd=game_sd,
                                                                dealer_effect=dealer_effect),
                                            seed=seed if same_deals else seed + 10_000,
                                            noise_seed=2,
                                            variant_hash=OTHER)
    deals = None
    if deal_rows:
        # the deals of game g belong to deal set g // 4 (four seatings), as in the games table;
        # set_sd plants a deal set's luck, shared by its seatings, seats and deals
        parts = []
        for index, frame in enumerate((deals_a, deals_b)):
            luck = np.random.default_rng([seed + (index if not same_deals else 0), 7]).normal(
                0.0, set_sd, deal_sets)
            frame = frame.with_columns((pl.col("game_id") // 4).alias("deal_set"))
            if set_sd:
                shift = np.round(luck).astype(np.int64)[frame["deal_set"].to_numpy()]
                frame = frame.with_columns(pl.col("points") + pl.Series(shift))
            if index:
                frame = frame.with_columns(pl.col("game_id") + first["game_id"].max() + 1)
            parts.append(frame)
        deals = pl.concat(parts)
        stats_a = deal_stats_from_deals(parts[0])
        stats_b = deal_stats_from_deals(parts[1])
    return run_from_frames(pl.concat([first, second]), pl.concat([stats_a, stats_b]), deals)


def _row(comparison, statistic: str) -> dict:  # noqa: ANN001
    return comparison.table.filter(pl.col("statistic") == statistic).row(0, named=True)


def test_paired_difference_recovers_the_planted_effect_and_beats_welch() -> None:
    paired = compare([_two_variants(400, seed=1)])
    assert [u.label for u in paired.units] == ["synthetic", "other"]
    row = _row(paired, "mean_score[a]")
    assert row["design"] == "paired, blocks of deal sets"  # 400 deal sets: 64 blocks of them
    assert row["difference_low"] <= 10.0 <= row["difference_high"]
    assert row["difference_low"] > 0 and "higher under other than under synthetic" in row["verdict"]
    assert _row(paired, "mean_score[d]")["difference_high"] < 0
    # b and c did not change: not measurable, with a size that would be needed
    unchanged = _row(paired, "mean_score[b]")
    assert unchanged["difference_low"] <= 0 <= unchanged["difference_high"]
    assert "not measurable at this size" in unchanged["verdict"]
    games, deal_sets = re.search(r"about ([\d,]+) games \(([\d,]+) deal sets\) would be needed",
                                 unchanged["verdict"]).groups()
    # four seatings a deal set: the games are four times the deal sets
    assert int(games.replace(",", "")) == pytest.approx(4 * int(deal_sets.replace(",", "")), abs=4)
    unpaired = compare([_two_variants(400, seed=1, same_deals=False)])
    welch = _row(unpaired, "mean_score[a]")
    assert welch["design"] == "welch, blocks of deal sets"
    assert "unpaired (Welch)" in unpaired.notes[0]
    # the card luck (sd 100) the paired variants share cancels: a much narrower interval
    paired_width = row["difference_high"] - row["difference_low"]
    assert paired_width < 0.5 * (welch["difference_high"] - welch["difference_low"])


@pytest.mark.parametrize("same_deals", [True, False])
def test_game_level_difference_covers_by_simulation(same_deals: bool) -> None:
    repeats, covered = 150, 0
    for seed in range(repeats):
        table = compare([_two_variants(25, seed=200 + seed, same_deals=same_deals)]).table
        row = table.filter(pl.col("statistic") == "mean_score[a]").row(0, named=True)
        covered += row["difference_low"] <= 10.0 <= row["difference_high"]
    assert 0.90 <= covered / repeats <= 0.99


def test_deal_level_difference_is_clustered_by_deal_set_and_covers() -> None:
    """A per-game effect shared by every seat-deal of a game (sd 20) makes seat-deals dependent:
    the deal-set-clustered interval of the dealer's cost still covers the planted 6 points."""
    repeats, covered = 120, 0
    for seed in range(repeats):
        run = _two_variants(30, seed=500 + seed, dealer_effect=6.0, deal_rows=True, game_sd=20.0)
        comparison = compare([run])
        assert _row(comparison, "points_per_deal")["design"] == "paired"
        dealer = _row(comparison, "dealer_cost")
        # the dealer's points rise by 6 and the others' do not: the cost moves by 6
        covered += dealer["difference_low"] <= 6.0 <= dealer["difference_high"]
    assert 0.90 <= covered / repeats <= 0.99


def test_points_per_deal_interval_sees_the_shared_deal_set_luck() -> None:
    """Mean deal points of two variants on different deals, every seat-deal of a deal set sharing
    its luck (sd 25): the clustered (per-deal rows) interval covers the truth 0 as often as it
    claims, where seat-deals from deal_stats sums without blocks of deal sets, even with the design
    effect, are too narrow."""
    repeats, covered, naive = 100, 0, 0
    for seed in range(repeats):
        run = _two_variants(40, seed=900 + seed, same_deals=False, deal_rows=True, set_sd=25.0)
        row = _row(compare([run]), "points_per_deal")
        assert row["design"] == "welch"
        covered += row["difference_low"] <= 0.0 <= row["difference_high"]
        # a run written before blocks of deal sets: only the sums over all deal sets
        seat_deals = _row(compare([run_from_frames(run.games, run.deal_stats.drop("deal_block"))]),
                          "points_per_deal")
        assert seat_deals["design"] == "welch, seat-deals"
        naive += seat_deals["difference_low"] <= 0.0 <= seat_deals["difference_high"]
    assert 0.90 <= covered / repeats <= 0.99
    assert naive / repeats < 0.8


def test_without_deal_rows_deal_level_differences_cluster_over_blocks_and_cover() -> None:
    """150 deal sets whose seat-deals share their deal set's luck (sd 25), in runs without
    per-deal rows: the deal_stats blocks of deal sets (64) carry the clustering. Unpaired, the
    points-per-deal difference (truth 0) covers at about 95% over blocks and not over seat-deals
    (a run written before blocks); paired over the blocks of the same deal sets, the dealer's cost
    (truth +6) covers too."""
    # 200 repeats: at a true 95%, fewer than 180 covered has a chance of about 0.2%
    repeats = 200
    covered = {"welch": 0, "paired": 0}
    naive = 0
    for seed in range(repeats):
        run = _two_variants(150, seed=1300 + seed, same_deals=False, deal_rows=True, set_sd=25.0)
        lean = run_from_frames(run.games, run.deal_stats)
        row = _row(compare([lean]), "points_per_deal")
        assert row["design"] == "welch, blocks of deal sets" and row["deal_sets"] == 150
        covered["welch"] += row["difference_low"] <= 0.0 <= row["difference_high"]
        if seed % 2 == 0:  # the seat-deals of a run without blocks, on every other run
            old = run_from_frames(run.games, run.deal_stats.drop("deal_block"))
            row = _row(compare([old]), "points_per_deal")
            assert row["design"] == "welch, seat-deals"
            naive += row["difference_low"] <= 0.0 <= row["difference_high"]
        run = _two_variants(150, seed=1300 + seed, deal_rows=True, set_sd=25.0, dealer_effect=6.0)
        comparison = compare([run_from_frames(run.games, run.deal_stats)])
        row = _row(comparison, "dealer_cost")
        assert row["design"] == "paired, blocks of deal sets"
        covered["paired"] += row["difference_low"] <= 6.0 <= row["difference_high"]
    assert any("64 blocks of deal sets" in note for note in comparison.notes)
    values = comparison.values.filter(pl.col("statistic") == "dealer_cost")
    assert set(values["unit_of"]) == {"blocks of deal sets"} and set(values["units"]) == {64}
    for name, count in covered.items():
        assert 0.90 <= count / repeats <= 0.99, (name, covered, naive)
    assert naive / (repeats // 2) < 0.8, naive


def test_needed_deal_sets_follows_the_power_formula() -> None:
    # se 1 on 100 deal sets, difference 1: (1.96 + 0.84)^2 * 100 = 785
    assert needed_deal_sets(100, 1.0, 1.0) == pytest.approx(785, abs=1)
    assert needed_deal_sets(100, 1.0, 0.0) == float("inf")


def test_findings_state_the_measured_effects_first() -> None:
    lines = findings(compare([_two_variants(400, seed=3)]))
    assert any("a's mean final score is" in line for line in lines[:4])
    assert "not measurable at this size" in lines[-2]
    assert lines[-1].startswith("Intervals are adjusted for testing many differences")


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = _two_variants(60, seed=4, deal_rows=True, dealer_effect=8.0)
    return write_run(tmp_path_factory.mktemp("compare") / "study", run.games.collect(),
                     run.deal_stats.collect(), run.deals.collect())


def test_compare_command_prints_writes_and_exports(study: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["compare", str(study), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "paired over" in result.output and "dealer_cost" in result.output
    assert "Fair: Is it fair?" in result.output  # the profile, a table per question
    html = (tmp_path / "out" / "compare.html").read_text()
    assert (html.index("The answer") < html.index("Is it fair?") < html.index("Other findings")
            < html.index("Every statistic"))
    for name in ("differences", "profile"):
        assert (tmp_path / "out" / "figures" / f"{name}.svg").is_file()
    profile = pl.read_csv(tmp_path / "out" / "tables" / "profile.csv")
    assert profile.columns[:2] == ["group", "measure"] and "dealer_top" in profile["measure"]
    document = json.loads(runner.invoke(cli, ["compare", str(study), "--format", "json"]).stdout)
    assert set(document) == {"profile", "compare"}
    records = document["profile"]
    assert {"group", "measure", "variant", "lineup", "value", "baseline_value", "difference",
            "low", "high", "measurable"} <= set(records[0])
    assert {record["group"] for record in records} == {"fair", "skill", "luck", "drama",
                                                      "bidding"}
    rows = {row["statistic"]: row for row in document["compare"]}
    assert rows["dealer_cost"]["difference_low"] <= 8.0 <= rows["dealer_cost"]["difference_high"]
    plain = pl.read_csv(runner.invoke(cli, ["compare", str(study), "--format", "csv"]).stdout
                        .encode())
    assert plain.columns == list(profile.columns)  # csv: the profile's records
    csv = runner.invoke(cli, ["compare", str(study), "--format", "csv", "--table", "values"])
    frame = pl.read_csv(csv.stdout.encode())
    assert set(frame["variant"]) == {"synthetic", "other"}
    assert np.isfinite(frame["value"].to_numpy()).any()


def test_compare_errors_are_clear(study: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    single = write_run(tmp_path / "single", synthetic_games(10, seed=1),
                       synthetic_deal_stats(4, seed=1)[0])
    alone = runner.invoke(cli, ["compare", str(single)])
    assert alone.exit_code == 2 and "at least two variants" in alone.output
    wrong = runner.invoke(cli, ["compare", str(study), "--baseline", "nope"])
    assert wrong.exit_code == 2 and "no variant 'nope'" in wrong.output
    missing = runner.invoke(cli, ["compare", str(tmp_path / "nowhere"), str(study)])
    assert missing.exit_code == 2 and "Traceback" not in missing.output


def test_variants_with_different_player_counts_compare_unpaired() -> None:
    four = run_from_frames(synthetic_games(30, seed=1), synthetic_deal_stats(4, seed=1)[0],
                           label="four")
    three = run_from_frames(
        synthetic_games(30, strategies=("a", "b", "c"), seed=2, variant=("three", OTHER)),
        synthetic_deal_stats(4, players=3, seed=1, variant_hash=OTHER)[0], label="three",
    )
    comparison = compare([four, three])
    assert set(comparison.table["design"]) == {"welch", "welch, blocks of deal sets"}
    assert "player counts differ" in comparison.notes[0]
    positions = [s for s in comparison.table["statistic"] if s.startswith("seat_advantage")]
    assert positions == ["seat_advantage[0]", "seat_advantage[1]", "seat_advantage[2]"]
    assert "mean_score[d]" not in set(comparison.table["statistic"])  # d sits only at four


def test_an_exact_difference_is_stated_as_exact() -> None:
    run = _two_variants(20, seed=6)
    games = run.games.collect()
    longer = games.with_columns(
        pl.when(pl.col("variant") == "other").then(30).otherwise(pl.col("deals_played"))
        .cast(pl.Int32).alias("deals_played")
    )
    comparison = compare([run_from_frames(longer, run.deal_stats.collect())])
    row = _row(comparison, "deals_per_game")
    assert (row["difference"], row["difference_low"], row["difference_high"]) == (10, 10, 10)
    assert row["verdict"] == (
        "game length is exactly 10.0 deals higher under other than under synthetic"
    )
    assert any(line.startswith("Game length is exactly 10.0 ") for line in findings(comparison))


# -- the question, multiplicity and lineups (``analysis.question``) ------------------------------


def _with_rules(run, hooks: tuple[str, str], strategies: tuple[str, ...] = ("a", "b", "c", "d"),
                label: str = "study"):  # noqa: ANN001, ANN202
    """``run`` (two variants: synthetic, other) with a manifest: the hook of each variant and the
    lineup, as a tournament writes them."""
    from dataclasses import replace

    from raspis.analysis.synthetic import HASH

    manifest = {"config": {"strategies": list(strategies)},
                "variants": [{"hash": HASH, "name": "synthetic",
                              "options": {"bidding": {"hook": hooks[0]}, "name": "synthetic"}},
                             {"hash": OTHER, "name": "other",
                              "options": {"bidding": {"hook": hooks[1]}, "name": "other"}}]}
    return replace(run, manifest=manifest, label=label)


def test_a_hook_change_is_answered_by_the_dealers_points_first() -> None:
    from raspis.analysis.compare import answer

    run = _with_rules(_two_variants(60, seed=4, deal_rows=True, dealer_effect=8.0),
                      ("always", "off"))
    comparison = compare([run])
    roles = dict(zip(comparison.table["statistic"], comparison.table["role"], strict=True))
    assert roles["dealer_cost"] == "question"
    assert roles["hook_forced_share"] == "mechanical"
    # the balance profile's measures follow the question; points the hook bears on, then the rest
    assert roles["made_share"] == "profile" and roles["dealer_top"] == "profile"
    assert roles["mean_score[a]"] == "related" and roles["negative_share"] == "other"
    lines = answer(comparison)
    # the question, answered in one sentence, before the details
    assert lines[0].startswith("Does the dealer's hook matter? Yes: against synthetic, the "
                               "dealer's deal points minus the other seats' is higher under "
                               "other by ")
    low, high = map(float, re.search(r"\[([-\d.]+), ([-\d.]+)\]", lines[0]).groups())
    assert low <= 8.0 <= high and lines[0].endswith(" points a deal.")
    assert lines[1].startswith('other (bidding.hook "always" -> "off"): Yes: ')
    assert "the dealer's deal points minus the other seats'" in lines[1]
    # the planted +8 is inside the interval the answer states
    low, high = map(float, re.search(r"\[([-\d.]+), ([-\d.]+)\]", lines[1]).groups())
    assert low <= 8.0 <= high
    shown = display_table(comparison)["statistic"].to_list()
    assert shown[0] == "dealer_cost" and shown[-1] == "hook_forced_share"


def test_a_change_with_no_effect_is_answered_not_measurably() -> None:
    from raspis.analysis.compare import answer

    run = _with_rules(_two_variants(60, seed=4, deal_rows=True, dealer_effect=0.0),
                      ("always", "off"))
    row = _row(compare([run]), "dealer_cost")
    first = answer(compare([run]))[0]
    assert not row["measurable"]
    assert first.startswith("Does the dealer's hook matter? Not measurably at this size: against "
                            "synthetic, the dealer's deal points minus the other seats' is not "
                            "measurably different under other (")
    low, high = map(float, re.search(r"\[([-\d.]+), ([-\d.]+)\]", first).groups())
    assert low < 0 < high


def test_focus_names_the_question_and_an_unknown_one_is_refused() -> None:
    from raspis.analysis.compare import answer
    from raspis.tournament.schema import DatasetError

    run = _two_variants(60, seed=4, deal_rows=True, dealer_effect=8.0)  # no rule options known
    # no topic knows the change: the balance profile answers whether the game changed
    assert answer(compare([run]))[0].startswith("Do these rules change the game? ")
    focused = compare([run], focus="dealer_cost")
    assert focused.table.filter(pl.col("role") == "question")["statistic"].to_list() == [
        "dealer_cost"]
    assert "dealer's deal points" in answer(focused)[0]
    with pytest.raises(DatasetError, match="no statistic 'nope'.*dealer_cost"):
        compare([run], focus="nope")


def test_measurable_follows_the_interval_shown_and_benjamini_hochberg() -> None:
    """Benjamini-Hochberg by hand (sort the p-values, the largest k with p_(k) <= k*alpha/m):
    exactly the selected differences are measurable, and exactly their shown intervals exclude
    0. Among many null differences, an unadjusted 95% interval that excludes 0 by chance alone is
    not called measurable."""
    from raspis.analysis.question import adjust

    rng = np.random.default_rng(5)
    count = 200
    effects = np.r_[np.full(20, 4.0), np.zeros(count - 20)]
    estimates = effects + rng.normal(0.0, 1.0, count)  # se 1, df 99
    df = 99.0
    half = float(stats_t_ppf(0.975, df))
    p_values = 2 * stats_t_sf(np.abs(estimates), df)
    table = pl.DataFrame({
        "difference": estimates, "difference_low": estimates - half,
        "difference_high": estimates + half, "df": np.full(count, df), "p_value": p_values,
        "family": ["secondary"] * count})
    adjusted = adjust(table, 0.95)
    order = np.argsort(p_values)
    passing = np.flatnonzero(p_values[order] <= 0.05 * np.arange(1, count + 1) / count)
    selected = set(order[: passing.max() + 1].tolist()) if len(passing) else set()
    measurable = adjusted["measurable"].to_numpy()
    assert set(np.flatnonzero(measurable).tolist()) == selected
    low, high = adjusted["shown_low"].to_numpy(), adjusted["shown_high"].to_numpy()
    assert np.array_equal((low > 0) | (high < 0), measurable)
    chance = (np.abs(estimates) > half) & (effects == 0)  # nulls that a 95% interval "finds"
    assert chance.sum() >= 3 and not measurable[chance].any()
    assert adjusted["interval_level"][0] == pytest.approx(1 - len(selected) * 0.05 / count)


def stats_t_ppf(q: float, df: float) -> float:
    from scipy import stats

    return float(stats.t.ppf(q, df))


def stats_t_sf(x: np.ndarray, df: float) -> np.ndarray:
    from scipy import stats

    return stats.t.sf(x, df)


@pytest.mark.parametrize(("second_effect", "expected"), [(8.0, "holds"), (-8.0, "flips"),
                                                          (0.0, "some lineups")])
def test_the_same_variants_under_two_lineups_say_whether_the_answer_holds(
        second_effect: float, expected: str) -> None:
    from raspis.analysis.compare import answer

    strong = _with_rules(_two_variants(60, seed=4, deal_rows=True, dealer_effect=8.0),
                         ("always", "off"), label="strong")
    weak = _with_rules(_two_variants(60, seed=9, deal_rows=True, dealer_effect=second_effect),
                       ("always", "off"), ("w", "x", "y", "z"), label="weak")
    comparison = compare([strong, weak])
    assert comparison.lineups == ["a, b, c, d", "w, x, y, z"]
    rows = comparison.table.filter(pl.col("statistic") == "dealer_cost")
    assert rows["lineup"].to_list() == comparison.lineups
    assert set(rows["baseline"]) == {"synthetic"} and set(rows["variant"]) == {"other"}
    robust = comparison.robust.filter(pl.col("statistic") == "dealer_cost").row(0, named=True)
    assert robust["robustness"] == expected
    first, line = answer(comparison)[:2]
    assert first.startswith("Does the dealer's hook matter? " + {
        "holds": "Yes, under both lineups: against synthetic, the dealer's deal points minus the "
                 "other seats' is higher under other by ",
        "flips": "It depends: ", "some lineups": "It depends: "}[expected])
    if expected != "holds":  # each lineup's own direction, the planted one first
        assert "higher with a, b, c, d (" in first and (
            "lower with w, x, y, z (" if expected == "flips"
            else "not measurably different with w, x, y, z (") in first
    assert "with a, b, c, d:" in line and "with w, x, y, z:" in line
    assert {"holds": "This holds under both lineups", "flips": "This flips with the players",
            "some lineups": "This depends on the players"}[expected] in line


def test_runs_of_different_variants_and_lineups_still_compare_and_say_so() -> None:
    four = run_from_frames(synthetic_games(30, seed=1), synthetic_deal_stats(4, seed=1)[0],
                           label="four")
    other = run_from_frames(
        synthetic_games(30, ("e", "f", "g", "h"), seed=2, variant=("other", OTHER)),
        synthetic_deal_stats(4, seed=1, variant_hash=OTHER)[0], label="other")
    comparison = compare([four, other])
    assert comparison.table.height > 0 and len(comparison.lineups) == 1
    assert any("mixes the rules and the players" in note for note in comparison.notes)


def test_shares_in_sentences_print_as_in_the_tables() -> None:
    """One format per kind: a share in a verdict is a percentage with 3 significant
    digits and its zeros ("48.0%", never "48%" beside "49.1%"), like the tables' shares."""
    from raspis.analysis.compare import Statistic, verdict

    made = Statistic("made_share", "the share of bids made", "(share of bids)", ("made",),
                     lambda t: float(t[0]))
    row = {"difference": 0.011, "difference_low": 0.0107, "difference_high": 0.0115,
           "baseline_value": 0.48, "value": 0.491}
    text = verdict(made, "classic", "no-hook", row)
    assert text == ("the share of bids made is 1.10 [1.07, 1.15] percentage points higher under "
                    "no-hook than under classic (48.0% under classic, 49.1% under no-hook)")
    comparison = compare([_two_variants(60, seed=4, deal_rows=True)])
    shares = [text for said in comparison.table["verdict"]
              for text in re.findall(r"(?<![\d.])(\d+(?:\.\d+)?)% under", said)]
    assert shares, comparison.table["verdict"].to_list()
    for text in shares:
        assert len(text.replace(".", "").lstrip("0")) == 3 or float(text) == 0, text


def test_every_panel_of_the_differences_figure_has_a_human_title() -> None:
    """The panels were titled with code names (``seat_advantage[0]``). Every panel's
    title is words: no identifier characters (``_``, ``[``), never the statistic's name, and
    starting with a capital; the same in the one-column figure for a phone."""
    from raspis.analysis.figures import differences

    comparison = compare([_two_variants(60, seed=4, deal_rows=True)])
    names = set(comparison.table["statistic"])
    assert {"seat_advantage[0]", "mean_score[a]", "made_share"} <= names
    for columns in (4, 1):
        titles = [axis.get_title().replace("\n", " ")
                  for axis in differences(comparison.table, columns=columns).axes
                  if axis.get_visible()]
        assert len(titles) == len(names)
        for title in titles:
            assert title not in names and not re.search(r"[_\[\]]", title), title
            assert title[0].isupper(), title


def test_a_panel_whose_words_differ_by_lineup_names_each() -> None:
    """The same statistic can read differently per lineup ("how often strong is ahead of
    fastheuristic" under one, "fastheuristic ... of lowest" under the other: each lineup's two
    best). The make run figure titled the panel with the first lineup's words for both; each
    lineup's words are in the title, with the lineup they are for."""
    from raspis.analysis.figures import differences

    strong = _with_rules(_two_variants(60, seed=4, deal_rows=True), ("always", "off"),
                         label="strong")
    weak = _with_rules(_two_variants(60, seed=9, deal_rows=True), ("always", "off"),
                       ("w", "x", "y", "z"), label="weak")
    table = compare([strong, weak]).table
    second = pl.col("lineup") == "w, x, y, z"
    table = table.with_columns(
        pl.when(second & (pl.col("statistic") == "better_ahead"))
        .then(pl.lit("how often w is ahead of x after one game")).otherwise(pl.col("label"))
        .alias("label"))
    titles = [" ".join(axis.get_title().split()) for axis in differences(table).axes
              if axis.get_visible()]
    ahead = [title for title in titles if "is ahead of" in title]
    assert ahead == ["How often a is ahead of b after one game (lineup 1); how often w is ahead "
                     "of x after one game (lineup 2)"]


def test_the_table_prints_a_share_with_its_percent_sign() -> None:
    """Percentages as %. A share's values read 48.0% in compare's table (they were
    bare numbers such as 17.38 beside 0.237, with the unit in another column); other values are
    numbers, and their differences in percentage points stay numbers with intervals."""
    shown = display_table(compare([_two_variants(60, seed=4, deal_rows=True)]))
    shares = shown.filter(pl.col("unit").str.starts_with("%"))
    others = shown.filter(~pl.col("unit").str.starts_with("%"))
    assert shares.height >= 5 and others.height >= 5
    for column in ("baseline_value", "value"):
        assert all(re.fullmatch(r"-?\d+(\.\d+)?%", text) for text in shares[column]), shares
        assert not any(text.endswith("%") for text in others[column])
    assert shown.schema["difference"].is_numeric()


def test_the_table_shows_a_shares_difference_and_interval_in_percentage_points() -> None:
    """A share's difference and the ends of its shown interval are 100 times the comparison's
    (percentage points); another statistic's are the comparison's own."""
    comparison = compare([_two_variants(60, seed=4, deal_rows=True)])
    shown = display_table(comparison)
    for statistic, scale in (("win_rate[a]", 100.0), ("mean_score[a]", 1.0)):
        row = _row(comparison, statistic)
        printed = shown.filter(pl.col("statistic") == statistic).row(0, named=True)
        assert (printed["difference"], printed["difference_low"],
                printed["difference_high"]) == pytest.approx(
            (scale * row["difference"], scale * row["shown_low"], scale * row["shown_high"]),
            rel=1e-12)


def test_two_runs_of_one_variant_are_told_apart_by_their_run(tmp_path: Path) -> None:
    """Two runs of a variant of the same name: each unit is labelled with its run's label, in
    the table and the values."""
    stats = synthetic_deal_stats(4, seed=1)[0]
    first = write_run(tmp_path / "first", synthetic_games(5, seed=1), stats)
    second = write_run(tmp_path / "second", synthetic_games(5, seed=1, noise_seed=3), stats)
    comparison = compare([first, second])
    assert [unit.label for unit in comparison.units] == ["first: synthetic", "second: synthetic"]
    assert set(comparison.values["variant"]) == {"first: synthetic", "second: synthetic"}


def test_the_spread_of_final_scores_is_their_standard_deviation(tmp_path: Path) -> None:
    """``score_sd`` is the standard deviation (over all seat-games, ddof 0) of the final
    scores: exactly 0 when every score is the same, ``np.std`` of the scores otherwise; and when
    every score is the same, the better of the pair is ahead in half of the games (a tie counts
    a half)."""
    stats = synthetic_deal_stats(4, seed=1)[0]
    flat = write_run(tmp_path / "flat", synthetic_games(5, seed=1, noise_sd=0.0, base=7.0),
                     stats)
    noisy_games = synthetic_games(5, seed=1, noise_seed=3)
    noisy = write_run(tmp_path / "noisy", noisy_games, stats)
    values = compare([flat, noisy]).values
    spread = values.filter(pl.col("statistic") == "score_sd")
    by_variant = dict(zip(spread["variant"], spread["value"], strict=True))
    assert by_variant["flat: synthetic"] == 0.0
    assert by_variant["noisy: synthetic"] == pytest.approx(
        np.std(noisy_games["score"].to_numpy()), rel=1e-9)
    # every game of the flat run is a tie between the pair: each counts a half for "ahead"
    ahead = values.filter((pl.col("statistic") == "better_ahead")
                          & (pl.col("variant") == "flat: synthetic"))["value"]
    assert ahead.to_list() == [0.5]


def test_two_variants_asking_one_question_are_answered_in_one_sentence(tmp_path: Path) -> None:
    """A baseline and two variants that each change the hook: the answer's first line asks the
    question once and states both variants' differences, the last joined by "; and "."""
    from raspis.analysis.compare import answer

    hashes = ("1" * 16, "2" * 16, "3" * 16)
    names, hooks = ("always", "off", "from-4"), ("always", "off", "from_deal")
    games, stats = [], []
    for index, (variant_hash, name) in enumerate(zip(hashes, names, strict=True)):
        frame = synthetic_games(40, duplicate=True, card_sd=60.0, seed=4, noise_seed=index,
                                variant=(name, variant_hash))
        games.append(frame.with_columns(pl.col("game_id") + index * frame.height))
        stats.append(synthetic_deal_stats(160, hand_sizes=(3, 5), seed=4, noise_seed=index,
                                          effects=DealEffects(dealer_effect=8.0 * index),
                                          variant_hash=variant_hash)[0])
    manifest = {"variants": [{"hash": variant_hash, "name": name,
                              "options": {"bidding": {"hook": hook}, "name": name}}
                             for variant_hash, name, hook in zip(hashes, names, hooks,
                                                                 strict=True)]}
    run = write_run(tmp_path / "hooks", pl.concat(games), pl.concat(stats), manifest=manifest)
    first = answer(compare([run]))[0]
    assert first.startswith("Does the dealer's hook matter? ")
    assert first.count("Does the dealer's hook matter?") == 1
    assert re.search(r"against always, the dealer's deal points minus the other seats' is .* "
                     r"under off .*; and .* under from-4 ", first), first


def test_the_html_table_sets_the_numbers_as_numbers(tmp_path: Path) -> None:
    """compare.html's table of every statistic: the values and the difference with its interval
    are numbers (class ``num``, set right-aligned), the names, unit, verdict words and design
    text (class ``text``)."""
    from raspis.analysis.compare import write_comparison

    stats = synthetic_deal_stats(4, seed=1)[0]
    first = write_run(tmp_path / "first", synthetic_games(5, seed=1), stats)
    second = write_run(tmp_path / "second", synthetic_games(5, seed=1, noise_seed=3), stats)
    write_comparison(compare([first, second]), tmp_path / "out")
    html = (tmp_path / "out" / "compare.html").read_text()
    table = html[html.index('<table data-table="compare">'):]
    table = table[:table.index("</table>")]
    headers = re.findall(r"<th>([^<]*)</th>", table)
    assert headers == ["statistic", "variant", "baseline_value", "value", "difference [CI]",
                       "unit", "measurable", "role", "design"]
    numbers = {"baseline_value", "value", "difference [CI]"}
    expected = ["num" if header in numbers else "text" for header in headers]
    rows = [re.findall(r'<td class="(\w+)">', row) for row in re.findall(r"<tr>(.*?)</tr>", table)]
    full = [row for row in rows if len(row) == len(headers)]
    assert full and all(row == expected for row in full)


def test_a_game_with_two_first_places_is_a_tie(tmp_path: Path) -> None:
    """``tie_share`` counts the games whose first place is shared: two strategies always level
    ahead of the other two tie every game (share 1), four different scores never (share 0)."""
    stats = synthetic_deal_stats(4, seed=1)[0]
    level = write_run(tmp_path / "level", synthetic_games(
        5, seed=1, noise_sd=0.0, strategy_effect={"a": 10.0, "b": 10.0, "c": 0.0, "d": -5.0}),
        stats)
    apart = write_run(tmp_path / "apart", synthetic_games(
        5, seed=1, noise_sd=0.0, strategy_effect={"a": 10.0, "b": 5.0, "c": 0.0, "d": -5.0}),
        stats)
    values = compare([level, apart]).values.filter(pl.col("statistic") == "tie_share")
    assert dict(zip(values["variant"], values["value"], strict=True)) == {
        "level: synthetic": 1.0, "apart: synthetic": 0.0}


@pytest.mark.parametrize(("difference", "direction"), [(0.02, "higher"), (-0.02, "lower")])
def test_a_shares_direction_is_said_when_the_answer_depends_on_the_players(
        difference: float, direction: str) -> None:
    """The headline of a question whose statistic is a share, measurable under one lineup only
    ("It depends"): a difference of 2 percentage points (0.02 as a share, below one unit) is
    said "higher" when positive and "lower" when negative. The comparison's table is written
    here by hand with the columns ``headline`` reads."""
    from raspis.analysis.compare import Comparison, headline

    lineups = ["a, b", "c, d"]
    rows = [{"statistic": "made_share", "label": "the share of bids made",
             "unit": "(share of bids)", "baseline": "base", "variant": "other",
             "lineup": lineup, "role": "question", "difference": value,
             "shown_low": value - 0.01, "shown_high": value + 0.01, "measurable": measurable}
            for lineup, value, measurable in ((lineups[0], difference, True),
                                              (lineups[1], -0.004, False))]
    comparison = Comparison(
        units=[], table=pl.DataFrame(rows), values=pl.DataFrame(), lineups=lineups,
        questions=[{"baseline": "base", "variant": "other", "lineup": lineup, "changes": [],
                    "topic": None} for lineup in lineups])
    said = headline(comparison, "Do the rules change the share of bids made?")
    assert said.startswith("It depends: against base, the share of bids made is under other "
                           f"{direction} with a, b (2.00 [")
    assert "but not measurably different with c, d (-0.400 [" in said
    assert said.endswith(" percentage points.")
