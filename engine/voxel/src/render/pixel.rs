//! How a shaded voxel becomes a pixel of each target format, so one marcher writes every format
//! natively (no frame is drawn in one format and converted afterwards).
//!
//! - 8-bit: a lit voxel is `vpl[page][colour]`, the palette index of its colour on the VPL page of
//!   its normal; an unlit one is its colour as stored.
//! - 565, 4444, 8888: under the game's shading the palette colour of that same index, so a
//!   true-colour picture is the 8-bit one through the palette (the games drew their voxels into
//!   16-bit screens this way); under free shading the palette colour times the brightness of its
//!   normal; unlit, the palette colour of the stored index. Packed opaque with
//!   [`Pixel::from_rgba`]: a 565 or 4444 pixel is exactly the 8888 pixel narrowed to that format.

use modex::blend::{mix_pixel, BlendTable};
use modex::{
    Argb4444, Argb8888, BlendTables, Camera, DepthBuffer, DrawStats, Opacity, Pixel, Rgb565,
};

use super::light::LimbShade;
use super::RenderOptions;
use crate::model::NoFrames;
use crate::scene::Instance;
use modex_vxl::Vpl;

/// A pixel type the ray-marcher draws natively: `u8` palette indices (the mode-X frame),
/// [`Rgb565`], [`Argb4444`] and [`Argb8888`].
///
/// Sealed: the four formats are the ones implemented.
pub trait VoxelPixel: sealed::Shade {}

mod sealed {
    use super::*;

    /// The per-format shading, kept out of the public API (it reads the renderer's limb tables).
    pub trait Shade: Copy + Send + Sync + 'static {
        /// The pixel of a voxel of palette index `colour` and normal index `normal` on a limb
        /// shaded by `limb`.
        fn shade(vpl: &Vpl, limb: &LimbShade, colour: u8, normal: u8) -> Self;

        /// How a limb of opacity `alpha` (neither opaque nor invisible) mixes into this format:
        /// the 8-bit path's table (built here on first use), the true-colour weight.
        fn mixer(tables: &BlendTables, alpha: Opacity) -> Mixer<'_>;

        /// `src` drawn over `dst` by `mixer`.
        fn mix(src: Self, dst: Self, mixer: &Mixer<'_>) -> Self;

        /// `lit` into the lanes of `out` whose bit is set in `front` (bit `i` for `out[i]`), the
        /// others left as they are: the pixel writes of eight depth tests at once (the vector
        /// face fill, `splat/fill.rs`). Per lane a select; 8-bit pixels as one 64-bit blend.
        #[inline(always)]
        fn put_lanes(out: &mut [Self; 8], front: u8, lit: Self) {
            for (i, out) in out.iter_mut().enumerate() {
                *out = if (front >> i) & 1 != 0 { lit } else { *out };
            }
        }

        /// [`Shade::put_lanes`] over four pixels (bit `i` of `front` for `out[i]`, the higher
        /// bits ignored): the stamps' row of four (`splat/band.rs`). Without a branch per lane
        /// (a lane's select written as a branch was mispredicted ~127 k times a run in the
        /// 1000-unit 1080p perspective frame; docs/benchmarks.md, issue 43, lever 53): a select
        /// per lane; 8-bit pixels as one 32-bit blend.
        #[inline(always)]
        fn put_lanes4(out: &mut [Self; 4], front: u8, lit: Self) {
            for (i, out) in out.iter_mut().enumerate() {
                *out = [*out, lit][usize::from((front >> i) & 1)];
            }
        }

        /// The whole draw into this format's pixels (the renderer's generic `draw_pixels`). Each
        /// format's impl is an ordinary function of this crate, so its marcher is compiled here,
        /// where the volume's helpers inline into it, and not in the caller's crate, where they
        /// would not (6 % more instructions per ray, measured on hmec).
        fn draw_pixels(
            instances: &[Instance<'_>],
            camera: &Camera,
            vpl: &Vpl,
            opts: &RenderOptions,
            pixels: &mut [Self],
            depth: &mut DepthBuffer,
        ) -> Result<DrawStats, NoFrames>;
    }
}

pub(crate) use sealed::Shade;

/// How a translucent limb's pixels mix with the frame ([`Shade::mixer`]).
pub struct Mixer<'a> {
    /// The 8-bit path's table for the opacity.
    table: Option<&'a BlendTable>,
    /// The true-colour source weight out of 256.
    weight: u32,
}

