"""Compiled policies: ``lowest``, ``random`` and ``fastheuristic`` as numba functions that read the
rules core's state machine directly, and the loop that plays whole games with them.

When every seat of a batch is one of these, ``engine.batch.play_batch`` hands the games to
``run_games``: each game is played from its first deal to its end inside one compiled loop,
``play_on`` (``engine.core.machine.step`` for the rules, ``choose_action`` for the policy), with
no Python between decisions. The scalar twins in ``engine.Game`` run these very functions
(``strategies.players.twin``: ``fastheuristic``, ``strong``; through ``decide``), or draw the same
counter-based random numbers (``fastrandom``). What a seat may see is asked of the machine
(``visible_hand``, ``visible_trump``, ``seen_cards``). When some seat is a numpy batch strategy,
the lockstep engine plays the compiled seats with ``Stepper`` (``advance_rows``): each game's
compiled seats move in ``play_on`` until the numpy seat is to move. Search playouts
(``strategies.policies.playout``) play in ``play_on`` too.

``fastheuristic`` (``fast_heuristic``), the rules of thumb:

Bidding: the expected tricks of the hand in thousandths, from ``fast_tables.suit_tables`` (one
lookup per suit: the trump suit, a side suit under a trump, a suit of a no-trump deal) plus
``JOKER_VALUE`` a Joker; the legal bid nearest that (ties to the lower bid), so the hook is
respected. A hidden hand (dark, forehead) counts ``hand_size / players`` tricks. Naming trump: the
longest suit seen, ties to the lowest suit.

Play: ``need`` is the tricks still wanted: the bid minus the tricks taken while short of it;
past the bid, all that remain when an overtrick scores (``scoring.over_per_trick > 0``), else none;
in a deal without bidding, all when tricks score (golden) and none when they cost (misère).

- Leading, wanting tricks: the Joker (first of ``WIN_LEAD`` among its legal calls) when it is the
  only choice, when every remaining card must win, or when more tricks are wanted than the hand
  has suits headed by a master card and leading it costs no fine; else the card of highest rank.
- Leading, wanting none: the card of lowest rank; the Joker (``LOSE_LEAD``) only when nothing else.
- Following, wanting tricks: the lowest-ranked card that beats the trick so far; else the Joker
  high if it would win; else discard the lowest-ranked card, a non-trump if possible; a Joker
  that cannot win goes low.
- Following, wanting none: the highest-ranked card that does not beat the trick; else the Joker
  low; else the highest-ranked card.

"Rank" compares 2..A across suits: the lowest rank goes to the lowest suit among equals, the
highest rank to the highest suit (suits ♠ ♣ ♦ ♥ = 0..3).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from numba import uint64
from raspis.engine.batch.compiled import record_game
from raspis.engine.batch.kernels import borrowed, logged_step, no_log, note_row, prefetch_row
from raspis.engine.cards import JOKER, JOKER2
from raspis.engine.core import fields, rules
from raspis.engine.core import machine as m
from raspis.engine.core.codes import CALL_HIGH, CARD_OPTION
from raspis.engine.core.compiling import jit
from raspis.engine.core.deal import splitmix64
from raspis.engine.core.plan import MachineTables, RulePlan
from raspis.engine.core.rules import ix
from raspis.engine.core.view import DealRow

from .. import catalogue
from ..catalogue import policy_code
from .fast_tables import JOKER_VALUE, LOSE_LEAD, WIN_LEAD, lowest_rank, suit_tables
from .fitted import find_fit
from .keep import keep_code
from .section import strong_section
from .strong import decide_strong

#: policy codes, one per seat of each game (``run_games``): each built-in's record says its own
#: (``catalogue``)
LOWEST, RANDOM, FAST_HEURISTIC, STRONG = (
    policy_code(entry) for entry in (catalogue.LOWEST, catalogue.RANDOM,
                                     catalogue.FAST_HEURISTIC, catalogue.STRONG))
#: a policy code's bits from ``NOISE_SHIFT`` up (``noisy``): two chances, in 65536ths
#: (``NOISE_ONE``: always), that a card decision (the low ``NOISE_BITS``) and a bid (the next
#: ``NOISE_BITS``) is a uniformly random legal action (``hashed``) instead of the policy's; 0 in a
#: plain code
NOISE_SHIFT = 8
NOISE_ONE = 1 << 16
NOISE_BITS = 17
NOISE_FIELD = (1 << NOISE_BITS) - 1
POLICY_MASK = (1 << NOISE_SHIFT) - 1
#: mixed into the key of the coin of a noisy decision, so that it is not ``hashed``'s own draw
NOISE_SALT = 0x5DEECE66D2B7E151


def noisy(policy: int, noise: float, bid_noise: float = 0.0) -> int:
    """``policy``'s code with chance ``noise`` (0 to 1) of a uniformly random legal card instead
    of its own at each card decision, and ``bid_noise`` of a uniformly random legal bid at each
    bid (trumps and keeps stay the policy's); the random draws come from the seat's key and
    decision count (``choose_action``)."""
    for chance in (noise, bid_noise):
        if not 0.0 <= chance <= 1.0:
            raise ValueError(f"noise {chance} is not a chance between 0 and 1")
    return ((policy & POLICY_MASK) | round(noise * NOISE_ONE) << NOISE_SHIFT
            | round(bid_noise * NOISE_ONE) << (NOISE_SHIFT + NOISE_BITS))


# -- the policy table: constants, then call orders, then one entry pair per deal row, then the
# -- suit tables of ``fast_tables`` for each (participants, hand size) the rows need
(T_DECK, T_OVER_SCORES, T_NO_FINE, T_ROWS_AT, T_LOW_RANK, T_STRONG_AT) = range(6)
#: room for every call option (``codes.OPTION_COUNT``) and the fallback "high", -1 ended
ORDER_WIDTH = 40
T_LEAD_ORDER, T_FOLLOW_ORDER, T_WIN_LEAD, T_LOSE_LEAD = (8 + ORDER_WIDTH * index
                                                        for index in range(4))
T_HEADER = 8 + 4 * ORDER_WIDTH


@lru_cache(maxsize=64)
def policy_table(tables: MachineTables, plan: RulePlan, fit_bids_on: bool = True,
                  strong_on: bool = True, cards_on: bool = True, net_on: bool = True,
                  bids_on: bool = True) -> np.ndarray:
    """The policies' table (``T_*``); ``strong_on``: with ``strong``'s section (its calibration,
    worked out on first use), ``fit_bids_on``: with its fitted bid outcomes: the variant's own
    (shipped, or fitted by the user), else the nearest preset's, else none
    (``policies.fitted.find_fit``; ``policies.fitted.say_fit_notice`` says which where not its own);
    ``cards_on``: with the card model kept in the same file (``strategies.fitting.distil``), where
    it has one; ``net_on``: with its nonlinear part, where it has one; ``bids_on``: with the bid
    model kept in the same file (``strategies.fitting.bid_values``), where it has one."""
    variant = plan.variant
    rows = tables.deals
    blocks: dict[tuple[int, int], int] = {}
    pieces: list[np.ndarray] = []
    at = T_HEADER + 2 * len(rows)
    per_row = np.zeros(2 * len(rows), dtype=np.int64)
    # a suit's patterns from its lowest rank in the deck up (2^9 of them in a 36-card deck, not
    # 2^13): the table then stays in the cache, where the full one missed it at every bid
    low = lowest_rank(variant.deck_mask)
    for index, row in enumerate(rows):
        deal = DealRow(row)
        key = (deal.participants, deal.hand_size)
        if key not in blocks:
            blocks[key] = at
            table = suit_tables(variant, *key).ravel()
            pieces.append(table)
            at += table.size
        kind = variant.kinds[plan.kind_names[deal.kind]]
        per_row[2 * index] = blocks[key]
        per_row[2 * index + 1] = kind.per_trick > 0
    header = np.full(T_HEADER, -1, dtype=np.int64)
    header[T_DECK] = variant.deck_mask
    header[T_OVER_SCORES] = variant.scoring.over_per_trick > 0
    header[T_NO_FINE] = variant.joker.lead_fine == 0
    header[T_ROWS_AT] = T_HEADER
    header[T_LOW_RANK] = low
    header[T_STRONG_AT] = at  # ``strong``'s section (``section.strong_section``) comes last
    for start, order in ((T_LEAD_ORDER, plan.call_order(True)),
                         (T_FOLLOW_ORDER, plan.call_order(False)),
                         (T_WIN_LEAD, WIN_LEAD), (T_LOSE_LEAD, LOSE_LEAD)):
        header[start:start + len(order)] = order
    if not strong_on:
        header[T_STRONG_AT] = -1
        return np.concatenate([header, per_row, *pieces])
    players = tables.players
    fit = find_fit(variant, players)
    cards = fit.cards if cards_on else None
    if cards is not None and not net_on:
        cards = cards.without_net()
    strong = strong_section(tables.plan, variant.deck_cards, variant.trump.mode == "circular",
                            fit.counts if fit_bids_on else None, cards,
                            fit.bids if bids_on else None)
    return np.concatenate([header, per_row, *pieces, strong])


# -- small card helpers ----------------------------------------------------------------------------


#: the first bit of each suit's 13 in a card mask
_SUIT_STARTS = 1 | 1 << 13 | 1 << 26 | 1 << 39


@jit(inline="always")
def _rank_pick(mask: int, highest: bool) -> int:
    """The ordinary card of ``mask`` of lowest rank (lowest suit among equals), or of highest rank
    (highest suit among equals); -1 for none."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & 8191
    if ranks == 0:
        return -1
    # the rank's cards, one bit a suit at 0, 13, 26, 39: the bit's index is 13 times the suit
    if highest:
        rank = rules.highest_index(ranks)
        return rank + rules.highest_index((mask >> rank) & _SUIT_STARTS)
    rank = rules.bit_index(ranks & -ranks)
    suits = (mask >> rank) & _SUIT_STARTS
    return rank + rules.bit_index(suits & -suits)


@jit(inline="always")
def _nearest_bid(legal: int, estimate: int) -> int:
    """The legal bid (a bit of ``legal``) nearest ``estimate`` thousandths of a trick, the lower
    of two as near; -1 for none. The nearest lies next to the estimate on one side or the other:
    found with bit instructions, not a loop over the bids (its branches mispredict)."""
    if legal == 0:
        return -1
    floor = estimate // 1000  # bids up to this one are at most the estimate
    below = 0 if floor < 0 else legal if floor >= 62 else legal & ((2 << floor) - 1)
    above = legal & ~below
    if below == 0:
        return rules.bit_index(above & -above)
    low = rules.highest_index(below)
    if above == 0:
        return low
    high = rules.bit_index(above & -above)
    return low if estimate - 1000 * low <= 1000 * high - estimate else high


@jit(inline="always")
def _top(mask: int, suit: int) -> int:
    return rules.highest_index((mask >> (13 * suit)) & 8191)


@jit()
def _nth_bit(mask: int, index: int) -> int:
    """The ``index``-th set bit of ``mask`` (0 = lowest)."""
    for _ in range(index):
        mask &= mask - 1
    return rules.bit_index(mask & -mask)


@jit(inline="always")
def _first_in(table: np.ndarray, start: int, calls: int) -> int:
    """The first option of the order at ``table[start:]`` set in ``calls``; -1 for none."""
    for index in range(ORDER_WIDTH):
        option = table[ix(start + index)]
        if option < 0:
            return -1
        if calls >> option & 1:
            return option
    return -1


# -- the three policies ----------------------------------------------------------------------------


@jit(inline="always")
def lowest(state: np.ndarray, plan: np.ndarray, table: np.ndarray) -> int:
    """The first legal action of ``Game.legal_actions``: spades, the lowest bid, the lowest card,
    a Joker with its first legal call (never the card option, which comes after high or low)."""
    phase = fields.phase(state)
    legal = fields.legal_first(state)
    if phase == m.PH_TRUMP:
        return 1
    if phase == m.PH_KEEP:  # the first of Keep(True), Keep(False)
        return 1
    if phase == m.PH_BID:
        return rules.bit_index(legal & -legal)
    card = rules.bit_index(legal & -legal)
    order = T_LEAD_ORDER if fields.trick_length(state) == 0 else T_FOLLOW_ORDER
    return m.play_code(card, _first_in(table, order, fields.legal_second(state)))


@jit(inline="always")
def hashed(state: np.ndarray, plan: np.ndarray, table: np.ndarray, key: int, index: int) -> int:
    """Uniform over the legal actions in ``Game.legal_actions`` order, the ``index``-th draw of
    the counter-based hash with ``key`` (``strategies.players.batch_basic.BatchRandom``)."""
    phase = fields.phase(state)
    legal = fields.legal_first(state)
    draw = splitmix64(uint64(key) ^ uint64(index))
    if phase == m.PH_TRUMP:
        count = 4 + legal
        choice = int(draw % uint64(count))
        return choice + 1 if choice < 4 else 0
    if phase == m.PH_BID:
        return _nth_bit(legal, int(draw % uint64(rules.popcount(legal))))
    if phase == m.PH_KEEP:  # Keep(True) first, as ``Game.legal_actions``
        return 1 - int(draw % uint64(2))
    ordinary = legal & ~rules.JOKER_BITS
    plain = rules.popcount(ordinary)
    jokers = legal & rules.JOKER_BITS
    if jokers == 0:
        return _nth_bit(ordinary, int(draw % uint64(max(plain, 1))))
    order = T_LEAD_ORDER if fields.trick_length(state) == 0 else T_FOLLOW_ORDER
    calls = fields.legal_second(state)
    # the Joker declared as a card (``joker.as_card``) is one play per nameable card, lowest first
    nameable = fields.plan_nameable(plan)
    named = rules.popcount(nameable)
    per_joker = 0
    for position in range(ORDER_WIDTH):
        option = table[ix(order + position)]
        if option < 0:
            break
        if calls >> option & 1:
            per_joker += named if option == CARD_OPTION else 1
    total = plain + rules.popcount(jokers) * per_joker
    pick = int(draw % uint64(max(total, 1)))
    if pick < plain:
        return _nth_bit(ordinary, pick)
    rest = pick - plain
    per = max(per_joker, 1)
    joker = _nth_bit(jokers, rest // per)
    wanted, chosen = rest % per, 0
    for position in range(ORDER_WIDTH):  # the wanted-th legal call in the order
        option = table[ix(order + position)]
        if option < 0:
            break
        if calls >> option & 1:
            width = named if option == CARD_OPTION else 1
            if wanted < width:
                if option == CARD_OPTION:
                    return m.named_code(joker, _nth_bit(nameable, wanted))
                chosen = option
                break
            wanted -= width
    return m.play_code(joker, chosen)


@jit(inline="always")
def _need(state: np.ndarray, plan: np.ndarray, table: np.ndarray, seat: int,
          remaining: int) -> int:
    """The tricks the seat still wants (``need``, see the module docstring)."""
    row = fields.row(state)
    if fields.deal_bidding(plan, row) == 0:
        return remaining if table[ix(table[T_ROWS_AT] + 2 * row + 1)] else 0
    bid = fields.bid(state, plan, seat)
    taken = fields.taken(state, plan, seat)
    if taken <= bid:
        return bid - taken
    return remaining if table[T_OVER_SCORES] else 0


@jit(inline="always")
def fast_heuristic(state: np.ndarray, plan: np.ndarray, table: np.ndarray) -> int:
    """``fastheuristic``: name the longest suit, bid the legal bid nearest the hand's expected
    tricks, play by the rules of thumb of the module docstring."""
    phase = fields.phase(state)
    seat = fields.to_move(state)
    legal = fields.legal_first(state)
    hand = m.visible_hand(state, plan, seat)
    row = fields.row(state)
    if phase == m.PH_TRUMP:
        best, most = 0, -1
        for suit in range(4):
            count = rules.popcount((hand >> (13 * suit)) & 8191)
            if count > most:
                best, most = suit, count
        return best + 1
    if phase == m.PH_KEEP:
        return keep_code(state, plan)
    if phase == m.PH_BID:
        participants = fields.order_length(state)
        hand_size = fields.deal_hand_size(plan, row)
        if fields.deal_hand_hidden(plan, row):
            estimate = hand_size * 1000 // participants
        else:
            trump = m.visible_trump(state, plan)
            at = table[ix(table[T_ROWS_AT] + 2 * row)]
            low = table[T_LOW_RANK]
            patterns = 8192 >> low
            estimate = JOKER_VALUE * rules.popcount(hand & rules.JOKER_BITS)
            for suit in range(4):
                kind = 0 if trump == suit else 1 if trump >= 0 else 2
                pattern = ((hand >> (13 * suit)) & 8191) >> low
                estimate += table[ix(at + (kind * 4 + suit) * patterns + pattern)]
        return _nearest_bid(legal, estimate)
    ordinary = legal & ~rules.JOKER_BITS
    jokers = legal & rules.JOKER_BITS
    calls = fields.legal_second(state)
    remaining = rules.popcount(hand)
    need = _need(state, plan, table, seat, remaining)
    want = need > 0
    joker = JOKER if jokers >> JOKER & 1 else JOKER2
    length = fields.trick_length(state)
    if length == 0:
        if jokers:
            unseen = table[T_DECK] & ~hand & ~m.seen_cards(state, plan, seat)
            masters = 0
            for suit in range(4):
                top = _top(hand, suit)
                if top >= 0 and top > _top(unseen, suit):
                    masters += 1
            if want and (ordinary == 0 or need >= remaining
                         or (need > masters and table[T_NO_FINE])):
                return m.play_code(joker, _first_in(table, T_WIN_LEAD, calls))
            if not want and ordinary == 0:
                return m.play_code(joker, _first_in(table, T_LOSE_LEAD, calls))
        return _rank_pick(ordinary, want)
    trick_trump, led = fields.trick_trump(state), fields.led_suit(state)
    two_jokers = fields.plan_two_jokers(plan)
    _, best, beat = m.trick_lead(state)
    beats = rules.winning_cards(ordinary, best, length, led, trick_trump, beat, two_jokers)
    trumps = rules.suit_mask(trick_trump)
    losers = ordinary & ~beats
    high_ok, low_ok = calls & 1 != 0, calls & 2 != 0
    if want:
        high_key = rules.card_key(joker, CALL_HIGH, length, led, trick_trump, beat, two_jokers)
        joker_wins = jokers != 0 and high_ok and high_key > best
        if beats == 0 and (joker_wins or ordinary == 0) and jokers:
            return m.play_code(joker, 0 if joker_wins else 1 if low_ok else 0)
        side = ordinary & ~trumps
        choice = beats if beats else side if side else ordinary
        return _rank_pick(choice, False)
    if jokers and ((losers == 0 and low_ok) or ordinary == 0):
        return m.play_code(joker, 1 if low_ok else 0)
    return _rank_pick(losers if losers else ordinary, True)


@jit()
def fast_decision(state: np.ndarray, plan: np.ndarray, table: np.ndarray) -> int:
    """``fast_heuristic`` as a function of its own: called by ``choose_action``, inlined only in
    ``play_fast`` (a second inlined copy costs seconds of the first run's compile)."""
    return fast_heuristic(state, plan, table)


@jit(inline="always")
def forced_action(state: np.ndarray) -> int:
    """The code of the one legal bid or card (not a Joker, whose calls are choices), which every
    policy plays, so none is asked; -1 when there is a choice."""
    phase = fields.phase(state)
    legal = fields.legal_first(state)
    if ((phase == m.PH_PLAY or phase == m.PH_BID) and legal & (legal - 1) == 0
            and legal & rules.JOKER_BITS == 0):
        return rules.bit_index(legal)
    return -1


@jit(inline="always")
def choose_action(state: np.ndarray, plan: np.ndarray, table: np.ndarray, policy: int, key: int,
                  index: int) -> int:
    """The action code of ``policy`` for the seat to move (``key``, ``index``: the random key and
    the seat's decisions so far, for ``random`` and a noisy code's coin, ``noisy``). Inlined
    once, in ``play_on``; ``decide`` is the same as a function of its own."""
    forced = forced_action(state)
    if forced >= 0:  # ``random`` still counts the decision (``play_on``)
        return forced
    chances = policy >> NOISE_SHIFT
    if chances:  # a noisy code (``noisy``): a card or a bid at random with its chance
        policy &= POLICY_MASK
        phase = fields.phase(state)
        chance = (chances & NOISE_FIELD if phase == m.PH_PLAY
                  else chances >> NOISE_BITS if phase == m.PH_BID else 0)
        coin = splitmix64(uint64(key) ^ uint64(index) ^ uint64(NOISE_SALT)) >> uint64(48)
        if int(coin) < chance:
            return hashed(state, plan, table, key, index)
    if policy == FAST_HEURISTIC:
        return fast_decision(state, plan, table)
    if policy == STRONG:
        return decide_strong(state, plan, table, table[T_STRONG_AT])
    if policy == RANDOM:
        return hashed(state, plan, table, key, index)
    return lowest(state, plan, table)


@jit()
def decide(state: np.ndarray, plan: np.ndarray, table: np.ndarray, policy: int, key: int,
           index: int) -> int:
    """The action code of ``policy`` for the seat to move (``choose_action``)."""
    return choose_action(state, plan, table, policy, key, index)


def decide_policy(state: np.ndarray, plan: np.ndarray, table: np.ndarray, policy: int) -> int:
    """``decide`` for a plain ``policy`` code (no noise, ``random``'s key 0) through the compiled
    entry point of that policy alone where it has one (``fast_decision``, ``decide_strong``), so
    that a scalar twin compiles its own policy, not every policy ``decide`` holds. The one legal
    bid or card (``forced_action``) is played without asking, as in ``decide``."""
    if policy == FAST_HEURISTIC or policy == STRONG:
        forced = int(forced_action(state))
        if forced >= 0:
            return forced
        if policy == FAST_HEURISTIC:
            return int(fast_decision(state, plan, table))
        return int(decide_strong(state, plan, table, table[T_STRONG_AT]))
    return int(decide(state, plan, table, policy, 0, 0))


#: ``play_on``'s ``until`` for "to the game's end"
GAME_END = 1 << 40


@jit()
def play_on(state: np.ndarray, plan: np.ndarray, table: np.ndarray, policies: np.ndarray,
            keys: np.ndarray, counts: np.ndarray, row: int, until: int, record: bool,
            logs: tuple) -> int:  # type: ignore[type-arg]
    """Play the game in ``state`` on, seat ``s`` deciding by the policy ``policies[row, s]``
    (``keys[row, s]``: its random key; ``counts[row, s]``: its decisions so far, counted here)
    and the machine applying each decision, until a seat whose policy is below 0 (a numpy batch
    strategy's) is to move, result row ``until`` is written (``GAME_END``: none), or the game is
    over; with ``record``, each step also goes into the log ``logs`` as game ``row``
    (``engine.batch.kernels.logged_step``; ``no_log()`` where nothing is logged). Returns the
    decisions made. The one loop of the compiled policies: whole games
    (``play_games``), the compiled seats of a lockstep batch (``advance_rows``) and the playouts
    of search (``strategies.policies.playout``) all play here."""
    # views without a reference count (``kernels.borrowed``): the caller holds the arrays
    state, plan, table = borrowed(state), borrowed(plan), borrowed(table)
    decisions = 0
    while fields.phase(state) != m.PH_OVER and fields.results(state) <= until:
        seat = fields.to_move(state)
        policy = policies[row, seat]
        if policy < 0:
            break
        code = choose_action(state, plan, table, policy, keys[row, seat], counts[row, seat])
        counts[row, seat] += 1
        logged_step(state, plan, code, row, record, logs)
        decisions += 1
    return decisions


@jit(inline="always")
def play_fast(state: np.ndarray, plan: np.ndarray, table: np.ndarray) -> int:
    """``play_on`` of a whole game with ``fastheuristic`` at every seat, nothing logged, the
    machine's ``step`` inlined (``machine.apply_action``): the loop of the longest runs, a
    fifth faster than calling ``step``. In ``play_on``, beside every policy and the log, the
    same inlining was slower (measured, see ``docs/benchmarks.md``)."""
    decisions = 0
    while fields.phase(state) != m.PH_OVER:
        code = forced_action(state)
        if code < 0:
            code = fast_heuristic(state, plan, table)
        m.apply_action(state, plan, code)
        decisions += 1
    return decisions


@jit()
def play_games(buffer: np.ndarray, plan: np.ndarray, table: np.ndarray, policies: np.ndarray,
               keys: np.ndarray, seeds: np.ndarray, jokers: np.ndarray,
               records: tuple) -> int:  # type: ignore[type-arg]
    """Play a fresh game for each of ``seeds`` to its end, seat ``s`` of game ``g`` by
    ``policies[g, s]`` (``keys[g, s]``: its random key), in one state vector that stays in the
    cache, recording each into ``records`` (``engine.batch.compiled.record_game``). Returns the
    decisions made."""
    counts = np.zeros(policies.shape, dtype=np.int64)
    # ``buffer`` (the game's state), ``plan`` and ``table`` are the caller's arrays, alive for the
    # whole call: a view of an array made here could outlive it (numba frees a local array after
    # its last use, not at the end of the function)
    state, plan, table = borrowed(buffer), borrowed(plan), borrowed(table)
    decisions = 0
    logs = no_log()
    for game in range(len(seeds)):
        m.new_game(state, plan, seeds[game])
        decisions += play_on(state, plan, table, policies, keys, counts, game, GAME_END, False,
                             logs)
        record_game(state, plan, game, jokers, records)
    return decisions


@jit()
def play_games_fast(buffer: np.ndarray, plan: np.ndarray, table: np.ndarray,
                    seeds: np.ndarray, jokers: np.ndarray,
                    records: tuple) -> int:  # type: ignore[type-arg]
    """``play_games`` with ``fastheuristic`` at every seat of every game (``play_fast``): the
    lineup of the longest runs in a loop of its own, an entry point of its own too, so that only
    a run of that lineup pays its compile (the machine inlined once more: a third of the first
    run's compile before it was split off, ``docs/benchmarks.md``). The same games as
    ``play_games``."""
    state, plan, table = borrowed(buffer), borrowed(plan), borrowed(table)
    decisions = 0
    for game in range(len(seeds)):
        m.new_game(state, plan, seeds[game])
        decisions += play_fast(state, plan, table)
        record_game(state, plan, game, jokers, records)
    return decisions


class Seats(NamedTuple):
    """The compiled seats of a lockstep batch (``Stepper``): the rule plan, the policy table,
    ``policies[g, s]`` the policy code of seat ``s`` of game ``g`` (-1 where a numpy strategy
    decides) and their random keys."""

    plan: np.ndarray
    table: np.ndarray
    policies: np.ndarray
    keys: np.ndarray


@jit()
def advance_rows(states: np.ndarray, seats: Seats, counts: np.ndarray, rows: np.ndarray,
                 codes: np.ndarray, apply: bool, record: bool,
                 logs: tuple, jokers: bool,  # type: ignore[type-arg]
                 view: np.ndarray, progress: np.ndarray) -> None:
    """Play the compiled ``seats`` of the games of ``rows`` (rows of the state matrix
    ``states``): with ``apply``, each game's mover first plays ``codes[index]`` (a numpy
    strategy's checked answer); then each game goes on until a seat whose policy is -1 (decided
    by a numpy batch strategy) is to move, or to its end, and its next decision is noted
    (``engine.batch.kernels.note_row``: ``jokers``, ``view``, ``progress``). ``counts[row,
    seat]``: each seat's decisions so far; ``record``, ``logs``: the log
    (``engine.batch.kernels.logged_step``)."""
    plan, table = borrowed(seats.plan), borrowed(seats.table)
    policies, keys = seats.policies, seats.keys
    for index in range(len(rows)):
        prefetch_row(states, plan, rows, index)
        row = rows[index]
        state = borrowed(states[row])
        if apply:
            counts[row, fields.to_move(state)] += 1
            logged_step(state, plan, codes[index], row, record, logs)
        play_on(state, plan, table, policies, keys, counts, row, GAME_END, record, logs)
        note_row(state, plan, row, jokers, view, progress)


class Stepper:
    """The compiled seats of a lockstep batch (``engine.batch.game``): ``policies[g, s]`` the
    policy code of seat ``s`` of game ``g``, -1 where a numpy strategy decides; ``keys`` their
    random keys."""

    def __init__(self, tables: MachineTables, plan: RulePlan, policies: np.ndarray,
                 keys: np.ndarray) -> None:
        self.table = policy_table(tables, plan, strong_on=bool(np.any(policies == STRONG)))
        self.plan = tables.plan
        self.policies = np.ascontiguousarray(policies, dtype=np.int64)
        self.keys = np.ascontiguousarray(keys).view(np.int64)
        self.seats = Seats(self.plan, self.table, self.policies, self.keys)

    def advance(self, states: np.ndarray, rows: np.ndarray, codes: np.ndarray | None,
                counts: np.ndarray, record: bool, logs: tuple,  # type: ignore[type-arg]
                jokers: bool, view: np.ndarray, progress: np.ndarray) -> None:
        """``advance_rows`` of ``rows`` (``codes`` None: nothing to apply first)."""
        apply = codes is not None
        advance_rows(states, self.seats, counts, rows, codes if apply else rows, apply, record,
                     logs, jokers, view, progress)


def compile_policies_beside() -> Any:
    """On a cold cache, compile the two large policies every compiled loop holds
    (``decide_strong`` and ``fast_decision``: ``choose_action`` calls both, whatever the lineup)
    in a child process beside this one (``engine.core.compiling.compile_beside``), while this
    process compiles the rules core the loop calls first (``new_game``, ``step``); the loop then
    loads them from the cache. Returns the wait for the child (nothing to wait for where no core
    is spare: ``compile_beside``)."""
    from numba import types
    from raspis.engine.core.compiling import compile_beside

    vector = types.Array(types.int64, 1, "C")
    return compile_beside([(decide_strong, (vector, vector, vector, types.int64)),
                           (fast_decision, (vector, vector, vector))])


def run_games(tables: MachineTables, plan: RulePlan, seeds: np.ndarray, policies: np.ndarray,
              keys: np.ndarray, jokers: np.ndarray, records: tuple) -> int:  # type: ignore[type-arg]
    """Play the games of ``seeds`` (uint64) with ``policies`` (games x seats) into ``records``
    (``engine.batch.compiled.Records.arrays``); returns the decisions made."""
    table = policy_table(tables, plan, strong_on=bool(np.any(policies == STRONG)))
    signed = np.ascontiguousarray(seeds).view(np.int64)
    keys = np.ascontiguousarray(keys).view(np.int64) if keys.dtype == np.uint64 else keys
    buffer = np.zeros(tables.length, dtype=np.int64)
    if policies.size and bool(np.all(policies == FAST_HEURISTIC)):
        return int(play_games_fast(buffer, tables.plan, table, signed, jokers, records))
    return int(play_games(buffer, tables.plan, table, np.ascontiguousarray(policies),
                          np.ascontiguousarray(keys), signed, jokers, records))


#: what the lockstep engine plays the compiled seats of a mixed lineup with
run_games.stepper = Stepper  # type: ignore[attr-defined]

__all__: list[Any] = ["FAST_HEURISTIC", "LOWEST", "NOISE_ONE", "NOISE_SHIFT", "POLICY_MASK",
                      "RANDOM", "STRONG", "Seats", "Stepper", "advance_rows",
                      "compile_policies_beside", "noisy", "policy_table", "run_games"]
