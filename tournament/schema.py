"""The tournament dataset's schema, defined once, and checked on read.

A run directory holds ``manifest.json`` and four Parquet tables, one file per shard in each:

``games/``       one row per seat per game (always written);
``deals/``       one row per seat per deal (written by default for runs of at most
                 ``DEAL_ROWS_DEFAULT_LIMIT`` games, on request beyond);
``deal_stats/``  per-shard sums over deals, grouped by strategy, position and deal, mergeable by
                 adding them up (always written), so balance statistics exist for any run size;
``game_sums/``   each game's deal-level sums, one row a game (written by every run since they
                 exist), so deal-level statistics are clustered over deal sets without ``deals/``.

The sums of ``deal_stats`` are kept per *block of deal sets* (``deal_block``): deal set d of a run
of D deal sets is in block ``d * DEAL_BLOCKS // D`` (``deal_block``), so a run has min(D, 64)
blocks of consecutive deal sets, of sizes differing by at most one, the same under every variant
and seating of the run. Deal sets are independent (each has its own seed), so blocks are too: the
deal-level intervals of a run without per-deal rows are clustered over blocks
(``raspis.analysis.balance``). Runs written before this column read back with ``deal_block``
null (``OPTIONAL_COLUMNS``), and their intervals treat seat-deals as independent, as they did.

The outcome measures of the balance profile (``raspis.analysis.profile``) are recorded with the
rows they come from: each game's ``comeback`` and ``decided_deals_left`` (``engine.batch.result.
drama_of``), and each group's ``top_credit``, the deals its seats scored the most in. Runs
written before them read back with nulls, and the profile says those measures are missing.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import polars as pl
from raspis.engine.errors import RaspisError

#: Runs with at most this many games write per-deal rows unless told otherwise.
DEAL_ROWS_DEFAULT_LIMIT = 20_000

GAMES_SCHEMA: dict[str, pl.DataType] = {
    "variant": pl.String(),          # variant name
    "variant_hash": pl.String(),     # content hash of all its options
    "deal_set": pl.Int64(),          # game number before seating: same deal_set, same cards
    "seating": pl.Int32(),           # index of the seating (rotation/permutation) played
    "game_id": pl.Int64(),           # unique within the run
    "seed": pl.UInt64(),             # the game seed (derived from the root seed and deal_set)
    "players": pl.Int32(),
    "seat": pl.Int32(),
    "first_dealer": pl.Int32(),
    "strategy": pl.String(),         # the strategy spec sitting at this seat
    "lineup_slot": pl.Int32(),       # the strategy's position in the --strategies list
    "score": pl.Int64(),             # final total (the total so far for an errored game)
    "place": pl.Int32(),             # 1 = best, shared on ties
    "winner": pl.Boolean(),          # place == 1
    "double_loss": pl.Boolean(),     # negative total under end.negative_total = double_loss
    "deals_played": pl.Int32(),
    "lead_changes": pl.Int32(),      # times the leader (highest total) changed during the game
    "comeback": pl.Boolean(),        # a winner was behind with a third of the deals left
    "decided_deals_left": pl.Int32(),  # deals left when no play could change the winner (0: never)
    "errored": pl.Boolean(),         # a strategy failed; the game did not finish
    "error": pl.String(),            # what failed (null when not errored)
}

DEALS_SCHEMA: dict[str, pl.DataType] = {
    "variant_hash": pl.String(),
    "game_id": pl.Int64(),
    "deal_set": pl.Int64(),
    "seating": pl.Int32(),
    "deal_index": pl.Int32(),        # 0-based position in the schedule
    "block": pl.Int32(),             # schedule block (pulka); -1 for a tie-break deal
    "kind": pl.String(),
    "special": pl.Boolean(),
    "hand_size": pl.Int32(),
    "seat": pl.Int32(),
    "strategy": pl.String(),
    "dealer_offset": pl.Int32(),     # 0 = the dealer, 1 = left of the dealer (bids first), ...
    "trump": pl.Int32(),             # 0..3 = ♠♣♦♥, -1 = none
    "bid": pl.Int32(),               # null in deals without bidding
    "tricks": pl.Int32(),
    "points": pl.Int64(),            # deal points, fines included, premium excluded
    "premium": pl.Int64(),
    "jokers_held": pl.Int32(),       # how many Jokers this seat was dealt
    "held_joker1": pl.Boolean(),
    "held_joker2": pl.Boolean(),
    "hook_forced": pl.Boolean(),     # dealer rows: the hook removed a bid that was open
}

#: Blocks of deal sets a run's ``deal_stats`` sums are kept in (see the module doc).
DEAL_BLOCKS = 64

DEAL_STATS_SCHEMA: dict[str, pl.DataType] = {
    "variant_hash": pl.String(),
    "deal_block": pl.Int32(),        # deal_set * DEAL_BLOCKS // deal sets of the run
    "strategy": pl.String(),
    "dealer_offset": pl.Int32(),
    "deal_index": pl.Int32(),
    "kind": pl.String(),
    "special": pl.Boolean(),
    "hand_size": pl.Int32(),
    "held_joker1": pl.Boolean(),
    "held_joker2": pl.Boolean(),
    "count": pl.Int64(),             # seat-deals in the group
    "points_sum": pl.Int64(),
    "points_sq_sum": pl.Int64(),
    "bids": pl.Int64(),              # seat-deals with a bid
    "bid_sum": pl.Int64(),
    "tricks_sum": pl.Int64(),
    "made": pl.Int64(),              # bid == tricks
    "over": pl.Int64(),
    "under": pl.Int64(),
    "passes": pl.Int64(),            # bid == 0
    "passes_made": pl.Int64(),
    "hook_forced": pl.Int64(),
    "top_credit": pl.Int64(),        # deals topped (the most deal points), in 1/TOP_UNITS
}

#: ``top_credit`` counts a deal a seat topped alone as ``TOP_UNITS`` and one whose top k seats
#: share as ``TOP_UNITS / k``: every k up to the 10 players a variant may seat divides it, so the
#: sums stay exact integers and add up across shards.
TOP_UNITS = 2520

#: The group key of ``deal_stats`` (every column before the sums); shards sort their rows by it.
DEAL_STATS_KEYS: list[str] = list(DEAL_STATS_SCHEMA)[:list(DEAL_STATS_SCHEMA).index("count")]

#: The deal-level sums of each game (``game_sums/``: one row per game): what every deal-level
#: statistic of the analysis reads, so that they are clustered over deal sets for runs of any size
#: without per-deal rows (summed over a deal set's games: ``analysis.units.deal_totals``).
GAME_SUMS_SCHEMA: dict[str, pl.DataType] = {
    "variant_hash": pl.String(),
    "game_id": pl.Int64(),
    "deal_set": pl.Int64(),
    "seating": pl.Int32(),
    "errored": pl.Boolean(),
    "seat_deals": pl.Int64(),        # seat-deals played (a tie-break deal: its tied seats)
    "points": pl.Int64(),            # their deal points, fines included, premium excluded
    "dealer_n": pl.Int64(),          # the dealer's seat-deals with a bid
    "dealer_points": pl.Int64(),
    "other_n": pl.Int64(),           # the other seats' seat-deals with a bid
    "other_points": pl.Int64(),
    "forced": pl.Int64(),            # the dealer's bids the hook restricted
    "bids": pl.Int64(),
    "made": pl.Int64(),
    "over": pl.Int64(),
    "under": pl.Int64(),
    "passes": pl.Int64(),
    "none_n": pl.Int64(),            # seat-deals holding no Joker
    "none_points": pl.Int64(),
    "joker_n": pl.Int64(),           # seat-deals holding the first Joker alone
    "joker_points": pl.Int64(),
    "dealer_deals": pl.Int64(),      # the dealer's seat-deals
    "dealer_top": pl.Int64(),        # the dealer's deals topped (``top_credit``, TOP_UNITS)
    "none_top": pl.Int64(),
    "joker_top": pl.Int64(),
}

TABLES: dict[str, dict[str, pl.DataType]] = {
    "games": GAMES_SCHEMA,
    "deals": DEALS_SCHEMA,
    "deal_stats": DEAL_STATS_SCHEMA,
    "game_sums": GAME_SUMS_SCHEMA,
}


def shard_tables(deal_rows: bool, game_sums: bool = True) -> list[str]:
    """The tables a shard writes: ``deal_stats`` and ``games`` always (the games file last, the
    mark of a finished shard), ``deals`` with per-deal rows, ``game_sums`` in a run that records
    them (every run since they exist: the manifest says ``game_sums``)."""
    return (["deal_stats"] + (["game_sums"] if game_sums else []) + ["games"]
            + (["deals"] if deal_rows else []))

#: Columns a table's files may lack (written by an older raspis): they read back as nulls.
OPTIONAL_COLUMNS: dict[str, frozenset[str]] = {
    "games": frozenset({"comeback", "decided_deals_left"}),
    "deals": frozenset(),
    "deal_stats": frozenset({"deal_block", "top_credit"}),
    "game_sums": frozenset(),
}


def deal_block(deal_set: int, total_deal_sets: int) -> int:
    """The block of ``deal_set`` in a run of ``total_deal_sets`` deal sets (0 .. DEAL_BLOCKS-1)."""
    return deal_set * DEAL_BLOCKS // max(1, total_deal_sets)


class DatasetError(RaspisError):
    """A run directory that is missing, incomplete, or whose files do not match the schema."""


def empty_frame(table: str) -> pl.DataFrame:
    """An empty frame of a table's schema."""
    return pl.DataFrame(schema=TABLES[table])


