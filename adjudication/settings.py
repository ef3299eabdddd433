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

    review_below: float = 0.5
    """⚙ Review on doubt: an event that alone decides a call (the first contact, the pocket,
    cushion or off-table event behind a foul, a Novuss zone-line crossing) with
    ``confidence`` below this makes that call ``review`` for the referee instead of a guess.
    Raising it sends more shots to the referee; 0 never asks (every event is trusted)."""

    own_zone_first_penalized: bool = True
    """§8.24: the puck's first pawn lying in the shooter's own edge zone (E2, E3, E4 item l;
    no S0 item) makes the shot penalized, cited as §17.1.а (§17.1.б too for an opponent's
    pawn). False follows S0 alone: only §17.1.б/§17.1.з apply to such a first contact."""

    n15_restore: bool = True
    """§8.5 (N15): in singles, an opponent's pawn that a penalized direct shot drives into
    that opponent's dark area is put back (read from S0 §21.3, which says doubles give "only"
    the penalty pawn). False leaves it where it stopped, as in doubles (§17.1.ф)."""

    doubles_penalty_to_partner: bool = True
    """§8.9 (S0 §21.5): in doubles the penalty pawn goes to the offender's pair member who
    has the pair's next shot, i.e. his partner, on the partner's target row (the offender's
    own rail). False penalizes the offender himself, as in singles."""

    dark_misses_consecutive: bool = True
    """§8.7 (N33, S0 §20.6): True counts a player's misses on his dark pawns in a row (a shot
    that touches an own pawn starts his count again); False counts every miss while both
    sides hold only dark pawns. A "miss" is a shot whose puck touches no own pawn."""

    def __post_init__(self) -> None:
        for name in ("race_to", "straight_pool_target", "sets_per_match"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.rerack_string_ball_cue not in ("bih", "centre_spot"):
            raise ValueError(
                "rerack_string_ball_cue must be 'bih' or 'centre_spot', "
                f"got {self.rerack_string_ball_cue!r}"
            )
        if not 0.0 <= self.review_below <= 1.0:
            raise ValueError(f"review_below must be in [0, 1], got {self.review_below}")
        if not 0.0 <= self.simultaneous_s <= 0.1:
            raise ValueError(f"simultaneous_s must be in [0, 0.1] s, got {self.simultaneous_s}")
