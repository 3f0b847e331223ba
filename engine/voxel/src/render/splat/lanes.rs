//! Perspective faces set up four at a time, in SSE2 lanes, with the scalar set-up's bits.
//!
//! Why: under a perspective camera every visible face of a rasterised limb gets its own
//! [`FaceRaster`] ([`perspective_face`]: its centre's projection, one division; the first-order
//! screen edges there; the determinant's division and two more for the row intervals; a dozen
//! products): about 955 000 faces in the demo's 1000-unit frame, each set up alone. The faces
//! across one grid axis share that axis's two screen columns, so four of them go through one
//! vector per quantity (SSE2 is baseline x86-64: no dispatch; elsewhere glam's scalar fallback
//! does the same lane by lane).
//!
//! Identical pixels: each lane performs [`perspective_face`]'s operations in the same order (IEEE
//! division, products, sums and differences; no fused multiply-add, no reassociation), so each
//! face gets the same bits. Faces are queued in draw order, across columns, and drawn in that
//! order once their lanes are computed, so every pixel sees the same writes in the same order as
//! the face-by-face draw (tested against it in `lanes/tests.rs`).

use glam::{BVec4A, Vec4};

use super::{stamp_extent, FaceRaster, FACE_LIMIT, STAMP_PIXELS, STAMP_WIDTH};

/// Faces held before they are set up and drawn: four vectors per axis at most.
const QUEUE: usize = 16;

/// Lane blocks per axis.
const BLOCKS: usize = QUEUE / 4;

