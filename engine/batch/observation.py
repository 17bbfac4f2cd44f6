"""What the seats to move may know, for many games at once: the batch strategy's observation.

A ``BatchObservation`` describes one decision step of a batch: the same phase, deal, trick and
position in the trick for every game in it, and one row per game whose seat is to move. Scalars
(``phase``, ``deal_number``, ``hand_size``, ``trick_index``, ``trick_position`` ...) are plain
Python values; everything else is a numpy array with one row per game, computed when first read.

Players are indexed by **position** in the deal's order (0 = left of the dealer, the first to bid;
``order[:, k]`` is the seat at position ``k``); ``position`` is the mover's. Card sets are
``uint64`` masks with the card ids of ``engine.cards``. The legal actions come as masks, like an
action mask:

- ``legal_bids``: bit ``b`` set when bidding ``b`` is legal;
- ``legal_cards``: the cards that may be played (a Joker's bit when it may be played);
- ``legal_calls``: the (call, suit) options a Joker may be played with, a mask over
  ``engine.batch.rules.OPTIONS`` (the same for both Jokers);
- ``legal_trumps``: bits 0..3 for the suits and bit 4 for "no trump", when naming trump.

The observation holds exactly what the scalar ``engine.observation.observe`` shows a seat: the hand
(hidden while bidding a dark or forehead deal; the first cards only while naming trump), the other
hands only while bidding a forehead deal, and the cards played as the variant's memory rule allows
(``played``: all of this deal's finished tricks, one's own and the last, the last, or none, plus
the current trick).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from raspis.engine.core.plan import bidding_view
from raspis.engine.core.rules import MEMORY_CODES, trick_visible
from raspis.engine.options import KindOptions
from raspis.engine.variant import Variant

from .rules import HOOK_NAMES

if TYPE_CHECKING:
    from .deal import DealState
    from .game import BatchGame

PHASES = ("trump", "bid", "play")


class _Lazy:
    """An array field computed on first access by the observation's ``_make_<name>``."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, observation: BatchObservation | None, owner: type) -> Any:
        if observation is None:
            return self
        return observation._value(self.name)


