"""Builders for the rules tests: shots from plain lists, plus tests of the shared types.

Events are tuples ``(kind, t_s, label, other)`` where ``other`` is the second object of a
contact, the cushion of a cushion event, the pocket of a pocket event or the line of a
line crossing. A label may carry its track id as ``"red_pawn#3"``; otherwise the id comes
from the ``before`` layout (first object with that label).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from adjudication.calls import Call, Outcome
from adjudication.declarations import Declaration
from adjudication.events import Event, EventKind, ObjectRef
from adjudication.rules import Judgement, Order, engine_for
from adjudication.settings import RuleSettings
from adjudication.shot import Layout, Shot
from calibration.tables import get_table

POOL = get_table("pool-9ft")
NOVUSS = get_table("novuss")
HEAD_X = -635.0  # head string on a 9 ft table (centred frame)
FOOT_X = 635.0


def _split(label: str, before: Layout) -> ObjectRef:
    if "#" in label:
        name, num = label.split("#")
        return ObjectRef(int(num), name)
    hits = [int(i) for i, lab in zip(before.ids, before.labels, strict=True) if lab == label]
    return ObjectRef(hits[0] if hits else -1, label)


def layout(rows: Sequence[Sequence[Any]]) -> Layout:
    return Layout.from_rows(rows)


def make_event(row: Sequence[Any], before: Layout, number: int) -> Event:
    kind = EventKind(row[0])
    t = float(row[1])
    first = _split(row[2], before)
    other = row[3] if len(row) > 3 else None
    xy = tuple(row[4]) if len(row) > 4 else (0.0, 0.0)
    objects = (first,)
    extra: dict[str, Any] = {}
    if kind is EventKind.CONTACT:
        objects = (first, _split(str(other), before))
    elif kind is EventKind.CUSHION:
        extra["cushion"] = other
    elif kind is EventKind.POCKET:
        extra["pocket"] = other
    elif kind is EventKind.LINE_CROSS:
        extra["line"] = other
    elif kind is EventKind.OFF_TABLE and other:
        extra["cushion"] = other
    if len(row) <= 4:
        p = before.by_id(first.id) if first.id >= 0 else None
        xy = (0.0, 0.0) if p is None else (float(p[0]), float(p[1]))
    return Event(kind, t, max(0, int(t * 30)), number, objects, xy, **extra)  # type: ignore[arg-type]


def shot(
    before: Sequence[Sequence[Any]],
    events: Sequence[Sequence[Any]] = (),
    after: Sequence[Sequence[Any]] | None = None,
    *,
    between: Sequence[Sequence[Any]] = (),
    number: int = 1,
    player: str = "",
    moving: Sequence[str] = (),
    moved_to: dict[str, tuple[float, float]] | None = None,
) -> Shot:
    """A shot; ``after`` defaults to ``before`` less what was pocketed or left the table,
    with ``moved_to`` giving new positions by label (or ``label#id``)."""
    b = layout(before)
    evs = tuple(make_event(r, b, number) for r in events)
    btw = tuple(make_event(r, b, max(number - 1, 0)) for r in between)
    if after is None:
        gone = {o.id for e in evs if e.kind.removes_object() for o in e.objects[:1]}
        moved = {_split(k, b).id: v for k, v in (moved_to or {}).items()}
        rows = []
        for i, lab, xy in zip(b.ids.tolist(), b.labels, b.xy_mm.tolist(), strict=True):
            if i in gone:
                continue
            x, y = moved.get(i, xy)
            rows.append((lab, x, y, i))
        a = layout(rows)
    else:
        a = layout(after)
    t_end = max((e.t_s for e in evs), default=0.0) + 1.0
    return Shot(number, player, 0.0, t_end, b, a, evs, btw, tuple(moving))


def outcomes(j: Judgement) -> list[tuple[str, str]]:
    return [(c.rule, c.outcome.value) for c in j.calls]


def has(j: Judgement, rule: str, outcome: Outcome | str) -> bool:
    return (rule, str(outcome)) in outcomes(j)


def orders_of(j: Judgement, kind: str) -> list[Order]:
    return [o for o in j.orders if o.kind == kind]


def check_json(j: Judgement) -> None:
    for c in j.calls:
        json.dumps(c.to_json())
    json.dumps(j.state.to_json())
    json.dumps([o.to_json() for o in j.orders])


def engine(game: str, **settings: Any):  # type: ignore[no-untyped-def]
    spec = NOVUSS if game.startswith("novuss") else POOL
    return engine_for(game, spec, RuleSettings(**settings))


# ------------------------------------------------------------------------- shared types


def test_layout_struct_of_arrays() -> None:
    lay = layout([("cue_ball", 0, 0), ("ball_1", 10, 20), ("ball_2", 30, 40)])
    assert len(lay) == 3
    assert lay.by_label("ball_1").tolist() == [10.0, 20.0]
    assert lay.by_label("ball_9") is None
    sub = lay[np.array([False, True, True])]
    assert sub.labels == ("ball_1", "ball_2") and len(Layout.empty()) == 0
    assert lay.labels_set == {"cue_ball", "ball_1", "ball_2"}
    with pytest.raises(ValueError, match="as many"):
        Layout(np.zeros(2), ("a",), np.zeros((2, 2)))
    with pytest.raises(ValueError):
        lay.xy_mm[0, 0] = 5.0


def test_call_to_json_is_serialisable() -> None:
    c = Call(
        1,
        1.5,
        "ann",
        "WPA 6.2",
        Outcome.FOUL,
        "Foul.",
        False,
        {"d": np.float64(1.23456), "xy": np.zeros(2)},
    )
    out = c.to_json()
    assert out["type"] == "call" and out["v"] == 1 and out["outcome"] == "foul"
    assert json.loads(json.dumps(out))["evidence"] == {"d": 1.235, "xy": [0.0, 0.0]}


def test_declaration_round_trip_and_bad_option() -> None:
    d = Declaration(
        called_ball="ball_3", called_pocket="foot_left", option="accept", frozen=("ball_5",)
    )
    assert Declaration.from_json(d.to_json()) == d
    with pytest.raises(ValueError, match="unknown option"):
        Declaration(option="maybe")


def test_settings_validated() -> None:
    with pytest.raises(ValueError):
        RuleSettings(race_to=0)


def test_engine_for_rejects_wrong_table() -> None:
    with pytest.raises(ValueError, match="table"):
        engine_for("novuss", POOL)
    with pytest.raises(ValueError, match="unknown game"):
        engine_for("snooker", POOL)


def test_shot_helpers() -> None:
    s = shot(
        [("cue_ball", -700, 0), ("ball_1", 600, 0)],
        [
            ("contact", 1.0, "cue_ball", "ball_1"),
            ("cushion", 1.5, "ball_1", "foot"),
            ("pocket", 2.0, "ball_1", "foot_left"),
        ],
    )
    assert s.first_contact("cue_ball").labels == ("cue_ball", "ball_1")
    assert s.pocketed_labels() == ("ball_1",)
    assert [e.cushion for e in s.cushions_after(1.2)] == ["foot"]
    assert s.objects_to_rails_count() == 1
    assert "ball_1" not in s.after.labels
