"""The legal actions a strategy is shown cannot be rewritten.

The engine shares one action record between positions, seats and games (``Game.legal_action_tuple``
caches them), so a record must be immutable in C: ``object.__setattr__`` on a field raises, and a
strategy that tries it on every legal action it is shown leaves every other seat's game, and every
later game, exactly as it was. A record whose class was swapped (``object.__setattr__(record,
"__class__", ...)``, the one write a tuple allows) is refused by the engine, never misread.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from raspis.engine import Game, load_variant, variant_from_dict
from raspis.engine.actions import Bid, Keep, NameTrump, Play, parse_action
from raspis.engine.errors import IllegalActionError
from raspis.engine.events import CardPlayed
from raspis.strategies import Strategy, load_strategy
from raspis.strategies.play import check_action, play_game

from tests.immutability import assert_locked

#: one record of each kind, a Joker's call and a declared Joker among them
RECORDS = (Bid(2), Bid(0), NameTrump(1), NameTrump(-1), Keep(True), Keep(False), Play(5),
           Play(52, "high"), Play(52, "highest", 2), Play.declared(52, 12))
FIELDS = {Bid: ("tricks",), NameTrump: ("suit",), Play: ("card", "call", "suit", "rank"),
          Keep: ("keep",)}

#: the lead-choice rule brings ``Keep`` decisions; classic brings declared Jokers
KEEP_VARIANT = {"name": "classic-keep", "extends": "classic", "joker": {"lead_choice": True}}


def _variant(name: str) -> Any:
    return variant_from_dict(KEEP_VARIANT, "test") if name == "classic-keep" else load_variant(name)


def _garbage(record: Any, field: str) -> Any:
    """Another plausible value for ``field`` (a neighbouring card, another bid, the other suit):
    what a strategy rewriting the records would write."""
    value = getattr(record, field)
    if field == "card":
        return value if value >= 52 else value ^ 1
    if field == "call":
        return "low" if value is not None else None
    if field == "keep":
        return not value
    if field == "rank":
        return value and (13 if value == 14 else 14)
    if field == "suit":
        return (value + 2) % 4 if value >= 0 else value
    return value + 1 if value == 0 else value - 1


# -- the records themselves ------------------------------------------------------------------------


@pytest.mark.parametrize("record", RECORDS, ids=repr)
def test_no_field_can_be_written_deleted_or_added(record: Any) -> None:
    assert_locked(record, FIELDS[type(record)], _garbage, str)


def test_equality_is_by_exact_class_and_values() -> None:
    assert Bid(3) == Bid(3) and not Bid(3) != Bid(3)
    assert Play(52, "high", 2) == Play(52, "high", 2)
    assert Bid(3) != Bid(4) and not Bid(3) == Bid(4)
    # a tuple of the same values, a record of another class with the same values
    for left, right in ((Bid(3), (3,)), (Bid(3), NameTrump(3)), (Bid(1), Keep(True)),
                        (Keep(False), Bid(0)), (Play(5), (5, None, -1, 0)),
                        (NameTrump(-1), Bid(-1))):
        assert left != right and right != left
        assert not left == right and not right == left  # noqa: SIM201
    assert Bid(3) not in {NameTrump(3), (3,)}
    assert Bid(3) != 3 and Play(5) != "5♠"

    class OwnBid(Bid):  # a subclass is another class (as a dataclass's ``==``)
        pass

    assert OwnBid(3) != Bid(3) and Bid(3) != OwnBid(3)


def test_hash_is_the_tuple_of_values() -> None:
    for record in RECORDS:
        assert hash(record) == hash(tuple(getattr(record, name) for name in FIELDS[type(record)]))
    assert {Bid(3): "a"}[Bid(3)] == "a"
    assert len({Bid(1), Bid(1), Keep(True), NameTrump(1)}) == 3


def test_records_are_not_ordered() -> None:
    with pytest.raises(TypeError):
        _ = Bid(1) < Bid(2)
    with pytest.raises(TypeError):
        sorted([Play(7), Play(5)])


def test_api_as_before() -> None:
    assert repr(Bid(3)) == "Bid(tricks=3)"
    assert repr(Play(5)) == "Play(card=5, call=None, suit=-1, rank=0)"
    assert Play(52, "high", 2) == Play(card=52, call="high", suit=2, rank=0)
    assert Play.declared(52, 12) == Play(52, "card", 0, 14) and Play.declared(52, 12).named == 12
    assert Play(5).named == -1
    assert Play.__match_args__ == ("card", "call", "suit", "rank")
    assert Bid.__match_args__ == ("tricks",)
    match Play(52, "lowest", 3):
        case Play(card=52, call="lowest", suit=suit):
            assert suit == 3
        case _:
            pytest.fail("no match")
    assert [str(record) for record in RECORDS] == [
        "bid 2", "pass", "trump ♣", "trump none", "keep", "decline", "7♠", "JK high",
        "JK highest ♦", "JK card A♠"]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(protocol: int) -> None:
    for record in RECORDS:
        again = pickle.loads(pickle.dumps(record, protocol))
        assert again == record and type(again) is type(record)


# -- games ---------------------------------------------------------------------------------------


class FirstLegal(Strategy):
    name = "first-legal"

    def act(self, observation: Any) -> Any:
        return observation.legal_actions[0]


class Rewriter(FirstLegal):
    """Tries to rewrite every field of every legal action it is shown, then plays the first."""

    name = "rewriter"

    def __init__(self) -> None:
        super().__init__()
        self.tried = self.written = 0

    def act(self, observation: Any) -> Any:
        for record in observation.legal_actions:
            for field in FIELDS[type(record)]:
                self.tried += 1
                try:
                    object.__setattr__(record, field, _garbage(record, field))
                except (AttributeError, TypeError):
                    continue
                self.written += 1
        return super().act(observation)


def _played(variant: Any, seed: int, first: Strategy) -> tuple[Any, ...]:
    """Everything a game of ``first`` against two random players shows: fault, scores, results
    and the event log (every bid, trump and card)."""
    record = play_game(variant, 3, seed, [first, load_strategy("random"), load_strategy("random")],
                       log=True)
    game = record.game
    return (record.fault, tuple(game.scores), tuple(map(repr, game.results)), game.trace())


@pytest.mark.parametrize("variant_name", ["classic", "joker", "classic-keep"])
def test_a_strategy_rewriting_its_legal_actions_changes_no_game(variant_name: str) -> None:
    variant = _variant(variant_name)
    seeds = (3, 11)
    before = [_played(variant, seed, FirstLegal()) for seed in seeds]
    rewriter = Rewriter()
    rewritten = [_played(variant, seed, rewriter) for seed in seeds]
    after = [_played(variant, seed, FirstLegal()) for seed in seeds]
    assert rewriter.tried > 100 and rewriter.written == 0
    assert all(fault is None for fault, *_ in before)
    assert rewritten == before  # the other seats' games (and its own) as without the rewrites
    assert after == before  # later games: nothing shared was changed


class _Impostor(tuple):
    """A tuple of the records' layout whose fields lie."""

    __slots__ = ()
    tricks = card = suit = property(lambda self: 1)
    call = None
    keep = True
    rank = 0


