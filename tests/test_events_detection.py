"""Event detection on tracks made from the physics' exact trajectories plus noise."""

from __future__ import annotations

import dataclasses
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from adjudication.detection import (
    DetectorSettings,
    MotionEventDetector,
    ShotSegmenter,
    zone_membership,
)
from adjudication.detection.detector import _snap_touching
from adjudication.events import Event, EventKind, ObjectRef
from adjudication.games import Game
from calibration.tables import get_table
from simulation import physics
from simulation.racks import novuss_start, pool_rack
from simulation.synthetic_tracks import TrackNoise, sample_tracks
from tracking.types import Tracks, TrackState

POOL = get_table("pool-9ft")
NOVUSS = get_table("novuss")
FPS = 30.0


CLEAN = TrackNoise()


def simulate(spec, labels, xy, strike, *, seed=0, noise=CLEAN, t0=0.5, tail_s=1.2,
             drift=None):
    """Simulate one shot and sample it into Tracks; ``drift(t, pos)`` may move the
    sampled positions first (a track wandering off its object). (result, times, tracks)."""
    res = physics.simulate_shot(spec, physics.physics_for(spec), physics.Bodies.make(
        labels, xy, ids=np.arange(1, len(labels) + 1)), strike, t0_s=t0)
    t = np.arange(0.0, res.t_end_s + tail_s, 1 / FPS) + 0.0123
    pos = res.xy_at(t).copy()
    if drift is not None:
        drift(t, pos)
    tracks = sample_tracks(t, pos, res.status_at(t).astype(int), res.start.ids,
                           res.start.labels, noise, np.random.default_rng(seed), res.v_at(t))
    return res, t, tracks


def detect(spec, tracks):
    """Every event of a fresh detector over ``tracks``."""
    det = MotionEventDetector(spec)
    return [e for tr in tracks for e in det.update(tr)] + det.flush()


def run(spec, labels, xy, strike, *, seed=0, noise=CLEAN, t0=0.5, tail_s=1.2):
    """Simulate one shot, sample it into Tracks, detect; (events, result, tracks)."""
    res, _, tracks = simulate(spec, labels, xy, strike, seed=seed, noise=noise, t0=t0,
                              tail_s=tail_s)
    return detect(spec, tracks), res, tracks


def rack_break(game, rack_seed, speed_mm_s, *, seed, follow=0.0):
    """A break at ``speed_mm_s`` from half-way up the table straight at the apex of a
    ``game`` rack (racked by ``rack_seed``); ``run``'s (events, result, tracks) and the
    time the cue ball hits the rack."""
    labels, xy = pool_rack(game, POOL, np.random.default_rng(rack_seed))
    cue = np.array([-POOL.half_wh_mm[0] / 2, 0.0])
    events, res, tracks = run(POOL, ["cue_ball", *labels], np.vstack([cue, xy]),
                              physics.Strike(1, math.atan2(*(xy[0] - cue)[::-1]), speed_mm_s,
                                             follow=follow), seed=seed)
    return events, res, tracks, next(e.t_s for e in res.events if e.kind == "contact")


def of(events, kind):
    return [e for e in events if e.kind is kind]


def assert_first_cushion(events, res, obj_id, label, cushion):
    """The first cushion found for ``label`` is the physics' first for ``obj_id``, the
    named one, within 20 ms."""
    truth = [e for e in res.events if e.kind == "cushion" and e.ids == (obj_id,)]
    got = [e for e in of(events, EventKind.CUSHION) if e.labels == (label,)]
    assert truth and got and got[0].cushion == truth[0].cushion == cushion
    assert abs(got[0].t_s - truth[0].t_s) < 0.02


def detect_hiding(spec, tracks, track_id, t0_s, t1_s):
    """Events from ``tracks`` with ``track_id`` unseen from ``t0_s`` to ``t1_s`` (under the
    cue and the hand, or blurred)."""
    det = MotionEventDetector(spec)
    events = []
    for tr in tracks:
        if t0_s < tr.t_s < t1_s:
            seen, obs = tr.seen.copy(), tr.obs_xy_mm.copy()
            seen[tr.id == track_id] = False
            obs[tr.id == track_id] = np.nan
            tr = dataclasses.replace(tr, seen=seen, obs_xy_mm=obs)
        events += det.update(tr)
    return events + det.flush()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_straight_shot_contact_time_within_3_ms(seed):
    events, res, _ = run(POOL, ["cue_ball", "ball_1"], [[-600, 0], [0, 3]],
                         physics.Strike(1, 0.0, 2500.0), seed=seed)
    truth = [e for e in res.events if e.kind == "contact"][0]
    contacts = of(events, EventKind.CONTACT)
    assert [c.labels for c in contacts[:1]] == [("cue_ball", "ball_1")]
    assert abs(contacts[0].t_s - truth.t_s) < 0.003


def test_shot_start_and_end_windows():
    events, res, _ = run(POOL, ["cue_ball", "ball_1"], [[-600, 0], [0, 3]],
                         physics.Strike(1, 0.0, 2500.0))
    start = of(events, EventKind.SHOT_START)
    end = of(events, EventKind.SHOT_END)
    assert len(start) == 1 and abs(start[0].t_s - res.t0_s) < 0.01
    assert len(end) == 1 and abs(end[0].t_s - res.t_end_s) < 0.5
    assert start[0].shot == end[0].shot == 1


def test_split_hit_comes_in_order_or_low_confidence():
    r = POOL.object_for("cue_ball").radius_mm
    events, res, _ = run(POOL, ["cue_ball", "ball_1", "ball_2"],
                         [[-500, 0], [200, r + 1.0], [205, -r - 1.0]],
                         physics.Strike(1, 0.0, 3000.0))
    truth = [e.ids[1] for e in res.events if e.kind == "contact" and e.ids[0] == 1][:2]
    got = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "cue_ball"][:2]
    assert len(got) == 2
    ok = [e.ids[1] for e in got] == truth
    assert ok or min(e.confidence for e in got) < 0.5


@pytest.mark.parametrize("t0", [0.5, 0.51, 0.52])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cue_ball_kissing_one_ball_into_another_half_a_frame_later_hits_them_in_order(
        seed, t0):
    # (as the events benchmark's pool seed 0, shot 67) at 1.2 m/s the cue ball clips ball 3
    # and, turned by it, meets ball 2 13 ms later. With a frame just before the first
    # touch, the cue ball's path in passes nearest both balls at that frame's end: it has
    # reached neither yet, and both contacts, timed there, were a tie for review. The
    # balls' starts, a frame later, time and order them.
    events, res, _ = run(POOL, ["cue_ball", "ball_2", "ball_3"],
                         [[-300.0, 0.0], [68.0, 26.5], [58.5, -31.0]],
                         physics.Strike(1, 0.0, 1400.0), seed=seed, t0=t0)
    truth = [e for e in res.events if e.kind == "contact"][:2]
    assert [e.ids for e in truth] == [(1, 3), (1, 2)]
    got = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "cue_ball"][:2]
    assert [e.labels[1] for e in got] == ["ball_3", "ball_2"]
    assert got[0].confidence >= 0.5 and abs(got[0].t_s - truth[0].t_s) < 0.01


@pytest.mark.parametrize("cushion", ["head", "foot", "left_head", "left_foot", "right_head",
                                     "right_foot"])
def test_cushion_named_for_each_pool_cushion(cushion):
    c = POOL.cushion(cushion)
    mid = (np.array(c.a_xy_mm) + np.array(c.b_xy_mm)) / 2
    start = mid + 400 * np.array(c.normal_xy)
    heading = math.atan2(-c.normal_xy[1], -c.normal_xy[0]) + 0.2
    events, res, _ = run(POOL, ["cue_ball"], [start], physics.Strike(1, heading, 1500.0))
    first = of(events, EventKind.CUSHION)[0]
    truth = [e for e in res.events if e.kind == "cushion"][0]
    assert first.cushion == cushion == truth.cushion
    assert abs(first.t_s - truth.t_s) < 0.01


@pytest.mark.parametrize("pocket", ["head_left", "side_left", "foot_right"])
def test_pocket_named(pocket):
    p = np.array(POOL.pocket(pocket).centre_xy_mm)
    start = np.array([0.0, 0.0]) if pocket != "side_left" else np.array([0.0, -300.0])
    start = start + 0.3 * (p - start)
    heading = math.atan2(*(p - start)[::-1])
    events, res, _ = run(POOL, ["cue_ball"], [start], physics.Strike(1, heading, 2500.0))
    pockets = of(events, EventKind.POCKET)
    assert [e.pocket for e in pockets] == [pocket]
    truth = [e for e in res.events if e.kind == "pocket"][0]
    assert abs(pockets[0].t_s - truth.t_s) < 0.05
    # seen clearly all the way in: the frames after it dropped do not count against it
    assert pockets[0].confidence >= 0.8


def test_novuss_line_crossings_named_and_timed():
    events, res, _ = run(NOVUSS, ["puck"], [[0.0, -440.0]], physics.Strike(1, math.pi / 2,
                                                                            1800.0))
    names = [e.line for e in of(events, EventKind.LINE_CROSS)]
    assert names[:3] == ["zone_a", "circle", "circle"]


@pytest.mark.parametrize(
    ("y_mm", "sigma_mm", "inside", "p_lo", "p_hi"),
    [
        (-400.0, 1.0, True, 0.99, 1.0),  # deep in A's zone: line hidden
        (-372.0, 1.0, False, 0.0, 0.01),  # the line shows through the hole
        (-374.5, 1.0, False, 0.45, 0.55),  # on the boundary: a coin toss (§1.3 -374.5)
        (-376.0, 3.0, True, 0.55, 0.8),  # past it, but the position is uncertain
    ],
)
def test_zone_membership_by_hole_test(y_mm, sigma_mm, inside, p_lo, p_hi):
    member, prob = zone_membership(np.array([[0.0, y_mm]]), sigma_mm, NOVUSS)
    k = 0  # zone_a
    assert bool(member[0, k]) is inside or p_lo < 0.5 < p_hi
    assert p_lo <= prob[0, k] <= p_hi


def test_zone_membership_circle_and_pool_rejected():
    member, prob = zone_membership(np.array([[0.0, 0.0], [0.0, 124.0]]), 1.0, NOVUSS)
    assert member[0, 4] and not member[1, 4]
    with pytest.raises(ValueError):
        zone_membership(np.zeros((1, 2)), 1.0, POOL)


def _rest_tracks(t, xy, ids=(1, 2), labels=("cue_ball", "ball_1"), seen=None):
    n = len(ids)
    seen = np.ones(n, bool) if seen is None else seen
    obs = np.where(seen[:, None], xy, np.nan)
    return Tracks(t, int(round(t * FPS)), np.array(ids), labels, xy, np.zeros((n, 2)),
                  np.ones(n), np.ones(n, int), seen, np.full(n, t), obs)


def test_moved_when_a_resting_ball_is_pushed_by_hand():
    rng = np.random.default_rng(0)
    det = MotionEventDetector(POOL)
    events = []
    base = np.array([[-600.0, 0.0], [0.0, 0.0]])
    for k in range(90):
        t = k / FPS
        xy = base.copy()
        s = min(max((t - 1.0) / 0.5, 0.0), 1.0)
        xy[1, 0] += 25.0 * s * s * (3 - 2 * s)
        events += det.update(_rest_tracks(t, xy + rng.normal(0, 1.0, xy.shape)))
    events += det.flush()
    moved = of(events, EventKind.MOVED)
    assert [e.labels for e in moved] == [("ball_1",)]
    assert not of(events, EventKind.SHOT_START)
    assert abs(moved[0].xy_mm[0] - 25.0) < 3.0


def test_placed_when_the_cue_ball_appears_at_rest():
    det = MotionEventDetector(POOL)
    events = []
    for k in range(40):
        t = k / FPS
        if k < 10:
            tr = _rest_tracks(t, np.array([[0.0, 0.0]]), ids=(2,), labels=("ball_1",))
        else:
            tr = _rest_tracks(t, np.array([[-600.0, 0.0], [0.0, 0.0]]))
        events += det.update(tr)
    events += det.flush()
    assert [e.labels for e in of(events, EventKind.PLACED)] == [("cue_ball",)]


@pytest.mark.parametrize("case", ["empty", "duplicates", "gap"])
def test_bad_input_does_not_crash_and_lowers_confidence(case):
    det = MotionEventDetector(POOL)
    if case == "empty":
        for k in range(20):
            assert det.update(Tracks.empty(k / FPS, k)) == []
        assert det.flush() == []
        return
    noise = TrackNoise(dropout=0.0, gap_rate=0.0)
    clean, res, tracks = run(POOL, ["cue_ball", "ball_1"], [[-600, 0], [0, 3]],
                             physics.Strike(1, 0.0, 2500.0), noise=noise)
    t_c = [e.t_s for e in res.events if e.kind == "contact"][0]
    feed = []
    for tr in tracks:
        if case == "gap" and abs(tr.t_s - t_c) < 0.05:
            continue  # frames around the contact lost
        feed.append(tr)
        if case == "duplicates" and abs(tr.t_s - t_c) < 0.05:
            feed.append(tr)
    events = []
    for tr in feed:
        events += det.update(tr)
    events += det.flush()
    base = of(clean, EventKind.CONTACT)[0].confidence
    got = of(events, EventKind.CONTACT)
    assert got and got[0].confidence < base


def test_settings_are_validated():
    with pytest.raises(ValueError):
        DetectorSettings(lag_frames=1)
    with pytest.raises(ValueError):
        DetectorSettings(gap_factor=0.0)


def test_segmenter_numbers_shots_and_keeps_between_events():
    events, res, tracks = run(POOL, ["cue_ball", "ball_1"], [[-600, 0], [0, 3]],
                              physics.Strike(1, 0.0, 2500.0))
    seg = ShotSegmenter()
    shots = []
    for tr in tracks:
        shots += seg.update(tr, [e for e in events if abs(e.frame - tr.frame) < 0.5])
    shots += seg.flush()
    assert len(shots) == 1
    shot = shots[0]
    assert shot.number == 1
    assert shot.first_contact("cue_ball").labels == ("cue_ball", "ball_1")
    assert set(shot.before.labels) == {"cue_ball", "ball_1"}
    assert np.allclose(shot.before.by_label("cue_ball"), [-600, 0], atol=4)


@pytest.mark.parametrize("n_obs", [1, 2, 3, 4, 7, 12])
def test_batched_path_fits_agree_with_single_fits(n_obs):
    from adjudication.detection.fitting import fit_path, fit_paths

    rng = np.random.default_rng(n_obs)
    tau = np.sort(rng.uniform(-0.4, 0.0, (3, 12)), axis=1)
    xy = rng.normal(0, 300, (3, 12, 2))
    ok = np.zeros((3, 12), bool)
    for r in range(3):
        ok[r, rng.choice(12, n_obs, replace=False)] = True
    coef, rms, n = fit_paths(tau, xy, ok, 2)
    for r in range(3):
        c1, rms1 = fit_path(tau[r][ok[r]], xy[r][ok[r]], 2)
        assert n[r] == n_obs
        assert np.allclose(coef[r], c1, atol=1e-6 * max(1.0, np.abs(c1).max()))
        assert rms[r] == pytest.approx(rms1, abs=1e-6)


def test_straightened_paths_slow_along_their_way_and_keep_a_straight_slide_exact():
    from adjudication.detection.fitting import fit_paths, straighten

    tau = np.broadcast_to(np.arange(-6, 0) / 30.0, (2, 6))
    u = np.array([0.6, -0.8])
    # a disc sliding straight, slowing at 1 m/s^2; and the same with one sighting 3 mm
    # aside, which a quadratic reads as a sideways bend
    along = 100.0 + 1500.0 * tau[0] - 500.0 * tau[0] ** 2
    xy = np.stack([along[:, None] * u, along[:, None] * u])
    xy[1, -2] += 3.0 * np.array([0.8, 0.6])
    ok = np.ones((2, 6), dtype=bool)
    quad, _, _ = fit_paths(tau, xy, ok, 2)
    coef, rms = straighten(quad, tau, xy, ok)
    assert np.allclose(coef[0], [100.0 * u, 1500.0 * u, -500.0 * u], atol=1e-6)
    assert rms[0] == pytest.approx(0.0, abs=1e-6)
    across = np.array([0.8, 0.6])  # (the acceleration across the way)
    assert abs(float(quad[1][2] @ across)) > 40.0
    assert abs(float(coef[1][2] @ across)) < 0.1 * abs(float(quad[1][2] @ across))
    v_mid = coef[1][1] + 2.0 * coef[1][2] * float(tau[1].mean())
    acc = coef[1][2]
    assert abs(float(v_mid[0] * acc[1] - v_mid[1] * acc[0])) < 1e-6 * float(
        np.linalg.norm(v_mid) * np.linalg.norm(acc))


@pytest.mark.parametrize("n_obs", [2, 3, 6])
def test_line_fit_agrees_with_numpy_polyfit_and_its_slope_error(n_obs):
    from adjudication.detection.fitting import fit_line

    rng = np.random.default_rng(n_obs)
    tau = np.sort(rng.uniform(0.0, 0.3, n_obs))
    y = 4.0 + 30.0 * tau + rng.normal(0, 1.0, n_obs)
    slope, at0 = np.polyfit(tau, y, 1)
    cov = np.linalg.inv(np.vander(tau, 2).T @ np.vander(tau, 2))  # (unscaled, as polyfit's)
    assert fit_line(tau, y) == pytest.approx((slope, at0, math.sqrt(cov[0, 0])), rel=1e-9)


def test_gap_lines_of_a_noiseless_bounce_meet_where_it_touched():
    from adjudication.detection.fitting import gap_lines

    tau = np.arange(-6, 6) / 30.0 + 0.004  # (frames either side of a touch at -5 ms)
    gap = np.where(tau < -0.005, -60.0 * (tau + 0.005), 25.0 * (tau + 0.005))
    g = gap_lines(tau, gap, tau < 0.0, tau > 0.0)
    assert (g.v_in, g.v_out) == pytest.approx((-60.0, 25.0))
    assert g.vertex_s == pytest.approx(-0.005)


def test_onset_of_a_ball_that_comes_back_off_a_cushion_is_timed_on_its_way_out():
    # 5 m/s from rest at tau = -1 ms; the fifth sighting is back off a cushion: a curve
    # through it would solve to nonsense
    from adjudication.detection.fitting import onset_time

    tau = np.array([0.0, 1 / 30, 2 / 30, 3 / 30, 4 / 30])
    dist = 5000.0 * (tau + 0.001)
    dist[-1] = 380.0
    xy = np.column_stack([dist, np.zeros(5)])
    t_on = onset_time(tau, xy, np.zeros(2), -0.1, 0.0)
    assert t_on is not None and abs(t_on + 0.001) < 0.002


def test_onset_of_a_pawn_that_comes_back_past_its_rest_is_timed_on_its_way_out():
    # 2 m/s from rest at tau = -10 ms; a cushion 100 mm on sends it back past its rest at
    # 2 m/s: its last sighting lies farther from the rest than any on the way out, on the
    # other side
    from adjudication.detection.fitting import onset_time

    tau = np.arange(6) / 30
    out = 2000.0 * (tau + 0.010)
    dist = np.where(out < 100.0, out, 200.0 - out)
    xy = np.column_stack([dist, np.zeros(6)])
    t_on = onset_time(tau, xy, np.zeros(2), -0.1, 0.0)
    assert t_on is not None and abs(t_on + 0.010) < 0.002


def test_creep_is_timed_from_its_sightings_at_rest_and_moving_together():
    # 60 mm/s from rest at tau = -0.1 s, 1 mm noise: it is first 4.5 mm off its rest (an
    # onset) at tau = 0, and the curve through its sightings from there, run back, finds
    # no start within the three frames before; the hinge through all of them, at rest and
    # moving, times it within a frame
    from adjudication.detection.fitting import creep_onset, onset_time

    rng = np.random.default_rng(7)
    tau = np.arange(-8, 5) / 30
    dist = 60.0 * np.clip(tau + 0.1, 0.0, None)
    xy = np.column_stack([dist, np.zeros_like(dist)]) + rng.normal(0.0, 1.0, (len(tau), 2))
    moving = tau >= 0.0
    assert onset_time(tau[moving], xy[moving], np.zeros(2), -0.1, 0.0) is None
    t0, v = creep_onset(tau, xy, np.zeros(2), -0.25, 0.0, 1.0)
    assert abs(t0 + 0.1) < 1 / 30 and 30.0 < v < 120.0


def _triangle(rows: int, gap_mm: float = 0.1) -> np.ndarray:
    d = 2 * POOL.object_for("cue_ball").radius_mm + gap_mm
    return np.array([[k * d * math.cos(math.pi / 6), (j - k / 2) * d]
                     for k in range(rows) for j in range(k + 1)])


def test_impulse_into_a_rack_spreads_forward_never_along_a_row():
    xy = _triangle(4)  # rows of 1, 2, 3, 4: indices 0 | 1 2 | 3 4 5 | 6 7 8 9
    dist = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    touch = (dist < 2 * POOL.object_for("cue_ball").radius_mm + 3.0) & (dist > 0)
    parents, _ = MotionEventDetector._impulse_spread(0, np.array([1.0, 0.0]), xy, touch)
    edges = {(k, m) for m, ks in parents.items() for k in ks}
    assert {(0, 1), (0, 2), (1, 3), (1, 4), (2, 4), (2, 5), (3, 6), (4, 7), (5, 9)} <= edges
    row = [0, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    assert all(row[m] == row[k] + 1 for k, m in edges)


def test_impulse_turning_through_a_rack_fades_before_it_comes_back_round():
    # a row-3 corner ball pushed on out of the rack: 60 degrees off its way in it still
    # pushes its neighbour in the back row, and that one the next; turned again, too
    # little is left to push back up into the rack towards the apex
    xy = _triangle(4)
    dist = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    touch = (dist < 2 * POOL.object_for("cue_ball").radius_mm + 3.0) & (dist > 0)
    came = np.array([math.cos(math.pi / 6), -0.5])
    parents, _ = MotionEventDetector._impulse_spread(3, came, xy, touch)
    assert {6, 7, 8} <= set(parents)
    assert not {0, 1, 2, 5} & set(parents)


@pytest.mark.parametrize("seed", range(3))
def test_snapping_a_noisy_rack_points_its_lines_of_centres_true(seed):
    # rest positions 0.3 mm off turn a rack's lines of centres by 0.2 degrees (median);
    # set exactly touching again, the 15 balls' lines point about ten times truer
    r = POOL.object_for("cue_ball").radius_mm
    xy = _triangle(5, gap_mm=0.0)
    noisy = xy + np.random.default_rng(seed).normal(0.0, 0.3, xy.shape)
    snapped = _snap_touching(noisy, np.full(len(xy), r))
    i, j = np.nonzero(np.triu(np.linalg.norm(xy[:, None] - xy[None], axis=2) < 2 * r + 0.01, 1))

    def angle_error(p):
        u, w = p[j] - p[i], xy[j] - xy[i]
        return np.degrees(np.abs(np.arctan2(u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0],
                                            (u * w).sum(axis=1))))

    gaps = np.linalg.norm(snapped[j] - snapped[i], axis=1) - 2 * r
    assert np.abs(gaps).max() < 0.05
    assert np.median(angle_error(snapped)) < 0.25 * np.median(angle_error(noisy))


def test_puck_bouncing_off_a_pawn_held_by_the_cushion_is_a_contact_and_a_cushion():
    r_pawn = NOVUSS.object_for("red_pawn").radius_mm
    y_pawn = -500.0 + r_pawn + 0.5  # against cushion a
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"], [[0.0, -200.0], [0.0, y_pawn]],
                         physics.Strike(1, -math.pi / 2, 1500.0))
    contacts = of(events, EventKind.CONTACT)
    assert [c.labels for c in contacts[:1]] == [("puck", "red_pawn")]
    truth = [e for e in res.events if e.kind == "contact"][0]
    assert abs(contacts[0].t_s - truth.t_s) < 0.01
    pawn_cushions = [e for e in of(events, EventKind.CUSHION) if e.labels == ("red_pawn",)]
    assert pawn_cushions and pawn_cushions[0].cushion == "a"
    assert pawn_cushions[0].t_s >= contacts[0].t_s


def test_ball_struck_by_the_stroke_within_a_frame_is_pinned_on_the_striker():
    # the cue ball starts and hits 10 ms later: both onsets come in the same frame
    events, res, _ = run(POOL, ["cue_ball", "ball_1"], [[0.0, 0.0], [97.0, 1.0]],
                         physics.Strike(1, 0.0, 4000.0, follow=0.3))
    contacts = of(events, EventKind.CONTACT)
    assert contacts and contacts[0].labels == ("cue_ball", "ball_1")


def test_slow_creeper_during_a_shot_is_never_a_hand():
    # the cue ball rolls for 3 s; meanwhile ball_1 creeps at 12 mm/s, slow enough to look
    # at rest for a moment and then go on: no `moved` while the shot is on
    rng = np.random.default_rng(3)
    det = MotionEventDetector(POOL)
    events = []
    for k in range(150):
        t = k / FPS
        tc = min(max(t - 0.5, 0.0), 3.0)
        cue = [-1000.0 + 900.0 * tc - 150.0 * tc * tc, -500.0]
        creep = 12.0 * min(max(t - 1.0, 0.0), 2.0)
        xy = np.array([cue, [creep, 400.0]])
        events += det.update(_rest_tracks(t, xy + rng.normal(0, 1.0, xy.shape)))
    events += det.flush()
    assert len(of(events, EventKind.SHOT_START)) == 1
    assert of(events, EventKind.MOVED) == []


@pytest.mark.parametrize(("speed_mm_s", "angle", "seed"),
                         [(250.0, 0.5, 0), (250.0, 0.5, 1), (350.0, 0.8, 2)])
def test_slow_cushion_bounce_with_a_small_bend_is_found(speed_mm_s, angle, seed):
    # too slow for the bend test: the path scan finds the root one radius from the nose
    c = POOL.cushion("foot")
    mid = (np.array(c.a_xy_mm) + np.array(c.b_xy_mm)) / 2
    start = mid + 150 * np.array(c.normal_xy)
    heading = math.atan2(-c.normal_xy[1], -c.normal_xy[0]) + angle
    events, res, _ = run(POOL, ["cue_ball"], [start], physics.Strike(1, heading, speed_mm_s),
                         seed=seed)
    truth = [e for e in res.events if e.kind == "cushion"][0]
    got = of(events, EventKind.CUSHION)
    assert got and got[0].cushion == "foot"
    assert abs(got[0].t_s - truth.t_s) < 0.02


def test_line_depths_of_all_lines_at_once_agree_with_signed_depth():
    from adjudication.detection import signed_depth_mm

    xy = np.random.default_rng(0).normal(0, 400, (40, 2))
    for spec in (POOL, NOVUSS):
        det = MotionEventDetector(spec)
        want = np.stack([signed_depth_mm(line, xy) for line in det._lines])
        assert np.allclose(det._depth(xy), want)


@pytest.mark.parametrize("rolling, stroke", [(True, True), (False, False)])
def test_striker_lost_to_motion_blur_and_found_rolling_far_away_was_struck(rolling, stroke):
    # a break: the cue ball leaves its rest faster than the detector can see, and is found
    # again 1.4 m away, still rolling; a cue ball carried by hand is set down at rest
    det = MotionEventDetector(POOL)
    events = []
    rest, far = np.array([-870.0, 138.0]), np.array([560.0, 7.0])
    for k in range(80):
        t = k / FPS
        if k < 30:
            xy, seen = rest, True
        elif k < 36:
            xy, seen = rest, False
        else:
            xy = far - (np.array([700.0, -100.0]) * (t - 36 / FPS) if rolling else 0.0)
            xy, seen = (xy if k < 50 else far - (np.array([700.0, -100.0]) * 14 / FPS
                                                 if rolling else 0.0)), True
        tr = _rest_tracks(t, np.array([xy, [0.0, 0.0]]), seen=np.array([seen, True]))
        events += det.update(tr)
    events += det.flush()
    starts = of(events, EventKind.SHOT_START)
    assert bool(starts) is stroke
    if stroke:
        assert abs(starts[0].t_s - 30 / FPS) < 2 / FPS and starts[0].labels == ("cue_ball",)


def test_shot_ends_when_a_rolling_ball_is_lost_from_view_and_held_by_the_tracker():
    # the 1 rolls under a player's arm: the tracker holds it (occluded), never seen again
    _, res, tracks = run(POOL, ["cue_ball", "ball_1"], [[-600, 0], [0, 3]],
                         physics.Strike(1, 0.0, 2500.0))
    t_contact = [e for e in res.events if e.kind == "contact"][0].t_s
    det = MotionEventDetector(POOL)
    events = []
    for tr in tracks:
        if tr.t_s > t_contact + 0.3:
            hide = np.array([lab == "ball_1" for lab in tr.label])
            obs = np.where(hide[:, None], np.nan, tr.obs_xy_mm)
            state = np.where(hide, 2, tr.state)
            tr = Tracks(tr.t_s, tr.frame, tr.id, tr.label, tr.xy_mm, tr.v_mm_s, tr.sigma_mm,
                        state, tr.seen & ~hide, tr.last_seen_t_s, obs)
        events += det.update(tr)
    ends = of(events, EventKind.SHOT_END)
    assert len(ends) == 1 and ends[0].t_s < tracks[-1].t_s


@pytest.mark.parametrize("game, stroke", [
    (Game.NOVUSS, False),  # singles: strokes are played from a's and b's zones
    (Game.NOVUSS_DOUBLES, True),  # doubles: from all four
])
def test_novuss_puck_slid_off_a_side_zone_is_a_stroke_only_in_doubles(game, stroke):
    from adjudication.detection import DetectorSettings

    det = MotionEventDetector(NOVUSS, DetectorSettings.for_game(game))
    events = []
    rest = np.array([-432.0, 128.0])
    for k in range(60):
        t = k / FPS
        tau = max(0.0, t - 1.0)
        xy = rest + np.array([1.0, 0.6]) * (900.0 * tau - 300.0 * tau * tau)
        tr = _rest_tracks(t, np.array([xy, [0.0, 0.0]]), labels=("puck", "red_pawn"))
        events += det.update(tr)
    events += det.flush()
    assert bool(of(events, EventKind.SHOT_START)) is stroke


def _resting(t_s, ids, labels, xy):
    n = len(ids)
    xy = np.asarray(xy, float)
    return Tracks(t_s, int(t_s * 30), np.asarray(ids), tuple(labels), xy, np.zeros((n, 2)),
                  np.ones(n), np.full(n, int(TrackState.RESTING)), np.ones(n, bool),
                  np.full(n, t_s), xy)


def _ev(kind, t_s, *objs, xy=(0.0, 0.0)):
    return Event(kind, t_s, int(t_s * 30), 0, tuple(ObjectRef(i, lab) for i, lab in objs), xy)


ROW = [[-500, 0], [0, -485], [30, -485]]  # the puck and two touching black pawns


@pytest.mark.parametrize(
    "first_row, second_row, contact, kept",
    [
        # the tracker traded the identities of two touching pawns: nothing moved
        (ROW, [[-500, 0], [30, -485], [0, -485]], ((2, "black_pawn"), (3, "black_pawn")), False),
        # one pawn held twice (two tracks 2 mm apart), one drifting: not two pawns touching
        ([[-500, 0], [0, -485], [2, -485]], [[-500, 0], [0, -485], [10, -480]],
         ((2, "black_pawn"), (3, "black_pawn")), False),
        # a hand really pushed the row 40 mm along the rail: a touch outside the shot
        (ROW, [[-500, 0], [40, -485], [70, -485]], ((2, "black_pawn"), (3, "black_pawn")), True),
        # the puck touched a pawn while placed: a striker's touch always counts (§17.1.л)
        (ROW, ROW, ((1, "puck"), (2, "black_pawn")), True),
    ],
    ids=["swap", "held_twice", "pushed", "puck"],
)
def test_segmenter_leaves_out_between_shot_touches_that_moved_nothing(
    first_row, second_row, contact, kept
):
    ids, labels = [1, 2, 3], ["puck", "black_pawn", "black_pawn"]
    stroke = (1, "puck")
    seg = ShotSegmenter()
    shots = []
    shots += seg.update(_resting(0.0, ids, labels, first_row),
                        [_ev(EventKind.SHOT_START, 0.0, stroke, xy=(-500.0, 0.0))])
    shots += seg.update(_resting(1.0, ids, labels, first_row), [_ev(EventKind.SHOT_END, 1.0)])
    shots += seg.update(_resting(1.5, ids, labels, second_row),
                        [_ev(EventKind.CONTACT, 1.5, *contact)])
    shots += seg.update(_resting(2.0, ids, labels, second_row),
                        [_ev(EventKind.SHOT_START, 2.0, stroke, xy=(-500.0, 0.0))])
    shots += seg.update(_resting(3.0, ids, labels, second_row), [_ev(EventKind.SHOT_END, 3.0)])
    assert [s.number for s in shots] == [1, 2]
    between = [e for e in shots[1].between if e.kind is EventKind.CONTACT]
    assert len(between) == (1 if kept else 0)


