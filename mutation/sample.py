"""A Cosmic Ray filter that keeps a seeded random sample of a session's pending mutants.

``python mutation/sample.py SESSION COUNT [--seed SEED]`` marks every pending work item of the
session SKIPPED ("sampled out") except COUNT of them drawn at random with SEED (default 42), so a
module whose every mutant would take hours on a small machine is judged on a fair sample; the
report then counts the sampled mutants only. With COUNT at least the pending items it does nothing.
The same SEED draws the same sample from the same session, so a pass can be repeated.
"""

from __future__ import annotations

import random
import sys
from argparse import ArgumentParser, Namespace

from cosmic_ray.tools.filters.filter_app import FilterApp
from cosmic_ray.work_db import WorkDB
from cosmic_ray.work_item import WorkerOutcome, WorkResult


class SampleFilter(FilterApp):
    """Skip all pending work items but a seeded random sample of them."""

    def description(self) -> str:
        """The command's help text."""
        return __doc__ or ""

    def add_args(self, parser: ArgumentParser) -> None:
        """COUNT and --seed."""
        parser.add_argument("count", type=int, help="how many mutants to keep")
        parser.add_argument("--seed", type=int, default=42, help="the sample's seed")

    def filter(self, work_db: WorkDB, args: Namespace) -> None:
        """Mark every pending item SKIPPED except ``args.count`` drawn with ``args.seed``."""
        pending = sorted(item.job_id for item in work_db.pending_work_items)
        kept = set(random.Random(args.seed).sample(pending, min(args.count, len(pending))))
        for job_id in pending:
            if job_id not in kept:
                work_db.set_result(job_id, WorkResult(output="sampled out",
                                                      worker_outcome=WorkerOutcome.SKIPPED))


if __name__ == "__main__":
    sys.exit(SampleFilter().main())
