"""Typed events: what happened on the table, when, and how sure we are.

One ``Event`` type serves the live pipeline (events found in tracks) and the simulation
(the exact event log of the physics), so a rules engine cannot tell them apart and ground
truth and measurement compare like with like. ``to_json`` writes the call-stream form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    SHOT_START = "shot_start"
    CONTACT = "contact"
    CUSHION = "cushion"
    POCKET = "pocket"
    OFF_TABLE = "off_table"
    LINE_CROSS = "line_cross"
    MOVED = "moved"
    PLACED = "placed"
    SHOT_END = "shot_end"

    def is_contact(self) -> bool:
        return self is EventKind.CONTACT

    def removes_object(self) -> bool:
        return self in (EventKind.POCKET, EventKind.OFF_TABLE)


@dataclass(frozen=True, slots=True)
class ObjectRef:
    id: int
    label: str


@dataclass(frozen=True, slots=True)
class Event:
    """One event. For a contact, ``objects[0]`` is the moving (striking) object."""

    kind: EventKind
    t_s: float
    frame: int
    shot: int
    objects: tuple[ObjectRef, ...]
    xy_mm: tuple[float, float]
    confidence: float = 1.0
    cushion: str | None = None
    pocket: str | None = None
    line: str | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in [0, 1], got {self.confidence}")
        if self.shot < 0 or self.frame < 0:
            raise ValueError("shot and frame must be >= 0")

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(o.label for o in self.objects)

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(o.id for o in self.objects)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "v": 1,
            "type": "event",
            "kind": self.kind.value,
            "t_s": round(self.t_s, 6),
            "frame": self.frame,
            "shot": self.shot,
            "objects": [{"id": o.id, "label": o.label} for o in self.objects],
            "xy_mm": [round(self.xy_mm[0], 2), round(self.xy_mm[1], 2)],
            "confidence": round(self.confidence, 4),
        }
        for key in ("cushion", "pocket", "line"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        return cls(
            kind=EventKind(obj["kind"]),
            t_s=float(obj["t_s"]),
            frame=int(obj["frame"]),
            shot=int(obj["shot"]),
            objects=tuple(ObjectRef(int(o["id"]), str(o["label"])) for o in obj["objects"]),
            xy_mm=(float(obj["xy_mm"][0]), float(obj["xy_mm"][1])),
            confidence=float(obj.get("confidence", 1.0)),
            cushion=obj.get("cushion"),
            pocket=obj.get("pocket"),
            line=obj.get("line"),
        )


EventFilter = Callable[[Event], bool]


def by_kind(*kinds: EventKind) -> EventFilter:
    return lambda e: e.kind in kinds


def by_label(*labels: str) -> EventFilter:
    return lambda e: any(label in labels for label in e.labels)


def by_object(*ids: int) -> EventFilter:
    return lambda e: any(i in ids for i in e.ids)


def after(t_s: float) -> EventFilter:
    return lambda e: e.t_s > t_s


def filter_events(events: Iterable[Event], *filters: EventFilter) -> list[Event]:
    """Events that pass every filter, in time order."""
    return sorted((e for e in events if all(f(e) for f in filters)), key=lambda e: e.t_s)
