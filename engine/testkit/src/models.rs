//! Models built in code for the rasterizer's tests and benches, one copy of each builder.
//!
//! - Skins: [`skin`] from any stored pixels (decoded through the Quake palette, as the loaders do),
//!   [`indexed_skin`], the [`checker_skin`] tests read orientation from, the blocky [`noise_skin`]
//!   the benches texture with.
//! - Meshes: [`frame`] and [`model`] to assemble one by hand; [`quad`] / [`quads`] facing a camera
//!   that looks along +Y, a [`floor`] in the XY plane, a UV [`sphere`] and [`small_triangles`]
//!   scattered over the view.
//! - Files: [`synthetic_mdl5`], an MDL5 of the shape of the big samples, for loader benches on a
//!   machine without the samples.
//!
//! Everything is deterministic: random scenes take a seed for the engine's [`Rng`].
//!
//! Conventions are the rasterizer's: Z up, front faces counter-clockwise as seen by the camera,
//! UV (0, 0) at a face's top-left as seen from the front.

use glam::{Vec2, Vec3};
use modex::{Palette, Rng};
use modex_mdl::mdl_encode::{FrameSpec, MdlSpec, SkinData, SkinSpec};
use modex_mdl::normals::mdl_normals;
use modex_mdl::{Frame, Model, Skin, SkinPixels, Triangle};

/// A `width` x `height` skin of `pixels`, with the skin type of its pixel format and its RGBA
/// decoded (8-bit indices through the Quake palette).
pub fn skin(width: usize, height: usize, pixels: SkinPixels) -> Skin {
    let kind = match &pixels {
        SkinPixels::Indexed(_) => 0,
        SkinPixels::Rgb565(_) | SkinPixels::RgbaBlackKey => 2,
        SkinPixels::Argb4444(_) => 3,
        SkinPixels::Rgb888(_) => 4,
        SkinPixels::Argb8888(_) | SkinPixels::Rgba => 5,
        SkinPixels::Dds(_) => 6,
        SkinPixels::External(_) => 7,
    };
    let mut s = Skin {
        kind,
        has_mipmaps: false,
        width,
        height,
        pixels,
        rgba: Default::default(),
    };
    s.rgba = s.rgba_with_palette(&Palette::quake());
    s
}

/// A `width` x `height` 8-bit skin of palette indices `idx` (row-major, top row first).
pub fn indexed_skin(width: usize, height: usize, idx: Vec<u8>) -> Skin {
    skin(width, height, SkinPixels::Indexed(idx.into()))
}

/// A `width` x `height` 8-bit checkerboard of `cell`-texel squares alternating indices `a` (top-left)
/// and `b`.
pub fn checker_skin(width: usize, height: usize, cell: usize, a: u8, b: u8) -> Skin {
    let idx = (0..width * height)
        .map(|i| {
            let (x, y) = (i % width, i / width);
            if (x / cell + y / cell) % 2 == 0 {
                a
            } else {
                b
            }
        })
        .collect();
    indexed_skin(width, height, idx)
}

/// A `size` x `size` 8-bit skin of blocky noise (an 8 x 8 grid of random colours, each texel
/// varied a little), so texels are visible but not one flat colour.
pub fn noise_skin(size: usize, seed: u64) -> Skin {
    let mut rng = Rng::new(seed);
    let cells: Vec<u8> = (0..64).map(|_| (rng.below(200) + 16) as u8).collect();
    let idx = (0..size * size)
        .map(|i| {
            let (x, y) = (i % size, i / size);
            cells[(y * 8 / size) * 8 + x * 8 / size].wrapping_add(rng.below(6) as u8)
        })
        .collect();
    indexed_skin(size, size, idx)
}

/// A frame named `name` with its bounding box computed.
pub fn frame(name: &str, positions: Vec<Vec3>, normals: Vec<Vec3>) -> Frame {
    let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
    Frame {
        name: name.into(),
        positions,
        normals,
        normal_indices: None,
        bbox_min,
        bbox_max,
    }
}

/// A one-frame model with one skin.
pub fn model(frame: Frame, uvs: Vec<Vec2>, triangles: Vec<Triangle>, skin: Skin) -> Model {
    Model {
        frames: vec![frame],
        uvs,
        triangles,
        skins: vec![skin],
    }
}

/// A mesh being built: one UV per vertex, triangles index both alike.
#[derive(Default)]
struct Mesh {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
    triangles: Vec<Triangle>,
}

