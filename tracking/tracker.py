"""The tracker: ``Observations`` (table mm) in, ``Tracks`` with stable identities out.

One ``Tracker`` per table and source. Each ``update(observations)`` runs, on arrays that
hold every track at once:

1. **Predict** every track in play to the frame's timestamp with the constant-velocity
   Kalman kernels of ``tracking.kalman`` (real time steps; a moving track is extrapolated
   for at most ``coast_s`` after it was last seen, then held).
2. **Associate, stage 1**: optimal assignment (``scipy.optimize.linear_sum_assignment``)
   on the squared Mahalanobis distance between predictions and observations, gated at
   ``gate_chi2``; a label that disagrees with the track's costs ``label_mismatch_cost`` on
   top, so a misread pool number still goes to the only ball it can be, while two balls
   side by side keep their own numbers. Association follows the predicted positions, not
   box overlap: a ball 167 mm further on each frame is where its filter says it will be.
3. **Associate, stage 2** (only tracks and observations left over): a track that changed
   its motion suddenly (a resting ball hit, a ball off a cushion, a pawn knocked out of a
   cluster) is found within the physical reach ``max_speed_mm_s x time unseen`` of where it
   was last seen, preferring the same label and the least total travel. Its velocity
   restarts from the displacement; a knocked one stays in stage 2 until a second sighting
   confirms that motion (its one-frame velocity predicts badly: in a knocked row of
   touching pawns a step of more than half a pawn aliases onto the neighbour). A resting
   object knocked by a contact moves away from what pushed it, so neither stage gives it a
   detection further back than the noise allows against every push on it; and a resting
   object re-found far away is moved by hand only if nothing knocked it. A pawn's
   detection where a pawn of the other colour, left without one, was predicted is that
   pawn misread, not a jump; an object headed straight into a pocket is found before it
   or not at all.
4. **States**: ``MOVING`` / ``RESTING`` with hysteresis on the filtered speed, ``OCCLUDED``
   after ``occluded_after_misses`` frames unseen, ``POCKETED`` when the centre's path
   crosses a pocket's capture circle (the point of no return of ``calibration.tables``)
   or is found inside it (rolled in hidden, seen in the cup); also when a fast track is
   lost on a path into one, directly or off a cushion, when a hidden one's coast runs
   into one, and when a resting pawn touched by a mover is seen nowhere and the line of
   centres of that touch runs into one. ``OFF_TABLE`` when a
   centre leaves the playing surface away from the pockets (or a fast track is lost
   heading over a rail).
   Pocketed and off-table tracks are never re-associated; observations in a pocket cup
   never start tracks.
5. **New identities** only from candidates seen in ``confirm_hits`` of the last
   ``confirm_window`` frames with a recent mean score of at least ``spawn_min_score``, and never
   more objects of a label than the table holds. A candidate whose label is unique (pool
   numbers, the Novuss puck) and already held takes over that identity instead: a resting
   ball unseen since before the candidate appeared was *moved* (a ``MOVED`` note), a
   pocketed or off-table one was *placed* back (``PLACED``).

Bad input never raises: a frame whose timestamp is not after the previous one is skipped
with a logged warning (the previous ``Tracks`` are returned again), observations with
labels the table does not use are dropped with a warning, empty frames and frames with a
hundred detections go through the same code.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

from calibration.tables import Family, TableSpec
from tracking.kalman import cv_predict, cv_update_position, innovation_nll
from tracking.types import NoteKind, Observations, TrackNote, Tracks, TrackState

log = logging.getLogger(__name__)

_INFEASIBLE = 1e9
#: How far (in sigmas of track and detection) a knocked object's detection may lie behind
#: it, against every push on it, and still be its own: the noise, not a motion.
_PUSH_TOL_SIGMA = 3.0
#: Push sources remembered per knocked track (a disc touches at most six like it).
_KNOCK_SOURCES = 6
#: A moving object may have been struck by a mover this near (mm, between centres, beyond
#: what both travel in ``jump_window_s``), and a filter's speed lag behind a restart or a
#: bounce (mm/s) is allowed for (see ``Tracker._moving_reach``).
_CAUSE_NEAR_MM = 200.0
_SPEED_SLACK_MM_S = 1000.0
#: ... unless its motion began (a stroke, a bounce) less than this long ago (s).
_FRESH_MOTION_S = 0.1
#: A moving object this fast (mm/s) turns back only off a cushion or an object met within
#: its travel plus this margin (mm) (see ``Tracker._turned_back``).
_TURN_MIN_SPEED_MM_S = 500.0
_TURN_NEAR_MM = 20.0
#: ... or off an object coming at it faster than this (mm/s; at rest, a filter's noise).
_TURN_NEAR_MM_S = 100.0
#: A hidden striker's second sighting runs on within ~30 degrees of its first (cos).
_SAME_LINE_COS = 0.87
#: A lost object at a cushion moving within ~11 degrees of it (sin) rolled along it.
_ALONG_CUSHION_SIN = 0.2
#: The weight of a candidate's detection score against the next one's (the mean score it
#: needs to become a track is over about its last 1 / (1 - this) = 5 detections).
_SCORE_FADE = 0.8
#: How many objects of each class a Novuss board holds at most (doubles: 4 x 8 pawns).
_NOVUSS_CAPACITY = {"puck": 1, "red_pawn": 16, "black_pawn": 16}


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    """How the tracker trades reacting fast against being fooled; all in mm and seconds.

    Motion model
    * ``q_moving_mm2_s3`` (2e5): acceleration noise density of a moving object. A sliding
      ball decelerates at 2 m/s^2; higher follows sudden changes in stage 1 (fewer
      stage-2 recoveries) but lets a fast ball's gate swallow its neighbours' detections.
    * ``q_resting_mm2_s3`` (20): the same for a resting object. Low makes resting tracks
      confident (tight gates in touching clusters) and steady (no false motion from noise).

    Association
    * ``gate_chi2`` (36): stage-1 gate on the squared Mahalanobis distance (plus label
      cost). Lower refuses more matches and leans on stage 2; higher risks swaps.
    * ``label_mismatch_cost`` (25): added when the observation's label is not the track's.
      Below ``gate_chi2`` so a misread number can still reach its only ball (if it lies
      within ``sqrt(gate - cost)`` sigma); higher makes misreads start candidates.
    * ``max_speed_mm_s`` (12000): the fastest an object moves (a hard break is 8-12 m/s at
      the cue ball, object balls go slower; the simulated breaks of the sample clips reach
      9.5 m/s, and at 8000 the tracker let the cue ball go and found it again after the
      rack as a ball moved by hand). Sets stage 2's reach; higher re-finds faster
      objects but lets a lost track grab a farther detection.
    * ``jump_window_s`` (0.2): stage 2 considers at most this much unseen time (reach =
      ``max_speed_mm_s x min(unseen, window)``); objects unseen for longer come back only
      through confirmed candidates, unless knocked within the window or strikers at rest
      (whose first sighting far from where they lay waits a frame for a second one: see
      ``_struck_while_hidden_jumps``). A moving object
      reaches less: at most twice the speed of itself or of a mover near it, plus 1 m/s
      (see ``_moving_reach``), unless its motion began in the last 0.1 s.
      Stage 2 pairs only the same labels: a misread and a sudden change of motion in the
      same frame are left to the next frame. One exception: a striker seen at rest last
      frame and gone this one may take a detection of a label no object ever tracked had
      (its stroke's blur read as a stripe), and that label while it moves on.
    * ``jump_min_score`` (0.5): stage 2 uses only detections scoring at least this. A
      jump is weak evidence (it goes beyond the filter's gate), so it must not come from
      the low-scoring false detections (a chalk cube a ball rolled past); lower re-finds
      objects from faint detections, higher waits for a confident one. For the same reason
      a track missed last frame that is moving or was held after coasting (its gate grew
      while it coasted) takes no detection below this score in stage 1 either, nor one of
      another label.
    * ``far_jump_min_score`` (0.8): a resting object with a label of its own (a pool ball)
      knocked while unseen is re-found within the reach of the latest knock on it; a
      detection scoring at least this may also lie as far as the fastest knock since it
      was last seen could have sent it (a break ball, lost in its own blur for frames
      while slower movers pass the place it left). Lower re-finds such balls from fainter
      detections, at the risk of a false one far away carrying the identity off.
    * ``knock_near_mm`` (100): a resting object of a label with many objects (a Novuss
      pawn) is re-found by a jump only if a mover's path since it was last seen passed
      this close (and then within twice that mover's speed): in a cluster struck by the
      puck a whole row starts at once, but a pawn whose detection went missing must not
      grab a detection across the board. Larger follows longer chains of contacts.
    * ``struck_labels`` (``cue_ball``, ``puck``): the objects a player strikes, which may
      start from rest with nothing moving near them (so may a pool ball seen the frame
      before: the ball that hit it may have gone undetected). Any other resting object is
      re-found by a jump only when knocked (``knock_near_mm``) or found where it lay: a ball far
      from where it rested, with no mover near, is a misread or a false detection, and an
      object moved by hand comes back through a confirmed candidate (a ``MOVED`` note).

    Motion states
    * ``start_moving_chi2`` (25) and ``start_moving_mm`` (5): a resting track starts moving
      when a detection lies beyond both; lower catches soft touches a frame sooner but
      turns detector noise into motion. A resting track unseen for two frames or more
      takes a detection beyond ``start_moving_mm`` of its place only when a frame within
      ``jump_window_s`` before showed one there too (its gate grows while it is hidden:
      one false detection beside it must not carry it off).
    * ``rest_speed_mm_s`` (25) and ``rest_after_s`` (0.15): a moving track rests once it
      is slow this long: its filtered speed below ``rest_speed_mm_s``, or its observations
      all within ``rest_radius_mm`` (5) of where the slow spell began. The second test is
      what settles a ball that stopped: the filtered velocity of a moving track follows the
      detector's noise (tens of mm/s at 1 mm and 30 fps), its displacement does not.
    * ``coast_s`` (0.3): a moving track unseen is extrapolated this long, then held where
      it got to (pocketed if that coast ran into a pocket). Longer follows balls through a
      passing arm; shorter avoids parking a stopped ball's track far beyond where it
      stopped.
    * ``occluded_after_misses`` (2): frames unseen before the state reads ``OCCLUDED`` (one
      missed detection is not an occlusion).
    * ``lost_min_misses`` (2): frames a moving track must be unseen before its lost path
      decides ``POCKETED`` or ``OFF_TABLE``.
    * ``off_table_speed_mm_s`` (1500): only a track lost faster than this toward a rail is
      declared off the table; ``off_table_margin_mm`` (10): how far outside the surface
      a detected centre must be to be off the table. ``off_table_lost_s`` (0.25) and
      ``off_table_horizon_s`` (0.1): a track lost that long, whose last motion would have
      taken it beyond a rail within the horizon, is off the table (pocketed if, turned
      by the cushion there, it runs into a pocket within the horizon). The same wait
      applies to a resting pawn touched by a mover and seen nowhere since (see
      ``_knocked_into_pocket``). Longer waits avoid declaring a ball that bounced back
      under an arm gone, but report it later. A track lost moving with its edge over a
      capture circle (in a Novuss corner) is pocketed, unless it hit the rail it runs
      into at ``fly_over_speed_mm_s`` (2500) or more across it: that hit can send it over.
    * ``moved_min_unseen_s`` (0.3) and ``moved_min_mm`` (8): a resting object re-found
      after being unseen this long, this far from where it rested, was moved by hand (a
      ``MOVED`` note) rather than struck.
    * ``pocket_margin_mm`` (3): a seen centre path must reach this far inside a pocket's
      capture circle to be pocketed (a disc sliding along the rail past a Novuss hole
      grazes the circle; noise must not drop it in). A track lost on a path that comes
      within this margin of the circle is pocketed: its disappearance is the evidence.
    * ``empty_near_mm`` (60) and ``empty_after_frames`` (3): an unseen resting track
      whose neighbour within ``empty_near_mm`` is seen for this many frames (and which has
      been unseen ``moved_min_unseen_s``) lies where the camera sees: its place is empty,
      and a new detection of its label is that object moved by hand. Larger radii find
      the evidence for lone objects but take a neighbour beside a hand for proof.
    * ``lost_pocket_slack`` (2.0): a track lost on a path into a pocket is pocketed only if
      it reached the capture circle within this many times the interval between its last
      sighting and the first frame without it (an object still rolling on the surface
      would have been seen). Higher pockets objects lost under a hand near a pocket; lower
      rejects real pots seen far from the pocket at low frame rates.
    * ``covered_frac`` (0.8) and ``covered_gone_s`` (0.5): a ball at rest, unseen since
      just before (within ``jump_window_s``), whose place a moving object's centre comes
      closer to than this fraction of their touching distance, in two frames running,
      cannot lie there: it was knocked away too fast to be seen (a blur). Seen nowhere for
      ``covered_gone_s`` since, it left the surface along the line of centres where a mover
      first touched its place: into the pocket that line meets before a rail, else over
      that rail. Lower fractions need a deeper overlap (a tracker's error in either
      position must not pass for one); a shorter time takes a ball lost in a break's blur
      for gone. Only objects with a label of their own: a pawn knocked unseen is told from
      its row only when seen.
    * ``hidden_max_s`` (2.0): an unseen resting track without such evidence is presumed
      moved after this long (the longest a hand hides a still object); until then a new
      detection of its label waits rather than take or duplicate its identity.
    * ``hand_min_s`` (0.1): a hand takes at least this long to lift an object and set it
      down. A new detection first seen sooner after a hidden object's last sighting is
      another object (one the hand uncovers as it moves, or sets down elsewhere): it
      neither takes that identity nor waits for it. Higher turns quick moves by hand into
      new identities; lower gives a pawn hidden under a hand the identity of one the hand
      uncovers beside it.

    New identities
    * ``confirm_hits`` (3) of ``confirm_window`` (5) frames: more rejects flicker better
      but starts real objects later (3 frames = 0.1 s at 30 fps).
    * ``spawn_min_score`` (0.5): mean detector score a candidate needs, over its last
      five detections or so (each older one weighted 0.8 less); persistent false
      detections (a chalk cube) usually score low.
    * ``candidate_gate_mm`` (25): how far a candidate's third and later detections may be
      from its predicted position (plus 5 % of its speed times the time step; at least
      4 x sqrt(6) times its last detection's sigma, the noise of a prediction from two
      sightings and a third: a fast object's detections are blurred); the second,
      in the next frame, may be anywhere within ``max_speed_mm_s`` reach. All must read
      the same label.
      Wider follows new objects that accelerate; narrower keeps random detections from
      chaining into a candidate.
    * ``duplicate_after_s`` (1.0): a candidate whose unique label is held by a track seen
      meanwhile becomes a second track with that label only after persisting this long
      (a ball the detector consistently misreads); shorter recovers such balls sooner but
      turns systematic misreads into extra tracks.
    * ``max_candidates`` (64): tentative tracks kept at most (a 100-detection frame).
    * ``label_vote_decay`` (0.98): per-frame decay of a track's label votes; lower lets a
      wrong first label be corrected sooner but lets a burst of misreads relabel a track.
    """

    q_moving_mm2_s3: float = 2e5
    q_resting_mm2_s3: float = 20.0
    gate_chi2: float = 36.0
    label_mismatch_cost: float = 25.0
    max_speed_mm_s: float = 12000.0
    jump_window_s: float = 0.2
    jump_min_score: float = 0.5
    far_jump_min_score: float = 0.8
    start_moving_chi2: float = 25.0
    start_moving_mm: float = 5.0
    rest_speed_mm_s: float = 25.0
    rest_after_s: float = 0.15
    rest_radius_mm: float = 5.0
    coast_s: float = 0.3
    occluded_after_misses: int = 2
    lost_min_misses: int = 2
    off_table_speed_mm_s: float = 1500.0
    off_table_margin_mm: float = 10.0
    off_table_lost_s: float = 0.25
    off_table_horizon_s: float = 0.1
    fly_over_speed_mm_s: float = 2500.0
    moved_min_unseen_s: float = 0.3
    moved_min_mm: float = 8.0
    pocket_margin_mm: float = 3.0
    empty_near_mm: float = 60.0
    empty_after_frames: int = 3
    covered_frac: float = 0.8
    covered_gone_s: float = 0.5
    hidden_max_s: float = 2.0
    hand_min_s: float = 0.1
    knock_near_mm: float = 100.0
    struck_labels: tuple[str, ...] = ("cue_ball", "puck")
    lost_pocket_slack: float = 2.0
    confirm_hits: int = 3
    confirm_window: int = 5
    spawn_min_score: float = 0.5
    candidate_gate_mm: float = 25.0
    duplicate_after_s: float = 1.0
    max_candidates: int = 64
    label_vote_decay: float = 0.98

    def __post_init__(self) -> None:
        positive = ("q_moving_mm2_s3", "q_resting_mm2_s3", "gate_chi2", "max_speed_mm_s",
                    "jump_window_s", "rest_after_s", "coast_s", "candidate_gate_mm",
                    "rest_radius_mm")
        for name in positive:
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"TrackerSettings.{name} must be > 0, got {value}")
        non_negative = ("label_mismatch_cost", "start_moving_chi2",
                        "start_moving_mm", "rest_speed_mm_s", "off_table_speed_mm_s",
                        "off_table_margin_mm", "off_table_lost_s", "off_table_horizon_s",
                        "fly_over_speed_mm_s",
                        "moved_min_unseen_s", "moved_min_mm", "pocket_margin_mm",
                        "empty_near_mm", "covered_frac", "covered_gone_s", "hidden_max_s",
                        "hand_min_s",
                        "lost_pocket_slack",
                        "knock_near_mm", "jump_min_score", "far_jump_min_score",
                        "spawn_min_score", "duplicate_after_s")
        for name in non_negative:
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"TrackerSettings.{name} must be >= 0, got {value}")
        if not 1 <= self.confirm_hits <= self.confirm_window <= 30:
            raise ValueError("TrackerSettings needs 1 <= confirm_hits <= confirm_window <= 30, "
                             f"got {self.confirm_hits} of {self.confirm_window}")
        for name in ("occluded_after_misses", "lost_min_misses", "max_candidates",
                     "empty_after_frames"):
            if getattr(self, name) < 1:
                raise ValueError(f"TrackerSettings.{name} must be >= 1, got {getattr(self, name)}")
        if not 0 < self.label_vote_decay <= 1:
            raise ValueError(f"label_vote_decay must be in (0, 1], got {self.label_vote_decay}")


def label_capacity(spec: TableSpec) -> dict[str, int]:
    """How many objects of each label the table can hold: pool numbers are unique, the
    Novuss puck is one, pawns are up to 16 of each colour (doubles)."""
    if spec.family is Family.POOL:
        return {label: 1 for label in spec.labels}
    return {label: _NOVUSS_CAPACITY.get(label, 16) for label in spec.labels}


@dataclass(slots=True)
class _Candidate:
    """A tentative track: detections that may become an identity (bookkeeping only)."""

    xy_mm: np.ndarray
    v_mm_s: np.ndarray
    t_s: float
    first_t_s: float
    history: int  # bit k: seen k frames ago
    votes: np.ndarray  # (L,) label counts
    # its detections' scores, each older one weighted ``_SCORE_FADE`` less, and the sum of
    # those weights: their ratio is its recent mean score (a ball the detector read at
    # score 0 in a rack for seconds, read at 0.9 once the break uncovers it, is real now)
    score_sum: float
    hits: int
    sigma_mm: float  # of its last detection
    score_w: float = 1.0

    def seen_count(self, window: int) -> int:
        return int(bin(self.history & ((1 << window) - 1)).count("1"))


@dataclass(slots=True)
class _Pockets:
    centre_xy_mm: np.ndarray  # (K, 2)
    capture_mm: np.ndarray  # (K,)
    hole_mm: np.ndarray  # (K,)
    # (K,) a hole in the surface ringed by rails (a Novuss corner), not an opening in the
    # cushion (a pool pocket, whose mouth has no cushion to turn a ball in)
    ringed: np.ndarray


@dataclass(slots=True)
class _Knocks:
    """The resting tracks a mover may have knocked since they were last seen (one frame's
    scratch, see ``Tracker._knocks``): ``speed`` (N,) is how fast each may move now (0: not
    knocked, or not at rest), ``from_xy`` (N, K, 2) where a push on it may have come from
    (the touching objects at rest), ``pushes`` (N, K) which of those pushed it and, for
    knocks remembered from earlier frames, ``since_s`` how long ago they came."""

    speed: np.ndarray
    from_xy: np.ndarray
    pushes: np.ndarray
    since_s: np.ndarray | None = None  # (N,) how long ago at most (None: any time unseen)
    away: np.ndarray | None = None  # (N, 2) unit line of centres of a mover's touch, or NaN

    @classmethod
    def none(cls, n: int) -> _Knocks:
        """No knock on any of ``n`` tracks."""
        return cls(np.zeros(n), np.zeros((n, 0, 2)), np.zeros((n, 0), dtype=bool))


def _segment_hits_circle(a: np.ndarray, b: np.ndarray, centre: np.ndarray,
                         radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For segments ``a -> b`` (N, 2) and circles (K,), whether each segment enters a
    circle ``(N, K)`` and the fraction of the segment where it first does ``(N, K)``."""
    d = (b - a)[:, None, :]  # (N, 1, 2)
    f = (a[:, None, :] - centre[None, :, :])  # (N, K, 2)
    A = np.maximum((d * d).sum(-1), 1e-12)
    B = 2 * (f * d).sum(-1)
    C = (f * f).sum(-1) - radius[None, :] ** 2
    disc = B * B - 4 * A * C
    ok = disc >= 0
    s = (-B - np.sqrt(np.where(ok, disc, 0.0))) / (2 * A)
    inside = C <= 0
    hit = inside | (ok & (s >= 0) & (s <= 1))
    return hit, np.where(inside, 0.0, np.clip(s, 0.0, 1.0))


class Tracker:
    """Kalman filters with optimal assignment for every object on one table.

    ``update(observations)`` takes one frame and returns ``Tracks``; ``last_notes`` holds
    the ``TrackNote`` list of that frame and ``notes`` every note since ``reset()``. The
    tracker works from whatever it sees first (footage that starts mid-game needs no rack).
    """

    def __init__(self, spec: TableSpec, settings: TrackerSettings | None = None) -> None:
        self.spec = spec
        self.settings = settings or TrackerSettings()
        self.labels: tuple[str, ...] = tuple(spec.labels)
        self._label_index = {label: i for i, label in enumerate(self.labels)}
        cap = label_capacity(spec)
        self._capacity = np.array([cap[label] for label in self.labels])
        self._unique = self._capacity == 1
        self._identical = bool((~self._unique).any())  # a label several objects share
        self._struck = np.array([label in self.settings.struck_labels for label in self.labels])
        self._radius = np.array([spec.object_for(label).radius_mm for label in self.labels])
        # Detections of a different size are never the same object (a Novuss pawn is not
        # the puck); colours and numbers of one size may be misread as each other.
        self._compatible = np.isclose(self._radius[:, None], self._radius[None, :], rtol=0.1)
        # stage-1 label cost (track label, observation label): 0 for its own label, the
        # mismatch cost for a compatible one, infeasible for another size; ``_own_only``
        # is the row of a unique label read elsewhere in the frame (no misread possible)
        same = np.eye(len(self.labels), dtype=bool)
        self._label_cost = np.where(same, 0.0, np.where(
            self._compatible, self.settings.label_mismatch_cost, _INFEASIBLE))
        self._own_only = np.where(same, 0.0, _INFEASIBLE)
        self._pockets = _Pockets(
            np.array([p.centre_xy_mm for p in spec.pockets], dtype=float).reshape(-1, 2),
            np.array([p.capture_radius_mm for p in spec.pockets], dtype=float),
            np.array([p.hole_radius_mm for p in spec.pockets], dtype=float),
            np.array([p.mouth_a_xy_mm is None for p in spec.pockets], dtype=bool),
        )
        self._half_wh = np.array(spec.half_wh_mm, dtype=float)
        self.reset()

    # ------------------------------------------------------------------ state

    def reset(self) -> None:
        """Forget every track, candidate and note (a new source)."""
        self._x = np.zeros((0, 4))
        self._P = np.zeros((0, 4, 4))
        self._t_state = np.zeros(0)
        self._id = np.zeros(0, dtype=int)
        self._label = np.zeros(0, dtype=int)
        self._labels_of: tuple[bytes, tuple[str, ...]] = (b"", ())  # _label as names
        self._votes = np.zeros((0, len(self.labels)))
        self._moving = np.zeros(0, dtype=bool)
        self._retired = np.zeros(0, dtype=int)  # 0 in play, else TrackState value
        self._retired_t = np.zeros(0)
        self._empty = np.zeros(0, dtype=int)  # frames its hold position was seen empty
        self._covered = np.zeros(0, dtype=int)  # frames running a mover covered its place
        self._knocked_to = np.zeros((0, 2))  # covered: where it left the surface (else NaN)
        self._knocked_potted = np.zeros(0, dtype=bool)  # ... and whether into a pocket
        self._touched_dir = np.zeros((0, 2))  # unseen at rest: away from a mover's first touch
        self._held = np.zeros(0, dtype=bool)  # lost while moving: rests where it coasted to
        self._first_miss_t = np.zeros(0)  # the first frame without it, since last seen
        self._last_seen_t = np.zeros(0)
        self._last_seen_xy = np.zeros((0, 2))
        self._last_sigma = np.zeros(0)  # of its last detection (mm)
        self._before_xy = np.zeros((0, 2))  # its estimate the frame before (NaN: none)
        self._misses = np.zeros(0, dtype=int)
        self._slow_since = np.zeros(0)
        self._anchor_xy = np.zeros((0, 2))  # where a moving track's still spell began
        self._jump_t = np.zeros(0)  # when a knock last restarted its motion (one detection)
        # when and where its present straight motion began, at the latest
        self._path_t0 = np.zeros(0)
        self._path_xy0 = np.zeros((0, 2))
        # the last knock found on each track (see _remember_knocks): when, how fast, and
        # where its pushes came from (NaN-padded)
        self._knock_t = np.zeros(0)
        self._knock_speed = np.zeros(0)  # the last knock's speed
        self._knock_fastest = np.zeros(0)  # the fastest knock's since it was last seen
        self._knock_from = np.zeros((0, _KNOCK_SOURCES, 2))
        # the first touch by a mover since last seen: its line of centres (or NaN), speed
        self._knock_away = np.zeros((0, 2))
        self._touch_speed = np.zeros(0)
        self._candidates: list[_Candidate] = []
        # a hidden striker's first sighting far from its rest, waiting for a second one
        # (see _struck_while_hidden_jumps): row -> (time, where, sigma, label read)
        self._pending_jumps: dict[int, tuple[float, np.ndarray, float, int]] = {}
        # a striker that left rest as a blur read as a number no object ever had: row ->
        # that label, which it may take on while it moves (see stage 2)
        self._read_as: dict[int, int] = {}
        # (see _unconfirmed_shift): row -> (time, the detection beside its place)
        self._shift_seen: dict[int, tuple[float, np.ndarray]] = {}
        self._frame_knocks: _Knocks | None = None  # this frame's, once asked for
        self._frame_gates: tuple[np.ndarray, ...] | None = None  # (see _candidate_gates)
        self._frame_live = np.zeros(0, dtype=bool)  # this frame's tracks in play
        # the estimates they come from: state, position variance, its time, moving
        self._knock_basis = (self._x, self._P[:, 0, 0], self._t_state, self._moving)
        self._next_id = 1
        self._t_s: float | None = None
        self._frame_dt_s = 0.0  # since the frame before
        self._last_tracks: Tracks | None = None
        self.notes: list[TrackNote] = []
        self.last_notes: tuple[TrackNote, ...] = ()
        self._unknown_warned: set[str] = set()

    def __len__(self) -> int:
        return len(self._id)

    # ------------------------------------------------------------------ update

    def update(self, obs: Observations) -> Tracks:
        """Take one frame's observations; return every track after it."""
        t = float(obs.t_s)
        if not math.isfinite(t) or (self._t_s is not None and t <= self._t_s):
            log.warning("tracker: frame %d at t=%.4f s is not after t=%s s; skipped",
                        obs.frame, t, self._t_s)
            self.last_notes = ()
            if self._last_tracks is not None:
                return self._last_tracks
            return Tracks.empty(t if math.isfinite(t) else 0.0, obs.frame)
        self._frame_dt_s = t - self._t_s if self._t_s is not None else 0.0
        self._t_s = t
        notes: list[TrackNote] = []
        s = self.settings

        z, sigma, lab, score = self._usable(obs)
        n_obs = len(z)

        n_tr = len(self._id)
        live_mask = self._retired == 0
        live = live_mask.nonzero()[0]
        # Where each track's path this frame starts: its previous estimate, or (unseen for
        # long) nowhere before the new detection, so a ball moved by hand does not "cross"
        # the pockets on its way.
        recent = t - self._last_seen_t <= s.jump_window_s
        path_from = np.where(recent[:, None], self._x[:, :2], np.nan)
        path_t0 = self._t_state.copy()
        # knocks are judged on the estimates of the previous frame (see _knocks)
        self._frame_knocks = None
        self._frame_gates = None
        self._frame_live = live_mask
        self._knock_basis = (self._x.copy(), self._P[:, 0, 0].copy(), self._t_state.copy(),
                             self._moving.copy())
        self._predict(live_mask, t)

        obs_track = np.full(n_obs, -1)  # track row per observation
        matched_xy = np.full((n_tr, 2), np.nan)
        seen = np.zeros(n_tr, dtype=bool)
        assigned = np.zeros(n_tr, dtype=bool)

        # -- stage 1: Mahalanobis gate on predictions, label cost. A track of identical
        # objects (a pawn) seen only once since a knock restarted its motion has
        # no velocity to predict with yet: it goes to stage 2, where its neighbours' new
        # positions are decided together with it (in a knocked row, by the least travel).
        # A unique label (a pool number) tells the object from its neighbours anyway.
        unsure = self._unconfirmed(np.arange(n_tr))
        live = (live_mask & ~unsure).nonzero()[0]
        gated = None  # stage 1's tracks, their labels and squared distances (see misread)
        if len(live) and n_obs:
            label_live = self._label[live]
            # A track with a unique label (a pool number, the puck) takes a detection with
            # another label only when its own label is nowhere in the frame: a misread.
            present = np.zeros(len(self.labels), dtype=bool)
            present[lab] = True
            label_cost = np.where((self._unique & present)[:, None], self._own_only,
                                  self._label_cost)
            d2, log_det = innovation_nll(self._x[live, :2], self._P[live, :2, :2], z, sigma)
            cost = d2 + label_cost[label_live][:, lab]
            ok = cost <= s.gate_chi2
            # nor is a detection of another unique label a misread where that label's own
            # object, moving, could be (within its stage-2 reach): a ball just struck, whose
            # filter has not caught up with its speed yet, is found there in stage 2
            other = ok & (label_live[:, None] != lab[None, :]) & self._unique[lab][None, :]
            if other.any():
                ok &= ~(other & self._claimed(lab, z, live_mask, t)[None, :])
            # gated on the distance; assigned on the likelihood, so that of two tracks
            # that could explain a detection the sure one (at rest, just seen) takes it
            # before one coasting unseen with a wide gate
            cost += log_det - log_det.min()
            coasting = (self._moving[live] | self._held[live]) & (self._misses[live] > 0)
            # (nor does a striker at rest, unseen for frames, take a faint detection: a false
            # one, a chalk cube, lies as likely where it is hidden; the striker is set down
            # in the open and seen sure)
            faint = (self._misses[live] > 1) & ~coasting & self._struck[label_live]
            if faint.any():
                ok &= ~(faint[:, None] & (score[None, :] < s.jump_min_score))
            if coasting.any():
                # a coasting track's gate is wide: it takes neither a faint detection nor
                # another label's (a misread is told from another object only up close)
                doubtful = (score[None, :] < s.jump_min_score) | (label_live[:, None]
                                                                  != lab[None, :])
                ok &= ~(coasting[:, None] & doubtful)
            # a pawn cannot pass through a pawn at rest: what lies beyond is that pawn; nor
            # turn back with nothing to turn it: what lies behind is another
            passing = self._moving[live] & ~self._unique[label_live]
            if passing.any():
                ok[passing] &= ~self._through_rest(live[passing], z)
                ok[passing] &= ~self._turned_back(live[passing], z, sigma, live_mask, t)
            # a resting track unseen for frames, its gate grown meanwhile, takes a detection
            # beyond start_moving_mm of its place only where the frame before showed one
            # too (a false detection beside a hidden object must not carry it off, and one
            # nudged while hidden is found a frame later), and only of its own label
            ok &= ~self._unconfirmed_shift(live, z, sigma, lab, ok, t)
            # a resting track's detection beyond the noise: not one pushed back at it
            doubt = ok & ~self._moving[live][:, None] & (d2 > _PUSH_TOL_SIGMA**2)
            if doubt.any():
                r = doubt.any(axis=1).nonzero()[0]
                ok[r] &= self._away_from_push(live[r], z, sigma, self._knocks(live_mask, t))
            cost = np.where(ok, cost, _INFEASIBLE)
            rows, cols = self._assign(cost)
            if len(rows):
                tr = live[rows]
                obs_track[cols] = tr
                assigned[tr] = True
                self._stage1_update(tr, z[cols], sigma[cols], d2[rows, cols], t, notes)
            gated = (live, label_live, d2)

        # -- stage 2: sudden changes of motion, within physical reach (a hidden striker's
        # first sighting waits one frame, no longer)
        self._pending_jumps = {row: p for row, p in self._pending_jumps.items()
                               if p[0] >= t - self._frame_dt_s - 1e-6}
        self._read_as = {r: k for r, k in self._read_as.items() if self._moving[r]}
        live = live_mask.nonzero()[0]
        # objects unseen longer than the window come back through confirmed candidates,
        # unless knocked within it (a row pushed along under a hand) or strikers at rest
        # (struck under the player's arm: see _struck_while_hidden_jumps)
        recent = (t - self._last_seen_t[live] <= s.jump_window_s + self._frame_dt_s) | (
            t - self._knock_t[live] <= s.jump_window_s) | (
            self._struck[self._label[live]] & ~self._moving[live])
        left_tr = live[~assigned[live] & recent]
        left_ob = ((obs_track < 0) & (score >= s.jump_min_score)).nonzero()[0]
        if len(left_tr) and len(left_ob):
            unseen = np.clip(t - self._last_seen_t[left_tr], 0.0, s.jump_window_s)
            reach = s.max_speed_mm_s * unseen + 3 * np.sqrt(self._P[left_tr, 0, 0]) + 10.0
            # a resting object may start by itself only if it is struck (the cue ball, the
            # puck) or was seen last frame and has a number of its own (a pool ball hit by
            # a ball the detector missed); otherwise it needs a knock (see _calm_reach)
            lab_tr = self._label[left_tr]
            calm = ~self._moving[left_tr] & ~self._struck[lab_tr] & (
                ~self._unique[lab_tr] | (self._misses[left_tr] > 0))
            if calm.any():
                reach[calm] = self._calm_reach(left_tr[calm], self._knocks(live_mask, t), t)
            moving = self._moving[left_tr]
            if moving.any():
                reach[moving] = np.minimum(reach[moving], self._moving_reach(
                    left_tr[moving], live_mask, unseen[moving]))
            pending = np.array([row in self._pending_jumps for row in left_tr.tolist()],
                               dtype=bool)
            d_last = np.linalg.norm(z[left_ob][None] - self._last_seen_xy[left_tr][:, None],
                                    axis=2)
            d_pred = np.linalg.norm(z[left_ob][None] - self._x[left_tr, None, :2], axis=2)
            # linear in the distance: two objects that start moving at once are told apart
            # by the least total travel, not by the least squared one
            cost = np.minimum(d_pred, d_last)
            for k in pending.nonzero()[0]:  # (or by where it was first seen again)
                p_xy = self._pending_jumps[int(left_tr[k])][1]
                cost[k] = np.minimum(cost[k], np.linalg.norm(z[left_ob] - p_xy, axis=1))
            same = self._label[left_tr][:, None] == lab[left_ob][None]
            # a striker at rest, seen there last frame and gone this one, may be struck:
            # its blur may read as a number no object ever tracked had (the cue ball as a
            # stripe; not a pocketed ball seen in its cup). That first sighting waits for
            # a second of the same number further out along the same line (a dropout
            # beside a false detection shows none), and then it may go on reading so
            # while it moves (only so: a false detection of any number may lie near a
            # rolling ball)
            gone = self._struck[lab_tr] & ~self._moving[left_tr] & (self._misses[left_tr] == 0)
            if gone.any():
                held = np.zeros(len(self.labels), dtype=bool)
                held[self._label] = True
                same[gone] |= ~held[lab[left_ob]][None, :]
            if self._read_as or self._pending_jumps:  # (most frames: neither)
                for q, row in enumerate(left_tr.tolist()):
                    pend = self._pending_jumps.get(row)
                    read = self._read_as.get(row, None if pend is None else pend[3])
                    if read is not None:
                        same[q] |= lab[left_ob] == read
            ok = (d_last <= reach[:, None]) & same
            far = calm & self._unique[lab_tr] & self._knocked_unseen(left_tr)
            if far.any():  # (see far_jump_min_score)
                far_rows = left_tr[far]
                far_reach = (self._knock_fastest[far_rows] * unseen[far]
                             + 3 * np.sqrt(self._P[far_rows, 0, 0]) + 10.0)
                ok[far] |= ((d_last[far] <= far_reach[:, None]) & same[far]
                            & (score[left_ob] >= s.far_jump_min_score)[None, :])
            if moving.any():
                ok[moving] &= ~self._turned_back(left_tr[moving], z[left_ob], sigma[left_ob],
                                                 live_mask, t)
            # detections that continue a candidate belong to that new object (but for a
            # hidden striker's motion, whose first sighting that candidate holds, and for a
            # unique label: its candidate is the one object, first seen blurred)
            ok &= ~(self._continues_candidate(z[left_ob], lab[left_ob], t)[None]
                    & ~(pending | self._unique[lab_tr])[:, None])
            passing = self._moving[left_tr] & ~self._unique[lab_tr]
            if passing.any():
                ok[passing] &= ~self._through_rest(left_tr[passing], z[left_ob])
            if not self._moving[left_tr].all():
                ok &= self._away_from_push(left_tr, z[left_ob], sigma[left_ob],
                                           self._knocks(live_mask, t))
            cost = np.where(ok, cost, _INFEASIBLE)
            rows, cols = self._assign(cost)
            if len(rows) and gated is not None:
                # a sudden change of motion is the less likely story where the detection
                # lies where a track of another label, left without one, was predicted: a
                # misread of that object (pawns read as the other colour, by a track seen
                # last frame: one unseen longer has a gate too wide to tell; an object of a
                # label of its own is told by the label in stage 1)
                g_rows, g_lab, g_d2 = gated
                taken = assigned.copy()
                taken[left_tr[rows]] = True
                ob = left_ob[cols]
                explains = ((~taken[g_rows] & (self._misses[g_rows] == 0)
                             & ~self._unique[g_lab])[:, None] & (g_d2[:, ob] <= s.gate_chi2)
                            & (g_lab[:, None] != lab[ob][None, :]) & ~self._unique[lab[ob]][None])
                misread = explains.any(axis=0)
                rows, cols = rows[~misread], cols[~misread]
            if len(rows):
                tr, ob = left_tr[rows], left_ob[cols]
                wait, went = self._struck_while_hidden_jumps(tr, z[ob], sigma[ob], lab[ob], t)
                obs_track[ob[~wait]] = tr[~wait]
                rest = ~wait & ~went
                self._stage2_update(tr[rest], z[ob[rest]], sigma[ob[rest]], t, obs.frame,
                                    notes, self._knocks(live_mask, t))

        hit = obs_track >= 0
        rows = obs_track[hit]
        seen[rows] = True
        z_hit = z[hit]
        matched_xy[rows] = z_hit
        self._after_match(rows, z_hit, sigma[hit], lab[hit], score[hit], path_from, path_t0, t)
        self._empty_evidence(live, seen, matched_xy)
        self._covered_places(live, seen, matched_xy, t)

        # -- unseen tracks in play: coast, then hold; lost into a pocket or over a rail
        unseen_rows = live[~seen[live]]
        self._misses[unseen_rows] += 1
        self._first_miss_t[unseen_rows[self._misses[unseen_rows] == 1]] = t
        self._lost(unseen_rows, t)

        # -- knocks on identical objects (pawns) are judged every frame a mover is in play,
        # while its path is fresh (see _remember_knocks): a pawn may show its motion only
        # frames later, or be out of sight and turn up as a candidate
        if self._identical and (live_mask & self._moving).any():
            self._knocks(live_mask, t)

        # -- candidates and new identities
        free = (~hit).nonzero()[0]
        self._candidates_step(z[free], sigma[free], lab[free], score[free], t, obs.frame, notes,
                              seen, matched_xy)
        n_new = len(self._id) - n_tr
        if n_new:  # new identities are seen at their candidate's last detection
            seen = np.r_[seen, np.ones(n_new, dtype=bool)]
            matched_xy = np.vstack([matched_xy, self._last_seen_xy[-n_new:]])
        tracks = self._tracks(t, obs.frame, seen, matched_xy)
        self.last_notes = tuple(notes)
        self.notes.extend(notes)
        self._last_tracks = tracks
        return tracks

    # ------------------------------------------------------------------ steps

    def _usable(self, obs: Observations) -> tuple[np.ndarray, ...]:
        index = self._label_index
        try:
            lab = np.array([index[label] for label in obs.label], dtype=int)
        except KeyError:
            lab = np.array([index.get(label, -1) for label in obs.label], dtype=int)
        keep = lab >= 0
        if not keep.all():
            for label in set(obs.label) - set(self._label_index):
                if label not in self._unknown_warned:
                    self._unknown_warned.add(label)
                    log.warning("tracker: label %r is not used on table %s; ignored",
                                label, self.spec.name)
        # A detection far beyond the rails (the floor, a spectator) is nothing to track.
        far = self.spec.rail_width_mm + 50.0
        keep &= (np.abs(obs.xy_mm) <= self._half_wh + far).all(axis=1)
        if keep.all():
            return obs.xy_mm, obs.sigma_mm, lab, obs.score
        return obs.xy_mm[keep], obs.sigma_mm[keep], lab[keep], obs.score[keep]

    def _predict(self, live: np.ndarray, t: float) -> None:
        """Predict the tracks in play (mask ``live``) to ``t``; the others keep still (a
        zero step is the identity), which spares gathering and scattering rows."""
        if not live.any():
            return
        s = self.settings
        moving = self._moving
        t_to = np.where(moving, np.minimum(t, self._last_seen_t + s.coast_s), t)
        dt = np.where(live, np.maximum(t_to - self._t_state, 0.0), 0.0)
        q = np.where(moving, s.q_moving_mm2_s3, s.q_resting_mm2_s3)
        # an object at rest is still: its filtered velocity is the detector's noise, and
        # extrapolated while it is hidden it would carry the track away
        self._x[~moving, 2:] = 0.0
        self._x, self._P = cv_predict(self._x, self._P, dt, q)
        self._t_state = np.where(live, np.maximum(self._t_state, t_to), self._t_state)

    @staticmethod
    def _assign(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        feasible = cost < _INFEASIBLE
        feasible_r = np.asarray(feasible.any(axis=1))
        if not feasible_r.any():
            return np.zeros(0, dtype=int), np.zeros(0, dtype=int)
        r_idx = feasible_r.nonzero()[0]
        c_idx = np.asarray(feasible.any(axis=0)).nonzero()[0]
        sub = cost[r_idx][:, c_idx]
        r, c = linear_sum_assignment(sub)
        ok = sub[r, c] < _INFEASIBLE
        return r_idx[r[ok]], c_idx[c[ok]]

    def _knocks(self, live: np.ndarray, t: float) -> _Knocks:
        """Which tracks at rest (in play: mask ``live``) a mover may have knocked since they
        were last seen, how fast they may go and where the push came from (computed once a
        frame, when first asked, from the estimates before this frame's prediction).

        A mover whose path (predicted to ``t``, over the time the object is unseen, at most
        ``jump_window_s``) passed within ``knock_near_mm`` may have set it going at up to
        twice the mover's speed. Contacts run along touching objects (a row of pawns starts
        at once): from each object a mover's path touched while approaching it (within the
        sum of the radii, widened by 3 sigma of the mover and ``start_moving_mm``), each
        touching object is pushed by the touching ones the push reached before it. Only
        those pushes have a known direction: a mover's own estimate is too rough at the
        contact (its prediction may run through the object it hit and take its
        detection), a resting neighbour's position is not."""
        if self._frame_knocks is not None:
            return self._frame_knocks
        self._frame_knocks = self._find_knocks(live, t)
        return self._frame_knocks

    def _find_knocks(self, live: np.ndarray, t: float) -> _Knocks:
        moving = self._knock_basis[3]
        rows = (live & ~moving).nonzero()[0]
        movers = (live & moving).nonzero()[0]
        if not len(rows):
            return _Knocks.none(len(self._id))
        knocks = self._knocks_by(rows, movers, t) if len(movers) else _Knocks.none(len(self._id))
        self._remember_knocks(rows, knocks, t)
        return self._with_remembered(rows, knocks, t)

    def _remember_knocks(self, rows: np.ndarray, knocks: _Knocks, t: float) -> None:
        """Keep the knocks found this frame: a mover that bounced off what it hit no longer
        runs back through it along its new path, so a knock is judged once, when the
        mover's path is fresh, and holds while the object stays unseen."""
        hit = rows[knocks.speed[rows] > 0]
        if not len(hit):
            return
        # the first touch since it was last seen set it going: its line of centres and
        # speed hold while later passes come near (a coasting mover's predicted path may
        # run on through the place it left)
        if knocks.away is not None:
            first = np.isfinite(knocks.away[hit, 0]) & ~(
                np.isfinite(self._knock_away[hit, 0])
                & (self._knock_t[hit] >= self._last_seen_t[hit]))
            self._knock_away[hit[first]] = knocks.away[hit[first]]
            self._touch_speed[hit[first]] = knocks.speed[hit[first]]
        # (and the fastest since it was last seen: the mover slows at the contact, so a
        # pawn's fastest push holds; see _with_remembered and far_jump_min_score)
        self._knock_fastest[hit] = np.where(
            self._knocked_unseen(hit), np.maximum(self._knock_fastest[hit], knocks.speed[hit]),
            knocks.speed[hit])
        self._knock_speed[hit] = knocks.speed[hit]
        self._knock_t[hit] = t
        sources = np.full((len(hit), _KNOCK_SOURCES, 2), np.nan)
        for k, row in enumerate(hit):
            xy = knocks.from_xy[row][knocks.pushes[row]][:_KNOCK_SOURCES]
            sources[k, :len(xy)] = xy
        self._knock_from[hit] = sources

    def _with_remembered(self, rows: np.ndarray, knocks: _Knocks, t: float) -> _Knocks:
        """``knocks`` plus those of earlier frames on objects unseen since (within
        ``jump_window_s``): their speed (a pawn's fastest since), and their pushes as extra
        sources."""
        held = rows[self._knocked_unseen(rows)
                    & (t - self._knock_t[rows] <= self.settings.jump_window_s)]
        if not len(held):
            return knocks
        speed = knocks.speed.copy()
        # (a pawn's fastest push since; a ball's last: its number tells it where it went)
        unique = self._unique[self._label[held]]
        pawns = held[~unique]
        speed[pawns] = np.maximum(speed[pawns], self._knock_fastest[pawns])
        remembered = np.where(unique, self._knock_speed[held], self._knock_fastest[held])
        quiet = knocks.speed[held] == 0  # (no knock this frame)
        old = held[quiet]
        speed[old] = remembered[quiet]
        if not len(old):
            return _Knocks(speed, knocks.from_xy, knocks.pushes, knocks.since_s, knocks.away)
        # found one frame and judged on the mover's path over the frame before, at most
        since = np.full(len(speed), np.inf)
        since[old] = t - self._knock_t[old] + self._frame_dt_s
        n = len(self._id)
        extra_xy = np.zeros((n, _KNOCK_SOURCES, 2))
        extra_push = np.zeros((n, _KNOCK_SOURCES), dtype=bool)
        extra_xy[old] = np.nan_to_num(self._knock_from[old])
        extra_push[old] = np.isfinite(self._knock_from[old, :, 0])
        return _Knocks(speed, np.concatenate([knocks.from_xy, extra_xy], axis=1),
                       np.concatenate([knocks.pushes, extra_push], axis=1), since)

    def _knocked_unseen(self, rows: np.ndarray) -> np.ndarray:
        """Which tracks of ``rows`` a knock was found on since they were last seen (in the
        frame they were last seen, too: the motion may show only frames later)."""
        return self._knock_t[rows] >= self._last_seen_t[rows]

    def _knocks_by(self, rows: np.ndarray, movers: np.ndarray, t: float) -> _Knocks:
        """The knocks of this frame: resting ``rows`` near the paths of ``movers``."""
        s = self.settings
        n = len(self._id)
        x, var, t_state, _ = self._knock_basis
        speed = np.zeros(n)
        span = np.clip(t - self._last_seen_t[rows], 0.0, s.jump_window_s)
        t_to = np.minimum(t, self._last_seen_t[movers] + s.coast_s)
        v = x[movers, 2:]
        end = x[movers, :2] + v * np.maximum(t_to - t_state[movers], 0.0)[:, None]
        p = x[rows, None, :2]  # (R, 1, 2)
        b = end[None]  # (1, M, 2) where each mover is now
        # its path since: back along its present motion, or (begun since, at a bounce or a
        # stroke) from where that motion began
        # (a millisecond's slack: a motion begun just as the object was last seen)
        began = (t_to - self._path_t0[movers])[None, :] <= span[:, None] + 1e-3  # (R, M)
        ab = np.where(began[..., None], (end - self._path_xy0[movers])[None],
                      v[None] * span[:, None, None])  # (R, M, 2)
        u = np.clip(((p - b + ab) * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-9),
                    0.0, 1.0)
        nearest = b - ab + u[..., None] * ab  # (R, M, 2)
        gap = np.linalg.norm(p - nearest, axis=2)
        # the push of a contact: a mover whose path touched the object (within the sum of
        # their radii, widened by the mover's uncertainty) and that was approaching it
        # where the path began (a path predicted past the object's centre approached it)
        r_rows = self._radius[self._label[rows]]
        r_pair = r_rows[:, None] + self._radius[self._label[movers]][None, :]
        contact = r_pair + 3 * np.sqrt(var[movers])[None, :] + s.start_moving_mm
        # a mover whose path since it began (a stroke, a bounce) is nearest the object at
        # its start and goes away from it knocked it only if it began touching it (where
        # it began was estimated then: the mover's present uncertainty, grown since, does
        # not widen that touch)
        leaving = began & (u <= 0.0) & (((p - (b - ab)) * ab).sum(-1) < 0) & (
            gap > r_pair + 2 * s.start_moving_mm)
        near = (gap <= s.knock_near_mm) & ~leaving
        mover_speed = np.hypot(v[:, 0], v[:, 1])
        knock = np.where(near, 2 * mover_speed[None], 0.0).max(axis=1)
        # (a path predicted through the object's centre pushes it along the path)
        through = gap < 1.0
        approach = (gap <= contact) & ((u > 0.0) | through)
        away = self._touch_line(rows, p[:, 0], approach, gap, nearest, ab, r_pair)
        # contacts run along touching objects (a row of pawns starts at once), each pushed
        # by the touching ones reached before it
        pushed_by = np.zeros((len(rows), len(rows)), dtype=bool)
        if (knock > 0).any():
            gap = np.linalg.norm(x[rows, None, :2] - x[None, rows, :2], axis=2)
            touching = gap <= r_rows[:, None] + r_rows[None, :] + s.start_moving_mm
            np.fill_diagonal(touching, False)
            for _ in range(len(rows) if not knock.all() else 0):
                passed = np.where(touching, knock[None, :], 0.0).max(axis=1)
                grown = np.maximum(knock, passed)
                if np.array_equal(grown, knock):
                    break
                knock = grown
            reached = approach.any(axis=1)
            front = reached
            while front.any():
                new = touching & front[None, :] & ~reached[:, None]
                pushed_by |= new
                front = new.any(axis=1)
                reached = reached | front
        speed[rows] = knock
        from_xy = np.zeros((n, len(rows), 2))
        pushes = np.zeros((n, len(rows)), dtype=bool)
        from_xy[rows] = x[rows, :2][None]
        pushes[rows] = pushed_by
        return _Knocks(speed, from_xy, pushes, away=away)

    def _touch_line(self, rows: np.ndarray, xy: np.ndarray, approach: np.ndarray,
                    gap: np.ndarray, nearest: np.ndarray, ab: np.ndarray, r_pair: np.ndarray
                    ) -> np.ndarray:
        """(N, 2): for resting ``rows`` (at ``xy``) a mover's path came to touch
        (``approach``, (R, M); its nearest point ``nearest`` at ``gap``, along ``ab``), the
        unit line of centres where the nearest one first touched it: where a struck disc
        goes. NaN elsewhere."""
        away = np.full((len(self._id), 2), np.nan)
        hit = np.asarray(approach.any(axis=1)).nonzero()[0]
        if not len(hit):
            return away
        m = np.argmin(np.where(approach[hit], gap[hit], np.inf), axis=1)
        g, step = gap[hit, m], ab[hit, m]
        length = np.linalg.norm(step, axis=1)
        back = np.sqrt(np.maximum(r_pair[hit, m] ** 2 - g**2, 0.0))
        touch = nearest[hit, m] - step / np.maximum(length, 1e-9)[:, None] * back[:, None]
        line = xy[hit] - touch
        size = np.linalg.norm(line, axis=1)
        ok = (length > 1e-6) & (size > 1e-6)
        away[rows[hit[ok]]] = line[ok] / size[ok, None]
        return away

    def _through_rest(self, rows: np.ndarray, z: np.ndarray) -> np.ndarray:
        """``(len(rows), len(z))``: would moving track ``row`` have passed through an object
        at rest to reach detection ``z``? Its straight path from last frame's estimate runs
        within half the sum of the radii of the resting object's centre: deeper than any
        glancing contact. Of two like discs in line, the mover stops and the one it hits
        goes on (Newton's cradle), so the detection beyond is the struck one's. Resting
        objects count only if seen within ``jump_window_s`` and not held after coasting."""
        x, _, _, moving = self._knock_basis
        t = self._t_s if self._t_s is not None else 0.0
        rest = (~moving & self._frame_live & ~self._held
                & (t - self._last_seen_t <= self.settings.jump_window_s)).nonzero()[0]
        blocked = np.zeros((len(rows), len(z)), dtype=bool)
        if not len(rest) or not len(z):
            return blocked
        a = x[rows, None, None, :2]  # (R, 1, 1, 2) where each mover was
        ab = z[None, :, None, :] - a  # (R, O, 1, 2) its step to each detection
        c = x[None, None, rest, :2]  # (1, 1, K, 2) the objects at rest
        u = np.clip(((c - a) * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-9), 0.0, 1.0)
        miss = np.linalg.norm(a + u[..., None] * ab - c, axis=-1)  # (R, O, K)
        deep = 0.5 * (self._radius[self._label[rows]][:, None]
                      + self._radius[self._label[rest]][None, :])  # (R, K)
        inside = miss < deep[:, None, :]
        inside &= rows[:, None, None] != rest[None, None, :]
        return inside.any(axis=2)

    def _turned_back(self, rows: np.ndarray, z: np.ndarray, sigma: np.ndarray,
                     live: np.ndarray, t: float) -> np.ndarray:
        """``(len(rows), len(z))``: would moving track ``row`` have turned back to reach
        detection ``z``, with nothing to turn it? A disc rolling in the open goes on; only
        a cushion or another object met on its way turns it back. Counts for pawns seen
        within ``jump_window_s`` on a confirmed motion at ``_TURN_MIN_SPEED_MM_S`` or more
        (a number of its own tells a ball from its neighbour anyway), and for
        detections behind their last sighting by more than the noise (3 sigma of both
        sightings, plus ``start_moving_mm``): the one beside it, followed by
        mistake, while it runs on into a pocket."""
        out = np.zeros((len(rows), len(z)), dtype=bool)
        v = self._x[rows, 2:]
        speed = np.linalg.norm(v, axis=1)
        dt = t - self._last_seen_t[rows]
        check = ((speed >= _TURN_MIN_SPEED_MM_S) & (dt <= self.settings.jump_window_s)
                 & ~self._unconfirmed(rows) & ~self._unique[self._label[rows]])
        if not check.any() or not len(z):
            return out
        r = rows[check]
        a = self._last_seen_xy[r]
        u = v[check] / speed[check, None]
        travel = speed[check] * dt[check]
        radius = self._radius[self._label[r]]
        # a cushion it runs into within its reach (the nose line, where its edge touches)
        # turns back only the motion across it: the one along it goes on
        room = self._half_wh[None] - radius[:, None] - np.abs(a)
        into = (room <= (travel + _TURN_NEAR_MM)[:, None]) & (np.sign(a) * u > 0)  # (R, 2)
        open_ = np.ones(len(r), dtype=bool)
        # another object in play on its way (where it is, or was last frame) that can
        # throw it back: one coming toward it, or a heavier one (a pawn off the puck; one
        # as heavy, at rest or going its way, stops it at most, or sends it aside)
        others = live.nonzero()[0]
        if len(others):
            pts = np.concatenate([self._x[others, :2], self._knock_basis[0][others, :2]])
            own = np.concatenate([others, others])
            rel = pts[None] - a[:, None]  # (R, 2K, 2)
            along = np.clip((rel * u[:, None]).sum(axis=2), 0.0, travel[:, None])
            gap = np.linalg.norm(rel - along[..., None] * u[:, None], axis=2)
            meet = radius[:, None] + self._radius[self._label[own]][None] + _TURN_NEAR_MM
            toward = (self._x[own, None, 2:] * u[None]).sum(axis=2).T < -_TURN_NEAR_MM_S
            heavier = self._radius[self._label[own]][None] > radius[:, None]
            near = (gap <= meet) & (own[None] != r[:, None]) & (toward | heavier)
            open_ &= ~near.any(axis=1)
        if not open_.any():
            return out
        step = z[None] - a[:, None]  # (R, O, 2)
        back = np.full(step.shape[:2], np.inf)  # mm behind on every way it can have gone
        for flip in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            may = np.all(into | (np.array(flip) > 0), axis=1)  # flips only off those rails
            back = np.where(may[:, None], np.minimum(
                back, -(step * (u * flip)[:, None]).sum(axis=2)), back)
        # (both sightings about as sure: a coasting track's grown variance is no measure
        # of where it was seen)
        tol = 3 * np.sqrt(2.0) * sigma[None] + self.settings.start_moving_mm
        out[check.nonzero()[0]] = open_[:, None] & (back > tol)
        return out

    def _unconfirmed_shift(self, live: np.ndarray, z: np.ndarray, sigma: np.ndarray,
                           lab: np.ndarray, ok: np.ndarray, t: float) -> np.ndarray:
        """``(len(live), len(z))``: stage-1 pairs of a resting track unseen since the frame
        before last with a detection farther than ``start_moving_mm`` (and its noise) from
        its place, where no detection lay within that of this one in the previous frames
        (``jump_window_s``), or of another label (``lab``): a misread is told from another
        object only up close (a ball hidden for seconds took a faint misread of its
        neighbour, 53 mm away). Remembers, per such track, its nearest such detection."""
        s = self.settings
        hidden = ~self._moving[live] & (self._misses[live] >= 2)
        out = np.zeros(ok.shape, dtype=bool)
        self._shift_seen = {row: p for row, p in self._shift_seen.items()
                            if t - p[0] <= s.jump_window_s}
        if not hidden.any():
            return out
        rows = hidden.nonzero()[0]
        step = np.linalg.norm(z[None] - self._x[live[rows], None, :2], axis=2)
        tol = s.start_moving_mm + 3 * sigma  # (per detection)
        far = ok[rows] & (step > tol[None, :])
        out[rows] = far & (self._label[live[rows]][:, None] != lab[None, :])
        for k in far.any(axis=1).nonzero()[0].tolist():
            row = int(live[rows[k]])
            prev = self._shift_seen.get(row)
            if prev is None:
                out[rows[k]] = far[k]
            else:
                out[rows[k]] |= far[k] & (np.linalg.norm(z - prev[1], axis=1) > tol)
            self._shift_seen[row] = (t, z[far[k]][np.argmin(step[k][far[k]])])
        return out

    def _away_from_push(self, rows: np.ndarray, z: np.ndarray, sigma: np.ndarray,
                        knocks: _Knocks) -> np.ndarray:
        """``(len(rows), len(z))``: may detection ``z`` be track ``row``? A knocked object
        moves away from what pushed it (a contact pushes along the line of centres), so a
        detection further back than the noise allows (3 sigma of track and detection)
        against every push on it is another object (in a row struck from one end, the
        neighbour behind). Objects pushed by no contact it knows of are not constrained."""
        ok = np.ones((len(rows), len(z)), dtype=bool)
        # (a unique label, a pool number, tells the object from its neighbours anyway)
        knocked = (knocks.speed[rows] > 0) & ~self._unique[self._label[rows]]
        if not knocked.any() or not len(z):
            return ok
        k = rows[knocked]
        x = self._x[k, :2]
        away = x[:, None, :] - knocks.from_xy[k]  # (R, K, 2)
        away /= np.maximum(np.linalg.norm(away, axis=2), 1e-9)[..., None]
        step = z[None, :, :] - x[:, None, :]  # (R, O, 2)
        along = np.einsum("rod,rkd->rok", step, away)
        tol = _PUSH_TOL_SIGMA * np.sqrt(self._P[k, 0, 0][:, None] + sigma[None, :] ** 2)
        pushes = knocks.pushes[k]
        fine = ((along >= -tol[..., None]) & pushes[:, None, :]).any(axis=2)
        # knocked by no mover it knows to have approached: the push could be from anywhere
        ok[knocked] = fine | ~pushes.any(axis=1)[:, None]
        return ok

    def _claimed(self, lab: np.ndarray, z: np.ndarray, live: np.ndarray, t: float
                 ) -> np.ndarray:
        """Which detections (labels ``lab``) lie within the stage-2 reach of a moving track
        in play of their own label (``_moving_reach``)."""
        rows = (live & self._moving).nonzero()[0]
        if not len(rows):
            return np.zeros(len(z), dtype=bool)
        own = self._label[rows][:, None] == lab[None, :]
        unseen = np.clip(t - self._last_seen_t[rows], 0.0, self.settings.jump_window_s)
        reach = self._moving_reach(rows, live, unseen)
        d = np.linalg.norm(z[None] - self._last_seen_xy[rows][:, None], axis=2)
        out: np.ndarray = (own & (d <= reach[:, None])).any(axis=0)
        return out

    def _moving_reach(self, rows: np.ndarray, live: np.ndarray, unseen_s: np.ndarray
                      ) -> np.ndarray:
        """How far a moving object can have gone while unseen (``unseen_s``, capped at
        ``jump_window_s``): a collision or a cushion turns it, but it speeds up only when
        struck by a faster mover, so at most twice the fastest of its own speed and the
        speeds of the movers that could have reached it (plus ``_SPEED_SLACK_MM_S`` for a
        filter still catching up), not ``max_speed_mm_s``: a ball rolling alone does not
        jump to a false detection across the table."""
        v = np.linalg.norm(self._x[:, 2:4], axis=1)
        fast = v[rows]
        others = (live & self._moving).nonzero()[0]
        if len(others):
            gap = np.linalg.norm(self._x[rows, None, :2] - self._x[None, others, :2], axis=2)
            near = gap <= (fast[:, None] + v[None, others]) * self.settings.jump_window_s + (
                _CAUSE_NEAR_MM)
            near &= rows[:, None] != others[None, :]
            fast = np.maximum(fast, np.max(np.where(near, v[None, others], 0.0), axis=1))
        speed = np.minimum(2.0 * fast + _SPEED_SLACK_MM_S, self.settings.max_speed_mm_s)
        # a motion begun in the last frames (a stroke, a bounce) has no speed to go by yet
        fresh = self._t_s - self._path_t0[rows] < _FRESH_MOTION_S
        speed[fresh] = self.settings.max_speed_mm_s
        slack = 3 * np.sqrt(self._P[rows, 0, 0]) + 10.0
        return np.minimum(speed * unseen_s, self._to_pocket_mm(rows, live)) + slack

    def _to_pocket_mm(self, rows: np.ndarray, live: np.ndarray) -> np.ndarray:
        """How far moving tracks ``rows`` run from their last sighting before they are
        pocketed (inf where they are not headed into one): each runs straight on (whatever
        its speed, which a stroke's first frame does not tell) unless a rail or an object
        on the way turns it. Only a path through the middle of a capture circle counts: a
        grazing one may miss it. The object is found before the pocket or not at all, so a
        detection beyond is another object, however fast it may be going."""
        out = np.full(len(rows), np.inf)
        v = self._x[rows, 2:4]
        speed = np.linalg.norm(v, axis=1)
        pk = self._pockets
        go = speed > 0
        if not len(pk.capture_mm) or not go.any():
            return out
        a = self._last_seen_xy[rows[go]]
        way = v[go] / speed[go, None]
        end, potted = self._exit_point(a, way)
        # the ray's nearest approach to the centre of the pocket it enters
        off = pk.centre_xy_mm[None] - a[:, None]  # (N, K, 2)
        along = np.einsum("nkd,nd->nk", off, way)
        miss = np.abs(off[..., 0] * way[:, None, 1] - off[..., 1] * way[:, None, 0])
        k = np.argmin(np.where(along > 0, np.linalg.norm(off, axis=2), np.inf), axis=1)
        n = np.arange(len(a))
        central = potted & (miss[n, k] <= 0.5 * pk.capture_mm[k])
        clear = central & self._clear_way(rows[go], a, end, live)
        out[go.nonzero()[0][clear]] = np.linalg.norm(end - a, axis=1)[clear]
        # (or one that meets a cushion with its edge over a capture circle: in a Novuss
        # corner the rails round the hole turn it in)
        u = self._to_rail(a, way, self._radius[self._label[rows[go]]])
        touch = a + np.maximum(u, 0.0)[:, None] * way
        corner = ~central & self._over_ringed_hole(rows[go], touch).any(axis=1)
        if corner.any():
            corner[corner] = self._clear_way(rows[go][corner], a[corner], touch[corner], live)
            out[go.nonzero()[0][corner]] = np.maximum(u[corner], 0.0)
        return out

    def _clear_way(self, rows: np.ndarray, a: np.ndarray, end: np.ndarray, live: np.ndarray
                   ) -> np.ndarray:
        """Whether the straight ways ``a -> end`` (N, 2) of tracks ``rows`` pass clear of
        every other object at rest in play (mask ``live``): one near the way could turn it
        (a mover there follows or crosses it)."""
        others = (live & ~self._moving).nonzero()[0]
        seg = end - a
        length = np.maximum(np.linalg.norm(seg, axis=1), 1e-9)
        rel = self._x[others, None, :2] - a[None]  # (O, N, 2)
        u = np.clip(np.einsum("ond,nd->on", rel, seg) / length**2, 0.0, 1.0)
        gap = np.linalg.norm(rel - u[..., None] * seg[None], axis=2)
        r = self._radius[self._label[rows]]
        near = gap <= (r[None] + self._radius[self._label[others]][:, None] + 10.0)
        near &= others[:, None] != rows[None]
        out: np.ndarray = ~near.any(axis=0)
        return out

    def _calm_reach(self, rows: np.ndarray, knocks: _Knocks, t: float) -> np.ndarray:
        """How far a resting object of a label with many objects (a Novuss pawn) can have
        gone while unseen (0: nowhere). Knocked (see ``_knocks``): as far as it may move
        while unseen. Moved by hand: hidden ``moved_min_unseen_s`` or longer, to a detection
        that overlaps where it lay (nothing else can be there)."""
        s = self.settings
        unseen_s = t - self._last_seen_t[rows]
        span = np.clip(unseen_s, 0.0, s.jump_window_s)
        if knocks.since_s is not None:  # a knock remembered: it came no earlier than then
            span = np.minimum(span, knocks.since_s[rows])
        knock = knocks.speed[rows]
        reach = np.where(knock > 0, knock * span + 3 * np.sqrt(self._P[rows, 0, 0]) + 10, 0.0)
        # between shots nothing moves: a hidden object found overlapping where it lay was
        # moved by hand
        hidden = (unseen_s >= s.moved_min_unseen_s) & (reach == 0)
        overlap = 2 * self._radius[self._label[rows]]
        return np.where(hidden, overlap, reach)

    def _stage1_update(self, tr: np.ndarray, z: np.ndarray, sigma: np.ndarray,
                       d2: np.ndarray, t: float, notes: list[TrackNote]) -> None:
        s = self.settings
        jump = ~self._moving[tr] & (d2 > s.start_moving_chi2)
        if jump.any():
            dz = z - self._x[tr, :2]
            jump &= np.hypot(dz[:, 0], dz[:, 1]) > s.start_moving_mm
        if not jump.any():
            self._x[tr], self._P[tr] = cv_update_position(self._x[tr], self._P[tr], z, sigma)
            return
        normal = ~jump
        if normal.any():
            r = tr[normal]
            self._x[r], self._P[r] = cv_update_position(self._x[r], self._P[r], z[normal],
                                                        sigma[normal])
        if jump.any():
            self._restart(tr[jump], z[jump], sigma[jump], t)

    def _stage2_update(self, tr: np.ndarray, z: np.ndarray, sigma: np.ndarray, t: float,
                       frame: int, notes: list[TrackNote], knocks: _Knocks) -> None:
        """Tracks found by a jump: one seen a second time since its motion restarted
        confirms that motion (a filter update); a resting one unseen for long, far from
        where it lay and knocked by nothing, was moved by hand; any other restarts."""
        s = self.settings
        unsure = self._unconfirmed(tr)
        if unsure.any():
            r = tr[unsure]
            self._x[r], self._P[r] = cv_update_position(self._x[r], self._P[r], z[unsure],
                                                        sigma[unsure])
            tr, z, sigma = tr[~unsure], z[~unsure], sigma[~unsure]
        away = np.linalg.norm(z - self._last_seen_xy[tr], axis=1)
        moved = (~self._moving[tr] & (t - self._last_seen_t[tr] >= s.moved_min_unseen_s)
                 & (away > s.moved_min_mm) & (knocks.speed[tr] == 0))
        if moved.any():
            r = tr[moved]
            for k, row in enumerate(r):
                notes.append(self._note(NoteKind.MOVED, row, t, frame, z[moved][k],
                                        from_xy=self._last_seen_xy[row]))
            self._settle(r, z[moved], sigma[moved], t)
        if (~moved).any():
            self._restart(tr[~moved], z[~moved], sigma[~moved], t)

    def _struck_while_hidden_jumps(self, tr: np.ndarray, z: np.ndarray, sigma: np.ndarray,
                                   lab: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray]:
        """Stage-2 jumps of a striker (the cue ball, the puck) at rest and hidden two frames
        or more, found farther than ``candidate_gate_mm`` from where it lay: as likely a
        false detection as a stroke or a hand, so the first sighting waits (``wait``) for
        the next frame to show the object again: further out along the same line (struck:
        its motion starts from the first sighting and the second updates it, ``went``,
        done here) or where it was (set down by hand: the usual stage-2 update). So does
        a sighting of another label (``lab``: its blur misread), even if the striker was
        seen at rest last frame; only ``went`` takes it, and the striker reads so while
        it moves on; otherwise it waits, not its blur."""
        s = self.settings
        wait = np.zeros(len(tr), dtype=bool)
        went = np.zeros(len(tr), dtype=bool)
        read = (lab != self._label[tr]) & ~self._moving[tr]
        for k, row in enumerate(tr.tolist()):
            pend = self._pending_jumps.pop(row, None)
            if (self._moving[row] or not self._struck[self._label[row]]
                    or (self._misses[row] < 2 and not read[k])):
                continue
            rest = self._last_seen_xy[row]
            d2 = z[k] - rest
            n2 = math.hypot(float(d2[0]), float(d2[1]))
            if n2 <= s.candidate_gate_mm:
                continue
            if pend is not None:
                p_t, p_xy, p_sigma, _ = pend
                d1, on = p_xy - rest, z[k] - p_xy
                n1 = math.hypot(float(d1[0]), float(d1[1]))
                step = math.hypot(float(on[0]), float(on[1]))
                if (step > s.start_moving_mm and float(d1 @ on) > _SAME_LINE_COS * n1 * step
                        and step <= s.max_speed_mm_s * (t - p_t) + 3 * float(sigma[k]) + 10):
                    r = np.array([row])
                    self._restart(r, p_xy[None], np.array([p_sigma]), p_t)
                    self._last_seen_t[row], self._last_seen_xy[row] = p_t, p_xy
                    self._x[r], self._P[r] = cv_predict(self._x[r], self._P[r], t - p_t,
                                                        s.q_moving_mm2_s3)
                    self._x[r], self._P[r] = cv_update_position(self._x[r], self._P[r],
                                                                z[k][None], sigma[k][None])
                    went[k] = True
                    if read[k]:
                        self._read_as[row] = int(lab[k])
                    continue
                if step <= s.start_moving_mm + 3 * math.hypot(float(sigma[k]), p_sigma):
                    continue
            self._pending_jumps[row] = (t, z[k].copy(), float(sigma[k]), int(lab[k]))
            wait[k] = True
        wait |= read & ~went  # (no second sighting in line: not its blur)
        return wait, went

    def _restart(self, rows: np.ndarray, z: np.ndarray, sigma: np.ndarray, t: float) -> None:
        """A sudden change of motion: restart the filter from the displacement. A knocked
        one waits for a second sighting to confirm that motion (see ``_unconfirmed``); one
        moved by hand between shots is followed as before."""
        s = self.settings
        dt = np.maximum(t - self._last_seen_t[rows], 1e-3)
        v = (z - self._last_seen_xy[rows]) / dt[:, None]
        speed = np.linalg.norm(v, axis=1)
        v *= (np.minimum(speed, s.max_speed_mm_s) / np.maximum(speed, 1e-9))[:, None]
        self._x[rows] = np.hstack([z, v])
        P = np.zeros((len(rows), 4, 4))
        P[:, 0, 0] = P[:, 1, 1] = sigma**2
        P[:, 2, 2] = P[:, 3, 3] = (0.5 * speed + 200.0) ** 2
        self._P[rows] = P
        self._moving[rows] = True
        self._path_t0[rows] = self._last_seen_t[rows]
        self._path_xy0[rows] = self._last_seen_xy[rows]
        self._slow_since[rows] = np.nan
        knocked = rows[self._knocks(self._frame_live, t).speed[rows] > 0]
        self._jump_t[knocked] = t

    def _unconfirmed(self, rows: np.ndarray) -> np.ndarray:
        """Which tracks of ``rows``, of identical objects (pawns), a knock restarted and
        nothing has confirmed since (their one-step velocity predicts badly). A unique
        label (a pool number, the puck) tells the object from its neighbours anyway."""
        return (self._moving[rows] & (self._jump_t[rows] >= self._last_seen_t[rows])
                & ~self._unique[self._label[rows]])

    def _settle(self, rows: np.ndarray, z: np.ndarray, sigma: np.ndarray, t: float) -> None:
        """Put tracks at rest at ``z`` (moved by hand, placed back, held after coasting)."""
        self._x[rows] = np.hstack([z, np.zeros_like(z)])
        P = np.zeros((len(rows), 4, 4))
        P[:, 0, 0] = P[:, 1, 1] = sigma**2
        P[:, 2, 2] = P[:, 3, 3] = 100.0**2
        self._P[rows] = P
        self._moving[rows] = False
        self._slow_since[rows] = np.nan
        self._t_state[rows] = t

    def _after_match(self, rows: np.ndarray, z: np.ndarray, sigma: np.ndarray, lab: np.ndarray,
                     score: np.ndarray, path_from: np.ndarray, path_t0: np.ndarray, t: float
                     ) -> None:
        """Bookkeeping for the tracks matched this frame (``rows``, at ``z``): last seen,
        label votes, rest detection, and pockets or off the table along the path from
        ``path_from`` (per track, NaN: no path) since ``path_t0``."""
        s = self.settings
        if not len(rows):
            return
        self._last_seen_t[rows] = t
        self._last_seen_xy[rows] = z
        self._last_sigma[rows] = sigma
        self._before_xy[rows] = path_from[rows]
        self._misses[rows] = 0
        self._empty[rows] = 0
        self._covered[rows] = 0
        self._knocked_to[rows] = np.nan
        self._touched_dir[rows] = np.nan
        held = self._held[rows].copy()
        self._held[rows] = False
        self._t_state[rows] = t
        # label votes
        votes = self._votes[rows] * s.label_vote_decay
        votes[np.arange(len(rows)), lab] += score
        self._votes[rows] = votes
        best = np.argmax(votes, axis=1)
        relabel = best != self._label[rows]
        if relabel.any():
            for k in relabel.nonzero()[0]:
                self._relabel(int(rows[k]), int(best[k]))
        # a centre found well inside a pocket's capture circle is past the point of no
        # return, whatever its path: a ball that rolled in hidden, its track held short of
        # the pocket, is seen again lying in the cup (not one seen resting where it lies:
        # a pawn at rest on the circle's edge is found inside it by noise)
        pk = self._pockets
        may = self._moving[rows] | held
        if len(pk.capture_mm) and may.any():
            inside = may.copy()
            d = np.linalg.norm(z[may, None] - pk.centre_xy_mm[None], axis=2)
            inside[may] = (d <= pk.capture_mm[None] - s.pocket_margin_mm).any(axis=1)
            if inside.any():
                self._retire(rows[inside], TrackState.POCKETED, z[inside])
                rows, z = rows[~inside], z[~inside]
        # rest detection
        moving = self._moving[rows]
        off = z - self._anchor_xy[rows]
        still = off[:, 0] ** 2 + off[:, 1] ** 2 <= s.rest_radius_mm**2
        self._anchor_xy[rows[~still]] = z[~still]  # a still spell would begin here
        if not moving.any():
            return  # at rest already: no still spell to time (its slow_since is NaN)
        v = self._x[rows, 2:]
        speed = np.hypot(v[:, 0], v[:, 1])
        slow = moving & ((speed < s.rest_speed_mm_s) | still)
        since = self._slow_since[rows]
        since = np.where(slow & np.isnan(since), t, np.where(slow, since, np.nan))
        self._slow_since[rows] = since
        rest = slow & (t - since >= s.rest_after_s)
        if rest.any():
            r = rows[rest]
            self._x[r, 2:] = 0.0
            self._P[r, 2:, 2:] = np.eye(2) * 10.0**2
            self._P[r, :2, 2:] = self._P[r, 2:, :2] = 0.0
            self._moving[r] = False
            self._slow_since[r] = np.nan
        # pockets and off the table, from the path since the previous frame (an object at
        # rest cannot cross anything; nor can one that would have had to outrun
        # max_speed_mm_s: that path is a wrong pairing, not a motion)
        mv = self._moving[rows]
        if not mv.any():
            return
        rows, z = rows[mv], z[mv]
        prev_xy = path_from[rows]
        prev_xy = np.where(np.isnan(prev_xy), z, prev_xy)
        path_dt = t - path_t0[rows]
        d = z - prev_xy
        step = np.hypot(d[:, 0], d[:, 1])
        reach = s.max_speed_mm_s * np.maximum(path_dt, 0.0) + 3 * np.sqrt(self._P[rows, 0, 0]) + 10
        go = step <= reach
        if go.any():
            self._retire_crossing(rows[go], prev_xy[go], z[go], t, require_speed=True,
                                  margin_mm=s.pocket_margin_mm,
                                  path_speed=step[go] / np.maximum(path_dt[go], 1e-3))

    def _empty_evidence(self, live: np.ndarray, seen: np.ndarray,
                        matched_xy: np.ndarray) -> None:
        """Count, for every unseen resting track, the frames in which a neighbour within
        ``empty_near_mm`` of its hold position was seen: the place is in view and empty."""
        unseen = live[~seen[live] & ~self._moving[live]]
        if not len(unseen):
            return
        others = seen.nonzero()[0]
        if not len(others):
            return
        dx = self._x[unseen, 0, None] - matched_xy[others, 0][None]
        dy = self._x[unseen, 1, None] - matched_xy[others, 1][None]
        near = (dx * dx + dy * dy <= self.settings.empty_near_mm**2).any(axis=1)
        self._empty[unseen[near]] += 1

    def _covered_places(self, live: np.ndarray, seen: np.ndarray, matched_xy: np.ndarray,
                        t: float) -> None:
        """Resting balls whose place a mover covers were knocked away unseen
        (``covered_frac``): where the line of centres of the mover's first touch leaves the
        surface is kept, and those seen nowhere for ``covered_gone_s`` are retired there."""
        s = self.settings
        unseen = live[~seen[live] & self._unique[self._label[live]]]
        rows = unseen[~self._moving[unseen] & ~self._held[unseen]
                      & (t - self._last_seen_t[unseen] <= s.jump_window_s + self._frame_dt_s)
                      & np.isnan(self._knocked_to[unseen, 0])]
        movers = (seen & self._moving).nonzero()[0]
        if len(rows) and len(movers):
            gap = self._x[rows, None, :2] - matched_xy[movers][None]  # (R, M, 2)
            dist = np.linalg.norm(gap, axis=2)
            touch = self._radius[self._label[rows]][:, None] + self._radius[
                self._label[movers]][None, :]
            # (the line of centres is best seen where the mover first touched the place)
            first = (np.isnan(self._touched_dir[rows, 0])
                     & (dist < touch).any(axis=1)).nonzero()[0]
            if len(first):
                k = np.argmin(dist[first], axis=1)
                self._touched_dir[rows[first]] = gap[first, k] / np.maximum(
                    dist[first, k], 1e-9)[:, None]
            over = dist < s.covered_frac * touch
            hit = over.any(axis=1)
            self._covered[rows] = np.where(hit, self._covered[rows] + 1, 0)
            done = (hit & (self._covered[rows] >= 2)).nonzero()[0]
            if len(done):
                r = rows[done]
                away = self._touched_dir[r]
                self._knocked_to[r], self._knocked_potted[r] = self._exit_point(
                    self._x[r, :2], away)
        elif len(rows):
            self._covered[rows] = 0
        gone = unseen[np.isfinite(self._knocked_to[unseen, 0])
                      & (t - self._last_seen_t[unseen] >= s.covered_gone_s)]
        if len(gone):
            where, potted = self._knocked_to[gone], self._knocked_potted[gone]
            for state, m in ((TrackState.POCKETED, potted), (TrackState.OFF_TABLE, ~potted)):
                if m.any():
                    self._retire(gone[m], state, where[m])

    def _to_rail(self, a: np.ndarray, d: np.ndarray, inset_mm: np.ndarray | None = None
                 ) -> np.ndarray:
        """For lines ``a + u d`` (N, 2 each), the ``u`` where each meets the playing
        surface's edge, or the line ``inset_mm`` (N,) inside it (an object's radius: where
        its edge meets the cushion's nose); inf where it never moves, NaN where ``d`` is
        NaN."""
        edge = self._half_wh[None] if inset_mm is None else (
            self._half_wh[None] - inset_mm[:, None])
        with np.errstate(divide="ignore", invalid="ignore"):
            to_edge = np.where(d > 0, (edge - a) / d, np.where(d < 0, (-edge - a) / d, np.inf))
        out: np.ndarray = to_edge.min(axis=1)
        return out

    def _exit_point(self, a: np.ndarray, away: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where rays from ``a`` along unit ``away`` (N, 2) leave the surface: the point
        where each first enters a pocket's capture circle (and True), else where it meets
        a rail."""
        b = a + np.nan_to_num(self._to_rail(a, away), posinf=0.0)[:, None] * away
        pk = self._pockets
        if not len(pk.capture_mm):
            return b, np.zeros(len(a), dtype=bool)
        enter, frac = _segment_hits_circle(a, b, pk.centre_xy_mm, pk.capture_mm)
        first = np.where(enter, frac, np.inf).min(axis=1)
        potted: np.ndarray = np.asarray(enter.any(axis=1))
        where = np.where(potted[:, None], a + np.where(potted, first, 0.0)[:, None] * (b - a), b)
        return where, potted

    def _relabel(self, row: int, label: int) -> None:
        if self._unique[label]:
            holders = ((self._label == label) & (self._retired == 0)).nonzero()[0]
            if len(holders):
                return  # another ball has this number; keep ours (a burst of misreads)
        self._label[row] = label

    def _retire_crossing(self, rows: np.ndarray, a: np.ndarray, b: np.ndarray, t: float,
                         require_speed: bool, margin_mm: float = 0.0,
                         path_speed: np.ndarray | None = None) -> None:
        """Retire tracks whose centre path ``a -> b`` entered a pocket's capture circle
        (less ``margin_mm``; POCKETED) or left the playing surface away from the pockets
        (OFF_TABLE; with ``require_speed`` only at ``off_table_speed_mm_s`` or faster, by
        the filter or by ``path_speed``: a disc slid in over the rail by hand is slow)."""
        s = self.settings
        if not len(rows):
            return
        pk = self._pockets
        # the object ends this path in the pocket: a centre seen beyond the hole, back
        # on the surface, did not drop (a pairing across the pocket, or a graze)
        at_hole = (np.linalg.norm(b[:, None] - pk.centre_xy_mm[None], axis=2)
                   <= np.maximum(pk.hole_mm, pk.capture_mm)[None])
        if at_hole.any():
            radius = np.maximum(pk.capture_mm - margin_mm, 1.0)
            hit, frac = _segment_hits_circle(a, b, pk.centre_xy_mm, radius)
            hit &= at_hole
            potted = hit.any(axis=1)
            if potted.any():
                where = np.where(hit, frac, np.inf).min(axis=1)
                r = rows[potted]
                xy = a[potted] + where[potted, None] * (b[potted] - a[potted])
                self._retire(r, TrackState.POCKETED, xy)
                keep = ~potted
                rows, a, b = rows[keep], a[keep], b[keep]
                if path_speed is not None:
                    path_speed = path_speed[keep]
        if not len(rows):
            return
        outside = (np.abs(b) > self._half_wh + s.off_table_margin_mm).any(axis=1)
        if not outside.any():
            return
        if len(pk.capture_mm):
            near_pocket = (np.linalg.norm(b[:, None] - pk.centre_xy_mm[None], axis=2)
                           <= pk.hole_mm[None]).any(axis=1)
            outside &= ~near_pocket
        if require_speed:
            speed = np.linalg.norm(self._x[rows, 2:], axis=1)
            if path_speed is not None:
                speed = np.maximum(speed, path_speed)
            outside &= speed >= s.off_table_speed_mm_s
        if outside.any():
            r = rows[outside]
            xy = np.clip(b[outside], -self._half_wh - self.spec.rail_width_mm,
                         self._half_wh + self.spec.rail_width_mm)
            self._retire(r, TrackState.OFF_TABLE, xy)

    def _retire(self, rows: np.ndarray, state: TrackState, xy: np.ndarray) -> None:
        self._retired[rows] = int(state)
        self._retired_t[rows] = self._t_s if self._t_s is not None else 0.0
        self._x[rows] = np.hstack([xy, np.zeros_like(xy)])
        self._moving[rows] = False

    def _lost(self, rows: np.ndarray, t: float) -> None:
        s = self.settings
        if not len(rows):
            return
        self._knocked_into_pocket(rows[~self._moving[rows]], t)
        self._struck_into_pocket(rows[~self._moving[rows]], t)
        moving = rows[self._moving[rows]]
        if not len(moving):
            return
        # A track lost on a path into a pocket (before any rail) is pocketed, judged once
        # when it has been missed lost_min_misses times, on the path it had time to run.
        judge = moving[self._misses[moving] == s.lost_min_misses]
        if len(judge):
            horizon = np.minimum(t - self._last_seen_t[judge], s.coast_s)
            a = self._last_seen_xy[judge]
            b = a + self._x[judge, 2:] * horizon[:, None]
            self._retire_lost(judge, a, b, horizon, pockets_only=True)
        # One lost fast, heading over a rail within off_table_horizon_s, and not seen again
        # for off_table_lost_s (a ball that bounced back would be) has left the table.
        gone = moving[(t - self._last_seen_t[moving] >= s.off_table_lost_s)
                      & (self._retired[moving] == 0)]
        if len(gone):
            a = self._last_seen_xy[gone]
            b = a + self._x[gone, 2:] * s.off_table_horizon_s
            self._retire_lost(gone, a, b, np.full(len(gone), s.off_table_horizon_s),
                              pockets_only=False)
        # Coasted long enough: pocketed if the coast ran into a pocket (hidden meanwhile,
        # under an arm, it rolled on), else held where it got to, inside the surface.
        held = moving[(t - self._last_seen_t[moving] >= s.coast_s)
                      & (self._retired[moving] == 0)]
        if len(held):
            held = held[~self._coasted_into_pocket(held)]
        if len(held):
            xy = np.clip(self._x[held, :2], -self._half_wh, self._half_wh)
            self._settle(held, xy, np.sqrt(self._P[held, 0, 0]), t)
            self._held[held] = True

    def _coasted_into_pocket(self, rows: np.ndarray) -> np.ndarray:
        """Retire as pocketed the moving tracks ``rows``, unseen for ``coast_s``, whose
        straight coast from their last sighting reaches ``pocket_margin_mm`` inside a
        pocket's capture circle before any rail; return which were."""
        pk = self._pockets
        if not len(pk.capture_mm):
            return np.zeros(len(rows), dtype=bool)
        a, d = self._along_cushion(rows, self._last_seen_xy[rows],
                                   self._x[rows, 2:] * self.settings.coast_s)
        enter = self._pocket_entry(
            a, d, np.maximum(pk.capture_mm - self.settings.pocket_margin_mm, 1.0))
        potted = np.isfinite(enter)
        if potted.any():
            self._retire(rows[potted], TrackState.POCKETED,
                         a[potted] + enter[potted, None] * d[potted])
        return potted

    def _along_cushion(self, rows: np.ndarray, a: np.ndarray, d: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
        """Paths ``a -> a + d`` of tracks ``rows`` that run along a cushion (seen at or
        beyond the line where the object's edge touches it, moving nearly parallel to it)
        put on that line and kept there: noise sets a centre a few mm over it, and the
        object rolling along a Novuss rail into the corner drops in a pocket whose
        capture circle that line only grazes."""
        nose = self._half_wh[None] - self._radius[self._label[rows]][:, None]  # (N, 2)
        speed = np.linalg.norm(d, axis=1, keepdims=True)
        slide = (np.abs(a) >= nose) & (np.abs(d) <= _ALONG_CUSHION_SIN * speed)
        return (np.where(slide, np.sign(a) * nose, a), np.where(slide, 0.0, d))

    def _pocket_entry(self, a: np.ndarray, d: np.ndarray, radius: np.ndarray) -> np.ndarray:
        """For paths ``a -> a + d`` (N, 2), the fraction of ``d`` at which each first enters
        a circle of ``radius`` (K,) about a pocket's centre before it meets a rail (inf
        where it does not)."""
        exit_frac = np.clip(np.nan_to_num(self._to_rail(a, d), nan=1.0, posinf=1.0), 0.0, 1.0)
        hit, frac = _segment_hits_circle(a, a + exit_frac[:, None] * d,
                                         self._pockets.centre_xy_mm, radius)
        out: np.ndarray = np.where(hit, frac, np.inf).min(axis=1) * np.maximum(exit_frac, 1e-9)
        return out

    def _knocked_into_pocket(self, rows: np.ndarray, t: float) -> None:
        """Resting pawns (``rows``, unseen) that a mover touched since they were last seen
        and that are seen nowhere for ``off_table_lost_s``: pocketed where the line of
        centres of that touch runs straight into a pocket, with nothing on the way, near
        enough that the knock (at its speed) had it gone by the first frame that missed
        it. A pawn by a corner pocket, knocked in, drops before any frame shows it moving;
        a pawn of a colour many share is not told by its label where else it could be.
        (A ball of a number of its own: see ``_covered_places``.)"""
        s = self.settings
        rows = rows[~self._unique[self._label[rows]] & (self._retired[rows] == 0)
                    & self._knocked_unseen(rows) & np.isfinite(self._knock_away[rows, 0])
                    & (t - self._last_seen_t[rows] >= s.off_table_lost_s)]
        if not len(rows) or not len(self._pockets.capture_mm):
            return
        a = self._x[rows, :2]
        end, potted = self._exit_point(a, self._knock_away[rows])
        window = self._first_miss_t[rows] - self._last_seen_t[rows]
        soon = np.linalg.norm(end - a, axis=1) <= (
            self._touch_speed[rows] * window * s.lost_pocket_slack)
        go = potted & soon
        if go.any():
            go[go] = self._clear_way(rows[go], a[go], end[go], self._frame_live)
            self._retire(rows[go], TrackState.POCKETED, end[go])

    def _struck_into_pocket(self, rows: np.ndarray, t: float) -> None:
        """Resting strikers (the puck; ``rows``, unseen) whose last sighting had left their
        place by more than its noise (3 sigma), on a clear way
        straight into a pocket near enough to be reached by the next frame, and that are
        seen nowhere for ``off_table_lost_s``: struck into the pocket beside them, gone
        before any frame showed them moving (a puck set down by a corner)."""
        s = self.settings
        rows = rows[self._struck[self._label[rows]] & (self._retired[rows] == 0)
                    & (t - self._last_seen_t[rows] >= s.off_table_lost_s)
                    & np.isfinite(self._before_xy[rows, 0])]
        if not len(rows) or not len(self._pockets.capture_mm):
            return
        a = self._before_xy[rows]
        shift = self._last_seen_xy[rows] - a
        step = np.linalg.norm(shift, axis=1)
        go = step > 3.0 * self._last_sigma[rows]  # (the place: averaged over many frames)
        if not go.any():
            return
        rows, a, shift, step = rows[go], a[go], shift[go], step[go]
        end, potted = self._exit_point(a, shift / step[:, None])
        window = self._first_miss_t[rows] - self._last_seen_t[rows]
        soon = np.linalg.norm(end - a, axis=1) <= s.max_speed_mm_s * window
        go = potted & soon
        if go.any():
            go[go] = self._clear_way(rows[go], a[go], end[go], self._frame_live)
            self._retire(rows[go], TrackState.POCKETED, end[go])

    def _retire_lost(self, rows: np.ndarray, a: np.ndarray, b: np.ndarray,
                     duration_s: np.ndarray, pockets_only: bool) -> None:
        """Judge tracks lost on the path ``a -> b`` (run in ``duration_s``). Pocketed: the
        path comes within ``pocket_margin_mm`` of a capture circle before any rail, soon
        enough (``lost_pocket_slack``) that the object was gone by the first frame that
        missed it; had it still been on the surface, that frame would have shown it. Off
        the table (unless ``pockets_only``): ``b`` lies beyond a rail, reached fast."""
        s = self.settings
        d = b - a
        pk = self._pockets
        if len(pk.capture_mm):
            a_in, d_in = self._along_cushion(rows, a, d)
            enter = self._pocket_entry(a_in, d_in, pk.capture_mm + s.pocket_margin_mm)
            window = self._first_miss_t[rows] - self._last_seen_t[rows]
            potted = np.isfinite(enter) & (enter * duration_s <= s.lost_pocket_slack * window)
            if potted.any():
                xy = a_in[potted] + enter[potted, None] * d_in[potted]
                self._retire(rows[potted], TrackState.POCKETED, xy)
                keep = ~potted
                rows, a, b = rows[keep], a[keep], b[keep]
        if len(rows) and not pockets_only and len(pk.capture_mm):
            # one lost moving with its edge over a capture circle went in: in a Novuss
            # corner the rails round the hole turn it back over it within a frame, which
            # its velocity, caught mid-bounce, does not tell (unless it hit the rail it
            # runs into hard enough to fly over it)
            over = self._over_ringed_hole(rows, a) & (
                self._rail_speed(rows, a) < s.fly_over_speed_mm_s)[:, None]
            if over.any():
                k = np.argmax(over, axis=1)
                hit = over.any(axis=1)
                self._retire(rows[hit], TrackState.POCKETED, pk.centre_xy_mm[k[hit]])
                rows, a, b = rows[~hit], a[~hit], b[~hit]
        if len(rows) and not pockets_only and len(pk.capture_mm):
            # a cushion turns far more objects than fly over it: one that comes off the
            # cushion into a pocket within the horizon is pocketed
            bounce, xy = self._bounce_into_pocket(rows, a, b)
            if bounce.any():
                self._retire(rows[bounce], TrackState.POCKETED, xy[bounce])
                rows, a, b = rows[~bounce], a[~bounce], b[~bounce]
        if len(rows) and not pockets_only:
            outside = (np.abs(b) > self._half_wh + s.off_table_margin_mm).any(axis=1)
            fast = np.linalg.norm(self._x[rows, 2:], axis=1) >= s.off_table_speed_mm_s
            if (outside & fast).any():
                r = outside & fast
                self._retire_crossing(rows[r], b[r], b[r], 0.0, require_speed=True)

    def _over_ringed_hole(self, rows: np.ndarray, xy: np.ndarray) -> np.ndarray:
        """``(N, K)``: which pockets ringed by rails (a Novuss corner) tracks ``rows``,
        centred at ``xy``, hang their edge over (the capture circle)."""
        pk = self._pockets
        gap = np.linalg.norm(xy[:, None] - pk.centre_xy_mm[None], axis=2)
        out: np.ndarray = pk.ringed[None] & (
            gap <= pk.capture_mm[None] + self._radius[self._label[rows]][:, None])
        return out

    def _rail_speed(self, rows: np.ndarray, a: np.ndarray) -> np.ndarray:
        """Speed (mm/s) across the rail that tracks ``rows``, last seen at ``a`` (N, 2),
        run into first (0 where they run into none)."""
        v = self._x[rows, 2:]
        toward = np.where(a == 0, v, np.sign(a) * v)  # (N, 2) per axis, toward its rail
        nose = self._half_wh[None] - self._radius[self._label[rows]][:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            wait = np.where(toward > 0, np.maximum(nose - np.abs(a), 0.0) / toward, np.inf)
        first = np.argmin(wait, axis=1)
        n = np.arange(len(rows))
        out: np.ndarray = np.where(np.isfinite(wait[n, first]), toward[n, first], 0.0)
        return out

    def _bounce_into_pocket(self, rows: np.ndarray, a: np.ndarray, b: np.ndarray
                            ) -> tuple[np.ndarray, np.ndarray]:
        """Which paths ``a -> b`` (N, 2) of tracks ``rows`` meet a cushion (where the
        object's edge touches it) and, mirrored there, enter a pocket's capture circle;
        and where they enter it."""
        pk = self._pockets
        d = b - a
        nose = self._half_wh[None] - self._radius[self._label[rows]][:, None]  # (N, 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            u_axis = np.where(d > 0, (nose - a) / d, np.where(d < 0, (-nose - a) / d, np.inf))
        axis = np.argmin(u_axis, axis=1)
        n = np.arange(len(a))
        u = u_axis[n, axis]
        hits = (u >= 0) & (u < 1)
        at = a + np.clip(np.nan_to_num(u, posinf=0.0), 0.0, 1.0)[:, None] * d
        rest = (1 - np.clip(np.nan_to_num(u, posinf=1.0), 0.0, 1.0))[:, None] * d
        rest[n, axis] *= -1
        enter, frac = _segment_hits_circle(at, at + rest, pk.centre_xy_mm, pk.capture_mm)
        enter &= hits[:, None]
        first = np.where(enter, frac, np.inf).min(axis=1)
        into = np.isfinite(first)
        xy = at + np.where(into, first, 0.0)[:, None] * rest
        return into, xy

    # ------------------------------------------------------------------ candidates

    def _candidates_step(self, z: np.ndarray, sigma: np.ndarray, lab: np.ndarray,
                         score: np.ndarray, t: float,
                         frame: int, notes: list[TrackNote], seen: np.ndarray,
                         matched_xy: np.ndarray) -> None:
        s = self.settings
        if len(z):
            spawnable = self._spawnable(z, lab)
            z, sigma = z[spawnable], sigma[spawnable]
            lab, score = lab[spawnable], score[spawnable]
        cands = self._candidates
        if not cands and not len(z):
            return
        used = np.zeros(len(z), dtype=bool)
        if cands and len(z):
            pred, gate, second, label = self._candidate_gates(t)
            dx = z[None, :, 0] - pred[:, 0, None]
            dy = z[None, :, 1] - pred[:, 1, None]
            d = np.sqrt(dx * dx + dy * dy)
            # a second sighting may be anywhere within reach but must read the same label;
            # later ones must follow the candidate's motion closely
            ok = (d <= gate[:, None]) & (label[:, None] == lab[None])
            cost = np.where(ok, d / gate[:, None], _INFEASIBLE)
            rows, cols = self._assign(cost)
            for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
                cand = cands[r]
                step = max(t - cand.t_s, 1e-3)
                v_new = (z[c] - cand.xy_mm) / step
                cand.v_mm_s = 0.5 * cand.v_mm_s + 0.5 * v_new if cand.hits > 1 else v_new
                fast = math.hypot(float(cand.v_mm_s[0]), float(cand.v_mm_s[1]))
                if fast > s.max_speed_mm_s:
                    cand.v_mm_s *= s.max_speed_mm_s / fast
                cand.xy_mm = z[c]
                cand.t_s = t
                cand.history = (cand.history << 1) | 1
                cand.votes[lab[c]] += 1
                cand.score_sum = _SCORE_FADE * cand.score_sum + float(score[c])
                cand.score_w = _SCORE_FADE * cand.score_w + 1.0
                cand.hits += 1
                cand.sigma_mm = float(sigma[c])
                used[c] = True
            hit_rows = set(rows.tolist())
            for k, cand in enumerate(cands):
                if k not in hit_rows:
                    cand.history <<= 1
        else:
            for cand in cands:
                cand.history <<= 1
        for c in (~used).nonzero()[0]:
            if len(cands) >= s.max_candidates:
                break
            votes = np.zeros(len(self.labels))
            votes[lab[c]] = 1
            cands.append(_Candidate(z[c].copy(), np.zeros(2), t, t, 1, votes,
                                    float(score[c]), 1, float(sigma[c])))
        window = (1 << s.confirm_window) - 1
        keep: list[_Candidate] = []
        for cand in cands:
            cand.history &= window
            if cand.history == 0:
                continue
            if (cand.seen_count(s.confirm_window) >= s.confirm_hits
                    and cand.score_sum / cand.score_w >= s.spawn_min_score
                    and self._confirm(cand, t, frame, notes, seen, matched_xy)):
                continue
            keep.append(cand)
        self._candidates = keep

    def _candidate_gates(self, t: float) -> tuple[np.ndarray, ...]:
        """Each candidate's predicted position, gate radius, whether it has one hit and its
        label (computed once a frame, when first asked: the candidates change only after
        the tracks have taken their detections)."""
        if self._frame_gates is not None:
            return self._frame_gates
        s = self.settings
        cands = self._candidates
        cols = np.array([(t - c.t_s, *c.xy_mm, *c.v_mm_s, c.hits, c.score_sum, c.sigma_mm,
                          c.votes.argmax()) for c in cands]).reshape(len(cands), 9)
        dt, xy, v = cols[:, 0], cols[:, 1:3], cols[:, 3:5]
        pred = xy + v * dt[:, None]
        speed = np.hypot(v[:, 0], v[:, 1])
        second = cols[:, 5] == 1
        # a second sighting may be anywhere within reach, unless the first one was faint (a
        # false detection would take the next real object's first sighting far away) or
        # frames ago (one glimpse in a hand would take whatever is set down next)
        sure = (cols[:, 6] >= s.jump_min_score) & (dt <= 1.5 * self._frame_dt_s)
        # (later ones: where its last two sightings run on, missed by the noise of three
        # detections, sqrt(6) sigma, to 4 of those: a fast object's are blurred)
        noise = 4.0 * math.sqrt(6.0) * cols[:, 7]
        gate = np.where(second & sure, np.maximum(s.max_speed_mm_s * dt, s.candidate_gate_mm),
                        np.maximum(s.candidate_gate_mm, noise) + 0.05 * speed * dt)
        self._frame_gates = (pred, gate, second, cols[:, 8].astype(int))
        return self._frame_gates

    def _continues_candidate(self, z: np.ndarray, lab: np.ndarray, t: float) -> np.ndarray:
        """Which detections (labels ``lab``) a candidate would take next: within its gate,
        of its label (a misread of one frame starts a candidate of the wrong label, which
        must not hold the true object's detections away from its track)."""
        if not self._candidates:
            return np.zeros(len(z), dtype=bool)
        pred, gate, second, label = self._candidate_gates(t)
        gate = np.where(second, self.settings.candidate_gate_mm, gate)
        dx = z[:, 0, None] - pred[None, :, 0]
        dy = z[:, 1, None] - pred[None, :, 1]
        near = (dx * dx + dy * dy <= (gate * gate)[None]) & (lab[:, None] == label[None])
        out: np.ndarray = near.any(axis=1)
        return out

    def _spawnable(self, z: np.ndarray, lab: np.ndarray) -> np.ndarray:
        """Detections that may start a track: on the surface and not in a pocket cup."""
        ok: np.ndarray = (np.abs(z) <= self._half_wh).all(axis=1)
        pk = self._pockets
        if len(pk.capture_mm):
            dx = z[:, 0, None] - pk.centre_xy_mm[None, :, 0]
            dy = z[:, 1, None] - pk.centre_xy_mm[None, :, 1]
            d = np.sqrt(dx * dx + dy * dy)
            in_capture = (d <= pk.capture_mm[None]).any(axis=1)
            margin = 0.8 * self._radius[lab]
            deep = (np.abs(z) <= self._half_wh - margin[:, None]).all(axis=1)
            in_cup = (d <= pk.hole_mm[None]).any(axis=1) & ~deep
            ok &= ~in_capture & ~in_cup
        return ok

    def _confirm(self, cand: _Candidate, t: float, frame: int, notes: list[TrackNote],
                 seen: np.ndarray, matched_xy: np.ndarray) -> bool:
        """Turn a persistent candidate into an identity; False to keep it waiting."""
        s = self.settings
        label = int(np.argmax(cand.votes))
        same = (self._label == label).nonzero()[0]
        in_play = same[self._retired[same] == 0]
        if self._unique[label] and len(same):
            # Prefer one track per unique label: take over the one that holds it.
            waiting = in_play[self._last_seen_t[in_play] < cand.first_t_s]
            if len(waiting):
                row = int(waiting[np.argmin(self._last_seen_t[waiting])])
                if not self._moving[row]:
                    notes.append(self._note(NoteKind.MOVED, row, t, frame, cand.xy_mm,
                                            from_xy=self._last_seen_xy[row]))
                self._take_over(row, cand, t, seen, matched_xy)
                return True
            if not len(in_play):
                row = int(same[-1])
                notes.append(self._note(NoteKind.PLACED, row, t, frame, cand.xy_mm,
                                        from_xy=self._x[row, :2]))
                self._retired[row] = 0
                self._take_over(row, cand, t, seen, matched_xy)
                return True
            if t - cand.first_t_s < s.duplicate_after_s:
                return False
            log.info("tracker: %s seen at two places for %.1f s; a second track",
                     self.labels[label], t - cand.first_t_s)
        else:
            taken = self._reidentify(cand, label, in_play, t, frame, notes, seen, matched_xy)
            if taken is not None:
                return taken
            if len(in_play) >= self._capacity[label]:
                return False
        row = self._new_track(cand, label, t)
        notes.append(self._note(NoteKind.NEW, row, t, frame, cand.xy_mm))
        return True

    def _reidentify(self, cand: _Candidate, label: int, in_play: np.ndarray, t: float,
                    frame: int, notes: list[TrackNote], seen: np.ndarray,
                    matched_xy: np.ndarray) -> bool | None:
        """A new detection of a label with several objects (Novuss pawns) is, in this order
        of preference: an object lost in motion whose coasting prediction it continues;
        one struck while hidden (``_struck_while_hidden``); one lost in motion and held
        where it coasted to; one moved by hand from a place now seen empty; a pocketed or
        off-table one put back (a penalty pawn, a pawn returned to the circle). True when
        it took over an identity, False when it must wait (an object of its label is
        hidden, may still be where it was and could have been carried here), None when it
        is a new object."""
        s = self.settings
        unseen = in_play[(self._last_seen_t[in_play] < cand.first_t_s)
                         & (self._misses[in_play] > 0)]
        # lost in motion and still coasting: the candidate where its prediction runs
        coasting = unseen[self._moving[unseen]]
        if len(coasting):
            d = np.linalg.norm(self._x[coasting, :2] - cand.xy_mm, axis=1)
            near = d <= 3 * np.sqrt(self._P[coasting, 0, 0]) + s.candidate_gate_mm
            if near.any():
                self._take_over(int(coasting[near][np.argmin(d[near])]), cand, t, seen,
                                matched_xy)
                return True
        gone = unseen[~self._moving[unseen]]
        if len(gone):
            struck = self._struck_while_hidden(cand, gone, t)
            if struck is not None:
                self._take_over(struck, cand, t, seen, matched_xy)
                return True
            d = np.linalg.norm(self._x[gone, :2] - cand.xy_mm, axis=1)
            held = self._held[gone]
            if held.any():
                row = int(gone[held][np.argmin(d[held])])
                self._take_over(row, cand, t, seen, matched_xy)
                return True
            unseen_s = t - self._last_seen_t[gone]
            # (a hand takes hand_min_s to lift an object and set it down: one hidden
            # shorter before the candidate was first seen is not it)
            carried = cand.first_t_s - self._last_seen_t[gone] >= s.hand_min_s
            proven = carried & ((unseen_s >= s.hidden_max_s) | (
                (unseen_s >= s.moved_min_unseen_s) & (self._empty[gone] >= s.empty_after_frames)))
            if proven.any():
                row = int(gone[proven][np.argmin(d[proven])])
                notes.append(self._note(NoteKind.MOVED, row, t, frame, cand.xy_mm,
                                        from_xy=self._last_seen_xy[row]))
                self._take_over(row, cand, t, seen, matched_xy)
                return True
            if carried.any():
                return False
        same = ((self._label == label) & (self._retired > 0)).nonzero()[0]
        if len(same):
            row = int(same[np.argmax(self._retired_t[same])])
            notes.append(self._note(NoteKind.PLACED, row, t, frame, cand.xy_mm,
                                    from_xy=self._x[row, :2]))
            self._retired[row] = 0
            self._take_over(row, cand, t, seen, matched_xy)
            return True
        return None

    def _struck_while_hidden(self, cand: _Candidate, gone: np.ndarray, t: float) -> int | None:
        """The hidden resting track (of rows ``gone``) that a moving candidate came from:
        a mover passed near it since it was last seen (``_knocks``), and the candidate's
        path run back since then passes over its place (within the object's radius and
        the noise). Slowing down, it came at least as far as its present speed gives;
        faster before, up to twice as far. The nearest to that line; None if it comes from
        none of them or moves slower than a struck object (10 x ``rest_speed_mm_s``: a hand
        sliding pawns into a new set-up)."""
        s = self.settings
        speed = float(np.linalg.norm(cand.v_mm_s))
        gone = gone[self._knocked_unseen(gone)]
        if speed < s.rest_speed_mm_s * 10 or not len(gone):
            return None
        back = -cand.v_mm_s / speed
        rel = self._x[gone, :2] - cand.xy_mm  # (G, 2)
        along = rel @ back
        across = np.abs(rel @ np.array([-back[1], back[0]]))
        reach = 2.0 * speed * (t - self._last_seen_t[gone]) + 10.0
        r = self._radius[self._label[gone]]
        on_path = (along > 0) & (along <= reach) & (across <= r + 3 * np.sqrt(
            self._P[gone, 0, 0]) + 5.0)
        if not on_path.any():
            return None
        return int(gone[on_path][np.argmin(across[on_path])])

    def _take_over(self, row: int, cand: _Candidate, t: float, seen: np.ndarray,
                   matched_xy: np.ndarray) -> None:
        speed = float(np.linalg.norm(cand.v_mm_s))
        self._settle(np.array([row]), cand.xy_mm[None], np.array([2.0]), t)
        if speed >= self.settings.rest_speed_mm_s * 4:
            self._x[row, 2:] = cand.v_mm_s
            self._moving[row] = True
        self._last_seen_t[row] = t
        self._last_seen_xy[row] = cand.xy_mm
        self._last_sigma[row] = cand.sigma_mm
        self._before_xy[row] = np.nan
        self._misses[row] = 0
        self._empty[row] = 0
        self._held[row] = False
        seen[row] = True
        matched_xy[row] = cand.xy_mm

    def _new_track(self, cand: _Candidate, label: int, t: float) -> int:
        speed = float(np.linalg.norm(cand.v_mm_s))
        moving = speed >= self.settings.rest_speed_mm_s * 4
        x = np.r_[cand.xy_mm, cand.v_mm_s if moving else np.zeros(2)]
        P = np.diag([4.0, 4.0, 200.0**2 if moving else 30.0**2, 200.0**2 if moving else 30.0**2])
        self._x = np.vstack([self._x, x])
        self._P = np.concatenate([self._P, P[None]])
        self._t_state = np.r_[self._t_state, t]
        self._id = np.r_[self._id, self._next_id]
        self._next_id += 1
        self._label = np.r_[self._label, label]
        self._votes = np.vstack([self._votes, cand.votes[None]])
        self._moving = np.r_[self._moving, moving]
        self._retired = np.r_[self._retired, 0]
        self._retired_t = np.r_[self._retired_t, np.nan]
        self._empty = np.r_[self._empty, 0]
        self._covered = np.r_[self._covered, 0]
        self._knocked_to = np.vstack([self._knocked_to, [np.nan, np.nan]])
        self._knocked_potted = np.r_[self._knocked_potted, False]
        self._touched_dir = np.vstack([self._touched_dir, [np.nan, np.nan]])
        self._held = np.r_[self._held, False]
        self._first_miss_t = np.r_[self._first_miss_t, np.nan]
        self._last_seen_t = np.r_[self._last_seen_t, t]
        self._last_seen_xy = np.vstack([self._last_seen_xy, cand.xy_mm])
        self._last_sigma = np.r_[self._last_sigma, cand.sigma_mm]
        self._before_xy = np.vstack([self._before_xy, [np.nan, np.nan]])
        self._misses = np.r_[self._misses, 0]
        self._slow_since = np.r_[self._slow_since, np.nan]
        self._anchor_xy = np.vstack([self._anchor_xy, cand.xy_mm])
        self._jump_t = np.r_[self._jump_t, -np.inf]
        self._path_t0 = np.r_[self._path_t0, -np.inf]
        self._path_xy0 = np.vstack([self._path_xy0, cand.xy_mm])
        self._knock_t = np.r_[self._knock_t, -np.inf]
        self._knock_speed = np.r_[self._knock_speed, 0.0]
        self._knock_fastest = np.r_[self._knock_fastest, 0.0]
        self._knock_from = np.concatenate([self._knock_from,
                                           np.full((1, _KNOCK_SOURCES, 2), np.nan)])
        self._knock_away = np.vstack([self._knock_away, [np.nan, np.nan]])
        self._touch_speed = np.r_[self._touch_speed, 0.0]
        return len(self._id) - 1

    # ------------------------------------------------------------------ output

    def _note(self, kind: NoteKind, row: int, t: float, frame: int, to_xy: np.ndarray,
              from_xy: np.ndarray | None = None) -> TrackNote:
        return TrackNote(
            kind=kind, t_s=t, frame=frame, id=int(self._id[row]),
            label=self.labels[int(self._label[row])],
            to_xy_mm=(float(to_xy[0]), float(to_xy[1])),
            from_xy_mm=None if from_xy is None else (float(from_xy[0]), float(from_xy[1])),
            last_seen_t_s=None if kind is NoteKind.NEW else float(self._last_seen_t[row]),
        )

    def _tracks(self, t: float, frame: int, seen: np.ndarray, matched_xy: np.ndarray) -> Tracks:
        in_play = self._retired == 0
        state = np.where(self._moving, int(TrackState.MOVING), int(TrackState.RESTING))
        state[self._misses >= self.settings.occluded_after_misses] = int(TrackState.OCCLUDED)
        state = np.where(in_play, state, self._retired)
        sigma = np.sqrt(np.maximum(0.5 * (self._P[:, 0, 0] + self._P[:, 1, 1]), 0.0))
        key = self._label.tobytes()
        if self._labels_of[0] != key:  # (the names change only with a new track or label)
            self._labels_of = (key, tuple([self.labels[i] for i in self._label.tolist()]))
        # fresh arrays (copies of the tracker's own, which change next frame), frozen as
        # they are: the checks of Tracks.__post_init__ hold by construction here
        obs_sigma = np.where(np.isnan(matched_xy[:, 0]), np.nan, self._last_sigma)
        return Tracks._trusted(
            t, frame, self._id.copy(), self._labels_of[1],
            self._x[:, :2].copy(), self._x[:, 2:].copy(), sigma, state, seen & in_play,
            self._last_seen_t.copy(), matched_xy, obs_sigma,
        )


@dataclass(frozen=True, slots=True)
class TrackerRun:
    """Every frame's ``Tracks`` and every note of one run (see ``track_all``)."""

    tracks: tuple[Tracks, ...]
    notes: tuple[TrackNote, ...] = field(default=())


def track_all(spec: TableSpec, frames: list[Observations] | tuple[Observations, ...],
              settings: TrackerSettings | None = None) -> TrackerRun:
    """Run a fresh tracker over a sequence of frames (tests, benchmarks, batch)."""
    tracker = Tracker(spec, settings)
    out = tuple(tracker.update(f) for f in frames)
    return TrackerRun(out, tuple(tracker.notes))
