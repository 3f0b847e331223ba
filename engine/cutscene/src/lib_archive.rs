//! Blue Byte LIB archives (`ANI/*.LIB`, `ENG/ATXT###.LIB`, `ENG/AFXS000.LIB`).
//!
//! Bytes 0..3 hold the offset of the index, which runs to the end of the file as 12-byte entries:
//! an 8-byte NUL-padded name and a u32 data offset. An entry ends where the next begins (the last one
//! at the index). Scripts pick entries by position in the list *sorted by name*, not by the number in
//! the name (names have gaps), so [`LibArchive::sorted`] is the selection scripts use.
//!
//! A whole archive may be TPWM-wrapped, and so may each entry: [`LibArchive::parse`] unwraps the
//! archive and [`LibArchive::entry_unpacked`] unwraps an entry.

use std::borrow::Cow;

use modex::{ByteReader, ErrorKind, FormatError, FormatResult};

use crate::tpwm;

const FORMAT: &str = "LIB";
/// Size of one index entry.
pub const ENTRY_LEN: usize = 12;

/// One archive entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibEntry {
    /// The name as stored (up to 8 bytes, without the NUL padding), decoded lossily.
    pub name: String,
    /// Byte range of the entry's data in the (unwrapped) archive.
    pub offset: usize,
    /// Its length in bytes (as stored: TPWM-packed entries are unpacked by
    /// [`LibArchive::entry_unpacked`]).
    pub len: usize,
    /// Position in the file's index.
    pub index: usize,
}

/// A parsed LIB archive borrowing (or, when TPWM-wrapped, owning) its bytes.
#[derive(Debug, Clone)]
pub struct LibArchive<'a> {
    data: Cow<'a, [u8]>,
    entries: Vec<LibEntry>,
    sorted: Vec<usize>,
}

