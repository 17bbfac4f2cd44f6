"""Variants: named, validated, frozen rule sets loaded from TOML.

A variant file is TOML with the sections of ``engine.options``. It may ``extends`` a preset (or
another file, relative to itself) and override a few keys; tables merge key by key, lists and values
replace. ``[for_players.N]`` holds overrides that apply only at N players (Georgian poker deals up
to eight cards at four players and up to six at six, with a 54-card deck). A user's own variant is a
three-line file::

    name = "classic-no-hook"
    extends = "classic"
    bidding.hook = "off"

Presets live in ``data/variants/``. Every mistake is a ``VariantError`` naming the file, the key,
the bad value and what is allowed.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from .cards import JOKER, JOKERS, SUIT_NAMES, SUITS, make_card, parse_card
from .errors import VariantError
from .options import (
    BUILTIN_KINDS,
    DEAL_POINTS_LIMIT,
    BiddingOptions,
    DeckOptions,
    EndOptions,
    JokerOptions,
    KindOptions,
    MatchOptions,
    PlayersOptions,
    PlayOptions,
    ScheduleOptions,
    ScoringOptions,
    TableOptions,
    TrumpOptions,
)
from .schedule import DealSpec, expand, parse_entry, shown

#: Largest variant file read (a variant is a few kilobytes).
MAX_FILE_BYTES = 1 << 20

#: Deepest nesting of tables and lists in a variant (the presets nest five deep:
#: ``for_players.6.kinds.dark.multiplier``).
MAX_NESTING = 16

#: Longest chain of ``extends`` (a file extending a file extending ... a preset).
MAX_EXTENDS = 32


def _deal_points_bound(kind: KindOptions, table: ScoringOptions, hand: int) -> tuple[int, str]:
    """An upper bound on |points| of one deal of ``kind`` with at most ``hand`` cards, before the
    kind's multiplier, and the options that reach it (for messages)."""
    exact = abs(table.exact_base) + abs(table.exact_per_trick) * hand
    broken = table.over_per_trick if table.pass_broken_per_trick is None else (
        table.pass_broken_per_trick)
    under = max(abs(table.under_per_taken), abs(table.under_per_missing)) * hand
    terms = [
        (abs(table.pass_made), "scoring.pass_made"),
        (abs(table.pass_broken_all or 0) * (hand if table.pass_broken_all_mode == "per_trick"
                                            else 1),
         "scoring.pass_broken_all" + (f" x {hand}" if table.pass_broken_all_mode == "per_trick"
                                      else "")),
        (abs(broken) * hand, f"a broken pass, {hand} tricks"),
        (exact * table.all_tricks_multiplier,
         f"(scoring.exact_base + scoring.exact_per_trick x {hand}) x "
         "scoring.all_tricks_multiplier"),
        (abs(table.all_tricks_per_trick or 0) * hand, f"scoring.all_tricks_per_trick x {hand}"),
        (abs(table.over_per_trick) * hand, f"scoring.over_per_trick x {hand}"),
        (abs(table.under_nothing_taken or 0), "scoring.under_nothing_taken"),
        (abs(table.under_nothing_per_bid or 0) * hand,
         f"scoring.under_nothing_per_bid x {hand}"),
        (exact if table.under_mode == "bid_value" else under,
         "a bid short" if table.under_mode == "linear" else "a bid short (bid_value)"),
    ]
    if kind.scoring == "per_trick":
        terms = [(abs(kind.per_trick) * hand, f"per_trick x {hand}")]
    elif kind.scoring == "made_or_short":
        terms += [(abs(kind.short_points), "short_points"),
                  (abs(kind.per_trick) * hand, f"per_trick x {hand}")]
    return max(terms)


