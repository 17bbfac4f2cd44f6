"""The small integer codes of the rules core: Joker calls, call options, hooks, trump rules.

A play is ``(card, call, suit)``: ``call`` is ``CALL_NONE`` for an ordinary card and one of the
Joker calls below for a Joker (``engine.actions`` names them ``high``, ``low``, ``highest``,
``lowest``, ``trumps``); ``suit`` is the suit a call names, -1 for none. The legal calls of a Joker
are a bitmask over the 19 ``OPTIONS`` (call, suit) pairs. Everything here is plain data, shared by
the compiled functions of ``engine.core.rules``, the single-game ``engine.Game`` and the batch
engine.
"""

from __future__ import annotations

import numpy as np

CALL_NONE, CALL_HIGH, CALL_LOW, CALL_HIGHEST, CALL_LOWEST, CALL_TRUMPS = range(6)
#: Call codes by the names of ``engine.actions`` (and back).
CALL_CODES: dict[str | None, int] = {None: CALL_NONE, "high": CALL_HIGH, "low": CALL_LOW,
                                     "highest": CALL_HIGHEST, "lowest": CALL_LOWEST,
                                     "trumps": CALL_TRUMPS}
CALL_NAMES: tuple[str | None, ...] = (None, "high", "low", "highest", "lowest", "trumps")

#: The (call, suit) pairs a Joker may be played with; bit ``i`` of a legal-calls mask is OPTIONS[i].
OPTIONS: tuple[tuple[int, int], ...] = (
    (CALL_HIGH, -1), (CALL_LOW, -1),
    *((CALL_HIGH, suit) for suit in range(4)),
    *((CALL_LOW, suit) for suit in range(4)),
    *((CALL_HIGHEST, suit) for suit in range(4)),
    *((CALL_LOWEST, suit) for suit in range(4)),
    (CALL_TRUMPS, -1),
)
OPTION_CALL = np.array([call for call, _ in OPTIONS], dtype=np.int64)
OPTION_SUIT = np.array([suit for _, suit in OPTIONS], dtype=np.int64)
#: ``OPTION_INDEX[call, suit + 1]``: the option's bit, or -1 for a pair that is no option.
OPTION_INDEX = np.full((6, 5), -1, dtype=np.int64)
for _index, (_call, _suit) in enumerate(OPTIONS):
    OPTION_INDEX[_call, _suit + 1] = _index
HIGH_OPTION = 1 << 0
LOW_OPTION = 1 << 1
TRUMPS_OPTION = 1 << 18
#: The options of each ``joker.lead_calls`` name of ``engine.options``.
LEAD_OPTIONS: dict[str, tuple[int, ...]] = {
    "high": (0,), "low": (1,),
    "high_suit": (2, 3, 4, 5), "low_suit": (6, 7, 8, 9),
    "highest_suit": (10, 11, 12, 13), "lowest_suit": (14, 15, 16, 17),
    "highest_trumps": (18,),
}
#: Lead calls that are demands (barred by ``demands_first_trick_only`` / ``demands_until_deal``).
DEMAND_CALLS = ("highest_suit", "lowest_suit", "highest_trumps")
#: Options that lead the Joker to take the trick (high, high of a suit, highest, highest trumps).
WINNING_LEADS = (0, 2, 3, 4, 5, 10, 11, 12, 13, 18)

#: Hook rules of a deal.
HOOK_NONE, HOOK_NO_EQUAL, HOOK_OVERBID = range(3)
HOOK_NAMES = ("none", "no_equal", "overbid")

#: How a deal's trump is chosen, known before the cards are seen.
TRUMP_NONE, TRUMP_NAMED, TRUMP_FIXED, TRUMP_CIRCULAR, TRUMP_LAST_DEALT, TRUMP_TURNED = range(6)
