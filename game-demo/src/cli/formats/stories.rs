//! CLI for GTA Liberty City / Vice City Stories PS2 models (`.mdl`): `export --obj`
//! (their renderer light is `modex_view::model::light_for`'s).
//!
//! The decoding, the drawing conversion and the OBJ conversion live in
//! `modex_mdl::stories_mdl`; this module writes them to files (`info` is `modex_view::info`'s).

use std::path::Path;

use anyhow::{bail, Context, Result};
use modex_assets::Asset;
use modex_mdl::obj::{encode_mtl, encode_obj};
use modex_mdl::stories_mdl::StoriesModel;

use crate::cli::ExportArgs;

/// `modex export FILE.mdl --obj OUT.obj`: the OBJ, and its materials in `OUT.mtl` beside it.
pub fn export(args: &ExportArgs, asset: &Asset) -> Result<()> {
    let Some(out) = &args.obj else {
        bail!("GTA Stories models are exported as Wavefront OBJ: pass --obj OUT.obj");
    };
    let m =
        StoriesModel::parse(asset.bytes()).with_context(|| format!("{}", args.input.display()))?;
    let obj = m.to_obj();
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let mtl_path = out.with_extension("mtl");
    let mtl_name = mtl_path
        .file_name()
        .map_or("model.mtl".into(), |n| n.to_string_lossy().into_owned());
    write_file(out, |f| encode_obj(&obj, &mtl_name, f))?;
    write_file(&mtl_path, |f| encode_mtl(&obj, f))?;
    println!(
        "{} ({} vertices, {} triangles, {} materials)",
        out.display(),
        obj.positions.len(),
        obj.faces.len(),
        obj.materials.len()
    );
    println!("{}", mtl_path.display());
    Ok(())
}

fn write_file(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<()> {
    let mut f =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    write(&mut f).with_context(|| format!("cannot write {}", path.display()))
}
