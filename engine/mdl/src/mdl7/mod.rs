//! 3D GameStudio MDL7 models (A6..A8): several groups, each with its own skins, UVs, triangles,
//! vertices and frames; a skeleton; per-frame bone matrices; deformer weights.
//!
//! Layout as measured on 781 real files (all little-endian; issue 14 has the full table):
//!
//! ```text
//! header (48) | bones | groups (header 44, skins, uvs, triangles, main vertices, frames) ... | deformers
//! ```
//!
//! * **Record sizes.** The header declares the size of each record kind (bone 36 or 16, triangle
//!   26 / 16 / 12, vertex 26 / 16, ...). Every record is stepped by its declared size, so a writer
//!   that appends fields stays readable; sizes smaller than the fields read are refused, naming the
//!   header field.
//! * **`groupdata_size` is never trusted**: it leaves out embedded image bytes in 30 of 1,559 real
//!   groups. Groups are read record by record; the deformers follow *all* groups.
//! * **Frames are sparse.** A frame's vertices each replace the main vertex their index names; the
//!   others keep the main (rest) position. A frame may also carry bone matrices (16 floats
//!   row-major, translation in elements 12..14, as Direct3D stores them).
//!
//! The decoder keeps everything as stored ([`Mdl7File`]); the `pose` module turns a group and a
//! frame into positions and normals, and [`Mdl7File::parts`] into renderer [`Model`]s (one per
//! group and skin). Like every GameStudio file, MDL7 stores its front faces clockwise and its
//! normals pointing into the mesh; `parts` turns both into the [`Model`] convention through
//! [`crate::facing`] (one decision about the normals for the whole file).

mod pose;
mod skins;

pub use pose::{pose_group, GroupPose};
pub use skins::{Material, Mdl7Skin, SkinSource};

use crate::normals::{mdl_normal, MDL_NORMAL_COUNT};
use glam::{Mat4, Vec2, Vec3};
use modex::{ByteReader, ErrorKind, FormatError, FormatResult, Palette};

use crate::facing::Orientation;
use crate::model::{Frame, Model, Skin, Triangle};

/// Format name used in errors.
pub const FORMAT: &str = "MDL7";
/// The magic.
pub const MAGIC: &[u8; 4] = b"MDL7";
/// Size of the file header.
pub const HEADER_SIZE: usize = 48;
/// Size of a group header.
pub const GROUP_HEADER_SIZE: usize = 44;
/// Largest bone count accepted: a bone is 16 bytes at least, but frames hold one 4x4 matrix per
/// bone per frame when posed; real files stay below 500.
pub const MAX_BONES: usize = 4096;

/// Largest number of posed vertices (frames times vertices, summed over the groups) a file may
/// ask for. Frames are sparse, so a small file can name thousands of frames of thousands of
/// vertices, and [`Mdl7File::parts`] poses every one; the largest real model poses 162,000
/// (lottifant: 90 frames of 1,802 vertices).
pub const MAX_POSED_VERTICES: usize = 1 << 23;
/// A skin-vertex index that names no skin vertex. Real files hold it in a few triangles (2 of
/// 800 published MDL7 files); the engine loads them, and so does modex: those corners are drawn at
/// texel (0, 0), with one log line per file.
pub const NO_SKIN_VERTEX: u16 = 0xFFFF;

/// Whether `data` is an MDL7 file (format detection).
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// The ten record sizes of the header, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordSizes {
    /// Bone record (36 with a name, 16 without).
    pub bone: usize,
    /// Skin header (28).
    pub skin: usize,
    /// Colour value (16).
    pub colorvalue: usize,
    /// Material (68).
    pub material: usize,
    /// UV record (8).
    pub skinpoint: usize,
    /// Triangle (26, 16 or 12).
    pub triangle: usize,
    /// Main vertex (26 or 16).
    pub mainvertex: usize,
    /// Frame vertex (26 or 16).
    pub framevertex: usize,
    /// Bone transform (68).
    pub bonetrans: usize,
    /// Frame header (24).
    pub frame: usize,
}

/// The 48-byte header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mdl7Header {
    /// The i32 after the magic (0 in every real file).
    pub version: i32,
    /// Bones in the skeleton.
    pub bones: usize,
    /// Groups.
    pub groups: usize,
    /// Bytes of model data (header included).
    pub data_size: u32,
    /// Bytes of the entity lump after the data.
    pub entlump_size: i32,
    /// Bytes of the MED lump after that.
    pub medlump_size: i32,
    /// Declared record sizes.
    pub sizes: RecordSizes,
}

