"""Table specifications: every printed line, cushion and pocket in millimetres.

The table frame (used by every package of cueref):

* Units are millimetres; the origin is the centre of the playing surface, seen from above;
  z points up, out of the playing surface (z = 0 is the cloth or the lacquered board).
* Pool: +x points toward the foot rail (where the rack stands), +y to the left of a player
  standing at the head rail looking at the foot. The head cushion nose is at x = -L/2, the
  foot cushion nose at x = +L/2, the left long cushion at y = +W/2.
* Novuss: player A (first in the protocol) stands at y = -L/2; +y points away from A and
  +x to A's right. Cushion ``a`` is A's own rail (y = -L/2), ``b`` the opposite rail,
  ``left`` is at x = -L/2 and ``right`` at x = +L/2.

Numbers come from ../shared/rules/RULES.md §1.2 (Novuss), §2.2 (pool) and §9; the ones
marked ⚙ there (pocket capture radii, rail heights, the 7 ft table) are our choices and say
so where they are set. Points are ``(x, y)`` tuples; arrays are built on demand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

XY = tuple[float, float]


class Family(StrEnum):
    POOL = "pool"
    NOVUSS = "novuss"


@dataclass(frozen=True, slots=True)
class ObjectSpec:
    """One kind of object on the table: a ball, a pawn or the puck.

    ``height_mm`` is the full height (a ball's diameter, a disc's thickness);
    ``centre_height_mm`` is the height of the point the camera is said to see, the ball's
    centre or the middle of a disc's top face, so parallax is computed from it.
    ``mass_g`` is a typical weight: what share of a hit's momentum each object of a pair
    keeps (balls are equal, a puck three pawns).
    """

    kind: str
    radius_mm: float
    height_mm: float
    hole_radius_mm: float = 0.0
    mass_g: float = 1.0

    @property
    def centre_height_mm(self) -> float:
        return self.height_mm / 2 if self.kind == "ball" else self.height_mm


@dataclass(frozen=True, slots=True)
class Cushion:
    """A straight cushion nose (pool) or inner rail face (Novuss) from ``a`` to ``b``.

    ``normal_xy`` is the unit normal pointing into the playing surface.
    """

    name: str
    a_xy_mm: XY
    b_xy_mm: XY
    normal_xy: XY

    @property
    def length_mm(self) -> float:
        return math.dist(self.a_xy_mm, self.b_xy_mm)


@dataclass(frozen=True, slots=True)
class Pocket:
    """A pocket: where its hole is, where its mouth is and when a ball is gone.

    ``capture_radius_mm`` is the point of no return: an object whose centre comes within
    this distance of ``centre_xy_mm`` is pocketed. ``mouth_*`` are the two jaw points
    (the ends of the cushion noses) for pool pockets; Novuss pockets are holes in the board
    with no mouth.
    """

    name: str
    centre_xy_mm: XY
    hole_radius_mm: float
    capture_radius_mm: float
    mouth_a_xy_mm: XY | None = None
    mouth_b_xy_mm: XY | None = None

    @property
    def mouth_width_mm(self) -> float | None:
        if self.mouth_a_xy_mm is None or self.mouth_b_xy_mm is None:
            return None
        return math.dist(self.mouth_a_xy_mm, self.mouth_b_xy_mm)

    def throat(self) -> tuple[np.ndarray, np.ndarray, float] | None:
        """(mouth centre, unit axis from it towards the pocket centre, distance from the
        mouth to the far side of the capture circle) of a pool pocket, whose throat walls
        run from the jaws along that axis; None for a Novuss hole."""
        if self.mouth_a_xy_mm is None or self.mouth_b_xy_mm is None:
            return None
        mid = (np.array(self.mouth_a_xy_mm) + np.array(self.mouth_b_xy_mm)) / 2
        to_centre = np.array(self.centre_xy_mm) - mid
        length = float(np.linalg.norm(to_centre))
        return mid, to_centre / length, length + self.capture_radius_mm

    def jaws(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """(jaw point, unit normal of the throat wall behind it, into the throat) for both
        jaws of a pool pocket (the ends of the cushion noses at the mouth); none for a
        Novuss hole."""
        throat = self.throat()
        if throat is None or self.mouth_a_xy_mm is None or self.mouth_b_xy_mm is None:
            return ()
        mid, axis, _ = throat
        out = []
        for jaw in (np.array(self.mouth_a_xy_mm), np.array(self.mouth_b_xy_mm)):
            inward = (mid - jaw) - ((mid - jaw) @ axis) * axis
            out.append((jaw, inward / np.linalg.norm(inward)))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Line:
    """A printed line: a segment from ``a`` to ``b``, or a circle (``radius_mm`` > 0)."""

    name: str
    a_xy_mm: XY
    b_xy_mm: XY = (0.0, 0.0)
    radius_mm: float = 0.0
    width_mm: float = 1.0

    @property
    def is_circle(self) -> bool:
        return self.radius_mm > 0

    def distance_mm(self, xy_mm: np.ndarray) -> np.ndarray:
        """Distance from each point ``(N, 2)`` to the centre line of this line."""
        p = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        a = np.asarray(self.a_xy_mm)
        if self.is_circle:
            return np.abs(np.linalg.norm(p - a, axis=1) - self.radius_mm)
        b = np.asarray(self.b_xy_mm)
        ab = b - a
        s = np.clip(((p - a) @ ab) / float(ab @ ab), 0.0, 1.0)
        return np.linalg.norm(p - (a + s[:, None] * ab), axis=1)


@dataclass(frozen=True, slots=True)
class TableSpec:
    """Everything cueref knows about one table model, in the table frame (mm).

    ``surface_wh_mm`` is (extent along x, extent along y) of the playing surface between
    cushion noses (pool) or inner rail faces (Novuss). ``rail_width_mm`` runs from the nose
    to the outer edge of the rail; ``rail_height_mm`` is the rail top above the surface.
    """

    name: str
    family: Family
    surface_wh_mm: XY
    rail_width_mm: float
    rail_height_mm: float
    cushion_height_mm: float
    cushions: tuple[Cushion, ...]
    pockets: tuple[Pocket, ...]
    lines: tuple[Line, ...]
    spots: dict[str, XY]
    diamonds_xy_mm: tuple[XY, ...]
    objects: dict[str, ObjectSpec]
    labels: tuple[str, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def half_wh_mm(self) -> XY:
        return (self.surface_wh_mm[0] / 2, self.surface_wh_mm[1] / 2)

    def corners_xy_mm(self) -> np.ndarray:
        """The four corners of the playing surface, counter-clockwise from (-x, -y)."""
        hx, hy = self.half_wh_mm
        return np.array([[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]], dtype=float)

    def object_for(self, label: str) -> ObjectSpec:
        """The object spec of a class label (``cue_ball``, ``ball_9``, ``puck``...)."""
        if self.family is Family.POOL:
            return self.objects["ball"]
        return self.objects["puck" if label == "puck" else "pawn"]

    def cushion(self, name: str) -> Cushion:
        return _by_name(self.cushions, name, "cushion", self.name)

    def cushion_ending_at(self, xy_mm: np.ndarray) -> int:
        """Index of the cushion whose nose ends nearest ``xy_mm`` (a pocket's jaw is the
        end of one, and a hit on it is named after that cushion)."""
        def gap(k: int) -> float:
            c = self.cushions[k]
            return min(math.dist(c.a_xy_mm, xy_mm), math.dist(c.b_xy_mm, xy_mm))

        return min(range(len(self.cushions)), key=gap)

    def pocket(self, name: str) -> Pocket:
        return _by_name(self.pockets, name, "pocket", self.name)

    def line(self, name: str) -> Line:
        return _by_name(self.lines, name, "line", self.name)

    def on_surface(self, xy_mm: np.ndarray, margin_mm: float = 0.0) -> np.ndarray:
        """True where a point lies on the playing surface, shrunk by ``margin_mm``."""
        p = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        hx, hy = self.half_wh_mm
        return (np.abs(p[:, 0]) <= hx - margin_mm) & (np.abs(p[:, 1]) <= hy - margin_mm)


def _by_name(items, name, what, table):  # type: ignore[no-untyped-def]
    for item in items:
        if item.name == name:
            return item
    known = ", ".join(i.name for i in items)
    raise KeyError(f"table {table!r} has no {what} {name!r}; known: {known}")


# ---------------------------------------------------------------------------- pool

BALL_DIAMETER_MM = 57.15  # WPA 8.1 / W8: 2.25 in
BALL_RADIUS_MM = BALL_DIAMETER_MM / 2
BALL_MASS_G = 163.0  # WPA 8.1: 156-170 g
POOL_LABELS = ("cue_ball",) + tuple(f"ball_{n}" for n in range(1, 16))

#: Pocket mouths, middle of the WPA 2001 tolerance (RULES §2.2): corner 114.3-117.5 mm,
#: side 127.0-130.2 mm.
CORNER_MOUTH_MM = 115.9
SIDE_MOUTH_MM = 128.6
#: ⚙ Point of no return. A corner pocket's mouth chord lies 58 mm in front of the corner
#: of the nose rectangle; a ball whose centre comes within 40 mm of that corner is past the
#: slate edge (18 mm beyond the mouth) and drops. A side pocket's hole centre is 20 mm
#: behind the nose line; capture within 36 mm puts the ball centre 16 mm past the nose.
CORNER_CAPTURE_MM = 40.0
SIDE_CAPTURE_MM = 36.0
SIDE_POCKET_SETBACK_MM = 20.0
#: Pocket hole radii as drawn (a 5 in cup for corners, 5.5 in for sides): ⚙ appearance.
CORNER_HOLE_MM = 64.0
SIDE_HOLE_MM = 68.0
#: ⚙ Rails: cushion rubber plus wooden rail, nose to outer edge; diamonds sit on the rail
#: top 95 mm behind the nose. Cushion nose height is 63.5 % of the ball (WPA spec 62.5-64.5).
POOL_RAIL_WIDTH_MM = 140.0
POOL_DIAMOND_OFFSET_MM = 95.0
POOL_CUSHION_HEIGHT_MM = 0.635 * BALL_DIAMETER_MM
POOL_RAIL_HEIGHT_MM = 42.0

#: (length, width) nose to nose. 9 ft and 8 ft: RULES §2.2 (WPA 2001 spec, W7).
#: ⚙ 7 ft (bar box): 78 x 39 in, the common BCA/WPA size; RULES.md gives none.
POOL_SIZES_MM: dict[str, XY] = {
    "pool-9ft": (2540.0, 1270.0),
    "pool-8ft": (2337.0, 1168.0),
    "pool-7ft": (1981.2, 990.6),
}


def _pool_table(name: str) -> TableSpec:
    length, width = POOL_SIZES_MM[name]
    hx, hy = length / 2, width / 2
    jaw = CORNER_MOUTH_MM / math.sqrt(2)  # corner mouth cuts each nose line this far in
    side_half = SIDE_MOUTH_MM / 2

    cushions = (
        Cushion("head", (-hx, -hy + jaw), (-hx, hy - jaw), (1.0, 0.0)),
        Cushion("foot", (hx, hy - jaw), (hx, -hy + jaw), (-1.0, 0.0)),
        Cushion("left_head", (-hx + jaw, hy), (-side_half, hy), (0.0, -1.0)),
        Cushion("left_foot", (side_half, hy), (hx - jaw, hy), (0.0, -1.0)),
        Cushion("right_head", (-side_half, -hy), (-hx + jaw, -hy), (0.0, 1.0)),
        Cushion("right_foot", (hx - jaw, -hy), (side_half, -hy), (0.0, 1.0)),
    )

    def corner(name: str, sx: float, sy: float) -> Pocket:
        return Pocket(
            name,
            (sx * hx, sy * hy),
            CORNER_HOLE_MM,
            CORNER_CAPTURE_MM,
            (sx * (hx - jaw), sy * hy),
            (sx * hx, sy * (hy - jaw)),
        )

    def side(name: str, sy: float) -> Pocket:
        return Pocket(
            name,
            (0.0, sy * (hy + SIDE_POCKET_SETBACK_MM)),
            SIDE_HOLE_MM,
            SIDE_CAPTURE_MM,
            (-side_half, sy * hy),
            (side_half, sy * hy),
        )

    pockets = (
        corner("head_left", -1, 1),
        side("side_left", 1),
        corner("foot_left", 1, 1),
        corner("head_right", -1, -1),
        side("side_right", -1),
        corner("foot_right", 1, -1),
    )

    head_x, foot_x = -length / 4, length / 4
    # Rack outline: the 15-ball footprint grown by R (RULES §2.2): apex 2R head-ward of the
    # foot spot, base 4 rows + R behind it, side 4D + 2R*sqrt(3).
    row_pitch = BALL_DIAMETER_MM * math.sqrt(3) / 2
    apex_x = foot_x - 2 * BALL_RADIUS_MM
    base_x = foot_x + 4 * row_pitch + BALL_RADIUS_MM
    half_base = (4 * BALL_DIAMETER_MM + 2 * BALL_RADIUS_MM * math.sqrt(3)) / 2
    lines = (
        Line("head_string", (head_x, -hy), (head_x, hy)),
        Line("foot_string", (foot_x, -hy), (foot_x, hy)),
        Line("long_string", (foot_x, 0.0), (hx, 0.0)),
        Line("rack_left", (apex_x, 0.0), (base_x, half_base)),
        Line("rack_right", (apex_x, 0.0), (base_x, -half_base)),
        Line("rack_base", (base_x, -half_base), (base_x, half_base)),
    )
    spots = {"head_spot": (head_x, 0.0), "centre_spot": (0.0, 0.0), "foot_spot": (foot_x, 0.0)}

    diamonds: list[XY] = []
    off = POOL_DIAMOND_OFFSET_MM
    for k in (1, 2, 3, 5, 6, 7):  # every 1/8 of the length, the side pockets at k = 4
        x = -hx + k * length / 8
        diamonds += [(x, hy + off), (x, -hy - off)]
    for k in (1, 2, 3):  # every 1/4 of the width
        y = -hy + k * width / 4
        diamonds += [(-hx - off, y), (hx + off, y)]

    return TableSpec(
        name=name,
        family=Family.POOL,
        surface_wh_mm=(length, width),
        rail_width_mm=POOL_RAIL_WIDTH_MM,
        rail_height_mm=POOL_RAIL_HEIGHT_MM,
        cushion_height_mm=POOL_CUSHION_HEIGHT_MM,
        cushions=cushions,
        pockets=pockets,
        lines=lines,
        spots=spots,
        diamonds_xy_mm=tuple(diamonds),
        objects={"ball": ObjectSpec("ball", BALL_RADIUS_MM, BALL_DIAMETER_MM,
                                    mass_g=BALL_MASS_G)},
        labels=POOL_LABELS,
        notes=("head string, foot string and spots at quarter lengths (WPA 8.1)",),
    )


# -------------------------------------------------------------------------- novuss

NOVUSS_FIELD_MM = 1000.0  # RULES §1.2, §8.2: calibrate the real inner rail distance
NOVUSS_RAIL_WIDTH_MM = 45.0
NOVUSS_RAIL_HEIGHT_MM = 25.0
NOVUSS_ZONE_DEPTH_MM = 130.0  # ⚙ to the centre of the 1 mm line
NOVUSS_CIRCLE_RADIUS_MM = 125.0
NOVUSS_POCKET_RADIUS_MM = 50.0
NOVUSS_POCKET_INSET_MM = 65.0  # hole edge 15 mm from both rails
# masses: birch, a 30 x 12 mm pawn with its hole ~6 g; a puck ~18 g (RULES §1.2: <= 22 g)
PAWN = ObjectSpec("pawn", 15.0, 12.0, hole_radius_mm=4.0, mass_g=6.0)
PUCK = ObjectSpec("puck", 22.5, 15.0, hole_radius_mm=5.1, mass_g=18.0)
NOVUSS_LABELS = ("puck", "red_pawn", "black_pawn")


def _novuss_table() -> TableSpec:
    h = NOVUSS_FIELD_MM / 2
    z = h - NOVUSS_ZONE_DEPTH_MM
    cushions = (
        Cushion("a", (h, -h), (-h, -h), (0.0, 1.0)),
        Cushion("b", (-h, h), (h, h), (0.0, -1.0)),
        Cushion("left", (-h, -h), (-h, h), (1.0, 0.0)),
        Cushion("right", (h, h), (h, -h), (-1.0, 0.0)),
    )
    c = h - NOVUSS_POCKET_INSET_MM
    # ⚙ A disc tips into the hole once its centre is over it.
    pockets = tuple(
        Pocket(name, (sx * c, sy * c), NOVUSS_POCKET_RADIUS_MM, NOVUSS_POCKET_RADIUS_MM)
        for name, sx, sy in (
            ("a_left", -1, -1),
            ("a_right", 1, -1),
            ("b_left", -1, 1),
            ("b_right", 1, 1),
        )
    )
    r = NOVUSS_CIRCLE_RADIUS_MM
    lines = (
        Line("zone_a", (-h, -z), (h, -z)),
        Line("zone_b", (-h, z), (h, z)),
        Line("zone_left", (-z, -h), (-z, h)),
        Line("zone_right", (z, -h), (z, h)),
        Line("middle_a", (0.0, -h), (0.0, -z)),
        Line("middle_b", (0.0, z), (0.0, h)),
        Line("middle_left", (-h, 0.0), (-z, 0.0)),
        Line("middle_right", (z, 0.0), (h, 0.0)),
        Line("circle", (0.0, 0.0), radius_mm=r),
        Line("sector_x", (-r, 0.0), (r, 0.0)),
        Line("sector_y", (0.0, -r), (0.0, r)),
    )
    return TableSpec(
        name="novuss",
        family=Family.NOVUSS,
        surface_wh_mm=(NOVUSS_FIELD_MM, NOVUSS_FIELD_MM),
        rail_width_mm=NOVUSS_RAIL_WIDTH_MM,
        rail_height_mm=NOVUSS_RAIL_HEIGHT_MM,
        cushion_height_mm=NOVUSS_RAIL_HEIGHT_MM,
        cushions=cushions,
        pockets=pockets,
        lines=lines,
        spots={"centre": (0.0, 0.0)},
        diamonds_xy_mm=(),
        objects={"pawn": PAWN, "puck": PUCK},
        labels=NOVUSS_LABELS,
        notes=("zone lines 130 mm from the inner rail faces, to the line centre (⚙)",),
    )


TABLES: dict[str, TableSpec] = {
    "novuss": _novuss_table(),
    **{name: _pool_table(name) for name in POOL_SIZES_MM},
}


def get_table(name: str) -> TableSpec:
    """The spec of a named table; ``KeyError`` names the known tables."""
    try:
        return TABLES[name]
    except KeyError:
        raise KeyError(f"unknown table {name!r}; choose one of {', '.join(TABLES)}") from None
