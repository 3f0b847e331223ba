//! Span filling: one triangle's rows inside one band (the bands themselves are `bands.rs`).
//!
//! A pixel's value depends only on the triangle's setup and the pixel's row and column (every span
//! starts from the attribute planes, never from a neighbouring row), which is what lets the band
//! driver cut the frame anywhere and still give one thread's pixels on N threads.
//!
//! Spans come in two kinds, chosen per triangle by the setup: perspective spans, exact at every
//! [`SEGMENT`]-th pixel and stepped in fixed point between, and affine spans, stepped straight from
//! the triangle's gradients with no division at all.
//!
//! The span loop is one generic function, monomorphised per [`Paint`] (per target format and overlay
//! mode): the per-format work is one inlined call, so no format pays for another's branches.

use super::setup::{Attrs, SpanWalk, TriSetup};

/// What a target does with one textured, lit, depth-tested pixel: the only per-format code.
pub trait Paint: Sync {
    /// The target's pixel type.
    type Px: Copy + Send + Sync;
    /// Texture size in texels; texture coordinates wrap at these.
    fn texture_size(&self) -> (u32, u32);
    /// Mip levels this painter can read (1: level 0 only).
    #[inline(always)]
    fn levels(&self) -> usize {
        1
    }
    /// The same painter reading mip level `level` (`< levels()`) instead.
    fn at_level(&self, level: usize) -> Self
    where
        Self: Sized;
    /// Paint texel `index` (row-major) lit by fixed-point `light` ([`super::LIGHT_ONE`] = 1.0) into
    /// `dst`. Returns `false` when the texel is transparent: nothing was written and the depth buffer
    /// must stay untouched.
    fn paint(&self, index: usize, light: i32, dst: &mut Self::Px) -> bool;
    /// Fill a leading part of a depth-tested, depth-written run of `len` pixels (the first of
    /// `px` and `depth`) with a vector kernel, if this painter has one for this CPU: returns how
    /// many pixels were done (the run and `z` advanced past them, `z` stepped as `step` says:
    /// one pixel after the other as [`Run::paint`] does, and re-anchored as an affine span's
    /// segments are), the same pixels and depths the scalar loop gives. Where the slices go on
    /// past `len` far enough, a kernel may do the run's last, partial group of lanes too,
    /// rewriting the pixels and depths past `len` in it unchanged (then it returns `len`, and
    /// `z` is left past that whole group). The default has none.
    #[inline(always)]
    fn paint_vector(
        &self,
        _run: &mut Run,
        _px: &mut [Self::Px],
        _depth: &mut [f32],
        _len: usize,
        _z: &mut f32,
        _step: DepthStep,
    ) -> usize {
        0
    }
}

/// How depth steps along a run a vector kernel fills: `dz` added one pixel after the other, and,
/// for a whole affine span (`anchor`), set again at every [`SEGMENT`]-th pixel `i` to
/// `anchor + dz * i as f32`, where [`fill_affine`]'s segments start (the scalar loop's
/// expression, so the same bits). With the anchor a kernel fills a whole affine span in one
/// call instead of one call per segment: the call and its set-up were a fifth of the terrain's
/// instructions (docs/benchmarks.md, issue 43, lever 16).
#[derive(Debug, Clone, Copy)]
pub struct DepthStep {
    /// Depth step per pixel.
    pub dz: f32,
    /// The span's depth at its first pixel, when segments are re-anchored to it.
    pub anchor: Option<f32>,
}

impl DepthStep {
    /// Steps of `dz`, never re-anchored (one perspective segment, or a piece of one).
    #[inline(always)]
    pub fn plain(dz: f32) -> DepthStep {
        DepthStep { dz, anchor: None }
    }

    /// The run's segment starts, for a kernel that asks about its pixels in order.
    #[inline(always)]
    pub fn anchors(self) -> Anchors {
        Anchors {
            next: if self.anchor.is_some() { 0 } else { usize::MAX },
            anchor: self.anchor.unwrap_or(0.0),
            dz: self.dz,
        }
    }
}

/// Where a run's segments start ([`DepthStep::anchors`]): asked about pixels in increasing
/// order, each a multiple of the kernel's lanes, it answers at each segment start with a
/// compare, not a division and a conversion per group of lanes.
#[derive(Debug, Clone, Copy)]
pub struct Anchors {
    /// The next segment's first pixel (`usize::MAX`: none, the run is not anchored).
    next: usize,
    anchor: f32,
    dz: f32,
}

impl Anchors {
    /// The depth pixel `i` starts from, when a segment starts there (`None`: it follows the
    /// pixel before). `i` never skips a segment start.
    #[inline(always)]
    pub fn at(&mut self, i: usize) -> Option<f32> {
        if i != self.next {
            return None;
        }
        self.next += SEGMENT;
        Some(self.anchor + self.dz * i as f32)
    }
}

