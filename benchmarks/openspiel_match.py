"""raspis against OpenSpiel's ISMCTS bot on OpenSpiel's own ``oh_hell`` (not a test).

    .venv/bin/python benchmarks/openspiel_match.py --deals 200 --raspis pimc:time=0.06

The game is OpenSpiel's ``oh_hell`` (4 players, 5 tricks, 52 cards, the card after the deal turned
for trump, follow suit, no obligation to trump, the dealer's hook; 1 point a trick, 10 more for an
exact bid), played in OpenSpiel's engine: the chance events come from OpenSpiel and every move is
applied there. raspis's seats decide from a raspis ``Game`` of the same deal kept in step (preset
``oh-hell`` at 4 players, or ``--variant``, one deal of 5 cards with OpenSpiel's dealer, hands and
trump card); the script checks that OpenSpiel's returns equal raspis's deal points at the end of
every deal.

The bot is OpenSpiel's Python ``ISMCTSBot`` (``--simulations`` 200, random rollouts, ``uct_c`` 4,
the most visited action), with an **honest** determinization: OpenSpiel's own
``ResampleFromInfostate`` for ``oh_hell`` reshuffles only the cards the opponents really hold
(never the undealt stock), so its bot would know which unseen cards are in play. Here the bot's
resampler deals the hidden hands with raspis's ``HandSampler`` from every card its seat has not
seen (the other hands and the stock alike), respecting the voids shown, exactly as raspis's own
search guesses them, and replays the deal's public history on them in OpenSpiel.

Duplicate design: each deal (``--seed``, deal index) is played twice, raspis in seats 0 and 2 and
the bot in 1 and 3, then the other way round; a deal's value is the mean over the two games of
raspis's mean score minus the bot's mean score, in points a deal; the interval is Student t over
deals (95%). CPU time (``time.process_time``) of every decision with more than one legal action is
recorded for both sides, after one warm-up game in each process that is not counted (numba compiles
on a process's first decision). For equal thinking time give raspis's search a ``time`` budget equal
to the bot's mean time a move; with ``--cpu-clock`` (the default) raspis's ``time`` budgets count
CPU time in this script, as the bot's cost is measured, so a loaded machine does not shortchange it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field

import numpy as np

OPENSPIEL_SUITS = (1, 2, 0, 3)  # OpenSpiel's suit order C, D, S, H as raspis suits (s, c, d, h)
RASPIS_SUITS = (2, 0, 1, 3)  # raspis suit -> OpenSpiel suit
PLAYERS = 4
TRICKS = 5


def to_raspis_card(card: int) -> int:
    """OpenSpiel's card ``rank * 4 + suit`` as a raspis card id."""
    return OPENSPIEL_SUITS[card % 4] * 13 + card // 4


