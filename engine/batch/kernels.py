"""The rules core's state machine over many games: compiled loops over rows of a state matrix.

The batch engine keeps one ``engine.core.machine`` state vector a game, the rows of one ``int64``
matrix, and moves them with the machine's own functions (``new_game``, ``step``), so it states no
rule of its own. Each function here walks the rows it is given in a ``numba`` loop: start the
games, turn a batch strategy's answers into action codes (checked against the legal masks the
machine left in the state, ``fields.legal_first``/``second``), step the rows, say how far each game
has come (``progress``, for the lockstep's order), and read what an observation shows. A step
may also write the game's log (``logged_step``: the hands dealt, who named trump, each card
played and each trick's winner). Masks are ``int64`` (54 card bits fit below bit 63).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.core import cgutils
from numba.extending import intrinsic
from raspis.engine.cards import JOKER
from raspis.engine.core import deal, fields, rules
from raspis.engine.core import machine as m
from raspis.engine.core.codes import CALL_COUNT, OPTION_INDEX
from raspis.engine.core.compiling import jit

#: ``progress`` of a finished game: after every other
DONE = np.iinfo(np.int64).max


@jit()
def shuffle_many(cards: np.ndarray, keys: np.ndarray, out: np.ndarray) -> None:
    """``deal.shuffle`` of the deck under each game's key (``out``: one row per game)."""
    for row in range(len(keys)):
        deal.shuffle(cards, keys[row], out[row])


@jit()
def first_dealer_many(decks: np.ndarray, players: int, how: int, out: np.ndarray) -> None:
    """``deal.first_dealer`` of each game from its shuffled lot deck."""
    for row in range(len(out)):
        out[row] = deal.first_dealer(decks[row], players, how)


@intrinsic
def _pointer(typingctx, address):  # noqa: ANN001, ANN202 - numba's intrinsic protocol
    """An ``int64`` address as a pointer, for ``carray``."""
    signature = types.CPointer(types.int64)(address)

    def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202
        return builder.inttoptr(args[0], context.get_value_type(sig.return_type))

    return signature, codegen


@jit(inline="always")
def borrowed(array: np.ndarray) -> np.ndarray:
    """A view of a one-dimensional ``int64`` array without a reference count: numba then passes
    it between the functions of the loop without the atomic increments and decrements of its
    reference counting (a quarter of the loop's time otherwise). Only for an array that the
    Python caller holds for as long as the view is used."""
    return carray(_pointer(array.ctypes.data), array.shape)



@intrinsic
def _prefetch(typingctx, address):  # noqa: ANN001, ANN202 - numba's intrinsic protocol
    """Ask the processor to fetch the cache line at ``address`` (``llvm.prefetch``: for a
    write, kept in every cache level)."""
    signature = types.void(types.int64)

    def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202
        pointer = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer, word, word, word]),
            "llvm.prefetch.p0")
        builder.call(function, [builder.inttoptr(args[0], pointer), ir.Constant(word, 1),
                                ir.Constant(word, 3), ir.Constant(word, 1)])
        return context.get_dummy_value()

    return signature, codegen


#: rows ahead whose state is fetched while a row steps
AHEAD = 4


@jit(inline="always")
def prefetch_row(states: np.ndarray, plan: np.ndarray, rows: np.ndarray, index: int) -> None:
    """Fetch the part of a state a step reads (the scalars, the per-seat arrays up to the trick,
    the order's successors) of the game ``AHEAD`` rows after ``index`` of ``rows``: a batch's
    states are far apart in memory (kilobytes each), so a step that waits for each of them
    spends most of its time waiting."""
    if index + AHEAD >= len(rows):
        return
    at = states.ctypes.data + rows[index + AHEAD] * states.shape[1] * 8
    for line in range(0, fields.step_span(plan) * 8, 64):
        _prefetch(at + line)
    _prefetch(at + fields.successors_at(plan) * 8)


