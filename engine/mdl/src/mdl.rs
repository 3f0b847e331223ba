//! 3D GameStudio MDL models: MDL2, MDL3 (A4), MDL4 and MDL5 (A5), and Quake 1 `IDPO` models, whose
//! layout MDL2 shares.
//!
//! Layout (all little-endian; see the A5 SDK manual and `NOTES-mdl-hmp.md`):
//!
//! ```text
//! header (84 bytes) | skins | skin vertices | triangles | frames
//! ```
//!
//! * **Header.** The manual's `pad` field is the bounding radius; `eye` may hold garbage and is never
//!   checked. MDL5 headers have `skinwidth = skinheight = 0` because every MDL5 skin carries its own
//!   size. For MDL2 and IDPO the last three header words are Quake's `synctype, flags, size`.
//! * **Skins.** MDL2/3/4: `long type` + pixels of the header's size. MDL5: `long type, width, height` +
//!   pixels. Types are decoded by [`crate::skin`]; type 6 (DDS, MDL5 only) keeps the bytes. IDPO skins
//!   are Quake's: `long group` then one 8-bit image, or a group of them (each becomes one skin) —
//!   except that GameStudio's MED writes IDPO files whose first word is a GameStudio skin type
//!   (2..5, +8 mipmaps): those are read as that type at the header's skin size.
//! * **Skin vertices.** MDL3/4/5: two signed shorts in pixels, which can be negative or past the edge
//!   (textures wrap). MDL2/IDPO: Quake's 12 bytes `onseam, s, t`, one per model vertex.
//! * **Triangles.** MDL3/4/5: three vertex and three skin-vertex shorts. MDL2/IDPO: `facesfront` and
//!   three vertex longs; the skin vertex is the vertex itself, moved right by half the skin width when
//!   the vertex is on the seam and the triangle faces back (Quake's rule). Such moved UVs are
//!   appended after the per-vertex UVs so that [`Triangle::uvs`] stays a plain index.
//! * **Frames.** `long type` (0 byte-packed, 2 word-packed), bounding box min and max packed like the
//!   vertices, `char name[16]`, then the vertices. MDL3 is always byte-packed whatever the type says.
//!   MDL2/IDPO frames are Quake's: type 0 is one frame, any other value a group (`long count, bbox,
//!   float intervals[count]`, then `count` frames), flattened here into consecutive frames.
//!   `position = scale * raw + offset`; the normal byte indexes the 162-entry table
//!   ([`crate::normals::mdl_normal`]), values above 161 are clamped with a warning.
//!
//! Triangles keep the file's order. Seen from the camera, a file's front faces are **clockwise**
//! and its vertex normals point into the mesh: every closed sample has a negative signed volume in
//! file order, so `(v1-v0)x(v2-v0)` points inwards, and the stored normals agree with that face
//! normal on 94..100 % of the triangles of every sample with real normals (an earlier reading of
//! that agreement as "counter-clockwise fronts" drew every model inside out). The decoder turns
//! both into the [`Model`] convention in one place, [`crate::facing`]: corners 1 and 2 swap, and
//! normals that point to the triangles' backs are turned round (table indices to their opposites).
//!
//! # The UV rule
//!
//! `uv = (s / skin_width, t / skin_height)` with `s, t` the stored pixel coordinates, **without** a
//! half-pixel offset. A skin vertex names the top-left *corner* of texel `(s, t)`: texel `i` covers
//! `[i, i + 1)`. That is how the A5 software renderer (like the Quake renderer it descends from) steps
//! texture coordinates: it carries `s, t` in 16.16 fixed point and fetches texel `floor(s), floor(t)`,
//! so a vertex at `(s, t)` samples exactly texel `(s, t)`. A rasterizer that multiplies the normalised
//! UV back by the skin size and truncates reproduces that; a bilinear sampler would add half a texel.
//! Values outside 0..1 are kept (they wrap, as the engine tiles skins).
//!
//! The size divided by is the header's skin size for MDL2/3/4/IDPO and the size of skin 0 for MDL5
//! (whose header says 0); see [`MdlFile::uv_size`]. A model without skin vertices gets one UV at
//! (0, 0) which every triangle uses.

