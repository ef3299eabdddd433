"""Player bots: they look at the table and decide the next stroke, like a club player.

A bot returns a ``ShotPlan``: what it strikes, where to, how hard, with which spin, what it
means to pot (the call) and, when it is playing a foul on purpose, which one. The physics
engine turns the plan into motion through ``ShotPlan.to_strike``; the simulator scripts what
physics cannot do (a hand nudging a ball, a ball jumping the rail).

* ``PoolBot`` aims with the ghost ball: for every legal ball and pocket it finds the line
  through the pocket mouth with the most room past both jaws, puts the cue ball's centre
  ``2R`` behind the object ball on that line, drops blocked lines and cuts over 75°, and
  plays the easiest pot. Without one it banks, plays safe or kicks off a cushion (mirror
  aim). Ball in hand: the cue ball goes where the easiest pot is a gentle cut.
* ``NovussBot`` places the puck in its own edge zone (RULES.md §1.4) and plays a direct
  shot at an own light pawn, a rebound off the opposite rail when it has no light pawn, or a
  side-rail shot at an own pawn in the central circle (RULES.md §1.3).

Both miss a little (angular and speed noise that shrink with ``BotSettings.skill``) and,
at ``BotSettings.fault_rate``, play a deliberate foul so that generated matches contain
every kind of referee call. Every random draw comes from the ``numpy.random.Generator``
given to the bot, so a seed replays the same decisions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from calibration.tables import Family, Pocket, TableSpec

if TYPE_CHECKING:
    from simulation.physics import Strike

# ------------------------------------------------------------------------ constants

G_MM_S2 = 9810.0
#: Rolling resistance of a ball on cloth; a rolling ball slows by ``μr·g``.
ROLL_FRICTION = 0.01
ROLL_DECEL_MM_S2 = ROLL_FRICTION * G_MM_S2
#: Ball-ball restitution: a full hit hands on ``(1 + e)/2`` of the cue ball's speed.
BALL_RESTITUTION = 0.95
#: The thinnest cut a bot tries to pot (degrees), pool and Novuss.
MAX_CUT_DEG = 75.0
NOVUSS_MAX_CUT_DEG = 70.0
#: Angular aim error (one sigma) at skill 0; it falls linearly to none at skill 1.
MAX_AIM_SIGMA_DEG = 2.0
#: Relative speed error (one sigma) at skill 0; none at skill 1.
MAX_SPEED_SIGMA = 0.15
#: Tip-offset error (one sigma, in units of R) at skill 0.
MAX_SPIN_SIGMA = 0.1
#: Novuss, the engine's defaults: puck-board friction, and the share of the puck's normal
#: speed a pawn leaves with, (1 + e)·m_puck/(m_puck + m_pawn) with e = 0.85, 18 g and 6 g.
NOVUSS_FRICTION = 0.1
NOVUSS_TRANSFER = 1.85 * 18.0 / 24.0
#: The largest tip offset (units of R) a stroke may use; beyond it the tip miscues. Same
#: limit as ``simulation.physics.MAX_TIP_OFFSET`` (Alciatore TP A.30).
MAX_TIP_OFFSET = 0.6
#: A ball struck (or hit) at its centre slides, then rolls on at 5/7 of its speed.
ROLL_AFTER_SLIDE = 5.0 / 7.0
#: Room kept between a placed striker and any other object.
PLACE_CLEARANCE_MM = 1.0

SHOT_KINDS = ("break", "pot", "safety", "kick", "bank", "rebound", "direct", "side_rail")
#: Deliberate pool fouls. ``foul_weak_break`` is a break too soft to drive 4 balls to rails.
POOL_FAULTS = (
    "foul_wrong_ball",
    "foul_miss",
    "foul_no_rail",
    "foul_scratch",
    "foul_off_table",
    "foul_kitchen",
    "foul_touched",
    "foul_weak_break",
    "foul_touch_moving",
)
POOL_BREAK_FAULTS = ("foul_kitchen", "foul_weak_break", "foul_touched", "foul_off_table")
#: Deliberate Novuss fouls (RULES.md §1.5: N1, N2, N10, N11, N20, placement warning/N30).
NOVUSS_FAULTS = (
    "foul_opponent_pawn",
    "foul_dark_pawn",
    "foul_puck_pocketed",
    "foul_too_hard",
    "foul_placement_touch",
    "foul_placement_line",
    "foul_touch_moving",
    "foul_rebound_opponent",
    "foul_side_rail_miss",
)
#: Each fault once; "foul_touch_moving" is the same scripted happening on both tables.
ALL_FAULTS = tuple(dict.fromkeys(POOL_FAULTS + NOVUSS_FAULTS))
#: ``ball_in_hand`` values: anywhere, or behind the head string ("kitchen" is an alias).
BALL_IN_HAND = ("anywhere", "behind_head_string", "kitchen")
#: Novuss: the rotation (rad) from a shooter's own frame (he stands at y = -L/2 and looks
#: toward +y, as player A does) to the table frame, per rail he stands at.
NOVUSS_SIDE_ANGLE = {"a": 0.0, "right": math.pi / 2, "b": math.pi, "left": -math.pi / 2}


# ------------------------------------------------------------------------ plans


@dataclass(frozen=True, slots=True)
class ShotPlan:
    """One stroke as the player means it, in the table frame.

    ``kind`` is one of ``SHOT_KINDS`` for an honest attempt; for a deliberate foul it is the
    foul's name (one of ``ALL_FAULTS``) and equals ``intended_fault``. For fouls that are
    not in the stroke itself (``foul_touched``, ``foul_touch_moving``, ``foul_kitchen``,
    ``foul_placement_*``, ``foul_off_table``, ``foul_too_hard``) the stroke is an ordinary
    attempt at ``target`` and ``pocket``; the simulator scripts the hand or the jump.

    ``heading_rad`` is the direction the striker starts to travel; ``follow`` (+ top,
    - draw) and ``english`` (+ right) are tip offsets in units of the ball radius, always 0
    for Novuss. ``target``/``target_id`` name the intended object (label and body id),
    ``pocket`` the intended pocket (the call in call-shot games) and ``place_xy_mm`` where
    the striker is put before the stroke (ball in hand, the break, the Novuss puck).
    """

    kind: str
    striker: str
    heading_rad: float
    speed_mm_s: float
    follow: float = 0.0
    english: float = 0.0
    target: str | None = None
    target_id: int | None = None
    pocket: str | None = None
    place_xy_mm: tuple[float, float] | None = None
    intended_fault: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in SHOT_KINDS and self.kind not in ALL_FAULTS:
            raise ValueError(f"unknown shot kind {self.kind!r}")
        if self.intended_fault is not None and self.intended_fault not in ALL_FAULTS:
            raise ValueError(f"unknown fault {self.intended_fault!r}")
        if (self.intended_fault is not None) != (self.kind in ALL_FAULTS) or (
            self.intended_fault is not None and self.intended_fault != self.kind
        ):
            raise ValueError("a foul's kind must equal intended_fault, and only a foul's")
        if not (math.isfinite(self.heading_rad) and math.isfinite(self.speed_mm_s)):
            raise ValueError("heading and speed must be finite")
        if self.speed_mm_s < 0:
            raise ValueError(f"speed must be >= 0, got {self.speed_mm_s}")
        if max(abs(self.follow), abs(self.english)) > MAX_TIP_OFFSET:
            raise ValueError(
                f"follow and english are tip offsets within ±{MAX_TIP_OFFSET} (units of R)")

    @property
    def direction(self) -> tuple[float, float]:
        """The unit vector of ``heading_rad``."""
        return (math.cos(self.heading_rad), math.sin(self.heading_rad))

    def to_strike(self, body_id: int) -> Strike:
        """The physics engine's ``Strike`` for this plan, on body ``body_id``."""
        from simulation.physics import Strike  # the engine is optional for planning

        return Strike(
            body_id=body_id,
            heading_rad=self.heading_rad,
            speed_mm_s=self.speed_mm_s,
            follow=self.follow,
            english=self.english,
        )


