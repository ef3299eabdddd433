"""What every pool game shares (RULES §2): shot facts, the cross-game fouls P1–P12,
spotting (WPA 1.4), rack positions (§2.2) and the rack/match bookkeeping.

The fouls are small predicates over ``PoolFacts`` returning ``(ok, reason)``; the game
engines choose which apply (14.1 has no 6.2, a push-out drops 6.2 and 6.3).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from adjudication.calls import Call, Outcome
from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind
from adjudication.games import Game
from adjudication.rules.base import (
    CallBook,
    Check,
    Judgement,
    MatchState,
    Order,
    PoolInfo,
    bump,
    declared,
    doubt_evidence,
    doubtful,
    ev,
    shot_clock_ok,
    shot_time_evidence,
)
from adjudication.settings import RuleSettings
from adjudication.shot import Layout, Shot
from calibration.tables import BALL_DIAMETER_MM, TableSpec

CUE = "cue_ball"
D = BALL_DIAMETER_MM
R = D / 2
FOOT_SIDE_CUSHIONS = frozenset({"foot", "left_foot", "right_foot"})


def ball_number(label: str) -> int:
    """15 for ``ball_15``; 0 for the cue ball or anything else."""
    if label.startswith("ball_"):
        try:
            return int(label[5:])
        except ValueError:
            return 0
    return 0


def object_balls(labels: Iterable[str]) -> tuple[str, ...]:
    """Object-ball labels in number order (no cue ball, no unknowns)."""
    return tuple(sorted({lab for lab in labels if ball_number(lab) > 0}, key=ball_number))


def ball(n: int) -> str:
    return f"ball_{n}"


# -------------------------------------------------------------------------------- facts


@dataclass(frozen=True, slots=True)
class PoolFacts:
    """What the camera saw on one pool shot, reduced to what the rules ask about."""

    first_contact: Event | None
    first_labels: tuple[str, ...]  # object balls the cue ball met first (simultaneous incl.)
    pocketed: tuple[str, ...]  # object balls, in time order
    pockets: dict[str, str]  # label -> pocket name
    scratch: Event | None
    cue_off: Event | None
    off_table: tuple[str, ...]  # object balls
    rail_after_contact: Event | None
    rails_count: int  # distinct object balls driven to a rail on the whole shot (8.4)
    cue_rail_after_contact: bool
    cue_xy_start: tuple[float, float] | None
    crossed_head_string_first: bool
    moving_at_start: tuple[str, ...]
    moved_between: tuple[Event, ...]
    on_table_start: tuple[str, ...]  # object balls at shot start
    head_string_x: float
    pocket_events: tuple[Event, ...] = field(default=())
    first_events: tuple[Event, ...] = field(default=())  # the first contact(s), simultaneous incl.
    review_below: float = 0.5  # RuleSettings.review_below: events under it are doubtful
    shot_clock: Check = (True, "")  # P15: the stroke within the shot clock (base.shot_clock_ok)
    shot_time: dict[str, Any] = field(default_factory=dict)  # its evidence

    def doubt(self, *events: Event | None) -> tuple[Event, ...]:
        return doubtful(events, self.review_below)


def _first_contacts(
    shot: Shot, window_s: float
) -> tuple[Event | None, tuple[str, ...], tuple[Event, ...]]:
    contacts = shot.contacts_of(CUE)
    if not contacts:
        return None, (), ()
    first = contacts[0]
    labels: list[str] = []
    events: list[Event] = []
    for c in contacts:
        if c.t_s - first.t_s > window_s:
            break
        other = [lab for lab in c.labels if lab != CUE]
        labels += [lab for lab in other[:1] if lab not in labels]
        events.append(c)
    return first, tuple(labels), tuple(events)


def first_contact_doubt(f: PoolFacts) -> Check:
    """Review on doubt: the first contact (which ball the cue ball met first) was seen with
    enough confidence to decide WPA 6.2 / 6.3 on it."""
    weak = f.doubt(*f.first_events)
    return not weak, "the first contact of the cue ball is doubtful"


def open_judgement(
    spec: TableSpec,
    settings: RuleSettings,
    state: MatchState,
    shot: Shot,
    declaration: Declaration | None,
    *,
    first_matters: bool = True,
) -> tuple[Declaration, CallBook, PoolFacts]:
    """What every pool judgement starts from: the declaration (defaults filled in), an
    empty call book and the shot's facts. A finished match takes no more shots. A doubtful
    first contact is for review only where the shot's rules ask which ball was hit first
    (``first_matters``; not an 8-ball break, WPA 3.3, nor a 14.1 opening break, 4.3)."""
    if state.winner is not None:
        raise ValueError("the match is over; start a new one")
    d = declared(declaration)
    assert state.pool is not None
    book = CallBook(shot, state.shooter)
    f = shot_facts(shot, spec, state, d, settings)
    ok, reason = first_contact_doubt(f)
    if not ok and first_matters:
        book.add(
            "WPA 6.2",
            Outcome.REVIEW,
            f"Referee to confirm: {reason}.",
            first_labels=list(f.first_labels),
            **doubt_evidence(f.doubt(*f.first_events)),
        )
    return d, book, f


def shot_facts(
    shot: Shot,
    spec: TableSpec,
    state: MatchState,
    declaration: Declaration,
    settings: RuleSettings,
) -> PoolFacts:
    first, first_labels, first_events = _first_contacts(shot, settings.simultaneous_s)
    pockets = shot.pocketed()
    pocketed = tuple(e.labels[0] for e in pockets if e.labels and e.labels[0] != CUE)
    scratch = next((e for e in pockets if e.labels[:1] == (CUE,)), None)
    offs = shot.sorted_events(EventKind.OFF_TABLE)
    cue_off = next((e for e in offs if e.labels[:1] == (CUE,)), None)
    hs_x = float(spec.line("head_string").a_xy_mm[0])

    t1 = first.t_s if first is not None else math.inf
    rail_event, rails_count, cue_rail = rail_facts(shot, t1, set(declaration.frozen))
    cue_xy = shot.before.by_label(CUE)
    crossed = _crossed_head_string(shot, t1, hs_x)
    moved = tuple(  # touched between shots, or a moving ball touched during this one
        e
        for e in (*shot.between, *shot.events)
        if e.kind is EventKind.MOVED
        and e.labels
        and not (e.labels[0] == CUE and state.ball_in_hand is not None)
    )
    return PoolFacts(
        first_contact=first,
        first_labels=first_labels,
        pocketed=pocketed,
        pockets={e.labels[0]: e.pocket or "" for e in pockets if e.labels},
        scratch=scratch,
        cue_off=cue_off,
        off_table=tuple(e.labels[0] for e in offs if e.labels and e.labels[0] != CUE),
        rail_after_contact=rail_event,
        rails_count=rails_count,
        cue_rail_after_contact=cue_rail,
        cue_xy_start=None if cue_xy is None else (float(cue_xy[0]), float(cue_xy[1])),
        crossed_head_string_first=crossed,
        moving_at_start=shot.still_moving_at_start(),
        moved_between=moved,
        on_table_start=object_balls(shot.before.labels) or object_balls(state.on_table),
        head_string_x=hs_x,
        pocket_events=tuple(pockets),
        first_events=first_events,
        review_below=settings.review_below,
        shot_clock=shot_clock_ok(state, shot, settings.shot_clock_s),
        shot_time=shot_time_evidence(state, shot, settings.shot_clock_s),
    )


def rail_facts(
    shot: Shot, t1: float, frozen: set[str], skip: Iterable[Event] = ()
) -> tuple[Event | None, int, bool]:
    """WPA 8.4 "driven to a rail": the first rail event (cushion, pocket, off table) at or
    after the first contact ``t1``, the number of distinct object balls driven to a rail on
    the whole shot, and whether the cue ball reached a rail after ``t1``. A declared-frozen
    ball touching its rail without leaving it does not count, nor do the events in ``skip``
    (a touch the rules say is no rail, EST §7.2)."""
    skipped = set(skip)
    kept = [
        e
        for e in shot.sorted_events(EventKind.CUSHION, EventKind.POCKET, EventKind.OFF_TABLE)
        if e.objects
        and e not in skipped
        and not (e.kind is EventKind.CUSHION and _frozen_touch(e, shot.before, frozen))
    ]
    after = [e for e in kept if e.t_s >= t1]
    rails = {e.objects[0].id if e.objects[0].id >= 0 else e.labels[0]
             for e in kept if e.labels[0] != CUE}
    cue_rail = any(e.labels[0] == CUE for e in after)
    return (after[0] if after else None), len(rails), cue_rail


def _frozen_touch(e: Event, before: Layout, frozen: set[str]) -> bool:
    """A declared-frozen ball touching its rail without having left it (WPA 8.4)."""
    if not e.labels or e.labels[0] not in frozen:
        return False
    xy = before.by_label(e.labels[0])
    return xy is not None and math.dist(tuple(xy), e.xy_mm) < R / 2


def _crossed_head_string(shot: Shot, t1: float, hs_x: float) -> bool:
    for e in shot.sorted_events(EventKind.LINE_CROSS, EventKind.CUSHION):
        if e.t_s >= t1 or e.labels[:1] != (CUE,):
            continue
        if e.kind is EventKind.LINE_CROSS and e.line == "head_string":
            return True
        if e.kind is EventKind.CUSHION and (e.cushion in FOOT_SIDE_CUSHIONS or e.xy_mm[0] >= hs_x):
            return True
    return False


# ------------------------------------------------------------------------ predicates (P#)


def p1_no_scratch(f: PoolFacts) -> Check:
    return f.scratch is None, "the cue ball was pocketed"


def p2_cue_on_table(f: PoolFacts) -> Check:
    return f.cue_off is None, "the cue ball left the table"


def p3_right_ball_first(f: PoolFacts, targets: frozenset[str]) -> Check:
    if f.first_contact is None:
        return True, ""
    wrong = [lab for lab in f.first_labels if lab not in targets]
    return not wrong, f"the cue ball hit {', '.join(map(_say, wrong))} first"


def p4_contact(f: PoolFacts) -> Check:
    return f.first_contact is not None, "the cue ball touched no object ball"


def p5_rail_after_contact(f: PoolFacts) -> Check:
    if f.first_contact is None:
        return True, ""
    ok = bool(f.pocketed) or f.rail_after_contact is not None
    return ok, "no ball was pocketed or driven to a rail after the contact"


def p6_nothing_off(f: PoolFacts) -> Check:
    return not f.off_table, f"{', '.join(map(_say, f.off_table))} left the table"


def p7_break_rails(f: PoolFacts, need: int = 4) -> Check:
    ok = bool(f.pocketed) or f.rails_count >= need
    return ok, f"nothing was pocketed and only {f.rails_count} object balls reached a rail"


def p9_behind_head_string(f: PoolFacts, state: MatchState) -> Check:
    if state.ball_in_hand != "behind_head_string" or f.cue_xy_start is None:
        return True, ""
    return f.cue_xy_start[0] < f.head_string_x, "the cue ball was not behind the head string"


def p10_crossed_string(f: PoolFacts, state: MatchState, before: Layout) -> Check:
    if state.ball_in_hand != "behind_head_string" or f.first_contact is None:
        return True, ""
    xy = before.by_label(f.first_labels[0]) if f.first_labels else None
    if xy is None or xy[0] >= f.head_string_x or f.crossed_head_string_first:
        return True, ""
    return False, f"the cue ball hit {_say(f.first_labels[0])} behind the head string first"


def p11_nothing_moving(f: PoolFacts) -> Check:
    return not f.moving_at_start, f"{', '.join(map(_say, f.moving_at_start))} still moving"


def p12_nothing_touched(f: PoolFacts) -> Check:
    labels = [e.labels[0] for e in f.moved_between]
    return not labels, f"{', '.join(map(_say, labels))} moved without a shot"


def p15_shot_clock(f: PoolFacts) -> Check:
    """WPA 6.15: the stroke came within the shot clock the referee imposed (off by default,
    ``RuleSettings.shot_clock_s``)."""
    return f.shot_clock


def _say(label: str) -> str:
    n = ball_number(label)
    return f"the {n}" if n else label.replace("_", " ")


say = _say


# ---------------------------------------------------------------------------- fouls


@dataclass(frozen=True, slots=True)
class Foul:
    rule: str
    reason: str
    evidence: dict[str, Any]
    kind: str  # "scratch", "wrong_ball", ... for consequences (BIH-HS after scratch in 14.1)
    doubtful: tuple[Event, ...] = ()  # the deciding events seen with too little confidence


def standard_fouls(
    f: PoolFacts,
    state: MatchState,
    shot: Shot,
    *,
    targets: frozenset[str] | None,
    rail_rule: bool = True,
    object_off_is_foul: bool = True,
) -> list[Foul]:
    """The cross-game fouls (RULES §2.5) that this shot committed, in WPA order."""
    out: list[Foul] = []
    fc = ev(f.first_contact)

    def check(
        result: Check,
        rule: str,
        kind: str,
        deciding: Sequence[Event | None] = (),
        **evidence: Any,
    ) -> None:
        ok, reason = result
        if not ok:
            out.append(Foul(rule, reason, evidence, kind, f.doubt(*deciding)))

    check(p1_no_scratch(f), "WPA 6.1", "scratch", (f.scratch,), pocket=ev(f.scratch))
    check(p2_cue_on_table(f), "WPA 6.1", "cue_off", (f.cue_off,), off_table=ev(f.cue_off))
    if targets is not None:
        check(
            p3_right_ball_first(f, targets),
            "WPA 6.2",
            "wrong_ball",
            first_contact=fc,
            first_labels=list(f.first_labels),
            legal_targets=sorted(targets, key=ball_number),
        )
    check(p4_contact(f), "WPA 6.3", "no_contact", cue_ball_xy_mm=f.cue_xy_start)
    if rail_rule:
        check(p5_rail_after_contact(f), "WPA 6.3", "no_rail", first_contact=fc)
    if object_off_is_foul:
        offs = [
            e
            for e in shot.sorted_events(EventKind.OFF_TABLE)
            if e.labels and e.labels[0] in f.off_table
        ]
        deciding = offs if all(f.doubt(e) for e in offs) else []
        check(p6_nothing_off(f), "WPA 6.5", "object_off", deciding, off_table=list(f.off_table))
    check(p11_nothing_moving(f), "WPA 6.9", "moving", moving=list(f.moving_at_start))
    check(
        p12_nothing_touched(f),
        "WPA 6.6",
        "touched",
        moved=[ev(e) for e in f.moved_between],
    )
    hs = f.head_string_x
    cue_x = None if f.cue_xy_start is None else f.cue_xy_start[0]
    check(
        p9_behind_head_string(f, state),
        "WPA 6.10",
        "bih_position",
        cue_ball_x_mm=cue_x,
        head_string_x_mm=hs,
        past_string_mm=None if cue_x is None else cue_x - hs,
    )
    check(
        p10_crossed_string(f, state, shot.before),
        "WPA 6.11",
        "behind_string_first",
        first_contact=fc,
        head_string_x_mm=hs,
    )
    check(p15_shot_clock(f), "WPA 6.15", "shot_clock", **f.shot_time)
    return out


def add_foul_calls(book: CallBook, fouls: Sequence[Foul], outcome: Outcome = Outcome.FOUL) -> None:
    """One call per foul; a foul decided by a doubtful event is a ``review`` call instead
    (review on doubt, ``RuleSettings.review_below``) naming that event."""
    for foul in fouls:
        if foul.doubtful:
            book.add(
                foul.rule,
                Outcome.REVIEW,
                f"Referee to confirm: foul, {foul.reason}.",
                **foul.evidence,
                **doubt_evidence(foul.doubtful),
            )
        else:
            book.add(foul.rule, outcome, f"Foul: {foul.reason}.", **foul.evidence)


# ------------------------------------------------------------------------------ spotting


def spot_positions(
    spec: TableSpec, occupied_xy: np.ndarray, labels: Sequence[str], cue_xy: Any = None
) -> tuple[tuple[float, float], ...]:
    """WPA 1.4: on the long string as near the foot spot as possible, toward the foot rail,
    frozen to a blocking ball (a small gap to the cue ball); else in front of the spot.
    Several balls go in ascending number, the lowest nearest the spot (W9, §8.12)."""
    x0 = float(spec.spots["foot_spot"][0])
    x_max = spec.half_wh_mm[0] - R
    occ = [tuple(map(float, p)) for p in np.asarray(occupied_xy, dtype=float).reshape(-1, 2)]
    cue = None if cue_xy is None else (float(cue_xy[0]), float(cue_xy[1]))
    out: list[tuple[float, float]] = []
    for _ in sorted(labels, key=ball_number):
        xy = _one_spot(x0, x_max, occ, cue)
        out.append(xy)
        occ.append(xy)
    return tuple(out)


def _one_spot(
    x0: float, x_max: float, occ: list[tuple[float, float]], cue: tuple[float, float] | None
) -> tuple[float, float]:
    def need(p: tuple[float, float]) -> float:
        return D + (1.0 if cue is not None and p == cue else 0.0)

    blockers = list(occ) + ([cue] if cue is not None and cue not in occ else [])

    def free(x: float) -> bool:
        return all(math.dist((x, 0.0), p) >= need(p) - 1e-6 for p in blockers)

    behind = [x0]
    front = []
    for p in blockers:
        if abs(p[1]) < need(p):
            dx = math.sqrt(need(p) ** 2 - p[1] ** 2)
            behind.append(p[0] + dx)
            front.append(p[0] - dx)
    for x in sorted(x for x in behind if x0 <= x <= x_max):
        if free(x):
            return (x, 0.0)
    for x in sorted((x for x in front if x <= x0), reverse=True):
        if free(x):
            return (x, 0.0)
    return (x0, 0.0)


# -------------------------------------------------------------------------------- racks


def rack_positions(spec: TableSpec, rows: Sequence[int]) -> list[list[tuple[float, float]]]:
    """Ideal frozen-ball rack: row k centred on the long string, apex on the foot spot."""
    x0 = float(spec.spots["foot_spot"][0])
    h = D * math.sqrt(3) / 2
    out = []
    for k, count in enumerate(rows):
        out.append([(x0 + k * h, (j - (count - 1) / 2) * D) for j in range(count)])
    return out


def rack_order(game: Game, spec: TableSpec) -> Order:
    """The full rack for a new rack of ``game`` (RULES §2.2 fixed balls, the rest in order)."""
    if game is Game.NINE_BALL:
        rows, fixed, n = (1, 2, 3, 2, 1), {(0, 0): 1, (2, 1): 9}, 9
    elif game is Game.TEN_BALL:
        rows, fixed, n = (1, 2, 3, 4), {(0, 0): 1, (2, 1): 10}, 10
    elif game is Game.EIGHT_BALL:
        rows, fixed, n = (1, 2, 3, 4, 5), {(0, 0): 1, (2, 1): 8, (4, 0): 9, (4, 4): 2}, 15
    else:
        rows, fixed, n = (1, 2, 3, 4, 5), {(4, 0): 1, (4, 4): 5}, 15
    pos = rack_positions(spec, rows)
    rest = iter(k for k in range(1, n + 1) if k not in fixed.values())
    labels, xy = [], []
    for k, row in enumerate(pos):
        for j, p in enumerate(row):
            labels.append(ball(fixed.get((k, j)) or next(rest)))
            xy.append(p)
    return Order("rerack", tuple(labels), tuple(xy), rule=_RACK_RULE[game])


_RACK_RULE = {
    Game.NINE_BALL: "WPA 2.2",
    Game.TEN_BALL: "WPA 9.2",
    Game.EIGHT_BALL: "WPA 3.2",
    Game.STRAIGHT_POOL: "WPA 4.2",
}


# ------------------------------------------------------------------------ state helpers


def start_pool(
    game: Game, players: Sequence[str], first: int, spec: TableSpec, info: PoolInfo
) -> MatchState:
    if len(players) != 2:
        raise ValueError(f"{game.value} is played by 2 players, got {len(players)}")
    if first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, got {first}")
    rack = rack_order(game, spec)
    return MatchState(
        game=game,
        players=tuple(players),
        turn=first,
        scores=(0, 0),
        fouls_in_a_row=(0, 0),
        penalty_debt=(0, 0),
        on_table=object_balls(rack.labels),
        ball_in_hand="behind_head_string",
        breaking=True,
        breaker=first,
        rack=1,
        pool=info,
    )


def rack_won(
    state: MatchState,
    winner: int,
    book: CallBook,
    spec: TableSpec,
    settings: RuleSettings,
    rule: str,
    text: str,
    **evidence: Any,
) -> tuple[MatchState, list[Order]]:
    """Score a rack for ``winner``; the match when the race is won, else a new rack."""
    name = state.players[winner]
    book.add(rule, Outcome.RACK_WIN, text, player=name, **evidence)
    scores = bump(state.scores, winner)
    if scores[winner] >= settings.race_to:
        book.add(
            "Reg. 15",
            Outcome.MATCH_WIN,
            f"{name} wins the match {scores[winner]}-{scores[1 - winner]}.",
            player=name,
            race_to=settings.race_to,
            scores=list(scores),
        )
        return state.with_(scores=scores, winner=winner, turn=winner), []
    breaker = winner if settings.winner_breaks else 1 - state.breaker
    rack = rack_order(state.game, spec)
    assert state.pool is not None
    info = PoolInfo(race_to=state.pool.race_to, groups=(None, None))
    nxt = state.with_(
        scores=scores,
        turn=breaker,
        breaker=breaker,
        breaking=True,
        ball_in_hand="behind_head_string",
        on_table=object_balls(rack.labels),
        fouls_in_a_row=(0, 0),
        rack=state.rack + 1,
        pool=info,
    )
    return nxt, [rack]


def remaining(shot: Shot) -> tuple[str, ...]:
    return object_balls(shot.after.labels)


def occupied(shot: Shot, exclude: Iterable[str] = ()) -> np.ndarray:
    skip = set(exclude)
    keep = np.array([lab not in skip for lab in shot.after.labels], dtype=bool)
    return shot.after.xy_mm[keep] if len(shot.after) else np.zeros((0, 2))


def spot_order(spec: TableSpec, shot: Shot, labels: Sequence[str], rule: str) -> Order | None:
    if not labels:
        return None
    labels = sorted(labels, key=ball_number)
    cue = shot.after.by_label(CUE)
    xy = spot_positions(spec, occupied(shot, exclude=(CUE,)), labels, cue_xy=cue)
    return Order("spot", tuple(labels), xy, rule=rule)


# ------------------------------------------------------------- WPA 1.7 (P18) and 8.3

LIP_REACH_MM = D
"""⚙ WPA 8.3: a ball hangs on the lip when its centre rests within the pocket's point of no
return (``Pocket.capture_radius_mm``) plus one ball diameter of the pocket centre."""

LIP_GAP_MM = 1.0
"""⚙ A ball put back on the lip sits this far outside the point of no return, so the table
model does not count it pocketed again where it is put."""


@dataclass(frozen=True, slots=True)
class LipDrop:
    """A ball that dropped into a pocket by itself: between shots (``during`` False), or in a
    shot before anything touched it (``during`` True). ``lip_xy`` is where it goes back: its
    resting position on the lip when the ``before`` layout has it (a drop during a shot),
    else the pocket event's point, moved just outside the point of no return for WPA 8.3
    (``lip_point``). ``rest_s``: when it was last seen coming to rest, None when unknown."""

    event: Event
    lip_xy: tuple[float, float]
    rest_s: float | None
    during: bool

    @property
    def waited_s(self) -> float | None:
        return None if self.rest_s is None else self.event.t_s - self.rest_s

    @property
    def label(self) -> str:
        return self.event.labels[0]

    def rule(self) -> str:
        """WPA 8.3 when the time on the lip is known, else the general WPA 1.7."""
        return "WPA 1.7" if self.rest_s is None else "WPA 8.3"

    def counts(self, wait_s: float) -> bool:
        """WPA 8.3: dropped within ``wait_s`` of coming to rest, so it belongs to the shot
        that sent it there."""
        waited = self.waited_s
        return waited is not None and waited <= wait_s


def _same_ball(e: Event, ref: Event) -> bool:
    if not e.objects:
        return False
    a, b = e.objects[0], ref.objects[0]
    return a.id == b.id if a.id >= 0 and b.id >= 0 else a.label == b.label


def _pocket_of(spec: TableSpec, e: Event, xy: np.ndarray | Sequence[float]) -> Any:
    names = {p.name: p for p in spec.pockets}
    if e.pocket in names:
        return names[e.pocket]
    return min(spec.pockets, key=lambda p: math.dist(p.centre_xy_mm, tuple(xy)))


def on_lip(spec: TableSpec, e: Event, xy: np.ndarray | Sequence[float]) -> bool:
    """The ball resting at ``xy`` hung on the lip of the pocket of its ``pocket`` event."""
    p = _pocket_of(spec, e, xy)
    return math.dist(p.centre_xy_mm, (float(xy[0]), float(xy[1]))) <= (
        p.capture_radius_mm + LIP_REACH_MM
    )


def lip_point(spec: TableSpec, e: Event) -> tuple[float, float]:
    """Where a ball seen dropping at ``e`` hung: the event's point (where the path met the
    point of no return) moved out from the pocket centre to just outside it."""
    p = _pocket_of(spec, e, e.xy_mm)
    c = np.asarray(p.centre_xy_mm, dtype=float)
    v = np.asarray(e.xy_mm, dtype=float) - c
    n = float(np.linalg.norm(v))
    reach = p.capture_radius_mm + LIP_GAP_MM
    if n >= reach:
        return (float(e.xy_mm[0]), float(e.xy_mm[1]))
    u = v / n if n > 1e-9 else -c / max(float(np.linalg.norm(c)), 1e-9)  # toward the centre
    q = c + u * reach
    return (float(q[0]), float(q[1]))


def _rest_s(shot: Shot, state: MatchState, drop: Event) -> float | None:
    """When the ball of ``drop`` was last seen coming to rest: the end of the last judged
    shot (``MatchState.clock_from_s``: everything rested then), or a later placement or move
    of that ball between shots. None after a re-rack or at the match start."""
    times = [
        e.t_s
        for e in shot.between
        if e.kind in (EventKind.MOVED, EventKind.PLACED) and e.t_s < drop.t_s
        and _same_ball(e, drop)
    ]
    if state.clock_from_s is not None:
        times.append(state.clock_from_s)
    return max(times, default=None)


def _dropped_by_itself(shot: Shot, e: Event) -> bool:
    """Nothing touched the ball of pocket event ``e`` in this shot before it dropped: no
    contact, cushion, move or line crossing of it at or before ``e``."""
    for x in shot.events:
        if x is e or x.t_s > e.t_s or x.kind in (EventKind.SHOT_START, EventKind.SHOT_END):
            continue
        ids = x.ids
        ref = e.objects[0]
        if (ref.id >= 0 and ref.id in ids) or (ref.id < 0 and ref.label in x.labels):
            return False
    return True


def lip_drops(shot: Shot, state: MatchState, spec: TableSpec) -> tuple[LipDrop, ...]:
    """Object balls that dropped into a pocket by themselves (WPA 1.7, 8.3).

    How it shows in the event stream: a shot ends once everything rests, so a ball that
    stopped on the lip and drops later is a ``pocket`` event after that shot's end. The
    live segmenter puts it in the next shot's ``between`` events (``StreamReferee`` adds one
    that comes within ``pocket_lip_wait_s`` of the end, while that shot is still unjudged,
    to the shot itself, where it simply counts). If the next stroke came first, it is a
    ``pocket`` event in the next shot that nothing touched beforehand, of a ball that rested
    on that pocket's lip (``on_lip``) in the ``before`` layout; only such drops that can be
    timed are taken from a shot's events (a missed contact must not undo a pocketed ball).
    The time on the lip runs from ``_rest_s`` to the ``pocket`` event."""
    out: list[LipDrop] = []
    for e in shot.between:
        if e.kind is EventKind.POCKET and e.labels and e.labels[0] != CUE:
            rest = _rest_s(shot, state, e)
            lip = e.xy_mm if rest is None else lip_point(spec, e)
            out.append(LipDrop(e, (float(lip[0]), float(lip[1])), rest, during=False))
    for e in shot.sorted_events(EventKind.POCKET):
        if not e.labels or ball_number(e.labels[0]) == 0 or e.t_s < shot.t_start_s:
            continue
        ref = e.objects[0]
        xy = shot.before.by_id(ref.id) if ref.id >= 0 else shot.before.by_label(ref.label)
        rest = _rest_s(shot, state, e)
        if xy is None or rest is None or not on_lip(spec, e, xy):
            continue
        if _dropped_by_itself(shot, e):
            out.append(LipDrop(e, (float(xy[0]), float(xy[1])), rest, during=True))
    return tuple(out)


def settled_between(
    shot: Shot, drops: Sequence[LipDrop] | None = None
) -> tuple[Shot, tuple[Event, ...]]:
    """WPA 1.7 / 8.3: the shot as the game rules see it with the balls that dropped by
    themselves put back where they hung: their pocket events gone from ``between`` and the
    shot's events, the balls in ``before`` and ``after``. ``drops`` defaults to every object
    ball pocketed between shots. Returns the shot and the pocket events taken out."""
    if drops is None:
        drops = [
            LipDrop(e, e.xy_mm, None, during=False)
            for e in shot.between
            if e.kind is EventKind.POCKET and e.labels and e.labels[0] != CUE
        ]
    if not drops:
        return shot, ()
    gone = [d.event for d in drops]
    between = tuple(e for e in shot.between if e not in gone)
    events = tuple(e for e in shot.events if e not in gone)
    fixed = replace_shot(shot, between=between, events=events)
    early = [d for d in drops if not d.during]
    fixed = replace_shot(fixed, before=_with_balls(fixed.before, early))
    removed = {e.objects[0].id for e in fixed.events if e.kind.removes_object()}
    later = [d for d in drops if d.event.objects[0].id not in removed]
    return replace_shot(fixed, after=_with_balls(fixed.after, later)), tuple(gone)


def _with_balls(layout: Layout, drops: Sequence[LipDrop]) -> Layout:
    have = set(layout.ids.tolist())
    add = [d for d in drops if d.event.objects[0].id not in have]
    if not add:
        return layout
    return Layout(
        np.concatenate([layout.ids, [d.event.objects[0].id for d in add]]).astype(int),
        (*layout.labels, *(d.label for d in add)),
        np.concatenate([layout.xy_mm.reshape(-1, 2), [d.lip_xy for d in add]]),
    )


def lip_calls(
    shot: Shot, state: MatchState, drops: Sequence[LipDrop], wait_s: float
) -> tuple[list[Call], list[Order]]:
    """The calls and ``restore`` orders for balls that dropped by themselves.

    - Untimed (rest unknown: the first shot of a rack or match): WPA 1.7, put back.
    - Timed, longer than ``wait_s`` on the lip: WPA 8.3, not pocketed; back on the lip, it
      counts for no one.
    - Timed, within ``wait_s``: by WPA 8.3 it belongs to the shot that left it on the lip,
      which has been judged already (the engine never reopens a judged shot), so this is a
      ``review`` for the referee; the ball goes back on the lip meanwhile, so the table
      matches the judged shot and its state. ``StreamReferee`` avoids this case when the
      drop comes before anything else after the shot.
    """
    calls: list[Call] = []
    settled = [d for d in drops if d.rule() == "WPA 1.7"]
    if settled:
        names = ", ".join(say(d.label) for d in settled)
        calls.append(Call(
            shot=shot.number,
            t_s=shot.t_start_s,
            player=state.shooter,
            rule="WPA 1.7",
            outcome=Outcome.SPOT,
            text=f"{names.capitalize()} dropped into a pocket by itself between shots and is "
            "put back, no penalty.",
            evidence={"pocket": [ev(d.event) for d in settled]},
        ))
    for d in drops:
        if d.rule() != "WPA 8.3":
            continue
        waited = d.waited_s
        assert waited is not None
        where = f"the {d.event.pocket} pocket" if d.event.pocket else "a pocket"
        evidence = {
            "pocket": ev(d.event),
            "rest_s": d.rest_s,
            "waited_s": round(waited, 3),
            "wait_s": wait_s,
            "lip_xy_mm": list(d.lip_xy),
            "during_shot": d.during,
        }
        if d.counts(wait_s):
            text = (
                f"Referee to rule: {say(d.label)} dropped into {where} {waited:.1f} s after "
                f"coming to rest, within the {wait_s:g} s of WPA 8.3, so it counts for shot "
                f"{state.shot}, already judged without it; it goes back on the lip meanwhile."
            )
            outcome = Outcome.REVIEW
            evidence["counts_for_shot"] = state.shot
        else:
            text = (
                f"{say(d.label).capitalize()} hung on the lip of {where} for {waited:.1f} s "
                "and then dropped by itself: not pocketed; it goes back on the lip and counts "
                "for no one."
            )
            outcome = Outcome.SPOT
        calls.append(Call(
            shot=shot.number,
            t_s=shot.t_start_s,
            player=state.shooter,
            rule="WPA 8.3",
            outcome=outcome,
            text=text,
            evidence=evidence,
        ))
    orders = []
    for rule in ("WPA 1.7", "WPA 8.3"):
        group = [d for d in drops if d.rule() == rule]
        if group:
            orders.append(Order(
                "restore",
                tuple(d.label for d in group),
                tuple(d.lip_xy for d in group),
                ids=tuple(d.event.objects[0].id for d in group),
                rule=rule,
            ))
    return calls, orders


def with_settled(judge: Any) -> Any:
    """Wrap a pool engine's ``judge`` with WPA 1.7 and 8.3 (``lip_drops``): balls that
    dropped into a pocket by themselves are put back before the shot is judged (no penalty),
    with their calls (``lip_calls``) and ``restore`` orders. The engine needs ``spec`` and
    ``settings`` (``RuleSettings.pocket_lip_wait_s``)."""

    def wrapped(self: Any, state: MatchState, shot: Shot, declaration: Declaration | None = None):  # type: ignore[no-untyped-def]
        drops = lip_drops(shot, state, self.spec)
        if not drops:
            return judge(self, state, shot, declaration)
        fixed, _ = settled_between(shot, drops)
        j = judge(self, state, fixed, declaration)
        calls, orders = lip_calls(shot, state, drops, self.settings.pocket_lip_wait_s)
        return Judgement((*calls, *j.calls), j.state, (*orders, *j.orders))

    wrapped.__doc__ = judge.__doc__
    return wrapped


# ------------------------------------------------------------------------- WPA 1.5


def with_spot_request(judge: Any) -> Any:
    """Wrap a pool engine's ``judge`` with WPA 1.5 / EST §7.7 (``spot_request``): after the
    shot is judged, a ``Declaration.spot_request`` from the player who now has ball in hand
    behind the head string is granted or refused on the table the shot and its orders left."""

    def wrapped(self: Any, state: MatchState, shot: Shot, declaration: Declaration | None = None):  # type: ignore[no-untyped-def]
        j = judge(self, state, shot, declaration)
        if not declared(declaration).spot_request:
            return j
        call, order = spot_request(self.spec, shot, j)
        return Judgement((*j.calls, call), j.state, (*j.orders, *([order] if order else [])))

    wrapped.__doc__ = judge.__doc__
    return wrapped


def table_after(shot: Shot, judgement: Judgement) -> dict[str, tuple[float, float]]:
    """Object ball -> position once the shot's orders are carried out (a re-rack replaces
    the balls it names; spots and restores move theirs); only balls the next state holds."""
    table = {
        lab: (float(xy[0]), float(xy[1]))
        for lab, xy in zip(shot.after.labels, shot.after.xy_mm.tolist(), strict=True)
        if ball_number(lab)
    }
    for o in judgement.orders:
        for lab, xy in zip(o.labels, o.xy_mm, strict=True):
            if ball_number(lab):
                table[lab] = (float(xy[0]), float(xy[1]))
    keep = set(judgement.state.on_table)
    return {lab: xy for lab, xy in table.items() if lab in keep}


def spot_request(spec: TableSpec, shot: Shot, j: Judgement) -> tuple[Call, Order | None]:
    """WPA 1.5 / EST §7.7: with ball in hand behind the head string and every object ball
    behind the head string (centre x before the string; a ball on it is playable, WPA 1.5),
    the ball nearest the string is spotted (WPA 1.4) at the shooter's request. Two equally
    near (within 0.5 mm ⚙): the shooter picks; undeclared, the lower number (``assumed``).
    Otherwise the request is refused with a ``legal`` call: no foul, play on. The cue ball
    is in hand, so it does not block the spot."""
    nxt = j.state
    who = nxt.shooter
    hs_x = float(spec.line("head_string").a_xy_mm[0])
    table = table_after(shot, j)
    evidence: dict[str, Any] = {
        "head_string_x_mm": hs_x,
        "object_balls_x_mm": {lab: round(xy[0], 1) for lab, xy in table.items()},
    }
    reason = ""
    if nxt.winner is not None:
        reason = "the match is over"
    elif nxt.ball_in_hand != "behind_head_string":
        reason = f"{who} does not have ball in hand behind the head string"
    elif not table:
        reason = "no object ball is on the table"
    else:
        ahead = sorted((lab for lab, xy in table.items() if xy[0] >= hs_x), key=ball_number)
        if ahead:
            many = len(ahead) > 1
            reason = f"{', '.join(map(say, ahead))} {'are' if many else 'is'} not behind " \
                "the head string"
    if reason:
        call = Call(shot.number, shot.t_end_s, who, "WPA 1.5", Outcome.LEGAL,
                    f"Request to spot the ball nearest the head string refused: {reason}; "
                    "no foul, play on.", evidence=evidence)
        return call, None
    best = max(xy[0] for xy in table.values())
    tied = sorted((lab for lab, xy in table.items() if best - xy[0] <= 0.5), key=ball_number)
    label = tied[0]
    others = np.array([xy for lab, xy in table.items() if lab != label]).reshape(-1, 2)
    (to,) = spot_positions(spec, others, [label])
    order = Order("spot", (label,), (to,), rule="WPA 1.5")
    call = Call(
        shot.number, shot.t_end_s, who, "WPA 1.5", Outcome.SPOT,
        f"At {who}'s request {say(label)}, the ball nearest the head string, is spotted: "
        "every object ball is behind the string.",
        assumed=len(tied) > 1,
        evidence={**evidence, "ball": label, "tied": tied, "to_xy_mm": list(to),
                  "also": "EST §7.7"},
    )
    return call, order


def replace_shot(shot: Shot, **changes: Any) -> Shot:
    from dataclasses import replace

    return replace(shot, **changes)