#: (section, option) -> default, for options added after the first release: see ``content_hash``.
#: The section ``kinds`` stands for every deal kind (``kinds.K.option``).
HASH_NEUTRAL_DEFAULTS: dict[tuple[str, str], object] = {
    ("scoring", "under_nothing_per_bid"): None,
    ("scoring", "premium_others"): "none",
    ("scoring", "premium_last_deal"): "counts",
    ("scoring", "premium_several"): "each",
    ("match", "playoff"): "all",
    ("joker", "as_card"): False,
    ("joker", "lead_choice"): False,
    ("kinds", "multiplier_scope"): "all",
    ("scoring", "pass_broken_all_mode"): "flat",
}


class Variant(BaseModel):
    """A complete rule set. Build it with ``load_variant``; every field has a documented default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="short name, e.g. 'classic'")
    description: str = Field("", description="one line saying what the variant is")
    sources: list[str] = Field(default_factory=list, description="seed texts it follows")
    players: PlayersOptions = Field(default_factory=PlayersOptions)
    deck: DeckOptions = Field(default_factory=DeckOptions)
    schedule: ScheduleOptions = Field(default_factory=ScheduleOptions)
    trump: TrumpOptions = Field(default_factory=TrumpOptions)
    joker: JokerOptions = Field(default_factory=JokerOptions)
    bidding: BiddingOptions = Field(default_factory=BiddingOptions)
    play: PlayOptions = Field(default_factory=PlayOptions)
    kinds: dict[str, KindOptions] = Field(default_factory=dict)
    scoring: ScoringOptions = Field(default_factory=ScoringOptions)
    end: EndOptions = Field(default_factory=EndOptions)
    match: MatchOptions = Field(default_factory=MatchOptions)
    table: TableOptions = Field(default_factory=TableOptions)
    for_players: dict[int, dict[str, Any]] = Field(
        default_factory=dict, description="overrides that apply at a given player count"
    )
    _per_players: dict[int, Variant] = PrivateAttr(default_factory=dict)
    _schedules: dict[int, tuple[DealSpec, ...]] = PrivateAttr(default_factory=dict)
    #: Where the variant came from, for messages (a file, a preset, a dict); not an option.
    _source: str = PrivateAttr("")

    @model_validator(mode="after")
    def _consistent(self) -> Variant:
        for entry in self.schedule.deals:
            kind = parse_entry(entry)[3]
            if kind not in self.kinds:
                raise ValueError(
                    f"schedule block {entry!r} names the deal kind {kind!r}, which is not defined; "
                    f"known kinds: {', '.join(sorted(self.kinds))}"
                )
        deck = set(self.deck_cards_ordinary)
        for text in self.deck.joker_cards:
            if parse_card(text) not in deck:
                raise ValueError(
                    f"deck.joker_cards: card {text!r} is not in the deck (its lowest rank is "
                    f"deck.lowest_rank = {self.deck.lowest_rank}); name a card of the deck"
                )
        lock = self.joker.locked_until
        if lock is not None and parse_card(lock) >= JOKER:
            raise ValueError(
                f"joker.locked_until: {lock!r} is a Joker, which would lock the Joker until it "
                "is played itself; name an ordinary card of the deck, such as 'Qs'"
            )
        if lock is not None and parse_card(lock) not in self.deck_cards:
            raise ValueError(
                f"joker.locked_until: card {lock!r} is not in the deck as played (a card that "
                "is missing or stands for a Joker would keep the Joker locked all deal)"
            )
        for call in ("highest_trumps", "lowest_trump", "one_trump"):
            if self.trump.mode == "circular" and call in self.joker.lead_calls:
                raise ValueError(
                    f"with circular trumps the Joker may not demand {call!r} (000, 002: no trump "
                    f"is known before a suit is led): remove {call!r} from joker.lead_calls"
                )
        self._check_for_players()
        self._check_deal_points()
        return self

    def _check_for_players(self) -> None:
        """Every ``[for_players.N]`` names a count within players.min..max, and no overrides of its
        own. (A count left out by ``players.only`` is allowed: a variant extending Georgian poker
        with ``only = [4]`` inherits its ``[for_players.6]``.)"""
        low, high = self.players.min, self.players.max
        for players, section in self.for_players.items():
            if not low <= players <= high:
                raise ValueError(
                    f"[for_players.{players}]: {players} players is outside players.min.."
                    f"players.max ({low}..{high}); N goes from {low} to {high} (to narrow the "
                    "counts of a variant you extend, set players.only)"
                )
            if "for_players" in section:
                raise ValueError(
                    f"[for_players.{players}]: holds for_players itself; an override section "
                    "holds the variant's other sections (deck, schedule, scoring, ...)"
                )

    def _check_deal_points(self) -> None:
        """No deal can be worth more than ``DEAL_POINTS_LIMIT`` points to a player, so that every
        deal fits in 32 bits and every game total far inside 64."""
        hand = max(1, self.deck_size // self.players.min)
        fines = 2 * abs(self.joker.lead_fine)
        for name, kind in self.kinds.items():
            points, how = _deal_points_bound(kind, self.scoring, hand)
            total = points * kind.multiplier + fines
            if total > DEAL_POINTS_LIMIT:
                fine = f" + 2 Joker lead fines of {-self.joker.lead_fine:,}" if fines else ""
                raise ValueError(
                    f"kinds.{name}: a deal of {hand} cards could be worth {total:,} points to a "
                    f"player ({how} = {points:,}, times kinds.{name}.multiplier = "
                    f"{kind.multiplier}{fine}); one deal may be worth at most "
                    f"{DEAL_POINTS_LIMIT:,} points, so lower these values"
                )

    # -- derived, cached ----------------------------------------------------------------------

    @cached_property
    def deck_cards_ordinary(self) -> tuple[int, ...]:
        """The ordinary cards of the deck before designated Jokers are swapped in."""
        removed = {parse_card(text) for text in self.deck.removed}
        return tuple(
            make_card(rank, suit)
            for suit in SUITS
            for rank in range(self.deck.lowest_rank, 15)
            if make_card(rank, suit) not in removed
        )

    @cached_property
    def joker_stands_for(self) -> dict[int, int]:
        """Joker id -> the ordinary card it stands for (designated Jokers only)."""
        return {JOKERS[i]: parse_card(text) for i, text in enumerate(self.deck.joker_cards)}

    @cached_property
    def deck_cards(self) -> tuple[int, ...]:
        """Card ids of the deck as played: designated Joker cards replaced by Joker ids."""
        designated = set(self.joker_stands_for.values())
        cards = [card for card in self.deck_cards_ordinary if card not in designated]
        joker_count = len(designated) + self.deck.jokers
        return tuple(cards) + JOKERS[:joker_count]

    @cached_property
    def deck_mask(self) -> int:
        """The deck as played, as a card mask."""
        mask = 0
        for card in self.deck_cards:
            mask |= 1 << card
        return mask

    @property
    def deck_size(self) -> int:
        """Number of cards in the deck."""
        return len(self.deck_cards)

    @property
    def joker_count(self) -> int:
        """Number of Jokers in the deck."""
        return sum(1 for card in self.deck_cards if card >= JOKER)

    def max_hand(self, players: int) -> int:
        """The largest hand for ``players`` players: deck // players, capped by schedule.max_hand.

        ``[for_players.N]`` overrides (another deck, another cap) apply at N players.
        """
        if players in self.for_players:
            return self.for_player_count(players).max_hand(players)
        largest = self.deck_size // players
        return min(largest, self.schedule.max_hand) if self.schedule.max_hand else largest

    def for_player_count(self, players: int) -> Variant:
        """This variant with its ``[for_players.N]`` overrides applied, checked for ``players``.

        Raises ``VariantError`` when the variant cannot be played by that many players.
        """
        cached = self._per_players.get(players)
        if cached is not None:
            return cached
        variant = self
        if players in self.for_players:
            data = _merge(self.model_dump(exclude={"for_players"}), self.for_players[players])
            source = f"{self._source or repr(self.name)} [for_players.{players}]"
            variant = _validate(data, source, overrides=True)
        variant.check_players(players)
        self._per_players[players] = variant
        return variant

    def check_players(self, players: int) -> None:
        """Raise ``VariantError`` unless ``players`` may play every deal of the schedule."""
        if players not in self.player_counts():
            counts = ", ".join(map(str, self.player_counts()))
            raise VariantError(
                f"variant {self.name!r} is for {counts} players, not {players}"
            )
        largest = self.deck_size // players
        if largest < 1:
            removed = f", after deck.removed takes out {len(self.deck.removed)}" if (
                self.deck.removed) else ""
            raise VariantError(
                f"{self._where()}variant {self.name!r} cannot be dealt to {players} players: the "
                f"deck has {self.deck_size} cards{removed}; a deal needs at least one card for "
                "each player"
            )
        for deal in self.deal_schedule(players):
            if not 1 <= deal.hand_size <= largest:
                raise VariantError(
                    f"variant {self.name!r} cannot be dealt to {players} players: deal "
                    f"{deal.number + 1} needs {deal.hand_size} cards each, "
                    f"{deal.hand_size * players} in all, and the deck has {self.deck_size} "
                    f"(at most {largest} each)"
                )

    def player_counts(self) -> list[int]:
        """The player counts this variant allows."""
        counts = range(self.players.min, self.players.max + 1)
        return [n for n in counts if self.players.only is None or n in self.players.only]

    def deal_schedule(self, players: int) -> list[DealSpec]:
        """The deals of a game of ``players`` players, in order (``[for_players.N]`` applied)."""
        if players in self.for_players:
            return self.for_player_count(players).deal_schedule(players)
        cached = self._schedules.get(players)
        if cached is None:
            try:
                cached = tuple(expand(self.schedule.deals, self.max_hand(players), players))
            except ValueError as error:
                raise VariantError(f"{self._where()}key 'schedule.deals': {error}") from None
            self._schedules[players] = cached
        return list(cached)

    def _where(self) -> str:
        """``"FILE: "`` for messages, when the variant knows where it came from."""
        return f"{self._source}: " if self._source else ""

    def kind(self, name: str) -> KindOptions:
        """Options of the deal kind ``name``."""
        return self.kinds[name]

    @cached_property
    def content_hash(self) -> str:
        """A stable hash of every option value (name and description excluded), 16 hex digits.

        Options added after the first release count only when set off their default
        (``HASH_NEUTRAL_DEFAULTS``, ``options_data``), so a new option leaves every older variant's
        hash, and the datasets recorded under it, as they were."""
        data = self.options_data(exclude={"name", "description", "sources"})
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def options_data(self, exclude: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
        """The variant as JSON data (``model_dump``, the top-level fields of ``exclude`` left out),
        without the options added after the first release while they hold their default
        (``HASH_NEUTRAL_DEFAULTS``; in every deal kind for ``kinds``): two variants that differ
        only by a new option left at its default give the same data. What ``content_hash`` and
        the fitted tables' rules key (``strategies.policies.fitted.rules_key``) are made of."""
        data = self.model_dump(mode="json", exclude=set(exclude))
        for (section, key), default in HASH_NEUTRAL_DEFAULTS.items():
            found = data.get(section, {})
            tables = found.values() if section == "kinds" else [found]
            for table in tables:
                if isinstance(table, dict) and table.get(key, default) == default:
                    table.pop(key, None)
        return data

    def fixed_suit_index(self) -> int:
        """The fixed trump suit as 0..3 (only for trump.mode = fixed)."""
        return SUIT_NAMES.index(self.trump.fixed_suit or "spades")


