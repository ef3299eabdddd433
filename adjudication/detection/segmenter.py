"""Events and tracks to ``Shot`` s, the unit the rules engines judge.

A shot runs from a ``shot_start`` event to its ``shot_end``. Its ``before`` layout is the
objects on the table on the last frame before the stroke (the detector reports the stroke
a few frames late, so recent track batches are kept), its ``after`` layout the objects on
the table when ``shot_end`` is reported, its events those of the stroke's number that came
in between, and ``between`` the events since the previous shot ended (hands, placements).
Shots are numbered from 1 in the order seen: a stream that starts mid-game (no rack, the
first stroke unseen) starts at 1 all the same, with what it saw before in ``between``.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from adjudication.detection.settings import SegmenterSettings
from adjudication.events import Event, EventKind
from adjudication.shot import Layout, Shot
from tracking.types import Tracks, TrackState

_BETWEEN_KINDS = (EventKind.MOVED, EventKind.PLACED)


def layout_of(tracks: Tracks) -> Layout:
    """The objects a batch holds on the table (filtered positions)."""
    on = tracks[tracks.on_table]
    return Layout(on.id, on.label, on.xy_mm)


class ShotSegmenter:
    """Cuts the event stream into shots; ``update(tracks, events)`` per frame."""

    def __init__(self, settings: SegmenterSettings | None = None) -> None:
        self.settings = settings or SegmenterSettings()
        self.reset()

    def reset(self) -> None:
        self._history: deque[Tracks] = deque(maxlen=self.settings.history_frames)
        self._open: dict[str, object] | None = None
        self._events: list[Event] = []
        self._between: list[Event] = []
        self._count = 0
        self._last_after: Layout | None = None

    def update(self, tracks: Tracks | None, events: list[Event]) -> list[Shot]:
        """Take one frame's tracks (``None`` when there is no new batch) and the events the
        detector reported with it; return the shots that ended."""
        if tracks is not None:
            self._history.append(tracks)
        out: list[Shot] = []
        for ev in sorted(events, key=lambda e: (e.t_s, e.kind is EventKind.SHOT_END)):
            shot = self._take(ev)
            if shot is not None:
                out.append(shot)
        return out

    def flush(self, events: list[Event] = ()) -> list[Shot]:  # type: ignore[assignment]
        """End of stream: the last events, and a shot still open closes where it stands."""
        out = self.update(None, list(events))
        if self._open is not None:
            t_end = self._history[-1].t_s if self._history else float(self._open["t0"])  # type: ignore[arg-type]
            out.append(self._close(t_end))
        return out

    def _before(self, t_s: float, stroke: Event) -> Layout:
        """The tracks' layout on the last frame before the stroke, with the striker where the
        stroke event puts it: the event detector's rest estimate of the struck object. The
        tracker's filtered position of a puck or cue ball carried and set down by hand can
        still be the old one (held while unseen), and the rules judge placements from it
        (Novuss §19.1.а, WPA 6.10)."""
        best: Tracks | None = None
        for tr in self._history:
            if tr.t_s < t_s:
                best = tr
        if best is None:
            best = self._history[0] if self._history else None
        lay = layout_of(best) if best is not None else Layout.empty()
        if not stroke.objects:
            return lay
        hit = np.flatnonzero(lay.ids == stroke.objects[0].id)
        if not len(hit):
            return lay
        xy = lay.xy_mm.copy()
        xy[hit[0]] = stroke.xy_mm
        return Layout(lay.ids, lay.labels, xy)

    def _moving_at(self, t_s: float, striker: str) -> tuple[str, ...]:
        best = None
        for tr in self._history:
            if tr.t_s < t_s:
                best = tr
        if best is None:
            return ()
        mask = (best.state == TrackState.MOVING) & best.on_table
        return tuple(lab for lab, m in zip(best.label, mask.tolist(), strict=True)
                     if m and lab != striker)

    def _take(self, ev: Event) -> Shot | None:
        if ev.kind is EventKind.SHOT_START:
            shot = None
            if self._open is not None:  # a stroke before the last one ended: close it
                shot = self._close(ev.t_s)
            self._count += 1
            striker = ev.labels[0] if ev.labels else ""
            self._open = {"t0": ev.t_s, "before": self._before(ev.t_s, ev),
                          "moving": self._moving_at(ev.t_s, striker)}
            self._events = [self._renumber(ev)]
            return shot
        if ev.kind is EventKind.SHOT_END:
            if self._open is None:
                return None
            self._events.append(self._renumber(ev))
            return self._close(ev.t_s)
        if self._open is not None and ev.kind not in _BETWEEN_KINDS:
            self._events.append(self._renumber(ev))
        else:
            self._between.append(ev)
        return None

    def _renumber(self, ev: Event) -> Event:
        if ev.shot == self._count:
            return ev
        return Event(ev.kind, ev.t_s, ev.frame, self._count, ev.objects, ev.xy_mm,
                     ev.confidence, ev.cushion, ev.pocket, ev.line)

    def _close(self, t_end: float) -> Shot:
        assert self._open is not None
        players = self.settings.players
        player = ""
        if players:
            player = players[(self.settings.first_player + self._count - 1) % len(players)]
        after = layout_of(self._history[-1]) if self._history else Layout.empty()
        before: Layout = self._open["before"]  # type: ignore[assignment]
        kept = [e for e in self._between if not self._swap_only(e, before)]
        between = tuple(Event(e.kind, e.t_s, e.frame, self._count, e.objects, e.xy_mm,
                              e.confidence, e.cushion, e.pocket, e.line)
                        if e.shot != self._count else e for e in kept)
        shot = Shot(
            number=self._count,
            player=player,
            t_start_s=float(self._open["t0"]),  # type: ignore[arg-type]
            t_end_s=float(t_end),
            before=before,
            after=after,
            events=tuple(sorted(self._events, key=lambda e: e.t_s)),
            between=between,
            moving_at_start=self._open["moving"],  # type: ignore[arg-type]
        )
        self._open = None
        self._events = []
        self._between = []
        self._last_after = after
        return shot

    def _swap_only(self, e: Event, before: Layout) -> bool:
        """A hand's move or a contact between shots (``moved``, ``contact``) that moved none
        of its objects: each lies within ``still_mm`` of where the last shot left it, or of
        where the last shot left another object of its label. Touching rows of alike pawns
        trade identities in the tracker; the positions stay, and the rules must not read a
        pawn touched outside a shot (Novuss §16.1.д, §17.1.о). Strikers are left alone: the
        puck or cue ball is handled between shots, and its touches count (Novuss §17.1.л)."""
        last = self._last_after
        if last is None or e.kind not in (EventKind.MOVED, EventKind.CONTACT) or not e.objects:
            return False
        if e.kind is EventKind.CONTACT and self._one_object(e, before, last):
            return True
        reach = self.settings.still_mm
        for o in e.objects:
            if o.label in self.settings.striker_labels:
                return False
            now = before.by_id(o.id)
            if now is None:
                return False
            was = last.of_label(o.label).xy_mm
            if not len(was) or float(np.min(np.linalg.norm(was - now, axis=1))) > reach:
                return False
        return True

    def _one_object(self, e: Event, before: Layout, last: Layout) -> bool:
        """A contact between two tracks of one label that overlap (closer than
        ``same_object_mm``, where the last shot left them or at the stroke): one object the
        tracker holds twice, not two objects touching."""
        if len(e.objects) != 2 or e.objects[0].label != e.objects[1].label:
            return False
        if e.objects[0].label in self.settings.striker_labels:
            return False
        for lay in (last, before):
            a, b = lay.by_id(e.objects[0].id), lay.by_id(e.objects[1].id)
            if a is not None and b is not None and float(
                    np.linalg.norm(a - b)) < self.settings.same_object_mm:
                return True
        return False


