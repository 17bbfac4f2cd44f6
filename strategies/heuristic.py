"""The heuristic strategy: fast rules of thumb, and the playout policy of the search strategies.

Bidding counts the tricks the hand should take (``tactics.estimate_tricks``: Jokers, top trumps and
aces nearly whole, lower cards by the chance that the unseen higher ones fall, side suits discounted
for ruffs, spare trumps for ruffing; one-card deals by the exact chance of the single card) and bids
the legal bid nearest that count, so the dealer caught by the hook takes the nearest bid allowed. In
a dark deal it bids the share of the tricks a seat takes on average; in a lobovaya deal, the tricks
the visible hands leave over. Naming trump, it names the longest suit among its first cards.

Card play (``tactics.choose_play``) aims at the number of tricks that scores best under the deal's
own table (the bid while short of it, none once it is made, all of them in a golden deal, none in a
misère) and follows the rules of thumb described in ``strategies.tactics``.

``policy_action(game)`` is the same strategy reading a ``Game`` directly, without building an
observation: the search strategies use it for every seat in their playouts.
"""

from __future__ import annotations

from raspis.engine import Action, Bid, NameTrump, Observation, Play
from raspis.engine.cards import JOKER_MASK
from raspis.engine.core.plan import bidding_view
from raspis.engine.determinize import play_options, shown_card_is_dealt
from raspis.engine.game import Game, Phase

from .base import Parameter, Strategy
from .tactics import (
    PLAYS,
    Rules,
    best_bid,
    card_chances,
    choose_play,
    estimate_tricks,
    name_trump_suit,
    nearest_bid,
    rules_for,
    trick_distribution,
)


def _first_leader(variant_first_lead: str, dealer: int, order: tuple[int, ...] | list[int]) -> int:
    return dealer if variant_first_lead == "dealer" and dealer in order else order[0]


def bid_distribution(
    rules: Rules,
    seat: int,
    hand: int | None,
    other_hands: list[int | None] | tuple[int | None, ...],
    trump: int,
    hand_size: int,
    order: tuple[int, ...] | list[int],
    dealer: int,
    out: int,
    calibrate: bool = True,
) -> list[float]:
    """The chance of taking 0..hand_size tricks for ``seat`` bidding: from its ``hand``; without
    it (``None``), from the tricks the visible other hands leave over (lobovaya), else from the
    average share of the tricks (dark). ``out`` holds cards known to be in no hand."""
    players = len(order)
    scale = rules.scale(players, hand_size, trump >= 0 or rules.circular) if calibrate else 1.0
    first = _first_leader(rules.variant.play.first_lead, dealer, order)
    if hand is not None:
        chances = card_chances(rules, hand, trump, hand_size, players, first == seat,
                               rules.deck & ~hand & ~out)
        return trick_distribution([min(1.0, chance * scale) for chance in chances], hand_size)
    expected = hand_size / players
    visible = [(other, cards) for other, cards in enumerate(other_hands)
               if cards is not None and other != seat and other in order]
    if visible:
        others = 0.0
        for other, cards in visible:
            others += scale * estimate_tricks(rules, cards, trump, hand_size, players,
                                              first == other, rules.deck & ~cards & ~out)
        expected = 0.5 * max(0.0, hand_size - others) + 0.5 * expected
    return trick_distribution([min(1.0, expected / hand_size)] * hand_size, hand_size)


def choose_bid(
    rules: Rules,
    kind: str,
    hand_size: int,
    legal: list[int] | tuple[int, ...],
    distribution: list[float],
    by_table: bool = True,
) -> int:
    """The bid with the best expected points under the deal's table (``by_table``), or the legal
    bid nearest the expected trick count."""
    if by_table:
        return best_bid(distribution, legal, rules.points(kind, hand_size))[0]
    expected = sum(count * chance for count, chance in enumerate(distribution))
    return nearest_bid(expected, legal)


def _turned_out(trump_card: int | None, dealt: bool) -> int:
    """The trump card when it lies face up outside every hand (not the dealer's last card)."""
    if trump_card is None or dealt:
        return 0
    return 1 << trump_card


def observation_out(observation: Observation) -> int:
    """Cards an observing seat knows to be in no hand: the card turned up from the stock."""
    return _turned_out(observation.trump_card, shown_card_is_dealt(
        observation.variant, observation.hand_size, len(observation.order)))


def game_out(game: Game) -> int:
    """The same as ``observation_out`` for a game's current deal."""
    return _turned_out(game.trump_card, shown_card_is_dealt(
        game.variant, game.deal.hand_size, len(game.order)))


class HeuristicStrategy(Strategy):
    """Fast rules of thumb (tens of microseconds a decision); no parameters.

    Bids the expected trick count of the hand (nearest legal bid, so hook-aware); plays to take
    exactly the tricks that score best under the variant's table; handles Jokers and all their
    calls, dark, golden, misère, no-trump, lobovaya, circular-trump and named-trump deals.
    """

    name = "heuristic"
    description = "fast rules of thumb: counts sure tricks to bid, takes or ducks to make the bid"
    parameters = {
        "by_table": Parameter(bool, True, "bid the best expectation under the deal's score table "
                              "(else the legal bid nearest the expected tricks)"),
        "calibrate": Parameter(bool, True, "scale the trick estimate so that a deal's estimates "
                               "add up to its tricks on average"),
    }

    def act(self, observation: Observation) -> Action:
        """The heuristic's action for ``observation``."""
        actions = observation.legal_actions
        if len(actions) == 1:
            return actions[0]
        rules = rules_for(observation.variant)
        phase = observation.phase
        if phase == Phase.PLAY:
            return play_from_observation(rules, observation)
        if phase == Phase.BID:
            return Bid(bid_from_observation(rules, observation, self.by_table, self.calibrate))
        return NameTrump(name_trump_suit(observation.hand))


