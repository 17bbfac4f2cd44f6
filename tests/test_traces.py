"""Stored traces: fixed-seed games per preset, kept as text and compared exactly.

Each file ``tests/traces/<preset>-<players>p-seed<N>.txt`` holds ``Game.trace()`` (every deal, bid,
card and trick) and the score sheet of a game whose seat to move always picks uniformly among the
legal actions with ``random.Random(N)``. A change in the rules engine that changes any game shows
up here as a diff. When the change is intended, regenerate the files and read the diff::

    RASPIS_UPDATE_TRACES=1 .venv/bin/python -m pytest tests/test_traces.py

The variant's content hash is left out of the stored sheet, so that adding a new option with a
default that changes nothing does not touch the traces.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from raspis.engine import Game, load_variant

TRACES = Path(__file__).parent / "traces"
UPDATE = os.environ.get("RASPIS_UPDATE_TRACES") == "1"

GAMES = [
    ("classic", 4, 1),
    ("classic", 3, 2),
    ("classic-lobovaya", 4, 1),
    ("circular-trumps", 4, 1),
    ("odessa", 3, 1),
    ("odessa-long", 2, 1),
    ("odessa-short", 4, 1),
    ("georgian", 4, 1),
    ("georgian", 6, 2),
    ("joker", 4, 1),
    ("joker-52", 3, 1),
    ("joker-pagat", 4, 1),
    ("oh-hell", 4, 1),
]


def render(preset: str, players: int, seed: int) -> str:
    """The stored text of one game."""
    variant = load_variant(preset)
    game = Game(variant, players=players, seed=seed)
    chooser = random.Random(seed)
    while not game.is_over():
        game.apply(chooser.choice(game.legal_actions()))
    sheet = game.score_sheet().replace(f"({game.variant.content_hash})", "(content hash omitted)")
    return f"{game.trace()}\n\n{sheet}\n"


@pytest.mark.parametrize(("preset", "players", "seed"), GAMES)
def test_stored_trace(preset: str, players: int, seed: int) -> None:
    path = TRACES / f"{preset}-{players}p-seed{seed}.txt"
    text = render(preset, players, seed)
    if UPDATE:
        TRACES.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run RASPIS_UPDATE_TRACES=1 pytest {__file__}"
    stored = path.read_text(encoding="utf-8")
    if stored != text:
        old, new = stored.splitlines(), text.splitlines()
        pairs = zip(old, new, strict=False)
        first = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(old), len(new)))
        pytest.fail(
            f"{path.name} differs from line {first + 1}:\n"
            f"  stored:  {old[first] if first < len(old) else '<end>'}\n"
            f"  now:     {new[first] if first < len(new) else '<end>'}\n"
            "If the change is intended, regenerate with RASPIS_UPDATE_TRACES=1 and read the diff."
        )


def test_every_preset_has_a_stored_trace() -> None:
    from raspis.engine import preset_names

    assert {preset for preset, _, _ in GAMES} == set(preset_names())
