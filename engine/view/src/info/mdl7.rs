//! MDL7 (GameStudio A6..A8) models: groups, their skins, bones and frame names.

use modex::FormatResult;
use modex_mdl::mdl7::{Mdl7File, SkinSource};
use modex_mdl::skin::kind_name;
use serde_json::{json, Value};

use super::names::{decode_names, Codepage};
use super::Description;

/// `modex info` for an MDL7 file.
pub fn describe(bytes: &[u8], codepage: Option<Codepage>) -> FormatResult<Description> {
    Ok(describe_file(
        &Mdl7File::parse(bytes)?,
        bytes.len(),
        codepage,
    ))
}

fn skin_json(s: &modex_mdl::mdl7::Mdl7Skin) -> Value {
    let mut v = json!({
        "type": s.raw_type,
        "format": kind_name(s.skin.kind),
        "width": s.skin.width,
        "height": s.skin.height,
        "mipmaps": s.skin.has_mipmaps,
        "name": s.name,
    });
    match &s.source {
        SkinSource::External(n) => v["external"] = json!(n),
        SkinSource::Reference(r) => v["reference"] = json!(r),
        SkinSource::Embedded => {}
    }
    if let Some(m) = s.material {
        v["material"] = json!({ "diffuse": m.diffuse, "power": m.power });
    }
    if let Some(e) = &s.effect {
        v["effect"] = json!(e);
    }
    v
}

fn describe_file(f: &Mdl7File, size: usize, codepage: Option<Codepage>) -> Description {
    let groups: Vec<Value> = f
        .groups
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "skins": g.skins.iter().map(skin_json).collect::<Vec<_>>(),
                "triangles": g.triangles.len(),
                "vertices": g.vertices.len(),
                "frames": g.frames.len(),
            })
        })
        .collect();
    let longest = f.groups.iter().max_by_key(|g| g.frames.len());
    let (frame_names, encoding) = decode_names(
        longest
            .into_iter()
            .flat_map(|g| &g.frames)
            .map(|fr| fr.name_bytes.as_slice()),
        codepage,
    );
    let json = json!({
        "format": "mdl",
        "version": "MDL7",
        "bytes": size,
        "triangles": f.triangle_count(),
        "vertices": f.vertex_count(),
        "frames": f.frame_count(),
        "bones": f.bones.len(),
        "groups": groups,
        "deformers": f.deformers.len(),
        "frame_names": frame_names,
        "frame_name_encoding": encoding,
    });
    let mut lines = vec![format!(
        "MDL7 model, {size} bytes: {} groups, {} triangles, {} vertices, {} frames, {} bones, {} deformers",
        f.groups.len(),
        f.triangle_count(),
        f.vertex_count(),
        f.frame_count(),
        f.bones.len(),
        f.deformers.len()
    )];
    for (i, g) in f.groups.iter().enumerate() {
        lines.push(format!(
            "group {i} {:?}: {} skins, {} triangles, {} vertices, {} frames",
            g.name,
            g.skins.len(),
            g.triangles.len(),
            g.vertices.len(),
            g.frames.len()
        ));
        for (k, s) in g.skins.iter().enumerate() {
            let what = match &s.source {
                SkinSource::External(n) => format!("external file \"{n}\""),
                SkinSource::Reference(r) => format!("reference to skin {r}"),
                SkinSource::Embedded => format!(
                    "{} {}x{}{}",
                    kind_name(s.skin.kind),
                    s.skin.width,
                    s.skin.height,
                    if s.skin.has_mipmaps { " + mipmaps" } else { "" }
                ),
            };
            let mat = if s.material.is_some() {
                ", with material"
            } else {
                ""
            };
            lines.push(format!("  skin {k}: type {} ({what}){mat}", s.raw_type));
        }
    }
    if !frame_names.is_empty() {
        let shown: Vec<&str> = frame_names.iter().take(12).map(String::as_str).collect();
        lines.push(format!(
            "frames ({encoding}): {}{}",
            shown.join(", "),
            if frame_names.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        ));
    }
    Description {
        json,
        text: lines.join("\n"),
    }
}
