//! Translucency: how an entity drawn with an opacity below 100 % mixes with what is behind it, in
//! every pixel format, including the 8-bit palettized frame.
//!
//! True-colour targets mix channels directly ([`mix_rgb`]). An 8-bit frame holds palette indices,
//! so, as the 8-bit engines of the 1990s did, it mixes through a lookup table: entry
//! `src * 256 + dst` is the palette index nearest to `alpha * src + (1 - alpha) * dst`. A table
//! costs 64 KiB, so opacities are quantised to [`Opacity::STEPS`] steps (12.5 % each), and a
//! [`BlendTables`] builds each step's table the first time it is drawn. Nearest colours are exact,
//! through [`NearestColours`] (built once per palette), so a table takes 65 536 lookups of a few
//! candidates each rather than 65 536 searches of 256 entries. Integer maths throughout: every machine gets the same bytes.

use std::sync::OnceLock;

use crate::nearest::NearestColours;
use crate::palette::{rgb_distance_sq, Palette};
use crate::pixel::Pixel;

/// An entity's opacity, quantised to the steps the 8-bit tables use (0 = invisible,
/// [`Opacity::STEPS`] = opaque).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Opacity(u8);

impl Opacity {
    /// Steps from invisible to opaque.
    pub const STEPS: u8 = 8;
    /// Fully opaque: drawn as if there were no blending.
    pub const OPAQUE: Opacity = Opacity(Self::STEPS);

    /// The step nearest to `percent` (A5's `alpha`, 0..100; outside that range it is clamped, NaN
    /// is opaque).
    pub fn from_percent(percent: f32) -> Opacity {
        if percent.is_nan() {
            return Opacity::OPAQUE;
        }
        let p = percent.clamp(0.0, 100.0);
        Opacity((p * f32::from(Self::STEPS) / 100.0).round() as u8)
    }

    /// The step, 0..=[`Opacity::STEPS`].
    pub fn step(self) -> u8 {
        self.0
    }

    /// Whether nothing is drawn.
    pub fn is_invisible(self) -> bool {
        self.0 == 0
    }

    /// Whether the entity is drawn without blending.
    pub fn is_opaque(self) -> bool {
        self.0 >= Self::STEPS
    }

    /// The source's weight out of 256, for true-colour mixing: step 4 of 8 is 128.
    pub fn weight256(self) -> u32 {
        u32::from(self.0) * 256 / u32::from(Self::STEPS)
    }
}

impl Default for Opacity {
    fn default() -> Self {
        Opacity::OPAQUE
    }
}

/// Mix two channels with the source weighted `w` out of 256 (rounded).
#[inline]
pub fn mix_channel(src: u32, dst: u32, w: u32) -> u32 {
    (src * w + dst * (256 - w) + 128) >> 8
}

/// Mix two RGB colours with the source weighted `w` out of 256.
#[inline]
pub fn mix_rgb(src: [u8; 3], dst: [u8; 3], w: u32) -> [u8; 3] {
    [0, 1, 2].map(|c| mix_channel(u32::from(src[c]), u32::from(dst[c]), w) as u8)
}

/// Mix two pixels of a true-colour format channel by channel, alpha too, the source weighted `w`
/// out of 256: the one true-colour translucency rule of both renderers (over a transparent 4444
/// background the result's coverage is the entity's opacity).
#[inline]
pub fn mix_pixel<P: Pixel>(src: P, dst: P, w: u32) -> P {
    let (s, d) = (src.to_rgba(), dst.to_rgba());
    P::from_rgba([0, 1, 2, 3].map(|c| mix_channel(u32::from(s[c]), u32::from(d[c]), w) as u8))
}

/// One opacity's 8-bit mixing table.
pub struct BlendTable(Box<[u8]>);

impl BlendTable {
    /// The palette index shown where `src` is drawn over `dst`.
    #[inline]
    pub fn mix(&self, src: u8, dst: u8) -> u8 {
        self.0[usize::from(src) << 8 | usize::from(dst)]
    }
}

/// The 8-bit mixing tables of one palette, one per opacity step, built on first use (from any
/// thread: [`OnceLock`]).
pub struct BlendTables {
    palette: Palette,
    nearest: OnceLock<NearestColours>,
    tables: [OnceLock<BlendTable>; Opacity::STEPS as usize],
}

impl BlendTables {
    /// Tables for `palette`; nothing is computed until [`BlendTables::table`] is called.
    pub fn new(palette: &Palette) -> BlendTables {
        BlendTables {
            palette: palette.clone(),
            nearest: OnceLock::new(),
            tables: Default::default(),
        }
    }

