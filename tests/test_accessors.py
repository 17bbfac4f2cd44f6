"""``engine.core.fields``: each compiled accessor reads (or writes) the slot of the state or the
plan that its field names in ``engine.core.machine``'s declarations, on a real game's state; and
no module outside ``engine/core/`` names an offset of those declarations (only the core
touches offsets)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from raspis.engine import Game, load_variant
from raspis.engine.core import fields
from raspis.engine.core import machine as m

ROOT = Path(__file__).resolve().parent.parent

#: accessor -> the scalar of the state it reads (``S_*``); each is also ``StateView``'s name
SCALARS = {
    "phase": "S_PHASE", "deal_index": "S_DEAL_INDEX", "row": "S_ROW", "dealer": "S_DEALER",
    "first_dealer": "S_FIRST_DEALER", "to_move": "S_TO_MOVE", "trump": "S_TRUMP",
    "trump_card": "S_TRUMP_CARD", "how": "S_HOW", "led_suit": "S_LED",
    "trick_trump": "S_TRICK_TRUMP", "trick_length": "S_TRICK_LEN",
    "tricks_done": "S_TRICKS_DONE", "order_length": "S_ORDER_LEN", "results": "S_RESULTS",
    "legal_first": "S_LEGAL_A", "legal_second": "S_LEGAL_B", "circular": "S_CIRCULAR",
}
#: accessor -> the plan's option it reads (``P_*``)
OPTIONS = {
    "plan_players": "P_PLAYERS", "plan_max_tricks": "P_MAX_TRICKS",
    "plan_must_trump": "P_MUST_TRUMP", "plan_two_jokers": "P_TWO_JOKERS",
    "plan_lead_fine": "P_LEAD_FINE", "plan_nameable": "P_NAMEABLE",
    "plan_premium_mode": "P_PREMIUM_MODE", "plan_premium_points": "P_PREMIUM_POINTS",
}
#: accessor -> the per-seat block of the state it reads an entry of (``O_*``)
BLOCKS = {
    "hand": "O_HANDS", "bid": "O_BIDS", "taken": "O_TAKEN", "score": "O_SCORES",
    "seat_at": "O_ORDER", "trick_seat": "O_TSEAT", "span_made": "O_MADE", "span_best": "O_BEST",
}
#: setter -> the per-seat block it writes an entry of
SETTERS = {"set_hand": "O_HANDS", "set_first_cards": "O_FIRST"}
#: accessor -> the column of the deal table it reads (``D_*``)
COLUMNS = {
    "deal_hand_size": "D_HAND", "deal_kind": "D_KIND", "deal_block": "D_BLOCK",
    "deal_trump_rule": "D_TRUMP_RULE", "deal_opens": "D_OPENS", "deal_bidding": "D_BIDDING",
    "deal_special": "D_SPECIAL", "deal_hand_hidden": "D_HAND_HIDDEN",
}
#: accessor -> the entry of a result row it reads (``R_*``), one per row
RESULT_ENTRIES = {
    "result_row": "R_ROW", "result_dealer": "R_DEALER", "result_trump": "R_TRUMP",
    "result_hook_forced": "R_HOOK_FORCED", "result_participants": "R_PARTICIPANTS",
}
#: accessor -> the per-seat block of a result row it reads (``R_*`` after ``R_SEATS``)
RESULT_SEATS = {
    "result_bid": "R_BIDS", "result_taken": "R_TAKEN", "result_points": "R_POINTS",
    "result_premium": "R_PREMIUMS", "result_total": "R_TOTALS",
}
#: the accessors checked one by one below
OTHERS = {"set_trump", "result_joker_holder", "finished_winner", "step_span", "successors_at",
          "deal_points", "points_row", "bids_row", "taken_row", "order_row"}


@pytest.fixture(scope="module")
def game() -> Game:
    """A game of the joker variant (Jokers, premiums) played by its first legal actions into the
    third deal, a trick under way: result rows, finished tricks and a trick to read."""
    game = Game(load_variant("joker"), 4, 12, log=False)
    view = game.view
    while not (view.results >= 2 and view.phase == m.PH_PLAY and view.trick_length >= 1
               and view.tricks_done >= 1):
        game.apply_unchecked(game.legal_actions()[0])
    return game


def _at(game: Game, name: str) -> int:
    return int(game.tables.plan[getattr(m, name)])


def test_every_accessor_is_checked() -> None:
    declared = {name for name, value in vars(fields).items()
                if hasattr(value, "py_func") and value.py_func.__module__ == fields.__name__
                and not name.startswith("_")}
    checked = (set(SCALARS) | set(OPTIONS) | set(BLOCKS) | set(SETTERS) | set(COLUMNS)
               | set(RESULT_ENTRIES) | set(RESULT_SEATS) | OTHERS)
    assert declared == checked
    for name in declared:
        assert getattr(fields, name).py_func.__doc__, name


def test_scalars_read_their_slot(game: Game) -> None:
    view = game.view
    for name, slot in SCALARS.items():
        read = getattr(fields, name).py_func
        assert read(game.state) == getattr(view, name), name  # StateView's field of that name
        state = game.state.copy()
        state[getattr(m, slot)] = 1234
        assert read(state) == 1234, name


def test_options_read_their_slot(game: Game) -> None:
    for name, slot in OPTIONS.items():
        plan = game.tables.plan.copy()
        plan[getattr(m, slot)] = 4321
        assert getattr(fields, name).py_func(plan) == 4321, name
    assert fields.plan_players.py_func(game.tables.plan) == game.tables.players


def test_blocks_read_their_slot(game: Game) -> None:
    plan = game.tables.plan
    view = game.view
    for seat in range(game.tables.players):
        assert fields.hand.py_func(game.state, plan, seat) == view.hands[seat]
        assert fields.bid.py_func(game.state, plan, seat) == view.bids[seat]
        assert fields.taken.py_func(game.state, plan, seat) == view.taken[seat]
        assert fields.score.py_func(game.state, plan, seat) == view.scores[seat]
    for position, seat in enumerate(view.order):
        assert fields.seat_at.py_func(game.state, plan, position) == seat
    for index, (seat, _, _, _) in enumerate(view.trick_cards()):
        assert fields.trick_seat.py_func(game.state, plan, index) == seat
    for name, block in BLOCKS.items():
        for seat in range(game.tables.players):
            state = game.state.copy()
            state[_at(game, block) + seat] = 777 + seat
            assert getattr(fields, name).py_func(state, plan, seat) == 777 + seat, name


def test_block_views_are_the_blocks(game: Game) -> None:
    plan = game.tables.plan
    view = game.view
    assert fields.bids_row.py_func(game.state, plan).tolist() == view.bids
    assert fields.taken_row.py_func(game.state, plan).tolist() == view.taken
    assert fields.order_row.py_func(game.state, plan).tolist() == view.order
    players = game.tables.players
    for name, block in (("bids_row", "O_BIDS"), ("taken_row", "O_TAKEN")):
        state = game.state.copy()
        getattr(fields, name).py_func(state, plan)[players - 1] = 888
        assert state[_at(game, block) + players - 1] == 888, name  # a view, not a copy


def test_setters_write_their_slot(game: Game) -> None:
    plan = game.tables.plan
    for name, block in SETTERS.items():
        for seat in range(game.tables.players):
            state = game.state.copy()
            getattr(fields, name).py_func(state, plan, seat, 1 << 60)
            changed = np.flatnonzero(state != game.state)
            assert changed.tolist() == [_at(game, block) + seat], name
            assert state[_at(game, block) + seat] == 1 << 60
    state = game.state.copy()
    fields.set_trump.py_func(state, 2, 17)
    assert (state[m.S_TRUMP], state[m.S_TRUMP_CARD], state[m.S_TRICK_TRUMP]) == (2, 17, 2)
    changed = set(np.flatnonzero(state != game.state).tolist())
    assert changed <= {m.S_TRUMP, m.S_TRUMP_CARD, m.S_TRICK_TRUMP}


def test_deal_columns_read_their_slot(game: Game) -> None:
    deals = game.tables.deals
    for name, column in COLUMNS.items():
        read = getattr(fields, name).py_func
        for row in range(len(deals)):
            assert read(game.tables.plan, row) == deals[row, getattr(m, column)], (name, row)
        plan = game.tables.plan.copy()
        plan[_at(game, "O_DEALS") + 1 * m.D_WIDTH + getattr(m, column)] = 999
        assert read(plan, 1) == 999, name


def test_score_tables_read_their_slot(game: Game) -> None:
    plan = game.tables.plan
    for row in range(len(game.tables.deals)):
        at = _at(game, "O_POINTS") + game.tables.deals[row, m.D_POINTS_AT]
        width = game.tables.deals[row, m.D_POINTS_WIDTH]
        for bid in range(-1, game.tables.deals[row, m.D_HAND] + 1):
            start = at + (bid + 1) * width
            points = fields.points_row.py_func(plan, row, bid)
            assert points.tolist() == plan[start:start + width].tolist()
            for taken in range(width):
                assert fields.deal_points.py_func(plan, row, bid, taken) == plan[start + taken]


def test_result_rows_read_their_slot(game: Game) -> None:
    plan = game.tables.plan
    players = game.tables.players
    view = game.view
    assert view.results >= 2
    for index in range(view.results):
        at = _at(game, "O_RES") + index * m.result_width(players)
        result = view.result(index)
        assert fields.result_row.py_func(game.state, plan, index) == result["row"]
        assert fields.result_dealer.py_func(game.state, plan, index) == result["dealer"]
        assert fields.result_trump.py_func(game.state, plan, index) == result["trump"]
        for joker in (52, 53):
            assert (fields.result_joker_holder.py_func(game.state, plan, index, joker)
                    == result["jokers"][joker])
        for name, entry in RESULT_ENTRIES.items():
            state = game.state.copy()
            state[at + getattr(m, entry)] = 555
            assert getattr(fields, name).py_func(state, plan, index) == 555, name
        for joker, entry in ((52, m.R_JOKER_52), (53, m.R_JOKER_53)):
            state = game.state.copy()
            state[at + entry] = 3
            assert fields.result_joker_holder.py_func(state, plan, index, joker) == 3
        for name, block in RESULT_SEATS.items():
            key = {"R_BIDS": "bids", "R_TAKEN": "taken", "R_POINTS": "points",
                   "R_PREMIUMS": "premiums", "R_TOTALS": "totals"}[block]
            read = getattr(fields, name).py_func
            for seat in range(players):
                assert read(game.state, plan, index, seat) == result[key][seat], (name, seat)
                state = game.state.copy()
                state[at + m.R_SEATS + getattr(m, block) * players + seat] = 666
                assert read(state, plan, index, seat) == 666, (name, seat)


def test_finished_tricks_and_spans_read_their_slot(game: Game) -> None:
    plan = game.tables.plan
    view = game.view
    assert view.tricks_done >= 1
    for trick in range(view.tricks_done):
        assert (fields.finished_winner.py_func(game.state, plan, trick)
                == view.finished_trick(trick)[2])
    players = game.tables.players
    assert fields.step_span.py_func(plan) == _at(game, "O_TSUIT") + players
    assert fields.successors_at.py_func(plan) == _at(game, "O_NEXT")


def test_no_offset_is_named_outside_the_core() -> None:
    """No source outside ``engine/core/`` names an offset that ``machine`` declares (``S_*``,
    ``P_*``, ``O_*``, ``D_*``, ``H_*``, ``R_*``): they read the state through ``fields`` (compiled)
    or ``view`` (Python). This file is the one exception: it checks the accessors against them."""
    names = sorted((name for name in vars(m) if re.match(r"[SPODRH]_[A-Z]", name)),
                   key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(names) + r")\b")
    found = []
    for folder in ("engine", "strategies", "tournament", "analysis", "cli", "benchmarks",
                   "raspis", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("engine/core/") or path == Path(__file__).resolve():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
