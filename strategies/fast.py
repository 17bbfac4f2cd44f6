"""Scalar twins of the batch strategies: they play exactly the batch strategies' games.

Each class here is an ordinary ``Strategy`` for ``engine.Game`` whose decisions equal, game for
game, those of its batch twin in ``engine.batch`` (``strategies.batch_basic``, and the
compiled policies of ``strategies.compiled``). They exist so the two engines can be compared like
for like, and so a tournament may mix engines without changing what a strategy does.

- ``lowest``: the first legal action (twin of ``BatchLowest``);
- ``fastrandom``: uniform over the legal actions from a counter-based hash (twin of
  ``BatchRandom``);
- ``fastheuristic``: a simple rule-based player (twin of ``BatchFastHeuristic``).
"""

from __future__ import annotations

import random

from raspis.engine import Action, Observation, Variant
from raspis.engine.core import rules as core
from raspis.engine.core.codes import CALL_CODES, CALL_HIGH, call_value
from raspis.engine.core.plan import rule_plan
from raspis.engine.rng import splitmix64

from .base import Strategy


class LowestStrategy(Strategy):
    """The first legal action: the lowest bid, the lowest card, a Joker's first call."""

    name = "lowest"
    description = "always the first legal action (twin of the batch 'lowest')"

    def act(self, observation: Observation) -> Action:
        """The first of the legal actions."""
        return observation.legal_actions[0]


class HashRandomStrategy(Strategy):
    """Uniform over the legal actions: ``splitmix64(key ^ i) % len(legal)`` for the ``i``-th
    decision, ``key`` the first 64 bits of the strategy's generator (twin of the batch random)."""

    name = "fastrandom"
    description = "uniformly random legal actions from a counter-based hash (twin of batch random)"

    def start_game(self, variant: Variant, seat: int, players: int, rng: random.Random) -> None:
        """Take the game's key and reset the decision counter."""
        super().start_game(variant, seat, players, rng)
        self.key = rng.getrandbits(64)
        self.decision = 0

    def act(self, observation: Observation) -> Action:
        """The hashed choice among the legal actions."""
        actions = observation.legal_actions
        draw = splitmix64(self.key ^ self.decision)
        self.decision += 1
        return actions[draw % len(actions)]


