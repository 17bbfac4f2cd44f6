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

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from raspis.engine.lazy import lazy_names

if TYPE_CHECKING:
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

#: Names loaded on first use: a command that needs one module of the package (the tournament's
#: summary needs ``formats``) does not load them all (scipy's statistics, matplotlib): about 2 s
#: of a small tournament's 4.5 s went to that.
_LAZY = {"BankerGame": "banker", "Comparison": "compare", "Report": "report", "Run": "dataset",
         "balance_tables": "tables", "banker_summary": "banker", "bidding_outcomes": "balance",
         "brute_force_distribution": "banker", "build_report": "report", "compare": "compare",
         "dealer_offset_effects": "balance", "expected_value": "banker", "first_hit_distribution":
         "banker", "first_hit_table": "banker", "games_to_win": "luck", "head_to_head": "luck",
         "hook_cost": "balance", "joker_value": "balance", "luck_skill_curve": "luck",
         "match_lengths": "luck", "match_win_probability": "luck", "open_run": "dataset",
         "open_runs": "dataset", "outcome_shape": "outcomes", "paired_differences": "ranking",
         "plackett_luce_ratings": "ranking", "run_from_frames": "dataset", "score_histogram":
         "outcomes", "seat_effects": "balance", "seat_equality_test": "balance", "simulate":
         "banker", "special_contribution": "outcomes", "standard_game": "banker", "stats_tables":
         "tables", "strategy_ranking": "ranking", "variance_explained": "luck", "write_comparison":
         "compare"}


__getattr__ = lazy_names(__name__, _LAZY)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


class _Package(ModuleType):
    """This package, whose ``compare`` is the function ``compare.compare`` (as it was when the
    package imported every name at once), even after the submodule of the same name is loaded
    (the import system then sets the package's attribute to the submodule: ignored here)."""

    @property
    def compare(self) -> Any:
        from .compare import compare

        return compare

    @compare.setter
    def compare(self, value: Any) -> None:
        pass


sys.modules[__name__].__class__ = _Package


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
