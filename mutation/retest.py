"""Make a session's surviving mutants pending again: ``python mutation/retest.py SESSION``.

After tests were added for the survivors of a pass, ``bash mutation/run.sh MODULE`` (or
``cosmic-ray exec``) then runs those mutants again, and only those, against the guarding tests of
the module's config as it is now; a mutant the new tests kill is counted killed.
"""

from __future__ import annotations

import sqlite3
import sys


def main(arguments: list[str]) -> int:
    """Clear the results of the surviving mutants of each session named in ``arguments``."""
    for session in arguments:
        with sqlite3.connect(session) as database:
            cleared = database.execute(
                "DELETE FROM work_results WHERE worker_outcome = 'NORMAL' "
                "AND test_outcome = 'SURVIVED'").rowcount
        print(f"{session}: {cleared} surviving mutants to test again")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
