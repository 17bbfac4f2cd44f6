"""The open-hand solver: the rest of a deal solved exactly with every hand shown, compiled.

Given every seat's cards, the trick under way, the trump and the rule plan, the solver values a
list of moves of the seat to move for one seat (the *deciding* seat): its points for the deal under
the variant's own score table with the bids fixed (a row of ``scoring.points_table``: ``row[t]``
its points when it ends with ``t`` tricks) plus the Joker lead fines it incurs. Two models of how
the other seats play:

- ``solve_moves``, *paranoid* (Sturtevant and Korf 2000): every other seat plays to minimise the
  deciding seat's points, which makes the game two-sided and alpha-beta exact (fail-soft, with a
  cut-off when no trick count still reachable changes the value);
- ``solve_moves_maxn``, *max^n* (Luckhardt and Irani 1986): every seat plays for its own points
  (``rows[p]``, its own bid), ties broken against the deciding seat; the result is every seat's
  final tricks and fines, packed ``SEAT_BITS`` a position.

Both search single cards in one loop (``_searcher``, compiled once for each model) on an explicit
stack (numba's cache cannot hold a recursive function: a cached recursive ``@njit`` crashes when
loaded), with a transposition table at the start of every trick (keyed by a Zobrist hash of every
hand, the leader and the tricks taken; a ``salt`` folds the objective into the key, so one table
serves a whole game), move ordering (the table's best move first, then high cards first when the
mover wants more tricks, low cards first when it wants fewer), equivalent cards merged (cards of
one suit with no card still in play between them; the card that unlocks the Joker is never merged,
nor any card while a Joker that may be declared as a card is in another hand) and a node budget:
past it the search stops and says so (``stats[1]``), and the caller falls back on something
cheaper.

Every rule comes from the rules core (``engine.core.rules``): the legal cards (``legal_cards``), the
Joker's calls after the lead (``follow_calls_named``; on the lead the plan's ``lead_calls_mask``,
for the first trick and for the later ones, passed in; a Joker declared as a card once for
each way the name can hold the trick, ``_named_moves``), who takes the trick (``card_key``,
``trumps_beat_demand``), which card sets the led suit (``led_suit_after``) and the trick's trump
under circular trumps (``circular_trick_trump``), the same functions the state machine plays by, and
the Joker lead fine (``engine.core.scoring.lead_fine``).

The Joker's player keeping or declining the trick it led (``joker.lead_choice``, 000) is a node
of its own after the trick's last card (a *keep node*: the trick full, its leader to move, two
moves), searched like any other. Not modelled (the caller plays those deals out with its heuristic
instead): drawing from the stock after each trick (``play.draw_after_trick``), since the stock's
order is hidden. Premiums, which depend on the deals before, are the caller's (it may add them
to ``row``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..cards import JOKER, JOKER2, JOKER_MASK
from .codes import CALL_NONE, CARD_OPTION, OPTION_CALL, OPTION_COUNT, OPTION_SUIT, named_call
from .compiling import jit
from .rules import (
    card_key,
    circular_trick_trump,
    follow_calls_named,
    is_high_call,
    led_suit_after,
    legal_cards,
    may_decline,
    popcount,
    trumps_beat_demand,
)
from .scoring import lead_fine

if TYPE_CHECKING:
    from .plan import RulePlan

#: Bounds of a search window (no deal is worth more than 10^9 points to one seat).
INFINITY = 1 << 40
#: Fields of the ``params`` array of ``solve_moves`` (``search_params`` fills it; named apart from
#: the machine's plan fields, ``machine.P_*``, which are another vector).
(PARAM_PLAYERS, PARAM_DECIDER, PARAM_MUST_TRUMP, PARAM_LOCK_CARD, PARAM_TWO_JOKERS,
 PARAM_TRUMP_WINS, PARAM_TRUMP, PARAM_CIRCULAR, PARAM_LEAD_CALLS_FIRST, PARAM_LEAD_CALLS_LATER,
 PARAM_LEAD_FINE, PARAM_HAND_SIZE, PARAM_BUDGET, PARAM_SALT, PARAM_CUT_OFFS, PARAM_NAMEABLE,
 PARAM_KEEP) = range(17)
PARAMS = 17
#: ``stats``: nodes searched, 1 once the node budget stopped the search.
STAT_NODES, STAT_ABORTED = range(2)


def search_params(plan: RulePlan, players: int, decider: int, trump: int, circular: bool,
                  number: int, hand_size: int, budget: int, cut_offs: int, salt: int) -> np.ndarray:
    """The ``params`` of a search of deal ``number`` (``hand_size`` cards, ``players`` seats taking
    part) under ``plan``'s rules: the deciding seat's position in the deal's order, the trump
    (-1: none), whether each trick's trump follows its led suit, the node budget, the objective's
    cut-offs, and ``salt``, which keys the transposition table to the question asked."""
    has_trump = trump >= 0
    params = np.empty(PARAMS, dtype=np.int64)
    params[PARAM_PLAYERS] = players
    params[PARAM_DECIDER] = decider
    params[PARAM_MUST_TRUMP] = plan.must_trump
    params[PARAM_LOCK_CARD] = plan.lock_card
    params[PARAM_TWO_JOKERS] = plan.two_jokers
    params[PARAM_TRUMP_WINS] = plan.trump_wins
    params[PARAM_TRUMP] = trump
    params[PARAM_CIRCULAR] = circular
    params[PARAM_LEAD_CALLS_FIRST] = plan.lead_calls_mask(plan.demands_allowed(number, 0),
                                                          has_trump)
    params[PARAM_LEAD_CALLS_LATER] = plan.lead_calls_mask(plan.demands_allowed(number, 1),
                                                          has_trump)
    params[PARAM_LEAD_FINE] = plan.lead_fine
    params[PARAM_NAMEABLE] = plan.nameable
    params[PARAM_HAND_SIZE] = hand_size
    params[PARAM_BUDGET] = budget
    params[PARAM_CUT_OFFS] = cut_offs
    params[PARAM_KEEP] = plan.lead_choice
    params[PARAM_SALT] = salt
    return params


def search_stats(stats: np.ndarray) -> tuple[int, bool]:
    """A search's ``stats``: the nodes it searched, and whether its node budget stopped it."""
    return int(stats[STAT_NODES]), bool(stats[STAT_ABORTED])


