//! The objects list: `u32 count`, `count` offsets relative to the list, each object starting with
//! its `u32 type`. Each object is read inside its own span (up to the next object's offset, or the
//! list's end), so a short or hostile record cannot read into the next.
//!
//! Layouts, measured on the real files (offsets from the object's start):
//! - 1 POSITION (56): origin +4, angle +16, two unused words, `name[20]` +36.
//! - 2 LIGHT (36): origin, red, green, blue (percent), range, flags.
//! - 3 OLD_ENTITY (136): origin, angle, scale, `name[20]` +40, `filename[13]` +60, `action[20]` +73,
//!   3 pad bytes, `skill[8]` +96, flags +128, ambient +132. The filename often overflows its 13
//!   bytes into the action field: it is read as a NUL-terminated string of up to 33 bytes, and the
//!   action only when the filename left it alone.
//! - 4 SOUND (69): origin, volume, two unused words, range, flags, `filename[33]`.
//! - 5 INFO (60): origin, sun azimuth and elevation, flags, compiler version, gamma (+32, a byte),
//!   lightmap size (+33: 0/1/2 = 256/512/1024), two unused bytes, sun colour, ambient colour, four
//!   fog colours (each a word `0x00RRGGBB`).
//! - 6 PATH: `name[20]`, the node count as a float, three unused words, a `num_edges` word that is
//!   *not* the edge count, then nodes (positions, then 6 skills each) and edges of 24 bytes; the
//!   edge count is `(size - 44 - 36 * nodes) / 24`.
//! - 7 ENTITY (372): origin, angle, scale, `name[33]` +40, `filename[33]` +73, `action[33]` +106,
//!   1 pad byte, `skill[20]` +140, flags +220, ambient, albedo, path +232, entity2, `material[33]`
//!   +240, `string1[33]`, `string2[33]`, 33 unused bytes.
//! - 8 REGION (56, absent from the manual): mins, maxs, two words, `name[20]`.

use glam::Vec3;
use modex::{ByteReader, ErrorKind, FormatResult};

use super::Within;

/// Size of an ENTITY record.
pub const ENTITY_SIZE: usize = 372;
/// Size of an OLD_ENTITY record.
pub const OLD_ENTITY_SIZE: usize = 136;
/// Size of a POSITION record.
pub const POSITION_SIZE: usize = 56;
/// Size of a LIGHT record.
pub const LIGHT_SIZE: usize = 36;
/// Size of a SOUND record.
pub const SOUND_SIZE: usize = 69;
/// Size of an INFO record.
pub const INFO_SIZE: usize = 60;
/// Size of a REGION record.
pub const REGION_SIZE: usize = 56;
/// Size of a PATH record before its nodes.
pub const PATH_HEADER_SIZE: usize = 44;
/// Bytes per path node: position and 6 skills.
pub const PATH_NODE_SIZE: usize = 36;
/// Bytes per path edge.
pub const PATH_EDGE_SIZE: usize = 24;

/// Which of the two entity records an entity came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntityKind {
    /// Type 3, the A5/A6 record with 8 skills.
    Old,
    /// Type 7, the A7 record with 20 skills.
    New,
}

/// Entity flag: nothing collides with the entity (GameStudio's `PASSABLE`, bit 9 of the
/// engine's `atypes.h`).
pub const ENTITY_PASSABLE: u32 = 1 << 9;
/// Entity flag: the entity collides by its polygons rather than its bounding box (`POLYGON`, bit
/// 26). The shared bestiary level sets it on its room and corridor models and on nothing else.
pub const ENTITY_POLYGON: u32 = 1 << 26;

/// A placed model, terrain, level or sprite.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// The record it came from.
    pub kind: EntityKind,
    /// Position.
    pub origin: Vec3,
    /// Pan, tilt, roll in degrees.
    pub angle: Vec3,
    /// Scale per axis.
    pub scale: Vec3,
    /// The entity's name.
    pub name: String,
    /// The file it places (`.mdl`, `.hmp`, `.wmb`, `.tga`, `.pcx`, `.bmp`...).
    pub file: String,
    /// The action (script function) it runs.
    pub action: String,
    /// Skills: 8 for old entities, 20 for new ones.
    pub skills: Vec<f32>,
    /// Flags: the engine's entity flags as WED sets them (`ENTITY_PASSABLE`,
    /// `ENTITY_POLYGON`, ...).
    pub flags: u32,
    /// Ambient light.
    pub ambient: f32,
    /// Albedo (new entities; 0 for old ones).
    pub albedo: f32,
    /// Attached path, 1-based, 0 = none (new entities).
    pub path: u32,
    /// Attached entity, 1-based, 0 = none (new entities).
    pub entity2: u32,
    /// Material name (new entities).
    pub material: String,
    /// First string (new entities).
    pub string1: String,
    /// Second string (new entities).
    pub string2: String,
}

