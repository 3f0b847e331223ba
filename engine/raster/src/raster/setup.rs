//! Triangle setup, apart from span filling (as in Quake's renderer): snap the projected vertices to a
//! sub-pixel grid, build exact integer edge functions with the top-left fill rule, cull back faces, and
//! compute the screen-space gradients of everything the span filler interpolates.
//!
//! Exactness: vertices snap to 1/256 pixel, edge functions are evaluated in `i64` and span ends come
//! from exact integer floor/ceil divisions, so a pixel centre on an edge shared by two triangles
//! belongs to exactly one of them. Clipping keeps coordinates within the guard band (about ±2^21 in
//! fixed point), so products stay below 2^44, far from overflow.

use super::clip::ClipVertex;

/// Largest texture coordinate or light value (in either sign) an affine triangle may have at a
/// corner: half the span filler's fixed-point range, leaving room for rounding at pixel centres.
const AFFINE_LIMIT: f32 = (1u32 << 13) as f32;

/// Sub-pixel precision of snapped vertices: 8 bits (1/256 pixel).
pub const SUBPIXEL_BITS: u32 = 8;
const ONE: i64 = 1 << SUBPIXEL_BITS;
const HALF: i64 = ONE / 2;
/// Anything beyond this (in fixed point) cannot come out of the clipper; refuse it defensively.
/// Pixel coordinates beyond this cannot come out of the clipper (its guard band is a few thousand
/// pixels); refusing them keeps snapped values below 2^29 and edge deltas within `i32`.
const COORD_LIMIT: f32 = (1u32 << 21) as f32;

/// Which faces are drawn. Front faces are counter-clockwise as seen by the camera: the [`modex_mdl::Model`]
/// convention, into which the decoders turn every file's ([`modex_mdl::facing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cull {
    /// Draw front faces only (the default).
    #[default]
    Back,
    /// Draw back faces only.
    Front,
    /// Draw both.
    None,
}

impl Cull {
    /// Whether a triangle of twice the signed area `area` (`TriSetup::twice_area`) is drawn (a
    /// degenerate one never is).
    #[inline(always)]
    pub fn draws(self, area: i64) -> bool {
        match self {
            Cull::Back => area < 0,
            Cull::Front => area > 0,
            Cull::None => area != 0,
        }
    }
}

/// Values interpolated across a triangle, each divided by clip-space w so that screen-space linear
/// interpolation is perspective-correct.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Attrs {
    pub inv_w: f32,
    pub depth_w: f32,
    pub u_w: f32,
    pub v_w: f32,
    pub light_w: f32,
}

impl Attrs {
    fn from_array(a: [f64; 5]) -> Attrs {
        Attrs {
            inv_w: a[0] as f32,
            depth_w: a[1] as f32,
            u_w: a[2] as f32,
            v_w: a[3] as f32,
            light_w: a[4] as f32,
        }
    }
}

/// One edge function `E(P) = dx * (Py - y0) - dy * (Px - x0)`, positive inside.
///
/// Stored in `i32` (snapped coordinates stay below 2^29, see [`COORD_LIMIT`]) and widened to `i64`
/// for the products: a set-up triangle is copied into bins and read back per band, and halving the
/// edges took a quarter off its size.
#[derive(Debug, Clone, Copy)]
struct Edge {
    x0: i32,
    y0: i32,
    dx: i32,
    dy: i32,
    /// 0 on top and left edges (a centre exactly on them is inside), 1 elsewhere.
    bias: i32,
}

/// An edge's numbers widened for exact products: (x0, y0, dx, dy, bias).
#[inline(always)]
fn wide(e: &Edge) -> (i64, i64, i64, i64, i64) {
    (
        e.x0 as i64,
        e.y0 as i64,
        e.dx as i64,
        e.dy as i64,
        e.bias as i64,
    )
}

/// A triangle ready for span filling.
#[derive(Debug, Clone, Copy)]
pub struct TriSetup {
    edges: [Edge; 3],
    /// First and last pixel rows whose centres may be covered (inclusive, not yet clamped).
    pub y_first: i32,
    pub y_last: i32,
    /// Vertex 0 in pixels: the reference point of the attribute planes.
    ox: f32,
    oy: f32,
    a0: Attrs,
    pub dadx: Attrs,
    dady: Attrs,
    /// The attribute planes hold the values themselves, not values divided by w (`inv_w` is 1):
    /// spans need no division.
    pub affine: bool,
}

