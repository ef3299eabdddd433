"""What a camera cannot see: the shooter's call, safety, push-out and the options chosen.

``None`` or the default means "not declared"; the engines then apply the documented default
and mark the affected call ``assumed=True``. ``option`` is the choice made after this shot by
whoever holds it (opponent after a foul, illegal break, push-out; breaker after an 8 on the
break): ``accept``, ``return``, ``rerack_self``, ``rerack_breaker``, ``bih_head_string``,
``spot_and_continue``, ``rebreak``.

``touched_by_opponent`` (Novuss) is the operator's word on who moved a pawn outside this
shot (before its stroke): the camera sees the pawn move, not the hand. False (default) takes
it as the shooter's touch (S0 §17.1.о, §16.1.д); True as the other player's while the
shooter had the turn (§17.1.п, N25).

``overrule`` is the referee's word on the shot: when it is not empty, the engine's calls for
that shot are replaced by these ``RefereeCall`` s, each marked as the referee's
(``evidence.by == "referee"``, with the engine's calls kept as ``evidence.engine_calls``).
It replaces the calls only; the match state still follows the engine's reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

OPTIONS = frozenset(
    {
        "accept",
        "return",
        "rerack_self",
        "rerack_breaker",
        "bih_head_string",
        "spot_and_continue",
        "rebreak",
    }
)


OUTCOMES = frozenset(
    {
        "legal", "foul", "serious_foul", "loss_of_turn", "penalty_pawn", "ball_in_hand", "spot",
        "point", "rack_win", "rack_loss", "set_win", "set_loss", "replay", "match_win", "review",
    }
)
RULE_FAMILIES = ("WPA ", "Novuss ", "EST ")


@dataclass(frozen=True, slots=True)
class RefereeCall:
    """One call the referee makes in place of the engine's: the rule cited (``"WPA 6.2"``,
    ``"Novuss 17.1.б"``...), the outcome (a ``calls.Outcome`` value) and the text."""

    rule: str
    outcome: str
    text: str

    def __post_init__(self) -> None:
        if not self.rule.startswith(RULE_FAMILIES) or len(self.rule.split()) < 2:
            raise ValueError(
                f"an overruling call must cite a rule like 'WPA 6.2', got {self.rule!r}"
            )
        if self.outcome not in OUTCOMES:
            raise ValueError(
                f"unknown outcome {self.outcome!r}; choose one of {', '.join(sorted(OUTCOMES))}"
            )
        if not self.text:
            raise ValueError("an overruling call needs a text")

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> RefereeCall:
        return cls(rule=str(obj["rule"]), outcome=str(obj["outcome"]), text=str(obj["text"]))

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "outcome": self.outcome, "text": self.text}


@dataclass(frozen=True, slots=True)
class Declaration:
    called_ball: str | None = None
    called_pocket: str | None = None
    safety: bool = False
    push_out: bool = False
    option: str | None = None
    frozen: tuple[str, ...] = ()
    touched_by_opponent: bool = False
    overrule: tuple[RefereeCall, ...] = ()

    def __post_init__(self) -> None:
        if self.option is not None and self.option not in OPTIONS:
            raise ValueError(
                f"unknown option {self.option!r}; choose one of {', '.join(sorted(OPTIONS))}"
            )
        object.__setattr__(self, "frozen", tuple(self.frozen))
        object.__setattr__(self, "overrule", tuple(self.overrule))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Declaration:
        return cls(
            called_ball=obj.get("called_ball"),
            called_pocket=obj.get("called_pocket"),
            safety=bool(obj.get("safety", False)),
            push_out=bool(obj.get("push_out", False)),
            option=obj.get("option"),
            frozen=tuple(obj.get("frozen", ())),
            touched_by_opponent=bool(obj.get("touched_by_opponent", False)),
            overrule=tuple(
                c if isinstance(c, RefereeCall) else RefereeCall.from_json(c)
                for c in obj.get("overrule", ())
            ),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "called_ball": self.called_ball,
            "called_pocket": self.called_pocket,
            "safety": self.safety,
            "push_out": self.push_out,
            "option": self.option,
            "frozen": list(self.frozen),
            "touched_by_opponent": self.touched_by_opponent,
            "overrule": [c.to_json() for c in self.overrule],
        }


NOTHING_DECLARED = Declaration()
