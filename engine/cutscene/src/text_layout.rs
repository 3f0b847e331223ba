//! Laying out an ATXT message in a `write` box: word wrap at the window width, alignment, colours
//! and fonts from control codes, forced breaks and paragraphs.
//!
//! The result is a list of placed glyphs in reading order; a typed-out box (`STY 101`) shows one
//! more of them per tick, so the same list drives both the instant and the typed form.

use crate::atxt::{Message, TextItem};
use crate::font;

/// Pixels from one text line to the next.
pub const LINE_HEIGHT: i32 = 10;

/// One character at its place, relative to the window's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedGlyph {
    pub x: i32,
    pub y: i32,
    pub byte: u8,
    pub colour: u8,
    pub bold: bool,
    /// Line number (0-based).
    pub line: usize,
}

/// A laid-out message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TextLayout {
    pub glyphs: Vec<PlacedGlyph>,
    /// `^VOCn` codes: (index of the glyph they precede, voice number).
    pub voices: Vec<(usize, u32)>,
}

#[derive(Debug, Clone, Copy)]
struct StyledChar {
    byte: u8,
    colour: u8,
    bold: bool,
}

#[derive(Debug, Default)]
struct Line {
    words: Vec<Vec<StyledChar>>,
    /// Ends with a forced break or paragraph (or is the last line): not stretched when justified.
    hard_end: bool,
}

/// Horizontal alignment (`ALG`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Justified,
    Right,
    Centred,
}

impl Align {
    /// From the script's `ALG` (unknown values are left).
    pub fn from_alg(alg: i32) -> Align {
        match alg {
            1 => Align::Justified,
            2 => Align::Right,
            3 => Align::Centred,
            _ => Align::Left,
        }
    }
}

fn word_width(w: &[StyledChar]) -> i32 {
    (w.len() * font::ADVANCE) as i32
}