use std::fmt;

use crate::normals::{mdl_normal, MDL_NORMAL_COUNT};
use glam::{IVec2, Vec2, Vec3};
use modex::{ByteReader, ErrorKind, FormatError, FormatResult, Palette};

use crate::facing;
use crate::model::{Frame, Model, Skin, Triangle};
use crate::skin::{self, MIPMAP_FLAG};

/// Format name used in errors.
pub const FORMAT: &str = "MDL";
/// Size of the MDL header in bytes (all versions read here).
pub(crate) const HEADER_SIZE: usize = 84;
/// Length of a frame name field.
pub(crate) const FRAME_NAME_LEN: usize = 16;

/// The variant of an MDL file, from its magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MdlVersion {
    /// Quake 1 `IDPO` version 6 (8-bit skins, Quake layout).
    Quake,
    /// GameStudio MDL2: Quake layout with GameStudio skin types.
    Mdl2,
    /// GameStudio A4 MDL3.
    Mdl3,
    /// GameStudio A5 MDL4.
    Mdl4,
    /// GameStudio A5 MDL5 (per-skin sizes, mipmaps).
    Mdl5,
}

/// Whether `data` starts like a model of the 3D GameStudio family: `IDPO` (Quake 1, as GameStudio
/// wrote it) or `MDL` and a version digit. Format detection only: [`MdlFile::parse`] names
/// versions it does not read.
pub fn sniff(data: &[u8]) -> bool {
    data.len() >= 4 && (data.starts_with(b"IDPO") || data.starts_with(b"MDL"))
}

impl MdlVersion {
    /// The magic as text: "IDPO", "MDL2" .. "MDL5".
    pub fn as_str(self) -> &'static str {
        match self {
            MdlVersion::Quake => "IDPO",
            MdlVersion::Mdl2 => "MDL2",
            MdlVersion::Mdl3 => "MDL3",
            MdlVersion::Mdl4 => "MDL4",
            MdlVersion::Mdl5 => "MDL5",
        }
    }

    /// Whether skin vertices, triangles and frames use the Quake 1 layout.
    pub fn quake_layout(self) -> bool {
        matches!(self, MdlVersion::Quake | MdlVersion::Mdl2)
    }

    fn from_magic(magic: [u8; 4]) -> FormatResult<MdlVersion> {
        match &magic {
            b"IDPO" => Ok(MdlVersion::Quake),
            b"MDL2" => Ok(MdlVersion::Mdl2),
            b"MDL3" => Ok(MdlVersion::Mdl3),
            b"MDL4" => Ok(MdlVersion::Mdl4),
            b"MDL5" => Ok(MdlVersion::Mdl5),
            b"MDL7" => Err(FormatError::unsupported(
                FORMAT,
                "header.version",
                0,
                "MDL7 (A6/A7 engine) is a different, chunked format read by \
                 modex_mdl::mdl7::Mdl7File; MdlFile reads MDL2..MDL5",
            )),
            [b'M', b'D', b'L', _] => Err(FormatError::unsupported(
                FORMAT,
                "header.version",
                0,
                format!(
                    "unknown MDL version {:?}; only MDL2..MDL5 are read",
                    String::from_utf8_lossy(&magic)
                ),
            )),
            _ => Err(FormatError::new(
                FORMAT,
                "header.version",
                0,
                ErrorKind::BadMagic {
                    found: magic.to_vec(),
                },
            )),
        }
    }
}

