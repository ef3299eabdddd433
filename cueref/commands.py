"""The subcommands behind ``cueref.cli``. Each takes the parsed arguments, returns 0,
and raises ``UsageError`` for bad input."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from calibration.tables import NOVUSS_LABELS, POOL_LABELS
from cueref.cli import UsageError, _game, _out_dir, _resolution, _table

if TYPE_CHECKING:
    from collections.abc import Callable

    from calibration.model import Calibration
    from calibration.tables import TableSpec
    from cueref.sources import SourceFrame
    from tracking.types import Observations, Tracks
    from vision.detector import Detections, Detector

log = logging.getLogger("cueref")


def _progress_bar(total_desc: str, unit: str = "frame"):  # type: ignore[no-untyped-def]
    from tqdm import tqdm

    bar = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, desc=total_desc, unit=unit, file=sys.stderr,
                       disable=None, leave=False)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


def cmd_simulate(args: argparse.Namespace) -> int:
    from cueref.stream import JsonlSink
    from simulation.clip import render_clip
    from simulation.match import ClipSettings

    game = _game(args.game)
    table = _table(args.table) if args.table else None
    out = _out_dir(args.out)
    if not args.name or "/" in args.name:
        raise UsageError(f"--name {args.name!r} must be a plain file name")
    try:
        settings = ClipSettings(
            game=game, seed=args.seed, shots=args.shots, table=table, fps=args.fps,
            resolution_wh=_resolution(args.resolution), realism=args.realism, case=args.case,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    files = render_clip(settings, out, args.name, progress=_progress_bar("rendering"))
    calls_path = out / f"{args.name}.calls.jsonl"
    with JsonlSink(calls_path) as sink:
        sink.write_all(files.call_lines)
    calls = [ln for ln in files.call_lines if ln["type"] == "call"]
    print(f"simulated {game.value}: {files.n_frames} frames, {files.duration_s:.1f} s "
          f"({files.n_frames / max(files.render_s, 1e-9):.1f} frames/s rendered)")
    print(f"  video    {files.video}")
    print(f"  sidecar  {files.sidecar}")
    print(f"  calls    {calls_path} ({len(calls)} ground-truth calls)")
    return 0


#: The smallest frame the table can be looked for in (shorter side, pixels).
MIN_FRAME_SIDE_PX = 120
CHECK_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


def _read_frame(source: str, index: int) -> SourceFrame:
    """Frame ``index`` of an image or video file, large enough to look for a table in."""
    from cueref.sources import SourceError, read_frame

    try:
        frame = read_frame(source, index)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    w, h = frame.resolution_wh
    if min(w, h) < MIN_FRAME_SIDE_PX:
        raise UsageError(f"{source!r} is {w}x{h} px, too small to find a table in (the shorter "
                         f"side needs {MIN_FRAME_SIDE_PX} px or more)")
    return frame


@dataclass(frozen=True, slots=True)
class Calibrated:
    """A frame's calibration as the commands report it: the camera in the table frame,
    how it was found (``fit`` or ``corners``), how its orientation was settled, and the
    detections made to settle it, in the final frame (None when none were made)."""

    calib: Calibration
    method: str
    orientation: dict[str, Any]
    detections: Detections | None


def _calibrate(frame: SourceFrame, spec: TableSpec, *, where: str,
               corners: list[float] | None, orientation: int | None,
               detector: Detector | None) -> Calibrated:
    """Fit the table in ``frame`` (or take ``corners``), then turn it to the table frame:
    by ``orientation`` when given, else as the objects that ``detector`` finds explain
    (a ``None`` detector leaves the frame as fitted)."""
    from calibration.fit import fit
    from calibration.manual import from_corners
    from calibration.model import CalibrationError
    from calibration.orientation import ROTATIONS, infer_orientation, rotate, rotate_detections
    from calibration.views import detector_warp, silhouette_heights_mm

    if orientation is not None and orientation not in ROTATIONS[spec.family]:
        turns = " or ".join(str(d) for d in ROTATIONS[spec.family])
        raise UsageError(f"--orientation {orientation}: a {spec.family.value} table turns by "
                         f"{turns} degrees")
    if corners is not None:
        try:
            calib = from_corners(spec, corners, frame.resolution_wh)
        except CalibrationError as exc:
            raise UsageError(f"bad --corners for {where}: {exc}") from None
        method = "corners"
    else:
        try:
            calib = fit(frame.bgr, spec)
        except CalibrationError as exc:
            raise UsageError(
                f"{exc} in {where}; is --table {spec.name} right? If it is, give the table's "
                "corners with --corners (see --help)") from None
        method = "fit"

    if orientation is not None:
        calib = rotate(calib, orientation)
        return Calibrated(calib, method, {"turn_deg": orientation, "by": "--orientation",
                                          "reason": f"set by --orientation {orientation}"}, None)
    if detector is None:
        return Calibrated(calib, method, {
            "turn_deg": 0, "by": "none",
            "reason": "the detector is not available to see the set-up; kept the frame as "
                      "found (give --orientation)"}, None)
    dets = detector.detect(frame.bgr, detector_warp(calib), silhouette_heights_mm(spec))
    verdict = infer_orientation(calib, dets.xy_mm, dets.label)
    info = {"turn_deg": verdict.deg or 0, "by": "objects" if verdict.deg is not None else "none",
            "reason": verdict.reason, "support": {str(k): v for k, v in verdict.support.items()}}
    if verdict.deg:
        return Calibrated(rotate(calib, verdict.deg), method, info,
                          rotate_detections(dets, spec, verdict.deg))
    return Calibrated(calib, method, info, dets)


def _check_image_path(value: str | None) -> Path | None:
    if value is None:
        return None
    path = Path(value)
    if path.suffix.lower() not in CHECK_IMAGE_SUFFIXES:
        raise UsageError(f"--check-image {value!r} must end in "
                         f"{', '.join(CHECK_IMAGE_SUFFIXES)}")
    if not path.parent.is_dir():
        raise UsageError(f"--check-image {value!r}: folder {str(path.parent)!r} not found")
    return path


def cmd_calibrate(args: argparse.Namespace) -> int:
    import json

    import cv2
    import numpy as np

    from calibration.check_image import draw_check_image
    from calibration.tables import get_table
    from vision.detector import Detector, DetectorError

    spec = get_table(_table(args.table))
    check_path = _check_image_path(args.check_image)
    frame = _read_frame(args.source, args.frame)
    detector = Detector() if args.orientation is None else None
    if detector is not None:
        try:
            detector.load()
        except DetectorError as exc:
            log.warning("cannot settle the orientation from the objects: %s", exc)
            detector = None
    where = f"frame {frame.index} of {args.source}"
    done = _calibrate(frame, spec, where=where, corners=args.corners,
                      orientation=args.orientation, detector=detector)
    calib = done.calib
    if check_path is not None and not cv2.imwrite(str(check_path),
                                                  draw_check_image(frame.bgr, calib)):
        raise UsageError(f"cannot write the check image {str(check_path)!r}")
    pockets_px = calib.to_image(np.array([p.centre_xy_mm for p in spec.pockets]))
    if args.json:
        print(json.dumps({
            "source": args.source, "frame": frame.index, "t_s": round(frame.t_s, 6),
            "table": spec.name, "resolution_wh": list(frame.resolution_wh),
            "method": done.method, **calib.to_json(),
            "pockets_px": {p.name: np.round(xy, 2).tolist()
                           for p, xy in zip(spec.pockets, pockets_px, strict=True)},
            "tilt_deg": round(calib.tilt_deg, 3),
            "orientation": done.orientation,
            "check_image": str(check_path) if check_path else None,
        }))
        return 0
    w, h = frame.resolution_wh
    how = "from the table's own lines" if done.method == "fit" else "from --corners"
    turn = done.orientation
    print(f"{spec.name} in {where} ({w}x{h}): calibrated {how}, rms {calib.rms_mm:.2f} mm")
    print("  corners     " + "  ".join(f"({x:.1f}, {y:.1f})" for x, y in calib.corners_px())
          + " px")
    print(f"  camera      {calib.camera_centre_mm[2] / 1000:.2f} m above the cloth, tilt "
          f"{calib.tilt_deg:.1f} deg, focal {calib.K[0, 0]:.0f} px, lens k1 {calib.k1:+.3f} "
          f"k2 {calib.k2:+.3f}")
    print(f"  orientation turned {turn['turn_deg']} deg ({turn['by']}): {turn['reason']}")
    if check_path is not None:
        print(f"  check image {check_path}")
    return 0


def cmd_detect(args: argparse.Namespace) -> int:
    import json

    from calibration.tables import get_table
    from calibration.views import detector_warp, silhouette_heights_mm
    from vision.detector import Detector, DetectorError

    spec = get_table(_table(args.table))
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads must be in 1..64, got {args.threads}")
    frame = _read_frame(args.image, 0)
    try:
        detector = Detector(args.model, threads=args.threads)
        detector.load()
        done = _calibrate(frame, spec, where=args.image, corners=args.corners,
                          orientation=args.orientation, detector=detector)
        calib, dets = done.calib, done.detections
        if dets is None:
            dets = detector.detect(frame.bgr, detector_warp(calib), silhouette_heights_mm(spec))
    except DetectorError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps({"image": args.image, "table": spec.name, "method": done.method,
                          "rms_mm": round(calib.rms_mm, 3), "orientation": done.orientation,
                          "objects": dets.to_json()}))
        return 0
    print(f"{len(dets)} objects on {spec.name} (calibration rms {calib.rms_mm:.2f} mm)")
    for row in dets.to_json():
        x, y = row["xy_mm"]
        print(f"  {row['label']:<11} {row['score']:.2f}  x {x:8.1f} mm  y {y:8.1f} mm"
              f"  ({row['xy_px'][0]:.1f}, {row['xy_px'][1]:.1f}) px")
    turn = done.orientation
    print(f"orientation: turned {turn['turn_deg']} deg ({turn['by']}): {turn['reason']}")
    return 0


def cmd_dataset(args: argparse.Namespace) -> int:
    from simulation.dataset import CAMERAS_PER_VENUE, LAYOUTS_PER_CAMERA, write_dataset

    if not 1 <= args.images <= 1_000_000:
        raise UsageError(f"--images must be in 1..1000000, got {args.images}")
    if not 1 <= args.jobs <= 256 or args.first_venue < 0:
        raise UsageError("--jobs must be in 1..256 and --first-venue >= 0")
    out = _out_dir(args.out)
    per_venue = CAMERAS_PER_VENUE * LAYOUTS_PER_CAMERA
    bar = _progress_bar("venues", unit=f"venue ({per_venue} views)")
    m = write_dataset(out, images=args.images, seed=args.seed, workers=args.jobs,
                      first_venue=args.first_venue, progress=bar)
    print(f"wrote {m['images']} views ({sum(m['instances'].values())} objects) to {out} "
          f"in {m['seconds']:.0f} s; train with: python models/train.py --data {out}")
    return 0


def demo_clip() -> tuple[Path, Path]:
    """The sample video embedded in the package, and its sidecar."""
    from importlib import resources

    root = resources.files("cueref").joinpath("data")
    video, side = Path(str(root.joinpath("demo.mp4"))), Path(str(root.joinpath("demo.json")))
    if not video.is_file() or not side.is_file():
        raise UsageError(f"the embedded demo clip is missing from {root}; reinstall cueref")
    return video, side


def cmd_demo(args: argparse.Namespace) -> int:
    """The whole pipeline on the embedded sample video: calibration, detector, tracker,
    events and rules, then the calls compared with the clip's ground truth."""
    import json

    from calibration.tables import get_table
    from simulation.groundtruth import load_sidecar, sidecar_declarations
    from vision.detector import Detector, DetectorError

    out = _out_dir(args.out)
    video, side_path = demo_clip()
    truth = load_sidecar(side_path)
    game, spec = _game(truth["game"]), get_table(truth["table"])
    print(f"cueref demo: {truth['game']} on {truth['table']}, {video.name} "
          f"({truth['n_frames']} frames at {truth['fps']:g} fps), "
          "calibration + detector + tracker + events + rules")
    try:
        detector = Detector(threads=2, classes=game.labels)
        detector.load()
    except DetectorError as exc:
        raise UsageError(str(exc)) from None
    calls_path, overlay_path = out / "calls.jsonl", out / "overlay.mp4"
    summary = referee_video(video, game=game, spec=spec, players=tuple(truth["players"]),
                            detector=detector, out=calls_path, overlay=overlay_path,
                            declarations=sidecar_declarations(truth))
    truth_calls = [(c["shot"], c["rule"], c["outcome"]) for s in truth["shots"]
                   for c in s["calls"]]
    ours = [(c["shot"], c["rule"], c["outcome"]) for c in summary.calls]
    agree = sum(1 for c in ours if c in truth_calls)
    for c in summary.calls:
        print(f"  shot {c['shot']:>2}  {c['player']:<8} {c['outcome']:<13} {c['rule']:<16} "
              f"{c['text']}")
    lines = [json.loads(t) for t in calls_path.read_text().splitlines()]
    kinds = sorted({e["kind"] for e in lines if e["type"] == "event"})
    print(f"  {summary.frames} frames in {summary.seconds:.1f} s "
          f"({summary.ms_per_frame:.0f} ms per frame); {summary.events} events "
          f"({', '.join(kinds)})")
    print(f"  {len(summary.calls)} calls; {agree} of {len(truth_calls)} ground-truth calls "
          "reproduced from the pixels")
    print(f"  call stream  {calls_path}")
    print(f"  overlay      {overlay_path}")
    return 0


