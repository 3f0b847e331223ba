//! 256-colour palettes: loading (VGA 6-bit or 8-bit, PCX trailer), the Quake 1 default, nearest-colour
//! search and palette fades.
//!
//! Everything the engine shows in its 8-bit path goes through a [`Palette`]. Fades are computed with
//! integer arithmetic so a scene's frames are identical on every machine.

use std::ops::RangeInclusive;

use crate::error::{ErrorKind, FormatError, FormatResult};
use crate::quake_palette::QUAKE_PALETTE;

/// 256 RGB entries with 8 bits per channel.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Palette {
    /// Entry `i` is the RGB colour of palette index `i`, 8 bits per channel.
    pub colors: [[u8; 3]; 256],
}

impl Default for Palette {
    /// The Quake 1 palette, the default for 8-bit MDL skins.
    fn default() -> Self {
        Palette::quake()
    }
}

/// Bytes of a raw VGA palette: 256 RGB triples.
pub const VGA_PALETTE_LEN: usize = 768;
/// The first byte of every PCX file (ZSoft's manufacturer byte).
pub const PCX_MANUFACTURER: u8 = 0x0a;
/// The marker before a PCX's 256-colour palette trailer.
pub const PCX_PALETTE_MARKER: u8 = 0x0c;
/// A PCX header (128 bytes) and the trailer (marker + 768 bytes): the shortest PCX with a palette.
const PCX_MIN_WITH_PALETTE: usize = 128 + 1 + VGA_PALETTE_LEN;

/// Whether VGA RGB bytes are 6-bit DAC values (none above 63), the test
/// [`Palette::from_rgb_bytes`] applies to decide whether to scale them.
pub fn is_six_bit(rgb: &[u8]) -> bool {
    rgb.iter().all(|&v| v <= 63)
}

/// Whether `data` is a PCX with a 256-colour palette trailer, i.e. whether
/// [`Palette::from_pcx`] reads it: the manufacturer byte, room for the header and the trailer, and
/// the marker 769 bytes from the end.
pub fn has_pcx_palette(data: &[u8]) -> bool {
    let n = data.len();
    data.first() == Some(&PCX_MANUFACTURER)
        && n >= PCX_MIN_WITH_PALETTE
        && data[n - 1 - VGA_PALETTE_LEN] == PCX_PALETTE_MARKER
}

/// Scale a 6-bit VGA DAC value (0..=63) to 8 bits, rounding to nearest (63 -> 255).
pub fn vga6_to_8(v: u8) -> u8 {
    ((v as u32 * 255 + 31) / 63) as u8
}

impl Palette {
    /// The standard Quake 1 palette. The 3D GameStudio palette differs only in entries 254 and 255.
    pub fn quake() -> Palette {
        Palette {
            colors: QUAKE_PALETTE,
        }
    }

    /// A grey ramp: entry `i` is `(i, i, i)`. Used where a file comes without its palette.
    pub fn grey_ramp() -> Palette {
        let mut colors = [[0u8; 3]; 256];
        for (i, c) in colors.iter_mut().enumerate() {
            *c = [i as u8; 3];
        }
        Palette { colors }
    }

    /// Load 768 bytes of RGB triples. If no byte exceeds 63 the values are VGA DAC 6-bit values and are
    /// scaled by 255/63; otherwise they are taken as 8-bit. Extra bytes after 768 are ignored.
    pub fn from_rgb_bytes(data: &[u8]) -> FormatResult<Palette> {
        if data.len() < VGA_PALETTE_LEN {
            return Err(FormatError::new(
                "PAL",
                "palette",
                0,
                ErrorKind::Truncated {
                    needed: VGA_PALETTE_LEN,
                    available: data.len(),
                },
            ));
        }
        let data = &data[..VGA_PALETTE_LEN];
        let six_bit = is_six_bit(data);
        let mut colors = [[0u8; 3]; 256];
        for (c, rgb) in colors.iter_mut().zip(data.chunks_exact(3)) {
            for k in 0..3 {
                c[k] = if six_bit { vga6_to_8(rgb[k]) } else { rgb[k] };
            }
        }
        Ok(Palette { colors })
    }

