"""The report in a real browser: headless Chromium lays out report.html at two window widths, a
script measures every table against the page, and a screenshot is taken. Skipped, with the reason,
when no Chromium is installed (``apt-get install chromium``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from raspis.analysis import build_report
from raspis.tournament import TournamentConfig, run_tournament

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = next((path for path in map(shutil.which, BROWSERS) if path), None)

pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="no Chromium binary on PATH (chromium, chromium-browser or google-chrome); "
    "install one, e.g. apt-get install -y chromium, to check the report's layout",
)

MEASURE = """<script>
window.addEventListener("load", function () {
  var page = document.documentElement.clientWidth;
  var wide = [];
  document.querySelectorAll("table").forEach(function (table, index) {
    var box = table.getBoundingClientRect();
    if (box.right > page + 0.5 || box.left < -0.5) wide.push([index, Math.round(box.width)]);
  });
  var out = document.createElement("pre");
  out.id = "layout-check";
  out.textContent = JSON.stringify({page: page, tables: document.querySelectorAll("table").length,
                                    wide: wide, scroll: document.documentElement.scrollWidth});
  document.body.appendChild(out);
});
</script>"""


def _browser(*arguments: str) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    return subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--virtual-time-budget=5000", *arguments],
        capture_output=True, text=True, timeout=120, check=False,
    )


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("browser")
    config = TournamentConfig(
        variants=("classic", "joker"), players=4,
        strategies=("fastheuristic", "lowest", "random", "random"), games=30, seed=4,
        duplicate="rotations",
    )
    run_tournament(config, folder / "run", workers=1)
    return build_report([folder / "run"], folder / "report").html


@pytest.mark.parametrize("width", [1024, 1366])
def test_no_table_is_wider_than_the_page(report_html: Path, width: int) -> None:
    checked = report_html.with_name(f"check-{width}.html")
    checked.write_text(report_html.read_text(encoding="utf-8").replace("</body>", MEASURE +
                                                                        "</body>"))
    result = _browser(f"--window-size={width},900", "--dump-dom", checked.as_uri())
    match = re.search(r'<pre id="layout-check">([^<]*)</pre>', result.stdout)
    assert match, f"the browser did not lay the page out: {result.stderr[-1000:]}"
    layout = json.loads(match.group(1).replace("&quot;", '"'))
    assert layout["tables"] > 20
    assert layout["wide"] == [], f"tables wider than the {layout['page']} px page: {layout}"
    assert layout["scroll"] <= layout["page"], layout  # nothing scrolls sideways


def test_screenshot_of_the_report(report_html: Path) -> None:
    shot = report_html.with_name("report.png")
    result = _browser("--window-size=1280,2400", f"--screenshot={shot}", report_html.as_uri())
    assert shot.is_file() and shot.read_bytes().startswith(b"\x89PNG"), result.stderr[-1000:]
    assert shot.stat().st_size > 50_000  # a page with text and figures, not a blank one