# -- the log -------------------------------------------------------------------------------------


@jit()
def log_deal(state: np.ndarray, plan: np.ndarray, row: int, logs: tuple) -> None:  # type: ignore[type-arg]
    """Note the deal just started in game ``row``: the hands as dealt, the trump card, the order
    of bidding (``BatchLog``)."""
    hands, trump_card, _, bid_order, _, _ = logs
    number = fields.deal_index(state)
    for seat in range(fields.plan_players(plan)):
        hands[row, number, seat] = fields.hand(state, plan, seat)
    trump_card[row, number] = fields.trump_card(state)
    for position in range(fields.order_length(state)):
        bid_order[row, number, position] = fields.seat_at(state, plan, position)


@jit(inline="always")
def logged_step(state: np.ndarray, plan: np.ndarray, code: int, row: int, record: bool,
                logs: tuple) -> None:  # type: ignore[type-arg]
    """``machine.step`` of game ``row`` with ``code``; with ``record`` the log's entries too."""
    if not record:
        m.step(state, plan, code)
        return
    _, _, namer, _, plays, winners = logs
    number = fields.deal_index(state)
    phase = fields.phase(state)
    done = fields.tricks_done(state)
    if phase == m.PH_PLAY:
        at = done * fields.order_length(state) + fields.trick_length(state)
        plays[row, number, at, 0] = fields.to_move(state)
        card, call, suit, _ = m.play_fields(code)
        plays[row, number, at, 1] = card
        plays[row, number, at, 2] = call
        plays[row, number, at, 3] = suit
    elif phase == m.PH_TRUMP:
        namer[row, number] = fields.to_move(state)
    events = m.step(state, plan, code)[4]
    if events & m.EV_TRICK:
        winners[row, number, done] = fields.finished_winner(state, plan, done)
    if events & m.EV_DEAL_STARTED:
        log_deal(state, plan, row, logs)


@jit()
def no_log() -> tuple:  # type: ignore[type-arg]
    """The log's arrays where nothing is logged: empty, of the log's types (``logged_step``)."""
    return (np.zeros((0, 0, 0), dtype=np.int64), np.zeros((0, 0), dtype=np.int64),
            np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0, 0), dtype=np.int64),
            np.zeros((0, 0, 0, 0), dtype=np.int64), np.zeros((0, 0, 0), dtype=np.int64))


# -- the lockstep --------------------------------------------------------------------------------


@jit()
def new_games(states: np.ndarray, plan: np.ndarray, seeds: np.ndarray, record: bool,
              logs: tuple) -> None:  # type: ignore[type-arg]
    """A fresh game in each row of ``states`` (``seeds``: ``int64`` views of the seeds)."""
    plan = borrowed(plan)
    for row in range(len(seeds)):
        m.new_game(borrowed(states[row]), plan, seeds[row])
        if record:
            log_deal(states[row], plan, row, logs)


#: the rows of the decision view (``view[V_*, game]``): for each game waiting on a numpy strategy,
#: what its observation reads most (``note_row``), in one small matrix rather than in the
#: far-apart states
(V_PHASE, V_ROW, V_SEAT, V_POSITION, V_HAND, V_LEGAL, V_CALLS, V_TRICK_LEN, V_DEALER, V_TRUMP,
 V_TRUMP_CARD, V_HOW, V_TRICK_TRUMP, V_LED, V_OWN_BID, V_OWN_TAKEN, V_WIDTH) = range(17)


