"""The director: plays a match with bots, physics and a referee, and scripts what people do.

A clip is a timeline of segments. Each segment says where every object is at any instant
and what occludes the table: a ``Hold`` (nothing moves), a ``Carry`` (a hand lifts objects
to new places: set-up, ball in hand, puck placement, spotting, a nudged ball) or a
``Motion`` (a shot, solved exactly by ``simulation.physics``). The ground truth, every event
and the referee's calls on it, is known before a single frame is drawn; the renderer then
samples the timeline frame by frame.

Scripted non-physics happenings live here, because referees call them: a ball or pawn
flying over the rail, an object moved by hand between shots, ball in hand, re-racks and
spotting, penalty pawns, the set-up sequence, a body leaning over the table, a camera bump.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind, ObjectRef
from adjudication.games import Game
from adjudication.rules import Judgement, MatchState, Order, engine_for
from adjudication.rules.novuss import pawn_label
from adjudication.shot import Layout, Shot
from calibration.tables import Family, TableSpec, get_table
from simulation import physics
from simulation.bots import BotSettings, NovussBot, PoolBot, ShotPlan
from simulation.camera import CameraModel, CameraSetup, overhead_camera
from simulation.racks import cue_ball_in_kitchen, pool_rack
from simulation.render import Occluder

log = logging.getLogger(__name__)

# Object status: the physics' own codes, plus REMOVED for objects off the scene.
ON_TABLE, POCKETED, OFF_TABLE = physics.ON_TABLE, physics.POCKETED, physics.OFF_TABLE
REMOVED = 3
HARD_CASES = ("split_hit", "cluster_break", "hand_over_table", "camera_bump", "ball_in_pocket",
              "mid_set")
PLAYERS = {1: ("Alice", "Bob"), 2: ("Anna", "Peteris", "Liene", "Janis")}


@dataclass(frozen=True, slots=True)
class ClipSettings:
    """What to simulate. ``shots`` counts strokes; the clip ends after them or at match end.

    ``realism`` scales every imperfection of the look (noise, flicker, colour shifts,
    graphics, camera tilt and lens): 0 gives a clean render for exact tests.
    """

    game: Game
    seed: int = 0
    shots: int = 4
    table: str | None = None
    fps: float = 30.0
    resolution_wh: tuple[int, int] = (1280, 720)
    realism: float = 1.0
    case: str | None = None
    players: tuple[str, ...] | None = None
    bot: BotSettings = field(default_factory=BotSettings)
    exposure_samples: int = 3

    def __post_init__(self) -> None:
        if not 1 <= self.shots <= 200:
            raise ValueError(f"shots must be between 1 and 200, got {self.shots}")
        if not 10.0 <= self.fps <= 120.0:
            raise ValueError(f"fps must be between 10 and 120, got {self.fps}")
        w, h = self.resolution_wh
        if not (160 <= w <= 3840 and 120 <= h <= 2160):
            raise ValueError(f"resolution {w}x{h} is outside 160x120 .. 3840x2160")
        if not 0.0 <= self.realism <= 1.0:
            raise ValueError(f"realism must be in [0, 1], got {self.realism}")
        if self.case is not None and self.case not in HARD_CASES:
            raise ValueError(f"unknown case {self.case!r}; choose one of {', '.join(HARD_CASES)}")
        if self.table is not None:
            spec = get_table(self.table)
            if (spec.family is Family.NOVUSS) != self.game.is_novuss:
                raise ValueError(f"game {self.game.value} cannot be played on table {self.table}")
        if self.case in ("split_hit", "cluster_break", "ball_in_pocket") and self.game.is_novuss:
            raise ValueError(f"case {self.case} is a pool case; use a pool game")
        if self.case == "mid_set" and not self.game.is_novuss:
            raise ValueError("case mid_set is a Novuss case; use novuss or novuss-doubles")
        if self.players is not None and len(self.players) != 2 * self.game.players_per_side:
            raise ValueError(f"{self.game.value} needs {2 * self.game.players_per_side} players")

    @property
    def table_name(self) -> str:
        return self.table or self.game.default_table

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.players or PLAYERS[self.game.players_per_side]


# ------------------------------------------------------------------------ segments


@dataclass(frozen=True, slots=True)
class Pose:
    """Where every object is at one instant (all N objects of the clip)."""

    xy_mm: np.ndarray  # (N, 2)
    z_mm: np.ndarray  # (N,)
    status: np.ndarray  # (N,) ON_TABLE, POCKETED, OFF_TABLE, REMOVED

    @property
    def visible(self) -> np.ndarray:
        return self.status != REMOVED

    def with_(self, index: int, xy: Sequence[float] | None = None, z: float | None = None,
              status: int | None = None) -> Pose:
        xy_mm, z_mm, st = self.xy_mm.copy(), self.z_mm.copy(), self.status.copy()
        if xy is not None:
            xy_mm[index] = xy
        if z is not None:
            z_mm[index] = z
        if status is not None:
            st[index] = status
        return Pose(xy_mm, z_mm, st)


OccluderFn = Callable[[float], tuple[Occluder, ...]]


def _no_occluders(_t: float) -> tuple[Occluder, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class Segment:
    """A span of the timeline; ``at(t)`` gives positions, ``occluders(t)`` what covers them."""

    t0_s: float
    t1_s: float
    start: Pose
    end: Pose
    occluders: OccluderFn = _no_occluders
    motion: physics.ShotResult | None = None
    moving: tuple[int, ...] = ()  # indices carried in a Carry
    physics_index: np.ndarray | None = None  # object index of each physics body

    def at(self, t_s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positions ``(T, N, 2)`` and elevations ``(T, N)`` at times ``t_s`` (T,)."""
        t = np.clip(np.asarray(t_s, dtype=float), self.t0_s, self.t1_s)
        T = len(t)
        xy = np.repeat(self.start.xy_mm[None], T, axis=0)
        z = np.repeat(self.start.z_mm[None], T, axis=0)
        if self.motion is not None and self.physics_index is not None:
            tt = np.minimum(t, self.motion.t_end_s)
            xy[:, self.physics_index] = self.motion.xy_at(tt)
            z[:, self.physics_index] = self.motion.z_at(tt)
        elif self.moving:
            span = max(self.t1_s - self.t0_s, 1e-9)
            s = _ease((t - self.t0_s) / span)[:, None]
            idx = list(self.moving)
            a, b = self.start.xy_mm[idx], self.end.xy_mm[idx]
            xy[:, idx] = a[None] + s[..., None] * (b - a)[None]
            lift = 25.0 * np.sin(np.pi * s)  # carried objects are lifted off the surface
            z[:, idx] = self.start.z_mm[idx][None] * (1 - s) + self.end.z_mm[idx][None] * s + lift
        return xy, z

    def status_at(self, t_s: float) -> np.ndarray:
        if self.motion is not None and self.physics_index is not None:
            st = self.start.status.copy()
            st[self.physics_index] = self.motion.status_at(
                np.array([min(t_s, self.motion.t_end_s)]))[0]
            return st
        if self.moving and t_s >= self.t1_s:
            return self.end.status
        status = self.start.status.copy()
        if self.moving:  # an object carried onto the table is shown while it is carried
            idx = list(self.moving)
            status[idx] = np.where(self.end.status[idx] == ON_TABLE, ON_TABLE, status[idx])
        return status


