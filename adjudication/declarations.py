"""What a camera cannot see: the shooter's call, safety, push-out and the options chosen.

``None`` or the default means "not declared"; the engines then apply the documented default
and mark the affected call ``assumed=True``. ``option`` is the choice made after this shot by
whoever holds it (opponent after a foul, illegal break, push-out; breaker after an 8 on the
break): ``accept``, ``return``, ``rerack_self``, ``rerack_breaker``, ``bih_head_string``,
``spot_and_continue``, ``rebreak``; on a lag shot (WPA 1.2) the lag winner's choice of who
breaks: ``break_self`` or ``break_opponent``.

``touched_by_opponent`` (Novuss) is the operator's word on who moved a pawn outside this
shot (before its stroke): the camera sees the pawn move, not the hand. False (default) takes
it as the shooter's touch (S0 §17.1.о, §16.1.д); True as the other player's while the
shooter had the turn (§17.1.п, N25).

``warning`` (Novuss) is a warning the referee gives with this shot for what the camera does
not see (S0 §19.1 б–к, or §19.3 stalling): the item, as ``"в"``, ``"19.1.в"`` or ``"19.3"``,
or a short reason. ``warned`` names the player warned (default: this shot's shooter). The
engine counts it with the camera's own §19.1.а warnings; the 3rd costs the sets not yet
played (§15.3).

``overrule`` is the referee's word on the shot: when it is not empty, the engine's calls for
that shot are replaced by these ``RefereeCall`` s, each marked as the referee's
(``evidence.by == "referee"``, with the engine's calls kept as ``evidence.engine_calls``).
It replaces the calls only; the match state still follows the engine's reading.

``spot_request`` (pool, WPA 1.5 / EST §7.7), like ``option`` a choice made after this shot:
the player who has ball in hand behind the head string after it asks for the object ball
nearest the head string to be spotted, which he may when every object ball is behind the
string. Refused (a ``legal`` call saying why, no foul) when that does not hold.

``groups_swapped`` (8-ball, WPA Reg. 10) is the referee's word, given with the shot where it
came to light, that the players have been shooting each other's groups: the rack is
replayed, the original breaker breaking.
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
        "break_self",
        "break_opponent",
    }
)


OUTCOMES = frozenset(
    {
        "legal", "foul", "serious_foul", "loss_of_turn", "penalty_pawn", "ball_in_hand", "spot",
        "point", "rack_win", "rack_loss", "set_win", "set_loss", "replay", "match_win", "review",
        "warning",
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
    spot_request: bool = False
    groups_swapped: bool = False
    warning: str | None = None
    warned: str | None = None

    def __post_init__(self) -> None:
        if self.warning is not None and not self.warning.strip():
            raise ValueError("a warning needs its §19.1 item or a reason, got an empty text")
        if self.warned is not None and self.warning is None:
            raise ValueError("warned names who gets a warning: give the warning too")
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
            spot_request=bool(obj.get("spot_request", False)),
            groups_swapped=bool(obj.get("groups_swapped", False)),
            warning=None if obj.get("warning") is None else str(obj["warning"]),
            warned=None if obj.get("warned") is None else str(obj["warned"]),
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
            "spot_request": self.spot_request,
            "groups_swapped": self.groups_swapped,
            "warning": self.warning,
            "warned": self.warned,
        }


NOTHING_DECLARED = Declaration()
