"""``raspis play``: one game between strategies, printed as the score sheet.

The game is played in a forked child process where the platform has ``fork``: a strategy that ends
its process (``os._exit``, a signal) then cannot end ``raspis play`` silently; the parent says what
happened and exits 1. A strategy that raises (``SystemExit`` and ``KeyboardInterrupt`` included)
errors the game, which also exits 1. A real Ctrl-C stops with exit status 130.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable
from typing import Any

import click
from raspis.engine import Variant, load_variant
from raspis.strategies import catalogue
from raspis.strategies.spec import spec_parts

from .common import SEED, friendly_errors, split_specs
from .terminal import terminal_width, wrap

# the strategies (and with them the compiled core) are imported once ``_interpret_if_cold`` has
# decided how the core runs

#: Exit status when a strategy failed (raised, cheated, or ended the game's process).
FAULT_EXIT = 1


#: built-in strategies whose play compiles more than the rules core (the compiled players)
COMPILED_PLAYERS = catalogue.COMPILING
#: built-in strategies light enough to play on the core run by Python (``engine.warmth``): a game
#: of them takes a second or two uncompiled, where compiling the core takes about ten (the search
#: strategies play thousands of compiled playouts a move, and a strategy of the user's own may
#: compile code of its own, which the interpreted mode would run as Python too)
LIGHT_PLAYERS = catalogue.LIGHT


def _heads(specs: list[str]) -> list[tuple[bool, str]]:
    """(isolated, strategy name) of each seat's spec."""
    return [spec_parts(spec)[:2] for spec in specs]


def _interpret_if_cold(specs: list[str]) -> bool:
    """Run the rules core as Python in this process (``engine.warmth.interpret_core``) when its
    game is not compiled on this machine yet and every seat is a light built-in strategy in this
    process: the game then plays at once, the very same game, instead of after a compile. Returns
    whether it does."""
    from raspis.engine import warmth

    if any(isolated or name not in LIGHT_PLAYERS for isolated, name in _heads(specs)):
        return False
    if warmth.is_warm_in(warmth.cache_folder(), "game"):
        return False
    return warmth.interpret_core()


def _estimate(specs: list[str]) -> int:
    """About how many seconds of one core a cold compile of these seats' game takes."""
    from raspis.engine.core.compiling import ESTIMATE_SECONDS, GAME_ESTIMATE_SECONDS

    heads = {name for _, name in _heads(specs)}
    return ESTIMATE_SECONDS if heads & set(COMPILED_PLAYERS) else GAME_ESTIMATE_SECONDS


def _in_child(job: Callable[[], Any], estimate: int, variant: Variant, players: int) -> Any:
    """``job()`` in a forked child, its result pickled back; ``SystemExit(1)`` with a message when
    the child dies first (a strategy called ``os._exit`` or was killed). A compile on the way (a
    cold cache) is said on stderr (``compile_notice``); the state machine of ``variant``'s game
    compiles first, two parts side by side (``engine.game.compile_ahead``)."""
    from raspis.engine.core.compiling import compile_notice
    from raspis.engine.game import compile_ahead
    from raspis.strategies.isolate import die_with_parent
    from raspis.strategies.play import describe_error, describe_exit

    def work() -> Any:
        with compile_notice("the rules core and the players", estimate=estimate):
            compile_ahead(variant, players)
            return job()

    if not hasattr(os, "fork"):
        return work()
    sys.stdout.flush()
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: play, send the result, and leave without running any cleanup
        code = 0
        try:
            die_with_parent(parent)  # raspis killed: this game and its isolated seats go too
            os.close(read_end)
            data = pickle.dumps(("ok", work()))
        except KeyboardInterrupt:
            code, data = 130, b""
        except BaseException as error:  # noqa: BLE001 - reported by the parent
            data = pickle.dumps(("error", describe_error(error)))
        try:
            with os.fdopen(write_end, "wb") as stream:
                stream.write(data)
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(write_end)
    chunks = []
    try:
        with os.fdopen(read_end, "rb") as stream:
            while chunk := stream.read(1 << 16):
                chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
    except KeyboardInterrupt:
        with_pid_gone(pid)
        click.echo("interrupted", err=True)
        raise SystemExit(130) from None
    code = os.waitstatus_to_exitcode(status)
    if code == 130 and not chunks:
        click.echo("interrupted", err=True)
        raise SystemExit(130)
    if not chunks:
        click.echo(f"game stopped: the game's process died ({describe_exit(code)}): a strategy "
                   "ended it (os._exit, a signal, or out of memory)", err=True)
        raise SystemExit(FAULT_EXIT)
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "error":
        click.echo(f"game stopped: {value}", err=True)
        raise SystemExit(FAULT_EXIT)
    return value