    /// The 256-colour palette trailer of a PCX file: the last 769 bytes, a 0x0C marker then 768 bytes.
    pub fn from_pcx(data: &[u8]) -> FormatResult<Palette> {
        if data.first() != Some(&PCX_MANUFACTURER) {
            return Err(FormatError::new(
                "PCX",
                "manufacturer",
                0,
                ErrorKind::BadMagic {
                    found: data.iter().take(1).copied().collect(),
                },
            ));
        }
        // 128-byte header + at least the trailer.
        if data.len() < PCX_MIN_WITH_PALETTE {
            return Err(FormatError::new(
                "PCX",
                "palette trailer",
                data.len().saturating_sub(1 + VGA_PALETTE_LEN),
                ErrorKind::Truncated {
                    needed: PCX_MIN_WITH_PALETTE,
                    available: data.len(),
                },
            ));
        }
        let at = data.len() - 1 - VGA_PALETTE_LEN;
        if data[at] != PCX_PALETTE_MARKER {
            return Err(FormatError::invalid(
                "PCX",
                "palette trailer marker",
                at,
                format!("expected 0x0c, found 0x{:02x}", data[at]),
            ));
        }
        let mut colors = [[0u8; 3]; 256];
        for (c, rgb) in colors.iter_mut().zip(data[at + 1..].chunks_exact(3)) {
            c.copy_from_slice(rgb);
        }
        Ok(Palette { colors })
    }

    /// The palette as 768 bytes, R G B per entry.
    pub fn to_rgb_bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }

    /// Entry `i` as RGBA with alpha 255.
    pub fn rgba(&self, i: u8) -> [u8; 4] {
        let [r, g, b] = self.colors[i as usize];
        [r, g, b, 255]
    }

    /// Entry `i` packed as `0x00RRGGBB` (minifb's pixel format).
    pub fn rgb_u32(&self, i: u8) -> u32 {
        let [r, g, b] = self.colors[i as usize];
        (r as u32) << 16 | (g as u32) << 8 | b as u32
    }

    /// All entries packed as `0x00RRGGBB`.
    pub fn to_u32_table(&self) -> [u32; 256] {
        std::array::from_fn(|i| self.rgb_u32(i as u8))
    }

    /// The index whose colour is nearest to `rgb` (squared Euclidean distance; the lowest index wins
    /// ties), searching only `range`.
    pub fn nearest_in(&self, rgb: [u8; 3], range: RangeInclusive<u8>) -> u8 {
        let mut best = *range.start();
        let mut best_d = u32::MAX;
        for i in range {
            let d = rgb_distance_sq(self.colors[i as usize], rgb);
            if d < best_d {
                best_d = d;
                best = i;
                if d == 0 {
                    break;
                }
            }
        }
        best
    }

    /// The index whose colour is nearest to `rgb` over the whole palette.
    pub fn nearest(&self, rgb: [u8; 3]) -> u8 {
        self.nearest_in(rgb, 0..=255)
    }

    /// A palette fade: entries in `range` move from `from` towards `to` by `step / steps`; all other
    /// entries keep `from`'s colour. Integer arithmetic with rounding to nearest, so `step == 0` gives
    /// `from` and `step == steps` gives `to` exactly. `steps == 0` counts as finished.
    pub fn fade(
        from: &Palette,
        to: &Palette,
        range: RangeInclusive<u8>,
        step: u32,
        steps: u32,
    ) -> Palette {
        let mut out = from.clone();
        out.fade_in_place(to, range, step, steps);
        out
    }

    /// [`Palette::fade`] with a fraction `t` in 0..=1 (clamped), quantised to 1/65536.
    pub fn blend(from: &Palette, to: &Palette, range: RangeInclusive<u8>, t: f32) -> Palette {
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        Self::fade(from, to, range, (t * 65536.0).round() as u32, 65536)
    }

    /// Fade entries of `self` in `range` toward `to`, `step / steps` of the way (see [`Palette::fade`]).
    pub fn fade_in_place(
        &mut self,
        to: &Palette,
        range: RangeInclusive<u8>,
        step: u32,
        steps: u32,
    ) {
        let (num, den) = if steps == 0 || step >= steps {
            (1i64, 1i64)
        } else {
            (step as i64, steps as i64)
        };
        for i in range {
            let a = &mut self.colors[i as usize];
            let b = to.colors[i as usize];
            for k in 0..3 {
                let d = b[k] as i64 - a[k] as i64;
                // Round half away from zero so fading up and down are symmetric.
                let delta = (2 * d * num + d.signum() * den) / (2 * den);
                a[k] = (a[k] as i64 + delta) as u8;
            }
        }
    }
}

