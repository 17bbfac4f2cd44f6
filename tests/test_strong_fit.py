"""Which shipped fitted table ``strong`` bids with (``strategies.policies.fitted``): a variant that
plays a preset's game, whatever its name and however its dealer's hook is set, bids with that
preset's table; a variant with other rules has none of its own, even under a preset's name, and bids
with the nearest preset's on its deck (``find_fit``'s ``nearest``), or none. (The user's own fits:
``test_strong_fit_on_demand``.)"""

from __future__ import annotations

import pytest
from raspis.engine import load_variant
from raspis.engine.core.plan import rule_plan
from raspis.engine.variant import variant_from_dict
from raspis.strategies.policies import compiled
from raspis.strategies.policies.fitted import find_fit, fit_path, fit_source, rules_key

SHIPPED = ("classic", "joker", "oh-hell")


@pytest.mark.parametrize("name", SHIPPED)
def test_a_preset_bids_with_its_own_table(name: str) -> None:
    variant = load_variant(name).for_player_count(4)
    assert fit_source(variant, 4) == name and fit_path(name, 4).is_file()


@pytest.mark.parametrize("hook", [{"hook": "off"}, {"hook": "from_deal", "hook_from_deal": 4},
                                  {"hook": "specials_only"}])
def test_the_hook_studys_variants_bid_with_the_presets_table(hook: dict) -> None:
    """The hook takes one bid away from the dealer and nothing else (RULES §3), so what a bid
    comes to in play is the preset's: the study of ``make run`` bids with classic's table."""
    variant = variant_from_dict({"extends": "classic", "name": "classic-no-hook",
                                 "bidding": hook}).for_player_count(4)
    assert fit_source(variant, 4) == "classic"


@pytest.mark.parametrize("change", [{"scoring": {"exact_per_trick": 20}},
                                    {"play": {"must_trump": False}},
                                    {"deck": {"lowest_rank": 2}}])
def test_other_rules_get_no_table_even_under_a_presets_name(change: dict) -> None:
    variant = variant_from_dict({"extends": "classic", "name": "classic",
                                 **change}).for_player_count(4)
    assert fit_source(variant, 4) is None


def test_an_option_added_later_counts_in_the_rules_key_only_off_its_default() -> None:
    """An option added to the engine after the tables were fitted (``HASH_NEUTRAL_DEFAULTS``,
    as the content hash counts them) leaves the key of every variant that keeps its default, so
    the shipped tables stay found; set off its default, it is other rules."""
    classic = load_variant("classic").for_player_count(4)
    spelled = variant_from_dict({"extends": "classic", "name": "classic",
                                 "joker": {"lead_choice": False}}).for_player_count(4)
    assert rules_key(spelled) == rules_key(classic) and "lead_choice" not in rules_key(classic)
    chosen = variant_from_dict({"extends": "classic", "name": "classic",
                                "joker": {"lead_choice": True}}).for_player_count(4)
    assert "lead_choice" in rules_key(chosen) and fit_source(chosen, 4) is None


@pytest.mark.parametrize(("change", "kind", "source"),
                         [({"scoring": {"exact_per_trick": 20}}, "nearest", "classic"),
                          ({"play": {"must_trump": False}}, "nearest", "classic"),
                          ({"deck": {"lowest_rank": 2}}, "none", None)])
def test_other_rules_bid_with_the_nearest_presets_table_on_their_deck(
        change: dict, kind: str, source: str | None, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """One option off classic: classic's table; another deck (52 cards): no preset's."""
    monkeypatch.setenv("RASPIS_FIT_DIR", str(tmp_path))  # no fit of the user's
    variant = variant_from_dict({"extends": "classic", "name": "classic",
                                 **change}).for_player_count(4)
    found = find_fit(variant, 4)
    assert (found.kind, found.source, found.exact) == (kind, source, False)
    assert (found.counts is None) == (kind == "none")


def test_every_preset_ships_a_table_at_every_player_count_it_allows() -> None:
    """``data/strong`` holds a table for each preset and player count (``python -m
    raspis.strategies.players.strong --variant NAME --players N``), found by the preset's own
    rules."""
    from raspis.engine import preset_names

    missing = [(name, players) for name in preset_names()
               for players in load_variant(name).player_counts()
               if fit_source(load_variant(name).for_player_count(players), players) != name]
    assert not missing


def test_the_policy_table_of_a_hook_variant_carries_the_fit() -> None:
    variant = variant_from_dict({"extends": "classic", "name": "mine",
                                 "bidding": {"hook": "off"}})
    plan = rule_plan(variant, 4)
    tables = plan.machine()
    fitted = compiled.policy_table(tables, plan, True)
    model_only = compiled.policy_table(tables, plan, False)
    assert len(fitted) > len(model_only)
