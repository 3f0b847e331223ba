//! `modex view FILE`: the interactive viewer of the file's format family (models and terrain, voxel
//! units).

use anyhow::{bail, Context, Result};
use modex_assets::{Asset, Family};

use super::formats::{model_render, palette, voxel, wmb_render};
use super::ViewArgs;

/// Errors name the file as `modex info` does (`Asset::open`'s own errors already do).
pub fn run(args: &ViewArgs) -> Result<()> {
    let asset = Asset::open(&args.file)?;
    view(args, &asset).with_context(|| args.file.display().to_string())
}

fn view(args: &ViewArgs, asset: &Asset) -> Result<()> {
    if asset.format() == modex_assets::Format::Wmb {
        return wmb_render::view(args, asset);
    }
    if args.place.given() {
        bail!(
            "--camera and --start place a level's camera; {} files are not levels",
            asset.format()
        );
    }
    // The walk-through's own options: refused, not silently ignored, for the other viewers.
    if args.bench || args.threads.is_some() || !args.path.is_empty() {
        bail!(
            "--bench, --threads and --path are for WMB levels; {} files open in the interactive viewer",
            asset.format()
        );
    }
    match asset.format().family() {
        Family::Model => model_render::view(args, asset),
        Family::Voxel => voxel::view(args, asset),
        Family::Cutscene => bail!("{} files are played with `modex play`", asset.format()),
        Family::Palette => Err(palette::not_drawable(asset)),
    }
}
