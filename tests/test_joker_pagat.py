"""Georgian Joker as the world plays it: the ``joker-pagat`` preset, from pagat.com's
Joker page (www.pagat.com/exact/joker.html) and the online jok.ge rules and Georgian score apps,
and the premium's readings (``engine.core.scoring.span_premiums_reference``). Each test quotes
its source."""

from __future__ import annotations

import random

import numpy as np
import pytest
from raspis.engine import (
    Game,
    Play,
    VariantError,
    load_variant,
    parse_card,
    parse_cards,
    variant_from_dict,
)
from raspis.engine.core.scoring import deal_points
from raspis.engine.core.scoring import span_premiums_reference as span_premiums
from raspis.engine.options import ScoringOptions

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


@pytest.fixture(scope="module")
def pagat():  # noqa: ANN201
    return load_variant("joker-pagat")


def test_the_third_set_is_dealt_eight_down_to_one(pagat) -> None:  # noqa: ANN001
    """pagat: «In the third set there are again 8 hands, with 8 cards each dealt in the first
    hand, 7 each in the second, the 6, 5 and so on until in the last hand of the set only 1 card
    each is dealt. The fourth set is like the second set: 4 hands with 9 cards». 24 hands."""
    deals = pagat.deal_schedule(4)
    assert [deal.hand_size for deal in deals] == [*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1),
                                                  9, 9, 9, 9]
    assert [deal.block for deal in deals] == [0] * 8 + [1] * 4 + [2] * 8 + [3] * 4
    assert [deal.kind for deal in deals if deal.hand_size == 9] == ["named"] * 8
    # the seed's preset deals the third set upwards again (002: «Третья ячейка идентична первой»)
    assert [deal.hand_size for deal in load_variant("joker").deal_schedule(4)][12:20] == list(
        range(1, 9))


def test_the_deck_is_36_cards_with_the_black_sixes_as_jokers(pagat) -> None:  # noqa: ANN001
    """pagat: «A standard deck of 36 cards is used, with Jokers substituted for the two black
    Sixes»."""
    assert pagat.deck_size == 36 and pagat.joker_count == 2
    assert pagat.deck.joker_cards == ["6c", "6s"]


def test_naming_trump_in_the_nines_may_name_no_trump(pagat) -> None:  # noqa: ANN001
    """Rule: «naming no trump allowed in the nines» (the seed's preset forbids it)."""
    assert pagat.trump.naming_allows_no_trump
    assert not load_variant("joker").trump.naming_allows_no_trump
    game = Game(pagat, 4, seed=3)
    while game.deal.hand_size != 9:
        game.apply(random.Random(1).choice(game.legal_actions()))
    assert any(action.suit == -1 for action in game.legal_actions())  # type: ignore[union-attr]


@pytest.mark.parametrize(("bid", "taken", "hand", "points"), [
    (1, 1, 1, 100), (2, 2, 5, 150), (3, 3, 8, 200), (8, 8, 9, 450),  # 50 a trick bid + 50
    (0, 0, 9, 50),                                                    # a pass made
    (2, 2, 2, 200), (9, 9, 9, 900), (5, 5, 5, 500),                   # all tricks: 100 a trick
    (3, 1, 8, 10), (2, 5, 8, 50), (0, 2, 4, 20),                      # otherwise 10 a trick taken
    (1, 0, 4, -200), (6, 0, 9, -200),                                 # khishti
])
def test_the_score_table(pagat, bid: int, taken: int, hand: int, points: int) -> None:  # noqa: ANN001
    """Rule: «50k + 50 for a made bid, pass 50, all tricks 100 a trick, otherwise 10 a trick
    taken, khishti (bid at least one, take none) -200»; pagat (in a rules summary that cites it):
    «Bid all tricks and won all: 100 points per trick», on any hand."""
    assert deal_points(bid, taken, hand, pagat.kinds["normal"], pagat.scoring) == points


