"""Event detection against the physics' exact event log (issue: event detection).

    python benchmarks/events.py [--shots 300] [--seeds 0,1,2] [--write]
    python benchmarks/events.py --show --seeds 0,1 [--tables novuss]  # every miss, shot by shot
    python benchmarks/events.py --tables novuss --seeds 0 --only 44   # one shot, all its events

For each table type, ``--shots`` shots are simulated (pool: breaks, cluster shots, split
hits, random shots at speed; Novuss: puck shots from the start rows and from scattered
pawns), sampled at 30 fps into ``Tracks`` with realistic noise (gaussian 1 mm, 2 % single
dropouts, short gaps; ``simulation.synthetic_tracks``), and run through
``MotionEventDetector`` and ``ShotSegmenter``. Detected events are matched to the exact
events (same kind, same objects, same cushion/pocket/line, time within a tolerance).

Each seed is a different set of shots. Seeds 0 and 1 (and 3 to 8, run with ``--seeds``)
are for development: their misses are studied shot by shot (``--show``) and the detector is
changed for them. Seed 2 is held out: nobody looks at its shots one by one, so its figures
say how the detector does on shots it was not fitted to.

What counts as an observable ground-truth event: a contact whose normal approach speed is
at least 50 mm/s (slower ones are the physics' inelastic settling of touching objects and
pushes, which move nothing a camera sees), once per pair within 0.1 s, and of a push
between objects resting touching only one that moves its struck object, or whatever that
passes the impulse on to, at least 3 mm before it rests (3 sigma of the noise: a pushed
Novuss row passes an impulse of 100 mm/s and more from pawn to pawn, and where its far end
barely moves either, nothing tells the pushes happened); cushions likewise;
line crossings of the detector's lines found on a 2 ms grid, but for a dip past a line and
back that goes no deeper than 2 mm (twice the position noise: no camera tells it; the
Novuss zone test, RULES.md 1.3, wants the centre past the line by its half width and the
hole's radius, over 4 mm, so no call turns on it). A detected event that matches no
observable event but one the physics logged slower (or repeated within 0.1 s, or such a
dip) happened: it counts neither as right nor as false ("don't care", as MOT benchmarks
treat objects too small to score).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudication.detection import (  # noqa: E402
    MotionEventDetector,
    ShotSegmenter,
    default_lines,
    signed_depth_mm,
)
from benchmarks.report import replace_section  # noqa: E402
from calibration.tables import Family, TableSpec, get_table  # noqa: E402
from simulation import physics  # noqa: E402
from simulation.racks import cue_ball_in_kitchen, novuss_start, pool_rack  # noqa: E402
from simulation.synthetic_tracks import TrackNoise, sample_tracks  # noqa: E402

FPS = 30.0
TOL_S = {"contact": 0.05, "cushion": 0.05, "pocket": 0.1, "off_table": 0.1,
         "line_cross": 0.05, "shot_start": 0.05, "shot_end": 0.5, "moved": 0.5,
         "placed": 0.5}
MIN_SPEED_MM_S = 50.0
REPEAT_S = 0.1  # a contact or cushion of the same objects again within this: don't care
PUSH_SEEN_MM = 3.0  # a push that then moves nothing this far: don't care (push_moved_mm)
PASSED_ON_S = 0.01  # an impulse a pushed object passes on within this is the same push's
SHALLOW_MM = 2.0  # a line crossed and crossed back no deeper than this: don't care


_SPLIT = ("contact", "cushion")  # kinds reported also by whether the objects rested touching


def _sub(kind: str, frozen_push: bool) -> str:
    return f"{kind}: touching at rest" if frozen_push else f"{kind}: apart"


def _same_event(e, g: dict) -> bool:
    """Whether detected event ``e`` is of ground-truth event ``g``'s kind, objects (a shot
    end has none) and cushion, pocket or line; the time is matched apart."""
    if e.kind.value != g["kind"]:
        return False
    if g["kind"] != "shot_end" and set(e.ids) != set(g["ids"]):
        return False
    return not g.get("name") or (e.cushion or e.pocket or e.line) == g["name"]


def _free_spot(rng, spec, occ, r, margin=5.0):
    hx, hy = spec.half_wh_mm
    for _ in range(500):
        p = np.array([rng.uniform(-hx + r + margin, hx - r - margin),
                      rng.uniform(-hy + r + margin, hy - r - margin)])
        # (clear of the pockets, on both tables)
        if np.min(np.linalg.norm(spec_pockets(spec) - p, axis=1)) < 90:
            continue
        if not occ or np.min(np.linalg.norm(np.array(occ) - p, axis=1)) > 2 * r + 2:
            return p
    return None


def spec_pockets(spec):
    return np.array([pk.centre_xy_mm for pk in spec.pockets])


def pool_case(kind: str, rng: np.random.Generator, spec: TableSpec):
    r = spec.object_for("cue_ball").radius_mm
    if kind == "break":
        labels, xy = pool_rack(rng.choice(["8ball", "9ball", "10ball"]), spec, rng)
        cue = np.array(cue_ball_in_kitchen(spec, rng))
        target = xy[0]
        speed = rng.uniform(5000, 8000)
        labels = ("cue_ball", *labels)
        xy = np.vstack([cue, xy])
        aim = target + rng.normal(0, 3, 2)
    else:
        n = int(rng.integers(3, 10))
        labels = ["cue_ball"] + [f"ball_{k}" for k in rng.choice(np.arange(1, 16), n,
                                                                 replace=False)]
        occ: list = []
        if kind in ("cluster", "split"):
            c = _free_spot(rng, spec, occ, 3 * r, margin=3 * r)
            ang = rng.uniform(0, 2 * math.pi)
            u = np.array([math.cos(ang), math.sin(ang)])
            w = np.array([-u[1], u[0]])
            if kind == "split":  # two balls side by side, a small gap: a split hit
                gap = rng.uniform(0.5, 6.0)
                occ += [c + w * (r + gap / 2), c - w * (r + gap / 2) + u * rng.uniform(0, 8)]
            else:
                occ += [c, c + u * (2 * r + 0.2), c + (u * 0.5 + w * 0.866) * (2 * r + 0.2)]
            target = c
        for _ in range(n - len(occ)):
            p = _free_spot(rng, spec, occ, r)
            if p is not None:
                occ.append(p)
        labels = labels[:len(occ) + 1]
        xy = np.array(occ)
        if kind == "random":
            target = xy[int(rng.integers(1, len(xy)))] if len(xy) > 1 else xy[0]
        d = rng.uniform(300, 900)
        cue = None
        for _ in range(100):
            ang = rng.uniform(0, 2 * math.pi)
            cand = target - d * np.array([math.cos(ang), math.sin(ang)])
            if spec.on_surface(cand[None], r + 5)[0] and np.min(
                    np.linalg.norm(xy - cand, axis=1)) > 2 * r + 5 and np.min(
                    np.linalg.norm(spec_pockets(spec) - cand, axis=1)) > 90:
                cue = cand
                break
        if cue is None:
            return None
        labels = ("cue_ball", *labels[1:])
        xy = np.vstack([cue, xy])
        off = 0.0 if kind == "split" else rng.uniform(-1.6, 1.6) * r
        dirn = (target - cue) / np.linalg.norm(target - cue)
        aim = target + off * np.array([-dirn[1], dirn[0]])
        speed = rng.uniform(400, 4000)
    heading = math.atan2(*(aim - xy[0])[::-1])
    return labels, xy, physics.Strike(1, heading, speed, follow=float(rng.uniform(-0.4, 0.4)))


def novuss_case(kind: str, rng: np.random.Generator, spec: TableSpec):
    rp = spec.object_for("red_pawn").radius_mm
    rk = spec.object_for("puck").radius_mm
    if kind == "start":
        labels, xy = novuss_start(spec, doubles=False)
        xy = np.asarray(xy, float)
        labels = tuple(labels)
    else:
        n = int(rng.integers(4, 16))
        occ: list = []
        for _ in range(n):
            p = _free_spot(rng, spec, occ, rp)
            if p is not None:
                occ.append(p)
        xy = np.array(occ)
        labels = tuple(rng.choice(["red_pawn", "black_pawn"], len(xy)))
    hx = spec.half_wh_mm[0]
    for _ in range(200):
        puck = np.array([rng.uniform(-340, 340), rng.uniform(-hx + rk + 2, -390)])
        if np.min(np.linalg.norm(xy - puck, axis=1)) > rk + rp + 3:
            break
    target = xy[int(rng.integers(0, len(xy)))]
    off = rng.uniform(-1.2, 1.2) * (rk + rp) if rng.random() < 0.8 else rng.uniform(-400, 400)
    d = (target - puck) / np.linalg.norm(target - puck)
    aim = target + off * np.array([-d[1], d[0]])
    heading = math.atan2(*(aim - puck)[::-1])
    return ("puck", *labels), np.vstack([puck, xy]), physics.Strike(1, heading,
                                                                    rng.uniform(800, 3500))


def frozen(spec: TableSpec, res: physics.ShotResult, ids, t_s: float) -> bool:
    """Whether a contact of ``ids`` at ``t_s`` is a push between two objects that rested
    touching (within 1 mm) and had not moved yet: an impulse passed through a rack or a
    row, which a camera sees only as both starting in the same frame."""
    k = [int(np.flatnonzero(res.start.ids == i)[0]) for i in ids]
    xy0 = res.start.xy_mm[k]
    r = [spec.object_for(res.start.labels[i]).radius_mm for i in k]
    if float(np.linalg.norm(xy0[0] - xy0[1])) - sum(r) > 1.0:
        return False
    xy = res.xy_at(np.array([t_s - 1e-4]))[0][k]
    return bool(np.all(np.linalg.norm(xy - xy0, axis=1) < 1.0))


def pressed(spec: TableSpec, res: physics.ShotResult, obj: int, cushion: str,
            t_s: float) -> bool:
    """Whether a cushion event of ``obj`` at ``t_s`` is a push into a cushion it rested
    against (within 1 mm) and had not left: a row pressed along the rail, which moves the
    object by the cushion's give alone, a mm or so that no camera tells from noise."""
    k = int(np.flatnonzero(res.start.ids == obj)[0])
    c = next(c for c in spec.cushions if c.name == cushion)
    xy0 = res.start.xy_mm[k]
    r = spec.object_for(res.start.labels[k]).radius_mm
    if float((xy0 - np.array(c.a_xy_mm)) @ np.array(c.normal_xy)) - r > 1.0:
        return False
    xy = res.xy_at(np.array([t_s - 1e-4]))[0][k]
    return float(np.linalg.norm(xy - xy0)) < 1.0


