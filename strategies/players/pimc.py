"""Perfect-information Monte Carlo card play with exact solving of each guess; bidding too.

For each card decision it guesses the hidden hands ``samples`` times, consistently with what the
seat knows (``engine.determinize``: the cards seen played, the voids players have shown by not
following suit or not trumping, the high or low cards a Joker's demand has shown, the trump card),
and in every guess solves the rest of the deal with all cards open (``strategies.players.solver``,
the compiled alpha-beta of ``engine.core.solve``): the points the seat scores for the deal under the
variant's own table, its bid fixed, when it plays on to maximise them and the other seats to
minimise them. Every distinct legal action (equivalent cards merged, the Joker with each of its
calls) is valued in every guess, and it plays the action with the best mean; ties go to the
heuristic's choice. The same guesses serve every action (common random numbers).

With ``solve = "playout"`` it values each action by one playout of the rest of the deal with the
heuristic for every seat instead (pimc's first form); a guess whose solve runs
past the node budget (``budget``), and every deal the solver does not model (drawing from the stock
after each trick), falls back to those playouts.

Bidding: ``bidding = "solve"`` weighs each candidate bid (the heuristic's, ``window`` either side,
and the pass) by the solved value of the deal before its first card in ``bid_samples`` guessed
deals (the later bidders bidding as the heuristic would on their guessed hands), and bids the best
mean; ``bidding = "playout"`` bids as ``ev`` (heuristic playouts of each
candidate, the best expected score under the table). Trump is named as ``ev`` names it.

Premiums (002: the best deal once more for making every bid of the game or a pulka): with
``premium`` (the default) the seat follows its span as the heuristic does
(``heuristic.PremiumTracker``), and while the premium is in reach its stake
(``PremiumOutlook.stake``, weighted by ``premium_odds``) is added to the value of making its bid,
in the solved guesses, the playouts and the bids alike; the other seats' premiums are not
modelled.

Decision time is bounded by ``samples`` and, when set, ``time`` (seconds, checked between guesses).
"""

from __future__ import annotations

from raspis.engine import Action, Bid, Observation
from raspis.engine.determinize import Determinizer
from raspis.engine.game import Phase

from ..base import Parameter
from ..registry import StrategySpecError
from .ev import INFERENCE, WINDOW_AS_EV, CardSearchStrategy, candidate_bids
from .heuristic import (
    PREMIUM_PARAMETERS,
    PremiumOutlook,
    play_from_observation,
    policy_action,
)
from .search import (
    BidEvidence,
    Deadline,
    argmax,
    distinct_plays,
    guesses,
    playout,
    representative,
)
from .solver import DEFAULT_BUDGET, MODELS, OpenHandSolver, solvable
from .tactics import rules_for

SOLVE_MODES = ("exact", "playout")
BIDDING_MODES = ("solve", "playout")