def with_pid_gone(pid: int) -> None:
    """Kill and reap a child process (no error if it is gone already)."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (OSError, ChildProcessError):
        pass


PLAY_HELP = f"""Play one game (or a match) and print its score sheet ("расписка").

    Exits 1 when a strategy failed (raised, returned an illegal action, or ended its process).

    On a machine where the rules core is not compiled yet, a game of built-in players that need
    no search ({", ".join(LIGHT_PLAYERS)}) plays at once on the
    core run as Python: the same game, nothing compiled. Other players compile it first (once
    per machine and raspis version, said on stderr).
    """


@click.command("play", help=PLAY_HELP)
@click.option("--variant", "-v", "variant_spec", default="classic", show_default=True,
              help="preset name or variant .toml file")
@click.option("--players", "-p", type=int, default=4, show_default=True, help="number of players")
@click.option("--seed", "-s", type=SEED, default=1, show_default=True,
              help="game seed (0 to 2^64-1)")
@click.option("--strategies", "strategy_specs", default="random", show_default=True,
              help="comma-separated strategy specs, one per seat (one spec fills every seat)")
@click.option("--trace/--no-trace", default=False, help="print every deal, bid and card too")
@click.option("--match", "as_match", is_flag=True,
              help="play a match under the variant's [match] rules (002: best of three)")
@click.option("--isolate", is_flag=True,
              help="run every seat's strategy in a process of its own that sees only its "
              "observations (same as isolated+SPEC per seat)")
@friendly_errors
def play_command(variant_spec: str, players: int, seed: int, strategy_specs: str, trace: bool,
                 as_match: bool, isolate: bool) -> None:
    """Play one game (or a match) and print its score sheet (``PLAY_HELP``, built from the
    catalogue's light players)."""
    variant = load_variant(variant_spec)
    variant.for_player_count(players)
    specs = split_specs(strategy_specs)
    if len(specs) == 1:
        specs = specs * players
    if isolate:
        from raspis.strategies.spec import isolate_specs

        specs = isolate_specs(specs)
    if len(specs) != players:
        raise click.BadParameter(
            f"{players} players need {players} strategies (or one for all), got {len(specs)}",
            param_hint="--strategies",
        )
    _interpret_if_cold(specs)
    from raspis.strategies import load_strategy, play_game
    from raspis.strategies.match import play_match
    from raspis.strategies.play import guarded

    for spec in specs:
        made, problem = guarded(load_strategy, spec)
        del made  # an isolated seat's child stops here: the game starts its own
        if problem is not None and problem[1].startswith("StrategySpecError"):
            load_strategy(spec)  # a bad spec: the loader's clear message (exit 2)
        if problem is not None:
            click.echo(f"error: strategy {spec!r} cannot be created: its __init__ {problem[0]}: "
                       f"{problem[1]}", err=True)
            raise SystemExit(FAULT_EXIT)
    from raspis.strategies.policies.fitted import say_fit_notices

    say_fit_notices([variant_spec], players, specs)  # strong without its own bid table: said
    names = [f"{seat}:{spec}" for seat, spec in enumerate(specs)]

    def strategies() -> list[Any]:
        made = []
        for spec in specs:
            instance, problem = guarded(load_strategy, spec)
            if problem is not None:
                raise RuntimeError(f"strategy {spec!r} cannot be created: its __init__ "
                                   f"{problem[0]}: {problem[1]}")
            made.append(instance)
        return made

    if as_match:
        result = _in_child(lambda: play_match(variant, players, seed, strategies()),
                           _estimate(specs), variant, players)
        columns = terminal_width()
        for number, (game_record, seats) in enumerate(zip(result.games, result.seats,
                                                          strict=True), start=1):
            between = ("" if len(seats) == players else
                       f" (play-off: {', '.join(names[seat] for seat in seats)})")
            click.echo(wrap(f"game {number}{between}: totals {game_record.game.scores} places "
                            f"{game_record.game.places()}", columns))
        click.echo(wrap(f"wins {result.wins}, second places {result.seconds}; winner "
                        f"{', '.join(names[seat] for seat in result.winners)} "
                        f"({result.decided_by})", columns))
        if result.errored:
            click.echo(f"match stopped: {result.games[-1].fault}", err=True)
            raise SystemExit(FAULT_EXIT)
        return
    record = _in_child(lambda: play_game(variant, players, seed, strategies(), log=trace),
                       _estimate(specs), variant, players)
    game = record.game
    if trace:
        columns = terminal_width()  # an event a line, wrapped under itself
        click.echo("\n".join(wrap(line, columns) for line in game.trace().splitlines()))
        click.echo()
    # the seats in parts if they do not fit side by side; a long name in full above the sheet
    click.echo(game.score_sheet(names, width=terminal_width()))
    if record.fault is not None:
        click.echo(f"game stopped: {record.fault}", err=True)
        raise SystemExit(FAULT_EXIT)
