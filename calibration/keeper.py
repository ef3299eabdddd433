"""Keep the table found through a running source: fit once, check every frame, re-fit on a bump.

A fit costs a few hundred milliseconds; the drift check (``calibration.drift``) well under
two. ``CalibrationKeeper.update(frame)`` runs the check on every frame and the fit only
when it must:

* no calibration yet (the source starts on a cut-away or a crowd): try a fit every
  ``retry_every`` frames until one succeeds;
* the check says **moved** (a camera bump, a zoom, a cut): fit again at once; while that
  fails, the table is **lost** and the keeper retries every ``retry_every`` frames;
* the check says **obscured** (a body over a good part of the table): keep the
  calibration but mark the frame untrusted.

Every change of calibration, and every loss, comes out as ``KeeperReport.changed`` so the
application writes one ``calibration`` line to the stream; positions measured while
``trusted`` is false must not decide a call (the pipeline marks such calls ``review``).

A new fit of a symmetric table knows its frame only up to a turn (``calibration.orientation``);
after a bump the keeper keeps the turn that best agrees with the calibration it replaces
(a bump moves the view a little, never half a table), so track positions stay in one frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from calibration.drift import MOVED, OBSCURED, DriftCheck, DriftSettings
from calibration.model import Calibration, CalibrationError
from calibration.orientation import ROTATIONS, rotate
from calibration.tables import TableSpec

#: What the keeper reports per frame.
STEADY, OBSCURED_STATUS, REFITTED, LOST, SEARCHING = (
    "steady", "obscured", "refitted", "lost", "searching")

Fitter = Callable[[np.ndarray, TableSpec], Calibration]


@dataclass(frozen=True, slots=True)
class KeeperSettings:
    """When to fit again.

    ``retry_every`` frames between fits while no calibration holds: lower finds the table
    sooner after a cut but spends a fit's time (~150 ms) more often. ``max_rms_mm``: a fit
    whose own residual is worse is not trusted (the table may be half hidden).
    ``obscured_refit_after`` frames in a row read obscured bring a fit: a body parked over
    the table or a camera that settled slightly off after a bump. A re-fit that agrees with
    the calibration within ``same_view_px`` at the corners was a false alarm: the check is
    re-anchored and nothing changes; otherwise the new calibration replaces the old.
    """

    retry_every: int = 15
    max_rms_mm: float = 5.0
    obscured_refit_after: int = 15
    same_view_px: float = 0.75
    drift: DriftSettings = DriftSettings()

    def __post_init__(self) -> None:
        if self.retry_every < 1 or self.obscured_refit_after < 1:
            raise ValueError("retry_every and obscured_refit_after must be >= 1")
        if self.max_rms_mm <= 0:
            raise ValueError(f"max_rms_mm must be > 0, got {self.max_rms_mm}")


@dataclass(frozen=True, slots=True)
class KeeperReport:
    """One frame's calibration: ``calib`` (None while none holds), whether positions in this
    frame can be ``trusted``, whether the calibration ``changed`` (a line for the stream),
    ``status`` (one of the module's statuses) and a one-line ``reason``."""

    calib: Calibration | None
    trusted: bool
    changed: bool
    status: str
    reason: str = ""


def closest_turn(new: Calibration, old: Calibration) -> Calibration:
    """``new`` turned by the symmetry of its table that maps image points to table points
    nearest to where ``old`` mapped them."""
    w, h = old.resolution_wh
    probe = old.to_image(old.spec.corners_xy_mm() * 0.5)  # four points inside the table
    probe = probe[(probe[:, 0] >= 0) & (probe[:, 0] < w) & (probe[:, 1] >= 0) & (probe[:, 1] < h)]
    if len(probe) == 0:
        return new
    want = old.to_table(probe)
    best, best_err = new, np.inf
    for deg in ROTATIONS[new.spec.family]:
        turned = rotate(new, deg) if deg else new
        err = float(np.abs(turned.to_table(probe) - want).max())
        if err < best_err:
            best, best_err = turned, err
    return best


class CalibrationKeeper:
    """Calibration state of one running source (see the module docstring).

    ``fitter`` is ``calibration.fit.fit`` unless given (tests pass a known camera);
    ``initial`` starts from a calibration already made (``--corners``, ``--orientation``).
    """

    def __init__(self, spec: TableSpec, *, fitter: Fitter | None = None,
                 initial: Calibration | None = None,
                 settings: KeeperSettings | None = None) -> None:
        if fitter is None:
            from calibration.fit import fit

            fitter = fit
        self.spec = spec
        self.settings = settings or KeeperSettings()
        self._fit = fitter
        self._initial = initial
        self.reset()

    def reset(self) -> None:
        self.calib: Calibration | None = None
        self._reference: Calibration | None = None  # the last calibration that held
        self._check: DriftCheck | None = None
        self._last_try = -(10**9)
        self._ever_found = False
        self._failure_said = False  # a failure line went out since the last success
        self._obscured = 0  # frames in a row the check read obscured
        self._pending_initial = self._initial

    def turn(self, deg: int) -> None:
        """Re-express the calibration in the table frame turned by ``deg`` (the orientation
        found from the set-up, or ``--orientation``); later re-fits keep that turn."""
        if self.calib is not None and deg:
            self.calib = self._reference = rotate(self.calib, deg)

    def _try_fit(self, frame_bgr: np.ndarray, frame: int) -> tuple[Calibration | None, str]:
        self._last_try = frame
        try:
            calib = self._fit(frame_bgr, self.spec)
        except CalibrationError as exc:
            return None, str(exc)
        if calib.rms_mm > self.settings.max_rms_mm:
            return None, f"fit residual {calib.rms_mm:.1f} mm is too large to trust"
        if self._reference is not None:
            calib = closest_turn(calib, self._reference)
        return calib, ""

    def _found(self, calib: Calibration, frame_bgr: np.ndarray, reason: str) -> KeeperReport:
        self.calib = self._reference = calib
        self._check = DriftCheck(calib, frame_bgr, self.settings.drift)
        self._ever_found, self._failure_said = True, False
        self._obscured = 0
        return KeeperReport(calib, True, True, REFITTED, reason)

    def _failed(self, reason: str) -> KeeperReport:
        """No calibration holds; the first failure after a success (or at the start) is a
        change worth a stream line, the retries after it are not."""
        self._check = None
        status = LOST if self._ever_found else SEARCHING
        changed = not self._failure_said
        self._failure_said = True
        return KeeperReport(None, False, changed, status, reason)

    def update(self, frame_bgr: np.ndarray, frame: int) -> KeeperReport:
        """The calibration for this frame (``frame`` is its index in the source)."""
        if self._pending_initial is not None:
            calib, self._pending_initial = self._pending_initial, None
            return self._found(calib, frame_bgr, "given")
        if self._check is None:
            if frame - self._last_try < self.settings.retry_every:
                return KeeperReport(None, False, False,
                                    LOST if self._ever_found else SEARCHING,
                                    "the table is not found")
            fitted, why = self._try_fit(frame_bgr, frame)
            if fitted is None:
                return self._failed(why)
            return self._found(fitted, frame_bgr, "table found")
        try:
            report = self._check(frame_bgr)
        except ValueError as exc:  # the frame changed size: another view
            status, reason = MOVED, str(exc)
        else:
            status, reason = report.status, f"drift {report.status}, {report.shift_px:.1f} px"
        if status == OBSCURED:
            self._obscured += 1
            if self._obscured < self.settings.obscured_refit_after:
                return KeeperReport(self.calib, False, False, OBSCURED_STATUS, reason)
            # obscured for long: a body parked over the table, or the camera settled a
            # little off where it was re-fitted; a fit tells which
            self._obscured = 0
            refit, why = self._try_fit(frame_bgr, frame)
            if refit is None:
                return KeeperReport(self.calib, False, False, OBSCURED_STATUS,
                                    f"{reason}; re-fit failed: {why}")
            return self._refitted(refit, frame_bgr, reason)
        self._obscured = 0
        if status == MOVED:
            moved, why = self._try_fit(frame_bgr, frame)
            if moved is None:
                self.calib = None
                return self._failed(f"{reason}; re-fit failed: {why}")
            return self._refitted(moved, frame_bgr, reason)
        return KeeperReport(self.calib, True, False, STEADY, reason)

    def _refitted(self, calib: Calibration, frame_bgr: np.ndarray, reason: str) -> KeeperReport:
        """A re-fit while a calibration holds: the same view (a false alarm: a ball rolled
        over the edges, a body stood still over them) re-anchors the check and changes
        nothing; a different one replaces the calibration."""
        assert self.calib is not None
        moved_px = float(np.abs(calib.corners_px() - self.calib.corners_px()).max())
        if moved_px < self.settings.same_view_px:
            self._check = DriftCheck(self.calib, frame_bgr, self.settings.drift)
            self._obscured = 0
            return KeeperReport(self.calib, True, False, STEADY,
                                f"{reason}; the re-fit agrees within {moved_px:.2f} px")
        return self._found(calib, frame_bgr, f"{reason}; the view moved {moved_px:.1f} px")