    /// The palette the tables mix in.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The table for `opacity`, or `None` when it is opaque or invisible (nothing to mix).
    pub fn table(&self, opacity: Opacity) -> Option<&BlendTable> {
        if opacity.is_opaque() || opacity.is_invisible() {
            return None;
        }
        let slot = &self.tables[usize::from(opacity.step())];
        Some(slot.get_or_init(|| {
            let nearest = self
                .nearest
                .get_or_init(|| NearestColours::new(&self.palette, 0..=255));
            let w = opacity.weight256();
            let mut t = vec![0u8; 256 * 256].into_boxed_slice();
            for (i, slot) in t.iter_mut().enumerate() {
                let (s, d) = ((i >> 8) as u8, (i & 255) as u8);
                let mixed = mix_rgb(self.palette.colors[i >> 8], self.palette.colors[i & 255], w);
                // The nearest entry, exactly; on a tie the inputs themselves come first, so a
                // colour mixed with itself stays its own index even where the palette holds it
                // twice. (A 5-bit cube answering for the middle of each cell mapped dark mixes
                // up to a step off: the 8-bit texel mapping's error, issue 40.)
                *slot = [s, d, nearest.nearest(mixed)]
                    .into_iter()
                    .min_by_key(|&c| rgb_distance_sq(self.palette.colors[usize::from(c)], mixed))
                    .unwrap_or(s);
            }
            BlendTable(t)
        }))
    }
}

impl std::fmt::Debug for BlendTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.tables.iter().filter(|t| t.get().is_some()).count();
        f.debug_struct("BlendTables")
            .field("tables_built", &built)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_to_eighths_and_clamps() {
        assert_eq!(Opacity::from_percent(50.0).step(), 4);
        assert_eq!(Opacity::from_percent(100.0), Opacity::OPAQUE);
        assert_eq!(Opacity::from_percent(250.0), Opacity::OPAQUE);
        assert!(Opacity::from_percent(-3.0).is_invisible());
        assert!(Opacity::from_percent(5.0).is_invisible());
        assert_eq!(Opacity::from_percent(7.0).step(), 1);
        assert_eq!(Opacity::from_percent(f32::NAN), Opacity::OPAQUE);
        assert_eq!(Opacity::from_percent(50.0).weight256(), 128);
    }

    #[test]
    fn true_colour_mix_is_rounded_and_exact_at_the_ends() {
        assert_eq!(mix_rgb([255, 0, 100], [0, 255, 100], 128), [128, 128, 100]);
        assert_eq!(mix_rgb([9, 8, 7], [200, 100, 50], 256), [9, 8, 7]);
        assert_eq!(mix_rgb([9, 8, 7], [200, 100, 50], 0), [200, 100, 50]);
    }

    #[test]
    fn pixel_mix_is_the_channel_mix_of_every_channel() {
        use crate::pixel::Argb8888;
        let (s, d) = (Argb8888(0x80ff_0064), Argb8888(0xff00_ff64));
        let m = mix_pixel(s, d, 128).to_rgba();
        assert_eq!(m, [128, 128, 100, 192]);
    }

    #[test]
    fn grey_ramp_half_mix_lands_between() {
        let tables = BlendTables::new(&Palette::grey_ramp());
        let half = tables.table(Opacity::from_percent(50.0)).unwrap();
        let grey = |i: u8| Palette::grey_ramp().colors[usize::from(i)][0];
        for (s, d) in [(0u8, 255u8), (255, 0), (10, 200), (77, 77)] {
            let want = (u32::from(grey(s)) + u32::from(grey(d))).div_ceil(2);
            let got = u32::from(grey(half.mix(s, d)));
            assert!(got.abs_diff(want) <= 8, "{s} over {d}: {got}, want {want}");
        }
        // Mixing a colour with itself keeps it (within the cube's 3-bit steps).
        assert_eq!(grey(half.mix(77, 77)).abs_diff(grey(77)), 0);
    }

    #[test]
    fn every_mix_is_a_nearest_entry_and_a_colour_mixed_with_itself_stays_itself() {
        let palette = Palette::quake();
        let tables = BlendTables::new(&palette);
        let table = tables.table(Opacity::from_percent(37.5)).unwrap();
        let w = Opacity::from_percent(37.5).weight256();
        for i in (0..256 * 256).step_by(7) {
            let (s, d) = ((i >> 8) as u8, (i & 255) as u8);
            let mixed = mix_rgb(palette.colors[i >> 8], palette.colors[i & 255], w);
            let got = rgb_distance_sq(palette.colors[usize::from(table.mix(s, d))], mixed);
            let best = (0..=255u8)
                .map(|c| rgb_distance_sq(palette.colors[usize::from(c)], mixed))
                .min()
                .unwrap();
            assert_eq!(got, best, "src {s} dst {dst}", dst = d);
        }
        for c in 0..=255u8 {
            assert_eq!(table.mix(c, c), c);
        }
    }

    #[test]
    fn opaque_and_invisible_need_no_table() {
        let tables = BlendTables::new(&Palette::quake());
        assert!(tables.table(Opacity::OPAQUE).is_none());
        assert!(tables.table(Opacity::from_percent(0.0)).is_none());
        assert!(tables.table(Opacity::from_percent(25.0)).is_some());
    }
}
