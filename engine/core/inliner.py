"""numba's inliner without its defensive copies: the first run compiles in about 40% less time.

The core marks its small rules ``inline="always"`` so that the hot loops pay no call per rule.
numba inlines such a function by compiling its source to IR afresh at the call site
(``InlineWorker.inline_function`` runs the untyped passes) and handing that IR to
``InlineWorker.inline_ir``, which deep-copies it twice before splicing it in: block by block, each
block with a copy memo of its own, so every block copies the function's whole variable scope
again. The copies guard an IR that a caller still holds; the IR ``inline_function`` has just
built is held by nobody and dropped afterwards, so copying it is wasted work, and it grows with
the square of an inlined function's size (numba's own tracker measures the same). On this core
the copies were 60% of a cold compile's profile (``docs/benchmarks.md``, "The first run").

``install`` makes ``inline_function`` hand its fresh IR to ``inline_ir`` uncopied; every other
caller of ``inline_ir`` (numba's overload inliner, which passes IR it keeps) still gets the
copies. The same IR is spliced in either way, so the machine code is the same (the golden games
replay: ``tests/test_golden.py``). It patches only a numba whose two methods read as the ones
it was written against (checked on their source); on any other it does nothing, and numba
compiles as it always has, only slower.
"""

from __future__ import annotations

import copy
import inspect
import threading
from typing import Any

#: what ``inline_function`` and ``inline_ir`` must contain for ``install`` to patch them
_EXPECTED = {
    "inline_function": ("self.run_untyped_passes(function)", "return self.inline_ir("),
    "inline_ir": ("copy.deepcopy(the_ir.blocks[block_label])",),
}

_fresh = threading.local()


class _CopyUnlessFresh:
    """The ``copy`` module as ``numba.core.inline_closurecall`` sees it: ``deepcopy`` returns its
    argument while ``inline_function`` splices in an IR it has just built."""

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)

    @staticmethod
    def deepcopy(value: Any, memo: Any = None) -> Any:
        if getattr(_fresh, "ir", False):
            return value
        return copy.deepcopy(value, memo)


def _matches(worker: type) -> bool:
    """Whether numba's ``InlineWorker`` is the one this patch was written against."""
    for name, needles in _EXPECTED.items():
        try:
            source = inspect.getsource(getattr(worker, name))
        except (AttributeError, OSError, TypeError):
            return False
        if not all(needle in source for needle in needles):
            return False
    return True


def install() -> bool:
    """Patch numba's inliner (once); True when it is patched, False where this numba differs."""
    try:
        from numba.core import inline_closurecall
    except ImportError:
        return False
    worker = inline_closurecall.InlineWorker
    if getattr(worker, "_raspis_uncopied", False):
        return True
    if not _matches(worker):
        return False
    original = worker.inline_function

    def inline_function(self: Any, caller_ir: Any, block: Any, i: int, function: Any,
                        arg_typs: Any = None) -> Any:
        callee_ir = self.run_untyped_passes(function)
        _fresh.ir = True
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                                  arg_typs=arg_typs)
        finally:
            _fresh.ir = False

    inline_function.__doc__ = original.__doc__
    inline_closurecall.copy = _CopyUnlessFresh()
    worker.inline_function = inline_function
    worker._raspis_uncopied = True
    return True


INSTALLED = install()
