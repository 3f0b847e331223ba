//! The scanned faces' rows and their fill: one row and one pixel at a time ([`Scalar`]), or
//! eight rows' intervals and eight pixels per AVX2 vector ([`Avx2`]) where the CPU has it, chosen
//! at run time ([`with_best`]). Both write the same bytes.
//!
//! What a row is stays the scan's (`FaceRaster::scan`): the vector scan computes, for eight rows
//! at once, the operations the scalar scan does for one, in its order, lane by lane (the row's
//! `qy`, the two intervals, the clamps to the band, the `ceil` and the truncation, the row's
//! depth `z0`), so every row gets the same pixels `xa..=xb` and the same `z0`. A row's pixels are
//! then filled eight per vector: each lane's depth is the scalar loop's `z0 + gx * px` (`px` an
//! exact integer below 2^24, the product, then the sum; no fused multiply-add), tested `z <
//! buffer` ordered (false for NaN, as `<`), and written as `min(z, buffer)`, which is the select
//! `front ? z : buffer` bit for bit (MINPS answers its second operand unless the first is less;
//! lanes past the row's end get `z = +inf`, never less). Float maxima and minima against the
//! band's edges answer the bound for NaN, as `f32::max` / `f32::min` do. The pixels of the lanes
//! that won are written by [`Shade::put_lanes`]. Tested against the scalar fill on random faces
//! and on whole frames (`fill/tests.rs`).
//!
//! Why whole draws and not rows are switched: the faces' rows are short (about two pixels on
//! average in the 1000-unit 1080p frame), so a call per row across a `target_feature` boundary
//! would cost more than the row. [`with_best`] runs a limb's whole rasterised draw inside one
//! AVX2 function instead, where the scan and the fill inline; other CPUs (and other targets) run
//! the same draw with [`Scalar`]. Perspective draws only: orthographic ones keep [`Scalar`]
//! (`Splat::draw_band` says why).
//!
//! Why `unsafe`: the AVX2 function may only be called once the CPU is known to have AVX2, and
//! the vector loads and stores take pointers. This module is the crate's only `unsafe`; each
//! block says why it holds. What it buys, measured with callgrind on the bench's 1000-unit
//! 1920x1080 8-bit perspective frame, one thread (docs/benchmarks.md, "Issue 43"): the limbs'
//! rasterised draws (`Splat::draw_band`) went from 470.0 to 411.9 M instructions a frame (-12 %;
//! the scanned faces, rows found and filled, are 142 M of it now), the same pixels.

#![allow(unsafe_code)]

use super::super::pixel::Shade;
use super::face::FaceRaster;

/// Where a scanned face lies: its centre `c` on screen and depth `z` there, and the band it is
/// drawn into: rows `top..=last_y` (the first, `y0`, at the start of the band's slices), pixels
/// `0..=last_x` of rows `width` wide.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scanned {
    pub c: [f32; 2],
    pub z: f32,
    pub top: f32,
    pub last_y: f32,
    pub last_x: f32,
    pub y0: usize,
    pub width: usize,
}

/// How a scanned face's rows are found and their pixels depth-tested and drawn.
pub(super) trait FaceFill: Copy {
    /// Whether a stamp's row (`band.rs`, `pairs.rs`) is written even when none of its lanes won
    /// (the lanes that lost write back what they read), rather than skipped by a branch.
    ///
    /// Why it depends on the fill: the fill says which draws these are. The vector fill draws
    /// perspective limbs, whose rows win or lose as the picture goes, so the branch was
    /// mispredicted (~116 k times a run in the 1000-unit 1080p frame; docs/benchmarks.md, issue
    /// 43, lever 53); the scalar fill draws the orthographic limbs (and perspective ones on CPUs
    /// without AVX2 and on the web), whose stamps of one axis lose together, where skipping
    /// measured fewer instructions for no more mispredictions than writing.
    const WRITE_LOST: bool;

