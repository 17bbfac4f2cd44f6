"""The open-hand solver (``engine.core.solve``) against brute force, and pimc over every preset.

The reference is a plain minimax over ``engine.Game`` itself: every legal action of the seat to
move (``legal_action_tuple``, Jokers and their calls included) applied to a clone, down to the
end of the deal, the deciding seat taking the maximum of its points (``results[0].points``:
the variant's table, fines included), every other seat the minimum. The solver shares no code with
it but the rules core, so a rule restated wrongly in the solver, a transposition-table entry
reused where it should not be or two cards merged that differ shows up as a different value.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from raspis.engine import load_variant, variant_from_dict
from raspis.engine.actions import Play
from raspis.engine.cards import parse_card, parse_cards
from raspis.engine.core.plan import rule_plan
from raspis.engine.game import Game, Phase
from raspis.engine.variant import Variant, preset_names
from raspis.strategies.players.solver import OpenHandSolver

JOKER_PRESETS = ("classic", "joker", "joker-52", "odessa", "circular-trumps", "georgian")
PRESETS = (*JOKER_PRESETS, "oh-hell", "odessa-short")
#: 000's «Походивший с джокера может забрать взятку, либо отказаться от нее» on three presets:
#: the keep decision is a node of the search.
KEEPING = {f"{name}-keeping": variant_from_dict({"extends": name, "name": f"{name}-keeping",
                                                 "joker": {"lead_choice": True}})
           for name in ("classic", "joker", "joker-52")}


def brute_force(game: Game, seat: int) -> int:
    """``seat``'s points for the deal under paranoid minimax, by enumerating every play."""
    if game.results:
        return game.results[0].points[seat]
    values = []
    for action in game.legal_action_tuple():
        child = game.clone()
        child.apply(action)
        values.append(brute_force(child, seat))
    return max(values) if game.to_move == seat else min(values)


def random_position(variant_name: str | Variant, players: int, hand_size: int,
                    rng: random.Random, plays: int) -> Game:
    """A one-deal game of a random kind of the preset (or variant, or a ``KEEPING`` variant by
    name), hands dealt at random, random legal bids (or trump named), then ``plays`` random legal
    plays."""
    if isinstance(variant_name, str):
        variant = KEEPING.get(variant_name) or load_variant(variant_name)
    else:
        variant = variant_name
    variant = variant.for_player_count(players)
    deck = list(variant.deck_cards)
    rng.shuffle(deck)
    hands = [0] * players
    for seat in range(players):
        for card in deck[seat * hand_size:(seat + 1) * hand_size]:
            hands[seat] |= 1 << card
    kind = rng.choice(sorted(variant.kinds))
    trump = -1 if variant.trump.mode == "circular" else rng.choice([-1, 0, 1, 2, 3])
    game = Game.single_deal(variant, hands, trump, dealer=rng.randrange(players), kind=kind,
                            log=False)
    while game.phase != Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(plays):
        if game.results:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def check_against_brute_force(game: Game, solver: OpenHandSolver) -> int:
    """Assert the solver's value of every legal action equals brute force; returns the count."""
    if game.results or game.phase != Phase.PLAY:
        return 0
    seat = game.to_move
    actions = list(game.legal_action_tuple())
    values = solver.values(game, seat, actions)
    assert values is not None
    for action, value in zip(actions, values, strict=True):
        child = game.clone()
        child.apply(action)
        assert value == brute_force(child, seat), (action, game.view.hands, game.trick, game.bids)
    return len(actions)


SOLVER = OpenHandSolver(table_bits=12)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), variant_name=st.sampled_from(PRESETS),
       players=st.sampled_from([3, 4]), hand_size=st.sampled_from([2, 3]),
       plays=st.integers(0, 7))
def test_solver_matches_brute_force(seed: int, variant_name: str, players: int, hand_size: int,
                                    plays: int) -> None:
    if variant_name == "georgian":
        players = 4  # Georgian poker: 4 or 6 players
    game = random_position(variant_name, players, hand_size, random.Random(seed), plays)
    check_against_brute_force(game, SOLVER)


def test_solver_with_jokers_in_hand_matches_brute_force() -> None:
    """Positions where a Joker is in some hand, on every Joker preset (calls led and followed)."""
    rng = random.Random(13)
    checked = {name: 0 for name in JOKER_PRESETS}
    for name in JOKER_PRESETS:
        attempts = 0
        while checked[name] < 6 and attempts < 400:
            attempts += 1
            players = 4 if name == "georgian" else rng.choice([3, 4])
            game = random_position(name, players, rng.choice([2, 3]), rng, rng.randrange(4))
            if game.results or not any(hand >> 52 for hand in game.view.hands):
                continue
            if check_against_brute_force(game, SOLVER):
                checked[name] += 1
    assert all(count == 6 for count in checked.values()), checked


