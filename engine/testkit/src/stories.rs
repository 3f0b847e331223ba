//! GTA Stories models the project builds itself, standing in for the game files nobody may publish:
//! the tests and the CLI checks share them, written by `modex_mdl::stories_mdl_encode`
//! (`cargo run -p modex-testkit --example make_stories_samples DIR` writes them as files).
//!
//! Every model is Z-up with its strips' triangle 0 counter-clockwise seen from outside, and carries
//! pre-light colours that vary across it, so a render shows whether colours land where they belong.

use glam::{Vec2, Vec3};

use modex_mdl::stories_mdl::{BoneWeight, Material, SkinInfo, Vertex};
use modex_mdl::stories_mdl_encode::{AtomicSpec, MeshSpec, StoriesSpec};

/// A material with a texture name and a colour.
pub fn material(texture: &str, colour: [u8; 4]) -> Material {
    Material {
        texture: Some(texture.to_owned()),
        colour,
        matfx: None,
    }
}

fn vertex(position: Vec3, uv: Vec2, normal: Vec3, prelight: [u8; 4]) -> Vertex {
    Vertex {
        position,
        uv,
        normal: Some(normal),
        prelight: Some(prelight),
        weights: None,
    }
}

/// A bone influence as the file stores it: a zero weight has bone 0.
pub fn weight(bone: u8, weight: f32) -> BoneWeight {
    BoneWeight {
        bone: if weight == 0.0 { 0 } else { bone },
        weight,
    }
}

/// Join strips into one, repeating the last vertex of one and the first of the next so the joins
/// are degenerate triangles, and padding so each strip starts on an even index (its triangle 0
/// keeps its winding).
pub fn stitch(strips: &[Vec<Vertex>]) -> Vec<Vertex> {
    let mut out: Vec<Vertex> = Vec::new();
    for s in strips {
        if let (Some(&last), Some(&first)) = (out.last(), s.first()) {
            out.push(last);
            out.push(first);
            if out.len() % 2 == 1 {
                out.push(first);
            }
        }
        out.extend_from_slice(s);
    }
    out
}

/// The six faces of a cube of half-size `h` around `centre`, each a 4-vertex strip with its own
/// UVs, normal and pre-light colour, stitched into one strip (34 vertices, 12 triangles).
pub fn cube_strip(centre: Vec3, h: f32) -> Vec<Vertex> {
    let faces: [(Vec3, Vec3, [u8; 4]); 6] = [
        (Vec3::X, Vec3::Y, [255, 64, 64, 255]),
        (Vec3::NEG_X, Vec3::NEG_Y, [64, 255, 64, 255]),
        (Vec3::Y, Vec3::NEG_X, [64, 64, 255, 255]),
        (Vec3::NEG_Y, Vec3::X, [255, 255, 64, 255]),
        (Vec3::Z, Vec3::X, [255, 64, 255, 255]),
        (Vec3::NEG_Z, Vec3::X, [64, 255, 255, 255]),
    ];
    let strips: Vec<Vec<Vertex>> = faces
        .iter()
        .map(|&(n, u, colour)| {
            let v = n.cross(u);
            let corner = |a: f32, b: f32| {
                let p = centre + (n + u * a + v * b) * h;
                let uv = Vec2::new((a + 1.0) / 2.0, (1.0 - b) / 2.0);
                // Corners darker than the face centre colour, as baked light would be.
                let shade = if a > 0.0 && b > 0.0 { 1.0 } else { 0.7 };
                let c = colour.map(|x| (x as f32 * shade) as u8);
                vertex(p, uv, n, [c[0], c[1], c[2], 255])
            };
            vec![
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(-1.0, 1.0),
                corner(1.0, 1.0),
            ]
        })
        .collect();
    stitch(&strips)
}