def _read_declarations(path: str) -> dict[int, Any]:
    """The declarations file: JSON Lines (one object per shot) or one JSON array of them."""
    import json

    from adjudication.replay import StreamError, declarations_from_lines

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read declarations {path!r}: {exc.strerror}") from None
    items: list[tuple[int, Any]] = []
    try:
        if text.lstrip().startswith("["):
            items = list(enumerate(json.loads(text), start=1))
        else:
            for number, line in enumerate(text.splitlines(), start=1):
                if line.strip():
                    items.append((number, json.loads(line)))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    try:
        return declarations_from_lines(items)
    except StreamError as exc:
        raise UsageError(f"{path}:{exc.line}: {exc.message}") from None


def _input_problem(line: dict[str, Any]) -> str | None:
    """The first schema problem of an input line, said plainly; None when it is valid."""
    from cueref.stream import validation_errors

    kind = line.get("type")
    if kind == "event":
        for o in line.get("objects") or []:
            label = o.get("label") if isinstance(o, dict) else None
            if isinstance(label, str) and label not in _KNOWN_LABELS:
                return f"unknown label {label!r}"
    errors = validation_errors(line)
    return f"invalid {kind or 'untyped'} line: {errors[0]}" if errors else None


_KNOWN_LABELS = frozenset(POOL_LABELS + NOVUSS_LABELS)


