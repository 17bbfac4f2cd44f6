"""``mc``: Monte Carlo search whose playouts are played by a compiled information-set policy.

At every decision with more than one distinct legal action (equivalent cards merged, the Joker
with each of its calls, every legal bid, every trump it may name) it guesses the hidden cards as
many times as its time budget allows (``samples`` at most), honestly: from every card the seat has
not seen, the voids shown respected, the trump guessed where the seat cannot see it (the masks of
``engine.determinize.HandSampler``, dealt by the compiled ``playout.sample_hands``). In every guess
it plays each candidate out to the deal's score with a compiled policy at every seat
(``playout.evaluate``: ``strong`` by default, ``fastheuristic`` optionally), the same guesses for
every candidate (common random numbers), and plays the candidate with the best mean value under
the variant's own score: the seat's deal points, fines included, plus, while the premium of a span
(002) is in reach, its stake when the bid is made (``heuristic.PremiumOutlook``, as ``pimc``).
Ties go to the policy's own choice.

``objective`` says whose points count. ``own`` (the default) values a candidate by the seat's own
score alone, as above. ``relative`` values it by that score minus the mean of the other
participating seats' deal points (premiums included) in the same playout: what a player who plays
to *win* the game (to finish first, not to score most) wants, since making a rival miss an exact
bid is then worth as much as making one's own. Every other seat counts alike: the strategy knows
nothing of who its rivals are, only that they are all the others.

The policy never reads a hand it could not see (``tests/test_strong.py``), so unlike ``pimc``'s
open-hand solving a playout has no strategy fusion: no seat of a guessed deal plays as if it saw
the others' cards. A bid is searched the same way: each legal bid, the later bidders bidding as
the policy does on their guessed hands, the whole deal played out.

``noise`` models rivals weaker than the policy: in the playouts, every seat but the deciding one
plays, at each card decision, a uniformly random legal card with that chance and the policy's card
otherwise (``compiled.noisy``); ``bid_noise`` likewise makes their bids uniformly random with
that chance (0 by default: bids stay the policy's). The draws come from the guesses' sampler
state, the same for every candidate of a guess, so a seed still plays the same games; with
``noise_self`` the deciding seat's own later cards are noisy too.

``play_inference`` reads the others' cards: each guess's deal is replayed from the start of the
play with the hands it guesses (``PlayEvidence``, ``playout.play_misses``), and its playouts weigh
``exp(-play_inference x misses)``, a miss being a play of another seat that the policy, on that
seat's guessed hand, would not have made (0 by default: no weighting).

Time: ``time`` (seconds a card decision, ``bid_time`` a bid or a trump; checked between chunks of
``chunk`` guesses) bounds a decision together with ``samples``; with ``time`` 0 (the default) only
``samples`` does, and the same seed plays the same games on any machine.
"""

from __future__ import annotations

import numpy as np
from raspis.engine import Action, Bid, NameTrump, Observation, Play
from raspis.engine.core import machine as m
from raspis.engine.core.codes import CALL_CODES
from raspis.engine.determinize import Determinizer
from raspis.engine.game import Game, Phase

from ..base import Parameter
from ..policies import compiled, playout
from ..policies.fitted import PLAYOUT_POLICY
from ..registry import StrategySpecError
from .ev import ExpectedValueStrategy
from .heuristic import PREMIUM_PARAMETERS, PremiumOutlook
from .pimc import PimcStrategy
from .search import BidEvidence, Deadline, distinct_plays, representative
from .strong import action_of
from .tactics import rules_for

__all__ = ["OBJECTIVES", "MonteCarloStrategy", "PlayEvidence", "action_code"]

#: what ``mc`` may value a candidate by (``objective``)
OBJECTIVES = ("own", "relative")


def action_code(action: Action) -> int:
    """The machine's code of an action (``machine.action_code``)."""
    if isinstance(action, Play):
        return m.action_code(action.card, CALL_CODES[action.call], action.suit, action.rank)
    if isinstance(action, Bid):
        return action.tricks
    assert isinstance(action, NameTrump)
    return action.suit + 1