/// A bone of the skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// Parent bone; `None` for a root (stored 0xFFFF).
    pub parent: Option<u16>,
    /// Rest position.
    pub position: Vec3,
    /// Name (empty in 16-byte records).
    pub name: String,
}

/// A triangle as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mdl7Triangle {
    /// Main vertex indices.
    pub vertices: [u16; 3],
    /// UV indices of the first skin set.
    pub uvs: [u16; 3],
    /// Skin of the first set, counted over all groups' skins (`None` = stored -1, or a 12-byte
    /// triangle without one).
    pub material: Option<u32>,
    /// Second skin set (26-byte triangles whose second set is not all 0xFFFF): UVs and skin.
    pub second: Option<([u16; 3], Option<u32>)>,
}

/// A main (rest pose) vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MainVertex {
    /// Position.
    pub position: Vec3,
    /// The bone it follows (`None` = stored 0xFFFF).
    pub bone: Option<u16>,
    /// Unit normal (from the 162-normal table for 16-byte records).
    pub normal: Vec3,
}

/// A frame vertex: replaces main vertex `index` in its frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameVertex {
    /// The main vertex it replaces.
    pub index: u16,
    /// Position in this frame.
    pub position: Vec3,
    /// Unit normal in this frame.
    pub normal: Vec3,
}

/// One bone's matrix in a frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneTransform {
    /// The matrix as glam's column-major `Mat4` (the stored row-major array with the translation in
    /// elements 12..14 is exactly glam's column order).
    pub matrix: Mat4,
    /// The bone.
    pub bone: u16,
}

/// A stored animation frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Mdl7Frame {
    /// Name (bytes up to the NUL, kept raw: they may be in a local code page).
    pub name_bytes: Vec<u8>,
    /// Sparse vertex deltas.
    pub vertices: Vec<FrameVertex>,
    /// Bone matrices.
    pub bone_transforms: Vec<BoneTransform>,
}

impl Mdl7Frame {
    /// The name decoded lossily as UTF-8 (frontends may decode `name_bytes` with a code page).
    pub fn name(&self) -> String {
        String::from_utf8_lossy(&self.name_bytes).into_owned()
    }
}

/// A group: one mesh with its own skins and frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Byte offset of the group header.
    pub offset: usize,
    /// Type byte (1 in every real file).
    pub kind: u8,
    /// Deformers this group contributes to the list after all groups.
    pub deformers: i8,
    /// Largest number of weights per vertex (as stored).
    pub max_weights: i8,
    /// The stored `groupdata_size` (not trusted; kept for `info`).
    pub groupdata_size: i32,
    /// Name.
    pub name: String,
    /// Skins.
    pub skins: Vec<Mdl7Skin>,
    /// UVs (normalised, v down the skin as stored).
    pub uvs: Vec<Vec2>,
    /// Triangles.
    pub triangles: Vec<Mdl7Triangle>,
    /// Main vertices (rest pose).
    pub vertices: Vec<MainVertex>,
    /// Stored frames (0 for a static group).
    pub frames: Vec<Mdl7Frame>,
}

/// One deformer weight list.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformerElement {
    /// The bone (index into [`Mdl7File::bones`]; may be out of range in broken files: ignored then).
    pub bone: i32,
    /// Name.
    pub name: String,
    /// `(vertex, weight)` pairs.
    pub weights: Vec<(u32, f32)>,
}

/// A deformer: bone weights for the vertices of one group.
#[derive(Debug, Clone, PartialEq)]
pub struct Deformer {
    /// Byte offset of its header.
    pub offset: usize,
    /// Version byte.
    pub version: i8,
    /// Type byte (0 = bones; others are kept but not applied).
    pub kind: i8,
    /// The group it deforms.
    pub group: i32,
    /// Its weight lists.
    pub elements: Vec<DeformerElement>,
}

/// A decoded MDL7 file.
#[derive(Debug, Clone, PartialEq)]
pub struct Mdl7File {
    /// The header.
    pub header: Mdl7Header,
    /// The skeleton.
    pub bones: Vec<Bone>,
    /// The groups in file order.
    pub groups: Vec<Group>,
    /// The deformers after all groups.
    pub deformers: Vec<Deformer>,
}

/// A renderer model for one group and one of its skins: the triangles of that group drawn with that
/// skin, and every frame of the group posed.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The group.
    pub group: usize,
    /// The skin these triangles use, counted over the skins of all groups in file order (`None`:
    /// no skin; drawn with the stand-in).
    pub skin: Option<usize>,
    /// The model: `skins` holds the one skin (empty for `None`), frames are the posed frames.
    pub model: Model,
}

