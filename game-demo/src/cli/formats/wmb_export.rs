//! `modex export LEVEL.wmb`: `--skins DIR` (each texture's first level as PNG, named after the
//! texture), `--lightmaps DIR` (each page as `lightmap_NNN.png`, R G B, top row first), `--obj
//! FILE` (the blocks, one material per texture; `--entities` adds the placed models posed at
//! frame 0), through the shared OBJ writer.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{bail, Context, Result};
use modex_assets::Asset;
use modex_mdl::wmb::surface::texture_models;
use modex_mdl::wmb::WmbFile;
use modex_mdl::Model;

use super::model::palette_or_quake;
use modex_view::level::Level;

use super::wmb::load_level;
use crate::cli::ExportArgs;

/// A texture name made a file name: `#` and characters unsafe in file names removed, and a
/// number appended when an earlier texture took the name ([`super::obj_export::unique_name`]).
pub fn png_name(name: &str, taken: &mut HashSet<String>) -> String {
    format!(
        "{}.png",
        super::obj_export::unique_name(name, "texture", taken)
    )
}

fn create(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

pub fn export(args: &ExportArgs, asset: &Asset) -> Result<()> {
    if args.skins.is_none() && args.lightmaps.is_none() && args.obj.is_none() {
        bail!("levels export --skins DIR, --lightmaps DIR or --obj FILE [--entities]");
    }
    let file = WmbFile::parse(asset.bytes())?;
    if let Some(dir) = &args.skins {
        create(dir)?;
        let mut taken = HashSet::new();
        for t in &file.textures {
            let name = png_name(&t.name, &mut taken);
            match t.rgba(0) {
                Some((w, h, rgba)) => {
                    let path = dir.join(&name);
                    modex::pngio::save_rgba(&path, w, h, &rgba)?;
                    println!("{}", path.display());
                }
                None => log::warn!("texture {} (type {}) is not decoded", t.name, t.kind),
            }
        }
    }
    if let Some(dir) = &args.lightmaps {
        create(dir)?;
        let d = file.lightmap_dim;
        for i in 0..file.lightmaps.len() {
            let rgb = file.lightmap_rgb(i).expect("page exists");
            let rgba: Vec<u8> = rgb
                .chunks_exact(3)
                .flat_map(|c| [c[0], c[1], c[2], 255])
                .collect();
            let path = dir.join(format!("lightmap_{i:03}.png"));
            modex::pngio::save_rgba(&path, d, d, &rgba)?;
            println!("{}", path.display());
        }
    }
    if let Some(out) = &args.obj {
        // Materials are named after the texture (`--skins` names its PNGs the same way).
        let (mut names, mut models): (Vec<Option<String>>, Vec<Model>) = texture_models(&file)
            .into_iter()
            .map(|(t, m)| (file.textures.get(t as usize).map(|t| t.name.clone()), m))
            .unzip();
        if args.entities {
            let palette = palette_or_quake(args.palette.as_deref())?;
            let level = load_level(asset.path(), asset.bytes(), &args.path, &palette)?;
            for (name, model) in posed_entities(&level) {
                names.push(Some(name));
                models.push(model);
            }
        }
        if models.is_empty() {
            bail!(
                "{}: the level has no geometry to export",
                asset.path().display()
            );
        }
        super::obj_export::export(&models, &names, 0, out)?;
    }
    Ok(())
}

/// Frame 0 of every placed model (sprites: their quad facing +X turned by the entity) in world
/// space, each with its entity file's name.
fn posed_entities(level: &Level) -> Vec<(String, Model)> {
    let mut out = Vec::new();
    for p in &level.placed {
        let f = &level.files[p.file];
        let m = p.entity().matrix();
        let normal = m.inverse().transpose();
        for model in &f.models {
            let Some(frame) = model.frames.first() else {
                continue;
            };
            let mut frame = frame.clone();
            for v in frame.positions.iter_mut() {
                *v = m.transform_point3(*v);
            }
            for n in frame.normals.iter_mut() {
                *n = normal.transform_vector3(*n).normalize_or_zero();
            }
            let mut posed = model.clone();
            posed.frames = vec![frame];
            out.push((f.name.clone(), posed));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_names_drop_unsafe_characters_and_stay_unique() {
        let mut taken = HashSet::new();
        assert_eq!(png_name("#default", &mut taken), "default.png");
        assert_eq!(png_name("default", &mut taken), "default_1.png");
        assert_eq!(png_name("a/b:c*", &mut taken), "abc.png");
        assert_eq!(png_name("###", &mut taken), "texture.png");
    }
}
