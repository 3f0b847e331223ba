//! The one switch from `--format` (or the viewers' format key, [`next`]) to a render target of
//! that pixel format.
//!
//! Both renderers draw into any `modex::Target`, so the frontends write each drawing once, generic
//! over the target ([`DrawInto`]), and this module picks the concrete target: the 8-bit mode-X
//! frame or a 565 / 4444 / 8888 surface. Saving and presenting go through the core's
//! `pngio::save_target` and `Present::present_target`, which keep 8-bit frames indexed.

use std::path::Path;

use anyhow::Result;
use modex::present::Present;
use modex::{pngio, Argb4444, Argb8888, IndexedFrame, Palette, Rgb565, Surface, Target};
use modex_raster::RasterPixel;
use modex_voxel::VoxelPixel;

use crate::cli::TargetFormat;

/// The format after `format` in the viewers' cycle: 8-bit, 565, 4444, 8888, then 8-bit again
/// (the order of [`TargetFormat::ALL`]).
pub fn next(format: TargetFormat) -> TargetFormat {
    let all = TargetFormat::ALL;
    let at = all.iter().position(|&f| f == format).unwrap_or(0);
    all[(at + 1) % all.len()]
}

/// A drawing that can be made in any target format.
pub trait DrawInto {
    /// Draw into `target` (the drawing clears what it needs to).
    fn draw_into<T: Target>(&mut self, target: &mut T) -> Result<()>
    where
        T::Px: RasterPixel + VoxelPixel;
}

/// Draw `drawing` into a `width` x `height` target of `format` and save it as a PNG (indexed for
/// the 8-bit format, through `palette`).
pub fn save_png(
    format: TargetFormat,
    (width, height): (usize, usize),
    palette: &Palette,
    out: &Path,
    drawing: &mut impl DrawInto,
) -> Result<()> {
    fn save<T: Target>(
        mut target: T,
        palette: &Palette,
        out: &Path,
        drawing: &mut impl DrawInto,
    ) -> Result<()>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        drawing.draw_into(&mut target)?;
        pngio::save_target(out, &target, palette)?;
        Ok(())
    }
    let (w, h) = (width, height);
    match format {
        TargetFormat::Indexed8 => save(IndexedFrame::new(w, h), palette, out, drawing),
        TargetFormat::Rgb565 => save(Surface::<Rgb565>::new(w, h), palette, out, drawing),
        TargetFormat::Argb4444 => save(Surface::<Argb4444>::new(w, h), palette, out, drawing),
        TargetFormat::Argb8888 => save(Surface::<Argb8888>::new(w, h), palette, out, drawing),
    }
}

/// One target of each format, kept across a viewer's frames so switching formats allocates nothing.
pub struct Targets {
    indexed: IndexedFrame,
    rgb565: Surface<Rgb565>,
    argb4444: Surface<Argb4444>,
    argb8888: Surface<Argb8888>,
}

impl Targets {
    /// Targets of `width` x `height` pixels.
    pub fn new(width: usize, height: usize) -> Targets {
        Targets {
            indexed: IndexedFrame::new(width, height),
            rgb565: Surface::new(width, height),
            argb4444: Surface::new(width, height),
            argb8888: Surface::new(width, height),
        }
    }

    /// Draw `drawing` into the target of `format` and present it; `false` once the user quit.
    pub fn show(
        &mut self,
        format: TargetFormat,
        presenter: &mut impl Present,
        palette: &Palette,
        drawing: &mut impl DrawInto,
    ) -> Result<bool> {
        fn show<T: Target>(
            target: &mut T,
            presenter: &mut impl Present,
            palette: &Palette,
            drawing: &mut impl DrawInto,
        ) -> Result<bool>
        where
            T::Px: RasterPixel + VoxelPixel,
        {
            drawing.draw_into(target)?;
            Ok(presenter.present_target(target, palette)?)
        }
        match format {
            TargetFormat::Indexed8 => show(&mut self.indexed, presenter, palette, drawing),
            TargetFormat::Rgb565 => show(&mut self.rgb565, presenter, palette, drawing),
            TargetFormat::Argb4444 => show(&mut self.argb4444, presenter, palette, drawing),
            TargetFormat::Argb8888 => show(&mut self.argb8888, presenter, palette, drawing),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills the target with one colour.
    struct Flat([u8; 3]);

    impl DrawInto for Flat {
        fn draw_into<T: Target>(&mut self, target: &mut T) -> Result<()>
        where
            T::Px: RasterPixel + VoxelPixel,
        {
            target.fill(T::flat(self.0, &Palette::quake()));
            Ok(())
        }
    }

    #[test]
    fn the_format_key_cycles_through_every_format() {
        let mut f = TargetFormat::Indexed8;
        let mut seen = Vec::new();
        for _ in 0..4 {
            f = next(f);
            seen.push(f.name());
        }
        assert_eq!(seen, ["565", "4444", "8888", "8"]);
    }

    #[test]
    fn every_format_saves_the_same_colour() {
        let dir = std::env::temp_dir().join(format!("modex-targets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pal = Palette::quake();
        // Index 0 of the Quake palette is black, exact in every format.
        for f in TargetFormat::ALL {
            let out = dir.join(format!("{f}.png"));
            save_png(f, (4, 3), &pal, &out, &mut Flat([0, 0, 0])).unwrap();
            let (w, h, rgba) = pngio::decode_rgba(&std::fs::read(&out).unwrap()).unwrap();
            assert_eq!((w, h), (4, 3));
            assert!(rgba.chunks(4).all(|p| p == [0, 0, 0, 255]), "{f}");
        }
        let (_, _) = pngio::decode_indexed(&std::fs::read(dir.join("8.png")).unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
