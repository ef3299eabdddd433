"""Property tests: random legal event streams through ``StreamReferee`` and the engines.

Pieces are conserved, scores follow the calls, a game ends exactly once and the turn always
belongs to someone. Modest example counts keep the suite fast."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudication.games import Game
from adjudication.replay import StreamError, StreamReferee
from adjudication.rules.pool_common import rack_order
from calibration.tables import get_table

POCKETS = ("head_left", "side_left", "foot_left", "head_right", "side_right", "foot_right")
NOVUSS_POCKETS = ("a_left", "a_right", "b_left", "b_right")
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _start(game: Game, spec, players):
    ref = StreamReferee(game, spec)
    if game.is_novuss:
        order = ref.engine.setup_order(ref.engine.start(players))
    else:
        order = rack_order(game, spec)
    objects = [{"id": k + 2, "label": lab, "xy_mm": list(xy)}
               for k, (lab, xy) in enumerate(zip(order.labels, order.xy_mm, strict=True))]
    striker = "puck" if game.is_novuss else "cue_ball"
    objects.append({"id": 1, "label": striker, "xy_mm": [0.0, -430.0] if game.is_novuss
                    else [-800.0, 0.0]})
    ref.feed(1, {"v": 1, "type": "match_start", "game": game.value, "table": spec.name,
                 "source": "hypothesis", "fps": 30.0, "frame_wh": [1280, 720],
                 "players": list(players), "objects": objects})
    return ref


def _event(kind, t, shot, objs, xy=(0.0, 0.0), **kw):
    return {"v": 1, "type": "event", "kind": kind, "t_s": t, "frame": int(t * 30), "shot": shot,
            "objects": [{"id": i, "label": lab} for i, lab in objs], "xy_mm": list(xy),
            "confidence": 1.0, **kw}


def play(game: Game, data, n_shots: int):
    """Feed ``n_shots`` random shots; return every (state before, lines out) pair."""
    spec = get_table("novuss" if game.is_novuss else "pool-9ft")
    players = ("P", "Q", "R", "S") if game is Game.NOVUSS_DOUBLES else ("P", "Q")
    ref = _start(game, spec, players)
    striker = (1, "puck" if game.is_novuss else "cue_ball")
    pockets = NOVUSS_POCKETS if game.is_novuss else POCKETS
    t, line, out = 0.0, 2, []
    for shot in range(1, n_shots + 1):
        layout = ref.layout
        pieces = [(int(i), lab) for i, lab in zip(layout.ids.tolist(), layout.labels, strict=True)
                  if lab != striker[1]]
        if not pieces or (ref.state is not None and ref.state.winner is not None):
            break
        xy = layout.by_id(1)
        start_xy = (float(xy[0]), float(xy[1])) if xy is not None else (-800.0, 0.0)
        evs = [_event("shot_start", t := t + 0.5, shot, [striker], start_xy)]
        target = data.draw(st.sampled_from([None, *pieces]))
        if target is not None:
            evs.append(_event("contact", t := t + 0.1, shot, [striker, target]))
            for p in data.draw(st.lists(st.sampled_from(pieces), max_size=4, unique=True)):
                evs.append(_event("cushion", t := t + 0.1, shot, [p], cushion="b" if
                                  game.is_novuss else "foot"))
            gone = data.draw(st.lists(st.sampled_from(pieces), max_size=3, unique=True))
            for p in gone:
                evs.append(_event("pocket", t := t + 0.1, shot, [p],
                                  pocket=data.draw(st.sampled_from(pockets))))
        if data.draw(st.booleans()) and not game.is_novuss:
            evs.append(_event("pocket", t := t + 0.1, shot, [striker], pocket="foot_left"))
        evs.append(_event("shot_end", t := t + 1.0, shot, []))
        before = ref.state
        lines = []
        try:
            lines += ref.feed(line, evs[0])
        except StreamError as exc:  # the previous shot, judged now, won the match
            assert "after the match was won" in exc.message
            out[-1] = (out[-1][0], out[-1][1] + exc.judged)
            break
        line += 1
        for e in evs[1:]:
            lines += ref.feed(line, e)
            line += 1
        out.append((before, lines))
    tail = ref.close()
    if out:
        out[-1] = (out[-1][0], out[-1][1] + tail)
    # each shot's lines come out when the next shot starts: regroup by shot number
    flat = [x for _, lines in out for x in lines]
    return ref, flat


def check_common(ref, flat, game):
    states = [x for x in flat if x["type"] == "state"]
    calls = [x for x in flat if x["type"] == "call"]
    for s in states:  # the turn always belongs to someone
        assert s["turn"] in ref.players
    wins = [c for c in calls if c["outcome"] == "match_win"]
    assert len(wins) <= 1  # a game ends exactly once ...
    if wins:  # ... and nothing is judged after it
        assert max(c["shot"] for c in calls) == wins[0]["shot"]
        assert states[-1]["winner"] is not None
    else:
        assert all(s["winner"] is None for s in states)
    return states, calls


@SETTINGS
@given(data=st.data(), n=st.integers(1, 14), game=st.sampled_from([Game.NINE_BALL,
                                                                  Game.TEN_BALL,
                                                                  Game.EIGHT_BALL]))
def test_pool_streams_conserve_balls_and_score_racks(data, n, game):
    ref, flat = play(game, data, n)
    states, calls = check_common(ref, flat, game)
    racks = {p: 0 for p in ref.players}
    for c in calls:
        if c["outcome"] == "rack_win":
            racks[c["player"]] += 1
    assert states[-1]["scores"] == racks  # scores follow the calls
    # pieces are conserved: the engine's table and the stream's layout agree
    table = sorted(lab for lab in ref.layout.labels if lab.startswith("ball_"))
    assert sorted(states[-1]["on_table"]) == table


@SETTINGS
@given(data=st.data(), n=st.integers(1, 14))
def test_straight_pool_scores_are_the_sum_of_the_called_points(data, n):
    ref, flat = play(Game.STRAIGHT_POOL, data, n)
    states, calls = check_common(ref, flat, Game.STRAIGHT_POOL)
    points = {p: 0 for p in ref.players}
    for c in calls:
        if isinstance(c["evidence"].get("points"), int):
            points[c["player"]] += c["evidence"]["points"]
    assert states[-1]["scores"] == points
    balls = [lab for lab in ref.layout.labels if lab.startswith("ball_")]
    assert len(balls) == len(states[-1]["on_table"]) and len(set(balls)) == len(balls)
    assert all(0 <= v <= 2 for v in states[-1]["fouls_in_a_row"].values())


@SETTINGS
@given(data=st.data(), n=st.integers(1, 12),
       game=st.sampled_from([Game.NOVUSS, Game.NOVUSS_DOUBLES]))
def test_novuss_streams_conserve_pawns(data, n, game):
    ref, flat = play(game, data, n)
    states, calls = check_common(ref, flat, game)
    wins = {p: 0 for p in ref.players}
    for c in calls:
        if c["outcome"] == "set_win":
            wins[c["player"]] += 1
    for s in states:
        assert all(v >= 0 for v in s["penalty_debt"].values())
        pawns = s["pawns"]
        per_colour = 16 if game is Game.NOVUSS_DOUBLES else 8
        assert 0 <= pawns["red"] <= per_colour and 0 <= pawns["black"] <= per_colour
    last = states[-1]
    table = [lab for lab in ref.layout.labels if lab.endswith("_pawn")]
    assert sorted(last["on_table"]) == sorted(table)  # pieces are conserved
    if game is Game.NOVUSS:  # scores follow the calls (doubles: a pair shares its sets)
        assert last["sets_won"] == wins
    else:
        pairs = [(ref.players[0], ref.players[2]), (ref.players[1], ref.players[3])]
        for a, b in pairs:
            assert last["sets_won"][a] == last["sets_won"][b] == wins[a] + wins[b]
