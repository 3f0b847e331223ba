//! Which side of a surface is its front: the one place where the files' conventions become the
//! [`Model`]'s, and back again for the writers.
//!
//! **The [`Model`] convention** (what the rasterizer culls by, what the OBJ writer writes, what the
//! project's own generated models follow): right-handed, Z up; a triangle's corners run
//! counter-clockwise seen from its front, so `(v1 - v0) × (v2 - v0)` points out of the surface;
//! vertex normals point out too. The rasterizer's `Cull::Back` draws the triangles that are counter-clockwise
//! on screen, which are the ones seen from their front.
//!
//! **The GameStudio file convention** (MDL2, MDL3/4/5, the IDPO files GameStudio's MED writes,
//! MDL7): corners run **clockwise** seen from the front, and vertex normals point **into** the mesh.
//! Measured on every closed mesh among the real samples (`../shared/data`, 3D GameStudio A4..A8
//! files from three unrelated sources): the signed volume `Σ v0 · (v1 × v2)` of each is negative in
//! file order, i.e. the file's face normals point inwards, and the stored vertex normals agree
//! with those face normals on 94..100 % of the triangles (spheres: every normal points to the
//! centre). Quake, GameStudio's ancestor, culls the same way (GLQuake draws with
//! `glCullFace(GL_FRONT)`). Drawn in file order with counter-clockwise fronts, every model was seen
//! inside out: the far side's inner face through the near side, text in mirror writing.
//!
//! The decoders therefore reverse every triangle ([`Triangle::from_file`]) and, when a file's
//! normals point to the backs of its triangles, turn them round ([`Orientation`]), which every
//! GameStudio sample needs; deciding it from the file rather than by version keeps a file right
//! whose tool wrote outward normals. The writers do the opposite, so what they write is what
//! GameStudio reads. HMP terrain has no stored winding: its decoder builds counter-clockwise
//! triangles seen from above, and its normals already point up.

use crate::normals::{mdl_normals, nearest_index, MDL_NORMAL_COUNT};
use glam::Vec3;

use crate::model::{Frame, Model, Triangle};

impl Triangle {
    /// A triangle of a GameStudio file (corners clockwise seen from the front) in the [`Model`]
    /// convention: corners 1 and 2 swap, with their UVs.
    pub fn from_file(vertices: [u32; 3], uvs: [u32; 3]) -> Triangle {
        Triangle {
            vertices: [vertices[0], vertices[2], vertices[1]],
            uvs: [uvs[0], uvs[2], uvs[1]],
        }
    }

    /// A writer's 16-bit corner indices, already in the [`Model`] convention (no swap).
    pub(crate) fn from_u16(vertices: [u16; 3], uvs: [u16; 3]) -> Triangle {
        Triangle {
            vertices: vertices.map(u32::from),
            uvs: uvs.map(u32::from),
        }
    }

    /// The corners in GameStudio file order (the inverse of [`Triangle::from_file`]):
    /// `(vertices, uvs)`.
    pub fn to_file(&self) -> ([u32; 3], [u32; 3]) {
        let (v, t) = (self.vertices, self.uvs);
        ([v[0], v[2], v[1]], [t[0], t[2], t[1]])
    }
}

/// A count of how a mesh's vertex normals sit against its triangles: for each triangle corner,
/// whether the stored normal points to the front of the triangle (positive dot product with its
/// face normal) or to its back. Degenerate triangles and zero normals do not vote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Orientation {
    /// Corners whose normal points to the triangle's front.
    pub front: usize,
    /// Corners whose normal points to its back.
    pub back: usize,
}

impl Orientation {
    /// Count the corners of `triangles` (vertex indices in the [`Model`] convention) over one
    /// frame's `positions` and `normals`. Out-of-range indices are skipped, so the count never
    /// panics on a model that has not been checked.
    pub fn count(
        positions: &[Vec3],
        normals: &[Vec3],
        triangles: impl IntoIterator<Item = [usize; 3]>,
    ) -> Orientation {
        let mut o = Orientation::default();
        let corner = |i: usize| Some((*positions.get(i)?, *normals.get(i)?));
        for t in triangles {
            let (Some(a), Some(b), Some(c)) = (corner(t[0]), corner(t[1]), corner(t[2])) else {
                continue;
            };
            let face = (b.0 - a.0).cross(c.0 - a.0);
            if !face.is_finite() || face == Vec3::ZERO {
                continue;
            }
            for n in [a.1, b.1, c.1] {
                let d = face.dot(n);
                if d > 0.0 {
                    o.front += 1;
                } else if d < 0.0 {
                    o.back += 1;
                }
            }
        }
        o
    }

