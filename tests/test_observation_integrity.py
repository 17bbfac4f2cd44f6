"""What a strategy is shown of the tricks cannot be rewritten.

The game reads each finished trick of a deal once and shows that one ``Trick`` (and its
``TrickCard`` entries) to every seat that may look back at it for the rest of the deal
(``Game._finished``), so the trick records must be immutable in C, as the legal actions are
(``tests/test_action_integrity.py``): ``object.__setattr__`` on a field raises, and a strategy that
tries it on every record it is shown (finished tricks, the trick under way, legal actions) leaves
every other seat's view, every game and every later game exactly as they were.

A scalar strategy seated in the batch engine (``strategies.batch.ScalarAdapter``) is taken at its
word only with a record of exactly the engine's class: a legal action whose class it swapped
faults its game, and the game goes on with the engine's own values.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from raspis.engine import Game, load_variant
from raspis.engine.actions import Bid, Keep, NameTrump, Play
from raspis.engine.batch import play_batch
from raspis.engine.tricks import Trick, TrickCard
from raspis.strategies import Strategy, load_strategy
from raspis.strategies.batch import ScalarAdapter, load_batch_strategy
from raspis.strategies.play import play_game

from tests.immutability import assert_locked

#: entries of each kind: a plain card, a Joker's call with a suit, a Joker declared as a card
CARDS = (TrickCard(0, 5), TrickCard(1, 52, "highest", 2), TrickCard(2, 53, "card", 1, 14))
TRICKS = (Trick(CARDS, 1, 2), Trick((), -1, -1), Trick(CARDS[:1], 0, 0))
RECORDS = (*CARDS, *TRICKS)
FIELDS: dict[type, tuple[str, ...]] = {
    TrickCard: ("seat", "card", "call", "suit", "rank"), Trick: ("cards", "trump", "winner"),
    Bid: ("tricks",), NameTrump: ("suit",), Play: ("card", "call", "suit", "rank"),
    Keep: ("keep",)}


def _values(record: Any) -> tuple[Any, ...]:
    return tuple(getattr(record, name) for name in FIELDS[type(record)])


def _garbage(record: Any, field: str) -> Any:
    """Another plausible value for ``field`` (the neighbouring card, another seat or suit, no
    cards at all): what a strategy rewriting the records would write."""
    value = getattr(record, field)
    if field == "cards":
        return value[1:] if value else (TrickCard(0, 0),)
    if field == "call":
        return "low" if value is not None else "high"
    if field == "keep":
        return not value
    if field == "card":
        return value ^ 1
    if field in ("suit", "trump"):
        return (value + 2) % 4
    if field in ("seat", "winner"):
        return (value + 1) % 3
    return value + 1 if value == 0 else value - 1


# -- the records themselves ------------------------------------------------------------------------


@pytest.mark.parametrize("record", RECORDS, ids=repr)
def test_no_field_can_be_written_deleted_or_added(record: Any) -> None:
    assert_locked(record, FIELDS[type(record)], _garbage, _values)


def test_equality_is_by_exact_class_and_values() -> None:
    assert TrickCard(0, 5) == TrickCard(0, 5, None, -1, 0)
    assert not TrickCard(0, 5) != TrickCard(0, 5)
    assert TrickCard(0, 5) != TrickCard(1, 5) and TrickCard(0, 5) != TrickCard(0, 5, "high")
    # equal values in other objects: equal tricks
    assert Trick(CARDS, 1, 2) == Trick(tuple(copy.copy(card) for card in CARDS), 1, 2)
    assert Trick(CARDS, 1, 2) != Trick(CARDS, 1, 0) and Trick(CARDS, 1, 2) != Trick(CARDS[:2], 1, 2)
    # a tuple of the same values, a record of another class with the same values
    plain = tuple(tuple(card) for card in CARDS)
    for left, right in ((TrickCard(0, 5), (0, 5, None, -1, 0)), (Trick(CARDS, 1, 2), (CARDS, 1, 2)),
                        (Trick(CARDS, 1, 2), Trick(plain, 1, 2)),  # entries that are tuples
                        (Trick((), 1, 2), ((), 1, 2)), (TrickCard(5, None, -1, 0), Play(5))):
        assert left != right and right != left
        assert not left == right and not right == left  # noqa: SIM201
    assert TrickCard(0, 5) not in {(0, 5, None, -1, 0)}
    assert TrickCard(0, 5) != 5 and Trick((), 0, 0) != "trick"

    class OwnCard(TrickCard):  # a subclass is another class (as a dataclass's ``==``)
        __slots__ = ()

    assert OwnCard(0, 5) != TrickCard(0, 5) and TrickCard(0, 5) != OwnCard(0, 5)


def test_hash_is_the_tuple_of_values() -> None:
    """As the frozen dataclasses hashed: the tuple of the fields' values."""
    for record in RECORDS:
        assert hash(record) == hash(_values(record))
    assert hash(Trick(CARDS, 1, 2)) == hash((tuple(_values(card) for card in CARDS), 1, 2))
    assert {Trick(CARDS, 1, 2): "a"}[Trick(tuple(CARDS), 1, 2)] == "a"
    assert len({TrickCard(0, 5), TrickCard(0, 5), Trick((), 0, 0), Trick((), 0, 0)}) == 2