def push_moved_mm(res: physics.ShotResult, struck: int, t_s: float) -> float:
    """How far (mm) a push at ``t_s`` moves what it struck: the object ``struck``, or any
    object it passed the impulse on to within ``PASSED_ON_S`` (a Newton's cradle's far end),
    from where the push found it until it next rests (or the shot ends). That motion is
    the push's only trace a camera sees: where a row or a rack passes an impulse on and
    nothing at its far end moves either, nothing tells the pushes happened."""
    moved, todo, seen = 0.0, [(struck, t_s)], {struck}
    while todo:
        obj, t0 = todo.pop()
        k = int(np.flatnonzero(res.start.ids == obj)[0])
        t_rest = next((e.t_s for e in res.events
                       if e.kind == "rest" and e.t_s > t0 and int(e.ids[0]) == obj),
                      res.t_end_s)
        t = np.append(np.arange(t0, t_rest, 0.002), t_rest)
        xy = res.xy_at(t)[:, k]
        moved = max(moved, float(np.linalg.norm(xy - xy[0], axis=1).max()))
        for e in res.events:
            nxt = int(e.ids[1]) if e.kind == "contact" and int(e.ids[0]) == obj else None
            if nxt is not None and nxt not in seen and t0 <= e.t_s < t0 + PASSED_ON_S:
                seen.add(nxt)
                todo.append((nxt, e.t_s))
    return moved