/// The format's marcher, compiled in this crate (see [`Shade::draw_pixels`]).
macro_rules! draw_pixels {
    () => {
        fn draw_pixels(
            instances: &[Instance<'_>],
            camera: &Camera,
            vpl: &Vpl,
            opts: &RenderOptions,
            pixels: &mut [Self],
            depth: &mut DepthBuffer,
        ) -> Result<DrawStats, NoFrames> {
            super::draw_pixels(instances, camera, vpl, opts, pixels, depth)
        }
    };
}

impl VoxelPixel for u8 {}
impl Shade for u8 {
    #[inline(always)]
    fn shade(vpl: &Vpl, limb: &LimbShade, colour: u8, normal: u8) -> u8 {
        if limb.lit {
            vpl.page(limb.page[normal as usize] as usize)[colour as usize]
        } else {
            colour
        }
    }
    fn mixer(tables: &BlendTables, alpha: Opacity) -> Mixer<'_> {
        Mixer {
            table: tables.table(alpha),
            weight: alpha.weight256(),
        }
    }
    #[inline(always)]
    fn mix(src: u8, dst: u8, mixer: &Mixer<'_>) -> u8 {
        mixer.table.map_or(src, |t| t.mix(src, dst))
    }
    #[inline(always)]
    fn put_lanes(out: &mut [u8; 8], front: u8, lit: u8) {
        let mask = LANE_BYTES[front as usize];
        let old = u64::from_le_bytes(*out);
        let lit = u64::from(lit) * 0x0101_0101_0101_0101;
        *out = ((old & !mask) | (lit & mask)).to_le_bytes();
    }
    #[inline(always)]
    fn put_lanes4(out: &mut [u8; 4], front: u8, lit: u8) {
        // The low four bytes of the eight lanes' mask: those of lanes 0-3.
        let mask = LANE_BYTES[usize::from(front & 0xf)] as u32;
        let old = u32::from_le_bytes(*out);
        let lit = u32::from(lit) * 0x0101_0101;
        *out = ((old & !mask) | (lit & mask)).to_le_bytes();
    }
    draw_pixels!();
}

/// For each set of eight lanes (bit `i` = lane `i`), the 64-bit mask with byte `i` all ones where
/// the lane is set: [`Shade::put_lanes`]'s 8-bit blend.
const LANE_BYTES: [u64; 256] = {
    let mut masks = [0u64; 256];
    let mut set = 0;
    while set < 256 {
        let mut lane = 0;
        while lane < 8 {
            if (set >> lane) & 1 != 0 {
                masks[set] |= 0xff << (8 * lane);
            }
            lane += 1;
        }
        set += 1;
    }
    masks
};

/// The lit RGB of a voxel for the true-colour formats: the palette colour of its index on its
/// normal's page (the 8-bit pixel's colour), or under free shading its own palette colour times
/// its normal's gain.
#[inline(always)]
fn lit_rgba(vpl: &Vpl, limb: &LimbShade, colour: u8, normal: u8) -> [u8; 4] {
    if limb.lit && limb.by_page {
        let [r, g, b] =
            vpl.palette.colors[<u8 as Shade>::shade(vpl, limb, colour, normal) as usize];
        return [r, g, b, 255];
    }
    let [r, g, b] = vpl.palette.colors[colour as usize];
    let k = if limb.lit {
        limb.gain[normal as usize] as u32
    } else {
        256
    };
    let f = |c: u8| ((c as u32 * k) >> 8).min(255) as u8;
    [f(r), f(g), f(b), 255]
}

macro_rules! true_colour {
    ($($p:ty),*) => {$(
        impl VoxelPixel for $p {}
        impl Shade for $p {
            #[inline(always)]
            fn shade(vpl: &Vpl, limb: &LimbShade, colour: u8, normal: u8) -> $p {
                <$p>::from_rgba(lit_rgba(vpl, limb, colour, normal))
            }
            fn mixer(_: &BlendTables, alpha: Opacity) -> Mixer<'_> {
                Mixer { table: None, weight: alpha.weight256() }
            }
            #[inline(always)]
            fn mix(src: $p, dst: $p, mixer: &Mixer<'_>) -> $p {
                mix_pixel(src, dst, mixer.weight)
            }
            draw_pixels!();
        }
    )*};
}

true_colour!(Rgb565, Argb4444, Argb8888);
