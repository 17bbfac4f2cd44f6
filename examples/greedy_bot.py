"""A complete raspis strategy: ``--strategies ./examples/greedy_bot.py:GreedyBot``."""

from raspis.engine import Phase
from raspis.engine.cards import cards_of, rank_of, suit_of
from raspis.strategies import Strategy


class GreedyBot(Strategy):
    """Bids its aces, Jokers and top trumps; plays high until its bid is made, then low."""

    name = "greedy"
    description = "counts high cards to bid; plays its highest card while short, else its lowest"

    def act(self, observation):
        legal = observation.legal_actions
        if observation.phase == Phase.BID:
            strong = sum(1 for card in cards_of(observation.hand)
                         if rank_of(card) >= 14 - (suit_of(card) == observation.trump))
            return min(legal, key=lambda bid: abs(bid.tricks - strong))
        if observation.phase != Phase.PLAY:
            return legal[0]  # naming trump: the first suit offered
        bid = observation.bids[observation.seat]
        short = bid is None or bid > observation.taken[observation.seat]
        power = lambda play: (rank_of(play.card), play.call in (None, "high", "highest", "trumps"))  # noqa: E731
        return max(legal, key=power) if short else min(legal, key=power)
