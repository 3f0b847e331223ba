//! The render-target contract both renderers draw through.
//!
//! A [`Target`] is a row-major block of pixels of one format: the 8-bit mode-X [`IndexedFrame`]
//! (palette indices) or a true-colour [`Surface`] of [`Rgb565`], [`Argb4444`] or [`Argb8888`].
//! The rasterizer and the voxel ray-marcher are generic over it, so a caller picks the pixel
//! format once and every renderer, line and clear writes that format natively: no frame is drawn in
//! one format and converted to another afterwards.
//!
//! What a renderer needs beyond the pixels (how a texel or a voxel colour becomes a pixel) is a
//! trait of that renderer over [`Target::Px`]; this trait only says what every target shares.

use crate::camera::Camera;
use crate::depth::DepthBuffer;
use crate::frame::IndexedFrame;
use crate::palette::Palette;
use crate::pixel::{Argb4444, Argb8888, Pixel, Rgb565, Surface};

/// The four pixel formats a target can have, with the names the command line uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TargetFormat {
    /// 8-bit palette indices (the mode-X frame).
    Indexed8,
    /// 16-bit RGB 565.
    Rgb565,
    /// 16-bit ARGB 4444 (alpha-blended by the rasterizer).
    Argb4444,
    /// 32-bit ARGB 8888.
    Argb8888,
}

impl TargetFormat {
    /// Every format, 8-bit first.
    pub const ALL: [TargetFormat; 4] = [
        TargetFormat::Indexed8,
        TargetFormat::Rgb565,
        TargetFormat::Argb4444,
        TargetFormat::Argb8888,
    ];

    /// The short name: `"8"`, `"565"`, `"4444"` or `"8888"`.
    pub fn name(self) -> &'static str {
        match self {
            TargetFormat::Indexed8 => "8",
            TargetFormat::Rgb565 => Rgb565::NAME,
            TargetFormat::Argb4444 => Argb4444::NAME,
            TargetFormat::Argb8888 => Argb8888::NAME,
        }
    }

    /// The format of a short name (`"8"`, `"565"`, `"4444"`, `"8888"`).
    pub fn from_name(name: &str) -> Option<TargetFormat> {
        TargetFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl std::fmt::Display for TargetFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Something a renderer draws into: its size, its pixels and how a flat colour looks in it.
pub trait Target {
    /// The pixel type (`u8` palette index, or a [`Pixel`] format).
    type Px: Copy + Send + Sync + 'static;
    /// The pixel format.
    const FORMAT: TargetFormat;
    /// (width, height) in pixels.
    fn size(&self) -> (usize, usize);
    /// All pixels, row-major, top row first.
    fn pixels(&self) -> &[Self::Px];
    /// All pixels, row-major, top row first.
    fn pixels_mut(&mut self) -> &mut [Self::Px];
    /// The pixel showing `rgb` (opaque): the nearest palette entry for 8-bit targets.
    fn flat(rgb: [u8; 3], palette: &Palette) -> Self::Px;
    /// The RGBA colour a pixel shows, through `palette` for 8-bit targets.
    fn rgba(px: Self::Px, palette: &Palette) -> [u8; 4];

    /// Set every pixel to `px`.
    fn fill(&mut self, px: Self::Px) {
        self.pixels_mut().fill(px);
    }

    /// Set pixel (x, y); writes outside the target are ignored.
    fn put(&mut self, x: usize, y: usize, px: Self::Px) {
        let (w, h) = self.size();
        if x < w && y < h {
            self.pixels_mut()[y * w + x] = px;
        }
    }

    /// The target as the 8-bit mode-X frame, when it is one: savers and presenters keep its palette
    /// indices (an indexed PNG, the palette-mapped window) instead of converting it to colours.
    fn as_indexed(&self) -> Option<&IndexedFrame> {
        None
    }

    /// RGBA8 bytes of the whole target, row-major (for PNG export and presentation).
    fn to_rgba8(&self, palette: &Palette) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_rgba8(palette, &mut out);
        out
    }

    /// [`Target::to_rgba8`] into `out`, resized to fit: what every format's export goes through.
    /// A viewer passes the same `out` every frame, so nothing is allocated once it has held a
    /// picture of this size.
    fn write_rgba8(&self, palette: &Palette, out: &mut Vec<u8>) {
        write_rgba8(self.pixels(), out, |p| Self::rgba(p, palette));
    }
}

