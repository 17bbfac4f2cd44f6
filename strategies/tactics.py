"""Rules of thumb for card play and bidding, on bitmasks: the fast core of the heuristic strategy.

The functions here decide from plain values (hand, legal cards, the current trick, the cards still
unseen, how many more tricks the seat wants) so that they serve both ``HeuristicStrategy.act``,
which reads an ``Observation``, and the playouts of the search strategies, which read a ``Game``
directly. A decision takes a few tens of microseconds.

The play rules (``choose_play``): while short of the bid, the seat plans to take its tricks with
its ``need`` likeliest winners (the keepers) and treats the other cards as spare. It wins a trick
as cheaply as holds up (the last to play with its lowest winning card; earlier with the card most
likely to stay on top, ruffing low), sheds spare cards highest first when it cannot win, and leads
spare losers while its sure winners cover the bid. At its bid it ducks with the most dangerous
card that cannot win, discards the most dangerous card when void, and leads the card least likely
to win (dumping high cards while they are still safe). Whether a card holds depends on who still
wants tricks: players short of their bid overtake when they can, the others only when they must
(``_Table.beaten``). The Joker takes or gives away a trick whenever it is played, so it is kept:
played high when every remaining trick is needed or when it is the last card, low to get out of a
trick every other card would take, and led only when every trick is needed (with the demand that
helps the rest of the hand: "highest trumps", "highest <suit>") or low to lose.
"""

from __future__ import annotations

import random
from math import comb

from raspis.engine.actions import Play
from raspis.engine.cards import ABOVE, BELOW, JOKER_MASK, SUIT_MASKS
from raspis.engine.core import rules as core
from raspis.engine.core.codes import CALL_HIGH, call_value
from raspis.engine.core.plan import TWO_JOKERS_CODES
from raspis.engine.core.rules import TWO_JOKERS_FIRST_WINS
from raspis.engine.scoring import deal_points
from raspis.engine.variant import Variant

#: Suit of each card id (-1 for the Jokers).
SUIT: tuple[int, ...] = tuple(card // 13 if card < 52 else -1 for card in range(54))
#: One ``Play`` record per card, built once.
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in range(54))
LOW_CALLS = frozenset(("low", "lowest"))

#: A Joker play: (card, call, suit, rank), the rank that of a card the Joker is declared as
#: (``joker.as_card``; 0 for the other calls, which are the ones the heuristic plays).
JokerPlay = tuple[int, str, int, int]


class Rules:
    """What the heuristic needs to know of a variant, read once (``rules_for`` caches it)."""

    __slots__ = ("variant", "deck", "must_trump", "two_jokers", "trump_wins", "circular",
                 "lead_fine", "dealer_leads", "goals", "kinds", "table", "scales", "tables")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.deck = variant.deck_mask
        self.must_trump = variant.play.must_trump
        self.two_jokers = TWO_JOKERS_CODES[variant.joker.two_jokers]
        self.trump_wins = variant.joker.demand_trumped == "trump_wins"
        self.circular = variant.trump.mode == "circular"
        self.lead_fine = variant.joker.lead_fine
        self.dealer_leads = variant.play.first_lead == "dealer"
        self.kinds = variant.kinds
        self.table = variant.scoring
        self.goals: dict[tuple[str, int | None, int, int, int], int] = {}
        self.scales: dict[tuple[int, int, bool], float] = {}
        self.tables: dict[tuple[str, int], list[list[int]]] = {}

    def points(self, kind: str, hand_size: int) -> list[list[int]]:
        """``points(kind, hand_size)[bid][taken]``: the deal points under the variant's table."""
        key = (kind, hand_size)
        table = self.tables.get(key)
        if table is None:
            options = self.kinds[kind]
            bidding = options.scoring != "per_trick"
            table = self.tables[key] = [
                [deal_points(bid if bidding else None, taken, hand_size, options, self.table)
                 for taken in range(hand_size + 1)]
                for bid in range(hand_size + 1)
            ]
        return table

    def scale(self, players: int, hand_size: int, trump: bool) -> float:
        """Calibration of ``estimate_tricks``: the raw estimates of all the hands of a deal should
        add up to the tricks of the deal on average. Worked out once per (players, hand size,
        trump or not) from 64 deals drawn with a fixed seed, so it is the same on every run."""
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
        generator = random.Random(players * 1000 + hand_size * 2 + trump)
        total = 0.0
        deals = 64
        for _ in range(deals):
            generator.shuffle(cards)
            suit = -1
            if trump:
                suit = generator.randrange(4)
            for seat in range(players):
                hand = 0
                for card in cards[seat * hand_size:(seat + 1) * hand_size]:
                    hand |= 1 << card
                total += estimate_tricks(self, hand, suit, hand_size, players, seat == 0,
                                         self.deck & ~hand)
        value = hand_size * deals / total if total > 0 else 1.0
        value = self.scales[key] = _SCALES[shared] = min(2.0, max(0.5, value))
        return value

    def need(self, kind: str, bid: int | None, taken: int, remaining: int, hand_size: int) -> int:
        """How many more tricks to aim for: the number that scores best under the deal's table
        (0: take no more; ``remaining``: take all). Bid k short of k: k; at the bid: 0; already
        over, or hopelessly short: as many as possible when each trick still scores."""
        key = (kind, bid, taken, remaining, hand_size)
        cached = self.goals.get(key)
        if cached is not None:
            return cached
        options = self.kinds[kind]
        best, best_points = 0, None
        for extra in range(remaining + 1):
            points = deal_points(bid if options.scoring != "per_trick" else None, taken + extra,
                                 hand_size, options, self.table)
            if best_points is None or points > best_points:
                best, best_points = extra, points
        self.goals[key] = best
        return best


