//! MDL2..MDL5 / IDPO models and HMP terrain.

use modex::FormatResult;
use modex_mdl::hmp::HmpFile;
use modex_mdl::mdl::MdlFile;
use modex_mdl::skin::{dds_fourcc, kind_name};
use modex_mdl::{Model, Skin, SkinPixels};
use serde_json::{json, Value};

use super::names::{decode_names, name_runs, Codepage};
use super::Description;

/// `modex info` for an MDL2..MDL5 or IDPO file.
pub fn describe_mdl(bytes: &[u8], codepage: Option<Codepage>) -> FormatResult<Description> {
    Ok(mdl(&MdlFile::parse(bytes)?, bytes.len(), codepage))
}

/// `modex info` for an HMP terrain.
pub fn describe_hmp(bytes: &[u8]) -> FormatResult<Description> {
    Ok(hmp(&HmpFile::parse(bytes)?, bytes.len()))
}

/// Box of frame 0 as `[[min], [max]]`, computed from the decoded vertices.
pub(super) fn bbox_json(model: &Model) -> Value {
    match model.frames.first() {
        Some(f) => json!([f.bbox_min.to_array(), f.bbox_max.to_array()]),
        None => Value::Null,
    }
}

pub(super) fn skin_json(skin: &Skin) -> Value {
    let mut v = json!({
        "type": skin.kind,
        "format": kind_name(skin.kind),
        "width": skin.width,
        "height": skin.height,
        "mipmaps": skin.has_mipmaps,
    });
    match &skin.pixels {
        SkinPixels::Dds(b) => {
            v["dds_bytes"] = json!(b.len());
            v["dds_format"] = json!(dds_fourcc(b));
        }
        SkinPixels::External(name) => v["external"] = json!(name),
        _ => {}
    }
    v
}

pub(super) fn skin_line(i: usize, skin: &Skin) -> String {
    let mips = if skin.has_mipmaps { ", +3 mipmaps" } else { "" };
    match &skin.pixels {
        SkinPixels::Dds(b) => format!(
            "skin {i}: type {} (DDS, {}) {}x{}, {} bytes kept undecoded{mips}",
            skin.kind,
            dds_fourcc(b).unwrap_or_else(|| "no DDS header".into()),
            skin.width,
            skin.height,
            b.len()
        ),
        SkinPixels::External(name) => {
            format!("skin {i}: type {} (external file \"{name}\")", skin.kind)
        }
        _ => format!(
            "skin {i}: type {} ({}) {}x{}{mips}",
            skin.kind,
            kind_name(skin.kind),
            skin.width,
            skin.height
        ),
    }
}

pub(super) fn bbox_text(model: &Model) -> String {
    match model.frames.first() {
        Some(f) => format!(
            "bounding box (frame 0): min {:.3} {:.3} {:.3}, max {:.3} {:.3} {:.3}",
            f.bbox_min.x, f.bbox_min.y, f.bbox_min.z, f.bbox_max.x, f.bbox_max.y, f.bbox_max.z
        ),
        None => "no frames".into(),
    }
}

fn mdl(f: &MdlFile, size: usize, codepage: Option<Codepage>) -> Description {
    let m = &f.model;
    let h = &f.header;
    let (names, encoding) =
        decode_names(f.frames.iter().map(|fi| fi.name_bytes.as_slice()), codepage);
    let json = json!({
        "format": "mdl",
        "version": h.version.as_str(),
        "bytes": size,
        "skins": m.skins.iter().map(skin_json).collect::<Vec<_>>(),
        "vertices": m.vertex_count(),
        "triangles": m.triangles.len(),
        "skin_vertices": f.skin_vertices.len(),
        "frames": names,
        "frame_name_encoding": encoding,
        "bbox": bbox_json(m),
        "scale": h.scale.to_array(),
        "offset": h.offset.to_array(),
        "bounding_radius": h.bounding_radius,
        "flags": h.flags,
        "packing": f.frames.first().map(|fi| format!("{:?}", fi.packing).to_lowercase()),
        "clamped_normals": f.clamped_normals,
    });
    let mut lines = vec![format!("{} model, {size} bytes", h.version)];
    if m.skins.is_empty() {
        lines.push("no skins".into());
    }
    lines.extend(m.skins.iter().enumerate().map(|(i, s)| skin_line(i, s)));
    lines.push(format!(
        "{} vertices, {} triangles, {} skin vertices, {} frame{} ({})",
        m.vertex_count(),
        m.triangles.len(),
        f.skin_vertices.len(),
        m.frames.len(),
        if m.frames.len() == 1 { "" } else { "s" },
        f.frames
            .first()
            .map_or("-".into(), |fi| format!("{:?}-packed", fi.packing)
                .to_lowercase())
    ));
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    lines.push(format!(
        "frames ({encoding}): {}",
        name_runs(&names).join(", ")
    ));
    lines.push(bbox_text(m));
    lines.push(format!(
        "scale {} offset {} bounding radius {:.3}",
        h.scale, h.offset, h.bounding_radius
    ));
    if f.clamped_normals > 0 {
        lines.push(format!(
            "{} normal indices above 161 clamped",
            f.clamped_normals
        ));
    }
    Description {
        json,
        text: lines.join("\n"),
    }
}

fn hmp(f: &HmpFile, size: usize) -> Description {
    let m = &f.model;
    let h = &f.header;
    let skins: Vec<Value> = m
        .skins
        .iter()
        .zip(&f.skins)
        .map(|(s, info)| {
            let mut v = skin_json(s);
            if let Some(r) = info.reference {
                v["reference"] = json!(r);
            }
            if let Some(e) = &info.effect {
                v["effect"] = json!(e);
            }
            if info.material.is_some() {
                v["material"] = json!(true);
            }
            v
        })
        .collect();
    let json = json!({
        "format": "hmp",
        "version": h.version.as_str(),
        "bytes": size,
        "skins": skins,
        "vertices": m.vertex_count(),
        "triangles": m.triangles.len(),
        "skin_vertices": m.uvs.len(),
        "frames": m.frames.iter().map(|f| f.name.clone()).collect::<Vec<_>>(),
        "bbox": bbox_json(m),
        "grid": [f.columns, f.rows],
        "cell_size": [h.trisize_x, h.trisize_y],
        "scale": h.scale.to_array(),
        "offset": h.offset.to_array(),
        "flags": h.flags,
    });
    let mut lines = vec![format!("{} terrain, {size} bytes", h.version)];
    if m.skins.is_empty() {
        lines.push("no skins".into());
    }
    for (i, (s, info)) in m.skins.iter().zip(&f.skins).enumerate() {
        let mut line = match info.reference {
            Some(r) => format!("skin {i}: reference to skin {r}"),
            None => skin_line(i, s),
        };
        if info.material.is_some() {
            line.push_str(", with material");
        }
        if let Some(e) = &info.effect {
            line.push_str(&format!(", effect {:?}", e));
        }
        lines.push(line);
    }
    lines.push(format!(
        "grid {} x {} vertices, cell {} x {}, {} triangles",
        f.columns,
        f.rows,
        h.trisize_x,
        h.trisize_y,
        m.triangles.len()
    ));
    lines.push(format!(
        "frames: {}",
        m.frames
            .iter()
            .map(|f| if f.name.is_empty() {
                "(unnamed)".into()
            } else {
                format!("{:?}", f.name)
            })
            .collect::<Vec<_>>()
            .join(", ")
    ));
    lines.push(bbox_text(m));
    Description {
        json,
        text: lines.join("\n"),
    }
}