@dataclass(frozen=True, slots=True)
class BotSettings:
    """How well and how honestly a bot plays.

    * ``skill`` in [0, 1]: the aim error is normal with sigma ``2°·(1 - skill)`` and the
      speed error ``15 %·(1 - skill)``; ``skill = 1`` plays every stroke exactly as planned
      (no noise at all, the mode the tests use). Lower skill gives more misses, hence more
      natural fouls and turn changes, but fewer long runs.
    * ``fault_rate`` in [0, 1]: the share of strokes that are deliberate fouls. Raising it
      brings every call type up quickly in short clips; matches then end rarely.
    * ``safety_rate`` in [0, 1]: the share of strokes played safe although a pot is on.
      Safeties give push-and-wait play (rails, no pocket) but slow the match down.
    * ``faults``: which deliberate fouls may be chosen (names from ``ALL_FAULTS``); empty
      means every one that fits the game and the position.
    """

    skill: float = 0.8
    fault_rate: float = 0.1
    safety_rate: float = 0.1
    faults: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("skill", "fault_rate", "safety_rate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {value}")
        unknown = [f for f in self.faults if f not in ALL_FAULTS]
        if unknown:
            raise ValueError(f"unknown faults {unknown}; known: {', '.join(ALL_FAULTS)}")

    @property
    def aim_sigma_rad(self) -> float:
        return math.radians(MAX_AIM_SIGMA_DEG) * (1.0 - self.skill)

    @property
    def speed_sigma(self) -> float:
        return MAX_SPEED_SIGMA * (1.0 - self.skill)


# ------------------------------------------------------------------------ geometry


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.maximum(n, 1e-12)


def _heading(src: np.ndarray, dst: np.ndarray) -> float:
    d = np.asarray(dst, float) - np.asarray(src, float)
    return math.atan2(float(d[1]), float(d[0]))


