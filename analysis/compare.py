"""Variant against variant: every balance and ranking statistic, each variant's value, and the
difference against the first variant (the baseline) with an interval and a verdict in plain words.

The units compared are variants: the variants of several run directories, or the variants of one
run that repeated ``--variant``. Each statistic is a smooth function f of a few *totals* (sums over
the games of a deal set: seat-games, score sums, wins, deals, points, ...); the estimate of a
variant is f of the mean totals per deal set.

Design, stated once:

- *Unit.* The deal set is the unit of independence (its seatings share the cards; its seats and
  deals share players). Every interval here is computed from per-deal-set totals t_s.
- *Delta method.* With T̄ the mean of t_s over C deal sets and g = ∇f(T̄) (central differences),
  the influence of deal set s is ψ_s = g·(t_s - T̄), var(f) = Σψ_s² / (C(C-1)), t interval on C-1
  degrees of freedom. For a ratio f = Σy/Σm this is the cluster-robust (linearisation) variance of
  ``intervals.cluster_ratio``.
- *Paired* (``design = "paired"``): when two variants play the same deals (the same seed for each
  deal set, the same deck, schedule and player count), the difference is computed on their common
  deal sets from ψ^B_s - ψ^A_s, so the card luck the variants share cancels; t interval on C-1.
- *Welch* (``design = "welch"``): otherwise the two estimates are independent: se² = se_A² +
  se_B², Welch-Satterthwaite degrees of freedom.
- *Blocks of deal sets* (``design = "paired, blocks of deal sets"`` or ``"welch, blocks of deal
  sets"``): deal-level statistics of a run without per-deal rows come from the ``deal_stats``
  sums, kept per block of deal sets (``deal_block``: min(D, 64) blocks of consecutive deal sets,
  ``tournament.schema``). A block holds every seat-deal of its deal sets and blocks are
  independent, so the block is the cluster: the same delta method over blocks (t on blocks - 1).
  Two variants of one run, or of runs with the same deal sets, have the same blocks of the same
  deals and are paired block by block.
- *Seat-deals* (``design = "welch, seat-deals"``): a run written before ``deal_block`` existed has
  only sums over all its deal sets; each seat-deal is then one observation, the variance
  multiplied by the games per deal set (the design effect of duplicate replays; see
  ``intervals``), which is too narrow when deal sets differ in luck.
- *Verdict.* A difference whose interval excludes 0 is stated with its estimate and interval; one
  whose interval includes 0 is "not measurable at this size", with the deal sets that a test at
  level 5% with power 80% would need for a difference of the observed size,
  D·((z₀.₉₇₅ + z₀.₈)·se/|d|)² for the D deal sets behind the estimate, and the games they make
  (times the seatings of a deal set).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from .dataset import Run, open_runs
from .estimates import (
    BLOCKS,
    DEAL_SETS,
    SEAT_DEALS,
    Estimate,
    Statistic,
    cluster_estimate,
    interval,
)
from .intervals import LEVEL, needed_deal_sets
from .question import (
    FLIPS,
    HOLDS,
    SOME,
    adjust,
    by_relevance,
    changed_options,
    describe_changes,
    points_comparable,
    robustness,
    role,
    role_rank,
    topic_of,
)
from .units import (
    Lineup,
    Unit,
    UnitTotals,
    blocks_align,
    games_per_deal_set,
    relabelled,
    same_deals,
    variant_units,
)


@dataclass
class Comparison:
    """What ``compare`` returns: the units, the statistics' table and how each was paired."""

    units: list[Unit]
    table: pl.DataFrame
    values: pl.DataFrame
    notes: list[str] = field(default_factory=list)
    #: per variant against the baseline (and lineup): what changed and what it is about
    questions: list[dict[str, Any]] = field(default_factory=list)
    #: the lineups compared one by one (one entry when the runs share their players)
    lineups: list[str] = field(default_factory=list)
    #: with two or more lineups: per statistic and variant, whether the finding holds under all
    robust: pl.DataFrame | None = None
    level: float = LEVEL
    #: (lineup, variant, statistic) -> (deal sets, influence of the paired difference): what a
    #: difference of differences between lineups is paired on (``profile.skill_gradient``)
    influences: dict[tuple[str, str, str], tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict)


def _format(value: float) -> str:
    from .formats import format_number

    return format_number(value)


def _interval_text(estimate: float, low: float, high: float) -> str:
    """Points and their interval with the same decimals (``formats.interval_text``)."""
    from .formats import interval_text

    return interval_text(estimate, low, high, "")


