"""Types shared by every rules engine: orders to the table, the match state, a judgement.

Engines are pure: ``judge(state, shot, declaration)`` returns the calls, the next frozen
``MatchState`` and the ``Order`` s the world must carry out (spot, restore, rerack...). Rules
are small predicates returning ``(ok, reason)``; the engines turn failed ones into calls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from adjudication.calls import Call, Outcome, event_summary
from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind
from adjudication.games import Game
from adjudication.shot import Layout, Shot

Check = tuple[bool, str]
"""A rule predicate's answer: ``(ok, reason)``; the reason says what was seen."""

ORDER_KINDS = frozenset({"spot", "restore", "rerack", "penalty_pawn", "to_circle", "remove"})


@dataclass(frozen=True, slots=True)
class Order:
    """What the referee orders the table to do after the shot; the world carries it out.

    ``labels[i]`` goes to ``xy_mm[i]``. ``ids`` names the tracked objects where known
    (restore, to_circle); it is empty for new placements (spotted balls, penalty pawns).
    """

    kind: str
    labels: tuple[str, ...]
    xy_mm: tuple[tuple[float, float], ...]
    ids: tuple[int, ...] = ()
    rule: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ORDER_KINDS:
            raise ValueError(f"unknown order kind {self.kind!r}; known: {sorted(ORDER_KINDS)}")
        if len(self.labels) != len(self.xy_mm):
            raise ValueError("an Order needs one position per label")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "labels": list(self.labels),
            "xy_mm": [[round(x, 2), round(y, 2)] for x, y in self.xy_mm],
            "ids": list(self.ids),
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class NearRail:
    """EST §7.2 (14.1): a player's run of shots in a row at ``ball``, lying within a ball's
    width of ``rail`` (``head``/``foot``/``left``/``right``), that drove it to that rail
    alone; ``shots`` counts them."""

    ball: str
    rail: str
    shots: int


@dataclass(frozen=True, slots=True)
class PoolInfo:
    """Pool specifics. ``groups[p]`` is ``solids``/``stripes``/None (8-ball, None = open)."""

    push_out_available: bool = False
    groups: tuple[str | None, ...] = (None, None)
    opening_break: bool = True  # 14.1: the next break must meet the opening-break rule
    target: int = 0  # 14.1 target score
    race_to: int = 0
    near_rail: tuple[NearRail | None, ...] = (None, None)
    """EST §7.2 (14.1): each player's current run of near-rail shots, None when he has none."""


