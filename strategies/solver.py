"""The open-hand solver's Python face: a ``Game`` position in, the exact value of each move out.

``OpenHandSolver.values(game, seat, actions)`` turns a search game of the current deal (every hand
known: a determinization from ``Observation.resample`` or ``engine.determinize``) into the arrays of
``engine.core.solve.solve_moves`` and returns, for each of the given legal actions of the seat to
move, the points ``seat`` scores for the deal (its bid fixed, the variant's own score table, its
Joker lead fines included) when it plays on to maximise them and every other seat plays to
minimise them, with all cards open. ``None`` when the position is one the solver does not model
(``play.draw_after_trick``) or when the node budget ran out; the caller then plays out with the
heuristic instead.

Premiums (002: making every bid of a game or a pulka) depend on earlier deals; ``values`` takes an
optional ``bonus`` added to the points of making the bid exactly, which a strategy that tracks its
record sets to the premium it still stands to win.
"""

from __future__ import annotations

import numpy as np
from raspis.engine.actions import Action, Play
from raspis.engine.core import solve
from raspis.engine.core.codes import CALL_CODES, OPTION_INDEX, TRUMP_CIRCULAR
from raspis.engine.game import Game, Phase

__all__ = ["OpenHandSolver", "solvable"]

#: Node budget of one ``values`` call by default (about 0.1-0.3 s of search at the most).
DEFAULT_BUDGET = 400_000


def solvable(game: Game) -> bool:
    """Whether the solver models the rest of this deal (everything but drawing from the stock)."""
    return not game.variant.play.draw_after_trick


def option_of(action: Play) -> int:
    """The Joker call option of a play over ``codes.OPTIONS`` (-1 for an ordinary card)."""
    if action.card < 52:
        return -1
    return int(OPTION_INDEX[CALL_CODES[action.call], action.suit + 1])


class OpenHandSolver:
    """Solves determinized positions; keeps one transposition table and the Zobrist keys."""

    def __init__(self, table_bits: int = 18, budget: int = DEFAULT_BUDGET) -> None:
        self.table = solve.new_table(table_bits)
        self.budget = budget
        self._zobrist: dict[int, np.ndarray] = {}
        self._rows: dict[tuple[int, int, str, int, int], np.ndarray] = {}
        self.stats = np.zeros(2, dtype=np.int64)
        self.nodes = 0

    def zobrist(self, players: int) -> np.ndarray:
        """The Zobrist keys for ``players`` positions."""
        keys = self._zobrist.get(players)
        if keys is None:
            keys = self._zobrist[players] = solve.zobrist_keys(players)
        return keys

    def row(self, game: Game, seat: int, bid: int | None, bonus: int = 0) -> np.ndarray:
        """``row[taken]``: ``seat``'s points for the deal with ``bid`` (None: no bidding) when it
        ends with ``taken`` tricks (``RulePlan.points_table``), ``bonus`` added to a made bid."""
        spec = game.deal
        key = (id(game.plan), spec.hand_size, spec.kind, -1 if bid is None else bid, bonus)
        found = self._rows.get(key)
        if found is None:
            table = game.plan.points_table(spec.hand_size, game.kind, spec.hand_size)
            found = table[0 if bid is None else bid + 1].copy()
            if bonus and bid is not None:
                found[bid] += bonus
            elif bonus:
                found += bonus
            self._rows[key] = found
        return found

    def values(self, game: Game, seat: int, actions: list[Action], *, salt: int = 0,
               bid: int | None = None, bonus: int = 0,
               budget: int | None = None) -> list[int] | None:
        """The exact points of ``seat`` after each of ``actions`` (legal plays of the seat to move
        in ``game``, which must be in ``PLAY``), fines already incurred this deal included; None
        when not solvable. ``bid`` replaces the seat's bid (for bidding: the bid being weighed);
        ``salt`` must differ between decisions (it keys the transposition table)."""
        if game.phase != Phase.PLAY or not solvable(game):
            return None
        plan = game.plan
        order = game.order
        players = len(order)
        position_of = {member: index for index, member in enumerate(order)}
        hands = np.array([game.hands[member] for member in order], dtype=np.int64)
        trick_cards = np.full(players, -1, dtype=np.int64)
        trick_options = np.full(players, -1, dtype=np.int64)
        for index, entry in enumerate(game.trick):
            trick_cards[index] = entry.card
            trick_options[index] = (-1 if entry.card < 52
                                    else OPTION_INDEX[CALL_CODES[entry.call], entry.suit + 1])
        leader = position_of[game.trick[0].seat if game.trick else game.to_move]
        spec = game.deal
        number = spec.number
        has_trump = game.trump >= 0
        circular = plan.trump_rule(spec.hand_size, game.kind, players) == TRUMP_CIRCULAR
        if bid is None:
            bid = game.bids[seat]
        row = self.row(game, seat, bid, bonus)
        params = np.empty(solve.PARAMS, dtype=np.int64)
        params[solve.P_PLAYERS] = players
        params[solve.P_DECIDER] = position_of[seat]
        params[solve.P_MUST_TRUMP] = plan.must_trump
        params[solve.P_LOCK_CARD] = plan.lock_card
        params[solve.P_TWO_JOKERS] = plan.two_jokers
        params[solve.P_TRUMP_WINS] = plan.trump_wins
        params[solve.P_TRUMP] = game.trump
        params[solve.P_CIRCULAR] = circular
        params[solve.P_LEAD_CALLS_FIRST] = plan.lead_calls_mask(plan.demands_allowed(number, 0),
                                                                has_trump)
        params[solve.P_LEAD_CALLS_LATER] = plan.lead_calls_mask(plan.demands_allowed(number, 1),
                                                                has_trump)
        params[solve.P_LEAD_FINE] = plan.lead_fine
        params[solve.P_HAND_SIZE] = spec.hand_size
        params[solve.P_BUDGET] = self.budget if budget is None else budget
        # the objective (seat, bid, bonus, trump) is part of every key of the table
        params[solve.P_SALT] = hash((salt, seat, bid, bonus, game.trump, players)) & ((1 << 63) - 1)
        cards = np.array([action.card for action in actions], dtype=np.int64)  # type: ignore[union-attr]
        options = np.array([option_of(action) for action in actions],  # type: ignore[arg-type]
                           dtype=np.int64)
        values = np.zeros(len(actions), dtype=np.int64)
        stats = self.stats
        stats[:] = 0
        keys, low, high, moves = self.table
        solve.solve_moves(params, row, self.zobrist(players), hands, trick_cards, trick_options,
                          len(game.trick), leader, game.led_suit, game.trick_trump, game.played,
                          game.taken[seat], cards, options, values, keys, low, high, moves, stats)
        self.nodes += int(stats[solve.S_NODES])
        if stats[solve.S_ABORTED]:
            return None
        fines = game.fines[seat]
        return [int(value) + fines for value in values]