def _percent(value: float) -> str:
    """A share as the tables print it (``formats.percent``: 3 significant digits, zeros kept)."""
    from .formats import percent

    if value is None or not math.isfinite(value):
        return "n/a"
    return percent(value)


def verdict(statistic: Statistic, baseline: str, other: str, row: dict[str, Any]) -> str:
    """A plain-words sentence for one difference (see the module doc)."""
    difference, low, high = row["difference"], row["difference_low"], row["difference_high"]
    if difference is None or not math.isfinite(difference):
        return f"{statistic.label}: not available in both variants"
    unit = statistic.unit.strip("()")
    # a point is worth something else under each scoring table: said with the values
    own = "; each in its own variant's points" if row.get("points_differ") else ""
    values = ""
    if row.get("baseline_value") is not None and row.get("value") is not None:
        a, b = row["baseline_value"], row["value"]
        if unit.startswith("share"):
            values = f" ({_percent(a)} under {baseline}, {_percent(b)} under {other}{own})"
        else:
            values = f" ({_format(a)} under {baseline}, {_format(b)} under {other}{own})"
    if unit.startswith("share") and low is not None and math.isfinite(low):
        # shares read better as percentages: the difference in percentage points
        difference, low, high = 100 * difference, 100 * low, 100 * high
        unit = "percentage points"
    if low is not None and low == high == difference:  # no spread at all: exact
        if difference == 0:
            return f"{statistic.label} is exactly the same under {other} as under {baseline}"
        direction = "higher" if difference > 0 else "lower"
        return (
            f"{statistic.label} is exactly {_format(abs(difference))} {unit} {direction} under "
            f"{other} than under {baseline}"
        )
    if low is None or not math.isfinite(low):
        return (
            f"{statistic.label}: {_format(difference)} {unit} apart, "
            "no interval (too few deal sets)"
        )
    if low > 0 or high < 0:
        lo, hi = sorted((abs(low), abs(high)))
        direction = "higher" if difference > 0 else "lower"
        return (
            f"{statistic.label} is {_interval_text(abs(difference), lo, hi)} "
            f"{unit} {direction} under {other} than under {baseline}{values}"
        )
    needed = row.get("needed_deal_sets")
    per_set = row.get("games_per_deal_set") or 1.0
    size = (
        f"about {needed * per_set:,.0f} games ({needed:,.0f} deal sets) would be needed to "
        "measure it"
        if needed is not None and math.isfinite(needed)
        else "no difference at all was observed"
    )
    return (
        f"{statistic.label}: not measurable at this size "
        f"({_interval_text(difference, low, high)} {unit}); {size}"
    )