_RULES: dict[int, Rules] = {}
#: ``Rules.scale`` by everything it depends on (see there), shared by all ``Rules``
_SCALES: dict[tuple, float] = {}


def rules_for(variant: Variant) -> Rules:
    """The cached ``Rules`` of ``variant``."""
    rules = _RULES.get(id(variant))
    if rules is None or rules.variant is not variant:
        rules = _RULES[id(variant)] = Rules(variant)
    return rules


_AT_MOST: dict[tuple[int, int, float], float] = {}


def at_most(count: int, chance: float, limit: int) -> float:
    """P(Binomial(count, chance) <= limit)."""
    if limit >= count:
        return 1.0
    if limit < 0:
        return 0.0
    key = (count, limit, round(chance, 3))
    value = _AT_MOST.get(key)
    if value is None:
        p = key[2]
        value = sum(comb(count, j) * p ** j * (1 - p) ** (count - j) for j in range(limit + 1))
        _AT_MOST[key] = value
    return value


# -- play ----------------------------------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def choose_play(
    rules: Rules,
    hand: int,
    legal: int,
    jokers: tuple[JokerPlay, ...],
    trick: tuple | list,
    led: int,
    trick_trump: int,
    trump: int,
    players: int,
    need: int,
    unseen: int,
    others_cards: int,
    keen: float = 0.5,
    cliff: bool = True,
) -> Play:
    """The heuristic's card.

    ``legal`` (mask) and ``jokers`` (card, call, suit, rank) are the legal plays; ``players`` how
    many play this deal; ``need`` the tricks still wanted; ``unseen`` the cards the seat has not
    seen (in other hands, the stock or forgotten tricks); ``others_cards`` how many cards the other
    players hold together; ``keen`` the share of them still wanting tricks (they overtake when they
    can, the others only when they must); ``cliff``: missing one wanted trick loses the deal's bid
    (a bid deal), as opposed to a golden deal where each trick simply counts.
    """
    table = _Table(rules, unseen, others_cards, players, keen)
    if not trick:
        return _lead(table, rules, hand, legal, jokers, trump, need, cliff)
    return _follow(table, rules, hand, legal, jokers, trick, led, trick_trump, players, need, cliff)


