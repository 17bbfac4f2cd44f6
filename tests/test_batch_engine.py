"""The batch engine against the reference engine, game for game (differential tests, hypothesis).

Each test plays the same seeds in ``engine.Game`` (through ``play_game``, with a deterministic
scalar strategy) and in ``engine.batch`` (with the batch twin of that strategy, or with the very
same scalar strategy through ``ScalarAdapter``), and asks for identical games: the first dealer,
every hand dealt, trump card and trump, bid, card with its Joker call, trick winner, deal points,
premium, hook flag, Joker holders, totals and places. The twins:

- ``lowest`` (first legal action) / ``BatchLowest``;
- ``fastrandom`` (uniform from a counter-based hash) / ``BatchRandom``: explores every rule branch;
- ``fastheuristic`` / ``BatchFastHeuristic`` (a compiled policy, decided inside the engine's
  compiled loop): plays like a player, so deals run their real course;
- any scalar strategy / ``ScalarAdapter``: checks the batch engine's observations and legal actions
  equal the reference's (the scalar ``random`` and ``heuristic`` are used).

Every preset at every allowed player count runs with each twin; hypothesis then draws variants made
of random combinations of rule options (trump modes, Joker calls and restrictions, hooks, pass
limits, dark/golden/misère/no-trump/lobovaya/named deals, draws from the stock, memory rules,
premiums, tie-break golden deals, first-dealer rules). Last, the tournament tables built from a
batch equal ``run_shard``'s, faults included, and results do not depend on the batch size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from raspis.engine import load_variant, preset_names, variant_from_dict
from raspis.engine.batch import play_batch
from raspis.engine.batch.rules import BatchRules
from raspis.engine.core.codes import CALL_NAMES
from raspis.engine.errors import VariantError
from raspis.engine.events import CardPlayed, DealStarted, TrickWon, TrumpChosen
from raspis.engine.variant import Variant
from raspis.strategies import Strategy, load_strategy, play_game, registry
from raspis.strategies.batch import ScalarAdapter
from raspis.strategies.players.batch_basic import BatchFastHeuristic, BatchLowest, BatchRandom
from raspis.strategies.players.fast import FastHeuristicStrategy, HashRandomStrategy, LowestStrategy
from raspis.tournament.runner import TournamentConfig, plan_shards, validate_config
from raspis.tournament.shard import run_shard

#: the scalar twins' classes, for the registry of a tournament run in the tests
SCALAR_TWINS = {"lowest": "raspis.strategies.players.fast:LowestStrategy",
                "fastrandom": "raspis.strategies.players.fast:HashRandomStrategy",
                "fastheuristic": "raspis.strategies.players.fast:FastHeuristicStrategy"}
TWINS: dict[str, tuple[type[Strategy], type]] = {
    "lowest": (LowestStrategy, BatchLowest),
    "fastrandom": (HashRandomStrategy, BatchRandom),
    "fastheuristic": (FastHeuristicStrategy, BatchFastHeuristic),
}


def _scalar_games(variant: Variant, players: int, seeds: list[int],
                  make: Any) -> list[Any]:
    resolved = variant.for_player_count(players)
    games = []
    for seed in seeds:
        record = play_game(resolved, players, seed, [make() for _ in range(players)], log=True)
        assert not record.errored, record.fault
        games.append(record.game)
    return games


def assert_same_games(variant: Variant, players: int, seeds: list[int], scalar: Any,
                      batch: Any) -> None:
    """Play ``seeds`` in both engines and compare them event by event."""
    result = play_batch(variant, players, seeds, [batch], np.zeros(players, dtype=int),
                        record=True)
    log = result.log
    assert log is not None
    for index, game in enumerate(_scalar_games(variant, players, seeds, scalar)):
        where = f"{variant.name} players={players} seed={seeds[index]}"
        assert not result.errored[index], (where, result.errors[index])
        assert result.first_dealer[index] == game.view.first_dealer, where
        assert result.deals_played[index] == len(game.results), where
        for deal in game.results:
            number = deal.number
            at = f"{where} deal={number + 1}"
            assert result.deal_played[index, number], at
            assert result.dealer[index, number] == deal.dealer, at
            assert result.hand_size[index, number] == deal.hand_size, at
            assert result.kind_names[result.deal_kind[index, number]] == deal.kind, at
            assert result.trump[index, number] == deal.trump, at
            assert log.trump_card[index, number] == (-1 if deal.trump_card is None
                                                    else deal.trump_card), at
            bids = [-1 if bid is None else bid for bid in deal.bids]
            assert result.bid[index, number].tolist() == bids, at
            assert result.tricks[index, number].tolist() == list(deal.taken), at
            assert result.points[index, number].tolist() == list(deal.points), at
            assert result.premium[index, number].tolist() == list(deal.premiums), at
            assert bool(result.hook_forced[index, number]) == deal.hook_forced, at
            held = list(deal.jokers_held) + [-1] * (2 - len(deal.jokers_held))
            assert result.joker_holder[index, number].tolist() == held, at
        deal_number, play, trick = -1, 0, 0
        for event in game.log:
            if isinstance(event, DealStarted):
                deal_number, play, trick = event.number, 0, 0
                assert log.hands[index, deal_number].tolist() == list(event.hands), where
            elif isinstance(event, TrumpChosen) and event.how.startswith("named by seat"):
                namer = int(event.how.rsplit(" ", 1)[1])
                assert log.trump_namer[index, deal_number] == namer, where
            elif isinstance(event, CardPlayed):
                seat, card, call, suit = log.plays[index, deal_number, play].tolist()
                played = (event.seat, event.play.card, event.play.call, event.play.suit)
                assert (seat, card, CALL_NAMES[call], suit) == played, (where, deal_number, play)
                play += 1
            elif isinstance(event, TrickWon):
                assert log.winners[index, deal_number, trick] == event.seat, where
                trick += 1
        assert result.scores[index].tolist() == game.scores, where
        assert result.places[index].tolist() == game.places(), where
        assert result.double_loss[index].tolist() == game.double_losses(), where


def lockstep_refuses(variant: Variant, players: int) -> bool:
    """Whether the numpy lockstep engine refuses the variant: its observations show no shown card
    (a deal kind with ``view = "forehead_card"``) and no named Joker (``joker.as_card``, on in
    classic and georgian); the refusal names each such option the variant has."""
    shows = any(variant.kinds[spec.kind].view == "forehead_card"
                for spec in variant.for_player_count(players).deal_schedule(players))
    try:
        BatchRules(variant, players)
    except VariantError as error:
        assert "lockstep" in str(error)
        assert ("forehead_card" in str(error)) == shows
        assert ("joker.as_card" in str(error)) == variant.joker.as_card
        return True
    assert not shows and not variant.joker.as_card
    return False


def numpy_seatable(variant: Variant) -> Variant:
    """``variant`` with the Joker as any card off, for lineups with a numpy or adapted seat: the
    lockstep loop refuses ``joker.as_card`` (on in classic, 000 l.307, and georgian, 002 l.35)
    to such seats, whose batch observations name no card."""
    if not variant.joker.as_card:
        return variant
    data = variant.model_dump(mode="json")
    data["joker"]["as_card"] = False
    return variant_from_dict(data, f"{variant.name} with joker.as_card off")


def assert_same_results(variant: Variant, players: int, seeds: list[int], scalar: Any,
                        batch: Any) -> None:
    """Play ``seeds`` in ``engine.Game`` with ``scalar`` and in the compiled batch loop
    (``engine.batch.compiled``: the core machine, the twin's compiled policy) and compare every
    deal's record (hand size, dealer, trump, bids, tricks, points, premiums, the hook) and the
    totals (the compiled batch keeps no event log)."""
    result = play_batch(variant, players, seeds, [batch], np.zeros(players, dtype=int))
    assert result.log is None  # no lockstep: the compiled loop played it
    for index, game in enumerate(_scalar_games(variant, players, seeds, scalar)):
        where = f"{variant.name} players={players} seed={seeds[index]}"
        assert not result.errored[index], (where, result.errors[index])
        assert result.first_dealer[index] == game.view.first_dealer, where
        assert result.deals_played[index] == len(game.results), where
        for deal in game.results:
            number = deal.number
            at = f"{where} deal={number + 1}"
            assert result.hand_size[index, number] == deal.hand_size, at
            assert result.dealer[index, number] == deal.dealer, at
            assert result.trump[index, number] == deal.trump, at
            bids = [-1 if bid is None else bid for bid in deal.bids]
            assert result.bid[index, number].tolist() == bids, at
            assert result.tricks[index, number].tolist() == list(deal.taken), at
            assert result.points[index, number].tolist() == list(deal.points), at
            assert result.premium[index, number].tolist() == list(deal.premiums), at
            assert bool(result.hook_forced[index, number]) == deal.hook_forced, at
        assert result.scores[index].tolist() == game.scores, where
        assert result.places[index].tolist() == game.places(), where


# -- every preset, every player count, every twin ------------------------------------------------

PRESET_CASES = [(name, players) for name in preset_names()
                for players in load_variant(name).player_counts()]


@pytest.mark.parametrize(("name", "players"), PRESET_CASES)
@pytest.mark.parametrize("twin", sorted(TWINS))
def test_presets_match_the_reference_engine(name: str, players: int, twin: str) -> None:
    scalar, batch = TWINS[twin]
    variant = load_variant(name)
    seeds = [3, 1_000_003, 2**64 - 5, 77, 2**40 + 1]
    if lockstep_refuses(variant, players):  # classic, georgian: numpy seats are refused, but
        # compiled seats play on the machine's states in the lockstep loop too, deal log and all
        assert_same_results(variant, players, seeds, scalar, batch())
    assert_same_games(variant, players, seeds, scalar, batch())


@pytest.mark.parametrize(("name", "players"), [("classic", 4), ("joker", 3), ("odessa", 5),
                                               ("joker-52", 3), ("circular-trumps", 2)])
@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_scalar_strategies_play_the_same_games_through_the_adapter(name: str, players: int,
                                                                   spec: str) -> None:
    variant = numpy_seatable(load_variant(name))
    seeds = [11, 12]
    result = play_batch(variant, players, seeds, [ScalarAdapter(spec)], np.zeros(players, int))
    games = _scalar_games(variant, players, seeds, lambda: load_strategy(spec))
    for index, game in enumerate(games):
        assert not result.errored[index], result.errors[index]
        for deal in game.results:
            bids = [-1 if bid is None else bid for bid in deal.bids]
            assert result.bid[index, deal.number].tolist() == bids
            assert result.tricks[index, deal.number].tolist() == list(deal.taken)
        assert result.scores[index].tolist() == game.scores


# -- rule options no preset uses, each on purpose ------------------------------------------------

OPTION_CASES: dict[str, dict[str, Any]] = {
    "dealer-names-on-a-turned-joker": {
        "extends": "joker-52", "trump": {"joker_turned": "dealer_names"},
        "joker": {"lead_calls": ["high_suit", "low_suit", "lowest_suit"], "lead_fine": 0},
    },
    "named-full-deal-and-lock": {
        "extends": "classic", "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..3", "2*players", "max"]},
        "trump": {"full_deal": "named", "naming_allows_no_trump": False, "named_after_cards": 2},
        "joker": {"locked_until": "Qs", "two_jokers": "first_wins", "lead_calls": ["high", "low"]},
        "play": {"memory": "last", "first_lead": "dealer"},
    },
    "demands-trumped-and-lowest": {
        "extends": "odessa", "deck": {"lowest_rank": 2, "jokers": 2, "joker_cards": []},
        "schedule": {"deals": ["1..5", "5*2 no_trump", "4..1"]},
        "joker": {"demand_trumped": "trump_wins", "demands_first_trick_only": True,
                  "lead_calls": ["highest_suit", "lowest_suit", "highest_trumps", "low"]},
        "kinds": {"no_trump": {"joker_holder_leads": True}}, "play": {"memory": "none"},
    },
    "demands-of-any-suit-and-a-named-rank": {
        # 000 (second and fourth articles): highest card, lowest card, lowest trump; 003: a rank.
        "extends": "classic", "deck": {"lowest_rank": 2, "jokers": 2, "joker_cards": []},
        "players": {"min": 3, "max": 4}, "schedule": {"deals": ["1..4", "4*2 no_trump", "3..1"]},
        "joker": {"demand_trumped": "trump_wins", "demands_until_deal": 8,
                  "lead_calls": ["low", "highest_card", "lowest_card", "lowest_trump",
                                 "named_rank"]},
    },
    "hooks-passes-dark-forehead": {
        "extends": "odessa", "players": {"min": 3, "max": 4},
        "schedule": {"deals": ["1..4", "3 lobovaya", "4*players dark", "2 golden", "2 misere"]},
        "bidding": {"hook": "from_deal", "hook_from_deal": 3, "max_consecutive_passes": 1},
        "kinds": {"dark": {"min_bid": 1, "hook": "overbid"}},
        "joker": {"demands_until_deal": 2},
    },
    "fixed-trump-premium-per-block-ties": {
        "extends": "joker", "trump": {"mode": "fixed", "fixed_suit": "diamonds"},
        "schedule": {"deals": ["1..3", "4*2", "3..1"]},
        "scoring": {"premium": "fixed", "premium_points": 100, "premium_scope": "block"},
        "bidding": {"hook": "specials_only"}, "end": {"tie": "golden_deal", "tie_deals": 2},
        "table": {"first_dealer": "seat0"},
    },
    "premium-cancels-next-last-deal-excluded": {
        "extends": "joker-pagat", "schedule": {"deals": ["1..3", "4*2 named", "3..1"]},
        "scoring": {"premium_others": "next_cancelled", "premium_last_deal": "excluded",
                    "premium_several": "each_cancelled"},
    },
    "no-trump-overbid-unturned": {
        "extends": "oh-hell", "deck": {"jokers": 1},
        "trump": {"unturned_leftover": 1, "full_deal": "last_dealt"},
        "bidding": {"hook": "overbid"}, "end": {"negative_total": "double_loss"},
        "joker": {"two_jokers": "opposite", "lead_calls": ["high", "low"]},
    },
}


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
@pytest.mark.parametrize("twin", sorted(TWINS))
def test_rule_options_match_the_reference_engine(case: str, twin: str) -> None:
    variant = variant_from_dict(dict(OPTION_CASES[case], name=case), case)
    scalar, batch = TWINS[twin]
    for players in variant.player_counts()[:3]:
        assert_same_games(variant, players, list(range(6)), scalar, batch())


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_rule_options_through_the_adapter(case: str) -> None:
    variant = numpy_seatable(variant_from_dict(dict(OPTION_CASES[case], name=case), case))
    players = variant.player_counts()[0]
    seeds = [21, 22]
    result = play_batch(variant, players, seeds, [ScalarAdapter("heuristic")],
                        np.zeros(players, int))
    games = _scalar_games(variant, players, seeds, lambda: load_strategy("heuristic"))
    for index, game in enumerate(games):
        assert not result.errored[index], result.errors[index]
        assert result.deals_played[index] == len(game.results)
        assert result.scores[index].tolist() == game.scores


# -- random combinations of rule options ---------------------------------------------------------

_CALLS = ["high", "low", "high_suit", "low_suit", "highest_suit", "lowest_suit", "highest_trumps",
          "highest_card", "lowest_card", "lowest_trump", "named_rank"]
_KIND_BLOCKS = ["2 dark", "max dark", "2 golden", "max misere", "2 no_trump", "3 lobovaya",
                "max named", "3 named"]


@st.composite
def option_variants(draw: st.DrawFn, one_card: bool = False,
                    lockstep: bool = True) -> tuple[Variant, int]:
    """A variant of random options (valid by construction) and a player count it allows; with
    ``one_card``, with lobovaya deals read as one card each (``view = "forehead_card"``); without
    ``lockstep`` also the options the lockstep engine refuses (``RulePlan.lockstep_refusal``):
    the draw after each trick and the Joker's player keeping or declining the trick."""
    players = draw(st.integers(2, 5))
    lowest = draw(st.sampled_from([2, 6]))
    designated = draw(st.sampled_from([[], ["7s"], ["6c", "6s"]])) if lowest == 6 else []
    jokers = draw(st.integers(0, 2 - len(designated)))
    mode = draw(st.sampled_from(["turned", "turned", "fixed", "none", "circular"]))
    calls = draw(st.lists(st.sampled_from(_CALLS), min_size=1, max_size=4, unique=True))
    if mode == "circular":
        calls = [call for call in calls
                 if call not in ("highest_trumps", "lowest_trump")] or ["high_suit"]
    blocks = ["1..2", *draw(st.lists(st.sampled_from(_KIND_BLOCKS), max_size=3)), "max", "1"]
    if one_card:
        blocks.insert(1, "max lobovaya")
    data: dict[str, Any] = {
        "name": "options",
        "extends": "classic",
        "players": {"min": 2, "max": 6},
        "deck": {"lowest_rank": lowest, "jokers": jokers, "joker_cards": designated},
        "schedule": {"deals": blocks, "max_hand": draw(st.sampled_from([None, 4, 6]))},
        "trump": {
            "mode": mode, "fixed_suit": draw(st.sampled_from(["spades", "hearts"])),
            "joker_turned": draw(st.sampled_from(["no_trump", "dealer_names"])),
            "full_deal": draw(st.sampled_from(["last_dealt", "no_trump", "named"])),
            "unturned_leftover": draw(st.integers(0, 2)),
            "named_after_cards": draw(st.integers(1, 3)),
            "naming_allows_no_trump": draw(st.booleans()),
        },
        "joker": {
            "lead_calls": calls,
            "demands_first_trick_only": draw(st.booleans()),
            "demands_until_deal": draw(st.sampled_from([None, 1, 3])),
            "demand_trumped": draw(st.sampled_from(["joker_wins", "trump_wins"])),
            "two_jokers": draw(st.sampled_from(["second_wins", "first_wins", "opposite"])),
            "lead_fine": draw(st.sampled_from([0, -10])),
            "locked_until": draw(st.sampled_from([None, "Qs", "As"])),
            "lead_choice": False if lockstep else draw(st.booleans()),
        },
        "bidding": {
            "hook": draw(st.sampled_from(["always", "off", "from_deal", "specials_only",
                                          "overbid"])),
            "hook_from_deal": draw(st.integers(1, 3)),
            "max_consecutive_passes": draw(st.sampled_from([None, 1, 2])),
        },
        "play": {
            "must_trump": draw(st.booleans()),
            "first_lead": draw(st.sampled_from(["left_of_dealer", "dealer"])),
            "draw_after_trick": False if lockstep else draw(st.booleans()),
            "memory": draw(st.sampled_from(["full", "own_and_last", "last", "none", "own"])),
        },
        "kinds": {
            "named": {"trump": "named"},
            "dark": {"min_bid": draw(st.integers(0, 1)),
                     "hook": draw(st.sampled_from(["variant", "off", "overbid"]))},
            "no_trump": {"joker_holder_leads": draw(st.booleans())},
        },
        "scoring": {
            "premium": draw(st.sampled_from(["none", "fixed", "best_deal"])),
            "premium_points": 50,
            "premium_scope": draw(st.sampled_from(["game", "block"])),
            "under_mode": draw(st.sampled_from(["linear", "bid_value"])),
            "pass_broken_all": draw(st.sampled_from([None, -10])),
            "all_tricks_multiplier": draw(st.sampled_from([1, 2])),
        },
        "end": {
            "tie": draw(st.sampled_from(["shared", "golden_deal"])),
            "tie_deals": draw(st.integers(1, 2)),
            "negative_total": draw(st.sampled_from(["plain", "double_loss"])),
        },
        "table": {"first_dealer": draw(st.sampled_from(["lot", "first_ace", "seat0"]))},
    }
    if data["schedule"]["max_hand"] is None:
        del data["schedule"]["max_hand"]
    if one_card:
        data["kinds"]["lobovaya"] = {"view": "forehead_card"}
    if data["scoring"]["premium"] != "none":
        data["scoring"].update(
            premium_others=draw(st.sampled_from(["none", "best_cancelled", "next_cancelled"])),
            premium_last_deal=draw(st.sampled_from(["counts", "excluded"])),
            premium_several=draw(st.sampled_from(["each", "each_cancelled", "none"])))
    try:
        variant = variant_from_dict(data, "hypothesis")
        variant.for_player_count(players)
    except VariantError:
        from hypothesis import reject

        reject()
    return variant, players


@settings(max_examples=70, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=option_variants(), seed=st.integers(0, 2**64 - 1),
       twin=st.sampled_from(["fastrandom", "fastrandom", "lowest", "fastheuristic"]))
def test_random_rule_options_match_the_reference_engine(case: tuple[Variant, int], seed: int,
                                                        twin: str) -> None:
    variant, players = case
    scalar, batch = TWINS[twin]
    assert_same_games(variant, players, [seed, seed ^ 0x5555], scalar, batch())


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=option_variants(one_card=True), seed=st.integers(0, 2**64 - 1),
       twin=st.sampled_from(["fastrandom", "lowest", "fastheuristic"]))
