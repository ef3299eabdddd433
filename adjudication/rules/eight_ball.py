"""8-ball (WPA 3.x, RULES §5): open table, groups by a called ball legally pocketed, the
break options of 3.3, loss of rack on the 8 (3.8). No three-foul rule (3.9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

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
    CUE,
    Foul,
    PoolFacts,
    add_foul_calls,
    ball_number,
    object_balls,
    open_judgement,
    p7_break_rails,
    rack_order,
    rack_won,
    remaining,
    say,
    spot_order,
    standard_fouls,
    start_pool,
    with_settled,
    with_spot_request,
)
from adjudication.rules.ten_ball import called_made, called_shot
from adjudication.settings import RuleSettings
from adjudication.shot import Layout, Shot
from calibration.tables import TableSpec

EIGHT = "ball_8"
SOLIDS = frozenset(f"ball_{n}" for n in range(1, 8))
STRIPES = frozenset(f"ball_{n}" for n in range(9, 16))


def group_of(label: str) -> str | None:
    if label in SOLIDS:
        return "solids"
    if label in STRIPES:
        return "stripes"
    return None


def group_balls(group: str | None) -> frozenset[str]:
    return SOLIDS if group == "solids" else STRIPES if group == "stripes" else frozenset()


def targets_for(group: str | None, on_table: Sequence[str]) -> frozenset[str]:
    """WPA 3.4/3.5: open table -> any ball but the 8; own group; the 8 once it is cleared."""
    balls = set(object_balls(on_table))
    if group is None:
        return frozenset(balls - {EIGHT})
    mine = balls & group_balls(group)
    return frozenset(mine) if mine else frozenset({EIGHT} & balls)


@dataclass(slots=True)
class EightBallEngine:
    spec: TableSpec
    settings: RuleSettings = field(default_factory=RuleSettings)
    game: Game = Game.EIGHT_BALL

    def reset(self) -> None:
        return None

    def start(self, players: Sequence[str], *, first: int = 0) -> MatchState:
        return start_pool(
            self.game, players, first, self.spec, PoolInfo(race_to=self.settings.race_to)
        )

    def legal_targets(self, state: MatchState, layout: Layout) -> frozenset[str]:
        balls = object_balls(layout.labels) or object_balls(state.on_table)
        if state.breaking:
            return frozenset(balls)
        assert state.pool is not None
        return targets_for(state.pool.groups[state.turn], balls)

    @refereed("WPA")
    @with_spot_request
    @with_settled
    def judge(
        self, state: MatchState, shot: Shot, declaration: Declaration | None = None
    ) -> Judgement:
        d, book, f = open_judgement(self.spec, self.settings, state, shot, declaration,
                                    first_matters=not state.breaking)
        assert state.pool is not None
        if d.groups_swapped:
            swapped = self._groups_swapped(state, shot, book)
            if swapped is not None:
                return swapped
        if state.breaking:
            return self._break(state, shot, f, d, book)
        me, opp = state.turn, 1 - state.turn
        group = state.pool.groups[me]
        targets = targets_for(group, f.on_table_start)
        fouls = standard_fouls(f, state, shot, targets=targets)
        add_foul_calls(book, fouls)
        on_table = remaining(shot)

        # 3.8: the 8 decides the rack.
        eight_in = EIGHT in f.pocketed
        eight_off = EIGHT in f.off_table
        if eight_in or eight_off:
            return self._eight(state, shot, f, d, book, fouls, group)

        if fouls:
            fouls_row = bump(state.fouls_in_a_row, me)
            book.add(
                "WPA 3.9",
                Outcome.BALL_IN_HAND,
                f"{state.players[opp]} has ball in hand anywhere.",
                player=state.players[opp],
            )
            nxt = state.with_(
                shot=shot.number,
                turn=opp,
                fouls_in_a_row=fouls_row,
                ball_in_hand="anywhere",
                on_table=on_table,
            )
            return Judgement(tuple(book.calls), nxt)

        fouls_row = put(state.fouls_in_a_row, me, 0)
        base = state.with_(
            shot=shot.number, fouls_in_a_row=fouls_row, ball_in_hand=None, on_table=on_table
        )
        common = dict(
            first_contact=ev(f.first_contact),
            rail=ev(f.rail_after_contact),
            pocketed=list(f.pocketed),
            pockets=dict(f.pockets),
            legal_targets=sorted(targets, key=ball_number),
        )
        if d.safety:
            book.add("WPA 3.6", Outcome.LEGAL, "Legal safety; the inning ends.", **common)
            return Judgement(tuple(book.calls), base.with_(turn=opp))
        ball, pocket, assumed = called_shot(f, d)
        book.add(
            "WPA 8.2",
            Outcome.LEGAL,
            "Legal shot.",
            called_ball=ball,
            called_pocket=pocket,
            **common,
        )
        ok, reason = called_made(f, ball, pocket)
        legal_ball = ball is not None and (
            ball in group_balls(group) if group else group_of(ball) is not None
        )
        if ok and legal_ball:
            assert ball is not None
            groups = state.pool.groups
            if group is None:
                mine = group_of(ball)
                other = "stripes" if mine == "solids" else "solids"
                groups = put(put(groups, me, mine), opp, other)
                book.add(
                    "WPA 3.4",
                    Outcome.LEGAL,
                    f"{state.shooter} takes the {mine}.",
                    assumed=assumed,
                    called_ball=ball,
                    groups={state.players[me]: mine, state.players[opp]: other},
                )
            book.add(
                "WPA 3.5",
                Outcome.LEGAL,
                f"{say(ball).capitalize()} is down; {state.shooter} continues.",
                assumed=assumed,
                called_ball=ball,
                called_pocket=pocket,
            )
            nxt = base.with_(turn=me, pool=replace(state.pool, groups=groups))
            return Judgement(tuple(book.calls), nxt)
        text = "Nothing pocketed" if not f.pocketed else reason.capitalize()
        if f.pocketed and ok and not legal_ball:
            text = f"{say(ball or '').capitalize()} is not {state.shooter}'s ball"
        book.add(
            "WPA 3.5",
            Outcome.LOSS_OF_TURN,
            f"{text}; {state.players[opp]} to shoot.",
            assumed=assumed,
            called_ball=ball,
            called_pocket=pocket,
        )
        return Judgement(tuple(book.calls), base.with_(turn=opp))

    # ------------------------------------------------------------------------- Reg. 10

    def _groups_swapped(
        self, state: MatchState, shot: Shot, book: CallBook
    ) -> Judgement | None:
        """WPA Reg. 10: the referee declares (``Declaration.groups_swapped``) that the players
        have been shooting each other's groups. Mid-rack, the rack is replayed: re-racked, the
        original breaker breaks, the table open again; racks won and the match score stand.
        This shot is not judged (its rack is void). With no groups yet (open table, break)
        there is nothing to replay: a ``review`` call, and the shot is judged as usual."""
        assert state.pool is not None
        groups = state.pool.groups
        if state.breaking or None in groups:
            book.add(
                "WPA Reg. 10",
                Outcome.REVIEW,
                "Groups declared swapped, but no groups are assigned yet: nothing to replay; "
                "referee to confirm.",
                groups=dict(zip(state.players, groups, strict=True)),
            )
            return None
        breaker = state.breaker
        rack = replace(rack_order(self.game, self.spec), rule="WPA Reg. 10")
        calls = CallBook(shot, state.shooter)
        calls.add(
            "WPA Reg. 10",
            Outcome.REPLAY,
            "The groups were swapped: the rack is replayed and "
            f"{state.players[breaker]} breaks again.",
            groups=dict(zip(state.players, groups, strict=True)),
            breaker=state.players[breaker],
        )
        nxt = state.with_(
            shot=shot.number,
            turn=breaker,
            breaking=True,
            ball_in_hand="behind_head_string",
            on_table=object_balls(rack.labels),
            fouls_in_a_row=(0, 0),
            pool=replace(state.pool, groups=(None, None)),
        )
        return Judgement(tuple(calls.calls), nxt, (rack,))

    # ---------------------------------------------------------------------------- 3.8

    def _eight(
        self,
        state: MatchState,
        shot: Shot,
        f: PoolFacts,
        d: Declaration,
        book: CallBook,
        fouls: list[Foul],
        group: str | None,
    ) -> Judgement:
        me, opp = state.turn, 1 - state.turn
        mine_start = group_balls(group) & set(f.on_table_start) if group else None
        eight_pocket = f.pockets.get(EIGHT)
        loss: tuple[str, str] | None = None
        assumed = False
        if EIGHT in f.off_table:
            loss = ("WPA 3.8", "The 8 left the table: loss of rack")
        elif fouls:
            loss = ("WPA 3.8", "Foul on the shot that pocketed the 8: loss of rack")
        elif group is None or (
            mine_start
            and (not mine_start <= set(f.pocketed) or self.settings.eight_with_last_group_loses)
        ):
            loss = ("WPA 3.8", "The 8 went down before the group was cleared: loss of rack")
        elif d.called_pocket is not None and eight_pocket != d.called_pocket:
            loss = (
                "WPA 3.8",
                f"The 8 went into {eight_pocket}, not the called {d.called_pocket}: loss of rack",
            )
        else:
            assumed = d.called_pocket is None
        evidence = dict(
            pocket=eight_pocket,
            called_pocket=d.called_pocket or eight_pocket,
            group=group,
            group_left_at_start=sorted(mine_start or (), key=ball_number),
            pocketed=list(f.pocketed),
            off_table=list(f.off_table),
        )
        if loss is not None:
            book.add(loss[0], Outcome.SERIOUS_FOUL, loss[1] + ".", **evidence)
            book.add(loss[0], Outcome.RACK_LOSS, f"{state.shooter} loses the rack.")
            nxt, orders = rack_won(
                state,
                opp,
                book,
                self.spec,
                self.settings,
                "WPA 3.8",
                f"{state.players[opp]} wins the rack.",
            )
        else:
            book.add("WPA 8.2", Outcome.LEGAL, "Legal shot.", assumed=assumed, **evidence)
            nxt, orders = rack_won(
                state,
                me,
                book,
                self.spec,
                self.settings,
                "WPA 3.5",
                f"{state.shooter} pockets the 8 in the {eight_pocket} and wins the rack.",
                assumed=assumed,
                **evidence,
            )
        return Judgement(tuple(book.calls), nxt.with_(shot=shot.number), tuple(orders))

    # ---------------------------------------------------------------------------- 3.3

    def _break(
        self, state: MatchState, shot: Shot, f: PoolFacts, d: Declaration, book: CallBook
    ) -> Judgement:
        me, opp = state.turn, 1 - state.turn
        assert state.pool is not None
        fouls = standard_fouls(f, state, shot, targets=None, rail_rule=False)
        for foul in fouls:
            rule = "WPA 3.3" if foul.kind == "object_off" else foul.rule
            book.add(rule, Outcome.FOUL, f"Foul on the break: {foul.reason}.", **foul.evidence)
        eight_in = EIGHT in f.pocketed
        eight_off = EIGHT in f.off_table
        scratch = f.scratch is not None or f.cue_off is not None
        on_table = remaining(shot)
        orders: list[Order] = []
        base = state.with_(shot=shot.number, breaking=False, on_table=on_table)
        ev_break = dict(
            rails_count=f.rails_count,
            pocketed=list(f.pocketed),
            first_contact=ev(f.first_contact),
            cue_ball_xy_mm=f.cue_xy_start,
        )

        def rerack(breaker: int, text: str, rule: str, assumed: bool) -> Judgement:
            book.add(rule, Outcome.REPLAY, text, assumed=assumed, **ev_break)
            rack = rack_order(self.game, self.spec)
            nxt = state.with_(
                shot=shot.number,
                turn=breaker,
                breaker=breaker,
                breaking=True,
                ball_in_hand="behind_head_string",
                on_table=object_balls(rack.labels),
            )
            return Judgement(tuple(book.calls), nxt, (rack,))

        def spot_eight() -> None:
            o = spot_order(self.spec, shot, (EIGHT,), "WPA 3.3")
            if o:
                orders.append(o)
                book.add("WPA 3.7", Outcome.SPOT, "The 8 is spotted.", labels=[EIGHT])

        if eight_in and scratch:  # 3.3(f): the opponent chooses
            if d.option == "rebreak":
                return rerack(opp, f"Re-rack; {state.players[opp]} breaks.", "WPA 3.3", False)
            spot_eight()
            book.add(
                "WPA 3.3",
                Outcome.BALL_IN_HAND,
                f"The 8 is spotted; {state.players[opp]} has ball in hand behind the head string.",
                assumed=d.option is None,
                player=state.players[opp],
                option=d.option or "spot_and_continue",
            )
            nxt = base.with_(
                turn=opp,
                ball_in_hand="behind_head_string",
                on_table=object_balls((*on_table, EIGHT)),
                fouls_in_a_row=bump(state.fouls_in_a_row, me),
            )
            return Judgement(tuple(book.calls), nxt, tuple(orders))
        if eight_off:
            spot_eight()
            on_table = object_balls((*on_table, EIGHT))
            base = base.with_(on_table=on_table)
        if fouls:  # 3.3(g, h): table as it is, or ball in hand behind the head string
            if d.option == "accept" and not scratch:
                book.add(
                    "WPA 3.3",
                    Outcome.LOSS_OF_TURN,
                    f"{state.players[opp]} takes the table as it lies.",
                    player=state.players[opp],
                )
                bih = None
            else:
                book.add(
                    "WPA 3.3",
                    Outcome.BALL_IN_HAND,
                    f"{state.players[opp]} has ball in hand behind the head string.",
                    assumed=d.option is None,
                    player=state.players[opp],
                    option=d.option or "bih_head_string",
                )
                bih = "behind_head_string"
            nxt = base.with_(
                turn=opp, ball_in_hand=bih, fouls_in_a_row=bump(state.fouls_in_a_row, me)
            )
            return Judgement(tuple(book.calls), nxt, tuple(orders))

        ok, reason = p7_break_rails(f)
        if not ok:  # 3.3(d)
            book.add("WPA 3.3", Outcome.FOUL, f"Illegal break: {reason}.", **ev_break)
            if d.option == "rerack_self":
                return rerack(opp, f"Re-rack; {state.players[opp]} breaks.", "WPA 3.3", False)
            if d.option == "rerack_breaker":
                return rerack(me, f"Re-rack; {state.shooter} breaks again.", "WPA 3.3", False)
            book.add(
                "WPA 3.3",
                Outcome.LOSS_OF_TURN,
                f"{state.players[opp]} plays the table as it lies.",
                assumed=d.option is None,
                player=state.players[opp],
                option=d.option or "accept",
            )
            nxt = base.with_(turn=opp, ball_in_hand=None)
            return Judgement(tuple(book.calls), nxt, tuple(orders))

        fouls_row = put(state.fouls_in_a_row, me, 0)
        book.add("WPA 3.3", Outcome.LEGAL, "Legal break.", **ev_break)
        if eight_in:  # 3.3(e): the breaker chooses
            if d.option == "rebreak":
                return rerack(me, f"Re-rack; {state.shooter} breaks again.", "WPA 3.3", False)
            spot_eight()
            on_table = object_balls((*on_table, EIGHT))
            book.add(
                "WPA 3.3",
                Outcome.LEGAL,
                f"The 8 is spotted and {state.shooter} continues.",
                assumed=d.option is None,
                option=d.option or "spot_and_continue",
            )
            nxt = base.with_(
                turn=me, ball_in_hand=None, on_table=on_table, fouls_in_a_row=fouls_row
            )
            return Judgement(tuple(book.calls), nxt, tuple(orders))
        if [b for b in f.pocketed if b != CUE]:
            book.add(
                "WPA 3.3",
                Outcome.LEGAL,
                f"{state.shooter} pocketed {', '.join(map(say, f.pocketed))} and continues; "
                "the table is open.",
            )
            turn = me
        else:
            book.add(
                "WPA 3.3",
                Outcome.LOSS_OF_TURN,
                f"{state.players[opp]} to shoot; the table is open.",
            )
            turn = opp
        nxt = base.with_(turn=turn, ball_in_hand=None, fouls_in_a_row=fouls_row)
        return Judgement(tuple(book.calls), nxt, tuple(orders))
