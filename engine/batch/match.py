"""Matches of several games in lockstep: ``strategies.match.play_match`` for many matches at once.

A match is best of ``match.games`` games (game ``i`` of the match with seed ``s`` uses the seed
``mix(s, i)``), stopping once a seat has won a majority alone; a tie on wins is broken, under
``match.tie_break = second_places``, by second places and then by extra games (at most
``engine.options.MAX_EXTRA_GAMES``) in which only the tied leaders' scores count, played by the
seats ``engine.matches.playoff_seats`` names (Joker-52, seed 002). Here game ``i`` of every match
still undecided is played in one batch (one per set of seats in a play-off); the outcome of each
match is exactly ``play_match``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from raspis.engine.matches import needed_wins, playoff_seats
from raspis.engine.options import MAX_EXTRA_GAMES
from raspis.engine.variant import Variant

from .game import play_batch
from .result import BatchResult
from .rng import as_seeds, mix


@dataclass
class BatchMatchResult:
    """The outcome of ``play_batch_matches``: one row per match."""

    wins: np.ndarray                 # (M, P) games won (a shared first place counts for each)
    seconds: np.ndarray              # (M, P) second places
    winners: np.ndarray              # (M, P) bool, the match winner(s); none for an errored match
    decided_by: list[str]            # "wins", "second places" or "extra games"
    games_played: np.ndarray         # (M,)
    errored: np.ndarray              # (M,) a strategy failed; the match stopped there
    errors: list[str | None]
    #: (game index in the match, the matches that played it, their batch result)
    games: list[tuple[int, np.ndarray, BatchResult]] = field(default_factory=list)


def play_batch_matches(variant: Variant, players: int, seeds: Sequence[int] | np.ndarray,
                       strategies: Sequence[Any], seatings: np.ndarray | None = None
                       ) -> BatchMatchResult:
    """Play one match per seed (``seatings`` as in ``play_batch``, one row per match)."""
    seeds = as_seeds(seeds)
    count = len(seeds)
    if seatings is not None:
        seatings = np.broadcast_to(np.asarray(seatings, dtype=np.int64), (count, players))
    options = variant.for_player_count(players).match
    needed = needed_wins(options.games)
    wins = np.zeros((count, players), dtype=np.int64)
    seconds = np.zeros((count, players), dtype=np.int64)
    played = np.zeros(count, dtype=np.int64)
    errored = np.zeros(count, dtype=bool)
    errors: list[str | None] = [None] * count
    decided_by = ["wins"] * count
    games: list[tuple[int, np.ndarray, BatchResult]] = []

    slots = seatings
    if slots is None:  # play_batch's default: slot i at seat i, or a lone strategy everywhere
        lone = np.zeros(players, dtype=np.int64) if len(strategies) == 1 else np.arange(players)
        slots = np.broadcast_to(lone, (count, players))

    def play(index: int, rows: np.ndarray, seats: Sequence[int] | None = None) -> BatchResult:
        if seats is None:
            result = play_batch(variant, players, mix(seeds[rows], index), strategies,
                                None if seatings is None else seatings[rows])
        else:
            result = play_batch(variant, len(seats), mix(seeds[rows], index), strategies,
                                slots[rows][:, list(seats)])
        games.append((index, rows, result))
        played[rows] += 1
        for row in np.flatnonzero(result.errored):
            errored[rows[row]] = True
            errors[rows[row]] = result.errors[row]
        return result

    active = np.ones(count, dtype=bool)
    for index in range(options.games):
        rows = np.flatnonzero(active)
        if not len(rows):
            break
        result = play(index, rows)
        fine = ~result.errored
        wins[rows[fine]] += result.places[fine] == 1
        seconds[rows[fine]] += result.places[fine] == 2
        active[rows[~fine]] = False
        top = wins.max(axis=1)
        decided = (top >= needed) & ((wins == top[:, None]).sum(axis=1) == 1)
        active &= ~decided
    leaders = (wins == wins.max(axis=1)[:, None]) & ~errored[:, None]
    if options.tie_break == "second_places":
        tied = leaders.sum(axis=1) > 1
        for row in np.flatnonzero(tied):
            decided_by[row] = "second places"
        best = np.where(leaders, seconds, -1).max(axis=1)
        leaders &= ~tied[:, None] | (seconds == best[:, None])
        for extra in range(options.games, options.games + MAX_EXTRA_GAMES):
            undecided = np.flatnonzero((leaders.sum(axis=1) > 1) & ~errored)
            if not len(undecided):
                break
            groups: dict[tuple[int, ...], list[int]] = {}
            for row in undecided:
                seats = playoff_seats(variant, players, np.flatnonzero(leaders[row]).tolist(),
                                      extra - options.games)
                groups.setdefault(tuple(seats), []).append(int(row))
            for seats, members in groups.items():
                rows = np.asarray(members, dtype=np.int64)
                whole = len(seats) == players
                result = play(extra, rows, None if whole else seats)
                fine = ~result.errored
                scores = np.full((len(rows), players), np.iinfo(np.int64).min)
                scores[:, list(seats)] = result.scores
                scores = np.where(leaders[rows], scores, np.iinfo(np.int64).min)
                top = scores.max(axis=1)
                kept = leaders[rows] & (scores == top[:, None])
                leaders[rows[fine]] = kept[fine]
                for row in rows[fine]:
                    decided_by[row] = "extra games"
    leaders &= ~errored[:, None]
    return BatchMatchResult(wins=wins, seconds=seconds, winners=leaders, decided_by=decided_by,
                            games_played=played, errored=errored, errors=errors, games=games)
