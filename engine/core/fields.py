"""The state and the plan read and written by field name, for compiled code outside the core.

``engine.core.machine`` declares where each field of a game's state and of a variant's plan sits:
the state's scalars (``S_*``), the plan's options (``P_*``), where each per-seat block of the state
starts (``O_*``, kept in the plan: ``machine.layout``), the deal table's columns (``D_*``), a
finished trick's entries (``H_*``) and a result row's (``R_*``). Compiled code outside
``engine/core/`` (the batch engine's loops, the compiled policies, the playouts) reads those
fields through the accessors here, and ``engine.core.view`` is their Python face
(``StateView``, ``DealRow``, ``PlanView``); no module outside the core names an offset.

One accessor per field that code reads, named after the field (a scalar as ``view.StateView``
names it):

- a scalar ``S_NAME`` of the state is ``name(state)`` (``S_TO_MOVE``: ``to_move(state)``;
  ``S_LED``, ``S_TRICK_LEN``, ``S_ORDER_LEN``: ``led_suit``, ``trick_length``, ``order_length``;
  the legal masks ``S_LEGAL_A``/``S_LEGAL_B``: ``legal_first``/``legal_second``); ``set_trump``
  writes the trump's three;
- an option ``P_NAME`` of the plan is ``plan_name(plan)``;
- an entry of a per-seat block ``O_NAME`` is ``name(state, plan, seat)`` in the singular
  (``O_BIDS``: ``bid``; ``O_ORDER``: ``seat_at(state, plan, position)``; the trick's
  ``O_TSEAT``: ``trick_seat``; the premium span's ``O_MADE``/``O_BEST``: ``span_made``/
  ``span_best``), a write ``set_name`` (``O_FIRST``: ``set_first_cards``); a finished trick's
  ``H_WINNER`` is ``finished_winner``; ``step_span`` and ``successors_at`` say which entries a
  step reads, for the batch engine's prefetch;
- a column ``D_NAME`` of the deal table is ``deal_name(plan, row)`` (``D_HAND``:
  ``deal_hand_size``), and the score table that ``D_POINTS_AT``/``D_POINTS_WIDTH`` locate is
  ``deal_points``/``points_row``;
- an entry ``R_NAME`` of result row ``index`` is ``result_name(state, plan, index)``, with a
  ``seat`` for the per-seat blocks, in the singular (``R_BIDS``: ``result_bid``;
  ``R_JOKER_52``/``R_JOKER_53``: ``result_joker_holder``).

``tests/test_accessors.py`` checks each accessor against the slot its field names, on a real
game, and that no source outside ``engine/core/`` names an offset. Each accessor is
``compiling.jit(inline="always")`` and a line or two: inlined, it compiles to the loads (or
stores) the caller wrote by hand before, the index made unsigned by ``rules.ix`` (no test for
a negative index); the compiled loops came out with the same instruction and load counts. Each
inlined call costs the first run's compile a few milliseconds (numba inlines it afresh at every
call site). A Python caller may use an accessor's ``py_func``.
"""

from __future__ import annotations

import numpy as np