def compare(
    sources: Sequence[str | Path | Run],
    level: float = LEVEL,
    baseline: str | None = None,
    focus: str | None = None,
) -> Comparison:
    """Compare the variants of the runs (see the module doc): ``table`` has one row per statistic,
    non-baseline variant and lineup, ``values`` one row per statistic, variant and lineup.

    Runs of the same variants under different lineups are compared lineup by lineup, and
    ``robust`` says whether each finding holds under every lineup (``question``); ``focus`` names
    the statistic that answers the comparison's question (by default the one its changed options
    are about). Each row has its role, its family's Benjamini-Hochberg adjustment and the interval
    shown with it (``question.adjust``)."""
    from raspis.tournament.schema import DatasetError

    runs = [s for s in sources if isinstance(s, Run)]
    runs += open_runs([s for s in sources if not isinstance(s, Run)])
    units = variant_units(runs)
    if len(units) < 2:
        raise DatasetError(
            "compare needs at least two variants: give two or more run directories, or one run "
            "made with --variant repeated"
        )
    groups: dict[str, list[Unit]] = {}
    for unit in units:
        groups.setdefault(unit.lineup, []).append(unit)
    lineup_notes = []
    if len(groups) > 1 and min(len(group) for group in groups.values()) < 2:
        lineup_notes.append(
            "the runs' lineups differ and some lineup plays one variant only: each difference "
            "mixes the rules and the players (give the same variants under each lineup to "
            "compare the rules under each)")
        groups = {"": units}
    if len(groups) > 1:
        groups = {lineup: relabelled(group) for lineup, group in groups.items()}
    wanted = baseline if baseline is not None else units[0].variant
    rows: list[dict[str, Any]] = []
    value_rows: list[dict[str, Any]] = []
    notes: list[str] = []
    questions: list[dict[str, Any]] = []
    chosen_stats: dict[tuple[str, str], Statistic] = {}
    influences: dict[tuple[str, str, str], tuple[np.ndarray, np.ndarray]] = {}
    for lineup, group in groups.items():
        chosen = [u for u in group if wanted in (u.label, u.variant)]
        if not chosen:
            labels = ", ".join(u.label for u in group)
            where = f" under the lineup {lineup}" if len(groups) > 1 else ""
            raise DatasetError(f"no variant {wanted!r} to compare against{where}; choose from "
                               f"{labels}")
        group = [chosen[0], *[u for u in group if u is not chosen[0]]]
        part_rows, part_values, part_notes, statistics, paired = _compare_units(group, level)
        shown = lineup if len(groups) > 1 else ""
        influences.update({(shown, *key): value for key, value in paired.items()})
        chosen_stats.update({(shown, statistic.name): statistic for statistic in statistics})
        for row in (*part_rows, *part_values):
            row["lineup"] = shown
        rows += part_rows
        value_rows += part_values
        notes += [f"{lineup}: {note}" if shown else note for note in part_notes]
        for other in group[1:]:
            changes = changed_options(group[0].options(), other.options())
            questions.append({"baseline": group[0].label, "variant": other.label,
                              "lineup": shown, "changes": changes, "topic": topic_of(changes)})
    names = list(dict.fromkeys(name for _, name in chosen_stats))
    if focus is not None and focus not in names:
        raise DatasetError(f"no statistic {focus!r} to focus on; choose from {', '.join(names)}")
    by_pair = {(q["variant"], q["lineup"]): q for q in questions}
    for row in rows:
        question = by_pair[(row["variant"], row["lineup"])]
        statistic = chosen_stats[(row["lineup"], row["statistic"])]
        comparable = points_comparable(question["changes"])
        row["role"] = role(row["statistic"], question["topic"], focus, statistic.group,
                           comparable, statistic.in_points)
        row["points_differ"] = statistic.in_points and not comparable
        row["family"] = family(row["role"], statistic, question["topic"])
    table = adjust(pl.DataFrame(rows, schema=_TABLE_SCHEMA), level)
    verdicts = []
    for row in table.iter_rows(named=True):
        shown_row = {**row, "difference_low": row["shown_low"],
                     "difference_high": row["shown_high"]}
        verdicts.append(verdict(chosen_stats[(row["lineup"], row["statistic"])],
                                row["baseline"], row["variant"], shown_row))
    table = table.with_columns(pl.Series("verdict", verdicts, dtype=pl.String()))
    values = pl.DataFrame(value_rows, schema=_VALUES_SCHEMA)
    lineups = list(groups) if len(groups) > 1 else [units[0].lineup]
    robust = robustness(table) if len(groups) > 1 else None
    return Comparison([u for group in groups.values() for u in group], table, values,
                      notes + lineup_notes, questions, lineups, robust, level, influences)


def family(role_name: str, statistic: Statistic, topic: Any) -> str:
    """The multiplicity family of a difference (``question.adjust``): ``primary`` for the
    statistics the answer states (the question's, and the topic's own: the Joker's value),
    ``profile`` for the balance profile's measures, ``secondary`` for every other."""
    if role_name == "question" or (topic is not None and statistic.name in topic.specific):
        return "primary"
    return "profile" if statistic.group is not None else "secondary"


_TABLE_SCHEMA = {
    "statistic": pl.String(),
    "group": pl.String(),
    "reference": pl.Float64(),
    "toward": pl.Int64(),
    "in_points": pl.Boolean(),
    "points_differ": pl.Boolean(),
    "label": pl.String(),
    "unit": pl.String(),
    "baseline": pl.String(),
    "variant": pl.String(),
    "lineup": pl.String(),
    "role": pl.String(),
    "family": pl.String(),
    "baseline_value": pl.Float64(),
    "value": pl.Float64(),
    "difference": pl.Float64(),
    "difference_low": pl.Float64(),
    "difference_high": pl.Float64(),
    "df": pl.Float64(),
    "p_value": pl.Float64(),
    "design": pl.String(),
    "deal_sets": pl.Int64(),
    "needed_deal_sets": pl.Float64(),
    "games_per_deal_set": pl.Float64(),
}
_VALUES_SCHEMA = {
    "statistic": pl.String(),
    "group": pl.String(),
    "variant": pl.String(),
    "lineup": pl.String(),
    "value": pl.Float64(),
    "value_low": pl.Float64(),
    "value_high": pl.Float64(),
    "units": pl.Int64(),
    "unit_of": pl.String(),
}


