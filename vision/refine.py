"""Sub-pixel object centres from a detector's rough circles.

A detector's box puts a ball or disc within a pixel or two of its centre and its radius
within ~15 %: at 720p that is millimetres on the table, too coarse to judge a frozen ball
or a kiss. The silhouette itself is sharp, so the centre is measured from it:

1. **Rays.** From each rough centre, ``rays`` rays are sampled across the expected rim
   (0.5 r to 1.5 r) every half pixel, all objects and rays in one ``cv2.remap``.
2. **Edges.** Along each ray, the norm of the colour derivative (a derivative of
   Gaussian, in luma and two colour differences): a red ball on brown cloth still has
   an edge in colour. Each ray keeps one peak, located to a fraction of a sample by a
   parabola, chosen by its strength weighted toward the expected radius and toward edges
   that lead *out* of the object: the colour just beyond should match the object's
   surroundings and the colour just inside should not. So a stripe's or a printed
   number's edge (the ball beyond it), a disc's top face meeting its dark side wall, or
   a printed line on the board (the board inside it) lose to the rim. (Inside a cluster,
   where the rays end on neighbours and the surroundings are unknown, the tests are off.)
3. **Robust fit.** The rim's distance along each ray is fitted as a short Fourier series
   in the ray angle; its first harmonic is the centre (see ``_fit``). Fits that leave
   out one, two or three neighbouring sectors of rays compete with the fit to all rays,
   and the one that explains most rays wins, so the arc spoilt by a touching neighbour,
   a cue or a hand does not drag the centre; rays far from it are then dropped.
   Objects of a kind share a radius (affine in the image position, for perspective);
   a fit whose radius strays from its peers' is looked at again expecting theirs, since
   a detector's radius 15 % off can let a printed number pass for the rim.
4. **Second look.** The rays are cast again from the fitted centre over a narrow band
   around the fitted rim (the peers' radius where known), weighted strongly toward it,
   and the fit is repeated from the first one: each ray now crosses the rim square on,
   and an edge a pixel or two off the rim (a neighbour, a stripe meeting the rim) no
   longer competes.

A disc's silhouette is the union of its top and bottom rims, which the camera sees
shifted against each other; its fitted centre is then the projection of the disc's
mid-height centre, not the top face's, and its radius is slightly more than the top
face's.

A fit that cannot be trusted (too few rays agreeing, agreeing rays all on one side, a
radius or a shift out of line with the detector's, a flat patch, most rays off the
image) gives ``ok`` False and the input circle unchanged: the caller keeps the
detector's estimate.

Cost: about ``rays * (3 r + 30)`` samples per object in two remaps, and small batched
least-squares problems; no Python loop over objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

#: Samples per pixel along a ray. The edge's peak is placed by a parabola, so finer
#: steps gain little and cost time linearly.
SAMPLES_PER_PX = 2.0
#: Gaussian scale (px) of the derivative along a ray. Wider is steadier under noise and
#: JPEG blocks but merges the close edges of a disc's thin side wall.
EDGE_SIGMA_PX = 0.7
#: The edge strength is taken in luma and two colour differences (B - Y, R - Y), the
#: latter weighted by this. Video and JPEG keep colour at half resolution, so colour
#: edges are placed less well than brightness edges, yet a red ball on brown cloth has
#: little else; on JPEG'd renders 1 did better than 0.3, 0.5, 1.5 or 2.5 (and than BGR).
CHROMA_WEIGHT = 1.0
#: First look: the band searched, as fractions of the detector's radius, and the width
#: (fraction of radius) of the weight toward the detector's radius. A narrower weight
#: trusts the detector's radius more.
FIRST_BAND = (0.5, 1.5)
FIRST_PRIOR_WIDTH = 0.3
#: Second look: half-width of the band around the fitted rim and width of the weight
#: toward it, each as (fraction of radius, px), the larger of the two used. The band must
#: hold a disc's top and bottom rims; the weight is narrow so an edge a pixel off the rim
#: loses to the rim.
SECOND_HALF_BAND = (0.25, 3.0)
SECOND_PRIOR_WIDTH = (0.08, 0.8)
#: The rim leads out of the object: this far (px) beyond an edge the colour should match
#: the object's surroundings (the median colour at the rays' far ends) and this far
#: inside it should not. "Match" is a colour distance of about the tolerance (levels);
#: an edge failing a test keeps the floor share of its weight. A low tolerance also
#: fails rims with a shadow beyond them.
BACKGROUND_PX = 1.5
BACKGROUND_TOLERANCE = 30.0
BACKGROUND_FLOOR = 0.2
#: The surroundings' colour is only trusted where at least this share of the rays' far
#: ends lie within twice the tolerance of it.
BACKGROUND_AGREEMENT = 0.5
#: Weakest edge a ray may count (colour derivative, levels per pixel), and the least
#: share of the object's median edge: noise, a flat patch and JPEG blocks stay below.
MIN_EDGE = 8.0
MIN_EDGE_SHARE = 0.1
#: Robust fit: the rays are cut into this many sectors; fits leaving out one, two or
#: three neighbouring sectors compete with the fit to all. A fit's cost is the sum of its
#: squared residuals, each capped at the consensus distance (px), so a ray farther off
#: counts as wrong however far it is.
HYPOTHESIS_SECTORS = 8
CONSENSUS_PX = 0.6
#: Robust fit: after the choice, rays farther off than this many robust sigmas (floored,
#: px, so a near-perfect fit does not reject honest noise) are dropped and the fit
#: repeated, this many times.
REJECT_SIGMAS = 2.5
SIGMA_FLOOR_PX = 0.25
REFIT_STEPS = 2
#: Ridge on the second harmonic (in rays' worth of evidence): keeps the few rays of a
#: partly hidden object from bending the outline to fit them.
HARMONIC_RIDGE = 2.0
#: Peers: objects whose radii are within this share of each other are taken for one
#: kind (a Novuss puck is 1.5 pawns); at least this many trusted ones make a radius
#: model; a first fit further than the tolerance from it is looked at again. The ridge
#: (in objects' worth) keeps the model level where the peers are few or in a line.
PEER_SIMILARITY = 0.2
MIN_PEERS = 4
PEER_TOLERANCE = 0.05
PEER_SLOPE_RIDGE = 0.5
#: Trust: the least share of rays that must agree with the fit, and how evenly they must
#: surround it (length of the mean of their directions: 0 all round, 1 all one way).
MIN_INLIER_SHARE = 0.4
MAX_DIRECTION_BIAS = 0.55
#: Trust: the fitted radius as a ratio of the detector's, and the largest move of the
#: centre as a fraction of the detector's radius.
RADIUS_RATIO = (0.78, 1.35)
MAX_SHIFT = 0.35

_ROW3 = np.ones((1, 3), np.uint8)
#: BGR -> luma and two colour differences, the differences scaled by CHROMA_WEIGHT.
_Y = np.array([0.114, 0.587, 0.299])
_LUMA_CHROMA = np.array([_Y, CHROMA_WEIGHT * (np.eye(3)[0] - _Y),
                         CHROMA_WEIGHT * (np.eye(3)[2] - _Y)], np.float32)


@dataclass(frozen=True, slots=True)
class Refined:
    """Refined circles, one row per input object, in the input's order.

    ``ok`` is False where the fit was not trusted; those rows repeat the input circle.
    ``rms_px`` is the RMS distance of the agreeing rim points from the fitted outline
    (``nan`` where not ok): a per-object measurement noise for a tracker.
    """

    xy_px: np.ndarray  # (N, 2) float
    radius_px: np.ndarray  # (N,) float
    ok: np.ndarray  # (N,) bool
    rms_px: np.ndarray  # (N,) float

    def __post_init__(self) -> None:
        n = len(self.ok)
        if self.xy_px.shape != (n, 2):
            raise ValueError(f"xy_px must be ({n}, 2), got {self.xy_px.shape}")
        for name in ("radius_px", "ok", "rms_px"):
            shape = getattr(self, name).shape
            if shape != (n,):
                raise ValueError(f"{name} must be ({n},), got {shape}")

    def __len__(self) -> int:
        return len(self.ok)

    def __getitem__(self, index: np.ndarray | slice | int) -> Refined:
        """Rows by boolean mask, index array or slice (an int keeps the row as length 1)."""
        if isinstance(index, int | np.integer):
            index = slice(int(index), int(index) + 1 or None)
        return Refined(self.xy_px[index], self.radius_px[index], self.ok[index],
                       self.rms_px[index])

    @classmethod
    def empty(cls) -> Refined:
        return cls(np.zeros((0, 2)), np.zeros(0), np.zeros(0, bool), np.zeros(0))


def refine_centres(
    bgr: np.ndarray, xy_px: np.ndarray, radius_px: np.ndarray, *, rays: int = 32
) -> Refined:
    """Refine rough circles, centres ``xy_px`` (N, 2) and radii ``radius_px`` (N,), on
    the source camera image ``bgr`` (H, W, 3) uint8 (a grey (H, W) image works too).

    ``rays`` per object: more steadies the fit against noise and occlusion, at a cost
    linear in it; it must be a multiple of ``HYPOTHESIS_SECTORS``.
    """
    xy0 = np.asarray(xy_px, float).reshape(-1, 2)
    r0 = np.asarray(radius_px, float).reshape(-1)
    if len(xy0) != len(r0):
        raise ValueError(f"{len(xy0)} centres for {len(r0)} radii")
    if rays < 2 * HYPOTHESIS_SECTORS or rays % HYPOTHESIS_SECTORS:
        raise ValueError(f"rays must be a multiple of {HYPOTHESIS_SECTORS} from "
                         f"{2 * HYPOTHESIS_SECTORS}, got {rays}")
    if bgr.dtype != np.uint8 or not (bgr.ndim == 2 or (bgr.ndim == 3 and bgr.shape[2] in (1, 3))):
        raise ValueError(f"bgr must be (H, W, 3) or (H, W) uint8, got {bgr.shape} {bgr.dtype}")
    n = len(xy0)
    if n == 0:
        return Refined.empty()
    u, basis, keep = _rays(rays)
    ok = np.isfinite(xy0).all(axis=1) & np.isfinite(r0) & (r0 >= 2.0)
    r_in = np.where(ok, r0, 10.0)
    c_in = np.where(ok[:, None], xy0, 0.0)

    # first look: a wide band around the detector's rim, from the detector's centre
    coef, inl = _first_look(bgr, c_in, r_in, u, basis, keep)
    passed = ok & _trusted(coef, inl, u, r_in)
    # Objects of a kind share one radius, but for perspective, which makes it an affine
    # function of the image position. Where a first fit strays from its peers' radius (a
    # detector's radius far off lets a printed number pass for the rim), look again
    # expecting the peers' radius.
    r_peer = np.full(n, np.nan)
    if passed.sum() >= MIN_PEERS:
        r_peer = _peer_radius(c_in, np.where(passed, coef[:, 0], r_in), passed)
    again = np.flatnonzero(ok & np.isfinite(r_peer) & (
        ~passed | (np.abs(coef[:, 0] / r_peer - 1) > PEER_TOLERANCE)))
    if len(again):
        coef[again], inl[again] = _first_look(bgr, c_in[again], r_peer[again], u, basis, keep)
        passed[again] = _trusted(coef[again], inl[again], u, r_in[again])
    ok &= passed

    # second look, for the objects that passed: a narrow band around the fitted rim, from
    # the fitted centre, starting from the first fit moved there
    idx = np.flatnonzero(ok)
    if len(idx) == 0:
        return Refined(xy_px=xy0.copy(), radius_px=r0.copy(), ok=ok, rms_px=np.full(n, np.nan))
    c1, r1 = c_in[idx] + coef[idx, 1:3], coef[idx, 0]
    half = np.maximum(SECOND_HALF_BAND[0] * r1, SECOND_HALF_BAND[1])
    width = np.maximum(SECOND_PRIOR_WIDTH[0] * r1, SECOND_PRIOR_WIDTH[1])
    expect = np.where(np.isfinite(r_peer[idx]), r_peer[idx], r1)
    t, valid = _edges(bgr, c1, u, r1 - half, 2 * half, expect, width)
    start = coef[idx] * [1, 0, 0, 1, 1]
    coef2, inl, rms = _fit(t, valid, basis, None, start)
    coef2[:, 1:3] += c1 - c_in[idx]
    ok[idx] = _trusted(coef2, inl, u, r_in[idx])

    done = ok[idx]
    xy_out, r_out, rms_out = xy0.copy(), r0.copy(), np.full(n, np.nan)
    xy_out[idx[done]] = c_in[idx[done]] + coef2[done, 1:3]
    r_out[idx[done]] = coef2[done, 0]
    rms_out[idx[done]] = rms[done]
    return Refined(xy_px=xy_out, radius_px=r_out, ok=ok, rms_px=rms_out)


def _first_look(
    img: np.ndarray, c: np.ndarray, r: np.ndarray, u: np.ndarray, basis: np.ndarray,
    keep: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Edges over the wide band around radius ``r`` (N,) from ``c`` (N, 2), robustly fitted."""
    lo, hi = FIRST_BAND
    t, valid = _edges(img, c, u, lo * r, (hi - lo) * r, r, FIRST_PRIOR_WIDTH * r)
    coef, inl, _ = _fit(t, valid, basis, keep)
    return coef, inl