def _puck_struck_with_a_drifter(labels, xy, drifter, seed):
    """The events of the puck, at (0, -380) with ``labels[1:]`` at ``xy``, struck up the
    board at 1.8 m/s at 0.5 s, while the track of object ``drifter`` (its index) drifts
    12 mm along x over the six frames from the stroke (a duplicate track, a misread)."""
    def drift(t, pos):
        k = int(np.searchsorted(t, 0.5))
        pos[k:, drifter, 0] += 12.0 * np.minimum(np.arange(len(t) - k) + 1, 6) / 6

    _, _, tracks = simulate(NOVUSS, labels, [[0.0, -380.0], *xy],
                            physics.Strike(1, math.pi / 2, 1800.0), seed=seed, drift=drift)
    return detect(NOVUSS, tracks)


def test_pawn_jittering_behind_a_struck_puck_is_not_struck_by_it():
    """A pawn track that drifts off as the puck is struck (a duplicate track, a misread),
    100 mm behind the puck: the puck was at rest until it started, so its path does not
    run back to the pawn."""
    events = _puck_struck_with_a_drifter(["puck", "red_pawn"], [[0.0, -484.0]], 1, 0)
    assert of(events, EventKind.SHOT_START)
    assert not [c for c in of(events, EventKind.CONTACT) if "red_pawn" in c.labels]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_break_cue_ball_touches_only_the_apex_ball(seed):
    # the cue ball's path run on past the apex would meet the second row a few ms later;
    # its path ends at its first contact, so the whole rack is not pinned on it
    events, _, _, t_hit = rack_break("9ball", 3 + seed, 7000.0, seed=seed)
    cue_contacts = [e for e in of(events, EventKind.CONTACT)
                    if 1 in e.ids and e.t_s < t_hit + 0.1]
    assert [tuple(sorted(e.ids)) for e in cue_contacts] == [(1, 2)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("game", ["9ball", "10ball"])
def test_break_contacts_are_never_timed_before_the_cue_ball_hits_the_rack(seed, game):
    # a back-corner ball flies off first and fastest: its path run back, or a slow ball's
    # onset run back, lands before the break; nothing in the rack moves before the hit
    events, _, _, t_hit = rack_break(game, 10 + seed, 7000.0, seed=seed)
    contacts = of(events, EventKind.CONTACT)
    assert contacts and min(e.t_s for e in contacts) > t_hit - 0.003


@pytest.mark.parametrize("seed", range(6))
def test_push_through_a_triangle_runs_forward_never_along_its_rows(seed):
    # the cue ball hits the apex of a touching six-ball triangle full: each ball pushes the
    # two ahead of it; its row neighbour leaves it sideways, so no push runs along a row
    r = POOL.object_for("cue_ball").radius_mm
    d = 2 * r + 0.1
    rows = [(0, 0.0), (1, -0.5), (1, 0.5), (2, -1.0), (2, 0.0), (2, 1.0)]
    xy = [[k * d * math.cos(math.pi / 6), y * d] for k, y in rows]
    events, res, _ = run(POOL, ["cue_ball", *[f"ball_{k}" for k in range(1, 7)]],
                         [[-500, 0], *xy], physics.Strike(1, 0.0, 2500.0), seed=seed)
    t_hit = next(e.t_s for e in res.events if e.kind == "contact")
    row = {k + 2: rk for k, (rk, _) in enumerate(rows)}
    pushes = {tuple(sorted(e.ids)) for e in of(events, EventKind.CONTACT)
              if 1 not in e.ids and e.t_s < t_hit + 0.05}
    assert {(2, 3), (2, 4)} <= pushes
    assert all(row[i] != row[j] for i, j in pushes), pushes


def _break_pushes_found(*, hide_farthest: bool) -> tuple[int, int, int]:
    """(found, logged, ours) over 18 breaks (8-, 9- and 10-ball racks): the pushes through
    the rack the physics logged at 50 mm/s and up, and those we report within 20 ms of the
    hit (a fainter one logged counts neither way); ``hide_farthest``: the rack ball
    farthest from the apex unseen from 0.2 s before the hit to 0.3 s after."""
    found = logged_n = got_n = 0
    for game in ("8ball", "9ball", "10ball"):
        for seed in range(6):
            events, res, tracks, t_hit = rack_break(game, 20 + seed, 6500.0, seed=seed)
            if hide_farthest:
                ids, xy = res.start.ids, res.start.xy_mm
                apex = next(e.ids[1] for e in res.events if e.kind == "contact")
                far = np.linalg.norm(xy - xy[list(ids).index(apex)], axis=1) * (ids != 1)
                events = detect_hiding(POOL, tracks, int(ids[np.argmax(far)]),
                                       t_hit - 0.2, t_hit + 0.3)
            logged = [e for e in res.events if e.kind == "contact" and 1 not in e.ids
                      and e.t_s < t_hit + 0.02]
            pushes = {frozenset(e.ids) for e in logged if e.speed_mm_s >= 50.0}
            faint = {frozenset(e.ids) for e in logged} - pushes
            got = {frozenset(e.ids) for e in of(events, EventKind.CONTACT)
                   if 1 not in e.ids and abs(e.t_s - t_hit) < 0.02} - faint
            found += len(got & pushes)
            logged_n += len(pushes)
            got_n += len(got)
    return found, logged_n, got_n


def test_pushes_through_racks_are_the_pairs_the_break_carried_through():
    # which touching pairs carry a break through a rack turns on gaps of tenths of a mm.
    # One ball's velocity cannot tell which neighbour pushed it (one pushes it, it pushes
    # two on); all the balls' velocities together mostly can, each push moving both its
    # balls: nine in ten of the pushes logged are found, and nine in ten found are real.
    # One ball's way off alone found 83 % real
    found, logged, ours = _break_pushes_found(hide_farthest=False)
    assert found >= 0.9 * logged, (found, logged)
    assert found >= 0.9 * ours, (found, ours)


def test_pushes_through_a_rack_with_a_ball_unseen_after_the_break_are_found():
    # the back corner ball is unseen over the break (missed in the pack, or blurred): the
    # fit takes it as at rest, weighed a tenth of a ball seen, and finds nine in ten of
    # the pushes still, nine in ten real (one ball's way off alone: 83 % found; weighed
    # as one seen, 85 % real)
    found, logged, ours = _break_pushes_found(hide_farthest=True)
    assert found >= 0.88 * logged, (found, logged)
    assert found >= 0.9 * ours, (found, ours)


@pytest.mark.parametrize("seed", range(6))
def test_slow_cue_ball_nudging_a_ball_is_timed_where_its_path_reaches_it(seed):
    # at the end of a long roll the cue ball meets ball 8 at ~100 mm/s: the struck ball
    # creeps off, seen moving only frames later; its onset run back comes out late, where
    # the cue ball's path reaching it does not
    labels = ["cue_ball", "ball_8", "ball_10", "ball_4", "ball_1", "ball_9", "ball_3", "ball_7"]
    xy = [[-1186.05, -564.65], [-628.16, 59.03], [-618.65, 116.17], [389.02, -4.06],
          [187.49, 239.69], [1019.02, 525.58], [-314.18, 205.7], [-600.63, -305.77]]
    events, res, _ = run(POOL, labels, xy, physics.Strike(1, 0.8589, 615.94, follow=-0.1159),
                         seed=seed)
    truth = next(e for e in res.events if e.kind == "contact")
    got = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == set(truth.ids)]
    assert got and abs(got[0].t_s - truth.t_s) < 0.05


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("aim_mm", [0.0, 15.1])
def test_puck_into_the_junction_of_a_red_and_a_black_pawn_is_for_review(seed, aim_mm):
    # the two pawns touch; aimed at the red one's centre the puck plainly hits it first,
    # aimed at the junction it meets both within a fraction of a ms: whether it hit one
    # colour first or both at once (S0 §17.1.б) no camera tells, so it is for review
    d = 2 * NOVUSS.object_for("red_pawn").radius_mm + 0.2
    events, res, _ = run(NOVUSS, ["puck", "red_pawn", "black_pawn"],
                         [[aim_mm, -300.0], [0.0, 0.0], [d, 0.0]],
                         physics.Strike(1, math.pi / 2, 1500.0), seed=seed)
    first = _puck_first(events)
    if aim_mm == 0.0:
        assert set(first.ids) == {1, 2} and first.confidence >= 0.5
    else:
        assert first.confidence < 0.5


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ball_that_passes_the_hit_on_is_the_first_contact(seed):
    # the cue ball hits the front ball of a touching triangle; it hardly moves (a Newton's
    # cradle) and the two behind it fly off: the front ball is still the one hit
    r = POOL.object_for("cue_ball").radius_mm
    d = 2 * r + 0.1
    back = d * math.cos(math.pi / 6)
    events, res, _ = run(POOL, ["cue_ball", "ball_1", "ball_2", "ball_3"],
                         [[-500, 0], [0, 0], [back, d / 2], [back, -d / 2]],
                         physics.Strike(1, 0.0, 1200.0), seed=seed)
    contacts = of(events, EventKind.CONTACT)
    cue = [e for e in contacts if 1 in e.ids]
    assert cue and tuple(sorted(cue[0].ids)) == (1, 2)
    assert cue[0].t_s <= min(e.t_s for e in contacts) + 0.002
    passed = {tuple(sorted(e.ids)) for e in contacts if 1 not in e.ids}
    assert {(2, 3), (2, 4)} <= passed


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_slow_contact_of_two_rolling_balls_is_found(seed):
    # two balls roll into each other at 100 mm/s each: each bends by less than the general
    # bend test allows for a changing acceleration, but along their line of centres
    r = POOL.object_for("cue_ball").radius_mm
    t = np.arange(0.0, 3.0, 1 / FPS) + 0.0123
    p2, p3 = np.array([-300.0, 0.0]), np.array([300.0, 2 * r * 0.5])
    v2, v3 = np.array([100.0, 0.0]), np.array([-100.0, 0.0])
    # when they touch, and their velocities after (equal masses: normal parts swap)
    rel_p, rel_v = p3 - p2, v3 - v2
    qa, qb, qc = rel_v @ rel_v, 2 * rel_p @ rel_v, rel_p @ rel_p - (2 * r) ** 2
    tc = (-qb - math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)
    n = (p3 + v3 * tc) - (p2 + v2 * tc)
    n /= np.linalg.norm(n)
    w2, w3 = v2 + ((v3 - v2) @ n) * n, v3 - ((v3 - v2) @ n) * n
    xy = np.zeros((len(t), 3, 2))
    for k, tk in enumerate(t):
        for j, (p, v, w) in enumerate(((p2, v2, w2), (p3, v3, w3))):
            xy[k, j + 1] = p + v * min(tk, tc) + w * max(tk - tc, 0.0)
        # the cue ball, struck away from them at 0.3 s: the shot is on
        xy[k, 0] = [0.0, -300.0 - 1500.0 * max(min(tk, 0.5) - 0.3, 0.0)]
    tracks = sample_tracks(t, xy, np.zeros((len(t), 3), int), np.array([1, 2, 3]),
                           ("cue_ball", "ball_1", "ball_2"), CLEAN,
                           np.random.default_rng(seed))
    det = MotionEventDetector(POOL)
    events = []
    for tr in tracks:
        events += det.update(tr)
    events += det.flush()
    got = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == {2, 3}]
    assert len(got) == 1 and abs(got[0].t_s - tc) < 0.05  # the benchmark's tolerance


@pytest.mark.parametrize("seed", [0, 2, 3, 5])
def test_puck_into_a_row_of_pawns_touches_only_the_first(seed):
    # the puck stops on the first pawn and the push runs down the row to the last one
    xy = [[-300, 0], [0, 0], [30.1, 0], [60.2, 0], [90.3, 0]]
    events, res, _ = run(NOVUSS, ["puck", *["red_pawn"] * 4], xy,
                         physics.Strike(1, 0.0, 1500.0), seed=seed)
    t_hit = next(e.t_s for e in res.events if e.kind == "contact")
    early = [tuple(sorted(e.ids)) for e in of(events, EventKind.CONTACT)
             if e.t_s < t_hit + 0.2]
    assert [p for p in early if 1 in p] == [(1, 2)]
    assert (2, 3) in early and (3, 4) in early


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_puck_stopped_by_a_pawn_the_cushion_holds_never_reaches_that_cushion(seed):
    r_pawn = NOVUSS.object_for("red_pawn").radius_mm
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"],
                         [[0.0, -200.0], [0.0, -500.0 + r_pawn + 0.5]],
                         physics.Strike(1, -math.pi / 2, 2500.0), seed=seed)
    assert not [e for e in res.events if e.kind == "cushion" and 1 in e.ids]
    assert not [e for e in of(events, EventKind.CUSHION) if e.labels == ("puck",)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ball_struck_into_the_cushion_before_it_is_seen_moving_bounces(seed):
    # ball_1 lies 12 mm off the foot cushion and is cut straight into it (the cue ball
    # goes off sideways): it reaches the cushion ~5 ms after the hit, between two frames
    r = POOL.object_for("cue_ball").radius_mm
    ball = np.array([POOL.half_wh_mm[0] - r - 12, 0.0])
    aim = ball - [2 * r, 0.0]
    cue = aim - 600 * np.array([math.cos(math.pi / 3), math.sin(math.pi / 3)])
    events, res, _ = run(POOL, ["cue_ball", "ball_1"], [cue, ball],
                         physics.Strike(1, math.pi / 3, 2500.0), seed=seed)
    assert_first_cushion(events, res, 2, "ball_1", "foot")


@pytest.mark.parametrize("seed", range(8))
def test_puck_grazing_the_end_of_a_row_is_found_from_the_far_pawn(seed):
    # off cushion a, the puck grazes the end pawn of the black row, which the cushion
    # holds: that pawn hardly moves and the puck hardly bends, but the far pawn flies off
    from simulation.racks import novuss_start

    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], [[-237.87, -473.89], *xy],
                         physics.Strike(1, -0.2992, 910.6), seed=seed)
    truth = next(e for e in res.events if e.kind == "contact" and 1 in e.ids)
    puck = [e for e in of(events, EventKind.CONTACT) if 1 in e.ids]
    assert puck and set(puck[0].ids) == set(truth.ids)
    assert abs(puck[0].t_s - truth.t_s) < 0.05


@pytest.mark.parametrize("seed", range(8))
def test_end_pawn_the_cushion_holds_grazed_by_the_puck_is_pressed_into_that_cushion(seed):
    # the same graze: the end pawn, held by cushion a, is pushed into it (the rail the
    # rules look for after the first contact), though it moves by the cushion's give alone
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], [[-237.87, -473.89], *xy],
                         physics.Strike(1, -0.2992, 910.6), seed=seed)
    truth = next(e for e in res.events if e.kind == "cushion" and 1 not in e.ids)
    got = [e for e in of(events, EventKind.CUSHION)
           if e.ids == truth.ids and e.cushion == truth.cushion]
    assert got and abs(got[0].t_s - truth.t_s) < 0.02


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("away", [False, True])
def test_stroke_into_a_held_pawn_is_a_bounce_and_a_stroke_away_is_not(seed, away):
    # the puck rests 25 mm in front of a pawn the cushion holds. Struck at it, it hits it
    # before the next frame and is first seen coming back: a stroke and a contact. Struck
    # away from it, its path run back meets the pawn too, but it never touched it. (Seen
    # every frame: with the puck lost around the stroke a plain stroke fits the same data.)
    r_pawn, r_puck = NOVUSS.object_for("red_pawn").radius_mm, NOVUSS.object_for("puck").radius_mm
    y_pawn = -500.0 + r_pawn + 0.5
    heading = math.pi / 2 if away else -math.pi / 2
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"],
                         [[0.0, y_pawn + r_pawn + r_puck + 25.0], [0.0, y_pawn]],
                         physics.Strike(1, heading, 2500.0), seed=seed,
                         noise=TrackNoise(dropout=0.0, gap_rate=0.0))
    assert len(of(events, EventKind.SHOT_START)) == 1
    # (struck away, it comes back from the far cushion seconds later)
    contacts = [e for e in of(events, EventKind.CONTACT) if e.t_s < res.t0_s + 0.3]
    truth = [e for e in res.events if e.kind == "contact" and e.t_s < res.t0_s + 0.3]
    if away:
        assert not truth and not contacts
    else:
        assert contacts and contacts[0].labels == ("puck", "red_pawn")
        assert abs(contacts[0].t_s - truth[0].t_s) < 0.02


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("back_mm", [3.0, 15.0])
def test_pawn_struck_into_a_corner_pocket_before_a_frame_shows_it_moving_was_hit(
        seed, back_mm):
    # a pawn lies just off corner pocket a_right; the puck, played from the edge zone
    # along cushion a, cuts it in: it drops within 5 ms, so the tracker has it at rest
    # in one frame and pocketed in the next. The contact is read from where it lay.
    pocket = next(p for p in NOVUSS.pockets if p.name == "a_right")
    c = np.array(pocket.centre_xy_mm)
    u = c / np.linalg.norm(c)
    pawn = c - u * (pocket.capture_radius_mm + back_mm)
    hit = pawn - u * (NOVUSS.object_for("red_pawn").radius_mm
                      + NOVUSS.object_for("puck").radius_mm)
    puck = np.array([0.0, -450.0])
    heading = math.atan2(*(hit - puck)[::-1])
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"], [puck, pawn],
                         physics.Strike(1, heading, 3000.0), seed=seed)
    truth = next(e for e in res.events if e.kind == "contact")
    dropped = next(e for e in res.events if e.kind == "pocket")
    assert dropped.t_s - truth.t_s < 1 / FPS
    got = of(events, EventKind.CONTACT)
    assert len(got) == 1 and set(got[0].ids) == {1, 2}
    assert abs(got[0].t_s - truth.t_s) < 0.005


def test_break_stroke_that_blur_makes_look_speeding_up_is_a_shot_start():
    # a 10 m/s break filmed at 60 fps: motion blur scatters the cue ball's centre along
    # its path by ~10 mm, so its first frames fit a path that speeds up, as a hand's does
    # and a stroke's never; but no hand moves a ball at 10 m/s (positions from a clip)
    det = MotionEventDetector(POOL)
    events = []
    x_mm = [-845.0, -841.5, -756.9, -607.9, -434.3, -243.1, -105.0, 100.0, 257.0, 442.0]
    y_mm = [0.0, 3.0, 1.0, 4.7, -11.2, -8.7, -7.0, 4.0, 3.0, -8.0]
    for k in range(120):
        t = k / 60.0
        j = min(max(k - 49, 0), len(x_mm) - 1)
        xy = np.array([[x_mm[j], y_mm[j]], [600.0, 400.0]])
        flying = 1 < j < len(x_mm) - 1
        tr = _rest_tracks(t, xy)
        events += det.update(Tracks(
            t, k, tr.id, tr.label, xy, tr.v_mm_s, np.array([9.0 if flying else 1.0, 1.0]),
            np.array([int(TrackState.MOVING if flying else TrackState.RESTING), 1]), tr.seen,
            tr.last_seen_t_s, tr.obs_xy_mm))
    events += det.flush()
    starts = of(events, EventKind.SHOT_START)
    assert [e.labels for e in starts] == [("cue_ball",)]
    assert abs(starts[0].t_s - 50 / 60.0) < 1 / 60.0
    assert not of(events, EventKind.PLACED) and not of(events, EventKind.MOVED)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_puck_that_glances_off_a_pawn_into_the_cushion_within_a_frame_hits_both(seed):
    # the pawn lies 20 mm off the left cushion; the puck, coming in at 45 degrees, clips
    # its far side and reaches the cushion ~16 ms later, before the next frame: the path
    # seen after is folded by both
    r_pawn = NOVUSS.object_for("red_pawn").radius_mm
    r_sum = r_pawn + NOVUSS.object_for("puck").radius_mm
    pawn = np.array([-NOVUSS.half_wh_mm[0] + r_pawn + 20.0, 0.0])
    along, side = np.array([-1.0, 1.0]) / math.sqrt(2), np.array([1.0, 1.0]) / math.sqrt(2)
    aim = pawn - along * r_sum * math.sqrt(0.75) - side * r_sum * 0.5
    start = aim - 300.0 * along
    d = along
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"], [start, pawn],
                         physics.Strike(1, math.atan2(d[1], d[0]), 2400.0), seed=seed)
    truth = [(e.kind, getattr(e, "cushion", None), e.t_s) for e in res.events
             if 1 in e.ids and e.kind in ("contact", "cushion")][:2]
    assert [k for k, _, _ in truth] == ["contact", "cushion"]
    assert truth[1][2] - truth[0][2] < 1 / FPS
    cushions = [e for e in of(events, EventKind.CUSHION) if e.labels == ("puck",)]
    assert cushions and cushions[0].cushion == truth[1][1]
    assert abs(cushions[0].t_s - truth[1][2]) < 0.005


def test_puck_set_down_by_hand_and_seen_once_before_the_stroke_is_struck_from_there():
    # the puck rests in zone a, is carried under a hand to zone b, seen there for a single
    # frame and hidden again (the player's arm) until the stroke: it is placed where it
    # was seen, and the stroke leaves from there, not from zone a
    det = MotionEventDetector(NOVUSS)
    events = []
    a_xy, b_xy = np.array([13.0, -399.0]), np.array([-151.0, 376.0])
    pawn = np.array([300.0, 0.0])
    for k in range(110):
        t = k / FPS
        if k < 30:
            xy, seen = a_xy, True
        elif k < 55:
            xy, seen = a_xy, False
        elif k == 55:
            xy, seen = b_xy, True
        elif k < 80:
            xy, seen = b_xy, False
        else:
            xy, seen = b_xy - [0.0, 3000.0 * (k - 79.5) / FPS], True
            if xy[1] < -420.0:
                xy, seen = np.array([xy[0], -420.0]), False
        tr = _rest_tracks(t, np.array([xy, pawn]), labels=("puck", "red_pawn"),
                          seen=np.array([seen, True]))
        events += det.update(tr)
    events += det.flush()
    placed = of(events, EventKind.PLACED)
    assert placed and np.linalg.norm(np.array(placed[-1].xy_mm) - b_xy) < 5.0
    starts = of(events, EventKind.SHOT_START)
    assert len(starts) == 1 and np.linalg.norm(np.array(starts[0].xy_mm) - b_xy) < 5.0
    assert abs(starts[0].t_s - 79.5 / FPS) < 1.5 / FPS


def test_puck_glimpsed_in_the_hand_over_the_cushion_is_not_placed_there():
    # carried in from the rail, the puck shows once over cushion b (its centre beyond the
    # nose line, where no puck can lie) and is hidden again; it is placed where it is set
    det = MotionEventDetector(NOVUSS)
    events = []
    a_xy, over, b_xy = np.array([13.0, -399.0]), np.array([-10.0, 490.0]), np.array(
        [-15.0, 376.0])
    for k in range(90):
        xy, seen = (a_xy, k < 30) if k < 55 else (over, True) if k == 55 else (
            b_xy, k >= 70)
        tr = _rest_tracks(k / FPS, np.array([xy, [300.0, 0.0]]), labels=("puck", "red_pawn"),
                          seen=np.array([seen, True]))
        events += det.update(tr)
    events += det.flush()
    placed = [np.array(e.xy_mm) for e in events if e.kind in (EventKind.PLACED,
                                                                EventKind.MOVED)]
    assert placed and all(np.linalg.norm(p - b_xy) < 5.0 for p in placed), placed


def _first_cushion(events, obj: int, cushion: str, t_s: float, tol_s: float) -> bool:
    """Whether object ``obj``'s first cushion in ``events`` is ``cushion``, at ``t_s``."""
    got = [e for e in of(events, EventKind.CUSHION) if e.ids == (obj,)]
    return bool(got) and got[0].cushion == cushion and abs(got[0].t_s - t_s) < tol_s


def _recorded(spec, name):
    """Events of tests/data/``name``: tracks as cueref run tracked them from the pixels."""
    data = json.loads((Path(__file__).parent / "data" / name).read_text())
    det = MotionEventDetector(spec)
    events = []
    nan = lambda xs: np.array([np.nan if v is None else v for v in xs], dtype=float)  # noqa: E731
    nan2 = lambda rows: np.array([nan(row) for row in rows])  # noqa: E731
    for f in data["frames"]:
        # (each sighting's own sigma only where recorded: older recordings lack it)
        own = [nan(f["obs_sigma_mm"])] if "obs_sigma_mm" in f else []
        events += det.update(Tracks(
            f["t_s"], f["frame"], np.array(f["id"]), tuple(f["label"]), nan2(f["xy_mm"]),
            nan2(f["v_mm_s"]), nan(f["sigma_mm"]), np.array(f["state"]), np.array(f["seen"]),
            np.array(f["last_seen_t_s"]), nan2(f["obs_xy_mm"]), *own))
    return events + det.flush()


def test_break_from_the_pixels_hits_the_apex_ball_though_it_hardly_moves():
    # tracks of a sample clip's break as cueref run tracked them from the pixels: the cue
    # ball (8 m/s, 260 mm a frame) is seen 4 ms before it meets the apex ball, so its bend
    # is flagged a frame early; the contact lies half a frame past that frame's window
    events = _recorded(POOL, "break_apex_tracks.json")
    cue = [e for e in of(events, EventKind.CONTACT) if "cue_ball" in e.labels]
    assert cue and cue[0].labels == ("cue_ball", "ball_1")
    assert abs(cue[0].t_s - 3.304) < 0.005


def test_cue_ball_back_off_the_rack_never_runs_back_into_the_rack_it_came_past():
    # tracks of 14_1's break from the pixels (25 fps): the cue ball meets ball_1 on the
    # rack's side at 4.327 s; the frame before is the first its path after is fitted to,
    # and that path, run back, passes a column of balls it never came near. Nothing in
    # the rack is struck before the cue ball gets there
    events = _recorded(POOL, "break_side_of_rack_tracks.json")
    contacts = of(events, EventKind.CONTACT)
    assert [e.labels for e in contacts if "cue_ball" in e.labels] == [("cue_ball", "ball_1")]
    assert min(e.t_s for e in contacts) > 4.327 - 0.02


def test_puck_back_off_a_row_the_cushion_holds_never_reached_that_cushion():
    # tracks of a Novuss doubles shot from the pixels, with each sighting's own sigma: the
    # puck hits a black pawn of the row the right cushion holds and comes back off it.
    # Its path into the bend reaches the cushion 11 ms after the contact, which is found
    # only from the row's far end starting: that cushion was the contact's bend
    events = _recorded(NOVUSS, "puck_off_a_held_row_tracks.json")
    puck = [e for e in events if "puck" in e.labels and e.kind is not EventKind.LINE_CROSS]
    assert [e.kind for e in puck] == [EventKind.SHOT_START, EventKind.CONTACT]
    assert puck[1].labels == ("puck", "black_pawn") and abs(puck[1].t_s - 8.638) < 0.01


def test_pawn_that_meets_a_cushion_in_a_frame_that_misses_it_hits_that_cushion():
    # the red pawn, struck four frames before, meets the left cushion just after the
    # frame that misses it: the frame before lies on its path in, and the bounce is
    # tested against the motion from the next frame that sees it
    events = _recorded(NOVUSS, "pawn_into_a_cushion_unseen_tracks.json")
    got = [e for e in of(events, EventKind.CUSHION) if e.labels == ("red_pawn",)]
    assert [e.cushion for e in got] == ["left"] and abs(got[0].t_s - 1.400) < 0.02


def test_pawn_off_a_cushion_into_the_puck_two_frames_later_still_hits_that_cushion():
    # novuss seed 3 shot 125: black pawn 6 (2.3 m/s) meets cushion b between two frames
    # and comes back off it into the puck two frames later; the motion after the bounce,
    # fitted through the sightings past that second contact, seemed to go on into the
    # cushion. It is fitted up to the change as well
    events = _recorded(NOVUSS, "pawn_off_a_cushion_into_the_puck_within_two_frames_tracks.json")
    assert _first_cushion(events, 6, "b", 0.713, 0.01)


def test_pawn_struck_into_a_cushion_seen_once_on_its_way_in_hits_that_cushion():
    # novuss seed 4 shot 299: the puck strikes pawn 9 at 0.763 s, which is seen once 8 mm
    # off its rest and meets cushion b at 0.787 s, between frames. No cause is found in
    # the frame it is first seen off rest (its start, run back, reads 75 ms early); the
    # puck's bend a frame later finds the hit, and the cushion before it was seen is
    # tested then, its start timed by that one sighting on the way in
    events = _recorded(NOVUSS, "pawn_struck_into_a_cushion_seen_once_on_its_way_in_tracks.json")
    assert _first_cushion(events, 9, "b", 0.787, 0.005)


