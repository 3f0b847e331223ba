//! The demo's MDL props, modelled in code and written as MDL5 files with
//! [`modex_mdl::mdl_encode`]: a windmill whose sails turn (8 frames, drawn interpolated) and a
//! flag waving on its pole (8 frames). Skins are 8-bit, painted procedurally in the Quake palette.

use glam::{Vec2, Vec3};
use modex_mdl::mdl_encode::{FrameSpec, MdlSpec, SkinData, SkinSpec};

/// Frames of each prop's animation loop.
pub const PROP_FRAMES: usize = 8;

/// A mesh being built: per-frame positions, shared UVs (in pixels) and triangles.
struct MeshBuilder {
    frames: Vec<Vec<Vec3>>,
    uvs: Vec<Vec2>,
    tris: Vec<[u16; 3]>,
}

impl MeshBuilder {
    fn new() -> MeshBuilder {
        MeshBuilder {
            frames: vec![Vec::new(); PROP_FRAMES],
            uvs: Vec::new(),
            tris: Vec::new(),
        }
    }

    /// Add a quad whose corners in frame `f` are `corner(f, i)` for i = 0..4, counter-clockwise seen
    /// from its front, with UVs (pixels). `two_sided` adds the back face too.
    fn quad(&mut self, corner: impl Fn(usize, usize) -> Vec3, uv: [Vec2; 4], two_sided: bool) {
        let base = self.uvs.len() as u16;
        for (f, frame) in self.frames.iter_mut().enumerate() {
            frame.extend((0..4).map(|i| corner(f, i)));
        }
        self.uvs.extend(uv);
        self.tris.push([base, base + 1, base + 2]);
        self.tris.push([base, base + 2, base + 3]);
        if two_sided {
            self.tris.push([base, base + 2, base + 1]);
            self.tris.push([base, base + 3, base + 2]);
        }
    }

    fn finish(self, names: &str, skin: SkinSpec) -> MdlSpec {
        let frames = self
            .frames
            .iter()
            .enumerate()
            .map(|(f, positions)| {
                // Vertex normals: the sum of the (area-weighted) normals of the faces using them.
                let mut normals = vec![Vec3::ZERO; positions.len()];
                for t in &self.tris {
                    let [a, b, c] = t.map(|i| positions[i as usize]);
                    let n = (b - a).cross(c - a);
                    for &i in t {
                        normals[i as usize] += n;
                    }
                }
                FrameSpec {
                    name: format!("{names}{}", f + 1),
                    positions: positions.clone(),
                    normals: normals.iter().map(|n| n.normalize_or(Vec3::Z)).collect(),
                }
            })
            .collect();
        MdlSpec {
            skins: vec![skin],
            skin_vertices: self
                .uvs
                .iter()
                .map(|uv| [uv.x.round() as i16, uv.y.round() as i16])
                .collect(),
            triangles: self.tris.iter().map(|t| (*t, *t)).collect(),
            frames,
        }
    }
}

fn rect_uv(x0: f32, y0: f32, x1: f32, y1: f32) -> [Vec2; 4] {
    // Corners in the order quads are built: bottom-left, bottom-right, top-right, top-left.
    [
        Vec2::new(x0, y1),
        Vec2::new(x1, y1),
        Vec2::new(x1, y0),
        Vec2::new(x0, y0),
    ]
}

fn paint(size: usize, f: impl Fn(usize, usize) -> u8) -> Vec<u8> {
    (0..size * size).map(|i| f(i % size, i / size)).collect()
}

/// The windmill: a tapering tower with four turning sails on its front (+X).
pub fn windmill() -> MdlSpec {
    const SKIN: usize = 64;
    let mut m = MeshBuilder::new();
    let (base, top, height) = (10.0f32, 6.0f32, 50.0f32);
    // Tower sides, counter-clockwise seen from outside. Side k faces direction k * 90 degrees.
    for k in 0..4 {
        let a0 = k as f32 * std::f32::consts::FRAC_PI_2 - std::f32::consts::FRAC_PI_4;
        let a1 = a0 + std::f32::consts::FRAC_PI_2;
        let s = std::f32::consts::SQRT_2;
        let p = move |r: f32, a: f32, z: f32| Vec3::new(a.cos() * r * s, a.sin() * r * s, z);
        m.quad(
            move |_, i| match i {
                0 => p(base, a0, 0.0),
                1 => p(base, a1, 0.0),
                2 => p(top, a1, height),
                _ => p(top, a0, height),
            },
            rect_uv(0.0, 0.0, 32.0, 64.0),
            false,
        );
    }
    // Roof cap.
    m.quad(
        move |_, i| {
            let a = i as f32 * std::f32::consts::FRAC_PI_2 - std::f32::consts::FRAC_PI_4;
            Vec3::new(a.cos() * top * 1.5, a.sin() * top * 1.5, height)
        },
        rect_uv(0.0, 0.0, 32.0, 8.0),
        false,
    );
    // Four sails in the Y-Z plane in front of the tower, turning about the X axis.
    let hub = Vec3::new(top + 2.0, 0.0, height - 6.0);
    for blade in 0..4 {
        m.quad(
            move |f, i| {
                let turn = f as f32 / PROP_FRAMES as f32 * std::f32::consts::FRAC_PI_2;
                let a = turn + blade as f32 * std::f32::consts::FRAC_PI_2;
                let (along, across) = (
                    Vec3::new(0.0, a.cos(), a.sin()),
                    Vec3::new(0.0, -a.sin(), a.cos()),
                );
                let (r, w) = match i {
                    0 => (3.0, -2.5),
                    1 => (34.0, -2.5),
                    2 => (34.0, 2.5),
                    _ => (3.0, 2.5),
                };
                hub + along * r + across * w
            },
            rect_uv(32.0, 0.0, 64.0, 64.0),
            true,
        );
    }
    let pixels = paint(SKIN, |x, y| {
        if x < 32 {
            // Bricks: courses of 4 rows, joints every 8 pixels, offset every other course.
            let course = y / 4;
            let joint = y % 4 == 3 || (x + if course % 2 == 0 { 0 } else { 4 }) % 8 == 0;
            if joint {
                18
            } else {
                22 + ((x * 7 + course * 13) % 5) as u8
            }
        } else {
            // Sail cloth in a wooden frame.
            let frame = !(34..=61).contains(&x) || y % 16 < 2;
            if frame {
                19
            } else {
                160 + ((y / 3) % 3) as u8
            }
        }
    });
    m.finish(
        "sails",
        SkinSpec {
            width: SKIN as u32,
            height: SKIN as u32,
            data: SkinData::Indexed(pixels),
        },
    )
}

