"""Novuss singles and doubles (RULES §1): dark/light pawns by the hole test, correct and
penalized shots (N1–N11, N13, N14), turn and series (N16–N19), puck placement touches
(N20–N22), penalty pawns placed on the penalized player's target row (S0 §17.3) or owed
as debt, off-table pawns to the central circle (E5), sets and the match (N31, N32); the
puck's place before the stroke (§19.1.а warning, §16.1.ж set opened out of order) and the
warnings count (§15.3: the 3rd loses the sets not yet played).

Seating. Singles: player 0 (A) at cushion ``a`` (y = -L/2) plays toward ``b``; player 1 at
``b``. Doubles: protocol order 0, 1, 2, 3 sits clockwise as seen from above at ``a``,
``left``, ``b``, ``right``: partners face each other (pair 1 = players 0 and 2 at a/b,
pair 2 = players 1 and 3 at left/right), and play goes clockwise 0 → 1 → 2 → 3. Colours:
the first player's side is red by default. Pawns at rail ``s`` have the colour of the
player sitting opposite ``s`` (his target row). After a set, singles players swap sides;
doubles players move one place clockwise. The first shot of each set belongs to whoever
sits at the first player's starting side (S0 §21.1 for doubles; alternation in singles,
§8.10, or the same player every set with ``novuss_set_opener="protocol_first"``). The
turn at a set's first shot is the protocol's word: a stream that names another opener moves
the first-shot side with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from adjudication.calls import Outcome
from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind
from adjudication.games import Game
from adjudication.rules.base import (
    CallBook,
    Check,
    Judgement,
    MatchState,
    NovussInfo,
    Order,
    declared,
    doubt_evidence,
    doubtful,
    ev,
    put,
    refereed,
    shot_clock_ok,
    shot_time_evidence,
)
from adjudication.settings import RuleSettings
from adjudication.shot import Layout, Shot
from calibration.tables import TableSpec

PUCK = "puck"
SIDES_CLOCKWISE = ("a", "left", "b", "right")
OPPOSITE = {"a": "b", "b": "a", "left": "right", "right": "left"}
PAWNS_PER_PLAYER = 8


def pawn_label(colour: str) -> str:
    return f"{colour}_pawn"


def other_colour(colour: str) -> str:
    return "black" if colour == "red" else "red"


@dataclass(frozen=True, slots=True)
class NovussGeometry:
    """The board in the numbers the rules ask about, read from the table spec."""

    half_mm: float
    zone_mm: float  # distance of the zone-line centre from the table centre
    circle_mm: float
    line_half_mm: float
    pawn_r_mm: float
    pawn_hole_mm: float
    puck_r_mm: float
    puck_hole_mm: float
    normals: dict[str, tuple[float, float]]

    @classmethod
    def from_spec(cls, spec: TableSpec) -> NovussGeometry:
        zone = spec.line("zone_a")
        circle = spec.line("circle")
        pawn, puck = spec.objects["pawn"], spec.objects["puck"]
        return cls(
            half_mm=spec.half_wh_mm[1],
            zone_mm=abs(zone.a_xy_mm[1]),
            circle_mm=circle.radius_mm,
            line_half_mm=zone.width_mm / 2,
            pawn_r_mm=pawn.radius_mm,
            pawn_hole_mm=pawn.hole_radius_mm,
            puck_r_mm=puck.radius_mm,
            puck_hole_mm=puck.hole_radius_mm,
            normals={c.name: c.normal_xy for c in spec.cushions},
        )

    def depth(self, side: str, xy: np.ndarray) -> np.ndarray:
        """How far toward rail ``side`` each point lies, from the table centre (mm)."""
        n = np.asarray(self.normals[side])
        return -(np.asarray(xy, dtype=float).reshape(-1, 2) @ n)

    def lateral(self, side: str, xy: np.ndarray) -> np.ndarray:
        """Position along rail ``side``, positive to the right of a player standing there."""
        nx, ny = self.normals[side]
        return np.asarray(xy, dtype=float).reshape(-1, 2) @ np.array([ny, -nx])

    def point(self, side: str, depth: float, lateral: float) -> tuple[float, float]:
        nx, ny = self.normals[side]
        return (-nx * depth + ny * lateral, -ny * depth - nx * lateral)

    def dark(
        self, side: str, xy: np.ndarray, corner_squares: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """RULES §1.3 hole test for pawns: (dark, margin beyond the zone line, |c|).

        Dark in the strip ⇔ the centre lies beyond the own zone line by more than the line's
        half width plus the hole radius; dark in the circle ⇔ |c| < r − half width − hole."""
        p = np.asarray(xy, dtype=float).reshape(-1, 2)
        clear = self.line_half_mm + self.pawn_hole_mm
        beyond = self.depth(side, p) - self.zone_mm
        strip = beyond > clear
        if not corner_squares:
            strip &= np.abs(self.lateral(side, p)) < self.zone_mm - clear
        r = np.linalg.norm(p, axis=1)
        return strip | (r < self.circle_mm - clear), beyond, r

    def puck_in_zone(self, side: str, xy: np.ndarray) -> bool:
        """The own zone line no longer shows through the puck's hole (N19)."""
        beyond = float(self.depth(side, xy)[0]) - self.zone_mm
        return beyond > self.line_half_mm + self.puck_hole_mm

    def puck_breach(self, side: str, xy: np.ndarray) -> tuple[float, bool]:
        """RULES §1.4 / S0 §19.1.а: the puck placed for a player at rail ``side`` lies between
        his zone line and his rail and between the two side lines (the zone lines of the
        adjacent rails), none of them showing through its hole: the hole test of the pawns'
        dark status (§1.3, ``dark``) with the puck's hole. Returns ``(breach_mm,
        line_in_hole)``: how far the centre lies outside that area (<= 0: placed correctly;
        for L = 1000 side ``a``: c.y <= -375.6 and |c.x| <= 364.4) and whether one of those
        lines lies under the hole (else the puck is wholly outside the area)."""
        p = np.asarray(xy, dtype=float).reshape(-1, 2)[:1]
        clear = self.line_half_mm + self.puck_hole_mm
        beyond = float(self.depth(side, p)[0]) - self.zone_mm  # past the own zone line
        inside = self.zone_mm - abs(float(self.lateral(side, p)[0]))  # within the side lines
        breach = max(clear - beyond, clear - inside)
        shows = (abs(beyond) < clear and inside > -clear) or (
            abs(inside) < clear and beyond > -clear
        )
        return breach, shows

    def zone_holders(self, sides: Sequence[str], xy: np.ndarray) -> tuple[int, ...]:
        """The players (indices into ``sides``) whose edge zone holds the puck centre, i.e.
        whose zone line it lies beyond; in doubles a corner square belongs to two."""
        return tuple(
            p for p, s in enumerate(sides) if float(self.depth(s, xy)[0]) > self.zone_mm
        )

    def start_row(self, side: str) -> list[tuple[float, float]]:
        """8 pawns touching rail ``side`` and each other, 4 each side of its middle line."""
        d = self.half_mm - self.pawn_r_mm
        step = 2 * self.pawn_r_mm
        return [self.point(side, d, (k + 0.5) * step * s) for s in (-1, 1) for k in range(4)]


# -------------------------------------------------------------------------- predicates


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    text: str
    evidence: dict[str, Any]
    doubtful: tuple[Event, ...] = ()  # deciding events seen with too little confidence


@dataclass(frozen=True, slots=True)
class NovussFacts:
    side: str
    own: str  # own pawn label
    opp: str
    light_ids: frozenset[int]
    dark_ids: frozenset[int]
    puck_path: tuple[Event, ...]  # puck contacts and cushions, in time order
    puck_pawns: tuple[tuple[Event, int, str], ...]  # (contact, pawn id, pawn label)
    before: Layout
    circle_ids: frozenset[int]  # own pawns lying in the central circle at shot start
    own_zone_ids: frozenset[int] = frozenset()  # §8.24: pawns in the shooter's own edge zone

    @property
    def has_light(self) -> bool:
        return bool(self.light_ids)


def _other(e: Event) -> tuple[int, str] | None:
    for o in e.objects:
        if o.label != PUCK:
            return o.id, o.label
    return None


def first_pawns(f: NovussFacts, window_s: float, start: int = 0) -> list[tuple[Event, int, str]]:
    """The pawn contact(s) of the puck at path index ``start`` (simultaneous ones included)."""
    path = f.puck_path[start:]
    if not path or path[0].kind is not EventKind.CONTACT:
        return []
    t0 = path[0].t_s
    return [c for c in f.puck_pawns if t0 <= c[0].t_s <= t0 + window_s]


