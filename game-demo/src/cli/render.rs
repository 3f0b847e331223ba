//! `modex render FILE -o out.png`: a headless picture of a model, terrain or voxel unit, drawn by
//! the file's format family.

use anyhow::{bail, Result};
use modex_assets::{Asset, Family};

use super::formats::{model_render, palette, voxel, wmb_render};
use super::RenderArgs;

pub fn run(args: &RenderArgs) -> Result<()> {
    let asset = Asset::open(&args.file)?;
    if asset.format() == modex_assets::Format::Wmb {
        return wmb_render::render(args, &asset);
    }
    match asset.format().family() {
        Family::Model => model_render::render(args, &asset),
        Family::Voxel => voxel::render(args, &asset),
        Family::Cutscene => bail!("{} files are exported with `modex export`", asset.format()),
        Family::Palette => Err(palette::not_drawable(&asset)),
    }
}
