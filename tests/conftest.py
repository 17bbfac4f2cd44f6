"""The suite compiles once: before pytest-xdist starts its workers, the compiled core and players
are compiled (or loaded, when the cache is warm) in two processes side by side
(``tournament.warm.warm_side_by_side``), so every worker loads the cache instead of compiling the
same code for itself. ``RASPIS_NO_WARM=1`` skips it.

The tests look for ``strong``'s fitted bid tables of the user's in a folder that does not exist
(``RASPIS_FIT_DIR``), so a developer's own fits change nothing here.

Polars runs one thread a process here (``POLARS_MAX_THREADS``, unless set): the suite already
keeps both cores busy with its workers, and the thread pools only fought over them (the compare,
balance and README tests: 74.5 -> 70.1 s wall, 125 -> 117 s of CPU). Results do not depend on it.
"""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # before polars is first imported
# a bid table the developer fitted (``raspis strategies fit``) must not change what the tests
# play: the suite looks for one in a folder that does not exist (the tests that fit set their own)
os.environ["RASPIS_FIT_DIR"] = os.path.join(tempfile.gettempdir(),
                                            f"raspis-no-fits-{os.getpid()}")


def pytest_configure(config: pytest.Config) -> None:
    """Warm the compiled cache in the controller of a parallel run (not in its workers)."""
    if hasattr(config, "workerinput") or os.environ.get("RASPIS_NO_WARM"):
        return
    workers = config.getoption("numprocesses", default=None)
    if not workers:
        return
    from raspis.tournament.warm import warm_side_by_side

    if warm_side_by_side() != 0:
        raise pytest.UsageError("warming the compiled cache failed (see above); the suite was not "
                                "run. RASPIS_NO_WARM=1 runs it without the warm-up")