def classify(f: NovussFacts, window_s: float) -> tuple[str, list[Violation]]:
    """Direct / rebound / side-rail / none, and the penalized-shot violations (N1–N9)."""
    opposite = OPPOSITE[f.side]
    out: list[Violation] = []
    if not f.puck_path:
        if f.has_light:
            out.append(Violation("Novuss 17.1.а", "the puck touched nothing", {}))
        else:
            out.append(Violation("Novuss 17.1.е", "the puck did not reach the opposite rail", {}))
        return "none", out
    first = f.puck_path[0]
    if first.kind is EventKind.CONTACT:
        out += _direct(f, first_pawns(f, window_s), opposite)
        return "direct", out
    if first.cushion == opposite:
        return "rebound", _rebound(f, 1)
    # side (or own) rail first
    nxt = f.puck_path[1] if len(f.puck_path) > 1 else None
    if nxt is not None and nxt.kind is EventKind.CUSHION and nxt.cushion == opposite:
        return "side_rail", _rebound(f, 2)
    if nxt is not None and nxt.kind is EventKind.CONTACT:
        hit = _other(nxt)
        if hit is not None and hit[1] == f.own and hit[0] in f.circle_ids:
            return "side_rail", []
    reason = "after the side rail the puck did not touch an own pawn in the circle"
    return "side_rail", [Violation("Novuss 17.1.и", reason, {"next": ev(nxt)})]


def _direct(f: NovussFacts, hits: list[tuple[Event, int, str]], opposite: str) -> list[Violation]:
    out: list[Violation] = []
    opp = [h for h in hits if h[2] == f.opp]
    dark = [h for h in hits if h[1] in f.dark_ids]
    evid = {"first_contact": [ev(h[0]) for h in hits], "pawn_ids": [h[1] for h in hits]}
    if opp:
        text = "the puck hit an opponent's pawn first"
        if len(hits) > len(opp):
            text = "the puck hit an own and an opponent's pawn at once"
        out.append(Violation("Novuss 17.1.б", text, evid))
    if dark:
        out.append(Violation("Novuss 17.1.з", "the puck hit an own dark pawn first", evid))
    ok, reason = own_zone_first_ok(f, hits)
    if not ok:
        out.append(Violation("Novuss 17.1.а", reason, evid))
    if not f.has_light and not out:
        out.append(
            Violation("Novuss 17.1.е", "all own pawns are dark: the puck must rebound", evid)
        )
    return out


def first_tie_settled(f: NovussFacts, window_s: float, doubt: tuple[Event, ...]) -> bool:
    """Whether a doubtful first contact is only a tie between pawns the puck met at once (a
    row's junction, within ``window_s``), each of which alone makes the same shot (E2: the
    same §17.1 items): then the class does not rest on which came first."""
    hits = first_pawns(f, window_s)
    if len(hits) < 2 or any(all(e is not h[0] for h in hits) for e in doubt):
        return False
    opposite = OPPOSITE[f.side]
    return len({tuple(v.rule for v in _direct(f, [h], opposite)) for h in hits}) == 1


def own_zone_first_ok(f: NovussFacts, hits: list[tuple[Event, int, str]]) -> Check:
    """§8.24 (E2–E4 item l): the puck's first pawn must not lie in the shooter's own edge
    zone. An own dark pawn there is §17.1.з already; own light and opponent pawns count."""
    bad = [h for h in hits if h[1] in f.own_zone_ids and h[1] not in f.dark_ids]
    return not bad, "the puck hit a pawn lying in the own edge zone first"


def driven_into_dark(
    before: Layout, after: Layout, label: str, dark_of: Any
) -> tuple[list[int], list[int]]:
    """N15 / §17.1.ф / §21.4: pawns of ``label`` not in an owner's dark area at the start and
    in it at rest. ``dark_of(xy)`` gives (in the strip, in the circle) for one position.
    Returns (ids driven into the circle, ids driven into the rear strip)."""
    circle, strip = [], []
    for pid, lab in zip(before.ids.tolist(), before.labels, strict=True):
        xy = after.by_id(pid)
        if lab != label or xy is None:
            continue
        s0, c0 = dark_of(before.by_id(pid))
        s1, c1 = dark_of(xy)
        if c1 and not (s0 or c0):
            circle.append(pid)
        elif s1 and not (s0 or c0):
            strip.append(pid)
    return circle, strip


def start_row_intact(geo: NovussGeometry, layout: Layout, rail: str, tol_mm: float) -> bool:
    """§21.6: every spot of the start row at ``rail`` still holds a pawn (none moved)."""
    pawns = layout.xy_mm[[lab.endswith("_pawn") for lab in layout.labels]] if len(layout) else []
    if not len(pawns):
        return False
    return all(
        float(np.min(np.linalg.norm(np.asarray(pawns) - np.asarray(p), axis=1))) <= tol_mm
        for p in geo.start_row(rail)
    )


def broken_puck(shot: Shot) -> tuple[bool, list[Event], bool]:
    """N12 (S0 §17.1.с): two puck objects at once mean the puck broke. Returns (broke, the
    lost parts' pocket/off-table events, whether some part is still on the table)."""
    lost = [
        e
        for e in shot.sorted_events(EventKind.POCKET, EventKind.OFF_TABLE)
        if e.labels[:1] == (PUCK,)
    ]
    resting = {int(i) for i, lab in zip(shot.after.ids, shot.after.labels, strict=True)
               if lab == PUCK}
    parts = resting | {e.objects[0].id for e in lost}
    return len(parts) >= 2, lost, bool(resting)


def _rebound(f: NovussFacts, start: int) -> list[Violation]:
    if not f.has_light:
        return []  # N6: a rebound with only dark pawns is correct
    after = [c for c in f.puck_pawns if c[0].t_s >= f.puck_path[start - 1].t_s]
    if not after:
        return [Violation("Novuss 17.1.а", "after the rebound no own pawn was touched", {})]
    if after[0][2] != f.own:
        return [
            Violation(
                "Novuss 17.1.в",
                "the rebound hit an opponent's pawn first",
                {"next": ev(after[0][0])},
            )
        ]
    return []


def all_doubtful(events: Sequence[Event], below: float) -> tuple[Event, ...]:
    """The events when every one of them is doubtful (one sure event decides the call)."""
    weak = doubtful(events, below)
    return weak if events and len(weak) == len(events) else ()


def zone_crossings(f: NovussFacts, shot: Shot) -> list[Event]:
    """The puck's crossings of the shooter's own zone line (N19's deciding events)."""
    return [
        e
        for e in shot.sorted_events(EventKind.LINE_CROSS)
        if e.labels[:1] == (PUCK,) and e.line == f"zone_{f.side}"
    ]


def no_back_cross(f: NovussFacts, shot: Shot, geo: NovussGeometry, at_rest: bool) -> Check:
    """N19 (S0 §18.1.д): with no own dark pawns, the puck must not come back into the own
    edge zone (at any time: a second crossing of the own zone line; or where it rests)."""
    if f.dark_ids:
        return True, ""
    xy = shot.after.by_label(PUCK)
    start = shot.before.by_label(PUCK)
    moved = xy is not None and (start is None or math.dist(tuple(xy), tuple(start)) > geo.puck_r_mm)
    rests_in = moved and xy is not None and geo.puck_in_zone(f.side, xy)
    if at_rest:
        return not rests_in, "the puck came to rest back in the own edge zone"
    crossings = zone_crossings(f, shot)
    return not (rests_in or len(crossings) >= 2), "the puck crossed back over the own zone line"


def _is_pawn(e: Event) -> bool:
    return bool(e.labels) and e.labels[0].endswith("_pawn")


def pawns_lifted(shot: Shot) -> list[Event]:
    """N26 (S0 §16.1.е): pawns taken off the table during the set, i.e. an ``off_table``
    event of a pawn with no shot on (nothing but a hand lifts a pawn between shots). A pawn
    that drops into a pocket between shots is not counted."""
    return [e for e in shot.between if e.kind is EventKind.OFF_TABLE and _is_pawn(e)]


def last_pawn_moved(shot: Shot, moved: Sequence[Event]) -> list[Event]:
    """N26 (S0 §16.1.е): the last pawn left on the table was moved outside a shot."""
    pawns = [int(i) for i, lab in zip(shot.before.ids, shot.before.labels, strict=True)
             if lab.endswith("_pawn")]
    if len(pawns) != 1:
        return []
    return [e for e in moved if pawns[0] in e.ids]


def table_shaken(between: Sequence[Event], min_pawns: int, window_s: float) -> tuple[Event, ...]:
    """N27 (S0 §16.1.б): at least ``min_pawns`` resting pawns moved together outside a shot
    with nothing touching them: their ``moved`` events end within ``window_s`` of each other
    and no contact between shots names them. Returns those moves; () when none."""
    touched = {o.id for e in between if e.kind is EventKind.CONTACT for o in e.objects}
    moves = sorted(
        (e for e in between
         if e.kind is EventKind.MOVED and _is_pawn(e) and e.objects[0].id not in touched),
        key=lambda e: e.t_s,
    )
    best: tuple[Event, ...] = ()
    for i, first in enumerate(moves):
        group = tuple(m for m in moves[i:] if m.t_s - first.t_s <= window_s)
        if len({m.objects[0].id for m in group}) >= min_pawns and len(group) > len(best):
            best = group
    return best


def puck_placed_early(between: Sequence[Event]) -> tuple[Event, Event] | None:
    """N30 (S0 §18.1.з): the puck was put on the table for the shot before the referee had
    finished: a pawn ``placed`` (restored, returned to the circle, a penalty pawn) after the
    puck's first ``placed`` event between shots. Returns (puck placed, pawn placed after)."""
    order = sorted(between, key=lambda e: e.t_s)
    puck = next((e for e in order if e.kind is EventKind.PLACED and e.labels[:1] == (PUCK,)),
                None)
    if puck is None:
        return None
    later = next((e for e in order
                  if e.kind is EventKind.PLACED and _is_pawn(e) and e.t_s > puck.t_s), None)
    return None if later is None else (puck, later)


