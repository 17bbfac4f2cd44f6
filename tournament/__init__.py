"""Tournaments: many games between strategies under one or more variants, into a Parquet dataset.

``run_tournament(TournamentConfig(...), "results/run1")`` plays the games on local processes or a
Dask cluster and writes ``games/``, ``deals/`` and ``deal_stats/`` (schema in ``schema.py``) with a
``manifest.json``; ``scan_table(run_dir, "games")`` reads a table back lazily, schema-checked.
"""

from .runner import RunSummary, TournamentConfig, TournamentError, run_tournament, strategy_summary
from .schema import DEAL_ROWS_DEFAULT_LIMIT, DatasetError, scan_table

__all__ = [
    "DEAL_ROWS_DEFAULT_LIMIT", "DatasetError", "RunSummary", "TournamentConfig",
    "TournamentError", "run_tournament", "scan_table", "strategy_summary",
]
