"""``raspis verify RUN``: check a run's dataset (every shard readable, schemas, counts)."""

from __future__ import annotations

import click

from .common import friendly_errors


@click.command("verify")
@click.argument("run_dir", type=click.Path(file_okay=False))
@friendly_errors
def verify_command(run_dir: str) -> None:
    """Check RUN_DIR: every shard file reads back, matches its schema and holds the games the
    manifest plans, and no shard is missing. Exits 0 when sound, 1 when something is wrong (each
    problem is listed), 2 when RUN_DIR is not a raspis run."""
    from raspis.tournament.verify import verify_run

    report = verify_run(run_dir)
    if report.ok:
        click.echo(f"ok: {run_dir}: {report.shards} shards, {report.games:,} games "
                   f"({report.errored:,} errored), {report.status}")
        return
    click.echo(f"{run_dir}: {len(report.problems) - 1} problems ({report.shards_ok} of "
               f"{report.shards} shards sound)", err=True)
    for problem in report.problems:
        click.echo(f"  {problem}", err=True)
    raise SystemExit(1)
