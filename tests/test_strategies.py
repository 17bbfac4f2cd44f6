"""Strategies: every built-in plays every preset legally, loading by every spec form, the faults
``play_game`` records, determinism, the ev bid decision, and the determinizations search uses."""

from __future__ import annotations

import random
import sys
import textwrap
import time
from types import SimpleNamespace

import pytest
from raspis.engine import (
    Bid,
    Game,
    Phase,
    Play,
    load_variant,
    preset_names,
    variant_from_dict,
)
from raspis.engine.cards import SUIT_MASKS, parse_cards
from raspis.engine.determinize import (
    HandSampler,
    determinize,
    inferred_voids,
    named_choices,
    play_options,
    sample_hidden_hands,
)
from raspis.strategies import (
    RandomStrategy,
    Strategy,
    StrategySpecError,
    available_strategies,
    load_strategy,
    play_game,
    registry,
)
from raspis.strategies.players.ev import best_bid, points_table
from raspis.strategies.players.heuristic import HeuristicStrategy, policy_action
from raspis.strategies.players.tactics import rules_for, trick_distribution

# Tiny budgets: these tests check legality and plumbing, not strength. pimc's node budget of 5,000
# a solve (100,000 by default) still solves most guesses exactly and still runs past the budget
# in others, so that both ways of valuing a guess (the solve, the playouts after a solve given
# up) come up in every preset's game; a solve given up early costs far less (a whole game at
# classic-lobovaya: 8.5 -> 3.8 s of CPU, 742 solved and 284 given up -> 586 and 382).
CHEAP = {
    "random": "random",
    "heuristic": "heuristic",
    "ev": "ev:samples=2,window=1",
    "pimc": "pimc:samples=2,bid_samples=1,window=1,budget=5000",
    "ismcts": "ismcts:iterations=6,bid_samples=1,window=1",
    "mc": "mc:samples=2",
}
SEARCH = ("pimc", "ismcts", "mc")

#: Special deals the presets do not play (lobovaya), a Joker turned up that the dealer names, a
#: fixed trump, and the dark "overbid" rule, so that every kind of decision comes up.
EXTRA_VARIANT = {
    "extends": "classic",
    "name": "test-extras",
    "schedule": {"deals": ["1..3", "3*players lobovaya", "2*players dark", "3 golden"]},
    "trump": {"joker_turned": "dealer_names"},
    "kinds": {"dark": {"hook": "overbid", "min_bid": 1}},
}


