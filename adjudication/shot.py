"""What the rules engines judge: one shot, the layouts around it and its events.

``Layout`` is a frozen struct of arrays (ids, labels, positions in the table frame, mm), like
the other stage batches. ``Shot`` bundles the layout when the shot started, the layout at rest
afterwards, the shot's events and the events seen between the previous shot and this one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from adjudication.events import Event, EventKind, ObjectRef


@dataclass(frozen=True, slots=True)
class Layout:
    """Objects on the table at one instant: ``ids`` (N,), ``labels`` (N), ``xy_mm`` (N, 2)."""

    ids: np.ndarray
    labels: tuple[str, ...]
    xy_mm: np.ndarray

    def __post_init__(self) -> None:
        ids = np.asarray(self.ids, dtype=int).reshape(-1)
        xy = np.asarray(self.xy_mm, dtype=float).reshape(-1, 2)
        if not (len(ids) == len(self.labels) == len(xy)):
            raise ValueError(
                f"Layout needs as many ids, labels and xy_mm rows: got {len(ids)} ids, "
                f"{len(self.labels)} labels, {len(xy)} positions"
            )
        ids.setflags(write=False)
        xy.setflags(write=False)
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "xy_mm", xy)

    @classmethod
    def empty(cls) -> Layout:
        return cls(np.zeros(0, dtype=int), (), np.zeros((0, 2)))

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[object]]) -> Layout:
        """From ``(label, x, y)`` or ``(label, x, y, id)`` rows; ids default to the row index."""
        rows = list(rows)
        labels = tuple(str(r[0]) for r in rows)
        xy = np.array([[float(r[1]), float(r[2])] for r in rows], dtype=float).reshape(-1, 2)  # type: ignore[arg-type,type-var,unused-ignore]
        ids = np.array([int(r[3]) if len(r) > 3 else i for i, r in enumerate(rows)], dtype=int)  # type: ignore[call-overload,type-var,unused-ignore]
        return cls(ids, labels, xy)

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, index: np.ndarray | int | slice) -> Layout:
        idx = np.arange(len(self))[index]
        idx = np.atleast_1d(idx)
        return Layout(self.ids[idx], tuple(self.labels[i] for i in idx), self.xy_mm[idx])

    @property
    def labels_set(self) -> frozenset[str]:
        return frozenset(self.labels)

    def mask(self, *labels: str) -> np.ndarray:
        return np.array([lab in labels for lab in self.labels], dtype=bool)

    def of_label(self, *labels: str) -> Layout:
        return self[self.mask(*labels)]

    def by_label(self, label: str) -> np.ndarray | None:
        """Position of the (first) object with this label, or ``None`` when there is none."""
        for i, lab in enumerate(self.labels):
            if lab == label:
                return self.xy_mm[i]
        return None

    def by_id(self, obj_id: int) -> np.ndarray | None:
        hits = np.flatnonzero(self.ids == obj_id)
        return self.xy_mm[hits[0]] if len(hits) else None

    def without_ids(self, ids: Iterable[int]) -> Layout:
        drop = set(ids)
        return self[np.array([i not in drop for i in self.ids.tolist()], dtype=bool)]


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot: from the stroke until everything is at rest.

    ``moving_at_start`` lists objects the segmenter saw still moving when this shot's stroke
    was made (WPA 6.9, Novuss §17.1.м); an event of this shot timed before ``t_start_s``
    (other than ``shot_start``) counts the same way.

    ``calibration_untrusted`` is set by whoever builds the shot (the live pipeline) when the
    table calibration could not be trusted during it; every engine then adds a ``review``
    call: the table was not seen well enough to judge this shot alone.
    """

    number: int
    player: str
    t_start_s: float
    t_end_s: float
    before: Layout
    after: Layout
    events: tuple[Event, ...]
    between: tuple[Event, ...] = ()
    moving_at_start: tuple[str, ...] = field(default=())
    calibration_untrusted: bool = False

    def sorted_events(self, *kinds: EventKind) -> list[Event]:
        evs = [e for e in self.events if not kinds or e.kind in kinds]
        return sorted(evs, key=lambda e: e.t_s)

    def first_contact(self, striker_label: str) -> Event | None:
        """The first contact in which the striker (cue ball, puck) hits something."""
        for e in self.sorted_events(EventKind.CONTACT):
            if striker_label in e.labels:
                return e
        return None

    def contacts_of(self, striker_label: str) -> list[Event]:
        return [e for e in self.sorted_events(EventKind.CONTACT) if striker_label in e.labels]

    def pocketed(self) -> list[Event]:
        return self.sorted_events(EventKind.POCKET)

    def pocketed_labels(self) -> tuple[str, ...]:
        return tuple(e.labels[0] for e in self.pocketed() if e.labels)

    def off_table_labels(self) -> tuple[str, ...]:
        return tuple(e.labels[0] for e in self.sorted_events(EventKind.OFF_TABLE) if e.labels)

    def cushions_after(self, t_s: float) -> list[Event]:
        return [e for e in self.sorted_events(EventKind.CUSHION) if e.t_s >= t_s]

    def objects_to_rails(
        self, t_s: float = float("-inf"), exclude: Iterable[str] = ()
    ) -> frozenset[ObjectRef]:
        """Objects driven to a rail at or after ``t_s``: cushion, pocket or off table (WPA 8.4)."""
        skip = set(exclude)
        out = set()
        for e in self.sorted_events(EventKind.CUSHION, EventKind.POCKET, EventKind.OFF_TABLE):
            if e.t_s >= t_s and e.objects and e.objects[0].label not in skip:
                out.add(e.objects[0])
        return frozenset(out)

    def objects_to_rails_count(
        self, t_s: float = float("-inf"), exclude: Iterable[str] = ()
    ) -> int:
        return len(self.objects_to_rails(t_s, exclude))

    def still_moving_at_start(self) -> tuple[str, ...]:
        """Objects moving when the stroke was made: the flag, plus events timed too early."""
        early = [
            lab
            for e in self.events
            if e.kind is not EventKind.SHOT_START and e.t_s < self.t_start_s
            for lab in e.labels[:1]
        ]
        return tuple(dict.fromkeys((*self.moving_at_start, *early)))
