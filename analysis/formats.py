"""How the reports print numbers: percentages for shares, significant digits for the rest,
p-values floored at double precision, intervals as ``estimate [low, high]``. Used by the tables
(``analysis.tables``), the ranking's verdicts and the comparison's sentences alike.
"""

from __future__ import annotations

import math

#: Columns shown with six significant digits (exact odds and their simulation).
PRECISE_COLUMNS = frozenset({"exact", "simulated", "probability"})


def is_share(column: str) -> bool:
    """Whether a column holds a share (0 to 1), printed as a percentage: ``win_rate``,
    ``made_share``, ``target`` and the like."""
    return column.endswith(("_rate", "_share", "_share_luck_free")) or column in (
        "target", "share", "interval_level", "p_ahead")


#: Columns of whole counts held as floats (a model's games or deal sets a match needs): printed
#: as counts, with thousands separators, not with decimals.
COUNT_COLUMNS = frozenset({"games_model", "score_model", "duplicate_deal_sets"})


def percent(value: float, digits: int = 3) -> str:
    """``value`` (a share) as a percentage with ``digits`` significant digits, zeros kept."""
    text = f"{100 * value:#.{digits}g}"
    if "e" in text:  # below 0.001%: fixed decimals
        text = f"{100 * value:.{digits + 2}f}"
    return text.rstrip(".") + "%"


def format_number(value: object, column: str = "") -> str:
    """A number as people read it: p-values with 3 significant digits, shares (``is_share``) as
    percentages with 3, counts with thousands separators, others with a few decimals."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if math.isinf(value):
            return "∞" if value > 0 else "-∞"
        if column.endswith(("p_value", "_p", "p_adjusted")):
            return format_p_value(value)
        if column in PRECISE_COLUMNS:
            return f"{value:.6g}"
        if is_share(column):
            return percent(value)
        if column in COUNT_COLUMNS and value.is_integer():
            return f"{int(value):,}"
        magnitude = abs(value)
        if magnitude >= 10_000:
            return f"{value:,.0f}"
        if magnitude >= 100:
            return f"{value:.1f}"
        if magnitude >= 1:
            return f"{value:.2f}"
        return f"{value:.3f}" if magnitude >= 0.001 or magnitude == 0 else f"{value:.2e}"
    return str(value)


#: p-values below this print as "<1e-16": double precision cannot tell them apart from 0.
P_FLOOR = 1e-16


def format_p_value(value: float) -> str:
    """A p-value with 3 significant digits; below ``P_FLOOR`` (0 included) it is "<1e-16", since
    a p-value is never exactly 0."""
    if value < P_FLOOR:
        return "<1e-16"
    return f"{value:.3g}"


def format_interval(estimate: str, low: str, high: str) -> str:
    """"estimate [low, high]"; an interval of no width (every observation equal) prints as
    "estimate (no spread)", and a missing bound as the estimate alone."""
    if not low or not high:
        return estimate
    if low == high == estimate:
        return f"{estimate} (no spread)"
    return f"{estimate} [{low}, {high}]"


def interval_text(estimate: object, low: object, high: object, column: str) -> str:
    """An estimate and its interval, with more digits when the usual ones would print different
    bounds alike; "(no spread)" only when the bounds are truly equal to the estimate."""
    texts = [format_number(value, column) for value in (estimate, low, high)]
    numbers = [value for value in (estimate, low, high) if isinstance(value, float)]
    if len(numbers) == 3 and all(math.isfinite(v) for v in numbers):
        if numbers[0] == numbers[1] == numbers[2]:
            return f"{texts[0]} (no spread)"
        digits = 3
        while len(set(texts)) < len(set(numbers)) and digits < 10:
            digits += 1
            texts = [percent(value, digits) if is_share(column) else f"{value:.{digits}g}"
                     for value in numbers]
    return format_interval(*texts)
