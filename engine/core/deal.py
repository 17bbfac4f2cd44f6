"""The deal, compiled: the seeded shuffle, the first dealer, dealing the cards, the trump, the lead.

Chance is counter-based (``engine.rng``): a shuffle sorts the deck by the SplitMix64 hash of each
card under the deal's key, ties by card id, so the same seed gives the same deal in every engine.
The functions work on one game; the batch engine loops them over its games
(``engine.batch.kernels``), ``engine.Game`` calls them for its one game.
"""

from __future__ import annotations

import numpy as np
from numba import int64, uint64

from ..cards import JOKER, JOKER_MASK
from .codes import (
    TRUMP_CIRCULAR,
    TRUMP_FIXED,
    TRUMP_LAST_DEALT,
    TRUMP_NAMED,
    TRUMP_NONE,
)
from .compiling import jit
from .rules import ix, popcount

#: How the trump was chosen, as codes (``engine.Game.trump_how`` prints them as text).
HOW_NONE, HOW_FIXED, HOW_CIRCULAR, HOW_LAST_DEALT, HOW_TURNED, HOW_JOKER_NONE, HOW_NAMED = range(7)
HOW_TEXT = ("none", "fixed", "circular", "last dealt", "turned", "joker: none", "named")
#: First-dealer rules (``table.first_dealer``).
FIRST_DEALER_LOT, FIRST_DEALER_FIRST_ACE, FIRST_DEALER_SEAT0 = range(3)
FIRST_DEALER_CODES = {"lot": FIRST_DEALER_LOT, "first_ace": FIRST_DEALER_FIRST_ACE,
                      "seat0": FIRST_DEALER_SEAT0}

#: SplitMix64's increment (the golden ratio in 64 bits), also the shuffle's card multiplier
GOLDEN = uint64(0x9E3779B97F4A7C15)
_MULTIPLIER_1 = uint64(0xBF58476D1CE4E5B9)
_MULTIPLIER_2 = uint64(0x94D049BB133111EB)


@jit(inline="always")
def splitmix64(value: np.uint64) -> np.uint64:
    """One SplitMix64 output (Steele, Lea, Flood 2014): the one definition of the mixer behind
    all of raspis's chance. ``engine.rng.splitmix64`` calls it for a Python int, ``splitmix64_each``
    for every element of an array (``engine.batch.rng``), compiled code inlines it."""
    z = value + GOLDEN
    z = (z ^ (z >> uint64(30))) * _MULTIPLIER_1
    z = (z ^ (z >> uint64(27))) * _MULTIPLIER_2
    return z ^ (z >> uint64(31))


@jit()
def splitmix64_each(values: np.ndarray) -> None:
    """``splitmix64`` of every element of a one-dimensional ``uint64`` array, in place."""
    for index in range(len(values)):
        values[ix(index)] = splitmix64(values[ix(index)])


@jit()
def shuffle(cards: np.ndarray, key: np.uint64, out: np.ndarray) -> None:
    """``cards`` (ascending ids) in the order of the shuffle with ``key``: sorted by
    ``splitmix64(key ^ card * GOLDEN)``, ties (never seen in practice) by card id."""
    shuffle_with(cards, key, out, np.empty(SHUFFLE_SCRATCH + 2 * len(cards), dtype=np.int64))


#: working space of ``shuffle_with`` beyond twice the cards
SHUFFLE_SCRATCH = 128
#: ``shuffle_with``'s buckets: the top 12 bits of a hash, 64 words of 64 bits
_BUCKET_SHIFT = uint64(52)


