"""Compiled playouts: a deal played to its score by a compiled policy at every seat, at machine
speed, for Monte Carlo search (``strategies.players.mc``).

A playout starts from a state vector of the rules core (``engine.core.machine``), applies a first
action, and lets a compiled policy (``strategies.policies.compiled``: ``STRONG`` or
``FAST_HEURISTIC``) decide for every seat until the deal is scored; it returns what one seat got for
the deal: its points (fines included), its premium and whether it made its bid, and what the other
seats of the deal got together (their points and premiums summed, and how many they are), for a
search that values a move relative to the others (``mc``'s ``objective = relative``). Both policies
read only what the seat to move may see
(``tests/test_strong.py::test_strong_never_reads_the_hidden_hands``), so a playout of a guessed deal
has no strategy fusion: no seat plays on cards it could not know.

``evaluate`` does this for every candidate action over many guessed deals in one call: each guess
(the hidden hands, and the trump where the seat cannot see it) is written into a copy of one
template state and every candidate is played out from it (common random numbers). The caller's
states are never written: every playout runs in a scratch buffer.

``play_misses`` replays a deal's cards so far on guessed hands and counts the other seats' plays
the policy would not have made there: how badly a guess explains the play (``mc``'s
``play_inference``).
"""

from __future__ import annotations

import numpy as np
from raspis.engine.batch.kernels import no_log
from raspis.engine.cards import JOKER
from raspis.engine.core import fields
from raspis.engine.core import machine as m
from raspis.engine.core.compiling import jit
from raspis.engine.core.deal import sample_hands, splitmix64

from ..catalogue import PLAYOUT_POLICIES
from .compiled import FAST_HEURISTIC, POLICY_MASK, STRONG, decide, forced_action, play_on

__all__ = ["FAST_HEURISTIC", "POLICIES", "STRONG", "V_MADE", "V_OTHERS", "V_POINTS", "V_PREMIUM",
           "V_RIVALS", "VALUES", "deal_in", "evaluate", "play_misses", "play_out",
           "playout_value", "sample_hands"]

#: the policies a playout may use, by name
POLICIES = PLAYOUT_POLICIES
#: what a playout returns for the seat: its deal points, its premium, 1 if it made its bid; the
#: other participants' deal points and premiums summed, and how many they are (0 where the seat
#: played alone)
V_POINTS, V_PREMIUM, V_MADE, V_OTHERS, V_RIVALS = range(5)
VALUES = 5


@jit()
def play_out(state: np.ndarray, plan: np.ndarray, table: np.ndarray, policy: int,
             result: int, steady: int, key: int) -> None:
    """Play on in ``state``, ``policy`` at every seat, until result row ``result`` is written
    (the deal under way is scored; nothing is played when it already is). A noisy ``policy``
    (``compiled.noisy``) plays its random cards from ``key`` (each seat its own key drawn from
    it), at every seat but ``steady`` (-1: none), which plays the plain policy."""
    players = fields.plan_players(plan)
    policies = np.full((1, players), policy, dtype=np.int64)
    keys = np.empty((1, players), dtype=np.int64)
    for other in range(players):
        keys[0, other] = np.int64(splitmix64(np.uint64(key) + np.uint64(other)))
    if steady >= 0:
        policies[0, steady] = policy & POLICY_MASK
    counts = np.zeros((1, players), dtype=np.int64)
    play_on(state, plan, table, policies, keys, counts, 0, result, False, no_log())


@jit(inline="always")
def _seat_result(state: np.ndarray, plan: np.ndarray, result: int, seat: int,
                 out: np.ndarray) -> None:
    """Write ``seat``'s points, premium and made bid of result row ``result`` into ``out``, and
    the other participants' points and premiums summed and their number (``V_*``)."""
    out[V_POINTS] = fields.result_points(state, plan, result, seat)
    out[V_PREMIUM] = fields.result_premium(state, plan, result, seat)
    out[V_MADE] = (fields.result_bid(state, plan, result, seat)
                   == fields.result_taken(state, plan, result, seat))
    participants = fields.result_participants(state, plan, result)
    others = 0
    rivals = 0
    for other in range(fields.plan_players(plan)):
        if other != seat and participants >> other & 1:
            others += (fields.result_points(state, plan, result, other)
                       + fields.result_premium(state, plan, result, other))
            rivals += 1
    out[V_OTHERS] = others
    out[V_RIVALS] = rivals


