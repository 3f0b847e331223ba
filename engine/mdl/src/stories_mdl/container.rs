//! The relocatable chunk: the 0x20-byte header and the relocation table (librwgta `relocchunk.cpp`).
//!
//! The game loads the file, then adds the load address minus 0x20 to every pointer field the
//! relocation table lists; the table's entries are the file offsets of those fields. So a stored
//! pointer is a file offset, and a field that is not listed is not a pointer (NULL pointers are never
//! listed). `Image` checks the whole table once, up front: each listed field lies inside the file
//! after the header, no field is listed twice, and each pointer lies inside the file. Readers then ask
//! `Image::pointer` for a field, which answers with the target or `None` for NULL, and refuses a
//! non-zero value in a field the table does not list (the game would have used it as an absolute
//! address).
//!
//! Objects may share what they point at (two atomics can name one geometry, two meshes one DMA
//! packet), so checking each count against the file's length does not bound the whole decode: a
//! small file could name one large geometry thousands of times. `Image::spend` is the cap over
//! the whole file: the decoder may create at most [`ELEMENTS_PER_BYTE`] × the file's length
//! elements (atomics, materials, bone matrices, meshes, vertices). A real file creates fewer than
//! one per 8 bytes (each vertex alone stores at least 8), so only files that alias their data many
//! times over reach it.

use std::cell::Cell;

use modex::{ByteReader, ErrorKind, FormatError, FormatResult};

use super::{invalid, FORMAT, MAGIC};

/// Size of the chunk header.
pub const HEADER_SIZE: usize = 0x20;

/// The chunk header (`sChunkHeader`), fields as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkHeader {
    /// `ident` (`0x006D646C` for models).
    pub ident: u32,
    /// `shrink`: whether the game frees the bytes after `data_size` once relocated.
    pub shrink: u32,
    /// `fileSize`: bytes of the whole file.
    pub file_size: u32,
    /// `dataSize`: bytes of the header and objects (the relocation table usually follows).
    pub data_size: u32,
    /// `relocTab`: file offset of the relocation table.
    pub reloc_table: u32,
    /// `numRelocs`: entries of the table.
    pub reloc_count: u32,
    /// `globalTab` (not used by models).
    pub global_table: u32,
    /// `numClasses`.
    pub num_classes: u16,
    /// `numFuncs`.
    pub num_funcs: u16,
}

/// Decoded elements allowed per byte of file (`Image::spend`).
pub const ELEMENTS_PER_BYTE: usize = 1;

/// A checked file: its header, its bytes (up to `file_size`), the sorted relocated field offsets,
/// and what is left of the decode budget.
#[derive(Debug, Clone)]
pub(crate) struct Image<'a> {
    pub header: ChunkHeader,
    data: &'a [u8],
    relocated: Vec<u32>,
    budget: Cell<usize>,
}

impl<'a> Image<'a> {
    /// Read and check the header and relocation table of `data`.
    pub fn open(data: &'a [u8]) -> FormatResult<Image<'a>> {
        let mut r = ByteReader::new(data, FORMAT);
        r.expect_magic(&MAGIC, "header.ident")?;
        let ident = u32::from_le_bytes(MAGIC);
        let shrink = r.u32("header.shrink")?;
        let file_size = r.u32("header.file_size")?;
        let len = data.len();
        let file_len = file_size as usize;
        if file_len > len {
            return Err(FormatError::new(
                FORMAT,
                "header.file_size",
                8,
                ErrorKind::Truncated {
                    needed: file_len,
                    available: len,
                },
            ));
        }
        if file_len < HEADER_SIZE {
            return Err(FormatError::out_of_range(
                FORMAT,
                "header.file_size",
                8,
                file_size.into(),
                HEADER_SIZE as i64,
                len as i64,
            ));
        }
        if file_len < len {
            log::warn!(
                "{FORMAT}: {} bytes after the file_size of {file_size} are ignored",
                len - file_len
            );
        }
        let data_size = r.u32("header.data_size")?;
        let reloc_table = r.u32("header.reloc_table")?;
        let reloc_count = r.u32("header.reloc_count")?;
        let global_table = r.u32("header.global_table")?;
        let num_classes = r.u16("header.num_classes")?;
        let num_funcs = r.u16("header.num_funcs")?;
        let header = ChunkHeader {
            ident,
            shrink,
            file_size,
            data_size,
            reloc_table,
            reloc_count,
            global_table,
            num_classes,
            num_funcs,
        };
        if (data_size as usize) < HEADER_SIZE || data_size > file_size {
            return Err(FormatError::out_of_range(
                FORMAT,
                "header.data_size",
                12,
                data_size.into(),
                HEADER_SIZE as i64,
                file_size.into(),
            ));
        }
        let data = &data[..file_len];
        let relocated = read_relocations(data, &header)?;
        Ok(Image {
            header,
            data,
            relocated,
            budget: Cell::new(data.len() * ELEMENTS_PER_BYTE),
        })
    }

    /// A reader over the file (up to `file_size`) placed at `offset`.
    pub fn reader_at(&self, offset: usize, field: &str) -> FormatResult<ByteReader<'a>> {
        let mut r = ByteReader::new(self.data, FORMAT);
        r.seek(offset, field)?;
        Ok(r)
    }

