"""The figures of a mutation pass, per session: ``python mutation/figures.py SESSION...``.

For each Cosmic Ray session (``mutation/MODULE.sqlite``) one line: the module, its mutants in all,
those tested (the sample; the rest were sampled out), killed (a guarding test failed), of which by
the per-mutant timeout, survived, and incompetent (the mutant could not run: no test, or the
worker raised). ``cr-report``'s percentages count the sampled-out mutants as complete; these do
not.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path


def figures(session: Path) -> dict[str, object]:
    """The counts of one session, read from its work database."""
    with sqlite3.connect(session) as database:
        module = database.execute("SELECT module_path FROM mutation_specs LIMIT 1").fetchone()
        total = database.execute("SELECT COUNT(*) FROM work_items").fetchone()[0]
        rows = database.execute(
            "SELECT worker_outcome, test_outcome, output = 'timeout', COUNT(*) FROM work_results "
            "GROUP BY 1, 2, 3").fetchall()
    counts = {"skipped": 0, "killed": 0, "timeout": 0, "survived": 0, "incompetent": 0}
    for worker, test, timed_out, count in rows:
        if worker == "SKIPPED":
            counts["skipped"] += count
        elif worker == "NORMAL" and test == "KILLED":
            counts["killed"] += count
            counts["timeout"] += count if timed_out else 0
        elif worker == "NORMAL" and test == "SURVIVED":
            counts["survived"] += count
        else:
            counts["incompetent"] += count
    tested = counts["killed"] + counts["survived"] + counts["incompetent"]
    pending = total - tested - counts["skipped"]
    return {"module": module[0] if module else session.stem, "mutants": total, "tested": tested,
            "pending": pending, **counts}


def main(arguments: list[str]) -> int:
    """Print one line per session named in ``arguments``."""
    print("module | mutants | tested | killed (by timeout) | survived | incompetent | pending")
    for name in arguments:
        row = figures(Path(name))
        print(f"{row['module']} | {row['mutants']} | {row['tested']} | {row['killed']} "
              f"({row['timeout']}) | {row['survived']} | {row['incompetent']} | {row['pending']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