class _Table:
    """What the seat can estimate about the other hands for one decision."""

    __slots__ = ("unseen", "count", "each", "opponents", "keen", "must_trump", "jokers_out",
                 "suit_share")

    def __init__(self, rules: Rules, unseen: int, others_cards: int, players: int, keen: float):
        self.unseen = unseen
        self.count = count = unseen.bit_count() or 1
        self.opponents = max(1, players - 1)
        self.each = max(1.0, others_cards / self.opponents)
        self.keen = keen
        self.must_trump = rules.must_trump
        self.jokers_out = (unseen & JOKER_MASK).bit_count()
        self.suit_share = [(unseen & mask).bit_count() / count for mask in SUIT_MASKS]

    def beaten(self, card: int, trump: int, opponents: int, led: int = -1) -> float:
        """Chance that one of ``opponents`` players still to play takes a trick that ``card``
        is winning (``trump`` the trick's trump, ``led`` its led suit when ``card`` ruffs it):
        keen players overtake whenever they can, the others only when they must."""
        if opponents <= 0:
            return 0.0
        unseen, count, each, keen = self.unseen, self.count, self.each, self.keen
        suit = SUIT[card]
        higher = (unseen & ABOVE[card]).bit_count() / count
        has_higher = 1.0 - (1.0 - higher) ** each if higher else 0.0
        if led >= 0 and led != suit:  # a ruff: beaten by a higher trump from a player void in led
            void = (1.0 - self.suit_share[led]) ** each
            per = void * has_higher
        else:
            lower = (unseen & BELOW[card]).bit_count() / count
            forced = (1.0 - lower) ** each
            per = has_higher * (keen + (1.0 - keen) * forced)
            if trump >= 0 and trump != suit and self.suit_share[trump]:
                void = (1.0 - self.suit_share[suit]) ** each
                ruff = void * (1.0 - (1.0 - self.suit_share[trump]) ** each)
                ruff *= keen + (1.0 - keen) * self.must_trump
                per += ruff - per * ruff
        if self.jokers_out:
            per += (1.0 - per) * keen * min(1.0, self.jokers_out * each / count)
        return 1.0 - (1.0 - per) ** opponents

    def lead_chance(self, card: int, trump: int, circular: bool) -> float:
        """Chance that ``card`` led takes the trick."""
        ruff = (SUIT[card] + 1) % 4 if circular else trump
        return 1.0 - self.beaten(card, ruff, self.opponents)


def _chances(table: _Table, hand: int, trump: int, circular: bool) -> dict[int, float]:
    chances = {}
    for card in _bits(hand & ~JOKER_MASK):
        chances[card] = table.lead_chance(card, trump, circular)
    return chances


def _keepers(chances: dict[int, float], jokers_held: int, need: int) -> set[int]:
    """The ``need`` cards most likely to win, that the seat plans to take its tricks with (the
    Jokers first)."""
    count = need - jokers_held
    if count <= 0:
        return set()
    return set(sorted(chances, key=lambda card: (-chances[card], card % 13))[:count])


def _follow(table: _Table, rules: Rules, hand: int, legal: int, jokers: tuple[JokerPlay, ...],
            trick, led: int, trick_trump: int, players: int, need: int, cliff: bool) -> Play:  # noqa: ANN001
    lead = trick[0]
    two_jokers = rules.two_jokers
    beats = core.trumps_beat_demand(lead.card, call_value(lead.call, lead.suit, lead.rank),
                                    lead.suit, trick_trump, rules.trump_wins)
    best = -1
    for index, entry in enumerate(trick):
        key = core.card_key(entry.card, call_value(entry.call, entry.suit, entry.rank), index,
                            led, trick_trump, beats, two_jokers)
        if key > best:
            best = key
    position = len(trick)
    after = players - 1 - position
    cards = _bits(legal)
    keys = {card: core.card_key(card, 0, position, led if led >= 0 else SUIT[card], trick_trump,
                                beats, two_jokers) for card in cards}
    joker_high = joker_low = None
    for play in jokers:
        if play[1] == "high":
            joker_high = play
        elif play[1] == "low":
            joker_low = play
    high_key = core.card_key(52, CALL_HIGH, position, led, trick_trump, beats, two_jokers)
    remaining = hand.bit_count()
    circular = rules.circular
    if need > 0:
        must_all = cliff and need >= remaining
        winners = [card for card in cards if keys[card] > best]
        chances = _chances(table, hand, trick_trump if not circular else -1, circular)
        keepers = _keepers(chances, (hand & JOKER_MASK).bit_count(), need)
        if winners:
            if after == 0:
                return PLAYS[min(winners, key=keys.__getitem__)]
            holds = {}
            for card in winners:
                ruffing = led if SUIT[card] == trick_trump and led >= 0 else -1
                holds[card] = 1.0 - table.beaten(card, trick_trump, after, ruffing)
            top = max(holds.values())
            if must_all and joker_high is not None and high_key > best and top < 0.9:
                return Play(*joker_high)
            good = [card for card in winners if holds[card] >= top - 0.05]
            choice = min(good, key=keys.__getitem__)
            if top >= 0.3 or choice not in keepers or must_all:
                return PLAYS[choice]
        elif must_all and joker_high is not None and high_key > best:
            return Play(*joker_high)
        if not cards:  # only Jokers left: one of them takes the trick if it can
            if joker_high is not None and high_key > best:
                return Play(*joker_high)
            return Play(*(joker_low or jokers[0]))
        spare = [card for card in cards if card not in keepers]
        if spare and not must_all:
            return PLAYS[max(spare, key=lambda card: (chances.get(card, 0.0), card % 13))]
        return PLAYS[min(cards, key=lambda card: (chances.get(card, 0.0), card % 13))]
    # Ducking: the most dangerous card that cannot win; else the Joker low; else the likeliest
    # to be overtaken.
    losers = [card for card in cards if keys[card] <= best]
    if losers:
        if len(losers) == 1:
            return PLAYS[losers[0]]
        return PLAYS[max(losers, key=lambda card: (
            table.lead_chance(card, trick_trump if not circular else -1, circular), card % 13))]
    if joker_low is not None:
        if after > 0 and cards:
            cheapest = min(cards, key=keys.__getitem__)
            ruffing = led if SUIT[cheapest] == trick_trump and led >= 0 else -1
            if table.beaten(cheapest, trick_trump, after, ruffing) > 0.7:
                return PLAYS[cheapest]
        return Play(*joker_low)
    if not cards:
        return Play(*jokers[0])
    if after == 0:
        return PLAYS[max(cards, key=lambda card: (
            table.lead_chance(card, trick_trump if not circular else -1, circular), card % 13))]
    return PLAYS[min(cards, key=keys.__getitem__)]


