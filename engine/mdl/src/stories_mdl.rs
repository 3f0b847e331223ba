//! GTA Liberty City Stories / Vice City Stories PS2 models (`.mdl`, ident bytes `6c 64 6d 00`).
//!
//! No sample file is public, so the reference is aap/librwgta's `tools/storiesconv` (`rsl.h`,
//! `relocchunk.cpp`, `rslconv.cpp`, `storiesconv.cpp`), read to learn the layout; where
//! `NOTES-gta-stories.md` and librwgta disagree, librwgta's rules are followed. The file is a
//! memory image of the game's objects, so the decoder is a walk over pointers:
//!
//! ```text
//! chunk header (0x20) | clump (root object) | atomics, geometries, materials, names, VIF data | relocation table
//! ```
//!
//! * [`container`]: the 0x20-byte relocatable-chunk header and the relocation table. Every field the
//!   table lists is a pointer (a file offset once the base is added); NULL pointers are not listed.
//!   Every listed pointer must lie inside the file, and `file_size`, `data_size` and the table must fit
//!   the real length, so a file cut short anywhere is an error, never a partial model.
//! * `clump`: the clump right after the header (as `storiesconv.cpp`'s `LoadElementGroup` reads it);
//!   its atomics form a ring list followed from the clump's list head until `next` returns to it
//!   (atomic = link − 0x1C); each atomic's geometry, material list (texture name, colour, MatFX) and
//!   skin.
//! * `vif`: the PS2 geometry header after the 0x20-byte geometry object (mesh count = size >> 20),
//!   the 0x30-byte mesh table, and each mesh's DMA packet of VIF batches, decoded as
//!   `rslconv.cpp`'s `convertStripPS2` does (the scale factors, the overlap of 2 vertices between
//!   batches, the skin-weight bit layout).
//! * `strip`: triangle strips to triangles (parity restarts at each mesh; stitching degenerates
//!   dropped).
//!
//! What is not read: frames (the node hierarchy), the HAnim hierarchy, vehicle/ped wrappers and
//! `LoadSimple` atomic arrays (files whose root is not a clump are refused as unsupported), PSP
//! and PC geometry, textures (they live in separate `.chk`/`.xtx` archives).
//!
//! [`StoriesModel::to_model`] turns the decoded file into the rasterizer's [`crate::Model`] and
//! [`StoriesModel::to_obj`] into an [`crate::obj::ObjMesh`]; [`crate::stories_mdl_encode`] writes
//! files this decoder reads, which the tests, fuzz seeds and the CLI checks use.

mod clump;
pub mod container;
mod draw;
mod export;
mod strip;
pub(crate) mod vif;

use glam::{Vec2, Vec3};
use modex::{FormatError, FormatResult};

pub use container::ChunkHeader;
pub use draw::{material_colour, CELL_MAX, CELL_MIN, SKIN_MAX};

/// Format name used in errors.
pub const FORMAT: &str = "GTA Stories MDL";
/// The chunk ident of models: `MDL_IDENT = 0x006D646C` little-endian, i.e. the bytes `"ldm\0"`.
pub const MAGIC: [u8; 4] = *b"ldm\0";
/// The name `modex info --json` prints as `"format"`.
pub const FORMAT_NAME: &str = "gta-stories-mdl";

/// Whether `data` starts with the model chunk ident. Format detection only: [`StoriesModel::parse`]
/// decides whether the rest holds a model.
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(&MAGIC)
}

/// A decoded `.mdl` file: its header and the clump's atomics in ring-list order.
#[derive(Debug, Clone, PartialEq)]
pub struct StoriesModel {
    /// The relocatable-chunk header.
    pub header: ChunkHeader,
    /// Byte offset of the clump (always 0x20, right after the header).
    pub clump_offset: usize,
    /// The atomics, in the order the clump's list links them.
    pub atomics: Vec<Atomic>,
}

/// One atomic (`RslElement`): a geometry placed in the clump.
#[derive(Debug, Clone, PartialEq)]
pub struct Atomic {
    /// Byte offset of the atomic in the file.
    pub offset: usize,
    /// `modelInfoId`.
    pub model_info_id: i16,
    /// `visIdFlag`.
    pub visibility_flags: u16,
    /// The geometry it draws.
    pub geometry: Geometry,
}

/// An atomic's geometry: the `RslGeometry` object and the PS2 geometry that follows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// Byte offset of the `RslGeometry` in the file.
    pub offset: usize,
    /// PS2 geometry flags: [`FLAG_POSITIONS`], [`FLAG_NORMALS`], [`FLAG_UVS`], [`FLAG_PRELIGHT`],
    /// [`FLAG_SKIN`].
    pub flags: u32,
    /// `numVerts` as stored (informative; the meshes hold the real vertices).
    pub declared_vertices: u16,
    /// Bounding sphere as stored (centre, radius).
    pub bound: [f32; 4],
    /// Position scale: `position = s16 / 32767.5 * scale + pos`.
    pub scale: Vec3,
    /// Position offset.
    pub pos: Vec3,
    /// The material list.
    pub materials: Vec<Material>,
    /// The mesh table's entries, each a triangle strip of one material.
    pub meshes: Vec<Mesh>,
    /// The skin, when the geometry has one (its batches then carry bone weights).
    pub skin: Option<SkinInfo>,
}