fn small(field: &str, at: usize, size: usize, min: usize) -> FormatError {
    FormatError::invalid(
        FORMAT,
        field,
        at,
        format!("record size {size} is smaller than the {min} bytes read from it"),
    )
}

fn read_vec3(r: &mut ByteReader<'_>, field: &str) -> FormatResult<Vec3> {
    Ok(Vec3::new(r.f32(field)?, r.f32(field)?, r.f32(field)?))
}

fn fixed_bytes(r: &mut ByteReader<'_>, n: usize, field: &str) -> FormatResult<Vec<u8>> {
    let b = r.bytes(n, field)?;
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    Ok(b[..end].to_vec())
}

/// A unit vector from stored floats; degenerate or non-finite ones become +Z.
fn unit(n: Vec3) -> Vec3 {
    if n.is_finite() {
        n.normalize_or(Vec3::Z)
    } else {
        Vec3::Z
    }
}

/// Replace non-finite coordinates by 0 so a broken file cannot poison bounding boxes and cameras.
fn finite(p: Vec3) -> Vec3 {
    Vec3::select(p.is_finite_mask(), p, Vec3::ZERO)
}

impl Mdl7File {
    /// Parse an MDL7 file; 8-bit skins are decoded with the Quake 1 palette.
    pub fn parse(bytes: &[u8]) -> FormatResult<Mdl7File> {
        Self::parse_with_palette(bytes, &Palette::quake())
    }

    /// Parse an MDL7 file, decoding 8-bit skins with `palette`.
    pub fn parse_with_palette(bytes: &[u8], palette: &Palette) -> FormatResult<Mdl7File> {
        let mut r = ByteReader::new(bytes, FORMAT);
        let header = read_header(&mut r)?;
        let bones = read_bones(&mut r, &header)?;
        // A group is 44 bytes at least.
        r.check_count(header.groups, GROUP_HEADER_SIZE, "header.groups")?;
        let mut groups = Vec::with_capacity(header.groups);
        let mut posed = 0usize;
        for g in 0..header.groups {
            let group = read_group(&mut r, &header, g, palette)?;
            posed = posed.saturating_add(group.frames.len().max(1) * group.vertices.len());
            if posed > MAX_POSED_VERTICES {
                return Err(FormatError::new(
                    FORMAT,
                    format!("group[{g}].numframes"),
                    group.offset + 40,
                    ErrorKind::TooLarge {
                        value: posed as u64,
                        limit: MAX_POSED_VERTICES as u64,
                    },
                ));
            }
            groups.push(group);
        }
        let count: usize = groups.iter().map(|g| g.deformers.max(0) as usize).sum();
        let mut deformers = Vec::with_capacity(count.min(r.remaining() / 16));
        for d in 0..count {
            deformers.push(read_deformer(&mut r, d, &groups)?);
        }
        let unmapped: usize = groups
            .iter()
            .flat_map(|g| &g.triangles)
            .map(|t| t.uvs.iter().filter(|&&s| s == NO_SKIN_VERTEX).count())
            .sum();
        if unmapped > 0 {
            log::warn!(
                "MDL7: {unmapped} triangle corners have no skin vertex (st_index 0xFFFF); drawn at texel (0, 0)"
            );
        }
        Ok(Mdl7File {
            header,
            bones,
            groups,
            deformers,
        })
    }

    /// Fill every skin that has no pixels of its own: external files through `find` (given the
    /// name the model stores, it returns the file's bytes: the caller looks beside the model,
    /// case-insensitively, then in its own folders), decoded by [`crate::external`]; skins still
    /// without pixels (missing or unreadable file, 0x0 or material-only skins, DDS kinds not
    /// decoded) become one texel of their material's diffuse colour, or grey. References (type 1)
    /// then repeat what they refer to. Returns one line per file that could not be used, for the
    /// caller to log once.
    pub fn resolve_skins(&mut self, find: &mut dyn FnMut(&str) -> Option<Vec<u8>>) -> Vec<String> {
        self.resolve_skin_images(&mut |name| {
            find(name).map(|bytes| {
                crate::external::Image::decode(name, &bytes).map_err(|e| e.to_string())
            })
        })
    }