def _lead(table: _Table, rules: Rules, hand: int, legal: int, jokers: tuple[JokerPlay, ...],
          trump: int, need: int, cliff: bool) -> Play:
    circular = rules.circular
    win = _chances(table, legal, trump, circular)
    remaining = hand.bit_count()
    fined = rules.lead_fine < 0 and remaining > 1
    if need > 0:
        must_all = need >= remaining
        jokers_held = (hand & JOKER_MASK).bit_count()
        keepers = _keepers(win, jokers_held, need)
        sure = jokers_held + sum(1 for card in keepers if win[card] >= 0.8)
        spare = [card for card in win if card not in keepers]
        if not must_all and sure >= need and spare:
            return _lowest_lead(win, spare)
        best_card = max(win, key=lambda card: (win[card], -(card % 13))) if win else -1
        best = win[best_card] if win else 0.0
        if best_card < 0:
            return _joker_lead(jokers, hand, table.unseen, trump, high=True)
        if jokers and not fined and best < 0.6:
            # The Joker takes a trick whenever it is played, so lead it only when every trick
            # is needed or when its demand sets up the hand's other cards.
            play, gain = _joker_demand(jokers, hand, table.unseen, trump)
            if must_all:
                return play
        if best >= 0.35 or must_all:
            return PLAYS[best_card]
        # Nothing likely to win: lead a singleton to ruff later, else a card that loses anyway.
        if trump >= 0 and not circular and hand & SUIT_MASKS[trump]:
            singles = [card for card in win if SUIT[card] != trump
                       and (hand & SUIT_MASKS[SUIT[card]]).bit_count() == 1]
            if singles:
                return PLAYS[min(singles, key=win.__getitem__)]
        return _lowest_lead(win, spare or list(win))
    if win:
        lowest = min(win, key=lambda card: (win[card], card % 13))
        if not jokers or win[lowest] < (0.6 if fined else 0.25):
            return _lowest_lead(win, list(win))
    return _joker_lead(jokers, hand, table.unseen, trump, high=False)


def _lowest_lead(win: dict[int, float], cards: list[int]) -> Play:
    """A lead meant to lose: among the cards nearly sure to lose, the highest (it gets rid of a
    card that may win later); else the least likely to win."""
    safe = [card for card in cards if win[card] < 0.08]
    if safe:
        return PLAYS[max(safe, key=lambda card: card % 13)]
    return PLAYS[min(cards, key=lambda card: (win[card], card % 13))]


