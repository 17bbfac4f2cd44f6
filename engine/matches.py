"""The rules of a match (RULES §3; seed 002, Joker-52): who has won it, and who plays its extra
games. ``strategies.match.play_match`` (one match) and ``engine.batch.match`` (many in lockstep)
both ask these functions.

002: «Матч ... состоит из трех партий. Матч может закончиться досрочно в случае выигрыша 2-х партий
одним из ее участников. Если необходимое количество сыгранных партий не выявляет победителя, то
производится подсчет занятых вторых мест. Если и этот показатель оказывается одинаковым, то
играется еще одна дополнительная партия. Если в результате дополнительной партии оказывается 2
победителя, то разыгрывается партия между этими лидерами, и так до тех пор, пока не останется один
победитель.»
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import VariantError
from .variant import Variant


def needed_wins(games: int) -> int:
    """The wins that end a best-of-``games`` match early (002: two of three)."""
    return games // 2 + 1


def playoff_seats(variant: Variant, players: int, leaders: Sequence[int], extra: int) -> list[int]:
    """The seats that play the ``extra``-th extra game (0: the first) of a match whose tied
    leaders are ``leaders``; only the leaders' scores in it count. The first extra game is the
    whole table's (002: «играется еще одна дополнительная партия»); under ``match.playoff =
    leaders`` the later ones are played by the leaders still tied alone («разыгрывается партия
    между этими лидерами»), where the variant can be played by that many, else by the table."""
    options = variant.for_player_count(players).match
    if options.playoff != "leaders" or extra == 0 or len(leaders) == players:
        return list(range(players))
    try:
        variant.for_player_count(len(leaders))
    except VariantError:
        return list(range(players))
    return sorted(leaders)


__all__ = ["needed_wins", "playoff_seats"]
