"""Playing a game between strategies, safely.

``play_game`` seats strategies, feeds each its observations and applies its answers. A strategy that
raises (anything: ``SystemExit`` and ``KeyboardInterrupt`` included), returns an action that is not
legal, or runs past its per-decision time budget does not take the program down: the game stops
there and comes back marked as errored, naming the seat, the strategy, the decision and the message.
The caller decides what to do (a tournament records the game as errored and goes on). A real Ctrl-C
of the user still stops the program (``play_game`` tells it from a strategy's own
``KeyboardInterrupt`` by its signal handler).

Actions are checked by exact type and value (``check_action``): ``Bid(1.0)``, a subclass of ``Bid``,
or an object whose ``__eq__`` always answers True is illegal; the action applied is always the
engine's own legal action object, and no method of the strategy's answer is ever called. The
engine's action records are immutable tuples (``engine.actions``), shared between seats and games:
a strategy cannot write into the legal actions it is shown; one whose class was swapped
(``object.__setattr__(action, "__class__", ...)``) is refused when applied, a fault of the seat
that returned it.

The time budget is a ``SIGALRM`` timer raising ``DecisionTimeout``, a ``BaseException`` so that
``except Exception`` in strategy code cannot swallow it; a supervised tournament worker also
publishes every decision's start (``watch_decisions``) so that the parent process kills it when a
strategy disarms the timer or swallows the timeout.
"""

from __future__ import annotations

import math
import os
import random
import signal
import struct
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from raspis.engine import Game, Variant
from raspis.engine import rng as chance
from raspis.engine.actions import Bid, Keep, NameTrump, Play, action_text
from raspis.engine.errors import IllegalActionError, cut_message
from raspis.engine.observation import observe

from .base import Strategy


class DecisionTimeout(BaseException):
    """A strategy ran past its time budget for one decision (a ``BaseException``: strategy code
    catching ``Exception`` cannot swallow it)."""


@dataclass(frozen=True)
class StrategyFault:
    """Why a game stopped early: which seat's strategy failed, where, and how."""

    seat: int
    strategy: str
    kind: str  # "raised", "illegal" or "timeout"
    deal_number: int
    phase: str
    message: str

    def __str__(self) -> str:
        return (f"seat {self.seat} ({self.strategy}) {self.kind} in deal {self.deal_number + 1}, "
                f"{self.phase}: {self.message}")


@dataclass
class GameRecord:
    """A played game and, if it stopped early, the fault."""

    game: Game
    fault: StrategyFault | None = None

    @property
    def errored(self) -> bool:
        """True when a strategy failed and the game did not finish."""
        return self.fault is not None


def strategy_rng(seed: int, seat: int) -> random.Random:
    """The generator a strategy gets for the game with ``seed`` at ``seat``."""
    return random.Random(chance.mix(seed, chance.STRATEGY, seat))


def check_budget(seconds: float | None) -> float | None:
    """``seconds`` when it is a usable per-decision budget (finite, above 0) or None; else
    ``ValueError`` naming what is allowed."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError(f"a decision time budget must be a number of seconds, got {seconds!r}")
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"a decision time budget must be a finite number of seconds above 0, "
                         f"got {seconds}")
    return float(seconds)


# -- the watchdog's view of this process (set by a supervised tournament worker) -----------------

#: a writable buffer of ``HEARTBEAT_SIZE`` bytes: <d the running decision's start (monotonic
#: clock, 0 = none), <q its seat, <q the game's index in its shard
_HEARTBEAT: Any = None
_BEAT = struct.Struct("<dq")
_GAME = struct.Struct("<q")
HEARTBEAT = struct.Struct("<dqq")
HEARTBEAT_SIZE = HEARTBEAT.size


def watch_decisions(buffer: Any) -> None:
    """Publish each decision's start time and seat into ``buffer`` (``HEARTBEAT_SIZE`` bytes,
    shared with the supervising process, which kills this one when a decision overruns); None
    stops it. While it is on, a copy of this process forked by a strategy (``os.fork()`` in
    ``act``) ends quietly as soon as the strategy's call returns to raspis."""
    global _HEARTBEAT, _FORK_WATCH
    _HEARTBEAT = buffer
    if buffer is not None and not _FORK_WATCH:
        os.register_at_fork(after_in_child=_forked)
        _FORK_WATCH = True


#: set in a forked copy of a watched process (``watch_decisions``): it must not go on playing
#: the shard, writing the heartbeat or answering the supervisor, which the original does
_FORKED = False
_FORK_WATCH = False


def _forked() -> None:
    global _FORKED
    if _HEARTBEAT is not None:
        _FORKED = True


def watch_game(index: int) -> None:
    """Publish the index (in its shard) of the game being played, for the watchdog's messages."""
    if _HEARTBEAT is not None:
        _GAME.pack_into(_HEARTBEAT, 16, index)