AS_CARD = [variant_from_dict({"extends": base, "name": f"{base}-as-card",
                              "deck": {"lowest_rank": low, "jokers": 1, "joker_cards": []},
                              "joker": {"as_card": True}})
           for base, low in (("classic", 6), ("odessa", 2), ("circular-trumps", 6))]


def test_solver_with_a_joker_declared_as_any_card_matches_brute_force() -> None:
    """``joker.as_card`` (000 «джокер может быть выдан за любую карту»): brute force tries every
    card of the deck as the Joker's name, the solver one name for each way it can hold the
    trick; the values agree."""
    rng = random.Random(29)
    checked = 0
    for attempt in range(400):
        if checked >= 18:
            break
        variant = AS_CARD[attempt % len(AS_CARD)]
        game = random_position(variant, rng.choice([3, 4]), rng.choice([2, 3]), rng,
                               rng.randrange(4))
        if game.results or not any(hand >> 52 for hand in game.view.hands):
            continue
        if check_against_brute_force(game, SOLVER):
            checked += 1
    assert checked >= 18


def reaches_a_keep(game: Game) -> bool:
    """Whether some line of play from ``game`` to the deal's end meets a keep decision."""
    if game.results:
        return False
    if game.phase == Phase.KEEP:
        return True
    return any(reaches_a_keep(_after(game, action)) for action in game.legal_action_tuple())


@pytest.mark.parametrize("model", ["paranoid", "maxn"])
def test_the_keep_decision_is_searched_as_brute_force_plays_it(model: str) -> None:
    """Positions with a Joker in some hand under ``joker.lead_choice``: the values of paranoid
    and of max^n (without cut-offs) equal brute force over ``engine.Game``, which plays the keep
    decision as any other (``Keep(True)``, ``Keep(False)``)."""
    solver = SOLVER if model == "paranoid" else MAXN
    rng = random.Random(29)
    checked = {name: 0 for name in KEEPING}
    keeps = {name: 0 for name in KEEPING}  # positions whose tree holds a keep decision
    for name in KEEPING:
        attempts = 0
        while checked[name] < 8 and attempts < 600:
            attempts += 1
            players = rng.choice([3, 4])
            game = random_position(name, players, rng.choice([2, 3]), rng, rng.randrange(3))
            if game.results or game.phase != Phase.PLAY:
                continue
            holder = [seat for seat, hand in enumerate(game.view.hands) if hand >> 52]
            if not holder:
                continue
            seat = game.to_move
            actions = list(game.legal_action_tuple())
            values = solver.values(game, seat, actions)
            assert values is not None
            if model == "paranoid":
                expected = [brute_force(_after(game, action), seat) for action in actions]
            else:
                fines = list(game.view.fines)
                expected = [brute_force_maxn(_after(game, action), seat, fines)[seat]
                            for action in actions]
            assert values == expected, (name, game.view.hands, game.trick, game.bids)
            keeps[name] += reaches_a_keep(game)
            checked[name] += 1
    assert all(count == 8 for count in checked.values()), checked
    assert all(keeps.values()), keeps  # the keep decision was searched in every variant


def test_misere_leader_who_cannot_lose_the_lead_takes_nothing() -> None:
    """Georgian misère (−10 a trick): Q♠ is beaten by A♠, whose holder then has only hearts
    (trumps) left; the leader takes nothing."""
    variant = load_variant("georgian").for_player_count(4)
    hands = [parse_cards(text) for text in ("6s Qc 8d", "Jd 10d 6d", "As Ah 10h", "Qs Jc 8c")]
    game = Game.single_deal(variant, hands, 3, dealer=2, kind="misere", log=False)
    assert game.to_move == 3
    solver = OpenHandSolver(table_bits=8)
    assert solver.values(game, 3, [Play(parse_card("Qs"))]) == [0]
    actions = list(game.legal_action_tuple())
    assert solver.values(game, 3, actions) == [brute_force(_after(game, a), 3) for a in actions]


