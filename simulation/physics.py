"""Event-driven 2D physics of pool balls and Novuss discs, with an exact event log.

Between events every body moves on a quadratic polynomial in time (constant acceleration
in the table plane), so every event time is the root of a polynomial and is solved, not
stepped to:

* disc-disc contact: ``|dr(t)|^2 = (R1 + R2)^2``, a quartic;
* cushion nose / rail face: the signed distance to the line equals R, a quadratic, kept only
  while moving toward it and within the segment's extent;
* jaw points (pool pocket mouths, the ends of the noses): ``|r(t) - p|^2 = R^2``, a quartic;
* pocket capture: ``|r(t) - c|^2 = capture^2``, a quartic;
* pool slide -> roll after ``2|u|/(7 mu_s g)``, roll -> rest after ``|v|/(mu_r g)``;
  Novuss slide -> rest after ``|v|/(mu_k g)``.

The engine takes the earliest event, applies it, recomputes the predictions of the bodies
it changed (and only those) and repeats. Each body keeps its trajectory as a list of
quadratic segments in (x, y, z), so ``ShotResult.xy_at`` is exact at any time. Scripted
motion after a body leaves the play (the drop into a pocket, the flight over a rail) is
made of the same segments.

Pool pockets are modelled as the two jaw points (``mouth_a/b``, a rounded corner where the
nose ends) plus two straight throat walls running from the jaws parallel to the pocket axis
(mouth centre -> pocket centre) to behind the capture circle. A ball past the mouth is thus
either captured or bounced back out; it cannot leave the table through a pocket mouth. Real
corner facings close in at 142 degrees and side facings open at 104 degrees; the parallel
throat is a ⚙ simplification between the two. Novuss holes are plain circles in the board;
its four rails are full walls.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from calibration.tables import Family, TableSpec

ON_TABLE, POCKETED, OFF_TABLE = 0, 1, 2

_STATIONARY, _SLIDING, _ROLLING = 0, 1, 2

#: Speeds (and contact-point slip speeds) below this are rest. Far below any camera's
#: resolution (a micrometre per second), far above float noise on mm/s values.
_V_EPS_MM_S = 1e-6
#: Two bodies (or a body and a cushion) closer than this and approaching collide now.
_CONTACT_TOL_MM = 1e-6
#: A contact counts only when the normal approach speed exceeds the rest speed
#: ``_V_EPS_MM_S``: a smaller approach is float noise on two bodies already touching
#: (bodies at rest in a cluster, a pawn pressed against a rail). Its impulse would be below
#: the rounding of the velocities, so resolving it would change nothing and the same
#: contact would be found again at the same instant, forever.
#: Contacts slower than this are perfectly inelastic (the approach is removed, nothing
#: bounces back). A touching cluster hit softly, or a row of pawns pressed against a rail,
#: otherwise rattles in a geometric series of ever smaller bounces (inelastic collapse)
#: that needs thousands of events to reach rest. 1 mm/s is far below what a camera sees
#: and what changes a shot's outcome (a bounce of 1 mm/s travels 0.05 mm on Novuss).
_INELASTIC_BELOW_MM_S = 1.0
#: ⚙ Two bodies that friction keeps pressing together after they meet (a push) are
#: modelled as a chatter of contacts at least this far apart in time: each contact sends
#: them apart at ``|relative acceleration| x _PUSH_PERIOD_S / 2`` when the restitution
#: alone would send them apart slower. A longer period means fewer events and a coarser
#: push (the gap stays below ``|a| period^2 / 8``: 2 um at 4 m/s^2 and 2 ms).
_PUSH_PERIOD_S = 2e-3
#: The slowest parting speed of a push, so that even a vanishing pressing acceleration
#: separates the pair by more than ``_V_EPS_MM_S``.
_PUSH_MIN_SEPARATION_MM_S = 1e-3
#: A body up to this far into a cushion line (float drift, a caller's sloppy placement)
#: still counts as in front of it; deeper means it is behind that wall.
_PENETRATION_BAND_MM = 1.0
#: Input tolerances: overlap between bodies, distance outside the playing surface.
_OVERLAP_TOL_MM = 0.5
_SURFACE_TOL_MM = 0.5
#: Tunnelling guard: a body found this far outside the legal region raises.
_ESCAPE_TOL_MM = 1.0
#: A root of a quartic counts as real when its imaginary part is below this fraction.
_IMAG_TOL = 1e-6
#: Off-table flight: the slowest horizontal speed over the rail (a ball barely popped over).
_MIN_FLIGHT_SPEED_MM_S = 500.0


class SimulationError(RuntimeError):
    """The simulation could not finish: too many events, too long, or a body escaped."""


# ---------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Bodies:
    """The bodies of one shot, struct of arrays: ids, class labels, centres, status codes."""

    ids: np.ndarray
    labels: tuple[str, ...]
    xy_mm: np.ndarray
    status: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.labels)
        ids = np.array(self.ids, dtype=np.int64).reshape(-1)
        xy = np.array(self.xy_mm, dtype=np.float64)
        status = np.array(self.status, dtype=np.int8).reshape(-1)
        if ids.shape != (n,):
            raise ValueError(f"ids must have one entry per label ({n}), got {ids.shape}")
        if xy.shape != (n, 2) and not (n == 0 and xy.size == 0):
            raise ValueError(f"xy_mm must have shape ({n}, 2), got {xy.shape}")
        if status.shape != (n,):
            raise ValueError(f"status must have one entry per label ({n}), got {status.shape}")
        if len(set(ids.tolist())) != n:
            raise ValueError(f"ids must be unique, got {ids.tolist()}")
        if not np.isin(status, (ON_TABLE, POCKETED, OFF_TABLE)).all():
            raise ValueError(f"status codes must be ON_TABLE, POCKETED or OFF_TABLE: {status}")
        for arr in (ids, xy, status):
            arr.setflags(write=False)
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "labels", tuple(str(s) for s in self.labels))
        object.__setattr__(self, "xy_mm", xy.reshape(n, 2))
        object.__setattr__(self, "status", status)

    @classmethod
    def make(
        cls,
        labels: Sequence[str],
        xy_mm: np.ndarray | Sequence[Sequence[float]],
        ids: Sequence[int] | np.ndarray | None = None,
    ) -> Bodies:
        """Bodies on the table; ids default to 0..N-1."""
        n = len(labels)
        return cls(
            ids=np.arange(n) if ids is None else np.asarray(ids),
            labels=tuple(labels),
            xy_mm=np.asarray(xy_mm, dtype=np.float64),
            status=np.full(n, ON_TABLE, dtype=np.int8),
        )

    @classmethod
    def empty(cls) -> Bodies:
        return cls(np.zeros(0, np.int64), (), np.zeros((0, 2)), np.zeros(0, np.int8))

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, key: np.ndarray | slice | int) -> Bodies:
        idx = np.atleast_1d(np.arange(len(self))[key])
        return Bodies(
            self.ids[idx], tuple(self.labels[i] for i in idx), self.xy_mm[idx], self.status[idx]
        )

    def index_of(self, body_id: int) -> int:
        hits = np.flatnonzero(self.ids == body_id)
        if len(hits) == 0:
            raise ValueError(f"no body with id {body_id}; ids are {self.ids.tolist()}")
        return int(hits[0])


@dataclass(frozen=True, slots=True)
class Strike:
    """The cue's hit: which body, where it goes, how fast, and (pool) where the tip met it.

    ``follow`` and ``english`` are tip offsets in units of the ball radius: vertical (+ above
    the centre = follow, - = draw) and horizontal (+ = right of the centre, seen from behind
    the cue). Novuss pucks take no spin: both must be 0 there.
    """

    body_id: int
    heading_rad: float
    speed_mm_s: float
    follow: float = 0.0
    english: float = 0.0

    def __post_init__(self) -> None:
        values = (self.heading_rad, self.speed_mm_s, self.follow, self.english)
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f"strike values must be finite, got {self}")
        if self.speed_mm_s < 0:
            raise ValueError(f"strike speed must be >= 0 mm/s, got {self.speed_mm_s}")
        for name in ("follow", "english"):
            value = getattr(self, name)
            if abs(value) > MAX_TIP_OFFSET:
                raise ValueError(
                    f"strike {name} must be within ±{MAX_TIP_OFFSET} ball radii "
                    f"(beyond that the tip miscues), got {value}"
                )


#: Tip offsets beyond 0.6 R miscue (Alciatore, "The Illustrated Principles of Pool", TP A.30).
MAX_TIP_OFFSET = 0.6


@dataclass(frozen=True, slots=True)
class PhysicsEvent:
    """One event of the exact log; ``t_s`` is absolute (the shot starts at ``t0_s``).

    contact: ``ids = (striker, other)`` with the striker the faster before impact and
    ``speed_mm_s`` the relative normal approach speed. cushion: ``speed_mm_s`` is the normal
    speed into the cushion; jaw and throat hits carry the name of the cushion whose end the
    jaw is. ``xy_mm`` is the centre of ``ids[0]``.
    """

    kind: str
    t_s: float
    ids: tuple[int, ...]
    xy_mm: tuple[float, float]
    cushion: str | None = None
    pocket: str | None = None
    speed_mm_s: float = 0.0


# ------------------------------------------------------------------------ settings


@dataclass(frozen=True, slots=True)
class PoolPhysics:
    """Pool ball physics. Defaults are pooltool's (Kiefl, after Leckie & Greenspan 2005 and
    Alciatore's TP notes); every value is a plain number so a calibration can replace it.

    * ``g_mm_s2`` = 9810: gravity.
    * ``mu_slide`` = 0.2: ball-cloth sliding friction (Alciatore TP 4.1 measures 0.15-0.25;
      pooltool ``u_s`` = 0.2). Higher: follow and draw "take" sooner, curves are tighter.
    * ``mu_roll`` = 0.01: rolling resistance (pooltool ``u_r``; fast cloth 0.005, slow 0.015).
      Lower: balls roll further (a ball rolled at 1 m/s travels v^2/(2 mu_r g) = 5.1 m).
    * ``e_ball`` = 0.95: ball-ball normal restitution (phenolic balls 0.92-0.98).
    * ``e_cushion`` = 0.8: normal restitution of the cushion (Alciatore: 0.7-0.85 at
      ordinary speeds; pooltool ``e_c`` = 0.85).
    * ``mu_cushion`` = 0.2: ball-cushion friction (pooltool ``f_c``). The tangential speed
      loses ``min(mu_cushion (1+e) |v_n|, 2/7 |v_t|)``; 2/7 |v_t| is the impulse that
      brings a slipping sphere's contact point to rest, so friction never reverses it.
    * ``ball_mass_kg`` = 0.17: WPA balls weigh 156-170 g; equal masses make it irrelevant to
      ball-ball impacts, it is here for energies.
    * ``pocket_drop_mm`` = 35: how far a pocketed ball sinks into the cup (visible from above).
    * ``max_events`` = 20000: Zeno guard; a 15-ball break needs a few hundred.

    Cushion impacts keep the spin about the cushion's normal (roll along the cushion) and
    remove the roll toward the cushion, so the ball leaves sliding and settles into a roll
    away from it. Side spin (``omega_z``) is carried but changes nothing: no english throw
    off cushions or balls, no swerve.
    """

    g_mm_s2: float = 9810.0
    mu_slide: float = 0.2
    mu_roll: float = 0.01
    e_ball: float = 0.95
    e_cushion: float = 0.8
    mu_cushion: float = 0.2
    ball_mass_kg: float = 0.17
    pocket_drop_mm: float = 35.0
    max_events: int = 20_000

    def __post_init__(self) -> None:
        _check_positive(self, "g_mm_s2", "mu_slide", "mu_roll", "ball_mass_kg", "max_events")
        _check_unit(self, "e_ball", "e_cushion")
        _check_non_negative(self, "mu_cushion", "pocket_drop_mm")


@dataclass(frozen=True, slots=True)
class NovussPhysics:
    """Novuss disc physics: lacquered birch discs sliding on a boric-acid-dusted board.

    * ``g_mm_s2`` = 9810: gravity.
    * ``mu_kinetic`` = 0.1 (⚙, middle of the 0.08-0.12 a powdered lacquered board gives):
      a hard 3 m/s shot slides v^2/(2 mu g) = 4.6 m in all, so it crosses the 1 m board
      (arriving at 2.65 m/s), rebounds at 0.7 x that and runs about 1.8 m more, back over the
      board; a 1 m/s touch slides 0.5 m, shooter's zone to the centre circle.
      Lower: more rebounds per shot and longer shots.
    * ``e_disc`` = 0.85: disc-disc normal restitution (hard wood on wood, 0.8-0.9).
    * ``e_rail`` = 0.7: rail restitution (wooden rail, no rubber).
    * ``mu_rail`` = 0.1 (⚙ unmeasured): disc-rail friction; tangential speed loses
      ``min(mu_rail (1+e) |v_n|, |v_t|/3)``, 1/3 being where a thin disc's rim stops slipping.
    * ``puck_mass_kg`` = 0.018: RULES §1.2 caps the puck at 22 g; a 45 x 15 mm birch puck with
      a 10 mm hole is about 15-18 g.
    * ``pawn_mass_kg`` = 0.006: birch 30 x 12 mm with an 8 mm hole, 7.9 cm^3 at ~0.7 g/cm^3
      plus lacquer.
    * ``pocket_drop_mm`` = 200: a pocketed disc falls into the bag, out of sight.
    * ``max_events`` = 20000: Zeno guard.

    Disc spin about the vertical axis is not modelled (it barely changes a straight slide).
    """

    g_mm_s2: float = 9810.0
    mu_kinetic: float = 0.1
    e_disc: float = 0.85
    e_rail: float = 0.7
    mu_rail: float = 0.1
    puck_mass_kg: float = 0.018
    pawn_mass_kg: float = 0.006
    pocket_drop_mm: float = 200.0
    max_events: int = 20_000

    def __post_init__(self) -> None:
        _check_positive(self, "g_mm_s2", "mu_kinetic", "puck_mass_kg", "pawn_mass_kg", "max_events")
        _check_unit(self, "e_disc", "e_rail")
        _check_non_negative(self, "mu_rail", "pocket_drop_mm")


Physics = PoolPhysics | NovussPhysics


def _check_positive(obj: object, *names: str) -> None:
    for name in names:
        value = getattr(obj, name)
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{type(obj).__name__}.{name} must be > 0, got {value}")


def _check_non_negative(obj: object, *names: str) -> None:
    for name in names:
        value = getattr(obj, name)
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"{type(obj).__name__}.{name} must be >= 0, got {value}")


def _check_unit(obj: object, *names: str) -> None:
    for name in names:
        value = getattr(obj, name)
        if not (math.isfinite(value) and 0 <= value <= 1):
            raise ValueError(
                f"{type(obj).__name__}.{name} is a restitution and must be in [0, 1] "
                f"(above 1 would create energy), got {value}"
            )


def physics_for(spec: TableSpec) -> Physics:
    """Default physics settings for a table's family."""
    return PoolPhysics() if spec.family is Family.POOL else NovussPhysics()


