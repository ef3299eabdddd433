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

``cv_predict`` and ``cv_update_position`` are the same two steps written out for this
model (``F = [[I, dt I], [0, I]]``, a position measurement with isotropic noise): a few
whole-batch array operations instead of building ``F``, ``Q`` and ``R`` and multiplying
4 x 4 matrices, which is what the tracker calls every frame. The tests check them against
the general kernels.
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


def _cv_maps() -> np.ndarray:
    """The constant-velocity prediction of a covariance as one linear map of its 16
    entries: ``vec(F P F' + Q) = vec(P) + [dt vec(P), dt^2 vec(P), q dt^3/3, q dt^2/2,
    q dt] @ maps`` with ``F = I + dt E`` (``E`` moves velocity into position), so ``maps``
    stacks ``E P + P E'`` (16 rows), ``E P E'`` (16) and the three blocks of ``Q`` (35, 16)."""
    E = np.zeros((4, 4))
    E[0, 2] = E[1, 3] = 1.0
    unit = np.eye(16).reshape(16, 4, 4)  # vec(P) = e_k
    first = np.array([(E @ u + u @ E.T).ravel() for u in unit])
    second = np.array([(E @ u @ E.T).ravel() for u in unit])
    basis = np.zeros((3, 4, 4))
    for a in (0, 1):
        basis[0, a, a] = 1.0
        basis[1, a, a + 2] = basis[1, a + 2, a] = 1.0
        basis[2, a + 2, a + 2] = 1.0
    out = np.vstack([first, second, basis.reshape(3, 16)])
    out.setflags(write=False)
    return out


_CV_MAPS = _cv_maps()


def _steps(dt_s: np.ndarray | float, n: int) -> np.ndarray:
    dt = np.asarray(dt_s, dtype=float)
    if dt.shape != (n,):
        dt = np.broadcast_to(dt, (n,))
    return np.where((dt > 0) & (dt < np.inf), dt, 0.0)


def cv_predict(
    x: np.ndarray, P: np.ndarray, dt_s: np.ndarray | float, q_mm2_s3: np.ndarray | float
) -> tuple[np.ndarray, np.ndarray]:
    """``kf_predict`` with ``cv_transition(dt_s)`` and ``cv_process_noise(dt_s, q)``,
    written out: ``x`` (N, 4), ``P`` (N, 4, 4), ``dt_s`` and ``q_mm2_s3`` scalars or (N,).
    Non-positive or non-finite steps change nothing."""
    n = len(x)
    dt = _steps(dt_s, n)
    x_new = x.copy()
    x_new[:, :2] += dt[:, None] * x[:, 2:]
    flat = P.reshape(n, 16)
    qdt = np.asarray(q_mm2_s3, dtype=float) * dt
    dt2 = dt * dt
    terms = np.concatenate([dt[:, None] * flat, dt2[:, None] * flat,
                            (qdt * dt2 / 3)[:, None], (qdt * dt / 2)[:, None], qdt[:, None]],
                           axis=1)
    P_new = (flat + terms @ _CV_MAPS).reshape(n, 4, 4)
    return x_new, P_new


def cv_update_position(
    x: np.ndarray, P: np.ndarray, z: np.ndarray, sigma_mm: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``kf_update`` with ``POSITION_H`` and ``isotropic_R(sigma_mm)``, written out for
    symmetric ``P``: the 2 x 2 innovation covariance is inverted in closed form and
    ``P = P - K H P`` (the same as the Joseph form for this optimal gain)."""
    s2 = np.asarray(sigma_mm, dtype=float) ** 2
    c0, c1 = P[:, :, 0], P[:, :, 1]  # P H' (N, 4), also the rows H P
    a = c0[:, 0] + s2
    b = c0[:, 1]
    c = c1[:, 1] + s2
    inv_det = 1.0 / np.maximum(a * c - b * b, 1e-12)
    k0 = (c0 * (c * inv_det)[:, None]) - c1 * (b * inv_det)[:, None]  # K = P H' S^-1
    k1 = (c1 * (a * inv_det)[:, None]) - c0 * (b * inv_det)[:, None]
    y = z - x[:, :2]
    x_new = x + k0 * y[:, :1] + k1 * y[:, 1:]
    P_new = P - (k0[:, :, None] * c0[:, None, :] + k1[:, :, None] * c1[:, None, :])
    return x_new, P_new


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
    return innovation_nll(pred_xy_mm, P_pos, z_xy_mm, sigma_mm)[0]


def innovation_nll(
    pred_xy_mm: np.ndarray, P_pos: np.ndarray, z_xy_mm: np.ndarray, sigma_mm: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(d2, log_det)``, each ``(T, O)``: the squared Mahalanobis distance of every
    observation to every prediction and the log-determinant of their innovation
    covariance. Their sum is twice the negative log-likelihood (less a constant): an
    assignment on it lets an uncertain prediction (a track coasting unseen) explain a
    detection only when no sure one can."""
    dx = z_xy_mm[None, :, 0] - pred_xy_mm[:, 0, None]  # (T, O)
    dy = z_xy_mm[None, :, 1] - pred_xy_mm[:, 1, None]
    s2 = np.asarray(sigma_mm, dtype=float)[None, :] ** 2
    a = P_pos[:, 0, 0][:, None] + s2
    b = P_pos[:, 0, 1][:, None]
    c = P_pos[:, 1, 1][:, None] + s2
    det = np.maximum(a * c - b * b, 1e-12)
    d2: np.ndarray = (c * dx * dx - 2 * b * dx * dy + a * dy * dy) / det
    return d2, np.log(det)