@dataclass(frozen=True, slots=True)
class PuckPlacement:
    """Where the puck lay before the stroke (``Shot.before``; RULES §1.4): the players whose
    edge zone holds its centre, the player on whose half it lies (singles), and for the
    shooter how far it breaks the placement test (``NovussGeometry.puck_breach``)."""

    xy_mm: tuple[float, float]
    holders: tuple[int, ...]
    half: int | None
    breach_mm: float
    line_in_hole: bool

    def evidence(self) -> dict[str, Any]:
        return {
            "puck_xy_mm": [round(self.xy_mm[0], 2), round(self.xy_mm[1], 2)],
            "placement_breach_mm": round(self.breach_mm, 2),
            "line_in_hole": self.line_in_hole,
        }


WARNING_ITEMS = {  # S0 §19.1 items, also as typed on a Latin keyboard
    "а": "а", "a": "а", "б": "б", "b": "б", "в": "в", "v": "в", "г": "г", "g": "г",
    "д": "д", "d": "д", "е": "е", "e": "е", "ж": "ж", "zh": "ж", "з": "з", "z": "з",
    "и": "и", "i": "и", "к": "к", "k": "к",
}
WARNINGS_TO_FORFEIT = 3  # S0 §15.3


def warning_rule(item: str) -> str:
    """The rule a declared warning cites (``Declaration.warning``): ``"в"``, ``"v"`` or
    ``"19.1.в"`` → ``"Novuss 19.1.в"``; ``"19.3"`` (stalling) → ``"Novuss 19.3"``; a reason
    in words → ``"Novuss 19.1"``."""
    t = item.strip().lower()
    letter = t.removeprefix("19.1.")
    if letter in WARNING_ITEMS:
        return f"Novuss 19.1.{WARNING_ITEMS[letter]}"
    return "Novuss 19.3" if t == "19.3" else "Novuss 19.1"


# ------------------------------------------------------------------------------ engine