def at_rest_push(spec: TableSpec, res: physics.ShotResult, e) -> bool:
    """Whether a detected contact or cushion ``e`` is a push between objects resting
    touching (``frozen``), or into a cushion an object rested against (``pressed``)."""
    if e.kind.value == "contact":
        return frozen(spec, res, e.ids, e.t_s - 0.01)
    return pressed(spec, res, e.ids[0], e.cushion, e.t_s - 0.01)


def truth(spec: TableSpec, res: physics.ShotResult, lines) -> list[dict]:
    out = [{"kind": "shot_start", "t": res.t0_s, "ids": (1,)}]
    last: dict = {}
    for e in res.events:
        if e.kind not in ("contact", "cushion", "pocket", "off_table"):
            continue
        unseen = {"kind": e.kind, "t": e.t_s, "ids": tuple(int(i) for i in e.ids),
                  "name": e.cushion, "dont_care": True}
        if e.kind in ("contact", "cushion") and e.speed_mm_s < MIN_SPEED_MM_S:
            out.append(unseen)
            continue
        key = (e.kind, frozenset(e.ids), e.cushion)
        if e.kind in ("contact", "cushion") and e.t_s - last.get(key, -9) < REPEAT_S:
            last[key] = e.t_s
            out.append(unseen)
            continue
        push = e.kind == "contact" and frozen(spec, res, e.ids, e.t_s)
        if push and push_moved_mm(res, int(e.ids[1]), e.t_s) < PUSH_SEEN_MM:
            out.append({**unseen, "unseen_push": True})  # (a row's inner pawn: no motion)
            continue
        last[key] = e.t_s
        out.append({"kind": e.kind, "t": e.t_s, "ids": tuple(int(i) for i in e.ids),
                    "name": e.cushion or e.pocket, "speed_mm_s": e.speed_mm_s,
                    "frozen": push or (
                        e.kind == "cushion" and pressed(spec, res, int(e.ids[0]), e.cushion,
                                                        e.t_s))})
    t = np.arange(res.t0_s, res.t_end_s, 0.002)
    if len(t) > 1:
        xy = res.xy_at(t)
        st = res.status_at(t)
        for line in lines:
            depth = signed_depth_mm(line, xy.reshape(-1, 2)).reshape(xy.shape[:2])
            side = np.sign(depth)
            for n in range(depth.shape[1]):
                ks = ((np.diff(side[:, n]) != 0) & (st[1:, n] == 0)).nonzero()[0]
                # a dip past the line and back that goes no deeper than SHALLOW_MM
                shallow = np.zeros(len(ks), dtype=bool)
                for i in range(len(ks) - 1):
                    if np.abs(depth[ks[i] + 1:ks[i + 1] + 1, n]).max() < SHALLOW_MM:
                        shallow[i:i + 2] = True
                for k, dip in zip(ks.tolist(), shallow.tolist(), strict=True):
                    out.append({"kind": "line_cross", "t": float(t[k] + 0.001),
                                "ids": (int(res.start.ids[n]),), "name": line.name,
                                "dont_care": dip})
    out.append({"kind": "shot_end", "t": res.t_end_s, "ids": ()})
    return out


