//! An MDL5 writer, so the project can ship models it made itself (the demo's props) and tests can
//! round-trip models through the real decoder.
//!
//! It writes the layout [`crate::mdl`] reads: the 84-byte header, MDL5 skins (`type, width, height` +
//! pixels; 8-bit index skins and 565 skins), skin vertices as signed shorts, triangles as six shorts,
//! and word-packed frames (`type 2`: three `u16` + normal index + pad). Positions are quantised to
//! 16 bits over the bounding box of all frames, so a round trip is exact to `extent / 65535`.

use crate::normals::{mdl_normals, nearest_index};
use glam::Vec3;

use crate::model::Triangle;

/// A skin to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkinData {
    /// Type 0: palette indices.
    Indexed(Vec<u8>),
    /// Type 2: RGB 565.
    Rgb565(Vec<u16>),
}

/// One skin: size and pixels (top row first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkinSpec {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels.
    pub data: SkinData,
}

/// One animation frame: a position and a unit normal per vertex.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameSpec {
    /// Frame name (at most 15 bytes are written).
    pub name: String,
    /// One position per vertex.
    pub positions: Vec<Vec3>,
    /// One unit normal per vertex (stored as the nearest table normal).
    pub normals: Vec<Vec3>,
}

/// A whole model to write.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MdlSpec {
    /// The skins.
    pub skins: Vec<SkinSpec>,
    /// Skin vertices in pixels.
    pub skin_vertices: Vec<[i16; 2]>,
    /// Triangles: three vertex indices and three skin-vertex indices in the [`crate::Model`]
    /// convention (counter-clockwise seen from the front, normals pointing out); the file gets
    /// GameStudio's (clockwise, normals pointing in), as [`crate::facing`] says.
    pub triangles: Vec<([u16; 3], [u16; 3])>,
    /// The animation frames, all with the same vertex count.
    pub frames: Vec<FrameSpec>,
}

/// Index of the table normal nearest to `n`.
pub(crate) fn nearest_normal_index(n: Vec3) -> u8 {
    nearest_index(mdl_normals(), n.to_array()) as u8
}

/// Append a little-endian `i32` (shared with [`crate::hmp_encode`]).
pub(crate) fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Append a little-endian `f32` (shared with [`crate::hmp_encode`]).
pub(crate) fn put_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_vec3(out: &mut Vec<u8>, v: Vec3) {
    for c in v.to_array() {
        put_f32(out, c);
    }
}

/// Quantisation of positions to `u16`: `position = scale * raw + offset`.
struct Packing {
    scale: Vec3,
    offset: Vec3,
}

