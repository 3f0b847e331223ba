//! 3D GameStudio WMB7 levels: level geometry (blocks), textures, lightmaps and the objects that
//! place models, lights, sounds and paths. Every `.wmb` of the published A7/A8 games is WMB7.
//!
//! [`WmbFile::parse`] reads the 164-byte header ([`header`]), then each list through a reader that
//! ends at the list's declared end: [`texture`], [`block`] (blocks and materials), [`object`] and
//! the lightmaps. Counts are checked against the bytes left in their list before anything is
//! allocated. The BSP, PVS, palette and legacy lists are kept as bytes ([`WmbFile::other_lists`]):
//! they appear only in "Build BSP Map" output and serve only culling. [`encode`] writes a
//! [`WmbFile`] back (tests and fuzz seeds); [`surface`] turns blocks into renderer-ready
//! [`crate::Model`]s with texture × lightmap baked into surfaces. Layout notes and what differs
//! from the manual: `docs/formats.md`, "WMB7 levels".

pub mod block;
pub mod chart;
pub mod encode;
pub mod header;
pub mod object;
pub mod surface;

pub mod texture;

use modex::{ErrorKind, FormatError, FormatResult};

pub use block::{Block, BlockSkin, BlockTriangle, BlockVertex, Material, SkinType};
pub use header::{read_header, Header, List, ListKind, HEADER_SIZE, LIST_COUNT, MAGIC};
pub use object::{
    Entity, EntityKind, Info, Object, Path, PathEdge, ENTITY_PASSABLE, ENTITY_POLYGON,
};
pub use texture::Texture;

/// Format name used in errors.
pub const FORMAT: &str = "WMB";

/// A decoding result whose error, if any, is put inside a record: the record's name (built only
/// when there is an error) and a dot go before the field the reader named. Records are read with
/// `&'static str` field names and named once on the way out, so a level of 20 000 vertices
/// decodes without formatting a field name per read (`block[3].triangle[7].v` is still what an
/// error says).
/// A level's string up to its first NUL, as Windows-1252: GameStudio ran on Western European
/// Windows and stored names in its code page (`R\xfcstung.mdl` is `Rüstung.mdl`), never UTF-8.
/// Every byte is a character, so nothing is lost and the writer gives the bytes back.
pub(crate) fn text(bytes: &[u8]) -> String {
    let stop = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());
    modex::windows1252::decode(&bytes[..stop])
}

/// A string field of `n` bytes at the cursor ([`text`]), the cursor moved past it.
pub(crate) fn fixed_text(
    r: &mut modex::ByteReader<'_>,
    n: usize,
    field: &str,
) -> FormatResult<String> {
    Ok(text(r.bytes(n, field)?))
}

pub(crate) trait Within {
    /// Prefix the error's field with `record()`.
    fn within(self, record: impl FnOnce() -> String) -> Self;
    /// Name the error's field `field()` (for one field of a list, `textures.offset[3]`).
    fn named(self, field: impl FnOnce() -> String) -> Self;
}

impl<T> Within for FormatResult<T> {
    fn within(self, record: impl FnOnce() -> String) -> Self {
        self.map_err(|mut e| {
            e.field = if e.field.is_empty() {
                record()
            } else {
                format!("{}.{}", record(), e.field)
            };
            e
        })
    }

    fn named(self, field: impl FnOnce() -> String) -> Self {
        self.map_err(|mut e| {
            e.field = field();
            e
        })
    }
}

/// Side of a lightmap page when a level has no INFO object.
pub const DEFAULT_LIGHTMAP_DIM: usize = 256;

/// Whether `bytes` start like a WMB7 level.
///
/// The magic alone decides, so a file cut short inside its header is still named a level and its
/// error says how short it is (instead of "unknown format").
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// A terrain lightmap (`lightmaps_terrain`): `u32 count`, then `{u32 object, width, height}` and
/// `3 * width * height` bytes B G R each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerrainLightmap {
    /// The object it lights.
    pub object: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// B G R bytes as stored.
    pub bgr: Vec<u8>,
}

/// A decoded WMB7 level.
#[derive(Debug, Clone, PartialEq)]
pub struct WmbFile {
    /// Textures.
    pub textures: Vec<Texture>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Blocks: the drawable level geometry.
    pub blocks: Vec<Block>,
    /// Objects, in file order.
    pub objects: Vec<Object>,
    /// Side of each lightmap page (from the INFO object's lightmap size).
    pub lightmap_dim: usize,
    /// The lightmap pages, each `3 * dim * dim` bytes B G R, rows top first.
    pub lightmaps: Vec<Vec<u8>>,
    /// Terrain lightmaps.
    pub terrain_lightmaps: Vec<TerrainLightmap>,
    /// The lists kept as bytes (palettes, legacy, BSP, PVS), with their kind, in header order.
    pub other_lists: Vec<(ListKind, Vec<u8>)>,
    /// Optional lists set aside as absent while decoding, one warning each (frontends show them;
    /// the writer ignores them).
    pub warnings: Vec<ListWarning>,
}

