"""The score sheet ("расписка"): a row per deal, bid and points per player, running totals.

This is how the game is written down at the table (000 shows one for four players and 36 cards):
the deal's hand size and kind, the trump, and for each player the bid and the running total. A
made bid is marked with a dot, the dealer with an asterisk.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import SUIT_SYMBOLS, card_str

if TYPE_CHECKING:
    from .game import DealResult, Game

_KIND_MARKS = {"normal": ""}
COLUMN = 18


def _trump_text(suit: int, card: int | None) -> str:
    shown = SUIT_SYMBOLS[suit] if suit >= 0 else "-"
    return f"{shown} {card_str(card)}" if card is not None else shown


def render_sheet(game: Game, names: Sequence[str] | None = None, width: int | None = None) -> str:
    """The score sheet of ``game`` as text.

    ``width``: fit lines of at most this many characters (``_fitted_sheet``); without it, the
    sheet as it has always been printed, every seat side by side, names cut to the column.
    """
    players = game.players
    names = list(names) if names is not None else [f"seat {seat}" for seat in range(players)]
    if width is not None:
        return _fitted_sheet(game, names, width)
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
            cells.append(_cell(result, seat))
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


def _fitted_sheet(game: Game, names: list[str], width: int) -> str:
    """The score sheet in lines of at most ``width`` characters where they can be: the label
    columns as wide as what they hold; the seats in as many parts as it takes, the labels
    repeated in each; a name too long for its column listed in full above the sheet and headed
    ``seat N`` in it. Nothing is cut."""
    results = game.results
    marks = [_KIND_MARKS.get(result.kind, result.kind) for result in results]
    trumps = [_trump_text(result.trump, result.trump_card) for result in results]
    number = max([1, *(len(str(result.number + 1)) for result in results)])
    kind = max([4, *map(len, marks)])
    trump = max([5, *map(len, trumps)])
    trump += 1  # a space before the first "|"
    label = number + 1 + 5 + 1 + kind + 1 + trump  # the columns left of the first "|"
    headings = [name if len(name) <= COLUMN - 2 else f"seat {seat}"
                for seat, name in enumerate(names)]
    variant = game.variant
    lines = [f"{variant.name} ({variant.content_hash}), {game.players} players, seed {game.seed}"]
    for seat, name in enumerate(names):
        if headings[seat] != name:
            lines += textwrap.wrap(f"seat {seat}: {name}", width, subsequent_indent="    ",
                                   break_on_hyphens=False)
    per_part = max(1, (width - label) // (COLUMN + 1))
    seats = list(range(game.players))
    for start in range(0, len(seats), per_part):
        part = seats[start:start + per_part]
        if start:
            lines.append("")
        header = f"{'#':>{number}} {'cards':>5} {'kind':<{kind}} {'trump':<{trump}}|" + "|".join(
            f"{headings[seat]:^{COLUMN}}" for seat in part)
        sub = f"{'':<{label}}|" + "|".join(f"{'bid tk':<7}{'pts':>5}{'total':>6}" for _ in part)
        rule = "-" * len(header)
        lines += [header.rstrip(), sub, rule]
        for result, mark, shown in zip(results, marks, trumps, strict=True):
            cells = []
            for seat in part:
                cells.append(_cell(result, seat))
            lines.append(f"{result.number + 1:>{number}} {result.hand_size:>5} {mark:<{kind}} "
                         f"{shown:<{trump}}|" + "|".join(f"{cell:<{COLUMN}}" for cell in cells))
        lines.append(rule)
        lines.append(f"{'total':<{label}}|"
                     + "|".join(f"{game.scores[seat]:>{COLUMN}}" for seat in part))
        if game.is_over():
            places = game.places()
            lines.append(f"{'place':<{label}}|"
                         + "|".join(f"{places[seat]:>{COLUMN}}" for seat in part))
    return "\n".join(line.rstrip() for line in lines)


def _cell(result: DealResult, seat: int) -> str:
    """A seat's cell of a deal's line: the dealer's star, the bid (a dot when made), tricks taken,
    the deal's points (premiums in) and the running total."""
    bid = result.bids[seat]
    taken = result.taken[seat]
    dealer = "*" if seat == result.dealer else " "
    made = "." if bid is not None and bid == taken else " "
    bid_text = "-" if bid is None else str(bid)
    points = result.points[seat] + result.premiums[seat]
    return f"{dealer}{bid_text:>2}{made}{taken:>2} {points:>+5}{result.totals[seat]:>6}"
