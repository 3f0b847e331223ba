//! The decoded file as the rasterizer's [`Model`]: pre-light colours baked into a generated skin.
//!
//! The rasterizer draws a textured, lit [`Model`] and has no vertex colours, and the real textures
//! live in separate archives. So the picture the issue asks for ("lit by its pre-light colours,
//! textures replaced by a per-material colour") is made within the existing contract:
//!
//! * Each triangle gets its own `k × k` texel cell of one generated RGB skin, painted with the
//!   barycentric blend of its three corners' colours; the triangle's UVs point at the texel centres
//!   of three of the cell's corners, so the rasterizer's nearest-texel sampling reads colours from
//!   inside the cell only. `k` is [`CELL_MAX`] for small models and shrinks (to 1: one flat texel per
//!   triangle) so the skin stays within [`SKIN_MAX`] texels a side where it can.
//! * A corner's colour is its pre-light colour (white without pre-light) times the material colour
//!   ([`material_colour`]).
//! * Normals are the file's (normalised) where the geometry has them, else the area-weighted
//!   average of the faces around each vertex, so diffuse light still has something to work with.
//!
//! All atomics go into one frame in the file's coordinates (the node hierarchy is not read).

use glam::{Vec2, Vec3};

use crate::model::{Frame, Model, Skin, SkinPixels, Triangle};

use super::{Material, StoriesModel};

/// Largest texel cell per triangle.
pub const CELL_MAX: usize = 32;
/// Smallest cell: one texel, the triangle's average colour.
pub const CELL_MIN: usize = 1;
/// The skin's side is kept at or below this when cells of [`CELL_MIN`] allow it.
pub const SKIN_MAX: usize = 1024;

/// The colour standing in for a material's texture: the material colour, times a light colour
/// derived from the texture name (FNV-1a hash, each channel in 128..=255), so materials with
/// different textures differ even when their colours are all white, as they usually are.
pub fn material_colour(material: &Material) -> [u8; 3] {
    let [r, g, b, _] = material.colour;
    let tint = match &material.texture {
        Some(name) => {
            let mut h: u32 = 0x811C_9DC5;
            for byte in name.bytes() {
                h = (h ^ byte as u32).wrapping_mul(0x0100_0193);
            }
            let c = h.to_le_bytes();
            [128 | c[0] >> 1, 128 | c[1] >> 1, 128 | c[2] >> 1]
        }
        None => [255, 255, 255],
    };
    let mul = |a: u8, b: u8| ((a as u32 * b as u32 + 127) / 255) as u8;
    [mul(r, tint[0]), mul(g, tint[1]), mul(b, tint[2])]
}

/// One triangle to paint: global vertex indices and the corners' colours.
struct Painted {
    vertices: [u32; 3],
    colours: [[f32; 3]; 3],
}

impl StoriesModel {
    /// The model the rasterizer draws (see the module docs of `draw` for the baking rule).
    pub fn to_model(&self) -> Model {
        let mut positions = Vec::with_capacity(self.vertex_count());
        let mut normals: Vec<Option<Vec3>> = Vec::with_capacity(self.vertex_count());
        let mut painted = Vec::with_capacity(self.triangle_count());
        for atomic in &self.atomics {
            let g = &atomic.geometry;
            for mesh in &g.meshes {
                let base = positions.len() as u32;
                let material = g
                    .materials
                    .get(mesh.material)
                    .map_or([255; 3], material_colour);
                let colour_of = |v: &super::Vertex| {
                    let p = v.prelight.unwrap_or([255; 4]);
                    [0, 1, 2].map(|c| p[c] as f32 * material[c] as f32 / (255.0 * 255.0))
                };
                for v in &mesh.vertices {
                    positions.push(v.position);
                    normals.push(v.normal.map(|n| n.normalize_or(Vec3::Z)));
                }
                for t in &mesh.triangles {
                    painted.push(Painted {
                        vertices: t.map(|i| base + i),
                        colours: t.map(|i| colour_of(&mesh.vertices[i as usize])),
                    });
                }
            }
        }
        let normals = fill_normals(&positions, normals, &painted);
        let (skin, uvs, triangles) = bake(&painted);
        let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
        Model {
            frames: vec![Frame {
                name: "mdl".into(),
                positions,
                normals,
                normal_indices: None,
                bbox_min,
                bbox_max,
            }],
            uvs,
            triangles,
            skins: skin.into_iter().collect(),
        }
    }
}