def _joker_demand(jokers: tuple[JokerPlay, ...], hand: int, unseen: int,
                  trump: int) -> tuple[Play, bool]:
    """The best Joker lead to take the trick, and whether its demand sets up other cards: a
    "highest" demand (of trumps or of a suit) where the hand holds two or more cards below one or
    two unseen higher ones, which the demand pulls out."""
    play = _joker_lead(jokers, hand, unseen, trump, high=True)
    suit = trump if play.call == "trumps" else play.suit if play.call == "highest" else -1
    if suit < 0:
        return play, False
    mine = hand & SUIT_MASKS[suit]
    if mine.bit_count() < 2:
        return play, False
    above = (unseen & ABOVE[mine.bit_length() - 1]).bit_count()
    return play, 1 <= above <= 2


def _joker_lead(
    jokers: tuple[JokerPlay, ...], hand: int, unseen: int, trump: int, high: bool
) -> Play:
    """The best way to lead a Joker: to win (with a demand that helps the rest of the hand) or to
    lose (low, in the suit most likely to be followed)."""
    best, best_score = jokers[0], -1e9
    for play in jokers:
        call, suit = play[1], play[2]
        if high:
            if call == "trumps":
                mine = hand & SUIT_MASKS[trump] if trump >= 0 else 0
                above = (unseen & ABOVE[mine.bit_length() - 1]).bit_count() if mine else 0
                score = 30 + 5 * min(above, 3) if mine and above else 5
            elif call == "highest" and suit >= 0:
                mine = hand & SUIT_MASKS[suit]
                if mine:
                    above = (unseen & ABOVE[mine.bit_length() - 1]).bit_count()
                    score = 25 - 6 * abs(above - 1) + mine.bit_count()
                else:
                    score = 2
            elif call == "high":
                score = 10 - (hand & SUIT_MASKS[suit]).bit_count() if suit >= 0 else 10
            else:
                continue
        else:
            if call == "low" and suit < 0:
                score = 100
            elif call in LOW_CALLS:
                mask = SUIT_MASKS[suit]
                score = (unseen & mask).bit_count() - 2 * (hand & mask).bit_count()
            else:
                continue
        if score > best_score:
            best, best_score = play, score
    return Play(*best)


# -- bidding ---------------------------------------------------------------------------------


def card_chances(
    rules: Rules,
    hand: int,
    trump: int,
    hand_size: int,
    players: int,
    leads: bool,
    unseen: int,
) -> list[float]:
    """The chance of each source of a trick in ``hand`` (``hand_size`` cards, ``players`` in the
    deal): Jokers and top trumps nearly 1, a lower card the chance that the unseen cards above it
    fall under the hand's own, side-suit cards discounted for ruffs, spare trumps for ruffing."""
    unseen_count = unseen.bit_count() or 1
    opponents = players - 1
    in_hands = min(1.0, opponents * hand_size / unseen_count)
    jokers_out = (unseen & JOKER_MASK).bit_count()
    chances: list[float] = []
    mine_jokers = (hand & JOKER_MASK).bit_count()
    if mine_jokers:
        beatable = jokers_out and rules.two_jokers != TWO_JOKERS_FIRST_WINS
        chances += [0.85 if beatable else 0.97] * mine_jokers
    if hand_size == 1:
        if not mine_jokers:
            chances.append(_one_card(rules, hand & ~JOKER_MASK, trump, players, leads, unseen,
                                     unseen_count, jokers_out))
        return chances
    circular = rules.circular
    spare = 0
    shortness = 0.0
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        length = mine.bit_count()
        is_trump = suit == trump and not circular
        if not is_trump and trump >= 0 and not circular:
            shortness += 1.0 if length == 0 else 0.5 if length == 1 else 0.0
        if not mine:
            continue
        ruff = (suit + 1) % 4 if circular else (trump if not is_trump else -1)
        share = (unseen & SUIT_MASKS[suit]).bit_count() / unseen_count
        has_ruff = 0.0
        if ruff >= 0:
            ruffs = (unseen & SUIT_MASKS[ruff]).bit_count() / unseen_count
            has_ruff = 1.0 - (1.0 - ruffs) ** hand_size
        for index, card in enumerate(reversed(_bits(mine))):
            chance = at_most((unseen & ABOVE[card]).bit_count(), in_hands, index)
            if has_ruff:
                void = at_most(hand_size, share, index)
                chance *= (1.0 - void * has_ruff) ** opponents
            if is_trump and chance < 0.5:
                spare += 1
            chances.append(chance)
    if spare and hand_size >= 3:
        ruffs = 0.45 * min(spare, shortness)
        while ruffs > 0:
            chances.append(min(1.0, ruffs))
            ruffs -= 1.0
    if jokers_out:
        factor = 1.0 - 0.5 * jokers_out * in_hands / hand_size
        chances = [chance * factor for chance in chances]
    return chances


