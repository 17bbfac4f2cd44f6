"""Which fitted table ``strong`` bids with: found by the rules, not by the variant's name.

``strong``'s fitted bid outcomes (``strategies.fitting.bids.fit_bids``: what a bid came to in
self-play, by the seat's expected tricks) are shipped for every preset at every player count it
allows (``data/strong/NAME-PLAYERS.npz``). A table fits a variant when the variant plays the
preset's game: the same options once the name, the description, the sources and the dealer's hook
(``bidding.hook``, ``bidding.hook_from_deal``) are set aside. The hook only takes one bid away
from the dealer; what a bid comes to in play does not depend on it, so the hook study's
``classic-no-hook`` and ``classic-hook-from-4`` (``make run``) bid with ``classic``'s table.

``find_fit`` looks, in order, for

1. ``shipped``: the table of a preset whose rules match (as above);
2. ``user``: a table fitted for these very rules by ``raspis strategies fit --variant FILE``,
   kept in the user's fit folder (``fit_dir``: ``$RASPIS_FIT_DIR``, else
   ``$XDG_DATA_HOME/raspis/strong``, else ``~/.local/share/raspis/strong``), named by a short
   hash of the rules (``rules_hash``) and the player count;
3. ``nearest``: else the shipped table, at the same player count and on the same deck, of the
   preset whose rules differ from the variant's in the fewest options (``rules_distance``: the
   options of ``rules_key`` compared one by one; a tie goes to the preset's name first in
   alphabetical order). A variant that extends a preset and changes an option or two gets that
   preset's table;
4. ``none``: no table (no preset with a table deals this deck at this player count); ``strong``
   bids from the model alone.

The last two are not the variant's own table: ``say_fit_notice`` says so once on stderr (the
parent of a tournament, ``raspis play``), with the command that fits one.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shlex
import sys
import zipfile
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from raspis.engine.errors import VariantError
from raspis.engine.variant import Variant, load_variant, preset_names

from .. import catalogue
from .section import BID_FEATURES, BID_MODELS, CARD_FEATURES, CARD_MODELS, CardModel

#: The folder of the tables shipped with the presets (``data/strong``).
SHIPPED = Path(str(resources.files("raspis.data") / "strong"))


def fit_path(name: str, players: int) -> Path:
    """Where the fitted bid outcomes of a preset are shipped: ``data/strong/NAME-PLAYERS.npz``."""
    return SHIPPED / f"{name}-{players}.npz"


def load_fit(name: str, players: int, deck: int) -> dict[int, np.ndarray] | None:
    """The fitted bid outcomes of variant ``name`` at ``players``
    (``strategies.fitting.bids.fit_bids``), if shipped for it and fitted on the same deck; else
    None."""
    found = load_shipped(name, players, deck)
    return None if found is None else found[0]


def load_shipped(name: str, players: int, deck: int
                 ) -> tuple[dict[int, np.ndarray], CardModel | None, np.ndarray | None] | None:
    """(the fitted bid outcomes, the card model or None, the bid model or None) shipped for
    preset ``name`` at ``players`` (``fit_path``), read in one opening, if shipped and fitted on
    the same deck; else None."""
    path = fit_path(name, players)
    if not path.is_file():
        return None
    with np.load(path) as data:
        if int(data["deck"]) != deck:
            return None
        return fit_counts(data), fit_cards(data), fit_bid_model(data)


def fit_counts(data) -> dict[int, np.ndarray]:  # noqa: ANN001 - an open ``np.load`` archive
    """The counts of a fitted table's archive: ``nHAND_SIZE`` arrays, by hand size (the other
    entries, ``deck`` and a user fit's notes, left out)."""
    return {int(key[1:]): data[key] for key in data.files if is_count_key(key)}


def is_count_key(key: str) -> bool:
    """Whether a fitted table's archive entry ``key`` holds a hand size's counts
    (``nHAND_SIZE``)."""
    return key.startswith("n") and key[1:].isdigit()


#: the archive entries of a card model's nonlinear part: hidden weights, biases, output weights
NET_KEYS = ("cards_hidden", "cards_biases", "cards_output")