def _show(table: str, shot: int, kind: str, lines: list[str]) -> None:
    """Print one shot's misses, false events and wrong first contact (``--show``)."""
    for line in lines:
        print(f"{table} shot {shot} ({kind}): {line}")


def _describe(kind: str, ids, name, t_s: float) -> str:
    return f"{kind} {tuple(ids)} {name or ''} t={t_s:.3f}"


def simulated_shots(spec: TableSpec, shots: int, seed: int):
    """Yield ``(index, kind, ShotResult, Tracks per frame)`` for ``shots`` simulated shots:
    the benchmark's cases, the same for the same seed (diagnostics replay one by index)."""
    rng = np.random.default_rng(seed)
    settings = physics.physics_for(spec)
    noise = TrackNoise()
    kinds = (["break", "cluster", "split", "random", "random"] if spec.family is Family.POOL
             else ["start", "random"])
    done = fails = 0
    while done < shots:
        kind = kinds[(done + fails) % len(kinds)]
        case = (pool_case if spec.family is Family.POOL else novuss_case)(kind, rng, spec)
        if case is None:
            fails += 1
            continue
        labels, xy, strike = case
        t0 = 0.4 + rng.uniform(0, 1 / FPS)
        try:
            res = physics.simulate_shot(spec, settings, physics.Bodies.make(
                labels, xy, ids=np.arange(1, len(labels) + 1)), strike, t0_s=t0)
        except (ValueError, physics.SimulationError) as exc:
            fails += 1
            if fails < 5:
                print(f"skipped a {kind} case: {exc}", file=sys.stderr)
            continue
        t = np.arange(0.0, res.t_end_s + 1.2, 1 / FPS)
        st = res.status_at(t).astype(int)
        tracks = sample_tracks(t, res.xy_at(t), st, res.start.ids, res.start.labels, noise,
                               rng, res.v_at(t))
        yield done, kind, res, tracks
        done += 1


