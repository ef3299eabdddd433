"""Detector training data: canonical views of rendered tables, in the YOLO dataset format.

Each *venue* (one random look and one renderer) is seen by a few random cameras, each
over a few random layouts. Every rendered frame goes through what a real broadcast does
to a picture (defocus, a low-resolution stream scaled up, colour casts, gamma, JPEG) and
is then warped onto the canonical view with the camera's exact model, exactly as the
runtime warps a live frame with its fitted calibration. Labels are the bounding boxes
of each object's silhouette mapped into the canonical view.

The spread aims at real footage the model never sees (``shared/REAL_WORLD.md``): every
cloth colour, rail style and light level of ``random_appearance``, broadcast ball colours,
motion blur up to break speed, contact shadows, highlights, balls at any rotation
(numbers and stripes), touching clusters and racks, balls resting in pocket cups, pawns
in start rows, powder on the board, cues, hands, arms and bodies over the table, score
bars and logos.

Layout on disk::

    OUT/images/{train,val}/v00012_c1_l2.jpg
    OUT/labels/{train,val}/v00012_c1_l2.txt   # class cx cy w h, normalised
    OUT/data.yaml                              # for ultralytics
    OUT/manifest.json                          # recipe, seed, counts per class

Novuss views (480 x 480) are padded to 640 x 480 with the letterbox grey, so that the
trainer, which scales every image to a 640 px long side, keeps one scale per table type.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.model import Calibration
from calibration.tables import Family, TableSpec, get_table
from calibration.views import detector_warp
from simulation.appearance import clean_appearance, random_appearance
from simulation.camera import CameraModel, CameraSetup, overhead_camera
from simulation.physics import PoolPhysics
from simulation.racks import novuss_start, pool_rack
from simulation.render import Occluder, Renderer, SceneFrame
from vision.canonical import PAD_GREY, CanonicalView
from vision.classes import CLASS_INDEX, DETECTOR_CLASSES

RECIPE_VERSION = 2
#: Of the objects moving during the exposure, this share moves at 2.5 m/s up to
#: ``FAST_MAX_MM_S`` (a break: the cue ball at 8-10 m/s, the rack's balls slower).
FAST_SHARE = 0.35
FAST_MAX_MM_S = 9000.0
TRAIN_WIDTH_PX = 640
#: Objects less visible than this are left unlabelled (a sliver under a hand is not a ball).
MIN_VISIBLE = 0.35
CAMERAS_PER_VENUE = 3
LAYOUTS_PER_CAMERA = 4
VAL_EVERY = 10  # every 10th venue goes to the validation split
JPEG_QUALITY = 82  # ~24 kB a view; broadcast streams are compressed harder than this


@dataclass(frozen=True, slots=True)
class Layout:
    """One arrangement of objects: ``S`` motion sub-samples of ``N`` objects."""

    labels: tuple[str, ...]
    xy_mm: np.ndarray  # (S, N, 2)
    z_mm: np.ndarray  # (S, N)
    occluders: tuple[Occluder, ...]


# ------------------------------------------------------------------------ layouts
def _free(p: np.ndarray, placed: list[np.ndarray], radii: list[float], r: float) -> bool:
    return all(np.linalg.norm(p - q) >= rq + r + 0.05 for q, rq in zip(placed, radii, strict=True))


def _over_hole(spec: TableSpec, p: np.ndarray, r: float) -> bool:
    """An object resting here would drop (Novuss: centre over the hole; pool: in the jaws)."""
    reach = 2.0 if spec.family is Family.NOVUSS else 0.5 * r
    return any(math.dist(p, pk.centre_xy_mm) < pk.hole_radius_mm + reach for pk in spec.pockets)


def _scatter(
    spec: TableSpec, labels: list[str], rng: np.random.Generator, *, touch_p: float,
    rail_p: float, start: list[np.ndarray] | None = None,
) -> tuple[list[str], list[np.ndarray]]:
    """Place ``labels`` one by one: touching an earlier one, against a rail, or anywhere."""
    hx, hy = spec.half_wh_mm
    placed = list(start or [])
    radii = [spec.object_for(lb).radius_mm for lb in labels[: len(placed)]]
    kept = list(labels[: len(placed)])
    for lb in labels[len(placed):]:
        r = spec.object_for(lb).radius_mm
        for _ in range(40):
            roll = rng.random()
            if placed and roll < touch_p:
                k = int(rng.integers(len(placed)))
                a = rng.uniform(0, 2 * math.pi)
                d = radii[k] + r + rng.uniform(0.05, 1.5)
                p = placed[k] + d * np.array([math.cos(a), math.sin(a)])
            elif roll < touch_p + rail_p:
                side = int(rng.integers(4))
                along = rng.uniform(-1, 1)
                p = np.array([
                    [hx - r, along * (hy - r)], [-(hx - r), along * (hy - r)],
                    [along * (hx - r), hy - r], [along * (hx - r), -(hy - r)],
                ][side])
            else:
                p = rng.uniform([-hx + r, -hy + r], [hx - r, hy - r])
            if abs(p[0]) <= hx - r + 0.01 and abs(p[1]) <= hy - r + 0.01 and not _over_hole(
                spec, p, r
            ) and _free(p, placed, radii, r):
                placed.append(p)
                radii.append(r)
                kept.append(lb)
                break
    return kept, placed


def _pool_layout(spec: TableSpec, rng: np.random.Generator) -> tuple[list[str], np.ndarray,
                                                                      np.ndarray]:
    balls = ["cue_ball", *(f"ball_{n}" for n in range(1, 16))]
    mode = rng.random()
    r = spec.object_for("ball_1").radius_mm
    if mode < 0.25:  # a rack, perhaps already opened a little
        rack_labels, rack_xy = pool_rack(str(rng.choice(["8ball", "9ball", "10ball"])), spec, rng)
        rack_xy = rack_xy + rng.normal(0, 0.5 if rng.random() < 0.5 else 20.0, rack_xy.shape)
        kept_l: list[str] = []
        kept_p: list[np.ndarray] = []
        for lb, p in zip(rack_labels, rack_xy, strict=True):
            if (spec.on_surface(p[None], r)[0] and not _over_hole(spec, p, r)
                    and _free(p, kept_p, [r] * len(kept_p), r)):
                kept_l.append(lb)
                kept_p.append(p)
        labels, placed = _scatter(spec, [*kept_l, "cue_ball"], rng, touch_p=0.0, rail_p=0.1,
                                  start=kept_p)
    else:
        k = int(rng.integers(1, 17))
        chosen = [str(b) for b in rng.permutation(balls)[:k]]
        labels, placed = _scatter(spec, chosen, rng, touch_p=0.35 if mode < 0.7 else 0.6,
                                  rail_p=0.15)
    xy = np.array(placed, float).reshape(-1, 2)
    z = np.zeros(len(labels))
    drop = PoolPhysics().pocket_drop_mm
    for i in range(len(labels)):  # a few balls already down, resting in the cups
        if rng.random() < 0.06:
            pk = spec.pockets[int(rng.integers(len(spec.pockets)))]
            p = np.asarray(pk.centre_xy_mm) + rng.normal(0, 6.0, 2)
            if all(np.linalg.norm(p - xy[j]) >= 2 * r for j in range(len(labels)) if z[j] < 0):
                xy[i], z[i] = p, -drop
    return list(labels), xy, z


def _novuss_layout(spec: TableSpec, rng: np.random.Generator) -> tuple[list[str], np.ndarray,
                                                                         np.ndarray]:
    if rng.random() < 0.25:
        labels0, xy0 = novuss_start(spec, doubles=bool(rng.random() < 0.3))
        keep = rng.random(len(labels0)) < rng.uniform(0.4, 1.0)
        labels = [lb for lb, k in zip(labels0, keep, strict=True) if k]
        start = [p for p, k in zip(xy0, keep, strict=True) if k]
        extra = ["puck"] if rng.random() < 0.9 else []
        labels, placed = _scatter(spec, labels + extra, rng, touch_p=0.3, rail_p=0.2,
                                  start=start)
    else:
        n_red, n_black = (int(rng.integers(0, 17)) for _ in range(2))
        pawns = ["red_pawn"] * n_red + ["black_pawn"] * n_black
        rng.shuffle(pawns)
        labels = (["puck"] if rng.random() < 0.9 else []) + pawns
        labels, placed = _scatter(spec, labels, rng, touch_p=float(rng.uniform(0.1, 0.6)),
                                  rail_p=0.25)
    xy = np.array(placed, float).reshape(-1, 2)
    return list(labels), xy, np.zeros(len(labels))


def _occluders(spec: TableSpec, xy: np.ndarray, rng: np.random.Generator) -> tuple[Occluder, ...]:
    hx, hy = spec.half_wh_mm
    out: list[Occluder] = []
    if len(xy) and rng.random() < 0.35:  # a player cueing an object
        target = xy[int(rng.integers(len(xy)))]
        heading = rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(heading), math.sin(heading)])
        tip = target - d * rng.uniform(30, 120)
        out.append(Occluder("cue", (float(tip[0]), float(tip[1])), heading,
                            z_mm=float(rng.uniform(20, 60))))
        if rng.random() < 0.7:
            hand = tip - d * rng.uniform(150, 300)
            out.append(Occluder("hand", (float(hand[0]), float(hand[1])), heading,
                                z_mm=float(rng.uniform(30, 80)),
                                scale=float(rng.uniform(0.8, 1.2))))
    if rng.random() < 0.12:  # a hand over the table (placing, pointing)
        p = rng.uniform([-hx, -hy], [hx, hy])
        out.append(Occluder("hand", (float(p[0]), float(p[1])), rng.uniform(0, 2 * math.pi),
                            z_mm=float(rng.uniform(40, 200)), scale=float(rng.uniform(0.8, 1.2))))
    if rng.random() < 0.15:  # an arm or a body over one rail
        side = int(rng.integers(4))
        edge = [(hx, rng.uniform(-hy, hy)), (-hx, rng.uniform(-hy, hy)),
                (rng.uniform(-hx, hx), hy), (rng.uniform(-hx, hx), -hy)][side]
        inward = [math.pi, 0.0, -math.pi / 2, math.pi / 2][side]
        depth = rng.uniform(-60, 250)
        p = np.array(edge) + depth * np.array([math.cos(inward), math.sin(inward)])
        out.append(Occluder(str(rng.choice(["arm", "body"])), (float(p[0]), float(p[1])),
                            inward, z_mm=float(rng.uniform(150, 500)),
                            scale=float(rng.uniform(0.8, 1.2))))
    return tuple(out)


def random_layout(spec: TableSpec, rng: np.random.Generator, exposure_s: float) -> Layout:
    """Objects (some moving during the exposure) and what hangs over them."""
    if spec.family is Family.NOVUSS:
        labels, xy, z = _novuss_layout(spec, rng)
    else:
        labels, xy, z = _pool_layout(spec, rng)
    n = len(labels)
    v = np.zeros((n, 2))
    if n and rng.random() < 0.3:
        moving = rng.random(n) < 0.25
        # most roll at up to 2.5 m/s; some are as fast as a break sends them, which the
        # camera shows only as a streak (recipe 1 had none: the detector lost them)
        fast = rng.random(n) < FAST_SHARE
        speed = np.where(fast, rng.uniform(2500, FAST_MAX_MM_S, n), rng.uniform(200, 2500, n))
        speed *= moving * (z >= 0)
        ang = rng.uniform(0, 2 * math.pi, n)
        v = np.column_stack([np.cos(ang), np.sin(ang)]) * speed[:, None]
    # sub-samples at most ~8 mm apart along the longest streak, one at mid-exposure
    streak_mm = float(np.linalg.norm(v, axis=1).max(initial=0.0)) * exposure_s
    n_sub = max(5, min(41, 2 * math.ceil(streak_mm / 16.0) + 1))
    dt = (np.arange(n_sub) - n_sub // 2) / max(n_sub - 1, 1) * exposure_s
    xy_s = xy[None] + dt[:, None, None] * v[None]
    z_s = np.broadcast_to(z, (n_sub, len(labels))).copy()
    return Layout(tuple(labels), xy_s, z_s, _occluders(spec, xy, rng))


# ------------------------------------------------------------------------ cameras
def random_camera(spec: TableSpec, rng: np.random.Generator) -> CameraModel:
    """Rigs as venues hang them, broadcast framings included (table not filling the view)."""
    novuss = spec.family is Family.NOVUSS
    res = [(1280, 720), (960, 540), (1920, 1080)][int(rng.choice(3, p=[0.55, 0.35, 0.10]))]
    setup = CameraSetup(
        res,
        height_mm=float(rng.uniform(900, 1700) if novuss else rng.uniform(2800, 4500)),
        fill=float(rng.uniform(0.55, 0.97)),
        tilt_deg=float(min(rng.exponential(6.0), 18.0)),
        tilt_azimuth_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.normal(0, 1.5)),
        offset_mm=(float(rng.normal(0, 60)), float(rng.normal(0, 40))),
        k1=float(rng.uniform(-0.25, 0.0) if novuss else rng.uniform(-0.08, 0.02)),
        k2=float(rng.uniform(0.0, 0.04) if novuss else 0.0),
    )
    return overhead_camera(spec, setup)


def calibration_of(spec: TableSpec, cam: CameraModel) -> Calibration:
    """The exact calibration of a simulated camera (what a perfect fit would give)."""
    return Calibration(spec, cam.K, float(cam.dist[0]), float(cam.dist[1]), cam.R, cam.t,
                       cam.resolution_wh)


def broadcast_degrade(bgr: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What a broadcast chain does to a picture: defocus, upscaling, casts, gamma, JPEG."""
    out = bgr
    h, w = out.shape[:2]
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.4)))
    if rng.random() < 0.2:
        f = float(rng.uniform(1.4, 2.5))
        small = cv2.resize(out, (int(w / f), int(h / f)), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3 or rng.random() < 0.3:
        x = out.astype(np.float32) / 255.0
        if rng.random() < 0.5:
            x = x * rng.uniform(0.85, 1.15, 3).astype(np.float32)
        if rng.random() < 0.5:
            x = np.clip(x, 0, 1) ** float(rng.uniform(0.75, 1.3))
        if rng.random() < 0.3:
            x = (x - 0.5) * float(rng.uniform(0.75, 1.25)) + 0.5 + float(rng.normal(0, 0.04))
        out = np.clip(x * 255.0 + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 92))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


