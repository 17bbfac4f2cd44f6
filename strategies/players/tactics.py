"""The heuristic's rules of thumb, as a Python face over the one compiled copy in
``strategies.policies`` (``chances``, ``bids``, ``cards``).

The reasoning (the chance that a card holds, each card's chance of a trick, the trick
distribution, the calibration of the estimates, the card to play with its keepers, ducking and
Joker leads, the suit to name) is written once, compiled, in ``strategies.policies``, where the
batch engine's ``strong`` runs it at millions of decisions a second. The functions here call it
from Python values (a ``Holding`` to bid with; the hand, the legal cards, the trick, the cards
still unseen and what the seat plays for, made into a ``CardPosition``), so that they serve both
``HeuristicStrategy``, which reads an ``Observation``, and the playouts of the search strategies,
which read a ``Game`` directly.
What a seat plays for (the tricks still worth aiming at, how keen the others are) is the compiled
``policies.cards.aims`` too, which ``Rules.aims`` asks from the bids and tricks taken. What stays
here is the Python side of the bidding: the variant read once (``Rules``: score tables), the best
bid under a table and the premium's stake.

The play rules (``policies.cards.choose_play``): while short of the bid, the seat plans to take its
tricks with its ``need`` likeliest winners (the keepers) and treats the other cards as spare. It
wins a trick as cheaply as holds up (the last to play with its lowest winning card; earlier with
the card most likely to stay on top, ruffing low), sheds spare cards highest first when it cannot
win, and leads spare losers while its sure winners cover the bid. At its bid it ducks with the
most dangerous card that cannot win, discards the most dangerous card when void, and leads the
card least likely to win. Whether a card holds depends on who still wants tricks: players short
of their bid overtake when they can, the others only when they must. The Joker is kept: played
high when every remaining trick is needed or when it is the last card, low to get out of a trick
every other card would take, and led only when every trick is needed (with the demand that helps
the rest of the hand: "highest trumps", "highest <suit>"; declared as a card where only that
does it) or low to lose.
"""

from __future__ import annotations

import numpy as np
from raspis.engine.actions import Play
from raspis.engine.core import rules as core
from raspis.engine.core import scoring as core_scoring
from raspis.engine.core.codes import CALL_CODES, CARD_OPTION, OPTION_INDEX, call_value
from raspis.engine.core.plan import TWO_JOKERS_CODES
from raspis.engine.core.rules import TWO_JOKERS_FIRST_WINS, nameable_cards
from raspis.engine.game import Phase
from raspis.engine.variant import Variant

from ..policies import bids as bid_policy
from ..policies import cards as card_policy
from ..policies import chances as chance_policy
from ..policies.cards import Aims, CardPosition, Trick
from ..policies.chances import Holding, PlayRules
from .twin import action_of

#: One ``Play`` record per card, built once.
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in range(54))

#: A Joker play: (card, call, suit, rank), the rank that of a card the Joker is declared as
#: (``joker.as_card``; 0 for the other calls, which are the ones the heuristic plays).
JokerPlay = tuple[int, str, int, int]