    /// [`Mdl7File::resolve_skins`] with the files already decoded: `load` gives, for the name the
    /// model stores, the decoded image, the decoder's message, or `None` when the file is not
    /// found. A caller that resolves many models (a level's hundreds) decodes each file once
    /// and hands every model the same texels ([`crate::external::Image`] shares them).
    pub fn resolve_skin_images(
        &mut self,
        load: &mut dyn FnMut(&str) -> Option<Result<crate::external::Image, String>>,
    ) -> Vec<String> {
        let mut problems: Vec<String> = Vec::new();
        let mut cache: Vec<(String, Option<Skin>)> = Vec::new();
        for g in &mut self.groups {
            for i in 0..g.skins.len() {
                let s = &mut g.skins[i];
                if let SkinSource::External(name) = &s.source {
                    let key = name.to_ascii_lowercase();
                    let loaded = match cache.iter().find(|(k, _)| *k == key) {
                        Some((_, skin)) => skin.clone(),
                        None => {
                            let skin = match load(name) {
                                None => {
                                    problems.push(format!("skin file {name} not found"));
                                    None
                                }
                                Some(Ok(image)) => Some(image.skin(s.skin.kind)),
                                Some(Err(e)) => {
                                    problems.push(format!("skin file {e}"));
                                    None
                                }
                            };
                            cache.push((key, skin.clone()));
                            skin
                        }
                    };
                    if let Some(skin) = loaded {
                        s.skin = skin;
                    }
                }
                if s.skin.rgba.is_empty() {
                    let rgb = s.material.map_or(crate::external::FALLBACK_GREY, |m| {
                        [m.diffuse[0], m.diffuse[1], m.diffuse[2]]
                    });
                    s.skin = crate::external::flat_skin(s.skin.kind, rgb);
                }
                if let SkinSource::Reference(t) = s.source {
                    if t < i {
                        g.skins[i].skin = g.skins[t].skin.clone();
                    }
                }
            }
        }
        problems
    }

    /// Triangles of all groups.
    pub fn triangle_count(&self) -> usize {
        self.groups.iter().map(|g| g.triangles.len()).sum()
    }

    /// Main vertices of all groups.
    pub fn vertex_count(&self) -> usize {
        self.groups.iter().map(|g| g.vertices.len()).sum()
    }

