//! A Wavefront OBJ + MTL writer shared by every model exporter (GTA Stories `.mdl`, MDL2..MDL7).
//!
//! Exporters convert their decoded model into one [`ObjMesh`] and call [`encode_obj`] and
//! [`encode_mtl`]; the OBJ text rules live here once, so every format's export opens the same way in
//! Blender, MeshLab and other tools:
//!
//! * Indices in [`ObjCorner`] are 0-based; the file gets OBJ's 1-based indices.
//! * With [`ObjMesh::colours`] each position is written `v x y z r g b` (the vertex-colour extension
//!   Blender, MeshLab and others read); without, `v x y z`.
//! * `vt u v` is written as given: OBJ's V axis points up, so callers whose V points down flip it.
//! * Faces are grouped by material (one `usemtl` per material that has faces, in material order,
//!   faces in their given order within a group), because some importers make one mesh part per
//!   `usemtl` line and a file that switches back and forth would be split into many.
//! * OBJ and MTL names end at white space, so white space inside a material name is written as `_`
//!   (in both files, so `usemtl` and `newmtl` agree).
//! * Numbers use Rust's shortest round-trip form, so a reader gets back exactly the `f32`s given.
//!
//! The writers check the mesh before writing a byte: every corner names an existing position, UV
//! and normal, every face an existing material, and `colours` has one entry per position. A mesh
//! that breaks this is refused with [`std::io::ErrorKind::InvalidInput`] instead of producing a
//! file other tools reject. A mesh without materials writes its faces without `usemtl` (the
//! material index is then not used).

use std::io::{self, Write};

/// A material: `newmtl` with a diffuse colour and optionally a texture.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjMaterial {
    /// The material name (`usemtl` / `newmtl`).
    pub name: String,
    /// Diffuse colour `Kd`, 0..1.
    pub diffuse: [f32; 3],
    /// `map_Kd`: the file name of a texture the caller writes beside the `.mtl`.
    pub texture: Option<String>,
}

/// One face corner: 0-based indices into the mesh's positions, UVs and normals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjCorner {
    /// Index into [`ObjMesh::positions`].
    pub position: u32,
    /// Index into [`ObjMesh::uvs`].
    pub uv: Option<u32>,
    /// Index into [`ObjMesh::normals`].
    pub normal: Option<u32>,
}

/// A triangle and the material it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjFace {
    /// Index into [`ObjMesh::materials`].
    pub material: usize,
    /// The three corners, written in this order (the caller chooses the winding).
    pub corners: [ObjCorner; 3],
}

/// Everything one OBJ file holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjMesh {
    /// Vertex positions (`v`).
    pub positions: Vec<[f32; 3]>,
    /// Per position, 0..1, written as `v x y z r g b`.
    pub colours: Option<Vec<[f32; 3]>>,
    /// Texture coordinates (`vt`), written as given.
    pub uvs: Vec<[f32; 2]>,
    /// Normals (`vn`); may be empty.
    pub normals: Vec<[f32; 3]>,
    /// Triangles (`f`), grouped by `usemtl` when written.
    pub faces: Vec<ObjFace>,
    /// Materials (`newmtl` in the `.mtl`).
    pub materials: Vec<ObjMaterial>,
}