from ..cards import JOKER
from .compiling import jit
from .machine import (
    D_BIDDING,
    D_BLOCK,
    D_HAND,
    D_HAND_HIDDEN,
    D_KIND,
    D_OPENS,
    D_POINTS_WIDTH,
    D_SPECIAL,
    D_TRUMP_RULE,
    H_BLOCKS,
    H_CARDS,
    H_WINNER,
    O_BEST,
    O_BIDS,
    O_FIRST,
    O_HANDS,
    O_HIST,
    O_MADE,
    O_NEXT,
    O_ORDER,
    O_RES,
    O_SCORES,
    O_TAKEN,
    O_TSEAT,
    O_TSUIT,
    P_LEAD_FINE,
    P_MAX_TRICKS,
    P_MUST_TRUMP,
    P_NAMEABLE,
    P_PLAYERS,
    P_PREMIUM_MODE,
    P_PREMIUM_POINTS,
    P_TWO_JOKERS,
    R_BIDS,
    R_BLOCKS,
    R_DEALER,
    R_HOOK_FORCED,
    R_JOKER_52,
    R_JOKER_53,
    R_PARTICIPANTS,
    R_POINTS,
    R_PREMIUMS,
    R_ROW,
    R_SEATS,
    R_TAKEN,
    R_TOTALS,
    R_TRUMP,
    S_CIRCULAR,
    S_DEAL_INDEX,
    S_DEALER,
    S_FIRST_DEALER,
    S_HOW,
    S_LED,
    S_LEGAL_A,
    S_LEGAL_B,
    S_ORDER_LEN,
    S_PHASE,
    S_RESULTS,
    S_ROW,
    S_TO_MOVE,
    S_TRICK_LEN,
    S_TRICK_TRUMP,
    S_TRICKS_DONE,
    S_TRUMP,
    S_TRUMP_CARD,
    deal_value,
    points_at,
)
from .rules import ix

# -- the state's scalars (``S_*``) -----------------------------------------------------------------


@jit(inline="always")
def phase(state: np.ndarray) -> int:
    """The phase (``machine.PH_*``)."""
    return state[S_PHASE]


@jit(inline="always")
def deal_index(state: np.ndarray) -> int:
    """The deals finished before the current one."""
    return state[S_DEAL_INDEX]


@jit(inline="always")
def row(state: np.ndarray) -> int:
    """The current deal's row in the deal table."""
    return state[S_ROW]


@jit(inline="always")
def dealer(state: np.ndarray) -> int:
    """The current deal's dealer."""
    return state[S_DEALER]


@jit(inline="always")
def first_dealer(state: np.ndarray) -> int:
    """The game's first dealer (the lot)."""
    return state[S_FIRST_DEALER]


@jit(inline="always")
def to_move(state: np.ndarray) -> int:
    """The seat to move (-1 once the game is over)."""
    return state[S_TO_MOVE]


@jit(inline="always")
def trump(state: np.ndarray) -> int:
    """The deal's trump suit (-1: none), whether or not the seat to move sees it."""
    return state[S_TRUMP]


@jit(inline="always")
def trump_card(state: np.ndarray) -> int:
    """The card that showed the trump (-1: none)."""
    return state[S_TRUMP_CARD]


@jit(inline="always")
def how(state: np.ndarray) -> int:
    """How the trump was chosen (``deal.HOW_*``, ``machine.HOW_*``)."""
    return state[S_HOW]


@jit(inline="always")
def led_suit(state: np.ndarray) -> int:
    """The suit led in the trick under way (-1: none yet)."""
    return state[S_LED]


@jit(inline="always")
def trick_trump(state: np.ndarray) -> int:
    """The trick's trump (circular trumps change it trick by trick)."""
    return state[S_TRICK_TRUMP]


@jit(inline="always")
def trick_length(state: np.ndarray) -> int:
    """The cards in the trick under way."""
    return state[S_TRICK_LEN]


@jit(inline="always")
def tricks_done(state: np.ndarray) -> int:
    """The finished tricks of the deal."""
    return state[S_TRICKS_DONE]


@jit(inline="always")
def order_length(state: np.ndarray) -> int:
    """The seats taking part in the deal."""
    return state[S_ORDER_LEN]


@jit(inline="always")
def results(state: np.ndarray) -> int:
    """The deals scored (result rows written)."""
    return state[S_RESULTS]


@jit(inline="always")
def legal_first(state: np.ndarray) -> int:
    """The legal actions' first mask (``machine.step``'s A: bids, cards, no-trump naming)."""
    return state[S_LEGAL_A]


@jit(inline="always")
def legal_second(state: np.ndarray) -> int:
    """The legal actions' second mask (``machine.step``'s B: a Joker's calls)."""
    return state[S_LEGAL_B]


@jit(inline="always")
def circular(state: np.ndarray) -> int:
    """Whether each trick's trump follows its led suit (nonzero: yes)."""
    return state[S_CIRCULAR]


