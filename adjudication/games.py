"""The games cueref referees, and the table each is played on by default."""

from __future__ import annotations

from enum import StrEnum

from calibration.tables import NOVUSS_LABELS, POOL_LABELS


class Game(StrEnum):
    NOVUSS = "novuss"
    NOVUSS_DOUBLES = "novuss-doubles"
    EIGHT_BALL = "8ball"
    NINE_BALL = "9ball"
    TEN_BALL = "10ball"
    STRAIGHT_POOL = "14.1"

    @property
    def is_novuss(self) -> bool:
        return self in (Game.NOVUSS, Game.NOVUSS_DOUBLES)

    @property
    def default_table(self) -> str:
        return "novuss" if self.is_novuss else "pool-9ft"

    @property
    def players_per_side(self) -> int:
        return 2 if self is Game.NOVUSS_DOUBLES else 1

    @property
    def labels(self) -> tuple[str, ...]:
        """The class labels of the objects in play: a 9-ball rack has no 14, so a detector
        told so reads a blurred cue ball as the cue ball, not as a striped ball."""
        if self.is_novuss:
            return NOVUSS_LABELS
        balls = {Game.NINE_BALL: 9, Game.TEN_BALL: 10}.get(self, 15)
        return POOL_LABELS[: balls + 1]  # the cue ball, then 1..balls


def parse_game(name: str) -> Game:
    """The game for a CLI name; ``ValueError`` lists the known games."""
    try:
        return Game(name)
    except ValueError:
        known = ", ".join(g.value for g in Game)
        raise ValueError(f"unknown game {name!r}; choose one of {known}") from None
