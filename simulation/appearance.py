"""The look of one rendered clip: every colour, light and camera-effect parameter.

An :class:`Appearance` is drawn once per clip by :func:`random_appearance` (the spread of
real venues in ``shared/REAL_WORLD.md``) or taken clean from :func:`clean_appearance` for
exact geometric tests. Colours are BGR in 0..255 (OpenCV order), lengths in millimetres,
times in seconds. The renderer reads nothing else, so a clip is reproducible from its
appearance and the renderer's seed.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from calibration.tables import Family, TableSpec

BGR = tuple[float, float, float]

#: Ball maker's colours (BGR), index = ball number, 0 = cue ball.
BALL_COLOURS_BGR: tuple[BGR, ...] = (
    (236.0, 240.0, 240.0),  # cue ball
    (20.0, 200.0, 245.0),  # 1 yellow
    (170.0, 60.0, 20.0),  # 2 blue
    (35.0, 35.0, 210.0),  # 3 red
    (120.0, 35.0, 95.0),  # 4 purple
    (20.0, 120.0, 245.0),  # 5 orange
    (60.0, 130.0, 20.0),  # 6 green
    (40.0, 30.0, 120.0),  # 7 maroon
    (28.0, 28.0, 28.0),  # 8 black
)

#: Tournament cloth colours (BGR): turquoise to royal blue, green, red, grey, black.
CLOTH_CHOICES_BGR: tuple[BGR, ...] = (
    (170.0, 140.0, 40.0),  # turquoise / "tournament blue"
    (175.0, 110.0, 30.0),  # electric blue
    (150.0, 75.0, 25.0),  # royal blue
    (125.0, 80.0, 40.0),  # dark blue
    (50.0, 125.0, 30.0),  # green
    (40.0, 105.0, 45.0),  # dark green
    (40.0, 35.0, 150.0),  # red
    (105.0, 100.0, 95.0),  # grey
    (45.0, 42.0, 40.0),  # black
)


@dataclass(frozen=True, slots=True)
class Lamp:
    """An overhead lamp: a bright disc at height ``z_mm`` seen in glossy surfaces and balls."""

    xy_mm: tuple[float, float]
    z_mm: float
    radius_mm: float


@dataclass(frozen=True, slots=True)
class Appearance:
    """Every look parameter of one clip.

    Geometry never depends on these: a clean and a busy appearance put every object on the
    same pixel. ``realism`` records how far from clean the clip was drawn (0 = clean).
    """

    family: Family
    realism: float
    # --- playing surface
    cloth_bgr: BGR  # pool cloth, or the Novuss board's lacquered birch
    surface_texture_amp: float  # cloth fibre / wood grain contrast (fraction of brightness)
    line_bgr: BGR
    line_alpha: float  # printed lines: faint on pool (0.1-0.4), black on Novuss (~1)
    rack_outline: bool
    spots: bool
    wear_amp: float  # pool: worn break/head-spot patches, chalk marks
    powder_density: float  # Novuss: white powder streaks per m^2
    powder_alpha: float
    gloss: float  # Novuss lamp reflections in the lacquer (0 = matte)
    # --- rails and surroundings
    rail_style: str  # "wood" | "black"
    rail_bgr: BGR
    cushion_shade: float  # cushion face brightness relative to the cloth
    diamonds: bool
    diamond_bgr: BGR
    pocket_bgr: BGR
    floor_bgr: BGR
    clutter_count: int  # spectator / furniture blobs around the table
    sponsor_boards: bool
    # --- objects
    ball_bgr: tuple[BGR, ...]  # index = number, 0 = cue ball (broadcast colour shifts applied)
    stripe_half_width: float  # stripe band: |n_z| below this is coloured
    number_circle_rad: float  # angular radius of the white number circle
    cue_ball_dots: bool
    pawn_red_bgr: BGR
    pawn_black_bgr: BGR
    puck_bgr: BGR
    # --- light
    lamps: tuple[Lamp, ...]
    ambient: float  # share of light that does not depend on the surface normal
    specular: float  # highlight strength (0 = none)
    shadow_strength: float  # contact shadows under objects and occluders (0 = none)
    surface_light_falloff: float  # brightness drop from the lamp pool to the table corners
    gradient_amp: float  # camera-space linear brightness gradient
    gradient_dir_rad: float
    vignette: float  # brightness drop at the image corners
    flicker_amp: float  # mains flicker gain amplitude
    flicker_hz: float  # 100 (50 Hz mains) or 120 (60 Hz)
    wb_gain_bgr: BGR  # white balance / venue colour gains
    wb_drift_amp: float  # auto white balance wander over the clip
    wb_drift_period_s: float
    exposure_gain: float
    # --- sensor and capture
    noise_read: float  # Gaussian noise sigma at black (0..255 units)
    noise_shot: float  # extra sigma at white
    exposure_s: float  # shutter time; scene generators spread motion sub-samples over it
    # --- broadcast graphics
    score_bar: bool
    logo: bool
    logo_corner: int  # 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
    score_text: str = "PLAYER A  3 (9) 2  PLAYER B"
    bar_bgr: BGR = (70.0, 30.0, 10.0)
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """Every look parameter, for the sidecar (so a clip's look can be studied)."""
        return _jsonable(asdict(self))  # type: ignore[no-any-return]

    def __post_init__(self) -> None:
        if self.rail_style not in ("wood", "black"):
            raise ValueError(f"rail_style must be 'wood' or 'black', got {self.rail_style!r}")
        if len(self.ball_bgr) != 16:
            raise ValueError(f"ball_bgr needs 16 colours (cue ball + 15), got {len(self.ball_bgr)}")
        if not 0.0 <= self.realism <= 1.0:
            raise ValueError(f"realism must be in [0, 1], got {self.realism}")
        if self.exposure_s < 0:
            raise ValueError(f"exposure_s must be >= 0, got {self.exposure_s}")


def _maker_ball_colours() -> tuple[BGR, ...]:
    solids = BALL_COLOURS_BGR
    return solids + tuple(solids[n - 8] for n in range(9, 16))


def _default_lamps(spec: TableSpec) -> tuple[Lamp, ...]:
    if spec.family is Family.NOVUSS:
        return (Lamp((0.0, 0.0), 900.0, 160.0),)
    hx = spec.half_wh_mm[0]
    return tuple(Lamp((x, 0.0), 1000.0, 180.0) for x in (-hx / 2, 0.0, hx / 2))


def clean_appearance(spec: TableSpec) -> Appearance:
    """A clean look for exact tests: no noise, flicker, graphics, shadows or colour shift."""
    novuss = spec.family is Family.NOVUSS
    return Appearance(
        family=spec.family,
        realism=0.0,
        cloth_bgr=(150.0, 200.0, 228.0) if novuss else CLOTH_CHOICES_BGR[1],
        surface_texture_amp=0.0,
        line_bgr=(20.0, 20.0, 20.0) if novuss else (235.0, 235.0, 235.0),
        line_alpha=1.0 if novuss else 0.3,
        rack_outline=False,
        spots=True,
        wear_amp=0.0,
        powder_density=0.0,
        powder_alpha=0.0,
        gloss=0.0,
        rail_style="wood",
        rail_bgr=(40.0, 75.0, 120.0) if novuss else (30.0, 30.0, 30.0),
        cushion_shade=0.6,
        diamonds=not novuss,
        diamond_bgr=(225.0, 235.0, 240.0),
        pocket_bgr=(12.0, 12.0, 12.0),
        floor_bgr=(45.0, 45.0, 50.0),
        clutter_count=0,
        sponsor_boards=False,
        ball_bgr=_maker_ball_colours(),
        stripe_half_width=0.5,
        number_circle_rad=0.4,
        cue_ball_dots=False,
        pawn_red_bgr=(30.0, 30.0, 190.0),
        pawn_black_bgr=(30.0, 30.0, 30.0),
        puck_bgr=(120.0, 175.0, 210.0),
        lamps=_default_lamps(spec),
        ambient=0.55,
        specular=0.0,
        shadow_strength=0.0,
        surface_light_falloff=0.0,
        gradient_amp=0.0,
        gradient_dir_rad=0.0,
        vignette=0.0,
        flicker_amp=0.0,
        flicker_hz=100.0,
        wb_gain_bgr=(1.0, 1.0, 1.0),
        wb_drift_amp=0.0,
        wb_drift_period_s=10.0,
        exposure_gain=1.0,
        noise_read=0.0,
        noise_shot=0.0,
        exposure_s=1 / 120,
        score_bar=False,
        logo=False,
        logo_corner=1,
    )


def _jitter(rng: np.random.Generator, bgr: BGR, amount: float) -> BGR:
    g = 1.0 + amount * rng.normal(size=3)
    return tuple(float(np.clip(c * k, 0, 255)) for c, k in zip(bgr, g, strict=True))  # type: ignore[return-value]


def _broadcast_shift(
    colours: tuple[BGR, ...], rng: np.random.Generator, k: float
) -> tuple[BGR, ...]:
    """Broadcast colour: the 4 pinkish, the 1 gold, the 5 orange-red, the 7 brown."""
    targets: dict[int, BGR] = {
        1: (30.0, 170.0, 235.0),  # gold
        4: (150.0, 80.0, 200.0),  # pink-purple
        5: (25.0, 80.0, 240.0),  # orange-red
        7: (35.0, 60.0, 120.0),  # brown
    }
    out = list(colours)
    for n in range(1, 16):
        base = n if n <= 8 else n - 8
        if base in targets:
            w = k * rng.uniform(0.4, 1.0)
            out[n] = tuple(
                (1 - w) * a + w * b for a, b in zip(colours[n], targets[base], strict=True)
            )  # type: ignore[assignment]
    return tuple(_jitter(rng, c, 0.04 * k) for c in out)


def random_appearance(
    spec: TableSpec, rng: np.random.Generator, *, realism: float = 1.0
) -> Appearance:
    """A random venue look; ``realism`` scales every nuisance from clean (0) to full (1)."""
    if not 0.0 <= realism <= 1.0:
        raise ValueError(f"realism must be in [0, 1], got {realism}")
    r = realism
    base = clean_appearance(spec)
    novuss = spec.family is Family.NOVUSS
    u = rng.uniform

    if novuss:
        birch = (u(120, 165), u(175, 215), u(205, 240))
        cloth = _jitter(rng, birch, 0.03)
        rail = (u(20, 60), u(45, 90), u(80, 140))
        rail_style = "wood"
    else:
        cloth = _jitter(rng, CLOTH_CHOICES_BGR[rng.integers(len(CLOTH_CHOICES_BGR))], 0.06)
        rail_style = "black" if rng.random() < 0.6 else "wood"
        rail = (u(20, 40),) * 3 if rail_style == "black" else (u(25, 60), u(55, 100), u(100, 160))
    lamps = tuple(
        Lamp(
            (lp.xy_mm[0] + u(-80, 80) * r, lp.xy_mm[1] + u(-80, 80) * r),
            lp.z_mm * u(0.8, 1.3),
            lp.radius_mm * u(0.7, 1.4),
        )
        for lp in base.lamps
    )
    wb = tuple(float(1.0 + r * rng.normal(0, 0.06)) for _ in range(3))
    return replace(
        base,
        realism=r,
        cloth_bgr=cloth,
        surface_texture_amp=r * u(0.02, 0.06) if not novuss else r * u(0.04, 0.1),
        line_alpha=u(0.8, 1.0) if novuss else u(0.0, 0.45),
        rack_outline=(not novuss) and rng.random() < 0.35 * r,
        spots=rng.random() < 0.9,
        wear_amp=r * u(0.0, 0.08),
        powder_density=r * u(2.0, 40.0) if novuss else 0.0,
        powder_alpha=r * u(0.15, 0.45) if novuss else 0.0,
        gloss=r * u(0.2, 0.7) if novuss else 0.0,
        rail_style=rail_style,
        rail_bgr=rail,
        cushion_shade=u(0.45, 0.75),
        diamonds=not novuss,
        diamond_bgr=_jitter(rng, base.diamond_bgr, 0.03),
        pocket_bgr=(u(5, 20),) * 3,
        floor_bgr=_jitter(rng, (u(25, 80),) * 3, 0.25),
        clutter_count=int(rng.integers(0, 60) * r),
        sponsor_boards=(not novuss) and rng.random() < 0.6 * r,
        ball_bgr=_broadcast_shift(base.ball_bgr, rng, r),
        stripe_half_width=u(0.45, 0.58),
        number_circle_rad=u(0.34, 0.42),
        cue_ball_dots=rng.random() < 0.5 * r,
        pawn_red_bgr=_jitter(rng, base.pawn_red_bgr, 0.1 * r),
        pawn_black_bgr=_jitter(rng, base.pawn_black_bgr, 0.1 * r),
        puck_bgr=_jitter(rng, base.puck_bgr, 0.08 * r),
        lamps=lamps,
        ambient=u(0.4, 0.6),
        specular=u(0.6, 1.0) if r > 0 else 0.0,
        shadow_strength=r * u(0.2, 0.5),
        surface_light_falloff=r * u(0.05, 0.25),
        gradient_amp=r * u(0.0, 0.15),
        gradient_dir_rad=u(0, 2 * math.pi),
        vignette=r * u(0.0, 0.35),
        flicker_amp=r * (u(0.0, 0.06) if rng.random() < 0.5 else 0.0),
        flicker_hz=100.0 if rng.random() < 0.5 else 120.0,
        wb_gain_bgr=wb,  # type: ignore[arg-type]
        wb_drift_amp=r * (u(0.0, 0.04) if rng.random() < 0.4 else 0.0),
        wb_drift_period_s=u(3.0, 20.0),
        exposure_gain=1.0 + r * rng.normal(0, 0.08),
        noise_read=r * u(0.5, 3.0),
        noise_shot=r * u(1.0, 6.0),
        exposure_s=float(rng.choice([1 / 60, 1 / 120, 1 / 250, 1 / 500])),
        score_bar=(not novuss) and rng.random() < 0.5 * r,
        logo=rng.random() < 0.4 * r,
        logo_corner=int(rng.integers(4)),
        score_text=f"PLAYER {rng.integers(1, 99)}  {rng.integers(0, 9)} ({rng.integers(5, 13)}) "
        f"{rng.integers(0, 9)}  PLAYER {rng.integers(1, 99)}",
        bar_bgr=_jitter(rng, base.bar_bgr, 0.3),
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(float(value), 6)
    if isinstance(value, (np.integer, np.floating)):
        return value.item()
    return value
