"""The score sheet ("расписка"): a row per deal, bid and points per player, running totals.

This is how the game is written down at the table (000 shows one for four players and 36 cards):
the deal's hand size and kind, the trump, and for each player the bid and the running total. A
made bid is marked with a dot, the dealer with an asterisk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import SUIT_SYMBOLS, card_str

if TYPE_CHECKING:
    from .game import Game

_KIND_MARKS = {"normal": ""}
COLUMN = 18


def _trump_text(suit: int, card: int | None) -> str:
    shown = SUIT_SYMBOLS[suit] if suit >= 0 else "-"
    return f"{shown} {card_str(card)}" if card is not None else shown


def render_sheet(game: Game, names: Sequence[str] | None = None) -> str:
    """The score sheet of ``game`` as text."""
    players = game.players
    names = list(names) if names is not None else [f"seat {seat}" for seat in range(players)]
    header = f"{'#':>3} {'cards':>5} {'kind':<9} {'trump':<6}|" + "|".join(
        f"{name[:COLUMN - 2]:^{COLUMN}}" for name in names
    )
    sub = f"{'':>3} {'':>5} {'':<9} {'':<6}|" + "|".join(
        f"{'bid tk':<7}{'pts':>5}{'total':>6}" for _ in names
    )
    variant = game.variant
    lines = [f"{variant.name} ({variant.content_hash}), {players} players, seed {game.seed}",
             header, sub, "-" * len(header)]
    for result in game.results:
        cells = []
        for seat in range(players):
            bid = result.bids[seat]
            taken = result.taken[seat]
            dealer = "*" if seat == result.dealer else " "
            made = "." if bid is not None and bid == taken else " "
            bid_text = "-" if bid is None else str(bid)
            points = result.points[seat] + result.premiums[seat]
            total = result.totals[seat]
            cells.append(f"{dealer}{bid_text:>2}{made}{taken:>2} {points:>+5}{total:>6}")
        kind = _KIND_MARKS.get(result.kind, result.kind)
        lines.append(
            f"{result.number + 1:>3} {result.hand_size:>5} {kind:<9} "
            f"{_trump_text(result.trump, result.trump_card):<6}|" + "|".join(
                f"{cell:<{COLUMN}}" for cell in cells)
        )
    lines.append("-" * len(header))
    lines.append(f"{'total':<25}|" + "|".join(f"{score:>{COLUMN - 1}} " for score in game.scores))
    if game.is_over():
        places = game.places()
        lines.append(f"{'place':<25}|" + "|".join(f"{place:>{COLUMN - 1}} " for place in places))
    return "\n".join(lines)