@jit(inline="always")
def note_row(state: np.ndarray, plan: np.ndarray, row: int, jokers: bool, view: np.ndarray,
             keys: np.ndarray) -> None:
    """Note where game ``row`` stands once it waits for a decision (or is over): how far it has
    come into ``keys[row]`` (the deal, then naming trump before bidding before play, then the bids
    made or the cards played; ``DONE`` once over: the lockstep asks the games least far on first,
    so the games of a batch stay together, the same deal, trick and place in it, as when they were
    played deal by deal), and the decision's view into ``view[:, row]`` (``V_*``: the mover, its
    position, its hand as ``machine.visible_hand`` shows it, the legal mask ``legal_first``, a
    Joker's calls ``machine.joker_calls`` where the deck has Jokers, ...)."""
    phase = fields.phase(state)
    if phase == m.PH_OVER:
        keys[row] = DONE
        return
    players = fields.plan_players(plan)
    seat = fields.to_move(state)
    sub = 0
    if phase == m.PH_TRUMP:
        rank = 0
    elif phase == m.PH_BID:
        rank = 1
        for other in range(players):
            sub += fields.bid(state, plan, other) >= 0
    else:
        rank = 2
        sub = fields.tricks_done(state) * 64 + fields.trick_length(state)
    keys[row] = ((fields.deal_index(state) * 4 + rank) << 24) + sub
    position = -1
    for index in range(fields.order_length(state)):
        if fields.seat_at(state, plan, index) == seat:
            position = index
    view[V_PHASE, row] = phase
    view[V_ROW, row] = fields.row(state)
    view[V_SEAT, row] = seat
    view[V_POSITION, row] = position
    view[V_HAND, row] = m.visible_hand(state, plan, seat)
    view[V_LEGAL, row] = fields.legal_first(state)
    view[V_CALLS, row] = m.joker_calls(state, plan) if jokers and phase == m.PH_PLAY else 0
    view[V_TRICK_LEN, row] = fields.trick_length(state)
    view[V_DEALER, row] = fields.dealer(state)
    view[V_TRUMP, row] = fields.trump(state)
    view[V_TRUMP_CARD, row] = fields.trump_card(state)
    view[V_HOW, row] = fields.how(state)
    view[V_TRICK_TRUMP, row] = fields.trick_trump(state)
    view[V_LED, row] = fields.led_suit(state)
    view[V_OWN_BID, row] = fields.bid(state, plan, seat)
    view[V_OWN_TAKEN, row] = fields.taken(state, plan, seat)


@jit()
def note_rows(states: np.ndarray, plan: np.ndarray, rows: np.ndarray, jokers: bool,
              view: np.ndarray, keys: np.ndarray) -> None:
    """``note_row`` of each game of ``rows``."""
    plan = borrowed(plan)
    for index in range(len(rows)):
        prefetch_row(states, plan, rows, index)
        row = rows[index]
        note_row(borrowed(states[row]), plan, row, jokers, view, keys)


@jit()
def apply_rows(states: np.ndarray, plan: np.ndarray, rows: np.ndarray, codes: np.ndarray,
               counts: np.ndarray, record: bool, logs: tuple, jokers: bool,  # type: ignore[type-arg]
               view: np.ndarray, keys: np.ndarray) -> None:
    """The mover of each game of ``rows`` plays ``codes[index]`` (``machine.action_code``, legal:
    see ``check_*``), then the game's next decision is noted (``note_row``); ``counts[row,
    seat]``: each seat's decisions so far."""
    plan = borrowed(plan)
    for index in range(len(rows)):
        prefetch_row(states, plan, rows, index)
        row = rows[index]
        state = borrowed(states[row])
        counts[row, fields.to_move(state)] += 1
        logged_step(state, plan, codes[index], row, record, logs)
        note_row(state, plan, row, jokers, view, keys)


@jit(inline="always")
def _first_in(order: np.ndarray, calls: int) -> int:
    """The first option of ``order`` set in ``calls``; -1 for none."""
    for option in order:
        if calls >> option & 1:
            return option
    return -1