def split_pair(striker_contacts: list[dict], striker: int = 1) -> set[int] | None:
    """The two objects of a split hit: the striker met a second object less than a frame
    after the first (the issue's "two object balls struck less than one frame apart"),
    which must come out in the right order, or for review where the data cannot tell.
    ``striker_contacts``: its observable contacts in time order. None if no split."""
    if not striker_contacts:
        return None
    first = striker_contacts[0]
    second = next((g for g in striker_contacts if set(g["ids"]) != set(first["ids"])), None)
    if second is None or second["t"] - first["t"] >= 1 / FPS:
        return None
    return {[i for i in g["ids"] if i != striker][0] for g in (first, second)}


def run_table(table: str, shots: int, seed: int, show: bool = False,
              only: frozenset[int] | None = None) -> dict:
    spec = get_table(table)
    lines = tuple(spec.line(n) for n in default_lines(spec))
    det = MotionEventDetector(spec)
    seg = ShotSegmenter()
    stats = Counter()
    dt_ms: list[float] = []
    cushion_dt_ms: list[float] = []
    pocket_dt_ms: list[float] = []
    dt_of = {"contact": dt_ms, "cushion": cushion_dt_ms, "pocket": pocket_dt_ms}
    per_kind = {k: Counter() for k in (*[n for kind in _SPLIT for n in (
        kind, _sub(kind, False), _sub(kind, True))], *TOL_S)}
    frame_time = 0.0
    frames = 0
    label = f"{table} seed {seed}"  # (how --show names the shots)
    for done, kind, res, tracks in simulated_shots(spec, shots, seed):
        if only is not None and done not in only:
            continue
        det.reset()
        seg.reset()
        events, got = [], []
        c0 = time.perf_counter()
        for tr in tracks:
            evs = det.update(tr)
            events += evs
            got += seg.update(tr, evs)
        evs = det.flush()
        events += evs
        got += seg.flush(evs)
        frame_time += time.perf_counter() - c0
        frames += len(tracks)
        gt_all = truth(spec, res, lines)
        gt = [g for g in gt_all if not g.get("dont_care")]
        stats["unseen_pushes"] += sum(bool(g.get("unseen_push")) for g in gt_all)
        # matching
        used = set()
        sub_of: dict[int, bool | None] = {}  # a matched event counts where its truth does
        for g in gt:
            per_kind[g["kind"]]["gt"] += 1
            if g["kind"] in _SPLIT:
                per_kind[_sub(g["kind"], g["frozen"])]["gt"] += 1
        for e in events:
            per_kind[e.kind.value]["det"] += 1

        found = set()
        for n, g in enumerate(gt):
            best = None
            for k, e in enumerate(events):
                if k in used or not _same_event(e, g):
                    continue
                d = abs(e.t_s - g["t"])
                if d < TOL_S[g["kind"]] and (best is None or d < best[0]):
                    best = (d, k)
            if best is not None:
                found.add(n)
                used.add(best[1])
                sub_of[best[1]] = g.get("frozen", False)
                per_kind[g["kind"]]["hit"] += 1
                if g["kind"] in _SPLIT:
                    per_kind[_sub(g["kind"], g["frozen"])]["hit"] += 1
                dt_of.get(g["kind"], []).append(1000 * best[0])
        # unmatched detections of events that did happen, below what is observable
        for g in gt_all:
            if not g.get("dont_care"):
                continue
            for k, e in enumerate(events):
                if (k not in used and _same_event(e, g)
                        and abs(e.t_s - g["t"]) < TOL_S[g["kind"]]):
                    used.add(k)
                    per_kind[g["kind"]]["det"] -= 1
                    per_kind[g["kind"]]["dont_care"] += 1
                    sub_of[k] = None
                    break
        if only is not None:
            _show(label, done, kind, [
                *("TRUTH " + _describe(g["kind"], g["ids"], g.get("name"), g["t"])
                  + (" (don't care)" if g.get("dont_care") else "") for g in gt_all),
                *("DETECTED " + _describe(e.kind.value, e.ids, e.cushion or e.pocket or e.line,
                                          e.t_s) + f" conf {e.confidence:.2f}" for e in events)])
        if show:
            missed = [g for n, g in enumerate(gt) if n not in found]
            _show(label, done, kind, [
                *("MISS " + _describe(g["kind"], g["ids"], g.get("name"), g["t"])
                  + (" (touching at rest)" if g.get("frozen") else "")
                  + (f" {g['speed_mm_s']:.0f} mm/s" if g["kind"] in _SPLIT else "")
                  for g in missed),
                *("FALSE " + _describe(e.kind.value, e.ids, e.cushion or e.pocket or e.line,
                                       e.t_s)
                  + (" (touching at rest)" if e.kind.value in _SPLIT
                     and at_rest_push(spec, res, e) else "")
                  for k, e in enumerate(events) if k not in used)])
        for k, e in enumerate(events):
            e_kind = e.kind.value
            if e_kind in _SPLIT and sub_of.get(k, False) is not None:
                flag = sub_of[k] if k in sub_of else at_rest_push(spec, res, e)
                per_kind[_sub(e_kind, flag)]["det"] += 1
                # (how often a contact or cushion reported at this confidence is real)
                b = _conf_bin(e.confidence)
                stats[("conf", e_kind, b, "det")] += 1
                stats[("conf", e_kind, b, "real")] += k in sub_of
        # per shot
        striker = "cue_ball" if spec.family is Family.POOL else "puck"
        gt_contacts = [g for g in gt if g["kind"] == "contact" and 1 in g["ids"]]
        first_gt = gt_contacts[0] if gt_contacts else None
        shot = got[0] if got else None
        stats["shots"] += 1
        stats["segmented"] += int(len(got) == 1)
        fc = shot.first_contact(striker) if shot else None
        gt_other = None if first_gt is None else [i for i in first_gt["ids"] if i != 1][0]
        det_other = None if fc is None else [i for i in fc.ids if i != 1][0]
        split_ids = split_pair(gt_contacts)
        is_split = split_ids is not None
        stats["split"] += is_split
        label_of = dict(zip(res.start.ids.tolist(), res.start.labels, strict=True))
        # (what the rules read: a pool ball's number, a Novuss pawn's colour)
        stats["first_label_ok"] += label_of.get(gt_other) == label_of.get(det_other)
        if gt_other == det_other:
            stats["first_ok"] += 1
            # (right, but under the rules' review_below: a referee confirms it)
            stats["first_ok_low"] += fc is not None and fc.confidence < 0.5
            stats["split_ok"] += is_split
        elif fc is not None and fc.confidence < 0.5:
            stats["first_review"] += 1
            stats["split_review"] += is_split and det_other in split_ids
        if show and gt_other != det_other:
            _show(label, done, kind, [
                f"FIRST CONTACT {det_other} (conf {fc.confidence if fc else float('nan'):.2f}),"
                f" truth {gt_other} at {_t_of(first_gt):.3f}"
                + (f", a split hit of {sorted(split_ids)}" if is_split else "")])
        pocketed_gt = {g["ids"][0] for g in gt if g["kind"] == "pocket"}
        pocketed = {e.ids[0] for e in (shot.pocketed() if shot else [])}
        stats["pocket_ok"] += pocketed_gt == pocketed
        t_fc = first_gt["t"] if first_gt else math.inf
        rail_gt = any(g["kind"] in ("cushion",) and g["t"] >= t_fc for g in gt)
        rail = bool(shot and fc and shot.cushions_after(fc.t_s))
        stats["rail_ok"] += rail_gt == rail
        if show and rail_gt != rail:
            _show(label, done, kind,
                  [f"RAIL AFTER CONTACT {rail}, truth {rail_gt}"])
    return {"table": table, "seed": seed, "stats": stats, "per_kind": per_kind, "dt_ms": dt_ms,
            "cushion_dt_ms": cushion_dt_ms, "pocket_dt_ms": pocket_dt_ms,
            "ms_per_frame": 1000 * frame_time / max(frames, 1),
            "objects": "16 (pool break) / 17 (Novuss start)"}


