"""Render speed: frames per second at 720p (and 1080p), medians over repeats.

    python benchmarks/render_speed.py [--frames 40] [--repeats 3] [--write]

Renders the frames of a real simulated 9-ball clip (16 balls, a cue and hands, motion
blur with 3 samples) and a Novuss clip. Reports the median frames/s of each and the ratios
measured in the same run (1080p vs 720p, no blur vs blur), since this machine is shared.
With --write the figures replace the render-speed section of BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudication.games import Game  # noqa: E402
from benchmarks.report import replace_section  # noqa: E402
from simulation.appearance import random_appearance  # noqa: E402
from simulation.clip import frame_scene  # noqa: E402
from simulation.match import ClipSettings, direct  # noqa: E402
from simulation.render import Renderer  # noqa: E402


def fps_of(game: str, wh: tuple[int, int], samples: int, frames: int, repeats: int) -> float:
    settings = ClipSettings(game=Game(game), seed=7, shots=3, resolution_wh=wh)
    script = direct(settings)
    appearance = random_appearance(script.spec, np.random.default_rng(7), realism=1.0)
    # Frames spread over the clip, so moving and resting objects, hands and cues all count.
    times = np.linspace(0.0, script.duration_s - 0.05, frames)
    rates = []
    for _ in range(repeats):
        renderer = Renderer(script.spec, appearance, seed=7)
        renderer.render(frame_scene(script, 0.0, 1 / 60, samples)[0])  # table textures, maps
        t0 = time.perf_counter()
        for t in times:
            renderer.render(frame_scene(script, float(t), 1 / 60, samples)[0])
        rates.append(frames / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = ap.parse_args()
    rows = {
        "9-ball 720p, blur x3": fps_of("9ball", (1280, 720), 3, args.frames, args.repeats),
        "9-ball 720p, no blur": fps_of("9ball", (1280, 720), 1, args.frames, args.repeats),
        "9-ball 1080p, blur x3": fps_of("9ball", (1920, 1080), 3, args.frames, args.repeats),
        "Novuss 720p, blur x3": fps_of("novuss", (1280, 720), 3, args.frames, args.repeats),
    }
    base = rows["9-ball 720p, blur x3"]
    lines = [
        "## Render speed (simulation.render)",
        "",
        f"`python benchmarks/render_speed.py --frames {args.frames} --repeats {args.repeats}`"
        " on the 2-core CI machine; median of the repeats; ratio to 9-ball 720p with blur"
        " from the same run.",
        "",
        "| scene | frames/s (median) | ratio |",
        "|---|---|---|",
    ]
    for name, fps in rows.items():
        lines.append(f"| {name} | {fps:.1f} | {fps / base:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        replace_section("## Render speed", text)


if __name__ == "__main__":
    main()
