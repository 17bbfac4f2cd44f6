"""``strong``'s bid table for a variant without a shipped one: ``raspis strategies fit``
fits one into the user's folder (``RASPIS_FIT_DIR``), where ``policies.fitted.find_fit`` finds it;
until then the variant bids with the nearest preset's table, and one line on stderr says so."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from raspis.cli.main import cli
from raspis.engine import load_variant
from raspis.strategies.policies import fitted
from raspis.strategies.policies.fitted import (
    find_fit,
    fit_notice,
    fit_path,
    load_fit,
    rules_distance,
    rules_hash,
    say_fit_notices,
    uses_strong,
)

#: one option away from classic: what an exact bid scores a trick
MOD = 'name = "classic-mod"\nextends = "classic"\nscoring.exact_per_trick = 20\n'


@pytest.fixture
def fits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty fit folder of the user's, and notices that may be said again."""
    folder = tmp_path / "fits"
    monkeypatch.setenv("RASPIS_FIT_DIR", str(folder))
    fitted._say.cache_clear()
    return folder


@pytest.fixture
def mod_file(tmp_path: Path) -> Path:
    path = tmp_path / "classic-mod.toml"
    path.write_text(MOD)
    return path


def fit(*arguments: str):  # noqa: ANN201
    return CliRunner().invoke(cli, ["strategies", "fit", "-q", *arguments])


def test_the_fit_command_writes_a_table_find_fit_then_finds(fits: Path, mod_file: Path) -> None:
    variant = load_variant(mod_file).for_player_count(4)
    assert find_fit(variant, 4).kind == "nearest"
    result = fit("--variant", str(mod_file), "--games", "20", "--card-games", "1")
    assert result.exit_code == 0, result.output
    path = fits / f"{rules_hash(variant)}-4.npz"
    assert path.is_file() and str(path) in result.output
    found = find_fit(variant, 4)
    assert (found.kind, found.source, found.path) == ("user", "classic-mod", path)
    assert found.exact and fit_notice(variant, 4) is None
    # its own card model, fitted on the one game's cards: not classic's
    assert found.cards is not None and found.cards_source is None
    assert not np.array_equal(found.cards.weights,
                              find_fit(load_variant("classic"), 4).cards.weights)
    with np.load(path) as data:
        assert int(data["deck"]) == variant.deck_mask
        assert int(data["games"]) == 20 and int(data["seed"]) == 1
        assert int(data["cards_games"]) == 1
    # 20 games of classic's 28 deals, four bids a deal (some seats have no choice)
    bids = sum(int(block.sum()) for block in found.counts.values())
    assert 1_000 < bids <= 20 * 28 * 4
    assert set(found.counts) == set(range(1, 10))
    # it is not classic's table
    classic = load_fit("classic", 4, variant.deck_mask)
    assert any(not np.array_equal(found.counts[size], classic[size]) for size in classic)


def test_a_fit_without_a_card_model_plays_the_nearest_presets_and_says_so(
        fits: Path, mod_file: Path) -> None:
    variant = load_variant(mod_file).for_player_count(4)
    assert fit("--variant", str(mod_file), "--games", "20", "--card-games", "0").exit_code == 0
    found = find_fit(variant, 4)
    assert found.kind == "user" and found.cards_source == "classic"
    assert np.array_equal(found.cards.weights, find_fit(load_variant("classic"), 4).cards.weights)
    assert fit_notice(variant, 4, str(mod_file)) == (
        "strong: classic-mod at 4 players bids with the table fitted for it, but its card model "
        "is classic's (the nearest preset's). Fit its own: raspis strategies fit --variant "
        f"{mod_file}")


def test_the_same_seed_writes_the_same_file(fits: Path, mod_file: Path) -> None:
    variant = load_variant(mod_file).for_player_count(4)
    path = fits / f"{rules_hash(variant)}-4.npz"
    contents = []
    for seed in ("3", "3", "4"):
        assert fit("--variant", str(mod_file), "--games", "20", "--seed", seed,
                   "--card-games", "0").exit_code == 0
        contents.append(path.read_bytes())
    assert contents[0] == contents[1]
    assert contents[0] != contents[2]


def test_a_variant_one_option_away_bids_with_classics_table(fits: Path, mod_file: Path,
                                                            capsys: pytest.CaptureFixture) -> None:
    variant = load_variant(mod_file).for_player_count(4)
    classic = load_variant("classic").for_player_count(4)
    assert rules_distance(variant, classic) == 1
    found = find_fit(variant, 4)
    assert (found.kind, found.source, found.path) == ("nearest", "classic", fit_path("classic", 4))
    shipped = load_fit("classic", 4, classic.deck_mask)
    assert all(np.array_equal(found.counts[size], shipped[size]) for size in shipped)
    said = say_fit_notices([str(mod_file)], 4, ["strong", "lowest", "strong", "lowest"])
    say_fit_notices([str(mod_file)], 4, ["strong"] * 4)  # once per process
    line = (f"strong: classic-mod at 4 players has no fitted bid table of its own; it bids with "
            f"classic's (the nearest preset) and plays its cards with its card model. Fit one: "
            f"raspis strategies fit --variant {mod_file}")
    assert said == [line]
    assert capsys.readouterr().err == line + "\n"


