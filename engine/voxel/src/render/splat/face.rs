//! One face of a splatted voxel on screen ([`FaceRaster`]): the parallelogram a face across one
//! grid axis projects to, what a row of it needs wherever it lies, and which pixel centres it
//! covers; with the float-to-pixel conversions its set-up and fills share.
//!
//! Why a module of its own: the splat's draw (`splat.rs`), its stamps (`band`, `pairs`) and its
//! scanned fills (`fill`) all read a face; this is the one place that says what a face is.

/// One CVTTSS2SI for a float known to be in `i32`'s range.
use super::super::convert::truncate;
use glam::{Vec4, Vec4Swizzles};

/// How a face across grid axis `a` covers the pixels around its projected centre: offset `q` is
/// `s e1 + t e2` along the screen edges of the other two axes, inside when `|s|, |t| <= 1/2`, at
/// depth `centre + s dz1 + t dz2`.
///
/// Everything a row of the face needs that does not depend on where the face is is worked out
/// here: in orthographic views once per axis and draw, for all the limb's faces across that axis
/// (two divisions and a dozen products per face saved; with faces 1-3 rows tall that set-up was
/// most of a face's cost).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FaceRaster {
    /// `1 / (e1 x e2)`; 0 for a face seen edge-on (drawn by its neighbours).
    pub(super) inv_det: f32,
    /// Half the width and height of the parallelogram's bounding box.
    pub(super) reach: [f32; 2],
    /// Each row of the face is the intersection of two intervals of the x offset `qx` from its
    /// centre, one per face coordinate (`|s|, |t| <= FACE_LIMIT`): centred at `k qy` (`qy` the
    /// row's y offset), `w` either side of it. A coordinate that does not change along a row
    /// (its screen edge is horizontal) is `flat`: then the whole row is in when `|b qy| <=
    /// FACE_LIMIT`, else none of it.
    pub(super) k: [f32; 2],
    pub(super) w: [f32; 2],
    /// Face coordinates from the offset `q`: `s = a[0] qx + b[0] qy`, `t = a[1] qx + b[1] qy`.
    pub(super) a: [f32; 2],
    pub(super) b: [f32; 2],
    pub(super) flat: [bool; 2],
    /// Width and height in pixels of a box that holds every pixel the face can cover wherever it
    /// lies, when it has at most [`STAMP_PIXELS`] pixels: then a face tests every pixel of that
    /// box without a branch (`Splat::draw_multi`) instead of scanning its rows.
    pub(super) stamp: Option<(usize, usize)>,
    /// Depth change per pixel across and down the screen.
    pub(super) gx: f32,
    pub(super) gy: f32,
}

/// Largest box of pixels a face is stamped over (see `FaceRaster::stamp`): about the box of a
/// face of a cell 3 pixels wide; larger faces scan their rows, where the box would test many
/// pixels outside the face.
pub(super) const STAMP_PIXELS: usize = 12;

/// Widest stamp: one SSE2 vector of depths.
pub(super) const STAMP_WIDTH: usize = 4;

/// Lane offsets of a stamp's row.
pub(super) const LANES: Vec4 = Vec4::new(0.0, 1.0, 2.0, 3.0);

/// How far outside a face a pixel centre may fall in face coordinates and still count: far above
/// rounding, far below a pixel, so a pixel centre on the edge two faces share is drawn by both.
pub(super) const FACE_LIMIT: f32 = 0.5 * (1.0 + 1e-4) + 1e-6;

impl FaceRaster {
    /// The face spanned by screen edges `e1`, `e2` (pixels per cell step along its two axes)
    /// whose depth changes by `dz` per step along them.
    #[inline(always)]
    pub(super) fn new(e1: [f32; 2], e2: [f32; 2], dz: [f32; 2]) -> FaceRaster {
        FaceRaster::from_edges(Vec4::new(e1[0], e1[1], e2[0], e2[1]), dz)
    }

