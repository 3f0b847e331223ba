//! Windows-1252, the code page of GameStudio's (German, Western European) Windows: WMB levels
//! store their names in it, so a level made on such a machine holds `R\xfcstung.mdl` for
//! `Rüstung.mdl`. It is in the core beside [`crate::cp437`] because the level decoder
//! (`modex-mdl`) and the frontends that look its names up on disk or among dropped files must
//! read the same bytes as the same characters.
//!
//! Every byte decodes to a character (the five bytes 1252 leaves undefined, 0x81 0x8D 0x8F 0x90
//! 0x9D, to the C1 controls U+0081.. as the WHATWG decoder does), so decoding loses nothing and
//! [`encode`] gives the bytes back.

/// Unicode for bytes 0x80..=0x9f; 0xa0..=0xff are Latin-1, the same code points.
const C1: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
];

/// The character for a Windows-1252 byte.
pub fn to_char(b: u8) -> char {
    match b {
        0x80..=0x9f => C1[b as usize - 0x80],
        _ => b as char,
    }
}

/// Decode Windows-1252 bytes.
pub fn decode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| to_char(b)).collect()
}

/// The Windows-1252 byte for `c`, if it has one.
pub fn from_char(c: char) -> Option<u8> {
    match c as u32 {
        0..=0x7f | 0xa0..=0xff => Some(c as u8),
        _ => C1.iter().position(|&h| h == c).map(|i| 0x80 + i as u8),
    }
}

/// Encode a string as Windows-1252; characters outside it become `?`.
pub fn encode(text: &str) -> Vec<u8> {
    text.chars().map(|c| from_char(c).unwrap_or(b'?')).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn umlauts_and_the_c1_row_decode_and_every_byte_comes_back() {
        assert_eq!(decode(b"R\xfcstung.mdl"), "Rüstung.mdl");
        assert_eq!(decode(b"\x80 \x9f \xdf"), "€ Ÿ ß");
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(encode(&decode(&all)), all);
        assert_eq!(encode("Grüße 帧"), b"Gr\xfc\xdfe ?");
    }
}