/// Depth handling of a fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DepthMode {
    /// Draw only where nearer than the buffer, and store the new depth (the default).
    #[default]
    TestAndWrite,
    /// Test but do not store (translucent passes).
    TestOnly,
    /// Ignore the buffer entirely.
    Off,
}

/// The rows a fill draws into: pixels and depths, row-major and `width` wide, whose first row is
/// row `y0` of the frame. A whole frame (`y0` 0) or one band of it: the band driver cuts a frame
/// into these, and every row loop of a triangle takes one, so the buffers, the width and the band's
/// place travel together instead of as four arguments through every stage.
pub struct Rows<'a, Px> {
    /// The rows' pixels.
    pub px: &'a mut [Px],
    /// Their depths, one per pixel.
    pub depth: &'a mut [f32],
    /// Pixels per row (never 0).
    pub width: usize,
    /// The frame row of the first row.
    pub y0: usize,
}

impl<'a, Px> Rows<'a, Px> {
    /// A whole `width` x `height` frame: the first `width * height` pixels and depths, or `None`
    /// when it is empty or either buffer is shorter (then nothing is drawn).
    pub fn frame(
        px: &'a mut [Px],
        depth: &'a mut [f32],
        width: usize,
        height: usize,
    ) -> Option<Self> {
        let n = width.checked_mul(height)?;
        if n == 0 || px.len() < n || depth.len() < n {
            return None;
        }
        Some(Rows {
            px: &mut px[..n],
            depth: &mut depth[..n],
            width,
            y0: 0,
        })
    }

    /// Whole rows held.
    #[inline(always)]
    pub fn rows(&self) -> usize {
        self.px.len() / self.width
    }

    /// The pixels and depths from column `x0` of frame row `y` (which lies in these rows) to the
    /// end of these rows: a span and the room after it.
    #[inline(always)]
    fn span_from(&mut self, y: usize, x0: usize) -> (&mut [Px], &mut [f32]) {
        let at = (y - self.y0) * self.width + x0;
        (&mut self.px[at..], &mut self.depth[at..])
    }

    /// The pixels and depths of columns `x0..=x1` of frame row `y`, which lies in these rows.
    #[inline(always)]
    fn span(&mut self, y: usize, x0: usize, x1: usize) -> (&mut [Px], &mut [f32]) {
        let row = (y - self.y0) * self.width;
        (
            &mut self.px[row + x0..=row + x1],
            &mut self.depth[row + x0..=row + x1],
        )
    }
}

/// Texel coordinate `t` wrapped onto a texture `size` texels wide or high: the scalar loop's wrap
/// of sizes that are not powers of two (and the WebAssembly kernels' for each lane off the
/// texture, `dispatch::simd128`).
#[inline(always)]
pub(super) fn wrap(t: i32, size: u32) -> u32 {
    if (t as u32) < size {
        t as u32
    } else {
        t.rem_euclid(size as i32) as u32
    }
}

/// Pixels per perspective-correct segment of a span. The exact (divided) values are computed at
/// segment ends only and stepped linearly in between, as Quake's renderer did: one division per 16
/// pixels instead of one per pixel. The error is at most a fraction of a texel on the steepest
/// floors (the segment is short next to the distance over which 1/w curves); it lifted the 8-bit
/// fill from ~130 to the figure in `docs/benchmarks.md`.
pub const SEGMENT: usize = 16;

/// Affine spans of at most this many pixels are filled by the scalar loop alone: a vector
/// kernel's call and set-up (~150 instructions) cost more than the ~40 a pixel it would save
/// them. The 13-unit 360x240 orthographic bench frame, whose terrain spans are short, drew its
/// terrain and props in 8.93 M instructions with every span given to the kernel, 8.61 M with
/// this threshold (3: 8.64 M); docs/benchmarks.md, issue 43, lever 20.
const SHORT_RUN: usize = 4;

/// Fixed-point fraction bits of the stepped texture coordinates and light.
const FRAC: u32 = 16;
const FIX_ONE: f32 = (1u32 << FRAC) as f32;
/// Texture coordinates stepped in fixed point must stay below this many texels (the rest of an
/// `i32` is headroom for 16 steps); a segment whose ends go further is drawn with exact per-pixel
/// division instead.
const FIX_LIMIT: f32 = (1u32 << 14) as f32;

/// The divided-out values at one pixel: texel coordinates, light and depth.
#[derive(Debug, Clone, Copy)]
struct Sample {
    u: f32,
    v: f32,
    light: f32,
    z: f32,
}

impl Sample {
    #[inline(always)]
    fn of(a: &Attrs) -> Sample {
        let w = 1.0 / a.inv_w;
        Sample {
            u: a.u_w * w,
            v: a.v_w * w,
            light: a.light_w * w,
            z: a.depth_w * w,
        }
    }
}

