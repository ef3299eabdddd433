"""Tracks as a tracker would report them, made from ground truth plus noise.

Event detection is tested and benchmarked on these: exact positions (from
``ShotResult.xy_at`` or a sidecar's frames) sampled at the camera's frame times, with
gaussian position noise on the raw observations, random single-frame dropouts and short
gaps (a hand, a reflection), and the tracker's states: RESTING / MOVING from the true
speed, POCKETED / OFF_TABLE from the physics status. Objects not on the scene (status 3,
removed by hand) are not in the batch at all.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracking.types import Tracks, TrackState

_REMOVED = 3


@dataclass(frozen=True, slots=True)
class TrackNoise:
    """Imperfections of the synthetic tracker.

    ``sigma_mm`` gaussian error of each raw observation; ``dropout`` share of frames an
    object goes unseen; ``gap_rate`` chance per object and frame that a gap of 2..``gap_max``
    frames starts; ``moving_mm_s`` the speed above which the state reads MOVING.
    """

    sigma_mm: float = 1.0
    dropout: float = 0.02
    gap_rate: float = 0.003
    gap_max: int = 4
    moving_mm_s: float = 5.0


def sample_tracks(
    t_s: np.ndarray,
    xy_mm: np.ndarray,
    status: np.ndarray,
    ids: np.ndarray,
    labels: tuple[str, ...],
    noise: TrackNoise,
    rng: np.random.Generator,
    v_mm_s: np.ndarray | None = None,
    frame0: int = 0,
) -> list[Tracks]:
    """One ``Tracks`` per time: ``xy_mm`` (F, N, 2), ``status`` (F, N) physics codes
    (0 on table, 1 pocketed, 2 off table, 3 removed)."""
    f, n = status.shape
    if v_mm_s is None:
        v_mm_s = np.zeros_like(xy_mm)
        if f > 1:
            v_mm_s[1:] = np.diff(xy_mm, axis=0) / np.diff(t_s)[:, None, None]
    seen = rng.random((f, n)) >= noise.dropout
    for j in range(n):
        k = 0
        while k < f:
            if rng.random() < noise.gap_rate:
                length = int(rng.integers(2, noise.gap_max + 1))
                seen[k:k + length, j] = False
                k += length
            k += 1
    obs = xy_mm + rng.normal(0.0, noise.sigma_mm, xy_mm.shape)
    out = []
    for k in range(f):
        keep = status[k] != _REMOVED
        st = np.where(status[k] == 1, TrackState.POCKETED,
                      np.where(status[k] == 2, TrackState.OFF_TABLE,
                               np.where(np.linalg.norm(v_mm_s[k], axis=1) > noise.moving_mm_s,
                                        TrackState.MOVING, TrackState.RESTING)))
        on = status[k] == 0
        vis = seen[k] & on
        st = np.where(on & ~vis, TrackState.OCCLUDED, st)
        o = np.where(vis[:, None], obs[k], np.nan)
        idx = np.flatnonzero(keep)
        out.append(Tracks(
            t_s=float(t_s[k]), frame=frame0 + k, id=ids[idx],
            label=tuple(labels[i] for i in idx), xy_mm=np.where(
                vis[idx, None], obs[k, idx], xy_mm[k, idx]),
            v_mm_s=v_mm_s[k, idx], sigma_mm=np.full(len(idx), noise.sigma_mm),
            state=st[idx], seen=vis[idx], last_seen_t_s=np.full(len(idx), float(t_s[k])),
            obs_xy_mm=o[idx], obs_sigma_mm=np.where(vis[idx], noise.sigma_mm, np.nan)))
    return out


def tracks_from_sidecar(data: dict, noise: TrackNoise, rng: np.random.Generator
                        ) -> list[Tracks]:
    """The tracks of a sample clip's ground-truth frames (``simulation.groundtruth``)."""
    frames = data["frames"]
    objs = data["objects"]
    ids = np.array([o["id"] for o in objs], dtype=int)
    labels = tuple(o["label"] for o in objs)
    t = np.array([fr["t_s"] for fr in frames], dtype=float)
    xy = np.array([fr["xy_mm"] for fr in frames], dtype=float)
    st = np.array([fr["status"] for fr in frames], dtype=int)
    return sample_tracks(t, xy, st, ids, labels, noise, rng, frame0=int(frames[0]["i"]))