impl fmt::Display for MdlVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The 84-byte header, fields as stored (counts checked to be non-negative).
#[derive(Debug, Clone, PartialEq)]
pub struct MdlHeader {
    /// The variant, from the magic.
    pub version: MdlVersion,
    /// The long after the magic: "not used" in GameStudio files, the version (6) in IDPO files.
    pub final_or_version: i32,
    /// Vertex scale per axis (`position = scale * raw + offset`).
    pub scale: Vec3,
    /// Vertex offset per axis.
    pub offset: Vec3,
    /// The manual's `pad`: the bounding radius.
    pub bounding_radius: f32,
    /// Eye position; may hold garbage in real files.
    pub eye: Vec3,
    /// Skin records that follow the header.
    pub num_skins: usize,
    /// Header skin width (0 in MDL5 files: each skin has its own size).
    pub skin_width: usize,
    /// Header skin height (0 in MDL5 files).
    pub skin_height: usize,
    /// Vertices per frame.
    pub num_verts: usize,
    /// Triangles.
    pub num_tris: usize,
    /// Frames as counted by the header (for MDL2/IDPO, a group counts once).
    pub num_frames: usize,
    /// Skin vertices as counted by the header (MDL2/IDPO: this word is Quake's `synctype`, and the
    /// file holds `num_verts` skin vertices).
    pub num_skin_verts: usize,
    /// `flags` (0 = normal, 1 = terrain model in GameStudio files).
    pub flags: i32,
    /// `numbones` (GameStudio) or Quake's `size` word (MDL2/IDPO).
    pub num_bones: i32,
}

/// How a frame's vertices are packed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VertexPacking {
    /// 4 bytes: x, y, z as bytes, normal index.
    Byte,
    /// 8 bytes: x, y, z as unsigned shorts, normal index, unused (bone) byte.
    Word,
}

impl VertexPacking {
    /// Bytes per stored vertex.
    pub fn size(self) -> usize {
        match self {
            VertexPacking::Byte => 4,
            VertexPacking::Word => 8,
        }
    }
}

/// Where a frame was found and what its header said.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameInfo {
    /// Byte offset of the frame (of its bounding box for frames inside a Quake group).
    pub offset: usize,
    /// How its vertices are packed.
    pub packing: VertexPacking,
    /// The bounding box stored in the file, decoded like the vertices: lowest corner.
    pub file_bbox_min: Vec3,
    /// Highest corner of the stored box.
    pub file_bbox_max: Vec3,
    /// For MDL2/IDPO frame groups: the group's index in the header's frame list.
    pub group: Option<usize>,
    /// The stored name up to its NUL, undecoded: names may be in a local code page (a real MDL4
    /// file's are GBK), which only the user can name; [`Frame::name`] is the lossy UTF-8 reading.
    pub name_bytes: Vec<u8>,
}

/// Where a skin was found and its raw type word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkinInfo {
    /// Byte offset of the skin's type word.
    pub offset: usize,
    /// The type word as stored (with the mipmap flag).
    pub raw_type: u32,
    /// Bytes the skin occupies in the file, type word included.
    pub byte_len: usize,
}

/// A decoded MDL file: header, renderer-ready [`Model`], and what `info` needs to report.
#[derive(Debug, Clone, PartialEq)]
pub struct MdlFile {
    /// The header, fields as stored.
    pub header: MdlHeader,
    /// The renderer-ready model.
    pub model: Model,
    /// One entry per frame of `model.frames`.
    pub frames: Vec<FrameInfo>,
    /// One entry per skin of `model.skins`.
    pub skins: Vec<SkinInfo>,
    /// Skin vertices in pixels as stored (MDL2/IDPO: `s, t` per vertex, before the seam rule).
    pub skin_vertices: Vec<IVec2>,
    /// The width and height the UVs were normalised by (see the module doc).
    pub uv_size: (usize, usize),
    /// How many vertex normal indices were above 161 and clamped.
    pub clamped_normals: usize,
}

impl MdlFile {
    /// Parse an MDL file; 8-bit skins are decoded with the Quake 1 palette.
    pub fn parse(bytes: &[u8]) -> FormatResult<MdlFile> {
        Self::parse_with_palette(bytes, &Palette::quake())
    }

