"""Matches: best of N games with the tie-break of seed 002 (Joker-52).

"Матч ... состоит из трех партий. Матч может закончиться досрочно в случае выигрыша 2-х партий ...
Если необходимое количество сыгранных партий не выявляет победителя, то производится подсчет занятых
вторых мест. Если и этот показатель оказывается одинаковым, то играется еще одна дополнительная
партия." The variant's ``[match]`` section gives the number of games and the tie-break. A game won
by several players (a shared first place) counts as a win for each of them. Only the tied leaders'
results count in an extra game; who plays it is ``engine.matches.playoff_seats`` (the whole table,
or under ``match.playoff = leaders`` the leaders alone after the first); at most
``MAX_EXTRA_GAMES`` are played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from raspis.engine import Variant
from raspis.engine import rng as chance
from raspis.engine.matches import needed_wins, playoff_seats
from raspis.engine.options import MAX_EXTRA_GAMES

from .base import Strategy
from .play import GameRecord, play_game

__all__ = ["MAX_EXTRA_GAMES", "MatchResult", "play_match"]


@dataclass
class MatchResult:
    """The games of a match, the wins and second places per seat, and the winner(s)."""

    games: list[GameRecord] = field(default_factory=list)
    #: the table's seats that played each game, in the game's seat order (all of them, but in a
    #: play-off between the tied leaders: ``engine.matches.playoff_seats``)
    seats: list[list[int]] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    seconds: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    decided_by: str = "wins"

    @property
    def errored(self) -> bool:
        """True when a strategy failed in one of the games (the match stops there)."""
        return any(record.errored for record in self.games)


def play_match(variant: Variant, players: int, seed: int, strategies: Sequence[Strategy],
               *, decision_seconds: float | None = None) -> MatchResult:
    """Play a match of ``variant.match.games`` games (game i uses seed mix(seed, i))."""
    options = variant.for_player_count(players).match
    needed = needed_wins(options.games)
    result = MatchResult(wins=[0] * players, seconds=[0] * players)

    def play(index: int, seats: Sequence[int] = range(players)) -> GameRecord:
        record = play_game(variant, len(seats), chance.mix(seed, index),
                           [strategies[seat] for seat in seats],
                           decision_seconds=decision_seconds)
        result.games.append(record)
        result.seats.append(list(seats))
        return record

    for index in range(options.games):
        record = play(index)
        if record.errored:
            return result
        places = record.game.places()
        for seat, place in enumerate(places):
            result.wins[seat] += place == 1
            result.seconds[seat] += place == 2
        if max(result.wins) >= needed and result.wins.count(max(result.wins)) == 1:
            break
    leaders = [seat for seat in range(players) if result.wins[seat] == max(result.wins)]
    if len(leaders) > 1 and options.tie_break == "second_places":
        best = max(result.seconds[seat] for seat in leaders)
        leaders = [seat for seat in leaders if result.seconds[seat] == best]
        result.decided_by = "second places"
        extra = options.games
        while len(leaders) > 1 and extra < options.games + MAX_EXTRA_GAMES:
            seats = playoff_seats(variant, players, leaders, extra - options.games)
            record = play(extra, seats)
            extra += 1
            if record.errored:
                return result
            scores = dict(zip(seats, record.game.scores, strict=True))
            top = max(scores[seat] for seat in leaders)
            leaders = [seat for seat in leaders if scores[seat] == top]
            result.decided_by = "extra games"
    result.winners = leaders
    return result
