//! Dispatch of `info`, `view`, `render`, `play` and `export` to one module per format family. A file
//! is read once and its format detected by `modex_assets` (each format crate's `sniff`, then the
//! extension); each family module maps the command's arguments to library calls.

mod cutscene;
mod mdl7;
mod model;
mod model_render;
mod obj_export;
mod palette;
mod stories;
mod target;
mod voxel;

use std::io::Write;

use anyhow::{bail, Context, Result};
use modex_assets::{Asset, Family};

use crate::cli::{Codepage, ExportArgs, InfoArgs, PlayArgs, RenderArgs, ViewArgs};

/// A summary of one file for `modex info`.
pub struct Description {
    /// One JSON object with at least a `format` key.
    pub json: serde_json::Value,
    /// Human-readable lines.
    pub text: String,
}

fn describe(path: &std::path::Path, codepage: Option<Codepage>) -> Result<Description> {
    let asset = Asset::open(path)?;
    let d = match asset.format().family() {
        Family::Model => model::describe(&asset, codepage),
        Family::Voxel => voxel::describe(&asset),
        Family::Cutscene => cutscene::describe(&asset),
        // The palette rule's errors name the file themselves.
        Family::Palette => return palette::describe(&asset),
    };
    d.with_context(|| format!("{}", path.display()))
}

/// `modex info`: every file is described; any failure makes the exit status non-zero.
pub fn info(args: &InfoArgs) -> Result<()> {
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for path in &args.files {
        let written = match describe(path, args.codepage) {
            Ok(d) if args.json => writeln!(out, "{}", d.json),
            Ok(d) => {
                let mut text = format!("{}:\n", path.display());
                for line in d.text.lines() {
                    text.push_str(&format!("  {line}\n"));
                }
                out.write_all(text.as_bytes())
            }
            Err(e) => {
                eprintln!("error: {e:#}");
                failed += 1;
                Ok(())
            }
        };
        // A closed pipe (`modex info ... | head`) ends the listing quietly instead of panicking.
        match written {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            other => other?,
        }
    }
    if failed > 0 {
        bail!("{failed} of {} files could not be read", args.files.len());
    }
    Ok(())
}

/// A file passed where a palette belongs is described, not shown.
fn palette_hint(asset: &Asset) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: a palette file ({}); give it as --palette to the file it colours",
        asset.path().display(),
        asset.format()
    )
}

pub fn view(args: &ViewArgs) -> Result<()> {
    let asset = Asset::open(&args.file)?;
    match asset.format().family() {
        Family::Model => model_render::view(args, &asset),
        Family::Voxel => voxel::view(args, &asset),
        Family::Cutscene => bail!("{} files are played with `modex play`", asset.format()),
        Family::Palette => Err(palette_hint(&asset)),
    }
}

pub fn render(args: &RenderArgs) -> Result<()> {
    let asset = Asset::open(&args.file)?;
    match asset.format().family() {
        Family::Model => model_render::render(args, &asset),
        Family::Voxel => voxel::render(args, &asset),
        Family::Cutscene => bail!("{} files are exported with `modex export`", asset.format()),
        Family::Palette => Err(palette_hint(&asset)),
    }
}

pub fn play(args: &PlayArgs) -> Result<()> {
    cutscene::play(args)
}

pub fn export(args: &ExportArgs) -> Result<()> {
    if args.input.is_dir() {
        return cutscene::export(args, None);
    }
    let asset = Asset::open(&args.input)?;
    match asset.format().family() {
        Family::Model => model::export(args, &asset),
        Family::Voxel => bail!("voxel files have nothing to export yet; use `modex render`"),
        Family::Cutscene => cutscene::export(args, Some(&asset)),
        Family::Palette => Err(palette_hint(&asset)),
    }
}