    /// Depth-test the pixels of `face` placed by `at` against `depth` and draw `lit` where
    /// nearer, into the band's `pixels`: what `FaceRaster::scan` visits, each pixel `px` of row
    /// `py` at depth `z0 + gx * px`.
    fn scanned<P: Shade>(
        self,
        face: &FaceRaster,
        at: Scanned,
        lit: P,
        depth: &mut [f32],
        pixels: &mut [P],
    );
}

/// One row and one pixel at a time: the fill every CPU runs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scalar;

impl FaceFill for Scalar {
    const WRITE_LOST: bool = false;

    #[inline(always)]
    fn scanned<P: Shade>(
        self,
        face: &FaceRaster,
        at: Scanned,
        lit: P,
        depth: &mut [f32],
        pixels: &mut [P],
    ) {
        scalar_face(face, at, lit, depth, pixels);
    }
}

#[inline(always)]
fn scalar_face<P: Shade>(
    face: &FaceRaster,
    at: Scanned,
    lit: P,
    depth: &mut [f32],
    pixels: &mut [P],
) {
    let Scanned {
        c,
        z,
        top,
        last_y,
        last_x,
        y0,
        width,
    } = at;
    let gx = face.gx;
    face.scan(c, z, (top, last_y), last_x, |py, xa, xb, z0| {
        let span = Span {
            at: (py - y0) * width + xa,
            x: xa,
            len: xb + 1 - xa,
            z0,
            gx,
        };
        scalar_row(span, lit, depth, pixels);
    });
}

/// One scanned row of a face: pixels `x..x + len` of the row whose pixel `x` is at `at` in the
/// band's pixels and depths; pixel `px`'s depth is `z0 + gx * px`.
#[derive(Debug, Clone, Copy)]
struct Span {
    at: usize,
    x: usize,
    len: usize,
    z0: f32,
    gx: f32,
}

/// A row one pixel at a time (a row not wholly in the band's slices is left out). The
/// WebAssembly SIMD build fills its whole quads first ([`simd128::quads`]).
#[inline(always)]
fn scalar_row<P: Shade>(span: Span, lit: P, depth: &mut [f32], pixels: &mut [P]) {
    let Span { at, x, len, z0, gx } = span;
    let (Some(d), Some(out)) = (depth.get_mut(at..at + len), pixels.get_mut(at..at + len)) else {
        return;
    };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let (d, out, x) = {
        let done = simd128::quads(d, out, x, z0, gx, lit);
        (&mut d[done..], &mut out[done..], x + done)
    };
    for (k, (d, out)) in d.iter_mut().zip(out).enumerate() {
        let z = z0 + gx * (x + k) as u32 as f32;
        let front = z < *d;
        *d = if front { z } else { *d };
        *out = if front { lit } else { *out };
    }
}

/// The WebAssembly SIMD build's row fill (the page, `web/`).
///
/// Why: left to itself, LLVM vectorised [`scalar_row`]'s loop for `+simd128` with each lane's
/// store behind a branch on a lane taken out of the compare (WebAssembly has no masked store),
/// which made the SIMD build draw voxels slower than the scalar build (docs/benchmarks.md
/// "Web"). Here a quad's four depths are one compare and one select, and the pixels four
/// selects, with no branch per pixel.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use core::arch::wasm32::*;

    use super::Shade;

    /// Depth-test and draw the leading whole quads of a row (`d` and `out` its depths and
    /// pixels, `x` its first pixel's column): each pixel's depth is the scalar loop's `z0 + gx *
    /// px` (`px` converted from the same u32, the product, then the sum), tested `z < buffer`
    /// (false for NaN) and kept as `pmin(buffer, z)`, which is that select. Returns how many
    /// pixels were done.
    #[inline(always)]
    pub(super) fn quads<P: Shade>(
        d: &mut [f32],
        out: &mut [P],
        x: usize,
        z0: f32,
        gx: f32,
        lit: P,
    ) -> usize {
        let n = d.len().min(out.len()) / 4 * 4;
        let (z0, gx, lane) = (f32x4_splat(z0), f32x4_splat(gx), u32x4(0, 1, 2, 3));
        let quads = d[..n].chunks_exact_mut(4).zip(out[..n].chunks_exact_mut(4));
        for (q, (d4, out4)) in quads.enumerate() {
            let px = u32x4_add(u32x4_splat((x + 4 * q) as u32), lane);
            let z = f32x4_add(z0, f32x4_mul(gx, f32x4_convert_u32x4(px)));
            let old = f32x4(d4[0], d4[1], d4[2], d4[3]);
            let front = i32x4_bitmask(f32x4_lt(z, old));
            if front == 0 {
                continue;
            }
            // pmin(a, b) is `b < a ? b : a`: the nearer depth where `z` won.
            let kept = f32x4_pmin(old, z);
            d4[0] = f32x4_extract_lane::<0>(kept);
            d4[1] = f32x4_extract_lane::<1>(kept);
            d4[2] = f32x4_extract_lane::<2>(kept);
            d4[3] = f32x4_extract_lane::<3>(kept);
            for (i, out) in out4.iter_mut().enumerate() {
                *out = if (front >> i) & 1 != 0 { lit } else { *out };
            }
        }
        n
    }
}

