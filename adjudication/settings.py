"""Choices the rulebooks leave open (RULES.md §8) and the match format, in one frozen record.

Every field has the default the referee would expect with no further word; each docstring
names the open point and what changes with the other choice. Invalid values raise
``ValueError`` at construction.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleSettings:
    race_to: int = 7
    """Racks needed to win a pool match (8/9/10-ball; Reg. 15 tournament format)."""

    winner_breaks: bool = False
    """False: breaks alternate (WPA 2.1, 3.1 default); True: the rack winner breaks."""

    straight_pool_target: int = 100
    """14.1 points to win (WPA 4.4; the tournament sets 100/125/150)."""

    eight_with_last_group_loses: bool = True
    """§8.13: the 8 pocketed on the same stroke as the last group ball loses the rack (3.8b
    read as "before the group is cleared"). False lets it win when the 8 was the called ball."""

    early_ten_wins: bool = True
    """§8.14: a called 10 legally pocketed before the last ball wins (WPA 9.8, source rule).
    False is the respot variant: the 10 is spotted and the shooter continues."""

    sets_per_match: int = 3
    """Novuss sets in a match; the match ends once a side has more than half (S0 §23.1)."""

    corner_squares_dark: bool = True
    """§8.4: the corner squares where edge zones cross belong to the dark strip (⚙ full-width
    strip). False makes a pawn there light unless the side zone line is hidden too."""

    back_cross_at_rest: bool = False
    """§8.7 (N19): False calls the puck crossing back over the own zone line at any time
    (a second ``line_cross`` of the own zone line); True only where it comes to rest."""

    n3_counts_dark_pawn: bool = True
    """§8.21 (N3): True counts the first-touched dark pawn among the "two or more" pawns moved
    (dark pawn + one more loses the set, E4); False needs two besides it."""

    n3_counts_chain: bool = False
    """§8.21 (N3): also count pawns set moving by other pawns (not touched by the puck)."""

    rerack_string_ball_cue: str = "bih"
    """§8.19 (14.1 re-rack, WPA 4.8d): the 15th ball on the head string and the cue ball in
    the rack area. "bih" follows the WPA text (ball in hand behind the head string);
    "centre_spot" the BCA-style table (the cue ball goes to the centre spot)."""

    simultaneous_s: float = 0.010
    """⚙ Contacts closer than this in time count as simultaneous (RULES §0; N1, WPA 6.2)."""

    def __post_init__(self) -> None:
        for name in ("race_to", "straight_pool_target", "sets_per_match"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.rerack_string_ball_cue not in ("bih", "centre_spot"):
            raise ValueError(
                "rerack_string_ball_cue must be 'bih' or 'centre_spot', "
                f"got {self.rerack_string_ball_cue!r}"
            )
        if not 0.0 <= self.simultaneous_s <= 0.1:
            raise ValueError(f"simultaneous_s must be in [0, 0.1] s, got {self.simultaneous_s}")
