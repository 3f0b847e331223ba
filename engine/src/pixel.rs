//! True-colour pixel formats of the A5 era and typed surfaces for each.
//!
//! The rasterizer is generic over [`Pixel`], so one triangle filler writes 565, 4444 or 8888 surfaces.
//! Conversions widen by bit replication (5-bit 31 -> 255, 4-bit 15 -> 255) and narrow by rounding to
//! nearest, which makes `narrow(widen(p)) == p` for every 16-bit value (tested on all 65536).

/// A pixel format with exact conversions to and from RGBA8.
pub trait Pixel: Copy + Default + PartialEq + Send + Sync + std::fmt::Debug + 'static {
    /// Short name for CLI and file names: "565", "4444", "8888".
    const NAME: &'static str;
    /// The pixel nearest to an RGBA8 colour (channels rounded to nearest).
    fn from_rgba(c: [u8; 4]) -> Self;
    /// The RGBA8 colour of this pixel (channels widened by bit replication).
    fn to_rgba(self) -> [u8; 4];
}

/// Round an 8-bit channel to `bits` bits.
#[inline]
fn narrow(v: u8, bits: u32) -> u32 {
    let max = (1u32 << bits) - 1;
    (v as u32 * max + 127) / 255
}

/// Widen a `bits`-bit channel to 8 bits by replicating its top bits.
#[inline]
fn widen(v: u32, bits: u32) -> u8 {
    let v = v << (8 - bits);
    (v | v >> bits) as u8
}

/// 16-bit RGB 565: red in bits 11..15, green 5..10, blue 0..4. Opaque.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Rgb565(pub u16);

impl Pixel for Rgb565 {
    const NAME: &'static str = "565";
    #[inline]
    fn from_rgba(c: [u8; 4]) -> Self {
        Rgb565((narrow(c[0], 5) << 11 | narrow(c[1], 6) << 5 | narrow(c[2], 5)) as u16)
    }
    #[inline]
    fn to_rgba(self) -> [u8; 4] {
        let v = self.0 as u32;
        [
            widen(v >> 11, 5),
            widen((v >> 5) & 0x3f, 6),
            widen(v & 0x1f, 5),
            255,
        ]
    }
}

/// 16-bit ARGB 4444: alpha in bits 12..15, red 8..11, green 4..7, blue 0..3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Argb4444(pub u16);

impl Pixel for Argb4444 {
    const NAME: &'static str = "4444";
    #[inline]
    fn from_rgba(c: [u8; 4]) -> Self {
        Argb4444(
            (narrow(c[3], 4) << 12 | narrow(c[0], 4) << 8 | narrow(c[1], 4) << 4 | narrow(c[2], 4))
                as u16,
        )
    }
    #[inline]
    fn to_rgba(self) -> [u8; 4] {
        let v = self.0 as u32;
        [
            widen((v >> 8) & 15, 4),
            widen((v >> 4) & 15, 4),
            widen(v & 15, 4),
            widen(v >> 12, 4),
        ]
    }
}

/// 32-bit ARGB 8888 packed as `0xAARRGGBB`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Argb8888(pub u32);

impl Pixel for Argb8888 {
    const NAME: &'static str = "8888";
    #[inline]
    fn from_rgba(c: [u8; 4]) -> Self {
        Argb8888(u32::from_be_bytes([c[3], c[0], c[1], c[2]]))
    }
    #[inline]
    fn to_rgba(self) -> [u8; 4] {
        let [a, r, g, b] = self.0.to_be_bytes();
        [r, g, b, a]
    }
}

/// A true-colour render target of one pixel format, row-major, top row first.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface<P: Pixel> {
    width: usize,
    height: usize,
    pixels: Vec<P>,
}

