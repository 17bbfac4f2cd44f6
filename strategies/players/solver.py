"""The open-hand solver's Python face: a position with every hand known in, exact values out.

``OpenHandSolver`` turns a position of the current deal, with every hand known (a guess of the
hidden hands from ``engine.determinize``, or a ``Game``), into the arrays of
``engine.core.solve.solve_moves`` and returns the points the deciding seat scores for the deal
(its bid fixed, the variant's own score table, its Joker lead fines included) when it plays on to
maximise them and every other seat plays to minimise them, with all cards open:

- ``values(game, seat, actions)``: after each of the legal actions of the seat to move in a
  ``Game`` (fines already incurred included);
- ``values_for(observation, hands, actions)``: the same from a seat's observation and a guess of
  every hand, without building a ``Game`` (what ``pimc`` does for each guess);
- ``opening_value(observation, hands, bid, trump)``: the value of the deal before its first card,
  for a bid being weighed (bidding).

``None`` when the deal is one the solver does not model (``play.draw_after_trick``: the stock's
order is hidden) or when the node budget ran out; the caller then plays out with the heuristic.

Premiums (002: making every bid of a game or a pulka) depend on earlier deals; a ``bonus`` is
added to the points of making the bid exactly, for a strategy that knows what premium it still
stands to win. The transposition table is kept between calls: its keys fold in the objective
(variant, deal, kind, seat, bid, bonus, trump), so an entry is only ever reused for the same
question about the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from raspis.engine.actions import Action, Play
from raspis.engine.core import solve
from raspis.engine.core.codes import CALL_CODES, OPTION_INDEX, TRUMP_CIRCULAR
from raspis.engine.core.deal import first_leader
from raspis.engine.core.plan import RulePlan, rule_plan
from raspis.engine.game import Game, Phase
from raspis.engine.observation import Observation
from raspis.engine.tricks import TrickCard

__all__ = ["MODELS", "OpenHandSolver", "option_of", "solvable"]

#: How the other seats are taken to play: against the deciding seat (paranoid: the value is
#: exact alpha-beta over two sides) or each for its own points with the bids fixed (max^n, ties
#: against the deciding seat). max^n packs 8 bits a seat into one integer, so at more than
#: ``solve.MAXN_PLAYERS`` (7) players the solver answers as paranoid.
MODELS = ("paranoid", "maxn")

#: Node budget of one solve by default (about 30-50 ms of search at the most).
DEFAULT_BUDGET = 100_000


class Deal(NamedTuple):
    """A position of the current deal as the solver reads it (from a ``Game`` or from an
    observation and a guess of every hand): the rules, the deal (its kind, number and hand
    size), the seats taking part in order of play and every seat's cards, the trick under way
    (its records, the seat to move, its led suit and trick trump), the deal's trump, every card
    played so far this deal, the tricks taken and the bids (None: none), all by seat."""

    plan: RulePlan
    kind: str
    number: int
    hand_size: int
    order: Sequence[int]
    hands: Sequence[int]
    trick: Sequence[Any]
    to_move: int
    led_suit: int
    trick_trump: int
    trump: int
    played: int
    taken: Sequence[int]
    bids: Sequence[int | None]


def solvable(variant: Any) -> bool:
    """Whether the solver models the play of ``variant`` (everything but drawing from the
    stock after each trick; the Joker's player keeping or declining the trick,
    ``joker.lead_choice``, is a node of the search)."""
    return not variant.play.draw_after_trick


def option_of(action: Play | TrickCard) -> int:
    """The Joker call option of a play over ``codes.OPTIONS`` (-1 for an ordinary card)."""
    if action.card < 52:
        return -1
    if action.rank:  # the Joker declared as a card (``joker.as_card``)
        return solve.NAMED_OPTION + action.named
    return int(OPTION_INDEX[CALL_CODES[action.call], action.suit + 1])


class OpenHandSolver:
    """Solves positions with every hand known; keeps one transposition table and the keys."""

    def __init__(self, table_bits: int = 18, budget: int = DEFAULT_BUDGET,
                 model: str = "paranoid", cut_offs: bool = True) -> None:
        if model not in MODELS:
            raise ValueError(f"solver model {model!r}: choose one of {', '.join(MODELS)}")
        self.table = solve.new_table(table_bits)
        self.budget = budget
        self.model = model
        self.cut_offs = cut_offs
        self._zobrist: dict[int, np.ndarray] = {}
        self._rows: dict[tuple[Any, ...], np.ndarray] = {}
        self.stats = np.zeros(2, dtype=np.int64)
        #: nodes searched and solves stopped by the budget, over the solver's life
        self.nodes = 0
        self.aborted = 0

    def zobrist(self, players: int) -> np.ndarray:
        """The Zobrist keys for ``players`` positions."""
        keys = self._zobrist.get(players)
        if keys is None:
            keys = self._zobrist[players] = solve.zobrist_keys(players)
        return keys

    def row(self, plan: RulePlan, hand_size: int, kind: str, bid: int | None,
            bonus: int = 0) -> np.ndarray:
        """``row[taken]``: a seat's points for the deal with ``bid`` (None: no bidding) when it
        ends with ``taken`` tricks (``RulePlan.points_table``), ``bonus`` added to a made bid."""
        key = (id(plan), hand_size, kind, -1 if bid is None else bid, bonus)
        found = self._rows.get(key)
        if found is None:
            table = plan.points_table(hand_size, plan.variant.kinds[kind], hand_size)
            found = table[0 if bid is None else bid + 1].copy()
            if bonus and bid is not None:
                found[bid] += bonus
            self._rows[key] = found
        return found

    # -- the three faces --------------------------------------------------------------------

    def values(self, game: Game, seat: int, actions: Sequence[Action] | None, *,
               bid: int | None = None,
               bonus: int = 0, budget: int | None = None) -> list[int] | None:
        """The exact points of ``seat`` after each of ``actions`` (legal plays of the seat to
        move in ``game``, in ``PLAY``), fines already incurred this deal included."""
        if game.phase != Phase.PLAY or not solvable(game.variant):
            return None
        spec = game.deal
        bids = list(game.bids)
        if bid is not None:
            bids[seat] = bid
        view = game.view
        deal = Deal(game.plan, spec.kind, spec.number, spec.hand_size, view.order, view.hands,
                    game.trick, game.to_move, view.led_suit, view.trick_trump, view.trump,
                    view.played, view.taken, bids)
        found = self._solve(deal, seat, bonus, actions, budget)
        if found is None:
            return None
        fines = view.fines[seat]
        return [value + fines for value in found]

    def position_value(self, game: Game, seat: int, *, bonus: int = 0,
                       budget: int | None = None) -> int | None:
        """The exact points of ``seat`` for the deal from the position of ``game`` (in ``PLAY``,
        whoever is to move), fines already incurred this deal included."""
        found = self.values(game, seat, None, bonus=bonus, budget=budget)
        return None if found is None else found[0]

    def values_for(self, observation: Observation, hands: Sequence[int],
                   actions: Sequence[Action], *, bonus: int = 0,
                   budget: int | None = None) -> list[int] | None:
        """The exact points (from now on: fines already incurred left out) of the observing seat
        after each of its legal ``actions``, with ``hands`` as every seat's cards."""
        if observation.phase != Phase.PLAY or not solvable(observation.variant):
            return None
        plan = rule_plan(observation.variant, observation.players)
        seat = observation.seat
        deal = Deal(plan, observation.kind, observation.deal_number, observation.hand_size,
                    observation.order, hands, observation.trick, observation.to_move,
                    observation.led_suit, observation.trick_trump, observation.trump,
                    observation.played, observation.taken, observation.bids)
        return self._solve(deal, seat, bonus, actions, budget)

    def opening_value(self, observation: Observation, hands: Sequence[int],
                      bids: Sequence[int | None], trump: int, *, bonus: int = 0,
                      budget: int | None = None) -> int | None:
        """The exact points of the observing seat for the deal before the first card is led,
        every seat's hand as ``hands``, the bids as ``bids`` (the seat's own the one weighed; the
        others matter to max^n only), the trump ``trump``."""
        if not solvable(observation.variant):
            return None
        plan = rule_plan(observation.variant, observation.players)
        order = observation.order
        positions = np.array([hands[member] for member in order], dtype=np.int64)
        dealer = order.index(observation.dealer) if observation.dealer in order else -1
        kind = plan.variant.kinds[observation.kind]
        leader = order[first_leader(positions, len(order), dealer, plan.dealer_leads,
                                    kind.joker_holder_leads)]
        deal = Deal(plan, observation.kind, observation.deal_number, observation.hand_size, order,
                    hands, (), leader, -1, trump, trump, 0, [0] * observation.players, bids)
        found = self._solve(deal, observation.seat, bonus, None, budget)
        return None if found is None else found[0]

    # -- the arrays ---------------------------------------------------------------------------

    def _solve(self, deal: Deal, seat: int, bonus: int, actions: Sequence[Action] | None,
               budget: int | None) -> list[int] | None:
        """The points of ``seat`` after each of ``actions`` in ``deal`` (None: the position's
        own value), ``bonus`` added to its made bid; None where the node budget ran out."""
        plan, kind, number, hand_size, order, hands, trick = deal[:7]
        taken, bids, trump = deal.taken, deal.bids, deal.trump
        players = len(order)
        maxn = self.model == "maxn" and players <= solve.MAXN_PLAYERS
        position_of = {member: index for index, member in enumerate(order)}
        positions = np.array([hands[member] for member in order], dtype=np.int64)
        trick_cards = np.full(players, -1, dtype=np.int64)
        trick_options = np.full(players, -1, dtype=np.int64)
        for index, entry in enumerate(trick):
            trick_cards[index] = entry.card
            trick_options[index] = option_of(entry)
        leader = position_of[trick[0].seat if trick else deal.to_move]
        options = plan.variant.kinds[kind]
        circular = plan.trump_rule(hand_size, options, players) == TRUMP_CIRCULAR
        bid = bids[seat]
        # the objective is part of every key of the table
        objective = (tuple(bids), self.cut_offs) if maxn else bid
        salt = hash((plan.variant.content_hash, players, number, kind, hand_size, seat, objective,
                     bonus, trump, maxn)) & ((1 << 63) - 1)
        params = solve.search_params(plan, players, position_of[seat], trump, circular, number,
                                     hand_size, self.budget if budget is None else budget,
                                     self.cut_offs, salt)
        if actions is None:  # the position's own value
            cards = np.full(1, -1, dtype=np.int64)
            calls = np.full(1, -1, dtype=np.int64)
        else:
            cards = np.array([action.card for action in actions],  # type: ignore[union-attr]
                             dtype=np.int64)
            calls = np.array([option_of(action) for action in actions],  # type: ignore[arg-type]
                             dtype=np.int64)
        values = np.zeros(len(cards), dtype=np.int64)
        stats = self.stats
        stats[:] = 0
        if maxn:
            rows = np.stack([self.row(plan, hand_size, kind, bids[member],
                                      bonus if member == seat else 0) for member in order])
            packed = sum(taken[member] << (solve.SEAT_BITS * index)
                         for index, member in enumerate(order))
            position = solve.Position(positions, trick_cards, trick_options, len(trick), leader,
                                      deal.led_suit, deal.trick_trump, deal.played, packed)
            solve.solve_moves_maxn(params, rows, self.zobrist(players), position, cards, calls,
                                   values, self.table, stats)
            decider = position_of[seat]
            values = [solve.outcome_score(rows, int(outcome), decider, plan.lead_fine)
                      for outcome in values]
        else:
            position = solve.Position(positions, trick_cards, trick_options, len(trick), leader,
                                      deal.led_suit, deal.trick_trump, deal.played, taken[seat])
            solve.solve_moves(params, self.row(plan, hand_size, kind, bid, bonus),
                              self.zobrist(players), position, cards, calls, values, self.table,
                              stats)
        nodes, aborted = solve.search_stats(stats)
        self.nodes += nodes
        if aborted:
            self.aborted += 1
            return None
        return [int(value) for value in values]