def _peer_radius(xy: np.ndarray, r: np.ndarray, trusted: np.ndarray) -> np.ndarray:
    """Each object's radius (N,) as told by its peers: the trusted objects of about its
    radius (within ``PEER_SIMILARITY``), fitted with ``r = a + b x + c y`` (perspective),
    the slopes held small by a ridge and far-off peers dropped once; nan where there are
    fewer than ``MIN_PEERS``."""
    ratio = r[None, :] / r[:, None]  # (N, N): peer j seen from object i
    w = (trusted[None, :] & (np.abs(ratio - 1) <= PEER_SIMILARITY)).astype(float)
    scale = max(float(np.ptp(xy)), 1.0)
    f = np.column_stack([np.ones(len(r)), (xy - xy.mean(axis=0)) / scale])  # (N, 3)
    outer = (f[:, :, None] * f[:, None, :]).reshape(len(r), 9)
    ridge = np.diag([1e-9, PEER_SLOPE_RIDGE, PEER_SLOPE_RIDGE])
    for _ in range(2):
        rhs = ((w * r) @ f)[..., None]
        coef = np.linalg.solve((w @ outer).reshape(-1, 3, 3) + ridge, rhs)[..., 0]
        fit = np.maximum(coef @ f.T, 1e-9)  # (N, N): object i's model at peer j
        w = w * (np.abs(r[None, :] / fit - 1) <= PEER_TOLERANCE)
    own = (coef * f).sum(axis=1)
    return np.where(w.sum(axis=1) >= MIN_PEERS, own, np.nan)


