"""The report in a real browser: headless Chromium lays out report.html and compare.html at a
phone's and a laptop's width, a script measures every table and figure against the page, and a
screenshot is taken. Skipped, with the reason, when no Chromium is installed (``apt-get install
chromium``).

A headless window is never narrower than 500 px (``--window-size=390,900`` lays pages out 500 px
wide), so each page is laid out in an iframe of the width wanted, inside a wider window; the
script in the page sends its measures to the window holding the frame."""

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
  var wide = [], loose = [], names = [];
  document.querySelectorAll("table").forEach(function (table, index) {
    names.push(table.getAttribute("data-table"));
    var box = table.closest(".scroll");
    if (box === null) { loose.push(index); box = table; }
    var rect = box.getBoundingClientRect();
    if (rect.right > page + 0.5 || rect.left < -0.5) wide.push([index, Math.round(rect.width)]);
  });
  var figures = [];
  document.querySelectorAll("img").forEach(function (image) {
    var rect = image.getBoundingClientRect();
    figures.push({alt: image.getAttribute("alt"), fits: rect.right <= page + 0.5,
                  narrow: image.currentSrc !== image.src});
  });
  var viewport = document.querySelector('meta[name="viewport"]');
  parent.postMessage(JSON.stringify({
    page: page, tables: names.length, names: names, wide: wide, loose: loose,
    scroll: document.documentElement.scrollWidth, figures: figures,
    viewport: viewport === null ? null : viewport.getAttribute("content")}), "*");
});
</script>"""

#: the window that holds the page in a frame of the width measured, and prints what it sends
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="{page}" style="width:{width}px;height:900px;border:0"></iframe>
<script>window.addEventListener("message", function (event) {{
  var out = document.createElement("pre"); out.id = "layout-check";
  out.textContent = event.data; document.body.appendChild(out); }});</script></body></html>"""


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
    from raspis.analysis.compare import compare, write_comparison

    html = build_report([folder / "run"], folder / "report").html
    write_comparison(compare([folder / "run"]), html.parent / "compare")
    return html


def _layout(page: Path, width: int) -> dict:
    checked = page.with_name(f"check-{width}-{page.name}")
    checked.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"))
    frame = page.with_name(f"frame-{width}-{page.name}")
    frame.write_text(FRAME.format(page=checked.as_uri(), width=width), encoding="utf-8")
    result = _browser(f"--window-size={max(width, 500) + 100},1000", "--dump-dom", frame.as_uri())
    match = re.search(r'<pre id="layout-check">([^<]*)</pre>', result.stdout)
    assert match, f"the browser did not lay the page out: {result.stderr[-1000:]}"
    return json.loads(match.group(1).replace("&quot;", '"'))


@pytest.mark.parametrize("width", [390, 1280])
def test_no_table_is_split_or_wider_than_the_page(report_html: Path, width: int) -> None:
    """At a phone's 390 px and a laptop's 1280 px: the page is laid out that wide, nothing scrolls
    it sideways, every table sits in a box that fits the page (a wide table scrolls inside it),
    every table of a statistic is one table (its name appears once), and every figure fits; on
    the phone compare.html shows its figure of panels in one column."""
    for page in (report_html, report_html.parent / "compare" / "compare.html"):
        layout = _layout(page, width)
        assert layout["page"] == width, (page.name, layout["page"])
        assert layout["tables"] >= (12 if page == report_html else 1)
        assert layout["figures"] and all(f["fits"] for f in layout["figures"]), layout["figures"]
        if page.name == "compare.html":  # the profile, then the figure of every other statistic
            narrow = {f["alt"]: f["narrow"] for f in layout["figures"]}
            assert narrow == {"the balance profile": False, "differences": width < 700}
        assert layout["loose"] == [] and layout["wide"] == [], (page.name, layout)
        assert layout["scroll"] <= layout["page"], (page.name, layout)  # no sideways scrolling
        named = [name for name in layout["names"] if name]
        assert len(named) == layout["tables"] and len(set(named)) == len(named), layout["names"]


def test_both_pages_tell_a_phone_their_width(report_html: Path) -> None:
    """A viewport tag, read by the browser: without it a phone lays a page out 980 px wide and
    shrinks it (what a frame of the width wanted cannot show)."""
    for page in (report_html, report_html.parent / "compare" / "compare.html"):
        assert _layout(page, 390)["viewport"] == "width=device-width, initial-scale=1", page.name


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("name", ["report.html", "compare/compare.html"])
def test_screenshots_of_both_pages(report_html: Path, name: str, width: int) -> None:
    """Each page as a phone (390 px) and a laptop (1280 px) show it, opening with the answer and
    the balance profile: the screenshot is a page with text and figures, not a blank one. A
    headless window is never narrower than 500 px, so the phone's page is shot in a frame of its
    width (see the module doc)."""
    page = report_html.parent / name
    shot = page.with_name(f"{page.stem}-{width}.png")
    if width >= 500:
        result = _browser(f"--window-size={width},2400", f"--screenshot={shot}", page.as_uri())
    else:
        frame = page.with_name(f"shot-{width}-{page.name}")
        frame.write_text(FRAME.replace("height:900px", "height:2400px").format(
            page=page.as_uri(), width=width), encoding="utf-8")
        result = _browser(f"--window-size={max(width, 500)},2400", f"--screenshot={shot}",
                          frame.as_uri())
    assert shot.is_file() and shot.read_bytes().startswith(b"\x89PNG"), result.stderr[-1000:]
    assert shot.stat().st_size > 50_000  # a page with text and figures, not a blank one
