"""``mc`` and its compiled playouts (``strategies.policies.playout``): a playout scores what the
reference engine scores when ``strong`` plays the same deal, the caller's state is never written,
the compiled guesses are honest (the seat's known cards, the hand sizes, the shown voids), and the
strategy plays legal, repeatable games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from raspis.engine import Game, Phase, Variant, load_variant, preset_names
from raspis.engine.cards import popcount
from raspis.engine.determinize import Determinizer
from raspis.engine.variant import variant_from_dict
from raspis.strategies import load_strategy, play_game
from raspis.strategies.players.mc import MonteCarloStrategy, PlayEvidence, Position, action_code
from raspis.strategies.players.strong import StrongStrategy, policy_table
from raspis.strategies.policies import playout as po


def _decisions(variant: str | Variant, seed: int, count: int) -> list[Game]:
    """Clones of a game of four ``strong`` seats (in ``variant``, a preset's name or a variant) at
    its first ``count`` decisions with a choice."""
    game = Game(load_variant(variant) if isinstance(variant, str) else variant, 4, seed,
                log=False)
    strategies = [StrongStrategy() for _ in range(4)]
    for seat, strategy in enumerate(strategies):
        strategy.start_game(game.variant, seat, 4, random.Random(seed + seat))
    found = []
    while not game.is_over() and len(found) < count:
        observation = game.observation(game.to_move)
        if len(observation.legal_actions) > 1:
            found.append(game.clone())
        game.apply(strategies[game.to_move].act(observation))
    return found


def _reference(game: Game, first, seat: int) -> tuple[int, int, bool]:  # noqa: ANN001
    """The seat's points, premium and made bid when ``first`` is played and then ``strong`` plays
    the deal out at every seat, through ``engine.Game`` and ``StrongStrategy``."""
    strategies = [StrongStrategy() for _ in range(game.players)]
    for other, strategy in enumerate(strategies):
        strategy.start_game(game.variant, other, game.players, random.Random(other))
    deals = len(game.results)
    game.apply(first)
    while len(game.results) == deals:
        game.apply(strategies[game.to_move].act(game.observation(game.to_move)))
    result = game.results[deals]
    return result.points[seat], result.premiums[seat], result.bids[seat] == result.taken[seat]


@pytest.mark.parametrize("name", ["classic", "joker", "oh-hell"])
def test_a_playout_scores_what_strong_scores_in_the_reference_engine(name: str) -> None:
    checked = 0
    for seed in (3, 4):
        for game in _decisions(name, seed, 8):
            plan = game.tables.plan
            table = policy_table(game.tables, game.plan, True)
            seat = game.to_move
            for first in game.legal_actions()[:3]:
                state = game.state.copy()
                scratch = np.empty_like(state)
                out = np.zeros(po.VALUES, dtype=np.int64)
                po.playout_value(state, plan, table, po.STRONG, action_code(first), seat,
                                 scratch, out)
                assert np.array_equal(state, game.state)  # the caller's state is not written
                expected = _reference(game.clone(), first, seat)
                assert (int(out[po.V_POINTS]), int(out[po.V_PREMIUM]),
                        bool(out[po.V_MADE])) == expected, (name, seed, first)
                checked += 1
    assert checked > 25


def test_evaluate_plays_each_guess_as_its_own_game() -> None:
    """``evaluate`` over guesses equals one playout of each guessed deal built by the reference
    engine (``Determinizer.game``), and leaves the template alone."""
    generator = random.Random(2)
    for game in _decisions("oh-hell", 6, 8):
        observation = game.observation(game.to_move)
        position = Position(observation, po.STRONG)
        template = position.template.copy()
        candidates = list(observation.legal_actions)
        codes = np.array([action_code(action) for action in candidates], dtype=np.int64)
        hands, trumps, _ = position.draw(5, generator.getrandbits(63), generator)
        values = position.evaluate(hands, trumps, codes, observation.seat)
        assert np.array_equal(position.template, template)
        determinizer = Determinizer(observation)
        for guess in range(len(hands)):
            for index, action in enumerate(candidates):
                searched = determinizer.game([int(hand) for hand in hands[guess]])
                expected = _reference(searched, action, observation.seat)
                got = values[guess, index]
                assert (int(got[po.V_POINTS]), int(got[po.V_PREMIUM]),
                        bool(got[po.V_MADE])) == expected


def test_compiled_guesses_are_honest() -> None:
    """Every guess keeps the seat's known cards, gives each hidden hand its size from the unseen
    cards only, never a card of a shown void; without voids every unseen card is as likely in
    each hand (its share of the hidden places)."""
    pool = np.array([card for card in range(52) if card % 3], dtype=np.int64)  # 34 unseen cards
    known = np.array([1 << 0 | 1 << 3, 0, 0, 0], dtype=np.int64)
    missing = np.array([0, 5, 5, 5], dtype=np.int64)
    rest = len(pool) - 15
    void = sum(1 << int(card) for card in pool if card < 13)  # seat 1 is void in spades
    for forbidden in (np.zeros(4, dtype=np.int64), np.array([0, void, 0, 0], dtype=np.int64)):
        hands = np.zeros((4000, 4), dtype=np.int64)
        po.sample_hands(known, missing, forbidden, pool, rest, 12345, len(hands), hands)
        counts = np.zeros((4, 54))
        pool_mask = sum(1 << int(card) for card in pool)
        for row in hands:
            row = [int(hand) for hand in row]
            assert row[0] == int(known[0])
            for seat in (1, 2, 3):
                assert popcount(row[seat]) == 5 and row[seat] & ~pool_mask == 0
                assert row[seat] & int(forbidden[seat]) == 0
                for card in range(54):
                    counts[seat, card] += row[seat] >> card & 1
            assert row[1] & row[2] == row[1] & row[3] == row[2] & row[3] == 0
        share = counts[2, pool] / len(hands)
        if not forbidden.any():  # 5 of 34 places: 0.147, 4000 draws: sd 0.0056
            assert np.all(np.abs(share - 5 / 34) < 0.03)
        else:  # seat 1 never holds a spade, so seats 2 and 3 hold them more often
            spades = pool[pool < 13]
            assert counts[1, spades].sum() == 0
            assert counts[2, spades].mean() / len(hands) > 5 / 34 + 0.01


@pytest.mark.parametrize("name", preset_names())
def test_mc_plays_every_preset_legally(name: str) -> None:
    variant = load_variant(name)
    players = variant.player_counts()[len(variant.player_counts()) // 2]
    strategies = [load_strategy("mc:samples=2" if seat % 2 == 0 else "strong")
                  for seat in range(players)]
    record = play_game(variant, players, 5, strategies)
    assert record.fault is None, str(record.fault)
    assert record.game.is_over()


def test_same_seed_same_game_and_fastheuristic_playouts() -> None:
    variant = load_variant("joker")
    traces = []
    for spec in ("mc:samples=3", "mc:samples=3", "mc:samples=3,policy=fastheuristic"):
        record = play_game(variant, 3, 9, [load_strategy(spec) for _ in range(3)], log=True)
        assert record.fault is None
        traces.append(record.game.trace())
    assert traces[0] == traces[1]
    assert traces[2] != traces[0]


def test_mc_prefers_the_better_bid_when_the_guesses_agree() -> None:
    """A 1-card oh-hell deal where the first bidder holds the ace of trumps, a sure trick: the
    search bids 1 (11 points), not the pass (1 point)."""
    variant = load_variant("oh-hell").for_player_count(4)
    # seat 1 (first to bid, dealer 0) holds the ace of trumps: it takes the only trick
    hands = [1 << 1, 1 << 12, 1 << 13, 1 << 26]
    game = Game.single_deal(variant, hands, 0, dealer=0, trump_card=0 + 5, log=False)
    strategy = MonteCarloStrategy(samples=16)
    strategy.start_game(game.variant, game.to_move, 4, random.Random(1))
    observation = game.observation(game.to_move)
    assert observation.phase == Phase.BID and observation.hand == 1 << 12
    assert strategy.act(observation).tricks == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["classic", "oh-hell"])
def test_a_playout_reports_the_other_seats_deal_points(name: str) -> None:
    """``V_OTHERS`` is the other seats' points and premiums for the deal summed, ``V_RIVALS`` how
    many they are, as the reference engine scores the same playout (every seat plays here)."""
    checked = 0
    for game in _decisions(name, 5, 6):
        plan = game.tables.plan
        table = policy_table(game.tables, game.plan, True)
        seat = game.to_move
        for first in game.legal_actions()[:3]:
            out = np.zeros(po.VALUES, dtype=np.int64)
            po.playout_value(game.state.copy(), plan, table, po.STRONG, action_code(first), seat,
                             np.empty_like(game.state), out)
            reference = game.clone()
            _reference(reference, first, seat)
            result = reference.results[len(game.results)]
            others = [other for other in range(game.players) if other != seat]
            assert int(out[po.V_OTHERS]) == sum(result.points[other] + result.premiums[other]
                                                for other in others)
            assert int(out[po.V_RIVALS]) == len(others)
            checked += 1
    assert checked > 10


def test_the_relative_objective_is_own_less_the_others_mean() -> None:
    """On the same playouts, ``objective = relative`` values a candidate by exactly the seat's own
    value less the mean of the others' deal points; ``own`` by the seat's value alone."""
    generator = random.Random(4)
    own, relative = MonteCarloStrategy(), MonteCarloStrategy(objective="relative")
    for game in _decisions("oh-hell", 8, 6):
        observation = game.observation(game.to_move)
        position = Position(observation, po.STRONG)
        candidates = list(observation.legal_actions)
        codes = np.array([action_code(action) for action in candidates], dtype=np.int64)
        hands, trumps, _ = position.draw(6, generator.getrandbits(63), generator)
        values = position.evaluate(hands, trumps, codes, observation.seat)
        stakes = np.full(len(candidates), 3.0)
        mine = (values[:, :, po.V_POINTS] + values[:, :, po.V_PREMIUM]
                + values[:, :, po.V_MADE] * 3.0)
        assert np.array_equal(own.value(values, stakes), mine)
        assert np.allclose(relative.value(values, stakes),
                           mine - values[:, :, po.V_OTHERS] / 3.0)
        assert (values[:, :, po.V_RIVALS] == 3).all()


def test_the_relative_objective_changes_some_decisions() -> None:
    """With the same seeds, ``relative`` and ``own`` choose differently at some decisions of an
    oh-hell game (spoiling a rival's bid counts for one and not the other), and both are
    repeatable."""
    differ = 0
    decisions = _decisions("oh-hell", 11, 40)
    for index, game in enumerate(decisions):
        observation = game.observation(game.to_move)
        chosen = []
        for objective in ("own", "relative", "relative"):
            strategy = MonteCarloStrategy(samples=48, objective=objective)
            strategy.start_game(game.variant, game.to_move, 4, random.Random(index))
            chosen.append(strategy.act(observation))
        assert chosen[1] == chosen[2]
        differ += chosen[0] != chosen[1]
    assert 0 < differ < len(decisions)


def test_mc_refuses_an_unknown_objective() -> None:
    from raspis.strategies.registry import StrategySpecError

    with pytest.raises(StrategySpecError):
        load_strategy("mc:objective=win")


def _traces_against_strong(specs: tuple[str, ...]) -> list:
    """The trace of one oh-hell game (seed 3) for each spec, the spec in seats 0 and 2 and
    ``strong`` in 1 and 3; each game must end without a fault."""
    variant = load_variant("oh-hell")
    traces = []
    for spec in specs:
        record = play_game(variant, 4, 3, [load_strategy(spec) if seat % 2 == 0
                                           else load_strategy("strong") for seat in range(4)],
                           log=True)
        assert record.fault is None, str(record.fault)
        traces.append(record.game.trace())
    return traces


def test_inference_weights_the_guesses_and_plays_legally() -> None:
    """With ``inference`` the bids made weight the guesses; the games stay legal and
    repeatable."""
    traces = _traces_against_strong(("mc:samples=4,inference=1", "mc:samples=4,inference=1",
                                     "mc:samples=4"))
    assert traces[0] == traces[1]
    assert traces[0] != traces[2]


def test_a_noisy_policy_plays_its_random_cards_legally_and_keeps_its_bids() -> None:
    """``compiled.noisy``: at chance 0 the plain policy; at chance 1 every card decision is the
    ``random`` policy's draw (legal) and every bid the policy's own; in between, some of each,
    the same key and count drawing the same card; ``bid_noise`` 1: every bid ``random``'s and
    every card the policy's."""
    from raspis.strategies.players.twin import action_of
    from raspis.strategies.policies import compiled

    assert compiled.noisy(po.STRONG, 0.0) == po.STRONG
    with pytest.raises(ValueError):
        compiled.noisy(po.STRONG, 1.5)
    half = compiled.noisy(po.STRONG, 0.5)
    cards = bids = random_cards = 0
    for seed in (3, 4, 5):
        game = Game(load_variant("oh-hell"), 4, seed, log=False)
        plan = game.tables.plan
        table = policy_table(game.tables, game.plan, True)
        counts = [0] * 4
        while not game.is_over() and len(game.results) < 6:
            seat, phase = game.to_move, game.phase
            index, key = counts[seat], 1000 * seed + seat
            bidder = compiled.noisy(po.STRONG, 0.0, 1.0)  # random bids, the policy's cards
            chosen = {policy: int(compiled.decide(game.state, plan, table, policy, key, index))
                      for policy in (po.STRONG, compiled.RANDOM, compiled.noisy(po.STRONG, 0.0),
                                     compiled.noisy(po.STRONG, 1.0), half, bidder)}
            assert chosen[compiled.noisy(po.STRONG, 0.0)] == chosen[po.STRONG]
            noisy = chosen[compiled.noisy(po.STRONG, 1.0)]
            if len(game.legal_actions()) > 1:
                assert chosen[bidder] == chosen[compiled.RANDOM if phase == Phase.BID
                                                else po.STRONG]
            if phase == Phase.PLAY and len(game.legal_actions()) > 1:
                assert noisy == chosen[compiled.RANDOM]
                assert chosen[half] in (chosen[po.STRONG], chosen[compiled.RANDOM])
                assert chosen[half] == int(compiled.decide(game.state, plan, table, half, key,
                                                           index))
                cards += 1
                random_cards += chosen[half] != chosen[po.STRONG]
            elif phase == Phase.BID:
                assert noisy == chosen[po.STRONG] == chosen[half]
                bids += 1
            action = action_of(noisy, phase)
            assert action in game.legal_actions()
            game.apply(action)
            counts[seat] += 1
    assert cards > 30 and bids > 30
    assert 0 < random_cards < cards


def test_noisy_playouts_repeat_with_their_key_and_keep_the_deciding_seat_steady() -> None:
    """A noisy playout is a function of its key: the same key gives the same values, other keys
    other games; at chance 0 the key changes nothing; with ``steady`` off the deciding seat's own
    later cards are noisy too, which changes some playouts."""
    from raspis.strategies.policies import compiled

    loud = compiled.noisy(po.STRONG, 1.0)
    changed = unsteady = checked = 0
    for game in _decisions("oh-hell", 7, 80)[-12:]:  # the 6-card deal: cards to choose
        plan = game.tables.plan
        table = policy_table(game.tables, game.plan, True)
        seat = game.to_move
        first = action_code(game.legal_actions()[0])

        def value(policy: int, key: int, steady: bool = True,
                  state: np.ndarray = game.state, plan: np.ndarray = plan,
                  table: np.ndarray = table, seat: int = seat,
                  first: int = first) -> list[int]:
            out = np.zeros(po.VALUES, dtype=np.int64)
            po.playout_value(state.copy(), plan, table, policy, first, seat,
                             np.empty_like(state), out, key, steady)
            return [int(x) for x in out]

        plain = value(po.STRONG, 0)
        assert value(compiled.noisy(po.STRONG, 0.0), 12345) == plain
        assert value(po.STRONG, 999, False) == plain
        for key in (1, 2, 3):
            assert value(loud, key) == value(loud, key)
            assert value(loud, key, False) == value(loud, key, False)
            changed += value(loud, key) != plain
            unsteady += value(loud, key) != value(loud, key, False)
            checked += 1
    assert changed > checked // 4
    assert unsteady > 0


def test_mc_noise_is_repeatable_changes_some_games_and_is_checked() -> None:
    """``mc``'s ``noise`` (and ``bid_noise``): the same seed plays the same game, noise 0 is the
    plain search, a noisy search plays legally and differently somewhere; a chance outside 0-1
    is refused."""
    from raspis.strategies.registry import StrategySpecError

    traces = _traces_against_strong(("mc:samples=6,noise=0.5", "mc:samples=6,noise=0.5",
                                     "mc:samples=6", "mc:samples=6,noise=0",
                                     "mc:samples=6,noise=0.5,noise_self=true",
                                     "mc:samples=6,bid_noise=0.5"))
    assert traces[0] == traces[1]
    assert traces[2] == traces[3]
    assert traces[0] != traces[2]
    assert traces[4] != traces[0]
    assert traces[5] != traces[2]
    for spec in ("mc:noise=-0.1", "mc:bid_noise=2"):
        with pytest.raises(StrategySpecError):
            load_strategy(spec)


#: joker without its premium: the replay of ``PlayEvidence`` is a game of one deal, which has no
#: premium, so a seat that plays for one there may play otherwise than the replay does
JOKER_NO_PREMIUM = {"extends": "joker", "name": "joker-no-premium", "scoring": {"premium": "none"}}


@pytest.mark.parametrize("spec", ["classic", JOKER_NO_PREMIUM, "oh-hell"],
                         ids=["classic", "joker-no-premium", "oh-hell"])
def test_the_true_hands_explain_strong_rivals_play_and_most_guesses_do_not(
        spec: str | dict) -> None:
    """``PlayEvidence`` replays the deal's cards from the start of its play on each guess: where
    every seat is ``strong`` and plays for the deal alone (no premium, which a deal replayed on
    its own does not have), the true hands miss no play (weight 1), and a share of the honest
    guesses miss some (weight below 1); while bidding there is no evidence."""
    variant = variant_from_dict(spec) if isinstance(spec, dict) else load_variant(spec)
    assert variant.scoring.premium == "none"
    checked = guessed = missed = 0
    for seed in (5, 6):
        for game in _decisions(variant, seed, 60):
            observation = game.observation(game.to_move)
            position = Position(observation, po.POLICIES["strong"])
            evidence = PlayEvidence(observation, position, 1.0)
            if observation.phase == Phase.BID:
                assert not evidence.on
            if not evidence.on:
                continue
            true = np.array([game.view.hands], dtype=np.int64)
            trumps = np.full((1, 2), -2, dtype=np.int64)
            assert evidence.weights(true, trumps)[0] == 1.0
            hands, trumps, _ = position.draw(16, seed, random.Random(seed))
            weights = evidence.weights(hands, trumps)
            assert ((weights > 0) & (weights <= 1)).all()
            checked += 1
            guessed += len(weights)
            missed += int((weights < 1).sum())
    assert checked >= 10
    assert missed > guessed // 4


def test_play_inference_is_repeatable_changes_some_games_and_is_checked() -> None:
    """``play_inference`` 0 is the plain search; above 0 the same seed plays the same game and
    some decision differs; below 0 is refused."""
    from raspis.strategies.registry import StrategySpecError

    traces = _traces_against_strong(("mc:samples=6,play_inference=2",
                                     "mc:samples=6,play_inference=2", "mc:samples=6",
                                     "mc:samples=6,play_inference=0"))
    assert traces[0] == traces[1]
    assert traces[2] == traces[3]
    assert traces[0] != traces[2]
    with pytest.raises(StrategySpecError):
        load_strategy("mc:play_inference=-1")


def test_a_play_equivalent_to_the_policys_is_no_miss() -> None:
    """``playout._same_play``: two cards of a suit are the same play when every card between them
    is in the mover's hand or seen played (``search.distinct_plays``), else not; other suits and
    the Jokers' calls differ."""
    variant = load_variant("oh-hell").for_player_count(4)
    # seat 1 holds 6, 7 and 9 of spades (cards 4, 5, 7), the 2 of clubs (13) and the ace of
    # hearts (51); the 8 of spades (6) is in seat 2's hand
    cards = [(0, 1, 2, 3, 8), (4, 5, 7, 13, 51), (6, 9, 10, 11, 12), (14, 15, 16, 17, 18)]
    hands = [sum(1 << card for card in hand) for hand in cards]
    game = Game.single_deal(variant, hands, 2, dealer=0, trump_card=30, log=False)
    state, plan = game.state, game.tables.plan
    assert po._same_play(state, plan, 1, 4, 4)
    assert po._same_play(state, plan, 1, 4, 5) and po._same_play(state, plan, 1, 5, 4)
    assert not po._same_play(state, plan, 1, 5, 7)  # the 8 between them is not seen
    assert not po._same_play(state, plan, 1, 5, 13)
    assert not po._same_play(state, plan, 1, 51, 13)
