"""Whether the compiled rules core is built on this machine, read without building or loading it;
and the core run by Python for a command that should not wait for the build.

The compiled code is cached in a folder named after a hash of the compiled sources and the numba
version (``engine.core.cache``, which points numba at it); a part of it, once compiled, is marked
warm there with the sources' stamps (``is_warm_in``). Both are read here from files alone, so a
command can ask before anything imports ``engine.core`` (whose import decorates, and so fixes,
every compiled function).

``interpret_core`` makes the core run as plain Python in this process (numba's ``DISABLE_JIT``;
``engine.core.compiling.interpreted``): no compile at all, about 0.1 ms a decision instead of a
microsecond, and the very same games (``tests/test_interpreted.py`` replays golden games so). It
serves ``raspis play`` on a machine whose cache is cold: one game of light players plays at once
instead of after a 10 s compile.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.metadata import version
from pathlib import Path

_ENGINE = Path(__file__).resolve().parent

#: The files whose code is compiled with ``cache=True``.
COMPILED_SOURCES = (*sorted((_ENGINE / "core").glob("*.py")), _ENGINE / "batch" / "kernels.py",
                    _ENGINE / "batch" / "compiled.py",
                    *sorted((_ENGINE.parent / "strategies" / "policies").glob("*.py")),
                    _ENGINE.parent / "tournament" / "frames.py")


def source_hash() -> str:
    """A hash of the compiled sources and the numba version, 16 hex digits."""
    digest = hashlib.sha256(version("numba").encode())
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


def cache_folder() -> Path:
    """The cache folder of the current sources (``engine.core.cache.configure`` makes it)."""
    return cache_root() / f"numba-{source_hash()}"


def stamps() -> str:
    """The compiled sources' modification times and sizes, what numba checks a cached function
    against (a checkout of the same sources made at another time compiles them again)."""
    parts = []
    for path in COMPILED_SOURCES:
        try:
            stat = path.stat()
        except OSError:
            continue
        parts.append(f"{path.name} {stat.st_mtime_ns} {stat.st_size}")
    return "\n".join(parts)


def mark_path(folder: Path, key: str) -> Path:
    """The file in ``folder`` that marks what ``key`` names as compiled there."""
    return folder / f"warm-{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def is_warm_in(folder: Path | None, key: str) -> bool:
    """Whether what ``key`` names was compiled into ``folder`` from these very source files."""
    try:
        return folder is not None and mark_path(folder, key).read_text() == stamps()
    except OSError:
        return False


def interpret_core() -> bool:
    """Run the rules core (and the compiled players) as Python in this process from now on:
    possible only before ``engine.core`` is imported (returns whether it took effect). numpy's
    overflow warnings are silenced: the hashes wrap round 2**64 on purpose, as compiled."""
    if "raspis.engine.core" in sys.modules:
        return False
    import warnings

    from numba.core import config

    config.DISABLE_JIT = True
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
    return True


def is_interpreted() -> bool:
    """Whether the core runs as Python in this process (``interpret_core``)."""
    from numba.core import config

    return bool(config.DISABLE_JIT)
