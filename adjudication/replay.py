"""Re-judge a recorded or hand-written event stream (the call-stream JSON Lines) shot by shot.

``StreamReferee`` is the bookkeeping around the pure rules engines: it groups ``event`` lines
into shots by their ``shot`` number (a shot is its events from ``shot_start`` to ``shot_end``;
earlier events with the same number happened between shots), keeps the table layout up to
date from ``match_start`` objects, ``placed``/``moved`` events, the positions events report,
pocket/off-table events and the engine's own orders (spotting, re-racks, penalty pawns), and
hands each shot to ``engine.judge``. It rejects a stream that contradicts itself with a
``StreamError`` naming the line.

Where the match starts (RULES-independent, documented defaults):
- ``match_start`` may give ``objects`` (``id``, ``label``, ``xy_mm``: the whole table),
  ``turn``, ``scores``, ``fouls_in_a_row``, ``penalty_debt``, ``breaking``, ``ball_in_hand``.
- ``"lag": true`` (pool) starts the match with a lag (WPA 1.2, ``rules.lag``): each shot is a
  lag, both strokes (one ``shot_start`` per ball) in the same shot, until one is decided;
  then the rack is set up and the breaker the lag gave (the winner, or the winner's
  ``break_opponent`` choice) breaks. Lag shots write calls but no ``state`` line.
- Without ``objects``, the layout is what ``placed`` events set up before the first stroke;
  with no ``placed`` events either, the game's standard set-up, bound to the ids that events
  name as they appear.
- Without ``breaking``, a pool match starts with a break when the first layout holds the full
  rack, else mid-rack with the cue ball where it lies.
- Scores, fouls in a row and penalty debt the stream does not give start at zero; the first
  ``state`` line lists them under ``unseen`` when the match did not start from a set-up.
- A ``state`` line with ``objects`` right after a shot gives where everything came to rest
  (more exact than event positions); other ``state``, ``call`` and ``calibration`` lines are
  ignored.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind
from adjudication.games import Game
from adjudication.rules import Judgement, MatchState, Order, RulesEngine, engine_for
from adjudication.rules.lag import judge_lag
from adjudication.rules.pool_common import CUE, object_balls, rack_order
from adjudication.settings import RuleSettings
from adjudication.shot import Layout, Shot
from calibration.tables import NOVUSS_LABELS, POOL_LABELS, TableSpec

STRIKERS = frozenset({CUE, "puck"})
TIME_TOLERANCE_S = 1e-6
DECLARATION_KEYS = frozenset(
    {"shot", "called_ball", "called_pocket", "safety", "push_out", "option", "frozen",
     "overrule", "touched_by_opponent", "warning", "warned", "spot_request",
     "groups_swapped"}
)


class StreamError(ValueError):
    """The stream contradicts itself at ``line``."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message
        #: lines judged before the problem (the previous shot's calls): keep them
        self.judged: list[dict[str, Any]] = []


def state_from_layout(engine: RulesEngine, game: Game, spec: TableSpec,
                      players: Sequence[str], layout: Layout,
                      fields: Mapping[str, Any] | None = None, *,
                      seeded: bool = False) -> tuple[MatchState, list[str]]:
    """The engine's state for a match first seen in ``layout``, and the counts it could not
    see (they start at zero and say so). ``fields`` are what a ``match_start`` line gave
    (scores, turn, breaking, ball in hand, colours); ``seeded``: the layout is the game's
    standard set-up, not something seen. A pool table with the full rack on it starts with
    a break; a Novuss board that is not the full set-up is mid-set (first series unknown)."""
    fields = fields or {}
    players = tuple(players)
    state = engine.start(players)
    if game.is_novuss:
        pawns = tuple(sorted(lab for lab in layout.labels if lab.endswith("_pawn")))
        fresh = seeded or len(pawns) == len(state.on_table)
        state = state.with_(on_table=pawns)
        if not fresh and state.novuss is not None:  # mid-set: first series not known
            state = state.with_(novuss=replace(state.novuss, series=()))
        if "colours" in fields and state.novuss is not None:
            cols = tuple(fields["colours"].get(p, c)
                         for p, c in zip(players, state.novuss.colours, strict=True))
            state = state.with_(novuss=replace(state.novuss, colours=cols))
    else:
        balls = object_balls(layout.labels)
        full = object_balls(rack_order(game, spec).labels)
        fresh = seeded or racked(game, spec, layout)
        if fresh:
            balls = full  # a rack in view holds the game's balls, whatever the labels read
        breaking = bool(fields.get("breaking", fresh))
        bih = fields.get("ball_in_hand", "behind_head_string" if breaking else None)
        state = state.with_(on_table=balls, breaking=breaking, ball_in_hand=bih)
    unseen = []
    for key in ("scores", "fouls_in_a_row", "penalty_debt"):
        if key in fields:
            values = tuple(int(fields[key].get(p, 0)) for p in players)
            state = state.with_(**{key: values})
        elif not fresh:
            unseen.append(key)
    if "turn" in fields:
        state = state.with_(turn=players.index(fields["turn"]))
    state = state.with_(fouls_in_a_row=state.fouls_in_a_row or (0,) * len(players))
    return state, unseen