@jit()
def playout_value(state: np.ndarray, plan: np.ndarray, table: np.ndarray, policy: int,
                  action: int, seat: int, scratch: np.ndarray, out: np.ndarray, key: int = 0,
                  steady: bool = True) -> None:
    """Copy ``state`` into ``scratch``, apply ``action`` (an ``machine.action_code`` legal for the
    seat to move; below 0: none) and play the deal out with ``policy``; ``out`` gets ``seat``'s
    points, premium and made bid, the others' sum and number (``V_*``). ``state`` is not written.
    A noisy ``policy`` (``compiled.noisy``) draws from ``key``; with ``steady``, ``seat`` plays
    the plain policy and only the other seats are noisy (``play_out``)."""
    scratch[:] = state
    result = fields.results(state)
    if action >= 0:
        m.step(scratch, plan, action)
    play_out(scratch, plan, table, policy, result, seat if steady else -1, key)
    _seat_result(scratch, plan, result, seat, out)


@jit()
def deal_in(state: np.ndarray, plan: np.ndarray, hands: np.ndarray, trump: np.ndarray) -> None:
    """Deal a guess into ``state`` (a copy of the search's template): ``hands`` every seat's hand
    and, where ``trump[0]`` is not -2, the trump suit and the card shown (``trump[1]``); then the
    legal actions of the seat to move."""
    for other in range(fields.plan_players(plan)):
        fields.set_hand(state, plan, other, hands[other])
        fields.set_first_cards(state, plan, other, hands[other])
    if trump[0] != -2:
        fields.set_trump(state, trump[0], trump[1])
    m.set_legal(state, plan)


@jit()
def evaluate(template: np.ndarray, plan: np.ndarray, table: np.ndarray, policy: int,
             hands: np.ndarray, trumps: np.ndarray, actions: np.ndarray, seat: int,
             scratch: np.ndarray, values: np.ndarray, key: int = 0, steady: bool = True) -> None:
    """For each guess ``g`` (``hands[g]``: every seat's hand; ``trumps[g]``: the trump suit and
    card shown, used where ``trumps[g, 0]`` is not -2) and each candidate ``actions[a]``, play the
    deal out from ``template`` with that guess dealt in (``deal_in``, ``playout_value``):
    ``values[g, a]`` gets ``seat``'s points, premium and made bid, the others' sum and number
    (``V_*``). ``template`` is not written. A noisy ``policy`` (``compiled.noisy``) draws from a
    key of each guess made from ``key``, the same for every candidate of the guess (common random
    numbers); ``steady``: as ``playout_value``."""
    dealt = np.empty_like(template)
    for guess in range(hands.shape[0]):
        dealt[:] = template
        deal_in(dealt, plan, hands[guess], trumps[guess])
        draws = np.int64(splitmix64(np.uint64(key) ^ np.uint64(guess)))
        for index in range(actions.shape[0]):
            playout_value(dealt, plan, table, policy, actions[index], seat, scratch,
                          values[guess, index], draws, steady)


@jit(inline="always")
def _same_play(state: np.ndarray, plan: np.ndarray, mover: int, chosen: int, code: int) -> bool:
    """Whether playing ``code`` comes to the same as ``chosen`` for ``mover``: the same code, or
    two ordinary cards of one suit with every card between them in the mover's hand or seen
    played (the equivalence of ``search.distinct_plays``)."""
    if chosen == code:
        return True
    if chosen >= JOKER or code >= JOKER or chosen // 13 != code // 13:
        return False
    low, high = min(chosen, code), max(chosen, code)
    between = ((np.int64(1) << high) - 1) & ~((np.int64(1) << (low + 1)) - 1)
    held = fields.hand(state, plan, mover) | m.seen_cards(state, plan, mover)
    return between & ~held == 0


@jit()
def play_misses(start: np.ndarray, plan: np.ndarray, table: np.ndarray, policy: int,
                hands: np.ndarray, trumps: np.ndarray, played: np.ndarray, actions: np.ndarray,
                seat: int, misses: np.ndarray) -> None:
    """For each guess ``g`` of the hands held now (``hands[g]``, ``trumps[g]``: as ``evaluate``),
    replay the deal's cards so far from ``start`` (the state where its play began, every hand
    empty) with every seat's hand as dealt (``hands[g] | played``: ``played[s]``, the cards seat
    ``s`` has played), the actions ``actions`` in order, and count into ``misses[g]`` the plays of
    the seats other than ``seat`` with a choice where ``policy`` (a plain code), asked on the
    guessed hand, would have played otherwise (an equivalent card counts as the same,
    ``_same_play``): how badly the guess explains the others' play, for ``mc``'s
    ``play_inference``."""
    state = np.empty_like(start)
    players = fields.plan_players(plan)
    dealt = np.empty(players, dtype=np.int64)
    for guess in range(hands.shape[0]):
        state[:] = start
        for other in range(players):
            dealt[other] = hands[guess, other] | played[other]
        deal_in(state, plan, dealt, trumps[guess])
        count = 0
        for index in range(actions.shape[0]):
            mover = fields.to_move(state)
            code = actions[index]
            if mover != seat and forced_action(state) < 0:
                chosen = decide(state, plan, table, policy, 0, 0)
                if not _same_play(state, plan, mover, chosen, code):
                    count += 1
            m.step(state, plan, code)
        misses[guess] = count
