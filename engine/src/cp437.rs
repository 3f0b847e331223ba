//! DOS code page 437, the IBM PC's character set: the one table for every format family that stores
//! text in it (Battle Isle 2's scripts and texts, whose umlauts are its bytes 142 Ä, 132 ä, 153 Ö,
//! 148 ö, 154 Ü, 129 ü; names in models saved on DOS-era machines, read with `--codepage 437`).
//! It lives in the core because `encoding_rs` (the WHATWG encodings) lacks it and two format
//! families need the same bytes to mean the same characters.

/// Unicode for bytes 0x80..=0xff.
const HIGH: &str = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{a0}";

/// The character for a code page 437 byte (control bytes below 0x20 map to themselves).
pub fn to_char(b: u8) -> char {
    if b < 0x80 {
        b as char
    } else {
        HIGH.chars().nth(b as usize - 0x80).unwrap_or('?')
    }
}

/// Decode code page 437 bytes.
pub fn decode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| to_char(b)).collect()
}

/// Encode a string as code page 437; characters outside it become `?`.
pub fn encode(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| {
            if (c as u32) < 0x80 {
                c as u8
            } else {
                HIGH.chars()
                    .position(|h| h == c)
                    .map_or(b'?', |i| 0x80 + i as u8)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_complete_and_umlauts_sit_at_their_dos_bytes() {
        assert_eq!(HIGH.chars().count(), 128);
        assert_eq!(to_char(142), 'Ä');
        assert_eq!(to_char(132), 'ä');
        assert_eq!(to_char(153), 'Ö');
        assert_eq!(to_char(148), 'ö');
        assert_eq!(to_char(154), 'Ü');
        assert_eq!(to_char(129), 'ü');
        assert_eq!(to_char(225), 'ß');
        assert_eq!(encode("Grüße ☃"), b"Gr\x81\xe1e ?");
        assert_eq!(decode(&encode("Ärger")), "Ärger");
    }
}
