"""The rules core over many games: compiled loops that call ``engine.core.rules`` once per game.

The batch engine keeps one row per game in numpy arrays; each function here walks the rows in a
``numba`` loop and asks the core's rule functions, so the batch states no rule of its own. Masks
are passed as ``int64`` views of the engine's ``uint64`` arrays (54 card bits fit below bit 63).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from raspis.engine.core import deal, rules


@njit(cache=True)
def legal_bids_many(hand_size: int, min_bid: int, hook: int, last: bool, others: np.ndarray,
                    passes: np.ndarray, pass_limit: int, out: np.ndarray) -> None:
    """``rules.legal_bids`` of every game's bidder; ``passes`` its passes in a row."""
    for row in range(len(out)):
        out[row] = rules.legal_bids(hand_size, min_bid, hook, last, others[row], passes[row],
                                    pass_limit)


@njit(cache=True)
def hook_binds_many(hand_size: int, min_bid: int, others: np.ndarray, out: np.ndarray) -> None:
    """``rules.hook_binds`` for every game."""
    for row in range(len(out)):
        out[row] = rules.hook_binds(hand_size, min_bid, others[row])


@njit(cache=True)
def legal_cards_many(hands: np.ndarray, step: int, lead_cards: np.ndarray,
                     lead_calls: np.ndarray, lead_suits: np.ndarray, led: np.ndarray,
                     trick_trump: np.ndarray, must_trump: bool, lock_card: int,
                     played: np.ndarray, out: np.ndarray) -> None:
    """``rules.legal_cards`` of every game's player to move (``hands``: their hands)."""
    for row in range(len(out)):
        out[row] = rules.legal_cards(hands[row], step, lead_cards[row], lead_calls[row],
                                     lead_suits[row], led[row], trick_trump[row], must_trump,
                                     lock_card, played[row])


@njit(cache=True)
def follow_calls_many(two_jokers: int, first_calls: np.ndarray, out: np.ndarray) -> None:
    """``rules.follow_calls`` for every game (``first_calls``: the trick's first Joker call, -1
    for none)."""
    for row in range(len(out)):
        out[row] = rules.follow_calls(two_jokers, first_calls[row])


@njit(cache=True)
def beats_many(lead_cards: np.ndarray, lead_calls: np.ndarray, lead_suits: np.ndarray,
               trick_trump: np.ndarray, trump_wins: bool, out: np.ndarray) -> None:
    """``rules.trumps_beat_demand`` for every game's trick."""
    for row in range(len(out)):
        out[row] = rules.trumps_beat_demand(lead_cards[row], lead_calls[row], lead_suits[row],
                                            trick_trump[row], trump_wins)


@njit(cache=True)
def card_keys_many(cards: np.ndarray, calls: np.ndarray, position: int, led: np.ndarray,
                   trick_trump: np.ndarray, beats: np.ndarray, two_jokers: int,
                   out: np.ndarray) -> None:
    """``rules.card_key`` of the card in each row of ``cards``."""
    for row in range(len(out)):
        out[row] = rules.card_key(cards[row], calls[row], position, led[row], trick_trump[row],
                                  beats[row], two_jokers)


@njit(cache=True)
def take_trick_lead(cards: np.ndarray, calls: np.ndarray, step: int, led: np.ndarray,
                    trick_trump: np.ndarray, beats: np.ndarray, two_jokers: int,
                    players: np.ndarray, best_key: np.ndarray, best_position: np.ndarray) -> None:
    """The trick's running winner after each game's ``step``-th card: the greatest
    ``rules.card_key`` so far, the earliest among equals (``players``: who played the card)."""
    for row in range(len(best_key)):
        key = rules.card_key(cards[row], calls[row], step, led[row], trick_trump[row],
                             beats[row], two_jokers)
        if step == 0 or key > best_key[row]:
            best_key[row] = key
            best_position[row] = players[row]


@njit(cache=True)
def winning_cards_many(cards: np.ndarray, best_keys: np.ndarray, position: int,
                       led: np.ndarray, trick_trump: np.ndarray, beats: np.ndarray,
                       two_jokers: int, out: np.ndarray) -> None:
    """``rules.winning_cards`` for every game: the ordinary cards of ``cards`` that would take the
    trick from its best key so far."""
    for row in range(len(out)):
        out[row] = rules.winning_cards(cards[row], best_keys[row], position, led[row],
                                       trick_trump[row], beats[row], two_jokers)


