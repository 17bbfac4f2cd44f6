"""The Joker declared as any card (``joker.as_card``), from the seeds' own words.

000, fifth article (line 307): «Также джокер может быть выдан за любую карту: любого ранга и
масти. Например, за козырного туза или двойку треф.» 000, third article (line 140): «Счастливый
обладатель джокера может объявить его любой картой, обычно целесообразнее всего – той, что старше
козырного туза.» 002 (line 35): «обладатель джокера может в любой момент побить козыря, забрав
взятку, или наоборот, скинуть ненужную ему карту, выдав джокера за любую карту любой масти.
Соответственно, на джокера не распространяется правило ходить по масти или козырю.»

The Joker declared as X takes X's place in the trick: it beats what X beats and loses to what
beats X; led, it leads X's suit, which the others follow by the usual rules. Decided here (and in
``engine.core.rules.nameable_cards``): any ordinary card of the deck may be named, whether it is
in a hand or played already; with the real X in the same trick the one played first keeps it.
Positions are set up with ``Game.single_deal``; the expected cards and winners are worked out by
hand from the quoted words. Suits: 0 ♠, 1 ♣, 2 ♦, 3 ♥.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.engine import (
    Game,
    Phase,
    Play,
    load_variant,
    parse_action,
    parse_card,
    parse_cards,
    variant_from_dict,
)
from raspis.engine.batch import play_batch
from raspis.engine.cards import card_str, is_joker
from raspis.engine.determinize import inferred_voids
from raspis.engine.errors import VariantError
from raspis.engine.variant import Variant
from raspis.strategies import load_strategy, play_game
from raspis.strategies.batch import ScalarAdapter, load_batch_strategy
from raspis.tournament.runner import TournamentConfig, TournamentError, validate_config

SPADES, CLUBS, DIAMONDS, HEARTS, NO_TRUMP = 0, 1, 2, 3, -1


def as_card_variant(lowest_rank: int = 6, jokers: int = 1, **joker: Any) -> Variant:
    """Classic raspisnoy with real Jokers, the Joker declarable as any card."""
    return variant_from_dict({
        "extends": "classic", "name": "as-card",
        "deck": {"lowest_rank": lowest_rank, "jokers": jokers, "joker_cards": []},
        "joker": {"as_card": True, **joker},
    })


AS_CARD = as_card_variant()
AS_CARD_52 = as_card_variant(lowest_rank=2, jokers=2)


def deal(variant: Variant, hands: list[str], trump: int, dealer: int | None = None) -> Game:
    """A single deal from hands written as text, bidding done (the first legal bid each)."""
    dealer = len(hands) - 1 if dealer is None else dealer
    game = Game.single_deal(variant, [parse_cards(hand) for hand in hands], trump, dealer=dealer)
    while game.phase == Phase.BID:
        game.apply(game.legal_actions()[0])
    assert game.phase == Phase.PLAY
    return game


def play(game: Game, *texts: str) -> None:
    """Play actions written as printed: '7s', 'JK high', 'JK card Ad'."""
    for text in texts:
        game.apply(parse_action(text))


def named_plays(game: Game) -> set[str]:
    """The cards the seat to move may declare a Joker as, as text."""
    return {card_str(action.named) for action in game.legal_actions()
            if isinstance(action, Play) and action.call == "card"}


def plain(game: Game) -> set[str]:
    return {card_str(action.card) for action in game.legal_actions()
            if isinstance(action, Play) and not is_joker(action.card)}


# -- ranking as the named card --------------------------------------------------------------------


def test_named_as_the_trump_ace_beats_the_trump_king() -> None:
    # 000: «выдан за любую карту ... Например, за козырного туза»: as the trump ace it beats the
    # trump king played before it and every trump and card below.
    game = deal(AS_CARD, ["Kd 6s", "JK 6c", "Qd 7c"], DIAMONDS)
    play(game, "Kd", "JK card Ad", "Qd")
    assert game.tricks[-1].winner == 1


def test_named_as_the_trump_ace_loses_to_nothing_below_but_to_a_high_joker() -> None:
    # It beats what the trump ace beats (every ordinary card) and loses to what beats the trump
    # ace: a Joker played high («может побить этой картой любые другие, в том числе и козырного
    # туза», 000 fourth article).
    game = deal(AS_CARD_52, ["JK 2s", "Kd 3s", "JK2 4s"], DIAMONDS)
    play(game, "JK card Ad", "Kd", "JK2 high")
    assert game.tricks[-1].winner == 2
    game = deal(AS_CARD_52, ["JK 2s", "Kd 3s", "Ah 4s"], DIAMONDS)
    play(game, "JK card Ad", "Kd", "Ah")
    assert game.tricks[-1].winner == 0


def test_named_as_the_two_of_clubs_loses_to_a_higher_club() -> None:
    # 000: «или двойку треф»: led as the two of clubs, the three of clubs beats it.
    game = deal(AS_CARD_52, ["JK 9s", "3c 4h", "5h 6h"], HEARTS, dealer=2)
    play(game, "JK card 2c", "3c", "5h")
    assert game.tricks[-1].winner == 2  # the trump five beats both clubs
    game = deal(AS_CARD_52, ["JK 9s", "3c 4h", "5d 6h"], HEARTS, dealer=2)
    play(game, "JK card 2c", "3c")
    assert plain(game) == {"6♥"}  # void in clubs: the trump (004 «не бить козырем ... нельзя»)
    game = deal(AS_CARD_52, ["JK 9s", "3c 4h", "5d 6s"], HEARTS, dealer=2)
    play(game, "JK card 2c", "3c", "5d")
    assert game.tricks[-1].winner == 1


def test_named_as_a_card_off_the_led_suit_cannot_take_the_trick() -> None:
    # 002 «скинуть ненужную ему карту, выдав джокера за любую карту любой масти»: a discard.
    game = deal(AS_CARD, ["7s 6c", "JK 6d", "8s 7c"], HEARTS)
    play(game, "7s", "JK card Ac", "8s")
    assert game.tricks[-1].winner == 2


# -- leading and following ---------------------------------------------------------------------


def test_led_as_a_card_the_others_follow_its_suit() -> None:
    # Led as the queen of clubs, the Joker leads clubs: «обязаны также положить» that suit, and
    # a void player must trump.
    game = deal(AS_CARD, ["JK 6s", "Kc 7h", "9d 6h"], DIAMONDS)
    play(game, "JK card Qc")
    assert game.view.led_suit == CLUBS
    assert plain(game) == {"K♣"}
    play(game, "Kc")
    assert plain(game) == {"9♦"}
    play(game, "9d")
    assert game.tricks[-1].winner == 2


def test_followed_into_a_trick_the_joker_is_always_playable() -> None:
    # 002: «на джокера не распространяется правило ходить по масти или козырю»: holding the led
    # suit, the Joker may still be played, as any card.
    game = deal(AS_CARD, ["Ts 6c", "JK Js", "9d 7c"], HEARTS)
    play(game, "Ts")
    assert plain(game) == {"J♠"}
    assert "A♥" in named_plays(game) and "6♣" in named_plays(game)
    play(game, "JK card 6h", "9d")
    assert game.tricks[-1].winner == 1  # as the trump six it beats the ten of spades


def test_a_joker_set_the_led_suit_after_a_suitless_lead_as_its_card_would() -> None:
    # A Joker led "high" leaves the led suit to the next card (002 Joker-52); a Joker declared as
    # a card there sets it as the card would.
    variant = as_card_variant(lowest_rank=2, jokers=2, lead_calls=["high", "low"])
    game = deal(variant, ["JK 2s", "JK2 3s", "8h 2c"], DIAMONDS)
    play(game, "JK low", "JK2 card 5c")
    assert game.view.led_suit == CLUBS
    assert plain(game) == {"2♣"}
    play(game, "2c")
    assert game.tricks[-1].winner == 1


# -- the decisions: which cards, and ties --------------------------------------------------------


def test_any_card_of_the_deck_may_be_named_even_one_held_or_played() -> None:
    # «за любую карту: любого ранга и масти»: every ordinary card of the deck, the Joker's own
    # hand and the played cards included; not a card the deck lacks (a two in 36 cards).
    game = deal(AS_CARD, ["Ah 6c", "JK 6d", "Kh 7c"], HEARTS)
    play(game, "6c")
    named = named_plays(game)
    deck = {card_str(card) for card in AS_CARD.deck_cards if not is_joker(card)}
    assert named == deck
    assert "6♦" in named and "6♣" in named and "A♥" in named  # held, just played, elsewhere
    assert "2♣" not in named and len(named) == 36


def test_the_real_card_and_the_joker_named_as_it_the_earlier_keeps_the_trick() -> None:
    # Equal cards: the one played first keeps the trick (as a trick nobody beats stays with its
    # leader).
    game = deal(AS_CARD, ["Ah 6c", "JK 6d", "Kh 7c"], HEARTS)
    play(game, "Ah", "JK card Ah", "Kh")
    assert game.tricks[-1].winner == 0
    game = deal(AS_CARD, ["JK 6c", "Ah 6d", "Kh 7c"], HEARTS)
    play(game, "JK card Ah", "Ah", "Kh")
    assert game.tricks[-1].winner == 0


def test_the_option_is_off_by_default() -> None:
    # odessa's Joker (003 l.27) is the highest trump or the lowest card, never a named card
    game = deal(load_variant("odessa"), ["Ah 6c", "7s 6d", "Kh 7c"], HEARTS)
    play(game, "6c")
    assert not named_plays(game)
    assert variant_from_dict({"name": "plain"}).joker.as_card is False


# -- the presets whose seeds state it ------------------------------------------------------------

#: The 36-card deck's ordinary cards once the 7♠ is the Joker: 4 suits x 9 ranks, less the 7♠.
CLASSIC_NAMEABLE = {f"{rank}{suit}" for rank in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
                    for suit in "♠♣♦♥"} - {"7♠"}


@pytest.mark.parametrize("preset", ["classic", "classic-lobovaya"])
def test_classic_offers_the_joker_as_any_card(preset: str) -> None:
    """000, fifth article (l.307), whose Joker calls classic follows: «Также джокер может быть
    выдан за любую карту: любого ранга и масти. Например, за козырного туза или двойку треф.»
    (classic-lobovaya is classic closed by lobovaya deals.) Seat 1, void in clubs, may declare
    its Joker (the 7♠, written JK) as any of the deck's other 35 cards, the trump ace among them,
    and so named it takes the trick as a trump over the clubs; led, it may be named too."""
    variant = load_variant(preset)
    assert variant.joker.as_card is True
    game = deal(variant, ["6c Ad", "JK 6d", "7c Kh"], HEARTS)
    play(game, "6c")
    assert named_plays(game) == CLASSIC_NAMEABLE  # «козырного туза» A♥ and the 6♣ among them
    play(game, "JK card Ah", "7c")
    assert game.tricks[-1].winner == 1
    # led (the dealer is seat 0, so seat 1 leads): the Joker may be named as it leads
    game = deal(variant, ["6c Ad", "JK 6d", "7c Kh"], HEARTS, dealer=0)
    assert game.to_move == 1
    assert named_plays(game) == CLASSIC_NAMEABLE


def test_circular_trumps_keeps_classics_joker_as_any_card() -> None:
    """002 l.61 changes only the led Joker's demand in circular poker («ему придется указывать
    конкретную масть»); the raspisnoy Joker may be declared «за любую карту любой масти» (l.35),
    as in classic (000 l.307). Spades led, clubs are trump (000 l.105-112, 002 l.61): seat 1, void
    in spades, names its Joker the six of clubs, the lowest trump of the trick, and beats the ace
    of spades."""
    variant = load_variant("circular-trumps")
    assert variant.joker.as_card is True
    game = deal(variant, ["6s Ad", "JK 6d", "As Kh"], NO_TRUMP)
    play(game, "6s")
    assert "6♣" in named_plays(game)
    play(game, "JK card 6c", "As")
    assert game.tricks[-1].winner == 1


def test_georgian_offers_the_joker_as_any_card() -> None:
    """002 l.63: «Правила использования джокера в «грузинском покере» ничем не отличаются от
    обычного «расписного покера»», whose Joker (l.35) the holder may play «выдав джокера за любую
    карту любой масти»; 000 l.140 (the third article, before its Georgian poker, l.161):
    «Счастливый обладатель джокера может объявить его любой картой». At four, the 36-card deck
    with the 7♠ as Joker: the other 35 cards; at six, the 52 + 2 Jokers deck: all 52 ordinary
    cards, the two of clubs among them."""
    variant = load_variant("georgian")
    assert variant.joker.as_card is True
    game = deal(variant, ["6c Ad", "JK 6d", "7c Kh", "8c 9h"], HEARTS)
    play(game, "6c")
    assert len(named_plays(game)) == 35 and {"A♥", "6♣"} <= named_plays(game)
    play(game, "JK card 6d", "7c", "8c")
    assert game.tricks[-1].winner == 3  # named a diamond off the led clubs, it takes nothing
    six = variant.for_player_count(6)
    assert six.joker.as_card is True
    game = deal(six, ["2c Ad", "JK 2d", "3c Kh", "4c 9h", "5c 8h", "6c 7h"], HEARTS)
    play(game, "2c")
    assert len(named_plays(game)) == 52 and {"2♣", "A♥"} <= named_plays(game)


@pytest.mark.parametrize("preset", ["joker", "joker-pagat", "joker-52", "odessa"])
def test_the_presets_whose_seeds_do_not_state_it_leave_it_off(preset: str) -> None:
    """002's first text (l.1), its Joker-52 (l.108: «должен объявить его "старшим" или
    "младшим"») and 003 (l.27: the highest trump or the lowest card) give the Joker no named
    card; pagat's Joker extends 002's first text."""
    assert load_variant(preset).joker.as_card is False


def test_a_named_joker_prints_and_reads_back() -> None:
    action = Play(52, "card", HEARTS, 14)
    assert str(action) == "JK card A♥" and action.named == parse_card("Ah")
    assert parse_action("JK card A♥") == action == parse_action("jk card ah")
    with pytest.raises(ValueError):
        parse_action("JK card JK2")
    game = deal(AS_CARD, ["JK 6c", "Ah 6d", "Kh 7c"], HEARTS)
    play(game, "JK card Qh")
    assert "seat 0 plays JK card Q♥" in game.trace()
    assert game.trick[0].call == "card" and game.trick[0].named == parse_card("Qh")


def test_a_joker_declared_as_a_card_shows_nothing_of_its_hand() -> None:
    # Always legal, whatever it is declared as: the determinizer rules out nothing for its
    # player (the others, following the named card's suit, show their voids as usual).
    game = deal(AS_CARD, ["6c 8s", "JK 7d", "Kh 8d"], HEARTS)
    play(game, "6c", "JK card 9s", "Kh")
    voids = inferred_voids(game.observation(0))
    assert voids[1] == 0
    clubs = parse_cards("6c 7c 8c 9c Tc Jc Qc Kc Ac")
    assert voids[2] & clubs == clubs


# -- engines and strategies ----------------------------------------------------------------------


def test_the_lockstep_batch_engine_refuses_it_and_the_compiled_batch_plays_it() -> None:
    seeds = np.arange(6, dtype=np.uint64)
    with pytest.raises(VariantError, match="as_card"):
        play_batch(AS_CARD, 3, seeds, [ScalarAdapter("random")])  # a seat that is not compiled
    result = play_batch(AS_CARD, 3, seeds, [load_batch_strategy("fastheuristic")])
    assert not result.errored.any()


@pytest.mark.parametrize("variant", [AS_CARD, AS_CARD_52], ids=["36", "54"])
@pytest.mark.parametrize("twin", ["lowest", "fastrandom", "fastheuristic"])
def test_the_compiled_batch_plays_the_reference_games(variant: Variant, twin: str) -> None:
    """The compiled batch (the state machine and compiled policies) and the reference engine with
    the scalar twins give the same games, deal by deal."""
    batch = {"fastrandom": "random"}.get(twin, twin)
    seeds = [3, 77, 1_000_003, 2**40 + 1]
    for players in (3, 4):
        result = play_batch(variant, players, np.array(seeds, dtype=np.uint64),
                            [load_batch_strategy(batch)])
        for index, seed in enumerate(seeds):
            record = play_game(variant.for_player_count(players), players, seed,
                               [load_strategy(twin) for _ in range(players)])
            game = record.game
            assert not record.errored and not result.errored[index]
            assert result.scores[index].tolist() == game.scores, (players, seed)
            for deal_result in game.results:
                number = deal_result.number
                assert result.tricks[index, number].tolist() == list(deal_result.taken)
                bids = [-1 if bid is None else bid for bid in deal_result.bids]
                assert result.bid[index, number].tolist() == bids


SHORT = variant_from_dict({
    "extends": "classic", "name": "as-card-short",
    "deck": {"jokers": 1, "joker_cards": []},
    "schedule": {"deals": ["1..3", "4 no_trump", "3..1"]},
    "joker": {"as_card": True},
})


@pytest.mark.parametrize("spec", ["random", "fastrandom", "lowest", "heuristic", "fastheuristic",
                                  "strong", "pimc", "ismcts", "ev"])
def test_every_strategy_plays_it_legally(spec: str) -> None:
    for seed in (1, 2):
        record = play_game(SHORT.for_player_count(3), 3, seed,
                           [load_strategy(spec) for _ in range(3)])
        assert not record.errored, record.fault


def test_variants_show_lists_the_option() -> None:
    result = CliRunner().invoke(cli, ["variants", "show", "classic"])
    assert result.exit_code == 0, result.output
    assert "as_card" in result.output


def test_a_variant_file_switches_it_on_and_the_tournament_picks_an_engine_that_plays_it(
        tmp_path: Any) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('extends = "classic"\nname = "mine"\n\n[joker]\nas_card = true\n',
                    encoding="utf-8")
    assert load_variant(str(path)).joker.as_card is True
    mixed = TournamentConfig(variants=(str(path),), players=2,
                             strategies=("heuristic", "random"), games=2, engine="batch")
    with pytest.raises(TournamentError, match="as_card"):
        validate_config(mixed)
    compiled = TournamentConfig(variants=(str(path),), players=2,
                                strategies=("fastheuristic", "random"), games=2)
    validate_config(compiled)
    assert compiled.resolved_engine() == "batch"


@pytest.mark.parametrize(("lead_calls", "bids", "expected"), [
    # no call takes the trick: the trump ace does (000 «за козырного туза»)
    (["low", "low_suit"], [1, 0, 1], "JK card A♦"),
    # no call loses it: the lowest card of a plain suit (000 «или двойку треф»)
    (["high", "high_suit", "highest_suit"], [0, 0, 0], "JK card 6"),
])
def test_strong_declares_the_joker_where_no_call_does_what_it_wants(
        lead_calls: list[str], bids: list[int], expected: str) -> None:
    variant = as_card_variant(lead_calls=lead_calls)
    game = Game.single_deal(variant, [parse_cards(hand) for hand in ("JK", "Kd", "Qd")],
                            DIAMONDS, dealer=2, bids=bids)
    strategy = load_strategy("strong")
    strategy.start_game(game.variant, 0, 3, random.Random(1))
    action = strategy.act(game.observation(0))
    assert str(action).startswith(expected), action
    assert action in game.legal_actions()
    if bids[0] == 0:
        assert action.suit != DIAMONDS  # type: ignore[union-attr]


def test_the_action_code_keeps_every_old_code() -> None:
    """A play's code is ``card | call << 6 | (suit + 1) << 11`` as before; a named card adds its
    rank above (bits 14..17) with its suit in the suit field, so no old code changes meaning."""
    from raspis.engine.core import machine as m
    from raspis.engine.core.codes import CALL_CARD, CALL_CODES

    for call, suit in (("high", -1), ("highest", 2), ("low", 3), ("aces", -1)):
        assert m.action_code(52, CALL_CODES[call], suit) == 52 | CALL_CODES[call] << 6 | (
            suit + 1) << 11
    ace = parse_card("Ad")
    code = m.named_code(53, ace)
    assert code == 53 | CALL_CARD << 6 | (DIAMONDS + 1) << 11 | 14 << 14
    assert code == m.action_code(53, CALL_CARD, DIAMONDS, 14)
    assert code >> 14 == 14 and all(code != m.action_code(53, call, suit)
                                    for call in range(CALL_CARD) for suit in range(-1, 4))
