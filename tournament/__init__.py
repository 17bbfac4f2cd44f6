"""Tournaments: many games between strategies under one or more variants, into a Parquet dataset.

``run_tournament(TournamentConfig(...), "results/run1")`` plays the games on local processes or a
Dask cluster and writes ``games/``, ``deals/`` and ``deal_stats/`` (schema in ``schema.py``) with a
``manifest.json``; ``scan_table(run_dir, "games")`` reads a table back lazily, schema-checked.
"""

from typing import TYPE_CHECKING

from raspis.engine.lazy import lazy_names

if TYPE_CHECKING:
    from .runner import (
        RunSummary,
        TournamentConfig,
        TournamentError,
        run_tournament,
        strategy_summary,
    )
    from .schema import DEAL_ROWS_DEFAULT_LIMIT, DatasetError, scan_table

#: Names loaded on first use: a reader of a run's tables (``tournament.schema``, for the analyses)
#: does not load the runner, the strategies and the compiled core.
_LAZY = {"RunSummary": "runner", "TournamentConfig": "runner", "TournamentError": "runner",
         "run_tournament": "runner", "strategy_summary": "runner",
         "DEAL_ROWS_DEFAULT_LIMIT": "schema", "DatasetError": "schema", "scan_table": "schema"}


__getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "DEAL_ROWS_DEFAULT_LIMIT", "DatasetError", "RunSummary", "TournamentConfig",
    "TournamentError", "run_tournament", "scan_table", "strategy_summary",
]