@jit(inline="always")
def set_trump(state: np.ndarray, suit: int, card: int) -> None:
    """Set the deal's trump ``suit``, the card that showed it, and the trick's trump to ``suit``."""
    state[S_TRUMP] = suit
    state[S_TRUMP_CARD] = card
    state[S_TRICK_TRUMP] = suit


# -- the plan's options (``P_*``) ------------------------------------------------------------------


@jit(inline="always")
def plan_players(plan: np.ndarray) -> int:
    """The seats at the table."""
    return plan[P_PLAYERS]


@jit(inline="always")
def plan_max_tricks(plan: np.ndarray) -> int:
    """The most tricks a deal of the plan plays."""
    return plan[P_MAX_TRICKS]


@jit(inline="always")
def plan_must_trump(plan: np.ndarray) -> int:
    """Whether a seat out of the led suit must trump (nonzero: yes)."""
    return plan[P_MUST_TRUMP]


@jit(inline="always")
def plan_two_jokers(plan: np.ndarray) -> int:
    """Which of two Jokers in a trick takes it (``rules.TWO_JOKERS_*``)."""
    return plan[P_TWO_JOKERS]


@jit(inline="always")
def plan_lead_fine(plan: np.ndarray) -> int:
    """The fine for leading a Joker (0: none)."""
    return plan[P_LEAD_FINE]


@jit(inline="always")
def plan_nameable(plan: np.ndarray) -> int:
    """The cards a Joker may be declared as (a mask)."""
    return plan[P_NAMEABLE]


@jit(inline="always")
def plan_premium_mode(plan: np.ndarray) -> int:
    """The premium rule (``scoring.PREMIUM_*``)."""
    return plan[P_PREMIUM_MODE]


@jit(inline="always")
def plan_premium_points(plan: np.ndarray) -> int:
    """The premium's points (``scoring.premium``)."""
    return plan[P_PREMIUM_POINTS]


# -- the state's per-seat blocks (``O_*``) ---------------------------------------------------------


