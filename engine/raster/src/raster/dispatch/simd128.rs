//! The 8888 and 565 span kernels for WebAssembly SIMD (`+simd128`, the page's SIMD build): the
//! AVX2 kernels' computation four pixels to a 128-bit register. WebAssembly has no gather, so the
//! texels are fetched one by one (with bounds checks: no `unsafe`); the light multiply, the
//! clamp, the 565 rounding, the depth test and the blends are vector operations. Exactly the
//! scalar loop's integers and float operations, as the AVX2 kernels (the page's end-to-end test
//! compares this build's bytes with the scalar build's and with `modex render`'s).
//!
//! Unlike AVX2's, these kernels take every run whole quads long, of any texture: with the texels
//! fetched one by one anyway, a lane outside the texture is wrapped as the scalar loop wraps it
//! (`span::wrap`) where the AVX2 gather would need the run inside it, and a quad is the register.
//! Model skins are rarely powers of two (the minigun's is 1272x1114) and a small triangle's spans
//! are a few pixels long, so both matter for what share of a model's pixels the kernel draws.

use core::arch::wasm32::*;

use modex::{Argb8888, Rgb565};

use super::{coord_mask, Run};
use crate::raster::light::LIGHT_MAX;
use crate::raster::span::wrap;

/// Pixels per register, and per step of the kernels.
const QUAD: usize = 4;

/// How many leading pixels a kernel fills: whole quads, or 0 when the texture's size does not
/// match its texels (the scalar loop then indexes, and fails, as it would anyway) or its indices
/// would not fit 32 bits.
#[inline(always)]
fn quads_to_do<T>(texels: &[T], (tw, th): (u32, u32), px: usize, depth: usize) -> usize {
    let n = px.min(depth) / QUAD * QUAD;
    let fits = !texels.is_empty()
        && tw as u64 * th as u64 == texels.len() as u64
        && texels.len() <= i32::MAX as usize;
    if fits {
        n
    } else {
        0
    }
}

/// The per-run constants of the lit-texel computation.
struct Lit {
    du4: v128,
    dv4: v128,
    dl4: v128,
    umask: v128,
    vmask: v128,
    width: v128,
    height: v128,
    size: (u32, u32),
    lmax: v128,
}

impl Lit {
    #[inline(always)]
    fn new(run: &Run, (tw, th): (u32, u32)) -> Lit {
        let lane = i32x4(0, 1, 2, 3);
        let steps = |d: i32| i32x4_mul(lane, i32x4_splat(d));
        Lit {
            du4: steps(run.du),
            dv4: steps(run.dv),
            dl4: steps(run.dl),
            umask: i32x4_splat(coord_mask(tw)),
            vmask: i32x4_splat(coord_mask(th)),
            width: u32x4_splat(tw),
            height: u32x4_splat(th),
            size: (tw, th),
            lmax: i32x4_splat(LIGHT_MAX),
        }
    }

    /// The texels of the next [`QUAD`] pixels of `run`: `span::texel`'s index for each (masked
    /// for a power of two, wrapped otherwise).
    #[inline(always)]
    fn fetch(&self, texels: &[u32], run: &Run) -> v128 {
        let u = i32x4_add(i32x4_splat(run.u), self.du4);
        let v = i32x4_add(i32x4_splat(run.v), self.dv4);
        let col = v128_and(i32x4_shr(u, 16), self.umask);
        let row = v128_and(i32x4_shr(v, 16), self.vmask);
        let inside = v128_and(u32x4_lt(col, self.width), u32x4_lt(row, self.height));
        let at: [usize; QUAD] = if u32x4_all_true(inside) {
            // Every index below tw * th <= i32::MAX: no product wraps.
            let index = i32x4_add(i32x4_mul(row, self.width), col);
            lanes(index).map(|i| i as usize)
        } else {
            // Some lane off the texture (only where it is not a power of two: the masks keep
            // those inside): wrapped one by one, as the scalar loop does.
            let (tw, th) = self.size;
            let (cols, rows) = (lanes(col), lanes(row));
            core::array::from_fn(|k| {
                (wrap(rows[k] as i32, th) * tw + wrap(cols[k] as i32, tw)) as usize
            })
        };
        // Inside `texels` (tw * th of them); indexing checks again.
        u32x4(texels[at[0]], texels[at[1]], texels[at[2]], texels[at[3]])
    }

    /// The next [`QUAD`] texels of `run`, lit: bytes r, g, b, a per pixel, each channel
    /// `min(255, (c * l) >> 8)` and alpha as stored, exactly as `TrueColor::put_lit`. Steps the
    /// run past them.
    #[inline(always)]
    fn next(&self, texels: &[u32], run: &mut Run) -> v128 {
        let t = self.fetch(texels, run);
        let l = i32x4_add(i32x4_splat(run.l), self.dl4);
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
        Lit::skip(run);
        u8x16_narrow_i16x8(lit(c01, m01), lit(c23, m23))
    }

    /// Step the run past [`QUAD`] pixels (drawn, or all failing the depth test).
    #[inline(always)]
    fn skip(run: &mut Run) {
        let step = QUAD as i32;
        run.u = run.u.wrapping_add(run.du.wrapping_mul(step));
        run.v = run.v.wrapping_add(run.dv.wrapping_mul(step));
        run.l = run.l.wrapping_add(run.dl.wrapping_mul(step));
    }
}

