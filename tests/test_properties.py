"""Properties of whole games, over every preset and every allowed player count (hypothesis).

A seeded ``random.Random`` (its seed drawn by hypothesis) picks among the legal actions; a referee
written here, independently of the engine, keeps its own account of the deal and checks at every
step that:

- the engine's legal actions are exactly those of the referee's own follow-suit / must-trump /
  Joker-demand rules and bidding rules (hook, overbid, minimum bid, pass limit), so every played
  card and bid was legal;
- cards are conserved: a deal's hands, stock and turned card partition the deck; the cards played
  in a deal are exactly the cards dealt;
- every trick has cards from distinct seats, one per player, and exactly one winner, the one the
  referee's own trick rule names, who leads next; the tricks of a deal sum to the hand size;
- the hook holds for the last bidder;
- each deal's points equal a score computed here from the seeds' tables (classic, circular,
  odessa, odessa-short, georgian, Georgian Joker, Joker-52, Oh Hell, 000's third-article
  undertricks, Georgian Joker as pagat and jok.ge play it), and the premiums follow 002;
- observations never show another seat's hand, except in a lobovaya deal while bidding (read as
  one card each: the card each other seat showed at the deal, drawn from the deal's own key, for
  as long as it holds it), nor the seat's own while bidding dark, blind or lobovaya (a blind or
  lobovaya bid sees the trump), and show finished tricks only as the memory rule allows;
- games end.

Then: the same seed and the same choices replay the same game, and playing on a ``clone()`` leaves
the original untouched.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from raspis.engine import (
    Bid,
    Game,
    Keep,
    NameTrump,
    Phase,
    Play,
    load_variant,
    preset_names,
    rng,
    variant_from_dict,
)
from raspis.engine.variant import Variant

JOKER_IDS = (52, 53)
#: A named-rank demand (003 «карту определённого номинала, например туза»): one call per rank.
RANK_CALLS = {"twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6, "sevens": 7, "eights": 8,
              "nines": 9, "tens": 10, "jacks": 11, "queens": 12, "kings": 13, "aces": 14}
#: The demands of any suit (000 second and fourth articles: «самой старшей картой любой масти»,
#: «по младшей карте», «по младшему козырю») and a named rank (003): the Joker leading them takes
#: the trick (000-A4 l.183 sets apart only «младшей картой, которая не забирает взятку»).
ANY_SUIT_CALLS = ("highest_card", "lowest_card", "lowest_trump", "one_trump", *RANK_CALLS)
HIGH_CALLS = ("high", "highest", "trumps", *ANY_SUIT_CALLS)
#: The lead calls of a variant file that lead the Joker to take the trick (RULES §5).
WINNING_LEAD_NAMES = ("high", "high_suit", "highest_suit", "highest_trumps", "highest_card",
                      "lowest_card", "lowest_trump", "one_trump", "named_rank")

# Variants made of options no preset uses, so that the referee checks those rules too.
OPTION_VARIANTS: dict[str, dict[str, Any]] = {
    "options-a": {
        "extends": "odessa",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..4", "max lobovaya", "4*players dark", "3*2 misere",
                               "5*2 no_trump", "3..1"]},
        "joker": {"demands_first_trick_only": True, "demand_trumped": "trump_wins",
                  "lead_calls": ["high", "low", "highest_suit", "lowest_suit", "highest_trumps"]},
        "trump": {"joker_turned": "dealer_names"},
        "bidding": {"hook": "from_deal", "hook_from_deal": 3, "max_consecutive_passes": 1},
        "kinds": {"dark": {"min_bid": 1, "hook": "overbid"}},
    },
    "options-b": {
        "extends": "classic",
        "players": {"min": 3, "max": 5},
        "deck": {"jokers": 1},
        "schedule": {"deals": ["1..max-1", "max*2", "max no_trump", "max-1..1"]},
        "joker": {"two_jokers": "first_wins", "demands_until_deal": 5, "locked_until": "Qs",
                  "lead_calls": ["high_suit", "low_suit", "highest_suit"]},
        "bidding": {"hook": "specials_only"},
        "trump": {"mode": "fixed", "fixed_suit": "hearts"},
        "play": {"must_trump": False, "memory": "own_and_last"},
        "kinds": {"no_trump": {"joker_holder_leads": True}},
    },
    "options-c": {
        "extends": "circular-trumps",
        "players": {"min": 3, "max": 4},
        "deck": {"lowest_rank": 2, "jokers": 2, "joker_cards": []},
        "schedule": {"deals": ["1..4", "max", "3..1", "4*players golden"]},
        "joker": {"two_jokers": "opposite"},
        "play": {"first_lead": "dealer", "memory": "last"},
    },
    "options-e": {
        # 000 first article, 002: a seat may look back at its own tricks only.
        "extends": "classic",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..4", "max", "3..1"]},
        "play": {"memory": "own"},
    },
    "options-f": {
        # the options of 000 and 002: bidding after the deal without looking (000 second
        # article, 002 «либо после, но не глядя»), own tricks only (000 first article), the
        # third article's undertrick table (flat -10, -10 a bid trick with nothing taken), and a
        # fixed premium per block, which the strategies play for.
        "extends": "classic",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..3", "3*2 blind", "4", "3..1"]},
        "kinds": {"blind": {"special": True, "bidding": "blind"}},
        "play": {"memory": "own"},
        "scoring": {"under_mode": "flat", "under_per_missing": -10, "under_nothing_per_bid": -10,
                    "premium": "fixed", "premium_points": 100, "premium_scope": "block"},
    },
    "options-g": {
        # the demands of 000's second and fourth articles (highest card, lowest card,
        # lowest trump) and 003's named rank, with 52 cards and two Jokers; the demands on the
        # first trick only, after which "low" is left and plain "high" comes back.
        "extends": "classic",
        "players": {"min": 3, "max": 4},
        "deck": {"lowest_rank": 2, "jokers": 2, "joker_cards": []},
        "schedule": {"deals": ["1..5", "5*2 no_trump", "4..1"]},
        "joker": {"lead_calls": ["low", "highest_card", "lowest_card", "lowest_trump",
                                 "named_rank"],
                  "demands_first_trick_only": True, "demand_trumped": "trump_wins"},
    },
    "options-h": {
        # Lobovaya read as one card each (000 l.98, 002 l.47, 003 l.51), with 52 cards and two
        # Jokers, and a blind kind that shows a card too; the own tricks only (000 first article).
        "extends": "joker-52",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..3", "5*players lobovaya", "4 lobovaya_blind", "3..1"]},
        "joker": {"lead_fine": 0},
        "kinds": {"lobovaya": {"view": "forehead_card"},
                  "lobovaya_blind": {"special": True, "bidding": "blind", "view": "forehead_card",
                                     "scoring": "made_or_short", "per_trick": 50,
                                     "short_points": -50}},
        "play": {"memory": "own"},
    },
    "options-k": {
        # the Joker declared as any card (000 fifth article «Также джокер может быть
        # выдан за любую карту: любого ранга и масти»; 002 «выдав джокера за любую карту любой
        # масти»), with 003's Odessa calls, trumps beating the demand, and the lock.
        "extends": "odessa",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..4", "max", "3*2 no_trump", "3..1"]},
        "joker": {"as_card": True, "demand_trumped": "trump_wins", "locked_until": "Qs"},
    },
    "options-i": {
        # The Joker declared as any card with two Jokers of a 54-card deck, circular trumps
        # (the named card's suit sets the trick's trump) and Joker-52's opposite values.
        "extends": "circular-trumps",
        "players": {"min": 3, "max": 4},
        "deck": {"lowest_rank": 2, "jokers": 2, "joker_cards": []},
        "schedule": {"deals": ["1..5", "max", "4..1"]},
        "joker": {"as_card": True, "two_jokers": "opposite",
                  "lead_calls": ["high", "low", "highest_suit", "named_rank"]},
    },
    "options-j": {
        # The Joker declared as any card, two Jokers, the first high one keeping the trick, and
        # the whole deck dealt (a named card may be in any hand or played already).
        "extends": "classic",
        "players": {"min": 3, "max": 4},
        "deck": {"jokers": 2, "joker_cards": []},
        "schedule": {"deals": ["1..max-1", "max", "max-1..1"]},
        "joker": {"as_card": True, "two_jokers": "first_wins"},
    },
    "options-l": {
        # 002 Joker-52 read literally: «верхняя карта с колоды снимается и кладется в
        # открытом виде ... Поперек этой карты кладется колода в закрытом виде, также как и при
        # игре в Дурака» and «После чего игроки берут по одной карте из оставшейся колоды»; with
        # 000's «Походивший с джокера может забрать взятку, либо отказаться от нее».
        "extends": "joker-52",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["2..3", "2"]},
        "play": {"draw_after_trick": True},
        "joker": {"lead_choice": True},
    },
    "options-m": {
        # The same two rules over classic's 36 cards, must-trump, its demands and the hook.
        "extends": "classic",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..3", "max", "2..1"]},
        "play": {"draw_after_trick": True},
        "joker": {"lead_choice": True, "demand_trumped": "trump_wins"},
    },
    "options-n": {
        # 000-A2 l.84's Joker demand «скинули по одному козырю» (one trump each) beside
        # the low call, on the first trick of a deal only (000 l.183 «первой картой кона»).
        "extends": "classic",
        "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..4", "max", "4*2 no_trump", "3..1"]},
        "joker": {"lead_calls": ["one_trump", "low", "highest_suit"], "as_card": False,
                  "demands_first_trick_only": True},
        # 000 l.325: the no-trump deals' penalties doubled, not their rewards
        "kinds": {"no_trump": {"multiplier": 2, "multiplier_scope": "penalties"}},
        # 003 l.55's pass: 10 made, 5 a trick broken, «по 10 очков если взял все взятки» read
        # as 10 a trick
        "scoring": {"pass_made": 10, "pass_broken_per_trick": -5, "pass_broken_all": -10,
                    "pass_broken_all_mode": "per_trick"},
    },
    "options-d": {
        "extends": "joker",
        "players": {"min": 3, "max": 4},
        "trump": {"naming_allows_no_trump": True, "full_deal": "named"},
        "schedule": {"deals": ["1..3", "9*2 named", "max", "2..1"]},
        # Demands only: after the first trick no call is left, and the Joker leads high.
        "joker": {"lead_calls": ["highest_suit", "lowest_suit"], "demands_first_trick_only": True},
        "scoring": {"premium": "fixed", "premium_points": 100, "premium_scope": "block"},
        "play": {"memory": "none"},
        "end": {"tie": "golden_deal", "tie_deals": 2},
    },
}


def variant_named(name: str) -> Variant:
    if name in OPTION_VARIANTS:
        return variant_from_dict({"name": name, **OPTION_VARIANTS[name]}, source=name)
    return load_variant(name)


VARIANTS = {name: variant_named(name) for name in [*preset_names(), *OPTION_VARIANTS]}
COMBINATIONS = [(name, players) for name, variant in VARIANTS.items()
                for players in variant.player_counts()]


# -- the referee's own rules ----------------------------------------------------------------------


def suit_of(card: int) -> int:
    return -1 if card in JOKER_IDS else card // 13


def rank_of(card: int) -> int:
    """2 .. 14 (the ace): card ids are 13 a suit from the two."""
    return card % 13 + 2


def first_highest(entries: list[tuple[int, int]]) -> int:
    """The seat of the highest card of ``entries`` (card, seat) in the order played, the first
    of equal cards (the real card and a Joker declared as it)."""
    best = entries[0]
    for entry in entries[1:]:
        if entry[0] > best[0]:
            best = entry
    return best[1]


def cards_in(mask: int) -> set[int]:
    return {card for card in range(54) if mask >> card & 1}


def classic_table(bid: int, taken: int, hand: int) -> int:
    """000-A4/A5, 002-RP, 003, 002-J52: 10 a made trick, 1 an overtrick, -10 a missing, pass 5."""
    if bid == 0:
        return 5 if taken == 0 else taken
    if taken == bid:
        return 10 * bid
    if taken > bid:
        return taken
    return -10 * (bid - taken)


def odessa_short_table(bid: int, taken: int, hand: int) -> int:
    """004: as classic, but a made pass is not scored (the seed is silent)."""
    return 0 if bid == 0 and taken == 0 else classic_table(bid, taken, hand)


def pass_fined_table(bid: int, taken: int, hand: int) -> int:
    """003 l.55's variant pass: 10 made, 5 off a trick taken, 10 off a trick when the passer
    took them all («по 10 очков если взял все взятки», «по» read as "each"); otherwise as
    classic."""
    if bid == 0 and taken == 0:
        return 10
    if bid == 0:
        return -10 * taken if taken == hand else -5 * taken
    return classic_table(bid, taken, hand)


def georgian_table(bid: int, taken: int, hand: int) -> int:
    """000-A3, 002-RP, 004: 50k + 50, pass 50, otherwise 10 a trick taken."""
    if taken == bid:
        return 50 if bid == 0 else 50 * bid + 50
    return 10 * taken


def georgian_joker_table(bid: int, taken: int, hand: int) -> int:
    """002-GJ: 100, 150, ...; nine of nine 900; a bid with no trick -200; else 10 a trick."""
    if taken == bid:
        if bid == 0:
            return 50
        return 100 * bid if bid == hand >= 9 else 50 * bid + 50
    if taken == 0:
        return -200
    return 10 * taken


def flat_table(bid: int, taken: int, hand: int) -> int:
    """000-A3 l.153-154: short «разово» 10, nothing taken «по 10 очков за каждую заказанную
    взятку»; otherwise as classic."""
    if 0 < bid and taken < bid:
        return -10 * bid if taken == 0 else -10
    return classic_table(bid, taken, hand)


def pagat_joker_table(bid: int, taken: int, hand: int) -> int:
    """Pagat and jok.ge: 50k + 50, pass 50, all tricks 100 a trick on any hand, khishti
    -200, otherwise 10 a trick taken."""
    if taken == bid:
        if bid == 0:
            return 50
        return 100 * bid if bid == hand else 50 * bid + 50
    if taken == 0:
        return -200
    return 10 * taken


def oh_hell_table(bid: int, taken: int, hand: int) -> int:
    return 10 + bid if taken == bid else taken


TABLES = {
    "classic": classic_table, "circular-trumps": classic_table, "odessa": classic_table,
    "odessa-long": classic_table,
    "joker-52": classic_table, "odessa-short": odessa_short_table, "georgian": georgian_table,
    "joker": georgian_joker_table, "oh-hell": oh_hell_table, "options-d": georgian_joker_table,
    "options-f": flat_table, "joker-pagat": pagat_joker_table, "options-g": classic_table,
    "classic-lobovaya": classic_table, "options-h": classic_table,
    "options-k": classic_table, "options-i": classic_table, "options-j": classic_table,
    "options-l": classic_table, "options-m": classic_table, "options-n": pass_fined_table,
}
#: Variants with 002 Joker-52's -10 for leading the Joker unless it is the last card.
LEAD_FINED = ("joker-52", "options-l")
#: Premiums for making every bid (002-GJ l.21): (amount, scope); "best" = the best deal once more.
PREMIUMS: dict[str, tuple[str | int, str]] = {
    "joker": ("best", "game"), "options-d": (100, "block"), "options-f": (100, "block"),
    "joker-pagat": ("best", "block"),
}
#: Deal kinds whose score is doubled (003 l.57, 004 l.19; classic's dark and no-trump deals: 000
#: l.101, l.155, 002 l.56), in the presets and the option variants that extend them.
DOUBLED = {("odessa", "dark"), ("odessa-long", "dark"), ("odessa-short", "dark"),
           *((name, kind) for name in ("classic", "classic-lobovaya", "circular-trumps",
                                       "options-g") for kind in ("dark", "no_trump"))}
#: Deal kinds whose penalties only are doubled (000 l.325 «наказания ещё более суровые»).
PENALTIES_DOUBLED = {("options-n", "no_trump")}


def expected_points(name: str, kind: str, bid: int | None, taken: int, hand: int) -> int:
    if kind == "golden":  # 000-A3 «по 20 очков», 000-A4 «обычно вдвое»
        return 20 * taken
    if kind == "misere":  # 000-A4 «обычно -10 очков за каждую взятку»
        return -10 * taken
    assert bid is not None
    if kind.startswith("lobovaya") and bid > 0 and taken <= bid:
        # 002 l.56 «за каждую взятую в соответствии с заказом взятку начисляется 50 очков; за
        # «недобор» - штраф 50 очков; «пас» и «перебор» считаются по правилам обычной сдачи»
        return 50 * bid if taken == bid else -50
    points = TABLES[name](bid, taken, hand)
    if (name, kind) in PENALTIES_DOUBLED:
        return 2 * points if points < 0 else points
    return 2 * points if (name, kind) in DOUBLED else points


@dataclass
class Referee:
    """Keeps its own account of a game and checks the engine against it at every step."""

    name: str
    game: Game
    variant: Variant = field(init=False)
    passes: list[int] = field(init=False)
    totals: list[int] = field(init=False)
    deals_seen: int = 0

    def __post_init__(self) -> None:
        self.variant = self.game.variant
        players = self.game.players
        self.passes = [0] * players
        self.totals = [0] * players
        self.history: list[tuple[int, int, bool, int]] = []
        self.start_deal()

    # -- a deal begins -------------------------------------------------------------------------

    def start_deal(self) -> None:
        game = self.game
        self.deals_seen += 1
        self.number = game.deal.number
        self.hand_size = game.deal.hand_size
        self.kind_name = game.deal.kind
        self.kind = self.variant.kinds[self.kind_name]
        self.dealer = game.view.dealer
        self.seats = list(game.view.order)
        self.hands = list(game.view.hands)
        self.bids: list[int | None] = [None] * game.players
        self.taken = [0] * game.players
        self.trick: list[tuple[int, Play]] = []
        self.tricks_done = 0
        self.played = 0
        self.joker_leads: list[tuple[int, int]] = []  # (seat, cards in hand when leading)
        self.lead_of_trick: int | None = None
        self.draws = self.variant.play.draw_after_trick
        # 002 «После чего игроки берут по одной карте из оставшейся колоды»: after each trick
        # everyone draws one card while the stock (the turned card under it) has one for each.
        seats = len(game.view.order)
        stock_size = len(self.variant.deck_cards) - self.hand_size * seats
        self.deal_tricks = self.hand_size + (stock_size // seats if self.draws else 0)
        # The dealer rotates to the left after every deal.
        players = game.players
        assert self.dealer == (game.view.first_dealer + self.number) % players
        # Everyone plays, or in a tie-break deal the tied leaders (003); from the dealer's left.
        if self.number < game.schedule_length:
            expected_seats = list(range(players))
        else:
            top = max(game.scores)
            expected_seats = [seat for seat in range(players) if game.scores[seat] == top]
        expected_seats.sort(key=lambda seat: (seat - self.dealer - 1) % players)
        assert self.seats == expected_seats
        # One card at a time from the dealer's left, from the deal's seeded shuffle.
        deck_order = rng.shuffled(self.variant.deck_cards, rng.deal_key(game.seed, self.number))
        count = self.hand_size * len(self.seats)
        dealt = [0] * players
        for position in range(count):
            dealt[self.seats[position % len(self.seats)]] |= 1 << deck_order[position]
        assert dealt == self.hands
        self.check_trump(deck_order[:count], deck_order[count:])
        # Cards are conserved: hands, stock and a turned card partition the deck.
        deck = set(self.variant.deck_cards)
        seen: set[int] = set()
        for seat in range(game.players):
            held = cards_in(self.hands[seat])
            expected = self.hand_size if seat in self.seats else 0
            assert len(held) == expected
            assert not held & seen
            seen |= held
        self.stock = list(game.view.stock)
        self.turned_card = game.trump_card
        stock = set(game.view.stock)
        assert len(stock) == len(game.view.stock)
        assert not stock & seen
        seen |= stock
        if game.trump_card is not None and game.trump_card not in seen:
            seen.add(game.trump_card)
        assert seen == deck, "the deal lost or invented cards"
        self.dealt = 0
        for seat in self.seats:
            self.dealt |= self.hands[seat]
        # Lobovaya read as one card each (000 l.98 «Покеристы наугад выбирают одну карту и клеят
        # ее себе на лоб»; 002 l.47, 003 l.51): each seat shows one card of its hand, drawn at
        # random from the deal's own key (the deal's shuffle and every other draw untouched).
        self.shown = [0] * players
        if self.kind.view == "forehead_card":
            key = rng.forehead_key(game.seed, self.number)
            for seat in self.seats:
                self.shown[seat] = 1 << rng.shuffled(cards_in(self.hands[seat]), key)[0]

    def check_trump(self, dealt: list[int], stock: list[int]) -> None:
        """The deal's trump, or who names it, from the trump options (RULES §4)."""
        game, options, kind = self.game, self.variant.trump, self.kind
        namer, suit, card = -1, -1, None
        if kind.trump == "none" or options.mode in ("none", "circular"):
            pass
        elif kind.trump == "named":
            namer = self.seats[0]
        elif options.mode == "fixed":
            suit = ["spades", "clubs", "diamonds", "hearts"].index(options.fixed_suit or "")
        elif len(stock) <= options.unturned_leftover and options.full_deal == "no_trump":
            pass
        elif len(stock) <= options.unturned_leftover and options.full_deal == "named":
            namer = self.seats[0]
        else:
            if len(stock) <= options.unturned_leftover:
                card = dealt[-1]  # 000-A4: the dealer's last card
                assert self.hands[self.seats[-1]] >> card & 1
            else:
                card = stock.pop(0)  # the card after the deal is turned
                if self.variant.play.draw_after_trick:
                    # 002: «Поперек этой карты кладется колода ... как и при игре в Дурака»: the
                    # turned card lies under the stock, the last card drawn
                    stock.append(card)
            if card in JOKER_IDS and options.joker_turned == "dealer_names":
                namer = self.dealer
            elif card not in JOKER_IDS:
                suit = suit_of(card)
        assert game.view.stock == stock
        assert game.trump_card == card
        if namer >= 0:
            assert game.phase == Phase.TRUMP and game.to_move == namer
        else:
            assert game.phase != Phase.TRUMP
            assert game.view.trump == suit

    def first_leader(self) -> int:
        leader = self.seats[0]
        if self.variant.play.first_lead == "dealer" and self.dealer in self.seats:
            leader = self.dealer  # 002-J52 «Первый ход в розыгрыше принадлежит сдатчику»
        if self.kind.joker_holder_leads:  # 000-A2 no-trump deal
            holders = [seat for seat in self.seats if self.hands[seat] >> 52 & 3]
            leader = holders[0] if holders else leader
        return leader

    # -- rules -------------------------------------------------------------------------------------

    def hook_mode(self) -> str:
        kind_hook = self.kind.hook
        if kind_hook == "always":
            return "no_equal"
        if kind_hook == "off":
            return "none"
        if kind_hook == "overbid":
            return "overbid"
        bidding = self.variant.bidding
        if bidding.hook == "always":
            return "no_equal"
        if bidding.hook == "from_deal":
            return "no_equal" if self.number + 1 >= bidding.hook_from_deal else "none"
        if bidding.hook == "specials_only":
            return "no_equal" if self.kind.special else "none"
        if bidding.hook == "overbid":
            return "overbid"
        return "none"

    def expected_bids(self, seat: int) -> set[int]:
        size = self.deal_tricks  # bids and the hook count the tricks the deal will have
        bids = set(range(min(self.kind.min_bid, size), size + 1))
        if seat == self.seats[-1]:
            others = sum(bid for bid in self.bids if bid is not None)
            mode = self.hook_mode()
            if mode == "no_equal" and len(bids - {size - others}) > 0:
                bids -= {size - others}
            elif mode == "overbid":
                bids = ({bid for bid in bids if bid + others > size}
                        or {bid for bid in bids if bid + others != size} or bids)
        limit = self.variant.bidding.max_consecutive_passes
        if limit is not None and self.passes[seat] >= limit and 0 in bids and len(bids) > 1:
            bids.discard(0)
        return bids

    def circular(self) -> bool:
        return self.variant.trump.mode == "circular" and self.kind.trump == "default"

    def led_suit(self) -> int:
        """The suit of the first ordinary card, or the suit a leading Joker named; a Joker
        declared as a card counts as that card (000 «выдан за любую карту»)."""
        if not self.trick:
            return -1
        lead = self.trick[0][1]
        if lead.card in JOKER_IDS and lead.suit >= 0:
            return lead.suit
        for _, play in self.trick:
            if play.card not in JOKER_IDS:
                return suit_of(play.card)
            if play.call == "card":
                return play.suit
        return -1

    @staticmethod
    def as_played(play: Play) -> int:
        """The card a play counts as in the trick: a Joker declared as a card is that card (000
        fifth article «выдан за любую карту: любого ранга и масти»); other Jokers stay Jokers."""
        if play.card in JOKER_IDS and play.call == "card":
            return 13 * play.suit + play.rank - 2
        return play.card

    def trick_trump(self) -> int:
        if self.circular():
            led = self.led_suit()
            return (led + 1) % 4 if led >= 0 else -1
        return self.deal_trump

    def expected_plays(self, seat: int) -> set[Play]:
        hand = self.hands[seat]
        ordinary = {card for card in cards_in(hand) if card not in JOKER_IDS}
        jokers = sorted(card for card in cards_in(hand) if card in JOKER_IDS)
        must_trump = self.variant.play.must_trump
        trump = self.trick_trump()
        trumps = {card for card in ordinary if suit_of(card) == trump} if trump >= 0 else set()
        if not self.trick:
            allowed = ordinary
        else:
            lead = self.trick[0][1]
            if lead.card in JOKER_IDS and lead.call in ("highest", "lowest"):
                # «по старшим пикам»: the highest of that suit; else a trump; else anything.
                of_suit = {card for card in ordinary if suit_of(card) == lead.suit}
                if of_suit:
                    allowed = {max(of_suit) if lead.call == "highest" else min(of_suit)}
                elif must_trump and trumps:
                    allowed = trumps
                else:
                    allowed = ordinary
            elif lead.card in JOKER_IDS and lead.call == "trumps":
                allowed = {max(trumps)} if trumps else ordinary
            elif lead.card in JOKER_IDS and lead.call in ("highest_card", "lowest_card"):
                # 000-A2 «самой старшей картой любой масти», «самую младшую карту»: the rank
                # counts, not the suit; any card of the highest (lowest) rank held.
                ranks = {rank_of(card) for card in ordinary}
                if ranks:
                    wanted = max(ranks) if lead.call == "highest_card" else min(ranks)
                    allowed = {card for card in ordinary if rank_of(card) == wanted}
                else:
                    allowed = ordinary
            elif lead.card in JOKER_IDS and lead.call == "lowest_trump":
                allowed = {min(trumps)} if trumps else ordinary  # 000-A4 «по младшему козырю»
            elif lead.card in JOKER_IDS and lead.call == "one_trump":
                allowed = trumps or ordinary  # 000-A2 l.84 «скинули по одному козырю»: any trump
            elif lead.card in JOKER_IDS and lead.call in RANK_CALLS:
                # 003 «сбросить карту определённого номинала»; without one, any card
                named = {card for card in ordinary if rank_of(card) == RANK_CALLS[lead.call]}
                allowed = named or ordinary
            else:
                led = self.led_suit()
                of_suit = {card for card in ordinary if suit_of(card) == led}
                if led < 0:
                    allowed = ordinary
                elif of_suit:
                    allowed = of_suit
                elif must_trump and trumps:
                    allowed = trumps
                else:
                    allowed = ordinary
        lock = self.variant.joker.locked_until
        if lock is not None and jokers and allowed:
            from raspis.engine import parse_card

            if not self.played >> parse_card(lock) & 1:
                jokers = []
        plays = {Play(card) for card in allowed}
        if not jokers:
            return plays
        # 002 «выдав джокера за любую карту любой масти»: led or followed, any card of the deck
        named = ({card for card in self.variant.deck_cards if card not in JOKER_IDS}
                 if self.variant.joker.as_card else set())
        if not self.trick:
            calls = self.lead_calls()
        else:
            earlier = [play for _, play in self.trick if play.card in JOKER_IDS]
            if earlier and self.variant.joker.two_jokers == "opposite":
                # 002 Joker-52: the second takes the opposite value; one declared as a card
                # was not high, so the second is
                calls = {("low", -1)} if earlier[0].call in HIGH_CALLS else {("high", -1)}
                named = set()
            else:
                calls = {("high", -1), ("low", -1)}
        for joker in jokers:
            plays |= {Play(joker, call, suit) for call, suit in calls}  # type: ignore[arg-type]
            plays |= {Play.declared(joker, card) for card in named}
        return plays

    def lead_calls(self) -> set[tuple[str, int]]:
        options = self.variant.joker
        demands = not (options.demands_first_trick_only and self.tricks_done > 0)
        if options.demands_until_deal is not None and self.number + 1 > options.demands_until_deal:
            demands = False
        calls: set[tuple[str, int]] = set()
        for name in options.lead_calls:
            if name in ("high", "low"):
                calls.add((name, -1))
            elif name == "high_suit":
                calls |= {("high", suit) for suit in range(4)}
            elif name == "low_suit":
                calls |= {("low", suit) for suit in range(4)}
            elif name == "highest_suit" and demands:
                calls |= {("highest", suit) for suit in range(4)}
            elif name == "lowest_suit" and demands:
                calls |= {("lowest", suit) for suit in range(4)}
            elif name == "highest_trumps" and demands and self.deal_trump >= 0:
                calls.add(("trumps", -1))
            elif name in ("highest_card", "lowest_card") and demands:
                calls.add((name, -1))
            elif name in ("lowest_trump", "one_trump") and demands and self.deal_trump >= 0:
                calls.add((name, -1))
            elif name == "named_rank" and demands:
                in_deck = {rank_of(card) for card in self.variant.deck_cards
                           if card not in JOKER_IDS}
                calls |= {(call, -1) for call, rank in RANK_CALLS.items() if rank in in_deck}
        # RULES §5: led, the Joker beats everything; where the calls that would let it were
        # barred (or none is left), plain "high" stands in for them.
        named_to_win = any(name in WINNING_LEAD_NAMES for name in options.lead_calls)
        if not any(call in HIGH_CALLS for call, _ in calls) and (named_to_win or not calls):
            calls.add(("high", -1))
        return calls

    def trick_winner(self) -> int:
        trump = self.trick_trump()
        lead = self.trick[0][1]
        options = self.variant.joker
        if (lead.card in JOKER_IDS and lead.call == "highest" and trump >= 0
                and trump != lead.suit and options.demand_trumped == "trump_wins"):
            # A Joker played high after the lead still beats everything, the trump included
            # (RULES §5 «beats everything, even the trump ace»; 000 l.183); only the leading
            # Joker's demand falls to a trump (000 l.303).
            later = [seat for seat, play in self.trick[1:]
                     if play.card in JOKER_IDS and play.call in HIGH_CALLS]
            if later and options.two_jokers != "first_wins":
                return later[-1]
            trumped = [(self.as_played(play), seat) for seat, play in self.trick
                       if self.as_played(play) not in JOKER_IDS
                       and suit_of(self.as_played(play)) == trump]
            if trumped:
                return first_highest(trumped)
        high = [seat for seat, play in self.trick
                if play.card in JOKER_IDS and play.call in HIGH_CALLS]
        if high:
            return high[0] if options.two_jokers == "first_wins" else high[-1]
        # a Joker declared as a card holds the trick as that card would; with the real card in
        # the same trick, the one played first keeps it
        ordinary = [(self.as_played(play), seat) for seat, play in self.trick
                    if self.as_played(play) not in JOKER_IDS]
        trumped = [entry for entry in ordinary if suit_of(entry[0]) == trump]
        if trumped:
            return first_highest(trumped)
        led = self.led_suit()
        followed = [entry for entry in ordinary if suit_of(entry[0]) == led]
        if followed:
            return first_highest(followed)
        return self.trick[0][0]  # a low Joker led and nobody followed or trumped (003)

    # -- checks around one action --------------------------------------------------------------

    def check_observations(self) -> None:
        game = self.game
        memory = self.variant.play.memory
        for seat in range(game.players):
            seen = game.observation(seat)
            forehead = game.phase == Phase.BID and self.kind.view == "forehead"
            one_card = self.kind.view == "forehead_card"
            for other in range(game.players):
                shown = seen.other_hands[other]
                if forehead and other != seat:
                    assert shown == game.view.hands[other]
                elif one_card and other != seat:
                    # «видя карты других игроков» (000): the card it showed, while it holds it
                    assert shown == self.shown[other] & game.view.hands[other]
                else:
                    assert shown is None, "an observation revealed another hand"
            if game.phase == Phase.TRUMP:
                assert seen.hand & ~game.view.hands[seat] == 0
                if seat == game.to_move and game.trump_card is not None:
                    # a dealer naming trump after a turned Joker has the whole hand (003 l.29)
                    assert seen.hand == game.view.hands[seat]
                elif seat == game.to_move:  # named after the first cards dealt (002)
                    expected = min(self.variant.trump.named_after_cards, self.hand_size)
                    assert bin(seen.hand).count("1") == expected
            elif game.phase == Phase.BID and (self.kind.bidding in ("dark", "blind")
                                              or forehead or one_card):
                assert seen.hand == 0 and seen.hand_hidden
                if self.kind.bidding == "blind" or one_card:
                    # 002 «после, но не глядя»; lobovaya «показывается козырь»: the trump is seen
                    assert seen.trump == game.view.trump and not seen.trump_hidden
            else:
                assert seen.hand == game.view.hands[seat]
            finished = list(game.tricks)
            if memory == "full":
                visible = finished
            elif memory == "own_and_last":
                visible = [trick for index, trick in enumerate(finished)
                           if trick.winner == seat or index == len(finished) - 1]
            elif memory == "last":
                visible = finished[-1:]
            elif memory == "own":  # 000 «подглядывать в свои взятки», 002
                visible = [trick for trick in finished if trick.winner == seat]
            else:
                visible = []
            assert list(seen.tricks) == visible
            assert (seen.legal_actions != ()) == (seat == game.to_move)

    def before(self, actions: list[Any]) -> None:
        game = self.game
        seat = game.to_move
        assert game.view.hands[seat] == self.hands[seat]
        if game.phase == Phase.BID:
            assert all(isinstance(action, Bid) for action in actions)
            assert {action.tricks for action in actions} == self.expected_bids(seat)
            expected_seat = self.seats[sum(bid is not None for bid in self.bids)]
            assert seat == expected_seat
        elif game.phase == Phase.PLAY:
            self.deal_trump = game.view.trump  # read before the action: the last card ends the deal
            assert set(actions) == self.expected_plays(seat)
            assert len(actions) == len(set(actions))
            if not self.trick:
                leader = self.first_leader() if self.tricks_done == 0 else self.lead_of_trick
                assert seat == leader
        elif game.phase == Phase.KEEP:
            assert set(actions) == {Keep(True), Keep(False)}
            assert len(self.trick) == len(self.seats) and seat == self.trick[0][0]
        elif game.phase == Phase.TRUMP:
            suits = {0, 1, 2, 3} | ({-1} if self.variant.trump.naming_allows_no_trump else set())
            assert {action.suit for action in actions} == suits

    def after(self, seat: int, action: Any, events: list[Any]) -> None:
        game = self.game
        kinds = [type(event).__name__ for event in events]
        if isinstance(action, NameTrump):
            assert game.view.trump == action.suit
            assert game.phase != Phase.TRUMP
        if isinstance(action, Bid):
            self.bids[seat] = action.tricks
            self.passes[seat] = self.passes[seat] + 1 if action.tricks == 0 else 0
            if all(self.bids[s] is not None for s in self.seats):
                total = sum(self.bids[s] for s in self.seats)  # type: ignore[misc]
                mode = self.hook_mode()
                last = self.seats[-1]
                tricks = self.deal_tricks
                alternatives = tricks - min(self.kind.min_bid, tricks) + 1
                if mode == "no_equal" and alternatives > 1 and last == seat:
                    assert total != tricks, "the hook was broken"
        elif isinstance(action, Play):
            if not self.trick and action.card in JOKER_IDS:
                self.joker_leads.append((seat, bin(self.hands[seat]).count("1")))
            self.hands[seat] &= ~(1 << action.card)
            self.played |= 1 << action.card
            assert all(seat != earlier for earlier, _ in self.trick), "a seat played twice"
            self.trick.append((seat, action))
            if len(self.trick) == len(self.seats):
                winner = self.trick_winner()
                leader, lead = self.trick[0]
                if (self.variant.joker.lead_choice and lead.card in JOKER_IDS
                        and winner == leader):
                    # 000: «Походивший с джокера может забрать взятку, либо отказаться от нее»:
                    # the Joker's player decides, having seen the whole trick
                    assert "TrickWon" not in kinds
                    assert game.phase == Phase.KEEP and game.to_move == leader
                else:
                    self.finish_trick(winner, events)
            else:
                assert "TrickWon" not in kinds
        elif isinstance(action, Keep):
            leader = self.trick[0][0]
            assert seat == leader
            # «Во втором случае взятку забирает игрок, который походил самой сильной картой»
            winner = leader if action.keep else self.best_other()
            assert action.keep or winner != leader, "a declined trick went to the Joker's player"
            self.finish_trick(winner, events)
        if "DealScored" in kinds:
            self.deal_scored(next(e for e in events if type(e).__name__ == "DealScored"))
        if "DealStarted" in kinds:
            self.start_deal()

    def best_other(self) -> int:
        """The seat of the strongest card of the trick but the leading Joker: a high Joker played
        later (the last, or the first under first_wins), else the highest trump, else the highest
        card of the led suit, else the first of them."""
        others = self.trick[1:]
        high = [seat for seat, play in others
                if play.card in JOKER_IDS and play.call in HIGH_CALLS]
        if high:
            return high[0] if self.variant.joker.two_jokers == "first_wins" else high[-1]
        ordinary = [(play.card, seat) for seat, play in others if play.card not in JOKER_IDS]
        trump = self.trick_trump()
        trumped = [entry for entry in ordinary if suit_of(entry[0]) == trump]
        if trumped:
            return max(trumped)[1]
        led = self.led_suit()
        followed = [entry for entry in ordinary if suit_of(entry[0]) == led]
        if followed:
            return max(followed)[1]
        return others[0][0]

    def finish_trick(self, winner: int, events: list[Any]) -> None:
        won = [event for event in events if type(event).__name__ == "TrickWon"]
        assert len(won) == 1 and won[0].seat == winner, (self.trick, won)
        self.taken[winner] += 1
        self.tricks_done += 1
        self.trick = []
        self.lead_of_trick = winner
        count = len(self.seats)
        if self.draws and len(self.stock) >= count:
            # every player draws one card, in turn from the trick's winner
            position = self.seats.index(winner)
            for step in range(count):
                drawer = self.seats[(position + step) % count]
                card = self.stock.pop(0)
                self.hands[drawer] |= 1 << card
                self.dealt |= 1 << card
                if card == self.turned_card:
                    assert not self.stock, "the turned card is not the last card drawn"
        if "DealScored" not in [type(event).__name__ for event in events]:
            assert list(self.game.view.stock) == self.stock

    def premiums(self, points: list[int]) -> list[int]:
        """Premiums for making every bid of the game or of a block (002-GJ l.21)."""
        game = self.game
        premiums = [0] * game.players
        if self.name not in PREMIUMS or self.number >= game.schedule_length:
            return premiums
        amount, scope = PREMIUMS[self.name]
        block = game.deals[self.number].block
        for seat in self.seats:
            made = self.bids[seat] is None or self.bids[seat] == self.taken[seat]
            self.history.append((seat, block, made, points[seat]))
        following = game.deals[self.number + 1] if self.number + 1 < game.schedule_length else None
        if following is not None and (scope == "game" or following.block == block):
            return premiums
        for seat in self.seats:
            entries = [(made, deal_points) for owner, owner_block, made, deal_points in self.history
                       if owner == seat and (scope == "game" or owner_block == block)]
            if all(made for made, _ in entries):
                premiums[seat] = max(p for _, p in entries) if amount == "best" else int(amount)
        return premiums

    def deal_scored(self, event: Any) -> None:
        game = self.game
        result = game.results[-1]
        assert self.tricks_done == self.deal_tricks
        assert sum(self.taken) == self.deal_tricks
        assert list(result.taken) == self.taken
        assert self.played == self.dealt, "the cards played are not the cards dealt"
        assert all(self.hands[seat] == 0 for seat in self.seats)
        if self.name not in TABLES:
            return
        points = [0] * game.players
        for seat in self.seats:
            points[seat] = expected_points(self.name, self.kind_name, self.bids[seat],
                                           self.taken[seat], self.deal_tricks)
        if self.name in LEAD_FINED:  # 002-J52: -10 for leading the Joker unless the last card
            for seat, held in self.joker_leads:
                if held > 1:
                    points[seat] -= 10
        assert list(result.points) == points, (self.name, self.kind_name, self.bids, self.taken)
        premiums = self.premiums(points)
        assert list(result.premiums) == premiums
        for seat in range(game.players):
            self.totals[seat] += points[seat] + premiums[seat]
        assert list(event.totals) == self.totals