def racked(game: Game, spec: TableSpec, layout: Layout) -> bool:
    """The layout holds a full rack for ``game``: an object (of any label but the cue ball)
    within a ball radius of at least 70 % of the places of the standard rack (11 of 15).
    Judged by position, since balls packed in a rack are the detector's weakest reading (stripes
    turned away read as the cue ball or another stripe, a ball between two is missed: from
    the pixels, the 14.1 sample's rack had 4 of its 15 places empty at the break); balls
    left in play never sit on so many rack places at once."""
    rack = rack_order(game, spec)
    objs = layout.xy_mm[~layout.mask(CUE)]
    if not len(objs):
        return False
    reach = spec.object_for(rack.labels[0]).radius_mm
    places = np.asarray(rack.xy_mm, dtype=float)
    dist = np.linalg.norm(places[:, None, :] - objs[None, :, :], axis=2).min(axis=1)
    return 10 * int(np.sum(dist <= reach)) >= 7 * len(places)


def labels_for(game: Game) -> frozenset[str]:
    return frozenset(NOVUSS_LABELS if game.is_novuss else POOL_LABELS)


def declarations_from_lines(
    items: Sequence[tuple[int, Mapping[str, Any]]],
) -> dict[int, Declaration]:
    """``{shot: Declaration}`` from ``(line number, object)`` pairs; each object names its
    ``shot`` and any of the ``Declaration`` fields. ``StreamError`` names a bad line."""
    out: dict[int, Declaration] = {}
    for line, obj in items:
        if not isinstance(obj, Mapping):
            raise StreamError(line, "a declaration must be a JSON object")
        unknown = sorted(set(obj) - DECLARATION_KEYS)
        if unknown:
            raise StreamError(
                line, f"unknown declaration field {unknown[0]!r}; known: "
                + ", ".join(sorted(DECLARATION_KEYS))
            )
        shot = obj.get("shot")
        if not isinstance(shot, int) or isinstance(shot, bool) or shot < 0:
            raise StreamError(line, "a declaration needs \"shot\": the shot number (>= 0)")
        if shot in out:
            raise StreamError(line, f"shot {shot} is declared twice")
        try:
            out[shot] = Declaration.from_json(obj)
        except (KeyError, TypeError, ValueError) as exc:
            raise StreamError(line, str(exc)) from None
    return out


@dataclass(slots=True)
class _Table:
    """The layout as the stream tells it: id -> (label, xy_mm). Synthetic ids are negative."""

    objects: dict[int, tuple[str, tuple[float, float]]] = field(default_factory=dict)
    removed: dict[int, tuple[str, str]] = field(default_factory=dict)  # id -> (label, how)
    next_synthetic: int = -1

    def layout(self) -> Layout:
        ids = sorted(self.objects)
        return Layout(
            np.array(ids, dtype=int),
            tuple(self.objects[i][0] for i in ids),
            np.array([self.objects[i][1] for i in ids], dtype=float).reshape(-1, 2),
        )

    def synthetic(self, label: str, xy: tuple[float, float]) -> int:
        i = self.next_synthetic
        self.next_synthetic -= 1
        self.objects[i] = (label, xy)
        return i

    def bind(self, obj_id: int, label: str, xy: tuple[float, float] | None) -> bool:
        """Give a synthetic object of ``label`` (the nearest to ``xy``) the real ``obj_id``."""
        cands = [i for i, (lab, _) in self.objects.items() if i < 0 and lab == label]
        if not cands:
            return False
        if xy is not None:
            cands.sort(key=lambda i: math.dist(self.objects[i][1], xy))
        keep = self.objects.pop(cands[0])
        self.objects[obj_id] = keep
        return True

    def put(self, obj_id: int, label: str, xy: tuple[float, float]) -> None:
        self.removed.pop(obj_id, None)
        self.objects[obj_id] = (label, xy)

    def move(self, obj_id: int, xy: tuple[float, float]) -> None:
        if obj_id in self.objects and all(math.isfinite(v) for v in xy):
            self.objects[obj_id] = (self.objects[obj_id][0], xy)


