//! Palettes of `ANI/APAL###.LIB`: 768 bytes of VGA RGB, 6-bit when no byte exceeds 63, optionally
//! TPWM-wrapped. The format is unconfirmed on real files (no public source describes APAL: 768 bytes
//! of VGA RGB is an expectation, not a measurement), so the loader accepts both bit depths and both
//! wrappings.

use modex::{FormatError, FormatResult, Palette};

use crate::tpwm;

/// Bytes in a palette.
pub const PALETTE_LEN: usize = 768;

/// Load a palette entry (TPWM-wrapped or not).
pub fn load_palette(data: &[u8]) -> FormatResult<Palette> {
    let bytes = tpwm::unwrap(data)?;
    Palette::from_rgb_bytes(&bytes).map_err(|e| FormatError {
        format: "APAL",
        ..e
    })
}

/// Encode a palette as the game stores it: 6-bit VGA values (each channel divided by 4, rounded
/// down), optionally TPWM-wrapped.
pub fn encode_palette(palette: &Palette, wrap: bool) -> Vec<u8> {
    let raw: Vec<u8> = palette.to_rgb_bytes().iter().map(|&v| v >> 2).collect();
    if wrap {
        tpwm::compress(&raw)
    } else {
        raw
    }
}

/// A palette whose 8-bit values survive the 6-bit store exactly (each channel `v6 * 255 / 63`).
pub fn six_bit_exact(palette: &Palette) -> Palette {
    let mut out = palette.clone();
    for c in out.colors.iter_mut().flatten() {
        *c = modex::palette::vga6_to_8(*c >> 2);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_bit_round_trip_plain_and_wrapped() {
        let p = six_bit_exact(&Palette::quake());
        assert_eq!(load_palette(&encode_palette(&p, false)).unwrap(), p);
        assert_eq!(load_palette(&encode_palette(&p, true)).unwrap(), p);
        let e = load_palette(&[0u8; 10]).unwrap_err();
        assert_eq!(e.format, "APAL");
        // 8-bit palettes are taken as they are.
        let q = Palette::quake();
        assert_eq!(load_palette(&q.to_rgb_bytes()).unwrap(), q);
    }
}
