"""WPA 1.2, the lag for the break (RULES §2.4), judged from one lag shot.

A lag shot is one ``Shot`` holding two strokes: a ``shot_start`` event per lag ball, both
balls played from behind the head string to the foot cushion and back. ``judge_lag`` is
pure: it returns the calls and who won (or that the players lag again); what follows (the
rack, the break) is the caller's business (``adjudication.replay``).

Whose ball is whose: the two balls are told apart by the side of the long string they are
struck from. ``players[0]`` lags the ball on the right half (y < 0; right as seen by a player
at the head rail looking at the foot), ``players[1]`` the ball on the left half (y > 0). Two
balls on the same half, or fewer or more than two struck balls, are not a lag
(``ValueError``).

A lag is bad (the letters are RULES.md's) when the ball
  (a) crosses the long string, here the whole lengthwise centre line y = 0: its centre is seen
      on the other half at any event position (cushion, contact, pocket, off table, line
      crossing) or where it rests, a ``line_cross`` of ``long_string`` is reported, or it
      touches a cushion or pocket named for the other side. Between events a ball runs
      straight, so this misses only a swerved (massé) path that crosses and comes back
      between two events; the event detector reports no long-string crossings itself;
  (b) touches the foot cushion other than exactly once (``cushion`` events named ``foot``);
  (c) is pocketed or leaves the table (``pocket``/``off_table`` events);
  (d) touches a side cushion (``left_head``, ``left_foot``, ``right_head``, ``right_foot``);
  (e) comes to rest in a head corner pocket's jaws past the nose of the head cushion: its edge
      lies beyond the nose line x = -L/2 by more than ``RuleSettings.lag_tie_mm``.
Touching the head cushion on the way back is allowed. The other bad-lag clause of WPA 1.2
(a foul not involving an object ball) needs the referee (``Declaration.overrule``).

The winner is the good lag whose ball rests closest to the head cushion, measured as the gap
from the ball's edge to the head cushion's nose line (0 mm when frozen to it). The players
lag again (a ``replay`` call) when the later ball was struck after the earlier one had first
reached the foot cushion, when both lags are bad, or when two good lags rest within
``RuleSettings.lag_tie_mm`` of each other.

The winner chooses who breaks (WPA 2.1): ``Declaration.option`` on the lag shot is
``break_self`` or ``break_opponent``; without one the winner breaks and the winner's call is
``assumed``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudication.calls import Call, Outcome
from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind
from adjudication.rules.base import (
    calibration_review,
    declared,
    doubt_evidence,
    doubtful,
    ev,
    overruled,
)
from adjudication.settings import RuleSettings
from adjudication.shot import Shot
from calibration.tables import TableSpec

RULE = "WPA 1.2"
SIDE_CUSHIONS = frozenset({"left_head", "left_foot", "right_head", "right_foot"})
LAG_CHOICES = frozenset({"break_self", "break_opponent"})
FAULTS = {
    "a": "crossed the long string",
    "b": "touched the foot cushion {n} times",
    "c": "was pocketed or left the table",
    "d": "touched a side cushion",
    "e": "came to rest past the nose of the head cushion",
}


@dataclass(frozen=True, slots=True)
class LagBall:
    """What one player's lag ball did: ``head_gap_mm`` from its edge to the head cushion's
    nose where it rests (None when it left the bed), and the faults a–e it committed."""

    player: int
    id: int
    label: str
    side: str  # "right" (y < 0) or "left" (y > 0)
    struck_s: float
    foot_cushion_s: float | None  # first touch of the foot cushion
    foot_cushions: int
    head_gap_mm: float | None
    faults: tuple[str, ...]
    deciding: tuple[Event, ...]  # the events behind the faults

    @property
    def good(self) -> bool:
        return not self.faults

    def fault_text(self) -> str:
        return ", ".join(FAULTS[f].format(n=self.foot_cushions) for f in self.faults)

    def evidence(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "side": self.side,
            "struck_s": self.struck_s,
            "foot_cushion_s": self.foot_cushion_s,
            "foot_cushions": self.foot_cushions,
            "head_gap_mm": self.head_gap_mm,
            "faults": list(self.faults),
            "fault_events": [ev(e) for e in self.deciding],
        }


@dataclass(frozen=True, slots=True)
class LagResult:
    """The lag's calls; ``winner`` and ``breaker`` are player indices (None on a re-lag)."""

    calls: tuple[Call, ...]
    winner: int | None
    relag: bool
    breaker: int | None
    balls: tuple[LagBall, ...] = ()


