"""Bad variant input: every case is a clear ``VariantError`` naming the file, the key,
the bad value and what is allowed; on the command line (``variants validate``, ``variants show``,
``play --variant``) it is exit status 2 and one message, never a traceback, never a hang.

Each test writes a small TOML file to ``tmp_path``. The cases are the ones found by trying the
loaders as a hostile user would: files that are not UTF-8 or nest 100,000 deep, schedules of no
deals or of billions, scores past 64 bits, empty or impossible player counts, Jokers and decks that
contradict themselves, and ``[for_players.N]`` sections that were never checked.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.engine import VariantError, load_variant
from raspis.engine.schedule import MAX_DEALS


def write(tmp_path: Path, text: str | bytes, name: str = "bad.toml") -> Path:
    """A variant file in ``tmp_path``: ``text`` as UTF-8, or ``bytes`` as they are."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load_and_deal(path: Path) -> None:
    """What ``variants validate`` does: load, then resolve and deal every player count."""
    variant = load_variant(path)
    for players in variant.player_counts():
        variant.for_player_count(players).deal_schedule(players)


def expect_error(path: Path, *fragments: str, players: int = 4) -> str:
    """The library and all three commands refuse ``path`` with a message holding the file name
    and every fragment; the commands exit with status 2 and print no traceback."""
    with pytest.raises(VariantError) as caught:
        load_and_deal(path)
    message = str(caught.value)
    for fragment in (path.name, *fragments):
        assert fragment in message, (fragment, message)
    commands = (
        ["variants", "validate", str(path)],
        ["variants", "show", str(path)],
        ["play", "--variant", str(path), "--players", str(players)],
    )
    for arguments in commands:
        result = CliRunner().invoke(cli, arguments)
        assert result.exit_code == 2, (arguments, result.output)
        assert isinstance(result.exception, SystemExit), (arguments, result.exception)
        assert "Traceback" not in result.output
        assert result.output.startswith("error: "), (arguments, result.output)
        assert path.name in result.output and fragments[0] in result.output, result.output
    return message


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail, rather than hang, when a test runs past 10 seconds (the old code hung here)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError("the variant took more than 10 s to be refused")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(10)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- the file itself ------------------------------------------------------------------------------


