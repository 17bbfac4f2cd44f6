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

Limits, checked before anything is expanded: a hand holds 1 to 54 cards, ``max-K`` has K up to
54, ``*N`` repeats a block 1 to 1000 times, every block gives at least one deal at each player
count, and a game has at most ``MAX_DEALS`` = 1000 deals.
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

#: Most deals one game's schedule may expand to, at any player count (the presets play 13 to 44).
#: A schedule is counted before it is expanded, so an absurd one fails at once, not after minutes.
MAX_DEALS = 1000

#: Most cards any deck holds (52 + 2 Jokers): no hand, and no ``max-K`` offset, is larger.
MAX_CARDS = 54


@dataclass(frozen=True, slots=True)
class DealSpec:
    """One deal of the schedule: its 0-based number, hand size, kind and block."""

    number: int
    hand_size: int
    kind: str
    block: int


def parse_entry(text: str) -> tuple[str, str | None, str | None, str]:
    """Split a schedule entry into (start, stop, times, kind); ``ValueError`` if malformed."""
    match = _ENTRY.match(text) if isinstance(text, str) else None
    if not match:
        raise ValueError(f"cannot read schedule block {shown(text)}: {ENTRY_HELP}")
    return (match["start"], match["stop"], match["times"], match["kind"] or "normal")


def shown(text: object, limit: int = 40) -> str:
    """``repr(text)``, cut to about ``limit`` characters so that a message stays readable."""
    text = repr(text)
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-2:]}"


def _number(term: str, limit: int, what: str, entry: str) -> int:
    """The literal number in ``term`` (a count or an offset), refused above ``limit``."""
    digits = "".join(term.split()).removeprefix("max-").lstrip("0") or "0"
    if len(digits) > len(str(limit)) or int(digits) > limit:
        raise ValueError(f"schedule block {shown(entry)}: {what} {shown(digits)[1:-1]} is too "
                         f"large; it goes up to {limit}")
    return int(digits)


def check_entry(text: str) -> tuple[str, str | None, str | None, str]:
    """``parse_entry``, and refuse what no player count can deal: a hand of 0 cards or more than
    ``MAX_CARDS``, a block repeated 0 times or more than ``MAX_DEALS``; ``ValueError`` naming it."""
    start, stop, times, kind = parse_entry(text)
    for term in (start, stop):
        if term is None or term == "players":
            continue
        if term.startswith("max"):
            if "-" in term:
                _number(term, MAX_CARDS, "K in 'max-K'", text)
            continue
        if _number(term, MAX_CARDS, "the hand size", text) < 1:
            raise ValueError(f"schedule block {text!r}: a hand of 0 cards is not a deal; hand "
                             f"sizes go from 1 to {MAX_CARDS} (or 'max', 'max-K')")
    if times is not None and times.startswith("max") and "-" in times:
        _number(times, MAX_CARDS, "K in 'max-K'", text)
    elif times is not None and times[0].isdigit():
        if _number(times, MAX_DEALS, "the repeat count N in '*N'", text) < 1:
            raise ValueError(f"schedule block {text!r}: '*0' deals the block no times; N goes "
                             f"from 1 to {MAX_DEALS} (or 'players', 'max')")
    return start, stop, times, kind


def _value(term: str, max_hand: int, players: int) -> int:
    term = term.replace(" ", "")
    if term == "players":
        return players
    if term.startswith("max"):
        return max_hand - int(term[4:] or 0) if "-" in term else max_hand
    return int(term)


def _block(entry: str, max_hand: int, players: int) -> tuple[range, int, str, str]:
    """The hand sizes (1 or more cards only) of one block, its repeat count, its kind, and the
    hand sizes as written, evaluated (for messages)."""
    start_term, stop_term, times_term, kind = check_entry(entry)
    start = _value(start_term, max_hand, players)
    stop = _value(stop_term, max_hand, players) if stop_term else start
    times = _value(times_term, max_hand, players) if times_term else 1
    # Hand sizes below 1 are skipped (e.g. "1..max-1" when max is 1: no deal of 0 cards).
    sizes = range(max(start, 1), stop + 1) if stop >= start else range(start, max(stop, 1) - 1, -1)
    written = f"{start}..{stop}" if stop_term else str(start)
    return sizes, times, kind, written


def count_deals(entries: list[str], max_hand: int, players: int) -> int:
    """How many deals ``expand`` gives, counted without expanding; ``ValueError`` naming a block
    that gives no deal, or a schedule of more than ``MAX_DEALS`` deals."""
    total = 0
    for entry in entries:
        sizes, times, _, written = _block(entry, max_hand, players)
        if not sizes or times < 1:
            why = f"repeated {times} times" if sizes else f"hand size {written}, below 1 card"
            raise ValueError(
                f"schedule block {entry!r} gives no deal at {players} players (max = {max_hand}: "
                f"{why}); every block must give at least one deal of 1 card or more"
            )
        total += len(sizes) * times
        if total > MAX_DEALS:
            raise ValueError(
                f"schedule {shown(entries, 120)} gives more than {MAX_DEALS} deals at {players} "
                f"players (max = {max_hand}; block {shown(entry)} alone gives "
                f"{len(sizes) * times}); a game has at "
                f"most {MAX_DEALS} deals"
            )
    return total


def expand(entries: list[str], max_hand: int, players: int) -> list[DealSpec]:
    """Expand schedule entries for ``players`` players and a maximum hand of ``max_hand``.

    The deals are counted first (``count_deals``): a block that gives no deal, or more than
    ``MAX_DEALS`` deals in all, is a ``ValueError`` before anything is built.
    """
    count_deals(entries, max_hand, players)
    deals: list[DealSpec] = []
    for block, entry in enumerate(entries):
        sizes, times, kind, _ = _block(entry, max_hand, players)
        for hand_size in sizes:
            for _ in range(times):
                deals.append(DealSpec(len(deals), hand_size, kind, block))
    return deals
