"""Table specs carry the numbers of RULES.md §1.2, §2.2 and §9 in the DESIGN table frame."""

import math

import numpy as np
import pytest

from calibration.tables import TABLES, Family, get_table


@pytest.mark.parametrize(
    ("name", "length", "width"),
    [("pool-9ft", 2540, 1270), ("pool-8ft", 2337, 1168), ("novuss", 1000, 1000)],
)
def test_playing_surface_matches_rules(name, length, width):
    assert get_table(name).surface_wh_mm == (length, width)


@pytest.mark.parametrize("name", ["pool-7ft", "pool-8ft", "pool-9ft"])
def test_pool_strings_and_spots_sit_at_quarter_lengths(name):
    spec = get_table(name)
    length = spec.surface_wh_mm[0]
    assert spec.spots["head_spot"] == pytest.approx((-length / 4, 0.0))
    assert spec.spots["foot_spot"] == pytest.approx((length / 4, 0.0))
    assert spec.line("head_string").a_xy_mm[0] == pytest.approx(-length / 4)
    assert spec.object_for("ball_9").radius_mm == pytest.approx(57.15 / 2)


def test_nine_foot_head_string_is_635_mm_from_the_head_cushion():
    spec = get_table("pool-9ft")
    head_x = spec.cushion("head").a_xy_mm[0]
    assert spec.line("head_string").a_xy_mm[0] - head_x == pytest.approx(635.0)
    assert spec.spots["foot_spot"][0] - head_x == pytest.approx(1905.0)


@pytest.mark.parametrize("name", ["pool-7ft", "pool-8ft", "pool-9ft"])
def test_pool_pocket_mouths_are_within_wpa_tolerance(name):
    spec = get_table(name)
    for pocket in spec.pockets:
        low, high = (127.0, 130.2) if pocket.name.startswith("side") else (114.3, 117.5)
        assert low <= pocket.mouth_width_mm <= high, pocket.name


def test_pool_cushions_and_pockets_have_the_design_names():
    spec = get_table("pool-9ft")
    assert {c.name for c in spec.cushions} == {
        "head", "foot", "left_head", "left_foot", "right_head", "right_foot"}
    assert {p.name for p in spec.pockets} == {
        "head_left", "side_left", "foot_left", "head_right", "side_right", "foot_right"}
    # +y is to the left of a player at the head rail looking at the foot (DESIGN.md).
    assert spec.pocket("foot_left").centre_xy_mm[0] > 0
    assert spec.pocket("foot_left").centre_xy_mm[1] > 0


def test_pool_cushion_normals_point_into_the_table():
    for spec in TABLES.values():
        for c in spec.cushions:
            mid = (np.asarray(c.a_xy_mm) + np.asarray(c.b_xy_mm)) / 2
            inside = mid + 10.0 * np.asarray(c.normal_xy)
            assert spec.on_surface(inside[None])[0], (spec.name, c.name)


def test_rack_outline_side_is_327_6_mm():
    spec = get_table("pool-9ft")
    left = spec.line("rack_left")
    assert math.dist(left.a_xy_mm, left.b_xy_mm) == pytest.approx(327.6, abs=0.1)
    base = spec.line("rack_base")
    assert math.dist(base.a_xy_mm, base.b_xy_mm) == pytest.approx(327.6, abs=0.1)


def test_pool_diamonds_are_every_eighth_and_quarter():
    spec = get_table("pool-9ft")
    xs = sorted({round(x, 1) for x, y in spec.diamonds_xy_mm if abs(y) > 635})
    assert np.diff(xs) == pytest.approx([317.5, 317.5, 635.0, 317.5, 317.5])
    assert len(spec.diamonds_xy_mm) == 18


def test_novuss_lines_pockets_and_objects_match_rules():
    spec = get_table("novuss")
    assert spec.family is Family.NOVUSS
    assert spec.line("zone_a").a_xy_mm[1] == pytest.approx(-370.0)
    assert spec.line("zone_right").a_xy_mm[0] == pytest.approx(370.0)
    assert spec.line("circle").radius_mm == 125.0
    assert all(line.width_mm == 1.0 for line in spec.lines)
    centres = {p.name: p.centre_xy_mm for p in spec.pockets}
    assert centres["a_left"] == (-435.0, -435.0)
    assert centres["b_right"] == (435.0, 435.0)
    assert all(p.hole_radius_mm == 50.0 for p in spec.pockets)
    pawn, puck = spec.object_for("red_pawn"), spec.object_for("puck")
    assert (pawn.radius_mm, pawn.height_mm, pawn.hole_radius_mm) == (15.0, 12.0, 4.0)
    assert (puck.radius_mm, puck.height_mm) == (22.5, 15.0)
    assert spec.rail_width_mm == 45.0 and spec.rail_height_mm == 25.0


def test_novuss_zone_line_distance_is_exact_to_the_millimetre():
    line = get_table("novuss").line("zone_a")
    d = line.distance_mm(np.array([[0.0, -374.5], [100.0, -370.0], [0.0, -365.0]]))
    assert d == pytest.approx([4.5, 0.0, 5.0])


@pytest.mark.parametrize(("name", "error"), [("pool-10ft", "unknown table"), ("", "unknown")])
def test_unknown_table_names_the_known_ones(name, error):
    with pytest.raises(KeyError, match=error):
        get_table(name)