# -- a real Ctrl-C, told from a strategy's own KeyboardInterrupt ---------------------------------

_INTERRUPTS = 0


def _on_sigint(signum: int, frame: object) -> None:
    global _INTERRUPTS
    _INTERRUPTS += 1
    raise KeyboardInterrupt


class _UserInterrupts:
    """While active (main thread, default handler only), SIGINT counts before it raises."""

    def __enter__(self) -> _UserInterrupts:
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                self.previous = signal.signal(signal.SIGINT, _on_sigint)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _alarm(signum: int, frame: object) -> None:
    raise DecisionTimeout()


def describe_error(error: BaseException) -> str:
    """``Type: message`` of an exception raised by strategy code, cut to
    ``engine.errors.MESSAGE_LIMIT`` characters (``cut_message``), never raising itself."""
    try:
        name = type(error).__name__
        text = str(error)
    except BaseException:  # noqa: BLE001 - a hostile __str__
        return f"{_type_name(error)} (its message cannot be shown)"
    if isinstance(error, SystemExit):
        return cut_message(f"{name} (the strategy tried to exit the program, code {error.code!r})")
    return cut_message(f"{name}: {text}" if text else name)


def describe_exit(code: int | None) -> str:
    """A process's exit status in words: ``exit code 3``, ``killed by signal 9 (SIGKILL)``."""
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "unknown"
        return f"killed by signal {-code} ({name})"
    return f"exit code {code}"


def _type_name(value: object) -> str:
    try:
        return str(type.__dict__["__name__"].__get__(type(value)))
    except BaseException:  # noqa: BLE001
        return "object"


def guarded(call: Callable[..., Any], *args: Any) -> tuple[Any, tuple[str, str] | None]:
    """Run one call into strategy code: ``(value, None)``, or ``(None, (kind, message))`` when it
    raised anything (a user's real Ctrl-C excepted: that propagates)."""
    mark = _INTERRUPTS
    try:
        return call(*args), None
    except DecisionTimeout:
        return None, ("timeout", "over its time budget")
    except KeyboardInterrupt as error:
        if _INTERRUPTS != mark:
            raise
        return None, ("raised", describe_error(error))
    except BaseException as error:  # noqa: BLE001 - the strategy's own bug: record it, do not crash
        return None, ("raised", describe_error(error))


def within_budget(seat: int, budget: float | None, call: Callable[..., Any],
                   *args: Any) -> Any:
    """``call(*args)`` (a call into strategy code for ``seat``) under the time budget (raises
    ``DecisionTimeout``), published to the watchdog while it runs."""
    beat = _HEARTBEAT
    if beat is not None:
        _BEAT.pack_into(beat, 0, time.monotonic(), seat)
    try:
        return timed(budget, call, *args)
    finally:
        if _FORKED:  # a copy the strategy forked: the original plays on, this one ends here
            os._exit(0)
        if beat is not None:
            _BEAT.pack_into(beat, 0, 0.0, -1)


