"""What the sampling strategies share: heuristic playouts of determinized deals, guesses weighted
by the bids already made, the merging of equivalent cards, and a per-decision time budget.

A playout takes a search game of the current deal (``engine.determinize``) and plays it to the end
of the deal with the heuristic for every seat (``heuristic.policy_action``), reading the ``Game``
directly; the seat's result is then ``game.results[0]`` (its tricks taken and its points).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from typing import ClassVar

from raspis.engine import Action, Observation, Play
from raspis.engine.cards import ABOVE
from raspis.engine.core.codes import HOOK_NONE
from raspis.engine.core.plan import rule_plan
from raspis.engine.determinize import Determinizer, named_choices
from raspis.engine.game import Game

from ..policies.chances import Holding
from .heuristic import expected_first_leader, observation_out, policy_action
from .tactics import Rules, best_bid, card_chances, trick_distribution

Guess = tuple[list[int], tuple[int, int | None, str] | None]

SUIT_TOP = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))


def playout(game: Game, rules: Rules) -> Game:
    """Play ``game`` on to the end of its deal with the heuristic for every seat; returns it."""
    apply = game.apply_unchecked
    while not game.is_over():  # a search game ends when its deal is scored
        apply(policy_action(game, rules))
    return game


class BidEvidence:
    """How well a guess of the hidden hands explains the bids already made this deal.

    A player who bid b probably holds a hand on which the heuristic would bid about b: a guess
    gets the weight exp(-strength x (b - heuristic bid)^2 / 2), multiplied over the players who
    have bid, where the heuristic bid is the one it would make (by its own trick distribution and
    the deal's score table, without the hook) on the hand the player held when bidding (its
    guessed hand and the cards it has played since). A dealer bound by the hook counts half as
    much. No evidence in dark and lobovaya deals (bids made without seeing one's cards), nor when
    the memory rule hides some of this deal's tricks.

    Experimental: the strategies' ``inference`` parameter is 0 (off) by default, because in the
    duplicate matches run so far it did not measurably help (ev with it against ev without, 50
    classic deal sets: -4.9 points a game, 95% CI [-13.5, +3.8]; pimc with 12 samples, 24 joker
    deal sets: -26, CI [-121, +70]). The weighting resamples each chunk of guesses from three
    times as many, so the guesses also repeat more; a better-calibrated bid model may change that.
    """

    def __init__(self, observation: Observation, rules: Rules, strength: float) -> None:
        self.rules = rules
        self.items: list[tuple[int, int, int, bool, float]] = []
        kind = rules.kinds[observation.kind]
        visible_all = len(observation.tricks) == sum(observation.taken)
        if (strength <= 0 or kind.bidding != "open" or kind.view != "normal"
                or getattr(observation, "trump_hidden", False) or not visible_all):
            return
        order = observation.order
        played = [0] * observation.players
        for trick in observation.tricks:
            for entry in trick.cards:
                played[entry.seat] |= 1 << entry.card
        for entry in observation.trick:
            played[entry.seat] |= 1 << entry.card
        first = expected_first_leader(rules.dealer_leads, observation.dealer, order)
        # the hook of this deal as the core rules it (``RulePlan.hook_rule``: a kind's own hook,
        # else bidding.hook, from_deal and specials_only included)
        hook = rule_plan(observation.variant, observation.players).hook_rule(
            observation.deal_number, kind)
        hooked = hook != HOOK_NONE
        for seat in order:
            bid = observation.bids[seat]
            if seat == observation.seat or bid is None:
                continue
            weight = strength * (0.5 if hooked and seat == order[-1] else 1.0)
            self.items.append((seat, bid, played[seat], seat == first, weight))
        self.trump = observation.trump
        self.kind = observation.kind
        self.hand_size = observation.hand_size
        self.players = len(order)
        self.out = observation_out(observation)
        self.scale = rules.scale(self.players, self.hand_size,
                                 self.trump >= 0 or rules.circular)

    def weight(self, hands: list[int]) -> float:
        """The weight of a guess (1 when there is no evidence)."""
        if not self.items:
            return 1.0
        rules, deck, out = self.rules, self.rules.deck, self.out
        total = 0.0
        table = rules.points(self.kind, self.hand_size)
        bids = list(range(self.hand_size + 1))
        for seat, bid, played, leads, strength in self.items:
            hand = hands[seat] | played
            chances = card_chances(Holding(hand, self.trump, self.hand_size, self.players, leads,
                                           deck & ~hand & ~out, rules.play))
            distribution = trick_distribution(chances, self.hand_size, self.scale)
            expected = best_bid(distribution, bids, table)[0]
            total += strength * (bid - expected) ** 2
        return math.exp(-0.5 * total)


def guesses(determinizer: Determinizer, evidence: BidEvidence, rng: random.Random,
            chunk: int = 8, pool: int = 3) -> Iterator[Guess]:
    """Endless guesses of the hidden cards: with evidence, each chunk of ``chunk`` guesses is drawn
    from ``pool`` times as many, in proportion to their weights (sampling-importance-resampling)."""
    while True:
        if not evidence.items:
            yield determinizer.draw(rng)
            continue
        drawn = [determinizer.draw(rng) for _ in range(chunk * pool)]
        weights = [evidence.weight(hands) for hands, _ in drawn]
        if sum(weights) <= 0.0:
            weights = [1.0] * len(drawn)
        yield from rng.choices(drawn, weights=weights, k=chunk)


def random_playout(game: Game, rng) -> Game:  # noqa: ANN001 - random.Random
    """Play ``game`` on to the end of its deal with uniformly random legal actions."""
    while not game.is_over():  # a search game ends when its deal is scored
        actions = game.legal_actions()
        game.apply_unchecked(actions[rng.randrange(len(actions))])
    return game


def distinct_plays(observation: Observation) -> list[Action]:
    """The legal actions with equivalent cards merged: two cards of a suit are equivalent when
    every card between them is in the seat's hand or already seen played (the lower one is kept);
    the two Jokers are equivalent to each other with the same call."""
    actions = observation.legal_actions
    if len(actions) <= 1:
        return list(actions)
    gone = observation.hand | observation.played
    kept: list[Action] = []
    seen_calls: set[tuple[str | None, int, int]] = set()
    cards = sorted((action for action in actions if isinstance(action, Play)),
                   key=lambda action: action.card)
    # a Joker declared as a card (``joker.as_card``): only the highest and the lowest card of each
    # suit are tried (``engine.determinize.named_choices``)
    named = {action.named for action in cards if action.rank}
    tried = set(named_choices(sum(1 << card for card in named)))
    previous = -1
    for action in cards:
        card = action.card
        if card >= 52:
            if action.rank and action.named not in tried:
                continue
            key = (action.call, action.suit, action.rank)
            if key not in seen_calls:
                seen_calls.add(key)
                kept.append(action)
            continue
        if previous >= 0 and previous // 13 == card // 13:
            between = ABOVE[previous] & ~ABOVE[card] & ~(1 << card)
            if between & ~gone == 0:
                previous = card
                continue
        kept.append(action)
        previous = card
    kept.extend(action for action in actions if not isinstance(action, Play))
    return kept


def representative(candidates: list[Action], action: Action) -> Action:
    """The member of ``candidates`` (from ``distinct_plays``) that stands for ``action``."""
    if action in candidates or not isinstance(action, Play):
        return action
    if action.card >= 52:
        for candidate in candidates:
            if isinstance(candidate, Play) and candidate.card >= 52 and (
                candidate.call, candidate.suit, candidate.rank) == (
                    action.call, action.suit, action.rank):
                return candidate
        return action
    same = [candidate for candidate in candidates if isinstance(candidate, Play)
            and candidate.card < 52 and candidate.card // 13 == action.card // 13
            and candidate.card <= action.card]
    return max(same, key=lambda candidate: candidate.card) if same else action


class Deadline:
    """A time budget for one decision (``seconds`` <= 0: none), on the clock ``clock`` (wall
    time; ``benchmarks.openspiel_match`` sets it to CPU time, ``time.process_time``, for every
    search strategy at once)."""

    __slots__ = ("end",)

    clock: ClassVar[Callable[[], float]] = time.perf_counter

    def __init__(self, seconds: float) -> None:
        self.end = Deadline.clock() + seconds if seconds > 0 else None

    def passed(self) -> bool:
        """True once the budget is spent."""
        return self.end is not None and Deadline.clock() >= self.end


def argmax(
    values: dict[Action, float], preferred: Action | None, order: Iterable[Action]
) -> Action:
    """The action with the highest value; ties go to ``preferred``, then to the first in
    ``order``."""
    best: Action | None = None
    best_value = 0.0
    for action in order:
        value = values[action]
        if best is None or value > best_value + 1e-9 or (
            abs(value - best_value) <= 1e-9 and action == preferred
        ):
            best, best_value = action, value
    assert best is not None
    return best