# -- loading ------------------------------------------------------------------------------------


def presets_dir() -> Path:
    """The folder holding the preset TOML files."""
    return Path(str(resources.files("raspis.data") / "variants"))


def preset_names() -> list[str]:
    """Names of the built-in presets."""
    return sorted(path.stem for path in presets_dir().glob("*.toml"))


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read_toml(path: Path) -> dict[str, Any]:
    """The TOML of ``path``; ``VariantError`` for a file that is too large, not UTF-8, not TOML
    or nested too deep."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise VariantError(f"{path}: cannot read: {error.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise VariantError(f"{path}: more than {MAX_FILE_BYTES // 1024} KiB; a variant file is a "
                           "few kilobytes of TOML")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise VariantError(f"{path}: the file is UTF-16 (it opens with a UTF-16 byte-order mark); "
                           "TOML is UTF-8: save it as UTF-8")
    if b"\x00" in raw:
        raise VariantError(f"{path}: the file holds NUL bytes, so it is UTF-16 or UTF-32 text, or "
                           "not text at all; TOML is UTF-8: save it as UTF-8")
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark, as Windows editors write, is allowed
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise VariantError(
            f"{path}: not UTF-8 text (byte 0x{raw[error.start]:02x} on line {line} cannot be "
            "read); TOML is UTF-8: save the file as UTF-8"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise VariantError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise VariantError(f"{path}: tables or lists nested too deep to read; a variant nests at "
                           f"most {MAX_NESTING} levels") from None
    _check_nesting(data, str(path))
    return data


def _check_nesting(data: Any, source: str) -> None:
    """``VariantError`` when ``data`` nests tables and lists deeper than ``MAX_NESTING``."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise VariantError(f"{source}: tables or lists nested more than {MAX_NESTING} levels "
                               "deep; a variant nests at most five (for_players.N.kinds.K.key)")
        items = value.values() if isinstance(value, dict) else value if isinstance(
            value, list) else ()
        stack.extend((item, depth + 1) for item in items if isinstance(item, dict | list))