def _edges(
    img: np.ndarray,
    c: np.ndarray,
    u: np.ndarray,
    start: np.ndarray,
    span: np.ndarray,
    expect: np.ndarray,
    width: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The rim edge on every ray: its distance from ``c`` (N, K) and whether it counts.

    Ray k of object i is sampled from ``start[i]`` for ``span[i]`` px (one remap for
    all objects); samples past an object's own span are not searched. The edge is the
    derivative peak of best score: strength, times a Gaussian of ``width`` px (N,) around
    ``expect`` px (N,), times the two tests of leading out of the object.
    """
    n, k = len(c), len(u)
    step = 1.0 / SAMPLES_PER_PX
    pad = int(np.ceil(2.5 * EDGE_SIGMA_PX / step))
    m = int(np.ceil(span.max() / step)) + 1 + 2 * pad
    s = ((np.arange(m) - pad) * step).astype(np.float32)  # (M,) offset from each start
    t = start.astype(np.float32)[:, None] + s  # (N, M) distance from the centre
    u32, c32 = u.astype(np.float32), c.astype(np.float32)
    mx = u32[None, :, 0, None] * t[:, None, :]
    mx += c32[:, 0, None, None]
    my = u32[None, :, 1, None] * t[:, None, :]
    my += c32[:, 1, None, None]
    fixed, frac = cv2.convertMaps(mx.reshape(n * k, m), my.reshape(n * k, m), cv2.CV_16SC2)
    prof = cv2.remap(img, fixed, frac, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    pf = prof.astype(np.float32)  # (NK, M) or (NK, M, C); arrays below are (NK, M)

    # derivative of Gaussian along the rays (a correlation kernel, levels per pixel);
    # the edge strength is the norm of the colour derivative, in luma and chroma
    x = np.arange(-pad, pad + 1) * step
    g = np.exp(-0.5 * (x / EDGE_SIGMA_PX) ** 2)
    dg = (x * g / (g * x * x).sum()).astype(np.float32)[None, :]
    grad = cv2.filter2D(pf, cv2.CV_32F, dg, borderType=cv2.BORDER_REPLICATE)
    if grad.ndim == 3 and grad.shape[2] == 3:
        grad = cv2.transform(grad, _LUMA_CHROMA)
    mag = cv2.sqrt(_channel_sum(cv2.multiply(grad, grad)))

    # how much each sample looks like the object's surroundings: the median colour at
    # the far end of its rays (most rays end on the cloth or board, not on a neighbour).
    # |p - b|^2 = |p|^2 - 2 p.b + |b|^2: numpy is slow to broadcast over a short last axis
    end = np.minimum(pad + np.round(span / step).astype(int), m - 1)  # (N,)
    far = prof.reshape(n, k, m, -1)[np.arange(n), :, end]  # (N, K, C)
    bg = np.sort(far, axis=1)[:, k // 2].astype(np.float32)  # (N, C)
    nc = bg.shape[1]
    d2 = (
        _channel_sum(cv2.multiply(pf, pf)).reshape(n, k * m)
        - 2 * (pf.reshape(n, k * m, nc) @ bg[:, :, None])[..., 0]
        + (bg * bg).sum(axis=1, keepdims=True)
    )
    like = np.exp(np.maximum(d2, 0).reshape(n * k, m) * np.float32(-0.5 / BACKGROUND_TOLERANCE**2))
    # inside a cluster the far ends fall on the neighbours and the median is no colour
    # of the surroundings; there the two tests are left out
    agree = (like.reshape(n, k, m)[np.arange(n), :, end] >= np.exp(-2.0)).mean(axis=1)
    floor = np.where(agree >= BACKGROUND_AGREEMENT, BACKGROUND_FLOOR, 1.0)
    f = np.repeat(floor, k)[:, None].astype(np.float32)  # (NK, 1)

    # score the derivative's peaks inside each band
    z = (t - expect[:, None]) / width[:, None]
    prior = np.where((s >= 0) & (s <= span[:, None]), np.exp(-0.5 * z * z), 0.0)
    score = (mag.reshape(n, k, m) * prior.astype(np.float32)[:, None, :]).reshape(n * k, m)
    score[:, 0] = score[:, -1] = 0
    score = np.where(mag >= cv2.dilate(mag, _ROW3), score, 0)  # peaks only
    b = int(round(BACKGROUND_PX / step))
    score[:, : m - b] *= f + (1 - f) * like[:, b:]
    score[:, b:] *= 1 - (1 - f) * like[:, : m - b]

    # the best peak, placed by a parabola through it and its neighbours
    i = score.argmax(axis=1)  # (NK,)
    flat = np.arange(n * k) * m + i
    best = score.ravel()[flat]
    y0, y1, y2 = (mag.ravel()[flat + d] for d in (-1, 0, 1))  # i is never first or last
    curv = y0 - 2 * y1 + y2
    peak = (best > 0) & (curv < 0)
    delta = np.where(peak, 0.5 * (y0 - y2) / np.where(peak, curv, -1.0), 0.0)
    t_edge = (t.ravel()[np.arange(n * k) // k * m + i] + delta * step).reshape(n, k)

    # an edge counts where it is clear and its whole ray lies inside the image
    h, w = img.shape[:2]
    lim = pad * step + 1.0
    ex, ey = mx[..., (0, -1)], my[..., (0, -1)]
    inside = ((ex >= lim) & (ex <= w - 1 - lim) & (ey >= lim) & (ey <= h - 1 - lim)).all(axis=2)
    peak, y1 = peak.reshape(n, k), y1.reshape(n, k)
    ref = _masked_median(y1, inside & peak, 0.0)[:, None]
    valid = inside & peak & (y1 >= MIN_EDGE) & (y1 >= MIN_EDGE_SHARE * ref)
    return t_edge.astype(float), valid


def _channel_sum(a: np.ndarray) -> np.ndarray:
    """(R, M, C) float32 -> (R, M): the sum over channels (numpy is slow over a short
    last axis; cv2.transform is not)."""
    if a.ndim == 2:
        return a
    return cv2.transform(a, np.ones((1, a.shape[-1]), np.float32))


@cache
def _rays(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For ``k`` rays (read-only, made once per ``k``): their directions (K, 2), the
    Fourier basis of the fit (K, 5) and the fit's ray masks (H, K): all rays, then each
    sector of the circle left out, then each two and each three neighbouring sectors."""
    ang = 2 * np.pi * (np.arange(k) + 0.5) / k
    u = np.column_stack([np.cos(ang), np.sin(ang)])
    basis = np.column_stack([np.ones(k), u, np.cos(2 * ang), np.sin(2 * ang)])
    sector = np.arange(k) * HYPOTHESIS_SECTORS // k
    one = sector[None, :] != np.arange(HYPOTHESIS_SECTORS)[:, None]
    two = one & np.roll(one, 1, axis=0)
    three = two & np.roll(one, 2, axis=0)
    keep = np.concatenate([np.ones((1, k), bool), one, two, three])
    for a in (u, basis, keep):
        a.flags.writeable = False
    return u, basis, keep


def _fit(
    t: np.ndarray, valid: np.ndarray, basis: np.ndarray, keep: np.ndarray | None,
    start: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Robust fit of the rim's distance ``t`` (N, K) along each ray as a short Fourier
    series in the ray angle θ: ``t = R + cx cos θ + cy sin θ + a cos 2θ + b sin 2θ``.

    Seen from an origin off a circle's centre by ``c``, the distance to the circle along
    a ray is ``c . u + sqrt(R² - (c x u)²)``, whose second term has period π: the first
    harmonic is the centre exactly, so the fit is linear yet unbiased. The second
    harmonic takes up most of the rest, and of a disc's slightly oblong outline.

    With ray masks ``keep`` (H, K), each mask's fit competes and the one with the least
    capped squared residual over all rays wins; otherwise ``start`` (N, 5) is the first
    fit. Then rays far off it are dropped and it is refitted. Returns the coefficients
    (N, 5) ``R, cx, cy, a, b`` (centre relative to the rays' origin), the rays kept
    (N, K) and the RMS residual of those (N,).
    """
    n, k = t.shape
    nb = basis.shape[1]
    outer = (basis[:, :, None] * basis[:, None, :]).reshape(k, nb * nb)
    ridge = np.diag([1e-6, 1e-6, 1e-6, HARMONIC_RIDGE, HARMONIC_RIDGE])

    def solve(w: np.ndarray) -> np.ndarray:  # weights (N, H, K) -> coefficients (N, H, 5)
        ata = (w @ outer).reshape(*w.shape[:2], nb, nb) + ridge
        atb = (w * t[:, None, :]) @ basis
        return np.linalg.solve(ata, atb[..., None])[..., 0]

    if keep is None:
        if start is None:
            raise ValueError("a fit without ray masks needs a start")
        coef = start
    else:
        coef = solve((valid[:, None, :] & keep).astype(float))  # (N, H, 5)
        res = t[:, None, :] - coef @ basis.T  # (N, H, K)
        cost = (np.minimum(res * res, CONSENSUS_PX**2) * valid[:, None, :]).sum(axis=2)
        coef = coef[np.arange(n), cost.argmin(axis=1)]
    inl = valid
    for _ in range(REFIT_STEPS):
        res = t - coef @ basis.T
        sig = np.maximum(1.4826 * _masked_median(np.abs(res), valid, 0.0), SIGMA_FLOOR_PX)
        inl = valid & (np.abs(res) <= REJECT_SIGMAS * sig[:, None])
        coef = solve(inl[:, None, :].astype(float))[:, 0]
    res = (t - coef @ basis.T) * inl
    rms = np.sqrt((res * res).sum(axis=1) / np.maximum(inl.sum(axis=1), 1))
    return coef, inl, rms


def _masked_median(x: np.ndarray, mask: np.ndarray, default: float) -> np.ndarray:
    """Row medians of ``x`` (N, K) over ``mask`` (the upper middle for even counts),
    ``default`` for empty rows; np.nanmedian is several times slower."""
    cnt = mask.sum(axis=1)
    xs = np.sort(np.where(mask, x, np.inf), axis=1)
    mid = np.take_along_axis(xs, (cnt // 2)[:, None], axis=1)[:, 0]
    return np.where(cnt > 0, mid, default)


def _trusted(coef: np.ndarray, inl: np.ndarray, u: np.ndarray, r_expect: np.ndarray) -> np.ndarray:
    """Whether fits are believable: enough rays agree, from all round, and the circle
    is near the detector's."""
    cnt = inl.sum(axis=1)
    bias = np.linalg.norm(inl @ u, axis=1) / np.maximum(cnt, 1)
    ratio = coef[:, 0] / r_expect
    return (
        np.isfinite(coef).all(axis=1)
        & (cnt >= MIN_INLIER_SHARE * len(u))
        & (bias <= MAX_DIRECTION_BIAS)
        & (ratio >= RADIUS_RATIO[0])
        & (ratio <= RADIUS_RATIO[1])
        & (np.hypot(coef[:, 1], coef[:, 2]) <= MAX_SHIFT * r_expect)
    )