# ------------------------------------------------------------------------------ facts


def _strokes(shot: Shot) -> list[Event]:
    """The two strokes in time order, one per ball; ``ValueError`` when it is not two."""
    seen: dict[int, Event] = {}
    for e in shot.sorted_events(EventKind.SHOT_START):
        if e.objects and e.objects[0].id not in seen:
            seen[e.objects[0].id] = e
    if len(seen) != 2:
        raise ValueError(f"a lag has two struck balls, this shot has {len(seen)}")
    return sorted(seen.values(), key=lambda e: e.t_s)


def _start_xy(shot: Shot, stroke: Event) -> tuple[float, float]:
    """Where the ball was struck: the ``shot_start`` position, else the ``before`` layout's."""
    xy = shot.before.by_id(stroke.objects[0].id)
    if stroke.xy_mm[1] != 0.0 or xy is None:
        return stroke.xy_mm
    return float(xy[0]), float(xy[1])


def lag_ball(
    shot: Shot, spec: TableSpec, stroke: Event, player: int, settings: RuleSettings
) -> LagBall:
    """One ball's lag: faults a–e (module docstring) and where it rests."""
    obj = stroke.objects[0]
    x0, y0 = _start_xy(shot, stroke)
    if y0 == 0.0:
        raise ValueError(f"lag ball {obj.label} (id {obj.id}) starts on the long string")
    side, other = ("left", "right") if y0 > 0 else ("right", "left")
    sign = 1.0 if y0 > 0 else -1.0
    mine = [
        e
        for e in shot.sorted_events()
        if e.objects and e.objects[0].id == obj.id and e.kind is not EventKind.SHOT_START
        and e.kind is not EventKind.SHOT_END
    ]
    foot = [e for e in mine if e.kind is EventKind.CUSHION and e.cushion == "foot"]
    sides = [e for e in mine if e.kind is EventKind.CUSHION and e.cushion in SIDE_CUSHIONS]
    gone = [e for e in mine if e.kind.removes_object()]
    crossed = [
        e
        for e in mine
        if e.xy_mm[1] * sign < 0
        or (e.kind is EventKind.LINE_CROSS and e.line == "long_string")
        or (e.cushion or e.pocket or "").startswith(other)
        or (e.pocket or "").endswith(other)
    ]
    rest = shot.after.by_id(obj.id)
    r = spec.object_for(obj.label).radius_mm
    gap = None
    if not gone:
        if rest is None:
            raise ValueError(f"where lag ball {obj.label} (id {obj.id}) came to rest is not known")
        gap = float(rest[0]) + spec.half_wh_mm[0] - r
    faults: list[str] = []
    deciding: list[Event] = []
    if crossed or (rest is not None and not gone and float(rest[1]) * sign < 0):
        faults.append("a")
        deciding += crossed[:1]
    if len(foot) != 1:
        faults.append("b")
        deciding += foot[1:2]
    if gone:
        faults.append("c")
        deciding += gone[:1]
    if sides:
        faults.append("d")
        deciding += sides[:1]
    if gap is not None and gap < -settings.lag_tie_mm:
        faults.append("e")
    return LagBall(
        player=player,
        id=obj.id,
        label=obj.label,
        side=side,
        struck_s=stroke.t_s,
        foot_cushion_s=foot[0].t_s if foot else None,
        foot_cushions=len(foot),
        head_gap_mm=None if gap is None else round(gap, 1),
        faults=tuple(faults),
        deciding=tuple(dict.fromkeys(deciding)),
    )


def _gap(ball: LagBall) -> float:
    """A good lag's gap to the head cushion (a good lag ball is on the bed)."""
    return math.inf if ball.head_gap_mm is None else ball.head_gap_mm


def _mm(ball: LagBall) -> str:
    return "off the bed" if ball.head_gap_mm is None else f"{ball.head_gap_mm:.0f} mm"


# ------------------------------------------------------------------------------ judge


