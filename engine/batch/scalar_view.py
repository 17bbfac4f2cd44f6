"""The reference ``engine.Observation`` of a game in a batch, so scalar strategies can play there.

A scalar strategy seated in a batch game (``strategies.batch.ScalarAdapter``) decides from exactly
the observation ``engine.observation.observe`` would give it in ``engine.Game``: the same hand, the
same visible tricks under the memory rule, the same trump text, and the legal actions in the same
order. This module builds those, one game at a time; it is the slow path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from raspis.engine.actions import Action, Bid, NameTrump, Play
from raspis.engine.core.plan import bidding_view
from raspis.engine.game import Phase, Trick, TrickCard
from raspis.engine.observation import Observation, cards_seen, visible_tricks

from .bits import cards_of
from .deal import HOW_NAMED, HOW_TEXT
from .rules import CALL_NAMES, HOOK_NAMES, OPTION_CALL, OPTION_SUIT

if TYPE_CHECKING:
    from .deal import DealState
    from .game import BatchGame
    from .observation import BatchObservation

_PHASES = {"trump": Phase.TRUMP, "bid": Phase.BID, "play": Phase.PLAY}


def legal_actions(game: BatchGame, observation: BatchObservation, index: int) -> list[Action]:
    """The legal actions of row ``index`` of an observation, in the reference's order."""
    if observation.phase == "trump":
        mask = observation.legal_trumps
        actions: list[Action] = [NameTrump(suit) for suit in range(4) if mask >> suit & 1]
        if mask >> 4 & 1:
            actions.append(NameTrump(-1))
        return actions
    if observation.phase == "bid":
        return [Bid(bid) for bid in cards_of(int(observation.legal_bids[index]))]
    legal = int(observation.legal_cards[index])
    plays: list[Action] = [Play(card) for card in cards_of(legal) if card < 52]
    jokers = [card for card in cards_of(legal) if card >= 52]
    if jokers:
        calls = int(observation.legal_calls[index])
        order = game.rules.call_order(observation.trick_position == 0)
        options = [option for option in order if calls >> option & 1]
        for joker in jokers:
            plays.extend(Play(joker, CALL_NAMES[OPTION_CALL[o]], int(OPTION_SUIT[o]))  # type: ignore[arg-type]
                         for o in options)
    return plays


def _trick_cards(state: DealState, row: int, cards: np.ndarray, calls: np.ndarray,
                 suits: np.ndarray, positions: np.ndarray, count: int) -> tuple[TrickCard, ...]:
    entries = []
    for step in range(count):
        card = int(cards[step])
        call = CALL_NAMES[int(calls[step])] if card >= 52 else None
        suit = int(suits[step]) if card >= 52 else -1
        entries.append(TrickCard(int(state.order[row, positions[step]]), card, call, suit))
    return tuple(entries)


def scalar_observations(game: BatchGame, state: DealState, observation: BatchObservation,
                        rows: np.ndarray) -> list[Observation]:
    """``engine.observation.observe`` of the mover in each of ``rows`` (rows of ``state``)."""
    plan = state.plan
    players = game.players
    phase = observation.phase
    result = []
    seats = observation.seat
    positions = observation.position
    for index, row in enumerate(rows):
        row = int(row)
        seat = int(seats[index])
        position = int(positions[index])
        order = tuple(int(s) for s in state.order[row])
        hands_by_seat = [0] * players
        for k, s in enumerate(order):
            hands_by_seat[s] = int(state.hands[row, k])
        hand = hands_by_seat[seat]
        hidden = False
        others: list[int | None] = [None] * players
        if phase == "trump" and int(state.trump_card[row]) < 0:
            assert state.first_cards is not None
            hand = int(state.first_cards[row, position]) if position >= 0 else 0
        elif phase == "bid":
            hidden, _, shown = bidding_view(plan.kind)
            if hidden:
                hand = 0
            if shown:
                others = [hands_by_seat[other] if other != seat else None
                          for other in range(players)]
        bids: list[int | None] = [None] * players
        taken = [0] * players
        for k, s in enumerate(order):
            bid = int(state.bids[row, k])
            bids[s] = None if bid < 0 else bid
            taken[s] = int(state.taken[row, k])
        finished = []
        if state.history:
            for trick in range(state.trick_index):
                cards = _trick_cards(state, row, state.history_cards[row, trick],
                                     state.history_calls[row, trick],
                                     state.history_suits[row, trick],
                                     state.history_positions[row, trick], state.participants)
                winner = order[int(state.history_winners[row, trick])]
                finished.append(Trick(cards, int(state.history_trumps[row, trick]), winner))
        visible = visible_tricks(game.rules.memory, finished, seat)
        current: tuple[TrickCard, ...] = ()
        if phase == "play":
            current = _trick_cards(state, row, state.trick_cards_t[:, row],
                                   state.trick_calls_t[:, row], state.trick_suits_t[:, row],
                                   state.positions_t[:, row], observation.trick_position)
        played = cards_seen(visible, current)
        how = int(state.trump_how[row])
        how_text = HOW_TEXT[how]
        if how == HOW_NAMED and phase != "trump":
            how_text = f"named by seat {int(state.namer[row])}"
        trump_card = int(state.trump_card[row])
        trump = int(state.trump[row])
        trump_hidden = phase == "bid" and bidding_view(plan.kind)[1]
        if trump_hidden:
            trump, trump_card, how_text = -1, -1, "unknown"
        scores = tuple(int(v) for v in game.scores[int(state.games[row])])
        legal = legal_actions(game, observation, index)
        result.append(Observation(
            variant=game.rules.variant, seat=seat, players=players, phase=_PHASES[phase],
            deal_number=plan.number, hand_size=plan.hand_size, kind=plan.kind_name,
            dealer=int(state.dealer[row]), order=order, to_move=seat, hand=hand,
            hand_hidden=hidden, other_hands=tuple(others), trump=trump,
            trump_card=None if trump_card < 0 else trump_card, trump_how=how_text,
            bids=tuple(bids), taken=tuple(taken), trick=current,
            led_suit=int(state.led[row]) if phase == "play" else -1,
            trick_trump=-1 if trump_hidden else int(state.trick_trump[row]), tricks=visible,
            played=played,
            scores=scores,
            hook_rule=HOOK_NAMES[plan.hook] if phase == "bid" else "none",
            legal_actions=tuple(legal), trump_hidden=trump_hidden,
            passes_in_row=tuple(int(v) for v in game.passes[int(state.games[row])]),
        ))
    return result
