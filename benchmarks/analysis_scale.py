"""Benchmark of the analysis against the size of the run (not a test): wall time and peak memory
of ``raspis stats``, ``compare`` and ``report`` on runs of growing size: first on the run as
written (the runner has summed its large shard groups into ``.totals/``), then again (which
reads the whole run's sums), then ``stats`` with every sum removed (summing the rows once: what
the runner spent on it while playing, and what a run written before the sums costs once).

    .venv/bin/python -m benchmarks.analysis_scale --games 25000 250000 1250000 \
        --out /tmp/raspis-scale

Each size plays one run of two variants (classic, and classic with the hook off) between
fastheuristic x2 and lowest x2 in rotations, ``--games`` deal sets a variant (4 games each), no
per-deal rows; then times each command in a fresh process under ``/usr/bin/time`` (peak
resident memory). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

HOOK_OFF = 'name = "classic-no-hook"\nextends = "classic"\n\n[bidding]\nhook = "off"\n'


def _timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (GB) of a command in a fresh process."""
    started = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *command], capture_output=True,
                            text=True, check=False)
    wall = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    peak_kb = int(result.stderr.strip().splitlines()[-1])
    return wall, peak_kb / 1024 / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[25_000, 250_000],
                        help="deal sets a variant, one run each (4 games a deal set)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/raspis-scale"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reuse", action="store_true",
                        help="time the runs already in --out (played by an earlier call)")
    arguments = parser.parse_args()
    raspis = [sys.executable, "-m", "raspis.cli.main"]
    arguments.out.mkdir(parents=True, exist_ok=True)
    variant = arguments.out / "classic-no-hook.toml"
    variant.write_text(HOOK_OFF, encoding="utf-8")
    rows = []
    for deal_sets in arguments.games:
        run = arguments.out / f"run-{deal_sets}"
        started = time.perf_counter()
        if not (arguments.reuse and (run / "manifest.json").is_file()):
            shutil.rmtree(run, ignore_errors=True)
            subprocess.run([*raspis, "tournament", "--variant", "classic", "--variant",
                            str(variant), "--players", "4", "--strategies",
                            "fastheuristic,fastheuristic,lowest,lowest", "--duplicate",
                            "rotations", "--games", str(deal_sets), "--no-deal-rows",
                            "--workers", str(arguments.workers), "--quiet", "--out", str(run)],
                           check=True, capture_output=True)
        play = time.perf_counter() - started  # (a reused run: nothing played, about 0)
        games = 2 * 4 * deal_sets
        report = arguments.out / f"report-{deal_sets}"
        commands = {
            "stats": [*raspis, "stats", str(run)],
            "compare": [*raspis, "compare", str(run)],
            "report": [*raspis, "report", str(run), "-o", str(report)],
        }
        for attempt in ("first", "again", "from rows"):
            for name, command in commands.items():
                if attempt == "first":  # the run as written: the runner's sums of its groups
                    for whole in (run / ".totals").glob("run-*"):
                        shutil.rmtree(whole)
                elif attempt == "from rows":  # no sums at all: what the runner's summing cost
                    if name != "stats":
                        continue
                    shutil.rmtree(run / ".totals", ignore_errors=True)
                wall, peak = _timed(command)
                rows.append((f"{games:,}", name, attempt, wall, peak, play))
                print(f"{games:,} games, {name} ({attempt}): {wall:.1f} s, {peak:.2f} GB",
                      flush=True)
    print("\n| games | command | | wall (s) | peak memory (GB) | play (s) |")
    print("| ---: | --- | --- | ---: | ---: | ---: |")
    for games, name, attempt, wall, peak, play in rows:
        print(f"| {games} | {name} | {attempt} | {wall:.1f} | {peak:.2f} | {play:.0f} |")


if __name__ == "__main__":
    main()