/// One sloped edge's crossing of the current row, `x0 + floor(num / den)` kept as quotient `q`
/// and remainder `r` (`0 <= r < den`) and advanced by `step / den` per row (`qs`, `rs`), exactly,
/// as a Bresenham line does.
#[derive(Debug, Clone, Copy)]
struct EdgeStep {
    x0: i64,
    q: i64,
    r: i64,
    den: i64,
    qs: i64,
    rs: i64,
}

impl EdgeStep {
    /// An edge that bounds nothing: its crossing stays at `x0` (`den` 1, no step).
    const fn fixed(x0: i64) -> EdgeStep {
        EdgeStep {
            x0,
            q: 0,
            r: 0,
            den: 1,
            qs: 0,
            rs: 0,
        }
    }

    /// The first column whose centre is inside, for an edge whose E grows with x:
    /// `Px >= x0 + ceil(-num / den) = x0 - floor(num / den)`.
    #[inline(always)]
    fn first_column(&self) -> i64 {
        ceil_px(self.x0 - self.q - HALF)
    }

    /// The last column whose centre is inside, for an edge whose E falls with x.
    #[inline(always)]
    fn last_column(&self) -> i64 {
        floor_px(self.x0 + self.q - HALF)
    }

    /// Move to the next row.
    ///
    /// The carry is arithmetic (a sign mask), not an `if`: the `if` compiled to a conditional
    /// move in the 8888 fill but to a branch in the 565 one (LLVM's cmov-to-branch choice
    /// differs per monomorphisation), which mispredicted ~37 000 times a frame and made 565
    /// mesh10k slower than 8888 with fewer instructions (docs/benchmarks-history.md, round 7).
    /// `std::hint::select_unpredictable` did the same in fewer instructions but needs Rust 1.88,
    /// above the workspace's MSRV.
    #[inline(always)]
    fn advance(&mut self) {
        self.q += self.qs;
        self.r += self.rs;
        // All ones when r >= den (0 <= r < 2 den here, so den - 1 - r cannot overflow).
        let carry = (self.den - 1 - self.r) >> 63;
        self.q -= carry;
        self.r -= self.den & carry;
    }
}

/// The spans of a triangle row after row, from [`TriSetup::walk`].
///
/// A triangle's sloped edges are sorted once, at the walk's start, into those bounding the
/// span's first column and those bounding its last (two slots each; an empty slot bounds
/// nothing), and its horizontal edge (at most one) is a row test: each row then steps all five
/// with the same branch-free code. Matching each edge's kind on every row, as the walk did
/// before, was a seventh of the small-triangle mesh's time (docs/benchmarks-history.md, round 5).
#[derive(Debug, Clone, Copy)]
pub struct SpanWalk {
    left: [EdgeStep; 2],
    right: [EdgeStep; 2],
    /// The horizontal edge's E - bias on the current row (inside when `>= 0`) and its step per
    /// row; 0 and 0 when there is none.
    flat: i64,
    flat_step: i64,
    /// The frame's last column.
    last: i64,
}

impl SpanWalk {
    /// The current row's inclusive column range clamped to the frame (`None` if empty), then move to
    /// the next row.
    #[inline(always)]
    pub fn next_row(&mut self) -> Option<(i32, i32)> {
        let [l0, l1] = &mut self.left;
        let [r0, r1] = &mut self.right;
        // Clamped to the frame (an empty slot is already at its first or last column).
        let lo = l0.first_column().max(l1.first_column()).max(0);
        let hi = r0.last_column().min(r1.last_column()).min(self.last);
        let inside = self.flat >= 0;
        l0.advance();
        l1.advance();
        r0.advance();
        r1.advance();
        self.flat += self.flat_step;
        (inside && lo <= hi).then_some((lo as i32, hi as i32))
    }
}

