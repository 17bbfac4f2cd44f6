"""The built-in players, one record each: the one place a built-in is registered.

Every list of built-ins the package keeps is read from ``CATALOGUE``: the names a spec may use
(``strategies.spec.BUILTINS``), their batch implementations (``strategies.batch``'s
``BATCH_BUILTINS``), the codes of the compiled policies (``policies.compiled``), the players
``raspis play`` may run on the core interpreted (``LIGHT``) and those whose game compiles more
than the rules core (``COMPILING``), the warm-up stand-ins of the search players (``stand_in``)
and the policies a search player may play its playouts with (``PLAYOUT_POLICIES``). Adding a
built-in is adding its record here (docs/strategies.md, "Adding a built-in").

The records name classes as ``"module:Class"`` text and import nothing: reading a spec
(``strategies.spec``) must not load the compiled core, since ``raspis play`` decides from the specs
whether the core runs compiled or interpreted (``engine.warmth``) before it is imported.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Builtin:
    """One built-in player: its spec name, where its classes are, and how the engines treat it."""

    #: the name a spec uses (``strong``, ``mc:samples=50``)
    name: str
    #: the scalar strategy, ``"module:Class"`` (``engine.Game``)
    player: str
    #: its batch strategy, ``"module:Class"``, or None (a batch game seats it through
    #: ``strategies.batch.ScalarAdapter``)
    batch: str | None = None
    #: the code of its compiled policy (``policies.compiled.choose_action``), or None: a batch of
    #: players that all have one plays whole games in one compiled loop
    policy: int | None = None
    #: its batch strategy plays the very games its scalar strategy plays (a scalar twin)
    twin: bool = False
    #: light enough to play on the rules core run by Python (``raspis play`` on a cold cache: a
    #: game in a second or two, where compiling the core takes about ten)
    light: bool = False
    #: its game compiles more than the rules core (the compile notice's estimate)
    compiles: bool = False
    #: the spec that warms what it needs before a run (``tournament.warm``): a search player at
    #: its cheapest; None: itself
    stand_in: str | None = None
    #: a search player may play its playouts with this compiled policy (``mc:playout=NAME``)
    plays_out: bool = False

    def player_class(self) -> Any:
        """The scalar strategy's class (imported on first use)."""
        return _load(self.player)

    def batch_class(self) -> Any:
        """The batch strategy's class (imported on first use), or None."""
        return None if self.batch is None else _load(self.batch)

    @property
    def parameters(self) -> dict[str, Any]:
        """The parameters a spec may set (``strategies.base.Parameter`` by name), the scalar
        strategy's: its class declares them beside the code that reads them."""
        return dict(self.player_class().parameters)


def _load(target: str) -> Any:
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


#: where the players are (``"module:Class"`` below)
_PLAYERS = "raspis.strategies.players"

#: the built-ins; each record's ``name`` is written here and in its class, nowhere else
RANDOM = Builtin(name="random", player="raspis.strategies.base:RandomStrategy",
                 batch=f"{_PLAYERS}.batch_basic:BatchRandom", policy=1, light=True)
HEURISTIC = Builtin(name="heuristic", player=f"{_PLAYERS}.heuristic:HeuristicStrategy",
                    light=True)
EXPECTED_VALUE = Builtin(name="ev", player=f"{_PLAYERS}.ev:ExpectedValueStrategy",
                         compiles=True, stand_in="ev:samples=1")
PIMC = Builtin(name="pimc", player=f"{_PLAYERS}.pimc:PimcStrategy", compiles=True,
               stand_in="pimc:samples=1")
MONTE_CARLO = Builtin(name="mc", player=f"{_PLAYERS}.mc:MonteCarloStrategy", compiles=True,
                      stand_in="mc:samples=2")
ISMCTS = Builtin(name="ismcts", player=f"{_PLAYERS}.ismcts:IsmctsStrategy", compiles=True,
                 stand_in="ismcts:iterations=2,bid_samples=1")
FAST_HEURISTIC = Builtin(name="fastheuristic", player=f"{_PLAYERS}.fast:FastHeuristicStrategy",
                         batch=f"{_PLAYERS}.batch_basic:BatchFastHeuristic", policy=2, twin=True,
                         light=True, compiles=True, plays_out=True)
FAST_RANDOM = Builtin(name="fastrandom", player=f"{_PLAYERS}.fast:HashRandomStrategy",
                      batch=f"{_PLAYERS}.batch_basic:BatchRandom", policy=1, twin=True,
                      light=True, compiles=True)
LOWEST = Builtin(name="lowest", player=f"{_PLAYERS}.fast:LowestStrategy",
                 batch=f"{_PLAYERS}.batch_basic:BatchLowest", policy=0, twin=True, light=True,
                 compiles=True)
STRONG = Builtin(name="strong", player=f"{_PLAYERS}.strong:StrongStrategy",
                 batch=f"{_PLAYERS}.strong:BatchStrong", policy=3, twin=True, light=True,
                 compiles=True, plays_out=True)

#: every built-in, in the order ``raspis strategies list`` sorts anyway
CATALOGUE: tuple[Builtin, ...] = (RANDOM, HEURISTIC, EXPECTED_VALUE, PIMC, MONTE_CARLO, ISMCTS,
                                  FAST_HEURISTIC, FAST_RANDOM, LOWEST, STRONG)
#: the records by name
BY_NAME: dict[str, Builtin] = {entry.name: entry for entry in CATALOGUE}
#: the players light enough to play on the core run by Python (``raspis play``)
LIGHT: tuple[str, ...] = tuple(entry.name for entry in CATALOGUE if entry.light)
#: the players whose game compiles more than the rules core
COMPILING: tuple[str, ...] = tuple(entry.name for entry in CATALOGUE if entry.compiles)
#: the compiled policies a search player may play its playouts with, name -> policy code
PLAYOUT_POLICIES: dict[str, int] = {entry.name: entry.policy for entry in CATALOGUE
                                    if entry.plays_out and entry.policy is not None}


def find(name: str) -> Builtin | None:
    """The record of the built-in ``name``, or None."""
    return BY_NAME.get(name)


def policy_code(entry: Builtin) -> int:
    """The compiled policy code of ``entry``, which must have one."""
    if entry.policy is None:
        raise ValueError(f"{entry.name} has no compiled policy")
    return entry.policy


def stand_in(name: str) -> str | None:
    """The spec that warms what the built-in ``name`` needs (itself where it has no cheaper
    form), or None for a name that is no built-in."""
    entry = BY_NAME.get(name)
    if entry is None:
        return None
    return entry.stand_in or entry.name


def compiled_players() -> tuple[Builtin, ...]:
    """One built-in per compiled policy code, the first in ``CATALOGUE`` (``random`` and
    ``fastrandom`` share one): a lineup that holds every compiled policy."""
    found: dict[int, Builtin] = {}
    for entry in CATALOGUE:
        if entry.policy is not None:
            found.setdefault(entry.policy, entry)
    return tuple(found[code] for code in sorted(found))


def twins() -> tuple[Builtin, ...]:
    """The built-ins whose batch strategy plays the very games of their scalar one."""
    return tuple(entry for entry in CATALOGUE if entry.twin)


__all__ = ["BY_NAME", "CATALOGUE", "COMPILING", "LIGHT", "PLAYOUT_POLICIES", "Builtin",
           "compiled_players", "find", "policy_code", "stand_in", "twins"]