impl Default for WmbFile {
    /// A level with nothing in it and lightmap pages of the size a level without an INFO
    /// object has ([`DEFAULT_LIGHTMAP_DIM`]): a start for levels built in code.
    fn default() -> Self {
        WmbFile {
            textures: Vec::new(),
            materials: Vec::new(),
            blocks: Vec::new(),
            objects: Vec::new(),
            lightmap_dim: DEFAULT_LIGHTMAP_DIM,
            lightmaps: Vec::new(),
            terrain_lightmaps: Vec::new(),
            other_lists: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// An optional list that could not be what the header says, decoded as absent.
///
/// Real levels carry such lists: four levels of one published game declare a 4-byte
/// `lightmaps_terrain` list (room for a count of 0 and nothing else) whose count reads
/// `0x02020202`, lightmap bytes; in three of them the list's offset lies inside the `lightmaps`
/// list. The game loads them and draws no terrain lightmaps, so modex does the same and says so
/// once. Only lists the level is whole without are treated this way ([`ListWarning::OPTIONAL`]);
/// every other list stays strict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListWarning {
    /// The list set aside.
    pub list: ListKind,
    /// Its offset in the file, as the header says.
    pub offset: u32,
    /// Why it cannot be what it says.
    pub reason: String,
}

impl ListWarning {
    /// The lists that may be set aside: terrain lightmaps only light terrain objects, which draw
    /// unlit without them.
    pub const OPTIONAL: [ListKind; 1] = [ListKind::LightmapsTerrain];
}

impl std::fmt::Display for ListWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{FORMAT}: list `{}` at byte offset {} treated as absent: {}",
            self.list.name(),
            self.offset,
            self.reason
        )
    }
}

/// Decode the optional list `kind` with `decode`, or set it aside with a warning when its range
/// overlaps another list's data or its count cannot fit in its declared length. Other errors stay
/// errors.
fn optional<T: Default>(
    header: &Header,
    kind: ListKind,
    warnings: &mut Vec<ListWarning>,
    decode: impl FnOnce() -> FormatResult<T>,
) -> FormatResult<T> {
    let list = header.list(kind);
    let mut set_aside = |reason: String| {
        warnings.push(ListWarning {
            list: kind,
            offset: list.offset,
            reason,
        });
        Ok(T::default())
    };
    if let Some(other) = header::overlapping(header, kind) {
        let o = header.list(other);
        return set_aside(format!(
            "its bytes {}..{} lie inside the `{}` list ({}..{})",
            list.offset,
            list.offset as u64 + list.length as u64,
            other.name(),
            o.offset,
            o.offset as u64 + o.length as u64
        ));
    }
    match decode() {
        // The count is the list's first field: too large for the list means the list is not one.
        Err(FormatError {
            kind: ErrorKind::TooLarge { value, limit },
            field,
            ..
        }) if field == format!("{}.count", kind.name()) => set_aside(format!(
            "its count reads {value} (0x{value:x}) but its {} bytes hold at most {limit}",
            list.length
        )),
        other => other,
    }
}

