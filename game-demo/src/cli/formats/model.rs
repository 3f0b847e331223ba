//! CLI for 3D GameStudio models and terrain (MDL, HMP): `info` and skin export.
//!
//! The decoding lives in `modex_raster::{mdl, hmp}`; this module only turns a decoded file into
//! text, JSON and PNG files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use modex::{IndexedFrame, Palette};
use modex_mdl::hmp::HmpFile;
use modex_mdl::mdl::MdlFile;
use modex_mdl::mdl7;
use modex_mdl::skin::{dds_fourcc, kind_name};
use modex_mdl::{Model, Skin, SkinPixels};
use serde_json::{json, Value};

use modex_assets::{Asset, Format};

use super::Description;
use crate::cli::{Codepage, ExportArgs};

pub fn describe(asset: &Asset, codepage: Option<Codepage>) -> Result<Description> {
    let bytes = asset.bytes();
    match asset.format() {
        Format::Mdl if mdl7::sniff(bytes) => Ok(super::mdl7::describe(
            &mdl7::Mdl7File::parse(bytes)?,
            bytes.len(),
            codepage,
        )),
        Format::Mdl => Ok(describe_mdl(&MdlFile::parse(bytes)?, bytes.len(), codepage)),
        Format::Hmp => Ok(describe_hmp(&HmpFile::parse(bytes)?, bytes.len())),
        Format::StoriesMdl => super::stories::describe(asset),
        other => bail!("{other} is not a model format"),
    }
}

/// `--palette` read by the engine's one palette rule, else the Quake palette (the default of 8-bit
/// GameStudio skins).
pub fn palette_or_quake(path: Option<&Path>) -> Result<Palette> {
    Ok(match path {
        Some(p) => modex_assets::open_palette(p)?,
        None => Palette::quake(),
    })
}

/// The renderer models of a model file (`modex_view::model::load_models`): one for MDL2..5, HMP
/// and Stories models, one per group and skin for MDL7, whose external skins are looked up beside
/// the file, then in `skins_dir`.
pub fn load_models(
    asset: &Asset,
    palette: &Palette,
    skins_dir: Option<&Path>,
) -> Result<Vec<Model>> {
    let extra = skins_dir.map(modex::DirSource::new);
    let skins = modex_view::model::SkinSources {
        folder: asset.file().folder(),
        extra: extra.as_ref().map(|d| d as &dyn modex::FileSource),
    };
    let name = asset.path().display().to_string();
    Ok(modex_view::model::load_models(
        asset.format(),
        &name,
        asset.bytes(),
        palette,
        &skins,
    )?)
}

/// What each of [`load_models`]' models is called in the file, for the OBJ materials: MDL7 parts
/// by their skin or group name ([`mdl7::Mdl7File::part_names`]); MDL2..MDL5 and HMP name neither
/// model nor skin, so theirs are `None`.
fn part_names(asset: &Asset) -> Result<Vec<Option<String>>> {
    Ok(match asset.format() {
        Format::Mdl if mdl7::sniff(asset.bytes()) => {
            mdl7::Mdl7File::parse(asset.bytes())?.part_names()
        }
        _ => Vec::new(),
    })
}

/// Box of frame 0 as `[[min], [max]]`, computed from the decoded vertices.
fn bbox_json(model: &Model) -> Value {
    match model.frames.first() {
        Some(f) => json!([f.bbox_min.to_array(), f.bbox_max.to_array()]),
        None => Value::Null,
    }
}

