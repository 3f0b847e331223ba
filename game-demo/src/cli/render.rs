//! `modex render FILE -o out.png`: a headless picture of a model, terrain or voxel unit, drawn by
//! the file's format family.

use anyhow::{bail, Context, Result};
use modex_assets::{Asset, Family};

use super::formats::{model_render, palette, voxel, wmb_render};
use super::RenderArgs;

/// Errors name the file as `modex info` does (`Asset::open`'s own errors already do).
pub fn run(args: &RenderArgs) -> Result<()> {
    let asset = Asset::open(&args.file)?;
    render(args, &asset).with_context(|| args.file.display().to_string())
}

fn render(args: &RenderArgs, asset: &Asset) -> Result<()> {
    if asset.format() == modex_assets::Format::Wmb {
        return wmb_render::render(args, asset);
    }
    if args.place.given() {
        bail!(
            "--camera and --start place a level's camera; {} files are not levels",
            asset.format()
        );
    }
    match asset.format().family() {
        Family::Model => model_render::render(args, asset),
        Family::Voxel => voxel::render(args, asset),
        Family::Cutscene => bail!("{} files are exported with `modex export`", asset.format()),
        Family::Palette => Err(palette::not_drawable(asset)),
    }
}
