"""The golden corpus: games recorded before the rules core was rewritten, replayed exactly after.

Each record is one game: the variant (a preset, or an option mix drawn here from a fixed seed), the
player count, the seed, the lineup of deterministic strategies, every action in order, the final
scores, and a SHA-256 digest of everything the game showed: the full event log, the score sheet,
and every observation a strategy was given (each field but the variant, the legal actions as
printed). A rewrite that changes any rule, any observation or any legal-action order changes a
digest, and the record's action list says where the game went.

Record again (only for a deliberate change of the rules, and say which games changed and why)::

    .venv/bin/python tests/golden_corpus.py record

or, to record again only the games that no longer replay and keep every other line as it was,
byte for byte, and add the games of a preset the corpus lacks (it prints the games it changed
and added)::

    .venv/bin/python tests/golden_corpus.py rerecord

The records live in ``tests/golden/corpus.jsonl.gz``; ``tests/test_golden.py`` replays them.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from raspis.engine import Game, load_variant, preset_names, variant_from_dict
from raspis.engine.tricks import Trick, TrickCard
from raspis.engine.variant import Variant
from raspis.strategies import load_strategy
from raspis.strategies.play import strategy_rng

CORPUS = Path(__file__).parent / "golden" / "corpus.jsonl.gz"

#: Deterministic strategies (given the game seed): every decision is a function of the observation
#: and the strategy's seeded generator.
#: ``heuristic:premium=false``: the heuristic as the games were recorded, before it played for the
#: premium by default; the stored lineups name it so.
STRATEGIES = ("lowest", "fastrandom", "random", "fastheuristic", "heuristic:premium=false")

#: Option values an option mix draws from (section, key) -> choices.
MIX_CHOICES: dict[tuple[str, str], list[Any]] = {
    ("play", "must_trump"): [True, False],
    ("play", "memory"): ["full", "own_and_last", "last", "none"],
    ("play", "first_lead"): ["left_of_dealer", "dealer"],
    ("joker", "two_jokers"): ["second_wins", "first_wins", "opposite"],
    ("joker", "demand_trumped"): ["joker_wins", "trump_wins"],
    ("joker", "demands_first_trick_only"): [False, True],
    ("joker", "demands_until_deal"): [None, 3, 8],
    ("joker", "lead_fine"): [0, -10],
    ("joker", "locked_until"): [None, "Qs", "Ah"],
    ("bidding", "hook"): ["always", "off", "from_deal", "specials_only", "overbid"],
    ("bidding", "max_consecutive_passes"): [None, 1, 2],
    ("trump", "joker_turned"): ["no_trump", "dealer_names"],
    ("trump", "full_deal"): ["last_dealt", "no_trump", "named"],
    ("trump", "unturned_leftover"): [0, 0, 1],
    ("trump", "naming_allows_no_trump"): [True, False],
    ("end", "tie"): ["shared", "golden_deal"],
    ("end", "negative_total"): ["plain", "double_loss"],
    ("scoring", "premium"): ["none", "fixed", "best_deal"],
    ("scoring", "premium_scope"): ["game", "block"],
    ("scoring", "under_nothing_taken"): [None, -200],
    ("table", "first_dealer"): ["lot", "first_ace", "seat0"],
}
LEAD_CALLS = ["high", "low", "high_suit", "low_suit", "highest_suit", "lowest_suit",
              "highest_trumps"]
MIX_SCHEDULES = [
    ["1..4", "max lobovaya", "4*players dark", "3*2 misere", "5*2 no_trump", "3..1"],
    ["1..3", "max*2", "max golden", "2..1"],
    ["2..5", "5*players dark", "max no_trump", "4..1"],
    ["1..max-1", "max*players", "max-1..1"],
    ["1..3", "9*2 named", "3..1"],
]
MIX_DECKS = [
    {},
    {"jokers": 1},
    {"lowest_rank": 2, "jokers": 2, "joker_cards": []},
    {"joker_cards": ["6c", "6s"]},
]


def option_mix(index: int) -> dict[str, Any] | None:
    """Option mix number ``index``, drawn from a generator seeded by it (None when invalid)."""
    draw = random.Random(1000 + index)
    data: dict[str, Any] = {"name": f"mix-{index}",
                            "extends": draw.choice(["classic", "joker", "odessa", "joker-52",
                                                    "circular-trumps", "georgian", "oh-hell"])}
    for (section, key), choices in MIX_CHOICES.items():
        if draw.random() < 0.35:
            data.setdefault(section, {})[key] = draw.choice(choices)
    if draw.random() < 0.5:
        calls = [call for call in LEAD_CALLS if draw.random() < 0.4] or ["high"]
        data.setdefault("joker", {})["lead_calls"] = calls
    if draw.random() < 0.5:
        data["schedule"] = {"deals": draw.choice(MIX_SCHEDULES)}
    if draw.random() < 0.3:
        data["deck"] = draw.choice(MIX_DECKS)
    if draw.random() < 0.2:
        data["trump"] = {**data.get("trump", {}), "mode": draw.choice(["fixed", "none"]),
                         "fixed_suit": "hearts"}
    if data.get("scoring", {}).get("premium") == "fixed":
        data["scoring"]["premium_points"] = 100
    if data["extends"] in ("georgian",) or "for_players" in data:
        data["for_players"] = {}
    try:
        variant = variant_from_dict(data, source=data["name"])
        counts = variant.player_counts()
        if not counts:
            return None
        variant.for_player_count(counts[0])
    except Exception:  # an invalid mix: skipped, deterministically
        return None
    return data


def cases() -> Iterator[dict[str, Any]]:
    """Every game of the corpus: presets at every allowed player count, then option mixes."""
    for preset in preset_names():
        variant = load_variant(preset)
        for players in variant.player_counts():
            for game in range(20):
                yield {"variant": preset, "players": players, "seed": 7919 * game + players,
                       "lineup": lineup(players, game)}
    made = 0
    index = 0
    while made < 240:
        data = option_mix(index)
        index += 1
        if data is None:
            continue
        variant = variant_from_dict(data, source=data["name"])
        counts = variant.player_counts()
        players = counts[made % len(counts)]
        for game in range(2):
            yield {"mix": data, "players": players, "seed": 104729 * index + game,
                   "lineup": lineup(players, made + game)}
        made += 1


def lineup(players: int, game: int) -> list[str]:
    """A deterministic lineup: the strategies in turn, rotated by the game number."""
    return [STRATEGIES[(game + seat) % len(STRATEGIES)] for seat in range(players)]


def variant_of(case: dict[str, Any]) -> Variant:
    """The variant of a case."""
    if "mix" in case:
        return variant_from_dict(case["mix"], source=case["mix"]["name"])
    return load_variant(case["variant"])


#: The fields of an observation that its text shows, in order (every one but the variant; the
#: legal actions come last, as printed).
_FIELDS = (
    "seat", "players", "phase", "deal_number", "hand_size", "kind", "dealer", "order",
    "to_move", "hand", "hand_hidden", "other_hands", "trump", "trump_card", "trump_how",
    "bids", "taken", "trick", "led_suit", "trick_trump", "tricks", "played", "scores",
    "hook_rule", "trump_hidden",
)
_PREFIXES = tuple(f"{name}=" for name in _FIELDS)


def observation_text(observation: Any, memo: dict[int, tuple[Any, str]] | None = None) -> str:
    """Every field of an observation but the variant, as text (tricks and cards in full).

    ``memo`` (one per game, optional) keeps the text of the legal actions by the identity of their
    tuple, which the engine shares between equal positions, and the text of each finished trick
    by the identity of its ``Trick``, which the game keeps for the rest of its deal (tuples,
    actions and tricks are immutable, and each entry holds its object so that its id is not
    reused; at most 1024 entries): the same text as without it, written once per tuple or trick
    instead of once per observation."""
    parts = [prefix + (_text(getattr(observation, name)) if name != "tricks"
                       else _tricks_text(observation.tricks, memo))
             for prefix, name in zip(_PREFIXES, _FIELDS, strict=True)]
    legal = observation.legal_actions
    hit = memo.get(id(legal)) if memo is not None else None
    if hit is not None and hit[0] is legal:
        parts.append(hit[1])
    else:
        text = "legal=" + ",".join([str(action) for action in legal])
        if memo is not None and type(legal) is tuple:
            _keep(memo, legal, text)
        parts.append(text)
    return ";".join(parts)


def _keep(memo: dict[int, tuple[Any, str]], value: Any, text: str) -> None:
    """Keep ``text`` as the text of the immutable ``value`` (the memo emptied past 1024)."""
    if len(memo) >= 1024:
        memo.clear()
    memo[id(value)] = (value, text)


def _tricks_text(tricks: Any, memo: dict[int, tuple[Any, str]] | None) -> str:
    """``_text(tricks)``, each finished trick's text kept in ``memo`` by the trick's identity."""
    if memo is None or (type(tricks) is not tuple and type(tricks) is not list):
        return _text(tricks)
    parts = []
    for trick in tricks:
        if type(trick) is Trick:
            hit = memo.get(id(trick))
            if hit is not None and hit[0] is trick:
                parts.append(hit[1])
                continue
            text = _text(trick)
            _keep(memo, trick, text)
        else:
            text = _text(trick)
        parts.append(text)
    return "(" + ",".join(parts) + ")"


#: types whose text is ``str(value)`` (checked first: most values of an observation are these)
_SCALARS = frozenset({int, str, bool, type(None)})


def _plain(value: Any) -> str:
    """The text of any value (the reference that ``_text``'s faster paths agree with)."""
    if type(value) in _SCALARS:
        return str(value)
    # the trick records before tuples: they are named tuples (``engine.tricks``)
    if hasattr(value, "cards") and hasattr(value, "winner"):  # a finished trick
        return f"T[{_plain(value.cards)}|{value.trump}|{value.winner}]"
    if hasattr(value, "seat") and hasattr(value, "call"):  # a card in a trick
        return f"{value.seat}:{value.card}:{value.call}:{value.suit}"
    if isinstance(value, tuple | list):
        return "(" + ",".join([_plain(item) for item in value]) + ")"
    if hasattr(value, "value") and hasattr(value, "name"):  # an enum (Phase)
        return str(int(value))
    return str(value)


def _text(value: Any) -> str:
    """``_plain(value)``, the same text, with the common types formatted directly (scalars, tuples
    and lists, finished tricks and the cards in them, by their exact types); anything else
    through ``_plain``."""
    kind = type(value)
    if kind in _SCALARS:
        return str(value)
    if kind is tuple or kind is list:
        return "(" + ",".join([_text(item) for item in value]) + ")"
    if kind is TrickCard:
        return f"{value.seat}:{value.card}:{value.call}:{value.suit}"
    if kind is Trick:
        return f"T[{_text(value.cards)}|{value.trump}|{value.winner}]"
    return _plain(value)


def play(case: dict[str, Any]) -> dict[str, Any]:
    """Play a case and return its record."""
    variant = variant_of(case)
    players = case["players"]
    seed = case["seed"]
    game = Game(variant, players, seed, log=True)
    strategies = [load_strategy(spec) for spec in case["lineup"]]
    for seat, strategy in enumerate(strategies):
        strategy.start_game(game.variant, seat, players, strategy_rng(seed, seat))
    digest = hashlib.sha256()
    actions = []
    memo: dict[int, tuple[Any, str]] = {}
    while not game.is_over():
        seat = game.current_player()
        observation = game.observation(seat)
        digest.update(observation_text(observation, memo).encode())
        action = strategies[seat].act(observation)
        actions.append(str(action))
        game.apply(action)
    digest.update(game.trace().encode())
    digest.update(game.score_sheet().replace(game.variant.content_hash, "").encode())
    for result in game.results:
        digest.update(repr(result).encode())
    return {**case, "actions": actions, "scores": list(game.scores),
            "digest": digest.hexdigest()}


def record() -> None:
    """Play every case and write the corpus."""
    CORPUS.parent.mkdir(exist_ok=True)
    count = 0
    with gzip.open(CORPUS, "wt", encoding="utf-8", compresslevel=9) as handle:
        for case in cases():
            handle.write(json.dumps(play(case), ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    print(f"recorded {count} games into {CORPUS}")


def _replayed(line: str) -> tuple[str, str | None]:
    """A stored line and, where the game no longer replays exactly, its new record's line."""
    record = json.loads(line)
    case = {key: record[key] for key in ("variant", "mix", "players", "seed", "lineup")
            if key in record}
    again = play(case)
    if all(again[key] == record[key] for key in ("actions", "scores", "digest")):
        return line, None
    return line, json.dumps(again, ensure_ascii=False, separators=(",", ":")) + "\n"


def _recorded(case: dict[str, Any]) -> str:
    """The corpus line of a case played now."""
    return json.dumps(play(case), ensure_ascii=False, separators=(",", ":")) + "\n"


def rerecord(workers: int = 2) -> None:
    """Replay every stored game; record again only those that differ, keep the others' lines;
    then add, at the end, the games of every preset and player count the corpus lacks (a new
    preset's: ``cases``' first part)."""
    from multiprocessing import Pool

    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        lines = handle.readlines()
    stored = {(record.get("variant"), record["players"]) for record in map(json.loads, lines)
              if "variant" in record}
    missing = [case for case in cases() if "variant" in case
               and (case["variant"], case["players"]) not in stored]
    with Pool(workers) as pool:
        replayed = pool.map(_replayed, lines, chunksize=8)
        added = pool.map(_recorded, missing, chunksize=4)
    changed = 0
    with gzip.open(CORPUS, "wt", encoding="utf-8", compresslevel=9) as handle:
        for index, (line, new) in enumerate(replayed):
            if new is not None:
                record = json.loads(new)
                name = record.get("variant") or record["mix"]["name"]
                print(f"record {index}: {name} {record['players']}p seed {record['seed']}")
                changed += 1
            handle.write(line if new is None else new)
        for case, line in zip(missing, added, strict=True):
            print(f"added: {case['variant']} {case['players']}p seed {case['seed']}")
            handle.write(line)
    print(f"recorded {changed} of {len(lines)} games again and added {len(added)} into {CORPUS}")


def load() -> list[dict[str, Any]]:
    """The stored records."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


if __name__ == "__main__":
    if sys.argv[1:] == ["record"]:
        record()
    elif sys.argv[1:] == ["rerecord"]:
        rerecord()
    else:
        print(__doc__)