def _compare_units(
    units: list[Unit], level: float
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str], list[Statistic],
           dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]]:
    """Each unit against the first (the baseline), every statistic: the rows of the table and of
    the values, the notes on pairing and clustering, the statistics compared, and each paired
    difference's influence per cluster ((variant, statistic) -> (clusters, influence))."""
    first = units[0]
    lineup = Lineup.of(units)
    chosen_stats = lineup.statistics()
    totals = {id(unit): UnitTotals(unit, lineup) for unit in units}
    estimates: dict[tuple[int, str], Estimate] = {
        (id(unit), statistic.name): totals[id(unit)].estimate(statistic)
        for unit in units for statistic in chosen_stats}
    value_rows = _value_rows(units, chosen_stats, estimates, level)
    influences: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
    notes, rows = [], []
    for other in units[1:]:
        paired, reason = same_deals(first, other)
        notes.append(
            f"{other.label} against {first.label}: "
            + (f"paired over {reason}" if paired else f"unpaired (Welch): {reason}")
        )
        pairing = _Pairing(paired, paired and blocks_align(first, other),
                           totals[id(first)], totals[id(other)])
        for statistic in chosen_stats:
            row, influence = _difference_row(
                statistic, first, other, estimates[(id(first), statistic.name)],
                estimates[(id(other), statistic.name)], pairing, level)
            if influence is not None:
                influences[(other.label, statistic.name)] = influence
            rows.append(row)
    return (rows, value_rows, notes + _clustering_notes(units, totals), chosen_stats,
            influences)


def _clustering_notes(units: list[Unit], totals: dict[int, UnitTotals]) -> list[str]:
    """What the deal-level intervals of units without per-deal-set clusters are clustered over."""
    by_clustering: dict[tuple[str, int], list[str]] = {}
    for unit in units:
        clustering = totals[id(unit)].clustering
        if clustering != DEAL_SETS:
            key = (clustering, totals[id(unit)].deal_clusters)
            by_clustering.setdefault(key, []).append(unit.label)
    notes = []
    for (clustering, blocks), labels in by_clustering.items():
        if clustering == BLOCKS:
            notes.append(
                f"{', '.join(labels)}: intervals clustered over {blocks} blocks of deal sets "
                "(the run's totals: deal sets are independent, so blocks of them are)"
            )
        else:
            notes.append(
                f"{', '.join(labels)}: a run written before blocks of deal sets, without "
                "per-deal rows; deal-level intervals treat seat-deals as independent, too narrow "
                "when deal sets differ in luck (play it again, or with --deal-rows)"
            )
    return notes


def _value_rows(units: list[Unit], statistics: list[Statistic],
                estimates: dict[tuple[int, str], Estimate], level: float) -> list[dict[str, Any]]:
    """Each unit's value of each statistic with its interval."""
    rows = []
    for statistic in statistics:
        for unit in units:
            estimate = estimates[(id(unit), statistic.name)]
            low, high, _ = interval(estimate.value, estimate.se, estimate.clusters - 1, level)
            rows.append({
                "statistic": statistic.name,
                "group": statistic.group,
                "variant": unit.label,
                "value": estimate.value,
                "value_low": low,
                "value_high": high,
                "units": estimate.clusters,
                "unit_of": estimate.design,
            })
    return rows


@dataclass(frozen=True)
class _Pairing:
    """How a unit is set against the baseline: on the same deals (``paired``), with blocks of
    deal sets that hold the same deal sets (``blocks``), and the two units' totals."""

    paired: bool
    blocks: bool
    baseline: UnitTotals
    other: UnitTotals