def strike_velocity(
    settings: Physics, strike: Strike, radius_mm: float
) -> tuple[np.ndarray, np.ndarray]:
    """Velocity ``(2,)`` mm/s and angular velocity ``(3,)`` rad/s right after the cue hit.

    The speed is given; the spin follows from the impulse ``J = m v`` acting at the tip
    offset: ``omega = r x J / I`` with ``I = 2/5 m R^2``. A follow offset of 0.4 R gives a
    natural roll (omega = v/R); right english gives positive omega_z (counter-clockwise seen
    from above). Novuss: velocity only.
    """
    d = np.array([math.cos(strike.heading_rad), math.sin(strike.heading_rad)])
    v = strike.speed_mm_s * d
    if isinstance(settings, NovussPhysics):
        if strike.follow != 0.0 or strike.english != 0.0:
            raise ValueError("Novuss strikes take no spin: follow and english must be 0")
        return v, np.zeros(3)
    k = 2.5 * strike.speed_mm_s / radius_mm
    omega = np.array([-k * strike.follow * d[1], k * strike.follow * d[0], k * strike.english])
    return v, omega


# ---------------------------------------------------------------------- table model


@dataclass(frozen=True, slots=True)
class _Model:
    """Everything the engine needs, as arrays: walls, jaw points, pockets, bodies' constants."""

    pool: bool
    g: float
    mu_slide: float  # pool sliding, or Novuss kinetic friction
    mu_roll: float
    e_pair: float
    e_wall: float
    mu_wall: float
    stick_fraction: float  # 2/7 sphere, 1/3 disc
    drop_mm: float
    max_events: int
    wall_a: np.ndarray  # (W, 2)
    wall_t: np.ndarray  # (W, 2) unit tangent
    wall_len: np.ndarray  # (W,)
    wall_n: np.ndarray  # (W, 2) unit normal toward the play side
    wall_names: tuple[str, ...]
    wall_extent_tol: float
    point_xy: np.ndarray  # (P, 2)
    point_names: tuple[str, ...]
    pocket_c: np.ndarray  # (K, 2)
    pocket_capture: np.ndarray  # (K,)
    pocket_hole: np.ndarray  # (K,)
    pocket_names: tuple[str, ...]
    throat_mid: np.ndarray  # (K, 2) mouth centre (pool) or pocket centre (Novuss)
    throat_axis: np.ndarray  # (K, 2)
    throat_half: np.ndarray  # (K,) half mouth width, 0 for Novuss
    throat_len: np.ndarray  # (K,)
    half_wh: tuple[float, float]
    rail_width: float