def test_pawn_hit_along_a_cushion_that_hits_the_next_within_the_frame_hits_it():
    # novuss seed 1 shot 214: a row's pawns slide along cushion a at different speeds;
    # pawn 12 hits 13 at 0.792 s and 13 hits 14 at 0.817 s, seen once between. A disc's
    # path after a contact, with a single sighting since, is the line from where the
    # contact left it through that sighting (the sightings after, on no one line, cannot
    # stand in for it)
    events = _recorded(
        NOVUSS, "pawn_hit_along_a_cushion_hits_the_next_within_the_frame_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CONTACT) if e.ids == (13, 14)]
    assert any(abs(t - 0.817) < 0.005 for t in got), got


def test_puck_off_a_row_pawn_beside_cushion_a_never_hits_that_cushion():
    # novuss seed 4 shot 252: the puck, struck 11 mm from cushion a's touching line, hits
    # row pawn 10 at 0.428 s and slides off it, away from the cushion. A path fitted
    # across that contact sped up at 10 m/s^2, which no sliding disc does, and came within
    # the cushion gate of cushion a: no cushion is read off such a path
    events = _recorded(NOVUSS, "puck_struck_beside_cushion_a_off_a_row_pawn_tracks.json")
    assert [e.t_s for e in of(events, EventKind.CUSHION) if e.ids == (1,)] == []
    assert [e.ids for e in of(events, EventKind.CONTACT)][:1] == [(1, 10)]


def test_row_end_pawn_struck_at_a_slant_into_its_cushion_bounces_off_it():
    # novuss seed 1 shot 24: the puck slides along cushion a into pawn 17, the end of a row
    # resting against it, at 0.515 s; the line of centres leans 0.2 into the cushion (0.45
    # in truth: the puck's path in, just off the cushion, is seen once), and pawn 17 leaves
    # along the row with nothing of that lean: the cushion took it (927 mm/s into it)
    events = _recorded(NOVUSS, "puck_along_cushion_a_into_the_row_end_tracks.json")
    assert [e.ids for e in of(events, EventKind.CONTACT)][:1] == [(1, 17)]
    assert _first_cushion(events, 17, "a", 0.515, 0.005)


def test_pawn_off_a_cushion_into_a_pawn_within_a_frame_meets_both():
    # novuss seed 4 shot 231: pawn 3 meets cushion b at 1.543 s and pawn 4 at 1.574 s, seen
    # once between; the fits after run through both and show no way back off the cushion,
    # but that sighting lies where the cushion folds back its path in, run on 7 mm past it
    events = _recorded(NOVUSS, "pawn_off_cushion_b_into_a_pawn_within_a_frame_tracks.json")
    assert _first_cushion(events, 3, "b", 1.543, 0.01)
    assert any(abs(e.t_s - 1.574) < 0.005 for e in of(events, EventKind.CONTACT)
               if set(e.ids) == {3, 4})


def test_a_path_fitted_across_a_change_is_not_run_on_into_a_cushion():
    # (the fold test above runs only a path that slows, under the fastest speed on a table)
    # novuss seed 3 shot 210: pawn 10, struck back at 1.017 s, slows into cushion left and
    # meets it at 1.230 s; a path fitted across the hit sped up into it by 1.117 s
    events = _recorded(NOVUSS, "pawn_slowing_into_cushion_left_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CUSHION) if e.ids == (10,) and e.t_s > 1.0]
    assert len(got) == 1 and abs(got[0] - 1.230) < 0.01, got
    # seed 0 shot 108: pawn 10 between cushion left and pawn 11; a line through two
    # sightings 33 ms apart ran at 49 m/s, past cushion right
    events = _recorded(NOVUSS, "pawn_between_cushion_left_and_a_pawn_tracks.json")
    assert {e.cushion for e in of(events, EventKind.CUSHION) if e.ids == (10,)} == {"left"}


def test_slow_striker_nearest_a_ball_as_the_frame_ends_is_timed_by_its_path_run_on():
    # pool-9ft seed 0 shot 195, a break: the cue ball at 130 mm/s meets ball 9 at
    # 5.459 s, 26 ms after a frame, and ball 9, resting 2 mm from ball 4, meets it at
    # 5.484 s. Nearest ball 9 as the frame ends, still closing, the cue ball's path run on
    # touches it within the next frame: that times the hit, not the frame's end
    events = _recorded(POOL, "slow_cue_ball_into_a_ball_beside_another_tracks.json")
    got = {e.ids: e.t_s for e in of(events, EventKind.CONTACT)}
    assert abs(got[(1, 9)] - 5.459) < 0.01, got
    assert abs(got[(9, 4)] - 5.484) < 0.05, got


def _puck_hits(name, events=None):
    """The puck's contacts, (ids, time), in recorded Novuss tracks tests/data/``name`` (or
    in their ``events``, already replayed)."""
    events = _recorded(NOVUSS, name) if events is None else events
    return [(tuple(o.id for o in e.objects), e.t_s)
            for e in of(events, EventKind.CONTACT) if e.labels[0] == "puck"]


def test_puck_grazing_a_row_along_it_hits_the_pawn_it_turns_at_not_the_next():
    # Novuss seed 1 shot 208: the puck runs along a row of black pawns the cushion holds,
    # 37 mm over their centres, and bounces off pawn 15 at 0.513 s; its path in, run on,
    # would have touched pawn 16 (the end of the row that flies off is past it) 5 ms
    # later, but its paths in and out meet over pawn 15, clear of pawn 16
    hits = _puck_hits("puck_grazing_a_row_along_it_tracks.json")
    assert [ids for ids, _ in hits] == [(1, 15)]
    assert abs(hits[0][1] - 0.513) < 0.005


@pytest.mark.parametrize("name, pawn, t_s", [
    # Novuss seed 0 shot 116: struck at 0.417 s and first seen back off the row, the puck
    # grazed pawn 14 at 0.442 s after passing over pawn 15 by 0.2 mm. Its line out, run
    # back, cuts pawn 15's circle, but where it leaves it the puck, come straight from its
    # rest, would have been moving away from pawn 15
    ("puck_grazing_a_row_unseen_on_its_way_in_tracks.json", 14, 0.442),
    # Novuss seed 1 shot 50: struck at 0.403 s, seen at 0.433 s and 0.467 s on its way in,
    # the puck meets pawn 17 at 0.471 s. Its first sightings are no line out of a bounce at
    # its stroke: the touch nearest that line, 0.420 s, came before it was seen on its way in
    ("puck_seen_twice_on_its_way_into_a_row_tracks.json", 17, 0.471),
    # Novuss seed 3 shot 254: seen at 0.433 s and 0.467 s on its way in, the puck turns off
    # pawn 10 at 0.473 s; its line out, run back, cuts pawn 11's circle. Where its way in
    # from its rest, through those sightings, meets its line out, it touched pawn 10's
    # circle and passed several mm clear of any other's
    ("puck_seen_once_on_its_way_into_a_row_junction_tracks.json", 10, 0.473),
    # Novuss seed 4 shot 20: seen once at 0.433 s, the puck turns off pawn 13 at 0.438 s;
    # its line out, run back, cuts pawns 12's and 11's circles too; its ways in and out
    # cross at pawn 13's
    ("puck_seen_once_before_it_turns_off_a_row_tracks.json", 13, 0.438),
])
def test_puck_off_a_held_row_at_its_stroke_hit_the_pawn_its_ways_in_and_out_allow(
        name, pawn, t_s):
    # (the black pawns of a row the cushion holds, which show nothing of the hit)
    hits = _puck_hits(name)
    assert [ids for ids, _ in hits] == [(1, pawn)]
    assert abs(hits[0][1] - t_s) < 0.005


@pytest.mark.parametrize("name, pawn, t_s, then", [
    # Novuss seed 0 shot 60: struck at 0.412 s and first seen back off the row, the puck
    # grazes pawn 11 at 0.418 s and presses it into cushion a; 11 hardly moves, and
    # passes the push along the row to pawn 10, which flies off at 1.3 m/s. The puck's line
    # out, run back, also passes pawn 10, but its straight way there from its rest runs
    # 7 mm deep through pawn 11. It then meets pawn 12, beside 11 and pressed into the
    # cushion too, at 0.424 s: its line out leaves 12's circle last, and one contact with
    # 11 would have sped it up (12 is struck, with no way a push from it goes on)
    ("puck_grazing_a_row_pawn_whose_neighbour_flies_off_tracks.json", 11, 0.418, (12, 0.424)),
    # Novuss seed 3 shot 12: seen once on its way in, the puck grazes pawn 14 at 0.456 s;
    # the push runs down the row to pawn 17, which flies off
    ("puck_grazing_a_row_pawn_first_seen_off_it_tracks.json", 14, 0.456, None),
])
def test_puck_grazing_a_held_row_hit_the_pawn_it_grazed_not_the_one_that_flew_off(
        name, pawn, t_s, then):
    events = _recorded(NOVUSS, name)
    hits = _puck_hits(name, events)
    assert [ids for ids, _ in hits] == [(1, pawn)] + ([(1, then[0])] if then else [])
    assert abs(hits[0][1] - t_s) < 0.005
    if then:
        assert abs(hits[1][1] - then[1]) < 0.005
        # (the puck pressed both into the cushion: neither pushed the other)
        assert not _touches(events, {pawn, then[0]}, t_s - 0.05, t_s + 0.05)
    # (pressed into the cushion it lay against, it came back off it)
    assert [e.objects[0].id for e in of(events, EventKind.CUSHION)
            if abs(e.t_s - t_s) < 0.005] == [pawn]


@pytest.mark.parametrize("name, pawn, t_s", [
    # Novuss seed 4 shot 188: the puck slides along the row cushion a holds, 40 mm over the
    # pawns' centres, and bounces off pawn 13 at 0.559 s. Its sighting at 0.500 s lies
    # 2.4 mm off its way; a quadratic through its few sightings since the stroke bent
    # with that noise, 1.7 m/s^2 sideways, into pawn 12 at 0.529 s
    ("puck_along_a_row_bounced_off_a_pawn_after_a_noisy_sighting_tracks.json", 13, 0.559),
    # Novuss seed 1 shot 194: missed at 0.967 s, the puck meets pawn 8 of the row cushion
    # b holds at 0.989 s and comes back; a curve through its way in ran into pawn 7
    ("puck_into_a_row_held_by_cushion_b_tracks.json", 8, 0.989),
])
def test_puck_path_into_a_held_row_is_straight_as_a_disc_slides(name, pawn, t_s):
    # (a disc takes no spin: its path is a line, slowing along it; the sideways bend a
    # quadratic reads into a few noisy sightings is noise)
    hits = _puck_hits(name)
    assert [ids for ids, _ in hits] == [(1, pawn)]
    assert abs(hits[0][1] - t_s) < 0.005


def test_balls_grazing_as_they_pass_meet_where_their_paths_come_nearest():
    # pool seed 3 shot 16: balls 2 and 3 roll across each other's way and graze at 1.381 s
    # (approach 97 mm/s). At the frame after, their paths lie side by side, hardly
    # closing on the line of centres then: they closed on it the frame before
    pairs = {frozenset(ids): t for ids, t, _ in _contacts(
        POOL, "balls_grazing_as_they_pass_tracks.json") if t > 1.3}
    assert abs(pairs[frozenset((2, 3))] - 1.381) < 0.01


def test_split_hit_just_after_the_stroke_is_ordered_by_the_first_pawn_s_departure():
    # Novuss seed 4 shot 35: the puck, struck at 0.422 s and seen once before it arrives,
    # hits pawn 9 at 0.458 s and pawn 7 at 0.463 s. Its path in, a line from its rest
    # through that one sighting, runs as slow as its stroke is timed late, and reached 9
    # at 0.466 s; pawn 9, off at 3.8 m/s, run back to its rest, times the hit to a ms
    hits = _puck_hits("puck_struck_into_a_split_of_two_pawns_tracks.json")
    assert [ids for ids, _ in hits] == [(1, 9), (1, 7)]
    assert abs(hits[0][1] - 0.458) < 0.002 and abs(hits[1][1] - 0.463) < 0.003


def test_pawns_that_slid_and_stopped_are_pushed_again_down_their_row():
    # Novuss seed 0 shot 252: the stroke pushes a row of pawns along the cushion; they
    # stop within 0.3 s, still on the detector's moving list (its rest test looks back
    # 0.4 s, which a pawn that stopped dead on the powder has not yet lived down). Pawn
    # 16, back along the row at 0.92 s, starts the push again down the row: each pawn's
    # 5-10 mm slide is judged against a line through its last sightings, not against the
    # curve through its slide and stop
    events = _recorded(NOVUSS, "pawn_row_pushed_along_by_a_pawn_that_slid_and_stopped_tracks.json")
    got = {frozenset(o.id for o in e.objects): e.t_s for e in of(events, EventKind.CONTACT)
           if 0.9 < e.t_s < 1.0}
    for pair, t_s in (((14, 13), 0.928), ((13, 12), 0.932), ((12, 11), 0.935),
                      ((11, 10), 0.939)):
        assert abs(got[frozenset(pair)] - t_s) < 0.01, pair


def test_pawns_stopped_dead_are_at_rest_for_the_next_push():
    # Novuss seed 0 shot 108: pawns slide along the cushion and stop dead on the powder,
    # then a push comes back down the row 0.1-0.3 s later (14-15 at 1.029 s, 15-16 at
    # 1.043 s, 16-17 at 1.058 s). Still over their last six frames, they rest, without
    # waiting out the 0.4 s window that tells a slow creeper from a ball at rest (no disc
    # creeps), so each start is an onset with a cause
    events = _recorded(NOVUSS, "pawns_stopped_dead_pushed_again_down_their_row_tracks.json")
    got = {frozenset(o.id for o in e.objects): e.t_s for e in of(events, EventKind.CONTACT)
           if 1.0 < e.t_s < 1.1}
    for pair, t_s in (((14, 15), 1.029), ((15, 16), 1.043), ((16, 17), 1.058)):
        assert abs(got[frozenset(pair)] - t_s) < 0.03, pair


def _pairs(name):
    """{pair: time} of the contacts in recorded Novuss tracks tests/data/``name``."""
    return {frozenset(ids): t_s for ids, t_s, _ in _contacts(NOVUSS, name)}


def test_pawn_into_a_puck_that_stopped_a_frame_before_hits_it_where_it_lay():
    # Novuss seed 0 shot 3: the puck slides to a stop at 1.135 s, still on the detector's
    # moving list (the rest test wants six frames), and pawn 10 runs into it at 1.183 s.
    # The puck's path, fitted to its rest's noise, turns back within the window; that no
    # longer hides a touch a mover ran clearly into
    got = _pairs("pawn_hits_the_puck_stopped_a_frame_before_tracks.json")
    assert abs(got[frozenset((1, 10))] - 1.183) < 0.005


def test_stroke_judged_where_the_puck_still_lies_raises_no_numpy_warning():
    # Novuss seed 7 shot 18: a struck pawn's way from the puck's rest, judged at 0.567 s,
    # runs from the rest to itself (no length); the test for an object in the way divided
    # zero by zero there
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        events = _recorded(NOVUSS, "puck_struck_from_touching_its_first_pawn_tracks.json")
    assert of(events, EventKind.SHOT_START)


@pytest.mark.parametrize("name, obj, cushion, t_s", [
    # Novuss seed 4 shot 59: the puck, seen twice since pawn 11 bent it, is lost from view
    # for four frames as it bounces off the left cushion, then drops into a pocket
    ("puck_unseen_as_it_bounces_off_a_cushion_tracks.json", 1, "left", 0.904),
    # Novuss seed 6 shot 251: pawn 7, struck from 38 mm off the left cushion, is seen
    # once on its way (its path: the line from where it left rest through that sighting)
    ("pawn_struck_seen_once_then_off_the_cushion_tracks.json", 7, "left", 0.988)])
def test_short_line_run_into_a_cushion_before_the_next_sighting_bounces_off_it(
        name, obj, cushion, t_s):
    # a line through two points, run on over frames, is allowed so much by the bend test
    # that the bounce after it never shows as a bend; the cushion scan reads it
    events = _recorded(NOVUSS, name)
    got = [e.t_s for e in of(events, EventKind.CUSHION)
           if e.objects[0].id == obj and e.cushion == cushion and abs(e.t_s - t_s) < 0.1]
    assert len(got) == 1 and abs(got[0] - t_s) < 0.02


@pytest.mark.parametrize("name, t_s", [
    ("puck_lost_as_it_meets_a_pawn_then_off_the_cushion_tracks.json", 1.072),
    ("puck_lost_as_it_meets_a_pawn_then_meets_another_tracks.json", 0.909)])
def test_puck_lost_from_view_over_a_contact_still_bounces_off_the_next_cushion(name, t_s):
    # Novuss seed 3 shot 53 and seed 1 shot 235: the puck is unseen on the frame before a
    # pawn it meets (found from the pawn's start), so no bend restarts its path there. A
    # path fitted across that contact misfits by 15-20 mm, which hid the plain bounce off
    # the right cushion that came two or three frames later
    events = _recorded(NOVUSS, name)
    got = [e.t_s for e in of(events, EventKind.CUSHION)
           if e.objects[0].id == 1 and e.cushion == "right"]
    assert len(got) == 1 and abs(got[0] - t_s) < 0.01


def test_puck_leaving_its_cushion_slowly_still_bounces_off_it():
    # Novuss seed 8 shot 28: struck from 18 mm off cushion a, the puck leaves it at 394 mm/s,
    # 7 mm in half a frame; its start unsure, a bounce that slow was not timed
    events = _recorded(NOVUSS, "puck_off_cushion_a_slowly_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CUSHION)
           if e.objects[0].id == 1 and e.cushion == "a"]
    assert len(got) == 1 and abs(got[0] - 0.464) < 0.015


def test_puck_struck_into_a_row_pawn_from_the_side_never_meets_the_cushion():
    # Novuss seed 0 shot 144: the puck, struck along the row by cushion a, meets pawn 10
    # from the side and pushes the row along. Its way out, run back, crosses the cushion's
    # touching line too, but it passes the pawn on the way: the pawn sent it
    events = _recorded(NOVUSS, "puck_into_a_row_pawn_from_the_side_tracks.json")
    assert not [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1]
    assert _touches(events, {1, 10}, 0.452, 0.472)


def test_puck_seen_once_after_a_cushion_meets_a_pawn_another_just_struck():
    # Novuss seed 0 shot 159: the puck bounces off cushion b at 0.931 s and is seen once
    # before it meets pawn 4 at 0.977 s; pawn 12 struck pawn 4 from rest 33 ms before,
    # and it too is seen once on its way. The puck's path folded at the cushion meets the
    # pawn's way off its rest, which its resting position (all the contact test had) did not
    events = _recorded(NOVUSS, "puck_off_cushion_b_into_a_pawn_just_struck_tracks.json")
    _one_touch(events, {1, 4}, 0.0, math.inf, 0.977, 0.005)


def test_pawn_struck_into_another_before_a_frame_shows_it_leave_reaches_it():
    # Novuss seed 0 shot 69: pawn 8 strikes pawn 5 at 0.563 s (3.6 m/s), which strikes
    # pawn 2 at 0.587 s, seen once on its way; its path fitted across that second hit is
    # slow, and run on from its rest along the first hit it fell 65 mm short of pawn 2.
    # It left at the most speed the hit hands on, timed from that sighting
    got = _pairs("pawn_struck_strikes_another_within_the_frame_tracks.json")
    assert frozenset((8, 2)) not in got
    assert abs(got[frozenset((5, 2))] - 0.587) < 0.01


def test_pawn_started_unseen_strikes_one_whose_start_showed_first():
    # Novuss seed 1 shot 19: the puck strikes pawn 15 at 0.649 s, and the two frames after
    # miss it; pawn 15 strikes pawn 6 at 0.697 s, whose start shows first, with no mover
    # near it. Pawn 15's start, found a frame later, explains it then. (The puck met pawn
    # 5 at 0.613 s: one sighting lies on its way between the two hits, which times the
    # second to some 10 ms)
    got = _pairs("pawn_unseen_over_its_start_strikes_another_tracks.json")
    assert abs(got[frozenset((1, 15))] - 0.649) < 0.012
    assert abs(got[frozenset((15, 6))] - 0.697) < 0.005


def test_pawn_struck_into_the_cushion_beside_it_bounces_as_the_hit_starts_it():
    # Novuss seed 0 shot 49: the puck strikes pawn 7, 9 mm off cushion a, at 0.435 s, and
    # pawn 7 bounces off the cushion 4 ms later, before a frame shows it moving. Its line
    # out, run back, meets the cushion 0.1 ms after the hit is timed: within the few ms
    # either carries, it bounced just after
    events = _recorded(NOVUSS, "pawn_struck_into_the_cushion_beside_it_tracks.json")
    got = [(e.cushion, e.t_s) for e in of(events, EventKind.CUSHION)
           if e.objects[0].id == 7 and e.t_s < 0.5]
    assert [c for c, _ in got] == ["a"] and abs(got[0][1] - 0.439) < 0.003


def test_pawn_struck_again_after_a_stroke_push_passes_the_new_hit_down_its_row():
    # Novuss seed 4 shot 162: the stroke pushes a row at 0.41 s (each pawn noted struck
    # then); at 1.108 s pawn 11, back along the row, strikes pawn 12, which passes the hit
    # through 13 to 14 across gaps of 1-2 mm. The newer hit, not the stroke's push, is
    # when 12 was last struck, and roots the push down the row
    got = _pairs("row_cradle_after_a_stroke_push_tracks.json")
    for pair, t_s in (((11, 12), 1.108), ((12, 13), 1.112), ((13, 14), 1.114)):
        assert abs(got[frozenset(pair)] - t_s) < 0.01, pair


def test_slow_puck_turning_a_frame_after_the_flagged_one_hits_the_pawn_at_the_turn():
    # Novuss seed 1 shot 204: the puck (800 mm/s) comes in along a row of black pawns the
    # cushion holds and turns at 0.617 s, half a frame after the frame its bend is flagged
    # at; its path to that frame passes pawn 12 by 0.8 mm. Where its paths in and out
    # meet, it touches pawn 13, whose side of the row flew off
    hits = _puck_hits("slow_puck_turning_at_a_row_junction_tracks.json")
    assert [ids for ids, _ in hits] == [(1, 13)]
    assert abs(hits[0][1] - 0.617) < 0.005


def test_puck_turning_at_one_pawn_makes_no_contact_with_the_pawn_it_passes_by():
    # Novuss seed 1 shot 240: the puck runs into red pawn 3 of a row the cushion holds and
    # straight back; at the frame flagged its path passes pawn 2 by 8 mm, within the gate,
    # but where it turned it lay 11 mm clear of pawn 2 and touching pawn 3
    hits = _puck_hits("puck_turning_at_a_pawn_beside_a_near_miss_tracks.json")
    assert [ids for ids, _ in hits] == [(1, 3)]
    assert abs(hits[0][1] - 1.001) < 0.005


def test_puck_struck_along_a_row_grazes_the_pawn_where_it_turned():
    # Novuss seed 0 shot 34: the puck, struck along a row of black pawns the cushion
    # holds, grazes pawn 10 20 ms after the stroke, seen once on its way in; its line
    # after, run back, cuts pawn 11's touching circle too (by its noise) and left that one
    # last, but its way in from its rest meets that line over pawn 10
    hits = _puck_hits("puck_struck_along_a_row_grazing_a_pawn_tracks.json")
    assert [ids for ids, _ in hits] == [(1, 10)]
    assert abs(hits[0][1] - 0.445) < 0.008


def test_puck_into_a_row_junction_hits_the_pawn_whose_side_flew_off():
    # Novuss seed 1 shot 230: the puck, struck at 2 m/s, bounces off the row of black
    # pawns between two frames, where pawns 12 and 13 touch; no bend is seen, only the
    # far end of the row (pawn 17) flying off. Its path in touches both; 12 first, but a
    # push into 12 from the puck goes the other way along the row: it hit 13
    hits = _puck_hits("puck_into_a_row_junction_at_the_stroke_tracks.json")
    assert [ids for ids, _ in hits] == [(1, 13)]
    assert abs(hits[0][1] - 0.4525) < 0.005


def test_ball_meeting_another_just_after_the_frame_its_bend_is_flagged_at_hits_it():
    # pool seed 0 shot 124: the cue ball (2 m/s) meets ball 12 (1.3 m/s, head on) at
    # 1.320 s, 20 ms after the frame its bend is flagged at, whose sighting still lies on
    # its path in; their paths do not touch before that frame, but do before the next
    events = _recorded(POOL, "cue_ball_meeting_a_ball_just_after_a_frame_tracks.json")
    hits = [e for e in of(events, EventKind.CONTACT) if e.labels == ("cue_ball", "ball_12")]
    assert [round(e.t_s, 1) for e in hits] == [0.7, 1.3]
    assert abs(hits[1].t_s - 1.320) < 0.005


def test_cue_ball_curving_off_a_hit_keeps_its_path_into_the_next_contact():
    # pool seed 3 shot 79: the cue ball curves (2 m/s^2, its spin) off its hit on ball 3;
    # ball 3, back off the left head cushion, strikes it at 0.754 s. A quadratic through
    # five sightings of that curve, 2.3 sigma RMS by their noise, called a bend a frame
    # early, and the cue ball's path into the hit was cut there
    events = _recorded(POOL, "cue_ball_curving_after_a_hit_into_a_ball_it_passes_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CONTACT) if set(e.ids) == {1, 3}]
    assert len(got) == 2 and abs(got[1] - 0.754) < 0.005, got


def test_slow_ball_into_a_cushion_by_a_pocket_hits_it_past_the_cushion_nose_end():
    # pool seed 1 shot 253: ball 3 creeps (50 mm/s across) into the right head cushion
    # and back off it, its centre 12 mm past the end of the cushion's straight nose by
    # the side pocket: its edge still meets the cushion there
    events = _recorded(POOL, "slow_ball_into_a_cushion_end_by_the_side_pocket_tracks.json")
    got = of(events, EventKind.CUSHION)
    assert [(e.labels, e.cushion) for e in got] == [(("ball_3",), "right_head")]
    assert abs(got[0].t_s - 3.621) < 0.05


def test_slow_ball_rolling_across_a_side_pocket_mouth_bounces_off_the_far_jaw():
    # pool seed 0 shot 173: ball 8 rolls (190 mm/s) across the left side pocket's mouth,
    # 9 mm inside the cushions' touching line, into the rounded end of the left foot
    # cushion, and off it back onto the table; too gentle a turn to flag as a bend, it is
    # found where the path meets the jaw and the motion after leaves it
    events = _recorded(POOL, "slow_ball_across_a_side_pocket_into_the_far_jaw_tracks.json")
    got = [e for e in of(events, EventKind.CUSHION) if e.t_s > 3.5]
    assert [(e.labels, e.cushion) for e in got] == [(("ball_8",), "left_foot")]
    assert abs(got[0].t_s - 3.731) < 0.01
    assert not of(events, EventKind.POCKET)


@pytest.mark.parametrize("name, label, cushion, t_s", [
    ("slow_ball_straight_into_the_foot_cushion_tracks.json", "ball_5", "foot", 5.251),
    ("slow_ball_into_the_head_cushion_tracks.json", "ball_3", "head", 3.691),
    ("slow_ball_into_a_head_side_cushion_tracks.json", "ball_10", "right_head", 3.352),
    ("slow_cue_ball_into_the_foot_cushion_tracks.json", "cue_ball", "foot", 2.007),
    # (its path fitted before ends short of the touching line, within the noise of it)
    ("slow_ball_just_reaching_a_side_cushion_tracks.json", "ball_15", "left_foot", 5.162),
    ("slow_ball_just_reaching_the_foot_cushion_tracks.json", "ball_14", "foot", 7.728),
    # (leaving at 25 mm/s: it shows past the noise only 9-10 frames on)
    ("slow_ball_leaving_a_cushion_slowly_tracks.json", "ball_2", "right_head", 5.383),
])
def test_slow_ball_into_a_cushion_bounces_off_it_when_the_sightings_after_show_it_leaving(
        name, label, cushion, t_s):
    # (events benchmark, pool seeds 0 and 1) in at 50-80 mm/s, 2 mm a frame, and out at
    # half that: the few frames ahead of the touch show a departure within its noise, and
    # the path fitted whole, curved through the bounce, comes in too slow. Straight lines
    # through the sightings before and after, up to 10 frames on, show both
    events = _recorded(POOL, name)
    got = [e for e in of(events, EventKind.CUSHION) if e.labels == (label,)]
    assert [e.cushion for e in got] == [cushion]
    assert abs(got[0].t_s - t_s) < 0.03


@pytest.mark.parametrize("name, label, t_s", [
    ("pawn_sliding_to_a_stop_against_a_cushion_tracks.json", "red_pawn", 1.752),
    ("puck_sliding_to_a_stop_against_a_cushion_tracks.json", "puck", 1.596),
])
def test_disc_sliding_into_a_cushion_and_stopping_there_hits_it(name, label, t_s):
    # (events benchmark, Novuss seed 0, shots 15 and 113) in at 66-105 mm/s and slowing
    # fast, it bounces a mm off the cushion and stops: nothing leaves in the noise, but
    # its path in, slowing as fitted, would have stopped over 2 mm past the touching
    # line, and friction alone could not stop it short of there
    events = _recorded(NOVUSS, name)
    got = [e for e in of(events, EventKind.CUSHION) if e.labels == (label,)]
    assert [e.cushion for e in got] == ["b"]
    assert abs(got[0].t_s - t_s) < 0.02


@pytest.mark.parametrize("speed_mm_s, hits", [(536.0, False), (539.0, False), (548.0, True),
                                               (554.0, True)])
@pytest.mark.parametrize("seed", range(6))
def test_puck_sliding_to_a_stop_at_a_cushion_hits_it_only_when_it_got_there(
        seed, speed_mm_s, hits):
    # struck straight at cushion b from 150 mm: it stops 3.6 or 1.9 mm short, or meets the
    # cushion at 77 or 112 mm/s and stops 1.5 or 3.2 mm off it again
    c = NOVUSS.cushion("b")
    n = np.array(c.normal_xy)
    start = (np.array(c.a_xy_mm) + np.array(c.b_xy_mm)) / 2 + (
        NOVUSS.object_for("puck").radius_mm + 150.0) * n
    events, res, _ = run(NOVUSS, ["puck"], [start],
                         physics.Strike(1, math.atan2(-n[1], -n[0]), speed_mm_s), seed=seed,
                         tail_s=2.0)
    truth = [e for e in res.events if e.kind == "cushion"]
    got = of(events, EventKind.CUSHION)
    assert len(truth) == len(got) == int(hits)
    assert all(e.cushion == "b" and abs(e.t_s - truth[0].t_s) < 0.03 for e in got)


@pytest.mark.parametrize("speed_mm_s", [300.0, 302.0])
@pytest.mark.parametrize("seed", range(6))
def test_slow_ball_stopping_just_short_of_a_cushion_does_not_hit_it(seed, speed_mm_s):
    # it rolls straight at the foot cushion and stops 4.7 or 1.5 mm short: its sightings
    # cross the touching line in the noise, and nothing leaves the cushion after
    c = POOL.cushion("foot")
    n = np.array(c.normal_xy)
    start = (np.array(c.a_xy_mm) + np.array(c.b_xy_mm)) / 2 + [0.0, 150.0] + (
        POOL.object_for("cue_ball").radius_mm + 250.0) * n
    events, res, _ = run(POOL, ["cue_ball"], [start],
                         physics.Strike(1, math.atan2(-n[1], -n[0]), speed_mm_s), seed=seed,
                         tail_s=2.0)
    assert not [e for e in res.events if e.kind == "cushion"]
    assert of(events, EventKind.CUSHION) == []


def test_two_slow_balls_meeting_late_in_a_break_touch_when_their_gap_closes_and_opens():
    # (events benchmark, pool seed 1, shot 170) ball 2 rolls into ball 7, both moving,
    # closing at ~70 mm/s: too gentle a turn for either path to flag. The gap between their
    # sightings closes and opens again, and their relative velocity along the line of
    # centres turns with it
    events = _recorded(POOL, "slow_balls_meeting_late_in_a_break_tracks.json")
    got = [e for e in of(events, EventKind.CONTACT)
           if set(e.labels) == {"ball_2", "ball_7"} and e.t_s > 4.0]
    assert len(got) == 1 and abs(got[0].t_s - 4.176) < 0.03


@pytest.mark.parametrize("gap_mm", [0.8, 1.5])
@pytest.mark.parametrize("speed_mm_s", [400.0, 700.0])
@pytest.mark.parametrize("seed", range(4))
def test_ball_rolling_past_another_within_a_mm_or_two_does_not_touch_it(seed, speed_mm_s,
                                                                         gap_mm):
    # the gap between them closes and opens as the line of centres swings round, but
    # their relative velocity stays as it was: no contact
    r = POOL.object_for("cue_ball").radius_mm
    events, res, _ = run(POOL, ["cue_ball", "ball_1"], [[-300.0, 0.0], [0.0, 2 * r + gap_mm]],
                         physics.Strike(1, 0.0, speed_mm_s), seed=seed)
    assert not [e for e in res.events if e.kind == "contact"]
    assert of(events, EventKind.CONTACT) == []


def test_ball_seen_once_off_a_cushion_before_a_gap_hits_it():
    # ball 5 meets the foot cushion at 2.5 m/s and is seen once after it, then lost for
    # four frames: no path after can be fitted, but that sighting lies where its path in,
    # folded back at the cushion, puts it
    events = _recorded(POOL, "break_ball_seen_once_off_the_foot_cushion_tracks.json")
    got = [e for e in of(events, EventKind.CUSHION) if e.labels == ("ball_5",)]
    assert [e.cushion for e in got][:1] == ["foot"] and abs(got[0].t_s - 0.872) < 0.01


def test_slow_ball_rolling_back_off_a_cushion_hits_it():
    # ball 8 rolls into the foot cushion at 118 mm/s and back off it at 87 mm/s, 3 mm a
    # frame, with one of its four sightings after 4 mm off: a curve through those, run
    # back to the cushion, still heads into it; the line the ball rolls on leaves it
    events = _recorded(POOL, "slow_ball_off_cushion_tracks.json")
    got = of(events, EventKind.CUSHION)
    assert [(e.labels, e.cushion) for e in got] == [(("ball_8",), "foot")]
    assert abs(got[0].t_s - 4.800) < 0.02


def test_break_ball_off_the_back_of_the_rack_hits_the_foot_cushion_frames_later():
    # ball 8 leaves the back of the rack at 6.6 m/s and meets the foot cushion 80 ms
    # later: its path in, fitted from the frame it was struck in, comes in at 3.9 m/s and
    # reaches the cushion 12 ms late, 50 mm from where its path out left it. It left
    # faster than it came, which no cushion does: the path out times the bounce
    events = _recorded(POOL, "break_ball_into_foot_cushion_tracks.json")
    got = [(e.cushion, round(e.t_s, 2)) for e in of(events, EventKind.CUSHION)]
    assert got == [("foot", 0.68), ("right_foot", 0.82)]


@pytest.mark.parametrize("short_mm", [1.0, 4.0])
def test_slow_ball_stopping_short_of_a_cushion_never_hits_it(short_mm):
    # a ball rolling straight at the foot cushion at a walking pace stops 1 or 4 mm short
    # of it: its path, run on, crosses the touching line, but no sightings after leave it
    v = 330.0
    res, _, _ = simulate(POOL, ["cue_ball"], [[0.0, 40.0]], physics.Strike(1, 0.0, v))
    r = POOL.object_for("cue_ball").radius_mm
    x0 = POOL.half_wh_mm[0] - r - short_mm - res.final.xy_mm[0][0]
    for seed in range(30):
        events, res, _ = run(POOL, ["cue_ball"], [[x0, 40.0]], physics.Strike(1, 0.0, v),
                             seed=seed)
        assert not [e for e in res.events if e.kind == "cushion"]
        assert not of(events, EventKind.CUSHION), seed


def test_ball_whose_bend_is_flagged_the_frame_before_its_cushion_still_hits_it():
    # a break ball at 1.26 m/s reaches the left foot cushion 19 ms after a frame whose
    # sighting lies 10 mm off its fitted path (inside the noise): the frames after miss,
    # so the bend is flagged at that frame, and the touch lies past half a frame after it
    events = _recorded(POOL, "break_cushion_late_bend_tracks.json")
    got = [e for e in of(events, EventKind.CUSHION) if e.ids == (11,)]
    assert [e.cushion for e in got] == ["foot", "left_foot"]
    assert abs(got[1].t_s - 1.1856) < 0.005


@pytest.mark.parametrize("seed", [1, 3, 4, 5])
def test_puck_into_the_junction_of_two_pawns_is_a_tie_for_review(seed):
    # straight into where two touching pawns meet, the puck hits both within microseconds:
    # which came first no camera can tell, so the first contact is not sure enough to
    # decide on (noise can still part the two fitted times by a millisecond or more: with
    # seed 0 they are 1.3 ms apart and the order reads 78 % sure, confidence 0.57)
    r_pawn = NOVUSS.object_for("red_pawn").radius_mm
    events, res, _ = run(NOVUSS, ["puck", "red_pawn", "black_pawn"],
                         [[0.0, -250.0], [-r_pawn - 0.2, 100.0], [r_pawn + 0.2, 100.0]],
                         physics.Strike(1, math.pi / 2, 2000.0), seed=seed)
    truth = [e for e in res.events if e.kind == "contact" and 1 in e.ids]
    assert len({e.ids for e in truth[:2]}) == 2 and abs(truth[1].t_s - truth[0].t_s) < 1e-3
    puck = [e for e in of(events, EventKind.CONTACT) if "puck" in e.labels][:2]
    assert len(puck) == 2 and puck[0].confidence < 0.5


def test_pawn_pushed_along_the_cushion_it_lay_against_never_hits_it():
    # two pawns in a row against cushion a; the puck drives the first into the cushion,
    # and it pushes the second straight along it. The noise wobbles that pawn across
    # the cushion's line all the way to the pocket, which is no contact with the cushion
    # (WPA 8.4: a ball frozen to a rail counts only once it leaves and returns)
    r_pawn = NOVUSS.object_for("red_pawn").radius_mm
    y_pawn = -500.0 + r_pawn + 0.5
    row = [[-200.0, y_pawn], [-200.0 + 2 * r_pawn + 0.5, y_pawn]]
    late = {}
    for seed in range(20):
        events, res, _ = run(NOVUSS, ["puck", "red_pawn", "red_pawn"],
                             [[-330.0, y_pawn + 40.0], *row],
                             physics.Strike(1, math.atan2(-40.0, 130.0), 2500.0), seed=seed)
        hit = next(e.t_s for e in res.events if e.kind == "contact" and 3 in e.ids)
        assert not [e for e in res.events if e.kind == "cushion" and e.ids == (3,)]
        got = [e.t_s - hit for e in of(events, EventKind.CUSHION) if e.ids == (3,)]
        if [dt for dt in got if dt > 0.05]:
            late[seed] = got
    assert late == {}


@pytest.mark.parametrize("seed", range(6))
def test_puck_grazing_the_row_the_cushion_holds_just_after_the_stroke_is_a_contact(seed):
    # the puck is set beside the black row and struck along it: it grazes pawn 11 before
    # the first frame that shows it moving. The pawns never move (the cushion and their
    # neighbours hold them); only the puck's path, run back, misses its rest. Which of
    # two neighbouring pawns it touched the noise may not tell: then it is for review.
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[-160.0, -441.0], xy]),
                         physics.Strike(1, -0.08, 3000.0), seed=seed)
    truth = next(e for e in res.events if e.kind == "contact" and 1 in e.ids)
    assert truth.ids == (1, 11)
    first = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "puck"][:1]
    assert first and first[0].ids[1] in (10, 11)
    assert first[0].ids[1] == 11 or first[0].confidence < 0.5