def test_lead_fine_is_counted() -> None:
    """Joker-52 fines a Joker led while other cards are held (−10): the solver's value of that
    lead includes it, as the game's score does."""
    variant = load_variant("joker-52").for_player_count(3)
    hands = [parse_cards(text) for text in ("Ad 3c", "Kd 4c", "JK 2c")]  # the dealer leads
    game = Game.single_deal(variant, hands, 0, dealer=2, kind="normal", log=False, bids=[1, 0, 0])
    seat = game.to_move
    actions = [a for a in game.legal_action_tuple() if isinstance(a, Play) and a.card >= 52]
    assert actions
    values = OpenHandSolver(table_bits=8).values(game, seat, actions)
    assert values == [brute_force(_after(game, action), seat) for action in actions]
    unfined = variant.model_copy(update={"joker": variant.joker.model_copy(
        update={"lead_fine": 0})})
    plain = Game.single_deal(unfined, hands, 0, dealer=2, kind="normal", log=False, bids=[1, 0, 0])
    plain_values = OpenHandSolver(table_bits=8).values(plain, seat, actions)
    assert plain_values is not None
    assert [value - plain for value, plain in zip(values, plain_values, strict=True)] == (
        [variant.joker.lead_fine] * len(actions))


def test_budget_stops_the_search() -> None:
    rng = random.Random(3)
    game = random_position("oh-hell", 4, 6, rng, 0)
    actions = list(game.legal_action_tuple())
    assert OpenHandSolver(table_bits=8, budget=50).values(game, game.to_move, actions) is None
    assert OpenHandSolver(table_bits=8).values(game, game.to_move, actions) is not None


def _after(game: Game, action: Play) -> Game:
    child = game.clone()
    child.apply(action)
    return child


@pytest.mark.parametrize("table_bits", [1, 16])
def test_a_tiny_table_gives_the_same_values(table_bits: int) -> None:
    """Collisions in a table of two entries only cost time, never a wrong value."""
    rng = random.Random(table_bits)
    solver = OpenHandSolver(table_bits=table_bits)
    for _ in range(15):
        game = random_position(rng.choice(PRESETS[:5]), 3, 3, rng, rng.randrange(3))
        check_against_brute_force(game, solver)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), variant_name=st.sampled_from(PRESETS),
       plays=st.integers(0, 5))
def test_observation_face_matches_the_game_face(seed: int, variant_name: str, plays: int) -> None:
    """``values_for`` (an observation and guessed hands, as pimc calls it) gives what
    ``values`` gives for the game, less the fines already incurred."""
    game = random_position(variant_name, 4, 3, random.Random(seed), plays)
    if game.results:
        return
    seat = game.to_move
    actions = list(game.legal_action_tuple())
    from_game = SOLVER.values(game, seat, actions)
    from_view = SOLVER.values_for(game.observation(seat), game.view.hands, actions)
    assert from_game is not None and from_view is not None
    assert [value + game.view.fines[seat] for value in from_view] == from_game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), variant_name=st.sampled_from(PRESETS),
       offset=st.integers(0, 3))
def test_opening_value_matches_brute_force(seed: int, variant_name: str, offset: int) -> None:
    """The value of a deal before its first card, for any seat (the leader may be an opponent),
    as the bidding search asks it."""
    game = random_position(variant_name, 4, 2, random.Random(seed), 0)
    seat = game.view.order[offset]
    observation = game.observation(seat)
    value = SOLVER.opening_value(observation, game.view.hands, game.bids, game.view.trump)
    assert value == brute_force(game, seat)


def brute_force_maxn(game: Game, decider: int, root_fines: list[int]) -> tuple[int, ...]:
    """Every seat's points under max^n: the seat to move takes the outcome best for itself, then
    worst for ``decider``, then the least packed outcome (tricks, then Jokers led with a fine,
    ``SEAT_BITS`` a position in the order of play), as the solver orders them."""
    return tuple(_maxn_outcome(game, decider, root_fines).points)


def _maxn_outcome(game: Game, decider: int, root_fines: list[int]) -> Any:
    """The deal result at the end of the line max^n plays from ``game``: each child's outcome is
    searched once and gives both its points and its packed key (the search once walked the line
    again from every child for the key, the same outcome at many times the cost)."""
    if game.results:
        return game.results[0]
    fine = game.plan.lead_fine
    mover = game.to_move
    best: tuple[tuple[int, int, int], Any] | None = None
    for action in game.legal_action_tuple():
        child = game.clone()
        child.apply(action)
        result = _maxn_outcome(child, decider, root_fines)
        packed = 0
        for position, seat in enumerate(game.view.order):
            fined = (result.fines[seat] - root_fines[seat]) // fine if fine else 0
            packed += (result.taken[seat] + (fined << 6)) << (8 * position)
        key = (-result.points[mover], result.points[decider], packed)
        if best is None or key < best[0]:
            best = (key, result)
    assert best is not None
    return best[1]