@dataclass(slots=True)
class _OpenShot:
    number: int
    start: Event
    start_line: int
    before: Layout
    events: list[Event] = field(default_factory=list)
    end: Event | None = None


class StreamReferee:
    """Feeds an event stream to the rules engine of ``game``; ``feed`` and ``close`` return
    the output lines (``match_start``, ``call`` and ``state`` objects) as they become final."""

    def __init__(
        self,
        game: Game,
        spec: TableSpec,
        *,
        declarations: Mapping[int, Declaration] | None = None,
        settings: RuleSettings | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        self.game = game
        self.spec = spec
        self.engine: RulesEngine = engine_for(game, spec, settings)
        self.settings = settings if settings is not None else RuleSettings()
        self.declarations = dict(declarations or {})
        n = 4 if game is Game.NOVUSS_DOUBLES else 2
        self.players = tuple(players) if players else tuple("ABCD"[:n])
        self.reset()

    def reset(self) -> None:
        self.table = _Table()
        self.state: MatchState | None = None
        self.start_fields: dict[str, Any] = {}
        self.have_objects = False
        self.seen_match_start = False
        self.seen_event = False
        self.between: list[Event] = []
        self.open: _OpenShot | None = None
        self.pending: _OpenShot | None = None  # ended, waiting for a possible rest ``state``
        self.rest: Layout | None = None
        self.last_t = -math.inf
        self.last_shot = 0
        self.line = 0
        self.first_shot: int | None = None
        self.unseen: list[str] = []
        self.lag = False  # WPA 1.2: the next shot is a lag (match_start "lag": true)
        self.lag_breaker: int | None = None  # who breaks, as the lag decided

    @property
    def layout(self) -> Layout:
        """The table as the stream has told it so far (synthetic ids are negative)."""
        return self.table.layout()

    # ------------------------------------------------------------------------- input

    def feed(self, line: int, obj: Mapping[str, Any]) -> list[dict[str, Any]]:
        self.line = line
        kind = obj.get("type")
        out: list[dict[str, Any]] = []
        if kind == "state" and self.pending is not None and "objects" in obj:
            self.rest = self._layout_of(obj["objects"], line)
            return out
        if kind in ("state", "call", "calibration"):
            return out
        if self.pending is not None and kind == "event" and self._late_drop(line, obj):
            return out
        if self.pending is not None:
            out += self._judge_pending()
        try:
            if kind == "match_start":
                return out + self._match_start(line, obj)
            if kind == "event":
                try:
                    e = Event.from_json(dict(obj))
                except (KeyError, TypeError, ValueError, IndexError) as exc:
                    raise StreamError(line, f"not a valid event ({exc})") from None
                return out + self._event(line, e, obj)
            raise StreamError(line, f"unknown line type {kind!r}")
        except StreamError as exc:
            exc.judged = out + exc.judged
            raise

    def close(self) -> list[dict[str, Any]]:
        if self.open is not None:
            raise StreamError(
                self.open.start_line,
                f"shot {self.open.number} has no shot_end (the stream ended during it)",
            )
        return self._judge_pending() if self.pending is not None else []

    # ------------------------------------------------------------------- match start

    def _match_start(self, line: int, obj: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.seen_match_start or self.seen_event:
            raise StreamError(line, "match_start must be the first line, and only one")
        self.seen_match_start = True
        if obj.get("game") not in (None, self.game.value):
            raise StreamError(
                line, f"the stream is a {obj.get('game')} match, not --game {self.game.value}"
            )
        players = obj.get("players")
        if players:
            want = 4 if self.game is Game.NOVUSS_DOUBLES else 2
            if len(players) != want:
                raise StreamError(
                    line, f"{self.game.value} needs {want} players, got {len(players)}"
                )
            self.players = tuple(str(p) for p in players)
        for key in ("turn", "scores", "fouls_in_a_row", "penalty_debt", "breaking",
                    "ball_in_hand", "colours"):
            if key in obj:
                self.start_fields[key] = obj[key]
        if "turn" in obj and obj["turn"] not in self.players:
            raise StreamError(line, f"turn {obj['turn']!r} is not one of the players")
        if "lag" in obj:
            self.lag = self._lag_start(line, obj)
        if "objects" in obj:
            layout = self._layout_of(obj["objects"], line)
            for i, lab, xy in zip(layout.ids.tolist(), layout.labels, layout.xy_mm.tolist(),
                                  strict=True):
                self.table.put(int(i), lab, (float(xy[0]), float(xy[1])))
            self.have_objects = True
        echo = {k: v for k, v in obj.items() if k not in ("objects",)}
        echo.setdefault("v", 1)
        return [dict(echo)]

    def _layout_of(self, items: Any, line: int) -> Layout:
        if not isinstance(items, list):
            raise StreamError(line, "objects must be a list of {id, label, xy_mm}")
        known = labels_for(self.game)
        ids, labels, xy = [], [], []
        for o in items:
            try:
                i, lab = int(o["id"]), str(o["label"])
                p = (float(o["xy_mm"][0]), float(o["xy_mm"][1]))
            except (KeyError, TypeError, ValueError, IndexError):
                raise StreamError(line, "each object needs id, label and xy_mm [x, y]") from None
            if lab not in known:
                raise StreamError(line, f"unknown label {lab!r} for {self.game.value}")
            if i in ids:
                raise StreamError(line, f"object id {i} appears twice")
            ids.append(i)
            labels.append(lab)
            xy.append(p)
        return Layout(np.array(ids, dtype=int), tuple(labels), np.array(xy).reshape(-1, 2))

    def _lag_start(self, line: int, obj: Mapping[str, Any]) -> bool:
        """``"lag": true``: the match starts with a lag (WPA 1.2), so no turn is given and the
        first shot after it is a break."""
        lag = obj["lag"]
        if not isinstance(lag, bool):
            raise StreamError(line, "lag must be true or false")
        if lag and self.game.is_novuss:
            raise StreamError(line, "a lag starts pool matches only; drop \"lag\" for Novuss")
        if lag and ("turn" in obj or obj.get("breaking") is False):
            raise StreamError(
                line, "a match that starts with a lag has no turn yet and starts with a "
                "break: drop \"turn\" and \"breaking\": false")
        return lag

    def _begin(self) -> None:
        """The match state at the first stroke: from match_start, else from what was seen."""
        placed = [e for e in self.between if e.kind is EventKind.PLACED]
        seeded = False
        if not self.have_objects and not placed and not self.table.objects:
            self._seed_setup()
            seeded = True
        self.state, self.unseen = state_from_layout(
            self.engine, self.game, self.spec, self.players, self.table.layout(),
            self.start_fields, seeded=seeded)
        if self.lag_breaker is not None:  # WPA 1.2 / 2.1: the lag decided the first breaker
            self.state = self.state.with_(breaker=self.lag_breaker)

    def _seed_setup(self) -> None:
        """The standard set-up with synthetic ids, bound to real ids as events name them."""
        if self.game.is_novuss:
            order = self.engine.setup_order(self.engine.start(self.players))  # type: ignore[attr-defined]
        else:
            order = rack_order(self.game, self.spec)
        for lab, xy in zip(order.labels, order.xy_mm, strict=True):
            self.table.synthetic(lab, xy)

    # ------------------------------------------------------------------------ events

    def _event(self, line: int, e: Event, raw: Mapping[str, Any]) -> list[dict[str, Any]]:
        self.seen_event = True
        known = labels_for(self.game)
        for o in e.objects:
            if o.label not in known:
                raise StreamError(line, f"unknown label {o.label!r} for {self.game.value}")
        if e.t_s < self.last_t - TIME_TOLERANCE_S:
            raise StreamError(
                line, f"event at t_s={e.t_s} is out of time order (after t_s={self.last_t})"
            )
        self.last_t = max(self.last_t, e.t_s)
        if e.shot < self.last_shot:
            raise StreamError(line, f"event of shot {e.shot} after shot {self.last_shot}")
        op = self.open
        if op is not None and e.shot != op.number:
            raise StreamError(
                op.start_line, f"shot {op.number} has no shot_end before shot {e.shot} events"
            )
        if e.kind is EventKind.SHOT_START:
            if op is not None and self.lag:  # the other lag stroke, part of the same shot
                self._touch(e, line, start=True)
                op.events.append(e)
                return []
            if op is not None:
                raise StreamError(line, f"shot {op.number} has no shot_end before a new shot_start")
            if self.state is None and not self.lag:
                self._begin()
            if self.state is not None and self.state.winner is not None:
                raise StreamError(line, f"shot {e.shot} comes after the match was won")
            self._touch(e, line, start=True)
            self.last_shot = e.shot
            self.open = _OpenShot(e.shot, e, line, self.table.layout())
            return []
        if e.kind is EventKind.SHOT_END:
            if op is None:
                raise StreamError(line, f"shot_end of shot {e.shot} without a shot_start")
            op.end = e
            self.open = None
            self.pending = op
            return []
        self._touch(e, line, start=False)
        if op is None:
            self.between.append(e)
        else:
            op.events.append(e)
        return []

    def _touch(self, e: Event, line: int, *, start: bool) -> None:
        """Check the event against the layout and update it."""
        tab = self.table
        xy = e.xy_mm
        for k, o in enumerate(e.objects):
            here = o.id in tab.objects
            if not here and o.id not in tab.removed:
                here = tab.bind(o.id, o.label, xy if k == 0 else None)
            if here and tab.objects[o.id][0] != o.label:
                raise StreamError(
                    line, f"object id {o.id} is {tab.objects[o.id][0]}, not {o.label}"
                )
            if e.kind is EventKind.PLACED and k == 0:
                tab.put(o.id, o.label, xy)
                continue
            if here:
                continue
            if o.label in STRIKERS:  # the cue ball in hand, the puck picked up each shot
                tab.put(o.id, o.label, xy)
                continue
            if o.id in tab.removed:
                what = tab.removed[o.id][1]
                if e.kind is EventKind.POCKET and what == "pocketed":
                    raise StreamError(line, f"{o.label} (id {o.id}) was pocketed twice")
                raise StreamError(
                    line, f"{o.label} (id {o.id}) is not on the table (it was {what})"
                )
            if self.have_objects or self.state is not None and not self._learning():
                raise StreamError(line, f"{o.label} (id {o.id}) is not on the table")
            tab.put(o.id, o.label, xy)  # first position seen
        if not e.objects:
            return
        first = e.objects[0]
        if e.kind.removes_object():
            tab.objects.pop(first.id, None)
            how = "pocketed" if e.kind is EventKind.POCKET else "off the table"
            tab.removed[first.id] = (first.label, how)
        elif e.kind in (EventKind.MOVED, EventKind.CUSHION, EventKind.LINE_CROSS) or start:
            tab.move(first.id, xy)

    def _learning(self) -> bool:
        """Objects not yet seen may still appear: the layout came from events alone."""
        return not self.have_objects and not any(i < 0 for i in self.table.objects)

    # ------------------------------------------------------------------------- judge

    def _late_drop(self, line: int, obj: Mapping[str, Any]) -> bool:
        """WPA 8.3: a pool ball that drops into a pocket within ``pocket_lip_wait_s`` of the
        end of a shot not yet judged (nothing else came in between) was still on its way: it
        joins that shot and counts for it. Returns whether ``obj`` was taken so."""
        op = self.pending
        if (op is None or op.end is None or self.lag or self.game.is_novuss
                or obj.get("kind") != EventKind.POCKET.value):
            return False
        try:
            e = Event.from_json(dict(obj))
        except (KeyError, TypeError, ValueError, IndexError):
            return False  # the ordinary path reports it
        t_end = op.end.t_s
        if (not e.objects or e.shot < self.last_shot or e.t_s < self.last_t - TIME_TOLERANCE_S
                or not t_end <= e.t_s <= t_end + self.settings.pocket_lip_wait_s
                or any(o.label not in labels_for(self.game) for o in e.objects)):
            return False
        self.seen_event = True
        self.last_t = max(self.last_t, e.t_s)
        self._touch(e, line, start=False)
        op.events.append(e)
        return True

    def _judge_pending(self) -> list[dict[str, Any]]:
        op, self.pending = self.pending, None
        assert op is not None and op.end is not None
        assert self.state is not None or self.lag
        out: list[dict[str, Any]] = []
        if self.rest is not None:  # less a ball that dropped late (WPA 8.3, ``_late_drop``)
            gone = [e.objects[0].id for e in op.events if e.kind.removes_object() and e.objects]
            after = self.rest.without_ids(gone)
            self.table.objects = {
                int(i): (lab, (float(p[0]), float(p[1])))
                for i, lab, p in zip(after.ids.tolist(), after.labels, after.xy_mm.tolist(),
                                     strict=True)
            }
            self.rest = None
        else:
            after = self.table.layout()
        if self.lag:
            return self._judge_lag(op, after)
        assert self.state is not None
        if self.first_shot is None:
            self.first_shot = op.number
            out.append(self._initial_state_line())
        shot = self._take_shot(op, after)
        decl = self.declarations.get(op.number)
        try:
            j: Judgement = self.engine.judge(self.state, shot, decl)
        except ValueError as exc:
            raise StreamError(op.start_line, f"shot {op.number} cannot be judged: {exc}") from None
        self._apply(j.orders)
        self.state = j.state
        out += [c.to_json() for c in j.calls]
        out.append(j.state.to_json())
        return out

    def _take_shot(self, op: _OpenShot, after: Layout) -> Shot:
        """The closed shot to judge, with the events seen since the last one (taken)."""
        assert op.end is not None
        shot = Shot(
            number=op.number,
            player="",
            t_start_s=op.start.t_s,
            t_end_s=op.end.t_s,
            before=op.before,
            after=after,
            events=(op.start, *op.events, op.end),
            between=tuple(self.between),
        )
        self.between = []
        return shot

    def _judge_lag(self, op: _OpenShot, after: Layout) -> list[dict[str, Any]]:
        """WPA 1.2: a lag shot gives calls only (no ``state`` line: the match has not begun).
        Once it is decided the lag balls leave the table; the rack is what ``placed`` events
        set up before the break, else the standard set-up, and the match state starts at the
        break (the ``shot`` 0 state line) with the lag's breaker to shoot. A re-lag keeps the
        balls where they rest until ``placed`` events put them back."""
        shot = self._take_shot(op, after)
        try:
            res = judge_lag(shot, self.spec, self.players, self.settings,
                            self.declarations.get(op.number))
        except ValueError as exc:
            raise StreamError(op.start_line, f"lag shot {op.number} cannot be judged: {exc}") \
                from None
        if res.breaker is not None:
            self.lag = False
            self.lag_breaker = res.breaker
            self.table = _Table()
            self.have_objects = False
            self.start_fields.update(turn=self.players[res.breaker], breaking=True)
            for key in ("scores", "fouls_in_a_row", "penalty_debt"):  # a fresh match
                self.start_fields.setdefault(key, {})
        return [c.to_json() for c in res.calls]

    def _initial_state_line(self) -> dict[str, Any]:
        assert self.state is not None
        line = self.state.to_json()
        line["shot"] = 0
        if self.unseen:
            line["unseen"] = list(self.unseen)
        return line

    def _apply(self, orders: Sequence[Order]) -> None:
        """Carry out the engine's orders on the layout (the world would; events may follow)."""
        tab = self.table
        for o in orders:
            if o.kind == "rerack":
                keep = {i: v for i, v in tab.objects.items() if v[0] in STRIKERS}
                if o.rule == "WPA 4.4":  # the 14-ball re-rack keeps the 15th ball
                    keep = {i: v for i, v in tab.objects.items()
                            if v[0] in STRIKERS or v[0] not in o.labels}
                tab.objects = keep
                for lab, xy in zip(o.labels, o.xy_mm, strict=True):
                    self._place(lab, xy, None)
                continue
            for k, (lab, xy) in enumerate(zip(o.labels, o.xy_mm, strict=True)):
                self._place(lab, xy, o.ids[k] if k < len(o.ids) else None)

    def _place(self, label: str, xy: tuple[float, float], obj_id: int | None) -> None:
        tab = self.table
        if obj_id is not None:
            tab.put(obj_id, label, xy)
            return
        if not self.game.is_novuss:
            for i, (lab, _) in list(tab.objects.items()):
                if lab == label:
                    tab.put(i, label, xy)
                    return
            for i, (lab, _how) in list(tab.removed.items()):
                if lab == label:
                    tab.put(i, label, xy)
                    return
        tab.synthetic(label, xy)