/// `floor(a / b)` for `b > 0`, exactly. The hardware 64-bit integer divide is the slowest
/// instruction in the setup; a float divide gets within one of the answer (|a| < 2^52 here) and
/// two integer compares make it exact.
#[inline]
fn floor_div(a: i64, b: i64) -> i64 {
    debug_assert!(b > 0);
    let mut q = (a as f64 / b as f64) as i64;
    while q * b > a {
        q -= 1;
    }
    while (q + 1) * b <= a {
        q += 1;
    }
    q
}

/// `ceil(a / b)` for `b > 0`, exactly (for `TriSetup::span`, the tests' reference).
#[cfg(test)]
fn ceil_div(a: i64, b: i64) -> i64 {
    -floor_div(-a, b)
}

/// `floor(a / ONE)` (arithmetic shift floors negative values too).
#[inline]
fn floor_px(a: i64) -> i64 {
    a >> SUBPIXEL_BITS
}

/// `ceil(a / ONE)`.
#[inline]
fn ceil_px(a: i64) -> i64 {
    -((-a) >> SUBPIXEL_BITS)
}

/// Snap a pixel coordinate to the sub-pixel grid (round half up without a libm call).
#[inline]
fn snap(p: f32) -> i64 {
    const BIAS: f64 = (1u64 << 40) as f64;
    ((p as f64 * ONE as f64 + BIAS + 0.5) as i64) - BIAS as i64
}

/// A vertex projected to the viewport and snapped to the sub-pixel grid.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Projected {
    /// Snapped pixel coordinates (1/256 pixel; below 2^29 in magnitude).
    pub x: i32,
    pub y: i32,
    /// 1 / clip-space w.
    pub inv_w: f32,
}

impl Projected {
    /// Project `v` to a `width` x `height` viewport, or `None` when it lands beyond the fixed
    /// point's range (which the clipper's guard band prevents) or w is not usable.
    #[inline(always)]
    pub fn of(v: &ClipVertex, width: usize, height: usize) -> Option<Projected> {
        let (w, h) = (width as f32, height as f32);
        let inv_w = 1.0 / v.clip.w;
        let sx = (v.clip.x * inv_w + 1.0) * 0.5 * w;
        let sy = (1.0 - v.clip.y * inv_w) * 0.5 * h;
        if !(sx.abs() < COORD_LIMIT && sy.abs() < COORD_LIMIT && inv_w.is_finite()) {
            return None;
        }
        Some(Projected {
            x: snap(sx) as i32,
            y: snap(sy) as i32,
            inv_w,
        })
    }
}

impl TriSetup {
    /// Project a clipped triangle to a `width` x `height` viewport and set it up, or `None` if it is
    /// culled, degenerate, or covers no pixel row of the viewport.
    pub fn new(tri: [&ClipVertex; 3], width: usize, height: usize, cull: Cull) -> Option<TriSetup> {
        let mut xs = [0i64; 3];
        let mut ys = [0i64; 3];
        let mut inv_ws = [0f32; 3];
        for (k, v) in tri.iter().enumerate() {
            let p = Projected::of(v, width, height)?;
            (xs[k], ys[k], inv_ws[k]) = (p.x as i64, p.y as i64, p.inv_w);
        }
        Self::from_projected(tri, [xs, ys], inv_ws, width, height, cull)
    }

    /// Twice the signed area of snapped corners `xs`, `ys` in fixed point; negative =
    /// counter-clockwise on screen (y down) = front face.
    #[inline(always)]
    pub fn twice_area(xs: [i64; 3], ys: [i64; 3]) -> i64 {
        (xs[1] - xs[0]) * (ys[2] - ys[0]) - (xs[2] - xs[0]) * (ys[1] - ys[0])
    }

