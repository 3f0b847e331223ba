//! The WMB7 header: the magic and 20 lists `{u32 offset, u32 length}`, 164 bytes.
//!
//! Every list is read through a reader that ends at the list's declared end, so no list can read
//! into its neighbour or past the file: a count that does not fit is a typed error at its offset.

use modex::{ByteReader, ErrorKind, FormatError, FormatResult};

use super::{Within, FORMAT};

/// Number of lists in the header.
pub const LIST_COUNT: usize = 20;
/// Size of the header: the magic and the lists.
pub const HEADER_SIZE: usize = 4 + 8 * LIST_COUNT;
/// The magic of every WMB7 file.
pub const MAGIC: &[u8; 4] = b"WMB7";

/// The header's lists, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum ListKind {
    Palettes,
    Legacy1,
    Textures,
    Legacy2,
    Pvs,
    BspNodes,
    Materials,
    Legacy3,
    Legacy4,
    AabbHulls,
    BspLeafs,
    BspBlocks,
    Legacy5,
    Legacy6,
    Legacy7,
    Objects,
    Lightmaps,
    Blocks,
    Legacy8,
    LightmapsTerrain,
}

impl ListKind {
    /// Every list, in header order.
    pub const ALL: [ListKind; LIST_COUNT] = [
        ListKind::Palettes,
        ListKind::Legacy1,
        ListKind::Textures,
        ListKind::Legacy2,
        ListKind::Pvs,
        ListKind::BspNodes,
        ListKind::Materials,
        ListKind::Legacy3,
        ListKind::Legacy4,
        ListKind::AabbHulls,
        ListKind::BspLeafs,
        ListKind::BspBlocks,
        ListKind::Legacy5,
        ListKind::Legacy6,
        ListKind::Legacy7,
        ListKind::Objects,
        ListKind::Lightmaps,
        ListKind::Blocks,
        ListKind::Legacy8,
        ListKind::LightmapsTerrain,
    ];

    /// The list's name in errors and `info` (`"textures"`, `"bsp_nodes"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ListKind::Palettes => "palettes",
            ListKind::Legacy1 => "legacy1",
            ListKind::Textures => "textures",
            ListKind::Legacy2 => "legacy2",
            ListKind::Pvs => "pvs",
            ListKind::BspNodes => "bsp_nodes",
            ListKind::Materials => "materials",
            ListKind::Legacy3 => "legacy3",
            ListKind::Legacy4 => "legacy4",
            ListKind::AabbHulls => "aabb_hulls",
            ListKind::BspLeafs => "bsp_leafs",
            ListKind::BspBlocks => "bsp_blocks",
            ListKind::Legacy5 => "legacy5",
            ListKind::Legacy6 => "legacy6",
            ListKind::Legacy7 => "legacy7",
            ListKind::Objects => "objects",
            ListKind::Lightmaps => "lightmaps",
            ListKind::Blocks => "blocks",
            ListKind::Legacy8 => "legacy8",
            ListKind::LightmapsTerrain => "lightmaps_terrain",
        }
    }

    /// Position in the header.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One header entry: where a list starts and how many bytes it declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct List {
    /// Byte offset of the list in the file.
    pub offset: u32,
    /// Declared length in bytes.
    pub length: u32,
}

/// The header: the 20 lists in [`ListKind::ALL`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The lists, indexed by [`ListKind::index`].
    pub lists: [List; LIST_COUNT],
}

impl Header {
    /// The entry of one list.
    pub fn list(&self, kind: ListKind) -> List {
        self.lists[kind.index()]
    }
}

/// Read the magic and the lists; each list must lie inside the file.
pub fn read_header(bytes: &[u8]) -> FormatResult<Header> {
    let mut r = ByteReader::new(bytes, FORMAT);
    r.expect_magic(MAGIC, "magic")?;
    let mut lists = [List::default(); LIST_COUNT];
    for (kind, list) in ListKind::ALL.iter().zip(lists.iter_mut()) {
        let offset = r.u32("offset").within(|| kind.name().to_string())?;
        let length = r.u32("length").within(|| kind.name().to_string())?;
        *list = List { offset, length };
    }
    // A list that runs past the end: the file was cut short (or the offset is garbage). Said of
    // the list that reaches furthest, so `offset + needed` is the size the file should have; from
    // where the list starts, or from the end when it starts beyond it.
    let file_len = bytes.len() as u64;
    let end = |l: &List| l.offset as u64 + l.length as u64;
    if let Some((kind, list)) = ListKind::ALL
        .iter()
        .zip(&lists)
        .filter(|(_, l)| l.length > 0 && end(l) > file_len)
        .max_by_key(|(_, l)| end(l))
    {
        let start = (list.offset as u64).min(file_len);
        return Err(FormatError::new(
            FORMAT,
            kind.name(),
            start as usize,
            ErrorKind::Truncated {
                needed: usize::try_from(end(list) - start).unwrap_or(usize::MAX),
                available: (file_len - start) as usize,
            },
        ));
    }
    Ok(Header { lists })
}

/// A reader over one list: positioned at its start, ending at its declared end, with offsets
/// counted from the start of the file (so errors point into the file, not into the list).
pub(crate) fn list_reader<'a>(bytes: &'a [u8], list: List) -> ByteReader<'a> {
    // `read_header` checked that the list lies inside the file.
    let end = (list.offset as usize + list.length as usize).min(bytes.len());
    let start = (list.offset as usize).min(end);
    let mut r = ByteReader::new(&bytes[..end], FORMAT);
    // Cannot fail: start <= end = the reader's length.
    let _ = r.seek(start, "list");
    r
}

/// The bytes of one list.
pub(crate) fn list_bytes(bytes: &[u8], list: List) -> &[u8] {
    let end = (list.offset as usize + list.length as usize).min(bytes.len());
    let start = (list.offset as usize).min(end);
    &bytes[start..end]
}

/// The first other non-empty list whose bytes share a byte with `kind`'s, if any.
pub(crate) fn overlapping(header: &Header, kind: ListKind) -> Option<ListKind> {
    let range = |l: List| l.offset as u64..l.offset as u64 + l.length as u64;
    let mine = header.list(kind);
    if mine.length == 0 {
        return None;
    }
    let mine = range(mine);
    ListKind::ALL.into_iter().find(|&other| {
        let theirs = header.list(other);
        other != kind
            && theirs.length > 0
            && range(theirs).start < mine.end
            && mine.start < range(theirs).end
    })
}

/// Turn an error read inside list `kind` into one about the list: a field that runs past the
/// list's declared end means the list is too short for what it says, not that the file was cut
/// short (the header already checked the list lies inside the file).
pub(crate) fn in_list(kind: ListKind, list: List) -> impl Fn(FormatError) -> FormatError {
    move |e| match e.kind {
        ErrorKind::Truncated { needed, available } => FormatError::invalid(
            e.format,
            e.field,
            e.offset,
            format!(
                "needs {needed} bytes, but the `{}` list ({} bytes from offset {}) has {available} \
                 left there",
                kind.name(),
                list.length,
                list.offset
            ),
        ),
        _ => e,
    }
}
