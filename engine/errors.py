"""The errors the engine raises for a user's mistake; the CLI prints them without a traceback."""

from __future__ import annotations


class RaspisError(Exception):
    """Base of every error caused by input: a variant file, an action, an option."""


class VariantError(RaspisError):
    """A variant cannot be loaded or played: names the file, the key, the value, what is allowed."""


class IllegalActionError(RaspisError):
    """An action that is not legal in the current state; the message lists the legal ones."""


#: the characters of a strategy's error message kept in the data and the summary
MESSAGE_LIMIT = 2000


def cut_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, its full length said (a strategy that raises with a
    50 MB message must not fill the terminal and the dataset with it)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... (cut: {len(text):,} characters in all)"


def exception_text(error: BaseException) -> str:
    """``Type: message`` of an exception from strategy code, cut (``cut_message``), never raising
    itself (a hostile ``__str__``)."""
    try:
        name = type(error).__name__
        text = str(error)
    except BaseException:  # noqa: BLE001 - a hostile __str__ or __name__
        return "an exception (its message cannot be shown)"
    return cut_message(f"{name}: {text}" if text else name)
