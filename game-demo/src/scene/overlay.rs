//! On-screen text for the statistics overlay, drawn with the engine's own code page 437 font
//! ([`modex_cutscene::font`]) into either target.

use modex::{Argb8888, IndexedFrame, Surface};
use modex_cutscene::font;

/// Draw `text` at (x, y) by calling `plot` for every set pixel, with a one-pixel dark shadow drawn
/// first through `shadow` so it reads over any background.
fn glyph_pixels(text: &str, x: i32, y: i32, mut plot: impl FnMut(i32, i32, bool)) {
    let glyphs = font::glyphs();
    for (shadow, dx) in [(true, 1), (false, 0)] {
        for (i, ch) in text.chars().enumerate() {
            let b = if ch.is_ascii() { ch as u8 } else { b'?' };
            let gx = x + (i * font::ADVANCE) as i32 + dx;
            for (row, bits) in glyphs[b as usize].iter().enumerate() {
                for col in 0..8 {
                    if bits & (0x80 >> col) != 0 {
                        plot(gx + col, y + row as i32 + dx, shadow);
                    }
                }
            }
        }
    }
}

/// Draw lines of text into the 8-bit frame with palette index `colour` (shadow: index 0).
pub fn text_indexed(frame: &mut IndexedFrame, lines: &[String], colour: u8) {
    for (n, line) in lines.iter().enumerate() {
        glyph_pixels(line, 4, 4 + n as i32 * 10, |x, y, shadow| {
            if x >= 0 && y >= 0 {
                frame.set(x as usize, y as usize, if shadow { 0 } else { colour });
            }
        });
    }
}

/// Draw lines of text into a true-colour surface.
pub fn text_argb(surface: &mut Surface<Argb8888>, lines: &[String], rgb: [u8; 3]) {
    let fg = Argb8888(u32::from_be_bytes([255, rgb[0], rgb[1], rgb[2]]));
    let bg = Argb8888(0xff00_0000);
    for (n, line) in lines.iter().enumerate() {
        glyph_pixels(line, 4, 4 + n as i32 * 10, |x, y, shadow| {
            if x >= 0 && y >= 0 {
                surface.set(x as usize, y as usize, if shadow { bg } else { fg });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lands_where_asked_in_both_targets() {
        let mut f = IndexedFrame::new(64, 24);
        text_indexed(&mut f, &["Hi".to_string()], 15);
        let lit: Vec<(usize, usize)> = (0..24)
            .flat_map(|y| (0..64).map(move |x| (x, y)))
            .filter(|&(x, y)| f.get(x, y) == Some(15))
            .collect();
        assert!(!lit.is_empty());
        assert!(lit
            .iter()
            .all(|&(x, y)| (4..16).contains(&x) && (4..12).contains(&y)));
        let mut s = Surface::<Argb8888>::new(64, 24);
        text_argb(&mut s, &["Hi".to_string()], [255, 255, 0]);
        let yellow = s.pixels().iter().filter(|p| p.0 == 0xffff_ff00).count();
        assert_eq!(yellow, lit.len());
    }
}