/// The level's INFO object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Info {
    /// Origin (not used).
    pub origin: Vec3,
    /// Sun azimuth, degrees.
    pub azimuth: f32,
    /// Sun elevation, degrees.
    pub elevation: f32,
    /// Flags.
    pub flags: u32,
    /// Compiler version (7.35 in the samples).
    pub version: f32,
    /// Light level at black.
    pub gamma: u8,
    /// Lightmap page size: 0/1/2 for 256/512/1024.
    pub lightmap_size: u8,
    /// The two unused bytes after it.
    pub unused: [u8; 2],
    /// Sun colour, `0x00RRGGBB`.
    pub sun_color: u32,
    /// Ambient colour, `0x00RRGGBB`.
    pub ambient_color: u32,
    /// Fog colours, `0x00RRGGBB`.
    pub fog_colors: [u32; 4],
}

impl Info {
    /// Side of a lightmap page in texels, `None` for an unknown size code.
    pub fn lightmap_dim(&self) -> Option<usize> {
        match self.lightmap_size {
            0 => Some(256),
            1 => Some(512),
            2 => Some(1024),
            _ => None,
        }
    }
}

/// The R, G, B bytes of a colour word `0x00RRGGBB`.
pub fn color_rgb(word: u32) -> [u8; 3] {
    [(word >> 16) as u8, (word >> 8) as u8, word as u8]
}

/// A path edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathEdge {
    /// First node, 1-based, as a float.
    pub node1: f32,
    /// Second node, 1-based, as a float.
    pub node2: f32,
    /// Length.
    pub length: f32,
    /// Bezier factor.
    pub bezier: f32,
    /// Weight.
    pub weight: f32,
    /// Skill.
    pub skill: f32,
}

/// A path object.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// Name.
    pub name: String,
    /// The three unused words.
    pub unused: [u32; 3],
    /// The stored `num_edges` word (not the edge count).
    pub num_edges_word: u32,
    /// Node positions.
    pub nodes: Vec<Vec3>,
    /// Six skills per node.
    pub node_skills: Vec<[f32; 6]>,
    /// Edges, as many as the record's size holds.
    pub edges: Vec<PathEdge>,
}

/// One object of the objects list.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    /// 1: a start or camera position.
    Position {
        /// Position.
        origin: Vec3,
        /// Pan, tilt, roll in degrees.
        angle: Vec3,
        /// The two unused words.
        unused: [u32; 2],
        /// Name.
        name: String,
    },
    /// 2: a static or dynamic light.
    Light {
        /// Position.
        origin: Vec3,
        /// Red, green, blue in percent.
        color: Vec3,
        /// Range.
        range: f32,
        /// Flags.
        flags: u32,
    },
    /// 3 (old) or 7 (new): a placed entity.
    Entity(Entity),
    /// 4: a sound source.
    Sound {
        /// Position.
        origin: Vec3,
        /// Volume.
        volume: f32,
        /// The two unused words.
        unused: [u32; 2],
        /// Range.
        range: u32,
        /// Flags.
        flags: u32,
        /// The sound file.
        file: String,
    },
    /// 5: level information (sun, ambient, lightmap size).
    Info(Info),
    /// 6: a path.
    Path(Path),
    /// 8: a region (absent from the manual).
    Region {
        /// Lowest corner.
        mins: Vec3,
        /// Highest corner.
        maxs: Vec3,
        /// The two words after the box.
        words: [u32; 2],
        /// Name.
        name: String,
    },
    /// Any other type, kept as bytes after the type word.
    Unknown {
        /// The type word.
        kind: u32,
        /// The bytes after it, up to the next object.
        bytes: Vec<u8>,
    },
}

impl Object {
    /// The kind's name in `info --json` (`"position"`, `"old_entity"`, ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Object::Position { .. } => "position",
            Object::Light { .. } => "light",
            Object::Entity(e) if e.kind == EntityKind::Old => "old_entity",
            Object::Entity(_) => "entity",
            Object::Sound { .. } => "sound",
            Object::Info(_) => "info",
            Object::Path(_) => "path",
            Object::Region { .. } => "region",
            Object::Unknown { .. } => "unknown",
        }
    }
}

