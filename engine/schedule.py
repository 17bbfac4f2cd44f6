"""The deal schedule: which hand sizes and deal kinds a game plays, in order.

A variant lists its schedule as short strings, one per block ("пулька"), that expand for a given
player count::

    "1..max-1"          one deal each of 1, 2, ... up to one less than the maximum hand
    "max*players"       the maximum hand, dealt once per player
    "max-1..1"          counting down
    "9*4 named"         four nine-card deals of the kind "named"
    "6*players dark"    a round of dark (blind) deals

``max`` is the largest hand the deck allows (``deck // players``, optionally capped by the variant's
``max_hand``); ``players`` is the player count. A block's optional last word names a deal kind
defined in the variant's ``[kinds]`` table (``normal`` when absent). Blocks matter for scoring: the
Georgian Joker premium is earned per block (pulka).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TERM = r"(?:\d+|max(?:\s*-\s*\d+)?|players)"
_ENTRY = re.compile(
    rf"^\s*(?P<start>{_TERM})\s*(?:\.\.\s*(?P<stop>{_TERM}))?\s*(?:\*\s*(?P<times>{_TERM}))?"
    r"\s*(?P<kind>[a-z_][a-z0-9_-]*)?\s*$"
)

ENTRY_HELP = (
    "a block is 'A', 'A..B', 'A*N' or 'A..B*N', optionally followed by a deal kind, where A and B "
    "are a number, 'max' or 'max-K' and N is a number or 'players' (e.g. '1..max-1', "
    "'max*players', '9*4 named', '6*players dark')"
)


@dataclass(frozen=True, slots=True)
class DealSpec:
    """One deal of the schedule: its 0-based number, hand size, kind and block."""

    number: int
    hand_size: int
    kind: str
    block: int


def parse_entry(text: str) -> tuple[str, str | None, str | None, str]:
    """Split a schedule entry into (start, stop, times, kind); ``ValueError`` if malformed."""
    match = _ENTRY.match(text)
    if not match:
        raise ValueError(f"cannot read schedule block {text!r}: {ENTRY_HELP}")
    return (match["start"], match["stop"], match["times"], match["kind"] or "normal")


def _value(term: str, max_hand: int, players: int) -> int:
    term = term.replace(" ", "")
    if term == "players":
        return players
    if term.startswith("max"):
        return max_hand - int(term[4:] or 0) if "-" in term else max_hand
    return int(term)


def expand(entries: list[str], max_hand: int, players: int) -> list[DealSpec]:
    """Expand schedule entries for ``players`` players and a maximum hand of ``max_hand``."""
    deals: list[DealSpec] = []
    for block, entry in enumerate(entries):
        start_term, stop_term, times_term, kind = parse_entry(entry)
        start = _value(start_term, max_hand, players)
        stop = _value(stop_term, max_hand, players) if stop_term else start
        times = _value(times_term, max_hand, players) if times_term else 1
        step = 1 if stop >= start else -1
        for hand_size in range(start, stop + step, step):
            if hand_size < 1:  # e.g. "1..max-1" when max is 1: no deal, not a deal of 0 cards
                continue
            for _ in range(times):
                deals.append(DealSpec(len(deals), hand_size, kind, block))
    return deals
