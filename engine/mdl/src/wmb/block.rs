//! The blocks and materials lists: the level's drawable meshes.
//!
//! Blocks: `u32 count`, then each block `{f32 mins[3], maxs[3]; u32 content, num_verts, num_tris,
//! num_skins}` followed by its vertices (28 bytes: position, texture UV, lightmap UV), triangles
//! (`{u16 v1, v2, v3, skin; u32 face}`) and skins (`{u16 texture, lightmap; u32 material; f32
//! ambient, albedo; u32 flags}`). Materials: 64 bytes each, a 44-byte texinfo and a 20-byte name.

use glam::{Vec2, Vec3};
use modex::{ByteReader, FormatResult};

use super::Within;

/// Size of a block record before its vertices.
pub const BLOCK_HEADER_SIZE: usize = 40;
/// Size of a block vertex.
pub const VERTEX_SIZE: usize = 28;
/// Size of a block triangle.
pub const TRIANGLE_SIZE: usize = 12;
/// Size of a block skin.
pub const SKIN_SIZE: usize = 20;
/// Size of a material record.
pub const MATERIAL_SIZE: usize = 64;

/// A block vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockVertex {
    /// Position in level units.
    pub position: Vec3,
    /// Texture coordinate, in texture repeats (tiles beyond 0..1).
    pub texture_uv: Vec2,
    /// Lightmap coordinate, 0..1 within the skin's lightmap page.
    pub lightmap_uv: Vec2,
}

/// A block triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockTriangle {
    /// Indices into the block's vertices.
    pub vertices: [u16; 3],
    /// Index into the block's skins.
    pub skin: u16,
    /// The face word (the compiler's face number).
    pub face: u32,
}

/// What a skin's surface is, from the low nibble of its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkinType {
    /// 0: textured and lit by its lightmap.
    Shaded,
    /// 3: textured, no lightmap (uniform light).
    Flat,
    /// 5: the sky.
    Sky,
    /// 9: water-like turbulence.
    Turbulence,
    /// 11: invisible.
    None,
    /// Any other nibble.
    Other(u8),
}

impl SkinType {
    /// The type of a skin `flags` word.
    pub fn from_flags(flags: u32) -> SkinType {
        match flags & 0xF {
            0 => SkinType::Shaded,
            3 => SkinType::Flat,
            5 => SkinType::Sky,
            9 => SkinType::Turbulence,
            11 => SkinType::None,
            n => SkinType::Other(n as u8),
        }
    }
}

/// Skin flag bit: the surface does not block movement.
pub const SKIN_PASSABLE: u32 = 1 << 6;
/// Skin flag bit: smooth shading.
pub const SKIN_SMOOTH: u32 = 1 << 14;

/// A block skin: which texture, lightmap page and material a triangle uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockSkin {
    /// Index into the textures list.
    pub texture: u16,
    /// Index of the lightmap page.
    pub lightmap: u16,
    /// Index into the materials list.
    pub material: u32,
    /// Ambient light, percent.
    pub ambient: f32,
    /// Albedo, percent.
    pub albedo: f32,
    /// Flags: type in the low nibble, bit 6 passable, bit 14 smooth, bits 16..23 user flags 1..8.
    pub flags: u32,
}

impl BlockSkin {
    /// The surface type (low nibble of the flags).
    pub fn kind(&self) -> SkinType {
        SkinType::from_flags(self.flags)
    }

    /// User flag `n` (1..=8), bits 16..23.
    pub fn user_flag(&self, n: u32) -> bool {
        (1..=8).contains(&n) && self.flags & (1 << (15 + n)) != 0
    }
}

/// A block: a mesh with its own vertices, triangles and skins.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Lowest corner of the stored bounding box.
    pub mins: Vec3,
    /// Highest corner of the stored bounding box.
    pub maxs: Vec3,
    /// The content word (`0xFFFFFF80` in every real file).
    pub content: u32,
    /// Vertices.
    pub vertices: Vec<BlockVertex>,
    /// Triangles; every index is checked against the block's vertices and skins.
    pub triangles: Vec<BlockTriangle>,
    /// Skins.
    pub skins: Vec<BlockSkin>,
}

/// A material record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Texture axis s: x, y, z and offset.
    pub s: [f32; 4],
    /// Texture axis t: x, y, z and offset.
    pub t: [f32; 4],
    /// The texinfo's texture index (word at +32).
    pub texture: u32,
    /// The word at +36 (texinfo flags; 0 in every sample).
    pub flags: u32,
    /// The bytes at +40..+44; the last one is the albedo (50 in every sample).
    pub tail: [u8; 4],
    /// The name as stored: 20 bytes, NUL-padded; the default is `"\0def"`.
    pub name: [u8; 20],
}

