"""Render a script to an H.264 clip with its ground-truth sidecar and call stream.

Three files per clip, side by side:

* ``NAME.mp4``: what the overhead camera saw;
* ``NAME.json``: the sidecar: per frame every object's position in mm and in pixels, its
  visibility and the camera in use; per shot the exact event log, the plan the bot had,
  the referee's calls and the state after it; the cameras (intrinsics, lens, pose);
and the ground-truth call stream (``ClipFiles.call_lines``), in the public format, which
the application writes and validates as ``NAME.calls.jsonl``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simulation.appearance import Appearance, random_appearance
from simulation.match import POCKETED, REMOVED, ClipSettings, Script, direct
from simulation.render import Renderer, SceneFrame
from simulation.video import VideoWriter

log = logging.getLogger(__name__)
SIDECAR_VERSION = 1


@dataclass(frozen=True, slots=True)
class ClipFiles:
    video: Path
    sidecar: Path
    call_lines: tuple[dict[str, Any], ...]
    n_frames: int
    duration_s: float
    render_s: float


def call_stream(script: Script, source: str) -> list[dict[str, Any]]:
    """The ground-truth call stream: match start, every event, calls and states per shot."""
    s = script.settings
    start: dict[str, Any] = {
        "v": 1, "type": "match_start", "game": s.game.value, "table": script.spec.name,
        "source": source, "fps": s.fps, "frame_wh": list(s.resolution_wh),
        "players": list(s.player_names),
    }
    first = script.states[0]
    if first.novuss is not None:  # who plays which colour is the rules engine's business
        start["colours"] = dict(zip(first.players, first.novuss.colours, strict=True))
    lines: list[dict[str, Any]] = [start]
    by_shot: dict[int, list[dict[str, Any]]] = {}
    for rec in script.shots:
        state = rec.judgement.state.to_json()
        state.setdefault("shot", rec.number)
        by_shot[rec.number] = [*(c.to_json() for c in rec.judgement.calls), state]
    for ev in script.events:
        lines.append(ev.to_json())
        if ev.kind == "shot_end":  # the shot's calls and the state after it follow its end
            lines.extend(by_shot.pop(ev.shot, []))
    return lines


def sidecar(script: Script, appearance: Appearance, frames: list[dict[str, Any]],
            video_name: str) -> dict[str, Any]:
    s = script.settings
    shots = []
    for rec in script.shots:
        shots.append({
            "number": rec.number,
            "player": rec.player,
            "t_start_s": round(rec.shot.t_start_s, 6),
            "t_end_s": round(rec.shot.t_end_s, 6),
            "plan": rec.plan,
            "declaration": rec.declaration.to_json(),
            "before": _layout_json(rec.shot.before),
            "after": _layout_json(rec.shot.after),
            "events": [e.to_json() for e in rec.shot.events],
            "between": [e.to_json() for e in rec.shot.between],
            "calls": [c.to_json() for c in rec.judgement.calls],
            "orders": [
                {"kind": o.kind, "labels": list(o.labels),
                 "xy_mm": [[round(float(v), 2) for v in xy] for xy in o.xy_mm]}
                for o in rec.judgement.orders
            ],
            "state": rec.judgement.state.to_json(),
        })
    return {
        "version": SIDECAR_VERSION,
        "generator": "cueref.simulation",
        "video": video_name,
        "game": s.game.value,
        "table": script.spec.name,
        "seed": s.seed,
        "case": s.case,
        "players": list(s.player_names),
        "fps": s.fps,
        "frame_wh": list(s.resolution_wh),
        "n_frames": len(frames),
        "duration_s": round(script.duration_s, 6),
        "realism": s.realism,
        "appearance": appearance.to_json(),
        "cameras": [c.to_json() for c in script.cameras],
        "camera_switch_s": [round(t, 6) for t in script.camera_switch_s],
        "objects": [{"id": int(i), "label": lb} for i, lb in zip(script.ids, script.labels,
                                                                 strict=True)],
        "frame_fields": {
            "xy_mm": "object reference point in the table frame (ball centre, disc centre)",
            "z_mm": "elevation of the object's base: 0 on the surface, < 0 in a pocket cup",
            "xy_px": "projection of the ball centre / disc top-face centre, lens included",
            "visible": "share of the object not hidden (occluders, graphics, frame edge)",
            "status": "0 on table, 1 pocketed, 2 off table, 3 not on the table",
        },
        "frames": frames,
        "events": [e.to_json() for e in script.events],
        "shots": shots,
        "states": [st.to_json() for st in script.states],
    }


def _layout_json(layout: Any) -> list[dict[str, Any]]:
    return [{"id": int(i), "label": lb, "xy_mm": [round(float(x), 3), round(float(y), 3)]}
            for i, lb, (x, y) in zip(layout.ids, layout.labels, layout.xy_mm, strict=True)]


def frame_scene(script: Script, t_s: float, exposure_s: float, samples: int) -> SceneFrame:
    """What the camera sees at ``t_s``: positions over the exposure, occluders, camera."""
    seg = script.segment_at(t_s)
    offsets = np.linspace(-exposure_s / 2, exposure_s / 2, samples) if samples > 1 else [0.0]
    times = np.asarray(t_s + np.asarray(offsets), dtype=float)
    xy, z = seg.at(times)
    status = seg.status_at(t_s)
    visible = status != REMOVED
    if script.spec.family == "novuss":
        visible &= status != POCKETED
    return SceneFrame(
        t_s=t_s,
        camera=script.cameras[script.camera_index(t_s)],
        ids=script.ids,
        labels=script.labels,
        xy_mm=xy,
        z_mm=z,
        visible=visible,
        occluders=seg.occluders(t_s),
    ), status


def render_clip(
    settings: ClipSettings,
    out_dir: str | Path,
    name: str = "clip",
    *,
    crf: int = 26,
    progress: Callable[[int, int], None] | None = None,
) -> ClipFiles:
    """Direct, render and encode one clip; returns the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    script = direct(settings)
    rng = np.random.default_rng([settings.seed, 3])
    appearance = random_appearance(script.spec, rng, realism=settings.realism)
    renderer = Renderer(script.spec, appearance, seed=settings.seed)
    exposure_s = float(getattr(appearance, "exposure_s", 0.5 / settings.fps))
    video_path, sidecar_path = out / f"{name}.mp4", out / f"{name}.json"
    frames: list[dict[str, Any]] = []
    n = script.n_frames
    t_start = time.perf_counter()
    with VideoWriter(video_path, settings.fps, settings.resolution_wh, crf=crf) as writer:
        for k, t in enumerate(script.frame_times()):
            scene, status = frame_scene(script, float(t), exposure_s, settings.exposure_samples)
            rendered = renderer.render(scene)
            writer.write(rendered.bgr)
            mid = scene.xy_mm.shape[0] // 2
            frames.append({
                "i": k,
                "t_s": round(float(t), 6),
                "camera": script.camera_index(float(t)),
                "xy_mm": np.round(scene.xy_mm[mid], 2).tolist(),
                "z_mm": np.round(scene.z_mm[mid], 2).tolist(),
                "xy_px": np.round(rendered.xy_px, 2).tolist(),
                "radius_px": np.round(rendered.radius_px, 2).tolist(),
                "visible": np.round(rendered.visible_fraction, 3).tolist(),
                "status": status.astype(int).tolist(),
            })
            if progress is not None:
                progress(k + 1, n)
    render_s = time.perf_counter() - t_start
    data = sidecar(script, appearance, frames, video_path.name)
    sidecar_path.write_text(json.dumps(data, separators=(",", ":")))
    lines = tuple(call_stream(script, source=video_path.name))
    return ClipFiles(video_path, sidecar_path, lines, n, script.duration_s, render_s)

