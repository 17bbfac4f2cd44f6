"""Two rules of the seeds, from their own words.

1. Joker-52's draw after each trick (002, second variant, «Черных Н.С.», read literally):
   «После раздачи карт игрокам, верхняя карта с колоды снимается и кладется в открытом виде по
   центру стола это козырь ... Поперек этой карты кладется колода в закрытом виде, также как и при
   игре в Дурака» and «Выложенные карты забирает игрок, чья карта окажется старшей. После чего
   игроки берут по одной карте из оставшейся колоды.» The option ``play.draw_after_trick``: every
   player draws a card in turn from the trick's winner while the stock has one for each, the
   turned trump card (under the stock, as in Durak) last; a deal then has the hand plus one trick
   for each full round of draws, and the bids and the hook count those tricks. Off in the
   ``joker-52`` preset: read literally, every three-player deal of the 2..8..2 table would play all
   54 cards, 18 tricks, whatever its hand.
2. Keeping or declining the trick a Joker led (000, second article): «Походивший с джокера может
   забрать взятку, либо отказаться от нее. Во втором случае взятку забирает игрок, который походил
   самой сильной картой.» The option ``joker.lead_choice``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from raspis.cli.main import cli
from raspis.engine import Bid, Game, Keep, Phase, Play, load_variant, parse_action, parse_cards
from raspis.engine.core import deal as chance
from raspis.engine.core.plan import rule_plan
from raspis.engine.determinize import HandSampler, remaining_counts
from raspis.engine.events import TrickKept, TrickWon
from raspis.engine.variant import variant_from_dict
from raspis.strategies.policies.keep import keep_from_observation, keep_trick


def drawing(extends: str = "joker-52", **more: object) -> object:
    data = {"extends": extends, "name": f"{extends}-drawing", "play": {"draw_after_trick": True}}
    data.update(more)
    return variant_from_dict(data)


def keeping(extends: str = "classic", **joker: object) -> object:
    return variant_from_dict({"extends": extends, "name": f"{extends}-keeping",
                              "joker": {"lead_choice": True, **joker}})


def card(text: str) -> int:
    return parse_cards(text).bit_length() - 1


# -- 1. the draw after each trick -----------------------------------------------------------------


def _played_alike(copy: Game, game: Game) -> Game:
    """Play the search's ``copy`` to its end beside a clone of ``game``, the same first legal
    action each step, both offering the same actions; the clone, to compare results with."""
    replay = game.clone()
    while not copy.is_over():
        action = replay.legal_actions()[0]
        assert copy.legal_actions() == replay.legal_actions()
        copy.apply(action)
        replay.apply(action)
    return replay


def test_the_preset_keeps_the_draw_off() -> None:
    """The 2..8..2 table of 002 is kept: the preset deals and plays as many tricks as cards."""
    assert load_variant("joker-52").play.draw_after_trick is False
    game = Game("joker-52", 3, seed=1)
    assert game.view.deal.tricks == game.deal.hand_size == 2


@pytest.mark.parametrize(("players", "hand", "tricks"), [
    (3, 2, 18), (3, 8, 18),  # 54 cards: 2 + 48 // 3 = 18; 8 + 30 // 3 = 18: all 54 cards
    (4, 3, 13),  # 3 + (54 - 12) // 4 = 13: two cards stay, the turned one among them
    (5, 4, 10),  # 4 + 34 // 5 = 10
])
def test_a_deal_has_its_hand_and_one_trick_a_round_of_draws(players: int, hand: int,
                                                            tricks: int) -> None:
    """«игроки берут по одной карте из оставшейся колоды»: one round of draws after a trick
    while the stock (the turned card in it) has a card for every player."""
    assert chance.deal_tricks(hand, players, 54 - hand * players, True) == tricks
    assert chance.deal_tricks(hand, players, 54 - hand * players, False) == hand
    variant = drawing(schedule={"deals": [str(hand)]})
    game = Game(variant, players, seed=3)
    assert game.view.deal.tricks == tricks
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    assert sum(game.results[0].taken) == tricks


def test_the_turned_card_lies_under_the_stock() -> None:
    """«Поперек этой карты кладется колода в закрытом виде, также как и при игре в Дурака»: the
    turned card is the stock's last card; without the draw it lies out of play."""
    deck = np.arange(10, dtype=np.int64)
    out = np.zeros(10, dtype=np.int64)
    count = chance.stock_after_deal(deck, 6, True, True, out)
    assert out[:count].tolist() == [7, 8, 9, 6]
    count = chance.stock_after_deal(deck, 6, True, False, out)
    assert out[:count].tolist() == [7, 8, 9]
    count = chance.stock_after_deal(deck, 6, False, True, out)
    assert out[:count].tolist() == [6, 7, 8, 9]
    game = Game(drawing(), 3, seed=11)
    assert game.view.stock[-1] == game.trump_card
    assert len(game.view.stock) == 54 - 3 * 2


