"""Batch strategies: players for the batch engine (``engine.batch``), and scalar ones seated there.

A batch strategy decides for many games at once. The engine calls it with a
``engine.batch.BatchObservation`` (one row per game whose seat it plays is to move; scalars for the
step, numpy arrays for the rest, legal actions as masks) and it answers with arrays::

    from raspis.engine.batch.bits import lowest_card
    from raspis.strategies.batch import OPTION_CALL, OPTION_SUIT, BatchStrategy, first_option

    class PassOrLowest(BatchStrategy):
        name = "pass-or-lowest"
        description = "bids the lowest legal bid and plays the lowest legal card"

        def bid(self, observation):
            return lowest_card(observation.legal_bids)            # bit index = the bid

        def play(self, observation):
            card = lowest_card(observation.legal_cards)
            option = first_option(observation.legal_calls)         # a Joker's call, if any
            return card, OPTION_CALL[option], OPTION_SUIT[option]  # (card, call, suit)

``name_trump`` (games whose player names trump) has a default. ``start`` is called once per batch
with the variant, the player count and the game seeds. One instance may play several seats
(``shareable``): ``observation.seat`` and ``observation.games`` say which. ``needs_history`` and
``needs_decision_index`` are kept for older strategies: every game's state holds the deal's
tricks and each seat's decision count, so ``scalar_observations()`` and
``observation.decision_index`` always work.

A scalar ``Strategy`` plays in a batch game through ``ScalarAdapter`` (one scalar instance per game
and seat, given exactly the observation ``engine.Game`` would give it), so every strategy works with
either engine. ``load_batch_strategy(spec)`` returns the batch implementation of a spec when there
is one (``BATCH_BUILTINS``), else the adapter; ``has_batch_implementation(spec)`` says which.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import numpy as np
from raspis.engine import Variant
from raspis.engine.actions import Bid, NameTrump, Play
from raspis.engine.batch.bits import SUIT_MASK, lowest_card, popcount
from raspis.engine.batch.observation import BatchObservation
from raspis.engine.core.codes import CALL_CODES, OPTION_CALL, OPTION_SUIT

from .base import Parameter, spec_string
from .catalogue import CATALOGUE
from .registry import StrategySpecError, parse_parameters, resolve_class, split_alias
from .spec import raw_parameters

#: Batch strategies by spec name: name -> "module:Class" (read from ``catalogue``). Each has a
#: scalar twin (``scalar_twin``) that plays the very same games in ``engine.Game``, except where
#: noted.
BATCH_BUILTINS: dict[str, str] = {entry.name: entry.batch for entry in CATALOGUE
                                  if entry.batch is not None}


class BatchStrategy:
    """Base class of batch strategies: override ``bid`` and ``play`` (see the module docstring)."""

    name: ClassVar[str] = "batch-strategy"
    description: ClassVar[str] = ""
    parameters: ClassVar[dict[str, Parameter]] = {}
    deterministic: ClassVar[bool] = True
    #: one instance may serve several seats of a game (its state is per game and seat, or none)
    shareable: ClassVar[bool] = True
    needs_history: ClassVar[bool] = False
    needs_decision_index: ClassVar[bool] = False
    #: the spec of the scalar strategy that plays exactly like this one, if any
    scalar_twin: ClassVar[str | None] = None

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(self.parameters)
        if unknown:
            known = ", ".join(sorted(self.parameters)) or "none"
            raise ValueError(f"strategy {self.name!r} has no parameter "
                             f"{', '.join(sorted(unknown))}; its parameters: {known}")
        for key, parameter in self.parameters.items():
            setattr(self, key, options.get(key, parameter.default))
        self.options = {key: getattr(self, key) for key in self.parameters}
        self.variant: Variant | None = None
        self.players = 0
        self.seeds = np.zeros(0, dtype=np.uint64)

    def start(self, variant: Variant, players: int, seeds: np.ndarray) -> None:
        """Called once per batch before the first decision."""
        self.variant = variant
        self.players = players
        self.seeds = seeds

    def name_trump(self, observation: BatchObservation) -> np.ndarray:
        """The trump suit to name (0..3, or -1 for none where legal); by default the suit with the
        most cards among those seen, ties to the lowest suit."""
        return longest_suit(observation.hand)

    def bid(self, observation: BatchObservation) -> np.ndarray:
        """One legal bid per row."""
        raise NotImplementedError

    def play(self, observation: BatchObservation) -> tuple[np.ndarray, Any, Any]:
        """One legal play per row: (card, call, suit) arrays; call and suit matter for Jokers
        only (``engine.core.codes.CALL_*``; suit -1 for none)."""
        raise NotImplementedError

    def spec(self) -> str:
        """The spec string that recreates this strategy."""
        return spec_string(self.name, self.options, self.parameters)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec()}>"


def longest_suit(hand: np.ndarray) -> np.ndarray:
    """The suit with the most cards in each hand, ties to the lowest suit."""
    counts = np.stack([popcount(hand & mask) for mask in SUIT_MASK], axis=1)
    return np.argmax(counts, axis=1).astype(np.int64)


def first_option(calls: np.ndarray, order: tuple[int, ...] | None = None) -> np.ndarray:
    """The first legal Joker call option of each mask (in ``order``, default bit order)."""
    if order is None:
        return np.maximum(lowest_card(calls.astype(np.uint64)), 0)
    chosen = np.zeros(calls.shape, dtype=np.int64)
    found = np.zeros(calls.shape, dtype=bool)
    for option in order:
        here = ~found & (((calls >> option) & 1) == 1)
        chosen = np.where(here, option, chosen)
        found |= here
    return chosen


# -- scalar strategies in batch games ------------------------------------------------------------


class ScalarAdapter(BatchStrategy):
    """A scalar strategy (by spec) playing in a batch: one instance per game and seat.

    Each instance is started like ``play_game`` starts it (``strategy_rng(seed, seat)``) and sees
    the reference observation, so a deterministic scalar strategy plays the same game in either
    engine. A fault (raised, illegal, over the time budget) marks the game errored as
    ``play_game`` would; the game then goes on with the first legal actions, unrecorded.

    An answer is taken only as a record of exactly the engine's class for the phase (``Bid``,
    ``NameTrump``, ``Play``), as ``Game.apply_unchecked`` takes it: a legal action whose class a
    strategy swapped (``object.__setattr__(record, "__class__", ...)``, the one write the
    immutable records allow) is an illegal answer, never read through the other class. The fields
    are read by tuple's own indexing, so even such a first legal action, played after a fault,
    gives the engine's own values.
    """

    name = "scalar-adapter"
    needs_history = True

    def __init__(self, spec: str, decision_seconds: float | None = None) -> None:
        super().__init__()
        from .play import check_budget

        self.strategy_spec = spec
        self.decision_seconds = check_budget(decision_seconds)
        self.instances: dict[tuple[int, int], Any] = {}
        self.faulted: set[int] = set()

    def spec(self) -> str:
        """The scalar strategy's spec (as given: the strategy's own ``spec()`` is not called)."""
        return self.strategy_spec

    def start(self, variant: Variant, players: int, seeds: np.ndarray) -> None:
        """Forget the instances of an earlier batch."""
        super().start(variant, players, seeds)
        self.instances = {}
        self.faulted = set()

    def _instance(self, game: int, seat: int) -> tuple[Any, tuple[str, str] | None]:
        """The scalar instance of (game, seat), created and started on first use inside the fault
        handling: ``(instance, None)`` or ``(None, (kind, message))``."""
        from .play import guarded, strategy_rng, within_budget
        from .registry import load_guarded

        key = (game, seat)
        instance = self.instances.get(key)
        if instance is None:
            instance, problem = load_guarded(self.strategy_spec)
            if problem is not None:
                return None, (problem[0], f"__init__: {problem[1]}")
            assert self.variant is not None
            seed = int(self.seeds[game])
            _, problem = guarded(within_budget, seat, self.decision_seconds, instance.start_game,
                                 self.variant, seat, self.players, strategy_rng(seed, seat))
            if problem is not None:
                return None, (problem[0], f"start_game: {problem[1]}")
            self.instances[key] = instance
        return instance, None

    def _actions(self, observation: BatchObservation, record: type) -> list[Any]:
        """Each row's action, an engine record of the legal actions (``record``: the class the
        phase takes); a faulted game's first legal action."""
        from raspis.engine.game import kind_name

        from .play import StrategyFault, check_action, decide, guarded

        scalar = observation.scalar_observations()
        games = observation.games
        actions = []
        fault_rows, messages = [], []
        for index, view in enumerate(scalar):
            game = int(games[index])
            legal = view.legal_actions
            if game in self.faulted:
                actions.append(legal[0])
                continue
            instance, problem = self._instance(game, view.seat)
            if problem is None:
                action, problem = guarded(decide, instance, view, self.decision_seconds)
            if problem is not None:
                kind, message = problem
                if kind == "timeout":
                    message = f"no decision within {self.decision_seconds} s"
            else:
                action, why = check_action(action, legal)
                if why is None and type(action) is not record:  # a legal record, class swapped
                    why = (f"returned a legal action the engine refuses: {kind_name(action)} "
                           f"where a {record.__name__} is due")
                kind, message = (None, None) if why is None else ("illegal", why)
            if kind is not None:
                fault = StrategyFault(view.seat, self.strategy_spec, kind, view.deal_number,
                                      view.phase.name.lower(), str(message))
                self.faulted.add(game)
                fault_rows.append(index)
                messages.append(str(fault))
                action = legal[0]
            actions.append(action)
        if fault_rows:
            observation.report_faults(np.array(fault_rows, dtype=np.int64), messages)
        return actions

    def name_trump(self, observation: BatchObservation) -> np.ndarray:
        """Each scalar instance names its trump."""
        actions = self._actions(observation, NameTrump)
        return np.array([_item(a, _TRUMP_SUIT) for a in actions], dtype=np.int64)

    def bid(self, observation: BatchObservation) -> np.ndarray:
        """Each scalar instance bids."""
        actions = self._actions(observation, Bid)
        return np.array([_item(a, _BID_TRICKS) for a in actions], dtype=np.int64)

    def play(self, observation: BatchObservation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each scalar instance plays."""
        actions = self._actions(observation, Play)
        card = np.array([_item(a, _PLAY_CARD) for a in actions], dtype=np.int64)
        call = np.array([CALL_CODES[_item(a, _PLAY_CALL)] for a in actions], dtype=np.int64)
        suit = np.array([_item(a, _PLAY_SUIT) for a in actions], dtype=np.int64)
        return card, call, suit


#: the records' fields by tuple's own indexing (no method of a record's class is called)
_item = tuple.__getitem__
_BID_TRICKS = Bid._fields.index("tricks")
_TRUMP_SUIT = NameTrump._fields.index("suit")
_PLAY_CARD, _PLAY_CALL, _PLAY_SUIT = (Play._fields.index(name) for name in ("card", "call", "suit"))


# -- finding batch strategies ---------------------------------------------------------------------


def batch_class(spec: str) -> tuple[type[BatchStrategy], str] | None:
    """(batch class, parameter text) of a spec with a batch implementation, else None (an alias
    in front, ``fast=fastheuristic``, is ignored). A spec that sets a parameter the batch class
    does not have but its scalar strategy does (``strong:model=false``) has none: it plays
    through its scalar strategy (``ScalarAdapter``)."""
    head, _, parameters = split_alias(spec)[1].strip().partition(":")
    target = BATCH_BUILTINS.get(head)
    if target is None:
        return None
    module_name, class_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    keys = set(raw_parameters(parameters, spec)) - set(cls.parameters)
    if keys and cls.scalar_twin and keys <= set(resolve_class(cls.scalar_twin)[0].parameters):
        return None
    return cls, parameters


def has_batch_implementation(spec: str) -> bool:
    """True when ``spec`` names a strategy with a vectorised batch implementation."""
    return batch_class(spec) is not None


def plays_like_scalar(spec: str) -> bool:
    """True when the batch implementation of ``spec`` plays exactly the games the scalar strategy
    of the same spec plays (``lowest``, ``fastrandom``, ``fastheuristic``); False for ``random``,
    whose batch draws follow the same distribution from another stream, and for specs without a
    batch implementation."""
    found = batch_class(spec)
    head = split_alias(spec)[1].strip().partition(":")[0]
    return found is not None and found[0].scalar_twin == head


def load_batch_strategy(spec: str, *, adapter: bool = True,
                        decision_seconds: float | None = None) -> BatchStrategy:
    """The batch strategy for ``spec``: its batch implementation, or (with ``adapter``) the scalar
    strategy through ``ScalarAdapter``."""
    found = batch_class(spec)
    if found is None:
        if not adapter:
            raise StrategySpecError(f"strategy {spec!r} has no batch implementation; batch "
                                    f"strategies: {', '.join(sorted(BATCH_BUILTINS))}")
        return ScalarAdapter(spec, decision_seconds)
    cls, parameters = found
    options = parse_parameters(cls, parameters, spec)  # type: ignore[arg-type]
    try:
        instance = cls(**options)
    except ValueError as error:
        raise StrategySpecError(f"strategy {spec!r}: {error}") from None
    instance.name = split_alias(spec)[1].strip().partition(":")[0]  # type: ignore[misc]
    return instance


__all__ = ["BATCH_BUILTINS", "BatchStrategy", "OPTION_CALL", "OPTION_SUIT", "ScalarAdapter",
           "batch_class", "first_option", "has_batch_implementation", "load_batch_strategy",
           "longest_suit", "plays_like_scalar"]
