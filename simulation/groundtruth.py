"""Read a clip's sidecar back: the shots as the rules engine sees them, positions per frame."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from adjudication.declarations import Declaration
from adjudication.events import Event
from adjudication.rules import Judgement, MatchState, RulesEngine, engine_for
from adjudication.shot import Layout, Shot
from calibration.tables import get_table


def load_sidecar(path: str | Path) -> dict[str, Any]:
    data = json.loads(Path(path).read_text())
    if data.get("generator") != "cueref.simulation" or "frames" not in data:
        raise ValueError(f"{path} is not a cueref simulation sidecar")
    return data


def layout_from_json(items: list[dict[str, Any]]) -> Layout:
    if not items:
        return Layout(np.zeros(0, dtype=int), (), np.zeros((0, 2)))
    return Layout(
        np.array([o["id"] for o in items], dtype=int),
        tuple(o["label"] for o in items),
        np.array([o["xy_mm"] for o in items], dtype=float),
    )


def shots_from_sidecar(data: dict[str, Any]) -> list[Shot]:
    """Every shot of the clip with its exact events and the layouts before and after."""
    return [
        Shot(
            number=s["number"],
            player=s["player"],
            t_start_s=s["t_start_s"],
            t_end_s=s["t_end_s"],
            before=layout_from_json(s["before"]),
            after=layout_from_json(s["after"]),
            events=tuple(Event.from_json(e) for e in s["events"]),
            between=tuple(Event.from_json(e) for e in s["between"]),
        )
        for s in data["shots"]
    ]


def declarations_from_sidecar(data: dict[str, Any]) -> list[Declaration]:
    """What each shooter declared (the bots' calls), shot by shot."""
    return [Declaration.from_json(s.get("declaration", {})) for s in data["shots"]]


def sidecar_declarations(data: dict[str, Any]) -> dict[int, Declaration]:
    """The same by shot number, as a declarations file gives them (the camera cannot see
    called balls and safeties, so runs on a sample clip pass these in)."""
    return {s["number"]: d for s, d in zip(data["shots"], declarations_from_sidecar(data),
                                           strict=True)}


def initial_state(engine: RulesEngine, data: dict[str, Any]) -> MatchState:
    """The match state the clip starts from: a new match, or mid-rack for the hard cases."""
    state = engine.start(data["players"])
    first = data["states"][0]
    if first.get("breaking", state.breaking) == state.breaking:
        return state
    return state.with_(breaking=first["breaking"], ball_in_hand=first["ball_in_hand"],
                       on_table=tuple(first["on_table"]))


def rejudge(data: dict[str, Any]) -> Iterator[tuple[Shot, Judgement]]:
    """Judge the clip's shots afresh with cueref's rules engine, from its exact events and
    the declarations the players made; yields each shot with its judgement."""
    engine = engine_for(data["game"], get_table(data["table"]))
    state = initial_state(engine, data)
    shots = zip(shots_from_sidecar(data), declarations_from_sidecar(data), strict=True)
    for shot, declaration in shots:
        judgement = engine.judge(state, shot, declaration)
        yield shot, judgement
        state = judgement.state


def positions(data: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-frame arrays: ``xy_mm`` (F, N, 2), ``xy_px`` (F, N, 2), ``visible`` (F, N)."""
    frames = data["frames"]
    return (
        np.array([f["xy_mm"] for f in frames], dtype=float),
        np.array([f["xy_px"] for f in frames], dtype=float),
        np.array([f["visible"] for f in frames], dtype=float),
    )
