"""Settings of the event detector and the shot segmenter, with their trade-offs."""

from __future__ import annotations

from dataclasses import dataclass

from adjudication.games import Game

#: The objects a player strokes and handles between shots (both settings below use them).
STRIKER_LABELS: tuple[str, ...] = ("cue_ball", "puck")


@dataclass(frozen=True, slots=True)
class DetectorSettings:
    """How ``MotionEventDetector`` reads motion out of tracks.

    * ``lag_frames`` = 4: frames after a change the detector waits for before it decides
      and fits the far side. More: surer onsets and better fits of the motion after a
      contact; less: events come out sooner (4 frames is 133 ms at 30 fps).
    * ``noise_floor_mm`` = 0.8: the smallest position error assumed, whatever
      ``Tracks.sigma_mm`` claims (for a resting track, ``Tracks.obs_sigma_mm``: its
      sighting's own). Lower makes the detector trust over-confident trackers.
    * ``onset_sigmas`` = 4.5 and ``onset_min_mm`` = 3.0: a resting object has moved when it
      lies farther than both from where it rested, on at least two of the frames looked at.
      Lower finds slower, thinner hits; higher avoids false starts from noise and a tracker
      that jumps between two detections.
    * ``bend_sigmas`` = 5.0 and ``bend_min_mm`` = 4.0: a moving object's path has bent when
      two frames in a row miss the extrapolated fit by more than both (plus the fit's own
      uncertainty). Lower finds gentler kisses; higher ignores the slide-to-roll change of
      a pool ball and tracker noise.
    * ``hand_min_mm`` = 8.0: a resting object found again this far or more from where it
      rested, with no shot on, was moved by a hand (``moved``); nearer is the same object
      re-measured after a hand hid it. Lower reports gentler touches (Novuss §17.1.о counts
      a touch) but turns the re-measured position of a hidden object into a foul.
    * ``fit_frames`` = 12: most frames of one side fitted. More averages noise; fewer follows
      a changing acceleration (slide to roll) better.
    * ``rest_speed_mm_s`` = 20.0 over ``rest_frames`` = 6: a moving object rests when its
      fitted speed stays below this, and its speed fitted over ``fit_frames`` would carry
      it less than the onset threshold in that time (still relative to its noise; a slow
      creeper is not at rest). Lower: ``shot_end`` later and surer; higher: sooner.
    * ``contact_gate_mm`` = 10.0: a pair whose fitted paths came no closer than the sum of
      radii plus this still makes a contact (at a lowered confidence) when both changed.
      Larger rescues contacts of badly fitted tracks but can pair a bend with a neighbour.
    * ``cushion_gate_mm`` = 12.0: the same for cushions (one radius from the nose line).
    * ``strike_min_speed_mm_s`` = 150.0: a striker that starts faster than this, slowing
      down, is struck (``shot_start``); otherwise it is being carried (``placed``).
    * ``stroke_zones``: Novuss lines whose edge zones a stroke is played from (the puck is
      set there, §1.4): all four for doubles; singles are played from ``zone_a`` and
      ``zone_b`` only, so a puck a hand slides off from a side zone is not a stroke.
    * ``shot_end_window_s`` = 0.5: everything must rest this long before ``shot_end`` (the
      rules' suggestion, RULES §0). Longer waits out slow creepers; shorter calls sooner.
    * ``split_sigma_s`` = 0.0015: the one-sigma error assumed for a contact time when two
      contacts of one striker less than a frame apart are compared. Their confidence is
      capped at how far their order is from a coin toss, ``2 Phi(dt / sigma) - 1``: 0 for
      a tie (a puck into the junction of two pawns), 0.5 when the order is right 3 times
      in 4, so under the rules' ``review_below`` (0.5) such a first contact goes to review.
    * ``gap_factor`` = 0.8: confidence is multiplied by this for each frame missing (not
      seen, dropped, duplicated time) near an event.
    * ``lines``: printed lines whose crossings are events; ``None`` picks the Novuss zone
      lines and circle, or the pool head string.
    * ``striker_labels``: labels whose start from rest is a stroke.
    """

    lag_frames: int = 4
    noise_floor_mm: float = 0.8
    onset_sigmas: float = 4.5
    onset_min_mm: float = 3.0
    hand_min_mm: float = 8.0
    bend_sigmas: float = 5.0
    bend_min_mm: float = 4.0
    fit_frames: int = 12
    rest_speed_mm_s: float = 20.0
    rest_frames: int = 6
    contact_gate_mm: float = 10.0
    cushion_gate_mm: float = 12.0
    strike_min_speed_mm_s: float = 150.0
    shot_end_window_s: float = 0.5
    split_sigma_s: float = 0.0015
    gap_factor: float = 0.8
    lines: tuple[str, ...] | None = None
    striker_labels: tuple[str, ...] = STRIKER_LABELS
    stroke_zones: tuple[str, ...] = ("zone_a", "zone_b", "zone_left", "zone_right")

    @classmethod
    def for_game(cls, game: Game) -> DetectorSettings:
        """The defaults, with Novuss singles played from its two end zones only."""
        if game.is_novuss and game.players_per_side == 1:
            return cls(stroke_zones=("zone_a", "zone_b"))
        return cls()

    def __post_init__(self) -> None:
        if not 2 <= self.lag_frames <= 30:
            raise ValueError(f"lag_frames must be in 2..30, got {self.lag_frames}")
        if not 3 <= self.fit_frames <= 60:
            raise ValueError(f"fit_frames must be in 3..60, got {self.fit_frames}")
        if not 2 <= self.rest_frames <= self.fit_frames:
            raise ValueError("rest_frames must be in 2..fit_frames")
        for name in ("noise_floor_mm", "onset_sigmas", "onset_min_mm", "hand_min_mm", "bend_sigmas",
                     "bend_min_mm", "rest_speed_mm_s", "contact_gate_mm", "cushion_gate_mm",
                     "strike_min_speed_mm_s", "shot_end_window_s", "split_sigma_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")
        if not 0 < self.gap_factor <= 1:
            raise ValueError(f"gap_factor must be in (0, 1], got {self.gap_factor}")