def _preset_cases() -> list[tuple[str, str, int]]:
    cases = []
    for name in preset_names():
        counts = load_variant(name).player_counts()
        for strategy in ("random", "heuristic", "ev"):
            cases.extend((strategy, name, players) for players in counts)
        middle = counts[len(counts) // 2]
        cases.extend((strategy, name, middle) for strategy in SEARCH)
    return cases


def _play(variant, players: int, seed: int, spec: str, log: bool = False):  # noqa: ANN001, ANN202
    strategies = [load_strategy(spec) for _ in range(players)]
    return play_game(variant, players, seed, strategies, log=log)


@pytest.mark.parametrize(("strategy", "preset", "players"), _preset_cases())
def test_builtin_plays_a_whole_game_legally(strategy: str, preset: str, players: int) -> None:
    record = _play(load_variant(preset), players, 11, CHEAP[strategy])
    assert record.fault is None, str(record.fault)
    assert record.game.is_over()


#: The seeds' options in three mixes: bidding after the deal without looking (000 second article,
#: 002 «либо после, но не глядя»), own tricks only (000 first article «подглядывать в свои
#: взятки», 002), 000 third article's undertrick table (flat, per bid trick with nothing taken),
#: a fixed premium per block, Georgian Joker as pagat and jok.ge play it with memory "own", and
#: the Joker's demands of any suit and of a named rank.
SEED_OPTION_MIXES = [
    {"extends": "classic", "name": "seed-options-a", "players": {"min": 3, "max": 4},
     "schedule": {"deals": ["1..3", "3*2 blind", "4", "3..1"]},
     "kinds": {"blind": {"special": True, "bidding": "blind"}},
     "play": {"memory": "own"},
     "scoring": {"under_mode": "flat", "under_per_missing": -10, "under_nothing_per_bid": -10,
                 "premium": "fixed", "premium_points": 100, "premium_scope": "block"}},
    {"extends": "joker-pagat", "name": "seed-options-b", "players": {"min": 3, "max": 4},
     "schedule": {"deals": ["1..3", "9*2 named", "3..1", "2*2 blind"]},
     "kinds": {"blind": {"special": True, "bidding": "blind"}},
     "play": {"memory": "own"}},
    # the demands of any suit (000 second and fourth articles) and a named rank (003), alone, so
    # that every lead of the Joker is one of them, on 52 cards and two Jokers
    {"extends": "classic", "name": "seed-options-c", "players": {"min": 3, "max": 4},
     "deck": {"lowest_rank": 2, "jokers": 2, "joker_cards": []},
     "schedule": {"deals": ["1..4", "4 no_trump", "3..1"]},
     "joker": {"lead_calls": ["highest_card", "lowest_card", "lowest_trump", "named_rank"]}},
]


@pytest.mark.parametrize("spec", [*CHEAP.values(), "heuristic:premium=true"])
@pytest.mark.parametrize("mix", range(len(SEED_OPTION_MIXES)))
def test_builtin_plays_the_seed_options_legally(spec: str, mix: int) -> None:
    """Every built-in (the heuristic also playing for the premium) finishes games of each mix
    with only legal actions."""
    variant = variant_from_dict(SEED_OPTION_MIXES[mix])
    for players in (3, 4):
        record = _play(variant.for_player_count(players), players, 7 + players, spec)
        assert record.fault is None, str(record.fault)
        assert record.game.is_over()


#: Two rules of the seeds: 002 Joker-52's draw after each trick read literally («После чего игроки
#: берут по одной карте из оставшейся колоды»: bids above the hand) and 000's keeping or declining
#: the trick a Joker led («Походивший с джокера может забрать взятку, либо отказаться от нее»),
#: together and apart, with a dark deal whose minimum bid and hook can leave only bids above the
#: hand.
DRAW_AND_KEEP_VARIANTS = [
    {"extends": "joker-52", "name": "draw-keep-a", "players": {"min": 3, "max": 4},
     "schedule": {"deals": ["2..3", "2"]}, "play": {"draw_after_trick": True},
     "joker": {"lead_choice": True}},
    {"extends": "classic", "name": "draw-keep-b", "players": {"min": 3, "max": 4},
     "schedule": {"deals": ["1..3", "max", "1*players dark", "3 golden", "2 misere"]},
     "kinds": {"dark": {"min_bid": 1}},
     "joker": {"lead_choice": True, "demand_trumped": "trump_wins"}},
    {"extends": "odessa", "name": "draw-keep-c", "players": {"min": 3, "max": 4},
     "schedule": {"deals": ["1..2", "1*players dark", "2"]},
     "kinds": {"dark": {"min_bid": 1}}, "play": {"draw_after_trick": True},
     "scoring": {"premium": "fixed", "premium_points": 100}},
]
EVERY_BUILTIN = {**{name: name for name in registry.BUILTINS}, **CHEAP}


@pytest.mark.parametrize("spec", sorted(EVERY_BUILTIN.values()))
@pytest.mark.parametrize("mix", range(len(DRAW_AND_KEEP_VARIANTS)))
def test_builtin_plays_the_draw_and_the_keep_legally(spec: str, mix: int) -> None:
    """Every built-in finishes games with the draw after each trick and the keep decision, with
    only legal actions (bids above the hand included)."""
    variant = variant_from_dict(DRAW_AND_KEEP_VARIANTS[mix])
    for players in (3, 4):
        for seed in (3, 4):
            record = _play(variant.for_player_count(players), players, seed + players, spec)
            assert record.fault is None, str(record.fault)
            assert record.game.is_over()


@pytest.mark.parametrize("strategy", list(CHEAP))
@pytest.mark.parametrize("players", [3, 4])
def test_builtin_plays_lobovaya_named_joker_trump_and_overbid_dark(
    strategy: str, players: int
) -> None:
    variant = variant_from_dict(EXTRA_VARIANT)
    for seed in (1, 2):
        record = _play(variant, players, seed, CHEAP[strategy])
        assert record.fault is None, str(record.fault)


def test_heuristic_and_ev_beat_random_at_the_table() -> None:
    variant = load_variant("classic")
    for spec in ("heuristic", "ev:samples=4"):
        margin = 0.0
        for seed in range(2):
            record = play_game(variant, 4, seed, [load_strategy(spec), RandomStrategy(),
                                                  load_strategy(spec), RandomStrategy()])
            scores = record.game.scores
            margin += scores[0] + scores[2] - scores[1] - scores[3]
        assert margin > 0, spec


# -- determinism ------------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", list(CHEAP))
def test_same_seed_same_decisions(strategy: str) -> None:
    variant = load_variant("joker")
    traces = [_play(variant, 3, 5, CHEAP[strategy], log=True).game.trace() for _ in range(2)]
    assert traces[0] == traces[1]
    other = _play(variant, 3, 6, CHEAP[strategy], log=True).game.trace()
    assert other != traces[0]


# -- loading ----------------------------------------------------------------------------------


def test_every_builtin_is_available_with_documented_parameters() -> None:
    found = available_strategies()
    for name in CHEAP:
        assert name in found
        cls = found[name]
        assert cls.name == name and cls.__doc__ and cls.description
        for key, parameter in cls.parameters.items():
            assert parameter.help, (name, key)
            assert isinstance(parameter.default, parameter.type), (name, key)


def test_the_docs_list_every_builtin_parameter_with_its_default() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parent.parent / "docs" / "strategies.md").read_text()
    sections = docs.split("\n### ")
    for name, cls in available_strategies().items():
        if name not in CHEAP:
            continue
        section = next(part for part in sections if part.startswith(f"`{name}`"))
        for key, parameter in cls.parameters.items():
            default = parameter.default
            shown = str(default).lower() if isinstance(default, bool) else str(default)
            row = f"| `{key}` | {parameter.type.__name__} | `{shown}` |"
            assert row in section, (name, row)


