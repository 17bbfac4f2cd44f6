"""The shards of a run: ``ShardPlan`` cuts a configuration into shards (a block of deal sets under
one variant and one seating) and makes each shard's task only when it is asked for."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

from .config import TournamentConfig, strong_tables
from .task import ShardTask


class ShardPlan:
    """Every shard of a run, in a fixed order, made only when asked for: a run of 10**8 games
    plans at once and holds no more than the shards in flight. Its ids, counts and each shard's
    games follow from the configuration (``shard_id``: ``v{variant}-b{block}`` without duplicates,
    ``v{variant}-s{seating}-b{block}`` with them; a block is ``effective_shard_size`` deal sets)."""

    _ID = re.compile(r"^v(\d{2,})(?:-s(\d{3,}))?-b(\d{6,})$")

    def __init__(self, config: TournamentConfig, variant_options: list[dict[str, Any]]) -> None:
        self.config = config
        self.variant_options = variant_options
        self.size = config.effective_shard_size
        self.blocks = config.shard_blocks()
        self.seatings = tuple(config.seatings())
        self.duplicate = config.duplicate != "none"
        self.groups = config.seating_groups()
        self.writes_deal_rows = config.writes_deal_rows()
        self._engine = config.resolved_engine()
        self._tables: list[str] | None = None
        #: whether the run records each game's deal-level sums (``game_sums/``): every run since
        #: they exist; a run written before them (its manifest lacks ``game_sums``) does not
        self.game_sums = True

    def __len__(self) -> int:
        return self.config.shard_count(len(self.variant_options))

    def shard_id(self, variant: int, group: int, block: int) -> str:
        """The id of the shard of ``block`` under ``variant`` and seating ``group``."""
        if self.duplicate:
            return f"v{variant:02d}-s{group:03d}-b{block:06d}"
        return f"v{variant:02d}-b{block:06d}"

    def _keys(self) -> Iterator[tuple[int, int, int]]:
        for variant in range(len(self.variant_options)):
            for group in range(self.groups):
                for block in range(self.blocks):
                    yield variant, group, block

    def ids(self) -> Iterator[str]:
        """Every shard id, in the plan's order."""
        return (self.shard_id(*key) for key in self._keys())

    def __iter__(self) -> Iterator[ShardTask]:
        return self.tasks()

    def tasks(self, skip: Collection[str] = ()) -> Iterator[ShardTask]:
        """Every shard, in the plan's order, except those whose ids are in ``skip`` (skipped
        without making their games)."""
        for key in self._keys():
            if self.shard_id(*key) not in skip:
                yield self._task(*key)

    def locate(self, shard_id: str) -> tuple[int, int, int] | None:
        """(variant, seating group, block) of a planned shard id, or None for an id the plan
        does not hold."""
        match = self._ID.match(shard_id)
        if match is None or (match[2] is not None) != self.duplicate:
            return None
        key = (int(match[1]), int(match[2] or 0), int(match[3]))
        if not (key[0] < len(self.variant_options) and key[1] < self.groups
                and key[2] < self.blocks) or self.shard_id(*key) != shard_id:
            return None
        return key

    def group_of(self, shard_id: str) -> list[str]:
        """The planned shards of ``shard_id``'s variant and block of deal sets, one per seating
        group: the shard group the totals sum together (``totals.groups``)."""
        key = self.locate(shard_id)
        if key is None:
            return [shard_id]
        variant, _, block = key
        return [self.shard_id(variant, group, block) for group in range(self.groups)]

    def task(self, shard_id: str) -> ShardTask | None:
        """The planned shard ``shard_id``, or None when the plan holds no such shard."""
        key = self.locate(shard_id)
        return None if key is None else self._task(*key)

    def games_in(self, shard_id: str) -> int:
        """How many games the planned shard ``shard_id`` holds (0 for an id not planned)."""
        key = self.locate(shard_id)
        if key is None:
            return 0
        start = key[2] * self.size
        return min(start + self.size, self.config.games) - start

    def samples(self) -> list[ShardTask]:
        """The first shard of each variant: one of each kind of work the run does."""
        return [self._task(variant, 0, 0) for variant in range(len(self.variant_options))]

    def _task(self, variant: int, group: int, block: int) -> ShardTask:
        config = self.config
        start = block * self.size
        deal_sets = range(start, min(start + self.size, config.games))
        count = len(self.seatings)
        if self.duplicate:
            games = tuple((deal_set, group) for deal_set in deal_sets)
        else:
            games = tuple((deal_set, deal_set % count) for deal_set in deal_sets)
        return ShardTask(
            shard_id=self.shard_id(variant, group, block), variant_index=variant,
            variant_options=self.variant_options[variant], players=config.players,
            strategies=config.strategies, seatings=self.seatings, games=games,
            root_seed=config.seed, total_deal_sets=config.deal_set_basis, seating_count=count,
            deal_rows=self.writes_deal_rows, decision_seconds=config.decision_seconds,
            engine=self._engine, strong_table=self.strong_tables()[variant],
            game_sums=self.game_sums,
        )

    def strong_tables(self) -> list[str]:
        """Each variant's ``strong`` table identity (``config.strong_tables``) where a seat plays
        with it (``policies.fitted.uses_strong``), else "": what each worker checks it bids with."""
        if self._tables is None:
            from raspis.strategies.policies.fitted import uses_strong

            if any(uses_strong(spec) for spec in self.config.strategies):
                self._tables = strong_tables(self.config, self.variant_options)
            else:
                self._tables = [""] * len(self.variant_options)
        return self._tables


def plan_shards(config: TournamentConfig, variant_options: list[dict[str, Any]]) -> list[ShardTask]:
    """Every shard of the run, in a fixed order, as a list (``ShardPlan`` makes them lazily)."""
    return list(ShardPlan(config, variant_options))
