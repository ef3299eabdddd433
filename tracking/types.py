"""The two batches at tracking's boundaries: ``Observations`` in, ``Tracks`` out.

Both are frozen structs of arrays, one row per object, in the table frame (mm, origin at
the centre of the playing surface; see ``calibration.model``) at one instant ``t_s``.

``Observations`` are what a frame shows: the detector's objects mapped to the table at
their own height, with a position uncertainty (``sigma_mm``, one standard deviation) and
the detector's score. Several rows may carry the same label (Novuss pawns; a pool number
misread twice); the tracker decides identities.

``Tracks`` are what the tracker believes after that frame: every object it keeps, seen
or not, with its identity, filtered position and velocity, uncertainty and state.

``TrackNote`` records what the tracker inferred but no single ``Tracks`` row shows: an
identity created, an object that reappeared somewhere else than where it was hidden (moved
by a hand), an object that came back into play after it was pocketed or left the table.
``Tracker.update`` returns ``Tracks``; the notes of that frame are ``Tracker.last_notes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any

import numpy as np


class TrackState(IntEnum):
    """Where a tracked object stands; an ``IntEnum`` so a batch stores it as an int array."""

    MOVING = 0
    RESTING = 1
    OCCLUDED = 2  # not seen this frame; position held (resting) or predicted (moving)
    POCKETED = 3  # its centre passed a pocket's point of no return
    OFF_TABLE = 4  # left the playing surface anywhere but a pocket

    def on_table(self) -> bool:
        return self in (TrackState.MOVING, TrackState.RESTING, TrackState.OCCLUDED)


#: ``Tracks.obs_sigma_mm`` not given (NaN for every row).
_NOT_GIVEN = np.zeros(0)
_NOT_GIVEN.setflags(write=False)


def _frozen(array: Any, dtype: Any, shape_tail: tuple[int, ...]) -> np.ndarray:
    out = np.array(array, dtype=dtype).reshape((-1, *shape_tail))
    out.setflags(write=False)
    return out


def _check_rows(kind: str, **columns: np.ndarray | tuple[str, ...]) -> None:
    counts = {name: len(col) for name, col in columns.items()}
    if len(set(counts.values())) > 1:
        listed = ", ".join(f"{n} {c}" for n, c in counts.items())
        raise ValueError(f"{kind} needs the same number of rows in every column: got {listed}")


def _rows(n: int, index: np.ndarray | int | slice) -> np.ndarray:
    idx = np.arange(n)[index]
    return np.atleast_1d(idx)


@dataclass(frozen=True, slots=True)
class Observations:
    """Objects seen in one frame, mapped onto the table.

    ``xy_mm`` (N, 2), ``sigma_mm`` (N,) one-sigma position error, ``label`` (N) class
    labels, ``score`` (N,) detector confidence in 0..1; ``t_s`` and ``frame`` say when.
    """

    t_s: float
    frame: int
    xy_mm: np.ndarray
    sigma_mm: np.ndarray
    label: tuple[str, ...]
    score: np.ndarray

    def __post_init__(self) -> None:
        xy = _frozen(self.xy_mm, float, (2,))
        sigma = _frozen(self.sigma_mm, float, ())
        score = _frozen(self.score, float, ())
        label = tuple(str(lab) for lab in self.label)
        _check_rows("Observations", xy_mm=xy, sigma_mm=sigma, label=label, score=score)
        if not np.all(np.isfinite(xy)):
            raise ValueError("Observations.xy_mm must be finite")
        if np.any(sigma <= 0):
            raise ValueError("Observations.sigma_mm must be positive")
        object.__setattr__(self, "xy_mm", xy)
        object.__setattr__(self, "sigma_mm", sigma)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "label", label)

    def __len__(self) -> int:
        return len(self.label)

    def __getitem__(self, index: np.ndarray | int | slice) -> Observations:
        idx = _rows(len(self), index)
        return Observations(self.t_s, self.frame, self.xy_mm[idx], self.sigma_mm[idx],
                            tuple(self.label[i] for i in idx), self.score[idx])

    @classmethod
    def empty(cls, t_s: float, frame: int) -> Observations:
        return cls(t_s, frame, np.zeros((0, 2)), np.zeros(0), (), np.zeros(0))


@dataclass(frozen=True, slots=True)
class Tracks:
    """The tracker's belief after one frame, one row per track.

    ``id`` (N,) stable identities, ``label`` (N), ``xy_mm`` (N, 2) filtered positions,
    ``v_mm_s`` (N, 2) velocities, ``sigma_mm`` (N,) one-sigma position uncertainty,
    ``state`` (N,) ``TrackState`` values, ``seen`` (N,) whether an observation was
    assigned this frame, ``last_seen_t_s`` (N,), ``obs_xy_mm`` (N, 2) the raw observation
    assigned this frame (NaN where none): event detectors fit motion to these, because the
    filtered positions lag a sudden change of direction; ``obs_sigma_mm`` (N,) that
    observation's one-sigma error (NaN where none, or not given): a resting track's
    ``sigma_mm`` shrinks as its sightings average, each sighting stays as noisy as this.
    """

    t_s: float
    frame: int
    id: np.ndarray
    label: tuple[str, ...]
    xy_mm: np.ndarray
    v_mm_s: np.ndarray
    sigma_mm: np.ndarray
    state: np.ndarray
    seen: np.ndarray
    last_seen_t_s: np.ndarray
    obs_xy_mm: np.ndarray
    obs_sigma_mm: np.ndarray = field(default_factory=lambda: _NOT_GIVEN)

    def __post_init__(self) -> None:
        obs_sigma = (np.full(len(self.label), np.nan) if self.obs_sigma_mm is _NOT_GIVEN
                     else self.obs_sigma_mm)
        cols = {
            "id": _frozen(self.id, int, ()),
            "xy_mm": _frozen(self.xy_mm, float, (2,)),
            "v_mm_s": _frozen(self.v_mm_s, float, (2,)),
            "sigma_mm": _frozen(self.sigma_mm, float, ()),
            "state": _frozen(self.state, int, ()),
            "seen": _frozen(self.seen, bool, ()),
            "last_seen_t_s": _frozen(self.last_seen_t_s, float, ()),
            "obs_xy_mm": _frozen(self.obs_xy_mm, float, (2,)),
            "obs_sigma_mm": _frozen(obs_sigma, float, ()),
        }
        label = tuple(str(lab) for lab in self.label)
        _check_rows("Tracks", label=label, **cols)
        if len(np.unique(cols["id"])) != len(label):
            raise ValueError("Tracks.id must be unique within a frame")
        for name, col in cols.items():
            object.__setattr__(self, name, col)
        object.__setattr__(self, "label", label)

    def __len__(self) -> int:
        return len(self.label)

    def __getitem__(self, index: np.ndarray | int | slice) -> Tracks:
        idx = _rows(len(self), index)
        return Tracks(self.t_s, self.frame, self.id[idx], tuple(self.label[i] for i in idx),
                      self.xy_mm[idx], self.v_mm_s[idx], self.sigma_mm[idx],
                      self.state[idx], self.seen[idx], self.last_seen_t_s[idx],
                      self.obs_xy_mm[idx], self.obs_sigma_mm[idx])

    @classmethod
    def _trusted(cls, t_s: float, frame: int, id: np.ndarray, label: tuple[str, ...],
                 xy_mm: np.ndarray, v_mm_s: np.ndarray, sigma_mm: np.ndarray,
                 state: np.ndarray, seen: np.ndarray, last_seen_t_s: np.ndarray,
                 obs_xy_mm: np.ndarray, obs_sigma_mm: np.ndarray) -> Tracks:
        """The tracker's own path: columns it built for this frame, already of the right
        dtype and shape, fresh (nobody else holds them) and with unique ids. They are
        frozen here without the copies and checks of ``__post_init__``."""
        out = object.__new__(cls)
        set_ = object.__setattr__
        set_(out, "t_s", t_s)
        set_(out, "frame", frame)
        set_(out, "label", label)
        for name, col in (("id", id), ("xy_mm", xy_mm), ("v_mm_s", v_mm_s),
                          ("sigma_mm", sigma_mm), ("state", state), ("seen", seen),
                          ("last_seen_t_s", last_seen_t_s), ("obs_xy_mm", obs_xy_mm),
                          ("obs_sigma_mm", obs_sigma_mm)):
            col.setflags(write=False)
            set_(out, name, col)
        return out

    @classmethod
    def empty(cls, t_s: float, frame: int) -> Tracks:
        z1, z2 = np.zeros(0), np.zeros((0, 2))
        return cls(t_s, frame, np.zeros(0, int), (), z2, z2.copy(), z1, np.zeros(0, int),
                   np.zeros(0, bool), z1.copy(), z2.copy())

    @property
    def on_table(self) -> np.ndarray:
        """Mask of tracks still in play (moving, resting or occluded)."""
        return self.state <= int(TrackState.OCCLUDED)  # (an int: numpy is slow with enums)

    def of_state(self, *states: TrackState) -> Tracks:
        return self[np.isin(self.state, [int(s) for s in states])]


class NoteKind(StrEnum):
    """What a ``TrackNote`` says happened to one identity."""

    NEW = "new"  # a new identity, confirmed from persistent observations
    MOVED = "moved"  # an on-table object unseen for a while reappeared elsewhere, at rest
    PLACED = "placed"  # a pocketed or off-table object (pool, the puck) is back in play


@dataclass(frozen=True, slots=True)
class TrackNote:
    """One thing the tracker inferred at ``t_s`` (``frame``) about track ``id``.

    ``from_xy_mm`` is where the object was last seen (its hold position; ``None`` for a new
    identity), ``to_xy_mm`` where it is now. For ``MOVED``, ``last_seen_t_s`` says when it
    was last seen at ``from_xy_mm``: the move happened between then and ``t_s``.
    """

    kind: NoteKind
    t_s: float
    frame: int
    id: int
    label: str
    to_xy_mm: tuple[float, float]
    from_xy_mm: tuple[float, float] | None = None
    last_seen_t_s: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "t_s": self.t_s, "frame": self.frame, "id": self.id,
                "label": self.label, "to_xy_mm": list(self.to_xy_mm),
                "from_xy_mm": None if self.from_xy_mm is None else list(self.from_xy_mm),
                "last_seen_t_s": self.last_seen_t_s}