def judge_lag(
    shot: Shot,
    spec: TableSpec,
    players: Sequence[str],
    settings: RuleSettings | None = None,
    declaration: Declaration | None = None,
) -> LagResult:
    """WPA 1.2: judge one lag shot (module docstring). ``ValueError`` when the shot is not a
    lag (not two struck balls, one on each half) or the option is not a lag choice."""
    s = settings if settings is not None else RuleSettings()
    d = declared(declaration)
    if len(players) != 2:
        raise ValueError(f"a lag is between 2 players, got {len(players)}")
    if d.option is not None and d.option not in LAG_CHOICES:
        raise ValueError(
            f"option {d.option!r} is not a lag winner's choice; use "
            + " or ".join(sorted(LAG_CHOICES))
        )
    strokes = _strokes(shot)
    sides = sorted(strokes, key=lambda e: _start_xy(shot, e)[1])  # y < 0 first: players[0]
    balls = {e.objects[0].id: lag_ball(shot, spec, e, k, s) for k, e in enumerate(sides)}
    by_player = sorted(balls.values(), key=lambda b: b.player)
    if by_player[0].side == by_player[1].side:
        raise ValueError("the two lag balls must start on either side of the long string")
    first, second = (balls[e.objects[0].id] for e in strokes)
    evidence: dict[str, Any] = {
        "lags": {players[b.player]: b.evidence() for b in by_player},
        "tie_mm": s.lag_tie_mm,
    }
    calls: list[Call] = []

    def add(player: int, outcome: Outcome, text: str, *, assumed: bool = False,
            **extra: Any) -> None:
        calls.append(
            Call(shot.number, shot.t_end_s, players[player], RULE, outcome, text, assumed,
                 {**evidence, **extra})
        )

    weak = doubtful((e for b in by_player for e in b.deciding), s.review_below)
    if weak:
        add(0, Outcome.REVIEW, "Referee to confirm the lag: an event that decides it is "
            "doubtful.", **doubt_evidence(weak))
    ok, reason = calibration_review(shot, "WPA")
    if not ok:
        add(0, Outcome.REVIEW, "Referee to confirm the lag: the table was not seen well "
            "enough during it.", calibration_untrusted=True)

    winner: int | None = None
    breaker: int | None = None
    good = [b for b in by_player if b.good]
    if first.foot_cushion_s is not None and second.struck_s > first.foot_cushion_s:
        late, early = players[second.player], players[first.player]
        add(second.player, Outcome.REPLAY,
            f"Re-lag: {late} struck after {early}'s ball had reached the foot cushion.",
            reason="late_stroke")
    elif not good:
        add(0, Outcome.REPLAY,
            f"Re-lag: both lags are bad ({players[0]}'s ball {by_player[0].fault_text()}; "
            f"{players[1]}'s ball {by_player[1].fault_text()}).", reason="both_bad")
    elif len(good) == 2 and abs(_gap(good[0]) - _gap(good[1])) <= s.lag_tie_mm:
        add(0, Outcome.REPLAY,
            f"Re-lag: the balls rest {_mm(good[0])} and {_mm(good[1])} from the head "
            f"cushion, too close to tell apart.", reason="tie")
    else:
        win = min(good, key=_gap)
        lose = by_player[1 - win.player]
        winner = win.player
        breaker = winner if d.option in (None, "break_self") else 1 - winner
        w, other = players[winner], players[lose.player]
        how = (
            f"{other}'s lag is bad: the ball {lose.fault_text()}"
            if lose.faults
            else f"the ball rests {_mm(win)} from the head cushion, {other}'s {_mm(lose)}"
        )
        chose: dict[str, Any] = {"breaker": players[breaker], "choice": d.option}
        add(winner, Outcome.LEGAL, f"{w} wins the lag ({how}) and {players[breaker]} breaks.",
            assumed=d.option is None, **chose)
        lost = (
            f"{other} loses the lag: bad lag, the ball {lose.fault_text()}."
            if lose.faults
            else f"{other} loses the lag: the ball rests {_mm(lose)} from the head cushion."
        )
        add(lose.player, Outcome.LOSS_OF_TURN, lost, **chose)

    out = tuple(calls)
    if d.overrule:
        out = overruled(out, shot, players[0], d)
    return LagResult(out, winner, winner is None, breaker, tuple(by_player))