/// PS2 geometry flag: positions.
pub const FLAG_POSITIONS: u32 = 0x1;
/// PS2 geometry flag: normals (`0x6A` blocks).
pub const FLAG_NORMALS: u32 = 0x2;
/// PS2 geometry flag: UVs.
pub const FLAG_UVS: u32 = 0x4;
/// PS2 geometry flag: pre-light colours (`0x6F` blocks).
pub const FLAG_PRELIGHT: u32 = 0x8;
/// PS2 geometry flag: skin weights (`0x6C` blocks; librwgta reads them when the skin pointer is set).
pub const FLAG_SKIN: u32 = 0x10;

/// A material (`RslMaterial`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    /// The texture name (at most 32 bytes, as librwgta copies it), when the material has one.
    pub texture: Option<String>,
    /// The material colour, RGBA.
    pub colour: [u8; 4],
    /// The MatFX effect type, when the material has MatFX (2 = environment map).
    pub matfx: Option<i32>,
}

/// The skin of a geometry (`RslSkin`).
#[derive(Debug, Clone, PartialEq)]
pub struct SkinInfo {
    /// `numBones`.
    pub bones: u32,
    /// The inverse bone matrices (16 floats each), when the pointer is set.
    pub inverse_matrices: Vec<[f32; 16]>,
}

/// One mesh-table entry: a triangle strip of one material, cut into VIF batches in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Material index into [`Geometry::materials`].
    pub material: usize,
    /// UV scale: `uv = u8 / 127.5 * uv_scale`.
    pub uv_scale: [f32; 2],
    /// `numTriangles` as stored (the strip's length − 2 in the files librwgta reads).
    pub declared_triangles: u16,
    /// The mesh table's `unknown` word (librwgta: has to do with the raster).
    pub unknown: u32,
    /// VIF batches the strip was cut into.
    pub batches: usize,
    /// The strip's vertices, the 2 repeated at each batch start dropped.
    pub vertices: Vec<Vertex>,
    /// Triangles of the strip as vertex indices into [`Mesh::vertices`], counter-clockwise seen
    /// from the front (one winding per strip, turned by its normals: see `strip`).
    pub triangles: Vec<[u32; 3]>,
}

/// One strip vertex with every attribute the geometry's flags carry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vertex {
    /// Position in the file's coordinates.
    pub position: Vec3,
    /// Texture coordinates.
    pub uv: Vec2,
    /// Normal (`s8 / 128`, not renormalised), when the geometry has normals.
    pub normal: Option<Vec3>,
    /// Pre-light colour RGBA (RGB555 expanded as `c * 255 / 31`, alpha 0 or 255).
    pub prelight: Option<[u8; 4]>,
    /// Four bone weights, when the geometry has a skin.
    pub weights: Option<[BoneWeight; 4]>,
}

/// One bone influence of a skinned vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneWeight {
    /// Bone index: bits 2..7 of the word (0 when the weight is 0, as librwgta sets it).
    pub bone: u8,
    /// Weight: the word with its low byte cleared, as `f32` bits.
    pub weight: f32,
}

impl StoriesModel {
    /// Decode a whole file. Any inconsistency is a [`FormatError`] naming the field and offset.
    pub fn parse(data: &[u8]) -> FormatResult<StoriesModel> {
        let image = container::Image::open(data)?;
        let (clump_offset, atomics) = clump::read_clump(&image)?;
        Ok(StoriesModel {
            header: image.header,
            clump_offset,
            atomics,
        })
    }

    /// Meshes over all atomics.
    pub fn mesh_count(&self) -> usize {
        self.atomics.iter().map(|a| a.geometry.meshes.len()).sum()
    }

    /// Materials over all atomics.
    pub fn material_count(&self) -> usize {
        self.atomics
            .iter()
            .map(|a| a.geometry.materials.len())
            .sum()
    }

    /// Strip vertices over all meshes (batch overlaps not counted).
    pub fn vertex_count(&self) -> usize {
        self.meshes().map(|m| m.vertices.len()).sum()
    }

    /// Triangles over all meshes, degenerates dropped.
    pub fn triangle_count(&self) -> usize {
        self.meshes().map(|m| m.triangles.len()).sum()
    }

    /// Every mesh of every atomic, in order.
    pub fn meshes(&self) -> impl Iterator<Item = &Mesh> {
        self.atomics.iter().flat_map(|a| a.geometry.meshes.iter())
    }
}

/// An error of this format at `offset`.
fn invalid(field: impl Into<String>, offset: usize, why: impl Into<String>) -> FormatError {
    FormatError::invalid(FORMAT, field, offset, why)
}
