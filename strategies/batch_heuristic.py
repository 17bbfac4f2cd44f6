"""The fast heuristic, vectorised: simple rules of thumb for thousands of games at once.

``BatchFastHeuristic`` (spec ``fastheuristic``) plays exactly like its scalar twin
``strategies.fast.FastHeuristicStrategy``; the rules, written once for both:

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

from typing import Any

import numpy as np
from raspis.engine import Variant
from raspis.engine.batch.bits import (
    BELOW,
    BIT,
    HIGH13,
    JOKER_BITS,
    NOT_JOKERS,
    popcount,
)
from raspis.engine.batch.kernels import as_int64, card_keys_many, winning_cards_many
from raspis.engine.batch.observation import BatchObservation
from raspis.engine.batch.rules import OPTION_CALL, OPTION_SUIT
from raspis.engine.core.codes import CALL_HIGH
from raspis.engine.core.plan import rule_plan

from . import compiled
from .batch import BatchStrategy
from .fast_tables import (
    JOKER_VALUE,
    LOSE_LEAD,
    WIN_LEAD,
    deck_mask,
    first_preferred_many,
    suit_tables,
)

U0 = np.uint64(0)
_SUIT_SHIFTS = tuple(np.uint64(13 * suit) for suit in range(4))
_M13 = np.uint64(8191)


def _spread(suit: int) -> np.ndarray:
    """``table[pattern]``: a suit's 13-bit pattern in rank-major order (bit rank * 4 + suit)."""
    table = np.zeros(1 << 13, dtype=np.uint64)
    for rank in range(13):
        table |= np.where((np.arange(1 << 13) >> rank) & 1 == 1, np.uint64(1 << (rank * 4 + suit)),
                          U0)
    return table


_SPREAD = tuple(_spread(suit) for suit in range(4))
#: the float64 exponent field of ``2**bit`` -> the card at rank-major ``bit``; 0 (for 0.0) -> -1
_CARD_OF_EXPONENT = np.full(2048, -1, dtype=np.int64)
for _bit in range(52):
    _CARD_OF_EXPONENT[1023 + _bit] = (_bit & 3) * 13 + (_bit >> 2)
#: the float64 exponent field of ``2**bit`` -> bit; 0 -> -1
_BIT_OF_EXPONENT = np.full(2048, -1, dtype=np.int64)
_BIT_OF_EXPONENT[1023:1023 + 64] = np.arange(64)
_SHIFT52 = np.int64(52)


def top_bit(values: np.ndarray) -> np.ndarray:
    """The highest set bit of each value below 2**53 (exact through float64), -1 for 0."""
    return _BIT_OF_EXPONENT[values.astype(np.float64).view(np.int64) >> _SHIFT52]


def rank_pick(mask: np.ndarray, highest: np.ndarray | bool) -> np.ndarray:
    """Per row, the ordinary card of ``mask`` of lowest rank (lowest suit among equals) or, where
    ``highest``, of highest rank (highest suit among equals); -1 for an empty mask."""
    order = (_SPREAD[0][(mask & _M13).view(np.int64)]
             | _SPREAD[1][((mask >> _SUIT_SHIFTS[1]) & _M13).view(np.int64)]
             | _SPREAD[2][((mask >> _SUIT_SHIFTS[2]) & _M13).view(np.int64)]
             | _SPREAD[3][((mask >> _SUIT_SHIFTS[3]) & _M13).view(np.int64)])
    lowest = order & (~order + np.uint64(1))
    chosen = np.where(highest, order, lowest) if isinstance(highest, np.ndarray) else (
        order if highest else lowest)
    # below 2**52, so the float exponent is exact
    return _CARD_OF_EXPONENT[chosen.astype(np.float64).view(np.int64) >> _SHIFT52]


