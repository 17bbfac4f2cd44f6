"""``raspis variants``: list, show and validate rule variants."""

from __future__ import annotations

import sys
from typing import Any

import click
from raspis.engine import load_variant, preset_names
from raspis.engine.cards import card_str
from raspis.engine.errors import RaspisError
from raspis.engine.variant import Variant

from .common import friendly_errors


@click.group("variants")
def variants_group() -> None:
    """List, show and check rule variants (presets and your own TOML files)."""


def _deck_text(variant: Variant) -> str:
    jokers = ", ".join(
        f"{card_str(card, ascii_only=True)}" for card in variant.joker_stands_for.values()
    )
    real = variant.deck.jokers
    if real:
        return f"{variant.deck_size - real} cards + {real} Joker{'s' if real > 1 else ''}"
    return f"{variant.deck_size} cards" + (f" ({jokers} as Joker)" if jokers else "")


@variants_group.command("list")
def list_variants() -> None:
    """List the built-in presets."""
    rows = []
    for name in preset_names():
        variant = load_variant(name)
        counts = variant.player_counts()
        consecutive = counts == list(range(counts[0], counts[-1] + 1))
        players = f"{counts[0]}-{counts[-1]}" if consecutive else ",".join(map(str, counts))
        rows.append((name, players, _deck_text(variant), variant.content_hash, variant.description))
    width = max(len(row[0]) for row in rows)
    click.echo(f"{'name':<{width}}  {'players':<7}  {'deck':<26}  {'hash':<16}  description")
    for name, players, deck, digest, description in rows:
        click.echo(f"{name:<{width}}  {players:<7}  {deck:<26}  {digest}  {description}")


def _flatten(prefix: str, value: Any, model: Any, lines: list[tuple[str, str, str]]) -> None:
    fields = getattr(type(model), "model_fields", {}) if model is not None else {}
    for key, item in value.items():
        name = f"{prefix}{key}"
        sub_model = getattr(model, key, None) if model is not None else None
        if isinstance(item, dict) and key not in ("for_players",) and item:
            if key == "kinds":
                for kind_name, kind_values in item.items():
                    _flatten(f"{name}.{kind_name}.", kind_values, sub_model[kind_name], lines)
            else:
                _flatten(f"{name}.", item, sub_model, lines)
            continue
        description = fields[key].description if key in fields and fields[key].description else ""
        lines.append((name, repr(item) if isinstance(item, str) else str(item), description))


@variants_group.command("show")
@click.argument("variant_spec", metavar="NAME|FILE")
@click.option("--players", "-p", type=int, default=None,
              help="expand the deal schedule for this many players (default: every allowed count)")
@click.option("--descriptions/--no-descriptions", default=True, help="explain each option")
@friendly_errors
def show_variant(variant_spec: str, players: int | None, descriptions: bool) -> None:
    """Every option of a variant with its value, and its deal schedule expanded."""
    variant = load_variant(variant_spec)
    counts = [players] if players is not None else variant.player_counts()
    # Every count is resolved and dealt before anything is printed: an error comes alone.
    schedules = {count: variant.for_player_count(count).deal_schedule(count) for count in counts}
    resolved = variant.for_player_count(counts[0])
    click.echo(f"{variant.name}: {variant.description}")
    sources = ", ".join(variant.sources) or "-"
    click.echo(f"content hash {variant.content_hash}; seed texts: {sources}")
    click.echo(f"deck: {_deck_text(resolved)}")
    lines: list[tuple[str, str, str]] = []
    data = resolved.model_dump(exclude={"name", "description", "sources", "for_players"})
    _flatten("", data, resolved, lines)
    # The comments line up after the usual option; a long value (a schedule, a list of calls)
    # puts its comment on the next line instead of pushing every comment to the right.
    widths = sorted(len(name) + len(value) + 3 for name, value, _ in lines)
    width = widths[int(0.9 * (len(widths) - 1))]
    for name, value, description in lines:
        text = f"{name} = {value}"
        if not (descriptions and description):
            click.echo(f"  {text}")
        elif len(text) <= width:
            click.echo(f"  {text:<{width}}  # {description}")
        else:
            click.echo(f"  {text}\n  {'':<{width}}  # {description}")
    if variant.for_players:
        click.echo(f"overrides by player count: {variant.for_players}")
    for count, deals in schedules.items():
        described = " ".join(
            f"{deal.hand_size}{'' if deal.kind == 'normal' else deal.kind[0].upper()}"
            for deal in deals
        )
        click.echo(f"schedule for {count} players ({len(deals)} deals; letters mark special "
                   f"kinds): {described}")


@variants_group.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def validate_variants(files: tuple[str, ...]) -> None:
    """Check variant files: exit status 0 if every file is a valid, playable variant.

    Every file is checked; each mistake is printed, and the exit status is 2 if any file failed.
    """
    failed = False
    for path in files:
        try:
            variant = load_variant(path)
            for count in variant.player_counts():
                variant.for_player_count(count).deal_schedule(count)
        except RaspisError as error:
            click.echo(f"error: {error}", err=True)
            failed = True
            continue
        click.echo(f"{path}: ok ({variant.name}, hash {variant.content_hash}, players "
                   f"{','.join(map(str, variant.player_counts()))})")
    if failed:
        sys.exit(2)
