"""Every worked score example of the seed texts, through ``table_points`` and the presets.

Citations are seed lines: ``000 l.161`` is line 161 of ``shared/seeds/000_2755060b2ab49a90.txt``
(numbered as ``grep -n`` numbers it; likewise 002, 003, 004), and the quotes are from those lines.
The sub-article labels (000-A1..A5, 002-GJ, 002-RP, 002-J52) are those of docs/rules.md#seeds.
Each expected value is the seed's number or a hand computation from the seed's rule, never the
engine's output. ``table_points(bid, taken, hand_size, table)``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from raspis.engine import Game, load_variant, parse_cards, variant_from_dict
from raspis.engine.core.scoring import deal_points, table_points
from raspis.engine.core.scoring import span_premiums_reference as span_premiums
from raspis.engine.options import BUILTIN_KINDS, KindOptions, ScoringOptions

# The classic tables written out by hand from the seeds (not read from a preset).
#: 000-A4 l.187-190, 000-A5 l.317-323, 002-RP l.51-54, 002-J52 l.110, 004 l.13: made 10 a trick,
#: over 1 a trick, -10 a missing trick; pass 5 (all but 004, which scores no pass).
CLASSIC = ScoringOptions(exact_base=0, exact_per_trick=10, pass_made=5, over_per_trick=1,
                         under_per_taken=0, under_per_missing=-10)
#: 000-A2 l.77: "+10 per taken trick and -10 per missing trick" on an undertrick.
CLASSIC_CREDIT = CLASSIC.model_copy(update={"under_per_taken": 10})
#: Georgian poker, 000-A3 l.161, 002-RP l.63, 004 l.16: 50k + 50, pass 50, 10 a trick taken.
GEORGIAN = ScoringOptions(exact_base=50, exact_per_trick=50, pass_made=50, over_per_trick=10,
                          under_per_taken=10, under_per_missing=0)
#: Georgian poker of 000-A2 l.122: 50 a made trick, no +50.
GEORGIAN_A2 = GEORGIAN.model_copy(update={"exact_base": 0})
#: Georgian Joker, 002-GJ l.19: 100, 150, ... (50k + 50); 9 of 9 -> 900; -200 for a failed bid
#: with no trick taken (the reading of docs/rules.md#scoring-joker); other misses 10 a trick
#: taken, as in Georgian poker (002 l.19 says nothing of them).
GEORGIAN_JOKER = GEORGIAN.model_copy(
    update={"under_nothing_taken": -200, "all_tricks_per_trick": 100, "all_tricks_min_hand": 9}
)


# -- 000 --------------------------------------------------------------------------------------


def test_000_a2_bid_3_took_2_scores_plus_10_with_credit_for_taken_tricks() -> None:
    # 000-A2 l.77: «заказано 3 взятки, а забрал он всего 2, то за 2 взятки он получает 20
    # очков, а за 1 не полученную -10. В сумме получается 10 очков».
    assert table_points(3, 2, 6, CLASSIC_CREDIT) == 10


def test_bid_3_took_2_scores_minus_10_per_missing_trick() -> None:
    # 000-A4 l.188: «за каждый недобор 1-ой взятки отнимается 10 очков».
    assert table_points(3, 2, 6, CLASSIC) == -10
    # «если игрок недобрал больше взяток, то отнимается 20, 30, 40»
    assert table_points(3, 1, 6, CLASSIC) == -20
    assert table_points(3, 0, 6, CLASSIC) == -30
    assert table_points(4, 0, 6, CLASSIC) == -40


def test_pass_made_scores_5() -> None:
    # 000-A2 l.77 «ничего не заказывал и не взял ни одной взятки, ему насчитывает 5 очков»;
    # 000-A4 l.190 «заказал пас, и действительно не взял ни одной взятки, то ему начисляется
    # пять очков»; 002-RP l.53 «выполнил «пас», то ему начисляется 5 очков».
    for hand_size in (1, 6, 9):
        assert table_points(0, 0, hand_size, CLASSIC) == 5


def test_bid_5_made_scores_50() -> None:
    # 000-A4 l.189: «игрок заказал 5 взяток и выполнил свой заказ – ему начисляется 50 очков».
    assert table_points(5, 5, 9, CLASSIC) == 50


def test_bid_3_took_5_scores_5() -> None:
    # 000-A5 l.319: «если вы заказывали 3, а взяли 5, то получите только 5 баллов».
    assert table_points(3, 5, 9, CLASSIC) == 5


def test_000_a3_nothing_taken_costs_10_per_bid_trick() -> None:
    # 000-A3 l.154: «не взял ни одной взятки – снимается по 10 очков за каждую заказанную
    # взятку в любом случае»: b=3, t=0 -> -30.
    assert table_points(3, 0, 6, CLASSIC) == -30


# -- 002 --------------------------------------------------------------------------------------


def test_002_rp_worked_examples() -> None:
    # 002 l.51 «заказал 2 взятки, взял 2 взятки – получил 20 очков»
    assert table_points(2, 2, 6, CLASSIC) == 20
    # 002 l.52 «заказал 2 взятки, взял 3 взятки – получил 3 очка»
    assert table_points(2, 3, 6, CLASSIC) == 3
    # 002 l.54 «заказал 2 взятки, взял 1 взятку – штраф – 10 очков» (no credit for the trick taken)
    assert table_points(2, 1, 6, CLASSIC) == -10


def test_broken_pass_counts_as_an_overtrick() -> None:
    # No seed scores a broken pass apart (docs/rules.md#scoring): a pass is a bid of 0, so its
    # tricks are overtricks, 1 a trick (000 l.187; 002 l.52). RULES §6.
    assert table_points(0, 2, 6, CLASSIC) == 2


def test_georgian_joker_made_bids_100_150_and_so_on() -> None:
    # 002-GJ l.19: «за одну взятку – 100, вторую – 150 и т.д. К каждой последующей
    # прибавляется 50 очков».
    assert table_points(1, 1, 8, GEORGIAN_JOKER) == 100
    assert table_points(2, 2, 8, GEORGIAN_JOKER) == 150
    assert table_points(3, 3, 8, GEORGIAN_JOKER) == 200
    assert table_points(8, 8, 9, GEORGIAN_JOKER) == 450


def test_georgian_joker_nine_of_nine_scores_900_not_500() -> None:
    # 002-GJ l.19: «игрок объявил, что возьмет 9 взяток и сдержал слово, то ему пишется 900,
    # а не 500 очков».
    assert table_points(9, 9, 9, GEORGIAN_JOKER) == 900
    assert table_points(9, 9, 9, GEORGIAN) == 500
    # Stated only for the nine-card deal: eight of eight keeps the formula 50*8 + 50.
    assert table_points(8, 8, 8, GEORGIAN_JOKER) == 450


def test_georgian_joker_minus_200_for_a_failed_bid_with_no_trick() -> None:
    # 002-GJ l.19 «Минус 200 очков ставится тому, кто не выполнил обещание и набрал
    # наименьшее количество очков», read as: bid >= 1, no trick taken (docs/rules.md#scoring-joker).
    assert table_points(3, 0, 9, GEORGIAN_JOKER) == -200
    assert table_points(1, 0, 1, GEORGIAN_JOKER) == -200
    # Any other miss: 10 a trick taken, as in Georgian poker.
    assert table_points(3, 1, 9, GEORGIAN_JOKER) == 10
    assert table_points(1, 4, 9, GEORGIAN_JOKER) == 40
    assert table_points(0, 0, 9, GEORGIAN_JOKER) == 50


# -- Georgian poker ------------------------------------------------------------------------------


def test_georgian_made_bid_is_50k_plus_50() -> None:
    # 000-A3 l.161 «за каждую дается по 50 очков плюс 50 «за просто так»»; 002-RP l.63
    # «заказ*50+50»; 004 l.16 «50*заявка+50».
    assert table_points(1, 1, 4, GEORGIAN) == 100
    assert table_points(3, 3, 8, GEORGIAN) == 200
    assert table_points(9, 9, 9, GEORGIAN) == 500


def test_georgian_pass_made_scores_50() -> None:
    # 000 l.161 «Пасующему ... 50 очков»; 004 l.16 «спасовал и не взял ни одной карты ... 50 очков».
    assert table_points(0, 0, 5, GEORGIAN) == 50


def test_georgian_failed_bid_scores_10_per_trick_taken() -> None:
    # 000 l.161 «При «переборе» и «недоборе» начисляется по 10 очков за каждую взятку»; 002 l.63
    # «взял больше или меньше взяток, ему начисляется всего по 10 очков за каждую взятку»; 004
    # l.16 «взял больше или меньше карт ... по 10 очков за каждую карту» (also 000 l.126): read as
    # 10 a trick taken, so no deal scores below zero (docs/rules.md#scoring-georgian).
    assert table_points(3, 2, 8, GEORGIAN) == 20
    assert table_points(3, 1, 8, GEORGIAN) == 10
    assert table_points(3, 0, 8, GEORGIAN) == 0
    assert table_points(1, 4, 8, GEORGIAN) == 40
    assert table_points(0, 3, 8, GEORGIAN) == 30


def test_georgian_of_000_a2_is_50_a_trick_without_the_bonus() -> None:
    # 000-A2 l.122 «за каждую взятку в выполненном заказе ... по 50 очков»: b=3 made -> 150.
    assert table_points(3, 3, 8, GEORGIAN_A2) == 150


def test_georgian_scores_are_never_negative() -> None:
    for hand_size in range(1, 10):
        for bid in range(hand_size + 1):
            for taken in range(hand_size + 1):
                assert table_points(bid, taken, hand_size, GEORGIAN) >= 0


# -- 003 (Odessa) variants -------------------------------------------------------------------


def test_003_ten_for_the_first_trick_and_five_for_each_further() -> None:
    # 003 l.55 «за первую взятую взятку 10 очков, и по 5 за каждую последующую»:
    # 10 + 5(b - 1) = 5 + 5b.
    table = CLASSIC.model_copy(update={"exact_base": 5, "exact_per_trick": 5})
    assert table_points(1, 1, 6, table) == 10
    assert table_points(3, 3, 6, table) == 20
    assert table_points(5, 5, 6, table) == 30


def test_003_pass_10_and_broken_pass_minus_5_a_trick_or_minus_10_for_all() -> None:
    # 003 l.55 «как вариант - 10 очков, но штрафуется по 5 очков за каждую взятку, или по 10
    # очков если взял все взятки» (the last read as a flat -10).
    table = CLASSIC.model_copy(
        update={"pass_made": 10, "pass_broken_per_trick": -5, "pass_broken_all": -10}
    )
    assert table_points(0, 0, 6, table) == 10
    assert table_points(0, 1, 6, table) == -5
    assert table_points(0, 3, 6, table) == -15
    assert table_points(0, 6, 6, table) == -10


def test_003_broken_pass_that_took_every_trick_10_a_trick() -> None:
    # 003 l.55 «штрафуется по 5 очков за каждую взятку, или по 10 очков если взял все взятки»
    # with the second «по» read as the first, "each": 10 a trick taken when the passer took them
    # all (pass_broken_all_mode = per_trick). Hand computation: six tricks of six, 6 x -10 = -60;
    # one of one, -10 (the two readings meet); fewer than all, 5 a trick as before.
    table = CLASSIC.model_copy(update={"pass_made": 10, "pass_broken_per_trick": -5,
                                       "pass_broken_all": -10,
                                       "pass_broken_all_mode": "per_trick"})
    assert table_points(0, 6, 6, table) == -60
    assert table_points(0, 9, 9, table) == -90
    assert table_points(0, 1, 1, table) == -10
    assert table_points(0, 5, 6, table) == -25
    assert table_points(0, 0, 6, table) == 10
    assert table_points(2, 6, 6, table) == 6  # an overtrick of a bid is no broken pass


@given(hand=st.integers(1, 18), taken=st.integers(0, 18))
def test_the_two_readings_of_003_differ_only_on_a_pass_that_took_all(hand: int, taken: int) -> None:
    taken = min(taken, hand)
    flat = CLASSIC.model_copy(update={"pass_made": 10, "pass_broken_per_trick": -5,
                                      "pass_broken_all": -10})
    each = flat.model_copy(update={"pass_broken_all_mode": "per_trick"})
    if taken == hand:
        assert table_points(0, taken, hand, each) == hand * table_points(0, taken, hand, flat)
    else:
        assert table_points(0, taken, hand, each) == table_points(0, taken, hand, flat)


def _refused(path, text: str) -> str:  # noqa: ANN001
    """The message loading a variant file of ``text`` is refused with."""
    from raspis.engine import VariantError

    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(path)
    return str(error.value)


def test_per_trick_needs_the_amount(tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "each.toml"
    message = _refused(path, 'extends = "odessa"\nscoring.pass_broken_all_mode = "per_trick"\n')
    assert str(path) in message and "scoring.pass_broken_all_mode = 'per_trick'" in message
    assert "scoring.pass_broken_all is not set" in message and "'flat'" in message
    message = _refused(path, 'extends = "odessa"\nscoring.pass_broken_all = -10\n'
                             'scoring.pass_broken_all_mode = "each"\n')
    assert "scoring.pass_broken_all_mode" in message and "'each'" in message
    assert "'flat'" in message and "'per_trick'" in message
    variant = variant_from_dict({"extends": "odessa", "scoring": {
        "pass_broken_all": -10, "pass_broken_all_mode": "per_trick"}})
    assert deal_points(0, 6, 6, variant.kinds["normal"], variant.scoring) == -60
    assert deal_points(0, 6, 6, variant.kinds["dark"], variant.scoring) == -120  # 003 l.57 x2


def test_003_minus_5_a_missing_trick_and_minus_10_when_nothing_taken() -> None:
    # 003 l.55 «как вариант - 5 очков, и 10 очков, если не было взято ни одной взятки».
    table = CLASSIC.model_copy(update={"under_per_missing": -5, "under_nothing_taken": -10})
    assert table_points(3, 2, 6, table) == -5
    assert table_points(3, 1, 6, table) == -10
    assert table_points(3, 0, 6, table) == -10


def test_003_undertrick_costs_the_value_of_the_whole_bid() -> None:
    # 003 l.55 «снимается стоимость всех заказанных взяток»: b=3 -> -30; with the same line's
    # 10/5 table («за первую взятую взятку 10 очков, и по 5 за каждую последующую») b=3 is
    # worth 10 + 5 + 5 -> -20.
    table = CLASSIC.model_copy(update={"under_mode": "bid_value"})
    assert table_points(3, 2, 6, table) == -30
    assert table_points(3, 0, 6, table) == -30
    ten_five = table.model_copy(update={"exact_base": 5, "exact_per_trick": 5})
    assert table_points(3, 1, 6, ten_five) == -20


def test_003_bidding_every_trick_doubles_except_on_one_card() -> None:
    # 003 l.55 «при заказе, который равен числу карт в кону, очки считаются в удвоенном размере
    # (иногда за исключением кона на одну взятку)»: n=6, b=6 -> 120; n=1, b=1 -> 10.
    table = CLASSIC.model_copy(update={"all_tricks_multiplier": 2, "all_tricks_min_hand": 2})
    assert table_points(6, 6, 6, table) == 120
    assert table_points(1, 1, 1, table) == 10
    assert table_points(5, 5, 6, table) == 50
    without_exception = table.model_copy(update={"all_tricks_min_hand": 1})
    assert table_points(1, 1, 1, without_exception) == 20


def test_oh_hell_table() -> None:
    # Oh Hell, the Western parent (named in 003 l.9; the seeds give no Oh Hell scoring): an exact
    # bid scores 10 + tricks, otherwise 1 a trick.
    table = ScoringOptions(exact_base=10, exact_per_trick=1, pass_made=10, over_per_trick=1,
                           under_per_taken=1, under_per_missing=0)
    assert table_points(0, 0, 5, table) == 10
    assert table_points(3, 3, 5, table) == 13
    assert table_points(3, 1, 5, table) == 1
    assert table_points(1, 4, 5, table) == 4


# -- special deals (deal_points) -------------------------------------------------------------


def kind(name: str, **changes: object) -> KindOptions:
    """A built-in deal kind with some fields changed."""
    return KindOptions(**{**BUILTIN_KINDS[name], **changes})


def test_golden_deal_20_a_trick_without_bidding() -> None:
    # 000-A3 l.155 «в играх без торговли за взятку начисляется по 20 очков».
    golden = kind("golden")
    assert deal_points(None, 0, 9, golden, CLASSIC) == 0
    assert deal_points(None, 4, 9, golden, CLASSIC) == 80


def test_misere_minus_10_a_trick() -> None:
    # 000-A4 l.208 «обычно -10 очков за каждую взятку».
    assert deal_points(None, 3, 9, kind("misere"), CLASSIC) == -30
    assert deal_points(None, 0, 9, kind("misere"), CLASSIC) == 0


def test_dark_deal_scores_double() -> None:
    # 004 l.19 «Очки считаются в двойном размере»; 003 l.57 «в увеличенном (двойном или
    # тройном)».
    dark = kind("dark")
    assert deal_points(3, 3, 6, dark, CLASSIC) == 60
    assert deal_points(3, 1, 6, dark, CLASSIC) == -40
    assert deal_points(0, 0, 6, dark, CLASSIC) == 10
    triple = kind("dark", multiplier=3)
    assert deal_points(2, 2, 6, triple, CLASSIC) == 60


def test_lobovaya_50_a_trick_made_minus_50_short_pass_and_over_as_usual() -> None:
    # 000-A2 l.101 and 002-RP l.56 «за каждую взятую в соответствии с заказом взятку
    # начисляется 50 очков; за «недобор» - штраф 50 очков; «пас» и «перебор» считаются по правилам
    # обычной сдачи».
    forehead = kind("lobovaya")
    assert deal_points(2, 2, 6, forehead, CLASSIC) == 100
    assert deal_points(3, 1, 6, forehead, CLASSIC) == -50
    assert deal_points(0, 0, 6, forehead, CLASSIC) == 5
    assert deal_points(1, 3, 6, forehead, CLASSIC) == 3
    # the usual lobovaya deal is of one card: a bid of 1 made is one trick «в соответствии с
    # заказом», 50 (not the table's 10)
    assert deal_points(1, 1, 1, forehead, CLASSIC) == 50
    assert deal_points(1, 0, 1, forehead, CLASSIC) == -50


def test_a_span_without_deals_pays_nobody() -> None:
    """``span_premiums`` of a span with no deals has no seats to pay: an empty list, under a
    premium as without one."""
    premium = ScoringOptions(premium="best_deal", premium_scope="block")
    assert span_premiums([], [], premium) == []
    assert span_premiums([], [], ScoringOptions()) == []


# -- the presets' tables ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "circular-trumps", "odessa", "odessa-long",
                                    "joker-52"])
def test_classic_family_presets_score_the_seed_examples(preset: str) -> None:
    # 000-A4 l.187-190 and 000-A5 l.317-323, 002-RP l.51-54, 003 l.55 defaults, 002-J52 l.110.
    table = load_variant(preset).scoring
    assert table_points(5, 5, 9, table) == 50  # 000 l.189 «заказал 5 взяток ... 50 очков»
    assert table_points(2, 2, 6, table) == 20  # 002 l.51
    assert table_points(2, 3, 6, table) == 3  # 002 l.52
    assert table_points(3, 5, 9, table) == 5  # 000 l.319 «заказывали 3, а взяли 5 ... 5 баллов»
    assert table_points(0, 0, 6, table) == 5  # 000 l.77, l.190; 002 l.53
    assert table_points(2, 1, 6, table) == -10  # 002 l.54
    assert table_points(3, 2, 6, table) == -10  # 000 l.188 «за каждый недобор 1-ой взятки ... 10»
    assert table_points(4, 1, 6, table) == -30  # 000 l.188 «20, 30, 40»


def test_odessa_short_preset_follows_004() -> None:
    # 004 l.13: made 10 a trick, «по одному очку за каждую взятую карту» over, «за каждую
    # недобранную взятку ... по 10 очков» under; 004 l.13 gives no score for a made pass (10 a
    # trick of a bid of 0 is 0; docs/rules.md#scoring).
    table = load_variant("odessa-short").scoring
    assert table_points(3, 3, 6, table) == 30
    assert table_points(2, 4, 6, table) == 4
    assert table_points(3, 1, 6, table) == -20
    assert table_points(0, 0, 6, table) == 0


def test_georgian_preset_follows_000_a3_002_rp_004() -> None:
    table = load_variant("georgian").scoring
    assert table_points(3, 3, 8, table) == 200
    assert table_points(3, 2, 8, table) == 20
    assert table_points(0, 0, 8, table) == 50
    assert table_points(3, 0, 8, table) == 0
    assert table_points(9, 9, 9, table) == 500


def test_joker_preset_follows_002_gj() -> None:
    table = load_variant("joker").scoring
    assert table_points(1, 1, 5, table) == 100
    assert table_points(2, 2, 5, table) == 150
    assert table_points(9, 9, 9, table) == 900
    assert table_points(2, 0, 9, table) == -200
    assert table_points(2, 1, 9, table) == 10


def test_oh_hell_preset_table() -> None:
    table = load_variant("oh-hell").scoring
    assert table_points(0, 0, 5, table) == 10
    assert table_points(2, 2, 5, table) == 12
    assert table_points(2, 1, 5, table) == 1


def test_preset_special_kinds() -> None:
    # classic (000-A4): dark bids may sum to the tricks (l.206), golden 20 a trick (l.207
    # «обычно вдвое»), misère -10 a trick (l.208); dark and no-trump deals, given no factor by
    # the fourth article, double as every seed line with a factor says (000 l.101 «умноженное
    # вдвое или втрое», l.155, 002 l.56 «в двойном или тройном размере», 003 l.57): bid 2 made
    # 2 x 20, bid 2 took none 2 x -20, overtricks 2 x 1 a trick, a made pass 2 x 5. odessa (003
    # l.57) and odessa-short (004 l.19): the blind deal doubles.
    for preset in ("classic", "classic-lobovaya", "circular-trumps"):
        classic = load_variant(preset)
        assert deal_points(None, 3, 9, classic.kind("golden"), classic.scoring) == 60
        assert deal_points(None, 3, 9, classic.kind("misere"), classic.scoring) == -30
        for name in ("dark", "no_trump"):
            kind = classic.kind(name)
            assert deal_points(2, 2, 9, kind, classic.scoring) == 40
            assert deal_points(2, 0, 9, kind, classic.scoring) == -40
            assert deal_points(2, 4, 9, kind, classic.scoring) == 8
            assert deal_points(0, 0, 9, kind, classic.scoring) == 10
        assert deal_points(2, 2, 9, classic.kind("normal"), classic.scoring) == 20
    for preset in ("odessa", "odessa-long", "odessa-short"):
        variant = load_variant(preset)
        assert deal_points(2, 2, 6, variant.kind("dark"), variant.scoring) == 40
        assert deal_points(2, 0, 6, variant.kind("dark"), variant.scoring) == -40


# -- scores through a played deal ------------------------------------------------------------


def play_out(game: Game, cards: list[str]) -> None:
    """Play the listed plain cards in turn (for deals without a Joker)."""
    from raspis.engine import Play, parse_card

    for text in cards:
        game.apply(Play(parse_card(text)))


def test_a_played_deal_writes_the_table_points_to_the_right_seats() -> None:
    # Three players, two cards each, trump ♥, dealer seat 0, so seat 1 bids and leads first.
    # Seat 1: A♠ K♠ takes both spade tricks. Bids: seat 1 "2" (made: 20), seat 2 pass (made: 5),
    # seat 0 (dealer, sum must not be 2) "1" (took 0: -10).
    variant = load_variant("odessa-short")
    hands = [parse_cards("7c 8c"), parse_cards("As Ks"), parse_cards("6d 7d")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[2, 0, 1])
    play_out(game, ["As", "6d", "7c", "Ks", "7d", "8c"])
    result = game.results[-1]
    assert result.taken == (0, 2, 0)
    assert result.points == (-10, 20, 0)  # 004: a made pass scores nothing
    assert game.scores == [-10, 20, 0]


def test_a_played_dark_deal_is_doubled() -> None:
    variant = load_variant("odessa")
    hands = [parse_cards("7c 8c"), parse_cards("As Ks"), parse_cards("6d 7d")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, kind="dark", bids=[2, 0, 1])
    play_out(game, ["As", "6d", "7c", "Ks", "7d", "8c"])
    assert game.results[-1].points == (-20, 40, 10)


def test_a_played_dark_deal_doubles_its_penalties_only() -> None:
    # 000 l.325 «наказания ещё более суровые ... (и за перебор, и за недобор)», through the rules
    # core's score table: the dealer's missed bid costs double, the made bid and pass do not gain.
    variant = variant_from_dict({"extends": "odessa",
                                 "kinds": {"dark": {"multiplier_scope": "penalties"}}})
    hands = [parse_cards("7c 8c"), parse_cards("As Ks"), parse_cards("6d 7d")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, kind="dark", bids=[2, 0, 1])
    play_out(game, ["As", "6d", "7c", "Ks", "7d", "8c"])
    assert game.results[-1].points == (-20, 20, 5)


def test_a_negative_total_is_a_double_loss_in_odessa() -> None:
    # 003 l.55 «При игре на деньги минусовый результат считается двойным проигрышем», 004 l.13.
    variant = load_variant("odessa-short")
    hands = [parse_cards("7c 8c"), parse_cards("As Ks"), parse_cards("6d 7d")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[2, 0, 1])
    play_out(game, ["As", "6d", "7c", "Ks", "7d", "8c"])
    assert game.is_over()
    assert game.double_losses() == [True, False, False]
    plain = variant_from_dict({"extends": "odessa-short", "end": {"negative_total": "plain"}})
    game = Game.single_deal(plain, hands, trump=3, dealer=0, bids=[2, 0, 1])
    play_out(game, ["As", "6d", "7c", "Ks", "7d", "8c"])
    assert game.double_losses() == [False, False, False]


def test_joker_premium_for_making_every_bid_of_the_game() -> None:
    # 002-GJ l.21 «Если игрок взял объявленное число взяток во всех раздачах, то ему начисляются
    # премиальные очки»; the preset's amount is the player's best deal score once more. In a game
    # of one deal, who made the bid earns it; who failed does not.
    variant = load_variant("joker")
    hands = [parse_cards("7c 8c"), parse_cards("As Ks"), parse_cards("7d 8d")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[2, 1, 1])
    play_out(game, ["As", "7d", "7c", "Ks", "8d", "8c"])
    result = game.results[-1]
    # seat 1 bid 2 took 2: 150; seat 2 bid 1 took 0: -200; seat 0 bid 1 took 0: -200.
    assert result.points == (-200, 150, -200)
    assert result.premiums == (0, 150, 0)
    assert game.scores == [-200, 300, -200]


def test_a_tie_for_first_is_broken_by_a_golden_deal_between_the_tied_players() -> None:
    # 003 l.73 «В случае набора равного количества очков в двух и больше игроков,им
    # предоставляется дополнительная «золотая» раздача»: the tied leaders play an extra golden
    # deal (no bidding, 20 a trick: 003 l.41 «например, вдвое»). l.73 names no hand: the
    # preset's largest, six (l.17 «По шесть карт»), though the deck would give the two 18.
    import random

    variant = load_variant("odessa")
    hands = [parse_cards("7c 8c"), parse_cards("As 6d"), parse_cards("Ad 6s")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[1, 1, 1])
    play_out(game, ["As", "6s", "7c", "6d", "Ad", "8c"])
    assert game.results[0].points == (-10, 10, 10)
    assert not game.is_over()
    assert game.deal.kind == "golden"
    assert game.deal.hand_size == 6
    assert sorted(game.view.order) == [1, 2]
    assert game.view.hands[0] == 0
    chooser = random.Random(0)
    while not game.is_over():
        game.apply(chooser.choice(game.legal_actions()))
    extra = game.results[1:]
    assert 1 <= len(extra) <= variant.end.tie_deals
    for result in extra:
        assert result.kind == "golden"
        assert result.bids == (None, None, None)
        assert result.points[0] == 0
        assert result.points[1] + result.points[2] == 20 * 6
    if len(extra) < variant.end.tie_deals:
        assert sorted(game.places()) == [1, 2, 3]


# -- 000, third article: the undertrick table ---------------------------------------------------


@pytest.mark.parametrize(("mode", "short_by_two"), [("flat", -5), ("linear", -10)])
def test_000_a3_undertricks_once_or_a_trick_and_nothing_taken_per_bid(
        mode: str, short_by_two: int) -> None:
    """000-A3 l.153-154: «при «недоборе», но не с «пустой рукой» — снимается по 5 или 10 очков
    (может быть разово, а может – и за каждую взятку); если игрок не взял ни одной взятки –
    снимается по 10 очков за каждую заказанную взятку в любом случае». Here 5 a time."""
    table = ScoringOptions(under_mode=mode, under_per_missing=-5, under_nothing_per_bid=-10)
    assert table_points(3, 1, 6, table) == short_by_two  # two short: once, or 5 each
    assert table_points(3, 2, 6, table) == -5            # one short: the same either way
    assert table_points(3, 0, 6, table) == -30           # nothing taken: 10 per bid trick
    assert table_points(1, 0, 6, table) == -10
    assert table_points(0, 0, 6, table) == 5             # a made pass is no undertrick
    assert table_points(2, 2, 6, table) == 20


def test_000_a3_options_in_a_variant_file_and_the_hash_of_older_variants() -> None:
    variant = variant_from_dict({"extends": "classic", "scoring": {
        "under_mode": "flat", "under_per_missing": -10, "under_nothing_per_bid": -10}})
    kind = variant.kinds["normal"]
    assert deal_points(4, 1, 9, kind, variant.scoring) == -10
    assert deal_points(4, 0, 9, kind, variant.scoring) == -40
    # a new option at its default leaves the hash (and every recorded dataset's) as it was
    classic = load_variant("classic")
    assert classic.content_hash == variant_from_dict({"extends": "classic"}).content_hash
    assert variant.content_hash != classic.content_hash


def test_nothing_taken_is_scored_one_way_only() -> None:
    from raspis.engine import VariantError

    with pytest.raises(VariantError, match="under_nothing_per_bid"):
        variant_from_dict({"extends": "classic", "scoring": {"under_nothing_taken": -200,
                                                             "under_nothing_per_bid": -10}})


# -- 000 l.325: the special deals' harsher penalties -------------------------------------------

#: 003 l.55's broken pass, «штрафуется по 5 очков за каждую взятку»: a table that fines an
#: overtrick (a pass is a bid of 0, so the passer's tricks are overtricks).
PASS_FINED = CLASSIC.model_copy(update={"pass_made": 10, "pass_broken_per_trick": -5})


def test_000_l325_penalties_only_are_multiplied() -> None:
    """000 l.325: «Особенно – в специальных режимах, где наказания ещё более суровые по сравнению
    с обычными раздачами (и за перебор, и за недобор)»; the factor is l.101's «вдвое или втрое».
    A dark deal x2, penalties only: what costs points costs double, what earns points earns as
    in a plain deal."""
    harsh = kind("dark", multiplier=2, multiplier_scope="penalties")
    assert deal_points(3, 1, 6, harsh, CLASSIC) == -40  # two short: -20, doubled
    assert deal_points(3, 0, 6, harsh, CLASSIC) == -60  # three short: -30, doubled
    assert deal_points(3, 3, 6, harsh, CLASSIC) == 30   # made: 10 a trick, not doubled
    assert deal_points(0, 0, 6, harsh, CLASSIC) == 5    # a made pass: 5, not doubled
    assert deal_points(1, 3, 6, harsh, CLASSIC) == 3    # overtricks: 1 a trick, not raised
    # where the table fines the overtrick, the fine is the harsher one: «и за перебор»
    assert deal_points(0, 2, 6, harsh, PASS_FINED) == -20  # 5 a trick, doubled
    # the same deal scored "в двойном размере" throughout (000 l.101, 003 l.57): the reward too
    double = kind("dark", multiplier=2)
    assert deal_points(3, 3, 6, double, CLASSIC) == 60
    assert deal_points(1, 3, 6, double, CLASSIC) == 6
    # misère's -10 a trick is all penalty: tripled
    assert deal_points(None, 2, 6, kind("misere", multiplier=3,
                                        multiplier_scope="penalties"), CLASSIC) == -60


@given(bid=st.integers(0, 9), taken=st.integers(0, 9), multiplier=st.integers(2, 3),
       fined=st.booleans())
def test_penalties_only_is_never_kinder_and_differs_only_on_rewards(
        bid: int, taken: int, multiplier: int, fined: bool) -> None:
    """Properties of 000 l.325's reading, against the plain deal (multiplier 1) and the whole
    multiplier (l.101): a penalty is the whole multiplier's (it costs ``multiplier`` times a
    plain deal's), a reward stays a plain deal's; so the deal is never worth more than under
    the whole multiplier when it costs points, nor more than a plain deal when it earns."""
    hand = 9
    table = PASS_FINED if fined else CLASSIC
    plain = deal_points(bid, taken, hand, kind("dark", multiplier=1), table)
    whole = deal_points(bid, taken, hand, kind("dark", multiplier=multiplier), table)
    harsh = deal_points(bid, taken, hand, kind("dark", multiplier=multiplier,
                                               multiplier_scope="penalties"), table)
    assert harsh == (whole if plain < 0 else plain)
    assert harsh <= plain and (harsh < plain) == (plain < 0)


def test_penalties_only_needs_a_multiplier_and_a_known_scope(tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "harsh.toml"
    message = _refused(path, 'extends = "classic"\nkinds.golden.multiplier_scope = "penalties"\n')
    assert str(path) in message and "kinds.golden" in message and "'penalties'" in message
    assert "multiplier is 1" in message and "'all'" in message
    message = _refused(path, 'extends = "classic"\nkinds.dark.multiplier_scope = "rewards"\n')
    assert "kinds.dark.multiplier_scope" in message and "'rewards'" in message
    assert "'all'" in message and "'penalties'" in message
    # set, it is other rules; left at 'all', the hash of every older variant is as it was
    harsh = variant_from_dict({"extends": "odessa",
                               "kinds": {"dark": {"multiplier_scope": "penalties"}}})
    assert harsh.content_hash != load_variant("odessa").content_hash
    spelled = variant_from_dict({"extends": "odessa",
                                 "kinds": {"dark": {"multiplier_scope": "all"}}})
    assert spelled.content_hash == load_variant("odessa").content_hash
