//! The bench's `LODERROR coverage=<%> colour=<steps>` line: how far the units drawn with levels
//! of detail are from the exact units, on the same frame.
//!
//! Both pictures are the units alone ([`SceneRenderer::unit_layer`]: no terrain to hide a
//! difference), 8-bit, at the bench's frame size. A pixel is covered when its depth is finite.
//! - `coverage`: covered pixels with levels of detail minus covered pixels of the exact frame, in
//!   percent of the exact frame's (signed: negative means the coarse units cover less).
//! - `colour`: over the pixels both cover, the mean absolute difference of their palette colours,
//!   averaged over red, green and blue, in steps of the VGA DAC (255 / 63 of an 8-bit channel:
//!   the finest step an 8-bit mode-X palette entry can take).

use anyhow::Result;
use modex::{DepthBuffer, IndexedFrame, Palette};
use modex_demo::scene::{SceneRenderer, World};
use modex_voxel::Lod;

/// One 6-bit DAC step in 8-bit channel levels.
const DAC_STEP: f64 = 255.0 / 63.0;

/// The difference between an exact and a level-of-detail picture of the same units.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LodError {
    /// Pixels the exact picture covers.
    pub exact_pixels: u64,
    /// Pixels the level-of-detail picture covers.
    pub lod_pixels: u64,
    /// Pixels covered by one picture and not the other.
    pub differ_pixels: u64,
    /// Pixels both cover.
    pub both_pixels: u64,
    /// Sum over the pixels both cover of the mean channel difference, in 8-bit levels.
    pub colour_levels: f64,
    /// Frames compared: the pixel counts above are sums over them.
    pub frames: u64,
}

impl LodError {
    /// Compare `lod` with `exact` (the same size), colours through `palette`.
    pub fn of(
        exact: &(IndexedFrame, DepthBuffer),
        lod: &(IndexedFrame, DepthBuffer),
        palette: &Palette,
    ) -> LodError {
        let mut e = LodError {
            frames: 1,
            ..LodError::default()
        };
        let pixels = exact.0.pixels().iter().zip(lod.0.pixels());
        let depths = exact.1.values().iter().zip(lod.1.values());
        for ((&pa, &pb), (&da, &db)) in pixels.zip(depths) {
            let (ca, cb) = (da.is_finite(), db.is_finite());
            e.exact_pixels += ca as u64;
            e.lod_pixels += cb as u64;
            e.differ_pixels += (ca != cb) as u64;
            if ca && cb {
                e.both_pixels += 1;
                let (a, b) = (palette.colors[pa as usize], palette.colors[pb as usize]);
                let d: u32 = (0..3).map(|k| a[k].abs_diff(b[k]) as u32).sum();
                e.colour_levels += d as f64 / 3.0;
            }
        }
        e
    }

    /// Add another frame's counts.
    pub fn add(&mut self, o: &LodError) {
        self.exact_pixels += o.exact_pixels;
        self.lod_pixels += o.lod_pixels;
        self.differ_pixels += o.differ_pixels;
        self.both_pixels += o.both_pixels;
        self.colour_levels += o.colour_levels;
        self.frames += o.frames;
    }

    /// A pixel count of these frames as a mean per frame.
    pub fn per_frame(&self, pixels: u64) -> u64 {
        (pixels as f64 / self.frames.max(1) as f64).round() as u64
    }

    /// Covered pixels with levels of detail against the exact picture, in percent (signed).
    pub fn coverage_percent(&self) -> f64 {
        (self.lod_pixels as f64 - self.exact_pixels as f64) * 100.0
            / (self.exact_pixels.max(1) as f64)
    }

    /// Mean colour difference per pixel both cover, in DAC steps.
    pub fn colour_steps(&self) -> f64 {
        self.colour_levels / self.both_pixels.max(1) as f64 / DAC_STEP
    }

    /// The line, in the exact form the issue asks for.
    pub fn line(&self) -> String {
        format!(
            "LODERROR coverage={:+.2} colour={:.2}",
            self.coverage_percent(),
            self.colour_steps()
        )
    }
}

/// Frames the measurement averages over, and the world steps between them (so units turn and
/// move between the frames compared).
const FRAMES: usize = 4;
const STEPS_BETWEEN: usize = 30;

/// The error of levels of detail on `scene`'s view of `world` and the world stepped on: the
/// exact units against the units with [`Lod::Auto`], summed over [`FRAMES`] frames.
pub fn measure(scene: &SceneRenderer, world: &World) -> Result<LodError> {
    let mut world = world.clone();
    let mut total = LodError::default();
    for _ in 0..FRAMES {
        let exact = scene.unit_layer(&world, Lod::Off)?;
        let lod = scene.unit_layer(&world, Lod::Auto)?;
        total.add(&LodError::of(&exact, &lod, &scene.vpl().palette));
        for _ in 0..STEPS_BETWEEN {
            world.step();
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_coverage_and_colour_steps() {
        let mut palette = Palette::default();
        palette.colors[1] = [0, 0, 0];
        palette.colors[2] = [63, 126, 189]; // 15.6, 31.1 and 46.7 DAC steps from black
        let layer = |covered: &[usize], index: u8| {
            let mut f = IndexedFrame::new(4, 1);
            let mut d = DepthBuffer::new(4, 1);
            for &x in covered {
                f.pixels_mut()[x] = index;
                d.values_mut()[x] = 1.0;
            }
            (f, d)
        };
        let exact = layer(&[0, 1, 2, 3], 1);
        let lod = layer(&[0, 1, 2], 2);
        let e = LodError::of(&exact, &lod, &palette);
        assert_eq!(
            (e.exact_pixels, e.lod_pixels, e.differ_pixels, e.both_pixels),
            (4, 3, 1, 3)
        );
        assert!((e.coverage_percent() + 25.0).abs() < 1e-9);
        assert!((e.colour_steps() - 126.0 / DAC_STEP).abs() < 1e-9);
        assert_eq!(e.line(), "LODERROR coverage=-25.00 colour=31.13");
        // Two frames' counts add up, and per frame they are the one frame's again.
        let mut two = e;
        two.add(&e);
        assert_eq!((two.frames, two.exact_pixels), (2, 8));
        assert_eq!(two.per_frame(two.exact_pixels), 4);
        assert_eq!(two.line(), e.line());
    }
}
