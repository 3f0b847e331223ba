//! Vector span kernels, chosen at run time from the CPU's features.
//!
//! One release binary must run on plain x86-64 and still use AVX2 where the CPU has it, so the
//! kernel is a `#[target_feature(enable = "avx2,popcnt")]` function called only after
//! `is_x86_feature_detected!` has found both (every AVX2 CPU has `popcnt`; with it a kernel's
//! power-of-two tests of the texture's size are one instruction each instead of a dozen, per
//! call: the 13-unit 360x240 bench frame, whose terrain spans are a group or two, drew its
//! terrain in 8.615 -> 8.555 M instructions); elsewhere the span loop's scalar code runs. The kernel
//! computes exactly what the scalar loop does, in integers where that does (the same wrapping
//! 16.16 steps, `(c * l) >> 8` as a high-half multiply of `c << 8` by `l`, the clamp to 255 as
//! the saturating pack) and with the same float operations in the same order for depth, so both
//! give identical pixels and depths (tested with the kernel switched off).
//!
//! The WebAssembly build with SIMD (`+simd128`, chosen when compiling: a browser that lacks it
//! gets the scalar build, `web/page/loader.js`) has its own 8888 and 565 kernels, `simd128`,
//! with the same contract.
//!
//! Why by hand: written as a branch-free 8-pixel loop and compiled for AVX2, the compiler still
//! did not vectorise the texel gather or the multiply (no `vpgatherdd` in the binary, no faster;
//! docs/benchmarks-history.md, the llvmpipe levers). This module is the crate's only `unsafe`: the AVX2 function call and its
//! gather, loads and stores, each with its reason.

#![allow(unsafe_code)]

// Only the x86-64 kernel reads the switch (other targets, e.g. wasm, have no kernel to switch).
#[cfg(any(target_arch = "x86_64", test))]
use std::sync::atomic::{AtomicBool, Ordering};

use modex::{Argb8888, Rgb565};

use super::light::SHADE_LEVELS;
use super::span::{DepthStep, Run};

/// Whether vector kernels may be used (tests switch them off to compare with the scalar loop).
#[cfg(any(target_arch = "x86_64", test))]
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Allow or forbid the vector kernels (for tests: both must give the same pixels).
#[cfg(test)]
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the AVX2 kernels run on this CPU (with `popcnt`, which they are compiled for too).
#[inline(always)]
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        ENABLED.load(Ordering::Relaxed)
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

/// A WebAssembly kernel's run over the first `len` pixels: those kernels fill one segment at a
/// time, so a whole span's call (a depth anchor to keep) is declined (0 pixels done) and the
/// span loop hands them its segments one by one.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn one_segment<P>(
    px: &mut [P],
    depth: &mut [f32],
    len: usize,
    step: DepthStep,
    kernel: impl FnOnce(&mut [P], &mut [f32]) -> usize,
) -> usize {
    if step.anchor.is_some() {
        return 0;
    }
    let len = len.min(px.len()).min(depth.len());
    kernel(&mut px[..len], &mut depth[..len])
}

/// Pixels per step of the AVX2 kernels: one register of 32-bit lanes.
pub const LANES: usize = 8;

// An affine span's segments start on a group of lanes (`Anchors::at` is asked at each group's
// first pixel only).
const _: () = assert!(super::span::SEGMENT % LANES == 0);

/// Fill the leading whole groups of [`LANES`] pixels of a depth-tested, depth-written run of
/// RGBA texels (`r | g << 8 | b << 16 | a << 24`; a power-of-two `size`, or a run inside the
/// texture: [`lanes_to_do`]) multiplied by the light into 8888 pixels. Returns the pixels done;
/// `run` and `z` are advanced past them. Does nothing (returns 0) without AVX2 or when the
/// texture's index range does not fit the gather. The WebAssembly SIMD build fills whole groups
/// of four pixels of any run instead (`simd128`).
#[inline(always)]
// Eight arguments, allowed: see `indexed_run`.
#[allow(clippy::too_many_arguments)]
pub fn argb8888_run(
    texels: &[u32],
    size: (u32, u32),
    run: &mut Run,
    px: &mut [Argb8888],
    depth: &mut [f32],
    len: usize,
    z: &mut f32,
    step: DepthStep,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let (n, done) = lanes_to_do(texels, size, run, len, px.len().min(depth.len()));
        if n == 0 {
            return 0;
        }
        let (px, depth) = (&mut px[..n], &mut depth[..n]);
        // SAFETY: the CPU has AVX2 (`lanes_to_do` checked), the precondition of code compiled
        // for it.
        unsafe { avx2::argb8888_run(texels, size, run, px, depth, done, z, step) };
        done
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        one_segment(px, depth, len, step, |px, depth| {
            simd128::argb8888_run(texels, size, run, px, depth, z, step.dz)
        })
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    {
        let _ = (texels, size, run, px, depth, len, z, step);
        0
    }
}