    /// [`TriSetup::new`] for a triangle whose corners are already projected (`Projected::of` of
    /// each of `tri`, in the same order): the vertex stage projects each model vertex once, where
    /// the triangle stage projected it once per triangle using it (about six in a closed mesh).
    /// Inlined into both callers: as a call of its own it cost small-triangle scenes 3 %.
    #[inline(always)]
    pub fn from_projected(
        tri: [&ClipVertex; 3],
        [xs, ys]: [[i64; 3]; 2],
        inv_ws: [f32; 3],
        width: usize,
        height: usize,
        cull: Cull,
    ) -> Option<TriSetup> {
        let area = TriSetup::twice_area(xs, ys);
        if !cull.draws(area) {
            return None;
        }
        // Order the vertices so that the area is positive and every edge function is positive
        // inside.
        let order = if area < 0 { [0, 2, 1] } else { [0, 1, 2] };
        // Indexed by hand: `array::map` over a closure was not inlined here (perf: a tenth of the
        // setup went to its calls and copies).
        let [o0, o1, o2] = order;
        let xs = [xs[o0], xs[o1], xs[o2]];
        let ys = [ys[o0], ys[o1], ys[o2]];
        let area = area.abs();

        let ymin = ys[0].min(ys[1]).min(ys[2]);
        let ymax = ys[0].max(ys[1]).max(ys[2]);
        let y_first = ceil_px(ymin - HALF).max(0);
        let y_last = floor_px(ymax - HALF).min(height as i64 - 1);
        if y_first > y_last {
            return None;
        }
        let xmin = xs[0].min(xs[1]).min(xs[2]);
        let xmax = xs[0].max(xs[1]).max(xs[2]);
        if ceil_px(xmin - HALF) > width as i64 - 1 || floor_px(xmax - HALF) < 0 {
            return None;
        }

        // The interpolated values per vertex (in the positive-area order), culled triangles never
        // get here.
        let inv_ws = [inv_ws[o0], inv_ws[o1], inv_ws[o2]];
        let r = |v: &ClipVertex| [1.0, v.depth, v.u, v.v, v.light];
        let raw = [r(tri[o0]), r(tri[o1]), r(tri[o2])];
        // Affine when perspective would change nothing visible: interpolating a value linearly in
        // screen space instead of through 1/w is off by at most about (relative spread of w) / 4
        // times the value's range across the triangle. Below an eighth of a texel (and of a light
        // step) the triangle is drawn affine, which saves the span filler both of its divisions per
        // span: most of a small triangle's fill time. Orthographic cameras (w = 1) are always affine.
        let (lo, hi) = (
            inv_ws[0].min(inv_ws[1]).min(inv_ws[2]),
            inv_ws[0].max(inv_ws[1]).max(inv_ws[2]),
        );
        let range = |i: usize| {
            raw[0][i].max(raw[1][i]).max(raw[2][i]) - raw[0][i].min(raw[1][i]).min(raw[2][i])
        };
        let spread = (hi - lo) / lo;
        // An affine triangle's spans also skip the fixed-point range checks: every pixel centre
        // inside it interpolates between its corners, so corners well inside the range are enough.
        let fits =
            |i: usize| raw[0][i].abs().max(raw[1][i].abs()).max(raw[2][i].abs()) < AFFINE_LIMIT;
        let affine = spread * range(2).max(range(3)).max(range(4) / 8.0).max(1.0) < 0.5
            && fits(2)
            && fits(3)
            && fits(4);
        let attrs = if affine {
            raw
        } else {
            let div =
                |r: &[f32; 5], iw: f32| [r[0] * iw, r[1] * iw, r[2] * iw, r[3] * iw, r[4] * iw];
            [
                div(&raw[0], inv_ws[0]),
                div(&raw[1], inv_ws[1]),
                div(&raw[2], inv_ws[2]),
            ]
        };
        let edge = |i: usize, j: usize| {
            let dx = xs[j] - xs[i];
            let dy = ys[j] - ys[i];
            let top_left = dy < 0 || (dy == 0 && dx > 0);
            Edge {
                x0: xs[i] as i32,
                y0: ys[i] as i32,
                dx: dx as i32,
                dy: dy as i32,
                bias: if top_left { 0 } else { 1 },
            }
        };

        // Attribute planes from the snapped positions (f64 for the solve, f32 for the spans).
        let f = |v: i64| v as f64 / ONE as f64;
        let (x0, y0) = (f(xs[0]), f(ys[0]));
        let (e1x, e1y) = (f(xs[1]) - x0, f(ys[1]) - y0);
        let (e2x, e2y) = (f(xs[2]) - x0, f(ys[2]) - y0);
        let inv_det = (ONE * ONE) as f64 / area as f64;
        let mut dadx = [0f64; 5];
        let mut dady = [0f64; 5];
        for k in 0..5 {
            let a0 = attrs[0][k] as f64;
            let d1 = attrs[1][k] as f64 - a0;
            let d2 = attrs[2][k] as f64 - a0;
            dadx[k] = (d1 * e2y - d2 * e1y) * inv_det;
            dady[k] = (d2 * e1x - d1 * e2x) * inv_det;
        }
        Some(TriSetup {
            edges: [edge(0, 1), edge(1, 2), edge(2, 0)],
            y_first: y_first as i32,
            y_last: y_last as i32,
            ox: x0 as f32,
            oy: y0 as f32,
            a0: Attrs {
                inv_w: attrs[0][0],
                depth_w: attrs[0][1],
                u_w: attrs[0][2],
                v_w: attrs[0][3],
                light_w: attrs[0][4],
            },
            dadx: Attrs::from_array(dadx),
            dady: Attrs::from_array(dady),
            affine,
        })
    }

