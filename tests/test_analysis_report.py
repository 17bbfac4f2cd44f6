"""The report: built from a small real tournament (HTML with embedded PNGs, Markdown, PNG and
SVG figures, CSV tables), naming the run, its variants' hashes, strategies and game counts."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import polars as pl
import pytest
from raspis.analysis import build_report, open_run
from raspis.tournament import TournamentConfig, run_tournament

FIGURES = (
    "profile",
    "ratings",
    "seat_advantage",
    "dealer_cost",
    "joker_value",
    "bid_outcomes",
    "luck_skill",
    "score_distribution",
)
STRATEGIES = (
    "random",
    "random",
    "other=raspis.strategies.base:RandomStrategy",
    "other=raspis.strategies.base:RandomStrategy",
)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = TournamentConfig(
        variants=("classic", "joker"),
        players=4,
        strategies=STRATEGIES,
        games=6,
        seed=3,
        duplicate="rotations",
    )
    out = tmp_path_factory.mktemp("report") / "run"
    run_tournament(config, out, workers=1)
    return out


def test_report_writes_html_markdown_figures_and_tables(small_run: Path, tmp_path: Path) -> None:
    report = build_report([small_run], tmp_path / "report")
    html = report.html.read_text(encoding="utf-8")
    markdown = report.markdown.read_text(encoding="utf-8")
    for name in FIGURES:
        png = tmp_path / "report" / "figures" / f"{name}.png"
        svg = tmp_path / "report" / "figures" / f"{name}.svg"
        assert png.read_bytes().startswith(b"\x89PNG"), name
        assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text(), name
        assert f"figures/{name}.png" in markdown and f"figures/{name}.svg" in html
    # self-contained: every figure is embedded, and decodes to a PNG
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(embedded) == len(FIGURES)
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for data in embedded)
    assert '<img src="figures' not in html
    # provenance: the run, its fingerprint, the variants' hashes, strategies and game counts
    run = open_run(small_run)
    described = run.describe()
    for text in (html, markdown):
        assert described["fingerprint"] in text and str(small_run) in text
        for variant in described["variants"]:
            assert variant["variant_hash"] in text and variant["variant"] in text
        assert "other" in text and "raspis.strategies.base:RandomStrategy" not in text
        assert "Hotelling" in text and "Plackett-Luce" in text
    assert "| classic | " in markdown
    # a setting the same on every row is said once, not a column of equal cells
    assert "target = 95.0% on every row." in html and "<th class=\"num\">target</th>" not in html
    ranking = pl.read_csv(tmp_path / "report" / "tables" / "ranking.csv")
    assert set(ranking["variant"]) == {"classic", "joker"}
    assert ranking["games"].to_list() == [24] * 4  # 6 deal sets x 4 rotations, per variant


def test_report_of_two_runs_side_by_side(small_run: Path, tmp_path: Path) -> None:
    report = build_report([small_run, small_run], tmp_path / "two", title="twice")
    seats = report.tables["seats"]
    assert set(seats["run"]) == {"run", "run#2"}
    html = report.html.read_text(encoding="utf-8")
    assert "twice" in html
    # each run's rows say which run they are (the same variants twice, else indistinguishable)
    tables = re.findall(r'<table data-table="(\w+)">(.*?)</table>', html, flags=re.DOTALL)
    assert len(tables) >= 12
    for name, body in tables:
        assert "<th>run</th>" in body or '<th class="text">run</th>' in body, name
        assert "<td class=\"text\">run#2</td>" in body, name


@pytest.fixture(scope="module")
def lean_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A duplicate run between different strategies, without per-deal rows (as large runs are)."""
    config = TournamentConfig(
        variants=("classic",),
        players=4,
        strategies=("fastheuristic", "lowest", "random", "random"),
        games=40,
        seed=5,
        duplicate="rotations",
        deal_rows=False,
    )
    out = tmp_path_factory.mktemp("lean") / "run"
    run_tournament(config, out, workers=1)
    return out


