"""Perfect-information Monte Carlo card play (determinized sampling), bidding as ``ev``.

For each card decision it guesses the hidden hands ``samples`` times, consistently with what the
seat knows (``engine.determinize``: the cards seen played, the voids players have shown by not
following suit or not trumping, the high or low cards a Joker's demand has shown, the trump card),
and in every guess plays each distinct legal action (equivalent cards merged) followed by the rest
of the deal with the heuristic for all seats. It plays the action with the best mean of its own
points for the deal (the variant's table, fines included); ties go to the heuristic's choice. The
same guesses serve every action (common random numbers), so their differences are measured on the
same deals.

Cost: a decision with k distinct actions and ``samples`` guesses runs k x samples playouts of the
rest of the deal (about 0.1-0.6 ms each); with the defaults that is about 20 ms a decision on
average at four players, 50-90 ms at the 95th percentile and under 0.2 s at most (measured in
``docs/strength.md``); the ``time`` budget caps it when set.
"""

from __future__ import annotations

from raspis.engine import Action, Bid, Observation
from raspis.engine.determinize import Determinizer
from raspis.engine.game import Phase

from .base import Parameter
from .ev import ExpectedValueStrategy
from .heuristic import play_from_observation
from .search import (
    BidEvidence,
    Deadline,
    argmax,
    distinct_plays,
    guesses,
    playout,
    representative,
)
from .tactics import rules_for


class PimcStrategy(ExpectedValueStrategy):
    """Determinized Monte Carlo card play over sampled hidden hands; bids as ``ev``.

    Parameters: ``samples`` (guesses of the hidden hands per card decision), ``bid_samples`` and
    ``window`` (the ``ev`` bidding), ``time`` (seconds per decision at most, checked between
    guesses; 0: no limit). Deterministic given its seed when ``time`` is 0.
    """

    name = "pimc"
    description = "determinized Monte Carlo play: each card scored by playouts of sampled deals"
    parameters = {
        "samples": Parameter(int, 24, "guesses of the hidden hands per card decision"),
        "bid_samples": Parameter(int, 12, "guesses per bid, as ev's samples"),
        "window": Parameter(int, 2, "bids tried on each side of the heuristic's, as ev"),
        "time": Parameter(float, 0.0, "seconds per decision at most, checked between guesses "
                          "(0: no limit; a limit makes the play depend on the machine's speed)"),
        "inference": Parameter(float, 0.0, "weight of the bids already made on the guesses of "
                               "the hidden hands (0: none; experimental, see search.BidEvidence)"),
    }

    def act(self, observation: Observation) -> Action:
        """Search the card to play; bid and name trump as ``ev``."""
        actions = observation.legal_actions
        if len(actions) == 1:
            return actions[0]
        phase = observation.phase
        if phase == Phase.BID:
            return self.search_bid_action(observation)
        if phase == Phase.TRUMP:
            return self.search_trump(observation, self.bid_samples, self.time)
        return self.search_play(observation)

    def search_bid_action(self, observation: Observation) -> Action:
        """The ``ev`` bid."""
        return Bid(self.search_bid(observation, self.bid_samples, self.window, self.time))

    def search_play(self, observation: Observation) -> Action:
        """The legal action with the best mean own points over the sampled playouts."""
        rules = rules_for(observation.variant)
        candidates = distinct_plays(observation)
        preferred = representative(candidates, play_from_observation(rules, observation))
        if len(candidates) == 1:
            return candidates[0]
        determinizer = Determinizer(observation)
        stream = guesses(determinizer, BidEvidence(observation, rules, self.inference), self.rng)
        deadline = Deadline(self.time)
        seat = observation.seat
        totals = {action: 0.0 for action in candidates}
        for _ in range(max(1, self.samples)):
            hands, trump = next(stream)
            for action in candidates:
                game = determinizer.game(hands, trump)
                game.apply_unchecked(action)
                playout(game, rules)
                totals[action] += game.results[0].points[seat]
            if deadline.passed():
                break
        return argmax(totals, preferred, candidates)