@pytest.mark.parametrize("seed", range(4))
def test_ball_hit_while_the_cue_hides_the_cue_ball_is_its_first_contact(seed):
    # the cue ball is unseen from its stroke until after it has hit ball_1 (under the
    # cue and the hand): ball_1 leaves rest with no mover in sight, which looked like a
    # hand, until the cue ball shows up moving on from behind where ball_1 lay
    _, res, tracks = run(POOL, ["cue_ball", "ball_1", "ball_2"],
                         [[-500.0, -100.0], [-630.0, -165.0], [400.0, 300.0]],
                         physics.Strike(1, math.atan2(-65.0, -130.0), 3500.0, follow=0.4),
                         seed=seed)
    hit = next(e.t_s for e in res.events if e.kind == "contact")
    events = detect_hiding(POOL, tracks, 1, res.t0_s - 0.01, hit + 0.04)
    first = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "cue_ball"][:1]
    assert [e.labels for e in first] == [("cue_ball", "ball_1")]
    assert abs(first[0].t_s - hit) < 0.01
    assert of(events, EventKind.SHOT_START)[0].t_s <= first[0].t_s
    assert of(events, EventKind.MOVED) == []


@pytest.mark.parametrize("t0", [0.48, 0.49])
@pytest.mark.parametrize("seed", range(4))
def test_pawn_seen_twice_before_it_bounces_into_a_corner_pocket_hit_that_cushion(t0, seed):
    # the puck sends a pawn at 1.4 m/s into cushion b beside the corner; it is seen twice on
    # its way, once off the cushion, then it drops. Its run from where it left rest (two
    # sightings, the frame before it at rest) meets the cushion before the sighting off it
    ang = 1.13074
    pawn = np.array([337.91, 378.27])
    puck = pawn - 137.5 * np.array([math.cos(ang), math.sin(ang)])
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"], [puck, pawn],
                         physics.Strike(1, ang, 1200.0), seed=seed, t0=t0)
    truth = [e for e in res.events if 2 in e.ids and e.kind in ("cushion", "pocket")]
    assert [e.kind for e in truth] == ["cushion", "pocket"]
    got = [e for e in of(events, EventKind.CUSHION) if 2 in e.ids]
    assert [e.cushion for e in got] == ["b"]
    assert abs(got[0].t_s - truth[0].t_s) < 0.01


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("label, start, aim, speed", [
    ("puck", [150.0, -150.0], [477.0, -392.0], 2000.0),
    ("red_pawn", [370.0, -29.0], [485.0, -412.1], 1100.0)])
def test_puck_off_the_cushion_into_the_corner_pocket_within_a_frame_hits_that_cushion(
        seed, label, start, aim, speed):
    # it reaches cushion 'right' beside the corner pocket and is in the pocket by the next
    # frame: no position after the bounce, yet its line ran into the cushion outside the
    # pocket's capture circle (by 10 mm; a pawn steep into it by only 5 mm: a line
    # fitted to its run is surer than one position), so it got there only off that cushion
    start, aim = np.array(start), np.array(aim)
    d = aim - start
    other = "red_pawn" if label == "puck" else "puck"
    events, res, _ = run(NOVUSS, [label, other], [start, [0.0, 300.0]],
                         physics.Strike(1, math.atan2(d[1], d[0]), speed), seed=seed)
    truth = [e for e in res.events if e.kind in ("cushion", "pocket")]
    assert [e.kind for e in truth] == ["cushion", "pocket"]
    got = of(events, EventKind.CUSHION)
    assert [e.cushion for e in got] == ["right"]
    assert abs(got[0].t_s - truth[0].t_s) < 0.015
    assert got[0].t_s < of(events, EventKind.POCKET)[0].t_s


@pytest.mark.parametrize("seed", range(4))
def test_break_with_the_cue_ball_unseen_until_it_comes_back_hits_the_apex_first(seed):
    # a break's cue ball is a blur from its stroke until it comes back off the rack: the
    # whole rack leaves rest at once with no mover in sight. The cue ball's first
    # positions, run back to when the rack left, touch the apex ball only.
    _, res, tracks, hit = rack_break("9ball", 3 + seed, 7000.0, seed=seed, follow=-0.3)
    events = detect_hiding(POOL, tracks, 1, res.t0_s - 0.01, hit + 0.04)
    first = [e for e in of(events, EventKind.CONTACT) if 1 in e.ids][:1]
    assert [tuple(sorted(e.ids)) for e in first] == [(1, 2)]
    # (drawn back, its path curves: a line run back meets the apex up to half a frame late)
    assert abs(first[0].t_s - hit) < 0.5 / FPS
    assert of(events, EventKind.MOVED) == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_puck_seen_twice_after_its_stroke_then_lost_to_blur_was_struck_from_its_rest(seed):
    # the 2.7 m/s stroke of the doubles sample from the pixels: the puck is found in the
    # two frames after it leaves its edge zone, then its blur hides it for three. Two
    # frames away from its rest at stroke speed are a stroke, timed and placed at the rest
    # (the rules judge the placement from there, Novuss 19.1.а)
    rest = np.array([-376.0, -15.0])
    _, res, tracks = run(NOVUSS, ["puck", "black_pawn"], [rest, [485.0, -15.0]],
                         physics.Strike(1, 0.0, 2700.0), seed=seed)
    t_seen = [tr.t_s for tr in tracks if tr.t_s > res.t0_s][:2]
    events = detect_hiding(NOVUSS, tracks, 1, t_seen[-1] + 0.001, t_seen[-1] + 3.5 / FPS)
    starts = of(events, EventKind.SHOT_START)
    assert len(starts) == 1 and abs(starts[0].t_s - res.t0_s) < 1 / FPS
    assert np.linalg.norm(np.asarray(starts[0].xy_mm) - rest) < 3.0
    assert of(events, EventKind.PLACED) == [] and of(events, EventKind.MOVED) == []
    assert [e.labels for e in of(events, EventKind.CONTACT)][:1] == [("puck", "black_pawn")]


def test_ball_knocked_off_in_a_blur_is_hit_by_the_ball_that_covers_its_place():
    # the 9-ball sample's shot 3 from the pixels: the 2 is a blur from the contact until
    # it leaves the table; the cue ball rolls slowly over where it lay. The tracker gives
    # it up once seen nowhere; the contact and its leaving are timed by the cue ball's
    # arrival, as inferences (confidence 0.5 at most)
    from test_tracking_tracker import _knocked_unseen

    runs = _knocked_unseen([895.0, -256.0], [854.0, -225.0], back_at=None)
    det = MotionEventDetector(POOL)
    events = [e for tr in runs for e in det.update(tr)] + det.flush()
    stroke, seen_again = 19.5 / FPS, 21 / FPS
    contact = [e for e in of(events, EventKind.CONTACT) if e.labels == ("cue_ball", "ball_2")]
    gone = of(events, EventKind.OFF_TABLE)
    assert len(contact) == 1 and stroke <= contact[0].t_s <= seen_again
    assert [e.labels for e in gone] == [("ball_2",)] and gone[0].t_s == contact[0].t_s
    assert contact[0].confidence <= 0.5 and gone[0].confidence <= 0.5
    assert of(events, EventKind.POCKET) == []



@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cue_ball_read_off_its_rest_by_noise_just_before_its_stroke_still_hits_the_ball(seed):
    # the 9-ball sample's shot 3 in the development mode: the frame just before the stroke
    # reads the cue ball 4.5 mm off its rest, so it leaves rest a few ms before that frame;
    # it hits the ball just before the next frame. Its motion is taken from where it is seen
    # clear of its rest, not from that noise (whose line points anywhere)
    _, res, tracks = run(POOL, ["cue_ball", "ball_1"], [[-255.0, 0.0], [0.0, 20.0]],
                         physics.Strike(1, 0.0, 8000.0), seed=seed, t0=15 / FPS + 0.0153)
    k0 = max(k for k, tr in enumerate(tracks) if tr.t_s < res.t0_s)
    assert tracks[k0 + 1].t_s > next(e.t_s for e in res.events if e.kind == "contact")
    obs = tracks[k0].obs_xy_mm.copy()
    obs[0] += [-3.2, 3.2]
    tracks[k0] = dataclasses.replace(tracks[k0], obs_xy_mm=obs,
                                     sigma_mm=np.full(len(obs), 0.8))
    det = MotionEventDetector(POOL)
    events = [e for tr in tracks for e in det.update(tr)] + det.flush()
    first = [e for e in of(events, EventKind.CONTACT) if 1 in e.ids][:1]
    assert [e.labels for e in first] == [("cue_ball", "ball_1")]


@pytest.mark.parametrize("seed, lead_s", [(0, 0.0136), (1, 0.0106), (2, 0.0076), (3, 0.0036)])
def test_pawn_seen_once_before_it_bounces_off_the_cushion_bounced(seed, lead_s):
    # a pawn 40 mm off cushion "left" is cut into it at 2.4 m/s and reaches it 17 ms after
    # the hit: a frame shows it once on its way in (``lead_s`` after the hit), the next
    # already coming back. That sighting and where it started make its line in: the bend
    # after it is the cushion.
    r_pawn, r_puck = NOVUSS.object_for("red_pawn").radius_mm, NOVUSS.object_for("puck").radius_mm
    pawn = np.array([-NOVUSS.half_wh_mm[0] + r_pawn + 40.0, 100.0])
    into = np.array([math.cos(2.2), math.sin(2.2)])  # the way the pawn goes, up-left
    puck = pawn - into * (r_pawn + r_puck) - into * 300.0
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"], [puck, pawn],
                         physics.Strike(1, 2.2, 3000.0), seed=seed, t0=0.5106 - lead_s)
    assert_first_cushion(events, res, 2, "red_pawn", "left")


@pytest.mark.parametrize("seed", range(6))
def test_puck_struck_along_the_cushion_into_a_held_row_bounces_off_the_pawn_only(seed):
    # the puck lies 14 mm off cushion a and is struck along it into a row of pawns the
    # cushion holds: it comes back off the end pawn, and its path after, run back, crosses
    # the cushion's touching line, while its path before passes within a few mm of it; but
    # the pawn explains the bounce and the puck's sightings lie on its way to the pawn, so
    # it touched no cushion
    r_puck = NOVUSS.object_for("puck").radius_mm
    y_puck = -NOVUSS.half_wh_mm[1] + r_puck + 14.0
    row = [[105.4 - 30.2 * k, -NOVUSS.half_wh_mm[1] + 15.0] for k in range(4)]
    events, res, _ = run(NOVUSS, ["puck"] + ["red_pawn"] * 4, [[197.5, y_puck], *row],
                         physics.Strike(1, math.pi + 0.05 + 0.01 * seed, 1300.0), seed=seed,
                         t0=0.5 + 0.005 * seed)
    assert [e for e in res.events if e.kind == "contact" and 1 in e.ids]
    assert not [e for e in res.events if e.kind == "cushion" and e.ids == (1,)
                and e.speed_mm_s > 50 and e.t_s < 0.8]
    assert not [e for e in of(events, EventKind.CUSHION) if e.labels == ("puck",)
                and e.t_s < 0.8]


def test_puck_carried_back_by_hand_as_its_shot_ends_touches_nothing():
    # the camera_bump sample from the pixels: the puck has stopped, and while the shot's
    # end window runs a hand carries it back to the edge zone: it jumps 260 mm toward
    # cushion a in one frame. A line through that one sighting is no path to test for a
    # bounce (only an object a contact set going has one)
    events = _recorded(NOVUSS, "puck_carried_tracks.json")
    puck = [(e.kind, round(e.t_s, 3)) for e in events
            if e.kind in (EventKind.CONTACT, EventKind.CUSHION) and "puck" in e.labels]
    assert puck == [(EventKind.CONTACT, 7.687)]  # (its shot's one contact)


@pytest.mark.parametrize("seed", range(6))
def test_puck_struck_unseen_along_the_held_row_grazes_the_pawn_it_came_off(seed):
    # the puck, under the player's hand from before its stroke until after it has grazed
    # pawn 15 of the black row the cushion holds, shows first on its way out. Its path
    # out, run back, passes along the row to pawn 10 at its far end, which the push along
    # the row sets going; but the puck came off that line from its rest at pawn 15: the
    # pawns further back along it were never on its way, so pawn 10's start does not hide
    # the graze (before, the first contact came out as pawn 17)
    labels, xy = novuss_start(NOVUSS, doubles=False)
    _, res, tracks = run(NOVUSS, ["puck", *labels], np.vstack([[14.1, -436.5], xy]),
                         physics.Strike(1, -0.31, 3000.0), seed=seed)
    truth = next(e for e in res.events if e.kind == "contact" and 1 in e.ids)
    assert truth.ids == (1, 15)
    events = detect_hiding(NOVUSS, tracks, 1, res.t0_s - 0.1, res.t0_s + 0.045)
    first = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "puck"][:1]
    assert first and first[0].ids == (1, 15)
    assert abs(first[0].t_s - truth.t_s) < 0.01


def _crossing_times(res, axis, value_mm):
    """When the struck object's centre crosses ``value_mm`` along ``axis`` (0.1 ms grid)."""
    t = np.arange(res.t0_s, res.t_end_s, 1e-4)
    v = res.xy_at(t)[:, 0, axis]
    return t[np.flatnonzero(np.diff(np.sign(v - value_mm)) != 0)]


@pytest.mark.parametrize("t0", [0.5, 0.51, 0.52])
def test_line_crossed_while_the_puck_is_unseen_for_four_frames_is_found_and_timed(t0):
    # a gap of four frames holds the zone_a crossing; the sightings either side straddle
    # the line, and the motion before the gap times it
    _, res, tracks = run(NOVUSS, ["puck"], [[-200.0, -455.0]],
                         physics.Strike(1, math.pi / 2, 1500.0), t0=t0)
    tc = _crossing_times(res, 1, -370.0)[0]
    events = detect_hiding(NOVUSS, tracks, 1, tc - 0.01, tc + 0.12)
    got = [e for e in of(events, EventKind.LINE_CROSS) if e.line == "zone_a"]
    assert len(got) == 1 and abs(got[0].t_s - tc) < 0.015


@pytest.mark.parametrize("t0", [0.5, 0.51, 0.52])
def test_puck_into_the_corner_pocket_crosses_the_side_zone_line_on_its_way(t0):
    # last seen short of zone_left's line, next gone into pocket a_left: its path crossed
    events, res, _ = run(NOVUSS, ["puck"], [[-50.0, -447.0]],
                         physics.Strike(1, math.pi, 2400.0), t0=t0)
    tc = _crossing_times(res, 0, -370.0)[0]
    got = [e for e in of(events, EventKind.LINE_CROSS) if e.line == "zone_left"]
    assert [e.pocket for e in of(events, EventKind.POCKET)] == ["a_left"]
    assert len(got) == 1 and abs(got[0].t_s - tc) < 0.01


def _crossed(events, obj_id):
    """(line, time) of each line crossing of object ``obj_id``."""
    return [(e.line, e.t_s) for e in of(events, EventKind.LINE_CROSS)
            if e.objects[0].id == obj_id]


def test_pawn_off_a_cushion_into_the_corner_pocket_crosses_the_zone_line_on_its_way_off():
    # (events benchmark, Novuss seed 1, shot 9) last seen short of the left cushion, next
    # gone into pocket b_left: it bounced off the cushion and crossed zone_b's line on the
    # way from there, which the path before (into the cushion) never reaches
    events = _recorded(NOVUSS, "pawn_off_a_cushion_into_the_corner_pocket_tracks.json")
    assert [e.pocket for e in of(events, EventKind.POCKET)] == ["b_left"]
    got = [t for line, t in _crossed(events, 8) if line == "zone_b"]
    assert len(got) == 1 and abs(got[0] - 0.975) < 0.01


def test_puck_seen_past_a_zone_line_then_gone_into_the_pocket_crosses_it_once():
    # (events benchmark, Novuss seed 0, shot 251) seen 5 mm past zone_right's line, then
    # gone into pocket b_right: the way fitted off cushion b through the noise starts
    # short of the line, and crossing it again there would be a second, false crossing
    events = _recorded(NOVUSS, "puck_past_a_zone_line_off_a_cushion_into_the_pocket_tracks.json")
    assert [e.pocket for e in of(events, EventKind.POCKET)] == ["b_right"]
    got = [t for line, t in _crossed(events, 1) if line == "zone_right"]
    assert len(got) == 1 and abs(got[0] - 0.960) < 0.01


@pytest.mark.parametrize("name, obj_id, t_s", [
    # (Novuss seed 1, shot 71) at rest 45 mm short of zone_b's line, struck, never seen
    # moving: it crossed on the straight way from its place to the pocket
    ("pawn_knocked_from_rest_into_the_corner_pocket_tracks.json", 3, 0.691),
    # (Novuss seed 1, shot 37) seen once moving, then off the left cushion into the pocket:
    # the path from one sighting is none to follow
    ("pawn_seen_once_moving_before_the_corner_pocket_tracks.json", 8, 0.608),
])
def test_pawn_gone_into_the_corner_pocket_with_no_path_to_it_crossed_the_zone_line(
        name, obj_id, t_s):
    events = _recorded(NOVUSS, name)
    assert [(e.pocket, e.objects[0].id) for e in of(events, EventKind.POCKET)] == [
        ("b_left", obj_id)]
    got = _crossed(events, obj_id)
    assert [line for line, _ in got if line != "zone_left"] == ["zone_b"]
    assert all(abs(t - t_s) < 0.03 for line, t in got if line == "zone_b")


@pytest.mark.parametrize("t0", [0.5, 0.51, 0.52])
@pytest.mark.parametrize("y_mm", [40.0, 60.0])
def test_puck_unseen_as_it_enters_the_circle_off_centre_is_timed_where_it_meets_it(t0, y_mm):
    # unseen for 4 frames from just before it enters the circle, on a line 40-60 mm off
    # the centre: the motion before the gap carries it deep inside by the next sighting,
    # and the circle's depth along that way is no straight line (timed on it, the entry
    # came 70-130 ms late)
    r = NOVUSS.line("circle").radius_mm
    _, res, tracks = run(NOVUSS, ["puck"], [[-400.0, y_mm]], physics.Strike(1, 0.0, 1500.0),
                         t0=t0)
    t = np.arange(0.3, 1.5, 0.0005)
    inside = t[np.linalg.norm(res.xy_at(t)[:, 0], axis=1) < r]
    events = detect_hiding(NOVUSS, tracks, 1, inside[0] - 0.02, inside[0] + 0.13)
    got = [e.t_s for e in of(events, EventKind.LINE_CROSS) if e.line == "circle"]
    assert len(got) == 2 and abs(got[0] - inside[0]) < 0.01


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_puck_sliding_along_a_zone_line_in_the_noise_crosses_nothing(seed):
    # its centre runs 0.4 mm inside zone_a's line: the sightings flicker across it in the
    # 1 mm noise, and each flicker is no crossing
    events, _, _ = run(NOVUSS, ["puck"], [[-250.0, -370.4]],
                       physics.Strike(1, 0.0, 700.0), seed=seed)
    assert [e.line for e in of(events, EventKind.LINE_CROSS)] == []


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_puck_crossing_a_zone_line_at_a_shallow_angle_crosses_it_once(seed):
    # 2 mm of sideways motion per frame across zone_a's line: within the noise for a few
    # frames, one crossing
    events, res, _ = run(NOVUSS, ["puck"], [[-250.0, -385.0]],
                         physics.Strike(1, math.atan2(60.0, 600.0), 600.0), seed=seed)
    tc = _crossing_times(res, 1, -370.0)
    got = [e for e in of(events, EventKind.LINE_CROSS) if e.line == "zone_a"]
    assert len(tc) == 1 and len(got) == 1 and abs(got[0].t_s - tc[0]) < 0.03


@pytest.mark.parametrize("phase_s", [0.0, 0.008, 0.016, 0.024])
@pytest.mark.parametrize("seed", range(3))
def test_puck_struck_into_its_own_rail_starts_the_shot_and_hits_that_rail(seed, phase_s):
    # the puck, set 30 mm off rail a, is struck into it at 60 degrees: it bounces ~15 ms
    # later, before or after the first frame that sees it move. Its path bends at once,
    # so no single curve runs back to its rest: the stroke is told from a hand by the
    # bounce, which no hand gives (before, no shot started: a shot lost for the referee)
    labels, xy = novuss_start(NOVUSS, doubles=False)
    puck = [-200.0, -NOVUSS.half_wh_mm[1] + NOVUSS.object_for("puck").radius_mm + 30.0]
    events, res, _ = run(NOVUSS, ["puck", *labels], [puck, *xy],
                         physics.Strike(1, -math.pi / 3, 2200.0), seed=seed, t0=0.5 + phase_s)
    truth = next(e for e in res.events if e.kind == "cushion" and e.ids == (1,))
    starts = of(events, EventKind.SHOT_START)
    assert len(starts) == 1 and starts[0].t_s <= truth.t_s
    assert_first_cushion(events, res, 1, "puck", "a")


@pytest.mark.parametrize("seed", range(4))
def test_puck_struck_into_the_row_beside_it_never_starts_before_it_was_last_seen_at_rest(
        seed):
    # the puck, 18 mm off rail a, is struck at 3.2 m/s into the end pawn of the row the
    # rail holds and keeps a tenth of its speed: its first sightings, run back at the
    # speed they show, put the stroke 80 ms early, while the frames before saw it at rest
    labels, xy = novuss_start(NOVUSS, doubles=False)
    end = max((p for p, lab in zip(xy, labels, strict=True) if lab == "black_pawn"),
              key=lambda p: p[0])
    puck = np.array([171.0, -459.6])
    aim = end - puck
    events, res, tracks = run(NOVUSS, ["puck", *labels], [puck, *xy],
                              physics.Strike(1, math.atan2(aim[1], aim[0]), 3200.0),
                              seed=seed)
    stroke_s = 0.5  # (run's t0)
    at_rest = max(tr.t_s for tr in tracks if tr.t_s < stroke_s)
    starts = of(events, EventKind.SHOT_START)
    assert len(starts) == 1 and at_rest <= starts[0].t_s <= stroke_s + 0.005


@pytest.mark.parametrize("seed", range(4))
def test_cue_ball_struck_while_hidden_for_half_a_second_is_timed_by_its_way_back(seed):
    # the cue ball is hidden (cue, arm, a camera glitch) from 0.2 s before its stroke to
    # 0.45 s after: first seen 600 mm on, its straight way run back to its rest times the
    # stroke (a little early: it slowed since), not the frame before it was seen again
    _, _, tracks = simulate(POOL, ["cue_ball", "ball_1"], [[-600.0, 0.0], [600.0, 200.0]],
                            physics.Strike(1, 0.3, 1500.0), seed=seed)
    events = detect_hiding(POOL, tracks, 1, 0.3, 0.95)
    starts = of(events, EventKind.SHOT_START)
    assert len(starts) == 1 and abs(starts[0].t_s - 0.5) < 0.08


_JAW_SCENE = (["cue_ball", "ball_13", "ball_12", "ball_3", "ball_4", "ball_11", "ball_10",
               "ball_1"],
              [[804.92, -513.01], [6.54, -399.05], [59.28, -421.59], [52.43, -364.65],
               [958.56, 360.35], [392.4, -576.03], [1159.09, 572.59], [888.11, -305.37]])


@pytest.mark.parametrize("seed", range(4))
def test_ball_that_hits_the_pockets_jaw_before_it_drops_hits_that_cushion(seed):
    # (a cluster shot of the events benchmark) ball_12 is knocked towards the side pocket,
    # meets the jaw at the end of the right head cushion 13 ms before it drops, after its
    # last sighting: its straight run meets the jaw's round end before the capture circle
    labels, xy = _JAW_SCENE
    events, res, _ = run(POOL, labels, xy, physics.Strike(1, 2.98079, 2746.0, follow=-0.0509),
                         seed=seed)
    truth = next(e for e in res.events if e.kind == "cushion" and e.ids == (3,))
    assert truth.cushion == "right_head" and any(
        e.kind == "pocket" and e.ids == (3,) for e in res.events)
    got = [e for e in of(events, EventKind.CUSHION) if e.labels == ("ball_12",)]
    assert got and got[0].cushion == "right_head" and abs(got[0].t_s - truth.t_s) < 0.02


def test_ball_that_meets_a_jaw_just_before_a_frame_hits_that_cushion_and_drops_later():
    # ball 6 meets the head cushion's rounded end 1 ms before a frame: that sighting
    # still lies on its straight run in, and the next, 34 ms on, lies off it towards the
    # pocket. The touch is found just before the run's last sighting, and the drop is
    # timed on the way from the jaw towards that next sighting, not at the jaw
    events = _recorded(POOL, "ball_off_a_jaw_into_the_corner_tracks.json")
    got = [e for e in events if e.labels == ("ball_6",)]
    assert [(e.kind, e.cushion, e.pocket) for e in got] == [
        (EventKind.CUSHION, "head", None), (EventKind.POCKET, None, "head_left")]
    assert abs(got[0].t_s - 1.466) < 0.01 and abs(got[1].t_s - 1.518) < 0.01


def test_ball_rolling_off_a_jaw_drops_when_it_gets_to_the_pocket_not_at_the_jaw():
    # the cue ball meets the left foot cushion's rounded end by the corner and rolls off
    # it slowly along the mouth, seen four times, for 0.16 s before it drops. The jaw
    # turned it its own way, not as a straight cushion would: the way a straight cushion
    # sends it misses the pocket, and the drop is timed on the path seen after the jaw
    events = _recorded(POOL, "ball_off_a_jaw_rolling_into_the_corner_tracks.json")
    got = [e for e in events if e.labels == ("cue_ball",) and e.t_s > 1.7]
    assert [(e.kind, e.cushion, e.pocket) for e in got] == [
        (EventKind.CUSHION, "left_foot", None), (EventKind.POCKET, None, "foot_left")]
    assert abs(got[0].t_s - 1.7725) < 0.01 and abs(got[1].t_s - 1.931) < 0.02


def test_ball_seen_twice_off_a_cushion_before_it_drops_meets_no_jaw():
    # ball 10 bounces off the foot cushion by the corner and is seen twice on its way into
    # the pocket: a straight run through those two and the sighting before the bounce
    # would meet the right foot cushion's jaw. A run begins where the ball last bounced
    events = _recorded(POOL, "ball_off_a_cushion_into_the_corner_tracks.json")
    got = [e for e in events if e.labels == ("ball_10",)]
    assert [(e.kind, e.cushion, e.pocket) for e in got] == [
        (EventKind.CUSHION, "foot", None), (EventKind.POCKET, None, "foot_right")]
    assert abs(got[1].t_s - 1.234) < 0.02


@pytest.mark.parametrize("seed", [0, 1, 4, 7])
def test_puck_into_a_held_row_between_two_pawns_hit_the_one_on_the_side_that_flew(seed):
    # the puck meets pawn 8 of the start row a mm short of pawn 7 beside it: its noisy
    # path touches 7 first, but a hit on 7 would push the row the other way (towards 2);
    # the far end pawn 9 flies off, so it met 8, and nothing pushed 8 from 7
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[13.88, -393.22], xy]),
                         physics.Strike(1, 1.66106, 1380.76), seed=seed)
    truth = [e.ids for e in res.events if e.kind == "contact" and 1 in e.ids]
    assert set(truth) == {(1, 8), (8, 1)}
    contacts = of(events, EventKind.CONTACT)
    pairs = [set(e.ids) for e in contacts]
    assert pairs[0] == {1, 8}
    assert {1, 7} not in pairs and {7, 8} not in pairs and {8, 9} in pairs
    assert [e.ids for e in of(events, EventKind.CUSHION)
            if abs(e.t_s - contacts[0].t_s) < 0.01] == [(8,)]


@pytest.mark.parametrize("seed", range(6))
def test_puck_that_bounces_off_a_held_pawn_never_met_its_neighbour_beyond_it(seed):
    # the puck flies up the board into pawn 3 of the far row, 30 mm from its junction with
    # pawn 4, and comes back. Its path before, run on past the hit, would pass within the
    # noise of pawn 4, but only through pawn 3: it met pawn 3 alone
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[-113.31, -414.24], xy]),
                         physics.Strike(1, 1.35241, 3415.76), seed=seed)
    truth = [e.ids for e in res.events if e.kind == "contact" and 1 in e.ids]
    assert truth[0] == (1, 3)
    pairs = [set(e.ids) for e in of(events, EventKind.CONTACT)]
    assert [p for p in pairs if 1 in p][:1] == [{1, 3}] and {1, 4} not in pairs