/// The attributes `k` pixels after `a` (multiplied out, so segment ends never accumulate drift).
#[inline(always)]
fn attrs_after(a: &Attrs, d: &Attrs, k: f32) -> Attrs {
    Attrs {
        inv_w: a.inv_w + d.inv_w * k,
        depth_w: a.depth_w + d.depth_w * k,
        u_w: a.u_w + d.u_w * k,
        v_w: a.v_w + d.v_w * k,
        light_w: a.light_w + d.light_w * k,
    }
}

/// Texel index of integer texel coordinates: a mask for power-of-two sizes (two's complement makes
/// it wrap negatives too), the general wrap otherwise.
#[inline(always)]
fn texel<const POW2: bool>(u: i32, v: i32, tw: u32, th: u32) -> usize {
    if POW2 {
        (((v as u32) & (th - 1)) * tw + ((u as u32) & (tw - 1))) as usize
    } else {
        (wrap(v, th) * tw + wrap(u, tw)) as usize
    }
}

/// `1 / steps` for a perspective segment of `steps` steps (0 for none), the same divisions done
/// once: a segment's steps are at most [`SEGMENT`], and the table saves the segment its third
/// division (the other two, [`Sample::of`], depend on the pixel).
static RECIPROCAL: [f32; SEGMENT + 1] = {
    let mut t = [0.0f32; SEGMENT + 1];
    let mut n = 1;
    while n <= SEGMENT {
        t[n] = 1.0 / n as f32;
        n += 1;
    }
    t
};

/// Whether texture coordinates fit the fixed-point stepping.
#[inline(always)]
fn fit(a: f32, b: f32, c: f32, d: f32) -> bool {
    a.abs().max(b.abs()).max(c.abs()).max(d.abs()) < FIX_LIMIT
}

/// Texture coordinates and light in 16.16 fixed point with their steps per pixel.
#[derive(Debug, Clone, Copy)]
pub struct Run {
    /// Texel column, 16.16.
    pub u: i32,
    /// Texel row, 16.16.
    pub v: i32,
    /// Light, 16.16 in [`super::LIGHT_ONE`] units.
    pub l: i32,
    /// Steps per pixel.
    pub du: i32,
    /// Steps per pixel.
    pub dv: i32,
    /// Steps per pixel.
    pub dl: i32,
}

impl Run {
    /// This run `n` pixels on: texel coordinates and light stepped wrapping, so the bits of `n`
    /// one-by-one steps (a vector kernel's run after the pixels it did).
    #[inline(always)]
    pub fn stepped(self, n: usize) -> Run {
        let n = n as i32;
        Run {
            u: self.u.wrapping_add(self.du.wrapping_mul(n)),
            v: self.v.wrapping_add(self.dv.wrapping_mul(n)),
            l: self.l.wrapping_add(self.dl.wrapping_mul(n)),
            ..self
        }
    }

    /// Paint `px` stepping the run, with depth `z` stepped by `dz`. The inner loop of every fill.
    /// `(tw, th)` is the texture's size, on which texel coordinates wrap.
    #[inline(always)]
    pub fn paint<P: Paint, const TEST: bool, const WRITE: bool, const POW2: bool>(
        &mut self,
        painter: &P,
        px: &mut [P::Px],
        depth: &mut [f32],
        mut z: f32,
        dz: f32,
        (tw, th): (u32, u32),
    ) {
        let (mut px, mut depth) = (px, depth);
        if TEST && WRITE {
            let len = px.len();
            let done = painter.paint_vector(self, px, depth, len, &mut z, DepthStep::plain(dz));
            px = &mut px[done..];
            depth = &mut depth[done..];
        }
        self.paint_scalar::<P, TEST, WRITE, POW2>(painter, px, depth, z, dz, (tw, th));
    }

    /// [`Run::paint`] without the vector kernel: what is left of a run the kernel has had.
    #[inline(always)]
    fn paint_scalar<P: Paint, const TEST: bool, const WRITE: bool, const POW2: bool>(
        &mut self,
        painter: &P,
        px: &mut [P::Px],
        depth: &mut [f32],
        mut z: f32,
        dz: f32,
        (tw, th): (u32, u32),
    ) {
        let Run {
            mut u,
            mut v,
            mut l,
            du,
            dv,
            dl,
        } = *self;
        for (p, z_buf) in px.iter_mut().zip(depth.iter_mut()) {
            // `z < buffer` is false for NaN, so a degenerate value never draws.
            if !TEST || z < *z_buf {
                let i = texel::<POW2>(u >> FRAC, v >> FRAC, tw, th);
                if painter.paint(i, l >> FRAC, p) && WRITE {
                    *z_buf = z;
                }
            }
            u = u.wrapping_add(du);
            v = v.wrapping_add(dv);
            l = l.wrapping_add(dl);
            z += dz;
        }
        (self.u, self.v, self.l) = (u, v, l);
    }
}