def estimate_tricks(
    rules: Rules,
    hand: int,
    trump: int,
    hand_size: int,
    players: int,
    leads: bool,
    unseen: int,
) -> float:
    """Expected tricks of ``hand``: the sum of its ``card_chances`` (at most the hand size)."""
    return min(float(hand_size), sum(card_chances(rules, hand, trump, hand_size, players, leads,
                                                  unseen)))


def trick_distribution(chances: list[float], hand_size: int) -> list[float]:
    """P(taking t tricks) for t = 0..hand_size, each source winning independently with its chance
    (a Poisson-binomial distribution; more sources than tricks pile up on the last entry)."""
    distribution = [1.0] + [0.0] * hand_size
    top = 0
    for chance in chances:
        chance = min(1.0, max(0.0, chance))
        miss = 1.0 - chance
        full = top == hand_size
        top = min(top + 1, hand_size)
        for count in range(top, 0, -1):
            if count == hand_size and full:
                distribution[count] += distribution[count - 1] * chance
            else:
                distribution[count] = distribution[count] * miss + distribution[count - 1] * chance
        distribution[0] *= miss
    return distribution


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
    the points (``points_table``). Ties go to the lower bid.
    """
    expected: dict[int, float] = {}
    for bid in legal_bids:
        chances = distribution[bid] if isinstance(distribution, dict) else distribution
        row = table[bid]
        expected[bid] = sum(chance * row[taken] for taken, chance in enumerate(chances) if chance)
    best = max(legal_bids, key=lambda bid: (expected[bid], -bid))
    return best, expected


def premium_stake(rules: Rules, best: int | None, made_points: int, later_bids: int,
                  odds: float) -> float:
    """What making this deal's bid is worth on top of its points to a seat that has made every
    bid of its premium span so far (002's «премия»; issue 12): the premium (``fixed``: its points;
    ``best_deal``: the best deal of the span, this one made included), times ``odds`` for each of
    the ``later_bids`` bids of the span still to come (a chance of making each, or 1 for the whole
    premium, which measured best: docs/strength.md). Missing the bid loses it."""
    table = rules.table
    if table.premium == "none":
        return 0.0
    if table.premium == "fixed":
        amount = table.premium_points
    else:
        amount = made_points if best is None else max(best, made_points)
    return amount * odds ** later_bids


def staked_table(table: list[list[int]], stakes: list[float]) -> list[list[float]]:
    """``table[bid][taken]`` with ``stakes[bid]`` added where the bid is made (taken == bid)."""
    return [[points + (stakes[bid] if taken == bid else 0.0) for taken, points in enumerate(row)]
            for bid, row in enumerate(table)]


def _one_card(rules, card_mask, trump, players, leads, unseen, unseen_count, jokers_out) -> float:  # noqa: ANN001
    """Chance that a single card takes the only trick of a one-card deal."""
    if not card_mask:
        return 0.0
    card = card_mask.bit_length() - 1
    suit = SUIT[card]
    opponents = players - 1
    ruff = (suit + 1) % 4 if rules.circular else trump
    beats = (unseen & ABOVE[card]).bit_count() + jokers_out
    if ruff >= 0 and ruff != suit and rules.must_trump:
        beats += (unseen & SUIT_MASKS[ruff]).bit_count()
    safe = max(0.0, 1.0 - beats / unseen_count)
    if leads or (suit == trump and not rules.circular):
        return safe ** opponents
    lower = (unseen & BELOW[card]).bit_count() / unseen_count
    return lower * safe ** max(0, opponents - 1)


def nearest_bid(estimate: float, legal: list[int] | tuple[int, ...]) -> int:
    """The legal bid nearest ``estimate`` (rounded half down: a lower bid when equally near)."""
    return min(legal, key=lambda bid: (abs(bid - estimate), bid))


def name_trump_suit(first_cards: int) -> int:
    """The suit to name from the first cards seen: the longest, then the highest."""
    best, best_score = 0, -1.0
    for suit in range(4):
        mine = first_cards & SUIT_MASKS[suit]
        score = 0.0
        for card in _bits(mine):
            score += 1.0 + max(0, card % 13 - 6) * 0.15
        if score > best_score:
            best, best_score = suit, score
    return best