@jit(inline="always")
def shuffle_with(cards: np.ndarray, key: np.uint64, out: np.ndarray,
                 scratch: np.ndarray) -> None:
    """``shuffle`` with working space of its own (``SHUFFLE_SCRATCH + 2 * len(cards)``
    entries). Each card's hash falls in one of 4,096 buckets (its top 12 bits), marked in a
    bitmap; where no two cards share a bucket (six deals in seven of 36 cards) a card's place is
    the number of marked buckets below its own, counted with the processor's ``popcnt``, with no
    branch on the data; else the full sort (``_sort_hashes``)."""
    count = len(cards)
    words, below = count, count + 64
    scratch[words:words + 64] = 0
    for index in range(count):
        hashed = splitmix64(key ^ (uint64(cards[ix(index)]) * GOLDEN))
        scratch[ix(index)] = int64(hashed >> _BUCKET_SHIFT)
    shared = 0
    for index in range(count):
        bucket = scratch[ix(index)]
        bit = 1 << (bucket & 63)
        shared |= scratch[ix(words + (bucket >> 6))] & bit
        scratch[ix(words + (bucket >> 6))] |= bit
    if shared:
        _sort_hashes(cards, key, out, scratch)
        return
    marked = 0
    for word in range(64):
        scratch[ix(below + word)] = marked
        marked += popcount(scratch[ix(words + word)])
    for index in range(count):
        bucket = scratch[ix(index)]
        word = bucket >> 6
        lower = scratch[ix(words + word)] & ((1 << (bucket & 63)) - 1)  # marked below, same word
        out[ix(scratch[ix(below + word)] + popcount(lower))] = cards[ix(index)]


@jit()
def _sort_hashes(cards: np.ndarray, key: np.uint64, out: np.ndarray,
                 scratch: np.ndarray) -> None:
    """``shuffle_with`` where two cards share a bucket: a counting pass on the top 6 bits of the
    hashes, then insertion within the buckets (``2 * len(cards) + 65`` entries of ``scratch``)."""
    count = len(cards)
    hashes = scratch[:count].view(np.uint64)
    keys = scratch[count:2 * count].view(np.uint64)
    starts = scratch[2 * count:2 * count + 65]
    starts[:] = 0
    for index in range(count):
        value = splitmix64(key ^ (uint64(cards[ix(index)]) * GOLDEN))
        keys[ix(index)] = value
        starts[(value >> uint64(58)) + uint64(1)] += 1
    for bucket in range(64):  # bucket starts, in card order within a bucket
        starts[ix(bucket + 1)] += starts[ix(bucket)]
    for index in range(count):
        bucket = keys[ix(index)] >> uint64(58)  # unsigned already
        at = starts[bucket]
        starts[bucket] = at + 1
        hashes[ix(at)] = keys[ix(index)]
        out[ix(at)] = cards[ix(index)]
    for index in range(1, count):  # a few moves at most
        value = hashes[ix(index)]
        card = out[ix(index)]
        at = index
        while at > 0 and hashes[ix(at - 1)] > value:  # equal hashes keep card order
            hashes[ix(at)] = hashes[ix(at - 1)]
            out[ix(at)] = out[ix(at - 1)]
            at -= 1
        hashes[ix(at)] = value
        out[ix(at)] = card


@jit()
def forehead_cards(hand: int, count: int, key: np.uint64) -> int:
    """The ``count`` cards of ``hand`` its holder shows the others without looking, drawn at
    random (lobovaya, 000: «Покеристы наугад выбирают одну карту и клеят ее себе на лоб»; 002,
    003): the first ``count`` cards of the hand in the order of the shuffle with ``key``
    (``engine.rng.forehead_key``: the smallest ``splitmix64(key ^ card * GOLDEN)``, ties by card
    id), the whole hand if it is smaller."""
    shown = 0
    for _ in range(count):
        best = -1
        best_value = uint64(0)
        for card in range(54):
            if hand >> card & 1 and not shown >> card & 1:
                value = splitmix64(key ^ (uint64(card) * GOLDEN))
                if best < 0 or value < best_value:
                    best, best_value = card, value
        if best < 0:
            break
        shown |= 1 << best
    return shown


