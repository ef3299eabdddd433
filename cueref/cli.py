"""The ``cueref`` command line (DESIGN.md: the public CLI contract).

Every subcommand exits 0 on success and 2 on bad usage or input, with one line on stderr
that says what was wrong and what to do. Heavy work is imported inside each command.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from adjudication.games import Game
from calibration.tables import TABLES

EXIT_OK, EXIT_USAGE = 0, 2
log = logging.getLogger("cueref")


class UsageError(Exception):
    """Bad input from the user: reported as one line and exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _game(value: str) -> Game:
    try:
        return Game(value)
    except ValueError:
        raise UsageError(
            f"unknown game {value!r}; choose one of {', '.join(g.value for g in Game)}"
        ) from None


def _table(value: str) -> str:
    if value not in TABLES:
        raise UsageError(f"unknown table {value!r}; choose one of {', '.join(TABLES)}")
    return value


def _resolution(value: str) -> tuple[int, int]:
    named = {"720p": (1280, 720), "1080p": (1920, 1080)}
    if value in named:
        return named[value]
    try:
        w, h = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise UsageError(f"resolution {value!r} must be 720p, 1080p or WxH") from None
    return w, h


def _corners(value: str) -> list[float]:
    """``--corners x1,y1,...,x4,y4``: eight numbers (their geometry is checked later)."""
    parts = [v for v in value.replace(";", ",").replace(" ", ",").split(",") if v]
    try:
        numbers = [float(v) for v in parts]
    except ValueError:
        raise UsageError(f"--corners {value!r} must be numbers: x1,y1,x2,y2,x3,y3,x4,y4") from None
    if len(numbers) != 8:
        raise UsageError(f"--corners needs 8 numbers (x1,y1,x2,y2,x3,y3,x4,y4), got {len(numbers)}")
    return numbers


CORNERS_HELP = (
    "the playing surface's 4 corners in image pixels, x1,y1,x2,y2,x3,y3,x4,y4, for a view the "
    "automatic fit cannot read: counter-clockwise as seen on the image, starting at the table's "
    "(-x,-y) corner. Pool: the head-right, foot-right, foot-left and head-left pockets (left and "
    "right of a player at the head rail). Novuss: A's left and right corners (A stands at rail "
    "a), then the far right and far left ones. Write --corners=... if x1 is negative"
)
ORIENTATION_HELP = (
    "turn the table frame by this many degrees counter-clockwise (seen from above) from the one "
    "fitted or given by --corners (pool: 0 or 180; Novuss: 0, 90, 180 or 270); default: decided "
    "from a start position on the table (a pool rack at the foot, the Novuss start rows), else 0"
)


def _add_calibration_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", required=True, help="novuss, pool-7ft, pool-8ft or pool-9ft")
    parser.add_argument("--corners", type=_corners, metavar="X1,Y1,...,X4,Y4", help=CORNERS_HELP)
    parser.add_argument("--orientation", type=int, choices=(0, 90, 180, 270), metavar="DEG",
                        help=ORIENTATION_HELP)


def _players(value: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in value.split(","))
    if any(not n for n in names) or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"--players wants distinct names, comma-separated: "
                                         f"{value!r}")
    return names