def test_load_builtin_by_name_and_with_parameters() -> None:
    assert isinstance(load_strategy("heuristic"), HeuristicStrategy)
    search = load_strategy("ismcts:iterations=50,exploration=0.9,time=0.5")
    assert (search.iterations, search.exploration, search.time) == (50, 0.9, 0.5)
    assert search.spec() == "ismcts:exploration=0.9,iterations=50,time=0.5"
    assert load_strategy(search.spec()).options == search.options
    assert load_strategy("pimc:samples=3").samples == 3


def test_load_by_module_path() -> None:
    assert type(load_strategy("raspis.strategies.base:RandomStrategy")) is RandomStrategy
    heuristic = load_strategy(
        "raspis.strategies.players.heuristic:HeuristicStrategy:by_table=false")
    assert heuristic.by_table is False


def test_load_from_a_file(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    (tmp_path / "my_bot.py").write_text(textwrap.dedent("""
        from raspis.strategies import Parameter, Strategy

        class Lowest(Strategy):
            name = "lowest"
            parameters = {"bias": Parameter(int, 0, "unused")}

            def act(self, observation):
                return observation.legal_actions[0]
    """))
    monkeypatch.chdir(tmp_path)
    strategy = load_strategy("./my_bot.py:Lowest:bias=2")
    assert strategy.name == "lowest" and strategy.bias == 2
    opponents = [RandomStrategy(), RandomStrategy()]
    record = play_game(load_variant("classic"), 3, 1, [strategy, *opponents])
    assert record.fault is None
    assert load_strategy(f"{tmp_path / 'my_bot.py'}:Lowest").name == "lowest"


def test_load_the_example_bot() -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "examples" / "greedy_bot.py"
    strategy = load_strategy(f"{example}:GreedyBot")
    record = play_game(load_variant("joker"), 4, 2, [strategy] + [load_strategy("heuristic")] * 3)
    assert record.fault is None


def test_the_docs_show_the_example_bot_as_it_is() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    example = (root / "examples" / "greedy_bot.py").read_text()
    assert example in (root / "docs" / "strategies.md").read_text()
    assert len(example.splitlines()) <= 30


def test_load_a_plugin_entry_point(monkeypatch) -> None:  # noqa: ANN001
    class Plugged(RandomStrategy):
        name = "plugged"

    point = SimpleNamespace(name="plugged", load=lambda: Plugged)
    monkeypatch.setattr(registry, "plugin_strategies", lambda: {"plugged": point})
    assert type(load_strategy("plugged")) is Plugged
    assert "plugged" in available_strategies()


def test_plugin_through_importlib_metadata(monkeypatch) -> None:  # noqa: ANN001
    class FromMetadata(RandomStrategy):
        name = "metadata-bot"

    point = SimpleNamespace(name="metadata-bot", load=lambda: FromMetadata)

    def entry_points(group: str):  # noqa: ANN202
        return [point] if group == registry.ENTRY_POINT_GROUP else []

    from raspis.strategies import spec  # where spec strings are read, plug-ins included

    monkeypatch.setattr(spec, "entry_points", entry_points)
    assert type(load_strategy("metadata-bot")) is FromMetadata


@pytest.mark.parametrize("spec", [
    "no-such-bot",
    "raspis.strategies.base:NoSuchClass",
    "no_such_module.sub:Bot",
    "./missing_file.py:Bot",
    "heuristic:no_such_parameter=1",
    "ismcts:iterations=many",
    "pimc:samples",
])
def test_bad_specs_say_what_exists(spec: str) -> None:
    with pytest.raises(StrategySpecError) as error:
        load_strategy(spec)
    message = str(error.value)
    assert spec.split(":")[0] in message or spec in message
    if spec == "no-such-bot":
        for name in CHEAP:
            assert name in message
    if spec == "raspis.strategies.base:NoSuchClass":
        assert "RandomStrategy" in message
    if "parameter" in spec:
        assert "by_table" in message and "calibrate" in message
    if spec.startswith("ismcts"):
        assert "int" in message


def test_bad_rollout_is_a_spec_error() -> None:
    with pytest.raises(StrategySpecError, match="rollout"):
        load_strategy("ismcts:rollout=clever")


# -- play_game's fault paths ------------------------------------------------------------------


class Raises(Strategy):
    name = "raises"

    def act(self, observation):  # noqa: ANN001, ANN201
        if observation.phase == Phase.PLAY:
            raise RuntimeError("boom")
        return observation.legal_actions[0]


class Illegal(Strategy):
    name = "illegal"

    def act(self, observation):  # noqa: ANN001, ANN201
        return Bid(99)


class Slow(Strategy):
    name = "slow"

    def act(self, observation):  # noqa: ANN001, ANN201
        time.sleep(0.3)
        return observation.legal_actions[0]


def test_a_strategy_that_raises_is_recorded_not_raised() -> None:
    lineup = [RandomStrategy(), Raises(), RandomStrategy()]
    record = play_game(load_variant("classic"), 3, 1, lineup)
    assert record.errored and record.fault.kind == "raised" and record.fault.seat == 1
    assert "boom" in record.fault.message and record.fault.phase == "play"
    assert "raises" in str(record.fault)


def test_an_illegal_action_is_recorded() -> None:
    lineup = [Illegal(), RandomStrategy(), RandomStrategy()]
    record = play_game(load_variant("classic"), 3, 1, lineup)
    assert record.fault.kind == "illegal" and "Bid(tricks=99)" in record.fault.message
    assert "legal:" in record.fault.message


def test_a_decision_past_the_budget_is_recorded() -> None:
    record = play_game(load_variant("classic"), 3, 1, [RandomStrategy(), RandomStrategy(), Slow()],
                       decision_seconds=0.05)
    assert record.fault.kind == "timeout" and record.fault.seat == 2


@pytest.mark.parametrize("spec", ["pimc:samples=100000,time=0.05,bid_samples=100000",
                                  "ismcts:iterations=100000,time=0.05,bid_samples=100000",
                                  "ev:samples=100000,time=0.05"])
def test_the_time_parameter_bounds_a_search(spec: str) -> None:
    game = Game(load_variant("classic"), 4, 3, log=False)
    rules = rules_for(game.variant)
    strategy = load_strategy(spec)
    strategy.start_game(game.variant, 0, 4, random.Random(0))
    searched = 0
    while searched < 3 and not game.is_over():
        seat = game.to_move
        observation = game.observation(seat)
        if (seat == 0 and len(observation.legal_actions) > 1 and game.deal.hand_size >= 5
                and (game.phase == Phase.BID or not spec.startswith("ev"))):
            started = time.perf_counter()
            action = strategy.act(observation)
            assert time.perf_counter() - started < 1.0  # the budget plus one sample's work
            assert action in observation.legal_actions
            searched += 1
        else:
            action = policy_action(game, rules)
        game.apply(action)
    assert searched == 3


# -- the ev decision --------------------------------------------------------------------------


def test_the_score_table_changes_the_ev_bid() -> None:
    # The same trick distribution on a 9-card deal: 1 trick or 2 tricks, even chances.
    distribution = [0.0, 0.5, 0.5] + [0.0] * 7
    legal = list(range(10))
    classic, georgian = load_variant("classic"), load_variant("georgian")
    classic_table = points_table(rules_for(classic), "normal", 9)
    georgian_table = points_table(rules_for(georgian.for_player_count(4)), "normal", 9)
    # classic: bid 1 -> 0.5 * 10 + 0.5 * 2 (overtricks 1 each) = 6;
    #          bid 2 -> 0.5 * -10 + 0.5 * 20 = 5
    classic_bid, classic_values = best_bid(distribution, legal, classic_table)
    assert classic_bid == 1 and classic_values[1] == 6 and classic_values[2] == 5
    # Georgian: bid 1 -> 0.5 * 100 + 0.5 * 20 = 60; bid 2 -> 0.5 * 10 + 0.5 * 150 = 80
    georgian_bid, georgian_values = best_bid(distribution, legal, georgian_table)
    assert georgian_bid == 2 and georgian_values[1] == 60 and georgian_values[2] == 80


def test_best_bid_respects_the_legal_bids_and_per_bid_distributions() -> None:
    table = points_table(rules_for(load_variant("classic")), "normal", 3)
    sure_two = [0.0, 0.0, 1.0, 0.0]
    assert best_bid(sure_two, [0, 1, 2, 3], table)[0] == 2
    # Hooked off 2: an overtrick bid (1 a trick taken) beats falling short (-10 a missing trick);
    # a pass broken scores the same 2 as bid 1 over, and ties go to the lower bid.
    assert best_bid(sure_two, [1, 3], table)[0] == 1
    assert best_bid(sure_two, [0, 1, 3], table)[0] == 0
    per_bid = {0: [1.0, 0, 0, 0], 1: [0, 0.2, 0.8, 0], 2: [0, 0.2, 0.8, 0]}
    assert best_bid(per_bid, [0, 1, 2], table)[0] == 2


def test_trick_distribution_is_a_poisson_binomial_capped_at_the_hand() -> None:
    assert trick_distribution([1.0, 0.0], 2) == [0.0, 1.0, 0.0]
    two = trick_distribution([0.5, 0.5], 2)
    assert two == pytest.approx([0.25, 0.5, 0.25])
    capped = trick_distribution([1.0, 1.0, 0.5], 2)
    assert capped == pytest.approx([0.0, 0.0, 1.0])


# -- determinizations --------------------------------------------------------------------------


def _advance(game: Game, steps: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])