def _resolve(spec: str, relative_to: Path | None) -> Path:
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / spec)
        candidates.append(relative_to / f"{spec}.toml")
    candidates.append(Path(spec))
    for candidate in candidates:
        if candidate.suffix == ".toml" and candidate.is_file():
            return candidate
    preset = presets_dir() / f"{spec}.toml"
    if preset.is_file():
        return preset
    if spec.endswith(".toml") or "/" in spec:
        raise VariantError(f"variant file {spec!r} does not exist")
    raise VariantError(
        f"unknown variant {spec!r}: known presets are {', '.join(preset_names())}; "
        "or give the path of a .toml variant file"
    )


def _load_raw(path: Path, chain: tuple[Path, ...] = ()) -> dict[str, Any]:
    resolved = path.resolve()
    if resolved in chain:
        names = " -> ".join(str(p) for p in (*chain, resolved))
        raise VariantError(f"{path}: 'extends' goes round in a circle: {names}")
    if len(chain) >= MAX_EXTENDS:
        raise VariantError(f"{chain[0]}: 'extends' goes more than {MAX_EXTENDS} files deep (here "
                           f"{path}); a variant extends a preset or a file, a few levels at most")
    data = _read_toml(path)
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise VariantError(f"{path}: key 'extends': {parent!r} must be a preset name or file path")
    base = _load_raw(_resolve(parent, path.parent), (*chain, resolved))
    base.pop("name", None)
    base.pop("description", None)
    return _merge(base, data)