    /// Stored animation frames: the most any group has (groups normally agree).
    pub fn frame_count(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.frames.len())
            .max()
            .unwrap_or(0)
    }

    /// The renderer models: for each group, one per skin its triangles use.
    ///
    /// A triangle's material indexes the skins of **all** groups in file order, not its own
    /// group's: in real files the skins usually all sit in group 0 and the other groups have
    /// none (zorroLotti: 12 skins in group 0, groups 1..10 use skins 5..11; PhosphoricAcid: 3
    /// skins in group 0 used by all 8 groups). A triangle without a usable material (-1, or a
    /// 12-byte record) uses its group's first skin, else skin 0, else none. Each holds only the vertices its triangles use and
    /// one frame per stored frame of the group (the rest pose for a static group), posed by
    /// [`pose_group`].
    pub fn parts(&self) -> Vec<Part> {
        let mut parts = Vec::new();
        let all_skins: Vec<&Skin> = self
            .groups
            .iter()
            .flat_map(|g| g.skins.iter().map(|s| &s.skin))
            .collect();
        let posed: Vec<Vec<(String, GroupPose)>> = (0..self.groups.len())
            .map(|gi| {
                let g = &self.groups[gi];
                if g.frames.is_empty() {
                    vec![(String::new(), pose_group(self, gi, None))]
                } else {
                    (0..g.frames.len())
                        .map(|f| (g.frames[f].name(), pose_group(self, gi, Some(f))))
                        .collect()
                }
            })
            .collect();
        // One decision for the whole file (see `crate::facing`), from each group's first pose.
        let turn_normals = self
            .groups
            .iter()
            .zip(&posed)
            .map(|(g, poses)| {
                let pose = &poses[0].1;
                Orientation::count(
                    &pose.positions,
                    &pose.normals,
                    g.triangles.iter().map(|t| {
                        Triangle::from_file(t.vertices.map(u32::from), [0; 3])
                            .vertices
                            .map(|v| v as usize)
                    }),
                )
            })
            .fold(Orientation::default(), Orientation::plus)
            .points_back();
        for ((gi, g), poses) in self.groups.iter().enumerate().zip(posed) {
            let skin_of = self.skin_rule(gi);
            for key in self.group_skins(gi) {
                let mut remap = vec![u32::MAX; g.vertices.len()];
                let mut used = Vec::new();
                let mut triangles = Vec::new();
                // Corners without a skin vertex (0xFFFF) read an extra UV at texel (0, 0).
                let at_origin = g.uvs.len().max(1) as u32;
                let mut needs_origin = false;
                for t in g.triangles.iter().filter(|t| skin_of(t) == key) {
                    let (mut vertices, mut uvs) = ([0u32; 3], [0u32; 3]);
                    for k in 0..3 {
                        let v = t.vertices[k] as usize;
                        if remap[v] == u32::MAX {
                            remap[v] = used.len() as u32;
                            used.push(v);
                        }
                        vertices[k] = remap[v];
                        uvs[k] = if t.uvs[k] == NO_SKIN_VERTEX {
                            needs_origin = true;
                            at_origin
                        } else if g.uvs.is_empty() {
                            0
                        } else {
                            t.uvs[k] as u32
                        };
                    }
                    triangles.push(Triangle::from_file(vertices, uvs));
                }
                let sign = if turn_normals { -1.0 } else { 1.0 };
                let frames = poses
                    .iter()
                    .map(|(name, pose)| {
                        let positions: Vec<Vec3> =
                            used.iter().map(|&v| pose.positions[v]).collect();
                        let normals = used.iter().map(|&v| pose.normals[v] * sign).collect();
                        let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
                        Frame {
                            name: name.clone(),
                            positions,
                            normals,
                            normal_indices: None,
                            bbox_min,
                            bbox_max,
                        }
                    })
                    .collect();
                let mut uvs = if g.uvs.is_empty() {
                    vec![Vec2::ZERO]
                } else {
                    g.uvs.clone()
                };
                if needs_origin {
                    uvs.push(Vec2::ZERO);
                }
                let skins = key
                    .and_then(|s| all_skins.get(s))
                    .map(|&s| vec![s.clone()])
                    .unwrap_or_default();
                parts.push(Part {
                    group: gi,
                    skin: key,
                    model: Model {
                        frames,
                        uvs,
                        triangles,
                        skins,
                    },
                });
            }
        }
        parts
    }

    /// The skin triangle `t` of group `group` is drawn with, counted over all groups' skins (the
    /// rule [`Mdl7File::parts`] documents).
    fn skin_rule(&self, group: usize) -> impl Fn(&Mdl7Triangle) -> Option<usize> {
        let all = self.groups.iter().map(|g| g.skins.len()).sum::<usize>();
        let base: usize = self.groups[..group].iter().map(|g| g.skins.len()).sum();
        let own = base..base + self.groups[group].skins.len();
        move |t: &Mdl7Triangle| match t.material {
            Some(m) if (m as usize) < all => Some(m as usize),
            _ if !own.is_empty() => Some(own.start),
            _ if all > 0 => Some(0),
            _ => None,
        }
    }

    /// The skins group `group`'s triangles use, in the order [`Mdl7File::parts`] makes its parts.
    fn group_skins(&self, group: usize) -> Vec<Option<usize>> {
        let skin_of = self.skin_rule(group);
        let mut keys: Vec<Option<usize>> =
            self.groups[group].triangles.iter().map(skin_of).collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// A name for each of [`Mdl7File::parts`], in the same order, without posing anything (what
    /// an exporter names materials after): an external skin's file name without folder and
    /// extension (`griechin_body`; the skin records' own names are `Skin1`, `Skin2` in the
    /// LotterShock models), else the skin's name, else the group's, else `None`.
    pub fn part_names(&self) -> Vec<Option<String>> {
        let skins: Vec<&Mdl7Skin> = self.groups.iter().flat_map(|g| &g.skins).collect();
        let mut names = Vec::new();
        for (gi, g) in self.groups.iter().enumerate() {
            for key in self.group_skins(gi) {
                let skin = key.and_then(|s| skins.get(s));
                // A file named by a path from the artist's machine: its last part, no extension.
                let file = skin.and_then(|s| match &s.source {
                    SkinSource::External(f) => {
                        let base = f.rsplit(['/', '\\']).next().unwrap_or(f);
                        Some(base.rsplit_once('.').map_or(base, |(stem, _)| stem))
                    }
                    _ => None,
                });
                let name = [file, skin.map(|s| s.name.as_str()), Some(g.name.as_str())]
                    .into_iter()
                    .flatten()
                    .map(str::trim)
                    .find(|n| !n.is_empty());
                names.push(name.map(str::to_string));
            }
        }
        names
    }
}