@dataclass(frozen=True, slots=True)
class NovussInfo:
    """Novuss specifics: table side and colour per player, set number, the first-shot side."""

    sides: tuple[str, ...]
    colours: tuple[str, ...]
    set_no: int = 1
    first_side: str = "a"
    sets_per_match: int = 3
    series: tuple[int, ...] = ()
    """Series begun by each player in this set (first series: 1); () when not known (a
    stream that starts mid-set), which switches the first-series rules (§20.4, §21.7) off."""
    cleared_first: int | None = None
    """§20.4/§21.7: the player who cleared all his pawns in his first series; the next
    player now answers with one series."""
    cleared_flawed: bool = False
    """§20.4: that clearing shot also committed a turn-losing violation."""
    dark_misses: tuple[int, ...] = ()
    """§20.6: each player's misses on his dark pawns while every side holds only dark ones."""
    time_faults: tuple[int, ...] = ()
    """N29 (§19.3): each player's breaches of the shot-time limit so far in the match."""
    deferred: tuple[int, ...] = ()
    """N25 (§17.1.п): penalty pawns each player owes for touching a pawn while another had
    the turn, placed when that series ends."""
    warnings: tuple[int, ...] = ()
    """§19.1 (§15.3): each player's warnings so far in the match, the camera's (§19.1.а)
    and the referee's declared ones; the 3rd costs him the sets not yet played."""
    set_started: bool = False
    """The set's first shot has been judged (§16.1.ж looks at the first shot only)."""


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match after the last judged shot. ``scores`` are racks won (8/9/10-ball),
    points (14.1) or sets won (Novuss). ``winner`` is set once the match is over."""

    game: Game
    players: tuple[str, ...]
    turn: int = 0
    shot: int = 0
    scores: tuple[int, ...] = ()
    fouls_in_a_row: tuple[int, ...] = ()
    penalty_debt: tuple[int, ...] = ()
    on_table: tuple[str, ...] = ()
    ball_in_hand: str | None = None  # None | "anywhere" | "behind_head_string"
    breaking: bool = True
    breaker: int = 0
    rack: int = 1
    winner: int | None = None
    pool: PoolInfo | None = None
    novuss: NovussInfo | None = None
    clock_from_s: float | None = None
    """When the last judged shot ended (the shot clock runs from it, P15/N29); None at the
    start and after a re-rack or a new set (the table is being set up). Not in ``to_json``."""

    @property
    def shooter(self) -> str:
        return self.players[self.turn]

    @property
    def n(self) -> int:
        return len(self.players)

    def index(self, player: str) -> int:
        return self.players.index(player)

    def opponent(self, p: int | None = None) -> int:
        """The next player in turn order (2 players: the opponent; doubles: clockwise)."""
        return ((self.turn if p is None else p) + 1) % self.n

    def with_(self, **changes: Any) -> MatchState:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        by = self._by_player
        out: dict[str, Any] = {
            "v": 1,
            "type": "state",
            "game": self.game.value,
            "shot": self.shot,
            "turn": self.shooter,
            "scores": by(self.scores),
            "fouls_in_a_row": by(self.fouls_in_a_row),
            "penalty_debt": by(self.penalty_debt),
            "on_table": sorted(self.on_table),
            "ball_in_hand": self.ball_in_hand,
            "breaking": self.breaking,
            "rack": self.rack,
            "winner": None if self.winner is None else self.players[self.winner],
        }
        if self.pool is not None:
            if self.game is Game.EIGHT_BALL:
                out["groups"] = by(self.pool.groups)
            if self.game in (Game.NINE_BALL, Game.TEN_BALL):
                out["push_out_available"] = self.pool.push_out_available
            if self.game is Game.STRAIGHT_POOL:
                out["target"] = self.pool.target
                out["opening_break"] = self.pool.opening_break
            else:
                out["race_to"] = self.pool.race_to
        if self.novuss is not None:
            nv = self.novuss
            out["set"] = nv.set_no
            out["sets_won"] = by(self.scores)
            out["colours"] = by(nv.colours)
            out["sides"] = by(nv.sides)
            out["pawns"] = {c: self.on_table.count(f"{c}_pawn") for c in ("red", "black")}
        return out

    def _by_player(self, values: Sequence[Any]) -> dict[str, Any]:
        return {p: v for p, v in zip(self.players, values, strict=False)}


@dataclass(frozen=True, slots=True)
class Judgement:
    calls: tuple[Call, ...]
    state: MatchState
    orders: tuple[Order, ...] = ()


class RulesEngine(Protocol):
    game: Game

    def start(self, players: Sequence[str], *, first: int = 0) -> MatchState: ...

    def judge(
        self, state: MatchState, shot: Shot, declaration: Declaration | None = None
    ) -> Judgement: ...

    def legal_targets(self, state: MatchState, layout: Layout) -> frozenset[str]: ...


# ------------------------------------------------------------------------------ helpers


@dataclass(slots=True)
class CallBook:
    """Collects a shot's calls in order (a local, per-judge scratch pad)."""

    shot: Shot
    player: str
    calls: list[Call] = field(default_factory=list)

    def add(
        self,
        rule: str,
        outcome: Outcome,
        text: str,
        *,
        assumed: bool = False,
        t_s: float | None = None,
        player: str | None = None,
        **evidence: Any,
    ) -> Call:
        c = Call(
            shot=self.shot.number,
            t_s=self.shot.t_end_s if t_s is None else t_s,
            player=self.player if player is None else player,
            rule=rule,
            outcome=outcome,
            text=text,
            assumed=assumed,
            evidence=evidence,
        )
        self.calls.append(c)
        return c

    def has(self, *outcomes: Outcome) -> bool:
        return any(c.outcome in outcomes for c in self.calls)


def ev(e: Event | None) -> dict[str, Any] | None:
    return None if e is None else event_summary(e)


def bump(values: tuple[int, ...], i: int, by: int = 1) -> tuple[int, ...]:
    out = list(values)
    out[i] += by
    return tuple(out)