@pytest.mark.parametrize("seed", range(4))
def test_everyone_draws_in_turn_from_the_winner_and_the_turned_card_comes_last(seed: int) -> None:
    """After each trick each player takes the next card of the stock, the trick's winner first,
    then round the table; the turned trump card is the very last card drawn, seen by all."""
    game = Game(drawing(schedule={"deals": ["3"]}), 3, seed=seed)
    turned = game.trump_card
    chooser = random.Random(seed)
    while not game.is_over():
        if game.phase != Phase.PLAY or len(game.trick) != 2:
            game.apply(chooser.choice(game.legal_actions()))
            continue
        before = list(game.view.hands)
        stock = list(game.view.stock)
        logged = len(game.log)
        action = chooser.choice(game.legal_actions())
        seat = game.to_move
        game.apply(action)
        won = [event for event in game.log[logged:] if isinstance(event, TrickWon)]
        assert len(won) == 1
        if game.is_over() or not stock:
            continue
        before[seat] &= ~(1 << action.card)
        gained = [after & ~was for after, was in zip(game.view.hands, before, strict=True)]
        order = game.view.order
        start = order.index(won[0].seat)
        for step in range(3):
            drawer = order[(start + step) % 3]
            assert gained[drawer] == 1 << stock[step], (drawer, step)
        if turned in stock[:3]:
            assert stock[2] == turned and len(stock) == 3, "the turned card is drawn last"
            drawer = order[(start + 2) % 3]
            assert game.view.turned_holder == drawer
            assert game.observation((drawer + 1) % 3).turned_holder == drawer
        else:
            assert game.view.turned_holder == -1
    assert sum(game.results[0].taken) == 18


def test_bids_range_over_the_tricks_and_the_hook_counts_them() -> None:
    """Bids 0 .. the deal's tricks (18 on a two-card deal of three players); the dealer may not
    make the bids add up to the tricks (000 «не сходимся»; 002 «сумма всех заявок ... не должна
    равняться»), here 18 - (10 + 5) = 3, a bid above the dealer's two cards."""
    game = Game(drawing(), 3, seed=2)
    assert game.phase == Phase.BID and game.deal.hand_size == 2
    assert game.legal_bids() == list(range(19))
    game.apply(Bid(10))
    game.apply(Bid(5))
    assert game.to_move == game.view.dealer
    assert game.legal_bids() == [bid for bid in range(19) if bid != 3]
    assert Bid(3) not in game.legal_actions() and Bid(18) in game.legal_actions()
    game.apply(Bid(18))
    assert game.view.hook_forced


def test_the_score_table_counts_the_deals_tricks() -> None:
    """A made bid above the hand scores as any made bid: 10 a trick (002)."""
    plan = rule_plan(drawing().for_player_count(3), 3)
    table = plan.points_table(2, plan.variant.kinds["normal"], 18)
    assert table.shape == (20, 19)
    assert table[12 + 1, 12] == 120 and table[12 + 1, 10] == -20 and table[0 + 1, 0] == 5


