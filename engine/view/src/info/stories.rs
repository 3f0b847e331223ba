//! GTA Liberty City / Vice City Stories PS2 models: atomics, their materials and meshes.

use modex::FormatResult;
use modex_mdl::stories_mdl::{self, Atomic, StoriesModel};
use serde_json::{json, Value};

use super::Description;

/// Meshes listed per atomic in the text output.
const MESH_LINES: usize = 8;

/// `modex info` for a GTA Stories PS2 model.
pub fn describe(bytes: &[u8]) -> FormatResult<Description> {
    let m = StoriesModel::parse(bytes)?;
    Ok(describe_model(&m, bytes.len()))
}

fn atomic_json(a: &Atomic) -> Value {
    let g = &a.geometry;
    json!({
        "offset": a.offset,
        "model_info_id": a.model_info_id,
        "visibility_flags": a.visibility_flags,
        "flags": g.flags,
        "scale": g.scale.to_array(),
        "pos": g.pos.to_array(),
        "skin_bones": g.skin.as_ref().map(|s| s.bones),
        "materials": g.materials.iter().map(|m| json!({
            "texture": m.texture,
            "colour": m.colour,
            "matfx": m.matfx,
        })).collect::<Vec<_>>(),
        "meshes": g.meshes.iter().map(|m| json!({
            "material": m.material,
            "vertices": m.vertices.len(),
            "triangles": m.triangles.len(),
            "declared_triangles": m.declared_triangles,
            "batches": m.batches,
            "uv_scale": m.uv_scale,
        })).collect::<Vec<_>>(),
        "vertices": g.meshes.iter().map(|m| m.vertices.len()).sum::<usize>(),
        "triangles": g.meshes.iter().map(|m| m.triangles.len()).sum::<usize>(),
    })
}

/// `n` and the noun, singular for one.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn flag_names(flags: u32) -> String {
    let names = [
        (stories_mdl::FLAG_POSITIONS, "positions"),
        (stories_mdl::FLAG_NORMALS, "normals"),
        (stories_mdl::FLAG_UVS, "UVs"),
        (stories_mdl::FLAG_PRELIGHT, "pre-light"),
        (stories_mdl::FLAG_SKIN, "skin"),
    ];
    let list: Vec<&str> = names
        .iter()
        .filter(|(f, _)| flags & f != 0)
        .map(|&(_, n)| n)
        .collect();
    list.join(", ")
}

fn describe_model(m: &StoriesModel, size: usize) -> Description {
    let json = json!({
        "format": stories_mdl::FORMAT_NAME,
        "bytes": size,
        "atomics": m.atomics.iter().map(atomic_json).collect::<Vec<_>>(),
        "meshes": m.mesh_count(),
        "materials": m.material_count(),
        "vertices": m.vertex_count(),
        "triangles": m.triangle_count(),
    });
    let mut lines = vec![
        format!("GTA Stories PS2 model, {size} bytes"),
        [
            count(m.atomics.len(), "atomic", "atomics"),
            count(m.mesh_count(), "mesh", "meshes"),
            count(m.material_count(), "material", "materials"),
            count(m.vertex_count(), "vertex", "vertices"),
            count(m.triangle_count(), "triangle", "triangles"),
        ]
        .join(", "),
    ];
    for (i, a) in m.atomics.iter().enumerate() {
        let g = &a.geometry;
        let skin = g
            .skin
            .as_ref()
            .map_or(String::new(), |s| format!(", {} bones", s.bones));
        lines.push(format!(
            "atomic {i}: model info {}, {}, {} ({}{skin})",
            a.model_info_id,
            count(g.meshes.len(), "mesh", "meshes"),
            count(g.materials.len(), "material", "materials"),
            flag_names(g.flags)
        ));
        for (k, mat) in g.materials.iter().enumerate() {
            let [r, gr, b, al] = mat.colour;
            let fx = mat.matfx.map_or(String::new(), |e| format!(", MatFX {e}"));
            lines.push(format!(
                "  material {k}: texture {}, colour {r} {gr} {b} {al}{fx}",
                mat.texture
                    .as_deref()
                    .map_or("(none)".into(), |t| format!("\"{t}\""))
            ));
        }
        for (k, mesh) in g.meshes.iter().enumerate().take(MESH_LINES) {
            lines.push(format!(
                "  mesh {k}: material {}, {}, {}, {}",
                mesh.material,
                count(mesh.vertices.len(), "vertex", "vertices"),
                count(mesh.triangles.len(), "triangle", "triangles"),
                count(mesh.batches, "VIF batch", "VIF batches")
            ));
        }
        if g.meshes.len() > MESH_LINES {
            lines.push(format!(
                "  ... {} more meshes (all in --json)",
                g.meshes.len() - MESH_LINES
            ));
        }
    }
    Description {
        json,
        text: lines.join("\n"),
    }
}