def _mid_deal(preset: str, players: int, seed: int, hand_size: int, plays: int) -> Game:
    game = Game(load_variant(preset), players, seed, log=False)
    rng = random.Random(seed)
    while not (game.deal.hand_size == hand_size and game.phase == Phase.PLAY):
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    _advance(game, plays, seed)
    return game


@pytest.mark.parametrize(("preset", "players"), [
    ("classic", 4), ("joker", 4), ("circular-trumps", 3), ("joker-52", 3), ("odessa", 4),
    ("oh-hell", 5),
])
def test_determinize_with_the_true_hands_replays_the_real_deal(preset: str, players: int) -> None:
    for seed in range(4):
        game = _mid_deal(preset, players, seed, 5 if preset != "joker" else 9, 7)
        if game.phase != Phase.PLAY:
            continue
        seat = game.to_move
        copy = determinize(game.observation(seat), game.view.hands)
        assert copy.legal_actions() == game.legal_actions()
        number = len(game.results)
        rng = random.Random(seed)
        while len(game.results) == number:
            actions = game.legal_actions()
            assert copy.legal_actions() == actions
            action = actions[rng.randrange(len(actions))]
            game.apply(action)
            copy.apply(action)
        real = game.results[-1]
        assert copy.results[0].taken == real.taken
        assert copy.results[0].points == real.points
        assert copy.is_over()