impl<P: Pixel> Surface<P> {
    /// A surface filled with `P::default()` (transparent black for 4444/8888, black for 565).
    pub fn new(width: usize, height: usize) -> Self {
        Surface {
            width,
            height,
            pixels: vec![P::default(); width * height],
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// All pixels, row-major.
    pub fn pixels(&self) -> &[P] {
        &self.pixels
    }

    /// All pixels, row-major, for writing.
    pub fn pixels_mut(&mut self) -> &mut [P] {
        &mut self.pixels
    }

    /// Row `y` (panics if out of range, like slice indexing).
    pub fn row_mut(&mut self, y: usize) -> &mut [P] {
        &mut self.pixels[y * self.width..(y + 1) * self.width]
    }

    /// The pixel at (x, y), `None` outside the surface.
    pub fn get(&self, x: usize, y: usize) -> Option<P> {
        (x < self.width && y < self.height).then(|| self.pixels[y * self.width + x])
    }

    /// Set a pixel; writes outside the surface are ignored.
    pub fn set(&mut self, x: usize, y: usize, p: P) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = p;
        }
    }

    /// Set every pixel to `p`.
    pub fn clear(&mut self, p: P) {
        self.pixels.fill(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Palette, Target};

    #[test]
    fn rgb565_round_trips_every_value() {
        for v in 0..=u16::MAX {
            let p = Rgb565(v);
            assert_eq!(Rgb565::from_rgba(p.to_rgba()), p, "0x{v:04x}");
        }
    }

    #[test]
    fn argb4444_round_trips_every_value() {
        for v in 0..=u16::MAX {
            let p = Argb4444(v);
            assert_eq!(Argb4444::from_rgba(p.to_rgba()), p, "0x{v:04x}");
        }
    }

    #[test]
    fn channel_positions() {
        assert_eq!(Rgb565(0xf800).to_rgba(), [255, 0, 0, 255]);
        assert_eq!(Rgb565(0x07e0).to_rgba(), [0, 255, 0, 255]);
        assert_eq!(Rgb565(0x001f).to_rgba(), [0, 0, 255, 255]);
        assert_eq!(Argb4444(0xf000).to_rgba(), [0, 0, 0, 255]);
        assert_eq!(Argb4444(0x0f00).to_rgba(), [255, 0, 0, 0]);
        assert_eq!(Argb4444(0x000f).to_rgba(), [0, 0, 255, 0]);
        assert_eq!(Argb4444(0x1234).to_rgba(), [0x22, 0x33, 0x44, 0x11]);
        assert_eq!(Argb8888(0x80112233).to_rgba(), [0x11, 0x22, 0x33, 0x80]);
    }

    #[test]
    fn argb8888_is_lossless_for_every_rgba() {
        for a in [0u8, 1, 127, 255] {
            for r in 0..=255u8 {
                let c = [r, r.wrapping_mul(7), r ^ 0x5a, a];
                assert_eq!(Argb8888::from_rgba(c).to_rgba(), c);
            }
        }
    }

    #[test]
    fn narrowing_picks_the_nearest_value() {
        for v in 0..=255u8 {
            let p = Rgb565::from_rgba([v, v, v, 255]).to_rgba();
            // No other 5-bit level is closer than the chosen one.
            let chosen = (p[0] as i32 - v as i32).abs();
            for level in 0..32u32 {
                let w = widen(level, 5) as i32;
                assert!(chosen <= (w - v as i32).abs() + 1, "v={v} level={level}");
            }
        }
    }

    #[test]
    fn surface_access_and_export() {
        let mut s = Surface::<Argb4444>::new(3, 2);
        s.set(2, 1, Argb4444(0xf0f0));
        s.set(5, 5, Argb4444(0xffff)); // ignored
        assert_eq!(s.get(2, 1), Some(Argb4444(0xf0f0)));
        assert_eq!(s.get(3, 0), None);
        let rgba = s.to_rgba8(&Palette::grey_ramp());
        assert_eq!(rgba.len(), 3 * 2 * 4);
        assert_eq!(&rgba[20..24], &[0, 255, 0, 255]);
        s.clear(Argb4444(0x1111));
        assert!(s.pixels().iter().all(|&p| p == Argb4444(0x1111)));
        assert_eq!(s.row_mut(1).len(), 3);
    }
}