/// Squared Euclidean distance between two RGB colours: what "nearest colour" means everywhere in
/// modex (palette lookups, blend tables, the exact nearest-colour search), in one place so they
/// can never disagree on a tie.
#[inline]
pub(crate) fn rgb_distance_sq(a: [u8; 3], b: [u8; 3]) -> u32 {
    (0..3).map(|c| u32::from(a[c].abs_diff(b[c])).pow(2)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_palette_known_entries() {
        let p = Palette::quake();
        assert_eq!(p.colors[0], [0, 0, 0]);
        assert_eq!(p.colors[15], [235, 235, 235]);
        assert_eq!(p.colors[254], [255, 255, 255]);
        assert_eq!(p.colors[255], [159, 91, 83]);
    }

    #[test]
    fn six_bit_values_are_scaled() {
        let mut data = vec![0u8; 768];
        data[3..6].copy_from_slice(&[63, 32, 1]);
        let p = Palette::from_rgb_bytes(&data).unwrap();
        assert_eq!(p.colors[1], [255, 130, 4]);
        assert_eq!(vga6_to_8(63), 255);
        assert_eq!(vga6_to_8(0), 0);
    }

    #[test]
    fn eight_bit_values_are_kept() {
        let mut data = vec![10u8; 768];
        data[0] = 200;
        let p = Palette::from_rgb_bytes(&data).unwrap();
        assert_eq!(p.colors[0], [200, 10, 10]);
        assert_eq!(p.to_rgb_bytes(), data);
    }

    #[test]
    fn short_palette_is_an_error() {
        let e = Palette::from_rgb_bytes(&[0u8; 100]).unwrap_err();
        assert!(matches!(
            e.kind,
            ErrorKind::Truncated {
                needed: 768,
                available: 100
            }
        ));
    }

    #[test]
    fn pcx_trailer() {
        let mut data = vec![0u8; 128 + 10];
        data[0] = 0x0a;
        data.push(0x0c);
        let pal = Palette::quake();
        data.extend(pal.to_rgb_bytes());
        assert_eq!(Palette::from_pcx(&data).unwrap(), pal);
        assert!(has_pcx_palette(&data));
        let n = data.len();
        data[n - 769] = 0;
        assert!(Palette::from_pcx(&data).is_err());
        assert!(Palette::from_pcx(&[0x0a, 1, 2]).is_err());
        assert!(Palette::from_pcx(&[]).is_err());
        // The quick test agrees with the loader on every kind of input.
        for d in [&data[..], &[0x0a, 1, 2], &[], &data[1..]] {
            assert_eq!(has_pcx_palette(d), Palette::from_pcx(d).is_ok());
        }
        assert!(is_six_bit(&[0, 63, 17]) && !is_six_bit(&[0, 64]));
    }

    #[test]
    fn fade_changes_only_the_range() {
        let from = Palette::grey_ramp();
        let to = Palette {
            colors: [[255, 0, 100]; 256],
        };
        let half = Palette::fade(&from, &to, 16..=31, 1, 2);
        assert_eq!(half.colors[15], from.colors[15]);
        assert_eq!(half.colors[32], from.colors[32]);
        // entry 20 = (20,20,20) halfway to (255,0,100): (137.5, 10, 60) -> rounds half away from zero.
        assert_eq!(half.colors[20], [138, 10, 60]);
        assert_eq!(Palette::fade(&from, &to, 0..=255, 0, 10), from);
        assert_eq!(Palette::fade(&from, &to, 0..=255, 10, 10), to);
        assert_eq!(Palette::blend(&from, &to, 0..=255, 1.0), to);
        assert_eq!(Palette::blend(&from, &to, 0..=255, f32::NAN), from);
    }

    #[test]
    fn fade_is_monotonic() {
        let from = Palette::quake();
        let to = Palette::grey_ramp();
        let mut prev = from.clone();
        for step in 1..=64 {
            let cur = Palette::fade(&from, &to, 0..=255, step, 64);
            for i in 0..256 {
                for k in 0..3 {
                    let (a, b, t) = (prev.colors[i][k], cur.colors[i][k], to.colors[i][k]);
                    assert!((t as i32 - b as i32).abs() <= (t as i32 - a as i32).abs());
                }
            }
            prev = cur;
        }
    }

    #[test]
    fn nearest_finds_exact_and_close_colours() {
        let p = Palette::quake();
        for i in [0u8, 15, 100, 200, 254] {
            let c = p.colors[i as usize];
            assert_eq!(p.colors[p.nearest(c) as usize], c);
        }
        assert_eq!(Palette::grey_ramp().nearest([100, 102, 98]), 100);
        assert_eq!(Palette::grey_ramp().nearest_in([0, 0, 0], 10..=20), 10);
    }
}