def test_samples_keep_known_cards_and_honour_shown_voids() -> None:
    variant = load_variant("classic")
    # Seat 1 led spades; seat 2 showed a void in spades (and, obliged to trump, played a heart
    # trump); seat 3 showed a void in spades and in hearts, the trump.
    hands = [parse_cards("Ac Kc Qc 9d"), parse_cards("8s 7c 6c 10d"), parse_cards("6h Jd 8d 6d"),
             parse_cards("Ad Qd 7d 8c")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[1, 1, 1, 0], log=False)
    game.apply(Play(parse_cards("8s").bit_length() - 1))
    game.apply(Play(parse_cards("6h").bit_length() - 1))
    game.apply(Play(parse_cards("8c").bit_length() - 1))
    observation = game.observation(0)
    voids = inferred_voids(observation)
    assert voids[2] & SUIT_MASKS[0] == SUIT_MASKS[0]
    assert voids[3] & SUIT_MASKS[0] == SUIT_MASKS[0] and voids[3] & SUIT_MASKS[3] == SUIT_MASKS[3]
    rng = random.Random(3)
    sampler = HandSampler(observation)
    for _ in range(200):
        sampled = sampler.sample(rng)
        assert sampled[0] == game.view.hands[0]
        assert [hand.bit_count() for hand in sampled] == [4, 3, 3, 3]
        assert not sampled[2] & SUIT_MASKS[0]
        assert not sampled[3] & (SUIT_MASKS[0] | SUIT_MASKS[3])
        union = 0
        for hand in sampled:
            assert not union & hand
            union |= hand
        assert not union & observation.played
    assert sample_hidden_hands(observation, random.Random(1))[0] == game.view.hands[0]


