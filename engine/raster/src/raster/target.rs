//! Render targets: the 8-bit [`IndexedFrame`] and the 565 / 4444 / 8888 [`Surface`]s.
//!
//! One generic span loop serves all four (see `span`); what differs per format is the [`Paint`]
//! implementation here: a shade-table lookup for 8-bit, a channel multiply and pack for true colour,
//! plus a read-modify-write blend by the texel's alpha for 4444. Keeping the format code this small
//! and monomorphised means each target's inner loop is as tight as a hand-written one (the bench
//! table in `docs/benchmarks.md` has the per-format throughput).

use std::marker::PhantomData;

use modex::{Argb4444, Argb8888, IndexedFrame, Pixel, Rgb565, Surface};

use super::light::{level_of, ShadeTable, LIGHT_MAX};
use super::setup::TriSetup;
use super::span::{fill, DepthMode, Paint};
use super::texture::Texture;

/// 8-bit painter: texel index through the shade-table row of the light level.
pub struct Paint8<'a, const OVERLAY: bool> {
    texels: &'a [u8],
    colormap: &'a [u8],
    size: (u32, u32),
}

impl<const OVERLAY: bool> Paint for Paint8<'_, OVERLAY> {
    type Px = u8;
    #[inline(always)]
    fn texture_size(&self) -> (u32, u32) {
        self.size
    }
    #[inline(always)]
    fn paint(&self, index: usize, light: i32, dst: &mut u8) -> bool {
        let t = self.texels[index];
        if OVERLAY && t == 0 {
            return false;
        }
        *dst = self.colormap[(level_of(light) << 8) | t as usize];
        true
    }
}

/// A true-colour pixel format the rasterizer can write.
pub trait TrueColor: Pixel {
    /// Store the lit colour `rgba` (8 bits per channel) into `dst`; `false` if nothing was drawn.
    fn put(rgba: [u32; 4], dst: &mut Self) -> bool;
}

impl TrueColor for Argb8888 {
    #[inline(always)]
    fn put([r, g, b, a]: [u32; 4], dst: &mut Self) -> bool {
        *dst = Argb8888(a << 24 | r << 16 | g << 8 | b);
        true
    }
}

impl TrueColor for Rgb565 {
    #[inline(always)]
    fn put([r, g, b, _]: [u32; 4], dst: &mut Self) -> bool {
        *dst = Rgb565::from_rgba([r as u8, g as u8, b as u8, 255]);
        true
    }
}

impl TrueColor for Argb4444 {
    /// Blends by the texel's alpha (source over destination); fully transparent texels draw nothing.
    #[inline(always)]
    fn put([r, g, b, a]: [u32; 4], dst: &mut Self) -> bool {
        if a == 0 {
            return false;
        }
        if a == 255 {
            *dst = Argb4444::from_rgba([r as u8, g as u8, b as u8, 255]);
            return true;
        }
        let d = dst.to_rgba().map(u32::from);
        let k = 255 - a;
        let mix = |s: u32, d: u32| ((s * a + d * k + 127) / 255) as u8;
        let out_a = (a + (d[3] * k + 127) / 255).min(255) as u8;
        *dst = Argb4444::from_rgba([mix(r, d[0]), mix(g, d[1]), mix(b, d[2]), out_a]);
        true
    }
}

/// True-colour painter: texel times light per channel, saturating.
pub struct PaintRgb<'a, P, const OVERLAY: bool> {
    texels: &'a [u32],
    size: (u32, u32),
    _px: PhantomData<P>,
}

impl<P: TrueColor, const OVERLAY: bool> Paint for PaintRgb<'_, P, OVERLAY> {
    type Px = P;
    #[inline(always)]
    fn texture_size(&self) -> (u32, u32) {
        self.size
    }
    #[inline(always)]
    fn paint(&self, index: usize, light: i32, dst: &mut P) -> bool {
        let t = self.texels[index];
        if OVERLAY && t == 0 {
            return false;
        }
        let l = light.clamp(0, LIGHT_MAX) as u32;
        let ch = |s: u32| ((((t >> s) & 255) * l) >> 8).min(255);
        P::put([ch(0), ch(8), ch(16), t >> 24], dst)
    }
}