/// The file's normals where present, the area-weighted face normals elsewhere.
fn fill_normals(positions: &[Vec3], normals: Vec<Option<Vec3>>, tris: &[Painted]) -> Vec<Vec3> {
    let mut sums = vec![Vec3::ZERO; positions.len()];
    for t in tris {
        let [a, b, c] = t.vertices.map(|i| positions[i as usize]);
        let n = (b - a).cross(c - a);
        if n.is_finite() {
            for &i in &t.vertices {
                sums[i as usize] += n;
            }
        }
    }
    normals
        .into_iter()
        .zip(sums)
        .map(|(n, s)| n.unwrap_or_else(|| s.normalize_or(Vec3::Z)))
        .collect()
}

/// The baked skin, three UVs per triangle and the triangles using them.
fn bake(tris: &[Painted]) -> (Option<Skin>, Vec<Vec2>, Vec<Triangle>) {
    if tris.is_empty() {
        return (None, Vec::new(), Vec::new());
    }
    let n = tris.len();
    let cols = (n as f64).sqrt().ceil() as usize;
    let rows = n.div_ceil(cols);
    let k = (SKIN_MAX / cols).clamp(CELL_MIN, CELL_MAX);
    let (width, height) = (cols * k, rows * k);
    let mut rgb = vec![[0u8; 3]; width * height];
    let mut uvs = Vec::with_capacity(3 * n);
    let mut triangles = Vec::with_capacity(n);
    let size = Vec2::new(width as f32, height as f32);
    for (t, tri) in tris.iter().enumerate() {
        let (x0, y0) = ((t % cols) * k, (t / cols) * k);
        // Texel centres of the cell's top-left, top-right and bottom-left texels.
        let far = k as f32 - 0.5;
        let corners = [(0.5, 0.5), (far, 0.5), (0.5, far)];
        for (cx, cy) in corners {
            uvs.push(Vec2::new(x0 as f32 + cx, y0 as f32 + cy) / size);
        }
        let [ca, cb, cc] = tri.colours;
        for j in 0..k {
            for i in 0..k {
                let (mut wb, mut wc) = if k == 1 {
                    (1.0 / 3.0, 1.0 / 3.0)
                } else {
                    (i as f32 / (k - 1) as f32, j as f32 / (k - 1) as f32)
                };
                // Texels past the triangle's long edge take the colour of the nearest edge point.
                if wb + wc > 1.0 {
                    let s = wb + wc;
                    wb /= s;
                    wc /= s;
                }
                let wa = 1.0 - wb - wc;
                let texel = [0, 1, 2].map(|c| {
                    let v = wa * ca[c] + wb * cb[c] + wc * cc[c];
                    (v * 255.0).round().clamp(0.0, 255.0) as u8
                });
                rgb[(y0 + j) * width + x0 + i] = texel;
            }
        }
        let first = 3 * t as u32;
        triangles.push(Triangle {
            vertices: tri.vertices,
            uvs: [first, first + 1, first + 2],
        });
    }
    let rgba = rgb.iter().map(|&[r, g, b]| [r, g, b, 255]).collect();
    let skin = Skin {
        kind: 4,
        has_mipmaps: false,
        width,
        height,
        pixels: SkinPixels::Rgb888(rgb.into()),
        rgba,
    };
    (Some(skin), uvs, triangles)
}