/// Fill a span of an affine triangle: the steps are the triangle's own gradients, so nothing is
/// divided; depth is re-anchored every [`SEGMENT`] pixels so float drift never builds up. Setup
/// only marks a triangle affine when its corner values fit the fixed point comfortably, and every
/// span's values lie between its corners', so no range check is needed here.
#[inline(always)]
fn fill_affine<P: Paint, const TEST: bool, const WRITE: bool, const POW2: bool>(
    painter: &P,
    px: &mut [P::Px],
    depth: &mut [f32],
    a: &Attrs,
    d: &Attrs,
    tw: u32,
    th: u32,
) {
    let len = px.len();
    let steps = AffineSteps::of(d);
    fill_affine_stepped::<P, TEST, WRITE, POW2>(painter, (px, depth, len), a, &steps, tw, th);
}

/// [`fill_affine`] with the gradient's steps already converted (once per triangle), of the first
/// `len` pixels and depths of `px` and `depth`, which may go on past the span (room for a
/// vector kernel's last lanes: [`Paint::paint_vector`]).
#[inline(always)]
fn fill_affine_stepped<P: Paint, const TEST: bool, const WRITE: bool, const POW2: bool>(
    painter: &P,
    (px, depth, len): (&mut [P::Px], &mut [f32], usize),
    a: &Attrs,
    steps: &AffineSteps,
    tw: u32,
    th: u32,
) {
    let &AffineSteps { dz, du, dv, dl } = steps;
    let mut run = Run {
        u: (a.u_w * FIX_ONE) as i32,
        v: (a.v_w * FIX_ONE) as i32,
        // Rounded, so an exactly-unlit 1.0 stays the identity row.
        l: ((a.light_w + 0.5) * FIX_ONE) as i32,
        du,
        dv,
        dl,
    };
    let n = len.min(px.len()).min(depth.len());
    let (mut from, mut z) = (0, a.depth_w);
    if TEST && WRITE && n > SHORT_RUN {
        // The whole span's groups of vector lanes in one call, its segments' depths anchored
        // as below.
        let step = DepthStep {
            dz,
            anchor: Some(a.depth_w),
        };
        from = painter.paint_vector(&mut run, px, depth, n, &mut z, step);
    }
    // What is left (all of it where the kernel declined, else fewer pixels than its lanes, or
    // a short span the kernel was not worth calling for), one segment at a time, each starting
    // from `a.depth_w + dz * i` at its first pixel `i` (for `i` 0 the `dz * 0.0` is kept: it is
    // what the first pixel always got, so the same bits). Segments the kernel declined as a
    // whole span may still take it one at a time (a texture that is not a power of two, read
    // inside it in some segments only; the WebAssembly kernels).
    let retry = from == 0 && n > SHORT_RUN;
    while from < n {
        let k = from / SEGMENT;
        let end = ((k + 1) * SEGMENT).min(n);
        if from == k * SEGMENT {
            z = a.depth_w + dz * (k * SEGMENT) as f32;
        }
        let (px, depth) = (&mut px[from..end], &mut depth[from..end]);
        if retry {
            run.paint::<P, TEST, WRITE, POW2>(painter, px, depth, z, dz, (tw, th));
        } else {
            run.paint_scalar::<P, TEST, WRITE, POW2>(painter, px, depth, z, dz, (tw, th));
        }
        from = end;
    }
}

/// Fill one span: `px` and `depth` are the span's pixels and depths, `a` the attributes at its first
/// pixel centre, `d` their step per pixel. Split into [`SEGMENT`]-pixel pieces, exact at each end.
#[inline(always)]
fn fill_span<
    P: Paint,
    const TEST: bool,
    const WRITE: bool,
    const POW2: bool,
    const AFFINE: bool,
