"""The catalogue of built-in players (``strategies.catalogue``) is the one place a built-in is
registered: every list of built-ins is read from it, each record agrees with the classes it names,
and ``engine_for`` answers which engine plays a lineup, and why."""

from __future__ import annotations

import pytest
from raspis.strategies import catalogue
from raspis.strategies.batch import BATCH_BUILTINS, batch_class, plays_like_scalar
from raspis.strategies.registry import BUILTINS
from raspis.tournament.batch_shard import engine_for

RECORDS = {entry.name: entry for entry in catalogue.CATALOGUE}


def test_every_list_of_built_ins_is_read_from_the_catalogue() -> None:
    from raspis.cli import play
    from raspis.strategies.policies import playout

    assert BUILTINS == {name: entry.player for name, entry in RECORDS.items()}
    assert BATCH_BUILTINS == {name: entry.batch for name, entry in RECORDS.items() if entry.batch}
    assert set(play.LIGHT_PLAYERS) == {name for name, entry in RECORDS.items() if entry.light}
    assert set(play.COMPILED_PLAYERS) == {name for name, entry in RECORDS.items()
                                          if entry.compiles}
    assert playout.POLICIES == {name: entry.policy for name, entry in RECORDS.items()
                                if entry.plays_out}
    assert len(RECORDS) == len(catalogue.CATALOGUE)  # one record a name


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_record_agrees_with_the_classes_it_names(name: str) -> None:
    """The scalar class carries the record's name; the batch class, where there is one, declares
    the record's policy code, and names the record as its scalar twin exactly when the record
    says it plays the same games."""
    entry = RECORDS[name]
    assert entry.player_class().name == name
    assert entry.parameters == dict(entry.player_class().parameters)
    cls = entry.batch_class()
    if cls is None:
        assert entry.policy is None and not entry.twin
        return
    assert cls.__dict__.get("compiled_policy") == entry.policy
    assert (cls.scalar_twin == name) == entry.twin == plays_like_scalar(name)
    assert batch_class(name) == (cls, "")


def test_a_search_player_warms_up_with_its_cheapest_spec() -> None:
    from raspis.tournament.warm import _stand_in

    assert _stand_in("me=isolated+mc:samples=400", "scalar") == "mc:samples=2"
    assert _stand_in("strong:model=false", "batch") == "strong:model=false"
    assert _stand_in("./bot.py:Bot", "batch") == "heuristic"
    assert _stand_in("./bot.py:Bot", "scalar") == "random"


def test_every_compiled_policy_has_one_player_in_the_warm_up_batch() -> None:
    codes = [entry.policy for entry in catalogue.compiled_players()]
    assert codes == sorted({entry.policy for entry in catalogue.CATALOGUE
                            if entry.policy is not None})


def test_a_lineup_of_compiled_policies_plays_whole_games_in_the_compiled_loop() -> None:
    choice = engine_for(["strong", "fast=fastheuristic", "lowest", "random"], ["classic"], 4)
    assert (choice.engine, choice.loop, choice.missing) == ("batch", "compiled", ())


def test_a_seat_without_a_batch_version_keeps_the_lineup_on_the_scalar_engine() -> None:
    choice = engine_for(["strong", "heuristic", "heuristic", "strong:model=false"], ["classic"], 4)
    assert (choice.engine, choice.loop, choice.missing) == ("scalar", None, (1, 2, 3))
    assert choice.reason == ("no batch version of lineup seats 1, 2 (heuristic); lineup seat 3 "
                             "(strong:model=false)")
    asked = engine_for(["strong", "heuristic"], ["oh-hell"], 4, asked="batch")
    assert (asked.engine, asked.loop) == ("batch", "lockstep")


def test_a_variant_a_numpy_seat_cannot_see_sends_an_auto_lineup_to_the_scalar_engine() -> None:
    """A lineup that plays in lockstep (a seat through the scalar adapter) is refused a named
    Joker (classic's «джокер может быть объявлен любой картой»); the compiled loop is not."""
    lockstep = engine_for(["heuristic"] * 4, ["classic"], 4, asked="batch")
    assert lockstep.refusal is not None and "as_card" in lockstep.refusal
    assert engine_for(["lowest"] * 4, ["classic"], 4).refusal is None
