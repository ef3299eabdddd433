"""How often cueref's calls are right: the whole pipeline from pixels on every sample clip.

    python benchmarks/pipeline.py [--clips 9ball,split_hit] [--write]

Each clip goes through ``cueref run`` as a user runs it (calibration found and kept by
the pipeline itself, the committed detector, tracker, event detection, rules engine),
with the players' declarations from the sidecar (what the camera cannot see). Its calls
are compared with the clip's ground-truth calls (the rules engine on the simulator's exact
events): a call is right when a ground-truth call has the same shot, rule and outcome.
Events are compared per kind (same kind and objects, within 0.1 s; 0.6 s for shot ends),
and judged as the events benchmark judges them: contacts and cushions the camera cannot see
(an approach under 50 mm/s, a repeat of the same pair within 0.1 s) are don't-cares, and
pushes between objects resting touching are counted apart (``truth_class``).
The same clips are also run in the development mode (``--dev-observations``: ground truth
with realistic detection noise, no pixels), which separates what vision loses from what
tracking, events and rules lose.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudication.games import parse_game  # noqa: E402
from benchmarks.events import MIN_SPEED_MM_S, REPEAT_S  # noqa: E402
from benchmarks.report import replace_section  # noqa: E402
from calibration.tables import Family, TableSpec, get_table  # noqa: E402
from cueref.commands import referee_video  # noqa: E402
from cueref.pipeline import Pipeline, sidecar_observations  # noqa: E402
from simulation.groundtruth import load_sidecar, sidecar_declarations  # noqa: E402
from simulation.observe import ground_truth_from_sidecar  # noqa: E402
from simulation.trackeval import id_switches, match_mm  # noqa: E402
from tracking.types import Observations, Tracks  # noqa: E402
from vision.detector import Detector  # noqa: E402

SAMPLES = ROOT / "sample_videos"
_STILL_MM = 1.0  # at rest: moved less than this in the frame before; touching: gap below it
KINDS = ("shot_start", "contact", "cushion", "pocket", "off_table", "line_cross", "shot_end")


def _key(call: dict) -> tuple:
    return call["shot"], call["rule"], call["outcome"]


def compare_calls(ours: list[dict], truth: list[dict]) -> tuple[int, int, int]:
    """(right, ours, truth): calls matching a ground-truth call by shot, rule, outcome."""
    left = Counter(_key(c) for c in truth)
    right = 0
    for c in ours:
        if left[_key(c)] > 0:
            left[_key(c)] -= 1
            right += 1
    return right, len(ours), len(truth)


def truth_class(sidecar: dict, spec: TableSpec, e: dict) -> str:
    """What the camera can see of a ground-truth contact or cushion ``e``, judged as the
    events benchmark judges the physics' log, on the sidecar's own frames (the last one
    before the event and the one before that): ``seen`` (an approach at
    ``MIN_SPEED_MM_S`` or more), ``push`` (between objects resting touching, or into a
    cushion an object rested against: the camera sees them start in one frame, not
    which pair carried the impulse) or ``dont_care`` (a slower approach, or a repeat of
    the same pair within ``REPEAT_S``). Other kinds are ``seen``."""
    if e["kind"] not in ("contact", "cushion"):
        return "seen"
    frames, f = sidecar["frames"], int(e["frame"])
    if not 1 <= f < len(frames):
        return "seen"
    ids = [o["id"] - 1 for o in e["objects"]]
    xy = np.asarray(frames[f]["xy_mm"], float)[ids]
    v_mm_s = (xy - np.asarray(frames[f - 1]["xy_mm"], float)[ids]) * sidecar["fps"]
    still = np.linalg.norm(v_mm_s, axis=1) / sidecar["fps"] < _STILL_MM
    r_mm = [spec.object_for(o["label"]).radius_mm for o in e["objects"]]
    if e["kind"] == "contact":
        gap = xy[1] - xy[0]
        n = gap / max(float(np.linalg.norm(gap)), 1e-9)
        if still.all() and float(np.linalg.norm(gap)) - sum(r_mm) <= _STILL_MM:
            return "push"
        approach = float((v_mm_s[0] - v_mm_s[1]) @ n)
    else:
        c = next(c for c in spec.cushions if c.name == e["cushion"])
        normal = np.asarray(c.normal_xy, float)  # into the table
        if still[0] and float((xy[0] - np.asarray(c.a_xy_mm)) @ normal) - r_mm[0] <= _STILL_MM:
            return "push"
        approach = -float(v_mm_s[0] @ normal)
    return "seen" if approach >= MIN_SPEED_MM_S else "dont_care"


def compare_events(ours: list[dict], sidecar: dict, spec: TableSpec, *,
                   lines_logged: bool = True) -> dict[str, dict[str, int]]:
    """Per kind, counts: ``seen`` / ``seen_found`` (observable ground-truth events and
    those we found: same kind and labels, close in time), ``push`` / ``push_found``,
    ``ours`` and ``false`` (ours matching no ground-truth event, don't-cares included:
    a detection of a don't-care is neither right nor false). A sidecar whose director
    logs no line crossings (``lines_logged`` False: the pool clips, whose head string
    the simulator does not track) counts none of ours either."""
    keys = ("seen", "seen_found", "push", "push_found", "ours", "false")
    out: dict[str, dict[str, int]] = {k: dict.fromkeys(keys, 0) for k in KINDS}
    if not lines_logged:
        ours = [e for e in ours if e["kind"] != "line_cross"]
    ours = [e for e in ours if e["kind"] in out]
    truth: list[tuple[dict, str]] = []
    last: dict[tuple, float] = {}
    for t in sidecar["events"]:
        if t["kind"] not in out:
            continue
        key = (t["kind"], frozenset(o["id"] for o in t["objects"]), t.get("cushion"))
        repeat = (t["kind"] in ("contact", "cushion")
                  and t["t_s"] - last.get(key, -math.inf) < REPEAT_S)
        last[key] = t["t_s"]
        truth.append((t, "dont_care" if repeat else truth_class(sidecar, spec, t)))
    used: set[int] = set()
    # the events that count take their matches first, the don't-cares what is left
    for t, cls in sorted(truth, key=lambda tc: tc[1] == "dont_care"):
        kind = t["kind"]
        tol = 0.6 if kind == "shot_end" else 0.1
        labels = sorted(o["label"] for o in t["objects"])
        found = next((i for i, e in enumerate(ours)
                      if i not in used and e["kind"] == kind and abs(e["t_s"] - t["t_s"]) <= tol
                      and sorted(o["label"] for o in e["objects"]) == labels), None)
        if found is not None:
            used.add(found)
        if cls != "dont_care":
            out[kind][cls] += 1
            out[kind][f"{cls}_found"] += found is not None
    for i, e in enumerate(ours):
        out[e["kind"]]["ours"] += 1
        out[e["kind"]]["false"] += i not in used
    return out


SPEED_BINS_MM_S = (0.0, 50.0, 500.0, 1500.0, 3000.0, 5000.0, math.inf)


def detection_by_speed(sidecar: dict, spec: TableSpec, frames: list[Observations]
                       ) -> dict[str, np.ndarray]:
    """Per bin of ``SPEED_BINS_MM_S`` (an object's speed over the frame before, from the
    sidecar): ``objects`` on the surface and at least half in view, ``found`` (a detection
    of its label within ``match_mm``) and ``err_sum`` (their distances, mm)."""
    n = len(SPEED_BINS_MM_S) - 1
    out = {k: np.zeros(n) for k in ("objects", "found", "err_sum")}
    truth, fps = sidecar["frames"], float(sidecar["fps"])
    labels = np.array([o["label"] for o in sidecar["objects"]])
    gate = match_mm(spec.name)
    for obs in frames:
        f = int(obs.frame)
        if not 1 <= f < len(truth):
            continue
        xy = np.asarray(truth[f]["xy_mm"], float)
        v = np.linalg.norm(xy - np.asarray(truth[f - 1]["xy_mm"], float), axis=1) * fps
        on = ((np.asarray(truth[f]["status"]) == 0) & (np.asarray(truth[f]["visible"]) >= 0.5)
              & np.isfinite(v))
        k = np.searchsorted(SPEED_BINS_MM_S, v[on], side="right") - 1
        d = np.full(int(on.sum()), np.inf)
        if len(obs):
            dist = np.linalg.norm(xy[on][:, None] - obs.xy_mm[None], axis=2)
            dist[labels[on][:, None] != np.array(obs.label)[None]] = np.inf
            d = dist.min(axis=1)
        hit = d <= gate
        np.add.at(out["objects"], k, 1)
        np.add.at(out["found"], k[hit], 1)
        np.add.at(out["err_sum"], k[hit], d[hit])
    return out


def run_clip(name: str, detector: Detector, out_dir: Path) -> dict:
    truth = load_sidecar(SAMPLES / f"{name}.json")
    game, spec = parse_game(truth["game"]), get_table(truth["table"])
    players = tuple(truth["players"])
    decl = sidecar_declarations(truth)
    truth_calls = [c for s in truth["shots"] for c in s["calls"]]
    result = {"clip": name, "frames": truth["n_frames"]}

    out = out_dir / f"{name}.calls.jsonl"
    gt = ground_truth_from_sidecar(truth)
    run: list[Tracks] = []
    seen: list[Observations] = []
    t0 = time.perf_counter()
    summary = referee_video(SAMPLES / f"{name}.mp4", game=game, spec=spec, players=players,
                            detector=detector, out=out, declarations=decl,
                            on_tracks=run.append, on_observations=seen.append)
    result["seconds"] = time.perf_counter() - t0
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    result["pixels"] = {
        "calls": compare_calls(summary.calls, truth_calls),
        "events": compare_events([e for e in lines if e["type"] == "event"], truth, spec,
                                 lines_logged=spec.family is Family.NOVUSS),
        "review": sum(c["outcome"] == "review" for c in summary.calls),
        "ms_per_frame": summary.ms_per_frame,
        "ids": id_switches(gt, np.array([tr.frame for tr in run]), run,
                           max_mm=match_mm(spec.name)),
        "by_speed": detection_by_speed(truth, spec, seen),
    }

    written: list[dict] = []
    pipe = Pipeline(game=game, spec=spec, players=players, observer=None, keeper=None,
                    write=written.append, declarations=decl)
    for obs in sidecar_observations(truth):
        pipe.feed_observations(obs)
    dev = pipe.close()
    result["dev"] = {
        "calls": compare_calls(dev.calls, truth_calls),
        "events": compare_events([e for e in written if e["type"] == "event"], truth, spec,
                                 lines_logged=spec.family is Family.NOVUSS),
        "review": sum(c["outcome"] == "review" for c in dev.calls),
        "ms_per_frame": dev.ms_per_frame,
    }
    return result


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "–"


def report(results: list[dict]) -> str:
    lines = ["## Whole pipeline on the sample clips (cueref run)", "",
             "`python benchmarks/pipeline.py`: every sample clip through `cueref run` from its "
             "pixels (calibration found by the pipeline, the committed float detector on 2 "
             "threads, tracker, event detection, rules engine; declarations from the sidecar), "
             "and again in the development mode (ground truth with detection noise, no "
             "pixels). A call is right when a ground-truth call has the same shot, rule and "
             "outcome; recall = right / ground-truth calls, precision = right / our calls. "
             "Events: same kind and objects within 0.1 s (shot ends 0.6 s), judged as the "
             "events benchmark judges them (from the sidecar's frames before each event: an "
             "approach under 50 mm/s or a repeat within 0.1 s is a don't-care, a push "
             "between objects resting touching is counted apart); line crossings on the "
             "Novuss clips only (the pool sidecars do not log head-string crossings). ID "
             "switches: of the tracks from the pixels against the ground truth, as the "
             "tracking benchmark counts them (CLEAR-MOT, within 30 mm pool, 20 mm Novuss).",
             "",
             "| clip | frames | calls right (pixels) | recall | precision | review | "
             "calls right (dev mode) | recall | precision | ID switches (pixels) | "
             "ms per frame (pixels) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    tot = {"p": [0, 0, 0], "d": [0, 0, 0]}
    for r in results:
        p, d = r["pixels"]["calls"], r["dev"]["calls"]
        for k in range(3):
            tot["p"][k] += p[k]
            tot["d"][k] += d[k]
        lines.append(f"| {r['clip']} | {r['frames']} | {p[0]} of {p[2]} | {_ratio(p[0], p[2])} "
                     f"| {_ratio(p[0], p[1])} | {r['pixels']['review']} | {d[0]} of {d[2]} | "
                     f"{_ratio(d[0], d[2])} | {_ratio(d[0], d[1])} | "
                     f"{r['pixels']['ids']['switches']} | {r['pixels']['ms_per_frame']:.1f} |")
    p, d = tot["p"], tot["d"]
    ms = statistics.median(r["pixels"]["ms_per_frame"] for r in results)
    lines.append(f"| **all** | {sum(r['frames'] for r in results)} | {p[0]} of {p[2]} | "
                 f"{_ratio(p[0], p[2])} | {_ratio(p[0], p[1])} | "
                 f"{sum(r['pixels']['review'] for r in results)} | {d[0]} of {d[2]} | "
                 f"{_ratio(d[0], d[2])} | {_ratio(d[0], d[1])} | "
                 f"{sum(r['pixels']['ids']['switches'] for r in results)} | "
                 f"{ms:.1f} (median) |")
    lines += ["", "Events over all clips. Found / observable ground-truth events and recall; "
              "pushes (contacts between objects resting touching, cushions pressed by an "
              "object resting against them) found / all, apart; precision = 1 - ours "
              "matching no ground-truth event / ours (a detection of a don't-care, a slower "
              "approach or a repeat, counts neither way):", "",
              "| kind | pixels: found / observable | recall | pushes | precision | "
              "dev mode: found / observable | recall | pushes | precision |",
              "|---|---|---|---|---|---|---|---|---|"]
    for kind in KINDS:
        cells = []
        for mode in ("pixels", "dev"):
            c = {k: sum(r[mode]["events"][kind][k] for r in results)
                 for k in results[0][mode]["events"][kind]}
            pushes = f"{c['push_found']} / {c['push']}" if c["push"] else "–"
            cells += [f"{c['seen_found']} / {c['seen']}", _ratio(c["seen_found"], c["seen"]),
                      pushes, _ratio(c["ours"] - c["false"], c["ours"])]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    lines += ["", "The detector from the pixels by how fast objects move (over the frame before; "
              "objects on the surface and at least half in view, every frame of every clip): "
              "found = a detection of its label within the ID-switch distance; error: their "
              "mean distance from the truth. The training renders (recipe version 1) blurred "
              "objects at 0.2-2.5 m/s only:", "",
              "| speed mm/s | objects | found | recall | mean error mm |", "|---|---|---|---|---|"]
    for k in range(len(SPEED_BINS_MM_S) - 1):
        lo, hi = SPEED_BINS_MM_S[k], SPEED_BINS_MM_S[k + 1]
        c = {key: sum(r["pixels"]["by_speed"][key][k] for r in results)
             for key in ("objects", "found", "err_sum")}
        span = f"{lo:.0f}+" if math.isinf(hi) else f"{lo:.0f}-{hi:.0f}"
        err = f"{c['err_sum'] / c['found']:.1f}" if c["found"] else "–"
        lines.append(f"| {span} | {c['objects']:.0f} | {c['found']:.0f} | "
                     f"{_ratio(int(c['found']), int(c['objects']))} | {err} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clips", default="", help="comma-separated clip names (default: all)")
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "pipeline-bench")
    ap.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = ap.parse_args()
    manifest = json.loads((SAMPLES / "manifest.json").read_text())
    names = args.clips.split(",") if args.clips else [c["name"] for c in manifest["clips"]]
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    for name in names:
        game = parse_game(json.loads((SAMPLES / f"{name}.json").read_text())["game"])
        r = run_clip(name, Detector(threads=2, classes=game.labels), args.out)
        print(f"{name}: calls {r['pixels']['calls']} (dev {r['dev']['calls']}), "
              f"{r['pixels']['ms_per_frame']:.1f} ms/frame", flush=True)
        results.append(r)
    text = report(results)
    print(text)
    if args.write:
        replace_section(text.splitlines()[0], text)


if __name__ == "__main__":
    main()