# ------------------------------------------------------------------------- labels
_SPHERE = None


def _sphere_points(n: int = 96) -> np.ndarray:
    global _SPHERE
    if _SPHERE is None:
        k = np.arange(n) + 0.5
        phi = np.arccos(1 - 2 * k / n)
        th = math.pi * (1 + 5**0.5) * k
        _SPHERE = np.column_stack([np.cos(th) * np.sin(phi), np.sin(th) * np.sin(phi),
                                   np.cos(phi)])
    return _SPHERE


def silhouette_points_mm(spec: TableSpec, label: str, xy_mm: np.ndarray, z_mm: float
                         ) -> np.ndarray:
    """3-D points ``(M, 3)`` whose projections span an object's silhouette."""
    obj = spec.object_for(label)
    r = obj.radius_mm
    if label == "cue_ball" or label.startswith("ball_"):
        return np.array([xy_mm[0], xy_mm[1], z_mm + r]) + r * _sphere_points()
    a = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    rim = np.column_stack([xy_mm[0] + r * np.cos(a), xy_mm[1] + r * np.sin(a)])
    return np.concatenate([np.column_stack([rim, np.full(32, z_mm)]),
                           np.column_stack([rim, np.full(32, z_mm + obj.height_mm)])])


def canonical_boxes(
    spec: TableSpec, view: CanonicalView, cam: CameraModel, calib: Calibration,
    layout: Layout, visible_fraction: np.ndarray,
) -> list[tuple[int, int, float, float, float, float]]:
    """``(object index, class, u0, v0, u1, v1)``: canonical boxes of the objects worth
    labelling, spanning the pixel centres their silhouettes reach."""
    boxes = []
    w, h = view.size_wh
    for i, lb in enumerate(layout.labels):
        if visible_fraction[i] < MIN_VISIBLE:
            continue
        pts = np.concatenate([
            silhouette_points_mm(spec, lb, layout.xy_mm[s, i], float(layout.z_mm[s, i]))
            for s in range(layout.xy_mm.shape[0])
        ])
        uv = view.to_canon(calib.to_table(cam.project(pts), 0.0))
        if not np.isfinite(uv).all():
            continue
        u0, v0 = uv.min(axis=0)
        u1, v1 = uv.max(axis=0)
        cu, cv = (u0 + u1) / 2, (v0 + v1) / 2
        if not (0 <= cu < w and 0 <= cv < h):
            continue
        u0, u1 = max(u0, 0.0), min(u1, w - 1.0)
        v0, v1 = max(v0, 0.0), min(v1, h - 1.0)
        if u1 - u0 < 2 or v1 - v0 < 2:
            continue
        boxes.append((i, CLASS_INDEX[lb], float(u0), float(v0), float(u1), float(v1)))
    return boxes