    /// The file's bytes, up to `file_size`.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// Take `n` elements from the decode budget (see the module docs) before creating them.
    pub fn spend(&self, n: usize, field: &str, offset: usize) -> FormatResult<()> {
        let left = self.budget.get();
        if n > left {
            return Err(FormatError::new(
                FORMAT,
                field,
                offset,
                ErrorKind::TooLarge {
                    value: n as u64,
                    limit: left as u64,
                },
            ));
        }
        self.budget.set(left - n);
        Ok(())
    }

    /// Whether the relocation table lists the field at `offset`.
    pub fn is_relocated(&self, offset: usize) -> bool {
        u32::try_from(offset).is_ok_and(|o| self.relocated.binary_search(&o).is_ok())
    }

    /// The pointer stored at `offset`: `Some(target)` for a listed field (already checked to lie in
    /// the file), `None` for NULL. A non-zero value in an unlisted field is an error.
    pub fn pointer(&self, offset: usize, field: &str) -> FormatResult<Option<usize>> {
        let value = self.reader_at(offset, field)?.u32(field)?;
        if self.is_relocated(offset) {
            return Ok(Some(value as usize));
        }
        if value == 0 {
            return Ok(None);
        }
        Err(invalid(
            field,
            offset,
            format!("pointer 0x{value:x} is not in the relocation table"),
        ))
    }

    /// Like `Image::pointer`, but NULL is an error: the field must point somewhere.
    pub fn required_pointer(&self, offset: usize, field: &str) -> FormatResult<usize> {
        self.pointer(offset, field)?
            .ok_or_else(|| invalid(field, offset, "NULL pointer where an object is required"))
    }
}

/// Check the relocation table against the file and return the listed field offsets, sorted.
fn read_relocations(data: &[u8], header: &ChunkHeader) -> FormatResult<Vec<u32>> {
    let mut r = ByteReader::new(data, FORMAT);
    r.seek(header.reloc_table as usize, "header.reloc_table")
        .map_err(|e| FormatError { offset: 16, ..e })?;
    let count = header.reloc_count as usize;
    r.check_count(count, 4, "header.reloc_count")
        .map_err(|e| FormatError { offset: 20, ..e })?;
    let mut fields = Vec::with_capacity(count);
    for i in 0..count {
        let at = r.pos();
        let field = r.u32("reloc")?;
        let f = field as usize;
        if f < HEADER_SIZE || f.checked_add(4).is_none_or(|end| end > data.len()) {
            return Err(FormatError::out_of_range(
                FORMAT,
                format!("reloc[{i}]"),
                at,
                field.into(),
                HEADER_SIZE as i64,
                data.len() as i64 - 4,
            ));
        }
        let target = u32::from_le_bytes([data[f], data[f + 1], data[f + 2], data[f + 3]]);
        if (target as usize) < HEADER_SIZE || target as usize >= data.len() {
            return Err(FormatError::out_of_range(
                FORMAT,
                format!("pointer (listed by reloc[{i}])"),
                f,
                target.into(),
                HEADER_SIZE as i64,
                data.len() as i64 - 1,
            ));
        }
        fields.push(field);
    }
    fields.sort_unstable();
    if let Some(w) = fields.windows(2).find(|w| w[0] == w[1]) {
        return Err(invalid(
            "reloc",
            header.reloc_table as usize,
            format!(
                "field 0x{:x} is listed twice (its pointer would be relocated twice)",
                w[0]
            ),
        ));
    }
    Ok(fields)
}