def test_random_rule_options_with_one_card_lobovaya_compiled(case: tuple[Variant, int],
                                                             seed: int, twin: str) -> None:
    """Lobovaya read as one card each (000 «клеят ее себе на лоб», 002, 003) among random
    options: the lockstep engine refuses it, the compiled batch plays the reference's games."""
    variant, players = case
    scalar, batch = TWINS[twin]
    assert lockstep_refuses(variant, players)
    assert_same_results(variant, players, [seed, seed ^ 0x5555], scalar, batch())


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=option_variants(), seed=st.integers(0, 2**32))
def test_random_rule_options_through_the_adapter(case: tuple[Variant, int], seed: int) -> None:
    """The reference's own ``random`` strategy reads the batch engine's scalar observations."""
    variant, players = case
    variant = numpy_seatable(variant)
    result = play_batch(variant, players, [seed], [ScalarAdapter("random")],
                        np.zeros(players, int))
    (game,) = _scalar_games(variant, players, [seed], lambda: load_strategy("random"))
    assert not result.errored[0], result.errors[0]
    assert result.deals_played[0] == len(game.results)
    assert result.scores[0].tolist() == game.scores


# -- the options only the core machine plays: the compiled loop against the reference ------------


DRAW_AND_KEEP = {
    # 002 Joker-52 read literally («После чего игроки берут по одной карте из оставшейся колоды»)
    # and 000's «Походивший с джокера может забрать взятку, либо отказаться от нее»
    "joker-52-draws-and-keeps": {
        "extends": "joker-52", "schedule": {"deals": ["2..4", "3..2"]},
        "play": {"draw_after_trick": True}, "joker": {"lead_choice": True},
    },
    "classic-keeps": {
        "extends": "classic", "players": {"min": 3, "max": 5},
        "joker": {"lead_choice": True, "demand_trumped": "trump_wins"},
    },
}