MAXN = OpenHandSolver(table_bits=12, model="maxn", cut_offs=False)
MAXN_CUT = OpenHandSolver(table_bits=12, model="maxn")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), variant_name=st.sampled_from(PRESETS),
       players=st.sampled_from([3, 4]), plays=st.integers(0, 5))
def test_maxn_matches_brute_force(seed: int, variant_name: str, players: int,
                                  plays: int) -> None:
    """max^n (every seat for its own points, the bids fixed), exact without cut-offs; with them
    the deciding seat's value of the position itself is the same (only which of two outcomes
    equal for the mover and the deciding seat is taken may differ, deeper down)."""
    if variant_name == "georgian":
        players = 4
    game = random_position(variant_name, players, 2, random.Random(seed), plays)
    if game.results:
        return
    seat = game.to_move
    actions = list(game.legal_action_tuple())
    values = MAXN.values(game, seat, actions)
    assert values is not None
    for action, value in zip(actions, values, strict=True):
        child = _after(game, action)
        assert value == brute_force_maxn(child, seat, list(game.view.fines))[seat], action
    value = MAXN_CUT.position_value(game, seat)
    assert value == MAXN.position_value(game, seat) == max(values)


# -- pimc over every preset ------------------------------------------------------------------

#: Every built-in variant, whatever presets are added later.
ALL_PRESETS = tuple(sorted(preset_names()))


@pytest.mark.parametrize("variant_name", ALL_PRESETS)
@pytest.mark.parametrize("spec", ["pimc:samples=4,bid_samples=3",
                                  "pimc:samples=3,bid_samples=2,bidding=solve,model=paranoid"])
def test_pimc_plays_legally_on_every_preset(variant_name: str, spec: str) -> None:
    """pimc's choice is legal wherever it is asked: bids, named trumps, every kind of deal, and
    plays with a Joker in hand (its calls), at decision points of random games."""
    from raspis.strategies import load_strategy

    variant = load_variant(variant_name)
    players = 4
    rng = random.Random(variant_name)
    strategy = load_strategy(spec)
    asked = {"bid": 0, "play": 0, "joker": 0}
    for seed in range(2):
        game = Game(variant, players, seed=seed, log=False)
        strategy.start_game(game.variant, 0, players, random.Random(seed))
        steps = jokers = 0
        while not game.is_over() and steps < 300:
            steps += 1
            legal = game.legal_action_tuple()
            seat = game.to_move
            joker = game.phase == Phase.PLAY and game.view.hands[seat] >> 52 != 0 and jokers < 4
            jokers += joker
            # every Joker play, the first two bids with a choice, and 4% of the rest
            first_bids = game.phase == Phase.BID and asked["bid"] < 2
            ask = len(legal) > 1 and (joker or first_bids or rng.random() < 0.04)
            if ask:
                action = strategy.act(game.observation(seat))
                assert action in legal, (variant_name, action, legal)
                asked["joker" if joker else "bid" if game.phase == Phase.BID else "play"] += 1
            else:
                action = legal[rng.randrange(len(legal))]
            game.apply(action)
    assert asked["bid"] and asked["play"], asked
    if rule_plan(variant.for_player_count(players), players).has_jokers:
        assert asked["joker"], asked


def test_pimc_finishes_a_whole_game_without_a_fault() -> None:
    from raspis.strategies import load_strategy, play_game

    variant = load_variant("joker-52")
    lineup = [load_strategy("pimc:samples=3,bid_samples=2")] + [
        load_strategy("heuristic") for _ in range(2)]
    record = play_game(variant, 3, 5, lineup)
    assert record.fault is None
    assert record.game.is_over()


def test_a_premium_bonus_is_added_to_the_made_bid_only() -> None:
    """``bonus`` (pimc's premium stake) is added to the lines that make the bid: a move's value
    rises by at most the bonus, and somewhere by some of it (both models)."""
    rng = random.Random(21)
    for model in ("paranoid", "maxn"):
        solver = OpenHandSolver(table_bits=10, model=model, cut_offs=False)
        raised = 0
        for _ in range(12):
            game = random_position("classic", 4, 3, rng, rng.randrange(3))
            seat = game.to_move
            if game.results or game.bids[seat] is None:
                continue
            actions = list(game.legal_action_tuple())
            plain = solver.values(game, seat, actions)
            staked = solver.values(game, seat, actions, bonus=1000)
            assert plain is not None and staked is not None
            for before, after in zip(plain, staked, strict=True):
                assert 0 <= after - before <= 1000
                raised += after > before
        assert raised, model