class Rules:
    """What the heuristic needs to know of a variant, read once (``rules_for`` caches it)."""

    __slots__ = ("variant", "deck", "must_trump", "two_jokers", "first_wins", "trump_wins",
                 "circular", "lead_fine", "nameable", "play", "dealer_leads", "aimed", "kinds",
                 "table", "scales", "tables", "arrays", "arrays_of")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.deck = variant.deck_mask
        self.must_trump = variant.play.must_trump
        self.two_jokers = TWO_JOKERS_CODES[variant.joker.two_jokers]
        self.first_wins = self.two_jokers == TWO_JOKERS_FIRST_WINS
        self.trump_wins = variant.joker.demand_trumped == "trump_wins"
        self.circular = variant.trump.mode == "circular"
        self.lead_fine = variant.joker.lead_fine
        #: the cards a Joker may be declared as (``RulePlan.nameable``; 0 without ``as_card``)
        self.nameable = nameable_cards(self.deck) if variant.joker.as_card else 0
        #: the rules of play as the compiled policy reads them
        self.play = PlayRules(self.circular, self.must_trump, self.two_jokers, self.lead_fine,
                              self.nameable)
        self.dealer_leads = variant.play.first_lead == "dealer"
        self.kinds = variant.kinds
        self.table = variant.scoring
        self.aimed: dict[tuple, Aims] = {}
        self.scales: dict[tuple[int, int, bool], float] = {}
        self.tables: dict[tuple[str, int], list[list[int]]] = {}
        self.arrays: dict[tuple[str, int], np.ndarray] = {}
        self.arrays_of: dict[tuple[int | None, ...], np.ndarray] = {}

    def points_array(self, kind: str, tricks: int) -> np.ndarray:
        """``points_array(kind, tricks)[bid + 1, taken]``: the deal points under the variant's
        table (row 0: no bid), the table the plan holds (``engine.core.scoring.points_table``)."""
        key = (kind, tricks)
        array = self.arrays.get(key)
        if array is None:
            array = self.arrays[key] = core_scoring.points_table(self.kinds[kind], tricks,
                                                                 self.table)
        return array

    def points(self, kind: str, tricks: int) -> list[list[int]]:
        """``points(kind, tricks)[bid][taken]``: the deal points under the variant's table (a
        kind without bidding: the same row for every bid)."""
        key = (kind, tricks)
        table = self.tables.get(key)
        if table is None:
            array = self.points_array(kind, tricks)
            if self.kinds[kind].bidding == "none":
                table = [array[0].tolist() for _ in range(tricks + 1)]
            else:
                table = array[1:].tolist()
            self.tables[key] = table
        return table

    def scale(self, players: int, hand_size: int, trump: bool) -> float:
        """Calibration of ``estimate_tricks``: the raw estimates of all the hands of a deal should
        add up to the tricks of the deal on average. Worked out once per (players, hand size,
        trump or not) from 64 deals drawn with a fixed seed (``policies.chances.calibrate``, the
        same scale ``strong`` uses), so it is the same on every run."""
        key = (players, hand_size, trump)
        cached = self.scales.get(key)
        if cached is not None:
            return cached
        # the value depends on nothing else of the variant than what this key holds (the deck in
        # its order, and the three rules ``estimate_tricks`` reads), so variants that agree on
        # these (a game's own copy of a preset, every game of an option mix) work it out once
        cards = list(self.variant.deck_cards)
        shared = (tuple(cards), self.deck, self.two_jokers, self.circular, self.must_trump, *key)
        cached = _SCALES.get(shared)
        if cached is not None:
            self.scales[key] = cached
            return cached
        value = float(chance_policy.calibrate(np.array(cards, dtype=np.int64), players, hand_size,
                                        bool(trump), self.play,
                                        players * 1000 + hand_size * 2 + trump))
        self.scales[key] = _SCALES[shared] = value
        return value

    def aims(self, kind: str, tricks: int, order: tuple[int, ...], bids: tuple[int | None, ...],
             taken: tuple[int, ...], seat: int, remaining: int,
             staked: bool = False) -> Aims:
        """(``need``: how many more tricks to aim for, the number that scores best under the
        deal's table, or exactly the bid while ``staked``; ``keen``: the share of the other
        players still wanting tricks; ``cliff``: whether the deal has bids to make) for ``seat``
        in a deal of ``kind`` playing ``tricks`` tricks: ``policies.cards.aims``, ``strong``'s
        own rule, from the bids (None: none) and tricks taken by seat, the seats taking part
        (``order``) and the seat's ``remaining`` cards. Cached (a bounded cache)."""
        key = (kind, tricks, order, bids, taken, seat, remaining, staked)
        cached = self.aimed.get(key)
        if cached is not None:
            return cached
        if len(self.aimed) >= AIMS_CACHED:
            self.aimed.clear()
        bidding = self.kinds[kind].bidding != "none"
        bid = bids[seat]
        row = self.points_array(kind, tricks)[bid + 1 if bidding and bid is not None else 0]
        need, keen, cliff = card_policy.aims(row, bidding, staked, self.ints(order),
                                             self.ints(bids), self.ints(taken), seat, remaining)
        cached = self.aimed[key] = Aims(int(need), float(keen), bool(cliff))
        return cached

    def ints(self, values: tuple[int | None, ...]) -> np.ndarray:
        """``values`` as an int64 array (None as -1), kept for the next time (the order and the
        bids stay the same all deal long; a bounded cache)."""
        array = self.arrays_of.get(values)
        if array is None:
            if len(self.arrays_of) >= AIMS_CACHED:
                self.arrays_of.clear()
            array = self.arrays_of[values] = np.array(
                [-1 if value is None else value for value in values], dtype=np.int64)
        return array


