"""Single-observer information-set Monte Carlo tree search (Cowling, Powley, Whitehouse 2012),
bidding as ``ev``.

One tree per card decision, rooted at the seat's information set, with a node per sequence of
actions (every seat's plays, keyed by the action). Each iteration:

1. guesses the hidden hands (a determinization, ``engine.determinize``: consistent with the cards
   seen played, the voids shown, the Joker's demands and the trump card);
2. descends from the root while every action legal in this determinization has been tried,
   choosing by UCB1 among the actions available in it, where an action's exploration term counts
   the iterations in which it was available rather than its parent's visits (the "availability
   count" of ISMCTS); each node's value is the mean reward of the seat that moved into it;
3. expands one untried action (the heuristic's choice when it is untried, else a random one);
4. plays the rest of the deal out with the heuristic for every seat (or at random);
5. backs up every seat's points for the deal, normalised to [0, 1] by the lowest and highest
   score the deal's table allows (so the exploration constant means the same in every variant).

Where the variant has a premium for making every bid of a span (002), a seat's reward includes
the stake of the premium it keeps in reach when it makes its bid (``strategies.players.heuristic.
PremiumTracker``; ``premium`` = false: the deal's points only). It plays the root action visited
most. Equivalent cards (nothing unseen between them) are merged
at the root. ``iterations`` bounds the work; ``time`` bounds the seconds a decision may take.
With the defaults a decision takes about 75 ms on average at four players, 0.17 s at the 95th
percentile and about 0.2 s at most (``docs/strength.md``); fewer iterations scale it down.
"""

from __future__ import annotations

import math

from raspis.engine import Action, Observation, Play
from raspis.engine.determinize import Determinizer, play_options
from raspis.engine.game import Game, Phase

from ..base import Parameter
from .ev import INFERENCE, WINDOW_AS_EV, CardSearchStrategy
from .heuristic import PremiumOutlook, play_from_observation, policy_action, premium_parameters
from .search import (
    BidEvidence,
    Deadline,
    distinct_plays,
    guesses,
    playout,
    random_playout,
    representative,
)
from .tactics import PLAYS, Rules, rules_for

_JOKER_PLAYS: dict[tuple[int, str, int], Play] = {}


def _legal_plays(game: Game) -> list[Action]:
    """The legal plays of the seat to move as ``Play`` records (cached, so cheap); in ``KEEP``
    keeping and declining the trick."""
    if game.phase == Phase.KEEP:
        return list(game.legal_action_tuple())
    cards, jokers = play_options(game)
    actions: list[Action] = []
    while cards:
        low = cards & -cards
        actions.append(PLAYS[low.bit_length() - 1])
        cards ^= low
    for joker in jokers:
        play = _JOKER_PLAYS.get(joker)
        if play is None:
            play = _JOKER_PLAYS[joker] = Play(*joker)
        actions.append(play)
    return actions


class _Node:
    """A node of the search tree: the seat that moved into it and its statistics."""

    __slots__ = ("children", "visits", "reward", "available", "player")

    def __init__(self, player: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.player = player


class IsmctsStrategy(CardSearchStrategy):
    """Single-observer ISMCTS card play with heuristic rollouts; bids as ``ev``.

    Parameters: ``iterations`` (determinized descents per card decision), ``time`` (seconds per
    decision at most, 0: no limit), ``exploration`` (the UCB1 constant on rewards in [0, 1]),
    ``rollout`` ("heuristic" or "random"), ``bid_samples`` and ``window`` (the ``ev`` bidding).
    Deterministic given its seed when ``time`` is 0.
    """

    name = "ismcts"
    description = "information-set Monte Carlo tree search over sampled deals, heuristic rollouts"
    parameters = {
        "iterations": Parameter(int, 400, "determinized descents of the tree per card decision"),
        "time": Parameter(float, 0.0, "seconds per decision at most, checked between iterations "
                          "(0: no limit; a limit makes the play depend on the machine's speed)"),
        "exploration": Parameter(float, 0.5, "UCB1 exploration constant (rewards lie in [0, 1])"),
        "rollout": Parameter(str, "heuristic", "policy finishing each playout: heuristic or "
                             "random"),
        "bid_samples": Parameter(int, 12, "guesses per bid, as ev's samples"),
        "window": WINDOW_AS_EV,
        "inference": INFERENCE,
        **premium_parameters(True),
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if self.rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', not {self.rollout!r}")

    def search_play(self, observation: Observation,
                    outlook: PremiumOutlook | None = None) -> Action:
        """The most visited root action after the iterations (or the time) run out. With a
        premium in reach (``outlook``), a seat that makes its bid is rewarded its stake too."""
        rules = rules_for(observation.variant)
        candidates = distinct_plays(observation)
        if len(candidates) == 1:
            return candidates[0]
        preferred = representative(candidates,
                                   play_from_observation(rules, observation, outlook))
        table = rules.points(observation.kind, observation.deal_tricks)
        stakes = [0.0] * observation.players
        if outlook is not None:
            for seat in observation.order:
                stakes[seat] = outlook.stake(rules, observation.kind, observation.deal_tricks, seat,
                                             observation.bids[seat])
        bids = observation.bids
        low = (min(min(row) for row in table) + min(0, observation.variant.joker.lead_fine)
               + min(0.0, *stakes))
        span = float(max(max(row) for row in table) + max(0.0, *stakes) - low) or 1.0
        determinizer = Determinizer(observation)
        deadline = Deadline(self.time)
        root = _Node(-1)
        heuristic_rollout = self.rollout == "heuristic"
        exploration = self.exploration
        rng = self.rng
        stream = guesses(determinizer, BidEvidence(observation, rules, self.inference), rng)
        for _ in range(max(1, self.iterations)):
            game = determinizer.game(*next(stream))
            path = self._descend(game, root, candidates, preferred, rules, exploration)
            if heuristic_rollout:
                playout(game, rules)
            else:
                random_playout(game, rng)
            result = game.results[0]
            points = result.points
            if outlook is not None:
                points = tuple(points[seat] + (stakes[seat] if bids[seat] == result.taken[seat]
                                               else 0.0) for seat in range(len(points)))
            for node in path:
                node.visits += 1
                node.reward += (points[node.player] - low) / span
            if deadline.passed():
                break
        return max(candidates, key=lambda action: (
            root.children[action].visits if action in root.children else -1,
            root.children[action].reward if action in root.children else 0.0,
            action == preferred,
        ))

    def _descend(self, game: Game, root: _Node, candidates: list[Action], preferred: Action,
                 rules: Rules, exploration: float) -> list[_Node]:
        """Selection and expansion in one determinization; returns the nodes visited."""
        path: list[_Node] = []
        node = root
        rng = self.rng
        while not game.is_over():  # a search game ends when its deal is scored
            mover = game.to_move
            legal = candidates if node is root else _legal_plays(game)
            children = node.children
            untried = [action for action in legal if action not in children]
            if untried:
                if node is root and preferred in untried:
                    action = preferred
                else:
                    guess = policy_action(game, rules) if node is not root else None
                    action = guess if guess in untried else untried[rng.randrange(len(untried))]
                child = children[action] = _Node(mover)
                game.apply_unchecked(action)
                path.append(child)
                return path
            best_action = legal[0]
            best_value = -1.0
            for action in legal:
                child = children[action]
                child.available += 1
                value = child.reward / child.visits + exploration * math.sqrt(
                    math.log(child.available) / child.visits)
                if value > best_value:
                    best_action, best_value = action, value
            node = children[best_action]
            game.apply_unchecked(best_action)
            path.append(node)
        return path