@jit()
def first_dealer(deck: np.ndarray, players: int, how: int) -> int:
    """The first dealer from the lot's shuffled ``deck``: everyone draws and the highest card
    deals, tied players drawing again (000, 002); or cards dealt face up round the table until an
    ace comes (002, Georgian Joker); or seat 0."""
    if how == FIRST_DEALER_SEAT0:
        return 0
    if how == FIRST_DEALER_FIRST_ACE:
        for position in range(len(deck)):
            card = deck[ix(position)]
            if card < JOKER and card % 13 + 2 == 14:
                return position % players
        return 0
    contenders = np.ones(players, dtype=np.bool_)
    left = players
    position = 0
    while left > 1 and position + left <= len(deck):
        best = -1
        drawn = np.full(players, -1, dtype=np.int64)
        for seat in range(players):
            if contenders[seat]:
                card = deck[ix(position)]
                position += 1
                drawn[seat] = card % 13 + 2 if card < JOKER else 15
                if drawn[seat] > best:
                    best = drawn[seat]
        left = 0
        for seat in range(players):
            contenders[seat] = contenders[seat] and drawn[seat] == best
            left += contenders[seat]
    for seat in range(players):
        if contenders[seat]:
            return seat
    return 0


@jit(inline="always")
def deal_hands(deck: np.ndarray, hand_size: int, participants: int, first_rounds: int,
               hands: np.ndarray, first_cards: np.ndarray) -> None:
    """Deal ``hand_size`` cards one at a time round the ``participants`` (by position from the
    dealer's left, the dealer last: RULES §1) from the shuffled ``deck``; ``first_cards`` gets each
    hand's cards of the first ``first_rounds`` rounds (002: trump named after three cards)."""
    for position in range(participants):
        hands[ix(position)] = 0
        first_cards[ix(position)] = 0
    for round_number in range(hand_size):
        for position in range(participants):
            bit = 1 << deck[ix(round_number * participants + position)]
            hands[ix(position)] |= bit
            if round_number < first_rounds:
                first_cards[ix(position)] |= bit


@jit(inline="always")
def trump_of_deal(rule: int, last_dealt: int, turned: int, fixed_suit: int,
                  dealer_names_on_joker: bool) -> tuple[int, int, int, int]:
    """(trump suit or -1, card shown or -1, how (``HOW_*``), who names it: 0 nobody, 1 the player
    left of the dealer, 2 the dealer) of a deal whose trump ``rule`` is the plan's
    ``trump_rule``: the card turned after the deal (all seeds), the dealer's last card when the
    deck is dealt out (000), a fixed suit, circular, none, or named; a Joker shown means no trump
    (all seeds) or the dealer names it (003)."""
    if rule == TRUMP_NONE:
        return -1, -1, HOW_NONE, 0
    if rule == TRUMP_NAMED:
        return -1, -1, HOW_NAMED, 1
    if rule == TRUMP_FIXED:
        return fixed_suit, -1, HOW_FIXED, 0
    if rule == TRUMP_CIRCULAR:
        return -1, -1, HOW_CIRCULAR, 0
    card = last_dealt if rule == TRUMP_LAST_DEALT else turned
    how = HOW_LAST_DEALT if rule == TRUMP_LAST_DEALT else HOW_TURNED
    if card >= JOKER:
        if dealer_names_on_joker:
            return -1, card, HOW_NAMED, 2
        return -1, card, HOW_JOKER_NONE, 0
    return card // 13, card, how, 0


@jit(inline="always")
def seated_leader(dealer_position: int, dealer_leads: bool) -> int:
    """The position (0 = left of the dealer) that leads the first trick by the seating alone: the
    dealer's left, or the dealer where the variant says so and the dealer plays (002 Joker-52).
    ``first_leader`` is the whole rule: this, unless the Joker's holder leads (000's no-trump
    deals), which depends on the cards; a bidder, who cannot see them, expects this."""
    if dealer_leads and dealer_position >= 0:
        return dealer_position
    return 0


@jit()
def first_leader(hands: np.ndarray, participants: int, dealer_position: int,
                 dealer_leads: bool, joker_holder_leads: bool) -> int:
    """The position (0 = left of the dealer) that leads the first trick: the dealer's left, or the
    dealer (002 Joker-52), or in a no-trump deal of 000 the holder of a Joker."""
    leader = seated_leader(dealer_position, dealer_leads)
    if joker_holder_leads:
        for position in range(participants):
            if hands[ix(position)] & JOKER_MASK:
                return position
    return leader