def to_training_canvas(canon: np.ndarray) -> tuple[np.ndarray, int]:
    """Pad a canonical view to ``TRAIN_WIDTH_PX`` wide; returns the image and the x shift."""
    h, w = canon.shape[:2]
    if w >= TRAIN_WIDTH_PX:
        return canon, 0
    left = (TRAIN_WIDTH_PX - w) // 2
    out = np.full((h, TRAIN_WIDTH_PX, 3), PAD_GREY, np.uint8)
    out[:, left:left + w] = canon
    return out, left


# -------------------------------------------------------------------------- venue
TABLE_CHOICES = (("pool-9ft", 0.35), ("pool-8ft", 0.15), ("pool-7ft", 0.15), ("novuss", 0.35))


@dataclass(frozen=True, slots=True)
class Sample:
    name: str
    image: np.ndarray  # training canvas, BGR
    yolo_lines: tuple[str, ...]
    table: str


@dataclass(frozen=True, slots=True, eq=False)
class VenueFrame:
    """One rendered camera frame with everything known about it (for training and for
    benchmarks that run the whole detector on the camera frame)."""

    name: str
    spec: TableSpec
    camera: CameraModel
    calib: Calibration
    bgr: np.ndarray  # the camera frame after the broadcast chain
    layout: Layout
    visible_fraction: np.ndarray  # (N,)

    def silhouette_centres_px(self) -> np.ndarray:
        """(N, 2) image of each object's silhouette centre (ball centre, disc mid-height)."""
        mid = self.layout.xy_mm.shape[0] // 2
        h = np.array([self.spec.object_for(lb).height_mm for lb in self.layout.labels])
        z = self.layout.z_mm[mid] + h / 2
        return self.camera.project(np.column_stack([self.layout.xy_mm[mid], z]))