def _seg_dist(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Distances ``(M, N)`` from points ``p (N, 2)`` to segments ``a (M, 2)`` -> ``b (M, 2)``."""
    a = np.atleast_2d(a)
    b = np.atleast_2d(b)
    p = np.asarray(p, float).reshape(-1, 2)
    ab = b - a
    l2 = np.maximum(np.einsum("md,md->m", ab, ab), 1e-12)
    ap = p[None, :, :] - a[:, None, :]
    s = np.clip(np.einsum("mnd,md->mn", ap, ab) / l2[:, None], 0.0, 1.0)
    closest = a[:, None, :] + s[..., None] * ab[:, None, :]
    return np.linalg.norm(p[None, :, :] - closest, axis=-1)


def _clear(a: np.ndarray, b: np.ndarray, obstacles: np.ndarray, room_mm: float) -> np.ndarray:
    """True per segment ``a (M, 2)`` -> ``b (M, 2)`` that passes ``room_mm`` from every obstacle."""
    a = np.atleast_2d(a)
    if len(obstacles) == 0:
        return np.ones(len(a), dtype=bool)
    return _seg_dist(a, b, obstacles).min(axis=1) >= room_mm


def _roll_speed(distance_mm: float) -> float:
    """The speed a rolling ball needs to cover ``distance_mm`` before it stops."""
    return math.sqrt(2.0 * ROLL_DECEL_MM_S2 * max(distance_mm, 0.0))


def _stroke_speed(v_contact_mm_s: float, travel_mm: float) -> float:
    """Cue speed for a centre-ball stroke to arrive, rolling, at ``v_contact`` after ``travel``.

    The slide loses 2/7 of the speed; the short slide distance itself is ignored.
    """
    return math.hypot(v_contact_mm_s, _roll_speed(travel_mm)) / ROLL_AFTER_SLIDE


def _hit_speed(object_travel_mm: float, cut_rad: float = 0.0) -> float:
    """Cue-ball speed at contact that sends the object ball ``object_travel_mm``."""
    transfer = max(math.cos(cut_rad), 0.25) * (1 + BALL_RESTITUTION) / 2
    return _roll_speed(object_travel_mm) / ROLL_AFTER_SLIDE / transfer


def _ray_to_box(p: np.ndarray, d: np.ndarray, hx: float, hy: float) -> float:
    """Distance from ``p`` (inside) along unit ``d`` to the box ``|x| <= hx, |y| <= hy``."""
    t = math.inf
    for k, h in ((0, hx), (1, hy)):
        if abs(d[k]) > 1e-12:
            t = min(t, (math.copysign(h, d[k]) - p[k]) / d[k])
    return max(t, 0.0)


@dataclass(frozen=True, slots=True)
class _Rail:
    """A straight cushion as the centre of a disc of radius ``r`` meets it."""

    name: str
    a: np.ndarray  # a point of the cushion nose
    tangent: np.ndarray
    normal: np.ndarray  # into the playing surface
    length: float

    @classmethod
    def make(cls, name: str, a: Sequence[float], b: Sequence[float], n: Sequence[float]) -> _Rail:
        a_, b_ = np.asarray(a, float), np.asarray(b, float)
        return cls(name, a_, _unit(b_ - a_), np.asarray(n, float), float(np.linalg.norm(b_ - a_)))

    def bounce(
        self, src: np.ndarray, dst: np.ndarray, r: float, margin: float,
        law: CushionLaw | None = None,
    ) -> np.ndarray | None:
        """Where to hit this rail from ``src`` so the disc goes on to ``dst``.

        Without ``law`` this is mirror aim (angle in = angle out). With one, the bot
        searches the rail for the point whose rebound, as ``law`` predicts it, passes
        through ``dst``. ``None`` when either point is not in front of the rail or the
        bounce point is within ``margin`` of the rail's ends (a pocket jaw).
        """
        off_s = float((src - self.a) @ self.normal) - r
        off_d = float((dst - self.a) @ self.normal) - r
        if off_s <= 1.0 or off_d <= 1.0:
            return None
        image = dst - 2.0 * off_d * self.normal
        q = src + off_s / (off_s + off_d) * (image - src)
        if law is not None:
            line = self.a + r * self.normal
            along = np.linspace(margin, self.length - margin, 241)
            pts = line + along[:, None] * self.tangent
            out = law.rebound(_unit(pts - src), self.normal)
            w = dst - pts
            miss = out[:, 0] * w[:, 1] - out[:, 1] * w[:, 0]
            ahead = np.einsum("kd,kd->k", out, w) > 0
            flips = np.flatnonzero((np.sign(miss[:-1]) != np.sign(miss[1:]))
                                   & ahead[:-1] & ahead[1:])
            if len(flips) == 0:
                return None
            k = int(flips[0])
            f = miss[k] / (miss[k] - miss[k + 1])
            q = pts[k] + f * (pts[k + 1] - pts[k])
        along_q = float((q - self.a) @ self.tangent)
        if not margin <= along_q <= self.length - margin:
            return None
        return q


@dataclass(frozen=True, slots=True)
class CushionLaw:
    """How a disc leaves a cushion, as the bot reckons it (the engine's model, settled).

    The normal speed comes back times ``e``; the tangential speed loses
    ``min(mu (1 + e) |v_n|, stick |v_t|)``. A pool ball then slides into a roll, which
    keeps ``settle`` of the new normal speed and gives back part of the tangential loss
    (its roll along the cushion survives the bounce): the direction it ends up rolling in
    is what ``rebound`` returns.
    """

    e: float
    mu: float
    stick: float
    settle: float = 1.0

    def rebound(self, d_in: np.ndarray, normal: np.ndarray) -> np.ndarray:
        """Unit outgoing directions ``(K, 2)`` for unit incoming ``d_in (K, 2)``."""
        v_n = d_in @ normal  # negative: into the cushion
        v_t = d_in - v_n[:, None] * normal
        slip = np.linalg.norm(v_t, axis=1)
        loss = np.minimum(self.mu * (1 + self.e) * -v_n, self.stick * slip)
        t_out = slip - self.settle * loss
        n_out = self.settle * self.e * -v_n
        t_hat = v_t / np.maximum(slip, 1e-12)[:, None]
        return _unit(t_hat * t_out[:, None] + n_out[:, None] * normal)


#: The engine's defaults (simulation.physics): pool cushions e = 0.8, mu = 0.2, the
#: sphere's 2/7, then the slide into a roll keeps 5/7; Novuss rails e = 0.7, mu = 0.1, 1/3.
POOL_CUSHION = CushionLaw(e=0.8, mu=0.2, stick=2.0 / 7.0, settle=5.0 / 7.0)
NOVUSS_RAIL = CushionLaw(e=0.7, mu=0.1, stick=1.0 / 3.0)


def pocket_aim(
    src_xy_mm: np.ndarray, pocket: Pocket, radius_mm: float
) -> tuple[np.ndarray, float] | None:
    """Where to send a disc of ``radius_mm`` from ``src_xy_mm`` to drop it in ``pocket``.

    For a pool pocket the bot tries lines through points of the mouth chord and keeps the
    one with the most room: every jaw point must stay ``radius_mm`` off the line, and the
    line must pass within 85 % of the capture radius of the pocket centre. Returns the aim
    point and the room left (mm), or ``None`` when the mouth is shut from ``src``. A pocket
    without a mouth (Novuss) is aimed at its centre.
    """
    src = np.asarray(src_xy_mm, float)
    centre = np.asarray(pocket.centre_xy_mm, float)
    if pocket.mouth_a_xy_mm is None or pocket.mouth_b_xy_mm is None:
        return centre, pocket.capture_radius_mm
    ja, jb = np.asarray(pocket.mouth_a_xy_mm), np.asarray(pocket.mouth_b_xy_mm)
    u = np.linspace(0.15, 0.85, 29)
    aims = ja + u[:, None] * (jb - ja)
    dirs = _unit(aims - src)

    def off_line(p: np.ndarray) -> np.ndarray:
        w = p - src
        perp = np.abs(dirs[:, 0] * w[1] - dirs[:, 1] * w[0])
        return np.where(dirs @ w > 0, perp, np.inf)

    room_jaw = np.minimum(off_line(ja), off_line(jb)) - radius_mm
    room_centre = 0.85 * pocket.capture_radius_mm - off_line(centre)
    room = np.minimum(room_jaw, room_centre)
    k = int(np.argmax(room))
    if room[k] < 0.5:
        return None
    return aims[k], float(room[k])


def puck_placement_ok(spec: TableSpec, xy_mm: Sequence[float], side: str) -> bool:
    """RULES.md §1.4: the puck centre is in the shooter's edge zone with no line in its hole.

    For side ``a`` (L = 1000): c.y <= -375.6, |c.x| <= 364.4 and c.y >= -477.5; the other
    sides are the same test turned with the table.
    """
    local = _to_local(np.asarray(xy_mm, float).reshape(1, 2), side)[0]
    y_max, y_min, x_max = _puck_zone(spec)
    return bool(y_min - 1e-9 <= local[1] <= y_max + 1e-9 and abs(local[0]) <= x_max + 1e-9)


def _puck_zone(spec: TableSpec) -> tuple[float, float, float]:
    """``(y_max, y_min, |x|_max)`` of a legal puck centre in the shooter's own frame."""
    zone = spec.line("zone_a")
    side_line = spec.line("zone_right")
    hole = spec.objects["puck"].hole_radius_mm
    clear = zone.width_mm / 2 + hole
    y_max = zone.a_xy_mm[1] - clear
    y_min = -spec.half_wh_mm[1] + spec.objects["puck"].radius_mm
    x_max = side_line.a_xy_mm[0] - clear
    return y_max, y_min, x_max


def _rot(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


def _to_local(xy: np.ndarray, side: str) -> np.ndarray:
    return np.asarray(xy, float).reshape(-1, 2) @ _rot(-_side_angle(side)).T


def _to_table(xy: np.ndarray, side: str) -> np.ndarray:
    return np.asarray(xy, float).reshape(-1, 2) @ _rot(_side_angle(side)).T


def _side_angle(side: str) -> float:
    try:
        return NOVUSS_SIDE_ANGLE[side]
    except KeyError:
        known = ", ".join(NOVUSS_SIDE_ANGLE)
        raise ValueError(f"side must be one of {known}, got {side!r}") from None


# ------------------------------------------------------------------------ shared bot parts


class _Bot:
    """What both bots share: settings, the generator, noise and the choice of a foul."""

    striker = ""

    def __init__(self, spec: TableSpec, settings: BotSettings, rng: np.random.Generator) -> None:
        self.spec = spec
        self.settings = settings
        self.rng = rng

    def _draw_faults(self, applicable: Sequence[str]) -> list[str]:
        """An empty list (an honest stroke) or the fouls to try, in a random order."""
        if self.settings.fault_rate <= 0.0 or self.rng.random() >= self.settings.fault_rate:
            return []
        allowed = [f for f in applicable if not self.settings.faults or f in self.settings.faults]
        return [allowed[i] for i in self.rng.permutation(len(allowed))]

    def _noisy(self, plan: ShotPlan) -> ShotPlan:
        """The stroke as the hand delivers it: aim, speed and tip offsets a little off."""
        s = self.settings
        if s.skill >= 1.0:
            return plan
        heading = plan.heading_rad + float(self.rng.normal(0.0, s.aim_sigma_rad))
        heading = math.atan2(math.sin(heading), math.cos(heading))
        speed = plan.speed_mm_s * max(0.3, 1.0 + float(self.rng.normal(0.0, s.speed_sigma)))
        spin = MAX_SPIN_SIGMA * (1.0 - s.skill)
        follow, english = plan.follow, plan.english
        if self.striker == "cue_ball":
            lim = MAX_TIP_OFFSET
            follow = float(np.clip(follow + self.rng.normal(0.0, spin), -lim, lim))
            english = float(np.clip(english + self.rng.normal(0.0, spin), -lim, lim))
        return replace(plan, heading_rad=heading, speed_mm_s=speed, follow=follow,
                       english=english)


# ------------------------------------------------------------------------ pool


@dataclass(frozen=True, slots=True)
class _PoolScene:
    labels: tuple[str, ...]
    ids: np.ndarray
    xy: np.ndarray
    objects: np.ndarray  # indices of object balls
    legal: np.ndarray  # indices of legal object balls
    cue: int | None

    def others(self, *exclude: int) -> np.ndarray:
        """Object-ball centres except ``exclude``."""
        keep = [i for i in self.objects if i not in exclude]
        return self.xy[keep].reshape(-1, 2)


@dataclass(frozen=True, slots=True)
class _Pot:
    score: float
    target: int
    pocket: str
    ghost: np.ndarray
    aim: np.ndarray
    cut_rad: float
    d_cue_mm: float
    d_obj_mm: float


@dataclass(frozen=True, slots=True)
class _Line:
    """An object ball's open line to a pocket: where the cue ball must be at contact."""

    target: int
    pocket: str
    ghost: np.ndarray
    aim: np.ndarray
    u: np.ndarray  # the object ball's direction
    room: float
    d_obj: float
    others: np.ndarray  # the other object balls (obstacles for the cue ball)


class PoolBot(_Bot):
    """A pool player for 8-ball, 9-ball, 10-ball and 14.1 (see the module docstring)."""

    striker = "cue_ball"

    def __init__(
        self,
        spec: TableSpec,
        settings: BotSettings | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        if spec.family is not Family.POOL:
            raise ValueError(f"PoolBot needs a pool table, got {spec.name!r}")
        super().__init__(spec, settings or BotSettings(), rng or np.random.default_rng())
        self.r = spec.object_for("cue_ball").radius_mm
        self.hx, self.hy = spec.half_wh_mm
        self.head_x = spec.spots["head_spot"][0]
        self.rails = tuple(_Rail.make(c.name, c.a_xy_mm, c.b_xy_mm, c.normal_xy)
                           for c in spec.cushions)

    # -- the decision ------------------------------------------------------------

    def choose(
        self,
        labels: Sequence[str],
        ids: Sequence[int],
        xy_mm: np.ndarray,
        *,
        legal_targets: frozenset[str],
        ball_in_hand: str | None,
        is_break: bool,
        game: str,
    ) -> ShotPlan:
        """The next stroke for the position ``labels``/``ids``/``xy_mm`` ``(N, 2)``.

        ``legal_targets``: labels the cue ball may hit first. ``ball_in_hand``: ``None``
        (the cue ball is where it lies), ``"anywhere"`` or ``"behind_head_string"``
        (alias ``"kitchen"``). A cue ball listed in ``labels`` is ignored when in hand.
        """
        labels = tuple(labels)
        xy = np.asarray(xy_mm, float).reshape(-1, 2)
        if len(labels) != len(xy) or len(ids) != len(xy):
            raise ValueError("labels, ids and xy_mm must have the same length")
        if ball_in_hand is not None and ball_in_hand not in BALL_IN_HAND:
            raise ValueError(f"ball_in_hand must be None or one of {BALL_IN_HAND}")
        cue = labels.index("cue_ball") if "cue_ball" in labels else None
        if cue is None and ball_in_hand is None and not is_break:
            raise ValueError("the cue ball is not on the table and not in hand")
        objects = np.array([i for i, lb in enumerate(labels) if lb != "cue_ball"], dtype=int)
        legal = np.array([i for i in objects if labels[i] in legal_targets], dtype=int)
        if len(legal) == 0:
            raise ValueError("no legal target ball on the table")
        scene = _PoolScene(labels, np.asarray(ids, int), xy, objects, legal, cue)
        kitchen = ball_in_hand in ("behind_head_string", "kitchen")

        if is_break:
            return self._noisy(self._break(scene, game, ball_in_hand is not None or cue is None))

        applicable = [f for f in POOL_FAULTS if f not in ("foul_weak_break", "foul_kitchen")]
        if kitchen:
            applicable.append("foul_kitchen")
        faults = self._draw_faults(applicable)
        place = self._place(scene, kitchen) if ball_in_hand is not None else None
        c = place if place is not None else xy[cue]  # type: ignore[index]
        for fault in faults:
            plan = self._fault(fault, scene, c, place, kitchen)
            if plan is not None:
                return self._noisy(plan)
        return self._noisy(self._honest(scene, c, place, kitchen))

    # -- pots ----------------------------------------------------------------------

    def _lines(self, scene: _PoolScene, targets: Sequence[int]) -> list[_Line]:
        """Every open object-ball line to a pocket, whatever the cue ball's position."""
        r = self.r
        out = []
        for t in targets:
            b = scene.xy[t]
            others = scene.others(t)
            for pocket in self.spec.pockets:
                found = pocket_aim(b, pocket, r)
                if found is None:
                    continue
                aim, room = found
                u = _unit(aim - b)
                ghost = b - 2 * r * u
                if abs(ghost[0]) > self.hx - r + 1e-6 or abs(ghost[1]) > self.hy - r + 1e-6:
                    continue
                if not _clear(b, aim, others, 2 * r)[0]:
                    continue
                out.append(_Line(int(t), pocket.name, ghost, aim, u, room,
                                 float(np.linalg.norm(aim - b)), others))
        return out

    def _scores(self, c: np.ndarray, lines: Sequence[_Line],
                max_cut_deg: float = MAX_CUT_DEG) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Scores, cut angles and cue travel ``(M, L)`` of each line from cue spots ``c (M, 2)``.

        A score is -1 where the cut is too thin or a ball blocks the cue ball's path.
        """
        c = np.atleast_2d(c)
        score = np.full((len(c), len(lines)), -1.0)
        cut = np.zeros_like(score)
        d_cue = np.zeros_like(score)
        for k, ln in enumerate(lines):
            v = ln.ghost - c
            d = np.linalg.norm(v, axis=1)
            cos = np.where(d > 1e-6, (v @ ln.u) / np.maximum(d, 1e-6), 1.0)
            angle = np.arccos(np.clip(cos, -1.0, 1.0))
            ok = angle <= math.radians(max_cut_deg)
            ok &= _clear(c, np.broadcast_to(ln.ghost, c.shape), ln.others, 2 * self.r)
            s = (np.cos(angle) ** 2 * (0.5 + 0.5 * min(1.0, ln.room / 25.0))
                 * 1e6 / ((d + 300.0) * (ln.d_obj + 300.0)))
            score[:, k] = np.where(ok, s, -1.0)
            cut[:, k] = angle
            d_cue[:, k] = d
        return score, cut, d_cue

    def _pots(self, c: np.ndarray, scene: _PoolScene, targets: Sequence[int],
              max_cut_deg: float = MAX_CUT_DEG) -> list[_Pot]:
        """Every makeable pot from cue position ``c``, best first."""
        lines = self._lines(scene, targets)
        if not lines:
            return []
        score, cut, d_cue = self._scores(c, lines, max_cut_deg)
        out = [_Pot(float(score[0, k]), ln.target, ln.pocket, ln.ghost, ln.aim,
                    float(cut[0, k]), float(d_cue[0, k]), ln.d_obj)
               for k, ln in enumerate(lines) if score[0, k] > 0]
        out.sort(key=lambda p: -p.score)
        return out

    def _pot_speed(self, pot: _Pot, extra: float = 1.0) -> float:
        """Enough for the object ball to drop with pace to spare, typically 1-4 m/s."""
        v0 = _stroke_speed(_hit_speed(pot.d_obj_mm + 150.0, pot.cut_rad), pot.d_cue_mm)
        pace = float(self.rng.uniform(1.3, 2.0)) * extra
        return float(np.clip(pace * v0 + 500.0, 1000.0, 4500.0 * extra))

    def _pot_plan(self, pot: _Pot, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
                  kind: str = "pot", fault: str | None = None) -> ShotPlan:
        follow, english = 0.0, 0.0
        if self.rng.random() < 0.5:  # play for position
            follow = float(self.rng.uniform(0.2, 0.5) * self.rng.choice([-1.0, 1.0]))
        if pot.cut_rad < math.radians(8.0):
            follow = -abs(follow)  # follow on a straight-in shot would scratch
        if self.rng.random() < 0.2:
            english = float(self.rng.uniform(-0.3, 0.3))
        return self._plan(kind, c, pot.ghost, self._pot_speed(pot), scene, target=pot.target,
                          pocket=pot.pocket, place=place, follow=follow, english=english,
                          fault=fault)

    def _plan(self, kind: str, c: np.ndarray, toward: np.ndarray, speed: float,
              scene: _PoolScene, *, target: int | None = None, pocket: str | None = None,
              place: np.ndarray | None = None, follow: float = 0.0, english: float = 0.0,
              fault: str | None = None) -> ShotPlan:
        return ShotPlan(
            kind=fault or kind,
            striker="cue_ball",
            heading_rad=_heading(c, toward),
            speed_mm_s=float(speed),
            follow=follow,
            english=english,
            target=None if target is None else scene.labels[target],
            target_id=None if target is None else int(scene.ids[target]),
            pocket=pocket,
            place_xy_mm=None if place is None else (float(place[0]), float(place[1])),
            intended_fault=fault,
        )

    # -- honest strokes ------------------------------------------------------------

    def _reachable(self, scene: _PoolScene, kitchen: bool) -> np.ndarray:
        """Legal balls the cue ball may hit directly (from the kitchen: not behind the string)."""
        if not kitchen:
            return scene.legal
        return np.array([i for i in scene.legal if scene.xy[i, 0] >= self.head_x], dtype=int)

    def _honest(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
                kitchen: bool, fault: str | None = None) -> ShotPlan:
        """The stroke a careful player makes: pot, else bank, safety or kick."""
        targets = self._reachable(scene, kitchen)
        pots = self._pots(c, scene, targets)
        play_safe = self.rng.random() < self.settings.safety_rate
        if pots and not play_safe:
            return self._pot_plan(pots[0], scene, c, place, fault=fault)
        if not pots and not play_safe and self.rng.random() < 0.5:
            bank = self._bank(scene, c, targets, place, fault)
            if bank is not None:
                return bank
        safety = self._safety(scene, c, targets, place, fault)
        if safety is not None:
            return safety
        kick = self._kick(scene, c, place, kitchen, fault)
        if kick is not None:
            return kick
        # Nothing is open: hit the nearest legal ball as well as one can.
        t = int(scene.legal[np.argmin(np.linalg.norm(scene.xy[scene.legal] - c, axis=1))])
        return self._plan("safety", c, scene.xy[t], 2500.0, scene, target=t, place=place,
                          fault=fault)

    def _full_hits(self, scene: _PoolScene, c: np.ndarray, targets: Sequence[int]
                   ) -> list[tuple[int, float, float]]:
        """``(ball, cue travel to contact, object travel to a rail)`` for open full hits."""
        r = self.r
        out = []
        for t in targets:
            b = scene.xy[t]
            d = float(np.linalg.norm(b - c))
            if d < 2 * r - 1e-6:
                continue
            if not _clear(c, b, scene.others(t), 2 * r)[0]:
                continue
            rail = _ray_to_box(b, _unit(b - c), self.hx - r, self.hy - r)
            out.append((int(t), d - 2 * r, rail))
        return out

    def _safety(self, scene: _PoolScene, c: np.ndarray, targets: Sequence[int],
                place: np.ndarray | None, fault: str | None) -> ShotPlan | None:
        """A soft full hit that just drives the object ball to a rail."""
        hits = self._full_hits(scene, c, targets)
        if not hits:
            return None
        t, gap, rail = hits[int(self.rng.integers(len(hits)))]
        v0 = _stroke_speed(_hit_speed(rail + 80.0), gap) * float(self.rng.uniform(1.2, 1.5))
        speed = float(np.clip(v0, 500.0, 2200.0))
        return self._plan("safety", c, scene.xy[t], speed, scene, target=t, place=place,
                          follow=-0.2, fault=fault)

    def _kick(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
              kitchen: bool, fault: str | None) -> ShotPlan | None:
        """One cushion first, then a legal ball (mirror aim), the shortest open route."""
        r = self.r
        best: tuple[float, int, np.ndarray] | None = None
        everyone = scene.xy[scene.objects]
        for t in scene.legal:
            b = scene.xy[t]
            for rail in self.rails:
                q = rail.bounce(c, b, r, margin=r, law=POOL_CUSHION)
                if q is None:
                    continue
                if kitchen and q[0] < self.head_x:
                    continue  # from the kitchen the cue ball must cross the string first
                if not (_clear(c, q, everyone, 2 * r)[0]
                        and _clear(q, b - 2 * r * _unit(b - q), scene.others(t), 2 * r)[0]):
                    continue
                length = float(np.linalg.norm(q - c) + np.linalg.norm(b - q))
                if best is None or length < best[0]:
                    best = (length, int(t), q)
        if best is None:
            return None
        length, t, q = best
        speed = float(np.clip(2.0 * _roll_speed(length + 600.0) / 0.8 + 500.0, 1200.0, 4500.0))
        return self._plan("kick", c, q, speed, scene, target=t, place=place, fault=fault)

    def _bank(self, scene: _PoolScene, c: np.ndarray, targets: Sequence[int],
              place: np.ndarray | None, fault: str | None) -> ShotPlan | None:
        """The object ball off one cushion into a pocket (mirror aim), the easiest one."""
        r = self.r
        best: tuple[float, int, str, np.ndarray, float, float, float] | None = None
        for t in targets:
            b = scene.xy[t]
            others = scene.others(t)
            for pocket in self.spec.pockets:
                mouth = (np.asarray(pocket.centre_xy_mm) if pocket.mouth_a_xy_mm is None else
                         (np.asarray(pocket.mouth_a_xy_mm) + np.asarray(pocket.mouth_b_xy_mm)) / 2)
                for rail in self.rails:
                    q = rail.bounce(b, mouth, r, margin=2 * r, law=POOL_CUSHION)
                    if q is None:
                        continue
                    if pocket_aim(q, pocket, r) is None:
                        continue
                    u = _unit(q - b)
                    ghost = b - 2 * r * u
                    if abs(ghost[0]) > self.hx - r or abs(ghost[1]) > self.hy - r:
                        continue
                    v = ghost - c
                    d_cue = float(np.linalg.norm(v))
                    if d_cue < 1e-6:
                        continue
                    cut = math.acos(float(np.clip(v @ u / d_cue, -1, 1)))
                    if cut > math.radians(60.0):
                        continue
                    if not (_clear(c, ghost, others, 2 * r)[0] and _clear(b, q, others, 2 * r)[0]
                            and _clear(q, mouth, others, 2 * r)[0]):
                        continue
                    d_obj = float(np.linalg.norm(q - b) + np.linalg.norm(mouth - q))
                    score = math.cos(cut) ** 2 / ((d_cue + 300.0) * (d_obj + 300.0))
                    if best is None or score > best[0]:
                        best = (score, int(t), pocket.name, ghost, cut, d_cue, d_obj)
        if best is None:
            return None
        _, t, pocket_name, ghost, cut, d_cue, d_obj = best
        pot = _Pot(0.0, t, pocket_name, ghost, ghost, cut, d_cue, d_obj / 0.8)
        return self._plan("bank", c, ghost, self._pot_speed(pot), scene, target=t,
                          pocket=pocket_name, place=place, fault=fault)

    # -- ball in hand ----------------------------------------------------------------

    def _free(self, p: np.ndarray, scene: _PoolScene, kitchen: bool) -> np.ndarray:
        """True per candidate cue-ball spot ``p (M, 2)`` that is legal and overlaps nothing."""
        r = self.r
        p = np.atleast_2d(p)
        ok = (np.abs(p[:, 0]) <= self.hx - r - PLACE_CLEARANCE_MM) & (
            np.abs(p[:, 1]) <= self.hy - r - PLACE_CLEARANCE_MM)
        if kitchen:
            ok &= p[:, 0] < self.head_x - PLACE_CLEARANCE_MM
        balls = scene.xy[scene.objects]
        if len(balls):
            d = np.linalg.norm(p[:, None, :] - balls[None, :, :], axis=-1).min(axis=1)
            ok &= d >= 2 * r + PLACE_CLEARANCE_MM
        return ok

    def _place(self, scene: _PoolScene, kitchen: bool) -> np.ndarray:
        """The cue-ball spot with the easiest pot: a gentle cut, 20-55 cm from the ghost."""
        r = self.r
        targets = self._reachable(scene, kitchen)
        lines = self._lines(scene, targets)
        cands = []
        for ln in lines:
            for phi in (0.12, -0.12, 0.25, -0.25, 0.45, -0.45):
                back = _rot(phi) @ ln.u
                for d in (200.0, 350.0, 550.0):
                    cands.append(ln.ghost - d * back)
        if kitchen:  # from the kitchen the best spots are often far: add a grid of them
            xs = np.linspace(-self.hx + r + 5, self.head_x - 5, 6)
            ys = np.linspace(-self.hy + r + 5, self.hy - r - 5, 7)
            cands += [np.array([x, y]) for x in xs for y in ys]
        if cands and lines:
            pts = np.array(cands)
            pts = pts[self._free(pts, scene, kitchen)]
            if len(pts):
                score = self._scores(pts, lines)[0].max(axis=1)
                k = int(np.argmax(score))
                if score[k] > 0:
                    return pts[k]
        x_hi = self.head_x - 2 if kitchen else self.hx - r - 2
        for _ in range(2000):  # no pot anywhere: any legal spot
            p = np.array([self.rng.uniform(-self.hx + r + 2, x_hi),
                          self.rng.uniform(-self.hy + r + 2, self.hy - r - 2)])
            if self._free(p, scene, kitchen)[0]:
                return p
        raise ValueError("no room to place the cue ball")

    # -- the break -----------------------------------------------------------------

    def _break(self, scene: _PoolScene, game: str, in_hand: bool) -> ShotPlan:
        faults = self._draw_faults(POOL_BREAK_FAULTS)
        fault = faults[0] if faults else None
        foot = np.asarray(self.spec.spots["foot_spot"], float)
        place = None
        if in_hand or scene.cue is None:
            lo, hi = (self.head_x, self.head_x + 35.0) if fault == "foul_kitchen" else (
                self.head_x - 250.0, self.head_x - 60.0)
            # 14.1 opens with a safe break from off-centre; the others from near the middle
            y_lo, y_hi = (0.25, 0.6) if game.startswith("14.1") else (-0.35, 0.35)
            sign = float(self.rng.choice([-1.0, 1.0]))
            for _ in range(200):
                p = np.array([self.rng.uniform(lo, hi),
                              sign * self.rng.uniform(y_lo, y_hi) * self.hy])
                if self._free(p, scene, kitchen=False)[0]:
                    place = p
                    break
            else:
                raise ValueError("no room to place the cue ball for the break")
        c = place if place is not None else scene.xy[scene.cue]  # type: ignore[index]
        apex = int(scene.objects[np.argmin(np.linalg.norm(scene.xy[scene.objects] - foot,
                                                          axis=1))])
        if game.startswith("14.1") and fault != "foul_off_table":
            plan = self._safe_break(scene, c, place, fault)
            if plan is not None:
                return plan
        if fault == "foul_weak_break":
            speed = float(self.rng.uniform(700.0, 1500.0))
        elif fault == "foul_off_table":
            speed = float(self.rng.uniform(10500.0, 11500.0))
        else:
            speed = float(self.rng.uniform(8000.0, 11000.0))
        return self._plan("break", c, scene.xy[apex], speed, scene, target=apex, place=place,
                          follow=float(self.rng.uniform(-0.2, 0.1)), fault=fault)

    def _safe_break(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
                    fault: str | None) -> ShotPlan | None:
        """14.1 opening: clip a back corner ball thinly so two balls and the cue reach rails."""
        r = self.r
        objs = scene.objects
        back = scene.xy[objs, 0].max()
        corners = [int(i) for i in objs if scene.xy[i, 0] > back - r]
        # the back corner on the cue ball's side first
        corners.sort(key=lambda i: -scene.xy[i, 1] * math.copysign(1.0, c[1] or 1.0))
        for t in corners[:1]:
            b = scene.xy[t]
            d = _unit(b - c)
            n = np.array([-d[1], d[0]])
            if n[1] * b[1] < 0:
                n = -n  # the outer side of the rack
            for frac in (0.75, 0.65, 0.85, 0.55):
                # contact from the outside: the cue ball's centre passes frac·2R off b's centre
                ghost = b + n * 2 * r * frac - d * 2 * r * math.sqrt(1 - frac**2)
                if _clear(c, ghost, scene.others(t), 2 * r)[0]:
                    if fault == "foul_weak_break":
                        speed = float(self.rng.uniform(300.0, 700.0))
                    else:
                        speed = float(self.rng.uniform(2500.0, 3500.0))
                    return self._plan("break", c, ghost, speed, scene, target=t, place=place,
                                      fault=fault)
        return None

    # -- deliberate fouls -------------------------------------------------------------

    def _fault(self, fault: str, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
               kitchen: bool) -> ShotPlan | None:
        build: dict[str, Callable[[], ShotPlan | None]] = {
            "foul_wrong_ball": lambda: self._f_wrong_ball(scene, c, place),
            "foul_miss": lambda: self._f_miss(scene, c, place),
            "foul_no_rail": lambda: self._f_no_rail(scene, c, place, kitchen),
            "foul_scratch": lambda: self._f_scratch(scene, c, place, kitchen),
            "foul_off_table": lambda: self._f_off_table(scene, c, place, kitchen),
            "foul_kitchen": lambda: self._f_kitchen(scene),
            "foul_touched": lambda: self._honest(scene, c, place, kitchen, fault="foul_touched"),
            "foul_touch_moving": lambda: self._honest(scene, c, place, kitchen,
                                                      fault="foul_touch_moving"),
        }
        return build[fault]()

    def _f_wrong_ball(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None
                      ) -> ShotPlan | None:
        wrong = [int(i) for i in scene.objects if i not in scene.legal]
        pots = self._pots(c, scene, wrong)
        if pots:
            return self._pot_plan(pots[0], scene, c, place, fault="foul_wrong_ball")
        hits = self._full_hits(scene, c, wrong)
        if not hits:
            return None
        t = hits[int(self.rng.integers(len(hits)))][0]
        return self._plan("pot", c, scene.xy[t], float(self.rng.uniform(1500.0, 2500.0)), scene,
                          target=t, place=place, fault="foul_wrong_ball")

    def _f_miss(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None
                ) -> ShotPlan | None:
        r = self.r
        balls = scene.xy[scene.objects]
        if self.rng.random() < 0.5:  # too soft: stops halfway to the nearest legal ball
            d = np.linalg.norm(scene.xy[scene.legal] - c, axis=1) - 2 * r
            k = int(np.argmin(d))
            if d[k] > 150.0:
                t = int(scene.legal[k])
                return self._plan("pot", c, scene.xy[t], _roll_speed(0.4 * d[k]), scene,
                                  target=t, place=place, fault="foul_miss")
        # aim off: a direction that stays clear of every ball until the cue ball stops
        angles = self.rng.permutation(72) * (2 * math.pi / 72)
        for a in angles:
            d = np.array([math.cos(a), math.sin(a)])
            reach = _ray_to_box(c, d, self.hx - r, self.hy - r)
            if reach < 250.0:
                continue
            stop = c + 0.5 * reach * d
            if _clear(c, stop, balls, 2 * r + 30.0)[0]:
                return self._plan("pot", c, stop, _roll_speed(0.5 * reach), scene, place=place,
                                  fault="foul_miss")
        return None

    def _f_no_rail(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
                   kitchen: bool) -> ShotPlan | None:
        hits = [h for h in self._full_hits(scene, c, self._reachable(scene, kitchen))
                if h[2] >= 200.0]
        if not hits:
            return None
        t, gap, rail = hits[int(self.rng.integers(len(hits)))]
        speed = _stroke_speed(_hit_speed(0.3 * rail), gap)
        return self._plan("safety", c, scene.xy[t], speed, scene, target=t, place=place,
                          fault="foul_no_rail")

    def _f_scratch(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
                   kitchen: bool) -> ShotPlan | None:
        straight = [p for p in self._pots(c, scene, self._reachable(scene, kitchen))
                    if p.cut_rad < math.radians(6.0)]
        if straight:  # heavy follow on a straight-in pot: the cue ball follows it in
            pot = straight[0]
            speed = float(np.clip(self._pot_speed(pot) * 1.6, 2000.0, 6000.0))
            return self._plan("pot", c, pot.ghost, speed, scene, target=pot.target,
                              pocket=pot.pocket, place=place, follow=MAX_TIP_OFFSET,
                              fault="foul_scratch")
        balls = scene.xy[scene.objects]
        best: tuple[float, np.ndarray, str] | None = None
        for pocket in self.spec.pockets:  # the cue ball straight into a pocket
            found = pocket_aim(c, pocket, self.r)
            if found is None or not _clear(c, found[0], balls, 2 * self.r)[0]:
                continue
            d = float(np.linalg.norm(found[0] - c))
            if best is None or d < best[0]:
                best = (d, found[0], pocket.name)
        if best is None:
            return None
        d, aim, name = best
        speed = float(np.clip(2.0 * _roll_speed(d + 200.0) + 400.0, 800.0, 3000.0))
        return self._plan("pot", c, aim, speed, scene, pocket=name, place=place,
                          fault="foul_scratch")

    def _f_off_table(self, scene: _PoolScene, c: np.ndarray, place: np.ndarray | None,
                     kitchen: bool) -> ShotPlan:
        hits = self._full_hits(scene, c, self._reachable(scene, kitchen))
        speed = float(self.rng.uniform(6500.0, 8000.0))
        if hits:
            t = hits[int(self.rng.integers(len(hits)))][0]
            return self._plan("pot", c, scene.xy[t], speed, scene, target=t, place=place,
                              fault="foul_off_table")
        # straight into the nearest cushion
        gaps = {(-1, 0): c[0] + self.hx, (1, 0): self.hx - c[0], (0, -1): c[1] + self.hy,
                (0, 1): self.hy - c[1]}
        d = np.array(min(gaps, key=gaps.__getitem__), float)
        return self._plan("pot", c, c + d, speed, scene, place=place, fault="foul_off_table")

    def _f_kitchen(self, scene: _PoolScene) -> ShotPlan | None:
        """Ball in hand behind the string, but the cue ball is put on or over it."""
        for _ in range(300):
            p = np.array([self.head_x + self.rng.uniform(0.0, 35.0),
                          self.rng.uniform(-self.hy + self.r + 2, self.hy - self.r - 2)])
            if self._free(p, scene, kitchen=False)[0]:
                return self._honest(scene, p, p, kitchen=False, fault="foul_kitchen")
        return None


# ------------------------------------------------------------------------ novuss


@dataclass(frozen=True, slots=True)
class _NovussScene:
    labels: tuple[str, ...]
    ids: np.ndarray
    xy: np.ndarray  # in the shooter's own frame
    pawns: np.ndarray
    own: np.ndarray
    light: np.ndarray
    dark: np.ndarray
    opponent: np.ndarray
    targets: np.ndarray  # light pawns outside the own edge zone: what a direct shot may hit
    pockets: tuple[tuple[str, np.ndarray], ...]  # name, centre in the own frame

    def others(self, *exclude: int) -> np.ndarray:
        keep = [i for i in self.pawns if i not in exclude]
        return self.xy[keep].reshape(-1, 2)


@dataclass(frozen=True, slots=True)
class _Aim:
    score: float
    place: np.ndarray
    toward: np.ndarray  # where the puck centre is sent first (ghost or bounce point)
    target: int | None
    pocket: str | None
    length_mm: float
    cut_rad: float = 0.0
    d_obj_mm: float = 0.0  # the pawn's way to the pocket


class NovussBot(_Bot):
    """A Novuss player, singles or doubles (see the module docstring).

    The bot works in the shooter's own frame (he stands at y = -L/2 and looks toward +y)
    and turns the plan back into the table frame at the end.
    """

    striker = "puck"

    def __init__(
        self,
        spec: TableSpec,
        settings: BotSettings | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        if spec.family is not Family.NOVUSS:
            raise ValueError(f"NovussBot needs the Novuss table, got {spec.name!r}")
        super().__init__(spec, settings or BotSettings(), rng or np.random.default_rng())
        self.R = spec.objects["puck"].radius_mm
        self.r = spec.objects["pawn"].radius_mm
        self.h = spec.half_wh_mm[0]
        self.y_max, self.y_min, self.x_max = _puck_zone(spec)
        zone = spec.line("zone_a")
        circle = spec.line("circle")
        pawn_hole = spec.objects["pawn"].hole_radius_mm
        self.dark_y = zone.a_xy_mm[1] - zone.width_mm / 2 - pawn_hole
        self.dark_r = circle.radius_mm - circle.width_mm / 2 - pawn_hole
        self.circle_r = circle.radius_mm
        self.zone_y = zone.a_xy_mm[1]
        xs = np.linspace(-self.x_max + 0.3, self.x_max - 0.3, 49)
        ys = np.array([self.y_max - 0.3, -400.0, -430.0, -460.0, self.y_min + 0.3])
        self.grid = np.array([[x, y] for y in ys for x in xs])

    # -- the decision ------------------------------------------------------------

    def choose(
        self,
        labels: Sequence[str],
        ids: Sequence[int],
        xy_mm: np.ndarray,
        *,
        side: str,
        own_labels: frozenset[str],
        is_break: bool = False,
    ) -> ShotPlan:
        """The next stroke of the player standing at rail ``side`` who plays ``own_labels``.

        A ``puck`` in ``labels`` is ignored: the bot places it anew.
        """
        labels = tuple(labels)
        xy = np.asarray(xy_mm, float).reshape(-1, 2)
        if len(labels) != len(xy) or len(ids) != len(xy):
            raise ValueError("labels, ids and xy_mm must have the same length")
        local = _to_local(xy, side)
        pawns = np.array([i for i, lb in enumerate(labels) if lb != "puck"], dtype=int)
        own = np.array([i for i in pawns if labels[i] in own_labels], dtype=int)
        is_dark = (local[own, 1] < self.dark_y) | (
            np.linalg.norm(local[own], axis=1) < self.dark_r) if len(own) else np.zeros(0, bool)
        light = own[~is_dark]
        scene = _NovussScene(
            labels, np.asarray(ids, int), local, pawns, own, light, own[is_dark],
            np.array([i for i in pawns if labels[i] not in own_labels], dtype=int),
            light[local[light, 1] >= self.zone_y],
            tuple((pk.name, _to_local(np.asarray(pk.centre_xy_mm), side)[0])
                  for pk in self.spec.pockets),
        )
        for fault in self._draw_faults(NOVUSS_FAULTS):
            plan = self._fault(fault, scene, side)
            if plan is not None:
                return self._noisy(plan)
        return self._noisy(self._honest(scene, side, self._free(self.grid, scene), is_break))

    # -- placement -------------------------------------------------------------------

    def _free(self, places: np.ndarray, scene: _NovussScene) -> np.ndarray:
        """The placements among ``places (M, 2)`` that touch no pawn."""
        places = np.atleast_2d(places)
        if len(scene.pawns) == 0:
            return places
        d = np.linalg.norm(places[:, None, :] - scene.xy[scene.pawns][None], axis=-1).min(1)
        return places[d >= self.R + self.r + PLACE_CLEARANCE_MM]

    # -- aiming ------------------------------------------------------------------------

    def _direct(self, places: np.ndarray, scene: _NovussScene, targets: Sequence[int],
                pots: bool = True) -> _Aim | None:
        """The best direct shot at one of ``targets``: a pot if ``pots`` and one is open,
        else a full hit."""
        R, r = self.R, self.r
        best: _Aim | None = None
        max_cut = math.radians(NOVUSS_MAX_CUT_DEG)
        lim = self.h - R
        for t in targets:
            p = scene.xy[t]
            others = scene.others(t)
            for pocket_name, centre in scene.pockets if pots else ():
                u = _unit(centre - p)
                ghost = p - (R + r) * u
                if np.any(np.abs(ghost) > lim) or not _clear(p, centre, others, 2 * r)[0]:
                    continue
                cand = places
                if u[1] > 0.05:  # straight-in spots: back along the line into the zone
                    s = (ghost[1] - np.array([-400.0, -430.0, -460.0])) / u[1]
                    line = ghost - s[:, None] * u
                    line = line[np.abs(line[:, 0]) <= self.x_max - 0.3]
                    cand = np.vstack([places, self._free(line, scene)]) if len(line) else places
                if len(cand) == 0:
                    continue
                v = ghost - cand
                d1 = np.linalg.norm(v, axis=1)
                cut = np.arccos(np.clip((v @ u) / np.maximum(d1, 1e-9), -1, 1))
                ghosts = np.broadcast_to(ghost, cand.shape)
                ok = (cut <= max_cut) & _clear(cand, ghosts, others, R + r)
                ok &= self._past_holes(cand, ghosts, scene)
                if not ok.any():
                    continue
                d2 = float(np.linalg.norm(centre - p))
                score = np.where(ok, np.cos(cut) ** 2 / ((d1 + 200.0) * (d2 + 200.0)), -1.0)
                k = int(np.argmax(score))
                if best is None or score[k] > best.score:
                    best = _Aim(float(score[k]), cand[k], ghost, int(t), pocket_name,
                                float(d1[k] + d2), float(cut[k]), d2)
            if best is None or best.pocket is None:  # a plain full hit
                if len(places) == 0:
                    continue
                aims = p - (R + r) * _unit(p - places)  # the puck centre at contact
                ok = _clear(places, aims, others, R + r) & self._past_holes(places, aims, scene)
                if not ok.any():
                    continue
                d1 = np.linalg.norm(p - places, axis=1)
                score = np.where(ok, 1e-3 / (d1 + 200.0) ** 2, -1.0)
                k = int(np.argmax(score))
                if best is None or score[k] > best.score:
                    best = _Aim(float(score[k]), places[k], p, int(t), None, float(d1[k]))
        return best

    def _mirror(self, places: np.ndarray, scene: _NovussScene, targets: Sequence[int],
                rail: str) -> _Aim | None:
        """Off ``rail`` ("far", "left", "right") first, then a full hit on a target."""
        R, r = self.R, self.r
        normal = {"far": (0.0, -1.0), "left": (1.0, 0.0), "right": (-1.0, 0.0)}[rail]
        n = np.array(normal)
        tangent = np.array([-n[1], n[0]])
        line = -n * (self.h - R)  # the centre of the rail's bounce line
        along = np.linspace(-(self.h - R), self.h - R, 241)
        pts = line + along[:, None] * tangent  # (K, 2)
        best: _Aim | None = None
        everyone = scene.xy[scene.pawns]
        if len(places) == 0:
            return None
        d_in = _unit(pts[None, :, :] - places[:, None, :])  # (M, K, 2)
        ok_in = d_in @ n < -0.05
        out = NOVUSS_RAIL.rebound(d_in.reshape(-1, 2), n).reshape(d_in.shape)
        for t in targets:
            p = scene.xy[t]
            w = p - pts  # (K, 2)
            miss = out[..., 0] * w[None, :, 1] - out[..., 1] * w[None, :, 0]  # (M, K)
            ahead = (np.einsum("mkd,kd->mk", out, w) > 0) & ok_in
            flip = (np.sign(miss[:, :-1]) != np.sign(miss[:, 1:])) & ahead[:, :-1] & ahead[:, 1:]
            has = flip.any(axis=1)
            k = np.argmax(flip, axis=1)
            rows = np.arange(len(places))
            m0, m1 = miss[rows, k], miss[rows, k + 1]
            f = np.where(has, m0 / np.where(m0 == m1, 1.0, m0 - m1), 0.0)
            q = pts[k] + f[:, None] * (pts[k + 1] - pts[k])
            ok = has.copy()
            ok &= _clear(places, q, everyone, R + r)
            stop = p - (R + r) * _unit(p - q)
            ok &= _clear(q, stop, scene.others(t), R + r)
            ok &= self._past_holes(places, q, scene) & self._past_holes(q, stop, scene)
            if not ok.any():
                continue
            length = np.linalg.norm(q - places, axis=1) + np.linalg.norm(p - q, axis=1)
            score = np.where(ok, 1.0 / (length + 200.0), -1.0)
            k = int(np.argmax(score))
            if best is None or score[k] > best.score:
                best = _Aim(float(score[k]), places[k], q[k], int(t), None, float(length[k]))
        return best

    # -- honest strokes ------------------------------------------------------------------

    def _past_holes(self, a: np.ndarray, b: np.ndarray, scene: _NovussScene,
                    skip: str | None = None) -> np.ndarray:
        """True per puck path ``a (M, 2)`` -> ``b (M, 2)`` that passes no pocket hole."""
        holes = np.array([c for name, c in scene.pockets if name != skip]).reshape(-1, 2)
        room = max(p.capture_radius_mm for p in self.spec.pockets) + PLACE_CLEARANCE_MM
        return _clear(a, b, holes, room)

    def _honest(self, scene: _NovussScene, side: str, places: np.ndarray, is_break: bool,
                fault: str | None = None) -> ShotPlan:
        in_circle = [int(i) for i in scene.own
                     if np.linalg.norm(scene.xy[i]) < self.circle_r]
        steps: list[tuple[str, Callable[[], _Aim | None]]] = []
        if len(scene.light):
            steps.append(("direct", lambda: self._direct(places, scene, scene.targets)))
            steps.append(("side_rail", lambda: self._best(
                self._mirror(places, scene, in_circle, "left"),
                self._mirror(places, scene, in_circle, "right"))))
        steps.append(("rebound", lambda: self._mirror(places, scene, scene.own, "far")))
        for kind, find in steps:
            aim = find() if len(places) else None
            if aim is not None:
                if is_break and kind == "direct":
                    speed = float(self.rng.uniform(3500.0, 5000.0))
                    kind = "break"
                elif aim.pocket is not None:
                    speed = self._pot_speed(aim)
                else:
                    speed = self._speed(aim.length_mm)
                return self._plan(kind, aim, speed, scene, side, fault)
        # nothing is open: a plain rebound off the far rail from the freest spot
        place = places[len(places) // 2] if len(places) else np.array([0.0, -430.0])
        aim = _Aim(0.0, place, place + np.array([0.0, 100.0]), None, None, 1000.0)
        return self._plan("rebound", aim, self._speed(2 * (self.h - place[1])), scene, side,
                          fault)

    @staticmethod
    def _best(*aims: _Aim | None) -> _Aim | None:
        found = [a for a in aims if a is not None]
        return max(found, key=lambda a: a.score) if found else None

    def _pot_speed(self, aim: _Aim) -> float:
        """Enough for the pawn to drop with a little to spare, so the puck stays out."""
        decel = NOVUSS_FRICTION * G_MM_S2
        v_pawn = math.sqrt(2 * decel * (aim.d_obj_mm + 40.0))
        v_contact = v_pawn / (NOVUSS_TRANSFER * max(math.cos(aim.cut_rad), 0.3))
        v0 = math.sqrt(v_contact**2 + 2 * decel * (aim.length_mm - aim.d_obj_mm))
        if self.rng.random() < 0.1:  # now and then a hard hit all the same
            return float(self.rng.uniform(3500.0, 5000.0))
        return float(np.clip(v0 * self.rng.uniform(1.15, 1.5), 1000.0, 5000.0))

    def _speed(self, length_mm: float) -> float:
        """1-5 m/s from the distance, with an occasional hard hit."""
        if self.rng.random() < 0.15:
            return float(self.rng.uniform(4000.0, 5000.0))
        return float(np.clip(1000.0 + 1.6 * length_mm * self.rng.uniform(0.8, 1.3),
                             1000.0, 4500.0))

    def _plan(self, kind: str, aim: _Aim, speed: float, scene: _NovussScene, side: str,
              fault: str | None = None) -> ShotPlan:
        place = _to_table(aim.place, side)[0]
        heading = _heading(aim.place, aim.toward) + _side_angle(side)
        return ShotPlan(
            kind=fault or kind,
            striker="puck",
            heading_rad=math.atan2(math.sin(heading), math.cos(heading)),
            speed_mm_s=float(speed),
            target=None if aim.target is None else scene.labels[aim.target],
            target_id=None if aim.target is None else int(scene.ids[aim.target]),
            pocket=aim.pocket,
            place_xy_mm=(float(place[0]), float(place[1])),
            intended_fault=fault,
        )

    # -- deliberate fouls ------------------------------------------------------------------

    def _fault(self, fault: str, scene: _NovussScene, side: str) -> ShotPlan | None:
        places = self._free(self.grid, scene)
        if fault in ("foul_opponent_pawn", "foul_dark_pawn"):
            targets = scene.opponent if fault == "foul_opponent_pawn" else scene.dark
            aim = self._direct(places, scene, targets, pots=fault == "foul_opponent_pawn")
            if aim is None:
                return None
            return self._plan("direct", aim, self._speed(aim.length_mm), scene, side, fault)
        if fault in ("foul_rebound_opponent", "foul_side_rail_miss"):
            # Off the far rail onto an opponent pawn while own light pawns stand (17.1.в),
            # or off a side rail onto anything but an own pawn in the circle (17.1.и).
            if fault == "foul_rebound_opponent":
                if not len(scene.light):
                    return None
                aim = self._mirror(places, scene, scene.opponent, "far")
            else:
                wrong = [int(i) for i in scene.pawns
                         if i not in scene.own or np.linalg.norm(scene.xy[i]) >= self.circle_r]
                aim = self._best(self._mirror(places, scene, wrong, "left"),
                                 self._mirror(places, scene, wrong, "right"))
            if aim is None:
                return None
            kind = "rebound" if fault == "foul_rebound_opponent" else "side_rail"
            return self._plan(kind, aim, self._speed(aim.length_mm), scene, side, fault)
        if fault == "foul_puck_pocketed":
            return self._f_puck_pocketed(scene, side, places)
        if fault == "foul_touch_moving":  # an honest stroke; the simulator scripts the hand
            return self._honest(scene, side, places, False, fault)
        if fault == "foul_too_hard":
            plan = self._honest(scene, side, places, False, fault)
            return replace(plan, speed_mm_s=float(self.rng.uniform(6500.0, 8500.0)))
        if fault == "foul_placement_touch":
            spot = self._touching_spot(scene)
        else:
            spot = self._line_spot(scene)
        if spot is None:
            return None
        return self._honest(scene, side, spot[None, :], False, fault)

    def _f_puck_pocketed(self, scene: _NovussScene, side: str, places: np.ndarray
                         ) -> ShotPlan | None:
        everyone = scene.xy[scene.pawns]
        best: _Aim | None = None
        for name, centre in scene.pockets:
            if len(places) == 0:
                continue
            aims = np.broadcast_to(centre, places.shape)
            ok = _clear(places, aims, everyone, self.R + self.r)
            ok &= self._past_holes(places, aims, scene, skip=name)
            d = np.linalg.norm(centre - places, axis=1)
            score = np.where(ok, 1.0 / (d + 100.0), -1.0)
            k = int(np.argmax(score))
            if score[k] > 0 and (best is None or score[k] > best.score):
                best = _Aim(float(score[k]), places[k], centre, None, name, float(d[k]))
        if best is None:
            return None
        speed = float(np.clip(800.0 + 1.2 * best.length_mm, 800.0, 2500.0))
        return self._plan("direct", best, speed, scene, side, "foul_puck_pocketed")

    def _touching_spot(self, scene: _NovussScene) -> np.ndarray | None:
        """A legal-zone spot where the puck touches a pawn (and overlaps none)."""
        d = self.R + self.r
        angles = np.linspace(0, 2 * math.pi, 36, endpoint=False)
        ring = np.stack([np.cos(angles), np.sin(angles)], axis=1) * d
        spots = []
        for i in scene.pawns:
            p = scene.xy[i]
            if p[1] - d > self.y_max or abs(p[0]) - d > self.x_max:
                continue
            c = p + ring
            c = c[(c[:, 1] <= self.y_max) & (c[:, 1] >= self.y_min)
                  & (np.abs(c[:, 0]) <= self.x_max)]
            others = scene.others(int(i))
            if len(others) and len(c):
                c = c[np.linalg.norm(c[:, None] - others[None], axis=-1).min(1) >= d]
            spots += list(c)
        if not spots:
            return None
        return np.asarray(spots[int(self.rng.integers(len(spots)))])

    def _line_spot(self, scene: _NovussScene) -> np.ndarray | None:
        """A spot where a zone line shows through the puck's hole (and no pawn is touched)."""
        show = self.spec.line("zone_a").width_mm / 2 + self.spec.objects["puck"].hole_radius_mm
        for _ in range(200):
            if self.rng.random() < 0.6:  # the zone line in front
                c = np.array([self.rng.uniform(-self.x_max, self.x_max),
                              self.zone_y + self.rng.uniform(-0.9, 0.9) * show])
            else:  # a side line
                c = np.array([math.copysign(-self.zone_y, self.rng.uniform(-1, 1))
                              + self.rng.uniform(-0.9, 0.9) * show,
                              self.rng.uniform(self.y_min, self.y_max)])
            if len(self._free(c, scene)):
                return c
        return None