def _out_dir(value: str) -> Path:
    path = Path(value)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".cueref-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"cannot write to output folder {value!r}: {exc.strerror}") from None
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cueref", description="A camera referee for cue sports.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sim = sub.add_parser("simulate", help="render a synthetic clip with its ground truth")
    sim.add_argument("--game", required=True, help="novuss, novuss-doubles, 8ball, 9ball, ...")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--shots", type=int, default=4, help="number of shots (1-200)")
    sim.add_argument("--out", required=True, help="output folder (created)")
    sim.add_argument("--table", help="table model; default: novuss or pool-9ft by game")
    sim.add_argument("--fps", type=float, default=30.0, help="frames per second (10-120)")
    sim.add_argument("--resolution", default="720p", help="720p, 1080p or WxH")
    sim.add_argument("--realism", type=float, default=1.0, help="0 = clean render, 1 = real")
    sim.add_argument(
        "--case",
        default=None,
        help="a hard case: split_hit, cluster_break, hand_over_table, camera_bump, "
        "ball_in_pocket, mid_set (Novuss)",
    )
    sim.add_argument("--name", default="clip", help="base name of the video and its sidecar")

    cal = sub.add_parser("calibrate", help="fit the table in one frame: pixels <-> table mm")
    cal.add_argument("source", help="an image (PNG, JPEG...) or a video file")
    _add_calibration_options(cal)
    cal.add_argument("--frame", type=int, default=0, help="frame number of a video (from 0)")
    cal.add_argument("--json", action="store_true",
                     help="print JSON: H_table_from_image, corners_px, pockets_px, rms_mm, "
                     "lens, pose, orientation")
    cal.add_argument("--check-image", metavar="OUT.png",
                     help="write the frame with the fitted lines, cushions, pockets and a "
                     "100 mm grid drawn over it")

    det = sub.add_parser("detect", help="calibrate one image and list every object on it")
    det.add_argument("image", help="a camera frame (PNG, JPEG...)")
    _add_calibration_options(det)
    det.add_argument("--json", action="store_true", help="print JSON instead of a table")
    det.add_argument("--model", help="ONNX model (default: models/cueref-detector.onnx)")
    det.add_argument("--threads", type=int, default=2, help="inference threads")

    ds = sub.add_parser("dataset", help="render detector training data (YOLO format)")
    ds.add_argument("out", help="output folder (created; runs with new venues add to it)")
    ds.add_argument("--images", type=int, default=4000, help="about this many views")
    ds.add_argument("--seed", type=int, default=1)
    ds.add_argument("--first-venue", type=int, default=0,
                    help="number of the first venue (continue an earlier run)")
    ds.add_argument("-j", "--jobs", type=int, default=1, help="worker processes")

    judge = sub.add_parser(
        "judge", help="re-judge a recorded or hand-written event stream (JSON Lines)"
    )
    judge.add_argument("events", metavar="EVENTS.jsonl",
                       help="the event stream: match_start, event (and ignored state, call, "
                       "calibration) lines; '-' reads stdin")
    judge.add_argument("--game", required=True, type=_game,
                       help="novuss, novuss-doubles, 8ball, 9ball, 10ball or 14.1")
    judge.add_argument("--table", type=_table,
                       help="table model; default: the match_start table, else by game")
    judge.add_argument("--declarations", metavar="F",
                       help="what the camera cannot see, one JSON object per line: "
                       '{"shot": 3, "called_ball": "ball_5", "called_pocket": "foot_left", '
                       '"safety": false, "push_out": false, "option": "accept", "frozen": []}')
    judge.add_argument("--out", metavar="calls.jsonl",
                       help="write the calls and states here (default: stdout)")

    run = sub.add_parser("run", help="referee a video or a folder of frames: the call stream")
    run.add_argument("source", help="a video file or a folder of images (in name order)")
    run.add_argument("--game", required=True, type=_game,
                     help="novuss, novuss-doubles, 8ball, 9ball, 10ball or 14.1")
    run.add_argument("--table", type=_table,
                     help="novuss, pool-7ft, pool-8ft or pool-9ft (default: by game)")
    run.add_argument("--out", metavar="calls.jsonl",
                     help="write the call stream here (default: stdout)")
    run.add_argument("--overlay", metavar="OUT.mp4",
                     help="also write the video with the tracked objects and the calls drawn on")
    run.add_argument("--players", type=_players, metavar="A,B",
                     help="names in protocol order, the first breaks or shoots first "
                     "(default: A,B; doubles A1,B1,A2,B2)")
    run.add_argument("--declarations", metavar="F",
                     help="what the camera cannot see, one JSON object per shot (as judge)")
    run.add_argument("--corners", type=_corners, metavar="X1,Y1,...,X4,Y4", help=CORNERS_HELP)
    run.add_argument("--orientation", type=int, choices=(0, 90, 180, 270), metavar="DEG",
                     help=ORIENTATION_HELP)
    run.add_argument("--fps", type=float, default=30.0,
                     help="frame rate of a folder of images (videos carry their own times)")
    run.add_argument("--model", help="ONNX model (default: models/cueref-detector.onnx)")
    run.add_argument("--threads", type=int, default=2, help="inference threads")
    run.add_argument("--dev-observations", metavar="SIDECAR.json",
                     help="development mode: skip calibration and the detector and track the "
                     "ground truth of a simulated clip (its sidecar), seen with realistic noise")

    demo = sub.add_parser("demo", help="run cueref on the embedded sample video")
    demo.add_argument("--out", default="cueref-demo", help="output folder (default ./cueref-demo)")

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="cueref: %(message)s")
    try:
        args = build_parser().parse_args(argv)
        if args.verbose:
            logging.getLogger().setLevel(logging.INFO)
        from cueref import commands

        return int(getattr(commands, f"cmd_{args.command}")(args) or EXIT_OK)
    except UsageError as exc:
        print(f"cueref: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("cueref: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output went to `head` or a closed pipe: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