@pytest.fixture(scope="module")
def lean_report(lean_run: Path, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    return build_report([lean_run], tmp_path_factory.mktemp("lean") / "report")


def test_report_answers_first_with_findings_and_contents(lean_report) -> None:  # noqa: ANN001
    """The report opens with the balance profile (a table per question, each measure against a
    balanced game's value), then the key findings in points as one table (a row per finding, a
    column per variant), then the contents."""
    report = lean_report
    html = report.html.read_text(encoding="utf-8")
    markdown = report.markdown.read_text(encoding="utf-8")
    for text in (html, markdown):
        assert (text.index("The balance profile") < text.index("Is it fair?")
                < text.index("Key findings in points") < text.index("Contents")
                < text.index("1. Strategies"))
    findings = markdown.split("## Key findings in points", 1)[1].split("## Contents", 1)[0]
    # fastheuristic beats lowest by far: a row with its interval, measurable
    line = next(row for row in findings.splitlines()
                if row.startswith("| the best strategy's lead"))
    assert "fastheuristic over lowest: " in line and "[" in line and "✓" in line
    assert "| finding | classic |" in findings  # one column per variant
    assert "whether the seats are equal" in findings and "(p " in findings
    # the skill table: fastheuristic finishes ahead of lowest, away from a coin flip
    skill = markdown.split("### Skill: Does the better player win?", 1)[1].split("###", 1)[0]
    row = next(row for row in skill.splitlines() if "fastheuristic's chance to finish ahead of"
               " lowest" in row)
    assert "| 50.0% |" in row and row.rstrip(" |").endswith("✓")
    assert html.count('href="#s') == 8  # one entry per section


def test_report_tables_fit_and_say_what_is_missing(lean_report) -> None:  # noqa: ANN001
    report = lean_report
    html = report.html.read_text(encoding="utf-8")
    # provenance once per section, never a column
    assert "<th class=\"text\">variant_hash</th>" not in html and ">run</th>" not in html
    assert "run run: classic (" in html
    # no broken or empty interval cells, and the per-deal statistics are named, not blank
    assert "[, ]" not in html and "<td class=\"num\"></td>" not in html
    assert "need per-deal rows" in html and "--deal-rows" in html
    # a run without per-deal rows: deal-level intervals over its blocks of deal sets, said once
    assert "Deal-level intervals over blocks of deal sets" in html
    assert "Deal-level intervals over seat-deals" not in html
    assert "| variance_share" not in report.markdown.read_text(encoding="utf-8")
    # text left, numbers right
    assert '<td class="text">fastheuristic</td>' in html and '<td class="num">' in html


def test_per_strategy_bid_outcomes_and_score_distributions(lean_report) -> None:  # noqa: ANN001
    report = lean_report
    bidding = report.tables["bidding_by_hand"]
    assert set(bidding["strategy"]) == {"fastheuristic", "lowest", "random"}
    made = bidding.group_by("strategy").agg(pl.col("made_share").mean())
    shares = dict(zip(made["strategy"], made["made_share"], strict=True))
    assert shares["fastheuristic"] > shares["random"]  # the split shows what pooling hid
    histogram = report.tables["histogram"]
    assert set(histogram["strategy"]) == {"fastheuristic", "lowest", "random"}
    sums = histogram.group_by("strategy").agg(pl.col("share").sum())
    assert all(abs(value - 1.0) < 1e-9 for value in sums["share"])


def test_report_of_several_variants_opens_with_their_differences(small_run: Path,
                                                                 tmp_path: Path) -> None:
    markdown = build_report([small_run], tmp_path / "cmp").markdown.read_text(encoding="utf-8")
    top = markdown.split("## Contents", 1)[0]
    assert "### Variant against variant: other differences" in top
    assert "joker" in top.split("### Variant against variant", 1)[1]
    # the profile compares them first: each variant minus the baseline, one table per question
    assert top.index("## The balance profile") < top.index("### Variant against variant")
    assert "| measure | classic | joker | joker − classic |" in top


def test_report_replaces_an_old_report_whole_and_leaves_other_files(small_run: Path,
                                                                    tmp_path: Path) -> None:
    """The report is written beside its folder and put in place at the end: an old report's
    files are all replaced (none left from the old one), other files in the folder stay, and a
    report that fails half-way leaves the old one as it was, with no temporary folder behind."""
    from unittest import mock

    from raspis.analysis import report as report_module

    folder = tmp_path / "out"
    build_report([small_run], folder)
    (folder / "figures" / "stale.png").write_bytes(b"old")
    (folder / "notes.txt").write_text("mine")
    built = build_report([small_run], folder)
    assert built.html == folder / "report.html" and built.html.is_file()
    assert not (folder / "figures" / "stale.png").exists()
    assert (folder / "notes.txt").read_text() == "mine"
    before = (folder / "report.html").read_bytes()
    with mock.patch.object(report_module, "key_findings", side_effect=RuntimeError("killed")), \
            pytest.raises(RuntimeError):
        build_report([small_run], folder)
    assert (folder / "report.html").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_key_findings_rank_by_the_question_of_the_changed_rules() -> None:
    """The report's first key finding was the strategies' gap, which has nothing to do
    with the hook the study asks about. Given the changed rules' topic (the hook), the dealer's
    row comes first, then those the hook bears on (the strategies' scores, the seats), then the
    rest; without a topic the rows keep their order (the strategies first). Each row holds every
    run and variant side by side, each said once."""
    import sys

    from raspis.analysis.question import TOPICS
    from raspis.analysis.report import key_findings
    from raspis.analysis.tables import balance_tables, stats_tables

    sys.path.insert(0, str(Path(__file__).parent))
    from test_compare import _two_variants

    run = _two_variants(60, seed=4, deal_rows=True, dealer_effect=8.0)
    tables = {**stats_tables([run], ratings=False), **balance_tables([run])}
    hook = next(topic for topic in TOPICS if topic.prefix == "bidding.hook")
    plain = key_findings([run], tables)
    ranked = key_findings([run], tables, topic=hook)
    assert plain.columns == ranked.columns
    assert set(plain.columns) == {"finding", "synthetic", "other"}
    assert sorted(plain["finding"]) == sorted(ranked["finding"]) and ranked.height >= 6
    assert plain["finding"][0].startswith("the best strategy's lead")
    assert ranked["finding"][0].startswith("the dealer's deal points")
    assert ranked["finding"][1].startswith(("the best strategy's lead", "the largest seat"))
    # the planted dealer's +8 shows under "other" only, with its interval
    dealer = ranked.row(0, named=True)
    assert "✓" in dealer["other"] and "✓" not in dealer["synthetic"]


def test_share_axes_of_the_figures_are_percentages(lean_report) -> None:  # noqa: ANN001
    """One format per kind, figures included: a win rate or a share of bids reads 25%, as in the
    tables, not 0.25."""
    from raspis.analysis import figures

    tables = lean_report.tables
    drawn = {
        "win rate": figures.seat_advantage(tables["seats"]).axes[1],
        "bids": figures.bid_outcomes(tables["bidding_by_hand"]).axes[0],
        "match": figures.luck_skill_curve(tables["curve"]).axes[0],
    }
    for name, axis in drawn.items():
        axis.figure.canvas.draw()
        labels = [label.get_text() for label in axis.get_yticklabels() if label.get_text()]
        assert labels and all(text.endswith("%") for text in labels), (name, labels)