def _swap(record: Any, kind: type, swapped: list[tuple[Any, type]]) -> None:
    swapped.append((record, type(record)))
    object.__setattr__(record, "__class__", kind)


def _restore(swapped: list[tuple[Any, type]]) -> None:
    for record, kind in reversed(swapped):
        object.__setattr__(record, "__class__", kind)


@pytest.mark.parametrize("impostor", [_Impostor, NameTrump, Play], ids=lambda kind: kind.__name__)
def test_a_record_whose_class_was_swapped_is_refused_not_misread(impostor: type) -> None:
    variant = load_variant("classic")
    seed = 5
    before = _played(variant, seed, FirstLegal())
    game = Game(variant, 3, seed)
    legal = game.legal_action_tuple()  # the engine's shared Bid records
    assert type(legal[0]) is Bid
    value = legal[0].tricks
    swapped: list[tuple[Any, type]] = []
    try:
        _swap(legal[0], impostor, swapped)
        seat, state = game.current_player(), game.state.copy()
        with pytest.raises(IllegalActionError):
            game.apply_unchecked(legal[0])
        assert game.current_player() == seat and (game.state == state).all()
        with pytest.raises(IllegalActionError):
            game.apply(legal[0])
        # a seat handed the swapped record back: its game stops there, a fault, not a crash
        record = play_game(variant, 3, seed, [FirstLegal(), FirstLegal(), FirstLegal()])
        assert record.fault is not None and record.fault.kind == "illegal"
        assert record.fault.seat == record.game.current_player()
        assert record.game.phase.name == "BID"
        # an equal fresh answer is not matched to the swapped record either (so an honest seat
        # that answers it faults too: the swap stops games, it never changes one)
        chosen, why = check_action(Bid(value), legal)
        assert chosen is None and why is not None
    finally:
        _restore(swapped)
    assert _played(variant, seed, FirstLegal()) == before


