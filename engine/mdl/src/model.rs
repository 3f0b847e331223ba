//! The decoded, renderer-ready model: what the MDL and HMP decoders produce and the rasterizer draws.
//!
//! Decoders fill a [`Model`]; they never render. The rasterizer reads a [`Model`]; it never parses.
//! Positions are final (scale and offset applied), normals are unit vectors (MDL normal indices are
//! kept too, because lighting through the 162-entry table is done per index), UVs are normalised by
//! the skin size, and triangles keep the file's order, counter-clockwise seen from the front, with
//! normals pointing out: the decoders turn each file's convention into this one ([`crate::facing`]).

use std::sync::Arc;

use glam::{Vec2, Vec3};

use crate::texels::Rgba8;

/// One animation frame (or the single height frame of a terrain).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Frame name as stored in the file (decoded lossily; text after the NUL dropped).
    pub name: String,
    /// One position per model vertex.
    pub positions: Vec<Vec3>,
    /// One unit normal per model vertex.
    pub normals: Vec<Vec3>,
    /// MDL normal table indices (0..=161, clamped), when the format stores indices.
    pub normal_indices: Option<Vec<u8>>,
    /// Bounding box of `positions`: lowest corner.
    pub bbox_min: Vec3,
    /// Highest corner of the bounding box.
    pub bbox_max: Vec3,
}

impl Frame {
    /// The axis-aligned box around `positions` (zero box when there are none).
    pub fn compute_bbox(positions: &[Vec3]) -> (Vec3, Vec3) {
        if positions.is_empty() {
            return (Vec3::ZERO, Vec3::ZERO);
        }
        positions.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        )
    }
}

/// A triangle: three model vertices and three UV (skin vertex) indices, counter-clockwise seen from
/// its front ([`crate::facing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Triangle {
    /// Indices into each frame's vertices.
    pub vertices: [u32; 3],
    /// Indices into [`Model::uvs`].
    pub uvs: [u32; 3],
}

/// A skin's pixels as stored in the file. Shared, not copied, when a skin is cloned: the parts of
/// an MDL7 (one `Model` per group and skin) each carry their skins, and a level holds hundreds
/// of such parts (issue 40's memory target).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkinPixels {
    /// Type 0: palette indices (the level palette, Quake 1 palette by default).
    Indexed(Arc<[u8]>),
    /// Type 2: RGB 565 words.
    Rgb565(Arc<[u16]>),
    /// Type 3: ARGB 4444 words.
    Argb4444(Arc<[u16]>),
    /// Type 4: RGB 888, converted from the stored B G R order to R G B.
    Rgb888(Arc<[[u8; 3]]>),
    /// Type 5: ARGB 8888, converted from the stored B G R A order to R G B A.
    Argb8888(Arc<[[u8; 4]]>),
    /// Type 6: an embedded DDS file, kept as bytes (not decoded).
    Dds(Arc<[u8]>),
    /// HMP/MDL7-style external texture reference (the file name), not loaded.
    External(String),
    /// Texels held only as the skin's [`Skin::rgba`]: an external image file once found and
    /// decoded, or a picture modex made (a level's surface pages). There is no stored form to
    /// keep, so the texels are kept once (a large level's image skins are tens of millions of
    /// texels). Keys: only the alpha test cuts (an all-zero texel has alpha 0, so it is cut too).
    /// Also a 4444 or 8888 skin whose stored copy was dropped ([`Skin::drop_stored`]): their
    /// overlay key, the all-zero texel, is one the alpha test cuts anyway.
    Rgba,
    /// A 565 or 888 skin whose stored copy was dropped ([`Skin::drop_stored`]), held only as its
    /// [`Skin::rgba`]: its overlay key, the stored value 0, is the RGBA texel of RGB 0 (no other
    /// stored value decodes to black).
    RgbaBlackKey,
}

/// A skin: the original pixels plus an RGBA8 decoding of the top mipmap level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skin {
    /// Skin type as in the file (0, 2, 3, 4, 5, 6, ...), without the mipmap flag.
    pub kind: u32,
    /// Whether mipmap levels followed the image in the file (type + 8).
    pub has_mipmaps: bool,
    /// Width in pixels (for DDS skins, from the DDS header).
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// The pixels as stored.
    pub pixels: SkinPixels,
    /// `width * height * 4` bytes, top row first; empty for external skins and for DDS skins of a kind
    /// the decoder does not read (DXT1/3/5 are decoded). Held once: the renderer's prepared texture
    /// shares these texels instead of copying them ([`Rgba8`]).
    pub rgba: Rgba8,
}

/// A model ready to draw: frames of vertices, UVs, triangles and skins.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Animation frames (a terrain has one height frame), all with the same vertex count.
    pub frames: Vec<Frame>,
    /// Normalised texture coordinates (see the decoder for the exact rule).
    pub uvs: Vec<Vec2>,
    /// Triangles in file order.
    pub triangles: Vec<Triangle>,
    /// Skins; the renderer's entity (`modex_raster::Entity::skin`) picks one.
    pub skins: Vec<Skin>,
}

