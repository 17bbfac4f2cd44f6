"""A game's state vector and its deal table read and written by field name, for Python code.

The compiled machine (``engine.core.machine``) keeps a game in one ``int64`` vector, its variant
in one plan vector, and declares where each field sits (the ``S_``, ``O_``, ``D_``, ``H_`` and
``R_`` offsets). Python code outside the core does not index those vectors itself: it reads and
writes them through a ``StateView`` (one game's state, or a copy of it an observation keeps) and a
``DealRow`` (one row of the deal table), whose attributes are named after the fields:

>>> from raspis.engine import Game
>>> from raspis.engine.core import machine
>>> game = Game("classic", 4, seed=7)
>>> view = StateView(game.state, game.tables)
>>> view.phase == machine.PH_BID, view.deal.hand_size, len(view.hands)
(True, 1, 4)

A scalar reads as a Python ``int`` (``view.dealer``); a field with one value per seat as a list
(``view.bids``, -1 where a seat has not bid); each can be assigned, which is how
``engine.deals`` sets up a position (``Game.from_observation``). Compiled code outside the core
reads the same fields through ``engine.core.fields``. Only this module, ``fields`` and the machine
know where a field sits; when the layout changes, these three change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import deal as chance
from . import machine as m

if TYPE_CHECKING:
    from .plan import MachineTables


class _Scalar:
    """One scalar of the state vector: read as an ``int``, assigned as given."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __get__(self, view: Any, owner: type | None = None) -> Any:
        if view is None:
            return self
        return int(view.state[self.index])

    def __set__(self, view: Any, value: int) -> None:
        view.state[self.index] = value


class _Seats:
    """One value per seat, from the state offset the plan keeps at ``offset``: read as a list,
    assigned from a sequence (of at most one value per seat)."""

    __slots__ = ("offset",)

    def __init__(self, offset: int) -> None:
        self.offset = offset

    def __get__(self, view: Any, owner: type | None = None) -> Any:
        if view is None:
            return self
        at = int(view.plan[self.offset])
        return view.state[at:at + view.players].tolist()

    def __set__(self, view: Any, values: Sequence[int]) -> None:
        at = int(view.plan[self.offset])
        view.state[at:at + len(values)] = values


class _Entry:
    """One entry of a vector of named entries (a ``DealRow``'s deal-table row, a ``PlanView``'s
    plan vector), read from the holder's ``values`` as an ``int``."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __get__(self, holder: Any, owner: type | None = None) -> Any:
        if holder is None:
            return self
        return int(holder.values[self.index])


class DealRow:
    """One deal of the machine's deal table (``plan.MachineTables.deals``), by column name."""

    __slots__ = ("values",)

    def __init__(self, values: np.ndarray) -> None:
        self.values = values

    number = _Entry(m.D_NUMBER)  #: the deal's number in the game (0-based)
    hand_size = _Entry(m.D_HAND)  #: cards dealt to each seat
    kind = _Entry(m.D_KIND)  #: the deal kind's index in ``RulePlan.kind_names``
    participants = _Entry(m.D_PARTICIPANTS)  #: seats dealt in (all, or a tie-break's tied)
    hook = _Entry(m.D_HOOK)  #: the hook rule (``codes.HOOK_*``)
    tricks = _Entry(m.D_TRICKS)  #: tricks the deal plays (``deal.deal_tricks``)
    shown = _Entry(m.D_SHOWN)  #: whether each seat shows the others cards (lobovaya as one card)
    others_shown = _Entry(m.D_OTHERS_SHOWN)  #: whether bidding sees the other hands (forehead)
    hand_hidden = _Entry(m.D_HAND_HIDDEN)  #: whether bidding hides the seat's own hand (dark)
    trump_hidden = _Entry(m.D_TRUMP_HIDDEN)  #: whether bidding hides the trump