fn vec3(r: &mut ByteReader<'_>, field: &str) -> FormatResult<Vec3> {
    Ok(Vec3::new(r.f32(field)?, r.f32(field)?, r.f32(field)?))
}

/// A NUL-terminated Windows-1252 string of up to `n` bytes at `at`, without moving the cursor
/// (a short span ends the string early).
fn str_at(r: &ByteReader<'_>, at: usize, n: usize) -> String {
    let data = r.data();
    let end = (at + n).min(data.len());
    let b = data.get(at..end).unwrap_or(&[]);
    super::text(b)
}

/// Read the objects list.
pub(crate) fn read_objects(r: &mut ByteReader<'_>) -> FormatResult<Vec<Object>> {
    if r.remaining() == 0 {
        return Ok(Vec::new());
    }
    let start = r.pos();
    let end = r.len();
    let count = r.u32("objects.count")? as usize;
    r.check_count(count, 4, "objects.count")?;
    let mut offsets = Vec::with_capacity(count);
    for i in 0..count {
        let at = r.pos();
        let off = r
            .u32("objects.offset")
            .named(|| format!("objects.offset[{i}]"))? as usize;
        let abs = start.saturating_add(off);
        if abs + 4 > end {
            let mut e = r.error(
                format!("objects.offset[{i}]"),
                ErrorKind::OutOfRange {
                    value: off as i64,
                    min: 0,
                    max: (end - start).saturating_sub(4) as i64,
                },
            );
            e.offset = at;
            return Err(e);
        }
        offsets.push(abs);
    }
    let mut objects = Vec::with_capacity(count);
    for (i, &abs) in offsets.iter().enumerate() {
        // An object ends where the next one (in file order) begins, or at the list's end.
        let span_end = offsets
            .iter()
            .copied()
            .filter(|&o| o > abs)
            .min()
            .unwrap_or(end);
        let mut o = ByteReader::new(&r.data()[..span_end], r.format());
        o.seek(abs, "object")?;
        objects.push(read_object(&mut o).within(|| format!("object[{i}]"))?);
    }
    Ok(objects)
}

