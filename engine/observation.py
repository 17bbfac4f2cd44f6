"""What one seat may know: the observation a strategy decides from.

An observation holds exactly what the seat may see under the variant: its own hand (hidden while
bidding a dark deal; while naming trump only the first cards dealt), the other hands only in a
"lobovaya" deal while bidding (or, with lobovaya read as one card each, the card each other seat
showed at the deal while it holds it: ``machine.visible_other_hand``), the trump and the turned
card, the bids, the tricks taken, the current trick, and the finished tricks that the variant's
memory rule lets it look back at (``play.memory``: all, its own and the last, the last, none, or
its own). Legal actions come with it when the seat is to move, like an action mask.

``Game.observation`` makes one for every decision, so it is a cheap view: a copy of the game's
compiled state (the part a deal needs, not the results) and the legal actions, with each field
read from the copy the first time it is asked for. It can also be built field by field
(``Observation(variant=..., seat=..., ...)``), as the batch engine's scalar view does.

Some of what an observation holds is shared with other seats and games rather than copied: the
legal actions (``Game.legal_action_tuple``) and the finished tricks (one ``Trick`` per trick for the
rest of the deal, ``Game._finished``). Those records are immutable named tuples
(``engine.actions``, ``engine.tricks``), and the other fields are tuples, ints and strings, so a
strategy cannot rewrite what another seat sees through them. The variant and the phase are the
process's own objects (a frozen pydantic model, an enum member): frozen against ``setattr``, not
against ``object.__setattr__``; in-process strategies are trusted code, isolated ones are shown
pickled copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import getrefcount
from typing import TYPE_CHECKING, Any

from .actions import Action
from .core import machine as m
from .core.codes import HOOK_NAMES
from .core.rules import MEMORY_CODES, trick_visible
from .core.view import StateView
from .phase import Phase
from .tricks import Trick, TrickCard, current_trick

if TYPE_CHECKING:
    from .game import Game
    from .variant import Variant

#: The fields of an observation, in the order of its positional arguments.
FIELDS = (
    "variant", "seat", "players", "phase", "deal_number", "hand_size", "kind", "dealer", "order",
    "to_move", "hand", "hand_hidden", "other_hands", "trump", "trump_card", "trump_how", "bids",
    "taken", "trick", "led_suit", "trick_trump", "tricks", "played", "scores", "hook_rule",
    "legal_actions", "trump_hidden", "passes_in_row", "turned_holder",
)
_DEFAULTS = {"trump_hidden": False, "passes_in_row": (), "turned_holder": -1}


class Observation:
    """One seat's view of the game. Masks are card bitmasks (see ``engine.cards``).

    Fields: ``variant``, ``seat``, ``players``, ``phase``, ``deal_number``, ``hand_size``, ``kind``,
    ``dealer``, ``order``, ``to_move``, ``hand``, ``hand_hidden``, ``other_hands``, ``trump``,
    ``trump_card``, ``trump_how``, ``bids``, ``taken``, ``trick``, ``led_suit``, ``trick_trump``,
    ``tricks``, ``played``, ``scores``, ``hook_rule``, ``legal_actions``; ``other_hands[other]`` is
    what the seat sees of that hand (None: nothing, always for its own): the whole hand while
    bidding a forehead deal, the card it showed and still holds in a lobovaya deal read as one
    card each (0 once it is played); ``trump_hidden`` is True
    while bidding a dark deal (bids come before the deal, so the trump is not known yet: ``trump``
    is then -1 and ``trump_card`` None whatever they will be); ``passes_in_row`` is each seat's
    passes in a row so far (public: every bid is seen), for the pass limit; ``turned_holder`` is
    the seat that drew the turned trump card from under the stock (``play.draw_after_trick``, 002:
    it lies face up, so everyone sees who takes it), -1 while nobody has. ``deal_tricks`` is the
    number of tricks the deal plays (``hand_size`` but where the players draw after each trick).
    Immutable.
    """

    __slots__ = (*FIELDS, "_source")

    variant: Variant
    seat: int
    players: int
    phase: Phase
    deal_number: int
    hand_size: int
    kind: str
    dealer: int
    order: tuple[int, ...]
    to_move: int
    hand: int
    hand_hidden: bool
    other_hands: tuple[int | None, ...]
    trump: int
    trump_card: int | None
    trump_how: str
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    trick: tuple[TrickCard, ...]
    led_suit: int
    trick_trump: int
    tricks: tuple[Trick, ...]
    played: int
    scores: tuple[int, ...]
    hook_rule: str
    legal_actions: tuple[Action, ...]
    trump_hidden: bool
    passes_in_row: tuple[int, ...]
    turned_holder: int

    @property
    def deal_tricks(self) -> int:
        """Tricks the deal plays: the hand, and with ``play.draw_after_trick`` one more for each
        round drawn from the stock (``engine.core.deal.deal_tricks``); what bids range over."""
        from .core.plan import rule_plan

        return rule_plan(self.variant, self.players).deal_tricks(self.hand_size, len(self.order))

    def __init__(self, *args: Any, **fields: Any) -> None:
        if len(args) > len(FIELDS):
            raise TypeError(f"Observation takes at most {len(FIELDS)} fields, got {len(args)}")
        values = dict(zip(FIELDS, args, strict=False))
        for name, value in fields.items():
            if name not in FIELDS:
                raise TypeError(f"Observation has no field {name!r}")
            if name in values:
                raise TypeError(f"Observation got field {name!r} twice")
            values[name] = value
        setter = object.__setattr__
        for name in FIELDS:
            if name in values:
                setter(self, name, values[name])
            elif name in _DEFAULTS:
                setter(self, name, _DEFAULTS[name])
            else:
                raise TypeError(f"Observation needs the field {name!r}")
        setter(self, "_source", None)

    # -- a lazy view of a game ------------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        """A field not read yet: computed from the copy of the game's state, then kept."""
        reader = _READERS.get(name)
        if reader is None:
            raise AttributeError(f"'Observation' object has no attribute {name!r}")
        source = object.__getattribute__(self, "_source")
        if source is None:
            raise AttributeError(name)
        reader(self, source)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("an Observation is immutable; use _replace")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("an Observation is immutable")

    def _asdict(self) -> dict[str, Any]:
        """Every field, by name."""
        return {name: getattr(self, name) for name in FIELDS}

    def _replace(self, **changes: Any) -> Observation:
        """A copy with some fields changed (as a named tuple's ``_replace``)."""
        values = self._asdict()
        values.update(changes)
        return Observation(**values)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (tuple(getattr(self, name) for name in FIELDS),))

    def __iter__(self):  # noqa: ANN204 - as a named tuple unpacks
        return iter([getattr(self, name) for name in FIELDS])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in FIELDS[1:]))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS[1:])
        return f"Observation({shown})"


