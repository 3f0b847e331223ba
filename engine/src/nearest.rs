//! Exact nearest-colour lookups into a palette, fast enough to map every texel of a level.
//!
//! Putting true-colour content into 8 bits asks "which palette entry is nearest to this colour"
//! for every texel. Searching all 256 entries per texel is too slow for a level's tens of millions
//! of texels, and the usual shortcut, a 32x32x32 cube answering for the middle of each 8x8x8 cell,
//! is not exact: it answers for `8v + 4` whatever the colour in the cell, and 565 skins store their
//! dark colours at the bottom of their cells (`8v + v / 4`), so a dark 565 skin came out 1.4 steps
//! of 64 too green and too blue in 8 bits (minigun.MDL, issue 40).
//!
//! [`NearestColours`] keeps, per 8x8x8 cell, only the entries that can be nearest to some colour
//! in the cell (Heckbert's locally sorted search): entry `e` is kept unless its nearest possible
//! distance to the cell exceeds the smallest farthest possible distance of any entry, since then
//! that other entry is nearer to every colour of the cell. A lookup scans the few kept entries in
//! index order, so it answers exactly as [`Palette::nearest_in`] does, ties included.

use std::ops::RangeInclusive;

use crate::palette::rgb_distance_sq;
use crate::Palette;

/// Cells per channel (8 levels each).
const CELLS: usize = 32;
/// Levels per cell side.
const CELL: i32 = 8;

/// The nearest entry of a palette's range for any RGB colour, exact (as [`Palette::nearest_in`]),
/// through per-cell candidate lists. Build once per palette (a few milliseconds), share freely.
#[derive(Debug, Clone)]
pub struct NearestColours {
    colors: [[u8; 3]; 256],
    /// For cell `k`, its candidates are `candidates[starts[k]..starts[k + 1]]`, in index order.
    starts: Box<[u32]>,
    candidates: Box<[u8]>,
}

impl NearestColours {
    /// Lookups into `palette`, answering only with indices in `range` (for example `1..=255`
    /// where index 0 is a transparency key).
    ///
    /// Built in about 60 M instructions (callgrind; 358 M when it searched entry by entry): an
    /// 8-bit picture of true-colour content and every blend table build one per palette, so a
    /// one-model `modex render --format 8` or a palette change on the page waits for it. The
    /// per-cell tests run over all 256 entries in fixed-size arrays, which the compiler turns
    /// into vector code on every target (entries outside `range` carry distances no cell
    /// reaches), and a cell's red and green sums are shared by the 32 cells of its blue row.
    pub fn new(palette: &Palette, range: RangeInclusive<u8>) -> NearestColours {
        let mut starts = Vec::with_capacity(CELLS * CELLS * CELLS + 1);
        let mut candidates = Vec::new();
        if range.is_empty() {
            starts.resize(CELLS * CELLS * CELLS + 1, 0);
            return NearestColours {
                colors: palette.colors,
                starts: starts.into(),
                candidates: candidates.into(),
            };
        }
        let [near, far] = channel_distances(palette, &range);
        let (mut near_rg, mut far_rg) = ([0u32; 256], [0u32; 256]);
        let mut keep = [0u8; 256];
        for r in 0..CELLS {
            for g in 0..CELLS {
                for e in 0..256 {
                    near_rg[e] = near[0][r][e] + near[1][g][e];
                    far_rg[e] = far[0][r][e] + far[1][g][e];
                }
                for b in 0..CELLS {
                    let (near_b, far_b) = (&near[2][b], &far[2][b]);
                    // The smallest farthest distance of any entry: an entry whose nearest
                    // distance exceeds it is never the nearest in this cell.
                    let reach = far_rg
                        .iter()
                        .zip(far_b)
                        .fold(u32::MAX, |m, (&x, &y)| m.min(x + y));
                    for ((k, &x), &y) in keep.iter_mut().zip(&near_rg).zip(near_b) {
                        *k = u8::from(x + y <= reach);
                    }
                    starts.push(candidates.len() as u32);
                    push_kept(&keep, &mut candidates);
                }
            }
        }
        starts.push(candidates.len() as u32);
        NearestColours {
            colors: palette.colors,
            starts: starts.into(),
            candidates: candidates.into(),
        }
    }

    /// The index nearest to `rgb` (squared Euclidean distance, the lowest index on ties).
    #[inline]
    pub fn nearest(&self, rgb: [u8; 3]) -> u8 {
        let cell =
            (rgb[0] as usize >> 3) << 10 | (rgb[1] as usize >> 3) << 5 | rgb[2] as usize >> 3;
        let list = &self.candidates[self.starts[cell] as usize..self.starts[cell + 1] as usize];
        let mut best = list.first().copied().unwrap_or(0);
        let mut best_d = u32::MAX;
        for &i in list {
            let d = rgb_distance_sq(self.colors[i as usize], rgb);
            if d < best_d {
                best_d = d;
                best = i;
            }
        }
        best
    }

    /// Candidates kept per cell on average (what a lookup scans).
    pub fn mean_candidates(&self) -> f64 {
        self.candidates.len() as f64 / (self.starts.len() - 1) as f64
    }
}

/// Distances no cell reaches, for the entries outside the range: `3 * OUTSIDE` still fits a
/// `u32`, and a cell's least farthest distance (at most `3 * 255^2`) is always below it.
const OUTSIDE: u32 = 1 << 29;

