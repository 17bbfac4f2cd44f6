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
@click.option("--games", "-n", type=click.IntRange(min=1), default=4000, show_default=True,
              help="self-play games to fit on (classic: about 150 a second on one core, once "
              "compiled)")
@click.option("--card-games", type=click.IntRange(min=0), default=30, show_default=True,
              help="self-play games whose card play mc labels for strong's card model (classic: "
              "about 5 s a game on one core; 0: none, strong then plays its cards with the "
              "nearest preset's model)")
@click.option("--seed", "-s", type=click.IntRange(0, 2**40), default=1, show_default=True,
              help="seed of the games (0 to 2^40): the same seed writes the same file")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@friendly_errors
def fit_command(variant_spec: str, players: int, games: int, card_games: int, seed: int,
                quiet: bool) -> None:
    """Fit strong's bid table for a variant by self-play, into the user's fit folder.

    strong bids with a table of what its bids came to in self-play. Presets ship theirs; a variant
    with other rules bids with the nearest preset's table (and says so on stderr) until it has its
    own: this command fits it, and saves it in $RASPIS_FIT_DIR (default
    ~/.local/share/raspis/strong), named by a hash of the variant's rules and the player count,
    where strong finds it from then on. Then it fits strong's card model for the variant: mc labels
    the card play of --card-games self-play games (strategies.fitting.distil), and strong plays its
    cards with the model fitted to mc's choices.

    \b
    raspis strategies fit --variant my-rules.toml --players 4 --games 4000
    """
    from raspis.engine import load_variant
    from raspis.strategies.fitting.bids import fit_bids
    from raspis.strategies.fitting.distil import fit_cards, label_cards
    from raspis.strategies.policies import compiled
    from raspis.strategies.policies.fitted import find_fit, save_user_fit
    from raspis.strategies.policies.section import CardModel

    variant = load_variant(variant_spec).for_player_count(players)
    counts = _with_bar(quiet, "fitting",
                       lambda update: fit_bids(variant, players, games, seed, progress=update))
    path = save_user_fit(variant, players, counts, games, seed)
    bids = sum(int(block.sum()) for block in counts.values())
    click.echo(f"{variant.name} at {players} players: {bids:,} bids of {games:,} games -> {path}")
    if card_games:  # labelled with the bids just fitted and the nearest preset's card model
        compiled.policy_table.cache_clear()
        samples = _with_bar(quiet, "card play", lambda update: label_cards(
            variant, players, card_games, seed, progress=update))
        save_user_fit(variant, players, counts, games, seed, CardModel(fit_cards(samples)),
                      card_games)
        click.echo(f"card model: {len(samples):,} cards of {card_games:,} games -> {path}")
    used = find_fit(variant, players)
    if used.kind == "shipped":  # the preset's own table is found first
        click.echo(f"(strong bids with the shipped table of {used.source} ahead of it: the same "
                   "rules)", err=True)


def _with_bar(quiet: bool, label: str, work: Callable[[Callable[[int, int], None]], T]) -> T:
    """``work(update)`` under a games progress bar (``terminal.games_bar``), stopped after it."""
    bar, update = games_bar(quiet, label)
    try:
        return work(update)
    finally:
        if bar is not None:
            bar.stop()