/// Something the rasterizer draws into: its size, its pixels, and how it paints a texture.
pub trait Target {
    /// The pixel type.
    type Px: Copy + Send + Sync;
    /// (width, height) in pixels.
    fn size(&self) -> (usize, usize);
    /// All pixels, row-major.
    fn pixels_mut(&mut self) -> &mut [Self::Px];
    /// A flat colour in this format (for wireframes and clears).
    fn color(rgb: [u8; 3], shades: &ShadeTable) -> Self::Px;
    /// Fill set-up triangles textured with `tex`.
    fn fill_textured(
        &mut self,
        depth: &mut [f32],
        tris: &[TriSetup],
        tex: &Texture,
        shades: &ShadeTable,
        overlay: bool,
        mode: DepthMode,
    );
}

impl Target for IndexedFrame {
    type Px = u8;
    fn size(&self) -> (usize, usize) {
        (self.width(), self.height())
    }
    fn pixels_mut(&mut self) -> &mut [u8] {
        IndexedFrame::pixels_mut(self)
    }
    fn color(rgb: [u8; 3], shades: &ShadeTable) -> u8 {
        shades.palette().nearest(rgb)
    }
    fn fill_textured(
        &mut self,
        depth: &mut [f32],
        tris: &[TriSetup],
        tex: &Texture,
        shades: &ShadeTable,
        overlay: bool,
        mode: DepthMode,
    ) {
        let (w, h) = Target::size(self);
        let size = (tex.width, tex.height);
        let colormap = shades.colormap();
        let px = IndexedFrame::pixels_mut(self);
        if overlay {
            let p = Paint8::<true> {
                texels: &tex.indexed,
                colormap,
                size,
            };
            fill(&p, tris, px, depth, w, h, mode);
        } else {
            let p = Paint8::<false> {
                texels: &tex.indexed,
                colormap,
                size,
            };
            fill(&p, tris, px, depth, w, h, mode);
        }
    }
}

impl<P: TrueColor> Target for Surface<P> {
    type Px = P;
    fn size(&self) -> (usize, usize) {
        (self.width(), self.height())
    }
    fn pixels_mut(&mut self) -> &mut [P] {
        Surface::pixels_mut(self)
    }
    fn color([r, g, b]: [u8; 3], _: &ShadeTable) -> P {
        P::from_rgba([r, g, b, 255])
    }
    fn fill_textured(
        &mut self,
        depth: &mut [f32],
        tris: &[TriSetup],
        tex: &Texture,
        _shades: &ShadeTable,
        overlay: bool,
        mode: DepthMode,
    ) {
        let (w, h) = Target::size(self);
        let size = (tex.width, tex.height);
        let px = Surface::pixels_mut(self);
        if overlay {
            let p = PaintRgb::<P, true> {
                texels: &tex.rgba_overlay,
                size,
                _px: PhantomData,
            };
            fill(&p, tris, px, depth, w, h, mode);
        } else {
            let p = PaintRgb::<P, false> {
                texels: &tex.rgba,
                size,
                _px: PhantomData,
            };
            fill(&p, tris, px, depth, w, h, mode);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argb4444_blends_by_alpha() {
        let mut d = Argb4444(0xf000); // opaque black
        assert!(Argb4444::put([255, 255, 255, 0x88], &mut d));
        let c = d.to_rgba();
        assert!(c[0] > 0x60 && c[0] < 0xa0, "{c:?}");
        assert_eq!(c[3], 255);
        let before = d;
        assert!(!Argb4444::put([255, 0, 0, 0], &mut d));
        assert_eq!(d, before);
    }

    #[test]
    fn true_colour_light_multiplies() {
        let tex = [u32::from_le_bytes([200, 100, 50, 255])];
        let p = PaintRgb::<Argb8888, false> {
            texels: &tex,
            size: (1, 1),
            _px: PhantomData,
        };
        let mut d = Argb8888(0);
        p.paint(0, 128, &mut d);
        assert_eq!(d.to_rgba(), [100, 50, 25, 255]);
        p.paint(0, 511, &mut d);
        assert_eq!(d.to_rgba(), [255, 199, 99, 255]);
    }
}