def _rebuild(values: tuple[Any, ...]) -> Observation:
    return Observation(*values)


_NO_HANDS: dict[int, tuple[None, ...]] = {}


def visible_tricks(memory: str, finished: Sequence[Trick], seat: int) -> tuple[Trick, ...]:
    """The finished tricks of the deal that ``seat`` may look back at under the memory rule
    (``play.memory``; the rule is ``engine.core.rules.trick_visible``)."""
    if memory == "full":
        return tuple(finished)
    code = MEMORY_CODES[memory]
    last = len(finished) - 1
    return tuple(trick for index, trick in enumerate(finished)
                 if trick_visible(code, trick.winner == seat, index == last))


def cards_seen(visible: Sequence[Trick], current: Sequence[TrickCard]) -> int:
    """The cards of the visible tricks and of the trick under way, as a mask."""
    played = 0
    for trick in visible:
        for entry in trick.cards:
            played |= 1 << entry.card
    for entry in current:
        played |= 1 << entry.card
    return played


_SET = object.__setattr__
#: the slots' own setters, for ``observe`` (a third cheaper than ``object.__setattr__`` by name)
_NEW = Observation.__new__
_SET_SEAT = Observation.seat.__set__  # type: ignore[attr-defined]
_SET_LEGAL = Observation.legal_actions.__set__  # type: ignore[attr-defined]
_SET_SOURCE = Observation._source.__set__  # type: ignore[attr-defined]


def observe(game: Game, seat: int) -> Observation:
    """Build ``seat``'s observation of ``game``: the seat and its legal actions now, every other
    field when first read, from the game's state as it was (``Game`` hands the view a copy of its
    state before it next changes, if anyone still holds the view: ``Game.apply_unchecked``)."""
    view = _NEW(Observation)
    _SET_SEAT(view, seat)
    _SET_LEGAL(view, game.legal_action_tuple() if game._to_move == seat else ())
    _SET_SOURCE(view, [game.state, game, game._phase])
    earlier = game._observed
    if earlier is not None and getrefcount(earlier) > 3:  # still held elsewhere: keep its state
        freeze(earlier)
    game._observed = view
    return view


def freeze(view: Observation) -> None:
    """Give ``view`` its own copy of the deal's part of the game's state (before the game moves
    on), unless it has one."""
    source = object.__getattribute__(view, "_source")
    game = source[1]
    if source[0] is game.state:
        source[0] = game.view.snapshot()