/// Write `mesh` as OBJ text, referring to its materials in `mtl_file_name` (`mtllib`; pass the
/// name of the `.mtl` file written beside the `.obj`).
pub fn encode_obj(mesh: &ObjMesh, mtl_file_name: &str, out: &mut impl Write) -> io::Result<()> {
    check(mesh)?;
    let mut out = io::BufWriter::new(out);
    writeln!(out, "# written by modex")?;
    if !mesh.materials.is_empty() {
        writeln!(out, "mtllib {mtl_file_name}")?;
    }
    for (i, p) in mesh.positions.iter().enumerate() {
        match &mesh.colours {
            Some(c) => {
                let c = c[i];
                writeln!(
                    out,
                    "v {} {} {} {} {} {}",
                    p[0], p[1], p[2], c[0], c[1], c[2]
                )?
            }
            None => writeln!(out, "v {} {} {}", p[0], p[1], p[2])?,
        }
    }
    for t in &mesh.uvs {
        writeln!(out, "vt {} {}", t[0], t[1])?;
    }
    for n in &mesh.normals {
        writeln!(out, "vn {} {} {}", n[0], n[1], n[2])?;
    }
    if mesh.materials.is_empty() {
        for face in &mesh.faces {
            write_face(&mut out, face)?;
        }
    } else {
        for (m, material) in mesh.materials.iter().enumerate() {
            let mut faces = mesh.faces.iter().filter(|f| f.material == m).peekable();
            if faces.peek().is_none() {
                continue;
            }
            writeln!(out, "usemtl {}", obj_name(&material.name))?;
            for face in faces {
                write_face(&mut out, face)?;
            }
        }
    }
    out.flush()
}

/// Write the materials of `mesh` as MTL text (`newmtl`, `Kd`, `map_Kd`).
pub fn encode_mtl(mesh: &ObjMesh, out: &mut impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    writeln!(out, "# written by modex")?;
    for material in &mesh.materials {
        let [r, g, b] = material.diffuse;
        writeln!(out, "newmtl {}", obj_name(&material.name))?;
        writeln!(out, "Kd {r} {g} {b}")?;
        if let Some(texture) = &material.texture {
            writeln!(out, "map_Kd {texture}")?;
        }
        writeln!(out)?;
    }
    out.flush()
}