def fit_cards(data) -> CardModel | None:  # noqa: ANN001 - an open ``np.load`` archive
    """The card model in a fitted table's archive (``cards``: ``CARD_MODELS`` x
    ``CARD_FEATURES``, made by ``strategies.fitting.distil``, and its nonlinear part where kept:
    ``cards_hidden``, ``cards_biases``, ``cards_output``), or None where it has none of that
    shape."""
    if "cards" not in data.files:
        return None
    weights = np.asarray(data["cards"], dtype=np.float64)
    if weights.shape != (CARD_MODELS, CARD_FEATURES):
        return None
    if not set(NET_KEYS) <= set(data.files):
        return CardModel(weights)
    hidden, biases, output = (np.asarray(data[key], dtype=np.float64) for key in NET_KEYS)
    units = hidden.shape[-1] if hidden.ndim == 3 else -1
    if (hidden.shape != (CARD_MODELS, CARD_FEATURES, units)
            or biases.shape != (CARD_MODELS, units) or output.shape != (CARD_MODELS, units)):
        return CardModel(weights)
    return CardModel(weights, hidden, biases, output)


def fit_bid_model(data) -> np.ndarray | None:  # noqa: ANN001 - an open ``np.load`` archive
    """The bid model's weights in a fitted table's archive (``bids``: ``BID_MODELS`` x
    ``BID_FEATURES``, made by ``strategies.fitting.bid_values``), or None where it has none of
    that shape."""
    if "bids" not in data.files:
        return None
    weights = np.asarray(data["bids"], dtype=np.float64)
    return weights if weights.shape == (BID_MODELS, BID_FEATURES) else None


def card_arrays(model: CardModel) -> dict[str, np.ndarray]:
    """The archive entries of a card model (``fit_cards`` reads them back)."""
    arrays = {"cards": np.asarray(model.weights, dtype=np.float64)}
    if model.units:
        arrays.update({key: np.asarray(part, dtype=np.float64) for key, part in zip(
            NET_KEYS, (model.hidden, model.biases, model.output), strict=True)})
    return arrays


#: Options that do not change what a bid comes to in play (see the module's docstring).
IGNORED = {"name": None, "description": None, "sources": None,
           "bidding": ("hook", "hook_from_deal")}

#: The environment variable naming the folder of the user's fitted tables.
FIT_DIR_ENV = "RASPIS_FIT_DIR"

#: The kinds of ``Fit``: the variant's own table (``shipped``, ``user``), another's, or none.
EXACT_KINDS = ("shipped", "user")


def _rules_data(variant: Variant) -> dict[str, Any]:
    """The variant's options as JSON data, with those of ``IGNORED`` left out, and the options
    added after the first release while at their default (``Variant.options_data``, as its
    content hash): a new option that changes nothing leaves every fitted table's key as it
    was."""
    data = variant.options_data()
    for section, keys in IGNORED.items():
        if keys is None:
            data.pop(section, None)
        elif isinstance(data.get(section), dict):
            for key in keys:
                data[section].pop(key, None)
    return data


def rules_key(variant: Variant) -> str:
    """The variant's options as one string, with those of ``IGNORED`` left out."""
    return json.dumps(_rules_data(variant), sort_keys=True, default=repr)


def rules_hash(variant: Variant) -> str:
    """A short hash (12 hex digits) of ``rules_key``: the name of a user's fitted table."""
    return hashlib.sha256(rules_key(variant).encode()).hexdigest()[:12]


def _leaves(data: Any, prefix: str = "") -> dict[str, str]:
    """Every option of ``data`` by its dotted path (a list is one option), as JSON text."""
    if isinstance(data, dict):
        found: dict[str, str] = {}
        for key, value in data.items():
            found.update(_leaves(value, f"{prefix}{key}."))
        return found
    return {prefix.rstrip("."): json.dumps(data, sort_keys=True, default=repr)}


def rules_distance(one: Variant, other: Variant) -> int:
    """How many options (``rules_key``'s, by dotted path) differ between two variants."""
    first, second = _leaves(_rules_data(one)), _leaves(_rules_data(other))
    return sum(first.get(key) != second.get(key) for key in first.keys() | second.keys())


@lru_cache(maxsize=16)
def _shipped(players: int) -> tuple[tuple[str, str, Variant], ...]:
    """(rules key at ``players``, preset name, the preset resolved for ``players``) of every
    preset with a table at ``players``."""
    found = []
    for name in preset_names():
        if not fit_path(name, players).is_file():
            continue
        try:
            preset = load_variant(name).for_player_count(players)
        except VariantError:
            continue
        found.append((rules_key(preset), name, preset))
    return tuple(found)


