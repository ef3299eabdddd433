"""Pure kernels for event timing: polynomial fits of motion and the roots that time events.

A path is a ``(3, 2)`` array of coefficients ``c`` with ``p(tau) = c[0] + c[1] tau + c[2]
tau^2`` (mm, seconds since the path's reference time). Between two events a ball or disc
moves with (nearly) constant acceleration, so a quadratic fitted to the raw observations of
one side of an event describes that side exactly up to the noise, and the event time is a
root of a polynomial: where two paths are one sum of radii apart (a quartic), where a path
is one radius from a cushion line (a quadratic), where it crosses a printed line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: A root counts as real when its imaginary part is below this (seconds).
_IMAG_TOL_S = 1e-7
_TERMS = np.arange(3)  # of a path: constant, linear, quadratic


def fit_path(tau_s: np.ndarray, xy_mm: np.ndarray, degree: int = 2) -> tuple[np.ndarray, float]:
    """Least-squares polynomial ``(3, 2)`` through ``xy_mm`` ``(K, 2)`` at ``tau_s`` ``(K,)``.

    The degree drops to what the points allow (one point: constant, two: a line). Returns
    the coefficients and the RMS residual in mm (0 when the fit is exact).
    """
    k = len(tau_s)
    coef = np.zeros((3, 2))
    if k == 0:
        return coef, 0.0
    deg = max(0, min(degree, k - 1))
    design = np.vander(np.asarray(tau_s, dtype=float), deg + 1, increasing=True)
    sol, *_ = np.linalg.lstsq(design, xy_mm, rcond=None)
    coef[: deg + 1] = sol
    resid = xy_mm - design @ sol
    dof = max(k - deg - 1, 1)
    return coef, float(math.sqrt(float((resid**2).sum()) / dof)) if k > deg + 1 else 0.0


def fit_line(tau_s: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares straight line through ``y`` at ``tau_s`` (two points or more):
    ``(slope, value at tau 0, slope's standard error per unit of y's noise)``."""
    t_mean = float(tau_s.mean())
    dt = tau_s - t_mean
    sxx = max(float(dt @ dt), 1e-12)
    slope = float(dt @ (y - y.mean())) / sxx
    return slope, float(y.mean()) - slope * t_mean, 1.0 / math.sqrt(sxx)


@dataclass(frozen=True, slots=True)
class GapLines:
    """Straight lines through a gap's samples (to a cushion, between two objects) before
    and after a touch near tau 0: each one's rate (mm/s), value at tau 0 (mm) and the
    rate's standard error per mm of the samples' noise."""

    v_in: float
    at_in: float
    se_in: float
    v_out: float
    at_out: float
    se_out: float

    @property
    def vertex_s(self) -> float:
        """Where the two lines meet (s from tau 0): the bottom of the V."""
        return (self.at_out - self.at_in) / (self.v_in - self.v_out)


#: The line in of ``gap_lines`` runs through this many of the last samples before the touch.
GAP_LINE_IN = 6


def gap_lines(tau_s: np.ndarray, gap_mm: np.ndarray, before: np.ndarray, after: np.ndarray
              ) -> GapLines:
    """``GapLines`` through the samples ``before`` (the last ``GAP_LINE_IN`` of them) and
    ``after`` (boolean masks of ``tau_s``, two samples or more each)."""
    v_in, at_in, se_in = fit_line(tau_s[before][-GAP_LINE_IN:], gap_mm[before][-GAP_LINE_IN:])
    v_out, at_out, se_out = fit_line(tau_s[after], gap_mm[after])
    return GapLines(v_in, at_in, se_in, v_out, at_out, se_out)