def bid_from_observation(
    rules: Rules, observation: Observation, by_table: bool = True, calibrate: bool = True
) -> int:
    """The heuristic bid for an observation in the ``BID`` phase."""
    hand = None if observation.hand_hidden else observation.hand
    distribution = bid_distribution(
        rules, observation.seat, hand, observation.other_hands, observation.trump,
        observation.hand_size, observation.order, observation.dealer,
        observation_out(observation), calibrate,
    )
    legal = [action.tricks for action in observation.legal_actions]  # type: ignore[union-attr]
    return choose_bid(rules, observation.kind, observation.hand_size, legal, distribution, by_table)


def play_from_observation(rules: Rules, observation: Observation) -> Play:
    """The heuristic card for an observation in the ``PLAY`` phase."""
    legal = 0
    jokers = []
    for action in observation.legal_actions:
        card = action.card  # type: ignore[union-attr]
        if card >= 52:
            jokers.append((card, action.call, action.suit))  # type: ignore[union-attr]
        else:
            legal |= 1 << card
    seat = observation.seat
    hand = observation.hand
    remaining = hand.bit_count()
    need = rules.need(observation.kind, observation.bids[seat], observation.taken[seat], remaining,
                      observation.hand_size)
    unseen = (rules.deck & ~hand & ~observation.played
              & ~observation_out(observation))
    for other, cards in enumerate(observation.other_hands):
        if cards is not None and other != seat:
            unseen &= ~cards
    done = sum(observation.taken)
    in_trick = len(observation.trick)
    others = (len(observation.order) - 1) * (observation.hand_size - done) - in_trick
    keen, cliff = _keenness(rules, observation.kind, observation.bids, observation.taken,
                            observation.order, seat)
    return choose_play(rules, hand, legal, tuple(jokers), observation.trick, observation.led_suit,
                       observation.trick_trump, observation.trump, len(observation.order), need,
                       unseen, others, keen, cliff)


def _keenness(rules: Rules, kind: str, bids, taken, order, seat: int) -> tuple[float, bool]:  # noqa: ANN001
    """(share of the other players still wanting tricks, whether the deal has bids to make)."""
    options = rules.kinds[kind]
    if options.scoring == "per_trick":
        return (1.0 if options.per_trick > 0 else 0.0), False
    wanting = 0
    for other in order:
        if other != seat:
            bid = bids[other]
            if bid is not None and bid > taken[other]:
                wanting += 1
    return wanting / max(1, len(order) - 1), True


def policy_action(game: Game, rules: Rules) -> Action:
    """The heuristic's action for the seat to move in ``game``, read from the game directly (the
    seat uses only what it could see: its hand, the played cards, the bids)."""
    phase = game.phase
    seat = game.to_move
    if phase == Phase.PLAY:
        hand = game.hands[seat]
        legal, jokers = play_options(game)
        if not jokers and legal & (legal - 1) == 0:
            return PLAYS[legal.bit_length() - 1]
        deal = game.deal
        remaining = hand.bit_count()
        need = rules.need(deal.kind, game.bids[seat], game.taken[seat], remaining, deal.hand_size)
        unseen = rules.deck & ~hand & ~game.played & ~game_out(game)
        others = 0
        for other in game.order:
            others += game.hands[other].bit_count()
        keen, cliff = _keenness(rules, deal.kind, game.bids, game.taken, game.order, seat)
        return choose_play(rules, hand, legal, jokers, game.trick, game.led_suit, game.trick_trump,
                           game.trump, len(game.order), need, unseen, others - remaining, keen,
                           cliff)
    if phase == Phase.BID:
        return Bid(policy_bid(game, rules, seat))
    if phase == Phase.TRUMP:
        first = game.first_cards[seat] if game.first_cards else game.hands[seat]
        return NameTrump(name_trump_suit(first & ~JOKER_MASK or game.hands[seat]))
    raise ValueError(f"no action in phase {phase.name}")


def policy_bid(game: Game, rules: Rules, seat: int) -> int:
    """The heuristic bid of ``seat`` in a game in the ``BID`` phase, seeing what it may see."""
    kind = game.kind
    hand: int | None = game.hands[seat]
    others: list[int | None] = [None] * game.players
    hidden, _, shown = bidding_view(kind)
    if hidden:
        hand = None
    if shown:
        others = [cards if other != seat else None for other, cards in enumerate(game.hands)]
    distribution = bid_distribution(rules, seat, hand, others, game.trump, game.deal.hand_size,
                                    game.order, game.dealer,
                                    game_out(game))
    deal = game.deal
    return choose_bid(rules, deal.kind, deal.hand_size, game.legal_bids(), distribution)
