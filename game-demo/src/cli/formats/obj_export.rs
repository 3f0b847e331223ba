//! `modex export MODEL --obj OUT.obj`: one frame of an MDL2..MDL7 model as Wavefront OBJ + MTL,
//! through the shared writer (`modex_mdl::obj`). Each renderer part (MDL7: one per group and
//! skin) becomes one material whose skin is written as PNG beside the OBJ.

use std::io::BufWriter;
use std::path::Path;

use anyhow::{bail, Context, Result};
use modex_mdl::obj::{encode_mtl, encode_obj, ObjCorner, ObjFace, ObjMaterial, ObjMesh};
use modex_mdl::Model;

/// The mesh of frame `frame` of `models` (one material per model); `texture(i)` names the PNG the
/// caller writes for model `i`'s first skin, `None` for a model without one.
pub fn mesh(models: &[Model], frame: usize, texture: impl Fn(usize) -> Option<String>) -> ObjMesh {
    let mut m = ObjMesh::default();
    for (i, model) in models.iter().enumerate() {
        let Some(f) = model.frames.get(frame % model.frames.len().max(1)) else {
            continue;
        };
        let (p0, t0, n0) = (
            m.positions.len() as u32,
            m.uvs.len() as u32,
            m.normals.len() as u32,
        );
        m.positions.extend(f.positions.iter().map(|p| p.to_array()));
        m.normals.extend(f.normals.iter().map(|n| n.to_array()));
        // The engine's V runs down the skin, OBJ's up.
        m.uvs.extend(model.uvs.iter().map(|uv| [uv.x, 1.0 - uv.y]));
        let material = m.materials.len();
        let texture = if model.skins.is_empty() {
            None
        } else {
            texture(i)
        };
        m.materials.push(ObjMaterial {
            name: format!("part{i}"),
            diffuse: [1.0, 1.0, 1.0],
            texture,
        });
        for t in &model.triangles {
            let corner = |k: usize| ObjCorner {
                position: p0 + t.vertices[k],
                uv: Some(t0 + t.uvs[k]),
                normal: Some(n0 + t.vertices[k]),
            };
            m.faces.push(ObjFace {
                material,
                corners: [corner(0), corner(1), corner(2)],
            });
        }
    }
    m
}

/// Write `OUT.obj`, `OUT.mtl` and `OUT_partN.png` for frame `frame`.
pub fn export(models: &[Model], frame: usize, out: &Path) -> Result<()> {
    let frames = models.iter().map(|m| m.frames.len()).max().unwrap_or(0);
    if frame >= frames.max(1) {
        bail!("--frame {frame} is out of range: the model has {frames} frames");
    }
    let stem = out
        .file_stem()
        .map_or("model".into(), |s| s.to_string_lossy().into_owned());
    let dir = out.parent().unwrap_or(Path::new("."));
    if !dir.as_os_str().is_empty() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let png_name = |i: usize| format!("{stem}_part{i}.png");
    for (i, model) in models.iter().enumerate() {
        if let Some(skin) = model.skins.first().filter(|s| s.is_decoded()) {
            let path = dir.join(png_name(i));
            modex::pngio::save_rgba(&path, skin.width, skin.height, &skin.rgba)?;
        }
    }
    let mesh = mesh(models, frame, |i| {
        models[i]
            .skins
            .first()
            .filter(|s| s.is_decoded())
            .map(|_| png_name(i))
    });
    let mtl_name = format!("{stem}.mtl");
    let mut obj = BufWriter::new(
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?,
    );
    encode_obj(&mesh, &mtl_name, &mut obj)?;
    let mtl_path = dir.join(&mtl_name);
    let mut mtl = BufWriter::new(
        std::fs::File::create(&mtl_path)
            .with_context(|| format!("cannot create {}", mtl_path.display()))?,
    );
    encode_mtl(&mesh, &mut mtl)?;
    println!(
        "{} ({} vertices, {} triangles, {} materials) and {}",
        out.display(),
        mesh.positions.len(),
        mesh.faces.len(),
        mesh.materials.len(),
        mtl_path.display()
    );
    Ok(())
}
