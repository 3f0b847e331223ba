//! The one switch from a pixel format to a render target, for every frontend.
//!
//! The rasterizer and the voxel renderer draw into any [`modex::Target`], so a frontend writes each
//! picture once, generic over the target ([`Drawing`]), and asks this module for the concrete
//! target of the format the user chose ([`AnyTarget`]): the 8-bit mode-X frame or a 565 / 4444 /
//! 8888 surface. `modex render` saves it, `modex view` presents it, the page reads its RGBA: all
//! through the methods here, so a new pixel format is added in this one place.

use std::path::Path;

use modex::pngio::{self, PngError};
use modex::present::{Present, PresentError};
use modex::{
    Argb4444, Argb8888, DepthBuffer, IndexedFrame, Palette, Rgb565, Surface, Target, TargetFormat,
};
use modex_raster::RasterPixel;
use modex_voxel::VoxelPixel;

use crate::ViewError;

/// A picture that can be drawn into a target of any format.
pub trait Drawing {
    /// Draw into `target` (the drawing clears what it needs to).
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
    where
        T::Px: RasterPixel + VoxelPixel;
}

/// A render target of one of the four formats, chosen at run time.
#[derive(Debug, Clone)]
pub enum AnyTarget {
    /// The 8-bit mode-X frame (palette indices).
    Indexed8(IndexedFrame),
    /// A 16-bit RGB 565 surface.
    Rgb565(Surface<Rgb565>),
    /// A 16-bit ARGB 4444 surface.
    Argb4444(Surface<Argb4444>),
    /// A 32-bit ARGB 8888 surface.
    Argb8888(Surface<Argb8888>),
}

/// Run `$body` with `$t` bound to the concrete target inside `$target`: the switch itself.
macro_rules! each_format {
    ($target:expr, $t:ident => $body:expr) => {
        match $target {
            AnyTarget::Indexed8($t) => $body,
            AnyTarget::Rgb565($t) => $body,
            AnyTarget::Argb4444($t) => $body,
            AnyTarget::Argb8888($t) => $body,
        }
    };
}

impl AnyTarget {
    /// A `width` x `height` target of `format`, cleared to zero.
    pub fn new(format: TargetFormat, width: usize, height: usize) -> AnyTarget {
        let (w, h) = (width, height);
        match format {
            TargetFormat::Indexed8 => AnyTarget::Indexed8(IndexedFrame::new(w, h)),
            TargetFormat::Rgb565 => AnyTarget::Rgb565(Surface::new(w, h)),
            TargetFormat::Argb4444 => AnyTarget::Argb4444(Surface::new(w, h)),
            TargetFormat::Argb8888 => AnyTarget::Argb8888(Surface::new(w, h)),
        }
    }

