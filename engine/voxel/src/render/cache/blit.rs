//! The banded pass: sprites blitted depth-tested at their unit's origin, shaded with this draw's
//! light, between the jobs of the pieces drawn directly, every item in scene order over the
//! direct draw's row bands.

use super::super::job;
use super::super::light::LimbShade;
use super::super::march::{self, DrawContext};
use super::super::pixel::Shade;
use glam::{Vec2, Vec4};

use super::key::anchor;
use super::store::Entry;
use modex_vxl::Vpl;

/// One thing the banded pass draws.
pub(super) enum Item<'c, 'j> {
    Blit(Blit<'c>),
    Jobs(&'j [job::Job<'j>]),
}

/// A sprite placed for this draw.
pub(super) struct Blit<'c> {
    pub(super) entry: &'c Entry<'c>,
    /// Screen position of its top-left pixel.
    x: i64,
    y: i64,
    /// This origin's view depth, to which the stored offsets are added.
    depth: f32,
}

impl<'c> Blit<'c> {
    /// The blit of `entry`'s sprite for a unit whose origin is at `origin` on screen (rounded to
    /// the nearest pixel corner) and `depth` in view; `None` far off screen (and beyond any `i64`
    /// arithmetic on its rows), where there is nothing to draw.
    pub(super) fn at(entry: &'c Entry<'c>, origin: Vec2, depth: f32) -> Option<Blit<'c>> {
        let s = &entry.sprite;
        let at = anchor(origin);
        if at.abs().max_element() > 1e9 {
            return None;
        }
        Some(Blit {
            entry,
            x: s.corner.0 + at.x as i64,
            y: s.corner.1 + at.y as i64,
            depth,
        })
    }
}

/// Draw every item, in order, over row bands of `pixels` and `depth` (the screen's width wide), on
/// the current rayon pool when `parallel`: the direct draw's banding, and every pixel sees the
/// items in the same order whatever the banding, so any thread count gives the same pixels.
/// Returns the rays the direct items cast.
pub(super) fn draw_bands<P: Shade>(
    items: &[Item<'_, '_>],
    ctx: &DrawContext<'_>,
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
) -> usize {
    let width = ctx.screen.width();
    march::over_bands(width, pixels, depth, parallel, |y0, p, d| {
        let mut rays = 0;
        for item in items {
            match item {
                Item::Blit(b) => blit(b, ctx.vpl, width, y0, p, d),
                Item::Jobs(jobs) => {
                    rays += march::march_band(ctx.screen, jobs, ctx.vpl, ctx.tables, y0, p, d)
                }
            }
        }
        rays
    })
}

/// Sprite pixels tested together before any of them is shaded.
const GROUP: usize = 4;

/// What one covered run blits from: its pixels' depth offsets, colours and normals (the same
/// length as its stretch of the band), and the limb's shading.
#[derive(Clone, Copy)]
struct RunSource<'a> {
    offset: &'a [f32],
    colour: &'a [u8],
    normal: &'a [u8],
    shade: &'a LimbShade,
    vpl: &'a Vpl,
}

/// One sprite pixel, depth-tested and shaded. Branch-free: in a crowd drawn nearest first the
/// depth test is unpredictable, and a shade is two table reads (measured: see
/// docs/benchmarks-history.md, Round 6).
#[inline(always)]
fn put<P: Shade>(
    k: usize,
    origin_depth: f32,
    src: RunSource<'_>,
    dst_p: &mut [P],
    dst_d: &mut [f32],
) {
    let z = origin_depth + src.offset[k];
    let d = dst_d[k];
    let front = z < d;
    let lit = P::shade(src.vpl, src.shade, src.colour[k], src.normal[k]);
    // `min` is the select for depths (never NaN here; equal depths keep the old), and indexing a
    // pair is one for pixels, neither compiled to a branch.
    dst_d[k] = z.min(d);
    dst_p[k] = [dst_p[k], lit][front as usize];
}