def _model(spec: TableSpec, settings: Physics) -> _Model:
    pool = spec.family is Family.POOL
    if pool != isinstance(settings, PoolPhysics):
        raise ValueError(
            f"table {spec.name!r} is {spec.family.value} but the settings are "
            f"{type(settings).__name__}; use physics_for(spec)"
        )
    walls: list[tuple[np.ndarray, np.ndarray, np.ndarray, str]] = []
    for c in spec.cushions:
        walls.append((np.array(c.a_xy_mm), np.array(c.b_xy_mm), np.array(c.normal_xy), c.name))
    points: list[tuple[np.ndarray, str]] = []
    mids, axes, halves, lens = [], [], [], []
    max_r = max(o.radius_mm for o in spec.objects.values())
    for p in spec.pockets:
        throat = p.throat()
        if throat is None:
            mids.append(np.array(p.centre_xy_mm))
            axes.append(np.array([0.0, 0.0]))
            halves.append(0.0)
            lens.append(0.0)
            continue
        mid, axis, reach = throat
        length = reach + max_r
        mids.append(mid)
        axes.append(axis)
        a, b = np.array(p.mouth_a_xy_mm), np.array(p.mouth_b_xy_mm)
        halves.append(float(np.linalg.norm(b - a)) / 2)
        lens.append(length)
        for jaw, inward in p.jaws():
            name = spec.cushions[spec.cushion_ending_at(jaw)].name
            points.append((jaw, name))
            walls.append((jaw, jaw + length * axis, inward, name))
    a_arr = np.array([w[0] for w in walls], dtype=float)
    b_arr = np.array([w[1] for w in walls], dtype=float)
    seg = b_arr - a_arr
    seg_len = np.linalg.norm(seg, axis=1)
    if pool:
        assert isinstance(settings, PoolPhysics)
        mu_s, mu_r, e_pair = settings.mu_slide, settings.mu_roll, settings.e_ball
        e_wall, mu_wall, stick = settings.e_cushion, settings.mu_cushion, 2.0 / 7.0
    else:
        assert isinstance(settings, NovussPhysics)
        mu_s, mu_r, e_pair = settings.mu_kinetic, 0.0, settings.e_disc
        e_wall, mu_wall, stick = settings.e_rail, settings.mu_rail, 1.0 / 3.0
    return _Model(
        pool=pool,
        g=settings.g_mm_s2,
        mu_slide=mu_s,
        mu_roll=mu_r,
        e_pair=e_pair,
        e_wall=e_wall,
        mu_wall=mu_wall,
        stick_fraction=stick,
        drop_mm=settings.pocket_drop_mm,
        max_events=settings.max_events,
        wall_a=a_arr,
        wall_t=seg / seg_len[:, None],
        wall_len=seg_len,
        wall_n=np.array([w[2] for w in walls], dtype=float),
        wall_names=tuple(w[3] for w in walls),
        # Novuss rails meet at the corners: a disc near a corner touches a rail face beyond
        # the end of the other one, so its extent grows by a radius. Pool noses end at jaws.
        wall_extent_tol=0.0 if pool else max_r,
        point_xy=np.array([p[0] for p in points], dtype=float).reshape(-1, 2),
        point_names=tuple(p[1] for p in points),
        pocket_c=np.array([p.centre_xy_mm for p in spec.pockets], dtype=float),
        pocket_capture=np.array([p.capture_radius_mm for p in spec.pockets], dtype=float),
        pocket_hole=np.array([p.hole_radius_mm for p in spec.pockets], dtype=float),
        pocket_names=tuple(p.name for p in spec.pockets),
        throat_mid=np.array(mids, dtype=float),
        throat_axis=np.array(axes, dtype=float),
        throat_half=np.array(halves, dtype=float),
        throat_len=np.array(lens, dtype=float),
        half_wh=spec.half_wh_mm,
        rail_width=spec.rail_width_mm,
    )