>(
    painter: &P,
    px: &mut [P::Px],
    depth: &mut [f32],
    a: Attrs,
    d: &Attrs,
    tw: u32,
    th: u32,
) {
    // Chosen here, inside the span call: moving the choice out to the row loop measured slower
    // (per triangle: the fill 25 % slower, see docs/benchmarks-history.md, issue 4; per row: a few percent, in noise).
    if AFFINE {
        fill_affine::<P, TEST, WRITE, POW2>(painter, px, depth, &a, d, tw, th);
        return;
    }
    let n = px.len();
    let mut start = 0;
    let mut s0 = Sample::of(&a);
    while start < n {
        let left = n - start;
        // A full segment ends on the next segment's first pixel; the last one on the span's last
        // pixel (never extrapolated past the triangle, where 1/w may reach zero).
        let (len, steps) = if left > SEGMENT {
            (SEGMENT, SEGMENT)
        } else {
            (left, left - 1)
        };
        let s1 = if steps == 0 {
            s0
        } else {
            Sample::of(&attrs_after(&a, d, (start + steps) as f32))
        };
        let px = &mut px[start..start + len];
        let depth = &mut depth[start..start + len];
        let (mut u0, mut u1, mut v0, mut v1) = (s0.u, s1.u, s0.v, s1.v);
        let mut fits = fit(u0, u1, v0, v1);
        if !fits {
            // Bring u and v near zero (whole texture periods change nothing) so they fit fixed
            // point. Rare: setup already moves each triangle's coordinates near the first period.
            let pu = (s0.u / tw as f32).floor() * tw as f32;
            let pv = (s0.v / th as f32).floor() * th as f32;
            (u0, u1, v0, v1) = (s0.u - pu, s1.u - pu, s0.v - pv, s1.v - pv);
            fits = fit(u0, u1, v0, v1);
        }
        if fits && s0.light.is_finite() && s1.light.is_finite() {
            let k = RECIPROCAL[steps];
            let u = (u0 * FIX_ONE) as i32;
            let v = (v0 * FIX_ONE) as i32;
            // Rounded, so an exactly-unlit 1.0 stays the identity row.
            let l = ((s0.light + 0.5) * FIX_ONE) as i32;
            let du = ((u1 - u0) * k * FIX_ONE) as i32;
            let dv = ((v1 - v0) * k * FIX_ONE) as i32;
            let dl = ((s1.light - s0.light) * k * FIX_ONE) as i32;
            let mut run = Run {
                u,
                v,
                l,
                du,
                dv,
                dl,
            };
            run.paint::<P, TEST, WRITE, POW2>(
                painter,
                px,
                depth,
                s0.z,
                (s1.z - s0.z) * k,
                (tw, th),
            );
        } else {
            // Exact per-pixel division: texture coordinates too large for fixed point.
            for (k, (p, z_buf)) in px.iter_mut().zip(depth.iter_mut()).enumerate() {
                let s = Sample::of(&attrs_after(&a, d, (start + k) as f32));
                if !TEST || s.z < *z_buf {
                    let i = texel::<false>(s.u.floor() as i32, s.v.floor() as i32, tw, th);
                    let light = (s.light + 0.5) as i32;
                    if painter.paint(i, light, p) && WRITE {
                        *z_buf = s.z;
                    }
                }
            }
        }
        s0 = s1;
        start += len;
    }
}

/// The mip level GL's `GL_NEAREST_MIPMAP_NEAREST` (with `GL_NEAREST` magnification) samples for a
/// texel footprint: level `round(log2 ρ)` clamped to `0..=max`, where `footprint_sq` is ρ², the
/// squared length of the longer of the texel-space steps per pixel in x and in y (in level-0 texels).
///
/// `round(log2 ρ) = floor(log2(2 ρ²) / 2)`, and `floor(log2 x)` is the float's exponent, so no
/// logarithm is taken: this runs once per span.
#[inline(always)]
pub fn mip_level(footprint_sq: f32, max: usize) -> usize {
    let x = footprint_sq * 2.0;
    if x.is_nan() || x < 4.0 {
        // ρ below √2 (or NaN): level 0.
        return 0;
    }
    if !x.is_finite() {
        return max;
    }
    let exponent = ((x.to_bits() >> 23) & 0xff) as usize - 127;
    (exponent >> 1).min(max)
}

/// Fill one span with `painter`'s texture: the kind of span (affine or not, power-of-two texture or
/// not) chosen here, so every kind is one monomorphised loop.
#[inline(always)]
fn fill_span_of<P: Paint, const TEST: bool, const WRITE: bool>(
    painter: &P,
    px: &mut [P::Px],
    depth: &mut [f32],
    a: Attrs,
    d: &Attrs,
    affine: bool,
) {
    let (tw, th) = painter.texture_size();
    let pow2 = tw.is_power_of_two() && th.is_power_of_two();
    match (pow2, affine) {
        (true, false) => fill_span::<P, TEST, WRITE, true, false>(painter, px, depth, a, d, tw, th),
        (false, false) => {
            fill_span::<P, TEST, WRITE, false, false>(painter, px, depth, a, d, tw, th)
        }
        (true, true) => fill_span::<P, TEST, WRITE, true, true>(painter, px, depth, a, d, tw, th),
        (false, true) => fill_span::<P, TEST, WRITE, false, true>(painter, px, depth, a, d, tw, th),
    }
}

/// Spans shorter than this read the level of their triangle's footprint at its first vertex
/// instead of their own: a short span's pixels are close to the vertex anyway, and the footprint
/// (a division and a dozen products) per span was 8 % of the minigun's instructions.
const SHORT_SPAN: usize = 8;

