//! The 8888 and 565 span kernels for WebAssembly SIMD (`+simd128`, the page's SIMD build): the
//! AVX2 kernels' computation four pixels to a 128-bit register, twice per group of [`LANES`].
//! WebAssembly has no gather, so the texels are fetched one by one (with bounds checks: no
//! `unsafe`); the light multiply, the clamp, the 565 rounding, the depth test and the blends are
//! vector operations. Exactly the scalar loop's integers and float operations, as the AVX2
//! kernels (the page's end-to-end test compares this build's bytes with the scalar build's).

use core::arch::wasm32::*;

use modex::{Argb8888, Rgb565};

use super::{coord_mask, Run, LANES};
use crate::raster::light::LIGHT_MAX;

/// Pixels per register.
const QUAD: usize = 4;

/// The per-run constants of the lit-texel computation.
struct Lit {
    du4: v128,
    dv4: v128,
    dl4: v128,
    umask: v128,
    vmask: v128,
    width: v128,
    lmax: v128,
}

impl Lit {
    fn new(run: &Run, (tw, th): (u32, u32)) -> Lit {
        let lane = i32x4(0, 1, 2, 3);
        let steps = |d: i32| i32x4_mul(lane, i32x4_splat(d));
        Lit {
            du4: steps(run.du),
            dv4: steps(run.dv),
            dl4: steps(run.dl),
            umask: i32x4_splat(coord_mask(tw)),
            vmask: i32x4_splat(coord_mask(th)),
            width: i32x4_splat(tw as i32),
            lmax: i32x4_splat(LIGHT_MAX),
        }
    }

    /// The next [`QUAD`] texels of `run`, lit: bytes r, g, b, a per pixel, each channel
    /// `min(255, (c * l) >> 8)` and alpha as stored, exactly as `TrueColor::put_lit`. Steps the
    /// run past them.
    #[inline(always)]
    fn next(&self, texels: &[u32], run: &mut Run) -> v128 {
        let u = i32x4_add(i32x4_splat(run.u), self.du4);
        let v = i32x4_add(i32x4_splat(run.v), self.dv4);
        let l = i32x4_add(i32x4_splat(run.l), self.dl4);
        // texel((u >> 16) & (tw - 1), (v >> 16) & (th - 1)), as `span::texel::<true>`.
        let col = v128_and(i32x4_shr(u, 16), self.umask);
        let row = v128_and(i32x4_shr(v, 16), self.vmask);
        let index = i32x4_add(i32x4_mul(row, self.width), col);
        // Inside `texels` by `lanes_to_do`'s checks; indexing checks again.
        let at = |k: u32| texels[index_lane(index, k)];
        let t = u32x4(at(0), at(1), at(2), at(3));
        // light >> 16 clamped to 0..=LIGHT_MAX (at most 511: fits 16 bits), as `Multiply::put`.
        let li = i32x4_min(i32x4_max(i32x4_shr(l, 16), i32x4_splat(0)), self.lmax);
        let l16 = u16x8_narrow_i32x4(li, li);
        // Per pixel the multipliers [l, l, l, 256] for channels r, g, b, a: (a * 256) >> 8 = a.
        let one = u16x8_splat(256);
        let m01 = i16x8_shuffle::<0, 0, 0, 8, 1, 1, 1, 8>(l16, one);
        let m23 = i16x8_shuffle::<2, 2, 2, 8, 3, 3, 3, 8>(l16, one);
        let c01 = u16x8_extend_low_u8x16(t);
        let c23 = u16x8_extend_high_u8x16(t);
        // (c * l) >> 8 in 32 bits (at most 509), narrowed with saturation: the clamp to 255.
        let lit = |c: v128, m: v128| {
            u16x8_narrow_i32x4(
                u32x4_shr(u32x4_extmul_low_u16x8(c, m), 8),
                u32x4_shr(u32x4_extmul_high_u16x8(c, m), 8),
            )
        };
        let step = QUAD as i32;
        run.u = run.u.wrapping_add(run.du.wrapping_mul(step));
        run.v = run.v.wrapping_add(run.dv.wrapping_mul(step));
        run.l = run.l.wrapping_add(run.dl.wrapping_mul(step));
        u8x16_narrow_i16x8(lit(c01, m01), lit(c23, m23))
    }

    /// Step the run past [`QUAD`] pixels that all failed the depth test.
    #[inline(always)]
    fn skip(run: &mut Run) {
        let step = QUAD as i32;
        run.u = run.u.wrapping_add(run.du.wrapping_mul(step));
        run.v = run.v.wrapping_add(run.dv.wrapping_mul(step));
        run.l = run.l.wrapping_add(run.dl.wrapping_mul(step));
    }
}