def test_khishti_minus_500_is_one_line_of_a_variant_file(tmp_path) -> None:  # noqa: ANN001
    """Rule: «khishti ... -200, with -500 as the documented alternative»."""
    path = tmp_path / "khishti-500.toml"
    path.write_text('extends = "joker-pagat"\nscoring.under_nothing_taken = -500\n',
                    encoding="utf-8")
    variant = load_variant(path)
    assert deal_points(3, 0, 9, variant.kinds["normal"], variant.scoring) == -500
    assert deal_points(3, 1, 9, variant.kinds["normal"], variant.scoring) == 10


def _one_trick(variant, hands: list[str], trump: int, plays: list[Play]) -> tuple[int, ...]:  # noqa: ANN001
    """Play one trick of a one-card deal (dealer seat 3, so seat 0 leads) and return the taken."""
    game = Game.single_deal(variant, [parse_cards(hand) for hand in hands], trump=trump, dealer=3,
                            bids=[1, 0, 0, 1])
    for play in plays:
        game.apply(play)
    return game.results[-1].taken


def test_wants_a_trump_beats_the_joker_unless_the_named_suit_is_trump(pagat) -> None:  # noqa: ANN001
    """Pagat's «wants»: «everyone plays their highest of the named suit, void players
    trump; a trump beats the Joker unless the named suit is trump»."""
    joker = parse_card("JK")
    wants_spades = Play(joker, "highest", SPADES)
    # trump hearts: seat 1 has no spade and must trump; its 7♥ takes the trick
    taken = _one_trick(pagat, ["JK", "7h", "As", "8d"], HEARTS,
                       [wants_spades, Play(parse_card("7h")), Play(parse_card("As")),
                        Play(parse_card("8d"))])
    assert taken == (0, 1, 0, 0)
    # the named suit is trump: nobody can trump it, the Joker keeps the trick
    wants_hearts = Play(joker, "highest", HEARTS)
    taken = _one_trick(pagat, ["JK", "7h", "As", "8d"], HEARTS,
                       [wants_hearts, Play(parse_card("7h")), Play(parse_card("As")),
                        Play(parse_card("8d"))])
    assert taken == (1, 0, 0, 0)
    # the seed's preset lets the Joker keep the trick against the trump (joker_wins)
    seed = load_variant("joker")
    taken = _one_trick(seed, ["JK", "7h", "As", "8d"], HEARTS,
                       [wants_spades, Play(parse_card("7h")), Play(parse_card("As")),
                        Play(parse_card("8d"))])
    assert taken == (1, 0, 0, 0)


def test_takes_the_joker_is_the_lowest_of_the_named_suit(pagat) -> None:  # noqa: ANN001
    """Pagat's «takes»: «the Joker is the lowest of the named suit, followed freely;
    the highest card of it or a trump wins; the Joker wins only if nobody follows or trumps»."""
    joker = parse_card("JK")
    takes_spades = Play(joker, "low", SPADES)
    taken = _one_trick(pagat, ["JK", "7s", "As", "8d"], HEARTS,
                       [takes_spades, Play(parse_card("7s")), Play(parse_card("As")),
                        Play(parse_card("8d"))])
    assert taken == (0, 0, 1, 0)
    taken = _one_trick(pagat, ["JK", "7c", "Ad", "8d"], -1,
                       [takes_spades, Play(parse_card("7c")), Play(parse_card("Ad")),
                        Play(parse_card("8d"))])
    assert taken == (1, 0, 0, 0)


def test_the_two_joker_leads_are_wants_and_takes(pagat) -> None:  # noqa: ANN001
    """Rule: «the two Joker leads as they are called there: "wants" (high ...) and "takes"
    (low ...)»: a Joker lead names a suit and is one of the two."""
    game = Game.single_deal(pagat, [parse_cards(h) for h in ["JK 7s", "8s 9s", "Ts Js",
                                                             "Qs Ks"]],
                            trump=HEARTS, dealer=3, bids=[1, 0, 0, 0])
    calls = {(action.call, action.suit) for action in game.legal_actions()  # type: ignore[union-attr]
             if action.card == parse_card("JK")}
    assert calls == {(call, suit) for call in ("highest", "low") for suit in range(4)}


