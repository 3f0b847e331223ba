//! On-screen text for the statistics overlay and the viewers' key list, drawn with the engine's
//! own code page 437 font ([`modex_cutscene::font`]) into any target.

use modex::{Argb8888, IndexedFrame, Surface, Target};
use modex_cutscene::font;

/// Pixels between the tops of two lines of text.
pub const LINE_HEIGHT: usize = 10;

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

/// Draw lines of text into any target from its top-left corner (4, `top`), [`LINE_HEIGHT`]
/// apart: `fg` glyphs over a one-pixel `shadow`; what falls outside the target is left out.
pub fn text<T: Target>(target: &mut T, top: usize, lines: &[String], fg: T::Px, shadow: T::Px) {
    for (n, line) in lines.iter().enumerate() {
        let y = (top + n * LINE_HEIGHT) as i32;
        glyph_pixels(line, 4, y, |x, y, is_shadow| {
            if x >= 0 && y >= 0 {
                target.put(x as usize, y as usize, if is_shadow { shadow } else { fg });
            }
        });
    }
}

/// Fill the box [`text`] would draw `lines` in from `top` (with a margin of 2 pixels) with `px`,
/// so a long list reads over any picture.
pub fn backdrop<T: Target>(target: &mut T, top: usize, lines: &[String], px: T::Px) {
    let (w, h) = target.size();
    let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    if chars == 0 {
        return;
    }
    let right = (4 + chars * font::ADVANCE + 3).min(w);
    let bottom = (top + lines.len() * LINE_HEIGHT + 1).min(h);
    for y in top.saturating_sub(2)..bottom {
        for x in 2..right {
            target.put(x, y, px);
        }
    }
}

/// Draw lines of text into the 8-bit frame with palette index `colour` (shadow: index 0).
pub fn text_indexed(frame: &mut IndexedFrame, lines: &[String], colour: u8) {
    text(frame, 4, lines, colour, 0);
}

/// Draw lines of text into a true-colour surface.
pub fn text_argb(surface: &mut Surface<Argb8888>, lines: &[String], rgb: [u8; 3]) {
    let fg = Argb8888(u32::from_be_bytes([255, rgb[0], rgb[1], rgb[2]]));
    text(surface, 4, lines, fg, Argb8888(0xff00_0000));
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

    #[test]
    fn the_backdrop_covers_the_text_and_no_more() {
        let lines = ["Tab format".to_string(), "F1".to_string()];
        let mut f = IndexedFrame::new(200, 60);
        backdrop(&mut f, 20, &lines, 7);
        text(&mut f, 20, &lines, 15, 0);
        let at = |x, y| f.get(x, y).unwrap();
        // Ten characters of 6 pixels from x = 4, two lines of 10 from y = 20.
        assert_eq!(
            (at(2, 18), at(66, 39), at(67, 18), at(2, 17), at(2, 41)),
            (7, 7, 0, 0, 0)
        );
        assert!((20..40).any(|y| (4..64).any(|x| at(x, y) == 15)));
    }
}
