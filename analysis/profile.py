"""The balance profile in words and records: what a comparison's measures say, group by group.

``compare`` measures every profile measure (``measures``) of every variant and lineup, and its
difference from the baseline with an adjusted interval. This module reads that table:

- ``profile_records``: one record per measure, variant and lineup (``group``, ``measure``,
  ``variant``, ``lineup``, ``value``, ``baseline_value``, ``difference``, ``low``, ``high``,
  ``measurable``), what ``--format json/csv`` carry for scripts;
- ``group_changes``: per variant and lineup, each group's measurable changes, the clearest
  first, with the direction of the group's quality (fairer, more skill, more luck, more drama);
- ``profile_headline`` and ``profile_lines``: the answer a rule question gets from the profile,
  the group with the largest standardised change first, in plain words, saying where the
  measures of a group disagree (and where points and chances disagree on skill);
- ``skill_gradient``: with two or more lineups, whether the rule widens or narrows the gap
  between the stronger and the weaker player, and whether that differs between the lineups
  (paired over the deal sets they share);
- ``run_profile``: the profile of a single run's variants, each measure against the value a
  balanced game would have (``Statistic.reference``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from .dataset import Run, open_runs
from .estimates import interval
from .formats import format_number, interval_text, percent
from .intervals import LEVEL
from .measures import GROUP_WORDS, GROUPS, base_name
from .units import Lineup, UnitTotals, relabelled, variant_units

if TYPE_CHECKING:
    from .compare import Comparison

#: The columns of ``profile_records``.
RECORD_COLUMNS = ("group", "measure", "label", "unit", "variant", "lineup", "value",
                  "baseline_value", "reference", "difference", "low", "high", "measurable")


def is_share(unit: str) -> bool:
    """Whether a statistic's unit is a share (printed in %, its differences in points of %)."""
    return str(unit).startswith("(share")


