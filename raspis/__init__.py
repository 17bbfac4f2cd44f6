"""raspis: a tournament simulator and rules-analysis tool for Расписной покер (Odessa poker,
Georgian poker, Georgian Joker and their house rules).

The package's parts live in the repository's top-level folders (``engine/``, ``strategies/``,
``cli/``, ``analysis/``, ``data/``) and are installed as ``raspis.engine``, ``raspis.strategies``
and so on. Run from a source checkout, this package finds them beside itself.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

_checkout = Path(__file__).resolve().parent.parent
_packaged = (Path(__file__).parent / "engine").is_dir()
if (_checkout / "engine" / "__init__.py").is_file() and not _packaged:
    __path__.append(str(_checkout))  # a source checkout: raspis.engine is ../engine