def test_records_are_not_ordered() -> None:
    with pytest.raises(TypeError):
        _ = TrickCard(0, 5) < TrickCard(0, 6)
    with pytest.raises(TypeError):
        _ = Trick((), 0, 0) >= Trick((), 0, 1)
    with pytest.raises(TypeError):
        sorted(TRICKS)


def test_api_as_before() -> None:
    assert repr(TrickCard(0, 5)) == "TrickCard(seat=0, card=5, call=None, suit=-1, rank=0)"
    assert repr(Trick(CARDS[:1], 0, 0)) == (
        "Trick(cards=(TrickCard(seat=0, card=5, call=None, suit=-1, rank=0),), trump=0, winner=0)")
    assert TrickCard(seat=1, card=52, call="high") == TrickCard(1, 52, "high", -1, 0)
    assert Trick(cards=(), trump=2, winner=1) == Trick((), 2, 1)
    assert CARDS[2].named == 13 * 1 + 14 - 2 and CARDS[0].named == CARDS[1].named == -1
    assert TrickCard.__match_args__ == FIELDS[TrickCard]
    assert Trick.__match_args__ == FIELDS[Trick]
    match TRICKS[0]:
        case Trick(cards=(TrickCard(seat=0, card=card), *_), winner=2):
            assert card == 5
        case _:
            pytest.fail("no match")
    with pytest.raises(TypeError):
        TrickCard(0)  # the card is needed


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_and_copy_round_trip(protocol: int) -> None:
    for record in RECORDS:
        for again in (pickle.loads(pickle.dumps(record, protocol)), copy.copy(record),
                      copy.deepcopy(record)):
            assert again == record and type(again) is type(record)
            assert all(type(card) is TrickCard for card in getattr(again, "cards", ()))


def test_the_game_shows_every_seat_the_same_records() -> None:
    """What makes immutability matter: one record per finished trick, shown to every seat."""
    game = Game(load_variant("classic"), 3, 4)
    while not (game.tricks and game.trick):
        game.apply_unchecked(game.legal_action_tuple()[0])
    views = [game.observation(seat) for seat in range(3)]
    shown = [view.tricks for view in views]
    assert shown[0] and all(type(trick) is Trick for trick in shown[0])
    assert all(type(card) is TrickCard for trick in shown[0] for card in trick.cards)
    assert all(type(card) is TrickCard for card in views[0].trick)
    assert all(a is b for other in shown[1:] for a, b in zip(shown[0], other, strict=True))


# -- games ---------------------------------------------------------------------------------------


class FirstLegal(Strategy):
    name = "first-legal"

    def act(self, observation: Any) -> Any:
        return observation.legal_actions[0]


class Rewriter(FirstLegal):
    """Tries to rewrite every field of every record it is shown (finished tricks and their cards,
    the trick under way, legal actions), then plays the first legal action."""

    name = "rewriter"

    def __init__(self) -> None:
        super().__init__()
        self.tried = self.written = self.tricks = 0

    def _rewrite(self, record: Any) -> None:
        for field in FIELDS[type(record)]:
            self.tried += 1
            try:
                object.__setattr__(record, field, _garbage(record, field))
            except (AttributeError, TypeError):
                continue
            self.written += 1

    def act(self, observation: Any) -> Any:
        for trick in observation.tricks:
            self.tricks += 1
            self._rewrite(trick)
            for card in trick.cards:
                self._rewrite(card)
        for card in observation.trick:
            self._rewrite(card)
        for record in observation.legal_actions:
            self._rewrite(record)
        return super().act(observation)


