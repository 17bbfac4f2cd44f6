"""``strong``'s card play, and what a seat plays for: the one copy of the heuristic's card rules,
which ``strong`` runs on the state and the scalar ``heuristic`` from an observation
(``players.tactics.choose_play``).

The position the card play reasons about travels as one value, ``CardPosition`` (a numba
``NamedTuple``): the seat's cards and legal plays, the deal's trump, the players, the cards it
has not seen and how many the others hold, the trick under way (``Trick``), what the seat plays
for (``Aims``) and the rules of play (``chances.PlayRules``). ``position_of`` reads it from the
state; ``choose_play`` plays from it.

The rules (``play_with``): the seat keeps its ``need`` likeliest winners (the keepers), wins a
trick as cheaply as holds up, sheds spare cards highest first, ducks with the most dangerous card
that cannot win; whether a card holds depends on who still wants tricks (keen players overtake
when they can: ``chances.beaten``). The Joker is kept, led only when every trick is needed (with
the demand that helps the hand, or declared as a card where only that does it) or low to lose. A
seat in a premium span aims at exactly its bid while it can still make it (``aims``).

The thresholds below were set by hand with the first heuristic and kept since: docs/strength.md
measures the players they make, not each number.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from raspis.engine.cards import JOKER, JOKER2
from raspis.engine.core import fields, rules
from raspis.engine.core import machine as m
from raspis.engine.core.codes import (
    CALL_HIGH,
    CALL_HIGHEST,
    CALL_LOW,
    CALL_LOWEST,
    CALL_TRUMPS,
    CARD_OPTION,
    OPTION_CALL,
    OPTION_COUNT,
    OPTION_SUIT,
    OPTIONS,
    WINNING_LEADS,
)
from raspis.engine.core.compiling import jit

from .bids import stake
from .chances import (
    JOKERS,
    Outlook,
    PlayRules,
    above,
    beaten,
    jokers_in,
    lead_chance,
    likeliest,
    outlook,
    turned_out,
)
from .section import X_DECK

#: the lead options that take the trick, and those that lose it (low, lowest of a suit)
WINNING_MASK = sum(1 << option for option in WINNING_LEADS)
LOSING_MASK = sum(1 << option for option, (call, _) in enumerate(OPTIONS)
                  if call in (CALL_LOW, CALL_LOWEST))

# The card play's thresholds, chances of a trick: set by hand with the heuristic's rules of thumb
# and kept as they are, since strong's fitted bid tables and card model (data/strong/) were fitted
# on the play they make and the golden corpus records it (docs/strategies.md, heuristic).

#: leading: a keeper at least this likely to win counts as a sure trick (with enough of them the
#: seat leads its spare cards first)
SURE_WINNER = 0.8
#: leading while every trick is needed: a best card less likely than this to win gives way to the
#: Joker, where leading it is not fined
JOKER_LEAD_BELOW = 0.6
#: leading while wanting tricks: the likeliest winner is led when at least this likely (else a
#: side-suit singleton, to ruff later, or the card least likely to win)
LEAD_WINNER_FROM = 0.35
#: leading while wanting no trick: the card least likely to win is led rather than the Joker low
#: when below this chance; where leading the Joker is fined, below ``LOSER_LEAD_FINED``
LOSER_LEAD_BELOW = 0.25
LOSER_LEAD_FINED = 0.6
#: a card less likely than this to win is a safe loser: the highest of them is led to lose
SAFE_LOSER = 0.08
#: following while every trick is needed: the Joker high takes the trick when no winning card
#: holds it with at least this chance
JOKER_OVER_BELOW = 0.9
#: following: winning cards that hold within this of the surest hold as well; the cheapest of them
#: is played
HOLDS_AS_WELL = 0.05
#: following: a winner that holds with less than this is not spent on the trick when it is one of
#: the keepers
WORTH_SPENDING = 0.3
#: ducking with nothing that cannot win: the cheapest card is played rather than the Joker low
#: when a later player overtakes it with more than this chance
OVERTAKEN = 0.7


class Trick(NamedTuple):
    """The trick under way, as the seat to play sees it."""

    #: the led suit (-1: none yet, or a Joker led without a suit)
    led: int
    #: the trick's trump (circular trumps change it with the led suit)
    trump: int
    #: the cards already in it (0: the seat leads)
    length: int
    #: the key of the card holding it (``rules.card_key``; -2 before the lead)
    best: int
    #: trumps beat the demand of the Joker that led it
    beats: bool


class Aims(NamedTuple):
    """What a seat plays for (``aims``)."""

    #: how many more tricks it aims at (0: none)
    need: int
    #: the share of the other players still wanting tricks
    keen: float
    #: missing a wanted trick loses the deal's bid (a bid deal, not a golden one)
    cliff: bool


class CardPosition(NamedTuple):
    """Everything the card play reads, as one value."""

    #: the seat's cards (a mask)
    hand: int
    #: its legal cards, Jokers included (a mask)
    legal: int
    #: a Joker's legal options (a ``codes.OPTIONS`` mask)
    calls: int
    #: the deal's trump (-1: none)
    trump: int
    #: the seats taking part in the deal
    players: int
    #: the cards the seat has not seen (a mask)
    unseen: int
    #: how many cards the other seats hold together
    others_cards: int
    #: the trick under way
    trick: Trick
    #: what the seat plays for
    aims: Aims
    #: the rules of play
    rules: PlayRules


# -- what a seat plays for -------------------------------------------------------------------------


@jit()
def aims(points: np.ndarray, bidding: bool, staked: bool, order: np.ndarray, bids: np.ndarray,
         taken: np.ndarray, seat: int, remaining: int) -> Aims:
    """What ``seat`` plays for, from plain values: the one copy of this rule, for ``strong``
    (``position_of``, from the state) and the scalar ``heuristic`` (``tactics.Rules.aims`` from
    an observation, ``seat_aims`` from a game's state).

    ``points[t]``: the seat's deal points for taking ``t`` tricks in all (its bid's row of the
    deal's score table, ``fields.points_row``; with no bidding, the row of no bid), over every
    trick the deal plays; ``bidding``: the deal has bids; ``staked``: making the bid is worth a
    premium kept in reach (``bids.stake``, ``heuristic.PremiumOutlook.stake``); ``order`` the
    seats taking part; ``bids`` (-1: none) and ``taken`` by seat; ``remaining`` the seat's cards.

    ``need`` is the count of more tricks (at most ``remaining``) that scores best (0: take no
    more), or exactly the bid while a premium is staked on it and it can still be made. Without
    bidding, the others are all keen when a trick scores (a golden deal), none otherwise."""
    own = taken[seat]
    bid = bids[seat] if bidding else -1
    if staked and 0 <= bid and own <= bid <= own + remaining:
        need = bid - own
    else:
        need, best = 0, points[own]
        for extra in range(1, remaining + 1):
            if own + extra >= len(points):
                break
            if points[own + extra] > best:
                need, best = extra, points[own + extra]
    if not bidding:
        return Aims(need, (1.0 if points[1] > points[0] else 0.0), False)
    wanting = 0
    for position in range(len(order)):
        other = order[position]
        if other != seat and 0 <= bids[other] and bids[other] > taken[other]:
            wanting += 1
    return Aims(need, wanting / max(1, len(order) - 1), True)


@jit()
def seat_aims(state: np.ndarray, plan: np.ndarray, seat: int, remaining: int,
              premium: bool) -> Aims:
    """``aims`` of ``seat`` (``remaining`` cards), read from the state; ``premium``: a premium
    kept in reach counts (``bids.stake``; the heuristic's playouts leave it out)."""
    row = fields.row(state)
    bidding = fields.deal_bidding(plan, row) != 0
    bid = fields.bid(state, plan, seat) if bidding else -1
    staked = premium and bidding and stake(state, plan, seat, bid) > 0
    return aims(fields.points_row(plan, row, bid), bidding, staked, fields.order_row(state, plan),
                fields.bids_row(state, plan), fields.taken_row(state, plan), seat, remaining)


@jit()
def position_of(state: np.ndarray, plan: np.ndarray, table: np.ndarray, at: int, seat: int,
                hand: int) -> CardPosition:
    """The card position of the seat to move (``seat``, its visible ``hand``), read from what it
    may see: the trick, what it plays for, the cards it has not seen (``table[at:]``: ``strong``'s
    section of the policy table, which holds the deck)."""
    players = fields.order_length(state)
    seat_aim = seat_aims(state, plan, seat, rules.popcount(hand), np.bool_(True))
    unseen = (table[at + X_DECK] & ~hand & ~m.seen_cards(state, plan, seat)
              & ~turned_out(state, np.bool_(True), hand))
    hand_size = fields.deal_hand_size(plan, fields.row(state))
    others_cards = ((players - 1) * (hand_size - fields.tricks_done(state))
                    - fields.trick_length(state))
    _, best, beats = m.trick_lead(state)
    trick = Trick(fields.led_suit(state), fields.trick_trump(state), fields.trick_length(state),
                  best, beats)
    play_rules = PlayRules(fields.circular(state) != 0, fields.plan_must_trump(plan) != 0,
                           fields.plan_two_jokers(plan), fields.plan_lead_fine(plan),
                           fields.plan_nameable(plan))
    return CardPosition(hand, fields.legal_first(state), fields.legal_second(state),
                        fields.trump(state), players, unseen, others_cards, trick, seat_aim,
                        play_rules)


# -- the card --------------------------------------------------------------------------------------


@jit()
def choose_play(position: CardPosition) -> int:
    """The card to play (an action code, ``machine.play_code``) at ``position``: the one copy of
    the card play of ``strong`` and of the scalar ``heuristic`` (``tactics.choose_play`` is its
    Python face)."""
    return play_with(position, np.zeros(54, dtype=np.float64))


@jit()
def play_with(position: CardPosition, chances: np.ndarray) -> int:
    """``choose_play`` with the buffer of card chances given (54 zeros): the rules leave in it
    the chance of each plain card to win a trick it leads (``chances.lead_chance``), at a lead for
    the legal cards, after it for the whole hand where the seat still wants tricks (the chances
    its keepers are picked by), which the card model reads (``model.card_features``)."""
    seen = outlook(position.unseen, position.players, position.others_cards, position.aims.keen,
                   position.rules.must_trump)
    if position.trick.length == 0:
        return lead(position, seen, chances)
    return follow(position, seen, chances)


@jit()
def lead(position: CardPosition, seen: Outlook, win: np.ndarray) -> int:
    """The card to lead (``play_with``); ``win`` gets each legal plain card's chance."""
    hand, trump, need, calls = position.hand, position.trump, position.aims.need, position.calls
    circular, nameable, unseen = position.rules.circular, position.rules.nameable, position.unseen
    legal = position.legal & ~JOKERS
    jokers = position.legal & JOKERS
    joker = JOKER if jokers >> JOKER & 1 else JOKER2
    remaining = rules.popcount(hand)
    jokers_held = jokers_in(hand)
    fined = position.rules.lead_fine < 0 and remaining > 1
    rest = legal
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        win[card] = lead_chance(card, trump, circular, seen.opponents, seen)
    if need > 0:
        must_all = need >= remaining
        kept = keepers(win, legal, jokers_held, need)
        sure = jokers_held
        rest = kept
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            sure += win[card] >= SURE_WINNER
        spare = legal & ~kept
        if not must_all and sure >= need and spare:
            return lowest_lead(win, spare)
        best_card, best = -1, 0.0
        rest = legal
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            if best_card < 0 or win[card] > best or (win[card] == best
                                                     and card % 13 < best_card % 13):
                best_card, best = card, win[card]
        if best_card < 0 or (jokers and not fined and best < JOKER_LEAD_BELOW and must_all):
            named = named_lead(calls, nameable, hand, unseen, trump, np.bool_(True))
            if named >= 0:
                return m.named_code(joker, named)
            return m.play_code(joker, joker_lead(calls, hand, unseen, trump, np.bool_(True)))
        if best >= LEAD_WINNER_FROM or must_all:
            return best_card
        if trump >= 0 and not circular and hand & rules.suit_mask(trump):
            single, single_win = -1, 0.0
            rest = legal
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                suit = card // 13
                if suit != trump and rules.popcount(hand & rules.suit_mask(suit)) == 1:
                    if single < 0 or win[card] < single_win:
                        single, single_win = card, win[card]
            if single >= 0:
                return single
        return lowest_lead(win, spare if spare else legal)
    if legal:
        lowest, lowest_win = -1, 0.0
        rest = legal
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            if lowest < 0 or win[card] < lowest_win or (win[card] == lowest_win
                                                         and card % 13 < lowest % 13):
                lowest, lowest_win = card, win[card]
        if not jokers or lowest_win < (LOSER_LEAD_FINED if fined else LOSER_LEAD_BELOW):
            return lowest_lead(win, legal)
    named = named_lead(calls, nameable, hand, unseen, trump, np.bool_(False))
    if named >= 0:
        return m.named_code(joker, named)
    return m.play_code(joker, joker_lead(calls, hand, unseen, trump, np.bool_(False)))


@jit()
def follow(position: CardPosition, seen: Outlook, chances: np.ndarray) -> int:
    """The card to play after the lead (``play_with``); ``chances`` gets each plain card's
    chance to win a trick it led, where the seat still wants tricks."""
    hand, calls, players = position.hand, position.calls, position.players
    need, cliff = position.aims.need, position.aims.cliff
    circular, two_jokers = position.rules.circular, position.rules.two_jokers
    led, trick_trump, length = position.trick.led, position.trick.trump, position.trick.length
    best, beats = position.trick.best, position.trick.beats
    legal = position.legal & ~JOKERS
    jokers = position.legal & JOKERS
    joker = JOKER if jokers >> JOKER & 1 else JOKER2
    remaining = rules.popcount(hand)
    jokers_held = jokers_in(hand)
    after = players - 1 - length
    high_ok = jokers != 0 and calls & 1 != 0
    low_ok = jokers != 0 and calls & 2 != 0
    high_key = rules.card_key(JOKER, CALL_HIGH, length, led, trick_trump, beats, two_jokers)
    chance_trump = trick_trump if not circular else -1
    if need > 0:
        must_all = cliff and need >= remaining
        winners = rules.winning_cards(legal, best, length, led, trick_trump, beats, two_jokers)
        rest = hand & ~JOKERS
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            chances[card] = lead_chance(card, chance_trump, circular, players - 1, seen)
        kept = keepers(chances, hand & ~JOKERS, jokers_held, need)
        if winners:
            if after == 0:
                return cheapest(winners, position.trick, two_jokers)
            holds = np.zeros(54, dtype=np.float64)
            top = -1.0
            rest = winners
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                ruffing = led if card // 13 == trick_trump and led >= 0 else -1
                holds[card] = 1.0 - beaten(card, trick_trump, after, ruffing, seen)
                top = max(top, holds[card])
            if must_all and high_ok and high_key > best and top < JOKER_OVER_BELOW:
                return m.play_code(joker, 0)
            choice, choice_key = -1, 0
            rest = winners
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                if holds[card] >= top - HOLDS_AS_WELL:
                    key = rules.card_key(card, 0, length, led if led >= 0 else card // 13,
                                         trick_trump, beats, two_jokers)
                    if choice < 0 or key < choice_key:
                        choice, choice_key = card, key
            if top >= WORTH_SPENDING or not kept >> choice & 1 or must_all:
                return choice
        elif must_all and high_ok and high_key > best:
            return m.play_code(joker, 0)
        if legal == 0:
            if high_ok and high_key > best:
                return m.play_code(joker, 0)
            return m.play_code(joker, 1 if low_ok else rules.bit_index(calls & -calls))
        spare = legal & ~kept
        if spare and not must_all:
            pick = -1
            rest = spare
            while rest:
                card = rules.bit_index(rest & -rest)
                rest &= rest - 1
                if pick < 0 or chances[card] > chances[pick] or (
                        chances[card] == chances[pick] and card % 13 > pick % 13):
                    pick = card
            return pick
        pick = -1
        rest = legal
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            if pick < 0 or chances[card] < chances[pick] or (
                    chances[card] == chances[pick] and card % 13 < pick % 13):
                pick = card
        return pick
    # ducking: the most dangerous card that cannot win; else the Joker low; else the likeliest to
    # be overtaken
    winners = rules.winning_cards(legal, best, length, led, trick_trump, beats, two_jokers)
    losers = legal & ~winners
    if losers:
        if losers & (losers - 1) == 0:
            return rules.bit_index(losers)
        return likeliest(losers, chance_trump, circular, players - 1, seen)
    if low_ok:
        if after > 0 and legal:
            low = cheapest(legal, position.trick, two_jokers)
            ruffing = led if low // 13 == trick_trump and led >= 0 else -1
            if beaten(low, trick_trump, after, ruffing, seen) > OVERTAKEN:
                return low
        return m.play_code(joker, 1)
    if legal == 0:
        return m.play_code(joker, rules.bit_index(calls & -calls))
    if after == 0:
        return likeliest(legal, chance_trump, circular, players - 1, seen)
    return cheapest(legal, position.trick, two_jokers)


# -- helpers of the card play ----------------------------------------------------------------------


@jit()
def keepers(chances: np.ndarray, hand: int, jokers_held: int, need: int) -> int:
    """The ``need`` cards most likely to win (the Jokers count first), as a mask."""
    count = need - jokers_held
    kept = 0
    for _ in range(max(count, 0)):
        pick, pick_chance = -1, -1.0
        rest = hand & ~kept
        while rest:
            card = rules.bit_index(rest & -rest)
            rest &= rest - 1
            chance = chances[card]
            if pick < 0 or chance > pick_chance or (chance == pick_chance
                                                    and card % 13 < pick % 13):
                pick, pick_chance = card, chance
        if pick < 0:
            break
        kept |= 1 << pick
    return kept


@jit()
def cheapest(cards: int, trick: Trick, two_jokers: int) -> int:
    """The card of ``cards`` with the lowest ``rules.card_key`` played next to ``trick`` (after a
    Joker led without a suit, each card as if it set the led suit); -1 for none."""
    pick, pick_key = -1, 0
    rest = cards
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        key = rules.card_key(card, 0, trick.length, trick.led if trick.led >= 0 else card // 13,
                             trick.trump, trick.beats, two_jokers)
        if pick < 0 or key < pick_key:
            pick, pick_key = card, key
    return pick


@jit()
def joker_lead(calls: int, hand: int, unseen: int, trump: int, high: bool) -> int:
    """The option to lead a Joker with: to win (with a demand that helps the hand) or to lose
    (low, in the suit most likely to be followed); -1 when none fits. The scores weigh the
    demands against each other (set by hand)."""
    best, best_score = -1, -1e9
    for option in range(OPTION_COUNT):
        if not calls >> option & 1:
            continue
        call, suit = OPTION_CALL[option], OPTION_SUIT[option]
        if best < 0:
            best = option
        if high:
            if call == CALL_TRUMPS:
                mine = hand & rules.suit_mask(trump) if trump >= 0 else 0
                higher = rules.popcount(unseen & above(rules.highest_index(mine))) if mine else 0
                score = 30.0 + 5 * min(higher, 3) if mine and higher else 5.0
            elif call == CALL_HIGHEST and suit >= 0:
                mine = hand & rules.suit_mask(suit)
                if mine:
                    higher = rules.popcount(unseen & above(rules.highest_index(mine)))
                    score = 25.0 - 6 * abs(higher - 1) + rules.popcount(mine)
                else:
                    score = 2.0
            elif call == CALL_HIGH:
                score = 10.0 - rules.popcount(hand & rules.suit_mask(suit)) if suit >= 0 \
                    else 10.0
            else:
                continue
        else:
            if call == CALL_LOW and suit < 0:
                score = 100.0
            elif call == CALL_LOW or call == CALL_LOWEST:
                mask = rules.suit_mask(suit)
                score = float(rules.popcount(unseen & mask) - 2 * rules.popcount(hand & mask))
            else:
                continue
        if score > best_score:
            best, best_score = option, score
    return best


@jit()
def named_lead(calls: int, nameable: int, hand: int, unseen: int, trump: int,
               high: bool) -> int:
    """The card to declare a led Joker as (``joker.as_card``) where no call does what is wanted,
    else -1: to take the trick, the highest trump (000 «за козырного туза»; without a trump,
    the highest card of the suit most likely followed); to lose it, the lowest card of the plain
    suit most likely followed (000 «или двойку треф»)."""
    if not calls >> CARD_OPTION & 1 or calls & (WINNING_MASK if high else LOSING_MASK):
        return -1
    if high and trump >= 0 and nameable & rules.suit_mask(trump):
        return rules.highest_index(nameable & rules.suit_mask(trump))
    best, best_score = -1, -1e9
    for suit in range(4):
        mine = nameable & rules.suit_mask(suit)
        if mine == 0 or (suit == trump and not high):
            continue
        mask = rules.suit_mask(suit)
        score = float(rules.popcount(unseen & mask) - 2 * rules.popcount(hand & mask))
        if score > best_score:
            best = rules.highest_index(mine) if high else rules.bit_index(mine & -mine)
            best_score = score
    return best


@jit()
def lowest_lead(win: np.ndarray, cards: int) -> int:
    """A lead meant to lose: the highest of the cards nearly sure to lose (``SAFE_LOSER``), else
    the least likely to win."""
    safe, low = -1, -1
    rest = cards
    while rest:
        card = rules.bit_index(rest & -rest)
        rest &= rest - 1
        if win[card] < SAFE_LOSER and (safe < 0 or card % 13 > safe % 13):
            safe = card
        if low < 0 or win[card] < win[low] or (win[card] == win[low] and card % 13 < low % 13):
            low = card
    return safe if safe >= 0 else low


__all__ = ["Aims", "CardPosition", "Trick", "aims", "cheapest", "choose_play", "follow",
           "joker_lead", "keepers", "lead", "lowest_lead", "named_lead", "play_with",
           "position_of", "seat_aims"]
