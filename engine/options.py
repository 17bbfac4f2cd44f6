"""Every rule option of the game family, as validated, frozen data.

Each class is one section of a variant file (``[deck]``, ``[trump]``, ``[joker]``, ...); each field
is one rule option of ``shared/RULES.md`` with its default and, in its description, the seed text it
comes from. The defaults describe the classic raspisnoy poker of seed 000. ``variant.py`` loads TOML
files into these models; the engine reads them and hides no rule constant of its own.
"""

from __future__ import annotations

from typing import Any, Literal, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .cards import JOKER, parse_card
from .schedule import MAX_CARDS, MAX_DEALS, check_entry

SuitName = Literal["spades", "clubs", "diamonds", "hearts"]
LeadCall = Literal[
    "high", "high_suit", "low", "low_suit", "highest_suit", "lowest_suit", "highest_trumps",
    "highest_card", "lowest_card", "lowest_trump", "one_trump", "named_rank",
]


#: Bound on every points value of a variant (scores, fines, premiums): |points| <= 10^9.
POINTS_LIMIT = 10**9

#: Bound on every multiplier (a deal kind's, the all-tricks bonus's): at most 100.
MULTIPLIER_LIMIT = 100

#: Most points one deal may be worth to one player, every multiplier and fine included (checked
#: by the variant). With at most ``MAX_DEALS`` deals and 100 tie-break deals a game, every total
#: stays far inside 64 bits, and every deal's points inside 32.
DEAL_POINTS_LIMIT = 10**9

#: Most extra golden deals that break a tie, and most games in a match.
MAX_TIE_DEALS = 100
MAX_MATCH_GAMES = 99

_P = POINTS_LIMIT


class Section(BaseModel):
    """Base of every options section: frozen, and unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _no_true_for_a_number(cls, value: Any, info: ValidationInfo) -> Any:
        """``true`` / ``false`` where a number belongs is a mistake, not 1 / 0."""
        if not _wants_int(cls.model_fields[info.field_name].annotation):
            return value
        if isinstance(value, bool):
            raise ValueError(f"{str(value).lower()} is not a number (true and false are not 1 "
                             "and 0): write a whole number")
        if isinstance(value, list) and any(isinstance(item, bool) for item in value):
            raise ValueError(f"{str(value).lower()} holds true or false, which are not numbers: "
                             "write whole numbers")
        return value


def _wants_int(annotation: Any) -> bool:
    """Whether a field's type is an int, an optional int or a list of them."""
    return annotation is int or any(_wants_int(arg) for arg in get_args(annotation))


def allowed_values(annotation: Any) -> tuple[list[str], bool]:
    """The values an option of this type may take, as a variant file writes them (``'none'``,
    ``true``), and whether they are the items of a list (``joker.lead_calls``); an empty list when
    the values are not a fixed set (numbers, cards, schedules). ``None`` (the key left out) is not
    listed."""
    args = [arg for arg in get_args(annotation) if arg is not type(None)]
    if annotation is bool:
        return ["true", "false"], False
    if get_origin(annotation) is Literal:
        return [repr(arg) if isinstance(arg, str) else str(arg) for arg in args], False
    if get_origin(annotation) is list and len(args) == 1:
        values, _ = allowed_values(args[0])
        return values, bool(values)
    if len(args) == 1:  # an optional value: X | None
        return allowed_values(args[0])
    return [], False


def _check_card(text: str) -> str:
    parse_card(text)
    return text


class PlayersOptions(Section):
    """How many players the variant allows (RULES §1: 2 to 10, 2-6 usual)."""

    min: int = Field(2, ge=2, le=10, description="fewest players")
    max: int = Field(6, ge=2, le=10, description="most players")
    only: list[int] | None = Field(
        None, description="only these counts within min..max (Georgian poker: 4 or 6, 000 l.161); "
        "not empty, no count twice"
    )

    @model_validator(mode="after")
    def _ordered(self) -> PlayersOptions:
        if self.min > self.max:
            raise ValueError(f"players.min ({self.min}) is larger than players.max ({self.max})")
        if self.only is None:
            return self
        allowed = f"counts from players.min to players.max ({self.min}..{self.max})"
        if not self.only:
            raise ValueError(f"players.only = [] allows no player count: list {allowed}, or leave "
                             "players.only out to allow them all")
        outside = [count for count in self.only if not self.min <= count <= self.max]
        if outside:
            raise ValueError(f"players.only = {self.only}: {outside} outside players.min..players."
                             f"max; list only {allowed}")
        twice = sorted({count for count in self.only if self.only.count(count) > 1})
        if twice:
            raise ValueError(f"players.only = {self.only} names {twice} twice; list each count "
                             "once")
        return self