impl WmbFile {
    /// Parse a level.
    pub fn parse(bytes: &[u8]) -> FormatResult<WmbFile> {
        let header = read_header(bytes)?;
        let read = |kind: ListKind| header::list_reader(bytes, header.list(kind));
        let in_list = |kind: ListKind| header::in_list(kind, header.list(kind));
        let textures = texture::read_textures(&mut read(ListKind::Textures))
            .map_err(in_list(ListKind::Textures))?;
        let materials = block::read_materials(&mut read(ListKind::Materials))
            .map_err(in_list(ListKind::Materials))?;
        let blocks =
            block::read_blocks(&mut read(ListKind::Blocks)).map_err(in_list(ListKind::Blocks))?;
        let objects = object::read_objects(&mut read(ListKind::Objects))
            .map_err(in_list(ListKind::Objects))?;
        let info = objects.iter().find_map(|o| match o {
            Object::Info(i) => Some(*i),
            _ => None,
        });
        let lightmap_dim = match info {
            Some(i) => i.lightmap_dim().ok_or_else(|| {
                FormatError::invalid(
                    FORMAT,
                    "info.lightmap_size",
                    header.list(ListKind::Objects).offset as usize,
                    format!("size code {} (0, 1 or 2)", i.lightmap_size),
                )
            })?,
            None => DEFAULT_LIGHTMAP_DIM,
        };
        let lightmaps = read_lightmaps(bytes, header.list(ListKind::Lightmaps), lightmap_dim)?;
        let mut warnings = Vec::new();
        let terrain_lightmaps =
            optional(&header, ListKind::LightmapsTerrain, &mut warnings, || {
                read_terrain_lightmaps(&mut read(ListKind::LightmapsTerrain))
                    .map_err(in_list(ListKind::LightmapsTerrain))
            })?;
        let other_lists = ListKind::ALL
            .iter()
            .filter(|k| !interpreted(**k))
            .filter(|k| header.list(**k).length > 0)
            .map(|&k| (k, header::list_bytes(bytes, header.list(k)).to_vec()))
            .collect();
        Ok(WmbFile {
            textures,
            materials,
            blocks,
            objects,
            lightmap_dim,
            lightmaps,
            terrain_lightmaps,
            other_lists,
            warnings,
        })
    }

    /// The INFO object, if the level has one.
    pub fn info(&self) -> Option<&Info> {
        self.objects.iter().find_map(|o| match o {
            Object::Info(i) => Some(i),
            _ => None,
        })
    }

    /// The entities (old and new records), in file order.
    pub fn entities(&self) -> impl Iterator<Item = &Entity> {
        self.objects.iter().filter_map(|o| match o {
            Object::Entity(e) => Some(e),
            _ => None,
        })
    }

    /// Lowest and highest corner of every block's vertices, `None` without block geometry.
    pub fn block_bounds(&self) -> Option<(glam::Vec3, glam::Vec3)> {
        let mut it = self.blocks.iter().flat_map(|b| b.vertices.iter());
        let first = it.next()?.position;
        Some(it.fold((first, first), |(lo, hi), v| {
            (lo.min(v.position), hi.max(v.position))
        }))
    }

    /// Lightmap page `index` as R G B bytes, rows top first.
    pub fn lightmap_rgb(&self, index: usize) -> Option<Vec<u8>> {
        let page = self.lightmaps.get(index)?;
        Some(
            page.chunks_exact(3)
                .flat_map(|c| [c[2], c[1], c[0]])
                .collect(),
        )
    }
}

/// The lists [`WmbFile`] decodes (the rest are kept as bytes).
pub(crate) fn interpreted(kind: ListKind) -> bool {
    matches!(
        kind,
        ListKind::Textures
            | ListKind::Materials
            | ListKind::Blocks
            | ListKind::Objects
            | ListKind::Lightmaps
            | ListKind::LightmapsTerrain
    )
}

fn read_lightmaps(bytes: &[u8], list: List, dim: usize) -> FormatResult<Vec<Vec<u8>>> {
    let data = header::list_bytes(bytes, list);
    let page = 3 * dim * dim;
    if data.len() % page != 0 {
        return Err(FormatError::invalid(
            FORMAT,
            "lightmaps.length",
            4 + 8 * ListKind::Lightmaps.index() + 4,
            format!(
                "{} bytes is not a whole number of {dim}x{dim} pages",
                data.len()
            ),
        ));
    }
    Ok(data.chunks_exact(page).map(<[u8]>::to_vec).collect())
}

fn read_terrain_lightmaps(r: &mut modex::ByteReader<'_>) -> FormatResult<Vec<TerrainLightmap>> {
    if r.remaining() == 0 {
        return Ok(Vec::new());
    }
    let count = r.u32("lightmaps_terrain.count")? as usize;
    r.check_count(count, 12, "lightmaps_terrain.count")?;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        out.push(read_terrain_lightmap(r).within(|| format!("lightmaps_terrain[{i}]"))?);
    }
    Ok(out)
}

fn read_terrain_lightmap(r: &mut modex::ByteReader<'_>) -> FormatResult<TerrainLightmap> {
    let object = r.u32("object")?;
    let width = r.u32("width")?;
    let height = r.u32("height")?;
    // Two u32s multiply within a u64; three bytes a texel may not (found by fuzzing).
    let len = (width as u64 * height as u64).saturating_mul(3);
    if len > r.remaining() as u64 {
        return Err(r.error(
            "width",
            ErrorKind::TooLarge {
                value: len,
                limit: r.remaining() as u64,
            },
        ));
    }
    let bgr = r.bytes(len as usize, "pixels")?.to_vec();
    Ok(TerrainLightmap {
        object,
        width,
        height,
        bgr,
    })
}
