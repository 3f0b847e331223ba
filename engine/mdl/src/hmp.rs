//! 3D GameStudio HMP terrain: HMP4, HMP5 and HMP7 height maps.
//!
//! Layout (little-endian, 84-byte header like MDL):
//!
//! ```text
//! version[4] nu1 scale[3] offset[3] nu6 ftrisize_x ftrisize_y fnumverts_x
//! numskins nu8 nu9 numverts nu10 numframes nu11 flags nu12
//! skins | frames (type, bboxmin[8], bboxmax[8], name[16], numverts 4-byte height vertices)
//! ```
//!
//! The manual's header (with `nu1` after the version) is the one that matches every sample; the
//! field list in `NOTES-mdl-hmp.md` leaves out `nu1` but its sizes agree with the manual.
//!
//! **Skins** start with `type, width, height` and use the MDL7-style type flags: the low three bits
//! are the format (0/2/3/4/5 images as in [`crate::skin`], 1 = reference to another skin whose index
//! is in `width`, 6 = embedded DDS of `width` bytes, 7 = external file name of `width` bytes),
//! `0x08` = three mipmap levels follow, `0x10` = a 68-byte material follows, `0x20` = an int32
//! length and that many bytes of effect text follow. An external name of zero bytes is refused:
//! that is what makes assimp's `invalid_external_texture_name.hmp` malformed.
//!
//! **Geometry.** `columns = fnumverts_x`, `rows = numverts / columns`; vertex `i` is at
//! `col = i % columns, row = i / columns`:
//! `x = offset_x + col * trisize_x`, `y = offset_y + row * trisize_y`, `z = scale_z * raw + offset_z`.
//! (A popular reader ignores `scale_z`/`offset_z` and gets wrong heights; we do not.)
//! Vertices are 4 bytes: HMP7 `u16 height, i8 nx, i8 ny`; HMP4/HMP5 `u16 height, u8 normal index,
//! pad`, the index into the MDL 162-normal table.
//!
//! The HMP7 normal bytes are the x and y of the unit normal scaled by 127, **with x negated**
//! relative to the geometry above: measured on the three real HMP7 terrains with relief, the stored
//! `nx` correlates at -0.92..-0.998 with the x of the normal computed from the heights, `ny` at
//! +0.95..+0.998 with its y. We therefore use `(-nx, ny, sqrt(1 - nx² - ny²))`.
//!
//! **Triangles.** Two per grid cell, counter-clockwise seen from above (+Z):
//! `(r,c) (r,c+1) (r+1,c+1)` and `(r,c) (r+1,c+1) (r+1,c)`.
//!
//! **UVs.** One skin covers the whole terrain: `u = col / (columns - 1)`, `v = row / (rows - 1)`, so
//! grid row 0 meets the skin's top row and column 0 its left column. Checked on two real terrains:
//! in `small.hmp` the skin's dark patches sit on the height map's pits, and in `terrain.hmp` the
//! embedded DXT1 skin's central clearing, path ring and rock patches sit on the central pit, ring
//! valley and ridges of the heights; any flip or transpose breaks both. Same corner convention as
//! MDL (see [`crate::mdl`]).

use crate::normals::{mdl_normal, MDL_NORMAL_COUNT};
use glam::{Vec2, Vec3};
use modex::{ByteReader, ErrorKind, FormatError, FormatResult, Palette};

use crate::model::{Frame, Model, Skin, SkinPixels, Triangle};
pub use crate::skin::Material;
use crate::skin::{self, MIPMAP_FLAG};

/// Format name used in errors.
pub const FORMAT: &str = "HMP";
/// Size of the header.
pub(crate) const HEADER_SIZE: usize = 84;
/// Size of a frame header: type, two 8-byte boxes, `name[16]`.
pub(crate) const FRAME_HEADER_SIZE: usize = 36;
/// Size of a material record after a skin with the 0x10 flag.
pub(crate) const MATERIAL_SIZE: usize = 68;

const FLAG_MATERIAL: u32 = 0x10;
const FLAG_EFFECT: u32 = 0x20;

/// The terrain variant, from the magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HmpVersion {
    /// `HMP4`: vertices with an index into the 162-normal table.
    Hmp4,
    /// `HMP5`: vertices as HMP4.
    Hmp5,
    /// `HMP7`: vertices with the normal's x and y as two signed bytes.
    Hmp7,
}