def test_a_demand_of_any_suit_shows_what_the_followers_lack() -> None:
    # 003 l.27 «требовать сбросить карту определённого номинала, например туза»: after the Joker's
    # "aces", a seat that played no ace holds none, the first to follow included (no suit is led
    # before it); 000-A4 «по старшей карте»: a seat that played a king holds no ace.
    card = parse_cards
    hands = [card("JK 9s 6c"), card("Kc 8s Qh"), card("9d 10h Jh"), card("As 8d 6h")]
    game = Game.single_deal(load_variant("odessa"), hands, trump=3, dealer=3, bids=[0, 0, 0, 0],
                            log=False)
    game.apply(Play(52, "aces"))
    game.apply(Play(card("Kc").bit_length() - 1))
    game.apply(Play(card("Jh").bit_length() - 1))
    voids = inferred_voids(game.observation(3))
    aces = card("As Ac Ad Ah")
    assert voids[1] & aces == aces and voids[2] & aces == aces
    hands = [card("JK 9s 6c"), card("Kc 8s Qh"), card("9d 10h Jh"), card("As 8d 6h")]
    game = Game.single_deal(load_variant("classic"), hands, trump=3, dealer=3, bids=[0, 0, 0, 1],
                            log=False)
    game.apply(Play(52, "highest_card"))
    game.apply(Play(card("Kc").bit_length() - 1))
    voids = inferred_voids(game.observation(3))
    assert voids[1] & aces == aces and not voids[1] & card("Ks Kd Kh Qs")


