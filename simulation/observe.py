"""Realistic detector output from ground truth: ``Observations`` streams with known truth.

The tracker's tests and benchmark need what a detector plus calibration would hand it,
with every imperfection they have, and the truth behind each frame. ``GroundTruth`` holds
per-frame positions and states of every object (from a sample clip's sidecar, a directed
match ``Script`` or one ``simulate_shot`` result); ``observe`` turns it into frames of
``tracking.types.Observations`` with:

* position noise: gaussian, ``sigma_rest_mm`` at rest growing by ``sigma_per_m_s_mm`` per
  m/s of speed, plus motion blur (the centre of a streak ``|v| exposure_s`` long is found
  anywhere within ``blur_fraction`` of it, along the motion);
* dropouts: single missed detections (``dropout``), bursts (``burst_rate_hz``, 0.1-0.5 s of
  one object), hands hiding a disc of the table for 0.5-2 s (``hand_rate_hz``);
* false positives: random ones anywhere on the surface (``fp_per_frame``, low scores) and
  persistent ones (``chalk_cubes``: a fixed spot detected most frames, a low score);
* label flips (pool numbers read as another number, stripes and solids confused; Novuss
  colours rarely), ``label_flip``;
* objects in the pocket cups after pocketing (pool; broadcast footage shows them for
  seconds), ``cup_visible``;
* frame gaps (``frame_gap``), duplicated timestamps (``duplicate``) and frames swapped out
  of order (``out_of_order``).

Everything is drawn from ``numpy.random.default_rng(seed)``: a seed replays the stream.
``ObservedClip.truth_frame`` maps each emitted frame to the ground-truth frame it shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.tables import Family, TableSpec, get_table
from tracking.types import Observations

ON_TABLE, POCKETED, OFF_TABLE, REMOVED = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class GroundTruth:
    """Per-frame truth: ``t_s`` (F,), ``ids``/``labels`` (N), ``xy_mm`` (F, N, 2),
    ``status`` (F, N) (0 on table, 1 pocketed, 2 off table, 3 not on the scene) and
    ``visible`` (F, N) share of each object not hidden (1 where nothing hides it)."""

    table: str
    t_s: np.ndarray
    ids: np.ndarray
    labels: tuple[str, ...]
    xy_mm: np.ndarray
    status: np.ndarray
    visible: np.ndarray

    def __post_init__(self) -> None:
        f, n = len(self.t_s), len(self.labels)
        if self.xy_mm.shape != (f, n, 2):
            raise ValueError(f"xy_mm must be ({f}, {n}, 2), got {self.xy_mm.shape}")
        for name in ("status", "visible"):
            if getattr(self, name).shape != (f, n):
                raise ValueError(f"{name} must be ({f}, {n}), got {getattr(self, name).shape}")
        if len(self.ids) != n:
            raise ValueError(f"{len(self.ids)} ids for {n} labels")

    @property
    def fps(self) -> float:
        return float(1.0 / np.median(np.diff(self.t_s))) if len(self.t_s) > 1 else 30.0

    def velocity_mm_s(self) -> np.ndarray:
        """Finite-difference velocities (F, N, 2)."""
        if len(self.t_s) < 2:
            return np.zeros_like(self.xy_mm)
        return np.gradient(self.xy_mm, self.t_s, axis=0)


def ground_truth_from_sidecar(data: dict[str, Any]) -> GroundTruth:
    """The truth of a sample clip (``simulation.groundtruth.load_sidecar``)."""
    frames = data["frames"]
    return GroundTruth(
        table=data["table"],
        t_s=np.array([f["t_s"] for f in frames], dtype=float),
        ids=np.array([o["id"] for o in data["objects"]], dtype=int),
        labels=tuple(o["label"] for o in data["objects"]),
        xy_mm=np.array([f["xy_mm"] for f in frames], dtype=float),
        status=np.array([f["status"] for f in frames], dtype=int),
        visible=np.array([f["visible"] for f in frames], dtype=float),
    )


def ground_truth_from_shot(result: Any, table: str, fps: float = 30.0,
                           after_s: float = 0.5, before_s: float = 0.2) -> GroundTruth:
    """The truth of one ``simulation.physics.ShotResult`` sampled at ``fps``."""
    t = np.arange(result.t0_s - before_s, result.t_end_s + after_s, 1.0 / fps)
    return GroundTruth(
        table=table, t_s=t, ids=np.asarray(result.start.ids, dtype=int),
        labels=tuple(result.start.labels), xy_mm=result.xy_at(t),
        status=result.status_at(t).astype(int), visible=np.ones((len(t), len(result.start))),
    )


def ground_truth_from_script(script: Any, hand_radius_mm: float = 70.0) -> GroundTruth:
    """The truth of a directed match (``simulation.match.direct``), no rendering: objects
    under a scripted hand (within ``hand_radius_mm`` of its palm) count as hidden."""
    t = script.frame_times()
    n = len(script.labels)
    xy = np.zeros((len(t), n, 2))
    status = np.zeros((len(t), n), dtype=int)
    visible = np.ones((len(t), n))
    starts = np.array([s.t0_s for s in script.segments])
    seg_of = np.clip(np.searchsorted(starts, t, side="right") - 1, 0, len(starts) - 1)
    for k in np.unique(seg_of):
        seg = script.segments[k]
        idx = np.flatnonzero(seg_of == k)
        pos, _ = seg.at(t[idx])
        xy[idx] = pos
        for j in idx:
            status[j] = seg.status_at(float(t[j]))
            hands = [o.xy_mm for o in seg.occluders(float(t[j])) if o.kind == "hand"]
            if hands:
                d = np.linalg.norm(xy[j][:, None] - np.array(hands)[None], axis=2)
                visible[j] = np.where((d < hand_radius_mm).any(axis=1), 0.0, 1.0)
    return GroundTruth(script.spec.name, t, np.asarray(script.ids, dtype=int),
                       tuple(script.labels), xy, status, visible)


@dataclass(frozen=True, slots=True)
class ObserveSettings:
    """How imperfect the simulated detector is; 0 everywhere gives exact detections.

    ``min_visible``: share of an object that must show for it to be detected at all.
    Rates per frame are probabilities, ``*_hz`` are Poisson rates per second.
    """

    sigma_rest_mm: float = 1.0
    sigma_per_m_s_mm: float = 0.8
    exposure_s: float = 1 / 60
    blur_fraction: float = 0.1
    dropout: float = 0.02
    burst_rate_hz: float = 0.03
    hand_rate_hz: float = 0.08
    hand_radius_mm: tuple[float, float] = (70.0, 130.0)
    hand_duration_s: tuple[float, float] = (0.5, 2.0)
    fp_per_frame: float = 0.3
    chalk_cubes: int = 1
    label_flip: float = 0.02
    cup_visible: float = 0.9
    frame_gap: float = 0.005
    duplicate: float = 0.003
    out_of_order: float = 0.002
    min_visible: float = 0.5

    def __post_init__(self) -> None:
        for name in ("sigma_rest_mm", "sigma_per_m_s_mm", "exposure_s", "blur_fraction",
                     "burst_rate_hz", "hand_rate_hz", "fp_per_frame"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"ObserveSettings.{name} must be >= 0")
        for name in ("dropout", "label_flip", "cup_visible", "frame_gap", "duplicate",
                     "out_of_order", "min_visible"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"ObserveSettings.{name} must be in [0, 1]")
        if self.chalk_cubes < 0:
            raise ValueError("ObserveSettings.chalk_cubes must be >= 0")

    @classmethod
    def exact(cls) -> ObserveSettings:
        """Perfect detections of every visible object, no noise, no bad frames."""
        return cls(sigma_rest_mm=1e-3, sigma_per_m_s_mm=0.0, blur_fraction=0.0, dropout=0.0,
                   burst_rate_hz=0.0, hand_rate_hz=0.0, fp_per_frame=0.0, chalk_cubes=0,
                   label_flip=0.0, cup_visible=1.0, frame_gap=0.0, duplicate=0.0,
                   out_of_order=0.0)


@dataclass(frozen=True, slots=True)
class ObservedClip:
    """Emitted frames and, for each, the ground-truth frame index it shows."""

    frames: tuple[Observations, ...]
    truth_frame: np.ndarray


def _flip(label: str, labels: tuple[str, ...], family: Family, rng: np.random.Generator) -> str:
    if family is Family.POOL:
        if label.startswith("ball_") and rng.random() < 0.5:
            n = int(label[5:])
            partner = f"ball_{n + 8 if n < 8 else n - 8}"  # stripe <-> solid of one colour
            if partner in labels and partner != "ball_0":
                return partner
        others = [lb for lb in labels if lb != label]
        return str(others[int(rng.integers(len(others)))])
    if label == "red_pawn":
        return "black_pawn"
    if label == "black_pawn":
        return "red_pawn"
    return label


def observe(gt: GroundTruth, settings: ObserveSettings | None = None,
            seed: int | np.random.Generator = 0) -> ObservedClip:
    """Simulated detections of every frame of ``gt`` (see the module docstring)."""
    s = settings or ObserveSettings()
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    spec: TableSpec = get_table(gt.table)
    pool = spec.family is Family.POOL
    n_f, n = gt.xy_mm.shape[:2]
    hx, hy = spec.half_wh_mm
    t = gt.t_s
    duration = float(t[-1] - t[0]) if n_f else 0.0
    v = gt.velocity_mm_s()
    speed = np.linalg.norm(v, axis=2)

    hidden = gt.visible < s.min_visible
    # bursts: one object missing for 0.1-0.5 s
    for _ in range(rng.poisson(s.burst_rate_hz * duration * max(n, 1))):
        i = int(rng.integers(n))
        t0 = rng.uniform(t[0], t[-1])
        hidden[(t >= t0) & (t < t0 + rng.uniform(0.1, 0.5)), i] = True
    # hands: a disc of the table hidden for a while, usually over an object at rest
    for _ in range(rng.poisson(s.hand_rate_hz * duration)):
        t0 = rng.uniform(t[0], t[-1])
        k = int(np.searchsorted(t, t0))
        on = np.flatnonzero(gt.status[min(k, n_f - 1)] == ON_TABLE)
        centre = (gt.xy_mm[min(k, n_f - 1), int(rng.choice(on))] + rng.normal(0, 30, 2)
                  if len(on) else rng.uniform([-hx, -hy], [hx, hy]))
        radius = rng.uniform(*s.hand_radius_mm)
        span = (t >= t0) & (t < t0 + rng.uniform(*s.hand_duration_s))
        hidden[span] |= np.linalg.norm(gt.xy_mm[span] - centre, axis=2) < radius
    cubes = rng.uniform([-hx + 30, -hy + 30], [hx - 30, hy - 30], size=(s.chalk_cubes, 2))

    present = (gt.status == ON_TABLE) | (gt.status == OFF_TABLE)
    if pool:
        present |= (gt.status == POCKETED) & (rng.random((n_f, n)) < s.cup_visible)
    # an object off the table is seen only while over the rail, not on the floor
    margin = spec.rail_width_mm
    over = (np.abs(gt.xy_mm[..., 0]) <= hx + margin) & (np.abs(gt.xy_mm[..., 1]) <= hy + margin)
    present &= ~(gt.status == OFF_TABLE) | over
    detect = present & ~hidden & (rng.random((n_f, n)) >= s.dropout)

    frames: list[Observations] = []
    truth: list[int] = []
    for f in range(n_f):
        if rng.random() < s.frame_gap:
            continue
        idx = np.flatnonzero(detect[f])
        sp = speed[f, idx] / 1000.0
        sigma = s.sigma_rest_mm + s.sigma_per_m_s_mm * sp
        xy = gt.xy_mm[f, idx] + rng.normal(size=(len(idx), 2)) * sigma[:, None]
        if s.blur_fraction > 0 and len(idx):
            u = v[f, idx] / np.maximum(speed[f, idx], 1e-9)[:, None]
            streak = speed[f, idx] * s.exposure_s
            xy += u * (rng.uniform(-1, 1, len(idx)) * s.blur_fraction * streak)[:, None]
            sigma = np.hypot(sigma, s.blur_fraction * streak / math.sqrt(3))
        labels = [gt.labels[i] for i in idx]
        for k in np.flatnonzero(rng.random(len(idx)) < s.label_flip):
            labels[k] = _flip(labels[k], spec.labels, spec.family, rng)
        score = np.clip(rng.normal(0.9, 0.05, len(idx)), 0.5, 1.0)
        # false positives: random (low score), chalk cubes (persistent, low score)
        n_fp = rng.poisson(s.fp_per_frame)
        fp_xy = rng.uniform([-hx, -hy], [hx, hy], size=(n_fp, 2))
        fp_lab = [spec.labels[int(rng.integers(len(spec.labels)))] for _ in range(n_fp)]
        fp_score = rng.uniform(0.2, 0.8, n_fp)
        cube = rng.random(len(cubes)) < 0.7
        cube_xy = cubes[cube] + rng.normal(0, 1.0, (int(cube.sum()), 2))
        cube_lab = ["cue_ball" if pool else "puck"] * int(cube.sum())
        cube_score = rng.uniform(0.2, 0.45, int(cube.sum()))
        all_xy = np.vstack([xy, fp_xy, cube_xy])
        all_sigma = np.r_[sigma, np.full(n_fp + len(cube_xy), s.sigma_rest_mm * 2)]
        order = rng.permutation(len(all_xy))
        frames.append(Observations(
            t_s=float(t[f]), frame=f, xy_mm=all_xy[order], sigma_mm=all_sigma[order],
            label=tuple((labels + fp_lab + cube_lab)[i] for i in order),
            score=np.r_[score, fp_score, cube_score][order]))
        truth.append(f)
        if rng.random() < s.duplicate:
            frames.append(frames[-1])
            truth.append(f)
    for k in range(len(frames) - 1):
        if rng.random() < s.out_of_order:
            frames[k], frames[k + 1] = frames[k + 1], frames[k]
            truth[k], truth[k + 1] = truth[k + 1], truth[k]
    return ObservedClip(tuple(frames), np.array(truth, dtype=int))