def test_a_latin1_file_is_refused_as_not_utf8(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\nname = "caf\xe9"\n'.encode("latin-1"))
    message = expect_error(path, "not UTF-8", "0xe9", "line 2")
    assert "save the file as UTF-8" in message


def test_a_utf16_file_is_refused_with_its_encoding_named(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\nbidding.hook = "off"\n'.encode("utf-16"))
    message = expect_error(path, "UTF-16")
    assert "save it as UTF-8" in message


def test_a_utf16_file_without_a_byte_order_mark_is_refused_too(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\n'.encode("utf-16-le"))
    expect_error(path, "NUL bytes", "UTF-16")


def test_a_utf8_byte_order_mark_is_read_as_utf8(tmp_path: Path) -> None:
    # Windows editors write one; it is not a mistake.
    path = write(tmp_path, '\ufeffextends = "classic"\nbidding.hook = "off"\n'.encode())
    assert load_variant(path).bidding.hook == "off"


@pytest.mark.parametrize(
    "value",
    ["[" * 100_000 + "]" * 100_000, "{a = " * 100_000 + "1" + "}" * 100_000],
    ids=["lists", "tables"],
)
def test_toml_nested_100000_deep_is_refused(tmp_path: Path, value: str, deadline: None) -> None:
    path = write(tmp_path, f'extends = "classic"\nsources = {value}\n')
    expect_error(path, "nested too deep", "at most 16")


def test_toml_nested_deeper_than_16_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\nsources = ' + "[" * 40 + "]" * 40 + "\n")
    expect_error(path, "nested more than 16 levels")


def test_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\n' + "# padding\n" * 200_000)
    expect_error(path, "more than 1024 KiB")


# -- schedules ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "fragments"),
    [
        ("0", ["'0'", "a hand of 0 cards", "from 1 to 54"]),
        ("max*0", ["'max*0'", "'*0'", "from 1 to 1000"]),
        ("max-99", ["'max-99'", "99 is too large", "up to 54"]),
        ("max-30", ["'max-30'", "gives no deal", "at least one deal"]),
        ("max*max-99", ["'max*max-99'", "up to 54"]),
        ("1..3*max-20", ["'1..3*max-20'", "gives no deal", "repeated"]),
    ],
)
def test_a_schedule_block_of_no_deals_is_refused(
    tmp_path: Path, block: str, fragments: list[str]
) -> None:
    # Each validated as ok and crashed `play` (IndexError) or gave 0-deal games.
    path = write(tmp_path, f'extends = "classic"\nschedule.deals = ["{block}"]\n')
    expect_error(path, "schedule.deals", *fragments)


def test_a_block_of_no_deals_beside_good_ones_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\nschedule.deals = ["1..max", "max-30 dark"]\n')
    expect_error(path, "schedule.deals", "'max-30 dark' gives no deal")


@pytest.mark.parametrize(
    ("block", "fragments"),
    [
        ("1..99999999999", ["'1..99999999999'", "hand size 99999999999 is too large", "up to 54"]),
        ("max*99999999999", ["'max*99999999999'", "99999999999 is too large", "up to 1000"]),
        ("1" * 5000, ["the hand size", "is too large"]),
        ("1..max*200", ["'1..max*200'", f"more than {MAX_DEALS} deals", "at most 1000 deals"]),
    ],
)
def test_an_absurd_schedule_is_refused_before_it_is_expanded(
    tmp_path: Path, block: str, fragments: list[str], deadline: None
) -> None:
    # "1..99999999999" hung `validate` while memory grew.
    path = write(tmp_path, f'extends = "classic"\nschedule.deals = ["{block}"]\n')
    message = expect_error(path, "schedule.deals", *fragments)
    assert len(message) < 1000  # the bad value is shown cut short


def test_a_schedule_of_too_many_blocks_is_refused(tmp_path: Path) -> None:
    blocks = ", ".join(['"1"'] * (MAX_DEALS + 1))
    path = write(tmp_path, f'extends = "classic"\nschedule.deals = [{blocks}]\n')
    expect_error(path, "schedule.deals", "1001 blocks", "at most 1000 deals")


# -- points ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("scoring.exact_per_trick", "99999999999999999999", "less than or equal to 1000000000"),
        ("scoring.under_per_missing", "-9223372036854775809",
         "greater than or equal to -1000000000"),
        ("scoring.premium_points", "10000000000", "less than or equal to 1000000000"),
        ("scoring.under_nothing_taken", "-10000000000", "greater than or equal to -1000000000"),
        ("kinds.golden.per_trick", "9223372036854775807", "less than or equal to 1000000000"),
        ("kinds.dark.multiplier", "9000000000000000000", "less than or equal to 100"),
        ("scoring.all_tricks_multiplier", "101", "less than or equal to 100"),
        ("joker.lead_fine", "-10000000000", "greater than or equal to -1000000000"),
    ],
)
def test_a_points_value_past_its_bound_is_refused(
    tmp_path: Path, key: str, value: str, allowed: str
) -> None:
    # Values past 64 bits validated and crashed the Parquet shard write.
    path = write(tmp_path, f'extends = "classic"\n{key} = {value}\n')
    expect_error(path, f"key '{key}'", value, allowed)


def test_points_within_bounds_that_multiply_past_a_deal_limit_are_refused(tmp_path: Path) -> None:
    # Each value is within its bound; together a dark deal of 18 cards could be worth 1.8e9.
    path = write(tmp_path, 'extends = "classic"\nscoring.exact_per_trick = 1000000\n'
                 "kinds.dark.multiplier = 100\n")
    expect_error(path, "kinds.dark", "1,800,000,000", "kinds.dark.multiplier = 100",
                 "at most 1,000,000,000 points")


def test_the_points_bounds_are_documented() -> None:
    variant = load_variant("classic")
    fields = type(variant.scoring).model_fields
    assert "10^9" in fields["exact_per_trick"].description
    assert "1 to 100" in type(variant.kind("dark")).model_fields["multiplier"].description


# -- players --------------------------------------------------------------------------------------


def test_players_only_empty_is_refused(tmp_path: Path) -> None:
    # Crashed `variants show` (IndexError).
    path = write(tmp_path, 'extends = "classic"\nplayers.only = []\n')
    expect_error(path, "players.only = []", "players.min to players.max (2..6)")