impl Mesh {
    fn vertex(&mut self, p: Vec3, n: Vec3, uv: Vec2) -> u32 {
        self.positions.push(p);
        self.normals.push(n);
        self.uvs.push(uv);
        self.positions.len() as u32 - 1
    }

    fn triangle(&mut self, vertices: [u32; 3]) {
        self.triangles.push(Triangle {
            vertices,
            uvs: vertices,
        });
    }

    /// A rectangle of corners top-left, top-right, bottom-right, bottom-left as seen from its front
    /// (counter-clockwise there), the texture repeated `repeat` times each way.
    fn rect(&mut self, corners: [Vec3; 4], normal: Vec3, repeat: f32) {
        let uv = [(0.0, 0.0), (repeat, 0.0), (repeat, repeat), (0.0, repeat)];
        let v: Vec<u32> = corners
            .iter()
            .zip(uv)
            .map(|(&p, (u, v))| self.vertex(p, normal, Vec2::new(u, v)))
            .collect();
        self.triangle([v[3], v[2], v[1]]);
        self.triangle([v[3], v[1], v[0]]);
    }

    fn into_model(self, name: &str, skin: Skin) -> Model {
        model(
            frame(name, self.positions, self.normals),
            self.uvs,
            self.triangles,
            skin,
        )
    }
}

/// A rectangle in the XZ plane facing -Y (a camera on the -Y side looking along +Y sees its front).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quad {
    /// Where it stands on the Y axis.
    pub y: f32,
    /// Half its extent along X.
    pub half_x: f32,
    /// Half its extent along Z.
    pub half_z: f32,
    /// How many times the texture repeats across it, each way.
    pub repeat: f32,
}

impl Quad {
    /// A square of `-half..half` in X and Z at `y`, the texture once across it.
    pub fn square(y: f32, half: f32) -> Quad {
        Quad {
            y,
            half_x: half,
            half_z: half,
            repeat: 1.0,
        }
    }
}

/// The quads of `list` in one model, in that order (two triangles each).
pub fn quads(list: &[Quad], skin: Skin) -> Model {
    let mut m = Mesh::default();
    for q in list {
        let (x, z) = (q.half_x, q.half_z);
        m.rect(
            [
                Vec3::new(-x, q.y, z),
                Vec3::new(x, q.y, z),
                Vec3::new(x, q.y, -z),
                Vec3::new(-x, q.y, -z),
            ],
            -Vec3::Y,
            q.repeat,
        );
    }
    m.into_model("quads", skin)
}

/// One [`Quad::square`]: `-half..half` in X and Z at `y`, facing -Y, UV (0, 0) at its top-left.
pub fn quad(y: f32, half: f32, skin: Skin) -> Model {
    quads(&[Quad::square(y, half)], skin)
}

/// A square floor of `-half..half` in X and Y at height `z`, facing up, the texture repeated
/// `repeat` times each way; UV (0, 0) at its far left corner (-X, +Y).
pub fn floor(z: f32, half: f32, repeat: f32, skin: Skin) -> Model {
    let h = half;
    let mut m = Mesh::default();
    m.rect(
        [
            Vec3::new(-h, h, z),
            Vec3::new(h, h, z),
            Vec3::new(h, -h, z),
            Vec3::new(-h, -h, z),
        ],
        Vec3::Z,
        repeat,
    );
    m.into_model("floor", skin)
}

/// A UV sphere of radius `r` around the origin, `rings` x `segments` quads, outward faces, unit
/// vertex normals; the texture wraps `uv_repeat.x` times around and `uv_repeat.y` times pole to
/// pole.
pub fn sphere(r: f32, rings: usize, segments: usize, uv_repeat: Vec2, skin: Skin) -> Model {
    let mut m = Mesh::default();
    for i in 0..=rings {
        let theta = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..=segments {
            let phi = std::f32::consts::TAU * j as f32 / segments as f32;
            let n = Vec3::new(
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            );
            let uv = Vec2::new(j as f32 / segments as f32, i as f32 / rings as f32);
            m.vertex(n * r, n, uv * uv_repeat);
        }
    }
    let idx = |i: usize, j: usize| (i * (segments + 1) + j) as u32;
    for i in 0..rings {
        for j in 0..segments {
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            m.triangle([a, b, c]);
            m.triangle([a, c, d]);
        }
    }
    m.into_model("sphere", skin)
}

