"""What a camera cannot see: the shooter's call, safety, push-out and the options chosen.

``None`` or the default means "not declared"; the engines then apply the documented default
and mark the affected call ``assumed=True``. ``option`` is the choice made after this shot by
whoever holds it (opponent after a foul, illegal break, push-out; breaker after an 8 on the
break): ``accept``, ``return``, ``rerack_self``, ``rerack_breaker``, ``bih_head_string``,
``spot_and_continue``, ``rebreak``.
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


@dataclass(frozen=True, slots=True)
class Declaration:
    called_ball: str | None = None
    called_pocket: str | None = None
    safety: bool = False
    push_out: bool = False
    option: str | None = None
    frozen: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.option is not None and self.option not in OPTIONS:
            raise ValueError(
                f"unknown option {self.option!r}; choose one of {', '.join(sorted(OPTIONS))}"
            )
        object.__setattr__(self, "frozen", tuple(self.frozen))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Declaration:
        return cls(
            called_ball=obj.get("called_ball"),
            called_pocket=obj.get("called_pocket"),
            safety=bool(obj.get("safety", False)),
            push_out=bool(obj.get("push_out", False)),
            option=obj.get("option"),
            frozen=tuple(obj.get("frozen", ())),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "called_ball": self.called_ball,
            "called_pocket": self.called_pocket,
            "safety": self.safety,
            "push_out": self.push_out,
            "option": self.option,
            "frozen": list(self.frozen),
        }


NOTHING_DECLARED = Declaration()