def test_no_preset_on_the_deck_is_no_table_and_said(fits: Path, tmp_path: Path) -> None:
    path = tmp_path / "classic-52.toml"  # classic's rules on 52 cards: no preset plays that deck
    path.write_text('name = "classic-52"\nextends = "classic"\ndeck.lowest_rank = 2\n')
    variant = load_variant(path).for_player_count(3)
    assert find_fit(variant, 3).kind == "none" and find_fit(variant, 3).counts is None
    assert fit_notice(variant, 3, str(path)) == (
        "strong: classic-52 at 3 players has no fitted bid table of its own; it bids from the "
        "model alone and plays its cards by the rules alone (no preset's table is fitted for "
        f"its deck at 3 players). Fit one: raspis strategies fit --variant {path} --players 3")


@pytest.mark.parametrize("spec", ["classic", "joker", "oh-hell"])
def test_an_exact_match_says_nothing(fits: Path, spec: str, capsys: pytest.CaptureFixture) -> None:
    variant = load_variant(spec).for_player_count(4)
    assert find_fit(variant, 4).kind == "shipped"
    assert say_fit_notices([spec], 4, ["strong"] * 4) == []
    assert capsys.readouterr().err == ""


def test_the_hook_studys_variants_say_nothing(fits: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    """``make run``'s study variants (the Makefile's printf lines) match classic."""
    no_hook = tmp_path / "classic-no-hook.toml"
    no_hook.write_text('name = "classic-no-hook"\nextends = "classic"\nbidding.hook = "off"\n')
    from_4 = tmp_path / "classic-hook-from-4.toml"
    from_4.write_text('name = "classic-hook-from-4"\nextends = "classic"\n'
                      'bidding.hook = "from_deal"\nbidding.hook_from_deal = 4\n')
    specs = ["classic", str(no_hook), str(from_4)]
    assert say_fit_notices(specs, 4, ["strong", "strong", "fastheuristic", "lowest"]) == []
    assert capsys.readouterr().err == ""


def test_seats_without_strong_say_nothing(fits: Path, mod_file: Path,
                                          capsys: pytest.CaptureFixture) -> None:
    assert say_fit_notices([str(mod_file)], 4, ["fastheuristic", "lowest"] * 2) == []
    assert say_fit_notices([str(mod_file)], 4, ["mine=strong", "lowest"] * 2) != []


@pytest.mark.parametrize(("spec", "plays_strong"), [
    ("mc", True), ("mc:samples=50", True), ("isolated+mc:policy=strong", True),
    ("mc:samples=50,policy=fastheuristic", False), ("pimc", False), ("me=strong", True),
])
def test_mc_playing_out_with_strong_is_said_too(spec: str, plays_strong: bool) -> None:
    """mc's playouts play strong with its fitted tables (its default policy): a variant without
    a table of its own is said for an mc seat as for a strong one; never silently."""
    assert uses_strong(spec) is plays_strong


def test_the_tournament_says_it_once_in_the_parent(fits: Path, mod_file: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    from raspis.tournament.runner import TournamentConfig, validate_config

    config = TournamentConfig(variants=(str(mod_file), "classic"), players=4,
                              strategies=("strong", "strong", "lowest", "lowest"), games=1)
    validate_config(config)
    validate_config(config)
    err = capsys.readouterr().err
    assert err.count("strong: ") == 1 and "classic-mod at 4 players" in err


def test_an_impossible_player_count_is_a_clear_error(fits: Path, mod_file: Path) -> None:
    result = fit("--variant", str(mod_file), "--players", "9", "--games", "20")
    assert result.exit_code == 2
    assert "error: variant 'classic-mod' is for 2, 3, 4, 5, 6 players, not 9" in result.output
    assert not fits.exists()
    unknown = fit("--variant", "no-such-variant", "--games", "20")
    assert unknown.exit_code == 2 and "unknown variant 'no-such-variant'" in unknown.output
    assert fit("--variant", "classic", "--players", "0").exit_code == 2


def test_a_run_names_strongs_table_and_a_later_fit_is_not_mixed_into_it(
        fits: Path, mod_file: Path, tmp_path: Path) -> None:
    """The manifest says which table ``strong`` bid with in each variant; a run resumed after the
    user fitted a table for its variant is refused (its games would have been bid with two
    tables), and so is one made with a user's table once that table is gone."""
    import json

    from raspis.tournament.config import TournamentError
    from raspis.tournament.runner import TournamentConfig, run_tournament

    config = TournamentConfig(variants=(str(mod_file),), players=4,
                              strategies=("strong", "strong", "lowest", "lowest"), games=1,
                              seed=3, engine="batch")
    first = tmp_path / "before"
    run_tournament(config, first, workers=1, warm=False)
    table = json.loads((first / "manifest.json").read_text())["variants"][0]["strong_table"]
    assert table.startswith("nearest:classic:") and len(table.rsplit(":", 1)[1]) == 12
    assert fit("--variant", str(mod_file), "--games", "20", "--card-games", "0").exit_code == 0
    with pytest.raises(TournamentError, match="a bid table fitted"):
        run_tournament(config, first, workers=1, resume=True, warm=False)
    second = tmp_path / "after"
    run_tournament(config, second, workers=1, warm=False)
    table = json.loads((second / "manifest.json").read_text())["variants"][0]["strong_table"]
    assert table.startswith("user:classic-mod:")
    for path in fits.iterdir():
        path.unlink()
    with pytest.raises(TournamentError, match="a bid table fitted"):
        run_tournament(config, second, workers=1, resume=True, warm=False)


def test_a_worker_with_another_table_refuses_its_shard(fits: Path, mod_file: Path) -> None:
    """Each shard carries the table its run's parent found for strong; a worker that would bid
    with another (a Dask worker whose RASPIS_FIT_DIR lacks the user's fit, or holds another)
    refuses the shard with a message saying so, on both engines, instead of playing it."""
    import dataclasses

    from raspis.tournament.batch_shard import run_shard_batch
    from raspis.tournament.config import TournamentConfig
    from raspis.tournament.plan import ShardPlan
    from raspis.tournament.shard import run_shard
    from raspis.tournament.task import check_strong_table

    config = TournamentConfig(variants=(str(mod_file),), players=4,
                              strategies=("strong", "strong", "lowest", "lowest"), games=1,
                              seed=3, engine="batch")
    options = [load_variant(str(mod_file)).model_dump(mode="json")]
    task = next(iter(ShardPlan(config, options)))
    assert task.strong_table.startswith("nearest:classic:")
    check_strong_table(task)  # this process finds the same table: nothing to say
    other = dataclasses.replace(task, strong_table="user:classic-mod:0123456789ab")
    for run in (run_shard, run_shard_batch):
        with pytest.raises(RuntimeError, match="another fitted table on this machine"):
            run(other)
    weak = dataclasses.replace(config, strategies=("lowest",) * 4)
    assert next(iter(ShardPlan(weak, options))).strong_table == ""


def test_one_command_fits_the_bid_model_too_and_notes_how(fits: Path, tmp_path: Path) -> None:
    # oh-hell's rules with one option changed: a variant of the user's own, fitted in one go
    path = tmp_path / "oh-hell-mod.toml"
    path.write_text('name = "oh-hell-mod"\nextends = "oh-hell"\nscoring.exact_base = 5\n')
    variant = load_variant(path).for_player_count(4)
    result = fit("--variant", str(path), "--games", "10", "--card-games", "1",
                 "--bid-games", "1", "--seed", "5")
    assert result.exit_code == 0, result.output
    found = find_fit(variant, 4)
    assert found.kind == "user" and found.cards is not None
    with np.load(found.path) as data:
        # kept only where it beats the table's bids on the held-out labels
        table, model = data["bids_regret"]
        assert (found.bids is not None) == (model < table)
        assert ("kept" if model < table else "left out") in result.output
        assert str(data["made_rules_hash"]) == rules_hash(variant)
        assert int(data["made_players"]) == 4 and int(data["seed"]) == 5
        assert str(data["bids_made_by"]) == str(data["counts_made_by"]) == (
            f"raspis strategies fit --variant {path} --players 4 --games 10 --card-games 1 "
            "--rounds 1 --net 0 --bid-games 1 --seed 5")
        assert int(data["bids_games"]) == 1


def test_ship_is_for_presets_only(fits: Path, mod_file: Path) -> None:
    result = fit("--variant", str(mod_file), "--games", "10", "--ship")
    assert result.exit_code != 0
    assert "is not a preset: --ship writes a preset's shipped table" in result.output
    assert not fits.exists() or list(fits.iterdir()) == []


def test_a_stage_of_zero_keeps_what_the_table_holds(fits: Path, mod_file: Path) -> None:
    variant = load_variant(mod_file).for_player_count(4)
    assert fit("--variant", str(mod_file), "--games", "0").exit_code != 0  # nothing to keep yet
    assert fit("--variant", str(mod_file), "--games", "10", "--card-games", "1",
               "--seed", "2").exit_code == 0
    path = fits / f"{rules_hash(variant)}-4.npz"
    with np.load(path) as data:
        before = {key: data[key] for key in data.files}
    result = fit("--variant", str(mod_file), "--games", "0", "--card-games", "0",
                 "--bid-games", "1", "--seed", "3")
    assert result.exit_code == 0, result.output
    with np.load(path) as data:
        after = {key: data[key] for key in data.files}
    kept = [key for key in before if key[:1] == "n" or key.startswith(("cards", "counts"))]
    assert kept and all(np.array_equal(before[key], after[key]) for key in kept)
    assert "bids" in after and "bids" not in before
    assert "--games 0 --card-games 0" in str(after["bids_made_by"])
    assert "--games 10 --card-games 1" in str(after["cards_made_by"])
