"""Tracker and event detector speed against an older commit, frame by frame in one process.

    python benchmarks/tracking_pair.py --ref 5e2b9dc [--clips 5] [--shots 80]

On a shared machine two runs of ``benchmarks/tracking.py`` can differ by tens of percent in
time: the machine's speed drifts by more than a change does. Here the code of ``--ref``
(its ``tracking/tracker.py``, ``kalman.py`` and ``types.py``,
``adjudication/detection/detector.py`` and ``fitting.py``, loaded from git under other
module names; everything else is this checkout's) and this checkout's code take turns on
every frame of the same Novuss doubles clips, so both see the same drift. Printed: the
median time per frame, on frames with 30 or more tracks, of the tracker and of the tracker
with ``MotionEventDetector.update``, for each, and the median of the per-frame ratios
(this checkout over ``--ref``). With ``--shots``, the two event detectors alone also take
turns on every frame of the events benchmark's simulated shots (``benchmarks/events.py``,
seed 0) of each table: mostly frames with objects moving, where the clips have mostly
resting ones.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudication.detection import DetectorSettings, MotionEventDetector  # noqa: E402
from adjudication.games import Game  # noqa: E402
from calibration.tables import get_table  # noqa: E402
from simulation.match import ClipSettings, direct  # noqa: E402
from simulation.observe import ObserveSettings, ground_truth_from_script, observe  # noqa: E402
from tracking.tracker import Tracker  # noqa: E402

# module -> (its path, the imports of its siblings to point at the old copies)
_OLD = {"ref_types": ("tracking/types.py", ()),
        "ref_kalman": ("tracking/kalman.py", ()),
        "ref_tracker": ("tracking/tracker.py", (("tracking.kalman", "ref_kalman"),
                                                ("tracking.types", "ref_types"))),
        "ref_fitting": ("adjudication/detection/fitting.py", ()),
        "ref_detector": ("adjudication/detection/detector.py",
                         (("adjudication.detection.fitting", "ref_fitting"),
                          ("tracking.types", "ref_types")))}


def load_ref(ref: str, into: Path) -> dict[str, ModuleType]:
    """The ``_OLD`` modules as of commit ``ref``, imported from copies in ``into``."""
    for name, (path, renames) in _OLD.items():
        src = subprocess.run(["git", "show", f"{ref}:{path}"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        for old, new in renames:
            src = src.replace(f"from {old} import", f"from {new} import")
        (into / f"{name}.py").write_text(src)
    sys.path.insert(0, str(into))
    return {name: importlib.import_module(name) for name in _OLD}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", required=True, help="the older commit")
    ap.add_argument("--clips", type=int, default=5, help="Novuss doubles clips of 6 shots")
    ap.add_argument("--shots", type=int, default=0,
                    help="also the event detectors alone on this many simulated shots a table")
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # (the clips' duplicated timestamps are logged)
    with tempfile.TemporaryDirectory() as tmp:
        ref = load_ref(args.ref, Path(tmp))
        times: dict[str, list[tuple[float, float]]] = {"ref": [], "new": []}
        for k in range(args.clips):
            seed = 5001 + 5 * k
            gt = ground_truth_from_script(direct(ClipSettings(
                game=Game.NOVUSS_DOUBLES, seed=seed, shots=6)))
            observed = observe(gt, ObserveSettings(), seed=seed)
            spec = get_table(gt.table)
            settings = DetectorSettings.for_game(Game.NOVUSS_DOUBLES)
            runs = {"ref": (ref["ref_tracker"].Tracker(spec),
                            ref["ref_detector"].MotionEventDetector(spec, settings)),
                    "new": (Tracker(spec), MotionEventDetector(spec, settings))}
            for f, obs in enumerate(observed.frames):
                for name in (("ref", "new") if f % 2 else ("new", "ref")):
                    tracker, events = runs[name]
                    t0 = time.perf_counter()
                    tracks = tracker.update(obs)
                    t1 = time.perf_counter()
                    events.update(tracks)
                    t2 = time.perf_counter()
                    if len(tracks) >= 30:
                        times[name].append((t1 - t0, t2 - t0))
            print(f"  clip {k + 1} of {args.clips}", flush=True)
        shots = {table: events_on_shots(ref["ref_detector"], table, args.shots)
                 for table in (("novuss", "pool-9ft") if args.shots else ())}
    old, new = np.array(times["ref"]) * 1e3, np.array(times["new"]) * 1e3
    print(f"{len(old)} frames with >= 30 tracks (Novuss doubles, {args.clips} clips)")
    for col, what in ((0, "tracker"), (1, "tracker + events")):
        print(f"{what:>16}: {args.ref} {np.median(old[:, col]):.3f} ms, this checkout "
              f"{np.median(new[:, col]):.3f} ms, ratio {np.median(new[:, col] / old[:, col]):.3f}")
    for table, (old, new) in shots.items():
        print(f"events alone, {args.shots} {table} shots ({len(old)} frames): {args.ref} "
              f"{np.median(old):.3f} ms, this checkout {np.median(new):.3f} ms, ratio "
              f"{np.median(new / old):.3f} (of the means {new.mean() / old.mean():.3f})")


def events_on_shots(ref_detector: ModuleType, table: str, shots: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Per-frame times (ms) of ``--ref``'s and this checkout's event detectors, taking
    turns on the events benchmark's first ``shots`` simulated shots of ``table``."""
    from benchmarks.events import simulated_shots

    spec = get_table(table)
    times: dict[str, list[float]] = {"ref": [], "new": []}
    for _, _, _, tracks in simulated_shots(spec, shots, 0):
        runs = {"ref": ref_detector.MotionEventDetector(spec), "new": MotionEventDetector(spec)}
        for f, tr in enumerate(tracks):
            for name in (("ref", "new") if f % 2 else ("new", "ref")):
                t0 = time.perf_counter()
                runs[name].update(tr)
                times[name].append(time.perf_counter() - t0)
    print(f"  {shots} {table} shots", flush=True)
    return np.array(times["ref"]) * 1e3, np.array(times["new"]) * 1e3


if __name__ == "__main__":
    main()