fn skin_json(skin: &Skin) -> Value {
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

fn skin_line(i: usize, skin: &Skin) -> String {
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

/// Frame names, with runs like `walk1 walk2 .. walk8` shortened to `walk1..walk8 (8)`.
fn name_runs(names: &[&str]) -> Vec<String> {
    fn split(name: &str) -> (&str, Option<u64>) {
        let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
        (stem, name[stem.len()..].parse().ok())
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < names.len() {
        let (stem, n) = split(names[i]);
        let mut j = i + 1;
        if let Some(mut last) = n {
            while j < names.len() {
                match split(names[j]) {
                    (s, Some(m)) if s == stem && m == last + 1 => {
                        last = m;
                        j += 1;
                    }
                    _ => break,
                }
            }
        }
        out.push(if j - i > 2 {
            format!("{}..{} ({})", names[i], names[j - 1], j - i)
        } else {
            names[i..j].join(", ")
        });
        i = j;
    }
    out
}

fn bbox_text(model: &Model) -> String {
    match model.frames.first() {
        Some(f) => format!(
            "bounding box (frame 0): min {:.3} {:.3} {:.3}, max {:.3} {:.3} {:.3}",
            f.bbox_min.x, f.bbox_min.y, f.bbox_min.z, f.bbox_max.x, f.bbox_max.y, f.bbox_max.z
        ),
        None => "no frames".into(),
    }
}

fn describe_mdl(f: &MdlFile, size: usize, codepage: Option<Codepage>) -> Description {
    let m = &f.model;
    let h = &f.header;
    let (names, encoding) =
        super::mdl7::decode_names(f.frames.iter().map(|fi| fi.name_bytes.as_slice()), codepage);
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

fn describe_hmp(f: &HmpFile, size: usize) -> Description {
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

pub fn export(args: &ExportArgs, asset: &Asset) -> Result<()> {
    if asset.format() == Format::StoriesMdl {
        return super::stories::export(args, asset);
    }
    if let Some(out) = &args.obj {
        let palette = palette_or_quake(args.palette.as_deref())?;
        let models = load_models(asset, &palette, None)?;
        super::obj_export::export(&models, &part_names(asset)?, args.frame as usize, out)?;
        if args.skins.is_none() {
            return Ok(());
        }
    }
    let Some(dir) = &args.skins else {
        bail!("models export their skins (--skins DIR) or a frame as OBJ (--obj FILE)");
    };
    let palette = palette_or_quake(args.palette.as_deref())?;
    let models = load_models(asset, &palette, None)?;
    let skins: Vec<&Skin> = models.iter().flat_map(|m| &m.skins).collect();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let stem = args
        .input
        .file_stem()
        .map_or("model".into(), |s| s.to_string_lossy().into_owned());
    if skins.is_empty() {
        println!("{}: no skins", args.input.display());
    }
    for (i, skin) in skins.into_iter().enumerate() {
        let out = |ext: &str| -> PathBuf { dir.join(format!("{stem}_skin{i}.{ext}")) };
        match &skin.pixels {
            SkinPixels::Indexed(indices) => {
                let frame = IndexedFrame::from_pixels(skin.width, skin.height, indices.clone())
                    .context("skin size does not match its pixels")?;
                let path = out("png");
                modex::pngio::save_indexed(&path, &frame, &palette)?;
                println!("{} (indexed 8-bit)", path.display());
            }
            SkinPixels::Dds(b) => {
                let path = out("dds");
                std::fs::write(&path, b)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                println!("{} (embedded DDS written as is)", path.display());
                if let Some((w, h, rgba)) = modex_mdl::dds::decode(b) {
                    let path = out("png");
                    modex::pngio::save_rgba(&path, w, h, &rgba)?;
                    println!("{} (DDS top level decoded, RGBA)", path.display());
                }
            }
            SkinPixels::External(name) => {
                println!("skin {i}: refers to the external file \"{name}\", nothing to write");
            }
            _ => {
                let path = out("png");
                modex::pngio::save_rgba(&path, skin.width, skin.height, &skin.rgba)?;
                println!("{} ({}, RGBA)", path.display(), kind_name(skin.kind));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_runs_shorten_numbered_sequences() {
        let names = ["walk1", "walk2", "walk3", "walk4", "die1", "die2", "idle"];
        assert_eq!(
            name_runs(&names),
            ["walk1..walk4 (4)", "die1, die2", "idle"]
        );
    }
}