class DeckOptions(Section):
    """The deck (RULES §2): 36 (6..A), 52 (2..A), with real or designated Jokers."""

    lowest_rank: int = Field(6, ge=2, le=10,
                             description="lowest rank in the deck: 6 for 36 cards, 2 for 52")
    jokers: int = Field(0, ge=0, le=2, description="real Joker cards added to the deck (0, 1 or 2)")
    joker_cards: list[str] = Field(
        default_factory=list,
        description="ordinary cards that act as Jokers, e.g. ['7s'] (000, 003) or ['6c', '6s'] "
        "(002); each card once, never a Joker itself",
    )
    removed: list[str] = Field(
        default_factory=list,
        description="cards taken out of the deck, e.g. the 33-card deck of 003: ['6s', '6d', "
        "'6h']; ordinary cards of the deck, each once (a Joker is left out with jokers = 0)",
    )

    @field_validator("joker_cards", "removed")
    @classmethod
    def _cards(cls, value: list[str], info: ValidationInfo) -> list[str]:
        key = info.field_name
        seen: dict[int, str] = {}
        for text in value:
            card = parse_card(text)
            if card >= JOKER:
                raise ValueError(
                    f"{text!r} is a Joker; deck.{key} lists ordinary cards such as '7s' (real "
                    "Jokers are counted by deck.jokers, 0 to 2)"
                )
            if card in seen:
                raise ValueError(f"{seen[card]!r} and {text!r} are the same card; list each "
                                 "card once")
            seen[card] = text
        return value

    @model_validator(mode="after")
    def _joker_count(self) -> DeckOptions:
        if self.jokers + len(self.joker_cards) > 2:
            raise ValueError(
                f"a deck has at most two Jokers; got {self.jokers} real and "
                f"{len(self.joker_cards)} designated ({self.joker_cards})"
            )
        for text in self.removed:
            card = parse_card(text)
            if card % 13 + 2 < self.lowest_rank:
                raise ValueError(
                    f"deck.removed: {text!r} is not in a deck whose lowest rank is "
                    f"{self.lowest_rank} (deck.lowest_rank); remove only cards of rank "
                    f"{self.lowest_rank} or higher"
                )
            if card in {parse_card(joker) for joker in self.joker_cards}:
                raise ValueError(f"deck.removed: {text!r} is also a Joker in deck.joker_cards; a "
                                 "card cannot be both")
        ordinary = (15 - self.lowest_rank) * 4
        if ordinary - len(self.removed) + self.jokers < 2:
            raise ValueError(
                f"deck.removed takes out {len(self.removed)} of the {ordinary} cards, leaving "
                f"{ordinary - len(self.removed) + self.jokers} with the Jokers; a deck needs at "
                "least one card for each of at least 2 players"
            )
        return self