/// `count` small random triangles (sides 0.03..0.06) facing -Y, spread over `-5.5..5.5` in X,
/// `9..11` in Y and `-3..3` in Z: the view of a 60-degree camera at the origin looking along +Y.
pub fn small_triangles(count: usize, seed: u64, skin: Skin) -> Model {
    let mut rng = Rng::new(seed);
    let mut m = Mesh::default();
    for _ in 0..count {
        let c = Vec3::new(
            rng.range(-5.5, 5.5),
            rng.range(9.0, 11.0),
            rng.range(-3.0, 3.0),
        );
        let s = rng.range(0.03, 0.06);
        let uv = Vec2::new(rng.unit(), rng.unit());
        // Counter-clockwise as seen from -Y.
        let a = m.vertex(c, -Vec3::Y, uv);
        m.vertex(
            c + Vec3::new(s, 0.0, 0.0),
            -Vec3::Y,
            uv + Vec2::new(0.05, 0.0),
        );
        m.vertex(
            c + Vec3::new(0.0, 0.0, s),
            -Vec3::Y,
            uv + Vec2::new(0.0, -0.05),
        );
        m.triangle([a, a + 1, a + 2]);
    }
    m.into_model("small triangles", skin)
}

/// An MDL5 file of the shape of the large samples, written by [`MdlSpec`]: one 1024 x 1024 565
/// skin, 500 vertices, 1000 triangles and 100 word-packed frames (about 2.5 MB).
pub fn synthetic_mdl5() -> Vec<u8> {
    let (w, h, nv, nt, nf) = (1024usize, 1024usize, 500usize, 1000usize, 100usize);
    let table = mdl_normals();
    let frames = (0..nf)
        .map(|f| FrameSpec {
            name: format!("frame{f}"),
            positions: (0..nv)
                .map(|i| {
                    let c = |k: usize| ((i * 97 + k * 31 + f * 5) % 65536) as f32 * 0.001 - 32.0;
                    Vec3::new(c(0), c(1), c(2))
                })
                .collect(),
            normals: (0..nv)
                .map(|i| Vec3::from(table[i % table.len()]))
                .collect(),
        })
        .collect();
    let tri = |i: usize, first: usize| [0, 1, 2].map(|k| ((i + first + k) % nv) as u16);
    MdlSpec {
        skins: vec![SkinSpec {
            width: w as u32,
            height: h as u32,
            data: SkinData::Rgb565((0..w * h).map(|i| (i * 31) as u16).collect()),
        }],
        skin_vertices: (0..nv)
            .map(|i| [(i * 7 % w) as i16, (i * 13 % h) as i16])
            .collect(),
        triangles: (0..nt).map(|i| (tri(i, 0), tri(i, 3))).collect(),
        frames,
    }
    .encode()
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_mdl::mdl::MdlFile;

    #[test]
    fn builders_make_consistent_models() {
        let skin = checker_skin(4, 4, 2, 1, 2);
        assert_eq!(skin.rgba.len(), 4 * 4 * 4);
        let models = [
            quad(0.0, 1.0, skin.clone()),
            quads(
                &[Quad::square(1.0, 1.0), Quad::square(2.0, 3.0)],
                skin.clone(),
            ),
            floor(-1.0, 6.0, 2.0, skin.clone()),
            sphere(1.0, 4, 8, Vec2::ONE, skin.clone()),
            small_triangles(10, 3, noise_skin(16, 1)),
        ];
        for m in &models {
            let nv = m.vertex_count();
            assert_eq!(m.frames[0].normals.len(), nv);
            assert_eq!(m.uvs.len(), nv);
            for t in &m.triangles {
                assert!(t.vertices.iter().all(|&v| (v as usize) < nv));
            }
        }
        assert_eq!(models[1].triangles.len(), 4);
        assert_eq!(models[3].triangles.len(), 4 * 8 * 2);
        assert_eq!(models[2].frames[0].bbox_max, Vec3::new(6.0, 6.0, -1.0));
    }

    #[test]
    fn synthetic_mdl5_loads() {
        let file = MdlFile::parse(&synthetic_mdl5()).unwrap();
        assert_eq!(file.model.frames.len(), 100);
        assert_eq!(file.model.triangles.len(), 1000);
        assert_eq!(
            (file.model.skins[0].width, file.model.skins[0].height),
            (1024, 1024)
        );
    }
}