/// A cylindrical band of `columns` vertex pairs (2 × `columns` strip vertices) around `centre`,
/// coloured by a gradient along it: long enough for several VIF batches.
pub fn band_strip(centre: Vec3, radius: f32, height: f32, columns: usize) -> Vec<Vertex> {
    let mut out = Vec::with_capacity(2 * columns);
    for k in 0..columns {
        let t = k as f32 / (columns.max(2) - 1) as f32;
        let a = t * std::f32::consts::TAU * 0.9;
        let dir = Vec3::new(a.cos(), a.sin(), 0.0);
        let c = [(255.0 * t) as u8, 80, (255.0 * (1.0 - t)) as u8, 255];
        for (z, v) in [(height, 0.0), (0.0, 1.0)] {
            out.push(vertex(
                centre + dir * radius + Vec3::Z * z,
                Vec2::new(t * 4.0, v),
                dir,
                c,
            ));
        }
    }
    out
}

/// A cube: one atomic, one material, one stitched strip.
pub fn cube() -> StoriesSpec {
    StoriesSpec {
        atomics: vec![AtomicSpec::new(
            vec![material("crate", [255, 255, 255, 255])],
            vec![MeshSpec::new(0, cube_strip(Vec3::ZERO, 1.0))],
        )],
    }
}

/// One mesh of 600 strip vertices, cut into batches of the writer's default size (10 batches).
pub fn long_band() -> StoriesSpec {
    StoriesSpec {
        atomics: vec![AtomicSpec::new(
            vec![material("fence", [255, 255, 255, 255])],
            vec![MeshSpec::new(0, band_strip(Vec3::ZERO, 2.0, 1.0, 300))],
        )],
    }
}

/// Two atomics with different materials: a cube (red-tinted) and a band around it (blue-tinted),
/// the band's geometry without normals.
pub fn two_atomics() -> StoriesSpec {
    let cube = AtomicSpec::new(
        vec![material("brick", [255, 120, 120, 255])],
        vec![MeshSpec::new(0, cube_strip(Vec3::new(0.0, 0.0, 1.0), 1.0))],
    );
    let mut band_verts = band_strip(Vec3::ZERO, 2.5, 0.6, 40);
    for v in &mut band_verts {
        v.normal = None;
    }
    let mut band = AtomicSpec::new(
        vec![material("glass", [120, 120, 255, 255])],
        vec![MeshSpec::new(0, band_verts)],
    );
    band.model_info_id = 7;
    StoriesSpec {
        atomics: vec![cube, band],
    }
}

/// A skinned height field of `n × n` vertices (3600 at the default 60): one mesh per row of cells,
/// rows alternating between two materials, two bones blending from one side to the other.
pub fn terrain(n: usize) -> StoriesSpec {
    let n = n.max(2);
    let height = |x: f32, y: f32| (x * 0.35).sin() * (y * 0.27).cos() * 1.5;
    let at = |i: usize, j: usize| {
        let (x, y) = (i as f32, j as f32);
        let z = height(x, y);
        let dx = height(x + 0.01, y) - z;
        let dy = height(x, y + 0.01) - z;
        let normal = Vec3::new(-dx / 0.01, -dy / 0.01, 1.0).normalize();
        let t = ((z + 1.5) / 3.0).clamp(0.0, 1.0);
        let c = [(60.0 + 195.0 * t) as u8, (200.0 - 80.0 * t) as u8, 60, 255];
        let s = i as f32 / (n - 1) as f32;
        Vertex {
            position: Vec3::new(x, y, z),
            uv: Vec2::new(x / 8.0, y / 8.0),
            normal: Some(normal),
            prelight: Some(c),
            weights: Some([
                weight(1, 1.0 - s),
                weight(2, s),
                weight(0, 0.0),
                weight(0, 0.0),
            ]),
        }
    };
    let meshes = (0..n - 1)
        .map(|j| {
            let strip = (0..n).flat_map(|i| [at(i, j + 1), at(i, j)]).collect();
            MeshSpec::new(j % 2, strip)
        })
        .collect();
    let mut atomic = AtomicSpec::new(
        vec![
            material("grass", [255, 255, 255, 255]),
            Material {
                texture: Some("rock".into()),
                colour: [200, 200, 200, 255],
                matfx: Some(2),
            },
        ],
        meshes,
    );
    let identity = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    atomic.skin = Some(SkinInfo {
        bones: 3,
        inverse_matrices: vec![identity; 3],
    });
    StoriesSpec {
        atomics: vec![atomic],
    }
}