def _ease(s: np.ndarray) -> np.ndarray:
    s = np.clip(s, 0.0, 1.0)
    return s * s * (3 - 2 * s)


# ----------------------------------------------------------------------- the clip


@dataclass(frozen=True, slots=True)
class ShotRecord:
    number: int
    player: str
    plan: dict[str, Any]
    shot: Shot
    declaration: Declaration
    judgement: Judgement


@dataclass(frozen=True, slots=True)
class Script:
    """The whole clip before rendering: timeline, cameras, events and calls."""

    settings: ClipSettings
    spec: TableSpec
    ids: np.ndarray
    labels: tuple[str, ...]
    segments: tuple[Segment, ...]
    cameras: tuple[CameraModel, ...]
    camera_switch_s: tuple[float, ...]  # camera k is in use from camera_switch_s[k]
    events: tuple[Event, ...]
    shots: tuple[ShotRecord, ...]
    states: tuple[MatchState, ...]
    duration_s: float

    @property
    def n_frames(self) -> int:
        return int(math.floor(self.duration_s * self.settings.fps))

    def camera_index(self, t_s: float) -> int:
        return int(np.searchsorted(np.asarray(self.camera_switch_s), t_s, side="right") - 1)

    def segment_at(self, t_s: float) -> Segment:
        starts = np.array([s.t0_s for s in self.segments])
        k = int(np.searchsorted(starts, t_s, side="right") - 1)
        return self.segments[max(k, 0)]

    def frame_times(self) -> np.ndarray:
        return np.arange(self.n_frames) / self.settings.fps


