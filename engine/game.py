"""The game: a thin Python face over the compiled state machine of the rules core.

Phases (``Phase``): ``DEAL`` (chance: shuffle, deal, turn the trump card), ``TRUMP`` (a player names
trump), ``BID``, ``PLAY`` (with ``KEEP``: the Joker's player keeps or declines the trick it led,
``joker.lead_choice``), ``SCORE`` (chance-free bookkeeping at the end of a deal) and
``GAME_OVER``. The chance phases run by themselves, so a caller only ever sees a player to move in
``TRUMP``, ``BID``, ``PLAY`` or ``KEEP``, or the end.

The whole state lives in one ``int64`` vector of ``engine.core.machine``, and ``apply`` is one call
of its compiled ``step``: the rules (``engine.core.rules``), the deal (``engine.core.deal``) and the
order of events (``engine.core.machine``) are written there once, for this class and the batch
engine alike. ``Game`` turns actions into codes and back, keeps the event log, and reads the
state as records (bids, tricks, results) when asked; every other field of the state is read by
name from ``game.view`` (the game's ``engine.core.view.StateView``: ``game.view.hands``,
``game.view.dealer``, ``game.view.deal.tricks``), not forwarded one by one. A game of one deal
set up by hand (``single_deal``, ``from_observation``) stands on a state ``engine.deals`` builds.

Seats are numbered 0..n-1 clockwise; "left of the dealer" is the next seat. All chance comes from
``engine.rng`` keyed by the game seed: the same seed and the same choices give the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from sys import getrefcount

import numpy as np

from .actions import Action, Bid, Keep, NameTrump, Play, action_text
from .core import machine as m
from .core.codes import CALL_CODES, HOOK_NAMES
from .core.plan import MachineTables, rule_plan
from .core.view import StateView
from .deals import given_deal, observed_deal
from .errors import IllegalActionError
from .events import Event, deal_opened, step_logged
from .legal import legal_records
from .observation import Observation, freeze, observe, visible_other_hands
from .options import KindOptions
from .phase import Phase
from .schedule import DealSpec
from .sheet import render_sheet
from .tricks import NO_SUIT, Trick, TrickCard, current_trick, finished_trick
from .variant import Variant, load_variant

__all__ = ["NO_SUIT", "DealResult", "Game", "Phase", "Trick", "TrickCard", "compile_ahead"]

_PHASES = tuple(Phase)
_TRUMP, _BID, _PLAY, _KEEP = int(Phase.TRUMP), int(Phase.BID), int(Phase.PLAY), int(Phase.KEEP)
_CALLS = CALL_CODES
_step = m.step
_CALL_SHIFT, _SUIT_SHIFT, _RANK_SHIFT = m.CALL_SHIFT, m.SUIT_SHIFT, m.RANK_SHIFT


def kind_name(action: object) -> str:
    """The class name of ``action`` for a message (never a method of ``action``'s)."""
    try:
        return str(type.__dict__["__name__"].__get__(type(action)))
    except Exception:  # noqa: BLE001
        return "an object"


_MASK64 = (1 << 64) - 1


def _int64(seed: int) -> int:
    """A 64-bit seed as the signed integer the compiled state holds (same bits)."""
    seed &= _MASK64
    return seed - (1 << 64) if seed >> 63 else seed


def compile_ahead(variant: Variant, players: int) -> None:
    """Compile (or load) the state machine a ``Game`` of ``variant`` runs on, before the game: on
    a cold cache (``engine.core.cache``) ``step`` compiles in a child process beside this one's
    ``new_game`` (``engine.core.compiling.compile_beside``), which halves the wait for a first
    game on two cores. A warm cache, or the core run by Python (``warmth.interpret_core``):
    nothing to do."""
    from numba import typeof, types

    from .core.cache import is_warm, mark_warm
    from .core.compiling import compile_beside
    from .warmth import is_interpreted

    if is_interpreted() or is_warm("game"):
        return
    tables = rule_plan(variant.for_player_count(players), players).machine()
    state = np.zeros(tables.length, dtype=np.int64)
    wait = compile_beside([(m.step, (typeof(state), typeof(tables.plan), types.int64))])
    try:
        m.new_game(state, tables.plan, 0)
    finally:
        wait()
    mark_warm("game")


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal, one entry per seat (``None`` bid: no bidding, or sat out)."""

    number: int
    hand_size: int
    kind: str
    dealer: int
    trump: int
    trump_card: int | None
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    fines: tuple[int, ...]
    premiums: tuple[int, ...]
    totals: tuple[int, ...]
    hook_forced: bool
    jokers_held: tuple[int, ...]


class Game:
    """One game of a variant between ``players`` seats.

    >>> game = Game(load_variant("classic"), players=4, seed=7)
    >>> while not game.is_over():
    ...     game.apply(game.legal_actions()[0])
    """

    __slots__ = (
        "variant", "players", "seed", "plan", "tables", "state", "logging", "log", "_phase",
        "_to_move", "_legal", "_lead", "_actions", "_results", "_prefix", "_prefix_deal",
        "_how_text", "_observed", "view",
    )

    def __init__(self, variant: Variant | str, players: int, seed: int = 0, *, log: bool = True):
        if isinstance(variant, str):
            variant = load_variant(variant)
        self.variant = variant.for_player_count(players)
        self.plan = rule_plan(self.variant, players)
        self.players = players
        self.seed = seed
        self._setup(self.plan.machine(), log)
        tables = self.tables
        m.new_game(self.state, tables.plan, _int64(seed))
        self._sync()
        if log:
            self._log_deal_start()

    def _setup(self, tables: MachineTables, log: bool, state: np.ndarray | None = None) -> None:
        self.tables = tables
        self.state = np.zeros(tables.length, dtype=np.int64) if state is None else state
        self.view = StateView(self.state, tables)
        self.logging = log
        self.log: list[Event] = []
        self._results: list[DealResult] = []
        self._prefix: tuple[Trick, ...] = ()
        self._prefix_deal = -1
        self._how_text: tuple[int, str] | None = None
        self._actions: tuple[Action, ...] | None = None
        self._observed: Observation | None = None

    def _sync(self) -> None:
        """Read the phase, the seat to move and the legal masks after the state was changed."""
        fields = self.view
        self._phase = fields.phase
        self._to_move = fields.to_move
        self._legal = (fields.legal_first, fields.legal_second)
        self._lead = fields.trick_length == 0
        self._actions = None

    # -- construction helpers: the deals set up by hand are built in ``engine.deals`` -------------

    @classmethod
    def _standing(cls, variant: Variant, players: int, seed: int, tables: MachineTables,
                  state: np.ndarray, log: bool) -> Game:
        """A game standing where the machine ``state`` (of ``variant`` compiled as ``tables``)
        stands, on that state itself."""
        game = cls.__new__(cls)
        game.variant = variant
        game.plan = rule_plan(variant, players)
        game.players = players
        game.seed = seed
        game._setup(tables, log, state)
        game._sync()
        return game

    @classmethod
    def single_deal(
        cls,
        variant: Variant | str,
        hands: Sequence[int],
        trump: int,
        *,
        dealer: int = 0,
        kind: str = "normal",
        trump_card: int | None = None,
        bids: Sequence[int] | None = None,
        shown: Sequence[int] | None = None,
        log: bool = True,
    ) -> Game:
        """A game of one deal from given hands (masks), trump (0..3 or -1) and dealer.

        For tests and analysts setting up exact positions. With ``bids`` the bidding is applied
        too (in bidding order, starting left of the dealer), so the game starts in ``PLAY``. Under
        circular trumps each trick's trump follows its led suit (give ``trump=-1``). In a deal
        whose kind has each seat show cards (``view = "forehead_card"``) they are drawn as at any
        deal (the game's seed is 0), or are ``shown`` (a mask per seat, within its hand). The deal
        is built by ``engine.deals.given_deal``.
        """
        if isinstance(variant, str):
            variant = load_variant(variant)
        fields = given_deal(variant, hands, trump, dealer=dealer, kind=kind, trump_card=trump_card,
                            shown=shown)
        game = cls._standing(variant, len(hands), 0, fields.tables, fields.state, log)
        if log:
            game._log_deal_start()
        if bids is not None:
            for bid in bids:
                game.apply(Bid(bid))
        return game

    @classmethod
    def standing_at(cls, variant: Variant, players: int, seed: int, tables: MachineTables,
                    state: np.ndarray) -> Game:
        """A game standing where the machine ``state`` of a game of ``variant`` (compiled as
        ``tables``) stands, on a copy of it, without a log: the batch engine's scalar view of
        one of its games (``BatchObservation.scalar_observations``)."""
        return cls._standing(variant, players, seed, tables, state.copy(), False)

    @classmethod
    def from_observation(cls, observation: Observation, hands: Sequence[int],
                         trump: tuple[int, int | None, str] | None = None,
                         stock: Sequence[int] = ()) -> Game:
        """A game of the current deal only, standing where ``observation`` stands, with ``hands``
        as every seat's cards: for search (``determinize.resample`` draws the hands).

        The phase, the seat to move, the bids, the tricks taken, the current trick, the deal's
        number (for the hook's ``from_deal`` and ``demands_until_deal``) and the seats' passes in
        a row (the pass limit) are the observation's; ``trump`` (suit, card shown, how) replaces
        a trump the observation hides (dark bidding). The game ends when the deal is scored:
        ``results[0]`` then holds each seat's points for it (fines included, no premiums); a tie
        is shared, never broken by an extra deal. With ``play.draw_after_trick`` ``stock`` is
        the stock left, in drawing order (``engine.determinize`` guesses it: the turned card
        last while it lies there). The deal is built by ``engine.deals.observed_deal``.
        """
        variant, fields, how, tricks = observed_deal(observation, hands, trump, stock)
        game = cls._standing(variant, observation.players, 0, fields.tables, fields.state, False)
        game._how_text = (0, how)
        game._prefix = tricks
        game._prefix_deal = game.view.deal_index
        return game

    def with_hands(self, hands: Sequence[int],
                   trump: tuple[int, int | None, str] | None = None,
                   stock: Sequence[int] | None = None) -> Game:
        """A copy of this game with other hands (and, given, another trump: suit, card, how, and
        another stock: ``from_observation``), for search: the same position dealt differently.
        Written out here, not in ``engine.deals``: a search makes one a determinization, and a
        call more there cost ismcts 2% of its decision time."""
        game = self.clone()
        fields = game.view
        if stock is not None:
            fields.stock = stock
        fields.hands = fields.first_cards = hands
        if trump is not None:
            suit, card, how = trump
            fields.trump = fields.trick_trump = suit
            fields.trump_card = -1 if card is None else card
            game._how_text = (fields.deal_index, how)
        m.set_legal(game.state, fields.plan)
        game._sync()
        return game

    def clone(self, log: bool = False) -> Game:
        """A copy that can be played on independently (the log is dropped unless ``log``)."""
        other = Game.__new__(Game)
        other.variant = self.variant
        other.players = self.players
        other.seed = self.seed
        other.plan = self.plan
        other.tables = self.tables
        other.state = self.state.copy()
        other.view = StateView(other.state, self.tables)
        other.logging = log
        other.log = self.log.copy() if log else []
        other._phase = self._phase
        other._to_move = self._to_move
        other._legal = self._legal
        other._lead = self._lead
        other._actions = self._actions
        other._results = self._results.copy()
        other._prefix = self._prefix
        other._prefix_deal = self._prefix_deal
        other._how_text = self._how_text
        other._observed = None
        return other

    # -- the state, read as records -------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The phase the game is in."""
        return _PHASES[self._phase]

    @property
    def to_move(self) -> int:
        """The seat to move (-1 once the game is over)."""
        return self._to_move

    @property
    def schedule_length(self) -> int:
        """Deals in the schedule (tie-break deals not counted)."""
        return len(self.tables.schedule)

    @property
    def scores(self) -> list[int]:
        """The running totals (the game's result once it is over, with ``places``)."""
        return self.view.scores

    @property
    def deals(self) -> list[DealSpec]:
        """The deals of the game: the schedule, then the tie-break deals begun so far."""
        deals = list(self.tables.schedule)
        for result in self.results[len(deals):]:
            deals.append(DealSpec(result.number, result.hand_size, result.kind, -1))
        if self.view.deal_index >= len(deals) and self._phase != Phase.GAME_OVER:
            deals.append(self.deal)
        return deals

    @property
    def deal(self) -> DealSpec:
        """The current deal of the schedule."""
        row = self.view.row
        schedule = self.tables.schedule
        if row < len(schedule):
            return schedule[row]
        values = self.view.deal
        return DealSpec(values.number, values.hand_size, self.plan.kind_names[values.kind], -1)

    @property
    def kind(self) -> KindOptions:
        """Options of the current deal's kind."""
        return self.variant.kinds[self.plan.kind_names[self.view.deal.kind]]

    _deal = deal
    _kind = kind

    def visible_other_hands(self, seat: int) -> tuple[int | None, ...]:
        """What ``seat`` sees of each other hand now (``Observation.other_hands``; None: nothing):
        every hand while bidding a forehead deal, the shown cards still held in a deal where
        each seat shows one (``machine.visible_other_hand``)."""
        row = self.view.deal
        if not (self.tables.shows_cards and row.shown or row.others_shown):
            return (None,) * self.players
        return visible_other_hands(self.state, self.tables.plan, seat, self.players)

    @property
    def trump_card(self) -> int | None:
        """The card that showed the trump (None: none shown)."""
        card = self.view.trump_card
        return None if card < 0 else card

    @property
    def trump_how(self) -> str:
        """How the trump was chosen, as text."""
        return self.view.how_text(self._how_text)

    @property
    def bids(self) -> list[int | None]:
        """Each seat's bid in this deal (None: not yet, or none)."""
        return [None if bid < 0 else bid for bid in self.view.bids]

    @property
    def jokers_held(self) -> tuple[int, ...]:
        """Who was dealt each Joker of the deck in this deal (-1: nobody)."""
        return tuple(self.view.joker_holder(joker) for joker in self.plan.jokers_in_deck)

    @property
    def trick(self) -> list[TrickCard]:
        """The trick under way."""
        return list(current_trick(self.view))

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks of this deal."""
        return list(self._finished(self.view))

    def _finished(self, fields: StateView) -> tuple[Trick, ...]:
        """The finished tricks of the deal in ``state`` (this game's state, or a copy of it taken
        earlier for an observation). Each trick is read from the state once a deal and kept
        (``_prefix``, with the deal it belongs to): a deal's finished tricks only grow. A game made
        ``from_observation`` starts with the tricks its observation showed (placeholders for those
        the seat may not look back at)."""
        done = fields.tricks_done
        deal = fields.deal_index
        prefix = self._prefix if self._prefix_deal == deal else ()
        if len(prefix) < done:
            prefix += tuple(finished_trick(fields, index)
                            for index in range(len(prefix), done))
            self._prefix, self._prefix_deal = prefix, deal
        return prefix[:done]

    @property
    def results(self) -> list[DealResult]:
        """One record per deal scored so far."""
        cached = self._results
        count = self.view.results
        while len(cached) < count:
            cached.append(self._result(len(cached)))
        return cached

    def _result(self, index: int) -> DealResult:
        row = self.view.result(index)
        deal = self.view.deal_row(row["row"])
        card = row["trump_card"]
        return DealResult(
            number=row["number"], hand_size=deal.hand_size,
            kind=self.plan.kind_names[deal.kind], dealer=row["dealer"],
            trump=row["trump"], trump_card=None if card < 0 else card,
            bids=tuple(None if bid < 0 else bid for bid in row["bids"]),
            taken=row["taken"], points=row["points"], fines=row["fines"],
            premiums=row["premiums"], totals=row["totals"],
            hook_forced=bool(row["hook_forced"]),
            jokers_held=tuple(row["jokers"][joker] for joker in self.plan.jokers_in_deck),
        )

    # -- public queries -------------------------------------------------------------------------

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._phase == 5

    def current_player(self) -> int:
        """The seat to move, or -1 when the game is over."""
        return self._to_move

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move (empty when the game is over)."""
        return list(self.legal_action_tuple())

    def legal_action_tuple(self) -> tuple[Action, ...]:
        """``legal_actions`` as a tuple, shared between equal positions, seats and games (the
        records are immutable tuples: ``engine.actions``)."""
        found = self._actions
        if found is None:
            found = self._actions = legal_records(self._phase, self._legal, self._lead, self.plan)
        return found

    def apply(self, action: Action) -> None:
        """Apply the action of the seat to move; ``IllegalActionError`` if it is not legal."""
        legal = self.legal_action_tuple()
        if action not in legal:
            shown = ", ".join(map(action_text, legal))
            text = action_text(action)
            if self._phase == Phase.GAME_OVER:
                raise IllegalActionError(f"the game is over: no action is legal, got {text}")
            deal = self.view.deal_index + 1
            where = f"seat {self._to_move}, deal {deal}, {self.phase.name.lower()}"
            raise IllegalActionError(f"illegal action {text} ({where}); legal: {shown}")
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (for search strategies): no legality check, but an
        action must be exactly the record class of the phase (a ``Play`` while cards are played
        and so on; ``IllegalActionError`` otherwise), so that its fields are read from the
        immutable tuple it is, by the engine's own class (an engine record whose class was
        swapped by ``object.__setattr__(record, "__class__", ...)`` is refused, not misread)."""
        kind = type(action)
        phase = self._phase
        # ``machine.action_code``, written out: every decision takes this path
        if kind is Play and phase == _PLAY:
            call = action.call  # type: ignore[union-attr]
            if call is None:  # an ordinary card: its code is the card (suit -1, rank 0)
                code = action.card  # type: ignore[union-attr]
            else:
                code = (action.card | _CALLS[call] << _CALL_SHIFT  # type: ignore[union-attr]
                        | (action.suit + 1) << _SUIT_SHIFT  # type: ignore[union-attr]
                        | action.rank << _RANK_SHIFT)  # type: ignore[union-attr]
        elif kind is Bid and phase == _BID:
            code = action.tricks  # type: ignore[union-attr]
        elif kind is Keep and phase == _KEEP:
            code = int(action.keep)  # type: ignore[union-attr]
        elif kind is NameTrump and phase == _TRUMP:
            code = action.suit + 1  # type: ignore[union-attr]
        else:
            raise IllegalActionError(
                f"cannot apply {kind_name(action)} in the {self.phase.name.lower()} phase")
        view = self._observed
        if view is not None:  # an observation still held elsewhere keeps the state it saw
            self._observed = None
            if getrefcount(view) > 2:
                freeze(view)
        if self.logging:
            seat, done = self._to_move, self.view.tricks_done
            phase, to_move, cards, calls, events = _step(self.state, self.tables.plan, code)
            self.log += step_logged(self, seat, action, events, done)
        else:
            phase, to_move, cards, calls, events = _step(self.state, self.tables.plan, code)
        self._phase = phase
        self._to_move = to_move
        self._legal = (cards, calls)
        self._lead = events & m.EV_LEAD != 0
        self._actions = None

    def places(self) -> list[int]:
        """Final places, 1 = best; equal totals share a place (after any tie-break deals)."""
        scores = self.scores
        return [1 + sum(1 for other in scores if other > score) for score in scores]

    def double_losses(self) -> list[bool]:
        """Which seats end with a negative total that counts as a double loss (003, 004)."""
        if self.variant.end.negative_total != "double_loss":
            return [False] * self.players
        return [score < 0 for score in self.scores]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now under the variant's rules (see ``engine.observation``)."""
        return observe(self, seat)

    def score_sheet(self, names: Sequence[str] | None = None, width: int | None = None) -> str:
        """The game so far as the traditional score sheet ("расписка"); ``width``: in lines of at
        most this many characters, the seats in parts if need be (``sheet.render_sheet``)."""
        return render_sheet(self, names, width)

    def trace(self) -> str:
        """The full event log as text, one event a line."""
        return "\n".join(str(event) for event in self.log)

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the current deal's order (clockwise)."""
        order = self.view.order
        return order[(order.index(seat) + 1) % len(order)]

    # -- TRUMP, BID, PLAY: the legal actions as the core gives them --------------------------------

    def hook_rule(self) -> str:
        """The hook in the current deal: 'none', 'no_equal' (the dealer's hook) or 'overbid'."""
        return HOOK_NAMES[self.view.deal.hook]

    def legal_bid_mask(self) -> int:
        """The legal bids of the seat to move as a mask (bit ``b``: bid ``b``), in ``BID``."""
        return self._legal[0] if self._phase == Phase.BID else 0

    def legal_bids(self) -> list[int]:
        """The legal bids of the seat to move, lowest first, in ``BID``."""
        mask = self.legal_bid_mask()
        return [bid for bid in range(mask.bit_length()) if mask >> bid & 1]

    def legal_play_options(self) -> tuple[int, int]:
        """The legal plays of the seat to move, cheaply, in ``PLAY``: (mask of the cards that may
        be played, the Jokers' bits included; mask of the calls a Joker may be played with, over
        ``engine.core.codes.OPTIONS``). ``legal_actions`` lists the same plays as records."""
        return self._legal if self._phase == Phase.PLAY else (0, 0)

    def joker_calls(self) -> int:
        """The calls a Joker played now may make, as options over ``codes.OPTIONS``."""
        tables = self.tables
        return int(m.joker_calls(self.state, tables.plan))

    # -- the event log ----------------------------------------------------------------------------

    def _log_deal_start(self) -> None:
        self.log += deal_opened(self, self._phase != Phase.TRUMP)