impl HmpVersion {
    /// The magic as text, e.g. `"HMP7"`.
    pub fn as_str(self) -> &'static str {
        match self {
            HmpVersion::Hmp4 => "HMP4",
            HmpVersion::Hmp5 => "HMP5",
            HmpVersion::Hmp7 => "HMP7",
        }
    }
}

impl std::fmt::Display for HmpVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The header fields that mean something.
#[derive(Debug, Clone, PartialEq)]
pub struct HmpHeader {
    /// The variant, from the magic.
    pub version: HmpVersion,
    /// Height scale per axis (`position = scale * raw + offset`; x and y are not used for the grid).
    pub scale: Vec3,
    /// Position of the grid's first point (x, y) and of height 0 (z).
    pub offset: Vec3,
    /// Distance between grid columns.
    pub trisize_x: f32,
    /// Distance between grid rows.
    pub trisize_y: f32,
    /// Vertices per row, stored as a float.
    pub fnumverts_x: f32,
    /// Skin records that follow the header.
    pub num_skins: usize,
    /// Grid points per frame.
    pub num_verts: usize,
    /// Height frames.
    pub num_frames: usize,
    /// The header's `flags` word as stored.
    pub flags: i32,
}

/// What a skin record held besides its pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct HmpSkinInfo {
    /// Byte offset of the skin's type word.
    pub offset: usize,
    /// The type word as stored (format, mipmap, material and effect flags).
    pub raw_type: u32,
    /// Format part of the type (`raw_type & 7`).
    pub format: u32,
    /// Whether three mipmap levels followed the image.
    pub has_mipmaps: bool,
    /// The material record, when the type's material flag was set.
    pub material: Option<Material>,
    /// The effect (shader) text, when the type's effect flag was set.
    pub effect: Option<String>,
    /// For type 7: the external texture file name.
    pub external_name: Option<String>,
    /// For type 1: the index of the skin this one repeats.
    pub reference: Option<usize>,
    /// For type 6: the DDS byte count.
    pub dds_bytes: Option<usize>,
}

/// A decoded terrain.
#[derive(Debug, Clone, PartialEq)]
pub struct HmpFile {
    /// The header fields that mean something.
    pub header: HmpHeader,
    /// The terrain as a mesh: one frame per height frame, two triangles per cell.
    pub model: Model,
    /// Grid points per row.
    pub columns: usize,
    /// Grid rows.
    pub rows: usize,
    /// One entry per skin of `model.skins` (references are resolved into copies there).
    pub skins: Vec<HmpSkinInfo>,
    /// The first frame's bounding box as stored, decoded with scale and offset: lowest corner.
    pub file_bbox_min: Vec3,
    /// Highest corner of the stored box.
    pub file_bbox_max: Vec3,
    /// Raw 16-bit heights of the first frame, row-major (for height-map export and tests).
    pub heights: Vec<u16>,
    /// Number of HMP4/5 normal indices above 161 that were clamped.
    pub clamped_normals: usize,
}

impl HmpFile {
    /// Parse a terrain; 8-bit skins are decoded with the Quake 1 palette.
    pub fn parse(bytes: &[u8]) -> FormatResult<HmpFile> {
        Self::parse_with_palette(bytes, &Palette::quake())
    }

    /// Parse a terrain, decoding 8-bit skins with `palette`.
    pub fn parse_with_palette(bytes: &[u8], palette: &Palette) -> FormatResult<HmpFile> {
        let mut r = ByteReader::new(bytes, FORMAT);
        let header = read_header(&mut r)?;
        let (columns, rows) = grid(&header)?;
        let (skins, infos) = read_skins(&mut r, &header, palette)?;
        let mut file = HmpFile {
            model: Model {
                frames: Vec::new(),
                uvs: Vec::new(),
                triangles: Vec::new(),
                skins,
            },
            header,
            columns,
            rows,
            skins: infos,
            file_bbox_min: Vec3::ZERO,
            file_bbox_max: Vec3::ZERO,
            heights: Vec::new(),
            clamped_normals: 0,
        };
        // Frames are checked against the file size first; the grid is sized by the same count.
        read_frames(&mut r, &mut file)?;
        file.model.uvs = grid_uvs(columns, rows);
        file.model.triangles = grid_triangles(columns, rows);
        // HMP7 normals point up by construction; HMP4/5 store table indices, which are turned
        // like a model's if they point down (`crate::facing`; no HMP4/5 sample says which).
        crate::facing::orient_normals(&mut file.model);
        if file.clamped_normals > 0 {
            log::warn!(
                "HMP: {} normal indices above {} were clamped",
                file.clamped_normals,
                MDL_NORMAL_COUNT - 1
            );
        }
        Ok(file)
    }
}