    /// Parse an MDL file, decoding 8-bit skins with `palette`.
    pub fn parse_with_palette(bytes: &[u8], palette: &Palette) -> FormatResult<MdlFile> {
        let mut r = ByteReader::new(bytes, FORMAT);
        let header = read_header(&mut r)?;
        let (skins, skin_info) = read_skins(&mut r, &header, palette)?;
        let uv_size = uv_size(&header, &skins);
        let mut file = MdlFile {
            model: Model {
                frames: Vec::new(),
                uvs: Vec::new(),
                triangles: Vec::new(),
                skins,
            },
            header,
            frames: Vec::new(),
            skins: skin_info,
            skin_vertices: Vec::new(),
            uv_size,
            clamped_normals: 0,
        };
        if file.header.version.quake_layout() {
            read_quake_mesh(&mut r, &mut file)?;
        } else {
            read_gs_mesh(&mut r, &mut file)?;
        }
        read_frames(&mut r, &mut file)?;
        facing::orient_normals(&mut file.model);
        if file.clamped_normals > 0 {
            log::warn!(
                "MDL: {} vertex normal indices above {} were clamped",
                file.clamped_normals,
                MDL_NORMAL_COUNT - 1
            );
        }
        Ok(file)
    }

    /// The version magic, e.g. "MDL5".
    pub fn version(&self) -> MdlVersion {
        self.header.version
    }
}

fn read_vec3(r: &mut ByteReader<'_>, field: &str) -> FormatResult<Vec3> {
    Ok(Vec3::new(r.f32(field)?, r.f32(field)?, r.f32(field)?))
}

fn read_header(r: &mut ByteReader<'_>) -> FormatResult<MdlHeader> {
    if r.len() < 4 {
        return Err(r.error(
            "header.version",
            ErrorKind::Truncated {
                needed: 4,
                available: r.len(),
            },
        ));
    }
    let version = MdlVersion::from_magic(r.array("header.version")?)?;
    if r.remaining() < HEADER_SIZE - 4 {
        return Err(r.error(
            "header",
            ErrorKind::Truncated {
                needed: HEADER_SIZE - 4,
                available: r.remaining(),
            },
        ));
    }
    let at = r.pos();
    let final_or_version = r.i32("header.final")?;
    if version == MdlVersion::Quake && final_or_version != 6 {
        return Err(FormatError::unsupported(
            FORMAT,
            "header.version",
            at,
            format!("IDPO version {final_or_version}; only version 6 (Quake 1) is read"),
        ));
    }
    let scale = read_vec3(r, "header.scale")?;
    let offset = read_vec3(r, "header.offset")?;
    let bounding_radius = r.f32("header.pad")?;
    let eye = read_vec3(r, "header.eye")?;
    let num_skins = r.count_i32("header.numskins")?;
    let skin_width = r.count_i32("header.skinwidth")?;
    let skin_height = r.count_i32("header.skinheight")?;
    let num_verts = r.count_i32("header.numverts")?;
    let num_tris = r.count_i32("header.numtris")?;
    let num_frames = r.count_i32("header.numframes")?;
    let num_skin_verts = if version.quake_layout() {
        // Quake's `synctype`: any value is fine.
        r.i32("header.synctype")?;
        num_verts
    } else {
        r.count_i32("header.numskinverts")?
    };
    let flags = r.i32("header.flags")?;
    let num_bones = r.i32("header.numbones")?;
    // Non-finite scale or offset would turn every vertex into NaN; say so instead.
    for (v, field, at) in [(scale, "header.scale", 8), (offset, "header.offset", 20)] {
        if !v.is_finite() {
            return Err(FormatError::invalid(
                FORMAT,
                field,
                at,
                format!("not a finite vector: {v}"),
            ));
        }
    }
    Ok(MdlHeader {
        version,
        final_or_version,
        scale,
        offset,
        bounding_radius,
        eye,
        num_skins,
        skin_width,
        skin_height,
        num_verts,
        num_tris,
        num_frames,
        num_skin_verts,
        flags,
        num_bones,
    })
}