/// The four 32-bit lanes of `v`.
#[inline(always)]
fn lanes(v: v128) -> [u32; QUAD] {
    [
        u32x4_extract_lane::<0>(v),
        u32x4_extract_lane::<1>(v),
        u32x4_extract_lane::<2>(v),
        u32x4_extract_lane::<3>(v),
    ]
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

/// A pixel format the kernels write: how lit RGBA bytes become its pixels, and how they are
/// blended into the target.
trait Encode {
    /// The pixel type.
    type Px: Copy;
    /// Four lit pixels (bytes r, g, b, a each) as this format's values, one per 32-bit lane.
    fn encode(rgba: v128) -> v128;
    /// Write the lanes of `color` (from [`Encode::encode`]) whose `hit` lane is all ones into
    /// the [`QUAD`] pixels `p4`, keeping the others.
    fn blend(p4: &mut [Self::Px], color: v128, hit: v128);
}

impl Encode for Argb8888 {
    type Px = Argb8888;
    /// Bytes r, g, b, a of each pixel to b, g, r, a (0xAARRGGBB in memory).
    #[inline(always)]
    fn encode(c: v128) -> v128 {
        i8x16_shuffle::<2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15>(c, c)
    }
    #[inline(always)]
    fn blend(p4: &mut [Argb8888], color: v128, hit: v128) {
        let old = u32x4(p4[0].0, p4[1].0, p4[2].0, p4[3].0);
        let out = lanes(v128_bitselect(color, old, hit));
        for (p, v) in p4.iter_mut().zip(out) {
            *p = Argb8888(v);
        }
    }
}

impl Encode for Rgb565 {
    type Px = Rgb565;
    /// Each channel rounded as `Rgb565::from_rgba`: (v * max + 127) / 255, where
    /// x / 255 == (x + 1 + (x >> 8)) >> 8 for every x below 65535 (here x <= 255 * 63 + 127).
    #[inline(always)]
    fn encode(c: v128) -> v128 {
        let byte = i32x4_splat(0xff);
        let narrow = |v: v128, bits: u32| {
            let x = i32x4_sub(i32x4_shl(v, bits), v);
            let x = i32x4_add(x, i32x4_splat(127));
            u32x4_shr(i32x4_add(i32x4_add(x, i32x4_splat(1)), u32x4_shr(x, 8)), 8)
        };
        let r = narrow(v128_and(c, byte), 5);
        let g = narrow(v128_and(u32x4_shr(c, 8), byte), 6);
        let b = narrow(v128_and(u32x4_shr(c, 16), byte), 5);
        v128_or(v128_or(i32x4_shl(r, 11), i32x4_shl(g, 5)), b)
    }
    /// In 16-bit lanes: the four pixels are 64 bits, read and written as one (four 16-bit
    /// lanes put in and taken out one by one cost a third more per quad than the 8888 blend).
    #[inline(always)]
    fn blend(p4: &mut [Rgb565], color: v128, hit: v128) {
        let old = p4[..QUAD]
            .iter()
            .rev()
            .fold(0u64, |acc, p| acc << 16 | p.0 as u64);
        // Colours are below 65536 and masks 0 or -1: both narrow to 16 bits unchanged.
        let color = u16x8_narrow_i32x4(color, color);
        let hit = i16x8_narrow_i32x4(hit, hit);
        let out = u64x2_extract_lane::<0>(v128_bitselect(color, u64x2_splat(old), hit));
        for (k, p) in p4.iter_mut().enumerate() {
            *p = Rgb565((out >> (16 * k)) as u16);
        }
    }
}

/// The quad loop of both kernels: fills the leading whole quads of a depth-tested, depth-written
/// run of RGBA texels multiplied by the light into `E`'s pixels; returns the pixels done, `run`
/// and `z` advanced past them.
#[inline(always)]
fn fill<E: Encode>(
    texels: &[u32],
    size: (u32, u32),
    run: &mut Run,
    px: &mut [E::Px],
    depth: &mut [f32],
    z: &mut f32,
    dz: f32,
) -> usize {
    let n = quads_to_do(texels, size, px.len(), depth.len());
    if n == 0 {
        return 0;
    }
    let lit = Lit::new(run, size);
    for (p4, z4) in px[..n]
        .chunks_exact_mut(QUAD)
        .zip(depth[..n].chunks_exact_mut(QUAD))
    {
        // Depth first: a quad hidden behind nearer pixels costs no fetch and no light.
        let hit = depth_test(z4, z, dz);
        if !v128_any_true(hit) {
            Lit::skip(run);
            continue;
        }
        E::blend(p4, E::encode(lit.next(texels, run)), hit);
    }
    n
}

/// The 8888 kernel (see [`super::argb8888_run`]).
#[inline(always)]
pub fn argb8888_run(
    texels: &[u32],
    size: (u32, u32),
    run: &mut Run,
    px: &mut [Argb8888],
    depth: &mut [f32],
    z: &mut f32,
    dz: f32,
) -> usize {
    fill::<Argb8888>(texels, size, run, px, depth, z, dz)
}

/// The 565 kernel (see [`super::rgb565_run`]).
#[inline(always)]
pub fn rgb565_run(
    texels: &[u32],
    size: (u32, u32),
    run: &mut Run,
    px: &mut [Rgb565],
    depth: &mut [f32],
    z: &mut f32,
    dz: f32,
) -> usize {
    fill::<Rgb565>(texels, size, run, px, depth, z, dz)
}
