"""``raspis strategies``: the strategies that can be named in a spec (``list``), and ``strong``'s
bid table fitted for a variant (``fit``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click
from raspis.strategies.registry import BUILTINS, available_strategies

from .common import friendly_errors
from .terminal import games_bar, terminal_width, wrap

T = TypeVar("T")


@click.group("strategies")
def strategies_group() -> None:
    """Built-in and plug-in strategies."""


@strategies_group.command("list")
def list_strategies() -> None:
    """List strategies with a one-line description and their parameters."""
    strategies = sorted(available_strategies().items())
    columns = terminal_width()
    width = max(len(name) for name, _ in strategies)
    for name, cls in strategies:
        origin = "built-in" if name in BUILTINS else f"plug-in ({cls.__module__})"
        # the description wraps under itself; each parameter on lines of its own, indented
        click.echo(wrap(f"{name:<{width}} {origin:<9} {cls.description}", columns, 0,
                        width + 11))
        for key, parameter in cls.parameters.items():
            kind = parameter.type.__name__
            click.echo(wrap(f"{key}={parameter.default!r} ({kind}): {parameter.help}", columns,
                            4, 8))
    click.echo("\n" + wrap("Also: module.path:ClassName[:k=v,...] or ./file.py:ClassName[:k=v,...]",
                           columns))


@strategies_group.command("fit")
@click.option("--variant", "-v", "variant_spec", required=True,
              help="preset name or variant .toml file")
@click.option("--players", "-p", type=click.IntRange(min=1), default=4, show_default=True,
              help="number of players")
@click.option("--games", "-n", type=click.IntRange(min=0), default=4000, show_default=True,
              help="self-play games to fit the bid outcomes on (classic: about 150 a second on "
              "one core, once compiled; 0: keep the table's)")
@click.option("--card-games", type=click.IntRange(min=0), default=30, show_default=True,
              help="self-play games a round whose card play mc labels for strong's card model "
              "(classic: about 5 s a game on one core; 0: none fitted now, the table's own kept "
              "where it has one, else strong plays its cards with the nearest preset's model)")
@click.option("--rounds", type=click.IntRange(min=1), default=1, show_default=True,
              help="rounds of card labels, each played with the card model of the round before")
@click.option("--net", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="UNITS", help="hidden units a row of the card model's nonlinear part, "
              "fitted on the last round (0: linear alone)")
@click.option("--bid-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="self-play games whose bids mc values for strong's bid model (oh-hell: about "
              "10 s a game on one core; 0: none fitted now, the table's own kept where it has "
              "one, else strong bids by the expected points alone)")
@click.option("--seed", "-s", type=click.IntRange(0, 2**40), default=1, show_default=True,
              help="seed of the games (0 to 2^40): the same seed writes the same file")
@click.option("--ship", is_flag=True,
              help="a preset's own table: write it where the preset's is shipped "
              "(data/strong/NAME-PLAYERS.npz), for the developers of raspis")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@friendly_errors
def fit_command(variant_spec: str, players: int, games: int, card_games: int, rounds: int,
                net: int, bid_games: int, seed: int, ship: bool, quiet: bool) -> None:
    """Fit strong's tables for a variant by self-play, into the user's fit folder.

    strong bids with a table of what its bids came to in self-play. Presets ship theirs; a variant
    with other rules bids with the nearest preset's table (and says so on stderr) until it has its
    own: this command fits it, and saves it in $RASPIS_FIT_DIR (default
    ~/.local/share/raspis/strong), named by a hash of the variant's rules and the player count,
    where strong finds it from then on. Then it fits strong's card model for the variant: mc labels
    the card play of --card-games self-play games a round (strategies.fitting.distil), and strong
    plays its cards with the model fitted to mc's choices and values; then, with --bid-games, its
    bid model, fitted to mc's values of the bids (strategies.fitting.bid_values). A stage given 0
    keeps what the table holds of it. The file notes the rules' hash, the players, and each
    stage's seed, size and command; the same arguments write the same bytes.

    \b
    raspis strategies fit --variant my-rules.toml --players 4 --games 4000
    raspis strategies fit --variant joker --ship --games 0 --card-games 0 --bid-games 40
    """
    import shlex

    from raspis.engine import load_variant
    from raspis.engine.variant import preset_names
    from raspis.strategies.fitting.refit import Sizes, refit
    from raspis.strategies.policies.fitted import find_fit, fit_path, is_count_key, user_fit_path

    variant = load_variant(variant_spec).for_player_count(players)
    if ship and variant_spec not in preset_names():
        raise click.BadParameter(f"{variant_spec!r} is not a preset: --ship writes a preset's "
                                 "shipped table; without it the fit goes to your fit folder",
                                 param_hint="--ship")
    path = fit_path(variant_spec, players) if ship else user_fit_path(variant, players)
    sizes = Sizes(games, card_games, rounds, net, bid_games, seed)
    command = shlex.join(["raspis", "strategies", "fit", "--variant", variant_spec,
                          "--players", str(players), "--games", str(games), "--card-games",
                          str(card_games), "--rounds", str(rounds), "--net", str(net),
                          "--bid-games", str(bid_games), "--seed", str(seed)]
                         + (["--ship"] if ship else []))
    arrays = refit(variant, players, sizes, path, command,
                   lambda label, work: _with_bar(quiet, label, work), click.echo)
    bids = sum(int(arrays[key].sum()) for key in arrays if is_count_key(key))
    click.echo(f"{variant.name} at {players} players: {bids:,} bids"
               + (f" of {games:,} games" if games else " (kept)") + f" -> {path}")
    if card_games:
        click.echo(f"card model: {rounds} round(s) of {card_games:,} games"
                   + (f", {net} hidden units a row" if net else "") + f" -> {path}")
    if bid_games and "bids" in arrays:
        click.echo(f"bid model: mc's values of the bids of {bid_games:,} games -> {path}")
    used = find_fit(variant, players)
    if not ship and used.kind == "shipped":  # the preset's own table is found first
        click.echo(f"(strong bids with the shipped table of {used.source} ahead of it: the same "
                   "rules; --ship refits that one)", err=True)


def _with_bar(quiet: bool, label: str, work: Callable[[Callable[[int, int], None]], T]) -> T:
    """``work(update)`` under a games progress bar (``terminal.games_bar``), stopped after it."""
    bar, update = games_bar(quiet, label)
    try:
        return work(update)
    finally:
        if bar is not None:
            bar.stop()
