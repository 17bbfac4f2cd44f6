"""What the sampling strategies share: heuristic playouts of determinized deals, the merging of
equivalent cards, and a per-decision time budget.

A playout takes a search game of the current deal (``engine.determinize``) and plays it to the end
of the deal with the heuristic for every seat (``heuristic.policy_action``), reading the ``Game``
directly; the seat's result is then ``game.results[0]`` (its tricks taken and its points).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from raspis.engine import Action, Observation, Play
from raspis.engine.determinize import ABOVE
from raspis.engine.game import Game

from .heuristic import policy_action
from .tactics import Rules

SUIT_TOP = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))


def playout(game: Game, rules: Rules) -> Game:
    """Play ``game`` on to the end of its deal with the heuristic for every seat; returns it."""
    results = game.results
    apply = game.apply_unchecked
    while not results:
        apply(policy_action(game, rules))
    return game


def random_playout(game: Game, rng) -> Game:  # noqa: ANN001 - random.Random
    """Play ``game`` on to the end of its deal with uniformly random legal actions."""
    results = game.results
    while not results:
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
    seen_calls: set[tuple[str | None, int]] = set()
    cards = sorted((action for action in actions if isinstance(action, Play)),
                   key=lambda action: action.card)
    previous = -1
    for action in cards:
        card = action.card
        if card >= 52:
            key = (action.call, action.suit)
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
                candidate.call, candidate.suit) == (action.call, action.suit):
                return candidate
        return action
    same = [candidate for candidate in candidates if isinstance(candidate, Play)
            and candidate.card < 52 and candidate.card // 13 == action.card // 13
            and candidate.card <= action.card]
    return max(same, key=lambda candidate: candidate.card) if same else action


class Deadline:
    """A time budget for one decision (``seconds`` <= 0: none)."""

    __slots__ = ("end",)

    def __init__(self, seconds: float) -> None:
        self.end = time.perf_counter() + seconds if seconds > 0 else None

    def passed(self) -> bool:
        """True once the budget is spent."""
        return self.end is not None and time.perf_counter() >= self.end


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
