"""``cueref run``: frames in, the call stream out, every stage in order.

    frames ──> CalibrationKeeper ──> observer (detector) ──> Tracker ──> MotionEventDetector
           ──> ShotSegmenter ──> rules engine ──> JsonlSink

Each stage is its own package; this module only wires them and keeps the bookkeeping the
stream needs:

* ``calibration`` lines whenever the keeper fits, re-fits or loses the table; while it does
  not trust the frame (lost, obscured) the tracker gets no observations (objects keep their
  identities and positions) and every shot that overlaps such a spell is judged with
  ``Shot.calibration_untrusted``, which makes the engine add a ``review`` call, because its
  calls rest on positions nobody measured;
* ``event`` lines as the event detector decides them (a few frames late);
* for each shot that ends: its calls and a ``state`` line.

The match may start anywhere (a recording that starts mid-game): the engine's state is
made from the first layout the pipeline sees (``state_from_layout``, as ``cueref judge``
does), and what it did not see
(scores, fouls in a row) starts at zero.

The observer turns a frame into ``Observations``: ``DetectorObserver`` runs the detector on
the canonical view of the table. The development mode (``sidecar_observations``) skips
the pixels and feeds a simulated clip's ground truth, seen with realistic noise, straight
to the tracker (``Pipeline.feed_observations``).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from adjudication.declarations import Declaration
from adjudication.detection import DetectorSettings, MotionEventDetector, ShotSegmenter
from adjudication.events import Event, EventKind
from adjudication.games import Game
from adjudication.replay import state_from_layout
from adjudication.rules import MatchState, engine_for
from adjudication.shot import Shot
from calibration.keeper import CalibrationKeeper, KeeperReport
from calibration.model import Calibration
from calibration.tables import TableSpec
from cueref.sources import SourceFrame
from tracking.tracker import Tracker
from tracking.types import Observations, Tracks

log = logging.getLogger(__name__)

#: One-sigma position error of a detection on the table, before the calibration's own:
#: a refined centre (edge fit) and a box centre (benchmarks/detector: 0.47 mm median,
#: 3.3 mm at the 95th percentile for refined centres). A refined centre whose rim fitted
#: worse is off by about as much: at least ``FIT_SIGMA_PER_RMS`` times its fit's RMS (on
#: held-out renders, centres whose fit RMS is 0.6-1.2 mm are off by 1.1 mm one-sigma,
#: 1.2-2 mm by 1.8 mm, more by 2.2 mm; below 0.6 mm, by 0.6 mm or less: the detector
#: benchmark's table of error by fit).
REFINED_SIGMA_MM = 1.0
FIT_SIGMA_PER_RMS = 1.2
BOX_SIGMA_MM = 2.5


class Observer(Protocol):
    """Turns one frame into observations on the table, with the calibration of that frame."""

    def __call__(self, frame: SourceFrame, calib: Calibration | None) -> Observations: ...


class DetectorObserver:
    """The detector on the canonical view (the warp is rebuilt when the calibration changes)."""

    def __init__(self, detector: Any, spec: TableSpec) -> None:
        from calibration.views import silhouette_heights_mm

        self.detector = detector
        self.heights = silhouette_heights_mm(spec)
        self._calib: Calibration | None = None
        self._warp: Any = None

    def __call__(self, frame: SourceFrame, calib: Calibration | None) -> Observations:
        if calib is None:
            return Observations.empty(frame.t_s, frame.index)
        if calib is not self._calib:
            from calibration.views import detector_warp

            self._calib, self._warp = calib, detector_warp(calib)
        det = self.detector.detect(frame.bgr, self._warp, self.heights)
        fit = np.maximum(REFINED_SIGMA_MM, FIT_SIGMA_PER_RMS * np.nan_to_num(det.fit_rms_mm))
        sigma = np.where(det.refined, fit, BOX_SIGMA_MM)
        sigma = np.hypot(sigma, calib.rms_mm)
        return Observations(frame.t_s, frame.index, det.xy_mm, sigma,
                            tuple(str(x) for x in det.label), det.score)


def sidecar_observations(sidecar: Mapping[str, Any], seed: int = 0) -> tuple[Observations, ...]:
    """Development mode: a simulated clip's ground truth seen with realistic noise
    (``simulation.observe``: position noise, dropouts, false positives, misread numbers,
    gaps and duplicated timestamps), frame by frame; no pixels are read."""
    from simulation.observe import ObserveSettings, ground_truth_from_sidecar, observe

    return observe(ground_truth_from_sidecar(dict(sidecar)), ObserveSettings(), seed).frames


@dataclass(slots=True)
class RunSummary:
    """What a run did, for the command's closing lines."""

    frames: int = 0
    shots: int = 0
    events: int = 0
    calls: list[dict[str, Any]] = field(default_factory=list)
    calibrations: int = 0
    untrusted_frames: int = 0
    seconds: float = 0.0

    @property
    def ms_per_frame(self) -> float:
        return 1000.0 * self.seconds / max(self.frames, 1)