def put(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[i] = value
    return tuple(out)


def declared(declaration: Declaration | None) -> Declaration:
    return declaration if declaration is not None else Declaration()


def evidence_map(**kw: Any) -> Mapping[str, Any]:
    return kw


# ----------------------------------------------------------------- doubt and the referee


def doubtful(events: Iterable[Event | None], below: float) -> tuple[Event, ...]:
    """The events, of those that decide a call, seen with ``confidence`` under ``below``
    (each once, though several parts of the call name it)."""
    out: list[Event] = []
    for e in events:
        if e is not None and e.confidence < below and all(e is not o for o in out):
            out.append(e)
    return tuple(out)


def doubt_evidence(events: Sequence[Event]) -> dict[str, Any]:
    """Evidence naming the doubtful events and how sure the camera was of each."""
    return {
        "doubtful": [{**(ev(e) or {}), "confidence": round(e.confidence, 3)} for e in events]
    }


def calibration_review(shot: Shot, family: str) -> Check:
    """The table was seen well enough during the shot (``Shot.calibration_untrusted``)."""
    return not shot.calibration_untrusted, (
        f"{family} camera review: the table was not seen well enough during this shot"
    )


def overruled(calls: Sequence[Call], shot: Shot, player: str, d: Declaration) -> tuple[Call, ...]:
    """The referee's calls for the shot in place of the engine's (``Declaration.overrule``)."""
    engine_calls = [{"rule": c.rule, "outcome": c.outcome.value, "text": c.text} for c in calls]
    return tuple(
        Call(
            shot=shot.number,
            t_s=shot.t_end_s,
            player=player,
            rule=r.rule,
            outcome=Outcome(r.outcome),
            text=r.text,
            evidence={"by": "referee", "engine_calls": engine_calls},
        )
        for r in d.overrule
    )


# ------------------------------------------------------------------- the shot clock

STRIKERS = frozenset({"cue_ball", "puck"})


def table_ready_s(state: MatchState, shot: Shot) -> float | None:
    """When the table was ready for this shot: the previous shot's end
    (``MatchState.clock_from_s``), or later the referee's last placement between shots (a
    ``placed`` event of anything but the striker: a spotted ball, a restored or penalty pawn,
    a rack). None when neither is known (the match start, a re-rack with no placement seen).
    The shooter's own placing of the cue ball in hand or the puck is his time."""
    times = [
        e.t_s
        for e in shot.between
        if e.kind is EventKind.PLACED
        and e.labels[:1]
        and e.labels[0] not in STRIKERS
        and e.t_s <= shot.t_start_s
    ]
    if state.clock_from_s is not None:
        times.append(state.clock_from_s)
    return max(times, default=None)


def shot_clock_ok(state: MatchState, shot: Shot, limit_s: float | None) -> Check:
    """P15 (WPA 6.15) / N29 (S0 §19.3): the stroke came within ``limit_s`` of the table
    being ready. Always ok when the clock is off (``limit_s`` None) or the start unknown."""
    ready = table_ready_s(state, shot)
    if limit_s is None or ready is None:
        return True, ""
    took = shot.t_start_s - ready
    return took <= limit_s, f"the stroke came {took:.1f} s after the table was ready " \
        f"(limit {limit_s:g} s)"


def shot_time_evidence(state: MatchState, shot: Shot, limit_s: float | None) -> dict[str, Any]:
    ready = table_ready_s(state, shot)
    return {
        "ready_s": ready,
        "stroke_s": shot.t_start_s,
        "took_s": None if ready is None else round(shot.t_start_s - ready, 3),
        "limit_s": limit_s,
    }


JudgeFn = Callable[..., Judgement]


def refereed(family: str) -> Callable[[JudgeFn], JudgeFn]:
    """Wrap an engine's ``judge``: a ``review`` call when the calibration was untrusted during
    the shot, then the referee's overrule (``Declaration.overrule``) replaces the calls; the
    next state's ``clock_from_s`` is this shot's end (None after a re-rack)."""

    def wrap(judge: JudgeFn) -> JudgeFn:
        @functools.wraps(judge)
        def wrapped(
            self: Any, state: MatchState, shot: Shot, declaration: Declaration | None = None
        ) -> Judgement:
            j = judge(self, state, shot, declaration)
            calls = j.calls
            ok, reason = calibration_review(shot, family)
            if not ok:
                rule, text = reason.split(": ", 1)
                review = Call(
                    shot=shot.number,
                    t_s=shot.t_start_s,
                    player=state.shooter,
                    rule=rule,
                    outcome=Outcome.REVIEW,
                    text=f"{text.capitalize()}; referee to confirm the calls.",
                    evidence={"calibration_untrusted": True},
                )
                calls = (review, *calls)
            d = declared(declaration)
            if d.overrule:
                calls = overruled(calls, shot, state.shooter, d)
            # the shot clock restarts at this shot's end; a new rack or set waits for the table
            rerack = any(o.kind == "rerack" for o in j.orders)
            nxt = j.state.with_(clock_from_s=None if rerack else shot.t_end_s)
            return Judgement(calls, nxt, j.orders)

        return wrapped

    return wrap