class Position(NamedTuple):
    """The position a search starts from, seats as *positions* in the deal's order of play
    (``hands[p]``; the seat after ``p`` is ``p + 1`` modulo the players): the trick under way
    (``trick_cards[:trick_length]`` and their Joker options, led by position ``leader``, its led
    suit and trick trump), ``played`` (every card played so far this deal: the Joker's lock) and
    ``taken`` (the deciding seat's tricks so far, or max^n's packed outcome so far). ``hands`` is
    the search's scratch space and is restored."""

    hands: np.ndarray
    trick_cards: np.ndarray
    trick_options: np.ndarray
    trick_length: int
    leader: int
    led_suit: int
    trick_trump: int
    played: int
    taken: int


class Table(NamedTuple):
    """The transposition table (``new_table``): each entry's key, its lower and upper bound
    (max^n keeps its one exact outcome in ``low`` and reads no ``high``) and its best move."""

    keys: np.ndarray
    low: np.ndarray
    high: np.ndarray
    move: np.ndarray


class Stack(NamedTuple):
    """The explicit stack of a search (``_search_stack``), one ply a card still to play: the
    nodes (``nodes[ply, N_*]``), the card and Joker option played at each ply (the trick under
    way at the root written below it) and each ply's moves."""

    nodes: np.ndarray
    played_cards: np.ndarray
    played_options: np.ndarray
    move_cards: np.ndarray
    move_options: np.ndarray


#: Moves a node may have at most: a hand of 54 cards, or 27 and the 35 Joker calls and the
#: cards a Joker is declared as (``_named_moves``: at most one more than the cards in play).
MAX_MOVES = 128
#: A Joker declared as card ``c`` (``joker.as_card``) is the move option ``NAMED_OPTION + c``.
NAMED_OPTION = 64
#: A move as one number: card * MOVE_RADIX + option + 1 (options 0..OPTION_COUNT - 1, or a named
#: card's ``NAMED_OPTION + card``).
MOVE_RADIX = 128
#: The two moves of a keep node (``joker.lead_choice``): the Joker's player keeps the full trick
#: it led, or declines it; no card has these ids (card 0 is ordinary: its only move is 0).
KEEP_MOVE, DECLINE_MOVE = 62, 63


_OPTION_CALL = OPTION_CALL.copy()
_OPTION_SUIT = OPTION_SUIT.copy()
JOKER_BITS = JOKER_MASK


@jit()
def _call_of(option: int) -> int:
    if option >= NAMED_OPTION:
        return named_call(option - NAMED_OPTION)
    return CALL_NONE if option < 0 else _OPTION_CALL[option]


@jit()
def _suit_of_call(option: int) -> int:
    if option >= NAMED_OPTION:
        return (option - NAMED_OPTION) // 13
    return -1 if option < 0 else _OPTION_SUIT[option]


@jit()
def trick_winner(cards: np.ndarray, options: np.ndarray, count: int, led_suit: int,
                 trick_trump: int, trump_wins: bool, two_jokers: int, skip: int) -> int:
    """The position in the trick of the card that takes it: the greatest ``core.card_key``, the
    earliest among equals (as ``machine.trick_winner``); with ``skip`` >= 0 the best of the other
    cards (a declined trick, 000)."""
    lead_option = options[0]
    beats = trumps_beat_demand(cards[0], _call_of(lead_option), _suit_of_call(lead_option),
                               trick_trump, trump_wins)
    best = 0
    best_key = -2
    for index in range(count):
        if index == skip:
            continue
        key = card_key(cards[index], _call_of(options[index]), index, led_suit, trick_trump,
                       beats, two_jokers)
        if key > best_key:
            best = index
            best_key = key
    return best


@jit()
def _reachable(row: np.ndarray, taken: int, left: int) -> tuple[int, int, int]:
    """(lowest, highest, best count) of ``row`` over the trick counts still reachable."""
    lowest = row[taken]
    highest = row[taken]
    best = taken
    for count in range(taken + 1, taken + left + 1):
        value = row[count]
        if value < lowest:
            lowest = value
        if value > highest:
            highest = value
            best = count
    return lowest, highest, best


@jit()
def _joker_moves(params: np.ndarray, stack: Stack, ply: int, hand: int, jokers: int, later: int,
                 met: int, count: int, high_first: bool) -> int:
    """Append a Joker's moves to the node at ``ply``, one per legal call (the rules core's
    ``follow_calls_named`` after the lead, the plan's lead calls on it), the card option as
    ``_named_moves`` (``later``: the cards of the seats still to play to this trick; ``met``: the
    cards already in it); the two Jokers are alike, so one stands for both."""
    joker = JOKER if jokers & (1 << JOKER) else JOKER2
    trick_length = stack.nodes[ply, N_LENGTH]
    trick_cards = stack.played_cards[ply - trick_length:ply]
    trick_options = stack.played_options[ply - trick_length:ply]
    move_cards = stack.move_cards
    move_options = stack.move_options
    if trick_length == 0:
        done = params[PARAM_HAND_SIZE] - popcount(hand)
        calls = params[PARAM_LEAD_CALLS_FIRST] if done == 0 else params[PARAM_LEAD_CALLS_LATER]
    else:
        first = -1
        for index in range(trick_length):
            if trick_cards[index] >= JOKER:
                first = _call_of(trick_options[index])
                break
        calls = follow_calls_named(params[PARAM_TWO_JOKERS], first, params[PARAM_NAMEABLE])
    for wanted in range(2):  # winning calls first when tricks are wanted, else last
        for option in range(OPTION_COUNT):
            if calls >> option & 1 and is_high_call(_OPTION_CALL[option]) == (
                    (wanted == 0) == high_first):
                if option == CARD_OPTION:
                    count = _named_moves(params[PARAM_NAMEABLE], joker, later, met, move_cards,
                                         move_options, ply, count)
                    continue
                move_cards[ply, count] = joker
                move_options[ply, count] = option
                count += 1
    return count


