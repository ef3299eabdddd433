"""Event detection: tracks to events (``MotionEventDetector``), events to shots
(``ShotSegmenter``), and the Novuss hole test (``zone_membership``)."""

from adjudication.detection.detector import (
    EventDetector,
    MotionEventDetector,
    NullEventDetector,
    default_lines,
)
from adjudication.detection.segmenter import ShotSegmenter
from adjudication.detection.settings import DetectorSettings, SegmenterSettings
from adjudication.detection.zones import NOVUSS_ZONES, signed_depth_mm, zone_membership

__all__ = [
    "NOVUSS_ZONES",
    "DetectorSettings",
    "EventDetector",
    "MotionEventDetector",
    "NullEventDetector",
    "SegmenterSettings",
    "ShotSegmenter",
    "default_lines",
    "signed_depth_mm",
    "zone_membership",
]