def test_search_games_know_the_stock_and_the_turned_card() -> None:
    """A determinization deals the unseen cards to the hands and the stock, the turned card last
    while it lies under the stock, or in the hand of the seat that drew it; the real stock
    replays the real deal."""
    game = Game(drawing(schedule={"deals": ["2"]}), 3, seed=5)
    rng = random.Random(5)
    checked = 0
    while not game.is_over():
        if game.phase == Phase.PLAY and rng.random() < 0.3:
            seat = game.to_move
            observation = game.observation(seat)
            assert remaining_counts(observation) == [hand.bit_count() for hand in game.view.hands]
            sampler = HandSampler(observation)
            hands = sampler.sample(rng)
            assert [hand.bit_count() for hand in hands] == remaining_counts(observation)
            stock = sampler.sample_stock(hands, rng)
            assert len(stock) == len(game.view.stock)
            if game.view.turned_holder < 0:
                assert stock[-1] == game.trump_card
            elif not game.view.played >> game.trump_card & 1:
                assert hands[game.view.turned_holder] >> game.trump_card & 1
            held = 0
            for hand in hands:
                held |= hand
            assert not held & sum(1 << c for c in stock)
            copy = Game.from_observation(observation, game.view.hands, stock=game.view.stock)
            replay = _played_alike(copy, game)
            assert copy.results[0].taken == replay.results[0].taken
            checked += 1
        game.apply(game.legal_actions()[0])
    assert checked


def test_a_search_game_of_a_tie_break_deal_counts_the_tied_players_draws() -> None:
    """A tie-break golden deal (003 l.73) between two of three players, with the draw after each
    trick: six cards each leave 24 in the stock, twelve rounds for two, so 18 tricks (not the 12
    that three players' rounds would make). The search's copy of the deal plays them all, as the
    real deal does (it once sized the deal for every seat and wrote past its state)."""
    variant = variant_from_dict({"extends": "odessa", "name": "tie-draw",
                                 "players": {"min": 3, "max": 3}, "schedule": {"deals": ["1"]},
                                 "play": {"draw_after_trick": True}})
    game = Game(variant, 3, seed=11)
    chooser = random.Random(11)
    while not (len(game.view.order) == 2 and game.phase == Phase.PLAY):
        game.apply(chooser.choice(game.legal_actions()))
    observation = game.observation(game.to_move)
    assert (game.deal.kind, game.deal.hand_size, observation.deal_tricks) == ("golden", 6, 18)
    copy = Game.from_observation(observation, game.view.hands, stock=game.view.stock)
    replay = _played_alike(copy, game)
    assert copy.results[0].taken == replay.results[-1].taken and sum(copy.results[0].taken) == 18


# -- 2. keeping or declining the trick a Joker led -------------------------------------------------


def _joker_trick(variant: object, call: str, suit: int = -1) -> Game:
    """Seat 1 (left of dealer 0) leads the Joker; spades led; seat 3 trumps with a heart."""
    hands = [parse_cards("Qs 7c 6c"), parse_cards("JK 8s 6d"), parse_cards("Ks 9s 6h"),
             parse_cards("7h 10c 9c")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[1, 1, 0, 0])
    game.apply(Play(52, call, suit))  # type: ignore[arg-type]
    for _ in range(3):
        game.apply(game.legal_actions()[0] if game.to_move != 2 else Play(card("Ks")))
    return game


def test_the_jokers_player_sees_the_trick_and_chooses() -> None:
    """«Походивший с джокера может забрать взятку, либо отказаться от нее»: after the trick's last
    card the Joker's player decides, seeing the whole trick."""
    game = _joker_trick(keeping(), "highest", 0)
    assert game.phase == Phase.KEEP and game.to_move == 1
    assert game.legal_actions() == [Keep(True), Keep(False)]
    assert len(game.trick) == 4 and game.observation(1).trick == tuple(game.trick)
    game.apply(Keep(True))
    assert game.view.taken == [0, 1, 0, 0] and game.phase == Phase.PLAY and game.to_move == 1
    assert str(game.log[-2]) == "  seat 1 keeps the trick"
    assert isinstance(game.log[-2], TrickKept)