SECTION = "Event detection (adjudication.detection)"
CONF_BINS = (0.25, 0.5, 0.75)  # confidence bins' upper edges (the last runs to 1)


def _conf_bin(conf: float) -> int:
    return sum(conf >= edge for edge in CONF_BINS)


def _bin_name(b: int) -> str:
    edges = (0.0, *CONF_BINS, 1.0)
    return f"{edges[b]:.2f}-{edges[b + 1]:.2f}"


def _t_of(g: dict | None) -> float:
    return g["t"] if g else math.nan


def _pct(xs, q):
    return float(np.percentile(xs, q)) if xs else float("nan")


HELD_OUT = 2  # the seed whose shots are never studied one by one


def merged(results: list[dict]) -> dict:
    """One table's results over several seeds, as if one run."""
    out = {"table": results[0]["table"], "seed": "all", "stats": Counter(),
           "per_kind": {k: Counter() for k in results[0]["per_kind"]}, "dt_ms": [],
           "cushion_dt_ms": [], "pocket_dt_ms": [], "ms_per_frame": statistics.mean(
               r["ms_per_frame"] for r in results)}
    for r in results:
        out["stats"].update(r["stats"])
        for k, c in r["per_kind"].items():
            out["per_kind"][k].update(c)
        out["dt_ms"] += r["dt_ms"]
        out["cushion_dt_ms"] += r["cushion_dt_ms"]
        out["pocket_dt_ms"] += r["pocket_dt_ms"]
    return out