def test_the_event_log_keeps_no_record_a_strategy_was_shown() -> None:
    shown: list[Any] = []

    class Keeper(FirstLegal):
        def act(self, observation: Any) -> Any:
            shown.extend(observation.legal_actions)
            return super().act(observation)

    record = play_game(load_variant("classic"), 3, 2, [Keeper(), Keeper(), Keeper()], log=True)
    plays = [event.play for event in record.game.log if type(event) is CardPlayed]
    assert plays and {id(play) for play in plays}.isdisjoint(id(action) for action in shown)
    assert all(type(play) is Play for play in plays)


@pytest.mark.parametrize(("kind", "values"), [(Play, (5,)), (Bid, (0, 1)), (Bid, ())],
                         ids=["Play-1", "Bid-2", "Bid-0"])
def test_a_record_of_the_wrong_length_is_illegal_not_a_crash(kind: type,
                                                             values: tuple[Any, ...]) -> None:
    answer = tuple.__new__(kind, values)  # type: ignore[type-var]

    class Odd(Strategy):
        def act(self, observation: Any) -> Any:
            return answer

    record = play_game(load_variant("classic"), 3, 1, [Odd(), Odd(), Odd()])
    assert record.fault is not None and record.fault.kind == "illegal"
    assert f"{kind.__name__} of {len(values)} values, not" in record.fault.message
    game = Game(load_variant("classic"), 3, 1)
    with pytest.raises(IllegalActionError):
        game.apply(answer)


# -- every legal action prints and reads back ------------------------------------------------------

VARIANTS = ("classic", "joker", "joker-52", "classic-keep")


def _legal_met(variant: Any, players: int, seed: int) -> set[Any]:
    import random

    game = Game(variant, players, seed)
    pick = random.Random(seed)
    met: set[Any] = set()
    while not game.is_over():
        legal = game.legal_action_tuple()
        met.update(legal)
        game.apply(legal[pick.randrange(len(legal))])
    return met


def _reads_back(met: set[Any]) -> None:
    for action in met:
        again = parse_action(str(action))
        assert again == action and type(again) is type(action), str(action)


def test_every_kind_of_legal_action_reads_back() -> None:
    met: set[Any] = set()
    for name in VARIANTS:
        met |= _legal_met(_variant(name), 4, 7)
    _reads_back(met)
    kinds = {type(action) for action in met}
    assert kinds == {Bid, NameTrump, Play, Keep}
    assert any(type(action) is Play and action.rank for action in met)  # declared Jokers
    assert any(type(action) is Play and action.call and action.suit >= 0 for action in met)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(3, 4),
       name=st.sampled_from(VARIANTS))
def test_legal_actions_of_any_game_read_back(seed: int, players: int, name: str) -> None:
    _reads_back(_legal_met(_variant(name), players, seed))