impl Material {
    /// The material's name: the text before the first NUL (empty for the default `"\0def"`).
    pub fn name(&self) -> String {
        let end = self.name.iter().position(|&c| c == 0).unwrap_or(20);
        String::from_utf8_lossy(&self.name[..end]).into_owned()
    }
}

fn vec3(r: &mut ByteReader<'_>, field: &str) -> FormatResult<Vec3> {
    Ok(Vec3::new(r.f32(field)?, r.f32(field)?, r.f32(field)?))
}

/// Read the materials list: as many 64-byte records as its length holds.
pub(crate) fn read_materials(r: &mut ByteReader<'_>) -> FormatResult<Vec<Material>> {
    let count = r.remaining() / MATERIAL_SIZE;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        out.push(read_material(r).within(|| format!("material[{i}]"))?);
    }
    Ok(out)
}

fn read_material(r: &mut ByteReader<'_>) -> FormatResult<Material> {
    let mut s = [0.0; 4];
    let mut t = [0.0; 4];
    for v in s.iter_mut() {
        *v = r.f32("s")?;
    }
    for v in t.iter_mut() {
        *v = r.f32("t")?;
    }
    Ok(Material {
        s,
        t,
        texture: r.u32("texture")?,
        flags: r.u32("flags")?,
        tail: r.array("albedo")?,
        name: r.array("name")?,
    })
}

pub(crate) fn read_blocks(r: &mut ByteReader<'_>) -> FormatResult<Vec<Block>> {
    if r.remaining() == 0 {
        return Ok(Vec::new());
    }
    let count = r.u32("blocks.count")? as usize;
    r.check_count(count, BLOCK_HEADER_SIZE, "blocks.count")?;
    let mut blocks = Vec::with_capacity(count);
    for i in 0..count {
        blocks.push(read_block(r).within(|| format!("block[{i}]"))?);
    }
    Ok(blocks)
}

fn read_block(r: &mut ByteReader<'_>) -> FormatResult<Block> {
    let mins = vec3(r, "mins")?;
    let maxs = vec3(r, "maxs")?;
    let content = r.u32("content")?;
    let num_verts = r.u32("num_verts")? as usize;
    let num_tris = r.u32("num_tris")? as usize;
    let num_skins = r.u32("num_skins")? as usize;
    r.check_count(num_verts, VERTEX_SIZE, "num_verts")?;
    let mut vertices = Vec::with_capacity(num_verts);
    for _ in 0..num_verts {
        let position = vec3(r, "vertex")?;
        let texture_uv = Vec2::new(r.f32("vertex")?, r.f32("vertex")?);
        let lightmap_uv = Vec2::new(r.f32("vertex")?, r.f32("vertex")?);
        vertices.push(BlockVertex {
            position,
            texture_uv,
            lightmap_uv,
        });
    }
    r.check_count(num_tris, TRIANGLE_SIZE, "num_tris")?;
    let mut triangles = Vec::with_capacity(num_tris);
    for t in 0..num_tris {
        triangles.push(read_triangle(r, num_verts, num_skins).within(|| format!("triangle[{t}]"))?);
    }
    r.check_count(num_skins, SKIN_SIZE, "num_skins")?;
    let mut skins = Vec::with_capacity(num_skins);
    for s in 0..num_skins {
        skins.push(read_skin(r).within(|| format!("skin[{s}]"))?);
    }
    Ok(Block {
        mins,
        maxs,
        content,
        vertices,
        triangles,
        skins,
    })
}

/// One triangle, its vertices and skin checked against the block's counts.
fn read_triangle(
    r: &mut ByteReader<'_>,
    num_verts: usize,
    num_skins: usize,
) -> FormatResult<BlockTriangle> {
    let at = r.pos();
    let v = [r.u16("v1")?, r.u16("v2")?, r.u16("v3")?];
    let skin = r.u16("skin")?;
    let face = r.u32("face")?;
    if let Some(&bad) = v.iter().find(|&&i| i as usize >= num_verts) {
        let mut e = r.invalid("v", format!("vertex {bad} of {num_verts}"));
        e.offset = at;
        return Err(e);
    }
    if skin as usize >= num_skins {
        let mut e = r.invalid("skin", format!("skin {skin} of {num_skins}"));
        e.offset = at + 6;
        return Err(e);
    }
    Ok(BlockTriangle {
        vertices: v,
        skin,
        face,
    })
}

fn read_skin(r: &mut ByteReader<'_>) -> FormatResult<BlockSkin> {
    Ok(BlockSkin {
        texture: r.u16("texture")?,
        lightmap: r.u16("lightmap")?,
        material: r.u32("material")?,
        ambient: r.f32("ambient")?,
        albedo: r.f32("albedo")?,
        flags: r.u32("flags")?,
    })
}