class BatchObservation:
    """One decision step of a batch of games (see the module docstring)."""

    games = _Lazy("index of each game in the batch (0..N-1), for per-game strategy state")
    seeds = _Lazy("the game seeds (uint64)")
    seat = _Lazy("the seat to move")
    position = _Lazy("the mover's position in the deal's order (0 = left of the dealer)")
    dealer = _Lazy("the dealer's seat")
    order = _Lazy("(rows, participants) the seat at each position")
    hand = _Lazy("the mover's hand (mask); 0 while hidden; only the first cards while naming "
                 "trump before seeing them all")
    other_hands = _Lazy("(rows, participants) the other hands by position while bidding a "
                        "forehead deal (own position 0), else all 0")
    trump = _Lazy("the deal's trump suit 0..3, -1 for none (and for circular trumps, and while "
                  "bidding a dark deal: see trump_hidden)")
    trump_card = _Lazy("the card that showed trump, -1 for none")
    trump_how = _Lazy("how the trump was chosen, an index into deal.HOW_TEXT (none, fixed, "
                      "circular, last dealt, turned, joker: none, named); -1 while it is hidden")
    trick_trump = _Lazy("the trump of the current trick (differs from trump under circular trumps)")
    led_suit = _Lazy("the led suit of the current trick, -1 while none is set")
    bids = _Lazy("(rows, participants) bids by position, -1 not yet made or no bidding")
    taken = _Lazy("(rows, participants) tricks taken so far by position")
    scores = _Lazy("(rows, players) game totals before this deal, by seat")
    legal_bids = _Lazy("legal bids as a mask (bit b: bid b)")
    legal_cards = _Lazy("legal cards as a mask")
    legal_calls = _Lazy("legal Joker calls as a mask over rules.OPTIONS")
    trick_cards = _Lazy("(rows, participants) cards of the current trick in order of play, "
                        "-1 after")
    trick_calls = _Lazy("(rows, participants) their Joker calls (rules.CALL_*; 0 for ordinary)")
    trick_suits = _Lazy("(rows, participants) the suits named with them, -1 for none")
    trick_positions = _Lazy("(rows, participants) who played them, by position")
    winning_position = _Lazy("position of the player winning the trick so far")
    winning_key = _Lazy("the winning card's ``engine.core.rules.card_key``: -1 a low Joker nobody "
                        "has beaten, 100 + card for the led suit, 200 + card (2000 + card, see "
                        "trumps_beat_jokers) for a trump, 1000 +- index for a high Joker")
    trumps_beat_jokers = _Lazy("a trump takes this trick from the leading Joker (a 'highest' "
                               "demand under joker.demand_trumped = trump_wins)")
    led_suit_mask = _Lazy("the cards of the led suit (mask; 0 while no suit is led)")
    trick_trump_mask = _Lazy("the cards of the trick's trump suit (mask; 0 for no trump)")
    own_bid = _Lazy("the mover's bid, -1 for none yet")
    own_taken = _Lazy("the tricks the mover took so far in this deal")
    played = _Lazy("cards seen played this deal under the memory rule, with the current trick")
    decision_index = _Lazy("decisions this seat made earlier in the game")

    def __init__(self, game: BatchGame, state: DealState, phase: str, position: np.ndarray,
                 values: dict[str, Any], *, trick_index: int = 0, trick_position: int = 0,
                 hook: int = 0, legal_trumps: int = 0) -> None:
        self._game = game
        self._state = state
        self._shared: dict[str, Any] = dict(values)
        self._shared["position"] = position
        self._local: dict[str, Any] = {}
        self.rows: np.ndarray | None = None
        self.phase = phase
        plan = state.plan
        self.variant: Variant = game.rules.variant
        self.players: int = game.players
        self.participants: int = state.participants
        self.deal_number: int = plan.number
        self.hand_size: int = plan.hand_size
        self.kind: str = plan.kind_name
        self.kind_options: KindOptions = plan.kind
        self.tricks: int = plan.tricks
        self.trick_index = trick_index
        self.trick_position = trick_position
        self.hook_rule = HOOK_NAMES[hook] if phase == "bid" else "none"
        hidden, trump_hidden, shown = bidding_view(plan.kind) if phase == "bid" else (
            False, False, False)
        self.hand_hidden = hidden
        #: bidding a dark deal: the trump is not known yet (trump -1, trump_card -1)
        self.trump_hidden = trump_hidden
        self.sees_others = shown
        self.legal_trumps = legal_trumps
        #: some game's current trick was led by a Joker (its led suit may still be unset)
        self.joker_led = phase == "play" and state.joker_leads is not None
        self.count = len(position)

    def __len__(self) -> int:
        return self.count

    def take(self, rows: np.ndarray) -> BatchObservation:
        """The observation of a subset of its rows (indices into this observation)."""
        other = object.__new__(BatchObservation)
        other.__dict__.update(self.__dict__)
        other._local = {}
        other.rows = rows if self.rows is None else self.rows[rows]
        other.count = len(rows)
        return other

    def _value(self, name: str) -> Any:
        value = self._local.get(name)
        if value is None:
            full = self._shared.get(name)
            if full is None:
                full = getattr(self, "_make_" + name)()
                self._shared[name] = full
            value = full if self.rows is None else full[self.rows]
            self._local[name] = value
        return value

    # -- builders over every game of the step (indices are the deal state's rows) ---------------

    def _at_position(self, array: np.ndarray) -> np.ndarray:
        flat = self._shared.get("flat")
        if flat is None:
            flat = self._shared["flat"] = self._state.base + self._shared["position"]
        return array.ravel()[flat]

    def _make_games(self) -> np.ndarray:
        return self._state.games

    def _make_seeds(self) -> np.ndarray:
        return self._game.seeds[self._state.games]

    def _make_seat(self) -> np.ndarray:
        return self._at_position(self._state.order)

    def _make_dealer(self) -> np.ndarray:
        return self._state.dealer

    def _make_order(self) -> np.ndarray:
        return self._state.order

    def _make_hand(self) -> np.ndarray:
        state = self._state
        if self.phase == "trump":
            # Named after the first cards (002); a dealer naming after a turned Joker saw them all.
            assert state.first_cards is not None
            position = self._shared["position"]
            flat = state.base + np.maximum(position, 0)
            cards = np.where(state.trump_card >= 0, state.hands.ravel()[flat],
                             state.first_cards.ravel()[flat])
            return np.where(position >= 0, cards, np.uint64(0))
        if self.hand_hidden:
            return np.zeros(state.count, dtype=np.uint64)
        return self._at_position(state.hands)

    def _make_other_hands(self) -> np.ndarray:
        state = self._state
        if not self.sees_others:
            return np.zeros_like(state.hands)
        others = state.hands.copy()
        others.ravel()[state.base + self._shared["position"]] = 0
        return others

    def _make_trump(self) -> np.ndarray:
        if self.trump_hidden:
            return np.full(self._state.count, -1, dtype=np.int64)
        return self._state.trump

    def _make_trump_card(self) -> np.ndarray:
        if self.trump_hidden:
            return np.full(self._state.count, -1, dtype=np.int64)
        return self._state.trump_card

    def _make_trump_how(self) -> np.ndarray:
        if self.trump_hidden:
            return np.full(self._state.count, -1, dtype=np.int64)
        return self._state.trump_how

    def _make_trick_trump(self) -> np.ndarray:
        if self.trump_hidden:  # not known before a dark deal (the reference's field still shows it)
            return np.full(self._state.count, -1, dtype=np.int64)
        return self._state.trick_trump

    def _make_led_suit(self) -> np.ndarray:
        return self._state.led

    def _make_bids(self) -> np.ndarray:
        return self._state.bids

    def _make_taken(self) -> np.ndarray:
        return self._state.taken

    def _make_scores(self) -> np.ndarray:
        return self._game.scores[self._state.games]

    def _make_legal_bids(self) -> np.ndarray:
        return np.zeros(self._state.count, dtype=np.uint64)

    def _make_legal_cards(self) -> np.ndarray:
        return np.zeros(self._state.count, dtype=np.uint64)

    def _make_legal_calls(self) -> np.ndarray:
        return np.zeros(self._state.count, dtype=np.int64)

    def _make_trick_cards(self) -> np.ndarray:
        return self._state.trick_cards_t.T

    def _make_trick_calls(self) -> np.ndarray:
        return self._state.trick_calls_t.T

    def _make_trick_suits(self) -> np.ndarray:
        return self._state.trick_suits_t.T

    def _make_trick_positions(self) -> np.ndarray:
        return self._state.positions_t.T

    def _make_led_suit_mask(self) -> np.ndarray:
        return self._state.led_mask

    def _make_trick_trump_mask(self) -> np.ndarray:
        return self._state.trump_mask

    def _make_own_bid(self) -> np.ndarray:
        return self._at_position(self._state.bids)

    def _make_own_taken(self) -> np.ndarray:
        return self._at_position(self._state.taken)

    def _make_winning_position(self) -> np.ndarray:
        return self._state.best_position.copy()  # updated in place as the trick goes on

    def _make_winning_key(self) -> np.ndarray:
        return self._state.best_key.copy()

    def _make_trumps_beat_jokers(self) -> np.ndarray:
        return self._state.beats

    def _make_played(self) -> np.ndarray:
        state = self._state
        memory = self._game.rules.memory
        if memory == "full":
            return state.played
        code = MEMORY_CODES[memory]
        played = state.trick_mask.copy()
        if trick_visible(code, True, False):  # the seat's own tricks
            assert state.won is not None
            played |= self._at_position(state.won)
        if trick_visible(code, False, True):  # the last trick, whoever took it
            played |= state.last_trick
        return played

    def _make_decision_index(self) -> np.ndarray:
        game = self._game
        assert game.decisions is not None, "decision_index needs a strategy that declares it"
        seat = self._value_full("seat")
        return game.decisions.ravel()[self._state.games * game.players + seat]

    def _value_full(self, name: str) -> Any:
        full = self._shared.get(name)
        if full is None:
            full = getattr(self, "_make_" + name)()
            self._shared[name] = full
        return full

    # -- for the scalar adapter --------------------------------------------------------------

    def scalar_observations(self) -> list[Any]:
        """The reference ``engine.Observation`` of each row (slow; for scalar strategies)."""
        from .scalar_view import scalar_observations

        rows = np.arange(self._state.count) if self.rows is None else self.rows
        return scalar_observations(self._game, self._state, self, rows)

    def report_faults(self, rows: np.ndarray, messages: list[str]) -> None:
        """Mark the games of ``rows`` (indices into this observation) as errored."""
        full_rows = rows if self.rows is None else self.rows[rows]
        self._game.record_faults(self._state, full_rows, messages)
