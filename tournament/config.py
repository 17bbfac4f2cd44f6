"""What a tournament plays, and its checks: ``TournamentConfig`` (variants, players, strategies,
deal sets, seed, seating, engine), the checks of its values (``check_sizes``, ``check_scale``,
``check_room``, ``validate_config``: every one before anything is planned or written), and its
fingerprint (``config_fingerprint``: two runs with equal configurations write identical data).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from raspis.engine import load_variant
from raspis.engine.errors import RaspisError
from raspis.strategies import load_strategy
from raspis.strategies.registry import display_names

from .schema import DEAL_ROWS_DEFAULT_LIMIT

if TYPE_CHECKING:
    from .batch_shard import EngineChoice

DUPLICATE_MODES = ("none", "rotations", "permutations")
ENGINES = ("auto", "scalar", "batch")
SEATING_MODES = ("rotate", "fixed")


class TournamentError(RaspisError):
    """A tournament that cannot run as asked (bad options, a directory holding another run)."""


class RunStorageError(TournamentError):
    """The run could not write its folder (a read-only or full disk, a file size limit, no
    permission): the shards written so far are kept, and the run resumes once it can write."""


@dataclass(frozen=True)
class TournamentConfig:
    """What to play. Two runs with equal configs produce identical datasets."""

    variants: tuple[str, ...]
    players: int
    strategies: tuple[str, ...]
    games: int
    seed: int = 0
    duplicate: str = "none"
    seating: str = "rotate"
    shard_size: int | None = None
    deal_rows: bool | None = None
    decision_seconds: float | None = None
    engine: str = "auto"
    #: the deal sets a run's game ids and deal blocks count from, when the run grows round by
    #: round (``raspis settle`` fixes it at its budget and plays ``games`` = the deal sets so far:
    #: see ``deal_set_basis``); None: ``games``
    plan_deal_sets: int | None = None

    @property
    def deal_set_basis(self) -> int:
        """The deal sets game ids and deal blocks count from: ``plan_deal_sets`` in a run that
        grows round by round (so the shards of earlier rounds stay as they were written), else
        ``games``."""
        return self.plan_deal_sets if self.plan_deal_sets is not None else self.games

    def grows(self) -> bool:
        """Whether the run may grow: played again with more ``games`` on the same plan (its
        identity, ``config_fingerprint``, leaves ``games`` out)."""
        return self.plan_deal_sets is not None

    def resolved_engine(self) -> str:
        """The engine that plays: batch when asked, or (auto) when every seat's strategy has a
        vectorised implementation that can play the run's variants; else scalar
        (``batch_shard.engine_for``, which says why)."""
        return self.engine_choice().engine

    def engine_choice(self) -> EngineChoice:
        """``batch_shard.engine_for`` of this run: its engine, and why."""
        from raspis.tournament import batch_shard

        return batch_shard.engine_for(self.strategies, self.variants, self.players, self.engine)

    def numpy_refusal(self) -> str | None:
        """Why the lineup cannot play a variant of the run on the batch engine, or None: only
        where some seat is a numpy batch strategy (not a compiled policy), which is refused what
        its batch observation cannot show (``RulePlan.lockstep_refusal``)."""
        return self.engine_choice().refusal

    @property
    def effective_shard_size(self) -> int:
        """Deal sets per shard: given, or a function of the run size and engine (never of
        workers)."""
        if self.shard_size is not None:
            return self.shard_size
        if self.resolved_engine() == "batch":  # lockstep batches slow down below ~4,000 games
            return max(1, min(self.games, 20_000, max(4096, math.ceil(self.games / 8))))
        return max(1, min(500, math.ceil(self.games / 64)))

    def seatings(self) -> list[tuple[int, ...]]:
        """Seat -> lineup slot, for each seating the run plays."""
        slots = list(range(self.players))
        if self.duplicate == "permutations":
            return [tuple(p) for p in itertools.permutations(slots)]
        if self.duplicate == "rotations" or self.seating == "rotate":
            return [tuple(slots[(seat + shift) % self.players] for seat in slots)
                    for shift in range(self.players)]
        return [tuple(slots)]

    def total_games(self, variants: int | None = None) -> int:
        """Games the run plays: deal sets x seatings (duplicate) or deal sets, per variant
        (``variants``: how many it plays, default the configuration's)."""
        variants = len(self.variants) if variants is None else variants
        return self.games * self.seating_groups() * variants

    def shard_blocks(self) -> int:
        """Blocks of ``effective_shard_size`` deal sets the deal sets make (the last may be
        shorter): one shard each per variant and seating group."""
        return -(-self.games // self.effective_shard_size)

    def shard_count(self, variants: int | None = None) -> int:
        """The shards of the run (``variants``: how many it plays, default the configuration's):
        one per variant, seating group and block (``plan.ShardPlan``); counted, never listed."""
        variants = len(self.variants) if variants is None else variants
        return variants * self.seating_groups() * self.shard_blocks()

    def seating_groups(self) -> int:
        """The seatings each deal set is played under: all of them with duplicates (``seatings``:
        players! permutations or players rotations), one without; counted, not listed (a
        manifest's player count is not trusted to be small)."""
        if self.duplicate == "none":
            return 1
        if self.duplicate == "permutations":
            return math.factorial(self.players)
        return self.players

    def writes_deal_rows(self) -> bool:
        """Per-deal rows: as asked, else only for runs up to ``DEAL_ROWS_DEFAULT_LIMIT`` games."""
        if self.deal_rows is not None:
            return self.deal_rows
        return self.total_games() <= DEAL_ROWS_DEFAULT_LIMIT


#: The largest seed: seeds are 64-bit unsigned.
MAX_SEED = SEED_MAX = 2**64 - 1


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def  validate_config(config: TournamentConfig) -> list[dict[str, Any]]:
    check_sizes(config)
    return _validate_rest(config)


def check_sizes(config: TournamentConfig) -> None:
    """The numbers of a configuration (games, players, seed, shard size, modes), checked without
    loading anything: ``TournamentError`` naming the first bad one (``verify`` judges a manifest
    with it before planning its shards)."""
    if not is_whole(config.games) or config.games < 1:
        raise TournamentError(f"--games must be a whole number of at least 1, got {config.games}")
    if not is_whole(config.players) or config.players < 1:
        raise TournamentError(f"--players must be a whole number of at least 1, got "
                              f"{config.players}")
    if not is_whole(config.seed) or not 0 <= config.seed <= MAX_SEED:
        raise TournamentError(f"--seed must be a whole number from 0 to 2^64-1 ({MAX_SEED}), got "
                              f"{config.seed}")
    if config.shard_size is not None and (not is_whole(config.shard_size) or config.shard_size < 1):
        raise TournamentError(f"--shard-size must be a whole number of at least 1 (deal sets per "
                              f"shard), got {config.shard_size}")
    if config.plan_deal_sets is not None:
        if not is_whole(config.plan_deal_sets) or config.plan_deal_sets < config.games:
            raise TournamentError(
                f"the planned deal sets ({config.plan_deal_sets}) of a run that grows must be a "
                f"whole number of at least its --games ({config.games})")
        if config.shard_size is None or (config.games % config.shard_size
                                         and config.games != config.plan_deal_sets):
            raise TournamentError(
                "a run that grows round by round plays whole shards of a fixed --shard-size "
                f"until its last round (got --games {config.games}, --shard-size "
                f"{config.shard_size})")
    if config.duplicate not in DUPLICATE_MODES:
        raise TournamentError(f"--duplicate must be one of {', '.join(DUPLICATE_MODES)}")
    if config.seating not in SEATING_MODES:
        raise TournamentError(f"--seating must be one of {', '.join(SEATING_MODES)}")
    if config.duplicate == "permutations" and config.players > 6:
        raise TournamentError("--duplicate permutations is limited to 6 players (720 seatings)")


#: the games one run plays at most: seeds and game ids hold far more, but a billion games is
#: about 40 GB of Parquet and hours of CPU; a larger study is several runs (other --seed)
MAX_PLANNED_GAMES = 1_000_000_000
#: the shards one run holds at most: the manifest keeps a checksum of each (about 200 bytes)
MAX_SHARDS = 1_000_000
#: Parquet bytes a game needs, about (a million classic games at 4 players: 28 MiB without
#: per-deal rows; with them about 40 times more), for the free-space check
BYTES_PER_GAME, BYTES_PER_GAME_WITH_DEALS = 40, 1_600


def check_scale(config: TournamentConfig, variants: int | None = None) -> None:
    """Refuse a run of more games than ``MAX_PLANNED_GAMES`` or more shards than ``MAX_SHARDS``
    (counted, never planned), saying the limit; ``variants``: how many variants the run plays
    (default: the configuration's)."""
    total = config.total_games(variants)
    if total > MAX_PLANNED_GAMES:
        raise TournamentError(
            f"--games {config.games:,} makes {total:,} games (deal sets x seatings x variants); a "
            f"run plays at most {MAX_PLANNED_GAMES:,}: split the study into runs with different "
            "--seed values (compare and report take several runs)")
    shards = config.shard_count(variants)
    if shards > MAX_SHARDS:
        raise TournamentError(
            f"--games {config.games:,} in shards of {config.effective_shard_size:,} deal sets "
            f"makes {shards:,} shards; a run holds at most {MAX_SHARDS:,}: give a larger "
            "--shard-size")


def check_room(config: TournamentConfig, out: Path) -> None:
    """Refuse a run larger than one run holds (``check_scale``) or than the disk under ``out``
    can hold (an estimate, ``BYTES_PER_GAME``), saying the limit: before anything is written, so
    a mistyped --games neither hangs nor fills the disk."""
    check_scale(config)
    total = config.total_games()
    need = total * (BYTES_PER_GAME_WITH_DEALS if config.writes_deal_rows() else BYTES_PER_GAME)
    where = out
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        free = shutil.disk_usage(where).free
    except OSError:
        return
    if need > free:
        raise TournamentError(
            f"{total:,} games need about {need / 2**30:.1f} GiB of Parquet and {where} has "
            f"{free / 2**30:.1f} GiB free: free some space, or play fewer --games")


def _validate_rest(config: TournamentConfig) -> list[dict[str, Any]]:
    from raspis.strategies.play import check_budget

    try:
        check_budget(config.decision_seconds)
    except ValueError as error:
        raise TournamentError(f"--decision-seconds: {error}") from None
    if config.engine not in ENGINES:
        raise TournamentError(f"--engine must be one of {', '.join(ENGINES)}")
    if config.engine == "batch" and any("isolated+" in spec for spec in config.strategies):
        raise TournamentError("isolated strategies play on the scalar engine: use --engine auto "
                              "or scalar with --isolate / isolated+SPEC")
    if not config.variants:
        raise TournamentError("give at least one --variant")
    variants = []
    for spec in config.variants:
        variant = load_variant(spec)
        variant.for_player_count(config.players)
        variants.append(variant.model_dump(mode="json"))
    refusal = config.numpy_refusal() if config.engine == "batch" else None
    if refusal:
        raise TournamentError(f"--engine batch: {refusal}")
    if len(config.strategies) != config.players:
        raise TournamentError(
            f"{config.players} players need {config.players} strategies, one per seat; got "
            f"{len(config.strategies)}: {', '.join(config.strategies)}"
        )
    for spec in dict.fromkeys(config.strategies):
        _close(try_strategy(spec))  # an isolated one's child is not kept waiting
    display_names(config.strategies)  # two different strategies must not share a name
    # here, in the parent, once: a variant that ``strong`` bids for with another's table (or
    # none) is said on stderr (``policies.fitted.say_fit_notice``), not by each worker
    from raspis.strategies.policies.fitted import say_fit_notices

    say_fit_notices(config.variants, config.players, config.strategies)
    return variants


def _close(instance: Any) -> None:
    """Stop what a strategy instance holds (an isolated strategy's process), if anything."""
    close = getattr(instance, "close", None)
    if callable(close):
        close()


def try_strategy(spec: str) -> Any:
    """An instance of ``spec``, or ``TournamentError`` when its ``__init__`` raises anything."""
    from raspis.strategies.registry import load_guarded

    instance, problem = load_guarded(spec)
    if problem is not None:
        if problem[1].startswith(("StrategySpecError", "VariantError")):
            load_strategy(spec)  # the loader's own clear message
        raise TournamentError(f"strategy {spec!r} cannot be created: its __init__ "
                              f"{problem[0]}: {problem[1]}")
    return instance


def config_fingerprint(config: TournamentConfig, variant_options: list[dict[str, Any]]) -> str:
    """A hash of everything that determines the dataset (of a run that grows, everything but the
    deal sets played so far: ``TournamentConfig.grows``). ``strong``'s bid tables are part of
    the package (its version is in the manifest), except a table the user fitted
    (``raspis strategies fit``, in ``RASPIS_FIT_DIR``): where a variant bids with one, its file's
    digest joins the hash, so a run resumed after such a fit appeared, changed or went is refused
    instead of mixing games bid with two tables."""
    settings = asdict(config)
    if config.grows():  # the same run with more deal sets: its identity is its plan
        settings.pop("games")
    else:
        settings.pop("plan_deal_sets")  # the identity of a run written before the field
    data: dict[str, Any] = {"config": settings, "variants": variant_options,
                            "shard_size": config.effective_shard_size,
                            "engine": config.resolved_engine()}
    tables = strong_tables(config, variant_options)
    if any(table.startswith("user:") for table in tables):
        data["strong_tables"] = tables
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def strong_tables(config: TournamentConfig, variant_options: list[dict[str, Any]]) -> list[str]:
    """Which fitted bid table ``strong`` (and every player that plays out with it) bids with in
    each variant (``policies.fitted.Fit.identity``)."""
    from raspis.engine.variant import Variant
    from raspis.strategies.policies.fitted import table_identities

    variants = [Variant.model_validate(options) for options in variant_options]
    return table_identities(variants, config.players)