def test_players_only_outside_min_max_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\nplayers.only = [3, 9]\n')
    expect_error(path, "players.only = [3, 9]", "[9] outside", "(2..6)")


def test_players_only_naming_a_count_twice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\nplayers.only = [4, 4]\n')
    expect_error(path, "players.only = [4, 4]", "[4] twice")


# -- Jokers and the deck --------------------------------------------------------------------------


@pytest.mark.parametrize("second", ["7s", "7♠"])
def test_a_duplicate_joker_card_is_refused(tmp_path: Path, second: str) -> None:
    path = write(tmp_path, f'extends = "classic"\ndeck.joker_cards = ["7s", "{second}"]\n')
    expect_error(path, "deck.joker_cards", f"'7s' and '{second}' are the same card", "once")


def test_a_joker_card_that_is_a_joker_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\ndeck.joker_cards = ["JK"]\n')
    expect_error(path, "deck.joker_cards", "'JK' is a Joker", "deck.jokers")


@pytest.mark.parametrize("joker", ["JK", "JK2", "joker"])
def test_the_joker_locked_until_a_joker_is_refused(tmp_path: Path, joker: str) -> None:
    path = write(tmp_path, f'extends = "classic"\njoker.locked_until = "{joker}"\n')
    expect_error(path, "joker.locked_until", f"'{joker}' is a Joker", "ordinary card")


def test_removing_a_joker_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "joker-52"\ndeck.removed = ["JK"]\n')
    expect_error(path, "deck.removed", "'JK' is a Joker", "deck.jokers")


def test_removing_the_designated_joker_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\ndeck.removed = ["7s"]\n')
    expect_error(path, "deck.removed", "'7s' is also a Joker in deck.joker_cards")


def test_removing_a_card_twice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\ndeck.removed = ["6s", "6♠"]\n')
    expect_error(path, "deck.removed", "'6s' and '6♠' are the same card")


def test_removing_a_card_the_deck_does_not_hold_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\ndeck.removed = ["2s"]\n')
    expect_error(path, "deck.removed", "'2s'", "rank 6 or higher")


def test_removing_every_card_is_refused(tmp_path: Path) -> None:
    cards = [f"{rank}{suit}" for rank in "6789TJQKA" for suit in "scdh" if f"{rank}{suit}" != "7s"]
    path = write(tmp_path, f'extends = "classic"\ndeck.removed = {cards}\n')
    expect_error(path, "deck.removed takes out 35", "leaving 1", "at least one card")


def test_removing_too_many_cards_for_the_players_is_refused(tmp_path: Path) -> None:
    # 2 cards left: playable by 2 players, not by 3 or more.
    cards = [f"{rank}{suit}" for rank in "6789TJQKA" for suit in "scdh" if f"{rank}{suit}" != "7s"]
    path = write(tmp_path, f'extends = "classic"\ndeck.removed = {cards[:34]}\n')
    expect_error(path, "cannot be dealt to 3 players", "the deck has 2 cards",
                 "deck.removed takes out 34", "at least one card for each player", players=3)


# -- [for_players.N] ------------------------------------------------------------------------------


