"""The referee's calls: one frozen record per decision, written as a ``call`` line."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from adjudication.events import Event


class Outcome(StrEnum):
    LEGAL = "legal"
    FOUL = "foul"
    SERIOUS_FOUL = "serious_foul"
    LOSS_OF_TURN = "loss_of_turn"
    PENALTY_PAWN = "penalty_pawn"
    BALL_IN_HAND = "ball_in_hand"
    SPOT = "spot"
    POINT = "point"
    RACK_WIN = "rack_win"
    RACK_LOSS = "rack_loss"
    SET_WIN = "set_win"
    SET_LOSS = "set_loss"
    REPLAY = "replay"
    MATCH_WIN = "match_win"
    REVIEW = "review"
    WARNING = "warning"  # Novuss §19.1: entered in the protocol; the 3rd costs the match (§15.3)


def _plain(value: Any) -> Any:
    """Evidence values made JSON-safe: numpy scalars/arrays, tuples, events, NaN."""
    if isinstance(value, Event):
        return event_summary(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [_plain(v) for v in items]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return round(f, 3) if math.isfinite(f) else None
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return str(value)


def event_summary(e: Event) -> dict[str, Any]:
    """A short evidence form of an event: kind, time, objects and place."""
    out: dict[str, Any] = {"kind": e.kind.value, "t_s": round(e.t_s, 4), "labels": list(e.labels)}
    for key in ("cushion", "pocket", "line"):
        value = getattr(e, key)
        if value is not None:
            out[key] = value
    return out


@dataclass(frozen=True, slots=True)
class Call:
    """One decision on one shot, with the rule that made it and the evidence behind it."""

    shot: int
    t_s: float
    player: str
    rule: str
    outcome: Outcome
    text: str
    assumed: bool = False
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "v": 1,
            "type": "call",
            "shot": self.shot,
            "t_s": round(float(self.t_s), 6),
            "player": self.player,
            "rule": self.rule,
            "outcome": self.outcome.value,
            "text": self.text,
            "assumed": self.assumed,
            "evidence": _plain(dict(self.evidence)),
        }
