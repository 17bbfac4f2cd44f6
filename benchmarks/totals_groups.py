"""Benchmark (not a test): adding up the group sums of a run of 10^8 games, from copies of a real
run's group sums.

    .venv/bin/python -m benchmarks.totals_groups /tmp/raspis-scale/run-1250000 --groups 1250

A run's first analysis (or the tournament's closing table) reads each shard group's sums the
runner kept (``.totals/groups/``) and adds them up (``tournament.totals.run_totals``); that is the
only part of the analysis whose cost grows with the games once the sums exist. A run of 10^8
games in the benchmark's lineup (``benchmarks/analysis_scale.py``: groups of 80,000 games) has
1,250 groups. This copies the given run's group sums until there are ``--groups`` of them (each
copy's deal sets moved past the others', so that they pass the check that no deal set is in two
groups) and times, in this process, reading them all and adding them up as ``run_totals`` does
(``_read``, ``_check_disjoint``, ``_summed``), with the peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import tempfile
import time
from pathlib import Path

from raspis.tournament.totals import KEYS, Basis, Unit, _check_disjoint, _read, _summed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a run whose runner kept its group sums")
    parser.add_argument("--groups", type=int, default=1250)
    arguments = parser.parse_args()
    manifest = json.loads((arguments.run / "manifest.json").read_text())
    basis = Basis.of(manifest)
    kept = sorted(path for path in (arguments.run / ".totals" / "groups").iterdir()
                  if (path / "games.parquet").is_file())
    if not kept:
        raise SystemExit(f"{arguments.run}: no group sums kept (play it with this raspis)")
    scratch = Path(tempfile.mkdtemp(prefix="raspis-groups-"))
    places = []
    for index in range(arguments.groups):
        source = kept[index % len(kept)]
        place = scratch / f"{index:06d}"
        shutil.copytree(source, place)
        about = json.loads((place / "games.json").read_text())
        shift = (index // len(kept)) * 10**7  # past every copy before it
        about["deal_sets"] = {variant: [first + shift, last + shift]
                              for variant, (first, last) in about["deal_sets"].items()}
        (place / "games.json").write_text(json.dumps(about))
        places.append(place)
    started = time.perf_counter()
    built, ranges = [], []
    for place in places:
        built.append(_read(place, basis.strategies, basis.has_sums))
        spans = json.loads((place / "games.json").read_text())["deal_sets"]
        unit = Unit(place.name, [place.name], "00")
        ranges += [(variant, first, last, unit) for variant, (first, last) in spans.items()]
    _check_disjoint(scratch, ranges)
    games = _summed([totals.games for totals in built], KEYS)
    _summed([totals.orders for totals in built], [*KEYS, "order", "places"])
    if basis.has_sums:
        _summed([totals.deals for totals in built if totals.deals is not None], KEYS)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024
    shutil.rmtree(scratch)
    print(f"{arguments.groups:,} group sums ({len(kept)} kept, copied): read and added up in "
          f"{seconds:.1f} s, {games.height} rows of totals, peak {peak:.2f} GB")


if __name__ == "__main__":
    main()
