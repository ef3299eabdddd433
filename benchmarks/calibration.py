"""Calibration accuracy, success rate and fit time on rendered frames (issue 3's numbers).

    python benchmarks/calibration.py [--frames 200] [--table novuss] [--only 4,17] [--write]

For each table type, renders ``--frames`` frames with a random camera (tilt up to 15
degrees, off-centre, lens distortion), the realistic look (lighting, noise, graphics) on
two frames in three and a clean look on the third, a few objects and, on every fourth
frame, a player's hand and cue over the table. Each frame is calibrated automatically and
the fitted model is compared with the renderer's camera over a grid on the playing
surface. Per frame: the RMS of the mapped table points (mm) and the worst corner error
(px). A frame succeeds when its RMS is under 5 mm; a ``CalibrationError`` is a failure.
Each failure's reason is printed, and a histogram of reasons per table at the end.
``--table`` runs one table type and ``--only`` given frame indices (for iterating on the
failures; neither may be combined with ``--write``).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import replace_section  # noqa: E402
from calibration.model import CalibrationError  # noqa: E402
from calibration.novuss_features import fit_novuss  # noqa: E402
from calibration.pool_features import fit_pool  # noqa: E402
from calibration.tables import Family, TableSpec, get_table  # noqa: E402
from simulation.appearance import clean_appearance, random_appearance  # noqa: E402
from simulation.camera import CameraSetup, overhead_camera  # noqa: E402
from simulation.render import Occluder, Renderer, SceneFrame  # noqa: E402


def random_frame(spec: TableSpec, k: int) -> tuple[np.ndarray, object]:
    rng = np.random.default_rng([7, k])
    novuss = spec.family is Family.NOVUSS
    look = clean_appearance(spec) if k % 3 == 0 else random_appearance(spec, rng, realism=1.0)
    setup = CameraSetup(
        (1280, 720),
        height_mm=float(rng.uniform(1050, 1450) if novuss else rng.uniform(3300, 4200)),
        fill=float(rng.uniform(0.84, 0.94) if novuss else rng.uniform(0.78, 0.9)),
        tilt_deg=float(rng.uniform(0, 15)),
        tilt_azimuth_deg=float(rng.uniform(0, 360)),
        offset_mm=(float(rng.normal(0, 40)), float(rng.normal(0, 30))),
        k1=float(rng.uniform(-0.2, 0.0) if novuss else rng.uniform(-0.06, 0.0)),
    )
    cam = overhead_camera(spec, setup)
    labels = (("puck",) + ("red_pawn", "black_pawn") * 4 if novuss
              else ("cue_ball",) + tuple(f"ball_{n}" for n in range(1, 10)))
    hx, hy = spec.half_wh_mm
    xy = rng.uniform([-0.85 * hx, -0.85 * hy], [0.85 * hx, 0.85 * hy], size=(1, len(labels), 2))
    occluders: tuple[Occluder, ...] = ()
    if k % 4 == 1:
        tip = (float(xy[0, 0, 0] - 60.0), float(xy[0, 0, 1]))
        occluders = (Occluder("cue", tip, 0.0, z_mm=30.0),
                     Occluder("hand", (tip[0] - 200.0, tip[1]), 0.0, z_mm=40.0))
    frame = SceneFrame(0.0, cam, np.arange(len(labels)), labels, xy,
                       np.zeros((1, len(labels))), np.ones(len(labels), bool), occluders)
    return Renderer(spec, look, seed=k).render(frame).bgr, cam


def survey(table: str, frames: int, only: set[int] | None = None) -> dict[str, object]:
    spec = get_table(table)
    fit = fit_novuss if spec.family is Family.NOVUSS else fit_pool
    hx, hy = spec.half_wh_mm
    g = np.stack(np.meshgrid(np.linspace(-hx, hx, 25), np.linspace(-hy, hy, 13)), -1)
    grid = g.reshape(-1, 2)
    rms, corner_px, times, failed = [], [], [], 0
    reasons: Counter[str] = Counter()
    ks = [k for k in range(frames) if only is None or k in only]
    for k in ks:
        img, cam = random_frame(spec, k)
        t0 = time.perf_counter()
        try:
            calib = fit(img, spec)
        except CalibrationError as exc:
            failed += 1
            print(f"{table} frame {k}: not found: {exc}", flush=True)
            reasons[_reason_kind(str(exc))] += 1
            continue
        times.append(time.perf_counter() - t0)
        px = cam.project(np.column_stack([grid, np.zeros(len(grid))]))
        err = np.linalg.norm(calib.to_table(px) - grid, axis=1)
        rms.append(float(np.sqrt(np.mean(err ** 2))))
        truth = cam.project(np.column_stack([spec.corners_xy_mm(), np.zeros(4)]))
        corner_px.append(float(np.linalg.norm(calib.corners_px() - truth, axis=1).max()))
        wrong = "  WRONG" if rms[-1] >= 5.0 else ""
        if wrong:
            reasons["fitted wrong (RMS >= 5 mm)"] += 1
        print(f"{table} frame {k}: rms {rms[-1]:.2f} mm, corner {corner_px[-1]:.2f} px, "
              f"{times[-1] * 1000:.0f} ms{wrong}", flush=True)
    ok = sum(r < 5.0 for r in rms)
    arr = np.array(rms) if rms else np.array([np.nan])
    frames = len(ks)
    return {
        "reasons": reasons,
        "frames": frames,
        "failed": failed,
        "median_mm": float(np.median(arr)),
        "p95_mm": float(np.percentile(arr, 95)),
        "success": ok / frames,
        "corner_px": float(np.median(corner_px)) if corner_px else float("nan"),
        "fit_ms": 1000 * statistics.median(times) if times else float("nan"),
    }


def _reason_kind(message: str) -> str:
    """A failure message with its numbers masked, so like failures count together."""
    return re.sub(r"-?\d+(\.\d+)?(e[+-]?\d+)?", "#", message)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    ap.add_argument("--table", choices=("novuss", "pool-9ft"), help="only this table type")
    ap.add_argument("--only", help="only these frame indices, comma-separated")
    args = ap.parse_args()
    if args.write and (args.table or args.only):
        ap.error("--write needs every table and every frame")
    only = {int(k) for k in args.only.split(",")} if args.only else None
    lines = [
        "## Calibration (calibration.novuss_features, calibration.pool_features)",
        "",
        f"`python benchmarks/calibration.py --frames {args.frames}`: random 720p renders per"
        " table (tilt up to 15 degrees, off-centre, lens, realistic look on 2 frames in 3, a"
        " cue and hand on 1 in 4). Error: RMS of table points mapped through the fit vs the"
        " true camera, per frame. Success: RMS under 5 mm (a raised error counts as a"
        " failure). Targets (issue 3): median <= 1 mm, 95th <= 3 mm, success >= 99 %,"
        " fit <= 200 ms.",
        "",
        "| table | frames | median RMS mm | 95th pct mm | success | not found | corner px"
        " (median of worst) | fit ms (median) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    histograms = []
    for table in (args.table,) if args.table else ("novuss", "pool-9ft"):
        r = survey(table, args.frames, only)
        reasons: Counter[str] = r["reasons"]  # type: ignore[assignment]
        histograms.append(f"{table} failures by reason:")
        histograms += [f"  {n:4d}  {why}" for why, n in reasons.most_common()] or ["  none"]
        lines.append(
            f"| {table} | {r['frames']} | {r['median_mm']:.2f} | {r['p95_mm']:.2f} | "
            f"{100 * r['success']:.0f} % | {r['failed']} | {r['corner_px']:.2f} | "
            f"{r['fit_ms']:.0f} |"
        )
    text = "\n".join(lines) + "\n"
    print("\n".join(histograms))
    print(text)
    if args.write:
        replace_section("## Calibration", text)


if __name__ == "__main__":
    main()
