"""The golden corpus replays: every recorded game plays again exactly (``tests/golden_corpus.py``).

The games were recorded from the engine as it was before the rules core was rewritten: presets at
every allowed player count and option mixes drawn from a fixed seed, between deterministic
strategies. Each game is played again from its seed with the same strategies; every action must
equal the recorded one, and the digest of every observation, the event log, the score sheet and the
deal results must match. A deliberate rule change regenerates the corpus (see the module) and names
the games it changed in its commit.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).parent / "golden_corpus.py"
_SPEC = importlib.util.spec_from_file_location("golden_corpus", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
golden = importlib.util.module_from_spec(_SPEC)
sys.modules["golden_corpus"] = golden
_SPEC.loader.exec_module(golden)

RECORDS = golden.load()
CHUNKS = 12


def _label(record: dict) -> str:
    name = record.get("variant") or record["mix"]["name"]
    return f"{name} {record['players']}p seed {record['seed']} {','.join(record['lineup'])}"


def test_the_corpus_covers_every_preset_and_player_count() -> None:
    from raspis.engine import load_variant, preset_names

    covered = {(r["variant"], r["players"]) for r in RECORDS if "variant" in r}
    wanted = {(name, players) for name in preset_names()
              for players in load_variant(name).player_counts()}
    assert wanted <= covered
    assert sum("mix" in r for r in RECORDS) >= 400


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_recorded_games_replay_exactly(chunk: int) -> None:
    failures = []
    for record in RECORDS[chunk::CHUNKS]:
        case = {key: record[key] for key in ("variant", "mix", "players", "seed", "lineup")
                if key in record}
        again = golden.play(case)
        if again["actions"] != record["actions"]:
            first = next((i for i, (a, b) in enumerate(zip(again["actions"], record["actions"],
                                                               strict=False)) if a != b),
                         min(len(again["actions"]), len(record["actions"])))
            failures.append(f"{_label(record)}: action {first} differs")
        elif again["scores"] != record["scores"] or again["digest"] != record["digest"]:
            failures.append(f"{_label(record)}: same actions, different observations or log")
    assert not failures, f"{len(failures)} games differ, e.g.:\n" + "\n".join(failures[:10])