@pytest.mark.parametrize("case", sorted(DRAW_AND_KEEP))
@pytest.mark.parametrize("twin", sorted(TWINS))
def test_draws_and_keeps_match_the_reference_engine_in_the_compiled_loop(case: str,
                                                                         twin: str) -> None:
    variant = variant_from_dict(dict(DRAW_AND_KEEP[case], name=case), case)
    scalar, batch = TWINS[twin]
    for players in variant.player_counts()[:3]:
        assert_same_results(variant, players, list(range(8)), scalar, batch())


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=option_variants(lockstep=False), seed=st.integers(0, 2**64 - 1),
       twin=st.sampled_from(["fastrandom", "lowest", "fastheuristic"]))
def test_random_rule_options_with_draws_and_keeps_match_in_the_compiled_loop(
        case: tuple[Variant, int], seed: int, twin: str) -> None:
    variant, players = case
    scalar, batch = TWINS[twin]
    assert_same_results(variant, players, [seed, seed ^ 0x5555], scalar, batch())


@pytest.mark.parametrize(("options", "named"), [
    ({"play": {"draw_after_trick": True}}, "play.draw_after_trick"),
    ({"joker": {"lead_choice": True}}, "joker.lead_choice"),
])
def test_the_lockstep_engine_refuses_what_it_cannot_play(options: dict[str, Any],
                                                         named: str) -> None:
    """Numpy seats cannot answer these rules (their observations know neither the draw's stock
    nor a keep decision): the lockstep engine says so, naming the option, rather than play them
    wrongly (``RulePlan.lockstep_refusal``); compiled seats play them on the machine's states in
    the lockstep loop too, deal log and all, the games of the whole-game compiled loop."""
    from raspis.engine.errors import RaspisError

    variant = variant_from_dict({"extends": "joker-52", "name": "refused", **options})
    logged = play_batch(variant, 3, [1, 2], [BatchLowest()], record=True)
    whole = play_batch(variant, 3, [1, 2], [BatchLowest()])
    assert logged.log is not None and not logged.errored.any()
    assert logged.scores.tolist() == whole.scores.tolist()
    with pytest.raises(RaspisError, match=named.replace(".", r"\.")):
        play_batch(variant, 3, [1], [ScalarAdapter("heuristic")])
    with pytest.raises(RaspisError, match="lockstep"):
        play_batch(variant, 3, [1], [ScalarAdapter("heuristic")])