@pytest.mark.parametrize("seed", range(6))
def test_puck_that_grazes_a_held_row_a_frame_after_its_stroke_hit_the_pawn_it_grazed(seed):
    # struck along its own row's edge, the puck grazes pawn 10, which the cushion holds,
    # 1.5 frames after the stroke and glances off; the far pawn 17 flies. Seen once before
    # the graze, its path after, run back, passes a mm or two outside pawn 10's touching
    # circle (its noise): it met pawn 10 there, not pawn 13 where it was when 17 flew
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[-225.78, -428.47], xy]),
                         physics.Strike(1, -0.16426, 2430.81), seed=seed, t0=0.425)
    truth = [e for e in res.events if e.kind == "contact" and 1 in e.ids]
    assert truth[0].ids == (1, 10)
    first = [e for e in of(events, EventKind.CONTACT) if 1 in e.ids][0]
    assert set(first.ids) == {1, 10}
    assert abs(first.t_s - truth[0].t_s) < 0.5 / FPS


@pytest.mark.parametrize("seed", range(6))
def test_puck_that_bounced_off_the_row_at_its_stroke_never_hits_the_pawn_that_flies_off(
        seed):
    # struck along its own row, the puck glances off pawn 13 (found at the stroke) and goes
    # up the board; the far pawn 10 flies off along the row. The puck's path before the
    # graze, run on, would meet pawn 10's: but it went on as it is seen to go after
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[40.78, -418.63], xy]),
                         physics.Strike(1, -2.58334, 3169.07), seed=seed, t0=0.4)
    truth = {e.ids for e in res.events if e.kind == "contact" and 1 in e.ids}
    assert truth == {(1, 13)}
    pairs = [set(e.ids) for e in of(events, EventKind.CONTACT) if 1 in e.ids]
    assert pairs == [{1, 13}]


@pytest.mark.parametrize("seed", [5, 6])
def test_pawns_settling_after_a_row_push_never_touch_on_paths_run_past_their_stop(seed):
    # the puck pushes the start row from its end; the pawns at the far end slide off a
    # little and stop a mm apart. A slowing path's quadratic, run past its stop, turns
    # back: where two such paths meet is no contact (these noise draws made one)
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[122.81, -394.53], xy]),
                         physics.Strike(1, -1.5533, 2133.47), seed=seed, t0=0.4228)
    later = res.t0_s + 0.1  # (after the push through the row)
    truth = {tuple(sorted(e.ids)) for e in res.events if e.kind == "contact" and e.t_s > later}
    ours = [tuple(sorted(e.ids)) for e in of(events, EventKind.CONTACT)
            if 1 not in e.ids and e.t_s > later]
    assert [p for p in ours if p not in truth] == []


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_puck_that_meets_two_pawns_of_a_held_row_pushes_the_row_both_ways(seed):
    # along the row at a slant, the puck meets pawn 6 and 3 ms later pawn 7: both ends of
    # the row fly off, so it met both, 6 first, and neither pushed the other
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[-290.14, -474.84], xy]),
                         physics.Strike(1, 0.6138, 2966.74), seed=seed)
    truth = [e.ids for e in res.events if e.kind == "contact" and 1 in e.ids]
    assert truth[0] == (1, 6) and (1, 7) in truth
    pairs = [set(e.ids) for e in of(events, EventKind.CONTACT)]
    assert [p for p in pairs if 1 in p][:2] == [{1, 6}, {1, 7}] and {6, 7} not in pairs


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("puck", "heading", "speed"), [
    ((-211.76, -455.94), -0.0772, 3075.4), ((-221.7, -459.91), -0.0566, 2678.9)])
def test_puck_hidden_until_it_comes_off_the_row_by_its_rail_never_hit_that_rail(
        seed, puck, heading, speed):
    # hidden under the cue until it has hit the start row's end pawn, the puck is first
    # seen on its way off that pawn: its line, run back, reaches its own rail behind the
    # pawn, but on the way it passes the pawn it came off, which explains the bend
    labels, xy = novuss_start(NOVUSS, doubles=False)
    _, res, tracks = run(NOVUSS, ["puck", *labels], np.vstack([puck, xy]),
                         physics.Strike(1, heading, speed), seed=seed)
    hit = next(e for e in res.events if e.kind == "contact")
    assert hit.ids == (1, 10)
    assert not [e for e in res.events if e.kind == "cushion" and e.ids == (1,)
                and e.t_s < 0.7]
    events = detect_hiding(NOVUSS, tracks, 1, 0.3, hit.t_s + 0.001)
    assert [e.ids for e in of(events, EventKind.CONTACT) if 1 in e.ids][0] == (1, 10)
    assert not [e for e in of(events, EventKind.CUSHION) if e.ids == (1,) and e.t_s < 0.7]


@pytest.mark.parametrize("seed", [0, 4])
def test_rack_balls_that_creep_off_late_were_pushed_when_the_rack_was_hit(seed):
    # a soft break: the balls behind the second row keep a tenth of the push and creep
    # off at ~60 mm/s, seen leaving four frames after the hit; each push through the rack
    # is timed at the hit (the impulse crosses it in a ms), not at a creeper's late onset
    events, res, _, t_hit = rack_break("9ball", 20 + seed, 2500.0, seed=seed)
    assert not [e for e in res.events if e.kind == "contact" and e.speed_mm_s > 50
                and 1 not in e.ids and t_hit + 0.01 < e.t_s < t_hit + 0.2]
    pushes = [e for e in of(events, EventKind.CONTACT) if 1 not in e.ids]
    assert len(pushes) >= 6
    assert all(abs(e.t_s - t_hit) < 0.01 for e in pushes if e.t_s < t_hit + 0.2)


@pytest.mark.parametrize("seed", [6, 7, 8, 10])
def test_ball_grazed_slowly_is_timed_where_the_grazing_path_passes_it(seed):
    # ball 10, knocked by the cue ball, rolls past ball 12 and grazes it at 75 mm/s: ball
    # 12 creeps off, seen leaving two frames later; the grazing ball's fitted path passes
    # within its noise of touching it, not quite through: that nearest pass times the hit
    labels = ["cue_ball", "ball_12", "ball_10", "ball_4", "ball_7"]
    xy = [[725.71, -26.17], [837.97, 431.58], [880.08, 470.51], [825.31, 487.51],
          [36.5, 299.56]]
    events, res, _ = run(POOL, labels, xy, physics.Strike(1, 1.27031, 3396.34, follow=0.338),
                         seed=seed)
    graze = [e for e in res.events if e.kind == "contact" and set(e.ids) == {2, 3}
             and e.speed_mm_s > 50]
    assert len(graze) == 1 and graze[0].speed_mm_s < 100
    got = [e.t_s for e in of(events, EventKind.CONTACT) if set(e.ids) == {2, 3}]
    assert min(abs(t - graze[0].t_s) for t in got) < 0.05


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_puck_struck_into_the_pawn_beside_it_hits_it_as_the_shot_starts(seed):
    # the puck lies 8 mm from the end pawn of the start row and is struck into it at
    # 3.2 m/s: it comes back off the pawn before any frame shows it moving, and the pawn,
    # held by the row, creeps off, seen leaving frames later. The puck's path after, run
    # from its rest, never meets the pawn: it met it the moment its speed closed the gap
    labels, xy = novuss_start(NOVUSS, doubles=False)
    events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[113.4, -440.37], xy]),
                         physics.Strike(1, -2.17966, 3198.1), seed=seed, t0=0.4222)
    hit = next(e for e in res.events if e.kind == "contact")
    assert hit.ids == (1, 17) and hit.t_s - res.t0_s < 0.005
    got = [e for e in of(events, EventKind.CONTACT) if e.ids == (1, 17)]
    assert len(got) == 1 and abs(got[0].t_s - hit.t_s) < 0.01


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("gap_mm", [3.0, 5.0])
def test_puck_knocked_off_a_pawn_into_the_rail_before_it_is_seen_again_hits_that_rail(
        gap_mm, seed):
    # the puck slides along its own rail ``gap_mm`` off it and clips a pawn on the table
    # side: the hit sends it into the rail, which sends it back before the next frame or
    # the one after. Its path only slows and wobbles by a mm or two (no bend to see); the
    # velocity after differs from the one before by more than the hit's push along the
    # line of centres, and that difference is the rail's
    r_pawn = NOVUSS.object_for("red_pawn").radius_mm
    r_puck = NOVUSS.object_for("puck").radius_mm
    hit = np.array([-110.0, -NOVUSS.half_wh_mm[1] + r_puck + gap_mm])
    d = np.array([-1.0, -0.05]) / math.hypot(1.0, 0.05)
    n = np.array([-0.67, 0.74]) / math.hypot(0.67, 0.74)
    pawn = hit + n * (r_pawn + r_puck + 0.3)
    events, res, _ = run(NOVUSS, ["puck", "red_pawn"], [hit - 300.0 * d, pawn],
                         physics.Strike(1, math.atan2(d[1], d[0]), 900.0), seed=seed)
    truth = [(e.kind, getattr(e, "cushion", None), e.t_s) for e in res.events
             if 1 in e.ids and e.kind in ("contact", "cushion")][:2]
    assert [k for k, _, _ in truth] == ["contact", "cushion"] and truth[1][1] == "a"
    cushions = [e for e in of(events, EventKind.CUSHION) if e.labels == ("puck",)]
    assert cushions and cushions[0].cushion == "a"
    assert abs(cushions[0].t_s - truth[1][2]) < 0.02


@pytest.mark.parametrize("follow", [-0.6, 0.6])
@pytest.mark.parametrize("angle_deg", [40, 60])
@pytest.mark.parametrize("gap_mm", [15.0, 30.0])
def test_cue_ball_drawn_or_followed_off_a_ball_by_the_cushion_hits_it_only_when_it_does(
        gap_mm, angle_deg, follow):
    # a cue ball headed for the cushion hits a ball lying ``gap_mm`` off it: its spin
    # turns it after the hit, a change of velocity no push along the line of centres
    # explains; only a cushion it really reaches is one
    r = POOL.object_for("cue_ball").radius_mm
    ball = np.array([200.0, -POOL.half_wh_mm[1] + r + gap_mm])
    d = np.array([math.cos(math.radians(-angle_deg)), math.sin(math.radians(-angle_deg))])
    cue = ball - d * 2 * r + np.array([0.0, 6.0]) - 500.0 * d
    events, res, _ = run(POOL, ["cue_ball", "ball_1"], [cue, ball],
                         physics.Strike(1, math.atan2(d[1], d[0]), 2500.0, follow=follow))
    truth = [e for e in res.events if e.kind == "cushion" and e.ids == (1,)]
    got = [e for e in of(events, EventKind.CUSHION) if e.labels == ("cue_ball",)]
    assert bool(truth) == bool(got)
    if truth:
        assert got[0].cushion == truth[0].cushion and abs(got[0].t_s - truth[0].t_s) < 0.05


#: A break the events benchmark generated (pool-9ft, seed 0, shot 150): the cue ball, then
#: the rack, ball by ball.
BREAK_150 = (
    ["cue_ball", "ball_1", "ball_15", "ball_13", "ball_10", "ball_8", "ball_3", "ball_5",
     "ball_2", "ball_12", "ball_11", "ball_9", "ball_6", "ball_14", "ball_7", "ball_4"],
    [[-1009.007, 314.906], [635.004, -0.019], [684.552, -28.619], [684.574, 28.619],
     [734.139, -57.228], [734.11, 0.018], [734.116, 57.242], [783.671, -85.837],
     [783.671, -28.624], [783.691, 28.608], [783.668, 85.831], [833.26, -114.467],
     [833.27, -57.248], [833.239, 0.009], [833.235, 57.219], [833.257, 114.452]],
    physics.Strike(1, -0.18951245945202133, 5450.03, follow=0.35083),
)


@pytest.mark.parametrize("seed", [0, 2])
def test_balls_slowing_down_after_a_break_and_struck_again_have_their_contacts(seed):
    # after the break, balls nearly at rest are struck again by others: their paths, fitted
    # as curves, bend by less than a fitted curve allows for, but they move farther than
    # their speed could carry them (an onset's test); before that test 13 of the 23
    # contacts after the first second were found in both runs
    labels, xy, strike = BREAK_150
    events, res, _ = run(POOL, labels, xy, strike, seed=seed)
    truth = [(e.t_s, frozenset(e.ids)) for e in res.events
             if e.kind == "contact" and e.t_s > 1.0 and e.speed_mm_s >= 50.0]
    got = [(e.t_s, frozenset(o.id for o in e.objects)) for e in of(events, EventKind.CONTACT)]
    found = sum(any(abs(t - g) < 0.05 and ids == g_ids for g, g_ids in got) for t, ids in truth)
    assert len(truth) == 23 and found >= 15


def test_ball_creeping_into_the_cushion_after_a_long_roll_hits_it_in_nearly_every_run():
    # a ball rolls half a metre and reaches the foot cushion at 60-90 mm/s: it moves a mm
    # or two a frame, so each frame's refit moves the root of its path on the nose line by
    # about a frame, now and then back past the frame the scan looked in. Before the scan
    # looked two frames back, 15 of these 20 runs found the bounce
    c = POOL.cushion("foot")
    mid = (np.array(c.a_xy_mm) + np.array(c.b_xy_mm)) / 2
    found = runs = 0
    for angle in (0.0, 0.3):
        heading = math.atan2(-c.normal_xy[1], -c.normal_xy[0]) + angle
        for seed in range(10):
            events, res, _ = run(POOL, ["cue_ball"], [mid + 500.0 * np.array(c.normal_xy)],
                                 physics.Strike(1, heading, 435.0), seed=seed)
            truth = [e for e in res.events if e.kind == "cushion"]
            assert truth and 50.0 < truth[0].speed_mm_s < 100.0
            got = of(events, EventKind.CUSHION)
            runs += 1
            found += bool(got and got[0].cushion == "foot"
                          and abs(got[0].t_s - truth[0].t_s) < 0.05)
    assert found >= 18, f"{found} of {runs}"


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("dip_mm", [4.0, 6.0])
def test_puck_unseen_across_the_edge_of_the_circle_crossed_it_in_and_out(dip_mm, seed):
    # a puck at 2 m/s cuts ``dip_mm`` into the circle for 35-40 ms and is unseen there
    # (blur, a hand): both sightings around lie outside, and the straight way between them
    # dips into the circle by more than their noise
    r = NOVUSS.line("circle").radius_mm
    _, res, tracks = run(NOVUSS, ["puck"], [[-350.0, r - dip_mm]],
                         physics.Strike(1, 0.0, 2000.0), seed=seed)
    t = np.arange(0.4, 1.2, 0.001)
    inside = t[np.linalg.norm(res.xy_at(t)[:, 0], axis=1) < r]
    events = detect_hiding(NOVUSS, tracks, 1, inside[0] - 0.005, inside[-1] + 0.005)
    got = [e for e in of(events, EventKind.LINE_CROSS) if e.line == "circle"]
    assert len(got) >= 2
    assert abs(got[0].t_s - inside[0]) < 0.01 and abs(got[1].t_s - inside[-1]) < 0.01


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_pawn_hit_back_into_the_cushion_it_just_left_bounces_off_it_again(seed):
    # (from the events benchmark, Novuss seed 0, shot 135) pawn 2 bounces off the left
    # cushion at 1.005 s, the puck meets it at 1.072 s and drives it back into the same
    # cushion at 1.12 s: 115 ms after the first bounce, within the window that merges the
    # sightings of one bounce, but a bounce of its own after the contact
    labels = ["puck", "red_pawn", "red_pawn", "black_pawn"]
    xy = [[319.45, -394.651], [186.553, -255.896], [-304.889, 157.435], [-352.426, 220.408]]
    events, res, _ = run(NOVUSS, labels, xy, physics.Strike(1, 2.3935247334551626, 2732.127),
                         seed=seed)
    truth = [e.t_s for e in res.events if e.kind == "cushion" and e.ids == (2,)
             and e.cushion == "left"]
    got = [e.t_s for e in of(events, EventKind.CUSHION)
           if e.objects[0].id == 2 and e.cushion == "left"]
    assert len(truth) == 2 and len(got) == 2
    assert all(abs(g - t) < 0.03 for g, t in zip(got, truth, strict=True))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pawn_struck_softly_off_the_rail_it_lay_by_is_seen_to_have_hit_it(seed):
    # (from the events benchmark, Novuss seed 0, shot 137) the puck strikes pawn 9, which
    # lies 12 mm off the right rail, into that rail at 1 m/s; the rail sends it back at a
    # tenth of that, so its path after, run back, never reaches the rail. It left along
    # the line of centres, and the velocity it is seen with differs from that by the
    # rail's push
    labels = ["puck", "red_pawn", *["black_pawn"] * 7, "red_pawn"]
    xy = [[-177.228, -412.882], [-352.124, 83.266], [-259.62, 82.055], [216.677, -48.968],
          [321.252, 61.621], [82.049, -456.128], [9.843, -385.584], [193.671, 105.716],
          [473.077, -245.259], [34.687, 360.285]]
    events, res, _ = run(NOVUSS, labels, xy, physics.Strike(1, -0.06957934606727646, 1709.844),
                         seed=seed)
    truth = [e for e in res.events if e.kind == "cushion" and e.ids == (9,)]
    got = [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 9]
    assert truth and truth[0].cushion == "right"
    assert got and got[0].cushion == "right" and abs(got[0].t_s - truth[0].t_s) < 0.03


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cue_ball_passing_a_ball_clear_on_its_way_into_its_neighbour_never_hits_it(seed):
    # (from the events benchmark, pool seed 0, shot 136) the cue ball passes ball_5 9 mm
    # clear and hits ball_9, which rests touching ball_5 and ball_13: ball_13 flies off
    # along the line from ball_5 too, so a hit on ball_5 passed on to it (a Newton's
    # cradle) fits as well, within the contact gate; but the cue ball's path touches
    # ball_9 itself in that frame, and that touch started the cluster
    labels = ["cue_ball", "ball_9", "ball_5", "ball_13"]
    xy = [[718.375, -176.881], [189.147, -275.438], [233.217, -238.738], [179.4, -218.924]]
    events, res, _ = run(POOL, labels, xy, physics.Strike(
        1, -2.8799051710288652, 2618.82, follow=-0.015042629891209636), seed=seed)
    assert [e.ids for e in res.events if e.kind == "contact"][:1] == [(1, 2)]
    hits = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "cue_ball"]
    assert [e.labels for e in hits[:1]] == [("cue_ball", "ball_9")]
    assert not [e for e in of(events, EventKind.CONTACT) if "ball_5" in e.labels]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ball_lost_from_view_as_it_is_hit_is_hit_when_it_left_its_rest(seed):
    # (from the events benchmark, pool seed 1, shot 298) the cue ball hits ball_3 at rest,
    # and ball_3 goes unseen from the frame before the hit until 0.2 s after it (seen
    # once between): it starts where its way back meets its rest, when the cue ball bent
    # off it, not at the frame it came back in, when the cue ball was far away
    labels = ["cue_ball", "ball_13", "ball_1", "ball_4", "ball_8", "ball_5", "ball_3"]
    xy = [[-113.986, -299.31], [-37.298, -21.886], [-186.852, -437.778], [-208.554, -50.406],
          [891.526, -378.04], [578.466, -116.358], [507.086, 104.342]]
    _, res, tracks = run(POOL, labels, xy, physics.Strike(
        1, 0.5337722040104671, 2510.08, follow=0.2851569882777947), seed=seed)
    hit = next(e for e in res.events if e.kind == "contact")
    assert hit.ids == (1, 7)
    events = detect_hiding(POOL, tracks, 7, hit.t_s - 0.03, hit.t_s + 0.2)
    got = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "cue_ball"]
    assert got and got[0].labels == ("cue_ball", "ball_3")
    assert abs(got[0].t_s - hit.t_s) < 0.02


def _stop_at_cushion(seed: int, v_in_mm_s: float):
    """A puck slid at cushion a, slowing, that meets it at ``v_in_mm_s`` and stops
    against it (the cushion takes its speed); tracks from that motion with noise.
    (events, the time it meets the cushion)."""
    r = NOVUSS.object_for("puck").radius_mm
    v0, decel, t_go = 600.0, 1000.0, 0.4
    t_hit = t_go + (v0 - v_in_mm_s) / decel
    y0 = -500.0 + r + (v0**2 - v_in_mm_s**2) / (2 * decel)
    t = np.arange(0.0, 2.0, 1 / FPS) + 0.0123
    tau = np.clip(t - t_go, 0.0, t_hit - t_go)
    xy = np.zeros((len(t), 2, 2))
    xy[:, 0, 0] = 40.0
    xy[:, 0, 1] = np.where(t < t_hit, y0 - (v0 * tau - 0.5 * decel * tau**2), -500.0 + r + 0.5)
    xy[:, 1] = [-300.0, 300.0]
    tracks = sample_tracks(t, xy, np.zeros((len(t), 2), dtype=int), np.array([1, 2]),
                           ("puck", "red_pawn"), CLEAN, np.random.default_rng(seed))
    det = MotionEventDetector(NOVUSS)
    events = []
    for tr in tracks:
        events += det.update(tr)
    return events + det.flush(), t_hit


@pytest.mark.parametrize("v_in_mm_s", [220.0, 300.0])
def test_puck_that_slides_into_a_cushion_and_stops_against_it_hit_it_in_nearly_every_run(
        v_in_mm_s):
    # (from the events benchmark, Novuss seed 1, shot 217) met at a few hundred mm/s, the
    # cushion sends the puck back at a few tens, which friction stops in a mm or two: its
    # motion after reads as no departure from the line within the noise. A path that
    # reaches the nose that fast cannot stop short of it, so it met it
    found = 0
    for seed in range(8):
        events, t_hit = _stop_at_cushion(seed, v_in_mm_s)
        found += any(e.cushion == "a" and abs(e.t_s - t_hit) < 0.04
                     for e in of(events, EventKind.CUSHION))
    assert found >= 7


@pytest.mark.parametrize("seed", range(6))
def test_puck_set_beside_a_pawn_hits_it_within_its_shot_never_before_the_stroke(seed):
    # (from the events benchmark, Novuss seed 1, shot 26) the puck lies 5 mm from pawn 13
    # of the start row and meets it 3 ms after the stroke. Its path after, run back past
    # its rest, touches the pawn 27 ms before the stroke: a contact timed there fell
    # before the shot began, and the shot had no first contact. (Which pawn of the row it
    # met the data may not tell: then it is for review.)
    labels, xy = novuss_start(NOVUSS, doubles=False)
    _, res, tracks = run(NOVUSS, ["puck", *labels], np.vstack([[-0.916, -445.295], xy]),
                         physics.Strike(1, -1.713848702239685, 1494.28), seed=seed, t0=0.4326)
    hit = next(e for e in res.events if e.kind == "contact")
    assert hit.ids == (1, 13) and hit.t_s - res.t0_s < 0.005
    det, seg, shots = MotionEventDetector(NOVUSS), ShotSegmenter(), []
    for tr in tracks:
        shots += seg.update(tr, det.update(tr))
    shots += seg.flush(det.flush())
    assert len(shots) == 1
    first = shots[0].first_contact("puck")
    assert first is not None and first.t_s >= shots[0].t_start_s
    assert first.ids == (1, 13) or first.confidence < 0.5
    assert abs(first.t_s - hit.t_s) < 0.03


def _cluster_hit_after_few_sightings(seed: int) -> bool:
    """(from the events benchmark, pool seed 1, shot 261) the cue ball is seen in four
    frames between its stroke and its hit on ball_11 (one more is missed): a quadratic
    through them, run on a frame, misses the next sighting by more than the bend test
    allows, a frame before the hit. Nothing explains that bend; the cue ball went on
    along its path through that sighting, and bent at the hit in the next frame. Whether
    the first contact came out right, and in time."""
    labels = ["cue_ball", "ball_11", "ball_5", "ball_1", "ball_14", "ball_4"]
    xy = [[-810.723, 209.667], [-306.901, 166.895], [-257.503, 196.029], [-307.432, 224.241],
          [-793.387, -223.947], [-134.593, 341.018]]
    _, res, tracks = run(POOL, labels, xy, physics.Strike(
        1, -0.16258510640253881, 3203.47, follow=-0.37959644872448606), seed=seed, t0=0.4366)
    hit = next(e for e in res.events if e.kind == "contact")
    assert hit.ids == (1, 2)
    events = detect_hiding(POOL, tracks, 1, hit.t_s - 0.045, hit.t_s - 0.03)
    got = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "cue_ball"][:1]
    return bool(got and got[0].ids == (1, 2) and abs(got[0].t_s - hit.t_s) < 0.01)


@pytest.mark.parametrize("seed", [0, 6, 8, 13, 25])
def test_cue_ball_seen_a_few_times_before_it_hits_the_cluster_bends_there_not_before(seed):
    # (seeds 6 and 8 failed with no test for a premature bend, 13 and 25 with one that
    # took a 2-D fit's RMS for a 1-D one)
    assert _cluster_hit_after_few_sightings(seed)


@pytest.mark.slow
def test_cue_ball_seen_a_few_times_before_it_hits_the_cluster_in_nearly_every_run():
    assert sum(_cluster_hit_after_few_sightings(seed) for seed in range(40)) >= 38


@pytest.mark.parametrize("t0", [0.42, 0.425])
def test_puck_off_the_cushion_just_beside_a_held_pawn_bounced_off_the_cushion(t0):
    # (from the events benchmark, Novuss seed 1, shot 292) the puck comes off cushion b
    # 4 mm clear of the red row's end pawn, which the cushion holds: a bounce off the
    # pawn, grazed within the contact gate, fits its bend as well. Its path reaches the
    # cushion itself: it bounced off that
    labels, xy = novuss_start(NOVUSS, doubles=False)
    for seed in range(10):
        events, res, _ = run(NOVUSS, ["puck", *labels], np.vstack([[107.436, -433.057], xy]),
                             physics.Strike(1, 1.8423300609301102, 2093.32), seed=seed, t0=t0)
        truth = next(e for e in res.events if e.kind in ("cushion", "contact"))
        assert truth.kind == "cushion" and truth.cushion == "b"
        got = [e for e in of(events, EventKind.CUSHION) if e.ids == (1,)]
        assert got and got[0].cushion == "b" and abs(got[0].t_s - truth.t_s) < 0.02
        assert not [e for e in of(events, EventKind.CONTACT) if 1 in e.ids]


@pytest.mark.parametrize("t0", [0.405, 0.41])
def test_pawn_driven_into_the_cushion_it_lay_by_and_back_met_it(t0):
    # (from the events benchmark, Novuss seed 1, shot 185) the puck drives pawn 2, 30 mm
    # off cushion b, straight into it; the cushion sends it back before any frame shows
    # it moving. Along the cushion's normal the hit's push and the cushion's cannot be
    # told apart by size, but a hit from rest drives it only into the cushion: moving out
    # of it after, the cushion sent it
    labels = ["puck", "black_pawn", "black_pawn", "red_pawn", "black_pawn", "red_pawn",
              "black_pawn", "black_pawn", "red_pawn", "black_pawn", "black_pawn", "red_pawn",
              "black_pawn", "black_pawn", "black_pawn"]
    xy = [[201.275, -390.313], [-226.695, 454.475], [-130.718, -25.341], [165.296, -186.969],
          [-359.365, 6.514], [309.987, -108.279], [95.734, 228.518], [-337.825, -118.577],
          [-91.749, -189.069], [-188.814, -283.864], [-250.717, 406.711],
          [-131.427, -320.903], [-249.154, -379.617], [446.25, -2.618], [-173.929, -320.285]]
    for seed in range(6):
        events, res, _ = run(NOVUSS, labels, xy, physics.Strike(1, 2.0538542439701772,
                                                                3396.41), seed=seed, t0=t0)
        truth = [e for e in res.events if e.kind == "cushion" and e.ids == (2,)]
        got = [e for e in of(events, EventKind.CUSHION) if e.ids == (2,)]
        assert truth and truth[0].cushion == "b"
        assert got and got[0].cushion == "b" and abs(got[0].t_s - truth[0].t_s) < 0.03


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_puck_struck_away_from_a_row_behind_it_never_pushed_that_row(seed):
    """Two touching pawns 40 mm behind the puck, the far one drifting as the puck is
    struck away from them (sample clip novuss, a pawn under the cue): the puck was at rest
    until its stroke, so its path run back does not push the row from its near end."""
    y_row = -380.0 - (22.5 + 15.0 + 40.0)
    events = _puck_struck_with_a_drifter(["puck", "black_pawn", "black_pawn"],
                                         [[0.0, y_row], [30.1, y_row]], 2, seed)
    assert of(events, EventKind.SHOT_START)
    assert not [c for c in of(events, EventKind.CONTACT) if "puck" in c.labels]


def test_resting_ball_read_from_its_box_mm_off_does_not_hold_the_shot_open():
    """Once the cue ball has stopped, the sightings of a resting ball switch from
    edge-fitted centres to box centres 5 mm off for a quarter of a second (sample clip
    cluster_break: the edge fit failed by a rail). The tracker's own sigma has shrunk as
    it averaged, but each sighting is tested as noisy as the detector said it was
    (2.5 mm): the ball never moved and the shot ends when the cue ball stopped. Said to
    be 1 mm, the same sightings move it and hold the shot open."""
    res, t, tracks = simulate(POOL, ["cue_ball", "ball_1"], [[-600.0, 0.0], [600.0, 300.0]],
                              physics.Strike(1, 0.0, 600.0), tail_s=2.0)
    box = (t > res.t_end_s + 0.05) & (t < res.t_end_s + 0.3)

    def boxed(tr: Tracks, sighting_sigma_mm: float) -> Tracks:
        moved = tr.xy_mm + [[0.0, 0.0], [0.0, 5.0]]
        return dataclasses.replace(tr, xy_mm=moved, obs_xy_mm=moved, sigma_mm=np.full(2, 0.5),
                                   obs_sigma_mm=np.array([1.0, sighting_sigma_mm]))

    def shot_end_s(sighting_sigma_mm: float) -> float:
        events = detect(POOL, [boxed(tr, sighting_sigma_mm) if off else tr
                               for tr, off in zip(tracks, box, strict=True)])
        return of(events, EventKind.SHOT_END)[0].t_s

    assert abs(shot_end_s(2.5) - res.t_end_s) < 0.1
    assert shot_end_s(1.0) > res.t_end_s + 0.3


def test_ball_first_misread_then_read_right_by_the_tracker_is_named_right():
    """The tracker named a ball by a misread number at first and by its own once its
    votes overruled it (sample clip 8ball, 13 read as 11): the events after name it as
    the tracker does now, not as it first did."""
    _, _, tracks = simulate(POOL, ["cue_ball", "ball_1"], [[-600.0, 0.0], [0.0, 0.0]],
                            physics.Strike(1, 0.0, 1500.0))
    misread = [dataclasses.replace(tr, label=("cue_ball", "ball_11")) for tr in tracks[:10]]
    contacts = of(detect(POOL, misread + tracks[10:]), EventKind.CONTACT)
    assert [c.labels for c in contacts] == [("cue_ball", "ball_1")]


def test_cue_ball_turned_by_one_ball_and_drifting_into_another_is_timed_when_it_gets_there():
    # a half-ball hit on ball 1 turns the cue ball and slows it to ~250 mm/s; 48 ms later
    # it drifts into ball 2, 7 mm from ball 1. In the frame of the first hit its path in
    # passes near both, but ball 2 leaves rest frames later: the second contact is timed
    # where the turned cue ball reaches it, not at the first hit
    r = POOL.object_for("ball_1").radius_mm
    cue, ball_1, v = [-300.0, -r], [0.0, 0.0], 500.0
    res, _, _ = simulate(POOL, ["cue_ball", "ball_1"], [cue, ball_1], physics.Strike(1, 0.0, v))
    t1 = next(e.t_s for e in res.events if e.kind == "contact")
    p = res.xy_at(np.array([t1 + 0.043, t1 + 0.045]))[:, 0]
    ball_2 = p[1] + (2 * r + 0.5) * (p[1] - p[0]) / np.linalg.norm(p[1] - p[0])
    timed = 0
    for seed in range(6):
        events, res, _ = run(POOL, ["cue_ball", "ball_1", "ball_2"], [cue, ball_1, ball_2],
                             physics.Strike(1, 0.0, v), seed=seed)
        truth = [e for e in res.events if e.kind == "contact"]
        assert [set(e.ids) for e in truth] == [{1, 2}, {1, 3}]
        assert 0.04 < truth[1].t_s - truth[0].t_s < 0.06
        got = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == {1, 3}]
        timed += bool(got) and abs(got[0].t_s - truth[1].t_s) < 0.017
    assert timed >= 5


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_break_cue_ball_unseen_until_it_comes_back_off_the_rack_hits_the_apex_surely(seed):
    # at 9 m/s the cue ball is a blur the detector misses from the stroke until it comes
    # back off the rack; the tracker holds it where it rested. Its path back, run back,
    # leaves the apex ball as the rack starts: a sure first contact (WPA 6.2 needs no
    # referee), however many frames it flew unseen
    events, res, tracks, t_hit = rack_break(Game.NINE_BALL, 7, 9000.0, seed=seed, follow=-0.3)
    rest = res.start.xy_mm[0]
    hidden = []
    for tr in tracks:
        if res.t0_s < tr.t_s < t_hit + 0.01:
            k = tr.id == 1
            seen, obs, xy = tr.seen.copy(), tr.obs_xy_mm.copy(), tr.xy_mm.copy()
            state, v = tr.state.copy(), tr.v_mm_s.copy()
            seen[k], obs[k], xy[k], v[k] = False, np.nan, rest, 0.0
            state[k] = TrackState.OCCLUDED
            tr = dataclasses.replace(tr, seen=seen, obs_xy_mm=obs, xy_mm=xy, v_mm_s=v,
                                     state=state)
        hidden.append(tr)
    first = next(e for e in of(detect(POOL, hidden), EventKind.CONTACT) if 1 in e.ids)
    apex = next(e.ids for e in res.events if e.kind == "contact")
    assert set(first.ids) == set(apex) and first.confidence >= 0.5
    assert abs(first.t_s - t_hit) < 0.02


