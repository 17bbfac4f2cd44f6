"""The expected-value strategy: bids for the best expected score under the variant's own table.

To bid, it guesses the hidden cards ``samples`` times (``engine.determinize``: consistent with its
hand, the turned card, anything shown), and in each guess plays the deal out with the heuristic for
every seat once for each candidate bid (the heuristic's bid, ``window`` bids either side of it, and
the pass), the later bidders bidding as the heuristic does. That gives, for each candidate bid, a
distribution of the tricks the seat takes when it plays for that bid; it bids the one whose expected
points under the deal's score table (``engine.core.scoring.deal_points``: 10 a trick and -10 a
missing one in classic, 50k + 50 in Georgian, x2 in a dark deal...) are highest. ``best_bid`` is
that decision as a pure function of the distributions and the table. The same guesses choose the
trump when the seat names it. Card play is the heuristic's. Where the variant has a premium for
making every bid of a span (002), a made bid's points include the stake of the premium kept in
reach, as for the heuristic (``strategies.players.heuristic.PremiumTracker``; ``premium`` = false:
not).

About 20 ms a bid on average with the default 12 samples (p95 about 50 ms, four players), so a
whole game of classic or Georgian Joker costs about 0.6 s more than the heuristic
(``docs/strength.md``).
"""

from __future__ import annotations

from raspis.engine import Action, Bid, Observation
from raspis.engine.determinize import Determinizer

from ..base import Parameter
from .heuristic import (
    HeuristicStrategy,
    PremiumOutlook,
    bid_distribution,
    observation_out,
    premium_parameters,
)
from .search import BidEvidence, Deadline, guesses, playout
from .tactics import Rules, best_bid, points_table, rules_for

__all__ = ["INFERENCE", "WINDOW_AS_EV", "CardSearchStrategy", "ExpectedValueStrategy", "best_bid",
           "points_table"]


def candidate_bids(observation: Observation, window: int, outlook: PremiumOutlook | None
                   ) -> tuple[Rules, list[list[int]] | list[list[float]], int, list[int]]:
    """Where a searched bid starts: (the variant's rules, the deal's score table, with the premium
    in reach when ``outlook`` is given; the heuristic's best bid under it; the legal bids within
    ``window`` of that, and the pass), shared by ``ev`` and ``pimc``."""
    rules = rules_for(observation.variant)
    legal = [action.tricks for action in observation.legal_actions]  # type: ignore[union-attr]
    hand = None if observation.hand_hidden else observation.hand
    prior = bid_distribution(
        rules, observation.seat, hand, observation.other_hands, observation.trump,
        observation.hand_size, observation.order, observation.dealer,
        observation_out(observation),
    )
    table: list[list[int]] | list[list[float]] = points_table(
        rules, observation.kind, observation.deal_tricks)
    if outlook is not None:
        table = outlook.table(rules, observation.kind, observation.deal_tricks, observation.seat)
    start, _ = best_bid(prior, legal, table)
    candidates = [bid for bid in legal if abs(bid - start) <= window or bid == 0]
    return rules, table, start, candidates


#: ``inference``, of ``ev`` and the players that bid as it (``ismcts``, ``pimc``)
INFERENCE = Parameter(float, 0.0, "weight of the bids already made on the guesses of the hidden "
                      "hands (0: none; experimental, see search.BidEvidence)")
#: ``window`` of the players that bid as ``ev`` (``ismcts``, ``pimc``)
WINDOW_AS_EV = Parameter(int, 2, "bids tried on each side of the heuristic's, as ev")