def cmd_judge(args: argparse.Namespace) -> int:
    """Re-judge an event stream: calls and states out as validated JSON Lines, flushed line by
    line, so that on bad input (exit 2) everything judged before the bad line is kept."""
    import json

    from adjudication.replay import StreamError, StreamReferee
    from calibration.tables import get_table
    from cueref.stream import JsonlSink

    declarations = _read_declarations(args.declarations) if args.declarations else {}
    if args.events == "-":
        fh = sys.stdin
        name = "<stdin>"
    else:
        try:
            fh = Path(args.events).open(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read {args.events!r}: {exc.strerror}") from None
        name = args.events
    problem: str | None = None
    referee: StreamReferee | None = None
    with fh, JsonlSink(args.out) as sink:

        def emit(lines: list[dict[str, Any]]) -> None:
            for out in lines:
                sink.write(out)
            sink.flush()

        try:
            for number, text in enumerate(fh, start=1):
                if not text.strip():
                    continue
                try:
                    obj = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise StreamError(number, f"not JSON ({exc.msg})") from None
                if not isinstance(obj, dict):
                    raise StreamError(number, "each line must be a JSON object")
                bad = _input_problem(obj)
                if bad:
                    raise StreamError(number, bad)
                if referee is None:
                    table = args.table or (
                        obj.get("table") if obj.get("type") == "match_start" else None
                    )
                    spec = get_table(table or args.game.default_table)
                    try:
                        referee = StreamReferee(args.game, spec, declarations=declarations)
                    except ValueError as exc:
                        raise UsageError(str(exc)) from None
                emit(referee.feed(number, obj))
            if referee is None:
                raise StreamError(0, "the stream is empty")
            emit(referee.close())
        except StreamError as exc:
            emit(exc.judged)
            problem = f"{name}:{exc.line}: {exc.message}"
    if problem is not None:
        raise UsageError(problem)
    return 0


def _default_players(game: Any) -> tuple[str, ...]:
    return ("A1", "B1", "A2", "B2") if game.players_per_side == 2 else ("A", "B")


def _orienter(spec: TableSpec, fixed: int | None):  # type: ignore[no-untyped-def]
    """Which end is which: ``--orientation``, else what the set-up in view says (rack,
    Novuss start rows) from the frame's own detections, else None (undecided)."""
    import numpy as np

    from calibration.orientation import infer_orientation

    def orient(calib: Calibration, obs: Any) -> int | None:
        if fixed is not None:
            return fixed
        verdict = infer_orientation(calib, obs.xy_mm, np.array(obs.label))
        log.info("orientation at frame %d: %s", obs.frame, verdict.reason)
        return verdict.deg

    return orient


def cmd_run(args: argparse.Namespace) -> int:
    """Referee a source: calibration, detector, tracker, events, rules, the call stream."""
    from calibration.tables import get_table
    from cueref.pipeline import Pipeline, sidecar_observations
    from cueref.stream import JsonlSink, match_start
    from vision.detector import Detector, DetectorError

    game = args.game
    spec = get_table(args.table or game.default_table)
    players = args.players or _default_players(game)
    if len(players) != 2 * game.players_per_side:
        raise UsageError(f"{game.value} needs {2 * game.players_per_side} players, "
                         f"got --players {','.join(players)}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads must be in 1..64, got {args.threads}")
    if not 0 < args.fps <= 1000:
        raise UsageError(f"--fps must be in (0, 1000], got {args.fps}")
    declarations = _read_declarations(args.declarations) if args.declarations else {}

    if args.dev_observations:
        from simulation.groundtruth import load_sidecar

        try:
            truth = load_sidecar(args.dev_observations)
        except (OSError, ValueError) as exc:
            raise UsageError(f"--dev-observations: {exc}") from None
        frames_obs = sidecar_observations(truth)
        fps, frame_wh = float(truth["fps"]), tuple(truth["frame_wh"])
        log.warning("development mode: tracking the simulated ground truth of %s with "
                    "noise; the video's pixels are not read", args.dev_observations)
        with JsonlSink(args.out) as sink:
            sink.write(match_start(game=game.value, table=spec.name, source=args.source,
                                   fps=fps, frame_wh=frame_wh, players=players))
            pipe = Pipeline(game=game, spec=spec, players=players, observer=None, keeper=None,
                            write=sink.write, declarations=declarations)
            progress = _progress_bar("cueref run (dev)")
            for k, obs in enumerate(frames_obs, start=1):
                pipe.feed_observations(obs)
                progress(k, len(frames_obs))
            summary = pipe.close()
        _run_summary(summary, args.out)
        return 0

    try:
        detector = Detector(args.model, threads=args.threads, classes=game.labels)
        detector.load()
    except DetectorError as exc:
        raise UsageError(str(exc)) from None
    summary = referee_video(args.source, game=game, spec=spec, players=players,
                            detector=detector, out=args.out, overlay=args.overlay,
                            fps=args.fps, corners=args.corners, orientation=args.orientation,
                            declarations=declarations)
    _run_summary(summary, args.out)
    return 0


def referee_video(source: str | Path, *, game: Any, spec: TableSpec, players: tuple[str, ...],
                  detector: Detector, out: str | Path | None, overlay: str | Path | None = None,
                  fps: float = 30.0, corners: list[float] | None = None,
                  orientation: int | None = None,
                  declarations: dict[int, Any] | None = None,
                  on_tracks: Callable[[Tracks], None] | None = None,
                  on_observations: Callable[[Observations], None] | None = None) -> Any:
    """The pipeline over every frame of ``source``, the stream to ``out`` (stdout when None)
    and, when asked, an overlay video; returns the run's summary. ``on_tracks`` receives
    the tracks after each frame the tracker took, ``on_observations`` each frame's
    detections (benchmarks score them)."""
    from calibration.keeper import CalibrationKeeper
    from calibration.manual import from_corners
    from calibration.model import CalibrationError
    from cueref.overlay import OverlayWriter
    from cueref.pipeline import DetectorObserver, Pipeline
    from cueref.sources import SourceError, iter_frames, video_fps
    from cueref.stream import JsonlSink, match_start

    try:
        frames = iter_frames(source, fps=fps)
        first = next(frames)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    rate = video_fps(source) or fps
    initial = None
    if corners is not None:
        try:
            initial = from_corners(spec, corners, first.resolution_wh)
        except CalibrationError as exc:
            raise UsageError(f"bad --corners: {exc}") from None
    keeper = CalibrationKeeper(spec, initial=initial)
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(JsonlSink(out))
        ov = None
        if overlay is not None:
            ov = stack.enter_context(OverlayWriter(overlay, rate, first.resolution_wh, spec))
        sink.write(match_start(game=game.value, table=spec.name, source=str(source), fps=rate,
                               frame_wh=first.resolution_wh, players=players))
        pipe = Pipeline(game=game, spec=spec, players=players,
                        observer=DetectorObserver(detector, spec), keeper=keeper,
                        write=sink.write, declarations=declarations,
                        orient=_orienter(spec, orientation))
        frame = first
        try:
            for frame in itertools.chain([first], frames):
                pipe.feed(frame)
                if on_observations is not None and pipe.last_observations is not None and (
                        pipe.last_observations.frame == frame.index):
                    on_observations(pipe.last_observations)
                if on_tracks is not None and pipe.last_tracks is not None and (
                        pipe.last_tracks.frame == frame.index):
                    on_tracks(pipe.last_tracks)
                if ov is not None:
                    ov.draw(frame.bgr, pipe.calib, pipe.last_tracks, pipe.summary.calls)
                if frame.index % 150 == 0:
                    log.info("frame %d, %.1f s", frame.index, frame.t_s)
        except SourceError as exc:  # a broken tail: keep what was judged, say so
            log.warning("%s; stopping after frame %d", exc, frame.index)
        return pipe.close()


def _run_summary(summary: Any, out: str | None) -> None:
    where = out or "stdout"
    print(f"cueref run: {summary.frames} frames, {summary.shots} shots, {summary.events} events, "
          f"{len(summary.calls)} calls, {summary.calibrations} calibration lines, "
          f"{summary.untrusted_frames} frames without a trusted table; "
          f"{summary.ms_per_frame:.1f} ms per frame; stream -> {where}", file=sys.stderr)