def _describe_location(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def _allowed_keys(loc: tuple[Any, ...]) -> list[str]:
    """The keys a table at ``loc[:-1]`` accepts (for 'unknown key' messages)."""
    model: Any = Variant
    expect_kind_name = False
    for part in loc[:-1]:
        if expect_kind_name:
            model, expect_kind_name = KindOptions, False
            continue
        fields = getattr(model, "model_fields", None)
        if fields is None or part not in fields:
            return []
        if part == "kinds":
            expect_kind_name = True
            continue
        model = fields[part].annotation
    if isinstance(model, type) and issubclass(model, BaseModel) and not expect_kind_name:
        return sorted(model.model_fields)
    return []


def _format_error(source: str, error: ValidationError, overrides: bool = False) -> VariantError:
    lines = []
    for item in error.errors():
        loc = tuple(item["loc"])
        key = _describe_location(loc)
        if item["type"] == "extra_forbidden":
            allowed = _allowed_keys(loc)
            if overrides and len(loc) == 1:  # a [for_players.N] section holds no for_players
                allowed = [name for name in allowed if name != "for_players"]
            hint = f"; allowed keys here: {', '.join(allowed)}" if allowed else ""
            lines.append(f"{source}: unknown key '{key}'{hint}")
        elif item["type"] == "value_error" or not loc:
            message = str(item["msg"]).removeprefix("Value error, ")
            named = message.startswith((f"{key}.", f"{key}:", f"{key} ")) or not loc
            lines.append(f"{source}: {message}" if named else f"{source}: key '{key}': {message}")
        elif loc[-1] == "[key]":  # a table key of the wrong type: [for_players.abc]
            lines.append(f"{source}: key '{_describe_location(loc[:-1])}': the name "
                         f"{shown(item['input'], 60)} is not allowed: {item['msg']}")
        else:
            lines.append(
                f"{source}: key '{key}': {shown(item['input'], 60)} is not allowed: {item['msg']}"
            )
    return VariantError("\n".join(lines))


def _validate(data: dict[str, Any], source: str, overrides: bool = False) -> Variant:
    """``data`` as a ``Variant`` (builtin kinds merged in); ``VariantError`` naming ``source``.

    ``overrides``: ``data`` is a variant with a ``[for_players.N]`` section applied.
    """
    _check_nesting(data, source)
    data = dict(data)
    kinds = {name: dict(values) for name, values in BUILTIN_KINDS.items()}
    user_kinds = data.get("kinds", {})
    if not isinstance(user_kinds, dict):
        raise VariantError(f"{source}: key 'kinds' must be a table of deal kinds")
    for name, values in user_kinds.items():
        if not isinstance(values, dict):
            raise VariantError(f"{source}: key 'kinds.{name}' must be a table")
        kinds[name] = _merge(kinds.get(name, {}), values)
    data["kinds"] = kinds
    try:
        variant = Variant.model_validate(data)
    except ValidationError as error:
        raise _format_error(source, error, overrides) from None
    except ValueError as error:  # a card that cannot be parsed, raised outside pydantic's wrapping
        raise VariantError(f"{source}: {error}") from None
    variant._source = source
    return variant


def load_variant(spec: str | Path) -> Variant:
    """Load a variant by preset name (``classic``) or by the path of a TOML file."""
    path = spec if isinstance(spec, Path) else _resolve(spec, None)
    data = _load_raw(path)
    data.setdefault("name", path.stem)
    source = str(path) if path.parent != presets_dir() else f"preset {path.stem!r}"
    variant = _validate(data, source)
    _check_overrides(variant)
    return variant


def _check_overrides(variant: Variant) -> None:
    """Validate every ``[for_players.N]`` section at load time: applied and dealt at N players
    when N is a player count, applied and validated when ``players.only`` leaves N out."""
    counts = variant.player_counts()
    for players, section in variant.for_players.items():
        if players in counts:
            variant.for_player_count(players)
        else:
            data = _merge(variant.model_dump(exclude={"for_players"}), section)
            _validate(data, f"{variant._source} [for_players.{players}]", overrides=True)


def variant_from_dict(data: dict[str, Any], source: str = "<dict>") -> Variant:
    """Build a variant from a dict shaped like a TOML file (``extends``: a preset or a file)."""
    data = dict(data)
    parent = data.pop("extends", None)
    if parent is not None:
        base = _load_raw(_resolve(str(parent), None))
        base.pop("name", None)
        base.pop("description", None)
        data = _merge(base, data)
    data.setdefault("name", "custom")
    variant = _validate(data, source)
    _check_overrides(variant)  # overrides must be valid too, as in load_variant
    return variant