def _difference_row(statistic: Statistic, first: Unit, other: Unit, a: Estimate, b: Estimate,
                    pairing: _Pairing, level: float
                    ) -> tuple[dict[str, Any], tuple[np.ndarray, np.ndarray] | None]:
    """One statistic of ``other`` against the baseline ``first``: the table's row, and the
    paired difference's influence per cluster (None when unpaired)."""
    difference = b.value - a.value
    deal_sets = min(a.deal_set_count, b.deal_set_count)
    influence = None
    if (pairing.paired and a.influence is not None and b.influence is not None
            and a.design == b.design and (a.design != BLOCKS or pairing.blocks)):
        design = "paired" if a.design == DEAL_SETS else f"paired, {a.design}"
        ids_a, psi_a = a.influence
        ids_b, psi_b = b.influence
        common, at_a, at_b = np.intersect1d(ids_a, ids_b, assume_unique=True,
                                            return_indices=True)
        if len(common) == a.clusters == b.clusters:
            z = psi_b[at_b] - psi_a[at_a]
        else:  # common clusters only: recompute both on them
            table_a = pairing.baseline.table(statistic)
            table_b = pairing.other.table(statistic)
            a = cluster_estimate(table_a.only(common), statistic, a.design)  # type: ignore[union-attr]
            b = cluster_estimate(table_b.only(common), statistic, b.design)  # type: ignore[union-attr]
            difference = b.value - a.value
            z = b.influence[1] - a.influence[1]  # type: ignore[index]
            deal_sets = len(z) if a.design == DEAL_SETS else deal_sets
        clusters = len(z)
        se = float(np.sqrt((z**2).sum() / (clusters * (clusters - 1)))) if clusters > 1 \
            else math.nan
        df = clusters - 1.0
        influence = (common, z)
    else:
        if SEAT_DEALS in (a.design, b.design):
            design = f"welch, {SEAT_DEALS}"
        elif BLOCKS in (a.design, b.design):
            design = f"welch, {BLOCKS}"
        else:
            design = "welch"
        va, vb = a.se**2, b.se**2
        se = math.sqrt(va + vb)
        with np.errstate(all="ignore"):
            denominator = va**2 / max(a.clusters - 1, 1) + vb**2 / max(b.clusters - 1, 1)
            df = (va + vb) ** 2 / denominator if denominator > 0 else math.inf
    low, high, p_value = interval(difference, se, df, level)
    return {
        "statistic": statistic.name,
        "group": statistic.group,
        "reference": statistic.reference,
        "toward": statistic.toward,
        "in_points": statistic.in_points,
        "label": statistic.label,
        "unit": statistic.unit,
        "baseline": first.label,
        "variant": other.label,
        "baseline_value": a.value,
        "value": b.value,
        "difference": difference,
        "difference_low": low,
        "difference_high": high,
        "df": df,
        "p_value": p_value,
        "design": design,
        "deal_sets": deal_sets,
        "needed_deal_sets": needed_deal_sets(deal_sets, se, difference, level),
        "games_per_deal_set": games_per_deal_set(first),
    }, influence


def answer(comparison: Comparison) -> list[str]:
    """The comparison's answer, first. The question the changed options ask ("Does the scoring
    table matter?") is answered by the balance profile (``profile.profile_headline``: which
    groups changed measurably, the clearest first, in plain words), then each variant's profile
    group by group and where its measures disagree, then the topic's own statistics (the Joker's
    value, in points and as a chance). A topic whose question has a statistic of its own (the
    hook: the dealer's edge) leads with it (``headline``), then says it in chances. With two or
    more lineups, each answer says whether it holds under all of them (``question.robustness``)
    and the last lines whether the change widens the gap between stronger and weaker players
    (``profile.skill_gradient``)."""
    from .profile import profile_headline, profile_lines, skill_gradient

    table = comparison.table
    lines: list[str] = []
    asked: set[str] = set()
    robust = comparison.robust
    variants = list(dict.fromkeys(q["variant"] for q in comparison.questions))
    for variant in variants:
        first = next(q for q in comparison.questions if q["variant"] == variant)
        topic = first["topic"]
        changes = describe_changes(first["changes"])
        rows = table.filter((pl.col("variant") == variant) & (pl.col("role") == "question"))
        if rows.height == 0:
            question = _question_text(topic, None, "")
            if question not in asked:
                asked.add(question)
                lines.append(profile_headline(comparison, question, [
                    v for v in variants if _question_text(_topic(comparison, v), None, "")
                    == question and table.filter((pl.col("variant") == v)
                                                 & (pl.col("role") == "question")).height == 0]))
            lines.append(f"{variant} against {first['baseline']} ({changes}):")
            lines += profile_lines(comparison, variant)
            lines += _specific_lines(comparison, variant, topic)
            continue
        statistic = rows["statistic"][0]
        question = _question_text(topic, statistic, str(rows["label"][0]))
        if question not in asked:
            asked.add(question)
            lines.append(f"{question} {headline(comparison, question)}")
        parts = []
        for row in rows.iter_rows(named=True):
            said = row["verdict"]
            yes = "Yes: " if row["measurable"] else "Not measurably: "
            parts.append(f"with {row['lineup']}: {said}" if row["lineup"] else yes + said)
        text = f"{variant} ({changes}): " + "; ".join(parts) + "."
        if robust is not None:
            found = robust.filter((pl.col("statistic") == statistic)
                                  & (pl.col("variant") == variant))
            if found.height:
                text += " " + _robust_sentence(found.row(0, named=True), len(comparison.lineups))
        lines.append(text)
        lines += _specific_lines(comparison, variant, topic)
        lines += profile_lines(comparison, variant)
    return lines + skill_gradient(comparison)


def _topic(comparison: Comparison, variant: str) -> Any:
    return next(q["topic"] for q in comparison.questions if q["variant"] == variant)


