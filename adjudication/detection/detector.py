"""Events out of tracks: contacts, cushions, pockets, line crossings, strokes and rest.

``MotionEventDetector`` reads one ``Tracks`` batch per frame and reports each event a few
frames late (``DetectorSettings.lag_frames``), once it has the frames after the change to
fit. It works on the raw observations (``Tracks.obs_xy_mm``; the filtered positions lag a
sudden change of direction) and keeps for every track one of four modes: new (not judged
yet), resting (with the mean rest position), moving (with the frame where its current
smooth segment began) or gone (pocketed, off the table).

Each frame ``a`` (the newest minus the lag) it

1. finds the resting tracks that left their rest position (*onsets*) and the moving tracks
   whose next two observations miss the quadratic fitted to their segment (*bends*), all
   tracks at once (batched fits, one numpy pass for the bend test and the rest test); a
   moving track rests when it is slow and has moved less than its onset threshold (a
   multiple of its noise) over ``fit_frames``;
2. looks for the cause of every change among the fitted paths *before* it: two paths one
   sum of radii apart (a contact, its time the first root of a quartic), a path one radius
   from a cushion nose with its normal velocity reversed (a cushion, a quadratic root), the
   tracker's POCKETED / OFF_TABLE state (the path reaching the pocket's point of no return;
   a straight run that meets a pool pocket's jaw before it could fall in hit that jaw's
   cushion, as the physics models the mouth: a point at each nose end, throat walls behind);
   every moving path is also scanned against every cushion line for a root one radius from
   the nose within the frame, a cushion when the fit after it leaves the line again (slow
   bounces whose bend is too small to test); an onset inside a cluster of touching resting
   objects (a rack, a Novuss row) is a push passed on from a struck member, forward of the
   way the hit came in and fading on each turn; on a pool table which pairs carried it is
   read from the whole pack at once (the non-negative impulses along the touching pairs'
   lines of centres that best give every member the velocity it leaves with, and the
   striker its change of velocity), elsewhere from each member's way off; an unexplained
   onset of the striker while no
   shot is on is a stroke (``shot_start``, timed where its path after extrapolates back to
   its rest position), any other between shots is a hand (``moved`` / ``placed`` once it
   rests again); during a shot nothing is a hand, and an object that came to rest in the
   shot and goes on slowly along the direction it came from is the same motion;
3. times printed-line crossings between two observations, and calls ``shot_end`` once
   every object has rested for ``shot_end_window_s``.

Confidence starts at 1 and drops for frames missing near an event, contacts found only by
a near approach, two contacts of one striker too close in time to order (split hits), and
a hit at the junction of two touching objects of different labels (which came first, the
camera cannot tell).
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from adjudication.detection.fitting import (
    GAP_LINE_IN,
    GapLines,
    closest_approach,
    creep_onset,
    eval_path,
    eval_velocity,
    first_touch,
    fit_path,
    fit_paths,
    gap_lines,
    hinge_fits,
    line_touch,
    onset_time,
    shift_path,
    still_path,
    straighten,
)
from adjudication.detection.settings import DetectorSettings
from adjudication.detection.zones import _phi, signed_depth_mm
from adjudication.events import Event, EventKind, ObjectRef
from calibration.tables import Family, TableSpec
from tracking.types import Tracks, TrackState


class EventDetector(Protocol):
    """Tracks in, events out, one frame at a time."""

    def update(self, tracks: Tracks) -> list[Event]: ...

    def flush(self) -> list[Event]: ...

    def reset(self) -> None: ...


class NullEventDetector:
    """The do-nothing baseline: reports no events."""

    def update(self, tracks: Tracks) -> list[Event]:
        return []

    def flush(self) -> list[Event]:
        return []

    def reset(self) -> None:
        return None


_NEW, _REST, _MOVING, _GONE = 0, 1, 2, 3
_ABSENT = -1
# track states as plain ints: numpy compares an int array with an IntEnum member slowly
_POCKETED, _OFF_TABLE = int(TrackState.POCKETED), int(TrackState.OFF_TABLE)
_TRACK_MOVING, _TRACK_RESTING = int(TrackState.MOVING), int(TrackState.RESTING)
#: Largest acceleration (mm/s^2) a free object has: pool sliding friction 0.2 g.
_MAX_ACCEL_MM_S2 = 2500.0
#: Fastest restart (mm/s) of an object that seemed at rest still taken for the same motion
#: going on (a slow roller): faster ones were hit.
_RESTART_MM_S = 80.0
#: Longest spell (s) at rest that a slow roller seems to pass there: a roller under
#: ``_RESTART_MM_S`` shows its motion within it, and one still that long was hit.
_RESTART_REST_S = 0.5
#: Frames back a line crossing's last sighting before it may lie (a gap of a few frames,
#: blur on a fast puck, hides no crossing).
_CROSS_BACK = 6
#: Least dip (in sigmas of the sightings) into a circle of the straight way between two
#: sightings outside it that is a crossing in and out.
_CHORD_SIGMAS = 3.0
#: Sigmas a sighting must lie from the last one on the line's other side to be across it at
#: once (a jump no noise makes); after a smaller step it is across when the sightings
#: ahead stay there too.
_CROSS_JUMP_SIGMAS = 4.0
#: Slowest approach to a cushion and slowest departure (mm/s) the path scan takes for a
#: bounce: objects sliding along a cushion wobble across its line by their noise.
_SCAN_IN_MM_S = 40.0
_SCAN_OUT_MM_S = 15.0
#: A path into a cushion this fast (mm/s) that stops there met it, out again or not: it
#: could not stop short of the nose by friction alone.
_SCAN_FIRM_IN_MM_S = 150.0
#: A slower path's bounce is judged on the sightings after its touch for up to this many
#: frames: leaving at a few mm a frame, it shows out of the noise only over several.
_SLOW_BOUNCE_FRAMES = 10
#: ... or (a Novuss disc, slowing fast by friction) when its path in would have stopped
#: this far (mm) past the cushion's touching line, and it stays there.
_STOP_PAST_MM = 2.0
#: ... or, a slow path that ends this near (mm) the touching line, still coming (its
#: sightings may show a touch short of the line by their noise).
_SLOW_NEAR_MM = 2.0
#: The path scan tests a pocket's jaw for a bounce when a path ends within this (mm)
#: beyond touching it.
_JAW_SCAN_MM = 20.0
#: Objects resting closer than this (mm, between their edges) touch: a push passes from
#: one to the other at once (a rack, a Novuss row).
_TOUCH_GAP_MM = 3.0
#: A resting object seen, averaged over the frames ahead, this far (mm) and this many
#: sigmas of both averages' noise off its rest, and no further than an onset, was nudged
#: there: by a mover whose way passed within touching of it (``_nudges``). Under an onset
#: (4.5 sigma a sighting), a graze or a press into a cushion moves a pawn by 2 to 4 mm.
_NUDGE_MIN_MM = 2.0
_NUDGE_SIGMAS = 5.0
#: A nudged disc no mover came near, at the far end of a touching row an object was
#: struck into this recently (s), was pushed down that row: a 3 mm nudge shows in the
#: noise only over frames of sightings after it
_ROW_PUSH_S = 0.3
#: ... but not from an object struck away from the next in the row (cos below minus this)
_AWAY_COS = 0.2
#: A line from where an object was bent to its one sighting since holds a direction only
#: if that sighting came this many frames after (5 ms at 30 fps; 1 mm of noise over a ms
#: or two points it anywhere).
_ANCHOR_LEAD = 0.15
#: An object leaving rest this fast (mm/s) or faster has its onset timed to a few ms: a
#: push over a frame before it left was not what started it.
_LATE_PUSH_MM_S = 300.0
#: An object resting closer than this (mm, edge to nose line) lies against that cushion.
_HUG_MM = 3.0
#: ... and is pressed into it by a push whose line of centres leans into it by more than
#: this (cosine to its normal): any lean at all meets the cushion, and a push along a row
#: beside it leans a few hundredths by noise (1 mm over 30 mm between centres).
_PRESSED_COS = 0.1
#: An object that left rest this recently (s) still passes a push on to the touching
#: objects it rested against: their onsets may show a frame or two after its own.
_RECENT_START_S = 0.1
#: ... and one hit this recently passes it on, or was started by it, though seen leaving
#: only now: a rack ball the push went through keeps a tenth of it and creeps off at 60
#: mm/s, seen leaving four frames after the hit.
_RECENT_HIT_S = 0.15
#: An object leaving rest slower than _CREEP_ONSET_MM_S (under an onset a frame) is
#: timed by a hinge fit over its last _CREEP_BACK_FRAMES sightings at rest and those
#: moving after (``fitting.creep_onset``)
_CREEP_ONSET_MM_S = 120.0
_CREEP_BACK_FRAMES = 8
#: An orphan start (no cause found) is tried again against a start that shows later, for
#: this many frames: the other's start, hidden in a gap, may be before it
_LATE_ORPHAN_FRAMES = 2.5
#: A cushion a struck object's line out meets up to this long (s) before (or 1 ms after)
#: the hit that started it is timed to, it met just after that hit: both times carry a
#: few ms of doubt
_START_SLACK_S = 0.004
#: A touching neighbour pushed an object when the object leaves it within 60 degrees of
#: their line of centres (cos): the impulse passes along that line. Lower credits more
#: neighbours (a rack ball leaving two behind it); higher only the one it leaves straight.
_PUSH_COS = 0.5
#: An impulse passes from one touching object to the next forward of the way it came in
#: (never back, nor sideways along a rack's row, which it leaves), and each turn passes
#: on the cos of its angle (straight on all of it, turned by 60 degrees half): it goes on
#: while at least this share of the hit is left.
_PUSH_SHARE = 0.3
#: ... the way it came into the struck one is measured (from the striker's fitted path):
#: there it may turn this much further (cos).
_HIT_SLACK_COS = 0.3
#: ... and through at most this many objects (a 15-ball rack is 5 rows deep).
_PUSH_REACH = 8
#: A touching pair carried a pack's push when the impulse fitted to it gave the lighter
#: of the two this speed (mm/s) or more. The camera is held to approaches of 50 mm/s, but
#: the fit reads a slow push low (a slow ball rolls within its first frames, at 5/7 of
#: the speed the push gave it): pool pushes of 50-400 mm/s are fitted at a median 0.82
#: to 0.85 of the physics' speed, and noisily. Stepped on the development seeds with the
#: checks below: 50 -> 42 -> 35 -> 30 -> 25 mm/s gave 126 -> 131 -> 140 -> 144 -> 159
#: false contacts and 349 -> 319 -> 291 -> 278 -> 267 missed.
_PUSH_MIN_MM_S = 30.0
#: ... fitted to each member's first this many sightings after the hit (its velocity
#: then, before the pack's objects meet again).
_PACK_FIT_FRAMES = 3
#: ... a member unseen in them counts as at rest, with this weight (one seen: 1): a back
#: corner ball the detector misses in the pack, or loses to its blur, may have left
_UNSEEN_WEIGHT = 0.1
#: ... a pair fitted a push from this speed (mm/s) up to ``_PUSH_MIN_MM_S`` met faintly:
#: it is not reported, nor is the bend it left, seen a frame or two on (a push the checks
#: below doubt is held at this).
_PUSH_FAINT_MM_S = 15.0
#: ... a push fitted under this (mm/s) whose pusher goes on along their line at least as
#: fast is no push of its own (a push stops the pusher along that line): others pushed
#: the two off together, and the fit shared their push between them. Counted faint.
_PUSH_DOUBT_MM_S = 100.0
#: ... and so is one under this share of the faster of its two objects' speed: a ball
#: leaving at metres a second is measured to some per cent (its blur, a cushion within the
#: fitted frames), and the fit puts that error on the links to its neighbours (pool seeds
#: 0 and 1: 19 of 21 such pushes under 12 % were not in the physics; at 25 % as many real
#: pushes went as false ones).
_PUSH_FAST_SHARE = 0.16
#: ... a member a push reached that leaves slower than this (mm/s) creeps off, its onset
#: seen frames late: the push started it.
_PACK_CREEP_MM_S = 150.0
#: ... and one of those is seen leaving up to _CREEP_LATE_S after that hit: at 20 mm/s it
#: takes a fifth of a second to creep out of the noise at rest
_CREEP_LATE_S = 0.3
#: Whether a mover's velocity changed at a touch is judged from lines through this many of
#: its sightings either side (nearest the touch: further on, a cue ball's spin bends its way).
_KICK_SIDE = 4
#: Whether two objects moving steadily closed on each other is judged over their last
#: _APART_FRAMES frames (``_creeping_apart``)
_APART_FRAMES = 8
#: ... the pack's objects resting closer than this (mm, edge to edge) set exactly touching
#: first (their rest positions' noise turns the lines of centres), in this many rounds.
_SNAP_GAP_MM = 1.5
_SNAP_ROUNDS = 60
#: A struck object seen leaving a touching neighbour behind (cos of its way off with
#: the line to that neighbour below minus this) did not push that neighbour.
_LEFT_BEHIND_COS = 0.2
#: ... when it flew off that fast (mm/s): a slower one passed most of the hit on and
#: rebounds off the rest any way.
_LEFT_BEHIND_MM_S = 500.0
#: A mover near another object bent by a contact when it leaves its path within ~37
#: degrees of their line of centres (cos).
_TOUCH_COS = 0.8
#: ... and only when they closed in on each other at least this fast (mm/s): balls rolling
#: side by side after a break brush without a contact anyone could see.
_TOUCH_MIN_APPROACH_MM_S = 50.0
#: A thin graze's kick off a mover whose path it missed by a mm (``_kicked_off``), in
#: position sigmas per frame.
_KICK_SIGMAS = 6.0
#: Farthest a striker travels (mm) in a frame (12 m/s at 30 fps is 400 mm): how far it can
#: have gone before the object it hit in the frame it was struck in.
_STROKE_REACH_MM = 400.0
#: A striker grazing a resting object turns away from it: the change of its direction
#: lies within this (cos) of the line of centres at the touch.
_GRAZE_COS = 0.8
#: The thinnest cut (cos of the angle between the striker's path and the line of centres
#: the object leaves on) taken for a hit the camera did not see.
_CUT_COS = 0.2
#: A striker come straight from its rest, at its centre where it would touch an object,
#: moving away from that object by more than this (cos of its way in with their line of
#: centres: the noise of a graze's touch, a mm or two, turns that line by a few degrees).
_RECEDE_COS = 0.15
#: How far (mm, and one sigma) from touching an object a striker seen once on its way in
#: from its rest may have turned, where that way in and its line after cross, for the turn
#: to say it touched that object: the way in, through one sighting a few cm from the rest,
#: is known to a couple of degrees.
_TURN_GAP_MM = 3.0
#: ... and its nearest object's touching circle must be nearer it than any other's by this
#: many times the turn's own doubt (the sighting's sigma, carried along the way in to the
#: turn and along the line after by the angle the two cross at).
_TURN_CLEAR = 1.5
#: How far (mm, beyond 3 sigma) a striker's first positions after a break, run back as a
#: line to when a rack ball started, may put it from touching that ball.
_RACK_BACK_MM = 12.0
#: Fastest (mm/s) a hand slides or rolls an object off its rest: a start faster than this
#: is a stroke even where noise (motion blur at a break's 10 m/s) bends its fitted path
#: into a speed-up.
_HAND_MAX_MM_S = 3000.0
#: A mover faster than this (mm/s; 100 mm a frame at 30 fps) may have its contact up to
#: half a frame after the frame its bend is flagged in.
_FAST_MM_S = 3000.0
#: How many frames before its onset's estimate a slowly struck object may have been hit:
#: the mover's path reaching it then times the hit.
_SLOW_ONSET_LAG = 4
#: A mover's path fitted across a gentle hit is refitted as two lines joined at the hit
#: (``_hinged_touch``): from its sightings this many frames either side, the hit moved up
#: to _HINGE_REACH frames earlier, where that fits better by _HINGE_GAIN (chi-square units)
_HINGE_FRAMES = 5
_HINGE_REACH = 3
_HINGE_GAIN = 4.0
#: A mover is no candidate striker of an object that left faster than _KICK_RATIO times
#: its fitted speed, by more than _KICK_SLACK_MM_S: any collision gives twice at most,
#: and a path fitted past a hit that slowed the mover reads slower than it came in
_KICK_RATIO = 4.0
_KICK_SLACK_MM_S = 100.0
#: Two contacts of one mover closer in time (s) than this are one touch of two objects (a
#: split hit): the second needs no deflected path to reach its object.
_SAME_TOUCH_S = 0.002
#: Normal restitution a bounce off a cushion is folded back with (``_hits_after_bounce``):
#: rubber pool cushions give 0.7-0.85, a Novuss board's wooden rail about 0.7.
_CUSHION_E = 0.75
#: A contact of a pair again within this (s) of the last one reported is that contact
#: found twice (a second way, or a frame on); a real rebound so soon, off a cushion just
#: behind, is what the benchmark leaves out too (a repeat within 0.1 s: "don't care").
_REPEAT_S = 0.1
#: A mover whose path passes this far (mm, and three times its noise) clear of an object
#: that left rest, but touches one resting against it, hit that one, which passed it on.
_PASSED_ON_MM = 10.0
#: ... and its path after must pass this close (mm, beyond touching) to its second object.
_REACH_GAP_MM = 4.0
#: A pawn nudged off its row, not along the push reported into it, was struck from
#: outside: the way of a mover that bent off the next pawn and into it within a frame,
#: drawn straight between two sightings, cuts the corner by up to this (mm) more.
_OFF_ROW_GAP_MM = 4.0
#: A striker hitting a resting object within this (mm, edge to edge) of a neighbour
#: touching it may have met either first: a puck into the junction of two pawns.
_JUNCTION_GAP_MM = 2.0
#: ... and a striker whose noisy path touched one of a row's pawns may have met its
#: neighbour instead up to this long (s) after: which end of the row flies off tells.
_JUNCTION_LATE_S = 0.005
#: A second contact a few ms after a hit (_met_after): the striker's way out, run back,
#: leaves the second object's contact circle (or passes within this many sigma of it) ...
_MET_AFTER_SIGMAS = 1.0
#: ... this long (s) after it left the first one's ...
_MET_AFTER_S = 0.002
#: ... and, where its way in is seen, its turn has a share along the second one's line of
#: centres beyond this many sigma of the noise (a single contact turns it along one).
_MET_AFTER_Z = 4.0
#: ... and beyond this share of the whole turn (fitted ways in and out, run a frame to
#: the hit, err by more than their noise says: a seventh of the turn, off a held pawn).
_MET_AFTER_SHARE = 0.25
#: ... and, where it was seen only leaving rest, one contact would have sped it up (its
#: speed along the first one's contact, kept, is more than it had; its way in slants to
#: that contact by this cosine at least, for the test to tell).
_MET_AFTER_SLANT = 0.2
#: Least change (mm/s) in a striker's velocity, across a hit, that only a cushion's push
#: explains before the striker is seen again (a puck off a pawn into the rail beside it).
_RAIL_KICK_MM_S = 100.0
#: ... judged from its sightings up to this many frames after the hit's (and the look-ahead
#: after those): later, the events around the hit are out already.
_KICK_WAIT_FRAMES = 2
#: The most deceleration (mm/s^2) taken from a striker's fitted path for friction.
_MAX_DECEL_MM_S2 = 5000.0
#: The fastest anything moves on either table (mm/s; a hard pool break, 8-12 m/s).
_MAX_SPEED_MM_S = 12000.0
#: A mover slower than this (mm/s) at its last fitted sighting is tested for a hit as a
#: resting object is, against how far its speed could carry it.
_SLOW_BEND_MM_S = 100.0
#: ... judged on Novuss against a line through its sightings in this many frames before.
_SLOW_BEND_LAST = 4
#: How long (s) a bend nothing explained may still be owned by a start seen later.
_LOOSE_BEND_S = 0.5
#: An object struck from rest leaving at least this fast (mm/s) times the hit by its own
#: departure, run back to its rest, better than a striker's path drawn from its stroke.
_DEPARTURE_TIMES_MM_S = 1000.0


@dataclass(frozen=True, slots=True)
class _Hit:
    """A moving striker's hit on a resting object, kept to test either of them for a
    cushion met after it and before it is seen again."""

    a: int  # the frame analysed when it was found
    t_s: float
    xy_mm: np.ndarray  # the centre of the one tested then
    v_mm_s: np.ndarray  # its velocity before (the object hit: 0)
    decel_mm_s2: float  # how fast it was slowing down before (friction)
    n: np.ndarray  # unit line of centres, from it towards the other


@dataclass(frozen=True, slots=True)
class _Pack:
    """The pushes a hit at ``t_s`` passed through a pack of touching objects, as its
    members' velocities after say (``MotionEventDetector._pack_impulses``)."""

    t_s: float
    members: frozenset[int]  # slots
    pushes: dict[tuple[int, int], float]  # (slot, slot), the lower first -> mm/s
    creepers: tuple[int, ...]  # members it pushed into a creep (under _PACK_CREEP_MM_S)


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A contact a trigger's fitted paths allow, before the time-ordered check."""

    tc: float
    i: int
    j: int
    rsum_mm: float
    conf: float
    bounce_only: bool
    cradle: bool = False  # the other rests, passing the hit on to a touching one
    # a near miss at the window's end that the striker's path, run on, touches within the
    # next frame: the time of that touch (relative to the frame), which times the contact
    run_on: float | None = None


@dataclass(frozen=True, slots=True)
class _SlowRoot:
    """A slow path's touch of a cushion whose bounce the frames ahead did not show yet
    (``_slow_bounces`` judges it on)."""

    t_s: float
    xy_mm: np.ndarray
    frame: int
    stopped_past: bool  # its path in, slowing as fitted, would have stopped past the line
    near: bool = False  # its path came within the noise of the line, not onto it


def default_lines(spec: TableSpec) -> tuple[str, ...]:
    """The lines whose crossings are events: Novuss zones and circle, pool head string."""
    if spec.family is Family.NOVUSS:
        return ("zone_a", "zone_b", "zone_left", "zone_right", "circle")
    return ("head_string",)


@dataclass(frozen=True, slots=True)
class _Jaws:
    """Pool pockets' jaws as the physics has them: each jaw a point (the rounded end of a
    cushion nose at the mouth) with a throat wall behind it, running from the jaw along
    the pocket's axis to behind the capture circle; both carry the name of the cushion
    whose end the jaw is. Empty for Novuss (holes in the board)."""

    xy: np.ndarray  # (J, 2) jaw points
    axis: np.ndarray  # (J, 2) unit, from the mouth towards the pocket
    inward: np.ndarray  # (J, 2) unit normal of the throat wall, into the throat
    length_mm: np.ndarray  # (J,) of the throat wall
    cushion: np.ndarray  # (J,) index of the cushion whose end the jaw is

    @classmethod
    def of(cls, spec: TableSpec) -> _Jaws:
        rows = []
        for p in spec.pockets:
            throat = p.throat()
            if throat is None:
                continue
            _, axis, length = throat
            for jaw, inward in p.jaws():
                rows.append((jaw, axis, inward, length, spec.cushion_ending_at(jaw)))
        if not rows:
            z = np.zeros((0, 2))
            return cls(z, z, z, np.zeros(0), np.zeros(0, dtype=int))
        return cls(np.array([r[0] for r in rows]), np.array([r[1] for r in rows]),
                   np.array([r[2] for r in rows]), np.array([r[3] for r in rows]),
                   np.array([r[4] for r in rows], dtype=int))


def _reflect(v: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Velocity ``v`` turned back across a wall of unit normal ``n`` (an ideal bounce)."""
    out: np.ndarray = v - 2.0 * float(v @ n) * n
    return out


def _split_kick(n_hit: np.ndarray, n_cushion: np.ndarray, dv: np.ndarray
                ) -> tuple[float, float] | None:
    """(push, kick) of velocity change ``dv`` split into a hit's push along ``-n_hit``
    (the line of centres, towards the other object) and a cushion's kick along its normal
    ``n_cushion``; None where the two lie too near one line to tell them apart."""
    m = np.column_stack([-n_hit, n_cushion])
    if abs(float(np.linalg.det(m))) < 0.3:
        return None
    push, kick = np.linalg.solve(m, dv)
    return float(push), float(kick)


def _off_segment(pts: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(N,) distance of each of ``pts`` from the segment ``p``-``q``."""
    d = q - p
    w = np.clip(((pts - p) @ d) / max(float(d @ d), 1e-12), 0.0, 1.0)
    out: np.ndarray = np.linalg.norm(pts - (p + w[:, None] * d), axis=1)
    return out


def _component(touch: np.ndarray, root: int) -> list[int]:
    """Rows of boolean adjacency ``touch`` linked to row ``root`` by a chain of touches
    (``root`` first)."""
    out, todo = [root], [root]
    while todo:
        nxt = [int(m) for k in todo for m in touch[k].nonzero()[0] if int(m) not in out]
        nxt = list(dict.fromkeys(nxt))
        out += nxt
        todo = nxt
    return out


def _way_meets_line(start: np.ndarray, through: np.ndarray, p0: np.ndarray, v: np.ndarray
                    ) -> tuple[float, float, float] | None:
    """Where the way from ``start`` through ``through`` meets the line ``p0 + v tau``:
    ``(lam, tau, sine)``, that point being ``start + lam (through - start)``, ``sine`` the
    sine of the angle they cross at. None when they run parallel."""
    u = through - start
    det = float(u[0] * v[1] - u[1] * v[0])
    norms = float(np.linalg.norm(u) * np.linalg.norm(v))
    if abs(det) < 1e-9 * norms + 1e-12:
        return None
    d = p0 - start
    return (float(d[0] * v[1] - d[1] * v[0]) / det, float(d[0] * u[1] - d[1] * u[0]) / det,
            abs(det) / norms)


def _off_line(way: np.ndarray, line: np.ndarray) -> bool:
    """Whether motion along ``way`` goes more than 60 degrees off ``line``, a line of
    centres (``_PUSH_COS``): a push along that line did not send it."""
    return float(way @ line) < _PUSH_COS * float(np.linalg.norm(way) * np.linalg.norm(line))


def _snap_touching(xy: np.ndarray, radius_mm: np.ndarray) -> np.ndarray:
    """``xy`` of resting objects of ``radius_mm`` moved the least (in squares) that sets
    every pair resting within ``_SNAP_GAP_MM`` of touching exactly touching: a rack's
    lines of centres then point true, where the rest positions' own noise (a few tenths
    of a mm) turns them by a degree, and a big push along a line a degree off reads as a
    small push sideways."""
    d = np.linalg.norm(xy[:, None] - xy[None, :], axis=2)
    gap = d - radius_mm[:, None] - radius_mm[None, :]
    i, j = np.nonzero(np.triu(gap < _SNAP_GAP_MM, 1))
    count = np.maximum(np.bincount(np.concatenate([i, j]), minlength=len(xy)), 1)
    out = xy.copy()
    for _ in range(_SNAP_ROUNDS):
        u = out[j] - out[i]
        length = np.maximum(np.linalg.norm(u, axis=1), 1e-9)
        step = ((length - radius_mm[i] - radius_mm[j]) / (2.0 * length))[:, None] * u
        move = np.zeros_like(out)
        np.add.at(move, i, step)
        np.add.at(move, j, -step)
        out += move / count[:, None]
    return out


class MotionEventDetector:
    """The physics-fitting event detector (see the module docstring)."""

    def __init__(self, spec: TableSpec, settings: DetectorSettings | None = None) -> None:
        self.spec = spec
        self.settings = settings or DetectorSettings()
        s = self.settings
        self._lines = tuple(spec.line(n) for n in (s.lines or default_lines(spec)))
        # the lines as arrays: a point, the normal into the zone, circle radius
        depth_at = [signed_depth_mm(ln, np.zeros((3, 2)) + [[0, 0], [1, 0], [0, 1]])
                    for ln in self._lines]
        self._line_a = np.array([ln.a_xy_mm for ln in self._lines], dtype=float).reshape(-1, 2)
        self._line_circle = np.array([ln.is_circle for ln in self._lines], dtype=bool)
        self._line_r = np.array([ln.radius_mm if ln.is_circle else 0.0 for ln in self._lines])
        self._line_n = np.array([[d[1] - d[0], d[2] - d[0]] for d in depth_at]).reshape(-1, 2)
        self._cush_a = np.array([c.a_xy_mm for c in spec.cushions], dtype=float)
        self._cush_b = np.array([c.b_xy_mm for c in spec.cushions], dtype=float)
        self._cush_n = np.array([c.normal_xy for c in spec.cushions], dtype=float)
        self._pock_c = np.array([p.centre_xy_mm for p in spec.pockets], dtype=float)
        self._pock_r = np.array([p.capture_radius_mm for p in spec.pockets], dtype=float)
        self._jaws = _Jaws.of(spec)
        self._hist = max(64, s.fit_frames + s.lag_frames + 16)
        self._novuss_edges = (tuple(spec.line(n) for n in s.stroke_zones)
                              if spec.family is Family.NOVUSS else None)
        # (pool balls roll, slowing by a few mm/s per frame; Novuss discs slide and stop)
        self._rolls = spec.family is Family.POOL
        # (a disc slides straight, slowing along its way: no spin curves its path)
        self._straight = spec.family is Family.NOVUSS
        self.reset()

    # ------------------------------------------------------------------ state

    def reset(self) -> None:
        """Forget every track and event: the next batch starts a new stream."""
        h = self._hist
        self._n = 0
        self._analysed = 0
        self._t = np.full(h, np.nan)
        self._frame = np.zeros(h, dtype=int)
        self._bad = np.zeros(h, dtype=bool)
        self._slot_of: dict[int, int] = {}
        self._rows_of: tuple[bytes, np.ndarray] = (b"", np.zeros(0, dtype=int))  # of ids
        self._ids: list[int] = []
        self._labels: list[str] = []
        self._labels_in: tuple[str, ...] = ()  # the labels of the last tracks taken
        self._radius = np.zeros(0)
        self._xy = np.zeros((0, h, 2))
        self._seen = np.zeros((0, h), dtype=bool)
        self._state = np.zeros((0, h), dtype=int)
        self._sigma = np.zeros((0, h))
        self._mode = np.zeros(0, dtype=int)
        self._rest_xy = np.zeros((0, 2))
        self._rest_n = np.zeros(0, dtype=int)
        self._seg0 = np.zeros(0, dtype=int)
        self._first = np.zeros(0, dtype=int)
        self._carry = np.zeros(0, dtype=bool)
        self._orphan = np.zeros(0, dtype=bool)  # left rest this shot, no cause found yet
        self._t_start = np.zeros(0)  # when the current segment left rest (nan: it did not)
        self._left_t = np.zeros(0)  # when it last left rest, bends or not (nan: never)
        self._came_dir = np.zeros((0, 2))  # unit direction it came to rest along (0: none)
        self._rest_shot = np.zeros(0, dtype=int)  # the shot it came to rest in (0: none)
        self._rest_t = np.zeros(0)  # when it came to rest
        self._start_xy = np.zeros((0, 2))
        # (time, centre) of the contact or cushion that began an object's current segment
        # after a bend (nan: none): one more point of the path while a single sighting
        # follows (on pool too: the spin a bounce leaves curves the way off it by a mm or so
        # in a frame, and a ball that meets another just after its bounce has no other
        # path to it)
        self._anchor_t = np.zeros(0)
        self._anchor_xy = np.zeros((0, 2))
        self._first_off = np.zeros(0, dtype=int)
        # (S, C): lay against that cushion when it left rest and has not left it since
        self._hug = np.zeros((0, len(self._cush_a)), dtype=bool)
        # (S, L): the side of each line it was last placed on (0: unknown, just left rest),
        # and the frame it was last seen there
        self._side = np.zeros((0, len(self._lines)), dtype=np.int8)
        self._side_k = np.zeros((0, len(self._lines)), dtype=int)
        self._shot = 0
        self._shot_on = False
        self._last_motion_t = -math.inf
        self._pending: list[tuple[Event, float]] = []  # (event, sigma of its time)
        # pending pushes through objects at rest: an impulse passes a pack's neighbours at
        # once, so their order is no question (ids of the events)
        self._at_once: set[int] = set()
        self._last_pair_t: dict[tuple[int, int], float] = {}
        self._struck_t: dict[int, float] = {}  # resting objects hit (held, or a cradle)
        # slot -> (t_s, unit direction) of the last hit that started it from rest
        self._hit_dir: dict[int, tuple[float, np.ndarray]] = {}
        # slot -> (t_s, mm/s, lone) of that hit, where a mover's fitted path made it: the
        # most speed an elastic hit hands on; lone where the object touched no other (a
        # pack shares the hit out)
        self._hit_speed: dict[int, tuple[float, float, bool]] = {}
        self._contact_t: dict[int, float] = {}  # slot -> time of its last contact reported
        self._contact_with: dict[int, int] = {}  # slot -> the other slot of that contact
        # slot -> (t_s, centre, slot it struck) of the last contact it made as the mover
        self._struck_from: dict[int, tuple[float, np.ndarray, int]] = {}
        # (slot, slot), the lower first -> time of the last contact between them reported
        self._pair_reported: dict[tuple[int, int], float] = {}
        self._kicks: dict[int, _Hit] = {}  # slot -> a hit to test it for a cushion after
        # (slot, slot), the lower first -> when a pack's fit last said they met faintly
        self._faint: dict[tuple[int, int], float] = {}
        self._packs: list[_Pack] = []  # the pack fits of the last second (_pack_impulses)
        # (slot, frame, its path into it) of bends nothing explained: a hit on an object
        # lost from view then, which a start seen later may own up to
        self._loose_bends: list[tuple[int, int, np.ndarray]] = []
        self._last_cush_t: dict[tuple[int, int], float] = {}  # (slot, cushion) -> t_s
        self._last_cush_xy: dict[tuple[int, int], np.ndarray] = {}  # and where it was
        # (slot, cushion) -> a slow path's touch whose departure the frames ahead did not
        # show yet (``_slow_bounces``)
        self._slow_roots: dict[tuple[int, int], _SlowRoot] = {}
        # (slot, slot) -> (time, frame) two slow paths came within the noise of touching
        self._slow_pairs: dict[tuple[int, int], tuple[float, int]] = {}
        self._dt = 1 / 30

    def _radius_of(self, label: str) -> float:
        return self.spec.object_for(label).radius_mm if label in self.spec.labels else 0.0

    def _grow(self, track_id: int, label: str) -> int:
        s = len(self._ids)
        h = self._hist
        self._slot_of[track_id] = s
        self._ids.append(track_id)
        self._labels.append(label)
        self._radius = np.append(self._radius, self._radius_of(label))
        self._xy = np.concatenate([self._xy, np.full((1, h, 2), np.nan)])
        self._seen = np.concatenate([self._seen, np.zeros((1, h), dtype=bool)])
        self._state = np.concatenate([self._state, np.full((1, h), _ABSENT)])
        self._sigma = np.concatenate([self._sigma, np.full((1, h), np.nan)])
        self._mode = np.append(self._mode, _NEW)
        self._rest_xy = np.concatenate([self._rest_xy, np.zeros((1, 2))])
        self._rest_n = np.append(self._rest_n, 0)
        self._seg0 = np.append(self._seg0, self._n)
        self._first = np.append(self._first, self._n)
        self._carry = np.append(self._carry, False)
        self._orphan = np.append(self._orphan, False)
        self._t_start = np.append(self._t_start, np.nan)
        self._left_t = np.append(self._left_t, np.nan)
        self._came_dir = np.concatenate([self._came_dir, np.zeros((1, 2))])
        self._rest_shot = np.append(self._rest_shot, 0)
        self._rest_t = np.append(self._rest_t, -math.inf)
        self._start_xy = np.concatenate([self._start_xy, np.zeros((1, 2))])
        self._anchor_t = np.append(self._anchor_t, np.nan)
        self._anchor_xy = np.concatenate([self._anchor_xy, np.zeros((1, 2))])
        self._hug = np.concatenate([self._hug, np.zeros((1, self._hug.shape[1]), dtype=bool)])
        self._side = np.concatenate([self._side, np.zeros((1, len(self._lines)), dtype=np.int8)])
        self._side_k = np.concatenate([self._side_k, np.zeros((1, len(self._lines)), dtype=int)])
        return s

    # ------------------------------------------------------------------ input

    def update(self, tracks: Tracks) -> list[Event]:
        """Take one frame's tracks; return the events now decided (a few frames late)."""
        h = self._hist
        if self._n:
            prev = self._t[(self._n - 1) % h]
            if not tracks.t_s > prev:  # duplicate or backwards time: drop, remember
                self._bad[(self._n - 1) % h] = True
                return []
        col = self._n % h
        gap = False
        if self._n >= 2:
            ts = self._t[(self._n - np.arange(min(self._n, 8), 0, -1)) % h].tolist()
            dts = sorted(b - a for a, b in zip(ts[:-1], ts[1:], strict=True) if b > a)
            if dts:
                mid = len(dts) // 2
                self._dt = dts[mid] if len(dts) % 2 else 0.5 * (dts[mid - 1] + dts[mid])
                gap = tracks.t_s - ts[-1] > 1.6 * self._dt
        key = tracks.id.tobytes()
        if key != self._rows_of[0]:  # (the same ids as the frame before, mostly)
            for i, lab in zip(tracks.id.tolist(), tracks.label, strict=True):
                if i not in self._slot_of:
                    self._grow(int(i), lab)
            self._rows_of = (key, np.array([self._slot_of[i] for i in tracks.id.tolist()],
                                           dtype=int))
        if tracks.label is not self._labels_in and tracks.label != self._labels_in:
            # the tracker read a number again (its votes overruled a misread first
            # label): what the object is named as, from now on, and its size
            for k, lab in zip(self._rows_of[1].tolist(), tracks.label, strict=True):
                if self._labels[k] != lab:
                    self._labels[k] = lab
                    self._radius[k] = self._radius_of(lab)
            self._labels_in = tracks.label
        self._t[col] = tracks.t_s
        self._frame[col] = tracks.frame
        self._bad[col] = gap
        self._xy[:, col] = np.nan
        self._seen[:, col] = False
        self._state[:, col] = _ABSENT
        self._sigma[:, col] = np.nan
        if len(tracks):
            rows = self._rows_of[1]
            obs = tracks.obs_xy_mm
            seen = tracks.seen & np.isfinite(obs).all(axis=1) & tracks.on_table
            self._state[rows, col] = tracks.state
            self._seen[rows, col] = seen
            self._xy[rows[seen], col] = obs[seen]
            sig = np.where(np.isfinite(tracks.sigma_mm), tracks.sigma_mm, 0.0)
            # a resting track's own sigma shrinks as its sightings average, yet each
            # sighting is tested against where it rests: it is as noisy as it came
            # (a box centre where an edge fit failed lies mm off, and is said to)
            resting = (tracks.state == _TRACK_RESTING) & np.isfinite(tracks.obs_sigma_mm)
            sig = np.where(resting, tracks.obs_sigma_mm, sig)
            self._sigma[rows, col] = np.maximum(sig, self.settings.noise_floor_mm)
        self._n += 1
        out: list[Event] = []
        while self._analysed <= self._n - 1 - self.settings.lag_frames:
            out += self._analyse(self._analysed, self.settings.lag_frames)
            self._analysed += 1
        return out + self._release(self._t[(self._analysed - 1) % h] if self._analysed else -1)

    def flush(self) -> list[Event]:
        """End of stream: decide the last frames and report whatever is still pending."""
        out: list[Event] = []
        while self._analysed < self._n:
            out += self._analyse(self._analysed, self._n - 1 - self._analysed)
            self._analysed += 1
        if self._n:
            t_last = float(self._t[(self._n - 1) % self._hist])
            if self._shot_on and not np.any(self._mode == _MOVING):
                out.append(self._shot_end(max(self._last_motion_t, t_last - 1e-3)))
        return out + self._release(math.inf)

    # --------------------------------------------------------------- helpers

    def _T(self, a: int) -> float:
        return float(self._t[a % self._hist])

    def _shot_no(self) -> int:
        return self._shot if self._shot_on else self._shot + 1

    def _ref(self, s: int) -> ObjectRef:
        return ObjectRef(self._ids[s], self._labels[s])

    def _frame_at(self, t_s: float, a: int) -> int:
        frames = [k for k in range(max(0, a - 4), min(self._n, a + 2))]
        times = np.array([self._T(k) for k in frames])
        k = frames[int(np.argmin(np.abs(times - t_s)))]
        return int(self._frame[k % self._hist])

    def _quality(self, slots: list[int], a: int, *, gone_after: bool = False,
                 from_a: bool = False) -> float:
        """Confidence factor for frames missing or bad around frame ``a`` (up to ``a`` alone
        when the object is ``gone_after`` it: one gone into a pocket or off the table is
        unseen after it left, which says nothing about how well it was seen going; from
        ``a`` on alone for an event read ``from_a`` its path after it)."""
        end = min(self._n, a + 1 if gone_after else a + 3)
        ks = [k % self._hist for k in range(a if from_a else max(0, a - 3), end)]
        missing = int(self._bad[ks].sum())
        for s in slots:
            missing += int((~self._seen[s, ks]).sum())
        return float(self.settings.gap_factor ** missing)

    def _frames(self, a0: int, a1: int) -> np.ndarray:
        """Frames ``a0..a1`` that the history still holds."""
        return np.arange(max(a0, 0, self._n - self._hist), min(a1, self._n - 1) + 1)

    def _samples(self, s: int, a0: int, a1: int, tref: float) -> tuple[np.ndarray, np.ndarray]:
        """Seen observations of slot ``s`` in frames ``a0..a1``: (tau, xy)."""
        cols = self._frames(a0, a1) % self._hist
        ok = self._seen[s, cols]
        return self._t[cols[ok]] - tref, self._xy[s, cols[ok]]

    def _path_samples(self, s: int, a: int, t_a: float) -> tuple[np.ndarray, np.ndarray]:
        """The sightings of mover ``s`` that its path before frame ``a`` is fitted to
        (``_paths``: its segment's, in the fit frames before ``a``)."""
        return self._samples(s, max(a - self.settings.fit_frames, int(self._seg0[s])),
                             a - 1, t_a)

    def _nose_gaps(self, slots: np.ndarray, xy: np.ndarray) -> np.ndarray:
        """``(S, C)``: how far (mm) the edge of each object ``slots`` at ``xy`` lies inside
        each cushion's nose line (negative: over it)."""
        depth = np.einsum("scx,cx->sc", xy[:, None] - self._cush_a[None], self._cush_n)
        out: np.ndarray = depth - self._radius[slots][:, None]
        return out

    def _on_surface(self, slots: np.ndarray, xy: np.ndarray, sigma: np.ndarray) -> np.ndarray:
        """Whether objects ``slots`` at ``xy`` could rest there: their centres at least one
        radius inside every cushion's nose line (within 3 sigma and a few mm)."""
        slack = 3.0 * sigma + _TOUCH_GAP_MM
        inside = self._nose_gaps(slots, xy) >= -slack[:, None]
        return np.asarray(inside.all(axis=1), dtype=bool)

    def _leave_cushions(self, slots: np.ndarray, col: int) -> None:
        """Clear ``_hug`` for objects ``slots`` seen clear of the cushion they lay against:
        their edge more than 3 sigma and ``onset_min_mm`` off its nose line."""
        slots = slots[self._seen[slots, col] & self._hug[slots].any(axis=1)]
        if not len(slots):
            return
        sig = self._sigmas_of(slots, col)
        off = self._nose_gaps(slots, self._xy[slots, col]) > (
            3.0 * sig + self.settings.onset_min_mm)[:, None]
        self._hug[slots] &= ~off

    def _back_inside(self, s: int, p: np.ndarray) -> np.ndarray:
        """Where slot ``s``, its path run to ``p``, was: mirrored back inside any cushion
        whose nose ``p`` lies beyond by more than the noise floor (a path fitted across a
        bounce off that cushion runs on through it)."""
        gaps = self._nose_gaps(np.array([s]), p[None])[0]
        for k in (gaps < -self.settings.noise_floor_mm).nonzero()[0]:
            if self._beside_cushion(int(k), p):
                p = p - 2.0 * float(gaps[k]) * self._cush_n[k]
        return p

    def _beside_cushion(self, k: int, p: np.ndarray, margin_mm: float = 0.0) -> bool:
        """Whether ``p`` lies along cushion ``k``'s nose, between its ends or up to
        ``margin_mm`` past either (an object touching the end of a cushion, by a pocket)."""
        ab = self._cush_b[k] - self._cush_a[k]
        along = float((p - self._cush_a[k]) @ ab) / float(ab @ ab)
        half = margin_mm / float(np.linalg.norm(ab))
        return -half <= along <= 1.0 + half

    def _cushion_recent(self, s: int, k: int, t_s: float) -> bool:
        """Whether slot ``s`` was found at cushion ``k`` within 3.5 frames before ``t_s``
        (the same bounce, seen again from a later frame), with no contact of its own
        between (after which it came back to that cushion: a bounce of its own; not one
        within ``_SAME_TOUCH_S`` of ``t_s``, which left it no time to come back)."""
        last = self._last_cush_t.get((s, k), -math.inf)
        if not t_s - last < 3.5 * self._dt:
            return False
        t_c = self._contact_t.get(s, -math.inf)
        if not last < t_c < t_s - _SAME_TOUCH_S:
            return True
        # (nor a contact with a resting object no farther from that cushion than it was:
        # one against the cushion beside it pushes it off the cushion, never back)
        j = self._contact_with[s]
        if self._mode[j] == _REST or float(self._t_start[j]) >= t_c - 1e-6:
            n, at = self._cush_n[k], self._cush_a[k]
            return float((self._rest_xy[j] - at) @ n) < float(
                (self._last_cush_xy[(s, k)] - at) @ n) + 1.0
        return False

    def _cushion_event(self, s: int, k: int, t_s: float, a: int, xy: np.ndarray,
                       conf: float, pressed: bool = False) -> None:
        """Report slot ``s`` at cushion ``k``. An object sliding along the cushion it lay
        against (``_hug``) shows only noise across that nose line: no new contact there
        (WPA 8.4: a ball frozen to a rail counts once it leaves and returns), except the
        push into it at the moment it is struck (``pressed``)."""
        if self._hug[s, k] and not pressed:
            return
        self._last_cush_t[(s, k)] = t_s
        self._last_cush_xy[(s, k)] = np.asarray(xy, dtype=float)
        self._event(EventKind.CUSHION, t_s, a, (self._ref(s),), xy, conf,
                    cushion=self.spec.cushions[k].name)

    def _sigma_of(self, s: int, a: int) -> float:
        v = self._sigma[s, a % self._hist]
        return float(v) if np.isfinite(v) else self.settings.noise_floor_mm

    def _noise_mm(self, s: int, a: int) -> float:
        """How far (mm) a sighting of slot ``s`` at frame ``a`` may lie off where it should
        by noise alone: 3 sigma, and ``onset_min_mm`` more."""
        return 3.0 * self._sigma_of(s, a) + self.settings.onset_min_mm

    def _onset_mm(self, sigma_mm: np.ndarray | float) -> np.ndarray:
        """How far (mm) from where it rested an object must be seen to have moved, for
        position noise ``sigma_mm`` (``onset_sigmas`` of it, at least ``onset_min_mm``)."""
        s_ = self.settings
        out: np.ndarray = np.maximum(s_.onset_min_mm, s_.onset_sigmas * np.asarray(sigma_mm))
        return out

    def _sigmas_of(self, slots: np.ndarray, col: int) -> np.ndarray:
        """``_sigma_of`` for many slots, at ring column ``col``."""
        v = self._sigma[slots, col]
        out: np.ndarray = np.where(np.isfinite(v), v, self.settings.noise_floor_mm)
        return out

    def _event(self, kind: EventKind, t_s: float, a: int, refs: tuple[ObjectRef, ...],
               xy: np.ndarray | tuple[float, float], conf: float, sigma_t: float = 0.0,
               **names: str | None) -> Event | None:
        """Queue an event; the one queued, or None for a contact reported already."""
        ev = Event(kind, float(t_s), self._frame_at(t_s, a), self._shot_no(), refs,
                   (float(xy[0]), float(xy[1])), float(min(1.0, max(0.0, conf))), **names)
        if kind is EventKind.CONTACT:
            for ref, other_ref in (refs, refs[::-1]):
                slot = self._slot_of[ref.id]
                if float(t_s) >= self._contact_t.get(slot, -math.inf):
                    self._contact_t[slot] = float(t_s)
                    self._contact_with[slot] = self._slot_of[other_ref.id]
            mover, other = self._slot_of[refs[0].id], self._slot_of[refs[1].id]
            if self._contact_t[mover] == float(t_s):
                self._struck_from[mover] = (float(t_s), np.array(ev.xy_mm), other)
            if self._reported_near(mover, other, t_s):
                return None  # (the same contact found twice: a second way, or a frame on)
            self._pair_reported[(min(mover, other), max(mover, other))] = float(t_s)
        self._pending.append((ev, sigma_t))
        return ev

    def _release(self, t_now: float) -> list[Event]:
        """Pending events older than two frames, contacts' order confidence settled (and
        that of the cushions their struck objects were pressed into)."""
        if not self._pending:
            return []
        hold = 2.5 * self._dt
        ready = [p for p in self._pending if p[0].t_s < t_now - hold]
        if not ready:
            return []
        self._pending = [p for p in self._pending if p[0].t_s >= t_now - hold]
        contacts = [p for p in self._pending + ready if p[0].kind is EventKind.CONTACT]
        conf: dict[int, float] = {}
        for ev, sig in ready:
            if ev.kind is not EventKind.CONTACT:
                continue
            conf[id(ev)] = ev.confidence
            for other, osig in contacts:
                if other is ev or other.objects[0] != ev.objects[0] or (
                        id(ev) in self._at_once and id(other) in self._at_once):
                    continue
                dt = abs(other.t_s - ev.t_s)
                if dt < self._dt:
                    spread = math.hypot(sig, osig, self.settings.split_sigma_s)
                    # how far the order is from a coin toss: 0 for a tie (a puck into
                    # the junction of two pawns), 0.5 when it is right 3 times in 4
                    p_order = float(_phi(np.array([dt / spread]))[0])
                    conf[id(ev)] = min(conf[id(ev)], 2.0 * p_order - 1.0)
        # (a cushion the struck object was pressed into at its contact's time stands only
        # if that contact does: no surer than the surest such contact)
        struck: dict[tuple[int, float], float] = {}
        for c, _ in contacts:
            key = (c.objects[1].id, c.t_s)
            struck[key] = max(struck.get(key, 0.0), conf.get(id(c), c.confidence))
        out = []
        for ev, _ in ready:
            c_ev = conf.get(id(ev), ev.confidence)
            if ev.kind is EventKind.CUSHION:
                c_ev = min(c_ev, struck.get((ev.objects[0].id, ev.t_s), 1.0))
            if c_ev != ev.confidence:
                ev = Event(ev.kind, ev.t_s, ev.frame, ev.shot, ev.objects, ev.xy_mm, c_ev,
                           ev.cushion, ev.pocket, ev.line)
            out.append(ev)
        self._at_once.intersection_update(id(p[0]) for p in self._pending)
        # keep the split partners around for the events still pending
        return sorted(out, key=lambda e: e.t_s)

    # -------------------------------------------------------------- analysis

    def _analyse(self, a: int, look: int) -> list[Event]:
        s_ = self.settings
        h = self._hist
        n_slots = len(self._ids)
        t_a = self._T(a)
        if n_slots == 0:
            return []
        col = a % h
        ahead = [(a + k) % h for k in range(look + 1)]

        reported = [ev for ev, _ in self._pending]  # (before this frame)

        # 1. objects leaving the play, objects coming back
        st = self._state[:, col]
        leaving = (st == _POCKETED) | (st == _OFF_TABLE)
        self._mode[leaving & (self._mode == _NEW)] = _GONE  # gone before we saw it
        live = (self._mode == _REST) | (self._mode == _MOVING)
        # struck at rest and gone before a frame shows it moving (a pawn by a corner
        # pocket): its contact is found from where it lay (step 4)
        vanished = leaving & (self._mode == _REST) if self._shot_on else np.zeros_like(leaving)
        for s in (leaving & live).nonzero()[0].tolist():
            if self._removal(int(s), a, int(st[s])):
                vanished[s] = False  # (its contact is found already)
            self._mode[s] = _GONE
        back = (self._mode == _GONE) & self._seen[:, col]
        for s in back.nonzero()[0].tolist():
            self._mode[s] = _NEW
            self._first[s] = a
            self._carry[s] = True

        # 2. new tracks: resting or moving
        for s in ((self._mode == _NEW) & self._seen[:, col]).nonzero()[0].tolist():
            tau, xy = self._samples(int(s), a, a + look, t_a)
            if len(tau) < min(3, look + 1):
                continue
            mean = xy.mean(axis=0)
            spread = float(np.linalg.norm(xy - mean, axis=1).max())
            thr = float(self._onset_mm(self._sigma_of(int(s), a)))
            appeared = self._first[s] > 0 or self._carry[s]
            if spread < thr:
                self._mode[s] = _REST
                self._rest_xy[s] = mean
                self._rest_n[s] = len(tau)
                if appeared:
                    self._event(EventKind.PLACED, t_a, a, (self._ref(int(s)),), mean,
                                self._quality([int(s)], a))
                self._carry[s] = False
            else:
                self._mode[s] = _MOVING
                self._seg0[s] = a
                self._t_start[s] = np.nan
                self._carry[s] = bool(appeared)

        # 3a. onsets of resting tracks (vectorised)
        rest = (self._mode == _REST).nonzero()[0]
        onset = np.zeros(n_slots, dtype=bool)
        soon = np.zeros(n_slots, dtype=bool)  # leaves rest within the look-ahead
        nudge_test: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        # (the frame ahead, 0 .. look, a resting one is first seen off its rest in)
        self._first_off = np.full(n_slots, look + 1)
        if len(rest):
            obs = self._xy[rest][:, ahead]
            off = obs - self._rest_xy[rest, None]
            d = np.sqrt(off[..., 0] * off[..., 0] + off[..., 1] * off[..., 1])
            sig = self._sigmas_of(rest, col)
            limit = self._onset_mm(sig)
            exceed = d > limit[:, None]  # (False where unseen: NaN)
            # a ball knocked into a pocket or off the table is gone before a second frame
            st_ahead = self._state[rest][:, ahead[1:]]
            exceed[:, 1:] |= (st_ahead == _POCKETED) | (st_ahead == _OFF_TABLE)
            need = min(2, look)
            # (of the frames ahead that see it, when it comes back from hiding between
            # shots where it can lie: one moved under a hand and hidden again at once is
            # seen away from its rest only once or twice; one carried over a cushion is
            # still in the hand)
            back = ~self._seen[rest, (a - 1) % h] & (not self._shot_on)
            back &= exceed[:, 0]  # (it only matters for those seen away from their rest)
            if back.any():
                back[back] = self._on_surface(rest[back], np.nan_to_num(obs[back, 0]), sig[back])
            seen_ahead = self._seen[rest][:, ahead[1:]].sum(axis=1)
            later = exceed[:, 1:].sum(axis=1) >= np.where(
                back, np.minimum(seen_ahead, need), np.minimum(np.maximum(seen_ahead, 1), need))
            onset[rest] = exceed[:, 0] & (later | (look == 0))
            soon[rest] = exceed.sum(axis=1) >= max(need, 1)
            self._first_off[rest] = np.where(exceed.any(axis=1), exceed.argmax(axis=1), look + 1)
            if self._shot_on and self._straight:  # (of those near their rest all along)
                near = ~exceed.any(axis=1)
                nudge_test = (rest[near], sig[near], self._rest_xy[rest[near]].copy())
            keep = rest[~onset[rest] & self._seen[rest, col]]
            if len(keep):
                w = 1.0 / np.minimum(self._rest_n[keep] + 1, 30)
                self._rest_xy[keep] += w[:, None] * (self._xy[keep, col] - self._rest_xy[keep])
                self._rest_n[keep] += 1

        # 3b. bends and rest of moving tracks (vectorised over the moving tracks)
        moving = (self._mode == _MOVING).nonzero()[0]
        self._leave_cushions(moving, col)
        bend = np.zeros(n_slots, dtype=bool)
        paths, fitted, to_rest = self._moving_step(moving, a, look, t_a, bend, soon)
        soon |= bend
        # 3c. cushions no bend shows yet (slow bounces, small bends, just after a contact;
        # and a short line, run into a cushion before the next sighting: the bend test
        # allows a line through two points, run on, far more than that bounce)
        self._cushion_scan([m for m in moving.tolist() if m in self._scanned and not bend[m]],
                           paths, a, look, t_a)
        if self._slow_roots:
            self._slow_bounces(a, look)
        if self._shot_on and len(moving):
            self._near_pairs(moving, paths, a, t_a)
        if self._slow_pairs:
            self._slow_contacts(a, look)

        # 4. causes of every change
        self._bent_late: set[int] = set()
        soon |= vanished
        triggers = (onset | bend | vanished).nonzero()[0].tolist()
        explained: set[int] = set()
        if triggers:
            for s in (*rest.tolist(), *vanished.nonzero()[0].tolist()):
                paths.setdefault(s, still_path(self._rest_xy[s]))
            explained = self._causes(a, triggers, paths, onset, bend, soon, t_a, fitted)
            self._late_roots(explained - set(triggers))
            for i in triggers:
                if bend[i] and i not in explained and (
                        i in self._touch_only or self._premature(i, a, t_a)):
                    # (its path goes on: the next frame tests it again; a touch test's
                    # bend no touch explains was the path's stray, or comes later)
                    bend[i] = False
                elif bend[i] and i not in explained and i in paths and self._met_loose(
                        i, a, t_a, paths[i]):
                    explained.add(i)
            self._loose_bends = [b for b in self._loose_bends if a - b[1] < self._hist // 2
                                 and t_a - self._T(b[1]) < _LOOSE_BEND_S]
            self._loose_bends += [(i, a, paths[i].copy()) for i in triggers
                                  if bend[i] and i in paths and i not in explained]
        if self._kicks:
            self._rails_after_hits(a, t_a)

        # 5. onsets nobody explains yet: struck by a mover (the stroke just played counts),
        #    pushed by a touching neighbour that was, a stroke, or a hand
        starts = onset.nonzero()[0].tolist()
        if starts:
            tau0_a = self._window(a)[0]
            for s in starts:
                if s in explained and math.isfinite(self._t_start[s]):
                    self._start_xy[s] = self._rest_xy[s]
                    continue  # timed by the contact that started it
                t_on = self._onset_of(s, a, t_a)
                self._t_start[s] = t_on if t_on is not None else t_a + tau0_a / 2
                self._start_xy[s] = self._rest_xy[s]
            started = {s for s in starts if s in explained}
            if self._shot_on:
                explained.update(s for s in starts if s not in explained
                                 and self._restarts(s, a, look, t_a))
            remaining = sorted((s for s in starts if s not in explained), key=lambda s: (
                self._labels[s] not in s_.striker_labels, self._t_start[s]))
            while True:
                self._cluster_pushes(a, starts, explained, t_a)
                started |= explained & set(starts)
                remaining = [s for s in remaining if s not in explained]
                if not remaining:
                    break
                if self._shot_on:
                    hit = [s for s in remaining
                           if self._struck_by(s, a, t_a, paths, started, onset)]
                    if hit:
                        explained.update(hit)
                        continue
                    if self._struck_through_row(remaining, a, t_a, paths):
                        continue  # the push runs down the row to them
                s = remaining.pop(0)
                if self._unexplained_onset(s, a, look, t_a, onset, soon):
                    started.add(s)
            for s in starts:
                self._orphan[s] = self._shot_on and s not in explained and s not in started
                if self._shot_on and (s in explained or s in started):
                    self._cushion_before_seen(s, a, t_a)
            if self._shot_on and started:
                self._struck_by_late(a, t_a, paths, started, onset)

        if self._shot_on:
            self._hit_after_hit(reported, onset, a, t_a)
        if nudge_test is not None:  # (what the contacts found so far leave unexplained)
            self._nudges(a, t_a, ahead, *nudge_test)

        # 6. line crossings between the last two observations of moving tracks
        if self._lines:
            self._crossings(((self._mode == _MOVING) | onset).nonzero()[0], a)

        # 7. mode changes
        started_now = onset.nonzero()[0]
        if len(started_now):
            self._hug[started_now] = self._holding(started_now)
        for s in started_now.tolist():
            self._mode[s] = _MOVING
            self._seg0[s] = a
            self._left_t[s] = self._t_start[s]
        for s in bend.nonzero()[0].tolist():
            self._seg0[s] = a + 1 if s in self._bent_late else a
            self._t_start[s] = np.nan
            self._anchor_t[s] = np.nan
            t_c = self._run_began(s)  # (its last contact or cushion: no start now)
            if (s in paths
                    and t_a - 2.0 * self._dt < t_c < self._T(int(self._seg0[s])) - 1e-3):
                self._anchor_t[s] = t_c
                self._anchor_xy[s] = eval_path(paths[s], t_c - t_a)
        for s in ((self._mode == _MOVING) & ~bend & ~onset).nonzero()[0].tolist():
            self._restart_after_blind_contact(s, a)
        for s, t_stop in to_rest:
            self._mode[s] = _REST
            self._side[s] = 0
            tau, xy = self._samples(s, a - 2, a, t_a)
            if not len(tau):  # held unseen by the tracker: where it was last seen
                tau, xy = self._samples(s, a - self._hist + 1, a, t_a)
                tau, xy = tau[-1:], xy[-1:]
            had_rest, before_xy = self._rest_n[s] > 0, self._rest_xy[s].copy()
            if len(tau):
                self._rest_xy[s] = xy.mean(axis=0)
            _, xy_b = self._samples(s, max(int(self._seg0[s]), a - 2 * s_.fit_frames),
                                    a - s_.fit_frames, t_a)
            came = self._rest_xy[s] - xy_b.mean(axis=0) if len(xy_b) else np.zeros(2)
            norm = float(np.linalg.norm(came))
            self._came_dir[s] = came / norm if norm > 2.0 * s_.onset_min_mm else 0.0
            self._rest_shot[s] = self._shot if self._shot_on else 0
            self._rest_t[s] = t_stop
            self._rest_n[s] = len(tau)
            self._last_motion_t = max(self._last_motion_t, t_stop)
            if self._carry[s]:
                # the striker is placed (ball in hand, the puck); another object is placed
                # when it first comes to rest, and moved when a hand shifts it later
                first_rest = self._first[s] > 0 and self._seg0[s] <= self._first[s]
                kind = (EventKind.PLACED if self._labels[s] in s_.striker_labels or first_rest
                        else EventKind.MOVED)
                shift = float(np.linalg.norm(self._rest_xy[s] - before_xy))
                if kind is EventKind.PLACED or not had_rest or shift >= s_.hand_min_mm:
                    self._event(kind, t_stop, a, (self._ref(s),), self._rest_xy[s],
                                self._quality([s], a))
                self._carry[s] = False
        if np.any(self._mode == _MOVING):
            self._last_motion_t = max(self._last_motion_t, t_a - self._dt)

        # 8. the end of a shot
        if (self._shot_on and not np.any(self._mode == _MOVING)
                and t_a - self._last_motion_t >= s_.shot_end_window_s):
            self._pending.append((self._shot_end(self._last_motion_t), 0.0))
        return []

    def _moving_step(self, moving: np.ndarray, a: int, look: int, t_a: float,
                     bend: np.ndarray, soon: np.ndarray
                     ) -> tuple[dict[int, np.ndarray], set[int], list[tuple[int, float]]]:
        """Fit every moving track's current segment, test the frames after for a bend
        (sets ``bend`` and ``soon``) and the frames up to ``a`` for rest, all tracks at
        once. Returns the paths, the slots fitted to three or more observations and the
        slots now at rest with their stop times."""
        s_ = self.settings
        h = self._hist
        paths: dict[int, np.ndarray] = {}
        fitted: set[int] = set()
        to_rest: list[tuple[int, float]] = []
        self._fits_a = np.zeros(len(self._ids), dtype=bool)
        self._slow_bent: set[int] = set()  # slots bent only by the slow test
        # (and only by the touch test, ``_touch_bends``)
        self._touch_only: set[int] = set()
        self._touched: dict[int, set[int]] = {}  # (and whom the touch test found them touch)
        self._from_start: set[int] = set()  # slots whose path runs from where they left rest
        # (and those whose path is the line from there through one sighting)
        self._drawn_from_rest: set[int] = set()
        self._scanned: set[int] = set()  # (and those whose path the cushion scan reads)
        m = len(moving)
        if m == 0:
            return paths, fitted, to_rest
        col = a % h
        f = s_.fit_frames
        ks = np.arange(a - f, a)
        cols = ks % h
        seg0 = self._seg0[moving]
        ok = (self._seen[moving][:, cols] & (ks >= max(0, self._n - h))[None]
              & (ks[None] >= seg0[:, None]))
        n = ok.sum(axis=1)
        tau_all = self._t[cols] - t_a
        coef = np.zeros((m, 3, 2))
        rms = np.zeros(m)
        deg2 = n >= 4
        nfit = n.astype(float)
        tmax = np.zeros(m)
        tmin = np.zeros(m)
        if np.any(deg2):
            tau_b = np.broadcast_to(tau_all, (int(deg2.sum()), f))
            xy_b = self._xy[moving[deg2]][:, cols]
            coef[deg2], rms[deg2], _ = fit_paths(tau_b, xy_b, ok[deg2], 2)
            if self._straight:
                coef[deg2], rms[deg2] = straighten(coef[deg2], tau_b, xy_b, ok[deg2])
            tmax[deg2] = np.where(ok[deg2], tau_b, -np.inf).max(axis=1)
            tmin[deg2] = np.where(ok[deg2], tau_b, np.inf).min(axis=1)
        have = deg2.copy()
        met = np.zeros(m, dtype=bool)  # movers with only the frames after to stand in
        for r in (~deg2).nonzero()[0].tolist():  # just after a change: few
            s = int(moving[r])
            tau = tau_all[ok[r]]
            xy = self._xy[s, cols[ok[r]]]
            if math.isfinite(self._t_start[s]) and (
                    len(tau) >= 2 or (len(tau) == 1 and self._into_cushion(s, tau, xy, a,
                                                                            t_a))):
                # just left rest: where and when it left is one more point of the line
                tau = np.concatenate([[self._t_start[s] - t_a], tau])
                xy = np.concatenate([self._start_xy[s][None], xy])
                self._from_start.add(s)
            if (len(tau) == 1
                    and self._anchor_t[s] - t_a < float(tau[0]) - _ANCHOR_LEAD * self._dt
                    and not self._steady_after(s, a, t_a)):
                # an object bent by a contact (or a cushion) just before its one sighting
                # since: the line from where it met it (another contact may follow within
                # the frame). Met a ms or two before that sighting, the line's direction is
                # the noise's: the frames after stand in.
                tau = np.concatenate([[self._anchor_t[s] - t_a], tau])
                xy = np.concatenate([self._anchor_xy[s][None], xy])
            if len(tau) >= 2:
                deg = 2 if len(tau) >= 4 else 1
                coef[r], rms[r] = fit_path(tau, xy, deg)
                if deg == 2 and self._straight:
                    c_r, rms_r = straighten(coef[r][None], tau[None], xy[None],
                                            np.ones((1, len(tau)), dtype=bool))
                    coef[r], rms[r] = c_r[0], rms_r[0]
                deg2[r] = deg == 2
                have[r] = True
                nfit[r] = len(tau)
                tmax[r], tmin[r] = float(tau.max()), float(tau.min())
                continue
            # its rest position or the frames after stand in
            start = self._start_path(s, int(self._seg0[s]), t_a)
            tau2, xy2 = self._samples(s, self._seg0[s], self._seg0[s] + 2, t_a)
            if start is not None:
                paths[s] = start
                self._drawn_from_rest.add(s)
            elif len(tau2) >= 2:
                paths[s] = coef[r] = fit_path(tau2, xy2, 1)[0]
                met[r] = True  # (what the touch test's movers may meet)
        for r in have.nonzero()[0].tolist():
            paths[int(moving[r])] = coef[r]
        fitted.update(moving[have & (nfit >= 3)].tolist())
        # (every path fitted to sightings, a line through two of them, or through one and
        # where it was bent or left rest, included; but a striker's stroke line through
        # one, which for a puck struck off a pawn beside its cushion runs into that cushion)
        self._scanned = {int(m) for m, k in zip(moving[have], nfit[have], strict=True)
                         if k >= 3 or m not in self._from_start
                         or self._labels[m] not in s_.striker_labels}

        # bends: the next observations miss the extrapolated fit (vectorised)
        ahead = np.array([(a + k) % h for k in range(look + 1)])
        seen_ah = self._seen[moving][:, ahead] & have[:, None]
        tt = self._t[ahead] - t_a
        pred = (coef[:, None, 0] + coef[:, None, 1] * tt[None, :, None]
                + coef[:, None, 2] * (tt**2)[None, :, None])
        off = self._xy[moving][:, ahead] - pred
        res = np.sqrt(off[..., 0] * off[..., 0] + off[..., 1] * off[..., 1])
        res[np.isnan(res)] = 0.0  # (unseen)
        sig = self._sigmas_of(moving, col)
        span = tmax - tmin + 1e-3
        h_ext = tt[None, :] - tmax[:, None]
        model = np.where(deg2[:, None], 0.5 * 200.0 * (h_ext + span[:, None] / 2) ** 2,
                         0.5 * _MAX_ACCEL_MM_S2 * (h_ext + span[:, None]) ** 2)
        thr = s_.bend_min_mm + s_.bend_sigmas * np.maximum(sig, rms)[:, None] * (
            1.0 + 2.0 / np.maximum(nfit, 1.0)[:, None] + h_ext / span[:, None]) + model
        miss = (res > thr) & seen_ah
        # the seen observations in order, first
        order = np.argsort(~seen_ah, axis=1, kind="stable")
        n_ah = seen_ah.sum(axis=1)
        mc = np.take_along_axis(miss, order, axis=1)
        mc = np.concatenate([mc, np.zeros((m, 3), dtype=bool)], axis=1)
        seen_a = seen_ah[:, 0]
        lo = res[:, 0] > s_.bend_min_mm + 2.0 * sig
        b = seen_a & ((mc[:, 0] & ((n_ah == 1) | mc[:, 1]))
                      | (lo & (n_ah >= 3) & mc[:, 1] & mc[:, 2]))
        pairs = np.any(mc[:, :-1] & mc[:, 1:], axis=1)
        # (only paths fitted well to three sightings or more are extrapolated so finely: a
        # line through three since a bounce finds a contact just after it. Such a line,
        # run on, strays with the spin the bounce left: a bend only this test finds
        # (``_touch_only``) is a touch's, where the paths touch and the object's velocity
        # changed; a near pass of a mover, or a touch it went on through unchanged, is none)
        steady = have & (nfit >= 3) & (rms <= 2.5 * sig)
        touch = self._touch_bends(moving, a, t_a, coef, steady, pred, seen_ah,
                                  np.maximum(sig, rms), have | met)
        self._touch_only = set(moving[touch & ~b].tolist())
        b |= touch
        slow = self._slow_bends(moving, ahead, coef, have & (nfit >= 3), tmax, tt, seen_ah,
                                order, sig, a, t_a) & ~b
        self._slow_bent = set(moving[slow].tolist())
        b |= slow
        bend[moving] = b
        soon[moving] |= np.where(n_ah > 1, pairs, b) & (n_ah >= 1)
        # (a bend flagged at a whose own sighting still lies on the path before: it bent
        # between a and the next frame, unless the path just missed it by noise)
        self._fits_a[moving] = b & seen_a & ~miss[:, 0]

        # rest: slow over the last rest_frames, and still, relative to its noise, over
        # a window of fit_frames (a slow creeper is not at rest; on Novuss, none creeps)
        cand = ~b & self._seen[moving, col] & (a - seg0 + 1 >= s_.rest_frames)
        # (only those whose fitted path is slow; well above the noise of its end speed)
        cand &= ~have | (np.linalg.norm(coef[:, 1], axis=1) < 4.0 * s_.rest_speed_mm_s)
        if np.any(cand):
            mc_ = moving[cand]
            kr = np.arange(a - f + 1, a + 1)
            cr = kr % h
            okr = (self._seen[mc_][:, cr] & (kr >= max(0, self._n - h))[None]
                   & (kr[None] >= self._seg0[mc_, None]))
            tau_r = np.broadcast_to(self._t[cr] - t_a, okr.shape)
            short = okr & (kr >= a - s_.rest_frames + 1)[None]
            c_s, _, n_s = fit_paths(tau_r, self._xy[mc_][:, cr], short, 1)
            c_l, _, n_l = fit_paths(tau_r, self._xy[mc_][:, cr], okr, 1)
            v_s = np.linalg.norm(c_s[:, 1], axis=1)
            v_l = np.linalg.norm(c_l[:, 1], axis=1)
            thr_on = self._onset_mm(sig[cand])
            window_s = f * self._dt
            calm = v_l * window_s < thr_on
            if self.spec.family is Family.NOVUSS:
                # (a disc stops dead on the powdered board, and creeps not at all: still
                # over the last rest_frames, all within an onset of where they centre, it
                # rests, and its next push is an onset, not a slow mover's bend)
                xs = np.where(short[..., None], self._xy[mc_][:, cr], 0.0)
                centre = xs.sum(axis=1) / np.maximum(n_s, 1)[:, None]
                calm |= np.where(short, np.linalg.norm(xs - centre[:, None], axis=2),
                                 0.0).max(axis=1) < thr_on
            still = (n_s >= 3) & (v_s < s_.rest_speed_mm_s) & calm
            for s in mc_[still].tolist():
                to_rest.append((int(s), self._stop_time(int(s), a, t_a)))
        # a moving object lost from view, which the tracker holds (not moving) for a whole
        # fit window, has no samples to fit: it is at rest where it was last seen, or the
        # shot would never end
        resting_now = {r for r, _ in to_rest}
        settled = [int(m) for m in moving if int(m) not in resting_now]
        if settled:
            kw = np.arange(a - f + 1, a + 1)
            if kw[0] >= max(0, self._n - h):
                rows = np.array(settled)
                st_w = self._state[rows][:, kw % h]
                rested = np.all(~self._seen[rows][:, kw % h] & (st_w != _TRACK_MOVING),
                                axis=1)
                for m in np.array(settled)[rested].tolist():
                    to_rest.append((int(m), float(self._t[(a - f + 1) % h])))
        return paths, fitted, to_rest

    def _restart_after_blind_contact(self, s: int, a: int) -> None:
        """Start mover ``s``'s path anew after its last contact reported (found from what
        it struck) where it was lost from view over that contact (unseen on the frame
        before it, so no bend showed there) and seen twice since, up to frame ``a``: a fit
        across the contact bends nowhere, and its misfit hides every bend after (a puck
        off a cushion, lost from view as it meets a pawn, missed the next cushion)."""
        t_hit = self._contact_t.get(s, -math.inf)
        seg0 = int(self._seg0[s])
        if seg0 < self._n - self._hist or not self._T(seg0) < t_hit <= self._T(a):
            return  # (a path begun before the frames kept was seen long before)
        ks = np.arange(seg0, a + 1)
        seen = self._seen[s, ks % self._hist]
        after = self._t[ks % self._hist] > t_hit
        if not seen[~after][-1] and np.count_nonzero(seen & after) >= 2:
            self._seg0[s] = int(ks[seen & after][0])

    def _steady_after(self, s: int, a: int, t_a: float) -> bool:
        """Whether slot ``s``'s first three sightings of its current segment lie on one
        line within their noise (an RMS of 3 sigma; 1.4 is a 2-D residual's): one motion
        since its bend, which they time better than the bend's contact does
        (``_anchor_t``)."""
        seg0 = int(self._seg0[s])
        fit = self._line_after(s, a, t_a, *self._samples(s, seg0, seg0 + 2, t_a))
        return fit is not None and fit[1] == 0

    def _slow_bends(self, moving: np.ndarray, ahead: np.ndarray, coef: np.ndarray,
                    have: np.ndarray, tmax: np.ndarray, tt: np.ndarray, seen_ah: np.ndarray,
                    order: np.ndarray, sig: np.ndarray, a: int, t_a: float) -> np.ndarray:
        """Slow movers (under ``_SLOW_BEND_MM_S`` at their last fitted sighting) seen, in
        frame ``a`` and the next seen one, farther from where they were then than their
        speed could carry them, by an onset's margin: a ball nearly at rest struck again.
        (The bend test allows for a fitted path's curve, far more than such a hit moves
        it in a frame or two.)"""
        if not self._shot_on:  # (between shots a slow mover is in a hand)
            return np.zeros(len(moving), dtype=bool)
        t_end = tmax[:, None]
        v_end = coef[:, 1] + 2.0 * coef[:, 2] * t_end
        speed2 = (v_end * v_end).sum(axis=1)
        slow = have & (speed2 < _SLOW_BEND_MM_S**2) & seen_ah[:, 0]
        if not slow.any():
            return slow
        rows = slow.nonzero()[0]
        c, t_r = coef[rows], t_end[rows]
        p_end = c[:, 0] + c[:, 1] * t_r + c[:, 2] * t_r * t_r
        speed = np.sqrt(speed2[rows])
        if self.spec.family is Family.NOVUSS:
            # (a disc stops within a frame or two on the powdered board: the quadratic
            # through its slide and its rest since ends in a speed it has not, which
            # would carry it as far as a second push does. Where it is and how fast,
            # from a line through its last sightings.)
            ks = np.arange(a - _SLOW_BEND_LAST, a)
            cols = ks % self._hist
            seen = self._seen[moving[rows]][:, cols] & (ks >= max(0, self._n - self._hist))[None]
            lines, _, n_seen = fit_paths(np.broadcast_to(self._t[cols] - t_a, seen.shape),
                                         self._xy[moving[rows]][:, cols], seen, 1)
            use = n_seen >= 3
            p_end[use] = lines[use, 0] + lines[use, 1] * t_r[use]
            speed[use] = np.linalg.norm(lines[use, 1], axis=1)
        off = self._xy[moving[rows]][:, ahead] - p_end[:, None]
        far = np.sqrt(off[..., 0] * off[..., 0] + off[..., 1] * off[..., 1]) - speed[
            :, None] * (tt[None, :] - t_r)
        limit = self._onset_mm(sig[rows])
        out = (far > limit[:, None]) & seen_ah[rows]  # (False where unseen: NaN)
        oc = np.take_along_axis(out, order[rows], axis=1)  # (the seen ones first)
        slow[rows] = (oc[:, 0] & oc[:, 1]) if oc.shape[1] > 1 else False
        return slow

    def _into_cushion(self, s: int, tau: np.ndarray, xy: np.ndarray, a: int,
                      t_a: float) -> bool:
        """Whether the line from where slot ``s`` left rest through its one sighting since
        (``tau``, ``xy``) runs over a cushion by frame ``a``, and frame ``a`` sees it come
        back: struck near a cushion, it may be seen once on its way in and next coming
        back, and only that line shows the bounce (a line through one sighting is too
        loose to test for any other bend). Only for an object a contact set going."""
        span = float(tau[0]) - (self._t_start[s] - t_a)
        if span <= 1e-4 or not self._seen[s, a % self._hist]:
            return False
        lead = self._contact_t.get(s, -math.inf) - self._t_start[s]
        if not -2e-3 <= lead <= 0.5 * self._dt:
            # (set going by no contact found: a hand, whose carry is no line; a push found
            # may come a few ms after the start its onset, run back, was held to)
            return False
        # (the frames from a on test the line; a is the first after the sighting)
        p_a = xy[0] - (xy[0] - self._start_xy[s]) * float(tau[0]) / span
        k = int(np.argmin(self._nose_gaps(np.array([s]), p_a[None])[0]))
        # and frame a shows it come back off that cushion (within half the way it went)
        went = float(np.linalg.norm(p_a - xy[0]))
        xy_a = self._xy[s, a % self._hist]
        if self._folded_back(s, a, k, p_a, xy_a, 0.5 * went):
            return True
        # or come back short of that: met again by what struck it (a pawn pressed between
        # the puck and the cushion), farther off the cushion than its sighting on the way
        # in, along the cushion between that sighting and where the line reached
        n, r = self._cush_n[k], float(self._radius[s])
        a_k = self._cush_a[k]
        past = r - float((p_a - a_k) @ n)
        depth0, depth_a = (float((q - a_k) @ n) - r for q in (xy[0], xy_a))
        along = np.array([-n[1], n[0]])
        lo, hi = sorted((float((xy[0] - a_k) @ along), float((p_a - a_k) @ along)))
        noise = self._noise_mm(s, a)
        return (past > 0.0 and depth0 + noise < depth_a <= past + noise
                and lo - noise <= float((xy_a - a_k) @ along) <= hi + noise)

    def _touch_bends(self, moving: np.ndarray, a: int, t_a: float, coef: np.ndarray,
                     have: np.ndarray, pred: np.ndarray, seen_ah: np.ndarray,
                     sig: np.ndarray, paths_ok: np.ndarray) -> np.ndarray:
        """Bends too small for the general test, found where a contact can be: the mover's
        path reached another object between the last frame and this one, and the frames
        after leave that path away from the object, along their line of centres (a
        contact's impulse acts along it; a change from sliding to rolling does not). This
        finds the slow contacts (under ~300 mm/s) whose bend hides in the allowance the
        general test makes for a changing acceleration. Tested: the movers ``have`` marks
        (paths fitted well to enough sightings); met: those and every other mover with a
        path (``paths_ok``: one just bent, a line through a sighting or two) and the
        resting objects. All pairs at once."""
        s_ = self.settings
        out = np.zeros(len(moving), dtype=bool)
        n_seen = seen_ah.sum(axis=1)
        rows = (have & (n_seen >= 2)).nonzero()[0]
        if not self._shot_on or not len(rows):
            return out
        every = (paths_ok | have).nonzero()[0]  # the movers met
        sel = np.searchsorted(every, rows)  # the tested ones among them
        diag = (np.arange(len(rows)), sel)
        rest = (self._mode == _REST).nonzero()[0]
        # positions at the frame before, this frame, two frames before that and halfway
        # between the first two (P, 4, 2)
        t_prev = self._t[(a - 1) % self._hist] - t_a
        grid = np.array([t_prev, 0.0, t_prev - 2 * self._dt, 0.5 * t_prev])
        c = coef[every]
        slots = np.concatenate([moving[every], rest])
        rsum = self._radius[moving[rows]][:, None] + self._radius[slots][None, :]  # (R, P)
        # (within the sightings' noise of touching: not the fit's, which a fast path's
        # blur-stretched sightings widen to a touch a frame ahead)
        gap = (s_.bend_min_mm / 2 + 2.0 * self._sigmas_of(moving[rows], a % self._hist))[:, None]
        # most frames no mover touches anything now, nor halfway since the frame before:
        # done before the full test
        t_mid = 0.5 * t_prev
        for xy_t in (c[:, 0], c[:, 0] + c[:, 1] * t_mid + c[:, 2] * t_mid**2):
            now = np.concatenate([xy_t, self._rest_xy[rest]])
            d_now = np.linalg.norm(now[None] - now[sel, None], axis=2) - rsum
            d_now[diag] = np.inf
            if np.any(d_now < gap):
                break
        else:
            return out
        pos = np.concatenate([
            c[:, None, 0] + c[:, None, 1] * grid[None, :, None]
            + c[:, None, 2] * (grid**2)[None, :, None],
            np.repeat(self._rest_xy[rest][:, None], 4, axis=1)])
        vel = np.concatenate([c[:, 1] + 2.0 * c[:, 2] * t_prev, np.zeros((len(rest), 2))])
        sep = pos[sel, None, :, :] - pos[None, :, :, :]  # from the other to the mover
        d = np.linalg.norm(sep, axis=3)
        d_prev, d_now, d_back, d_mid = (d[..., k] - rsum for k in range(4))
        # touching now or halfway since the frame before (a graze passes closest between
        # the two), not before, and clearly apart a little earlier (a drifting cluster of
        # touching balls is not a contact)
        mid = d_mid < d_now
        d_touch = np.where(mid, d_mid, d_now)
        near = (d_touch < gap) & (d_prev > -gap) & (d_touch < d_prev) & (d_back > gap + 2.0)
        near[diag] = False
        nrm = np.where(mid[..., None], sep[:, :, 3], sep[:, :, 1])  # the line of centres then
        nrm /= np.maximum(np.linalg.norm(nrm, axis=2, keepdims=True), 1e-9)
        # (a touch closes on the line of centres as it comes, the frame before: a graze, at
        # its closest, passes side by side, whether that falls halfway or at the frame)
        came = sep[:, :, 0].copy()
        came /= np.maximum(np.linalg.norm(came, axis=2, keepdims=True), 1e-9)
        closing = np.einsum("rpk,rpk->rp", vel[None, :] - vel[sel, None], came)
        near &= closing >= _TOUCH_MIN_APPROACH_MM_S  # not rolling side by side, nor apart
        hit = near.any(axis=1).nonzero()[0]
        if not len(hit):
            return out
        r_ = rows[hit]
        cols = np.array([(a + k) % self._hist for k in range(pred.shape[1])])
        resid = np.nan_to_num(self._xy[moving[r_]][:, cols] - pred[r_])  # (H, L, 2)
        seen = seen_ah[r_]
        last_k = pred.shape[1] - 1 - np.argmax(seen[:, ::-1], axis=1)
        last = resid[np.arange(len(hit)), last_k]  # (H, 2)
        size = np.linalg.norm(last, axis=1)
        big = size >= np.maximum(s_.bend_min_mm / 2, 3.0 * sig[r_]) + 1.0
        along = np.einsum("hlk,hpk->hpl", resid, nrm[hit])  # (H, P, L)
        first_k = np.argmax(seen, axis=1)
        later = seen.copy()
        later[np.arange(len(hit)), first_k] = False
        away = np.all((along > 0) | ~later[:, None, :], axis=2)
        straight = np.einsum("hk,hpk->hp", last, nrm[hit]) > _TOUCH_COS * size[:, None]
        met = near[hit] & away & straight & big[:, None]
        bent = met.any(axis=1)
        out[r_] = bent
        for h in bent.nonzero()[0].tolist():
            self._touched[int(moving[r_[h]])] = set(slots[met[h]].tolist())
        return out

    def _premature(self, s: int, a: int, t_a: float) -> bool:
        """Whether a bend of slot ``s`` flagged at frame ``a`` that nothing explains is
        its fit's, not its motion's: a path fitted to a few sightings, run on, strays far
        more than their noise (a quadratic through four, three frames on: ten times), while
        one fitted to them and frame ``a`` together still runs through all within their
        noise (an RMS of 2.5 sigma: a 2-D residual's is 1.4, and over 2 in 7 % of fits of
        five), frame ``a`` within 3.5. The object bent later, if at all."""
        f = self.settings.fit_frames
        tt, xa = self._samples(s, max(int(self._seg0[s]), a - f), a, t_a)
        if math.isfinite(self._t_start[s]):  # (it left rest then, from there)
            tt = np.concatenate([[self._t_start[s] - t_a], tt])
            xa = np.concatenate([self._start_xy[s][None], xa])
        if len(tt) < 5 or tt[-1] != 0.0:
            return False
        coef, rms = fit_path(tt, xa, 2)
        sig = self._sigma_of(s, a)
        miss = float(np.linalg.norm(eval_path(coef, 0.0) - xa[-1]))
        return rms <= 2.5 * sig and miss <= 3.5 * sig

    def _shot_end(self, t_s: float) -> Event:
        frame_idx = max(0, self._analysed - 1)
        ev = Event(EventKind.SHOT_END, float(t_s), self._frame_at(t_s, frame_idx), self._shot,
                   (), (0.0, 0.0), 1.0)
        self._shot_on = False
        return ev

    def _stop_time(self, s: int, a: int, t_a: float) -> float:
        """When a slowing object stopped: its fitted speed's zero, near frame ``a``."""
        tau, xy = self._samples(s, a - self.settings.fit_frames, a, t_a)
        if len(tau) < 4:
            return t_a - self._dt
        coef, _ = fit_path(tau, xy, 2)
        v = coef[1]
        acc = 2.0 * coef[2]
        if float(acc @ acc) < 1e-9:
            return t_a - self._dt
        t_stop = -float(v @ acc) / float(acc @ acc)
        lo = float(tau.min())
        return t_a + min(max(t_stop, lo), 0.0)

    # ---------------------------------------------------------------- causes

    def _window(self, a: int, s: int | None = None) -> tuple[float, float, float]:
        """(tau0, tau1, tref) of the interval an event at frame ``a`` lies in: back to the
        frame before the last one slot ``s`` was seen on."""
        t_a = self._T(a)
        lo = max(0, self._n - self._hist)
        k0 = a - 2
        if s is not None:
            k0 = min(k0, self._last_seen_frame(s, a, max(lo, a - 8)) - 1)
        return self._T(max(k0, lo)) - t_a, 0.0, t_a

    def _last_seen_frame(self, s: int, a: int, oldest: int) -> int:
        """The last frame before ``a`` that saw slot ``s``, searched back to ``oldest``
        (which it returns if none did)."""
        k = a - 1
        while k > oldest and not self._seen[s, k % self._hist]:
            k -= 1
        return k

    def _causes(self, a: int, triggers: list[int], paths: dict[int, np.ndarray],
                onset: np.ndarray, bend: np.ndarray, soon: np.ndarray, t_a: float,
                fitted: set[int]) -> set[int]:
        """Contacts and cushions that explain this frame's onsets and bends. Candidate
        contacts are taken in time order: a mover's path before a contact is its path only
        up to that contact (after it, the mover goes on as it is seen to go)."""
        s_ = self.settings
        tau0, tau1, _ = self._window(a)
        explained: set[int] = set()
        have = np.array(sorted(paths), dtype=int)
        if len(have) == 0:
            return explained
        coefs = np.stack([paths[int(k)] for k in have])  # (P, 3, 2)
        def at(samp: np.ndarray) -> np.ndarray:  # every path's positions (P, T, 2)
            out: np.ndarray = (coefs[:, None, 0] + coefs[:, None, 1] * samp[None, :, None]
                               + coefs[:, None, 2] * (samp**2)[None, :, None])
            return out

        pos = at(np.linspace(tau0, tau1, 5))
        moving_before = {int(k) for k in have if self._mode[k] == _MOVING}
        cands: list[_Candidate] = []
        seen_pairs: set[tuple[int, int]] = set()
        late_hits: set[int] = set()  # strikers with a touch found past frame a
        at_end: set[tuple[int, int]] = set()  # near misses nearest at the window's end
        held_end: dict[tuple[int, int], float] = {}  # and of held objects: their gaps
        for i in triggers:
            if i not in paths:
                continue
            tau0, tau1, _ = self._window(a, i)
            ii = int((have == i).nonzero()[0][0])
            # (a fast striker's bend is placed by its samples only to within a frame: one
            # seen first just after a contact may be flagged the frame before it, and
            # frames it is missed in after that leave its contact further on; what its line
            # meets in that reach is a candidate too)
            fast = bend[i] and float(np.linalg.norm(eval_velocity(paths[i], tau1))) > _FAST_MM_S
            missed = 0.0  # (then a touch, or a near miss, may lie past the frame after a)
            if fast and self._shot_on:  # (a hand's carry between shots: no contact)
                k = a + 1
                while k < min(a + 3, self._n) and not self._seen[i, k % self._hist]:
                    missed += self._dt
                    k += 1
            reach = (0.5 * self._dt if fast else 0.0) + missed
            # (a bend flagged at a whose own sighting lies on the path in came after a: a
            # touch its path reaches before the next sighting is a candidate too)
            late = 0.0
            if bend[i] and self._fits_a[i] and self._shot_on and a + 1 < self._n:
                late = max(self._T(self._next_seen(i, a)) - t_a - reach, 0.0)
            dist = np.linalg.norm(pos - pos[ii][None], axis=2).min(axis=1)
            if reach + late > 0.0:
                pos_ext = at(np.linspace(tau1, tau1 + reach + late, 4))
                dist = np.minimum(dist, np.linalg.norm(pos_ext - pos_ext[ii][None],
                                                       axis=2).min(axis=1))
            rsum = self._radius[have] + self._radius[i]
            near = ((dist < rsum + s_.contact_gate_mm + 20.0) & (have != i)).nonzero()[0]
            for jj in near.tolist():
                j = int(have[jj])
                if i not in moving_before and j not in moving_before:
                    continue  # two resting objects: a cluster push, judged below
                key = (min(i, j), max(i, j))
                if key in seen_pairs:
                    continue
                # (a pair reported lately met again only as two movers touching again a
                # repeat's span after: the same touch, seen from a later frame, is no news)
                lately = self._paired_lately(*key, t_a, faint=True)
                if lately and not (i in moving_before and j in moving_before):
                    continue
                exact_only = False
                bounce_only = False
                cradle = False
                run_on = None
                if not (soon[j] or onset[j] or bend[j]):
                    if j not in moving_before:
                        # a resting object that was hit moves, unless it is held (against a
                        # cushion): then the striker bounces straight back off it; or it
                        # passes the hit on to a touching one that moves (a Newton's cradle)
                        if self._passes_on(j, onset | soon, None):
                            cradle = True
                        elif not (bend[i] and i in fitted and self._held(j)):
                            continue
                        else:
                            bounce_only = True
                    else:
                        exact_only = True  # the striker's bend may show only later
                ci, cj = paths[i], paths[j]
                r = float(rsum[jj])
                tc = first_touch(ci, cj, r, tau0, tau1 + reach)
                t_late = None
                if tc is None and late > 0.0 and j in moving_before:
                    # (only with another mover: a resting one hit starts, and its start
                    # times the hit; a held one's bounce is the striker's alone, and its
                    # path in, run on a frame, may pass any)
                    tc = t_late = first_touch(ci, cj, r, tau1 + reach, tau1 + reach + late)
                    if tc is not None and self._turned_then(i, a, t_a, ci, tc, tau1,
                                                            tau1 + reach + late):
                        late_hits.add(i)
                    else:
                        tc = None
                conf = 1.0
                if tc is None:
                    if exact_only and not (bend[i] and i in moving_before and (
                            self._kicked_off(i, j, ci, cj, r, a, t_a, tau0, tau1 + reach)
                            or self._touched_within(i, j, ci, cj, r, a, tau0, tau1 + reach))):
                        continue
                    tc, dmin = closest_approach(ci, cj, tau0, tau1 + (reach if missed else 0.0))
                    gap = dmin - r
                    if gap > s_.contact_gate_mm:
                        continue
                    if tc >= tau1 - 1e-9 and j not in moving_before and not (
                            onset[j] or bend[j]) and self._first_off[j] == 1:
                        at_end.add((i, j))
                    if tc >= tau1 - 1e-9 and j not in moving_before and self._leaves_soon(j):
                        # (nearest as the window ends and still closing, and it leaves
                        # rest after the window: the path run on times the touch, if it
                        # comes within the next frame)
                        run_on = first_touch(ci, cj, r, tc, tc + self._dt)
                    if tc <= tau0 + 1e-9 and float(
                            (eval_path(ci, tc) - eval_path(cj, tc))
                            @ (eval_velocity(ci, tc) - eval_velocity(cj, tc))) > 0.0:
                        continue  # moving apart all the window: they touched before, if ever
                    if not exact_only and j in moving_before and any(
                            k in self._touch_only and not self._touch_partner(k, m, gap, a)
                            for k, m in ((i, j), (j, i))):
                        # (a touch test's bend is a touch's, not a near pass's: but a pass
                        # within the noise of touching the one it touched is that touch)
                        continue
                    conf = math.exp(-((max(gap, 0.0) / s_.contact_gate_mm) ** 2)) * 0.8
                    if t_late is not None and tc >= tau1 + reach - 1e-9:
                        # (nearest as the window ends, still closing, and the paths
                        # run on touch before the next sighting: that times it)
                        tc = t_late
                    if bounce_only and tc >= tau1 - 1e-9:
                        held_end[(i, j)] = gap
                if lately and (conf < 1.0 or t_a + tc - self._pair_reported.get(
                        key, -math.inf) < _REPEAT_S):
                    continue
                if i in moving_before and j in moving_before and self._drifting_pair(
                        i, j, ci, cj, r, a, t_a, tau0, tc):
                    continue
                if self._shot_on and self._creeping_apart(i, j, a, t_a, tc):
                    continue
                if i in moving_before and j in moving_before and self._unkicked(
                        (i, j), a, t_a, tc):
                    continue
                if (i in self._touch_only and j in moving_before and not (soon[j] or bend[j])
                        and self._unkicked((i,), a, t_a, tc)):
                    continue  # (only the touch test bent it, and both went on unchanged)
                if bounce_only and not self._bounced_off(i, a, ci, cj, r, tc, t_a, tau0,
                                                         tau1 + reach):
                    continue
                if bounce_only and conf < 1.0 and self._meets_cushion(i, ci, tau0,
                                                                      tau1 + reach):
                    continue  # (it passed the held object by, into the cushion beside it)
                if any(t_a + tc < self._t_start[k] - self._start_doubt(k, a, paths[k], tc)
                       for k in (i, j) if k in moving_before):
                    continue  # on a mover's path run back to before it left rest
                if any(self._stale_path(k, a) for k in (i, j) if k in moving_before):
                    continue
                if cradle and not self._passes_on(
                        j, onset | soon, eval_path(ci, tc),
                        r - closest_approach(ci, cj, tau0, tau1 + reach)[1]
                        > 3.0 * self._sigma_of(i, a) + _TOUCH_GAP_MM
                        or self._turned_at(i, j, a, t_a, ci, r, tau0, tau1 + reach)):
                    continue
                # (a slowing path run past its stop turns back: no motion; unless it lay
                # still all the while, and a mover ran clearly into it)
                if any(float(eval_velocity(paths[k], tc) @ eval_velocity(paths[k], tau0)) < 0.0
                       and not self._run_into(k, i + j - k, paths, r, tau0, tc, tau1, a)
                       for k in (i, j) if k in moving_before):
                    continue
                if conf < 1.0 and not (bounce_only or cradle) and any(
                        k not in moving_before and self._still_after(k, tc, a, t_a)
                        for k in (i, j)):
                    continue
                if conf < 1.0 and not (bounce_only or cradle) and self._left_across(
                        i, j, ci, cj, tc, moving_before, a, t_a):
                    continue
                seen_pairs.add(key)
                cands.append(_Candidate(tc, i, j, r, conf, bounce_only, cradle, run_on))
        # (of held objects a striker's path is nearest as the window ends, still closing,
        # it met the one it is clearly nearest: a row's pawn hit head on just before the
        # frame, not the neighbour its path would have reached after it)
        ends = [c for c in cands if (c.i, c.j) in held_end]
        cands = [c for c in cands if (c.i, c.j) not in held_end or held_end[(c.i, c.j)] - min(
            held_end[(o.i, o.j)] for o in ends if o.i == c.i) <= 2.0 * self._sigma_of(c.i, a)]
        # (a striker nearest two objects off their rest next frame, both at this window's
        # end, has not reached them yet: their starts then time and order the split hit)
        split = Counter(i for i, _ in at_end)
        cands = [c for c in cands if not ((c.i, c.j) in at_end and split[c.i] >= 2)]
        # (a touch past frame a stands only for a striker that touched nothing within the
        # window: one turned there went on another way)
        cands = [c for c in cands if not (c.i in late_hits and c.tc > 0.0 and any(
            o.tc <= 0.0 and o.conf >= 1.0 and c.i in (o.i, o.j) for o in cands))]
        # (a near miss passing a hit on through a resting object is no contact where the
        # striker's path touches another object in the same frame: that touch started it)
        touched = [c for c in cands if c.conf == 1.0 and not c.cradle]
        cands = [c for c in cands if not (c.cradle and any(
            t.i == c.i and t.j != c.j and abs(t.tc - c.tc) < self._dt and (
                c.conf < 1.0 or self._turned_along(t, c, paths, a, t_a)) for t in touched))]
        # (nor is a near miss of a resting object where the mover's path meets, at the same
        # time, another that leaves rest frames sooner: the mover, turned by that one, may
        # drift on into it, and its start, judged when it comes, times that contact)
        cands = [c for c in cands if not self._drifted_into(c, cands, moving_before)]
        # (a near miss of a held object, off which the striker bounced: the object touched
        # where the striker turned)
        turned = [self._at_turn(c, paths[c.i], a, t_a, self._window(a, c.i)[0], self._dt)
                  if c.bounce_only and c.conf < 1.0 else c for c in cands]
        cands = [c for c in turned if c is not None]
        # (nor a touch of a held object that the striker's path in passes on, straight, to
        # turn at another held object later: it passed the first within the noise)
        cands = [c for c in cands if not self._passed_before_turn(c, cands, paths[c.i], a, t_a)]
        # (a touch of a held object the striker's path in only reaches, within the noise,
        # just before it runs deep into a held neighbour's circle, may be a pass by: a puck
        # along a row grazing the next pawn. Which it met first is for review.)
        skimmed = {(c.i, c.j) for c in cands if self._skimmed_before(c, cands, paths[c.i], a)}
        # (nor a near miss of a held object beside one the striker's path touched before,
        # within a frame: a puck into a row's junction met the one its path reaches, and
        # turned off it before it came nearest the other)
        cands = [c for c in cands if not (c.bounce_only and c.conf < 1.0 and any(
            o.i == c.i and o.bounce_only and o.conf >= 1.0 and 0.0 <= c.tc - o.tc < self._dt
            and o.j in self._resting_against(c.j).tolist() for o in cands))]
        deflected: dict[int, tuple[float, np.ndarray | None]] = {}
        pushed_n: dict[int, np.ndarray] = {}  # deflected -> its line of centres, to the other
        # striker, and object hit -> their hit: a cushion either met before its next
        # sightings shows in its velocity after (``_rail_after_hit``)
        kicked: dict[int, _Hit] = {}
        # (and the contacts reported already in this window: a mover went on after those
        # as it is seen to go, too)
        earlier: dict[int, tuple[float, np.ndarray | None]] = {
            m: (t_hit, None) for m in moving_before
            if tau0 <= (t_hit := self._contact_t.get(m, -math.inf) - t_a) <= 0.0}
        for c in sorted(cands, key=lambda c: c.tc):
            if c.bounce_only and c.i in explained and not (
                    c.i in deflected and c.tc - deflected[c.i][0] < _SAME_TOUCH_S):
                continue  # (a bounce off two held objects at once: a row's junction)
            if c.bounce_only and self._bounced_before(c.i, tau0, c.tc, t_a):
                continue  # (its path in, run on past a cushion it met, reaches the object)
            if not self._reaches(c, paths, moving_before, earlier | deflected, a, t_a):
                continue
            ci, cj = paths[c.i], paths[c.j]
            striker, other = (c.i, c.j)
            vi = eval_velocity(ci, c.tc)
            vj = eval_velocity(cj, c.tc)
            if float(np.linalg.norm(vj)) > float(np.linalg.norm(vi)):
                striker, other = (c.j, c.i)
            p_s = self._back_inside(striker, eval_path(paths[striker], c.tc))
            dvec = eval_path(paths[other], c.tc) - p_s
            nrm = dvec / max(float(np.linalg.norm(dvec)), 1e-9)
            v_n = abs(float((vi - vj) @ nrm))
            sigma_t = self._touch_sigma_t(v_n)
            conf = c.conf * (0.7 if v_n < 30.0 else 1.0) * self._quality([c.i, c.j], a)
            if other not in moving_before and self._at_junction(striker, other, p_s):
                conf = min(conf, 0.45)  # which of the two it met first: for review
            if other not in moving_before and self._grazed_first(
                    striker, other, paths[striker], c.tc, a) or (c.i, c.j) in skimmed:
                conf = min(conf, 0.45)
            self._last_pair_t[(min(c.i, c.j), max(c.i, c.j))] = t_a
            t_hit = self._timed_by_departure(
                striker, other, c.tc if c.run_on is None else c.run_on, a, t_a, moving_before)
            t_hit = self._passed_through(c.i, c.j, t_hit, paths, a, t_a, moving_before)
            if t_hit != c.tc:
                c = dataclasses.replace(c, tc=t_hit)
                p_s = self._back_inside(striker, eval_path(paths[striker], c.tc))
            self._event(EventKind.CONTACT, t_a + c.tc, a, (self._ref(striker),
                                                           self._ref(other)),
                        p_s, conf, sigma_t)
            if other not in moving_before:
                if striker in moving_before:
                    v_b = eval_velocity(paths[striker], c.tc)
                    slowing = -2.0 * float(paths[striker][2] @ v_b) / max(
                        float(np.linalg.norm(v_b)), 1e-9)
                    if striker in self._from_start:
                        # (a path drawn from where it left rest bends with that onset's
                        # error: the line through its sightings gives the way in)
                        tt_in, xa_in = self._path_samples(striker, a, t_a)
                        if len(tt_in) >= 2:
                            v_b, slowing = fit_path(tt_in, xa_in, 1)[0][1], 0.0
                    kicked.setdefault(striker, _Hit(
                        a, t_a + c.tc, p_s, v_b,
                        min(max(slowing, 0.0), _MAX_DECEL_MM_S2), nrm))
                # (the object hit leaves along the line of centres, from rest)
                kicked.setdefault(other, _Hit(a, t_a + c.tc, self._rest_xy[other].copy(),
                                              np.zeros(2), 0.0, -nrm))
                self._pressed_cushion(other, dvec, t_a + c.tc, a)
                self._note_hit(other, t_a + c.tc, p_s)
                self._hit_speed[other] = (t_a + c.tc, self._handed_on(striker, other, v_n),
                                          not self._in_touch(other))
                self._t_start[other] = t_a + c.tc  # the root times its start best
                self._start_xy[other] = self._rest_xy[other]
            for m in (c.i, c.j):
                if m in moving_before and m not in deflected:
                    deflected[m] = (c.tc, None)
                    pushed_n[m] = nrm if m == striker else -nrm
            explained.update((c.i, c.j))
        for i in triggers:
            # (a slow mover's bend is a hit's: a cushion shows as a bend of its own)
            if i in paths and bend[i] and i in moving_before and i not in self._slow_bent:
                tau0, tau1, _ = self._window(a, i)
                # its path before ends at its first contact (a puck stopped by a pawn the
                # cushion holds does not reach that cushion); _cushion looks half a frame
                # past the window's end, hence the half frame off here
                # (or at one reported before, after the sightings its path is fitted to:
                # a stroke driving the striker into an object it is seen coming back from)
                hit = deflected[i][0] if i in deflected else None
                t_hit = self._contact_t.get(i, -math.inf) - t_a
                if hit is None and t_hit < tau1:
                    lo = max(0, self._n - self._hist)
                    # (one timed at a sighting, the last before the bend; a striker's
                    # bounce off what it hit at its stroke, to within the few ms its turn
                    # is timed to)
                    slack = 0.3 * self._dt if self._labels[i] in s_.striker_labels else 0.0
                    if self._T(max(self._last_seen_frame(i, a, lo), lo)) - t_a <= t_hit + slack:
                        hit = t_hit
                    elif i in earlier:
                        # (or one between the sightings its path is fitted to, which it
                        # misses by over 3 sigma: that path bends through the hit,
                        # and runs anywhere past it)
                        tt_i, xa_i = self._path_samples(i, a, t_a)
                        if len(tt_i) and float(tt_i.min()) < t_hit and float(np.max(
                                np.linalg.norm(eval_path(paths[i], tt_i) - xa_i, axis=1))
                                ) > 3.0 * self._sigma_of(i, a):
                            hit = t_hit
                if hit is not None:
                    tau1 = min(tau1, hit + _SAME_TOUCH_S - 0.5 * self._dt)
                # (a contact explains the bend: only a touch its path reaches before it, not
                # a near miss, is a cushion too)
                # (nor after a contact reported in this window: that may be the bend)
                if tau1 > tau0 and self._cushion(i, a, paths[i], tau0, tau1, t_a,
                                                 exact_only=hit is not None or i in earlier,
                                                 hit_n=pushed_n.get(i)):
                    explained.add(i)
                elif (hit is None and self._fits_a[i] and a + 1 < self._n
                      and self._cushion(i, a, paths[i], 0.5 * self._dt,
                                        self._T(a_on := self._next_seen(i, a)) - t_a, t_a,
                                        exact_only=True, after_from=a_on)):
                    # frame a still lies on the path in: the bounce came after it, and the
                    # next segment starts with the next frame that sees it
                    explained.add(i)
                    self._bent_late.add(i)
                elif hit is not None and self._cushion_after_contact(i, a, hit, t_a):
                    explained.add(i)
        self._hits_after_bounce(a, triggers, paths, bend, explained, moving_before, t_a)
        self._moving_cradle(a, tau0, paths, bend, explained, moving_before, t_a)
        self._kicks.update(kicked)
        return explained

    def _timed_by_departure(self, striker: int, other: int, tc: float, a: int, t_a: float,
                            moving_before: set[int]) -> float:
        """When (relative to frame ``a``) ``striker`` hit resting ``other``, found at ``tc``
        on a striker's path drawn from where it left rest through a sighting or two: that
        path's speed rests on when it left, which its own start only bounds. A fast
        object's departure, run back to its rest, times the hit to a ms instead."""
        drawn = striker in self._from_start or striker in self._drawn_from_rest
        if not drawn or other in moving_before:
            return tc
        line = self._line_after_frame(other, a, t_a, first=3)  # (before it meets more)
        if line is None:
            return tc
        p0, v = line[0], line[1]
        speed = float(np.linalg.norm(v))
        if speed < _DEPARTURE_TIMES_MM_S:
            return tc
        # (only a straight way out from its rest: not one bent by a cushion just after)
        off = self._rest_xy[other] - p0
        if abs(float(off[0] * v[1] - off[1] * v[0])) / speed > 3.0 * self._sigma_of(other, a):
            return tc
        t_on = self._onset_of(other, a, t_a)
        if t_on is None:
            return tc
        return max(t_on - t_a, float(self._t_start[striker]) - t_a)

    def _bounced_before(self, s: int, lo: float, tc: float, t_a: float) -> bool:
        """Whether slot ``s`` was reported at a cushion between ``lo`` and ``tc`` (relative
        to ``t_a``): its bend is that bounce, whatever its path in, run on, reaches after
        (a held pawn beside the cushion a puck came off)."""
        return any(lo <= t_k - t_a < tc for (m, _), t_k in self._last_cush_t.items() if m == s)

    def _passed_through(self, i: int, j: int, tc: float, paths: dict[int, np.ndarray],
                        a: int, t_a: float, moving_before: set[int]) -> float:
        """When (relative to frame ``a``) movers ``i`` and ``j``, found touching at ``tc``,
        met: where one of them was hit by a third object within two frames before ``tc``
        and the two, both creeping (under ``_CREEP_ONSET_MM_S``), touched already then
        (within ``_TOUCH_GAP_MM``: a pair drifting together after a break), the hit passed
        through at once; their paths, fitted across that hit to the noise, meet wherever
        their gap of a mm closes. (Two rolling faster met on their own: one rolling into
        the other just after a third hit it, seed 3 shot 67.)"""
        if i not in moving_before or j not in moving_before:
            return tc
        best = tc
        for m in (i, j):
            t_h = self._contact_t.get(m, -math.inf) - t_a
            if not tc - 2.0 * self._dt < t_h < tc:
                continue
            if not np.all(self._left_t[[i, j]] < t_a + t_h - self._dt):
                continue  # (one left rest with that hit: the pair's gap is a guess)
            ids = {int(self._ids[i]), int(self._ids[j])}
            if not any(ev.kind is EventKind.CONTACT and ev.t_s == t_h + t_a
                       and {o.id for o in ev.objects} & ids == {int(self._ids[m])}
                       for ev, _ in self._pending):
                continue  # (hit by the other of the pair: they parted and met again)
            gap = float(np.linalg.norm(eval_path(paths[i], t_h) - eval_path(paths[j], t_h))
                        - self._radius[i] - self._radius[j])
            creeping = all(float(np.linalg.norm(eval_velocity(paths[x], t_h)))
                           < _CREEP_ONSET_MM_S for x in (i, j))
            if creeping and gap < _TOUCH_GAP_MM + 2.0 * self._sigma_of(m, a):
                best = min(best, t_h)
        return best

    def _moving_cradle(self, a: int, tau0: float, paths: dict[int, np.ndarray],
                       bend: np.ndarray, explained: set[int], moving_before: set[int],
                       t_a: float) -> None:
        """A mover's bend left unexplained where a chain of creeping movers that touch,
        or nearly (``contact_gate_mm``: a cluster still settling after a break), links it
        to one struck in this window: the hit went on through the chain (one struck
        across a gap and stopped by the next hardly shows), each link a contact at that
        hit. The bent one must leave faster than the noise allows (``_kick_least``), away
        from its neighbour in the chain along their line of centres (``_PUSH_COS``)."""
        roots = [(k, t_k - t_a) for k in moving_before
                 if k in paths and tau0 <= (t_k := self._contact_t.get(k, -math.inf)) - t_a
                 <= 0.0]
        if not roots:
            return
        left = set(self._unexplained_movers(a, t_a, paths, bend, explained, moving_before))
        if not left:
            return
        for root, tau_h in roots:
            def at(x: int, tau: float = tau_h) -> np.ndarray:
                return eval_path(paths[x], tau)

            creeping = [x for x in paths if x in moving_before and x != root and float(
                np.linalg.norm(eval_velocity(paths[x], tau_h))) < _CREEP_ONSET_MM_S]
            parent = {root: root}
            queue = [root]
            while queue:
                x = queue.pop(0)
                for y in creeping:
                    if y in parent:
                        continue
                    gap = float(np.linalg.norm(at(x) - at(y)) - self._radius[x] - self._radius[y])
                    if gap < self.settings.contact_gate_mm:
                        parent[y] = x
                        queue.append(y)
            for j in [j for j in parent if j in left]:
                after = self._velocity_after(j, a, t_a)
                if after is None:
                    continue
                kick = after - eval_velocity(paths[j], tau_h)
                size = float(np.linalg.norm(kick))
                on = at(j) - at(parent[j])
                if size < self._kick_least(j, a) or _off_line(kick, on):
                    continue
                chain = [j]
                while chain[-1] != root:
                    chain.append(parent[chain[-1]])
                for y, x in zip(chain[:-1], chain[1:], strict=True):
                    if self._claim_pair(x, y, t_a):
                        self._event(EventKind.CONTACT, t_a + tau_h, a,
                                    (self._ref(x), self._ref(y)), at(x),
                                    0.56 * self._quality([x, y], a), 0.005)
                    explained.add(y)
                left.discard(j)

    def _hits_after_bounce(self, a: int, triggers: list[int], paths: dict[int, np.ndarray],
                           bend: np.ndarray, explained: set[int], moving_before: set[int],
                           t_a: float) -> None:
        """Contacts of a mover that bounced off a cushion in this window with another
        mover whose bend is left unexplained (a break's ball off the foot cushion into one
        rolling by, 20 ms later). The path fitted before the bounce runs on through the
        cushion, and passes the other by: folded back at the cushion's line (its normal
        speed times ``_CUSHION_E``), it meets it. A bent mover left unexplained itself
        whose path meets a cushion, folded there, meets another: both (that contact turned
        it back into the cushion, so the motion after hid the bounce). So does an object
        another struck from rest this frame, on its way off (a puck seen once between its
        cushion and a pawn that another had just sent into it)."""
        left: list[int] | None = None  # (asked once a bounce needs them)
        struck: dict[int, tuple[np.ndarray, float]] = {}
        for i in [i for i in triggers if i in paths and i in moving_before and bend[i]]:
            tau0, tau1, _ = self._window(a, i)
            r_i = float(self._radius[i])
            if i in explained:
                bounces = [(k, t_c, self._fold(i, paths[i], k)) for k in range(len(self._cush_a))
                           if tau0 <= (t_c := self._last_cush_t.get((i, k), -math.inf) - t_a)
                           <= tau1 + 0.5 * self._dt]
            else:
                bounces = self._cushion_folds(i, paths[i], tau0, tau1 + 0.5 * self._dt)
            for k, t_c, fold in bounces:
                if self._contact_t.get(i, -math.inf) - t_a > t_c:
                    continue
                if left is None:
                    left = self._unexplained_movers(a, t_a, paths, bend, explained,
                                                    moving_before)
                    struck = self._struck_now(a, t_a, triggers, explained, moving_before)
                for j in [j for j in [*left, *struck] if j != i]:
                    tj0, tj1, _ = self._window(a, j)
                    end = tj1
                    path_j = paths[j]
                    if j in struck:
                        # (struck this frame by another: its way off its rest, from then
                        # until the bounced one's next sighting)
                        path_j, tj0 = struck[j]
                        end = self._T(self._next_seen(i, a)) - t_a if a + 1 < self._n else tj1
                    elif self._fits_a[j] and a + 1 < self._n:
                        end = self._T(self._next_seen(j, a)) - t_a
                    r = r_i + float(self._radius[j])
                    lo = max(t_c, tj0)
                    tc = first_touch(fold, path_j, r, lo, end)
                    q = 0.8 * self._quality([i, j], a)
                    if tc is None and end > lo:
                        # (both paths fitted up to a bend misjudge where the two met by a
                        # few mm, the fold the more: its cushion time is the fit's)
                        tc, d = closest_approach(fold, path_j, lo, end)
                        gap = d - r
                        if gap > self.settings.contact_gate_mm:
                            tc = None
                        q *= math.exp(-((max(gap, 0.0) / self.settings.contact_gate_mm) ** 2))
                    if tc is None or self._paired_lately(min(i, j), max(i, j), t_a,
                                                         faint=True):
                        continue
                    if i not in explained:
                        if not self._cushion_recent(i, k, t_a + t_c):
                            self._cushion_event(i, k, t_a + t_c, a,
                                                eval_path(paths[i], t_c), q)
                        explained.add(i)
                        left = [m for m in left if m != i]
                    vi, vj = eval_velocity(fold, tc), eval_velocity(path_j, tc)
                    striker, other = (j, i) if float(np.linalg.norm(vj)) > float(
                        np.linalg.norm(vi)) else (i, j)
                    p_i, p_j = eval_path(fold, tc), eval_path(path_j, tc)
                    nrm = (p_j - p_i) / max(float(np.linalg.norm(p_j - p_i)), 1e-9)
                    v_n = abs(float((vi - vj) @ nrm))
                    sigma_t = self._touch_sigma_t(v_n)
                    self._last_pair_t[(min(i, j), max(i, j))] = t_a
                    self._event(EventKind.CONTACT, t_a + tc, a,
                                (self._ref(striker), self._ref(other)),
                                p_i if striker == i else p_j, q, sigma_t)
                    explained.add(j)
                    if j in struck:
                        del struck[j]
                    else:
                        left.remove(j)

    def _struck_now(self, a: int, t_a: float, triggers: list[int], explained: set[int],
                    moving_before: set[int]) -> dict[int, tuple[np.ndarray, float]]:
        """Objects a contact found this frame started from rest: each with its way off
        the rest (from the hit, through its first sighting after) and when it left."""
        out: dict[int, tuple[np.ndarray, float]] = {}
        tau0 = self._window(a)[0]
        for j in triggers:
            t0 = float(self._t_start[j]) - t_a
            if j in moving_before or j not in explained or not t0 > tau0:
                continue
            # (its start position is set once this frame's onsets are judged: its rest)
            path = self._start_path(j, a - 2, t_a, self._rest_xy[j])
            if path is not None:
                out[j] = (path, t0)
        return out

    def _touch_sigma_t(self, v_n: float) -> float:
        """Doubt (s) of a contact time from fitted paths closing at ``v_n`` mm/s: the
        position noise (and half a mm of the touch's own) over that speed."""
        return math.hypot(self.settings.noise_floor_mm, 0.5) / max(v_n, 1.0)

    def _unexplained_movers(self, a: int, t_a: float, paths: dict[int, np.ndarray],
                            bend: np.ndarray, explained: set[int], moving_before: set[int]
                            ) -> list[int]:
        """Movers whose bend this frame nothing explains yet, or whose bend shows a frame
        later: their next sighting lies off the path they came on (``_strayed``)."""
        return [j for j in paths if j in moving_before and j not in explained and (
            bend[j] or self._strayed(j, a, paths[j], t_a))]

    def _fold(self, s: int, coef: np.ndarray, k: int) -> np.ndarray:
        """Slot ``s``'s path ``coef`` folded back at cushion ``k``'s touching line (its
        normal speed times ``_CUSHION_E``): where it went after bouncing there."""
        n = self._cush_n[k]
        fold = coef.copy()
        off = fold @ n
        off[0] -= float(self._cush_a[k] @ n) + float(self._radius[s])
        fold -= (1.0 + _CUSHION_E) * off[:, None] * n[None, :]
        return fold

    def _cushion_folds(self, s: int, coef: np.ndarray, tau0: float, tau1: float
                       ) -> list[tuple[int, float, np.ndarray]]:
        """(cushion, time, folded path) of each cushion slot ``s``'s path ``coef``
        reaches in ``[tau0, tau1]`` where the cushion runs, coming in firmly
        (``_SCAN_FIRM_IN_MM_S``: not a pawn sliding along the cushion it lay by)."""
        out = []
        for k in range(len(self._cush_a)):
            t_c = line_touch(coef, self._cush_a[k], self._cush_n[k], float(self._radius[s]),
                             tau0, tau1)
            if t_c is not None and self._beside_cushion(k, eval_path(coef, t_c)) and float(
                    eval_velocity(coef, t_c) @ self._cush_n[k]) < -_SCAN_FIRM_IN_MM_S:
                out.append((k, t_c, self._fold(s, coef, k)))
        return out

    def _drifting_pair(self, i: int, j: int, ci: np.ndarray, cj: np.ndarray, r_mm: float,
                       a: int, t_a: float, tau0: float, tc: float) -> bool:
        """Whether movers ``i`` and ``j`` (paths ``ci``, ``cj``), both creeping (under
        ``_CREEP_ONSET_MM_S``), touched already as the window began (within
        ``_TOUCH_GAP_MM``), closing slower than ``_TOUCH_MIN_APPROACH_MM_S`` then, and
        neither leaves their touch at ``tc`` faster than the noise of a fitted velocity
        allows (``_kick_least``): a row's pawns sliding to a stop side by side, whose
        paths' curves, fitted to the noise, bend one into the other, met nothing anyone
        could see. (A rack's creeping pair that a push runs through leaves fast.)"""
        d = eval_path(ci, tau0) - eval_path(cj, tau0)
        if float(np.linalg.norm(d)) - r_mm >= _TOUCH_GAP_MM or tc <= tau0:
            return False
        vi, vj = eval_velocity(ci, tau0), eval_velocity(cj, tau0)
        if max(float(np.linalg.norm(vi)), float(np.linalg.norm(vj))) >= _CREEP_ONSET_MM_S:
            return False
        if -float(d @ (vi - vj)) >= _TOUCH_MIN_APPROACH_MM_S * float(np.linalg.norm(d)):
            return False
        for k in (i, j):
            after = self._velocity_after(k, a, t_a)
            if after is None or float(np.linalg.norm(after)) >= self._kick_least(k, a):
                return False
        return True

    def _creeping_apart(self, i: int, j: int, a: int, t_a: float, tc: float) -> bool:
        """Whether objects ``i`` and ``j``, moving steadily over the ``_APART_FRAMES`` frames
        up to their touch at ``tc`` (since each left rest or was last in a contact
        reported; lines through their sightings), each relative to the other creeping
        (under ``_CREEP_ONSET_MM_S``; any speed for two that met within
        ``_CREEP_LATE_S``), did not close on each other at ``_TOUCH_MIN_APPROACH_MM_S`` or
        more then: paths fitted to the noise that meet are no contact between two rack
        balls creeping or rolling apart after the break, or two balls rolling slowly apart
        off their contact."""
        lines = []
        for k in (i, j):
            tt, xa = self._samples(k, a - _APART_FRAMES, a, t_a)
            # (since it left rest, or its last contact reported: one struck just now, or
            # at its stroke, goes its way after)
            since = self._way_since(k)
            keep = (tt < tc + 0.6 * self._dt) & (tt > since - t_a)
            line = self._steady_line(k, a, tt[keep], xa[keep])
            if line is None:
                return False  # (not steady: one struck lately jumps off the line)
            lines.append(line)
        d = lines[0][0] - lines[1][0]
        v = lines[0][1] - lines[1][1]
        # (or any two that met lately, each going its way off that contact since)
        if (float(np.linalg.norm(v)) >= _CREEP_ONSET_MM_S
                and not self._reported_near(i, j, t_a + tc, _CREEP_LATE_S)):
            return False
        return -float(d @ v) / max(float(np.linalg.norm(d)), 1e-9) < _TOUCH_MIN_APPROACH_MM_S

    def _steady_line(self, k: int, a: int, tt: np.ndarray, xa: np.ndarray
                     ) -> np.ndarray | None:
        """The line (``fit_path`` coefficients) through slot ``k``'s sightings ``xa`` at
        ``tt``: None for fewer than 3, or where one lies more than 3 sigma off it (no
        steady motion: a bend, a contact, a spin's curve)."""
        if len(tt) < 3:
            return None
        line, _ = fit_path(tt, xa, 1)
        off = np.linalg.norm(xa - eval_path(line, tt), axis=1)
        return None if float(off.max()) > 3.0 * self._sigma_of(k, a) else line

    def _way_since(self, k: int) -> float:
        """When slot ``k`` set off on the way it goes now: when it left rest or was last in
        a contact reported (-inf where neither is known)."""
        return max(self._contact_t.get(k, -math.inf),
                   float(np.nan_to_num(self._t_start[k], nan=-np.inf)))

    def _unkicked(self, movers: tuple[int, ...], a: int, t_a: float, tc: float) -> bool:
        """Whether the ``movers`` each go on through their touch at ``tc`` with the
        velocity they came in with, to within ``_TOUCH_MIN_APPROACH_MM_S``: lines through
        each one's ``_KICK_SIDE`` sightings nearest before it (since it left rest or was
        last in a contact reported) and after it, each steady (within 3 sigma; a curve's
        spin bend or another contact is no line). A contact that changed neither was
        slower than the camera is held to: a bend fitted to the noise that met a
        neighbour rolling by is none. Of two alike (two balls, two pawns), one seen going
        on unchanged is enough, where the other's steady lines show no clear kick: it took
        the same impulse (its lines may bend by a few mm/s with a spin's curve, or another
        contact just after)."""
        alike = len(movers) == 2 and self._radius[movers[0]] == self._radius[movers[1]]
        unchanged = 0
        kick = 0.0  # (the largest change seen)
        measured = 0  # (movers with steady lines either side)
        for k in movers:
            tt, xa = self._samples(k, a - _APART_FRAMES, a + self.settings.lag_frames, t_a)
            since = self._way_since(k)
            v = []
            for side in ((tt < tc - 0.5 * self._dt) & (tt > since - t_a),
                         tt > tc + 0.5 * self._dt):
                near = np.argsort(np.where(side, np.abs(tt - tc), np.inf))[:_KICK_SIDE]
                near = near[side[near]]
                line = self._steady_line(k, a, tt[near], xa[near])
                if line is None:
                    break
                v.append(line[1])
            else:
                dv = float(np.linalg.norm(v[1] - v[0]))
                unchanged += dv < _TOUCH_MIN_APPROACH_MM_S
                kick = max(kick, dv)
                measured += 1
        return unchanged == len(movers) or (
            alike and unchanged > 0 and measured == len(movers)
            and kick < 2.0 * _TOUCH_MIN_APPROACH_MM_S)

    def _velocity_after(self, s: int, a: int, t_a: float) -> np.ndarray | None:
        """Slot ``s``'s velocity from a line through its sightings after frame ``a``
        (``_line_after_frame``); None where fewer than two follow."""
        line = self._line_after_frame(s, a, t_a)
        return None if line is None else line[1]

    def _line_after_frame(self, s: int, a: int, t_a: float, first: int | None = None
                          ) -> np.ndarray | None:
        """A line (``fit_path`` coefficients) through slot ``s``'s sightings after frame
        ``a`` (from the next one that sees it where frame ``a`` still lies on its way in;
        only the ``first`` of them if given); None where fewer than two follow."""
        a0 = self._next_seen(s, a) if self._fits_a[s] else a
        tt, xa = self._samples(s, a0, a0 + self.settings.lag_frames, t_a)
        tt, xa = tt[:first], xa[:first]
        if len(tt) < 2:
            return None
        line: np.ndarray = fit_path(tt, xa, 1)[0]
        return line

    def _kick_least(self, s: int, a: int) -> float:
        """Least change of velocity (mm/s) that stands out of the noise of two fitted
        velocities: ``_KICK_SIGMAS`` position sigmas per frame (180 mm/s for 1 mm at
        30 fps)."""
        return _KICK_SIGMAS * self._sigma_of(s, a) / self._dt

    def _kicked_off(self, i: int, j: int, ci: np.ndarray, cj: np.ndarray, r_mm: float,
                    a: int, t_a: float, tau0: float, tau1: float) -> bool:
        """Whether mover ``i``, bent, passed mover ``j`` within its noise (``_noise_mm``)
        of touching, closing on it (``_TOUCH_MIN_APPROACH_MM_S``), and was kicked off its
        path (by ``_kick_least`` or more) away from ``j`` along their line of centres
        (``_TOUCH_COS``): a thin graze that hardly turned ``j``, whose fitted path misses
        ``i``'s by a mm. (Balls rolling by each other after a break brush at 100 mm/s.)"""
        tc, dmin = closest_approach(ci, cj, tau0, tau1)
        if dmin - r_mm > self._noise_mm(i, a):
            return False
        after = self._velocity_after(i, a, t_a)
        if after is None:
            return False
        nrm = eval_path(ci, tc) - eval_path(cj, tc)
        nrm /= max(float(np.linalg.norm(nrm)), 1e-9)
        tau_in = tc - 0.5 * self._dt  # (the approach just before: at the nearest it is nil)
        closing = float((eval_velocity(cj, tau_in) - eval_velocity(ci, tau_in)) @ nrm)
        kick = after - eval_velocity(ci, tc)
        size = float(np.linalg.norm(kick))
        return (closing >= _TOUCH_MIN_APPROACH_MM_S and size >= self._kick_least(i, a)
                and float(kick @ nrm) > _TOUCH_COS * size)

    def _touched_within(self, i: int, j: int, ci: np.ndarray, cj: np.ndarray, r_mm: float,
                        a: int, tau0: float, tau1: float) -> bool:
        """Whether the touch test bent mover ``i`` where it touched ``j``, and their paths
        ``ci``, ``cj`` pass within the sightings' noise (one sigma) of touching: a graze
        that turned ``j`` too little for any test of ``j`` alone, and ``i`` by less than
        ``_kick_least``, but steadily, frame after frame, away along their line of centres
        (which is what the touch test found)."""
        return j in self._touched.get(i, ()) and self._touch_partner(
            i, j, closest_approach(ci, cj, tau0, tau1)[1] - r_mm, a)

    def _touch_partner(self, i: int, j: int, gap_mm: float, a: int) -> bool:
        """Whether the touch test found mover ``i`` touching ``j`` (``_touched``), and
        their paths pass ``gap_mm`` apart, within one sigma of ``i``'s sightings: that
        pass is the touch the test found."""
        return j in self._touched.get(i, ()) and gap_mm <= self._sigma_of(i, a)

    def _strayed(self, s: int, a: int, coef: np.ndarray, t_a: float) -> bool:
        """Whether slot ``s``'s first sighting after frame ``a`` lies off its path ``coef``
        by more than the noise (twice ``_noise_mm``)."""
        tt, xa = self._samples(s, a + 1, a + 1 + self.settings.lag_frames, t_a)
        if not len(tt):
            return False
        off = float(np.linalg.norm(xa[0] - eval_path(coef, float(tt[0]))))
        return off > 2.0 * self._noise_mm(s, a)

    def _run_into(self, k: int, m: int, paths: dict[int, np.ndarray], r_mm: float,
                  tau0: float, tc: float, tau1: float, a: int) -> bool:
        """Whether mover ``k`` lay still from ``tau0`` to the touch at ``tc`` (within an
        onset of where it was: one that came to rest moments ago, still on the moving
        list, its path fitted to its rest's noise turning any way), and ``m`` came in
        from further off than that and ran into it deeper: it was hit where it lay."""
        limit = float(self._onset_mm(self._sigma_of(k, a)))
        def still(x: int) -> bool:
            way = eval_path(paths[x], np.linspace(tau0, tc, 4)) - eval_path(paths[x], tau0)
            return bool(np.all(np.linalg.norm(way, axis=1) < limit))
        came = float(np.linalg.norm(eval_path(paths[k], tau0) - eval_path(paths[m], tau0)))
        deepest = closest_approach(paths[k], paths[m], tau0, tau1)[1]
        return still(k) and not still(m) and came - r_mm > limit and r_mm - deepest > limit

    def _left_across(self, i: int, j: int, ci: np.ndarray, cj: np.ndarray, tc: float,
                     moving_before: set[int], a: int, t_a: float) -> bool:
        """Whether the one of ``i`` and ``j`` that rested, alone and clear of the
        cushions, left it across the line of centres from the other at ``tc`` (cos under
        ``_PUSH_COS``): a near miss that did not start it (a struck object leaves along
        that line)."""
        for still, mover, c_mover in ((j, i, ci), (i, j, cj)):
            if still in moving_before or mover not in moving_before:
                continue
            if self._held(still) or self._in_touch(still):
                return False  # (pressed into a cushion or a row, it leaves any way)
            u = self._departure(still, a, t_a)
            if u is None:
                return False
            on = self._rest_xy[still] - eval_path(c_mover, tc)
            return float(u @ on) < _PUSH_COS * max(float(np.linalg.norm(on)), 1e-9)
        return False

    def _leaves_soon(self, j: int) -> bool:
        """Whether resting slot ``j`` is first seen off its rest in the frames after this
        one (``_first_off``), within the look-ahead."""
        return 1 <= int(self._first_off[j]) <= self.settings.lag_frames

    def _still_after(self, j: int, tc: float, a: int, t_a: float) -> bool:
        """Whether resting slot ``j``, which another object passes nearest at ``tc``, left
        its rest more than a frame later (a pool ball: a frame and a half; its motion once
        seen off rest, run back): a pawn passed by on its way into a cushion, and met on
        the way back, stays at rest between (its start times that later contact); so does
        one beside a pawn that has stopped but does not rest yet, until something else
        sets it off."""
        k = a + int(self._first_off[j])  # (the first frame ahead that sees it off rest)
        if k > a + self.settings.lag_frames:
            return False
        t_on = self._onset_of(j, k, self._T(k))
        # (a disc's start is sharp; a ball's, run back from a melee, may read half a frame
        # late: the 14.1 sample clip's cue ball into ball 6 at 12.856 s)
        late = 1.0 if self._straight else 1.5
        return t_on is not None and t_on - (t_a + tc) > late * self._dt

    def _next_seen(self, s: int, a: int) -> int:
        """The first frame after ``a`` that sees slot ``s`` (``a + 1`` if none has yet)."""
        for k in range(a + 1, min(self._n, a + 1 + self.settings.lag_frames)):
            if self._seen[s, k % self._hist]:
                return k
        return a + 1

    def _cushion_after_contact(self, s: int, a: int, tc: float, t_a: float) -> bool:
        """A mover that hit an object and then a cushion within the same frame: its path
        after, run back to the contact, lies inside the cushion (the bounce folded it)."""
        tt, xa = self._samples(s, a, a + self.settings.lag_frames, t_a)
        if len(tt) < 3:
            return False
        after, _ = fit_path(tt, xa, 1 if len(tt) < 4 else 2)
        r = float(self._radius[s])
        tol = self._noise_mm(s, a)
        p_tc = eval_path(after, tc)
        for k in range(len(self._cush_a)):
            n = self._cush_n[k]
            if float((p_tc - self._cush_a[k]) @ n) - r > -tol:
                continue
            t_cu = line_touch(after, self._cush_a[k], n, r, tc, float(tt[0]), leaving=True)
            if t_cu is None:
                continue
            p = eval_path(after, t_cu)
            if not self._beside_cushion(k, p, r) or self._cushion_recent(s, k, t_a + t_cu):
                continue
            self._cushion_event(s, k, t_a + t_cu, a, p, 0.8 * self._quality([s], a))
            return True
        return False

    def _rails_after_hits(self, a: int, t_a: float) -> None:
        """Test the hits noted (``_kicks``) for a cushion the striker, or the object hit,
        met after them, each once it has been seen enough since; a contact it made after
        it, or one it is seen too little after, drops out."""
        for s, hit in list(self._kicks.items()):
            hit_again = self._contact_t.get(s, -math.inf) > hit.t_s + _SAME_TOUCH_S
            if hit_again or (self._mode[s] != _MOVING and a > hit.a):
                if not hit_again and self._mode[s] == _GONE:
                    # (pocketed or off the table: the sightings it left are all there is)
                    self._rail_after_hit(s, a, t_a, hit, final=True)
                del self._kicks[s]
                continue
            done = self._rail_after_hit(s, a, t_a, hit)
            if done is not None or a >= hit.a + _KICK_WAIT_FRAMES:
                del self._kicks[s]

    def _rail_after_hit(self, s: int, a: int, t_a: float, hit: _Hit,
                        final: bool = False) -> bool | None:
        """Whether a striker that hit a resting object, or that object, met a cushion
        before it was seen again (None: not seen enough since to tell yet). A hit pushes
        each only away from the other, along the line of centres ``n``; when its velocity
        after (a line through its sightings since, run back to the hit at the deceleration
        it had before) differs from the one before by more, along a cushion's normal, the
        cushion pushed it. It met the cushion where its path after, run back so, leaves
        the nose, if that lies between the hit and its next sighting, or else where it
        reaches the nose going on as the hit left it. (``final``: it is gone, and two
        sightings a frame apart will do.)"""
        s_ = self.settings
        tc, p_c, v_b, n = hit.t_s - t_a, hit.xy_mm, hit.v_mm_s, hit.n
        t_cush = max(self._last_cush_t.get((s, k), -math.inf)
                     for k in range(len(self._cush_a)))
        if t_cush >= hit.t_s - self._dt:
            return False  # (found already, from its bend)
        # (or met just before the hit, with under two sightings between to fit its way in
        # from: its velocity before the hit is then the one before that cushion)
        if math.isfinite(t_cush):
            t_in, _ = self._samples(s, hit.a - 3, hit.a, 0.0)
            if int(np.count_nonzero((t_in > t_cush) & (t_in < hit.t_s))) < 2:
                return False
        tt, xa = self._samples(s, hit.a, a + s_.lag_frames, t_a)
        if len(tt) < (2 if final else 3) or float(tt[-1] - tt[0]) < (
                0.5 if final else 1.5) * self._dt:
            return None
        after, rms = fit_path(tt, xa, 1)
        sig = self._sigma_of(s, a)
        if rms > 2.5 * sig and len(tt) >= 3:
            # (its first sighting after may come before the bounce)
            tt, xa = tt[1:], xa[1:]
            after, rms = fit_path(tt, xa, 1)
        if rms > 2.5 * sig:
            return False  # (its sightings after bend again: that bend is found as one)
        t_mid = float(tt.mean())  # (a line's velocity is the path's at its mean time)
        p_mid, v_a = eval_path(after, t_mid), eval_velocity(after, t_mid)
        # the path after, run back from t_mid at the deceleration it had before
        half_decel = 0.5 * hit.decel_mm_s2 * v_a / max(float(np.linalg.norm(v_a)), 1e-9)
        back = np.stack([p_mid - v_a * t_mid - half_decel * t_mid**2,
                         v_a + 2.0 * half_decel * t_mid, -half_decel])
        dv = eval_velocity(back, tc) - v_b
        sig_v = sig * math.sqrt(12.0 / len(tt)) / float(tt[-1] - tt[0])
        r = float(self._radius[s])
        reach = max(float(np.linalg.norm(v_b)), float(np.linalg.norm(v_a))) * (
            float(tt[0]) - tc) + 3.0 * sig
        for k in range(len(self._cush_a)):
            nk = self._cush_n[k]
            gap0 = float((p_c - self._cush_a[k]) @ nk) - r
            if gap0 > reach:
                continue
            split = _split_kick(n, nk, dv)
            if split is None:
                # (the hit drives it along the normal itself: no telling how hard, unless
                # it drove an object at rest into the cushion, which sends it back out)
                if (not np.any(v_b) and float(n @ nk) > 0.5
                        and float(v_a @ nk) > max(_RAIL_KICK_MM_S, 5.0 * sig_v)):
                    t_cu = line_touch(back, self._cush_a[k], nk, r, tc, float(tt[0]),
                                      leaving=True)
                    if t_cu is None:  # (it got there at least as fast as it came back)
                        t_cu = tc + max(gap0, 0.0) / max(float(np.linalg.norm(v_a)), 1.0)
                    p = p_c - max(gap0, 0.0) * nk
                    if self._beside_cushion(k, p, r):
                        self._cushion_event(s, k, t_a + t_cu, a, p,
                                            0.8 * self._quality([s], a))
                        return True
                continue
            push, kick = split
            if push < -3.0 * sig_v or kick < max(_RAIL_KICK_MM_S, 5.0 * sig_v):
                continue
            v_in = -float((v_b - push * n) @ nk)
            if v_in <= 0.0 or float(v_a @ nk) <= 0.0 or float(
                    (p_mid - self._cush_a[k]) @ nk) - r <= 0.0:
                continue  # (into the cushion after the hit, and off it after)
            # where the path after, run back, leaves the nose; else where it gets there
            t_cu = line_touch(back, self._cush_a[k], nk, r, tc, float(tt[0]), leaving=True)
            if t_cu is None:
                t_cu = tc + max(gap0, 0.0) / v_in
            if not tc <= t_cu <= float(tt[0]) + self._dt:
                continue  # (the first sighting after may still come before the bounce)
            if abs(float((eval_path(back, t_cu) - self._cush_a[k]) @ nk) - r) > (
                    3.0 * sig + s_.cushion_gate_mm):
                continue  # (the path after does not come off that cushion there)
            p = p_c + (v_b - push * n) * (t_cu - tc)
            if not self._beside_cushion(k, p, r):
                continue
            self._cushion_event(s, k, t_a + t_cu, a, p, 0.8 * self._quality([s], a))
            return True
        return False

    def _reaches(self, c: _Candidate, paths: dict[int, np.ndarray], moving_before: set[int],
                 deflected: dict[int, tuple[float, np.ndarray | None]], a: int,
                 t_a: float) -> bool:
        """Whether a candidate contact still happens after the contacts taken before it: a
        mover that already hit something at ``t1`` goes on along the path it is seen to take
        after frame ``a``, which must still come within the contact gate of the other."""
        for m, o in ((c.i, c.j), (c.j, c.i)):
            if m not in deflected or c.tc - deflected[m][0] < _SAME_TOUCH_S:
                continue
            t1, after = deflected[m]
            if after is None:
                tt, xa = self._samples(m, a, a + self.settings.lag_frames, t_a)
                if len(tt) < 2:
                    return True  # nothing seen after: cannot tell, keep it
                after = fit_path(tt, xa, 1 if len(tt) < 4 else 2)[0]
                deflected[m] = (t1, after)
            _, dmin = closest_approach(after, paths[o], t1, max(c.tc, t1 + 1e-3))
            if dmin - c.rsum_mm > _REACH_GAP_MM:
                return False
        return True

    def _turned_along(self, c: _Candidate, o: _Candidate, paths: dict[int, np.ndarray],
                      a: int, t_a: float) -> bool:
        """Whether striker ``c.i``'s turn (its velocity after frame ``a`` against its path
        in) runs along its line of centres with ``c.j`` (``_TOUCH_COS``) and not with
        ``o.j``'s: of two it touched within a frame, one hit on and one a resting object
        passing a hit on, the turn tells which it met. Not on a Novuss board: a puck into
        the junction of a row the cushion holds meets both, and turns off both."""
        if self.spec.family is Family.NOVUSS:
            return False
        after = self._velocity_after(c.i, a, t_a)
        if after is None:
            return False
        ci = paths[c.i]
        def cos(x: _Candidate) -> float:
            dv = after - eval_velocity(ci, x.tc)
            nrm = eval_path(ci, x.tc) - eval_path(paths[x.j], x.tc)
            return float(dv @ nrm) / max(float(np.linalg.norm(dv) * np.linalg.norm(nrm)), 1e-9)
        return cos(c) >= _TOUCH_COS > cos(o)

    def _drifted_into(self, c: _Candidate, cands: list[_Candidate], moving_before: set[int]
                      ) -> bool:
        """Whether near miss ``c`` of a resting object by a mover is rather the mover going
        on, turned, into it later: the same mover's path meets another resting object as
        near or nearer at the same time (within a frame), and that one leaves rest in an
        earlier frame of the look-ahead (one that leaves in the same frame, a row's
        junction, keeps both), and the two do not touch (a row's push may start it later)."""
        if c.conf >= 1.0 or c.cradle or c.bounce_only:
            return False
        m, o = (c.i, c.j) if c.i in moving_before else (c.j, c.i)
        if m not in moving_before or o in moving_before:
            return False
        for t in cands:
            if t is c or t.cradle or t.bounce_only or m not in (t.i, t.j):
                continue
            k = t.j if t.i == m else t.i
            if (k != o and k not in moving_before and t.conf >= c.conf
                    and abs(t.tc - c.tc) < self._dt and self._first_off[k] < self._first_off[o]
                    and float(np.linalg.norm(self._rest_xy[k] - self._rest_xy[o]))
                    - self._radius[k] - self._radius[o] > _TOUCH_GAP_MM):
                return True
        return False

    def _passes_on(self, j: int, starting: np.ndarray, from_xy: np.ndarray | None,
                   deep: bool = False) -> bool:
        """Whether resting slot ``j`` touches a resting object that starts now: hit, it may
        hardly move and pass the hit on (a Newton's cradle). With the hitter's position
        ``from_xy``, that object must lie beyond ``j`` from it (within 60 degrees of the
        line through both): the push goes on the way it came. A ``deep`` hit (the hitter's
        path runs well into ``j``: it met it for sure) on ``j`` held by a cushion goes on
        along the cushion, which takes the part of it into the cushion (a row's end pawn
        hit at a slant); a shallow one may be a near miss of ``j`` and a hit on the other."""
        k = (starting & (self._mode == _REST)).nonzero()[0]
        k = k[k != j]
        if not len(k):
            return False
        on = self._rest_xy[k] - self._rest_xy[j]
        ok = np.linalg.norm(on, axis=1) - self._radius[k] - self._radius[j] < _TOUCH_GAP_MM
        if from_xy is not None:
            into = self._rest_xy[j] - from_xy
            if deep:
                for n in self._cush_n[self._holding(np.array([j]))[0]]:
                    if float(into @ n) < 0.0:
                        into = into - float(into @ n) * n
            cos = (on @ into) / np.maximum(np.linalg.norm(on, axis=1)
                                           * float(np.linalg.norm(into)), 1e-9)
            ok &= cos > _PUSH_COS
        return bool(np.any(ok))

    def _stale_path(self, k: int, a: int) -> bool:
        """Whether mover ``k``'s path is its way into its last contact reported, run on: it
        has been lost from view since just after that contact (frame ``a`` and the one
        before unseen), so no bend restarted its fit, and its way after is unknown (a cue
        ball that met a ball and was lost at once)."""
        t_hit = self._contact_t.get(k, -math.inf)
        lo = max(0, self._n - self._hist)
        return (math.isfinite(t_hit) and self._T(max(int(self._seg0[k]), lo)) < t_hit
                and not self._seen[k, a % self._hist]
                and not self._seen[k, (a - 1) % self._hist]
                and self._T(self._last_seen_frame(k, a, lo)) < t_hit + self._dt)

    def _turned_at(self, i: int, j: int, a: int, t_a: float, ci: np.ndarray, r_mm: float,
                   lo: float, hi: float) -> bool:
        """Whether striker ``i`` turned, within ``[lo, hi]``, where it touched resting slot
        ``j`` (sum of radii ``r_mm``), clearly nearer that than any other resting object's
        touching circle: it met ``j`` for sure, however thinly. The turn: where its path in
        ``ci`` and the line through its next three sightings off that path cross (a fourth
        may be past its next bounce)."""
        tt, xa = self._samples(i, a, a + self.settings.lag_frames, t_a)
        sigma = self._sigma_of(i, a)
        off = np.linalg.norm(xa - eval_path(ci, tt), axis=1) > 3.0 * sigma
        k = int(np.argmax(off)) if np.any(off) else len(tt)
        if len(tt) - k < 2:
            return False
        out, rms = fit_path(tt[k:k + 3], xa[k:k + 3], 1)
        if rms > 3.0 * sigma:
            return False  # (the first of those is still on the way in)
        cross = _way_meets_line(eval_path(ci, lo), eval_path(ci, hi), out[0], out[1])
        if cross is None or not lo <= cross[1] <= min(hi, float(tt[k])):
            return False
        b = out[0] + out[1] * cross[1]
        rest = (self._mode == _REST).nonzero()[0]
        rest = rest[rest != i]
        gaps = np.abs(np.linalg.norm(self._rest_xy[rest] - b, axis=1)
                      - self._radius[rest] - self._radius[i])
        gap_j = float(gaps[rest == j][0]) if np.any(rest == j) else math.inf
        others = gaps[rest != j]
        # (nor where it could have touched another there too: a row's junction)
        near = _TURN_GAP_MM + sigma
        return gap_j <= near and not (len(others) and (
            float(others.min()) <= near
            or float(others.min()) - gap_j < _TURN_CLEAR * sigma / max(cross[2], 1e-3)))

    def _holding(self, slots: np.ndarray) -> np.ndarray:
        """``(S, C)``: which cushions each slot of ``slots`` lies against where it rests
        (its edge within ``_HUG_MM`` of the nose line)."""
        out: np.ndarray = self._nose_gaps(slots, self._rest_xy[slots]) < _HUG_MM
        return out

    def _held(self, s: int) -> bool:
        """Whether resting slot ``s`` lies against a cushion (within ``_HUG_MM``)."""
        return bool(self._holding(np.array([s])).any())

    def _bounced_off(self, i: int, a: int, ci: np.ndarray, cj: np.ndarray, r_mm: float,
                     tc: float, t_a: float, lo: float, hi: float) -> bool:
        """Whether mover ``i``'s motion after frame ``a`` lost most of its speed towards the
        object whose path ``cj`` its own ``ci`` touched at ``tc`` (or, where that is a near
        miss, where it turned, within ``[lo, hi]``)."""
        tt, xa = self._samples(i, a, a + self.settings.lag_frames, t_a)
        if len(tt) < 2:
            return False
        after, _ = fit_path(tt, xa, 1 if len(tt) < 4 else 2)

        def lost_speed(tb: float, p: np.ndarray) -> bool:
            dvec = eval_path(cj, tb) - p
            nrm = dvec / max(float(np.linalg.norm(dvec)), 1e-9)
            v_in = float(eval_velocity(ci, tb) @ nrm)
            v_out = float(eval_velocity(after, tb) @ nrm)
            return v_in > 100.0 and v_out < 0.5 * v_in

        if lost_speed(tc, eval_path(ci, tc)):
            return True
        if tc < hi - 1e-9:
            return False
        # (a near miss of a graze along a row, nearest as the window ends: its path in,
        # still closing there past the touch, points along the row; the touch lies where
        # that path comes within the near miss's gap and its noise)
        gap = float(closest_approach(ci, cj, lo, hi)[1]) - r_mm
        tb = first_touch(ci, cj, r_mm + max(gap, 0.0) + self._sigma_of(i, a), lo, tc)
        return tb is not None and tb < tc and lost_speed(tb, eval_path(ci, tb))

    def _cluster_pushes(self, a: int, starts: list[int], explained: set[int],
                        t_a: float) -> None:
        """Contacts passed on through touching resting objects (a rack, a row of pawns):
        every object starting now that a chain of touching ones (``_TOUCH_GAP_MM``) links
        to one that was struck. The objects in between may hardly move (a Newton's
        cradle); each link is a contact at the struck object's start. The struck
        one may have left rest a frame or two before (its onset seen sooner), or not at all
        (held against a cushion). Between shots a hand moves things: only this frame's
        struck objects pass a push on."""
        moving = (self._mode == _MOVING).nonzero()[0] if self._shot_on else np.zeros(0, int)
        left = np.nan_to_num(self._t_start[moving], nan=-np.inf)
        # (or recent by the earliest start seen now, and not after it: a slow one shows
        # frames late, its onset timed back to where it left)
        t_ref = min([t_a] + [float(self._t_start[s]) for s in starts
                             if s not in explained and math.isfinite(self._t_start[s])])
        before = t_ref - left
        recent = moving[(t_a - left < _RECENT_START_S)
                        | ((before < _RECENT_START_S) & (before > -0.5 * self._dt))]
        # a recent start with no cause yet waits for one (its onset may show a frame before
        # that of the object that passed the push on); it passes on no push itself
        waiting = [s for s in starts if s not in explained] + [
            int(m) for m in recent[self._orphan[recent]].tolist()]
        # one a hit or push reached lately: that started it, seen late (a creeper)
        hit_t = self._hit_times()
        for s in waiting:
            if self._shot_on and t_a - hit_t.get(s, -math.inf) < _RECENT_HIT_S:
                explained.add(s)
                self._orphan[s] = False
                self._t_start[s] = min(float(self._t_start[s]), hit_t[s])
        waiting = [s for s in waiting if s not in explained]
        if not waiting:
            return
        if self._shot_on:  # (the pack it crept from may all be moving by now)
            self._crept_off(waiting, explained, a, t_a)
            waiting = [s for s in waiting if s not in explained]
        rest = np.concatenate([(self._mode == _REST).nonzero()[0], recent])
        if len(rest) < 2:
            return
        xy = self._rested_xy(rest)
        touch = self._touching(rest, xy)
        pos = {int(s): k for k, s in enumerate(rest.tolist())}
        faint: set[tuple[int, int]] = set()  # pairs a pack's fit met, too slowly to report
        grew = True
        while grew and waiting:
            grew = False
            struck = explained if self._shot_on else explained & set(starts)
            # (struck objects held still, or hit and not seen moving yet: a rack's apex
            # ball starts a frame after the balls it passed the hit on to)
            hit_t = self._hit_times()
            held = [k for k, t_k in hit_t.items()
                    if t_a - t_k < _RECENT_HIT_S and k in pos and self._shot_on]
            roots = [s for s in struck if s in pos] + held + [
                int(m) for m in recent.tolist() if not self._orphan[m]]
            # every root's push on the way it came in first; then, for what none
            # reached, a striker that met the root's neighbour instead (_junction_hit);
            # then on any way into the root: an object it reaches only so proves the
            # push went there (the way in is measured on the striker's path, and a
            # graze's is barely known)
            ways = [(r, self._came_in(r, t_a)) for r in roots]
            any_way: list[tuple[int, np.ndarray | None]] = [
                (r, None) for r, d in ways if d is not None]
            for stage, pairs in enumerate((ways, any_way)):
                if stage == 1:
                    waiting = [s for s in waiting if s not in explained]
                    if waiting and self._shot_on and self._junction_hit(
                            waiting, [r for r, _ in any_way], rest, xy, touch, pos, held,
                            explained, a, t_a):
                        grew = True  # pushes go on from the neighbour
                        break
                # (a pack's pushes read from its velocities on a pool table only:
                # Novuss pawns stop within a frame or two on the powdered board, so
                # their first sightings do not give the speed a push left them with)
                by_velocity = self.spec.family is Family.POOL
                for first, came in pairs:
                    gone = self._flew_off(first, a, t_a) if stage == 1 else None
                    parents, into = self._impulse_spread(pos[first], came, xy, touch, gone)
                    t_on = float(self._t_start[first])
                    t_hit = hit_t.get(first, math.nan)
                    if first in held or 0.0 <= t_on - t_hit < _RECENT_HIT_S:
                        t_on = t_hit  # (a slow start is seen late: the hit times it)
                    if not math.isfinite(t_on):
                        t_on = t_a + self._window(a)[0] / 2
                    carried: dict[tuple[int, int], float] | None = None
                    for s in waiting:
                        if s in explained or s not in pos or pos[s] not in parents:
                            continue
                        if self._bounced_out(s, parents[pos[s]], rest, a, t_a):
                            continue  # (struck from outside: _struck_by finds by what)
                        if carried is None and came is not None and by_velocity:
                            carried = self._pack_impulses(pos[first], came, rest, xy, touch,
                                                          a, t_a, t_on)
                            faint.update(k for k, v in carried.items()
                                         if _PUSH_FAINT_MM_S <= v < _PUSH_MIN_MM_S)
                        links = self._push_links(s, a, t_a, rest, xy, parents, pos, carried,
                                                 (first, set(starts)))
                        for x, y in links:
                            if self._report_push(x, y, t_on, a, t_a, xy[pos[x]]):
                                self._pressed_cushion(y, xy[pos[y]] - xy[pos[x]], t_on, a)
                        d_in = into[pos[s]]
                        if d_in is not None:
                            self._hit_dir[s] = (t_on, d_in)
                        self._struck_t[s] = t_on
                        explained.add(s)
                        self._orphan[s] = False
                        grew = True
            waiting = [s for s in waiting if s not in explained]
        # a faint push still bent both paths: not a new contact when that bend shows a
        # frame or two on
        for pair in faint:
            self._faint[pair] = t_a

    def _bounced_out(self, s: int, ks: list[int], rest: np.ndarray, a: int, t_a: float
                     ) -> bool:
        """Whether slot ``s``, held against a cushion, with one touching neighbour (row
        ``ks[0]`` of ``rest``) a push could come from, left rest clearly across
        their line of centres (``_PUSH_COS``): a push acts along that line, and a row the
        cushion holds passes it along itself. A pawn that leaves off the row was struck
        into the cushion from outside and bounced out (a puck into the junction of two
        pawns meets both, a few ms apart): a push into it reported down the row while it
        seemed at rest is taken back."""
        if len(ks) != 1 or not self._held(s):
            return False
        u = self._departure(s, a, t_a)
        if u is None or not self._off_row(s, int(rest[ks[0]]), u):
            return False
        self._take_back_pushes(s, [int(rest[ks[0]])])
        return True

    def _off_row(self, s: int, k: int, way: np.ndarray) -> bool:
        """Whether slot ``s`` moving along ``way`` goes off the line from its touching
        neighbour ``k`` (``_off_line``): no push from ``k`` sent it."""
        return _off_line(way, self._rest_xy[s] - self._rest_xy[k])

    def _take_back_pushes(self, s: int, pushers: list[int]) -> bool:
        """Take back the pending pushes into slot ``s`` from ``pushers`` (reported down a
        row while ``s`` seemed at rest); whether there were any."""
        pairs = {(int(self._ids[k]), int(self._ids[s])) for k in pushers}
        gone = [ev for ev, _ in self._pending
                if ev.kind is EventKind.CONTACT and id(ev) in self._at_once and ev.ids in pairs]
        for ev in gone:
            self._retract(ev)
        return bool(gone)

    def _left_after_push(self, s: int, t_on: float, a: int, t_a: float) -> bool:
        """Whether slot ``s``, leaving at ``_LATE_PUSH_MM_S`` or more (fast enough for its
        onset to be timed to a few ms), left rest over a frame after a push at ``t_on``
        could have reached it: a push crosses a touching pack at once, and a gap of
        ``_TOUCH_GAP_MM`` at about the speed it leaves with. Something else struck it
        later (a ball off a cushion into the one the break's push passed by)."""
        v = self._velocity_after(s, a - 1, t_a)
        if v is None:
            return False
        speed = float(np.linalg.norm(v))
        if speed < _LATE_PUSH_MM_S:
            return False
        slack = self._dt + (_TOUCH_GAP_MM + 3.0 * self._sigma_of(s, a)) / speed
        return float(self._t_start[s]) - t_on > slack

    def _crept_off(self, waiting: list[int], explained: set[int], a: int, t_a: float
                   ) -> None:
        """Explain the starts in ``waiting`` that a pack's fit of the last ``_CREEP_LATE_S``
        (``_pack_impulses``) pushed into a creep, or that were in that pack and creep off
        now (a push the fit found too faint): seen leaving frames late, each was started
        at that hit, by the strongest push the fit gave it (reported, timed at the hit,
        unless it was then); as a root it passes on only what the fit says."""
        for s in waiting:
            for pack in self._packs:
                t_on = pack.t_s
                if not 0.0 <= t_a - t_on < _CREEP_LATE_S or (
                        s not in pack.creepers
                        and not (s in pack.members and self._creeps_off(s, a, t_a))):
                    continue
                if self._left_after_push(s, t_on, a, t_a):
                    continue  # (no creep: struck since, by something else)
                pushes = pack.pushes
                mine = [p for p in pushes if s in p and pushes[p] >= _PUSH_FAINT_MM_S]
                if mine:  # (its strongest: a creeper's slow pushes on are less sure)
                    pair = max(mine, key=lambda p: pushes[p])
                    x, y = (pair[1], s) if pair[0] == s else (pair[0], s)
                    at = self._rested_xy(x)
                    if self._last_pair_t.get(pair, -math.inf) < t_on:  # (not reported
                        self._report_push(x, y, t_on, a, t_a, at)  # with the pack's push)
                    # (as a root it passes on what the fit says, not any way)
                    self._note_hit(s, t_on, at)
                self._t_start[s] = t_on  # (a creeper's own onset, run back, is noise)
                self._orphan[s] = False
                explained.add(s)
                break

    def _creeps_off(self, s: int, a: int, t_a: float) -> bool:
        """Whether slot ``s``, starting now, leaves its rest slower than
        ``_PACK_CREEP_MM_S``: a creep a push left it with, not a fresh hit."""
        v = self._velocity_after(s, a - 1, t_a)
        return v is not None and float(np.linalg.norm(v)) < _PACK_CREEP_MM_S

    def _report_push(self, x: int, y: int, t_on: float, a: int, t_a: float,
                     at: np.ndarray) -> bool:
        """Report a push from slot ``x`` (resting at ``at``) into slot ``y`` inside a
        touching pack at ``t_on``, unless ``_claim_pair`` refuses it; whether it did."""
        if not self._claim_pair(x, y, t_a):
            return False
        ev = self._event(EventKind.CONTACT, t_on, a, (self._ref(x), self._ref(y)), at,
                         0.7 * self._quality([x, y], a), 0.005)
        if ev is not None:
            self._at_once.add(id(ev))
        return True

    def _flew_off(self, s: int, a: int, t_a: float) -> np.ndarray | None:
        """Unit direction a struck slot ``s`` flew off in, at ``_LEFT_BEHIND_MM_S`` or
        more; None when slower (a rack's apex ball, which passed the hit on, rebounds
        off the pack any way) or held against a cushion (it bounces off that)."""
        if self._held(s):
            return None
        path = self._start_path(s, a, t_a)
        if path is None:
            return None
        speed = float(np.linalg.norm(path[1]))
        return path[1] / speed if speed >= _LEFT_BEHIND_MM_S else None

    def _hit_times(self) -> dict[int, float]:
        """When each slot was last struck: noted with the direction of the hit
        (``_hit_dir``) or without (``_struck_t``); the later where both are."""
        out = {k: t_k for k, (t_k, _) in self._hit_dir.items()}
        for k, t_k in self._struck_t.items():
            out[k] = max(out.get(k, -math.inf), t_k)
        return out

    def _touching(self, slots: np.ndarray, xy: np.ndarray) -> np.ndarray:
        """``(N, N)``: which of ``slots``, at ``xy``, touch (within ``_TOUCH_GAP_MM``)."""
        gap = (np.linalg.norm(xy[:, None] - xy[None, :], axis=2)
               - self._radius[slots, None] - self._radius[None, slots])
        touch = gap < _TOUCH_GAP_MM
        np.fill_diagonal(touch, False)
        return touch

    def _came_in(self, s: int, t_a: float) -> np.ndarray | None:
        """Unit direction the hit that just started slot ``s`` came in along (None: none
        noted in the last ``_RECENT_HIT_S``)."""
        hit = self._hit_dir.get(s)
        return hit[1] if hit is not None and t_a - hit[0] < _RECENT_HIT_S else None

    def _at_junction(self, striker: int, other: int, p: np.ndarray) -> bool:
        """Whether the striker, centred at ``p`` as it hits resting ``other``, was as close
        (within ``_JUNCTION_GAP_MM``) to a resting neighbour touching ``other`` with another
        label: a puck into the junction of a red and a black pawn, the one it met first a
        fraction of a ms and a fraction of a mm away from the other (between two of one
        colour the rules read the same either way)."""
        near = np.array([k for k in self._resting_against(other).tolist()
                         if k != striker and self._labels[k] != self._labels[other]],
                        dtype=int)
        gap = np.linalg.norm(self._rest_xy[near] - p, axis=1) - (
            self._radius[near] + self._radius[striker])
        return bool(np.any(gap < _JUNCTION_GAP_MM))

    def _grazed_first(self, striker: int, other: int, coef: np.ndarray, tc: float,
                      a: int) -> bool:
        """Whether the striker's path in, in the frame before it met resting ``other`` at
        ``tc``, ran into another resting object a cushion holds (by half its sigma): a
        graze the cushion takes moves that one by nothing a camera sees, so which it met
        first is for review."""
        rest = (self._mode == _REST).nonzero()[0]
        rest = rest[(rest != other) & (rest != striker)]
        if not len(rest):
            return False
        rest = rest[self._holding(rest).any(axis=1)]
        pts = eval_path(coef, np.linspace(tc - self._dt, tc, 9))
        gap = np.linalg.norm(pts[:, None] - self._rest_xy[rest][None], axis=2) - (
            self._radius[rest] + self._radius[striker])[None]
        return bool(np.any(gap < -0.5 * self._sigma_of(striker, a)))

    def _rested_xy(self, slots: np.ndarray | int) -> np.ndarray:
        """Where ``slots`` rest, or, those that left rest, where they rested before."""
        still = self._mode[slots] == _REST
        out: np.ndarray = np.where(np.asarray(still)[..., None], self._rest_xy[slots],
                                   self._start_xy[slots])
        return out

    def _resting_against(self, s: int, t_a: float | None = None) -> np.ndarray:
        """Resting slots, other than ``s``, that touch slot ``s`` where it rests (within
        ``_TOUCH_GAP_MM``); with frame time ``t_a``, also those that left rest lately
        (``_RECENT_HIT_S``), where they rested: the pack a hit runs through."""
        near = self._mode == _REST
        if t_a is not None:
            near |= (self._mode == _MOVING) & (t_a - np.nan_to_num(
                self._t_start, nan=-np.inf) < _RECENT_HIT_S)
        rest = near.nonzero()[0]
        rest = rest[rest != s]
        gap = np.linalg.norm(self._rested_xy(rest) - self._rest_xy[s], axis=1) - (
            self._radius[rest] + self._radius[s])
        out: np.ndarray = rest[gap < _TOUCH_GAP_MM]
        return out

    def _start_doubt(self, s: int, a: int, coef: np.ndarray, tau: float) -> float:
        """How early (s) slot ``s``'s path, fitted after it left rest, may still reach:
        its start is timed to the time its noise takes to cover at its speed, and at
        most half a frame."""
        v = float(np.linalg.norm(eval_velocity(coef, tau)))
        return min(0.5 * self._dt, 1e-3 + 3.0 * self._sigma_of(s, a) / max(v, 1.0))

    def _paired_lately(self, i: int, j: int, t_a: float, faint: bool = False) -> bool:
        """Whether a contact of slots ``i`` and ``j`` was reported within 3.5 frames
        before frame time ``t_a`` (the same touch, seen again from a later frame); with
        ``faint``, or a pack's fit said they met too faintly to report (``_faint``)."""
        key = (min(i, j), max(i, j))
        last = self._last_pair_t.get(key, -math.inf)
        if faint:
            last = max(last, self._faint.get(key, -math.inf))
        return t_a - last < 3.5 * self._dt

    def _reported_near(self, i: int, j: int, t_s: float, within_s: float = _REPEAT_S
                       ) -> bool:
        """Whether a contact of slots ``i`` and ``j`` was reported within ``within_s`` of
        ``t_s`` (by default ``_REPEAT_S``: the same contact, found twice)."""
        last = self._pair_reported.get((min(i, j), max(i, j)), -math.inf)
        return abs(t_s - last) < within_s

    def _claim_pair(self, i: int, j: int, t_a: float) -> bool:
        """Whether a contact of slots ``i`` and ``j`` may be reported at frame time
        ``t_a`` (not ``_paired_lately``); if so, it is recorded as reported then."""
        if self._paired_lately(i, j, t_a):
            return False
        self._last_pair_t[(min(i, j), max(i, j))] = t_a
        return True

    def _note_hit(self, s: int, t_s: float, from_xy: np.ndarray) -> None:
        """Remember the direction a hit from an object centred at ``from_xy`` came into
        resting slot ``s`` along: a push it passes on goes on forward of it."""
        d = self._rest_xy[s] - from_xy
        norm = float(np.linalg.norm(d))
        if norm > 1e-9:
            self._hit_dir[s] = (t_s, d / norm)

    def _junction_hit(self, waiting: list[int], roots: list[int], rest: np.ndarray,
                      xy: np.ndarray, touch: np.ndarray, pos: dict[int, int], held: list[int],
                      explained: set[int], a: int, t_a: float) -> bool:
        """A start no push reaches on the way it came in, beside a root a striker hit
        where it met a touching neighbour of the root within its noise too (a puck into
        the junction of two pawns of a row, a mm from each; the noisy path touches the
        wrong one first): when the neighbour's push, along the line from the striker,
        reaches the start, the striker met the neighbour. The pending contact moves to it,
        with its pressed cushion, unless the root's own push went on as well (the puck
        met both: a second contact). Which end of a row flies off tells the side it was
        hit on, not which of the two it met: that one is for review (on the development
        seeds such a move was right about as often as not)."""
        for r in roots:
            if not self._held(r):
                continue  # (in a rack, which side the push went is no measure of it)
            hit = self._pending_contact(r)
            if hit is None:
                continue
            ev, sigma_t = hit
            j = self._slot_of[ev.objects[0].id]
            for m in touch[pos[r]].nonzero()[0].tolist():
                k = int(rest[m])
                if self._mode[k] != _REST or k in held or k == j or not self._held(k):
                    continue
                met = self._met_too(j, k, ev, a, t_a)
                if met is None:
                    continue
                t_k, p_k = met
                line = xy[m] - p_k
                parents, _ = self._impulse_spread(m, line / max(float(np.linalg.norm(line)),
                                                               1e-9), xy, touch)
                if not any(pos.get(s) in parents for s in waiting):
                    continue
                went_on, _ = self._impulse_spread(pos[r], self._came_in(r, t_a), xy, touch)
                if not (self._mode[r] != _REST or any(
                        int(rest[q]) in explained or self._mode[rest[q]] == _MOVING
                        for q in went_on if q != pos[r])):
                    self._retract(ev)
                    self._retract_cushion(r, ev.t_s)
                    self._hit_dir.pop(r, None)
                    self._struck_t.pop(r, None)
                    explained.discard(r)
                self._event(EventKind.CONTACT, t_k, a, (ev.objects[0], self._ref(k)), p_k,
                            min(ev.confidence, 0.45), sigma_t)
                self._pressed_cushion(k, line, t_k, a)
                self._note_hit(k, t_k, p_k)
                self._struck_t[k] = t_k
                self._last_pair_t[(min(j, k), max(j, k))] = t_a
                return True
        return False

    def _hit_after_hit(self, before: list[Event], onset: np.ndarray, a: int, t_a: float
                       ) -> None:
        """A striker that hit a resting object and, a few ms later, one beside it that
        barely moves (a pawn of a row pressed into its cushion, a ball resting against
        others) turned twice between two frames. Every contact reported this frame (none
        of ``before``) by a mover on a resting object is tested for such a second one
        (``_met_after``). On a pool table an object just leaving rest is a rack's or a
        cluster's, pushed from touching: its way in tells nothing, so only movers."""
        old = {id(ev) for ev in before}  # (``before`` holds them: no id is reused)
        for ev, _ in list(self._pending):
            if id(ev) in old or ev.kind is not EventKind.CONTACT:
                continue
            m, root = (self._slot_of[o.id] for o in ev.objects)
            if self._mode[root] == _REST and (
                    self._mode[m] == _MOVING or (onset[m] and self._straight)):
                self._met_after(m, root, ev, onset, a, t_a)

    def _met_after(self, m: int, root: int, ev: Event, onset: np.ndarray, a: int, t_a: float
                   ) -> None:
        """Mover ``m`` hit ``root`` (``ev``) and then another resting object: its way out,
        run back, leaves that one's contact circle (or passes within the noise of it)
        after the hit, and its way in and out differ by a push along that one's line of
        centres, not ``root``'s alone (for a striker seen only leaving rest: one contact
        would have sped it up). Its real way lies outside every object from its last
        contact on, so the one it left last is the one it met last. Reported with the
        push into its cushion where it lay against one."""
        t_hit = ev.t_s - t_a
        way_in = self._way_in(m, root, t_hit, a, t_a) if self._mode[m] == _MOVING else None
        if way_in is None and not onset[m]:
            return  # (a mover whose way in is unknown)
        decel = 0.0 if way_in is None else way_in[2]
        way_out = self._way_out(m, ev.t_s, decel, a, t_a)
        if way_out is None:
            return
        cout, first, s_out = way_out
        met = self._left_last(m, root, cout, t_hit, first, a)
        if met is None:
            return
        k, tk = met
        p = eval_path(cout, tk)
        if way_in is None:
            # (a striker seen only leaving rest: its way in runs from there to the hit;
            # kept along root's contact, its speed then is what one contact leaves it)
            p1 = np.array(ev.xy_mm)
            n_r = p1 - self._rest_xy[root]
            along = np.array([-n_r[1], n_r[0]]) / max(float(np.linalg.norm(n_r)), 1e-9)
            d_in = p1 - self._rest_xy[m]
            d_in /= max(float(np.linalg.norm(d_in)), 1e-9)
            v_out = eval_velocity(cout, t_hit)
            if abs(float(d_in @ along)) < _MET_AFTER_SLANT or float(v_out @ along) / float(
                    d_in @ along) >= float(np.linalg.norm(v_out)):
                return
        else:
            cin, t1, _, s_in, s_at = way_in
            n_r = eval_path(cin, t1) - self._rest_xy[root]
            n_k = p - self._rest_xy[k]
            basis = np.stack([n_r / max(float(np.linalg.norm(n_r)), 1e-9),
                              n_k / max(float(np.linalg.norm(n_k)), 1e-9)], axis=1)
            det = abs(float(np.linalg.det(basis)))
            dv = eval_velocity(cout, tk) - eval_velocity(cin, t1)
            # (noise of the turn across root's line of centres: both velocities, and
            # where on root's circle the way in met it)
            size = float(np.linalg.norm(dv))
            s_dv = math.hypot(s_out, s_in, size * s_at / float(
                self._radius[m] + self._radius[root]))
            if det < 1e-3 or float(np.linalg.solve(basis, dv)[1]) < max(
                    _MET_AFTER_Z * s_dv / det, _MET_AFTER_SHARE * size):
                return
        if not self._claim_pair(m, k, t_a):
            return
        self._event(EventKind.CONTACT, t_a + tk, a, (self._ref(m), self._ref(k)), p,
                    0.6 * self._quality([m, k], a), 0.005)
        self._pressed_cushion(k, self._rest_xy[k] - p, t_a + tk, a)
        self._struck_t[k] = t_a + tk

    def _way_in(self, m: int, root: int, t_hit: float, a: int, t_a: float
                ) -> tuple[np.ndarray, float, float, float, float] | None:
        """Mover ``m``'s path into its hit on ``root`` at ``t_hit`` (fitted to its
        sightings before since its last turn), when it met ``root`` on it, the friction
        slowing it (mm/s^2), and the noise (sigma) of its velocity (mm/s) and of where it
        was then (mm). None where fewer than three sightings show it."""
        s_ = self.settings
        tb, xb = self._samples(m, max(a - s_.fit_frames, int(self._seg0[m])), a + 1, t_a)
        tb, xb = tb[tb < t_hit], xb[tb < t_hit]
        if len(tb) < 3:
            return None
        cin, _ = fit_path(tb, xb, 2 if len(tb) >= 5 else 1)
        lo, hi = t_hit - 2.0 * self._dt, t_hit + self._dt
        still = still_path(self._rest_xy[root])
        r_sum = float(self._radius[m] + self._radius[root])
        touch = first_touch(cin, still, r_sum, lo, hi)
        t1 = touch if touch is not None else closest_approach(cin, still, lo, hi)[0]
        v_in = eval_velocity(cin, t1)
        decel = -2.0 * float(cin[2] @ v_in) / max(float(np.linalg.norm(v_in)), 1e-9)
        spread = tb - tb.mean()
        sigma = max(self._sigma_of(m, a), s_.noise_floor_mm)
        # (a quadratic's velocity is known about half as well as a line's)
        return (cin, t1, min(max(decel, 0.0), _MAX_DECEL_MM_S2),
                2.0 * sigma / math.sqrt(float(spread @ spread)), sigma / math.sqrt(len(tb)))

    def _way_out(self, m: int, t_hit_s: float, decel: float, a: int, t_a: float
                 ) -> tuple[np.ndarray, float, float] | None:
        """Mover ``m``'s path out of a hit at ``t_hit_s``, slowing by ``decel`` (mm/s^2)
        as on its way in: fitted to its sightings after the first one after the hit (which
        may lie between two contacts: it counts where it fits). Its coefficients, the
        first sighting on it, and the noise (sigma) of its velocity (mm/s); None where
        fewer than three follow or they bend."""
        s_ = self.settings
        after = [k for k in range(max(0, a - 4), self._n) if self._T(k) > t_hit_s]
        if not after:
            return None
        tt, xa = self._samples(m, after[0], after[0] + s_.lag_frames, t_a)
        if len(tt) < 4:
            return None
        t2, x2 = tt[1:], xa[1:]
        line, _ = fit_path(t2, x2, 1)
        half = -0.5 * decel * line[1] / max(float(np.linalg.norm(line[1])), 1e-9)
        cout, rms = fit_path(t2, x2 - half[None] * (t2 * t2)[:, None], 1)
        cout[2] = half
        sigma = max(self._sigma_of(m, a), s_.noise_floor_mm)
        if rms > 3.0 * sigma:
            return None
        fits = float(np.linalg.norm(eval_path(cout, tt[0]) - xa[0])) <= 3.0 * sigma
        spread = t2 - t2.mean()
        return cout, float(tt[0] if fits else t2[0]), sigma / math.sqrt(float(spread @ spread))

    def _left_last(self, m: int, root: int, cout: np.ndarray, t_hit: float, first: float,
                   a: int) -> tuple[int, float] | None:
        """The resting object (not ``root``) that mover ``m``'s way out ``cout``, run back
        from its ``first`` sighting on it, leaves last: within ``(t_hit, first)`` and
        ``_MET_AFTER_S`` after it left ``root``'s contact circle. It leaves one it passes
        within ``_MET_AFTER_SIGMAS`` of the noise without entering where it passes
        nearest. The slot and when; None where there is none."""
        rest = (self._mode == _REST).nonzero()[0]
        rest = rest[rest != m]
        if len(rest) < 2:
            return None
        reach = self._radius[rest] + self._radius[m]
        tau = np.full(len(rest), first)
        for _ in range(2):  # (the way as a line where it leaves each: a frame's friction)
            v = eval_velocity(cout, tau)
            p0 = eval_path(cout, tau) - v * tau[:, None]
            leaves = self._leaves(p0, v, self._rest_xy[rest], reach)
            rel = p0 - self._rest_xy[rest]
            nearest = -np.einsum("rk,rk->r", rel, v) / np.einsum("rk,rk->r", v, v)
            tau = np.where(np.isfinite(leaves), leaves, nearest).clip(t_hit, first)
        gap = np.linalg.norm(rel + nearest[:, None] * v, axis=1) - reach
        sigma = max(self._sigma_of(m, a), self.settings.noise_floor_mm)
        t_left = np.where(np.isfinite(leaves), leaves,
                          np.where(gap <= _MET_AFTER_SIGMAS * sigma, nearest, -np.inf))
        is_root = rest == root
        after = (t_left > max(t_hit, float(t_left[is_root].max(initial=-np.inf)))
                 + _MET_AFTER_S) & (t_left < first) & ~is_root
        if not after.any():
            return None
        pick = int(np.argmax(np.where(after, t_left, -np.inf)))
        return int(rest[pick]), float(t_left[pick])

    def _met_too(self, j: int, k: int, hit: Event, a: int, t_a: float
                 ) -> tuple[float, np.ndarray] | None:
        """When and where mover ``j``, on its path into the ``hit`` it made (fitted to its
        sightings before), met resting slot ``k`` too: touching it within a frame before
        the hit or ``_JUNCTION_LATE_S`` after, or passing within its noise of it. None
        when it passed clear."""
        tt, xa = self._samples(j, a - 6, a, t_a)
        # (its sightings since it left rest, from where it rested, where it was seen
        # moving twice before the hit: a stroke's puck lay still just before)
        left = float(self._left_t[j]) - t_a
        if math.isfinite(left) and np.any(tt <= left) and np.count_nonzero(
                (tt > left) & (tt < hit.t_s - t_a)) >= 2:
            moved = tt > left
            tt = np.concatenate([[left], tt[moved]])
            xa = np.vstack([self._start_xy[j][None], xa[moved]])
        before = tt < hit.t_s - t_a
        n = int(np.count_nonzero(before))
        r = float(self._radius[j] + self._radius[k])
        if n < 2:
            p = np.array(hit.xy_mm)
            gap = float(np.linalg.norm(self._rest_xy[k] - p)) - r
            return (hit.t_s, p) if gap < 3.0 * self._sigma_of(j, a) else None
        coef, _ = fit_path(tt[before], xa[before], 2 if n >= 4 else 1)
        still = still_path(self._rest_xy[k])
        lo, hi = hit.t_s - t_a - self._dt, hit.t_s - t_a + _JUNCTION_LATE_S
        tc = first_touch(coef, still, r, lo, hi)
        if tc is None:
            tc, dmin = closest_approach(coef, still, lo, hi)
            if dmin - r > 3.0 * self._sigma_of(j, a):
                return None
        p = eval_path(coef, tc)
        # (not run on into the object it hit: at a junction it touches both at once)
        root = self._slot_of[hit.objects[1].id]
        deep = float(self._radius[j] + self._radius[root]) - float(
            np.linalg.norm(p - self._rest_xy[root]))
        if deep > 3.0 * self._sigma_of(j, a):
            return None
        if self._turned_clear_of(j, k, root, coef, tt[~before], xa[~before], hit.t_s - t_a,
                                 a):
            return None
        return t_a + tc, p

    def _turned_clear_of(self, j: int, k: int, root: int, coef: np.ndarray,
                         tt: np.ndarray, xa: np.ndarray, t_hit: float, a: int) -> bool:
        """Whether mover ``j``, seen coming back (sightings ``tt``, ``xa`` after its hit
        on ``root``), turned where it touched ``root`` and lay clear of ``k``: its path in
        ``coef`` and its line out meet where it turned. (A puck grazing a row along it
        bounces off the first pawn it touches; its path in, run on, would have met the
        next one a few ms later, a junction it never reached.)"""
        turn = self._turn(j, a, coef, tt, xa, t_hit - self._dt, t_hit + self._dt)
        if turn is None:
            return False
        b = turn[1]
        gap_root = float(np.linalg.norm(b - self._rest_xy[root])) - float(
            self._radius[j] + self._radius[root])
        gap_k = float(np.linalg.norm(b - self._rest_xy[k])) - float(
            self._radius[j] + self._radius[k])
        return gap_k - gap_root > self._noise_mm(j, a)

    def _turned_then(self, i: int, a: int, t_a: float, ci: np.ndarray, tc: float,
                     lo: float, hi: float) -> bool:
        """Whether striker ``i`` (path in ``ci``) turned within ``[lo, hi]``, within a
        quarter frame of ``tc``: its line out from the next frame that sees it meets its
        path in then."""
        tt, xa = self._samples(i, self._next_seen(i, a), a + self.settings.lag_frames, t_a)
        turn = self._turn(i, a, ci, tt, xa, lo, hi)
        return turn is not None and abs(turn[0] - tc) <= 0.25 * self._dt

    def _turn(self, j: int, a: int, coef: np.ndarray, tt: np.ndarray, xa: np.ndarray,
              lo: float, hi: float) -> tuple[float, np.ndarray] | None:
        """When and where (within ``[lo, hi]``) mover ``j`` turned: where its path in
        ``coef`` and the line through its first sightings after (``tt``, ``xa``, at least
        two) meet. None when they do not meet within the noise (no clean turn seen)."""
        if len(tt) < 2:
            return None
        out, _ = fit_path(tt[:4], xa[:4], 1)
        tb, d = closest_approach(coef, out, lo, hi)
        if d > self._noise_mm(j, a):
            return None
        return tb, eval_path(coef, tb)

    def _turn_after(self, j: int, a: int, coef: np.ndarray, t_a: float, lo: float,
                    hi: float) -> tuple[float, np.ndarray] | None:
        """``_turn`` of mover ``j`` from its sightings after frame ``a`` (from the next
        frame when frame a's sighting still lies on the path in)."""
        a_on = a + 1 if self._fits_a[j] else a
        tt, xa = self._samples(j, a_on, a + self.settings.lag_frames, t_a)
        return self._turn(j, a, coef, tt, xa, lo, hi)

    def _at_turn(self, c: _Candidate, coef: np.ndarray, a: int, t_a: float,
                 lo: float, hi: float) -> _Candidate | None:
        """Near miss ``c`` of a held object, off which its striker bounced, checked against
        where the striker turned (its paths in and out meet there, at the object hit): a
        slow puck along a row turns a frame from the pawn its path passes nearest at the
        frame flagged. Moved to the held object touched at the turn when that is clearly
        another, dropped when its own object lies beyond the gate there, else timed at the
        turn. Unchanged when no clean turn is seen, or none at a held object."""
        gate = self.settings.contact_gate_mm
        turn = self._turn_after(c.i, a, coef, t_a, lo, hi)
        rest = (self._mode == _REST).nonzero()[0]
        rest = rest[rest != c.i]
        if turn is None or not len(rest):
            return c
        tb, b = turn
        rsum = self._radius[rest] + self._radius[c.i]
        gaps = np.abs(np.linalg.norm(self._rest_xy[rest] - b, axis=1) - rsum)
        m = int(np.argmin(gaps))
        k, gap = int(rest[m]), float(gaps[m])
        gap_j = abs(float(np.linalg.norm(self._rest_xy[c.j] - b)) - c.rsum_mm)
        if gap > gate or not self._held(k):
            return c
        if k != c.j and gap_j - gap > self._noise_mm(c.i, a):
            r = float(rsum[m])
            conf = 1.0 if gap <= 0.0 else 0.8 * math.exp(-((gap / gate) ** 2))
        elif gap_j > gate:
            return None
        else:
            k, r, conf = c.j, c.rsum_mm, c.conf
        # (timed where its path in touches that object, when it does, near the turn)
        still = still_path(self._rest_xy[k])
        tc = first_touch(coef, still, r, lo, min(hi, tb + self._dt))
        return _Candidate(tb if tc is None else tc, c.i, k, r, conf, True)

    def _passed_before_turn(self, c: _Candidate, cands: list[_Candidate], coef: np.ndarray,
                            a: int, t_a: float) -> bool:
        """Whether touch ``c`` of a held object, off which the striker would bounce at once,
        lies clearly before the striker's turn, and another held object's touch lies at
        that turn: a puck along a row passing one pawn within the noise to hit the next."""
        quarter = 0.25 * self._dt
        if not (c.bounce_only and c.conf >= 1.0):
            return False
        later = [o for o in cands if o.i == c.i and o.j != c.j and o.bounce_only
                 and o.tc > c.tc + quarter]
        if not later:
            return False
        turn = self._turn_after(c.i, a, coef, t_a, self._window(a, c.i)[0], self._dt)
        return turn is not None and turn[0] - c.tc > quarter and any(
            abs(o.tc - turn[0]) <= quarter for o in later)

    def _skimmed_before(self, c: _Candidate, cands: list[_Candidate], coef: np.ndarray,
                        a: int) -> bool:
        """Whether touch ``c`` of a held object, off which the striker would bounce at once,
        reaches its touching circle by less than the noise, and a touch of a held
        neighbour of it within the next frame runs 2 sigma deeper."""
        if not (c.bounce_only and c.conf >= 1.0):
            return False
        sig = self._sigma_of(c.i, a)
        def depth(o: _Candidate) -> float:
            return o.rsum_mm - closest_approach(coef, still_path(self._rest_xy[o.j]), o.tc,
                                                o.tc + self._dt)[1]
        later = [o for o in cands if o.i == c.i and o.j != c.j and o.bounce_only
                 and o.conf >= 1.0 and 0.0 < o.tc - c.tc < self._dt
                 and o.j in self._resting_against(c.j).tolist()]
        if not later:
            return False
        d_c = depth(c)
        return d_c < sig and any(depth(o) > d_c + 2.0 * sig for o in later)

    def _pending_contact(self, s: int) -> tuple[Event, float] | None:
        """The pending contact (and its time's sigma) by which a mover struck resting slot
        ``s`` at the time noted for the hit on it."""
        hit = self._hit_dir.get(s)
        if hit is None:
            return None
        sid = int(self._ids[s])
        for ev, sig in self._pending:
            if (ev.kind is EventKind.CONTACT and ev.t_s == hit[0] and len(ev.objects) == 2
                    and ev.objects[1].id == sid
                    and self._mode[self._slot_of[ev.objects[0].id]] == _MOVING):
                return ev, sig
        return None

    def _retract(self, ev: Event) -> None:
        self._pending = [p for p in self._pending if p[0] is not ev]
        self._at_once.discard(id(ev))  # (its id may be a new event's once it is gone)
        if ev.kind is EventKind.CONTACT:
            i, j = (self._slot_of[o.id] for o in ev.objects)
            pair = (min(i, j), max(i, j))
            if self._pair_reported.get(pair) == ev.t_s:
                del self._pair_reported[pair]

    def _retract_cushion(self, s: int, t_s: float) -> None:
        """Take back slot ``s``'s pending cushion at ``t_s`` (a press into it by a hit
        that went to its neighbour)."""
        sid = int(self._ids[s])
        gone = [ev for ev, _ in self._pending if ev.kind is EventKind.CUSHION
                and ev.t_s == t_s and ev.objects[0].id == sid]
        for ev in gone:
            self._retract(ev)
            k = next(k for k, c in enumerate(self.spec.cushions) if c.name == ev.cushion)
            self._last_cush_t.pop((s, k), None)

    @staticmethod
    def _impulse_spread(root: int, came: np.ndarray | None, xy: np.ndarray, touch: np.ndarray,
                        left_along: np.ndarray | None = None
                        ) -> tuple[dict[int, list[int]], dict[int, np.ndarray | None]]:
        """Which touching objects (rows of ``touch``) an impulse into row ``root`` along
        unit ``came`` (None: unknown) can reach, each with the neighbours it can come from
        (row indices; the root's own is empty) and the direction it comes in along.

        It passes from one object to the next only forward of the way it came in, no
        further than ``_PUSH_REACH`` objects on: a rack ball pushed from behind pushes the
        two ahead of it, not its row neighbours, which leave it sideways. Each turn passes
        on the cos of its angle: once under ``_PUSH_SHARE`` of the hit is left, it goes no
        further (turn after turn would lead it round a rack and back). It comes into each
        object along the mean of the lines it came in by; into the root along the hit on
        it (``_hit_dir``), not along the root's own motion: a rack ball that passes the
        hit on leaves any way, even back. Where that way is unknown, a root seen leaving
        along unit ``left_along`` passed nothing to a neighbour it left behind (a push
        along their line stops the pusher's motion toward it, and gives none away)."""
        parents: dict[int, list[int]] = {root: []}
        into: dict[int, np.ndarray | None] = {root: came}
        share = {root: 1.0}
        frontier = [root]
        for _ in range(_PUSH_REACH):
            nxt: dict[int, list[int]] = {}
            for k in frontier:
                for m in touch[k].nonzero()[0].tolist():
                    if m in parents:
                        continue
                    n = xy[m] - xy[k]
                    d = into[k]
                    if k == root and d is None and left_along is not None and float(
                            n @ left_along) < -_LEFT_BEHIND_COS * float(np.linalg.norm(n)):
                        continue
                    slack = _HIT_SLACK_COS if k == root else 0.0
                    cos = 1.0 if d is None else float(n @ d) / max(
                        float(np.linalg.norm(n)), 1e-9) + slack
                    left = share[k] * min(cos, 1.0)
                    if left >= _PUSH_SHARE:
                        nxt.setdefault(m, []).append(k)
                        share[m] = max(share.get(m, 0.0), left)
            for m, ks in nxt.items():
                parents[m] = ks
                n = xy[m] - xy[ks]
                d = (n / np.maximum(np.linalg.norm(n, axis=1), 1e-9)[:, None]).sum(axis=0)
                norm = float(np.linalg.norm(d))
                into[m] = d / norm if norm > 1e-9 else None
            frontier = list(nxt)
        return parents, into

    def _push_links(self, s: int, a: int, t_a: float, rest: np.ndarray, xy: np.ndarray,
                    parents: dict[int, list[int]], pos: dict[int, int],
                    carried: dict[tuple[int, int], float] | None = None,
                    root: tuple[int, set[int]] | None = None) -> list[tuple[int, int]]:
        """The contacts that started slot ``s`` inside a touching cluster: each touching
        pair the pack's fitted impulses (``carried``, ``_pack_impulses``) say carried
        the push into ``s``; where they name none, each neighbour the impulse could come
        from (``_impulse_spread``) that ``s`` leaves along their line of centres
        (``_PUSH_COS``; the nearest to it when it leaves none of them clearly). Then back
        through any such neighbour still at rest to the struck one (a Newton's cradle:
        the objects in between hardly move). ``root``: the struck object and those
        starting now."""
        u = self._departure(s, a, t_a)
        out: list[tuple[int, int]] = []
        todo: list[tuple[int, np.ndarray | None]] = [(pos[s], u)]
        seen = {pos[s]}
        while todo:
            nxt: list[tuple[int, np.ndarray | None]] = []
            for m, d in todo:
                ks = parents.get(m, [])
                pushed = self._fitted_pushers(m, rest, xy, pos, carried, a, t_a)
                if pushed:
                    ks = pushed
                elif d is not None and len(ks) > 1:
                    n = xy[m] - xy[ks]
                    cos = (n @ d) / np.maximum(np.linalg.norm(n, axis=1), 1e-9)
                    ks = ([k for k, c in zip(ks, cos.tolist(), strict=True) if c > _PUSH_COS]
                          or [ks[int(np.argmax(cos))]])
                for k in ks:
                    link = (int(rest[k]), int(rest[m]))
                    if link not in out:
                        out.append(link)
                    if k not in seen and self._mode[rest[k]] == _REST:
                        seen.add(k)
                        nxt.append((k, None))
            todo = nxt
        if root is not None:
            # (a push the fit passes back into the struck one, or on from it into one that
            # stays at rest, stands only where that one passed a push on to another)
            r, starting = root
            passed_on = {x for x, y in out if y != r}
            stands = starting | passed_on
            out = [(x, y) for x, y in out
                   if not (y == r and x not in stands) and not (x == r and y not in stands)]
        return out

    def _fitted_pushers(self, m: int, rest: np.ndarray, xy: np.ndarray,
                        pos: dict[int, int], carried: dict[tuple[int, int], float] | None,
                        a: int, t_a: float) -> list[int]:
        """Rows of ``rest`` (at ``xy``) that row ``m`` took a push of ``_PUSH_MIN_MM_S``
        or more from, by the pack's fit (``carried``): from any member of the pack, the
        struck root's reach or not (a striker into two of a cluster, one pushing the
        third), but one seen flying off away from ``m`` (``_flew_off``): a striker met
        ``m`` after the fit, or the fit gave the push it left behind to ``m``."""
        if not carried:
            return []
        slot = int(rest[m])
        out = []
        for (x, y), v in carried.items():
            o = x + y - slot
            if slot not in (x, y) or o not in pos or v < _PUSH_MIN_MM_S:
                continue
            gone = self._flew_off(o, a, t_a)
            line = xy[m] - xy[pos[o]]
            if gone is not None and float(gone @ line) < -_LEFT_BEHIND_COS * float(
                    np.linalg.norm(line)):
                continue
            out.append(pos[o])
        return out

    def _pack_impulses(self, root: int, came: np.ndarray, rest: np.ndarray,
                       xy: np.ndarray, touch: np.ndarray, a: int, t_a: float, t_on: float
                       ) -> dict[tuple[int, int], float]:
        """The push each touching pair of slots (the lower first) of a pack (the rows of
        ``rest`` at ``xy`` that ``touch`` links to row ``root``) carried when ``root`` was
        struck at ``t_on`` along unit ``came``, as the speed (mm/s) it gave the lighter of
        the two: the non-negative impulses along the pairs' lines of centres (and from
        the cushions members lie against, into the root along ``came``, and into any
        other member a striker met within a frame, along that hit) that best give every
        member the velocity it is seen leaving with (from its rest position, over its
        first few sightings; none for one still at rest, and for one unseen, weighed
        ``_UNSEEN_WEIGHT``), and the striker its change of velocity. One member's
        velocity cannot tell which neighbour pushed it (a rack ball is pushed by one and
        pushes two on); all of them together mostly can, as each push moves both its
        objects; but a weak one that its pusher outran along their line, or one slight
        beside a fast object's speed, is faint (``_PUSH_DOUBT_MM_S``,
        ``_PUSH_FAST_SHARE``). Solved in the first frame that sees the pack start (its
        members all at rest or just started then), and kept for the later frames that ask."""
        from scipy.optimize import nnls  # type: ignore[import-untyped]

        for pack in self._packs:
            if abs(pack.t_s - t_on) < 1e-4 and int(rest[root]) in pack.members:
                return pack.pushes
        self._packs = [p for p in self._packs if p.t_s > t_a - 1.0]
        members = _component(touch, root)
        slots = frozenset(int(rest[m]) for m in members)
        idx = {m: k for k, m in enumerate(members)}
        mass = np.array([self.spec.object_for(self._labels[int(rest[m])]).mass_g
                         for m in members])
        xy = xy.copy()
        xy[members] = _snap_touching(xy[members], self._radius[rest[members]])
        dv = np.zeros((len(members), 2))
        weight = np.ones(len(members))
        a0 = a  # the first frame after the hit (every call for this hit fits the same)
        while a0 > max(0, self._n - self._hist + 1) and self._T(a0 - 1) > t_on + 1e-3:
            a0 -= 1
        for k, m in enumerate(members):
            tt, xa = self._samples(int(rest[m]), a0, a0 + _PACK_FIT_FRAMES + 1, t_a)
            dt = tt - (t_on - t_a)
            keep = dt > 1e-3
            dt, xa = dt[keep][:_PACK_FIT_FRAMES], xa[keep][:_PACK_FIT_FRAMES]
            if len(dt):
                dv[k] = ((xa - xy[m]) * dt[:, None]).sum(axis=0) / float(dt @ dt)
            else:
                weight[k] = _UNSEEN_WEIGHT
        cols: list[np.ndarray] = []
        pairs: list[tuple[int, int]] = []
        normals: list[np.ndarray] = []  # (unit, from the first of each pair)
        for k, m in enumerate(members):
            for j in touch[m].nonzero()[0].tolist():
                if j in idx and j > m:
                    n = (xy[j] - xy[m]) / max(float(np.linalg.norm(xy[j] - xy[m])), 1e-9)
                    c = np.zeros((len(members), 2))
                    c[idx[j]], c[k] = n / mass[idx[j]], -n / mass[k]
                    cols.append(c.ravel())
                    pairs.append((m, j))
                    normals.append(n)
        held = self._holding(rest[members])
        for k in range(len(members)):
            for n in self._cush_n[held[k]]:
                c = np.zeros((len(members), 2))
                c[k] = n / mass[k]
                cols.append(c.ravel())
        if not pairs:
            self._packs.append(_Pack(t_on, slots, {}, ()))
            return {}
        # the hit into the root; where its striker is known, its own change of velocity
        # says how hard (the two share that impulse)
        by = self._striker_dv(int(rest[root]), a0, t_a, t_on)
        hit = np.zeros((len(members) + (by is not None), 2))
        hit[idx[root]] = came / mass[idx[root]]
        a_mat = np.array(cols)
        rhs = dv.ravel()
        if by is not None:
            hit[-1] = -came / self.spec.object_for(self._labels[by[0]]).mass_g
            a_mat = np.hstack([a_mat, np.zeros((len(cols), 2))])
            rhs = np.concatenate([rhs, by[1]])
        # other members struck within a frame of it (a striker into two of a cluster)
        extra = []
        for k, m in enumerate(members):
            other = self._hit_dir.get(int(rest[m]))
            if m != root and other is not None and abs(other[0] - t_on) < self._dt:
                c = np.zeros_like(hit)
                c[k] = other[1] / mass[k]
                extra.append(c.ravel())
        w = np.repeat(weight, 2)
        if by is not None:
            w = np.concatenate([w, [1.0, 1.0]])
        impulse, _ = nnls(np.vstack([a_mat, hit.ravel(), *extra]).T * w[:, None], rhs * w)
        speed = np.linalg.norm(dv, axis=1)
        out: dict[tuple[int, int], float] = {}
        for p, (m, j) in enumerate(pairs):
            v = float(impulse[p]) / float(min(mass[idx[m]], mass[idx[j]]))
            outran = v < _PUSH_DOUBT_MM_S and max(
                float(dv[idx[m]] @ normals[p]), float(dv[idx[j]] @ -normals[p])) >= v
            if v >= _PUSH_MIN_MM_S and (
                    outran or v < _PUSH_FAST_SHARE * max(speed[idx[m]], speed[idx[j]])):
                v = _PUSH_FAINT_MM_S  # (faint: it still bent both paths)
            out[(min(int(rest[m]), int(rest[j])), max(int(rest[m]), int(rest[j])))] = v
        pushed = {x for pair, v in out.items() if v >= _PUSH_MIN_MM_S for x in pair}
        self._packs.append(_Pack(t_on, slots, out, tuple(
            int(rest[m]) for k, m in enumerate(members)
            if int(rest[m]) in pushed and speed[k] < _PACK_CREEP_MM_S and m != root)))
        return out

    def _striker_dv(self, r: int, a0: int, t_a: float, t_on: float
                    ) -> tuple[int, np.ndarray] | None:
        """(slot, change of velocity mm/s) of the mover that hit resting slot ``r`` at
        ``t_on`` (``a0``: the first frame after), from straight fits to its last
        ``_PACK_FIT_FRAMES`` sightings before and first after; None where it is not known
        or either side has fewer than two."""
        hit = next((i for i, (t_i, _, k) in self._struck_from.items()
                    if k == r and abs(t_i - t_on) < 0.5 * self._dt), None)
        if hit is None:
            return None
        n = _PACK_FIT_FRAMES
        tb, xb = self._samples(hit, a0 - n - 1, a0 - 1, t_a)
        ta, xa = self._samples(hit, a0, a0 + n + 1, t_a)
        tb, xb = tb[tb < t_on - t_a][-n:], xb[tb < t_on - t_a][-n:]
        ta, xa = ta[ta > t_on - t_a][:n], xa[ta > t_on - t_a][:n]
        if len(tb) < 2 or len(ta) < 2:
            return None
        return hit, fit_path(ta, xa, 1)[0][1] - fit_path(tb, xb, 1)[0][1]

    def _departure(self, s: int, a: int, t_a: float) -> np.ndarray | None:
        """Unit direction slot ``s`` left its rest position in: to its first observation
        clearly away from it. None when none is."""
        tt, xa = self._samples(s, a, a + self.settings.lag_frames, t_a)
        for p in xa:
            d = p - self._rest_xy[s]
            n = float(np.linalg.norm(d))
            if n > max(self.settings.onset_min_mm, 3.0 * self._sigma_of(s, a)):
                return d / n
        return None

    def _start_path(self, j: int, a0: int, t_a: float, p0: np.ndarray | None = None
                    ) -> np.ndarray | None:
        """Path of an object that left rest at ``_t_start[j]``, from its rest position
        (``p0``, default ``_start_xy[j]``) and its first observation after (frames from
        ``a0``): the motion before anything hit."""
        t0 = float(self._t_start[j])
        if not math.isfinite(t0):
            return None
        p0 = self._start_xy[j] if p0 is None else p0
        tt, xa = self._samples(j, a0, a0 + 2, t_a)
        tau0 = t0 - t_a
        # (one still within its noise of the rest gives no direction: an onset flagged on
        # noise just before the stroke)
        clear = np.linalg.norm(xa - p0, axis=1) > self._noise_mm(j, a0)
        ok = (tt > tau0 + 1e-3) & clear
        if not np.any(ok):
            return None
        k = int(ok.nonzero()[0][0])
        v = (xa[k] - p0) / float(tt[k] - tau0)
        return np.stack([p0 - v * tau0, v, np.zeros(2)])

    def _bounced_at_stroke(self, s: int, a: int, t_a: float, tt: np.ndarray,
                           xa: np.ndarray, soon: np.ndarray, starting: np.ndarray
                           ) -> tuple[int, float, np.ndarray, float] | None:
        """(object, time relative to frame ``a``, striker's centre, confidence) of a resting
        object a striker hit just after it was struck and came straight back from (a puck
        set just before a row held by the cushion), or grazed: its path after, run back in
        time, leaves that object's touching circle, and its rest lies behind that point
        (it was driven into the object, not past it) or off that line, the path bent away
        from the object (an object that does not move: one that does is found from its
        own start). The first observation may still be on the way in. ``starting``: the
        objects that leave rest with the striker."""
        tau0 = self._window(a, s)[0]  # back to when it was last seen at rest
        # objects at rest, and those that left rest since it was last seen at rest (the
        # striker, unseen at its stroke, hit them: a break's apex ball, which looked moved
        # by hand, or pushed by one that did)
        handled = (self._mode == _MOVING) & (
            np.nan_to_num(self._t_start, nan=-np.inf) > t_a + tau0 - self._dt)
        rest = ((self._mode == _REST) | handled).nonzero()[0]
        rest = rest[rest != s]
        if not len(rest):
            return None
        fit = self._line_after(s, a, t_a, tt, xa)
        if fit is None:
            return None
        (p0, v, _), k = fit
        qa = float(v @ v)
        if qa < self.settings.strike_min_speed_mm_s**2:
            return None
        big_r = self._radius[rest] + self._radius[s]
        # Unseen on its way in, it came straight from its rest, closing on what it hit
        # where it touched it (or came nearest): the line after a graze along a row, run
        # back, cuts the circles of pawns it passed over, where it was leaving them. (A
        # touch after its first sighting was made from that sighting's way in, which the
        # turn below judges.)
        at = self._leaves(p0, v, self._rest_xy[rest], big_r)
        at = np.where(np.isfinite(at), at, (self._rest_xy[rest] - p0) @ v / qa)
        receding = (k == 0) & (at < 0.0) & self._receding(s, rest, p0 + v * at[:, None])
        # (first seen on its way in, it touched after that sighting)
        after = tau0 - self._dt if k == 0 else float(tt[0]) - 0.1 * self._dt
        # (seen once on its way in: where that way and the line after cross, between
        # those sightings, it turned, touching what it hit; the line after, run back
        # past the turn, is no guide: a few ms of a curve off the hit bend it)
        turn = None
        if k == 1 and len(tt) >= 5 and self._further_along(s, xa[0], xa[1], a):
            # (its second sighting on that way in too, within its noise: it turned after
            # that one, where the way in through it meets the line through the next three)
            coef, _ = fit_path(tt[2:5], xa[2:5], 1)
            turn = self._turn_touch(s, a, xa[1], coef[0], coef[1], rest, big_r,
                                    float(tt[1]), float(tt[2]))
            if turn is not None:
                p0, v, k = coef[0], coef[1], 2
        elif k == 1:
            turn = self._turn_touch(s, a, xa[0], p0, v, rest, big_r, after,
                                    float(tt[1]) + 0.5 * self._dt)
        if turn is not None:
            m, tc = turn
        else:
            # (a graze leaves along the touching circle: a line fitted to the noisy path
            # after may pass as far as its noise outside it)
            picked: tuple[float, np.ndarray, int] | None = None
            for widen in (0.0, 3.0 * self._sigma_of(s, a)):
                tau = self._leaves(p0, v, self._rest_xy[rest], big_r + widen)
                if widen > 0.0:
                    # (a line passing within its noise outside a circle leaves the widened
                    # one long after it came nearest, where the touch was)
                    near_t = (self._rest_xy[rest] - p0) @ v / qa
                    clear = np.linalg.norm(p0 + v * near_t[:, None] - self._rest_xy[rest],
                                           axis=1) > big_r
                    tau = np.where(np.isfinite(tau) & clear, near_t, tau)
                ok = (tau > after) & (tau < float(tt[k]) + 0.5 * self._dt) & ~receding
                if not np.any(ok):
                    continue
                m = int(np.argmax(np.where(ok, tau, -np.inf)))
                if k == 1:
                    # (the line, run back, may cut the circle of the next one along a row
                    # by its noise)
                    m = self._touched_at_turn(s, a, xa[0], p0, v, rest, big_r, ok, m)
                # (a line cutting two circles, a junction's: the one it left last may be
                # one no way in from its rest bounces off onto that line; one it only
                # passes within its noise may be)
                bounces = [x for x in ok.nonzero()[0].tolist()
                           if self._reflects(s, int(rest[x]), p0 + v * float(tau[x]), v)]
                if bounces and m not in bounces:
                    m = max(bounces, key=lambda x: float(tau[x]))
                if picked is None or m in bounces:
                    picked = (widen, tau, m)
                if m in bounces:
                    break
            if picked is None:
                return None
            widen, tau, m = picked
            tc = float(tau[m])
            if widen > 0.0:  # (the touch: where it came nearest)
                tc = float((self._rest_xy[rest[m]] - p0) @ v) / qa
                if tc < after:
                    return None
        j = int(rest[m])
        touch = p0 + v * tc
        came = touch - self._rest_xy[s]
        into = self._rest_xy[j] - touch
        dist = float(np.linalg.norm(came))
        if dist < 1.0 or dist / max(tc - (tau0 - self._dt), 1e-3) > _STROKE_REACH_MM / self._dt:
            return None
        # a plain stroke's path, run back, passes its rest before it meets anything (its
        # rest lies on the path after the touch), unless it was first seen nearer the
        # object than it rested (on its way in: a straight bounce comes back over its rest)
        t_rest = float((self._rest_xy[s] - p0) @ v) / qa
        miss = float(np.linalg.norm(p0 + v * t_rest - self._rest_xy[s]))
        if _off_line(came, into):
            # its path only passes by: a contact if it grazed an object, bent away from it
            # (a puck along a row the cushion holds: the pawn never moves)
            slack = self._noise_mm(s, a)
            if not (miss > slack + self._sigma_of(s, a) and t_rest < tc) or handled[j]:
                return None
            d_after = v / math.sqrt(qa)
            if not self._grazed(s, np.array([j]), touch[None], d_after)[0]:
                return None
            # the path after the touch runs clear of every object, so the one it left last
            # is the one it touched; but along a row, or past an object it only missed by
            # its noise, another could have been. One of those that moves off is found
            # from its own start.
            wide = self._leaves(p0, v, self._rest_xy[rest], big_r + slack)
            # (that path, run back further than a touch's width before this one, is not
            # where the striker came from: it came off that line from its rest)
            width_s = float(np.max(big_r) + slack) / math.sqrt(qa)
            near = (wide > max(tau0 - self._dt, tc - width_s)) & (wide < float(tt[k]) + self._dt)
            # One it could not have reached is no other candidate: the straight way from
            # its rest to that touch runs through another resting object, deeper than its
            # noise (a puck that grazed a pawn the cushion holds, whose push sent the
            # next one off). This one moving off is reported now, where its touch came
            # before the sighting the line starts at: the neighbour, off faster, would
            # be credited to the striker from its own start.
            moves_off = (near & soon[rest]).nonzero()[0].tolist()
            reached = [m_off for m_off in moves_off if not self._touches_resting(
                s, self._rest_xy[s], -slack, p0 + v * float(wide[m_off]))]
            if any(m_off != m for m_off in reached) or (m in reached and tc > float(tt[k])):
                return None
            near &= rest != j
            if np.any(near) and np.any(self._grazed(s, rest[near],
                                                    p0 + v * wide[near, None], d_after)):
                return j, tc, touch, 0.4
            return j, tc, touch, self._stroke_conf(s, a, k, xa, rest[rest != j])
        went_in = (float(np.linalg.norm(xa[0] - self._rest_xy[j]))
                   < float(np.linalg.norm(self._rest_xy[s] - self._rest_xy[j]))
                   - self.settings.hand_min_mm)
        # (but a row it lay by that starts with it took the hit: a puck set a few mm off a
        # pawn the cushion holds, driven into it at once; after it was last seen at rest)
        if t_rest > tc and miss < self._radius[s] and not went_in and not (
                (starting[j] or self._passes_on(j, starting, touch, deep=True))
                and tc > self._T(self._last_seen_frame(s, a, max(0, self._n - self._hist)))
                - t_a):
            return None
        return j, tc, touch, self._stroke_conf(s, a, k, xa, rest[rest != j])

    def _reflects(self, s: int, j: int, touch: np.ndarray, v: np.ndarray) -> bool:
        """Whether slot ``s``, come straight from its rest to ``touch`` on resting ``j``'s
        touching circle, can leave at ``v``: a contact changes its velocity along their
        line of centres only, so some speed in along its way in (forward) gives ``v``.
        True where that way runs along the line of centres (no telling)."""
        n = touch - self._rest_xy[j]
        d_in = touch - self._rest_xy[s]
        n = n / max(float(np.linalg.norm(n)), 1e-9)
        d_in = d_in / max(float(np.linalg.norm(d_in)), 1e-9)
        cross = float(d_in[0] * n[1] - d_in[1] * n[0])
        if abs(cross) < 0.1:
            return True
        return float(v[0] * n[1] - v[1] * n[0]) / cross > 0.0

    def _stroke_conf(self, s: int, a: int, k: int, xa: np.ndarray, objs: np.ndarray
                     ) -> float:
        """Confidence of a striker's first contact just after its stroke: 0.7, or 0.4
        where its first sighting, on its way in (``k`` > 0: the line out starts later),
        lay within 2 sigma of touching another of the resting ``objs`` it lay clear of at
        rest: that one may have been met first, a split hit whose order the frames
        cannot tell (a puck along a row the cushion holds, into its junction)."""
        if k == 0 or not len(objs):
            return 0.7
        reach = self._radius[objs] + self._radius[s]
        there = np.linalg.norm(self._rest_xy[objs] - xa[0], axis=1) - reach
        at_rest = np.linalg.norm(self._rest_xy[objs] - self._rest_xy[s], axis=1) - reach
        sig = self._sigma_of(s, a)
        return 0.4 if np.any((np.abs(there) < 2.0 * sig) & (at_rest > 2.0 * sig)) else 0.7

    def _receding(self, s: int, objs: np.ndarray, touch: np.ndarray) -> np.ndarray:
        """Whether striker ``s``, come straight from its rest to ``touch`` (its centre
        touching each resting object ``objs``, one row each), was moving away from that
        object there (beyond ``_RECEDE_COS``): it passed through it on the way, so it
        never touched it there."""
        came = touch - self._rest_xy[s]
        away = touch - self._rest_xy[objs]
        cos = np.einsum("ok,ok->o", came, away) / np.maximum(
            np.linalg.norm(came, axis=1) * np.linalg.norm(away, axis=1), 1e-9)
        out: np.ndarray = cos > _RECEDE_COS
        return out

    def _further_along(self, s: int, first: np.ndarray, second: np.ndarray, a: int) -> bool:
        """Whether sighting ``second`` of slot ``s`` lies on its straight way from its rest
        through sighting ``first`` (within 3 sigma of that line), beyond it."""
        u = first - self._rest_xy[s]
        rel = second - self._rest_xy[s]
        norm = max(float(np.linalg.norm(u)), 1e-9)
        off = abs(float(u[0] * rel[1] - u[1] * rel[0])) / norm
        return float(rel @ u) / norm > norm and off < 3.0 * self._sigma_of(s, a)

    def _turn_touch(self, s: int, a: int, seen_in: np.ndarray, p0: np.ndarray, v: np.ndarray,
                    rest: np.ndarray, big_r: np.ndarray, lo: float, hi: float
                    ) -> tuple[int, float] | None:
        """(row of ``rest``, time) of the resting object striker ``s`` touched where it
        turned: where its way in, from its rest through its sighting ``seen_in``, meets its
        line after (``p0 + v tau``), within ``(lo, hi)``, beyond that sighting; the
        object whose touching circle (radii ``big_r``) passes that point within
        ``_TURN_GAP_MM``, clearer of any other than the turn's doubt (``_TURN_CLEAR``),
        and held by a cushion (a pawn of a row, which shows nothing of the hit itself).
        None: no such."""
        cross = _way_meets_line(self._rest_xy[s], seen_in, p0, v)
        if cross is None:
            return None  # (parallel: no turn)
        lam, t_b, sine = cross
        if lam <= 1.0 or not lo < t_b < hi:
            return None
        gaps = np.abs(np.linalg.norm(self._rest_xy[rest] - (p0 + v * t_b), axis=1) - big_r)
        order = np.argsort(gaps)
        sigma = self._sigma_of(s, a)
        # (the sighting's noise turns the way in, which moves the turn along the line
        # after: by its sigma times how far past the sighting the turn lies, over the
        # sine of the angle the two lines cross at)
        doubt = lam * sigma / max(sine, 1e-3)
        if gaps[order[0]] > _TURN_GAP_MM + sigma or (
                len(order) > 1 and gaps[order[1]] - gaps[order[0]] < _TURN_CLEAR * doubt):
            return None
        if not self._held(int(rest[order[0]])):
            return None  # (one free to move shows the hit by its own start)
        return int(order[0]), t_b

    def _touched_at_turn(self, s: int, a: int, seen_in: np.ndarray, p0: np.ndarray, v: np.ndarray,
                         rest: np.ndarray, big_r: np.ndarray, ok: np.ndarray, m: int) -> int:
        """Of resting objects ``rest`` (touching distances ``big_r``) whose circles the
        striker's line after (``p0 + v tau``) leaves (``ok``), the one it touched where
        it turned: where its way in, from its rest through its sighting ``seen_in``, meets
        that line. ``m`` when the two do not cross, or that one is no clearer."""
        cross = _way_meets_line(self._rest_xy[s], seen_in, p0, v)
        if cross is None:
            return m  # (parallel: no turn)
        lam = cross[0]
        b = self._rest_xy[s] + lam * (seen_in - self._rest_xy[s])
        gaps = np.abs(np.linalg.norm(self._rest_xy[rest] - b, axis=1) - big_r)
        best = int(np.argmin(np.where(ok, gaps, np.inf)))
        clear = float(gaps[m] - gaps[best]) > self._noise_mm(s, a)
        return best if lam > 0.0 and clear else m

    def _hit_before_seen(self, s: int, t_on: float, a: int, t_a: float, tt: np.ndarray,
                         xa: np.ndarray) -> tuple[int, float, np.ndarray, float] | None:
        """(object, time relative to frame ``a``, striker's centre, confidence) of the
        object a striker unseen at its stroke (under the cue, the hand) hit first: one that
        left rest after the stroke with no cause found, so it was taken for a hand. The
        striker went straight from its rest to the touch behind that object's start, along
        the line of centres it left on, within a stroke's reach. When several started
        within a frame of the first (a rack), the striker's own path tells: its first
        positions (``tt``, ``xa``), run back to each one's start, touch that one only."""
        t_start = np.nan_to_num(self._t_start, nan=-np.inf)
        objs = ((self._mode == _MOVING) & self._carry
                & (t_start > t_on - 0.5 * self._dt)).nonzero()[0]
        objs = objs[objs != s]
        found: list[tuple[float, int, np.ndarray, bool]] = []
        for j in objs.tolist():
            tt_j, xa_j = self._samples(j, a - self._hist + 1, a, t_a)
            if not len(tt_j):
                continue
            away = xa_j[-1] - self._start_xy[j]
            norm = float(np.linalg.norm(away))
            if norm < self.settings.onset_min_mm:
                continue
            touch = self._start_xy[j] - away / norm * float(self._radius[j] + self._radius[s])
            came = touch - self._rest_xy[s]
            dist = float(np.linalg.norm(came))
            t_hit = float(t_start[j]) - t_a
            if dist <= _STROKE_REACH_MM / self._dt * (t_a + t_hit - t_on + self._dt):
                found.append((t_hit, j, touch, float(came @ away) >= _CUT_COS * dist * norm))
        if not found:
            return None
        first = min(found, key=lambda f: f[0])
        rack = [f for f in found if f[0] < first[0] + self._dt]
        if len(rack) == 1:
            t_hit, j, touch, cut = first
            return (j, t_hit, touch, 0.6) if cut else None
        # (a rack ball may bounce back within the frame: where it went does not tell)
        fit = self._line_after(s, a, t_a, tt, xa)
        if fit is None:
            return None
        (p0, v, _), _k = fit
        ids = [f[1] for f in rack]
        back = p0[None] + v[None] * np.array([f[0] for f in rack])[:, None]
        err = np.abs(np.linalg.norm(back - self._start_xy[ids], axis=1)
                     - self._radius[ids] - self._radius[s])
        order = np.argsort(err)
        tol = 3.0 * self._sigma_of(s, a) + _RACK_BACK_MM
        if err[order[0]] > tol or (len(order) > 1 and err[order[1]] <= tol):
            return None
        m = int(order[0])
        return ids[m], rack[m][0], back[m], 0.6

    @staticmethod
    def _leaves(p0: np.ndarray, v: np.ndarray, centres: np.ndarray, reach: np.ndarray
                ) -> np.ndarray:
        """When the line ``p0 + v tau`` leaves each circle (``centres``, radii ``reach``):
        the later root, -inf where it never enters. ``p0`` and ``v`` may be one line's, or
        one line per circle (``(R, 2)``)."""
        rel = p0 - centres
        if v.ndim == 1:
            qa: np.ndarray | float = float(v @ v)
            qb = 2.0 * rel @ v
        else:
            qa = np.einsum("rk,rk->r", v, v)
            qb = 2.0 * np.einsum("rk,rk->r", rel, v)
        disc = qb * qb - 4.0 * qa * (np.einsum("rk,rk->r", rel, rel) - reach**2)
        out: np.ndarray = np.where(
            disc >= 0, (-qb + np.sqrt(np.maximum(disc, 0.0))) / (2.0 * qa), -np.inf)
        return out

    def _grazed(self, s: int, objs: np.ndarray, touch: np.ndarray, d_after: np.ndarray
                ) -> np.ndarray:
        """Whether the striker ``s``, leaving its rest and then moving along ``d_after``
        (unit), may have grazed each resting object ``objs`` at ``touch`` (its centre then,
        one per object): its change of direction lies along their line of centres
        (``_GRAZE_COS``), away from the object."""
        came = touch - self._rest_xy[s]
        d_before = came / np.maximum(np.linalg.norm(came, axis=1), 1e-9)[:, None]
        bend = d_after[None] - d_before
        away = touch - self._rest_xy[objs]
        cos = np.einsum("ok,ok->o", bend, away) / np.maximum(
            np.linalg.norm(bend, axis=1) * np.linalg.norm(away, axis=1), 1e-9)
        out: np.ndarray = cos > _GRAZE_COS
        return out

    def _line_after(self, s: int, a: int, t_a: float, tt: np.ndarray, xa: np.ndarray
                    ) -> tuple[np.ndarray, int] | None:
        """A line fitted to slot ``s``'s first three positions after frame ``a`` (from the
        first or, when the first is still on the way in to a bounce, the second; a line,
        since over three frames friction bends no path by a mm), and the index of the first
        position it fits."""
        for k in (0, 1):
            if len(tt) - k < 3:
                return None
            coef, rms = fit_path(tt[k:k + 3], xa[k:k + 3], 1)
            if rms <= 3.0 * max(self._sigma_of(s, a), self.settings.noise_floor_mm):
                return coef, k
        return None

    def _cushion_on_way(self, s: int, a: int, t_a: float, left_s: float, tc: float,
                        touch: np.ndarray) -> tuple[int, float, np.ndarray] | None:
        """(cushion, time relative to frame ``a``, centre there) of a cushion a striker met
        between leaving its rest (after ``left_s``) and its first contact at ``tc``, centred
        at ``touch`` then: a sighting between lies off the straight way from its rest to
        ``touch`` beyond the noise, and every one lies on the way bent at that cushion (the
        mirror of ``touch`` in its touching line, seen from the rest, gives where), at one
        speed from the last of them to the contact."""
        tt, xa = self._samples(s, a - self.settings.lag_frames, a + self.settings.lag_frames,
                               t_a)
        on = (tt > left_s) & (tt < tc)
        if not np.any(on):
            return None
        rest, r = self._rest_xy[s], float(self._radius[s])
        tol = self._noise_mm(s, a)
        if float(np.max(_off_segment(xa[on], rest, touch))) <= tol:
            return None  # (straight there: no bounce)
        for k in range(len(self._cush_a)):
            n = self._cush_n[k]
            d_rest = float((rest - self._cush_a[k]) @ n) - r
            d_touch = float((touch - self._cush_a[k]) @ n) - r
            if d_rest <= self.settings.onset_min_mm or d_touch < -tol:
                continue
            bend = rest + (touch - 2.0 * max(d_touch, 0.0) * n - rest) * (
                d_rest / (d_rest + max(d_touch, 0.0)))
            if not self._beside_cushion(k, bend, r):
                continue
            off = np.minimum(_off_segment(xa[on], rest, bend), _off_segment(xa[on], bend, touch))
            if float(np.max(off)) > tol:
                continue
            # (from the last sighting before the contact, at one speed along the way, no
            # faster than a stroke sends it)
            p, t_p = xa[on][-1], float(tt[on][-1])
            leg_in, leg_out = (float(np.linalg.norm(bend - rest)),
                               float(np.linalg.norm(touch - bend)))
            if leg_in + leg_out > _STROKE_REACH_MM / self._dt * (tc - left_s):
                continue
            from_rest = float(np.linalg.norm(p - rest))
            along = from_rest if from_rest < leg_in else leg_in + float(np.linalg.norm(p - bend))
            speed = (leg_in + leg_out - along) / max(tc - t_p, 1e-6)
            t_k = tc - leg_out / max(speed, 1e-6)
            if not left_s < t_k < tc:
                continue
            return k, t_k, bend
        return None

    def _pair_line(self, tt: np.ndarray, xa: np.ndarray) -> tuple[np.ndarray, int] | None:
        """The line through the first two sightings, a frame apart (and the index of the
        first, 0): where no three lie on a line, a hit just after bending the third away.
        (Not the second and third where the first is still on the way in: a line through
        two of them may pass for either way, and taken so it found one cushion, missed
        one and made one up on the development seeds.)"""
        if len(tt) < 2 or float(tt[1] - tt[0]) >= 1.5 * self._dt:
            return None
        return fit_path(tt[:2], xa[:2], 1)[0], 0

    def _late_roots(self, found: set[int]) -> None:
        """Objects seen leaving rest in an earlier frame with no cause then, whose hit
        ``_causes`` found now, from the striker's bend: tested for a cushion met before
        they were first seen moving, from their start or that hit, whichever is earlier
        (a pawn struck by the puck into the cushion beside it, seen once on its way in)."""
        for s in sorted(found):
            if not (self._orphan[s] and self._mode[s] == _MOVING):
                continue
            a_on = int(self._seg0[s])
            # (a hit timed past the sighting off rest is late: that sighting bounds it)
            t_hit = min(self._contact_t.get(s, math.inf), self._T(a_on))
            self._cushion_before_seen(s, a_on, self._T(a_on),
                                      min(float(self._t_start[s]), t_hit))

    def _cushion_before_seen(self, s: int, a: int, t_a: float, t0: float | None = None
                             ) -> None:
        """A cushion an object hit between leaving rest (at ``t0``, default its start)
        and being first seen moving (a pawn or ball struck next to a cushion): report it
        (see ``_bounce_before_seen``)."""
        t0 = float(self._t_start[s]) if t0 is None else t0
        if not math.isfinite(t0):
            return
        found = self._bounce_before_seen(s, a, t_a, t0 - t_a)
        if found is not None:
            c, tc, touch, _ = found
            self._cushion_event(s, c, t_a + tc, a, touch, 0.8 * self._quality([s], a))

    def _bounce_before_seen(self, s: int, a: int, t_a: float, left_s: float,
                            min_speed_mm_s: float = 0.0, unsure_start: bool = False
                            ) -> tuple[int, float, np.ndarray, float] | None:
        """(cushion, time relative to frame ``a``, centre at the touch, when it left rest)
        of a cushion slot ``s`` hit after it left rest (at ``left_s`` relative to frame
        ``a``; with ``unsure_start``, no earlier than that) and before it was first seen
        moving: its path after (at ``min_speed_mm_s`` or more), run back in time, crosses
        that cushion's touching line, coming from its rest position or, failing that, from
        a contact it made since (a puck off a row's pawn into the cushion holding it)."""
        tt, xa = self._samples(s, a, a + self.settings.lag_frames, t_a)
        fit = self._line_after(s, a, t_a, tt, xa)
        if fit is None and unsure_start and len(tt) and float(tt[0]) - left_s < 1.5 * self._dt:
            # (a stroke seen at rest a frame before it was seen moving: the line through
            # its first two sightings, where a hit just after bends the third away)
            fit = self._pair_line(tt, xa)
        if fit is None:
            return None
        (p0, v, _), k = fit
        return self._bounce_from(s, a, t_a, left_s, p0, v, k, tt, xa, min_speed_mm_s,
                                 unsure_start)

    def _bounce_from(self, s: int, a: int, t_a: float, left_s: float, p0: np.ndarray,
                     v: np.ndarray, k: int, tt: np.ndarray, xa: np.ndarray,
                     min_speed_mm_s: float, unsure_start: bool
                     ) -> tuple[int, float, np.ndarray, float] | None:
        """``_bounce_before_seen`` for a way out ``p0 + v tau`` fitted from sighting
        ``k``: in from its rest, or from a contact it made since."""
        speed = math.sqrt(float(v @ v))
        if speed < max(min_speed_mm_s, 1e-6):
            return None
        start = self._start_xy[s]
        if unsure_start:
            # a plain stroke's path, run back, passes over its rest (after it was last
            # seen there) before it reaches the cushion behind: no bounce needed
            t_rest = float((start - p0) @ v) / speed**2
            miss = float(np.linalg.norm(p0 + v * t_rest - start))
            if t_rest > left_s and miss <= 3.0 * self._sigma_of(s, a) + (
                    self.settings.onset_min_mm):
                return None
        found = self._bounce_off(s, a, t_a, left_s, start, left_s, p0, v, k, tt, xa,
                                 unsure_start)
        made = self._struck_from.get(s)
        if found is None and made is not None and left_s < made[0] - t_a:
            # (it met an object after it left rest, on its way to the cushion: a puck off
            # a row's pawn into the cushion that holds the row; its way in runs from there)
            found = self._bounce_off(s, a, t_a, left_s, made[1], made[0] - t_a, p0, v, k,
                                     tt, xa, unsure_start)
        return found

    def _bounce_off(self, s: int, a: int, t_a: float, left_s: float, start: np.ndarray,
                    from_s: float, p0: np.ndarray, v: np.ndarray, k: int, tt: np.ndarray,
                    xa: np.ndarray, unsure_start: bool
                    ) -> tuple[int, float, np.ndarray, float] | None:
        """``_bounce_before_seen`` for a way in from ``start`` (its rest, or a contact it
        made after it left), left at ``from_s``, and a way out ``p0 + v tau`` fitted from
        sighting ``k`` of ``tt``, ``xa``."""
        r = float(self._radius[s])
        speed = math.sqrt(float(v @ v))
        # (a first sighting the line left out only for its noise is on the way out too)
        first_in = k > 0 and float(np.linalg.norm(xa[0] - p0 - v * tt[0])) > (
            5.0 * self._sigma_of(s, a) + self.settings.onset_min_mm)
        # (struck by an object: its line out, run back, meets the cushion as the hit
        # started it, to within the few ms either is timed to: it bounced just after)
        hit = self._hit_times().get(s, -math.inf) - t_a
        early_s = _START_SLACK_S if abs(hit - left_s) < 1e-3 and from_s == left_s else 0.0
        for c in range(len(self._cush_a)):
            n = self._cush_n[c]
            vn = float(v @ n)
            if vn < _SCAN_IN_MM_S:
                continue  # not moving away from this cushion
            tc = -(float((p0 - self._cush_a[c]) @ n) - r) / vn
            if not from_s + 1e-3 - early_s < tc < float(tt[k]) + 0.5 * self._dt:
                continue  # (seen at the cushion: it may bounce just after)
            tc = max(tc, from_s + 1e-3)
            if first_in and tc <= float(tt[0]):
                continue  # (its first sighting, still on the way in, comes before)
            touch = p0 + v * tc
            came = touch - start
            # (struck clear of the cushion, beyond its noise, when its leaving is unsure:
            # a puck set against its rail, struck off it, runs back into it by noise)
            depth = self.settings.onset_min_mm + (
                3.0 * self._sigma_of(s, a) if unsure_start else 0.0)
            if float(came @ n) > -depth:
                continue  # it did not come into the cushion from where it rested
            if not self._beside_cushion(c, touch, r + 25.0):
                continue
            if self._cushion_recent(s, c, t_a + tc):
                continue
            slack = self._noise_mm(s, a)
            if unsure_start and self._touches_resting(s, touch, slack):
                continue  # (it may have come off that object: a row the cushion holds)
            if self._touches_resting(s, touch, slack, p0 + v * float(tt[k]),
                                     ahead_clear_mm=self._sigma_of(s, a)):
                continue  # (its way out passes an object it may have come off instead)
            if unsure_start and tc > from_s:
                # (a cushion keeps most of the speed along it: a way in from rest, in the
                # time it had, much faster along the cushion than the way out came off
                # something else)
                v_in = came / (tc - from_s)
                along_in = float(np.linalg.norm(v_in - float(v_in @ n) * n))
                if float(np.linalg.norm(v - vn * n)) < 0.5 * along_in:
                    continue
            # (left at its speed off the cushion at the earliest: it came in faster)
            tau0 = max(from_s, tc - float(np.linalg.norm(came)) / speed) if (
                unsure_start) else from_s
            if not self._on_way_in(s, a, t_a, tau0, tc, touch, start):
                continue  # (seen elsewhere on its way: it bounced off something else)
            return c, tc, touch, tau0
        return None

    def _touches_resting(self, s: int, xy: np.ndarray, slack_mm: float,
                         to_xy: np.ndarray | None = None, ahead_clear_mm: float = math.inf
                         ) -> bool:
        """Whether slot ``s`` centred at ``xy`` (or anywhere on the straight way from there
        to ``to_xy``) would touch (within ``slack_mm``) another object at rest; not one
        it still closed on at ``to_xy``, clear of it there by more than
        ``ahead_clear_mm`` (it had not reached that one yet)."""
        rest = (self._mode == _REST).nonzero()[0]
        rest = rest[rest != s]
        q = self._rest_xy[rest]
        big_r = self._radius[rest] + self._radius[s]
        if to_xy is not None:  # (the nearest point of the way to each)
            d = to_xy - xy
            w = ((q - xy) @ d) / max(float(d @ d), 1e-9)
            ahead = (w > 1.0) & (np.linalg.norm(q - to_xy, axis=-1) - big_r > ahead_clear_mm)
            xy = xy + np.clip(w, 0.0, 1.0)[:, None] * d
            q, big_r = q[~ahead], big_r[~ahead]
            xy = xy[~ahead]
        gap = np.linalg.norm(q - xy, axis=-1) - big_r
        return bool(np.any(gap <= slack_mm))

    def _on_way_in(self, s: int, a: int, t_a: float, tau0: float, tau1: float,
                   touch: np.ndarray, start: np.ndarray) -> bool:
        """Whether slot ``s``'s sightings between leaving ``start`` (its rest, or a contact
        after it, at ``tau0``) and a cushion touch at ``tau1`` lie on the straight way from
        there to that ``touch``: off it by no more than the noise, and along it within a
        factor of 1.5 of where going there at one speed puts them (the start's timing is
        less sure than a position)."""
        tt, xa = self._samples(s, a - 2 * self.settings.fit_frames, a, t_a)
        on = (tt > tau0) & (tt < tau1)
        way = touch - start
        length = float(np.linalg.norm(way))
        if not np.any(on) or length < 1e-6 or tau1 - tau0 <= 1e-4:
            return True
        rel = xa[on] - start
        along = rel @ way / length
        off = np.linalg.norm(rel - along[:, None] * way / length, axis=1)
        timed = length * (tt[on] - tau0) / (tau1 - tau0)
        tol = self._noise_mm(s, a)
        if not np.all(off <= tol):
            return False
        if np.all((along >= timed / 1.5 - tol) & (along <= 1.5 * timed + tol)):
            return True
        # (or at one speed from a start its sightings off rest time, after it was last
        # seen at rest: a start run back from a bounce it hid may be frames early)
        still = np.linalg.norm(xa - start, axis=1) <= tol
        t_rest = float(tt[still].max()) if still.any() else -math.inf
        away = ~still[on] & (tt[on] > t_rest)
        if not np.all(away | still[on]) or not away.any():
            return False
        speed = (length - along[away]) / np.maximum(tau1 - tt[on][away], 1e-6)
        t0 = tt[on][away] - along[away] / np.maximum(speed, 1e-6)
        return bool(np.all((along[away] > 0.0) & (along[away] < length))
                    and float(t0.min()) >= max(tau0, t_rest)
                    and float(speed.max()) <= 1.5 * float(speed.min()))

    def _since_start(self, j: int, lo: float, t_a: float) -> float:
        """``lo`` (relative to ``t_a``), or when slot ``j`` left rest if later: it was at
        rest until then, and its path fitted after does not run on backwards; nor back
        past a contact or cushion it met before the second frame that path is fitted to
        (its first may still be on the way in: a cue ball coming back off the rack does not
        run back into the rack's side, nor a puck off a row into the row)."""
        t0 = float(self._t_start[j])
        if math.isfinite(t0):
            lo = max(lo, t0 - t_a)
        seg1 = int(self._seg0[j]) + 1
        began = self._run_began(j)
        if max(0, self._n - self._hist) <= seg1 < self._n and began < self._T(seg1):
            lo = max(lo, began - t_a)
        return lo

    def _struck_through_row(self, waiting: list[int], a: int, t_a: float,
                            paths: dict[int, np.ndarray]) -> bool:
        """An object starting with no mover near it, at the end of a row of touching
        resting ones, was pushed through the row: the mover whose path touched a member of
        the row in the last frames (a puck grazing a row's end pawn, which the cushion
        holds, sends the far pawn off) hit that member. Emits that contact and marks the
        member struck, for the push to be passed on down the row."""
        rest = (self._mode == _REST).nonzero()[0]
        movers = [j for j in paths if self._mode[j] == _MOVING]
        if len(rest) < 2 or not movers:
            return False
        touch = self._touching(rest, self._rest_xy[rest])
        pos = {int(k): m for m, k in enumerate(rest.tolist())}
        lo = self._window(a)[0] - 2.0 * self._dt
        found: list[tuple[float, float, int, int, int, np.ndarray]] = []
        for s in waiting:
            if s not in pos:
                continue
            for m in _component(touch, pos[s])[1:]:
                k = int(rest[m])
                still = still_path(self._rest_xy[k])
                for j in movers:
                    # (its path no further back than it goes, its start or the bend
                    # before; before a bend left unexplained, its path into that bend)
                    since = self._since_start(j, lo, t_a)
                    ways = [(paths[j], max(since, self._T(int(self._seg0[j])) - t_a), 0.0)]
                    ways += [(shift_path(c_b, t_a - self._T(a_b)), since,
                              min(self._T(a_b) + self._dt - t_a, 0.0))
                             for i_b, a_b, c_b in self._loose_bends if i_b == j]
                    r = float(self._radius[j] + self._radius[k])
                    for cj, lo_j, hi_j in ways:
                        if lo_j >= hi_j:
                            continue
                        tc = first_touch(cj, still, r, lo_j, hi_j)
                        score = 0.0
                        if tc is None:
                            tc, dmin = closest_approach(cj, still, lo_j, hi_j)
                            score = dmin - r
                            if score > self.settings.contact_gate_mm:
                                continue
                        found.append((score, tc, j, k, s, cj))
        if not found:
            return False
        # the nearest, then, of those the path touched, the first reached whose push,
        # along the line from the mover, goes on to the start (a puck into the junction
        # of two pawns touches both within the noise: the side that flew off tells)
        found.sort(key=lambda f: f[:2])
        ties = [f for f in found if f[0] <= found[0][0]]
        best = ties[0]
        for f in ties:
            line = self._rest_xy[f[3]] - eval_path(f[5], f[1])
            parents, _ = self._impulse_spread(
                pos[f[3]], line / max(float(np.linalg.norm(line)), 1e-9),
                self._rest_xy[rest], touch)
            if pos[f[4]] in parents:
                best = f
                break
        _, tc, j, k, _, cj = best
        if not self._claim_pair(j, k, t_a):
            return False
        self._struck_t[k] = t_a + tc
        p = eval_path(cj, tc)
        self._note_hit(k, t_a + tc, p)
        self._event(EventKind.CONTACT, t_a + tc, a, (self._ref(j), self._ref(k)), p,
                    0.5 * self._quality([j, k], a), 0.01)
        self._pressed_cushion(k, self._rest_xy[k] - p, t_a + tc, a)
        # (a cushion read off the mover's path into its bend, reached within a frame after
        # this contact and clear of the mover where it met the row, was this bend: the
        # mover came back off the row a cushion holds, short of that cushion)
        gaps = self._nose_gaps(np.array([j]), p[None])[0]
        clear = {cu.name for cu, gap in zip(self.spec.cushions, gaps.tolist(), strict=True)
                 if gap > self._noise_mm(j, a)}
        sid = int(self._ids[j])
        for ev, _ in list(self._pending):
            if (ev.kind is EventKind.CUSHION and ev.objects[0].id == sid
                    and ev.cushion in clear and t_a + tc <= ev.t_s < t_a + tc + self._dt):
                self._retract_cushion(j, ev.t_s)
        return True

    def _hinged_touch(self, j: int, s: int, tau: float, a: int, t_a: float, r_sum: float
                      ) -> float:
        """When mover ``j``, its path fitted across the hit (``tau``: where that path
        touches resting ``s``), met ``s``: a slow ball into a resting one bends too gently
        to split its path, and the quadratic fitted across the hit, run back, reaches ``s``
        frames late (at the bend of a slowing mover the quadratic lags it). Its sightings
        within ``_HINGE_FRAMES`` of the touch, fitted by two lines joined at the hit
        (``hinge_fits``) one sum of radii from ``s``, time it: up to ``_HINGE_REACH``
        frames before ``tau``, only where that fits clearly better (``_HINGE_GAIN``) than
        the hinge at ``tau``. Lines fit a rolling ball, not a Novuss disc, which friction
        slows hard all the way."""
        dt = self._dt
        tt, xa = self._samples(j, max(int(self._seg0[j]), a - 2 * self.settings.fit_frames),
                               a + self.settings.lag_frames, t_a)
        keep = np.abs(tt - tau) <= _HINGE_FRAMES * dt + 1e-6
        tt, xa = tt[keep], xa[keep]
        hinges = tau - np.arange(0.0, _HINGE_REACH * dt + 1e-4, 1e-3)
        before = (tt[None, :] < hinges[:, None]).sum(axis=1)
        ok = (before >= 2) & (len(tt) - before >= 2)
        if not ok[0]:
            return tau
        ssr, p = hinge_fits(tt, xa, hinges)
        gap = np.linalg.norm(p - self._rest_xy[s], axis=1) - r_sum
        sig = max(self._sigma_of(j, a), self.settings.noise_floor_mm)
        cost = np.where(ok, (ssr + gap * gap) / (sig * sig), np.inf)
        k = int(np.argmin(cost))
        return float(hinges[k]) if cost[0] - cost[k] > _HINGE_GAIN else tau

    def _could_send(self, path: np.ndarray, tc: float, v_off_mm_s: float) -> bool:
        """Whether a mover on ``path``, at its fastest over the two frames up to a touch
        at ``tc``, could send an object off at ``v_off_mm_s``: no collision gives more
        than twice the striker's speed (the margins: ``_KICK_RATIO``)."""
        speed = float(np.max(np.linalg.norm(
            eval_velocity(path, tc - self._dt * np.arange(3.0)), axis=-1)))
        return _KICK_RATIO * speed + _KICK_SLACK_MM_S >= v_off_mm_s

    def _struck_by(self, s: int, a: int, t_a: float, paths: dict[int, np.ndarray],
                   started: set[int], onset: np.ndarray, among: set[int] | None = None
                   ) -> bool:
        """During a shot, an onset no fitted touch explains is a contact with the moving
        object whose path passed nearest its rest position when it left (within 40 mm of
        touching), the departure along the line of centres breaking near ties. Objects that
        left rest this very frame (the stroke itself) move from their rest position.
        ``among``: the only movers to try (all by default)."""
        t_on = float(self._t_start[s])
        tau0, tau1, _ = self._window(a, s)
        rest = still_path(self._rest_xy[s])
        tt, xa = self._samples(s, a, a + self.settings.lag_frames, t_a)
        u = xa[0] - self._rest_xy[s] if len(tt) else np.zeros(2)
        u = u / max(float(np.linalg.norm(u)), 1e-9)
        lo = max(t_on - t_a - 1.5 * self._dt, tau0 - self._dt)
        hi = min(t_on - t_a + 0.5 * self._dt, tau1)
        if hi <= lo:
            lo, hi = tau0 - self._dt, tau1
        def fit(j: int, cj: np.ndarray, lo_c: float, hi_c: float) -> tuple[float, float, float]:
            """(gap at its nearest, when, score): the gap to touching, and how far the
            start is from along the line of centres then."""
            tc, dmin = closest_approach(cj, rest, lo_c, hi_c)
            r_sum = float(self._radius[s] + self._radius[j])
            gap = dmin - r_sum
            t_loc = tc
            if gap < 0.0:  # (a path that runs into it met it where it first touched)
                t_in = first_touch(cj, rest, r_sum, lo_c, tc)
                t_loc = lo_c if t_in is None else t_in
            loc = self._rest_xy[s] - eval_path(cj, t_loc)
            cos = float(loc @ u) / max(float(np.linalg.norm(loc)), 1e-9)
            return gap, tc, max(gap, 0.0) + 20.0 * (1.0 - cos)

        # (score, time, mover, its path, the window it touched in if it was a loose bend,
        # its gap at its nearest, the window that was fitted in)
        cands: list[tuple[float, float, int, np.ndarray, tuple[float, float] | None, float,
                          tuple[float, float]]] = []
        s_gate = self.settings.contact_gate_mm
        bounced: dict[int, tuple[int, float]] = {}  # folded path -> its cushion and time
        # (the first sighting off rest: an onset run back from a start cut short, the object
        # stopped by the next it hit, lies early, even before what hit it left)
        seen_off = t_a + float(tt[0]) if len(tt) else -math.inf
        # (a neighbour it rested touching pushes it along their line of centres only: a
        # disc held against its cushion that leaves off that line bounced off the cushion,
        # struck from outside; _bounced_out)
        off_row = set()
        if len(tt) and self._held(s):
            off_row = {k for k in self._resting_against(s, t_a).tolist()
                       if self._off_row(s, k, u)}
        for j in range(len(self._ids)):
            if j == s or (among is not None and j not in among) or j in off_row:
                continue
            hi_late = None
            if j in started:
                cj = self._start_path(j, a, t_a)
                t0_j = float(self._t_start[j])
                if cj is None:
                    continue
                if t0_j > t_on + 0.5 * self._dt:
                    if not t0_j < seen_off:
                        continue
                    hi_late = seen_off - t_a
            elif self._mode[j] == _MOVING and j in paths and not onset[j]:
                cj = paths[j]
            elif self._mode[j] == _MOVING and not onset[j] and not self._seen[
                    j, a % self._hist]:
                # (a mover lost from view over the start, a blur: its way into the gap run
                # on, or its way out of it run back, meets the object it hit)
                across = [w for w in self._across_gap(j, a, t_a, lo - self._dt, hi, fit)
                          if w[0] <= s_gate]
                if across:
                    gap, tc, score, side, win = min(across, key=lambda w: w[2])
                    cands.append((score, tc, j, side, win, gap, win))
                continue
            elif (self._mode[j] == _REST and t_on - 2.0 * self._dt < float(self._t_start[j])
                  <= t_on + 0.5 * self._dt and not self._in_touch(j)):
                # (struck a moment before, found from the striker's touch before its own
                # onset is confirmed: it leaves from its rest too)
                cj = self._start_path(j, a, t_a)
                if cj is None:
                    continue
            else:
                continue
            # (a struck puck would seem to reach the row behind it)
            lo_j = self._since_start(j, lo, t_a)
            hi_j = max(hi, lo_j) if hi_late is None else hi_late
            # (gap, time, score, path, window it touched in when not the whole window)
            ways: list[tuple[float, float, float, np.ndarray, tuple[float, float] | None]] = []
            made = self._struck_from.get(j) if j not in started else None
            if made is not None and lo_j < made[0] - t_a < hi_j:
                # (its path in, fitted before it hit another object in the window, does
                # not run on through that object: after it, it went on deflected)
                t_h = made[0] - t_a
                ways.append((*fit(j, cj, lo_j, t_h), cj, None))
                if (off := self._deflected(j, cj, t_a, made)) is not None:
                    ways.append((*fit(j, off, t_h, hi_j), off, (t_h, hi_j)))
            else:
                ways.append((*fit(j, cj, lo_j, hi_j), cj, None))
            for k, t_c, fold in self._cushion_folds(j, cj, lo_j, hi_j):
                # (off a cushion it met in the window, on its way to this one: its path
                # before runs on through that cushion)
                if self._contact_t.get(j, -math.inf) - t_a <= t_c:
                    ways.append((*fit(j, fold, t_c, hi_j), fold, (t_c, hi_j)))
                    bounced[id(fold)] = (k, t_c)
            if (ray := self._struck_ray(j, cj, a, t_a)) is not None:
                # (struck itself just before, it went off along the line of that hit until
                # its path fitted after shows where it turned: into this one)
                lo_r, hi_r = max(lo_j, ray[0]), min(hi_j, ray[0] + self._dt)
                if hi_r > lo_r:
                    ways.append((*fit(j, ray[1], lo_r, hi_r), ray[1], (lo_r, hi_r)))
            if j not in started and not self._seen[j, a % self._hist]:
                # (lost from view over the start: the path fitted before it may run on
                # past a bend; its straight ways into and out of the gap are surer, each
                # touching it within the gap)
                ways += self._across_gap(j, a, t_a, lo_j - self._dt, hi_j, fit)
            ways = [w for w in ways if w[0] <= 40.0]
            if ways:
                gap, tc, score, path, into = min(ways, key=lambda w: w[2])
                cands.append((score, tc, j, path, into, gap, into or (lo_j, hi_j)))
        for j, a_b, c_b in self._loose_bends:
            t_b = self._T(a_b)
            if j == s or among is not None or not t_b - 2.0 * self._dt < t_on < t_b + self._dt:
                continue
            cj = shift_path(c_b, t_a - t_b)
            if not self._seen[s, a_b % self._hist]:
                # (a mover bent then, off nothing seen: its path into the bend met this
                # object, unseen in that frame, before it was seen moving)
                into = (t_b - t_a - 2.0 * self._dt, t_b - t_a)
            elif t_on > t_b:
                # (or seen at rest then, left after: the mover bent just after that frame,
                # into this object, which shows its start only a frame later; unless it
                # met one resting against this first, which passed the push on)
                into = (t_b - t_a, t_b - t_a + self._dt)
                if self._met_beside_first(s, j, cj, into, onset):
                    continue
            else:
                continue
            gap, tc, score = fit(j, cj, *into)
            if gap < self.settings.contact_gate_mm:  # (its path after, run back, is no
                # guide)
                cands = [c for c in cands if c[2] != j]
                cands.append((score, tc, j, cj, into, gap, into))
        if len(tt) >= 2:  # (a mover creeping by did not start one that leaves fast)
            v_off = float(np.linalg.norm(fit_path(tt, xa, 1)[0][1]))
            cands = [c for c in cands
                     if c[3] is not paths.get(c[2]) or self._could_send(c[3], c[1], v_off)]
        if not cands:
            return among is None and self._hit_across_gap(s, a, t_a, started, seen_off)
        cands.sort(key=lambda c: c[0])
        score, tc, j, cj, into_bend, gap_j, fitted_in = cands[0]
        if self._hit_neighbour(s, j, cj, gap_j, *fitted_in, a, t_a):
            return True
        if not self._claim_pair(s, j, t_a):
            return True
        conf = 0.95 * math.exp(-((max(score - 5.0, 0.0) / 25.0) ** 2))
        if len(cands) > 1 and cands[1][0] - score < 10.0:
            conf = min(conf, 0.45)  # two movers fit about as well: for review
        conf *= self._quality([s, j], a)
        # a slow start is seen late, and its onset run back is late too: where the
        # mover's path reaches touching it, in the frames before, times the hit
        t0_j = float(self._t_start[j])
        lo_touch = self._since_start(j, t_on - t_a - _SLOW_ONSET_LAG * self._dt, t_a)
        r_sum = float(self._radius[s] + self._radius[j])
        if into_bend is not None:  # (it met it where its path into the bend reaches it)
            lo_touch, hi_touch = into_bend
            touch = first_touch(cj, rest, r_sum, lo_touch, hi_touch)
            touch = tc if touch is None else touch
        else:
            touch = first_touch(cj, rest, r_sum, lo_touch, t_on - t_a)
            if touch is None and seen_off > t_on and j not in started and not (
                    t_on - self._contact_t.get(s, -math.inf) < _RECENT_HIT_S):
                # (its onset, run back from a slow start's first mm in the noise, came
                # early: the mover's path reaches it after, or passes within its noise of
                # touching it, before it was seen off rest; unless a push just moved it,
                # or the mover is the stroke's, its path drawn from its rest the way off)
                # (only where the path was clear of it, beyond the noise, at the onset)
                lo_l, hi_l = max(t_on - t_a, lo_touch), seen_off - t_a
                noise = 3.0 * max(self._sigma_of(j, a), self._sigma_of(s, a))
                if float(np.linalg.norm(eval_path(cj, lo_l) - self._rest_xy[s])) - r_sum > noise:
                    touch = first_touch(cj, rest, r_sum, lo_l, hi_l)
                    if touch is None:
                        tc_l, d_l = closest_approach(cj, rest, lo_l, hi_l)
                        if lo_l + 1e-3 < tc_l < hi_l - 1e-3 and d_l - r_sum < noise:
                            touch = tc_l
        if touch is None and t_on - t_a > lo_touch:
            # (a graze: the mover's fitted path passes within its noise of touching)
            # (nearest inside the window: a neighbour it rested against is nearest as it
            # leaves)
            tc_near, d_near = closest_approach(cj, rest, lo_touch, t_on - t_a)
            if tc_near > lo_touch + 1e-3 and d_near - r_sum < 3.0 * max(
                    self._sigma_of(j, a), self._sigma_of(s, a)):
                touch = tc_near
        where = None
        if touch is None and 0.0 < t_on - t0_j < _SLOW_ONSET_LAG * self._dt:
            # (struck from right beside it, not touching: the striker bounced off it before
            # it was seen moving, its path after, run from its rest, never meets it; it
            # reached it in the time its speed takes to close the gap)
            gap = float(np.linalg.norm(self._rest_xy[s] - self._start_xy[j])) - r_sum
            speed = float(np.linalg.norm(cj[1]))
            if _TOUCH_GAP_MM <= gap < speed * min(t_on - t0_j, self._dt):
                touch = t0_j - t_a + gap / speed
                where = self._start_xy[j] + gap * (self._rest_xy[s] - self._start_xy[j]) / (
                    gap + r_sum)
        if (touch is not None and into_bend is None and where is None and cj is paths.get(j)
                and self.spec.family is not Family.NOVUSS):
            touch = self._hinged_touch(j, s, touch, a, t_a, r_sum)
        if touch is not None:
            t_on = t_a + touch
        elif 0.0 < t_a + fitted_in[0] - t_on < self._dt and abs(
                self._contact_t.get(j, -math.inf) - t_a - fitted_in[0]) < 1e-6:
            # (its onset, run back from noisy first sightings, lies just before the mover's
            # path that met it began, off an earlier hit in the window: it came no sooner;
            # an onset frames before is an earlier hit, found late)
            t_on = t_a + fitted_in[0]
        if math.isfinite(t0_j) and t_on < t0_j:
            # (set beside it, the striker's path run back touches it before the stroke:
            # it hit it as it left)
            t_on = t0_j
        self._t_start[s] = t_on
        if where is None:
            where = eval_path(cj, t_on - t_a)
        if id(cj) in bounced:
            k, t_c = bounced[id(cj)]
            if not self._cushion_recent(j, k, t_a + t_c):
                self._cushion_event(j, k, t_a + t_c, a, eval_path(cj, t_c),
                                    0.8 * self._quality([j], a))
        between = None
        if self._labels[j] not in self.settings.striker_labels and (
                t_on - float(self._t_start[j]) < _RECENT_START_S):
            between = self._through(j, s, where)
        elif j in started and (block := self._way_blocked(j, s, where, onset, a)) is not None:
            # (a stroke's straight way from its rest, run on to this one, runs into an
            # object that rested in the way until now: it met that one first)
            between, where = block
        if between is not None and self._claim_pair(j, between, t_a):
            # (the mover, run on to touch it, lies over a resting object between them:
            # it hit that one, which passed the hit on and hardly moved)
            conf = min(conf, 0.45)
            self._event(EventKind.CONTACT, t_on, a, (self._ref(j), self._ref(between)),
                        where, conf, 0.005)
            self._pressed_cushion(between, self._rest_xy[between] - where, t_on, a)
            j = between
            where = self._rest_xy[between]
        self._event(EventKind.CONTACT, t_on, a, (self._ref(j), self._ref(s)), where, conf,
                    0.005)
        self._pressed_cushion(s, self._rest_xy[s] - where, t_on, a)
        # (it left along the line of centres: a cushion met before its sightings since
        # show it moving otherwise, _rail_after_hit)
        n_s = where - self._rest_xy[s]
        self._kicks.setdefault(s, _Hit(a, t_on, self._rest_xy[s].copy(), np.zeros(2), 0.0,
                                       n_s / max(float(np.linalg.norm(n_s)), 1e-9)))
        return True

    def _hit_across_gap(self, s: int, a: int, t_a: float, started: set[int],
                        seen_off: float) -> bool:
        """An onset no mover reaches, beyond a resting object that an object just struck
        (``started``) runs into on the line of that hit (``_struck_ray``) before ``s``
        is seen off rest: that object, sent on along the line of centres at the speed
        the hit hands on, met ``s`` across a gap and passed the hit on, stopping short
        (a rack's ball struck into the next, a few mm on, shows a few mm of motion
        itself, frames late). ``s`` must leave along the line of centres of that second
        hit (``_PUSH_COS``). Both contacts are reported, the earliest such way in."""
        u = self._departure(s, a, t_a)
        if u is None or not math.isfinite(seen_off):
            return False
        hi = seen_off - t_a
        rest = (self._mode == _REST).nonzero()[0]
        best: tuple[float, int, int, float, np.ndarray, np.ndarray] | None = None
        for j in sorted(started):
            cj = self._start_path(j, a, t_a)
            ray = self._struck_ray(j, cj, a, t_a) if cj is not None else None
            if ray is None:
                continue
            tau_j, path_j = ray
            t_v, most, _ = self._hit_speed.get(j, (math.nan, 0.0, False))
            speed = float(np.linalg.norm(path_j[1]))
            if abs(t_v - t_a - tau_j) < 2e-3 and most > speed:
                # (one in a pack left at most what the hit hands on: the one it passed the
                # hit on to, a few mm on, is met before its share shows)
                v = path_j[1] * (most / max(speed, 1e-9))
                path_j = np.stack([eval_path(path_j, tau_j) - v * tau_j, v, np.zeros(2)])
            for k in rest[(rest != s) & (rest != j)].tolist():
                t_k = first_touch(path_j, still_path(self._rest_xy[k]),
                                  float(self._radius[j] + self._radius[k]), tau_j, hi)
                if t_k is None:
                    continue
                p_j = eval_path(path_j, t_k)
                n = self._rest_xy[k] - p_j
                n /= max(float(np.linalg.norm(n)), 1e-9)
                v_n = float(path_j[1] @ n)
                if v_n <= 0.0:
                    continue
                v_k = n * self._handed_on(j, k, v_n)
                path_k = np.stack([self._rest_xy[k] - v_k * t_k, v_k, np.zeros(2)])
                t_s = first_touch(path_k, still_path(self._rest_xy[s]),
                                  float(self._radius[k] + self._radius[s]), t_k, hi)
                if t_s is None:
                    continue
                p_k = eval_path(path_k, t_s)
                on = self._rest_xy[s] - p_k
                if float(u @ on) < _PUSH_COS * float(np.linalg.norm(on)):
                    continue
                if best is None or t_s < best[0]:
                    best = (t_s, j, k, t_k, p_j, p_k)
        if best is None:
            return False
        t_s, j, k, t_k, p_j, p_k = best
        for x, y, t_xy, where in ((j, k, t_k, p_j), (k, s, t_s, p_k)):
            if self._claim_pair(x, y, t_a):
                self._event(EventKind.CONTACT, t_a + t_xy, a, (self._ref(x), self._ref(y)),
                            where, 0.7 * self._quality([x, y], a), 0.005)
            self._pressed_cushion(y, self._rest_xy[y] - where, t_a + t_xy, a)
        # (the one in between starts, if it shows at all, from that hit)
        self._note_hit(k, t_a + t_k, p_j)
        self._t_start[s] = t_a + t_s
        return True

    def _handed_on(self, x: int, y: int, v_n: float) -> float:
        """Speed (mm/s) an elastic hit by slot ``x``, closing at ``v_n`` along the line of
        centres, hands on to slot ``y`` at rest: the most it can leave with."""
        m_x, m_y = (self.spec.object_for(self._labels[z]).mass_g for z in (x, y))
        return 2.0 * m_x / (m_x + m_y) * v_n

    def _way_blocked(self, j: int, s: int, where: np.ndarray, onset: np.ndarray, a: int
                     ) -> tuple[int, np.ndarray] | None:
        """The first object, resting until this frame (at rest, or its onset now), that
        the straight way of slot ``j`` from its rest through ``where``, run on to where it
        touches resting slot ``s`` (or comes nearest it), runs into deeper than 3 sigma,
        and ``j``'s centre as it touched that one; None where the way is clear."""
        rest = ((self._mode == _REST) | onset).nonzero()[0]
        rest = rest[(rest != s) & (rest != j)]
        if not len(rest):
            return None
        p0 = self._rest_xy[j]
        d = where - p0
        if float(d @ d) < 1e-12:
            return None  # (it is where it rested: no way to speak of)
        # (run on to where it touches ``s``, or comes nearest it: ``_leaves`` of the way
        # run backwards gives where the way enters a circle)
        r_s = np.array([self._radius[s] + self._radius[j]])
        w_s = float(-self._leaves(p0, -d, self._rest_xy[s][None], r_s)[0])
        if not math.isfinite(w_s):
            w_s = float((self._rest_xy[s] - p0) @ d) / max(float(d @ d), 1e-9)
        e = d * max(1.0, w_s)
        q = self._rest_xy[rest]
        big_r = self._radius[rest] + self._radius[j]
        deep = _off_segment(q, p0, p0 + e) - big_r < -3.0 * self._sigma_of(j, a)
        if not np.any(deep):
            return None
        enter = -self._leaves(p0, -e, q[deep], big_r[deep])  # (the earliest is the one met)
        m = int(np.argmin(enter))
        return int(rest[deep][m]), p0 + e * float(enter[m])

    def _through(self, j: int, s: int, where: np.ndarray) -> int | None:
        """A resting object between mover ``j`` (centred at ``where`` when it struck) and
        resting slot ``s``, which ``j`` did not reach itself (a gap of ``_TOUCH_GAP_MM``
        or more): within ``contact_gate_mm`` of touching both, nearer ``s``, on the way
        from ``j`` to ``s`` (``_PUSH_COS``). ``j`` hit it, and it passed the hit on and
        hardly moved (a pawn of a row with small gaps, pushed 5 mm, shows no start).
        None if there is none. (Asked of object balls and pawns just set going, a hit
        passed down a row: not of a striker at its stroke, nor of a rack's neighbour
        still creeping from the break.)"""
        gate = self.settings.contact_gate_mm
        to_s = self._rest_xy[s] - where
        d_s = float(np.linalg.norm(to_s))
        if d_s - float(self._radius[j] + self._radius[s]) < _TOUCH_GAP_MM:
            return None
        rest = (self._mode == _REST).nonzero()[0]
        rest = rest[(rest != s) & (rest != j)]
        if not len(rest):
            return None
        to_k = self._rest_xy[rest] - where
        d_k = np.linalg.norm(to_k, axis=1)
        k_s = np.linalg.norm(self._rest_xy[rest] - self._rest_xy[s], axis=1)
        gap_jk = d_k - self._radius[rest] - self._radius[j]
        gap_ks = k_s - self._radius[rest] - self._radius[s]
        on_way = (to_k @ to_s) > _PUSH_COS * d_k * d_s
        ok = (gap_jk < gate) & (gap_ks < gate) & (k_s < d_s) & on_way
        if not np.any(ok):
            return None
        return int(rest[ok][np.argmin((gap_jk + gap_ks)[ok])])

    def _struck_by_late(self, a: int, t_a: float, paths: dict[int, np.ndarray],
                        started: set[int], onset: np.ndarray) -> None:
        """Orphans of the frames just before (starts nothing explained) that an object
        whose start shows only now, after it, may have struck: one unseen over its start
        and the hit it made (a gap in its track)."""
        first = min(float(self._t_start[k]) for k in started)
        orphans = ((self._mode == _MOVING) & self._orphan).nonzero()[0].tolist()
        for s in orphans:
            t_s = float(self._t_start[s])
            if first < t_s and t_a - t_s < _LATE_ORPHAN_FRAMES * self._dt and self._struck_by(
                    s, a, t_a, paths, started, onset, among=started):
                self._orphan[s] = False

    def _across_gap(self, j: int, a: int, t_a: float, lo: float, hi: float,
                    fit: Callable[[int, np.ndarray, float, float], tuple[float, float, float]]
                    ) -> list[tuple[float, float, float, np.ndarray, tuple[float, float]]]:
        """``fit`` (gap, time, score) of the straight ways of mover ``j``, unseen at frame
        ``a``: from its last two sightings before the gap (within twice ``lag_frames``), run
        on, and from its first two after it (within ``lag_frames``), run back, where they
        lie 5 sigma apart or more; each with the window it holds in: the way in up to the
        mover's last hit found in ``lo..hi``, the way out from it, neither past the other
        side's sightings. A way out nearest as the window opens (moving away all of it) is
        none."""
        look = self.settings.lag_frames
        made = self._struck_from.get(j)
        t_h = made[0] - t_a if made is not None and lo < made[0] - t_a < hi else None
        out: list[tuple[float, float, float, np.ndarray, tuple[float, float]]] = []
        before = self._samples(j, a - 2 * look, a - 1, t_a)
        after = self._samples(j, a + 1, a + look, t_a)
        # (neither way holds past the other side's sightings: the way out run back to
        # before its last sighting on the way in is where it never was)
        lo = max(lo, float(before[0][-1])) if len(before[0]) else lo
        hi = min(hi, float(after[0][0])) if len(after[0]) else hi
        if hi <= lo:
            return out
        for into, (tt, xa) in ((True, before), (False, after)):
            pick = slice(-2, None) if into else slice(0, 2)
            if len(tt) < 2 or float(tt[pick][1] - tt[pick][0]) >= 1.5 * self._dt:
                continue
            if float(np.linalg.norm(xa[pick][1] - xa[pick][0])) < 5.0 * self._sigma_of(j, a):
                continue  # (two sightings of a slow mover: their line is noise)
            win = (lo, hi if t_h is None else t_h) if into else (
                lo if t_h is None else t_h, hi)
            side = fit_path(tt[pick], xa[pick], 1)[0]
            gap, tc, score = fit(j, side, *win)
            if not into and gap > 0.0 and tc <= win[0] + 1e-9:
                continue  # (its way out, run back, nearest as it was last seen going in)
            out.append((gap, tc, score, side, win))
        return out

    def _hit_neighbour(self, s: int, j: int, cj: np.ndarray, gap_s: float, lo: float,
                       hi: float, a: int, t_a: float) -> bool:
        """Whether mover ``j``, its path passing clear of slot ``s`` (``gap_s``), touched
        a resting object ``s`` rested against instead: that one passed the hit on and
        starts slower, its onset seen a frame later (or never: a cradle). The hit and
        the push are reported now, timed where ``j``'s path reaches the neighbour."""
        sigma = max(self._sigma_of(j, a), self._sigma_of(s, a))
        if gap_s < 3.0 * sigma + _PASSED_ON_MM:
            return False
        near = self._resting_against(s)
        best: tuple[float, int] | None = None
        u = self._departure(s, a, t_a)
        for k in near[near != j].tolist():
            r_sum = float(self._radius[k] + self._radius[j])
            tc, d = closest_approach(cj, still_path(self._rest_xy[k]), lo, hi)
            if d - r_sum > 3.0 * sigma:
                continue
            touch = first_touch(cj, still_path(self._rest_xy[k]), r_sum, lo, tc)
            t_k = tc if touch is None else touch
            # (the push goes on forward of the hit, and the object leaves along it)
            on = self._rest_xy[s] - self._rest_xy[k]
            on /= max(float(np.linalg.norm(on)), 1e-9)
            hit = self._rest_xy[k] - eval_path(cj, t_k)
            if float(hit @ on) <= 0.0 or (u is not None and float(u @ on) < _PUSH_COS):
                continue
            if best is None or t_k < best[0]:
                best = (t_k, k)
        if best is None:
            return False
        t_k, k = best
        t_hit = t_a + t_k
        where = eval_path(cj, t_k)
        for x, y, xy, conf in ((j, k, where, 0.8), (k, s, self._rest_xy[k], 0.7)):
            if not self._claim_pair(x, y, t_a):
                continue
            self._event(EventKind.CONTACT, t_hit, a, (self._ref(x), self._ref(y)), xy,
                        conf * self._quality([x, y], a), 0.005)
            self._pressed_cushion(y, self._rest_xy[y] - xy, t_hit, a)
            self._note_hit(y, t_hit, xy)
        self._struck_t[k] = t_hit
        self._t_start[s] = t_hit
        return True

    def _met_beside_first(self, s: int, j: int, cj: np.ndarray, into: tuple[float, float],
                          onset: np.ndarray) -> bool:
        """Whether mover ``j``'s path ``cj`` touches, within ``into``, an object leaving
        rest now that rested touching slot ``s``, before it touches ``s`` (or without
        touching it)."""
        ks = onset.nonzero()[0]
        ks = ks[(ks != s) & (ks != j)]
        if not len(ks):
            return False
        slots = np.r_[s, ks]
        beside = ks[self._touching(slots, self._rest_xy[slots])[0, 1:]]
        r_j = float(self._radius[j])
        t_s = first_touch(cj, still_path(self._rest_xy[s]), r_j + float(self._radius[s]),
                          *into)
        for k in beside.tolist():
            t_k = first_touch(cj, still_path(self._rest_xy[k]), r_j + float(self._radius[k]),
                              *into)
            if t_k is not None and (t_s is None or t_k < t_s):
                return True
        return False

    def _met_loose(self, i: int, a: int, t_a: float, ci: np.ndarray) -> bool:
        """Whether mover ``i``, bent at frame ``a`` off nothing its fitted paths explain, met
        a mover whose bend a frame or two before was left unexplained too: each bent just
        after another bend (a cushion), with too few sightings since for a path the other's
        could be tested against. Their paths into the two bends touch in both windows."""
        tau0, tau1, _ = self._window(a, i)
        for n, (j, a_b, c_b) in enumerate(self._loose_bends):
            if j == i or not 0 < a - a_b <= 2 or self._mode[j] != _MOVING:
                continue
            t_b = self._T(a_b)
            key = (min(i, j), max(i, j))
            if self._paired_lately(*key, t_a):
                continue
            lo = max(tau0, t_b - t_a - 2.0 * self._dt) - 0.5 * self._dt
            hi = min(tau1, t_b - t_a) + 0.5 * self._dt
            cj = shift_path(c_b, t_a - t_b)
            tc = first_touch(ci, cj, float(self._radius[i] + self._radius[j]), lo, hi)
            if tc is None:
                continue
            self._last_pair_t[key] = t_a
            del self._loose_bends[n]
            self._event(EventKind.CONTACT, t_a + tc, a, (self._ref(j), self._ref(i)),
                        eval_path(cj, tc), 0.6 * self._quality([i, j], a), 0.5 * self._dt)
            return True
        return False

    def _deflected(self, j: int, coef: np.ndarray, t_a: float,
                   made: tuple[float, np.ndarray, int]) -> np.ndarray | None:
        """Slot ``j``'s straight path on from the contact ``made`` (time, its centre, the
        slot it struck), its path in ``coef`` (relative to ``t_a``): it passed on its share
        of the velocity along their line of centres (an elastic hit). None when the slot
        struck did not leave rest then (where it was is not known well enough)."""
        t_s, p_h, k = made
        if not abs(float(self._t_start[k]) - t_s) < self._dt:
            return None
        m_j, m_k = (self.spec.object_for(self._labels[x]).mass_g for x in (j, k))
        t_h = t_s - t_a
        n = self._start_xy[k] - p_h
        n = n / max(float(np.linalg.norm(n)), 1e-9)
        v = eval_velocity(coef, t_h)
        v = v - 2.0 * m_k / (m_j + m_k) * max(float(v @ n), 0.0) * n
        return np.stack([p_h - v * t_h, v, np.zeros(2)])

    def _in_touch(self, j: int) -> bool:
        """Whether resting slot ``j`` touches another resting object (a rack, a row)."""
        return bool(self._mode[j] == _REST and len(self._resting_against(j)))

    def _struck_ray(self, j: int, coef: np.ndarray, a: int, t_a: float
                    ) -> tuple[float, np.ndarray] | None:
        """(when relative to ``t_a``, path) of slot ``j`` leaving rest along the line of the
        hit that started it, at the speed of its path ``coef`` fitted after (or, where it
        touched no other, the most the hit hands on, where that is more): where it went
        before anything else turned it (None: no such hit noted as it left)."""
        hit = self._hit_dir.get(j)
        t0 = float(self._t_start[j])
        if hit is None or not (abs(hit[0] - t0) < 2e-3 or 0.0 < hit[0] - t0 < 2.0 * self._dt):
            return None
        # (an onset run back to before the hit is noise: it left when it was hit)
        t0 = max(t0, hit[0])
        tau0 = t0 - t_a
        speed = float(np.linalg.norm(eval_velocity(coef, tau0)))
        t_v, most, lone = self._hit_speed.get(j, (math.nan, 0.0, False))
        if lone and abs(t_v - t0) < 2e-3 and most > speed:
            # (a path fitted across a second hit soon after is slower than it left: then
            # it left at the most speed the hit hands on, and a sighting on the ray times
            # its start better than its onset did)
            speed = most
            tt, xy = self._samples(j, a - 3, a, t_a)
            on = (tt > tau0).nonzero()[0]
            if len(on):
                off = xy[on[0]] - self._start_xy[j]
                along = float(off @ hit[1])
                across = abs(float(off[0] * hit[1][1] - off[1] * hit[1][0]))
                if along > 0.0 and across < 3.0 * self._sigma_of(j, a):
                    tau0 = float(tt[on[0]]) - along / speed
        v = hit[1] * speed
        return tau0, np.stack([self._start_xy[j] - v * tau0, v, np.zeros(2)])

    def _nudges(self, a: int, t_a: float, ahead: list[int], rest: np.ndarray,
                sig: np.ndarray, rest_xy: np.ndarray) -> None:
        """Resting discs ``rest`` (position sigmas ``sig``, at ``rest_xy`` as frame ``a``
        came) a mover met without setting them going (a graze, a pawn pressed into its
        cushion: a disc stops dead on the powdered board, where a ball rolls off): over
        the frames ahead they lie, on average, a few mm off their rest (``_NUDGE_MIN_MM``,
        and ``_NUDGE_SIGMAS`` of the noise of both means), no contact of theirs found
        lately, and a mover's way between two of its sightings about then came from clear
        of them to within touching, closing on them, and went on. Reported: that contact,
        timed where the way first touched, and the press into a cushion it lay against.
        One held against a cushion that a push was reported into lately, nudged off the
        line of that push, was struck from outside (``_take_back_pushes``; a mover's way
        may cut the corner by ``_OFF_ROW_GAP_MM``). The rest moves to where it lies now."""
        moving = (self._mode == _MOVING).nonzero()[0]
        if not len(moving) or not len(rest):
            return
        seen = self._seen[rest][:, ahead]
        n_after = seen.sum(axis=1)
        xy = np.where(seen[..., None], np.nan_to_num(self._xy[rest][:, ahead]), 0.0)
        mean = xy.sum(axis=1) / np.maximum(n_after, 1)[:, None]
        shift = np.linalg.norm(mean - rest_xy, axis=1)
        n_before = np.minimum(self._rest_n[rest], 30)
        noise = _NUDGE_SIGMAS * sig * np.sqrt(1.0 / np.maximum(n_after, 1)
                                              + 1.0 / np.maximum(n_before, 1))
        cand = (n_after >= 3) & (n_before >= 5) & (shift > np.maximum(_NUDGE_MIN_MM, noise))
        for r in cand.nonzero()[0].tolist():
            s = int(rest[r])
            off_row = False
            if t_a - max(self._struck_t.get(s, -math.inf), self._contact_t.get(
                    s, -math.inf)) < _CREEP_LATE_S:
                off_row = self._held(s) and self._take_back_pushes(s, [
                    k for k in self._resting_against(s, t_a).tolist()
                    if self._off_row(s, k, mean[r] - rest_xy[r])])
                if not off_row:
                    continue  # (a contact found already moved it; not a push along its
                    # row that it moved off: it was struck into its cushion from outside)
            c = rest_xy[r]
            best: tuple[float, float, int, np.ndarray] | None = None
            for m in moving.tolist():
                tt, xa = self._samples(m, a - len(ahead) - 1, a + len(ahead) - 1, t_a)
                r_sum = float(self._radius[m] + self._radius[s])
                gate = r_sum + 3.0 * max(self._sigma_of(m, a), float(sig[r]))
                reach = gate + (_OFF_ROW_GAP_MM if off_row else 0.0)
                for k in range(len(tt) - 1):
                    p, d = xa[k], xa[k + 1] - xa[k]
                    dd = max(float(d @ d), 1e-9)
                    w = min(max(float((c - p) @ d) / dd, 0.0), 1.0)
                    dist = float(np.linalg.norm(p + w * d - c))
                    # (a way that came into touching from clear of it, and went on: past
                    # it, or off it from the sighting it ended at)
                    on = w < 1.0 or (k + 2 < len(tt) and float(np.linalg.norm(
                        xa[k + 2] - c)) > dist + gate - r_sum)
                    if (dist >= reach or w <= 0.0 or not on
                            or float(np.linalg.norm(p - c)) < gate
                            or (best is not None and dist - r_sum >= best[0])):
                        continue
                    # (where the way first comes within touching, or nearest; closing on
                    # it, as it came within the gate, fast enough to have moved it)
                    b = float((p - c) @ d) / dd
                    q = float((p - c) @ (p - c))
                    disc = b * b - (q - r_sum**2) / dd
                    u = w if disc < 0.0 else min(max(-b - math.sqrt(disc), 0.0), w)
                    at = p + u * d
                    came = p + (-b - math.sqrt(max(b * b - (q - reach**2) / dd, 0.0))) * d
                    into = (c - came) / max(float(np.linalg.norm(c - came)), 1e-9)
                    if float(d @ into) / float(tt[k + 1] - tt[k]) < _TOUCH_MIN_APPROACH_MM_S:
                        continue
                    best = (dist - r_sum, float(tt[k] + u * (tt[k + 1] - tt[k])), m, at)
            if best is None:
                if not self._pushed_down_row(s, c, mean[r], a, t_a):
                    continue
            else:
                if best[1] > 0.0:
                    continue  # (one it meets after frame a waits for that frame's causes)
                _, tau, m, at = best
                if self._reported_near(s, m, t_a + tau) or not self._claim_pair(s, m, t_a):
                    continue  # (that contact is reported already)
                self._event(EventKind.CONTACT, t_a + tau, a, (self._ref(m), self._ref(s)),
                            at, 0.6 * self._quality([m, s], a), 0.01)
                self._struck_t[s] = t_a + tau
                self._pressed_cushion(s, c - at, t_a + tau, a)
            self._rest_xy[s] = mean[r]
            self._rest_n[s] = int(n_after[r])

    def _pushed_down_row(self, s: int, rest_xy: np.ndarray, now_xy: np.ndarray, a: int,
                         t_a: float) -> bool:
        """A resting disc ``s`` nudged off ``rest_xy`` to ``now_xy`` with no mover near it:
        the far end of a row an object was struck into lately (``_ROW_PUSH_S``), moved
        along the row's last link. The push ran down the row: each link is reported,
        timed at that hit (the pawns between, pressed from both sides, hardly move).
        Whether it was."""
        from scipy.sparse.csgraph import breadth_first_order  # type: ignore[import-untyped]

        hit_t = {k: t_k for k, t_k in self._hit_times().items()
                 if 0.0 <= t_a - t_k < _ROW_PUSH_S and k != s}
        if not hit_t:
            return False
        slots = np.array(sorted({s, *hit_t, *(self._mode == _REST).nonzero()[0].tolist()}))
        xy = self._rested_xy(slots)
        xy[slots == s] = rest_xy
        touch = self._touching(slots, xy)
        # (the shortest chain of touches from s back to an object struck)
        k_s = int((slots == s).nonzero()[0][0])
        order, back = breadth_first_order(touch, k_s, directed=False)
        roots = [int(k) for k in order if int(slots[k]) in hit_t]
        if not roots:
            return False
        chain = [roots[0]]
        while chain[-1] != k_s:
            chain.append(int(back[chain[-1]]))
        if _off_line(now_xy - rest_xy, xy[k_s] - xy[chain[-2]]):
            return False  # (it moved off the row's line: not pushed down it)
        root = int(slots[chain[0]])
        t_on = hit_t[root]
        came = self._hit_dir.get(root)
        first = xy[chain[1]] - xy[chain[0]]
        if came is not None and float(came[1] @ first) < -_AWAY_COS * float(
                np.linalg.norm(first)):
            # (the hit drove the first away from the next: that one took a hit of its
            # own, from the striker of a split hit, and passed it on)
            chain = chain[1:]
            self._split_to_next(root, int(slots[chain[0]]), xy[chain[0]], t_on, a, t_a)
        pushed = [self._report_push(int(slots[x]), int(slots[y]), t_on, a, t_a, xy[x])
                  for x, y in zip(chain[:-1], chain[1:], strict=True)]
        if not any(pushed):
            return False  # (each found already: the far end was pushed from its hit)
        self._struck_t[s] = t_on
        return True

    def _split_to_next(self, root: int, k: int, k_xy: np.ndarray, t_on: float, a: int,
                       t_a: float) -> None:
        """The striker of ``root``'s pending contact, where it met ``root`` within its
        noise and ``_JUNCTION_GAP_MM`` of touching ``k`` (at ``k_xy``) too, the next of a
        row the hit drove ``root`` away from (seen leaving), met ``k`` as well: a split
        hit, timed at the first (its order for review), with the press of ``k`` into its
        cushion."""
        hit = self._pending_contact(root)
        _, seen = self._samples(root, a, self._n - 1, t_a)
        if hit is None or not len(seen) or float(np.max(np.linalg.norm(
                seen - self._rest_xy[root], axis=1))) < self._onset_mm(self._sigma_of(root, a)):
            return  # (one the hit left where it lay may not have been hit: _junction_hit)
        ev, sigma_t = hit
        j = self._slot_of[ev.objects[0].id]
        p = np.array(ev.xy_mm)
        gap = float(np.linalg.norm(p - k_xy) - self._radius[j] - self._radius[k])
        if gap < 3.0 * self._sigma_of(j, a) + _JUNCTION_GAP_MM and self._claim_pair(j, k, t_a):
            self._event(EventKind.CONTACT, t_on, a, (ev.objects[0], self._ref(k)), p,
                        ev.confidence, sigma_t)
            self._pressed_cushion(k, k_xy - p, t_on, a)

    def _pressed_cushion(self, s: int, push_xy: np.ndarray, t_s: float, a: int) -> None:
        """A resting object against a cushion, pushed into it (``push_xy`` the line of
        centres towards it), bounces off that cushion the moment it is hit."""
        r = float(self._radius[s])
        p = self._rest_xy[s]
        nrm = push_xy / max(float(np.linalg.norm(push_xy)), 1e-9)
        for k in range(len(self._cush_a)):
            n = self._cush_n[k]
            if float((p - self._cush_a[k]) @ n) - r > 3.0 or float(nrm @ n) > -_PRESSED_COS:
                continue
            if not self._beside_cushion(k, p) or self._cushion_recent(s, k, t_s):
                continue
            self._cushion_event(s, k, t_s, a, p - r * n, 0.9 * self._quality([s], a),
                                pressed=True)

    def _cushion(self, s: int, a: int, coef: np.ndarray, tau0: float, tau1: float,
                 t_a: float, exact_only: bool = False, after_from: int | None = None,
                 hit_n: np.ndarray | None = None) -> bool:
        """A cushion contact of slot ``s`` in the window (and half a frame past it, or,
        with ``after_from``, up to its end): path one radius from a nose (or, unless
        ``exact_only``, within ``cushion_gate_mm`` of it), normal velocity reversed by the
        motion seen from frame ``after_from`` (default ``a``) on. ``hit_n``: the line of
        centres of a contact it had just before (to the other object): the cushion must
        then push it off by more than that contact does."""
        s_ = self.settings
        if self._straight and float(coef[2] @ coef[1]) > 0.0 and float(
                np.linalg.norm(coef[2])) > _MAX_DECEL_MM_S2:
            return False  # (a disc speeding up hard: a path fitted across a change)
        r = float(self._radius[s])
        a0 = a if after_from is None else after_from
        tt, xa = self._samples(s, a0, a0 + s_.lag_frames, t_a)
        if not len(tt):
            return False
        # (the frames after may miss it but one: that one must lie where the bounce puts it)
        one = len(tt) == 1
        after = None if one else fit_path(tt, xa, 1 if len(tt) < 4 else 2)[0]
        # (and, where a sighting misses that, fitted up to the next change)
        short = None if after is None else self._fit_after(s, a0, tt, xa, after)
        found = False
        reach = 0.5 * self._dt if after_from is None else 0.0
        for k in range(len(self._cush_a)):
            n = self._cush_n[k]
            tc = line_touch(coef, self._cush_a[k], n, r, tau0, tau1 + reach)
            conf = 1.0
            if tc is None:
                if exact_only or one:
                    continue
                samp = np.linspace(tau0, tau1, 9)
                sd = (eval_path(coef, samp) - self._cush_a[k]) @ n - r
                kmin = int(np.argmin(sd))
                if sd[kmin] > s_.cushion_gate_mm:
                    continue
                tc = float(samp[kmin])
                conf = 0.7
            p = eval_path(coef, tc)
            if not self._beside_cushion(k, p, r + 25.0):
                continue
            if float(eval_velocity(coef, tc) @ n) >= 0:
                continue
            p_on = eval_path(coef, float(tt[0]))  # (the path in, run on to that sighting)
            if after is None:
                bounced = self._folded_back(s, a, k, p_on, xa[0])
            else:
                # (or, where the fits after run through a next change, the sighting lies
                # where the cushion folds back a path in that went past it by the noise)
                bounced = float(eval_velocity(after, tc) @ n) > 0 or (
                    short is not None and float(eval_velocity(short, tc) @ n) > 0) or (
                    self._runs_on(coef, tc, float(tt[0])) and self._folded_back(
                        s, a, k, p_on, xa[0], min_past_mm=self._noise_mm(s, a)))
            if not bounced:
                continue
            if hit_n is not None and after is not None:
                # (a contact pushes it along the line of centres only: what its velocity
                # changed by beyond that, along the normal, is the cushion's)
                split = _split_kick(hit_n, n, eval_velocity(after, tc) - eval_velocity(coef, tc))
                if split is not None and split[1] < _RAIL_KICK_MM_S:
                    continue  # (the contact alone turned it: a near miss of the rail)
            if not self._cushion_recent(s, k, t_a + tc):
                self._cushion_event(s, k, t_a + tc, a, p, conf * self._quality([s], a))
            found = True
        if not found and after is not None:
            found = self._off_a_jaw(s, a, coef, after, tau0, tau1 + reach, t_a)
        return found

    def _fit_after(self, s: int, a: int, tt: np.ndarray, xa: np.ndarray, coef: np.ndarray
                   ) -> np.ndarray | None:
        """The motion of slot ``s`` from frame ``a`` on, fitted to its sightings ``xa`` at
        ``tt`` up to the next change: the last ones are dropped while the fit (``coef``
        through them all, to begin with) misses one by more than the noise (a pawn back
        off a cushion and into the puck within a frame or two: fitted through both, it
        would seem to go on into the cushion). None where none is dropped."""
        noise = self._noise_mm(s, a)
        dropped = False
        while len(tt) > 2:
            miss = np.linalg.norm(eval_path(coef, tt) - xa, axis=1)
            if float(miss.max()) <= noise:
                break
            tt, xa, dropped = tt[:-1], xa[:-1], True
            coef = fit_path(tt, xa, 1 if len(tt) < 4 else 2)[0]
        return coef if dropped else None

    def _jaw_scan(self, sl: np.ndarray, coef: np.ndarray, a: int, look: int, t_a: float,
                  tau0: float) -> None:
        """``_cushion_scan`` for the pockets' jaws: a path (fitted before frame ``a``)
        that ends by a jaw point, tested with the motion fitted after (a line: over a few
        frames friction bends no path by a mm)."""
        near = np.linalg.norm(coef[:, None, 0] - self._jaws.xy[None], axis=2) < (
            self._radius[sl][:, None] + _JAW_SCAN_MM)
        for m in near.any(axis=1).nonzero()[0].tolist():
            s = int(sl[m])
            tt, xa = self._samples(s, a, a + look, t_a)
            if len(tt) >= 2:
                self._off_a_jaw(s, a, coef[m], fit_path(tt, xa, 1)[0], tau0, 0.0, t_a)

    def _off_a_jaw(self, s: int, a: int, coef: np.ndarray, after: np.ndarray, tau0: float,
                   tau1: float, t_a: float) -> bool:
        """A bounce off a pocket's jaw (the rounded end of a cushion at the mouth): the
        path in ``coef`` touches the jaw point in ``[tau0, tau1]`` and the motion after
        leaves it (a ball rolling across a side pocket's mouth into the far jaw)."""
        jaws = self._jaws
        r = float(self._radius[s])
        for j in range(len(jaws.xy)):
            tc = first_touch(coef, still_path(jaws.xy[j]), r, tau0, tau1)
            if tc is None:
                continue
            p = eval_path(coef, tc)
            nrm = (p - jaws.xy[j]) / r
            v_in = float(eval_velocity(coef, tc) @ nrm)
            if -v_in < _SCAN_IN_MM_S or float(eval_velocity(after, tc) @ nrm) <= 0.0:
                continue
            k = int(jaws.cushion[j])
            if not self._cushion_recent(s, k, t_a + tc):
                self._cushion_event(s, k, t_a + tc, a, p, 0.8 * self._quality([s], a))
            return True
        return False

    @staticmethod
    def _runs_on(coef: np.ndarray, tc: float, tau: float) -> bool:
        """Whether a path in (``coef``, meeting a cushion at ``tc``) may be run on to
        ``tau`` past it: it slows, and keeps under ``_MAX_SPEED_MM_S`` (one fitted across a
        change can go anywhere)."""
        v_in = float(np.linalg.norm(eval_velocity(coef, tc)))
        v_on = float(np.linalg.norm(eval_velocity(coef, tau)))
        return v_in <= _MAX_SPEED_MM_S and v_on <= v_in

    def _folded_back(self, s: int, a: int, k: int, p: np.ndarray, xy: np.ndarray,
                     slack_mm: float | None = None, min_past_mm: float = 0.0) -> bool:
        """Whether slot ``s``'s sighting ``xy`` at frame ``a`` lies where position ``p``,
        over cushion ``k``'s touching line, folded back at that line puts it: within
        ``slack_mm`` (default half the way ``p`` went past the line: a bounce keeps the
        motion along the cushion and loses some of that off it), or the noise. False
        when ``p`` is not over the line by more than ``min_past_mm``."""
        n = self._cush_n[k]
        past = float(self._radius[s]) - float((p - self._cush_a[k]) @ n)
        if past <= min_past_mm:
            return False
        mirror = p + 2.0 * past * n
        slack = 0.5 * past if slack_mm is None else slack_mm
        return float(np.linalg.norm(xy - mirror)) <= max(slack, self._noise_mm(s, a))

    def _meets_cushion(self, s: int, coef: np.ndarray, tau0: float, tau1: float) -> bool:
        """Whether slot ``s``'s path ``coef`` reaches a cushion's nose in ``[tau0, tau1]``
        where the cushion runs (not at a pocket's mouth)."""
        r = float(self._radius[s])
        for k in range(len(self._cush_a)):
            tc = line_touch(coef, self._cush_a[k], self._cush_n[k], r, tau0, tau1)
            if tc is not None and self._beside_cushion(k, eval_path(coef, tc)):
                return True
        return False

    def _cushion_scan(self, slots: list[int], paths: dict[int, np.ndarray], a: int,
                      look: int, t_a: float) -> None:
        """Cushion contacts found from the paths alone: every moving path (fitted before
        frame ``a``) against every cushion line at once, for a root one radius from the
        nose between frames ``a - 1`` and ``a``, approaching; a cushion when the motion
        fitted after that root leaves the line again (its normal velocity reversed)."""
        if not slots or self._analysed < 1:
            return
        s_ = self.settings
        sl = np.array(slots)
        coef = np.stack([paths[s] for s in slots])  # (M, 3, 2)
        r = self._radius[sl]
        # (from frame a - 2: refitted each frame, a slow path's root may move back past
        # frame a - 1 before a fit puts it before frame a)
        tau0 = self._T(a - 2) - t_a if self._analysed >= 2 else self._T(a - 1) - t_a
        if len(self._jaws.xy):
            self._jaw_scan(sl, coef, a, look, t_a, tau0)
        # signed distance beyond one radius: q0 + q1 tau + q2 tau^2, (M, C)
        q0 = np.einsum("mcx,cx->mc", coef[:, 0, None] - self._cush_a[None], self._cush_n)
        q0 = q0 - r[:, None]
        q1 = coef[:, 1] @ self._cush_n.T
        q2 = coef[:, 2] @ self._cush_n.T
        # the path gets there within the frame: farther at its start, not at its end
        end = q0
        start = q0 + q1 * tau0 + q2 * tau0 * tau0
        hit = (start > 0.0) & (end <= 0.0)
        # (a slow path that comes within the noise of the line, still coming: a touch its
        # sightings may show short of the line, judged on by ``_slow_bounces``)
        near = (start > end) & (end > 0.0) & (end <= _SLOW_NEAR_MM) & (q1 < 0.0)
        for m, k in zip(*np.nonzero(near), strict=True):
            s = int(sl[m])
            v_in = -float(eval_velocity(coef[m], 0.0) @ self._cush_n[k])
            p = eval_path(coef[m], 0.0)
            if (v_in < _SCAN_FIRM_IN_MM_S and not self._cushion_recent(s, int(k), t_a)
                    and self._beside_cushion(int(k), p, float(r[m]))):
                self._slow_roots.setdefault((s, int(k)), _SlowRoot(t_a, p, a, False, True))
        if not np.any(hit):
            return
        for m, k in zip(*np.nonzero(hit), strict=True):
            s = int(sl[m])
            tc = line_touch(coef[m], self._cush_a[k], self._cush_n[k], float(r[m]),
                            tau0, 0.0)
            if tc is None:
                continue
            if self._cushion_recent(s, int(k), t_a + tc):
                continue
            p = eval_path(coef[m], tc)
            # (its edge meets the rubber up to a radius past the straight nose's end)
            if not self._beside_cushion(int(k), p, float(r[m])):
                continue
            tt, xa = self._samples(s, a, a + look, t_a)
            if len(tt) < 2:
                continue
            n = self._cush_n[k]
            v_in = -float(eval_velocity(coef[m], tc) @ n)
            # (a slow ball's few frames after, with a sighting's noise, give a curve that
            # runs wild back to the root: it rolls on straight, and a line through them
            # says where it went; a slow Novuss disc slides to a stop within them)
            straight = self._rolls and v_in < _SCAN_FIRM_IN_MM_S
            after, _ = fit_path(tt, xa, 1 if len(tt) < 4 or straight else 2)
            gap = float((eval_path(after, tc) - self._cush_a[k]) @ n) - float(r[m])
            v_out = float(eval_velocity(after, tc) @ n)
            # (slower ones are objects sliding along the cushion, or noise; a firm stop
            # counts only on the straight nose: past its end, by a pocket, a ball that
            # stops coming in rolls on into the mouth)
            firm = v_in >= _SCAN_FIRM_IN_MM_S and self._beside_cushion(int(k), p)
            out = v_out >= (-_SCAN_OUT_MM_S if firm else _SCAN_OUT_MM_S)
            if abs(gap) > s_.cushion_gate_mm and v_in >= _SCAN_FIRM_IN_MM_S and (
                    v_out > v_in or s in self._from_start):
                # it left faster than its path in came, as no cushion sends a ball: that
                # path, fitted from the frame it was struck in, runs slow and late (a break
                # ball off the rack). So may a path in drawn from where it left rest, two
                # sightings on: a second hit within that frame bent it (a pawn struck into
                # its neighbour). The path after times the bounce, where it meets the path
                # in's track on the cushion
                left = self._left_cushion(tt, xa, int(k), float(r[m]), tau0 - self._dt, tc, p)
                if left is None or self._cushion_recent(s, int(k), t_a + left[0]):
                    continue
                (tc, p), gap = left, 0.0
            if abs(gap) > s_.cushion_gate_mm:
                continue
            if v_in < _SCAN_FIRM_IN_MM_S:
                # (a slow path in is seen near the line as it meets it: one seen clear of
                # it in the frames either side, beyond its noise and what it moves in
                # between, met nothing; a sliding disc's root, fitted through noise)
                tt_n, xa_n = self._samples(s, a - 2, a, t_a)
                near_t = np.abs(tt_n - tc) <= self._dt
                if np.any(near_t):
                    d_n = (xa_n[near_t] - self._cush_a[k]) @ n - float(r[m])
                    if np.all(d_n > 3.0 * self._sigma_of(s, a) + max(v_in, abs(v_out))
                              * np.abs(tt_n[near_t] - tc)):
                        continue
            if v_in < _SCAN_IN_MM_S or not out:
                if v_in < _SCAN_FIRM_IN_MM_S:  # (a slow path's way in and out: judged on)
                    # (how far past the line a sliding disc's path in, slowing as fitted,
                    # would have stopped: friction alone could not stop it short of there)
                    past = (-(q0[m, k] - q1[m, k] ** 2 / (4.0 * q2[m, k]))
                            if not self._rolls and q2[m, k] > 0.0 else 0.0)
                    known = self._slow_roots.get((s, int(k)))
                    if known is None or known.near:  # (a touch replaces a near one)
                        self._slow_roots[(s, int(k))] = _SlowRoot(
                            t_a + tc, p, a, v_in >= _SCAN_IN_MM_S and past > _STOP_PAST_MM)
                continue
            self._cushion_event(s, int(k), t_a + tc, a, p, self._quality([s], a))

    def _near_pairs(self, moving: np.ndarray, paths: dict[int, np.ndarray], a: int,
                    t_a: float) -> None:
        """Pairs whose paths (fitted before frame ``a``) end within ``_SLOW_NEAR_MM`` of
        touching, closing slowly (under ``_SCAN_FIRM_IN_MM_S``): kept for
        ``_slow_contacts``, which judges them on the sightings that follow."""
        have = [int(m) for m in moving if int(m) in paths]
        if not have:
            return
        others = ((self._mode != _MOVING) & self._seen[:, a % self._hist]).nonzero()[0]
        cand = np.array(have + others.tolist(), dtype=int)
        coef = np.stack([paths[k] for k in have])  # (M, 3, 2): at tau 0, c[0] and c[1]
        xy = np.vstack([coef[:, 0], self._rest_xy[others]])
        v = np.vstack([coef[:, 1], np.zeros((len(others), 2))])
        rel = xy[None] - coef[:, None, 0]  # (M, N, 2): from each mover to each candidate
        dist = np.sqrt((rel * rel).sum(axis=2))
        gap = dist - (self._radius[cand][None] + self._radius[have][:, None])
        near = gap <= _SLOW_NEAR_MM
        near[np.arange(len(have)), np.arange(len(have))] = False
        if not near.any():
            return
        closing = ((v[None] - coef[:, None, 1]) * rel).sum(axis=2) / np.maximum(dist, 1e-9)
        near &= (closing < 0.0) & (closing > -_SCAN_FIRM_IN_MM_S)
        for m, n in zip(*near.nonzero(), strict=True):
            key = (min(int(cand[m]), int(cand[n])), max(int(cand[m]), int(cand[n])))
            if t_a - self._last_pair_t.get(key, -math.inf) > 4.0 * self._dt:
                self._slow_pairs.setdefault(key, (t_a, a))

    def _slow_contacts(self, a: int, look: int) -> None:
        """Pairs from ``_near_pairs`` that met: the gap between their sightings closes and
        then opens again, each faster than the noise of its speed allows (only a contact
        turns two objects apart). Timed where the two straight lines meet."""
        h = self._hist
        for (i, j), (t_c, a0) in list(self._slow_pairs.items()):
            if (a + look - a0 > _SLOW_BOUNCE_FRAMES
                    or self._last_pair_t.get((i, j), -math.inf) >= t_c - 4.0 * self._dt):
                del self._slow_pairs[(i, j)]
                continue
            cols = self._frames(a0 - _SLOW_BOUNCE_FRAMES, a + look) % h
            cols = cols[self._seen[i, cols] & self._seen[j, cols]]
            tt = self._t[cols] - t_c
            began = max(self._run_began(i), self._run_began(j)) - t_c
            after, before = tt > 0.0, (tt < 0.0) & (tt > began)
            if after.sum() < 4 or before.sum() < 4:
                continue
            d = self._xy[i, cols] - self._xy[j, cols]
            gap = np.sqrt((d * d).sum(axis=1)) - float(self._radius[i] + self._radius[j])
            sig = math.hypot(self._sigma_of(i, a), self._sigma_of(j, a))
            g = gap_lines(tt, gap, before, after)
            came, left = self._came_and_left(g, sig, self.settings.contact_gate_mm)
            # (their relative velocity along the line of centres turned, by about as much
            # as the gap's rate did: a pass by within a mm closes and opens the gap too,
            # the line of centres swinging round at one relative velocity)
            rel_in = fit_path(tt[before][-GAP_LINE_IN:], d[before][-GAP_LINE_IN:], 1)[0][1]
            rel_out = fit_path(tt[after], d[after], 1)[0][1]
            nrm = d[before][-1] / max(float(np.linalg.norm(d[before][-1])), 1e-9)
            turn = float((rel_out - rel_in) @ nrm)
            if came and left and turn >= max(3.0 * sig * math.hypot(g.se_in, g.se_out),
                                             0.5 * (g.v_out - g.v_in)):
                del self._slow_pairs[(i, j)]
                dt = float(np.clip(g.vertex_s, -self._dt, self._dt))
                first, last = cols[before][[0, -1]]
                # (the striker: the one that moved more over the frames before)
                moved = [float(np.linalg.norm(self._xy[s, last] - self._xy[s, first]))
                         for s in (i, j)]
                striker, other = (i, j) if moved[0] >= moved[1] else (j, i)
                self._last_pair_t[(i, j)] = self._T(a)
                self._event(EventKind.CONTACT, t_c + dt, a,
                            (self._ref(striker), self._ref(other)),
                            self._xy[striker, last], 0.6 * self._quality([i, j], a),
                            self._dt / 2)

    def _slow_bounces(self, a: int, look: int) -> None:
        """Touches of slow paths (``_slow_roots``) judged again on every sighting since:
        a bounce when the object came in and leaves the cushion's line, each by more than
        the noise of that speed allows (straight lines through the sightings before and
        after: a slow path curved through the bounce, fitted whole, comes in too slow);
        none when it does not within ``_SLOW_BOUNCE_FRAMES``, or it met another object
        first (which may have drawn it off)."""
        for (s, k), root in list(self._slow_roots.items()):
            t_c, p, a0 = root.t_s, root.xy_mm, root.frame
            if (a + look - a0 > _SLOW_BOUNCE_FRAMES or self._contact_t.get(s, -math.inf) > t_c
                    or self._cushion_recent(s, k, t_c)):
                del self._slow_roots[(s, k)]
                continue
            tt, xa = self._samples(s, a0 - _SLOW_BOUNCE_FRAMES, a + look, t_c)
            after = tt > 0.0
            before = (tt < 0.0) & (tt > self._run_began(s) - t_c)
            if after.sum() < 4 or before.sum() < 4:
                continue
            gap = (xa - self._cush_a[k]) @ self._cush_n[k] - float(self._radius[s])
            sig = self._sigma_of(s, a)
            gate = self.settings.cushion_gate_mm
            g = gap_lines(tt, gap, before, after)
            came, left = self._came_and_left(g, sig, gate)
            # (or a disc whose path in would have run on past the line stays there)
            stays = root.stopped_past and abs(g.at_out) <= gate and abs(
                g.v_out) <= _SCAN_OUT_MM_S + 3.0 * sig * g.se_out
            if came and (left or stays):
                del self._slow_roots[(s, k)]
                # (timed where the two lines meet, the bottom of the V; one that stays
                # there, where its path in met the line)
                dt = float(np.clip(g.vertex_s, -self._dt, self._dt)) if left else 0.0
                self._cushion_event(s, k, t_c + dt, a, p, 0.8 * self._quality([s], a))

    @staticmethod
    def _came_and_left(g: GapLines, sigma_mm: float, gate_mm: float) -> tuple[bool, bool]:
        """Whether a gap's lines (``gap_lines``, samples of noise ``sigma_mm``) show it
        closing at ``_SCAN_IN_MM_S`` or more and opening at ``_SCAN_OUT_MM_S`` or more,
        each past three standard errors, both lines within ``gate_mm`` of touching."""
        came = -g.v_in >= max(_SCAN_IN_MM_S, 3.0 * sigma_mm * g.se_in) and abs(
            g.at_in) <= gate_mm
        left = g.v_out >= max(_SCAN_OUT_MM_S, 3.0 * sigma_mm * g.se_out) and abs(
            g.at_out) <= gate_mm
        return came, left

    def _left_cushion(self, tt: np.ndarray, xa: np.ndarray, k: int, r: float, tau0: float,
                      tau1: float, met: np.ndarray) -> tuple[float, np.ndarray] | None:
        """(time, centre) where a fast object seen at ``tt``, ``xa`` after a bounce, run
        back, left cushion ``k``'s touching line in ``[tau0, tau1]``, within the cushion
        gate along it of ``met``, where its path in met that line; None if it did not.
        (A line through its first three sightings after: a fast ball meets the next
        cushion or ball within a few more.)"""
        after, _ = fit_path(tt[:3], xa[:3], 1)
        tl = line_touch(after, self._cush_a[k], self._cush_n[k], r, tau0, tau1, leaving=True)
        if tl is None:
            return None
        q = eval_path(after, tl)
        n = self._cush_n[k]
        along = abs(float((q - met) @ np.array([-n[1], n[0]])))
        if along > self.settings.cushion_gate_mm or not self._beside_cushion(k, q, r):
            return None
        return tl, q

    def _seen_off_rest(self, s: int, k: int) -> bool:
        """Whether frame ``k`` saw resting slot ``s`` farther from its rest than noise
        moves it (``_onset_mm``)."""
        return bool(self._seen[s, k % self._hist]) and float(np.linalg.norm(
            self._xy[s, k % self._hist] - self._rest_xy[s])) > float(
            self._onset_mm(self._sigma_of(s, k)))

    def _onset_of(self, s: int, a: int, t_a: float) -> float | None:
        """When resting slot ``s`` left its rest: in the frames before ``a``, back to the
        one before it was last seen (struck while lost from view, it left then)."""
        tau0, tau1, _ = self._window(a, s)
        # (seen off its rest once before a gap, and not again till now: the motion's first
        # sighting, which one alone could not tell from noise)
        k = self._last_seen_frame(s, a, max(0, self._n - self._hist, a - 8))
        off = self._seen_off_rest(s, k)
        tt, xa = self._samples(s, k if off else a, a + self.settings.lag_frames, t_a)
        tc = onset_time(tt, xa, self._rest_xy[s], tau0 - self._dt, tau1)
        back = min(_CREEP_BACK_FRAMES, int(self._rest_n[s]))
        if back >= 3 and not off and not len(self._resting_against(s, t_a)):
            # (a creep shows its onset frames after it began, its first mm below the
            # noise: the sightings at rest before and moving after, all together, time it;
            # one in a pack is timed by the hit the pack passed on)
            tb, xb = self._samples(s, a - back, a + self.settings.lag_frames, t_a)
            creep = creep_onset(tb, xb, self._rest_xy[s], -back * self._dt, tau1,
                                self._sigma_of(s, a))
            if creep is not None and creep[1] < _CREEP_ONSET_MM_S and (
                    tc is None or creep[0] < tc):
                tc = creep[0]
        return None if tc is None else t_a + tc

    def _restarts(self, s: int, a: int, look: int, t_a: float) -> bool:
        """Whether slot ``s``, which came to rest during this shot, goes on along the
        direction it came from: a slow roller that only looked at rest, not a new motion
        (nor one at rest for long: a rack ball a break left still, hit the same way on)."""
        if (self._rest_shot[s] != self._shot or not np.any(self._came_dir[s])
                or t_a - self._rest_t[s] > _RESTART_REST_S):
            return False
        tt, xa = self._samples(s, a, a + look, t_a)
        if len(tt) == 0:
            return False
        rel = xa[-1] - self._rest_xy[s]
        dist = max(float(np.linalg.norm(rel)), 1e-9)
        since = t_a + float(tt[-1]) - float(self._t_start[s])
        slow = not since > 0 or dist / since < _RESTART_MM_S
        return slow and float(rel @ self._came_dir[s]) / dist > 0.8

    def _struck_while_unseen(self, s: int, tt: np.ndarray, xa: np.ndarray, t_a: float,
                             t_prev: float) -> tuple[bool, float]:
        """Whether a resting track, last seen at ``t_prev`` (-inf: not in the history
        kept), came back after a gap farther from its rest than a hand moves it in that
        time (``strike_min_speed_mm_s`` x 4) and still rolling, and when it left: just
        after it was last seen at rest."""
        if not len(tt) or not math.isfinite(t_prev):
            return False, t_a
        gap_s = t_a + float(tt[0]) - t_prev
        dist = float(np.linalg.norm(xa[0] - self._rest_xy[s]))
        fast = gap_s > 1.5 * self._dt and dist > 4 * self.settings.strike_min_speed_mm_s * gap_s
        # and still rolling when it is seen again (a ball carried by hand is set down)
        rolling = len(tt) >= 2 and float(np.linalg.norm(xa[-1] - xa[0])) > (
            self.settings.strike_min_speed_mm_s * float(tt[-1] - tt[0]))
        return fast and rolling, t_prev + 0.5 * self._dt

    def _run_back_to_rest(self, s: int, tt: np.ndarray, xa: np.ndarray,
                          after_s: float) -> float | None:
        """When (relative to the sightings' frame) slot ``s``'s straight motion through its
        sightings ``tt``, ``xa`` (a line: the way back may be long, and a curve through a
        few frames' noise runs wild there) passes over its rest position, after
        ``after_s``; None if it passes it by (it bounced off something on the way) or the
        sightings are too few."""
        if len(tt) < 2:
            return None
        (p0, v, _), _ = fit_path(tt, xa, 1)
        speed2 = float(v @ v)
        if speed2 < self.settings.strike_min_speed_mm_s**2:
            return None
        rest = self._rest_xy[s]
        t_rest = float((rest - p0) @ v) / speed2
        miss = float(np.linalg.norm(p0 + v * t_rest - rest))
        if miss > self._radius[s] or not after_s < t_rest < float(tt[0]):
            return None
        return t_rest

    def _unexplained_onset(self, s: int, a: int, look: int, t_a: float,
                           onset: np.ndarray, soon: np.ndarray) -> bool:
        """A stroke (True: the striker now moves) or a hand."""
        s_ = self.settings
        tau0, tau1, _ = self._window(a)
        tt, xa = self._samples(s, a, a + look, t_a)
        # (when it was last seen, at rest; not at all in the history kept: unknown. A
        # sighting already off its rest, the motion's first before a gap, is not one)
        oldest = max(0, self._n - self._hist)
        seen_at = self._last_seen_frame(s, a, oldest)
        if self._seen_off_rest(s, seen_at):
            seen_at = self._last_seen_frame(s, seen_at, oldest)
        rested_t = self._T(seen_at) if self._seen[s, seen_at % self._hist] else -math.inf
        timed = self._onset_of(s, a, t_a)
        t_on = t_a + tau0 / 2 if timed is None else timed
        ballistic = False
        if len(tt) >= 2:  # (two when it is lost from view again at once: a fast stroke's blur)
            rel = xa - self._rest_xy[s]
            far = rel[-1] / max(float(np.linalg.norm(rel[-1])), 1e-9)
            sp = rel @ far
            c = np.polyfit(tt, sp, 2 if len(tt) >= 4 else 1)
            if len(c) == 3:
                v0 = float(2 * c[0] * (t_on - t_a) + c[1])
                ballistic = v0 > s_.strike_min_speed_mm_s and c[0] < 0.25 * v0 / max(
                    float(tt.max() - (t_on - t_a)), self._dt)
            else:
                ballistic = float(c[0]) > s_.strike_min_speed_mm_s
            gone = np.linalg.norm(rel, axis=1) > self._noise_mm(s, a)
            if not ballistic and np.count_nonzero(gone) >= 2:
                # mean speed between the first and last samples clear of the rest
                k0, k1 = gone.nonzero()[0][[0, -1]]
                v_mean = float(np.linalg.norm(xa[k1] - xa[k0])) / float(tt[k1] - tt[k0])
                ballistic = v_mean > _HAND_MAX_MM_S
                if ballistic and timed is None:
                    # it left where that speed, run back, meets its rest
                    t_on = t_a + float(tt[k0]) - float(np.linalg.norm(rel[k0])) / v_mean
        others = (onset | soon).nonzero()[0]
        others = others[others != s]
        if len(others) and not ballistic:
            # struck into an object at once (stun, follow): it starts in the same frame, or
            # shows its start within the frames ahead (a slow first sighting off its rest)
            near = np.linalg.norm(self._rest_xy[others] - self._rest_xy[s], axis=1) < 300.0
            ballistic = bool(np.any(near)) and len(tt) >= 1 and float(
                np.linalg.norm(xa[0] - self._rest_xy[s])) > 20.0
        if not ballistic and not self._shot_on:
            # too fast to see: the striker left its rest while the detector lost it (a
            # break's motion blur) and came back far away, already bouncing off the rack
            jumped, t_jump = self._struck_while_unseen(s, tt, xa, t_a, rested_t)
            if jumped:
                ballistic, t_on = True, t_jump
        bounce = None
        if not self._shot_on and self._labels[s] in s_.striker_labels:
            # driven into an object at once and seen coming back (its path reverses)
            bounce = self._bounced_at_stroke(s, a, t_a, tt, xa, soon, onset | soon)
            if bounce is not None:
                ballistic, t_on = True, min(t_on, t_a + bounce[1] - 0.002)
        off_cushion = None
        if not self._shot_on and self._labels[s] in s_.striker_labels and bounce is None:
            # driven straight into a cushion and seen coming off it (a puck set by its own
            # rail): no hand throws an object into a cushion. Its onset, run back over a
            # path the bounce bent, is no guide: it left after it was last seen at rest
            # and before the bounce.
            off_cushion = self._bounce_before_seen(s, a, t_a, rested_t - t_a,
                                                   s_.strike_min_speed_mm_s, True)
            if off_cushion is not None:
                ballistic, t_on = True, t_a + off_cushion[3]
        if ballistic and self._novuss_edges is not None and not self._shot_on:
            # a Novuss stroke is played with the puck set in an edge zone (§1.4); a puck
            # driven off from the middle of the board is a hand sliding it back
            depth = max(float(signed_depth_mm(line, self._rest_xy[s][None])[0])
                        for line in self._novuss_edges)
            ballistic = depth >= -self._radius[s]
        if not self._shot_on and self._labels[s] in s_.striker_labels and ballistic:
            # (it was seen at rest until then: a start run back to before that is a bent
            # path's, a stroke into an object that took most of its speed)
            t_on = max(t_on, rested_t)
            if (timed is None and off_cushion is None and bounce is None
                    and rested_t < t_a + tau0 - self._dt):
                # struck while hidden (under the cue, the arm) for longer than the onset is
                # looked for: its straight way run back to its rest
                back = self._run_back_to_rest(s, tt, xa, rested_t - t_a)
                t_on = t_on if back is None else t_a + back
            if bounce is None:
                bounce = self._hit_before_seen(s, t_on, a, t_a, tt, xa)
                if bounce is not None:
                    t_on = min(t_on, t_a + bounce[1] - 0.002)
            self._shot += 1
            self._shot_on = True
            self._last_motion_t = t_on
            # (what left rest within two frames before the stroke went with it, its onset
            # seen early in the noise: no hand moves a piece as the stroke is played)
            early = np.nan_to_num(self._t_start, nan=-np.inf) >= t_on - 2.0 * self._dt
            early &= self._mode == _MOVING
            # (one taken for a hand's, seen leaving before the stroke was: it waits for a
            # cause, a push from what the striker hit)
            self._orphan[early & self._carry] = True
            self._carry[early] = False
            self._event(EventKind.SHOT_START, t_on, a, (self._ref(s),), self._rest_xy[s],
                        self._quality([s], a))
            if off_cushion is not None:
                k, tc, touch, _ = off_cushion
                self._cushion_event(s, k, t_a + tc, a, touch, 0.8 * self._quality([s], a))
            if bounce is not None:
                j, tc, touch, conf = bounce
                via = None if off_cushion is not None else self._cushion_on_way(
                    s, a, t_a, rested_t - t_a, tc, touch)
                if via is not None:
                    self._cushion_event(s, via[0], t_a + via[1], a, via[2],
                                        0.8 * self._quality([s], a))
                # what left rest with it or since, unseen striker and all, was no hand
                since = np.nan_to_num(self._t_start, nan=-np.inf) >= t_a + tc - self._dt
                self._carry[since & (self._mode == _MOVING)] = False
                self._last_pair_t[(min(s, j), max(s, j))] = t_a
                self._struck_t[j] = t_a + tc
                self._note_hit(j, t_a + tc, touch)
                # (read from its path after, run back: when it flew unseen for frames on
                # its way in, a break's blur, those frames say nothing of it; those of its
                # path after do. Hit as it left, the frames round the stroke tell.)
                flew = t_a + tc - rested_t > 2.0 * self._dt
                self._event(EventKind.CONTACT, t_a + tc, a, (self._ref(s), self._ref(j)),
                            touch, conf * self._quality([j], a)
                            * self._quality([s], a, from_a=flew), 0.01)
                self._pressed_cushion(j, self._rest_xy[j] - touch, t_a + tc, a)
            return True
        if not self._shot_on:
            self._carry[s] = True  # a hand: reported when it rests again
        # during a shot nothing is a hand: a slow roller that looked at rest and goes on,
        # or a push too gentle to time; it moves on without an event
        return False

    def _removal(self, s: int, a: int, state: int) -> bool:
        """The pocket or off-table event of slot ``s``, gone at frame ``a``; True when a
        resting object's contact was found here too (knocked away unseen)."""
        t_a = self._T(a)
        last = [k for k in range(max(0, a - self._hist + 1, a - 20), a) if
                self._seen[s, k % self._hist]]
        if state == TrackState.OFF_TABLE and not self._shot_on:
            return False
        a_last = last[-1] if last else a - 1
        if self._shot_on and self._mode[s] == _REST and a - a_last > self.settings.lag_frames:
            knock = self._knocked_unseen(s, a_last, a, t_a)
            if knock is not None:
                self._knocked_away(s, a, state, *knock)
                return True
        tau, xy = self._samples(s, max(a_last - self.settings.fit_frames, self._seg0[s]),
                                a_last, t_a)
        # (from its last bounce on, where that leaves two sightings: a curve through the
        # bend runs wild past them)
        k0 = int(np.searchsorted(tau, self._run_began(s) - t_a))
        if len(tau) - k0 >= 2:
            tau, xy = tau[k0:], xy[k0:]
        tau0 = self._T(a_last) - t_a if last else -self._dt
        conf = self._quality([s], a_last, gone_after=True) * (1.0 if a - a_last <= 2 else 0.6)
        refs = (self._ref(s),)
        coef = fit_path(tau, xy, 2 if len(tau) >= 4 else 1)[0] if len(tau) >= 2 else None
        if state == TrackState.POCKETED:
            off = self._cushion_before_pocket(s, a, a_last, t_a)
            p_last = xy[-1] if len(xy) else self._rest_xy[s]
            k = int(np.argmin(np.linalg.norm(self._pock_c - p_last, axis=1)))
            tc = None
            pc = still_path(self._pock_c[k])
            if coef is not None:
                tc = first_touch(coef, pc, float(self._pock_r[k]), tau0, 0.0)
            t_ev = t_a + tc if tc is not None else t_a + tau0 / 2
            p = eval_path(coef, t_ev - t_a) if coef is not None else p_last
            if off is not None:
                # in off that cushion, on its way out of it; a way that misses the pocket
                # (a jaw turns a ball its own way) leaves the drop to the path seen, but
                # not before the bounce
                t_off, p_off, v_off = off
                way = np.array([p_off, v_off, [0.0, 0.0]])
                dt_in = first_touch(way, pc, float(self._pock_r[k]), 0.0,
                                    max(-t_off, self._dt))
                if dt_in is not None:
                    t_ev, p = t_a + t_off + dt_in, eval_path(way, dt_in)
                    if self._lines:  # (the lines it crossed on its way off that cushion)
                        self._crossings_on_way(s, way, max(tau0 - t_off, 0.0), dt_in,
                                               t_a + t_off, a, conf, p_last)
                        tc = min(tc, t_off) if tc is not None else None
                elif t_ev < t_a + t_off:
                    t_ev, p = t_a + t_off, p_off
            if coef is not None and tc is not None and tc > tau0 and self._lines:
                self._crossings_on_way(s, coef, tau0, tc, t_a, a, conf, p_last)
            elif off is not None and self._lines and off[0] > tau0:
                # (no path in reaches the pocket: the straight way from its last place
                # into that cushion)
                way = np.array([p_last, (off[1] - p_last) / (off[0] - tau0), [0.0, 0.0]])
                self._crossings_on_way(s, way, 0.0, off[0] - tau0, t_a + tau0, a,
                                       0.5 * conf, p_last)
            elif tc is None and off is None and self._lines and tau0 < 0:
                # (a path that does not reach it, or none: knocked from rest, or off a
                # cushion unseen; the straight way from its last place to the pocket, at
                # an even pace up to this frame)
                way = np.array([p_last, (self._pock_c[k] - p_last) / -tau0, [0.0, 0.0]])
                self._crossings_on_way(s, way, 0.0, -tau0, t_a + tau0, a, 0.5 * conf,
                                       p_last)
            self._event(EventKind.POCKET, t_ev, a, refs, p, conf,
                        pocket=self.spec.pockets[k].name)
            return False
        # off the table: over the nearest cushion
        p_last = xy[-1] if len(xy) else self._rest_xy[s]
        t_ev = t_a + tau0 / 2
        if coef is not None:
            r = float(self._radius[s])
            best = None
            for k in range(len(self._cush_a)):
                tc = line_touch(coef, self._cush_a[k], self._cush_n[k], r, tau0, 0.0)
                if tc is not None and (best is None or tc < best[0]):
                    best = (tc, k)
            if best is not None:
                t_ev = t_a + best[0]
                p_last = eval_path(coef, best[0])
                self._event(EventKind.CUSHION, t_ev, a, refs, p_last, conf,
                            cushion=self.spec.cushions[best[1]].name)
        self._event(EventKind.OFF_TABLE, t_ev, a, refs, p_last, conf)
        return False

    def _knocked_unseen(self, s: int, a_last: int, a: int, t_a: float
                        ) -> tuple[int, float, np.ndarray, float] | None:
        """The mover that came to resting slot ``s``'s place after it was last seen (frame
        ``a_last``) and before the tracker gave it up for knocked off the surface (a blur
        the detector missed): (mover, contact time relative to ``t_a``, mover's position
        then, its speed in mm/s: inf when unknown) at its first approach within touching
        (and the contact gate), or None."""
        rest = self._rest_xy[s]
        h = self._hist
        for k in range(a_last + 1, a + 1):
            col = k % h
            cand = (self._seen[:, col] & (self._mode == _MOVING)).nonzero()[0]
            cand = cand[cand != s]
            if not len(cand):
                continue
            gap = np.linalg.norm(self._xy[cand, col] - rest, axis=1) - (
                self._radius[cand] + self._radius[s])
            if not np.any(gap < self.settings.contact_gate_mm):
                continue
            m = int(cand[np.argmin(gap)])
            tt, xa = self._samples(m, k - 1, k + 1, t_a)
            tau0, tau1 = self._T(k - 1) - t_a, self._T(k) - t_a
            tc, v_mm_s = None, math.inf
            if len(tt) >= 2:
                coef = fit_path(tt, xa, 1)[0]
                tc = first_touch(coef, still_path(rest), float(self._radius[m] + self._radius[s]),
                                 tau0 - self._dt, tau1)
                p = eval_path(coef, tc if tc is not None else 0.5 * (tau0 + tau1))
                v_mm_s = float(np.linalg.norm(coef[1]))
            else:
                p = self._xy[m, col]
            tc = 0.5 * (tau0 + tau1) if tc is None else tc
            if math.isfinite(self._t_start[m]):  # (not before the mover left its rest)
                tc = max(tc, float(self._t_start[m]) - t_a + 1e-3)
            return m, tc, p, v_mm_s
        return None

    def _knocked_away(self, s: int, a: int, state: int, m: int, tc: float,
                      p_m: np.ndarray, v_mm_s: float) -> None:
        """Resting slot ``s`` struck by mover ``m`` at ``tc`` and gone from the surface
        unseen: the contact, and the pocket (the one nearest the line from the mover through
        its place) or the fall off the table, at the contact (when after, the camera does
        not say), each with the doubt of an inference. The lines on its way to that pocket
        are crossed at the mover's speed (a struck pawn leaves about as fast)."""
        t_a = self._T(a)
        conf = 0.5 * self._quality([m], a)
        rest = self._rest_xy[s]
        self._event(EventKind.CONTACT, t_a + tc, a, (self._ref(m), self._ref(s)), p_m, conf,
                    0.5 * self._dt)
        self._last_pair_t[(min(m, s), max(m, s))] = t_a
        if state != TrackState.POCKETED:
            self._event(EventKind.OFF_TABLE, t_a + tc, a, (self._ref(s),), rest, conf)
            return
        away = rest - p_m
        away = away / max(float(np.linalg.norm(away)), 1e-9)
        rel = self._pock_c - rest
        along = rel @ away
        off = np.abs(rel[:, 0] * away[1] - rel[:, 1] * away[0])
        k = int(np.argmin(np.where(along > 0, off, np.inf)))
        if self._lines:
            to = self._pock_c[k] - rest
            dist = float(np.linalg.norm(to))
            v = min(v_mm_s, 1e6)  # (unknown: crossed at the contact)
            way = np.array([rest, to / max(dist, 1e-9) * v, [0.0, 0.0]])
            self._crossings_on_way(s, way, 0.0, dist / v, t_a + tc, a, conf, rest)
        self._event(EventKind.POCKET, t_a + tc, a, (self._ref(s),), self._pock_c[k], conf,
                    pocket=self.spec.pockets[k].name)

    def _run_began(self, s: int) -> float:
        """When slot ``s``'s present straight run began: where it left rest or last
        bounced off a cushion or a ball (-inf: not known)."""
        began = max([self._contact_t.get(s, -math.inf),
                     *(t for (j, _), t in self._last_cush_t.items() if j == s)])
        if np.isfinite(self._t_start[s]):  # (NaN: it was moving when first seen)
            began = max(began, float(self._t_start[s]))
        return began

    def _run_start(self, s: int, began: float) -> tuple[float, np.ndarray] | None:
        """(time, centre) where slot ``s``'s present run began at ``began``, when known:
        where it left rest, or where it hit an object as the mover."""
        if float(self._t_start[s]) == began:
            return began, self._start_xy[s]
        hit = self._struck_from.get(s)
        return hit[:2] if hit is not None and hit[0] == began else None

    def _cushion_before_pocket(self, s: int, a: int, a_last: int, t_a: float
                               ) -> tuple[float, np.ndarray, np.ndarray] | None:
        """(time relative to frame ``a``, centre, velocity off it) of a cushion that slot
        ``s`` hit in its last frames before it fell into a pocket (off a cushion by a
        corner pocket), too late for a path after it to be fitted: the line through the
        positions before reaches the cushion's touching line before the next position,
        which lies back on the table side of it, or before the frame that has it in the
        pocket, outside the pocket's capture circle by more than its noise (it could only
        get there by a bounce). Or a pocket's jaw, which the line meets before it could
        fall in (``_jaw_touch``). (The bend may have begun a new segment: positions are
        taken across it.)"""
        tau, xy = self._samples(s, max(a_last - 6, int(self._first[s])), a_last, t_a)
        tol = self._noise_mm(s, a)
        r = float(self._radius[s])
        # (a run begins where it left rest, or where it last bounced off a cushion or a
        # ball: two sightings since make a run too)
        began = self._run_began(s)
        k0 = int(np.searchsorted(tau, began - t_a))
        start = self._run_start(s, began)
        if k0 == len(tau) - 1 and start is not None:
            # (seen once since the run began: where and when it began is its other point)
            tau = np.insert(tau, k0, start[0] - t_a)
            xy = np.insert(xy, k0, start[1], axis=0)
        for m in range(len(tau) - 1, 0, -1):
            lo = max(0, m - 3)
            if lo < k0 < m:
                lo = k0
            if m - lo < (1 if lo == k0 > 0 else 2):
                continue
            before, rms = fit_path(tau[lo:m + 1], xy[lo:m + 1], 1)
            if rms > tol:
                continue  # (not one straight run: it left rest or bent in it)
            last = m == len(tau) - 1
            # (the touch may lie a little before the run's last sighting: as far back as
            # the run goes in the noise of that sighting)
            t_lo = max(float(tau[m - 1]),
                       float(tau[m]) - tol / max(float(np.linalg.norm(before[1])), 1e-9))
            for k in range(len(self._cush_a)):
                n = self._cush_n[k]
                if -float(before[1] @ n) < _SCAN_IN_MM_S:
                    continue
                tc = line_touch(before, self._cush_a[k], n, r, t_lo,
                                0.0 if last else float(tau[m + 1]))
                if tc is None:
                    continue
                p = eval_path(before, tc)
                if last:
                    back = bool(np.all(np.linalg.norm(self._pock_c - p, axis=1)
                                       > self._pock_r + self._sigma_of(s, a)))
                    # (a run that enters a pocket's point of no return before that
                    # cushion fell in on its way: nothing to bounce)
                    back = back and not any(
                        first_touch(before, still_path(c), float(rc), t_lo, tc) is not None
                        for c, rc in zip(self._pock_c, self._pock_r, strict=True))
                else:
                    back = float((xy[m + 1] - self._cush_a[k]) @ n) - r >= -tol
                if (back and self._beside_cushion(k, p)
                        and not self._cushion_recent(s, k, t_a + tc)):
                    self._cushion_event(s, k, t_a + tc, a, p, 0.7 * self._quality([s], a))
                    return tc, p, _reflect(eval_velocity(before, tc), n)
            # or a pocket's jaw in the mouth: the straight run meets it before it could
            # fall in, and the next position is off that run (it bounced)
            jaw = self._jaw_touch(before, r, t_lo, 0.0 if last else float(tau[m + 1]),
                                  3.0 * self._sigma_of(s, a))
            if jaw is not None:
                tc, k, p = jaw
                off = 0.0 if last else float(np.linalg.norm(
                    xy[m + 1] - eval_path(before, float(tau[m + 1]))))
                if (last or off > tol) and not self._cushion_recent(s, k, t_a + tc):
                    self._cushion_event(s, k, t_a + tc, a, p, 0.7 * self._quality([s], a))
                    return tc, p, _reflect(eval_velocity(before, tc), self._cush_n[k])
        return None

    def _jaw_touch(self, line: np.ndarray, r: float, tau0: float, tau1: float,
                   depth_mm: float) -> tuple[float, int, np.ndarray] | None:
        """(time, cushion, centre) of the first pocket jaw or throat wall a straight run
        ``line`` of an object of radius ``r`` hits in ``[tau0, tau1]`` (a jaw by more than
        ``depth_mm``: a graze within the noise is no hit), before it enters a capture
        circle."""
        jaws = self._jaws
        if not len(jaws.xy):
            return None
        best: tuple[float, int, np.ndarray] | None = None
        for j in range(len(jaws.xy)):
            tc = first_touch(line, still_path(jaws.xy[j]), r, tau0, tau1)
            if tc is not None:
                v = line[1] / max(float(np.linalg.norm(line[1])), 1e-9)
                rel = jaws.xy[j] - line[0]
                if abs(float(rel[0] * v[1] - rel[1] * v[0])) > r - depth_mm:
                    tc = None  # (passes by within the noise of a touch)
            tw = line_touch(line, jaws.xy[j], jaws.inward[j], r, tau0, tau1)
            if tw is not None:
                along = float((eval_path(line, tw) - jaws.xy[j]) @ jaws.axis[j])
                speed_in = -float(line[1] @ jaws.inward[j])
                if not 0.0 <= along <= jaws.length_mm[j] or speed_in < _SCAN_IN_MM_S:
                    tw = None
            for t in (tc, tw):
                if t is not None and (best is None or t < best[0]):
                    best = (t, int(jaws.cushion[j]), eval_path(line, t))
        if best is None:
            return None
        for k in range(len(self._pock_c)):
            pc = still_path(self._pock_c[k])
            tin = first_touch(line, pc, float(self._pock_r[k]), tau0, best[0])
            if tin is not None:
                return None  # (it fell in before it reached the jaw)
        return best

    def _crossings(self, slots: np.ndarray, a: int) -> None:
        """Printed-line crossings of ``slots`` at frame ``a``, all slots and lines at once.
        Each object keeps the side of each line it was last placed on. A sighting on the
        other side is a crossing when it jumped there (``_CROSS_JUMP_SIGMAS`` from the last
        sighting on the old side) or the sightings ahead stay there: a slow ball rolling out
        along a line flickers across it in the noise, and each flicker would be a crossing
        there and back."""
        h = self._hist
        col = a % h
        slots = slots[self._seen[slots, col]]
        if len(slots) == 0:
            return
        oldest = max(0, self._n - h)
        d1 = self._depth(self._xy[slots, col]).T  # (S, L)
        s1 = np.where(d1 > 0, 1, -1).astype(np.int8)
        side = self._side[slots]
        k_on = self._side_k[slots]
        if self._line_circle.any():
            self._chords(slots, side, k_on, s1, a)
        for r in (side[:, 0] == 0).nonzero()[0].tolist():  # (new, or just left rest)
            s = int(slots[r])
            k0 = self._last_seen_frame(s, a, max(oldest, a - _CROSS_BACK))
            seen0 = k0 < a and bool(self._seen[s, k0 % h])
            # the side it rested on (its mean sighting, which does not flicker), else the
            # side of its last sighting
            xy0 = (self._rest_xy[s] if self._rest_n[s] > 0
                   else self._xy[s, k0 % h] if seen0 else None)
            if xy0 is None:
                side[r], k_on[r] = s1[r], a
            else:
                side[r] = np.where(self._depth(xy0[None])[:, 0] > 0, 1, -1)
                k_on[r] = k0 if seen0 else -1
        flip = s1 != side
        k_on = np.where(flip, k_on, a)
        for r, li in zip(*np.nonzero(flip), strict=True):
            s = int(slots[r])
            sig = self._sigma_of(s, a)
            k_old = int(k_on[r, li])
            d_old = (float(self._depth(self._xy[s, k_old % h][None])[li, 0])
                     if k_old >= oldest else -d1[r, li])
            if abs(d1[r, li] - d_old) < _CROSS_JUMP_SIGMAS * sig:
                _, xa = self._samples(s, a + 1, a + self.settings.lag_frames, self._T(a))
                if len(xa) and np.any((self._depth(xa)[li] > 0) != (d1[r, li] > 0)):
                    continue  # (not yet: the noise may carry it back)
            side[r, li], k_on[r, li] = s1[r, li], a
            if k_old < oldest:
                continue
            k_new = k_old + 1  # the first sighting on the new side
            while not self._seen[s, k_new % h]:
                k_new += 1
            if k_new - k_old <= _CROSS_BACK:  # (else unseen too long to time it)
                self._line_cross(s, li, k_old, k_new, sig)
        self._side[slots] = side
        self._side_k[slots] = k_on

    def _chords(self, slots: np.ndarray, side: np.ndarray, k_on: np.ndarray,
                s1: np.ndarray, a: int) -> None:
        """A circle crossed in and out again between two sightings outside it (a fast
        puck across its edge, or one unseen inside it): the straight way between them
        dips into the circle by more than their noise allows. Timed where that way meets
        the circle, and as sure as the dip is deep."""
        h = self._hist
        oldest = max(0, self._n - h, a - _CROSS_BACK)
        for li in self._line_circle.nonzero()[0].tolist():
            rows = ((side[:, li] == -1) & (s1[:, li] == -1) & (k_on[:, li] >= oldest)
                    & (k_on[:, li] < a)).nonzero()[0]
            if len(rows) == 0:
                continue
            sl, k0 = slots[rows], k_on[rows, li]
            p0, p1 = self._xy[sl, k0 % h], self._xy[sl, a % h]
            d = p1 - p0
            dd = (d * d).sum(axis=1)
            # (a chord dipping 3 sigmas in is this long at the least)
            long = dd > 8.0 * self._line_r[li] * _CHORD_SIGMAS * self.settings.noise_floor_mm
            if not long.any():
                continue
            sl, k0, p0, d, dd = sl[long], k0[long], p0[long], d[long], dd[long]
            rel = self._line_a[li] - p0
            u = np.minimum(np.maximum((rel * d).sum(axis=1) / dd, 0.0), 1.0)
            near = p0 + u[:, None] * d - self._line_a[li]
            dip = self._line_r[li] - np.sqrt((near * near).sum(axis=1))
            sig = self._sigmas_of(sl, a % h)
            for m in (dip > _CHORD_SIGMAS * sig).nonzero()[0].tolist():
                t0, t1 = self._T(int(k0[m])), self._T(a)
                z = float(dip[m]) / float(sig[m])
                conf = 0.5 * (1.0 + math.erf(z / math.sqrt(8.0))) * self._quality(
                    [int(sl[m])], a)
                for f in self._circle_cuts(li, p0[m], d[m]):  # (in, then out)
                    self._event(EventKind.LINE_CROSS, t0 + f * (t1 - t0), a,
                                (self._ref(int(sl[m])),), p0[m] + f * d[m], conf,
                                line=self._lines[li].name)

    def _line_cross(self, s: int, li: int, k0: int, k1: int, sig: float) -> None:
        """Report slot ``s`` across line ``li`` between its sightings at frames ``k0`` and
        ``k1``. Across a gap the crossing is timed on the motion before it, carried on from
        the last sighting (a fast puck crosses early in a long gap, which the straight
        chord to the next sighting would place late)."""
        h = self._hist
        p0, p1 = self._xy[s, k0 % h], self._xy[s, k1 % h]
        t0, t1 = self._T(k0), self._T(k1)
        d0, d1 = (float(d) for d in self._depth(np.stack([p0, p1]))[li])
        end_d, end_p = d1, p1
        if k1 > k0 + 1:
            kp = self._last_seen_frame(s, k0, max(0, self._n - h, k0 - _CROSS_BACK))
            if kp < k0 and self._seen[s, kp % h]:
                v = (p0 - self._xy[s, kp % h]) / max(t0 - self._T(kp), 1e-6)
                pe = p0 + v * (t1 - t0)
                de = float(self._depth(pe[None])[li, 0])
                if (de > 0) != (d0 > 0):
                    end_d, end_p = de, pe
        f = self._cross_fraction(li, p0, end_p, d0, end_d)
        t_c, xy_c = t0 + f * (t1 - t0), p0 + f * (end_p - p0)
        if abs(d1 - d0) < _CROSS_JUMP_SIGMAS * sig:
            # a slow crossing, its chord no jump past the noise: the line fitted to the
            # depths of the sightings around it times it
            tau, xy = self._samples(s, k0 - 3, k1 + 3, t0)
            if len(tau) >= 4:
                (slope, *v_mm_s), (cut, *xy0) = np.polyfit(
                    tau, np.column_stack([self._depth(xy)[li], xy]), 1)
                tc = -cut / slope if slope * (d1 - d0) > 0 else np.nan
                if tau[0] <= tc <= tau[-1]:
                    t_c, xy_c = t0 + tc, np.array(xy0) + tc * np.array(v_mm_s)
        z = min(abs(d0), abs(d1)) / sig
        conf = 0.5 * (1.0 + math.erf(z / math.sqrt(2.0))) * self._quality([s], k1)
        self._event(EventKind.LINE_CROSS, t_c, k1, (self._ref(s),), xy_c, conf,
                    line=self._lines[li].name)

    def _cross_fraction(self, li: int, p0: np.ndarray, p1: np.ndarray, d0: float,
                        d1: float) -> float:
        """How far along the straight way from ``p0`` to ``p1`` (depths ``d0`` and ``d1``
        past line ``li``, on either side of it) that line is crossed. Depth runs linearly
        along a straight line's way but not a circle's: a long way (over a gap) that
        enters it runs deep inside long before the end, so there the circle is met."""
        f = d0 / (d0 - d1)
        if not self._line_circle[li]:
            return f
        near, far = self._circle_cuts(li, p0, p1 - p0)
        f_in = near if d0 < 0 else far  # (entering: the near root; leaving: the far one)
        return f_in if 0.0 <= f_in <= 1.0 else f

    def _circle_cuts(self, li: int, p0: np.ndarray, d: np.ndarray) -> tuple[float, float]:
        """Where the straight way ``p0 + f d`` meets circle ``li``: the two ``f`` with
        ``|p0 + f d - centre| = r``, the nearer first (their mean, where it passes
        nearest the centre, when it misses the circle)."""
        rel = p0 - self._line_a[li]
        dd = float(d @ d)
        b = float(rel @ d) / dd
        c = (float(rel @ rel) - float(self._line_r[li]) ** 2) / dd
        root = math.sqrt(max(b * b - c, 0.0))
        return -b - root, -b + root

    def _crossings_on_way(self, s: int, coef: np.ndarray, tau0: float, tau1: float,
                          t_a: float, a: int, conf: float, xy_last: np.ndarray) -> None:
        """Lines slot ``s`` crossed on its way (a path ``coef`` about ``t_a``) from its last
        sighting (``tau0``, at ``xy_last``) to where it fell into a pocket (``tau1``): a
        puck into a corner pocket crosses the side zone's line just before it, and no
        sighting follows to show it. A line counts only where that sighting, not just the
        way, lies on the other side (a way fitted through the noise may start short of a
        line the sighting was already past)."""
        samp = np.linspace(tau0, tau1, 9)
        d = self._depth(eval_path(coef, samp))  # (L, 9)
        seen_side = self._depth(np.asarray(xy_last, dtype=float)[None])[:, 0] > 0
        for li in (((d[:, 0] > 0) != (d[:, -1] > 0))
                   & (seen_side != (d[:, -1] > 0))).nonzero()[0].tolist():
            k = int(((d[li, :-1] > 0) != (d[li, 1:] > 0)).nonzero()[0][0])
            f = float(d[li, k] / (d[li, k] - d[li, k + 1]))
            tc = float(samp[k] + f * (samp[k + 1] - samp[k]))
            self._event(EventKind.LINE_CROSS, t_a + tc, a, (self._ref(s),),
                        eval_path(coef, tc), conf, line=self._lines[li].name)

    def _depth(self, xy_mm: np.ndarray) -> np.ndarray:
        """Signed depth (L, N) of points past each of the detector's lines
        (``signed_depth_mm`` for all lines at once)."""
        rel = xy_mm[None] - self._line_a[:, None]  # (L, N, 2)
        straight = np.einsum("lnc,lc->ln", rel, self._line_n)
        inside = self._line_r[:, None] - np.linalg.norm(rel, axis=2)
        out: np.ndarray = np.where(self._line_circle[:, None], inside, straight)
        return out
