"""The small integer codes of the rules core: Joker calls, call options, hooks, trump rules.

A play is ``(card, call, suit)``: ``call`` is ``CALL_NONE`` for an ordinary card and one of the
Joker calls below for a Joker (``engine.actions`` names them ``high``, ``low``, ``highest``,
``lowest``, ``trumps``, ``highest_card``, ``lowest_card``, ``lowest_trump``, ``one_trump`` and, for
a named rank, ``twos`` .. ``aces``, and ``card`` for a Joker declared as a named card); ``suit`` is
the suit a call names, -1 for none. A named-rank demand is one call per rank (``CALL_RANK + rank
- 2``), so ``suit`` always means a suit. The legal calls of a Joker are a bitmask over the 37
``OPTIONS`` (call, suit) pairs; the last, ``CARD_OPTION``, stands for every card the Joker may be
declared as (``engine.core.rules.nameable_cards``): such a play names the card's suit and rank, and
the state holds its call as ``named_call(card)``: ``CALL_CARD | card << NAMED_SHIFT``. Everything
here is plain data, shared by the compiled functions of ``engine.core.rules``, the single-game
``engine.Game`` and the batch engine.
"""

from __future__ import annotations

import numpy as np

from .compiling import jit

(CALL_NONE, CALL_HIGH, CALL_LOW, CALL_HIGHEST, CALL_LOWEST, CALL_TRUMPS, CALL_HIGHEST_CARD,
 CALL_LOWEST_CARD, CALL_LOWEST_TRUMP, CALL_ONE_TRUMP, CALL_RANK) = range(11)
#: The names of the named-rank calls, rank 2 (``CALL_RANK``) to the ace (``CALL_RANK + 12``).
RANK_CALL_NAMES: tuple[str, ...] = ("twos", "threes", "fours", "fives", "sixes", "sevens",
                                    "eights", "nines", "tens", "jacks", "queens", "kings", "aces")
#: Every call code: the named-rank calls, then ``CALL_CARD``, end it.
CALL_COUNT = CALL_RANK + len(RANK_CALL_NAMES)
#: The Joker declared as a named card (000 fifth article: «джокер может быть выдан за любую карту:
#: любого ранга и масти»; 002: «выдав джокера за любую карту любой масти»): ``joker.as_card``.
CALL_CARD = CALL_COUNT
CALL_COUNT += 1
#: The call a Joker declared as ``card`` holds in a trick: ``CALL_CARD | card << NAMED_SHIFT``
#: (every other call is below ``CALL_CARD``, so ``call >= CALL_CARD`` means a named card).
NAMED_SHIFT = 5
CALL_NAMES: tuple[str | None, ...] = (None, "high", "low", "highest", "lowest", "trumps",
                                      "highest_card", "lowest_card", "lowest_trump",
                                      "one_trump", *RANK_CALL_NAMES, "card")
#: Call codes by the names of ``engine.actions`` (and back).
CALL_CODES: dict[str | None, int] = {name: code for code, name in enumerate(CALL_NAMES)}

#: The (call, suit) pairs a Joker may be played with; bit ``i`` of a legal-calls mask is OPTIONS[i].
OPTIONS: tuple[tuple[int, int], ...] = (
    (CALL_HIGH, -1), (CALL_LOW, -1),
    *((CALL_HIGH, suit) for suit in range(4)),
    *((CALL_LOW, suit) for suit in range(4)),
    *((CALL_HIGHEST, suit) for suit in range(4)),
    *((CALL_LOWEST, suit) for suit in range(4)),
    (CALL_TRUMPS, -1),
    (CALL_HIGHEST_CARD, -1), (CALL_LOWEST_CARD, -1), (CALL_LOWEST_TRUMP, -1),
    (CALL_ONE_TRUMP, -1),
    *((CALL_RANK + rank, -1) for rank in range(len(RANK_CALL_NAMES))),
    (CALL_CARD, -1),
)
OPTION_COUNT = len(OPTIONS)
OPTION_CALL = np.array([call for call, _ in OPTIONS], dtype=np.int64)
OPTION_SUIT = np.array([suit for _, suit in OPTIONS], dtype=np.int64)
#: ``OPTION_INDEX[call, suit + 1]``: the option's bit, or -1 for a pair that is no option.
OPTION_INDEX = np.full((CALL_COUNT, 5), -1, dtype=np.int64)
for _index, (_call, _suit) in enumerate(OPTIONS):
    OPTION_INDEX[_call, _suit + 1] = _index