/// [`argb8888_run`] into 565 pixels (the same lit channels, rounded as `Rgb565::from_rgba`).
#[inline(always)]
// Eight arguments, allowed: see `indexed_run`.
#[allow(clippy::too_many_arguments)]
pub fn rgb565_run(
    texels: &[u32],
    size: (u32, u32),
    run: &mut Run,
    px: &mut [Rgb565],
    depth: &mut [f32],
    len: usize,
    z: &mut f32,
    step: DepthStep,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let (n, done) = lanes_to_do(texels, size, run, len, px.len().min(depth.len()));
        if n == 0 {
            return 0;
        }
        let (px, depth) = (&mut px[..n], &mut depth[..n]);
        // SAFETY: the CPU has AVX2 (`lanes_to_do` checked), the precondition of code compiled
        // for it.
        unsafe { avx2::rgb565_run(texels, size, run, px, depth, done, z, step) };
        done
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        one_segment(px, depth, len, step, |px, depth| {
            simd128::rgb565_run(texels, size, run, px, depth, z, step.dz)
        })
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    {
        let _ = (texels, size, run, px, depth, len, z, step);
        0
    }
}

/// Fill the leading whole groups of [`LANES`] pixels of a depth-tested, depth-written run of
/// palette-index texels (`size` as in [`argb8888_run`]) lit through the shade table `colormap`
/// (`SHADE_LEVELS` rows of 256 indices) into 8-bit pixels, as `Colormap::put` does: pixel =
/// `colormap[level_of(l >> 16) << 8 | texel]` (the shade table a word per index: `ShadeTable::colormap_words`). Returns the pixels done; `run` and `z` are advanced
/// past them. Does nothing (returns 0) without AVX2, when the texture is smaller than 4 texels
/// (the gather reads the aligned 4 bytes holding each texel) or when the table is short.
#[inline(always)]
// Eight arguments, allowed: they are the scalar loop's state one for one (the level's texels and
// size, the shade table, the run, the span's pixels and depths, the depth and its step), and the
// AVX2 kernel behind this is not inlined into its caller (a `target_feature` boundary), so a
// struct would be built in memory only to be taken apart again, once per run of a few pixels.
#[allow(clippy::too_many_arguments)]
pub fn indexed_run(
    texels: &[u8],
    size: (u32, u32),
    colormap: &[u32],
    run: &mut Run,
    px: &mut [u8],
    depth: &mut [f32],
    len: usize,
    z: &mut f32,
    step: DepthStep,
) -> usize {
    let (n, done) = lanes_to_do(texels, size, run, len, px.len().min(depth.len()));
    // Every texel and table index lies in an aligned 4-byte word wholly inside its slice: a
    // texture of a multiple of 4 texels (every power of two from 4 on) and the full table are
    // multiples of 4 bytes.
    if n == 0 || texels.len() < 4 || texels.len() % 4 != 0 || colormap.len() < SHADE_LEVELS * 256 {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: the CPU has AVX2 (`lanes_to_do` checked), the precondition of code compiled
        // for it.
        unsafe {
            avx2::indexed_run(
                texels,
                size,
                &colormap[..SHADE_LEVELS * 256],
                run,
                &mut px[..n],
                &mut depth[..n],
                done,
                z,
                step,
            )
        };
        done
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (run, z, step, done);
        0
    }
}