def check_frame(frame: pl.DataFrame | pl.LazyFrame, table: str, source: str) -> None:
    """Raise ``DatasetError`` unless ``frame`` has exactly the table's columns and types (an
    ``OPTIONAL_COLUMNS`` column may be missing)."""
    expected = TABLES[table]
    actual = dict(frame.collect_schema()) if isinstance(frame, pl.LazyFrame) else dict(frame.schema)
    missing = [name for name in expected
               if name not in actual and name not in OPTIONAL_COLUMNS[table]]
    extra = [name for name in actual if name not in expected]
    wrong = [f"{name} is {actual[name]}, expected {expected[name]}"
             for name in expected if name in actual and actual[name] != expected[name]]
    if missing or extra or wrong:
        parts = []
        if missing:
            parts.append(f"missing columns {missing}")
        if extra:
            parts.append(f"unexpected columns {extra}")
        if wrong:
            parts.append("; ".join(wrong))
        raise DatasetError(f"{source}: does not match the {table} schema: {'; '.join(parts)}")


def complete_frame(frame: pl.LazyFrame, table: str) -> pl.LazyFrame:
    """``frame`` (checked) with the optional columns it lacks added as nulls, in schema order."""
    present = frame.collect_schema().names()
    expected = TABLES[table]
    missing = [pl.lit(None, dtype=expected[name]).alias(name)
               for name in expected if name not in present]
    return (frame.with_columns(missing) if missing else frame).select(list(expected))