def nearest_bid(legal: np.ndarray, estimate: np.ndarray) -> np.ndarray:
    """The legal bid (bit of ``legal``) nearest ``estimate`` thousandths, ties to the lower."""
    floor = np.clip(estimate // 1000, 0, 63)
    below = legal & BELOW[floor + 1]
    above = legal & ~BELOW[floor + 1]
    lower = top_bit(below)  # -1 when none
    upper = top_bit(above & (~above + np.uint64(1)))
    use_lower = (lower >= 0) & ((upper < 0) | (estimate - 1000 * lower <= 1000 * upper - estimate))
    return np.where(use_lower, lower, upper)


class BatchFastHeuristic(BatchStrategy):
    """Vectorised rules of thumb (see the module docstring); twin: ``fastheuristic``."""

    name = "fastheuristic"
    description = "fast rules of thumb, vectorised (batch engine); the same as scalar fastheuristic"
    scalar_twin = "fastheuristic"
    compiled_policy = compiled.FAST_HEURISTIC
    compiled_runner = staticmethod(compiled.run_games)

    def start(self, variant: Variant, players: int, seeds: np.ndarray) -> None:
        """Read the variant once."""
        super().start(variant, players, seeds)
        self.deck = np.uint64(deck_mask(variant))
        self.has_jokers = any(card >= 52 for card in variant.deck_cards)
        self.over_scores = variant.scoring.over_per_trick > 0
        self.no_fine = variant.joker.lead_fine == 0
        plan = rule_plan(variant, players)
        self.two_jokers = plan.two_jokers
        self.trump_wins = self.has_jokers and plan.trump_wins

    def bid(self, observation: BatchObservation) -> np.ndarray:
        """The legal bid nearest the hand's expected tricks."""
        assert self.variant is not None
        count = observation.count
        participants, hand_size = observation.participants, observation.hand_size
        if observation.hand_hidden:
            estimate = np.full(count, hand_size * 1000 // participants, dtype=np.int64)
        else:
            hand = observation.hand
            trump = observation.trump
            tables = suit_tables(self.variant, participants, hand_size).reshape(-1)
            kind = np.where(trump >= 0, 1, 2)
            estimate = JOKER_VALUE * popcount(hand & JOKER_BITS).astype(np.int64)
            for suit in range(4):
                pattern = ((hand >> _SUIT_SHIFTS[suit]) & _M13).astype(np.int64)
                table_kind = np.where(trump == suit, 0, kind)
                estimate += tables[(table_kind * 4 + suit) * 8192 + pattern]
        return nearest_bid(observation.legal_bids, estimate)

    def _want(self, observation: BatchObservation) -> np.ndarray:
        """Whether each mover still wants tricks (``need > 0``)."""
        kind = observation.kind_options
        if kind.bidding == "none":
            return np.full(observation.count, kind.per_trick > 0)
        bid, taken = observation.own_bid, observation.own_taken
        return bid != taken if self.over_scores else bid > taken

    def _need(self, observation: BatchObservation, remaining: np.ndarray) -> np.ndarray:
        kind = observation.kind_options
        if kind.bidding == "none":
            return remaining if kind.per_trick > 0 else np.zeros_like(remaining)
        bid, taken = observation.own_bid, observation.own_taken
        over = remaining if self.over_scores else np.zeros_like(remaining)
        return np.where(taken <= bid, bid - taken, over)

    def play(self, observation: BatchObservation) -> tuple[np.ndarray, Any, Any]:
        """The rules of thumb of the module docstring."""
        legal = observation.legal_cards
        ordinary = legal & NOT_JOKERS if self.has_jokers else legal
        want = self._want(observation)
        jokers = legal & JOKER_BITS if self.has_jokers else None
        if observation.trick_position == 0:
            card = rank_pick(ordinary, want)
            if jokers is None or not jokers.any():
                return card, 0, -1
            rows = np.flatnonzero(jokers)
            hand = observation.hand[rows]
            remaining = popcount(hand).astype(np.int64)
            sub = observation.take(rows)
            need = self._need(sub, remaining)
            unseen = self.deck & ~hand & ~sub.played
            masters = np.zeros(len(rows), dtype=np.int64)
            for suit in range(4):
                mine = HIGH13[((hand >> _SUIT_SHIFTS[suit]) & _M13).view(np.int64)]
                out = HIGH13[((unseen >> _SUIT_SHIFTS[suit]) & _M13).view(np.int64)]
                masters += (mine >= 0) & (mine > out)
            plain = ordinary[rows] == U0
            wants = want[rows]
            lead = np.where(wants, plain | (need >= remaining) | ((need > masters) & self.no_fine),
                            plain)
            calls = sub.legal_calls
            calls = np.asarray(calls, dtype=np.int64)
            option = np.where(wants, first_preferred_many(calls, WIN_LEAD),
                              first_preferred_many(calls, LOSE_LEAD))
            return self._with_joker(card, jokers, rows, lead, option)
        trumps = observation.trick_trump_mask
        side_mask = ~trumps
        step = observation.trick_position
        best = observation.winning_key
        led, trick_trump = observation.led_suit, observation.trick_trump
        beat_jokers = (observation.trumps_beat_jokers if self.trump_wins
                       else np.zeros(observation.count, dtype=np.bool_))
        beats = np.empty(observation.count, dtype=np.uint64)
        winning_cards_many(as_int64(ordinary), best, step, led, trick_trump, beat_jokers,
                           self.two_jokers, as_int64(beats))
        side = ordinary & side_mask
        winning = np.where(beats != U0, beats, np.where(side != U0, side, ordinary))
        losers = ordinary ^ beats
        losing = np.where(losers != U0, losers, ordinary)
        card = rank_pick(np.where(want, winning, losing), ~want)
        if jokers is None or not jokers.any():
            return card, 0, -1
        rows = np.flatnonzero(jokers)
        calls = observation.legal_calls[rows]
        wants = want[rows]
        high_ok = (calls & 1) == 1
        low_ok = (calls & 2) == 2
        high_key = np.empty(len(rows), dtype=np.int64)
        card_keys_many(np.full(len(rows), 52, dtype=np.int64),
                       np.full(len(rows), CALL_HIGH, dtype=np.int64), step, led[rows],
                       trick_trump[rows], beat_jokers[rows], self.two_jokers, high_key)
        joker_wins = high_ok & (high_key > best[rows])
        no_card = ordinary[rows] == U0
        use = np.where(wants, (beats[rows] == U0) & (joker_wins | no_card),
                       ((losers[rows] == U0) & low_ok) | no_card)
        option = np.where(wants & joker_wins, 0, np.where(low_ok, 1, 0))
        return self._with_joker(card, jokers, rows, use, option)

    @staticmethod
    def _with_joker(card: np.ndarray, jokers: np.ndarray, rows: np.ndarray, use: np.ndarray,
                    option: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows ``rows`` (holding a playable Joker) play it where ``use``, with ``option``."""
        chosen = rows[use]
        option = np.maximum(option[use], 0)
        call = np.zeros(len(card), dtype=np.int64)
        suit = np.full(len(card), -1, dtype=np.int64)
        card = card.copy()
        card[chosen] = np.where((jokers[chosen] & BIT[52]) != U0, 52, 53)
        call[chosen] = OPTION_CALL[option]
        suit[chosen] = OPTION_SUIT[option]
        return card, call, suit