def escaped_mm(spec: TableSpec, xy_mm: np.ndarray, radius_mm: np.ndarray | float) -> np.ndarray:
    """How far each centre ``(N, 2)`` lies outside where a body of that radius can be.

    The legal region is the surface shrunk by the radius (cushion noses / rail faces) and,
    for pool, each pocket's throat (the strip between the jaws, from a diameter in front of
    the mouth to behind the capture circle). 0 inside. A positive value for a body on the
    table means it went through a cushion.
    """
    model = _model(spec, physics_for(spec))
    return _escaped(model, np.asarray(xy_mm, dtype=float).reshape(-1, 2), radius_mm)


def _escaped(model: _Model, xy: np.ndarray, radius: np.ndarray | float) -> np.ndarray:
    r = np.broadcast_to(np.asarray(radius, dtype=float), (len(xy),))
    hx, hy = model.half_wh
    excess = np.maximum(np.abs(xy) - (np.array([hx, hy]) - r[:, None]), 0.0)
    out = np.hypot(excess[:, 0], excess[:, 1])
    for k in np.flatnonzero(model.throat_half > 0):
        rel = xy - model.throat_mid[k]
        axis = model.throat_axis[k]
        depth = rel @ axis
        lateral = np.abs(rel @ np.array([-axis[1], axis[0]]))
        out_lat = np.maximum(lateral - (model.throat_half[k] - r), 0.0)
        out_depth = np.maximum(np.maximum(-2 * r - depth, depth - model.throat_len[k]), 0.0)
        out = np.minimum(out, np.hypot(out_lat, out_depth))
        # In front of the mouth chord a centre may pass a jaw as close as a radius.
        jaw_a = model.throat_mid[k] + model.throat_half[k] * np.array([-axis[1], axis[0]])
        jaw_b = 2 * model.throat_mid[k] - jaw_a
        near = np.minimum(np.linalg.norm(xy - jaw_a, axis=1), np.linalg.norm(xy - jaw_b, axis=1))
        in_lens = (depth <= 0) & (depth >= -2 * r) & (lateral <= model.throat_half[k])
        out = np.where(in_lens, np.minimum(out, np.maximum(r - near, 0.0)), out)
    return out


# ------------------------------------------------------------------- root finding


def _entry_times(
    p: np.ndarray,
    v: np.ndarray,
    a: np.ndarray,
    radius: np.ndarray,
    tau_max: np.ndarray,
    *,
    inside_counts: bool,
    pressing_counts: bool = False,
) -> np.ndarray:
    """Earliest ``tau`` in ``[0, tau_max]`` at which ``|p + v tau + a tau^2 / 2|`` falls to
    ``radius`` (crossing inward), for K rows of relative motion; ``inf`` where none.

    ``|q(tau)|^2 - radius^2`` is a quartic. A pair already touching (within
    ``_CONTACT_TOL_MM``) and approaching faster than ``_V_EPS_MM_S`` collides at 0; with
    ``inside_counts`` (pockets) any start inside counts at 0; with ``pressing_counts`` (pairs
    of bodies) so does a touching pair that is not parting while its relative acceleration
    presses it together (a push, which would otherwise sink in without ever crossing the
    radius). Roots come from the companion
    matrix (``numpy.roots``), are kept when real and approaching faster than
    ``_V_EPS_MM_S``, and are polished by Newton steps.
    """
    k = len(p)
    out = np.full(k, np.inf)
    if k == 0:
        return out
    c4 = 0.25 * np.einsum("ij,ij->i", a, a)
    c3 = np.einsum("ij,ij->i", v, a)
    c2 = np.einsum("ij,ij->i", v, v) + np.einsum("ij,ij->i", p, a)
    c1 = 2.0 * np.einsum("ij,ij->i", p, v)
    dist = np.sqrt(np.einsum("ij,ij->i", p, p))
    c0 = (dist - radius) * (dist + radius)
    touching = dist - radius <= _CONTACT_TOL_MM
    # c1 = 2 q.q' and the approach speed is -q.q'/|q|.
    now = touching & (c1 < -2.0 * dist * _V_EPS_MM_S)
    if pressing_counts:  # touching, not parting, and |q| curving inward: q.q'' + |q'|^2 < 0
        now |= touching & (c1 <= 2.0 * dist * _V_EPS_MM_S) & (c2 < 0)
    if inside_counts:
        now |= dist < radius
    out[now] = 0.0
    speed = np.sqrt(np.einsum("ij,ij->i", v, v))
    acc = 2.0 * np.sqrt(c4)
    with np.errstate(invalid="ignore"):
        reach = np.where(speed + acc > 0, speed * tau_max + 0.5 * acc * tau_max**2, 0.0)
    candidates = np.flatnonzero(~now & (speed + acc > 0) & (dist - radius <= reach + 1e-9))
    for i in candidates:
        coeffs = (c4[i], c3[i], c2[i], c1[i], c0[i])
        out[i] = _first_entry_root(coeffs, float(tau_max[i]), float(radius[i]))
    return out


def _first_entry_root(coeffs: tuple[float, ...], tau_max: float, radius: float) -> float:
    roots = np.roots(coeffs)
    if len(roots) == 0:
        return math.inf
    real = roots.real[np.abs(roots.imag) <= _IMAG_TOL * np.maximum(1.0, np.abs(roots.real))]
    c4, c3, c2, c1, c0 = coeffs
    scale = max(abs(c0), 1.0)
    for tau in np.sort(real):
        if tau < -1e-9 or tau > tau_max + 1e-9:
            continue
        for _ in range(3):
            f = (((c4 * tau + c3) * tau + c2) * tau + c1) * tau + c0
            df = ((4 * c4 * tau + 3 * c3) * tau + 2 * c2) * tau + c1
            if df == 0:
                break
            tau -= f / df
        f = (((c4 * tau + c3) * tau + c2) * tau + c1) * tau + c0
        df = ((4 * c4 * tau + 3 * c3) * tau + 2 * c2) * tau + c1
        # At the root |q| = radius, so df = -2 radius (approach speed).
        if df < -2.0 * radius * _V_EPS_MM_S and abs(f) <= 1e-6 * scale and 0.0 <= tau <= tau_max:
            return float(tau)
    return math.inf


