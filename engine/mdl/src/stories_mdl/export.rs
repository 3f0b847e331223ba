//! The decoded file as an [`ObjMesh`] for `modex export --obj`.
//!
//! * Positions in the file's own coordinates (no axis swap), one OBJ vertex per strip vertex.
//! * Pre-light colours as `v x y z r g b` (0..1, alpha dropped) when any mesh has pre-light;
//!   vertices of a geometry without pre-light are then white.
//! * `vt` is `(u, 1 − v)`: the PS2 texture's V runs down the image, OBJ's up, so the flip keeps a
//!   texture applied in Blender the right way up.
//! * `vn` for vertices whose geometry has normals (normalised).
//! * One `f` per triangle of [`super::Mesh::triangles`], counter-clockwise seen from its front (the
//!   strips are turned to face out by their normals, `strip::face_out`).
//! * One material per atomic's material, named `a{atomic}_m{material}` plus `_` and the texture name
//!   when it has one (names must be unique: atomics may use one texture with different colours);
//!   `Kd` is the material colour. No `map_Kd`: the textures live in separate archives.

use crate::obj::{ObjCorner, ObjFace, ObjMaterial, ObjMesh};

use super::StoriesModel;

impl StoriesModel {
    /// The OBJ mesh of every atomic (see the module docs of `export` for the rules).
    pub fn to_obj(&self) -> ObjMesh {
        let any_prelight = self
            .meshes()
            .any(|m| m.vertices.iter().any(|v| v.prelight.is_some()));
        let mut obj = ObjMesh {
            colours: any_prelight.then(Vec::new),
            ..ObjMesh::default()
        };
        for (a, atomic) in self.atomics.iter().enumerate() {
            let g = &atomic.geometry;
            let first_material = obj.materials.len();
            for (m, material) in g.materials.iter().enumerate() {
                let [r, gr, b, _] = material.colour;
                let name = match &material.texture {
                    Some(t) if !t.is_empty() => format!("a{a}_m{m}_{t}"),
                    _ => format!("a{a}_m{m}"),
                };
                obj.materials.push(ObjMaterial {
                    name,
                    diffuse: [r, gr, b].map(|c| c as f32 / 255.0),
                    texture: None,
                });
            }
            for mesh in &g.meshes {
                let base = obj.positions.len() as u32;
                let mut normal_of = Vec::with_capacity(mesh.vertices.len());
                for v in &mesh.vertices {
                    obj.positions.push(v.position.to_array());
                    if let Some(c) = &mut obj.colours {
                        let p = v.prelight.unwrap_or([255; 4]);
                        c.push([p[0], p[1], p[2]].map(|x| x as f32 / 255.0));
                    }
                    obj.uvs.push([v.uv.x, 1.0 - v.uv.y]);
                    normal_of.push(v.normal.map(|n| {
                        obj.normals.push(n.normalize_or(glam::Vec3::Z).to_array());
                        obj.normals.len() as u32 - 1
                    }));
                }
                for t in &mesh.triangles {
                    obj.faces.push(ObjFace {
                        material: first_material + mesh.material,
                        corners: t.map(|i| ObjCorner {
                            position: base + i,
                            uv: Some(base + i),
                            normal: normal_of[i as usize],
                        }),
                    });
                }
            }
        }
        obj
    }
}