impl Packing {
    fn new(frames: &[FrameSpec]) -> Packing {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        for p in frames.iter().flat_map(|f| &f.positions) {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        if !lo.is_finite() || !hi.is_finite() {
            return Packing {
                scale: Vec3::ONE,
                offset: Vec3::ZERO,
            };
        }
        // A flat axis still needs a non-zero scale.
        let scale = ((hi - lo) / 65535.0).max(Vec3::splat(1e-6));
        Packing { scale, offset: lo }
    }

    fn pack(&self, p: Vec3) -> [u16; 3] {
        let raw = ((p - self.offset) / self.scale).round();
        raw.to_array().map(|c| c.clamp(0.0, 65535.0) as u16)
    }
}

fn put_vertex(out: &mut Vec<u8>, raw: [u16; 3], normal: u8) {
    for c in raw {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out.push(normal);
    out.push(0);
}

impl MdlSpec {
    /// The MDL5 file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let packing = Packing::new(&self.frames);
        let num_verts = self.frames.first().map_or(0, |f| f.positions.len());
        let radius = self
            .frames
            .iter()
            .flat_map(|f| &f.positions)
            .map(|p| p.length())
            .fold(0.0f32, f32::max);
        let mut out = Vec::new();
        out.extend_from_slice(b"MDL5");
        put_i32(&mut out, 0);
        put_vec3(&mut out, packing.scale);
        put_vec3(&mut out, packing.offset);
        put_f32(&mut out, radius);
        put_vec3(&mut out, Vec3::ZERO);
        for v in [
            self.skins.len(),
            0, // skinwidth: MDL5 skins carry their own size
            0, // skinheight
            num_verts,
            self.triangles.len(),
            self.frames.len(),
            self.skin_vertices.len(),
            0, // flags
            0, // numbones
        ] {
            put_i32(&mut out, v as i32);
        }
        for s in &self.skins {
            let kind = match s.data {
                SkinData::Indexed(_) => 0,
                SkinData::Rgb565(_) => 2,
            };
            put_i32(&mut out, kind);
            put_i32(&mut out, s.width as i32);
            put_i32(&mut out, s.height as i32);
            match &s.data {
                SkinData::Indexed(px) => out.extend_from_slice(px),
                SkinData::Rgb565(px) => px
                    .iter()
                    .for_each(|p| out.extend_from_slice(&p.to_le_bytes())),
            }
        }
        for uv in &self.skin_vertices {
            out.extend_from_slice(&uv[0].to_le_bytes());
            out.extend_from_slice(&uv[1].to_le_bytes());
        }
        for &(v, t) in &self.triangles {
            // The spec is in the `Model` convention; the file in GameStudio's (`crate::facing`).
            let (v, t) = Triangle::from_u16(v, t).to_file();
            for i in v.iter().chain(&t) {
                out.extend_from_slice(&(*i as u16).to_le_bytes());
            }
        }
        for f in &self.frames {
            put_i32(&mut out, 2);
            let (lo, hi) = f.positions.iter().fold(
                (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
                |(lo, hi), &p| (lo.min(p), hi.max(p)),
            );
            let (lo, hi) = if lo.is_finite() {
                (lo, hi)
            } else {
                (Vec3::ZERO, Vec3::ZERO)
            };
            put_vertex(&mut out, packing.pack(lo), 0);
            put_vertex(&mut out, packing.pack(hi), 0);
            let mut name = [0u8; 16];
            let bytes = f.name.as_bytes();
            let n = bytes.len().min(15);
            name[..n].copy_from_slice(&bytes[..n]);
            out.extend_from_slice(&name);
            for (i, p) in f.positions.iter().enumerate() {
                // GameStudio stores normals pointing into the mesh (`crate::facing`).
                let n = f.normals.get(i).copied().unwrap_or(Vec3::Z);
                put_vertex(&mut out, packing.pack(*p), nearest_normal_index(-n));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdl::MdlFile;
    use crate::model::SkinPixels;

    fn quad() -> MdlSpec {
        let positions = vec![
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.5),
            Vec3::new(-1.0, 1.0, 0.5),
        ];
        let lifted: Vec<Vec3> = positions.iter().map(|p| *p + Vec3::Z).collect();
        MdlSpec {
            skins: vec![SkinSpec {
                width: 4,
                height: 2,
                data: SkinData::Indexed((0..8).collect()),
            }],
            skin_vertices: vec![[0, 0], [4, 0], [4, 2], [0, 2]],
            triangles: vec![([0, 1, 2], [0, 1, 2]), ([0, 2, 3], [0, 2, 3])],
            frames: vec![
                FrameSpec {
                    name: "stand1".into(),
                    positions,
                    normals: vec![Vec3::Z; 4],
                },
                FrameSpec {
                    name: "lift2".into(),
                    positions: lifted,
                    normals: vec![Vec3::Z; 4],
                },
            ],
        }
    }

    #[test]
    fn round_trips_through_the_decoder() {
        let spec = quad();
        let file = MdlFile::parse(&spec.encode()).unwrap();
        let m = &file.model;
        assert_eq!(m.frames.len(), 2);
        assert_eq!(m.frames[1].name, "lift2");
        assert_eq!(m.triangles.len(), 2);
        assert_eq!(m.triangles[1].vertices, [0, 2, 3]);
        assert_eq!(m.skins[0].pixels, SkinPixels::Indexed((0..8).collect()));
        for (f, s) in m.frames.iter().zip(&spec.frames) {
            for (a, b) in f.positions.iter().zip(&s.positions) {
                assert!((*a - *b).length() < 1e-3, "{a} vs {b}");
            }
            assert!(f.normals.iter().all(|n| n.z > 0.99));
        }
        assert_eq!(m.uvs[2].to_array(), [1.0, 1.0]);
    }

    #[test]
    fn nearest_normal_finds_table_entries() {
        for (i, n) in mdl_normals().iter().enumerate() {
            assert_eq!(nearest_normal_index(Vec3::from_array(*n)) as usize, i);
        }
    }
}
