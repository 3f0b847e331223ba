//! Meshes built in code for the rasterizer tests (shared by the `raster_*` test files).
#![allow(dead_code)]

use glam::{Vec2, Vec3};
use modex_raster::{Frame, Model, Skin, SkinPixels, Triangle};

/// A `w` x `h` 8-bit checkerboard skin of `cell`-texel squares alternating indices `a` and `b`,
/// with a distinct index per texel column in the top row (so orientation is testable).
pub fn checker_skin(w: usize, h: usize, cell: usize, a: u8, b: u8) -> Skin {
    let mut idx = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            idx[y * w + x] = if (x / cell + y / cell) % 2 == 0 { a } else { b };
        }
    }
    indexed_skin(w, h, idx)
}

pub fn indexed_skin(w: usize, h: usize, idx: Vec<u8>) -> Skin {
    let pal = modex::Palette::quake();
    let rgba = idx.iter().flat_map(|&i| pal.rgba(i)).collect();
    Skin {
        kind: 0,
        has_mipmaps: false,
        width: w,
        height: h,
        pixels: SkinPixels::Indexed(idx),
        rgba,
    }
}

pub fn rgb565_skin(w: usize, h: usize, px: Vec<u16>) -> Skin {
    use modex::Pixel;
    let rgba = px
        .iter()
        .flat_map(|&p| modex::Rgb565(p).to_rgba())
        .collect();
    Skin {
        kind: 2,
        has_mipmaps: false,
        width: w,
        height: h,
        pixels: SkinPixels::Rgb565(px),
        rgba,
    }
}

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

/// An axis-aligned square in the XZ plane at y = `y`, facing -Y (towards a camera at -Y), spanning
/// `-half..half` in X and Z, with UV (0,0) at the top-left as seen from the camera.
pub fn quad(y: f32, half: f32, skin: Skin) -> Model {
    let positions = vec![
        Vec3::new(-half, y, half),
        Vec3::new(half, y, half),
        Vec3::new(half, y, -half),
        Vec3::new(-half, y, -half),
    ];
    let normals = vec![-Vec3::Y; 4];
    let uvs = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ];
    // Counter-clockwise seen from -Y (X right, Z up): 3 -> 2 -> 1 and 3 -> 1 -> 0.
    let triangles = vec![
        Triangle {
            vertices: [3, 2, 1],
            uvs: [3, 2, 1],
        },
        Triangle {
            vertices: [3, 1, 0],
            uvs: [3, 1, 0],
        },
    ];
    Model {
        frames: vec![frame("quad", positions, normals)],
        uvs,
        triangles,
        skins: vec![skin],
    }
}

/// A UV sphere of `rings` x `segments`, radius `r`, outward CCW faces, vertex normals, UVs wrapping
/// once around.
pub fn sphere(r: f32, rings: usize, segments: usize, skin: Skin) -> Model {
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut uvs = Vec::new();
    for i in 0..=rings {
        let theta = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..=segments {
            let phi = std::f32::consts::TAU * j as f32 / segments as f32;
            let n = Vec3::new(
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            );
            positions.push(n * r);
            normals.push(n);
            uvs.push(Vec2::new(
                j as f32 / segments as f32,
                i as f32 / rings as f32,
            ));
        }
    }
    let mut triangles = Vec::new();
    let idx = |i: usize, j: usize| (i * (segments + 1) + j) as u32;
    for i in 0..rings {
        for j in 0..segments {
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            triangles.push(Triangle {
                vertices: [a, b, c],
                uvs: [a, b, c],
            });
            triangles.push(Triangle {
                vertices: [a, c, d],
                uvs: [a, c, d],
            });
        }
    }
    Model {
        frames: vec![frame("sphere", positions, normals)],
        uvs,
        triangles,
        skins: vec![skin],
    }
}