#[cfg(test)]
thread_local! {
    /// Tests: draw perspective faces one by one (the reference the lanes are compared with).
    pub(super) static FACE_BY_FACE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: faces drawn from lanes on this thread (so comparisons are not vacuous).
    pub(super) static LANE_FACES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether perspective faces are set up one by one ([`perspective_face`]) instead of queued: only
/// in tests, for the comparison.
#[inline(always)]
pub(super) fn face_by_face() -> bool {
    #[cfg(test)]
    return FACE_BY_FACE.with(|f| f.get());
    #[cfg(not(test))]
    false
}

/// The face across grid axis `a` centred at homogeneous screen point `f` (the cell centre plus
/// half the axis's column), under the screen map whose grid axes' columns are `axes`: its
/// projected centre and its raster. The scalar set-up, one face at a time.
#[inline(always)]
pub(super) fn perspective_face(f: Vec4, axes: &[Vec4; 3], a: usize) -> (f32, f32, FaceRaster) {
    let r = 1.0 / f.w;
    let (sx, sy) = (f.x * r, f.y * r);
    let edge = |v: Vec4| [(v.x - sx * v.w) * r, (v.y - sy * v.w) * r];
    let (v1, v2) = (axes[(a + 1) % 3], axes[(a + 2) % 3]);
    (sx, sy, FaceRaster::new(edge(v1), edge(v2), [v1.z, v2.z]))
}

/// Four faces' set-up, one lane each: the fields of their [`FaceRaster`]s and projected centres.
#[derive(Debug, Clone, Copy, Default)]
struct Setup4 {
    sx: [f32; 4],
    sy: [f32; 4],
    inv_det: [f32; 4],
    reach: [[f32; 4]; 2],
    k: [[f32; 4]; 2],
    w: [[f32; 4]; 2],
    a: [[f32; 4]; 2],
    b: [[f32; 4]; 2],
    /// Lane bits of `FaceRaster::flat`.
    flat: [u32; 2],
    gx: [f32; 4],
    gy: [f32; 4],
}

impl Setup4 {
    /// [`perspective_face`] for four faces across one axis whose centres are `(fx, fy, fw)`
    /// lane by lane, `v1` and `v2` the columns of the axis's two face axes.
    #[inline(always)]
    fn new(fx: Vec4, fy: Vec4, fw: Vec4, v1: Vec4, v2: Vec4) -> Setup4 {
        let r = Vec4::ONE / fw;
        let (sx, sy) = (fx * r, fy * r);
        let edge = |v: Vec4| {
            let vw = Vec4::splat(v.w);
            (
                (Vec4::splat(v.x) - sx * vw) * r,
                (Vec4::splat(v.y) - sy * vw) * r,
            )
        };
        let ((e1x, e1y), (e2x, e2y)) = (edge(v1), edge(v2));
        // FaceRaster::new, lane by lane.
        let det = e1x * e2y - e1y * e2x;
        let usable = det.abs().cmpgt(Vec4::splat(1e-9)) & det.is_finite_mask();
        let inv = Vec4::select(usable, Vec4::ONE / det, Vec4::ZERO);
        let reach = [(e1x, e2x), (e1y, e2y)].map(|(p, q)| (p.abs() + q.abs()) * FACE_LIMIT);
        let (a_s, b_s) = (e2y * inv, -e2x * inv);
        let (a_t, b_t) = (-e1y * inv, e1x * inv);
        let (dz1, dz2) = (Vec4::splat(v1.z), Vec4::splat(v2.z));
        let gx = a_s * dz1 + a_t * dz2;
        let gy = b_s * dz1 + b_t * dz2;
        let (a, b) = ([a_s, a_t], [b_s, b_t]);
        let rows = [0, 1].map(|i| {
            let r = Vec4::ONE / a[i];
            let flat: BVec4A = !r.is_finite_mask();
            let k = Vec4::select(flat, Vec4::ZERO, -b[i] * r);
            let w = Vec4::select(flat, Vec4::ZERO, FACE_LIMIT * r.abs());
            (flat.bitmask(), k.to_array(), w.to_array())
        });
        Setup4 {
            sx: sx.to_array(),
            sy: sy.to_array(),
            inv_det: inv.to_array(),
            reach: reach.map(|v| v.to_array()),
            k: rows.map(|r| r.1),
            w: rows.map(|r| r.2),
            a: a.map(|v| v.to_array()),
            b: b.map(|v| v.to_array()),
            flat: rows.map(|r| r.0),
            gx: gx.to_array(),
            gy: gy.to_array(),
        }
    }

    /// Lane `l`'s raster, as `FaceRaster::new` builds it.
    #[inline(always)]
    fn raster(&self, l: usize) -> FaceRaster {
        let pick = |v: &[[f32; 4]; 2]| [v[0][l], v[1][l]];
        let reach = pick(&self.reach);
        let [sw, sh] = reach.map(stamp_extent);
        FaceRaster {
            inv_det: self.inv_det[l],
            reach,
            k: pick(&self.k),
            w: pick(&self.w),
            a: pick(&self.a),
            b: pick(&self.b),
            flat: self.flat.map(|m| (m >> l) & 1 != 0),
            stamp: (sw <= STAMP_WIDTH && sw * sh <= STAMP_PIXELS).then_some((sw, sh)),
            gx: self.gx[l],
            gy: self.gy[l],
        }
    }
}

/// Perspective faces waiting for their set-up, in draw order (see the module docs).
pub(super) struct FaceQueue<P> {
    /// The screen map's grid axis columns.
    axes: [Vec4; 3],
    /// Per axis, the queued faces' homogeneous centres: x, y, depth and w, lane by lane.
    centre: [[[f32; QUEUE]; 4]; 3],
    /// Faces queued per axis.
    count: [usize; 3],
    /// Draw order: each queued face's axis and index among its axis's faces.
    order: [(u8, u8); QUEUE],
    /// Each queued face's pixel.
    lit: [P; QUEUE],
    /// Faces queued.
    len: usize,
    /// The set-ups of a flush, per axis and block of four.
    setups: [[Setup4; BLOCKS]; 3],
}

impl<P: Copy> FaceQueue<P> {
    /// An empty queue for the screen map whose grid axes' columns are `axes`; `filler` is any
    /// pixel (the queue's unused slots).
    pub fn new(axes: [Vec4; 3], filler: P) -> FaceQueue<P> {
        FaceQueue {
            axes,
            centre: [[[0.0; QUEUE]; 4]; 3],
            count: [0; 3],
            order: [(0, 0); QUEUE],
            lit: [filler; QUEUE],
            len: 0,
            setups: [[Setup4::default(); BLOCKS]; 3],
        }
    }

    /// Queue the face across axis `a` centred at `f` (homogeneous screen point), drawn as `lit`;
    /// when the queue is full, set up and draw every queued face (`draw(sx, sy, depth, raster,
    /// lit)`, in the order queued).
    #[inline(always)]
    pub fn push(
        &mut self,
        a: usize,
        f: Vec4,
        lit: P,
        draw: &mut impl FnMut(f32, f32, f32, &FaceRaster, P),
    ) {
        // count[a] <= len < QUEUE here: a full queue is flushed before push returns.
        let (Some(n), Some(centre)) = (self.count.get_mut(a), self.centre.get_mut(a)) else {
            return;
        };
        let i = *n;
        if i >= QUEUE || self.len >= QUEUE {
            return;
        }
        for (c, v) in centre.iter_mut().zip(f.to_array()) {
            c[i] = v;
        }
        *n = i + 1;
        self.order[self.len] = (a as u8, i as u8);
        self.lit[self.len] = lit;
        self.len += 1;
        if self.len == QUEUE {
            self.flush(draw);
        }
    }

    /// Set up and draw every queued face, in the order queued; the queue is then empty.
    ///
    /// Never inlined: `draw` (the band's face rasteriser, large) then has one call site, here,
    /// and is inlined into it; with `flush` inlined at its two callers the rasteriser stayed a
    /// call per face (measured: +7 % instructions on the 1000-unit frame).
    #[inline(never)]
    pub fn flush(&mut self, draw: &mut impl FnMut(f32, f32, f32, &FaceRaster, P)) {
        for a in 0..3 {
            let (v1, v2) = (self.axes[(a + 1) % 3], self.axes[(a + 2) % 3]);
            let c = &self.centre[a];
            // Lanes past the axis's count hold older centres: set up and never drawn.
            for blk in 0..self.count[a].div_ceil(4) {
                let lanes = |k: usize| Vec4::from_slice(&c[k][blk * 4..blk * 4 + 4]);
                self.setups[a][blk] = Setup4::new(lanes(0), lanes(1), lanes(3), v1, v2);
            }
        }
        for (&(a, i), &lit) in self.order[..self.len].iter().zip(&self.lit) {
            let (a, i) = (usize::from(a), usize::from(i));
            let (s, l) = (&self.setups[a][i / 4], i % 4);
            if s.inv_det[l] != 0.0 {
                let face = s.raster(l);
                draw(s.sx[l], s.sy[l], self.centre[a][2][i], &face, lit);
            }
        }
        #[cfg(test)]
        LANE_FACES.with(|n| n.set(n.get() + self.len));
        self.count = [0; 3];
        self.len = 0;
    }
}

#[cfg(test)]
mod tests;
