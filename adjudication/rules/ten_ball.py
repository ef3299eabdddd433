"""10-ball (WPA 9.x, RULES §4): rotation with a called shot. A called 10 legally pocketed
wins (9.8; §8.14 respot variant in settings); the 10 is spotted otherwise (9.9); a wrong
pocket or an uncalled ball ends the inning at the opponent's option (9.7)."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudication.calls import Outcome
from adjudication.declarations import Declaration
from adjudication.games import Game
from adjudication.rules.base import CallBook, MatchState
from adjudication.rules.nine_ball import Resolution, RotationEngine
from adjudication.rules.pool_common import PoolFacts, ev, say
from adjudication.shot import Shot


def called_shot(f: PoolFacts, d: Declaration) -> tuple[str | None, str | None, bool]:
    """The called ball and pocket; undeclared -> the first ball pocketed and its pocket
    (``assumed`` True). Returns (ball, pocket, assumed)."""
    ball = d.called_ball
    assumed = False
    if ball is None:
        ball = f.pocketed[0] if f.pocketed else None
        assumed = ball is not None
    pocket = d.called_pocket
    if pocket is None and ball is not None and ball in f.pockets:
        pocket = f.pockets[ball]
        assumed = True
    return ball, pocket, assumed


def called_made(f: PoolFacts, ball: str | None, pocket: str | None) -> tuple[bool, str]:
    """(ok, reason): the called ball went into the called pocket (WPA 1.6)."""
    if ball is None or ball not in f.pocketed:
        return False, f"the called ball {say(ball) if ball else ''} was not pocketed".strip()
    if pocket is not None and f.pockets.get(ball) != pocket:
        return False, f"{say(ball)} went into {f.pockets.get(ball)}, not the called {pocket}"
    return True, ""


@dataclass(slots=True)
class TenBallEngine(RotationEngine):
    game: Game = Game.TEN_BALL
    money: str = "ball_10"
    rules: dict[str, str] = field(
        default_factory=lambda: {
            "break": "WPA 9.3",
            "push_out": "WPA 9.4",
            "continue": "WPA 9.8",
            "spot": "WPA 9.9",
            "fouls": "WPA 9.10",
            "serious": "WPA 9.11",
        }
    )

    def _legal(
        self,
        state: MatchState,
        shot: Shot,
        f: PoolFacts,
        d: Declaration,
        book: CallBook,
        is_break: bool,
        push_assumed: bool,
    ) -> Resolution:
        me, opp = state.turn, 1 - state.turn
        ten_down = self.money in f.pocketed
        common = dict(
            first_contact=ev(f.first_contact),
            rail=ev(f.rail_after_contact),
            pocketed=list(f.pocketed),
            pockets=dict(f.pockets),
        )
        if is_break:
            book.add("WPA 9.3", Outcome.LEGAL, "Legal break.", rails_count=f.rails_count, **common)
            spot = (self.money,) if ten_down else ()
            if f.pocketed:
                book.add("WPA 9.8", Outcome.LEGAL, f"{state.shooter} continues after the break.")
                return Resolution(turn=me, spot=spot)
            book.add("WPA 9.3", Outcome.LOSS_OF_TURN, f"{state.players[opp]} to shoot.")
            return Resolution(turn=opp, spot=spot)

        if d.safety:
            book.add("WPA 9.6", Outcome.LEGAL, "Legal safety.", **common)
            spot = (self.money,) if ten_down else ()
            if not f.pocketed:
                book.add("WPA 9.6", Outcome.LOSS_OF_TURN, f"{state.players[opp]} to shoot.")
                return Resolution(turn=opp, spot=spot)
            return self._opponent_option(state, d, book, "WPA 9.6", spot)

        ball, pocket, assumed = called_shot(f, d)
        book.add(
            "WPA 8.2",
            Outcome.LEGAL,
            "Legal shot.",
            assumed=push_assumed,
            called_ball=ball,
            called_pocket=pocket,
            **common,
        )
        if not f.pocketed:
            book.add(
                "WPA 9.8", Outcome.LOSS_OF_TURN, f"Nothing pocketed; {state.players[opp]} to shoot."
            )
            return Resolution(turn=opp)
        ok, reason = called_made(f, ball, pocket)
        if not ok:
            spot = (self.money,) if ten_down else ()
            book.add(
                "WPA 9.7",
                Outcome.LOSS_OF_TURN,
                f"Inning ends: {reason}.",
                assumed=assumed,
                called_ball=ball,
                called_pocket=pocket,
            )
            return self._opponent_option(state, d, book, "WPA 9.7", spot)
        if ball == self.money:
            left = [lab for lab in f.on_table_start if lab not in f.pocketed]
            if self.settings.early_ten_wins or not left:
                return Resolution(
                    turn=me, won=True, evidence={"called_pocket": pocket, "assumed": assumed}
                )
            book.add(
                "WPA 9.8",
                Outcome.LEGAL,
                "Early 10 is spotted (respot variant); shooter continues.",
                assumed=assumed,
            )
            return Resolution(turn=me, spot=(self.money,))
        spot = (self.money,) if ten_down else ()
        book.add(
            "WPA 9.8",
            Outcome.LEGAL,
            f"{say(ball).capitalize()} in the {pocket} pocket; {state.shooter} continues.",
            assumed=assumed,
            called_ball=ball,
            called_pocket=pocket,
        )
        return Resolution(turn=me, spot=spot)

    def _opponent_option(
        self, state: MatchState, d: Declaration, book: CallBook, rule: str, spot: tuple[str, ...]
    ) -> Resolution:
        me, opp = state.turn, 1 - state.turn
        back = d.option == "return"
        book.add(
            rule,
            Outcome.LEGAL if back else Outcome.LOSS_OF_TURN,
            f"{state.players[opp]} "
            + ("hands the table back." if back else "takes the table as it lies."),
            assumed=d.option is None,
            option=d.option or "accept",
            player=state.players[opp],
        )
        return Resolution(turn=me if back else opp, spot=spot)