def venue_frames(seed: int, venue: int) -> Iterator[VenueFrame]:
    """The ``CAMERAS_PER_VENUE`` x ``LAYOUTS_PER_CAMERA`` frames of one venue."""
    rng = np.random.default_rng([seed, venue])
    names, weights = zip(*TABLE_CHOICES, strict=True)
    table = str(rng.choice(names, p=np.array(weights) / sum(weights)))
    spec = get_table(table)
    look = (clean_appearance(spec) if rng.random() < 0.08
            else random_appearance(spec, rng, realism=float(rng.uniform(0.3, 1.0))))
    renderer = Renderer(spec, look, seed=int(rng.integers(2**31)))
    for c in range(CAMERAS_PER_VENUE):
        cam = random_camera(spec, rng)
        calib = calibration_of(spec, cam)
        for k in range(LAYOUTS_PER_CAMERA):
            layout = random_layout(spec, rng, look.exposure_s)
            n = len(layout.labels)
            renderer.reset()
            frame = SceneFrame(float(rng.uniform(0, 10)), cam, np.arange(n), layout.labels,
                               layout.xy_mm, layout.z_mm, np.ones(n, bool), layout.occluders)
            rendered = renderer.render(frame)
            yield VenueFrame(f"v{venue:05d}_c{c}_l{k}", spec, cam, calib,
                             broadcast_degrade(rendered.bgr, rng), layout,
                             rendered.visible_fraction)


