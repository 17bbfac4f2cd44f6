"""Statistics over tournament datasets, lazily in polars: strategy rankings, variant balance,
luck against skill, variant against variant (``compare``), reports with figures, and the banker's
game of seed 002.

From a notebook::

    from raspis.analysis import open_run, strategy_ranking, seat_effects
    run = open_run("results/run1")
    strategy_ranking(run)          # a polars DataFrame
    seat_effects(run)

Every statistic takes a ``Run`` (``open_run`` for a directory, ``run_from_frames`` for frames) and
returns a small polars DataFrame per variant; the designs are documented in each module
(``intervals``, ``ranking``, ``balance``, ``outcomes``, ``luck``, ``banker``).
"""

from __future__ import annotations

from .balance import (
    bidding_outcomes,
    dealer_offset_effects,
    hook_cost,
    joker_value,
    seat_effects,
    seat_equality_test,
)
from .banker import (
    BankerGame,
    banker_summary,
    brute_force_distribution,
    expected_value,
    first_hit_distribution,
    first_hit_table,
    simulate,
    standard_game,
)
from .compare import Comparison, compare, write_comparison
from .dataset import Run, open_run, open_runs, run_from_frames
from .luck import (
    games_to_win,
    head_to_head,
    luck_skill_curve,
    match_lengths,
    match_win_probability,
    variance_explained,
)
from .outcomes import outcome_shape, score_histogram, special_contribution
from .ranking import paired_differences, plackett_luce_ratings, strategy_ranking
from .report import Report, build_report
from .tables import balance_tables, stats_tables

__all__ = [
    "BankerGame",
    "Comparison",
    "Report",
    "Run",
    "balance_tables",
    "banker_summary",
    "bidding_outcomes",
    "brute_force_distribution",
    "build_report",
    "compare",
    "dealer_offset_effects",
    "expected_value",
    "first_hit_distribution",
    "first_hit_table",
    "games_to_win",
    "head_to_head",
    "hook_cost",
    "joker_value",
    "luck_skill_curve",
    "match_lengths",
    "match_win_probability",
    "open_run",
    "open_runs",
    "outcome_shape",
    "paired_differences",
    "plackett_luce_ratings",
    "run_from_frames",
    "score_histogram",
    "seat_effects",
    "seat_equality_test",
    "simulate",
    "special_contribution",
    "standard_game",
    "stats_tables",
    "strategy_ranking",
    "variance_explained",
    "write_comparison",
]