def repair_hint(run_dir: str | Path) -> str:
    """How to repair a run with damaged or missing shard files."""
    return (f"repair: run the same `raspis tournament ... --out {run_dir}` command with --resume "
            f"(it re-plays shards that do not read back); `raspis verify {run_dir}` lists every "
            "problem")


def first_line(error: BaseException) -> str:
    """``Type: first line of the message`` of a (polars) error."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


def damaged(path: Path, error: BaseException, hint: bool = True) -> DatasetError:
    """The error for a shard file that cannot be read: names the file and (``hint``) the
    repair."""
    size = path.stat().st_size if path.exists() else 0
    what = "is empty" if size == 0 else f"cannot be read ({first_line(error)})"
    repair = f"; {repair_hint(path.parent.parent)}" if hint else ""
    return DatasetError(f"{path} {what}: the file is damaged (truncated or overwritten){repair}")


#: what reading a damaged Parquet file raises: polars' errors, and the panic of its Rust reader
#: on some garbled bytes (``PanicException``, a ``BaseException``: ``except Exception`` misses it)
UNREADABLE = (Exception, pl.exceptions.PanicException)


def read_table_file(path: Path, table: str, hint: bool = True) -> pl.DataFrame:
    """One shard file read in full and schema-checked; ``DatasetError`` naming it (and with
    ``hint`` the repair) otherwise."""
    try:
        frame = pl.read_parquet(path)
    except UNREADABLE as error:  # polars: truncated, empty, garbage
        raise damaged(path, error, hint) from None
    check_frame(frame, table, str(path))
    return frame


def scan_table(run_dir: str | Path, table: str,
               shards: Collection[str] | None = None) -> pl.LazyFrame:
    """A lazy scan of one table of a run, schema-checked (empty frame when it has no files); a
    file whose footer cannot be read gives a ``DatasetError`` naming it and the repair.
    ``shards``: only the files of these shard ids (the run's planned shards)."""
    folder = Path(run_dir) / table
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
    if shards is not None:
        files = [path for path in files if path.stem in shards]
    if not files:
        return empty_frame(table).lazy()
    complete = True
    for path in files:  # reads each file's footer only
        try:
            scan = pl.scan_parquet(path)
            names = scan.collect_schema().names()
        except UNREADABLE as error:  # polars: truncated, empty, garbage
            raise damaged(path, error) from None
        check_frame(scan, table, str(path))
        complete = complete and len(names) == len(TABLES[table])
    if complete:
        return pl.scan_parquet(files)
    # files of an older raspis (a run resumed after an upgrade may mix both): one scan each
    return pl.concat([complete_frame(pl.scan_parquet(path), table) for path in files])


def find_damaged(run_dir: str | Path) -> list[str]:
    """Every shard file of a run that does not read back in full, with why (slow: reads all)."""
    problems = []
    for table in TABLES:
        folder = Path(run_dir) / table
        for path in sorted(folder.glob("*.parquet")) if folder.is_dir() else []:
            try:
                read_table_file(path, table)
            except DatasetError as error:
                problems.append(str(error))
    return problems