@jit(inline="always")
def hand(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """``seat``'s cards (a mask)."""
    return state[ix(plan[O_HANDS] + seat)]


@jit(inline="always")
def set_hand(state: np.ndarray, plan: np.ndarray, seat: int, mask: int) -> None:
    """Set ``seat``'s cards to ``mask``."""
    state[ix(plan[O_HANDS] + seat)] = mask


@jit(inline="always")
def set_first_cards(state: np.ndarray, plan: np.ndarray, seat: int, mask: int) -> None:
    """Set ``seat``'s cards of the deal's first rounds (002: what it names trump after)."""
    state[ix(plan[O_FIRST] + seat)] = mask


@jit(inline="always")
def bid(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """``seat``'s bid in the deal (-1: none yet)."""
    return state[ix(plan[O_BIDS] + seat)]


@jit(inline="always")
def taken(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """The tricks ``seat`` has taken in the deal."""
    return state[ix(plan[O_TAKEN] + seat)]


@jit(inline="always")
def score(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """``seat``'s running total."""
    return state[ix(plan[O_SCORES] + seat)]


@jit(inline="always")
def seat_at(state: np.ndarray, plan: np.ndarray, position: int) -> int:
    """The seat at ``position`` of the deal's order (from the dealer's left)."""
    return state[ix(plan[O_ORDER] + position)]


@jit(inline="always")
def bids_row(state: np.ndarray, plan: np.ndarray) -> np.ndarray:
    """Every seat's bid in the deal (-1: none yet), by seat: a view of the state's block."""
    at = plan[O_BIDS]
    return state[at:at + plan[P_PLAYERS]]


@jit(inline="always")
def taken_row(state: np.ndarray, plan: np.ndarray) -> np.ndarray:
    """The tricks every seat has taken in the deal, by seat: a view of the state's block."""
    at = plan[O_TAKEN]
    return state[at:at + plan[P_PLAYERS]]


@jit(inline="always")
def order_row(state: np.ndarray, plan: np.ndarray) -> np.ndarray:
    """The seats taking part in the deal, from the dealer's left: a view of the state's block."""
    at = plan[O_ORDER]
    return state[at:at + state[S_ORDER_LEN]]


@jit(inline="always")
def trick_seat(state: np.ndarray, plan: np.ndarray, index: int) -> int:
    """The seat that played card ``index`` of the trick under way."""
    return state[ix(plan[O_TSEAT] + index)]


@jit(inline="always")
def span_made(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """Whether ``seat`` has made every bid of the premium span so far (nonzero: yes)."""
    return state[ix(plan[O_MADE] + seat)]


@jit(inline="always")
def span_best(state: np.ndarray, plan: np.ndarray, seat: int) -> int:
    """``seat``'s best deal points of the premium span so far."""
    return state[ix(plan[O_BEST] + seat)]


@jit(inline="always")
def finished_winner(state: np.ndarray, plan: np.ndarray, trick: int) -> int:
    """The seat that took finished trick ``trick`` of the deal."""
    return state[ix(plan[O_HIST] + trick * (H_CARDS + H_BLOCKS * plan[P_PLAYERS])
                           + H_WINNER)]


@jit(inline="always")
def step_span(plan: np.ndarray) -> int:
    """The state's entries from its start to the trick under way's last block: what a step
    reads most (``engine.batch.kernels.prefetch_row``)."""
    return plan[O_TSUIT] + plan[P_PLAYERS]


@jit(inline="always")
def successors_at(plan: np.ndarray) -> int:
    """Where the block of each seat's successor in the deal's order (``machine.next_seat``)
    starts in the state."""
    return plan[O_NEXT]


# -- the deal table's columns (``D_*``) and score tables -----------------------------------------


@jit(inline="always")
def deal_hand_size(plan: np.ndarray, row: int) -> int:
    """The cards dealt to each seat in deal ``row``."""
    return deal_value(plan, row, D_HAND)


@jit(inline="always")
def deal_kind(plan: np.ndarray, row: int) -> int:
    """Deal ``row``'s kind (its index in ``RulePlan.kind_names``)."""
    return deal_value(plan, row, D_KIND)


@jit(inline="always")
def deal_block(plan: np.ndarray, row: int) -> int:
    """Deal ``row``'s premium block (-1: none)."""
    return deal_value(plan, row, D_BLOCK)


@jit(inline="always")
def deal_trump_rule(plan: np.ndarray, row: int) -> int:
    """How deal ``row`` chooses its trump (``codes.TRUMP_*``)."""
    return deal_value(plan, row, D_TRUMP_RULE)


@jit(inline="always")
def deal_opens(plan: np.ndarray, row: int) -> int:
    """Whether deal ``row`` opens a premium span (nonzero: yes)."""
    return deal_value(plan, row, D_OPENS)


@jit(inline="always")
def deal_bidding(plan: np.ndarray, row: int) -> int:
    """Whether deal ``row`` has bidding (0: none, a golden deal, say)."""
    return deal_value(plan, row, D_BIDDING)


@jit(inline="always")
def deal_special(plan: np.ndarray, row: int) -> int:
    """Whether deal ``row`` is of a special kind (nonzero: yes)."""
    return deal_value(plan, row, D_SPECIAL)


@jit(inline="always")
def deal_hand_hidden(plan: np.ndarray, row: int) -> int:
    """Whether bidding deal ``row`` hides the seat's own hand (a dark deal; nonzero: yes)."""
    return deal_value(plan, row, D_HAND_HIDDEN)


@jit(inline="always")
def deal_points(plan: np.ndarray, row: int, bid: int, taken: int) -> int:
    """The points of deal ``row`` for bidding ``bid`` (-1: no bid) and taking ``taken`` tricks
    (its score table in the plan)."""
    return plan[ix(points_at(plan, row, bid) + taken)]


@jit(inline="always")
def points_row(plan: np.ndarray, row: int, bid: int) -> np.ndarray:
    """The points of deal ``row`` for bidding ``bid`` (-1: no bid), by tricks taken: a view of its
    score table's row in the plan."""
    at = points_at(plan, row, bid)
    return plan[at:at + deal_value(plan, row, D_POINTS_WIDTH)]


# -- result rows (``R_*``): one per deal scored ----------------------------------------------------


@jit(inline="always")
def _result_entry(state: np.ndarray, plan: np.ndarray, index: int, entry: int) -> int:
    """Entry ``entry`` (``R_*``; a per-seat entry as ``R_SEATS + block * players + seat``) of
    result row ``index``, rows ``machine.result_width`` apart."""
    return state[ix(plan[O_RES] + index * (R_SEATS + R_BLOCKS * plan[P_PLAYERS]) + entry)]


@jit(inline="always")
def result_row(state: np.ndarray, plan: np.ndarray, index: int) -> int:
    """The deal-table row of the deal of result row ``index``."""
    return _result_entry(state, plan, index, R_ROW)


@jit(inline="always")
def result_dealer(state: np.ndarray, plan: np.ndarray, index: int) -> int:
    """The dealer of the deal of result row ``index``."""
    return _result_entry(state, plan, index, R_DEALER)


@jit(inline="always")
def result_trump(state: np.ndarray, plan: np.ndarray, index: int) -> int:
    """The trump suit of the deal of result row ``index`` (-1: none)."""
    return _result_entry(state, plan, index, R_TRUMP)


@jit(inline="always")
def result_hook_forced(state: np.ndarray, plan: np.ndarray, index: int) -> int:
    """Whether the hook forced a bid in the deal of result row ``index`` (nonzero: yes)."""
    return _result_entry(state, plan, index, R_HOOK_FORCED)


@jit(inline="always")
def result_joker_holder(state: np.ndarray, plan: np.ndarray, index: int, joker: int) -> int:
    """The seat dealt Joker ``joker`` (``cards.JOKER`` or ``JOKER2``) in the deal of result row
    ``index`` (-1: nobody)."""
    return _result_entry(state, plan, index, R_JOKER_52 if joker == JOKER else R_JOKER_53)


@jit(inline="always")
def result_participants(state: np.ndarray, plan: np.ndarray, index: int) -> int:
    """The seats that played the deal of result row ``index`` (a mask)."""
    return _result_entry(state, plan, index, R_PARTICIPANTS)


@jit(inline="always")
def result_bid(state: np.ndarray, plan: np.ndarray, index: int, seat: int) -> int:
    """``seat``'s bid in the deal of result row ``index`` (-1: none)."""
    return _result_entry(state, plan, index, R_SEATS + R_BIDS * plan[P_PLAYERS] + seat)


@jit(inline="always")
def result_taken(state: np.ndarray, plan: np.ndarray, index: int, seat: int) -> int:
    """The tricks ``seat`` took in the deal of result row ``index``."""
    return _result_entry(state, plan, index, R_SEATS + R_TAKEN * plan[P_PLAYERS] + seat)


@jit(inline="always")
def result_points(state: np.ndarray, plan: np.ndarray, index: int, seat: int) -> int:
    """``seat``'s points (fines included) of the deal of result row ``index``."""
    return _result_entry(state, plan, index, R_SEATS + R_POINTS * plan[P_PLAYERS] + seat)


@jit(inline="always")
def result_premium(state: np.ndarray, plan: np.ndarray, index: int, seat: int) -> int:
    """``seat``'s premium of the deal of result row ``index``."""
    return _result_entry(state, plan, index, R_SEATS + R_PREMIUMS * plan[P_PLAYERS] + seat)


@jit(inline="always")
def result_total(state: np.ndarray, plan: np.ndarray, index: int, seat: int) -> int:
    """``seat``'s running total after the deal of result row ``index``."""
    return _result_entry(state, plan, index, R_SEATS + R_TOTALS * plan[P_PLAYERS] + seat)