/// The flag: a pole and a cloth waving in the wind.
pub fn flag() -> MdlSpec {
    const SKIN: usize = 32;
    const COLS: usize = 7;
    const ROWS: usize = 4;
    let mut m = MeshBuilder::new();
    // The pole: four thin sides.
    for k in 0..4 {
        let a0 = k as f32 * std::f32::consts::FRAC_PI_2;
        let a1 = a0 + std::f32::consts::FRAC_PI_2;
        let p = move |a: f32, z: f32| Vec3::new(a.cos() * 0.8, a.sin() * 0.8, z);
        m.quad(
            move |_, i| match i {
                0 => p(a0, 0.0),
                1 => p(a1, 0.0),
                2 => p(a1, 42.0),
                _ => p(a0, 42.0),
            },
            rect_uv(28.0, 0.0, 32.0, 32.0),
            false,
        );
    }
    // The cloth: a grid of quads rippling sideways; the wave travels away from the pole.
    let cloth = |f: usize, c: usize, r: usize| {
        let x = 1.0 + c as f32 * 4.0;
        let phase = f as f32 / PROP_FRAMES as f32 * std::f32::consts::TAU;
        let y = (phase - x * 0.35).sin() * (x / 24.0) * 3.0;
        Vec3::new(x, y, 26.0 + r as f32 * 5.0 - x * 0.05)
    };
    for r in 0..ROWS - 1 {
        for c in 0..COLS - 1 {
            let u = |c: usize| c as f32 / (COLS - 1) as f32 * 26.0;
            let v = |r: usize| 32.0 - r as f32 / (ROWS - 1) as f32 * 32.0;
            m.quad(
                move |f, i| match i {
                    0 => cloth(f, c, r),
                    1 => cloth(f, c + 1, r),
                    2 => cloth(f, c + 1, r + 1),
                    _ => cloth(f, c, r + 1),
                },
                [
                    Vec2::new(u(c), v(r)),
                    Vec2::new(u(c + 1), v(r)),
                    Vec2::new(u(c + 1), v(r + 1)),
                    Vec2::new(u(c), v(r + 1)),
                ],
                true,
            );
        }
    }
    let pixels = paint(SKIN, |x, y| {
        if x >= 28 {
            5 // pole grey
        } else if (y as i32 - 16).abs() < 4 || (x as i32 - 8).abs() < 3 {
            15 // white cross
        } else {
            72 + (y % 3) as u8 // red cloth
        }
    });
    m.finish(
        "wave",
        SkinSpec {
            width: SKIN as u32,
            height: SKIN as u32,
            data: SkinData::Indexed(pixels),
        },
    )
}

/// Every prop file of the demo: name in `data/demo/props/` and bytes.
pub fn generate() -> Vec<(String, Vec<u8>)> {
    vec![
        ("windmill.mdl".to_string(), windmill().encode()),
        ("flag.mdl".to_string(), flag().encode()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_mdl::mdl::MdlFile;

    #[test]
    fn props_load_with_all_frames_and_in_range_uvs() {
        for (name, bytes) in generate() {
            let file = MdlFile::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let m = &file.model;
            assert_eq!(m.frames.len(), PROP_FRAMES, "{name}");
            assert!(m.triangles.len() >= 8, "{name}");
            assert!(m
                .uvs
                .iter()
                .all(|uv| (0.0..=1.0).contains(&uv.x) && (0.0..=1.0).contains(&uv.y)));
            // The animation moves something between frames.
            assert_ne!(m.frames[0].positions, m.frames[3].positions, "{name}");
        }
    }
}