/// `pixels` as RGBA8 into `out` (resized to fit), each through `rgba`: the one conversion loop.
/// A plain indexed loop storing four bytes a pixel, which compiles to a load and a store per
/// pixel (the collected `flat_map` it replaces was 45 % of an 8-bit draw in the page's wasm
/// build, docs/benchmarks.md "Web").
fn write_rgba8<P: Copy>(pixels: &[P], out: &mut Vec<u8>, rgba: impl Fn(P) -> [u8; 4]) {
    out.resize(pixels.len() * 4, 0);
    for (o, &p) in out.chunks_exact_mut(4).zip(pixels) {
        o.copy_from_slice(&rgba(p));
    }
}

/// A draw was asked to combine a target, a depth buffer and a camera of different sizes.
///
/// Both renderers check this before drawing and refuse with this error instead of drawing a
/// stretched or partial picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "render target sizes differ: camera {}x{}, target {}x{}, depth {}x{}",
    camera.0, camera.1, target.0, target.1, depth.0, depth.1
)]
pub struct SizeMismatch {
    /// The camera's viewport (width, height).
    pub camera: (usize, usize),
    /// The target's (width, height).
    pub target: (usize, usize),
    /// The depth buffer's (width, height).
    pub depth: (usize, usize),
}

impl SizeMismatch {
    /// `Ok` when `target`, `depth` and `camera` all have the same size.
    pub fn check<T: Target + ?Sized>(
        target: &T,
        depth: &DepthBuffer,
        camera: &Camera,
    ) -> Result<(), SizeMismatch> {
        let m = SizeMismatch {
            camera: (camera.width, camera.height),
            target: target.size(),
            depth: (depth.width(), depth.height()),
        };
        if m.camera == m.target && m.depth == m.target {
            Ok(())
        } else {
            Err(m)
        }
    }
}

impl Target for IndexedFrame {
    type Px = u8;
    const FORMAT: TargetFormat = TargetFormat::Indexed8;
    fn size(&self) -> (usize, usize) {
        (self.width(), self.height())
    }
    fn pixels(&self) -> &[u8] {
        IndexedFrame::pixels(self)
    }
    fn pixels_mut(&mut self) -> &mut [u8] {
        IndexedFrame::pixels_mut(self)
    }
    fn flat(rgb: [u8; 3], palette: &Palette) -> u8 {
        palette.nearest(rgb)
    }
    fn rgba(px: u8, palette: &Palette) -> [u8; 4] {
        palette.rgba(px)
    }
    /// Through a table of the 256 colours as RGBA8, built once per picture: one load a pixel
    /// instead of three bytes put together.
    fn write_rgba8(&self, palette: &Palette, out: &mut Vec<u8>) {
        let table: [[u8; 4]; 256] = std::array::from_fn(|i| palette.rgba(i as u8));
        write_rgba8(self.pixels(), out, |i| table[i as usize]);
    }
    fn as_indexed(&self) -> Option<&IndexedFrame> {
        Some(self)
    }
}

/// The [`TargetFormat`] of each true-colour pixel type, and its export loop.
pub trait SurfacePixel: Pixel {
    /// This pixel type's format.
    const FORMAT: TargetFormat;

    /// `pixels` as RGBA8 into `out` (resized to fit): [`Target::write_rgba8`] of a surface.
    fn write_rgba8(pixels: &[Self], out: &mut Vec<u8>) {
        write_rgba8(pixels, out, Self::to_rgba);
    }
}

impl SurfacePixel for Rgb565 {
    const FORMAT: TargetFormat = TargetFormat::Rgb565;

