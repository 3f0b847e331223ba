//! CLI for 3D GameStudio models and terrain (MDL, HMP): skin and OBJ export.
//!
//! The decoding lives in `modex_mdl::{mdl, hmp}`; this module only turns a decoded file into PNG
//! and OBJ files (`info` is `modex_view::info`'s).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use modex::{IndexedFrame, Palette};
use modex_mdl::mdl7;
use modex_mdl::skin::kind_name;
use modex_mdl::{Model, Skin, SkinPixels};

use modex_assets::{Asset, Format};

use crate::cli::ExportArgs;

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
                let frame = IndexedFrame::from_pixels(skin.width, skin.height, indices.to_vec())
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