class PlanView:
    """A variant's plan vector (``plan.MachineTables.plan``), its options by name."""

    __slots__ = ("values",)

    def __init__(self, plan: np.ndarray) -> None:
        self.values = plan

    players = _Entry(m.P_PLAYERS)  #: seats at the table
    max_tricks = _Entry(m.P_MAX_TRICKS)  #: the most tricks a deal of the plan plays
    must_trump = _Entry(m.P_MUST_TRUMP)  #: whether a seat out of the led suit must trump
    two_jokers = _Entry(m.P_TWO_JOKERS)  #: which of two Jokers takes a trick (``rules``)


class StateView:
    """One game's state (``state``, or a copy of it) and its variant's ``tables``, by name."""

    __slots__ = ("state", "tables", "plan", "players")

    def __init__(self, state: np.ndarray, tables: MachineTables) -> None:
        self.state = state
        self.tables = tables
        self.plan = tables.plan
        self.players = int(tables.plan[m.P_PLAYERS])

    # -- scalars ---------------------------------------------------------------------------------
    phase = _Scalar(m.S_PHASE)  #: ``machine.PH_*``
    deal_index = _Scalar(m.S_DEAL_INDEX)  #: deals finished before the current one
    row = _Scalar(m.S_ROW)  #: the current deal's row in the deal table
    dealer = _Scalar(m.S_DEALER)
    first_dealer = _Scalar(m.S_FIRST_DEALER)
    to_move = _Scalar(m.S_TO_MOVE)
    namer = _Scalar(m.S_NAMER)  #: the seat that names trump (-1: nobody)
    trump = _Scalar(m.S_TRUMP)  #: the deal's trump suit (-1: none)
    trump_card = _Scalar(m.S_TRUMP_CARD)  #: the card that showed it (-1: none)
    how = _Scalar(m.S_HOW)  #: how the trump was chosen (``deal.HOW_*``, ``machine.HOW_*``)
    named_by = _Scalar(m.S_NAMED_BY)
    led_suit = _Scalar(m.S_LED)  #: the suit led in the trick under way (-1: none)
    trick_trump = _Scalar(m.S_TRICK_TRUMP)  #: the trick's trump (circular trumps change it)
    played = _Scalar(m.S_PLAYED)  #: the cards played in the deal, a mask
    hook_forced = _Scalar(m.S_HOOK_FORCED)
    trick_length = _Scalar(m.S_TRICK_LEN)  #: cards in the trick under way
    tricks_done = _Scalar(m.S_TRICKS_DONE)  #: finished tricks of the deal
    stock_length = _Scalar(m.S_STOCK_LEN)
    stock_position = _Scalar(m.S_STOCK_POS)  #: the next card drawn from the stock
    circular = _Scalar(m.S_CIRCULAR)  #: whether each trick's trump follows its led suit
    order_length = _Scalar(m.S_ORDER_LEN)  #: seats taking part in the deal
    results = _Scalar(m.S_RESULTS)  #: deals scored
    legal_first = _Scalar(m.S_LEGAL_A)  #: the legal actions' first mask (``step`` returns it)
    legal_second = _Scalar(m.S_LEGAL_B)  #: and the second (a Joker's calls)
    schedule = _Scalar(m.S_SCHEDULE)  #: deals in the schedule
    decisions = _Scalar(m.S_DECISIONS)
    turned_holder = _Scalar(m.S_TURNED_HOLDER)

    # -- one value per seat ----------------------------------------------------------------------
    hands = _Seats(m.O_HANDS)  #: each seat's cards, masks
    first_cards = _Seats(m.O_FIRST)  #: each seat's cards of the deal's first rounds (002)
    bids = _Seats(m.O_BIDS)  #: -1: no bid yet
    taken = _Seats(m.O_TAKEN)
    fines = _Seats(m.O_FINES)
    scores = _Seats(m.O_SCORES)  #: the running totals
    passes = _Seats(m.O_PASSES)  #: passes in a row (the pass limit)
    shown = _Seats(m.O_SHOWN)  #: the cards each seat showed the others (masks)

    # -- the rest, by method ---------------------------------------------------------------------
    def hand(self, seat: int) -> int:
        """``seat``'s cards (a mask)."""
        return int(self.state[self.plan[m.O_HANDS] + seat])

    def first_hand(self, seat: int) -> int:
        """``seat``'s cards of the deal's first rounds (a mask)."""
        return int(self.state[self.plan[m.O_FIRST] + seat])

    def add_fine(self, seat: int, points: int) -> None:
        """Add ``points`` to ``seat``'s fines of the deal."""
        self.state[self.plan[m.O_FINES] + seat] += points

    @property
    def order(self) -> list[int]:
        """The seats of the deal in order from the dealer's left."""
        at = int(self.plan[m.O_ORDER])
        return self.state[at:at + int(self.state[m.S_ORDER_LEN])].tolist()

    @order.setter
    def order(self, seats: Sequence[int]) -> None:
        at = int(self.plan[m.O_ORDER])
        self.state[at:at + len(seats)] = seats
        self.state[m.S_ORDER_LEN] = len(seats)

    @property
    def stock(self) -> list[int]:
        """The undealt cards left, the next card drawn first."""
        at = int(self.plan[m.O_STOCK])
        state = self.state
        return state[at + int(state[m.S_STOCK_POS]):at + int(state[m.S_STOCK_LEN])].tolist()

    @stock.setter
    def stock(self, cards: Sequence[int]) -> None:
        at = int(self.plan[m.O_STOCK])
        self.state[at:at + len(cards)] = cards
        self.state[m.S_STOCK_LEN] = len(cards)
        self.state[m.S_STOCK_POS] = 0

    def joker_holder(self, joker: int) -> int:
        """The seat dealt Joker ``joker`` (52 or 53) in this deal (-1: nobody)."""
        return int(self.state[m.S_JOKER_52 if joker == 52 else m.S_JOKER_53])

    def set_joker_holders(self, seat: int) -> None:
        """Set both Jokers' holder to ``seat`` (-1: nobody)."""
        self.state[m.S_JOKER_52] = self.state[m.S_JOKER_53] = seat

    def how_text(self, override: tuple[int, str] | None = None) -> str:
        """How the trump was chosen, as text (``Observation.trump_how``); ``override``: (deal index,
        text), the text a game set up for search keeps for that deal."""
        if override is not None and override[0] == self.deal_index:
            return override[1]
        how = self.how
        if how == m.HOW_GIVEN:
            return "given"
        if how == m.HOW_NAMED_BY:
            return f"named by seat {self.named_by}"
        return chance.HOW_TEXT[how]

    @property
    def deal(self) -> DealRow:
        """The current deal's row of the deal table."""
        return DealRow(self.tables.deals[self.state[m.S_ROW]])

    def deal_row(self, row: int) -> DealRow:
        """Row ``row`` of the deal table."""
        return DealRow(self.tables.deals[row])

    def trick_cards(self) -> list[tuple[int, int, int, int]]:
        """The trick under way: (seat, card, call code, suit) per card played, in order."""
        state, plan = self.state, self.plan
        seats, cards, calls, suits = (int(plan[m.O_TSEAT]), int(plan[m.O_TCARD]),
                                      int(plan[m.O_TCALL]), int(plan[m.O_TSUIT]))
        return [(int(state[seats + i]), int(state[cards + i]), int(state[calls + i]),
                 int(state[suits + i])) for i in range(int(state[m.S_TRICK_LEN]))]

    def set_trick(self, entries: Sequence[tuple[int, int, int, int]]) -> None:
        """Set the trick under way: (seat, card, call code, suit) per card played."""
        state, plan = self.state, self.plan
        for index, (seat, card, call, suit) in enumerate(entries):
            state[plan[m.O_TSEAT] + index] = seat
            state[plan[m.O_TCARD] + index] = card
            state[plan[m.O_TCALL] + index] = call
            state[plan[m.O_TSUIT] + index] = suit
        state[m.S_TRICK_LEN] = len(entries)

    def finished_trick(self, index: int) -> tuple[list[tuple[int, int, int, int]], int, int]:
        """Finished trick ``index`` of the deal: its cards as (seat, card, call code, suit), its
        trump and its winner."""
        players = self.players
        width = m.hist_width(players)
        at = int(self.plan[m.O_HIST]) + index * width
        row = self.state[at:at + width].tolist()
        base = m.H_CARDS
        cards = [(row[base + i], row[base + players + i], row[base + 2 * players + i],
                  row[base + 3 * players + i]) for i in range(row[m.H_COUNT])]
        return cards, row[m.H_TRUMP], row[m.H_WINNER]

    def result(self, index: int) -> dict[str, Any]:
        """Scored deal ``index``: its deal-table row, number, dealer, trump, trump card (-1: none),
        whether the hook forced a bid, the Jokers' holders (52 and 53), and per seat its bid (-1:
        none), tricks taken, points, fines, premiums and total."""
        players = self.players
        width = m.result_width(players)
        at = int(self.plan[m.O_RES]) + index * width
        row = self.state[at:at + width].tolist()

        def block(which: int) -> tuple[int, ...]:
            start = m.R_SEATS + which * players
            return tuple(row[start:start + players])

        return {
            "row": row[m.R_ROW], "number": row[m.R_NUMBER], "dealer": row[m.R_DEALER],
            "trump": row[m.R_TRUMP], "trump_card": row[m.R_TRUMP_CARD],
            "hook_forced": row[m.R_HOOK_FORCED],
            "jokers": {52: row[m.R_JOKER_52], 53: row[m.R_JOKER_53]},
            "bids": block(m.R_BIDS), "taken": block(m.R_TAKEN), "points": block(m.R_POINTS),
            "fines": block(m.R_FINES), "premiums": block(m.R_PREMIUMS),
            "totals": block(m.R_TOTALS),
        }

    def snapshot(self) -> np.ndarray:
        """A copy of the state without its results (what an observation keeps of the deal)."""
        return self.state[:self.plan[m.O_RES]].copy()

    @property
    def no_trump_naming(self) -> int:
        """Whether a seat naming trump may name none (the plan's option, as the first legal
        mask of a ``TRUMP`` decision: ``machine.set_legal`` reads it there)."""
        return int(self.plan[m.P_NO_TRUMP_NAMING])