fn read_header(r: &mut ByteReader<'_>) -> FormatResult<Mdl7Header> {
    r.expect_magic(MAGIC, "header.ident")?;
    if r.remaining() < HEADER_SIZE - 4 {
        return Err(r.error(
            "header",
            ErrorKind::Truncated {
                needed: HEADER_SIZE - 4,
                available: r.remaining(),
            },
        ));
    }
    let version = r.i32("header.version")?;
    let at = r.pos();
    let bones = r.u32("header.bones_num")? as usize;
    if bones > MAX_BONES {
        return Err(FormatError::out_of_range(
            FORMAT,
            "header.bones_num",
            at,
            bones as i64,
            0,
            MAX_BONES as i64,
        ));
    }
    let groups = r.u32("header.groups_num")? as usize;
    let data_size = r.u32("header.data_size")?;
    let entlump_size = r.i32("header.entlump_size")?;
    let medlump_size = r.i32("header.medlump_size")?;
    let mut s = [0usize; 10];
    for (k, v) in s.iter_mut().enumerate() {
        *v = r.u16(&format!("header.record_size[{k}]"))? as usize;
    }
    let sizes = RecordSizes {
        bone: s[0],
        skin: s[1],
        colorvalue: s[2],
        material: s[3],
        skinpoint: s[4],
        triangle: s[5],
        mainvertex: s[6],
        framevertex: s[7],
        bonetrans: s[8],
        frame: s[9],
    };
    // Offsets of the size words: 28 + 2k.
    let checks = [
        ("header.md7_bone_stc_size", 28, sizes.bone, 16),
        ("header.md7_skin_stc_size", 30, sizes.skin, 28),
        ("header.md7_material_stc_size", 34, sizes.material, 68),
        ("header.md7_skinpoint_stc_size", 36, sizes.skinpoint, 8),
        ("header.md7_triangle_stc_size", 38, sizes.triangle, 12),
        ("header.md7_mainvertex_stc_size", 40, sizes.mainvertex, 16),
        ("header.md7_framevertex_stc_size", 42, sizes.framevertex, 16),
        ("header.md7_bonetrans_stc_size", 44, sizes.bonetrans, 66),
        ("header.md7_frame_stc_size", 46, sizes.frame, 24),
    ];
    for (field, at, size, min) in checks {
        if size < min {
            return Err(small(field, at, size, min));
        }
    }
    Ok(Mdl7Header {
        version,
        bones,
        groups,
        data_size,
        entlump_size,
        medlump_size,
        sizes,
    })
}

fn read_bones(r: &mut ByteReader<'_>, h: &Mdl7Header) -> FormatResult<Vec<Bone>> {
    let size = h.sizes.bone;
    r.check_count(h.bones, size, "header.bones_num")?;
    let mut bones = Vec::with_capacity(h.bones);
    for i in 0..h.bones {
        let start = r.pos();
        let f = format!("bone[{i}]");
        let parent = r.u16(&format!("{f}.parent"))?;
        r.skip(2, &format!("{f}.pad"))?;
        let position = finite(read_vec3(r, &format!("{f}.position"))?);
        let name = if size >= 36 {
            r.fixed_str(20, &format!("{f}.name"))?
        } else {
            String::new()
        };
        r.seek(start + size, &format!("{f}.end"))?;
        bones.push(Bone {
            parent: (parent != 0xFFFF && (parent as usize) < h.bones).then_some(parent),
            position,
            name,
        });
    }
    Ok(bones)
}

