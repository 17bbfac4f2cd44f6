"""``raspis verify RUN``: check a run's dataset (every shard readable, schemas, counts)."""

from __future__ import annotations

import click

from .common import friendly_errors


@click.command("verify")
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--replay", "replay", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="N", help="also play N sampled games again from their seeds and compare "
              "them with the stored rows (a strategy with hidden state shows here)")
@friendly_errors
def verify_command(run_dir: str, replay: int) -> None:
    """Check RUN_DIR: the manifest's values, every shard file reads back, matches its schema,
    holds exactly the games the manifest plans (ids, seeds) and the bytes its checksums recorded,
    and no shard is missing; with --replay N, N games played again match their rows. Exits 0
    when sound, 1 when something is wrong (each problem is listed), 2 when RUN_DIR is not a raspis
    run."""
    from raspis.tournament.verify import replay_games, verify_run

    report = verify_run(run_dir)
    if replay and report.ok:
        report.problems += replay_games(run_dir, replay)
        if report.problems:
            report.problems.append("a run reproduces only when every strategy decides from its "
                                   "observation and its generator alone (README, 'Strategies')")
    if report.ok:
        replayed = f"; {replay:,} games replayed alike" if replay else ""
        click.echo(f"ok: {run_dir}: {report.shards} shards, {report.games:,} games "
                   f"({report.errored:,} errored), {report.status}{replayed}")
        return
    click.echo(f"{run_dir}: {len(report.problems) - 1} problems ({report.shards_ok} of "
               f"{report.shards} shards sound)", err=True)
    for problem in report.problems:
        click.echo(f"  {problem}", err=True)
    raise SystemExit(1)