# -- matches ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), [
    (load_variant("joker-52"), 3),
    (load_variant("joker-52"), 2),
    (variant_from_dict({"extends": "odessa-short", "schedule": {"deals": ["1..2"]},
                        "match": {"games": 3, "tie_break": "second_places"}}), 2),
    (variant_from_dict({"extends": "oh-hell", "schedule": {"deals": ["1..4", "3..1"]},
                        "match": {"games": 5}}), 3),
])
@pytest.mark.parametrize("twin", sorted(TWINS))
def test_matches_match_play_match(variant: Variant, players: int, twin: str) -> None:
    from raspis.engine.batch.match import play_batch_matches
    from raspis.strategies.match import play_match

    scalar, batch = TWINS[twin]
    seeds = list(range(25))
    result = play_batch_matches(variant, players, seeds, [batch()])
    for index, seed in enumerate(seeds):
        match = play_match(variant, players, seed, [scalar() for _ in range(players)])
        assert result.wins[index].tolist() == match.wins
        assert result.seconds[index].tolist() == match.seconds
        assert np.flatnonzero(result.winners[index]).tolist() == sorted(match.winners)
        assert result.decided_by[index] == match.decided_by
        assert result.games_played[index] == len(match.games)


def test_a_play_off_between_the_tied_leaders_matches_play_match() -> None:
    """002: «Если в результате дополнительной партии оказывается 2 победителя, то разыгрывается
    партия между этими лидерами»: one-deal games tie often, so some matches reach a play-off of
    the leaders alone; the lockstep matches play the very same ones."""
    from raspis.engine.batch.match import play_batch_matches
    from raspis.strategies.match import play_match

    variant = variant_from_dict({"extends": "joker-52", "schedule": {"deals": ["2"]}})
    scalar, batch = TWINS["fastrandom"]
    seeds = list(range(60))
    result = play_batch_matches(variant, 3, seeds, [batch()])
    play_offs = 0
    for index, seed in enumerate(seeds):
        match = play_match(variant, 3, seed, [scalar() for _ in range(3)])
        play_offs += any(len(seats) < 3 for seats in match.seats)
        assert np.flatnonzero(result.winners[index]).tolist() == sorted(match.winners)
        assert result.decided_by[index] == match.decided_by
        assert result.games_played[index] == len(match.games)
    assert play_offs > 0