/// The magic's first three bytes, shared by HMP4, HMP5 and HMP7.
pub const MAGIC_PREFIX: &[u8; 3] = b"HMP";

/// Whether `data` starts like a 3D GameStudio terrain of any version (format detection; the
/// version is checked by [`HmpFile::parse`], which names an unknown one).
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC_PREFIX)
}

fn read_vec3(r: &mut ByteReader<'_>, field: &str) -> FormatResult<Vec3> {
    Ok(Vec3::new(r.f32(field)?, r.f32(field)?, r.f32(field)?))
}

fn read_header(r: &mut ByteReader<'_>) -> FormatResult<HmpHeader> {
    let magic: [u8; 4] = r.array("header.version")?;
    let version = match &magic {
        b"HMP4" => HmpVersion::Hmp4,
        b"HMP5" => HmpVersion::Hmp5,
        b"HMP7" => HmpVersion::Hmp7,
        [b'H', b'M', b'P', _] => {
            return Err(FormatError::unsupported(
                FORMAT,
                "header.version",
                0,
                format!(
                    "unknown HMP version {:?}; HMP4, HMP5 and HMP7 are read",
                    String::from_utf8_lossy(&magic)
                ),
            ))
        }
        _ => {
            return Err(FormatError::new(
                FORMAT,
                "header.version",
                0,
                ErrorKind::BadMagic {
                    found: magic.to_vec(),
                },
            ))
        }
    };
    if r.remaining() < HEADER_SIZE - 4 {
        return Err(r.error(
            "header",
            ErrorKind::Truncated {
                needed: HEADER_SIZE - 4,
                available: r.remaining(),
            },
        ));
    }
    r.skip(4, "header.nu1")?;
    let scale = read_vec3(r, "header.scale")?;
    let offset = read_vec3(r, "header.offset")?;
    r.skip(4, "header.nu6")?;
    let trisize_x = r.f32("header.ftrisize_x")?;
    let trisize_y = r.f32("header.ftrisize_y")?;
    let fnumverts_x = r.f32("header.fnumverts_x")?;
    let num_skins = r.count_i32("header.numskins")?;
    r.skip(8, "header.nu8")?;
    let num_verts = r.count_i32("header.numverts")?;
    r.skip(4, "header.nu10")?;
    let num_frames = r.count_i32("header.numframes")?;
    r.skip(4, "header.nu11")?;
    let flags = r.i32("header.flags")?;
    r.skip(4, "header.nu12")?;
    for (ok, field, at) in [
        (scale.is_finite(), "header.scale", 8),
        (offset.is_finite(), "header.offset", 20),
        (trisize_x.is_finite(), "header.ftrisize_x", 36),
        (trisize_y.is_finite(), "header.ftrisize_y", 40),
    ] {
        if !ok {
            return Err(FormatError::invalid(FORMAT, field, at, "not finite"));
        }
    }
    Ok(HmpHeader {
        version,
        scale,
        offset,
        trisize_x,
        trisize_y,
        fnumverts_x,
        num_skins,
        num_verts,
        num_frames,
        flags,
    })
}

/// Columns and rows from `fnumverts_x` and `numverts`.
fn grid(h: &HmpHeader) -> FormatResult<(usize, usize)> {
    let fx = h.fnumverts_x;
    if !(fx >= 1.0 && fx.fract() == 0.0 && fx <= h.num_verts.max(1) as f32) {
        return Err(FormatError::invalid(
            FORMAT,
            "header.fnumverts_x",
            44,
            format!(
                "{fx} is not a whole number of vertices per row in 1..={}",
                h.num_verts.max(1)
            ),
        ));
    }
    let columns = fx as usize;
    if h.num_verts % columns != 0 {
        return Err(FormatError::invalid(
            FORMAT,
            "header.numverts",
            60,
            format!("{} vertices do not fill rows of {columns}", h.num_verts),
        ));
    }
    Ok((columns, h.num_verts / columns))
}

fn grid_uvs(columns: usize, rows: usize) -> Vec<Vec2> {
    let du = 1.0 / (columns.max(2) - 1) as f32;
    let dv = 1.0 / (rows.max(2) - 1) as f32;
    let mut uvs = Vec::with_capacity(columns * rows);
    for row in 0..rows {
        for col in 0..columns {
            uvs.push(Vec2::new(col as f32 * du, row as f32 * dv));
        }
    }
    uvs
}

