//! A bounds-checked little-endian byte reader shared by every loader.
//!
//! Loaders never index the input directly: every read goes through [`ByteReader`], which turns a short
//! file into a [`FormatError`] naming the field and offset. [`ByteReader::check_count`] is the guard
//! against hostile counts: a loader asks it whether `count` elements of `size` bytes can possibly fit
//! in what is left *before* it allocates anything, so a 4-byte file claiming four billion vertices is
//! refused instead of exhausting memory.

use crate::error::{ErrorKind, FormatError, FormatResult};

/// A cursor over a byte slice with checked reads.
#[derive(Debug, Clone)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    format: &'static str,
}

impl<'a> ByteReader<'a> {
    /// A reader over `data` whose errors are tagged with `format`.
    pub fn new(data: &'a [u8], format: &'static str) -> Self {
        ByteReader {
            data,
            pos: 0,
            format,
        }
    }

    /// The format name used in errors.
    pub fn format(&self) -> &'static str {
        self.format
    }

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Total length of the input.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True for empty input.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Bytes left after the cursor.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The whole input.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// An error at the current offset.
    pub fn error(&self, field: impl Into<String>, kind: ErrorKind) -> FormatError {
        FormatError::new(self.format, field, self.pos, kind)
    }

    /// An [`ErrorKind::Invalid`] error at the current offset.
    pub fn invalid(&self, field: impl Into<String>, why: impl Into<String>) -> FormatError {
        FormatError::invalid(self.format, field, self.pos, why)
    }

    /// Move the cursor to an absolute offset (may equal the length, never beyond).
    pub fn seek(&mut self, offset: usize, field: &str) -> FormatResult<()> {
        if offset > self.data.len() {
            return Err(FormatError::new(
                self.format,
                field,
                offset,
                ErrorKind::OutOfRange {
                    value: offset as i64,
                    min: 0,
                    max: self.data.len() as i64,
                },
            ));
        }
        self.pos = offset;
        Ok(())
    }

    /// Take the next `n` bytes.
    pub fn bytes(&mut self, n: usize, field: &str) -> FormatResult<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(
                field,
                ErrorKind::Truncated {
                    needed: n,
                    available: self.remaining(),
                },
            ));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Take the next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self, field: &str) -> FormatResult<[u8; N]> {
        let b = self.bytes(N, field)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// Read a file's magic: the next `magic.len()` bytes must equal `magic`, else a
    /// [`ErrorKind::BadMagic`] error at their offset showing (up to 16 of) the bytes found. One
    /// check for every format, so each decoder states its magic once.
    pub fn expect_magic(&mut self, magic: &[u8], field: &str) -> FormatResult<()> {
        let at = self.pos();
        let found = self.bytes(magic.len(), field)?;
        if found == magic {
            return Ok(());
        }
        Err(FormatError::new(
            self.format(),
            field,
            at,
            ErrorKind::BadMagic {
                found: found[..found.len().min(16)].to_vec(),
            },
        ))
    }

    /// Skip `n` bytes.
    pub fn skip(&mut self, n: usize, field: &str) -> FormatResult<()> {
        self.bytes(n, field).map(|_| ())
    }

    /// Read a `u8` named `field`.
    pub fn u8(&mut self, field: &str) -> FormatResult<u8> {
        Ok(self.array::<1>(field)?[0])
    }

    /// Read an `i8` named `field`.
    pub fn i8(&mut self, field: &str) -> FormatResult<i8> {
        Ok(self.array::<1>(field)?[0] as i8)
    }

    /// Read a little-endian `u16` named `field`.
    pub fn u16(&mut self, field: &str) -> FormatResult<u16> {
        Ok(u16::from_le_bytes(self.array(field)?))
    }

    /// Read a little-endian `i16` named `field`.
    pub fn i16(&mut self, field: &str) -> FormatResult<i16> {
        Ok(i16::from_le_bytes(self.array(field)?))
    }

    /// Read a little-endian `u32` named `field`.
    pub fn u32(&mut self, field: &str) -> FormatResult<u32> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }

    /// Read a little-endian `i32` named `field`.
    pub fn i32(&mut self, field: &str) -> FormatResult<i32> {
        Ok(i32::from_le_bytes(self.array(field)?))
    }

    /// Read a little-endian `f32` named `field`.
    pub fn f32(&mut self, field: &str) -> FormatResult<f32> {
        Ok(f32::from_le_bytes(self.array(field)?))
    }

    /// Read an `i32` count and refuse negative values.
    pub fn count_i32(&mut self, field: &str) -> FormatResult<usize> {
        let at = self.pos;
        let v = self.i32(field)?;
        usize::try_from(v).map_err(|_| {
            FormatError::out_of_range(self.format, field, at, v as i64, 0, i32::MAX as i64)
        })
    }

    /// Check that `count` elements of `elem_size` bytes each can fit in the bytes left, so that a
    /// loader may allocate `count` elements. Overflowing products are refused too.
    pub fn check_count(&self, count: usize, elem_size: usize, field: &str) -> FormatResult<()> {
        let limit = (self.remaining() / elem_size.max(1)) as u64;
        match count.checked_mul(elem_size) {
            Some(total) if total <= self.remaining() => Ok(()),
            _ => Err(self.error(
                field,
                ErrorKind::TooLarge {
                    value: count as u64,
                    limit,
                },
            )),
        }
    }

    /// A NUL-terminated string in a fixed-size field, decoded lossily. Bytes after the first NUL
    /// are garbage in many real files and are ignored.
    pub fn fixed_str(&mut self, n: usize, field: &str) -> FormatResult<String> {
        let b = self.bytes(n, field)?;
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        Ok(String::from_utf8_lossy(&b[..end]).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_values() {
        let data = [1, 0, 0xfe, 0xff, 0, 0, 0x80, 0x3f, 7];
        let mut r = ByteReader::new(&data, "T");
        assert_eq!(r.u16("a").unwrap(), 1);
        assert_eq!(r.i16("b").unwrap(), -2);
        assert_eq!(r.f32("c").unwrap(), 1.0);
        assert_eq!(r.u8("d").unwrap(), 7);
        assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn truncated_read_names_field_and_offset() {
        let data = [1, 2, 3];
        let mut r = ByteReader::new(&data, "T");
        r.u8("first").unwrap();
        let e = r.u32("second").unwrap_err();
        assert_eq!(e.field, "second");
        assert_eq!(e.offset, 1);
        assert_eq!(
            e.kind,
            ErrorKind::Truncated {
                needed: 4,
                available: 2
            }
        );
        // A failed read does not move the cursor.
        assert_eq!(r.pos(), 1);
    }

    #[test]
    fn check_count_refuses_what_cannot_fit() {
        let data = [0u8; 16];
        let r = ByteReader::new(&data, "T");
        assert!(r.check_count(4, 4, "n").is_ok());
        assert!(r.check_count(5, 4, "n").is_err());
        assert!(r.check_count(usize::MAX, 2, "n").is_err());
        assert!(r.check_count(0, 0, "n").is_ok());
    }

    #[test]
    fn negative_count_is_refused() {
        let data = (-5i32).to_le_bytes();
        let mut r = ByteReader::new(&data, "T");
        let e = r.count_i32("numverts").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::OutOfRange { value: -5, .. }));
    }

    #[test]
    fn fixed_str_stops_at_nul_and_decodes_lossily() {
        let data = *b"run1\0\xffjunk\xe4xx";
        let mut r = ByteReader::new(&data, "T");
        assert_eq!(r.fixed_str(13, "name").unwrap(), "run1");
        let data = *b"\xe4\xf6\0";
        let mut r = ByteReader::new(&data, "T");
        assert_eq!(r.fixed_str(3, "name").unwrap(), "\u{fffd}\u{fffd}");
    }

    #[test]
    fn seek_past_end_is_an_error() {
        let data = [0u8; 4];
        let mut r = ByteReader::new(&data, "T");
        assert!(r.seek(4, "end").is_ok());
        assert!(r.seek(5, "past").is_err());
    }
}