# -- chance ----------------------------------------------------------------------------------------


def test_shuffles_and_first_dealers_are_the_references() -> None:
    """The compiled shuffle and first dealer, looped over games, equal ``engine.rng``'s plain
    Python definition (sorted by SplitMix64 hash, ties by card id) and ``Game``'s first dealer."""
    from raspis.engine import Game
    from raspis.engine import rng as reference
    from raspis.engine.batch import rng
    from raspis.engine.batch.kernels import first_dealer_many, shuffle_many
    from raspis.engine.core.plan import RulePlan

    seeds = np.array([0, 1, 2**63, 2**64 - 1, *range(5, 200, 7)], dtype=np.uint64)
    for name in ("classic", "joker", "georgian", "joker-52"):
        variant = load_variant(name)
        cards = np.array(variant.deck_cards)
        keys = rng.deal_keys(seeds, 3)
        decks = np.empty((len(keys), len(cards)), dtype=np.int64)
        shuffle_many(cards, keys, decks)
        for key, order in zip(keys, decks, strict=True):
            assert order.tolist() == reference.shuffled(variant.deck_cards, int(key))
        for players in variant.player_counts():
            resolved = variant.for_player_count(players)
            plan = RulePlan(resolved, players, resolve=False)
            lots = np.empty((len(seeds), plan.deck_size), dtype=np.int64)
            shuffle_many(plan.deck_cards, rng.lot_keys(seeds), lots)
            dealers = np.empty(len(seeds), dtype=np.int64)
            first_dealer_many(lots, players, plan.first_dealer, dealers)
            assert dealers.tolist() == [Game(variant, players, int(seed)).view.first_dealer
                                        for seed in seeds]