fn read_group(
    r: &mut ByteReader<'_>,
    h: &Mdl7Header,
    g: usize,
    palette: &Palette,
) -> FormatResult<Group> {
    let offset = r.pos();
    let f = format!("group[{g}]");
    let kind = r.u8(&format!("{f}.typ"))?;
    let deformers = r.i8(&format!("{f}.deformers"))?;
    let max_weights = r.i8(&format!("{f}.max_weights"))?;
    r.skip(1, &format!("{f}.pad"))?;
    let groupdata_size = r.i32(&format!("{f}.groupdata_size"))?;
    let name = r.fixed_str(16, &format!("{f}.name"))?;
    let num_skins = r.count_i32(&format!("{f}.numskins"))?;
    let num_uvs = r.count_i32(&format!("{f}.num_stpts"))?;
    let num_tris = r.count_i32(&format!("{f}.numtris"))?;
    let num_verts = r.count_i32(&format!("{f}.numverts"))?;
    let num_frames = r.count_i32(&format!("{f}.numframes"))?;

    let skins = skins::read_skins(r, h, &f, num_skins, palette)?;

    let sp = h.sizes.skinpoint;
    r.check_count(num_uvs, sp, &format!("{f}.num_stpts"))?;
    let mut uvs = Vec::with_capacity(num_uvs);
    for i in 0..num_uvs {
        let start = r.pos();
        let u = r.f32(&format!("{f}.uv[{i}].u"))?;
        let v = r.f32(&format!("{f}.uv[{i}].v"))?;
        let uv = Vec2::new(u, v);
        uvs.push(if uv.is_finite() { uv } else { Vec2::ZERO });
        r.seek(start + sp, &format!("{f}.uv[{i}].end"))?;
    }

    let ts = h.sizes.triangle;
    r.check_count(num_tris, ts, &format!("{f}.numtris"))?;
    let mut triangles = Vec::with_capacity(num_tris);
    for i in 0..num_tris {
        let start = r.pos();
        let tf = format!("{f}.triangle[{i}]");
        let mut vertices = [0u16; 3];
        for (k, v) in vertices.iter_mut().enumerate() {
            let at = r.pos();
            *v = r.u16(&format!("{tf}.v_index[{k}]"))?;
            if *v as usize >= num_verts {
                return Err(FormatError::out_of_range(
                    FORMAT,
                    format!("{tf}.v_index[{k}]"),
                    at,
                    *v as i64,
                    0,
                    num_verts as i64 - 1,
                ));
            }
        }
        let read_set = |r: &mut ByteReader<'_>, set: usize| -> FormatResult<[u16; 3]> {
            let mut st = [0u16; 3];
            for (k, s) in st.iter_mut().enumerate() {
                *s = r.u16(&format!("{tf}.skinsets[{set}].st_index[{k}]"))?;
            }
            Ok(st)
        };
        let check_uvs = |st: [u16; 3], set: usize| -> FormatResult<()> {
            for (k, &s) in st.iter().enumerate() {
                if num_uvs > 0 && s as usize >= num_uvs && s != NO_SKIN_VERTEX {
                    return Err(FormatError::out_of_range(
                        FORMAT,
                        format!("{tf}.skinsets[{set}].st_index[{k}]"),
                        start + 6 + 2 * k + set * 10,
                        s as i64,
                        0,
                        num_uvs as i64 - 1,
                    ));
                }
            }
            Ok(())
        };
        let material = |m: i32| u32::try_from(m).ok();
        let uvs1 = read_set(r, 0)?;
        check_uvs(uvs1, 0)?;
        let mut mat1 = None;
        let mut second = None;
        if ts >= 16 {
            mat1 = material(r.i32(&format!("{tf}.skinsets[0].material"))?);
        }
        if ts >= 26 {
            let uvs2 = read_set(r, 1)?;
            let mat2 = material(r.i32(&format!("{tf}.skinsets[1].material"))?);
            if uvs2 != [0xFFFF; 3] {
                check_uvs(uvs2, 1)?;
                second = Some((uvs2, mat2));
            }
        }
        r.seek(start + ts, &format!("{tf}.end"))?;
        triangles.push(Mdl7Triangle {
            vertices,
            uvs: uvs1,
            material: mat1,
            second,
        });
    }

    let vs = h.sizes.mainvertex;
    r.check_count(num_verts, vs, &format!("{f}.numverts"))?;
    let mut vertices = Vec::with_capacity(num_verts);
    for i in 0..num_verts {
        let vf = format!("{f}.vertex[{i}]");
        let (position, bone, normal) = read_vertex(r, vs, &vf)?;
        vertices.push(MainVertex {
            position,
            bone: (bone != 0xFFFF).then_some(bone),
            normal,
        });
    }

    let fs = h.sizes.frame;
    r.check_count(num_frames, fs, &format!("{f}.numframes"))?;
    let mut frames = Vec::with_capacity(num_frames);
    for i in 0..num_frames {
        let start = r.pos();
        let ff = format!("{f}.frame[{i}]");
        let name_bytes = fixed_bytes(r, 16, &format!("{ff}.frame_name"))?;
        let nv = r.u32(&format!("{ff}.vertices_count"))? as usize;
        let nt = r.u32(&format!("{ff}.transmatrix_count"))? as usize;
        r.seek(start + fs, &format!("{ff}.end"))?;
        let fvs = h.sizes.framevertex;
        r.check_count(nv, fvs, &format!("{ff}.vertices_count"))?;
        let mut fverts = Vec::with_capacity(nv);
        for k in 0..nv {
            let vf = format!("{ff}.vertex[{k}]");
            let at = r.pos();
            let (position, index, normal) = read_vertex(r, fvs, &vf)?;
            if index as usize >= num_verts {
                return Err(FormatError::out_of_range(
                    FORMAT,
                    format!("{vf}.vertindex"),
                    at + 12,
                    index as i64,
                    0,
                    num_verts as i64 - 1,
                ));
            }
            fverts.push(FrameVertex {
                index,
                position,
                normal,
            });
        }
        let bts = h.sizes.bonetrans;
        r.check_count(nt, bts, &format!("{ff}.transmatrix_count"))?;
        let mut transforms = Vec::with_capacity(nt);
        for k in 0..nt {
            let bs = r.pos();
            let bf = format!("{ff}.bonetrans[{k}]");
            let mut m = [0f32; 16];
            for v in &mut m {
                *v = r.f32(&format!("{bf}.m"))?;
            }
            let bone = r.u16(&format!("{bf}.bone"))?;
            r.seek(bs + bts, &format!("{bf}.end"))?;
            let matrix = if m.iter().all(|v| v.is_finite()) {
                Mat4::from_cols_array(&m)
            } else {
                Mat4::IDENTITY
            };
            transforms.push(BoneTransform { matrix, bone });
        }
        frames.push(Mdl7Frame {
            name_bytes,
            vertices: fverts,
            bone_transforms: transforms,
        });
    }
    Ok(Group {
        offset,
        kind,
        deformers,
        max_weights,
        groupdata_size,
        name,
        skins,
        uvs,
        triangles,
        vertices,
        frames,
    })
}