def render_venue(seed: int, venue: int) -> list[Sample]:
    """Every training sample of one venue (its frames warped to the canonical view)."""
    samples = []
    warp = None
    for f in venue_frames(seed, venue):
        if warp is None or warp.mapping is not f.calib:
            warp = detector_warp(f.calib)
        canvas, left = to_training_canvas(warp(f.bgr))
        ch, cw = canvas.shape[:2]
        lines = tuple(
            _yolo_line(cls, ((u0 + u1) / 2 + left + 0.5, (v0 + v1) / 2 + 0.5, u1 - u0 + 1,
                             v1 - v0 + 1), cw, ch)
            for _, cls, u0, v0, u1, v1 in canonical_boxes(f.spec, warp.view, f.camera, f.calib,
                                                       f.layout, f.visible_fraction)
        )
        samples.append(Sample(f.name, canvas, lines, f.spec.name))
    return samples


def _yolo_line(cls: int, box_px: tuple[float, float, float, float], w: int, h: int) -> str:
    """``class cx cy w h`` normalised by the canvas, from a box in pixels (to 0.01 px)."""
    cx, cy, bw, bh = (round(v, 2) for v in box_px)
    return f"{cls} {cx / w:.6f} {cy / h:.6f} {bw / w:.6f} {bh / h:.6f}"