def test_a_later_high_joker_beats_an_earlier_one_and_no_trump_beats_it(pagat) -> None:  # noqa: ANN001
    """Rule: «a later high Joker beats an earlier one, and no trump beats a second Joker
    played high»."""
    first, second = parse_card("JK1"), parse_card("JK2")
    taken = _one_trick(pagat, ["JK1", "7h", "JK2", "8d"], HEARTS,
                       [Play(first, "highest", SPADES), Play(parse_card("7h")),
                        Play(second, "high"), Play(parse_card("8d"))])
    assert taken == (0, 0, 1, 0)


# -- the premium, judged per set -------------------------------------------------------------


def test_the_premium_is_judged_per_set(pagat) -> None:  # noqa: ANN001
    """Rule: «the premium judged per set: a player who makes every bid of a set scores their
    best deal of that set once more»; the seed's preset judges the game (002: «во всех
    раздачах»)."""
    assert pagat.scoring.premium == "best_deal" and pagat.scoring.premium_scope == "block"
    assert load_variant("joker").scoring.premium_scope == "game"
    assert (pagat.scoring.premium_others, pagat.scoring.premium_last_deal,
            pagat.scoring.premium_several) == ("none", "counts", "each")


READINGS = [{}, {"premium_others": "best_cancelled"}, {"premium_others": "next_cancelled"},
            {"premium_last_deal": "excluded"},
            {"premium_others": "best_cancelled", "premium_several": "each_cancelled"},
            {"premium_several": "none"}]


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: ",".join(r.values()) or "preset")
def test_the_engine_pays_the_premium_as_span_premiums_reads_it(reading: dict[str, str]) -> None:
    """Whole games played by the heuristic under each reading of the premium: at the end of each
    set every seat's premium (with the cancelled best deals taken off) is what ``span_premiums``
    reads from the set's bids, tricks and points, and nothing in between."""
    from raspis.strategies.players.heuristic import policy_action
    from raspis.strategies.players.tactics import rules_for

    pagat = variant_from_dict({"extends": "joker-pagat", "scoring": reading})
    rules = rules_for(pagat)
    paid = 0
    for seed in range(6 if not reading else 3):
        game = Game(pagat, 4, seed=seed)
        while not game.is_over():
            game.apply(policy_action(game, rules))
        results = game.results
        blocks = [deal.block for deal in pagat.deal_schedule(4)]
        for block in range(4):
            span = [result for result, number in zip(results, blocks, strict=False)
                    if number == block]
            made = [[bid is None or bid == taken for bid, taken in zip(r.bids, r.taken,
                                                                       strict=True)]
                    for r in span]
            points = [list(r.points) for r in span]
            assert list(span[-1].premiums) == span_premiums(made, points, pagat.scoring)
            paid += sum(abs(premium) for premium in span[-1].premiums)
            for result in span[:-1]:
                assert result.premiums == (0, 0, 0, 0)
    assert paid > 0  # the test saw some premiums paid


def table(**options: object) -> ScoringOptions:
    """A score table with a per-set best-deal premium and ``options``."""
    return ScoringOptions(premium="best_deal", premium_scope="block", **options)


# A set of three deals between three seats: seat 0 makes every bid (best deal 150), seat 1 misses
# the last deal (best 200), seat 2 makes every bid but the first (best 100).
MADE = [[True, True, False], [True, True, True], [True, False, True]]
POINTS = [[100, 200, 10], [150, 50, 100], [50, 20, 50]]


def test_best_deal_once_more_and_nothing_to_the_others() -> None:
    """pagat (in a rules summary that cites it): «If you make your bid on every hand in a set,
    you earn a bonus equal to the highest score you earned on any single hand in that set»."""
    assert span_premiums(MADE, POINTS, table()) == [150, 0, 0]
    fixed = ScoringOptions(premium="fixed", premium_points=300, premium_scope="block")
    assert span_premiums(MADE, POINTS, fixed) == [300, 0, 0]
    assert span_premiums(MADE, POINTS, ScoringOptions()) == [0, 0, 0]