def to_openspiel_card(card: int) -> int:
    """A raspis card id as OpenSpiel's card."""
    return (card % 13) * 4 + RASPIS_SUITS[card // 13]


@dataclass(frozen=True)
class Match:
    """What every game of the match shares: raspis's strategy (``spec``) and the variant its
    seats decide in, the base seed of the deals, the bot's simulations and ``uct_c``, and whether
    raspis's time budgets run on CPU time."""

    spec: str
    variant: str
    seed: int
    simulations: int
    uct_c: float
    cpu_clock: bool


@dataclass
class DealResult:
    """Both games of one deal."""

    deal: int
    difference: float
    raspis_points: float
    bot_points: float
    raspis_cpu: list[float] = field(default_factory=list)
    bot_cpu: list[float] = field(default_factory=list)
    raspis_made: int = 0
    bot_made: int = 0
    #: each game's (raspis's seats, dealer, bids by seat, tricks taken by seat)
    games: list[tuple[list[int], int, list[int], list[int]]] = field(default_factory=list)


def hands_of(state) -> list[int]:  # noqa: ANN001 - pyspiel.State
    """Each player's dealt cards (raspis masks), from the deal in the state's history."""
    hands = [0] * PLAYERS
    for index, action in enumerate(state.history()[2:2 + PLAYERS * TRICKS]):
        hands[index % PLAYERS] |= 1 << to_raspis_card(action)
    return hands


def honest_resampler(game, raspis_game, rng: random.Random):  # noqa: ANN001, ANN201
    """A resampler for ``ISMCTSBot.set_resampler``: the hidden hands dealt from every card the
    player has not seen, voids respected (raspis's ``HandSampler`` on the player's observation
    of the raspis game kept in step), with the real public history replayed on them."""
    from raspis.engine.determinize import HandSampler

    def resample(state, player):  # noqa: ANN001, ANN202
        observation = raspis_game[0].observation(player)
        guess = HandSampler(observation).sample(rng)
        history = state.history()
        dealt = hands_of(state)
        played_so_far = [0] * PLAYERS
        for seat in range(PLAYERS):  # the cards each player has played are in its guessed hand
            played_so_far[seat] = dealt[seat] & ~raspis_game[0].view.hands[seat]
        cards = [[card for card in range(52) if (guess[seat] | played_so_far[seat]) >> card & 1]
                 for seat in range(PLAYERS)]
        sampled = game.new_initial_state()
        sampled.apply_action(history[0])
        sampled.apply_action(history[1])
        for index in range(PLAYERS * TRICKS):
            sampled.apply_action(to_openspiel_card(cards[index % PLAYERS].pop()))
        for action in history[2 + PLAYERS * TRICKS:]:
            sampled.apply_action(action)
        return sampled

    return resample


def play_game(match: Match, deal: int, raspis_seats: tuple[int, int]
              ) -> tuple[list[float], list[float], list[float], list[bool], tuple]:
    """One game of a deal, raspis in ``raspis_seats``: (returns by seat, raspis CPU times, bot
    CPU times, bids made, (dealer, bids, tricks taken))."""
    base, spec = match.seed, match.spec
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from raspis.engine import Bid, Play, load_variant
    from raspis.engine.game import Game, Phase
    from raspis.strategies import load_strategy

    if match.cpu_clock:  # every search strategy's time budget on CPU time
        from raspis.strategies.players.search import Deadline

        Deadline.clock = time.process_time
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    chance = np.random.RandomState((base * 1_000_003 + deal) % (2**32))
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions = [action for action, _ in outcomes]
        probabilities = np.array([probability for _, probability in outcomes])
        state.apply_action(int(chance.choice(actions, p=probabilities / probabilities.sum())))
    history = state.history()
    dealer = history[1]
    trump_card = to_raspis_card(history[-1])
    variant = load_variant(match.variant).for_player_count(PLAYERS)
    raspis = Game.single_deal(variant, hands_of(state), trump_card // 13, dealer=dealer,
                              trump_card=trump_card, log=False)
    holder = [raspis]
    seed = (base * 7919 + deal * 2 + (0 in raspis_seats)) % (2**31)
    strategies = {}
    for seat in raspis_seats:
        strategy = load_strategy(spec)
        strategy.start_game(variant, seat, PLAYERS, random.Random(seed * 16 + seat))
        strategies[seat] = strategy
    bot_rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=bot_rng)
    bot = ismcts.ISMCTSBot(game, evaluator, match.uct_c, match.simulations, random_state=bot_rng,
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    bot.set_resampler(honest_resampler(game, holder, random.Random(seed)))
    raspis_cpu: list[float] = []
    bot_cpu: list[float] = []
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        started = time.process_time()
        if player in strategies:
            observation = raspis.observation(player)
            action = strategies[player].act(observation)
            if isinstance(action, Bid):
                move = 52 + action.tricks
            else:
                move = to_openspiel_card(action.card)  # type: ignore[union-attr]
            if len(legal) > 1:
                raspis_cpu.append(time.process_time() - started)
        else:
            move = int(bot.step(state))
            if len(legal) > 1:
                bot_cpu.append(time.process_time() - started)
            if raspis.phase == Phase.BID:
                action = Bid(move - 52)
            else:
                action = Play(to_raspis_card(move))
        assert move in legal, (move, legal)
        state.apply_action(move)
        raspis.apply(action)
    returns = state.returns()
    points = raspis.results[0].points
    assert [round(value) for value in returns] == list(points), (returns, points)
    result = raspis.results[0]
    made = [result.bids[seat] == result.taken[seat] for seat in range(PLAYERS)]
    return (list(returns), raspis_cpu, bot_cpu, made,
            (dealer, [int(bid) for bid in result.bids], [int(taken) for taken in result.taken]))


def play_deal(task: tuple[Match, int]) -> DealResult:
    """Both seatings of one deal (``task``: the match and the deal's index)."""
    match, deal = task
    differences, raspis_points, bot_points = [], [], []
    raspis_cpu: list[float] = []
    bot_cpu: list[float] = []
    raspis_made = bot_made = 0
    games = []
    for raspis_seats in ((0, 2), (1, 3)):
        returns, ours, theirs, made, (dealer, bids, taken) = play_game(match, deal, raspis_seats)
        games.append((list(raspis_seats), dealer, bids, taken))
        raspis_made += sum(made[seat] for seat in raspis_seats)
        bot_made += sum(made[seat] for seat in range(PLAYERS) if seat not in raspis_seats)
        mine = statistics.fmean(returns[seat] for seat in raspis_seats)
        other = statistics.fmean(returns[seat] for seat in range(PLAYERS)
                                 if seat not in raspis_seats)
        differences.append(mine - other)
        raspis_points.append(mine)
        bot_points.append(other)
        raspis_cpu += ours
        bot_cpu += theirs
    return DealResult(deal, statistics.fmean(differences), statistics.fmean(raspis_points),
                      statistics.fmean(bot_points), raspis_cpu, bot_cpu, raspis_made, bot_made,
                      games)


def warm_up(match: Match) -> None:
    """Play one game outside the match (deal ``WARM_UP_DEAL``) so that compiling (numba, on the
    first decision of a process) is not counted in any move's CPU time."""
    play_game(match, WARM_UP_DEAL, (0, 2))


#: the deal index of the warm-up game, outside any match's deals
WARM_UP_DEAL = 10**9


def t_quantile(probability: float, degrees: int) -> float:
    """Student t quantile."""
    from scipy.stats import t

    return float(t.ppf(probability, degrees))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raspis", default="pimc:time=0.06,samples=100000,bid_samples=100000",
                        help="spec of raspis's strategy (seats 0, 2, then 1, 3)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="index of the first deal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=200, help="the bot's simulations")
    parser.add_argument("--uct-c", type=float, default=4.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--wall-clock", action="store_true",
                        help="raspis's time budgets on the wall clock, not CPU time")
    parser.add_argument("--json", help="also write every deal's result to this file")
    parser.add_argument("--variant", default="oh-hell",
                        help="the raspis variant its seats decide in (preset or .toml file; its "
                        "rules must be OpenSpiel's: the script checks every deal's points), e.g. "
                        "oh-hell with five-card deals, for strong's table fitted to them")
    arguments = parser.parse_args(argv)
    match = Match(arguments.raspis, arguments.variant, arguments.seed, arguments.simulations,
                  arguments.uct_c, not arguments.wall_clock)
    tasks = [(match, deal) for deal in range(arguments.first, arguments.first + arguments.deals)]
    results: list[DealResult] = []
    if arguments.workers > 1:
        started = time.perf_counter()  # the workers warm up in the pool, inside the wall time
        from multiprocess import Pool

        with Pool(arguments.workers, warm_up, (match,)) as pool:
            for result in pool.imap_unordered(play_deal, tasks):
                results.append(result)
                _progress(results, arguments.deals, started)
    else:
        warm_up(match)
        started = time.perf_counter()
        for task in tasks:
            results.append(play_deal(task))
            _progress(results, arguments.deals, started)
    print(file=sys.stderr)
    results.sort(key=lambda result: result.deal)
    values = [result.difference for result in results]
    mean = statistics.fmean(values)
    half = t_quantile(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    raspis_cpu = [value for result in results for value in result.raspis_cpu]
    bot_cpu = [value for result in results for value in result.bot_cpu]
    elapsed = time.perf_counter() - started
    print(f"oh_hell 4 players x 5 tricks: raspis {arguments.raspis} against ISMCTSBot "
          f"({arguments.simulations} simulations, random rollouts, uct_c {arguments.uct_c}, "
          f"honest resampler); {len(values)} deals x 2 seatings, {elapsed:.0f} s on "
          f"{arguments.workers} workers")
    print(f"  raspis - bot per deal: {mean:+.2f}  95% CI [{mean - half:+.2f}, {mean + half:+.2f}]"
          f"   mean points raspis {statistics.fmean(r.raspis_points for r in results):.2f}, "
          f"bot {statistics.fmean(r.bot_points for r in results):.2f}")
    print(f"  CPU per move (more than one legal action): raspis mean "
          f"{statistics.fmean(raspis_cpu) * 1e3:.1f} ms (median "
          f"{statistics.median(raspis_cpu) * 1e3:.1f}), bot mean "
          f"{statistics.fmean(bot_cpu) * 1e3:.1f} ms (median "
          f"{statistics.median(bot_cpu) * 1e3:.1f})")
    seats = 4 * len(results)
    print(f"  exact bids made: raspis {sum(r.raspis_made for r in results) / seats:.1%}, bot "
          f"{sum(r.bot_made for r in results) / seats:.1%}")
    if arguments.json:
        with open(arguments.json, "w") as handle:
            json.dump({"arguments": vars(arguments), "mean": mean, "ci": [mean - half,
                       mean + half], "seconds": elapsed,
                       "deals": [asdict(result) for result in results]}, handle)
    return 0


def _progress(results: list[DealResult], total: int, started: float) -> None:
    values = [result.difference for result in results]
    print(f"\r  {len(results)}/{total} deals, {time.perf_counter() - started:.0f} s, raspis - bot "
          f"so far {statistics.fmean(values):+.2f}", end="", file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