class ExpectedValueStrategy(HeuristicStrategy):
    """Bids the best expected deal score, from sampled playouts, under the variant's score table.

    Parameters: ``samples`` (guesses of the hidden cards per bid), ``window`` (bids tried either
    side of the heuristic's), ``time`` (seconds per bid at most; 0: no limit). Plays as the
    heuristic. Deterministic given its seed.
    """

    name = "ev"
    description = "bids the best expected score under the variant's table, from sampled playouts"
    parameters = {
        "samples": Parameter(int, 12, "guesses of the hidden cards per bid (and per trump choice)"),
        "window": Parameter(int, 2, "bids tried on each side of the heuristic's bid (the pass is "
                            "always tried)"),
        "time": Parameter(float, 0.0, "seconds per bid at most, checked between samples (0: no "
                          "limit)"),
        "inference": INFERENCE,
        **premium_parameters(True),
    }

    @property
    def bid_guesses(self) -> int:
        """Guesses of the hidden cards per bid and per trump choice."""
        return int(self.samples)

    def bid_action(self, observation: Observation, outlook: PremiumOutlook | None) -> Action:
        """The bid by sampled expectation (``search_bid``); the heuristic plays."""
        return Bid(self.search_bid(observation, self.bid_guesses, self.window,
                                   self.time, outlook=outlook))

    def trump_action(self, observation: Observation) -> Action:
        """The suit named by sampled expectation (``search_trump``)."""
        return self.search_trump(observation, self.bid_guesses, self.time)

    def search_bid(
        self, observation: Observation, samples: int, window: int, seconds: float,
        outlook: PremiumOutlook | None = None,
    ) -> int:
        """The bid with the best expected points over ``samples`` sampled playouts per candidate
        (``outlook``: the premium in reach, whose stake is added to each made bid's points)."""
        rules, table, start, candidates = candidate_bids(observation, window, outlook)
        if len(candidates) == 1 or samples <= 0:
            return start
        counts = {bid: [0] * (observation.deal_tricks + 1) for bid in candidates}
        determinizer = Determinizer(observation)
        stream = guesses(determinizer, BidEvidence(observation, rules, self.inference), self.rng)
        deadline = Deadline(seconds)
        seat = observation.seat
        done = 0
        for _ in range(samples):
            hands, trump = next(stream)
            for bid in candidates:
                game = determinizer.game(hands, trump)
                game.apply_unchecked(Bid(bid))
                playout(game, rules)
                counts[bid][game.results[0].taken[seat]] += 1
            done += 1
            if deadline.passed():
                break
        distributions = {bid: [count / done for count in counts[bid]] for bid in candidates}
        return best_bid(distributions, candidates, table)[0]

    def search_trump(self, observation: Observation, samples: int, seconds: float) -> Action:
        """The trump to name with the best mean points over sampled playouts of the deal."""
        rules: Rules = rules_for(observation.variant)
        actions = list(observation.legal_actions)
        determinizer = Determinizer(observation)
        deadline = Deadline(seconds)
        totals = {action: 0.0 for action in actions}
        seat = observation.seat
        for _ in range(max(1, samples)):
            hands, trump = determinizer.draw(self.rng)
            for action in actions:
                game = determinizer.game(hands, trump)
                game.apply_unchecked(action)
                playout(game, rules)
                totals[action] += game.results[0].points[seat]
            if deadline.passed():
                break
        fallback = HeuristicStrategy.trump_action(self, observation)  # breaks ties
        return max(actions, key=lambda action: (totals[action], action == fallback))


class CardSearchStrategy(ExpectedValueStrategy):
    """A player that searches its cards too (``search_play``, its own), and bids and names trump
    as ``ev`` with ``bid_samples`` guesses (its ``samples`` are the card decision's): the base of
    ``ismcts`` and ``pimc``."""

    @property
    def bid_guesses(self) -> int:
        """Guesses per bid and per trump choice: ``bid_samples``."""
        return int(self.bid_samples)  # type: ignore[attr-defined]

    def play_action(self, observation: Observation, outlook: PremiumOutlook | None) -> Action:
        """Search the card to play."""
        return self.search_play(observation, outlook)

    def search_play(self, observation: Observation,
                    outlook: PremiumOutlook | None = None) -> Action:
        """The card the search chooses."""
        raise NotImplementedError
