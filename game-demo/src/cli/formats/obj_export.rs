//! `modex export MODEL --obj OUT.obj`: one frame of an MDL2..MDL7 model as Wavefront OBJ + MTL,
//! through the shared writer (`modex_mdl::obj`), and the blocks of a WMB level. Each renderer part
//! (MDL7: one per group and skin; WMB: one per texture) becomes one material whose skin is written
//! as PNG beside the OBJ. Materials are named after what they are (the texture, skin or group name
//! the caller passes), so a Blender user sees `stone_wall` rather than `part3`; only a part without
//! a name is called `part{i}`.

use std::collections::HashSet;
use std::io::BufWriter;
use std::path::Path;

use anyhow::{bail, Context, Result};
use modex_mdl::obj::{encode_mtl, encode_obj, ObjCorner, ObjFace, ObjMaterial, ObjMesh};
use modex_mdl::Model;

/// `name` made safe as a file name and as an OBJ/MTL name (which end at white space): `#` and every
/// character but ASCII letters, digits, `_`, `-` and `.` removed, dots trimmed from the ends,
/// `fallback` when nothing is left, and `_1`, `_2`... appended when an earlier name took it
/// (compared ignoring case, so the PNGs stay distinct on case-insensitive file systems).
pub fn unique_name(name: &str, fallback: &str, taken: &mut HashSet<String>) -> String {
    let base: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .collect();
    let mut base = base.trim_matches('.').to_string();
    if base.is_empty() {
        base = fallback.into();
    }
    let mut candidate = base.clone();
    let mut n = 1;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{base}_{n}");
        n += 1;
    }
    candidate
}

/// One material name per model: its given name made safe and unique ([`unique_name`]), `part{i}`
/// for a model without one.
pub fn material_names(names: &[Option<String>], models: usize) -> Vec<String> {
    let mut taken = HashSet::new();
    (0..models)
        .map(|i| {
            let fallback = format!("part{i}");
            let name = names.get(i).cloned().flatten().unwrap_or_default();
            unique_name(&name, &fallback, &mut taken)
        })
        .collect()
}

/// The mesh of frame `frame` of `models` (one material per model, named `names[i]`); `texture(i)`
/// names the PNG the caller writes for model `i`'s first skin, `None` for a model without one.
pub fn mesh(
    models: &[Model],
    names: &[String],
    frame: usize,
    texture: impl Fn(usize) -> Option<String>,
) -> ObjMesh {
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
            name: names.get(i).cloned().unwrap_or_else(|| format!("part{i}")),
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

/// Write `OUT.obj`, `OUT.mtl` and `OUT_{material}.png` for frame `frame`; `names[i]` is what
/// model `i` is (see [`material_names`]).
pub fn export(models: &[Model], names: &[Option<String>], frame: usize, out: &Path) -> Result<()> {
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
    let materials = material_names(names, models.len());
    let png_name = |i: usize| format!("{stem}_{}.png", materials[i]);
    for (i, model) in models.iter().enumerate() {
        if let Some(skin) = model.skins.first().filter(|s| s.is_decoded()) {
            let path = dir.join(png_name(i));
            modex::pngio::save_rgba(&path, skin.width, skin.height, &skin.rgba)?;
        }
    }
    let mesh = mesh(models, &materials, frame, |i| {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_names_are_safe_unique_and_fall_back_to_parts() {
        let names = [
            Some("#stone wall".to_string()),
            None,
            Some("Stonewall".to_string()),
            Some("###".to_string()),
        ];
        assert_eq!(
            material_names(&names, 5),
            ["stonewall", "part1", "Stonewall_1", "part3", "part4"]
        );
    }
}
