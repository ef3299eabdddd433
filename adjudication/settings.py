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

    simultaneous_s: float = 0.005
    """⚙ Contacts closer than this in time count as simultaneous (RULES §0; N1, WPA 6.2).
    The event detector times a contact to 1.2-1.7 ms (median, BENCHMARKS.md), so 5 ms is
    about three times that. A wider window swallows real order: a break's cue ball at 8 m/s
    reaches the second row of the rack 6-7 ms after the apex ball, and 10 ms read a legal
    10-ball break as hitting three balls at once."""

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

    shot_clock_s: float | None = None
    """§8.17 (P15 WPA 6.15; N29 S0 §19.3, §18.1.ж, §17.1.т): the time allowed for a shot,
    timed from the table being ready (the previous shot's end, or the referee's last
    placement between shots) to the stroke. None (default): off, because a referee imposes
    it (WPA: on slow play, e.g. 35 s; Novuss: 30 s once a player was warned for stalling).
    When set, pool calls a standard foul (6.15); Novuss takes the turn on the first breach
    (§18.1.ж) and adds a penalty pawn on each later one (§17.1.т), until the match ends.
    The first shot after a re-rack or a new set is timed only from a placement seen."""

    n25_skip_turn: bool = False
    """§8.8 (N25, S0 §17.1.п): a pawn moved by the player who does not have the turn
    (``Declaration.touched_by_opponent``: the camera sees the move, not whose hand) costs
    him a penalty pawn when the opponent's series ends. False reads "loses the right to the
    next shot" as the loss of turn a penalty pawn always brings (his turn starts as usual);
    True has him skip that turn too, so the opponent plays another series."""

    shake_min_pawns: int = 3
    """⚙ N27 (S0 §16.1.б): this many resting pawns moving together outside a shot, none
    touched by another object, read as the table being shaken (a ``review`` call: the camera
    sees it, the referee says who shook it). Fewer pawns are hand touches (§17.1.о/§16.1.д).
    Lowering it to 2 turns more two-pawn hand touches into reviews."""

    shake_window_s: float = 0.2
    """⚙ N27: the pawns' moves (their ``moved`` events) must end within this many seconds
    of each other to count as one shake. Widening it catches slow drifts but also a hand
    sweeping several pawns one after another."""

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
        if self.shot_clock_s is not None and not self.shot_clock_s > 0:
            raise ValueError(f"shot_clock_s must be > 0 s or None, got {self.shot_clock_s}")
        if self.shake_min_pawns < 2:
            raise ValueError(f"shake_min_pawns must be >= 2, got {self.shake_min_pawns}")
        if not 0.0 < self.shake_window_s <= 2.0:
            raise ValueError(f"shake_window_s must be in (0, 2] s, got {self.shake_window_s}")
        if not 0.0 <= self.simultaneous_s <= 0.1:
            raise ValueError(f"simultaneous_s must be in [0, 0.1] s, got {self.simultaneous_s}")
        if not 0.0 <= self.lag_tie_mm <= 50.0:
            raise ValueError(f"lag_tie_mm must be in [0, 50] mm, got {self.lag_tie_mm}")
        if not 0.0 < self.pocket_lip_wait_s <= 60.0:
            raise ValueError(
                f"pocket_lip_wait_s must be in (0, 60] s, got {self.pocket_lip_wait_s}"
            )
        if self.est_near_rail_trigger not in ("third", "after_foul"):
            raise ValueError(
                "est_near_rail_trigger must be 'third' or 'after_foul', "
                f"got {self.est_near_rail_trigger!r}"
            )
        if self.novuss_set_opener not in ("alternate", "protocol_first"):
            raise ValueError(
                "novuss_set_opener must be 'alternate' or 'protocol_first', "
                f"got {self.novuss_set_opener!r}"
            )
        if not 0.0 <= self.puck_placement_doubt_mm <= 20.0:
            raise ValueError(
                f"puck_placement_doubt_mm must be in [0, 20] mm, got {self.puck_placement_doubt_mm}"
            )

    # --- WPA 1.2 lag (adjudication/rules/lag.py)
    lag_tie_mm: float = 3.0
    """⚙ WPA 1.2: two good lags whose balls rest within this many mm of each other (gap to
    the head cushion) cannot be told apart, and the players lag again; it is also the
    measurement slack before a ball's edge counts as past the head cushion's nose (fault e).
    Raising it calls more re-lags on close lags; lowering it toward 0 trusts the measured
    positions to the millimetre."""

    # --- WPA 8.3 ball on the lip; EST §7.2 ball near the rail (adjudication/rules/pool_common.py)
    pocket_lip_wait_s: float = 5.0
    """WPA 8.3: a ball that hangs motionless on the lip of a pocket for longer than this and
    then drops by itself is not pocketed: it goes back on the lip and counts for no one; one
    that drops sooner belongs to the shot that sent it there. Timed from when the ball was
    last seen coming to rest (the end of the shot that left it there, or a later placement),
    to its ``pocket`` event. Raising it credits more late drops to the previous shot;
    lowering it puts more of them back. The rule says 5 s."""

    est_near_rail: bool = True
    """§8.18 (14.1, EST §7.2): an object ball not frozen to a rail but less than a ball's
    width (57.15 mm) from it may be played to that rail alone only twice in a row by the
    same player; on his third such shot it counts as frozen (WPA 8.4), so its first touch of
    that rail is not "driven to a rail" and the shot needs another rail or a pocketed ball
    (WPA 6.3 foul otherwise). True (default): EST is the 14.1 source rulebook. False follows
    WPA 2016, which has no such rule."""

    est_near_rail_trigger: str = "third"
    """§8.23 (EST §7.2 NB): when the frozen-ball requirement starts. "third" (default): only
    on the player's third near-rail shot in a row at that ball. "after_foul": also on any
    such shot the player makes while he is on one or more fouls (the NB's "fouled before
    playing it"; the "after" reading cannot be known before the stroke)."""

    # --- Novuss set opener, puck placement, warnings (adjudication/rules/novuss.py)
    novuss_set_opener: str = "alternate"
    """§8.10 (S0 §22, §16.1.ж; singles): who has the first shot of each later set.
    "alternate" (default, the common practice RULES §8.10 describes and §16.1.ж implies):
    the players take turns opening sets, the match's first-shot holder opening set 1.
    "protocol_first": the match's first-shot holder (per the protocol, §22.1) opens every
    set. Doubles always follow §21.1 (the first shot belongs to one table side). A replayed
    set (§20.4–§20.6) follows its own rule either way."""

    puck_placement_doubt_mm: float = 3.0
    """⚙ Novuss §19.1.а (RULES §1.4): a puck whose placement test fails by no more than this
    (a line only just shows at the edge of its hole) draws no call: the camera's position of
    the puck carries about a millimetre of error (3 mm at the 95th percentile), players set
    the puck right at the line, and three warnings cost the match (§15.3). Lowering it warns
    on smaller breaches but turns more position noise into warnings; 0 warns on any breach."""