@pytest.mark.parametrize(("preset", "players"), [("classic", 4), ("joker", 4), ("odessa", 3),
                                                  ("joker-52", 5), ("oh-hell", 4)])
def test_samples_give_every_seat_its_card_count(preset: str, players: int) -> None:
    # Includes deals of the whole deck whose last card, shown for trump, is a Joker: it stays in
    # the dealer's hand (classic, seed 0, deal 10), unlike a card turned up from the stock.
    from raspis.engine.determinize import remaining_counts

    for seed in range(2):
        game = Game(load_variant(preset), players, seed, log=False)
        rules = rules_for(game.variant)
        rng = random.Random(seed)
        while not game.is_over():
            if game.phase == Phase.PLAY and rng.random() < 0.25:
                observation = game.observation(game.to_move)
                counts = remaining_counts(observation)
                assert counts == [hand.bit_count() for hand in game.view.hands]
                sampled = HandSampler(observation).sample(rng)
                assert [hand.bit_count() for hand in sampled] == counts
                assert sampled[game.to_move] == game.view.hands[game.to_move]
            game.apply(policy_action(game, rules))


@pytest.mark.parametrize(("preset", "players", "where"), [("classic", 4, "dealer"),
                                                           ("odessa-short", 4, "stock")])
def test_samples_of_a_dark_bid_deal_the_hand_and_guess_the_hidden_trump(
    preset: str, players: int, where: str
) -> None:
    from raspis.engine.determinize import Determinizer

    game = Game(load_variant(preset), players, 9, log=False)
    while game.kind.bidding != "dark" or game.phase != Phase.BID:
        game.apply(policy_action(game, rules_for(game.variant)))
    observation = game.observation(game.to_move)
    assert observation.hand_hidden and observation.trump_hidden and observation.trump == -1
    determinizer = Determinizer(observation)
    rng = random.Random(2)
    for _ in range(50):
        hands, trump = determinizer.draw(rng)
        assert all(hand.bit_count() == observation.hand_size for hand in hands)
        assert trump is not None
        suit, card, how = trump
        held = [seat for seat, hand in enumerate(hands) if card is not None and hand >> card & 1]
        if where == "dealer":  # the whole deck is dealt: the dealer's last card shows trump
            assert held == [observation.dealer] and how in ("last dealt", "joker: none")
        else:  # turned up from the stock: in nobody's hand
            assert held == [] and how in ("turned", "joker: none")
        assert suit == (-1 if card >= 52 else card // 13)
        search = determinizer.game(hands, trump)
        assert search.view.trump == suit and search.view.trick_trump == suit


def test_bid_evidence_favours_guesses_that_explain_the_bids() -> None:
    from raspis.engine.determinize import Determinizer
    from raspis.strategies.players.search import BidEvidence, guesses
    from raspis.strategies.players.tactics import estimate_tricks
    from raspis.strategies.policies.chances import Holding

    variant = load_variant("classic")
    hands = [parse_cards("6s 7c 8d 9h 6d 7h"), parse_cards("As Ks Ac Kc Ad Ah"),
             parse_cards("8s 9s 8c 9c 10d Jd"), parse_cards("10s Js 10c Jc 10h Jh")]
    game = Game.single_deal(variant, hands, trump=3, dealer=0, bids=[4, 0, 1, 0], log=False)
    observation = game.observation(0)
    rules = rules_for(variant)
    determinizer = Determinizer(observation)
    evidence = BidEvidence(observation, rules, 1.0)
    assert [item[0] for item in evidence.items] == [1, 2, 3]

    def strength(stream) -> float:  # noqa: ANN001
        total = 0.0
        for _ in range(300):
            guess, _ = next(stream)
            total += estimate_tricks(Holding(guess[1], 3, 6, 4, True, rules.deck & ~guess[1],
                                             rules.play))
        return total / 300

    plain = strength(guesses(determinizer, BidEvidence(observation, rules, 0.0), random.Random(1)))
    weighted = strength(guesses(determinizer, evidence, random.Random(1)))
    assert weighted > plain + 0.3
    record = _play(variant, 4, 3, "pimc:samples=2,bid_samples=2,window=1,inference=1,budget=5000")
    assert record.fault is None


def test_play_options_match_the_legal_actions() -> None:
    for preset, players in (("classic", 4), ("joker", 3), ("joker-52", 4), ("circular-trumps", 4),
                            ("odessa", 3)):
        game = Game(load_variant(preset), players, 4, log=False)
        rng = random.Random(4)
        steps = 0
        seen_named = 0
        while not game.is_over() and steps < 1500:
            actions = game.legal_actions()
            if game.phase == Phase.PLAY:
                cards, jokers = play_options(game)
                expected = {Play(card) for card in range(52) if cards >> card & 1}
                expected |= {Play(*joker) for joker in jokers}
                # of the Joker declared as a card (classic, 000 l.307) only ``named_choices``:
                # the highest and lowest card of each suit, each a legal play
                named = {action for action in actions if action.call == "card"}
                assert expected - named == set(actions) - named, (preset, steps)
                tried = {Play.declared(joker.card, card)
                         for joker in named for card in named_choices(game.plan.nameable)}
                assert {play for play in expected if play.call == "card"} == tried
                assert tried <= named, (preset, steps)
                seen_named += bool(tried)
            game.apply(actions[rng.randrange(len(actions))])
            steps += 1
        # the Joker as any card is on in classic and circular-trumps only (docs/presets.md)
        assert bool(seen_named) == game.variant.joker.as_card, preset


def test_heuristic_policy_on_the_game_matches_the_strategy_on_observations() -> None:
    variant = load_variant("joker")
    game = Game(variant, 4, 8, log=False)
    # the playout policy plays for the deal's points only (it follows no premium span), so the
    # strategy it must match is the one told premium=false (joker has a premium)
    strategy = load_strategy("heuristic:premium=false")
    strategy.start_game(game.variant, 0, 4, random.Random(0))
    rules = rules_for(game.variant)
    checked = 0
    while not game.is_over():
        action = policy_action(game, rules)
        if game.phase != Phase.TRUMP:
            assert strategy.act(game.observation(game.to_move)) == action
            checked += 1
        game.apply(action)
    assert checked > 100


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


@pytest.mark.parametrize("options", [
    # 003: the hook only from the fourth deal; the search game must know which deal it is.
    {"extends": "classic", "bidding": {"hook": "from_deal", "hook_from_deal": 4}},
    # 003 (Odessa): no more than two passes in a row; the search game must know the streaks.
    {"extends": "odessa", "bidding": {"max_consecutive_passes": 1}},
    # 000: demands only in the first deals of the game.
    {"extends": "classic", "joker": {"demands_until_deal": 3}},
])
def test_search_games_keep_the_deal_number_and_the_pass_streaks(options: dict) -> None:
    """A search game built mid-game (``Game.from_observation``) offers exactly the real game's
    legal actions at every decision: the hook's ``from_deal``, the pass limit and
    ``demands_until_deal`` depend on the deal's number and on earlier deals' bids."""
    variant = variant_from_dict({"name": "search-check", **options})
    checked = 0
    for seed in range(3):
        game = Game(variant, 4 if variant.players.min <= 4 else variant.players.min, seed,
                    log=False)
        rng = random.Random(seed)
        while not game.is_over() and game.deal.number < 8:
            if game.phase in (Phase.BID, Phase.PLAY):
                copy = Game.from_observation(game.observation(game.to_move), game.view.hands)
                assert copy.legal_actions() == game.legal_actions(), (
                    f"deal {game.deal.number + 1}, seat {game.to_move}, {game.phase.name}")
                checked += 1
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
    assert checked > 100
