"""``raspis play``: one game between strategies, printed as the score sheet."""

from __future__ import annotations

import click
from raspis.engine import load_variant
from raspis.strategies import load_strategy, play_game
from raspis.strategies.match import play_match

from .common import friendly_errors, split_specs


@click.command("play")
@click.option("--variant", "-v", "variant_spec", default="classic", show_default=True,
              help="preset name or variant .toml file")
@click.option("--players", "-p", type=int, default=4, show_default=True, help="number of players")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="game seed")
@click.option("--strategies", "strategy_specs", default="random", show_default=True,
              help="comma-separated strategy specs, one per seat (one spec fills every seat)")
@click.option("--trace/--no-trace", default=False, help="print every deal, bid and card too")
@click.option("--match", "as_match", is_flag=True,
              help="play a match under the variant's [match] rules (002: best of three)")
@friendly_errors
def play_command(variant_spec: str, players: int, seed: int, strategy_specs: str, trace: bool,
                 as_match: bool) -> None:
    """Play one game (or a match) and print its score sheet ("расписка")."""
    variant = load_variant(variant_spec)
    variant.for_player_count(players)
    specs = split_specs(strategy_specs)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise click.BadParameter(
            f"{players} players need {players} strategies (or one for all), got {len(specs)}",
            param_hint="--strategies",
        )
    strategies = [load_strategy(spec) for spec in specs]
    names = [f"{seat}:{spec}" for seat, spec in enumerate(specs)]
    if as_match:
        result = play_match(variant, players, seed, strategies)
        for number, game_record in enumerate(result.games, start=1):
            click.echo(f"game {number}: totals {game_record.game.scores} places "
                       f"{game_record.game.places()}")
        click.echo(f"wins {result.wins}, second places {result.seconds}; winner "
                   f"{', '.join(names[seat] for seat in result.winners)} ({result.decided_by})")
        if result.errored:
            click.echo(f"match stopped: {result.games[-1].fault}", err=True)
            raise SystemExit(1)
        return
    record = play_game(variant, players, seed, strategies, log=trace)
    game = record.game
    if trace:
        click.echo(game.trace())
        click.echo()
    click.echo(game.score_sheet(names))
    if record.fault is not None:
        click.echo(f"game stopped: {record.fault}", err=True)
        raise SystemExit(1)
