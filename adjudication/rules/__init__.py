"""Rules engines: one per game, looked up by the ``Game`` enum.

``engine_for(game, spec, settings)`` returns an engine with ``start``, ``judge`` and
``legal_targets``. Judging is pure: the engine returns calls, the next ``MatchState`` and
``Order`` s for the table; it never edits the shot it judges.
"""

from __future__ import annotations

from adjudication.games import Game, parse_game
from adjudication.rules.base import (
    Check,
    Judgement,
    MatchState,
    NovussInfo,
    Order,
    PoolInfo,
    RulesEngine,
)
from adjudication.rules.eight_ball import EightBallEngine
from adjudication.rules.nine_ball import NineBallEngine, RotationEngine
from adjudication.rules.novuss import NovussEngine
from adjudication.rules.straight_pool import StraightPoolEngine
from adjudication.rules.ten_ball import TenBallEngine
from adjudication.settings import RuleSettings
from calibration.tables import Family, TableSpec

__all__ = [
    "Check",
    "EightBallEngine",
    "Judgement",
    "MatchState",
    "NineBallEngine",
    "NovussEngine",
    "NovussInfo",
    "Order",
    "PoolInfo",
    "RotationEngine",
    "RulesEngine",
    "StraightPoolEngine",
    "TenBallEngine",
    "engine_for",
]


def engine_for(
    game: Game | str, spec: TableSpec, settings: RuleSettings | None = None
) -> RulesEngine:
    """The rules engine for ``game`` on ``spec``; ``ValueError`` when they do not match."""
    g = game if isinstance(game, Game) else parse_game(game)
    want = Family.NOVUSS if g.is_novuss else Family.POOL
    if spec.family is not want:
        raise ValueError(f"{g.value} is played on a {want.value} table, not {spec.name!r}")
    s = settings if settings is not None else RuleSettings()
    if g is Game.NINE_BALL:
        return NineBallEngine(spec, s)
    if g is Game.TEN_BALL:
        return TenBallEngine(spec, s)
    if g is Game.EIGHT_BALL:
        return EightBallEngine(spec, s)
    if g is Game.STRAIGHT_POOL:
        return StraightPoolEngine(spec, s)
    return NovussEngine(spec, s, game=g)