fn grid_triangles(columns: usize, rows: usize) -> Vec<Triangle> {
    let cells = columns.saturating_sub(1) * rows.saturating_sub(1);
    let mut tris = Vec::with_capacity(cells * 2);
    for row in 0..rows.saturating_sub(1) {
        for col in 0..columns.saturating_sub(1) {
            let v00 = (row * columns + col) as u32;
            let v10 = v00 + 1;
            let v01 = v00 + columns as u32;
            let v11 = v01 + 1;
            for vertices in [[v00, v10, v11], [v00, v11, v01]] {
                tris.push(Triangle {
                    vertices,
                    uvs: vertices,
                });
            }
        }
    }
    tris
}

/// Smallest skin record: type, width, height.
const MIN_SKIN_BYTES: usize = 12;

fn read_skins(
    r: &mut ByteReader<'_>,
    h: &HmpHeader,
    palette: &Palette,
) -> FormatResult<(Vec<Skin>, Vec<HmpSkinInfo>)> {
    r.check_count(h.num_skins, MIN_SKIN_BYTES, "header.numskins")?;
    let mut skins: Vec<Option<Skin>> = Vec::with_capacity(h.num_skins);
    let mut infos = Vec::with_capacity(h.num_skins);
    for i in 0..h.num_skins {
        let (skin, info) = read_skin(r, i, palette)?;
        skins.push(skin);
        infos.push(info);
    }
    // Resolve references into copies of the skin they name.
    let mut out = Vec::with_capacity(skins.len());
    for (i, info) in infos.iter().enumerate() {
        let skin = match info.reference {
            None => skins[i].clone(),
            Some(target) => {
                let resolved = skins.get(target).and_then(|s| s.clone());
                if resolved.is_none() {
                    return Err(FormatError::out_of_range(
                        FORMAT,
                        format!("skin[{i}].reference"),
                        info.offset + 4,
                        target as i64,
                        0,
                        skins.len() as i64 - 1,
                    ));
                }
                resolved
            }
        };
        // Every non-reference skin was decoded into Some above.
        out.extend(skin);
    }
    Ok((out, infos))
}

fn read_skin(
    r: &mut ByteReader<'_>,
    i: usize,
    palette: &Palette,
) -> FormatResult<(Option<Skin>, HmpSkinInfo)> {
    let start = r.pos();
    let field = format!("skin[{i}]");
    let raw_type = r.u32(&format!("{field}.type"))?;
    if raw_type & !(7 | MIPMAP_FLAG | FLAG_MATERIAL | FLAG_EFFECT) != 0 {
        return Err(FormatError::unsupported(
            FORMAT,
            format!("{field}.type"),
            start,
            format!("skin type 0x{raw_type:x} has flags this reader does not know"),
        ));
    }
    let format = raw_type & 7;
    let has_mipmaps = raw_type & MIPMAP_FLAG != 0;
    let width_at = r.pos();
    let width = r.i32(&format!("{field}.width"))?;
    let height = r.i32(&format!("{field}.height"))?;
    let mut info = HmpSkinInfo {
        offset: start,
        raw_type,
        format,
        has_mipmaps,
        material: None,
        effect: None,
        external_name: None,
        reference: None,
        dds_bytes: None,
    };
    let len = |v: i32, f: &str| {
        usize::try_from(v).map_err(|_| {
            FormatError::out_of_range(
                FORMAT,
                format!("{field}.{f}"),
                if f == "height" {
                    width_at + 4
                } else {
                    width_at
                },
                v as i64,
                0,
                i32::MAX as i64,
            )
        })
    };
    let skin = match format {
        1 => {
            info.reference = Some(len(width, "width")?);
            None
        }
        6 => {
            let n = len(width, "width")?;
            r.check_count(n, 1, &format!("{field}.dds"))?;
            let bytes = r.bytes(n, &format!("{field}.dds"))?;
            info.dds_bytes = Some(n);
            log::warn!("HMP: skin {i} is an embedded DDS file ({n} bytes), kept undecoded");
            Some(skin::dds_skin(format, has_mipmaps, bytes))
        }
        7 => {
            let n = len(width, "width")?;
            if n == 0 {
                return Err(FormatError::invalid(
                    FORMAT,
                    format!("{field}.width"),
                    width_at,
                    "external texture name of 0 bytes",
                ));
            }
            r.check_count(n, 1, &format!("{field}.name"))?;
            let name = r.fixed_str(n, &format!("{field}.name"))?;
            if name.is_empty() {
                return Err(FormatError::invalid(
                    FORMAT,
                    format!("{field}.name"),
                    width_at + 8,
                    "empty external texture name",
                ));
            }
            info.external_name = Some(name.clone());
            Some(Skin {
                kind: format,
                has_mipmaps,
                width: 0,
                height: 0,
                pixels: SkinPixels::External(name),
                rgba: Default::default(),
            })
        }
        _ => {
            let (w, hh) = (len(width, "width")?, len(height, "height")?);
            Some(skin::read_image(
                r,
                format,
                has_mipmaps,
                w,
                hh,
                palette,
                &field,
            )?)
        }
    };
    if raw_type & FLAG_MATERIAL != 0 {
        let b = r.bytes(MATERIAL_SIZE, &format!("{field}.material"))?;
        let f = |k: usize| f32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
        let rgba = |k: usize| [f(k), f(k + 1), f(k + 2), f(k + 3)];
        info.material = Some(Material {
            diffuse: rgba(0),
            ambient: rgba(4),
            specular: rgba(8),
            emissive: rgba(12),
            power: f(16),
        });
    }
    if raw_type & FLAG_EFFECT != 0 {
        let n = r.count_i32(&format!("{field}.effect_length"))?;
        r.check_count(n, 1, &format!("{field}.effect"))?;
        info.effect = Some(r.fixed_str(n, &format!("{field}.effect"))?);
    }
    Ok((skin, info))
}