# ----------------------------------------------------------------------- dataset
def _venue_job(args: tuple[int, int, str]) -> tuple[int, dict[str, int], int]:
    seed, venue, out = args
    split = "val" if venue % VAL_EVERY == VAL_EVERY - 1 else "train"
    counts: Counter[str] = Counter()
    samples = render_venue(seed, venue)
    for s in samples:
        cv2.imwrite(str(Path(out) / "images" / split / f"{s.name}.jpg"), s.image,
                    [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        (Path(out) / "labels" / split / f"{s.name}.txt").write_text(
            "".join(line + "\n" for line in s.yolo_lines))
        counts.update(DETECTOR_CLASSES[int(line.split()[0])] for line in s.yolo_lines)
    return venue, dict(counts), len(samples)


def write_dataset(
    out: Path, *, images: int, seed: int, workers: int = 1, first_venue: int = 0,
    deadline_s: float | None = None, progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Render about ``images`` samples into ``out`` (YOLO layout); returns the manifest.

    Venues are numbered from ``first_venue``, so two runs with the same seed and disjoint
    venue ranges add up to one larger dataset (``manifest.json`` records each run). With
    ``deadline_s`` the run stops after that many seconds with the venues it finished.
    ``progress(done, total)`` is called after each venue.
    """
    import time

    t0 = time.monotonic()
    per_venue = CAMERAS_PER_VENUE * LAYOUTS_PER_CAMERA
    venues = range(first_venue, first_venue + max(1, math.ceil(images / per_venue)))
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    jobs = [(seed, v, str(out)) for v in venues]
    counts: Counter[str] = Counter()
    done: list[int] = []
    n_images = 0

    def collect(results: Iterable[tuple[int, dict[str, int], int]]) -> None:
        nonlocal n_images
        for venue, c, n in results:
            counts.update(c)
            n_images += n
            done.append(venue)
            if progress:
                progress(len(done), len(jobs))
            if deadline_s is not None and time.monotonic() - t0 > deadline_s:
                return

    if workers > 1:
        import multiprocessing as mp

        ctx = mp.get_context("fork" if os.name == "posix" else "spawn")
        with ctx.Pool(workers, initializer=cv2.setNumThreads, initargs=(1,)) as pool:
            collect(pool.imap_unordered(_venue_job, jobs))
            pool.terminate()
    else:
        collect(map(_venue_job, jobs))
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n"
        + "".join(f"  {i}: {name}\n" for i, name in enumerate(DETECTOR_CLASSES))
    )
    manifest = {
        "recipe_version": RECIPE_VERSION,
        "seed": seed,
        "venues": sorted(done),
        "images": n_images,
        "seconds": round(time.monotonic() - t0, 1),
        "instances": {name: counts.get(name, 0) for name in DETECTOR_CLASSES},
        "tables": dict(TABLE_CHOICES),
    }
    runs_path = out / "manifest.json"
    runs = json.loads(runs_path.read_text())["runs"] if runs_path.exists() else []
    runs.append(manifest)
    runs_path.write_text(json.dumps({"runs": runs}))
    return manifest
