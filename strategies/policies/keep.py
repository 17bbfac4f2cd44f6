"""Keeping or declining the trick a Joker led (``joker.lead_choice``, 000 second article:
«Походивший с джокера может забрать взятку, либо отказаться от нее»): the one rule of thumb every
built-in strategy answers that decision with.

The seat keeps the trick when one more trick raises its points for the deal (its bid's row of the
deal's score table: it still needs tricks for its bid, or its bid is broken already and a trick
still scores), and declines it when one more trick would cost (it has made its bid, or passed and
took nothing: another trick overshoots; a misère deal). ``keep_trick`` is that rule over a row of
the score table, compiled so that the compiled policies (``strategies.policies.compiled.decide``)
and the scalar strategies (``keep_from_observation``, ``keep_from_game``) call the same function.
"""

from __future__ import annotations

import numpy as np
from raspis.engine import Action, Game, Keep, Observation
from raspis.engine.core import fields
from raspis.engine.core.compiling import jit
from raspis.engine.core.plan import rule_plan
from raspis.engine.game import Phase

KEEP, DECLINE = Keep(True), Keep(False)


@jit()
def keep_trick(points: np.ndarray, taken: int) -> bool:
    """Whether to keep the trick: ``points[t]`` is the seat's deal points ending with ``t``
    tricks (its bid's row of the score table), ``taken`` its tricks before this one."""
    return taken + 1 < len(points) and points[taken + 1] > points[taken]


@jit()
def keep_code(state: np.ndarray, plan: np.ndarray) -> int:
    """The action code (``machine.step``: 1 keep, 0 decline) of the seat to move in ``KEEP``,
    by ``keep_trick`` over its row of the deal's score table in the plan."""
    seat = fields.to_move(state)
    points = fields.points_row(plan, fields.row(state), fields.bid(state, plan, seat))
    return 1 if keep_trick(points, fields.taken(state, plan, seat)) else 0


def keep_from_game(game: Game) -> Keep:
    """The keep decision of the seat to move in ``game`` (a search game, say)."""
    return KEEP if keep_code(game.state, game.tables.plan) else DECLINE


def keep_from_observation(observation: Observation) -> Keep:
    """The keep decision of the observing seat, from what it sees: its bid, its tricks and the
    deal's score table (``RulePlan.points_table`` over the deal's tricks)."""
    plan = rule_plan(observation.variant, observation.players)
    key = ("keep points", observation.hand_size, observation.kind, len(observation.order))
    table = plan.memo.get(key)
    if table is None:
        kind = observation.variant.kinds[observation.kind]
        table = plan.memo[key] = plan.points_table(observation.hand_size, kind,
                                                   observation.deal_tricks)
    seat = observation.seat
    bid = observation.bids[seat]
    row = table[0 if bid is None else bid + 1]  # type: ignore[index]
    return KEEP if keep_trick(row, observation.taken[seat]) else DECLINE


def settled_action(observation: Observation) -> Action | None:
    """The action a strategy need not think about, or None: the only legal action, or the keep
    decision after a Joker lead (``keep_from_observation``, the one rule every built-in strategy
    keeps by). The heuristic and the search strategies ask it first."""
    actions = observation.legal_actions
    if len(actions) == 1:
        return actions[0]
    if observation.phase == Phase.KEEP:
        return keep_from_observation(observation)
    return None


__all__ = ["DECLINE", "KEEP", "keep_code", "keep_from_game", "keep_from_observation",
           "keep_trick", "settled_action"]
