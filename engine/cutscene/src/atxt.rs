//! ATXT messages (`ENG/ATXT###.LIB`, one entry per message).
//!
//! The text sits in `{...}` segments; bytes outside them (line ends between segments) are not shown.
//! Inside, `^` starts a control code of three letters and optional digits: `^FONn` font, `^COLn`
//! colour, `^VOCn` voice, `^CUTn` cutscene, `^CRT` line break (`-^CRT`: a word broken with a hyphen).
//! A blank line (CR CR, or CR LF CR LF) is a paragraph; a single line end is a space. Characters are
//! DOS code page 437 bytes.

use modex::{cp437, FormatError, FormatResult};

use crate::tpwm;

const FORMAT: &str = "ATXT";
/// Largest message accepted (shipped messages are a few hundred bytes).
pub const MAX_MESSAGE: usize = 1 << 20;

/// One piece of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextItem {
    /// Characters to show, code page 437.
    Text(Vec<u8>),
    /// `^FONn`.
    Font(u32),
    /// `^COLn`.
    Colour(u32),
    /// `^VOCn`: a voice sample to play.
    Voice(u32),
    /// `^CUTn`.
    Cut(u32),
    /// `^CRT`.
    LineBreak {
        /// `-^CRT`: a word broken with a hyphen.
        hyphen: bool,
    },
    /// A blank line.
    Paragraph,
}

/// A parsed message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Message {
    /// Text and control codes in order.
    pub items: Vec<TextItem>,
}

impl Message {
    /// The message as plain text (control codes dropped, breaks as new lines), for `modex info`.
    pub fn plain_text(&self) -> String {
        let mut s = String::new();
        for item in &self.items {
            match item {
                TextItem::Text(t) => s.push_str(&cp437::decode(t)),
                TextItem::LineBreak { hyphen } => {
                    if *hyphen {
                        s.push('-');
                    }
                    s.push('\n');
                }
                TextItem::Paragraph => s.push_str("\n\n"),
                _ => {}
            }
        }
        s
    }
}

/// Parse one message entry (TPWM-wrapped or not).
pub fn parse_message(data: &[u8]) -> FormatResult<Message> {
    let data = tpwm::unwrap(data)?;
    if data.len() > MAX_MESSAGE {
        return Err(FormatError::new(
            FORMAT,
            "message",
            0,
            modex::ErrorKind::TooLarge {
                value: data.len() as u64,
                limit: MAX_MESSAGE as u64,
            },
        ));
    }
    let has_braces = data.contains(&b'{');
    let mut items = Vec::new();
    let mut text = Vec::new();
    let mut inside = !has_braces;
    let mut i = 0;
    let flush = |text: &mut Vec<u8>, items: &mut Vec<TextItem>| {
        if !text.is_empty() {
            items.push(TextItem::Text(std::mem::take(text)));
        }
    };
    while i < data.len() {
        let b = data[i];
        if !inside {
            if b == b'{' {
                inside = true;
            }
            i += 1;
            continue;
        }
        match b {
            b'}' if has_braces => {
                inside = false;
                i += 1;
            }
            0x1a | 0 => break,
            b'\r' | b'\n' => {
                // Count line ends: one is a space, two or more a paragraph.
                let mut crs = 0;
                while i < data.len() && matches!(data[i], b'\r' | b'\n') {
                    if data[i] == b'\r' || (data[i] == b'\n' && (i == 0 || data[i - 1] != b'\r')) {
                        crs += 1;
                    }
                    i += 1;
                }
                if crs >= 2 {
                    flush(&mut text, &mut items);
                    items.push(TextItem::Paragraph);
                } else if !text.is_empty() && text.last() != Some(&b' ') {
                    text.push(b' ');
                }
            }
            b'^' => {
                let letters = data.get(i + 1..i + 4).unwrap_or(&[]);
                let code: Vec<u8> = letters.iter().map(|c| c.to_ascii_uppercase()).collect();
                let mut j = i + 4;
                let mut n: u32 = 0;
                while j < data.len() && data[j].is_ascii_digit() {
                    n = n.saturating_mul(10).saturating_add((data[j] - b'0') as u32);
                    j += 1;
                }
                let item = match code.as_slice() {
                    b"FON" => Some(TextItem::Font(n)),
                    b"COL" => Some(TextItem::Colour(n)),
                    b"VOC" => Some(TextItem::Voice(n)),
                    b"CUT" => Some(TextItem::Cut(n)),
                    b"CRT" => {
                        let hyphen = text.last() == Some(&b'-');
                        if hyphen {
                            text.pop();
                        }
                        Some(TextItem::LineBreak { hyphen })
                    }
                    _ => None,
                };
                match item {
                    Some(item) => {
                        flush(&mut text, &mut items);
                        items.push(item);
                        i = j;
                    }
                    None => {
                        log::debug!("ATXT: unknown control code at {i} shown as text");
                        text.push(b);
                        i += 1;
                    }
                }
            }
            _ => {
                text.push(b);
                i += 1;
            }
        }
    }
    flush(&mut text, &mut items);
    Ok(Message { items })
}

/// Write a message as the game stores it: one `{...}` segment, CR LF line ends.
pub fn encode_message(text: &str) -> Vec<u8> {
    let mut out = b"{".to_vec();
    out.extend(cp437::encode(&text.replace('\n', "\r\n")));
    out.extend_from_slice(b"}\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_codes_paragraphs_and_umlauts() {
        let data = b"junk{^FON1^COL12Hallo Gr\x81\xe1e,\r\nzweite^CRTZei-^CRTle\r\n\r\n^VOC3Ende^CUT2}x{!}";
        let m = parse_message(data).unwrap();
        assert_eq!(
            m.items,
            vec![
                TextItem::Font(1),
                TextItem::Colour(12),
                TextItem::Text(b"Hallo Gr\x81\xe1e, zweite".to_vec()),
                TextItem::LineBreak { hyphen: false },
                TextItem::Text(b"Zei".to_vec()),
                TextItem::LineBreak { hyphen: true },
                TextItem::Text(b"le".to_vec()),
                TextItem::Paragraph,
                TextItem::Voice(3),
                TextItem::Text(b"Ende".to_vec()),
                TextItem::Cut(2),
                TextItem::Text(b"!".to_vec()),
            ]
        );
        assert_eq!(m.plain_text(), "Hallo Grüße, zweite\nZei-\nle\n\nEnde!");
        let w = parse_message(&encode_message("a\n\nb")).unwrap();
        assert_eq!(w.plain_text(), "a\n\nb");
        assert_eq!(parse_message(b"^").unwrap().plain_text(), "^");
    }
}