#: the state's per-seat blocks by name (``block_start``): ``StateView``'s (its ``_Seats``), the
#: deal's order and the trick under way's four blocks (by position in the trick)
_BLOCKS = {**{name: field.offset for name, field in vars(StateView).items()
              if isinstance(field, _Seats)},
           "order": m.O_ORDER, "trick_seats": m.O_TSEAT, "trick_cards": m.O_TCARD,
           "trick_calls": m.O_TCALL, "trick_suits": m.O_TSUIT}


def block_start(tables: MachineTables, name: str) -> int:
    """Where the state's per-seat block ``name`` starts (``"hands"``, ``"bids"``, ``"order"``,
    ``"trick_cards"``, ...: seat or position 0's entry), for code that reads a block in many
    states at once (the batch engine's observation)."""
    return int(tables.plan[_BLOCKS[name]])


def scalar_column(states: np.ndarray, name: str) -> np.ndarray:
    """Scalar ``name`` of ``StateView`` (``"decisions"``, ``"deal_index"``, ...) in every row of
    ``states``, a matrix of states (one game a row, as the batch engine keeps them)."""
    field = StateView.__dict__[name]
    if not isinstance(field, _Scalar):
        raise KeyError(f"{name!r} is not a scalar of the state")
    return states[:, field.index]


def leading_cards(states: np.ndarray, tables: MachineTables) -> np.ndarray:
    """The card that leads the trick under way in every row of ``states`` (a matrix of states;
    meaningful where a card was led)."""
    return states[:, tables.plan[m.O_TCARD]]