class Director:
    """Builds a ``Script``: bots choose, physics moves, the referee judges, hands act."""

    def __init__(self, settings: ClipSettings) -> None:
        self.settings = settings
        self.spec = get_table(settings.table_name)
        self.rng = np.random.default_rng(settings.seed)
        self.game = settings.game
        self.players = settings.player_names
        self.engine = engine_for(self.game, self.spec)
        self.phys = physics.physics_for(self.spec)
        bot_rng = np.random.default_rng([settings.seed, 1])
        if self.spec.family is Family.NOVUSS:
            self.bot: PoolBot | NovussBot = NovussBot(self.spec, settings.bot, bot_rng)
        else:
            self.bot = PoolBot(self.spec, settings.bot, bot_rng)
        self.t = 0.0
        self.segments: list[Segment] = []
        self.events: list[Event] = []
        self.pending_between: list[Event] = []
        self.records: list[ShotRecord] = []
        self.states: list[MatchState] = []
        self._init_objects()

    # -- objects -------------------------------------------------------------

    def _init_objects(self) -> None:
        if self.spec.family is Family.NOVUSS:
            # Who sits where is the rules engine's business (doubles seating, colours).
            rows = self.engine.setup_order(self.engine.start(self.players))  # type: ignore[attr-defined]
            labels, xy = rows.labels, np.asarray(rows.xy_mm, dtype=float)
            labels = ("puck", *labels)
            # The puck waits off the board, beside the first shooter's rail.
            xy = np.vstack([[0.0, -self.spec.half_wh_mm[1] - 120.0], np.asarray(xy)])
        else:
            rack_labels, rack_xy = pool_rack(self.game.value, self.spec, self.rng)
            labels = ("cue_ball", *rack_labels)
            xy = np.vstack([[-self.spec.half_wh_mm[0] - 200.0, 0.0], np.asarray(rack_xy)])
        self.labels: tuple[str, ...] = tuple(labels)
        self.ids = np.arange(1, len(self.labels) + 1)
        n = len(self.labels)
        # Everything starts off the table (REMOVED) and is placed in the set-up sequence.
        self.pose = Pose(np.asarray(xy, dtype=float), np.zeros(n), np.full(n, REMOVED, np.int8))
        self.home_xy = self.pose.xy_mm.copy()

    def ref(self, i: int) -> ObjectRef:
        return ObjectRef(int(self.ids[i]), self.labels[i])

    def layout(self, pose: Pose | None = None) -> Layout:
        pose = pose or self.pose
        on = pose.status == ON_TABLE
        return Layout(self.ids[on], tuple(lb for lb, o in zip(self.labels, on, strict=True) if o),
                      pose.xy_mm[on].copy())

    def frame_of(self, t_s: float) -> int:
        return int(round(t_s * self.settings.fps))

    # -- timeline ------------------------------------------------------------

    def hold(self, duration_s: float, occluders: OccluderFn = _no_occluders) -> None:
        self.segments.append(Segment(self.t, self.t + duration_s, self.pose, self.pose, occluders))
        self.t += duration_s

    def carry(self, moves: dict[int, tuple[float, float]], duration_s: float, *,
              kind: EventKind = EventKind.PLACED, shot: int = 0, status: int = ON_TABLE,
              from_xy: dict[int, tuple[float, float]] | None = None) -> None:
        """A hand carries objects to new places; one ``placed``/``moved`` event each."""
        start = self.pose
        for i, xy in (from_xy or {}).items():
            start = start.with_(i, xy=xy, z=0.0)
        end = start
        for i, xy in moves.items():
            end = end.with_(i, xy=xy, z=0.0, status=status)
        idx = tuple(moves)
        t0 = self.t
        heading = {i: self._reach_heading(end.xy_mm[i]) for i in idx}

        def hands(t: float, idx=idx, t0=t0, start=start, end=end) -> tuple[Occluder, ...]:
            s = float(_ease(np.array([(t - t0) / duration_s]))[0])
            out = []
            for i in idx[:2]:
                xy = start.xy_mm[i] * (1 - s) + end.xy_mm[i] * s
                out.append(Occluder("hand", (float(xy[0]), float(xy[1])), heading[i], z_mm=70.0))
            return tuple(out)

        self.segments.append(Segment(t0, t0 + duration_s, start, end, hands, moving=idx))
        self.t += duration_s
        self.pose = end
        for i in idx:
            ev = Event(kind, self.t, self.frame_of(self.t), shot, (self.ref(i),),
                       (float(end.xy_mm[i, 0]), float(end.xy_mm[i, 1])))
            self.events.append(ev)
            self.pending_between.append(ev)

    def _reach_heading(self, xy: np.ndarray) -> float:
        """Direction from the nearest rail toward ``xy``: the way a player's arm points."""
        hx, hy = self.spec.half_wh_mm
        gaps = {(-1, 0): xy[0] + hx, (1, 0): hx - xy[0], (0, -1): xy[1] + hy, (0, 1): hy - xy[1]}
        (dx, dy) = min(gaps, key=gaps.__getitem__)
        return math.atan2(-dy, -dx)

    # -- set-up --------------------------------------------------------------

    def setup_sequence(self) -> None:
        """Objects are put on the table by hand, a few at a time (a set-up or a rack)."""
        mid_rack = self.settings.case in ("split_hit", "ball_in_pocket")
        order = [i for i in range(len(self.labels))
                 if self.pose.status[i] == REMOVED
                 and (self.labels[i] not in ("cue_ball", "puck") or mid_rack)]
        self.hold(0.4)
        for k in range(0, len(order), 4):
            chunk = order[k:k + 4]
            start = {i: self._rail_point(self.home_xy[i]) for i in chunk}
            self.carry({i: tuple(self.home_xy[i]) for i in chunk}, 0.35, from_xy=start, shot=1)
        self.hold(0.3)

    def _rail_point(self, xy: np.ndarray) -> tuple[float, float]:
        hx, hy = self.spec.half_wh_mm
        r = self.spec.rail_width_mm
        if abs(xy[0]) / hx > abs(xy[1]) / hy:
            return (float(np.sign(xy[0]) * (hx + r)), float(xy[1]))
        return (float(xy[0]), float(np.sign(xy[1]) * (hy + r)))

    # -- shots ---------------------------------------------------------------

    def run(self) -> Script:
        s = self.settings
        state = self.engine.start(self.players)
        self.scripted: dict[int, ShotPlan] = {}
        if s.case in ("split_hit", "ball_in_pocket"):
            state = self._mid_rack(s.case, state)
        elif s.case == "mid_set":
            state = self._mid_set(state)
        self.states.append(state)
        self.setup_sequence()
        for number in range(1, s.shots + 1):
            state = self.play_shot(number, state)
            self.states.append(state)
            if _match_over(self.records[-1].judgement):
                break
        self.hold(0.8)
        cameras, switches = self._cameras()
        return Script(
            settings=s, spec=self.spec, ids=self.ids, labels=self.labels,
            segments=tuple(self.segments), cameras=cameras, camera_switch_s=switches,
            events=tuple(sorted(self.events, key=lambda e: e.t_s)), shots=tuple(self.records),
            states=tuple(self.states), duration_s=self.t,
        )

    def play_shot(self, number: int, state: MatchState) -> MatchState:
        striker_label = "puck" if self.spec.family is Family.NOVUSS else "cue_ball"
        si = self.labels.index(striker_label)
        plan = self._choose(number, state)

        # 1. The striker is put in place: ball in hand, the break, or the Novuss puck.
        needs_place = (
            plan.place_xy_mm is not None
            or self.pose.status[si] != ON_TABLE
        )
        if needs_place:
            xy = plan.place_xy_mm or self._kitchen_spot()
            from_xy = None
            if self.pose.status[si] != ON_TABLE:
                from_xy = {si: self._rail_point(np.asarray(xy))}
            self.carry({si: (float(xy[0]), float(xy[1]))}, 0.6, shot=number, from_xy=from_xy)
        if plan.intended_fault == "foul_touched":
            self._nudge(number, exclude=si)
        if plan.intended_fault == "foul_placement_touch":
            self._bump_on_placement(number, si)

        # 2. The player aims: cue behind the striker, bridge hand, maybe a body leaning over.
        aim_s = float(self.rng.uniform(0.5, 1.0))
        cue_xy = self.pose.xy_mm[si].copy()
        radius = self.spec.object_for(striker_label).radius_mm
        self.hold(aim_s, self._cue_occluders(cue_xy, plan.heading_rad, radius, self.t, aim_s))

        # 3. The stroke: exact physics from here.
        t_shot = self.t
        before_pose = self.pose
        result, phys_index = self._simulate(plan, si)
        lean = self._lean_occluder() if self._leans(number) else None
        follow = self._cue_follow(cue_xy, plan.heading_rad, radius, t_shot, lean)
        shot_events = self._shot_events(number, result, phys_index, t_shot)
        touch = None
        if plan.intended_fault == "foul_touch_moving":
            touch = self._touch_moving(result, phys_index, si)
        if touch is None:
            self._add_motion(result, phys_index, result.t_end_s, follow)
        else:
            # A hand stops a moving object (WPA 6.6, Novuss 17.1.н / 16.1.м): the physics
            # runs up to the touch, then again from there with that object at rest.
            t_touch, i = touch
            self._add_motion(result, phys_index, t_touch, follow)
            moved = Event(EventKind.MOVED, t_touch, self.frame_of(t_touch), number,
                          (self.ref(i),), (float(self.pose.xy_mm[i, 0]),
                                           float(self.pose.xy_mm[i, 1])))
            v = np.zeros((len(self.labels), 2))
            v[phys_index] = result.v_at(np.array([t_touch]))[0]
            v[i] = 0.0
            after, index = self._simulate(None, si, coast_v_mm_s=v)
            self._add_motion(after, index, after.t_end_s, self._hand_on(i, t_touch, lean))
            shot_events = [e for e in shot_events
                           if e.t_s <= t_touch and e.kind is not EventKind.SHOT_END]
            shot_events += [moved] + [e for e in self._shot_events(number, after, index, t_touch)
                                      if e.kind is not EventKind.SHOT_START]
        shot_end = self.t
        end_pose = self.pose
        self.events.extend(shot_events)

        shot = Shot(
            number=number, player=state.shooter, t_start_s=t_shot, t_end_s=shot_end,
            before=self.layout(before_pose), after=self.layout(end_pose),
            events=tuple(shot_events), between=tuple(self.pending_between),
        )
        self.pending_between = []
        declaration = Declaration(
            called_ball=plan.target if self.game in (Game.EIGHT_BALL, Game.TEN_BALL,
                                                     Game.STRAIGHT_POOL) else None,
            called_pocket=plan.pocket if self.game in (Game.EIGHT_BALL, Game.TEN_BALL,
                                                       Game.STRAIGHT_POOL) else None,
            safety=plan.kind == "safety" and not self.game.is_novuss,
        )
        judgement = self.engine.judge(state, shot, declaration)
        self.records.append(
            ShotRecord(number, state.shooter, _plan_json(plan), shot, declaration, judgement))
        log.info("shot %d by %s: %s", number, state.shooter,
                 ", ".join(f"{c.outcome} ({c.rule})" for c in judgement.calls))

        # 4. Things settle; the referee's orders are carried out by hand.
        self.hold(float(self.rng.uniform(0.4, 0.7)))
        if self.spec.family is Family.NOVUSS and self.pose.status[si] == ON_TABLE:
            self.carry({si: self._rail_point(self.pose.xy_mm[si])}, 0.4, shot=number + 1,
                       status=REMOVED)  # the shooter picks the puck up
        for order in judgement.orders:
            self._carry_out(order, number + 1)
        return judgement.state

    def _mid_rack(self, case: str, state: MatchState) -> MatchState:
        """Start mid-rack, as real clips do, with a first shot scripted for the hard case.

        ``split_hit``: the cue ball meets the 1 and then the 2 about 8 ms apart, well inside
        one frame. ``ball_in_pocket``: a straight-in pot, so the ball rests visible in the
        cup for the rest of the clip. Two balls are already down, lying in pocket cups.
        """
        hx, hy = self.spec.half_wh_mm
        R = self.spec.objects["ball"].radius_mm
        xy = self.home_xy
        labels = self.labels
        idx = {lb: i for i, lb in enumerate(labels)}
        objects = [lb for lb in labels if lb != "cue_ball"]
        lowest = sorted(objects, key=lambda lb: int(lb.split("_")[1]))
        placed: dict[str, tuple[float, float]] = {}
        if case == "split_hit":
            placed = {"cue_ball": (-0.3 * hx, 0.0), lowest[0]: (0.25 * hx, 35.0),
                      lowest[1]: (0.25 * hx + 16.0, -35.0)}
            plan = ShotPlan(kind="pot", striker="cue_ball", heading_rad=0.0, speed_mm_s=2000.0,
                            target=lowest[0], pocket="foot_left")
        else:
            pocket = np.asarray(self.spec.pocket("foot_left").centre_xy_mm)
            u = -pocket / np.linalg.norm(pocket)  # from the pocket toward the table centre
            ball = pocket + u * 420.0
            cue = ball + u * 500.0
            placed = {"cue_ball": tuple(cue), lowest[0]: tuple(ball)}
            heading = math.atan2(-u[1], -u[0])
            plan = ShotPlan(kind="pot", striker="cue_ball", heading_rad=heading,
                            speed_mm_s=1600.0, follow=-0.5, target=lowest[0],
                            pocket="foot_left")
        self.scripted[1] = plan
        rest = [lb for lb in objects if lb not in placed]
        down, rest = rest[:2], rest[2:]
        for lb in rest:  # the other balls lie where play left them: anywhere clear
            for _ in range(200):
                p = self.rng.uniform([-hx + R + 5, -hy + R + 5], [hx - R - 5, hy - R - 5])
                near_path = abs(p[1]) < 3 * R and case == "split_hit"
                clear = all(math.dist(p, q) > 2 * R + 20 for q in placed.values())
                if clear and not near_path and self._clear_of_plan(p, placed, plan, R):
                    placed[lb] = (float(p[0]), float(p[1]))
                    break
        status = self.pose.status.copy()
        z = self.pose.z_mm.copy()
        for lb, p in placed.items():
            xy[idx[lb]] = p
        for k, lb in enumerate(down):  # already pocketed, resting in two cups
            pocket = self.spec.pockets[(2 * k + 1) % len(self.spec.pockets)]
            xy[idx[lb]] = pocket.centre_xy_mm
            z[idx[lb]] = -physics.PoolPhysics().pocket_drop_mm
            status[idx[lb]] = POCKETED
        on = [lb for lb in objects if lb in placed]
        self.pose = Pose(xy.copy(), z, status)
        self.home_xy = xy
        return state.with_(breaking=False, ball_in_hand=None, on_table=tuple(on))

    def _mid_set(self, state: MatchState) -> MatchState:
        """Start a Novuss set half played, as real clips do: some pawns already in the bags,
        the rest scattered, and the first shooter's own pawns partly (half the time all)
        dark, in his own edge zone or the circle, where the dark-pawn rules bite."""
        nv = state.novuss
        assert nv is not None
        geo = self.engine.geo  # type: ignore[attr-defined]
        side, own = nv.sides[state.turn], pawn_label(nv.colours[state.turn])
        hx = self.spec.half_wh_mm[0]
        r = self.spec.object_for(own).radius_mm
        all_dark = self.rng.random() < 0.5
        status = self.pose.status.copy()
        placed: list[np.ndarray] = []
        for label in (own, *sorted({lb for lb in self.labels if lb.endswith("_pawn")} - {own})):
            idx = [i for i, lb in enumerate(self.labels) if lb == label]
            keep = int(self.rng.integers(2, 5))
            status[idx[keep:]] = POCKETED
            for n, i in enumerate(idx[:keep]):
                dark = label == own and (all_dark or n == 0)
                for _ in range(1000):
                    if dark and self.rng.random() < 0.6:  # deep in the own edge zone
                        p = np.asarray(geo.point(side, self.rng.uniform(geo.zone_mm + 10, hx - r),
                                                 self.rng.uniform(-geo.zone_mm, geo.zone_mm)))
                    elif dark:  # inside the circle, the hole clear of its line
                        a, d = self.rng.uniform(0, 2 * math.pi), self.rng.uniform(0, 105.0)
                        p = d * np.array([math.cos(a), math.sin(a)])
                    else:
                        p = self.rng.uniform(-(hx - r - 2), hx - r - 2, size=2)
                    near_pocket = any(math.dist(p, pk.centre_xy_mm) < pk.hole_radius_mm + r + 5
                                      for pk in self.spec.pockets)
                    if not near_pocket and all(np.linalg.norm(p - q) > 2 * r + 2 for q in placed):
                        placed.append(p)
                        self.home_xy[i] = p
                        break
                else:
                    status[i] = POCKETED  # no room found: count it as already pocketed
        self.pose = Pose(self.pose.xy_mm, self.pose.z_mm, status)
        on = tuple(lb for lb, st in zip(self.labels, status, strict=True)
                   if st == REMOVED and lb != "puck")
        return state.with_(on_table=on)

    def _clear_of_plan(self, p: np.ndarray, placed: dict[str, tuple[float, float]],
                       plan: ShotPlan, R: float) -> bool:
        """True when ``p`` is off the scripted shot's line (cue ball to target to pocket)."""
        cue = np.asarray(placed["cue_ball"])
        target = np.asarray(placed[plan.target or ""])
        pocket = np.asarray(self.spec.pocket(plan.pocket or "foot_left").centre_xy_mm)
        for a, b in ((cue, target), (target, pocket)):
            ab = b - a
            s = np.clip(np.dot(p - a, ab) / np.dot(ab, ab), 0, 1)
            if np.linalg.norm(p - (a + s * ab)) < 3 * R:
                return False
        return True

    def _choose(self, number: int, state: MatchState) -> ShotPlan:
        if number in self.scripted:
            return self.scripted[number]
        layout = self.layout()
        if isinstance(self.bot, NovussBot):
            nv = state.novuss
            assert nv is not None
            own = frozenset({pawn_label(nv.colours[state.turn])})  # doubles: the pair's colour
            return self.bot.choose(layout.labels, layout.ids, layout.xy_mm,
                                   side=nv.sides[state.turn], own_labels=own,
                                   is_break=number == 1 and self.settings.case != "mid_set")
        targets = self.engine.legal_targets(state, layout)
        plan = self.bot.choose(layout.labels, layout.ids, layout.xy_mm, legal_targets=targets,
                               ball_in_hand=state.ball_in_hand, is_break=state.breaking,
                               game=self.game.value)
        if self.settings.case == "cluster_break" and state.breaking:
            plan = replace(plan, speed_mm_s=10500.0, follow=0.0, english=0.0)
        return plan

    def _kitchen_spot(self) -> tuple[float, float]:
        xy = cue_ball_in_kitchen(self.spec, self.rng)
        return (float(xy[0]), float(xy[1]))

    def _add_motion(self, result: physics.ShotResult, index: np.ndarray, t1_s: float,
                    occluders: OccluderFn) -> None:
        """Append the motion of ``result`` up to ``t1_s`` to the timeline."""
        end = self._pose_at(result, index, t1_s)
        self.segments.append(Segment(result.t0_s, t1_s, self.pose, end, occluders,
                                     motion=result, physics_index=index))
        self.t = t1_s
        self.pose = end

    def _touch_moving(self, result: physics.ShotResult, index: np.ndarray, si: int
                      ) -> tuple[float, int] | None:
        """When and which object a hand stops: the first object ball or pawn moving faster
        than 300 mm/s at least 0.3 s into the shot; None when nothing qualifies."""
        t = np.arange(result.t0_s + 0.3, result.t_end_s - 0.2, 0.02)
        if len(t) == 0:
            return None
        speed = np.linalg.norm(result.v_at(t), axis=-1)  # (T, N)
        speed[:, index == si] = 0.0
        speed[result.status_at(t) != physics.ON_TABLE] = 0.0
        hits = np.argwhere(speed > 300.0)
        if len(hits) == 0:
            return None
        k, n = hits[0]
        return float(t[k]), int(index[n])

    def _hand_on(self, i: int, t0: float, lean: Occluder | None) -> OccluderFn:
        """A hand resting on the object it stopped, for half a second."""
        xy = self.pose.xy_mm[i].copy()
        heading = self._reach_heading(xy)

        def fn(t: float) -> tuple[Occluder, ...]:
            out = [] if lean is None else [lean]
            if t - t0 < 0.5:
                out.append(Occluder("hand", (float(xy[0]), float(xy[1])), heading, z_mm=60.0))
            return tuple(out)

        return fn

    def _simulate(self, plan: ShotPlan | None, si: int,
                  coast_v_mm_s: np.ndarray | None = None
                  ) -> tuple[physics.ShotResult, np.ndarray]:
        """Run the physics from the current pose and time: a stroke by ``plan``, or (``plan``
        None) the objects coasting on at ``coast_v_mm_s`` (one row per object)."""
        on = np.flatnonzero(self.pose.status == ON_TABLE)
        bodies = physics.Bodies.make(tuple(self.labels[i] for i in on), self.pose.xy_mm[on],
                                     ids=self.ids[on])
        fly = plan is not None and plan.intended_fault in ("foul_off_table", "foul_too_hard")

        def fly_over(ev: physics.PhysicsEvent) -> bool:
            # A hard enough hit sends an object over the rail when the bot meant to
            # (a scripted happening: our physics is 2D) or, rarely, on a very hard one.
            fast = ev.speed_mm_s > (2500.0 if self.spec.family is Family.NOVUSS else 4000.0)
            return fast and (fly or self.rng.random() < 0.03)

        if plan is not None:
            return physics.simulate_shot(self.spec, self.phys, bodies,
                                         plan.to_strike(int(self.ids[si])), t0_s=self.t,
                                         fly_over=fly_over), on
        assert coast_v_mm_s is not None
        return physics.simulate_shot(self.spec, self.phys, bodies, None, t0_s=self.t,
                                     fly_over=fly_over, initial_v_mm_s=coast_v_mm_s[on]), on

    def _pose_at(self, result: physics.ShotResult, index: np.ndarray, t_s: float) -> Pose:
        """Everyone's place at ``t_s`` of ``result``; pocketed objects already in their cup."""
        t = np.array([t_s])
        t_end = np.array([result.t_end_s])
        st = self.pose.status.copy()
        st[index] = result.status_at(t)[0]
        down = st[index] != ON_TABLE
        xy = self.pose.xy_mm.copy()
        z = self.pose.z_mm.copy()
        xy[index] = np.where(down[:, None], result.xy_at(t_end)[0], result.xy_at(t)[0])
        z[index] = np.where(down, result.z_at(t_end)[0], result.z_at(t)[0])
        if self.spec.family is Family.NOVUSS:
            st[index] = np.where(st[index] == POCKETED, REMOVED, st[index])
        st = np.where(st == OFF_TABLE, REMOVED, st).astype(np.int8)
        return Pose(xy, z, st)

    def _shot_events(self, number: int, result: physics.ShotResult, index: np.ndarray,
                     t0: float) -> list[Event]:
        id_to_i = {int(self.ids[i]): int(i) for i in index}
        si = self.labels.index("puck" if self.spec.family is Family.NOVUSS else "cue_ball")
        x, y = result.start.xy_mm[result.start.index_of(int(self.ids[si]))]
        out = [Event(EventKind.SHOT_START, t0, self.frame_of(t0), number, (self.ref(si),),
                     (float(x), float(y)))]
        kinds = {"contact": EventKind.CONTACT, "cushion": EventKind.CUSHION,
                 "pocket": EventKind.POCKET, "off_table": EventKind.OFF_TABLE}
        for pe in result.events:
            kind = kinds.get(pe.kind)
            if kind is None:
                continue
            refs = tuple(self.ref(id_to_i[i]) for i in pe.ids)
            out.append(Event(kind, pe.t_s, self.frame_of(pe.t_s), number, refs,
                             (float(pe.xy_mm[0]), float(pe.xy_mm[1])),
                             cushion=pe.cushion, pocket=pe.pocket))
        out.extend(self._line_crossings(number, result, index))
        t_end = result.t_end_s
        out.append(Event(EventKind.SHOT_END, t_end, self.frame_of(t_end), number, (), (0.0, 0.0)))
        return sorted(out, key=lambda e: e.t_s)

    def _line_crossings(self, number: int, result: physics.ShotResult,
                        index: np.ndarray) -> list[Event]:
        """Novuss zone-line and circle crossings, found on a fine time grid then refined."""
        if self.spec.family is not Family.NOVUSS:
            return []
        names = ("zone_a", "zone_b", "zone_left", "zone_right", "circle")
        t = np.arange(result.t0_s, result.t_end_s, 0.002)
        if len(t) < 2:
            return []
        xy = result.xy_at(t)  # (T, N, 2)
        st = result.status_at(t)
        out = []
        for name in names:
            line = self.spec.line(name)
            side = _side_of(line, xy)  # (T, N) +-1
            flips = np.argwhere((np.diff(side, axis=0) != 0) & (st[1:] == physics.ON_TABLE))
            for k, n in flips:
                tc = _bisect_crossing(line, result, int(n), t[k], t[k + 1])
                p = result.xy_at(np.array([tc]))[0, n]
                i = int(index[n])
                out.append(Event(EventKind.LINE_CROSS, tc, self.frame_of(tc), number,
                                 (self.ref(i),), (float(p[0]), float(p[1])), line=name))
        return out

    def _nudge(self, number: int, exclude: int) -> None:
        """A hand moves a resting object between shots (WPA 6.6, Novuss 17.1.о)."""
        on = [i for i in np.flatnonzero(self.pose.status == ON_TABLE) if i != exclude]
        if not on:
            return
        i = int(self.rng.choice(on))
        ang = self.rng.uniform(0, 2 * math.pi)
        target = self.pose.xy_mm[i] + 25.0 * np.array([math.cos(ang), math.sin(ang)])
        if not self._free(target, i):
            return
        self.carry({i: (float(target[0]), float(target[1]))}, 0.5, kind=EventKind.MOVED,
                   shot=number)

    def _bump_on_placement(self, number: int, si: int) -> None:
        """The puck set down against a pawn knocks it a few mm (Novuss 17.1.л)."""
        on = [i for i in np.flatnonzero(self.pose.status == ON_TABLE) if i != si]
        if not on:
            return
        d = np.linalg.norm(self.pose.xy_mm[on] - self.pose.xy_mm[si], axis=1)
        j = on[int(np.argmin(d))]
        gap = d.min() - (self.spec.object_for("puck").radius_mm
                         + self.spec.object_for(self.labels[j]).radius_mm)
        if gap > 0.5:  # the bot found no pawn to set the puck against
            return
        contact = Event(EventKind.CONTACT, self.t, self.frame_of(self.t), number,
                        (self.ref(si), self.ref(j)),
                        (float(self.pose.xy_mm[si, 0]), float(self.pose.xy_mm[si, 1])))
        self.events.append(contact)
        self.pending_between.append(contact)
        # The touch alone is the foul; the pawn also slides a little where it has room.
        u = (self.pose.xy_mm[j] - self.pose.xy_mm[si]) / max(d.min(), 1e-9)
        for push_mm in (6.0, 3.0, 1.5):
            target = self.pose.xy_mm[j] + push_mm * u
            if self._free(target, j):
                self.carry({j: (float(target[0]), float(target[1]))}, 0.2,
                           kind=EventKind.MOVED, shot=number)
                return

    def _free(self, xy: np.ndarray, skip: int) -> bool:
        r = self.spec.object_for(self.labels[skip]).radius_mm
        if not self.spec.on_surface(xy[None], margin_mm=r + 1)[0]:
            return False
        for j in np.flatnonzero(self.pose.status == ON_TABLE):
            if j == skip:
                continue
            rj = self.spec.object_for(self.labels[j]).radius_mm
            if np.linalg.norm(self.pose.xy_mm[j] - xy) < r + rj + 0.5:
                return False
        return True

    def _carry_out(self, order: Order, next_shot: int) -> None:
        """Carry out a referee's order: spot, restore, re-rack, penalty pawn, circle."""
        moves: dict[int, tuple[float, float]] = {}
        from_xy: dict[int, tuple[float, float]] = {}
        used: set[int] = set()
        for label, xy in zip(order.labels, order.xy_mm, strict=True):
            i = self._body_for(order.kind, label, np.asarray(xy), used)
            if i is None:
                log.warning("order %s: no %s to move", order.kind, label)
                continue
            used.add(i)
            if order.kind == "remove":
                moves[i] = self._rail_point(self.pose.xy_mm[i])
                continue
            if self.pose.status[i] != ON_TABLE:
                from_xy[i] = self._rail_point(np.asarray(xy))
            moves[i] = (float(xy[0]), float(xy[1]))
        if not moves:
            return
        status = REMOVED if order.kind == "remove" else ON_TABLE
        duration = 0.5 + 0.08 * len(moves)
        self.carry(moves, duration, shot=next_shot, status=status, from_xy=from_xy or None)

    def _body_for(self, kind: str, label: str, xy: np.ndarray, used: set[int]) -> int | None:
        cands = [i for i, lb in enumerate(self.labels) if lb == label and i not in used]
        if not cands:
            return None
        if kind in ("penalty_pawn", "to_circle", "spot"):
            off = [i for i in cands if self.pose.status[i] != ON_TABLE]
            if off:
                cands = off
        d = [np.linalg.norm(self.pose.xy_mm[i] - xy) for i in cands]
        return cands[int(np.argmin(d))]

    # -- people and camera ---------------------------------------------------

    def _cue_occluders(self, xy: np.ndarray, heading: float, radius: float, t0: float,
                       aim_s: float) -> OccluderFn:
        back = np.array([math.cos(heading), math.sin(heading)])

        def fn(t: float) -> tuple[Occluder, ...]:
            # Practice strokes: the tip moves back and forth behind the striker.
            gap = radius + 15.0 + 25.0 * (0.5 + 0.5 * math.sin(2 * math.pi * 1.5 * (t - t0)))
            tip = xy - back * gap
            hand = xy - back * (gap + 180.0)
            return (Occluder("cue", (float(tip[0]), float(tip[1])), heading, z_mm=radius),
                    Occluder("hand", (float(hand[0]), float(hand[1])), heading, z_mm=40.0))

        return fn

    def _cue_follow(self, xy: np.ndarray, heading: float, radius: float, t0: float,
                    lean: Occluder | None) -> OccluderFn:
        back = np.array([math.cos(heading), math.sin(heading)])

        def fn(t: float) -> tuple[Occluder, ...]:
            dt = t - t0
            out: list[Occluder] = [] if lean is None else [lean]
            if dt < 0.35:  # follow-through, then the cue is drawn back and away
                gap = radius + 5.0 - 60.0 * min(dt, 0.08) / 0.08 + 600.0 * max(dt - 0.12, 0.0)
                tip = xy - back * gap
                hand = xy - back * (gap + 180.0)
                out += [Occluder("cue", (float(tip[0]), float(tip[1])), heading, z_mm=radius),
                        Occluder("hand", (float(hand[0]), float(hand[1])), heading, z_mm=40.0)]
            return tuple(out)

        return fn

    def _leans(self, number: int) -> bool:
        if self.settings.case == "hand_over_table":
            return True
        return self.settings.realism > 0 and self.rng.random() < 0.15

    def _lean_occluder(self) -> Occluder:
        hx, hy = self.spec.half_wh_mm
        side = int(self.rng.integers(4))
        u = float(self.rng.uniform(-0.5, 0.5))
        pts = [((u * hx, hy - 60.0), -math.pi / 2), ((u * hx, -hy + 60.0), math.pi / 2),
               ((-hx + 60.0, u * hy), 0.0), ((hx - 60.0, u * hy), math.pi)]
        xy, heading = pts[side]
        return Occluder("body", xy, heading, z_mm=400.0, scale=1.0)

    def _cameras(self) -> tuple[tuple[CameraModel, ...], tuple[float, ...]]:
        rng = np.random.default_rng([self.settings.seed, 2])
        r = self.settings.realism
        novuss = self.spec.family is Family.NOVUSS
        setup = CameraSetup(
            resolution_wh=self.settings.resolution_wh,
            height_mm=float(rng.uniform(1050, 1450) if novuss else rng.uniform(3300, 4200)),
            fill=float(rng.uniform(0.84, 0.94) if novuss else rng.uniform(0.78, 0.9)),
            tilt_deg=float(r * rng.uniform(0.0, 15.0)),
            tilt_azimuth_deg=float(rng.uniform(0, 360)),
            roll_deg=float(r * rng.normal(0.0, 1.5)),
            offset_mm=(float(r * rng.normal(0, 30)), float(r * rng.normal(0, 20))),
            k1=float(-r * (rng.uniform(0.05, 0.22) if novuss else rng.uniform(0.0, 0.06))),
            k2=float(r * (rng.uniform(0.0, 0.04) if novuss else 0.0)),
        )
        cams = [overhead_camera(self.spec, setup)]
        switches = [0.0]
        bump = self.settings.case == "camera_bump" or (r > 0 and rng.random() < 0.15)
        if bump and self.t > 2.0:
            t_bump = float(rng.uniform(0.35, 0.65) * self.t)
            bumped = replace(
                setup,
                tilt_deg=min(setup.tilt_deg + rng.uniform(0.8, 2.0), 16.0),
                roll_deg=setup.roll_deg + float(rng.normal(0, 1.2)),
                offset_mm=(setup.offset_mm[0] + float(rng.normal(0, 25)),
                           setup.offset_mm[1] + float(rng.normal(0, 25))),
            )
            # The mount shakes for a few frames, then settles at the bumped pose.
            shake = [replace(bumped, roll_deg=bumped.roll_deg + a) for a in (2.0, -1.2, 0.5)]
            dt = 1.0 / self.settings.fps
            for k, sh in enumerate(shake + [bumped]):
                cams.append(overhead_camera(self.spec, sh))
                switches.append(t_bump + k * dt)
        return tuple(cams), tuple(switches)


