"""The identity and guards of a shard's task (``tournament.task``), one function at a time: the
run-unique game ids (``game_id``), the one variant object a process builds for a task's options
(``shard_variant``), which of a variant's options a strategy changed (``changed_keys``, what a
voided game's error names), and the refusal to play a shard whose ``strong`` table differs from
the run's (``check_strong_table``).

``tests/test_hostile.py`` and ``tests/test_strong_fit_on_demand.py`` check both through whole
tournaments (a strategy that writes into the variant, a worker without the run's fitted table);
this module pins the functions themselves, quickly, so that the mutation pass over
``tournament/task.py`` (docs/testing.md) can run it against every mutant.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from raspis.engine import load_variant
from raspis.tournament.task import (
    ShardTask,
    changed_keys,
    check_strong_table,
    game_id,
    shard_variant,
)


class Unreadable:
    """A variant whose options cannot be read back (``model_dump`` raises)."""

    def model_dump(self, mode: str = "python") -> dict:
        """Raise, as a variant a strategy broke would."""
        raise ValueError("broken")


def test_the_changed_options_are_named_in_order() -> None:
    """Every option whose value differs from the original, whichever way (a value above or below
    the original, an option added or removed), sorted by name; "(its internals)" when the dumps
    agree; "(cannot be read back)" when the variant cannot be dumped."""
    variant = load_variant("classic")
    original = variant.model_dump(mode="json")
    assert changed_keys(variant, original) == ["(its internals)"]
    lower = {**original, "name": original["name"] + "z", "description": ""}
    assert changed_keys(variant, lower) == ["description", "name"]
    added = {key: value for key, value in original.items() if key != "name"}
    added["zzz"] = 1
    assert changed_keys(variant, added) == ["name", "zzz"]
    assert changed_keys(Unreadable(), original) == ["(cannot be read back)"]


def task_with_table(table: str) -> ShardTask:
    """A one-game shard of classic between four ``strong`` seats, whose run bid with ``table``."""
    return ShardTask(shard_id="v00-b000000", variant_index=0,
                     variant_options=load_variant("classic").model_dump(mode="json"),
                     players=4, strategies=("strong",) * 4, seatings=((0, 1, 2, 3),),
                     games=((0, 0),), root_seed=1, total_deal_sets=1, seating_count=1,
                     deal_rows=False, decision_seconds=None, engine="batch",
                     strong_table=table)


@pytest.mark.parametrize("run_table", ["a-table", "c-table"])
def test_a_shard_is_refused_where_strong_would_bid_with_another_table(
        run_table: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table found here ("b-table") differs from the run's, whichever sorts first: the
    shard is refused, naming both; the same table, or none in the run, plays."""
    from raspis.strategies.policies import fitted

    monkeypatch.setattr(fitted, "find_fit",
                        lambda variant, players: SimpleNamespace(identity="b-table"))
    with pytest.raises(RuntimeError, match=rf"another fitted table on this machine \(b-table\) "
                                           rf"than the run's \({run_table}\)"):
        check_strong_table(task_with_table(run_table))
    check_strong_table(task_with_table("b-table"))
    check_strong_table(task_with_table(""))


def test_game_ids_number_every_game_of_a_run_once() -> None:
    """Over 2 variants, 3 seatings and 5 deal sets, the game ids are 0 to 29, each once: the
    variant, then the seating, then the deal set (as scalars and as arrays)."""
    import numpy as np

    ids = []
    for variant in range(2):
        task = SimpleNamespace(variant_index=variant, seating_count=3, total_deal_sets=5)
        for seating in range(3):
            for deal_set in range(5):
                ids.append(game_id(task, deal_set, seating))
        deal_sets, seatings = np.meshgrid(np.arange(5), np.arange(3))
        assert game_id(task, deal_sets.ravel(), seatings.ravel()).tolist() == ids[-15:]
    assert ids == list(range(30))


def test_a_process_builds_one_variant_for_the_same_options_in_any_order() -> None:
    """``shard_variant`` gives the very same object for the same options, whatever the order of
    their keys (strategies cache what they derive from a variant object)."""
    options = load_variant("classic").model_dump(mode="json")
    reordered = dict(reversed(list(options.items())))
    assert list(reordered) != list(options)
    assert shard_variant(options) is shard_variant(reordered)
