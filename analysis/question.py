"""What a comparison of variants asks, and how sure its answers are.

A comparison knows what changed between two variants: the rule options that differ in their
manifests (``changed_options``). A change has a *topic* (``TOPICS``): the statistic that answers
"does this change matter?" (the question's statistic), the statistics it bears on (related), and
the statistics the change sets by construction (mechanical: without a hook, the share of the
dealer's bids the hook restricted is 0 by definition; that is not a finding). ``roles`` ranks every
statistic of a comparison by that relevance; ``raspis compare --focus STAT`` names the question's
statistic by hand.

Multiplicity, stated once. A comparison tests many differences at once (about 24 statistics per
variant against the baseline), so some intervals of a family exclude 0 by chance alone. The
question's statistics (one per variant against the baseline) form the *primary* family, all other
differences the *secondary* family. In each family, Benjamini-Hochberg at the comparison's level
(``scipy.stats.false_discovery_control``) decides what is *measurable*, and every interval shown is
the matching false-coverage-rate interval (Benjamini & Yekutieli 2005): with R of the family's m
differences selected, the interval at level 1 - R·α/m (1 - α/m when none is). That interval excludes
0 exactly when the difference is selected, so "measurable" always follows the interval shown.

Lineups. A rules verdict can depend on who plays (stronger players exploit a rule differently).
When the same variants were played under two or more lineups, each lineup is compared on its own
and ``robustness`` says, per statistic and variant, whether the finding *holds* (measurable, same
sign, under every lineup), *flips* (measurable with opposite signs), is measurable under *some*
lineups only, or under *none*.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from .intervals import t_quantiles

#: role of a statistic in a comparison, most relevant first: the statistic the topic's question
#: leads with (the hook's dealer's edge), the balance profile's measures (``measures``), the
#: statistics the change bears on, the others, and what the change sets by definition
ROLES = ("question", "profile", "related", "other", "mechanical")

#: rule options whose change changes what a point is worth: after such a change no statistic in
#: points leads the answer (``points_comparable``)
SCORING_PREFIXES = ("scoring.", "kinds.", "schedule")


@dataclass(frozen=True)
class Topic:
    """What a change of rule options with ``prefix`` (dotted option path) is about.

    ``question``: the statistic that leads the answer ahead of the profile (the hook's dealer's
    edge), or None: the balance profile answers first. ``specific``: the topic's own statistics,
    stated after the profile's answer (the Joker's value, in points and as a chance)."""

    prefix: str
    name: str  # "the dealer's hook": the question is "Does {name} matter?"
    question: str | None = None
    specific: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    mechanical: tuple[str, ...] = ()
    plural: bool = False  # "the bidding rules": "Do {name} matter?"

    @property
    def asked(self) -> str:
        """The question a change of the topic's options asks: "Does the scoring table matter?",
        "Do the bidding rules matter?"."""
        return f"{'Do' if self.plural else 'Does'} {self.name} matter?"


_BIDS = ("made_share", "over_share", "under_share")
_SEATS = ("seat_advantage[", "points_per_deal")

#: topics by option path prefix, the most specific first
TOPICS: tuple[Topic, ...] = (
    Topic("bidding.hook", "the dealer's hook", "dealer_cost", ("dealer_top",),
          (*_BIDS, *_SEATS, "mean_score["), ("hook_forced_share",)),
    Topic("joker.", "the Joker's rules", None, ("joker_value", "joker_top"),
          (*_SEATS, "mean_score[", "strategy_share"), plural=True),
    Topic("deck.jokers", "the Jokers in the deck", None, ("joker_value", "joker_top"),
          (*_SEATS, "strategy_share"), plural=True),
    Topic("scoring.", "the scoring table", None, (),
          ("mean_score[", "strategy_share", "score_sd", "negative_share", *_BIDS)),
    Topic("bidding.", "the bidding rules", None, (), (*_BIDS, "dealer_cost", *_SEATS),
          plural=True),
    Topic("schedule", "the schedule of deals", None, (),
          ("deals_per_game", "strategy_share", "score_sd")),
    Topic("end.", "the way the game ends", None, (), ("win_rate[",)),
    Topic("kinds.", "the special deals", None, (), ("strategy_share", "score_sd"), plural=True),
)


def points_comparable(changes: Mapping[str, Any]) -> bool:
    """Whether a point means the same under both sides of ``changes``: no option of the scoring
    table, the deal kinds or the schedule changed (``SCORING_PREFIXES``)."""
    return not any(path.startswith(SCORING_PREFIXES) for path in changes)


def flatten(options: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested rule options as ``{"bidding.hook": "off", ...}``."""
    flat: dict[str, Any] = {}
    for key, value in options.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, path + "."))
        else:
            flat[path] = value
    return flat


