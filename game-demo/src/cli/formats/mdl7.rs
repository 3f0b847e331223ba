//! CLI for MDL7 (GameStudio A6..A8) models: `info` text and JSON (the renderer models with their
//! external skins are `modex_view::model::load_models`').
//!
//! Decoding and posing are `modex_mdl::mdl7`; this module only prints.

use modex_mdl::mdl7::{Mdl7File, SkinSource};
use modex_mdl::skin::kind_name;
use serde_json::{json, Value};

use super::Description;
use crate::cli::Codepage;

/// Decode a stored name: plain ASCII as is; else the `codepage` the user gave (gbk, 1252, 1251,
/// 437); else UTF-8 if valid; else Windows-1252. Returns the text and the encoding used.
///
/// The user's code page comes before UTF-8 because short GBK names are often valid UTF-8 too:
/// the real MDL4 frame names `帧0..帧480` (GBK `D6 A1`) read as UTF-8 `֡0..֡480`.
fn decode_name(bytes: &[u8], codepage: Option<Codepage>) -> (String, &'static str) {
    match std::str::from_utf8(bytes) {
        Ok(s) if s.is_ascii() => return (s.to_string(), "UTF-8"),
        Ok(s) if codepage.is_none() => return (s.to_string(), "UTF-8"),
        _ => {}
    }
    match codepage {
        Some(Codepage::Cp437) => (modex::cp437::decode(bytes), "CP437"),
        Some(Codepage::Gbk) => (
            encoding_rs::GBK
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
            "GBK",
        ),
        Some(Codepage::Windows1251) => (
            encoding_rs::WINDOWS_1251
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
            "Windows-1251",
        ),
        Some(Codepage::Windows1252) | None => (
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
            "Windows-1252",
        ),
    }
}

/// Decode a model's frame names by [`decode_name`]. Returns the names and the encodings used, in
/// the order first met and joined by `+` (`UTF-8` for a model without frames), as `info` shows
/// them: a file whose names mix encodings says so.
pub fn decode_names<'a>(
    names: impl IntoIterator<Item = &'a [u8]>,
    codepage: Option<Codepage>,
) -> (Vec<String>, String) {
    let mut encodings: Vec<&str> = Vec::new();
    let names = names
        .into_iter()
        .map(|bytes| {
            let (name, enc) = decode_name(bytes, codepage);
            if !encodings.contains(&enc) {
                encodings.push(enc);
            }
            name
        })
        .collect();
    let encoding = if encodings.is_empty() {
        "UTF-8".to_string()
    } else {
        encodings.join("+")
    };
    (names, encoding)
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

/// `modex info` for an MDL7 file.
pub fn describe(f: &Mdl7File, size: usize, codepage: Option<Codepage>) -> Description {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decode_utf8_then_the_code_page_then_1252() {
        // GBK for 帧0: what a real MDL4 file's frame names are.
        let gbk = [0xD6, 0xA1, b'0'];
        assert_eq!(
            decode_name(&gbk, Some(Codepage::Gbk)),
            ("帧0".to_string(), "GBK")
        );
        assert_eq!(decode_name(&gbk, None), ("\u{5a1}0".to_string(), "UTF-8"));
        assert_eq!(
            decode_name(&[0xD6, 0x30], None),
            ("Ö0".to_string(), "Windows-1252")
        );
        assert_eq!(
            decode_name("walk".as_bytes(), Some(Codepage::Gbk)),
            ("walk".into(), "UTF-8")
        );
        assert_eq!(
            decode_name(&[0x80, 0xFF], Some(Codepage::Cp437)).0,
            "Ç\u{a0}"
        );
        assert_eq!(decode_name(&[0xC0], Some(Codepage::Windows1251)).0, "А");
    }
}