fn read_object(r: &mut ByteReader<'_>) -> FormatResult<Object> {
    let base = r.pos();
    let kind = r.u32("type")?;
    Ok(match kind {
        1 => {
            let origin = vec3(r, "origin")?;
            let angle = vec3(r, "angle")?;
            let unused = [r.u32("unused")?, r.u32("unused")?];
            let name = super::fixed_text(r, 20, "name")?;
            Object::Position {
                origin,
                angle,
                unused,
                name,
            }
        }
        2 => Object::Light {
            origin: vec3(r, "origin")?,
            color: vec3(r, "color")?,
            range: r.f32("range")?,
            flags: r.u32("flags")?,
        },
        3 => {
            let origin = vec3(r, "origin")?;
            let angle = vec3(r, "angle")?;
            let scale = vec3(r, "scale")?;
            // Check the whole record is there before reading the strings out of it.
            r.check_count(OLD_ENTITY_SIZE - 40, 1, "name")?;
            let name = super::fixed_text(r, 20, "name")?;
            let file = str_at(r, base + 60, 33);
            // One byte per character in Windows-1252.
            let action = if file.chars().count() < 13 {
                str_at(r, base + 73, 20)
            } else {
                String::new()
            };
            r.seek(base + 96, "skill")?;
            let mut skills = Vec::with_capacity(8);
            for s in 0..8 {
                skills.push(r.f32("skill").named(|| format!("skill[{s}]"))?);
            }
            let flags = r.u32("flags")?;
            let ambient = r.f32("ambient")?;
            Object::Entity(Entity {
                kind: EntityKind::Old,
                origin,
                angle,
                scale,
                name,
                file,
                action,
                skills,
                flags,
                ambient,
                albedo: 0.0,
                path: 0,
                entity2: 0,
                material: String::new(),
                string1: String::new(),
                string2: String::new(),
            })
        }
        4 => {
            let origin = vec3(r, "origin")?;
            let volume = r.f32("volume")?;
            let unused = [r.u32("unused")?, r.u32("unused")?];
            let range = r.u32("range")?;
            let flags = r.u32("flags")?;
            let file = super::fixed_text(r, 33, "filename")?;
            Object::Sound {
                origin,
                volume,
                unused,
                range,
                flags,
                file,
            }
        }
        5 => {
            let origin = vec3(r, "origin")?;
            let azimuth = r.f32("azimuth")?;
            let elevation = r.f32("elevation")?;
            let flags = r.u32("flags")?;
            let version = r.f32("version")?;
            let gamma = r.u8("gamma")?;
            let lightmap_size = r.u8("lightmap_size")?;
            let unused = r.array("unused")?;
            let sun_color = r.u32("sun_color")?;
            let ambient_color = r.u32("ambient_color")?;
            let mut fog_colors = [0; 4];
            for c in fog_colors.iter_mut() {
                *c = r.u32("fog_color")?;
            }
            Object::Info(Info {
                origin,
                azimuth,
                elevation,
                flags,
                version,
                gamma,
                lightmap_size,
                unused,
                sun_color,
                ambient_color,
                fog_colors,
            })
        }
        6 => Object::Path(read_path(r, base)?),
        7 => {
            let origin = vec3(r, "origin")?;
            let angle = vec3(r, "angle")?;
            let scale = vec3(r, "scale")?;
            let name = super::fixed_text(r, 33, "name")?;
            let file = super::fixed_text(r, 33, "filename")?;
            let action = super::fixed_text(r, 33, "action")?;
            r.skip(1, "pad")?;
            let mut skills = Vec::with_capacity(20);
            for s in 0..20 {
                skills.push(r.f32("skill").named(|| format!("skill[{s}]"))?);
            }
            let flags = r.u32("flags")?;
            let ambient = r.f32("ambient")?;
            let albedo = r.f32("albedo")?;
            let path = r.u32("path")?;
            let entity2 = r.u32("entity2")?;
            let material = super::fixed_text(r, 33, "material")?;
            let string1 = super::fixed_text(r, 33, "string1")?;
            let string2 = super::fixed_text(r, 33, "string2")?;
            r.skip(33, "unused")?;
            Object::Entity(Entity {
                kind: EntityKind::New,
                origin,
                angle,
                scale,
                name,
                file,
                action,
                skills,
                flags,
                ambient,
                albedo,
                path,
                entity2,
                material,
                string1,
                string2,
            })
        }
        8 => {
            let mins = vec3(r, "mins")?;
            let maxs = vec3(r, "maxs")?;
            let words = [r.u32("words")?, r.u32("words")?];
            let name = super::fixed_text(r, 20, "name")?;
            Object::Region {
                mins,
                maxs,
                words,
                name,
            }
        }
        _ => Object::Unknown {
            kind,
            bytes: r.bytes(r.remaining(), "bytes")?.to_vec(),
        },
    })
}

fn read_path(r: &mut ByteReader<'_>, base: usize) -> FormatResult<Path> {
    let name = super::fixed_text(r, 20, "name")?;
    let nodes_at = r.pos();
    let fnodes = r.f32("num_points")?;
    let unused = [r.u32("unused")?, r.u32("unused")?, r.u32("unused")?];
    let num_edges_word = r.u32("num_edges")?;
    let size = r.len() - base;
    let max_nodes = (size.saturating_sub(PATH_HEADER_SIZE)) / PATH_NODE_SIZE;
    if !(fnodes >= 0.0 && fnodes <= max_nodes as f32 && fnodes.fract() == 0.0) {
        let mut e = r.error(
            "num_points",
            ErrorKind::OutOfRange {
                value: fnodes as i64,
                min: 0,
                max: max_nodes as i64,
            },
        );
        e.offset = nodes_at;
        return Err(e);
    }
    let n = fnodes as usize;
    let mut nodes = Vec::with_capacity(n);
    for _ in 0..n {
        nodes.push(vec3(r, "points")?);
    }
    let mut node_skills = Vec::with_capacity(n);
    for _ in 0..n {
        let mut s = [0.0; 6];
        for v in s.iter_mut() {
            *v = r.f32("skills")?;
        }
        node_skills.push(s);
    }
    let edge_count = r.remaining() / PATH_EDGE_SIZE;
    let mut edges = Vec::with_capacity(edge_count);
    for _ in 0..edge_count {
        let ef = "edge";
        edges.push(PathEdge {
            node1: r.f32(ef)?,
            node2: r.f32(ef)?,
            length: r.f32(ef)?,
            bezier: r.f32(ef)?,
            weight: r.f32(ef)?,
            skill: r.f32(ef)?,
        });
    }
    Ok(Path {
        name,
        unused,
        num_edges_word,
        nodes,
        node_skills,
        edges,
    })
}