def _basic_fields(view: Observation, source: list[Any]) -> None:
    _, game, phase = source
    _SET(view, "variant", game.variant)
    _SET(view, "players", game.players)
    _SET(view, "phase", _PHASES[phase])
    _SET(view, "to_move", _fields(source).to_move if phase != Phase.GAME_OVER else -1)


_PHASES = tuple(Phase)


def _fields(source: list[Any]) -> StateView:
    """The state an observation reads, by name: the game's own while it has not moved on, else
    the copy the observation was given (``freeze``)."""
    state, game, _ = source
    return game.view if state is game.state else StateView(state, game.tables)


def _deal_fields(view: Observation, source: list[Any]) -> None:
    fields = _fields(source)
    row = fields.deal
    _SET(view, "deal_number", row.number)
    _SET(view, "hand_size", row.hand_size)
    _SET(view, "kind", source[1].plan.kind_names[row.kind])
    _SET(view, "dealer", fields.dealer)
    _SET(view, "order", tuple(fields.order))
    _SET(view, "hook_rule", HOOK_NAMES[row.hook] if source[2] == Phase.BID else "none")


def _seat_fields(view: Observation, source: list[Any]) -> None:
    fields = _fields(source)
    _SET(view, "bids", tuple(None if bid < 0 else bid for bid in fields.bids))
    _SET(view, "taken", tuple(fields.taken))
    _SET(view, "scores", tuple(fields.scores))
    _SET(view, "passes_in_row", tuple(fields.passes))
    _SET(view, "turned_holder", fields.turned_holder)


def _hand_fields(view: Observation, source: list[Any]) -> None:
    state, game, phase = source
    fields = _fields(source)
    seat = view.seat
    players = game.players
    hand = fields.hand(seat)
    hidden = trump_hidden = False
    others = _NO_HANDS.get(players)
    if others is None:
        others = _NO_HANDS[players] = (None,) * players
    how = fields.how_text(game._how_text)
    card = fields.trump_card
    if phase == Phase.BID or game.tables.shows_cards and phase <= Phase.PLAY:
        row = fields.deal
        if row.shown or phase == Phase.BID and row.others_shown:
            others = visible_other_hands(state, fields.plan, seat, players)
    if phase == Phase.BID:  # what bidding hides (``engine.core.plan.bidding_view``)
        hidden = bool(row.hand_hidden)
        trump_hidden = bool(row.trump_hidden)
        if hidden:
            hand = 0
    elif phase == Phase.TRUMP and how == "named" and card < 0:
        # Named after the first cards (002); a dealer naming after a turned Joker saw every card.
        hand = fields.first_hand(seat)
    _SET(view, "hand", hand)
    _SET(view, "hand_hidden", hidden)
    _SET(view, "other_hands", others)
    _SET(view, "trump_hidden", trump_hidden)
    _SET(view, "trump", -1 if trump_hidden else fields.trump)
    _SET(view, "trump_card", None if trump_hidden or card < 0 else card)
    _SET(view, "trump_how", "unknown" if trump_hidden else how)
    _SET(view, "trick_trump", -1 if trump_hidden else fields.trick_trump)


def visible_other_hands(state: Any, plan: Any, seat: int, players: int) -> tuple[int | None, ...]:
    """What ``seat`` sees of every other hand (``machine.visible_other_hand``; None: nothing)."""
    seen = []
    for other in range(players):
        cards = int(m.visible_other_hand(state, plan, seat, other))
        seen.append(None if cards < 0 else cards)
    return tuple(seen)


def _trick_fields(view: Observation, source: list[Any]) -> None:
    game = source[1]
    fields = _fields(source)
    trick = current_trick(fields)
    finished = list(game._finished(fields))
    memory = game.plan.memory
    visible = visible_tricks(memory, finished, view.seat)
    _SET(view, "trick", trick)
    _SET(view, "led_suit", fields.led_suit)
    _SET(view, "tricks", visible)
    _SET(view, "played", fields.played if memory == "full"
         else cards_seen(visible, trick))


_READERS = {
    **dict.fromkeys(("variant", "players", "phase", "to_move"), _basic_fields),
    **dict.fromkeys(("deal_number", "hand_size", "kind", "dealer", "order", "hook_rule"),
                    _deal_fields),
    **dict.fromkeys(("bids", "taken", "scores", "passes_in_row", "turned_holder"), _seat_fields),
    **dict.fromkeys(("hand", "hand_hidden", "other_hands", "trump_hidden", "trump", "trump_card",
                     "trump_how", "trick_trump"), _hand_fields),
    **dict.fromkeys(("trick", "led_suit", "tricks", "played"), _trick_fields),
}