    /// The count over frame 0 of `model`.
    pub fn of_model(model: &Model) -> Orientation {
        let Some(f) = model.frames.first() else {
            return Orientation::default();
        };
        Orientation::count(
            &f.positions,
            &f.normals,
            model
                .triangles
                .iter()
                .map(|t| t.vertices.map(|v| v as usize)),
        )
    }

    /// The sum of two counts (a file of several meshes decides once).
    pub fn plus(self, other: Orientation) -> Orientation {
        Orientation {
            front: self.front + other.front,
            back: self.back + other.back,
        }
    }

    /// Whether most normals point to the backs of their triangles, so they must be turned round.
    pub fn points_back(self) -> bool {
        self.back > self.front
    }
}

/// For each entry of the MDL normal table, the index of its opposite (the table is symmetric:
/// every entry's negation is itself an entry, exactly).
pub fn opposite_normal_indices() -> [u8; MDL_NORMAL_COUNT] {
    let table = mdl_normals();
    let mut out = [0u8; MDL_NORMAL_COUNT];
    for (o, n) in out.iter_mut().zip(table.iter()) {
        *o = nearest_index(table, n.map(|c| -c)) as u8;
    }
    out
}

/// Turn every normal of `frames` round; table indices become their opposite entries.
pub(crate) fn turn_normals(frames: &mut [Frame]) {
    let opposite = opposite_normal_indices();
    for f in frames {
        for n in &mut f.normals {
            *n = -*n;
        }
        if let Some(indices) = &mut f.normal_indices {
            for i in indices {
                *i = opposite[(*i as usize).min(MDL_NORMAL_COUNT - 1)];
            }
        }
    }
}

/// Turn a decoded GameStudio model's normals round when they point to the backs of its
/// (already reversed) triangles. Returns whether it did.
pub(crate) fn orient_normals(model: &mut Model) -> bool {
    let turn = Orientation::of_model(model).points_back();
    if turn {
        turn_normals(&mut model.frames);
    }
    turn
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normals::mdl_normal;

    #[test]
    fn every_table_normal_has_an_exact_opposite() {
        let opposite = opposite_normal_indices();
        for (i, &o) in opposite.iter().enumerate() {
            let (a, b) = (mdl_normal(i), mdl_normal(o as usize));
            assert_eq!(a.map(|c| -c), b, "entry {i}");
            assert_eq!(opposite[o as usize] as usize, i);
        }
    }

    #[test]
    fn file_order_round_trips_and_reverses_the_face_normal() {
        let t = Triangle::from_file([4, 5, 6], [7, 8, 9]);
        assert_eq!(t.vertices, [4, 6, 5]);
        assert_eq!(t.uvs, [7, 9, 8]);
        assert_eq!(t.to_file(), ([4, 5, 6], [7, 8, 9]));
        // Clockwise seen from +Z in the file: counter-clockwise (face normal +Z) once read.
        let p = [
            Vec3::ZERO,
            Vec3::Y,
            Vec3::X,
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::ZERO,
        ];
        let file = Triangle::from_file([0, 1, 2], [0; 3]);
        let [a, b, c] = file.vertices.map(|i| p[i as usize]);
        assert!((b - a).cross(c - a).z > 0.0);
    }

    #[test]
    fn inward_normals_are_counted_and_turned() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let up = Orientation::count(&p, &[Vec3::Z; 3], [[0, 1, 2]]);
        assert_eq!(up, Orientation { front: 3, back: 0 });
        let down = Orientation::count(&p, &[-Vec3::Z; 3], [[0, 1, 2], [0, 0, 1], [0, 1, 9]]);
        assert_eq!(
            down,
            Orientation { front: 0, back: 3 },
            "degenerate and bad skipped"
        );
        assert!(down.points_back() && !up.points_back());
        let mut frames = vec![Frame {
            name: String::new(),
            positions: p.to_vec(),
            normals: vec![-Vec3::Z; 3],
            normal_indices: Some(vec![5, 5, 200]),
            bbox_min: Vec3::ZERO,
            bbox_max: Vec3::ONE,
        }];
        turn_normals(&mut frames);
        assert_eq!(frames[0].normals, vec![Vec3::Z; 3]);
        // Entry 5 is +Z; its opposite is the table's -Z; an index past the table clamps first.
        let idx = frames[0].normal_indices.as_ref().unwrap();
        assert_eq!(mdl_normal(idx[0] as usize), [0.0, 0.0, -1.0]);
        assert_eq!(idx[2], opposite_normal_indices()[MDL_NORMAL_COUNT - 1]);
    }
}