/// Lay out `msg` in a box `width` pixels wide.
pub fn layout(msg: &Message, width: i32, align: Align, default_colour: u8) -> TextLayout {
    let width = width.max(font::ADVANCE as i32);
    let space = font::ADVANCE as i32;
    let mut colour = default_colour;
    let mut bold = false;
    let mut lines: Vec<Line> = vec![Line::default()];
    let mut word: Vec<StyledChar> = Vec::new();
    // Voice codes by the number of characters before them (spaces between words included).
    let mut pending_voices: Vec<(usize, u32)> = Vec::new();
    let mut chars_before = 0usize;

    fn line_width(l: &Line) -> i32 {
        let n = l.words.len() as i32;
        l.words.iter().map(|w| word_width(w)).sum::<i32>() + (n - 1).max(0) * font::ADVANCE as i32
    }
    let place_word = |lines: &mut Vec<Line>, word: &mut Vec<StyledChar>| {
        if word.is_empty() {
            return;
        }
        let mut w = std::mem::take(word);
        loop {
            let line = lines.last_mut().expect("one line");
            let extra = if line.words.is_empty() { 0 } else { space };
            if line_width(line) + extra + word_width(&w) <= width {
                line.words.push(w);
                return;
            }
            if line.words.is_empty() {
                // Longer than the box: hard-split.
                let fit = (width as usize / font::ADVANCE).max(1);
                let rest = w.split_off(fit.min(w.len()));
                line.words.push(w);
                lines.push(Line::default());
                if rest.is_empty() {
                    return;
                }
                w = rest;
            } else {
                lines.push(Line::default());
            }
        }
    };
    for item in &msg.items {
        match item {
            TextItem::Text(t) => {
                for &b in t {
                    if b == b' ' {
                        place_word(&mut lines, &mut word);
                    } else {
                        word.push(StyledChar {
                            byte: b,
                            colour,
                            bold,
                        });
                    }
                    chars_before += 1;
                }
            }
            TextItem::Colour(c) => colour = (*c).min(255) as u8,
            TextItem::Font(f) => bold = *f >= 2,
            TextItem::Voice(v) => pending_voices.push((chars_before, *v)),
            TextItem::Cut(c) => log::debug!("write: ^CUT{c} has no effect in the sequencer"),
            TextItem::LineBreak { hyphen } => {
                if *hyphen {
                    word.push(StyledChar {
                        byte: b'-',
                        colour,
                        bold,
                    });
                }
                place_word(&mut lines, &mut word);
                lines.last_mut().expect("one line").hard_end = true;
                lines.push(Line::default());
            }
            TextItem::Paragraph => {
                place_word(&mut lines, &mut word);
                lines.last_mut().expect("one line").hard_end = true;
                lines.push(Line {
                    hard_end: true,
                    ..Default::default()
                });
                lines.push(Line::default());
            }
        }
    }
    place_word(&mut lines, &mut word);
    if let Some(l) = lines.last_mut() {
        l.hard_end = true;
    }
    while lines.len() > 1 && lines.last().is_some_and(|l| l.words.is_empty()) {
        lines.pop();
    }

    let mut out = TextLayout::default();
    for (li, line) in lines.iter().enumerate() {
        let lw = line_width(line);
        let gaps = line.words.len().saturating_sub(1) as i32;
        let free = (width - lw).max(0);
        let mut x = match align {
            Align::Left | Align::Justified => 0,
            Align::Right => free,
            Align::Centred => free / 2,
        };
        let y = li as i32 * LINE_HEIGHT;
        for (wi, w) in line.words.iter().enumerate() {
            if wi > 0 {
                out.glyphs.push(PlacedGlyph {
                    x,
                    y,
                    byte: b' ',
                    colour: w[0].colour,
                    bold: false,
                    line: li,
                });
                x += space;
                if align == Align::Justified && !line.hard_end && gaps > 0 {
                    let k = wi as i32 - 1;
                    x += free / gaps + i32::from(k < free % gaps);
                }
            }
            for c in w {
                out.glyphs.push(PlacedGlyph {
                    x,
                    y,
                    byte: c.byte,
                    colour: c.colour,
                    bold: c.bold,
                    line: li,
                });
                x += font::ADVANCE as i32;
            }
        }
    }
    // Voices attach to the glyph typed when the source position is reached (spaces at line breaks
    // are not placed, so clamp to the glyph count).
    out.voices = pending_voices
        .into_iter()
        .map(|(pos, v)| (pos.min(out.glyphs.len()), v))
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atxt::parse_message;

    fn text_of_line(l: &TextLayout, line: usize) -> String {
        l.glyphs
            .iter()
            .filter(|g| g.line == line)
            .map(|g| g.byte as char)
            .collect()
    }

    #[test]
    fn wraps_words_and_honours_breaks() {
        let m = parse_message(b"{one two three^CRTfour\r\n\r\nfive}").unwrap();
        // 9 characters wide.
        let l = layout(&m, 54, Align::Left, 15);
        assert_eq!(text_of_line(&l, 0), "one two");
        assert_eq!(text_of_line(&l, 1), "three");
        assert_eq!(text_of_line(&l, 2), "four");
        assert_eq!(text_of_line(&l, 3), "");
        assert_eq!(text_of_line(&l, 4), "five");
        assert_eq!(l.glyphs[0].colour, 15);
    }

    #[test]
    fn alignments() {
        let m = parse_message(b"{ab cd ef gh}").unwrap();
        let right = layout(&m, 60, Align::Right, 1);
        assert_eq!(right.glyphs.last().unwrap().x, 60 - 6);
        let centred = layout(&m, 60, Align::Centred, 1);
        // "ab cd ef" = 8 chars = 48 px on the first line: 12 px free, 6 on the left.
        assert_eq!(centred.glyphs[0].x, 6);
        let justified = layout(&m, 60, Align::Justified, 1);
        let last_on_first = justified.glyphs.iter().rfind(|g| g.line == 0).unwrap();
        assert_eq!(last_on_first.x + 6, 60);
        // The last line is not stretched.
        assert_eq!(justified.glyphs.iter().find(|g| g.line == 1).unwrap().x, 0);
    }

    #[test]
    fn colours_fonts_and_voices() {
        let m = parse_message(b"{a^COL40^FON2b ^VOC7c}").unwrap();
        let l = layout(&m, 100, Align::Left, 15);
        assert_eq!(l.glyphs[0].colour, 15);
        assert_eq!((l.glyphs[1].colour, l.glyphs[1].bold), (40, true));
        assert_eq!(l.voices, vec![(3, 7)]);
        assert_eq!(l.glyphs[3].byte, b'c');
    }
}