    /// The inclusive range of pixel columns on row `y` whose centres the triangle covers, clamped to
    /// `0..width`; `None` if there are none. Divides anew on every row: the filler walks rows with
    /// [`TriSetup::walk`] instead, and the tests hold the walk to this.
    #[cfg(test)]
    fn span(&self, y: i32, width: usize) -> Option<(i32, i32)> {
        let py = y as i64 * ONE + HALF;
        let mut lo: i64 = 0;
        let mut hi: i64 = width as i64 - 1;
        for e in &self.edges {
            let (x0, y0, dx, dy, bias) = wide(e);
            let c = dx * (py - y0);
            if dy < 0 {
                // E grows with x: Px >= x0 + ceil((bias - c) / -dy).
                let t = x0 + ceil_div(bias - c, -dy);
                lo = lo.max(ceil_px(t - HALF));
            } else if dy > 0 {
                // E falls with x: Px <= x0 + floor((c - bias) / dy).
                let t = x0 + floor_div(c - bias, dy);
                hi = hi.min(floor_px(t - HALF));
            } else if c < bias {
                return None;
            }
        }
        (lo <= hi).then_some((lo as i32, hi as i32))
    }

    /// Walk the spans of rows `y..` one row at a time: the same columns as `TriSetup::span` (the
    /// tests' reference), but each edge's crossing is stepped exactly in integers (quotient and
    /// remainder, as a Bresenham line does) instead of divided anew on every row: three divisions
    /// per triangle and band rather than per row, which was a fifth of the time of small-triangle
    /// scenes.
    #[inline]
    pub fn walk(&self, y: i32, width: usize) -> SpanWalk {
        let py = y as i64 * ONE + HALF;
        // Empty slots: the frame's first column on the left, its last on the right.
        let mut walk = SpanWalk {
            left: [EdgeStep::fixed(0); 2],
            right: [EdgeStep::fixed(width as i64 * ONE + HALF - ONE); 2],
            flat: 0,
            flat_step: 0,
            last: width as i64 - 1,
        };
        let (mut nl, mut nr) = (0, 0);
        for e in &self.edges {
            let (x0, y0, dx, dy, bias) = wide(e);
            let num = dx * (py - y0) - bias;
            let step = dx * ONE;
            if dy == 0 {
                // Horizontal: inside on rows where E = num + bias >= bias, i.e. num >= 0.
                walk.flat = num;
                walk.flat_step = step;
                continue;
            }
            let den = dy.abs();
            let q = floor_div(num, den);
            let qs = floor_div(step, den);
            let edge = EdgeStep {
                x0,
                q,
                r: num - q * den,
                den,
                qs,
                rs: step - qs * den,
            };
            // A non-degenerate triangle has at most two edges on either side.
            if dy < 0 && nl < 2 {
                walk.left[nl] = edge;
                nl += 1;
            } else if dy > 0 && nr < 2 {
                walk.right[nr] = edge;
                nr += 1;
            }
        }
        walk
    }

    /// ρ² at the centre of pixel (x, y): the squared length of the longer of the texture
    /// coordinates' steps per pixel in x and in y (GL's scale factor for choosing a mip level).
    /// Constant over affine triangles; for perspective ones the derivative of `u = (u/w) / (1/w)`.
    #[inline]
    pub fn footprint_sq(&self, x: i32, y: i32) -> f32 {
        self.footprint_sq_of(&self.attrs_at(x, y))
    }