def test_puck_head_on_into_a_held_row_just_before_a_frame_hits_the_pawn_it_meets():
    # Novuss seed 0 shot 76: the puck (2.8 m/s) meets pawn 4 of the start row, which the
    # cushion holds, head on 0.8 ms before a frame; its path in, fitted to the frames
    # before, ends 0.3 mm short of touching pawn 4 and 8 mm from pawn 3, the neighbour it
    # would have reached next. Both near misses lie at the window's end, where the one
    # clearly nearer is the pawn it met (pawn 3 came first before, as a junction tie)
    hits = _puck_hits("puck_head_on_into_a_held_row_just_before_a_frame_tracks.json")
    assert [ids for ids, _ in hits] == [(1, 4)]
    assert abs(hits[0][1] - 0.699) < 0.005


def test_pawn_passing_a_pawn_into_a_cushion_hits_it_on_the_way_back_not_on_the_way_in():
    # Novuss seed 1 shot 163: pawn 13, struck at 0.644 s, passes pawn 2 within a few mm
    # on its way into the right cushion and hits it coming back, at 0.730 s. Pawn 2 stays
    # at rest two frames after the near miss (its motion, run back, leaves at 0.730), so
    # the near miss is no contact; the start times the one on the way back
    hits = [(e.labels, e.t_s) for e in of(_recorded(
        NOVUSS, "pawn_past_a_pawn_into_a_cushion_and_back_into_it_tracks.json"),
        EventKind.CONTACT) if {o.id for o in e.objects} == {2, 13}]
    assert len(hits) == 1 and abs(hits[0][1] - 0.730) < 0.005


def test_pawn_seen_once_off_rest_then_lost_for_frames_is_struck_when_it_left():
    # Novuss seed 1 shot 99: pawn 9 hits pawn 14 at 0.734 s; pawn 14 is seen once off its
    # rest, 45 mm out, then missed four frames, and seen again just before it drops into a
    # pocket. One sighting alone is no onset; when the second confirms it, the first is
    # its motion's first sighting too, and the two, run back, time the start (was 0.900 s,
    # the window's middle, and no mover near then)
    hits = [e for e in of(_recorded(
        NOVUSS, "pawn_struck_seen_once_then_unseen_for_four_frames_tracks.json"),
        EventKind.CONTACT) if {o.id for o in e.objects} == {9, 14}]
    assert len(hits) == 1 and abs(hits[0].t_s - 0.734) < 0.005


def test_puck_into_a_stopped_pawn_that_knocks_its_neighbour_hits_both_in_order():
    # Novuss seed 0 shot 293: pawn 4, struck earlier, has stopped beside pawn 6 but is not
    # judged at rest yet; the puck, off a cushion, hits it at 0.878 s and it knocks pawn 6
    # at 0.888 s. Its still path passes pawn 6 within the gate at the window's start, but
    # pawn 6, run back, leaves its rest only at 0.887 s: no contact then, and the puck's
    # touch, found in the same frame, stands (was: 4 hit 6 at 0.833 s, the puck nothing)
    hits = [(tuple(o.id for o in e.objects), e.t_s) for e in of(_recorded(
        NOVUSS, "puck_into_a_stopped_pawn_beside_another_tracks.json"), EventKind.CONTACT)
        if e.t_s > 0.8]
    assert [ids for ids, _ in hits] == [(1, 4), (4, 6)]
    assert abs(hits[0][1] - 0.878) < 0.005 and abs(hits[1][1] - 0.888) < 0.005


def test_pawn_seen_once_before_a_cushion_by_a_corner_pocket_hits_it_and_crosses_the_line():
    # Novuss seed 1 shot 177: pawn 4, struck at 0.870 s, is seen once moving, then bounces
    # off cushion b at 0.890 s and drops into the corner pocket, crossing the left zone
    # line on the way. With one sighting since it left rest, its run is the line from
    # where and when it left through that sighting: it meets the cushion away from the
    # pocket, and crosses the line between the sighting and the cushion
    events = [e for e in _recorded(
        NOVUSS, "pawn_seen_once_off_a_cushion_into_a_corner_pocket_tracks.json")
        if [o.id for o in e.objects] == [4] and e.t_s > 0.85]
    assert [(e.kind, e.cushion or e.line) for e in events] == [
        (EventKind.LINE_CROSS, "zone_left"), (EventKind.CUSHION, "b"), (EventKind.POCKET, None)]


def test_puck_seen_once_after_a_hit_before_a_cushion_by_a_corner_pocket_hits_it():
    # Novuss seed 1 shot 119: the puck hits pawn 6 at 0.707 s, is seen once, bounces off
    # the left cushion at 0.755 s and drops into the corner pocket. Its run is the line
    # from where it hit the pawn through that sighting
    events = [e for e in _recorded(
        NOVUSS, "puck_seen_once_after_a_hit_off_a_cushion_into_a_corner_pocket_tracks.json")
        if e.labels == ("puck",) and e.kind is EventKind.CUSHION]
    assert [e.cushion for e in events] == ["left"] and abs(events[0].t_s - 0.755) < 0.01


def _contacts(spec, name):
    """(ids, time, confidence) of each contact in recorded tracks tests/data/``name``."""
    return [(tuple(o.id for o in e.objects), e.t_s, e.confidence)
            for e in of(_recorded(spec, name), EventKind.CONTACT)]


def test_ball_struck_into_a_ball_just_beyond_passes_the_hit_on_not_the_cue_ball():
    # pool seed 1 shot 7: the cue ball hits ball 3 full at 0.505 s and nearly stops; ball
    # 3 hits ball 2, 6 mm beyond, 1.8 ms later. The cue ball's path in, run on, also
    # reaches ball 2, but not through ball 3: after that hit it went on with what it kept
    hits = _contacts(POOL, "ball_struck_into_a_ball_just_beyond_tracks.json")
    assert [ids for ids, _, _ in hits] == [(1, 3), (3, 2)]
    assert abs(hits[1][1] - 0.506) < 0.005 and hits[1][2] > 0.5


def test_cue_ball_thinly_off_one_ball_into_the_next_hits_both():
    # pool seed 1 shot 239: the cue ball cuts ball 4 thinly at 0.649 s and goes on, bent a
    # little, into ball 3 at 0.682 s: its path deflected at the first hit still reaches
    # the second ball
    hits = _contacts(POOL, "cue_ball_off_one_ball_into_the_next_tracks.json")
    assert [ids for ids, _, _ in hits] == [(1, 4), (1, 3)]
    assert abs(hits[1][1] - 0.682) < 0.01


def test_pawn_struck_into_two_pawns_within_a_frame_hits_both():
    # Novuss seed 1 shot 255: pawn 8 hits pawn 11 at 0.556 s; 11 hits 5 at 0.567 s and 3
    # at 0.585 s, before the next frame. 11's path fitted after those hits points at
    # neither; the line of the hit it left rest along, 8's, runs into both
    hits = _contacts(NOVUSS, "pawn_struck_into_two_pawns_within_a_frame_tracks.json")
    got = {ids for ids, t, _ in hits if 0.55 < t < 0.6}
    assert {(11, 5), (11, 3)} <= got and (1, 3) not in got and (8, 3) not in got


def test_ball_creeping_off_after_a_slow_hit_is_timed_where_it_began_to_creep():
    # pool seed 0 shot 240: ball 9 at 67 mm/s meets ball 6 at
    # 2.519 s; ball 6 creeps off at 40 mm/s and is first an onset (4.5 mm) off its rest
    # at 2.667 s. Its sightings at rest and creeping, together, time the start (and so
    # the hit) within the 50 ms a contact is matched to, not 0.1 s after it
    hits = [(set(ids), t) for ids, t, _ in _contacts(
        POOL, "ball_creeping_off_after_a_slow_hit_tracks.json") if 6 in ids and t > 2.0]
    assert [ids for ids, _ in hits] == [{6, 9}] and abs(hits[0][1] - 2.519) < 0.03


def test_ball_struck_on_along_the_way_it_came_to_rest_is_no_slow_roller():
    # pool seed 4 shot 80: ball 5 came to rest during the shot; ball 3 (struck by ball 12
    # at 3.774 s) meets it at 3.793 s, and it leaves along the way it had come, at 114 mm/s
    # on average since its start in the frames ahead. A slow roller that only looked at
    # rest goes on under 80 mm/s; one faster was struck
    hits = [(set(ids), t) for ids, t, _ in _contacts(
        POOL, "ball_that_came_to_rest_struck_on_tracks.json") if 5 in ids and t > 3.0]
    assert any(ids == {3, 5} and abs(t - 3.793) < 0.05 for ids, t in hits), hits


def test_two_balls_meeting_just_after_a_cushion_each_is_found_though_neither_had_a_path():
    # pool seed 1 shot 40 (break): ball 7 bounces off the foot cushion at 0.954 s and meets
    # ball 8, moving, 48 ms later. Ball 8's bend is flagged while 7 has too few sightings
    # since its cushion for a path, and 7's a frame later, when 8 has none since its own
    # bend: their paths into the two bends touch at 1.002 s
    hits = [(ids, t) for ids, t, _ in _contacts(
        POOL, "ball_off_a_cushion_into_a_ball_off_another_tracks.json") if 0.9 < t < 1.1]
    assert [set(ids) for ids, _ in hits] == [{7, 8}] and abs(hits[0][1] - 1.002) < 0.005


def test_a_contact_found_twice_a_frame_apart_is_reported_once():
    # Novuss seed 1 shot 41: pawn 8 hits pawn 4 at 0.815 s. Pawn 4's start finds it, and
    # a frame on the bend of 8's path finds it again 51 ms later: one contact
    hits = [(ids, t) for ids, t, _ in _contacts(
        NOVUSS, "pawn_into_a_pawn_found_twice_tracks.json") if set(ids) == {4, 8}]
    assert len(hits) == 1 and abs(hits[0][1] - 0.815) < 0.01


def test_ball_struck_into_a_ball_beside_it_hits_it_before_its_own_start_shows():
    # pool seed 1 shot 152: the cue ball hits ball 2 at 0.672 s; ball 2 hits ball 3, 1.4
    # mm beyond, 3.6 ms later. Ball 2's start is found from the cue ball's touch a frame
    # before it is seen off its rest; it leaves from its rest, into ball 3, not the cue ball
    hits = _contacts(POOL, "ball_struck_into_a_ball_beside_it_before_its_start_shows_tracks.json")
    assert [ids for ids, _, _ in hits][:2] == [(1, 2), (2, 3)]
    assert abs(hits[1][1] - 0.676) < 0.005


def test_pawn_struck_into_a_pawn_then_unseen_into_a_cushion_bounces_off_it():
    # Novuss seed 0 shot 47: pawn 7 hits pawn 9 at 0.619 s, and 9 hits pawn 6 4 ms later;
    # 9 (1.7 m/s) meets cushion b at 0.737 s, between two frames that miss it. Its path
    # in, drawn from where it left rest through its two sightings, was bent by the second
    # hit and reaches the cushion 9 ms late; the path after times the bounce
    events = _recorded(NOVUSS, "pawn_struck_into_a_pawn_then_a_cushion_unseen_tracks.json")
    got = [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 9]
    assert [e.cushion for e in got] == ["b"] and abs(got[0].t_s - 0.737) < 0.005


def test_pawn_struck_into_a_cushion_and_met_again_by_the_puck_bounces_off_it():
    # Novuss seed 1 shot 275: the puck hits pawn 4, 25 mm off the right cushion, at 0.786
    # s; 4 meets the cushion at 0.802 s and the puck, following, again at 0.811 s. The
    # frame after its one sighting on the way in sees it back off the cushion, but nearer
    # than a bounce alone would have sent it: the puck met it on its way out
    events = _recorded(NOVUSS, "pawn_struck_into_a_cushion_and_met_again_tracks.json")
    got = [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 4]
    assert [e.cushion for e in got] == ["right"] and abs(got[0].t_s - 0.802) < 0.005


def test_puck_grazing_a_pawn_closest_between_two_frames_hits_it():
    # Novuss seed 1 shot 200: the puck (1.4 m/s) grazes pawn 10, resting against cushion
    # a, at 0.681 s (approach 160 mm/s), and goes on, turned a little, into a pocket. Its
    # path comes closest to the pawn between two frames, side by side by the next one:
    # the first contact (and the pawn pressed into the cushion) is not lost
    events = _recorded(NOVUSS, "puck_grazing_a_pawn_against_a_cushion_tracks.json")
    hits = [e for e in of(events, EventKind.CONTACT)]
    assert [tuple(o.id for o in e.objects) for e in hits] == [(1, 10)]
    assert abs(hits[0].t_s - 0.681) < 0.01
    assert [e.cushion for e in of(events, EventKind.CUSHION) if e.objects[0].id == 10] == ["a"]


def test_rack_ball_seen_leaving_late_is_pushed_by_the_ball_behind_not_its_row_neighbour():
    # pool seed 0 shot 5 (a 9-ball break): the cue ball hits the apex ball 2 at 0.642 s,
    # which passes the hit to balls 3 and 4 of the second row. Ball 4 creeps off and is
    # seen leaving only at 0.767 s, its start timed back to the break; by then ball 2
    # left rest more than 0.1 s before, but not before 4's own start: 2 pushed it, not 3
    # beside it, which left the other way
    pairs = {frozenset(ids) for ids, t, _ in _contacts(
        POOL, "rack_ball_starting_late_after_the_break_tracks.json") if t < 0.7}
    assert frozenset((2, 4)) in pairs and frozenset((3, 4)) not in pairs


def test_cue_ball_stunned_into_a_ball_it_reaches_before_the_next_frame_starts_the_shot():
    # pool seed 4 shot 279: the cue ball, struck at 0.401 s, hits ball 13 (id 6), 74 mm
    # away, at 0.434 s and crawls on at 300 mm/s; the first frame after the stroke shows
    # it off its rest, ball 13 only the frame after. Its crawl is no stroke's, but an
    # object it reached leaving rest within the frames ahead is: the shot starts there
    events = _recorded(POOL, "cue_ball_stunned_into_a_ball_a_frame_after_the_stroke_tracks.json")
    assert [e.kind for e in events][:2] == [EventKind.SHOT_START, EventKind.CONTACT]
    assert abs(events[0].t_s - 0.401) < 0.01
    assert tuple(o.id for o in events[1].objects) == (1, 6)


def test_split_hit_just_after_a_frame_hits_both_balls_from_the_cue_balls_path_in():
    # pool seed 3 shot 142: the cue ball (2.25 m/s) meets balls 2 and 3, 5.5 mm apart, at
    # 0.752 and 0.753 s, 19 ms after a frame that sees all three where they were. Its bend
    # is flagged at that frame, before either ball shows its start, and left unexplained;
    # a frame on, its path after, run back, reaches neither. Its path into the bend does:
    # both contacts, in order, each marked down as one of a split hit (1 ms apart), and
    # no contact between 2 and 3. (Since 2.5 sigma RMS lets a bend flagged by a noisy
    # fit be premature, that bend is one and the path in goes on to both contacts: in
    # the right order, 1.3 ms apart, at 0.55; before, both went for review.)
    hits = _contacts(POOL, "split_hit_just_after_a_frame_tracks.json")
    early = [(ids, t, c) for ids, t, c in hits if t < 1.0]
    assert [ids for ids, _, _ in early] == [(1, 2), (1, 3)]
    assert all(abs(t - 0.752) < 0.01 and c < 0.8 for _, t, c in early)
    assert early[0][1] < early[1][1]


def test_cue_ball_into_a_ball_resting_against_another_does_not_reach_the_other():
    # pool seed 4 shot 37: the cue ball (2.9 m/s) hits ball 3 at 0.639 s, just after a
    # frame; ball 3 passes the hit on to ball 2, resting against it. The cue ball's path
    # into its bend, run on, also reaches ball 2, but through ball 3: 3 pushed 2
    hits = [(ids, t) for ids, t, _ in _contacts(
        POOL, "cue_ball_into_a_ball_resting_against_another_just_after_a_frame_tracks.json")
        if t < 1.0]
    assert [ids for ids, _ in hits] == [(1, 3), (3, 2)]


def test_puck_grazing_a_held_pawn_three_frames_after_the_stroke_touches_it():
    # Novuss seed 3 shot 234: the puck (0.9 m/s), struck at 0.433 s, grazes pawn 13, which
    # rests against cushion a, at 0.520 s and turns by 27 degrees: the shot's only
    # contact. Its path then is the line from where the stroke set it going through two
    # sightings: fine enough for the touch test, which otherwise waits for five
    hits = _contacts(NOVUSS, "puck_grazing_a_held_pawn_just_after_the_stroke_tracks.json")
    assert [ids for ids, _, _ in hits] == [(1, 13)] and abs(hits[0][1] - 0.520) < 0.01


def test_row_pushed_off_a_puck_after_its_bend_is_pushed_where_the_puck_turned():
    # Novuss seed 4 shot 104: the puck, struck at 0.414 s, runs along the row of black
    # pawns against cushion a and turns at pawn 14 at 0.517 s. Its path after the turn,
    # run back to the stroke, passes pawn 10: the row's push is read off its path into
    # the turn, not off a path run back past it
    hits = _contacts(NOVUSS, "puck_along_a_row_turning_at_a_pawn_after_the_stroke_tracks.json")
    puck = [(ids, t) for ids, t, _ in hits if ids[0] == 1]
    assert puck and puck[0][0] in ((1, 13), (1, 14)) and puck[0][1] > 0.48


def test_puck_seen_once_in_motion_before_a_gap_starts_the_shot_before_its_hit():
    # Novuss seed 4 shot 276: the puck, struck at 0.413 s, is seen once 19 mm off its rest
    # at 0.433 s, then lost for four frames; it hit pawn 10 of a held row at 0.443 s. That
    # one sighting was taken for its last at rest, so the stroke was timed after the hit
    # and the hit fell outside the shot: no first contact at all
    events = _recorded(NOVUSS, "puck_seen_once_in_motion_before_a_gap_hits_a_pawn_tracks.json")
    start = next(e for e in events if e.kind is EventKind.SHOT_START)
    hits = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "puck"]
    assert abs(start.t_s - 0.413) < 0.01
    assert hits and tuple(o.id for o in hits[0].objects) == (1, 10)
    assert start.t_s < hits[0].t_s


def test_puck_along_a_row_passing_one_pawn_within_the_noise_hits_the_pawn_it_turns_at():
    # Novuss seed 4 shot 160: the puck (1.6 m/s) runs along the row held against cushion
    # a, passes pawn 10 0.45 mm clear at 0.49 s and hits pawn 11 at 0.506 s. Its fitted
    # path in cuts 1.2 mm into pawn 10, but it goes on straight past it and turns at
    # pawn 11: it bounced off 11, not off 10 (which would have turned it at once)
    hits = _contacts(NOVUSS, "puck_along_a_row_passing_one_pawn_to_hit_the_next_tracks.json")
    puck = [(ids, t) for ids, t, _ in hits if ids[0] == 1]
    assert puck[0][0] == (1, 11) and abs(puck[0][1] - 0.506) < 0.01
    assert all(ids != (1, 10) for ids, _ in puck)



def test_puck_path_fitted_across_the_pawn_it_hit_meets_no_cushion_behind_it():
    # Novuss seed 3 shot 172: the puck (2.6 m/s) hits pawn 10 of the row held against
    # cushion a between two frames and comes back off it, 20 mm short of that cushion.
    # The hit is timed at the first sighting after it; the next frame's path in, fitted
    # up to that sighting and run on, meets the cushion behind the pawn 35 ms later
    events = _recorded(
        NOVUSS, "puck_off_a_row_pawn_hit_between_frames_short_of_the_cushion_tracks.json")
    hits = [e for e in of(events, EventKind.CONTACT) if e.labels[0] == "puck"]
    assert hits and tuple(o.id for o in hits[0].objects) == (1, 10)
    assert not [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1
                and e.t_s < 0.6]


def test_cue_ball_thin_on_a_ball_resting_against_another_hits_it_not_the_one_it_pushed():
    # pool seed 4 shot 226: the cue ball (3.1 m/s) cuts ball 3 thinly at 0.491 s and goes
    # on; ball 3, resting against ball 4, barely moves (its start shows a frame late) and
    # passes the hit on to 4, which flies off. The cue ball's path passes 4 some 40 mm
    # clear: it hit 3, and 3 pushed 4
    hits = [(ids, t, conf) for ids, t, conf in _contacts(
        POOL, "cue_ball_thin_on_a_ball_resting_against_another_tracks.json") if t < 0.6]
    assert [ids for ids, _, _ in hits] == [(1, 3), (3, 4)]
    assert abs(hits[0][1] - 0.491) < 0.01 and hits[0][2] >= 0.5


def test_puck_into_a_row_end_pawn_that_starts_late_hits_it_not_its_neighbour():
    # Novuss seed 4 shot 124: the puck hits pawn 17, the end of the start row held against
    # cushion a, at 0.437 s; 17 passes the push on to 16 and the row, and 16 is seen
    # leaving first. The puck's path reaches 17, not 16
    hits = _contacts(NOVUSS, "puck_into_a_row_end_pawn_that_starts_late_tracks.json")
    assert hits[0][0] == (1, 17) and abs(hits[0][1] - 0.437) < 0.015 and hits[0][2] >= 0.5
    assert ((17, 16) in [ids for ids, _, _ in hits]
            and all(ids != (1, 16) for ids, _, _ in hits))


def test_ball_flying_off_away_from_its_cluster_neighbour_did_not_push_it():
    # pool seed 0 shot 51: the cue ball hits ball 3 of a cluster at 0.701 s; 3 flies off
    # at 1.2 m/s away from ball 4, which rested against it; the cue ball, turned by the
    # hit, meets 4 at 0.716 s. 4 starts within the frame of 3's start, but 3 left it
    # behind: the cue ball hit it
    hits = [ids for ids, t, _ in _contacts(
        POOL, "cue_ball_off_a_cluster_ball_into_its_neighbour_tracks.json") if t < 0.8]
    assert hits[0] == (1, 3) and (1, 4) in hits
    assert (3, 4) not in hits and (4, 3) not in hits


def test_pawn_leaving_across_the_line_from_a_near_miss_was_hit_by_the_puck():
    # Novuss seed 3 shot 225: the puck hits pawn 3 at 0.564 s and, turned by it, pawn 5
    # (9 mm beyond 3) at 0.581 s. Pawn 3, flying off, passes 5 only 6 mm clear, but 5
    # leaves along the line from the puck, not across the line from 3: the puck hit it
    hits = [ids for ids, t, _ in _contacts(
        NOVUSS, "puck_off_a_pawn_into_a_second_beside_it_tracks.json") if t < 0.7]
    assert hits[:2] == [(1, 3), (1, 5)] and (3, 5) not in hits


def test_object_leaving_across_its_line_from_a_touched_neighbour_was_not_pushed_by_it():
    # the cue ball (2 m/s) runs past ball 3 (resting at the origin), its path cutting 17 mm
    # into 3's touching circle (3 itself never moves: no start to time), and on 33 mm
    # clear of ball 4, which rested against 3 at 45 degrees. 4 leaves as the cue ball
    # passes, but across the line from 3 (at right angles to it): 3 did not push it, so
    # "the cue ball hit 3, which passed the hit on" is no story to report with confidence
    rng = np.random.default_rng(1)
    det = MotionEventDetector(POOL)
    events = []
    k, s = np.array([0.0, 0.0]), np.array([40.4, 40.4])
    away = np.array([0.7071, -0.7071])
    for f in range(75):
        t = f / FPS
        cue = np.array([-40.0, -600.0 + 2000.0 * min(max(t - 0.5, 0.0), 0.6)])
        ball_4 = s + away * 500.0 * min(max(t - 0.79, 0.0), 0.2)
        xy = np.stack([cue, k, ball_4]) + rng.normal(0, 0.3, (3, 2))
        events += det.update(_rest_tracks(t, xy, ids=(1, 3, 4),
                                          labels=("cue_ball", "ball_2", "ball_3")))
    events += det.flush()
    hits = [(tuple(o.id for o in e.objects), e.confidence) for e in of(events, EventKind.CONTACT)]
    assert not any(ids in ((3, 4), (4, 3)) for ids, _ in hits)
    assert all(conf < 0.5 for _, conf in hits)


def test_puck_slanting_into_a_row_end_pawn_the_cushion_holds_hits_it():
    # Novuss seed 3 shot 150: the puck hits pawn 2, the end of the start row held against
    # cushion b, at a slant (63 degrees off the row) at 1.144 s. The cushion takes the
    # part of the hit into it; pawn 2 hardly moves and passes the rest on along the row.
    # The puck's path runs deep into 2, and reaches 3 only later
    hits = _contacts(NOVUSS, "puck_slanting_into_a_row_end_pawn_the_cushion_holds_tracks.json")
    puck = [(ids, t, conf) for ids, t, conf in hits if 1 in ids]
    assert puck[0][0] == (1, 2) and abs(puck[0][1] - 1.144) < 0.005 and puck[0][2] >= 0.5
    assert all(ids != (1, 3) for ids, _, _ in puck)


def test_puck_passing_a_held_pawn_just_clear_hits_the_next_not_through_it():
    # Novuss seed 0 shot 84: the puck (3.4 m/s) passes pawn 10 of the start row, held
    # against cushion a, 5 mm clear and hits pawn 11 at 0.495 s. Its path in grazes 10's
    # touching circle by its noise, and 11 starts; but a shallow touch is no hit passed
    # on along the cushion: the puck hit 11 itself
    hits = _contacts(NOVUSS, "puck_passing_a_held_pawn_by_into_the_next_tracks.json")
    puck = [(ids, t) for ids, t, _ in hits if 1 in ids]
    assert puck[0][0] == (1, 11) and abs(puck[0][1] - 0.495) < 0.005
    assert all(ids != (1, 10) for ids, _ in puck)


def test_puck_grazing_a_held_pawn_before_hitting_the_next_is_for_review():
    # Novuss seed 3 shot 44: the puck grazes pawn 17, the end of the start row held
    # against cushion a, at 0.564 s; the cushion takes the graze and 17 does not move.
    # 8 ms later the puck hits pawn 16, which flies off. The camera sees 16 start and the
    # puck turn; its path in runs into 17 first by more than its noise, so which pawn it
    # met first goes to the referee
    hits = _contacts(NOVUSS, "puck_grazing_a_held_pawn_then_hitting_the_next_tracks.json")
    puck = [(ids, t, conf) for ids, t, conf in hits if 1 in ids]
    assert puck and all(conf < 0.5 for ids, t, conf in puck if t < 0.6)


def test_puck_path_touching_a_held_pawn_by_its_noise_leaves_the_hit_confident():
    # Novuss seed 3 shot 298: the puck comes up to the start row held against cushion b
    # and hits pawn 3 at 0.963 s; its path in touches pawn 4's circle by 0.2 mm, within
    # its noise, before. That is no graze to review
    hits = _contacts(NOVUSS, "puck_just_clear_of_a_held_pawn_into_the_next_tracks.json")
    puck = [(ids, t, conf) for ids, t, conf in hits if 1 in ids]
    assert puck[0][0] == (1, 3) and abs(puck[0][1] - 0.963) < 0.005 and puck[0][2] >= 0.5


def test_puck_unseen_through_its_hit_on_a_pawn_is_found_from_its_way_out_of_the_gap():
    # Novuss seed 3 shot 53: the puck, off cushion b, is lost from view for four frames
    # (0.767-0.867 s, a blur) and hits pawn 8 at 0.813 s in that gap; 8 flies off at
    # 1.9 m/s. No path of the puck is fitted there, but its way out of the gap, run back,
    # meets 8's rest where 8 left. Four frames missing: for review
    hits = _contacts(NOVUSS, "puck_unseen_through_a_hit_on_a_pawn_tracks.json")
    puck = [(ids, t, conf) for ids, t, conf in hits if 1 in ids]
    assert puck[0][0] in ((1, 8), (8, 1)) and abs(puck[0][1] - 0.813) < 0.015
    assert puck[0][2] < 0.5


def test_puck_unseen_through_two_hits_hit_both_pawns_not_one_into_the_other():
    # Novuss seed 1 shot 151: the puck is lost from view for four frames (0.600-0.700 s)
    # and hits pawn 5 at 0.687 s, then pawn 3 at 0.698 s; both leave in the next frame.
    # The path fitted to the puck before the gap runs on past its earlier bend; its
    # straight way out of the gap, run back, meets both. 5 never touched 3
    hits = _contacts(NOVUSS, "puck_unseen_through_two_hits_tracks.json")
    pairs = {frozenset(ids) for ids, t, _ in hits if 0.6 < t < 0.75}
    assert {frozenset((1, 5)), frozenset((1, 3))} <= pairs
    assert frozenset((5, 3)) not in pairs


def test_cue_ball_unseen_after_its_hit_never_runs_on_through_that_ball_into_the_next():
    # pool seed 1 shot 77: the cue ball (3.8 m/s) hits ball 2 at 0.512 s and is unseen in
    # the next frame; 2 passes the hit to ball 3 1 ms later, which flies off at 3.5 m/s.
    # The cue ball's straight way into the gap, run on, would reach 3; but it holds only
    # up to its hit on 2: 2 hit 3
    hits = _contacts(POOL, "cue_ball_unseen_after_a_hit_passed_on_tracks.json")
    pairs = [frozenset(ids) for ids, t, _ in hits if t < 0.6]
    assert frozenset((1, 2)) in pairs and frozenset((2, 3)) in pairs
    assert frozenset((1, 3)) not in pairs


def test_puck_off_a_cushion_into_a_row_end_pawn_presses_that_pawn_into_the_cushion():
    # Novuss seed 3 shot 106: the puck bounces off cushion a at 0.506 s and a frame later,
    # at 0.532 s, hits pawn 10, the end of the start row cushion a holds, at a slant
    # towards the cushion: 10 is pressed into it. The puck's path fitted into the hit
    # spans the bounce and runs on through the cushion; mirrored back inside, it meets
    # 10 from the side away from the cushion
    events = _recorded(NOVUSS, "puck_off_a_cushion_into_a_row_end_pawn_tracks.json")
    hit = [e for e in of(events, EventKind.CONTACT) if [o.id for o in e.objects] == [1, 10]]
    assert hit and abs(hit[0].t_s - 0.532) < 0.005 and hit[0].xy_mm[1] > -485.0 + 15.0
    pressed = [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 10]
    assert [e.cushion for e in pressed] == ["a"] and abs(pressed[0].t_s - 0.532) < 0.005


def test_puck_struck_into_a_row_pawn_near_the_cushion_never_bounced_off_the_cushion():
    # Novuss seed 1 shot 92: the puck, struck at 3.3 m/s, hits pawn 10 of the start row at
    # 0.438 s; its first sighting moving (0.433 s) is still on its way in. Its line out,
    # through that sighting and run back, meets cushion a's touching line, as if it had
    # bounced there; but to get there from its rest in the time it had, it would have
    # run along the cushion four times faster than it came off: no cushion keeps so
    # little. It hit the pawn, and never the cushion
    events = _recorded(NOVUSS, "puck_struck_into_a_row_pawn_near_the_cushion_tracks.json")
    assert [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1 and e.t_s < 0.6] == []
    hits = [tuple(o.id for o in e.objects) for e in of(events, EventKind.CONTACT)]
    assert hits[0] == (1, 10)