    /// The format of this target.
    pub fn format(&self) -> TargetFormat {
        match self {
            AnyTarget::Indexed8(_) => TargetFormat::Indexed8,
            AnyTarget::Rgb565(_) => TargetFormat::Rgb565,
            AnyTarget::Argb4444(_) => TargetFormat::Argb4444,
            AnyTarget::Argb8888(_) => TargetFormat::Argb8888,
        }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (usize, usize) {
        each_format!(self, t => t.size())
    }

    /// Make this a target of `format` (keeping the size); nothing is allocated when it already is
    /// one, so a viewer can call this every frame.
    pub fn switch_to(&mut self, format: TargetFormat) {
        if self.format() != format {
            let (w, h) = self.size();
            *self = AnyTarget::new(format, w, h);
        }
    }

    /// Make this a `width` x `height` target of `format`, allocating only when its format or size
    /// changes, so a viewer can call this every frame. The pixels are what the last draw left
    /// (zero when new): a drawing that does not cover every pixel clears first
    /// ([`AnyTarget::clear`]).
    pub fn fit(&mut self, format: TargetFormat, width: usize, height: usize) {
        if self.format() != format || self.size() != (width, height) {
            *self = AnyTarget::new(format, width, height);
        }
    }

    /// Set every pixel to zero, as [`AnyTarget::new`] leaves them.
    pub fn clear(&mut self) {
        each_format!(self, t => Target::fill(t, Default::default()))
    }

    /// Draw `drawing` into this target.
    pub fn draw(&mut self, drawing: &mut impl Drawing) -> Result<(), ViewError> {
        each_format!(self, t => drawing.draw(t))
    }

    /// The pixels as RGBA8, 8-bit indices through `palette` (what [`AnyTarget::save_png`] writes).
    pub fn to_rgba8(&self, palette: &Palette) -> Vec<u8> {
        each_format!(self, t => Target::to_rgba8(t, palette))
    }

    /// [`AnyTarget::to_rgba8`] into `out` (resized to fit), which a viewer keeps between frames.
    pub fn write_rgba8(&self, palette: &Palette, out: &mut Vec<u8>) {
        each_format!(self, t => Target::write_rgba8(t, palette, out))
    }

    /// Save as a PNG: indexed for the 8-bit frame (its indices survive exactly), RGBA otherwise.
    pub fn save_png(&self, path: &Path, palette: &Palette) -> Result<(), PngError> {
        each_format!(self, t => pngio::save_target(path, t, palette))
    }

    /// [`AnyTarget::save_png`] of a picture drawn over nothing (a unit): it covers the pixels
    /// whose `depth` is finite, and the others are transparent in every format with alpha, as
    /// the 8888 and 4444 targets, cleared to zero, already are. An 8-bit frame's uncovered
    /// pixels are set to a key index that the PNG's `tRNS` makes transparent
    /// ([`background_key`]); covered pixels keep their indices exactly. 565 has no alpha.
    pub fn save_png_covered(
        &self,
        path: &Path,
        palette: &Palette,
        depth: &DepthBuffer,
    ) -> Result<(), PngError> {
        let AnyTarget::Indexed8(frame) = self else {
            return self.save_png(path, palette);
        };
        let Some(key) = background_key(frame.pixels(), depth.values()) else {
            log::warn!("the picture uses all 256 palette indices: its background is saved opaque");
            return self.save_png(path, palette);
        };
        let mut keyed = frame.clone();
        for (p, d) in keyed.pixels_mut().iter_mut().zip(depth.values()) {
            if !d.is_finite() {
                *p = key;
            }
        }
        pngio::write_file(
            path,
            &pngio::encode_indexed_keyed(&keyed, palette, Some(key))?,
        )
    }

    /// [`AnyTarget::write_rgba8`] of a picture drawn over nothing, as
    /// [`AnyTarget::save_png_covered`] saves it: an 8-bit frame's uncovered pixels are written
    /// transparent (`[0, 0, 0, 0]`, what the cleared true-colour targets hold) when the PNG keys
    /// them, so a page shows what `modex render` wrote.
    pub fn write_rgba8_covered(&self, palette: &Palette, depth: &DepthBuffer, out: &mut Vec<u8>) {
        self.write_rgba8(palette, out);
        let AnyTarget::Indexed8(frame) = self else {
            return;
        };
        if background_key(frame.pixels(), depth.values()).is_some() {
            for (px, d) in out.chunks_exact_mut(4).zip(depth.values()) {
                if !d.is_finite() {
                    px.fill(0);
                }
            }
        }
    }

    /// Show on `presenter` (8-bit frames stay indexed); `false` once the user closed it.
    pub fn present(
        &self,
        presenter: &mut impl Present,
        palette: &Palette,
    ) -> Result<bool, PresentError> {
        each_format!(self, t => presenter.present_target(t, palette))
    }
}

/// The palette index an 8-bit picture's uncovered pixels (those whose `depth` is not finite)
/// are saved with, transparent: index 0 (the Westwood palettes' background, what the frame is
/// cleared to) unless a covered pixel uses it, else the lowest index no covered pixel uses;
/// `None` when they use all 256.
pub fn background_key(pixels: &[u8], depth: &[f32]) -> Option<u8> {
    let mut used = [false; 256];
    for (&p, d) in pixels.iter().zip(depth) {
        used[usize::from(p)] |= d.is_finite();
    }
    (0..=255u8).find(|&i| !used[usize::from(i)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills the target with one colour.
    struct Flat([u8; 3]);

    impl Drawing for Flat {
        fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
        where
            T::Px: RasterPixel + VoxelPixel,
        {
            target.fill(T::flat(self.0, &Palette::quake()));
            Ok(())
        }
    }

    /// The key is index 0 unless a covered pixel uses it, then the lowest index none uses; with
    /// all 256 used there is none. Uncovered pixels' own indices do not count.
    #[test]
    fn the_background_key_is_an_index_no_covered_pixel_uses() {
        const NO: f32 = f32::INFINITY;
        let all: Vec<u8> = (0..=255).collect();
        let yes = vec![1.0; 256];
        assert_eq!(background_key(&all, &yes), None);
        let mut depth = yes.clone();
        depth[0] = NO;
        assert_eq!(background_key(&all, &depth), Some(0));
        depth[0] = 1.0;
        depth[7] = NO;
        depth[3] = NO;
        assert_eq!(background_key(&all, &depth), Some(3));
        assert_eq!(background_key(&[5, 0, 9], &[NO, NO, NO]), Some(0));
        assert_eq!(background_key(&[0, 1, 9], &[0.5, -2.0, NO]), Some(2));
    }

    /// A picture saved over its covered pixels: the uncovered ones read back transparent
    /// through the PNG's key, the covered ones keep their indices and read back opaque; a page
    /// is given the same colours, and transparent black where the PNG is transparent.
    #[test]
    fn an_indexed_picture_is_saved_with_its_background_transparent() {
        let mut t = AnyTarget::new(TargetFormat::Indexed8, 4, 2);
        let AnyTarget::Indexed8(f) = &mut t else {
            unreachable!()
        };
        f.pixels_mut().copy_from_slice(&[0, 1, 2, 0, 0, 0, 9, 9]);
        let mut depth = DepthBuffer::new(4, 2);
        for (d, c) in depth.values_mut().iter_mut().zip([1, 1, 1, 0, 0, 0, 1, 0]) {
            if c == 1 {
                *d = 2.0;
            }
        }
        let path = std::env::temp_dir().join(format!("modex-keyed-{}.png", std::process::id()));
        t.save_png_covered(&path, &Palette::quake(), &depth)
            .unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let (frame, _) = pngio::decode_indexed(&bytes).unwrap();
        // Index 0 is a covered pixel's colour: the key is 3, the lowest unused.
        assert_eq!(frame.pixels(), &[0, 1, 2, 3, 3, 3, 9, 3]);
        let (_, _, rgba) = pngio::decode_rgba(&bytes).unwrap();
        let alpha: Vec<u8> = rgba.chunks(4).map(|p| p[3]).collect();
        assert_eq!(alpha, [255, 255, 255, 0, 0, 0, 255, 0]);
        let mut page = Vec::new();
        t.write_rgba8_covered(&Palette::quake(), &depth, &mut page);
        for (i, (p, r)) in page.chunks(4).zip(rgba.chunks(4)).enumerate() {
            if r[3] == 0 {
                assert_eq!(p, [0, 0, 0, 0], "pixel {i}");
            } else {
                assert_eq!(p, r, "pixel {i}");
            }
        }
    }

    #[test]
    fn every_format_draws_saves_and_reads_back_the_same_colour() {
        let dir = std::env::temp_dir().join(format!("modex-anytarget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pal = Palette::quake();
        for f in TargetFormat::ALL {
            let mut t = AnyTarget::new(TargetFormat::Indexed8, 4, 3);
            t.switch_to(f);
            assert_eq!((t.format(), t.size()), (f, (4, 3)));
            // Index 0 of the Quake palette is black, exact in every format.
            t.draw(&mut Flat([0, 0, 0])).unwrap();
            assert!(
                t.to_rgba8(&pal).chunks(4).all(|p| p == [0, 0, 0, 255]),
                "{f}"
            );
            let out = dir.join(format!("{f}.png"));
            t.save_png(&out, &pal).unwrap();
            let (w, h, rgba) = pngio::decode_rgba(&std::fs::read(&out).unwrap()).unwrap();
            assert_eq!((w, h), (4, 3));
            assert_eq!(rgba, t.to_rgba8(&pal), "{f}");
        }
        // The 8-bit frame is saved indexed.
        pngio::decode_indexed(&std::fs::read(dir.join("8.png")).unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_kept_target_is_cleared_and_refitted_like_a_new_one() {
        let pal = Palette::quake();
        let mut out = vec![7; 3];
        for f in TargetFormat::ALL {
            let mut t = AnyTarget::new(f, 4, 3);
            t.draw(&mut Flat([255, 255, 255])).unwrap();
            t.fit(f, 4, 3); // same format and size: the picture stays
            t.write_rgba8(&pal, &mut out);
            assert_eq!(out, t.to_rgba8(&pal), "{f}");
            assert!(out.chunks(4).all(|p| p == [255, 255, 255, 255]), "{f}");
            t.clear();
            t.write_rgba8(&pal, &mut out);
            assert_eq!(out, AnyTarget::new(f, 4, 3).to_rgba8(&pal), "{f}");
            t.fit(f, 2, 5);
            assert_eq!(t.size(), (2, 5));
            t.write_rgba8(&pal, &mut out);
            assert_eq!(out, AnyTarget::new(f, 2, 5).to_rgba8(&pal), "{f}");
        }
    }

    #[test]
    fn a_bright_colour_differs_by_format_only_as_its_depth_says() {
        let pal = Palette::quake();
        let white = |f| {
            let mut t = AnyTarget::new(f, 1, 1);
            t.draw(&mut Flat([255, 255, 255])).unwrap();
            t.to_rgba8(&pal)
        };
        assert_eq!(white(TargetFormat::Argb8888), [255, 255, 255, 255]);
        assert_eq!(white(TargetFormat::Rgb565), [255, 255, 255, 255]);
        assert_eq!(white(TargetFormat::Argb4444), [255, 255, 255, 255]);
    }
}
