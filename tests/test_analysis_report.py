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
    ranking = pl.read_csv(tmp_path / "report" / "tables" / "ranking.csv")
    assert set(ranking["variant"]) == {"classic", "joker"}
    assert ranking["games"].to_list() == [24] * 4  # 6 deal sets x 4 rotations, per variant


def test_report_of_two_runs_side_by_side(small_run: Path, tmp_path: Path) -> None:
    report = build_report([small_run, small_run], tmp_path / "two", title="twice")
    seats = report.tables["seats"]
    assert set(seats["run"]) == {"run", "run#2"}
    assert "twice" in report.html.read_text(encoding="utf-8")