def fit_paths(
    tau_s: np.ndarray, xy_mm: np.ndarray, ok: np.ndarray, degree: int = 2
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``fit_path`` for many tracks at once, by their normal equations (3x3 systems).

    ``tau_s`` ``(M, K)`` times, ``xy_mm`` ``(M, K, 2)``, ``ok`` ``(M, K)`` which samples
    count. The degree of each row drops to what its samples allow. Returns coefficients
    ``(M, 3, 2)``, RMS residuals ``(M,)`` and sample counts ``(M,)``.
    """
    m, k = ok.shape
    w = ok.astype(float)
    n = ok.sum(axis=1)
    tau = np.where(ok, tau_s, 0.0)
    xy = np.where(ok[..., None], xy_mm, 0.0)
    # (np.clip and np.stack cost more than the fit itself on a handful of rows)
    deg = np.maximum(np.minimum(min(degree, 2), n - 1), 0)
    keep = _TERMS[None, :] <= deg[:, None]  # (M, 3) terms used
    design = np.empty((m, k, 3))  # (M, K, 3), zero rows where not ok
    design[..., 0] = w
    design[..., 1] = tau
    design[..., 2] = tau * tau
    design *= keep[:, None, :]
    lhs = np.einsum("mki,mkj->mij", design, design)
    rhs = np.einsum("mki,mkc->mic", design, xy)
    lhs[:, _TERMS, _TERMS] += ~keep  # unused terms: 1 * c = 0
    good = n > 0
    if good.all() and m:
        coef = np.linalg.solve(lhs, rhs)
    else:
        coef = np.zeros((m, 3, 2))
        if good.any():
            coef[good] = np.linalg.solve(lhs[good], rhs[good])
    resid = (xy - design @ coef) * w[..., None]
    dof = np.maximum(n - deg - 1, 1)
    rms = np.where(n > deg + 1, np.sqrt((resid**2).sum(axis=(1, 2)) / dof), 0.0)
    return coef, rms, n


def straighten(coef: np.ndarray, tau_s: np.ndarray, xy_mm: np.ndarray, ok: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """Paths ``coef`` ``(M, 3, 2)`` fitted to samples (as ``fit_paths`` takes them) refitted
    with their acceleration along their velocity only: a disc slides straight (no spin
    curves it), so the sideways part a quadratic takes from a few noisy samples is noise,
    which bends the path run on past them. Returns coefficients and RMS residuals."""
    w = ok.astype(float)
    n = w.sum(axis=1)
    tau = np.where(ok, tau_s, 0.0)
    t2 = tau * tau
    s_t, s_tt = tau.sum(axis=1), t2.sum(axis=1)
    t_mid = s_t / np.maximum(n, 1.0)
    v_mid = coef[:, 1] + 2.0 * coef[:, 2] * t_mid[:, None]
    u = v_mid / np.maximum(np.sqrt((v_mid * v_mid).sum(axis=1)), 1e-9)[:, None]
    acc = (coef[:, 2] * u).sum(axis=1)[:, None] * u
    # the straight line through what the acceleration leaves, in closed form
    y = np.where(ok[..., None], xy_mm - acc[:, None, :] * t2[..., None], 0.0)
    s_y, s_ty = y.sum(axis=1), (tau[..., None] * y).sum(axis=1)
    det = n * s_tt - s_t * s_t
    steady = det > 1e-12
    v = np.where(steady[:, None], (n[:, None] * s_ty - s_t[:, None] * s_y)
                 / np.where(steady, det, 1.0)[:, None], 0.0)
    p0 = (s_y - v * s_t[:, None]) / np.maximum(n, 1.0)[:, None]
    resid = (y - p0[:, None] - v[:, None] * tau[..., None]) * w[..., None]
    rms = np.where(n > 2, np.sqrt((resid * resid).sum(axis=(1, 2)) / np.maximum(n - 2, 1)), 0.0)
    return np.stack([p0, v, acc], axis=1), rms


def eval_path(coef: np.ndarray, tau_s: np.ndarray | float) -> np.ndarray:
    """Positions ``(T, 2)`` (or ``(2,)`` for a scalar time) of a path."""
    tau = np.asarray(tau_s, dtype=float)
    out: np.ndarray = coef[0] + coef[1] * tau[..., None] + coef[2] * (tau**2)[..., None]
    return out


def eval_velocity(coef: np.ndarray, tau_s: np.ndarray | float) -> np.ndarray:
    tau = np.asarray(tau_s, dtype=float)
    out: np.ndarray = coef[1] + 2.0 * coef[2] * tau[..., None]
    return out


def still_path(xy_mm: np.ndarray) -> np.ndarray:
    """The path ``(3, 2)`` of an object that does not move from ``xy_mm`` (a resting
    object, a pocket's jaw or centre), for ``first_touch`` and ``closest_approach``."""
    out = np.zeros((3, 2))
    out[0] = xy_mm
    return out


def shift_path(coef: np.ndarray, dt_s: float) -> np.ndarray:
    """The same path with its reference time moved later by ``dt_s``."""
    c0 = coef[0] + coef[1] * dt_s + coef[2] * dt_s**2
    c1 = coef[1] + 2.0 * coef[2] * dt_s
    return np.stack([c0, c1, coef[2]])


def _real_roots(poly_high_first: np.ndarray) -> np.ndarray:
    p = np.trim_zeros(np.asarray(poly_high_first, dtype=float), "f")
    if len(p) <= 1:
        return np.zeros(0)
    roots = np.roots(p)
    return np.sort(roots[np.abs(roots.imag) < _IMAG_TOL_S * max(1.0, np.abs(roots).max())].real)


def first_touch(
    coef_a: np.ndarray, coef_b: np.ndarray, distance_mm: float, tau0_s: float, tau1_s: float
) -> float | None:
    """First time in ``[tau0, tau1]`` the two paths come ``distance_mm`` apart while closing.

    ``None`` when they do not (a near miss, or already closer at ``tau0`` and separating).
    """
    d = coef_a - coef_b
    d0, d1, d2 = d[0], d[1], d[2]
    poly = np.array([
        d2 @ d2,
        2.0 * (d1 @ d2),
        d1 @ d1 + 2.0 * (d0 @ d2),
        2.0 * (d0 @ d1),
        d0 @ d0 - distance_mm**2,
    ])
    for r in _real_roots(poly):
        if tau0_s - 1e-9 <= r <= tau1_s + 1e-9:
            dd = d0 + d1 * r + d2 * r * r
            vv = d1 + 2.0 * d2 * r
            if dd @ vv < 0.0:
                return float(r)
    return None


def closest_approach(
    coef_a: np.ndarray, coef_b: np.ndarray, tau0_s: float, tau1_s: float, samples: int = 17
) -> tuple[float, float]:
    """(time, distance) of the closest approach of two paths within ``[tau0, tau1]``."""
    tau = np.linspace(tau0_s, tau1_s, samples)
    dist = np.linalg.norm(eval_path(coef_a - coef_b, tau), axis=-1)
    k = int(np.argmin(dist))
    return float(tau[k]), float(dist[k])


def line_touch(
    coef: np.ndarray, point_xy: np.ndarray, normal_xy: np.ndarray, offset_mm: float,
    tau0_s: float, tau1_s: float, *, leaving: bool = False,
) -> float | None:
    """First time in ``[tau0, tau1]`` the path's signed distance from the line through
    ``point_xy`` (unit ``normal_xy``) falls to ``offset_mm`` while approaching (or, with
    ``leaving``, rises to it while moving away: a path fitted after a bounce)."""
    s0 = (coef[0] - point_xy) @ normal_xy - offset_mm
    s1 = coef[1] @ normal_xy
    s2 = coef[2] @ normal_xy
    sign = -1.0 if leaving else 1.0
    for r in _real_roots(np.array([s2, s1, s0])):
        if tau0_s - 1e-9 <= r <= tau1_s + 1e-9 and sign * (s1 + 2.0 * s2 * r) < 0.0:
            return float(r)
    return None


def onset_time(
    tau_s: np.ndarray, xy_mm: np.ndarray, rest_xy_mm: np.ndarray, tau0_s: float, tau1_s: float,
    back_mm: float = 3.0,
) -> float | None:
    """When an object that rested at ``rest_xy_mm`` left it, from its positions after.

    The distance travelled along the direction of motion is fitted with a quadratic (a line
    with fewer than four points) and solved for zero within ``[tau0, tau1]``. Only the
    positions up to the farthest count: after it the object came back (off a cushion, or
    another object), and a curve through the way back would solve to nonsense. One that
    came back past its rest may lie farther on that side later: then only the positions up
    to the farthest before it first came back (by more than ``back_mm``, the noise) count.
    """
    rel = xy_mm - rest_xy_mm
    d = np.linalg.norm(rel, axis=1)
    k = int(np.argmax(d)) if len(rel) else 0
    if k > 0 and float(rel[k] @ rel[0]) < 0.0:  # (the farthest lies past its rest)
        back = d < np.maximum.accumulate(d) - back_mm
        if back.any():
            k = int(np.argmax(d[:int(np.argmax(back))]))
    if k < 1:
        return None
    tau_s, rel = tau_s[:k + 1], rel[:k + 1]
    far = rel[-1]
    norm = float(np.linalg.norm(far))
    if norm < 1e-9:
        return None
    s = rel @ (far / norm)
    deg = 2 if len(tau_s) >= 4 else 1
    c = np.polyfit(tau_s, s, deg)
    roots = _real_roots(c)
    ok = roots[(roots >= tau0_s - 1e-9) & (roots <= tau1_s + 1e-9)]
    if len(ok) == 0:
        return None
    return float(ok[-1])


def creep_onset(tau_s: np.ndarray, xy_mm: np.ndarray, rest_xy_mm: np.ndarray, tau0_s: float,
                tau1_s: float, noise_mm: float, steps: int = 25) -> tuple[float, float] | None:
    """(when, mm/s) a slow object left its rest at ``rest_xy_mm``, from its positions at
    rest before and moving after (``tau_s`` in order): the start ``t0`` in
    ``[tau0, tau1]`` and speed ``v`` whose hinge, at rest until ``t0`` and moving on
    straight at ``v`` after, fits the positions best. A creep that shows an onset only
    frames after it began leaves its first millimetres below the noise; all of them
    together still time it. Positions count up to the farthest (after it, it came back).
    None where fewer than two of them lie after any start the window allows, where the
    best start is the window's end (it left before that, faster), or where the hinge
    leaves more than twice ``noise_mm`` (rms) unexplained: no steady creep.
    """
    rel = xy_mm - rest_xy_mm
    d = np.linalg.norm(rel, axis=1)
    if len(d) < 3:
        return None
    k = int(np.argmax(d))
    if d[k] < 1e-9:
        return None
    tau, s = tau_s[:k + 1], rel[:k + 1] @ (rel[k] / d[k])
    t0 = np.linspace(tau0_s, tau1_s, steps)
    x = np.clip(tau[None, :] - t0[:, None], 0.0, None)  # (steps, N) time since the start
    xx = (x * x).sum(axis=1)
    v = np.where(xx > 0.0, (x * s[None, :]).sum(axis=1) / np.maximum(xx, 1e-12), 0.0)
    v = np.maximum(v, 0.0)
    resid = ((s[None, :] - v[:, None] * x) ** 2).sum(axis=1)
    # (a hinge is timed by two positions or more after it, of a motion away from rest)
    resid[((x > 0.0).sum(axis=1) < 2) | (v <= 0.0)] = np.inf
    best = int(np.argmin(resid))
    if best == steps - 1 or not resid[best] < len(s) * (2.0 * noise_mm) ** 2:
        return None
    return float(t0[best]), float(v[best])


def hinge_fits(tau_s: np.ndarray, xy_mm: np.ndarray, hinge_s: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """For each hinge time in ``hinge_s`` (H,), the straight line before it and the one
    after, joined there, fitted to the positions ``xy_mm`` (N, 2) at ``tau_s`` (N,):
    (H,) sums of squared residuals (mm^2) and (H, 2) positions at the hinge. A gentle hit
    bends a mover's path too little to split it; one quadratic fitted across it misses
    where the mover was when it struck by several mm, a hinge at the hit does not."""
    d = tau_s[None, :] - hinge_s[:, None]
    design = np.stack([np.ones_like(d), np.minimum(d, 0.0), np.maximum(d, 0.0)], axis=2)
    normal = np.einsum("hnk,hnl->hkl", design, design) + 1e-12 * np.eye(3)
    coef = np.linalg.solve(normal, np.einsum("hnk,nc->hkc", design, xy_mm))
    fitted = np.einsum("hnk,hkc->hnc", design, coef)
    return ((fitted - xy_mm[None]) ** 2).sum(axis=(1, 2)), coef[:, 0]