/// Per channel, per cell coordinate, per entry: the squared nearest and farthest distance from
/// the entry's channel value to the cell's levels ([`OUTSIDE`] for entries outside `range`). A
/// cell's distances are then sums over the channels.
fn channel_distances(
    palette: &Palette,
    range: &RangeInclusive<u8>,
) -> [Vec<[[u32; 256]; CELLS]>; 2] {
    let mut near = vec![[[OUTSIDE; 256]; CELLS]; 3];
    let mut far = vec![[[OUTSIDE; 256]; CELLS]; 3];
    for c in 0..3 {
        for v in 0..CELLS {
            let (lo, hi) = (v as i32 * CELL, v as i32 * CELL + CELL - 1);
            for e in range.clone() {
                let x = palette.colors[e as usize][c] as i32;
                let n = if x < lo {
                    lo - x
                } else if x > hi {
                    x - hi
                } else {
                    0
                };
                let f = (x - lo).abs().max((hi - x).abs());
                near[c][v][e as usize] = (n * n) as u32;
                far[c][v][e as usize] = (f * f) as u32;
            }
        }
    }
    [near, far]
}

/// Append the entries whose `keep` byte is 1, in index order: eight bytes at a time, skipping
/// the (many) words with none.
fn push_kept(keep: &[u8; 256], out: &mut Vec<u8>) {
    for (w, bytes) in keep.chunks_exact(8).enumerate() {
        let mut word = u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
        while word != 0 {
            let byte = word.trailing_zeros() / 8;
            out.push((w * 8) as u8 + byte as u8);
            word &= !(0xff << (byte * 8));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn scrambled() -> Palette {
        let mut rng = crate::Rng::new(7);
        let mut colors = [[0u8; 3]; 256];
        for c in colors.iter_mut() {
            *c = [
                rng.next_u32() as u8,
                rng.next_u32() as u8,
                rng.next_u32() as u8,
            ];
        }
        // Repeats make ties: the lowest index must win them, as in `Palette::nearest_in`.
        colors[200] = colors[17];
        Palette { colors }
    }

    #[test]
    fn every_colour_of_a_stride_answers_as_the_full_search() {
        for (palette, range) in [
            (Palette::quake(), 0..=255u8),
            (Palette::quake(), 1..=255),
            (scrambled(), 1..=255),
            (Palette::grey_ramp(), 10..=20),
        ] {
            let index = NearestColours::new(&palette, range.clone());
            for r in (0..=255u8).step_by(5) {
                for g in (0..=255u8).step_by(3) {
                    for b in (0..=255u8).step_by(7) {
                        let rgb = [r, g, b];
                        assert_eq!(
                            index.nearest(rgb),
                            palette.nearest_in(rgb, range.clone()),
                            "{rgb:?}"
                        );
                    }
                }
            }
            assert!(
                index.mean_candidates() < 16.0,
                "{}",
                index.mean_candidates()
            );
        }
    }

    /// The lists as they were built before the vector passes: entry by entry, over the range
    /// only.
    fn entry_by_entry(palette: &Palette, range: RangeInclusive<u8>) -> (Vec<u32>, Vec<u8>) {
        let entries: Vec<u8> = range.collect();
        let d = |x: i32, lo: i32, hi: i32| {
            let n = if x < lo { lo - x } else { (x - hi).max(0) };
            let f = (x - lo).abs().max((hi - x).abs());
            ((n * n) as u32, (f * f) as u32)
        };
        let (mut starts, mut candidates) = (Vec::new(), Vec::new());
        for cell in 0..CELLS * CELLS * CELLS {
            let at = [cell >> 10, (cell >> 5) & 31, cell & 31].map(|v| v as i32 * CELL);
            let sums = |e: u8| {
                let c = palette.colors[e as usize];
                (0..3).fold((0, 0), |(n, f), k| {
                    let (dn, df) = d(c[k] as i32, at[k], at[k] + CELL - 1);
                    (n + dn, f + df)
                })
            };
            let reach = entries.iter().map(|&e| sums(e).1).min().unwrap_or(0);
            starts.push(candidates.len() as u32);
            candidates.extend(entries.iter().copied().filter(|&e| sums(e).0 <= reach));
        }
        starts.push(candidates.len() as u32);
        (starts, candidates)
    }

    #[test]
    fn the_lists_are_the_entry_by_entry_lists() {
        let mut greys = Palette::grey_ramp();
        greys.colors[9] = [255, 0, 255];
        for (palette, range) in [
            (Palette::quake(), 0..=255u8),
            (Palette::quake(), 1..=255),
            (scrambled(), 1..=255),
            (scrambled(), 17..=17),
            (greys, 10..=20),
            (
                Palette {
                    colors: [[0; 3]; 256],
                },
                0..=255,
            ),
            (Palette::quake(), 250..=255),
        ] {
            let index = NearestColours::new(&palette, range.clone());
            let (starts, candidates) = entry_by_entry(&palette, range.clone());
            assert_eq!(*index.starts, *starts, "{range:?}");
            assert_eq!(*index.candidates, *candidates, "{range:?}");
        }
        // An empty range keeps nothing (and answers 0).
        #[allow(clippy::reversed_empty_ranges)]
        let none = NearestColours::new(&Palette::quake(), 5..=4);
        assert!(none.candidates.is_empty() && none.starts.iter().all(|&s| s == 0));
        assert_eq!(none.nearest([1, 2, 3]), 0);
    }

    proptest! {
        // Each case builds a whole index: a few cases cover the property.
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn any_colour_answers_as_the_full_search(r: u8, g: u8, b: u8, seed: u64) {
            let mut rng = crate::Rng::new(seed);
            let mut colors = [[0u8; 3]; 256];
            for c in colors.iter_mut() {
                *c = [rng.next_u32() as u8 & 0xf0, rng.next_u32() as u8, rng.next_u32() as u8 | 3];
            }
            let palette = Palette { colors };
            let index = NearestColours::new(&palette, 1..=255);
            prop_assert_eq!(index.nearest([r, g, b]), palette.nearest_in([r, g, b], 1..=255));
        }
    }
}
