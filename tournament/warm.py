"""One compile a run, said on stderr: the run's compiled code is compiled before its workers start.

On a machine whose compiled cache (``engine.core.cache``) is empty, every worker process would
compile the same core and players for itself, in silence: twice the work on two cores, and no word
of it. ``warm_up`` plays one game of each kind of shard the run will play, in this process, with
``engine.core.compiling.compile_notice`` saying what is compiled; the workers then load the cache.
It plays only built-in strategies: a seat of any other spec (a file, a module, a plug-in) is
played by a built-in that takes the same path through the engine (``random`` on the scalar engine,
the adapted ``heuristic`` in a batch), so no code a user brought runs in the parent, and a search
player by its cheapest form (its record's ``stand_in`` in ``strategies.catalogue``: a user's time
budget would make the parent's one game as long as a worker's). A failure here is left to the
workers to meet and report as they always have.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import IO

from raspis.engine.core.cache import is_warm, mark_warm
from raspis.engine.core.compiling import compile_notice
from raspis.strategies import catalogue
from raspis.strategies.isolate import split_isolation
from raspis.strategies.registry import split_alias

from .process import run_shard_on_engine
from .task import ShardTask


def _stand_in(spec: str, engine: str) -> str:
    """The built-in spec that warms what ``spec`` will need on ``engine``."""
    bare = split_isolation(split_alias(spec)[1])[1]
    entry = catalogue.find(bare.partition(":")[0])
    if entry is not None:  # a search player at its cheapest: a game in a second or two
        return entry.stand_in or bare
    return (catalogue.HEURISTIC if engine == "batch" else catalogue.RANDOM).name


def warm_task(task: ShardTask) -> ShardTask:
    """``task`` cut to its first game, its strategies replaced by their stand-ins."""
    strategies = tuple(_stand_in(spec, task.engine) for spec in task.strategies)
    return replace(task, shard_id=f"{task.shard_id}-warm", games=task.games[:1],
                   strategies=strategies, decision_seconds=None)


def warm_up(tasks: list[ShardTask], stream: IO[str] | None = None) -> None:
    """Compile (or load) what ``tasks`` will run, one game of each distinct kind, saying so on
    ``stream`` (stderr) when anything compiles."""
    kinds: dict[tuple[object, ...], ShardTask] = {}
    for task in tasks:
        if not task.games:
            continue
        mini = warm_task(task)
        kinds.setdefault((mini.engine, mini.players, mini.strategies, mini.deal_rows), mini)
    todo = {repr(kind): mini for kind, mini in kinds.items() if not is_warm(repr(kind))}
    if not todo:
        return
    with compile_notice(stream=stream):
        wait = _policies_beside(list(todo.values()))
        try:
            for key, mini in todo.items():
                try:
                    run_shard_on_engine(mini)
                except Exception:  # left to the workers, which report what goes wrong
                    continue
                mark_warm(key)
        finally:
            wait()


def _policies_beside(minis: list[ShardTask]) -> Callable[[], None]:
    """A batch shard's compiled loop holds the compiled policies: on two cores they compile in a
    child process while this one compiles the rules core (``compiled.compile_policies_beside``).
    Returns the wait for it."""
    if not any(mini.engine == "batch" for mini in minis):
        return lambda: None
    from raspis.strategies.policies.compiled import compile_policies_beside

    return compile_policies_beside()  # type: ignore[no-any-return]


# -- everything at once: ``raspis compile`` and the test suite's first step ----------------------

#: what ``warm_parts`` can compile: name -> what it plays (each one game or one batch of two)
PARTS: dict[str, str] = {
    "game": "one classic game on engine.Game (the scalar engine: random players) with a trace",
    "twins": "one classic game on engine.Game between the scalar twins of the compiled players",
    "batch": "a batch of every compiled player (lowest, random, fastheuristic, strong)",
    "fast": "a batch with fastheuristic at every seat (the loop of the longest runs)",
    "lockstep": "a batch with a scalar strategy seated (the lockstep engine)",
    "mc": "a game of the search player mc (its playouts in the compiled loop)",
    "pimc": "a game of the search player pimc (the open-hand solver)",
}

#: two halves of ``PARTS`` of about the same compile, for two processes side by side: 68 and 68
#: s of CPU, each in an empty cache (``fast`` after ``lockstep``, which has compiled most of it;
#: with ``batch`` and ``mc`` the halves took 75 and 65)
HALVES = (("batch", "mc"), ("game", "pimc", "twins", "lockstep", "fast"))


def warm_part(name: str) -> None:
    """Compile (or load) one part of ``PARTS``."""
    import numpy as np
    from raspis.engine import load_variant
    from raspis.engine.batch import play_batch
    from raspis.strategies import load_strategy, play_game
    from raspis.strategies.batch import load_batch_strategy

    variant = load_variant("classic")
    seeds = np.arange(2, dtype=np.uint64)
    twins = [entry.name for entry in catalogue.twins()]
    search = {"mc": catalogue.MONTE_CARLO, "pimc": catalogue.PIMC}
    lineups = {"game": [catalogue.RANDOM.name] * 4, "twins": (twins * 4)[:4],
               **{part: [str(entry.stand_in)] + [catalogue.LOWEST.name] * 3
                  for part, entry in search.items()}}
    if name in lineups:
        players = [load_strategy(spec) for spec in lineups[name]]
        play_game(variant, 4, 1, players, log=name == "game")
        return
    batches = {"batch": [entry.name for entry in catalogue.compiled_players()],
               "fast": [catalogue.FAST_HEURISTIC.name] * 4,
               "lockstep": [entry.name for entry in (catalogue.FAST_HEURISTIC, catalogue.RANDOM,
                                                     catalogue.HEURISTIC, catalogue.STRONG)]}
    if name not in batches:
        raise ValueError(f"unknown part {name!r}: one of {', '.join(PARTS)}")
    if name == "lockstep":  # a numpy seat cannot play classic's Joker declared as any card
        variant = load_variant("oh-hell")
    play_batch(variant, 4, seeds, [load_batch_strategy(spec) for spec in batches[name]])


def warm_parts(names: list[str] | tuple[str, ...], stream: IO[str] | None = None) -> None:
    """Compile (or load) the parts ``names`` of ``PARTS`` in this process, saying so on
    ``stream`` (stderr) when anything compiles."""
    todo = [name for name in names if not is_warm(f"part {name}")]
    if not todo:
        return
    with compile_notice(stream=stream):
        for name in todo:
            warm_part(name)
            mark_warm(f"part {name}")


def warm_side_by_side(halves: tuple[tuple[str, ...], ...] = HALVES) -> int:
    """Compile ``halves`` (tuples of ``PARTS`` names) in processes side by side, one a half, each
    saying on stderr what it compiles; returns the first non-zero exit status, else 0."""
    import subprocess
    import sys

    cold = [[name for name in half if not is_warm(f"part {name}")] for half in halves]
    processes = [subprocess.Popen([sys.executable, "-m", "raspis.tournament.warm", *half])
                 for half in cold if half]
    codes = [process.wait() for process in processes]
    return next((code for code in codes if code), 0)


if __name__ == "__main__":
    import sys

    warm_parts(sys.argv[1:] or list(PARTS))