def _percent(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "n/a"
    return percent(value)


def _value(row: dict[str, Any], column: str) -> str:
    value = row[column]
    return _percent(value) if is_share(row["unit"]) else format_number(value)


def strength(row: dict[str, Any]) -> float:
    """How clearly a difference is measured: its size over its shown interval's half-width (a
    standardised change, about the t statistic at the adjusted level)."""
    half = (row["shown_high"] - row["shown_low"]) / 2
    if half is None or not math.isfinite(half) or half <= 0:
        return math.inf if row["difference"] else 0.0
    return abs(row["difference"]) / half


def direction(row: dict[str, Any]) -> int:
    """+1 when a difference means more of its group's quality (fairer, more skill, more luck,
    more drama), -1 when less, 0 when it has no direction (bidding, ties)."""
    difference = row["difference"]
    if not difference:
        return 0
    toward, reference = row["toward"], row["reference"]
    if toward:
        return toward * (1 if difference > 0 else -1)
    if reference is None or not math.isfinite(reference):
        return 0
    closer = abs(row["value"] - reference) < abs(row["baseline_value"] - reference)
    return 1 if closer else -1


def clause(row: dict[str, Any]) -> str:
    """One measurable difference of the profile in plain words, with its adjusted interval and
    both values (the variant's first)."""
    share = is_share(row["unit"])
    scale = 100.0 if share else 1.0
    low, high = sorted((abs(row["shown_low"] * scale), abs(row["shown_high"] * scale)))
    amount = interval_text(abs(row["difference"] * scale), low, high, "")
    up = row["difference"] > 0
    points = "points of probability" if share else ""
    values = f"{_value(row, 'value')} against {_value(row, 'baseline_value')}"
    reference = row["reference"]
    fair = (f"; even is {_percent(reference)}" if share and reference is not None
            and math.isfinite(reference) and reference > 0 else "")
    name = base_name(row["statistic"])
    subject = row["statistic"][len(name) + 1:-1] if "[" in row["statistic"] else ""
    more = "more" if up else "less"
    fewer = "more" if up else "fewer"
    if name == "ahead":
        better, worse = subject.split(">", 1)
        return (f"{better} finishes ahead of {worse} {amount} {points} {more} often "
                f"({values})")
    if name == "win_chance":
        label = str(row["label"]).split("'s chance")[0]
        return f"{label} wins {amount} {points} {more} often ({values}{fair})"
    if name == "weakest_wins":
        weakest = str(row["label"]).split("'s chance")[0]
        return f"{weakest}, the weakest, wins {amount} {points} {more} often ({values}{fair})"
    if name == "seat_edge":
        return (f"the largest seat edge is {amount} {points} {'larger' if up else 'smaller'} "
                f"({values})")
    if name == "dealer_top":
        return (f"the dealer scores the most in a deal {amount} {points} {more} often "
                f"({values}{fair})")
    if name in ("place_share", "cards_share"):
        who = "the strategies" if name == "place_share" else "the cards"
        return (f"{who} explain {amount} points {more} of the variance of places ({values})")
    if name == "match_length":
        return (f"{row['label'][4:].replace(' needs', ' needs', 1)} is {amount} "
                f"{'longer' if up else 'shorter'} ({values} {row['unit']})")
    if name == "lead_changes":
        return f"the lead changes {amount} times a game {more} often ({values})"
    words = {"comeback_share": "games are won from behind",
             "decided_share": "games are decided before the last deal",
             "tie_share": "games end in a shared first place",
             "made_share": "bids are made", "over_share": "bids are overshot",
             "under_share": "bids fall short", "pass_share": "bids are passes"}
    if name in words:
        return f"{amount} points {fewer} {words[name]} ({values})"
    return str(row.get("verdict") or row["label"])


@dataclass
class GroupChange:
    """A group's measurable changes for one variant and lineup: their directions and the rows,
    the clearest first."""

    group: str
    rows: list[dict[str, Any]]

    @property
    def directions(self) -> set[int]:
        """The directions of the group's quality its changes point (``direction``)."""
        return {direction(row) for row in self.rows} - {0}

    @property
    def words(self) -> str:
        """"more luck", "less fair"; "mixed" when its measures disagree."""
        signs = self.directions
        if len(signs) > 1:
            return f"mixed {self.group} measures"
        more, less = GROUP_WORDS[self.group]
        return less if signs == {-1} else more

    @property
    def strength(self) -> float:
        """The clearest change of the group (``strength``)."""
        return max(strength(row) for row in self.rows)


def group_changes(table: pl.DataFrame, variant: str, lineup: str) -> list[GroupChange]:
    """The profile groups with a measurable change for ``variant`` under ``lineup``, the group
    with the clearest change first (bidding last), each group's rows the clearest first."""
    rows = table.filter((pl.col("variant") == variant) & (pl.col("lineup") == lineup)
                        & pl.col("group").is_not_null() & pl.col("measurable")).to_dicts()
    changes = []
    for group in GROUPS:
        part = sorted((row for row in rows if row["group"] == group), key=strength, reverse=True)
        if part:
            changes.append(GroupChange(group, part))
    return sorted(changes, key=lambda change: (change.group == "bidding", -change.strength))


def _predicate(changes: Sequence[GroupChange]) -> str:
    """"has less skill and more luck and is less fair": the groups' words as a predicate."""
    nouns = [change.words for change in changes if change.group != "fair"]
    adjectives = [change.words for change in changes if change.group == "fair"]
    parts = []
    if nouns:
        parts.append("has " + _join(nouns))
    if adjectives:
        parts.append("is " + _join(adjectives))
    return " and ".join(parts)


def _join(parts: Sequence[str]) -> str:
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _lineups_text(count: int) -> str:
    return "both lineups" if count == 2 else f"all {count} lineups"


def profile_headline(comparison: Comparison, question: str, variants: Sequence[str]) -> str:
    """The profile's answer to ``question`` ("Does the scoring table matter?") in one sentence:
    for each of ``variants``, which groups changed measurably (the clearest first) and the
    clearest change in plain words; "It depends" where the lineups disagree; "Not measurably"
    where nothing moved."""
    table = comparison.table
    lineups = sorted(set(table["lineup"].to_list()), key=comparison_lineup_order(comparison))
    several = len(lineups) > 1
    baseline = comparison.questions[0]["baseline"] if comparison.questions else ""
    kinds, parts = set(), []
    for variant in variants:
        per_lineup = {lineup: group_changes(table, variant, lineup) for lineup in lineups}
        moved = [lineup for lineup in lineups if per_lineup[lineup]]
        if not moved:
            kinds.add("no")
            parts.append(f"no measure of fairness, skill, luck, drama or bidding differs "
                         f"measurably under {variant}")
            continue
        found: dict[str, dict[str, GroupChange]] = {}  # group -> lineup -> change
        for lineup in moved:
            for change in per_lineup[lineup]:
                found.setdefault(change.group, {})[lineup] = change
        order = sorted(found, key=lambda group: (group == "bidding", -max(
            change.strength for change in found[group].values())))
        everywhere = [group for group in order if len(found[group]) == len(lineups)
                      and len({change.words for change in found[group].values()}) == 1]
        flips = [group for group in order
                 if {frozenset({1}), frozenset({-1})} <= {frozenset(change.directions)
                                                          for change in found[group].values()}]
        some = [group for group in order if group not in everywhere and group not in flips]
        clearest = max(((lineup, change.rows[0]) for group in order[:1]
                        for lineup, change in found[group].items()),
                       key=lambda item: strength(item[1]))
        where = f"with {clearest[0]}, " if several else ""
        text = ""
        if everywhere:
            words = _predicate([next(iter(found[group].values())) for group in everywhere])
            every = f", under {_lineups_text(len(lineups))}" if several else ""
            text = f"{variant} {words} than {baseline}{every}"
        for group in some:
            each = "; ".join(f"{_predicate([change])} with {lineup}"
                             for lineup, change in found[group].items())
            only = " only" if several and len(found[group]) == 1 else ""
            text += ("; " if text else f"{variant} ") + each + only
        for group in flips:
            each = " but ".join(f"{_predicate([change])} with {lineup}"
                                for lineup, change in found[group].items())
            text += ("; " if text else f"{variant} ") + each
        kinds.add("yes" if everywhere and not flips and len(moved) == len(lineups)
                  else "depends")
        parts.append(f"{text}; the clearest change: {where}{clause(clearest[1])}")
    verdict = ("It depends" if "depends" in kinds or len(kinds) > 1 else
               "Yes" if kinds == {"yes"} else "Not measurably at this size")
    return f"{question} {verdict}: " + "; ".join(parts) + "."


def comparison_lineup_order(comparison: Comparison):  # noqa: ANN201
    """A sort key keeping the comparison's order of lineups."""
    order = {lineup: index for index, lineup in enumerate(comparison.lineups)}
    return lambda lineup: order.get(lineup, len(order))


def profile_lines(comparison: Comparison, variant: str) -> list[str]:
    """The profile of one variant against the baseline, group by group under each lineup, then
    where measures disagree (within a group, skill against luck, points against chances)."""
    table = comparison.table
    several = len(comparison.lineups) > 1
    lineups = comparison.lineups if several else [""]
    lines = []
    for lineup in lineups:
        changes = group_changes(table, variant, lineup)
        still = [group for group in GROUPS if group not in {c.group for c in changes}]
        said = [f"{change.words}: {clause(change.rows[0])}" for change in changes]
        if still:
            said.append("no measurable change in " + _join([_NOUNS[g] for g in still]))
        who = f"with {lineup}: " if several else ""
        lines.append(f"{variant}, {who}" + "; ".join(said) + ".")
        lines += _disagreements(table, variant, lineup, changes, who)
    return lines


_NOUNS = {"fair": "fairness", "skill": "skill", "luck": "luck", "drama": "drama",
          "bidding": "bidding"}


def _disagreements(table: pl.DataFrame, variant: str, lineup: str,
                   changes: list[GroupChange], who: str) -> list[str]:
    lines = []
    by_group = {change.group: change for change in changes}
    for change in changes:
        if len(change.directions) > 1:
            up = next(row for row in change.rows if direction(row) > 0)
            down = next(row for row in change.rows if direction(row) < 0)
            lines.append(f"The {change.group} measures disagree ({who.rstrip(': ')}): "
                         f"{clause(up)}, but {clause(down)}.".replace(" ()", ""))
    skill, luck = by_group.get("skill"), by_group.get("luck")
    if (skill and luck and len(skill.directions) == 1 and skill.directions == luck.directions):
        lines.append(f"Skill and luck disagree{(' ' + who.rstrip(': ')) if who else ''}: "
                     f"{clause(skill.rows[0])}, and yet {clause(luck.rows[0])}.")
    points = table.filter((pl.col("variant") == variant) & (pl.col("lineup") == lineup)
                          & (pl.col("statistic") == "strategy_share") & pl.col("measurable"))
    if points.height:
        row = points.row(0, named=True)
        falls = "falls" if row["difference"] < 0 else "rises"
        in_chances = (f"in chances {clause(skill.rows[0])}" if skill else
                      "in chances no skill measure moved measurably")
        agree = skill is not None and skill.directions == {1 if row["difference"] > 0 else -1}
        if not agree:
            lines.append(
                f"Points and chances disagree on skill{(' ' + who.rstrip(': ')) if who else ''}:"
                f" the strategies' share of the score variance {falls} "
                f"({_percent(row['baseline_value'])} to {_percent(row['value'])}), but "
                f"{in_chances}; points weigh what the scoring table weighs, chances count who "
                "finishes ahead.")
    return lines


def skill_gradient(comparison: Comparison) -> list[str]:
    """With two or more lineups: per variant, whether the change widens or narrows the gap
    between each lineup's strongest and weakest player (``ahead[A>B]``, the first pair), and
    whether that differs between the first two lineups, paired over the deal sets they share."""
    if len(comparison.lineups) < 2:
        return []
    table = comparison.table.filter(pl.col("statistic").str.starts_with("ahead[")
                                    & (pl.col("group") == "skill"))
    lines = []
    for variant in dict.fromkeys(q["variant"] for q in comparison.questions):
        rows = []
        for lineup in comparison.lineups:
            part = table.filter((pl.col("variant") == variant) & (pl.col("lineup") == lineup))
            if part.height:
                rows.append(part.row(0, named=True))
        if len(rows) < 2:
            continue
        signs = {(row["difference"] > 0) - (row["difference"] < 0) for row in rows
                 if row["measurable"]}
        said = "; ".join(f"with {row['lineup']}, {clause(row)}" if row["measurable"] else
                         f"with {row['lineup']}, "
                         f"{row['statistic'][6:-1].replace('>', chr(39) + 's lead over ', 1)}"
                         " does not move measurably" for row in rows)
        if signs == {1} and all(row["measurable"] for row in rows):
            verdict = "widens the gap between the stronger and the weaker player"
        elif signs == {-1} and all(row["measurable"] for row in rows):
            verdict = "narrows the gap between the stronger and the weaker player"
        elif len(signs) > 1:
            verdict = "widens the gap under one lineup and narrows it under another"
        elif signs:
            verdict = ("moves the gap between the stronger and the weaker player under some "
                       "lineups only")
        else:
            verdict = ("moves the gap between the stronger and the weaker player measurably "
                       "under no lineup")
        text = f"Skill gradient: {variant} {verdict}: {said}."
        between = _between_lineups(comparison, variant, rows[0], rows[1])
        if between:
            text += " " + between
        lines.append(text)
    return lines


def _between_lineups(comparison: Comparison, variant: str, first: dict[str, Any],
                     second: dict[str, Any]) -> str:
    """The first two lineups' changes of the gap against each other, paired over the deal sets
    they share (the same seeds: the same cards), with its interval at the comparison's level."""
    influences = comparison.influences
    key_a = (first["lineup"], variant, first["statistic"])
    key_b = (second["lineup"], variant, second["statistic"])
    if key_a not in influences or key_b not in influences:
        return ""
    ids_a, z_a = influences[key_a]
    ids_b, z_b = influences[key_b]
    common, at_a, at_b = np.intersect1d(ids_a, ids_b, assume_unique=True, return_indices=True)
    if len(common) < 3 or len(common) != len(ids_a) or len(common) != len(ids_b):
        return ""
    d = z_a[at_a] - z_b[at_b]
    estimate = first["difference"] - second["difference"]
    se = float(np.sqrt((d**2).sum() / (len(d) * (len(d) - 1))))
    low, high, _ = interval(estimate, se, len(d) - 1.0, comparison.level)
    shown = interval_text(100 * estimate, 100 * low, 100 * high, "")
    measured = low > 0 or high < 0
    return (f"Between the lineups (paired over the same {len(d):,} deal sets), the first "
            f"lineup's change minus the second's is {shown} points of probability: "
            + ("the rule moves the gap differently for these players." if measured else
               "not measurably different."))


def profile_records(comparison: Comparison) -> pl.DataFrame:
    """One record per profile measure, variant and lineup (the baseline's own rows included,
    without a difference): ``RECORD_COLUMNS``."""
    table = comparison.table.filter(pl.col("group").is_not_null())
    rows = table.select(
        "group", pl.col("statistic").alias("measure"), "label", "unit", "variant", "lineup",
        "value", "baseline_value", "reference", "difference",
        pl.col("shown_low").alias("low"), pl.col("shown_high").alias("high"), "measurable")
    return rows.sort(pl.col("group").replace_strict(
        {name: index for index, name in enumerate(GROUPS)}, return_dtype=pl.Int64),
        maintain_order=True)


# -- a single run ---------------------------------------------------------------------------------


def run_profile(sources: Sequence[str | Run], level: float = LEVEL) -> pl.DataFrame:
    """The profile of each variant of the runs (each run's lineup on its own): per measure its
    value with an interval and the value a balanced game would have (``reference``), and
    whether the interval excludes it (``measurable``: a seat favoured, a player better than a
    coin flip against another; shares of variance have no reference). A variant's measures with
    a reference are tested at once: Benjamini-Hochberg at ``level`` decides what is measurable
    and each interval is the matching false-coverage-rate one (``question.adjust``), so a lineup
    of equal players shows no skill by chance among its many pairs."""
    runs = [s for s in sources if isinstance(s, Run)]
    runs += open_runs([s for s in sources if not isinstance(s, Run)])
    rows = []
    for run in runs:
        units = relabelled(variant_units([run]))
        for unit in units:
            lineup = Lineup.of([unit])
            totals = UnitTotals(unit, lineup)
            part = []
            for statistic in lineup.statistics():
                if statistic.group is None:
                    continue
                estimate = totals.estimate(statistic)
                reference = statistic.reference
                shift = reference if reference is not None else 0.0
                low, high, p_value = interval(estimate.value - shift, estimate.se,
                                              estimate.clusters - 1, level)
                part.append({"run": run.label, "variant": unit.label, "lineup": unit.lineup,
                             "group": statistic.group, "measure": statistic.name,
                             "label": statistic.label, "unit": statistic.unit,
                             "value": estimate.value, "reference": reference,
                             "intervals": estimate.design, "difference": estimate.value - shift,
                             "difference_low": low, "difference_high": high,
                             "df": estimate.clusters - 1.0,
                             "p_value": p_value if reference is not None else math.nan,
                             "family": "profile"})
            rows += _against_reference(part, level)
    schema = {"run": pl.String(), "variant": pl.String(), "lineup": pl.String(),
              "group": pl.String(), "measure": pl.String(), "label": pl.String(),
              "unit": pl.String(), "value": pl.Float64(), "value_low": pl.Float64(),
              "value_high": pl.Float64(), "reference": pl.Float64(),
              "measurable": pl.Boolean(), "intervals": pl.String()}
    frame = pl.DataFrame(rows, schema=schema)
    order = pl.col("group").replace_strict({name: index for index, name in enumerate(GROUPS)},
                                           return_dtype=pl.Int64)
    return frame.sort(order, maintain_order=True).with_columns(
        pl.col("value", "value_low", "value_high").fill_nan(None))


def _against_reference(rows: list[dict[str, Any]], level: float) -> list[dict[str, Any]]:
    """One variant's measures, each tested against its reference (the family of those that have
    one: ``question.adjust``), as ``run_profile``'s rows."""
    from .question import adjust

    if not rows:
        return []
    table = adjust(pl.DataFrame(rows, infer_schema_length=None), level)
    out = []
    for row in table.iter_rows(named=True):
        shift = row["reference"] if row["reference"] is not None else 0.0
        out.append({key: row[key] for key in ("run", "variant", "lineup", "group", "measure",
                                              "label", "unit", "value", "reference",
                                              "intervals")}
                   | {"value_low": row["shown_low"] + shift,
                      "value_high": row["shown_high"] + shift,
                      "measurable": bool(row["measurable"]) and row["reference"] is not None})
    return out


# -- tables for people ----------------------------------------------------------------------------

#: What a profile table's difference cell adds when the difference is measurable.
MEASURED_MARK = " ✓"
#: A profile table's cell with nothing to show (a pair of strategies a lineup does not have).
EMPTY = "–"


def _cell(value: float | None, low: float | None, high: float | None, share: bool,
          difference: bool = False) -> str:
    """A value (with its interval) as a profile table prints it: shares in %, their differences
    in percentage points."""
    if value is None or not math.isfinite(value):
        return EMPTY
    if abs(value) < 1e-12 and low is not None and high is not None and abs(low) < 1e-12 \
            and abs(high) < 1e-12:  # a difference of identical totals, up to rounding
        value = low = high = 0.0
    scale = 100.0 if share and difference else 1.0
    value, low, high = (None if v is None else v * scale for v in (value, low, high))
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return _percent(value) if share and not difference else format_number(value)
    if share and not difference:
        return interval_text(value, low, high, "share")
    return interval_text(value, low, high, "")


def comparison_tables(comparison: Comparison) -> dict[str, pl.DataFrame]:
    """One table per profile group (``GROUPS``): a row per measure, and for each lineup the
    baseline's value, each variant's, and each variant's difference from the baseline with its
    adjusted interval (shares in %, their differences in percentage points; ✓ where
    measurable): the variants and lineups side by side, a lineup named by its number in
    ``comparison.lineups`` ("lineup 1: joker")."""
    table = comparison.table.filter(pl.col("group").is_not_null())
    several = len(comparison.lineups) > 1
    lineups = comparison.lineups if several else [""]
    numbers = {lineup: index + 1 for index, lineup in enumerate(lineups)}
    tables = {}
    for group in GROUPS:
        part = table.filter(pl.col("group") == group)
        if part.height == 0:
            continue
        measures = list(dict.fromkeys(part["statistic"].to_list()))
        columns: dict[str, list[str]] = {"measure": []}
        for statistic in measures:
            rows = part.filter(pl.col("statistic") == statistic)
            columns["measure"].append(_measure_label(rows.row(0, named=True)))
        for lineup in lineups:
            prefix = f"lineup {numbers[lineup]}: " if several else ""
            here = part.filter(pl.col("lineup") == lineup)
            variants = list(dict.fromkeys(here["variant"].to_list()))
            baseline = here["baseline"][0] if here.height else ""
            base_cells, cells = [], {v: ([], []) for v in variants}
            for statistic in measures:
                rows = {row["variant"]: row for row in
                        here.filter(pl.col("statistic") == statistic).iter_rows(named=True)}
                first = next(iter(rows.values()), None)
                share = first is not None and is_share(first["unit"])
                base_cells.append(_cell(first["baseline_value"], None, None, share)
                                  if first else EMPTY)
                for variant in variants:
                    row = rows.get(variant)
                    if row is None:
                        cells[variant][0].append(EMPTY)
                        cells[variant][1].append(EMPTY)
                        continue
                    cells[variant][0].append(_cell(row["value"], None, None, share))
                    text = _cell(row["difference"], row["shown_low"], row["shown_high"], share,
                                 difference=True)
                    cells[variant][1].append(text + (MEASURED_MARK if row["measurable"]
                                                     and text != EMPTY else ""))
            columns[f"{prefix}{baseline}"] = base_cells
            for variant in variants:
                columns[f"{prefix}{variant}"] = cells[variant][0]
                columns[f"{prefix}{variant} − {baseline}"] = cells[variant][1]
        tables[group] = pl.DataFrame(columns)
    return tables


def _measure_label(row: dict[str, Any]) -> str:
    """A measure's label with its unit where the unit is not a share and not in the label."""
    unit, label = str(row["unit"]), str(row["label"])
    return label if is_share(unit) or unit in label else f"{label} ({unit})"


def run_tables(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """The profile of single runs (``run_profile``) as one table per group: a row per measure,
    a column per run and variant with its value and interval, and the value a balanced game
    would have; a value whose interval excludes it is marked ✓."""
    several_runs = frame["run"].n_unique() > 1 if frame.height else False
    tables = {}
    for group in GROUPS:
        part = frame.filter(pl.col("group") == group)
        if part.height == 0:
            continue
        keys = list(dict.fromkeys(zip(part["run"].to_list(), part["variant"].to_list(),
                                      strict=True)))
        measures = list(dict.fromkeys(part["measure"].to_list()))
        columns: dict[str, list[str]] = {"measure": [], "balanced": []}
        for measure in measures:
            row = part.filter(pl.col("measure") == measure).row(0, named=True)
            columns["measure"].append(_measure_label(row))
            reference = row["reference"]
            columns["balanced"].append(EMPTY if reference is None else _cell(
                reference, None, None, is_share(row["unit"])))
        for run, variant in keys:
            name = f"{run}: {variant}" if several_runs else variant
            cells = []
            for measure in measures:
                found = part.filter((pl.col("measure") == measure) & (pl.col("run") == run)
                                    & (pl.col("variant") == variant))
                if found.height == 0:
                    cells.append(EMPTY)
                    continue
                row = found.row(0, named=True)
                text = _cell(row["value"], row["value_low"], row["value_high"],
                             is_share(row["unit"]))
                cells.append(text + (MEASURED_MARK if row["measurable"] and text != EMPTY
                                     else ""))
            columns[name] = cells
        tables[group] = pl.DataFrame(columns)
    return tables


def comparison_figure_rows(comparison: Comparison) -> pl.DataFrame:
    """The rows ``figures.profile`` draws for a comparison: each profile measure's difference
    from the baseline per variant and lineup (the series), with its adjusted interval."""
    table = comparison.table.filter(pl.col("group").is_not_null())
    several = len(comparison.lineups) > 1
    numbers = {lineup: index + 1 for index, lineup in enumerate(comparison.lineups)}
    series = [f"{variant}, lineup {numbers.get(lineup, 1)}" if several else variant
              for variant, lineup in zip(table["variant"].to_list(), table["lineup"].to_list(),
                                         strict=True)]
    return table.select(
        "group", "statistic", "label", "unit", pl.Series("series", series, dtype=pl.String()),
        pl.col("difference").alias("value"), pl.col("shown_low").alias("low"),
        pl.col("shown_high").alias("high"), "measurable", "reference")


def run_figure_rows(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows ``figures.profile`` draws for single runs (``run_profile``): each measure's value
    per run and variant, with its interval and the value of a balanced game."""
    several = frame["run"].n_unique() > 1 if frame.height else False
    series = [f"{run}: {variant}" if several else variant
              for run, variant in zip(frame["run"].to_list(), frame["variant"].to_list(),
                                      strict=True)]
    return frame.select(
        "group", pl.col("measure").alias("statistic"), "label", "unit",
        pl.Series("series", series, dtype=pl.String()), "value",
        pl.col("value_low").alias("low"), pl.col("value_high").alias("high"), "measurable",
        "reference")
