"""The director's ground truth is consistent: events, calls and positions agree."""

import numpy as np
import pytest

from adjudication.events import EventKind
from adjudication.games import Game
from simulation.bots import BotSettings
from simulation.match import POCKETED, ClipSettings, Director, direct

GAMES = [Game.NOVUSS, Game.NOVUSS_DOUBLES, Game.EIGHT_BALL, Game.NINE_BALL, Game.TEN_BALL,
         Game.STRAIGHT_POOL]


@pytest.fixture(scope="module", params=GAMES, ids=[g.value for g in GAMES])
def script(request):
    return direct(ClipSettings(game=request.param, seed=5, shots=4))


def test_every_shot_has_calls_citing_a_rule(script):
    assert script.shots
    for rec in script.shots:
        assert rec.judgement.calls, rec.number
        for call in rec.judgement.calls:
            assert call.rule.split()[0] in ("WPA", "Novuss", "EST"), call.rule


def test_events_are_time_ordered_and_framed(script):
    times = [e.t_s for e in script.events]
    assert times == sorted(times)
    fps = script.settings.fps
    for e in script.events:
        assert e.frame == round(e.t_s * fps)


def test_each_shot_is_bracketed_by_start_and_end(script):
    for rec in script.shots:
        kinds = [e.kind for e in rec.shot.events]
        assert kinds[0] == EventKind.SHOT_START and kinds[-1] == EventKind.SHOT_END


def test_contact_events_happen_where_the_objects_touch(script):
    for rec in script.shots:
        for e in rec.shot.events:
            if e.kind != EventKind.CONTACT:
                continue
            seg = next(s for s in script.segments if s.motion is not None
                       and s.t0_s <= e.t_s <= s.t1_s)
            a, b = (list(script.ids).index(o.id) for o in e.objects)
            xy, _ = seg.at(np.array([e.t_s]))
            ra = script.spec.object_for(script.labels[a]).radius_mm
            rb = script.spec.object_for(script.labels[b]).radius_mm
            assert np.linalg.norm(xy[0, a] - xy[0, b]) == pytest.approx(ra + rb, abs=0.05)


def test_pocketed_objects_have_a_pocket_event(script):
    pocketed = {e.objects[0].id for e in script.events if e.kind == EventKind.POCKET}
    last = script.segments[-1].end
    for i in np.flatnonzero(last.status == POCKETED):
        assert int(script.ids[i]) in pocketed


def test_the_director_is_deterministic():
    a = direct(ClipSettings(game=Game.NINE_BALL, seed=9, shots=3))
    b = direct(ClipSettings(game=Game.NINE_BALL, seed=9, shots=3))
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert [c.to_json() for r in a.shots for c in r.judgement.calls] == [
        c.to_json() for r in b.shots for c in r.judgement.calls]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"shots": 0}, "shots"),
        ({"fps": 5.0}, "fps"),
        ({"resolution_wh": (10, 10)}, "resolution"),
        ({"realism": 2.0}, "realism"),
        ({"case": "nope"}, "unknown case"),
        ({"table": "novuss"}, "cannot be played"),
        ({"case": "mid_set"}, "Novuss case"),
    ],
)
def test_impossible_settings_are_refused(kwargs, error):
    with pytest.raises(ValueError, match=error):
        ClipSettings(game=Game.NINE_BALL, **kwargs)


@pytest.mark.parametrize(
    ("game", "fault", "rule"),
    [
        (Game.NINE_BALL, "foul_wrong_ball", "WPA 6.2"),
        (Game.NINE_BALL, "foul_touched", "WPA 6.6"),
        (Game.NINE_BALL, "foul_off_table", "WPA 6.5"),
        (Game.EIGHT_BALL, "foul_kitchen", "WPA 6.10"),
        (Game.TEN_BALL, "foul_scratch", "WPA 6.1"),
        (Game.NOVUSS, "foul_opponent_pawn", "Novuss 17.1.б"),
        (Game.NOVUSS, "foul_placement_touch", "Novuss 17.1.л"),
        (Game.NOVUSS, "foul_too_hard", "Novuss 17.1.д"),
        (Game.NOVUSS_DOUBLES, "foul_puck_pocketed", "Novuss 17.1.г"),
        (Game.STRAIGHT_POOL, "foul_touch_moving", "WPA 6.6"),
        (Game.NOVUSS, "foul_touch_moving", "Novuss 17.1.н"),
        (Game.NOVUSS, "foul_rebound_opponent", "Novuss 17.1.в"),
        (Game.NOVUSS_DOUBLES, "foul_side_rail_miss", "Novuss 17.1.и"),
    ],
)
def test_a_deliberate_fault_draws_its_call(game, fault, rule):
    bot = BotSettings(fault_rate=1.0, faults=(fault,))
    script = direct(ClipSettings(game=game, seed=4, shots=4, bot=bot))
    rules = {c.rule for rec in script.shots for c in rec.judgement.calls}
    assert rule in rules, sorted(rules)


def test_a_hand_stopping_a_moving_ball_leaves_it_at_rest_where_it_was_touched():
    bot = BotSettings(fault_rate=1.0, faults=("foul_touch_moving",))
    script = direct(ClipSettings(game=Game.NINE_BALL, seed=4, shots=2, bot=bot))
    moved = [e for r in script.shots for e in r.shot.events if e.kind == EventKind.MOVED]
    assert moved
    e = moved[0]
    i = list(script.ids).index(e.objects[0].id)
    after = next(s for s in script.segments if s.motion is not None
                 and abs(s.t0_s - e.t_s) < 1e-9)
    xy, _ = after.at(np.array([e.t_s, e.t_s + 0.05]))
    assert np.allclose(xy[0, i], e.xy_mm) and np.allclose(xy[1, i], e.xy_mm, atol=1e-6)


@pytest.mark.parametrize("game", [Game.NOVUSS, Game.NOVUSS_DOUBLES])
def test_a_mid_set_start_gives_the_first_shooter_dark_pawns(game):
    director = Director(ClipSettings(game=game, seed=2, shots=1, case="mid_set"))
    script = director.run()
    first = script.shots[0]
    light, dark = director.engine.status(script.states[0], first.shot.before)
    assert dark and len(first.shot.before) < len(script.labels) - 1
    assert first.plan["kind"] != "break"