def test_the_random_key_is_the_first_draw_of_the_strategy_generator() -> None:
    import random

    from raspis.engine.batch.rng import SCALAR_KEYS, python_random_bits64

    # the vectorised seeding (more keys than SCALAR_KEYS) and the key-by-key one (a few keys)
    keys = [0, 1, 2**32 - 1, 2**32, 2**63 + 12345, 2**64 - 1,
            *range(10**6, 10**6 + 2 * SCALAR_KEYS)]
    for some in (keys, keys[:6]):
        drawn = python_random_bits64(np.array(some, dtype=np.uint64))
        assert drawn.tolist() == [random.Random(key).getrandbits(64) for key in some]


# -- batches, tables and faults --------------------------------------------------------------------


def test_results_do_not_depend_on_the_batch_size() -> None:
    variant = load_variant("joker")
    seeds = np.arange(40, dtype=np.uint64) * np.uint64(7919)
    whole = play_batch(variant, 4, seeds, [BatchRandom()])
    parts = [play_batch(variant, 4, seeds[i:i + 7], [BatchRandom()]) for i in range(0, 40, 7)]
    assert np.array_equal(whole.scores, np.concatenate([p.scores for p in parts]))
    assert np.array_equal(whole.bid, np.concatenate([p.bid for p in parts]))
    assert np.array_equal(whole.tricks, np.concatenate([p.tricks for p in parts]))


class RaisesInDealThree(Strategy):
    """Plays the first legal action; raises on its first decision of the third deal."""

    name = "raises-in-deal-three"

    def act(self, observation: Any) -> Any:
        if observation.deal_number == 2 and self.seat == 1:
            raise RuntimeError("deal three")
        return observation.legal_actions[0]