fn read_frames(r: &mut ByteReader<'_>, file: &mut HmpFile) -> FormatResult<()> {
    let h = file.header.clone();
    if h.num_frames == 0 {
        return Err(r.invalid("header.numframes", "a terrain needs its height frame"));
    }
    let nv = h.num_verts;
    let frame_size = nv
        .checked_mul(4)
        .and_then(|n| n.checked_add(FRAME_HEADER_SIZE))
        .unwrap_or(usize::MAX);
    r.check_count(h.num_frames, frame_size, "header.numframes")?;
    let (columns, scale, offset) = (file.columns, h.scale, h.offset);
    for i in 0..h.num_frames {
        let field = format!("frame[{i}]");
        r.i32(&format!("{field}.type"))?;
        let bbox = r.bytes(16, &format!("{field}.bbox"))?;
        let unpack = |c: &[u8]| {
            let w = |k: usize| u16::from_le_bytes([c[2 * k], c[2 * k + 1]]) as f32;
            scale * Vec3::new(w(0), w(1), w(2)) + offset
        };
        if i == 0 {
            file.file_bbox_min = unpack(&bbox[..8]);
            file.file_bbox_max = unpack(&bbox[8..]);
        }
        let name = r.fixed_str(16, &format!("{field}.name"))?;
        let data = r.bytes(nv * 4, &format!("{field}.heights"))?;
        let mut positions = Vec::with_capacity(nv);
        let mut normals = Vec::with_capacity(nv);
        let mut indices = (h.version != HmpVersion::Hmp7).then(|| Vec::with_capacity(nv));
        if i == 0 {
            file.heights.reserve(nv);
        }
        for (k, c) in data.chunks_exact(4).enumerate() {
            let raw = u16::from_le_bytes([c[0], c[1]]);
            let (col, row) = (k % columns, k / columns);
            positions.push(Vec3::new(
                offset.x + col as f32 * h.trisize_x,
                offset.y + row as f32 * h.trisize_y,
                scale.z * raw as f32 + offset.z,
            ));
            if i == 0 {
                file.heights.push(raw);
            }
            match indices.as_mut() {
                None => {
                    // HMP7: x negated, as measured (see the module doc).
                    let nx = -(c[2] as i8 as f32) / 127.0;
                    let ny = (c[3] as i8 as f32) / 127.0;
                    let nz = (1.0 - nx * nx - ny * ny).max(0.0).sqrt();
                    normals.push(Vec3::new(nx, ny, nz).normalize_or(Vec3::Z));
                }
                Some(idx) => {
                    let mut n = c[2];
                    if n as usize >= MDL_NORMAL_COUNT {
                        file.clamped_normals += 1;
                        n = (MDL_NORMAL_COUNT - 1) as u8;
                    }
                    idx.push(n);
                    normals.push(Vec3::from_array(mdl_normal(n as usize)));
                }
            }
        }
        let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
        file.model.frames.push(Frame {
            name,
            positions,
            normals,
            normal_indices: indices,
            bbox_min,
            bbox_max,
        });
    }
    Ok(())
}