def calibration_line(report: KeeperReport, frame: SourceFrame,
                     last_good: Calibration | None) -> dict[str, Any]:
    """The stream's ``calibration`` line for a keeper report that changed something."""
    calib = report.calib or last_good
    H = calib.H_table_from_image if calib is not None else np.eye(3)
    return {
        "v": 1, "type": "calibration", "t_s": round(frame.t_s, 6), "frame": frame.index,
        "H_table_from_image": [[float(v) for v in row] for row in np.asarray(H)],
        "rms_mm": round(float(report.calib.rms_mm), 3) if report.calib is not None else 0.0,
        "ok": report.calib is not None,
        "features": list(report.calib.features) if report.calib is not None else [],
        "reason": report.reason,
    }


def engine_failure_call(shot: Shot, state: MatchState, game: Game,
                        exc: Exception) -> dict[str, Any]:
    """A ``review`` call for a shot the rules engine could not judge (a bug, or positions
    no legal game reaches); the state stays as it was before the shot."""
    family = "Novuss" if game.is_novuss else "WPA"
    return {
        "v": 1, "type": "call", "shot": shot.number, "t_s": round(shot.t_end_s, 6),
        "player": state.shooter, "rule": f"{family} camera review", "outcome": "review",
        "text": "The referee program could not judge this shot; a referee should.",
        "assumed": False, "evidence": {"error": f"{type(exc).__name__}: {exc}"[:200]},
    }


