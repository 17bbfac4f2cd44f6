"""Matches (002 Joker-52): best of three, ended early at two wins, tie-break by second places, then
extra games between the tied leaders."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from raspis.engine import load_variant, variant_from_dict
from raspis.strategies import load_strategy
from raspis.strategies import match as match_module
from raspis.strategies.match import play_match


@dataclass
class FakeGame:
    scores: list[int]

    def places(self) -> list[int]:
        return [1 + sum(other > score for other in self.scores) for score in self.scores]


@dataclass
class FakeRecord:
    game: FakeGame
    errored: bool = False


def scripted(monkeypatch: pytest.MonkeyPatch, results: list[list[int]]) -> list[int]:
    played: list[int] = []

    def fake_play_game(variant, players, seed, strategies, **options):  # noqa: ANN001, ANN003, ANN202
        played.append(seed)
        return FakeRecord(FakeGame(results[len(played) - 1]))

    monkeypatch.setattr(match_module, "play_game", fake_play_game)
    return played


def test_two_wins_end_the_match_early(monkeypatch: pytest.MonkeyPatch) -> None:
    played = scripted(monkeypatch, [[30, 10, 5], [40, 20, 0], [0, 50, 0]])
    result = play_match(load_variant("joker-52"), 3, 1, [None, None, None])  # type: ignore[list-item]
    assert len(played) == 2 and result.winners == [0] and result.decided_by == "wins"


def test_one_win_each_is_decided_by_second_places(monkeypatch: pytest.MonkeyPatch) -> None:
    # game 1: seat 0 first, seat 1 second; game 2: seat 1 first, seat 2 second;
    # game 3: seat 2 first, seat 1 second -> one win each, seat 1 has two second places.
    scripted(monkeypatch, [[30, 20, 10], [10, 30, 20], [10, 20, 30]])
    result = play_match(load_variant("joker-52"), 3, 1, [None, None, None])  # type: ignore[list-item]
    assert result.wins == [1, 1, 1] and result.seconds == [0, 2, 1]
    assert result.winners == [1] and result.decided_by == "second places"


def test_still_tied_plays_extra_games_between_the_leaders(monkeypatch: pytest.MonkeyPatch) -> None:
    # every game: seats 0 and 1 share first place, seat 2 second -> tied on wins and seconds;
    # extra game 4: seat 2 scores most, but only the leaders 0 and 1 count -> seat 0 wins.
    played = scripted(monkeypatch, [[20, 20, 10]] * 3 + [[15, 5, 99]])
    result = play_match(load_variant("joker-52"), 3, 1, [None, None, None])  # type: ignore[list-item]
    assert len(played) == 4 and result.winners == [0] and result.decided_by == "extra games"


def test_a_second_tie_is_played_off_between_the_leaders_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """002: «играется еще одна дополнительная партия. Если в результате дополнительной партии
    оказывается 2 победителя, то разыгрывается партия между этими лидерами, и так до тех пор,
    пока не останется один победитель» (``match.playoff = leaders`` in the joker-52 preset)."""
    tables: list[int] = []

    def fake_play_game(variant, players, seed, strategies, **options):  # noqa: ANN001, ANN003, ANN202
        tables.append(players)
        results = [[20, 20, 10]] * 4 + [[5, 9]]
        return FakeRecord(FakeGame(results[len(tables) - 1]))

    monkeypatch.setattr(match_module, "play_game", fake_play_game)
    assert load_variant("joker-52").match.playoff == "leaders"
    result = play_match(load_variant("joker-52"), 3, 1, ["a", "b", "c"])  # type: ignore[list-item]
    # three games and the first extra game at the whole table, then seats 0 and 1 alone
    assert tables == [3, 3, 3, 3, 2]
    assert result.seats[-1] == [0, 1] and result.winners == [1]
    assert result.decided_by == "extra games"
    # the whole table plays every extra game where the variant says so
    tables.clear()
    table = variant_from_dict({"extends": "joker-52", "match": {"playoff": "all"}})
    monkeypatch.setattr(match_module, "play_game", lambda *a, **k: (
        tables.append(a[1]), FakeRecord(FakeGame([20, 20, 10] if len(tables) < 5
                                                 else [5, 9, 0])))[1])
    result = play_match(table, 3, 1, ["a", "b", "c"])  # type: ignore[list-item]
    assert tables == [3, 3, 3, 3, 3] and result.winners == [1]


def test_a_real_match_is_reproducible() -> None:
    def run() -> list[list[int]]:
        strategies = [load_strategy("random") for _ in range(3)]
        result = play_match(load_variant("joker-52"), 3, 8, strategies)
        assert 2 <= len(result.games) <= 3 + match_module.MAX_EXTRA_GAMES
        assert set(result.winners) <= {0, 1, 2} and result.winners
        return [record.game.scores for record in result.games]

    assert run() == run()