/// Fill the rows of `tri` that lie in a band's `rows`.
///
/// With mip levels, each span reads the level its texel footprint asks for ([`mip_level`], at the
/// span's middle pixel; the triangle's for short spans and affine triangles, whose footprint is
/// constant), with its texture coordinates scaled from level 0 to that level's size. The level
/// depends only on the triangle, the row and the span's columns, so banding changes no pixel.
#[inline(always)]
pub(super) fn fill_band_tri<P: Paint, const TEST: bool, const WRITE: bool>(
    painter: &P,
    tri: &TriSetup,
    rows: &mut Rows<'_, P::Px>,
) {
    let first = (tri.y_first.max(rows.y0 as i32)) as usize;
    let last = (tri.y_last as usize).min(rows.y0 + rows.rows() - 1);
    if first > last {
        return;
    }
    let max_level = painter.levels() - 1;
    let (tw, th) = painter.texture_size();
    let tri_level = if max_level > 0 {
        mip_level(tri.corner_footprint_sq(), max_level)
    } else {
        0
    };
    let walk = tri.walk(first as i32, rows.width);
    if tri.affine {
        // One level, one gradient and one set of fixed-point steps for the whole triangle.
        if tri_level == 0 {
            affine_rows_of::<P, TEST, WRITE, false>(
                painter,
                (tw, th),
                tri,
                walk,
                (first, last),
                rows,
            );
        } else {
            let p = painter.at_level(tri_level);
            affine_rows_of::<P, TEST, WRITE, true>(&p, (tw, th), tri, walk, (first, last), rows);
        }
        return;
    }
    span_rows::<P, TEST, WRITE>(painter, tri, walk, (first, last), tri_level, false, rows);
}

/// Frame rows `first..=last` of `tri`, all inside `rows`, each span choosing its own
/// mip level and kind ([`fill_span_of`]): the perspective triangles' loop (`affine` false); with
/// `affine` the tests' reference for [`affine_rows_of`].
#[inline(always)]
fn span_rows<P: Paint, const TEST: bool, const WRITE: bool>(
    painter: &P,
    tri: &TriSetup,
    mut walk: SpanWalk,
    (first, last): (usize, usize),
    tri_level: usize,
    affine: bool,
    rows: &mut Rows<'_, P::Px>,
) {
    let max_level = painter.levels() - 1;
    let (tw, th) = painter.texture_size();
    for y in first..last + 1 {
        let Some((x0, x1)) = walk.next_row() else {
            continue;
        };
        let mut a = tri.attrs_at(x0, y as i32);
        let (x0, x1) = (x0 as usize, x1 as usize);
        let (px, depth) = rows.span(y, x0, x1);
        let level = if max_level == 0 {
            0
        } else if affine || x1 - x0 + 1 < SHORT_SPAN {
            tri_level
        } else {
            mip_level(
                tri.footprint_sq(((x0 + x1) / 2) as i32, y as i32),
                max_level,
            )
        };
        if level == 0 {
            fill_span_of::<P, TEST, WRITE>(painter, px, depth, a, &tri.dadx, affine);
        } else {
            let p = painter.at_level(level);
            let (lw, lh) = p.texture_size();
            let (su, sv) = (lw as f32 / tw as f32, lh as f32 / th as f32);
            let mut d = tri.dadx;
            (a.u_w, a.v_w, d.u_w, d.v_w) = (a.u_w * su, a.v_w * sv, d.u_w * su, d.v_w * sv);
            fill_span_of::<P, TEST, WRITE>(&p, px, depth, a, &d, affine);
        }
    }
}

/// Frame rows `first..=last` of an affine triangle, all inside `rows`, all read from
/// `painter`'s texture (one mip level for the whole triangle, whose footprint is constant;
/// `SCALED`: not level 0, whose size is `level0`, so texture coordinates are scaled to it).
///
/// The same pixels as [`fill_span_of`] per row, with what does not change along the triangle
/// worked out once: the scaled gradient, its fixed-point steps (the same saturating conversions
/// of the same products, so the same bits), and the texture's kind. Per span that was a third of
/// the start-up of the small spans of mesh10k and small100k (docs/benchmarks-history.md, round 9).
#[inline(always)]
fn affine_rows_of<P: Paint, const TEST: bool, const WRITE: bool, const SCALED: bool>(
    painter: &P,
    level0: (u32, u32),
    tri: &TriSetup,
    walk: SpanWalk,
    first_last: (usize, usize),
    rows: &mut Rows<'_, P::Px>,
) {
    let (tw, th) = painter.texture_size();
    let (su, sv) = (tw as f32 / level0.0 as f32, th as f32 / level0.1 as f32);
    let mut d = tri.dadx;
    if SCALED {
        (d.u_w, d.v_w) = (d.u_w * su, d.v_w * sv);
    }
    let steps = AffineSteps::of(&d);
    let pow2 = tw.is_power_of_two() && th.is_power_of_two();
    let scale = SCALED.then_some((su, sv));
    if pow2 {
        affine_rows::<P, TEST, WRITE, true>(painter, tri, walk, first_last, scale, &steps, rows);
    } else {
        affine_rows::<P, TEST, WRITE, false>(painter, tri, walk, first_last, scale, &steps, rows);
    }
}