    /// ρ² at the triangle's first vertex (its attribute planes' reference point), the footprint
    /// of the triangle as a whole where one level serves all its pixels.
    #[inline]
    pub fn corner_footprint_sq(&self) -> f32 {
        self.footprint_sq_of(&self.a0)
    }

    #[inline(always)]
    fn footprint_sq_of(&self, a: &Attrs) -> f32 {
        let (gx, gy) = (&self.dadx, &self.dady);
        let (ux, vx, uy, vy) = if self.affine {
            (gx.u_w, gx.v_w, gy.u_w, gy.v_w)
        } else {
            let w = 1.0 / a.inv_w;
            let (u, v) = (a.u_w * w, a.v_w * w);
            (
                (gx.u_w - u * gx.inv_w) * w,
                (gx.v_w - v * gx.inv_w) * w,
                (gy.u_w - u * gy.inv_w) * w,
                (gy.v_w - v * gy.inv_w) * w,
            )
        };
        (ux * ux + vx * vx).max(uy * uy + vy * vy)
    }

    /// The interpolated values at the centre of pixel (x, y).
    #[inline]
    pub fn attrs_at(&self, x: i32, y: i32) -> Attrs {
        let dx = x as f32 + 0.5 - self.ox;
        let dy = y as f32 + 0.5 - self.oy;
        let (a, gx, gy) = (&self.a0, &self.dadx, &self.dady);
        Attrs {
            inv_w: a.inv_w + gx.inv_w * dx + gy.inv_w * dy,
            depth_w: a.depth_w + gx.depth_w * dx + gy.depth_w * dy,
            u_w: a.u_w + gx.u_w * dx + gy.u_w * dy,
            v_w: a.v_w + gx.v_w * dx + gy.v_w * dy,
            light_w: a.light_w + gx.light_w * dx + gy.light_w * dy,
        }
    }
}

