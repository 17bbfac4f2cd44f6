"""How the reports print numbers: percentages for shares, counts with thousands separators,
p-values floored at double precision, points with fixed decimals (the same down a table's column
and across an estimate and its interval, ``column_texts``), intervals as
``estimate [low, high]``. Used by the tables (``analysis.tables``), the ranking's verdicts and
the comparison's sentences alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

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


def is_points(value: object, column: str = "") -> bool:
    """Whether ``format_number`` prints ``value`` of ``column`` as points (fixed decimals, see
    ``point_decimals``): a finite float that is no p-value, exact odds, share or whole count."""
    return (
        isinstance(value, float) and math.isfinite(value)
        and not column.endswith(("p_value", "_p", "p_adjusted"))
        and column not in PRECISE_COLUMNS and not is_share(column)
        and not (column in COUNT_COLUMNS and value.is_integer())
    )


#: The fewest and the most decimals ``point_decimals`` gives points (more only where an
#: interval's distinct bounds would print alike, up to ``MAX_DECIMALS``).
MIN_DECIMALS, POINT_DECIMALS, MAX_DECIMALS = 1, 3, 6


def point_decimals(values: Iterable[object]) -> int:
    """The decimals a set of points shares (a table's column, an estimate and its interval):
    those its smallest nonzero magnitude needs for 3 significant digits, between
    ``MIN_DECIMALS`` and ``POINT_DECIMALS``."""
    magnitudes = [abs(v) for v in values
                  if isinstance(v, float) and math.isfinite(v) and v != 0]
    if not magnitudes:
        return MIN_DECIMALS
    needed = 2 - math.floor(math.log10(min(magnitudes)))
    return max(MIN_DECIMALS, min(POINT_DECIMALS, needed))


def format_points(value: float, decimals: int) -> str:
    """Points with ``decimals`` decimals and thousands separators; no sign on a rounded zero."""
    text = f"{value:,.{decimals}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.,") else text


def format_number(value: object, column: str = "", decimals: int | None = None) -> str:
    """A number as people read it: p-values with 3 significant digits, shares (``is_share``) as
    percentages with 3, counts with thousands separators, points (``is_points``) with
    ``decimals`` decimals (by default ``point_decimals`` of the value alone)."""
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
        return format_points(value, point_decimals([value]) if decimals is None else decimals)
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


def interval_text(estimate: object, low: object, high: object, column: str,
                  decimals: int | None = None) -> str:
    """An estimate and its interval: points with the same decimals for all three (``decimals``,
    by default ``point_decimals`` of the three, more where distinct bounds would print alike),
    shares with more digits where they would; "(no spread)" only when the bounds are truly equal
    to the estimate."""
    return column_texts([estimate], column, [low], [high], decimals=decimals)[0]


def _rows(values: Sequence[object], column: str, lows: Sequence[object] | None,
          highs: Sequence[object] | None, shares: Sequence[bool] | None) -> list[tuple]:
    count = len(values)
    lows = list(lows) if lows is not None else [None] * count
    highs = list(highs) if highs is not None else [None] * count
    flags = list(shares) if shares is not None else [is_share(column)] * count
    return list(zip(values, lows, highs, flags, strict=True))


def _text(value: object, column: str, share: bool, places: int) -> str:
    if share and isinstance(value, float) and math.isfinite(value):
        return percent(value)
    return format_number(value, column, decimals=places)


def column_decimals(values: Sequence[object], column: str = "",
                    lows: Sequence[object] | None = None, highs: Sequence[object] | None = None,
                    shares: Sequence[bool] | None = None) -> int:
    """The decimals every point of a column prints with (``column_texts``): ``point_decimals``
    of its points, intervals included, raised until no row prints distinct bounds alike. A
    sentence that states a row's interval uses them too, so it reads as the table."""
    rows = _rows(values, column, lows, highs, shares)
    points = [[v for v in row[:3] if not row[3] and is_points(v, column)] for row in rows]

    def alike(places: int) -> bool:  # an interval whose distinct values print alike
        return any(len(numbers) == 3 and len({format_points(v, places) for v in numbers})
                   < len(set(numbers)) for numbers in points)

    decimals = point_decimals(v for numbers in points for v in numbers)
    while decimals < MAX_DECIMALS and alike(decimals):
        decimals += 1
    return decimals


def column_texts(values: Sequence[object], column: str = "",
                 lows: Sequence[object] | None = None, highs: Sequence[object] | None = None,
                 shares: Sequence[bool] | None = None, decimals: int | None = None) -> list[str]:
    """A table's column as text, one format for the whole column: every point
    (``is_points``) with the same decimals (``decimals``, by default ``column_decimals``),
    each value with its interval "estimate [low, high]" where ``lows`` and ``highs`` are given,
    and the rows ``shares`` flags as percentages. Every table goes through here
    (``tables.display_frame``)."""
    rows = _rows(values, column, lows, highs, shares)
    if decimals is None:
        decimals = column_decimals(values, column, lows, highs, shares)
    texts = []
    for value, low, high, share in rows:
        cell = _text(value, column, share, decimals)
        if not cell or low is None or high is None:
            texts.append(cell)
            continue
        numbers = [v for v in (value, low, high) if isinstance(v, float)]
        if len(numbers) == 3 and all(math.isfinite(v) for v in numbers):
            if numbers[0] == numbers[1] == numbers[2]:
                texts.append(f"{cell} (no spread)")
                continue
            if share or not is_points(value, column):  # shares, counts: more digits if alike
                bounds = [_text(v, column, share, decimals) for v in numbers]
                digits = 3
                while len(set(bounds)) < len(set(numbers)) and digits < 10:
                    digits += 1
                    bounds = [percent(v, digits) if share or is_share(column)
                              else f"{v:.{digits}g}" for v in numbers]
                texts.append(format_interval(*bounds))
                continue
        bounds = [format_points(v, decimals) if isinstance(v, float) and math.isfinite(v)
                  else _text(v, column, share, decimals) for v in (low, high)]
        texts.append(format_interval(cell, *bounds))
    return texts