/// An affine triangle's per-pixel steps: the depth's in float, the rest in 16.16 fixed point.
#[derive(Debug, Clone, Copy)]
struct AffineSteps {
    dz: f32,
    du: i32,
    dv: i32,
    dl: i32,
}

impl AffineSteps {
    /// The steps of gradient `d`, converted as [`fill_affine`] converts them.
    #[inline(always)]
    fn of(d: &Attrs) -> AffineSteps {
        AffineSteps {
            dz: d.depth_w,
            du: (d.u_w * FIX_ONE) as i32,
            dv: (d.v_w * FIX_ONE) as i32,
            dl: (d.light_w * FIX_ONE) as i32,
        }
    }
}

/// The row loop of [`affine_rows_of`] for one kind of texture.
#[inline(always)]
fn affine_rows<P: Paint, const TEST: bool, const WRITE: bool, const POW2: bool>(
    painter: &P,
    tri: &TriSetup,
    mut walk: SpanWalk,
    (first, last): (usize, usize),
    scale: Option<(f32, f32)>,
    steps: &AffineSteps,
    rows: &mut Rows<'_, P::Px>,
) {
    let (tw, th) = painter.texture_size();
    for y in first..last + 1 {
        let Some((x0, x1)) = walk.next_row() else {
            continue;
        };
        let mut a = tri.attrs_at(x0, y as i32);
        if let Some((su, sv)) = scale {
            (a.u_w, a.v_w) = (a.u_w * su, a.v_w * sv);
        }
        // The span and the band's rows after it: room for the kernel's last lanes.
        let (px, depth) = rows.span_from(y, x0 as usize);
        let len = (x1 - x0) as usize + 1;
        fill_affine_stepped::<P, TEST, WRITE, POW2>(painter, (px, depth, len), &a, steps, tw, th);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::bands::*;
    use crate::raster::clip::ClipVertex;
    use crate::raster::setup::{xorshift_unit, Cull};
    use glam::Vec4;

    /// Counts how often each pixel is painted.
    struct Count;
    impl Paint for Count {
        type Px = u8;
        fn texture_size(&self) -> (u32, u32) {
            (1, 1)
        }
        fn at_level(&self, _: usize) -> Count {
            Count
        }
        fn paint(&self, _: usize, _: i32, dst: &mut u8) -> bool {
            *dst = dst.saturating_add(1);
            true
        }
    }

    /// A texture of `size` texels with `levels` mip levels (each half the one before, at least
    /// one texel) that paints the texel index, the light and its level into the pixel, so two
    /// fills agree only where they read the same texel of the same level with the same light.
    #[derive(Clone, Copy)]
    struct Probe {
        size: (u32, u32),
        level: usize,
        levels: usize,
    }
    impl Paint for Probe {
        type Px = u64;
        fn texture_size(&self) -> (u32, u32) {
            self.size
        }
        fn levels(&self) -> usize {
            self.levels
        }
        fn at_level(&self, level: usize) -> Probe {
            let (w, h) = self.size;
            let k = level - self.level;
            Probe {
                size: ((w >> k).max(1), (h >> k).max(1)),
                level,
                levels: self.levels,
            }
        }
        fn paint(&self, index: usize, light: i32, dst: &mut u64) -> bool {
            *dst = (index as u64) << 32 ^ (light as u32 as u64) << 4 ^ self.level as u64;
            // Some texels transparent, so the depth write is tested too.
            index % 7 != 3
        }
    }

    #[test]
    fn affine_rows_equal_the_per_span_loop() {
        // Random orthographic (w = 1, so affine) triangles of every size, with texture
        // coordinates near and far from zero, steep and flat, lights around 1.0 and beyond,
        // on power-of-two and other textures with and without mip levels: the affine rows
        // (gradient and steps converted once per triangle) give the same pixels and depths as
        // the per-span loop with its conversions per span.
        let (w, h) = (48usize, 40usize);
        let mut unit = xorshift_unit(0x2545_f491_4f6c_dd1d);
        let mut rnd = move |lo: f32, hi: f32| lo + (hi - lo) * unit();
        let mut affine = 0;
        for case in 0..3000 {
            let size = [(64, 64), (48, 40), (37, 23), (1024, 8)][case % 4];
            let probe = Probe {
                size,
                level: 0,
                levels: [1, 4][case / 4 % 2],
            };
            let span = [0.05f32, 0.3, 1.2][case % 3];
            let (cx, cy) = (rnd(-0.8, 0.8), rnd(-0.8, 0.8));
            let uv_scale = [1.0f32, 40.0, 4000.0][case / 2 % 3];
            let v = |rnd: &mut dyn FnMut(f32, f32) -> f32| ClipVertex {
                clip: Vec4::new(cx + rnd(-span, span), cy + rnd(-span, span), 0.5, 1.0),
                depth: rnd(0.5, 9.0),
                u: rnd(-1.0, 1.0) * uv_scale,
                v: rnd(-1.0, 1.0) * uv_scale,
                light: rnd(0.0, 600.0),
            };
            let (a, b, c) = (v(&mut rnd), v(&mut rnd), v(&mut rnd));
            let Some(t) = TriSetup::new([&a, &b, &c], w, h, Cull::None) else {
                continue;
            };
            if !t.affine {
                continue;
            }
            affine += 1;
            let start = || {
                let depth: Vec<f32> = (0..w * h).map(|i| (i % 11) as f32).collect();
                (vec![0u64; w * h], depth)
            };
            let (mut px, mut depth) = start();
            let mut rows = Rows::frame(&mut px, &mut depth, w, h).unwrap();
            fill_band_tri::<Probe, true, true>(&probe, &t, &mut rows);
            let (mut px_ref, mut depth_ref) = start();
            let level = if probe.levels > 1 {
                mip_level(t.corner_footprint_sq(), probe.levels - 1)
            } else {
                0
            };
            span_rows::<Probe, true, true>(
                &probe,
                &t,
                t.walk(t.y_first, w),
                (t.y_first as usize, (t.y_last as usize).min(h - 1)),
                level,
                true,
                &mut Rows::frame(&mut px_ref, &mut depth_ref, w, h).unwrap(),
            );
            assert_eq!(px, px_ref, "case {case}");
            assert!(
                depth
                    .iter()
                    .zip(&depth_ref)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "case {case}"
            );
        }
        assert!(affine > 2000, "{affine} affine triangles");
    }

    #[test]
    fn reciprocal_table_equals_the_division_it_replaces() {
        // The perspective segment took `1.0 / steps as f32` (0 for no step) at run time.
        assert_eq!(RECIPROCAL[0].to_bits(), 0f32.to_bits());
        for (n, r) in RECIPROCAL.iter().enumerate().skip(1) {
            let divided = 1.0 / std::hint::black_box(n) as f32;
            assert_eq!(r.to_bits(), divided.to_bits(), "{n}");
        }
        assert_eq!(RECIPROCAL.len(), SEGMENT + 1);
    }

    #[test]
    fn mip_level_rounds_log2_of_the_footprint() {
        // (ρ, level): round(log2 ρ), the boundaries at ρ = 2^(k + 1/2).
        for (rho, want) in [
            (0.3f32, 0),
            (1.0, 0),
            (1.41, 0),
            (1.42, 1),
            (2.0, 1),
            (2.82, 1),
            (2.84, 2),
            (4.0, 2),
            (5.7, 3),
            (1000.0, 10),
        ] {
            assert_eq!(mip_level(rho * rho, 20), want, "rho {rho}");
        }
        assert_eq!(mip_level(1e6, 3), 3);
        assert_eq!(mip_level(f32::NAN, 3), 0);
        assert_eq!(mip_level(f32::INFINITY, 3), 3);
        for k in 0..=20 {
            let rho = 2f32.powf(k as f32);
            assert_eq!(mip_level(rho * rho, 30), k, "rho 2^{k}");
        }
    }

    #[test]
    fn setup_and_fill_draw_clip_space_vertices() {
        let v = |x: f32, y: f32| ClipVertex {
            clip: Vec4::new(x, y, 0.5, 1.0),
            depth: 1.0,
            ..Default::default()
        };
        let (a, b, c) = (v(-1.0, -1.0), v(1.0, -1.0), v(-1.0, 1.0));
        let t = TriSetup::new([&a, &b, &c], 10, 10, Cull::Back).unwrap();
        for threads in [1, 3] {
            let (px, d) = modex::with_threads(threads, || {
                let mut px = vec![0u8; 100];
                let mut d = vec![f32::INFINITY; 100];
                fill(
                    &Count,
                    &[t][..],
                    &mut px,
                    &mut d,
                    10,
                    10,
                    DepthMode::TestAndWrite,
                );
                (px, d)
            })
            .unwrap();
            // Half the square (the diagonal's centres go to one side): 45 or 55 pixels, each once.
            let n = px.iter().filter(|&&c| c == 1).count();
            assert!(n == 45 || n == 55, "{n}");
            assert!(px.iter().all(|&c| c <= 1));
            assert_eq!(d.iter().filter(|z| **z == 1.0).count(), n);
        }
    }
}
