"""Batched Kalman kernels: constant velocity in the table plane, one row per object.

The state of an object is ``x = [x_mm, y_mm, vx_mm_s, vy_mm_s]`` in the table frame (see
``calibration.tables``) and its covariance ``P`` is 4 x 4; a batch stacks them as ``(N, 4)``
and ``(N, 4, 4)``. Every function here is pure (returns new arrays, never writes into its
arguments) and works on a whole batch with a handful of numpy calls, so the tracker costs
the same few microseconds for 1 object or 33.

The motion model is constant velocity driven by white acceleration noise of spectral
density ``q`` (mm^2/s^3), the same for rolling and sliding balls, pawns and the puck: what
differs between them (a sliding ball decelerating at 2 m/s^2, a rolling one at 0.1 m/s^2,
a pawn at 1 m/s^2) is only how large ``q`` must be, and the tracker picks ``q`` per row.
Time steps are real seconds between frame timestamps, per row; ``dt <= 0`` gives the
identity transition and no process noise, so a duplicated timestamp cannot break a filter.

The functions follow filterpy's ``KalmanFilter`` (``predict``: ``x = F x``,
``P = F P F' + Q``; ``update``: the Joseph form ``P = (I-KH) P (I-KH)' + K R K'``), and
``tests/test_tracking_kalman.py`` checks that they agree with it row by row.
"""

from __future__ import annotations

import numpy as np

#: Measurement matrix: a detection measures the position, not the velocity.
POSITION_H = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
POSITION_H.setflags(write=False)


def _dt(dt_s: np.ndarray | float, n: int) -> np.ndarray:
    dt = np.broadcast_to(np.asarray(dt_s, dtype=float), (n,))
    return np.where(np.isfinite(dt) & (dt > 0), dt, 0.0)


def cv_transition(dt_s: np.ndarray | float, n: int | None = None) -> np.ndarray:
    """Constant-velocity transition matrices ``F`` ``(N, 4, 4)`` for steps ``dt_s`` (N,).

    Non-positive or non-finite steps give the identity (nothing moves)."""
    n = int(np.size(dt_s)) if n is None else n
    dt = _dt(dt_s, n)
    F = np.broadcast_to(np.eye(4), (n, 4, 4)).copy()
    F[:, 0, 2] = dt
    F[:, 1, 3] = dt
    return F


def cv_process_noise(
    dt_s: np.ndarray | float, q_mm2_s3: np.ndarray | float, n: int | None = None
) -> np.ndarray:
    """Process noise ``Q`` ``(N, 4, 4)`` of continuous white acceleration noise.

    Per axis ``q [[dt^3/3, dt^2/2], [dt^2/2, dt]]`` (filterpy's
    ``Q_continuous_white_noise(dim=2, block_size=2, order_by_dim=False)``); ``q_mm2_s3`` is a
    scalar or one value per row."""
    n = int(max(np.size(dt_s), np.size(q_mm2_s3))) if n is None else n
    dt = _dt(dt_s, n)
    q = np.broadcast_to(np.asarray(q_mm2_s3, dtype=float), (n,))
    pp, pv, vv = q * dt**3 / 3, q * dt**2 / 2, q * dt
    Q = np.zeros((n, 4, 4))
    for a in (0, 1):
        Q[:, a, a] = pp
        Q[:, a, a + 2] = Q[:, a + 2, a] = pv
        Q[:, a + 2, a + 2] = vv
    return Q


def kf_predict(
    x: np.ndarray, P: np.ndarray, F: np.ndarray, Q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One prediction step for every row: ``x = F x``, ``P = F P F' + Q``.

    ``x`` (N, 4), ``P`` (N, 4, 4), ``F`` and ``Q`` (N, 4, 4) or (4, 4)."""
    x_new = np.einsum("nij,nj->ni", np.broadcast_to(F, P.shape), x)
    P_new = F @ P @ np.swapaxes(F, -1, -2) + Q
    return x_new, P_new


def kf_update(
    x: np.ndarray,
    P: np.ndarray,
    z: np.ndarray,
    R: np.ndarray,
    H: np.ndarray = POSITION_H,
) -> tuple[np.ndarray, np.ndarray]:
    """One measurement update for every row (Joseph form, as filterpy).

    ``x`` (N, 4), ``P`` (N, 4, 4), ``z`` (N, 2) measured positions, ``R`` (N, 2, 2)
    measurement covariances, ``H`` (2, 4). Returns the posterior ``x`` and ``P``."""
    Ht = H.T
    y = z - x @ Ht  # innovation (N, 2)
    PHt = P @ Ht  # (N, 4, 2)
    S = H @ PHt + R  # (N, 2, 2)
    K = PHt @ np.linalg.inv(S)  # (N, 4, 2)
    x_new = x + np.einsum("nij,nj->ni", K, y)
    I_KH = np.eye(4) - K @ H
    P_new = I_KH @ P @ np.swapaxes(I_KH, -1, -2) + K @ R @ np.swapaxes(K, -1, -2)
    return x_new, P_new


def isotropic_R(sigma_mm: np.ndarray) -> np.ndarray:
    """Measurement covariances ``(N, 2, 2)`` from one-sigma position errors ``(N,)``."""
    s2 = np.asarray(sigma_mm, dtype=float) ** 2
    R = np.zeros((len(s2), 2, 2))
    R[:, 0, 0] = R[:, 1, 1] = s2
    return R


def mahalanobis_sq(
    pred_xy_mm: np.ndarray, P_pos: np.ndarray, z_xy_mm: np.ndarray, sigma_mm: np.ndarray
) -> np.ndarray:
    """Squared Mahalanobis distance ``(T, O)`` of every observation to every prediction.

    The innovation covariance of pair (i, j) is ``P_pos[i] + sigma_mm[j]^2 I``; the 2 x 2
    inverse is written out so that the whole table is a few array operations."""
    d = z_xy_mm[None, :, :] - pred_xy_mm[:, None, :]  # (T, O, 2)
    s2 = np.asarray(sigma_mm, dtype=float)[None, :] ** 2
    a = P_pos[:, 0, 0][:, None] + s2
    b = P_pos[:, 0, 1][:, None]
    c = P_pos[:, 1, 1][:, None] + s2
    det = np.maximum(a * c - b * b, 1e-12)
    dx, dy = d[..., 0], d[..., 1]
    out: np.ndarray = (c * dx * dx - 2 * b * dx * dy + a * dy * dy) / det
    return out