def _specific_lines(comparison: Comparison, variant: str, topic: Any) -> list[str]:
    """The topic's own statistics for a variant (the hook's edge in chances, the Joker's value
    in points and as a chance), one sentence each, under each lineup."""
    if topic is None or not topic.specific:
        return []
    from .profile import clause

    table = comparison.table
    lines = []
    for statistic in topic.specific:
        rows = table.filter((pl.col("variant") == variant) & (pl.col("statistic") == statistic))
        parts = []
        for row in rows.iter_rows(named=True):
            said = clause(row) if row["measurable"] and row["group"] else row["verdict"]
            parts.append(f"with {row['lineup']}: {said}" if row["lineup"] else said)
        if parts:
            text = "; ".join(parts)
            if statistic in ("dealer_top", "joker_top"):
                lines.append(f"In chances: {text}.")
            else:
                lines.append(text[0].upper() + text[1:] + ".")
    return lines


def _question_text(topic: Any, statistic: str | None, label: str) -> str:
    """The question a variant's change asks: its topic's ("Does the dealer's hook matter?"), or,
    for a statistic named with ``--focus``, whether the rules change that statistic, or for a
    change no topic knows, whether the rules change the game."""
    if topic is not None and (statistic is None or topic.question == statistic):
        return topic.asked
    if statistic is None:
        return "Do these rules change the game?"
    return f"Do the rules change {label}?"


def headline(comparison: Comparison, question: str) -> str:
    """The answer to ``question`` (``_question_text``) in one sentence: "Yes" when its statistic
    is measurably different, in one direction, under every variant that asks it and every lineup
    ("Yes, under both lineups"), "Not measurably at this size" when under none, else "It depends";
    then each variant's difference from the baseline with its interval (the adjusted one, as in
    the details that follow), in the statistic's unit."""
    table = comparison.table.filter(pl.col("role") == "question")
    variants = []
    for item in comparison.questions:
        rows = table.filter(pl.col("variant") == item["variant"])
        if rows.height and item["variant"] not in variants and _question_text(
                item["topic"], str(rows["statistic"][0]), str(rows["label"][0])) == question:
            variants.append(item["variant"])
    rows = table.filter(pl.col("variant").is_in(variants))
    if rows.height == 0:
        return ""
    several = len(comparison.lineups) > 1
    first = rows.row(0, named=True)
    share = str(first["unit"]).startswith("(share")
    unit = "percentage points" if share else str(first["unit"]).strip("()")
    scale = 100.0 if share else 1.0

    def amount(row: dict[str, Any]) -> str:
        low, high = sorted((abs(row["shown_low"] * scale), abs(row["shown_high"] * scale)))
        if not row["measurable"]:
            low, high = row["shown_low"] * scale, row["shown_high"] * scale
            return f"{_format(row['difference'] * scale)} [{_format(low)}, {_format(high)}]"
        return f"{_format(abs(row['difference']) * scale)} [{_format(low)}, {_format(high)}]"

    kinds, clauses = set(), []
    for index, variant in enumerate(variants):
        part = list(rows.filter(pl.col("variant") == variant).iter_rows(named=True))
        signs = {(row["difference"] > 0) - (row["difference"] < 0) for row in part
                 if row["measurable"]}
        named = several and index == 0

        def who(row: dict[str, Any], named: bool = named) -> str:
            return f" with {row['lineup']}" if named else ""

        if all(row["measurable"] for row in part) and len(signs) == 1:
            kinds.add("yes")
            direction = "higher" if signs == {1} else "lower"
            numbers = " and ".join(amount(row) + who(row) for row in part)
            clauses.append(f"{direction} under {variant} by {numbers}")
        elif not any(row["measurable"] for row in part):
            kinds.add("no")
            numbers = " and ".join(amount(row) + who(row) for row in part)
            clauses.append(f"not measurably different under {variant} ({numbers})")
        else:
            kinds.add("depends")
            said = []
            for row in part:
                direction = ("not measurably different" if not row["measurable"] else
                             "higher" if row["difference"] > 0 else "lower")
                said.append(f"{direction} with {row['lineup']} ({amount(row)})")
            clauses.append(f"under {variant} " + " but ".join(said))
    lineups = len(comparison.lineups)
    both = "both lineups" if lineups == 2 else f"all {lineups} lineups"
    verdict = ("It depends" if len(kinds) > 1 or "depends" in kinds else
               f"Yes{f', under {both}' if several else ''}" if kinds == {"yes"} else
               "Not measurably at this size")
    order = (" (the lineups in the same order)" if several and len(clauses) > 1
             and kinds == {"yes"} else "")
    text = clauses[0] if len(clauses) == 1 else "; ".join(clauses[:-1]) + "; and " + clauses[-1]
    return (f"{verdict}: against {first['baseline']}, {first['label']} is {text} {unit}{order}.")


