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
  ``engine.core.codes.OPTIONS`` (the same for both Jokers);
- ``legal_trumps``: bits 0..3 for the suits and bit 4 for "no trump", when naming trump.

Every field is read from the games' states in the rules core's state machine
(``engine.core.machine``; the batch engine keeps one state a game, ``engine.batch.game``): the
legal masks the machine leaves there (``legal_first``, ``legal_second``), what a seat may see
(``machine.visible_hand``'s rules, ``machine.seen_cards``), the trick so far (``rules.card_key``).

The observation holds exactly what the scalar ``engine.observation.observe`` shows a seat: the hand
(hidden while bidding a dark or forehead deal; the first cards only while naming trump), the other
hands only while bidding a forehead deal, and the cards played as the variant's memory rule allows
(``played``: all of this deal's finished tricks, one's own and the last, the last, or none, plus
the current trick).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from raspis.engine.cards import JOKER
from raspis.engine.core import machine as m
from raspis.engine.core.codes import HOOK_NAMES
from raspis.engine.core.deal import HOW_NAMED
from raspis.engine.core.view import StateView, block_start, leading_cards
from raspis.engine.game import Game
from raspis.engine.observation import Observation
from raspis.engine.options import KindOptions
from raspis.engine.variant import Variant

from . import kernels as k
from .bits import SUIT_MASK_OR_NONE
from .kernels import seen_many, trick_lead_many

if TYPE_CHECKING:
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

    def __init__(self, game: BatchGame, games: np.ndarray, phase: str) -> None:
        """The decision of the movers of ``games`` (rows of ``game.states``, all at the same deal
        row, phase, trick and place in it) in ``phase``."""
        self._game = game
        self._games = games
        self._shared: dict[str, Any] = {}
        self._local: dict[str, Any] = {}
        self.rows: np.ndarray | None = None
        self.phase = phase
        fields = StateView(game.states[games[0]], game.tables)
        deal = fields.deal
        self.variant: Variant = game.variant
        self.players: int = game.players
        self.participants: int = fields.order_length
        self.deal_number: int = deal.number
        self.hand_size: int = deal.hand_size
        self.kind: str = game.plan.kind_names[deal.kind]
        self.kind_options: KindOptions = game.variant.kinds[self.kind]
        self.tricks: int = deal.tricks
        playing = phase == "play"
        bidding = phase == "bid"
        self.trick_index = fields.tricks_done if playing else 0
        self.trick_position = fields.trick_length if playing else 0
        self.hook_rule = HOOK_NAMES[deal.hook] if bidding else "none"
        self.hand_hidden = bidding and bool(deal.hand_hidden)
        #: bidding a dark deal: the trump is not known yet (trump -1, trump_card -1)
        self.trump_hidden = bidding and bool(deal.trump_hidden)
        self.sees_others = bidding and bool(deal.others_shown)
        self.legal_trumps = (0b1111 | (0b10000 if fields.legal_first else 0)
                             if phase == "trump" else 0)
        self.count = len(games)

    def __len__(self) -> int:
        return self.count

    @property
    def joker_led(self) -> bool:
        """Some game's current trick was led by a Joker (its led suit may still be unset)."""
        found = self._shared.get("joker_led")
        if found is None:
            game = self._game
            found = (self.phase == "play" and self.trick_position > 0 and game.plan.has_jokers
                     and bool((leading_cards(game.states[self._games], game.tables) >= JOKER)
                              .any()))
            self._shared["joker_led"] = found
        return found

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
            full = self._value_full(name)
            value = full if self.rows is None else full[self.rows]
            self._local[name] = value
        return value

    def _value_full(self, name: str) -> Any:
        full = self._shared.get(name)
        if full is None:
            full = getattr(self, "_make_" + name)()
            self._shared[name] = full
        return full

    # -- builders over every game of the step, from the state matrix ----------------------------

    def _noted(self, column: int) -> np.ndarray:
        """Column ``column`` (``kernels.V_*``) of the game's decision view
        (``kernels.note_row``)."""
        return self._game.view[column][self._games]

    def _column(self, at: int | np.ndarray) -> np.ndarray:
        """Entry ``at`` of each game's state (``at``: one per game, or one for all)."""
        return self._game.states[self._games, at]

    def _block(self, at: int | np.ndarray, width: int) -> np.ndarray:
        """(games, width): entries ``at`` .. ``at + width - 1`` of each game's state (``at``: one
        for all, or (games, width) already)."""
        columns = at + np.arange(width) if np.ndim(at) == 0 else at
        return self._game.states[self._games[:, None], columns]

    def _start(self, name: str) -> int:
        """Where the state's per-seat block ``name`` starts (``view.block_start``)."""
        return block_start(self._game.tables, name)

    def _by_position(self, name: str) -> np.ndarray:
        """(games, participants): the per-seat block ``name`` by position in the deal's order."""
        return self._block(self._start(name) + self._value_full("order"), 0)

    def _make_games(self) -> np.ndarray:
        return self._games

    def _make_seeds(self) -> np.ndarray:
        return self._game.seeds[self._games]

    def _make_seat(self) -> np.ndarray:
        return self._noted(k.V_SEAT)

    def _make_position(self) -> np.ndarray:
        return self._noted(k.V_POSITION)

    def _make_dealer(self) -> np.ndarray:
        return self._noted(k.V_DEALER)

    def _make_order(self) -> np.ndarray:
        return self._block(self._start("order"), self.participants)

    def _make_hand(self) -> np.ndarray:
        # ``machine.visible_hand``: hidden while bidding a dark or forehead deal; named after the
        # first cards only (002), unless a dealer naming after a turned Joker saw them all
        return self._noted(k.V_HAND).view(np.uint64)

    def _make_other_hands(self) -> np.ndarray:
        if not self.sees_others:
            return np.zeros((self.count, self.participants), dtype=np.uint64)
        others = self._by_position("hands").view(np.uint64)
        others[self._value_full("order") == self._value_full("seat")[:, None]] = 0
        return others

    def _hidden_or(self, column: int) -> np.ndarray:
        if self.trump_hidden:
            return np.full(self.count, -1, dtype=np.int64)
        return self._noted(column)

    def _make_trump(self) -> np.ndarray:
        return self._hidden_or(k.V_TRUMP)

    def _make_trump_card(self) -> np.ndarray:
        return self._hidden_or(k.V_TRUMP_CARD)

    def _make_trump_how(self) -> np.ndarray:
        how = self._hidden_or(k.V_HOW)
        return np.where(how == m.HOW_NAMED_BY, HOW_NAMED, how)

    def _make_trick_trump(self) -> np.ndarray:
        # not known before a dark deal (the reference's field still shows it)
        return self._hidden_or(k.V_TRICK_TRUMP)

    def _make_led_suit(self) -> np.ndarray:
        return self._noted(k.V_LED)

    def _make_bids(self) -> np.ndarray:
        return self._by_position("bids")

    def _make_taken(self) -> np.ndarray:
        return self._by_position("taken")

    def _make_scores(self) -> np.ndarray:
        return self._block(self._start("scores"), self.players)

    def _legal_a(self, phase: str) -> np.ndarray:
        if self.phase != phase:
            return np.zeros(self.count, dtype=np.uint64)
        return self._noted(k.V_LEGAL).view(np.uint64)

    def _make_legal_bids(self) -> np.ndarray:
        return self._legal_a("bid")

    def _make_legal_cards(self) -> np.ndarray:
        return self._legal_a("play")

    def _make_legal_calls(self) -> np.ndarray:
        return self._noted(k.V_CALLS)  # ``machine.joker_calls`` (0 without Jokers in the deck)

    def _trick(self, name: str, empty: int) -> np.ndarray:
        values = self._block(self._start(name), self.participants)
        return np.where(np.arange(self.participants) < self.trick_position, values, empty)

    def _make_trick_cards(self) -> np.ndarray:
        return self._trick("trick_cards", -1)

    def _make_trick_calls(self) -> np.ndarray:
        return self._trick("trick_calls", 0)

    def _make_trick_suits(self) -> np.ndarray:
        return self._trick("trick_suits", -1)

    def _make_trick_positions(self) -> np.ndarray:
        # who plays at each step of the trick: from its leader round the deal's order
        if self.trick_position:
            leader = self._column(self._start("trick_seats"))
            match = self._value_full("order") == leader[:, None]
            first = np.argmax(match, axis=1)
        else:
            first = self._value_full("position")
        return (first[:, None] + np.arange(self.participants)) % self.participants

    def _trick_lead(self) -> None:
        count = self.count
        position = np.zeros(count, dtype=np.int64)
        key = np.zeros(count, dtype=np.int64)
        beats = np.zeros(count, dtype=np.bool_)
        trick_lead_many(self._game.states, self._game.tables.plan, self._games, position, key,
                        beats)
        self._shared.update(winning_position=position, winning_key=key,
                            trumps_beat_jokers=beats)

    def _make_winning_position(self) -> np.ndarray:
        self._trick_lead()
        return self._shared["winning_position"]

    def _make_winning_key(self) -> np.ndarray:
        self._trick_lead()
        return self._shared["winning_key"]

    def _make_trumps_beat_jokers(self) -> np.ndarray:
        self._trick_lead()
        return self._shared["trumps_beat_jokers"]

    def _make_led_suit_mask(self) -> np.ndarray:
        return SUIT_MASK_OR_NONE[self._value_full("led_suit") + 1]

    def _make_trick_trump_mask(self) -> np.ndarray:
        return SUIT_MASK_OR_NONE[self._noted(k.V_TRICK_TRUMP) + 1]

    def _make_own_bid(self) -> np.ndarray:
        return self._noted(k.V_OWN_BID)

    def _make_own_taken(self) -> np.ndarray:
        return self._noted(k.V_OWN_TAKEN)

    def _make_played(self) -> np.ndarray:
        seen = np.zeros(self.count, dtype=np.int64)
        seen_many(self._game.states, self._game.tables.plan, self._games, seen)
        return seen.view(np.uint64)

    def _make_decision_index(self) -> np.ndarray:
        game = self._game
        return game.counts.ravel()[self._games * game.players + self._value_full("seat")]

    # -- for the scalar adapter --------------------------------------------------------------

    def scalar_observations(self) -> list[Observation]:
        """The reference ``engine.Observation`` of each row, so scalar strategies can play here
        (``strategies.batch.ScalarAdapter``): exactly the observation ``engine.observation.observe``
        gives in ``engine.Game``, of a ``Game`` standing on a copy of the row's game's state (each
        game of the batch is a state of the same machine). The slow path: one game a decision."""
        batch = self._game
        views = []
        for row in self._value_full("games") if self.rows is None else self._games[self.rows]:
            game = Game.standing_at(batch.variant, batch.players, int(batch.seeds[row]),
                                    batch.tables, batch.states[row])
            views.append(game.observation(game.current_player()))
        return views

    def report_faults(self, rows: np.ndarray, messages: list[str]) -> None:
        """Mark the games of ``rows`` (indices into this observation) as errored."""
        full_rows = rows if self.rows is None else self.rows[rows]
        self._game.record_faults(self._games[full_rows], messages)