def play_game(name: str, players: int, seed: int, check: bool = True) -> Game:
    """Play a whole game with seeded random choices, refereed at every step when ``check``."""
    game = Game(VARIANTS[name], players=players, seed=seed)
    chooser = random.Random(seed)
    referee = Referee(name, game) if check else None
    steps = 0
    while not game.is_over():
        actions = game.legal_actions()
        assert actions, "a seat to move without a legal action"
        if referee is not None:
            if steps % 7 == 0:
                referee.check_observations()
            referee.before(actions)
        action = chooser.choice(actions)
        seat = game.to_move
        logged = len(game.log)
        game.apply(action)
        if referee is not None:
            referee.after(seat, action, game.log[logged:])
        steps += 1
        assert steps < 20_000, "the game does not end"
    assert game.current_player() == -1
    assert game.legal_actions() == []
    if referee is not None:
        assert referee.deals_seen == len(game.results)
        assert game.scores == referee.totals or referee.name not in TABLES
        assert len(game.results) >= game.schedule_length
    return game


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(("name", "players"), COMBINATIONS)
@FEW
@given(seed=SEEDS)
def test_random_games_obey_the_rules(name: str, players: int, seed: int) -> None:
    play_game(name, players, seed)


@settings(max_examples=20, deadline=None)
@given(combination=st.sampled_from(COMBINATIONS), seed=SEEDS)
def test_the_same_seed_and_choices_replay_the_same_game(
    combination: tuple[str, int], seed: int
) -> None:
    name, players = combination
    first = play_game(name, players, seed, check=False)
    second = play_game(name, players, seed, check=False)
    assert first.trace() == second.trace()
    assert first.score_sheet() == second.score_sheet()
    assert first.results == second.results