/// Smallest possible skin in bytes (type word + one pixel), used to bound the skin count.
const MIN_SKIN_BYTES: usize = 5;

fn read_skins(
    r: &mut ByteReader<'_>,
    h: &MdlHeader,
    palette: &Palette,
) -> FormatResult<(Vec<Skin>, Vec<SkinInfo>)> {
    r.check_count(h.num_skins, MIN_SKIN_BYTES, "header.numskins")?;
    let mut skins = Vec::with_capacity(h.num_skins);
    let mut infos = Vec::with_capacity(h.num_skins);
    for i in 0..h.num_skins {
        let start = r.pos();
        let field = format!("skin[{i}]");
        let raw_type = r.u32(&format!("{field}.type"))?;
        if h.version == MdlVersion::Quake && !is_gamestudio_skin_type(raw_type) {
            read_quake_skin(r, h, raw_type, palette, &field, &mut skins)?;
            let byte_len = r.pos() - start;
            // A group yields several skins: give each the group's record.
            while infos.len() < skins.len() {
                infos.push(SkinInfo {
                    offset: start,
                    raw_type,
                    byte_len,
                });
            }
            continue;
        }
        if raw_type & !(MIPMAP_FLAG | 7) != 0 {
            return Err(FormatError::unsupported(
                FORMAT,
                format!("{field}.type"),
                start,
                format!("skin type {raw_type}"),
            ));
        }
        let kind = raw_type & 7;
        let mipmaps = raw_type & MIPMAP_FLAG != 0;
        let (width, height) = if h.version == MdlVersion::Mdl5 {
            (
                r.count_i32(&format!("{field}.width"))?,
                r.count_i32(&format!("{field}.height"))?,
            )
        } else {
            (h.skin_width, h.skin_height)
        };
        let skin = if kind == 6 {
            if h.version != MdlVersion::Mdl5 {
                return Err(FormatError::unsupported(
                    FORMAT,
                    format!("{field}.type"),
                    start,
                    format!(
                        "DDS skins need MDL5's per-skin size word, not {}",
                        h.version
                    ),
                ));
            }
            // DDS: `width` holds the byte count.
            r.check_count(width, 1, &format!("{field}.dds"))?;
            let bytes = r.bytes(width, &format!("{field}.dds"))?;
            log::warn!("MDL: skin {i} is an embedded DDS file ({width} bytes), kept undecoded");
            skin::dds_skin(kind, mipmaps, bytes)
        } else {
            skin::read_image(r, kind, mipmaps, width, height, palette, &field)?
        };
        skins.push(skin);
        infos.push(SkinInfo {
            offset: start,
            raw_type,
            byte_len: r.pos() - start,
        });
    }
    Ok((skins, infos))
}

/// Whether an IDPO skin's first word is a GameStudio skin type rather than Quake's group flag:
/// GameStudio's MED writes IDPO v6 files with the skin's type (2 = 565, 3 = 4444, 4 = 888,
/// 5 = 8888, +8 with mipmaps) where Quake has 0 (one image) or 1 (a group). Read as Quake, such a
/// file fails a few fields later (`skin[0].count ... too large`); read as the type it names, it
/// opens as MED showed it. 0 and 1 keep Quake's meaning.
fn is_gamestudio_skin_type(word: u32) -> bool {
    matches!(word, 2..=5 | 10..=13)
}

/// A Quake skin: `group == 0` one 8-bit image, else `count, float times[count]`, `count` images.
fn read_quake_skin(
    r: &mut ByteReader<'_>,
    h: &MdlHeader,
    group: u32,
    palette: &Palette,
    field: &str,
    skins: &mut Vec<Skin>,
) -> FormatResult<()> {
    let count = if group == 0 {
        1
    } else {
        let n = r.count_i32(&format!("{field}.count"))?;
        r.check_count(n, 4, &format!("{field}.count"))?;
        r.skip(n * 4, &format!("{field}.intervals"))?;
        n
    };
    let size = h.skin_width.saturating_mul(h.skin_height).max(1);
    r.check_count(count, size, &format!("{field}.count"))?;
    for k in 0..count {
        let f = if group == 0 {
            field.to_string()
        } else {
            format!("{field}.image[{k}]")
        };
        skins.push(skin::read_image(
            r,
            0,
            false,
            h.skin_width,
            h.skin_height,
            palette,
            &f,
        )?);
    }
    Ok(())
}