class Position:
    """One decision's search position: the template state of the current deal built from the
    observation alone (``Game.from_observation``, every hidden hand empty), the sampler's masks,
    the policy's table, and the buffers of the compiled calls."""

    def __init__(self, observation: Observation, policy: int, noise: float = 0.0,
                 noise_self: bool = False, bid_noise: float = 0.0, learned: bool = True) -> None:
        self.observation = observation
        self.determinizer = Determinizer(observation)
        template = self.determinizer.template
        self.template = template.state
        self.plan = template.tables.plan
        # ``learned``: ``strong``'s card model's nonlinear part and its bid model, where its table
        # holds them (``mc``'s parameter ``learned``)
        self.table = compiled.policy_table(template.tables, template.plan, True,
                                           net_on=learned, bids_on=learned)
        self.policy = policy
        #: the playouts' policy code: ``policy``, noisy where ``noise`` (``compiled.noisy``: the
        #: plain code at chance 0)
        self.playout_policy = compiled.noisy(policy, noise, bid_noise)
        self.steady = not noise_self
        sampler = self.determinizer.sampler
        self.known = np.array(sampler.known, dtype=np.int64)
        self.missing = np.array(sampler.missing, dtype=np.int64)
        self.forbidden = np.array(sampler.forbidden, dtype=np.int64)
        self.pool = np.array(sampler.pool, dtype=np.int64)
        self.rest = int(sampler.rest)
        self.scratch = np.empty_like(self.template)

    def draw(self, count: int, seed: int, rng) -> tuple[np.ndarray, np.ndarray, int]:  # noqa: ANN001
        """``count`` guesses: (hands, trumps: suit and card where hidden, else -2; the sampler's
        next seed). ``rng`` (``random.Random``) guesses a hidden trump."""
        players = self.known.shape[0]
        hands = np.empty((count, players), dtype=np.int64)
        seed = int(playout.sample_hands(self.known, self.missing, self.forbidden, self.pool,
                                        self.rest, seed, count, hands))
        trumps = np.full((count, 2), -2, dtype=np.int64)
        if self.observation.trump_hidden:
            for guess in range(count):
                trump = self.determinizer.guess_trump([int(hand) for hand in hands[guess]], rng)
                if trump is not None:
                    trumps[guess, 0] = trump[0]
                    trumps[guess, 1] = -1 if trump[1] is None else trump[1]
        return hands, trumps, seed

    def policy_code(self, hands: np.ndarray, trumps: np.ndarray) -> int:
        """The policy's own action in the first guess (it reads only the seat's own view, so any
        guess gives the same): where candidates tie, ``search`` plays it."""
        state = self.template.copy()
        playout.deal_in(state, self.plan, hands[0], trumps[0])
        return compiled.decide_policy(state, self.plan, self.table, self.policy)

    def evaluate(self, hands: np.ndarray, trumps: np.ndarray, codes: np.ndarray,
                 seat: int, key: int = 0) -> np.ndarray:
        """The playout values (guesses x candidates x ``playout.VALUES``); ``key``: the random
        draws of noisy playouts."""
        values = np.empty((hands.shape[0], codes.shape[0], playout.VALUES), dtype=np.int64)
        playout.evaluate(self.template, self.plan, self.table, self.playout_policy, hands, trumps,
                         codes, seat, self.scratch, values, key, self.steady)
        return values


class PlayEvidence:
    """How badly a guess of the hidden hands explains the cards the other seats have played this
    deal (``mc``'s ``play_inference``): each guess's deal is replayed from the start of the play
    (``playout.play_misses``) and every play of another seat that the policy, on that seat's
    guessed hand, would not have made (an equivalent card counts as the same) is a miss; the
    guess's weight is ``exp(-strength x misses)``. A model of rivals who play much as the policy
    does, kept soft: a guess that misses is made less likely, never impossible. No evidence while
    bidding, where the seat may not look back at every trick of the deal, where the players draw
    after each trick, and in deals whose hands or trump are hidden or shown (dark, lobovaya). The
    replay is a game of the deal alone (``Game.from_observation``), which has no premium: where a
    seat plays for a premium of the span (002: joker, joker-pagat), even the true hands may miss
    one of its plays."""

    def __init__(self, observation: Observation, position: Position, strength: float) -> None:
        self.strength = strength
        self.on = False
        tricks = [trick.cards for trick in observation.tricks]
        entries = [entry for cards in [*tricks, observation.trick] for entry in cards]
        kind = observation.variant.kinds[observation.kind]
        if (strength <= 0 or observation.phase != Phase.PLAY or kind.view != "normal"
                or observation.hand_hidden or observation.trump_hidden
                or len(observation.tricks) != sum(observation.taken)
                or observation.deal_tricks != observation.hand_size
                or not any(entry.seat != observation.seat for entry in entries)):
            return
        self.on = True
        self.position = position
        players = observation.players
        played = [0] * players
        for entry in entries:
            played[entry.seat] |= 1 << entry.card
        everything = 0
        for cards in played:
            everything |= cards
        self.played = np.array(played, dtype=np.int64)
        self.actions = np.array([action_code(Play(entry.card, entry.call, entry.suit,  # type: ignore[arg-type]
                                                  entry.rank)) for entry in entries],
                                dtype=np.int64)
        # where the play began: the bids made, no card played, the first trick's leader to move
        start = observation._replace(
            to_move=entries[0].seat, hand=observation.hand | played[observation.seat],
            taken=(0,) * players, trick=(), tricks=(), played=observation.played & ~everything,
            led_suit=-1, trick_trump=(observation.tricks[0].trump if observation.tricks
                                      else observation.trick_trump))
        self.start = Game.from_observation(start, [0] * players).state
        self.seat = observation.seat

    def weights(self, hands: np.ndarray, trumps: np.ndarray) -> np.ndarray:
        """Each guess's weight (``hands``, ``trumps``: as ``Position.draw`` gives them)."""
        if not self.on:
            return np.ones(hands.shape[0])
        misses = np.empty(hands.shape[0], dtype=np.int64)
        position = self.position
        playout.play_misses(self.start, position.plan, position.table, position.policy, hands,
                            trumps, self.played, self.actions, self.seat, misses)
        return np.exp(-self.strength * misses)