def changed_options(baseline: Mapping[str, Any] | None,
                    other: Mapping[str, Any] | None) -> dict[str, tuple[Any, Any]]:
    """The rule options that differ: path -> (baseline's value, other's). Names and descriptions
    are not rules; options missing from a manifest are not compared."""
    if baseline is None or other is None:
        return {}
    a, b = flatten(baseline), flatten(other)
    skip = {"name", "description", "extends"}
    return {key: (a.get(key), b.get(key)) for key in sorted(set(a) | set(b))
            if key.split(".")[0] not in skip and a.get(key) != b.get(key)}


def topic_of(changes: Mapping[str, Any]) -> Topic | None:
    """The topic of a set of changed options: that of the first topic (in ``TOPICS`` order) whose
    prefix some change has; None when no topic knows the change."""
    for topic in TOPICS:
        if any(path.startswith(topic.prefix) for path in changes):
            return topic
    return None


def describe_changes(changes: Mapping[str, tuple[Any, Any]], limit: int = 3) -> str:
    """``bidding.hook "dealer" -> "off"``, the first ``limit`` changes, then how many more."""
    parts = [f"{path} {_value(a)} -> {_value(b)}" for path, (a, b) in list(changes.items())[:limit]]
    more = len(changes) - limit
    if more > 0:
        parts.append(f"{more} more option{'s' if more > 1 else ''}")
    return ", ".join(parts) if parts else "no rule option (the same rules)"


def _value(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else "none" if value is None else str(value)


def role_rank() -> pl.Expr:
    """A row's role as its place in ``ROLES`` (0: the question's statistic), to sort by."""
    return pl.col("role").replace_strict({name: index for index, name in enumerate(ROLES)},
                                         return_dtype=pl.Int64)


def by_relevance(table: pl.DataFrame) -> pl.DataFrame:
    """``table``'s rows most relevant first (``ROLES``), in their order within a role."""
    return table.sort(role_rank(), maintain_order=True)


def role(statistic: str, topic: Topic | None, focus: str | None, group: str | None = None,
         comparable: bool = True, in_points: bool = False) -> str:
    """The statistic's role (``ROLES``) in a comparison about ``topic``; ``focus`` (a statistic
    name) is the question's statistic when given. A statistic in points (``in_points``) never
    leads when the points are not ``comparable`` (``points_comparable``); the profile's measures
    (``group`` set) come next."""
    question = focus or (topic.question if topic is not None else None)
    if statistic == question and (comparable or not in_points or focus):
        return "question"
    if topic is not None and any(statistic.startswith(name) for name in topic.mechanical):
        return "mechanical"
    if group is not None:
        return "profile"
    if topic is None:
        return "other"
    if statistic in topic.specific or any(statistic.startswith(name) for name in topic.related):
        return "related"
    return "other"


def lineup_text(strategies: Sequence[str]) -> str:
    """A lineup in few words: ``strong x2, fastheuristic, lowest``."""
    counts: dict[str, int] = {}
    for name in strategies:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if count == 1 else f"{name} x{count}" for name, count in counts.items())


# -- multiplicity --------------------------------------------------------------------------------