    /// [`FaceRaster::new`] of the edges as one vector `(e1.x, e1.y, e2.x, e2.y)`, worked out in
    /// its lanes.
    ///
    /// Why lanes: a perspective face is set up at its own centre, ~320 k faces a 1000-unit 1080p
    /// frame, and one at a time this set-up was ~70 instructions a face (docs/benchmarks.md,
    /// issue 43, lever 45). Each lane does the scalar form's operations in its order (products,
    /// sums and quotients rounded the same in a lane as alone; a sign flip as a product by -1,
    /// exact), so every value is the same bits (tested against the scalar form below) up to the
    /// sign of a NaN, which no comparison, `abs` or depth write can see.
    #[inline(always)]
    pub(super) fn from_edges(e: Vec4, dz: [f32; 2]) -> FaceRaster {
        let det = e.x * e.w - e.y * e.z;
        let inv_det = if det.abs() > 1e-9 && det.is_finite() {
            1.0 / det
        } else {
            0.0
        };
        // Lanes 0, 1: |e1.x| + |e2.x|, |e1.y| + |e2.y|.
        let reach = (e.abs() + e.abs().zwxy()) * FACE_LIMIT;
        // Face coordinates from the offset q: s = a_s qx + b_s qy, t = a_t qx + b_t qy, in lanes
        // (a_s, a_t, b_s, b_t) = (e2.y, -e1.y, -e2.x, e1.x) / det.
        let ab = e.wyzx() * Vec4::new(1.0, -1.0, -1.0, 1.0) * inv_det;
        // Depth is linear too: z + s dz1 + t dz2, so gx = a_s dz1 + a_t dz2 (lane 0) and gy =
        // b_s dz1 + b_t dz2 (lane 2).
        let p = ab * Vec4::new(dz[0], dz[1], dz[0], dz[1]);
        let g = p + p.yxwz();
        // Lanes 0, 1: 1 / a and -b / a, the rows' interval centres per unit of qy.
        // A coordinate whose `1 / a` is not finite is `flat`, its `k` and `w` 0: by a select
        // per lane rather than a branch per value.
        let r = Vec4::ONE / ab;
        let finite = r.is_finite_mask();
        let flat = [!finite.test(0), !finite.test(1)];
        let k = Vec4::select(finite, -ab.zwxy() * r, Vec4::ZERO);
        let w = Vec4::select(finite, r.abs() * FACE_LIMIT, Vec4::ZERO);
        // Pixel centres within reach of the centre: at most floor(2 reach) + 1 per axis.
        let [sw, sh] = [reach.x, reach.y].map(stamp_extent);
        let stamp = (sw <= STAMP_WIDTH && sw * sh <= STAMP_PIXELS).then_some((sw, sh));
        FaceRaster {
            inv_det,
            reach: [reach.x, reach.y],
            k: [k.x, k.y],
            w: [w.x, w.y],
            a: [ab.x, ab.y],
            b: [ab.z, ab.w],
            flat,
            stamp,
            gx: g.x,
            gy: g.z,
        }
    }

    /// Call `row(py, x0, x1, z0)` for every row `py` (within `top..=last_y`) with the pixels
    /// `x0..=x1` (within `0..=last_x`) whose centres lie inside the face centred at screen `c`
    /// with depth `z` there; the face's depth at pixel `px` of that row is `z0 + gx px`.
    ///
    /// Face coordinates are linear in the offset `q` from the centre, so each row's pixels inside
    /// `|s|, |t| <= FACE_LIMIT` are one span, the intersection of two intervals: the scan visits
    /// exactly the covered pixels. Comparisons are written so that NaN fails them.
    #[inline(always)]
    pub(super) fn scan(
        &self,
        c: [f32; 2],
        z: f32,
        (top, last_y): (f32, f32),
        last_x: f32,
        mut row: impl FnMut(usize, usize, usize, f32),
    ) {
        let ry = self.reach[1];
        let (ya, yb) = ((c[1] - ry - 0.5).max(top), (c[1] + ry - 0.5).min(last_y));
        if !in_order(ya, yb) {
            return;
        }
        let (y0, y1) = (ceil_non_negative(ya), yb as i32 as usize);
        let z_x = self.gx * (0.5 - c[0]);
        // Pixel px's centre is at offset px + 0.5 - c.x.
        let left = c[0] - 0.5;
        'rows: for py in y0..=y1 {
            let qy = py as f32 + 0.5 - c[1];
            let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
            for i in 0..2 {
                if self.flat[i] {
                    if !in_order((self.b[i] * qy).abs(), FACE_LIMIT) {
                        continue 'rows;
                    }
                } else {
                    let m = self.k[i] * qy;
                    let (l, h) = (m - self.w[i], m + self.w[i]);
                    lo = if l > lo { l } else { lo };
                    hi = if h < hi { h } else { hi };
                }
            }
            let (xa, xb) = ((left + lo).max(0.0), (left + hi).min(last_x));
            if !in_order(xa, xb) {
                continue;
            }
            let (xa, xb) = (ceil_non_negative(xa), xb as i32 as usize);
            if xa > xb {
                continue;
            }
            row(py, xa, xb, z + self.gy * qy + z_x);
        }
    }
}