@dataclass(slots=True)
class NovussEngine:
    spec: TableSpec
    settings: RuleSettings = field(default_factory=RuleSettings)
    game: Game = Game.NOVUSS
    geo: NovussGeometry = field(init=False)

    def __post_init__(self) -> None:
        self.geo = NovussGeometry.from_spec(self.spec)

    def reset(self) -> None:
        return None

    @property
    def doubles(self) -> bool:
        return self.game is Game.NOVUSS_DOUBLES

    def start(self, players: Sequence[str], *, first: int = 0) -> MatchState:
        n = 4 if self.doubles else 2
        if len(players) != n:
            raise ValueError(f"{self.game.value} needs {n} players, got {len(players)}")
        if not 0 <= first < n:
            raise ValueError(f"first must be in 0..{n - 1}, got {first}")
        sides = SIDES_CLOCKWISE if self.doubles else ("a", "b")
        colours = ("red", "black", "red", "black") if self.doubles else ("red", "black")
        info = NovussInfo(
            sides=tuple(sides),
            colours=colours,
            first_side=sides[first],
            sets_per_match=self.settings.sets_per_match,
            series=put((0,) * n, first, 1),
            dark_misses=(0,) * n,
        )
        state = MatchState(
            game=self.game,
            players=tuple(players),
            turn=first,
            scores=(0,) * n,
            fouls_in_a_row=(0,) * n,
            penalty_debt=(0,) * n,
            breaking=False,
            novuss=info,
        )
        return state.with_(on_table=self.setup_order(state).labels)

    def setup_order(self, state: MatchState) -> Order:
        """Start rows (E1, E7): at each player's target rail, his colour's 8 pawns."""
        assert state.novuss is not None
        nv = state.novuss
        labels: list[str] = []
        xy: list[tuple[float, float]] = []
        for p, side in enumerate(nv.sides):
            row = self.geo.start_row(OPPOSITE[side])
            labels += [pawn_label(nv.colours[p])] * len(row)
            xy += row
        return Order("rerack", tuple(labels), tuple(xy), rule="Novuss E1 set-up")

    def status(self, state: MatchState, layout: Layout) -> tuple[frozenset[int], frozenset[int]]:
        """(light ids, dark ids) of the shooter's own pawns in ``layout``."""
        assert state.novuss is not None
        own = layout.of_label(pawn_label(state.novuss.colours[state.turn]))
        if not len(own):
            return frozenset(), frozenset()
        dark, _, _ = self.geo.dark(
            state.novuss.sides[state.turn], own.xy_mm, self.settings.corner_squares_dark
        )
        ids = own.ids.tolist()
        return (
            frozenset(i for i, d in zip(ids, dark, strict=True) if not d),
            frozenset(i for i, d in zip(ids, dark, strict=True) if d),
        )

    def legal_targets(self, state: MatchState, layout: Layout) -> frozenset[str]:
        """The own pawn label while own light pawns exist; empty when the shot must
        rebound off the opposite rail (all own pawns dark). ``status`` gives the ids."""
        assert state.novuss is not None
        light, _ = self.status(state, layout)
        return frozenset({pawn_label(state.novuss.colours[state.turn])}) if light else frozenset()

    def placement(self, state: MatchState, shot: Shot) -> PuckPlacement | None:
        """Where the puck lay before the stroke, read for the shooter ``state.turn`` (§1.4,
        §19.1.а, §16.1.ж); None when the camera did not see it."""
        assert state.novuss is not None
        xy = shot.before.by_label(PUCK)
        if xy is None:
            return None
        sides = state.novuss.sides
        breach, shows = self.geo.puck_breach(sides[state.turn], xy)
        depth = [float(self.geo.depth(s, xy)[0]) for s in sides]
        half = None if self.doubles or depth[0] == depth[1] else int(np.argmax(depth))
        return PuckPlacement(
            (float(xy[0]), float(xy[1])), self.geo.zone_holders(sides, xy), half, breach, shows
        )

    # ----------------------------------------------------------------------------- judge

    def facts(self, state: MatchState, shot: Shot) -> NovussFacts:
        assert state.novuss is not None
        nv = state.novuss
        own = pawn_label(nv.colours[state.turn])
        light, dark = self.status(state, shot.before)
        path = tuple(
            e
            for e in shot.sorted_events(EventKind.CONTACT, EventKind.CUSHION)
            if (e.kind is EventKind.CONTACT and PUCK in e.labels)
            or (e.kind is EventKind.CUSHION and e.labels[:1] == (PUCK,))
        )
        pawns = []
        for e in path:
            hit = _other(e) if e.kind is EventKind.CONTACT else None
            if hit is not None:
                pawns.append((e, hit[0], hit[1]))
        own_layout = shot.before.of_label(own)
        r = np.linalg.norm(own_layout.xy_mm, axis=1) if len(own_layout) else np.zeros(0)
        circle = frozenset(
            i for i, rr in zip(own_layout.ids.tolist(), r, strict=True) if rr < self.geo.circle_mm
        )
        zone_ids: frozenset[int] = frozenset()
        board = shot.before[np.array([lab != PUCK for lab in shot.before.labels], dtype=bool)]
        if self.settings.own_zone_first_penalized and len(board):
            beyond = self.geo.depth(nv.sides[state.turn], board.xy_mm) - self.geo.zone_mm
            zone_ids = frozenset(
                i for i, b in zip(board.ids.tolist(), beyond, strict=True) if b > 0
            )
        return NovussFacts(
            side=nv.sides[state.turn],
            own=own,
            opp=pawn_label(other_colour(nv.colours[state.turn])),
            light_ids=light,
            dark_ids=dark,
            puck_path=path,
            puck_pawns=tuple(pawns),
            before=shot.before,
            circle_ids=circle,
            own_zone_ids=zone_ids,
        )

    @refereed("Novuss")
    def judge(
        self, state: MatchState, shot: Shot, declaration: Declaration | None = None
    ) -> Judgement:
        if state.winner is not None:
            raise ValueError("the match is over; start a new one")
        assert state.novuss is not None
        d = declared(declaration)  # Novuss: N25's toucher, warnings (§19.1), overrule
        nv = state.novuss
        n = state.n
        opening = bool(nv.series) and not nv.set_started
        if opening:  # the set's first-shot right is the turn's (protocol, §22); its side leads
            nv = replace(nv, first_side=nv.sides[state.turn], series=put((0,) * n, state.turn, 1))
            state = state.with_(novuss=nv)
        book = CallBook(shot, state.shooter)
        turn_given = state.turn
        state, opened_by, misplaced = self._puck_before(state, shot, book, opening)
        me = state.turn  # the shooter the camera saw, at a set's first shot (§16.1.ж)
        # §19.1 warnings: the camera's (§19.1.а) and the referee's (declared); §15.3 counts them.
        warns = list(nv.warnings or (0,) * n)
        if misplaced is not None:
            warns[me] += 1
            book.add(
                "Novuss 19.1.а",
                Outcome.WARNING,
                f"{state.shooter} placed the puck wrongly before the stroke: warning "
                f"{warns[me]} of {WARNINGS_TO_FORFEIT}.",
                warnings=warns[me],
                **misplaced.evidence(),
            )
        if d.warning is not None:
            if d.warned is not None and d.warned not in state.players:
                raise ValueError(f"warned {d.warned!r} is not one of the players")
            who = me if d.warned is None else state.index(d.warned)
            warns[who] += 1
            book.add(
                warning_rule(d.warning),
                Outcome.WARNING,
                f"Warning to {state.players[who]} ({d.warning}): warning {warns[who]} of "
                f"{WARNINGS_TO_FORFEIT}.",
                player=state.players[who],
                warnings=warns[who],
                by="referee",
            )
        old_warns = nv.warnings or (0,) * n
        forfeit = next(
            (p for p in range(n) if warns[p] >= WARNINGS_TO_FORFEIT and warns[p] > old_warns[p]),
            None,
        )
        f = self.facts(state, shot)
        geo = self.geo
        win = self.settings.simultaneous_s
        below = self.settings.review_below
        first_doubt = doubtful((*f.puck_path[:1], *(h[0] for h in first_pawns(f, win))), below)
        if first_doubt and not first_tie_settled(f, win, first_doubt):
            book.add(
                "Novuss E2 correct shot",
                Outcome.REVIEW,
                "Referee to confirm: the puck's first contact is doubtful, and the shot's "
                "class (correct or penalized) rests on it.",
                **doubt_evidence(first_doubt),
            )
        if shot.player and shot.player != state.shooter and state.turn == turn_given:
            book.add(
                "Novuss 16.1.з",
                Outcome.REVIEW,
                f"{shot.player} shot but it was {state.shooter}'s turn; referee to confirm.",
                expected=state.shooter,
                seen=shot.player,
            )

        touched = [e for e in shot.events if e.kind is EventKind.MOVED]
        if touched:
            # N24: 17.1.н gives a penalty pawn, 16.1.м loss of the set (RULES §8.6); the
            # camera sees the touch, the referee decides which applies.
            book.add(
                "Novuss 17.1.н",
                Outcome.REVIEW,
                "A moving object was touched by hand: penalty pawn (17.1.н) or loss of the "
                "set (16.1.м), referee to decide.",
                touched=[ev(e) for e in touched],
            )

        violations: list[Violation] = []
        set_loss: Violation | None = None
        orders: list[Order] = []
        restore: dict[int, tuple[str, tuple[float, float]]] = {}

        # Between shots: placing the puck, touching pawns (N20–N22, N25–N27, N30).
        loser = me  # whose set it is when a set is lost (N25: the other player's touch)
        shake = table_shaken(
            shot.between, self.settings.shake_min_pawns, self.settings.shake_window_s
        )
        if shake:  # N27: the camera sees it, the referee says who shook the table
            book.add(
                "Novuss 16.1.б",
                Outcome.REVIEW,
                f"{len(shake)} resting pawns moved together with nothing touching them: the "
                "table was shaken? Loss of set for whoever shook it; referee to decide.",
                moved=[ev(e) for e in shake],
            )
        moved = [
            e
            for e in shot.between
            if e.kind in (EventKind.MOVED, EventKind.CONTACT)
            and any(lab.endswith("_pawn") for lab in e.labels)
            and e not in shake
        ]
        moved_ids = {o.id for e in moved for o in e.objects if o.label.endswith("_pawn")}
        lifted = pawns_lifted(shot)
        last = last_pawn_moved(shot, moved)
        deferred = list(nv.deferred or (0,) * n)
        toucher = me  # N25: the operator may say the player who had just shot touched them
        if d.touched_by_opponent and (moved or lifted):
            toucher = (me - 1) % n  # singles: the opponent
        if lifted or last:  # N26
            loser = toucher
            set_loss = Violation(
                "Novuss 16.1.е",
                "a pawn was taken off the table during the set"
                if lifted
                else "the last pawn on the table was moved outside a shot",
                {"lifted": [ev(e) for e in lifted], "moved": [ev(e) for e in last]},
            )
        elif len(moved_ids) >= 2:
            loser = toucher
            set_loss = Violation(
                "Novuss 16.1.д",
                f"{len(moved_ids)} pawns were moved outside a shot",
                {"moved": [ev(e) for e in moved]},
            )
        elif moved and toucher != me:  # N25: penalty pawn when this series ends (§17.1.п)
            deferred[toucher] += 1
            book.add(
                "Novuss 17.1.п",
                Outcome.FOUL,
                f"{state.players[toucher]} moved a pawn while {state.shooter} had the turn: "
                "the referee puts it back; a penalty pawn follows when the series ends.",
                player=state.players[toucher],
                moved=[ev(e) for e in moved],
                skip_turn=self.settings.n25_skip_turn,
            )
        elif moved:
            with_puck = any(PUCK in e.labels for e in moved)
            violations.append(
                Violation(
                    "Novuss 17.1.л" if with_puck else "Novuss 17.1.о",
                    "the puck touched a pawn while being placed"
                    if with_puck
                    else "a pawn was touched outside a shot",
                    {"moved": [ev(e) for e in moved]},
                )
            )
        if opened_by is not None and set_loss is None:  # §16.1.ж, seen at once (at this shot)
            loser = opened_by
            set_loss = Violation(
                "Novuss 16.1.ж",
                "the player listed first in the protocol made the set's first shot, but the "
                "first-shot right was his opponent's",
                {"right": state.shooter, "shot_by": state.players[opened_by]},
            )
        # N30: the puck went down before the referee had finished (fresh set-ups excluded).
        early = puck_placed_early(shot.between) if state.clock_from_s is not None else None
        # N29: the shot-time limit; the first breach costs the turn (§18.1.ж), later ones
        # a penalty pawn as well (§17.1.т).
        faults = list(nv.time_faults or (0,) * n)
        late_ok, late_reason = shot_clock_ok(state, shot, self.settings.shot_clock_s)
        late = not late_ok
        late_evidence = shot_time_evidence(state, shot, self.settings.shot_clock_s)
        if late:
            faults[me] += 1
            if faults[me] > 1:
                violations.append(
                    Violation(
                        "Novuss 17.1.т",
                        f"shot-time limit broken again: {late_reason}",
                        {**late_evidence, "breaches": faults[me]},
                    )
                )
        nv = replace(nv, time_faults=tuple(faults), deferred=tuple(deferred),
                     warnings=tuple(warns), set_started=True)
        state = state.with_(novuss=nv)
        still = shot.still_moving_at_start()
        if still:
            violations.append(
                Violation(
                    "Novuss 17.1.м",
                    "the shot was made while something was still moving",
                    {"moving": list(still)},
                )
            )

        kind, shot_violations = classify(f, win)
        violations += shot_violations
        penalized_shot = bool(shot_violations)

        # N3: direct hit on an own dark pawn, then two or more pawns moved.
        hits = first_pawns(f, win)
        if any(h[1] in f.dark_ids for h in hits):
            touched = {c[1] for c in f.puck_pawns}
            if self.settings.n3_counts_chain:
                touched |= {
                    o.id
                    for e in shot.sorted_events(EventKind.CONTACT)
                    for o in e.objects
                    if o.label.endswith("_pawn")
                }
            need = 2 if self.settings.n3_counts_dark_pawn else 3
            if len(touched) >= need:
                set_loss = set_loss or Violation(
                    "Novuss 16.1.г",
                    f"the puck hit an own dark pawn first and moved {len(touched)} pawns",
                    {"pawn_ids": sorted(touched)},
                )
        # N2 (general): a penalized shot in which the puck touches an own dark pawn.
        if penalized_shot:
            for _e, pid, _lab in f.puck_pawns:
                if pid in f.dark_ids:
                    xy = f.before.by_id(pid)
                    if xy is not None:
                        restore[pid] = (f.own, (float(xy[0]), float(xy[1])))
            if restore and not any(v.rule == "Novuss 17.1.з" for v in violations):
                violations.append(
                    Violation("Novuss 17.1.з", "the puck touched an own dark pawn", {})
                )
            # N13: two or more own pawns knocked out of the dark areas.
            out_ids = self._left_dark(f, shot, state)
            if len(out_ids) >= 2:
                set_loss = set_loss or Violation(
                    "Novuss 16.1.а",
                    f"a penalized shot knocked {len(out_ids)} own pawns out of the dark area",
                    {"pawn_ids": sorted(out_ids)},
                )

        # N15 (singles, §8.5), §17.1.ф and §21.4 (doubles): a penalized direct shot drives an
        # opponent's pawn into his dark area.
        if penalized_shot and kind == "direct":
            for v, back_ids in self._driven(state, f, shot):
                violations.append(v)
                for pid in back_ids:
                    at = f.before.by_id(pid)
                    if at is not None:
                        restore[pid] = (f.opp, (float(at[0]), float(at[1])))

        # Puck pocketed or off the table (N10, N11), or broken with its parts lost (N12).
        broke, lost, part_left = broken_puck(shot)
        if broke and lost and part_left:
            book.add(
                "Novuss 17.1.с",
                Outcome.REVIEW,
                "The puck broke and a part of it went into a pocket or over the rail; referee "
                "to judge whether it was the larger part (penalty pawn if so).",
                lost=[ev(e) for e in lost],
            )
        elif broke and lost:
            violations.append(
                Violation(
                    "Novuss 17.1.с",
                    "the puck broke and its parts went into a pocket or over the rail",
                    {"lost": [ev(e) for e in lost]},
                    all_doubtful(lost, below),
                )
            )
        for e in [] if broke else lost:
            rule = "Novuss 17.1.г" if e.kind is EventKind.POCKET else "Novuss 17.1.д"
            text = (
                "the puck went into a pocket"
                if e.kind is EventKind.POCKET
                else ("the puck left the table")
            )
            violations.append(Violation(rule, text, {"event": ev(e)}, doubtful([e], below)))

        pocket_evs = shot.sorted_events(EventKind.POCKET)
        own_in = [e for e in pocket_evs if e.labels[:1] == (f.own,)]
        opp_in = [e for e in pocket_evs if e.labels[:1] == (f.opp,)]
        offs = [
            e
            for e in shot.sorted_events(EventKind.OFF_TABLE)
            if e.labels and e.labels[0].endswith("_pawn")
        ]
        opp_off = [e for e in offs if e.labels[0] == f.opp]
        if penalized_shot and opp_off:  # N14
            violations.append(
                Violation(
                    "Novuss 17.1.р",
                    "a penalized shot knocked an opponent's pawn off the table",
                    {"off_table": [ev(e) for e in opp_off]},
                )
            )
            for e in opp_off:
                xy = f.before.by_id(e.objects[0].id)
                if xy is not None:
                    restore[e.objects[0].id] = (f.opp, (float(xy[0]), float(xy[1])))

        # Orders that change the layout: restore, then the circle for off-table pawns.
        placed: list[tuple[float, float]] = []
        if restore:
            ids = tuple(restore)
            orders.append(
                Order(
                    "restore",
                    tuple(restore[i][0] for i in ids),
                    tuple(restore[i][1] for i in ids),
                    ids=ids,
                    rule="Novuss 17.1.з"
                    if any(restore[i][0] == f.own for i in ids)
                    else "Novuss 17.1.р",
                )
            )
            placed += [restore[i][1] for i in ids]
        base_layout = shot.after.without_ids(restore)
        circle_labels, circle_xy, circle_ids = [], [], []
        for e in offs:
            if e.objects[0].id in restore:
                continue
            xy = self.circle_spot(base_layout, placed, e)
            placed.append(xy)
            circle_labels.append(e.labels[0])
            circle_xy.append(xy)
            circle_ids.append(e.objects[0].id)
        if circle_labels:
            orders.append(
                Order(
                    "to_circle",
                    tuple(circle_labels),
                    tuple(circle_xy),
                    tuple(circle_ids),
                    "Novuss 17.7",
                )
            )

        # Loss of set outranks a penalty pawn (RULES §1.5).
        on_table = [lab for lab in base_layout.labels if lab.endswith("_pawn")]
        on_table += [restore[i][0] for i in restore] + circle_labels
        colour = nv.colours[me]
        if (
            set_loss is None
            and violations
            and own_in
            and opp_in
            and on_table.count(f.own) == 0
            and on_table.count(f.opp) == 0
        ):  # N32, second sentence: the last pawns together on a shot that drew a penalty
            set_loss = Violation(
                "Novuss 20.5",
                "both sides' last pawns went down on a shot that drew a penalty pawn",
                {"pocketed": [ev(e) for e in own_in + opp_in]},
            )
        if forfeit is not None:  # §15.3 outranks the shot: the match is over
            return self._forfeit(state, shot, book, forfeit, orders=orders, on_table=on_table)
        if set_loss is not None:
            book.add(
                set_loss.rule,
                Outcome.SET_LOSS,
                f"{set_loss.text.capitalize()}: loss of set.",
                player=state.players[loser],
                **set_loss.evidence,
            )
            return self._set_over(
                state, shot, book, winner_colour=other_colour(nv.colours[loser]),
                orders=orders, on_table=on_table,
            )

        evidence_first = self._first_evidence(f, state)
        if violations:
            for v in violations:
                if v.doubtful:
                    book.add(
                        v.rule,
                        Outcome.REVIEW,
                        f"Referee to confirm: penalized shot, {v.text}.",
                        shot_kind=kind,
                        **v.evidence,
                        **evidence_first,
                        **doubt_evidence(v.doubtful),
                    )
                    continue
                book.add(
                    v.rule,
                    Outcome.FOUL,
                    f"Penalized shot: {v.text}.",
                    shot_kind=kind,
                    **v.evidence,
                    **evidence_first,
                )
        else:
            book.add(
                "Novuss E2 correct shot",
                Outcome.LEGAL,
                {
                    "direct": "Correct shot: an own light pawn first.",
                    "rebound": "Correct rebound shot off the opposite rail.",
                    "side_rail": "Correct side-rail shot.",
                    "none": "Correct shot.",
                }[kind],
                shot_kind=kind,
                light=len(f.light_ids),
                dark=len(f.dark_ids),
                **evidence_first,
            )

        back_ok, back_reason = no_back_cross(f, shot, geo, self.settings.back_cross_at_rest)
        turn_ends = True
        end_rule, end_text = "", ""
        end_doubt: tuple[Event, ...] = ()
        end_evidence: dict[str, Any] = {}
        if violations:
            end_rule, end_text = violations[0].rule, "penalty pawn and loss of turn"
        elif late:
            end_rule, end_text = "Novuss 18.1.ж", f"shot-time limit broken: {late_reason}"
            end_evidence = {**late_evidence, "breaches": nv.time_faults[me]}
        elif early is not None:
            end_rule, end_text = (
                "Novuss 18.1.з",
                "the puck was put down before the referee had finished placing pawns",
            )
            end_evidence = {"puck_placed": ev(early[0]), "pawn_placed_after": ev(early[1])}
        elif not own_in:
            end_rule, end_text = "Novuss 18.1.а", "no own pawn pocketed"
        elif opp_in:
            end_rule, end_text = "Novuss 18.1.б", "an opponent's pawn went in with the own"
            end_doubt = all_doubtful(opp_in, below)
        elif offs:
            end_rule, end_text = "Novuss 18.1.в", "a pawn left the table"
            end_doubt = all_doubtful(offs, below)
        elif not back_ok:
            end_rule, end_text = "Novuss 18.1.д", back_reason
            end_doubt = doubtful(zone_crossings(f, shot), below)
        else:
            turn_ends = False

        debt = state.penalty_debt
        own_total = PAWNS_PER_PLAYER * (2 if self.doubles else 1)
        own_now = on_table.count(f.own)
        skipped: list[int] = []  # N25: players whose deferred penalty was just placed
        if turn_ends:
            # §21.5 (doubles): the penalty pawn goes to the offender's pair member who shoots
            # next (his partner), on that player's target row; singles: the shooter.
            pen = self.penalized(state)
            free = own_total - own_now
            many = len(violations) > 1
            note = f" (one pawn for {len(violations)} violations, §17.2)" if many else ""
            entries: list[tuple[int, int, bool]] = []  # (player, pawns, includes this penalty)
            if pen == me:
                if violations or debt[me]:
                    entries.append((me, (1 if violations else 0) + debt[me], bool(violations)))
            else:
                if violations:
                    entries.append((pen, 1, True))
                if debt[me]:
                    entries.append((me, debt[me], False))
            new_debt = list(debt)
            for who, k, penalty in entries:
                allowed = not self.doubles or self.may_place(base_layout, state, who)
                n_place = max(0, min(k, free)) if allowed else 0  # free < 0: a pawn too many seen
                free -= n_place
                if n_place > 0:
                    spots = self.penalty_spots(state, base_layout, placed, n_place, shot, who)
                    placed += list(spots)
                    orders.append(
                        Order("penalty_pawn", (f.own,) * n_place, spots, rule="Novuss 17.3")
                    )
                    on_table += [f.own] * n_place
                new_debt[who] = (0 if who == me else debt[who]) + k - n_place
                owed = k - n_place
                if not allowed:
                    rule = "Novuss 21.6"
                    why = "; his target row has not moved yet (§21.6), it is owed"
                else:
                    rule = "Novuss 17.2" if note and penalty else (
                        violations[0].rule if penalty else "Novuss 17.5"
                    )
                    why = "; none pocketed, it is owed"
                book.add(
                    rule,
                    Outcome.PENALTY_PAWN,
                    (
                        f"Penalty pawn to {state.players[who]}{note}"
                        if penalty
                        else f"{state.players[who]}'s debt is placed"
                    )
                    + (f"; {n_place} placed" if n_place else why)
                    + (f", {owed} owed." if owed else "."),
                    placed=n_place,
                    debt=owed,
                    xy_mm=[list(p) for p in orders[-1].xy_mm] if n_place else [],
                    offender=state.shooter if who != me else None,
                )
            # N25 (§17.1.п): pawns owed by a player who touched one during this series
            owe = list(nv.deferred)
            for who in [p for p in range(n) if owe[p] and p != me]:
                k, lab = owe[who], pawn_label(nv.colours[who])
                n_place = max(0, min(k, own_total - on_table.count(lab)))
                if n_place > 0:
                    spots = self.penalty_spots(state, base_layout, placed, n_place, shot, who)
                    placed += list(spots)
                    orders.append(Order("penalty_pawn", (lab,) * n_place, spots,
                                        rule="Novuss 17.3"))
                    on_table += [lab] * n_place
                new_debt[who] += k - n_place
                owe[who] = 0
                skipped.append(who)
                book.add(
                    "Novuss 17.1.п",
                    Outcome.PENALTY_PAWN,
                    f"{state.shooter}'s series is over: penalty pawn to {state.players[who]} "
                    "for the pawn he moved"
                    + (f"; {n_place} placed" if n_place else "; none pocketed, it is owed")
                    + ".",
                    player=state.players[who],
                    placed=n_place,
                    debt=k - n_place,
                    xy_mm=[list(p) for p in orders[-1].xy_mm] if n_place else [],
                )
            nv = replace(nv, deferred=tuple(owe))
            debt = tuple(new_debt)
            if not violations:
                book.add(
                    end_rule,
                    Outcome.REVIEW if end_doubt else Outcome.LOSS_OF_TURN,
                    ("Referee to confirm: loss of turn" if end_doubt else "Loss of turn")
                    + f": {end_text}.",
                    pocketed=[ev(e) for e in own_in + opp_in],
                    **end_evidence,
                    **(doubt_evidence(end_doubt) if end_doubt else {}),
                )
            else:
                book.add("Novuss 17.1", Outcome.LOSS_OF_TURN, f"{state.shooter} loses the turn.")
        else:
            weak = all_doubtful(own_in, below)
            sure = not weak
            book.add(
                "Novuss 18.1.а",
                Outcome.LEGAL if sure else Outcome.REVIEW,
                ("" if sure else "Referee to confirm: ")
                + f"{state.shooter} pocketed {len(own_in)} own pawn"
                + ("s" if len(own_in) > 1 else "")
                + " and continues.",
                pocketed=[ev(e) for e in own_in],
                **({} if sure else doubt_evidence(weak)),
            )
            if own_now == 0 and debt[me] > 0:  # §17.5: debt placed at once, series goes on
                n_place = min(debt[me], own_total)
                xy = self.penalty_spots(state, base_layout, placed, n_place, shot)
                orders.append(Order("penalty_pawn", (f.own,) * n_place, xy, rule="Novuss 17.5"))
                on_table += [f.own] * n_place
                book.add(
                    "Novuss 17.5",
                    Outcome.PENALTY_PAWN,
                    f"{state.shooter}'s {n_place} owed pawns are placed; the series goes on.",
                    placed=n_place,
                    xy_mm=[list(p) for p in xy],
                )
                debt = put(debt, me, debt[me] - n_place)

        own_left = on_table.count(f.own)
        opp_left = on_table.count(f.opp)
        pair_debt = sum(d for p, d in enumerate(debt) if nv.colours[p] == colour)
        cleared = own_left == 0 and pair_debt == 0 and not violations
        answering = nv.cleared_first is not None and nv.cleared_first != me
        if answering and (cleared or turn_ends):
            assert nv.cleared_first is not None
            first = nv.cleared_first
            rule = "Novuss 21.7" if self.doubles else "Novuss 20.4"
            first_colour = nv.colours[first]
            if cleared and not turn_ends and not nv.cleared_flawed:
                book.add(
                    "Novuss 20.4",
                    Outcome.REPLAY,
                    f"{state.players[first]} and {state.shooter} both cleared in their first "
                    "series: the set is replayed"
                    + (
                        " from the same places."
                        if self.doubles
                        else ", sides and first shot swapped."
                    ),
                )
                return self._set_over(
                    state, shot, book, winner_colour=None, orders=orders, on_table=on_table,
                    seats="stay" if self.doubles else "rotate",
                    first_side=nv.sides[me] if self.doubles else None,
                )
            if cleared and nv.cleared_flawed and not turn_ends:
                text = (
                    f"Both cleared in the first series, but {state.players[first]}'s last shot "
                    f"lost the turn: {state.shooter} wins the set."
                )
                winner = colour
            elif cleared and turn_ends and not nv.cleared_flawed:
                text = (
                    f"Both cleared in the first series, but {state.shooter}'s last shot lost "
                    f"the turn: {state.players[first]} wins the set."
                )
                winner = first_colour
            elif cleared:
                book.add(
                    "Novuss 20.4",
                    Outcome.REPLAY,
                    "Both cleared in the first series and both last shots lost the turn: the "
                    "set is replayed.",
                )
                return self._set_over(
                    state, shot, book, winner_colour=None, orders=orders, on_table=on_table
                )
            else:
                text = (
                    f"{state.shooter} did not clear in his answering series: "
                    f"{state.players[first]} wins the set."
                )
                winner = first_colour
            book.add(rule, Outcome.SET_WIN, text, player=state.players[
                next(p for p in range(state.n) if nv.colours[p] == winner)])
            return self._set_over(
                state, shot, book, winner_colour=winner, orders=orders, on_table=on_table
            )
        if own_left == 0 and pair_debt == 0 and (not violations):
            if self.first_series_clear(state):  # §20.4 / §21.7: the series stops
                book.add(
                    "Novuss 21.7" if self.doubles else "Novuss 20.4",
                    Outcome.LEGAL,
                    f"{state.shooter} cleared every own pawn in the first series: the series "
                    f"stops and {state.players[(me + 1) % state.n]} answers with one series.",
                    flawed=turn_ends,
                )
                info = replace(
                    nv,
                    cleared_first=me,
                    cleared_flawed=turn_ends,
                    series=put(nv.series, (me + 1) % state.n, nv.series[(me + 1) % state.n] + 1),
                )
                nxt = state.with_(
                    shot=shot.number,
                    turn=(me + 1) % state.n,
                    penalty_debt=debt,
                    on_table=tuple(sorted(on_table)),
                    novuss=info,
                )
                return Judgement(tuple(book.calls), nxt, tuple(orders))
            if opp_left == 0 and opp_in:  # N32
                book.add(
                    "Novuss 20.5",
                    Outcome.REPLAY,
                    "Both sides' last pawns went down together: the set is replayed.",
                )
                return self._set_over(
                    state, shot, book, winner_colour=None, orders=orders, on_table=on_table
                )
            book.add(
                "Novuss 20.3",
                Outcome.SET_WIN,
                f"{state.shooter} has pocketed every own pawn and wins the set.",
            )
            return self._set_over(
                state, shot, book, winner_colour=colour, orders=orders, on_table=on_table
            )

        # N33 (§20.6): every side holds only dark pawns and each player has missed 3 times.
        misses = self.dark_misses(state, shot, f)
        if misses and all(m >= 3 for m in misses):
            book.add(
                "Novuss 20.6",
                Outcome.REPLAY,
                "Every side holds only dark pawns and each player has missed them three "
                "times: the set is replayed; the first shot stays with the same player.",
                misses=list(misses),
            )
            return self._set_over(
                state, shot, book, winner_colour=None, orders=orders, on_table=on_table,
                seats="stay", first_side=nv.first_side,
            )

        nxt_turn = (me + 1) % state.n if turn_ends else me
        while turn_ends and self.settings.n25_skip_turn and nxt_turn in skipped:
            book.add(
                "Novuss 17.1.п",
                Outcome.LOSS_OF_TURN,
                f"{state.players[nxt_turn]} loses the next shot (§17.1.п, §8.8).",
                player=state.players[nxt_turn],
            )
            skipped.remove(nxt_turn)
            nxt_turn = (nxt_turn + 1) % state.n
        series = nv.series
        if turn_ends and series:
            series = put(series, nxt_turn, series[nxt_turn] + 1)
        nxt = state.with_(
            shot=shot.number,
            turn=nxt_turn,
            penalty_debt=debt,
            on_table=tuple(sorted(on_table)),
            novuss=replace(nv, series=series, dark_misses=misses or (0,) * state.n),
        )
        return Judgement(tuple(book.calls), nxt, tuple(orders))

    # ----------------------------------------------------------------- clause predicates

    def _puck_before(
        self, state: MatchState, shot: Shot, book: CallBook, opening: bool
    ) -> tuple[MatchState, int | None, PuckPlacement | None]:
        """§16.1.ж and §19.1.а from where the puck lay before the stroke (RULES §1.4: each
        player places it in his own edge zone, so the zone that holds it shows from whose
        side the shot came). Returns the state to judge the shot in, the player who loses
        the set under §16.1.ж (None: nobody) and the placement when it draws a §19.1.а
        warning (None: no warning). Nothing is decided when the puck was not seen.

        - A set's first shot (singles) from the opponent's edge zone: the first-shot right
          was the turn's, so the opponent opened out of order. If he is listed first in the
          protocol (player 0) he loses the set (§16.1.ж); the camera sees it at this shot,
          before the next one, so the "noticed too late" clause never applies (a referee who
          let it pass overrules). If he is the other player, §16.1.ж does not name him (RULES
          §8.10): a ``review``, and the shot is judged as his, the set going on as made.
        - A set's first shot from outside both edge zones on the opponent's half: the camera
          cannot tell who opened (and the puck was misplaced): a ``review``.
        - Any other shot from another player's edge zone (mid-set; doubles): the turn the
          engine keeps rests on every event read so far (a pocket missed hands it on
          wrongly), while the puck shows who shot: a ``review`` (cited as §16.1.з, as for
          ``Shot.player``), no warning, and, when the puck was seen set down since the last
          shot (a ``placed`` event: it does not lie where that shot left it), the shot is
          judged as that player's, so the engine follows the table again; otherwise as the
          turn's. A stream that names the shooter (``Shot.player``) is followed instead.
        - Otherwise the shooter's own placement: a breach of the hole test by more than
          ``puck_placement_doubt_mm`` is a §19.1.а warning; a smaller one is within the
          camera's error and goes to the player (no call: players set the puck right at the
          line, so a review there would stop most shots).
        """
        place = self.placement(state, shot)
        if place is None:
            return state, None, None
        me = state.turn
        say = {"right": state.shooter, **place.evidence()}
        if place.holders and me not in place.holders:
            other = place.holders[0]
            name = state.players[other]
            if opening and not self.doubles and other == 0:
                return state, other, None
            if opening and not self.doubles:
                book.add(
                    "Novuss 16.1.ж",
                    Outcome.REVIEW,
                    f"{name} made the set's first shot from his side, but the first-shot right "
                    f"was {state.shooter}'s; §16.1.ж names only the player listed first in the "
                    f"protocol, referee to decide. The shot is judged as {name}'s.",
                    player=name,
                    shot_by=name,
                    **say,
                )
                state = state.with_(turn=other)
                book.player = name
                place = self.placement(state, shot)
                assert place is not None
            else:
                if shot.player and shot.player != state.shooter:
                    return state, None, None  # the stream names the shooter (judge above)
                set_down = any(e.kind is EventKind.PLACED and PUCK in e.labels
                               for e in shot.between)
                judged_as = name if set_down else state.shooter
                book.add(
                    "Novuss 16.1.з",
                    Outcome.REVIEW,
                    f"The puck lay in {name}'s edge zone before the stroke, but by the calls "
                    f"so far it was {state.shooter}'s turn; the shot is judged as "
                    f"{judged_as}'s, referee to confirm who shot.",
                    player=judged_as,
                    shot_by=name,
                    puck_set_down=set_down,
                    **say,
                )
                if not set_down:  # the puck may lie where the last shot left it
                    return state, None, None
                book.player = name
                return state.with_(turn=other), None, None
        if place.breach_mm <= 1e-9:
            return state, None, None
        if opening and not place.holders and place.half not in (None, state.turn):
            book.add(
                "Novuss 16.1.ж",
                Outcome.REVIEW,
                "The puck lay outside both edge zones, on the opponent's half, before the "
                "set's first shot: the camera cannot tell who opened the set (§16.1.ж), and the "
                "puck was misplaced (§19.1.а); referee to decide.",
                **say,
            )
            return state, None, None
        if place.breach_mm <= self.settings.puck_placement_doubt_mm:
            return state, None, None  # within what the camera can measure: the player's
        return state, None, place

    def _forfeit(
        self,
        state: MatchState,
        shot: Shot,
        book: CallBook,
        offender: int,
        *,
        orders: list[Order],
        on_table: Sequence[str],
    ) -> Judgement:
        """§15.3: after his 3rd warning the offender loses the sets not yet played and the
        match ends. The set in progress counts among them (it has not been played out; ? S0
        "в ещё несыгранных сетах"). One ``set_loss`` and one ``set_win`` call per set (so
        the scores follow the calls), then ``match_win``; with an even number of sets the
        result may be level (§23.1 draw), which the engine leaves to the referee
        (``review``, no winner)."""
        assert state.novuss is not None
        nv = state.novuss
        lost = nv.colours[offender]
        winners = [p for p in range(state.n) if nv.colours[p] != lost]
        w = winners[0]
        done = max(nv.set_no - 1, state.scores[w] + state.scores[offender])
        k = max(1, nv.sets_per_match - done)
        names = " and ".join(state.players[p] for p in winners)
        for i in range(k):
            no = done + 1 + i
            book.add(
                "Novuss 15.3",
                Outcome.SET_LOSS,
                f"{state.players[offender]} loses set {no}: a third warning costs every set "
                "not yet played.",
                player=state.players[offender],
                set=no,
            )
            book.add("Novuss 15.3", Outcome.SET_WIN, f"{names} win set {no}.",
                     player=state.players[w], set=no)
        scores = tuple(s + (k if p in winners else 0) for p, s in enumerate(state.scores))
        won = scores[w] > scores[offender]
        if won:
            book.add(
                "Novuss 23.1",
                Outcome.MATCH_WIN,
                f"{names} win the match {scores[w]}-{scores[offender]}.",
                player=state.players[w],
                sets_won=list(scores),
            )
        else:
            book.add(
                "Novuss 23.1",
                Outcome.REVIEW,
                f"The match ends level {scores[w]}-{scores[offender]} (a draw, §23.1); "
                "referee to record the result.",
                sets_won=list(scores),
            )
        nxt = state.with_(
            shot=shot.number,
            scores=scores,
            winner=w if won else None,
            on_table=tuple(sorted(on_table)),
            novuss=replace(nv, set_no=done + k + 1),
        )
        return Judgement(tuple(book.calls), nxt, tuple(orders))

    def penalized(self, state: MatchState) -> int:
        """§21.5: in doubles the offender's partner (his pair's next shooter) is penalized
        when ``doubles_penalty_to_partner``; in singles, the shooter."""
        if self.doubles and self.settings.doubles_penalty_to_partner:
            return (state.turn + 2) % state.n
        return state.turn

    def may_place(self, layout: Layout, state: MatchState, who: int) -> bool:
        """§21.6: a penalty pawn is placed only once pawns have moved on the side opposite
        the penalized player (his target row is no longer the untouched start row)."""
        assert state.novuss is not None
        rail = OPPOSITE[state.novuss.sides[who]]
        return not start_row_intact(self.geo, layout, rail, self.geo.pawn_r_mm / 3)

    def first_series_clear(self, state: MatchState) -> bool:
        """§20.4 (singles: the first-shot holder) / §21.7 (doubles: partner not yet shot):
        the shooter is in his first series. Unknown series (mid-set start): False. In singles
        the opponent's 8 pawns must all be on the table at the shot's start (he has not shot;
        a state that says otherwise is mid-set)."""
        assert state.novuss is not None
        nv = state.novuss
        if not nv.series or nv.series[state.turn] != 1 or nv.cleared_first is not None:
            return False
        if self.doubles:
            return nv.series[(state.turn + 2) % state.n] == 0
        # the opponent has not shot yet, so all his pawns are still on the table
        opp = pawn_label(other_colour(nv.colours[state.turn]))
        full = state.on_table.count(opp) == PAWNS_PER_PLAYER
        return full and nv.sides[state.turn] == nv.first_side

    def dark_misses(self, state: MatchState, shot: Shot, f: NovussFacts) -> tuple[int, ...]:
        """§20.6 counts after this shot; () when not every side holds only dark pawns."""
        assert state.novuss is not None
        nv = state.novuss
        for p in range(state.n):
            mine = shot.before.of_label(pawn_label(nv.colours[p]))
            if not len(mine):
                return ()
            dark, _, _ = self.geo.dark(nv.sides[p], mine.xy_mm, self.settings.corner_squares_dark)
            if not bool(np.all(dark)):
                return ()
        old = nv.dark_misses or (0,) * state.n
        missed = not any(lab == f.own for _e, _i, lab in f.puck_pawns)
        if missed:
            return put(old, state.turn, old[state.turn] + 1)
        return put(old, state.turn, 0) if self.settings.dark_misses_consecutive else old

    def _driven(
        self, state: MatchState, f: NovussFacts, shot: Shot
    ) -> list[tuple[Violation, list[int]]]:
        """N15 / §17.1.ф / §21.4 violations with the pawn ids to put back."""
        assert state.novuss is not None
        nv = state.novuss
        owners = [p for p in range(state.n) if nv.colours[p] != nv.colours[state.turn]]
        g = self.geo
        clear = g.line_half_mm + g.pawn_hole_mm

        def dark_of(xy: Any) -> tuple[bool, bool]:
            in_strip = in_circle = False
            for p in owners:
                d, beyond, r = g.dark(nv.sides[p], xy, self.settings.corner_squares_dark)
                c = bool(r[0] < g.circle_mm - clear)
                in_circle |= c
                in_strip |= bool(d[0]) and not c
            return in_strip, in_circle

        circle, strip = driven_into_dark(shot.before, shot.after, f.opp, dark_of)
        out: list[tuple[Violation, list[int]]] = []
        if self.doubles:
            if circle:
                out.append((Violation(
                    "Novuss 21.4",
                    "a penalized direct shot drove an opponent's pawn into the central circle; "
                    "it is put back",
                    {"pawn_ids": circle},
                ), circle))
            if strip:
                out.append((Violation(
                    "Novuss 17.1.ф",
                    "a penalized direct shot drove an opponent's pawn into his rear zone; it "
                    "stays there",
                    {"pawn_ids": strip},
                ), []))
        elif circle or strip:
            ids = circle + strip
            back = self.settings.n15_restore
            out.append((Violation(
                "Novuss 21.3",
                "a penalized direct shot drove an opponent's pawn into his dark area"
                + ("; it is put back (singles reading of §21.3)" if back else ""),
                {"pawn_ids": ids},
            ), ids if back else []))
        return out

    # ------------------------------------------------------------------------ helpers

    def _first_evidence(self, f: NovussFacts, state: MatchState) -> dict[str, Any]:
        if not f.puck_path:
            return {"first": None}
        first = f.puck_path[0]
        out: dict[str, Any] = {"first": ev(first)}
        hit = _other(first) if first.kind is EventKind.CONTACT else None
        if hit is not None:
            xy = f.before.by_id(hit[0])
            if xy is not None:
                dark, beyond, r = self.geo.dark(f.side, xy, self.settings.corner_squares_dark)
                out.update(
                    first_pawn=hit[1],
                    first_pawn_xy_mm=[float(xy[0]), float(xy[1])],
                    beyond_own_zone_line_mm=float(beyond[0]),
                    from_centre_mm=float(r[0]),
                    first_pawn_status=("dark" if bool(dark[0]) else "light")
                    if hit[1] == f.own
                    else "opponent",
                )
        return out

    def _left_dark(self, f: NovussFacts, shot: Shot, state: MatchState) -> set[int]:
        """Own pawns dark at the start that ended outside the dark area (or off the board)."""
        out = set()
        for pid in f.dark_ids:
            xy = shot.after.by_id(pid)
            if xy is None:
                out.add(pid)
                continue
            dark, _, _ = self.geo.dark(f.side, xy, self.settings.corner_squares_dark)
            if not bool(dark[0]):
                out.add(pid)
        return out

    def _free(
        self, xy: tuple[float, float], layout: Layout, placed: list[tuple[float, float]]
    ) -> bool:
        d = 2 * self.geo.pawn_r_mm - 1e-6
        pawns = (
            layout[np.array([lab != PUCK for lab in layout.labels], dtype=bool)]
            if len(layout)
            else layout
        )
        pts = [tuple(p) for p in pawns.xy_mm.tolist()] + placed
        return all(math.dist(xy, p) >= d for p in pts)

    def circle_spot(
        self, layout: Layout, placed: list[tuple[float, float]], e: Event
    ) -> tuple[float, float]:
        """E5: the circle centre; else on the axis toward the rail the pawn flew over, just
        inside the circle; else the next such point clockwise."""
        if self._free((0.0, 0.0), layout, placed):
            return (0.0, 0.0)
        rail = e.cushion if e.cushion in OPPOSITE else self._nearest_rail(e.xy_mm)
        k = SIDES_CLOCKWISE.index(rail)
        depth = self.geo.circle_mm - self.geo.pawn_r_mm
        candidates = [self.geo.point(SIDES_CLOCKWISE[(k + i) % 4], depth, 0.0) for i in range(4)]
        for c in candidates:
            if self._free(c, layout, placed):
                return c
        return candidates[0]

    def _nearest_rail(self, xy: tuple[float, float]) -> str:
        return max(SIDES_CLOCKWISE, key=lambda s: float(self.geo.depth(s, np.array(xy))[0]))

    def penalty_spots(
        self,
        state: MatchState,
        layout: Layout,
        placed: list[tuple[float, float]],
        n: int,
        shot: Shot,
        who: int | None = None,
    ) -> tuple[tuple[float, float], ...]:
        """S0 §17.3: on the middle line of the penalized player's target row, touching the
        rail; else as near the middle as possible without moving a pawn; a tie goes to the
        side with fewer of his pawns, then fewer pawns, then the side the shot came from."""
        assert state.novuss is not None
        nv = state.novuss
        who = state.turn if who is None else who
        rail = OPPOSITE[nv.sides[who]]
        g = self.geo
        depth = g.half_mm - g.pawn_r_mm
        own = pawn_label(nv.colours[who])
        limit = g.zone_mm - g.pawn_r_mm
        puck = shot.before.by_label(PUCK)
        shot_from = 0.0 if puck is None else float(g.lateral(rail, puck)[0])
        out: list[tuple[float, float]] = []
        local = list(placed)
        for _ in range(n):
            pts = [tuple(p) for p in layout.xy_mm.tolist()] + local
            cands = {0.0}
            for p in pts:
                dd = depth - float(g.depth(rail, np.array(p))[0])
                if abs(dd) < 2 * g.pawn_r_mm:
                    span = math.sqrt((2 * g.pawn_r_mm) ** 2 - dd**2)
                    t = float(g.lateral(rail, np.array(p))[0])
                    cands |= {t - span, t + span}
            free = sorted(
                (
                    t
                    for t in cands
                    if abs(t) <= limit and self._free(g.point(rail, depth, t), layout, local)
                ),
                key=abs,
            )
            if not free:
                t = 0.0
            else:
                t = free[0]
                ties = [c for c in free if abs(abs(c) - abs(t)) < 0.5 and np.sign(c) != np.sign(t)]
                if ties:
                    t = self._tie_break(t, ties[0], rail, layout, own, shot_from)
            xy = g.point(rail, depth, t)
            out.append(xy)
            local.append(xy)
        return tuple(out)

    def _tie_break(
        self, t1: float, t2: float, rail: str, layout: Layout, own: str, shot_from: float
    ) -> float:
        lat = self.geo.lateral(rail, layout.xy_mm) if len(layout) else np.zeros(0)
        pawn = np.array([lab.endswith("_pawn") for lab in layout.labels], dtype=bool)
        mine = np.array([lab == own for lab in layout.labels], dtype=bool)

        def count(sign: float, mask: np.ndarray) -> int:
            return int(np.sum(mask & (np.sign(lat) == sign))) if len(lat) else 0

        s1, s2 = float(np.sign(t1)), float(np.sign(t2))
        for mask in (mine, pawn):
            c1, c2 = count(s1, mask), count(s2, mask)
            if c1 != c2:
                return t1 if c1 < c2 else t2
        return t1 if np.sign(shot_from) == s1 else t2

    def _set_over(
        self,
        state: MatchState,
        shot: Shot,
        book: CallBook,
        *,
        winner_colour: str | None,
        orders: list[Order],
        on_table: Sequence[str] = (),
        seats: str = "rotate",
        first_side: str | None = None,
    ) -> Judgement:
        """Score the set (or replay it), swap sides, set up the next set or end the match.
        ``seats="stay"`` keeps everyone in place (§20.6, §21.1 exception); ``first_side``
        moves the first-shot right (§21.1: to the player who pocketed last)."""
        assert state.novuss is not None
        nv = state.novuss
        scores = state.scores
        if winner_colour is not None:
            winners = [p for p, c in enumerate(nv.colours) if c == winner_colour]
            losers = [p for p in range(state.n) if p not in winners]
            scores = tuple(s + (1 if p in winners else 0) for p, s in enumerate(scores))
            names = " and ".join(state.players[p] for p in winners)
            if not book.has(Outcome.SET_WIN):
                book.add(
                    "Novuss 20.3",
                    Outcome.SET_WIN,
                    f"{names} win the set.",
                    player=state.players[winners[0]],
                )
            if not book.has(Outcome.SET_LOSS):
                book.add(
                    "Novuss 20.3",
                    Outcome.SET_LOSS,
                    f"{state.players[losers[0]]} loses the set.",
                    player=state.players[losers[0]],
                )
            if scores[winners[0]] * 2 > nv.sets_per_match:
                book.add(
                    "Novuss 23.1",
                    Outcome.MATCH_WIN,
                    f"{names} win the match {scores[winners[0]]}-{scores[losers[0]]}.",
                    player=state.players[winners[0]],
                    sets_won=list(scores),
                )
                nxt = state.with_(
                    shot=shot.number,
                    scores=scores,
                    winner=winners[0],
                    on_table=tuple(sorted(on_table)),
                )
                return Judgement(tuple(book.calls), nxt, tuple(orders))
        if seats == "stay":
            sides = nv.sides
        elif self.doubles:
            sides = tuple(SIDES_CLOCKWISE[(SIDES_CLOCKWISE.index(s) + 1) % 4] for s in nv.sides)
        else:
            sides = tuple(OPPOSITE[s] for s in nv.sides)
        first = nv.first_side if first_side is None else first_side
        protocol_first = self.settings.novuss_set_opener == "protocol_first"
        if first_side is None and winner_colour is not None and protocol_first and not (
            self.doubles
        ):  # §8.10: this set's first-shot holder opens the next one too, from his new side
            first = sides[nv.sides.index(nv.first_side)]
        opener = sides.index(first)
        info = replace(
            nv,
            sides=sides,
            first_side=first,
            set_no=nv.set_no + (1 if winner_colour else 0),
            series=put((0,) * state.n, opener, 1),
            cleared_first=None,
            cleared_flawed=False,
            dark_misses=(0,) * state.n,
            deferred=(0,) * state.n,
            set_started=False,
        )
        nxt = state.with_(
            shot=shot.number,
            scores=scores,
            turn=opener,
            penalty_debt=(0,) * state.n,
            fouls_in_a_row=(0,) * state.n,
            novuss=info,
        )
        setup = self.setup_order(nxt)
        nxt = nxt.with_(on_table=setup.labels)
        return Judgement(tuple(book.calls), nxt, (*orders, setup))
