"""The check both integrity test files make of a record a strategy is shown (an action, a trick):
no field can be written, deleted or added, by any route Python offers short of the class."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest


def assert_locked(record: Any, fields: Iterable[str], garbage: Callable[[Any, str], Any],
                  values: Callable[[Any], Any]) -> None:
    """Every way to write, delete or add a field of ``record`` raises AttributeError and leaves
    it as it was (``values(record)`` before and after)."""
    before = (type(record), repr(record), values(record))
    for field in fields:
        with pytest.raises(AttributeError):
            object.__setattr__(record, field, garbage(record, field))
        with pytest.raises(AttributeError):
            setattr(record, field, garbage(record, field))
        with pytest.raises(AttributeError):
            object.__delattr__(record, field)
        with pytest.raises(AttributeError):
            delattr(record, field)
    with pytest.raises(AttributeError):
        object.__setattr__(record, "extra", 1)
    with pytest.raises(AttributeError):
        record.extra = 1
    assert not hasattr(record, "__dict__")
    assert (type(record), repr(record), values(record)) == before
