"""Where the compiled rules core is cached, keyed by its own source.

``numba``'s ``cache=True`` checks only the source file of the function it compiles, so a loop in
``engine/batch/kernels.py`` would keep running a cached copy of a rule from ``engine/core/rules.py``
after that rule changed (and the compiled policies of ``strategies/policies/compiled.py`` a copy of
the state machine). Here the cache directory is named after a hash of every source file that holds
compiled code (and the numba version): a change to any of them compiles afresh, and each process
after the first loads the cache instead of compiling. The directory is ``$RASPIS_CACHE_DIR`` (else
``$XDG_CACHE_HOME/raspis``, else ``~/.cache/raspis``) plus ``numba-<hash>``. Each process marks its
folder as raspis's and as used; the caches of other sources are kept for the ``KEEP_OTHERS`` most
recently used of them (two checkouts, or a build and the one before it that a benchmark compares,
each keep theirs) and the older ones removed, never a folder raspis did not make. A cache folder
that cannot be written gives way to a temporary one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import numba

# where the cache is and whether a part of it is built are read without numba (``engine.warmth``)
from ..warmth import cache_folder, is_warm_in, mark_path, stamps

#: caches of other sources kept beside the current one: the most recently used
KEEP_OTHERS = 3
#: the file that marks a cache folder as raspis's own (``prune`` removes no other folder)
OWNER = ".raspis-cache"


def configure() -> Path | None:
    """Point numba's cache at the folder of the current sources (before anything compiles),
    marked as raspis's (``OWNER``) and as used now, and prune the caches of other sources
    (``prune``). Where the cache folder cannot be written (a read-only home, say) the compiled
    code goes to a temporary folder for this process, with one warning on stderr: never beside
    the installed package, where numba would put it by default. None when not even that works."""
    folder = cache_folder()
    root = folder.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / OWNER).touch()
        os.utime(folder)
    except OSError as error:
        return _temporary_cache(folder, error)
    prune(root, folder)
    numba.config.CACHE_DIR = str(folder)
    return folder


def _temporary_cache(wanted: Path, error: OSError) -> Path | None:
    """A temporary compile cache for this process, said once on stderr."""
    import sys
    import tempfile

    try:
        folder = Path(tempfile.mkdtemp(prefix="raspis-numba-"))
    except OSError:
        return None
    print(f"raspis: cannot write the compile cache at {wanted} ({error.strerror or error}); "
          f"compiling into {folder} for this process only (set RASPIS_CACHE_DIR to a writable "
          "folder to keep it)", file=sys.stderr)
    numba.config.CACHE_DIR = str(folder)
    return folder


def is_warm(key: str) -> bool:
    """Whether what ``key`` names was compiled into this cache from these very source files
    (``mark_warm``): a caller may then skip compiling it ahead."""
    return is_warm_in(CACHE_FOLDER, key)


def mark_warm(key: str) -> None:
    """Note that what ``key`` names is now compiled into this cache (``is_warm``)."""
    if CACHE_FOLDER is not None:
        with contextlib.suppress(OSError):
            mark_path(CACHE_FOLDER, key).write_text(stamps())


def prune(root: Path, current: Path, keep: int = KEEP_OTHERS) -> list[Path]:
    """Remove the caches under ``root`` of sources other than ``current``'s, all but the ``keep``
    most recently used; returns those removed. Only folders raspis made (marked ``OWNER``) are
    candidates: a ``numba-*`` folder of anyone else's is left alone. Other processes may prune at
    the same time: a folder that vanishes meanwhile is passed over."""

    def used(folder: Path) -> float:
        try:
            return folder.stat().st_mtime
        except OSError:
            return 0.0

    try:
        others = [folder for folder in root.glob("numba-*")
                  if folder != current and (folder / OWNER).is_file()]
    except OSError:
        return []
    others.sort(key=used, reverse=True)
    removed = others[keep:]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    return removed


CACHE_FOLDER = configure()
