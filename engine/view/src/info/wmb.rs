//! GameStudio WMB7 levels: blocks, lightmaps, textures, objects and the entities they place.

use modex::FormatResult;
use modex_mdl::wmb::{EntityKind, WmbFile};
use serde_json::{json, Value};

use super::{Description, EntityFiles};
use crate::level::name_key;

/// `modex info LEVEL.wmb`. Every entity says whether its file was found and where (JSON `found`,
/// `path`); the text ends with `missing: a.mdl, b.tga` when any file is missing, so a user sees
/// at the bottom of the listing what to pass `--path` for.
pub fn describe(bytes: &[u8], files: &dyn EntityFiles) -> FormatResult<Description> {
    let f = WmbFile::parse(bytes)?;
    let vertices: usize = f.blocks.iter().map(|b| b.vertices.len()).sum();
    let triangles: usize = f.blocks.iter().map(|b| b.triangles.len()).sum();
    let skins: usize = f.blocks.iter().map(|b| b.skins.len()).sum();
    let mut counts: Vec<(&str, usize)> = [
        "position",
        "light",
        "old_entity",
        "sound",
        "info",
        "path",
        "entity",
        "region",
    ]
    .into_iter()
    .map(|k| (k, 0))
    .collect();
    for o in &f.objects {
        if let Some(c) = counts.iter_mut().find(|c| c.0 == o.kind_name()) {
            c.1 += 1;
        }
    }
    // Each entity's file looked up once; `missing` keeps each missing name once (by its key, so
    // two spellings of one file are one), in the order the level first names it.
    let mut missing: Vec<(String, &str)> = Vec::new();
    let mut found = 0;
    let entities: Vec<Value> = f
        .entities()
        .map(|e| {
            let path = files.find(&e.file);
            if path.is_some() {
                found += 1;
            } else if !e.file.is_empty() {
                let key = name_key(&e.file);
                if !missing.iter().any(|(k, _)| *k == key) {
                    missing.push((key, &e.file));
                }
            }
            json!({
                "kind": if e.kind == EntityKind::Old { "old_entity" } else { "entity" },
                "name": e.name,
                "file": e.file,
                "position": e.origin.to_array(),
                "angle": e.angle.to_array(),
                "scale": e.scale.to_array(),
                "action": e.action,
                "skills": e.skills,
                "found": path.is_some(),
                "path": path,
            })
        })
        .collect();
    let textures: Vec<Value> = f
        .textures
        .iter()
        .map(|t| json!({"name": t.name, "width": t.width, "height": t.height, "type": t.kind}))
        .collect();
    let mut objects = serde_json::Map::new();
    for (k, n) in &counts {
        objects.insert(k.to_string(), json!(n));
    }
    let json = json!({
        "format": "wmb7",
        "textures": textures,
        "blocks": f.blocks.len(),
        "vertices": vertices,
        "triangles": triangles,
        "skins": skins,
        "lightmaps": f.lightmaps.len(),
        "lightmap_size": f.lightmap_dim,
        "objects": objects,
        "entities": entities,
        "entities_found": found,
        "warnings": f.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
    });
    let mut text = format!(
        "WMB7 level: {} blocks, {vertices} vertices, {triangles} triangles, {skins} skins\n",
        f.blocks.len()
    );
    text.push_str(&format!(
        "lightmaps: {} pages of {}x{}\n",
        f.lightmaps.len(),
        f.lightmap_dim,
        f.lightmap_dim
    ));
    for w in &f.warnings {
        text.push_str(&format!("warning: {w}\n"));
    }
    for t in &f.textures {
        text.push_str(&format!(
            "texture {}: {}x{} type {}\n",
            t.name, t.width, t.height, t.kind
        ));
    }
    let listed: Vec<String> = counts
        .iter()
        .filter(|c| c.1 > 0)
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    text.push_str(&format!("objects: {}\n", listed.join(", ")));
    if let Some(i) = f.info() {
        text.push_str(&format!(
            "info: compiler {:.2}, sun azimuth {} elevation {}, sun colour #{:06x}, ambient #{:06x}\n",
            i.version, i.azimuth, i.elevation, i.sun_color & 0xFF_FFFF, i.ambient_color & 0xFF_FFFF
        ));
    }
    text.push_str(&format!(
        "entities: {}, files found for {found} (root {})\n",
        f.entities().count(),
        files.root()
    ));
    for e in f.entities() {
        text.push_str(&format!(
            "  {} {} at ({:.1}, {:.1}, {:.1})\n",
            e.name, e.file, e.origin.x, e.origin.y, e.origin.z
        ));
    }
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|(_, n)| *n).collect();
        text.push_str(&format!("missing: {}\n", names.join(", ")));
    }
    Ok(Description { json, text })
}
