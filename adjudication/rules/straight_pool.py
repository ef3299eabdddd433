"""14.1 straight pool (WPA 4.x + EST, RULES §6): a point per ball on a called shot, −1 for
a foul, −2 for a breaking foul, −15 more on the third foul in a row, illegally pocketed
balls spotted, the 14-ball re-rack and the target score."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from adjudication.calls import Outcome
from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind
from adjudication.games import Game
from adjudication.rules.base import (
    CallBook,
    Judgement,
    MatchState,
    NearRail,
    Order,
    PoolInfo,
    bump,
    ev,
    put,
    refereed,
)
from adjudication.rules.pool_common import (
    CUE,
    D,
    Foul,
    PoolFacts,
    R,
    add_foul_calls,
    object_balls,
    open_judgement,
    rack_order,
    rail_facts,
    remaining,
    say,
    spot_order,
    standard_fouls,
    start_pool,
    with_settled,
    with_spot_request,
)
from adjudication.rules.ten_ball import called_made, called_shot
from adjudication.settings import RuleSettings
from adjudication.shot import Layout, Shot
from calibration.tables import TableSpec


def opening_break_ok(f: PoolFacts, called_ok: bool) -> tuple[bool, str]:
    """WPA 4.3 / EST §6: a called ball pocketed, or the cue ball hits an object ball and
    then the cue ball and at least 2 object balls reach a rail (pocketed/off count, 8.4)."""
    if called_ok:
        return True, ""
    if f.first_contact is None:
        return False, "the cue ball hit no object ball"
    t1 = f.first_contact.t_s
    n = f.rails_count
    if n >= 2 and f.cue_rail_after_contact:
        return True, ""
    return False, (
        f"no called ball was pocketed and only {n} object balls"
        + ("" if f.cue_rail_after_contact else " (and not the cue ball)")
        + f" reached a rail after {t1:.3f} s"
    )


def in_rack_area(spec: TableSpec, xy: np.ndarray | Sequence[float] | None) -> bool:
    """WPA 4.8 'interferes': the ball is inside the rack outline or overlaps it (⚙)."""
    if xy is None:
        return False
    p = np.asarray(xy, dtype=float).reshape(1, 2)
    names = ("rack_left", "rack_right", "rack_base")
    lines = [spec.line(n) for n in names]
    if min(float(line.distance_mm(p)[0]) for line in lines) < R:
        return True
    apex = np.asarray(lines[0].a_xy_mm)
    base_x = lines[2].a_xy_mm[0]
    half = abs(lines[2].a_xy_mm[1])
    x, y = float(p[0, 0]), float(p[0, 1])
    if not apex[0] <= x <= base_x:
        return False
    return abs(y) <= half * (x - apex[0]) / (base_x - apex[0])


def rail_gaps(spec: TableSpec, xy: np.ndarray | Sequence[float]) -> dict[str, float]:
    """The gap (mm) between a ball's edge and each rail's cushion nose, by rail (``head``,
    ``foot``, ``left``, ``right``; a long rail is its two cushions)."""
    p = np.asarray(xy, dtype=float).reshape(2)
    r = spec.object_for("ball_1").radius_mm
    out: dict[str, float] = {}
    for c in spec.cushions:
        a, b = np.asarray(c.a_xy_mm, dtype=float), np.asarray(c.b_xy_mm, dtype=float)
        ab = b - a
        t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-9), 0.0, 1.0))
        gap = float(np.linalg.norm(p - (a + t * ab))) - r
        rail = c.name.split("_")[0]
        out[rail] = min(out.get(rail, math.inf), gap)
    return out


def near_rail_use(
    spec: TableSpec, shot: Shot, f: PoolFacts, frozen: set[str]
) -> tuple[str, str, float, Event] | None:
    """EST §7.2: the shot played a ball lying near a rail to that rail alone. The cue ball's
    first (only) object ball, not declared frozen (WPA 8.4, Reg. 27), lay less than a ball's
    width (the table spec's ball diameter, 57.15 mm) from a rail at the start, and after the contact
    nothing was pocketed or left the table and every rail touch was that ball on that rail:
    the shot met the rail requirement (WPA 6.3) with that ball's own rail alone. Returns
    (ball, rail, gap in mm, the ball's first touch of the rail) or None."""
    if f.first_contact is None or len(f.first_labels) != 1 or f.first_labels[0] in frozen:
        return None
    ball = f.first_labels[0]
    xy = shot.before.by_label(ball)
    if xy is None:
        return None
    width = 2 * spec.object_for(ball).radius_mm
    near = {rail: gap for rail, gap in rail_gaps(spec, xy).items() if gap < width}
    t1 = f.first_contact.t_s
    later = [
        e
        for e in shot.sorted_events(EventKind.CUSHION, EventKind.POCKET, EventKind.OFF_TABLE)
        if e.t_s >= t1 and e.objects
    ]
    if not near or not later:
        return None
    if any(e.kind is not EventKind.CUSHION or e.labels[0] != ball for e in later):
        return None
    rails = {(e.cushion or "").split("_")[0] for e in later}
    if len(rails) != 1 or not rails <= set(near):
        return None
    (rail,) = rails
    return ball, rail, near[rail], later[0]


@dataclass(frozen=True, slots=True)
class NearRailShot:
    """EST §7.2 on one shot: the player's run with this one counted, the ball's gap to the
    rail, its first touch of it, whether the ball counts as frozen now, the facts to judge
    with (the touch dropped when frozen) and whether a foul triggered it (§8.23)."""

    run: NearRail
    gap_mm: float
    touch: Event
    frozen: bool
    facts: PoolFacts
    on_foul: bool

    def foul(self, no_rail: Foul) -> Foul:
        """The WPA 6.3 no-rail foul, as EST §7.2 makes it on this shot."""
        r = self.run
        why = "while he is on a foul" if self.on_foul and r.shots < 3 else (
            f"for the {_nth(r.shots)} time in a row"
        )
        reason = (
            f"{say(r.ball)} lies {self.gap_mm:.0f} mm from the {r.rail} rail and was played to "
            f"that rail alone {why}, so it counts as frozen (WPA 8.4) and its touch of the "
            "rail does not count; no ball was pocketed or driven to a rail"
        )
        evidence = {
            **no_rail.evidence,
            "ball": r.ball,
            "rail": r.rail,
            "gap_mm": round(self.gap_mm, 1),
            "shots_in_a_row": r.shots,
            "rail_touch": ev(self.touch),
        }
        return Foul("EST §7.2", reason, evidence, no_rail.kind, no_rail.doubtful)


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@dataclass(slots=True)
class StraightPoolEngine:
    spec: TableSpec
    settings: RuleSettings = field(default_factory=RuleSettings)
    game: Game = Game.STRAIGHT_POOL

    def reset(self) -> None:
        return None

    def start(self, players: Sequence[str], *, first: int = 0) -> MatchState:
        info = PoolInfo(opening_break=True, target=self.settings.straight_pool_target)
        return start_pool(self.game, players, first, self.spec, info)

    def legal_targets(self, state: MatchState, layout: Layout) -> frozenset[str]:
        return frozenset(object_balls(layout.labels) or object_balls(state.on_table))

    @refereed("WPA")
    @with_spot_request
    @with_settled
    def judge(
        self, state: MatchState, shot: Shot, declaration: Declaration | None = None
    ) -> Judgement:
        assert state.pool is not None
        opening = state.breaking and state.pool.opening_break
        d, book, f = open_judgement(self.spec, self.settings, state, shot, declaration,
                                    first_matters=not opening)
        me, opp = state.turn, 1 - state.turn
        near = None if opening else self._near_rail(state, shot, f, d)
        if near is not None and near.frozen:
            f = near.facts
        fouls = standard_fouls(f, state, shot, targets=None)
        if near is not None and near.frozen:
            fouls = [near.foul(x) if x.kind == "no_rail" else x for x in fouls]
        runs = put(state.pool.near_rail, me, None if near is None else near.run)
        ball, pocket, assumed = called_shot(f, d)
        called_ok, miss_reason = called_made(f, ball, pocket)
        if d.safety:
            called_ok = False
        orders: list[Order] = []
        gone = [*f.pocketed, *f.off_table]

        if opening:
            ok, reason = opening_break_ok(f, called_ok and not fouls)
            if not ok:
                return self._breaking_foul(state, shot, f, d, book, reason, fouls)

        if fouls:
            add_foul_calls(book, fouls)
            scratch = any(x.kind in ("scratch", "cue_off") for x in fouls)
            scores = bump(state.scores, me, -1)
            row = bump(state.fouls_in_a_row, me)
            book.add(
                "WPA 4.9",
                Outcome.POINT,
                f"{state.shooter} loses a point.",
                points=-1,
                score=scores[me],
                warning=f"{state.shooter} is on two fouls: a third in a row costs 15 more "
                "points (WPA 4.11, Reg. 8)"
                if row[me] == 2
                else None,
            )
            o = spot_order(self.spec, shot, object_balls(gone), "WPA 4.6")
            if o:
                orders.append(o)
                book.add(
                    "WPA 4.6",
                    Outcome.SPOT,
                    "Balls spotted: " + ", ".join(map(say, o.labels)) + ".",
                    labels=list(o.labels),
                )
            on_table = object_balls((*remaining(shot), *gone))
            if row[me] >= 3:
                scores = bump(scores, me, -15)
                book.add(
                    "WPA 4.11",
                    Outcome.SERIOUS_FOUL,
                    f"Third foul in a row by {state.shooter}: 15 more points off, re-rack, "
                    f"{state.shooter} breaks.",
                    points=-15,
                    score=scores[me],
                    fouls_in_a_row=row[me],
                )
                rack = rack_order(self.game, self.spec)
                nxt = state.with_(
                    shot=shot.number,
                    scores=scores,
                    fouls_in_a_row=put(row, me, 0),
                    turn=me,
                    breaker=me,
                    breaking=True,
                    ball_in_hand="behind_head_string",
                    on_table=object_balls(rack.labels),
                    rack=state.rack + 1,
                    pool=replace(state.pool, opening_break=True, near_rail=(None, None)),
                )
                return Judgement(tuple(book.calls), nxt, (rack,))
            bih = "behind_head_string" if scratch else None
            book.add(
                "EST §10" if scratch else "WPA 4.9",
                Outcome.BALL_IN_HAND if scratch else Outcome.LOSS_OF_TURN,
                f"{state.players[opp]} has ball in hand behind the head string."
                if scratch
                else f"{state.players[opp]} plays the cue ball where it lies.",
                player=state.players[opp],
            )
            nxt = state.with_(
                shot=shot.number,
                scores=scores,
                fouls_in_a_row=row,
                turn=opp,
                ball_in_hand=bih,
                breaking=False,
                on_table=on_table,
                pool=replace(state.pool, opening_break=False, near_rail=runs),
            )
            return Judgement(tuple(book.calls), nxt, tuple(orders))

        # Legal shot: the foul counter clears (6.14, EST §12).
        row = put(state.fouls_in_a_row, me, 0)
        scores = state.scores
        common = dict(
            first_contact=ev(f.first_contact),
            pocketed=list(f.pocketed),
            pockets=dict(f.pockets),
            called_ball=ball,
            called_pocket=pocket,
        )
        book.add(
            "WPA 4.3" if opening else "WPA 8.2",
            Outcome.LEGAL,
            "Legal break." if opening else ("Legal safety." if d.safety else "Legal shot."),
            assumed=assumed and bool(f.pocketed) and not d.safety,
            rails_count=f.rails_count,
            **common,
        )
        spot: list[str] = []
        if called_ok:
            pts = len(f.pocketed)
            scores = bump(scores, me, pts)
            book.add(
                "WPA 4.7",
                Outcome.POINT,
                f"{say(ball or '').capitalize()} in the {pocket}: {pts} point"
                + ("s" if pts != 1 else "")
                + f" to {state.shooter}, who continues.",
                assumed=assumed,
                points=pts,
                score=scores[me],
            )
            turn = me
        else:
            spot = list(f.pocketed)
            if d.safety:
                text = f"Safety; {state.players[opp]} to shoot."
            elif f.pocketed:
                text = f"Inning ends: {miss_reason}; balls are spotted."
            else:
                text = f"Nothing pocketed; {state.players[opp]} to shoot."
            book.add("EST §7.4" if d.safety else "WPA 4.4", Outcome.LOSS_OF_TURN, text, **common)
            turn = opp
        spot += list(f.off_table)
        o = spot_order(self.spec, shot, object_balls(spot), "WPA 4.6")
        if o:
            orders.append(o)
            book.add(
                "WPA 4.6",
                Outcome.SPOT,
                "Balls spotted: " + ", ".join(map(say, o.labels)) + ".",
                labels=list(o.labels),
            )
        on_table = object_balls((*remaining(shot), *spot))
        bih = None
        if called_ok and len(on_table) <= 1:
            more, on_table, bih = self._rerack(shot, on_table, book)
            orders += more
        nxt = state.with_(
            shot=shot.number,
            scores=scores,
            fouls_in_a_row=row,
            turn=turn,
            ball_in_hand=bih,
            breaking=False,
            on_table=on_table,
            pool=replace(state.pool, opening_break=False, near_rail=runs),
        )
        if scores[me] >= self.settings.straight_pool_target:
            book.add(
                "WPA 4.4",
                Outcome.MATCH_WIN,
                f"{state.shooter} reaches {scores[me]} and wins the match.",
                score=scores[me],
                target=self.settings.straight_pool_target,
            )
            nxt = nxt.with_(winner=me, turn=me)
        return Judgement(tuple(book.calls), nxt, tuple(orders))

    def _near_rail(
        self, state: MatchState, shot: Shot, f: PoolFacts, d: Declaration
    ) -> NearRailShot | None:
        """EST §7.2 (``RuleSettings.est_near_rail``): this shot's near-rail use and, on the
        player's third in a row at that ball and rail (or, with ``est_near_rail_trigger``
        "after_foul", any while he is on a foul), the facts with the ball counted as frozen
        (WPA 8.4): its first touch of its own rail is not "driven to a rail"."""
        if not self.settings.est_near_rail:
            return None
        use = near_rail_use(self.spec, shot, f, set(d.frozen))
        if use is None:
            return None
        ball, rail, gap, touch = use
        me = state.turn
        assert state.pool is not None
        run = state.pool.near_rail[me] if me < len(state.pool.near_rail) else None
        prior = run.shots if run is not None and (run.ball, run.rail) == (ball, rail) else 0
        on_foul = self.settings.est_near_rail_trigger == "after_foul" and (
            state.fouls_in_a_row[me] >= 1
        )
        frozen = prior >= 2 or on_foul
        facts = f
        if frozen:
            assert f.first_contact is not None
            first, n, cue_rail = rail_facts(shot, f.first_contact.t_s, set(d.frozen), (touch,))
            facts = replace(
                f, rail_after_contact=first, rails_count=n, cue_rail_after_contact=cue_rail
            )
        return NearRailShot(NearRail(ball, rail, prior + 1), gap, touch, frozen, facts, on_foul)

    def _rerack(
        self, shot: Shot, on_table: tuple[str, ...], book: CallBook
    ) -> tuple[list[Order], tuple[str, ...], str | None]:
        """WPA 4.4/4.8 (RULES §6.4): 14 balls racked with the apex empty, and the re-rack
        table for the 15th ball (BB) and the cue ball (CB):

        - BB pocketed with the 14th: all 15 racked; CB in the rack area -> BIH-HS (W5).
        - BB in the rack area: CB in it too -> all 15, BIH-HS (4.8b); CB on the head spot ->
          BB to the centre spot; else BB to the head spot (4.8c).
        - BB clear of the rack, CB in the rack area: BB behind the head string -> CB to the
          head spot (centre spot if blocked); BB on the string -> BIH-HS or the centre spot
          (``rerack_string_ball_cue``, §8.19); BB in front -> BIH-HS (4.8d).
        - Otherwise both stay. Returns (orders, balls on the table, ball in hand)."""
        full = rack_order(self.game, self.spec)
        spots = self.spec.spots
        head = (float(spots["head_spot"][0]), float(spots["head_spot"][1]))
        centre = (float(spots["centre_spot"][0]), float(spots["centre_spot"][1]))
        hs_x = float(self.spec.line("head_string").a_xy_mm[0])
        cue = shot.after.by_label(CUE)
        cue_in = in_rack_area(self.spec, cue)
        cue_on_head = cue is not None and math.dist(tuple(cue), head) < R / 2
        orders: list[Order] = []
        bih = "behind_head_string" if cue_in else None
        all15 = replace(full, rule="WPA 4.8")
        if not on_table:
            book.add(
                "WPA 4.8",
                Outcome.REPLAY,
                "The 15th ball went down with the 14th: all 15 balls are re-racked"
                + ("; ball in hand behind the head string." if cue_in else "."),
                on_table=[],
                cue_ball_in_rack_area=cue_in,
            )
            return [all15], object_balls(full.labels), bih
        last = on_table[0]
        last_xy = shot.after.by_label(last)
        bb_in = in_rack_area(self.spec, last_xy)
        evidence = {
            "last_ball": last,
            "last_ball_xy_mm": None if last_xy is None else [float(v) for v in last_xy],
            "cue_ball_xy_mm": None if cue is None else [float(v) for v in cue],
            "last_ball_in_rack_area": bb_in,
            "cue_ball_in_rack_area": cue_in,
        }
        if bb_in and cue_in:
            book.add(
                "WPA 4.8",
                Outcome.REPLAY,
                f"{say(last).capitalize()} and the cue ball are both in the rack area: all 15 "
                "balls are re-racked; ball in hand behind the head string.",
                **evidence,
            )
            return [all15], object_balls(full.labels), "behind_head_string"
        apex = (float(spots["foot_spot"][0]), float(spots["foot_spot"][1]))
        slots = [p for p in full.xy_mm if math.dist(p, apex) > 1e-6]
        labels = [lab for lab in object_balls(full.labels) if lab != last]
        orders.append(Order("rerack", tuple(labels), tuple(slots), rule="WPA 4.4"))
        book.add(
            "WPA 4.4",
            Outcome.REPLAY,
            f"One ball left: the other 14 are re-racked with the apex empty; {say(last)} stays.",
            last_ball=last,
        )
        balls = object_balls((*labels, last))
        if bb_in:
            to = centre if cue_on_head else head
            where = "centre spot" if cue_on_head else "head spot"
            orders.append(Order("spot", (last,), (to,), rule="WPA 4.8"))
            book.add(
                "WPA 4.8",
                Outcome.SPOT,
                f"{say(last).capitalize()} is in the rack area and goes to the {where}.",
                **evidence,
            )
            return orders, balls, None
        if not cue_in:
            return orders, balls, None
        assert last_xy is not None
        bx = float(last_xy[0])
        on_string = abs(bx - hs_x) < 0.5  # WPA 8.13: the centre on the line (⚙ 0.5 mm)
        if bx < hs_x and not on_string:
            to = head if math.dist(tuple(last_xy), head) >= D else centre
            where = "head spot" if to == head else "centre spot"
            orders.append(Order("spot", (CUE,), (to,), rule="WPA 4.8"))
            book.add(
                "WPA 4.8",
                Outcome.SPOT,
                f"The cue ball is in the rack area and {say(last)} is behind the head string: "
                f"the cue ball goes to the {where}.",
                **evidence,
            )
            return orders, balls, None
        if on_string and self.settings.rerack_string_ball_cue == "centre_spot":
            orders.append(Order("spot", (CUE,), (centre,), rule="WPA 4.8"))
            book.add(
                "WPA 4.8",
                Outcome.SPOT,
                f"The cue ball is in the rack area and {say(last)} is on the head string: "
                "the cue ball goes to the centre spot (BCA table, §8.19).",
                **evidence,
            )
            return orders, balls, None
        book.add(
            "WPA 4.8",
            Outcome.BALL_IN_HAND,
            "The cue ball is in the rack area: ball in hand behind the head string.",
            **evidence,
        )
        return orders, balls, "behind_head_string"

    def _breaking_foul(
        self,
        state: MatchState,
        shot: Shot,
        f: PoolFacts,
        d: Declaration,
        book: CallBook,
        reason: str,
        fouls: list,
    ) -> Judgement:
        me, opp = state.turn, 1 - state.turn
        assert state.pool is not None
        scores = bump(state.scores, me, -2)
        book.add(
            "WPA 4.3",
            Outcome.FOUL,
            f"Breaking foul: {reason}; 2 points off.",
            points=-2,
            score=scores[me],
            rails_count=f.rails_count,
            cue_ball_to_rail=f.cue_rail_after_contact,
            first_contact=ev(f.first_contact),
            also=[x.rule for x in fouls],
        )
        if d.option == "rebreak":
            rack = rack_order(self.game, self.spec)
            book.add(
                "WPA 4.10",
                Outcome.REPLAY,
                f"{state.players[opp]} has {state.shooter} break again.",
                player=state.players[opp],
            )
            nxt = state.with_(
                shot=shot.number,
                scores=scores,
                turn=me,
                breaking=True,
                ball_in_hand="behind_head_string",
                on_table=object_balls(rack.labels),
            )
            return Judgement(tuple(book.calls), nxt, (rack,))
        gone = [*f.pocketed, *f.off_table]
        orders: list[Order] = []
        o = spot_order(self.spec, shot, object_balls(gone), "WPA 4.6")
        if o:
            orders.append(o)
        scratch = f.scratch is not None or f.cue_off is not None
        book.add(
            "WPA 4.10",
            Outcome.LOSS_OF_TURN,
            f"{state.players[opp]} accepts the table.",
            assumed=d.option is None,
            option=d.option or "accept",
            player=state.players[opp],
        )
        nxt = state.with_(
            shot=shot.number,
            scores=scores,
            turn=opp,
            breaking=False,
            ball_in_hand="behind_head_string" if scratch else None,
            on_table=object_balls((*remaining(shot), *gone)),
            pool=replace(state.pool, opening_break=False),
        )
        return Judgement(tuple(book.calls), nxt, tuple(orders))