@jit()
def check_plays(view: np.ndarray, rows: np.ndarray, cards: np.ndarray, calls: np.ndarray,
                suits: np.ndarray, lead_order: np.ndarray, follow_order: np.ndarray,
                codes: np.ndarray, bad: np.ndarray) -> None:
    """The action codes of answered plays (``cards``, and a Joker's ``calls`` and ``suits``):
    legal when the card is in the legal mask and a Joker's (call, suit) one of its calls (the
    view's ``V_LEGAL``, ``V_CALLS``: the machine's ``legal_first`` and calls); an illegal answer
    is marked ``bad`` and replaced by the first legal action of the reference's list (the lowest
    card, a Joker with its first call in ``*_order``)."""
    for index in range(len(rows)):
        row = rows[index]
        legal = view[V_LEGAL, row]
        options = view[V_CALLS, row]
        card, call, suit = cards[index], calls[index], suits[index]
        ok = 0 <= card < 64 and legal >> card & 1 != 0
        if ok and card >= JOKER:
            ok = 0 <= call < CALL_COUNT and -1 <= suit < 4
            if ok:
                option = OPTION_INDEX[call, suit + 1]
                ok = option >= 0 and options >> option & 1 != 0
        if ok:
            codes[index] = card if card < JOKER else (card | call << m.CALL_SHIFT
                                                    | (suit + 1) << m.SUIT_SHIFT)
            bad[index] = False
            continue
        bad[index] = True
        first = rules.bit_index(legal & -legal)
        order = lead_order if view[V_TRICK_LEN, row] == 0 else follow_order
        codes[index] = m.play_code(first, _first_in(order, options))


@jit()
def check_bids(view: np.ndarray, rows: np.ndarray, bids: np.ndarray, codes: np.ndarray,
               bad: np.ndarray) -> None:
    """The action codes of answered bids: legal when in the legal mask (``V_LEGAL``), else
    ``bad`` and the lowest legal bid."""
    for index in range(len(rows)):
        legal = view[V_LEGAL, rows[index]]
        bid = bids[index]
        bad[index] = not (0 <= bid < 64 and legal >> bid & 1 != 0)
        codes[index] = rules.bit_index(legal & -legal) if bad[index] else bid


@jit()
def check_trumps(view: np.ndarray, rows: np.ndarray, suits: np.ndarray, codes: np.ndarray,
                 bad: np.ndarray) -> None:
    """The action codes of named trumps: a suit 0..3, or -1 (no trump) where the legal mask
    (``V_LEGAL``: the machine's ``legal_first``) allows it; else ``bad`` and the first suit."""
    for index in range(len(rows)):
        suit = suits[index]
        allowed = 0 <= suit < 4 or (suit == -1 and view[V_LEGAL, rows[index]] != 0)
        bad[index] = not allowed
        codes[index] = suit + 1 if allowed else 1


# -- what an observation shows -------------------------------------------------------------------


@jit()
def seen_many(states: np.ndarray, plan: np.ndarray, rows: np.ndarray, out: np.ndarray) -> None:
    """``machine.seen_cards`` of the mover of each game of ``rows``."""
    for index in range(len(rows)):
        state = borrowed(states[rows[index]])
        out[index] = m.seen_cards(state, plan, fields.to_move(state))


@jit()
def trick_lead_many(states: np.ndarray, plan: np.ndarray, rows: np.ndarray,
                    best_position: np.ndarray, best_key: np.ndarray, beats: np.ndarray) -> None:
    """The trick so far in each game of ``rows``: the position in the deal's order of who plays
    the card holding it, that card's ``rules.card_key`` and whether trumps beat the leading
    Joker's demand (``machine.trick_lead``); 0, 0 and False before the lead."""
    for index in range(len(rows)):
        state = borrowed(states[rows[index]])
        best_position[index], best_key[index], beats[index] = 0, 0, False
        if fields.trick_length(state) == 0:
            continue
        top, best_key[index], beats[index] = m.trick_lead(state)
        seat = fields.trick_seat(state, plan, top)
        for position in range(fields.order_length(state)):
            if fields.seat_at(state, plan, position) == seat:
                best_position[index] = position
