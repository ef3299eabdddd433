"""What the detector needs from a calibration: the canonical warp and object heights."""

from __future__ import annotations

from calibration.model import Calibration
from calibration.tables import Family, TableSpec
from vision.canonical import TableWarp, build_warp, canonical_view


def detector_warp(calib: Calibration) -> TableWarp:
    """The warp of this calibration's camera onto its table type's canonical view."""
    spec = calib.spec
    view = canonical_view(spec.surface_wh_mm, novuss=spec.family is Family.NOVUSS)
    return build_warp(view, calib)


def silhouette_heights_mm(spec: TableSpec) -> dict[str, float]:
    """Per label, the height whose image is the centre of the object's silhouette: a
    ball's centre, a disc's mid-height (the camera sees its top and bottom rims)."""
    return {label: spec.object_for(label).height_mm / 2 for label in spec.labels}
