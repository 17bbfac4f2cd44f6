"""The rules of play, compiled: legal bids, legal cards, the Joker's calls, and who takes a trick.

Each rule is one compiled function (numba, cached: ``engine.core.compiling.jit``) over plain
integers (hands and card sets are ``int64`` bitmasks with the card ids of ``engine.cards``: bit
``suit * 13 + rank - 2``, Jokers 52 and 53), named for the rule, with the seed text it follows.
``engine.Game`` calls them for one game, the batch engine in compiled loops over thousands of games,
and the strategies' trick reasoning through ``card_key``: a rule is written here and nowhere else.

The trick is decided by a running maximum of ``card_key``: the card with the greatest key takes
it, the earliest among equal keys (so a trick nobody follows goes to its leader).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from ..cards import JOKER, JOKER_MASK
from .codes import (
    CALL_CARD,
    CALL_HIGH,
    CALL_HIGHEST,
    CALL_HIGHEST_CARD,
    CALL_LOWEST,
    CALL_LOWEST_TRUMP,
    CALL_ONE_TRUMP,
    CALL_RANK,
    CALL_TRUMPS,
    CARD_OPTION,
    HIGH_OPTION,
    HOOK_NO_EQUAL,
    HOOK_OVERBID,
    LOW_OPTION,
    NAMED_SHIFT,
)
from .compiling import jit

JOKER_BITS = JOKER_MASK
SUIT_BITS = (1 << 13) - 1
#: One card of each suit at the same rank (rank 2): shifted by ``rank - 2``, every card of a rank.
RANK_BITS = 1 | 1 << 13 | 1 << 26 | 1 << 39
TWO_JOKERS_SECOND_WINS, TWO_JOKERS_FIRST_WINS, TWO_JOKERS_OPPOSITE = range(3)
#: The legal-calls bit of a Joker declared as a card (``codes.CARD_OPTION``).
CARD_OPTION_BIT = 1 << CARD_OPTION


@jit(inline="always")
def suit_mask(suit: int) -> int:
    """The 13 cards of ``suit`` (0 for -1, no suit)."""
    if suit < 0:
        return 0
    return SUIT_BITS << (13 * suit)


def _bit_instruction(name: str):  # noqa: ANN202 - builds a numba intrinsic
    """A numba intrinsic of the processor's bit instruction ``llvm.<name>`` on an ``int64``
    (``ctpop``: set bits; ``cttz`` / ``ctlz``: zeros below the lowest / above the highest set
    bit, 64 for 0): one instruction where it is used, with nothing for numba to inline."""
    from numba.core import config

    if config.DISABLE_JIT:  # the interpreted core: the same counts from Python's integers
        return _PYTHON_BITS[name]

    @intrinsic
    def instruction(typingctx, mask):  # noqa: ANN001, ANN202 - numba's intrinsic protocol
        signature = types.int64(mask)

        def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202
            value = context.cast(builder, args[0], sig.args[0], types.int64)
            if name == "ctpop":
                return builder.ctpop(value)
            zero_undefined = context.get_constant(types.boolean, False)
            return getattr(builder, name)(value, zero_undefined)

        return signature, codegen

    return instruction


def _python_ctlz(mask: int) -> int:
    return 64 - (int(mask) & (1 << 64) - 1).bit_length()


def _python_cttz(mask: int) -> int:
    value = int(mask) & (1 << 64) - 1
    return (value & -value).bit_length() - 1 if value else 64


#: ``_bit_instruction``'s counts in Python, for a core run without numba (``NUMBA_DISABLE_JIT``)
_PYTHON_BITS = {"ctpop": lambda mask: (int(mask) & (1 << 64) - 1).bit_count(),
                "cttz": _python_cttz, "ctlz": _python_ctlz}

_ctpop, _cttz, _ctlz = (_bit_instruction(name) for name in ("ctpop", "cttz", "ctlz"))


@jit(inline="always")
def highest_bit(mask: int) -> int:
    """The highest set bit of a positive mask, as a mask."""
    return 1 << (63 - _ctlz(mask))


@jit(inline="always")
def highest_index(mask: int) -> int:
    """The index of the highest set bit of a mask below 2**63; -1 for 0."""
    if mask <= 0:
        return -1
    return 63 - _ctlz(mask)


@jit(inline="always")
def ix(index: int) -> np.uint64:
    """``index`` as an unsigned array index. numba tests every signed index for a negative value
    before the access (Python's ``a[-1]``) unless it can prove it is not; the compiled code's
    indices into the state, the plan and their work arrays are never negative, and an unsigned one
    skips the test. Every index computed at run time in ``machine``, ``deal`` and ``fastheuristic``
    (``strategies.policies.compiled``) goes through it: 15% of the batch loop's time
    (``docs/benchmarks.md``)."""
    return np.uint64(index)


@jit(inline="always")
def popcount(mask: int) -> int:
    """The number of set bits of a non-negative mask (the processor's ``popcnt``)."""
    return _ctpop(mask)


@jit(inline="always")
def bit_index(bit: int) -> int:
    """The index of a single set bit (64 for none)."""
    return _cttz(bit)


@jit(inline="always")
def is_high_call(call: int) -> bool:
    """A Joker played with this call takes the trick: high, highest <suit>, highest trumps, and
    every demand of any suit (highest card, lowest card, lowest trump, one trump each, a named
    rank: 000's fourth article names them beside «Также джокер может быть и младшей картой,
    которая не забирает взятку», so the demanding Joker is the one that takes it; 003 «сбросить
    карту определённого номинала»: the others discard to it; 000 l.84 «скинули по одному
    козырю», after which «Походивший с джокера может забрать взятку», l.87). A Joker declared as
    a card (``is_named_call``) is not high: it holds the trick as that card would
    (``card_key``)."""
    return (call == CALL_HIGH or call == CALL_HIGHEST or call == CALL_TRUMPS
            or CALL_HIGHEST_CARD <= call < CALL_CARD)


@jit(inline="always")
def is_named_call(call: int) -> bool:
    """A Joker played with this call was declared as a card (``joker.as_card``)."""
    return call >= CALL_CARD


@jit(inline="always")
def named_card(call: int) -> int:
    """The card a Joker declared as a card was named (``is_named_call``)."""
    return call >> NAMED_SHIFT


@jit()
def nameable_cards(deck: int) -> int:
    """The cards a Joker may be declared as (``joker.as_card``; 000 fifth article: «джокер может
    быть выдан за любую карту: любого ранга и масти. Например, за козырного туза или двойку
    треф»; 002: «выдав джокера за любую карту любой масти»): every ordinary card of the deck
    (``deck``: its mask), whoever holds it and whether or not it was played already. The texts
    name any card and bar none, so a card in the Joker's own hand, in another hand or played
    before may be named; nothing is shown about the hands by the name. A card the deck does not
    have (a two in a 36-card deck, a card removed or made the Joker) is not named: the deck's
    lowest card of a suit stands for it. The real card and the Joker named as it may meet in one
    trick: they hold it equally (``card_key``), and the earlier of the two keeps it."""
    return deck & ~JOKER_BITS


@jit()
def ranks_held(cards: int) -> int:
    """The ranks of the ordinary ``cards`` in any suit, as 13 bits (bit ``rank - 2``)."""
    cards &= ~JOKER_BITS
    return (cards | cards >> 13 | cards >> 26 | cards >> 39) & SUIT_BITS


@jit()
def cards_of_rank(cards: int, rank_index: int) -> int:
    """The cards of ``cards`` of rank ``rank_index + 2``, in every suit."""
    return cards & (RANK_BITS << rank_index)


@jit()
def any_suit_demand(ordinary: int, trumps: int, call: int) -> int:
    """The cards of ``ordinary`` (``trumps``: its trumps) that answer a Joker led with a demand of
    any suit.

    - "highest card" (000, second article: «походил самой старшей картой любой масти»; fourth:
      «по старшей карте»): a card of the highest rank held, in whichever suit the player chooses
      (the text names no suit, so suits do not rank among themselves);
    - "lowest card" (000: «скинул самую младшую карту», «по младшей карте»): a card of the lowest
      rank held, in any suit;
    - "lowest trump" (000, fourth article: «по младшему козырю»): the lowest trump; without a
      trump, any card (as "highest trumps": «Если таковых не окажется, то можно сбросить любую
      карту»);
    - "one trump each" (000, second article, l.84: «Запросить, чтоб игроки скинули по одному
      козырю»): a trump, whichever the player chooses (the text names none); without a trump,
      any card (as "highest trumps");
    - a named rank (003: «требовать сбросить карту определённого номинала, например туза»): a card
      of that rank, any of them; without one, any card (003: «Если требуемой масти или козыря
      нет, то можно положить любую карту»).
    """
    if call == CALL_LOWEST_TRUMP:
        return trumps & -trumps if trumps else ordinary
    if call == CALL_ONE_TRUMP:
        return trumps if trumps else ordinary
    if call >= CALL_RANK:
        named = cards_of_rank(ordinary, call - CALL_RANK)
        return named if named else ordinary
    ranks = ranks_held(ordinary)
    if ranks == 0:
        return ordinary
    if call == CALL_HIGHEST_CARD:
        return cards_of_rank(ordinary, highest_index(ranks))
    return cards_of_rank(ordinary, bit_index(ranks & -ranks))


@jit()
def follow_mask(hand: int, lead_card: int, lead_call: int, lead_suit: int, led_suit: int,
                trick_trump: int, must_trump: bool) -> int:
    """The ordinary cards of ``hand`` that may be played to a trick under way.

    Follow the led suit; void in it, trump if trumping is obligatory (004: «бить козырем ... если
    нет масти, но есть козырь») and you can; else anything. After a Joker led "highest <suit>" /
    "lowest <suit>" (000, 002, 003: «по старшим пикам») the suit's highest (lowest) card, failing
    that a trump where obligatory, failing that anything; after "highest trumps" (000) the highest
    trump, failing that anything; after a demand of any suit (highest card, lowest card, lowest
    trump, one trump each, a named rank) ``any_suit_demand``; after a Joker led as a named card
    its suit is led and followed as the card's own (000, 002). The Joker itself is never bound
    by these (``legal_cards``).
    """
    ordinary = hand & ~JOKER_BITS
    trumps = ordinary & suit_mask(trick_trump)
    if lead_card >= JOKER and CALL_HIGHEST_CARD <= lead_call < CALL_CARD:
        return any_suit_demand(ordinary, trumps, lead_call)
    if lead_card >= JOKER and (lead_call == CALL_HIGHEST or lead_call == CALL_LOWEST):
        suited = ordinary & suit_mask(lead_suit)
        if suited:
            if lead_call == CALL_HIGHEST:
                return highest_bit(suited)
            return suited & -suited
        if must_trump and trumps:
            return trumps
        return ordinary
    if lead_card >= JOKER and lead_call == CALL_TRUMPS:
        if trumps:
            return highest_bit(trumps)
        return ordinary
    if led_suit < 0:
        return ordinary
    suited = ordinary & suit_mask(led_suit)
    if suited:
        return suited
    if must_trump and trumps:
        return trumps
    return ordinary


@jit()
def joker_locked(lock_card: int, played: int) -> bool:
    """The Joker may not be played until ``lock_card`` has been (003: «пока не вышла дама пик»);
    -1: never locked."""
    return lock_card >= 0 and not (played >> lock_card) & 1


@jit(inline="always")
def led_suit_after(led_suit: int, card: int, position: int, call: int, call_suit: int) -> int:
    """The led suit once ``card`` is played ``position``-th in a trick: the first ordinary card
    sets it (after a Joker led without a suit, 002 Joker-52), unless a Joker led with a suit
    (``call_suit``, 003) set it first. A Joker declared as a card (``call``) takes the card's
    place, so it sets the led suit as that card would, led or after such a Joker."""
    if led_suit >= 0:
        return led_suit
    if card < JOKER:
        return card // 13
    if is_named_call(call):
        return named_card(call) // 13
    if position == 0 and call_suit >= 0:
        return call_suit
    return -1


@jit()
def circular_trick_trump(led_suit: int) -> int:
    """Under circular trumps (000, 002) the trick's trump: the suit after the led suit."""
    return (led_suit + 1) % 4


@jit()
def legal_cards(hand: int, trick_length: int, lead_card: int, lead_call: int, lead_suit: int,
                led_suit: int, trick_trump: int, must_trump: bool, lock_card: int,
                played: int) -> int:
    """Every card of ``hand`` that may be played now (the Jokers' bits included when they may be
    played): any ordinary card on the lead, ``follow_mask`` otherwise, and the Jokers at any time
    (000, 002, 003) unless locked while another card can be played."""
    if trick_length:
        cards = follow_mask(hand, lead_card, lead_call, lead_suit, led_suit, trick_trump,
                            must_trump)
    else:
        cards = hand & ~JOKER_BITS
    jokers = hand & JOKER_BITS
    if jokers and cards and joker_locked(lock_card, played):
        jokers = 0
    return cards | jokers


@jit()
def follow_calls(two_jokers: int, first_joker_call: int) -> int:
    """The calls a Joker may be played with after the lead, as options over ``codes.OPTIONS``:
    high (takes the trick) or low (gives it away); under 002's Joker-52 rule the second Joker of a
    trick takes the opposite value of the first (``first_joker_call`` -1: none played yet)."""
    if two_jokers == TWO_JOKERS_OPPOSITE and first_joker_call >= 0:
        return LOW_OPTION if is_high_call(first_joker_call) else HIGH_OPTION
    return HIGH_OPTION | LOW_OPTION


@jit()
def follow_calls_named(two_jokers: int, first_joker_call: int, nameable: int) -> int:
    """``follow_calls``, and where the Joker may be declared as a card (``nameable``: the cards
    of ``nameable_cards``, 0 when ``joker.as_card`` is off) the card option too: «обладатель
    джокера может в любой момент ... скинуть ненужную ему карту, выдав джокера за любую карту
    любой масти» (002). Under 002's Joker-52 rule the second Joker of a trick only takes the
    opposite value of the first (a first one declared as a card is not high: the second is)."""
    calls = follow_calls(two_jokers, first_joker_call)
    if nameable and calls == HIGH_OPTION | LOW_OPTION:
        calls |= CARD_OPTION_BIT
    return calls


@jit(inline="always")
def trumps_beat_demand(lead_card: int, lead_call: int, lead_suit: int, trick_trump: int,
                       trump_wins: bool) -> bool:
    """After a Joker led "highest <suit>", a trump played by a void player beats the Joker, when
    so agreed before the game (000: ``joker.demand_trumped = trump_wins``); not when the demanded
    suit is trump itself."""
    return (trump_wins and lead_card >= JOKER and lead_call == CALL_HIGHEST and trick_trump >= 0
            and trick_trump != lead_suit)


@jit(inline="always")
def suit_rank(suit: int, led_suit: int, trick_trump: int, beats: bool) -> int:
    """What an ordinary card of ``suit`` counts for in a trick: a trump 200 (2000 when ``beats``:
    trumps beat the leading Joker's demand), the led suit 100, any other suit -1 (it cannot take
    the trick). An ordinary card's ``card_key`` is this plus the card id."""
    if suit == trick_trump:
        return 2000 if beats else 200
    if suit == led_suit:
        return 100
    return -1


@jit(inline="always")
def card_key(card: int, call: int, position: int, led_suit: int, trick_trump: int,
             beats: bool, two_jokers: int) -> int:
    """How strongly a card played ``position``-th in a trick holds it; the greatest key wins.

    A trump: 200 + card (2000 + card when ``beats``: trumps beat the leading Joker's demand); a
    card of the led suit: 100 + card; another ordinary card or a low Joker: -1 (``suit_rank``).
    A high Joker: 1000 + position (a later high Joker beats an earlier one), or 1000 - position
    when the first one keeps the trick (``two_jokers`` first_wins). When ``beats``, only the
    leading Joker falls to a trump: a second Joker played high is still high and beats every
    trump (3000 + position). A Joker declared as a card (``is_named_call``: 000, 002) has that
    card's key: it beats what the card beats and loses to what beats it, and it ties with the
    real card, the earlier of the two keeping the trick.
    """
    if card >= JOKER and is_named_call(call):
        card = named_card(call)
    if card >= JOKER:
        if not is_high_call(call):
            return -1
        if two_jokers == TWO_JOKERS_FIRST_WINS:
            return 1000 - position
        if beats and position > 0:
            return 3000 + position
        return 1000 + position
    rank = suit_rank(card // 13, led_suit, trick_trump, beats)
    if rank < 0:
        return -1
    return rank + card


@jit(inline="always")
def trick_best(cards: np.ndarray, calls: np.ndarray, suits: np.ndarray, count: int,
               led_suit: int, trick_trump: int, trump_wins: bool, two_jokers: int,
               skip: int) -> tuple[int, int, bool]:
    """(position, key, beats) of the card holding a trick of ``count`` cards so far (``cards``,
    their ``calls``, ``call_value``s, and ``suits`` by position): the greatest ``card_key``, the
    earliest among equals, and whether trumps beat the leading Joker's demand
    (``trumps_beat_demand``); with ``skip`` the best of the other cards (000: a Joker's player
    who declines the trick). (0, -2, False) before the lead. The one copy: the machine reads its
    trick slots with it (``machine.best_in_trick``), the scalar heuristic a trick's records
    (``strategies.players.tactics.trick_view``)."""
    beats = count > 0 and trumps_beat_demand(cards[0], calls[0], suits[0], trick_trump,
                                             trump_wins)
    best, best_key = 0, -2
    for index in range(count):
        if index == skip:
            continue
        key = card_key(cards[index], calls[index], index, led_suit, trick_trump, beats,
                       two_jokers)
        if key > best_key:
            best, best_key = index, key
    return best, best_key, beats


@jit(inline="always")
def may_decline(lead_card: int, winner_position: int) -> bool:
    """Whether the player who led the trick may decline it (``joker.lead_choice``, 000: «Походивший
    с джокера может забрать взятку, либо отказаться от нее»): it led a Joker, and the Joker holds
    the trick (``card_key``); a trick the Joker does not hold is not its to keep."""
    return lead_card >= JOKER and winner_position == 0


@jit()
def legal_bids(hand_size: int, min_bid: int, hook: int, last: bool, others: int,
               passes_in_row: int, pass_limit: int) -> int:
    """The legal bids as a mask (bit ``b``: bid ``b``) of a bidder; ``hand_size``: the tricks the
    deal plays (the hand, and the rounds drawn from the stock: ``deal.deal_tricks``).

    0 (the pass) .. the tricks, from the kind's minimum bid (003: no pass in the dark deals). The
    last bidder's hook: the bids may not add up to the tricks (000: «не сходимся»), or under
    ``overbid`` must exceed them (003's dark deals), where no bid can, at least not meet them. No
    more passes in a row than ``pass_limit`` (003: two; -1 for no limit), unless nothing else is
    legal.
    """
    lowest = min_bid if min_bid < hand_size else hand_size
    mask = ((1 << (hand_size + 1)) - 1) ^ ((1 << lowest) - 1)
    if last:
        forbidden = hand_size - others
        no_equal = mask
        if forbidden >= 0:
            no_equal = mask & ~(1 << forbidden)
        if hook == HOOK_NO_EQUAL:
            if no_equal:
                mask = no_equal
        elif hook == HOOK_OVERBID:
            need = hand_size - others + 1  # the smallest bid that makes the sum exceed the tricks
            over = mask
            if need > 0:
                over = mask & ~((1 << need) - 1) if need < 63 else 0
            if over:
                mask = over
            elif no_equal:
                mask = no_equal
    if pass_limit >= 0 and passes_in_row >= pass_limit and mask & 1 and mask != 1:
        mask &= ~1
    return mask


@jit()
def hook_binds(hand_size: int, min_bid: int, others: int) -> bool:
    """The dealer's hook took away a bid that would otherwise have been open to the last bidder
    (the bid that makes the sum equal the tricks is within its range)."""
    lowest = min_bid if min_bid < hand_size else hand_size
    return lowest <= hand_size - others


@jit(inline="always")
def _suit_winners(cards: int, best_key: int, suit: int, led_suit: int, trick_trump: int,
                  beats: bool) -> int:
    """The cards of ``suit`` in ``cards`` whose ``suit_rank`` plus card id exceeds ``best_key``."""
    if suit < 0:
        return 0
    rank = suit_rank(suit, led_suit, trick_trump, beats)
    if rank < 0:
        return 0
    lowest = best_key - rank + 1  # the smallest card id whose key beats best_key
    if lowest >= 63:
        return 0
    above = -1 if lowest <= 0 else -(1 << lowest)
    return cards & suit_mask(suit) & above


@jit(inline="always")
def winning_cards(cards: int, best_key: int, position: int, led_suit: int, trick_trump: int,
                  beats: bool, two_jokers: int) -> int:
    """The ordinary cards of ``cards`` that, played ``position``-th, would take the trick from its
    best ``card_key`` so far. Only the trump and the led suit have a ``suit_rank``; after a Joker
    led without a suit the first ordinary card sets the led suit (002 Joker-52), so every suit
    counts as led then."""
    if led_suit >= 0:
        winners = _suit_winners(cards, best_key, led_suit, led_suit, trick_trump, beats)
        if trick_trump != led_suit:
            winners |= _suit_winners(cards, best_key, trick_trump, led_suit, trick_trump, beats)
        return winners
    winners = 0
    for suit in range(4):
        winners |= _suit_winners(cards, best_key, suit, suit, trick_trump, beats)
    return winners


@jit()
def cards_ruled_out(card: int, candidates: int, lead_card: int, lead_call: int, lead_suit: int,
                    led_suit: int, trick_trump: int, must_trump: bool) -> int:
    """The cards of ``candidates`` that a player who followed a trick with ``card`` cannot hold:
    every card whose presence in the hand would have made ``card`` illegal (``follow_mask``): the
    led suit after a discard, the trumps after a discard where trumping is obligatory, the higher
    (lower) cards of a suit demanded highest (lowest) by a Joker. Jokers are never ruled out."""
    ruled_out = 0
    bit = 1 << card
    mask = candidates & ~JOKER_BITS & ~bit
    while mask:
        low = mask & -mask
        if not follow_mask(low | bit, lead_card, lead_call, lead_suit, led_suit, trick_trump,
                           must_trump) & bit:
            ruled_out |= low
        mask ^= low
    return ruled_out


MEMORY_FULL, MEMORY_OWN_AND_LAST, MEMORY_LAST, MEMORY_NONE, MEMORY_OWN = range(5)
MEMORY_CODES = {"full": MEMORY_FULL, "own_and_last": MEMORY_OWN_AND_LAST, "last": MEMORY_LAST,
                "none": MEMORY_NONE, "own": MEMORY_OWN}


@jit()
def trick_visible(memory: int, own: bool, last: bool) -> bool:
    """Whether a seat may look back at a finished trick of the deal (``play.memory``, RULES §8):
    every trick; its own and the last one (003: «за исключением последней взятки ... Свои взятки
    можно смотреть»); only the last; none (000: «строго "в закрытую", нельзя даже смотреть на
    свои предыдущие взятки»); or its own only (000: «подглядывать в свои взятки», 002:
    «Заглядывать в свои взятки обычно разрешается»). ``own``: the seat took it; ``last``: the
    last trick finished."""
    if memory == MEMORY_FULL:
        return True
    if memory == MEMORY_OWN_AND_LAST:
        return own or last
    if memory == MEMORY_LAST:
        return last
    if memory == MEMORY_OWN:
        return own
    return False