class MonteCarloStrategy(ExpectedValueStrategy):
    """Monte Carlo search over honest guesses, each candidate played out by a compiled policy.

    Parameters: ``samples`` (guesses per decision at most), ``time`` and ``bid_time`` (seconds a
    decision, checked between chunks of ``chunk`` guesses; 0: no limit), ``policy`` (``strong``
    or ``fastheuristic``: who plays the playouts), ``objective`` (``own``: the seat's score;
    ``relative``: its score minus the mean of the other seats', to win rather than to score),
    ``play_inference`` (the guesses weighted by how well the policy explains the others' cards),
    ``noise``, ``bid_noise`` and ``noise_self`` (the playouts' rivals play a random card, bid a
    random bid, with those chances),
    and the premium's (``premium``, ``premium_odds``). Deterministic given its seed when the times
    are 0.
    """

    name = "mc"
    description = ("Monte Carlo search: every legal action played out over honest guesses of "
                   "the hidden cards by the compiled strong policy at every seat")
    parameters = {
        "samples": Parameter(int, 200, "guesses of the hidden cards per decision at most"),
        "time": Parameter(float, 0.0, "seconds per card decision at most, checked between "
                          "chunks of guesses (0: no limit; a limit makes the play depend on the "
                          "machine's speed)"),
        "bid_time": Parameter(float, -1.0, "seconds per bid or trump naming at most (below 0: "
                              "as time)"),
        "chunk": Parameter(int, 8, "guesses played out between two looks at the clock"),
        "policy": Parameter(str, PLAYOUT_POLICY, "the compiled policy of the playouts, at "
                            "every seat: strong or fastheuristic"),
        "inference": Parameter(float, 0.0, "weight of the bids already made on the guesses of "
                               "the hidden hands, each guess's playouts weighted by how well it "
                               "explains them (0: none; see search.BidEvidence)"),
        "play_inference": Parameter(float, 0.0, "weight of the cards the other seats have "
                                    "played this deal on the guesses: each guess's playouts "
                                    "weighted by exp(-play_inference x the plays the policy, on "
                                    "the guessed hands, would not have made) (0: none; see "
                                    "PlayEvidence)"),
        "noise": Parameter(float, 0.0, "chance that a seat other than the deciding one plays a "
                           "uniformly random legal card instead of the policy's at each card "
                           "decision of a playout (bids stay the policy's; 0: none): a model of "
                           "rivals weaker than the policy"),
        "bid_noise": Parameter(float, 0.0, "chance that a seat other than the deciding one bids "
                               "uniformly at random among its legal bids instead of as the "
                               "policy bids, in a playout (0: none)"),
        "noise_self": Parameter(bool, False, "the deciding seat's own later cards in a playout "
                                "noisy too (else only the other seats')"),
        "objective": Parameter(str, "own", "what a candidate is valued by: own (the seat's "
                               "score) or relative (its score minus the mean of the other "
                               "seats' deal points: play to win, a rival's missed bid worth as "
                               "much as one's own made)"),
        "learned": Parameter(bool, True, "the playouts' strong with the card model's nonlinear "
                             "part and the bid model where its table holds them; false: without "
                             "them, as before they were fitted to mc (a yardstick that stays put "
                             "while strong learns)"),
        **PREMIUM_PARAMETERS,
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if self.policy not in playout.POLICIES:
            raise StrategySpecError(f"mc: policy = {self.policy!r}; choose one of "
                                    f"{', '.join(playout.POLICIES)}")
        if self.objective not in OBJECTIVES:
            raise StrategySpecError(f"mc: objective = {self.objective!r}; choose one of "
                                    f"{', '.join(OBJECTIVES)}")
        if self.play_inference < 0:
            raise StrategySpecError(f"mc: play_inference = {self.play_inference}; a weight, 0 "
                                    "or more")
        for name in ("noise", "bid_noise"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise StrategySpecError(f"mc: {name} = {getattr(self, name)}; it is a chance, "
                                        "0 to 1")
        if self.samples < 1 or self.chunk < 1:
            raise StrategySpecError("mc: samples and chunk must be at least 1")

    @property
    def bid_seconds(self) -> float:
        """The time budget of a bid or a trump naming."""
        return self.time if self.bid_time < 0 else self.bid_time

    def choose(self, observation: Observation, outlook: PremiumOutlook | None) -> Action:
        """The candidate with the best mean playout value, in every phase."""
        phase = observation.phase
        candidates = (distinct_plays(observation) if phase == Phase.PLAY
                      else list(observation.legal_actions))
        if len(candidates) == 1:
            return candidates[0]
        return self.search(observation, candidates, outlook)

    def stakes(self, observation: Observation, candidates: list[Action],
               outlook: PremiumOutlook | None) -> np.ndarray:
        """What making its bid adds to each candidate's value: the premium in reach."""
        if observation.phase == Phase.BID:
            return np.array([PimcStrategy.stake(observation, outlook, action.tricks)
                             for action in candidates], dtype=np.float64)  # type: ignore[union-attr]
        bid = observation.bids[observation.seat]  # 0 without an outlook or a bid (``stake``)
        return np.full(len(candidates), float(PimcStrategy.stake(observation, outlook, bid)))

    def search(self, observation: Observation, candidates: list[Action],
               outlook: PremiumOutlook | None) -> Action:
        """Play every candidate out over guesses until the samples or the time run out."""
        position = Position(observation, playout.POLICIES[self.policy], self.noise,
                            self.noise_self, self.bid_noise, self.learned)
        codes = np.array([action_code(action) for action in candidates], dtype=np.int64)
        stakes = self.stakes(observation, candidates, outlook)
        seconds = self.time if observation.phase == Phase.PLAY else self.bid_seconds
        deadline = Deadline(seconds)
        seed = self.rng.getrandbits(64) - (1 << 63)
        evidence = BidEvidence(observation, rules_for(observation.variant), self.inference)
        shown = PlayEvidence(observation, position, self.play_inference)
        totals = np.zeros(len(candidates))
        preferred: int | None = None
        done = 0
        seat = observation.seat
        while done < self.samples:
            count = min(self.chunk, self.samples - done)
            hands, trumps, seed = position.draw(count, seed, self.rng)
            if preferred is None:
                preferred = position.policy_code(hands, trumps)
            # the sampler's next state keys the noisy playouts' draws (no draw of ``rng``, so
            # ``noise`` 0 plays as before)
            values = self.value(position.evaluate(hands, trumps, codes, seat, seed), stakes)
            if evidence.items:  # importance weights: how well each guess explains the bids
                values *= np.array([[evidence.weight([int(hand) for hand in row])]
                                    for row in hands])
            if shown.on:  # and how well they explain the cards the others have played
                values *= shown.weights(hands, trumps)[:, None]
            totals += values.sum(axis=0)
            done += count
            if deadline.passed():
                break
        return self.pick(observation, candidates, codes, totals, preferred)

    def value(self, values: np.ndarray, stakes: np.ndarray) -> np.ndarray:
        """Each playout's value (guesses x candidates) under ``objective``: the seat's points,
        premium and stake when it makes its bid; ``relative`` less the mean of the other
        participants' points and premiums."""
        own = (values[:, :, playout.V_POINTS] + values[:, :, playout.V_PREMIUM]
               + values[:, :, playout.V_MADE] * stakes)
        if self.objective == "own":
            return own
        rivals = np.maximum(values[:, :, playout.V_RIVALS], 1)
        return own - values[:, :, playout.V_OTHERS] / rivals

    @staticmethod
    def pick(observation: Observation, candidates: list[Action], codes: np.ndarray,
             totals: np.ndarray, preferred: int | None) -> Action:
        """The best candidate; ties go to the policy's choice (``preferred``, a code)."""
        favourite = -1
        if preferred is not None:
            action = representative(candidates, action_of(preferred, observation.phase))
            for index, candidate in enumerate(candidates):
                if candidate == action:
                    favourite = index
        best = int(np.argmax(totals))
        top = totals[best]
        if favourite >= 0 and totals[favourite] >= top - 1e-9:
            best = favourite
        return candidates[best]