/// How many pixel centres per axis lie within `reach` of a face's centre: at most
/// `floor(2 reach) + 1` (clamped far above any stamp).
///
/// A reach is non-negative or NaN and `min` clamps it (NaN to 1e6), so the conversion goes
/// through `i32`, the same value as `as usize`, without baseline x86-64's saturating `usize`
/// conversion (a compare and branch per value: 2.4 % of the 1000-unit frame's instructions),
/// and by [`truncate`], without `as i32`'s saturation tests either (the value is at most
/// 1e6; below `i32::MIN` both answer `i32::MIN`).
#[inline(always)]
pub(super) fn stamp_extent(reach: f32) -> usize {
    truncate((2.0 * reach).min(1e6)) as usize + 1
}

/// `a <= b`, false when either is NaN.
#[inline(always)]
pub(super) fn in_order(a: f32, b: f32) -> bool {
    matches!(
        a.partial_cmp(&b),
        Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
    )
}

/// `ceil(v)` as an `i32` for a `v` within `i32`'s range, negative (`i32::MIN` or one above)
/// for NaN and values from 2^31 up, where the caller's (a stamp's first pixel, [`FaceBand`]'s
/// `face`) `>= 0` test fails and the scanned fill draws nothing for the face either (its centre
/// NaN or 2^31 pixels off: every depth NaN, or no pixel in the row); the saturating form drew
/// nothing there through the stamp. By [`truncate`] (one CVTTSS2SI) without `as i32`'s
/// saturation tests (docs/benchmarks.md, issue 43, lever 34b).
///
/// [`FaceBand`]: super::band::FaceBand
#[inline(always)]
pub(super) fn ceil_i32(v: f32) -> i32 {
    let t = truncate(v);
    t.wrapping_add(i32::from((t as f32) < v))
}

/// `ceil(v)` for a `v` known to be in `0..=2^24` (pixel coordinates), without the libm call
/// (baseline x86-64 has no rounding instruction).
#[inline(always)]
pub(super) fn ceil_non_negative(v: f32) -> usize {
    let t = v as i32;
    (t + i32::from((t as f32) < v)) as usize
}

#[cfg(test)]
mod tests {
    use super::{ceil_i32, stamp_extent, FaceRaster, FACE_LIMIT, STAMP_PIXELS, STAMP_WIDTH};
    use glam::Vec4;
    use proptest::prelude::*;

    /// [`FaceRaster::new`] one value at a time, as it was before its lanes (lever 45): the
    /// reference the lanes must equal bit for bit.
    fn face_one_at_a_time(e1: [f32; 2], e2: [f32; 2], dz: [f32; 2]) -> FaceRaster {
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        let inv = if det.abs() > 1e-9 && det.is_finite() {
            1.0 / det
        } else {
            0.0
        };
        let reach = [0, 1].map(|c| (e1[c].abs() + e2[c].abs()) * FACE_LIMIT);
        let ([e1x, e1y], [e2x, e2y]) = (e1, e2);
        let (a_s, b_s) = (e2y * inv, -e2x * inv);
        let (a_t, b_t) = (-e1y * inv, e1x * inv);
        let gx = a_s * dz[0] + a_t * dz[1];
        let gy = b_s * dz[0] + b_t * dz[1];
        let (a, b) = ([a_s, a_t], [b_s, b_t]);
        let r = a.map(|a| 1.0 / a);
        let flat = r.map(|r| !r.is_finite());
        let k = std::array::from_fn(|i| if flat[i] { 0.0 } else { -b[i] * r[i] });
        let w = std::array::from_fn(|i| {
            if flat[i] {
                0.0
            } else {
                FACE_LIMIT * r[i].abs()
            }
        });
        let [sw, sh] = reach.map(stamp_extent);
        let stamp = (sw <= STAMP_WIDTH && sw * sh <= STAMP_PIXELS).then_some((sw, sh));
        FaceRaster {
            inv_det: inv,
            reach,
            k,
            w,
            a,
            b,
            flat,
            stamp,
            gx,
            gy,
        }
    }

