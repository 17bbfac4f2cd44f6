"""``raspis tournament``: many games into a Parquet dataset."""

from __future__ import annotations

import os
import shlex
import signal
import sys

import click
from raspis.strategies.batch import BATCH_BUILTINS
from raspis.tournament import TournamentConfig, run_tournament, strategy_summary
from raspis.tournament.config import RunStorageError
from raspis.tournament.schema import DEAL_ROWS_DEFAULT_LIMIT

from .common import SEED, friendly_errors, split_specs
from .terminal import games_bar, terminal_width, wrap

#: Exit status of a run in which any game errored (without --allow-errors).
ERRORED_EXIT = 3

class _Stop(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C."""


def _stop_on_signals() -> dict[int, object]:
    def stop(signum: int, frame: object) -> None:
        raise _Stop(signal.Signals(signum).name)

    previous = {}
    for number in (signal.SIGTERM, signal.SIGHUP):
        try:
            previous[number] = signal.signal(number, stop)
        except (ValueError, OSError):  # not the main thread
            pass
    return previous


@click.command("tournament")
@click.option("--variant", "-v", "variants", multiple=True, default=["classic"], show_default=True,
              help="preset name or variant file; repeat to run the same games under each variant")
@click.option("--players", "-p", type=int, default=4, show_default=True)
@click.option("--strategies", "strategy_specs", default="heuristic,heuristic,random,random",
              show_default=True, help="comma-separated strategy specs, one per seat (lineup); "
              "NAME=SPEC gives a seat's strategy a name (mine=./bot.py:Bot)")
@click.option("--games", "-n", type=int, default=1000, show_default=True,
              help="deal sets to play (with --duplicate each is played under every seating)")
@click.option("--seed", "-s", type=SEED, default=0, show_default=True,
              help="root seed of the run (0 to 2^64-1)")
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False), default="results/run",
              show_default=True, help="output directory (the dataset)")
@click.option("--duplicate", type=click.Choice(["none", "rotations", "permutations"]),
              default="none", show_default=True,
              help="replay every deal set under each rotation (or permutation) of the seats")
@click.option("--seating", type=click.Choice(["rotate", "fixed"]), default="rotate",
              show_default=True,
              help="without --duplicate: rotate the lineup by one seat each game, or keep it fixed")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="worker processes [all cores]")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True)
@click.option("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://HOST:8786 "
              "(without it --executor dask starts a local cluster)")
@click.option("--resume", is_flag=True, help="continue an interrupted run in --out")
@click.option("--deal-rows/--no-deal-rows", default=None,
              help=f"write one row per seat per deal [default: only for runs of at most "
                   f"{DEAL_ROWS_DEFAULT_LIMIT:,} games]")
@click.option("--shard-size", type=click.IntRange(min=1), default=None,
              help="deal sets per shard [auto]")
@click.option("--decision-seconds", type=float, default=None,
              help="time budget per decision (finite, above 0); a strategy that runs past it "
                   "errors the game, and one that evades the timer has its worker killed")
@click.option("--shard-seconds", type=float, default=None,
              help="time budget per shard (finite, above 0): the watchdog kills a worker past it "
                   "[no limit]")
@click.option("--allow-errors", is_flag=True,
              help=f"exit 0 even when games errored [default: exit {ERRORED_EXIT}]")
@click.option("--engine", type=click.Choice(["auto", "scalar", "batch"]), default="auto",
              show_default=True,
              help="batch plays games in lockstep with numpy; auto picks it when every seat's "
                   f"strategy has a vectorised version ({', '.join(BATCH_BUILTINS)}), and says "
                   "on stderr which seat keeps it from doing so")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@click.option("--isolate", is_flag=True,
              help="run every seat's strategy in a process of its own that sees only its "
              "observations (strategies you do not trust; same as isolated+SPEC per seat)")
@friendly_errors
def tournament_command(variants: tuple[str, ...], players: int, strategy_specs: str, games: int,
                       seed: int, out_dir: str, duplicate: str, seating: str, workers: int | None,
                       executor: str, scheduler: str | None, resume: bool, deal_rows: bool | None,
                       shard_size: int | None, decision_seconds: float | None,
                       shard_seconds: float | None, allow_errors: bool, engine: str,
                       quiet: bool, isolate: bool) -> None:
    """Play many games between strategies and write them to a Parquet dataset.

    Exits 3 when any game errored (a strategy raised, cheated, ran out of time or killed its
    worker; --allow-errors exits 0), 2 for a usage error, 130 when stopped (Ctrl-C, SIGTERM or
    SIGHUP: complete shards are kept and the resume command is printed).

    \b
    raspis tournament --variant classic --players 4 \\
        --strategies ev,heuristic,random,random --games 100000 --seed 7 --out results/run1
    """
    specs = split_specs(strategy_specs)
    if len(specs) == 1:
        specs = specs * players
    if isolate:
        from raspis.strategies.isolate import isolate_specs

        specs = isolate_specs(specs)
    config = TournamentConfig(
        variants=tuple(variants), players=players, strategies=tuple(specs), games=games, seed=seed,
        duplicate=duplicate, seating=seating, shard_size=shard_size, deal_rows=deal_rows,
        decision_seconds=decision_seconds, engine=engine,
    )
    bar, update = games_bar(quiet)
    noted: list[bool] = []

    def progress(done: int, total: int) -> None:
        if not noted:  # the first call, once the options are checked
            noted.append(True)
            note = _scalar_note(config) if engine == "auto" else None
            if note:
                click.echo(wrap(note, terminal_width()), err=True)
        if update is not None:
            update(done, total)

    previous = _stop_on_signals()
    replayed: list[str] = []
    try:
        summary = run_tournament(config, out_dir, workers=workers or os.cpu_count(),
                                 executor=executor, scheduler=scheduler, resume=resume,
                                 progress=progress, shard_seconds=shard_seconds,
                                 replayed=replayed)
    except RunStorageError as error:  # the disk failed, not the user: exit 1, resumable
        if bar is not None:
            bar.stop()
        click.echo(f"error: {error}", err=True)
        raise SystemExit(1) from None
    except KeyboardInterrupt as stop:
        if bar is not None:
            bar.stop()
        command = " ".join(shlex.quote(arg) for arg in sys.argv)
        if "--resume" not in sys.argv:
            command += " --resume"
        why = f"stopped by {stop.args[0]}" if isinstance(stop, _Stop) and stop.args else \
            "interrupted"
        click.echo(f"\n{why}: complete shards are kept in {out_dir}; resume with:\n  {command}",
                   err=True)
        raise SystemExit(130) from None
    finally:
        if bar is not None:
            bar.stop()
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
    for problem in replayed:
        click.echo(f"re-played a shard that did not read back: {problem}", err=True)
    where = f"{summary.games:,} games in {out_dir}"
    how = (f"({summary.shards_run} shards run, {summary.shards_skipped} already done, "
           f"{config.resolved_engine()} engine) in {summary.seconds:.1f} s")
    # a long --out path: the counts go on a line of their own, whole
    fits = len(where) + 1 + len(how) <= terminal_width()
    click.echo(f"{where} {how}" if fits else f"{where}\n    {how}")
    if summary.errored:
        click.echo(f"{summary.errored} errored games (a strategy raised, hung or cheated):",
                   err=True)
        for fault in summary.faults:
            click.echo(f"  {fault}", err=True)
    table = strategy_summary(out_dir)
    _print_table(table)
    if summary.errored and not allow_errors:
        click.echo(f"exit status {ERRORED_EXIT}: {summary.errored} of {summary.games} games "
                   "errored (--allow-errors exits 0)", err=True)
        raise SystemExit(ERRORED_EXIT)


def _scalar_note(config: TournamentConfig) -> str | None:
    """Why an ``auto`` run plays on the scalar engine although some seat has a batch version:
    which lineup seats have none, or why the variant keeps the batch strategies out; None when
    it plays on the batch engine, or when no seat has a batch version."""
    choice = config.engine_choice()
    if choice.engine != "scalar" or len(choice.missing) == len(config.strategies):
        return None
    return f"scalar engine for every seat: {choice.reason}"


def _print_table(table) -> None:  # noqa: ANN001
    """The strategies' summary, one row each; a variant or strategy name too long for its column
    (a file path) is printed in full on a line of its own, its numbers on the next."""
    def number(value: float | None, spec: str, width: int) -> str:
        return f"{value:{width}{spec}}" if value is not None else f"{'n/a':>{width}}"

    def rate(value: float | None) -> str:  # a share as the reports print it: 45.0%
        from raspis.analysis.formats import percent

        return f"{percent(value) if value is not None else 'n/a':>9}"

    rows = list(table.iter_rows(named=True))
    # the numbers take 43 columns: the text columns share the rest
    room = max(terminal_width() - 45, 32)
    variant = max([16, *(len(row["variant"]) for row in rows)])
    strategy = max([28, *(len(row["strategy"]) for row in rows)])
    if variant + strategy > room:
        variant = min(variant, max(16, room - 28))
        strategy = max(28, room - variant)
    click.echo(f"{'variant':<{variant}} {'strategy':<{strategy}} {'seat-games':>10} "
               f"{'mean score':>11} {'win rate':>9} {'errored':>8}")
    for row in rows:
        numbers = (f"{row['seat_games']:>10,} {number(row['mean_score'], '.1f', 11)} "
                   f"{rate(row['win_rate'])} {row['errored']:>8}")
        if len(row["variant"]) > variant or len(row["strategy"]) > strategy:
            click.echo(wrap(f"{row['variant']} {row['strategy']}", terminal_width()))
            click.echo(f"{'':<{variant}} {'':<{strategy}} {numbers}")
        else:
            click.echo(f"{row['variant']:<{variant}} {row['strategy']:<{strategy}} {numbers}")
