"""``raspis variants``: list, show and validate rule variants."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import click
from raspis.engine import load_variant, preset_names
from raspis.engine.cards import card_str
from raspis.engine.errors import RaspisError
from raspis.engine.options import KindOptions, allowed_values
from raspis.engine.variant import Variant

from .common import friendly_errors
from .terminal import terminal_width, wrap


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
    deck = max(len(row[2]) for row in rows)
    cells = [f"{name:<{width}}  {players:<7}  {text:<{deck}}  {digest}"
             for name, players, text, digest, _ in rows]
    header = f"{'name':<{width}}  {'players':<7}  {'deck':<{deck}}  {'hash':<16}"
    columns = terminal_width()
    if all(len(cell) + 2 + len(row[4]) <= columns for cell, row in zip(cells, rows, strict=True)):
        click.echo(f"{header}  description")
        for cell, row in zip(cells, rows, strict=True):
            click.echo(f"{cell}  {row[4]}")
        return
    # Too wide for one line each: the description goes under its row, indented.
    click.echo(f"{header}\n{'':4}description")
    for cell, row in zip(cells, rows, strict=True):
        click.echo(cell)
        click.echo(wrap(row[4], columns, 4, 4))


def _value_text(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _kind_parts(key: str, values: dict[str, Any]) -> list[str]:
    """One option of every deal kind: the most usual value for ``kinds.*``, then each kind that
    differs (``kinds.*.multiplier = 1``, ``kinds.dark.multiplier = 2``)."""
    shown = {kind: _value_text(value) for kind, value in values.items()}
    order = list(shown.values())
    counts = Counter(order)
    usual = max(counts, key=lambda text: (counts[text], -order.index(text)))
    return [f"kinds.*.{key} = {usual}",
            *(f"kinds.{kind}.{key} = {text}" for kind, text in shown.items() if text != usual)]


def _option_rows(variant: Variant) -> list[tuple[list[str], str, str]]:
    """(``name = value`` parts, description, allowed values) of every option of ``variant``; an
    option of the deal kinds is one row for all kinds."""
    rows: list[tuple[list[str], str, str]] = []
    data = variant.model_dump(exclude={"name", "description", "sources", "for_players"})

    def described(field: Any) -> tuple[str, str]:
        values, each = allowed_values(field.annotation)
        allowed = f"values{' (each)' if each else ''}: {', '.join(values)}" if values else ""
        return field.description or "", allowed

    for section, items in data.items():
        if section == "kinds":
            for key, field in KindOptions.model_fields.items():
                per_kind = {kind: options[key] for kind, options in items.items()}
                rows.append((_kind_parts(key, per_kind), *described(field)))
            continue
        fields = type(getattr(variant, section)).model_fields
        for key, value in items.items():
            rows.append(([f"{section}.{key} = {_value_text(value)}"], *described(fields[key])))
    return rows


def _pack(parts: list[str], width: int) -> list[str]:
    """``parts`` joined by ``; `` into lines of at most ``width`` characters (the first indented
    2, the others 6), breaking between parts where it can, so that ``name = value`` stays on one
    line."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + 2 + len(part) + 1 <= width:
            lines[-1] += f"; {part}"
            continue
        if lines:
            lines[-1] += ";"
        lines += wrap(part, width, 6 if lines else 2, 6).split("\n")
    return lines


@variants_group.command("show")
@click.argument("variant_spec", metavar="NAME|FILE")
@click.option("--players", "-p", type=int, default=None,
              help="expand the deal schedule for this many players (default: every allowed count)")
@click.option("--descriptions/--no-descriptions", default=True,
              help="explain each option and list its values")
@friendly_errors
def show_variant(variant_spec: str, players: int | None, descriptions: bool) -> None:
    """Every option of a variant with its value (and the values it allows), and its deal schedule
    expanded.

    An option of the deal kinds is one line for all of them: ``kinds.*.multiplier = 1`` for most
    kinds, then each kind that differs (``kinds.dark.multiplier = 2``).
    """
    variant = load_variant(variant_spec)
    counts = [players] if players is not None else variant.player_counts()
    # Every count is resolved and dealt before anything is printed: an error comes alone.
    schedules = {count: variant.for_player_count(count).deal_schedule(count) for count in counts}
    resolved = variant.for_player_count(counts[0])
    columns = terminal_width()
    click.echo(wrap(f"{variant.name}: {variant.description}", columns))
    sources = ", ".join(variant.sources) or "-"
    click.echo(wrap(f"content hash {variant.content_hash}; seed texts: {sources}", columns))
    click.echo(wrap(f"deck: {_deck_text(resolved)}", columns))
    click.echo(wrap(f"deal kinds: {', '.join(resolved.kinds)}", columns))
    rows = _option_rows(resolved)
    # A short description lines up as a comment after the option (the column past most options);
    # a longer one goes under its option, indented, and wraps there.
    widths = sorted(len(parts[0]) + 2 for parts, _, _ in rows)
    column = min(widths[int(0.9 * (len(widths) - 1))], 2 * columns // 5) + 2
    for parts, description, allowed in rows:
        lines = _pack(parts, columns)
        if descriptions and description:
            short = f"# {description}" + (f"; {allowed}" if allowed else "")
            if len(lines) == 1 and len(lines[0]) < column and column + len(short) <= columns:
                lines[0] = f"{lines[0]:<{column}}{short}"
            else:
                lines += [wrap(part, columns, "      # ", "      # ")
                          for part in (description, allowed) if part]
        click.echo("\n".join(lines))
    if variant.for_players:
        click.echo(wrap(f"overrides by player count: {variant.for_players}", columns))
    letters: dict[str, list[str]] = {}
    for kind in dict.fromkeys(deal.kind for deals in schedules.values() for deal in deals):
        if kind != "normal":
            letters.setdefault(kind[0].upper(), []).append(kind)
    if letters:
        legend = ", ".join(f"{letter} {' or '.join(kinds)}" for letter, kinds in letters.items())
        click.echo(wrap(f"schedules: hand sizes; letters mark special kinds: {legend}", columns))
    for count, deals in schedules.items():
        described = " ".join(
            f"{deal.hand_size}{'' if deal.kind == 'normal' else deal.kind[0].upper()}"
            for deal in deals
        )
        click.echo(wrap(f"schedule for {count} players ({len(deals)} deals): {described}",
                        columns))


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