/// Lane `k` of `index` as a texel index (non-negative by the masks and `lanes_to_do`).
#[inline(always)]
fn index_lane(index: v128, k: u32) -> usize {
    (match k {
        0 => u32x4_extract_lane::<0>(index),
        1 => u32x4_extract_lane::<1>(index),
        2 => u32x4_extract_lane::<2>(index),
        _ => u32x4_extract_lane::<3>(index),
    }) as usize
}

/// Depth test and write of [`QUAD`] pixels: the new depths one pixel after the other from `z`, as
/// the scalar loop accumulates them; returns the lanes that passed (`z < buffer`, false for NaN)
/// as all-ones masks.
#[inline(always)]
fn depth_test(z4: &mut [f32], z: &mut f32, dz: f32) -> v128 {
    let mut zs = [0f32; QUAD];
    for zk in &mut zs {
        *zk = *z;
        *z += dz;
    }
    let zn = f32x4(zs[0], zs[1], zs[2], zs[3]);
    let old = f32x4(z4[0], z4[1], z4[2], z4[3]);
    let hit = f32x4_lt(zn, old);
    let kept = v128_bitselect(zn, old, hit);
    z4[0] = f32x4_extract_lane::<0>(kept);
    z4[1] = f32x4_extract_lane::<1>(kept);
    z4[2] = f32x4_extract_lane::<2>(kept);
    z4[3] = f32x4_extract_lane::<3>(kept);
    hit
}

/// The 8888 kernel: `px.len() == depth.len()`, a multiple of [`LANES`]; the texture checked by
/// `lanes_to_do`.
pub fn argb8888_run(
    texels: &[u32],
    size: (u32, u32),
    run: &mut Run,
    px: &mut [Argb8888],
    depth: &mut [f32],
    z: &mut f32,
    dz: f32,
) {
    debug_assert_eq!(px.len() % LANES, 0);
    let lit = Lit::new(run, size);
    for (p4, z4) in px.chunks_exact_mut(QUAD).zip(depth.chunks_exact_mut(QUAD)) {
        // Depth first: a block hidden behind nearer pixels costs no fetch and no light.
        let hit = depth_test(z4, z, dz);
        if !v128_any_true(hit) {
            Lit::skip(run);
            continue;
        }
        // Bytes r, g, b, a of each pixel to b, g, r, a (0xAARRGGBB in memory).
        let c = lit.next(texels, run);
        let color = i8x16_shuffle::<2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15>(c, c);
        let old = u32x4(p4[0].0, p4[1].0, p4[2].0, p4[3].0);
        let out = v128_bitselect(color, old, hit);
        p4[0] = Argb8888(u32x4_extract_lane::<0>(out));
        p4[1] = Argb8888(u32x4_extract_lane::<1>(out));
        p4[2] = Argb8888(u32x4_extract_lane::<2>(out));
        p4[3] = Argb8888(u32x4_extract_lane::<3>(out));
    }
}

/// The 565 kernel, same preconditions as [`argb8888_run`].
pub fn rgb565_run(
    texels: &[u32],
    size: (u32, u32),
    run: &mut Run,
    px: &mut [Rgb565],
    depth: &mut [f32],
    z: &mut f32,
    dz: f32,
) {
    debug_assert_eq!(px.len() % LANES, 0);
    let lit = Lit::new(run, size);
    let byte = i32x4_splat(0xff);
    // (v * max + 127) / 255 as `Rgb565::from_rgba` rounds: x / 255 == (x + 1 + (x >> 8)) >> 8
    // for every x below 65535 (here x <= 255 * 63 + 127).
    let narrow = |v: v128, bits: u32| {
        let x = i32x4_sub(i32x4_shl(v, bits), v);
        let x = i32x4_add(x, i32x4_splat(127));
        u32x4_shr(i32x4_add(i32x4_add(x, i32x4_splat(1)), u32x4_shr(x, 8)), 8)
    };
    for (p4, z4) in px.chunks_exact_mut(QUAD).zip(depth.chunks_exact_mut(QUAD)) {
        let hit = depth_test(z4, z, dz);
        if !v128_any_true(hit) {
            Lit::skip(run);
            continue;
        }
        let c = lit.next(texels, run);
        let r = narrow(v128_and(c, byte), 5);
        let g = narrow(v128_and(u32x4_shr(c, 8), byte), 6);
        let b = narrow(v128_and(u32x4_shr(c, 16), byte), 5);
        let color = v128_or(v128_or(i32x4_shl(r, 11), i32x4_shl(g, 5)), b);
        let old = u32x4(
            p4[0].0 as u32,
            p4[1].0 as u32,
            p4[2].0 as u32,
            p4[3].0 as u32,
        );
        let out = v128_bitselect(color, old, hit);
        p4[0] = Rgb565(u32x4_extract_lane::<0>(out) as u16);
        p4[1] = Rgb565(u32x4_extract_lane::<1>(out) as u16);
        p4[2] = Rgb565(u32x4_extract_lane::<2>(out) as u16);
        p4[3] = Rgb565(u32x4_extract_lane::<3>(out) as u16);
    }
}