@jit(inline="always")
def stock_after_deal(deck: np.ndarray, used: int, turned: bool, under_stock: bool,
                     out: np.ndarray) -> int:
    """The stock once ``used`` cards of the shuffled ``deck`` are dealt, in drawing order, into
    ``out``; returns its length. A card ``turned`` for trump (the card after the dealt ones) lies
    face up out of play, or, where the players draw after each trick, under the stock, drawn last
    (002 Joker-52: «Поперек этой карты кладется колода в закрытом виде, также как и при игре в
    Дурака»)."""
    start = used + 1 if turned else used
    count = 0
    for index in range(start, len(deck)):
        out[ix(count)] = deck[ix(index)]
        count += 1
    if turned and under_stock and used < len(deck):
        out[ix(count)] = deck[ix(used)]
        count += 1
    return count


@jit()
def deal_tricks(hand_size: int, participants: int, stock: int, draws: bool) -> int:
    """Tricks a deal plays: the hand, and where every player draws a card from the stock after each
    trick (002 Joker-52: «После чего игроки берут по одной карте из оставшейся колоды») one more
    for each full round of draws the ``stock`` gives (the turned card included: it is drawn
    last); a stock too short for everyone is not drawn from."""
    if not draws or participants <= 0:
        return hand_size
    return hand_size + max(stock, 0) // participants


@jit()
def sample_hands(known: np.ndarray, missing: np.ndarray, forbidden: np.ndarray, pool: np.ndarray,
                 rest: int, seed: int, count: int, hands: np.ndarray) -> int:
    """Deal ``count`` guesses of the hidden cards into ``hands`` (``count`` x seats): each seat
    keeps ``known[s]`` and gets ``missing[s]`` cards of ``pool`` (the cards the observing seat has
    not seen), none of ``forbidden[s]`` (its shown voids), the other ``rest`` cards of the pool
    going to nobody (the stock, the hidden tricks). The one deal of a guess, used by
    ``engine.determinize.HandSampler`` (for ``determinize.resample`` and the search strategies) and
    by ``strategies.players.mc`` for many guesses at once: the most constrained cards first, each
    card to a seat (or to the rest) with chance in proportion to the room left there among the
    places it may go, which with nothing forbidden is a uniform deal; a dead end deals the guess
    again (20 tries, then the voids are ignored). ``seed`` is the generator's state (an ``int64``
    view); returns its next state."""
    seats = known.shape[0]
    size = pool.shape[0]
    constraint = np.zeros(size, dtype=np.int64)
    for index in range(size):
        bit = np.int64(1) << pool[index]
        for other in range(seats):
            if missing[other] and forbidden[other] & bit:
                constraint[index] += 1
    cards = pool[np.argsort(-constraint, kind="mergesort")]
    room = np.zeros(seats, dtype=np.int64)
    state = np.uint64(seed)
    for guess in range(count):
        for attempt in range(21):
            strict = attempt < 20
            for other in range(seats):
                hands[guess, other] = known[other]
                room[other] = missing[other]
            left = rest
            ok = True
            for position in range(size):
                bit = np.int64(1) << cards[position]
                total = left
                for other in range(seats):
                    if room[other] and not (strict and forbidden[other] & bit):
                        total += room[other]
                if total == 0:
                    ok = False
                    break
                word = splitmix64(state)  # one step of the SplitMix64 generator
                state = state + GOLDEN
                pick = np.int64(word % np.uint64(total))
                if pick < left:
                    left -= 1
                    continue
                pick -= left
                for other in range(seats):
                    if room[other] and not (strict and forbidden[other] & bit):
                        if pick < room[other]:
                            room[other] -= 1
                            hands[guess, other] |= bit
                            break
                        pick -= room[other]
            if ok:
                break
    return np.int64(state)