def snapshot(game: Game) -> tuple[Any, ...]:
    return (
        game.trace(), game.phase, game.to_move, list(game.view.hands), list(game.view.shown),
        list(game.bids),
        list(game.view.taken), list(game.trick), list(game.tricks), list(game.view.scores),
        list(game.results), list(game.view.passes), list(game.view.stock), game.view.deal_index,
        game.view.dealer, game.view.trump, tuple(game.legal_actions()),
        tuple(repr(game.observation(seat)) for seat in range(game.players)),
    )


@settings(max_examples=20, deadline=None)
@given(combination=st.sampled_from(COMBINATIONS), seed=SEEDS, fraction=st.floats(0.0, 0.95))
def test_playing_on_a_clone_leaves_the_original_unchanged(
    combination: tuple[str, int], seed: int, fraction: float
) -> None:
    name, players = combination
    length = len(play_game(name, players, seed, check=False).log)
    game = Game(VARIANTS[name], players=players, seed=seed)
    chooser = random.Random(seed)
    while not game.is_over() and len(game.log) < fraction * length:
        game.apply(chooser.choice(game.legal_actions()))
    before = snapshot(game)
    copy = game.clone(log=True)
    other = random.Random(seed + 1)
    choices = []
    while not copy.is_over():
        action = other.choice(copy.legal_actions())
        choices.append(action)
        copy.apply(action)
    assert snapshot(game) == before
    # The same choices on the original reach the same end as on the copy.
    for action in choices:
        game.apply(action)
    assert game.scores == copy.scores
    assert game.results == copy.results
    assert game.trace() == copy.trace()