def test_cue_ball_into_two_of_a_cluster_credits_the_push_to_the_one_that_gave_it():
    # recorded tracks (pool events benchmark seed 0 shot 241): the cue ball meets ball 3 of
    # a touching three-ball cluster, ball 3 pushes ball 4 at 1.3 m/s at once, and the cue
    # ball meets ball 2 a frame's third later. Ball 4's push is credited to ball 3 (the
    # pack's fit takes both hits in), not only to ball 2, the last one struck
    events = _recorded(POOL, "cue_ball_into_two_of_a_cluster_one_pushing_the_third_tracks.json")
    pushes = {tuple(sorted(e.ids)) for e in of(events, EventKind.CONTACT)
              if 1 not in e.ids and 0.7 < e.t_s < 0.85}
    assert (3, 4) in pushes, pushes


def test_ball_off_a_cushion_into_another_between_two_frames_meets_both():
    # pool seed 3 shot 190: ball 7 (1.3 m/s) meets the foot cushion at 0.967 s and, 23 ms
    # later, ball 8 rolling by (0.990 s), both between the frames at 0.967 and 1.000 s.
    # After that hit 7 runs back into the cushion, so no motion after shows the bounce;
    # its path in, folded back at the cushion, meets 8 where 8 bends
    events = _recorded(POOL, "ball_off_a_cushion_into_another_in_one_frame_tracks.json")
    bounce = [e for e in of(events, EventKind.CUSHION)
              if e.objects[0].id == 7 and 0.9 < e.t_s < 1.03]
    assert [e.cushion for e in bounce] == ["foot"] and abs(bounce[0].t_s - 0.967) < 0.005
    hit = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == {7, 8}]
    assert hit and abs(hit[0].t_s - 0.990) < 0.005


def test_balls_off_a_cushion_meet_the_ones_rolling_by_within_the_frame():
    # pool seed 4 shot 175: ball 7 bounces off the foot cushion at 1.012 s and hits ball 8
    # at 1.035 s, 1.6 ms past a frame; 8 then hits ball 5 at 1.097 s, 34 ms after 5's own
    # bounce off the same cushion, and 8's bend is flagged a frame after 5's. Each path
    # fitted before its bounce runs on through the cushion and passes the other by;
    # folded back at the cushion it meets it
    hits = _contacts(POOL, "break_balls_off_the_foot_cushion_struck_on_tracks.json")
    found = {frozenset(ids): t for ids, t, _ in hits if 1.0 < t < 1.2}
    assert abs(found[frozenset((7, 8))] - 1.035) < 0.005
    assert abs(found[frozenset((5, 8))] - 1.097) < 0.005


def test_puck_set_just_off_a_held_row_and_struck_into_it_hits_that_pawn():
    # Novuss seed 4 shot 162: the puck rests 3 mm off pawn 15 of the start row the cushion
    # holds; struck at 2.8 m/s it hits 15 within a ms and comes straight back over its
    # rest, so its line out, run back, looks like a plain stroke's. But the row it lay by
    # starts with it: the puck hit 15 first, after it was last seen at rest
    events = _recorded(NOVUSS, "puck_set_by_a_held_row_struck_into_it_tracks.json")
    start = of(events, EventKind.SHOT_START)
    first = of(events, EventKind.CONTACT)[0]
    assert first.ids == (1, 15) and 0.400 < first.t_s < 0.415
    assert start and start[0].t_s <= first.t_s


def test_thin_graze_of_two_rolling_balls_is_a_contact():
    # pool seed 1 shot 256: ball 2 (0.8 m/s) grazes ball 1 (0.6 m/s) at 1.703 s, closing
    # at 355 mm/s. Ball 1 hardly turns; their paths, fitted before, pass 3.5 mm apart, a
    # near miss. But 2 leaves its path away from 1 along their line of centres, 270 mm/s
    # faster than the noise of two fitted velocities allows: it was kicked off 1
    hits = _contacts(POOL, "thin_graze_of_two_rolling_balls_tracks.json")
    assert [t for ids, t, _ in hits if set(ids) == {1, 2} and t > 1.5] == pytest.approx(
        [1.703], abs=0.01)


def test_pawn_off_a_cushion_into_a_resting_pawn_meets_both():
    # Novuss seed 0 shot 269: pawn 7, struck at 0.630 s, meets the left cushion at 0.681 s
    # (3.7 m/s) and pawn 5, at rest, 16 ms later. 7's path fitted before runs on through
    # the cushion; folded back at it, it meets 5 where 5 starts from
    events = _recorded(NOVUSS, "pawn_off_a_cushion_into_a_resting_pawn_tracks.json")
    bounce = [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 7 and e.t_s < 0.75]
    assert [e.cushion for e in bounce] == ["left"] and abs(bounce[0].t_s - 0.681) < 0.015
    hit = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == {5, 7}]
    assert len(hit) == 1 and abs(hit[0].t_s - 0.697) < 0.02 and hit[0].t_s > bounce[0].t_s


def test_row_pawns_sliding_to_a_stop_side_by_side_never_strike_each_other():
    # Novuss seed 0 shot 94: the puck drives pawn 9 into the row along cushion b at
    # 0.927 s; the row's pawns slide a few mm and stop, 8 and 9 half a mm apart. Curves
    # fitted to their last sightings' noise bend one into the other; but they touched
    # already and closed at under 50 mm/s: after the push through the row, no contact
    events = _recorded(NOVUSS, "row_pawns_sliding_to_a_stop_side_by_side_tracks.json")
    pairs = [(e.ids, round(e.t_s, 3)) for e in of(events, EventKind.CONTACT) if e.t_s > 0.95]
    assert pairs == []
    assert {frozenset(e.ids) for e in of(events, EventKind.CONTACT)} >= {frozenset((8, 9))}


def test_hit_through_a_settling_cluster_goes_on_down_the_chain():
    # pool seed 0 shot 265: the cue ball hits ball 3 at 1.288 s, one of a cluster still
    # creeping after the break (30 mm/s); 3 hits 5 2 ms later and 5, crossing a gap of a
    # few mm, hits 8 at 1.306 s and stops. 5 hardly shows it moved; 8 flies off along
    # the line from 5. The hit went on down the chain 3-5-8
    hits = _contacts(POOL, "hit_through_a_settling_cluster_tracks.json")
    found = {frozenset(ids): t for ids, t, _ in hits if 1.2 < t < 1.35}
    assert abs(found[frozenset((1, 3))] - 1.288) < 0.01
    assert abs(found[frozenset((3, 5))] - 1.290) < 0.02
    assert abs(found[frozenset((5, 8))] - 1.306) < 0.03


def test_push_down_a_row_with_small_gaps_goes_through_each_pawn():
    # Novuss seed 3 shot 8: pawns strike each other down a row along cushion a, gaps of a
    # few mm between them. 12 hits 11 at 1.126 s; 11 moves 5 mm, too little to show a
    # start, and hits 10 at 1.144 s. 10's start is found first; 12, the mover nearest,
    # stopped 35 mm short of it, with 11 between: 12 hit 11, which hit 10
    hits = _contacts(NOVUSS, "push_through_a_row_with_small_gaps_tracks.json")
    pairs = {frozenset(ids): t for ids, t, _ in hits if 1.1 < t < 1.2}
    assert abs(pairs[frozenset((11, 12))] - 1.126) < 0.03
    assert abs(pairs[frozenset((10, 11))] - 1.144) < 0.03
    assert frozenset((10, 12)) not in pairs


def test_rack_ball_seen_creeping_off_late_was_pushed_at_the_break_not_by_its_neighbour():
    # pool seed 0 shot 230: the break's push through the rack leaves ball 10 creeping at
    # 20 mm/s (7 pushed it at 0.595 s); it is seen leaving only at 0.767 s, a sixth of a
    # second on. Ball 9 beside it creeps too, but 9 never struck 10: the push started it
    hits = _contacts(POOL, "rack_ball_creeping_off_late_after_the_break_tracks.json")
    assert [(ids, round(t, 3)) for ids, t, _ in hits if 10 in ids and t > 0.65] == []
    assert any(10 in ids and abs(t - 0.595) < 0.01 for ids, t, _ in hits)


def test_rack_balls_creeping_apart_never_strike_each_other_again():
    # pool seed 0 shot 280: the break's push leaves balls 3 and 6 creeping apart at 40
    # to 60 mm/s (0.7 s). Curves fitted to their noisy sightings meet at 0.816 s; lines
    # through their sightings since they left show them never closing: no second contact
    hits = _contacts(POOL, "rack_balls_creeping_apart_after_the_break_tracks.json")
    pair = sorted(round(t, 3) for ids, t, _ in hits if set(ids) == {3, 6})
    assert len(pair) == 1 and abs(pair[0] - 0.699) < 0.01, pair


def test_rack_ball_creeping_off_after_all_else_left_rest_was_pushed_at_the_break():
    # pool seed 1 shot 10: the break's push leaves ball 4 creeping at 25 mm/s (2 pushed
    # it at 0.630 s); it is seen leaving at 0.833 s, when no other ball rests. Ball 2,
    # rolling by 9 mm off it then, never touched it
    hits = _contacts(POOL, "rack_ball_creeping_off_when_the_rest_all_move_tracks.json")
    assert sorted(round(t, 3) for ids, t, _ in hits if set(ids) == {2, 4}) == [0.63]


def test_push_to_a_late_creeper_is_reported_once():
    # pool seed 4 shot 115: 8 pushes 13 in the break at 0.605 s, reported with the pack's
    # push; 13 creeps off, seen leaving at 0.767 s, started by that same push
    hits = _contacts(POOL, "rack_push_and_its_late_creeper_tracks.json")
    assert [round(t, 3) for ids, t, _ in hits if set(ids) == {8, 13}] == [0.605]


def test_puck_along_a_row_meets_its_first_pawn_first():
    # Novuss seed 3 shot 124: the puck, struck at 0.403 s, slides along the row the cushion
    # holds and meets pawn 11 at 0.520 s, then 12 at 0.531 s. Its path in, fitted with
    # the two sightings at rest before the stroke, bent into 12 a frame early: 11 was
    # dropped for 12. Fitted from its stroke on, it meets 11 first
    hits = _contacts(NOVUSS, "puck_along_a_row_meets_two_pawns_in_turn_tracks.json")
    first = min((t, ids) for ids, t, _ in hits if 1 in ids)
    assert first[1] == (1, 11) and abs(first[0] - 0.520) < 0.005


def test_rack_ball_the_pack_fit_gave_a_faint_push_creeps_off_from_that_push():
    # pool seed 4 shot 250: the break's push through the rack at 0.654 s nudges ball 10
    # (7 pushes it); the pack's fit gave that push only 34 mm/s, so 10 was not counted a
    # creeper. Seen creeping off at 0.833 s, it was started by that push, not by 7
    # rolling by later
    hits = _contacts(POOL, "rack_ball_nudged_below_a_push_creeps_off_tracks.json")
    pair = [round(t, 3) for ids, t, _ in hits if set(ids) == {7, 10}]
    assert pair == [0.654], pair


def test_rack_balls_rolling_off_side_by_side_never_strike_each_other():
    # pool seed 1 shot 100: the break sends balls 9 and 10 off side by side at 140 to 190
    # mm/s, a few mm apart and parting at 20 mm/s. Curves fitted to their noise touch at
    # 0.787 s; relative to each other they creep apart: no contact
    hits = _contacts(POOL, "rack_balls_rolling_off_side_by_side_tracks.json")
    assert [round(t, 3) for ids, t, _ in hits if set(ids) == {9, 10}] == []


def _pairs_at(spec, name, t_s):
    """The pairs (frozensets of ids) in contact within 10 ms of ``t_s`` in recorded tracks
    tests/data/``name``: a push through a pack is reported for each of its links."""
    return {frozenset(ids) for ids, t, _ in _contacts(spec, name) if abs(t - t_s) < 0.01}


def test_rack_balls_leaving_together_after_the_break_never_pushed_each_other():
    # pool seed 0 shot 20: the break's push through the rack at 0.686 s. The pack's fit
    # shares a weak push (62 and 67 mm/s) between 5 and 6, and between 9 and 10, that the
    # physics never had: each pusher goes on along their line as fast as it would have
    # pushed (10 at 640 mm/s), so others pushed both on together. The real pushes stay
    pairs = _pairs_at(POOL, "rack_balls_leaving_together_after_the_break_tracks.json", 0.686)
    assert {frozenset((5, 6)), frozenset((9, 10))}.isdisjoint(pairs), pairs
    assert {frozenset((4, 6)), frozenset((8, 9)), frozenset((7, 9))} <= pairs, pairs


def test_cue_ball_rolling_on_beside_the_ball_it_met_never_strikes_it_again():
    # pool seed 0 shot 211: the cue ball meets 3, then 2, at 1.30 s, and rolls on beside
    # 2, 5 mm apart, both at 120 to 150 mm/s. Its curve, fitted to the noise, bends into
    # 2 at 1.54 s; lines through each one's sightings either side show neither's velocity
    # changed: no contact
    hits = _contacts(POOL, "cue_ball_rolling_on_beside_the_ball_it_met_tracks.json")
    assert [round(t, 3) for ids, t, _ in hits if set(ids) == {1, 2} and t > 1.4] == []
    assert any(ids == (1, 3) and abs(t - 1.297) < 0.01 for ids, t, _ in hits)


def test_rack_neighbours_of_balls_leaving_fast_were_not_pushed_by_them():
    # pool seed 3 shot 230: the break at 0.602 s sends ball 12 off at 6 m/s (8 pushed it)
    # and 16 at 1.3 m/s (from 11). The pack's fit put pushes of a few per cent of those
    # speeds on their links to 13 and 15, within what a fast ball's velocity is measured
    # to: those are faint; the pushes that sent 12 and 16 off stay
    pairs = _pairs_at(POOL, "rack_neighbours_of_balls_leaving_fast_tracks.json", 0.602)
    assert {frozenset((12, 13)), frozenset((15, 16))}.isdisjoint(pairs), pairs
    assert {frozenset((8, 12)), frozenset((11, 16)), frozenset((5, 8))} <= pairs, pairs


def test_slow_pushes_through_a_rack_are_reported():
    # pool seed 0 shot 85: the break at 0.655 s; 3 pushes 6 at 56 mm/s and 6 pushes 10 at
    # 52 mm/s. A slow ball soon rolls, keeping 5/7 of what a push gave it, so the pack's
    # fit reads such pushes low (under 50 mm/s): they are reported from 30 mm/s
    pairs = _pairs_at(POOL, "rack_slow_pushes_on_the_break_tracks.json", 0.655)
    assert {frozenset((3, 6)), frozenset((6, 10))} <= pairs, pairs


def test_ball_long_at_rest_struck_on_along_its_old_way_was_hit():
    # pool seed 3 shot 215 (break): ball 7 rolled to rest 1.4 s before; the cue ball meets
    # 4 at 2.985 s and 4 meets 7 at 2.989 s, sending it on the way it came in. A roller
    # that only looked at rest goes on so; one still for that long was struck
    hits = _contacts(POOL, "ball_at_rest_since_the_break_struck_on_its_old_way_tracks.json")
    assert any(set(ids) == {4, 7} and abs(t - 2.989) < 0.01 for ids, t, _ in hits), hits


def test_ball_struck_into_the_next_across_a_gap_within_the_frame_is_found():
    # pool seed 3 shot 165 (break): the cue ball meets 4 at 3.331 s, 4 meets 6 across a
    # 5 mm gap at 3.338 s, and 6 pushes 9 at 3.342 s, all after the same frame. 6's onset,
    # run back over a start cut short, lies before 4 left: 4 struck it all the same
    hits = _contacts(POOL, "ball_struck_into_the_next_within_the_frame_tracks.json")
    pairs = [(set(ids), t) for ids, t, _ in hits if 3.3 < t < 3.36]
    assert any(ids == {4, 6} for ids, _ in pairs), pairs
    assert any(ids == {6, 9} for ids, _ in pairs), pairs


def test_ball_struck_into_the_next_that_passes_it_on_across_a_gap_is_found():
    # pool seed 3 shot 45 (break): 12 meets 2 at 3.397 s, 2 meets 4 at 3.403 s, 4 meets
    # 7 across a 4 mm gap at 3.410 s and hardly moves on, and 7 pushes 10 at 3.411 s. 7
    # and 10 start in the frame after, with no mover's path near them: 2's line out of
    # its hit, run on, meets 4, and 4's, sent on along their line of centres, meets 7.
    # (2's onset, run back, lay 40 ms before the hit that started it: it left at the hit)
    hits = _contacts(POOL, "ball_struck_into_the_next_that_passes_it_on_across_a_gap_tracks.json")
    got = {frozenset(ids): t for ids, t, _ in hits if 3.39 < t < 3.42}
    for pair, t_s in (((2, 4), 3.403), ((4, 7), 3.410), ((7, 10), 3.411)):
        assert abs(got.get(frozenset(pair), 0.0) - t_s) < 0.005, (pair, got)


def test_ball_in_a_pack_struck_into_the_next_across_a_gap_is_found():
    # pool seed 4 shot 270 (break): the cue ball meets 4 at 4.342 s; 4, 2 mm from 7,
    # meets it at 4.345 s, and 7 meets 11 across a 5 mm gap at 4.353 s. 4's path fitted
    # after runs at what it kept (150 mm/s); it left at what the hit hands on (630 mm/s),
    # which takes it to 7, and 7 to 11, before 11 is seen off rest
    hits = _contacts(POOL, "ball_in_a_pack_struck_into_the_next_across_a_gap_tracks.json")
    got = {frozenset(ids): t for ids, t, _ in hits if 4.33 < t < 4.37}
    for pair, t_s in (((4, 7), 4.345), ((7, 11), 4.353)):
        assert abs(got.get(frozenset(pair), 0.0) - t_s) < 0.005, (pair, got)


def test_slow_balls_nearest_as_the_window_ends_are_timed_by_the_touch_run_on():
    # pool seed 4 shot 216 (cluster): balls 4 and 1, both rolling at about 100 mm/s, meet
    # at 2.995 s. Their paths fitted before come nearest as the bend's window ends, 2.7 mm
    # apart and still closing, and touch, run on, before the next sighting: that times
    # the contact, not the window's end (2.933 s, when they were seen 4.5 mm apart)
    hits = _contacts(POOL, "slow_balls_nearest_at_the_window_end_touch_after_tracks.json")
    got = [t for ids, t, _ in hits if set(ids) == {1, 4}]
    assert len(got) == 1 and abs(got[0] - 2.995) < 0.05, hits


def test_pawn_run_into_a_corner_pocket_past_the_cushion_behind_it_did_not_bounce():
    # novuss seed 4 shot 21: pawn 2, last seen 0.667 s running at 4 m/s towards corner
    # pocket b_left, falls in at 0.674 s; its line runs on past the pocket's capture
    # circle into the left cushion, which it never reached
    events = _recorded(NOVUSS, "pawn_run_into_a_corner_pocket_past_the_cushion_tracks.json")
    assert [e.objects[0].id for e in of(events, EventKind.CUSHION)
            if e.t_s > 0.6] == []
    [drop] = [e for e in of(events, EventKind.POCKET) if e.objects[0].id == 2]
    assert drop.pocket == "b_left" and abs(drop.t_s - 0.674) < 0.01