impl Model {
    /// Number of vertices per frame.
    pub fn vertex_count(&self) -> usize {
        self.frames.first().map_or(0, |f| f.positions.len())
    }

    /// Whether the model keeps the invariants the renderer indexes by: every frame has one position
    /// and one normal per vertex, every triangle corner names an existing vertex and UV, every
    /// decoded skin holds `width * height` RGBA pixels. The decoders guarantee this for any input;
    /// the fuzz targets and property tests hold them to it through this one check.
    pub fn check(&self) -> Result<(), ModelDefect> {
        let vertices = self.vertex_count();
        for (frame, f) in self.frames.iter().enumerate() {
            if f.positions.len() != vertices || f.normals.len() != vertices {
                return Err(ModelDefect::FrameSize {
                    frame,
                    positions: f.positions.len(),
                    normals: f.normals.len(),
                    vertices,
                });
            }
        }
        for (triangle, t) in self.triangles.iter().enumerate() {
            for corner in 0..3 {
                let (index, uv) = (t.vertices[corner] as usize, t.uvs[corner] as usize);
                if index >= vertices {
                    return Err(ModelDefect::Vertex {
                        triangle,
                        corner,
                        index,
                        vertices,
                    });
                }
                if uv >= self.uvs.len() {
                    return Err(ModelDefect::Uv {
                        triangle,
                        corner,
                        index: uv,
                        uvs: self.uvs.len(),
                    });
                }
            }
        }
        for (skin, k) in self.skins.iter().enumerate() {
            if !k.rgba.is_empty() && k.rgba.len() != k.width * k.height * 4 {
                return Err(ModelDefect::SkinSize {
                    skin,
                    len: k.rgba.len(),
                    width: k.width,
                    height: k.height,
                });
            }
        }
        Ok(())
    }
}

/// How a [`Model`] breaks an invariant ([`Model::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelDefect {
    /// A frame's vertex arrays differ from the model's vertex count.
    #[error(
        "frame {frame} has {positions} positions and {normals} normals for {vertices} vertices"
    )]
    FrameSize {
        /// The frame.
        frame: usize,
        /// Its positions.
        positions: usize,
        /// Its normals.
        normals: usize,
        /// The model's vertex count.
        vertices: usize,
    },
    /// A triangle corner names a vertex that does not exist.
    #[error("triangle {triangle} corner {corner} uses vertex {index} of {vertices}")]
    Vertex {
        /// The triangle.
        triangle: usize,
        /// Its corner (0..3).
        corner: usize,
        /// The vertex it names.
        index: usize,
        /// The model's vertex count.
        vertices: usize,
    },
    /// A triangle corner names a UV that does not exist.
    #[error("triangle {triangle} corner {corner} uses UV {index} of {uvs}")]
    Uv {
        /// The triangle.
        triangle: usize,
        /// Its corner (0..3).
        corner: usize,
        /// The UV it names.
        index: usize,
        /// The model's UV count.
        uvs: usize,
    },
    /// A decoded skin's RGBA pixels do not fill its size.
    #[error("skin {skin} holds {len} RGBA bytes for {width}x{height}")]
    SkinSize {
        /// The skin.
        skin: usize,
        /// RGBA bytes held.
        len: usize,
        /// Its width.
        width: usize,
        /// Its height.
        height: usize,
    },
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn check_names_the_broken_part() {
        let mut m = Model {
            frames: vec![Frame {
                name: "f".into(),
                positions: vec![Vec3::ZERO; 3],
                normals: vec![Vec3::Z; 3],
                normal_indices: None,
                bbox_min: Vec3::ZERO,
                bbox_max: Vec3::ZERO,
            }],
            uvs: vec![Vec2::ZERO; 3],
            triangles: vec![Triangle {
                vertices: [0, 1, 2],
                uvs: [0, 1, 2],
            }],
            skins: Vec::new(),
        };
        assert_eq!(m.check(), Ok(()));
        m.triangles[0].vertices[2] = 3;
        assert!(matches!(
            m.check(),
            Err(ModelDefect::Vertex {
                corner: 2,
                index: 3,
                ..
            })
        ));
        m.triangles[0].vertices[2] = 2;
        m.uvs.pop();
        assert!(matches!(
            m.check(),
            Err(ModelDefect::Uv {
                index: 2,
                uvs: 2,
                ..
            })
        ));
        m.uvs.push(Vec2::ZERO);
        m.frames[0].normals.pop();
        let e = m.check().unwrap_err();
        assert_eq!(
            e.to_string(),
            "frame 0 has 3 positions and 2 normals for 3 vertices"
        );
    }
}