/// Four sprite pixels from `k` depth-tested at once and, if any is in front, shaded and written
/// (the blit's inner step; its comments say why it is built so).
#[inline(always)]
fn group<P: Shade>(k: usize, origin: Vec4, src: RunSource<'_>, dst_p: &mut [P], dst_d: &mut [f32]) {
    let z = origin + Vec4::from_slice(&src.offset[k..k + GROUP]);
    let d = Vec4::from_slice(&dst_d[k..k + GROUP]);
    let front = z.cmplt(d);
    if front.any() {
        Vec4::select(front, z, d).write_to_slice(&mut dst_d[k..k + GROUP]);
        let front = front.bitmask();
        let at = k..k + GROUP;
        let (c, nm, p): (&[u8; GROUP], &[u8; GROUP], &mut [P; GROUP]) = (
            src.colour[at.clone()].try_into().expect("a group"),
            src.normal[at.clone()].try_into().expect("a group"),
            (&mut dst_p[at]).try_into().expect("a group"),
        );
        // Written as a select of the value (a conditional move of the address
        // read), not as an index into `[old, lit]`, which LLVM built on the stack:
        // 5.3 M instructions a steady 1000-unit 1080p orthographic frame.
        for j in 0..GROUP {
            let lit = P::shade(src.vpl, src.shade, c[j], nm[j]);
            let old = p[j];
            p[j] = if front & (1 << j) != 0 { lit } else { old };
        }
    }
}

/// One covered run blitted: its pixels depth-tested at `origin_depth` + their offsets, four at
/// a time ([`group`]), and shaded where in front.
///
/// A run's last one to three pixels are tested as its last four, overlapping the group before:
/// a pixel tested again is never in front of the depth its first test left (`z < min(z, d)` is
/// false), so it keeps what the first test gave, and the tail costs one group, not a scalar
/// test a pixel (runs under four pixels only). Measured: the steady 1000-unit 1080p
/// orthographic frame's blits 61.0 -> 53.4 M instructions (docs/benchmarks.md, issue 43).
#[inline(always)]
fn run<P: Shade>(origin_depth: f32, src: RunSource<'_>, dst_p: &mut [P], dst_d: &mut [f32]) {
    let n = dst_d.len();
    let origin = Vec4::splat(origin_depth);
    let mut k = 0;
    while k + GROUP <= n {
        group(k, origin, src, dst_p, dst_d);
        k += GROUP;
    }
    if k < n && n >= GROUP {
        group(n - GROUP, origin, src, dst_p, dst_d);
    } else {
        for j in k..n {
            put(j, origin_depth, src, dst_p, dst_d);
        }
    }
}

