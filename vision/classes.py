"""The detector's classes, in the order of the model's outputs."""

from __future__ import annotations

DETECTOR_CLASSES: tuple[str, ...] = (
    "cue_ball",
    *(f"ball_{n}" for n in range(1, 16)),
    "puck",
    "red_pawn",
    "black_pawn",
)
CLASS_INDEX: dict[str, int] = {name: i for i, name in enumerate(DETECTOR_CLASSES)}
