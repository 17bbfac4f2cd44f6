"""Hostile strategies for ``tests/test_hostile.py``: each class is one fault, loaded by file spec
(``./tests/hostile_bots.py:ExitBot``). They misbehave on their first bid or card (or earlier) so a
game of any variant reaches the fault."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from raspis.engine.actions import Bid
from raspis.strategies import Strategy


class _Hostile(Strategy):
    """Plays its first legal action, except where ``misbehave`` says otherwise."""

    name = "hostile"

    def act(self, observation):  # noqa: ANN001, ANN201
        """The fault, then (if it returns) the first legal action."""
        self.misbehave(observation)
        return observation.legal_actions[0]

    def misbehave(self, observation) -> None:  # noqa: ANN001
        """The fault."""


class ExitBot(_Hostile):
    """Ends its worker process with ``os._exit(7)``."""

    name = "exitbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        os._exit(7)


class KillSelfBot(_Hostile):
    """Sends its own process SIGKILL (as the out-of-memory killer would)."""

    name = "killselfbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        os.kill(os.getpid(), signal.SIGKILL)


class SysExitBot(_Hostile):
    """Calls ``sys.exit(3)``."""

    name = "sysexitbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        sys.exit(3)


class KeyboardBot(_Hostile):
    """Raises ``KeyboardInterrupt`` itself."""

    name = "keyboardbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        raise KeyboardInterrupt


class BaseExceptionBot(_Hostile):
    """Raises a bare ``BaseException``."""

    name = "baseexceptionbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        raise BaseException("not an Exception")


class StartGameBot(_Hostile):
    """Raises in ``start_game``."""

    name = "startgamebot"

    def start_game(self, variant, seat, players, rng) -> None:  # noqa: ANN001, D102
        raise RuntimeError("start_game exploded")


class WorkerInitBot(_Hostile):
    """Raises in ``__init__``, in tournament workers only (the parent's checks pass)."""

    name = "workerinitbot"

    def __init__(self, **options) -> None:  # noqa: ANN003, D107
        if sys.argv[:1] == ["-c"]:
            raise RuntimeError("__init__ exploded")
        super().__init__(**options)


class InitBot(_Hostile):
    """Raises in ``__init__`` everywhere."""

    name = "initbot"

    def __init__(self, **options) -> None:  # noqa: ANN003, D107
        raise RuntimeError("__init__ exploded")


class FloatBidBot(Strategy):
    """Bids ``Bid(1.0)`` (equal to ``Bid(1)``, but not an int)."""

    name = "floatbidbot"

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        legal = observation.legal_actions
        bids = [action for action in legal if type(action) is Bid]
        if bids:
            return Bid(float(bids[-1].tricks))
        return legal[0]


class _EqualsAll:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class EqualsAllBot(Strategy):
    """Answers an object whose ``__eq__`` always says True."""

    name = "equalsallbot"

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        return _EqualsAll()


class _BadRepr(Bid):
    def __repr__(self) -> str:
        raise RuntimeError("no repr for you")

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class BadReprBot(Strategy):
    """Answers a ``Bid`` subclass whose ``__repr__`` raises and whose ``__eq__`` says True."""

    name = "badreprbot"

    def act(self, observation):  # noqa: ANN001, ANN201, D102
        return _BadRepr(1)


class SleepBot(_Hostile):
    """Sleeps 30 s on a decision (only a time budget stops it)."""

    name = "sleepbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        time.sleep(30)


class SwallowBot(_Hostile):
    """Sleeps and swallows every exception, the timeout included (only a kill stops it)."""

    name = "swallowbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                time.sleep(0.05)
            except BaseException:  # noqa: BLE001, S110
                pass


class DisarmBot(_Hostile):
    """Disarms the decision timer and then sleeps 60 s."""

    name = "disarmbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        time.sleep(60)


class MutateVariantBot(_Hostile):
    """Writes into the variant it is given (bypassing pydantic's checks): the made-exactly score
    per trick becomes 1000 for everyone."""

    name = "mutatevariantbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        scoring = observation.variant.scoring
        object.__setattr__(scoring, "exact_per_trick", 1000)
        scoring.__dict__["pass_made"] = 999


class PidBot(_Hostile):
    """Writes its pid into ``$RASPIS_TEST_PIDFILE`` and sleeps 30 s, the first time only (when
    the file does not exist yet): a worker for a test to kill from outside."""

    name = "pidbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        path = Path(os.environ["RASPIS_TEST_PIDFILE"])
        if not path.exists():
            path.write_text(str(os.getpid()))
            time.sleep(30)


class FirstLegalBot(_Hostile):
    """Always the first legal action (the honest twin of ``MutateOnceBot``)."""

    name = "firstlegalbot"


class MutateOnceBot(_Hostile):
    """Writes into the variant on its first decision in this process only, then plays like
    ``FirstLegalBot``."""

    name = "mutateoncebot"
    done = False

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        if not MutateOnceBot.done:
            MutateOnceBot.done = True
            object.__setattr__(observation.variant.scoring, "exact_per_trick", 1000)


class SlowStartBot(_Hostile):
    """Sleeps in ``start_game`` far past any decision budget."""

    def start_game(self, variant, seat, players, rng) -> None:  # noqa: ANN001, D102
        time.sleep(30)


class PeekBot(_Hostile):
    """Looks for the game itself among the live objects of its process (to read hidden hands)."""

    name = "peekbot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        import gc

        from raspis.engine.game import Game

        if any(isinstance(thing, Game) for thing in gc.get_objects()):
            raise RuntimeError("found the game: every hand is readable")


class HugeMessageBot(_Hostile):
    """Raises with a 50 MB message."""

    name = "hugemessagebot"

    def misbehave(self, observation) -> None:  # noqa: ANN001, D102
        raise ValueError("x" * 50_000_000)


_DECISIONS = [0]


class GlobalStateBot(Strategy):
    """Keeps a module-level count of its decisions across games and plays the legal action it
    points at: its games depend on what the process played before (hidden state)."""

    name = "globalstatebot"

    def act(self, observation):  # noqa: ANN001, ANN201
        """The legal action the running count points at."""
        _DECISIONS[0] += 1
        actions = observation.legal_actions
        return actions[_DECISIONS[0] % len(actions)]


class SlowInitBot(_Hostile):
    """Sleeps in ``__init__`` far past any budget."""

    def __init__(self, **options) -> None:  # noqa: ANN003, D107
        time.sleep(60)
