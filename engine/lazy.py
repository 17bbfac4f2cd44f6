"""Names of a package loaded on first use (PEP 562), so that importing one light module of a
package (``raspis.analysis.formats``, ``raspis.tournament.schema``, ``raspis.engine.variant``)
does not load the heavy ones beside it (scipy's statistics, matplotlib, the compiled core)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``names`` maps a name to the submodule that
    defines it, imported when the name is first asked for; the value is then kept on the package,
    so later reads are plain attribute reads."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
