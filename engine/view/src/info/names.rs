//! Names as GameStudio stored them: bytes in whatever code page the modeller's Windows used.

/// The code pages GameStudio frame names were seen in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codepage {
    /// Simplified Chinese (GBK).
    Gbk,
    /// Western European (Windows-1252).
    Windows1252,
    /// Cyrillic (Windows-1251).
    Windows1251,
    /// The DOS code page 437.
    Cp437,
}

/// Decode a stored name: plain ASCII as is; else the `codepage` the user gave (gbk, 1252, 1251,
/// 437); else UTF-8 if valid; else Windows-1252. Returns the text and the encoding used.
///
/// The user's code page comes before UTF-8 because short GBK names are often valid UTF-8 too:
/// the real MDL4 frame names `帧0..帧480` (GBK `D6 A1`) read as UTF-8 `֡0..֡480`.
pub fn decode_name(bytes: &[u8], codepage: Option<Codepage>) -> (String, &'static str) {
    match std::str::from_utf8(bytes) {
        Ok(s) if s.is_ascii() => return (s.to_string(), "UTF-8"),
        Ok(s) if codepage.is_none() => return (s.to_string(), "UTF-8"),
        _ => {}
    }
    let with = |encoding: &'static encoding_rs::Encoding| {
        encoding.decode_without_bom_handling(bytes).0.into_owned()
    };
    match codepage {
        Some(Codepage::Cp437) => (modex::cp437::decode(bytes), "CP437"),
        Some(Codepage::Gbk) => (with(encoding_rs::GBK), "GBK"),
        Some(Codepage::Windows1251) => (with(encoding_rs::WINDOWS_1251), "Windows-1251"),
        Some(Codepage::Windows1252) | None => (with(encoding_rs::WINDOWS_1252), "Windows-1252"),
    }
}

/// Decode a model's frame names by [`decode_name`]. Returns the names and the encodings used, in
/// the order first met and joined by `+` (`UTF-8` for a model without frames), as `info` shows
/// them: a file whose names mix encodings says so.
pub fn decode_names<'a>(
    names: impl IntoIterator<Item = &'a [u8]>,
    codepage: Option<Codepage>,
) -> (Vec<String>, String) {
    let mut encodings: Vec<&str> = Vec::new();
    let names = names
        .into_iter()
        .map(|bytes| {
            let (name, enc) = decode_name(bytes, codepage);
            if !encodings.contains(&enc) {
                encodings.push(enc);
            }
            name
        })
        .collect();
    let encoding = if encodings.is_empty() {
        "UTF-8".to_string()
    } else {
        encodings.join("+")
    };
    (names, encoding)
}

/// Frame names, with runs like `walk1 walk2 .. walk8` shortened to `walk1..walk8 (8)`.
pub(super) fn name_runs(names: &[&str]) -> Vec<String> {
    fn split(name: &str) -> (&str, Option<u64>) {
        let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
        (stem, name[stem.len()..].parse().ok())
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < names.len() {
        let (stem, n) = split(names[i]);
        let mut j = i + 1;
        if let Some(mut last) = n {
            while j < names.len() {
                match split(names[j]) {
                    (s, Some(m)) if s == stem && m == last + 1 => {
                        last = m;
                        j += 1;
                    }
                    _ => break,
                }
            }
        }
        out.push(if j - i > 2 {
            format!("{}..{} ({})", names[i], names[j - 1], j - i)
        } else {
            names[i..j].join(", ")
        });
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decode_utf8_then_the_code_page_then_1252() {
        // GBK for 帧0: what a real MDL4 file's frame names are.
        let gbk = [0xD6, 0xA1, b'0'];
        assert_eq!(
            decode_name(&gbk, Some(Codepage::Gbk)),
            ("帧0".to_string(), "GBK")
        );
        assert_eq!(decode_name(&gbk, None), ("\u{5a1}0".to_string(), "UTF-8"));
        assert_eq!(
            decode_name(&[0xD6, 0x30], None),
            ("Ö0".to_string(), "Windows-1252")
        );
        assert_eq!(
            decode_name("walk".as_bytes(), Some(Codepage::Gbk)),
            ("walk".into(), "UTF-8")
        );
        assert_eq!(
            decode_name(&[0x80, 0xFF], Some(Codepage::Cp437)).0,
            "Ç\u{a0}"
        );
        assert_eq!(decode_name(&[0xC0], Some(Codepage::Windows1251)).0, "А");
    }

    #[test]
    fn frame_runs_shorten_numbered_sequences() {
        let names = ["walk1", "walk2", "walk3", "walk4", "die1", "die2", "idle"];
        assert_eq!(
            name_runs(&names),
            ["walk1..walk4 (4)", "die1, die2", "idle"]
        );
    }
}
