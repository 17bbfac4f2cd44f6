"""Where the compiled rules core is cached, keyed by its own source.

``numba``'s ``cache=True`` checks only the source file of the function it compiles, so a loop in
``engine/batch/kernels.py`` would keep running a cached copy of a rule from ``engine/core/rules.py``
after that rule changed (and the compiled policies of ``strategies/compiled.py`` a copy of the
state machine). Here the cache directory is named after a hash of every source file that
holds compiled code (and the numba version): a change to any of them compiles afresh, and each
process after the first loads the cache instead of compiling. The directory is
``$RASPIS_CACHE_DIR`` (else ``$XDG_CACHE_HOME/raspis``, else ``~/.cache/raspis``) plus
``numba-<hash>``; caches of older sources are removed when a new one is made.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba

_ENGINE = Path(__file__).resolve().parent.parent
#: The files whose code is compiled with ``cache=True``.
COMPILED_SOURCES = (*sorted((_ENGINE / "core").glob("*.py")), _ENGINE / "batch" / "kernels.py",
                    _ENGINE / "batch" / "compiled.py",
                    _ENGINE.parent / "strategies" / "compiled.py",
                    _ENGINE.parent / "strategies" / "strong_policy.py",
                    _ENGINE.parent / "strategies" / "playout.py")


def source_hash() -> str:
    """A hash of the compiled sources and the numba version, 16 hex digits."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in COMPILED_SOURCES:
        if not path.is_file():
            continue
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """The folder that holds the compiled caches."""
    explicit = os.environ.get("RASPIS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "raspis"


def configure() -> Path | None:
    """Point numba's cache at the folder of the current sources (before anything compiles); None
    when no folder is writable (numba then compiles in every process)."""
    root = cache_root()
    folder = root / f"numba-{source_hash()}"
    try:
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
            for old in root.glob("numba-*"):
                if old != folder:
                    shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return None
    numba.config.CACHE_DIR = str(folder)
    return folder


CACHE_FOLDER = configure()
