//! The picture check: modex and a peer drew the same scene, so they must cover the same pixels and
//! give them about the same colours.
//!
//! Covered pixels come from the depth buffers (modex: a finite depth; GL: a depth below the cleared
//! 1.0). Rasterization rules, clipping and depth precision differ slightly between renderers, so
//! the covered counts may differ by [`COVERAGE_TOLERANCE`]. The colour difference is the mean
//! absolute difference per channel over the pixels both cover; mip level choice and rounding differ,
//! and 16-bit and 8-bit targets quantise differently from the peer's 8888, so it is allowed up to
//! [`colour_tolerance`] of the format.

use serde::{Deserialize, Serialize};

use crate::case::Format;

/// Covered-pixel counts of the two renderers must agree within this fraction of modex's count.
pub const COVERAGE_TOLERANCE: f64 = 0.02;

/// The largest mean colour difference (out of 255 per channel) that is still the same picture.
///
/// True colour: both renderers light the same texel by the same factor and round differently,
/// one step or two on average; mip level choice at a few edges adds a little (at most 2.3 measured
/// across the suite). 4444 keeps four bits per channel: rounding alone is up to 8. The 8-bit target
/// maps every lit colour to the nearest palette entry, which the peer (drawing 8888) does not.
pub fn colour_tolerance(format: Format) -> f64 {
    match format {
        Format::Argb8888 | Format::Rgb565 => 6.0,
        Format::Argb4444 => 12.0,
        Format::Indexed8 => 16.0,
    }
}

/// One drawn picture: covered pixels and their colours, top row first.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Whether each pixel was drawn.
    pub covered: Vec<bool>,
    /// RGB of each pixel.
    pub rgb: Vec<[u8; 3]>,
}

impl Picture {
    /// Drawn pixels.
    pub fn covered_count(&self) -> usize {
        self.covered.iter().filter(|&&c| c).count()
    }

    /// The picture as RGBA8 (alpha 255), for PNG.
    pub fn rgba(&self) -> Vec<u8> {
        self.rgb
            .iter()
            .flat_map(|&[r, g, b]| [r, g, b, 255])
            .collect()
    }
}

/// The verdict of one comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Pixels modex drew.
    pub covered_modex: usize,
    /// Pixels the peer drew.
    pub covered_peer: usize,
    /// |modex - peer| / modex covered pixels, in percent.
    pub coverage_diff_pct: f64,
    /// Mean absolute colour difference per channel over pixels both drew (out of 255).
    pub colour_diff: f64,
    /// Both within their tolerance.
    pub same_picture: bool,
}

/// Compare modex's picture with the peer's (the same size).
pub fn compare(format: Format, modex: &Picture, peer: &Picture) -> Check {
    let n_mx = modex.covered_count();
    let n_peer = peer.covered_count();
    let (mut diff, mut both) = (0u64, 0u64);
    for i in 0..modex.covered.len().min(peer.covered.len()) {
        if modex.covered[i] && peer.covered[i] {
            let (a, b) = (modex.rgb[i], peer.rgb[i]);
            diff += (0..3).map(|c| a[c].abs_diff(b[c]) as u64).sum::<u64>();
            both += 1;
        }
    }
    let colour_diff = diff as f64 / (3 * both.max(1)) as f64;
    let rel = (n_mx as f64 - n_peer as f64).abs() / n_mx.max(1) as f64;
    let same_size = modex.width == peer.width && modex.height == peer.height;
    Check {
        covered_modex: n_mx,
        covered_peer: n_peer,
        coverage_diff_pct: rel * 100.0,
        colour_diff,
        same_picture: same_size
            && rel <= COVERAGE_TOLERANCE
            && colour_diff <= colour_tolerance(format),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(covered: usize, rgb: [u8; 3]) -> Picture {
        Picture {
            width: 10,
            height: 10,
            covered: (0..100).map(|i| i < covered).collect(),
            rgb: vec![rgb; 100],
        }
    }

    #[test]
    fn same_coverage_and_close_colours_pass() {
        let c = compare(
            Format::Argb8888,
            &picture(50, [100, 100, 100]),
            &picture(50, [102, 99, 100]),
        );
        assert_eq!((c.covered_modex, c.covered_peer), (50, 50));
        assert!((c.colour_diff - 1.0).abs() < 1e-9);
        assert!(c.same_picture);
    }

    #[test]
    fn missing_pixels_or_wrong_colours_fail() {
        let c = compare(Format::Argb8888, &picture(50, [0; 3]), &picture(40, [0; 3]));
        assert!((c.coverage_diff_pct - 20.0).abs() < 1e-9);
        assert!(!c.same_picture);
        let c = compare(
            Format::Argb8888,
            &picture(50, [0; 3]),
            &picture(50, [30; 3]),
        );
        assert!(!c.same_picture);
        // The 8-bit target is allowed its palette's error, not more.
        let c = compare(
            Format::Indexed8,
            &picture(50, [0; 3]),
            &picture(50, [10; 3]),
        );
        assert!(c.same_picture);
    }
}