def _wall_times(
    model: _Model, r: np.ndarray, v: np.ndarray, a: np.ndarray, radius: float, tau_max: float
) -> np.ndarray:
    """Earliest time each wall segment is met (the signed distance falls to the radius while
    moving toward it, the contact inside the segment's extent); ``inf`` where never."""
    n, t, origin = model.wall_n, model.wall_t, model.wall_a
    d0 = np.einsum("wj,wj->w", r - origin, n) - radius
    d1 = n @ v
    d2 = 0.5 * (n @ a)
    ext = model.wall_extent_tol
    lo, hi = -ext, model.wall_len + ext
    out = np.full(len(n), np.inf)
    s0 = np.einsum("wj,wj->w", r - origin, t)
    now = (d0 <= _CONTACT_TOL_MM) & (d0 >= -_PENETRATION_BAND_MM) & (d1 < -_V_EPS_MM_S)
    now &= (s0 >= lo) & (s0 <= hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = d1 * d1 - 4.0 * d2 * d0
        sq = np.sqrt(np.maximum(disc, 0.0))
        q = -0.5 * (d1 + np.copysign(sq, d1))
        roots = (np.where(q != 0, d0 / q, np.inf), np.where(d2 != 0, q / d2, np.inf))
    for tau in roots:
        with np.errstate(invalid="ignore"):
            ok = (disc >= 0) & (tau > 0) & (tau <= tau_max)
            ok &= d1 + 2.0 * d2 * tau < -_V_EPS_MM_S
        tau_ok = np.where(ok, tau, 0.0)
        pos = r + np.outer(tau_ok, v) + 0.5 * np.outer(tau_ok**2, a)
        s = np.einsum("wj,wj->w", pos - origin, t)
        ok &= (s >= lo) & (s <= hi)
        out = np.where(ok & (tau < out), tau, out)
    out[now] = 0.0
    return out


# ------------------------------------------------------------------------- engine


class _Engine:
    """Owns the moving state of one shot; ``run`` produces the event log and segments."""

    def __init__(
        self,
        model: _Model,
        bodies: Bodies,
        radii: np.ndarray,
        masses: np.ndarray,
        t0: float,
        fly_over: Callable[[PhysicsEvent], bool] | None,
        max_duration: float,
    ) -> None:
        n = len(bodies)
        self.max_duration = max_duration
        self.m = model
        self.bodies = bodies
        self.radius = radii
        self.mass = masses
        self.fly_over = fly_over
        self.t0 = t0
        self.active = bodies.status == ON_TABLE
        self.status = bodies.status.copy()
        self.t_ref = np.full(n, t0)
        self.r = bodies.xy_mm.copy()
        self.v = np.zeros((n, 2))
        self.acc = np.zeros((n, 2))
        self.w = np.zeros((n, 3))
        self.alpha = np.zeros((n, 3))
        self.mode = np.zeros(n, dtype=np.int8)
        self.t_trans = np.full(n, np.inf)
        self.pair_t = np.full((n, n), np.inf)
        self.wall_t = np.full(n, np.inf)
        self.wall_which = np.full(n, -1)
        self.pocket_t = np.full(n, np.inf)
        self.pocket_which = np.full(n, -1)
        self.segments: list[list[tuple[float, np.ndarray]]] = [[] for _ in range(n)]
        self.status_changes: list[list[tuple[float, int]]] = [[] for _ in range(n)]
        self.pocket_counts = np.zeros(len(model.pocket_names), dtype=int)
        self.events: list[PhysicsEvent] = []
        self.scripted_end = t0
        for i in range(n):
            if not self.active[i]:
                z = -model.drop_mm if self.status[i] == POCKETED else 0.0
                self._append_segment(i, t0, np.r_[self.r[i], z], np.zeros(3), np.zeros(3))

    # --- trajectories

    def _append_segment(
        self, i: int, t: float, p: np.ndarray, v: np.ndarray, a: np.ndarray
    ) -> None:
        self.segments[i].append((t, np.concatenate([p, v, a])))

    def _state(self, idx: np.ndarray, t: float) -> tuple[np.ndarray, ...]:
        tau = (t - self.t_ref[idx])[:, None]
        r = self.r[idx] + self.v[idx] * tau + 0.5 * self.acc[idx] * tau**2
        v = self.v[idx] + self.acc[idx] * tau
        w = self.w[idx] + self.alpha[idx] * tau
        return r, v, w

    def _motion(
        self, i: int, v: np.ndarray, w: np.ndarray
    ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
        """Body i's motion mode from velocity v and spin w: ``(mode, v, w, acc, alpha, dt)``,
        dt the time to its next transition. Changes nothing."""
        m = self.m
        radius = self.radius[i]
        w = w.copy()
        acc = np.zeros(2)
        alpha = np.zeros(3)
        dt = math.inf
        speed = math.hypot(v[0], v[1])
        if m.pool:
            u = np.array([v[0] - radius * w[1], v[1] + radius * w[0]])
            slip = math.hypot(u[0], u[1])
            if slip > _V_EPS_MM_S:
                mode = _SLIDING
                u_hat = u / slip
                acc = -m.mu_slide * m.g * u_hat
                k = 2.5 * m.mu_slide * m.g / radius
                alpha = np.array([-k * u_hat[1], k * u_hat[0], 0.0])
                dt = 2.0 * slip / (7.0 * m.mu_slide * m.g)
            elif speed > _V_EPS_MM_S:
                mode = _ROLLING
                acc = -m.mu_roll * m.g * v / speed
                w[:2] = (-v[1] / radius, v[0] / radius)
                alpha = np.array([-acc[1] / radius, acc[0] / radius, 0.0])
                dt = speed / (m.mu_roll * m.g)
            else:
                mode = _STATIONARY
        elif speed > _V_EPS_MM_S:
            mode = _SLIDING
            acc = -m.mu_slide * m.g * v / speed
            dt = speed / (m.mu_slide * m.g)
        else:
            mode = _STATIONARY
        if mode == _STATIONARY:
            v = np.zeros(2)
            w[:2] = 0.0
        return mode, v, w, acc, alpha, dt

    def _set_motion(self, i: int, t: float, r: np.ndarray, v: np.ndarray, w: np.ndarray) -> bool:
        """Start body i's next trajectory segment at t; True if it is at rest."""
        mode, v, w, acc, alpha, dt = self._motion(i, v, w)
        self.t_ref[i] = t
        self.r[i] = r
        self.v[i] = v
        self.acc[i] = acc
        self.w[i] = w
        self.alpha[i] = alpha
        self.mode[i] = mode
        self.t_trans[i] = t + dt
        self._append_segment(i, t, np.r_[r, 0.0], np.r_[v, 0.0], np.r_[acc, 0.0])
        return mode == _STATIONARY

    def _retire(self, i: int, t: float, status: int) -> None:
        self.active[i] = False
        self.status[i] = status
        self.status_changes[i].append((t, status))
        self.mode[i] = _STATIONARY
        self.t_trans[i] = np.inf
        self.pair_t[i, :] = np.inf
        self.pair_t[:, i] = np.inf
        self.wall_t[i] = np.inf
        self.pocket_t[i] = np.inf

    # --- predictions

    def _refresh(self, i: int, t: float) -> None:
        self.pair_t[i, :] = np.inf
        self.pair_t[:, i] = np.inf
        self.wall_t[i] = np.inf
        self.pocket_t[i] = np.inf
        if not self.active[i]:
            return
        idx = np.array([i])
        ri, vi, _ = (x[0] for x in self._state(idx, t))
        ai = self.acc[i]
        moving = self.mode[i] != _STATIONARY
        others = np.flatnonzero(self.active)
        others = others[others != i]
        if not moving:
            others = others[self.mode[others] != _STATIONARY]
        if len(others):
            rj, vj, _ = self._state(others, t)
            tau_max = np.minimum(self.t_trans[i], self.t_trans[others]) - t
            taus = _entry_times(
                rj - ri,
                vj - vi,
                self.acc[others] - ai,
                self.radius[i] + self.radius[others],
                tau_max,
                inside_counts=False,
                pressing_counts=True,
            )
            self.pair_t[i, others] = t + taus
            self.pair_t[others, i] = t + taus
        if not moving:
            return
        m = self.m
        tau_max = self.t_trans[i] - t
        wall = _wall_times(m, ri, vi, ai, self.radius[i], tau_max)
        n_points = len(m.point_xy)
        if n_points:
            tm = np.full(n_points, tau_max)
            pts = _entry_times(
                ri - m.point_xy,
                np.tile(vi, (n_points, 1)),
                np.tile(ai, (n_points, 1)),
                np.full(n_points, self.radius[i]),
                tm,
                inside_counts=False,
            )
            wall = np.concatenate([wall, pts])
        j = int(np.argmin(wall))
        self.wall_t[i] = t + wall[j]
        self.wall_which[i] = j
        k_p = len(m.pocket_c)
        pock = _entry_times(
            ri - m.pocket_c,
            np.tile(vi, (k_p, 1)),
            np.tile(ai, (k_p, 1)),
            m.pocket_capture,
            np.full(k_p, tau_max),
            inside_counts=True,
        )
        j = int(np.argmin(pock))
        self.pocket_t[i] = t + pock[j]
        self.pocket_which[i] = j

    # --- the loop

    def run(self, initial_v: np.ndarray, initial_w: np.ndarray) -> float:
        n = len(self.bodies)
        for i in range(n):
            if self.active[i]:
                self._set_motion(i, self.t0, self.r[i], initial_v[i], initial_w[i])
        for i in range(n):
            if self.active[i] and self.mode[i] != _STATIONARY:
                self._refresh(i, self.t0)
        t_last = self.t0
        count = 0
        while True:
            candidates = (
                (float(np.min(self.t_trans, initial=np.inf)), 0),
                (float(np.min(self.pocket_t, initial=np.inf)), 1),
                (float(np.min(self.wall_t, initial=np.inf)), 2),
                (float(np.min(self.pair_t, initial=np.inf)), 3),
            )
            t, kind = min(candidates)
            if not math.isfinite(t):
                break
            if t - self.t0 > self.max_duration:
                raise SimulationError(
                    f"bodies still moving {self.max_duration} s after the shot started; "
                    "raise max_duration_s or check the speeds"
                )
            count += 1
            if count > self.m.max_events:
                raise SimulationError(
                    f"more than {self.m.max_events} events (a Zeno cascade?) by t = {t:.6f} s"
                )
            t = max(t, t_last)
            t_last = t
            if kind == 0:
                changed = self._on_transition(int(np.argmin(self.t_trans)), t)
            elif kind == 1:
                changed = self._on_pocket(int(np.argmin(self.pocket_t)), t)
            elif kind == 2:
                changed = self._on_wall(int(np.argmin(self.wall_t)), t)
            else:
                i, j = np.unravel_index(int(np.argmin(self.pair_t)), self.pair_t.shape)
                changed = self._on_pair(int(i), int(j), t)
            self._check_contained(changed, t)
            for i in changed:
                self._refresh(i, t)
        return max(t_last, self.scripted_end)

    def _event(
        self,
        kind: str,
        t: float,
        ids: tuple[int, ...],
        xy: np.ndarray,
        *,
        cushion: str | None = None,
        pocket: str | None = None,
        speed_mm_s: float = 0.0,
    ) -> None:
        xy_mm = (float(xy[0]), float(xy[1]))
        self.events.append(PhysicsEvent(kind, t, ids, xy_mm, cushion, pocket, float(speed_mm_s)))

    def _id(self, i: int) -> int:
        return int(self.bodies.ids[i])

    def _check_contained(self, changed: Sequence[int], t: float) -> None:
        idx = np.array([i for i in changed if self.active[i]], dtype=int)
        if len(idx) == 0:
            return
        r, _, _ = self._state(idx, t)
        out = _escaped(self.m, r, self.radius[idx])
        bad = np.flatnonzero(out > _ESCAPE_TOL_MM)
        if len(bad):
            i = int(idx[bad[0]])
            raise SimulationError(
                f"body {self._id(i)} went {out[bad[0]]:.3f} mm through a cushion at t = {t:.6f} s"
            )

    def _on_transition(self, i: int, t: float) -> list[int]:
        r, v, w = (x[0] for x in self._state(np.array([i]), t))
        if self.mode[i] == _SLIDING and self.m.pool:
            w[:2] = (-v[1] / self.radius[i], v[0] / self.radius[i])  # u = 0: rolling
        else:
            v = np.zeros(2)
        if self._set_motion(i, t, r, v, w):
            self._event("rest", t, (self._id(i),), r)
        return [i]

    def _on_pocket(self, i: int, t: float) -> list[int]:
        m = self.m
        k = int(self.pocket_which[i])
        r, v, _ = (x[0] for x in self._state(np.array([i]), t))
        self._event("pocket", t, (self._id(i),), r, pocket=m.pocket_names[k])
        self._retire(i, t, POCKETED)
        # Scripted drop: free fall of drop_mm while the centre slows to its resting spot in
        # the cup (pool: the hole centre, then around it; Novuss: the hole centre).
        count = int(self.pocket_counts[k])
        self.pocket_counts[k] += 1
        rest = m.pocket_c[k].copy()
        if m.pool and count:
            angle = 2 * math.pi * count / 5
            rest += (m.pocket_hole[k] - self.radius[i]) * np.array(
                [math.cos(angle), math.sin(angle)]
            )
        duration = math.sqrt(2 * m.drop_mm / m.g) if m.drop_mm > 0 else 0.0
        if duration > 0:
            v0 = 2 * (rest - r) / duration
            self._append_segment(i, t, np.r_[r, 0.0], np.r_[v0, 0.0], np.r_[-v0 / duration, -m.g])
        self._append_segment(i, t + duration, np.r_[rest, -m.drop_mm], np.zeros(3), np.zeros(3))
        self.scripted_end = max(self.scripted_end, t + duration)
        return [i]

    def _on_wall(self, i: int, t: float) -> list[int]:
        m = self.m
        j = int(self.wall_which[i])
        r, v, w = (x[0] for x in self._state(np.array([i]), t))
        n_walls = len(m.wall_n)
        if j < n_walls:
            normal = m.wall_n[j]
            name = m.wall_names[j]
        else:
            rel = r - m.point_xy[j - n_walls]
            normal = rel / np.linalg.norm(rel)
            name = m.point_names[j - n_walls]
        v_n = float(v @ normal)
        if v_n >= -_V_EPS_MM_S:  # grazing: nothing to do, but never predict it again here
            self._set_motion(i, t, r, v, w)
            return [i]
        self._event("cushion", t, (self._id(i),), r, cushion=name, speed_mm_s=-v_n)
        if self.fly_over is not None and self.fly_over(self.events[-1]):
            self._fly_off(i, t, r, v, normal)
            return [i]
        v_t = v - v_n * normal
        slip = math.hypot(v_t[0], v_t[1])
        e = m.e_wall if -v_n >= _INELASTIC_BELOW_MM_S else 0.0
        v_new = v_t - e * v_n * normal
        if slip > 0:
            loss = min(m.mu_wall * (1 + e) * -v_n, m.stick_fraction * slip)
            v_new -= loss * v_t / slip
        if m.pool:  # drop the roll toward the cushion, keep the roll along it
            s = np.array([w[1], -w[0]])
            s -= (s @ normal) * normal
            w = np.array([-s[1], s[0], w[2]])
        if self._set_motion(i, t, r, v_new, w):
            self._event("rest", t, (self._id(i),), r)
        return [i]

    def _fly_off(self, i: int, t: float, r: np.ndarray, v: np.ndarray, normal: np.ndarray) -> None:
        m = self.m
        self._event("off_table", t, (self._id(i),), r)
        self._retire(i, t, OFF_TABLE)
        v_n = float(v @ normal)
        speed_out = max(-v_n, _MIN_FLIGHT_SPEED_MM_S)
        vel = (v - v_n * normal) - speed_out * normal
        distance = 2 * self.radius[i] + m.rail_width
        duration = distance / speed_out
        vz = 0.5 * m.g * duration
        self._append_segment(i, t, np.r_[r, 0.0], np.r_[vel, vz], np.array([0.0, 0.0, -m.g]))
        self._append_segment(
            i, t + duration, np.r_[r + vel * duration, 0.0], np.zeros(3), np.zeros(3)
        )
        self.scripted_end = max(self.scripted_end, t + duration)

    def _on_pair(self, i: int, j: int, t: float) -> list[int]:
        idx = np.array([i, j])
        r, v, w = self._state(idx, t)
        d = r[1] - r[0]
        normal = d / np.linalg.norm(d)
        approach = float((v[0] - v[1]) @ normal)
        pressing = float((self.acc[j] - self.acc[i]) @ normal) < 0
        if approach <= _V_EPS_MM_S and not pressing:  # separating, or float noise at rest
            self.pair_t[i, j] = self.pair_t[j, i] = np.inf
            return []
        mi, mj = self.mass[i], self.mass[j]
        e = self.m.e_pair if approach >= _INELASTIC_BELOW_MM_S else 0.0

        def leaving(separation: float) -> np.ndarray:
            impulse = mi * mj / (mi + mj) * (approach + separation)
            return np.stack([v[0] - impulse / mi * normal, v[1] + impulse / mj * normal])

        separation = e * approach
        v_new = leaving(separation)
        # A push: friction still drives the pair together after the impact (a ball with
        # follow behind the ball it just hit, a disc curving into another). The pair then
        # chatters: it leaves at least fast enough to touch again only after
        # _PUSH_PERIOD_S, instead of touching again at once, forever.
        acc_after = [self._motion(b, v_new[k], w[k])[3] for k, b in enumerate((i, j))]
        pressing_after = float((acc_after[1] - acc_after[0]) @ normal)
        if pressing_after < 0:
            floor = max(-pressing_after * _PUSH_PERIOD_S / 2, _PUSH_MIN_SEPARATION_MM_S)
            if separation < floor:
                separation = floor
                v_new = leaving(separation)
        striker, other = (i, j) if np.linalg.norm(v[0]) >= np.linalg.norm(v[1]) else (j, i)
        s = 0 if striker == i else 1
        self._event("contact", t, (self._id(striker), self._id(other)), r[s], speed_mm_s=approach)
        for k, b in enumerate((i, j)):
            was_moving = self.mode[b] != _STATIONARY
            if self._set_motion(b, t, r[k], v_new[k], w[k]) and was_moving:
                self._event("rest", t, (self._id(b),), r[k])
        return [i, j]


# ------------------------------------------------------------------------- result


@dataclass(frozen=True, slots=True)
class ShotResult:
    """The exact outcome of one shot: the event log and every body's trajectory.

    ``t_end_s`` is when the last body came to rest (scripted drops and flights included).
    Positions are exact at any time: each body's path is a list of quadratic segments.
    """

    events: tuple[PhysicsEvent, ...]
    t0_s: float
    t_end_s: float
    start: Bodies
    final: Bodies
    _seg_t: tuple[np.ndarray, ...] = field(repr=False)
    _seg_pva: tuple[np.ndarray, ...] = field(repr=False)
    _status_t: tuple[np.ndarray, ...] = field(repr=False)
    _status_code: tuple[np.ndarray, ...] = field(repr=False)

    def _eval(self, t_s: np.ndarray | float, derivative: bool) -> np.ndarray:
        t = np.atleast_1d(np.asarray(t_s, dtype=float))
        out = np.zeros((len(t), len(self.start), 3))
        for i, (ts, pva) in enumerate(zip(self._seg_t, self._seg_pva, strict=True)):
            k = np.clip(np.searchsorted(ts, t, side="right") - 1, 0, len(ts) - 1)
            tau = np.maximum(t - ts[k], 0.0)[:, None]
            p, v, a = pva[k, 0:3], pva[k, 3:6], pva[k, 6:9]
            out[:, i] = v + a * tau if derivative else p + v * tau + 0.5 * a * tau**2
        return out

    def xy_at(self, t_s: np.ndarray | float) -> np.ndarray:
        """Centres ``(T, N, 2)`` at times ``t_s`` (before ``t0_s``: the start)."""
        return self._eval(t_s, derivative=False)[:, :, :2]

    def v_at(self, t_s: np.ndarray | float) -> np.ndarray:
        """Velocities ``(T, N, 2)`` mm/s (right after an event at exactly that time)."""
        return self._eval(t_s, derivative=True)[:, :, :2]

    def z_at(self, t_s: np.ndarray | float) -> np.ndarray:
        """Elevation ``(T, N)`` mm of each body's base: 0 on the surface, negative in a
        pocket, positive while flying over a rail."""
        return self._eval(t_s, derivative=False)[:, :, 2]

    def status_at(self, t_s: np.ndarray | float) -> np.ndarray:
        """Status codes ``(T, N)``; a body is POCKETED / OFF_TABLE from its event on."""
        t = np.atleast_1d(np.asarray(t_s, dtype=float))
        out = np.tile(self.start.status, (len(t), 1))
        for i, (ts, codes) in enumerate(zip(self._status_t, self._status_code, strict=True)):
            for t_change, code in zip(ts, codes, strict=True):
                out[t >= t_change, i] = code
        return out


# --------------------------------------------------------------------------- entry


def simulate_shot(
    spec: TableSpec,
    settings: Physics,
    bodies: Bodies,
    strike: Strike | None,
    *,
    t0_s: float = 0.0,
    fly_over: Callable[[PhysicsEvent], bool] | None = None,
    initial_v_mm_s: np.ndarray | None = None,
    max_duration_s: float = 60.0,
) -> ShotResult:
    """Simulate one shot from ``t0_s`` until every body rests.

    ``strike`` hits one body; ``initial_v_mm_s`` ``(N, 2)`` instead starts bodies already
    moving (pool balls given this way start in a natural roll). ``fly_over`` is asked at
    every cushion contact; True sends that body over the rail (the cushion event is logged,
    then an "off_table" event). Raises ``ValueError`` for bad input and ``SimulationError``
    when the shot does not finish within ``max_duration_s`` or ``settings.max_events``.
    """
    model = _model(spec, settings)
    n = len(bodies)
    if not math.isfinite(t0_s):
        raise ValueError(f"t0_s must be finite, got {t0_s}")
    if not (math.isfinite(max_duration_s) and max_duration_s > 0):
        raise ValueError(f"max_duration_s must be > 0, got {max_duration_s}")
    unknown = sorted(set(bodies.labels) - set(spec.labels))
    if unknown:
        raise ValueError(
            f"labels {unknown} are not used on table {spec.name!r}; known: {list(spec.labels)}"
        )
    radii = np.array([spec.object_for(lab).radius_mm for lab in bodies.labels], dtype=float)
    masses = _masses(settings, bodies.labels)
    _validate_positions(model, bodies, radii)

    initial_v = np.zeros((n, 2))
    initial_w = np.zeros((n, 3))
    if initial_v_mm_s is not None:
        if strike is not None:
            raise ValueError("give either a strike or initial_v_mm_s, not both")
        iv = np.asarray(initial_v_mm_s, dtype=float)
        if iv.shape != (n, 2):
            raise ValueError(f"initial_v_mm_s must have shape ({n}, 2), got {iv.shape}")
        if not np.isfinite(iv).all():
            raise ValueError("initial_v_mm_s contains NaN or infinity")
        moving_off = (np.abs(iv).sum(axis=1) > 0) & (bodies.status != ON_TABLE)
        if moving_off.any():
            raise ValueError(
                f"bodies {bodies.ids[moving_off].tolist()} are not on the table and cannot move"
            )
        initial_v = iv.copy()
        if model.pool:
            initial_w[:, 0] = -iv[:, 1] / radii
            initial_w[:, 1] = iv[:, 0] / radii
    if strike is not None:
        i = bodies.index_of(strike.body_id)
        if bodies.status[i] != ON_TABLE:
            raise ValueError(f"struck body {strike.body_id} is not on the table")
        initial_v[i], initial_w[i] = strike_velocity(settings, strike, radii[i])

    engine = _Engine(model, bodies, radii, masses, float(t0_s), fly_over, max_duration_s)
    t_end = engine.run(initial_v, initial_w)

    seg_t = tuple(np.array([s[0] for s in segs]) for segs in engine.segments)
    seg_pva = tuple(np.array([s[1] for s in segs]) for segs in engine.segments)
    status_t = tuple(np.array([c[0] for c in ch], dtype=float) for ch in engine.status_changes)
    status_code = tuple(np.array([c[1] for c in ch], dtype=np.int8) for ch in engine.status_changes)
    result = ShotResult(
        events=tuple(engine.events),
        t0_s=float(t0_s),
        t_end_s=float(t_end),
        start=bodies,
        final=bodies,
        _seg_t=seg_t,
        _seg_pva=seg_pva,
        _status_t=status_t,
        _status_code=status_code,
    )
    final = Bodies(bodies.ids, bodies.labels, result.xy_at(t_end)[0], engine.status)
    object.__setattr__(result, "final", final)
    return result


def _masses(settings: Physics, labels: Sequence[str]) -> np.ndarray:
    if isinstance(settings, PoolPhysics):
        return np.full(len(labels), settings.ball_mass_kg)
    return np.array(
        [settings.puck_mass_kg if lab == "puck" else settings.pawn_mass_kg for lab in labels],
        dtype=float,
    )


def _validate_positions(model: _Model, bodies: Bodies, radii: np.ndarray) -> None:
    xy = bodies.xy_mm
    if not np.isfinite(xy).all():
        bad = bodies.ids[~np.isfinite(xy).all(axis=1)].tolist()
        raise ValueError(f"positions of bodies {bad} contain NaN or infinity")
    on = np.flatnonzero(bodies.status == ON_TABLE)
    if len(on) == 0:
        return
    out = _escaped(model, xy[on], radii[on])
    for k in np.flatnonzero(out > _SURFACE_TOL_MM):
        i = on[k]
        raise ValueError(
            f"body {bodies.ids[i]} ({bodies.labels[i]}) at ({xy[i, 0]:.1f}, {xy[i, 1]:.1f}) mm "
            f"is {out[k]:.1f} mm off the playing surface"
        )
    for k, centre in enumerate(model.pocket_c):
        inside = np.linalg.norm(xy[on] - centre, axis=1) < model.pocket_capture[k]
        if inside.any():
            i = on[np.flatnonzero(inside)[0]]
            raise ValueError(
                f"body {bodies.ids[i]} ({bodies.labels[i]}) lies over pocket "
                f"{model.pocket_names[k]!r}; mark it POCKETED instead"
            )
    for p in model.point_xy:
        near = np.linalg.norm(xy[on] - p, axis=1) < radii[on] - _OVERLAP_TOL_MM
        if near.any():
            i = on[np.flatnonzero(near)[0]]
            raise ValueError(f"body {bodies.ids[i]} overlaps the pocket jaw at {tuple(p)}")
    d = np.linalg.norm(xy[on, None, :] - xy[None, on, :], axis=2)
    limit = radii[on, None] + radii[None, on] - _OVERLAP_TOL_MM
    np.fill_diagonal(d, np.inf)
    hits = np.argwhere(d < limit)
    if len(hits):
        a, b = on[hits[0, 0]], on[hits[0, 1]]
        gap = d[hits[0, 0], hits[0, 1]] - radii[a] - radii[b]
        raise ValueError(
            f"bodies {bodies.ids[a]} and {bodies.ids[b]} overlap by {-gap:.2f} mm "
            f"(tolerance {_OVERLAP_TOL_MM} mm)"
        )