def _seed_name(seed) -> str:
    return (f"{seed} (held out)" if seed == HELD_OUT
            else "all" if seed == "all" else str(seed))


def report(results: list[dict], shots: int, seeds: list[int]) -> str:
    tables = list(dict.fromkeys(r["table"] for r in results))
    if len(seeds) > 1:
        results = [x for t in tables for x in (
            *[r for r in results if r["table"] == t],
            merged([r for r in results if r["table"] == t]))]
    lines = [f"## {SECTION}", "",
             f"`python benchmarks/events.py --shots {shots} --seeds "
             f"{','.join(map(str, seeds))}`: {shots} simulated shots per table and seed, "
             "sampled at 30 fps with 1 mm noise, 2 % dropouts and short gaps; detected events "
             "matched to the physics' exact log (observable events: approach >= 50 mm/s; a "
             "detection of a slower one, or of a repeat within 0.1 s, is neither right nor "
             "false: \"don't care\"; so is a line crossed and crossed back no deeper than "
             "2 mm, twice the noise, where the Novuss zone test wants 4 mm and more). "
             "Contacts are also split into those between objects apart before (an approach "
             "the camera sees and times) and pushes between objects resting touching (a "
             "rack, a Novuss row: the impulse crosses the pack in under a ms, which pairs "
             "carried it turns on gaps of tenths of a mm, and the camera sees only the pack "
             "start in one frame; a push counts only if it moves its struck object, or what "
             "that passes the impulse on to, 3 mm or more before it rests, 3 sigma of the "
             "noise: a pushed Novuss row passes an impulse of 100 mm/s and more from pawn to "
             "pawn, and where its far end barely moves either, nothing tells the pushes "
             "happened); cushions likewise (an object resting against the cushion and "
             "pressed into it moves by the cushion's give, a mm or so). "
             "Targets: precision and recall >= 0.99 per kind, first contact >= 99.5 %, contact "
             "time median <= 3 ms, pocketed set and rail-after-contact >= 99.5 %, <= 0.5 ms "
             "per frame. Seeds 0 and 1 (with 3 to 8, not run here) are the shots the detector "
             "was developed on (their misses studied shot by shot); seed 2 is held out (never "
             "studied), and says how it does on shots it was not fitted to.", ""]
    lines.append("| table | seed | kind | ground truth | detected | don't care | precision "
                 "| recall |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for r in results:
        for kind, c in r["per_kind"].items():
            if not c["gt"] and not c["det"]:
                continue
            p = c["hit"] / c["det"] if c["det"] else float("nan")
            rc = c["hit"] / c["gt"] if c["gt"] else float("nan")
            lines.append(f"| {r['table']} | {_seed_name(r['seed'])} | {kind} | {c['gt']} | "
                         f"{c['det']} | {c['dont_care']} | {p:.3f} | {rc:.3f} |")
    unseen = [f"{r['table']} {r['stats']['unseen_pushes']}" for r in results
              if r["seed"] == "all" or len(seeds) == 1]
    lines += ["", "Pushes at 50 mm/s or more that moved nothing 3 mm (don't care, not in the "
              "ground truth above): " + ", ".join(unseen) + "."]
    lines += ["", "Confidence: how often a contact or cushion reported at a confidence is "
              "real (don't cares left out); the rules put one under 0.5 for review.", "",
              "| table | seed | kind | confidence | reported | real | share real |",
              "|---|---|---|---|---|---|---|"]
    for r in results:
        if r["seed"] != "all" and len(seeds) > 1:
            continue
        for e_kind in _SPLIT:
            for b in range(len(CONF_BINS) + 1):
                det = r["stats"][("conf", e_kind, b, "det")]
                real = r["stats"][("conf", e_kind, b, "real")]
                share = f"{real / det:.3f}" if det else "–"
                lines.append(f"| {r['table']} | {_seed_name(r['seed'])} | {e_kind} | "
                             f"{_bin_name(b)} | {det} | {real} | {share} |")
    lines += ["", "First contact: the object itself, and its label (what the rules read: a "
              "pool ball's number, a Novuss pawn's colour; a Novuss row's pawns share it). "
              "Right, low conf.: named right, but under the rules' review_below (0.5), so a "
              "referee confirms it; review: named wrong under it; wrong: named wrong over it. "
              "Split hits: shots whose striker met a second object less than a frame after "
              "the first (from the physics' log, any kind of shot); the issue asks them in the "
              "right order, or for review where the data cannot tell, so the next column "
              "counts first contacts right, or one of a split hit's two named for review.",
              "",
              "| table | seed | shots | first contact right | right, low conf. | "
              "review (wrong, low conf.) | wrong | "
              "its label right | split hits right / review / of | right, or split for review "
              "| contact dt median / p95 ms "
              "| cushion dt median ms | pocket dt median / p95 ms | pocketed set "
              "| rail after contact | ms per frame |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        s = r["stats"]
        n = s["shots"]
        wrong = n - s["first_ok"] - s["first_review"]
        lines.append(
            f"| {r['table']} | {_seed_name(r['seed'])} | {n} | "
            f"{100 * s['first_ok'] / n:.1f} % | {100 * s['first_ok_low'] / n:.1f} % | "
            f"{100 * s['first_review'] / n:.1f} % | "
            f"{100 * wrong / n:.1f} % | {100 * s['first_label_ok'] / n:.1f} % | "
            f"{s['split_ok']} / {s['split_review']} / "
            f"{s['split']} | {100 * (s['first_ok'] + s['split_review']) / n:.1f} % | "
            f"{_pct(r['dt_ms'], 50):.2f} / {_pct(r['dt_ms'], 95):.2f} | "
            f"{_pct(r['cushion_dt_ms'], 50):.2f} | "
            f"{_pct(r['pocket_dt_ms'], 50):.1f} / {_pct(r['pocket_dt_ms'], 95):.1f} | "
            f"{100 * s['pocket_ok'] / n:.1f} % | "
            f"{100 * s['rail_ok'] / n:.1f} % | {r['ms_per_frame']:.3f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=300)
    ap.add_argument("--seeds", default="0,1,2",
                    help=f"comma-separated shot seeds (seed {HELD_OUT} is the held-out one)")
    ap.add_argument("--tables", default="pool-9ft,novuss")
    ap.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    ap.add_argument("--show", action="store_true",
                    help="print each shot's missed and false events and wrong first contacts")
    ap.add_argument("--only", type=int, nargs="+", metavar="SHOT",
                    help="run only these shots (by index) and print all their events")
    args = ap.parse_args()
    only = frozenset(args.only) if args.only else None
    seeds = [int(x) for x in args.seeds.split(",")]
    if (args.show or args.only) and HELD_OUT in seeds:
        ap.error(f"seed {HELD_OUT} is held out: its shots are not shown one by one "
                 f"(pick development seeds, e.g. --seeds 0,1)")
    results = [run_table(t, args.shots, seed, args.show, only)
               for t in args.tables.split(",") for seed in seeds]
    text = report(results, args.shots, seeds)
    print(text)
    if args.write:
        replace_section(f"## {SECTION}", text)


if __name__ == "__main__":
    main()