def _robust_sentence(row: dict[str, Any], lineups: int) -> str:
    both = "both lineups" if lineups == 2 else f"all {lineups} lineups"
    if row["robustness"] == HOLDS:
        return f"This holds under {both}: measurable, with the same sign, under each."
    if row["robustness"] == FLIPS:
        return ("This flips with the players: measurable with opposite signs under different "
                "lineups.")
    if row["robustness"] == SOME:
        return f"This depends on the players: measurable only with {row['measurable_under']}."
    return f"Not measurable under any of the {lineups} lineups."


def _sentence(row: dict[str, Any]) -> str:
    text = row["verdict"]
    if text.startswith(("the ", "how ", "position ", "game ", "lead ")):
        text = text[0].upper() + text[1:]
    return text


def findings(comparison: Comparison, limit: int | None = 12) -> list[str]:
    """The measured differences other than the answer's (``answer``, which states the question's
    statistic and the balance profile: its measures are in the profile's table, not repeated
    here): those the change bears on first (``question.ROLES``), each group the most clearly
    measured first (largest estimate relative to its interval's width), the mechanical
    consequences of the change itself last and labelled; at most ``limit``, as sentences; then a
    line counting the rest, and one on the multiplicity adjustment. "Measured" follows the
    interval shown (``question.adjust``)."""
    table = comparison.table
    measured = table.filter(pl.col("measurable")
                            & ~pl.col("role").is_in(["question", "profile"])).with_columns(
        (
            pl.col("difference").abs()
            / (pl.col("shown_high") - pl.col("shown_low")).clip(lower_bound=1e-300)
        ).alias("strength"),
        role_rank().alias("rank"),
    ).sort(["rank", "strength"], descending=[False, True])
    several = len(comparison.lineups) > 1
    runs = {(unit.label, unit.lineup if several else ""): unit.run.label
            for unit in comparison.units}

    def where(row: dict[str, Any]) -> str:
        players = f", with {row['lineup']}" if several else ""
        run = runs.get((row["variant"], row["lineup"]), "?")
        return f"{row['design']}, {row['deal_sets']:,} deal sets, run {run}{players}"

    robust = {}
    if comparison.robust is not None:
        tags = {HOLDS: "holds under every lineup", FLIPS: "flips with the players"}
        for item in comparison.robust.iter_rows(named=True):
            robust[(item["statistic"], item["variant"])] = tags.get(
                item["robustness"], f"measurable with {item['measurable_under']} only")
    lines = []
    for row in measured.head(limit if limit is not None else measured.height).iter_rows(
            named=True):
        label = " (mechanical: the change sets it by definition)" if row["role"] == "mechanical" \
            else ""
        held = robust.get((row["statistic"], row["variant"]))
        held = f"; {held}" if held else ""
        lines.append(f"{_sentence(row)}{label} ({where(row)}{held}).")
    more = measured.height - len(lines)
    if more:
        lines.append(
            f"{more} more measured difference{'s are' if more > 1 else ' is'} in the table below."
        )
    rest = table.filter(~pl.col("measurable")
                        & ~pl.col("role").is_in(["question", "profile"])).height
    if rest:
        lines.append(
            f"{rest} difference{'s are' if rest > 1 else ' is'} not measurable at this size or "
            "exactly 0 (the interval includes 0); the table gives the games each would need."
        )
    lines.append(multiplicity_note(comparison))
    return lines


def multiplicity_note(comparison: Comparison) -> str:
    """How the intervals shown were adjusted for the number of differences tested."""
    table = comparison.table
    parts = []
    for family, what in (("primary", "the answer's"), ("profile", "the profile's"),
                         ("secondary", "the other")):
        rows = table.filter((pl.col("family") == family) & pl.col("interval_level").is_finite())
        if rows.height:
            shown = 100 * float(rows["interval_level"][0])
            parts.append(f"{what} {rows.height} difference{'s' if rows.height > 1 else ''} at "
                         f"{shown:.3g}%")
    alpha = 100 * (1 - comparison.level)
    return (f"Intervals are adjusted for testing many differences at once (Benjamini-Hochberg at "
            f"{alpha:.3g}% within each family, with the matching false-coverage-rate intervals): "
            + "; ".join(parts) + ".")


#: columns of ``display_table`` that hold numbers written as text (shares with their % sign):
#: aligned as numbers
NUMBER_TEXT = frozenset({"baseline_value", "value"})