/// A name as OBJ/MTL can hold it: white space, which would end it, becomes `_`; an empty name
/// becomes `unnamed`.
fn obj_name(name: &str) -> String {
    if name.is_empty() {
        return "unnamed".to_owned();
    }
    name.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

fn write_face(out: &mut impl Write, face: &ObjFace) -> io::Result<()> {
    write!(out, "f")?;
    for c in &face.corners {
        let p = c.position + 1;
        match (c.uv, c.normal) {
            (None, None) => write!(out, " {p}")?,
            (Some(t), None) => write!(out, " {p}/{}", t + 1)?,
            (None, Some(n)) => write!(out, " {p}//{}", n + 1)?,
            (Some(t), Some(n)) => write!(out, " {p}/{}/{}", t + 1, n + 1)?,
        }
    }
    writeln!(out)
}

/// Refuse a mesh whose indices point nowhere (see the module docs).
fn check(mesh: &ObjMesh) -> io::Result<()> {
    let bad = |what: String| Err(io::Error::new(io::ErrorKind::InvalidInput, what));
    if let Some(c) = &mesh.colours {
        if c.len() != mesh.positions.len() {
            return bad(format!(
                "OBJ: {} colours for {} positions",
                c.len(),
                mesh.positions.len()
            ));
        }
    }
    let in_range = |i: Option<u32>, len: usize| i.is_none_or(|i| (i as usize) < len);
    for (f, face) in mesh.faces.iter().enumerate() {
        if !mesh.materials.is_empty() && face.material >= mesh.materials.len() {
            return bad(format!(
                "OBJ: face {f} uses material {} of {}",
                face.material,
                mesh.materials.len()
            ));
        }
        for (k, c) in face.corners.iter().enumerate() {
            if !in_range(Some(c.position), mesh.positions.len())
                || !in_range(c.uv, mesh.uvs.len())
                || !in_range(c.normal, mesh.normals.len())
            {
                return bad(format!(
                    "OBJ: face {f} corner {k} ({c:?}) points past {} positions, {} UVs, {} normals",
                    mesh.positions.len(),
                    mesh.uvs.len(),
                    mesh.normals.len()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner(position: u32, uv: Option<u32>, normal: Option<u32>) -> ObjCorner {
        ObjCorner {
            position,
            uv,
            normal,
        }
    }

    fn square() -> ObjMesh {
        ObjMesh {
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.5],
            ],
            colours: Some(vec![
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
                [0.5, 0.5, 0.5],
            ]),
            uvs: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
            normals: vec![[0.0, 0.0, 1.0]],
            faces: vec![
                ObjFace {
                    material: 1,
                    corners: [
                        corner(0, Some(0), Some(0)),
                        corner(1, Some(1), Some(0)),
                        corner(2, Some(2), Some(0)),
                    ],
                },
                ObjFace {
                    material: 0,
                    corners: [
                        corner(0, None, None),
                        corner(2, Some(2), None),
                        corner(3, None, Some(0)),
                    ],
                },
                ObjFace {
                    material: 1,
                    corners: [
                        corner(3, Some(3), Some(0)),
                        corner(0, Some(0), Some(0)),
                        corner(2, Some(2), Some(0)),
                    ],
                },
            ],
            materials: vec![
                ObjMaterial {
                    name: "plain".into(),
                    diffuse: [0.25, 0.5, 1.0],
                    texture: None,
                },
                ObjMaterial {
                    name: "brick wall".into(),
                    diffuse: [1.0, 1.0, 1.0],
                    texture: Some("brick.png".into()),
                },
                ObjMaterial {
                    name: "unused".into(),
                    diffuse: [0.0, 0.0, 0.0],
                    texture: None,
                },
            ],
        }
    }

    fn obj_text(mesh: &ObjMesh) -> String {
        let mut out = Vec::new();
        encode_obj(mesh, "square.mtl", &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn obj_has_one_based_indices_colours_and_material_groups() {
        let text = obj_text(&square());
        let expected = "# written by modex\n\
            mtllib square.mtl\n\
            v 0 0 0 1 0 0\n\
            v 1 0 0 0 1 0\n\
            v 1 1 0 0 0 1\n\
            v 0 1 0.5 0.5 0.5 0.5\n\
            vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n\
            vn 0 0 1\n\
            usemtl plain\n\
            f 1 3/3 4//1\n\
            usemtl brick_wall\n\
            f 1/1/1 2/2/1 3/3/1\n\
            f 4/4/1 1/1/1 3/3/1\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn mtl_lists_every_material_with_texture() {
        let mut out = Vec::new();
        encode_mtl(&square(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "# written by modex\n\
             newmtl plain\nKd 0.25 0.5 1\n\n\
             newmtl brick_wall\nKd 1 1 1\nmap_Kd brick.png\n\n\
             newmtl unused\nKd 0 0 0\n\n"
        );
    }

    #[test]
    fn without_colours_or_materials_plain_lines() {
        let mut mesh = square();
        mesh.colours = None;
        mesh.materials.clear();
        let text = obj_text(&mesh);
        assert!(text.contains("v 0 1 0.5\n"));
        assert!(!text.contains("usemtl"));
        assert!(!text.contains("mtllib"));
        assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 3);
    }

    #[test]
    fn floats_round_trip_exactly() {
        let mut mesh = square();
        mesh.positions[1] = [0.1, -1.0e-7, 12345.678];
        let text = obj_text(&mesh);
        let line = text.lines().filter(|l| l.starts_with("v ")).nth(1).unwrap();
        let xyz: Vec<f32> = line[2..]
            .split(' ')
            .take(3)
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(xyz, vec![0.1, -1.0e-7, 12345.678]);
    }

    #[test]
    fn broken_indices_are_refused_before_writing() {
        let mut mesh = square();
        mesh.faces[2].corners[1].uv = Some(4);
        let mut out = Vec::new();
        let e = encode_obj(&mesh, "m.mtl", &mut out).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(out.is_empty());

        let mut mesh = square();
        mesh.faces[0].material = 3;
        assert!(encode_obj(&mesh, "m.mtl", &mut Vec::new()).is_err());

        let mut mesh = square();
        mesh.colours.as_mut().unwrap().pop();
        assert!(encode_obj(&mesh, "m.mtl", &mut Vec::new()).is_err());

        let mut mesh = square();
        mesh.faces[0].corners[0].position = 4;
        assert!(encode_obj(&mesh, "m.mtl", &mut Vec::new()).is_err());
    }
}