@jit()
def _named_moves(nameable: int, joker: int, later: int, met: int, move_cards: np.ndarray,
                 move_options: np.ndarray, ply: int, count: int) -> int:
    """Append the Joker declared as a card (``joker.as_card``), one ``nameable`` card for each
    way the name can hold the trick. A name counts only in this trick, by its suit (led, trump or
    neither) and its place among the cards of that suit that meet it there: those already in the
    trick (a named Joker's card included), which keep a tie, and ``later``'s (the seats still to
    play), to which it keeps one. Two names with no such card between them are the same move, so
    the first of each place is enough; the search stays exact except where both Jokers are
    declared as cards in one trick (the second may then pass the first between two such
    cards). ``met``: the cards already in the trick, a Joker's by the card it was declared as (a
    name equal to one of them loses the tie)."""
    live = (met | later) & ~JOKER_BITS
    for suit in range(4):
        suited = (nameable >> (13 * suit)) & 0x1FFF
        base = 13 * suit
        seen = 0  # the places met so far in this suit, as bits
        while suited:
            low = suited & -suited
            suited ^= low
            card = base + popcount(low - 1)
            below = popcount(live & ((1 << card) - 1) & ~((1 << base) - 1))
            place = below + (later >> card & 1)
            if seen >> place & 1:
                continue
            seen |= 1 << place
            move_cards[ply, count] = joker
            move_options[ply, count] = NAMED_OPTION + card
            count += 1
    return count