/// Eight rows' intervals and eight pixels per AVX2 vector. A value exists only where the CPU has
/// AVX2 ([`avx2_fill`] makes it after `is_x86_feature_detected!`), which is what makes its calls
/// into AVX2 code sound.
#[derive(Debug, Clone, Copy)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Avx2(());

impl FaceFill for Avx2 {
    const WRITE_LOST: bool = true;

    #[inline(always)]
    fn scanned<P: Shade>(
        self,
        face: &FaceRaster,
        at: Scanned,
        lit: P,
        depth: &mut [f32],
        pixels: &mut [P],
    ) {
        #[cfg(test)]
        FACES.with(|r| r.set(r.get() + 1));
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: an `Avx2` is only made once the CPU is known to have AVX2 (`avx2_fill`).
            unsafe { avx2::face(face, at, lit, depth, pixels) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        scalar_face(face, at, lit, depth, pixels);
    }
}

/// What runs with the best face fill this CPU has ([`with_best`]): a limb's rasterised draw.
pub(super) trait WithFill {
    type Out;
    /// Run with face fill `fill`.
    fn run<F: FaceFill>(self, fill: F) -> Self::Out;
}

#[cfg(test)]
thread_local! {
    /// Tests: draws on this thread take the scalar fill (to compare frames with both).
    static SCALAR_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: faces the vector fill was given on this thread.
    pub(super) static FACES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Tests: make draws on this thread use the scalar fill (`true`) or the best one.
#[cfg(test)]
pub(crate) fn scalar_only(on: bool) {
    SCALAR_ONLY.with(|s| s.set(on));
}

/// The AVX2 fill when this CPU has AVX2, else none.
#[inline(always)]
pub(super) fn avx2_fill() -> Option<Avx2> {
    #[cfg(test)]
    if SCALAR_ONLY.with(|s| s.get()) {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        return Some(Avx2(()));
    }
    None
}

/// Run `work` with the AVX2 fill, compiled for AVX2 as a whole, when the CPU has it; else with
/// the scalar fill.
#[inline(always)]
pub(super) fn with_best<W: WithFill>(work: W) -> W::Out {
    match avx2_fill() {
        // SAFETY: `fill` exists, so the CPU has AVX2: the precondition of code compiled for it.
        #[cfg(target_arch = "x86_64")]
        Some(fill) => unsafe { avx2::run(work, fill) },
        _ => work.run(Scalar),
    }
}

#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::super::super::convert::truncate;
    use super::super::face::{ceil_i32, in_order, FACE_LIMIT};
    use super::{scalar_face, scalar_row, Avx2, FaceRaster, Scanned, Shade, Span, WithFill};

    /// `work` compiled for AVX2: everything it calls with `#[inline(always)]` (the limb's voxel
    /// loop, [`face`], [`row`]) is compiled into this function.
    #[target_feature(enable = "avx2")]
    pub(super) fn run<W: WithFill>(work: W, fill: Avx2) -> W::Out {
        work.run(fill)
    }

    /// The vector fill of a row `span` (the module docs say why it equals the scalar one), with
    /// `lit` into the band's `depth` and `pixels`.
    ///
    /// The row's passes are checked once against the band's slices, lanes past its end
    /// included, and then read and written through pointers: a scanned row is about two pixels
    /// (one pass), and slicing each pass's eight depths and pixels apart cost about a fifth of
    /// the scanned faces' instructions (docs/benchmarks.md, issue 43, lever 13).
    ///
    /// A macro, not a function: [`face`] fills rows at two places (a face of at most eight rows,
    /// and taller ones), and a function with two callers is compiled out of line (a call per
    /// row, about a fifth more instructions for the faces); `#[inline(always)]` is not allowed
    /// with `#[target_feature]`.
    macro_rules! row {
        ($span:expr, $lit:expr, $depth:expr, $pixels:expr) => {{
            let span: Span = $span;
            let (lit, depth, pixels) = ($lit, &mut *$depth, &mut *$pixels);
            let Span { at, len, .. } = span;
            let reach = at + len.next_multiple_of(8);
            // Pixel numbers as floats are exact below 2^24, where `x + lane` equals the scalar
            // loop's conversion of `x + k`: [`face`] checks that for all its rows at once.
            if reach > depth.len() || reach > pixels.len() {
                row_near_end(span, lit, depth, pixels);
            } else {
                let pass = Pass::new(span);
                let (dp, pp) = (depth.as_mut_ptr(), pixels.as_mut_ptr());
                // Most rows are one pass (about two pixels): that pass without the loop's
                // counting.
                if (1..=8).contains(&len) {
                    // SAFETY: `at + 8 == reach <= depth.len()` and `<= pixels.len()` (`len` is
                    // 1..=8, rounded up to eight): as in the loop below.
                    let (d8, p8) = unsafe {
                        (
                            &mut *dp.add(at).cast::<[f32; 8]>(),
                            &mut *pp.add(at).cast::<[_; 8]>(),
                        )
                    };
                    pass.test_and_write(0, d8, p8, lit);
                } else {
                    let mut k = 0;
                    while k < len {
                        let a = at + k;
                        // SAFETY: `a + 8 <= reach <= depth.len()` and `<= pixels.len()` (k <
                        // len, both multiples of eight apart from `at`): eight depths and eight
                        // pixels, and no other reference to them lives while these do.
                        let (d8, p8) = unsafe {
                            (
                                &mut *dp.add(a).cast::<[f32; 8]>(),
                                &mut *pp.add(a).cast::<[_; 8]>(),
                            )
                        };
                        pass.test_and_write(k, d8, p8, lit);
                        k += 8;
                    }
                }
            }
        }};
    }

    /// The rows of `face` eight at a time, each lane the scalar scan's operations for its row
    /// (`FaceRaster::scan`), then each row's pixels by [`row`].
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn face<P: Shade>(
        face: &FaceRaster,
        at: Scanned,
        lit: P,
        depth: &mut [f32],
        pixels: &mut [P],
    ) {
        let Scanned {
            c,
            z,
            top,
            last_y,
            last_x,
            y0: band_y0,
            width,
        } = at;
        let ry = face.reach[1];
        // `(c.y - ry - 0.5).max(top)` and `(c.y + ry - 0.5).min(last_y)`: MAXSS / MINSS answer
        // their second operand for NaN, as `max` / `min` answer the bound (and either zero of
        // two equal ones, which gives the same rows).
        let ya = _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(c[1] - ry - 0.5), _mm_set_ss(top)));
        let yb = _mm_cvtss_f32(_mm_min_ss(_mm_set_ss(c[1] + ry - 0.5), _mm_set_ss(last_y)));
        if !in_order(ya, yb) {
            return;
        }
        // `yb` truncated: CVTTSS2SI answers i32::MIN where `as i32` saturates, both beyond
        // 2^24 as `usize`, where the scalar fill takes the face.
        let y1 = truncate(yb) as usize;
        // Row numbers as floats and as `i32` lanes are exact below 2^24, and so are pixel
        // numbers (every row's pixels lie within `0..=last_x`), which [`row`] then need not
        // check row by row.
        let narrow = last_x.partial_cmp(&((1 << 24) as f32)) == Some(std::cmp::Ordering::Less);
        if y1 >= 1 << 24 || !narrow {
            scalar_face(face, at, lit, depth, pixels);
            return;
        }
        // ceil(ya), 0 <= ya <= yb < 2^24 + 1: within `ceil_i32`'s range.
        let y0 = ceil_i32(ya) as usize;
        let z_x = face.gx * (0.5 - c[0]);
        // The one-pass rows' places in `i32` lanes: exact when every row's place is below 2^30
        // (rows `..=y1`, pixels below 2^24); the slices' length clamped to what `i32` holds.
        let one_pass_ok = if y1.saturating_sub(band_y0).saturating_mul(width) < 1 << 30 {
            u32::MAX
        } else {
            0
        };
        let limit_i32 = depth.len().min(pixels.len()).min(i32::MAX as usize) as i32;
        let gxv = _mm256_set1_ps(face.gx);
        // The rows `first..first + 8` (those up to `y1`): their intervals as eight lanes, then
        // each live row's pixels. A macro, not a loop alone: most faces are at most eight rows
        // (one block), and written out straight for them the block's broadcasts are used once,
        // in registers, instead of being set up before a loop and kept on the stack across it
        // (about thirty instructions a face); the loop below runs the same operations.
        macro_rules! block {
            ($first:expr) => {{
                let first: usize = $first;
                let left = _mm256_set1_ps(c[0] - 0.5);
                let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                let (cy, half) = (_mm256_set1_ps(c[1]), _mm256_set1_ps(0.5));
                let (zv, gy, zxv) = (
                    _mm256_set1_ps(z),
                    _mm256_set1_ps(face.gy),
                    _mm256_set1_ps(z_x),
                );
                let limit = _mm256_set1_ps(FACE_LIMIT);
                let sign = _mm256_set1_ps(-0.0);
                let (zero, right) = (_mm256_setzero_ps(), _mm256_set1_ps(last_x));
                let rows = _mm256_add_epi32(_mm256_set1_epi32(first as i32), lane);
                // Lanes past the face's last row are off.
                let mut ok =
                    _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(y1 as i32 + 1), rows));
                // qy = py as f32 + 0.5 - c.y
                let qy = _mm256_sub_ps(_mm256_add_ps(_mm256_cvtepi32_ps(rows), half), cy);
                let mut lo = _mm256_set1_ps(f32::NEG_INFINITY);
                let mut hi = _mm256_set1_ps(f32::INFINITY);
                for i in 0..2 {
                    if face.flat[i] {
                        // |b qy| <= FACE_LIMIT, false for NaN.
                        let v =
                            _mm256_andnot_ps(sign, _mm256_mul_ps(_mm256_set1_ps(face.b[i]), qy));
                        ok = _mm256_and_ps(ok, _mm256_cmp_ps::<_CMP_LE_OQ>(v, limit));
                    } else {
                        let m = _mm256_mul_ps(_mm256_set1_ps(face.k[i]), qy);
                        let w = _mm256_set1_ps(face.w[i]);
                        let (l, h) = (_mm256_sub_ps(m, w), _mm256_add_ps(m, w));
                        lo = _mm256_blendv_ps(lo, l, _mm256_cmp_ps::<_CMP_GT_OQ>(l, lo));
                        hi = _mm256_blendv_ps(hi, h, _mm256_cmp_ps::<_CMP_LT_OQ>(h, hi));
                    }
                }
                // (left + lo).max(0.0) and (left + hi).min(last_x): MAXPS / MINPS answer their
                // second operand for NaN, as `max` / `min` answer the number.
                let xa = _mm256_max_ps(_mm256_add_ps(left, lo), zero);
                let xb = _mm256_min_ps(_mm256_add_ps(left, hi), right);
                ok = _mm256_and_ps(ok, _mm256_cmp_ps::<_CMP_LE_OQ>(xa, xb));
                // ceil(xa) as truncation plus one where that was below; xb truncated.
                let ta = _mm256_cvttps_epi32(xa);
                let below = _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_cvtepi32_ps(ta), xa);
                let xa = _mm256_sub_epi32(ta, _mm256_castps_si256(below));
                let xb = _mm256_cvttps_epi32(xb);
                let empty = _mm256_castsi256_ps(_mm256_cmpgt_epi32(xa, xb));
                ok = _mm256_andnot_ps(empty, ok);
                // z + gy qy + z_x
                let z0 = _mm256_add_ps(_mm256_add_ps(zv, _mm256_mul_ps(gy, qy)), zxv);
                let mut live = _mm256_movemask_ps(ok) as u32;
                if live != 0 {
                    // A row of at most eight pixels whose pass lies inside the band's slices
                    // (most rows) is one pass, its place, first pixel and length worked out
                    // here for the eight rows at once (`row!`'s `at`, and `Pass`'s pixel number
                    // and live lane count: integers below 2^24, so the same floats); other
                    // rows go through `row!`.
                    let len = _mm256_sub_epi32(_mm256_add_epi32(xb, _mm256_set1_epi32(1)), xa);
                    let at = _mm256_add_epi32(
                        _mm256_mullo_epi32(
                            _mm256_sub_epi32(rows, _mm256_set1_epi32(band_y0 as i32)),
                            _mm256_set1_epi32(width as i32),
                        ),
                        xa,
                    );
                    // at + 8 <= limit, and 1 <= len <= 8 (len >= 1 on a live lane).
                    let fits = _mm256_cmpgt_epi32(
                        _mm256_set1_epi32(limit_i32),
                        _mm256_add_epi32(at, _mm256_set1_epi32(8)),
                    );
                    let short = _mm256_cmpgt_epi32(_mm256_set1_epi32(9), len);
                    // The live one-pass rows; their places and lengths zero on the other lanes.
                    let one_pass_rows = _mm256_and_si256(
                        _mm256_and_si256(fits, short),
                        _mm256_and_si256(
                            _mm256_castps_si256(ok),
                            _mm256_set1_epi32(one_pass_ok as i32),
                        ),
                    );
                    let single = _mm256_movemask_ps(_mm256_castsi256_ps(one_pass_rows)) as u32;
                    let at = _mm256_and_si256(at, one_pass_rows);
                    let len =
                        _mm256_and_ps(_mm256_cvtepi32_ps(len), _mm256_castsi256_ps(one_pass_rows));
                    let (mut xas, mut xbs, mut z0s) = ([0i32; 8], [0i32; 8], [0f32; 8]);
                    let (mut ats, mut xfs, mut lens) = ([0i32; 8], [0f32; 8], [0f32; 8]);
                    // SAFETY: each array holds eight lanes; unaligned stores.
                    unsafe {
                        _mm256_storeu_si256(xas.as_mut_ptr().cast(), xa);
                        _mm256_storeu_si256(xbs.as_mut_ptr().cast(), xb);
                        _mm256_storeu_ps(z0s.as_mut_ptr(), z0);
                        _mm256_storeu_si256(ats.as_mut_ptr().cast(), at);
                        _mm256_storeu_ps(xfs.as_mut_ptr(), _mm256_cvtepi32_ps(xa));
                        _mm256_storeu_ps(lens.as_mut_ptr(), len);
                    }
                    // The one-pass rows by a fixed pattern, not a loop over the live rows: a
                    // face's row count is the picture's data (1-8, most often 2-6), and the
                    // loop's exit was mispredicted about once a face (~400 k times a run;
                    // docs/benchmarks.md, issue 43, lever 54). Lanes 0-3 always, lanes 4-7
                    // when one of them is live (a third of the faces); a lane that is not a
                    // live one-pass row is a pass at the band's place 0 with no live pixel
                    // (length 0: every depth +inf), which writes back what it reads.
                    macro_rules! pass {
                        ($k:expr) => {{
                            let k: usize = $k;
                            let at = ats[k] as usize;
                            // SAFETY: `0 <= at` and `at + 8 <= limit`, the length of both
                            // slices, on a one-pass row (`fits`, exact in `i32`:
                            // `one_pass_ok`), and `at == 0` on the others, below that row's
                            // place (`single != 0`): eight depths and eight pixels, and no
                            // other reference to them lives while these do.
                            let (d8, p8) = unsafe {
                                (
                                    &mut *depth.as_mut_ptr().add(at).cast::<[f32; 8]>(),
                                    &mut *pixels.as_mut_ptr().add(at).cast::<[_; 8]>(),
                                )
                            };
                            one_pass(z0s[k], gxv, xfs[k], lens[k], d8, p8, lit);
                        }};
                    }
                    if single != 0 {
                        pass!(0);
                        pass!(1);
                        pass!(2);
                        pass!(3);
                        if single >> 4 != 0 {
                            pass!(4);
                            pass!(5);
                            pass!(6);
                            pass!(7);
                        }
                    }
                    // The other live rows (about one block in a hundred has one).
                    live &= !single;
                    while live != 0 {
                        let k = live.trailing_zeros() as usize;
                        live &= live - 1;
                        // Both ends are within 0..=last_x on a live lane.
                        let (xa, xb) = (xas[k] as usize, xbs[k] as usize);
                        let span = Span {
                            at: (first + k - band_y0) * width + xa,
                            x: xa,
                            len: xb + 1 - xa,
                            z0: z0s[k],
                            gx: face.gx,
                        };
                        // `xb <= last_x < 2^24` (checked above): what `row` needs of its
                        // pixels.
                        row!(span, lit, depth, pixels);
                    }
                }
            }};
        }
        if y0 > y1 {
            return;
        }
        if y1 - y0 < 8 {
            block!(y0);
            return;
        }
        let mut first = y0;
        while first <= y1 {
            block!(first);
            first += 8;
        }
    }

    /// [`row`] where the row's last eight-lane pass would reach past the band's slices: each
    /// pass sliced and checked, the band's last pixels one at a time.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn row_near_end<P: Shade>(span: Span, lit: P, depth: &mut [f32], pixels: &mut [P]) {
        let Span { at, x, len, z0, gx } = span;
        let end = at + len;
        // Pixel numbers as floats are exact below 2^24, where `x + lane` equals the scalar
        // loop's conversion of `x + k`.
        if end > depth.len() || end > pixels.len() || x + len > 1 << 24 {
            scalar_row(span, lit, depth, pixels);
            return;
        }
        let pass = Pass::new(span);
        let mut k = 0;
        while k < len {
            let a = at + k;
            let (Some(d8), Some(p8)) = (depth.get_mut(a..a + 8), pixels.get_mut(a..a + 8)) else {
                // The band's last pixels: the rest of the row one at a time.
                let rest = Span {
                    at: a,
                    x: x + k,
                    len: len - k,
                    z0,
                    gx,
                };
                scalar_row(rest, lit, depth, pixels);
                return;
            };
            let (Ok(d8), Ok(p8)) = (<&mut [f32; 8]>::try_from(d8), <&mut [P; 8]>::try_from(p8))
            else {
                return;
            };
            pass.test_and_write(k, d8, p8, lit);
            k += 8;
        }
    }

    /// A row of `len` (1..=8) pixels from pixel number `x` filled in one pass over its eight
    /// depths `d8` and pixels `p8`: [`Pass::test_and_write`] of its first pass, with the pixel
    /// number and lane count given as floats (both integers below 2^24: the same values it
    /// converts), the depths `z0 + gx * (x + lane)`, +inf past the row's end.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn one_pass<P: Shade>(
        z0: f32,
        gx: __m256,
        x: f32,
        len: f32,
        d8: &mut [f32; 8],
        p8: &mut [P; 8],
        lit: P,
    ) {
        let lanes = _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
        let px = _mm256_add_ps(_mm256_set1_ps(x), lanes);
        let z = _mm256_add_ps(_mm256_set1_ps(z0), _mm256_mul_ps(gx, px));
        let far = _mm256_set1_ps(f32::INFINITY);
        let live = _mm256_set1_ps(len);
        let z = _mm256_blendv_ps(far, z, _mm256_cmp_ps::<_CMP_LT_OQ>(lanes, live));
        write_pass(z, d8, p8, lit);
    }

    /// Depth-test the eight depths `z` of a pass against `d8` and write the nearer depths and,
    /// where `z` won, `lit` into `p8`.
    ///
    /// Written whether or not any lane won, without a branch: which rows win is the picture's
    /// data (about four in ten one-pass rows lose every lane in the 1000-unit 1080p perspective
    /// frame), so a branch on it was mispredicted ~150 k times a run (docs/benchmarks.md, issue
    /// 43, lever 52). A lane that lost writes back the depth and pixel it read (`min(z, old)` is
    /// `old` bit for bit unless `z < old`; [`Shade::put_lanes`] keeps unset lanes), and the
    /// eight depths and pixels are the band's, drawn by this thread alone.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn write_pass<P: Shade>(z: __m256, d8: &mut [f32; 8], p8: &mut [P; 8], lit: P) {
        // SAFETY: `d8` is eight floats; unaligned load.
        let old = unsafe { _mm256_loadu_ps(d8.as_ptr()) };
        let front = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(z, old)) as u8;
        // SAFETY: as the load; unaligned store.
        unsafe { _mm256_storeu_ps(d8.as_mut_ptr(), _mm256_min_ps(z, old)) };
        P::put_lanes(p8, front, lit);
    }

    /// One row's eight-lane passes, shared by [`row`] and [`row_near_end`]: what a pass's
    /// depths are and how it tests and writes them.
    struct Pass {
        /// Lane numbers 0..8.
        lanes: __m256,
        z0: __m256,
        gx: __m256,
        /// The row's first pixel number.
        x: usize,
        len: usize,
    }

    impl Pass {
        #[target_feature(enable = "avx2")]
        #[inline]
        fn new(span: Span) -> Pass {
            Pass {
                lanes: _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0),
                z0: _mm256_set1_ps(span.z0),
                gx: _mm256_set1_ps(span.gx),
                x: span.x,
                len: span.len,
            }
        }

        /// The pass from the row's pixel `k` on, over its eight depths `d8` and pixels `p8`:
        /// depths `z0 + gx * (x + k + lane)` (the scalar loop's, lane by lane), +inf past the
        /// row's end (never less than the buffer); where a lane's depth is nearer, its depth
        /// and `lit` are written.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn test_and_write<P: Shade>(&self, k: usize, d8: &mut [f32; 8], p8: &mut [P; 8], lit: P) {
            // Both below 2^24 (`row` checks `x + len`), so through `u32`: the same floats, from
            // one conversion each (from `usize` the top bit costs a test and a second path).
            let live = _mm256_set1_ps((self.len - k).min(8) as u32 as f32);
            let px = _mm256_add_ps(_mm256_set1_ps((self.x + k) as u32 as f32), self.lanes);
            let z = _mm256_add_ps(self.z0, _mm256_mul_ps(self.gx, px));
            let far = _mm256_set1_ps(f32::INFINITY);
            let z = _mm256_blendv_ps(far, z, _mm256_cmp_ps::<_CMP_LT_OQ>(self.lanes, live));
            write_pass(z, d8, p8, lit);
        }
    }
}