/// Blit the sprite's rows that fall in band rows `y0..` (`pixels.len() / width` of them): per
/// covered run, a depth-tested copy shaded by the run's limb.
#[inline]
fn blit<P: Shade>(
    b: &Blit<'_>,
    vpl: &Vpl,
    width: usize,
    y0: usize,
    pixels: &mut [P],
    depth: &mut [f32],
) {
    let rows = pixels.len() / width.max(1);
    let (band_top, band_end) = (y0 as i64, (y0 + rows) as i64);
    let w = width as i64;
    {
        let s = &b.entry.sprite;
        if b.y >= band_end || b.y + s.rows as i64 <= band_top || s.spans.is_empty() {
            return;
        }
        // The sprite's rows inside the band.
        let first = (band_top - b.y).max(0) as u32;
        let last = (band_end - b.y).min(s.rows as i64) as u32;
        let from = if first == 0 {
            0
        } else {
            s.spans.partition_point(|sp| sp.row < first)
        };
        for sp in s.spans[from..].iter().take_while(|sp| sp.row < last) {
            let y = b.y + sp.row as i64;
            let xa = b.x + sp.x as i64;
            let (lo, hi) = (xa.max(0), (xa + sp.len as i64).min(w));
            if lo >= hi {
                continue;
            }
            let skip = (lo - xa) as usize;
            let n = (hi - lo) as usize;
            let start = sp.start as usize + skip;
            let at = (y - band_top) as usize * width + lo as usize;
            let shade = &b.entry.shades[sp.limb as usize];
            let src = start..start + n;
            let source = RunSource {
                offset: &s.depth[src.clone()],
                colour: &s.colour[src.clone()],
                normal: &s.normal[src],
                shade,
                vpl,
            };
            let (dst_p, dst_d) = (&mut pixels[at..at + n], &mut depth[at..at + n]);
            // Groups of four with no pixel in front of what is drawn are skipped before
            // shading: in a crowd drawn nearest first most sprite pixels are behind (5.2 M
            // tested for 2 M shown at 1080p), and such runs are long, so the one branch per
            // group is predictable where the per-pixel test is not. Skipping changes nothing:
            // a pixel not in front (`z >= d`, or `z` NaN) keeps its colour and depth.
            //
            // The four depth tests are one vector compare (glam's SSE2 `Vec4` on x86-64): the
            // same IEEE sums `b.depth + offset[j]` and the same `z < d` as [`put`]; the depths
            // are written as one select of the four (`z` where in front, else the old depth,
            // which is what `z.min(d)` keeps: depths are never NaN), the pixels as a select per
            // lane after shading all four (branch-free, as `put`). At 1080p the scalar group
            // test was about half of the banded pass (docs/benchmarks.md, issue 43, levers 10
            // and 12).
            run(b.depth, source, dst_p, dst_d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Depths that collide often (a few values), so ties and re-tests of equal depths happen.
    fn depth() -> impl Strategy<Value = f32> {
        prop_oneof![
            3 => (0u8..6).prop_map(|v| v as f32 * 0.5),
            1 => Just(f32::INFINITY),
            1 => -100.0f32..100.0,
        ]
    }

    proptest! {
        /// A run blitted by groups of four (with its tail as an overlapping last group) leaves
        /// every pixel and depth that the per-pixel step ([`put`]) leaves, for runs of any
        /// length, in 8-bit and true colour.
        #[test]
        fn a_run_blits_as_its_pixels_one_by_one(
            origin in -4.0f32..4.0,
            pixels in proptest::collection::vec((depth(), depth(), any::<u8>(), any::<u8>(), any::<u8>()), 0..23),
            pages in proptest::collection::vec(0u8..32, 256),
        ) {
            let vpl = Vpl::from_palette(&modex::Palette::quake(), 32);
            let mut shade = LimbShade {
                lit: true,
                page: [0; 256],
                gain: [256; 256],
                by_page: false,
            };
            shade.page.copy_from_slice(&pages);
            let offset: Vec<f32> = pixels.iter().map(|p| p.0).collect();
            let dst: Vec<f32> = pixels.iter().map(|p| p.1).collect();
            let colour: Vec<u8> = pixels.iter().map(|p| p.2).collect();
            let normal: Vec<u8> = pixels.iter().map(|p| p.3).collect();
            let old: Vec<u8> = pixels.iter().map(|p| p.4).collect();

            let src = RunSource {
                offset: &offset,
                colour: &colour,
                normal: &normal,
                shade: &shade,
                vpl: &vpl,
            };
            let (mut p8, mut d8) = (old.clone(), dst.clone());
            run(origin, src, &mut p8, &mut d8);
            let (mut q8, mut e8) = (old.clone(), dst.clone());
            for k in 0..old.len() {
                put(k, origin, src, &mut q8, &mut e8);
            }
            prop_assert_eq!(&p8, &q8);
            prop_assert_eq!(d8.iter().map(|d| d.to_bits()).collect::<Vec<_>>(),
                e8.iter().map(|d| d.to_bits()).collect::<Vec<_>>());

            let old32: Vec<modex::Argb8888> = old.iter().map(|&c| modex::Argb8888(u32::from(c) * 0x0101_0101)).collect();
            let (mut p32, mut d32) = (old32.clone(), dst.clone());
            run(origin, src, &mut p32, &mut d32);
            let (mut q32, mut e32) = (old32, dst);
            for k in 0..q32.len() {
                put(k, origin, src, &mut q32, &mut e32);
            }
            prop_assert_eq!(p32, q32);
            prop_assert_eq!(d32.iter().map(|d| d.to_bits()).collect::<Vec<_>>(),
                e32.iter().map(|d| d.to_bits()).collect::<Vec<_>>());
        }
    }
}