/// Pseudo-random floats in `[0, 1)`, 24 bits each (xorshift64 from `seed`): the random
/// triangles of this module's and span.rs's tests.
#[cfg(test)]
pub(crate) fn xorshift_unit(seed: u64) -> impl FnMut() -> f32 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    /// A vertex at pixel (x, y) of a 2x2-unit orthographic viewport of `size` pixels.
    fn px(x: f32, y: f32, size: f32) -> ClipVertex {
        ClipVertex {
            clip: Vec4::new(x / size * 2.0 - 1.0, 1.0 - y / size * 2.0, 0.5, 1.0),
            depth: 1.0,
            ..Default::default()
        }
    }

    #[test]
    fn divisions_are_exact() {
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = (x as i64) >> 16; // up to 2^47 either sign
            let b = ((x >> 40) as i64 & 0xff_ffff) + 1;
            assert_eq!(floor_div(a, b), a.div_euclid(b), "{a} / {b}");
            assert_eq!(ceil_div(a, b), -(-a).div_euclid(b), "{a} / {b}");
            assert_eq!(floor_px(a), a.div_euclid(ONE));
            assert_eq!(ceil_px(a), -(-a).div_euclid(ONE));
        }
        for (a, b) in [
            (0, 1),
            (-1, 1),
            (255, 256),
            (-255, 256),
            (1 << 47, 3),
            (-(1 << 47), 7),
        ] {
            assert_eq!(floor_div(a, b), a.div_euclid(b));
        }
    }

    #[test]
    fn snapping_rounds_to_the_grid() {
        assert_eq!(snap(0.0), 0);
        assert_eq!(snap(1.0), 256);
        assert_eq!(snap(-1.0), -256);
        assert_eq!(snap(0.5 / 256.0), 1);
        assert_eq!(snap(-0.25 / 256.0), 0);
    }

    #[test]
    fn pixel_centre_on_an_edge_goes_to_one_side() {
        // Two triangles splitting a 4x4 square along the diagonal through pixel centres.
        let s = 4.0;
        let (a, b, c, d) = (px(0., 0., s), px(4., 0., s), px(4., 4., s), px(0., 4., s));
        let mut count = [[0u8; 4]; 4];
        for tri in [[&a, &d, &c], [&a, &c, &b]] {
            let t = TriSetup::new(tri, 4, 4, Cull::None).unwrap();
            for y in t.y_first..=t.y_last {
                if let Some((x0, x1)) = t.span(y, 4) {
                    for x in x0..=x1 {
                        count[y as usize][x as usize] += 1;
                    }
                }
            }
        }
        assert_eq!(count, [[1; 4]; 4]);
    }

    /// Pseudo-random floats from `-range / 4` to `3 range / 4` (xorshift64 from `seed`).
    fn xorshift(seed: u64) -> impl FnMut(f32) -> f32 {
        let mut unit = xorshift_unit(seed);
        move |range: f32| unit() * range - range * 0.25
    }

    #[test]
    fn walked_spans_equal_divided_spans() {
        let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15);
        let s = 64.0;
        let mut tested = 0;
        for _ in 0..3000 {
            let big = rnd(1.0) > 0.5;
            let r = if big { 400.0 } else { 80.0 };
            let v = [
                px(rnd(r), rnd(r), s),
                px(rnd(r), rnd(r), s),
                px(rnd(r), rnd(r), s),
            ];
            let Some(t) = TriSetup::new([&v[0], &v[1], &v[2]], 64, 64, Cull::None) else {
                continue;
            };
            let mut walk = t.walk(t.y_first, 64);
            for y in t.y_first..=t.y_last {
                assert_eq!(walk.next_row(), t.span(y, 64), "row {y}");
            }
            tested += 1;
        }
        assert!(tested > 1000, "only {tested} triangles set up");
    }

    /// The triangle stage drops a projected triangle that `Cull::draws` refuses before working
    /// out its texture coordinates (`entity::TriangleStage::run_with`): that is exact only if
    /// the set-up would have refused every such triangle itself.
    #[test]
    fn a_culled_area_is_never_set_up() {
        let mut rnd = xorshift(0x2545_f491_4f6c_dd1d);
        let s = 64.0;
        let (mut culled, mut drawn) = (0, 0);
        for i in 0..6000 {
            // Some degenerate ones (a repeated corner), the rest random, small and large.
            let r = if i % 2 == 0 { 12.0 } else { 200.0 };
            let a = px(rnd(r), rnd(r), s);
            let b = if i % 50 == 0 {
                a
            } else {
                px(rnd(r), rnd(r), s)
            };
            let v = [a, b, px(rnd(r), rnd(r), s)];
            let p = v.map(|c| Projected::of(&c, 64, 64).expect("inside the fixed point"));
            let (xs, ys) = (p.map(|c| c.x as i64), p.map(|c| c.y as i64));
            let area = TriSetup::twice_area(xs, ys);
            for cull in [Cull::Back, Cull::Front, Cull::None] {
                let corners = [&v[0], &v[1], &v[2]];
                let set_up =
                    TriSetup::from_projected(corners, [xs, ys], p.map(|c| c.inv_w), 64, 64, cull);
                if cull.draws(area) {
                    drawn += 1;
                } else {
                    culled += 1;
                    assert!(
                        set_up.is_none(),
                        "{cull:?} set up a triangle of area {area}"
                    );
                    assert!(TriSetup::new(corners, 64, 64, cull).is_none());
                }
            }
        }
        assert!(
            culled > 5000 && drawn > 5000,
            "culled {culled}, drawn {drawn}"
        );
    }

    #[test]
    fn front_faces_are_counter_clockwise_on_screen() {
        let s = 8.0;
        // Counter-clockwise as seen (y up): (0,8) -> (8,8) -> (0,0) in y-down pixels.
        let ccw = [px(0., 8., s), px(8., 8., s), px(0., 0., s)];
        assert!(TriSetup::new([&ccw[0], &ccw[1], &ccw[2]], 8, 8, Cull::Back).is_some());
        assert!(TriSetup::new([&ccw[0], &ccw[2], &ccw[1]], 8, 8, Cull::Back).is_none());
        assert!(TriSetup::new([&ccw[0], &ccw[2], &ccw[1]], 8, 8, Cull::Front).is_some());
    }
}