class Pipeline:
    """One source's chain of stages (see the module docstring); ``feed`` one frame at a
    time, ``close`` at the end. ``write`` receives every stream line in order.

    ``orient(calib, observations)`` says which end of the table is which from the set-up
    in view (a rack, the Novuss start rows): a turn in degrees, or None while it cannot
    tell. It is asked on every frame until it decides or the first stroke is seen; a turn
    re-expresses the calibration and restarts the later stages (nothing is judged yet). A
    match first seen mid-game keeps the fitted frame.
    """

    def __init__(self, *, game: Game, spec: TableSpec, players: Sequence[str],
                 observer: Observer | None, keeper: CalibrationKeeper | None,
                 write: Callable[[dict[str, Any]], None],
                 declarations: Mapping[int, Declaration] | None = None,
                 orient: Callable[[Calibration, Observations], int | None] | None = None
                 ) -> None:
        self.game, self.spec, self.players = game, spec, tuple(players)
        self.observer, self.keeper, self.write = observer, keeper, write
        self.declarations = dict(declarations or {})
        self.orient = orient
        self.engine = engine_for(game, spec)
        self.tracker = Tracker(spec)
        self.events = MotionEventDetector(spec, DetectorSettings.for_game(game))
        self.segmenter = ShotSegmenter()
        self.state: MatchState | None = None
        self.last_tracks: Tracks | None = None
        self.last_observations: Observations | None = None  # the tracker's last input
        self.calib: Calibration | None = None  # the calibration of the last frame fed
        self.summary = RunSummary()
        self._untrusted: list[tuple[float, float]] = []  # spells without a trusted table
        self._untrusted_from: float | None = None
        self._last_good: Calibration | None = None
        self._oriented = False
        self._strokes = 0
        self._last_t = -math.inf
        self._t0 = time.perf_counter()

    # ------------------------------------------------------------------ frames

    def feed(self, frame: SourceFrame) -> None:
        """Calibrate, observe and pass on one camera frame."""
        calib, trusted = None, True
        if self.keeper is not None:
            report = self.keeper.update(frame.bgr, frame.index)
            if report.changed:
                self.write(calibration_line(report, frame, self._last_good))
                self.summary.calibrations += 1
            if report.calib is not None:
                self._last_good = report.calib
            calib, trusted = report.calib, report.trusted
        self.calib = calib
        obs = (self.observer(frame, calib) if trusted and self.observer is not None
               else Observations.empty(frame.t_s, frame.index))
        if calib is not None and len(obs) and self._settle_orientation(calib, obs):
            return  # the table frame turned: this frame's positions are in the old one
        self.feed_observations(obs, trusted=trusted)

    def _settle_orientation(self, calib: Calibration, obs: Observations) -> bool:
        """Until the first shot, ask ``orient`` which end is which from what is in view;
        a turn resets the later stages (nothing judged yet) and returns True."""
        if self._oriented or self.orient is None or self.keeper is None:
            return False
        if self.segmenter_started:
            self._oriented = True  # play began in the fitted frame: it stays
            return False
        deg = self.orient(calib, obs)
        if deg is None:
            return False
        self._oriented = True
        if not deg:
            return False
        self.keeper.turn(deg)
        self.calib = self.keeper.calib
        self.tracker.reset()
        self.events.reset()
        self.segmenter.reset()
        return True

    def feed_observations(self, obs: Observations, *, trusted: bool = True) -> None:
        """The stages after the observer, for one frame's observations."""
        self.summary.frames += 1
        self.last_observations = obs
        self._mark_trust(obs.t_s, trusted)
        if obs.t_s <= self._last_t:  # the tracker skips it too (logged there)
            return
        self._last_t = obs.t_s
        tracks = self.last_tracks = self.tracker.update(obs)
        self._take(tracks, self.events.update(tracks))

    def close(self) -> RunSummary:
        self._mark_trust(self._last_t, True)
        events = self.events.flush()
        self._emit_events(events)
        for shot in self.segmenter.flush(events):
            self._judge(shot)
        self.summary.seconds = time.perf_counter() - self._t0
        return self.summary

    # ------------------------------------------------------------------ stages

    def _mark_trust(self, t_s: float, trusted: bool) -> None:
        if not trusted:
            self.summary.untrusted_frames += 1
            if self._untrusted_from is None:
                self._untrusted_from = t_s
        elif self._untrusted_from is not None:
            self._untrusted.append((self._untrusted_from, t_s))
            self._untrusted_from = None

    def _emit_events(self, events: Iterable[Event]) -> None:
        for ev in sorted(events, key=lambda e: e.t_s):
            self.write(ev.to_json())
            self.summary.events += 1

    @property
    def segmenter_started(self) -> bool:
        return self._strokes > 0

    def _take(self, tracks: Tracks, events: list[Event]) -> None:
        self._strokes += sum(e.kind is EventKind.SHOT_START for e in events)
        self._emit_events(events)
        for shot in self.segmenter.update(tracks, events):
            self._judge(shot)

    def _judge(self, shot: Shot) -> None:
        if self.state is None:
            self.state, unseen = state_from_layout(self.engine, self.game, self.spec,
                                                   self.players, shot.before)
            # what happened before the first stroke seen is the set-up (racking, pawns laid
            # in their rows, hands nudging them), or history the camera has no context for
            shot = replace(shot, between=())
            if unseen:
                line = self.state.to_json()
                line["unseen"] = unseen
                self.write(line)
        if self.state.winner is not None:
            return
        spell = self._untrusted_overlap(shot.t_start_s, shot.t_end_s)
        shot = replace(shot, player=self.state.shooter, calibration_untrusted=spell > 0)
        try:
            judgement = self.engine.judge(self.state, shot, self.declarations.get(shot.number))
        except Exception as exc:  # a live referee keeps going: this shot goes to a person
            log.exception("the rules engine failed on shot %d", shot.number)
            call = engine_failure_call(shot, self.state, self.game, exc)
            self.write(call)
            self.summary.calls.append(call)
            self.summary.shots += 1
            return
        calls = [c.to_json() for c in judgement.calls]
        if spell > 0:
            calls[0]["evidence"] = {**calls[0].get("evidence", {}),
                                    "untrusted_s": round(spell, 3)}
        for call in calls:
            self.write(call)
        self.summary.calls.extend(calls)
        self.summary.shots += 1
        self.state = judgement.state
        self.write(self.state.to_json())

    def _untrusted_overlap(self, t0: float, t1: float) -> float:
        spells = list(self._untrusted)
        if self._untrusted_from is not None:
            spells.append((self._untrusted_from, math.inf))
        return sum(max(0.0, min(b, t1) - max(a, t0)) for a, b in spells)