    /// [`Rgb565::to_rgba`]'s bit replication in 16-bit arithmetic, stored as two 16-bit halves
    /// (red and green, blue and alpha). Written per channel in bytes, as `to_rgba` is, the
    /// compiler vectorised it in byte lanes, whose shifts WebAssembly SIMD does not have in
    /// hardware: it was a third of the page's 565 draw at 1920x1080, twice native's share
    /// (docs/benchmarks.md, "Web"). In 16-bit lanes it is eight pixels a register in both.
    fn write_rgba8(pixels: &[Rgb565], out: &mut Vec<u8>) {
        out.resize(pixels.len() * 4, 0);
        for (o, &Rgb565(v)) in out.chunks_exact_mut(4).zip(pixels) {
            // Each channel's top bits repeated below it: r5 r5[4:2], g6 g6[5:4], b5 b5[4:2].
            let r = (v >> 8) & 0xf8 | v >> 13;
            let g = (v >> 3) & 0xfc | (v >> 9) & 0x3;
            let b = (v << 3) & 0xf8 | (v >> 2) & 0x7;
            o[..2].copy_from_slice(&(r | g << 8).to_le_bytes());
            o[2..].copy_from_slice(&(b | 0xff00).to_le_bytes());
        }
    }
}
impl SurfacePixel for Argb4444 {
    const FORMAT: TargetFormat = TargetFormat::Argb4444;
}
impl SurfacePixel for Argb8888 {
    const FORMAT: TargetFormat = TargetFormat::Argb8888;
}

impl<P: SurfacePixel> Target for Surface<P> {
    type Px = P;
    const FORMAT: TargetFormat = P::FORMAT;
    fn size(&self) -> (usize, usize) {
        (self.width(), self.height())
    }
    fn pixels(&self) -> &[P] {
        Surface::pixels(self)
    }
    fn pixels_mut(&mut self) -> &mut [P] {
        Surface::pixels_mut(self)
    }
    fn flat([r, g, b]: [u8; 3], _: &Palette) -> P {
        P::from_rgba([r, g, b, 255])
    }
    fn rgba(px: P, _: &Palette) -> [u8; 4] {
        px.to_rgba()
    }
    fn write_rgba8(&self, _: &Palette, out: &mut Vec<u8>) {
        P::write_rgba8(self.pixels(), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_mismatch_names_all_three_sizes() {
        let cam = Camera::look_at(glam::Vec3::NEG_Y, glam::Vec3::ZERO, 1.0, 4, 3);
        let f = IndexedFrame::new(4, 3);
        assert!(SizeMismatch::check(&f, &DepthBuffer::new(4, 3), &cam).is_ok());
        let e = SizeMismatch::check(&f, &DepthBuffer::new(4, 2), &cam).unwrap_err();
        assert_eq!(e.depth, (4, 2));
        assert!(e.to_string().contains("depth 4x2"), "{e}");
        let wide = Camera { width: 8, ..cam };
        assert!(SizeMismatch::check(&f, &DepthBuffer::new(4, 3), &wide).is_err());
    }

    #[test]
    fn names_round_trip() {
        for f in TargetFormat::ALL {
            assert_eq!(TargetFormat::from_name(f.name()), Some(f));
        }
        assert_eq!(TargetFormat::from_name("24"), None);
        assert_eq!(<Surface<Rgb565> as Target>::FORMAT, TargetFormat::Rgb565);
    }

    #[test]
    fn rgb565_export_is_to_rgba_for_every_pixel() {
        let all: Vec<Rgb565> = (0..=u16::MAX).map(Rgb565).collect();
        let mut out = vec![7; 3];
        <Rgb565 as SurfacePixel>::write_rgba8(&all, &mut out);
        assert_eq!(out.len(), all.len() * 4);
        for (o, p) in out.chunks_exact(4).zip(&all) {
            assert_eq!(o, p.to_rgba(), "{p:?}");
        }
    }

    #[test]
    fn flat_colours_and_export_agree_across_formats() {
        let pal = Palette::grey_ramp();
        let mut f = IndexedFrame::new(2, 1);
        let px = IndexedFrame::flat([10, 10, 10], &pal);
        Target::put(&mut f, 1, 0, px);
        Target::put(&mut f, 5, 0, 3); // ignored
        assert_eq!(f.to_rgba8(&pal), vec![0, 0, 0, 255, 10, 10, 10, 255]);
        let mut s = Surface::<Argb8888>::new(2, 1);
        Target::fill(&mut s, Surface::<Argb8888>::flat([1, 2, 3], &pal));
        assert_eq!(Target::to_rgba8(&s, &pal), vec![1, 2, 3, 255, 1, 2, 3, 255]);
    }
}