class Watcher(Strategy):
    """``random``, keeping the text of every observation it is shown (every field but the
    variant: the finished tricks, the trick under way, the cards seen...)."""

    name = "watcher"

    def __init__(self) -> None:
        super().__init__()
        self.inner = load_strategy("random")
        self.seen: list[str] = []

    def start_game(self, variant: Any, seat: int, players: int, rng: Any) -> None:
        self.inner.start_game(variant, seat, players, rng)

    def act(self, observation: Any) -> Any:
        self.seen.append(repr(observation))
        return self.inner.act(observation)


def _played(variant: Any, seed: int, first: Strategy) -> tuple[Any, ...]:
    """Everything a game of ``first`` against two random players shows: fault, scores, results,
    the event log (every bid, trump and card) and every observation the other two were shown."""
    others = [Watcher(), Watcher()]
    record = play_game(variant, 3, seed, [first, *others], log=True)
    game = record.game
    return (record.fault, tuple(game.scores), tuple(map(repr, game.results)), game.trace(),
            [other.seen for other in others])


@pytest.mark.parametrize("variant_name", ["classic", "joker"])
def test_a_strategy_rewriting_what_it_is_shown_changes_no_game(variant_name: str) -> None:
    variant = load_variant(variant_name)
    seeds = (3, 11)
    before = [_played(variant, seed, FirstLegal()) for seed in seeds]
    rewriter = Rewriter()
    rewritten = [_played(variant, seed, rewriter) for seed in seeds]
    after = [_played(variant, seed, FirstLegal()) for seed in seeds]
    assert rewriter.tricks > 50 and rewriter.tried > 1000 and rewriter.written == 0
    assert all(fault is None for fault, *_ in before)
    assert rewritten == before  # the other seats' views and games as without the rewrites
    assert after == before  # later games: nothing shared was changed


# -- a scalar strategy in the batch engine ---------------------------------------------------------


class _Impostor(tuple):
    """A tuple of the records' layout whose fields lie."""

    __slots__ = ()
    tricks = card = suit = property(lambda self: 1)
    call = None
    rank = 0


class Swapper(Strategy):
    """Answers its first decision with the engine's first legal action, its class swapped for
    ``_Impostor`` (``object.__setattr__(record, "__class__", ...)``, the one write a tuple allows);
    ``swapped``: the records and their classes, for the test to put back."""

    name = "swapper"

    def __init__(self) -> None:
        super().__init__()
        self.swapped: list[tuple[Any, type]] = []

    def act(self, observation: Any) -> Any:
        record = observation.legal_actions[0]
        self.swapped.append((record, type(record)))
        object.__setattr__(record, "__class__", _Impostor)
        return record


class Nothing(Strategy):
    """Answers its first decision with None (plainly illegal)."""

    name = "nothing"

    def act(self, observation: Any) -> Any:
        return None


def _batch(bot: str, swapped: list[tuple[Any, type]]) -> Any:
    """One joker game of ``bot`` (loaded by file spec, through the adapter) against two batch
    random players; ``swapped`` gets the records a ``Swapper`` swapped, even if the game raises."""
    adapter = ScalarAdapter(f"{Path(__file__)}:{bot}")
    seats = [adapter, load_batch_strategy("random"), load_batch_strategy("random")]
    try:
        return play_batch(load_variant("joker"), 3, np.array([7], dtype=np.uint64), seats)
    finally:
        for instance in adapter.instances.values():
            swapped.extend(getattr(instance, "swapped", ()))


def test_the_batch_adapter_takes_only_the_engine_classes() -> None:
    """A legal action whose class was swapped is an illegal answer, like any other, and the game
    goes on with the engine's own first legal action, read as the engine's values."""
    plain = _batch("Nothing", [])
    assert plain.errored.tolist() == [True]
    records: list[tuple[Any, type]] = []
    try:
        swapped = _batch("Swapper", records)
        assert records and all(type(record).__name__ == "_Impostor" for record, _ in records)
    finally:
        for record, kind in reversed(records):
            object.__setattr__(record, "__class__", kind)
    assert all(type(record) is Bid for record, _ in records)
    assert swapped.errored.tolist() == [True]
    message = swapped.errors[0]
    assert message is not None and "the engine refuses: _Impostor where a Bid is due" in message
    for name in ("scores", "deal_played", "bid", "tricks", "points", "trump"):
        assert (getattr(swapped, name) == getattr(plain, name)).all(), name