def _match_over(judgement: Judgement) -> bool:
    return any(c.outcome == "match_win" for c in judgement.calls)


def _plan_json(plan: ShotPlan) -> dict[str, Any]:
    out = {}
    for name in plan.__slots__:  # type: ignore[attr-defined]
        value = getattr(plan, name)
        if isinstance(value, float):
            value = round(value, 6)
        elif isinstance(value, tuple):
            value = [round(float(v), 3) for v in value]
        out[name] = value
    return out


def _side_of(line: Any, xy: np.ndarray) -> np.ndarray:
    """+1/-1: which side of a zone line (or inside/outside the circle) each point is on."""
    if line.is_circle:
        return np.sign(np.linalg.norm(xy - np.asarray(line.a_xy_mm), axis=-1) - line.radius_mm)
    a, b = np.asarray(line.a_xy_mm), np.asarray(line.b_xy_mm)
    d = b - a
    return np.sign(d[0] * (xy[..., 1] - a[1]) - d[1] * (xy[..., 0] - a[0]))


def _bisect_crossing(line: Any, result: physics.ShotResult, n: int, t0: float, t1: float
                     ) -> float:
    s0 = _side_of(line, result.xy_at(np.array([t0]))[0, n][None])[0]
    for _ in range(40):
        tm = 0.5 * (t0 + t1)
        sm = _side_of(line, result.xy_at(np.array([tm]))[0, n][None])[0]
        if sm == s0:
            t0 = tm
        else:
            t1 = tm
    return 0.5 * (t0 + t1)


def direct(settings: ClipSettings) -> Script:
    """Play the clip's match and return its script (no rendering)."""
    return Director(settings).run()