@jit()
def _generate(params: np.ndarray, hands: np.ndarray, mover: int, stack: Stack, ply: int,
              high_first: bool) -> int:
    """Write the moves of ``mover`` at the node at ``ply`` (its trick the plies before it) into
    row ``ply`` of the stack's move buffers; returns their count."""
    players = params[PARAM_PLAYERS]
    nodes = stack.nodes
    trick_length = nodes[ply, N_LENGTH]
    trick_cards = stack.played_cards[ply - trick_length:ply]
    trick_options = stack.played_options[ply - trick_length:ply]
    led_suit = nodes[ply, N_LED]
    trick_trump = nodes[ply, N_TRUMP]
    played = nodes[ply, N_PLAYED]
    move_cards = stack.move_cards
    move_options = stack.move_options
    hand = hands[mover]
    if trick_length:
        lead_card = trick_cards[0]
        lead_option = trick_options[0]
        cards = legal_cards(hand, trick_length, lead_card, _call_of(lead_option),
                            _suit_of_call(lead_option), led_suit, trick_trump,
                            params[PARAM_MUST_TRUMP] != 0, params[PARAM_LOCK_CARD], played)
    else:
        cards = legal_cards(hand, 0, -1, CALL_NONE, -1, -1, trick_trump,
                            params[PARAM_MUST_TRUMP] != 0, params[PARAM_LOCK_CARD], played)
    # cards still in play in other hands or on the table separate two cards of a suit
    others = 0
    for other in range(players):
        if other != mover:
            others |= hands[other]
    in_trick = 0  # the trick's ordinary cards
    named = 0  # the cards the trick's Jokers are declared as (``joker.as_card``)
    for index in range(trick_length):
        if trick_cards[index] < JOKER:
            in_trick |= 1 << trick_cards[index]
        elif trick_options[index] >= NAMED_OPTION:
            named |= 1 << (trick_options[index] - NAMED_OPTION)
    blockers = others | in_trick
    # a Joker still in another hand may yet be declared as any card, and so come between any two
    # of the mover's cards (played before the real card it names, it keeps the tie): no merging
    merge = not (params[PARAM_NAMEABLE] and others & JOKER_BITS)
    lock = params[PARAM_LOCK_CARD]
    count = 0
    jokers = cards & JOKER_BITS
    later = 0  # the cards of the seats still to play to this trick (a named Joker meets them)
    for step in range(1, players - trick_length):
        later |= hands[(mover + step) % players]
    if jokers and high_first:  # the Jokers first when tricks are wanted, winning calls first
        count = _joker_moves(params, stack, ply, hand, jokers, later, in_trick | named, count,
                             True)
    start = count
    ordinary = cards & ~JOKER_BITS
    for suit in range(4):
        suited = (ordinary >> (13 * suit)) & 0x1FFF
        previous = -1
        while suited:
            low = suited & -suited
            card = 13 * suit + popcount(low - 1)
            keep = previous < 0 or card == lock or previous == lock or not merge
            if not keep:  # the lowest card of a group with nothing in play between stands for it
                between = ((1 << card) - 1) & ~((2 << previous) - 1)
                # a card named in the trick sits just above the real card it names: it beats
                # ``previous`` when that is the card it names, and loses to ``card``
                keep = ((blockers & between) != 0
                        or (named & ((1 << card) - 1) & ~((1 << previous) - 1)) != 0)
            if keep:
                move_cards[ply, count] = card
                move_options[ply, count] = -1
                count += 1
            previous = card
            suited ^= low
    if high_first:  # high cards first (ids ascend by rank within a suit)
        for offset in range((count - start) // 2):
            left_index = start + offset
            right_index = count - 1 - offset
            swap = move_cards[ply, left_index]
            move_cards[ply, left_index] = move_cards[ply, right_index]
            move_cards[ply, right_index] = swap
    elif jokers:
        count = _joker_moves(params, stack, ply, hand, jokers, later, in_trick | named, count,
                             False)
    return count


# Fields of a node on the search stack (``nodes[ply, field]``).
(N_LENGTH, N_LEADER, N_LED, N_TRUMP, N_PLAYED, N_TAKEN, N_KEY, N_ALPHA, N_BETA, N_BEST,
 N_BEST_MOVE, N_COUNT, N_INDEX, N_SLOT, N_ENTRY, N_WINDOW_ALPHA, N_WINDOW_BETA, N_HAND, N_FINE,
 N_MOVER, N_ENTERED) = range(21)
NODE_FIELDS = 21


@jit(inline="always")
def _table_slot(params: np.ndarray, zobrist: np.ndarray, nodes: np.ndarray, ply: int,
                objective: int, table_keys: np.ndarray) -> int:
    """Key the node at ``ply`` (the start of a trick) in the transposition table: its hands
    (``N_KEY``), leader, the Joker's lock, the question asked (``PARAM_SALT``) and ``objective``
    (what the tricks taken so far mean to it: a key of the deciding seat's count, or the mix of
    every seat's); sets ``N_SLOT`` and ``N_ENTRY`` and returns the slot."""
    players = params[PARAM_PLAYERS]
    entry_key = (nodes[ply, N_KEY] ^ zobrist[54 * players + nodes[ply, N_LEADER]] ^ objective
                 ^ params[PARAM_SALT])
    lock = params[PARAM_LOCK_CARD]
    if lock >= 0 and nodes[ply, N_PLAYED] >> lock & 1:  # the same hands, the Joker unlocked
        entry_key ^= zobrist[54 * players + players + 63]
    slot = entry_key & (len(table_keys) - 1)
    nodes[ply, N_SLOT] = slot
    nodes[ply, N_ENTRY] = entry_key
    return slot


@jit()
def _enter(params: np.ndarray, row: np.ndarray, zobrist: np.ndarray, hands: np.ndarray,
           nodes: np.ndarray, ply: int, forced: bool, table: Table) -> tuple[bool, int]:
    """Open the node at ``ply`` of the paranoid search: (True, its value) when it is decided
    without searching (the deal is over, no trick count still reachable changes the value, or
    the transposition table knows it); otherwise (False, 0) with its window narrowed by the
    table."""
    players = params[PARAM_PLAYERS]
    decider = params[PARAM_DECIDER]
    leader = nodes[ply, N_LEADER]
    taken = nodes[ply, N_TAKEN]
    nodes[ply, N_SLOT] = -1
    nodes[ply, N_WINDOW_ALPHA] = nodes[ply, N_ALPHA]
    nodes[ply, N_WINDOW_BETA] = nodes[ply, N_BETA]
    if nodes[ply, N_LENGTH] != 0 or forced:
        return False, 0
    left = popcount(hands[leader])
    if left == 0:
        return True, row[taken]
    alpha = nodes[ply, N_ALPHA]
    beta = nodes[ply, N_BETA]
    lowest, highest, _ = _reachable(row, taken, left)
    fines = 0
    if params[PARAM_LEAD_FINE] != 0:
        fines = params[PARAM_LEAD_FINE] * popcount(hands[decider] & JOKER_BITS)
    if highest <= alpha:
        return True, highest
    if lowest + fines >= beta:
        return True, lowest + fines
    if lowest == highest and fines == 0:
        return True, lowest
    slot = _table_slot(params, zobrist, nodes, ply, zobrist[54 * players + players + taken],
                       table.keys)
    if table.keys[slot] == nodes[ply, N_ENTRY]:
        low = table.low[slot]
        high = table.high[slot]
        if low >= beta:
            return True, low
        if high <= alpha:
            return True, high
        if low == high:
            return True, low
        if low > alpha:
            nodes[ply, N_ALPHA] = low
        if high < beta:
            nodes[ply, N_BETA] = high
        nodes[ply, N_WINDOW_ALPHA] = nodes[ply, N_ALPHA]
        nodes[ply, N_WINDOW_BETA] = nodes[ply, N_BETA]
    return False, 0


@jit(inline="always")
def _enter_maxn(params: np.ndarray, zobrist: np.ndarray, hands: np.ndarray, nodes: np.ndarray,
                ply: int, forced: bool, table: Table) -> tuple[bool, int]:
    """Open the node at ``ply`` of the max^n search: (True, its packed outcome) when the deal is
    over or the transposition table knows it (its entries are exact); otherwise (False, 0)."""
    packed = nodes[ply, N_TAKEN]
    nodes[ply, N_SLOT] = -1
    if nodes[ply, N_LENGTH] != 0 or forced:
        return False, 0
    if popcount(hands[nodes[ply, N_LEADER]]) == 0:
        return True, packed
    slot = _table_slot(params, zobrist, nodes, ply, _mix(packed), table.keys)
    if table.keys[slot] == nodes[ply, N_ENTRY]:
        return True, table.low[slot]
    return False, 0


@jit()
def _open_keep(nodes: np.ndarray, child: int, players: int, leader: int, led: int, trump: int,
               taken: int) -> None:
    """Make ``child`` a keep node (``joker.lead_choice``, 000: «Походивший с джокера может
    забрать взятку, либо отказаться от нее»): the trick is full, its Joker's player (the leader)
    to decide; its length is the player count."""
    nodes[child, N_LENGTH] = players
    nodes[child, N_LEADER] = leader
    nodes[child, N_LED] = led
    nodes[child, N_TRUMP] = trump
    nodes[child, N_TAKEN] = taken


@jit()
def _keep_moves(move_cards: np.ndarray, move_options: np.ndarray, ply: int) -> int:
    """The two moves of a keep node."""
    move_cards[ply, 0] = KEEP_MOVE
    move_cards[ply, 1] = DECLINE_MOVE
    move_options[ply, 0] = -1
    move_options[ply, 1] = -1
    return 2


@jit()
def _kept_by(params: np.ndarray, played_cards: np.ndarray, played_options: np.ndarray,
             nodes: np.ndarray, ply: int, move: int) -> int:
    """The position that takes the full trick before the keep node at ``ply``: its leader when
    kept, else the best of the other cards (000: «взятку забирает игрок, который походил самой
    сильной картой»)."""
    players = params[PARAM_PLAYERS]
    leader = nodes[ply, N_LEADER]
    if move == KEEP_MOVE:
        return leader
    position = trick_winner(played_cards[ply - players:ply], played_options[ply - players:ply],
                            players, nodes[ply, N_LED], nodes[ply, N_TRUMP],
                            params[PARAM_TRUMP_WINS] != 0, params[PARAM_TWO_JOKERS], 0)
    return (leader + position) % players


@jit()
def _after_keep(nodes: np.ndarray, ply: int, child: int, winner: int, trump: int) -> None:
    """The node after a keep node: the next trick, led by the trick's taker, the same cards."""
    nodes[child, N_PLAYED] = nodes[ply, N_PLAYED]
    nodes[child, N_KEY] = nodes[ply, N_KEY]
    nodes[child, N_ENTERED] = 0
    nodes[child, N_LENGTH] = 0
    nodes[child, N_LEADER] = winner
    nodes[child, N_LED] = -1
    nodes[child, N_TRUMP] = trump


@jit(inline="always")
def _table_move_first(move_cards: np.ndarray, move_options: np.ndarray, ply: int, count: int,
                      stored: int) -> None:
    """Move the table's best move (``stored``, a move as one number) to the front of the node's
    moves, the others keeping their order."""
    for index in range(1, count):
        candidate = move_cards[ply, index] * MOVE_RADIX + move_options[ply, index]
        if candidate + 1 == stored:
            card = move_cards[ply, index]
            option = move_options[ply, index]
            for shift in range(index, 0, -1):
                move_cards[ply, shift] = move_cards[ply, shift - 1]
                move_options[ply, shift] = move_options[ply, shift - 1]
            move_cards[ply, 0] = card
            move_options[ply, 0] = option
            return


# -- max^n: every seat plays for its own points ----------------------------------------------

#: Bits of one position in a packed outcome of ``solve_moves_maxn``: its tricks (6 bits), then
#: the Jokers it led with other cards in hand (2 bits, the lead fines).
SEAT_BITS = 8
TAKEN_MASK = 63
MAXN_PLAYERS = 7


@jit()
def outcome_score(rows: np.ndarray, packed: int, position: int, fine: int) -> int:
    """The points of ``position`` in a packed outcome: its row at its tricks, plus its fines."""
    own = packed >> (SEAT_BITS * position)
    return rows[position, own & TAKEN_MASK] + fine * ((own >> 6) & 3)


@jit()
def _mix(value: int) -> int:
    """A 64-bit mix of a packed trick count vector, for the table's key."""
    value = (value ^ (value >> 29)) * -4658895280553007687
    return value ^ (value >> 32)


# -- the search, one loop for both models -----------------------------------------------------
#
# The loop (``_searcher``) walks the explicit stack in four steps: back a child's value up into
# its parent (``_back_up``, ``_back_up_maxn``), open a node (``_enter`` or ``_enter_maxn``, then
# its moves), play the next move into the node after it, and store a searched node in the table
# (``_store``). Opening a node and playing a move stay written out in the loop: as inlined
# functions of their own they cost 9-14% (opening) and 8-14% (playing) of the search's time, the
# four steps as functions 53-65% (``benchmarks/solver_ab.py``, side by side on the same recorded
# positions); backing up and storing as functions cost within the benchmark's noise.


@jit(inline="always")
def _back_up(params: np.ndarray, nodes: np.ndarray, ply: int, result: int, move: int) -> bool:
    """The paranoid search's child value ``result`` (after ``move``) into the node at ``ply``:
    its best and window, the deciding seat maximising and the others minimising; True on a
    cut-off (the window closed)."""
    value = nodes[ply, N_FINE] + result
    if nodes[ply, N_MOVER] == params[PARAM_DECIDER]:
        if value > nodes[ply, N_BEST]:
            nodes[ply, N_BEST] = value
            nodes[ply, N_BEST_MOVE] = move
        if value > nodes[ply, N_ALPHA]:
            nodes[ply, N_ALPHA] = value
    else:
        if value < nodes[ply, N_BEST]:
            nodes[ply, N_BEST] = value
            nodes[ply, N_BEST_MOVE] = move
        if value < nodes[ply, N_BETA]:
            nodes[ply, N_BETA] = value
    return nodes[ply, N_ALPHA] >= nodes[ply, N_BETA]


@jit(inline="always")
def _back_up_maxn(params: np.ndarray, rows: np.ndarray, nodes: np.ndarray, ply: int,
                  result: int, move: int) -> bool:
    """The max^n child outcome ``result`` (after ``move``, the node's ``index``-th) into the
    node at ``ply``: kept when it gives the mover the most, then the deciding seat the least,
    then is the least packed outcome; True on a cut-off (the mover has the most it can get and
    the deciding seat the least, when ``PARAM_CUT_OFFS``)."""
    mover = nodes[ply, N_MOVER]
    decider = params[PARAM_DECIDER]
    fine = params[PARAM_LEAD_FINE]
    own = outcome_score(rows, result, mover, fine)
    theirs = outcome_score(rows, result, decider, fine)
    if nodes[ply, N_INDEX] == 0 or own > nodes[ply, N_ALPHA] or (
            own == nodes[ply, N_ALPHA] and (
                theirs < nodes[ply, N_BETA]
                or (theirs == nodes[ply, N_BETA] and result < nodes[ply, N_BEST]))):
        nodes[ply, N_BEST] = result
        nodes[ply, N_ALPHA] = own
        nodes[ply, N_BETA] = theirs
        nodes[ply, N_BEST_MOVE] = move
    return (params[PARAM_CUT_OFFS] != 0
            and nodes[ply, N_ALPHA] >= nodes[ply, N_WINDOW_ALPHA]
            and (mover == decider or nodes[ply, N_BETA] <= nodes[ply, N_WINDOW_BETA]))


@jit(inline="always")
def _store(table: Table, nodes: np.ndarray, ply: int, maxn: bool) -> None:
    """Store the searched node at ``ply`` in the transposition table when it has a slot (the
    start of a trick): max^n's exact outcome; the paranoid search's value as a bound (upper at
    or below the window, lower at or above it) or both, and the best move either way."""
    slot = nodes[ply, N_SLOT]
    if slot < 0:
        return
    best = nodes[ply, N_BEST]
    entry_key = nodes[ply, N_ENTRY]
    if maxn:
        table.keys[slot] = entry_key
        table.low[slot] = best
    else:
        if table.keys[slot] != entry_key:
            table.keys[slot] = entry_key
            table.low[slot] = -INFINITY
            table.high[slot] = INFINITY
        if best <= nodes[ply, N_WINDOW_ALPHA]:
            table.high[slot] = best
        elif best >= nodes[ply, N_WINDOW_BETA]:
            table.low[slot] = best
        else:
            table.low[slot] = best
            table.high[slot] = best
    table.move[slot] = nodes[ply, N_BEST_MOVE]


def _searcher(maxn: bool, name: str, doc: str) -> Callable[..., int]:
    """The search of one model, compiled: paranoid alpha-beta (``maxn`` False) or max^n. One
    loop serves both, ``maxn`` a constant of each compiled copy (a closure variable): numba
    prunes each ``if maxn`` branch before it types the function, so each copy holds only its
    own model's lines (``rows`` may be the one row of the paranoid search or every position's
    of max^n) and runs as fast as the two loops written apart did: side by side on the same
    recorded positions (``benchmarks/solver_ab.py``, the same values and nodes) the paranoid
    search took 0.83-0.99 of their time and max^n 0.60-0.73, and the first call compiles in
    the same time. ``name`` names the copy (numba's cache keeps each apart). The loop's four
    steps are marked in it; two are functions (``_back_up``, ``_store``), and why the other two
    are not is told above.

    Both take the same arguments: ``rows``, the root (``stack.nodes[root]``) and its forced move,
    the explicit stack (``Stack``, ``_search_stack``), the transposition table (``Table``: the
    bounds of the paranoid search; max^n keeps one exact outcome, in ``low``, and reads no
    ``high``) and ``stats``.
    """

    def search(params: np.ndarray, rows: np.ndarray, zobrist: np.ndarray, hands: np.ndarray,
               root: int, forced_card: int, forced_option: int, stack: Stack, table: Table,
               stats: np.ndarray) -> int:
        nodes, played_cards, played_options, move_cards, move_options = stack
        table_keys, _, _, table_move = table
        players = params[PARAM_PLAYERS]
        decider = params[PARAM_DECIDER]
        fine = params[PARAM_LEAD_FINE]
        ply = root
        returning = False
        result = 0
        while True:
            if returning:  # the child of the node at ``ply`` has its value in ``result``
                mover = nodes[ply, N_MOVER]
                hands[mover] = nodes[ply, N_HAND]
                if stats[STAT_ABORTED]:
                    return 0
                index = nodes[ply, N_INDEX]
                move = move_cards[ply, index] * MOVE_RADIX + move_options[ply, index] + 1
                if maxn:
                    cut = _back_up_maxn(params, rows, nodes, ply, result, move)
                else:
                    cut = _back_up(params, nodes, ply, result, move)
                nodes[ply, N_INDEX] = nodes[ply, N_COUNT] if cut else index + 1
                returning = False
            elif nodes[ply, N_ENTERED] == 0:
                nodes[ply, N_ENTERED] = 1
                stats[STAT_NODES] += 1
                if stats[STAT_NODES] > params[PARAM_BUDGET]:
                    stats[STAT_ABORTED] = 1
                    return 0
                forced = ply == root and forced_card >= 0
                if maxn:
                    done, value = _enter_maxn(params, zobrist, hands, nodes, ply, forced, table)
                else:
                    done, value = _enter(params, rows, zobrist, hands, nodes, ply, forced, table)
                if done:
                    if ply == root:
                        return value
                    result = value
                    ply -= 1
                    returning = True
                    continue
                length = nodes[ply, N_LENGTH]
                mover = (nodes[ply, N_LEADER] + length) % players
                nodes[ply, N_MOVER] = mover
                left = popcount(hands[mover])
                if maxn:  # the most the mover and the least the decider can still get
                    packed = nodes[ply, N_TAKEN]
                    taken = (packed >> (SEAT_BITS * mover)) & TAKEN_MASK
                    _, highest, best_count = _reachable(rows[mover], taken, left)
                    nodes[ply, N_WINDOW_ALPHA] = highest
                    lowest, _, _ = _reachable(
                        rows[decider], (packed >> (SEAT_BITS * decider)) & TAKEN_MASK, left)
                    nodes[ply, N_WINDOW_BETA] = lowest + fine * popcount(hands[decider]
                                                                         & JOKER_BITS)
                else:
                    taken = nodes[ply, N_TAKEN]
                    _, _, best_count = _reachable(rows, taken, left)
                if forced:
                    move_cards[ply, 0] = forced_card
                    move_options[ply, 0] = forced_option
                    count = 1
                elif length == players:  # a keep node: keep or decline the trick
                    count = _keep_moves(move_cards, move_options, ply)
                else:
                    count = _generate(params, hands, mover, stack, ply, best_count > taken)
                    if not maxn:  # (a max^n node the table knows returned above)
                        slot = nodes[ply, N_SLOT]
                        if (slot >= 0 and table_keys[slot] == nodes[ply, N_ENTRY]
                                and table_move[slot] > 0):
                            _table_move_first(move_cards, move_options, ply, count,
                                              table_move[slot])
                nodes[ply, N_COUNT] = count
                nodes[ply, N_INDEX] = 0
                if not maxn:
                    nodes[ply, N_BEST] = -INFINITY if mover == decider else INFINITY
                    nodes[ply, N_BEST_MOVE] = 0
            if nodes[ply, N_INDEX] < nodes[ply, N_COUNT]:  # play the next move: open the child
                index = nodes[ply, N_INDEX]
                card = move_cards[ply, index]
                option = move_options[ply, index]
                mover = nodes[ply, N_MOVER]
                length = nodes[ply, N_LENGTH]
                leader = nodes[ply, N_LEADER]
                hand = hands[mover]
                nodes[ply, N_HAND] = hand
                taken = nodes[ply, N_TAKEN]
                child = ply + 1
                if length == players:  # keep or decline: the trick goes to its taker
                    winner = _kept_by(params, played_cards, played_options, nodes, ply, card)
                    _after_keep(nodes, ply, child, winner, params[PARAM_TRUMP])
                    if maxn:
                        nodes[child, N_TAKEN] = taken + (1 << (SEAT_BITS * winner))
                    else:
                        nodes[ply, N_FINE] = 0
                        nodes[child, N_ALPHA] = nodes[ply, N_ALPHA]
                        nodes[child, N_BETA] = nodes[ply, N_BETA]
                        nodes[child, N_TAKEN] = taken + (winner == decider)
                    ply = child
                    continue
                bit = 1 << card
                if maxn:  # a fined lead counts in the mover's bits of the outcome
                    if length == 0 and fine != 0 and lead_fine(card, popcount(hand), fine) != 0:
                        taken += 1 << (SEAT_BITS * mover + 6)
                else:  # the decider's fine counts in the value, the child's window moves by it
                    fined = 0
                    if length == 0 and mover == decider and fine != 0:
                        fined = lead_fine(card, popcount(hand), fine)
                    nodes[ply, N_FINE] = fined
                    nodes[child, N_ALPHA] = nodes[ply, N_ALPHA] - fined
                    nodes[child, N_BETA] = nodes[ply, N_BETA] - fined
                hands[mover] = hand & ~bit
                played_cards[ply] = card
                played_options[ply] = option
                led = nodes[ply, N_LED]
                new_led = led_suit_after(led, card, length, _call_of(option),
                                         _suit_of_call(option))
                new_trump = nodes[ply, N_TRUMP]
                if params[PARAM_CIRCULAR] and led < 0 and new_led >= 0:
                    new_trump = circular_trick_trump(new_led)
                nodes[child, N_PLAYED] = nodes[ply, N_PLAYED] | bit
                nodes[child, N_KEY] = nodes[ply, N_KEY] ^ zobrist[54 * mover + card]
                nodes[child, N_ENTERED] = 0
                if length + 1 < players:
                    nodes[child, N_LENGTH] = length + 1
                    nodes[child, N_LEADER] = leader
                    nodes[child, N_LED] = new_led
                    nodes[child, N_TRUMP] = new_trump
                    nodes[child, N_TAKEN] = taken
                else:
                    position = trick_winner(played_cards[child - players:child],
                                            played_options[child - players:child], players,
                                            new_led, new_trump, params[PARAM_TRUMP_WINS] != 0,
                                            params[PARAM_TWO_JOKERS], -1)
                    if params[PARAM_KEEP] and may_decline(played_cards[child - players],
                                                          position):
                        _open_keep(nodes, child, players, leader, new_led, new_trump, taken)
                        ply = child
                        continue
                    winner = (leader + position) % players
                    nodes[child, N_LENGTH] = 0
                    nodes[child, N_LEADER] = winner
                    nodes[child, N_LED] = -1
                    nodes[child, N_TRUMP] = params[PARAM_TRUMP]
                    if maxn:
                        nodes[child, N_TAKEN] = taken + (1 << (SEAT_BITS * winner))
                    else:
                        nodes[child, N_TAKEN] = taken + (winner == decider)
                ply = child
                continue
            # every move searched (or cut off): store the node in the table, return its value
            _store(table, nodes, ply, maxn)
            if ply == root:
                return nodes[ply, N_BEST]
            result = nodes[ply, N_BEST]
            ply -= 1
            returning = True

    search.__name__ = search.__qualname__ = name
    search.__doc__ = doc
    return jit()(search)


_search = _searcher(False, "_search", """The value for the deciding seat of the node set up at
    ``nodes[root]``, after the forced move when ``forced_card`` >= 0 (alpha-beta, fail-soft, on an
    explicit stack: numba's cache cannot hold a recursive function). The cards of a trick are the
    moves of the plies before: ``played_cards[ply - k]`` is the ``k``-th last card played (the
    trick under way at the root is written below it).""")

_search_maxn = _searcher(True, "_search_maxn", """The packed outcome (every position's final
    tricks and fines) of the node at ``nodes[root]`` when every seat plays for its own points
    (max^n, Luckhardt and Irani 1986): the seat to move takes the move whose outcome gives it the
    most, and among those the one that gives the deciding seat the least, and among those the
    least packed outcome (a total order, so the outcome is one and the same whatever the order of
    the moves). With ``params[PARAM_CUT_OFFS]`` a node stops once its mover has the most it can
    get and the deciding seat the least: the deciding seat's points are then settled, though not
    always which of the outcomes equal for both is taken, which a seat further up may weigh
    differently (faster, and a value that may differ from the exact one in those ties). On the
    explicit stack of ``_search``; ``nodes[ply, N_TAKEN]`` holds the packed outcome so far,
    ``N_ALPHA`` and ``N_BETA`` the best child's points for the mover and for the deciding seat,
    ``N_WINDOW_ALPHA`` and ``N_WINDOW_BETA`` the most the mover and the least the deciding seat
    can still get (a cut-off once both are reached).""")


@jit()
def _search_stack(params: np.ndarray, zobrist: np.ndarray, position: Position
                  ) -> tuple[int, Stack]:
    """What both searches start from: the position's Zobrist key (over every hand), and the
    explicit stack, one ply a card still to play (nodes, the cards played on the way, the trick
    under way already in place, move lists)."""
    players = params[PARAM_PLAYERS]
    hands = position.hands
    trick_length = position.trick_length
    key = 0
    for seat in range(players):
        hand = hands[seat]
        while hand:
            low = hand & -hand
            key ^= zobrist[54 * seat + popcount(low - 1)]
            hand ^= low
    plies = trick_length + 2
    for seat in range(players):
        plies += popcount(hands[seat])
    plies += plies // max(players, 1) + 1  # a keep node after each trick at most
    move_cards = np.empty((plies, MAX_MOVES), dtype=np.int64)
    move_options = np.empty((plies, MAX_MOVES), dtype=np.int64)
    nodes = np.zeros((plies, NODE_FIELDS), dtype=np.int64)
    played_cards = np.zeros(plies, dtype=np.int64)
    played_options = np.zeros(plies, dtype=np.int64)
    for index in range(trick_length):
        played_cards[index] = position.trick_cards[index]
        played_options[index] = position.trick_options[index]
    return key, Stack(nodes, played_cards, played_options, move_cards, move_options)


@jit()
def _set_root(nodes: np.ndarray, position: Position, key: int) -> None:
    """Set up the root node of a search (at ``position.trick_length``) from the position, its
    window the widest."""
    root = position.trick_length
    nodes[root, N_LENGTH] = root
    nodes[root, N_LEADER] = position.leader
    nodes[root, N_LED] = position.led_suit
    nodes[root, N_TRUMP] = position.trick_trump
    nodes[root, N_PLAYED] = position.played
    nodes[root, N_TAKEN] = position.taken
    nodes[root, N_KEY] = key
    nodes[root, N_ALPHA] = -INFINITY
    nodes[root, N_BETA] = INFINITY
    nodes[root, N_ENTERED] = 0


@jit()
def solve_moves(params: np.ndarray, row: np.ndarray, zobrist: np.ndarray, position: Position,
                cards: np.ndarray, options: np.ndarray, values: np.ndarray, table: Table,
                stats: np.ndarray) -> None:
    """The exact value of each move (``cards[i]``, Joker call option ``options[i]`` over
    ``codes.OPTIONS`` or -1) of the seat to move in ``position`` (``taken``: the deciding seat's
    tricks so far), into ``values``; see the module's docstring. With ``cards[0]`` -1 (one
    entry), the value of the position itself (every move searched). ``stats[1]`` is 1 when the
    node budget stopped the search (the values are then meaningless).
    """
    key, stack = _search_stack(params, zobrist, position)
    for index in range(len(cards)):
        _set_root(stack.nodes, position, key)
        values[index] = _search(params, row, zobrist, position.hands, position.trick_length,
                                cards[index], options[index], stack, table, stats)


@jit()
def solve_moves_maxn(params: np.ndarray, rows: np.ndarray, zobrist: np.ndarray,
                     position: Position, cards: np.ndarray, options: np.ndarray,
                     outcomes: np.ndarray, table: Table, stats: np.ndarray) -> None:
    """The packed max^n outcome (``SEAT_BITS`` a position: final tricks, Jokers led with a
    fine) after each move, as ``solve_moves`` gives values; ``rows[p]`` is position ``p``'s row
    of the score table for its bid and ``position.taken`` the packed tricks (and fined leads) so
    far. With ``cards[0]`` -1, the outcome of the position itself."""
    key, stack = _search_stack(params, zobrist, position)
    for index in range(len(cards)):
        _set_root(stack.nodes, position, key)
        outcomes[index] = _search_maxn(params, rows, zobrist, position.hands,
                                       position.trick_length, cards[index], options[index],
                                       stack, table, stats)


def new_table(bits: int = 18) -> Table:
    """An empty transposition table of ``2**bits`` entries."""
    size = 1 << bits
    return Table(np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
                 np.zeros(size, dtype=np.int64), np.full(size, -1, dtype=np.int64))


def zobrist_keys(players: int, seed: int = 0x5A17) -> np.ndarray:
    """Random 64-bit keys: one per (position, card), then one per leader and per trick count."""
    generator = np.random.default_rng(seed)
    count = 54 * players + players + 64
    return generator.integers(-(1 << 63), (1 << 63) - 1, size=count, dtype=np.int64)


__all__ = [
    "INFINITY", "MAXN_PLAYERS", "PARAMS", "SEAT_BITS", "Position", "Table",
    "circular_trick_trump", "led_suit_after", "new_table", "outcome_score", "solve_moves",
    "solve_moves_maxn", "trick_winner", "zobrist_keys",
]
