"""Score a tracker run against ground truth without extra libraries (tests, ratchets).

``frame_pairs`` pairs, frame by frame, the objects on the table with the tracks in play
by optimal assignment on the distance (at most ``max_mm`` apart), class by class as MOT
benchmarks score (MOTChallenge, KITTI): an object matches only tracks of its own label (a
pool ball only its number, a pawn only its colour), so a ball held hidden beside another
is never "found" as that other one's track. ``id_switches`` counts,
as CLEAR-MOT does, how often an object's matched track id changes from its previous
match. The benchmark (``benchmarks/tracking.py``) computes the full MOT metrics with
py-motmetrics from the same pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from simulation.observe import ON_TABLE, GroundTruth
from tracking.types import Tracks


def match_mm(table: str) -> float:
    """How far (mm) a track may lie from an object and still be its match, in the tracking
    benchmarks: 30 on a pool table, 20 on a Novuss board (its pawns are smaller)."""
    return 30.0 if table.startswith("pool") else 20.0


@dataclass(frozen=True, slots=True)
class FramePairs:
    """One frame: truth ids and hypothesis ids present, and the matched pairs."""

    truth_ids: np.ndarray
    track_ids: np.ndarray
    distances_mm: np.ndarray  # (n_truth, n_tracks)


def frame_pairs(gt: GroundTruth, f: int, tracks: Tracks) -> FramePairs:
    """Distances (mm) of the objects on the table to the tracks in play; infinite between
    different labels."""
    on = gt.status[f] == ON_TABLE
    live = tracks.on_table
    d = np.linalg.norm(gt.xy_mm[f, on][:, None] - tracks.xy_mm[live][None], axis=2)
    truth_labels = np.array(gt.labels, dtype=object)[on]
    track_labels = np.array(tracks.label, dtype=object)[live]
    d = np.where(truth_labels[:, None] == track_labels[None, :], d, np.inf)
    return FramePairs(gt.ids[on], tracks.id[live], d)


def id_switches(gt: GroundTruth, truth_frame: np.ndarray, run: list[Tracks] | tuple[Tracks, ...],
                max_mm: float = 30.0) -> dict[str, int]:
    """ID switches, misses and false positives over a run (frames in time order only)."""
    last: dict[int, int] = {}
    switches = misses = false_pos = matches = 0
    t_prev = -np.inf
    for f, tracks in zip(truth_frame, run, strict=True):
        if gt.t_s[f] <= t_prev:
            continue
        t_prev = gt.t_s[f]
        p = frame_pairs(gt, int(f), tracks)
        cost = np.where(p.distances_mm <= max_mm, p.distances_mm, 1e9)
        # CLEAR-MOT: a correspondence of the previous frame still within reach is kept
        prev = np.array([last.get(int(o), -1) for o in p.truth_ids])
        keep = (prev[:, None] == p.track_ids[None, :]) & (cost < 1e9)
        cost = np.where(keep, 0.0, cost)
        r, c = linear_sum_assignment(cost) if cost.size else (np.zeros(0, int), np.zeros(0, int))
        ok = cost[r, c] < 1e9
        r, c = r[ok], c[ok]
        for i, j in zip(r, c, strict=True):
            o, h = int(p.truth_ids[i]), int(p.track_ids[j])
            if o in last and last[o] != h:
                switches += 1
            last[o] = h
        matches += len(r)
        misses += len(p.truth_ids) - len(r)
        false_pos += len(p.track_ids) - len(r)
    return {"switches": switches, "misses": misses, "false_positives": false_pos,
            "matches": matches}