@njit(cache=True)
def shuffle_many(cards: np.ndarray, keys: np.ndarray, out: np.ndarray) -> None:
    """``deal.shuffle`` of the deck under each game's key (``out``: one row per game)."""
    for row in range(len(keys)):
        deal.shuffle(cards, keys[row], out[row])


@njit(cache=True)
def first_dealer_many(decks: np.ndarray, players: int, how: int, out: np.ndarray) -> None:
    """``deal.first_dealer`` of each game from its shuffled lot deck."""
    for row in range(len(out)):
        out[row] = deal.first_dealer(decks[row], players, how)


@njit(cache=True)
def deal_many(decks: np.ndarray, hand_size: int, participants: int, first_rounds: int,
              hands: np.ndarray, first_cards: np.ndarray) -> None:
    """``deal.deal_hands`` of each game (``hands``, ``first_cards``: one row per game, by
    position)."""
    for row in range(len(decks)):
        deal.deal_hands(decks[row], hand_size, participants, first_rounds, hands[row],
                        first_cards[row])


@njit(cache=True)
def trump_many(rule: int, decks: np.ndarray, used: int, fixed_suit: int,
               dealer_names_on_joker: bool, trump: np.ndarray, trump_card: np.ndarray,
               how: np.ndarray, namer: np.ndarray) -> None:
    """``deal.trump_of_deal`` of each game (``used``: cards dealt; the next one is turned)."""
    for row in range(len(trump)):
        turned = decks[row, used] if used < decks.shape[1] else -1
        trump[row], trump_card[row], how[row], namer[row] = deal.trump_of_deal(
            rule, decks[row, used - 1], turned, fixed_suit, dealer_names_on_joker)


@njit(cache=True)
def first_leader_many(hands: np.ndarray, dealer_position: np.ndarray, dealer_leads: bool,
                      joker_holder_leads: bool, out: np.ndarray) -> None:
    """``deal.first_leader`` of each game (``hands`` by position)."""
    for row in range(len(out)):
        out[row] = deal.first_leader(hands[row], hands.shape[1], dealer_position[row],
                                     dealer_leads, joker_holder_leads)


@njit(cache=True)
def lead_fines_many(cards: np.ndarray, hands: np.ndarray, fine: int, out: np.ndarray) -> None:
    """``deal.lead_fine`` of each game's leader (``hands``: the hand before the lead)."""
    for row in range(len(out)):
        out[row] = deal.lead_fine(cards[row], rules.popcount(hands[row]), fine)


@njit(cache=True)
def premiums_many(bids: np.ndarray, taken: np.ndarray, points: np.ndarray, order: np.ndarray,
                  opens: bool, closes: bool, counted: bool, mode: int, fixed_points: int,
                  others: int, several: int, made_so_far: np.ndarray, best_so_far: np.ndarray,
                  out: np.ndarray) -> None:
    """One deal of every game and seat in the span of the premium (``rules.span_record``, and
    ``rules.span_premiums`` where the deal closes the span): ``made_so_far`` / ``best_so_far``
    (by position, as ``bids``) carry the span's records, updated in place unless the deal is not
    ``counted`` (``premium_last_deal = excluded``); ``order[row, position]`` is the position's
    seat; ``out`` gets what the close adds."""
    positions = bids.shape[1]
    made = np.zeros(positions, dtype=np.int64)
    best = np.zeros(positions, dtype=np.int64)
    adds = np.zeros(positions, dtype=np.int64)
    for row in range(bids.shape[0]):
        for position in range(positions):
            if counted:
                record = rules.span_record(made_so_far[row, position] != 0,
                                           best_so_far[row, position], bids[row, position],
                                           taken[row, position], points[row, position], opens)
                made_so_far[row, position] = record[0]
                best_so_far[row, position] = record[1]
            out[row, position] = 0
        if not closes:
            continue
        for position in range(positions):  # the records by seat, for the rule
            seat = order[row, position]
            made[seat] = made_so_far[row, position]
            best[seat] = best_so_far[row, position]
        rules.span_premiums(made, best, counted or not opens, mode, fixed_points, others,
                            several, adds)
        for position in range(positions):
            out[row, position] = adds[order[row, position]]


def as_int64(array: np.ndarray) -> np.ndarray:
    """An ``int64`` view of a ``uint64`` mask array (no copy)."""
    return array.view(np.int64) if array.dtype == np.uint64 else array