fn uv_size(h: &MdlHeader, skins: &[Skin]) -> (usize, usize) {
    if h.skin_width > 0 && h.skin_height > 0 {
        return (h.skin_width, h.skin_height);
    }
    skins
        .iter()
        .find(|s| s.width > 0 && s.height > 0)
        .map_or((1, 1), |s| (s.width, s.height))
}

fn normalise(s: i32, t: i32, (w, h): (usize, usize)) -> Vec2 {
    Vec2::new(s as f32 / w as f32, t as f32 / h as f32)
}

fn index_error(field: String, at: usize, value: i64, count: usize) -> FormatError {
    FormatError::out_of_range(FORMAT, field, at, value, 0, count as i64 - 1)
}

/// MDL3/4/5 skin vertices and triangles.
fn read_gs_mesh(r: &mut ByteReader<'_>, file: &mut MdlFile) -> FormatResult<()> {
    let h = &file.header;
    let (nsv, nt, nv) = (h.num_skin_verts, h.num_tris, h.num_verts);
    r.check_count(nsv, 4, "header.numskinverts")?;
    let data = r.bytes(nsv * 4, "skinverts")?;
    file.skin_vertices = data
        .chunks_exact(4)
        .map(|c| {
            IVec2::new(
                i16::from_le_bytes([c[0], c[1]]) as i32,
                i16::from_le_bytes([c[2], c[3]]) as i32,
            )
        })
        .collect();
    file.model.uvs = if nsv == 0 {
        vec![Vec2::ZERO]
    } else {
        file.skin_vertices
            .iter()
            .map(|v| normalise(v.x, v.y, file.uv_size))
            .collect()
    };
    r.check_count(nt, 12, "header.numtris")?;
    let base = r.pos();
    let data = r.bytes(nt * 12, "triangles")?;
    let mut tris = Vec::with_capacity(nt);
    for (i, c) in data.chunks_exact(12).enumerate() {
        let at = base + i * 12;
        let word = |k: usize| i16::from_le_bytes([c[2 * k], c[2 * k + 1]]) as i64;
        let mut t = Triangle {
            vertices: [0; 3],
            uvs: [0; 3],
        };
        for k in 0..3 {
            let v = word(k);
            if v < 0 || v as usize >= nv {
                return Err(index_error(
                    format!("triangle[{i}].index_xyz[{k}]"),
                    at + 2 * k,
                    v,
                    nv,
                ));
            }
            t.vertices[k] = v as u32;
            let uv = word(3 + k);
            if nsv > 0 {
                if uv < 0 || uv as usize >= nsv {
                    return Err(index_error(
                        format!("triangle[{i}].index_uv[{k}]"),
                        at + 6 + 2 * k,
                        uv,
                        nsv,
                    ));
                }
                t.uvs[k] = uv as u32;
            }
        }
        tris.push(Triangle::from_file(t.vertices, t.uvs));
    }
    file.model.triangles = tris;
    Ok(())
}