def display_table(comparison: Comparison) -> pl.DataFrame:
    """The comparison for people: one row per statistic and variant (and lineup, when there are
    several), most relevant first (``question.ROLES``), in the statistic's unit (shares in % and
    their differences in percentage points): the baseline's value, the variant's (as text, a share
    with its % sign: ``NUMBER_TEXT``), the difference
    with the interval shown (adjusted, ``question.adjust``; folded by
    ``tables.display_frame``), whether it is measurable, the design and the verdict."""
    from .formats import column_texts

    table = by_relevance(comparison.table)
    lineup = ["lineup"] if len(comparison.lineups) > 1 else []
    share = pl.col("unit").str.starts_with("(share")
    percent = pl.when(share).then(100.0).otherwise(1.0)  # differences in percentage points
    shares = table["unit"].str.starts_with("(share").to_list()

    def values(column: str) -> pl.Series:  # a share as the tables print one: 48.0%
        return pl.Series(column, column_texts(table[column].to_list(), shares=shares),
                         dtype=pl.String())

    return table.select(
        "statistic",
        "variant",
        *lineup,
        values("baseline_value"),
        values("value"),
        pl.col("difference") * percent,
        (pl.col("shown_low") * percent).alias("difference_low"),
        (pl.col("shown_high") * percent).alias("difference_high"),
        pl.when(share).then(pl.lit("% (difference: percentage points)"))
        .otherwise(pl.col("unit").str.strip_chars("()")).alias("unit"),
        "measurable",
        "role",
        "design",
        "verdict",
    )


def write_comparison(
    comparison: Comparison, out_dir: str | Path, level: float = LEVEL, title: str | None = None
) -> Path:
    """Write ``compare.html`` (figures embedded), ``compare.md``, ``figures/profile.png|svg``
    (the balance profile), ``figures/differences.png|svg`` (every other statistic) and
    ``tables/profile.csv``, ``tables/compare.csv``, ``tables/values.csv`` into ``out_dir``;
    return the HTML path. Both documents open with the answer (``answer``) and the profile's
    figure, then one table per question of the profile (``profile.comparison_tables``: the
    variants and lineups side by side), then the other findings (``findings``)."""
    import base64
    import datetime as dt

    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from raspis import __version__

    from . import figures
    from .profile import (
        comparison_figure_rows,
        comparison_tables,
        profile_records,
    )
    from .tables import TEMPLATES, display_frame, template_tables, to_markdown

    folder = Path(out_dir)
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    comparison.table.write_csv(folder / "tables" / "compare.csv")
    comparison.values.write_csv(folder / "tables" / "values.csv")
    profile_records(comparison).write_csv(folder / "tables" / "profile.csv")
    profile_png = figures.save_figure(figures.profile(comparison_figure_rows(comparison)),
                                      folder / "figures", "profile")
    others = comparison.table.filter(pl.col("group").is_null())
    png = figures.save_figure(figures.differences(others, level), folder / "figures",
                              "differences")
    narrow = figures.save_figure(  # the same panels in one column, for a phone
        figures.differences(others, level, columns=1), folder / "figures",
        "differences-narrow")
    shown = display_table(comparison).drop("verdict")
    headers, rows = display_frame(shown)
    numeric = [dtype.is_numeric() or name in NUMBER_TEXT for name, dtype in shown.drop(
        "difference_low", "difference_high").schema.items()]
    baseline = comparison.units[0]
    context = {
        "title": title or f"raspis: {', '.join(dict.fromkeys(u.label for u in comparison.units))}"
                          " compared",
        "version": __version__,
        "level": level,
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "baseline": baseline.label,
        "units": [
            {"label": u.label, "variant": u.variant, "hash": u.variant_hash, "run": u.run.label,
             "path": str(u.run.path) if u.run.path else "(in memory)"}
            for u in comparison.units
        ],
        "answer": answer(comparison),
        "findings": findings(comparison),
        "lineups": comparison.lineups if len(comparison.lineups) > 1 else [],
        "notes": comparison.notes,
        "headers": headers,
        "rows": rows,
        "numeric": numeric,
        "verdicts": display_table(comparison)["verdict"].to_list(),
        "markdown": to_markdown(shown),
        "figure": base64.b64encode(png).decode("ascii"),
        "narrow_figure": base64.b64encode(narrow).decode("ascii"),
        "profile_figure": base64.b64encode(profile_png).decode("ascii"),
        "profile_tables": template_tables(comparison_tables(comparison)),
    }
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    html = folder / "compare.html"
    html.write_text(environment.get_template("compare.html.j2").render(context), encoding="utf-8")
    environment.autoescape = False
    (folder / "compare.md").write_text(
        environment.get_template("compare.md.j2").render(context), encoding="utf-8"
    )
    return html