def timed(budget: float | None, call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, raising ``DecisionTimeout`` past ``budget`` seconds (an interval timer
    in the main thread; a call that disarmed or swallowed it is judged by the clock after)."""
    if budget is None:
        return call(*args)
    started = time.perf_counter()
    use_signal = (hasattr(signal, "setitimer")
                  and threading.current_thread() is threading.main_thread())
    if not use_signal:
        result = call(*args)
    else:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, budget)
        try:
            result = call(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    if time.perf_counter() - started > budget:  # the timer was disarmed or swallowed
        raise DecisionTimeout()
    return result


#: seconds a strategy's import and ``__init__`` may take together (``registry.load_guarded``)
LOAD_SECONDS = 20.0


def decide(strategy: Strategy, observation: Any, budget: float | None) -> Any:
    """``strategy.act(observation)`` under the time budget (raises ``DecisionTimeout``)."""
    return within_budget(observation.seat, budget, strategy.act, observation)


# -- actions, by exact type and value ------------------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {Bid: ("tricks",), NameTrump: ("suit",),
                                        Play: ("card", "call", "suit", "rank"), Keep: ("keep",)}


def _action_key(action: object) -> tuple[Any, ...] | str:
    """``(type, *fields)`` of an exact engine action with exact field types; else why not."""
    kind = type(action)
    fields = _FIELDS.get(kind)
    if fields is None:
        return f"an object of type {_type_name(action)}, not Bid, NameTrump, Play or Keep"
    # an exact engine class: a tuple whose length and items are read by tuple's own methods
    size = len(action)  # type: ignore[arg-type]
    if size != len(fields):
        return f"{kind.__name__} of {size} values, not {len(fields)}"
    values: list[Any] = [kind]
    for name in fields:
        value = getattr(action, name)  # a field of the engine's own immutable record
        if name == "call":
            allowed, want = type(value) is str or value is None, "str or None"
        elif name == "keep":
            allowed, want = type(value) is bool, "bool"
        else:
            allowed, want = type(value) is int, "int"
        if not allowed:
            shown = repr(value) if type(value) in (float, bool, str, complex) else ""
            return (f"{kind.__name__} whose {name} is {_type_name(value)} {shown}".rstrip()
                    + f", not {want}")
        values.append(value)
    return tuple(values)


def check_action(action: object, legal: Sequence[Any]) -> tuple[Any, str | None]:
    """``(the engine's legal action equal to action, None)``, or ``(None, why not)``. Compares by
    exact type and field values: no method of ``action`` is called."""
    for candidate in legal:  # the engine's own object, handed back: nothing to compare
        if candidate is action:
            return candidate, None
    key = _action_key(action)
    if isinstance(key, str):
        return None, f"returned {key}"
    for candidate in legal:
        # ``action`` is exactly an engine class with exact field types, so this is the engine's
        # own record equality: same class, then field by field, int against int
        if type(candidate) is key[0] and candidate == action:
            return candidate, None
    kind, *values = key
    named = zip(_FIELDS[kind], values, strict=True)
    shown = f"{kind.__name__}({', '.join(f'{name}={value!r}' for name, value in named)})"
    return None, f"returned {shown}; legal: {', '.join(map(action_text, legal))}"


def _spec(strategy: Strategy) -> str:
    value, problem = guarded(strategy.spec)
    if problem is None and type(value) is str:
        return value
    return _type_name(strategy)


def play_game(
    variant: Variant,
    players: int,
    seed: int,
    strategies: Sequence[Strategy],
    *,
    decision_seconds: float | None = None,
    log: bool = False,
    specs: Sequence[str] | None = None,
) -> GameRecord:
    """Play one game with ``strategies[seat]`` at each seat; never raises for a strategy's fault
    (``specs``: the seats' spec strings for fault messages, default each strategy's ``spec()``)."""
    if len(strategies) != players:
        raise ValueError(f"{players} players need {players} strategies, got {len(strategies)}")
    budget = check_budget(decision_seconds)
    game = Game(variant, players, seed, log=log)

    def name(seat: int) -> str:
        return specs[seat] if specs is not None else _spec(strategies[seat])

    with _UserInterrupts():
        for seat, strategy in enumerate(strategies):
            # start_game gets the same budget as a decision, and the same watchdog
            _, problem = guarded(within_budget, seat, budget, strategy.start_game,
                                 game.variant, seat, players, strategy_rng(seed, seat))
            if problem is not None:
                return GameRecord(game, _fault(game, seat, name(seat), problem[0],
                                               f"start_game: {problem[1]}"))
        direct = budget is None and _HEARTBEAT is None  # no timer, no watchdog to tell
        acts = [strategy.act for strategy in strategies]
        apply = game.apply_unchecked
        # ``current_player()`` is -1 once the game is over (one call for ``is_over()`` too), and
        # ``observe`` is ``observation(seat)`` without its checks: this loop is what every
        # decision of a Python strategy costs
        to_move = game.current_player
        while (seat := to_move()) >= 0:
            observation = observe(game, seat)
            if direct:  # ``guarded(decide, ...)`` without the calls around it
                mark = _INTERRUPTS
                try:
                    action = acts[seat](observation)
                except DecisionTimeout:
                    action, problem = None, ("timeout", "over its time budget")
                except KeyboardInterrupt as error:
                    if _INTERRUPTS != mark:
                        raise
                    action, problem = None, ("raised", describe_error(error))
                except BaseException as error:  # noqa: BLE001 - the strategy's own bug
                    action, problem = None, ("raised", describe_error(error))
                else:
                    problem = None
            else:
                action, problem = guarded(decide, strategies[seat], observation, budget)
            if problem is not None:
                kind, message = problem
                if kind == "timeout":
                    message = f"no decision within {budget} s"
                return GameRecord(game, _fault(game, seat, name(seat), kind, message))
            legal = observation.legal_actions
            for chosen in legal:  # the engine's own object handed back: ``check_action``'s
                if chosen is action:  # first test, without the call
                    break
            else:
                chosen, why = check_action(action, legal)
                if chosen is None:
                    return GameRecord(game, _fault(game, seat, name(seat), "illegal", str(why)))
            observation = None  # so that the game need not keep a copy of the state for it
            try:
                apply(chosen)
            except IllegalActionError as error:  # an engine record whose class was swapped
                return GameRecord(game, _fault(game, seat, name(seat), "illegal",
                                               f"returned a legal action the engine refuses: "
                                               f"{error}"))
    return GameRecord(game)


def _fault(game: Game, seat: int, strategy: str, kind: str, message: str) -> StrategyFault:
    return StrategyFault(seat, strategy, kind, game.deal.number, game.phase.name.lower(), message)