/// How many leading pixels an AVX2 kernel may fill of a run of `len` pixels whose slices hold
/// `room` (at least `len`), as (pixels its lanes cover, pixels of the run done): whole groups of
/// [`LANES`], the run's last partial group too where `room` holds its lanes (the lanes past
/// `len` are then rewritten unchanged); (0, 0) when it must not run: no AVX2, or a texture whose
/// indices would not all be inside `texels` or fit the gather's signed 32-bit indices.
///
/// A power-of-two texture wraps by masking, so any run will do. Any other size (the minigun's
/// skin) takes the kernel only when the run's texel coordinates stay inside the texture over all
/// the lanes the kernel fills: then the scalar loop's wrap does nothing, the kernel needs no
/// mask ([`coord_mask`]), and the coordinates being linear, both ends inside means every pixel is.
#[inline(always)]
fn lanes_to_do<T>(
    texels: &[T],
    (tw, th): (u32, u32),
    run: &Run,
    len: usize,
    room: usize,
) -> (usize, usize) {
    let len = len.min(room);
    let whole = len / LANES * LANES;
    let all = len.div_ceil(LANES) * LANES;
    if all == 0
        || (tw as u64 * th as u64) != texels.len() as u64
        || texels.len() > i32::MAX as usize
    {
        return (0, 0);
    }
    let pow2 = tw.is_power_of_two() && th.is_power_of_two();
    let inside = |n: usize| run_inside(run.u, run.du, tw, n) && run_inside(run.v, run.dv, th, n);
    let n = if all <= room && (pow2 || inside(all)) {
        all
    } else if whole > 0 && (pow2 || inside(whole)) {
        whole
    } else {
        return (0, 0);
    };
    if avx2() {
        (n, n.min(len))
    } else {
        (0, 0)
    }
}

/// Whether the 16.16 coordinate `c`, stepped `n - 1` times by `d`, stays in `0..size` texels at
/// both ends (exactly, in 64 bits: no step wraps when both ends are inside).
#[inline(always)]
fn run_inside(c: i32, d: i32, size: u32, n: usize) -> bool {
    let end = (size as i64) << 16;
    let last = c as i64 + d as i64 * (n as i64 - 1);
    (0..end).contains(&(c as i64)) && (0..end).contains(&last)
}