def test_an_unknown_key_in_for_players_is_refused_at_load(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\n[for_players.3]\nbidding.hoook = "off"\n')
    message = expect_error(path, "[for_players.3]", "unknown key 'bidding.hoook'", "hook_from_deal")
    assert "for_players, " not in message.split("allowed keys here:")[-1]


def test_an_unknown_section_in_for_players_lists_the_sections_allowed(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\n[for_players.3]\nbogus = 1\n')
    message = expect_error(path, "[for_players.3]", "unknown key 'bogus'", "schedule, scoring")
    assert "for_players" not in message.split("allowed keys here:")[-1]


@pytest.mark.parametrize("players", [1, 7, 12])
def test_for_players_outside_the_player_range_is_refused(tmp_path: Path, players: int) -> None:
    # Was accepted and silently never used.
    path = write(tmp_path, f'extends = "classic"\n[for_players.{players}]\nbidding.hook = "off"\n')
    expect_error(path, f"[for_players.{players}]", "outside players.min..players.max (2..6)",
                 "from 2 to 6")


def test_for_players_left_out_by_players_only_is_still_validated(tmp_path: Path) -> None:
    # Georgian poker is for 4 or 6 players: a [for_players.5] section was never looked at.
    path = write(tmp_path, 'extends = "georgian"\n[for_players.5]\nbidding.hook = "never"\n')
    expect_error(path, "[for_players.5]", "'bidding.hook'", "'never'", "'always'")


def test_for_players_with_a_name_that_is_not_a_count_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\n[for_players.four]\nbidding.hook = "off"\n')
    expect_error(path, "for_players.four", "'four'", "valid integer")


def test_for_players_inside_for_players_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\n[for_players.3.for_players.4]\n'
                 'bidding.hook = "off"\n')
    expect_error(path, "[for_players.3]", "holds for_players itself")


def test_a_for_players_schedule_of_no_deals_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "classic"\n[for_players.4]\nschedule.deals = ["max*0"]\n')
    expect_error(path, "[for_players.4]", "schedule.deals", "'*0'")


def test_a_narrowed_georgian_keeps_its_inherited_overrides(tmp_path: Path) -> None:
    # The [for_players.6] of georgian cannot be removed by a child: only = [4] must still load.
    path = write(tmp_path, 'extends = "georgian"\nplayers.only = [4]\n')
    variant = load_variant(path)
    assert variant.player_counts() == [4]
    result = CliRunner().invoke(cli, ["variants", "validate", str(path)])
    assert result.exit_code == 0, result.output


# -- the command line -----------------------------------------------------------------------------


def test_validate_reports_every_bad_file_and_exits_2(tmp_path: Path) -> None:
    first = write(tmp_path, 'extends = "classic"\nplayers.only = []\n', "first.toml")
    good = write(tmp_path, 'extends = "classic"\n', "good.toml")
    second = write(tmp_path, 'extends = "classic"\nschedule.deals = ["0"]\n', "second.toml")
    result = CliRunner().invoke(cli, ["variants", "validate", str(first), str(good), str(second)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "first.toml" in result.output and "second.toml" in result.output
    assert f"{good}: ok" in result.output


def test_show_prints_nothing_before_an_error(tmp_path: Path) -> None:
    cards = [f"{rank}{suit}" for rank in "6789TJQKA" for suit in "scdh" if f"{rank}{suit}" != "7s"]
    path = write(tmp_path, f'extends = "classic"\ndeck.removed = {cards[:34]}\n')
    result = CliRunner().invoke(cli, ["variants", "show", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and "schedule for" not in result.output


# -- other values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "key", "fragment"),
    [("scoring.pass_made = true", "scoring.pass_made", "true is not a number"),
     ("players.only = [true, 4]", "players.only", "holds true or false"),
     ("kinds.dark.multiplier = false", "kinds.dark.multiplier", "false is not a number")],
)
def test_true_or_false_where_a_number_belongs_is_refused(
    tmp_path: Path, line: str, key: str, fragment: str
) -> None:
    # Was read as 1 or 0.
    path = write(tmp_path, f'extends = "classic"\n{line}\n')
    expect_error(path, f"key '{key}'", fragment, "whole number")


@pytest.mark.parametrize(
    ("line", "allowed"),
    [("end.tie_deals = 1000000000000", "less than or equal to 100"),
     ("match.games = 1000000", "less than or equal to 99"),
     ("bidding.hook_from_deal = 99999999999999999999", "less than or equal to 1000"),
     ("trump.named_after_cards = 1000", "less than or equal to 54")],
)
def test_a_count_past_its_bound_is_refused(tmp_path: Path, line: str, allowed: str) -> None:
    # tie_deals sizes the batch engine's arrays; match.games is played game by game.
    path = write(tmp_path, f'extends = "classic"\n{line}\n')
    key, value = line.split(" = ")
    expect_error(path, f"key '{key}'", value, allowed)


def test_an_extends_chain_too_long_is_refused(tmp_path: Path, deadline: None) -> None:
    for number in range(2000):
        write(tmp_path, f'extends = "v{number + 1}.toml"\n', f"v{number}.toml")
    write(tmp_path, 'extends = "classic"\n', "v2000.toml")
    expect_error(tmp_path / "v0.toml", "'extends' goes more than 32 files deep")