def test_every_other_players_best_deal_cancelled() -> None:
    """Rule: «options for what happens to the others (nothing; every other player's best
    deal of the set cancelled; only the next player's)»."""
    assert span_premiums(MADE, POINTS, table(premium_others="best_cancelled")) == [150, -200,
                                                                                   -100]
    assert span_premiums(MADE, POINTS, table(premium_others="next_cancelled")) == [150, -200, 0]
    # a best deal below zero is no gain to cancel
    assert span_premiums([[True, False]], [[100, -200]],
                         table(premium_others="best_cancelled")) == [100, 0]


def test_the_sets_last_deal_not_counting() -> None:
    """Rule: «for the set's last deal not counting»: seat 2 missed only the first deal, seat
    1 only the last; without the last deal seat 1 made every bid, and its best is of the first
    two deals."""
    assert span_premiums(MADE, POINTS, table(premium_last_deal="excluded")) == [150, 200, 0]


def test_several_players_earning_it_in_the_same_set() -> None:
    """Rule: «and for several players earning it in the same set»."""
    both = [[True, True, False], [True, True, True]]
    points = [[100, 200, 10], [150, 50, 100]]
    assert span_premiums(both, points, table(premium_others="best_cancelled")) == [150, 200, -100]
    assert span_premiums(both, points, table(premium_others="best_cancelled",
                                             premium_several="each_cancelled")) == [0, 0, -100]
    assert span_premiums(both, points, table(premium_several="none")) == [0, 0, 0]
    # one earner alone is paid under every reading of several earners
    assert span_premiums(MADE, POINTS, table(premium_several="none")) == [150, 0, 0]


def test_the_core_judges_a_span_as_span_premiums_does() -> None:
    """The rules core's judge of a span (``engine.core.scoring.span_premiums``, what both engines
    call) against the readings written out in ``span_premiums_reference`` on random spans:
    every reading, spans of one to four deals, two to four seats, best deals of either sign."""
    from raspis.engine.core import scoring as core

    chooser = random.Random(12)
    readings = [(others, last, several)
                for others in ("none", "best_cancelled", "next_cancelled")
                for last in ("counts", "excluded")
                for several in ("each", "each_cancelled", "none")]
    for others, last, several in readings:
        options = table(premium_others=others, premium_last_deal=last, premium_several=several)
        for _ in range(40):
            seats, deals = chooser.randint(2, 4), chooser.randint(1, 4)
            made = [[chooser.random() < 0.7 for _ in range(seats)] for _ in range(deals)]
            points = [[chooser.randrange(-300, 400, 10) for _ in range(seats)]
                      for _ in range(deals)]
            counted = deals - 1 if last == "excluded" else deals
            record_made, record_best = [True] * seats, [0] * seats
            for deal in range(counted):  # the records as both engines keep them
                for seat in range(seats):
                    bid = 1 if made[deal][seat] else 0
                    record_made[seat], record_best[seat] = core.span_record(
                        record_made[seat], record_best[seat], bid, 1, points[deal][seat],
                        deal == 0)
            out = np.zeros(seats, dtype=np.int64)
            core.span_premiums(np.array(record_made, dtype=np.int64),
                               np.array(record_best, dtype=np.int64), counted > 0,
                               core.PREMIUM_BEST_DEAL, 0,
                               core.PREMIUM_OTHERS_CODES[others],
                               core.PREMIUM_SEVERAL_CODES[several], out)
            assert list(out) == span_premiums(made, points, options), (others, last, several)


def test_a_premium_reading_without_a_premium_is_a_mistake() -> None:
    with pytest.raises(VariantError, match="scoring.premium is 'none'"):
        variant_from_dict({"extends": "classic", "scoring": {"premium_several": "none"}})


def test_the_new_options_leave_older_variants_hashes_alone() -> None:
    """Options added after the first release at their defaults do not change a content hash."""
    joker = load_variant("joker")
    assert joker.content_hash == "535bbb54ed8a10b6"
    spelled = variant_from_dict({"extends": "joker", "name": "joker", "description":
                                 joker.description, "scoring": {"premium_others": "none",
                                                                "premium_last_deal": "counts",
                                                                "premium_several": "each"}})
    assert spelled.content_hash == joker.content_hash