def fit_source(variant: Variant, players: int) -> str | None:
    """The preset whose shipped table fits ``variant`` (resolved for ``players``), or None."""
    key = rules_key(variant)
    for preset_key, name, _ in _shipped(players):
        if preset_key == key:
            return name
    return None


def fit_dir() -> Path:
    """The folder of the user's fitted tables: ``$RASPIS_FIT_DIR``, else
    ``$XDG_DATA_HOME/raspis/strong``, else ``~/.local/share/raspis/strong``."""
    chosen = os.environ.get(FIT_DIR_ENV)
    if chosen:
        return Path(chosen).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "raspis" / "strong"


def user_fit_path(variant: Variant, players: int) -> Path:
    """Where the user's table for ``variant`` (resolved for ``players``) is kept:
    ``fit_dir()/HASH-PLAYERS.npz``, ``HASH`` its ``rules_hash``."""
    return fit_dir() / f"{rules_hash(variant)}-{players}.npz"


def write_archive(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` as an ``.npz`` archive at ``path``: the same arrays give the same bytes
    (the archive's dates are fixed); written whole, then moved in."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=False)
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, buffer.getvalue())
    os.replace(partial, path)


def _load_user(path: Path, key: str, deck: int
               ) -> tuple[dict[int, np.ndarray], str, CardModel | None, np.ndarray | None] | None:
    """(counts, variant name, card model or None, bid model or None) of the user's table at
    ``path`` if it was fitted for the rules ``key`` on ``deck``; None if it is missing,
    unreadable or for other rules."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["rules"]) != key or int(data["deck"]) != deck:
                return None
            return (fit_counts(data), str(data["variant"]), fit_cards(data),
                    fit_bid_model(data))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None


@dataclass(frozen=True)
class Fit:
    """The table ``strong`` bids with for a variant: ``kind`` (``shipped``, ``user``, ``nearest``
    or ``none``), ``source`` (the preset's name, or the variant name the user's fit was made
    for; None for ``none``), the file, and its counts (``counts[hand_size][bucket, bid,
    taken]``; None for ``none``)."""

    kind: str
    source: str | None = None
    path: Path | None = None
    counts: dict[int, np.ndarray] | None = field(default=None, compare=False, repr=False)
    #: the card model (``strategies.fitting.distil``): the file's own, else (a user's table fitted
    #: without one) the nearest preset's; None for none
    cards: CardModel | None = field(default=None, compare=False, repr=False)
    #: the bid model's weights (``strategies.fitting.bid_values``): the file's own; None for none
    bids: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: where ``cards`` comes from where not from the file: the preset's name
    cards_source: str | None = None

    @property
    def exact(self) -> bool:
        """Whether the table was fitted for the variant's own rules."""
        return self.kind in EXACT_KINDS

    @property
    def identity(self) -> str:
        """Which table, as the run's manifest records it: ``KIND:SOURCE:DIGEST`` (the file's
        SHA-256, 12 digits), or ``none``."""
        if self.path is None:
            return self.kind
        digest = hashlib.sha256(self.path.read_bytes()).hexdigest()[:12]
        return f"{self.kind}:{self.source}:{digest}"


def table_identities(variants: list[Variant], players: int) -> list[str]:
    """``Fit.identity`` of the table ``strong`` bids with for each of ``variants``."""
    return [find_fit(variant, players).identity for variant in variants]


def find_fit(variant: Variant, players: int) -> Fit:
    """The fitted bid outcomes ``strong`` bids with for ``variant`` at ``players``, and where they
    come from (the module's docstring: shipped, user, nearest, or none)."""
    variant = variant.for_player_count(players)
    deck = variant.deck_mask
    name = fit_source(variant, players)
    shipped = None if name is None else load_shipped(name, players, deck)
    if shipped is not None:
        return Fit("shipped", name, fit_path(name, players), *shipped)
    path = user_fit_path(variant, players)
    found = _load_user(path, rules_key(variant), deck)
    if found is not None:
        counts, source, cards, bids = found
        if cards is not None:
            return Fit("user", source, path, counts, cards, bids)
        nearest = nearest_fit(variant, players)
        return Fit("user", source, path, counts, nearest.cards, bids,
                   nearest.source if nearest.cards is not None else None)
    return nearest_fit(variant, players)


def nearest_fit(variant: Variant, players: int, skip: tuple[str, ...] = ()) -> Fit:
    """The shipped table of the preset nearest ``variant`` (resolved for ``players``) on its deck
    (``rules_distance``, ties by name), leaving out the presets named in ``skip``; ``none`` when
    no preset's table fits its deck at ``players``."""
    deck = variant.deck_mask
    same_deck = [(rules_distance(variant, preset), name) for _, name, preset in _shipped(players)
                 if preset.deck_mask == deck and name not in skip]
    for _, name in sorted(same_deck):
        shipped = load_shipped(name, players, deck)
        if shipped is not None:
            return Fit("nearest", name, fit_path(name, players), *shipped)
    return Fit("none")


#: the compiled policy ``mc``'s playouts play when its spec names none (its ``policy``)
PLAYOUT_POLICY = catalogue.STRONG.name


def uses_strong(spec: str) -> bool:
    """Whether a strategy spec plays with ``strong``'s fitted bid tables: ``strong`` itself
    (``NAME=strong``, ``isolated+strong:...``), or ``mc`` whose playouts play ``strong`` (its
    ``policy``, by default)."""
    from ..spec import StrategySpecError, raw_parameters, spec_parts

    _, name, parameters = spec_parts(spec)
    if name != catalogue.MONTE_CARLO.name:
        return name == catalogue.STRONG.name
    try:
        policy = raw_parameters(parameters, spec).get("policy", PLAYOUT_POLICY)
    except StrategySpecError:  # a malformed spec: its loader says what is wrong
        return False
    return policy == catalogue.STRONG.name


def fit_notice(variant: Variant, players: int, spec: str | None = None) -> str | None:
    """The line that says ``strong`` bids for ``variant`` at ``players`` with a table not fitted
    for its rules (``find_fit``'s ``nearest`` or ``none``), and the command that fits one
    (``spec``: the variant as the user named it; default its name); None for its own table."""
    fit = find_fit(variant, players)
    name = variant.name
    command = f"raspis strategies fit --variant {shlex.quote(spec or name)}"
    if players != 4:
        command += f" --players {players}"
    if fit.exact:
        if fit.cards is not None and fit.cards_source is None:
            return None
        cards = (f"{fit.cards_source}'s (the nearest preset's)" if fit.cards is not None
                 else "none: it plays its cards by the rules alone")
        return (f"strong: {name} at {players} players bids with the table fitted for it, but its "
                f"card model is {cards}. Fit its own: {command}")
    if fit.kind == "nearest":
        used = (f"it bids with {fit.source}'s (the nearest preset)"
                + (" and plays its cards with its card model" if fit.cards is not None else ""))
    else:
        used = ("it bids from the model alone and plays its cards by the rules alone (no "
                f"preset's table is fitted for its deck at {players} players)")
    return (f"strong: {name} at {players} players has no fitted bid table of its own; {used}. "
            f"Fit one: {command}")


def say_fit_notice(variant: Variant, players: int, spec: str | None = None) -> str | None:
    """Print ``fit_notice`` on stderr, once per process for each variant and player count;
    returns the line (None when there is nothing to say)."""
    text = fit_notice(variant, players, spec)
    if text is not None:
        _say(text)
    return text


@cache
def _say(text: str) -> None:
    """Print ``text`` on stderr the first time only (the notice of a variant names it)."""
    print(text, file=sys.stderr, flush=True)


def say_fit_notices(variant_specs: tuple[str, ...] | list[str], players: int,
                    strategy_specs: tuple[str, ...] | list[str]) -> list[str]:
    """``say_fit_notice`` for each variant when any seat plays with ``strong``'s tables
    (``uses_strong``); the lines said."""
    if not any(uses_strong(spec) for spec in strategy_specs):
        return []
    said = []
    for spec in variant_specs:
        try:
            variant = load_variant(spec).for_player_count(players)
        except VariantError:
            continue  # reported by whoever checks the variants
        text = say_fit_notice(variant, players, spec)
        if text is not None:
            said.append(text)
    return said


__all__ = ["FIT_DIR_ENV", "IGNORED", "PLAYOUT_POLICY", "Fit", "find_fit", "fit_dir", "fit_notice",
           "fit_source", "nearest_fit", "rules_distance", "rules_hash", "rules_key",
           "say_fit_notice", "say_fit_notices", "table_identities", "user_fit_path",
           "uses_strong"]