#: At most this many ``Rules.aims`` answers are kept (then the cache starts afresh).
AIMS_CACHED = 1 << 16
_RULES: dict[int, Rules] = {}
#: ``Rules.scale`` by everything it depends on (see there), shared by all ``Rules``
_SCALES: dict[tuple, float] = {}


def rules_for(variant: Variant) -> Rules:
    """The cached ``Rules`` of ``variant``."""
    rules = _RULES.get(id(variant))
    if rules is None or rules.variant is not variant:
        rules = _RULES[id(variant)] = Rules(variant)
    return rules


# -- play ----------------------------------------------------------------------------------------


def joker_calls(jokers: tuple[JokerPlay, ...] | list[JokerPlay]) -> tuple[int, int]:
    """(the Jokers among ``jokers``' cards as a mask, their legal options as a ``codes.OPTIONS``
    mask) of a list of legal Joker plays (card, call, suit, rank)."""
    cards = calls = 0
    for card, call, suit, _ in jokers:
        cards |= 1 << card
        option = CARD_OPTION if call == "card" else int(OPTION_INDEX[CALL_CODES[call], suit + 1])
        calls |= 1 << option
    return cards, calls


def trick_view(rules: Rules, trick: tuple | list, led: int, trick_trump: int) -> Trick:  # noqa: ANN001
    """The trick under way (its records) as the card play reads it (``cards.Trick``): its led
    suit and trump, its length, the key of the card leading it (``rules.card_key``) and whether
    trumps beat a led Joker's demand, by ``rules.trick_best``, which the machine reads its trick
    slots with (``machine.trick_lead``)."""
    if not trick:
        return Trick(led, trick_trump, 0, -1, False)
    cards = np.array([entry.card for entry in trick], dtype=np.int64)
    calls = np.array([call_value(entry.call, entry.suit, entry.rank) for entry in trick],
                     dtype=np.int64)
    suits = np.array([entry.suit for entry in trick], dtype=np.int64)
    _, best, beats = core.trick_best(cards, calls, suits, len(trick), led, trick_trump,
                                     rules.trump_wins, rules.two_jokers, -1)
    return Trick(led, trick_trump, len(trick), int(best), bool(beats))


def choose_play(rules: Rules, hand: int, legal: int, jokers: tuple[JokerPlay, ...], trick: Trick,
                trump: int, players: int, aims: Aims, unseen: int, others_cards: int) -> Play:
    """The heuristic's card: ``cards.choose_play``, the compiled card play of ``strong``.

    ``legal`` (mask) and ``jokers`` (card, call, suit, rank) are the legal plays; ``trick`` the
    trick under way (``trick_view``); ``trump`` the deal's; ``players`` how many play this deal;
    ``aims`` what the seat plays for (``Rules.aims``: the tricks still wanted, the share of the
    others still wanting tricks, who overtake when they can while the others do only when they
    must, and whether missing one wanted trick loses the deal's bid); ``unseen`` the cards the
    seat has not seen (in other hands, the stock or forgotten tricks); ``others_cards`` how many
    cards the other players hold together.
    """
    joker_cards, calls = joker_calls(jokers)
    position = CardPosition(hand, legal | joker_cards, calls, trump, players, unseen,
                            others_cards, trick, aims, rules.play)
    code = int(card_policy.choose_play(position))
    return PLAYS[code] if code < 52 else action_of(code, Phase.PLAY)  # type: ignore[return-value]


# -- bidding ---------------------------------------------------------------------------------


def card_chances(holding: Holding) -> list[float]:
    """The chance of each source of a trick in ``holding``'s hand: Jokers and top trumps nearly 1,
    a lower card the chance that the unseen cards above it fall under the hand's own, side-suit
    cards discounted for ruffs, spare trumps for ruffing (``chances.card_chances``)."""
    out = np.empty(64, dtype=np.float64)
    count = chance_policy.card_chances(holding, out)
    return out[:count].tolist()  # type: ignore[no-any-return]


