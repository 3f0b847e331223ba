//! One error type for every loader in the project.
//!
//! Preservationists feed the engine damaged, truncated and hand-edited files. Every loader therefore
//! answers with a [`FormatError`] that says *which format*, *which field* and *at which byte offset*
//! decoding stopped, so a user can open a hex editor at the right place instead of guessing.

use std::fmt;

/// What went wrong with a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The field needs `needed` bytes but only `available` remain: the file was cut short. The
    /// message says where the field starts and how long the file is (`offset + available`), the
    /// two numbers a user compares with a good copy of the file.
    Truncated {
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left in the file from the field's offset.
        available: usize,
    },
    /// The file does not start with a magic this loader knows.
    BadMagic {
        /// The bytes found where the magic should be.
        found: Vec<u8>,
    },
    /// A count or size that the rest of the file could not possibly hold.
    TooLarge {
        /// The value read.
        value: u64,
        /// The most the file (or the loader's cap) allows.
        limit: u64,
    },
    /// An index or value outside its allowed range.
    OutOfRange {
        /// The value read.
        value: i64,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A well-formed file of a variant this engine does not support (e.g. MDL7).
    Unsupported(String),
    /// Anything else that makes the data inconsistent.
    Invalid(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Truncated { needed, available } => {
                write!(f, "truncated: needs {needed} bytes, {available} left")
            }
            ErrorKind::BadMagic { found } => {
                write!(f, "unknown magic {:?}", String::from_utf8_lossy(found))
            }
            ErrorKind::TooLarge { value, limit } => {
                write!(f, "value {value} too large (at most {limit})")
            }
            ErrorKind::OutOfRange { value, min, max } => {
                write!(f, "value {value} outside {min}..={max}")
            }
            ErrorKind::Unsupported(what) => write!(f, "unsupported: {what}"),
            ErrorKind::Invalid(what) => write!(f, "invalid: {what}"),
        }
    }
}

/// A decoding error: format, field, byte offset and what was wrong there.
///
/// Shown as `MDL: field `header.numverts` at byte offset 64 (0x40): value 9 outside 0..=4`; a file
/// cut short reads `MDL: truncated: field `header.numverts` needs 4 bytes at offset 64 (0x40), the
/// file has 65`, so the first word says what happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct FormatError {
    /// Short format name, e.g. `"MDL"`, `"VXL"`, `"BBHD"`.
    pub format: &'static str,
    /// The field being decoded, e.g. `"header.numverts"` or `"frame[3].vertex[12]"`.
    pub field: String,
    /// Byte offset of the field in the input.
    pub offset: usize,
    /// What is wrong with it.
    pub kind: ErrorKind,
}

impl FormatError {
    /// An error of `format` at byte `offset` while reading `field`.
    pub fn new(
        format: &'static str,
        field: impl Into<String>,
        offset: usize,
        kind: ErrorKind,
    ) -> Self {
        FormatError {
            format,
            field: field.into(),
            offset,
            kind,
        }
    }

    /// Shorthand for [`ErrorKind::Invalid`].
    pub fn invalid(
        format: &'static str,
        field: impl Into<String>,
        offset: usize,
        why: impl Into<String>,
    ) -> Self {
        Self::new(format, field, offset, ErrorKind::Invalid(why.into()))
    }

    /// Shorthand for [`ErrorKind::Unsupported`].
    pub fn unsupported(
        format: &'static str,
        field: impl Into<String>,
        offset: usize,
        what: impl Into<String>,
    ) -> Self {
        Self::new(format, field, offset, ErrorKind::Unsupported(what.into()))
    }

    /// Shorthand for [`ErrorKind::OutOfRange`].
    pub fn out_of_range(
        format: &'static str,
        field: impl Into<String>,
        offset: usize,
        value: i64,
        min: i64,
        max: i64,
    ) -> Self {
        Self::new(
            format,
            field,
            offset,
            ErrorKind::OutOfRange { value, min, max },
        )
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let FormatError {
            format,
            field,
            offset,
            kind,
        } = self;
        match kind {
            ErrorKind::Truncated { needed, available } => write!(
                f,
                "{format}: truncated: field `{field}` needs {needed} bytes at offset {offset} \
                 (0x{offset:x}), the file has {}",
                offset.saturating_add(*available)
            ),
            _ => write!(
                f,
                "{format}: field `{field}` at byte offset {offset} (0x{offset:x}): {kind}"
            ),
        }
    }
}

/// Result alias for loaders.
pub type FormatResult<T> = Result<T, FormatError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_format_field_and_offset() {
        let e = FormatError::new(
            "MDL",
            "header.numverts",
            0x40,
            ErrorKind::Truncated {
                needed: 4,
                available: 1,
            },
        );
        let text = e.to_string();
        assert_eq!(
            text,
            "MDL: truncated: field `header.numverts` needs 4 bytes at offset 64 (0x40), the file \
             has 65"
        );
        let e = FormatError::out_of_range("MDL", "header.numverts", 0x40, 9, 0, 4);
        assert_eq!(
            e.to_string(),
            "MDL: field `header.numverts` at byte offset 64 (0x40): value 9 outside 0..=4"
        );
    }
}