class PimcStrategy(CardSearchStrategy):
    """Determinized card play over sampled hidden hands, each guess solved exactly.

    Parameters: ``samples`` (guesses of the hidden hands per card decision), ``solve`` (``exact``
    or ``playout``), ``budget`` (nodes per solve), ``bidding`` (``solve`` or ``playout``),
    ``bid_samples`` and ``window`` (the bidding), ``time`` (seconds per decision at most, checked
    between guesses; 0: no limit). Deterministic given its seed when ``time`` is 0.
    """

    name = "pimc"
    description = ("determinized play: each card valued by solving sampled deals open-handed "
                   "under the variant's table")
    parameters = {
        "samples": Parameter(int, 24, "guesses of the hidden hands per card decision"),
        "solve": Parameter(str, "exact", "how a guess values each action: exact (open-hand "
                           "alpha-beta) or playout (the heuristic plays the deal out)"),
        "model": Parameter(str, "maxn", "how the other seats play in a solved guess: maxn "
                           "(each for its own points, the bids fixed) or paranoid (all against "
                           "this seat)"),
        "endgame": Parameter(int, 0, "solve only when at most this many tricks are left, the "
                             "current one counted; before that play out (0: always solve)"),
        "budget": Parameter(int, DEFAULT_BUDGET, "search nodes per solved guess; past it the "
                            "decision plays out with the heuristic"),
        "bidding": Parameter(str, "playout", "how bids are weighed: solve (the solved value of "
                             "sampled deals) or playout (as ev)"),
        "bid_samples": Parameter(int, 12, "guesses per bid"),
        "window": WINDOW_AS_EV,
        "time": Parameter(float, 0.0, "seconds per decision at most, checked between guesses "
                          "(0: no limit; a limit makes the play depend on the machine's speed)"),
        "bid_time": Parameter(float, -1.0, "seconds per bid at most (below 0: as time)"),
        "inference": INFERENCE,
        **PREMIUM_PARAMETERS,
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if self.solve not in SOLVE_MODES:
            raise StrategySpecError(f"pimc: solve = {self.solve!r}; choose one of "
                             f"{', '.join(SOLVE_MODES)}")
        if self.bidding not in BIDDING_MODES:
            raise StrategySpecError(f"pimc: bidding = {self.bidding!r}; choose one of "
                             f"{', '.join(BIDDING_MODES)}")
        if self.model not in MODELS:
            raise StrategySpecError(f"pimc: model = {self.model!r}; choose one of "
                                    f"{', '.join(MODELS)}")
        self._solver: OpenHandSolver | None = None

    @property
    def solver(self) -> OpenHandSolver:
        """The open-hand solver (its transposition table made on first use)."""
        if self._solver is None:
            self._solver = OpenHandSolver(budget=self.budget, model=self.model)
        return self._solver

    def bid_action(self, observation: Observation, outlook: PremiumOutlook | None) -> Action:
        """Search the bid (``search_bid_action``)."""
        return self.search_bid_action(observation, outlook)

    @staticmethod
    def stake(observation: Observation, outlook: PremiumOutlook | None, bid: int | None) -> int:
        """What making ``bid`` adds for the seat on top of the deal's points: the premium kept in
        reach (``heuristic.PremiumOutlook``; 0 without one), in whole points for the solver."""
        if outlook is None:
            return 0
        return round(outlook.stake(rules_for(observation.variant), observation.kind,
                                   observation.deal_tricks, observation.seat, bid))

    # -- bidding ------------------------------------------------------------------------------

    def search_bid_action(self, observation: Observation,
                          outlook: PremiumOutlook | None = None) -> Action:
        """The bid with the best mean solved value (``bidding = solve``), else ``ev``'s bid;
        ``outlook``: the premium in reach, whose stake is added to a made bid."""
        if self.bidding == "solve" and solvable(observation.variant):
            bid = self.solved_bid(observation, outlook)
            if bid is not None:
                return Bid(bid)
        return Bid(self.search_bid(observation, self.bid_samples, self.window, self.bid_seconds,
                                   outlook=outlook))

    @property
    def bid_seconds(self) -> float:
        """The time budget of a bid."""
        return self.time if self.bid_time < 0 else self.bid_time

    def solved_bid(self, observation: Observation,
                   outlook: PremiumOutlook | None = None) -> int | None:
        """The candidate bid whose solved value, averaged over guessed deals, is highest; None
        when a solve ran past the budget (the caller then bids as ``ev``)."""
        rules, table, start, candidates = candidate_bids(observation, self.window, outlook)
        if len(candidates) == 1 or self.bid_samples <= 0:
            return start
        determinizer = Determinizer(observation)
        stream = guesses(determinizer, BidEvidence(observation, rules, self.inference), self.rng)
        deadline = Deadline(self.bid_seconds)
        totals = {bid: 0.0 for bid in candidates}
        solver = self.solver
        seat = observation.seat
        for _ in range(self.bid_samples):
            hands, trump = next(stream)
            for bid in candidates:
                game = determinizer.game(hands, trump)
                game.apply_unchecked(Bid(bid))
                while game.phase == Phase.BID:  # the later bidders bid as the heuristic
                    game.apply_unchecked(policy_action(game, rules))
                value = solver.position_value(game, seat,
                                              bonus=self.stake(observation, outlook, bid))
                if value is None:
                    return None
                totals[bid] += value
            if deadline.passed():
                break
        return max(candidates, key=lambda bid: (totals[bid], bid == start, -bid))

    # -- card play ----------------------------------------------------------------------------

    def search_play(self, observation: Observation,
                    outlook: PremiumOutlook | None = None) -> Action:
        """The legal action with the best mean value over the guesses (``outlook``: the premium
        in reach, whose stake is added when the seat makes its bid)."""
        rules = rules_for(observation.variant)
        candidates = distinct_plays(observation)
        preferred = representative(candidates, play_from_observation(rules, observation))
        if len(candidates) == 1:
            return candidates[0]
        determinizer = Determinizer(observation)
        stream = guesses(determinizer, BidEvidence(observation, rules, self.inference), self.rng)
        deadline = Deadline(self.time)
        seat = observation.seat
        exact = self.solve == "exact" and solvable(observation.variant)
        if exact and self.endgame > 0:
            exact = observation.deal_tricks - sum(observation.taken) <= self.endgame
        solver = self.solver if exact else None
        bid = observation.bids[seat]
        bonus = self.stake(observation, outlook, bid)
        totals = {action: 0.0 for action in candidates}
        for _ in range(max(1, self.samples)):
            hands, trump = next(stream)
            values = None
            if solver is not None:
                values = solver.values_for(observation, hands, candidates, bonus=bonus)
                if values is None:  # past the budget: play out from now on in this decision
                    solver = None
            if values is None:
                values = []
                for action in candidates:
                    game = determinizer.game(hands, trump)
                    game.apply_unchecked(action)
                    playout(game, rules)
                    result = game.results[0]
                    values.append(result.points[seat]
                                  + (bonus if result.taken[seat] == bid else 0))
            for action, value in zip(candidates, values, strict=True):
                totals[action] += value
            if deadline.passed():
                break
        return argmax(totals, preferred, candidates)