def test_puck_off_its_cushion_into_a_pawn_against_it_meets_no_second_cushion():
    # novuss seed 4 shot 54: the puck meets cushion a at 0.484 s and pawn 10, resting
    # against that cushion, at 0.518 s, seen once between. Its velocity before the hit,
    # from its path in, is the one before the cushion: it tells nothing of another
    events = _recorded(NOVUSS, "puck_off_its_cushion_into_a_pawn_against_it_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1]
    assert len(got) == 1 and abs(got[0] - 0.484) < 0.01, got
    assert any({o.id for o in e.objects} == {1, 10} and abs(e.t_s - 0.518) < 0.01
               for e in of(events, EventKind.CONTACT))


def test_puck_just_struck_into_a_pawn_against_the_cushion_comes_back_off_the_pawn_alone():
    # novuss seed 1 shot 68: the puck, struck at 0.400 s (its onset timed 10 ms late),
    # meets pawn 17 at the end of the row along cushion a at 0.5055 s and comes back off
    # it. Its path in, drawn from where it left rest, bends with that onset's error
    # (5 m/s^2, 250 mm/s slow at the hit); the line through its sightings says the pawn
    # alone turned it, no cushion
    events = _recorded(NOVUSS, "puck_just_struck_into_a_pawn_against_the_cushion_tracks.json")
    assert [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1] == []
    assert any({o.id for o in e.objects} == {1, 17} and abs(e.t_s - 0.5055) < 0.01
               for e in of(events, EventKind.CONTACT))


def test_puck_into_a_pawn_by_its_cushion_turned_by_the_pawn_alone_meets_no_cushion():
    # novuss seed 4 shot 154: the puck, running 4 mm off cushion a, meets pawn 10 resting
    # against it at 0.4824 s and turns off it. Its path in, run on, touches the cushion
    # 1.4 ms after the hit; its velocity after changed only along the line of centres
    events = _recorded(
        NOVUSS, "puck_into_a_pawn_by_its_cushion_turned_by_the_pawn_alone_tracks.json")
    assert [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1] == []
    assert any({o.id for o in e.objects} == {1, 10} and abs(e.t_s - 0.4824) < 0.01
               for e in of(events, EventKind.CONTACT))


def test_puck_turned_by_a_pawn_between_the_sightings_its_path_is_fitted_to_meets_no_cushion():
    # novuss seed 3 shot 16: the puck, struck at 0.40 s, meets pawn 10 at the end of the
    # row along cushion a at 0.457 s, between its first two sightings off rest, and turns
    # off it 12 mm short of the cushion. Its path drawn through its start and both
    # sightings bends through that hit and, run on, crosses the cushion
    events = _recorded(NOVUSS, "puck_struck_into_a_pawn_within_its_first_frame_tracks.json")
    assert [e for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1] == []
    assert any({o.id for o in e.objects} == {1, 10} for e in of(events, EventKind.CONTACT))


def test_cushion_touched_as_a_contact_turns_the_object_is_the_one_met_before_it():
    # novuss seed 3 shot 98: the puck meets cushion a at 0.525 s and pawn 17, resting
    # against it, at 0.539 s. Its path in, fitted across that bounce, touches the cushion
    # again 0.3 ms after the hit: no time to have come back to it, the same bounce
    events = _recorded(
        NOVUSS, "puck_off_its_cushion_into_a_pawn_against_it_no_bounce_after_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1]
    assert len(got) == 1 and abs(got[0] - 0.525) < 0.01, got


def test_pawn_struck_into_its_cushion_seen_once_on_the_way_in_met_it():
    # novuss seed 3 shot 157: pawn 4 meets pawn 9 at 0.7645 s (a start no bend shows: the
    # onset's striker, _struck_by); 9 is seen 2 ms later on its way into cushion b, meets
    # it at 0.781 s, is seen twice off it and falls into a pocket at 0.837 s
    events = _recorded(NOVUSS, "pawn_struck_into_its_cushion_seen_once_before_tracks.json")
    got = [(e.cushion, e.t_s) for e in of(events, EventKind.CUSHION) if e.objects[0].id == 9]
    assert len(got) == 1 and got[0][0] == "b" and abs(got[0][1] - 0.781) < 0.01, got


def test_puck_off_a_pawn_into_the_cushion_seen_once_on_the_way_in_met_it():
    # novuss seed 1 shot 177: the puck meets pawn 4 at 0.870 s, is seen at 0.900 s on its
    # way into cushion b, meets it at 0.925 s and is seen twice off it before it is lost
    events = _recorded(NOVUSS, "puck_off_a_pawn_into_the_cushion_seen_once_before_tracks.json")
    got = [(e.cushion, e.t_s) for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1]
    assert any(c == "b" and abs(t - 0.925) < 0.01 for c, t in got), got


def test_ball_struck_just_after_its_striker_met_another_is_not_timed_before_that_hit():
    # pool seed 3 shot 290: ball 12 meets ball 3 at 4.4232 s and ball 6 at 4.4512 s. 6's
    # first sighting off rest is noise 2 mm out, and its onset run back from it lies at
    # 4.400 s, before 12 met 3: the path 12 took to 6 began at that hit. (6, turned by 10
    # and 9 on its way, meets 12 once more at 4.580 s, at 110 mm/s)
    events = _recorded(
        POOL, "ball_struck_just_after_the_striker_met_another_timed_after_that_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CONTACT) if {o.id for o in e.objects} == {12, 6}]
    assert 4.42 < got[0] < 4.46 and all(abs(t - 4.580) < 0.015 for t in got[1:]), got


def test_puck_lost_from_view_over_its_hit_on_a_row_is_not_run_back_past_its_last_sighting():
    # novuss seed 0 shot 134: the puck, seen last at 1.067 s and next at 1.167 s, meets
    # pawn 6 of the row along cushion b at 1.107 s; the row's far end, pawn 9, is seen
    # leaving first. The puck's way out of the gap, run back past its last sighting, passed
    # pawn 9 at 0.98 s: where it never was
    events = _recorded(NOVUSS, "puck_lost_over_a_row_hit_timed_in_the_gap_tracks.json")
    puck = [e for e in of(events, EventKind.CONTACT) if 1 in {o.id for o in e.objects}]
    assert [({o.id for o in e.objects}, round(e.t_s, 2)) for e in puck] == [({1, 6}, 1.11)]
    assert all(abs(e.t_s - 1.107) < 0.01 for e in of(events, EventKind.CONTACT))


def test_pawn_seen_leaving_just_before_the_stroke_went_with_it_not_moved_by_hand():
    # novuss seed 1 shot 246: pawn 11, in the row along cushion a that the puck, struck at
    # 0.410 s, pushes at 0.428 s, is seen 3 mm off its rest in the frame before (noise):
    # its start came before the stroke's, as a hand's would. It slides to rest at 1.209 s;
    # a hand moves nothing as the stroke is played, so that rest is no `moved`
    events = _recorded(NOVUSS, "pawn_seen_leaving_in_the_noise_before_the_stroke_tracks.json")
    assert of(events, EventKind.SHOT_START)
    assert of(events, EventKind.MOVED) == []


def test_slow_start_whose_onset_runs_back_early_is_timed_where_the_striker_reaches_it():
    # novuss seed 4 shot 97: pawn 4, slowing to rest, meets pawn 11 at 1.4016 s; 11 leaves
    # at 100 mm/s and its onset, run back from its first mm in the noise, lies at 1.32 s,
    # before 4's path comes within its noise of touching it (1.40 s)
    events = _recorded(NOVUSS, "pawn_crept_into_timed_where_the_path_reaches_it_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CONTACT) if {o.id for o in e.objects} == {4, 11}]
    assert len(got) == 1 and abs(got[0] - 1.4016) < 0.01, got


def test_pawn_sliding_along_a_cushion_seen_clear_of_it_meets_none():
    # novuss seed 3 shot 81: pawn 6 slides along cushion b from 1.3 s, 2-10 mm off it and
    # drawing away at 60 mm/s; its path in, fitted through the noise, comes back to the
    # line at 1.403 s, when its sightings either side show it 8-10 mm clear
    events = _recorded(NOVUSS, "pawn_sliding_off_a_cushion_meets_none_tracks.json")
    assert [e for e in of(events, EventKind.CUSHION)
            if e.objects[0].id == 6 and e.t_s > 1.3] == []


def test_hit_on_a_pawn_against_the_same_cushion_sends_the_puck_back_to_it_no_more():
    # novuss seed 4 shot 74: the puck meets pawn 17, resting against cushion a, at
    # 0.5167 s and the cushion at 0.5181 s. Found at the cushion at 0.515 s, then at the
    # pawn, it was found at the cushion again 20 ms on, from a path fitted across both:
    # the pawn, no farther from that cushion than the puck, pushed it off it, not back
    events = _recorded(
        NOVUSS, "puck_off_its_cushion_into_a_pawn_against_it_bounces_once_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CUSHION) if e.objects[0].id == 1]
    assert len(got) == 1 and abs(got[0] - 0.518) < 0.01, got


def test_ball_back_off_a_cushion_meets_the_one_it_grazed_again():
    # pool-9ft seed 0 shot 107: ball 2 grazes ball 7 at 1.8856 s (reported from the frame
    # at 1.933 s), meets the foot cushion and, coming back, hits 7 again at 2.0016 s: two
    # movers touching again a tenth of a second on are a second contact, not the first
    # seen again from a later frame
    events = _recorded(POOL, "ball_back_off_a_cushion_meets_the_one_it_grazed_again_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CONTACT)
           if {o.id for o in e.objects} == {2, 7}]
    assert len(got) == 2 and abs(got[0] - 1.886) < 0.01 and abs(got[1] - 2.002) < 0.01, got


def test_balls_meeting_just_after_a_bounce_are_a_contact():
    # pool-9ft seed 0 shot 20: ball 7, off the foot cushion at 1.617 s and seen three
    # times since, meets ball 5 at 1.752 s. Its line through those three, run on, strays
    # too far for the general bend test; the touch test, now run on such short paths and
    # meeting every mover with a path, finds it
    events = _recorded(POOL, "balls_meeting_just_after_a_bounce_tracks.json")
    got = [e.t_s for e in of(events, EventKind.CONTACT)
           if {o.id for o in e.objects} == {5, 7}]
    assert len(got) == 1 and abs(got[0] - 1.752) < 0.015, got


def test_fast_balls_meeting_just_after_their_bounces_are_contacts():
    # pool-9ft seed 3 shot 205, a break: ball 5 meets the foot cushion at 0.985 s and
    # ball 9 at 1.004 s; 7 meets the foot cushion at 1.015 s and 9 at 1.052 s. Each was
    # seen once or not at all between its bounce and its contact: the line from where it
    # bounced through that sighting is its path to the contact
    events = _recorded(POOL, "fast_balls_meeting_just_after_their_bounces_tracks.json")
    got = {frozenset(o.id for o in e.objects): e.t_s for e in of(events, EventKind.CONTACT)
           if 0.95 < e.t_s < 1.1}
    assert abs(got.get(frozenset({5, 9}), 0.0) - 1.004) < 0.01, got
    assert abs(got.get(frozenset({9, 7}), 0.0) - 1.052) < 0.01, got


def test_ball_met_by_two_in_turn_within_a_frame_meets_both():
    # pool-9ft seed 3 shot 67: ball 2 is met by 10 at 1.336 s and by 3 at 1.348 s, both
    # slow (about 215 mm/s). Just bent by 10, 2 has no path fitted yet, only the line
    # through its next sightings: the touch test meets it there, and 3's touch is found
    # (it had been taken for a touch of 3 and 10 at 1.39 s)
    events = _recorded(POOL, "ball_met_by_two_in_turn_within_a_frame_tracks.json")
    got = {frozenset(o.id for o in e.objects): e.t_s for e in of(events, EventKind.CONTACT)
           if 1.3 < e.t_s < 1.45}
    assert abs(got.get(frozenset({3, 2}), 0.0) - 1.348) < 0.01, got
    assert frozenset({3, 10}) not in got, got


def _touches(events, pair, lo, hi):
    return [e.t_s for e in of(events, EventKind.CONTACT)
            if {o.id for o in e.objects} == pair and lo < e.t_s < hi]


def _one_touch(events, pair, lo, hi, at_s, tol_s):
    """Assert that ``pair`` met exactly once between ``lo`` and ``hi``, within ``tol_s``
    of ``at_s``."""
    got = _touches(events, pair, lo, hi)
    assert len(got) == 1 and abs(got[0] - at_s) < tol_s, got


def _first_met(events):
    """The ids of the first contact in ``events`` (none: empty)."""
    contacts = of(events, EventKind.CONTACT)
    return set(contacts[0].ids) if contacts else set()


def _puck_first(events):
    """The first contact in ``events`` the striker (id 1) makes."""
    return next(e for e in of(events, EventKind.CONTACT) if 1 in e.ids)


def _puck_first_right_or_for_review(events, pawn):
    """The striker's first contact names ``pawn``, or is under the rules' review line."""
    first = _puck_first(events)
    assert set(first.ids) == {1, pawn} or first.confidence < 0.5


def _cushions_of(events, obj_id, lo, hi):
    return [(e.cushion, e.t_s) for e in of(events, EventKind.CUSHION)
            if e.objects[0].id == obj_id and lo < e.t_s < hi]


def test_puck_off_a_row_pawn_that_meets_the_pressed_one_beside_it_meets_both():
    # novuss seed 0 shot 72: the puck hits pawn 10 at 0.517 s and, 14 ms later, pawn 11
    # beside it, which the cushion holds: 11 moves 0.1 mm, so only the puck's turn shows
    # it. Its way out, run back, leaves 11's contact circle after it left 10's, and it
    # turned along 11's line of centres as well as 10's
    events = _recorded(NOVUSS, "puck_off_a_row_meets_the_pressed_pawn_beside_tracks.json")
    assert len(_touches(events, {1, 10}, 0.49, 0.55)) == 1
    _one_touch(events, {1, 11}, 0.49, 0.55, 0.531, 0.005)
    assert [c for c, t in _cushions_of(events, 11, 0.49, 0.55)] == ["a"]


def test_puck_off_a_row_pawn_passing_the_next_within_the_noise_meets_one():
    # novuss seed 4 shot 214: the puck hits pawn 3 (held by cushion b) at 0.744 s and
    # leaves along the row; its way out, run back, passes as near pawn 4 as it would had
    # it touched it, but it turned along 3's line of centres alone: no contact with 4,
    # no cushion
    events = _recorded(NOVUSS, "puck_off_a_row_passes_the_next_pawn_tracks.json")
    assert len(_touches(events, {1, 3}, 0.72, 0.8)) == 1
    assert not _touches(events, {1, 4}, 0.72, 0.8)
    assert not _cushions_of(events, 4, 0.72, 0.8)


def test_cue_ball_off_one_ball_of_a_cluster_into_the_next_meets_both():
    # pool-9ft seed 1 shot 101: the cue ball hits 3 at 0.599 s and, 7 ms later, 4, which
    # rests against 2 and passes it the hit. The cue ball's line out, run back, leaves 4's
    # circle after 3's, and it turned along 4's line of centres too
    events = _recorded(POOL, "cue_ball_off_one_into_the_next_of_a_cluster_tracks.json")
    assert len(_touches(events, {1, 3}, 0.55, 0.65)) == 1
    _one_touch(events, {1, 4}, 0.55, 0.65, 0.606, 0.015)
    assert not _touches(events, {3, 4}, 0.55, 0.65)


def test_ball_off_a_cushion_into_a_cluster_ball_left_at_rest_struck_it():
    # pool-9ft seed 0 shot 216: the cue ball hits 2, which passes the hit to 3 (all
    # three touching 4); 4 stays at rest while 3 comes off the foot cushion and strikes it
    # at 0.747 s. 4 leaves at 1.5 m/s a hundred ms after 2 did: no push of 2 started it,
    # nor a creep the pack's fit gave it
    events = _recorded(POOL, "ball_off_a_cushion_into_the_last_of_a_cluster_tracks.json")
    _one_touch(events, {3, 4}, 0.6, 0.9, 0.747, 0.015)
    assert not _touches(events, {2, 4}, 0.6, 0.9)
    assert len(_touches(events, {2, 3}, 0.6, 0.7)) == 1


def test_ball_seen_once_just_off_a_cushion_is_timed_into_the_next_from_its_way_out():
    # pool-9ft seed 3 shot 121: ball 3 meets the right foot cushion at 0.859 s, is seen
    # once a ms after the bounce was timed, then missed a frame; the line from the bounce
    # to that sighting points anywhere, and ran into ball 4 at 0.883 s. It strikes 4 at
    # 0.987 s
    events = _recorded(POOL, "ball_seen_just_off_a_cushion_tracks.json")
    _one_touch(events, {3, 4}, 0.8, 1.1, 0.987, 0.015)


def test_ball_pushed_into_a_cushion_and_back_meets_the_ball_that_pushed_it_again():
    # pool-9ft seed 3 shot 76: the cue ball hits 3, whose push sends 4 into the head
    # cushion at 0.649 s (its onset, run back, held to its last sighting at rest, 6 ms
    # before the push); seen once on its way in, it comes back off the cushion and
    # strikes 3 again at 0.708 s, a tenth of a second after the push
    events = _recorded(POOL, "ball_pushed_off_a_cluster_off_the_cushion_back_into_it_tracks.json")
    assert [c for c, _ in _cushions_of(events, 4, 0.62, 0.7)] == ["head"]
    _one_touch(events, {3, 4}, 0.65, 0.8, 0.708, 0.01)
    assert not _touches(events, {1, 4}, 0.65, 0.8)


def test_puck_grazing_a_pawn_that_moves_less_than_an_onset_met_it_first():
    # novuss seed 1 shot 127: the puck grazes pawn 3 at 0.487 s and turns by 2 degrees;
    # 3 moves to the cushion and back, to rest 3.4 mm from where it lay, no sighting an
    # onset (4.5 sigma) off its rest, but their mean well clear of its noise. The puck then
    # hits pawn 6 at 0.632 s, reported first with confidence 0.8 before
    events = _recorded(NOVUSS, "puck_grazes_a_pawn_moving_it_under_an_onset_tracks.json")
    _one_touch(events, {1, 3}, 0.4, 0.6, 0.487, 0.015)
    assert _first_met(events) == {1, 3}
    assert len(_touches(events, {1, 6}, 0.6, 0.7)) == 1


def test_puck_unseen_into_a_pressed_row_pawn_it_moved_under_an_onset_met_it():
    # novuss seed 1 shot 66: the puck, unseen for four frames, hits pawn 8 of the row
    # along cushion b at 0.867 s and comes back; 8, pressed into the cushion, moves 4.7
    # mm, under an onset, and passes the hit to 9. (9, seen leaving, is still taken for
    # struck by the puck, but no sooner than the puck came off the row: its way out, run
    # back past the bounce, ran through 9 a tenth of a second early, named first)
    events = _recorded(NOVUSS, "puck_unseen_into_a_row_pawn_pressed_into_its_cushion_tracks.json")
    _one_touch(events, {1, 8}, 0.7, 1.0, 0.867, 0.015)
    assert [c for c, _ in _cushions_of(events, 8, 0.8, 0.95)] == ["b"]
    assert _first_met(events) == {1, 8}
    assert not _touches(events, {1, 9}, 0.4, 0.85)


def test_puck_grazing_a_held_pawn_nearest_past_its_centre_met_it_not_the_next():
    # novuss seed 3 shot 164: the puck grazes pawn 16, held by cushion a, at 0.723 s,
    # turning from -89 to +153 mm/s across the row; 16 hardly moves. Its path in, a near
    # miss by a mm, is nearest 16 past its centre, where it points along the row: pawn
    # 17, which the puck passed 40 mm off, was reported met first with confidence 1.0
    events = _recorded(NOVUSS, "puck_grazing_a_held_pawn_past_its_centre_tracks.json")
    _one_touch(events, {1, 16}, 0.6, 0.8, 0.723, 0.015)
    assert _first_met(events) == {1, 16}
    assert not _touches(events, {1, 17}, 0.6, 1.1)


def test_puck_turned_clearly_at_a_held_pawn_that_passed_the_hit_on_met_that_pawn():
    # novuss seed 4 shot 148: the puck, at 3.5 m/s along the row by cushion a, grazes
    # pawn 16 at 0.491 s and turns by 16 degrees; 16, held by the cushion, hardly moves
    # and pushes 17 off along the row. The graze is too thin to push 16 along the row by
    # the line of centres, but where the puck's ways in and out cross touches 16 and no
    # other pawn: 17, which the puck passed 6 mm clear of touching, was named first
    events = _recorded(NOVUSS, "puck_grazing_a_held_pawn_passing_the_hit_on_tracks.json")
    _one_touch(events, {1, 16}, 0.4, 0.6, 0.491, 0.015)
    assert _first_met(events) == {1, 16}
    assert len(_touches(events, {16, 17}, 0.4, 0.6)) == 1
    assert not _touches(events, {1, 17}, 0.4, 0.9)


def test_cue_ball_curving_past_a_creeping_ball_that_goes_on_unchanged_did_not_meet_it():
    # pool seed 4 shot 241: the cue ball, curving on its spin at 300 mm/s, passes 3 mm
    # clear of ball 4 at 0.69 s; 4, creeping at 50 mm/s since the cue ball's first hit,
    # goes on unchanged. The cue ball's fitted path met 4's, and its own lines either
    # side of that touch are a curve and the next contact's bend (3, at 0.751 s): 1 on 4
    # and 4 on 3 were reported. 4 going on unchanged says no impulse passed
    events = _recorded(POOL, "cue_ball_curving_past_a_creeping_ball_tracks.json")
    assert not _touches(events, {1, 4}, 0.6, 1.0)
    assert not _touches(events, {3, 4}, 0.6, 1.0)
    _one_touch(events, {1, 3}, 0.6, 1.0, 0.751, 0.025)


def test_cue_ball_lost_just_after_a_hit_is_not_run_on_its_way_in_into_the_ball_again():
    # pool seed 4 shot 47: the cue ball meets ball 6 at 1.753 s, is seen once 14 ms after
    # and then lost for four frames while it follows 6 on its spin. No bend restarted its
    # fit, so its path was its way in, run on through the gap: it met 6 again at 1.89 s,
    # 110 mm from where it was
    events = _recorded(POOL, "cue_ball_lost_just_after_a_hit_tracks.json")
    _one_touch(events, {1, 6}, 1.0, 2.1, 1.753, 0.01)


def test_balls_rolling_slowly_apart_off_their_contact_do_not_meet_again():
    # pool seed 0 shot 202: the cue ball meets ball 2 at 1.891 s, and the two roll off at
    # 100 mm/s each, apart along their line of centres at only 20 mm/s, 3 mm clear of
    # touching; a sighting 3 mm off bent the cue ball's fitted path into 2 at 2.02 s
    events = _recorded(POOL, "balls_rolling_slowly_apart_after_their_contact_tracks.json")
    _one_touch(events, {1, 2}, 1.5, 2.3, 1.891, 0.015)


def test_puck_struck_into_its_own_cushion_bounces_though_it_runs_on_into_a_pawn():
    # Novuss seed 0 shot 242: the puck, resting 10 mm off cushion a, is struck into it and
    # meets it at 0.424 s; seen once 9 ms after, 3 mm clear of pawn 10, it meets 10 at
    # 0.438 s. Its way from the cushion to that sighting passes 10 by its noise, but it
    # was still closing on 10 there: it had not come off it
    events = _recorded(NOVUSS, "puck_struck_into_its_own_cushion_then_a_pawn_tracks.json")
    assert _first_cushion(events, 1, "a", 0.424, 0.005)
    _one_touch(events, {1, 10}, 0.3, 1.0, 0.438, 0.005)


def test_ball_creeping_by_never_starts_one_that_leaves_fast():
    # pool seed 1 shot 105 (a break): ball 7 creeps to rest 1 mm clear of ball 10; at
    # 1.3135 s the cue ball meets 3, which passes the hit through 6 on to 10 (gaps under
    # a mm), and 10 leaves at 400 mm/s. 7, at 20 mm/s, could not have sent it off so fast
    events = _recorded(POOL, "rack_ball_creeping_by_never_starts_one_that_leaves_fast_tracks.json")
    assert not _touches(events, {7, 10}, 1.0, 1.9)
    assert _touches(events, {3, 6}, 1.0, 1.9) and _touches(events, {6, 10}, 1.0, 1.9)


def test_row_pushed_to_its_far_end_before_the_stroke_shows_passes_the_push_down_it():
    # Novuss seed 4 shot 60: the puck, unseen for three frames from its stroke, meets pawn
    # 15 of the row cushion a holds at 0.425 s; the push runs down 14, 13, 12 and 11,
    # which hardly move, to 10, seen leaving at 1.3 m/s two frames before the puck is. 10
    # was no hand's: once the stroke shows, the row's pushes explain it
    events = _recorded(NOVUSS, "row_pushed_to_its_far_end_before_the_stroke_shows_tracks.json")
    for pair in ({15, 14}, {14, 13}, {13, 12}, {12, 11}, {11, 10}):
        _one_touch(events, pair, 0.3, 0.9, 0.426, 0.01)


def test_row_whose_far_end_is_nudged_along_it_passed_the_push_down_the_row():
    # Novuss seed 3 shot 162: the puck meets pawn 8, the end of the row 8-7-6-5-4-3-2 that
    # cushion b holds, at 1.505 s; the push runs down the row, whose inner pawns hardly
    # move, and only its far end, 2, moves off: 3.5 mm along the row, no onset to time
    events = _recorded(NOVUSS, "row_pushed_to_its_far_end_that_barely_moves_tracks.json")
    _one_touch(events, {1, 8}, 1.0, 1.95, 1.505, 0.01)
    for pair in ({8, 7}, {7, 6}, {6, 5}, {5, 4}, {4, 3}, {3, 2}):
        _one_touch(events, pair, 1.0, 1.95, 1.507, 0.01)


def test_row_far_end_nudged_seen_late_still_passed_the_push_down_the_row():
    # Novuss seed 4 shot 276: the puck meets pawn 10, the end of the row 10-17 cushion a
    # holds, at 0.443 s; the far end, 17, moves 3 mm along the row, which its sightings
    # (frames lost after the hit) show only 0.2 s on
    events = _recorded(NOVUSS, "row_far_end_nudged_seen_late_tracks.json")
    for k in range(10, 17):
        _one_touch(events, {k, k + 1}, 0.3, 1.1, 0.443, 0.03)


def test_row_end_struck_away_from_the_row_passes_no_push_down_it():
    # Novuss seed 0 shot 44: a split hit at a row's end; the puck meets pawn 9 at 1.468
    # s, driving it away from the row 8-7-6-5-4-3-2 that cushion b holds, then 8 at 1.474
    # s, whose push runs down the row and nudges its far end. 9 pushed nothing on to 8
    events = _recorded(NOVUSS, "row_end_struck_away_from_the_row_in_a_split_hit_tracks.json")
    assert not _touches(events, {9, 8}, 1.0, 1.95)
    for pair in ({8, 7}, {7, 6}, {6, 5}, {5, 4}, {4, 3}, {3, 2}):
        _one_touch(events, pair, 1.0, 1.95, 1.474, 0.02)


def test_pushes_through_a_rack_are_not_doubted_for_their_order():
    # a break's impulse passes each rack ball's touching neighbours at once: which pair
    # it crossed first is no question, so two pushes from one ball at one time keep the
    # confidence each has (a split hit's two contacts of a mover doubt their order)
    events, res, _, t_hit = rack_break("9ball", 3, 7000.0, seed=0)
    pushes = [e for e in of(events, EventKind.CONTACT)
              if "cue_ball" not in e.labels and abs(e.t_s - t_hit) < 0.01]
    pairs = [(e.objects[0].id, e.t_s) for e in pushes]
    shared = [e for e in pushes if pairs.count((e.objects[0].id, e.t_s)) > 1]
    assert shared and all(e.confidence >= 0.5 for e in shared), [
        (e.ids, e.confidence) for e in pushes]


def test_ball_off_a_cushion_into_one_rolling_up_behind_it_within_a_frame_meets_both():
    # pool-9ft seed 0 shot 76: ball 2 meets cushion left_head at 0.952 s and, 12 ms later,
    # ball 4 rolling up behind it. Both paths are fitted across 4's slide to roll, and the
    # fold of 2's at the cushion misses 4 by 9 mm: within the contact gate, both bent
    events = _recorded(POOL, "ball_off_a_cushion_into_one_rolling_by_within_a_frame_tracks.json")
    assert _cushions_of(events, 2, 0.9, 1.0) and abs(
        _cushions_of(events, 2, 0.9, 1.0)[0][1] - 0.952) < 0.02
    _one_touch(events, {2, 4}, 0.9, 1.05, 0.964, 0.01)


def test_slow_ball_that_barely_bends_on_a_resting_one_is_timed_by_the_hinge():
    # pool-9ft seed 1 shot 66: ball 1, rolling at 83 mm/s, meets resting ball 2 at 3.014
    # s and goes on at 24 mm/s, too gently bent to split its path; the quadratic fitted
    # across the hit, run back, reaches 2 at 3.071 s. Two lines joined at the hit time it
    events = _recorded(POOL, "slow_ball_into_a_resting_one_bends_gently_tracks.json")
    _one_touch(events, {1, 2}, 2.9, 3.2, 3.014, 0.02)


def test_hinge_fit_finds_where_a_mover_slowed():
    # 90 mm/s, then 25 mm/s from tau = 0, 0.7 mm noise: the hinge at 0 fits best, and
    # the position there is where the mover was
    from adjudication.detection.fitting import hinge_fits

    rng = np.random.default_rng(3)
    tau = np.arange(-5, 6) / 30
    x = np.where(tau < 0, 90.0 * tau, 25.0 * tau)
    xy = np.column_stack([x, 0.5 * x]) + rng.normal(0.0, 0.7, (len(tau), 2))
    hinges = np.arange(-0.1, 0.1, 0.005)
    ssr, at = hinge_fits(tau, xy, hinges)
    best = int(np.argmin(ssr))
    assert abs(hinges[best]) < 0.02 and np.linalg.norm(at[best]) < 2.5
    assert ssr[best] < 0.5 * ssr[0]


def test_row_pawn_that_bounces_off_its_cushion_was_not_pushed_along_the_row():
    # novuss seed 4 shot 48: the puck meets pawn 10 of the row 10-17 cushion a holds and,
    # 4 ms later, 11 beside it, which bounces off the cushion, out of the row. A push
    # from 10 along the row could not send it off the row: 10 pushed nothing into 11
    events = _recorded(NOVUSS, "puck_into_a_row_junction_pawn_bounced_out_tracks.json")
    assert not _touches(events, {10, 11}, 0.3, 0.8)
    _one_touch(events, {11, 12}, 0.3, 0.8, 0.445, 0.02)


def test_puck_into_a_row_junction_meets_the_pawn_that_bounces_out():
    # novuss seed 0 shot 208: the puck meets pawns 11 and 12 of the row cushion a holds,
    # 12 at 0.440 s; 12 bounces off the cushion, so the push down the row to 17 went
    # from 12, which the puck met, not from 11 into it
    events = _recorded(NOVUSS, "puck_into_a_row_junction_both_pawns_met_tracks.json")
    assert not _touches(events, {11, 12}, 0.3, 0.8)
    assert _touches(events, {1, 12}, 0.42, 0.46)


def test_puck_along_a_row_meets_the_next_pawn_it_nudged_off_the_row():
    # novuss seed 0 shot 16: the puck meets pawn 11 of the row 10-17 cushion a holds at
    # 0.567 s and, 9 ms later, 12, which it presses into the cushion: 12 settles 2.7 mm
    # off the row (never an onset), and the push down the row to 17 went from 12. The
    # line between the puck's sightings cuts the corner of its bend off 11 and into 12
    events = _recorded(NOVUSS, "puck_along_a_row_meets_the_next_pawn_nudged_off_it_tracks.json")
    assert not _touches(events, {11, 12}, 0.4, 0.9)
    _one_touch(events, {1, 12}, 0.4, 0.9, 0.577, 0.01)
    assert [c for c, _ in _cushions_of(events, 12, 0.5, 0.7)] == ["a"]


def test_cushion_pressed_at_a_doubtful_contact_is_no_surer_than_that_contact():
    # novuss seed 0 shot 208: the puck meets pawns 11 and 12 of a row within a ms, which
    # of them first is a coin toss; each press into cushion a stands only if its contact
    # does, so it carries that contact's doubt
    events = _recorded(NOVUSS, "puck_into_a_row_junction_both_pawns_met_tracks.json")
    contacts = {(e.objects[1].id, e.t_s): e.confidence for e in of(events, EventKind.CONTACT)}
    pressed = [(e, contacts[(e.objects[0].id, e.t_s)]) for e in of(events, EventKind.CUSHION)
               if (e.objects[0].id, e.t_s) in contacts]
    assert any(c < 0.5 for _, c in pressed), pressed
    assert all(e.confidence <= c for e, c in pressed), pressed


def test_pawn_bounced_off_its_cushion_is_credited_to_the_puck_not_its_neighbour():
    # novuss seed 4 shot 48: pawn 11 bounces off cushion a, out of its row, after the
    # puck met 10 and then it (4 ms apart); 10, which it rested touching, moves off as
    # well but could push it only along the row: the puck met 11, a split hit whose
    # order the frames cannot tell (for review)
    events = _recorded(NOVUSS, "puck_into_a_row_junction_pawn_bounced_out_tracks.json")
    met = [e for e in of(events, EventKind.CONTACT) if set(e.ids) in ({1, 10}, {1, 11})]
    assert {frozenset(e.ids) for e in met} == {frozenset({1, 10}), frozenset({1, 11})}
    assert all(e.confidence < 0.5 for e in met)


def test_split_hit_at_a_row_end_credits_the_puck_with_the_next_pawn():
    # Novuss seed 0 shot 44: the puck meets pawn 9 at the end of a row cushion b holds,
    # driving it away from the row, and 6 ms later 8, whose push runs down the row. Where
    # it met 9 it lay a mm from touching 8: it met both, a split hit whose order the
    # frames cannot tell, and pressed 8 into cushion b
    events = _recorded(NOVUSS, "row_end_struck_away_from_the_row_in_a_split_hit_tracks.json")
    first = [e for e in of(events, EventKind.CONTACT) if set(e.ids) in ({1, 9}, {1, 8})]
    assert {frozenset(e.ids) for e in first} == {frozenset({1, 9}), frozenset({1, 8})}
    assert all(abs(e.t_s - 1.471) < 0.01 and e.confidence < 0.5 for e in first)
    assert [c for c, _ in _cushions_of(events, 8, 1.4, 1.55)] == ["b"]


def test_balls_meeting_while_one_is_hidden_are_met_where_their_paths_pass_within_noise():
    # pool seed 3 shot 200 (a break): ball 2, unseen for four frames, meets ball 10 (at
    # 1 m/s) at 1.468 s. Both bends only the touch test finds, and their paths, 2's run on
    # from where it was last seen, pass 0.4 mm apart: within the noise of a touch, that
    # touch (a near pass of a mover a touch test bent is no contact otherwise)
    events = _recorded(POOL, "balls_meeting_while_one_is_hidden_tracks.json")
    met = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == {2, 10}]
    assert len(met) == 1 and abs(met[0].t_s - 1.468) < 0.02


def test_thin_graze_is_met_where_the_touch_test_bends_the_striker_along_the_line_of_centres():
    # pool seed 0 shot 239: the cue ball grazes ball 7 at 1.4405 s, each turned by about
    # 80 mm/s, less than two fitted velocities' noise (_kick_least, 180 mm/s); 7's path
    # bends too little for any test. The cue ball's sightings leave its path, frame after
    # frame, away from 7 along their line of centres (the touch test), and their paths
    # pass within a sigma of touching: that graze
    events = _recorded(POOL, "thin_graze_turning_neither_ball_past_the_noise_tracks.json")
    met = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == {1, 7}]
    assert len(met) == 1 and abs(met[0].t_s - 1.4405) < 0.02


def test_puck_seen_touching_another_pawn_on_its_way_in_names_its_first_contact_for_review():
    # Novuss seed 4 shot 224: the puck, struck along a row cushion a holds, grazes pawn
    # 14 (which hardly moves) and 4 ms later meets 13, whose push runs down the row. Its
    # one sighting on the way in lies within the noise of touching 14: 13, the pawn it
    # turned off, may not have been the first it met, so its contact is for review
    events = _recorded(NOVUSS, "puck_touching_a_pawn_before_the_one_it_turned_off_tracks.json")
    first = _puck_first(events)
    assert set(first.ids) == {1, 13} and first.confidence < 0.5


def test_puck_off_a_held_pawn_passing_its_neighbour_met_only_the_pawn_it_hit():
    # Novuss seed 4 shot 52: the puck hits pawn 4, which cushion b holds, and comes off
    # past its neighbour 3, 2.7 mm clear. Its turn has a share along 3's line of centres
    # beyond the noise of its fitted ways in and out (a seventh of the turn: those fits,
    # run a frame back to the hit, err more than their noise says), but no more: one
    # contact, and 3 neither met nor pressed into its cushion
    events = _recorded(NOVUSS, "puck_off_a_held_pawn_past_its_neighbour_tracks.json")
    assert [set(e.ids) for e in of(events, EventKind.CONTACT) if 1 in e.ids] == [{1, 4}]
    assert not _cushions_of(events, 3, 0.8, 1.2)


def test_cue_ball_into_a_touching_triangle_met_the_ball_its_turn_runs_along():
    # pool seed 3 shot 146: the cue ball meets ball 2 of a touching triangle (2, 3, 4) at
    # 0.7312 s; its fitted path in runs a mm into 4 a ms earlier, and 4, which never moves,
    # could have passed a hit on to 3. The cue ball's turn runs along its line of centres
    # with 2, not with 4: it met 2, the first contact (for review: the paths alone would
    # have had 4)
    events = _recorded(POOL, "cue_ball_into_a_triangle_turned_by_the_ball_it_met_tracks.json")
    met = [set(e.ids) for e in of(events, EventKind.CONTACT) if 1 in e.ids]
    assert met[0] == {1, 2} and {1, 4} not in met


def test_hit_on_a_ball_drifting_beside_another_passes_through_to_it_at_once():
    # pool seed 3 shot 25 (a break): balls 2 and 4 drift side by side a mm apart at 70
    # mm/s; the cue ball meets 2 at 0.9512 s and 2 passes the hit to 4 3 ms later. Their
    # paths, fitted across the hit to the noise, met 50 ms on: the pair touched already
    # when 2 was hit, so the hit went through then
    events = _recorded(POOL, "hit_passed_through_a_drifting_pair_tracks.json")
    met = [e for e in of(events, EventKind.CONTACT) if set(e.ids) == {2, 4} and e.t_s > 0.9]
    assert len(met) == 1 and abs(met[0].t_s - 0.9545) < 0.01


def test_puck_off_a_pawn_into_a_cushion_it_is_seen_only_leaving_met_that_cushion():
    # Novuss seed 4 shot 105: the puck, struck from its rest, meets pawn 7 at 0.4301 s
    # (found from 7's start), is seen once on its way on, and meets cushion a at 0.4630 s,
    # 3 ms before it is seen coming off. Its way in from rest bends at 7, so it does not
    # run on to the cushion; its way in from where it met 7 does
    events = _recorded(NOVUSS, "puck_off_a_pawn_into_the_cushion_before_seen_again_tracks.json")
    assert [(c, round(t, 2)) for c, t in _cushions_of(events, 1, 0.4, 0.6)] == [("a", 0.46)]


def test_puck_off_its_cushion_beside_a_held_pawn_did_not_meet_the_pawn():
    # Novuss seed 6 shot 148: the puck, struck into cushion a, comes off it at 0.4621 s
    # 5 mm clear of pawn 10, which the cushion holds and which never moves. The cushion
    # is found from its way out; its bend, found a frame later, is that bounce, though
    # its path in, run on past the cushion, reaches 10
    events = _recorded(NOVUSS, "puck_off_its_cushion_beside_a_held_pawn_tracks.json")
    assert not of(events, EventKind.CONTACT)
    assert [c for c, _ in _cushions_of(events, 1, 0.4, 0.6)] == ["a"]


def test_puck_into_a_junction_met_the_pawn_its_path_touched_first():
    # Novuss seed 4 shot 72: the puck meets pawn 5, which cushion b holds, at 0.9663 s,
    # beside pawn 6. Its path in touches 5 and passes within the gate of 6 a fraction of
    # a ms later, when it had turned off 5 already: one contact, and 6 neither met nor
    # pressed into the cushion
    events = _recorded(NOVUSS, "puck_into_a_junction_touching_one_pawn_first_tracks.json")
    met = [set(e.ids) for e in of(events, EventKind.CONTACT) if 1 in e.ids]
    assert met[0] == {1, 5} and {1, 6} not in met
    assert not _cushions_of(events, 6, 0.9, 1.1)


def test_stroke_into_a_junction_names_no_pawn_its_way_in_cannot_bounce_off():
    # Novuss seed 6 shot 164: the puck, struck down and left from 12 mm above the junction
    # of pawns 16 and 17, meets 16 at 0.4270 s and leaves to the left; 16, pressed into
    # cushion a, sends 17 off to the right. The line out, run back, leaves 17's touching
    # circle last, but no speed along the way in from the puck's rest turns off 17 onto
    # it (it would have to come in backwards): 17 is not named with confidence
    events = _recorded(NOVUSS, "stroke_off_the_far_pawn_of_a_junction_tracks.json")
    _puck_first_right_or_for_review(events, 16)


def test_stroke_into_its_own_cushion_seen_twice_before_a_graze_met_that_cushion():
    # Novuss seed 5 shot 12: the puck, at rest 12 mm from cushion a until 0.40 s, is struck
    # into it at a slant and meets it at 0.4230 s; it grazes pawn 17 at 0.4849 s, between
    # its second and third sightings, so no three lie on a line. The line through the
    # first two, run back, meets the cushion, and the way in from its rest reaches it
    events = _recorded(NOVUSS, "puck_off_its_cushion_seen_twice_before_a_graze_tracks.json")
    found = _cushions_of(events, 1, 0.38, 0.48)
    assert [c for c, _ in found] == ["a"] and abs(found[0][1] - 0.4230) < 0.005


def test_stroke_off_its_cushion_into_a_row_end_met_the_cushion_first():
    # Novuss seed 1 shot 272: the puck, at rest 14 mm from cushion a, is struck into it
    # at a slant, meets it at 0.4274 s, is seen once at the cushion, and meets pawn 17,
    # the row's end, at 0.4515 s. That sighting lies off the straight way from its rest
    # to where it met 17, and on the way bent at cushion a: the cushion came first
    events = _recorded(NOVUSS, "stroke_off_its_cushion_into_a_row_end_tracks.json")
    found = _cushions_of(events, 1, 0.38, 0.46)
    assert [c for c, _ in found] == ["a"] and abs(found[0][1] - 0.4274) < 0.01
    first = _puck_first(events)
    assert set(first.ids) == {1, 17} and first.t_s > found[0][1]


def test_stroke_whose_line_out_passes_just_outside_a_row_end_met_it_where_nearest():
    # Novuss seed 5 shot 202: the puck, struck at 0.43 s, meets pawn 17, the end of a row
    # cushion a holds, at 0.4524 s between two sightings and leaves up and left; the row
    # barely moves but its far end flies off. The line out, run back, passes 0.6 mm
    # outside 17's touching circle, within the noise: it touched 17 where it came nearest,
    # not where it leaves the circle widened by the noise (after it was seen)
    events = _recorded(NOVUSS, "stroke_grazing_a_row_end_off_the_line_out_tracks.json")
    first = _puck_first(events)
    assert set(first.ids) == {1, 17} and abs(first.t_s - 0.4524) < 0.02


def test_stroke_whose_way_runs_into_a_row_credits_the_far_end_to_the_pawn_it_met():
    # Novuss seed 6 shot 202: the puck, struck at 3 m/s, meets pawns 15 and 16 of a row
    # cushion a holds 0.6 ms apart, between two sightings; 16 sends 17, the row's end,
    # off at 1.7 m/s. The puck's way from its rest, run on to 17, runs through 16: it met
    # 16 (or 15), not 17, whose start is 16's push; which of the junction's two came
    # first the frames cannot tell
    events = _recorded(NOVUSS, "stroke_into_a_junction_beside_a_row_end_tracks.json")
    assert not _touches(events, {1, 17}, 0.38, 0.5)
    _puck_first_right_or_for_review(events, 15)
    assert [c for c, _ in _cushions_of(events, 16, 0.38, 0.5)] == ["a"]


def test_puck_along_a_row_reaching_one_pawn_within_the_noise_before_the_next_is_for_review():
    # Novuss seed 7 shot 136: the puck runs at 2.3 m/s along a row cushion a holds,
    # passes pawn 17 1.8 mm clear and grazes 16 at 0.4965 s, turning 15 degrees. Its
    # noisy path in reaches 17's touching circle by nothing, and 16's 3 mm deep 7 ms on:
    # it may have passed 17 by, and which it met first is for review, not named with
    # confidence
    events = _recorded(NOVUSS, "puck_along_a_row_skims_one_pawn_grazes_the_next_tracks.json")
    _puck_first_right_or_for_review(events, 16)


def test_hit_moved_to_a_row_neighbour_the_path_in_run_on_meets_is_for_review():
    # Novuss seed 8 shot 156: the puck, struck at 3.3 m/s, meets pawn 14 of a row cushion
    # a holds at 0.4635 s, unseen, and leaves; the hit is timed 6 ms late, so its first
    # sighting after lies on its path in, which, run on, meets 14's neighbour 13 too. The
    # push down the row can come from either: the frames cannot tell which it met, and
    # the hit moved onto 13 is for review, not named with confidence
    events = _recorded(NOVUSS, "stroke_into_a_row_pawn_its_path_run_on_meets_the_next_tracks.json")
    _puck_first_right_or_for_review(events, 14)