/// MDL2/IDPO skin vertices (`onseam, s, t`) and triangles (`facesfront, v[3]`), with Quake's seam rule.
fn read_quake_mesh(r: &mut ByteReader<'_>, file: &mut MdlFile) -> FormatResult<()> {
    let h = &file.header;
    let (nv, nt) = (h.num_verts, h.num_tris);
    r.check_count(nv, 12, "header.numverts")?;
    let data = r.bytes(nv * 12, "skinverts")?;
    let mut onseam = Vec::with_capacity(nv);
    let mut st = Vec::with_capacity(nv);
    for c in data.chunks_exact(12) {
        let w = |k: usize| i32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]]);
        onseam.push(w(0) != 0);
        st.push(IVec2::new(w(1), w(2)));
    }
    let size = file.uv_size;
    let mut uvs: Vec<Vec2> = st.iter().map(|v| normalise(v.x, v.y, size)).collect();
    // Index of each seam vertex's moved UV, created on first use.
    let mut seam_uv: Vec<Option<u32>> = vec![None; nv];
    let half = (size.0 / 2) as i32;

    r.check_count(nt, 16, "header.numtris")?;
    let base = r.pos();
    let data = r.bytes(nt * 16, "triangles")?;
    let mut tris = Vec::with_capacity(nt);
    for (i, c) in data.chunks_exact(16).enumerate() {
        let at = base + i * 16;
        let w = |k: usize| {
            i32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]]) as i64
        };
        let faces_front = w(0) != 0;
        let mut t = Triangle {
            vertices: [0; 3],
            uvs: [0; 3],
        };
        for k in 0..3 {
            let v = w(1 + k);
            if v < 0 || v as usize >= nv {
                return Err(index_error(
                    format!("triangle[{i}].vertex[{k}]"),
                    at + 4 + 4 * k,
                    v,
                    nv,
                ));
            }
            let v = v as usize;
            t.vertices[k] = v as u32;
            t.uvs[k] = if onseam[v] && !faces_front {
                *seam_uv[v].get_or_insert_with(|| {
                    // `s` is any i32 in a broken file: saturate rather than overflow.
                    uvs.push(normalise(st[v].x.saturating_add(half), st[v].y, size));
                    (uvs.len() - 1) as u32
                })
            } else {
                v as u32
            };
        }
        tris.push(Triangle::from_file(t.vertices, t.uvs));
    }
    if uvs.is_empty() {
        uvs.push(Vec2::ZERO);
    }
    file.skin_vertices = st;
    file.model.uvs = uvs;
    file.model.triangles = tris;
    Ok(())
}

fn read_frames(r: &mut ByteReader<'_>, file: &mut MdlFile) -> FormatResult<()> {
    let h = file.header.clone();
    let nv = h.num_verts;
    if h.num_frames == 0 {
        // Triangles would index vertices that no frame places: there is nothing to draw.
        return Err(FormatError::invalid(
            FORMAT,
            "header.numframes",
            68,
            "a model needs at least one frame",
        ));
    }
    // Every frame holds every vertex: name the vertex count when it is the one too large.
    r.check_count(nv, 4, "header.numverts")?;
    // Each frame needs at least its type word, two packed boxes, a name and its vertices.
    let min_frame = 4 + 2 * 4 + FRAME_NAME_LEN + nv.saturating_mul(4);
    r.check_count(h.num_frames, min_frame, "header.numframes")?;
    file.model.frames.reserve(h.num_frames);
    file.frames.reserve(h.num_frames);
    for i in 0..h.num_frames {
        let start = r.pos();
        let type_field = format!("frame[{i}].type");
        let kind = r.i32(&type_field)?;
        if h.version.quake_layout() {
            if kind == 0 {
                read_frame(r, file, VertexPacking::Byte, i, None, start)?;
            } else {
                read_frame_group(r, file, i)?;
            }
            continue;
        }
        let packing = match (h.version, kind) {
            // The manual: "In the MDL3 format the type is always 0" — whatever is stored.
            (MdlVersion::Mdl3, _) | (_, 0) => VertexPacking::Byte,
            (_, 2) => VertexPacking::Word,
            (_, other) => {
                return Err(FormatError::out_of_range(
                    FORMAT,
                    type_field,
                    start,
                    other as i64,
                    0,
                    2,
                ))
            }
        };
        read_frame(r, file, packing, i, None, start)?;
    }
    Ok(())
}