class ScheduleOptions(Section):
    """The deal schedule (RULES §3), as blocks; see ``engine.schedule`` for the notation."""

    deals: list[str] = Field(
        default_factory=lambda: ["1..max-1", "max*players", "max-1..1"],
        description="blocks of deals, e.g. ['1..max-1', 'max*players', 'max-1..1'] (000 classic)",
    )
    max_hand: int | None = Field(
        None, ge=1, le=MAX_CARDS,
        description=f"cap on 'max' (Odessa short, 003/004: 6), 1 to {MAX_CARDS}; none: deck // "
        "players",
    )

    @field_validator("deals")
    @classmethod
    def _entries(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("the schedule needs at least one block")
        if len(value) > MAX_DEALS:
            raise ValueError(f"the schedule has {len(value)} blocks; a game has at most "
                             f"{MAX_DEALS} deals")
        for entry in value:
            check_entry(entry)
        return value


class TrumpOptions(Section):
    """How the trump suit is chosen (RULES §4)."""

    mode: Literal["turned", "fixed", "none", "circular"] = Field(
        "turned",
        description="turned: the card after the deal (all seeds); fixed: one suit all game (000, "
        "003); none: never a trump; circular: the suit after the led suit (000, 002)",
    )
    fixed_suit: SuitName | None = Field(None, description="the suit when mode = fixed")
    joker_turned: Literal["no_trump", "dealer_names"] = Field(
        "no_trump", description="a Joker turned up: no trump (all seeds) or the dealer names (003)"
    )
    full_deal: Literal["last_dealt", "no_trump", "named"] = Field(
        "last_dealt",
        description="when the maximum hand is dealt and no card is left to turn: the dealer's last "
        "card shows trump (000), no trump, or the player left of the dealer names it (002)",
    )
    unturned_leftover: int = Field(
        0, ge=0, le=MAX_CARDS,
        description="a stock of at most this many cards (0 to 54) after the deal is not turned, "
        "and the deal "
        "counts as a full deal (003, 52 + Joker: the odd card «не открывается»); 0: a card left "
        "is always turned (000: the dealer's last card only when the deck is dealt «без остатка»)",
    )
    named_after_cards: int = Field(
        3, ge=1, le=MAX_CARDS,
        description="a player naming trump sees only this many first cards (002: 3), 1 to 54",
    )
    naming_allows_no_trump: bool = Field(True, description="naming may choose no trump")

    @model_validator(mode="after")
    def _fixed(self) -> TrumpOptions:
        if self.mode == "fixed" and self.fixed_suit is None:
            raise ValueError("trump.mode = 'fixed' needs trump.fixed_suit (spades, clubs, ...)")
        return self


class JokerOptions(Section):
    """The Joker in play (RULES §5)."""

    lead_calls: list[LeadCall] = Field(
        default_factory=lambda: ["high_suit", "low_suit", "highest_suit", "highest_trumps"],
        description="what a player leading the Joker may announce: high / low (the next card sets "
        "the led suit, 002 Joker-52), high_suit / low_suit (Joker high, or lowest, of a named "
        "suit, "
        "003), highest_suit ('по старшим пикам': everyone plays their highest of that suit, 000), "
        "lowest_suit (everyone plays their lowest of that suit, 002), highest_trumps ('по старшим "
        "козырям', 000); highest_card / lowest_card ('самой старшей картой любой масти', 'по "
        "старшей карте', 'по младшей карте', 000 second and fourth articles: everyone plays a "
        "card of the highest / lowest rank they hold, in a suit of their choice), lowest_trump "
        "('по младшему козырю', 000 fourth article: the lowest trump, without one any card; not "
        "in a no-trump deal), one_trump ('Запросить, чтоб игроки скинули по одному козырю', 000 "
        "l.84: everyone plays a trump of their choice, without one any card; not in a no-trump "
        "deal), named_rank ('карту определённого номинала, например туза', 003: "
        "the leader names a rank of the deck, everyone plays a card of it, without one any "
        "card); after each of these five demands the Joker takes the trick (no trump beats it, "
        "whatever demand_trumped says). Default: the four of 003's Odessa poker, high_suit, "
        "low_suit, highest_suit, highest_trumps",
    )
    demands_first_trick_only: bool = Field(
        False, description="demands (highest_suit, lowest_suit, highest_trumps, highest_card, "
        "lowest_card, lowest_trump, one_trump, named_rank) only on the first trick of a deal (000 "
        "l.183 «первой картой кона», a кон being a deal; 002 l.35, 003 l.27)"
    )
    demands_until_deal: int | None = Field(
        None, ge=1, le=MAX_DEALS,
        description=f"demands only in deals 1..N of the game (000), N up to {MAX_DEALS}",
    )
    demand_trumped: Literal["joker_wins", "trump_wins"] = Field(
        "joker_wins",
        description="after 'highest <suit>', a trump played by a void player beats the Joker or "
        "not, agreed before the game (000); never after highest_card, lowest_card, lowest_trump, "
        "one_trump or named_rank, whose Joker takes the trick",
    )
    two_jokers: Literal["second_wins", "first_wins", "opposite"] = Field(
        "second_wins",
        description="two Jokers in one trick: the later high one wins, the first one keeps it, or "
        "the "
        "second takes the opposite value of the first (002 Joker-52)",
    )
    lead_fine: int = Field(
        0, ge=-_P, le=0,
        description="points for leading the Joker unless it is the last card (002: -10); "
        "-10^9 to 0",
    )
    locked_until: str | None = Field(
        None, description="the Joker may not be played until this card has been (003: 'Qs')"
    )
    as_card: bool = Field(
        False, description="the Joker may also be declared as any card of the deck, led or "
        "played to a trick ('джокер может быть выдан за любую карту: любого ранга и масти', 000 "
        "third and fifth articles; 'выдав джокера за любую карту любой масти', 002): it takes "
        "that card's place, beats what it beats and loses to what beats it; led, it leads that "
        "card's suit; played to a trick it is always allowed ('на джокера не распространяется "
        "правило ходить по масти или козырю'). Any card of the deck may be named, even one in a "
        "hand or played already; with the real card in the same trick the earlier one wins. "
        "Played as 'JK card A♥'. Off: only the calls of lead_calls, and high / low after the "
        "lead",
    )
    lead_choice: bool = Field(
        False,
        description="the player who led the Joker sees the whole trick and keeps it or declines "
        "it; a declined trick goes to the best of the other cards (000 second article: "
        "'Походивший с джокера может забрать взятку, либо отказаться от нее')",
    )

    @field_validator("locked_until")
    @classmethod
    def _card(cls, value: str | None) -> str | None:
        return None if value is None else _check_card(value)

    @field_validator("lead_calls")
    @classmethod
    def _some(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("the Joker needs at least one lead call")
        return value


class BiddingOptions(Section):
    """Bidding restrictions (RULES §1, §7)."""

    hook: Literal["always", "off", "from_deal", "specials_only", "overbid"] = Field(
        "always",
        description="the dealer's hook: the last bidder may not make the bids sum to the tricks "
        "(000); off ('сходимся', 003); from deal N on (003); only in special deals (003); or "
        "'overbid': the last bidder must make the bids exceed the tricks, on every deal (003); "
        "where no bid can, the bids must at least not meet",
    )
    hook_from_deal: int = Field(
        4, ge=1, le=MAX_DEALS,
        description=f"first deal (1-based) with the hook, for from_deal; up to {MAX_DEALS}",
    )
    max_consecutive_passes: int | None = Field(
        None, ge=1, le=MAX_DEALS,
        description="no more passes in a row than this (003: 2); waived when nothing else is "
        f"legal; up to {MAX_DEALS}",
    )


class PlayOptions(Section):
    """Card play (RULES §1, §5, §8)."""

    must_trump: bool = Field(
        True, description="a player void in the led suit must trump if able (004); Oh Hell: no"
    )
    first_lead: Literal["left_of_dealer", "dealer"] = Field(
        "left_of_dealer", description="who leads the first trick (002 Joker-52: the dealer)"
    )
    draw_after_trick: bool = Field(
        False,
        description="after each trick every player draws a card from the stock in turn, the "
        "winner first, while it has a card for everyone; the turned trump card lies under the "
        "stock and is drawn last; bids and the hook count the deal's tricks (hand + full rounds "
        "of draws) (002 Joker-52 'После чего игроки берут по одной карте из оставшейся колоды', "
        "read literally; off in the preset)",
    )
    memory: Literal["full", "own_and_last", "last", "none", "own"] = Field(
        "full",
        description="which finished tricks a seat's observation shows: all, its own and the last "
        "one (003), only the last, none (000 'строго в закрытую'), or its own only (000 first "
        "article 'подглядывать в свои взятки', 002)",
    )


class KindOptions(Section):
    """A kind of deal: normal, or a special deal of RULES §3 (dark, golden, misère, ...)."""

    special: bool = Field(False, description="counts as a special deal (for hook = specials_only)")
    bidding: Literal["open", "dark", "blind", "none"] = Field(
        "open",
        description="bid after seeing the cards; before the deal (dark: neither hand nor trump "
        "seen); after the deal without looking (blind: the trump seen, the hand not; 000 second "
        "article, 002 «либо после, но не глядя»); or not at all",
    )
    trump: Literal["default", "none", "named"] = Field(
        "default",
        description="the variant's trump rule, no trump, or named by the player left of the dealer "
        "after seeing trump.named_after_cards cards (002 pulkas 2 and 4)",
    )
    view: Literal["normal", "forehead", "forehead_card"] = Field(
        "normal",
        description="what a seat sees of the hands in a lobovaya deal. forehead: while bidding "
        "every hand but one's own, the own hand hidden (000 fifth article: «показывает остальным "
        "свои карты, а как вариант – приклеивает их у себя на лбу»); forehead_card: at the deal "
        "each player, without looking, shows the others one card of the hand drawn at random "
        "(000 second article: «Покеристы наугад выбирают одну карту и клеят ее себе на лоб»; 002 "
        "«Не глядя в свои карты, игрок показывает ее остальным»; 003 «продемонстрировать "
        "противникам карту из него»): while bidding the own hand is hidden, the trump and every "
        "other seat's shown card are seen; after bidding the hand is seen as usual, and the "
        "shown cards stay known to the others until played (everyone saw them); open or blind "
        "bidding only",
    )
    hook: Literal["variant", "always", "off", "overbid"] = Field(
        "variant",
        description="the hook in this kind of deal; 'variant' follows bidding.hook; overbid: the "
        "last bidder must make the bids exceed the tricks (003 dark deals: others 3 + 3 of 12 "
        "cards, so at least 7; where no bid can, the bids must at least not meet)",
    )
    min_bid: int = Field(
        0, ge=0, le=MAX_CARDS,
        description="smallest bid: 1 forbids the pass (003 dark deals); 0 to 54",
    )
    scoring: Literal["table", "per_trick", "made_or_short"] = Field(
        "table",
        description="table: the variant's [scoring]; per_trick: per_trick points a trick taken "
        "(golden, misère); made_or_short: a made bid k > 0 scores per_trick * k, falling short "
        "short_points, a pass or an overtrick as the table (lobovaya, 000, 002)",
    )
    per_trick: int = Field(
        0, ge=-_P, le=_P,
        description="points a trick for per_trick and made_or_short scoring; |value| <= 10^9",
    )
    short_points: int = Field(
        0, ge=-_P, le=_P,
        description="points for falling short under made_or_short; |value| <= 10^9",
    )
    multiplier: int = Field(
        1, ge=1, le=MULTIPLIER_LIMIT,
        description=f"the deal's points are multiplied by this (x2, x3: 000 l.101 «умноженное "
        f"вдвое или втрое», 003 l.57); 1 to {MULTIPLIER_LIMIT}",
    )
    multiplier_scope: Literal["all", "penalties"] = Field(
        "all",
        description="what the multiplier scales: all, every outcome of the deal (000 l.101, 003 "
        "l.57: the points «в двойном или тройном размере»); or penalties, only the outcomes that "
        "cost points (000 l.325: in the special deals «наказания ещё более суровые по сравнению "
        "с обычными раздачами (и за перебор, и за недобор)»): a deal score below 0 is "
        "multiplied, a made bid, a made pass and an overtrick's reward are not (an overtrick is "
        "multiplied where the table fines it, as a broken pass at -5 a trick, 003 l.55); "
        "penalties needs a multiplier above 1",
    )
    joker_holder_leads: bool = Field(
        False, description="the Joker's holder leads first (000 no-trump)"
    )

    @model_validator(mode="after")
    def _scope(self) -> KindOptions:
        if self.multiplier_scope == "penalties" and self.multiplier == 1:
            raise ValueError(
                "multiplier_scope = 'penalties' says what the kind's multiplier scales, but "
                "multiplier is 1, which scales nothing: set multiplier to 2 or more (000 l.325, "
                "with 000 l.101 «вдвое или втрое»), or leave multiplier_scope at 'all'"
            )
        return self

    @model_validator(mode="after")
    def _bidding(self) -> KindOptions:
        if self.bidding == "none" and self.scoring != "per_trick":
            raise ValueError("a deal kind without bidding needs scoring = 'per_trick'")
        if self.view == "forehead_card" and self.bidding not in ("open", "blind"):
            raise ValueError(
                f"view = 'forehead_card' shows a card of each hand after the deal, before the "
                f"bids; bidding = {self.bidding!r} has no such moment: use bidding = 'open' (or "
                "'blind'), or view = 'normal'"
            )
        return self


#: Deal kinds every variant knows; a variant may change any field or add kinds of its own.
BUILTIN_KINDS: dict[str, dict[str, object]] = {
    "normal": {},
    "dark": {"special": True, "bidding": "dark", "multiplier": 2},
    "golden": {"special": True, "bidding": "none", "scoring": "per_trick", "per_trick": 20},
    "misere": {"special": True, "bidding": "none", "scoring": "per_trick", "per_trick": -10},
    "no_trump": {"special": True, "trump": "none"},
    # lobovaya keeps the whole-hand reading (000 fifth article) by default: the golden corpus's
    # option mixes play lobovaya deals with it; a variant takes the one-card reading of 000's
    # second article, 002 and 003 with [kinds.lobovaya] view = "forehead_card" (lobovaya.toml)
    "lobovaya": {"special": True, "view": "forehead", "scoring": "made_or_short",
                 "per_trick": 50, "short_points": -50},
}


#: The options that say how a premium is judged (``engine.core.scoring.span_premiums``).
PREMIUM_READINGS = ("premium_others", "premium_last_deal", "premium_several")


class ScoringOptions(Section):
    """The score table of a deal (RULES §6); ``k`` is the bid, ``t`` the tricks taken."""

    exact_base: int = Field(
        0, ge=-_P, le=_P,
        description="made exactly (k > 0): exact_base + exact_per_trick * k; |value| <= 10^9",
    )
    exact_per_trick: int = Field(
        10, ge=-_P, le=_P,
        description="10 (000, 003, 004); Georgian 50 with base 50; |value| <= 10^9",
    )
    pass_made: int = Field(
        5, ge=-_P, le=_P,
        description="bid 0, took 0: 5 (classic), 10 (003), 50 (Georgian); |value| <= 10^9",
    )
    over_per_trick: int = Field(
        1, ge=-_P, le=_P,
        description="took more than bid: points per trick taken (1; 10); |value| <= 10^9",
    )
    under_mode: Literal["linear", "bid_value", "flat"] = Field(
        "linear",
        description="linear: under_per_taken * t + under_per_missing * (k - t); bid_value: minus "
        "what the bid would have scored (003); flat: under_per_missing once, however many "
        "tricks are missing (000 third article: «снимается по 5 или 10 очков ... разово»)",
    )
    under_per_taken: int = Field(
        0, ge=-_P, le=_P,
        description="+10 (000 second reading), 10 (Georgian), 1 (Oh Hell); |value| <= 10^9",
    )
    under_per_missing: int = Field(
        -10, ge=-_P, le=_P, description="-10 (000, 004), -5 (003); |value| <= 10^9"
    )
    under_nothing_taken: int | None = Field(
        None, ge=-_P, le=_P,
        description="replaces the under score when no trick was taken: -10 (003), -200 (002); "
        "|value| <= 10^9",
    )
    under_nothing_per_bid: int | None = Field(
        None, ge=-_P, le=_P,
        description="replaces the under score when no trick was taken: this a bid trick (000 "
        "third article: «если игрок не взял ни одной взятки – снимается по 10 очков за каждую "
        "заказанную взятку»: -10); |value| <= 10^9",
    )
    pass_broken_per_trick: int | None = Field(
        None, ge=-_P, le=_P,
        description="bid 0, took t > 0: points a trick; none: as over_per_trick (003: -5); "
        "|value| <= 10^9",
    )
    pass_broken_all: int | None = Field(
        None, ge=-_P, le=_P,
        description="bid 0 and took every trick (003 l.55: -10), once or a trick "
        "(pass_broken_all_mode); |value| <= 10^9",
    )
    pass_broken_all_mode: Literal["flat", "per_trick"] = Field(
        "flat",
        description="how pass_broken_all counts: flat, once for the deal (003 l.55 «по 10 очков "
        "если взял все взятки» read as 10 in all); per_trick, that much a trick taken (the same "
        "words with «по» read as 'each', as in the line's «по 5 очков за каждую взятку»: a pass "
        "that took all 6 tricks, -60); per_trick needs pass_broken_all",
    )
    all_tricks_multiplier: int = Field(
        1, ge=1, le=MULTIPLIER_LIMIT,
        description="bid every trick of the deal and made it: x this (003: 2); 1 to "
        f"{MULTIPLIER_LIMIT}",
    )
    all_tricks_per_trick: int | None = Field(
        None, ge=-_P, le=_P,
        description="bid every trick and made it: this a trick instead (002: 100, 9 -> 900); "
        "|value| <= 10^9",
    )
    all_tricks_min_hand: int = Field(
        2, ge=1, le=MAX_CARDS,
        description="the all-tricks bonus needs at least this hand (003: not on one card); 1 to 54",
    )
    premium: Literal["none", "fixed", "best_deal"] = Field(
        "none",
        description="a premium for making every bid of a block/pulka (002): fixed points, or the "
        "player's best deal score of the block once more",
    )
    premium_points: int = Field(
        0, ge=-_P, le=_P, description="points of a fixed premium; |value| <= 10^9"
    )
    premium_scope: Literal["game", "block"] = Field(
        "game", description="the premium needs every bid of the game made (002 as written: 'во "
        "всех раздачах') or every bid of one block (pulka)"
    )
    premium_others: Literal["none", "best_cancelled", "next_cancelled"] = Field(
        "none",
        description="what a premium does to the other players: nothing (002; pagat's set bonus); "
        "every other player's best deal of the span cancelled, or only the next player's (the "
        "Georgian score apps, jok.ge); a cancelled deal counts nothing",
    )
    premium_last_deal: Literal["counts", "excluded"] = Field(
        "counts",
        description="the span's last deal counts for the premium (002), or is left out of it: its "
        "bid need not be made and its score is never the best deal (a Georgian house rule)",
    )
    premium_several: Literal["each", "each_cancelled", "none"] = Field(
        "each",
        description="several players earning the premium in one span: each scores it and no "
        "premium cancels an earner's deal; each scores it and the cancellations fall on earners "
        "too; or nobody scores it (Georgian house rules)",
    )

    @model_validator(mode="after")
    def _premium_readings(self) -> ScoringOptions:
        for key in PREMIUM_READINGS:
            value = getattr(self, key)
            if value != type(self).model_fields[key].default and self.premium == "none":
                raise ValueError(
                    f"scoring.{key} = {value!r} says how a premium is judged, but scoring.premium "
                    "is 'none': set scoring.premium to 'best_deal' or 'fixed', or leave "
                    f"scoring.{key} out"
                )
        return self

    @model_validator(mode="after")
    def _broken_pass_per_trick(self) -> ScoringOptions:
        if self.pass_broken_all_mode == "per_trick" and self.pass_broken_all is None:
            raise ValueError(
                "scoring.pass_broken_all_mode = 'per_trick' says how scoring.pass_broken_all "
                "counts, but scoring.pass_broken_all is not set: set it (003 l.55: -10, 10 a "
                "trick), or leave pass_broken_all_mode at 'flat'"
            )
        return self

    @model_validator(mode="after")
    def _nothing_taken_once(self) -> ScoringOptions:
        if self.under_nothing_taken is not None and self.under_nothing_per_bid is not None:
            raise ValueError(
                "scoring.under_nothing_taken and scoring.under_nothing_per_bid both say what a "
                "bid with no trick taken scores: give one of them"
            )
        return self


class EndOptions(Section):
    """The end of a game (RULES §3, §6)."""

    tie: Literal["shared", "golden_deal"] = Field(
        "shared",
        description="equal top totals: share first place, or an extra golden deal between "
        "the tied players (003), repeated up to tie_deals times"
    )
    tie_deals: int = Field(
        3, ge=1, le=MAX_TIE_DEALS,
        description=f"most extra golden deals to break a tie; 1 to {MAX_TIE_DEALS}",
    )
    negative_total: Literal["plain", "double_loss"] = Field(
        "plain", description="a negative final total counts as a double loss (003, 004)"
    )


#: Most extra games a tied match plays before it is left shared (002 names no limit).
MAX_EXTRA_GAMES = 10


class MatchOptions(Section):
    """Matches of several games (RULES §3: 002 Joker-52, best of 3)."""

    games: int = Field(
        1, ge=1, le=MAX_MATCH_GAMES,
        description=f"a match is best of this many games; 1 to {MAX_MATCH_GAMES}",
    )
    tie_break: Literal["second_places", "none"] = Field(
        "none", description="a tied match is decided by second places, then extra games (002)"
    )
    playoff: Literal["all", "leaders"] = Field(
        "all", description="who plays the extra games after the first: the whole table, only the "
        "tied leaders' scores counting; or the tied leaders alone, in a game of their own (002: "
        "«разыгрывается партия между этими лидерами»), where the variant allows that many players"
    )


class TableOptions(Section):
    """Seating and the first dealer (RULES §8)."""

    first_dealer: Literal["lot", "first_ace", "seat0"] = Field(
        "lot",
        description="lot: everyone draws, the highest card deals (000, 002); first_ace: cards are "
        "dealt face up until someone gets an ace (002); seat0: seat 0 deals first",
    )