impl<'a> LibArchive<'a> {
    /// Parse an archive: read the index and check every entry lies between the header and the index.
    pub fn parse(data: &'a [u8]) -> FormatResult<LibArchive<'a>> {
        let data = tpwm::unwrap(data)?;
        let entries = parse_index(&data)?;
        let mut sorted: Vec<usize> = (0..entries.len()).collect();
        // Stable: equal names keep file order.
        sorted.sort_by(|&a, &b| {
            let (x, y) = (&entries[a].name, &entries[b].name);
            x.to_ascii_uppercase()
                .cmp(&y.to_ascii_uppercase())
                .then(x.cmp(y))
        });
        Ok(LibArchive {
            data,
            entries,
            sorted,
        })
    }

    /// Entries in file order.
    pub fn entries(&self) -> &[LibEntry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in name order: the list that ENR, TID and sound numbers count in.
    pub fn sorted(&self) -> impl Iterator<Item = &LibEntry> {
        self.sorted.iter().map(|&i| &self.entries[i])
    }

    /// Entry `n` of the name-sorted list.
    pub fn sorted_entry(&self, n: usize) -> Option<&LibEntry> {
        self.sorted.get(n).map(|&i| &self.entries[i])
    }

    /// The entry named `name`, compared case-insensitively.
    pub fn find(&self, name: &str) -> Option<&LibEntry> {
        self.entries
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
    }

    /// An entry's stored bytes.
    pub fn entry_data(&self, entry: &LibEntry) -> &[u8] {
        &self.data[entry.offset..entry.offset + entry.len]
    }

    /// An entry's bytes, unpacked when TPWM-wrapped.
    pub fn entry_unpacked(&self, entry: &LibEntry) -> FormatResult<Cow<'_, [u8]>> {
        tpwm::unwrap(self.entry_data(entry)).map_err(|mut e| {
            e.offset += entry.offset;
            e.field = format!("entry {:?}: {}", entry.name, e.field);
            e
        })
    }

    /// The archive's (unwrapped) bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }
}

fn parse_index(data: &[u8]) -> FormatResult<Vec<LibEntry>> {
    let mut r = ByteReader::new(data, FORMAT);
    let index_at = r.u32("index_offset")? as usize;
    if index_at < 4 || index_at > data.len() {
        return Err(FormatError::out_of_range(
            FORMAT,
            "index_offset",
            0,
            index_at as i64,
            4,
            data.len() as i64,
        ));
    }
    r.seek(index_at, "index")?;
    let count = r.remaining() / ENTRY_LEN;
    if r.remaining() % ENTRY_LEN != 0 {
        log::warn!(
            "LIB: {} stray bytes after the last index entry are ignored",
            r.remaining() % ENTRY_LEN
        );
    }
    r.check_count(count, ENTRY_LEN, "index")?;
    let mut raw = Vec::with_capacity(count);
    for i in 0..count {
        let name = r.fixed_str(8, &format!("entry[{i}].name"))?;
        let at = r.pos();
        let offset = r.u32(&format!("entry[{i}].offset"))? as usize;
        if offset < 4 || offset > index_at {
            return Err(FormatError::out_of_range(
                FORMAT,
                format!("entry[{i}].offset"),
                at,
                offset as i64,
                4,
                index_at as i64,
            ));
        }
        if let Some(&(_, prev)) = raw.last() {
            if offset < prev {
                return Err(FormatError::new(
                    FORMAT,
                    format!("entry[{i}].offset"),
                    at,
                    ErrorKind::Invalid(format!(
                        "offset 0x{offset:x} is before the previous entry's 0x{prev:x}"
                    )),
                ));
            }
        }
        raw.push((name, offset));
    }
    let ends: Vec<usize> = raw
        .iter()
        .skip(1)
        .map(|&(_, o)| o)
        .chain(std::iter::once(index_at))
        .collect();
    Ok(raw
        .into_iter()
        .zip(ends)
        .enumerate()
        .map(|(index, ((name, offset), end))| LibEntry {
            name,
            offset,
            len: end - offset,
            index,
        })
        .collect())
}

/// Write an archive from `(name, bytes)` pairs in the given order. Names longer than 8 bytes are cut.
pub fn encode_lib<N: AsRef<str>, D: AsRef<[u8]>>(entries: &[(N, D)]) -> Vec<u8> {
    let data_len: usize = entries.iter().map(|(_, d)| d.as_ref().len()).sum();
    let index_at = 4 + data_len;
    let mut out = Vec::with_capacity(index_at + entries.len() * ENTRY_LEN);
    out.extend_from_slice(&(index_at as u32).to_le_bytes());
    for (_, d) in entries {
        out.extend_from_slice(d.as_ref());
    }
    let mut offset = 4u32;
    for (name, d) in entries {
        let mut field = [0u8; 8];
        let n = name.as_ref().as_bytes();
        let k = n.len().min(8);
        field[..k].copy_from_slice(&n[..k]);
        out.extend_from_slice(&field);
        out.extend_from_slice(&offset.to_le_bytes());
        offset += d.as_ref().len() as u32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_sorted_selection() {
        let bytes = encode_lib(&[("B2", b"two".as_slice()), ("A1", b"one"), ("C3", b"")]);
        let lib = LibArchive::parse(&bytes).unwrap();
        assert_eq!(lib.len(), 3);
        assert_eq!(lib.entries()[0].name, "B2");
        assert_eq!(lib.entry_data(&lib.entries()[0]), b"two");
        let names: Vec<_> = lib.sorted().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["A1", "B2", "C3"]);
        assert_eq!(lib.entry_data(lib.sorted_entry(0).unwrap()), b"one");
        assert_eq!(lib.entry_data(lib.find("c3").unwrap()), b"");
        assert!(lib.sorted_entry(3).is_none());
    }

    #[test]
    fn wrapped_archive_and_entries_unpack() {
        let inner = encode_lib(&[("X", tpwm::compress(b"hello hello hello"))]);
        let outer = tpwm::compress(&inner);
        let lib = LibArchive::parse(&outer).unwrap();
        let e = lib.sorted_entry(0).unwrap();
        assert_eq!(
            lib.entry_unpacked(e).unwrap().as_ref(),
            b"hello hello hello"
        );
    }

    #[test]
    fn bad_indexes_are_refused() {
        assert!(LibArchive::parse(&[1, 0, 0, 0]).is_err());
        assert!(LibArchive::parse(&[100, 0, 0, 0]).is_err());
        assert!(LibArchive::parse(&[0, 0]).is_err());
        // Decreasing offsets.
        let mut bytes = encode_lib(&[("A", b"aa".as_slice()), ("B", b"bb")]);
        let n = bytes.len();
        bytes[n - 4..].copy_from_slice(&4u32.to_le_bytes());
        bytes[n - 16..n - 12].copy_from_slice(&6u32.to_le_bytes());
        assert!(LibArchive::parse(&bytes).is_err());
        // Offset past the index.
        let mut bytes = encode_lib(&[("A", b"aa".as_slice())]);
        let n = bytes.len();
        bytes[n - 4..].copy_from_slice(&99u32.to_le_bytes());
        assert!(LibArchive::parse(&bytes).is_err());
        // An empty archive is fine.
        assert!(LibArchive::parse(&4u32.to_le_bytes()).unwrap().is_empty());
    }
}