def test_a_declined_trick_goes_to_the_strongest_other_card() -> None:
    """«Во втором случае взятку забирает игрок, который походил самой сильной картой»: the king of
    the spades the Joker demanded, or the trump where a void player trumped."""
    game = _joker_trick(keeping(), "highest", 0)
    trick = {entry.seat: entry.card for entry in game.trick}
    assert trick[2] == card("Ks") and trick[3] == card("7h")  # seat 3 void in spades: trumps
    game.apply(Keep(False))
    assert game.view.taken == [0, 0, 0, 1], "the 7 of hearts, a trump, is the strongest other card"
    assert str(game.log[-2]) == "  seat 1 declines the trick"
    hands = [parse_cards("Qs 7c 6c"), parse_cards("JK 8s 6d"), parse_cards("Ks 9s 6h"),
             parse_cards("9c 10c 8c")]
    game = Game.single_deal(keeping(), hands, trump=3, dealer=0, bids=[1, 1, 0, 0])
    game.apply(Play(52, "highest", 0))
    game.apply(Play(card("Ks")))
    game.apply(Play(card("8c")))  # void in spades, no trump
    game.apply(Play(card("Qs")))
    game.apply(Keep(False))
    assert game.view.taken == [0, 0, 1, 0], "the king of spades"


def test_a_trick_the_joker_does_not_hold_is_no_choice() -> None:
    """A Joker led low gives the trick away: nothing to keep or decline."""
    game = _joker_trick(keeping(), "low")
    assert game.phase == Phase.PLAY and sum(game.view.taken) == 1 and game.view.taken[1] == 0


def test_without_the_option_nothing_changes() -> None:
    game = _joker_trick(load_variant("classic"), "highest", 0)
    assert game.phase == Phase.PLAY and game.view.taken == [0, 1, 0, 0]


def test_keep_prints_and_parses() -> None:
    assert str(Keep(True)) == "keep" and str(Keep(False)) == "decline"
    assert parse_action("keep") == Keep(True) and parse_action("decline") == Keep(False)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]),
       extends=st.sampled_from(["classic", "joker", "joker-52"]))
def test_declining_never_gives_the_trick_to_the_jokers_player(seed: int, players: int,
                                                              extends: str) -> None:
    """Over random games: a decision comes only after a full trick the leading Joker holds; a
    declined trick goes to another seat, a kept one to the Joker's player."""
    variant = keeping(extends, demand_trumped="trump_wins")
    game = Game(variant, players, seed)
    chooser = random.Random(seed)
    while not game.is_over():
        if game.phase == Phase.KEEP:
            leader = game.trick[0].seat
            assert game.to_move == leader and game.trick[0].card >= 52
            assert len(game.trick) == len(game.view.order)
            action = chooser.choice(game.legal_actions())
            logged = len(game.log)
            game.apply(action)
            won = next(event for event in game.log[logged:] if isinstance(event, TrickWon))
            assert (won.seat == leader) == action.keep
        else:
            game.apply(chooser.choice(game.legal_actions()))


def test_the_strategies_keep_while_they_need_tricks_and_decline_past_their_bid() -> None:
    """One rule for every built-in: one more trick must raise the seat's points for the deal."""
    classic = rule_plan(load_variant("classic").for_player_count(4), 4)
    table = classic.points_table(5, classic.variant.kinds["normal"], 5)
    assert keep_trick(table[2 + 1], 1)  # bid 2, one taken: still needs one
    assert not keep_trick(table[2 + 1], 2)  # made: another would overshoot
    assert not keep_trick(table[0 + 1], 0)  # a pass kept clean
    assert keep_trick(table[1 + 1], 3)  # broken already: 1 a trick still counts
    misere = classic.points_table(9, classic.variant.kinds["misere"], 9)
    golden = classic.points_table(9, classic.variant.kinds["golden"], 9)
    assert not keep_trick(misere[0], 0) and keep_trick(golden[0], 0)
    game = _joker_trick(keeping(), "highest", 0)  # seat 1 bid 1, has none yet: keeps
    assert keep_from_observation(game.observation(1)) == Keep(True)


def test_variants_show_lists_both_options() -> None:
    result = CliRunner().invoke(cli, ["variants", "show", "joker-52", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "play.draw_after_trick = False" in result.output
    assert "joker.lead_choice = False" in result.output

