"""The batched Kalman kernels agree with filterpy's KalmanFilter, row by row."""

from __future__ import annotations

import numpy as np
import pytest
from filterpy.common import Q_continuous_white_noise
from filterpy.kalman import KalmanFilter

from tracking.kalman import (
    POSITION_H,
    cv_predict,
    cv_process_noise,
    cv_transition,
    cv_update_position,
    isotropic_R,
    kf_predict,
    kf_update,
    mahalanobis_sq,
)


def _random_batch(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(0, [500, 300, 2000, 2000], size=(n, 4))
    A = rng.normal(size=(n, 4, 4))
    P = A @ np.swapaxes(A, 1, 2) + np.eye(4) * 5.0
    return x, P


def _filterpy(x: np.ndarray, P: np.ndarray, dt: float, q: float) -> KalmanFilter:
    kf = KalmanFilter(dim_x=4, dim_z=2)
    kf.x = x.copy()
    kf.P = P.copy()
    kf.F = np.array([[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float)
    q2 = Q_continuous_white_noise(dim=2, dt=dt, spectral_density=q) if dt > 0 else np.zeros((2, 2))
    kf.Q = np.zeros((4, 4))
    for a in (0, 1):
        kf.Q[np.ix_([a, a + 2], [a, a + 2])] = q2
    kf.H = POSITION_H.copy()
    return kf


@pytest.mark.parametrize(("dt_s", "q"), [(1 / 30, 2e5), (1 / 60, 20.0), (0.5, 1e3)])
def test_predict_and_update_agree_with_filterpy(dt_s: float, q: float) -> None:
    n = 7
    x, P = _random_batch(n, seed=int(dt_s * 1000))
    rng = np.random.default_rng(3)
    z = x[:, :2] + rng.normal(0, 10, size=(n, 2))
    sigma = rng.uniform(0.5, 5.0, n)
    xp, Pp = kf_predict(x, P, cv_transition(np.full(n, dt_s)), cv_process_noise(dt_s, q, n))
    xu, Pu = kf_update(xp, Pp, z, isotropic_R(sigma))
    for i in range(n):
        kf = _filterpy(x[i], P[i], dt_s, q)
        kf.predict()
        np.testing.assert_allclose(xp[i], kf.x, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(Pp[i], kf.P, rtol=1e-9, atol=1e-9)
        kf.update(z[i], R=np.eye(2) * sigma[i] ** 2)
        np.testing.assert_allclose(xu[i], kf.x, rtol=1e-9, atol=1e-8)
        np.testing.assert_allclose(Pu[i], kf.P, rtol=1e-9, atol=1e-8)


@pytest.mark.parametrize("dt_s", [0.0, -0.1, np.nan])
def test_non_positive_step_changes_nothing(dt_s: float) -> None:
    x, P = _random_batch(3, seed=1)
    xp, Pp = kf_predict(x, P, cv_transition(np.full(3, dt_s)), cv_process_noise(dt_s, 1e5, 3))
    np.testing.assert_allclose(xp, x)
    np.testing.assert_allclose(Pp, P)


def test_process_noise_matches_filterpy_blocks() -> None:
    Q = cv_process_noise(0.04, 3.0, 1)[0]
    q2 = Q_continuous_white_noise(dim=2, dt=0.04, spectral_density=3.0)
    np.testing.assert_allclose(Q[np.ix_([0, 2], [0, 2])], q2)
    np.testing.assert_allclose(Q[np.ix_([1, 3], [1, 3])], q2)
    assert Q[0, 1] == Q[0, 3] == 0.0


def test_mahalanobis_table_matches_explicit_inverse() -> None:
    x, P = _random_batch(4, seed=5)
    z = np.random.default_rng(2).normal(0, 100, size=(6, 2))
    sigma = np.linspace(0.5, 3, 6)
    got = mahalanobis_sq(x[:, :2], P[:, :2, :2], z, sigma)
    for i in range(4):
        for j in range(6):
            S = P[i, :2, :2] + np.eye(2) * sigma[j] ** 2
            d = z[j] - x[i, :2]
            assert got[i, j] == pytest.approx(d @ np.linalg.solve(S, d), rel=1e-9)


@pytest.mark.parametrize(("dt_s", "q"), [(1 / 30, 2e5), (1 / 60, 20.0), (0.5, 1e3),
                                         (0.0, 1e3), (np.nan, 5.0)])
def test_written_out_cv_kernels_agree_with_the_general_ones(dt_s: float, q: float) -> None:
    n = 6
    x, P = _random_batch(n, seed=11)
    dt = np.full(n, dt_s)
    dt[0] = 0.02  # rows may differ
    qs = np.full(n, q)
    xp, Pp = kf_predict(x, P, cv_transition(dt), cv_process_noise(dt, qs))
    xf, Pf = cv_predict(x, P, dt, qs)
    np.testing.assert_allclose(xf, xp, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(Pf, Pp, rtol=1e-12, atol=1e-9)
    z = x[:, :2] + np.random.default_rng(4).normal(0, 10, size=(n, 2))
    sigma = np.linspace(0.5, 4.0, n)
    xu, Pu = kf_update(xp, Pp, z, isotropic_R(sigma))
    xg, Pg = cv_update_position(xp, Pp, z, sigma)
    np.testing.assert_allclose(xg, xu, rtol=1e-9, atol=1e-8)
    np.testing.assert_allclose(Pg, Pu, rtol=1e-9, atol=1e-8)