/// The mask a kernel applies to a texel column or row of a texture `size` texels wide or high:
/// `size - 1` for a power of two (the scalar loop's wrap), none (all ones) otherwise, where
/// [`lanes_to_do`] has checked that every coordinate is inside (AVX2), or each lane outside is
/// wrapped on its own (`simd128`).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[inline(always)]
fn coord_mask(size: u32) -> i32 {
    if size.is_power_of_two() {
        (size - 1) as i32
    } else {
        -1
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use modex::{Argb8888, Rgb565};

    use super::{coord_mask, DepthStep, Run, LANES};
    use crate::raster::light::{LIGHT_MAX, LIGHT_PER_LEVEL, SHADE_LEVELS};

    /// The per-run constants of the lit-texel computation.
    struct Lit {
        du8: __m256i,
        dv8: __m256i,
        dl8: __m256i,
        umask: __m256i,
        vmask: __m256i,
        width: __m256i,
        lmax: __m256i,
        alpha_one: __m256i,
    }

    impl Lit {
        #[target_feature(enable = "avx2,popcnt")]
        fn new(run: &Run, (tw, th): (u32, u32)) -> Lit {
            let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            let steps = |d: i32| _mm256_mullo_epi32(lane, _mm256_set1_epi32(d));
            Lit {
                du8: steps(run.du),
                dv8: steps(run.dv),
                dl8: steps(run.dl),
                umask: _mm256_set1_epi32(coord_mask(tw)),
                vmask: _mm256_set1_epi32(coord_mask(th)),
                width: _mm256_set1_epi32(tw as i32),
                lmax: _mm256_set1_epi32(LIGHT_MAX),
                // Alpha is not lit: its multiplier is 256, and (a << 8) * 256 >> 16 = a.
                alpha_one: _mm256_set1_epi32(256 << 16),
            }
        }

        /// The next [`LANES`] texels of `run`, lit: bytes r, g, b, a per pixel, each channel
        /// `min(255, (c * l) >> 8)` and alpha as stored, exactly as `TrueColor::put_lit`. Steps
        /// the run past them.
        #[target_feature(enable = "avx2,popcnt")]
        fn next(&self, texels: &[u32], run: &mut Run) -> __m256i {
            let zero = _mm256_setzero_si256();
            let u = _mm256_add_epi32(_mm256_set1_epi32(run.u), self.du8);
            let v = _mm256_add_epi32(_mm256_set1_epi32(run.v), self.dv8);
            let l = _mm256_add_epi32(_mm256_set1_epi32(run.l), self.dl8);
            // texel((u >> 16) & (tw - 1), (v >> 16) & (th - 1)), as `span::texel::<true>`.
            let col = _mm256_and_si256(_mm256_srai_epi32(u, 16), self.umask);
            let row = _mm256_and_si256(_mm256_srai_epi32(v, 16), self.vmask);
            let index = _mm256_add_epi32(_mm256_mullo_epi32(row, self.width), col);
            // SAFETY: every index is below tw * th == texels.len() <= i32::MAX (the masks above
            // and `lanes_to_do`), so each lane reads inside `texels`.
            let t = unsafe { _mm256_i32gather_epi32::<4>(texels.as_ptr() as *const i32, index) };
            // light >> 16 clamped to 0..=LIGHT_MAX, as `Multiply::put`.
            let li = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(l, 16), zero), self.lmax);
            // Per pixel the 16-bit multipliers [l, l, l, 256] for channels r, g, b, a.
            let ll = _mm256_or_si256(li, _mm256_slli_epi32(li, 16));
            let la = _mm256_or_si256(li, self.alpha_one);
            let m_lo = _mm256_unpacklo_epi32(ll, la);
            let m_hi = _mm256_unpackhi_epi32(ll, la);
            // Channels widened to 16 bits and shifted up by 8; the high half of the product is
            // (c * l) >> 8, at most 509, so the saturating pack is the clamp to 255.
            let c_lo = _mm256_slli_epi16(_mm256_unpacklo_epi8(t, zero), 8);
            let c_hi = _mm256_slli_epi16(_mm256_unpackhi_epi8(t, zero), 8);
            let step = LANES as i32;
            run.u = run.u.wrapping_add(run.du.wrapping_mul(step));
            run.v = run.v.wrapping_add(run.dv.wrapping_mul(step));
            run.l = run.l.wrapping_add(run.dl.wrapping_mul(step));
            _mm256_packus_epi16(
                _mm256_mulhi_epu16(c_lo, m_lo),
                _mm256_mulhi_epu16(c_hi, m_hi),
            )
        }

        /// Step the run past [`LANES`] pixels that all failed the depth test, as [`Lit::next`]
        /// steps it, without fetching or lighting their texels.
        #[inline(always)]
        fn skip(run: &mut Run) {
            let step = LANES as i32;
            run.u = run.u.wrapping_add(run.du.wrapping_mul(step));
            run.v = run.v.wrapping_add(run.dv.wrapping_mul(step));
            run.l = run.l.wrapping_add(run.dl.wrapping_mul(step));
        }
    }

    /// Depth test and write of [`LANES`] pixels, the first `valid` of them the run's: the new
    /// depths one pixel after the other from `z`, as the scalar loop accumulates them, and
    /// +inf past `valid` (never less than the buffer, and `min(inf, old)` is `old`, NaN too, so
    /// those depths are written back unchanged); returns the lanes that passed (`z < buffer`,
    /// false for NaN) as all-ones 32-bit masks.
    #[target_feature(enable = "avx2,popcnt")]
    fn depth_test(z8: &mut [f32], z: &mut f32, dz: f32, valid: usize) -> __m256 {
        let mut zs = [0f32; LANES];
        for zk in &mut zs {
            *zk = *z;
            *z += dz;
        }
        let mut zb = [0f32; LANES];
        zb.copy_from_slice(&z8[..LANES]);
        // SAFETY: `zs` and `zb` hold LANES floats each; unaligned loads and stores.
        unsafe {
            let mut zn = _mm256_loadu_ps(zs.as_ptr());
            if valid < LANES {
                // Lanes past the run: +inf (a blend, so the array above stays in registers).
                let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                let past = _mm256_cmpgt_epi32(lane, _mm256_set1_epi32(valid as i32 - 1));
                let inf = _mm256_set1_ps(f32::INFINITY);
                zn = _mm256_blendv_ps(zn, inf, _mm256_castsi256_ps(past));
            }
            let old = _mm256_loadu_ps(zb.as_ptr());
            let hit = _mm256_cmp_ps::<_CMP_LT_OQ>(zn, old);
            // `min` is the blend `hit ? zn : old` bit for bit (MINPS answers its second operand
            // unless the first is less, NaN included). Written as the blend, LLVM turned the
            // load-blend-store into a masked store (`vmaskmovps`), which AMD's Zen cores run
            // slowly: 33 % of the 565 kernel's samples on front-to-back overdraw (round 8).
            _mm256_storeu_ps(zb.as_mut_ptr(), _mm256_min_ps(zn, old));
            z8[..LANES].copy_from_slice(&zb);
            hit
        }
    }

    /// The 8888 kernel: `px.len() == depth.len()`, a multiple of [`LANES`]; the texture checked
    /// by `lanes_to_do`.
    #[target_feature(enable = "avx2,popcnt")]
    // Eight arguments, allowed: see the dispatcher `super::indexed_run`.
    #[allow(clippy::too_many_arguments)]
    pub fn argb8888_run(
        texels: &[u32],
        size: (u32, u32),
        run: &mut Run,
        px: &mut [Argb8888],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) {
        let start = *run;
        let lit = Lit::new(run, size);
        // Bytes r, g, b, a of each pixel to b, g, r, a (0xAARRGGBB in memory).
        let swap = _mm256_setr_epi8(
            2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15, //
            2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15,
        );
        let mut anchors = step.anchors();
        for (g, (p8, z8)) in px
            .chunks_exact_mut(LANES)
            .zip(depth.chunks_exact_mut(LANES))
            .enumerate()
        {
            if let Some(z0) = anchors.at(g * LANES) {
                *z = z0;
            }
            // Depth first: a block hidden behind nearer pixels (front-to-back overdraw) costs
            // no gather, no light and no pixel write.
            let hit = depth_test(z8, z, step.dz, (len - g * LANES).min(LANES));
            if _mm256_movemask_ps(hit) == 0 {
                Lit::skip(run);
                continue;
            }
            let color = _mm256_shuffle_epi8(lit.next(texels, run), swap);
            let mut old = [0u32; LANES];
            for (o, p) in old.iter_mut().zip(p8.iter()) {
                *o = p.0;
            }
            // SAFETY: `old` holds LANES u32s; unaligned load and store.
            unsafe {
                let ov = _mm256_loadu_si256(old.as_ptr() as *const __m256i);
                let out = _mm256_blendv_epi8(ov, color, _mm256_castps_si256(hit));
                _mm256_storeu_si256(old.as_mut_ptr() as *mut __m256i, out);
            }
            for (p, o) in p8.iter_mut().zip(old) {
                *p = Argb8888(o);
            }
        }
        *run = start.stepped(len);
    }

    /// The 565 kernel, same preconditions as [`argb8888_run`].
    #[target_feature(enable = "avx2,popcnt")]
    // Eight arguments, allowed: see the dispatcher `super::indexed_run`.
    #[allow(clippy::too_many_arguments)]
    pub fn rgb565_run(
        texels: &[u32],
        size: (u32, u32),
        run: &mut Run,
        px: &mut [Rgb565],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) {
        let start = *run;
        let lit = Lit::new(run, size);
        let byte = _mm256_set1_epi32(0xff);
        let half = _mm256_set1_epi32(127);
        let one = _mm256_set1_epi32(1);
        // (v * max + 127) / 255 as `Rgb565::from_rgba` rounds: x / 255 == (x + 1 + (x >> 8)) >> 8
        // for every x below 65535 (here x <= 255 * 63 + 127).
        let narrow = |v: __m256i, shift: i32| {
            let x = match shift {
                5 => _mm256_sub_epi32(_mm256_slli_epi32(v, 5), v),
                _ => _mm256_sub_epi32(_mm256_slli_epi32(v, 6), v),
            };
            let x = _mm256_add_epi32(x, half);
            _mm256_srli_epi32(
                _mm256_add_epi32(_mm256_add_epi32(x, one), _mm256_srli_epi32(x, 8)),
                8,
            )
        };
        let mut anchors = step.anchors();
        for (g, (p8, z8)) in px
            .chunks_exact_mut(LANES)
            .zip(depth.chunks_exact_mut(LANES))
            .enumerate()
        {
            if let Some(z0) = anchors.at(g * LANES) {
                *z = z0;
            }
            // Depth first, as in the 8888 kernel.
            let hit = depth_test(z8, z, step.dz, (len - g * LANES).min(LANES));
            if _mm256_movemask_ps(hit) == 0 {
                Lit::skip(run);
                continue;
            }
            let hit = _mm256_castps_si256(hit);
            let c = lit.next(texels, run);
            let r = narrow(_mm256_and_si256(c, byte), 5);
            let g = narrow(_mm256_and_si256(_mm256_srli_epi32(c, 8), byte), 6);
            let b = narrow(_mm256_and_si256(_mm256_srli_epi32(c, 16), byte), 5);
            let color = _mm256_or_si256(
                _mm256_or_si256(_mm256_slli_epi32(r, 11), _mm256_slli_epi32(g, 5)),
                b,
            );
            let mut old = [0u32; LANES];
            for (o, p) in old.iter_mut().zip(p8.iter()) {
                *o = p.0 as u32;
            }
            // SAFETY: `old` holds LANES u32s; unaligned load and store.
            unsafe {
                let ov = _mm256_loadu_si256(old.as_ptr() as *const __m256i);
                let out = _mm256_blendv_epi8(ov, color, hit);
                _mm256_storeu_si256(old.as_mut_ptr() as *mut __m256i, out);
            }
            for (p, o) in p8.iter_mut().zip(old) {
                *p = Rgb565(o as u16);
            }
        }
        *run = start.stepped(len);
    }

    // The 8-bit kernel finds the shade row by a shift.
    const _: () = assert!(LIGHT_PER_LEVEL > 0 && LIGHT_PER_LEVEL & (LIGHT_PER_LEVEL - 1) == 0);

    /// The bytes at `index` (each lane below `bytes.len()`, which is a multiple of 4) of `bytes`,
    /// one per 32-bit lane: the aligned 4-byte word holding each is gathered and shifted down,
    /// so no lane reads past the slice (AVX2 has no byte gather).
    #[target_feature(enable = "avx2,popcnt")]
    fn gather_bytes(bytes: &[u8], index: __m256i) -> __m256i {
        let word = _mm256_andnot_si256(_mm256_set1_epi32(3), index);
        let shift = _mm256_slli_epi32(_mm256_and_si256(index, _mm256_set1_epi32(3)), 3);
        // SAFETY: each lane's word offset is `index & !3`, and `index < bytes.len()`, a multiple
        // of 4, so the 4 bytes read at it are inside `bytes` (the callers' checks).
        let w = unsafe { _mm256_i32gather_epi32::<1>(bytes.as_ptr() as *const i32, word) };
        _mm256_and_si256(_mm256_srlv_epi32(w, shift), _mm256_set1_epi32(0xff))
    }

    /// The low byte of each 32-bit lane, in lane order, as the 8 bytes of a `u64`.
    #[target_feature(enable = "avx2,popcnt")]
    fn low_bytes(v: __m256i) -> u64 {
        let pick = _mm256_setr_epi8(
            0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, //
            0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        );
        let packed = _mm256_permutevar8x32_epi32(
            _mm256_shuffle_epi8(v, pick),
            _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1),
        );
        _mm_cvtsi128_si64(_mm256_castsi256_si128(packed)) as u64
    }

    /// The 8-bit kernel, same preconditions as [`argb8888_run`] plus those of
    /// [`super::indexed_run`]: `texels.len() >= 4`, `colormap.len() == SHADE_LEVELS * 256`.
    #[target_feature(enable = "avx2,popcnt")]
    // Eight arguments, allowed: see the dispatcher `super::indexed_run`.
    #[allow(clippy::too_many_arguments)]
    pub fn indexed_run(
        texels: &[u8],
        (tw, th): (u32, u32),
        colormap: &[u32],
        run: &mut Run,
        px: &mut [u8],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) {
        let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let steps = |d: i32| _mm256_mullo_epi32(lane, _mm256_set1_epi32(d));
        let (du8, dv8, dl8) = (steps(run.du), steps(run.dv), steps(run.dl));
        let umask = _mm256_set1_epi32(coord_mask(tw));
        let vmask = _mm256_set1_epi32(coord_mask(th));
        let width = _mm256_set1_epi32(tw as i32);
        let top = _mm256_set1_epi32(SHADE_LEVELS as i32 - 1);
        let zero = _mm256_setzero_si256();
        // `level_of(l >> 16)`: (l >> 16) / LIGHT_PER_LEVEL clamped to the table's rows. The
        // division truncates towards zero and the shift floors, but they differ only for
        // negative lights, which both clamp to row 0.
        let level_shift = 16 + LIGHT_PER_LEVEL.trailing_zeros() as i32;
        let level_shift = _mm_cvtsi32_si128(level_shift);
        // Each lane's texel coordinates and light, stepped a group at a time: wrapping adds, so
        // `u + j du`, then `+ 8 du` per group, are the bits of the scalar loop's one-by-one
        // steps (and the run's own fields are stepped once, after the loop).
        let lanes = LANES as i32;
        let group = |d: i32| _mm256_set1_epi32(d.wrapping_mul(lanes));
        let (du_g, dv_g, dl_g) = (group(run.du), group(run.dv), group(run.dl));
        let mut u = _mm256_add_epi32(_mm256_set1_epi32(run.u), du8);
        let mut v = _mm256_add_epi32(_mm256_set1_epi32(run.v), dv8);
        let mut l = _mm256_add_epi32(_mm256_set1_epi32(run.l), dl8);
        let mut anchors = step.anchors();
        for (g, (p8, z8)) in px
            .chunks_exact_mut(LANES)
            .zip(depth.chunks_exact_mut(LANES))
            .enumerate()
        {
            if let Some(z0) = anchors.at(g * LANES) {
                *z = z0;
            }
            // Depth first, as in the true-colour kernels: a hidden block costs no gather.
            let hit = depth_test(z8, z, step.dz, (len - g * LANES).min(LANES));
            if _mm256_movemask_ps(hit) != 0 {
                // texel((u >> 16) & (tw - 1), (v >> 16) & (th - 1)), as `span::texel::<true>`.
                let col = _mm256_and_si256(_mm256_srai_epi32(u, 16), umask);
                let row = _mm256_and_si256(_mm256_srai_epi32(v, 16), vmask);
                let index = _mm256_add_epi32(_mm256_mullo_epi32(row, width), col);
                let t = gather_bytes(texels, index);
                let level = _mm256_min_epi32(
                    _mm256_max_epi32(_mm256_sra_epi32(l, level_shift), zero),
                    top,
                );
                let at = _mm256_or_si256(_mm256_slli_epi32(level, 8), t);
                // SAFETY: `at` is below SHADE_LEVELS * 256 == colormap.len() in every lane (the
                // level clamped to the rows, the texel a byte).
                let shade =
                    unsafe { _mm256_i32gather_epi32::<4>(colormap.as_ptr() as *const i32, at) };
                // The shade where the depth test passed, the pixel there before elsewhere, in
                // 32-bit lanes (only the low byte counts), then packed back to 8 bytes.
                let mut old = [0u8; LANES];
                old.copy_from_slice(p8);
                let old = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(i64::from_le_bytes(old)));
                let out = _mm256_blendv_epi8(old, shade, _mm256_castps_si256(hit));
                p8.copy_from_slice(&low_bytes(out).to_le_bytes());
            }
            u = _mm256_add_epi32(u, du_g);
            v = _mm256_add_epi32(v, dv_g);
            l = _mm256_add_epi32(l, dl_g);
        }
        *run = run.stepped(len);
    }
}