def _rank_pick(mask: int, highest: bool) -> int:
    """The ordinary card of lowest rank in ``mask`` (lowest suit among equals) or of highest rank
    (highest suit among equals); -1 for none."""
    cards = [card for card in range(52) if mask >> card & 1]
    if not cards:
        return -1
    if highest:
        return max(cards, key=lambda card: (card % 13, card // 13))
    return min(cards, key=lambda card: (card % 13, card // 13))


def _top(mask: int, suit: int) -> int:
    pattern = (mask >> (13 * suit)) & 8191
    return pattern.bit_length() - 1


class FastHeuristicStrategy(Strategy):
    """Simple rules of thumb with integer arithmetic and shared tables; plays exactly like the
    batch ``fastheuristic`` (the rules are described in ``strategies.compiled``)."""

    name = "fastheuristic"
    description = "fast rules of thumb (twin of the vectorised batch fastheuristic)"

    def start_game(self, variant: Variant, seat: int, players: int, rng: random.Random) -> None:
        """Read the variant once."""
        from .fast_tables import deck_mask

        super().start_game(variant, seat, players, rng)
        self.deck = deck_mask(variant)
        self.over_scores = variant.scoring.over_per_trick > 0
        self.no_fine = variant.joker.lead_fine == 0
        plan = rule_plan(variant, players)
        self.two_jokers = plan.two_jokers
        self.trump_wins = plan.trump_wins

    def act(self, observation: Observation) -> Action:
        """Name the longest suit, bid the nearest legal bid, play by the rules of thumb."""
        from raspis.engine import Bid, NameTrump
        from raspis.engine.game import Phase

        if observation.phase == Phase.TRUMP:
            counts = [((observation.hand >> (13 * suit)) & 8191).bit_count() for suit in range(4)]
            return NameTrump(counts.index(max(counts)))
        if observation.phase == Phase.KEEP:
            from .keep import keep_from_observation

            return keep_from_observation(observation)
        if observation.phase == Phase.BID:
            estimate = self._estimate(observation)
            legal = [action.tricks for action in observation.legal_actions]  # type: ignore[union-attr]
            return Bid(min(legal, key=lambda bid: (abs(1000 * bid - estimate), bid)))
        return self._play(observation)

    def _estimate(self, observation: Observation) -> int:
        from .fast_tables import JOKER_VALUE, suit_tables

        participants, hand_size = len(observation.order), observation.hand_size
        if observation.hand_hidden:
            return hand_size * 1000 // participants
        assert self.variant is not None
        tables = suit_tables(self.variant, participants, hand_size)
        hand, trump = observation.hand, observation.trump
        estimate = JOKER_VALUE * (hand >> 52 & 3).bit_count()
        for suit in range(4):
            kind = 0 if trump == suit else 1 if trump >= 0 else 2
            estimate += int(tables[kind, suit, (hand >> (13 * suit)) & 8191])
        return estimate

    def _need(self, observation: Observation, remaining: int) -> int:
        assert self.variant is not None
        kind = self.variant.kinds[observation.kind]
        if kind.bidding == "none":
            return remaining if kind.per_trick > 0 else 0
        bid = observation.bids[self.seat]
        taken = observation.taken[self.seat]
        assert bid is not None
        if taken <= bid:
            return bid - taken
        return remaining if self.over_scores else 0

    def _play(self, observation: Observation) -> Action:
        from raspis.engine import Play
        from raspis.engine.core.codes import CALL_NAMES, OPTION_CALL, OPTION_INDEX, OPTION_SUIT

        from .fast_tables import LOSE_LEAD, WIN_LEAD, first_preferred

        hand = observation.hand
        ordinary = 0
        jokers = 0
        calls = 0
        for action in observation.legal_actions:
            card = action.card  # type: ignore[union-attr]
            if card >= 52:
                jokers |= 1 << card
                if action.rank:  # type: ignore[union-attr]
                    continue  # the Joker declared as a card: not played here (high, low are)
                option = OPTION_INDEX[CALL_CODES[action.call], action.suit + 1]  # type: ignore[union-attr]
                calls |= 1 << int(option)
            else:
                ordinary |= 1 << card
        remaining = hand.bit_count()
        need = self._need(observation, remaining)
        want = need > 0
        joker = 52 if jokers >> 52 & 1 else 53

        def joker_play(option: int) -> Action:
            option = max(option, 0)
            return Play(joker, CALL_NAMES[OPTION_CALL[option]], int(OPTION_SUIT[option]))  # type: ignore[arg-type]

        trick = observation.trick
        if not trick:
            if jokers:
                unseen = self.deck & ~hand & ~observation.played
                masters = sum(1 for suit in range(4)
                              if _top(hand, suit) >= 0 and _top(hand, suit) > _top(unseen, suit))
                if want and (not ordinary or need >= remaining
                             or (need > masters and self.no_fine)):
                    return joker_play(first_preferred(calls, WIN_LEAD))
                if not want and not ordinary:
                    return joker_play(first_preferred(calls, LOSE_LEAD))
            return Play(_rank_pick(ordinary, want))
        trick_trump, led = observation.trick_trump, observation.led_suit
        lead = trick[0]
        beat_jokers = core.trumps_beat_demand(lead.card, call_value(lead.call, lead.suit,
                                                                    lead.rank),
                                              lead.suit, trick_trump, self.trump_wins)
        best = max(core.card_key(entry.card, call_value(entry.call, entry.suit, entry.rank),
                                 index, led, trick_trump, beat_jokers, self.two_jokers)
                   for index, entry in enumerate(trick))
        step = len(trick)
        beats = core.winning_cards(ordinary, best, step, led, trick_trump, beat_jokers,
                                   self.two_jokers)
        trumps = ((1 << 13) - 1) << (13 * trick_trump) if trick_trump >= 0 else 0
        losers = ordinary & ~beats
        high_ok, low_ok = bool(calls & 1), bool(calls & 2)
        if want:
            high_key = core.card_key(joker, CALL_HIGH, step, led, trick_trump, beat_jokers,
                                     self.two_jokers)
            joker_wins = bool(jokers) and high_ok and high_key > best
            if not beats and (joker_wins or not ordinary) and jokers:
                return joker_play(0 if joker_wins else 1 if low_ok else 0)
            side = ordinary & ~trumps
            choice = beats or side or ordinary
            return Play(_rank_pick(choice, False))
        if jokers and ((not losers and low_ok) or not ordinary):
            return joker_play(1 if low_ok else 0)
        return Play(_rank_pick(losers or ordinary, True))