@dataclass(frozen=True, slots=True)
class SegmenterSettings:
    """How ``ShotSegmenter`` cuts the stream into shots.

    * ``history_frames`` = 90: track batches kept to look up the layout before a stroke
      (the detector reports ``shot_start`` a few frames late). Must exceed the detector's lag.
    * ``players``: names in turn order; when given, shots are attributed round-robin from
      ``first_player``. Left empty, ``Shot.player`` is ``""`` and the rules engine's own
      turn keeping stands.
    * ``still_mm`` = 8: a ``moved`` or ``contact`` event between shots whose objects all
      lie, at the next stroke, within this of where the last shot left an object of their
      label moved nothing (the tracker traded identities in a touching row) and is left out
      of the shot's ``between`` events. The event detector's ``hand_min_mm`` is the same
      figure for a single object.
    * ``same_object_mm`` = 12: two tracks of one label closer than this are one object
      held twice by the tracker (no pawn or ball is under 25 mm across); a contact between
      them between shots is left out the same way.
    * ``striker_labels``: the objects handled between shots (their touches always count).
    """

    history_frames: int = 90
    players: tuple[str, ...] = ()
    first_player: int = 0
    still_mm: float = 8.0
    same_object_mm: float = 12.0
    striker_labels: tuple[str, ...] = STRIKER_LABELS

    def __post_init__(self) -> None:
        if self.history_frames < 8:
            raise ValueError(f"history_frames must be >= 8, got {self.history_frames}")
        if not self.still_mm >= 0:
            raise ValueError(f"still_mm must be >= 0 mm, got {self.still_mm}")
        if not self.same_object_mm >= 0:
            raise ValueError(f"same_object_mm must be >= 0 mm, got {self.same_object_mm}")
        if self.players and not 0 <= self.first_player < len(self.players):
            raise ValueError("first_player must index players")
