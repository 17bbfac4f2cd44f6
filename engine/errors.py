"""The errors the engine raises for a user's mistake; the CLI prints them without a traceback."""

from __future__ import annotations


class RaspisError(Exception):
    """Base of every error caused by input: a variant file, an action, an option."""


class VariantError(RaspisError):
    """A variant cannot be loaded or played: names the file, the key, the value, what is allowed."""


class IllegalActionError(RaspisError):
    """An action that is not legal in the current state; the message lists the legal ones."""