    /// Every float of a face as bits, a NaN as one value whatever its sign and payload (no
    /// comparison, `abs` or depth write can tell them apart).
    fn face_bits(f: &FaceRaster) -> Vec<u32> {
        let bits = |v: f32| if v.is_nan() { u32::MAX } else { v.to_bits() };
        let mut out: Vec<u32> = [f.inv_det, f.gx, f.gy].into_iter().map(bits).collect();
        for pair in [f.reach, f.k, f.w, f.a, f.b] {
            out.extend(pair.map(bits));
        }
        out.extend(f.flat.map(u32::from));
        let (sw, sh) = f.stamp.unwrap_or((usize::MAX, usize::MAX));
        out.extend([sw as u32, sh as u32]);
        out
    }

    fn assert_lanes_match(e1: [f32; 2], e2: [f32; 2], dz: [f32; 2]) {
        let lanes = FaceRaster::from_edges(Vec4::new(e1[0], e1[1], e2[0], e2[1]), dz);
        assert_eq!(
            face_bits(&lanes),
            face_bits(&face_one_at_a_time(e1, e2, dz)),
            "{e1:?} {e2:?} {dz:?}"
        );
    }

    /// The lanes give the scalar form's bits for faces seen square, edge-on, along an axis
    /// (`flat`), degenerate, huge, tiny, infinite and NaN.
    #[test]
    fn face_lanes_match_the_scalar_form_at_the_edges() {
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            1e-5,
            -3e-6,
            4.5,
            1e20,
            -1e20,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for &x1 in &specials {
            for &y2 in &specials {
                for &(y1, x2) in &[(0.0, 0.0), (0.3, -0.7), (f32::NAN, 1.0), (2.0, 2.0)] {
                    assert_lanes_match([x1, y1], [x2, y2], [0.25, -1.5]);
                    assert_lanes_match([y1, x1], [y2, x2], [f32::NAN, 3.0]);
                }
            }
        }
    }

    proptest! {
        /// ... and for faces of every size and direction a splat meets.
        #[test]
        fn face_lanes_match_the_scalar_form(
            e in prop::array::uniform4(-40.0f32..40.0),
            dz in prop::array::uniform2(-2.0f32..2.0),
        ) {
            assert_lanes_match([e[0], e[1]], [e[2], e[3]], dz);
        }
    }

    /// `ceil_i32` is `ceil` for every float in `i32`'s range (fractions, integers, both zeros,
    /// both ends and the floats next to them) and negative for NaN and from 2^31 up.
    #[test]
    fn ceil_i32_is_ceil_in_range_and_negative_beyond() {
        let mut values = vec![0.0f32, -0.0, 1e-45, -1e-45, f32::MIN_POSITIVE];
        for end in [2_147_483_648.0f32, -2_147_483_648.0] {
            let mut v = end;
            for _ in 0..64 {
                v = f32::from_bits(v.to_bits() - 1);
                values.push(v);
            }
        }
        values.push(-2_147_483_648.0);
        values.extend((0..40_000).map(|i| (i as f32 - 20_000.0) * 0.173));
        values.extend((0..4_000).map(|i| (i as f32 - 2_000.0) * 0.5));
        values.extend((0..112).flat_map(|i| {
            let v = 1.21f32.powi(i);
            [v, -v, v + 0.5, -v - 0.5]
        }));
        for v in values {
            assert_eq!(ceil_i32(v), v.ceil() as i32, "{v}");
        }
        for v in [
            f32::NAN,
            -f32::NAN,
            2_147_483_648.0,
            3e9,
            f32::MAX,
            f32::INFINITY,
        ] {
            assert!(ceil_i32(v) < 0, "{v}");
        }
    }

    /// The `i32` conversion gives what the plain `usize` one gives for every reach a face can
    /// have, NaN and infinity included.
    #[test]
    fn stamp_extent_matches_the_usize_conversion() {
        let mut reaches = vec![
            0.0, 1e-9, 0.25, 0.4999, 0.5, 1.0, 1.5, 1.99, 2.0, 5e5, 6e5, 1e7,
        ];
        reaches.extend([f32::INFINITY, f32::NAN, f32::MAX, f32::MIN_POSITIVE]);
        reaches.extend((0..4000).map(|i| i as f32 * 0.00137));
        for r in reaches {
            let plain = (2.0 * r).min(1e6) as usize + 1;
            assert_eq!(stamp_extent(r), plain, "reach {r}");
        }
        assert_eq!(stamp_extent(f32::NAN), 1_000_001);
        assert_eq!(stamp_extent(1.5), 4);
    }
}
