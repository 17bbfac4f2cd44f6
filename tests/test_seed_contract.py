"""The seed contract, pinned: the same ``--seed`` gives the same games on any machine, in either
engine, today and in every later version.

A game's seed is derived from the run's root seed and its deal set (``tournament.task.game_seed``,
and ``tournament.batch_shard.game_seeds`` for an array of deal sets): SplitMix64 of SplitMix64 of
the root, exclusive-or the deal set (the manifest's ``seeds.derivation``, "game seed = splitmix64
mix(root, deal_set)"). Every run folder (its ``seed`` column, what ``verify`` replays), every
published figure and every ``--resume`` depends on it. The golden corpus cannot see a change of
it (it replays games from seeds it recorded), nor can ``verify`` (it checks shards against the same
function), so this module pins it three ways:

- a SplitMix64 written here from its published definition (Steele, Lea and Flood 2014; Vigna's
  reference ``splitmix64.c``), checked against the published first outputs, computes the
  expected game seeds independently of the project's code;
- a table of game seeds recorded with that independent derivation (root 0, roots above 2**63,
  large deal sets), which both engines must give;
- a tiny seeded tournament's games (their seeds, derived independently, and their scores, a
  recording of the behaviour of 95d2547 made before any change), which both engines must play.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from raspis.tournament import TournamentConfig, run_tournament, scan_table
from raspis.tournament.batch_shard import game_seeds
from raspis.tournament.task import game_seed

MASK64 = (1 << 64) - 1
#: SplitMix64's increment and multipliers, from its published definition
GAMMA = 0x9E3779B97F4A7C15
FIRST_MULTIPLIER = 0xBF58476D1CE4E5B9
SECOND_MULTIPLIER = 0x94D049BB133111EB

#: What a failure of the contract means, said by every test of this module.
BROKEN = (
    "the game-seed derivation changed: this breaks every run folder and every figure made before "
    "(their games can no longer be replayed, verify fails on them, --resume would mix two "
    "derivations in one run). If it is changed on purpose, give the derivation a version, record "
    "it in the manifest (seeds.derivation) and keep deriving old runs' seeds the old way"
)


def reference_splitmix64(state: int) -> int:
    """One output of SplitMix64 from ``state`` (modulo 2**64), written from the published
    definition: add the golden gamma, then two xor-shift-multiply rounds and a final xor-shift."""
    mixed = (state + GAMMA) & MASK64
    mixed = ((mixed ^ (mixed >> 30)) * FIRST_MULTIPLIER) & MASK64
    mixed = ((mixed ^ (mixed >> 27)) * SECOND_MULTIPLIER) & MASK64
    return mixed ^ (mixed >> 31)


def reference_game_seed(root_seed: int, deal_set: int) -> int:
    """The documented derivation, "game seed = splitmix64 mix(root, deal_set)", from the
    reference mixer: SplitMix64(SplitMix64(root) xor deal_set), both taken modulo 2**64."""
    return reference_splitmix64(reference_splitmix64(root_seed & MASK64) ^ (deal_set & MASK64))


#: (root seed, deal set, game seed): recorded with ``reference_game_seed`` when this test was
#: written. Root 0, small and large deal sets, roots at and above 2**63 and 2**64 - 1.
RECORDED_SEEDS = (
    (0, 0, 0xA706DD2F4D197E6F),
    (0, 1, 0x08B4FDA8C892B50E),
    (1, 0, 0x5E41AB087439611E),
    (1, 1, 0xE9FD6049D65AF21E),
    (1, 2, 0xBCD9DBB49673066B),
    (5, 11, 0x2534BF918B4B87CF),
    (2**63, 0, 0x86DB92E833B0C1A0),
    (2**63 + 11, 2, 0xA52D81C90C97D00C),
    (2**64 - 1, 123_456_789, 0xF101957CA4197C3F),
    (42, 2**31 - 1, 0xE680061A186D2247),
    (42, 2**40 + 3, 0x2DEEC38F2B73A9D0),
    (7, 2**63 - 1, 0x06F202161F4944DD),
)


def test_the_reference_mixer_gives_the_published_splitmix64_outputs() -> None:
    """The mixer written here is SplitMix64: seeded with 0 and with 1234567, its first outputs
    are the published ones (Vigna's ``splitmix64.c``, whose state advances by the gamma)."""
    published = {0: (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F),
                 1234567: (0x599ED017FB08FC85, 0x2C73F08458540FA5, 0x883EBCE5A3F27C77)}
    for seed, outputs in published.items():
        states = [(seed + step * GAMMA) & MASK64 for step in range(len(outputs))]
        assert tuple(reference_splitmix64(state) for state in states) == outputs, seed


def test_the_recorded_seed_table_is_the_documented_derivation() -> None:
    """The recorded table is what the documented derivation gives (so the table is not a copy
    of the code's output, and a typo in it would show here)."""
    for root, deal_set, seed in RECORDED_SEEDS:
        assert reference_game_seed(root, deal_set) == seed, (root, deal_set)


@pytest.mark.parametrize(("root", "deal_set", "seed"), RECORDED_SEEDS,
                         ids=[f"root={root}-deal_set={deal_set}" for root, deal_set, _ in
                              RECORDED_SEEDS])
def test_the_seeds_are_pinned_game_seed(root: int, deal_set: int, seed: int) -> None:
    """``tournament.task.game_seed`` (the scalar engine's shards, ``verify``) gives the recorded
    game seed of every pair."""
    assert game_seed(root, deal_set) == seed, f"game_seed({root}, {deal_set}): {BROKEN}"


@pytest.mark.parametrize("root", sorted({root for root, _, _ in RECORDED_SEEDS}))
def test_the_seeds_are_pinned_batch_game_seeds(root: int) -> None:
    """``tournament.batch_shard.game_seeds`` (the batch engine's shards) gives, for an array of
    deal sets, the recorded game seed of each, as unsigned 64-bit integers."""
    rows = [(deal_set, seed) for recorded_root, deal_set, seed in RECORDED_SEEDS
            if recorded_root == root]
    deal_sets = np.array([deal_set for deal_set, _ in rows], dtype=np.int64)
    found = game_seeds(root, deal_sets)
    assert found.dtype == np.uint64
    assert [int(value) for value in found] == [seed for _, seed in rows], (
        f"game_seeds({root}, {deal_sets.tolist()}): {BROKEN}")


def test_the_seeds_are_pinned_for_many_deal_sets_in_both_engines() -> None:
    """Over the first 1,000 deal sets of three roots (one above 2**63), both engines' seeds are
    the documented derivation's."""
    deal_sets = np.arange(1000, dtype=np.int64)
    for root in (1, 2**63 + 11, 2**64 - 1):
        expected = [reference_game_seed(root, int(deal_set)) for deal_set in deal_sets]
        assert [int(value) for value in game_seeds(root, deal_sets)] == expected, (
            f"batch engine, root {root}: {BROKEN}")
        assert [game_seed(root, int(deal_set)) for deal_set in deal_sets] == expected, (
            f"scalar engine, root {root}: {BROKEN}")


#: ``TINY``'s games, in game-id order: (deal set, game id, seating, the strategies by seat, the
#: final scores by seat). A recording of the games both engines played at 95d2547, made before any
#: change: the scores depend on the rules and the strategies too, so a change there also shows
#: here, with the seeds checked first to tell the two apart.
RECORDED_GAMES = (
    (0, 0, 0, ("lowest", "fastheuristic", "lowest"), (19, 142, 16)),
    (1, 4, 1, ("fastheuristic", "lowest", "lowest"), (86, 8, 21)),
    (2, 8, 2, ("lowest", "lowest", "fastheuristic"), (41, 7, 80)),
)


def tiny_config(engine: str) -> TournamentConfig:
    """The tiny seeded tournament: three deal sets of odessa-short at ``--seed 1``, between two
    deterministic strategies, on ``engine``."""
    return TournamentConfig(variants=("odessa-short",), players=3,
                            strategies=("lowest", "fastheuristic", "lowest"), games=3, seed=1,
                            engine=engine)


@pytest.mark.parametrize("engine", ["scalar", "batch"])
def test_the_seeds_are_pinned_in_a_tiny_tournament(engine: str, tmp_path: Path) -> None:
    """A tiny tournament at ``--seed 1`` writes the documented game seeds in its ``seed`` column
    and plays the recorded games (scores by seat), on either engine."""
    run_tournament(tiny_config(engine), tmp_path / "run", workers=1)
    games = scan_table(tmp_path / "run", "games").collect().sort("game_id", "seat")
    by_game = games.group_by("deal_set", "game_id", "seating", "seed", maintain_order=True).agg(
        "strategy", "score")
    seeds = by_game.select("deal_set", "seed").rows()
    assert seeds == [(deal_set, reference_game_seed(1, deal_set)) for deal_set, *_ in
                     RECORDED_GAMES], f"{engine} engine: {BROKEN}"
    played = [(deal_set, game_id, seating, tuple(strategies), tuple(scores))
              for deal_set, game_id, seating, _, strategies, scores in by_game.rows()]
    assert played == list(RECORDED_GAMES), (
        f"{engine} engine: the games of --seed 1 changed although their seeds did not (a rule, a "
        "strategy or the shuffle changed): every run folder and figure made before no longer "
        "replays")
