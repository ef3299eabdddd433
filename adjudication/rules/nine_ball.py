"""9-ball (WPA 2.x, RULES §3): rotation, a legal 9 wins, the 9 is spotted after a foul,
push-out only when declared. ``RotationEngine`` also carries 10-ball (ten_ball.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from adjudication.calls import Outcome
from adjudication.declarations import Declaration
from adjudication.games import Game
from adjudication.rules.base import (
    CallBook,
    Judgement,
    MatchState,
    Order,
    PoolInfo,
    bump,
    ev,
    put,
    refereed,
)
from adjudication.rules.pool_common import (
    Foul,
    PoolFacts,
    add_foul_calls,
    ball_number,
    object_balls,
    open_judgement,
    p7_break_rails,
    rack_won,
    remaining,
    say,
    spot_order,
    standard_fouls,
    start_pool,
    with_settled,
    with_spot_request,
)
from adjudication.settings import RuleSettings
from adjudication.shot import Layout, Shot
from calibration.tables import TableSpec


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a legal (non-foul) shot ends: who shoots next and what the table must do."""

    turn: int
    spot: tuple[str, ...] = ()
    won: bool = False
    ball_in_hand: str | None = None
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class RotationEngine:
    """Rotation pool: the lowest ball first; ``money`` wins. 9-ball needs no call."""

    spec: TableSpec
    settings: RuleSettings = field(default_factory=RuleSettings)
    game: Game = Game.NINE_BALL
    money: str = "ball_9"
    rules: dict[str, str] = field(
        default_factory=lambda: {
            "break": "WPA 2.3",
            "push_out": "WPA 2.4",
            "continue": "WPA 2.5",
            "spot": "WPA 2.6",
            "fouls": "WPA 2.7",
            "serious": "WPA 2.8",
        }
    )

    def reset(self) -> None:  # stateless; kept for the engine protocol of the app
        return None

    def start(self, players: Sequence[str], *, first: int = 0) -> MatchState:
        return start_pool(
            self.game, players, first, self.spec, PoolInfo(race_to=self.settings.race_to)
        )

    def legal_targets(self, state: MatchState, layout: Layout) -> frozenset[str]:
        balls = object_balls(layout.labels) or object_balls(state.on_table)
        return frozenset(balls[:1])

    # ------------------------------------------------------------------------- judge

    @refereed("WPA")
    @with_spot_request
    @with_settled
    def judge(
        self, state: MatchState, shot: Shot, declaration: Declaration | None = None
    ) -> Judgement:
        d, book, f = open_judgement(self.spec, self.settings, state, shot, declaration)
        assert state.pool is not None
        me, opp = state.turn, 1 - state.turn
        is_break = state.breaking
        push = not is_break and d.push_out and state.pool.push_out_available
        push_assumed = not is_break and state.pool.push_out_available and not d.push_out
        targets = frozenset(f.on_table_start[:1])

        fouls = standard_fouls(
            f, state, shot, targets=None if push else targets, rail_rule=not push
        )
        if is_break:
            ok, reason = p7_break_rails(f)
            if not ok and f.first_contact is not None:
                fouls.append(
                    Foul(self.rules["break"], reason, {"rails_count": f.rails_count}, "break")
                )
        if shot.player and shot.player != state.shooter:
            book.add(
                "WPA 6.13",
                Outcome.REVIEW,
                f"{shot.player} shot but it was {state.shooter}'s turn; referee to confirm.",
                expected=state.shooter,
                seen=shot.player,
            )

        gone = set(f.pocketed) | set(f.off_table)
        money_gone = self.money in gone
        orders: list[Order] = []

        if fouls:
            add_foul_calls(book, fouls)
            fouls_row = bump(state.fouls_in_a_row, me)
            spot = (self.money,) if money_gone else ()
            o = spot_order(self.spec, shot, spot, self.rules["spot"])
            if o:
                orders.append(o)
                book.add(
                    self.rules["spot"],
                    Outcome.SPOT,
                    f"{say(self.money).capitalize()} is spotted.",
                    labels=list(spot),
                )
            on_table = object_balls((*remaining(shot), *spot))
            if fouls_row[me] >= 3:
                book.add(
                    "WPA 6.14",
                    Outcome.SERIOUS_FOUL,
                    f"Third foul in a row by {state.shooter}: loss of rack.",
                    fouls_in_a_row=fouls_row[me],
                )
                book.add(self.rules["serious"], Outcome.RACK_LOSS, "Loss of rack.")
                nxt, more = rack_won(
                    state.with_(fouls_in_a_row=fouls_row),
                    opp,
                    book,
                    self.spec,
                    self.settings,
                    self.rules["serious"],
                    f"{state.players[opp]} wins the rack on three fouls.",
                )
                return Judgement(tuple(book.calls), nxt.with_(shot=shot.number), (*orders, *more))
            book.add(
                self.rules["fouls"],
                Outcome.BALL_IN_HAND,
                f"{state.players[opp]} has ball in hand anywhere.",
                player=state.players[opp],
                fouls_in_a_row=fouls_row[me],
                warning=f"{state.shooter} is on two fouls: a third in a row loses the rack "
                "(WPA 6.14, Reg. 8)"
                if fouls_row[me] == 2
                else None,
            )
            nxt = state.with_(
                shot=shot.number,
                turn=opp,
                fouls_in_a_row=fouls_row,
                ball_in_hand="anywhere",
                breaking=False,
                on_table=on_table,
                pool=replace(state.pool, push_out_available=False),
            )
            return Judgement(tuple(book.calls), nxt, tuple(orders))

        fouls_row = put(state.fouls_in_a_row, me, 0)
        if push:
            res = self._push_out(state, shot, f, d, book)
        else:
            res = self._legal(state, shot, f, d, book, is_break, push_assumed)
        o = spot_order(self.spec, shot, res.spot, self.rules["spot"])
        if o:
            orders.append(o)
            book.add(
                self.rules["spot"],
                Outcome.SPOT,
                f"{', '.join(say(lab) for lab in res.spot).capitalize()} spotted.",
                labels=list(res.spot),
            )
        if res.won:
            nxt, more = rack_won(
                state.with_(fouls_in_a_row=fouls_row),
                me,
                book,
                self.spec,
                self.settings,
                self.rules["continue"],
                f"{state.shooter} wins the rack with {say(self.money)}.",
                **res.evidence,
            )
            return Judgement(tuple(book.calls), nxt.with_(shot=shot.number), (*orders, *more))
        on_table = object_balls((*remaining(shot), *res.spot))
        nxt = state.with_(
            shot=shot.number,
            turn=res.turn,
            fouls_in_a_row=fouls_row,
            ball_in_hand=res.ball_in_hand,
            breaking=False,
            on_table=on_table,
            pool=replace(state.pool, push_out_available=is_break),
        )
        return Judgement(tuple(book.calls), nxt, tuple(orders))

    # ------------------------------------------------------------------ game specifics

    def _push_out(
        self, state: MatchState, shot: Shot, f: PoolFacts, d: Declaration, book: CallBook
    ) -> Resolution:
        me, opp = state.turn, 1 - state.turn
        book.add(
            self.rules["push_out"],
            Outcome.LEGAL,
            f"Legal push-out by {state.shooter}.",
            first_contact=ev(f.first_contact),
            pocketed=list(f.pocketed),
        )
        spot = (self.money,) if self.money in f.pocketed else ()
        back = d.option == "return"
        who = me if back else opp
        book.add(
            self.rules["push_out"],
            Outcome.LOSS_OF_TURN if not back else Outcome.LEGAL,
            f"{state.players[opp]} "
            + ("hands the table back." if back else "takes the table after the push-out."),
            assumed=d.option is None,
            option=d.option or "accept",
        )
        return Resolution(turn=who, spot=spot)

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
        rule = self.rules["break"] if is_break else "WPA 8.2"
        book.add(
            rule,
            Outcome.LEGAL,
            "Legal break." if is_break else "Legal shot.",
            assumed=push_assumed,
            first_contact=ev(f.first_contact),
            rail=ev(f.rail_after_contact),
            rails_count=f.rails_count,
            pocketed=list(f.pocketed),
            push_out="not declared: not a push-out" if push_assumed else None,
        )
        if self.money in f.pocketed:
            return Resolution(turn=me, won=True, evidence={"pocket": f.pockets[self.money]})
        if f.pocketed:
            book.add(
                self.rules["continue"],
                Outcome.LEGAL,
                f"{state.shooter} pocketed {', '.join(map(say, f.pocketed))} and continues.",
                pocketed=list(f.pocketed),
            )
            return Resolution(turn=me)
        book.add(
            self.rules["continue"],
            Outcome.LOSS_OF_TURN,
            f"Nothing pocketed; {state.players[opp]} to shoot.",
        )
        return Resolution(turn=opp)


def lowest(labels: Sequence[str]) -> str | None:
    balls = sorted(object_balls(labels), key=ball_number)
    return balls[0] if balls else None


NineBallEngine = RotationEngine