/// A Quake frame group: `count, bboxmin, bboxmax, float intervals[count]`, then `count` frames.
fn read_frame_group(r: &mut ByteReader<'_>, file: &mut MdlFile, group: usize) -> FormatResult<()> {
    let field = format!("frame[{group}]");
    let at = r.pos();
    let count = r.count_i32(&format!("{field}.count"))?;
    if count == 0 {
        // An empty group would leave a model with no frame to place its vertices.
        return Err(FormatError::invalid(
            FORMAT,
            format!("{field}.count"),
            at,
            "empty frame group",
        ));
    }
    r.skip(8, &format!("{field}.bbox"))?;
    r.check_count(count, 4, &format!("{field}.intervals"))?;
    r.skip(count * 4, &format!("{field}.intervals"))?;
    let min_frame = 2 * 4 + FRAME_NAME_LEN + file.header.num_verts.saturating_mul(4);
    r.check_count(count, min_frame, &format!("{field}.count"))?;
    file.model.frames.reserve(count);
    for k in 0..count {
        let start = r.pos();
        read_frame(r, file, VertexPacking::Byte, k, Some(group), start)?;
    }
    Ok(())
}

/// One frame body after its type word: boxes, name, vertices.
fn read_frame(
    r: &mut ByteReader<'_>,
    file: &mut MdlFile,
    packing: VertexPacking,
    index: usize,
    group: Option<usize>,
    start: usize,
) -> FormatResult<()> {
    let field = match group {
        Some(g) => format!("frame[{g}].frame[{index}]"),
        None => format!("frame[{index}]"),
    };
    let (scale, offset, nv) = (file.header.scale, file.header.offset, file.header.num_verts);
    let vs = packing.size();
    let bbox = r.bytes(2 * vs, &format!("{field}.bbox"))?;
    let (file_bbox_min, _) = decode_vertex(&bbox[..vs], packing, scale, offset);
    let (file_bbox_max, _) = decode_vertex(&bbox[vs..], packing, scale, offset);
    let raw_name = r.bytes(FRAME_NAME_LEN, &format!("{field}.name"))?;
    let name_bytes = raw_name[..raw_name
        .iter()
        .position(|&c| c == 0)
        .unwrap_or(raw_name.len())]
        .to_vec();
    let name = String::from_utf8_lossy(&name_bytes).into_owned();
    r.check_count(nv, vs, &format!("{field}.vertices"))?;
    let data = r.bytes(nv * vs, &format!("{field}.vertices"))?;
    let mut positions = Vec::with_capacity(nv);
    let mut normals = Vec::with_capacity(nv);
    let mut indices = Vec::with_capacity(nv);
    for c in data.chunks_exact(vs) {
        let (p, n) = decode_vertex(c, packing, scale, offset);
        let n = if n as usize >= MDL_NORMAL_COUNT {
            file.clamped_normals += 1;
            (MDL_NORMAL_COUNT - 1) as u8
        } else {
            n
        };
        positions.push(p);
        normals.push(Vec3::from_array(mdl_normal(n as usize)));
        indices.push(n);
    }
    let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
    file.model.frames.push(Frame {
        name,
        positions,
        normals,
        normal_indices: Some(indices),
        bbox_min,
        bbox_max,
    });
    file.frames.push(FrameInfo {
        offset: start,
        packing,
        file_bbox_min,
        file_bbox_max,
        group,
        name_bytes,
    });
    Ok(())
}

/// Position (scale * raw + offset) and raw normal index of one packed vertex.
#[inline]
fn decode_vertex(c: &[u8], packing: VertexPacking, scale: Vec3, offset: Vec3) -> (Vec3, u8) {
    let (raw, n) = match packing {
        VertexPacking::Byte => (Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32), c[3]),
        VertexPacking::Word => (
            Vec3::new(
                u16::from_le_bytes([c[0], c[1]]) as f32,
                u16::from_le_bytes([c[2], c[3]]) as f32,
                u16::from_le_bytes([c[4], c[5]]) as f32,
            ),
            c[6],
        ),
    };
    (scale * raw + offset, n)
}
