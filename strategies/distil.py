"""``strong``'s card model distilled from ``mc``'s card play: ``strategies.fitting.distil``.

This module is the way in that has always worked: its names come from there, and
``python -m raspis.strategies.distil --variant classic --games 30`` fits and ships a preset's card
model (``fitting.distil.main``).
"""

from __future__ import annotations

from .fitting.distil import CardSamples, agreement, fit_cards, label_cards, main, regret, save_cards

__all__ = ["CardSamples", "agreement", "fit_cards", "label_cards", "main", "regret", "save_cards"]


if __name__ == "__main__":
    raise SystemExit(main())
