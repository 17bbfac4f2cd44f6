"""The measures of the balance profile: what players argue about, in units the scoring cannot move.

A rule change that doubles a fine changes what a point is, so a difference in points between two
scoring tables says little. The profile measures the game in probabilities, shares and counts of
deals instead, grouped by the question a player asks (``GROUPS``):

- **fair**: each position's chance to win a game against 1/n (``win_chance[p]``), the largest of
  those edges (``seat_edge``: Ludii's Balance and AdvantageP1, the TabletopGames competition's
  first-player advantage), and the dealer's chance to score the most in a deal against 1/n
  (``dealer_top``);
- **skill**: the better player's chance to finish ahead of the weaker in a game (``ahead[A>B]``,
  each pair of the lineup, the strongest against the weakest first: TAG's win-rate matrix of
  agents of graded strength, Jaffe et al. 2012's restricted play), the share of the variance of
  finishing places the strategies explain (``place_share``), and the deal sets a duplicate match
  needs for the best strategy to beat the runner-up 95% of the time (``match_length``, the score
  model of ``luck``; Duersch, Lambrecht and Oechssler 2020 measure skill by how fast it shows);
- **luck**: the share of the variance of places the cards explain (``cards_share``: the duplicate
  cells, a deal set's seat, which hold the same cards under every seating) and the weakest
  player's chance to win a game (``weakest_wins``);
- **drama**: lead changes per game (Ludii's LeadChange), games won from behind with a third of
  the deals left (``comeback_share``, Ludii's Drama), games decided before the last deal
  (``decided_share``: no play of the remaining deals could change the winner, Ludii's
  Decisiveness), shared first places (``tie_share``);
- **bidding**: the shares of bids made, overshot, short, and passes.

Every measure is a ``Statistic`` of per-cluster totals (``estimates``; a cluster is a block of
deal sets, ``blocks``), so a profile has the intervals and the paired differences of every other
statistic, and its totals add up deal set by deal set. Multiplying every score of a run by a
constant changes none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import polars as pl
from raspis.tournament.schema import TOP_UNITS

from .estimates import Statistic, difference_of_ratios, ratio
from .intervals import normal_ppf

#: The profile's groups, in the order a report shows them.
GROUPS = ("fair", "skill", "luck", "drama", "bidding")

#: The question each group answers, as a report's heading.
GROUP_QUESTIONS = {
    "fair": "Is it fair?",
    "skill": "Does the better player win?",
    "luck": "How much is luck?",
    "drama": "Does it stay exciting?",
    "bidding": "How do the bids end?",
}

#: The words for a measurable change of a group's quality: (more of it, less of it).
GROUP_WORDS = {
    "fair": ("fairer", "less fair"),
    "skill": ("more skill", "less skill"),
    "luck": ("more luck", "less luck"),
    "drama": ("more drama", "less drama"),
    "bidding": ("other bid outcomes", "other bid outcomes"),
}

#: Where each measure comes from (docs/analysis.md explains each in a line).
SOURCES = {
    "win_chance": "Ludii's AdvantageP1; the TabletopGames balancing competition",
    "seat_edge": "Ludii's Balance",
    "dealer_top": "the dealer's edge of the hook question, in chances",
    "ahead": "TAG's win-rate matrix; Jaffe et al. 2012 (restricted play)",
    "place_share": "the variance share of luck.variance_explained, over places",
    "match_length": "Duersch, Lambrecht and Oechssler 2020; luck's score model",
    "cards_share": "the duplicate cells of luck.variance_explained, over places",
    "weakest_wins": "TAG's win-rate matrix (the weakest agent's row)",
    "lead_changes": "Ludii's LeadChange",
    "comeback_share": "Ludii's Drama",
    "decided_share": "Ludii's Decisiveness",
    "tie_share": "Ludii's Drawishness",
}

#: The chance the better side must reach in a match (``luck.TARGET``).
MATCH_TARGET = 0.95


def strategy_column(name: str) -> str:
    """A strategy's name as part of a column name."""
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def pair_column(first: str, second: str) -> str:
    """The column stem of a pair of strategies."""
    return f"{strategy_column(first)}__{strategy_column(second)}"


