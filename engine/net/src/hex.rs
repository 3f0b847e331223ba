//! Datagrams as hex text, the way `modex net decode` takes them and JSON shows user packets: two
//! digits a byte, whitespace allowed anywhere between the pairs.

/// Text that is not hex bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    /// The digits do not pair up.
    #[error("`{0}` has an odd number of hex digits")]
    OddDigits(String),
    /// A pair that is not a byte.
    #[error("`{0}` is not a hex byte")]
    NotHex(String),
}

/// The bytes of hex text such as `"43 07 00"` or `"430700"`.
pub fn parse_hex(s: &str) -> Result<Vec<u8>, HexError> {
    let digits: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() % 2 != 0 {
        return Err(HexError::OddDigits(s.to_string()));
    }
    digits
        .chunks(2)
        .map(|p| {
            let pair: String = p.iter().collect();
            u8::from_str_radix(&pair, 16).map_err(|_| HexError::NotHex(pair))
        })
        .collect()
}

/// Bytes as lower-case hex pairs separated by spaces (`"43 07 00"`).
pub fn to_hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_names_bad_text() {
        assert_eq!(parse_hex("43 07\t0a").unwrap(), [0x43, 0x07, 0x0a]);
        assert_eq!(to_hex(&[0x43, 0x07, 0x0a]), "43 07 0a");
        assert_eq!(parse_hex(""), Ok(vec![]));
        assert_eq!(parse_hex("430"), Err(HexError::OddDigits("430".into())));
        assert_eq!(parse_hex("4g"), Err(HexError::NotHex("4g".into())));
    }
}