def adjust(table: pl.DataFrame, level: float) -> pl.DataFrame:
    """``table`` (one row per difference: ``difference``, ``difference_low``/``high`` at
    ``level``, ``p_value``, ``family``) with ``p_adjusted`` (Benjamini-Hochberg within its
    family), ``interval_level`` and ``shown_low``/``shown_high`` (the false-coverage-rate
    interval) and ``measurable`` (the shown interval excludes 0). See the module doc."""
    alpha = 1.0 - level
    count = table.height
    p_adjusted = np.full(count, math.nan)
    levels = np.full(count, math.nan)
    families = table["family"].to_list()
    p_values = table["p_value"].to_numpy().astype(float)
    for family in dict.fromkeys(families):
        rows = np.array([i for i, name in enumerate(families) if name == family
                         and math.isfinite(p_values[i])], dtype=np.int64)
        if not len(rows):
            continue
        adjusted = stats.false_discovery_control(np.clip(p_values[rows], 0.0, 1.0), method="bh")
        selected = int((adjusted <= alpha).sum())
        p_adjusted[rows] = adjusted
        levels[rows] = 1.0 - max(selected, 1) * alpha / len(rows)
    low, high = [], []
    for index, row in enumerate(table.iter_rows(named=True)):
        shown = _shown_interval(row, levels[index], level)
        low.append(shown[0])
        high.append(shown[1])
    shown_low = np.array(low, dtype=float)
    shown_high = np.array(high, dtype=float)
    with np.errstate(invalid="ignore"):
        measurable = (shown_low > 0) | (shown_high < 0)
    return table.with_columns(
        pl.Series("p_adjusted", p_adjusted),
        pl.Series("interval_level", levels),
        pl.Series("shown_low", shown_low),
        pl.Series("shown_high", shown_high),
        pl.Series("measurable", measurable),
    )


def _shown_interval(row: Mapping[str, Any], wanted: float, level: float) -> tuple[float, float]:
    """The interval of ``row`` rescaled from ``level`` to ``wanted`` (same centre, half-width
    times the ratio of the t quantiles on the row's degrees of freedom)."""
    difference, low, high = row["difference"], row["difference_low"], row["difference_high"]
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return math.nan, math.nan
    if not math.isfinite(wanted) or low == high:
        return low, high
    df = row.get("df")
    df = df if df is not None and math.isfinite(df) and df >= 1 else math.inf
    ratio = t_quantiles(0.5 + wanted / 2, df) / t_quantiles(0.5 + level / 2, df)
    return difference - ratio * (difference - low), difference + ratio * (high - difference)


# -- lineups -------------------------------------------------------------------------------------

#: robustness of a finding across lineups
HOLDS, FLIPS, SOME, NONE = "holds", "flips", "some lineups", "none"


def robustness(table: pl.DataFrame) -> pl.DataFrame:
    """Per statistic and variant (against the baseline) across the table's lineups: ``holds``
    (measurable with the same sign under every lineup), ``flips`` (measurable with opposite signs
    under two), ``some lineups`` (measurable under some only), ``none``; with the lineups where it
    is measurable."""
    rows = []
    grouped = table.group_by(["statistic", "variant"], maintain_order=True)
    for (statistic, variant), group in grouped:
        signs = {row["lineup"]: (row["difference"] > 0) - (row["difference"] < 0)
                 for row in group.iter_rows(named=True) if row["measurable"]}
        if len(set(signs.values()) - {0}) > 1:
            verdict = FLIPS
        elif signs and len(signs) == group.height:
            verdict = HOLDS
        elif signs:
            verdict = SOME
        else:
            verdict = NONE
        rows.append({"statistic": statistic, "variant": variant, "robustness": verdict,
                     "measurable_under": "; ".join(signs)})
    return pl.DataFrame(rows, schema={"statistic": pl.String(), "variant": pl.String(),
                                      "robustness": pl.String(),
                                      "measurable_under": pl.String()})