class IllegalBid(BatchLowest):
    """The batch ``lowest``, except that it bids 63 in deal two."""

    def bid(self, observation: Any) -> np.ndarray:
        bids = super().bid(observation)
        return np.where(observation.deal_number == 1, 63, bids)


def _tables(frames: tuple[pl.DataFrame, pl.DataFrame | None, pl.DataFrame]) -> list[pl.DataFrame]:
    keys = ["strategy", "dealer_offset", "deal_index", "kind", "special", "hand_size",
            "held_joker1", "held_joker2"]
    games, deals, stats = frames
    return [games, deals if deals is not None else pl.DataFrame(), stats.sort(keys)]


@pytest.mark.parametrize(("variants", "players", "strategies"), [
    (("classic", "odessa"), 4, ("lowest", "fastrandom", "fastheuristic", "fastrandom")),
    (("joker", "georgian"), 4, ("fastheuristic",) * 4),
    (("odessa-short",), 3, ("fastrandom", "lowest", f"{__file__}:RaisesInDealThree")),
])
def test_batch_shards_write_the_same_tables_as_run_shard(
        variants: tuple[str, ...], players: int, strategies: tuple[str, ...],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from raspis.tournament.batch_shard import run_shard_batch

    for name, target in SCALAR_TWINS.items():
        monkeypatch.setitem(registry.BUILTINS, name, target)
    config = TournamentConfig(variants=variants, players=players, strategies=strategies,
                              games=12, seed=99, duplicate="rotations", shard_size=6,
                              deal_rows=True)
    for task in plan_shards(config, validate_config(config))[:5]:
        reference, batch = run_shard(task), run_shard_batch(task, chunk=5)
        for left, right in zip(_tables((reference.games, reference.deals, reference.deal_stats)),
                               _tables((batch.games, batch.deals, batch.deal_stats)), strict=True):
            assert left.equals(right), task.shard_id
        assert (reference.errored, reference.faults) == (batch.errored, batch.faults)


@pytest.mark.parametrize("golden_bidding", ["open", "none"])
def test_tie_break_deals_write_the_same_rows(golden_bidding: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal scores 0, so games tie and go to golden deals between the tied players; a seat
    sitting one out has no row when the golden deal has bidding, a row when it has none."""
    from raspis.tournament.batch_shard import run_shard_batch

    monkeypatch.setitem(registry.BUILTINS, "fastrandom", SCALAR_TWINS["fastrandom"])
    variant = variant_from_dict({
        "name": "always-tied", "extends": "odessa", "schedule": {"deals": ["1..2"]},
        "scoring": {"exact_per_trick": 0, "pass_made": 0, "over_per_trick": 0,
                    "under_per_missing": 0},
        "end": {"tie": "golden_deal", "tie_deals": 3},
        "kinds": {"golden": {"bidding": golden_bidding}},
    })
    config = TournamentConfig(variants=("odessa",), players=3, strategies=("fastrandom",) * 3,
                              games=30, seed=3, shard_size=30, deal_rows=True)
    (task,) = plan_shards(config, [variant.model_dump(mode="json")])
    reference, batch = run_shard(task), run_shard_batch(task)
    assert reference.deals is not None
    assert reference.deals.filter(pl.col("block") == -1).height > 0
    for left, right in zip(_tables((reference.games, reference.deals, reference.deal_stats)),
                           _tables((batch.games, batch.deals, batch.deal_stats)), strict=True):
        assert left.equals(right)


def test_an_illegal_batch_answer_errors_the_game_not_the_batch() -> None:
    variant = load_variant("odessa-short")
    result = play_batch(variant, 3, [1, 2], [IllegalBid()])
    assert result.errored.all()
    assert result.deals_played.tolist() == [1, 1]
    assert "illegal in deal 2, bid" in (result.errors[0] or "")
    first = play_batch(variant, 3, [1, 2], [BatchLowest()])
    assert np.array_equal(result.scores, first.points[:, 0, :])


def test_seatings_put_each_slot_at_its_seat() -> None:
    variant = load_variant("classic")
    seatings = np.array([[0, 1, 2, 3], [3, 2, 1, 0]])
    heuristic, lowest = BatchFastHeuristic(), BatchLowest()
    mixed = play_batch(variant, 4, [5, 5], [heuristic, lowest, lowest, lowest], seatings)
    alone = play_batch(variant, 4, [5], [heuristic, lowest, lowest, lowest])
    assert np.array_equal(mixed.scores[0], alone.scores[0])
    flipped = play_batch(variant, 4, [5], [lowest, lowest, lowest, heuristic])
    assert np.array_equal(mixed.scores[1], flipped.scores[0])


class RaisesInDealFour(BatchLowest):
    """The batch ``lowest``, except that its card play raises in deal four."""

    def play(self, observation: Any) -> tuple[np.ndarray, Any, Any]:
        if observation.deal_number == 3:
            raise ValueError("deal four")
        return super().play(observation)


class WrongCards(BatchRandom):
    """The batch random, except on the first trick of deal three: games 0 mod 4 play card 64 (no
    such card), games 3 mod 4 a card outside the hand, games 2 mod 4 a Joker called 'lowest'
    without a suit, or card 64 when they hold no Joker."""

    def play(self, observation: Any) -> tuple[np.ndarray, Any, Any]:
        card, call, suit = super().play(observation)
        if observation.deal_number != 2 or observation.trick_index != 0:
            return card, call, suit
        games = observation.games
        jokers = observation.legal_cards >> np.uint64(52)
        odd_call = (games % 4 == 2) & (jokers != 0)
        card = np.where(odd_call, np.where(jokers & np.uint64(1), 52, 53), card)
        call = np.where(odd_call, 4, call)
        suit = np.where(odd_call, -1, suit)
        card = np.where((games % 4 == 0) | ((games % 4 == 2) & ~odd_call), 64, card)
        return np.where(games % 4 == 3, 63, card), call, suit


def test_a_raising_batch_strategy_errors_its_games_from_that_deal() -> None:
    variant = numpy_seatable(load_variant("classic"))
    result = play_batch(variant, 3, [4, 5, 6], [RaisesInDealFour()])
    clean = play_batch(variant, 3, [4, 5, 6], [BatchLowest()])
    assert result.errored.all() and result.deals_played.tolist() == [3, 3, 3]
    assert "raised in deal 4, play: ValueError: deal four" in (result.errors[0] or "")
    totals = clean.totals_after_each_deal()[:, 2, :]
    assert np.array_equal(result.scores, totals)


def test_illegal_cards_error_only_their_games() -> None:
    variant = load_variant("joker")
    seeds = list(range(8))
    result = play_batch(variant, 4, seeds, [WrongCards()])
    clean = play_batch(variant, 4, seeds, [BatchRandom()])
    fine = np.arange(8) % 4 == 1
    assert not result.errored[fine].any()
    assert np.array_equal(result.scores[fine], clean.scores[fine])
    assert result.errored[np.arange(8) % 2 == 0].all()
    assert all("illegal in deal 3, play" in (result.errors[g] or "") for g in (0, 2, 3))


def test_an_alias_keeps_the_batch_implementation() -> None:
    """``fast=fastheuristic`` names a seat; the seat still plays the vectorised strategy, so a
    lineup of aliased batch strategies still runs on the batch engine."""
    from raspis.strategies.batch import BatchStrategy, ScalarAdapter, load_batch_strategy
    from raspis.tournament.batch_shard import can_run_batch

    assert can_run_batch(["fast=fastheuristic", "low=lowest", "random", "fastrandom"])
    assert can_run_batch(["fast=fastheuristic"] * 2, exact=True)
    strategy = load_batch_strategy("fast=fastheuristic")
    assert isinstance(strategy, BatchStrategy) and not isinstance(strategy, ScalarAdapter)
    assert not can_run_batch(["mine=heuristic", "lowest"])


def test_a_batch_strategy_whose_start_raises_errors_its_games_only() -> None:
    from raspis.strategies.batch import load_batch_strategy

    class BrokenStart(type(load_batch_strategy("lowest"))):  # type: ignore[misc]
        def start(self, variant, players, seeds):  # noqa: ANN001, ANN202
            raise RuntimeError("cannot start")

    seeds = np.arange(6, dtype=np.uint64)
    seatings = np.array([[0, 1, 1, 1] if game % 2 else [1, 1, 1, 1] for game in range(6)])
    result = play_batch(numpy_seatable(load_variant("classic")), 4, seeds,
                        [BrokenStart(), load_batch_strategy("lowest")], seatings)
    assert result.errored.tolist() == [False, True, False, True, False, True]
    assert all("cannot start" in result.errors[game] for game in (1, 3, 5))
    assert not result.deal_played[1].any() and result.deal_played[0].all()


@pytest.mark.parametrize("twin", sorted(TWINS))
def test_blind_bidding_after_the_deal_matches_the_reference_engine(twin: str) -> None:
    """000 (second article), 002: «либо после, но не глядя в свои карты»: bids after the deal,
    the trump seen, the hand not (``kinds.X.bidding = "blind"``)."""
    variant = variant_from_dict({
        "extends": "classic", "name": "blind-check",
        "schedule": {"deals": ["1..3", "max*players blind", "3..1"]},
        "kinds": {"blind": {"special": True, "bidding": "blind"}},
    })
    scalar, batch = TWINS[twin]
    assert_same_games(variant, 4, [3, 77, 2**40 + 1], scalar, batch())


@pytest.mark.parametrize("size", [1, 12, 32, 33, 500])
def test_select_bit_is_the_index_th_set_bit_in_small_and_large_batches(size: int) -> None:
    """``select_bit`` (a Python path up to 32 masks, numpy whole-array steps above) gives the
    ``index``-th lowest set bit of each mask, by its definition: the sorted positions."""
    from raspis.engine.batch.bits import select_bit

    rng = np.random.default_rng(size)
    for _ in range(20):
        masks = (rng.integers(0, 2**63, size=size, dtype=np.uint64)
                 & rng.integers(0, 2**63, size=size, dtype=np.uint64))
        masks[::3] |= np.uint64(1) << np.uint64(63)
        masks[masks == 0] = 1
        positions = [[bit for bit in range(64) if int(mask) >> bit & 1] for mask in masks]
        index = np.array([rng.integers(len(bits)) for bits in positions], dtype=np.int64)
        expected = [bits[at] for bits, at in zip(positions, index.tolist(), strict=True)]
        found = select_bit(masks, index)
        assert found.dtype == np.int64 and found.tolist() == expected
