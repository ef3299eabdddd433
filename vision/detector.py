"""The detector at run time: the YOLO model on the canonical view, with ONNX Runtime.

One frame goes through four steps (``Detector.detect``):

1. **warp** the camera frame onto the canonical view (``vision.canonical``), so the model
   sees every object at its trained scale;
2. **model**: one onnxruntime run (session loaded lazily, threads configurable);
3. **suppression by distance**, not box overlap: solid objects cannot overlap, so a
   detection whose centre lies within ``overlap`` of an object's diameter from a stronger
   one is the same object (often the same ball scored as two numbers) and is dropped,
   while touching objects, whose centres are a full diameter apart, both stay; then, on a
   pool table, **each number once**: the labels are read jointly (``unique_labels``), so
   two balls both scored most like the 1 become the 1 and the 9;
4. **sub-pixel centres** (``vision.refine``) fitted to each object's edge in the camera
   frame, then mapped to table mm at the object's own height (parallax).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.canonical import TableWarp
from vision.classes import DETECTOR_CLASSES
from vision.refine import refine_centres

#: The committed model (``models/MODEL_CARD.md``); ``CUEREF_MODEL`` points elsewhere.
DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "cueref-detector.onnx"
REBUILD_HINT = "rebuild it with models/train.py (models/MODEL_CARD.md says how)"
FAMILY_CLASSES = {
    "pool": frozenset(DETECTOR_CLASSES[:16]),
    "novuss": frozenset(DETECTOR_CLASSES[16:]),
}


class DetectorError(RuntimeError):
    """The model cannot be used (missing, corrupt, wrong shape); the message names the
    file and how to rebuild it."""


@dataclass(frozen=True, slots=True)
class Detections:
    """Objects found in one frame, one row each (struct of arrays).

    ``xy_px``/``radius_px`` are in the camera frame (refined where ``refined``),
    ``xy_canon_px`` the same centres in the canonical view, ``xy_mm`` on the table at each
    object's own height. ``fit_rms_mm`` is how far the rim points the refinement kept lie
    from the fitted outline, on the table (NaN where not refined): a rim spoilt by a hand,
    a cue or a neighbour fits worse, and its centre is off by about as much.
    """

    xy_px: np.ndarray  # (N, 2)
    radius_px: np.ndarray  # (N,)
    label: np.ndarray  # (N,) str
    score: np.ndarray  # (N,)
    xy_canon_px: np.ndarray  # (N, 2)
    xyxy_canon_px: np.ndarray  # (N, 4) the model's boxes in the canonical view
    xy_mm: np.ndarray  # (N, 2)
    refined: np.ndarray  # (N,) bool
    fit_rms_mm: np.ndarray  # (N,)

    def __len__(self) -> int:
        return len(self.score)

    @classmethod
    def empty(cls) -> Detections:
        z2, z1 = np.zeros((0, 2)), np.zeros(0)
        return cls(z2, z1, np.zeros(0, dtype="<U10"), z1, z2.copy(), np.zeros((0, 4)),
                   z2.copy(), np.zeros(0, bool), z1.copy())

    def to_json(self) -> list[dict[str, Any]]:
        """One dict per object, as ``cueref detect --json`` prints them."""
        return [
            {
                "label": str(self.label[i]),
                "score": round(float(self.score[i]), 4),
                "xy_px": [round(float(v), 2) for v in self.xy_px[i]],
                "radius_px": round(float(self.radius_px[i]), 2),
                "xy_mm": [round(float(v), 1) for v in self.xy_mm[i]],
                "refined": bool(self.refined[i]),
            }
            for i in range(len(self))
        ]


def suppress_by_distance(xy: np.ndarray, diameter: np.ndarray, score: np.ndarray,
                         overlap: float) -> np.ndarray:
    """Indices kept, strongest first: each drops weaker ones closer than
    ``overlap`` times the larger of the two diameters."""
    order = np.argsort(-score)
    xy, diameter = xy[order], diameter[order]
    d = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    close = d < overlap * np.maximum(diameter[:, None], diameter[None])
    alive = np.ones(len(order), bool)
    for i in range(len(order)):
        if alive[i]:
            close_i = close[i].copy()
            close_i[: i + 1] = False
            alive &= ~close_i
    return order[alive]


def unique_labels(class_scores: np.ndarray, presence: np.ndarray,
                  columns: np.ndarray | None = None) -> np.ndarray:
    """Class per detection ``(N,)`` with each pool ball named at most once: the most
    likely joint reading (sum of log scores, Hungarian) over the ball classes in play
    (``columns``, default all 16), the strongest detections first; one more than there
    are balls (a ball seen twice, a false one) keeps its best class."""
    from scipy.optimize import linear_sum_assignment

    cols_in_play = np.arange(16) if columns is None else np.asarray(columns)
    cls = cols_in_play[class_scores[:, cols_in_play].argmax(axis=1)]
    order = np.argsort(-presence)
    take = order[: min(len(order), len(cols_in_play))]
    cost = -np.log(np.clip(class_scores[take][:, cols_in_play], 1e-6, 1.0))
    rows, cols = linear_sum_assignment(cost)
    cls[take[rows]] = cols_in_play[cols]
    return cls


class Detector:
    """The ONNX model and its post-processing; cheap to create, loads on first use."""

    def __init__(self, model_path: str | Path | None = None, *, threads: int = 2,
                 min_score: float = 0.35, overlap: float = 0.6, refine: bool = True,
                 unique_labels: bool = True, classes: Iterable[str] | None = None):
        self.model_path = Path(model_path or os.environ.get("CUEREF_MODEL") or DEFAULT_MODEL)
        self.threads = threads
        self.min_score = min_score
        self.overlap = overlap
        self.refine = refine
        self.unique_labels = unique_labels
        #: the classes in play (a 9-ball rack has no 14): None keeps the table family's
        self.classes = frozenset(classes) if classes is not None else None
        unknown = (self.classes or frozenset()) - set(DETECTOR_CLASSES)
        if unknown:
            raise ValueError(f"unknown detector classes: {', '.join(sorted(unknown))}")
        self._session: Any = None
        self._input = ""
        self._fixed_hw: tuple[int, int] | None = None

    def load(self) -> None:
        """Open the ONNX session now (``detect`` does it on first use)."""
        if self._session is not None:
            return
        path = self.model_path
        if not path.is_file():
            raise DetectorError(f"detector model {path} not found; {REBUILD_HINT}")
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self.threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        # Idle threads sleep instead of spinning: a frame's other work (decoding, the warp,
        # refinement, tracking) shares the same few cores, and spinning threads slow it.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own, untyped errors
            raise DetectorError(
                f"detector model {path} cannot be loaded ({str(exc).splitlines()[0][:120]}); "
                f"{REBUILD_HINT}") from None
        inp, out = session.get_inputs()[0], session.get_outputs()[0]
        channels = out.shape[1] if len(out.shape) == 3 else None
        if len(inp.shape) != 4 or inp.shape[1] != 3 or (
            isinstance(channels, int) and channels != 4 + len(DETECTOR_CLASSES)
        ):
            raise DetectorError(
                f"detector model {path} has input {inp.shape} and output {out.shape}, not a "
                f"{len(DETECTOR_CLASSES)}-class detector of (1, 3, H, W) images; {REBUILD_HINT}")
        h, w = inp.shape[2], inp.shape[3]
        self._fixed_hw = (h, w) if isinstance(h, int) and isinstance(w, int) else None
        self._input = inp.name
        self._session = session

    def detect(self, bgr: np.ndarray, warp: TableWarp,
               heights_mm: Mapping[str, float] | None = None) -> Detections:
        """Every object in a camera frame; ``heights_mm`` gives each label's silhouette
        centre height for the parallax (default 0: the table plane)."""
        self.load()
        canon = warp(bgr)
        w, h = warp.view.size_wh
        if self._fixed_hw is not None and self._fixed_hw != (h, w):
            raise DetectorError(
                f"detector model {self.model_path} takes {self._fixed_hw[1]}x"
                f"{self._fixed_hw[0]} images but the {warp.view.kind} view is {w}x{h}; "
                f"{REBUILD_HINT} with a dynamic input size")
        x = np.ascontiguousarray(canon[:, :, ::-1].transpose(2, 0, 1))[None].astype(np.float32)
        x *= 1.0 / 255.0
        out = self._session.run(None, {self._input: x})[0][0]  # (4 + nc, anchors)
        return self._postprocess(out, bgr, warp, heights_mm or {})

    def _postprocess(self, out: np.ndarray, bgr: np.ndarray, warp: TableWarp,
                     heights_mm: Mapping[str, float]) -> Detections:
        allowed = FAMILY_CLASSES[warp.view.kind]
        if self.classes is not None:
            allowed = allowed & self.classes
        mask = np.array([c in allowed for c in DETECTOR_CLASSES])
        scores = np.where(mask[:, None], out[4:], 0.0)
        cls = scores.argmax(axis=0)
        best = scores[cls, np.arange(scores.shape[1])]
        # Is *some* object there? Class scores are independent: a ball scored 0.25 as the
        # 3 and 0.25 as the 5 is still surely a ball, whose number is in doubt.
        presence = 1.0 - np.prod(1.0 - scores, axis=0)
        keep = presence >= self.min_score
        if not keep.any():
            return Detections.empty()
        boxes, presence = out[:4, keep].T, presence[keep]
        cls, best, class_scores = cls[keep], best[keep], scores[:, keep].T
        # training boxes span every pixel the silhouette touches: one more than its width
        diameter = np.maximum(0.5 * (boxes[:, 2] + boxes[:, 3]) - 1.0, 1.0)
        idx = suppress_by_distance(boxes[:, :2], diameter, presence, self.overlap)
        boxes, diameter, cls, best = boxes[idx], diameter[idx], cls[idx], best[idx]
        if self.unique_labels and warp.view.kind == "pool":
            cls = unique_labels(class_scores[idx], presence[idx], np.flatnonzero(mask[:16]))
            best = class_scores[idx][np.arange(len(cls)), cls]
        uv = boxes[:, :2] - 0.5  # the model's pixels span [i, i + 1]; ours centre on i
        labels = np.array([DETECTOR_CLASSES[c] for c in cls])
        xy_px = warp.canon_to_image(uv)
        radius_px = 0.5 * diameter * warp.image_px_per_canon_px(uv)
        refined = np.zeros(len(uv), bool)
        fit_rms_mm = rms_px = np.full(len(uv), np.nan)
        if self.refine:
            r = refine_centres(bgr, xy_px, radius_px)
            xy_px, radius_px, refined = r.xy_px, r.radius_px, r.ok
            rms_px = np.where(refined, r.rms_px, np.nan)
        z = np.array([heights_mm.get(lb, 0.0) for lb in labels], float)
        xy_mm = warp.mapping.to_table(xy_px, z)
        if refined.any():  # (a pixel's size on the table there: the mean of its two sides)
            step = [warp.mapping.to_table(xy_px + d, z) - xy_mm
                    for d in ([1.0, 0.0], [0.0, 1.0])]
            fit_rms_mm = rms_px * 0.5 * sum(np.linalg.norm(d, axis=1) for d in step)
        return Detections(
            xy_px=xy_px,
            radius_px=radius_px,
            label=labels,
            score=best.astype(float),
            xy_canon_px=warp.image_to_canon(xy_px),
            xyxy_canon_px=np.column_stack([uv - boxes[:, 2:] / 2, uv + boxes[:, 2:] / 2]),
            xy_mm=xy_mm,
            refined=refined,
            fit_rms_mm=fit_rms_mm,
        )