def base_name(statistic: str) -> str:
    """``ahead[a>b]`` -> ``ahead``: a measure's name without its subject."""
    return statistic.split("[")[0]


# -- totals --------------------------------------------------------------------------------------


def pairs_of(order: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs of strategies the skill group reads, the better first: the strongest against
    the weakest, then every other pair in the lineup's order of strength."""
    if len(order) < 2:
        return []
    rest = [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))]
    first = (order[0], order[-1])
    return [first, *[pair for pair in rest if pair != first]]


def top_credit() -> pl.Expr:
    """Each per-deal row's share of its deal's top score, in ``TOP_UNITS``: ``TOP_UNITS / k`` for
    each of the k seats with the deal's most points (the rows' counterpart of
    ``deal_stats.top_credit``)."""
    deal = ["variant_hash", "game_id", "deal_index"]
    top = pl.col("points") == pl.col("points").max().over(deal)
    shared = top.cast(pl.Int64).sum().over(deal)
    return pl.when(top).then(TOP_UNITS // shared).otherwise(0).alias("top_credit")


def deal_aggregations(count: pl.Expr, credit: pl.Expr, passes: pl.Expr) -> list[pl.Expr]:
    """The profile's deal-level totals per cluster, over rows where ``count`` is each row's
    seat-deals, ``credit`` its ``top_credit`` and ``passes`` its bids of 0 (per-deal rows or
    ``deal_stats`` sums): the dealer's deals and deals topped, the same for a holder of the
    (first) Joker alone and a seat with none, and the passes."""
    dealer = pl.col("dealer_offset") == 0
    held1, held2 = pl.col("held_joker1"), pl.col("held_joker2")
    none, alone = ~held1 & ~held2, held1 & ~held2
    units = credit.cast(pl.Float64) / TOP_UNITS
    recorded = credit.is_not_null().all()  # a run written before top_credit: no such totals

    def topped(where: pl.Expr, name: str) -> pl.Expr:
        return pl.when(recorded).then(units.filter(where).sum()).otherwise(float("nan")).alias(
            name)

    return [
        count.filter(dealer).sum().alias("dealer_deals"),
        topped(dealer, "dealer_top"),
        topped(none, "none_top"),
        topped(alone, "joker_top"),
        passes.sum().alias("passes"),
    ]


# -- the measures --------------------------------------------------------------------------------


def _largest_edge(players: int) -> Callable[[np.ndarray], float]:
    def edge(t: np.ndarray) -> float:
        chances = np.stack([t[..., 2 * p] / t[..., 2 * p + 1] for p in range(players)], axis=-1)
        return np.abs(chances - 1.0 / players).max(axis=-1)

    return edge


def _variance_share(count: int) -> Callable[[np.ndarray], float]:
    """Between-groups over total sum of squares, from (n, Σx, Σx², then n_k, Σx_k per group)."""
    def share(t: np.ndarray) -> float:
        n, s, q = t[..., 0], t[..., 1], t[..., 2]
        grand = s * s / n
        between = sum(t[..., 3 + 2 * k + 1] ** 2 / t[..., 3 + 2 * k] for k in range(count))
        return (between - grand) / (q - grand)

    return share


def _cells_share(t: np.ndarray) -> float:
    n, s, q, cells, single = (t[..., index] for index in range(5))
    grand = s * s / n
    share = (cells - grand) / (q - grand)
    return np.where(single == 0, share, np.nan)  # a cell of one seat-game: no duplicate


def _match_length(t: np.ndarray) -> float:
    mean, square = t[..., 0] / t[..., 2], t[..., 1] / t[..., 2]  # per deal set
    variance = np.maximum(square - mean * mean, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        length = normal_ppf(MATCH_TARGET) ** 2 * variance / (mean * mean)
    return np.where(mean > 0, length, np.inf)


def profile_statistics(order: Sequence[str], players: int, duplicate: bool) -> list[Statistic]:
    """The profile's measures for a lineup whose strategies, strongest first, are ``order``, at
    ``players``; ``duplicate``: the deal sets were replayed under several seatings (the cards'
    share and the duplicate match need it)."""
    fair = 1.0 / players
    roles = {0: " (the first dealer)", 1: " (bids first in the first deal)"}
    chosen: list[Statistic] = []
    for position in range(players):
        chosen.append(Statistic(
            f"win_chance[{position}]", f"position {position}{roles.get(position, '')}'s chance "
            "to win a game", "(share of games)", (f"wc_p{position}", f"n_p{position}"), ratio(0, 1),
            group="fair", reference=fair, toward=0))
    edge_columns = tuple(column for position in range(players)
                         for column in (f"wc_p{position}", f"n_p{position}"))
    chosen += [
        Statistic("seat_edge", "the largest seat edge (a position's chance to win minus 1/n)",
                  "(share of games)", edge_columns, _largest_edge(players), group="fair",
                  reference=0.0, toward=-1, curved=True),
        Statistic("dealer_top", "the dealer's chance to score the most in a deal",
                  "(share of deals)",
                  ("dealer_top", "dealer_deals"), ratio(0, 1), "deals", group="fair",
                  reference=fair, toward=0),
    ]
    for first, second in pairs_of(order):
        stem = pair_column(first, second)
        chosen.append(Statistic(
            f"ahead[{first}>{second}]", f"{first}'s chance to finish ahead of {second}",
            "(share of games)", (f"ah_{stem}", f"pg_{stem}"), ratio(0, 1), group="skill",
            reference=0.5, toward=1))
    if len(order) >= 2:
        columns = ["seat_games", "place_sum", "place_sq"]
        for name in order:
            columns += [f"n_{strategy_column(name)}", f"pl_{strategy_column(name)}"]
        chosen.append(Statistic(
            "place_share", "the share of the variance of places the strategies explain",
            "(share)", tuple(columns), _variance_share(len(order)), group="skill", toward=1,
            curved=True))
        unit = "deal sets" if duplicate else "games"
        chosen.append(Statistic(
            "match_length", f"the {unit} a match needs for {order[0]} to beat {order[1]} 95% "
            "of the time", unit, ("match_d", "match_d2", "deal_sets"), _match_length, group="skill",
            toward=-1, curved=True))
    if duplicate:
        chosen.append(Statistic(
            "cards_share", "the share of the variance of places the cards explain", "(share)",
            ("seat_games", "place_sum", "place_sq", "cell_ss", "cell_single"), _cells_share,
            group="luck", toward=1, curved=True))
    if len(order) >= 2:
        weakest = strategy_column(order[-1])
        chosen.append(Statistic(
            "weakest_wins", f"{order[-1]}'s chance to win a game (the weakest player)",
            "(share of games)", (f"wc_{weakest}", f"n_{weakest}"), ratio(0, 1), group="luck",
            reference=fair, toward=1))
    chosen += [
        Statistic("comeback_share", "the share of games won from behind with a third of the "
                  "deals left", "(share of games)", ("comebacks", "drama_games"), ratio(0, 1),
                  group="drama", toward=1),
        Statistic("decided_share", "the share of games decided before the last deal",
                  "(share of games)", ("decided", "drama_games"), ratio(0, 1), group="drama",
                  toward=-1),
        Statistic("pass_share", "the share of bids that are passes (0)", "(share of bids)",
                  ("passes", "bids"), ratio(0, 1), "deals", group="bidding", toward=0),
    ]
    return chosen


def joker_top() -> Statistic:
    """The Joker's value as a chance: a seat holding the (first) Joker alone scores the most in
    its deal this much more often than a seat holding none."""
    return Statistic("joker_top", "the chance to score the most in a deal when holding the "
                     "(first) Joker, minus holding none", "(share of deals)",
                     ("joker_top", "joker_n", "none_top", "none_n"),
                     difference_of_ratios(0, 1, 2, 3), "deals", reference=0.0, toward=0)


#: The measures ``compare`` already had that the profile takes into its groups: name -> (group,
#: toward).
ADOPTED = {
    "lead_changes": ("drama", 1),
    "tie_share": ("drama", 0),
    "made_share": ("bidding", 0),
    "over_share": ("bidding", 0),
    "under_share": ("bidding", 0),
}