def estimate_tricks(holding: Holding) -> float:
    """Expected tricks of ``holding``'s hand: the sum of its ``card_chances`` (at most the hand
    size; ``chances.estimate``)."""
    return float(chance_policy.estimate(holding))


def trick_distribution(chances: list[float], hand_size: int, scale: float = 1.0) -> list[float]:
    """P(taking t tricks) for t = 0..hand_size, each source winning independently with its chance
    times ``scale`` (at most 1): a Poisson-binomial distribution, more sources than tricks piling
    up on the last entry (``policies.chances.trick_distribution``)."""
    values = np.asarray(chances, dtype=np.float64)
    out = np.empty(hand_size + 1, dtype=np.float64)
    chance_policy.trick_distribution(values, len(values), float(scale), hand_size, out)
    return out.tolist()  # type: ignore[no-any-return]


def points_table(rules: Rules, kind: str, hand_size: int) -> list[list[int]]:
    """``table[bid][taken]``: the deal points under the variant's own table (cached)."""
    return rules.points(kind, hand_size)


def best_bid(
    distribution: list[float] | dict[int, list[float]],
    legal_bids: list[int] | tuple[int, ...],
    table: list[list[int]] | list[list[float]],
) -> tuple[int, dict[int, float]]:
    """The legal bid with the highest expected deal points, and every legal bid's expectation.

    ``distribution[t]`` is the chance of taking ``t`` tricks, the same whatever the bid, or, as a
    dict, one distribution per bid (how the seat plays depends on its bid); ``table[bid][taken]``
    the points (``points_table``, a premium's stake already added: ``staked_table``). Ties go to
    the lower bid. The choice is ``policies.bids.best_bid``, ``strong``'s own.
    """
    rows = len(table)
    width = max(len(row) for row in table)
    points = np.zeros((rows, width), dtype=np.float64)
    for bid, row in enumerate(table):
        points[bid, :len(row)] = row
    distributions = np.zeros((rows, width), dtype=np.float64)
    legal = 0
    for bid in legal_bids:
        chances = distribution[bid] if isinstance(distribution, dict) else distribution
        distributions[bid, :len(chances)] = chances
        legal |= 1 << bid
    values = np.zeros(rows, dtype=np.float64)
    best = int(bid_policy.best_bid(distributions, legal, points, np.zeros(rows, dtype=np.float64),
                               values))
    return best, {bid: float(values[bid]) for bid in legal_bids}


def premium_stake(rules: Rules, best: int | None, made_points: int, later_bids: int,
                  odds: float) -> float:
    """What making this deal's bid is worth on top of its points to a seat that has made every
    bid of its premium span so far (002's «премия»): the premium (``fixed``: its points;
    ``best_deal``: the best deal of the span, this one made included), times ``odds`` for each of
    the ``later_bids`` bids of the span still to come (a chance of making each, or 1 for the whole
    premium, which measured best: docs/strength.md). Missing the bid loses it. The premium is the
    core's rule (``engine.core.scoring.premium``), as in ``strong``'s stake."""
    table = rules.table
    best_deal = made_points if best is None else max(best, made_points)
    amount = core_scoring.premium(core_scoring.PREMIUM_CODES[table.premium], best_deal,
                                  table.premium_points)
    return float(amount) * odds ** later_bids


def staked_table(table: list[list[int]], stakes: list[float]) -> list[list[float]]:
    """``table[bid][taken]`` with ``stakes[bid]`` added where the bid is made (taken == bid)."""
    return [[points + (stakes[bid] if taken == bid else 0.0) for taken, points in enumerate(row)]
            for bid, row in enumerate(table)]


def nearest_bid(estimate: float, legal: list[int] | tuple[int, ...]) -> int:
    """The legal bid nearest ``estimate`` (rounded half down: a lower bid when equally near)."""
    return min(legal, key=lambda bid: (abs(bid - estimate), bid))


def name_trump_suit(first_cards: int) -> int:
    """The suit to name from the first cards seen: the longest, then the highest
    (``policies.bids.name_trump_suit``)."""
    return int(bid_policy.name_trump_suit(first_cards))