/// A main or frame vertex of `size` bytes: position, the u16 after it (bone or vertex index) and the
/// normal (a table index in 16-byte records, three floats in 26-byte ones).
fn read_vertex(r: &mut ByteReader<'_>, size: usize, f: &str) -> FormatResult<(Vec3, u16, Vec3)> {
    let start = r.pos();
    let position = finite(read_vec3(r, &format!("{f}.xyz"))?);
    let word = r.u16(&format!("{f}.bone"))?;
    let normal = if size >= 26 {
        unit(read_vec3(r, &format!("{f}.norm"))?)
    } else {
        let n = r.u8(&format!("{f}.norm162index"))? as usize;
        Vec3::from_array(mdl_normal(n.min(MDL_NORMAL_COUNT - 1)))
    };
    r.seek(start + size, &format!("{f}.end"))?;
    Ok((position, word, normal))
}

fn read_deformer(r: &mut ByteReader<'_>, d: usize, groups: &[Group]) -> FormatResult<Deformer> {
    let offset = r.pos();
    let f = format!("deformer[{d}]");
    let version = r.i8(&format!("{f}.deformer_version"))?;
    let kind = r.i8(&format!("{f}.deformer_typ"))?;
    r.skip(2, &format!("{f}.pad"))?;
    let at = r.pos();
    let group = r.i32(&format!("{f}.group_index"))?;
    let nverts = usize::try_from(group)
        .ok()
        .and_then(|g| groups.get(g))
        .map(|g| g.vertices.len())
        .ok_or_else(|| {
            FormatError::out_of_range(
                FORMAT,
                format!("{f}.group_index"),
                at,
                group as i64,
                0,
                groups.len() as i64 - 1,
            )
        })?;
    let count = r.count_i32(&format!("{f}.elements"))?;
    r.i32(&format!("{f}.deformerdata_size"))?;
    // An element is 28 bytes at least.
    r.check_count(count, 28, &format!("{f}.elements"))?;
    let mut elements = Vec::with_capacity(count);
    for e in 0..count {
        let ef = format!("{f}.element[{e}]");
        let bone = r.i32(&format!("{ef}.index"))?;
        let name = r.fixed_str(20, &format!("{ef}.name"))?;
        let n = r.count_i32(&format!("{ef}.weights"))?;
        r.check_count(n, 8, &format!("{ef}.weights"))?;
        let mut weights = Vec::with_capacity(n);
        for w in 0..n {
            let at = r.pos();
            let v = r.i32(&format!("{ef}.weight[{w}].index"))?;
            let weight = r.f32(&format!("{ef}.weight[{w}].weight"))?;
            let v = usize::try_from(v)
                .ok()
                .filter(|&v| v < nverts)
                .ok_or_else(|| {
                    FormatError::out_of_range(
                        FORMAT,
                        format!("{ef}.weight[{w}].index"),
                        at,
                        v as i64,
                        0,
                        nverts as i64 - 1,
                    )
                })?;
            weights.push((v as u32, if weight.is_finite() { weight } else { 0.0 }));
        }
        elements.push(DeformerElement {
            bone,
            name,
            weights,
        });
    }
    Ok(Deformer {
        offset,
        version,
        kind,
        group,
        elements,
    })
}