def _options_of(call: int, *suits: int) -> tuple[int, ...]:
    """The options (bits of a legal-calls mask) of ``call`` with each of ``suits``."""
    return tuple(int(OPTION_INDEX[call, suit + 1]) for suit in suits)


_SUITS = (0, 1, 2, 3)
HIGH_OPTION = 1 << int(OPTION_INDEX[CALL_HIGH, 0])
LOW_OPTION = 1 << int(OPTION_INDEX[CALL_LOW, 0])
TRUMPS_OPTION = 1 << int(OPTION_INDEX[CALL_TRUMPS, 0])
#: The first named-rank option (rank 2); rank ``r`` is option ``RANK_OPTION + r - 2``.
RANK_OPTION = int(OPTION_INDEX[CALL_RANK, 0])
#: The option of a Joker declared as a card (any of ``rules.nameable_cards``; ``joker.as_card``).
CARD_OPTION = int(OPTION_INDEX[CALL_CARD, 0])
#: The options of each ``joker.lead_calls`` name of ``engine.options`` ("named_rank": every rank,
#: of which ``RulePlan`` keeps those of the deck).
LEAD_OPTIONS: dict[str, tuple[int, ...]] = {
    "high": _options_of(CALL_HIGH, -1), "low": _options_of(CALL_LOW, -1),
    "high_suit": _options_of(CALL_HIGH, *_SUITS), "low_suit": _options_of(CALL_LOW, *_SUITS),
    "highest_suit": _options_of(CALL_HIGHEST, *_SUITS),
    "lowest_suit": _options_of(CALL_LOWEST, *_SUITS),
    "highest_trumps": _options_of(CALL_TRUMPS, -1),
    "highest_card": _options_of(CALL_HIGHEST_CARD, -1),
    "lowest_card": _options_of(CALL_LOWEST_CARD, -1),
    "lowest_trump": _options_of(CALL_LOWEST_TRUMP, -1),
    "one_trump": _options_of(CALL_ONE_TRUMP, -1),
    "named_rank": tuple(range(RANK_OPTION, RANK_OPTION + len(RANK_CALL_NAMES))),
}
#: Lead calls that are demands (barred by ``demands_first_trick_only`` / ``demands_until_deal``).
DEMAND_CALLS = ("highest_suit", "lowest_suit", "highest_trumps", "highest_card", "lowest_card",
                "lowest_trump", "one_trump", "named_rank")
#: Lead calls that need a trump in the deal ("по старшим козырям", «по младшему козырю», «по
#: одному козырю»).
TRUMP_CALLS = ("highest_trumps", "lowest_trump", "one_trump")
#: Options that lead the Joker to take the trick (high, high of a suit, highest, highest trumps,
#: and every demand of any suit: highest card, lowest card, lowest trump, one trump, a named rank).
WINNING_LEADS = tuple(sorted(option for name in ("high", "high_suit", "highest_suit",
                                                 "highest_trumps", "highest_card", "lowest_card",
                                                 "lowest_trump", "one_trump", "named_rank")
                             for option in LEAD_OPTIONS[name]))

@jit()
def named_call(card: int) -> int:
    """The call a Joker declared as ``card`` holds in a trick (compiled: the rules core's
    ``engine.core.rules`` and ``machine.step`` call it too)."""
    return CALL_CARD | card << NAMED_SHIFT


def call_value(call: str | None, suit: int, rank: int = 0) -> int:
    """The call code a play's ``call`` name holds in a trick: ``CALL_CODES[call]``, or for a Joker
    declared as a card (``call`` "card") the named card of ``suit`` and ``rank``."""
    if call == "card":
        return named_call(13 * suit + rank - 2)
    return CALL_CODES[call]


def call_parts(value: int) -> tuple[str | None, int, int]:
    """A trick's call code as a play's (call name, suit, rank): the named card's suit and rank for
    a Joker declared as a card, else (``CALL_NAMES[value]``, -1, 0) (the suit is stored apart)."""
    if value >= CALL_CARD:
        card = value >> NAMED_SHIFT
        return "card", card // 13, card % 13 + 2
    return CALL_NAMES[value], -1, 0

#: Hook rules of a deal.
HOOK_NONE, HOOK_NO_EQUAL, HOOK_OVERBID = range(3)
HOOK_NAMES = ("none", "no_equal", "overbid")

#: How a deal's trump is chosen, known before the cards are seen.
TRUMP_NONE, TRUMP_NAMED, TRUMP_FIXED, TRUMP_CIRCULAR, TRUMP_LAST_DEALT, TRUMP_TURNED = range(6)
